//! `algsimp`: XLA's AlgebraicSimplifier, restricted to the rewrites that
//! keep every result bit as the reference interpreter computes it.
//!
//! The rewrites are Rust patterns (one fold function per rule family and
//! opcode) applied by MLIR's greedy driver until nothing matches, top-down,
//! so chains collapse in one run. They are grouped by theme:
//!
//! - [`arith`]: identities of the elementwise arithmetic and bitwise ops
//!   (`x + 0`, `x * 1`, `x & x`, `max(x, x)`, `pow(x, 2)`, `-(-x)`, ...);
//! - [`compare_select`]: compares with known outcomes, selects with known
//!   predicates or equal branches;
//! - [`convert`]: no-op converts and value-preserving convert chains;
//! - [`shape`]: reshape, broadcast, transpose, slice, concatenate, pad,
//!   reverse, copy, dynamic-slice, dynamic-update-slice, iota, sort;
//! - [`dot`]: transposes folded into dimension numbers, degenerate
//!   dimensions, empty contractions;
//! - [`reduce`]: trivial reductions and reductions of reshapes, transposes,
//!   broadcasts and reductions.
//!
//! Exactness is the rule that decides what is left out of XLA's list: the
//! interpreter runs f32/f64/bf16 arithmetic with flush-to-zero (so `x * 1`
//! is not `x` for a subnormal `x`), quiets signalling NaNs in arithmetic,
//! and accumulates in a fixed order (so reassociation changes rounding).
//! Float identities therefore only fire when the operand is known to be
//! "canonical" (see [`canonical`]), and no rule reorders float arithmetic.
//! docs/passes/algsimp.md lists every rule and every omission.

mod arith;
mod compare_select;
mod convert;
mod dot;
mod reduce;
mod shape;
#[cfg(test)]
mod tests;

use crate::constant::ConstantBuilder;
use crate::constant::{self, Scalar};
use melior::ir::OperationRef;
use rxla_ir::{
    builder::Builder,
    hlo_analysis::{is_array_value, value_type, TypeCacheGuard},
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    rewrite::{apply_greedily, DriverOptions, Pattern, Rewriter},
    types::{ElementType, TensorType},
};
use std::rc::Rc;

/// The algebraic simplifier.
#[derive(Clone, Debug)]
pub struct AlgSimp {
    max_iterations: i64,
}

impl HloPass for AlgSimp {
    const NAME: &'static str = "algsimp";
    const DESCRIPTION: &'static str =
        "Algebraic simplification (XLA's AlgebraicSimplifier), limited to rewrites that keep results bit-exact";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &["max-iterations"])?;
        let max_iterations = options.int("max-iterations", 20)?;
        if max_iterations < 1 {
            return Err(PassError(format!("option 'max-iterations' must be positive, got {max_iterations}")));
        }
        Ok(Self { max_iterations })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        // No rule adds, erases or renames computations.
        let _names = rxla_ir::computation::NameIndex::new(module);
        let _types = TypeCacheGuard::new();
        apply_greedily(
            module,
            &patterns(),
            DriverOptions { max_iterations: self.max_iterations, ..DriverOptions::default() },
        )?;
        Ok(())
    }
}

/// Every pattern of the pass.
pub fn patterns() -> Vec<Rc<dyn Pattern>> {
    let mut out = Vec::new();
    arith::patterns(&mut out);
    compare_select::patterns(&mut out);
    convert::patterns(&mut out);
    shape::patterns(&mut out);
    dot::patterns(&mut out);
    reduce::patterns(&mut out);
    out
}

// ---------------------------------------------------------------------------
// Patterns

/// A rule: the value replacing the op's single result, built with the
/// builder (which inserts before the op), or `None`. Ops are only created on
/// the way to returning `Some`.
pub(crate) type SimpFn = fn(Op, &Builder) -> Result<Option<Value>, PassError>;

/// A rule for ops with several results: one replacement per result.
pub(crate) type MultiFn = fn(Op, &Builder) -> Result<Option<Vec<Value>>, PassError>;

enum Rule {
    Single(SimpFn),
    Multi(MultiFn),
}

struct Simp {
    root: &'static str,
    rule: Rule,
}

