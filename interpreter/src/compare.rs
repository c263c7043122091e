//! Comparing two results element by element, with check.py's rule: an
//! element agrees when `|got - want| <= atol + rtol * |want|`; NaN equals
//! NaN, infinities must match exactly, -0 equals +0, complex parts are
//! checked separately against the modulus, integers and preds exactly.
//! Used by `hlo-opt --run-after-each-pass` (and the backends' checks
//! against the interpreter).

use crate::{literal::strides, text, Data, Literal};

/// Where two results first disagree, and how much they disagree overall.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// Tuple indices down to the array (empty for a non-tuple result).
    pub tuple_index: Vec<usize>,
    /// Multi-dimensional index of the first differing element.
    pub index: Vec<i64>,
    pub got: String,
    pub want: String,
    /// How many elements of that array differ.
    pub count: usize,
    pub total: usize,
    /// Largest |got - want| over differing float elements (0 otherwise).
    pub max_abs_error: f64,
    /// The differing element with the largest error (the first differing
    /// one when no error is finite): index, got, want.
    pub worst_index: Vec<i64>,
    pub worst_got: String,
    pub worst_want: String,
    /// Set when the shapes themselves differ.
    pub shape: Option<String>,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = if self.tuple_index.is_empty() {
            String::new()
        } else {
            format!("output {{{}}} ", self.tuple_index.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(","))
        };
        if let Some(shape) = &self.shape {
            return write!(f, "{at}shape differs: {shape}");
        }
        write!(
            f,
            "{at}element [{}] is {} instead of {} ({} of {} elements differ",
            self.index.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(","),
            self.got,
            self.want,
            self.count,
            self.total
        )?;
        if self.max_abs_error > 0.0 {
            write!(f, ", max abs error {:.3e}", self.max_abs_error)?;
        }
        f.write_str(")")?;
        if self.worst_index != self.index {
            write!(
                f,
                "; worst element [{}] is {} instead of {}",
                self.worst_index.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(","),
                self.worst_got,
                self.worst_want
            )?;
        }
        Ok(())
    }
}

fn agree(got: f64, want: f64, atol: f64, rtol: f64) -> bool {
    if got.is_nan() || want.is_nan() {
        return got.is_nan() && want.is_nan();
    }
    if got.is_infinite() || want.is_infinite() {
        return got == want;
    }
    (got - want).abs() <= atol + rtol * want.abs()
}

/// The first disagreement of `got` with `want`, or `None` if they agree.
pub fn first_mismatch(got: &Literal, want: &Literal, atol: f64, rtol: f64) -> Option<Mismatch> {
    mismatch_at(got, want, atol, rtol, &mut Vec::new())
}

