//! `xla-expand-math`: every `math` op becomes something LLVM can compile
//! without surprises (XLA's `expand_float_ops` and its math library).
//!
//! - `f16` and `bf16` math is computed in `f32` and rounded back (as
//!   XLA:CPU does; it is also what the interpreter does).
//! - Ops LLVM implements exactly as instructions stay for
//!   `convert-math-to-llvm`: `sqrt`, `absf`, `absi`, `ceil`, `floor`,
//!   `trunc`, `round`, `roundeven`, `copysign`, `fma`, `ctlz`, `cttz`,
//!   `ctpop`, `fpowi`.
//! - The hot f32 functions, `exp`, `exp2`, `expm1`, `log`, `log2`,
//!   `log1p`, `tanh` and `erf`, are rxla's own branch-free approximations
//!   ([`crate::math`]: range reduction and polynomials, within 2 ulp over
//!   all of f32, special values exact), emitted as `arith`/`math` ops that
//!   compile to instructions: unlike calls, they let LLVM vectorize the
//!   loops that use them (a GELU over 16M floats: 160 ms with `tanhf`
//!   calls, 12 ms in-house on two cores).
//! - The other transcendental functions call the C library (`sinf`,
//!   `tanh`, ...; glibc's are correctly rounded or within one ulp),
//!   through a declared `func.func` marked pure (`memory(none)`, as if
//!   compiled with `-fno-math-errno`: nothing reads `errno`, and LLVM then
//!   hoists calls on loop-invariant arguments): all f64 functions (f64 accuracy
//!   needs longer polynomials and extra-precise reductions, and f64 math
//!   is rarely hot), `sin`/`cos`/`tan` (accurate for large arguments only
//!   with a Payne-Hanek range reduction, which has no cheap branch-free
//!   form), and the rarely hot rest (`pow`, `atan2`, the inverse and
//!   hyperbolic functions, `cbrt`, `erfc`, `log10`). The LLVM intrinsics
//!   would call the C library too for some and do not exist for others,
//!   and `math-to-llvm`'s `expm1`/`log1p` (`exp(x) - 1`, `log(1 + x)`)
//!   lose all precision near zero.
//! - On the GPU (`target=gpu`) the transcendental functions call libdevice
//!   (`__nv_expf`, ...), except f32 `tanh` and `erf`, which are in-house
//!   there too (as XLA:GPU has its own for them): libdevice's branch.
//!   `arith.remf` calls libdevice's `fmod` there: LLVM's NVPTX `frem` is
//!   `x - trunc(x / y) * y`, inexact for large quotients and wrong for
//!   infinite `x`.
//! - `rsqrt` is `1 / sqrt(x)`; `isnan`, `isinf`, `isfinite` compare the
//!   absolute value; `ipowi` is exponentiation by squaring in a loop.

use crate::ir::*;
use melior::ir::OperationRef;
use mlir_sys::*;
use rxla_ir::pass::{HloPass, PassError, PassOptions};

#[derive(Clone, Debug)]
pub struct ExpandMath {
    pub target: crate::lower_tensors::Target,
}

impl HloPass for ExpandMath {
    const NAME: &'static str = "xla-expand-math";
    const DESCRIPTION: &'static str =
        "Expand math ops: f16/bf16 math in f32, transcendental functions as in-house f32 approximations and C library calls (target=gpu: libdevice calls), predicates and rsqrt in arith";

    fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
        use melior::dialect::DialectHandle;
        vec![DialectHandle::arith(), DialectHandle::func(), DialectHandle::scf()]
    }

    fn from_options(options: &PassOptions) -> std::result::Result<Self, PassError> {
        options.expect_only(Self::NAME, &["target"])?;
        Ok(ExpandMath { target: crate::lower_tensors::Target::from_options(Self::NAME, options)? })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> std::result::Result<(), PassError> {
        let root = Op::of(&module);
        let gpu = self.target == crate::lower_tensors::Target::Gpu;
        for op in walk(root) {
            let name = op.name();
            if let Some(math) = name.strip_prefix("math.") {
                expand(op, math, gpu)?;
            } else if gpu && name == "arith.remf" {
                remf_gpu(op)?;
            }
        }
        Ok(())
    }
}

