//! Literals as bytes between processes: a tag, the dimensions and the
//! elements in little-endian order (bit-exact: NaN payloads and -0 survive).

use half::{bf16, f16};
use num_complex::{Complex32, Complex64};
use rxla_interpreter::{literal::Data, ElementType, Literal};

const ARRAY: u8 = 0;
const TUPLE: u8 = 1;
const TOKEN: u8 = 2;

pub fn encode_str(s: &str) -> Vec<u8> {
    let mut out = (s.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(s.as_bytes());
    out
}

pub fn decode_str(bytes: &[u8], at: &mut usize) -> Result<String, String> {
    let n = u64_at(bytes, at)? as usize;
    let s = take(bytes, at, n)?;
    String::from_utf8(s.to_vec()).map_err(|e| format!("a malformed message: {e}"))
}

/// Appends `literal` to `out`.
pub fn encode(literal: &Literal, out: &mut Vec<u8>) {
    match literal {
        Literal::Array { dims, data } => {
            out.push(ARRAY);
            out.extend_from_slice(&encode_str(data.element_type().name()));
            out.extend_from_slice(&(dims.len() as u64).to_le_bytes());
            for d in dims {
                out.extend_from_slice(&d.to_le_bytes());
            }
            elements(data, out);
        }
        Literal::Tuple(items) => {
            out.push(TUPLE);
            out.extend_from_slice(&(items.len() as u64).to_le_bytes());
            items.iter().for_each(|i| encode(i, out));
        }
        Literal::Token => out.push(TOKEN),
    }
}

fn elements(data: &Data, out: &mut Vec<u8>) {
    macro_rules! put {
        ($v:expr, $f:expr) => {
            for x in $v {
                out.extend_from_slice(&$f(x));
            }
        };
    }
    match data {
        Data::Pred(v) => put!(v, |x: &bool| [*x as u8]),
        Data::S8(v) => put!(v, |x: &i8| x.to_le_bytes()),
        Data::S16(v) => put!(v, |x: &i16| x.to_le_bytes()),
        Data::S32(v) => put!(v, |x: &i32| x.to_le_bytes()),
        Data::S64(v) => put!(v, |x: &i64| x.to_le_bytes()),
        Data::U8(v) => put!(v, |x: &u8| x.to_le_bytes()),
        Data::U16(v) => put!(v, |x: &u16| x.to_le_bytes()),
        Data::U32(v) => put!(v, |x: &u32| x.to_le_bytes()),
        Data::U64(v) => put!(v, |x: &u64| x.to_le_bytes()),
        Data::F16(v) => put!(v, |x: &f16| x.to_bits().to_le_bytes()),
        Data::Bf16(v) => put!(v, |x: &bf16| x.to_bits().to_le_bytes()),
        Data::F32(v) => put!(v, |x: &f32| x.to_bits().to_le_bytes()),
        Data::F64(v) => put!(v, |x: &f64| x.to_bits().to_le_bytes()),
        Data::C64(v) => put!(v, |x: &Complex32| [x.re.to_bits().to_le_bytes(), x.im.to_bits().to_le_bytes()].concat()),
        Data::C128(v) => put!(v, |x: &Complex64| [x.re.to_bits().to_le_bytes(), x.im.to_bits().to_le_bytes()].concat()),
        Data::Bits(_, v) => out.extend_from_slice(v),
    }
}

/// Reads a literal written by [`encode`] at `*at`, advancing it.
pub fn decode(bytes: &[u8], at: &mut usize) -> Result<Literal, String> {
    match take(bytes, at, 1)?[0] {
        ARRAY => {
            let name = decode_str(bytes, at)?;
            let t = ElementType::from_name(&name).ok_or_else(|| format!("unknown element type '{name}'"))?;
            let rank = u64_at(bytes, at)? as usize;
            let dims: Vec<i64> = (0..rank).map(|_| u64_at(bytes, at).map(|d| d as i64)).collect::<Result<_, _>>()?;
            let n = rxla_interpreter::literal::element_count(&dims);
            let data = read_elements(Data::zeros(t, 0), n, bytes, at)?;
            Ok(Literal::Array { dims, data })
        }
        TUPLE => {
            let n = u64_at(bytes, at)? as usize;
            Ok(Literal::Tuple((0..n).map(|_| decode(bytes, at)).collect::<Result<_, _>>()?))
        }
        TOKEN => Ok(Literal::Token),
        tag => Err(format!("a malformed message (tag {tag})")),
    }
}

/// `n` elements of `like`'s type.
fn read_elements(like: Data, n: usize, bytes: &[u8], at: &mut usize) -> Result<Data, String> {
    macro_rules! get {
        ($w:expr, $f:expr) => {{
            let raw = take(bytes, at, n * $w)?;
            raw.chunks_exact($w).map(|c| $f(c.try_into().expect("width"))).collect()
        }};
    }
    Ok(match like {
        Data::Pred(_) => Data::Pred(get!(1, |c: [u8; 1]| c[0] != 0)),
        Data::S8(_) => Data::S8(get!(1, i8::from_le_bytes)),
        Data::S16(_) => Data::S16(get!(2, i16::from_le_bytes)),
        Data::S32(_) => Data::S32(get!(4, i32::from_le_bytes)),
        Data::S64(_) => Data::S64(get!(8, i64::from_le_bytes)),
        Data::U8(_) => Data::U8(get!(1, u8::from_le_bytes)),
        Data::U16(_) => Data::U16(get!(2, u16::from_le_bytes)),
        Data::U32(_) => Data::U32(get!(4, u32::from_le_bytes)),
        Data::U64(_) => Data::U64(get!(8, u64::from_le_bytes)),
        Data::F16(_) => Data::F16(get!(2, |c| f16::from_bits(u16::from_le_bytes(c)))),
        Data::Bf16(_) => Data::Bf16(get!(2, |c| bf16::from_bits(u16::from_le_bytes(c)))),
        Data::F32(_) => Data::F32(get!(4, |c| f32::from_bits(u32::from_le_bytes(c)))),
        Data::F64(_) => Data::F64(get!(8, |c| f64::from_bits(u64::from_le_bytes(c)))),
        Data::C64(_) => Data::C64(get!(8, |c: [u8; 8]| {
            let (re, im) = c.split_at(4);
            Complex32::new(
                f32::from_bits(u32::from_le_bytes(re.try_into().expect("4"))),
                f32::from_bits(u32::from_le_bytes(im.try_into().expect("4"))),
            )
        })),
        Data::C128(_) => Data::C128(get!(16, |c: [u8; 16]| {
            let (re, im) = c.split_at(8);
            Complex64::new(
                f64::from_bits(u64::from_le_bytes(re.try_into().expect("8"))),
                f64::from_bits(u64::from_le_bytes(im.try_into().expect("8"))),
            )
        })),
        Data::Bits(t, _) => Data::Bits(t, take(bytes, at, n)?.to_vec()),
    })
}

fn take<'a>(bytes: &'a [u8], at: &mut usize, n: usize) -> Result<&'a [u8], String> {
    let end = at.checked_add(n).filter(|&e| e <= bytes.len()).ok_or("a truncated message")?;
    let s = &bytes[*at..end];
    *at = end;
    Ok(s)
}

