//! `excess-precision`: a bf16 result that the program converts to f32 is
//! not rounded to bf16 first, as XLA computes it when
//! `xla_allow_excess_precision` is on (its default).
//!
//! XLA's backends have no bf16 arithmetic: `FloatNormalization` computes
//! every bf16 op in f32 and converts the result back to bf16. With excess
//! precision allowed, a user that converts that result to f32 takes the f32
//! value directly (`ChangeOutputTypeThenInsertConvertBack`), so
//! `convert(multiply(a, b) : bf16) : f32` is the product unrounded. Every
//! other use still sees the bf16 value, and so does every op in between:
//! only the last rounding before a convert to f32 disappears. JAX programs
//! hit this constantly (a bf16 matmul or activation followed by an f32
//! norm or softmax), and XLA:CPU's outputs differ from strictly rounded ones
//! by far more than one bf16 rounding after the values flow on.
//!
//! For an elementwise op, `dot` or `convolution` with a bf16 result and at
//! least one `convert` user to f32, the pass creates the op in f32 (bf16
//! operands converted exactly; a dot or convolution keeps them and gets an
//! f32 result type), gives the converts' users the f32 value,
//! and gives every other user the f32 value converted to bf16 (the same
//! value as before: the op was computed in f32 and rounded once).
//! Reductions and other ops with called computations round inside their
//! computation at every step, so their last rounding changes nothing.
//!
//! Runs after `dot_decomposer`, as XLA's FloatNormalization runs after its
//! DotDecomposer: a dot the decomposer reshapes keeps its rounding.
//!
//! Not exact by declaration. `hlo-run --xla_allow_excess_precision=false`
//! (or `--disable-passes=excess-precision`) rounds as the HLO says.

use crate::fusion::is_elementwise;
use melior::ir::OperationRef;
use rxla_ir::{
    builder::Builder,
    computation,
    layout::{copy_layout_attr, rebuild},
    op::Op,
    pass::{HloPass, PassError, PassOptions},
    types::{ElementType, HloType},
};

#[derive(Clone, Debug)]
pub struct ExcessPrecision;

impl HloPass for ExcessPrecision {
    const NAME: &'static str = "excess-precision";
    const DESCRIPTION: &'static str =
        "Give converts to f32 of a computed bf16 value the f32 value unrounded (xla_allow_excess_precision)";
    const EXACT: bool = false;

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        let (bf16, f32) = (ElementType::new("bf16"), ElementType::new("f32"));
        // Erased after the walk: the walk's list holds the converts still
        // to be visited, and an erased op's handle must not be touched.
        let mut dead = Vec::new();
        for func in computation::functions(module) {
            for op in func.walk_preorder() {
                if !computes_bf16(op, &bf16) {
                    continue;
                }
                let to_f32 = |user: &Op| user.is("convert") && elem(user.result_type(0)).as_ref() == Some(&f32);
                let converts: Vec<Op> = op.result(0).users().into_iter().filter(to_f32).collect();
                if converts.is_empty() {
                    continue;
                }
                let HloType::Tensor(t) = op.result_type(0) else { continue };
                let b = Builder::before(op);
                // A dot or convolution takes bf16 operands with an f32 result
                // as it is (the runtimes accumulate in f32 either way);
                // elementwise ops need operands of their result type.
                let mixed = op.is("dot") || op.is("convolution");
                let mut operands = Vec::with_capacity(op.num_operands());
                for v in op.operands() {
                    let widen = !mixed && elem(v.ty()).as_ref() == Some(&bf16);
                    operands.push(if widen { b.convert(v, &f32)? } else { v });
                }
                let wide = rebuild(&b, op, &operands, &[t.with_elem(&f32).into()], &[])?.result(0);
                for user in &converts {
                    user.replace_result_uses(0, wide);
                }
                let others = op.result(0).users().iter().any(|u| !converts.contains(u));
                if others {
                    let narrow = b.convert(wide, &bf16)?;
                    if let Some(convert) = narrow.op() {
                        copy_layout_attr(op, convert);
                    }
                    op.replace_result_uses(0, narrow);
                }
                // The converts before the op they read.
                dead.extend(converts);
                dead.push(op);
            }
        }
        for op in dead {
            op.erase();
        }
        Ok(())
    }
}

/// An op that computes (not merely moves or converts) a bf16 array.
fn computes_bf16(op: Op, bf16: &ElementType) -> bool {
    if op.num_results() != 1 || elem(op.result_type(0)).as_ref() != Some(bf16) {
        return false;
    }
    match op.opcode().as_str() {
        "dot" | "convolution" => true,
        "convert" | "bitcast_convert" | "copy" | "select" | "reduce_precision" => false,
        _ => is_elementwise(op),
    }
}

fn elem(t: HloType) -> Option<ElementType> {
    match t {
        HloType::Tensor(t) => Some(t.elem),
        _ => None,
    }
}
