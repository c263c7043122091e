//! Edge cases of the elementwise, convert and bitcast ops on hand-made
//! literals (the decisions documented in `ops/elementwise.rs` and
//! `ops/convert.rs`).

use half::{bf16, f16};
use num_complex::Complex32;
use rxla_interpreter::{Data, Interpreter, Literal};

/// Runs an HLO module on `args` and returns the result.
fn run(hlo: &str, args: &[Literal]) -> Literal {
    let module = rxla_hlo_text::parse_module(hlo).unwrap_or_else(|e| panic!("parse: {}", e.message));
    Interpreter::new(&module).run(args).unwrap_or_else(|e| panic!("run: {e}"))
}

fn try_run(hlo: &str, args: &[Literal]) -> Result<Literal, String> {
    let module = rxla_hlo_text::parse_module(hlo).map_err(|e| e.message)?;
    Interpreter::new(&module).run(args).map_err(|e| e.to_string())
}

/// A module computing `body` (which defines ROOT r) from `params`.
fn module(params: &[&str], result: &str, body: &str) -> String {
    let decls: String = params.iter().enumerate().map(|(i, s)| format!("  p{i} = {s} parameter({i})\n")).collect();
    format!("HloModule m\n\nENTRY e {{\n{decls}  ROOT r = {result} {body}\n}}\n")
}

/// Runs a binary op on two rank-1 operands of type `t`.
fn binary(op: &str, t: &str, out: &str, a: Data, b: Data) -> Data {
    let n = a.len();
    let text = module(&[&format!("{t}[{n}]"), &format!("{t}[{n}]")], &format!("{out}[{n}]"), &format!("{op}(p0, p1)"));
    data(run(&text, &[Literal::array(vec![n as i64], a), Literal::array(vec![n as i64], b)]))
}

fn unary(op: &str, t: &str, out: &str, a: Data) -> Data {
    let n = a.len();
    let text = module(&[&format!("{t}[{n}]")], &format!("{out}[{n}]"), &format!("{op}(p0)"));
    data(run(&text, &[Literal::array(vec![n as i64], a)]))
}

fn data(l: Literal) -> Data {
    match l {
        Literal::Array { data, .. } => data,
        other => panic!("not an array: {other:?}"),
    }
}

fn f32s(d: &Data) -> Vec<f32> {
    match d {
        Data::F32(v) => v.clone(),
        other => panic!("not f32: {:?}", other.element_type()),
    }
}

