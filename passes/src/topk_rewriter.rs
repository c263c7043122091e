//! `topk-rewriter`: a sort of which only the first `k` elements along the
//! sort dimension are used becomes `hlo.topk`, as XLA:CPU's TopkRewriter
//! turns it into its `TopK` runtime call.
//!
//! Matched (the shapes XLA's client library and JAX's `approx_max_k` emit):
//! - `sort(x)` or `sort(x, iota)`, the iota of s32 along the sort dimension
//!   (or a broadcast of a 1-D one), so the second result holds positions;
//! - a comparator whose root compares the two values of `x` directly:
//!   `compare(lhs, rhs), GT` (or `compare(rhs, lhs), LT`) for the largest,
//!   the opposite directions for the smallest; floats compared either way
//!   (XLA's TopK orders floats in total order too), integers by their
//!   signedness;
//! - every use of every result a `slice` starting at 0 with stride 1 that
//!   keeps all of the other dimensions and the first `k < n` elements of the
//!   sort dimension, the same `k` for all, with the default layout.
//!
//! The sort dimension is moved last (transposes) when it is not. A top-k
//! selection is `O(n)` per row for small `k`, the sort `O(n log n)`; and a
//! float comparator without total order cannot use the runtime's key sort,
//! so such a sort called the comparator for every comparison.
//!
//! Ties: the top-k lists equal values by position, as a stable sort does.
//! With NaNs, a comparator that is not a total order defines no order; the
//! top-k's is IEEE total order (NaN above +inf), as XLA's TopK. -0 and +0
//! compare equal under such a comparator; the top-k orders +0 first.

use melior::ir::OperationRef;
use rxla_ir::{
    attrs::{self, enum_case},
    builder::Builder,
    computation,
    layout::layout_of,
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::{ElementType, HloType, TensorType},
};

#[derive(Clone, Debug)]
pub struct TopkRewriter;

impl HloPass for TopkRewriter {
    const NAME: &'static str = "topk-rewriter";
    const DESCRIPTION: &'static str =
        "Rewrite a sort of which only the first k elements are used as hlo.topk (XLA's TopkRewriter)";
    const EXACT: bool = false;

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        let mut dead = Vec::new();
        for func in computation::functions(module) {
            for op in func.walk_preorder() {
                if op.is("sort") {
                    if let Some(m) = match_topk(module, op) {
                        dead.extend(rewrite(op, &m)?);
                    }
                }
            }
        }
        // After the walk, whose list holds the ops after these.
        for op in dead {
            op.erase();
        }
        Ok(())
    }
}

/// What a matched sort computes.
struct TopkMatch {
    /// The sort dimension.
    dim: i64,
    k: i64,
    largest: bool,
    /// The slices of result 0 (values) and of result 1 (positions).
    slices: [Vec<Op>; 2],
}

fn match_topk(module: Op, sort: Op) -> Option<TopkMatch> {
    let n_ops = sort.num_operands();
    if !(n_ops == 1 || n_ops == 2) || sort.num_results() != n_ops {
        return None;
    }
    let x = sort.operand(0).ty().tensor()?.clone();
    let dim = sort.int_attr("dimension")?;
    let rank = x.rank() as i64;
    if rank == 0 || dim < 0 || dim >= rank || !(x.elem.is_float() || x.elem.is_integer()) {
        return None;
    }
    if !matches!(x.elem.bit_width(), 8 | 16 | 32 | 64) || (x.elem.is_float() && x.elem.bit_width() == 8) {
        return None;
    }
    if n_ops == 2 && !is_positions(sort.operand(1), &x, dim) {
        return None;
    }
    let comparator = computation::lookup(module, &sort.symbol_attr("to_apply")?)?;
    let largest = compares_values(comparator, &x)?;
    let n = x.dims[dim as usize];
    let mut k = None;
    let mut slices: [Vec<Op>; 2] = [Vec::new(), Vec::new()];
    for (r, list) in slices.iter_mut().enumerate().take(n_ops) {
        for (user, _) in sort.result(r).uses() {
            let limit = leading_slice(user, &x.dims, dim)?;
            if *k.get_or_insert(limit) != limit {
                return None;
            }
            list.push(user);
        }
    }
    let k = k?;
    if k >= n {
        return None;
    }
    Some(TopkMatch { dim, k, largest, slices })
}

