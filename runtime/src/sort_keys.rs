//! Sorting by keys: recognizes comparators that compare one key per
//! element and builds the computation of those keys.
//!
//! A comparator `compare(g(lhs0), g(rhs0)), direction=LT|GT` — the same
//! elementwise function `g` of operand 0 on both sides, compared in a total
//! order (integers, or floats with `type=TOTALORDER`) — orders the elements
//! by the keys `g(x)`. XLA's GPU sort rewriter uses the same observation to
//! call a radix sort. The keys are computed for all elements at once by a
//! kernel (`g` applied to the whole operand, emitted like a fusion), and the
//! runtime sorts `(key, position)` pairs (`rxla_library::key_sort`) instead
//! of calling the comparator `n log n` times. JAX's `sort`, `argsort` and
//! `top_k` produce such comparators (`g` canonicalizes -0 and NaN and maps
//! the float's bits to an ordered integer).
//!
//! The other operands do not take part in the comparison, so their order
//! for equal keys is the input order (the sort is stable), which is a valid
//! result of a sort of any stability.
//!
//! Floats compared without `type=TOTALORDER` (XLA's client library and
//! `approx_max_k` emit such comparators) are ordered as in total order
//! except that -0 and +0 are equal: their keys map -0 to +0 first, so
//! zeros keep their input order as a stable sort leaves them. NaN compares
//! false with everything in that order, which is no strict weak order: the
//! comparator defines no result for it, and the keys place NaN as total
//! order does (above +inf, or below -inf when negative).

use mlir_sys::MlirAttribute;
use rxla_ir::{
    attrs::enum_case,
    builder::Builder,
    computation,
    op::{Op, Value},
    types::{HloType, TensorType},
    PassError,
};
use rxla_library::key_sort::KeyOrder;
use rxla_passes::constant::{ConstantBuilder, Scalar};
use std::collections::HashMap;

/// A comparator that orders by one key per element.
#[derive(Clone, Debug)]
pub struct KeyComparator {
    /// `g(lhs0)`: the key of the comparator's first parameter.
    pub key: Value,
    /// The comparator's first parameter (`lhs0`).
    pub param: Value,
    pub descending: bool,
    pub order: KeyOrder,
    /// Floats compared in IEEE order (-0 == +0): -0 keys become +0.
    pub zeros_equal: bool,
}

/// Elementwise ops `g` may consist of (every other op, even a pure one,
/// disables the fast path).
const ELEMENTWISE: &[&str] = &[
    "abs",
    "add",
    "and",
    "bitcast_convert",
    "clamp",
    "compare",
    "constant",
    "convert",
    "maximum",
    "minimum",
    "multiply",
    "negate",
    "not",
    "or",
    "select",
    "shift_left",
    "shift_right_arithmetic",
    "shift_right_logical",
    "sign",
    "subtract",
    "xor",
    "reduce_precision",
    "round_nearest_even",
    "round_nearest_afz",
    "floor",
    "ceil",
    "is_finite",
];

/// The key comparator `comparator` is, if it is one.
pub fn analyze(comparator: Op) -> Option<KeyComparator> {
    let args = comparator.arguments();
    if args.len() < 2 || !args.len().is_multiple_of(2) {
        return None;
    }
    let root = *comparator.return_values().first()?;
    let cmp = root.op().filter(|o| o.is("compare"))?;
    let direction = enum_case(cmp, "comparison_direction")?;
    let (a, b) = (cmp.operand(0), cmp.operand(1));
    let mut memo = HashMap::new();
    let (key, descending) = if iso(a, b, args[0], args[1], &mut memo) {
        (a, direction == "GT")
    } else if iso(b, a, args[0], args[1], &mut memo) {
        (b, direction == "LT")
    } else {
        return None;
    };
    if !matches!(direction.as_str(), "LT" | "GT") {
        return None;
    }
    let elem = key.ty().tensor()?.elem.clone();
    let compare_type = enum_case(cmp, "compare_type");
    let zeros_equal = elem.is_float() && matches!(compare_type.as_deref(), None | Some("FLOAT"));
    let order = match compare_type.as_deref() {
        Some("TOTALORDER") if elem.is_float() => KeyOrder::TotalOrder,
        // IEEE order, in which NaN is unordered (see the module's doc).
        None | Some("FLOAT") if elem.is_float() => KeyOrder::TotalOrder,
        Some("SIGNED") if elem.is_integer() || elem.is_pred() => KeyOrder::Signed,
        Some("UNSIGNED") if elem.is_integer() || elem.is_pred() => KeyOrder::Unsigned,
        None if elem.is_signed_int() => KeyOrder::Signed,
        None if elem.is_unsigned_int() || elem.is_pred() => KeyOrder::Unsigned,
        _ => return None,
    };
    if !matches!(elem.bit_width(), 8 | 16 | 32 | 64) {
        return None;
    }
    Some(KeyComparator { key, param: args[0], descending, order, zeros_equal })
}