fn bits32(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn integer_division_by_zero_and_overflow() {
    let q = binary("divide", "s32", "s32", Data::S32(vec![7, -7, i32::MIN, 7, -7]), Data::S32(vec![0, 0, -1, 2, 2]));
    assert_eq!(q, Data::S32(vec![-1, -1, i32::MIN, 3, -3]));
    let r = binary("remainder", "s32", "s32", Data::S32(vec![7, -7, i32::MIN, 7, -7]), Data::S32(vec![0, 0, -1, 2, 2]));
    assert_eq!(r, Data::S32(vec![7, -7, 0, 1, -1]));
    let q = binary("divide", "u8", "u8", Data::U8(vec![7, 0, 200]), Data::U8(vec![0, 0, 3]));
    assert_eq!(q, Data::U8(vec![255, 255, 66]));
    let r = binary("remainder", "u8", "u8", Data::U8(vec![7, 0, 200]), Data::U8(vec![0, 0, 3]));
    assert_eq!(r, Data::U8(vec![7, 0, 2]));
    // Wrapping arithmetic.
    let s = binary("add", "s8", "s8", Data::S8(vec![127, -128]), Data::S8(vec![1, -1]));
    assert_eq!(s, Data::S8(vec![-128, 127]));
    assert_eq!(unary("abs", "s8", "s8", Data::S8(vec![-128, -5, 5])), Data::S8(vec![-128, 5, 5]));
    assert_eq!(unary("negate", "s8", "s8", Data::S8(vec![-128, -5])), Data::S8(vec![-128, 5]));
}

#[test]
fn shifts_out_of_range() {
    let l = binary("shift-left", "s8", "s8", Data::S8(vec![1, 1, 1, -1, 3]), Data::S8(vec![7, 8, -1, 100, 2]));
    assert_eq!(l, Data::S8(vec![-128, 0, 0, 0, 12]));
    let a = binary(
        "shift-right-arithmetic",
        "s8",
        "s8",
        Data::S8(vec![-128, -128, 64, 64, -1]),
        Data::S8(vec![3, 9, 9, -1, 1]),
    );
    assert_eq!(a, Data::S8(vec![-16, -1, 0, 0, -1]));
    let r =
        binary("shift-right-logical", "u32", "u32", Data::U32(vec![u32::MAX, u32::MAX, 8]), Data::U32(vec![31, 32, 3]));
    assert_eq!(r, Data::U32(vec![1, 0, 1]));
    let r = binary("shift-right-logical", "s16", "s16", Data::S16(vec![-1, -1]), Data::S16(vec![15, 16]));
    assert_eq!(r, Data::S16(vec![1, 0]));
    // Arithmetic shift of an unsigned type still fills with the top bit.
    let a = binary("shift-right-arithmetic", "u8", "u8", Data::U8(vec![0x80, 0x80]), Data::U8(vec![1, 8]));
    assert_eq!(a, Data::U8(vec![0xc0, 0xff]));
}

#[test]
fn integer_power() {
    let p = binary(
        "power",
        "s32",
        "s32",
        Data::S32(vec![2, 3, 1, -1, -1, 0, 0, 3, -2]),
        Data::S32(vec![10, -1, -5, -1, 3, 0, 5, 40, 3]),
    );
    // A negative exponent leaves 1 and -1 (odd: -1, even: 1), else 0.
    assert_eq!(p, Data::S32(vec![1024, 0, 1, -1, -1, 1, 0, 3i32.wrapping_pow(40), -8]));
    let p = binary("power", "u8", "u8", Data::U8(vec![2, 3, 0]), Data::U8(vec![8, 5, 0]));
    assert_eq!(p, Data::U8(vec![0, 243, 1]));
}

#[test]
fn sub_byte_integers_wrap_to_their_width() {
    let s4 = |v: &[i8]| Data::Bits(rxla_interpreter::ElementType::S4, v.iter().map(|&x| x as u8).collect());
    let u4 = |v: &[u8]| Data::Bits(rxla_interpreter::ElementType::U4, v.to_vec());
    assert_eq!(binary("add", "s4", "s4", s4(&[7, -8, 3]), s4(&[1, -1, 2])), s4(&[-8, 7, 5]));
    assert_eq!(binary("multiply", "s4", "s4", s4(&[4, -3]), s4(&[4, 3])), s4(&[0, 7]));
    assert_eq!(binary("divide", "s4", "s4", s4(&[-8, 5, 5]), s4(&[-1, 0, 2])), s4(&[-8, -1, 2]));
    assert_eq!(binary("shift-right-logical", "s4", "s4", s4(&[-1, -8, 7]), s4(&[1, 3, 4])), s4(&[7, 1, 0]));
    assert_eq!(binary("shift-right-arithmetic", "s4", "s4", s4(&[-8, -8, 7]), s4(&[1, 5, 2])), s4(&[-4, -1, 1]));
    assert_eq!(binary("shift-left", "s4", "s4", s4(&[1, 1, 1]), s4(&[3, 4, -1])), s4(&[-8, 0, 0]));
    assert_eq!(binary("mulhi", "s4", "s4", s4(&[7, -8]), s4(&[7, -8])), s4(&[3, 4]));
    assert_eq!(unary("count-leading-zeros", "s4", "s4", s4(&[1, -1, 0, 4])), s4(&[3, 0, 4, 1]));
    assert_eq!(unary("popcnt", "s4", "s4", s4(&[-1, 5, 0])), s4(&[4, 2, 0]));
    assert_eq!(unary("abs", "s4", "s4", s4(&[-8, -3])), s4(&[-8, 3]));
    assert_eq!(unary("not", "u4", "u4", u4(&[0, 15, 5])), u4(&[15, 0, 10]));
    assert_eq!(unary("negate", "u4", "u4", u4(&[1, 0])), u4(&[15, 0]));
    assert_eq!(binary("add", "u4", "u4", u4(&[15, 8]), u4(&[1, 9])), u4(&[0, 1]));
    assert_eq!(binary("shift-right-arithmetic", "u4", "u4", u4(&[8, 8, 7]), u4(&[1, 4, 1])), u4(&[12, 15, 3]));
    assert_eq!(binary("shift-left", "u4", "u4", u4(&[1, 1, 3]), u4(&[3, 4, 9])), u4(&[8, 0, 0]));
    assert_eq!(binary("divide", "u4", "u4", u4(&[9, 9]), u4(&[0, 2])), u4(&[15, 4]));
    assert_eq!(compare("s4", "LT", None, s4(&[-8, 7]), s4(&[7, -8])), vec![true, false]);
    assert_eq!(compare("s4", "LT", Some("UNSIGNED"), s4(&[-8, 7]), s4(&[7, -8])), vec![false, true]);
}

#[test]
fn clz_popcnt_mulhi() {
    assert_eq!(unary("count-leading-zeros", "s8", "s8", Data::S8(vec![-1, 0, 1, 64])), Data::S8(vec![0, 8, 7, 1]));
    assert_eq!(unary("popcnt", "s8", "s8", Data::S8(vec![-1, 0, 5])), Data::S8(vec![8, 0, 2]));
    assert_eq!(unary("count-leading-zeros", "u64", "u64", Data::U64(vec![0, 1, u64::MAX])), Data::U64(vec![64, 63, 0]));
    assert_eq!(
        binary("mulhi", "s32", "s32", Data::S32(vec![1 << 30, -1]), Data::S32(vec![8, 1])),
        Data::S32(vec![2, -1])
    );
    assert_eq!(
        binary("mulhi", "u8", "u8", Data::U8(vec![200, 255]), Data::U8(vec![200, 255])),
        Data::U8(vec![156, 254])
    );
    assert_eq!(binary("mulhi", "s8", "s8", Data::S8(vec![-128]), Data::S8(vec![-128])), Data::S8(vec![64]));
    assert_eq!(
        binary("mulhi", "u64", "u64", Data::U64(vec![u64::MAX]), Data::U64(vec![u64::MAX])),
        Data::U64(vec![u64::MAX - 1])
    );
}

#[test]
fn max_min_propagate_nan_and_order_signed_zeros() {
    let nan = f32::NAN;
    let a = Data::F32(vec![nan, 1.0, -0.0, 0.0, 2.0, -1.0]);
    let b = Data::F32(vec![1.0, nan, 0.0, -0.0, 3.0, -2.0]);
    let mx = f32s(&binary("maximum", "f32", "f32", a.clone(), b.clone()));
    assert!(mx[0].is_nan() && mx[1].is_nan());
    assert_eq!(bits32(&mx[2..]), bits32(&[0.0, 0.0, 3.0, -1.0]));
    let mn = f32s(&binary("minimum", "f32", "f32", a, b));
    assert!(mn[0].is_nan() && mn[1].is_nan());
    assert_eq!(bits32(&mn[2..]), bits32(&[-0.0, -0.0, 2.0, -2.0]));
    // pred: maximum is or, minimum is and.
    let p = Data::Pred(vec![true, false, false]);
    let q = Data::Pred(vec![false, false, true]);
    assert_eq!(binary("maximum", "pred", "pred", p.clone(), q.clone()), Data::Pred(vec![true, false, true]));
    assert_eq!(binary("minimum", "pred", "pred", p.clone(), q.clone()), Data::Pred(vec![false, false, false]));
    assert_eq!(binary("add", "pred", "pred", p.clone(), q.clone()), Data::Pred(vec![true, false, true]));
    assert_eq!(binary("multiply", "pred", "pred", p, q), Data::Pred(vec![false, false, false]));
    // bf16 keeps NaN.
    let m = binary(
        "maximum",
        "bf16",
        "bf16",
        Data::Bf16(vec![bf16::NAN, bf16::from_f32(1.5)]),
        Data::Bf16(vec![bf16::ONE, bf16::from_f32(-1.0)]),
    );
    let Data::Bf16(m) = m else { panic!() };
    assert!(m[0].is_nan());
    assert_eq!(m[1], bf16::from_f32(1.5));
}

#[test]
fn float_rounding_and_sign() {
    let x = Data::F32(vec![2.5, -2.5, 0.5, -0.5, 1.5, -0.0, f32::NAN, 3.7]);
    let afz = f32s(&unary("round-nearest-afz", "f32", "f32", x.clone()));
    assert_eq!(bits32(&afz[..6]), bits32(&[3.0, -3.0, 1.0, -1.0, 2.0, -0.0]));
    let even = f32s(&unary("round-nearest-even", "f32", "f32", x.clone()));
    assert_eq!(bits32(&even[..6]), bits32(&[2.0, -2.0, 0.0, -0.0, 2.0, -0.0]));
    assert_eq!(even[7], 4.0);
    let sign = f32s(&unary("sign", "f32", "f32", Data::F32(vec![-0.0, 0.0, -3.0, 5.0, f32::NAN, f32::NEG_INFINITY])));
    assert_eq!(bits32(&sign[..4]), bits32(&[-0.0, 0.0, -1.0, 1.0]));
    assert!(sign[4].is_nan());
    assert_eq!(sign[5], -1.0);
    assert_eq!(unary("sign", "s32", "s32", Data::S32(vec![-7, 0, 9])), Data::S32(vec![-1, 0, 1]));
    let fl = f32s(&unary("floor", "f32", "f32", Data::F32(vec![-0.5, 1.5, -0.0])));
    assert_eq!(bits32(&fl), bits32(&[-1.0, 1.0, -0.0]));
    let c = f32s(&unary("ceil", "f32", "f32", Data::F32(vec![-0.5, 1.5])));
    assert_eq!(bits32(&c), bits32(&[-0.0, 2.0]));
    let fin = unary("is-finite", "f32", "pred", Data::F32(vec![1.0, f32::INFINITY, f32::NAN, -0.0]));
    assert_eq!(fin, Data::Pred(vec![true, false, false, true]));
}

#[test]
fn float_remainder_and_power() {
    let r = f32s(&binary(
        "remainder",
        "f32",
        "f32",
        Data::F32(vec![5.5, -5.5, 1.0, 1.0]),
        Data::F32(vec![2.0, 2.0, 0.0, f32::INFINITY]),
    ));
    assert_eq!(r[0], 1.5);
    assert_eq!(r[1], -1.5);
    assert!(r[2].is_nan());
    assert_eq!(r[3], 1.0);
    let p = f32s(&binary(
        "power",
        "f32",
        "f32",
        Data::F32(vec![f32::NAN, 1.0, -8.0, 0.0, 2.0, -2.0]),
        Data::F32(vec![0.0, f32::NAN, 1.0 / 3.0, -1.0, 10.0, 3.0]),
    ));
    assert_eq!(p[0], 1.0);
    assert_eq!(p[1], 1.0);
    assert!(p[2].is_nan());
    assert_eq!(p[3], f32::INFINITY);
    assert_eq!(p[4], 1024.0);
    assert_eq!(p[5], -8.0);
}

#[test]
fn transcendentals_are_accurate() {
    let x = vec![0.5f64, 1.0, 2.0, 3.0, -0.1, 1e-10, 6.5, -7.0];
    let want = [
        0.5204998778130465,
        0.8427007929497149,
        0.9953222650189527,
        0.9999779095030014,
        -0.1124629160182849,
        1.1283791670955126e-10,
        1.0,
        -1.0,
    ];
    let Data::F64(got) = unary("erf", "f64", "f64", Data::F64(x.clone())) else { panic!() };
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= 4.5e-16 * w.abs(), "erf: {g} vs {w}");
    }
    // f32 through f64: correctly rounded.
    let Data::F32(e32) = unary("erf", "f32", "f32", Data::F32(vec![0.5, 1.0])) else { panic!() };
    assert_eq!(e32, vec![0.5204998778130465f64 as f32, 0.8427007929497149f64 as f32]);
    let Data::F32(t) = unary("tanh", "f32", "f32", Data::F32(vec![0.5, 20.0, -20.0])) else { panic!() };
    assert_eq!(t, vec![0.5f64.tanh() as f32, 1.0, -1.0]);
    let Data::F32(l) = unary("logistic", "f32", "f32", Data::F32(vec![0.0, -200.0, 200.0])) else { panic!() };
    assert_eq!(l, vec![0.5, 0.0, 1.0]);
    let Data::F32(c) = unary("cbrt", "f32", "f32", Data::F32(vec![-27.0, 8.0])) else { panic!() };
    assert_eq!(c, vec![-3.0, 2.0]);
    let Data::F32(r) = unary("rsqrt", "f32", "f32", Data::F32(vec![4.0, 0.0, -1.0])) else { panic!() };
    assert_eq!(r[..2], [0.5, f32::INFINITY]);
    assert!(r[2].is_nan());
    // f16 is computed in f32 and rounded once.
    let Data::F16(h) = unary("exponential", "f16", "f16", Data::F16(vec![f16::from_f32(1.0)])) else { panic!() };
    assert_eq!(h[0], f16::from_f32(std::f32::consts::E));
    let Data::F64(a) = binary("atan2", "f64", "f64", Data::F64(vec![1.0, -0.0]), Data::F64(vec![1.0, -1.0])) else {
        panic!()
    };
    assert_eq!(a, vec![std::f64::consts::FRAC_PI_4, -std::f64::consts::PI]);
}

