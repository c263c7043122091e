//! Shared helpers of the library tests: a deterministic random source,
//! random literals, running one HLO module through the reference
//! interpreter, and comparisons (integers exact, floats within a
//! tolerance, NaN equal to NaN).
#![allow(dead_code)]

use half::{bf16, f16};
use num_complex::{Complex32, Complex64};
use rxla_interpreter::{Data, Interpreter, Literal};
use rxla_library::array::{bytes_literal, literal_bytes, ArrayShape, Buffer, ElementType};

/// SplitMix64: small, deterministic, good enough for test data.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }
    /// Uniform in [-1, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
    pub fn bool(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }
    pub fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.below(v.len())]
    }
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

pub fn ty(name: &str) -> ElementType {
    ElementType::ALL.iter().copied().find(|t| t.name() == name).unwrap_or_else(|| panic!("no type {name}"))
}

/// Text of a shape, e.g. `f32[2,3]`.
pub fn shape_text(t: ElementType, dims: &[usize]) -> String {
    let d: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
    format!("{}[{}]", t.name(), d.join(","))
}

pub fn list(v: &[usize]) -> String {
    v.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(",")
}

/// A random literal of `t`: floats in [-1, 1) (`scale` times), integers in
/// a small signed (or unsigned) range, pred random.
pub fn random_literal(rng: &mut Rng, t: ElementType, dims: &[usize], scale: f64) -> Literal {
    use ElementType::*;
    let n: usize = dims.iter().product();
    let dims64: Vec<i64> = dims.iter().map(|&d| d as i64).collect();
    let f = |rng: &mut Rng| rng.unit() * scale;
    let data = match t {
        Pred => Data::Pred((0..n).map(|_| rng.bool()).collect()),
        S8 => Data::S8((0..n).map(|_| rng.range(-100, 100) as i8).collect()),
        S16 => Data::S16((0..n).map(|_| rng.range(-1000, 1000) as i16).collect()),
        S32 => Data::S32((0..n).map(|_| rng.range(-100000, 100000) as i32).collect()),
        S64 => Data::S64((0..n).map(|_| rng.next_u64() as i64 >> 20).collect()),
        U8 => Data::U8((0..n).map(|_| rng.range(0, 255) as u8).collect()),
        U16 => Data::U16((0..n).map(|_| rng.range(0, 65535) as u16).collect()),
        U32 => Data::U32((0..n).map(|_| rng.next_u64() as u32).collect()),
        U64 => Data::U64((0..n).map(|_| rng.next_u64()).collect()),
        F16 => Data::F16((0..n).map(|_| f16::from_f64(f(rng))).collect()),
        Bf16 => Data::Bf16((0..n).map(|_| bf16::from_f64(f(rng))).collect()),
        F32 => Data::F32((0..n).map(|_| f(rng) as f32).collect()),
        F64 => Data::F64((0..n).map(|_| f(rng)).collect()),
        C64 => Data::C64((0..n).map(|_| Complex32::new(f(rng) as f32, f(rng) as f32)).collect()),
        C128 => Data::C128((0..n).map(|_| Complex64::new(f(rng), f(rng))).collect()),
        S1 | S2 | S4 => {
            let bits = match t {
                S1 => 1,
                S2 => 2,
                _ => 4,
            };
            let lo = -(1i64 << (bits - 1));
            Data::Bits(t, (0..n).map(|_| rng.range(lo, -lo - 1) as i8 as u8).collect())
        }
        U1 | U2 | U4 => {
            let bits = match t {
                U1 => 1,
                U2 => 2,
                _ => 4,
            };
            Data::Bits(t, (0..n).map(|_| rng.range(0, (1 << bits) - 1) as u8).collect())
        }
        other => return Literal::from_f32_vec(other, dims64, (0..n).map(|_| f(rng) as f32).collect()),
    };
    Literal::array(dims64, data)
}

/// Parses and runs `text` on `args`.
pub fn run_hlo(text: &str, args: &[Literal]) -> Literal {
    let module = rxla_hlo_text::parse_module(text).unwrap_or_else(|e| panic!("parse error {e:?} in\n{text}"));
    Interpreter::new(&module).run(args).unwrap_or_else(|e| panic!("interpreter error {e:?} in\n{text}"))
}

/// An aligned buffer holding the literal's bytes.
pub fn buffer(lit: &Literal) -> Buffer {
    Buffer::from_bytes(&literal_bytes(lit).unwrap())
}

