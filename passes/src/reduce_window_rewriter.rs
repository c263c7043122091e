//! `reduce-window-rewriter`: XLA's `ReduceWindowRewriter`
//! (xla/hlo/transforms/simplifiers/reduce_window_rewriter.cc), which XLA:GPU
//! runs to give its reduce-window emitter friendlier shapes:
//!
//! - **Long scans as trees.** A reduce-window that is a cumulative
//!   reduction (every window dimension trivial but one, whose window spans
//!   the whole dimension of length `L` with stride 1, padded `L - 1`
//!   (inclusive) or `L` (exclusive) on one side and 0 on the other) over
//!   `L > base-length` elements becomes a two-level scan: the dimension is
//!   moved last (transpose), padded with the init value to a multiple of
//!   `base-length`, reshaped to `[..., L / base, base]`, scanned within each
//!   row (outer reduce-window), the row totals (last column; first for
//!   reverse scans) scanned exclusively across rows (inner reduce-window),
//!   broadcast back and combined with the row scans by a `map` of the
//!   reducer; then reshaped, transposed back, sliced to `L`, and for
//!   exclusive scans padded with one init value.
//! - **Rank 1 to rank 2.** Any other reduce-window over rank-1 inputs is
//!   computed on `[N, 1]` reshapes of its inputs with a trivial window
//!   dimension appended, and its results reshaped back.
//!
//! The tree form reassociates the reduction, which XLA assumes is
//! associative and commutative with the init value as identity. rxla only
//! takes it when that holds: a single input whose reducer is one `add`,
//! `multiply`, `maximum`, `minimum`, `and` or `or` of its two parameters and
//! whose init value is a constant equal to that op's identity (0, 1, the
//! type's lowest or highest value, all ones, false). Float sums and products
//! round differently in tree order, so the pass is declared inexact; the
//! rank-1 rewrite alone is exact. New shapes get default layouts (XLA gives
//! the appended dimension the most-major position, the same physical
//! order).
//!
//! Option `base-length` (default 16): the row length of the tree.

use crate::constant::{max_value, min_value, splat, Scalar};
use melior::ir::OperationRef;
use rxla_ir::{
    attrs::{Window, WindowDim},
    builder::Builder,
    computation,
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::{shape, HloType, TensorType},
};

type Result<T> = std::result::Result<T, PassError>;

#[derive(Clone, Debug)]
pub struct ReduceWindowRewriter {
    base_length: i64,
}

impl HloPass for ReduceWindowRewriter {
    const NAME: &'static str = "reduce-window-rewriter";
    const DESCRIPTION: &'static str =
        "Rewrite long cumulative reduce-windows into tree scans and rank-1 reduce-windows into rank 2";
    const EXACT: bool = false;