#[test]
fn subnormals_flush_in_arithmetic_but_not_in_moves() {
    let tiny = f32::from_bits(1); // smallest subnormal
    let s = f32s(&binary("add", "f32", "f32", Data::F32(vec![tiny, 1e-38]), Data::F32(vec![0.0, -0.99e-38])));
    assert_eq!(bits32(&s), bits32(&[0.0, 0.0]));
    let m = f32s(&binary("multiply", "f32", "f32", Data::F32(vec![6e-39, -1e-20]), Data::F32(vec![2.0, 1e-20])));
    assert_eq!(bits32(&m), bits32(&[0.0, -0.0]));
    // negate and maximum move values bit-exactly.
    let n = f32s(&unary("negate", "f32", "f32", Data::F32(vec![tiny])));
    assert_eq!(n[0].to_bits(), 0x8000_0001);
    let mx = f32s(&binary("maximum", "f32", "f32", Data::F32(vec![tiny]), Data::F32(vec![0.0])));
    assert_eq!(mx[0].to_bits(), 1);
    // f64 -> f32 flushes results, f32 -> f64 flushes inputs.
    let text = module(&["f64[2]"], "f32[2]", "convert(p0)");
    let c = f32s(&data(run(&text, &[Literal::array(vec![2], Data::F64(vec![1e-40, -1e-39]))])));
    assert_eq!(bits32(&c), bits32(&[0.0, -0.0]));
    let text = module(&["f32[1]"], "f64[1]", "convert(p0)");
    assert_eq!(data(run(&text, &[Literal::array(vec![1], Data::F32(vec![tiny]))])), Data::F64(vec![0.0]));
}

