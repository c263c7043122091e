//! Semantic checks of every rewrite family: each module is evaluated by the
//! reference interpreter on edge-case inputs (signed zeros, NaNs with
//! payloads and a signalling NaN, infinities, subnormals, the extreme
//! integers) before and after the pass, and the results must be
//! bit-identical. Each case also states whether the pass must change the
//! module, so the checks cannot pass vacuously.

use super::AlgSimp;
use melior::{
    ir::{operation::OperationLike, Module},
    pass::PassManager,
};
use rxla_hlo_text::ast::{PrimitiveType as P, Shape};
use rxla_interpreter::{npy, Data, Interpreter, Literal};
use rxla_ir::pass::{create_pass, HloPass, PassId, PassOptions};

static ID: PassId = PassId::new();

const F32_EDGE: &[u32] = &[
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x3f80_0000, // 1
    0xbfc0_0000, // -1.5
    0x7fc0_0001, // NaN with a payload
    0xffc0_0000, // -NaN (x86's default NaN)
    0x7f80_0001, // signalling NaN
    0x7f80_0000, // inf
    0xff80_0000, // -inf
    0x0000_0001, // smallest subnormal
    0x8040_0000, // -subnormal
    0x7f7f_ffff, // max
    0x0080_0000, // min normal
    0x4049_0fdb, // pi
    0xc2f6_e979, // -123.456
    0x3dcc_cccd, // 0.1
];

const F64_EDGE: &[u64] = &[
    0x0000_0000_0000_0000,
    0x8000_0000_0000_0000,
    0x3ff0_0000_0000_0000,
    0xbff8_0000_0000_0000,
    0x7ff8_0000_0000_0001,
    0xfff8_0000_0000_0000,
    0x7ff0_0000_0000_0001,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x0000_0000_0000_0001,
    0x8008_0000_0000_0000,
    0x7fef_ffff_ffff_ffff,
    0x0010_0000_0000_0000,
    0x4009_21fb_5444_2d18,
    0xc05e_dd2f_1a9f_be77,
    0x3fb9_9999_9999_999a,
];

const HALF_EDGE: &[f32] = &[
    0.0,
    -0.0,
    1.0,
    -1.5,
    f32::NAN,
    -f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    1e-7,
    -3e-6,
    6e-5,
    65504.0,
    0.1,
    3.25,
    -7.0,
    2.0,
];

const INT_EDGE: &[i128] = &[0, 1, -1, i128::MIN, i128::MAX, 2, -2, 7, -8, 100, -100, 3, 64, -64, 5, 1 << 40];

/// Edge-case values of `shape`, rotated by `seed` so that two parameters
/// of one module see different pairings.
fn edge_literal(shape: &Shape, seed: usize) -> Literal {
    let Shape::Array { element, dims, .. } = shape else { panic!("array parameters only") };
    let dims: Vec<i64> = npy_dims(dims);
    let n: usize = dims.iter().map(|&d| d as usize).product();
    let pick = |i: usize, len: usize| (i * 7 + seed * 5) % len;
    let int = |i: usize| INT_EDGE[pick(i, INT_EDGE.len())];
    macro_rules! ints {
        ($t:ty) => {
            (0..n)
                .map(|i| {
                    let v = int(i);
                    if v == i128::MIN {
                        <$t>::MIN
                    } else if v == i128::MAX {
                        <$t>::MAX
                    } else {
                        v as $t
                    }
                })
                .collect()
        };
    }
    let data = match element {
        P::Pred => Data::Pred((0..n).map(|i| (i + seed).is_multiple_of(3)).collect()),
        P::S8 => Data::S8(ints!(i8)),
        P::S16 => Data::S16(ints!(i16)),
        P::S32 => Data::S32(ints!(i32)),
        P::S64 => Data::S64(ints!(i64)),
        P::U8 => Data::U8(ints!(u8)),
        P::U16 => Data::U16(ints!(u16)),
        P::U32 => Data::U32(ints!(u32)),
        P::U64 => Data::U64(ints!(u64)),
        P::F32 => Data::F32((0..n).map(|i| f32::from_bits(F32_EDGE[pick(i, F32_EDGE.len())])).collect()),
        P::F64 => Data::F64((0..n).map(|i| f64::from_bits(F64_EDGE[pick(i, F64_EDGE.len())])).collect()),
        P::F16 | P::Bf16 => {
            let values = (0..n).map(|i| HALF_EDGE[pick(i, HALF_EDGE.len())]).collect();
            return Literal::from_f32_vec(*element, dims, values);
        }
        other => panic!("no edge values for {other:?}"),
    };
    Literal::array(dims, data)
}

fn npy_dims(dims: &[rxla_hlo_text::ast::Dim]) -> Vec<i64> {
    dims.iter()
        .map(|d| match d {
            rxla_hlo_text::ast::Dim::Static(n) | rxla_hlo_text::ast::Dim::Bounded(n) => *n,
            rxla_hlo_text::ast::Dim::Unbounded => panic!("unbounded"),
        })
        .collect()
}

