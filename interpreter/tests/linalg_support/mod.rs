//! Shared helpers of the linalg, control and rng tests: literal builders
//! and a comparison that follows the oracle's rules (NaN equals NaN,
//! infinities exact, integers exact, floats within `atol + rtol * |want|`,
//! complex parts checked separately against the modulus).
#![allow(dead_code)]

use half::f16;
use num_complex::{Complex32, Complex64};
use rxla_interpreter::{Data, Interpreter, Literal};

pub fn f32a(dims: &[i64], v: &[f32]) -> Literal {
    Literal::array(dims.to_vec(), Data::F32(v.to_vec()))
}
pub fn f64a(dims: &[i64], v: &[f64]) -> Literal {
    Literal::array(dims.to_vec(), Data::F64(v.to_vec()))
}
/// f16 from bit patterns.
pub fn f16a(dims: &[i64], bits: &[u16]) -> Literal {
    Literal::array(dims.to_vec(), Data::F16(bits.iter().map(|&b| f16::from_bits(b)).collect()))
}
pub fn c64a(dims: &[i64], v: &[(f32, f32)]) -> Literal {
    Literal::array(dims.to_vec(), Data::C64(v.iter().map(|&(r, i)| Complex32::new(r, i)).collect()))
}
pub fn c128a(dims: &[i64], v: &[(f64, f64)]) -> Literal {
    Literal::array(dims.to_vec(), Data::C128(v.iter().map(|&(r, i)| Complex64::new(r, i)).collect()))
}
pub fn preda(dims: &[i64], v: &[bool]) -> Literal {
    Literal::array(dims.to_vec(), Data::Pred(v.to_vec()))
}
macro_rules! int_builders {
    ($($name:ident: $t:ty => $variant:ident),*) => {$(
        pub fn $name(dims: &[i64], v: &[$t]) -> Literal {
            Literal::array(dims.to_vec(), Data::$variant(v.to_vec()))
        }
    )*};
}
int_builders!(s8a: i8 => S8, s16a: i16 => S16, s32a: i32 => S32, s64a: i64 => S64, u8a: u8 => U8, u16a: u16 => U16, u32a: u32 => U32, u64a: u64 => U64);

/// Parses and runs `text` on `args`.
pub fn run(text: &str, args: Vec<Literal>) -> rxla_interpreter::Result<Literal> {
    let module = rxla_hlo_text::parse_module(text).unwrap_or_else(|e| panic!("parse error {e:?}"));
    Interpreter::new(&module).run(&args)
}

/// The array leaves of a result, in order.
pub fn leaves(l: &Literal) -> Vec<Literal> {
    match l {
        Literal::Tuple(e) => e.iter().flat_map(leaves).collect(),
        other => vec![other.clone()],
    }
}

enum Values {
    Exact(Vec<i128>),
    Real(Vec<f64>),
    Complex(Vec<(f64, f64)>),
}

fn values(d: &Data) -> Values {
    match d {
        Data::Pred(v) => Values::Exact(v.iter().map(|&x| x as i128).collect()),
        Data::S8(v) => Values::Exact(v.iter().map(|&x| x as i128).collect()),
        Data::S16(v) => Values::Exact(v.iter().map(|&x| x as i128).collect()),
        Data::S32(v) => Values::Exact(v.iter().map(|&x| x as i128).collect()),
        Data::S64(v) => Values::Exact(v.iter().map(|&x| x as i128).collect()),
        Data::U8(v) => Values::Exact(v.iter().map(|&x| x as i128).collect()),
        Data::U16(v) => Values::Exact(v.iter().map(|&x| x as i128).collect()),
        Data::U32(v) => Values::Exact(v.iter().map(|&x| x as i128).collect()),
        Data::U64(v) => Values::Exact(v.iter().map(|&x| x as i128).collect()),
        Data::F16(v) => Values::Real(v.iter().map(|x| x.to_f64()).collect()),
        Data::Bf16(v) => Values::Real(v.iter().map(|x| x.to_f64()).collect()),
        Data::F32(v) => Values::Real(v.iter().map(|&x| x as f64).collect()),
        Data::F64(v) => Values::Real(v.clone()),
        Data::C64(v) => Values::Complex(v.iter().map(|c| (c.re as f64, c.im as f64)).collect()),
        Data::C128(v) => Values::Complex(v.iter().map(|c| (c.re, c.im)).collect()),
        Data::Bits(_, v) => Values::Exact(v.iter().map(|&x| x as i128).collect()),
    }
}

fn close(g: f64, e: f64, rtol: f64, atol: f64, mag: f64) -> bool {
    g == e || (g.is_nan() && e.is_nan()) || (g.is_finite() && e.is_finite() && (g - e).abs() <= atol + rtol * mag)
}

/// Asserts that `got` matches `want` (same dims and type; values close).
pub fn assert_close(got: &Literal, want: &Literal, rtol: f64, atol: f64, what: &str) {
    assert_eq!(got.dims(), want.dims(), "{what}: dims");
    assert_eq!(got.element_type(), want.element_type(), "{what}: element type");
    let (g, w) = (values(got.data().unwrap()), values(want.data().unwrap()));
    match (g, w) {
        (Values::Exact(g), Values::Exact(w)) => assert_eq!(g, w, "{what}: values"),
        (Values::Real(g), Values::Real(w)) => {
            for (i, (a, b)) in g.iter().zip(&w).enumerate() {
                assert!(close(*a, *b, rtol, atol, b.abs()), "{what}: element {i}: got {a}, want {b}");
            }
        }
        (Values::Complex(g), Values::Complex(w)) => {
            for (i, (a, b)) in g.iter().zip(&w).enumerate() {
                let mag = b.0.hypot(b.1);
                let mag = if mag.is_nan() { 0.0 } else { mag };
                assert!(
                    close(a.0, b.0, rtol, atol, mag) && close(a.1, b.1, rtol, atol, mag),
                    "{what}: element {i}: got {a:?}, want {b:?}"
                );
            }
        }
        _ => panic!("{what}: value kinds differ"),
    }
}

/// Runs `text` and compares every result leaf with `expected`.
pub fn check(text: &str, args: Vec<Literal>, expected: Vec<Literal>, rtol: f64, atol: f64) {
    let result = run(text, args).unwrap_or_else(|e| panic!("evaluation failed: {e}"));
    let got = leaves(&result);
    assert_eq!(got.len(), expected.len(), "number of results");
    for (i, (g, w)) in got.iter().zip(&expected).enumerate() {
        assert_close(g, w, rtol, atol, &format!("result {i}"));
    }
}