fn mismatch_at(got: &Literal, want: &Literal, atol: f64, rtol: f64, path: &mut Vec<usize>) -> Option<Mismatch> {
    let shape_mismatch = |path: &Vec<usize>, what: String| Mismatch {
        tuple_index: path.clone(),
        index: Vec::new(),
        got: String::new(),
        want: String::new(),
        count: 0,
        total: 0,
        max_abs_error: 0.0,
        worst_index: Vec::new(),
        worst_got: String::new(),
        worst_want: String::new(),
        shape: Some(what),
    };
    match (got, want) {
        (Literal::Tuple(g), Literal::Tuple(w)) => {
            if g.len() != w.len() {
                return Some(shape_mismatch(path, format!("{} tuple elements instead of {}", g.len(), w.len())));
            }
            for (i, (a, b)) in g.iter().zip(w).enumerate() {
                path.push(i);
                let m = mismatch_at(a, b, atol, rtol, path);
                path.pop();
                if m.is_some() {
                    return m;
                }
            }
            None
        }
        (Literal::Token, Literal::Token) => None,
        (Literal::Array { dims: gd, data: g }, Literal::Array { dims: wd, data: w }) => {
            if gd != wd || g.element_type() != w.element_type() {
                return Some(shape_mismatch(
                    path,
                    format!("{:?}{gd:?} instead of {:?}{wd:?}", g.element_type(), w.element_type()),
                ));
            }
            let n = g.len();
            // Narrow float formats compare by value through f32.
            let narrow = match (g, w) {
                (Data::Bits(t, _), Data::Bits(..)) if rxla_hlo_text::floats::float_format(*t).is_some() => {
                    Some((got.to_f32_vec(), want.to_f32_vec()))
                }
                _ => None,
            };
            let mut first = None;
            let mut worst: Option<usize> = None;
            let mut count = 0;
            let mut max_abs_error: f64 = 0.0;
            for i in 0..n {
                let (ok, err) = match (g, w) {
                    (Data::F32(a), Data::F32(b)) => {
                        (agree(a[i] as f64, b[i] as f64, atol, rtol), (a[i] - b[i]).abs() as f64)
                    }
                    (Data::F64(a), Data::F64(b)) => (agree(a[i], b[i], atol, rtol), (a[i] - b[i]).abs()),
                    (Data::F16(a), Data::F16(b)) => {
                        (agree(a[i].to_f64(), b[i].to_f64(), atol, rtol), (a[i].to_f64() - b[i].to_f64()).abs())
                    }
                    (Data::Bf16(a), Data::Bf16(b)) => {
                        (agree(a[i].to_f64(), b[i].to_f64(), atol, rtol), (a[i].to_f64() - b[i].to_f64()).abs())
                    }
                    (Data::C64(a), Data::C64(b)) => {
                        let m = b[i].norm() as f64;
                        let tol = atol + rtol * m;
                        let ok = agree(a[i].re as f64, b[i].re as f64, tol, 0.0)
                            && agree(a[i].im as f64, b[i].im as f64, tol, 0.0);
                        (ok, (a[i] - b[i]).norm() as f64)
                    }
                    (Data::C128(a), Data::C128(b)) => {
                        let m = b[i].norm();
                        let tol = atol + rtol * m;
                        (agree(a[i].re, b[i].re, tol, 0.0) && agree(a[i].im, b[i].im, tol, 0.0), (a[i] - b[i]).norm())
                    }
                    (Data::Bits(..), Data::Bits(..)) if narrow.is_some() => {
                        let (a, b) = narrow.as_ref().expect("checked");
                        let (x, y) = (a[i] as f64, b[i] as f64);
                        (agree(x, y, atol, rtol), (x - y).abs())
                    }
                    _ => (g.select(&[i]) == w.select(&[i]), 0.0),
                };
                if !ok {
                    count += 1;
                    if err.is_finite() && (worst.is_none() || err > max_abs_error) {
                        max_abs_error = err;
                        worst = Some(i);
                    }
                    if first.is_none() {
                        first = Some(i);
                    }
                }
            }
            let i = first?;
            let w_i = worst.unwrap_or(i);
            let st = strides(gd);
            let index_of =
                |i: usize| -> Vec<i64> { st.iter().zip(gd).map(|(s, d)| (i as i64 / s) % d.max(&1)).collect() };
            // "f32[] 1.5" -> "1.5"
            let element = |d: &Data, i: usize| {
                let t = text::literal_to_string_oneline(&Literal::array(Vec::new(), d.select(&[i])));
                t.split_once(' ').map(|(_, v)| v.to_string()).unwrap_or(t)
            };
            Some(Mismatch {
                tuple_index: path.clone(),
                index: index_of(i),
                got: element(g, i),
                want: element(w, i),
                count,
                total: n,
                max_abs_error,
                worst_index: index_of(w_i),
                worst_got: element(g, w_i),
                worst_want: element(w, w_i),
                shape: None,
            })
        }
        (g, w) => Some(shape_mismatch(path, format!("{} instead of {}", kind(g), kind(w)))),
    }
}

fn kind(l: &Literal) -> &'static str {
    match l {
        Literal::Array { .. } => "an array",
        Literal::Tuple(_) => "a tuple",
        Literal::Token => "a token",
    }
}