/// The C library function computing `op` (f32 name, f64 name).
fn libm(op: &str) -> Option<(&'static str, &'static str)> {
    Some(match op {
        "exp" => ("expf", "exp"),
        "exp2" => ("exp2f", "exp2"),
        "expm1" => ("expm1f", "expm1"),
        "log" => ("logf", "log"),
        "log2" => ("log2f", "log2"),
        "log10" => ("log10f", "log10"),
        "log1p" => ("log1pf", "log1p"),
        "sin" => ("sinf", "sin"),
        "cos" => ("cosf", "cos"),
        "tan" => ("tanf", "tan"),
        "asin" => ("asinf", "asin"),
        "acos" => ("acosf", "acos"),
        "atan" => ("atanf", "atan"),
        "atan2" => ("atan2f", "atan2"),
        "sinh" => ("sinhf", "sinh"),
        "cosh" => ("coshf", "cosh"),
        "tanh" => ("tanhf", "tanh"),
        "asinh" => ("asinhf", "asinh"),
        "acosh" => ("acoshf", "acosh"),
        "atanh" => ("atanhf", "atanh"),
        "erf" => ("erff", "erf"),
        "erfc" => ("erfcf", "erfc"),
        "cbrt" => ("cbrtf", "cbrt"),
        "powf" => ("powf", "pow"),
        _ => return None,
    })
}

/// Ops `convert-math-to-llvm` lowers to exact LLVM instructions.
pub const EXACT: &[&str] = &[
    "sqrt",
    "absf",
    "absi",
    "ceil",
    "floor",
    "trunc",
    "round",
    "roundeven",
    "copysign",
    "fma",
    "ctlz",
    "cttz",
    "ctpop",
    "fpowi",
];

fn float_name(ty: MlirType) -> String {
    type_to_string(ty)
}

/// `1 / sqrt(x)`, both exact (on a scalar or a vector).
fn rsqrt(b: &B, x: Value) -> Value {
    let ty = x.raw_type();
    let s = b.val("math.sqrt", &[x], ty, &[]);
    let one = b.const_literal(ty, "1.0");
    b.val("arith.divf", &[one, s], ty, &[])
}