fn compare(t: &str, dir: &str, kind: Option<&str>, a: Data, b: Data) -> Vec<bool> {
    let n = a.len();
    let kind = kind.map(|k| format!(", type={k}")).unwrap_or_default();
    let text = module(
        &[&format!("{t}[{n}]"), &format!("{t}[{n}]")],
        &format!("pred[{n}]"),
        &format!("compare(p0, p1), direction={dir}{kind}"),
    );
    match data(run(&text, &[Literal::array(vec![n as i64], a), Literal::array(vec![n as i64], b)])) {
        Data::Pred(v) => v,
        _ => panic!(),
    }
}

#[test]
fn compare_float_total_order_and_signedness() {
    let nan = f32::NAN;
    let a = Data::F32(vec![nan, 1.0, -0.0, -nan, f32::NEG_INFINITY, nan]);
    let b = Data::F32(vec![nan, nan, 0.0, f32::NEG_INFINITY, -nan, 1.0]);
    assert_eq!(compare("f32", "EQ", None, a.clone(), b.clone()), vec![false, false, true, false, false, false]);
    assert_eq!(compare("f32", "NE", None, a.clone(), b.clone()), vec![true, true, false, true, true, true]);
    assert_eq!(compare("f32", "LT", None, a.clone(), b.clone()), vec![false, false, false, false, false, false]);
    assert_eq!(
        compare("f32", "LT", Some("TOTALORDER"), a.clone(), b.clone()),
        vec![false, true, true, true, false, false]
    );
    assert_eq!(
        compare("f32", "EQ", Some("TOTALORDER"), a.clone(), b.clone()),
        vec![true, false, false, false, false, false]
    );
    assert_eq!(compare("f32", "GT", Some("TOTALORDER"), a, b), vec![false, false, false, false, true, true]);
    let h = Data::F16(vec![f16::from_f32(-0.0), f16::NAN]);
    let k = Data::F16(vec![f16::from_f32(0.0), f16::INFINITY]);
    assert_eq!(compare("f16", "LT", Some("TOTALORDER"), h.clone(), k.clone()), vec![true, false]);
    assert_eq!(compare("f16", "GE", None, h, k), vec![true, false]);
    // Integers: default signedness, explicit override.
    let a = Data::S32(vec![-1, 5]);
    let b = Data::S32(vec![1, 5]);
    assert_eq!(compare("s32", "LT", None, a.clone(), b.clone()), vec![true, false]);
    assert_eq!(compare("s32", "LT", Some("UNSIGNED"), a.clone(), b.clone()), vec![false, false]);
    assert_eq!(compare("s32", "LE", Some("SIGNED"), a, b), vec![true, true]);
    assert_eq!(compare("u8", "GT", None, Data::U8(vec![200]), Data::U8(vec![100])), vec![true]);
    assert_eq!(compare("u8", "GT", Some("SIGNED"), Data::U8(vec![200]), Data::U8(vec![100])), vec![false]);
    assert_eq!(
        compare("pred", "LT", None, Data::Pred(vec![false, true]), Data::Pred(vec![true, true])),
        vec![true, false]
    );
    // Complex: EQ/NE only.
    let c = Data::C64(vec![Complex32::new(1.0, 2.0), Complex32::new(1.0, f32::NAN), Complex32::new(1.0, 2.0)]);
    let d = Data::C64(vec![Complex32::new(1.0, 2.0), Complex32::new(1.0, f32::NAN), Complex32::new(1.0, 3.0)]);
    assert_eq!(compare("c64", "EQ", None, c.clone(), d.clone()), vec![true, false, false]);
    assert_eq!(compare("c64", "NE", None, c.clone(), d.clone()), vec![false, true, true]);
    let text = module(&["c64[3]", "c64[3]"], "pred[3]", "compare(p0, p1), direction=LT");
    assert!(try_run(&text, &[Literal::array(vec![3], c), Literal::array(vec![3], d)]).is_err());
    // Subnormals compare as zero (DAZ).
    let tiny = f32::from_bits(1);
    assert_eq!(compare("f32", "EQ", None, Data::F32(vec![tiny]), Data::F32(vec![0.0])), vec![true]);
    assert_eq!(compare("f32", "EQ", Some("TOTALORDER"), Data::F32(vec![tiny]), Data::F32(vec![0.0])), vec![false]);
}

