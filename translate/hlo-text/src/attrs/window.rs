//! Per-dimension index-space attributes: `slice`, pad-op `padding`,
//! `window`, and convolution `dim_labels`.

use super::{list, read, Scan};
use crate::ast::AttrValue;
use crate::lexer::{Result, Tok};

/// One dimension of `slice={[start:limit:stride], ...}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceDim {
    pub start: i64,
    pub limit: i64,
    /// 1 when the text omits it.
    pub stride: i64,
}

/// `slice={[0:4:2], [1:3]}` (stride defaults to 1).
pub fn slice(v: &AttrValue) -> Result<Vec<SliceDim>> {
    read(v, |p| {
        list(p, super::BRACES, "slice ranges", |p| {
            let open = p.peek()?;
            let parts =
                list(p, [Tok::LSquare, Tok::Colon, Tok::RSquare], "a slice range", |p| p.int("expects an integer"))?;
            match parts[..] {
                [start, limit] => Ok(SliceDim { start, limit, stride: 1 }),
                [start, limit, stride] => Ok(SliceDim { start, limit, stride }),
                _ => Err(crate::parser::error_at(&open, "expects [start:limit] or [start:limit:stride]")),
            }
        })
    })
}

/// One dimension of a pad op's `padding=low_high_interior`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PaddingDim {
    pub low: i64,
    pub high: i64,
    /// 0 when the text omits it.
    pub interior: i64,
}

/// `padding=0_0_1x1_2`: `low_high[_interior]` per dimension, separated by
/// `x`. Edge padding may be negative; interior padding may not.
pub fn padding(v: &AttrValue) -> Result<Vec<PaddingDim>> {
    let mut s = Scan::new(v);
    let mut out = Vec::new();
    loop {
        let low = s.int()?;
        s.expect(b'_', "expects '_' between low and high padding")?;
        let high = s.int()?;
        let mut interior = 0;
        if s.eat(b'_') {
            let at = s.i;
            interior = s.int()?;
            if interior < 0 {
                return Err(s.error_at(at, "interior padding is not negative"));
            }
        }
        out.push(PaddingDim { low, high, interior });
        if !s.eat(b'x') {
            break;
        }
    }
    s.end()?;
    Ok(out)
}

/// One dimension of a `window={...}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowDim {
    pub size: i64,
    /// `stride=`, default 1.
    pub stride: i64,
    /// `pad=low_high`, default 0.
    pub padding_low: i64,
    pub padding_high: i64,
    /// `lhs_dilate=` (base dilation), default 1.
    pub lhs_dilate: i64,
    /// `rhs_dilate=` (window dilation), default 1.
    pub rhs_dilate: i64,
    /// `rhs_reversal=` 1 for reversed, default false.
    pub rhs_reversal: bool,
}

/// `window={size=3x3 stride=2x2 pad=0_1x0_1 lhs_dilate=1x1 rhs_dilate=1x1
/// rhs_reversal=0x0}`: fields in any order, `x`-separated per dimension;
/// every given field has one entry per `size` entry; missing ones take
/// their defaults. `{}` is the window of no dimensions.
pub fn window(v: &AttrValue) -> Result<Vec<WindowDim>> {
    let mut s = Scan::new(v);
    s.skip_blank();
    s.expect(b'{', "expects '{' to start the window")?;
    const FIELDS: [&str; 6] = ["size", "stride", "pad", "lhs_dilate", "rhs_dilate", "rhs_reversal"];
    // Per field: (offset of its value, one list per dimension).
    let mut fields: [Option<(usize, Vec<Vec<i64>>)>; 6] = Default::default();
    loop {
        s.skip_blank();
        if s.eat(b'}') {
            break;
        }
        let key_at = s.i;
        let key = s.word();
        let Some(slot) = FIELDS.iter().position(|f| *f == key) else {
            return Err(s.error_at(key_at, "expects size=, stride=, pad=, lhs_dilate=, rhs_dilate= or rhs_reversal="));
        };
        if fields[slot].is_some() {
            return Err(s.error_at(key_at, &format!("'{key}=' given twice")));
        }
        s.expect(b'=', "expects '=' after the window field")?;
        let at = s.i;
        let mut dims = Vec::new();
        loop {
            let mut parts = vec![s.int()?];
            if key == "pad" {
                s.expect(b'_', "expects low_high padding")?;
                parts.push(s.int()?);
            }
            dims.push(parts);
            if !s.eat(b'x') {
                break;
            }
        }
        fields[slot] = Some((at, dims));
    }
    s.end()?;

    let rank = fields[0].as_ref().map_or(0, |(_, d)| d.len());
    for (name, field) in FIELDS.iter().zip(&fields).skip(1) {
        if let Some((at, dims)) = field {
            if dims.len() != rank {
                return Err(s.error_at(*at, &format!("'{name}=' has {} entries but 'size=' has {rank}", dims.len())));
            }
        }
    }
    let get = |slot: usize, d: usize, part: usize, default: i64| {
        fields[slot].as_ref().map_or(default, |(_, dims)| dims[d][part])
    };
    Ok((0..rank)
        .map(|d| WindowDim {
            size: get(0, d, 0, 0),
            stride: get(1, d, 0, 1),
            padding_low: get(2, d, 0, 0),
            padding_high: get(2, d, 1, 0),
            lhs_dilate: get(3, d, 0, 1),
            rhs_dilate: get(4, d, 0, 1),
            rhs_reversal: get(5, d, 0, 0) == 1,
        })
        .collect())
}