/// True if `v` is the s32 position along `dim` of every element of `x`.
fn is_positions(v: Value, x: &TensorType, dim: i64) -> bool {
    let Some(t) = v.ty().into_tensor() else { return false };
    if t.dims != x.dims || !t.elem.is_signed_int() || t.elem.bit_width() != 32 || !layout_of(v).is_default() {
        return false;
    }
    let Some(op) = v.op() else { return false };
    if op.is("iota") {
        return op.int_attr("iota_dimension") == Some(dim);
    }
    if op.is("broadcast") && op.dims_attr("dimensions").as_deref() == Some(&[dim][..]) {
        let src = op.operand(0);
        return src.ty().tensor().is_some_and(|s| s.rank() == 1)
            && src.op().is_some_and(|o| o.is("iota") && o.int_attr("iota_dimension") == Some(0));
    }
    false
}

/// `Some(largest)` if the comparator's root compares its first two
/// parameters (the values) directly in `x`'s order.
fn compares_values(comparator: Op, x: &TensorType) -> Option<bool> {
    let args = comparator.arguments();
    let root = *comparator.return_values().first()?;
    let cmp = root.op().filter(|o| o.is("compare"))?;
    let direction = enum_case(cmp, "comparison_direction")?;
    let ordered = match enum_case(cmp, "compare_type").as_deref() {
        None => true,
        Some("FLOAT") | Some("TOTALORDER") => x.elem.is_float(),
        Some("SIGNED") => x.elem.is_signed_int(),
        Some("UNSIGNED") => x.elem.is_unsigned_int(),
        Some(_) => false,
    };
    if !ordered || args.len() < 2 {
        return None;
    }
    let (a, b) = (cmp.operand(0), cmp.operand(1));
    let forward = a == args[0] && b == args[1];
    let backward = a == args[1] && b == args[0];
    match (direction.as_str(), forward, backward) {
        ("GT", true, _) | ("LT", _, true) => Some(true),
        ("LT", true, _) | ("GT", _, true) => Some(false),
        _ => None,
    }
}

/// The `k` of a slice `[0:k]` along `dim` that keeps every other dimension
/// of `dims`, with stride 1 and the default layout.
fn leading_slice(op: Op, dims: &[i64], dim: i64) -> Option<i64> {
    if !op.is("slice") || !layout_of(op.result(0)).is_default() {
        return None;
    }
    let (start, limit, strides) =
        (op.dims_attr("start_indices")?, op.dims_attr("limit_indices")?, op.dims_attr("strides")?);
    let other_full = (0..dims.len()).all(|i| i as i64 == dim || limit[i] == dims[i]);
    if start.iter().any(|&s| s != 0) || strides.iter().any(|&s| s != 1) || !other_full {
        return None;
    }
    Some(limit[dim as usize])
}

/// Replaces the slices by a top-k; returns the ops to erase.
fn rewrite(sort: Op, m: &TopkMatch) -> Result<Vec<Op>, PassError> {
    let b = Builder::before(sort).at_location_of(sort);
    let x = sort.operand(0);
    let t = Builder::tensor(x)?;
    let (rank, dim) = (t.rank() as i64, m.dim);
    // The sort dimension moved last, and its inverse.
    let perm: Vec<i64> = (0..rank).filter(|&d| d != dim).chain([dim]).collect();
    let moved = dim != rank - 1;
    let input = if moved { b.transpose(x, &perm)? } else { x };
    let mut out_dims = Builder::tensor(input)?.dims;
    *out_dims.last_mut().expect("rank >= 1") = m.k;
    let values_ty = TensorType::new(&out_dims, &t.elem);
    let positions_ty = TensorType::new(&out_dims, &ElementType::new("i32"));
    let topk = b.create(
        "hlo.topk",
        &[input],
        &[HloType::Tensor(values_ty), HloType::Tensor(positions_ty)],
        &[("k", b.i64_attr(m.k)), ("largest", attrs::boolean(b.context(), m.largest))],
    )?;
    let mut inverse = vec![0; perm.len()];
    for (i, &p) in perm.iter().enumerate() {
        inverse[p as usize] = i as i64;
    }
    let mut dead = Vec::new();
    for (r, slices) in m.slices.iter().enumerate() {
        if slices.is_empty() {
            continue;
        }
        let result = if moved { b.transpose(topk.result(r), &inverse)? } else { topk.result(r) };
        for &slice in slices {
            slice.replace_result_uses(0, result);
            dead.push(slice);
        }
    }
    dead.push(sort);
    Ok(dead)
}