#[test]
fn select_and_clamp() {
    let text = module(&["pred[3]", "s32[3]", "s32[3]"], "s32[3]", "select(p0, p1, p2)");
    let r = run(
        &text,
        &[
            Literal::array(vec![3], Data::Pred(vec![true, false, true])),
            Literal::array(vec![3], Data::S32(vec![1, 2, 3])),
            Literal::array(vec![3], Data::S32(vec![10, 20, 30])),
        ],
    );
    assert_eq!(data(r), Data::S32(vec![1, 20, 3]));
    let text = module(&["pred[]", "f32[2]", "f32[2]"], "f32[2]", "select(p0, p1, p2)");
    let r = run(
        &text,
        &[
            Literal::scalar(Data::Pred(vec![false])),
            Literal::array(vec![2], Data::F32(vec![1.0, 2.0])),
            Literal::array(vec![2], Data::F32(vec![3.0, 4.0])),
        ],
    );
    assert_eq!(data(r), Data::F32(vec![3.0, 4.0]));
    // Tuples with a scalar predicate.
    let text = "HloModule m\n\nENTRY e {\n  p = pred[] parameter(0)\n  a = s32[] parameter(1)\n  b = s32[] parameter(2)\n  \
                t = (s32[], s32[]) tuple(a, b)\n  u = (s32[], s32[]) tuple(b, a)\n  ROOT r = (s32[], s32[]) select(p, t, u)\n}\n";
    let r = run(
        text,
        &[
            Literal::scalar(Data::Pred(vec![true])),
            Literal::scalar(Data::S32(vec![1])),
            Literal::scalar(Data::S32(vec![2])),
        ],
    );
    assert_eq!(r, Literal::Tuple(vec![Literal::scalar(Data::S32(vec![1])), Literal::scalar(Data::S32(vec![2]))]));

    // clamp with scalar bounds, NaN and lo > hi.
    let text = module(&["f32[]", "f32[5]", "f32[]"], "f32[5]", "clamp(p0, p1, p2)");
    let r = f32s(&data(run(
        &text,
        &[
            Literal::scalar(Data::F32(vec![-1.0])),
            Literal::array(vec![5], Data::F32(vec![-5.0, 0.5, 5.0, f32::NAN, -0.0])),
            Literal::scalar(Data::F32(vec![1.0])),
        ],
    )));
    assert_eq!(r[..3], [-1.0, 0.5, 1.0]);
    assert!(r[3].is_nan());
    assert_eq!(r[4].to_bits(), (-0.0f32).to_bits());
    let text = module(&["s32[2]", "s32[2]", "s32[2]"], "s32[2]", "clamp(p0, p1, p2)");
    let r = run(
        &text,
        &[
            Literal::array(vec![2], Data::S32(vec![5, 0])),
            Literal::array(vec![2], Data::S32(vec![3, -7])),
            Literal::array(vec![2], Data::S32(vec![1, 10])),
        ],
    );
    assert_eq!(data(r), Data::S32(vec![1, 0]));
}

fn constant(shape: &str, literal: &str) -> Data {
    data(run(&format!("HloModule m\n\nENTRY e {{\n  ROOT c = {shape} constant({literal})\n}}\n"), &[]))
}

#[test]
fn constants_parse_like_xla() {
    let c = f32s(&constant("f32[7]", "{inf, -inf, nan, -nan, nan(0x1), 0x1.8p1, -2.5e-3}"));
    assert_eq!(c[0], f32::INFINITY);
    assert_eq!(c[1], f32::NEG_INFINITY);
    assert_eq!(c[2].to_bits(), 0x7fc0_0000);
    assert_eq!(c[3].to_bits(), 0xffc0_0000);
    assert_eq!(c[4].to_bits(), 0x7f80_0001);
    assert_eq!(c[5], 3.0);
    assert_eq!(c[6], -2.5e-3);
    assert_eq!(constant("f32[2,2]", "{ { 1, 2 }, { 3, 4 } }"), Data::F32(vec![1.0, 2.0, 3.0, 4.0]));
    assert_eq!(constant("f32[0,8]", "{  }"), Data::F32(vec![]));
    assert_eq!(constant("bf16[]", "0.1"), Data::Bf16(vec![bf16::from_bits(0x3dcd)]));
    assert_eq!(constant("f16[2]", "{65504, -inf}"), Data::F16(vec![f16::MAX, f16::NEG_INFINITY]));
    assert_eq!(
        constant("c64[2]", "{(1, -2), (0, inf)}"),
        Data::C64(vec![Complex32::new(1.0, -2.0), Complex32::new(0.0, f32::INFINITY)])
    );
    assert_eq!(constant("pred[3]", "{true, false, 1}"), Data::Pred(vec![true, false, true]));
    assert_eq!(constant("u64[]", "18446744073709551615"), Data::U64(vec![u64::MAX]));
    assert_eq!(constant("s64[]", "-9223372036854775808"), Data::S64(vec![i64::MIN]));
    assert_eq!(constant("s4[3]", "{-8, 7, -1}"), Data::Bits(rxla_interpreter::ElementType::S4, vec![0xf8, 0x07, 0xff]));
    assert_eq!(
        constant("f8e4m3fn[3]", "{448, -nan, 0.1}"),
        Data::Bits(rxla_interpreter::ElementType::F8e4m3fn, vec![0x7e, 0xff, 0x1d])
    );
    // Out-of-range integers are errors, not wraps.
    assert!(try_run("HloModule m\n\nENTRY e {\n  ROOT c = u8[] constant(256)\n}\n", &[]).is_err());
    assert!(try_run("HloModule m\n\nENTRY e {\n  ROOT c = f32[2] constant({1})\n}\n", &[]).is_err());
}

#[test]
fn tuple_constant() {
    let r = run("HloModule m\n\nENTRY e {\n  ROOT c = (s32[], f32[2]) constant((3, {1, 2}))\n}\n", &[]);
    assert_eq!(
        r,
        Literal::Tuple(vec![Literal::scalar(Data::S32(vec![3])), Literal::array(vec![2], Data::F32(vec![1.0, 2.0]))])
    );
}

#[test]
fn iota_along_a_dimension() {
    let r = run("HloModule m\n\nENTRY e {\n  ROOT i = s32[2,3] iota(), iota_dimension=1\n}\n", &[]);
    assert_eq!(data(r), Data::S32(vec![0, 1, 2, 0, 1, 2]));
    let r = run("HloModule m\n\nENTRY e {\n  ROOT i = f32[3,2] iota(), iota_dimension=0\n}\n", &[]);
    assert_eq!(data(r), Data::F32(vec![0.0, 0.0, 1.0, 1.0, 2.0, 2.0]));
    let r = run("HloModule m\n\nENTRY e {\n  ROOT i = bf16[300] iota(), iota_dimension=0\n}\n", &[]);
    let Data::Bf16(v) = data(r) else { panic!() };
    assert_eq!(v[257].to_f32(), 256.0); // rounded to nearest even
    assert_eq!(v[259].to_f32(), 260.0);
}