impl Pattern for Simp {
    fn roots(&self) -> Vec<&'static str> {
        vec![self.root]
    }

    fn match_and_rewrite(&self, op: Op, rewriter: &Rewriter) -> Result<bool, PassError> {
        if !eligible(op) {
            return Ok(false);
        }
        let values = match self.rule {
            Rule::Single(f) => {
                if op.num_results() != 1 {
                    return Ok(false);
                }
                match f(op, &rewriter.builder())? {
                    Some(v) => vec![v],
                    None => return Ok(false),
                }
            }
            Rule::Multi(f) => match f(op, &rewriter.builder())? {
                Some(vs) => vs,
                None => return Ok(false),
            },
        };
        if values.len() != op.num_results() {
            return Err(bug(op, "wrong number of replacement values"));
        }
        for (i, v) in values.iter().enumerate() {
            if v.ty() != op.result_type(i) {
                return Err(bug(op, &format!("replacement {i} has type {} instead of {}", v.ty(), op.result_type(i))));
            }
            if v.same_as(op.result(i)) {
                return Err(bug(op, "replaced by itself"));
            }
        }
        rewriter.replace(op, &values);
        Ok(true)
    }
}

fn bug(op: Op, what: &str) -> PassError {
    PassError(format!("internal error in algsimp on {}: {what}", op.name()))
}

/// A single-result rule for ops named `root`.
pub(crate) fn simp(root: &'static str, f: SimpFn) -> Rc<dyn Pattern> {
    Rc::new(Simp { root, rule: Rule::Single(f) })
}

/// A multi-result rule for ops named `root`.
pub(crate) fn simp_multi(root: &'static str, f: MultiFn) -> Rc<dyn Pattern> {
    Rc::new(Simp { root, rule: Rule::Multi(f) })
}

/// Ops the pass may rewrite: static array operands and results, no
/// control dependencies (as XLA), no sharding to preserve and the default
/// layout (the pass is layout-insensitive; ops that carry a layout are left
/// alone rather than risk losing it).
fn eligible(op: Op) -> bool {
    if op.has_attr("hlo.control_predecessors") || op.has_attr("hlo.sharding") || op.has_attr("hlo.layout") {
        return false;
    }
    op.results().iter().chain(op.operands().iter()).all(|v| is_array_value(*v))
}

// ---------------------------------------------------------------------------
// Shared helpers

/// The array type of `v` (`None` for tuples, tokens and dynamic shapes).
pub(crate) fn tensor(v: Value) -> Option<TensorType> {
    value_type(v).into_tensor()
}

/// The array type of the op's (first) result.
pub(crate) fn result_tensor(op: Op) -> Option<TensorType> {
    tensor(op.result(0))
}

/// `v` as the replacement of `op`'s result, if it has the same type and the
/// default layout (the op has the default layout, see [`eligible`]).
pub(crate) fn fwd(op: Op, v: Value) -> Option<Value> {
    (v.ty() == op.result_type(0) && v.layout_text().is_none() && !v.same_as(op.result(0))).then_some(v)
}

/// A constant of type `ty` with every element `value`: a scalar constant,
/// broadcast when `ty` is not a scalar.
pub(crate) fn splat_like(b: &Builder, ty: &TensorType, value: Scalar) -> Result<Value, PassError> {
    let scalar = b.scalar(&ty.elem, value)?;
    if ty.rank() == 0 {
        Ok(scalar)
    } else {
        b.broadcast_scalar(scalar, &ty.dims)
    }
}

/// Zero of `elem` as a [`Scalar`] (false for pred).
pub(crate) fn zero_of(elem: &ElementType) -> Scalar {
    if elem.is_pred() {
        Scalar::Bool(false)
    } else if elem.is_float() || elem.is_complex() {
        Scalar::Float(0.0)
    } else {
        Scalar::Int(0)
    }
}

/// One of `elem` (true for pred).
pub(crate) fn one_of(elem: &ElementType) -> Scalar {
    if elem.is_pred() {
        Scalar::Bool(true)
    } else if elem.is_float() || elem.is_complex() {
        Scalar::Float(1.0)
    } else {
        Scalar::Int(1)
    }
}

/// Signed or unsigned integer or pred: the types whose arithmetic is exact
/// modular arithmetic (pred add/multiply are or/and).
pub(crate) fn is_int_like(elem: &ElementType) -> bool {
    elem.is_integer() || elem.is_pred()
}