fn expand(op: Op, math: &str, gpu: bool) -> Result<()> {
    let operands = op.operands();
    let Some(first) = operands.first() else { return Ok(()) };
    let ty = first.raw_type();
    if is_vector(ty) {
        // What xla-vectorize-loads-stores makes vector: the exact ops (LLVM
        // vector intrinsics) and the in-house f32 functions.
        if EXACT.contains(&math) {
            return Ok(());
        }
        let b = B::before(op);
        if math == "rsqrt" {
            replace_op(op, &[rsqrt(&b, *first)]);
            return Ok(());
        }
        if let Some(r) = crate::math::expand_f32(&b, math, &operands) {
            replace_op(op, &[r]);
            return Ok(());
        }
        return Err(op_error(op, format!("`math.{math}` on {} has no lowering", type_to_string(ty))));
    }
    let b = B::before(op);
    let fname = float_name(ty);
    // Narrow floats: compute in f32.
    if matches!(fname.as_str(), "f16" | "bf16")
        && !matches!(math, "copysign" | "absf" | "fpowi" | "isnan" | "isinf" | "isfinite")
    {
        let f32t = b.f32();
        let wide: Vec<Value> = operands.iter().map(|v| b.val("arith.extf", &[*v], f32t, &[])).collect();
        let result_ty = op.result(0).raw_type();
        let wide_result_ty = if types_equal(result_ty, ty) { f32t } else { result_ty };
        let attrs: Vec<(String, MlirAttribute)> = op.attrs_raw();
        let attr_refs: Vec<(&str, MlirAttribute)> = attrs.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        let wide_op = b.op(&op.name(), &wide, &[wide_result_ty], &attr_refs, vec![]);
        let result = if types_equal(wide_result_ty, f32t) {
            b.val("arith.truncf", &[wide_op.result(0)], result_ty, &[])
        } else {
            wide_op.result(0)
        };
        replace_op(op, &[result]);
        return expand(wide_op, math, gpu);
    }
    match math {
        "isnan" => {
            let x = operands[0];
            let r = b.cmpf("uno", x, x);
            replace_op(op, &[r]);
        }
        "isinf" | "isfinite" => {
            let x = operands[0];
            let abs = b.val("math.absf", &[x], ty, &[]);
            let inf = b.const_literal(ty, &format!("0x{}", inf_bits(&fname)?));
            let r = if math == "isinf" { b.cmpf("oeq", abs, inf) } else { b.cmpf("olt", abs, inf) };
            replace_op(op, &[r]);
        }
        "rsqrt" => replace_op(op, &[rsqrt(&b, operands[0])]),
        "ipowi" => {
            let r = ipowi(&b, operands[0], operands[1]);
            replace_op(op, &[r]);
        }
        // PTX has no `powi` instruction and no C library: libdevice's.
        "fpowi" if gpu => {
            let (x, n) = (operands[0], operands[1]);
            let i32t = b.int(32);
            let callee = if fname == "f64" { "__nv_powi" } else { "__nv_powif" };
            let n32 = match bit_width(n.raw_type()) {
                32 => n,
                w if w < 32 => b.val("arith.extsi", &[n], i32t, &[]),
                // Exponents beyond i32 overflow or underflow anyway, except
                // for |x| = 1, where only their parity matters.
                _ => {
                    let big = b.const_int(n.raw_type(), i32::MAX as i64 - 1);
                    let small = b.const_int(n.raw_type(), i32::MIN as i64);
                    let parity = b.const_int(n.raw_type(), 1);
                    let odd = b.val("arith.andi", &[n, parity], n.raw_type(), &[]);
                    let clamped = b.val("arith.maxsi", &[n, small], n.raw_type(), &[]);
                    let clamped = b.val("arith.minsi", &[clamped, big], n.raw_type(), &[]);
                    let even = b.val("arith.andi", &[clamped, b.const_int(n.raw_type(), -2)], n.raw_type(), &[]);
                    let kept = b.val("arith.ori", &[even, odd], n.raw_type(), &[]);
                    b.val("arith.trunci", &[kept], i32t, &[])
                }
            };
            declare_fn(op, callee, &[ty, i32t], ty)?;
            let call = b.op("func.call", &[x, n32], &[ty], &[("callee", b.symbol_attr(callee))], vec![]);
            replace_op(op, &call.results());
        }
        _ if EXACT.contains(&math) => {}
        _ if gpu => {
            // f32 tanh and erf in-house, as XLA:GPU has its own for them:
            // libdevice's branch, which keeps an unrolled loop's loads and
            // stores in separate blocks (no vector accesses).
            if fname == "f32" && matches!(math, "tanh" | "erf") {
                if let Some(r) = crate::math::expand_f32(&b, math, &operands) {
                    replace_op(op, &[r]);
                    return Ok(());
                }
            }
            // libdevice: `__nv_expf` (f32), `__nv_exp` (f64).
            let (f32_name, f64_name) =
                libm(math).ok_or_else(|| op_error(op, format!("`math.{math}` has no GPU lowering")))?;
            let callee = match fname.as_str() {
                "f32" => format!("__nv_{f32_name}"),
                "f64" => format!("__nv_{f64_name}"),
                other => return Err(op_error(op, format!("`math.{math}` on {other} has no GPU lowering"))),
            };
            declare(op, &callee, operands.len(), ty)?;
            let call = b.op("func.call", &operands, &[ty], &[("callee", b.symbol_attr(&callee))], vec![]);
            replace_op(op, &call.results());
        }
        _ => {
            if fname == "f32" {
                if let Some(r) = crate::math::expand_f32(&b, math, &operands) {
                    replace_op(op, &[r]);
                    return Ok(());
                }
            }
            let (f32_name, f64_name) =
                libm(math).ok_or_else(|| op_error(op, format!("`math.{math}` has no CPU lowering")))?;
            let callee = match fname.as_str() {
                "f32" => f32_name,
                "f64" => f64_name,
                other => return Err(op_error(op, format!("`math.{math}` on {other} has no CPU lowering"))),
            };
            declare(op, callee, operands.len(), ty)?;
            mark_pure(op, callee)?;
            let call = b.op("func.call", &operands, &[ty], &[("callee", b.symbol_attr(callee))], vec![]);
            replace_op(op, &call.results());
        }
    }
    Ok(())
}