#[test]
fn reduce_precision_rounds_and_saturates() {
    let text = |e: i32, m: i32| {
        module(&["f32[8]"], "f32[8]", &format!("reduce-precision(p0), exponent_bits={e}, mantissa_bits={m}"))
    };
    let x = vec![
        1.0 + 2f32.powi(-8),       // tie -> even (1)
        1.0 + 3.0 * 2f32.powi(-8), // tie -> even (1 + 2^-6)
        1e5,                       // > f16 max -> inf
        -1e-6,                     // below f16 min normal -> -0
        f32::NAN,
        65504.0,
        6.1035156e-5, // f16 min normal stays
        -f32::INFINITY,
    ];
    let r = f32s(&data(run(&text(5, 10), &[Literal::array(vec![8], Data::F32(x.clone()))])));
    assert_eq!(r[0], 1.0 + 2f32.powi(-8)); // 10 mantissa bits keep it
    assert_eq!(r[2], f32::INFINITY);
    assert_eq!(r[3].to_bits(), (-0.0f32).to_bits());
    assert!(r[4].is_nan());
    assert_eq!(r[5], 65504.0);
    assert_eq!(r[6], 6.1035156e-5);
    assert_eq!(r[7], f32::NEG_INFINITY);
    let r = f32s(&data(run(&text(8, 7), &[Literal::array(vec![8], Data::F32(x.clone()))])));
    assert_eq!(r[0], 1.0);
    assert_eq!(r[1], 1.0 + 2f32.powi(-6));
    assert_eq!(r[2], 99840.0);
    assert!(r[4].is_nan());
    // No mantissa bits: NaN stays NaN (the semantics, and XLA:CPU).
    let r = f32s(&data(run(&text(8, 0), &[Literal::array(vec![8], Data::F32(x))])));
    assert!(r[4].is_nan());
    assert_eq!(r[0], 1.0);
    assert_eq!(r[1], 1.0);
}

fn convert(from: &str, to: &str, x: Data) -> Data {
    let n = x.len();
    let text = module(&[&format!("{from}[{n}]")], &format!("{to}[{n}]"), "convert(p0)");
    data(run(&text, &[Literal::array(vec![n as i64], x)]))
}

#[test]
fn float_to_int_saturates_and_nan_is_zero() {
    let x = Data::F32(vec![f32::NAN, 3e9, -3e9, 2.9, -2.9, f32::INFINITY, f32::NEG_INFINITY]);
    assert_eq!(convert("f32", "s32", x.clone()), Data::S32(vec![0, i32::MAX, i32::MIN, 2, -2, i32::MAX, i32::MIN]));
    assert_eq!(convert("f32", "u8", x.clone()), Data::U8(vec![0, 255, 0, 2, 0, 255, 0]));
    assert_eq!(convert("f32", "u64", Data::F32(vec![-1.0, 1e20])), Data::U64(vec![0, u64::MAX]));
    assert_eq!(
        convert("f32", "s4", Data::F32(vec![100.0, -100.0, f32::NAN, -3.5])),
        Data::Bits(rxla_interpreter::ElementType::S4, vec![7, 0xf8, 0, 0xfd])
    );
    assert_eq!(
        convert("s32", "s4", Data::S32(vec![9, -9, 16])),
        Data::Bits(rxla_interpreter::ElementType::S4, vec![0xf9, 7, 0])
    );
    assert_eq!(convert("s32", "u8", Data::S32(vec![-1, 256, 257])), Data::U8(vec![255, 0, 1]));
    assert_eq!(convert("u32", "s32", Data::U32(vec![u32::MAX])), Data::S32(vec![-1]));
}

#[test]
fn conversions_round_to_nearest_even() {
    let x = Data::F32(vec![1.0 + 2f32.powi(-8), 1.0 + 3.0 * 2f32.powi(-8), 3.4e38, f32::NAN]);
    let Data::Bf16(b) = convert("f32", "bf16", x) else { panic!() };
    assert_eq!(b[0].to_f32(), 1.0);
    assert_eq!(b[1].to_f32(), 1.0 + 2f32.powi(-6));
    assert_eq!(b[2], bf16::INFINITY);
    assert!(b[3].is_nan());
    let Data::F16(h) = convert("s32", "f16", Data::S32(vec![2049, 2051, 70000])) else { panic!() };
    assert_eq!(h[0].to_f32(), 2048.0);
    assert_eq!(h[1].to_f32(), 2052.0);
    assert_eq!(h[2], f16::INFINITY);
    let Data::F32(f) = convert("s32", "f32", Data::S32(vec![16777217, i32::MAX])) else { panic!() };
    assert_eq!(f, vec![16777216.0, 2147483648.0]);
    assert_eq!(convert("u64", "f32", Data::U64(vec![u64::MAX])), Data::F32(vec![1.8446744e19]));
    // f64 -> f16/bf16 and wide integers -> bf16 round once.
    let Data::F16(h) =
        convert("f64", "f16", Data::F64(vec![1.0 + 2f64.powi(-11) + 2f64.powi(-40), -(1.0 + 2f64.powi(-11))]))
    else {
        panic!()
    };
    assert_eq!(h[0].to_f64(), 1.0 + 2f64.powi(-10));
    assert_eq!(h[1].to_f64(), -1.0);
    let Data::Bf16(b) = convert("f64", "bf16", Data::F64(vec![1.0 + 2f64.powi(-8) + 2f64.powi(-40), 1e300, 0.1]))
    else {
        panic!()
    };
    assert_eq!(b[0].to_f64(), 1.0 + 2f64.powi(-7));
    assert_eq!(b[1], bf16::INFINITY);
    assert_eq!(b[2].to_bits(), 0x3dcd);
    let big = (1i64 << 30) + (1 << 22) + 1;
    let Data::Bf16(b) = convert("s64", "bf16", Data::S64(vec![big, -big, (1 << 30) + (1 << 22)])) else { panic!() };
    assert_eq!(b[0].to_f64(), ((1i64 << 30) + (1 << 23)) as f64);
    assert_eq!(b[1].to_f64(), -(((1i64 << 30) + (1 << 23)) as f64));
    assert_eq!(b[2].to_f64(), (1i64 << 30) as f64);
    // Narrow floats: overflow becomes inf (e5m2) or NaN (e4m3fn).
    let x = Data::F32(vec![1e6, -1e6, 448.0, 464.0, 0.0]);
    assert_eq!(
        convert("f32", "f8e5m2", x.clone()),
        Data::Bits(rxla_interpreter::ElementType::F8e5m2, vec![0x7c, 0xfc, 0x5f, 0x5f, 0])
    );
    assert_eq!(
        convert("f32", "f8e4m3fn", x),
        Data::Bits(rxla_interpreter::ElementType::F8e4m3fn, vec![0x7f, 0xff, 0x7e, 0x7e, 0])
    );
    let Data::F32(back) =
        convert("f8e4m3fn", "f32", Data::Bits(rxla_interpreter::ElementType::F8e4m3fn, vec![0x7e, 0xff, 0x01]))
    else {
        panic!()
    };
    assert_eq!(back[0], 448.0);
    assert!(back[1].is_nan());
    assert_eq!(back[2], 2f32.powi(-9));
}

