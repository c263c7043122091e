//! Literals: an array (or tuple, or token) with a shape and its elements in
//! row-major order, independent of layout.
//!
//! Elements live in one typed vector per element type ([`Data`]) so inner
//! loops run over plain slices. Types without a Rust counterpart (f8, f6,
//! f4, s2/s4/u2/u4) keep their bit patterns, one per byte, and are
//! computed on by converting to f32 / i64 and back
//! ([`Literal::to_f32_vec`], [`Literal::from_f32_vec`]), as XLA:CPU does.

use half::{bf16, f16};
use num_complex::{Complex32, Complex64};
use rxla_hlo_text::{
    ast::{Dim, PrimitiveType, Shape},
    floats::float_format,
};

pub use rxla_hlo_text::ast::PrimitiveType as ElementType;

/// Elements of an array, one vector per element type.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    Pred(Vec<bool>),
    S8(Vec<i8>),
    S16(Vec<i16>),
    S32(Vec<i32>),
    S64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    F16(Vec<f16>),
    Bf16(Vec<bf16>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    C64(Vec<Complex32>),
    C128(Vec<Complex64>),
    /// s2/s4/u2/u4 and the f8/f6/f4 formats: bit patterns, one per byte
    /// (sub-byte integers sign- or zero-extended to the byte).
    Bits(PrimitiveType, Vec<u8>),
}

/// A value of the interpreter.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    Array { dims: Vec<i64>, data: Data },
    Tuple(Vec<Literal>),
    Token,
}

/// Number of elements of an array with `dims`.
pub fn element_count(dims: &[i64]) -> usize {
    dims.iter().map(|&d| d.max(0) as usize).product()
}

/// Row-major strides of `dims`.
pub fn strides(dims: &[i64]) -> Vec<i64> {
    let mut s = vec![1i64; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * dims[i + 1].max(1);
    }
    s
}

/// Calls `f` with every multi-index of `dims` in row-major order.
pub fn for_each_index(dims: &[i64], mut f: impl FnMut(&[i64])) {
    if dims.iter().any(|&d| d <= 0) {
        if dims.is_empty() {
            f(&[]);
        }
        return;
    }
    let mut index = vec![0i64; dims.len()];
    loop {
        f(&index);
        let mut d = dims.len();
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            index[d] += 1;
            if index[d] < dims[d] {
                break;
            }
            index[d] = 0;
        }
    }
}