/// True if `a` computes from `pa` what `b` computes from `pb`, with the
/// same elementwise ops and constants, and nothing else.
fn iso(a: Value, b: Value, pa: Value, pb: Value, memo: &mut HashMap<(Value, Value), bool>) -> bool {
    if a == pa && b == pb {
        return true;
    }
    if let Some(&r) = memo.get(&(a, b)) {
        return r;
    }
    let r = match (a.op(), b.op()) {
        (Some(x), Some(y)) => {
            let opcode = x.opcode();
            x.name() == y.name()
                && x.name().starts_with("hlo.")
                && ELEMENTWISE.contains(&opcode.as_str())
                && x.num_operands() == y.num_operands()
                && x.num_results() == 1
                && y.num_results() == 1
                && same_attrs(x, y)
                && (0..x.num_operands()).all(|i| iso(x.operand(i), y.operand(i), pa, pb, memo))
        }
        _ => false,
    };
    memo.insert((a, b), r);
    r
}

/// An op's attributes without its name.
fn attrs(op: Op) -> Vec<(String, MlirAttribute)> {
    op.attrs_raw().into_iter().filter(|(k, _)| k != "hlo.name").collect()
}

/// The same attributes (uniqued: equal attributes are one pointer).
fn same_attrs(x: Op, y: Op) -> bool {
    let (a, b) = (attrs(x), attrs(y));
    a.len() == b.len() && a.iter().zip(&b).all(|((k, v), (l, w))| k == l && v.ptr == w.ptr)
}

/// A function `(operand tensor) -> keys` applying `g` to every element of
/// a tensor of type `operand` (added to `module`, named after `hint`).
pub fn key_function(module: Op, cmp: &KeyComparator, operand: &TensorType, hint: &str) -> Result<Op, PassError> {
    let key_elem = cmp.key.ty().tensor().expect("an array key").elem.clone();
    let out = HloType::Tensor(TensorType::new(&operand.dims, &key_elem));
    let (func, b, args) = computation::create_function(module, hint, &[HloType::Tensor(operand.clone())], &[out])?;
    let mut mapped: HashMap<Value, Value> = HashMap::new();
    mapped.insert(cmp.param, args[0]);
    let mut key = lift(&b, cmp.key, &operand.dims, &mut mapped)?;
    if cmp.zeros_equal {
        // select(key == 0, +0, key): -0 and +0 get one key.
        let zero = b.scalar(&key_elem, Scalar::Float(0.0))?;
        let zeros = b.broadcast_scalar(zero, &operand.dims)?;
        let is_zero = b.compare("EQ", key, zeros, None)?;
        key = b.select(is_zero, zeros, key)?;
    }
    b.ret(&[key])?;
    Ok(func)
}

/// `v` (a scalar of the comparator) computed for every element.
fn lift(b: &Builder, v: Value, dims: &[i64], mapped: &mut HashMap<Value, Value>) -> Result<Value, PassError> {
    if let Some(&m) = mapped.get(&v) {
        return Ok(m);
    }
    let op = v.op().ok_or_else(|| PassError("a key depends on another comparator parameter".into()))?;
    let elem = v.ty().tensor().ok_or_else(|| PassError("a non-array value in a key".into()))?.elem.clone();
    let result = if op.is("constant") {
        let scalar = op.clone_detached();
        b.insert(scalar.raw());
        b.broadcast_scalar(scalar.result(0), dims)?
    } else {
        let operands: Vec<Value> =
            op.operands().into_iter().map(|x| lift(b, x, dims, mapped)).collect::<Result<_, _>>()?;
        let attrs = attrs(op);
        let attrs: Vec<(&str, MlirAttribute)> = attrs.iter().map(|(k, a)| (k.as_str(), *a)).collect();
        b.value(&op.name(), &operands, HloType::Tensor(TensorType::new(dims, &elem)), &attrs)?
    };
    mapped.insert(v, result);
    Ok(result)
}