#[test]
fn pred_and_complex_conversions() {
    assert_eq!(
        convert("f32", "pred", Data::F32(vec![0.0, -0.0, f32::NAN, 0.5])),
        Data::Pred(vec![false, false, true, true])
    );
    assert_eq!(convert("s32", "pred", Data::S32(vec![0, -3])), Data::Pred(vec![false, true]));
    assert_eq!(convert("pred", "f32", Data::Pred(vec![true, false])), Data::F32(vec![1.0, 0.0]));
    assert_eq!(convert("c64", "f32", Data::C64(vec![Complex32::new(1.5, -2.0)])), Data::F32(vec![1.5]));
    assert_eq!(convert("c64", "s32", Data::C64(vec![Complex32::new(-2.5, 9.0)])), Data::S32(vec![-2]));
    assert_eq!(convert("f32", "c64", Data::F32(vec![2.0])), Data::C64(vec![Complex32::new(2.0, 0.0)]));
    let c = convert("c64", "c128", Data::C64(vec![Complex32::new(2.0, -1.0)]));
    assert_eq!(c, Data::C128(vec![num_complex::Complex64::new(2.0, -1.0)]));
}

#[test]
fn bitcast_convert_is_little_endian() {
    let text = module(&["f32[2]"], "u8[2,4]", "bitcast-convert(p0)");
    let r = data(run(&text, &[Literal::array(vec![2], Data::F32(vec![1.0, -2.0]))]));
    assert_eq!(r, Data::U8(vec![0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0]));
    let text = module(&["u8[2,4]"], "f32[2]", "bitcast-convert(p0)");
    let back = data(run(&text, &[Literal::array(vec![2, 4], r)]));
    assert_eq!(back, Data::F32(vec![1.0, -2.0]));
    let text = module(&["f32[2]"], "s32[2]", "bitcast-convert(p0)");
    let r = data(run(&text, &[Literal::array(vec![2], Data::F32(vec![-0.0, f32::NAN]))]));
    assert_eq!(r, Data::S32(vec![i32::MIN, 0x7fc0_0000]));
    let text = module(&["f32[]"], "f16[2]", "bitcast-convert(p0)");
    let r = data(run(&text, &[Literal::scalar(Data::F32(vec![f32::from_bits(0x3c00_4000)]))]));
    assert_eq!(r, Data::F16(vec![f16::from_f32(2.0), f16::ONE]));
    let text = module(&["c64[1]"], "f32[1,2]", "bitcast-convert(p0)");
    let r = data(run(&text, &[Literal::array(vec![1], Data::C64(vec![Complex32::new(1.0, 2.0)]))]));
    assert_eq!(r, Data::F32(vec![1.0, 2.0]));
    // Sub-byte: two s4 per u8, element 0 in the low nibble.
    let text = module(&["u8[2]"], "s4[2,2]", "bitcast-convert(p0)");
    let r = data(run(&text, &[Literal::array(vec![2], Data::U8(vec![0x7f, 0x18]))]));
    assert_eq!(r, Data::Bits(rxla_interpreter::ElementType::S4, vec![0xff, 0x07, 0xf8, 0x01]));
    let text = module(&["s4[2,2]"], "u8[2]", "bitcast-convert(p0)");
    let back = data(run(&text, &[Literal::array(vec![2, 2], r)]));
    assert_eq!(back, Data::U8(vec![0x7f, 0x18]));
    let text = module(&["s4[3]"], "u4[3]", "bitcast-convert(p0)");
    let r = data(run(
        &text,
        &[Literal::array(vec![3], Data::Bits(rxla_interpreter::ElementType::S4, vec![0xff, 0x07, 0xf8]))],
    ));
    assert_eq!(r, Data::Bits(rxla_interpreter::ElementType::U4, vec![15, 7, 8]));
}

#[test]
fn bitcast_reshapes_and_follows_layouts() {
    let x = Literal::array(vec![2, 3], Data::S32(vec![1, 2, 3, 4, 5, 6]));
    let text = module(&["s32[2,3]"], "s32[3,2]", "bitcast(p0)");
    assert_eq!(data(run(&text, std::slice::from_ref(&x))), Data::S32(vec![1, 2, 3, 4, 5, 6]));
    // Column-major result: the physical buffer read with dim 0 minor.
    let text = module(&["s32[2,3]{1,0}"], "s32[3,2]{0,1}", "bitcast(p0)");
    assert_eq!(data(run(&text, std::slice::from_ref(&x))), Data::S32(vec![1, 4, 2, 5, 3, 6]));
    let text = module(&["s32[2,3]{0,1}"], "s32[6]{0}", "bitcast(p0)");
    assert_eq!(data(run(&text, std::slice::from_ref(&x))), Data::S32(vec![1, 4, 2, 5, 3, 6]));
    let text = module(&["s32[2,3]"], "f32[6]", "bitcast(p0)");
    assert_eq!(data(run(&text, &[x])), Data::F32((1..=6).map(f32::from_bits).collect()));
}

#[test]
fn stochastic_convert_rounds_by_random_bits() {
    let text = module(&["f32[6]", "u32[6]"], "s32[6]", "stochastic-convert(p0, p1)");
    let r = run(
        &text,
        &[
            Literal::array(vec![6], Data::F32(vec![1.25, -1.25, 2.5, f32::NAN, 1e10, -1e10])),
            Literal::array(vec![6], Data::U32(vec![0, 0, 1 << 31, 0, 0, 0])),
        ],
    );
    assert_eq!(data(r), Data::S32(vec![2, -2, 2, 0, i32::MAX, i32::MIN]));
}

