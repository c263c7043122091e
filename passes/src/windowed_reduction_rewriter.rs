//! `windowed-reduction-rewriter`: bf16 and f16 reductions in XLA:CPU's
//! order, sequential sums over windows of 32.
//!
//! XLA:CPU runs the generic `TreeReductionRewriter` with a window of 32
//! (xla/hlo/transforms/simplifiers/tree_reduction_rewriter.cc): a reduce
//! with a reduced dimension longer than 32 becomes a `reduce-window` whose
//! window is 32 (stride 32) along every reduced dimension, padded evenly on
//! both sides with the init value, followed by the reduce of the window
//! results, again until no reduced dimension is longer than 32. Its
//! emitters then accumulate each window, and the last reduce, element by
//! element in row-major order. A bf16 or f16 sum rounds at every step, so
//! this order decides the result: a bf16 bias gradient summed in another
//! order differs from XLA:CPU's by up to 15%.
//!
//! rxla's reduction emitters reassociate freely, which is right for f32
//! and f64 (XLA:CPU's YNNPACK reductions do not sum in one fixed order
//! either). For a bf16 or f16 reduce this pass writes XLA's order down: the
//! window levels as XLA makes them, and the last reduce as a
//! `reduce-window` spanning the reduced dimensions and a reshape, which
//! rxla computes elementally, in order. The emitters do not reassociate
//! reducers of these types.
//!
//! Left alone: reduces of other types, variadic reduces, and reducers that
//! are a single `maximum`, `minimum`, `and` or `or` (their result does not
//! depend on the order).

use crate::algsimp::reducer_binary_op;
use melior::ir::OperationRef;
use rxla_ir::{
    attrs::{Window, WindowDim},
    builder::Builder,
    computation,
    op::Op,
    pass::{HloPass, PassError, PassOptions},
    types::{HloType, TensorType},
};

/// XLA:CPU's window.
const WINDOW: i64 = 32;

#[derive(Clone, Debug)]
pub struct WindowedReductionRewriter;

impl HloPass for WindowedReductionRewriter {
    const NAME: &'static str = "windowed-reduction-rewriter";
    const DESCRIPTION: &'static str =
        "Sum bf16/f16 reductions in XLA:CPU's order: sequential windows of 32, as reduce-windows";
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
                if op.is("reduce") && rewrite(op)? {
                    dead.push(op);
                }
            }
        }
        // After the walk, whose list holds ops after these.
        for op in dead {
            op.erase();
        }
        Ok(())
    }
}

/// Rewrites one reduce; true when it did (the reduce is then unused).
fn rewrite(reduce: Op) -> Result<bool, PassError> {
    if reduce.num_operands() != 2 || reduce.num_results() != 1 {
        return Ok(false);
    }
    let HloType::Tensor(out) = reduce.result_type(0) else { return Ok(false) };
    if !matches!(out.elem.0.as_str(), "bf16" | "f16") {
        return Ok(false);
    }
    if let Some((opcode, _)) = reducer_binary_op(reduce, "to_apply") {
        if matches!(opcode.as_str(), "maximum" | "minimum" | "and" | "or") {
            return Ok(false);
        }
    }
    let (Some(dims), Some(to_apply)) = (reduce.dims_attr("dimensions"), reduce.attr_raw("to_apply")) else {
        return Ok(false);
    };
    let mut x = reduce.operand(0);
    let Some(mut t) = x.ty().into_tensor() else { return Ok(false) };
    if dims.is_empty() || t.dims.iter().any(|&d| d <= 0) {
        return Ok(false);
    }
    let reduced = |d: usize| dims.contains(&(d as i64));
    let init = reduce.operand(1);
    let b = Builder::before(reduce);
    let reduce_window = |x, window: &Window, result: &TensorType| -> Result<_, PassError> {
        let op = b.create(
            "hlo.reduce_window",
            &[x, init],
            &[result.clone().into()],
            &[("window", b.struct_attr(&window.to_struct())?), ("to_apply", to_apply)],
        )?;
        Ok(op.result(0))
    };
    // XLA's levels: while a reduced dimension is longer than the window,
    // every reduced dimension is windowed (short ones padded up to 32).
    while dims.iter().any(|&d| t.dims[d as usize] > WINDOW) {
        let mut window = Window(vec![WindowDim::trivial(); t.rank()]);
        let mut next = t.dims.clone();
        for (d, w) in window.0.iter_mut().enumerate() {
            if !reduced(d) {
                continue;
            }
            let padded = (t.dims[d] + WINDOW - 1) / WINDOW * WINDOW;
            let pad = padded - t.dims[d];
            *w = WindowDim {
                size: WINDOW,
                stride: WINDOW,
                pad_low: pad / 2,
                pad_high: pad - pad / 2,
                ..WindowDim::trivial()
            };
            next[d] = padded / WINDOW;
        }
        t = t.with_dims(&next);
        x = reduce_window(x, &window, &t)?;
    }
    // The last reduce: one window over the reduced dimensions.
    let mut window = Window(vec![WindowDim::trivial(); t.rank()]);
    let mut kept = t.dims.clone();
    for (d, w) in window.0.iter_mut().enumerate() {
        if reduced(d) {
            w.size = t.dims[d];
            kept[d] = 1;
        }
    }
    let total = reduce_window(x, &window, &t.with_dims(&kept))?;
    let result = b.reshape(total, &out.dims)?;
    if let Some(new) = result.op() {
        rxla_ir::layout::copy_layout_attr(reduce, new);
    }
    reduce.replace_result_uses(0, result);
    Ok(true)
}