/// Convolution dimension numbers from `dim_labels=b01f_01io->b01f`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ConvDimensionNumbers {
    pub input_batch: i64,
    pub input_feature: i64,
    /// `input_spatial[k]` is the input dimension labelled `k`.
    pub input_spatial: Vec<i64>,
    pub kernel_input_feature: i64,
    pub kernel_output_feature: i64,
    pub kernel_spatial: Vec<i64>,
    pub output_batch: i64,
    pub output_feature: i64,
    pub output_spatial: Vec<i64>,
}

/// `b01f_01io->b01f`: input (`b`, `f`, spatial digits), kernel (`i`, `o`,
/// digits) and output labels, one character per dimension in order; `?`
/// marks a dimension that is none of them. Each part needs its two letters
/// once and the same spatial digits `0..n`.
pub fn conv_dim_labels(v: &AttrValue) -> Result<ConvDimensionNumbers> {
    let text = v.text.as_str();
    let s = Scan::new(v);
    let Some(underscore) = text.find('_') else {
        return Err(s.error_at(0, "expects dim labels like 'b01f_01io->b01f'"));
    };
    let Some(arrow) = text[underscore..].find("->").map(|a| a + underscore) else {
        return Err(s.error_at(underscore, "expects '->' before the output labels"));
    };
    let (input_at, kernel_at, output_at) = (0, underscore + 1, arrow + 2);
    let input = labels(&s, input_at, &text[..underscore], [b'b', b'f'])?;
    let kernel = labels(&s, kernel_at, &text[kernel_at..arrow], [b'i', b'o'])?;
    let output = labels(&s, output_at, &text[output_at..], [b'b', b'f'])?;
    if input.2.len() != kernel.2.len() || input.2.len() != output.2.len() {
        return Err(s.error_at(
            0,
            &format!(
                "input, kernel and output have {}, {} and {} spatial dimensions",
                input.2.len(),
                kernel.2.len(),
                output.2.len()
            ),
        ));
    }
    Ok(ConvDimensionNumbers {
        input_batch: input.0,
        input_feature: input.1,
        input_spatial: input.2,
        kernel_input_feature: kernel.0,
        kernel_output_feature: kernel.1,
        kernel_spatial: kernel.2,
        output_batch: output.0,
        output_feature: output.1,
        output_spatial: output.2,
    })
}

/// One part of the dim labels: where `letters[0]` and `letters[1]` are, and
/// where each spatial digit is.
fn labels(s: &Scan<'_>, at: usize, part: &str, letters: [u8; 2]) -> Result<(i64, i64, Vec<i64>)> {
    let bytes = part.as_bytes();
    let spatial_count = bytes.iter().filter(|b| b.is_ascii_digit()).count();
    let mut found = [None, None];
    let mut spatial = vec![None; spatial_count];
    for (i, &b) in bytes.iter().enumerate() {
        let dup = || s.error_char(at + i, &format!("label '{}' appears twice", b as char));
        if let Some(k) = letters.iter().position(|l| *l == b) {
            if found[k].replace(i as i64).is_some() {
                return Err(dup());
            }
        } else if b.is_ascii_digit() && usize::from(b - b'0') < spatial_count {
            if spatial[usize::from(b - b'0')].replace(i as i64).is_some() {
                return Err(dup());
            }
        } else if b != b'?' {
            return Err(s.error_char(
                at + i,
                &format!(
                    "expects '{}', '{}', '?' or a spatial digit below {spatial_count}",
                    letters[0] as char, letters[1] as char
                ),
            ));
        }
    }
    for (k, f) in found.iter().enumerate() {
        if f.is_none() {
            return Err(s.error_at(at, &format!("missing the '{}' label", letters[k] as char)));
        }
    }
    Ok((found[0].unwrap_or(0), found[1].unwrap_or(0), spatial.into_iter().map(|d| d.unwrap_or(0)).collect()))
}