/// `arith.remf` on the GPU: libdevice's `fmod` (exact, as C's). LLVM's
/// NVPTX lowering of `frem` is `x - trunc(x / y) * y`, which is inexact
/// for large quotients and gives infinities where fmod gives NaN
/// (`fmod(-inf, y)`).
fn remf_gpu(op: Op) -> Result<()> {
    let operands = op.operands();
    let ty = op.result(0).raw_type();
    let b = B::before(op);
    let (callee, wide) = match float_name(ty).as_str() {
        "f32" => ("__nv_fmodf", None),
        "f64" => ("__nv_fmod", None),
        // The remainder of narrow floats is exact in f32.
        "f16" | "bf16" => ("__nv_fmodf", Some(b.f32())),
        // No vectors: the GPU's lane loops keep their arithmetic scalar.
        other => return Err(op_error(op, format!("`arith.remf` on {other} has no GPU lowering"))),
    };
    let call_ty = wide.unwrap_or(ty);
    let args: Vec<Value> = match wide {
        Some(f32t) => operands.iter().map(|v| b.val("arith.extf", &[*v], f32t, &[])).collect(),
        None => operands,
    };
    declare(op, callee, 2, call_ty)?;
    let call = b.op("func.call", &args, &[call_ty], &[("callee", b.symbol_attr(callee))], vec![]);
    let result = match wide {
        Some(_) => b.val("arith.truncf", &[call.result(0)], ty, &[]),
        None => call.result(0),
    };
    replace_op(op, &[result]);
    Ok(())
}

/// Tells LLVM that the C library function `name` only computes its result
/// (`memory(none) nounwind willreturn`, as XLA's math is): LLVM assumes
/// libm may set `errno`, which nothing in rxla reads, and so would not
/// hoist a call on loop-invariant arguments (a learning rate's `cos`
/// computed once per training step instead of once per parameter) or
/// remove an unused one.
fn mark_pure(op: Op, name: &str) -> Result<()> {
    let module = op.parent_module().ok_or_else(|| bug("math op outside a module"))?;
    let body = module.region_block(0).ok_or_else(|| bug("module without a body"))?;
    let func = block_ops(body)
        .into_iter()
        .find(|f| f.is_named("func.func") && f.string_attr("sym_name").as_deref() == Some(name))
        .ok_or_else(|| bug("a declared C library function is missing"))?;
    if !func.has_attr("passthrough") {
        let b = B::before(func);
        let memory = b.array_attr(&[b.string_attr("memory"), b.string_attr("0")]);
        func.set_attr_raw(
            "passthrough",
            b.array_attr(&[memory, b.string_attr("nounwind"), b.string_attr("willreturn")]),
        );
    }
    Ok(())
}