fn u64_at(bytes: &[u8], at: &mut usize) -> Result<u64, String> {
    Ok(u64::from_le_bytes(take(bytes, at, 8)?.try_into().expect("8 bytes")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_round_trip_bit_exactly() {
        let values = vec![
            Literal::Array {
                dims: vec![2, 2],
                data: Data::F32(vec![1.5, -0.0, f32::NAN, f32::from_bits(0x7fc0_0001)]),
            },
            Literal::Tuple(vec![
                Literal::Array { dims: vec![3], data: Data::Pred(vec![true, false, true]) },
                Literal::Array { dims: vec![], data: Data::S64(vec![-7]) },
                Literal::Token,
            ]),
            Literal::Array { dims: vec![1], data: Data::C64(vec![Complex32::new(1.0, -2.0)]) },
            Literal::Array { dims: vec![2], data: Data::Bf16(vec![bf16::from_f32(0.5), bf16::NAN]) },
        ];
        for v in values {
            let mut bytes = Vec::new();
            encode(&v, &mut bytes);
            let mut at = 0;
            let back = decode(&bytes, &mut at).expect("decodes");
            assert_eq!(at, bytes.len());
            let mut again = Vec::new();
            encode(&back, &mut again);
            assert_eq!(bytes, again, "bit-exact round trip of {v:?}");
        }
        assert!(decode(&[ARRAY, 1], &mut 0).is_err(), "a truncated message is an error");
    }
}