impl Data {
    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            Data::Pred(v) => v.len(),
            Data::S8(v) => v.len(),
            Data::S16(v) => v.len(),
            Data::S32(v) => v.len(),
            Data::S64(v) => v.len(),
            Data::U8(v) => v.len(),
            Data::U16(v) => v.len(),
            Data::U32(v) => v.len(),
            Data::U64(v) => v.len(),
            Data::F16(v) => v.len(),
            Data::Bf16(v) => v.len(),
            Data::F32(v) => v.len(),
            Data::F64(v) => v.len(),
            Data::C64(v) => v.len(),
            Data::C128(v) => v.len(),
            Data::Bits(_, v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element type.
    pub fn element_type(&self) -> ElementType {
        use PrimitiveType::*;
        match self {
            Data::Pred(_) => Pred,
            Data::S8(_) => S8,
            Data::S16(_) => S16,
            Data::S32(_) => S32,
            Data::S64(_) => S64,
            Data::U8(_) => U8,
            Data::U16(_) => U16,
            Data::U32(_) => U32,
            Data::U64(_) => U64,
            Data::F16(_) => F16,
            Data::Bf16(_) => Bf16,
            Data::F32(_) => F32,
            Data::F64(_) => F64,
            Data::C64(_) => C64,
            Data::C128(_) => C128,
            Data::Bits(t, _) => *t,
        }
    }

    /// `n` zero elements of type `t`.
    pub fn zeros(t: ElementType, n: usize) -> Data {
        use PrimitiveType::*;
        match t {
            Pred => Data::Pred(vec![false; n]),
            S8 => Data::S8(vec![0; n]),
            S16 => Data::S16(vec![0; n]),
            S32 => Data::S32(vec![0; n]),
            S64 => Data::S64(vec![0; n]),
            U8 => Data::U8(vec![0; n]),
            U16 => Data::U16(vec![0; n]),
            U32 => Data::U32(vec![0; n]),
            U64 => Data::U64(vec![0; n]),
            F16 => Data::F16(vec![f16::ZERO; n]),
            Bf16 => Data::Bf16(vec![bf16::ZERO; n]),
            F32 => Data::F32(vec![0.0; n]),
            F64 => Data::F64(vec![0.0; n]),
            C64 => Data::C64(vec![Complex32::new(0.0, 0.0); n]),
            C128 => Data::C128(vec![Complex64::new(0.0, 0.0); n]),
            other => Data::Bits(other, vec![0; n]),
        }
    }

    /// The elements at `indices`, in that order (gathers for data movement).
    pub fn select(&self, indices: &[usize]) -> Data {
        macro_rules! pick {
            ($v:expr, $wrap:expr) => {
                $wrap(indices.iter().map(|&i| $v[i]).collect())
            };
        }
        match self {
            Data::Pred(v) => pick!(v, Data::Pred),
            Data::S8(v) => pick!(v, Data::S8),
            Data::S16(v) => pick!(v, Data::S16),
            Data::S32(v) => pick!(v, Data::S32),
            Data::S64(v) => pick!(v, Data::S64),
            Data::U8(v) => pick!(v, Data::U8),
            Data::U16(v) => pick!(v, Data::U16),
            Data::U32(v) => pick!(v, Data::U32),
            Data::U64(v) => pick!(v, Data::U64),
            Data::F16(v) => pick!(v, Data::F16),
            Data::Bf16(v) => pick!(v, Data::Bf16),
            Data::F32(v) => pick!(v, Data::F32),
            Data::F64(v) => pick!(v, Data::F64),
            Data::C64(v) => pick!(v, Data::C64),
            Data::C128(v) => pick!(v, Data::C128),
            Data::Bits(t, v) => Data::Bits(*t, indices.iter().map(|&i| v[i]).collect()),
        }
    }

    /// Writes element `from_index` of `from` (same type) at `to_index`.
    pub fn set_from(&mut self, to_index: usize, from: &Data, from_index: usize) {
        macro_rules! put {
            ($($variant:ident),*) => {
                match (self, from) {
                    $((Data::$variant(a), Data::$variant(b)) => a[to_index] = b[from_index],)*
                    (Data::Bits(_, a), Data::Bits(_, b)) => a[to_index] = b[from_index],
                    (a, b) => panic!("set_from between {:?} and {:?}", a.element_type(), b.element_type()),
                }
            };
        }
        put!(Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, Bf16, F32, F64, C64, C128)
    }
}

impl Literal {
    /// An array literal; `data.len()` must match `dims`.
    pub fn array(dims: Vec<i64>, data: Data) -> Literal {
        debug_assert_eq!(element_count(&dims), data.len(), "dims {dims:?}");
        Literal::Array { dims, data }
    }

    /// A rank-0 array.
    pub fn scalar(data: Data) -> Literal {
        Literal::array(Vec::new(), data)
    }

    /// Zeros of an array shape.
    pub fn zeros(t: ElementType, dims: Vec<i64>) -> Literal {
        let n = element_count(&dims);
        Literal::array(dims, Data::zeros(t, n))
    }

    /// A literal of `shape` filled with zeros (tuples recursively).
    pub fn zeros_of_shape(shape: &Shape) -> Literal {
        match shape {
            Shape::Array { element, dims, .. } => Literal::zeros(*element, static_dims(dims)),
            Shape::Tuple(elements) => Literal::Tuple(elements.iter().map(Literal::zeros_of_shape).collect()),
            Shape::Token | Shape::Opaque => Literal::Token,
        }
    }

    pub fn dims(&self) -> &[i64] {
        match self {
            Literal::Array { dims, .. } => dims,
            _ => &[],
        }
    }

    pub fn data(&self) -> Option<&Data> {
        match self {
            Literal::Array { data, .. } => Some(data),
            _ => None,
        }
    }