/// The float types the arithmetic identities consider: f16, bf16, f32 and
/// f64 (the f8/f6/f4 formats are left alone).
pub(crate) fn is_std_float(elem: &ElementType) -> bool {
    matches!(elem.0.as_str(), "f16" | "bf16" | "f32" | "f64")
}

/// f32 and f64, the types the interpreter computes on natively: their
/// maximum/minimum/negate return an operand's bits unchanged.
pub(crate) fn is_native_float(elem: &ElementType) -> bool {
    matches!(elem.0.as_str(), "f32" | "f64")
}

/// The splat value of `v` if it is an integer (or pred) splat constant.
pub(crate) fn splat_int(v: Value) -> Option<i128> {
    match constant::splat(v)? {
        Scalar::Int(i) => Some(i),
        Scalar::Bool(b) => Some(b as i128),
        Scalar::Float(_) => None,
    }
}

/// The splat value of `v` if it is a float splat constant (sign of zero
/// kept).
pub(crate) fn splat_float(v: Value) -> Option<f64> {
    match constant::splat(v)? {
        Scalar::Float(f) => Some(f),
        _ => None,
    }
}

/// True if `v` is a splat constant equal to zero (integer 0, false, or a
/// float zero of either sign).
pub(crate) fn is_zero(v: Value) -> bool {
    constant::splat(v).is_some_and(|s| s.is_zero())
}

/// True if `v` is a splat constant equal to one (1, true, 1.0).
pub(crate) fn is_one(v: Value) -> bool {
    constant::splat(v).is_some_and(|s| s.is_one())
}

/// True if `v` is a splat of -0.0.
pub(crate) fn is_neg_zero(v: Value) -> bool {
    splat_float(v).is_some_and(|f| f == 0.0 && f.is_sign_negative())
}

/// True if `v` is a splat of +0.0.
pub(crate) fn is_pos_zero(v: Value) -> bool {
    splat_float(v).is_some_and(|f| f == 0.0 && f.is_sign_positive())
}

/// True if `v` is a splat with every bit set (-1 signed, the maximum
/// unsigned value, true).
pub(crate) fn is_all_ones(v: Value, elem: &ElementType) -> bool {
    let Some(i) = splat_int(v) else { return false };
    if elem.is_pred() {
        i == 1
    } else if elem.is_signed_int() {
        i == -1
    } else if elem.is_unsigned_int() {
        i == (1i128 << elem.bit_width()) - 1
    } else {
        false
    }
}

/// The bit width of an integer type as a value range: for signed types the
/// magnitude bits.
pub(crate) fn int_bits(elem: &ElementType) -> u32 {
    elem.bit_width()
}

/// Ops whose float results never hold a signalling NaN and, for the types
/// the interpreter flushes (f32, f64, bf16), never a subnormal: the
/// arithmetic and transcendental ops, which quiet NaNs and flush subnormal
/// results (docs/interpreter.md).
const CANONICAL_PRODUCERS: &[&str] = &[
    "add",
    "subtract",
    "multiply",
    "divide",
    "remainder",
    "power",
    "atan2",
    "exponential",
    "exponential_minus_one",
    "log",
    "log_plus_one",
    "logistic",
    "sqrt",
    "rsqrt",
    "cbrt",
    "sine",
    "cosine",
    "tan",
    "tanh",
    "sinh",
    "cosh",
    "asin",
    "acos",
    "atan",
    "asinh",
    "acosh",
    "atanh",
    "erf",
    "floor",
    "ceil",
    "round_nearest_afz",
    "round_nearest_even",
];

/// Ops that only move or replicate their (first) operand's elements.
const MOVERS: &[&str] = &["reshape", "broadcast", "transpose", "slice", "reverse", "copy", "dynamic_slice"];

/// True if every element of the float value `v` is "canonical": not a
/// signalling NaN and, for f32/f64/bf16, not a subnormal. For such values
/// `x * 1`, `x + (-0.0)`, `x - 0.0`, `x / 1` and `pow(x, 1)` give `x`
/// bit for bit even though the interpreter flushes subnormals and quiets
/// NaNs in arithmetic. Known for results of arithmetic (see
/// [`CANONICAL_PRODUCERS`]), converts from integers, iotas, splat constants
/// of normal values, and values moved from such values.
pub(crate) fn canonical(v: Value) -> bool {
    canonical_at(v, 8)
}