fn inf_bits(fname: &str) -> Result<&'static str> {
    Ok(match fname {
        "f32" => "7F800000",
        "f64" => "7FF0000000000000",
        "f16" => "7C00",
        "bf16" => "7F80",
        other => return Err(error(format!("no infinity for {other}"))),
    })
}

/// Declares `name : (ty, ...) -> ty` (a C library function) in the
/// module holding `op`, once.
fn declare(op: Op, name: &str, arity: usize, ty: MlirType) -> Result<()> {
    declare_fn(op, name, &vec![ty; arity], ty)
}

/// Declares `name : (args...) -> result` in the module holding `op`, once.
fn declare_fn(op: Op, name: &str, args: &[MlirType], result: MlirType) -> Result<()> {
    let module = op.parent_module().ok_or_else(|| bug("math op outside a module"))?;
    let body = module.region_block(0).ok_or_else(|| bug("module without a body"))?;
    let exists =
        block_ops(body).iter().any(|f| f.is_named("func.func") && f.string_attr("sym_name").as_deref() == Some(name));
    if exists {
        return Ok(());
    }
    let first = block_ops(body).into_iter().next().ok_or_else(|| bug("empty module"))?;
    let b = B::before(first);
    let fty = make_function_type(b.ctx, args, &[result]);
    let region = unsafe { mlirRegionCreate() };
    b.op(
        "func.func",
        &[],
        &[],
        &[
            ("sym_name", b.string_attr(name)),
            ("function_type", b.type_attr(fty)),
            ("sym_visibility", b.string_attr("private")),
        ],
        vec![region],
    );
    Ok(())
}

/// `x ** n` for integers by squaring (n < 0: 0 unless |x| is 1, as XLA).
fn ipowi(b: &B, x: Value, n: Value) -> Value {
    let ty = x.raw_type();
    let zero = b.const_int(ty, 0);
    let one = b.const_int(ty, 1);
    // while (n > 0) { if (n & 1) acc *= x; x *= x; n >>= 1 }
    let (before, before_block) = region_with_block(&[ty, ty, ty], b.loc);
    let (after, after_block) = region_with_block(&[ty, ty, ty], b.loc);
    let w = b.op("scf.while", &[one, x, n], &[ty, ty, ty], &[], vec![before, after]);
    let bb = b.append(before_block);
    let a = block_args(before_block);
    let go = bb.cmpi("sgt", a[2], zero);
    bb.op("scf.condition", &[go, a[0], a[1], a[2]], &[], &[], vec![]);
    let ab = b.append(after_block);
    let a = block_args(after_block);
    let bit = ab.val("arith.andi", &[a[2], one], ty, &[]);
    let odd = ab.cmpi("ne", bit, zero);
    let times = ab.val("arith.muli", &[a[0], a[1]], ty, &[]);
    let acc = ab.val("arith.select", &[odd, times, a[0]], ty, &[]);
    let sq = ab.val("arith.muli", &[a[1], a[1]], ty, &[]);
    let shifted = ab.val("arith.shrsi", &[a[2], one], ty, &[]);
    ab.op("scf.yield", &[acc, sq, shifted], &[], &[], vec![]);
    let positive = w.result(0);
    // Negative exponents: 1 for x == 1, +-1 for x == -1, 0 otherwise.
    let neg = b.cmpi("slt", n, zero);
    let minus_one = b.const_int(ty, -1);
    let is_one = b.cmpi("eq", x, one);
    let is_minus_one = b.cmpi("eq", x, minus_one);
    let n_odd_bit = b.val("arith.andi", &[n, one], ty, &[]);
    let n_odd = b.cmpi("ne", n_odd_bit, zero);
    let m1_result = b.val("arith.select", &[n_odd, minus_one, one], ty, &[]);
    let r1 = b.val("arith.select", &[is_minus_one, m1_result, zero], ty, &[]);
    let r2 = b.val("arith.select", &[is_one, one, r1], ty, &[]);
    b.val("arith.select", &[neg, r2, positive], ty, &[])
}