    pub fn element_type(&self) -> Option<ElementType> {
        self.data().map(Data::element_type)
    }

    pub fn tuple_elements(&self) -> Option<&[Literal]> {
        match self {
            Literal::Tuple(e) => Some(e),
            _ => None,
        }
    }

    /// Number of elements of an array (0 for tuples and tokens).
    pub fn element_count(&self) -> usize {
        self.data().map(Data::len).unwrap_or(0)
    }

    /// The elements as f32 (floats and narrow floats; integers converted).
    pub fn to_f32_vec(&self) -> Vec<f32> {
        match self.data() {
            Some(Data::F32(v)) => v.clone(),
            Some(Data::F16(v)) => v.iter().map(|x| x.to_f32()).collect(),
            Some(Data::Bf16(v)) => v.iter().map(|x| x.to_f32()).collect(),
            Some(Data::F64(v)) => v.iter().map(|&x| x as f32).collect(),
            Some(Data::Bits(t, v)) if float_format(*t).is_some() => {
                let format = float_format(*t).unwrap();
                v.iter()
                    .map(|&b| match format.special_text(b as u64) {
                        Some(s) if s.contains("nan") => f32::NAN,
                        Some(s) if s.starts_with('-') => f32::NEG_INFINITY,
                        Some(_) => f32::INFINITY,
                        None => format.finite_value(b as u64) as f32,
                    })
                    .collect()
            }
            Some(other) => panic!("to_f32_vec of {:?}", other.element_type()),
            None => Vec::new(),
        }
    }

    /// An array of float type `t` from f32 values, rounded to nearest even
    /// (NaN stays NaN, overflow becomes inf or, where the format has no
    /// inf, NaN).
    pub fn from_f32_vec(t: ElementType, dims: Vec<i64>, values: Vec<f32>) -> Literal {
        let data = match t {
            PrimitiveType::F32 => Data::F32(values),
            PrimitiveType::F16 => Data::F16(values.iter().map(|&x| f16::from_f32(x)).collect()),
            PrimitiveType::Bf16 => Data::Bf16(values.iter().map(|&x| bf16::from_f32(x)).collect()),
            PrimitiveType::F64 => Data::F64(values.iter().map(|&x| x as f64).collect()),
            other => {
                let format = float_format(other).unwrap_or_else(|| panic!("from_f32_vec to {other:?}"));
                Data::Bits(other, values.iter().map(|&x| narrow_float_bits(&format, x as f64) as u8).collect())
            }
        };
        Literal::array(dims, data)
    }
}

/// Bits of `x` in a narrow float format (round to nearest even; NaN and
/// overflow as the format allows).
pub fn narrow_float_bits(format: &rxla_hlo_text::floats::FloatFormat, x: f64) -> u64 {
    format.round_from_f64(x)
}

/// Static dimension sizes of a shape's dims (dynamic ones count as 0).
pub fn static_dims(dims: &[Dim]) -> Vec<i64> {
    dims.iter()
        .map(|d| match d {
            Dim::Static(n) => *n,
            Dim::Bounded(n) => *n,
            Dim::Unbounded => 0,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strides_and_iteration_are_row_major() {
        assert_eq!(strides(&[2, 3, 4]), vec![12, 4, 1]);
        let mut seen = Vec::new();
        for_each_index(&[2, 2], |i| seen.push(i.to_vec()));
        assert_eq!(seen, vec![vec![0, 0], vec![0, 1], vec![1, 0], vec![1, 1]]);
        let mut scalar = 0;
        for_each_index(&[], |_| scalar += 1);
        assert_eq!(scalar, 1);
        let mut empty = 0;
        for_each_index(&[0, 3], |_| empty += 1);
        assert_eq!(empty, 0);
    }

    #[test]
    fn narrow_floats_round_trip_through_f32() {
        let l = Literal::from_f32_vec(PrimitiveType::F8e4m3fn, vec![3], vec![1.0, 448.0, f32::NAN]);
        let back = l.to_f32_vec();
        assert_eq!(back[0], 1.0);
        assert_eq!(back[1], 448.0);
        assert!(back[2].is_nan());
    }
}