/// Bit-for-bit equality, except that every NaN is one value.
fn identical(a: &Literal, b: &Literal) -> bool {
    // The semantics leave NaN payloads and signs unspecified, and which
    // operand's payload an add of two NaNs keeps depends on the operand
    // order LLVM picks for the commutative `fadd` in the interpreter's
    // reduce and elementwise loops: `reduce(x: [16, 1])` vs `x + init`
    // kept different payloads on one CI machine and the same on another.
    const NAN: u64 = u64::MAX;
    let f32_bits = |v: f32| if v.is_nan() { NAN } else { v.to_bits() as u64 };
    let f64_bits = |v: f64| if v.is_nan() { NAN } else { v.to_bits() };
    fn bits<T: Copy, U: PartialEq>(x: &[T], y: &[T], f: impl Fn(T) -> U) -> bool {
        x.len() == y.len() && x.iter().zip(y).all(|(p, q)| f(*p) == f(*q))
    }
    match (a, b) {
        (Literal::Array { dims: da, data: x }, Literal::Array { dims: db, data: y }) => {
            da == db
                && match (x, y) {
                    (Data::F32(x), Data::F32(y)) => bits(x, y, f32_bits),
                    (Data::F64(x), Data::F64(y)) => bits(x, y, f64_bits),
                    (Data::F16(x), Data::F16(y)) => bits(x, y, |v| if v.is_nan() { NAN } else { v.to_bits() as u64 }),
                    (Data::Bf16(x), Data::Bf16(y)) => bits(x, y, |v| if v.is_nan() { NAN } else { v.to_bits() as u64 }),
                    (Data::C64(x), Data::C64(y)) => bits(x, y, |v| (f32_bits(v.re), f32_bits(v.im))),
                    (Data::C128(x), Data::C128(y)) => bits(x, y, |v| (f64_bits(v.re), f64_bits(v.im))),
                    (x, y) => x == y,
                }
        }
        (Literal::Tuple(x), Literal::Tuple(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| identical(p, q)),
        _ => a == b,
    }
}

fn evaluate(module: &Module, seed: usize) -> Literal {
    let ast = rxla_translate::export::export_ast(module).expect("exports");
    let entry = &ast.computations[ast.entry];
    let args: Vec<Literal> =
        npy::parameter_shapes(entry).iter().enumerate().map(|(i, s)| edge_literal(s, seed + 3 * i)).collect();
    Interpreter::new(&ast).run(&args).expect("evaluates")
}

/// Runs algsimp on `text` (a module whose entry function is marked
/// `hlo.entry`), checks the results on several edge-case inputs, and that
/// the pass changed the module exactly when `expect_change`. Returns the
/// module after the pass.
fn check(text: &str, expect_change: bool) -> String {
    let context = rxla_dialects::create_context();
    let mut module = Module::parse(&context, text).unwrap_or_else(|| panic!("parses:\n{text}"));
    assert!(module.as_operation().verify(), "input verifies:\n{text}");
    let before = module.as_operation().to_string();
    let reference: Vec<Literal> = (0..4).map(|s| evaluate(&module, s)).collect();
    let manager = PassManager::new(&context);
    manager.enable_verifier(true);
    manager.add_pass(create_pass(AlgSimp::from_options(&PassOptions::default()).unwrap(), &ID));
    manager.run(&mut module).expect("pass runs");
    let after = module.as_operation().to_string();
    assert_eq!(after != before, expect_change, "change expected: {expect_change}\nbefore:\n{before}\nafter:\n{after}");
    for (s, want) in reference.iter().enumerate() {
        let got = evaluate(&module, s);
        assert!(
            identical(&got, want),
            "results differ (seed {s})\nbefore:\n{before}\nafter:\n{after}\ngot  {got:?}\nwant {want:?}"
        );
    }
    after
}

/// A one-function module `main(params) -> ty` with `body` (ending in a
/// `return`), plus extra functions.
fn module(params: &str, ret: &str, body: &str, extra: &str) -> String {
    format!("func.func @main({params}) -> {ret} attributes {{hlo.entry}} {{\n{body}\n}}\n{extra}")
}

#[test]
fn smoke() {
    let m = module(
        "%x: tensor<16xf32>",
        "tensor<16xf32>",
        "%0 = hlo.negate %x : tensor<16xf32>\n%1 = hlo.negate %0 : tensor<16xf32>\nreturn %1 : tensor<16xf32>",
        "",
    );
    let after = check(&m, true);
    assert!(!after.contains("hlo.negate"), "{after}");
}

fn case(params: &str, ret: &str, body: &str, change: bool) -> String {
    check(&module(params, ret, body, ""), change)
}

fn case_with(params: &str, ret: &str, body: &str, extra: &str, change: bool) -> String {
    check(&module(params, ret, body, extra), change)
}

/// `%y = <op> %x, <splat c>` on tensor<16x`ty`>, returning %y.
fn binary_with_const(op: &str, ty: &str, c: &str, const_first: bool, x_def: &str) -> String {
    let t = format!("tensor<16x{ty}>");
    let operands = if const_first { "%cb, %x" } else { "%x, %cb" };
    format!(
        "{x_def}\n%c = hlo.constant dense<{c}> : tensor<{ty}>\n%cb = hlo.broadcast %c, dims = [] : (tensor<{ty}>) -> {t}\n\
         %y = hlo.{op} {operands} : {t}\nreturn %y : {t}"
    )
}

#[test]
fn integer_identities_fire_and_are_exact() {
    for ty in ["i32", "i8", "ui32", "i64", "ui8"] {
        let t = format!("tensor<16x{ty}>");
        let params = format!("%x: {t}");
        for (op, c, first) in [
            ("add", "0", false),
            ("add", "0", true),
            ("subtract", "0", false),
            ("multiply", "1", false),
            ("multiply", "1", true),
            ("divide", "1", false),
            ("multiply", "0", false),
            ("and", "0", false),
            ("or", "0", true),
            ("xor", "0", false),
            ("power", "1", false),
            ("power", "0", false),
            ("power", "2", false),
            ("maximum", if ty.starts_with("ui") { "0" } else { "-128" }, false),
        ] {
            if op == "maximum" && ty != "i8" && !ty.starts_with("ui") {
                continue;
            }
            let after = case(&params, &t, &binary_with_const(op, ty, c, first, ""), true);
            assert!(!after.contains(&format!("hlo.{op}")), "{op} {c} on {ty} left:\n{after}");
        }
    }
    // all ones: x & -1 -> x, x | -1 -> -1.
    case("%x: tensor<16xi32>", "tensor<16xi32>", &binary_with_const("and", "i32", "-1", false, ""), true);
    case("%x: tensor<16xui8>", "tensor<16xui8>", &binary_with_const("or", "ui8", "255", true, ""), true);
    // Not an identity: x & 1, x * 2, x + 1.
    case("%x: tensor<16xi32>", "tensor<16xi32>", &binary_with_const("and", "i32", "1", false, ""), false);
    case("%x: tensor<16xi32>", "tensor<16xi32>", &binary_with_const("add", "i32", "1", false, ""), false);
}

#[test]
fn pred_identities() {
    let t = "tensor<16xi1>";
    for (op, c, first) in [
        ("and", "true", false),
        ("and", "false", true),
        ("or", "false", false),
        ("or", "true", true),
        ("xor", "false", false),
        ("add", "false", false),
        ("multiply", "true", true),
    ] {
        case("%x: tensor<16xi1>", t, &binary_with_const(op, "i1", c, first, ""), true);
    }
    let after = case(
        "%x: tensor<16xi1>",
        t,
        "%0 = hlo.and %x, %x : tensor<16xi1>\n%1 = hlo.or %0, %0 : tensor<16xi1>\n%2 = hlo.not %1 : tensor<16xi1>\n%3 = hlo.not %2 : tensor<16xi1>\nreturn %3 : tensor<16xi1>",
        true,
    );
    assert!(after.contains("return %arg0"), "{after}");
    case("%x: tensor<16xi1>", t, "%0 = hlo.xor %x, %x : tensor<16xi1>\nreturn %0 : tensor<16xi1>", true);
}

/// An f32 value that is canonical: the sum of two parameters.
const SUM: &str = "%x = hlo.add %a, %b : tensor<16xf32>";

#[test]
fn float_identities_need_canonical_operands() {
    let t = "tensor<16xf32>";
    let params = "%a: tensor<16xf32>, %b: tensor<16xf32>";
    for (op, c, first) in [
        ("add", "-0.0", false),
        ("add", "-0.0", true),
        ("subtract", "0.0", false),
        ("multiply", "1.0", false),
        ("multiply", "1.0", true),
        ("divide", "1.0", false),
    ] {
        // Canonical operand (an add's result): fires, exactly.
        let after = case(params, t, &binary_with_const(op, "f32", c, first, SUM), true);
        assert!(!after.contains(&format!("hlo.{op} %0, %")) || op == "add", "{after}");
        // A parameter may hold subnormals and signalling NaNs: no change.
        case("%x: tensor<16xf32>", t, &binary_with_const(op, "f32", c, first, ""), false);
    }
    // Never: x + 0.0 (x = -0.0), x - (-0.0), x * 0.
    for (op, c) in [("add", "0.0"), ("subtract", "-0.0"), ("multiply", "0.0")] {
        case(params, t, &binary_with_const(op, "f32", c, false, SUM), false);
    }
    // Other float types.
    for ty in ["f64", "f16", "bf16"] {
        let tt = format!("tensor<16x{ty}>");
        let p = format!("%a: {tt}, %b: {tt}");
        let def = format!("%x = hlo.multiply %a, %b : {tt}");
        case(&p, &tt, &binary_with_const("multiply", ty, "1.0", false, &def), true);
        case(&p, &tt, &binary_with_const("add", ty, "-0.0", true, &def), true);
        case(&format!("%x: {tt}"), &tt, &binary_with_const("multiply", ty, "1.0", false, ""), false);
    }
    // Canonical through movement and from integer converts and iotas.
    case(
        "%a: tensor<4x4xf32>, %b: tensor<4x4xf32>",
        "tensor<16xf32>",
        "%s = hlo.subtract %a, %b : tensor<4x4xf32>\n%x = hlo.reshape %s : (tensor<4x4xf32>) -> tensor<16xf32>\n\
         %c = hlo.constant dense<1.0> : tensor<16xf32>\n%y = hlo.multiply %x, %c : tensor<16xf32>\nreturn %y : tensor<16xf32>",
        true,
    );
    case(
        "%i: tensor<16xi32>",
        "tensor<16xf32>",
        "%x = hlo.convert %i : (tensor<16xi32>) -> tensor<16xf32>\n%c = hlo.constant dense<-0.0> : tensor<16xf32>\n\
         %y = hlo.add %x, %c : tensor<16xf32>\nreturn %y : tensor<16xf32>",
        true,
    );
    case(
        "%i: tensor<16xf32>",
        "tensor<16xf32>",
        "%x = hlo.iota dim = 0 : tensor<16xf32>\n%c = hlo.constant dense<1.0> : tensor<16xf32>\n\
         %y = hlo.divide %x, %c : tensor<16xf32>\n%z = hlo.add %y, %i : tensor<16xf32>\nreturn %z : tensor<16xf32>",
        true,
    );
}

#[test]
fn power_rules() {
    let t = "tensor<16xf32>";
    // pow(x, 0) = 1 for every f32, f16, bf16 x (NaN included).
    for ty in ["f32", "f16", "bf16"] {
        let tt = format!("tensor<16x{ty}>");
        let after = case(&format!("%x: {tt}"), &tt, &binary_with_const("power", ty, "0.0", false, ""), true);
        assert!(!after.contains("hlo.power"), "{after}");
        let after = case(&format!("%x: {tt}"), &tt, &binary_with_const("power", ty, "2.0", false, ""), true);
        assert!(after.contains("hlo.multiply %arg0, %arg0"), "{after}");
    }
    // f64: pow(sNaN, 0) is NaN, pow is not correctly rounded: no change.
    case("%x: tensor<16xf64>", "tensor<16xf64>", &binary_with_const("power", "f64", "0.0", false, ""), false);
    case("%x: tensor<16xf64>", "tensor<16xf64>", &binary_with_const("power", "f64", "2.0", false, ""), false);
    case(
        "%a: tensor<16xf64>, %b: tensor<16xf64>",
        "tensor<16xf64>",
        &binary_with_const("power", "f64", "0.0", false, "%x = hlo.add %a, %b : tensor<16xf64>"),
        true,
    );
    // pow(x, 1) stays for floats (libm returns its own NaN for a NaN x),
    // even for a canonical x; pow(x, 3) and pow(x, -1) stay.
    case(
        "%a: tensor<16xf32>, %b: tensor<16xf32>",
        t,
        &binary_with_const("power", "f32", "1.0", false, "%x = hlo.add %a, %b : tensor<16xf32>"),
        false,
    );
    case("%x: tensor<16xf32>", t, &binary_with_const("power", "f32", "3.0", false, ""), false);
    case("%x: tensor<16xf32>", t, &binary_with_const("power", "f32", "-1.0", false, ""), false);
}

#[test]
fn min_max_rules() {
    for ty in ["f32", "f64", "i32", "ui16"] {
        let tt = format!("tensor<16x{ty}>");
        case(&format!("%x: {tt}"), &tt, &format!("%0 = hlo.maximum %x, %x : {tt}\nreturn %0 : {tt}"), true);
        case(&format!("%x: {tt}"), &tt, &format!("%0 = hlo.minimum %x, %x : {tt}\nreturn %0 : {tt}"), true);
    }
    case("%x: tensor<16xf32>", "tensor<16xf32>", &binary_with_const("maximum", "f32", "0xFF800000", false, ""), true);
    case(
        "%x: tensor<16xf64>",
        "tensor<16xf64>",
        &binary_with_const("minimum", "f64", "0x7FF0000000000000", true, ""),
        true,
    );
    case("%x: tensor<16xi32>", "tensor<16xi32>", &binary_with_const("minimum", "i32", "2147483647", true, ""), true);
    // max(x, -3.0) is not an identity.
    case("%x: tensor<16xf32>", "tensor<16xf32>", &binary_with_const("maximum", "f32", "-3.0", false, ""), false);
    // bf16 max goes through f32, which quiets a signalling NaN: only for
    // canonical operands.
    case(
        "%x: tensor<16xbf16>",
        "tensor<16xbf16>",
        "%0 = hlo.maximum %x, %x : tensor<16xbf16>\nreturn %0 : tensor<16xbf16>",
        false,
    );
    // Absorption.
    for ty in ["f32", "bf16", "i32"] {
        let tt = format!("tensor<16x{ty}>");
        let p = format!("%x: {tt}, %y: {tt}");
        for body in [
            "%m = hlo.maximum %x, %y : T\n%r = hlo.maximum %m, %y : T\nreturn %r : T",
            "%m = hlo.maximum %y, %x : T\n%r = hlo.maximum %m, %y : T\nreturn %r : T",
            "%m = hlo.minimum %x, %y : T\n%r = hlo.minimum %x, %m : T\nreturn %r : T",
            "%m = hlo.minimum %y, %x : T\n%r = hlo.minimum %x, %m : T\nreturn %r : T",
        ] {
            case(&p, &tt, &body.replace('T', &tt), true);
        }
    }
}

#[test]
fn unary_rules() {
    for ty in ["f32", "f16", "bf16", "f64", "i32", "i8"] {
        let tt = format!("tensor<16x{ty}>");
        let after = case(
            &format!("%x: {tt}"),
            &tt,
            &format!("%0 = hlo.negate %x : {tt}\n%1 = hlo.negate %0 : {tt}\nreturn %1 : {tt}"),
            true,
        );
        assert!(after.contains("return %arg0"), "{after}");
        let after = case(
            &format!("%x: {tt}"),
            &tt,
            &format!("%0 = hlo.abs %x : ({tt}) -> {tt}\n%1 = hlo.abs %0 : ({tt}) -> {tt}\nreturn %1 : {tt}"),
            true,
        );
        assert_eq!(after.matches("hlo.abs").count(), 1, "{after}");
    }
    case(
        "%x: tensor<16xi32>",
        "tensor<16xi32>",
        "%0 = hlo.not %x : tensor<16xi32>\n%1 = hlo.not %0 : tensor<16xi32>\nreturn %1 : tensor<16xi32>",
        true,
    );
    // abs of a non-negative integer.
    case("%x: tensor<16xi32>", "tensor<16xi32>", "%i = hlo.iota dim = 0 : tensor<16xi32>\n%0 = hlo.abs %i : (tensor<16xi32>) -> tensor<16xi32>\n%1 = hlo.add %0, %x : tensor<16xi32>\nreturn %1 : tensor<16xi32>", true);
    // A single abs of a parameter stays.
    case(
        "%x: tensor<16xi32>",
        "tensor<16xi32>",
        "%0 = hlo.abs %x : (tensor<16xi32>) -> tensor<16xi32>\nreturn %0 : tensor<16xi32>",
        false,
    );
    // exp(0) = 1; real/imag/complex.
    case("%x: tensor<16xf32>", "tensor<16xf32>", "%c = hlo.constant dense<0.0> : tensor<16xf32>\n%e = hlo.exponential %c : tensor<16xf32>\n%r = hlo.add %e, %x : tensor<16xf32>\nreturn %r : tensor<16xf32>", true);
    let after = case(
        "%a: tensor<16xf32>, %b: tensor<16xf32>",
        "tensor<16xf32>",
        "%c = hlo.complex %a, %b : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xcomplex<f32>>\n\
         %r = hlo.real %c : (tensor<16xcomplex<f32>>) -> tensor<16xf32>\n%i = hlo.imag %c : (tensor<16xcomplex<f32>>) -> tensor<16xf32>\n\
         %c2 = hlo.complex %r, %i : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xcomplex<f32>>\n\
         %r2 = hlo.real %c2 : (tensor<16xcomplex<f32>>) -> tensor<16xf32>\n%x = hlo.imag %a : (tensor<16xf32>) -> tensor<16xf32>\n\
         %s = hlo.subtract %r2, %x : tensor<16xf32>\n%t = hlo.multiply %s, %i : tensor<16xf32>\nreturn %t : tensor<16xf32>",
        true,
    );
    assert!(!after.contains("hlo.complex") && !after.contains("hlo.real"), "{after}");
}

#[test]
fn integer_division_and_remainder() {
    for ty in ["i32", "ui32", "i8", "ui8", "i64"] {
        let tt = format!("tensor<16x{ty}>");
        for (op, c) in [("divide", "4"), ("divide", "64"), ("remainder", "8"), ("remainder", "1"), ("remainder", "2")] {
            let after = case(&format!("%x: {tt}"), &tt, &binary_with_const(op, ty, c, false, ""), true);
            assert!(!after.contains(&format!("hlo.{op}")), "{after}");
        }
        // Not a power of two.
        case(&format!("%x: {tt}"), &tt, &binary_with_const("divide", ty, "6", false, ""), false);
    }
    case(
        "%x: tensor<16xi32>, %y: tensor<16xi32>",
        "tensor<16xi32>",
        "%0 = hlo.remainder %x, %y : tensor<16xi32>\n%1 = hlo.remainder %0, %y : tensor<16xi32>\nreturn %1 : tensor<16xi32>",
        true,
    );
    case(
        "%x: tensor<16xi32>",
        "tensor<16xi32>",
        "%i = hlo.iota dim = 0 : tensor<16xi32>\n%c = hlo.constant dense<16> : tensor<16xi32>\n%r = hlo.remainder %i, %c : tensor<16xi32>\n\
         %s = hlo.add %r, %x : tensor<16xi32>\nreturn %s : tensor<16xi32>",
        true,
    );
    // Float remainder of a remainder stays (fmod of NaNs).
    case(
        "%x: tensor<16xf32>, %y: tensor<16xf32>",
        "tensor<16xf32>",
        "%0 = hlo.remainder %x, %y : tensor<16xf32>\n%1 = hlo.remainder %0, %y : tensor<16xf32>\nreturn %1 : tensor<16xf32>",
        false,
    );
}

#[test]
fn integer_reassociation_free_rules() {
    let t = "tensor<16xi32>";
    let p = "%x: tensor<16xi32>, %y: tensor<16xi32>";
    for body in [
        "%0 = hlo.subtract %x, %x : T\nreturn %0 : T",
        "%0 = hlo.subtract %x, %y : T\n%1 = hlo.subtract %x, %0 : T\nreturn %1 : T",
        "%0 = hlo.add %x, %y : T\n%1 = hlo.subtract %x, %0 : T\nreturn %1 : T",
        "%0 = hlo.add %y, %x : T\n%1 = hlo.subtract %0, %x : T\nreturn %1 : T",
        "%0 = hlo.subtract %y, %x : T\n%1 = hlo.add %x, %0 : T\nreturn %1 : T",
        "%0 = hlo.negate %x : T\n%1 = hlo.negate %y : T\n%2 = hlo.multiply %0, %1 : T\nreturn %2 : T",
        "%0 = hlo.abs %x : (T) -> T\n%1 = hlo.multiply %0, %0 : T\nreturn %1 : T",
    ] {
        case(p, t, &body.replace('T', t), true);
    }
    case(
        "%x: tensor<16xi32>, %p: tensor<16xi1>",
        t,
        "%c = hlo.convert %p : (tensor<16xi1>) -> tensor<16xi32>\n%0 = hlo.multiply %x, %c : tensor<16xi32>\nreturn %0 : tensor<16xi32>",
        true,
    );
    // The float versions stay (rounding, NaN signs).
    let ft = "tensor<16xf32>";
    for body in [
        "%0 = hlo.subtract %x, %x : T\nreturn %0 : T",
        "%0 = hlo.add %y, %x : T\n%1 = hlo.subtract %0, %x : T\nreturn %1 : T",
        "%0 = hlo.negate %x : T\n%1 = hlo.negate %y : T\n%2 = hlo.multiply %0, %1 : T\nreturn %2 : T",
    ] {
        case("%x: tensor<16xf32>, %y: tensor<16xf32>", ft, &body.replace('T', ft), false);
    }
}

#[test]
fn compare_rules() {
    for dir in ["EQ", "NE", "LT", "LE", "GT", "GE"] {
        for ty in ["i32", "ui8", "i1"] {
            let tt = format!("tensor<16x{ty}>");
            case(
                &format!("%x: {tt}"),
                "tensor<16xi1>",
                &format!("%0 = hlo.compare {dir}, %x, %x : ({tt}, {tt}) -> tensor<16xi1>\nreturn %0 : tensor<16xi1>"),
                true,
            );
        }
        // Floats: only in total order.
        let ft = "tensor<16xf32>";
        case(
            "%x: tensor<16xf32>",
            "tensor<16xi1>",
            &format!("%0 = hlo.compare {dir}, %x, %x : ({ft}, {ft}) -> tensor<16xi1>\nreturn %0 : tensor<16xi1>"),
            false,
        );
        case(
            "%x: tensor<16xf32>",
            "tensor<16xi1>",
            &format!(
                "%0 = hlo.compare {dir}, %x, %x, FLOAT : ({ft}, {ft}) -> tensor<16xi1>\nreturn %0 : tensor<16xi1>"
            ),
            false,
        );
        case(
            "%x: tensor<16xf32>",
            "tensor<16xi1>",
            &format!(
                "%0 = hlo.compare {dir}, %x, %x, TOTALORDER : ({ft}, {ft}) -> tensor<16xi1>\nreturn %0 : tensor<16xi1>"
            ),
            true,
        );
    }
    // Every unsigned value is non-negative.
    case(
        "%x: tensor<16xui32>",
        "tensor<16xi1>",
        "%c = hlo.constant dense<0> : tensor<16xui32>\n%0 = hlo.compare LT, %x, %c : (tensor<16xui32>, tensor<16xui32>) -> tensor<16xi1>\nreturn %0 : tensor<16xi1>",
        true,
    );
    case(
        "%x: tensor<16xi32>",
        "tensor<16xi1>",
        "%i = hlo.iota dim = 0 : tensor<16xi32>\n%c = hlo.constant dense<0> : tensor<16xi32>\n%0 = hlo.compare GE, %i, %c : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>\n\
         %1 = hlo.compare LE, %c, %x : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>\n%2 = hlo.and %0, %1 : tensor<16xi1>\nreturn %2 : tensor<16xi1>",
        true,
    );
    // x >= 0 for a signed parameter stays.
    case(
        "%x: tensor<16xi32>",
        "tensor<16xi1>",
        "%c = hlo.constant dense<0> : tensor<16xi32>\n%0 = hlo.compare GE, %x, %c : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>\nreturn %0 : tensor<16xi1>",
        false,
    );
    // pred == true, pred != false.
    for (dir, c) in [("EQ", "true"), ("NE", "false")] {
        let after = case(
            "%x: tensor<16xi1>",
            "tensor<16xi1>",
            &format!("%c = hlo.constant dense<{c}> : tensor<16xi1>\n%0 = hlo.compare {dir}, %c, %x : (tensor<16xi1>, tensor<16xi1>) -> tensor<16xi1>\nreturn %0 : tensor<16xi1>"),
            true,
        );
        assert!(after.contains("return %arg0"), "{after}");
    }
    // select(p, 1.0, 0.0) != 0.0 -> p.
    let after = case(
        "%a: tensor<16xf32>, %b: tensor<16xf32>",
        "tensor<16xi1>",
        "%p = hlo.compare GE, %a, %b : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>\n%one = hlo.constant dense<1.0> : tensor<16xf32>\n\
         %zero = hlo.constant dense<0.0> : tensor<16xf32>\n%s = hlo.select %p, %one, %zero : (tensor<16xi1>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>\n\
         %r = hlo.compare NE, %s, %zero : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>\nreturn %r : tensor<16xi1>",
        true,
    );
    assert!(!after.contains("hlo.select"), "{after}");
    // gt(max(a, b), a) -> gt(b, a), also with NaNs; not in total order.
    for ty in ["f32", "i32", "bf16"] {
        let tt = format!("tensor<16x{ty}>");
        for body in [
            "%m = hlo.maximum %a, %b : TY\n%r = hlo.compare GT, %m, %a : (TY, TY) -> tensor<16xi1>\nreturn %r : tensor<16xi1>",
            "%m = hlo.maximum %a, %b : TY\n%r = hlo.compare GT, %m, %b : (TY, TY) -> tensor<16xi1>\nreturn %r : tensor<16xi1>",
            "%m = hlo.minimum %a, %b : TY\n%r = hlo.compare GT, %a, %m : (TY, TY) -> tensor<16xi1>\nreturn %r : tensor<16xi1>",
            "%m = hlo.minimum %a, %b : TY\n%r = hlo.compare GT, %b, %m : (TY, TY) -> tensor<16xi1>\nreturn %r : tensor<16xi1>",
        ] {
            let after = case(&format!("%a: {tt}, %b: {tt}"), "tensor<16xi1>", &body.replace("TY", &tt), true);
            assert!(!after.contains("hlo.maximum") && !after.contains("hlo.minimum"), "{after}");
        }
    }
    case(
        "%a: tensor<16xf32>, %b: tensor<16xf32>",
        "tensor<16xi1>",
        "%m = hlo.maximum %a, %b : tensor<16xf32>\n%r = hlo.compare GT, %m, %a, TOTALORDER : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>\nreturn %r : tensor<16xi1>",
        false,
    );
}

#[test]
fn select_rules() {
    let t = "tensor<16xf32>";
    let p = "%p: tensor<16xi1>, %x: tensor<16xf32>, %y: tensor<16xf32>";
    let sel = |pred: &str, a: &str, b: &str| {
        format!("%s = hlo.select {pred}, {a}, {b} : (tensor<16xi1>, {t}, {t}) -> {t}\nreturn %s : {t}")
    };
    case(p, t, &sel("%p", "%x", "%x"), true);
    case(p, t, &format!("%c = hlo.constant dense<true> : tensor<16xi1>\n{}", sel("%c", "%x", "%y")), true);
    case(p, t, &format!("%c = hlo.constant dense<false> : tensor<16xi1>\n{}", sel("%c", "%x", "%y")), true);
    let after = case(p, t, &format!("%n = hlo.not %p : tensor<16xi1>\n{}", sel("%n", "%x", "%y")), true);
    assert!(after.contains("hlo.select %arg0, %arg2, %arg1"), "{after}");
    case(p, t, &sel("%p", "%x", "%y"), false);
    // Scalar predicate.
    case(
        "%p: tensor<i1>, %x: tensor<16xf32>",
        t,
        "%c = hlo.constant dense<true> : tensor<i1>\n%s = hlo.select %c, %x, %x : (tensor<i1>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>\nreturn %s : tensor<16xf32>",
        true,
    );
    // pred selects.
    let pt = "tensor<16xi1>";
    let pp = "%p: tensor<16xi1>, %a: tensor<16xi1>, %b: tensor<16xi1>";
    let psel = |pred: &str, a: &str, b: &str| {
        format!("%s = hlo.select {pred}, {a}, {b} : ({pt}, {pt}, {pt}) -> {pt}\nreturn %s : {pt}")
    };
    let consts = "%t = hlo.constant dense<true> : tensor<16xi1>\n%f = hlo.constant dense<false> : tensor<16xi1>\n";
    let after = case(pp, pt, &format!("{consts}{}", psel("%p", "%t", "%f")), true);
    assert!(after.contains("return %arg0"), "{after}");
    let after = case(pp, pt, &format!("{consts}{}", psel("%p", "%f", "%t")), true);
    assert!(after.contains("hlo.not %arg0"), "{after}");
    for dir in ["GT", "GE", "LT", "LE", "EQ", "NE"] {
        let after = case(
            pp,
            pt,
            &format!("%c = hlo.compare {dir}, %a, %b : ({pt}, {pt}) -> {pt}\n{}", psel("%c", "%a", "%b")),
            true,
        );
        assert!(!after.contains("hlo.select"), "{after}");
    }
}

#[test]
fn convert_rules() {
    let conv = |from: &str, mid: &str, to: &str| {
        format!(
            "%0 = hlo.convert %x : (tensor<16x{from}>) -> tensor<16x{mid}>\n%1 = hlo.convert %0 : (tensor<16x{mid}>) -> tensor<16x{to}>\nreturn %1 : tensor<16x{to}>"
        )
    };
    // Round trips through a type that holds every value.
    for (from, mid) in [
        ("i8", "i32"),
        ("ui8", "i16"),
        ("ui8", "ui32"),
        ("i16", "f32"),
        ("ui8", "bf16"),
        ("i8", "f16"),
        ("i1", "f32"),
        ("i1", "i32"),
        ("i32", "f64"),
    ] {
        let after =
            case(&format!("%x: tensor<16x{from}>"), &format!("tensor<16x{from}>"), &conv(from, mid, from), true);
        assert!(after.contains("return %arg0"), "{after}");
    }
    // Not value-preserving, or float round trips: stay.
    for (from, mid) in
        [("i32", "i8"), ("i32", "f32"), ("i8", "ui32"), ("f32", "f64"), ("f16", "f32"), ("bf16", "f32"), ("ui8", "i8")]
    {
        case(&format!("%x: tensor<16x{from}>"), &format!("tensor<16x{from}>"), &conv(from, mid, from), false);
    }
    // Widening chains collapse to one convert.
    for (from, mid, to) in [
        ("i8", "i16", "i32"),
        ("ui8", "i32", "i64"),
        ("i8", "i32", "ui16"),
        ("i16", "i64", "f32"),
        ("i8", "i64", "i1"),
        ("i32", "i64", "i8"),
    ] {
        let after = case(&format!("%x: tensor<16x{from}>"), &format!("tensor<16x{to}>"), &conv(from, mid, to), true);
        assert_eq!(after.matches("hlo.convert").count(), 1, "{after}");
    }
    // Chains through a float (float -> int saturates, int -> int wraps),
    // or into a float that rounds: stay.
    for (from, mid, to) in [("i32", "f64", "i8"), ("i32", "i64", "f32"), ("i16", "i32", "i8")] {
        if to == "i8" && mid == "i32" {
            continue;
        }
        case(&format!("%x: tensor<16x{from}>"), &format!("tensor<16x{to}>"), &conv(from, mid, to), false);
    }
    // Same type.
    case(
        "%x: tensor<16xf32>",
        "tensor<16xf32>",
        "%0 = hlo.convert %x : (tensor<16xf32>) -> tensor<16xf32>\nreturn %0 : tensor<16xf32>",
        true,
    );
}

#[test]
fn reshape_broadcast_transpose_rules() {
    // reshape to the same shape, reshape of reshape.
    let after = case(
        "%x: tensor<4x4xf32>",
        "tensor<2x8xf32>",
        "%0 = hlo.reshape %x : (tensor<4x4xf32>) -> tensor<16xf32>\n%1 = hlo.reshape %0 : (tensor<16xf32>) -> tensor<2x8xf32>\n\
         %2 = hlo.reshape %1 : (tensor<2x8xf32>) -> tensor<2x8xf32>\nreturn %2 : tensor<2x8xf32>",
        true,
    );
    assert_eq!(after.matches("hlo.reshape").count(), 1, "{after}");
    // reshape(broadcast(x)) keeping x's dims: a broadcast.
    let after = case(
        "%x: tensor<4xf32>",
        "tensor<3x2x4xf32>",
        "%0 = hlo.broadcast %x, dims = [1] : (tensor<4xf32>) -> tensor<6x4xf32>\n%1 = hlo.reshape %0 : (tensor<6x4xf32>) -> tensor<3x2x4xf32>\nreturn %1 : tensor<3x2x4xf32>",
        true,
    );
    assert!(after.contains("dims = [2]") && !after.contains("hlo.reshape"), "{after}");
    // ... not when the reshape splits x's dim.
    case(
        "%x: tensor<4xf32>",
        "tensor<3x2x2xf32>",
        "%0 = hlo.broadcast %x, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>\n%1 = hlo.reshape %0 : (tensor<3x4xf32>) -> tensor<3x2x2xf32>\nreturn %1 : tensor<3x2x2xf32>",
        false,
    );
    // reshape(iota) keeping the iota dim.
    case(
        "%x: tensor<2x3x4xi32>",
        "tensor<2x3x4xi32>",
        "%0 = hlo.iota dim = 1 : tensor<6x4xi32>\n%1 = hlo.reshape %0 : (tensor<6x4xi32>) -> tensor<2x3x4xi32>\n%2 = hlo.add %1, %x : tensor<2x3x4xi32>\nreturn %2 : tensor<2x3x4xi32>",
        true,
    );
    // broadcast: identity, as reshape, as transpose, of broadcast, of degenerate reshape, of iota.
    case(
        "%x: tensor<4x4xf32>",
        "tensor<4x4xf32>",
        "%0 = hlo.broadcast %x, dims = [0, 1] : (tensor<4x4xf32>) -> tensor<4x4xf32>\nreturn %0 : tensor<4x4xf32>",
        true,
    );
    let after = case(
        "%x: tensor<16xf32>",
        "tensor<1x16x1xf32>",
        "%0 = hlo.broadcast %x, dims = [1] : (tensor<16xf32>) -> tensor<1x16x1xf32>\nreturn %0 : tensor<1x16x1xf32>",
        true,
    );
    assert!(after.contains("hlo.reshape") && !after.contains("hlo.broadcast"), "{after}");
    let after = case(
        "%x: tensor<4x3xf32>",
        "tensor<3x4xf32>",
        "%0 = hlo.broadcast %x, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>\nreturn %0 : tensor<3x4xf32>",
        true,
    );
    assert!(after.contains("hlo.transpose"), "{after}");
    let after = case(
        "%x: tensor<4xf32>",
        "tensor<2x3x4xf32>",
        "%0 = hlo.broadcast %x, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>\n%1 = hlo.broadcast %0, dims = [1, 2] : (tensor<3x4xf32>) -> tensor<2x3x4xf32>\nreturn %1 : tensor<2x3x4xf32>",
        true,
    );
    assert_eq!(after.matches("hlo.broadcast").count(), 1, "{after}");
    let after = case(
        "%x: tensor<4xf32>",
        "tensor<4x3x1xf32>",
        "%0 = hlo.reshape %x : (tensor<4xf32>) -> tensor<4x1xf32>\n%1 = hlo.broadcast %0, dims = [0, 2] : (tensor<4x1xf32>) -> tensor<4x3x1xf32>\nreturn %1 : tensor<4x3x1xf32>",
        true,
    );
    assert!(!after.contains("hlo.reshape"), "{after}");
    case(
        "%x: tensor<3x4xi32>",
        "tensor<3x4xi32>",
        "%0 = hlo.iota dim = 0 : tensor<4xi32>\n%1 = hlo.broadcast %0, dims = [1] : (tensor<4xi32>) -> tensor<3x4xi32>\n%2 = hlo.add %1, %x : tensor<3x4xi32>\nreturn %2 : tensor<3x4xi32>",
        true,
    );
    // A plain broadcast stays.
    case(
        "%x: tensor<4xf32>",
        "tensor<3x4xf32>",
        "%0 = hlo.broadcast %x, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>\nreturn %0 : tensor<3x4xf32>",
        false,
    );
    // transpose: identity, composition, only size-1 dims moved, chains.
    case(
        "%x: tensor<4x4xf32>",
        "tensor<4x4xf32>",
        "%0 = hlo.transpose %x, dims = [0, 1] : (tensor<4x4xf32>) -> tensor<4x4xf32>\nreturn %0 : tensor<4x4xf32>",
        true,
    );
    let after = case(
        "%x: tensor<2x3x4xf32>",
        "tensor<2x3x4xf32>",
        "%0 = hlo.transpose %x, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>\n%1 = hlo.transpose %0, dims = [1, 2, 0] : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>\nreturn %1 : tensor<2x3x4xf32>",
        true,
    );
    assert!(after.contains("return %arg0"), "{after}");
    let after = case(
        "%x: tensor<2x3x4xf32>",
        "tensor<3x2x4xf32>",
        "%0 = hlo.transpose %x, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>\n%1 = hlo.transpose %0, dims = [2, 1, 0] : (tensor<4x2x3xf32>) -> tensor<3x2x4xf32>\nreturn %1 : tensor<3x2x4xf32>",
        true,
    );
    assert!(after.contains("dims = [1, 0, 2]"), "{after}");
    let after = case("%x: tensor<1x4x1x3xf32>", "tensor<4x1x3x1xf32>", "%0 = hlo.transpose %x, dims = [1, 0, 3, 2] : (tensor<1x4x1x3xf32>) -> tensor<4x1x3x1xf32>\nreturn %0 : tensor<4x1x3x1xf32>", true);
    assert!(after.contains("hlo.reshape") && !after.contains("hlo.transpose"), "{after}");
    let after = case(
        "%x: tensor<3x4xf32>",
        "tensor<3x4xf32>",
        "%0 = hlo.transpose %x, dims = [1, 0] : (tensor<3x4xf32>) -> tensor<4x3xf32>\n%1 = hlo.reshape %0 : (tensor<4x3xf32>) -> tensor<4x1x3xf32>\n\
         %2 = hlo.transpose %1, dims = [2, 1, 0] : (tensor<4x1x3xf32>) -> tensor<3x1x4xf32>\n%3 = hlo.reshape %2 : (tensor<3x1x4xf32>) -> tensor<3x4xf32>\nreturn %3 : tensor<3x4xf32>",
        true,
    );
    assert!(after.contains("return %arg0"), "{after}");
    let after = case(
        "%x: tensor<4xf32>",
        "tensor<4x3xf32>",
        "%0 = hlo.broadcast %x, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>\n%1 = hlo.transpose %0, dims = [1, 0] : (tensor<3x4xf32>) -> tensor<4x3xf32>\nreturn %1 : tensor<4x3xf32>",
        true,
    );
    assert!(!after.contains("hlo.transpose"), "{after}");
    // ... unless it would reorder x's dims.
    case(
        "%x: tensor<3x4xf32>",
        "tensor<2x4x3xf32>",
        "%0 = hlo.broadcast %x, dims = [1, 2] : (tensor<3x4xf32>) -> tensor<2x3x4xf32>\n%1 = hlo.transpose %0, dims = [0, 2, 1] : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>\nreturn %1 : tensor<2x4x3xf32>",
        false,
    );
    // A real transpose stays.
    case(
        "%x: tensor<3x4xf32>",
        "tensor<4x3xf32>",
        "%0 = hlo.transpose %x, dims = [1, 0] : (tensor<3x4xf32>) -> tensor<4x3xf32>\nreturn %0 : tensor<4x3xf32>",
        false,
    );
}

#[test]
fn slice_rules() {
    let t = "tensor<16xf32>";
    case("%x: tensor<16xf32>", t, "%0 = hlo.slice %x, start = [0], limit = [16], strides = [1] : (tensor<16xf32>) -> tensor<16xf32>\nreturn %0 : tensor<16xf32>", true);
    // slice of slice, strided.
    let after = case(
        "%x: tensor<32xf32>",
        "tensor<4xf32>",
        "%0 = hlo.slice %x, start = [3], limit = [30], strides = [2] : (tensor<32xf32>) -> tensor<14xf32>\n%1 = hlo.slice %0, start = [1], limit = [13], strides = [3] : (tensor<14xf32>) -> tensor<4xf32>\nreturn %1 : tensor<4xf32>",
        true,
    );
    assert_eq!(after.matches("hlo.slice").count(), 1, "{after}");
    // slice of broadcast.
    case(
        "%x: tensor<16xf32>",
        "tensor<2x8xf32>",
        "%0 = hlo.broadcast %x, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>\n%1 = hlo.slice %0, start = [1, 3], limit = [3, 11], strides = [1, 1] : (tensor<4x16xf32>) -> tensor<2x8xf32>\nreturn %1 : tensor<2x8xf32>",
        true,
    );
    let after = case(
        "%x: tensor<16xf32>",
        "tensor<2x16xf32>",
        "%0 = hlo.broadcast %x, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>\n%1 = hlo.slice %0, start = [1, 0], limit = [3, 16], strides = [1, 1] : (tensor<4x16xf32>) -> tensor<2x16xf32>\nreturn %1 : tensor<2x16xf32>",
        true,
    );
    assert!(!after.contains("hlo.slice"), "{after}");
    // slice of pad: in the padding, undoing it, inside the operand.
    let pad = "%v = hlo.constant dense<7.0> : tensor<f32>\n%p = hlo.pad %x, %v, low = [2], high = [3], interior = [1] : (tensor<16xf32>, tensor<f32>) -> tensor<36xf32>\n";
    let after = case("%x: tensor<16xf32>", "tensor<2xf32>", &format!("{pad}%s = hlo.slice %p, start = [0], limit = [2], strides = [1] : (tensor<36xf32>) -> tensor<2xf32>\nreturn %s : tensor<2xf32>"), true);
    assert!(!after.contains("hlo.pad"), "{after}");
    let after = case("%x: tensor<16xf32>", t, &format!("{pad}%s = hlo.slice %p, start = [2], limit = [33], strides = [2] : (tensor<36xf32>) -> tensor<16xf32>\nreturn %s : tensor<16xf32>"), true);
    assert!(after.contains("return %arg0"), "{after}");
    let pad0 = "%v = hlo.constant dense<7.0> : tensor<f32>\n%p = hlo.pad %x, %v, low = [2], high = [3], interior = [0] : (tensor<16xf32>, tensor<f32>) -> tensor<21xf32>\n";
    let after = case("%x: tensor<16xf32>", "tensor<5xf32>", &format!("{pad0}%s = hlo.slice %p, start = [4], limit = [9], strides = [1] : (tensor<21xf32>) -> tensor<5xf32>\nreturn %s : tensor<5xf32>"), true);
    assert!(!after.contains("hlo.pad"), "{after}");
    // A slice across the padding edge stays.
    case("%x: tensor<16xf32>", "tensor<5xf32>", &format!("{pad0}%s = hlo.slice %p, start = [0], limit = [5], strides = [1] : (tensor<21xf32>) -> tensor<5xf32>\nreturn %s : tensor<5xf32>"), false);
    // slice of concatenate.
    let cat = "%c = hlo.concatenate(%x, %y, %x), dim = 0 : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<48xf32>\n";
    let p2 = "%x: tensor<16xf32>, %y: tensor<16xf32>";
    let after = case(p2, t, &format!("{cat}%s = hlo.slice %c, start = [16], limit = [32], strides = [1] : (tensor<48xf32>) -> tensor<16xf32>\nreturn %s : tensor<16xf32>"), true);
    assert!(after.contains("return %arg1"), "{after}");
    case(p2, "tensor<4xf32>", &format!("{cat}%s = hlo.slice %c, start = [18], limit = [22], strides = [1] : (tensor<48xf32>) -> tensor<4xf32>\nreturn %s : tensor<4xf32>"), true);
    let after = case(p2, "tensor<20xf32>", &format!("{cat}%s = hlo.slice %c, start = [10], limit = [30], strides = [1] : (tensor<48xf32>) -> tensor<20xf32>\nreturn %s : tensor<20xf32>"), true);
    assert!(after.contains("hlo.concatenate(%arg0, %arg1)"), "{after}");
    // slice of reverse.
    let after = case(
        "%x: tensor<16xf32>",
        "tensor<5xf32>",
        "%r = hlo.reverse %x, dims = [0] : tensor<16xf32>\n%s = hlo.slice %r, start = [1], limit = [14], strides = [3] : (tensor<16xf32>) -> tensor<5xf32>\nreturn %s : tensor<5xf32>",
        true,
    );
    assert!(after.contains("hlo.slice %arg0"), "{after}");
    // Redundant stride.
    let after = case("%x: tensor<16xf32>", "tensor<1xf32>", "%s = hlo.slice %x, start = [5], limit = [9], strides = [7] : (tensor<16xf32>) -> tensor<1xf32>\nreturn %s : tensor<1xf32>", true);
    assert!(after.contains("strides = [1]"), "{after}");
    case("%x: tensor<16xf32>", "tensor<2xf32>", "%s = hlo.slice %x, start = [5], limit = [9], strides = [3] : (tensor<16xf32>) -> tensor<2xf32>\nreturn %s : tensor<2xf32>", false);
}

#[test]
fn concatenate_pad_reverse_copy_rules() {
    let t = "tensor<16xf32>";
    case(
        "%x: tensor<16xf32>",
        t,
        "%0 = hlo.concatenate(%x), dim = 0 : (tensor<16xf32>) -> tensor<16xf32>\nreturn %0 : tensor<16xf32>",
        true,
    );
    case(
        "%x: tensor<16xf32>, %e: tensor<0xf32>",
        t,
        "%0 = hlo.concatenate(%e, %x, %e), dim = 0 : (tensor<0xf32>, tensor<16xf32>, tensor<0xf32>) -> tensor<16xf32>\nreturn %0 : tensor<16xf32>",
        true,
    );
    let after = case(
        "%x: tensor<4xf32>, %y: tensor<4xf32>",
        "tensor<16xf32>",
        "%0 = hlo.concatenate(%x, %y), dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>\n%1 = hlo.concatenate(%0, %y, %x), dim = 0 : (tensor<8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<16xf32>\nreturn %1 : tensor<16xf32>",
        true,
    );
    assert_eq!(after.matches("hlo.concatenate").count(), 1, "{after}");
    let after = case(
        "%x: tensor<4x16xf32>",
        "tensor<4x10xf32>",
        "%a = hlo.slice %x, start = [0, 2], limit = [4, 5], strides = [1, 1] : (tensor<4x16xf32>) -> tensor<4x3xf32>\n\
         %b = hlo.slice %x, start = [0, 5], limit = [4, 12], strides = [1, 1] : (tensor<4x16xf32>) -> tensor<4x7xf32>\n\
         %0 = hlo.concatenate(%a, %b), dim = 1 : (tensor<4x3xf32>, tensor<4x7xf32>) -> tensor<4x10xf32>\nreturn %0 : tensor<4x10xf32>",
        true,
    );
    assert!(!after.contains("hlo.concatenate"), "{after}");
    // Non-adjacent slices stay.
    case(
        "%x: tensor<4x16xf32>",
        "tensor<4x10xf32>",
        "%a = hlo.slice %x, start = [0, 2], limit = [4, 5], strides = [1, 1] : (tensor<4x16xf32>) -> tensor<4x3xf32>\n\
         %b = hlo.slice %x, start = [0, 6], limit = [4, 13], strides = [1, 1] : (tensor<4x16xf32>) -> tensor<4x7xf32>\n\
         %0 = hlo.concatenate(%a, %b), dim = 1 : (tensor<4x3xf32>, tensor<4x7xf32>) -> tensor<4x10xf32>\nreturn %0 : tensor<4x10xf32>",
        false,
    );
    let after = case(
        "%x: tensor<12xf32>, %s: tensor<f32>",
        t,
        "%b = hlo.broadcast %s, dims = [] : (tensor<f32>) -> tensor<4xf32>\n%0 = hlo.concatenate(%x, %b), dim = 0 : (tensor<12xf32>, tensor<4xf32>) -> tensor<16xf32>\nreturn %0 : tensor<16xf32>",
        true,
    );
    assert!(after.contains("hlo.pad"), "{after}");
    let after = case(
        "%x: tensor<4x1xf32>",
        "tensor<4x3xf32>",
        "%0 = hlo.concatenate(%x, %x, %x), dim = 1 : (tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>\nreturn %0 : tensor<4x3xf32>",
        true,
    );
    assert!(after.contains("hlo.broadcast"), "{after}");
    // pad: empty operand, interior padding of size-1 dims, no-op, negative.
    case(
        "%x: tensor<0xf32>, %v: tensor<f32>",
        "tensor<3xf32>",
        "%0 = hlo.pad %x, %v, low = [1], high = [2], interior = [0] : (tensor<0xf32>, tensor<f32>) -> tensor<3xf32>\nreturn %0 : tensor<3xf32>",
        true,
    );
    case(
        "%x: tensor<4x1xf32>, %v: tensor<f32>",
        "tensor<7x2xf32>",
        "%0 = hlo.pad %x, %v, low = [0, 1], high = [0, 0], interior = [1, 3] : (tensor<4x1xf32>, tensor<f32>) -> tensor<7x2xf32>\nreturn %0 : tensor<7x2xf32>",
        true,
    );
    case("%x: tensor<16xf32>, %v: tensor<f32>", t, "%0 = hlo.pad %x, %v, low = [0], high = [0], interior = [0] : (tensor<16xf32>, tensor<f32>) -> tensor<16xf32>\nreturn %0 : tensor<16xf32>", true);
    let after = case(
        "%x: tensor<16xf32>, %v: tensor<f32>",
        "tensor<20xf32>",
        "%0 = hlo.pad %x, %v, low = [-2], high = [3], interior = [1] : (tensor<16xf32>, tensor<f32>) -> tensor<32xf32>\n\
         %1 = hlo.slice %0, start = [0], limit = [20], strides = [1] : (tensor<32xf32>) -> tensor<20xf32>\nreturn %1 : tensor<20xf32>",
        true,
    );
    assert!(after.contains("low = [0]"), "{after}");
    case("%x: tensor<16xf32>, %v: tensor<f32>", "tensor<20xf32>", "%0 = hlo.pad %x, %v, low = [1], high = [3], interior = [0] : (tensor<16xf32>, tensor<f32>) -> tensor<20xf32>\nreturn %0 : tensor<20xf32>", false);
    // reverse: size-1 dims, reverse of reverse, through elementwise ops with
    // a scalar and degenerate reshapes.
    case(
        "%x: tensor<1x16xf32>",
        "tensor<1x16xf32>",
        "%0 = hlo.reverse %x, dims = [0] : tensor<1x16xf32>\nreturn %0 : tensor<1x16xf32>",
        true,
    );
    let after = case(
        "%x: tensor<4x4xf32>",
        "tensor<4x4xf32>",
        "%0 = hlo.reverse %x, dims = [0, 1] : tensor<4x4xf32>\n%1 = hlo.reverse %0, dims = [1] : tensor<4x4xf32>\nreturn %1 : tensor<4x4xf32>",
        true,
    );
    assert!(after.contains("dims = [0]"), "{after}");
    case(
        "%x: tensor<16xf32>, %s: tensor<f32>",
        t,
        "%b = hlo.broadcast %s, dims = [] : (tensor<f32>) -> tensor<16xf32>\n%0 = hlo.subtract %b, %x : tensor<16xf32>\n%1 = hlo.reverse %0, dims = [0] : tensor<16xf32>\nreturn %1 : tensor<16xf32>",
        true,
    );
    let after = case(
        "%x: tensor<16xf32>",
        "tensor<16x1xf32>",
        "%0 = hlo.reshape %x : (tensor<16xf32>) -> tensor<16x1xf32>\n%1 = hlo.reverse %0, dims = [0, 1] : tensor<16x1xf32>\nreturn %1 : tensor<16x1xf32>",
        true,
    );
    assert!(after.contains("hlo.reverse %arg0, dims = [0]"), "{after}");
    case(
        "%x: tensor<16xf32>",
        t,
        "%0 = hlo.reverse %x, dims = [0] : tensor<16xf32>\nreturn %0 : tensor<16xf32>",
        false,
    );
    // copy.
    case(
        "%x: tensor<16xf32>",
        t,
        "%0 = hlo.copy %x : tensor<16xf32>\n%1 = hlo.copy %0 : tensor<16xf32>\nreturn %1 : tensor<16xf32>",
        true,
    );
}

#[test]
fn dynamic_slice_iota_sort_rules() {
    let p = "%x: tensor<8x6xf32>, %i: tensor<i32>, %j: tensor<i32>";
    case(p, "tensor<8x6xf32>", "%0 = hlo.dynamic_slice %x[%i, %j], sizes = [8, 6] : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>\nreturn %0 : tensor<8x6xf32>", true);
    let after = case(p, "tensor<3x6xf32>", "%0 = hlo.dynamic_slice %x[%i, %j], sizes = [3, 6] : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<3x6xf32>\nreturn %0 : tensor<3x6xf32>", true);
    assert!(after.contains("dense<0>"), "{after}");
    case(p, "tensor<3x2xf32>", "%0 = hlo.dynamic_slice %x[%i, %j], sizes = [3, 2] : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<3x2xf32>\nreturn %0 : tensor<3x2xf32>", false);
    // Constant indices (clamped) make a static slice.
    let after = case(
        "%x: tensor<8x6xf32>",
        "tensor<3x2xf32>",
        "%i = hlo.constant dense<7> : tensor<i32>\n%j = hlo.constant dense<-4> : tensor<i32>\n\
         %0 = hlo.dynamic_slice %x[%i, %j], sizes = [3, 2] : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<3x2xf32>\nreturn %0 : tensor<3x2xf32>",
        true,
    );
    assert!(after.contains("start = [5, 0]"), "{after}");
    // Through broadcast, transpose and degenerate reshape.
    let after = case(
        "%x: tensor<6xf32>, %i: tensor<i32>, %j: tensor<i32>",
        "tensor<3x2xf32>",
        "%b = hlo.broadcast %x, dims = [1] : (tensor<6xf32>) -> tensor<8x6xf32>\n\
         %0 = hlo.dynamic_slice %b[%i, %j], sizes = [3, 2] : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<3x2xf32>\nreturn %0 : tensor<3x2xf32>",
        true,
    );
    assert!(after.contains("hlo.dynamic_slice %arg0[%arg2]"), "{after}");
    let after = case(
        "%x: tensor<6x8xf32>, %i: tensor<i32>, %j: tensor<i32>",
        "tensor<3x2xf32>",
        "%t = hlo.transpose %x, dims = [1, 0] : (tensor<6x8xf32>) -> tensor<8x6xf32>\n\
         %0 = hlo.dynamic_slice %t[%i, %j], sizes = [3, 2] : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<3x2xf32>\nreturn %0 : tensor<3x2xf32>",
        true,
    );
    assert!(after.contains("hlo.dynamic_slice %arg0[%arg2, %arg1]"), "{after}");
    case(
        "%x: tensor<8x1x6xf32>, %i: tensor<i32>, %j: tensor<i32>",
        "tensor<3x2xf32>",
        "%r = hlo.reshape %x : (tensor<8x1x6xf32>) -> tensor<8x6xf32>\n\
         %0 = hlo.dynamic_slice %r[%i, %j], sizes = [3, 2] : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<3x2xf32>\nreturn %0 : tensor<3x2xf32>",
        true,
    );
    // dynamic-update-slice: whole update, whole dims, empty update.
    let p = "%x: tensor<8x6xf32>, %u: tensor<8x6xf32>, %w: tensor<2x6xf32>, %e: tensor<0x6xf32>, %i: tensor<i32>, %j: tensor<i32>";
    case(p, "tensor<8x6xf32>", "%0 = hlo.dynamic_update_slice %x, %u[%i, %j] : (tensor<8x6xf32>, tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>\nreturn %0 : tensor<8x6xf32>", true);
    case(p, "tensor<8x6xf32>", "%0 = hlo.dynamic_update_slice %x, %w[%i, %j] : (tensor<8x6xf32>, tensor<2x6xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>\nreturn %0 : tensor<8x6xf32>", true);
    case(p, "tensor<8x6xf32>", "%0 = hlo.dynamic_update_slice %x, %e[%i, %j] : (tensor<8x6xf32>, tensor<0x6xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>\nreturn %0 : tensor<8x6xf32>", true);
    // iota along a size-1 dim; sort along a size-1 dim.
    case(
        "%x: tensor<1x4xi32>",
        "tensor<1x4xi32>",
        "%0 = hlo.iota dim = 0 : tensor<1x4xi32>\n%1 = hlo.add %0, %x : tensor<1x4xi32>\nreturn %1 : tensor<1x4xi32>",
        true,
    );
    case_with(
        "%x: tensor<4x1xf32>, %y: tensor<4x1xi32>",
        "(tensor<4x1xf32>, tensor<4x1xi32>)",
        "%0:2 = hlo.sort %x, %y {dimension = 1 : i64, to_apply = @lt} : (tensor<4x1xf32>, tensor<4x1xi32>) -> (tensor<4x1xf32>, tensor<4x1xi32>)\nreturn %0#0, %0#1 : tensor<4x1xf32>, tensor<4x1xi32>",
        "func.func private @lt(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>) -> tensor<i1> {\n\
         %0 = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>\nreturn %0 : tensor<i1>\n}",
        true,
    );
}

const SUM_F32: &str = "func.func private @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {\n%0 = hlo.add %a, %b : tensor<f32>\nreturn %0 : tensor<f32>\n}\n\
func.func private @sum_rev(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {\n%0 = hlo.add %b, %a : tensor<f32>\nreturn %0 : tensor<f32>\n}\n\
func.func private @max(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {\n%0 = hlo.maximum %a, %b : tensor<f32>\nreturn %0 : tensor<f32>\n}\n\
func.func private @sum_i32(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {\n%0 = hlo.add %a, %b : tensor<i32>\nreturn %0 : tensor<i32>\n}\n\
func.func private @max_i32(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {\n%0 = hlo.maximum %a, %b : tensor<i32>\nreturn %0 : tensor<i32>\n}\n\
func.func private @sub(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {\n%0 = hlo.subtract %a, %b : tensor<f32>\nreturn %0 : tensor<f32>\n}";

#[test]
fn dot_rules() {
    let dims = |l: &str, r: &str| format!("#hlo.dot<lhs_contracting_dims = [{l}], rhs_contracting_dims = [{r}]>");
    // dot(transpose(a), b): folded.
    let after = case(
        "%a: tensor<4x3xf32>, %b: tensor<4x5xf32>",
        "tensor<3x5xf32>",
        &format!(
            "%t = hlo.transpose %a, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>\n\
             %0 = hlo.dot %t, %b {{dot_dimension_numbers = {}}} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>\nreturn %0 : tensor<3x5xf32>",
            dims("1", "0")
        ),
        true,
    );
    assert!(!after.contains("hlo.transpose") && after.contains("lhs_contracting_dims = [0]"), "{after}");
    // Batch dims and the rhs.
    let after = case(
        "%a: tensor<2x3x4xf32>, %b: tensor<5x2x4xf32>",
        "tensor<2x3x5xf32>",
        "%t = hlo.transpose %b, dims = [1, 2, 0] : (tensor<5x2x4xf32>) -> tensor<2x4x5xf32>\n\
         %0 = hlo.dot %a, %t {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>\nreturn %0 : tensor<2x3x5xf32>",
        true,
    );
    assert!(!after.contains("hlo.transpose"), "{after}");
    // A transpose that reorders free dims stays.
    case(
        "%a: tensor<3x2x4xf32>, %b: tensor<4x5xf32>",
        "tensor<2x3x5xf32>",
        &format!(
            "%t = hlo.transpose %a, dims = [1, 0, 2] : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>\n\
             %0 = hlo.dot %t, %b {{dot_dimension_numbers = {}}} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>\nreturn %0 : tensor<2x3x5xf32>",
            dims("2", "0")
        ),
        false,
    );
    // Size-1 dims dropped (matrix-vector product, size-1 contraction).
    let after = case(
        "%a: tensor<4x3xf32>, %b: tensor<3x1xf32>",
        "tensor<4x1xf32>",
        &format!("%0 = hlo.dot %a, %b {{dot_dimension_numbers = {}}} : (tensor<4x3xf32>, tensor<3x1xf32>) -> tensor<4x1xf32>\nreturn %0 : tensor<4x1xf32>", dims("1", "0")),
        true,
    );
    assert!(after.contains("tensor<4x3xf32>, tensor<3xf32>) -> tensor<4xf32>"), "{after}");
    case(
        "%a: tensor<16x1xf32>, %b: tensor<1x16xf32>",
        "tensor<16x16xf32>",
        &format!("%0 = hlo.dot %a, %b {{dot_dimension_numbers = {}}} : (tensor<16x1xf32>, tensor<1x16xf32>) -> tensor<16x16xf32>\nreturn %0 : tensor<16x16xf32>", dims("1", "0")),
        true,
    );
    case(
        "%a: tensor<16x1xbf16>, %b: tensor<1x16xbf16>",
        "tensor<16x16xf32>",
        &format!("%0 = hlo.dot %a, %b {{dot_dimension_numbers = {}}} : (tensor<16x1xbf16>, tensor<1x16xbf16>) -> tensor<16x16xf32>\nreturn %0 : tensor<16x16xf32>", dims("1", "0")),
        true,
    );
    // Empty contraction.
    let after = case(
        "%a: tensor<4x0xf32>, %b: tensor<0x5xf32>",
        "tensor<4x5xf32>",
        &format!("%0 = hlo.dot %a, %b {{dot_dimension_numbers = {}}} : (tensor<4x0xf32>, tensor<0x5xf32>) -> tensor<4x5xf32>\nreturn %0 : tensor<4x5xf32>", dims("1", "0")),
        true,
    );
    assert!(!after.contains("hlo.dot"), "{after}");
    // A plain matmul stays.
    case(
        "%a: tensor<4x3xf32>, %b: tensor<3x5xf32>",
        "tensor<4x5xf32>",
        &format!("%0 = hlo.dot %a, %b {{dot_dimension_numbers = {}}} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>\nreturn %0 : tensor<4x5xf32>", dims("1", "0")),
        false,
    );
}

#[test]
fn reduce_rules() {
    let r = |x: &str, xt: &str, init: &str, d: &str, f: &str, out: &str| {
        let dims = if d.is_empty() { "array<i64>".to_string() } else { format!("array<i64: {d}>") };
        format!(
            "%0 = hlo.reduce {x}, {init} {{dimensions = {dims}, to_apply = @{f}}} : ({xt}, tensor<{}>) -> {out}",
            elem_of(xt)
        )
    };
    // Size-1 reductions: the reducer applied once (either operand order).
    for f in ["sum", "sum_rev", "max", "sub"] {
        let after = case_with(
            "%x: tensor<16x1xf32>, %i: tensor<f32>",
            "tensor<16xf32>",
            &format!("{}\nreturn %0 : tensor<16xf32>", r("%x", "tensor<16x1xf32>", "%i", "1", f, "tensor<16xf32>")),
            SUM_F32,
            true,
        );
        assert!(!after.contains("hlo.reduce"), "{after}");
    }
    // ... just the input for an exact identity (max with -inf, integer add with 0).
    let after = case_with(
        "%x: tensor<16x1xf32>",
        "tensor<16xf32>",
        &format!(
            "%i = hlo.constant dense<0xFF800000> : tensor<f32>\n{}\nreturn %0 : tensor<16xf32>",
            r("%x", "tensor<16x1xf32>", "%i", "1", "max", "tensor<16xf32>")
        ),
        SUM_F32,
        true,
    );
    assert!(!main_of(&after).contains("hlo.maximum"), "{after}");
    case_with(
        "%x: tensor<1x16xi32>",
        "tensor<16xi32>",
        &format!(
            "%i = hlo.constant dense<0> : tensor<i32>\n{}\nreturn %0 : tensor<16xi32>",
            r("%x", "tensor<1x16xi32>", "%i", "0", "sum_i32", "tensor<16xi32>")
        ),
        SUM_F32,
        true,
    );
    // reduce over no dims.
    case_with(
        "%x: tensor<16xf32>, %i: tensor<f32>",
        "tensor<16xf32>",
        &format!("{}\nreturn %0 : tensor<16xf32>", r("%x", "tensor<16xf32>", "%i", "", "sum", "tensor<16xf32>")),
        SUM_F32,
        true,
    );
    // Empty input.
    case_with(
        "%x: tensor<0x16xf32>, %i: tensor<f32>",
        "tensor<16xf32>",
        &format!("{}\nreturn %0 : tensor<16xf32>", r("%x", "tensor<0x16xf32>", "%i", "0", "sum", "tensor<16xf32>")),
        SUM_F32,
        true,
    );
    // reduce(transpose): the reduced elements keep their order.
    let after = case_with(
        "%x: tensor<4x2x8xf32>, %i: tensor<f32>",
        "tensor<2xf32>",
        &format!(
            "%t = hlo.transpose %x, dims = [1, 0, 2] : (tensor<4x2x8xf32>) -> tensor<2x4x8xf32>\n{}\nreturn %0 : tensor<2xf32>",
            r("%t", "tensor<2x4x8xf32>", "%i", "1, 2", "sum", "tensor<2xf32>")
        ),
        SUM_F32,
        true,
    );
    assert!(!after.contains("hlo.transpose"), "{after}");
    // ... kept dims permuted: a transpose of the smaller result.
    let after = case_with(
        "%x: tensor<4x2x8xf32>, %i: tensor<f32>",
        "tensor<2x4xf32>",
        &format!(
            "%t = hlo.transpose %x, dims = [1, 0, 2] : (tensor<4x2x8xf32>) -> tensor<2x4x8xf32>\n{}\nreturn %0 : tensor<2x4xf32>",
            r("%t", "tensor<2x4x8xf32>", "%i", "2", "sum", "tensor<2x4xf32>")
        ),
        SUM_F32,
        true,
    );
    assert!(after.contains("tensor<4x2xf32>) -> tensor<2x4xf32>"), "{after}");
    // ... float sums whose order would change stay; integer ones do not care.
    case_with(
        "%x: tensor<4x8xf32>, %i: tensor<f32>",
        "tensor<f32>",
        &format!(
            "%t = hlo.transpose %x, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>\n{}\nreturn %0 : tensor<f32>",
            r("%t", "tensor<8x4xf32>", "%i", "0, 1", "sum", "tensor<f32>")
        ),
        SUM_F32,
        false,
    );
    case_with(
        "%x: tensor<4x8xi32>, %i: tensor<i32>",
        "tensor<i32>",
        &format!(
            "%t = hlo.transpose %x, dims = [1, 0] : (tensor<4x8xi32>) -> tensor<8x4xi32>\n{}\nreturn %0 : tensor<i32>",
            r("%t", "tensor<8x4xi32>", "%i", "0, 1", "sum_i32", "tensor<i32>")
        ),
        SUM_F32,
        true,
    );
    // reduce(reduce) with integer add and 0 inits merges; float does not.
    let after = case_with(
        "%x: tensor<4x8x2xi32>",
        "tensor<2xi32>",
        &format!(
            "%i = hlo.constant dense<0> : tensor<i32>\n%a = hlo.reduce %x, %i {{dimensions = array<i64: 1>, to_apply = @sum_i32}} : (tensor<4x8x2xi32>, tensor<i32>) -> tensor<4x2xi32>\n{}\nreturn %0 : tensor<2xi32>",
            r("%a", "tensor<4x2xi32>", "%i", "0", "sum_i32", "tensor<2xi32>")
        ),
        SUM_F32,
        true,
    );
    assert_eq!(after.matches("hlo.reduce").count(), 1, "{after}");
    case_with(
        "%x: tensor<4x8x2xf32>",
        "tensor<2xf32>",
        &format!(
            "%i = hlo.constant dense<0.0> : tensor<f32>\n%a = hlo.reduce %x, %i {{dimensions = array<i64: 1>, to_apply = @sum}} : (tensor<4x8x2xf32>, tensor<f32>) -> tensor<4x2xf32>\n{}\nreturn %0 : tensor<2xf32>",
            r("%a", "tensor<4x2xf32>", "%i", "0", "sum", "tensor<2xf32>")
        ),
        SUM_F32,
        false,
    );
    // reduce(reshape): kept dims unmodified, or reduced dims unmodified.
    let after = case_with(
        "%x: tensor<4x2x8xf32>, %i: tensor<f32>",
        "tensor<4xf32>",
        &format!(
            "%t = hlo.reshape %x : (tensor<4x2x8xf32>) -> tensor<4x16xf32>\n{}\nreturn %0 : tensor<4xf32>",
            r("%t", "tensor<4x16xf32>", "%i", "1", "sum", "tensor<4xf32>")
        ),
        SUM_F32,
        true,
    );
    assert!(!after.contains("hlo.reshape"), "{after}");
    let after = case_with(
        "%x: tensor<8x4xf32>, %i: tensor<f32>",
        "tensor<2x4xf32>",
        &format!(
            "%t = hlo.reshape %x : (tensor<8x4xf32>) -> tensor<2x4x4xf32>\n{}\nreturn %0 : tensor<2x4xf32>",
            r("%t", "tensor<2x4x4xf32>", "%i", "2", "sum", "tensor<2x4xf32>")
        ),
        SUM_F32,
        true,
    );
    assert!(after.contains("tensor<8xf32>) -> tensor<2x4xf32>"), "{after}");
    // reduce(broadcast): reduce first; scalar with max; integer sums.
    let after = case_with(
        "%x: tensor<4x8xf32>, %i: tensor<f32>",
        "tensor<3x4xf32>",
        &format!(
            "%b = hlo.broadcast %x, dims = [1, 2] : (tensor<4x8xf32>) -> tensor<3x4x8xf32>\n{}\nreturn %0 : tensor<3x4xf32>",
            r("%b", "tensor<3x4x8xf32>", "%i", "2", "sum", "tensor<3x4xf32>")
        ),
        SUM_F32,
        true,
    );
    assert!(after.contains("(tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>"), "{after}");
    case_with(
        "%x: tensor<f32>, %i: tensor<f32>",
        "tensor<f32>",
        &format!(
            "%b = hlo.broadcast %x, dims = [] : (tensor<f32>) -> tensor<3x4xf32>\n{}\nreturn %0 : tensor<f32>",
            r("%b", "tensor<3x4xf32>", "%i", "0, 1", "max", "tensor<f32>")
        ),
        SUM_F32,
        true,
    );
    let after = case_with(
        "%x: tensor<4xi32>, %i: tensor<i32>",
        "tensor<4xi32>",
        &format!(
            "%b = hlo.broadcast %x, dims = [1] : (tensor<4xi32>) -> tensor<3x4xi32>\n{}\nreturn %0 : tensor<4xi32>",
            r("%b", "tensor<3x4xi32>", "%i", "0", "sum_i32", "tensor<4xi32>")
        ),
        SUM_F32,
        true,
    );
    assert!(after.contains("hlo.multiply"), "{after}");
    // The float version of that stays.
    case_with(
        "%x: tensor<4xf32>, %i: tensor<f32>",
        "tensor<4xf32>",
        &format!(
            "%b = hlo.broadcast %x, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>\n{}\nreturn %0 : tensor<4xf32>",
            r("%b", "tensor<3x4xf32>", "%i", "0", "sum", "tensor<4xf32>")
        ),
        SUM_F32,
        false,
    );
    // A plain reduction stays.
    case_with(
        "%x: tensor<4x8xf32>, %i: tensor<f32>",
        "tensor<4xf32>",
        &format!("{}\nreturn %0 : tensor<4xf32>", r("%x", "tensor<4x8xf32>", "%i", "1", "sum", "tensor<4xf32>")),
        SUM_F32,
        false,
    );
}

/// The entry function's text in a printed module.
fn main_of(module: &str) -> &str {
    module.split("func.func private").next().unwrap()
}

/// `f32` of `tensor<4x8xf32>`.
fn elem_of(t: &str) -> &str {
    let inner = t.trim_start_matches("tensor<").trim_end_matches('>');
    inner.rsplit('x').next().unwrap()
}

#[test]
fn no_change_without_matches_and_options() {
    assert!(AlgSimp::from_options(&PassOptions::parse("max-iterations=0").unwrap()).is_err());
    assert!(AlgSimp::from_options(&PassOptions::parse("bogus=1").unwrap()).is_err());
    case(
        "%x: tensor<16xf32>, %y: tensor<16xf32>",
        "tensor<16xf32>",
        "%0 = hlo.add %x, %y : tensor<16xf32>\nreturn %0 : tensor<16xf32>",
        false,
    );
}

#[test]
fn size_one_reductions_in_other_types() {
    for (ty, f) in [("bf16", "sum"), ("f16", "sum"), ("i32", "sum"), ("i1", "sum"), ("bf16", "max"), ("f64", "mul")] {
        let tt = format!("tensor<{ty}>");
        let op = match f {
            "sum" => "add",
            "max" => "maximum",
            _ => "multiply",
        };
        let extra = format!(
            "func.func private @r(%a: {tt}, %b: {tt}) -> {tt} {{\n%0 = hlo.{op} %b, %a : {tt}\nreturn %0 : {tt}\n}}"
        );
        let after = case_with(
            &format!("%x: tensor<16x1x{ty}>, %i: {tt}"),
            &format!("tensor<16x{ty}>"),
            &format!(
                "%0 = hlo.reduce %x, %i {{dimensions = array<i64: 1>, to_apply = @r}} : (tensor<16x1x{ty}>, {tt}) -> tensor<16x{ty}>\nreturn %0 : tensor<16x{ty}>"
            ),
            &extra,
            true,
        );
        assert!(!main_of(&after).contains("hlo.reduce"), "{after}");
    }
    // A float sum with init -0.0 of a canonical input is the input.
    let after = case_with(
        "%a: tensor<16x1xf32>, %b: tensor<16x1xf32>",
        "tensor<16xf32>",
        "%x = hlo.multiply %a, %b : tensor<16x1xf32>\n%i = hlo.constant dense<-0.0> : tensor<f32>\n\
         %0 = hlo.reduce %x, %i {dimensions = array<i64: 1>, to_apply = @sum} : (tensor<16x1xf32>, tensor<f32>) -> tensor<16xf32>\nreturn %0 : tensor<16xf32>",
        SUM_F32,
        true,
    );
    assert!(!main_of(&after).contains("hlo.add"), "{after}");
    // Scalar-like dots: every dim of size 1.
    case(
        "%a: tensor<1xf32>, %b: tensor<1x1xf32>",
        "tensor<1xf32>",
        "%0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [0], rhs_contracting_dims = [0]>} : (tensor<1xf32>, tensor<1x1xf32>) -> tensor<1xf32>\nreturn %0 : tensor<1xf32>",
        true,
    );
}