    fn from_options(options: &PassOptions) -> Result<Self> {
        options.expect_only(Self::NAME, &["base-length"])?;
        let base_length = options.int("base-length", 16)?;
        if base_length < 1 {
            return Err(PassError(format!("option 'base-length' must be positive, got {base_length}")));
        }
        Ok(Self { base_length })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<()> {
        let module = Op::of(&module);
        // A tree's scan of the row totals is itself long when L > base^2
        // (a cumsum over 1000 elements: 63 totals): rounds until no scan is
        // left to split, as XLA's totals are scanned by the same tree.
        for _ in 0..MAX_ROUNDS {
            if !self.round(module)? {
                break;
            }
        }
        Ok(())
    }
}

/// Rounds of tree splitting: each divides the longest scan by the base
/// length (16^8 elements is far beyond any array).
const MAX_ROUNDS: usize = 8;

impl ReduceWindowRewriter {
    /// One walk over the module; true if a scan became a tree.
    fn round(&self, module: Op) -> Result<bool> {
        let mut split = false;
        for func in computation::functions(module) {
            for op in func.walk_preorder() {
                if !op.is("reduce_window") || op.num_operands() == 0 || op.num_operands() % 2 != 0 {
                    continue;
                }
                let Some(window) = Window::of(op) else { continue };
                let n = op.num_operands() / 2;
                let inputs: Vec<TensorType> = (0..n).filter_map(|i| op.operand_type(i).tensor().cloned()).collect();
                let outputs: Vec<TensorType> =
                    (0..op.num_results()).filter_map(|i| op.result_type(i).tensor().cloned()).collect();
                if inputs.len() != n || outputs.len() != n || window.0.len() != inputs[0].rank() {
                    continue;
                }
                if self.try_tree_scan(module, op, &window, &inputs[0])? {
                    split = true;
                    continue;
                }
                if inputs[0].rank() == 1 {
                    rank1_to_rank2(op, &window, &outputs)?;
                }
            }
        }
        Ok(split)
    }
}

fn is_trivial(w: &WindowDim) -> bool {
    w.size == 1 && w.stride == 1 && w.pad_low == 0 && w.pad_high == 0 && w.lhs_dilation == 1 && w.rhs_dilation == 1
}

/// Replaces `op`'s results with `values`, moving its metadata and layout
/// (layouts only for single-result ops), and erases it.
fn replace(op: Op, values: &[Value]) {
    if let (Some(meta), Some(last)) = (op.attr_raw("hlo.metadata"), values.last().and_then(|v| v.op())) {
        last.set_attr_raw("hlo.metadata", meta);
    }
    if let (1, Some(layout), Some(new)) = (values.len(), op.attr_raw("hlo.layout"), values[0].op()) {
        new.set_attr_raw("hlo.layout", layout);
    }
    for (i, v) in values.iter().enumerate() {
        op.replace_result_uses(i, *v);
    }
    op.erase();
}

/// XLA's `ReplaceReduceWindowWithReshape`: a rank-1 reduce-window computed
/// on `[N, 1]` inputs.
fn rank1_to_rank2(op: Op, window: &Window, outputs: &[TensorType]) -> Result<()> {
    let n = outputs.len();
    let b = Builder::before(op);
    let mut operands = Vec::with_capacity(2 * n);
    for i in 0..n {
        let x = op.operand(i);
        let len = x.ty().tensor().map(|t| t.dims[0]).unwrap_or(0);
        operands.push(b.reshape(x, &[len, 1])?);
    }
    operands.extend((n..2 * n).map(|i| op.operand(i)));
    let mut window2 = window.clone();
    window2.0.push(WindowDim::trivial());
    let results: Vec<HloType> = outputs.iter().map(|t| t.with_dims(&[t.dims[0], 1]).into()).collect();
    let Some(to_apply) = op.attr_raw("to_apply") else { return Ok(()) };
    let window2 = b.struct_attr(&window2.to_struct())?;
    let rw = b.create("hlo.reduce_window", &operands, &results, &[("window", window2), ("to_apply", to_apply)])?;
    let values: Vec<Value> =
        outputs.iter().enumerate().map(|(i, t)| b.reshape(rw.result(i), &t.dims)).collect::<Result<_>>()?;
    replace(op, &values);
    Ok(())
}

/// The opcode of a reducer that is a single binary op of its two
/// parameters (either order).
fn binary_reducer(func: Op) -> Option<String> {
    let args = func.arguments();
    let body = func.body_ops();
    if args.len() != 2 || body.len() != 2 {
        return None;
    }
    let (op, ret) = (body[0], body[1]);
    let returns_op = ret.num_operands() == 1 && ret.operand(0).op() == Some(op);
    let on_params = op.num_operands() == 2
        && ((op.operand(0) == args[0] && op.operand(1) == args[1])
            || (op.operand(0) == args[1] && op.operand(1) == args[0]));
    let opcode = op.name().strip_prefix("hlo.")?.to_string();
    let known = matches!(opcode.as_str(), "add" | "multiply" | "maximum" | "minimum" | "and" | "or");
    (returns_op && on_params && known).then_some(opcode)
}

/// True if `init` is the identity of `opcode` on its element type.
fn is_identity(opcode: &str, init: Value) -> bool {
    let (Some(value), Some(t)) = (splat(init), init.ty().into_tensor()) else { return false };
    let elem = &t.elem;
    match opcode {
        "add" | "or" => value.is_zero(),
        "multiply" => value.is_one(),
        "and" if elem.is_pred() => value.is_one(),
        "and" if elem.is_signed_int() => value == Scalar::Int(-1),
        "and" if elem.is_unsigned_int() => Some(value) == max_value(elem),
        "maximum" => Some(value) == min_value(elem),
        "minimum" => Some(value) == max_value(elem),
        _ => false,
    }
}

impl ReduceWindowRewriter {
    /// XLA's `TryOptimizeCumSumOrProd`, for single-input reductions with
    /// an associative reducer and an identity init value.
    fn try_tree_scan(&self, module: Op, op: Op, window: &Window, input: &TensorType) -> Result<bool> {
        let rank = input.rank();
        let mut scan_dim = None;
        for (i, w) in window.0.iter().enumerate() {
            if is_trivial(w) {
                continue;
            }
            if scan_dim.is_some() {
                return Ok(false);
            }
            scan_dim = Some(i);
        }
        let Some(scan_dim) = scan_dim else { return Ok(false) };
        let length = input.dims[scan_dim];
        let w = &window.0[scan_dim];
        let forward = (w.pad_low == length - 1 || w.pad_low == length) && w.pad_high == 0;
        let reverse = (w.pad_high == length - 1 || w.pad_high == length) && w.pad_low == 0;
        if w.stride != 1
            || w.size != length
            || !(forward || reverse)
            || w.reversal
            || w.lhs_dilation != 1
            || w.rhs_dilation != 1
        {
            return Ok(false);
        }
        let exclusive = if forward { w.pad_low == length } else { w.pad_high == length };
        if length <= self.base_length || op.num_operands() != 2 {
            return Ok(false);
        }
        let Some(to_apply) = op.symbol_attr("to_apply") else { return Ok(false) };
        let Some(reducer) = computation::lookup(module, &to_apply) else { return Ok(false) };
        let Some(opcode) = binary_reducer(reducer) else { return Ok(false) };
        let (x, init) = (op.operand(0), op.operand(1));
        if !is_identity(&opcode, init) {
            return Ok(false);
        }
        let Some(result_type) = op.result_type(0).tensor().cloned() else { return Ok(false) };

        let base = self.base_length;
        let b = Builder::before(op);
        let reducer_ref = b.symbol_ref(&to_apply);
        let reduce_window = |x: Value, window: &Window, out: &TensorType| -> Result<Value> {
            let window = b.struct_attr(&window.to_struct())?;
            let op = b.create(
                "hlo.reduce_window",
                &[x, init],
                &[out.clone().into()],
                &[("window", window), ("to_apply", reducer_ref)],
            )?;
            Ok(op.result(0))
        };

        // Scan dimension last.
        let mut permutation: Vec<i64> = (0..rank as i64).collect();
        permutation.swap(scan_dim, rank - 1);
        let mut source = x;
        if scan_dim != rank - 1 {
            source = b.transpose(source, &permutation)?;
        }
        let source_dims = shape::permute(&input.dims, &permutation);
        // Pad to a multiple of the base length.
        let padded = (length + base - 1) / base * base;
        let mut padded_dims = source_dims.clone();
        padded_dims[rank - 1] = padded;
        if padded != length {
            let mut high = vec![0; rank];
            high[rank - 1] = padded - length;
            source = b.pad(source, init, &vec![0; rank], &high, &vec![0; rank])?;
        }
        // [..., columns, base].
        let columns = padded / base;
        let mut tiled_dims = padded_dims.clone();
        tiled_dims[rank - 1] = columns;
        tiled_dims.push(base);
        let tiled_type = input.with_dims(&tiled_dims);
        let tiled = b.reshape(source, &tiled_dims)?;

        // Scan within each row.
        let trivial = WindowDim::trivial();
        let mut outer_window = Window(vec![trivial.clone(); rank + 1]);
        outer_window.0[rank].size = base;
        if forward {
            outer_window.0[rank].pad_low = base - 1;
        } else {
            outer_window.0[rank].pad_high = base - 1;
        }
        let outer = reduce_window(tiled, &outer_window, &tiled_type)?;

        // Row totals: the last column (first for reverse scans).
        let mut starts = vec![0; rank + 1];
        let mut limits = tiled_dims.clone();
        if forward {
            starts[rank] = base - 1;
        } else {
            limits[rank] = 1;
        }
        let column = b.slice(outer, &starts, &limits, &vec![1; rank + 1])?;
        let column_dims = tiled_dims[..rank].to_vec();
        let column = b.reshape(column, &column_dims)?;

        // Exclusive scan of the totals across rows.
        let mut inner_window = Window(vec![trivial; rank]);
        inner_window.0[rank - 1].size = columns;
        if forward {
            inner_window.0[rank - 1].pad_low = columns;
        } else {
            inner_window.0[rank - 1].pad_high = columns;
        }
        let mut inner_dims = column_dims.clone();
        inner_dims[rank - 1] = columns + 1;
        let inner = reduce_window(column, &inner_window, &input.with_dims(&inner_dims))?;
        let mut starts = vec![0; rank];
        let mut limits = inner_dims.clone();
        if forward {
            limits[rank - 1] = columns;
        } else {
            starts[rank - 1] = 1;
        }
        let inner = b.slice(inner, &starts, &limits, &vec![1; rank])?;
        let rank_iota: Vec<i64> = (0..rank as i64).collect();
        let inner = b.broadcast(inner, &rank_iota, &tiled_dims)?;

        // Combine, then undo the reshape, transpose and padding.
        let all_dims: Vec<i64> = (0..=rank as i64).collect();
        let mut scan = b
            .create(
                "hlo.map",
                &[outer, inner],
                &[tiled_type.into()],
                &[("dimensions", b.dims_attr(&all_dims)), ("to_apply", reducer_ref)],
            )?
            .result(0);
        scan = b.reshape(scan, &padded_dims)?;
        if scan_dim != rank - 1 {
            scan = b.transpose(scan, &permutation)?;
        }
        if padded != length {
            scan = b.slice(scan, &vec![0; rank], &input.dims, &vec![1; rank])?;
        }
        if exclusive {
            let (mut low, mut high) = (vec![0; rank], vec![0; rank]);
            if forward {
                low[scan_dim] = 1;
            } else {
                high[scan_dim] = 1;
            }
            scan = b.pad(scan, init, &low, &high, &vec![0; rank])?;
        }
        if scan.ty() != HloType::from(result_type) {
            return Err(PassError(format!(
                "internal error: tree scan of type {} for {}",
                scan.ty(),
                op.result_type(0)
            )));
        }
        replace(op, &[scan]);
        Ok(true)
    }
}
