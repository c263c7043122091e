//! Reproducible random arguments for a module's parameters
//! (`hlo-run --random-inputs`, `hlo-opt --run-after-each-pass=random`).

use crate::{npy, Data, Literal};
use rxla_hlo_text::ast::{Dim, PrimitiveType, Shape};

/// Random arguments for `params` with `seed` (one stream per parameter).
pub fn random_arguments(params: &[Shape], seed: u64) -> Result<Vec<Literal>, String> {
    params.iter().enumerate().map(|(i, shape)| random_literal(shape, &mut Rng::new(seed, i as u64))).collect()
}

/// SplitMix64: small, fast and reproducible everywhere.
pub struct Rng(u64);

impl Rng {
    /// A stream per (seed, parameter), so one parameter's values do not
    /// depend on the others.
    pub fn new(seed: u64, stream: u64) -> Self {
        let mut r = Rng(seed ^ 0x243f_6a88_85a3_08d3);
        r.0 = r.next_u64().wrapping_add(stream.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        r.next_u64();
        r
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [-1, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }

    /// Uniform integer in [lo, hi).
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo) as u64) as i64
    }
}

/// A random value of `shape`: floats uniform in [-1, 1), small integers,
/// random preds (what `hlo-run --random-inputs` feeds a module).
pub fn random_literal(shape: &Shape, rng: &mut Rng) -> Result<Literal, String> {
    use PrimitiveType::*;
    let (element, dims) = match shape {
        Shape::Array { element, dims, .. } => (*element, dims),
        Shape::Tuple(elements) => {
            return elements.iter().map(|s| random_literal(s, rng)).collect::<Result<_, _>>().map(Literal::Tuple)
        }
        Shape::Token => return Ok(Literal::Token),
        Shape::Opaque => return Err("cannot generate a value of type opaque[]".into()),
    };
    let dims: Vec<i64> = dims
        .iter()
        .map(|d| match d {
            Dim::Static(n) | Dim::Bounded(n) => Ok(*n),
            Dim::Unbounded => Err(format!("cannot generate a value of unbounded shape {}", npy::shape_text(shape))),
        })
        .collect::<Result<_, _>>()?;
    let n = crate::literal::element_count(&dims);
    macro_rules! ints {
        ($t:ty, $lo:expr, $hi:expr) => {
            (0..n).map(|_| rng.int($lo, $hi) as $t).collect()
        };
    }
    let data = match element {
        Pred => Data::Pred((0..n).map(|_| rng.next_u64() & 1 == 1).collect()),
        S8 => Data::S8(ints!(i8, -8, 8)),
        S16 => Data::S16(ints!(i16, -8, 8)),
        S32 => Data::S32(ints!(i32, -8, 8)),
        S64 => Data::S64(ints!(i64, -8, 8)),
        U8 => Data::U8(ints!(u8, 0, 16)),
        U16 => Data::U16(ints!(u16, 0, 16)),
        U32 => Data::U32(ints!(u32, 0, 16)),
        U64 => Data::U64(ints!(u64, 0, 16)),
        S1 => Data::Bits(element, (0..n).map(|_| rng.int(-1, 1) as i8 as u8).collect()),
        S2 => Data::Bits(element, (0..n).map(|_| rng.int(-2, 2) as i8 as u8).collect()),
        S4 => Data::Bits(element, (0..n).map(|_| rng.int(-8, 8) as i8 as u8).collect()),
        U1 => Data::Bits(element, ints!(u8, 0, 2)),
        U2 => Data::Bits(element, ints!(u8, 0, 4)),
        U4 => Data::Bits(element, ints!(u8, 0, 16)),
        F64 => Data::F64((0..n).map(|_| rng.unit()).collect()),
        C64 => Data::C64((0..n).map(|_| num_complex::Complex32::new(rng.unit() as f32, rng.unit() as f32)).collect()),
        C128 => Data::C128((0..n).map(|_| num_complex::Complex64::new(rng.unit(), rng.unit())).collect()),
        F8e8m0fnu => {
            // Unsigned powers of two: magnitudes only.
            let values: Vec<f32> = (0..n).map(|_| rng.unit().abs() as f32).collect();
            return Ok(Literal::from_f32_vec(element, dims, values));
        }
        F16 | Bf16 | F32 | F4e2m1fn | F6e2m3fn | F6e3m2fn | F8e3m4 | F8e4m3 | F8e4m3fn | F8e4m3fnuz | F8e4m3b11fnuz
        | F8e5m2 | F8e5m2fnuz => {
            let values: Vec<f32> = (0..n).map(|_| rng.unit() as f32).collect();
            return Ok(Literal::from_f32_vec(element, dims, values));
        }
        Token | Opaque => return Err(format!("cannot generate a value of type {}", element.name())),
    };
    Ok(Literal::array(dims, data))
}