fn canonical_at(v: Value, depth: u32) -> bool {
    let Some(t) = tensor(v) else { return false };
    if !t.elem.is_float() {
        return false;
    }
    let Some(op) = v.op() else { return false };
    let opcode = op.opcode();
    if !op.name().starts_with("hlo.") {
        return false;
    }
    if CANONICAL_PRODUCERS.contains(&opcode.as_str()) {
        return true;
    }
    match opcode.as_str() {
        "convert" => tensor(op.operand(0)).is_some_and(|s| is_int_like(&s.elem)),
        "iota" => true,
        "constant" => match splat_float(v) {
            Some(f) => f == 0.0 || f.is_infinite() || (f.is_finite() && f.abs() >= min_normal(&t.elem)),
            None => false,
        },
        "concatenate" if depth > 0 => op.operands().into_iter().all(|x| canonical_at(x, depth - 1)),
        "select" if depth > 0 => canonical_at(op.operand(1), depth - 1) && canonical_at(op.operand(2), depth - 1),
        _ if depth > 0 && MOVERS.contains(&opcode.as_str()) => canonical_at(op.operand(0), depth - 1),
        _ => false,
    }
}

/// The smallest positive normal value of a float type (f16's subnormals
/// are normal in the f32 the interpreter computes in, so they count).
fn min_normal(elem: &ElementType) -> f64 {
    match elem.0.as_str() {
        "f64" => f64::MIN_POSITIVE,
        "f32" | "bf16" => f32::MIN_POSITIVE as f64,
        _ => 0.0,
    }
}

/// True if float identities `x op c -> x` are exact for `x`: integers and
/// pred always, the standard float types when `x` is canonical.
pub(crate) fn identity_ok(x: Value, elem: &ElementType) -> bool {
    is_int_like(elem) || (is_std_float(elem) && canonical(x))
}

/// True if an op that returns one of its operands' bits (maximum, minimum,
/// negate twice) returns them unchanged for `x`: always for integers, pred,
/// f32 and f64; for f16/bf16 maximum/minimum go through f32, which quiets a
/// signalling NaN, so `x` must be canonical there.
pub(crate) fn selection_ok(x: Value, elem: &ElementType) -> bool {
    is_int_like(elem) || is_native_float(elem) || (is_std_float(elem) && canonical(x))
}

/// The `comparison_direction` of a compare.
pub(crate) fn direction(op: Op) -> Option<String> {
    rxla_ir::attrs::enum_case(op, "comparison_direction")
}

/// The explicit `compare_type` of a compare, if any.
pub(crate) fn compare_type(op: Op) -> Option<String> {
    rxla_ir::attrs::enum_case(op, "compare_type")
}

/// True if the compare orders its integer (or pred) operands as their
/// element type says (no compare_type, or the type's own).
pub(crate) fn default_int_compare(op: Op, elem: &ElementType) -> bool {
    match compare_type(op).as_deref() {
        None => true,
        Some("SIGNED") => elem.is_signed_int(),
        Some("UNSIGNED") => elem.is_unsigned_int() || elem.is_pred(),
        Some(_) => false,
    }
}

/// True if `v` is known to hold only non-negative integers (XLA's
/// IsNonNegative, integer cases): iotas that do not wrap, abs of a
/// non-negative value, broadcasts, non-negative constants, min/max/select
/// of non-negative values; every unsigned value.
pub(crate) fn non_negative_int(v: Value) -> bool {
    non_negative_at(v, 8)
}

fn non_negative_at(v: Value, depth: u32) -> bool {
    let Some(t) = tensor(v) else { return false };
    if t.elem.is_unsigned_int() || t.elem.is_pred() {
        return true;
    }
    if !t.elem.is_signed_int() {
        return false;
    }
    if let Some(i) = splat_int(v) {
        return i >= 0;
    }
    let Some(op) = v.op() else { return false };
    if depth == 0 {
        return false;
    }
    let d = depth - 1;
    match op.opcode().as_str() {
        "iota" => {
            let dim = op.int_attr("iota_dimension").unwrap_or(-1);
            if dim < 0 || dim as usize >= t.rank() {
                return false;
            }
            let bits = int_bits(&t.elem);
            bits >= 64 || (t.dims[dim as usize] as u128) <= (1u128 << (bits - 1))
        }
        "abs" | "broadcast" | "reshape" | "transpose" | "slice" | "reverse" | "copy" => {
            non_negative_at(op.operand(0), d)
        }
        "minimum" => non_negative_at(op.operand(0), d) && non_negative_at(op.operand(1), d),
        "maximum" => non_negative_at(op.operand(0), d) || non_negative_at(op.operand(1), d),
        "select" => non_negative_at(op.operand(1), d) && non_negative_at(op.operand(2), d),
        _ => false,
    }
}