#[test]
fn complex_ops() {
    let z = Data::C64(vec![Complex32::new(3.0, 4.0), Complex32::new(0.0, 0.0)]);
    assert_eq!(unary("abs", "c64", "f32", z.clone()), Data::F32(vec![5.0, 0.0]));
    let Data::C64(s) = unary("sign", "c64", "c64", z.clone()) else { panic!() };
    assert_eq!(s, vec![Complex32::new(0.6, 0.8), Complex32::new(0.0, 0.0)]);
    assert_eq!(unary("real", "c64", "f32", z.clone()), Data::F32(vec![3.0, 0.0]));
    assert_eq!(unary("imag", "c64", "f32", z.clone()), Data::F32(vec![4.0, 0.0]));
    let Data::C64(q) = binary("divide", "c64", "c64", z.clone(), Data::C64(vec![Complex32::new(0.0, 2.0); 2])) else {
        panic!()
    };
    assert_eq!(q[0], Complex32::new(2.0, -1.5));
    let Data::C64(p) =
        binary("power", "c64", "c64", z, Data::C64(vec![Complex32::new(0.0, 0.0), Complex32::new(2.0, 0.0)]))
    else {
        panic!()
    };
    assert_eq!(p, vec![Complex32::new(1.0, 0.0), Complex32::new(0.0, 0.0)]);
    let text = module(&["f32[2]", "f32[2]"], "c64[2]", "complex(p0, p1)");
    let r = run(
        &text,
        &[Literal::array(vec![2], Data::F32(vec![1.0, 2.0])), Literal::array(vec![2], Data::F32(vec![3.0, 4.0]))],
    );
    assert_eq!(data(r), Data::C64(vec![Complex32::new(1.0, 3.0), Complex32::new(2.0, 4.0)]));
}

#[test]
fn errors_instead_of_panics() {
    // Wrong operand type for the op.
    let text = module(&["f32[2]"], "f32[2]", "popcnt(p0)");
    assert!(try_run(&text, &[Literal::array(vec![2], Data::F32(vec![1.0, 2.0]))]).is_err());
    // Mismatched element counts.
    let text = module(&["f32[2]", "f32[3]"], "f32[2]", "add(p0, p1)");
    assert!(try_run(
        &text,
        &[Literal::array(vec![2], Data::F32(vec![1.0, 2.0])), Literal::array(vec![3], Data::F32(vec![1.0, 2.0, 3.0]))]
    )
    .is_err());
    // Result type that does not match the computation.
    let text = module(&["f32[2]"], "s32[2]", "negate(p0)");
    assert!(try_run(&text, &[Literal::array(vec![2], Data::F32(vec![1.0, 2.0]))]).is_err());
}

#[test]
fn narrow_floats_compute_through_f32() {
    use rxla_interpreter::ElementType as E;
    // f8e4m3fn: 448 + 32 = 480 is past the largest finite value -> NaN.
    let a = Data::Bits(E::F8e4m3fn, vec![0x7e, 0x38, 0xfe]); // 448, 1, -448
    let b = Data::Bits(E::F8e4m3fn, vec![0x68, 0x38, 0xfe]); // 32, 1, -448
    assert_eq!(
        binary("add", "f8e4m3fn", "f8e4m3fn", a.clone(), b.clone()),
        Data::Bits(E::F8e4m3fn, vec![0x7f, 0x40, 0xff])
    );
    assert_eq!(
        binary("maximum", "f8e4m3fn", "f8e4m3fn", a.clone(), b),
        Data::Bits(E::F8e4m3fn, vec![0x7e, 0x38, 0xfe])
    );
    assert_eq!(unary("negate", "f8e4m3fn", "f8e4m3fn", a.clone()), Data::Bits(E::F8e4m3fn, vec![0xfe, 0xb8, 0x7e]));
    assert_eq!(
        compare("f8e4m3fn", "LT", None, a.clone(), Data::Bits(E::F8e4m3fn, vec![0x7f, 0x40, 0x00])),
        vec![false, true, true]
    );
    // f8e5m2 overflows to inf.
    let x = Data::Bits(E::F8e5m2, vec![0x7b, 0x3c]); // 57344, 1
    assert_eq!(binary("add", "f8e5m2", "f8e5m2", x.clone(), x), Data::Bits(E::F8e5m2, vec![0x7c, 0x40]));
    // fnuz formats have no -0: negate(0) = 0.
    let z = Data::Bits(E::F8e4m3fnuz, vec![0x00]);
    assert_eq!(unary("negate", "f8e4m3fnuz", "f8e4m3fnuz", z), Data::Bits(E::F8e4m3fnuz, vec![0x00]));
}

#[test]
fn reduce_precision_on_narrow_types_and_more_iota() {
    let text = module(&["bf16[3]"], "bf16[3]", "reduce-precision(p0), exponent_bits=5, mantissa_bits=2");
    let x = Data::Bf16(vec![bf16::from_f32(1.75), bf16::from_f32(1.0e6), bf16::from_f32(1.125)]);
    let Data::Bf16(r) = data(run(&text, &[Literal::array(vec![3], x)])) else { panic!() };
    assert_eq!(r[0].to_f32(), 1.75);
    assert_eq!(r[1], bf16::INFINITY);
    assert_eq!(r[2].to_f32(), 1.0);
    let text = module(&["f16[2]"], "f16[2]", "reduce-precision(p0), exponent_bits=5, mantissa_bits=10");
    let x = Data::F16(vec![f16::from_bits(1), f16::from_f32(3.0)]);
    assert_eq!(data(run(&text, &[Literal::array(vec![2], x.clone())])), x);
    let r = run("HloModule m\n\nENTRY e {\n  ROOT i = c64[2,2] iota(), iota_dimension=0\n}\n", &[]);
    assert_eq!(
        data(r),
        Data::C64(vec![
            Complex32::new(0.0, 0.0),
            Complex32::new(0.0, 0.0),
            Complex32::new(1.0, 0.0),
            Complex32::new(1.0, 0.0)
        ])
    );
    let r = run("HloModule m\n\nENTRY e {\n  ROOT i = u8[0,3] iota(), iota_dimension=1\n}\n", &[]);
    assert_eq!(data(r), Data::U8(vec![]));
}