/// The element type of a literal.
pub fn lit_type(lit: &Literal) -> ElementType {
    lit.element_type().unwrap()
}

/// Real and imaginary parts of every element (exact types: their value).
pub fn values(lit: &Literal) -> Vec<(f64, f64)> {
    match lit.data().unwrap() {
        Data::Pred(v) => v.iter().map(|&x| (x as u8 as f64, 0.0)).collect(),
        Data::S8(v) => v.iter().map(|&x| (x as f64, 0.0)).collect(),
        Data::S16(v) => v.iter().map(|&x| (x as f64, 0.0)).collect(),
        Data::S32(v) => v.iter().map(|&x| (x as f64, 0.0)).collect(),
        Data::S64(v) => v.iter().map(|&x| (x as f64, 0.0)).collect(),
        Data::U8(v) => v.iter().map(|&x| (x as f64, 0.0)).collect(),
        Data::U16(v) => v.iter().map(|&x| (x as f64, 0.0)).collect(),
        Data::U32(v) => v.iter().map(|&x| (x as f64, 0.0)).collect(),
        Data::U64(v) => v.iter().map(|&x| (x as f64, 0.0)).collect(),
        Data::F16(v) => v.iter().map(|x| (x.to_f64(), 0.0)).collect(),
        Data::Bf16(v) => v.iter().map(|x| (x.to_f64(), 0.0)).collect(),
        Data::F32(v) => v.iter().map(|&x| (x as f64, 0.0)).collect(),
        Data::F64(v) => v.iter().map(|&x| (x, 0.0)).collect(),
        Data::C64(v) => v.iter().map(|z| (z.re as f64, z.im as f64)).collect(),
        Data::C128(v) => v.iter().map(|z| (z.re, z.im)).collect(),
        Data::Bits(t, v) if rxla_hlo_text::floats::float_format(*t).is_none() => {
            v.iter().map(|&x| (x as i8 as f64, 0.0)).collect()
        }
        Data::Bits(_, _) => lit.to_f32_vec().into_iter().map(|x| (x as f64, 0.0)).collect(),
    }
}

/// Relative precision of a float type (unit roundoff); 0 for exact types.
pub fn epsilon(t: ElementType) -> f64 {
    use ElementType::*;
    match t {
        F64 | C128 => f64::EPSILON,
        F32 | C64 => f32::EPSILON as f64,
        F16 => 1.0 / 1024.0,
        Bf16 => 1.0 / 128.0,
        _ => match rxla_hlo_text::floats::float_format(t) {
            Some(f) => 2f64.powi(-(f.mantissa_bits as i32)),
            None => 0.0,
        },
    }
}

/// Compares `got` (bytes of `want`'s shape) with `want`: exact types
/// byte for byte, floats within `rtol * |want| + atol` per part, NaN
/// equal to NaN.
pub fn assert_close(got: &[u8], want: &Literal, rtol: f64, atol: f64, what: &str) {
    let t = lit_type(want);
    let shape = ArrayShape::new(t, want.dims().to_vec());
    let want_bytes = literal_bytes(want).unwrap();
    assert_eq!(got.len(), want_bytes.len(), "{what}: byte count");
    if epsilon(t) == 0.0 {
        if got != want_bytes.as_slice() {
            let g = values(&bytes_literal(&shape, got));
            let w = values(want);
            let i = (0..g.len()).find(|&i| g[i] != w[i]).unwrap_or(0);
            panic!("{what}: {shape} differs at element {i}: got {:?}, want {:?}", g.get(i), w.get(i));
        }
        return;
    }
    let g = values(&bytes_literal(&shape, got));
    let w = values(want);
    for (i, (a, b)) in g.iter().zip(&w).enumerate() {
        for (x, y) in [(a.0, b.0), (a.1, b.1)] {
            let ok = (x.is_nan() && y.is_nan()) || x == y || (x - y).abs() <= rtol * y.abs() + atol;
            assert!(ok, "{what}: {shape} element {i}: got {a:?}, want {b:?} (rtol {rtol:e}, atol {atol:e})");
        }
    }
}

/// Largest magnitude of any part of any element.
pub fn max_abs(lit: &Literal) -> f64 {
    values(lit).iter().flat_map(|&(a, b)| [a.abs(), b.abs()]).filter(|x| x.is_finite()).fold(0.0, f64::max)
}