/// The defining op of `v` if it is `hlo.<opcode>` and eligible for
/// looking through (no control dependencies).
pub(crate) fn def(v: Value, opcode: &str) -> Option<Op> {
    v.defined_by(opcode).filter(|op| !op.has_attr("hlo.control_predecessors"))
}

/// The single elementwise binary op a reducer computation applies to its
/// two scalar parameters: (opcode, swapped) where swapped means
/// `op(p1, p0)`. Callers check the properties they need (associativity,
/// identities) per opcode.
pub(crate) fn reducer_binary_op(op: Op, attr: &str) -> Option<(String, bool)> {
    let name = op.symbol_attr(attr)?;
    let module = op.parent_module()?;
    let func = rxla_ir::computation::lookup(module, &name)?;
    let args = func.arguments();
    if args.len() != 2 {
        return None;
    }
    let body = func.body_ops();
    if body.len() != 2 {
        return None;
    }
    let (bin, ret) = (body[0], body[1]);
    if ret.name() != "func.return" || ret.num_operands() != 1 || bin.num_results() != 1 {
        return None;
    }
    if !ret.operand(0).same_as(bin.result(0)) || bin.num_operands() != 2 || !bin.name().starts_with("hlo.") {
        return None;
    }
    let (a, b) = (bin.operand(0), bin.operand(1));
    let swapped = if a.same_as(args[0]) && b.same_as(args[1]) {
        false
    } else if a.same_as(args[1]) && b.same_as(args[0]) {
        true
    } else {
        return None;
    };
    let opcode = bin.opcode();
    matches!(
        opcode.as_str(),
        "add"
            | "subtract"
            | "multiply"
            | "divide"
            | "remainder"
            | "power"
            | "maximum"
            | "minimum"
            | "and"
            | "or"
            | "xor"
            | "atan2"
    )
    .then_some((opcode, swapped))
}

/// The identity element of a binary reducer on `elem`, when applying the
/// reducer to it and `x` returns `x` bit for bit for every `x` the type
/// holds (so integers and pred, and float maximum/minimum with -inf/+inf).
pub(crate) fn exact_identity(opcode: &str, elem: &ElementType) -> Option<Scalar> {
    if is_int_like(elem) {
        let all_ones = if elem.is_pred() {
            Scalar::Bool(true)
        } else if elem.is_signed_int() {
            Scalar::Int(-1)
        } else {
            Scalar::Int((1i128 << elem.bit_width()) - 1)
        };
        return Some(match opcode {
            "add" | "or" | "xor" => zero_of(elem),
            "multiply" => one_of(elem),
            "and" => all_ones,
            "maximum" => constant::min_value(elem)?,
            "minimum" => constant::max_value(elem)?,
            _ => return None,
        });
    }
    if is_native_float(elem) {
        return match opcode {
            "maximum" => Some(Scalar::Float(f64::NEG_INFINITY)),
            "minimum" => Some(Scalar::Float(f64::INFINITY)),
            _ => None,
        };
    }
    None
}

/// True if the scalar constant `v` equals `s` exactly (sign of zero
/// included).
pub(crate) fn splat_equals(v: Value, s: Scalar) -> bool {
    match (constant::splat(v), s) {
        (Some(Scalar::Float(a)), Scalar::Float(b)) => a.to_bits() == b.to_bits() || (a == b && a != 0.0),
        (Some(Scalar::Int(a)), Scalar::Int(b)) => a == b,
        (Some(Scalar::Bool(a)), Scalar::Bool(b)) => a == b,
        (Some(Scalar::Int(a)), Scalar::Bool(b)) => a == b as i128,
        _ => false,
    }
}

/// Helper for rules that build several ops: the element type of the op's
/// result.
pub(crate) fn elem(op: Op) -> Option<ElementType> {
    result_tensor(op).map(|t| t.elem)
}
