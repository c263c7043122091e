//! `logistic-expander`: rewrites `logistic(x)` as `1 / (1 + exp(-x))`,
//! exactly as XLA's `LogisticExpander` (xla/service/logistic_expander.cc)
//! builds it: one scalar constant 1 broadcast to the operand's shape (XLA's
//! `MakeScalarLike`), used both as the addend and as the dividend.
//!
//! Not exact: the interpreter evaluates `logistic` in f64 and rounds once,
//! while the expansion rounds after each of negate/exp/add/divide in the
//! operand's type.

use crate::constant::ConstantBuilder;
use crate::constant::Scalar;
use melior::ir::OperationRef;
use rxla_ir::{
    builder::Builder,
    computation,
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
};

#[derive(Clone, Debug)]
pub struct LogisticExpander;

impl HloPass for LogisticExpander {
    const NAME: &'static str = "logistic-expander";
    const DESCRIPTION: &'static str = "Expand logistic(x) into 1 / (1 + exp(-x))";
    const EXACT: bool = false;

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        for func in computation::functions(module) {
            for op in func.walk_preorder() {
                if op.is("logistic") && op.num_operands() == 1 {
                    expand(op)?;
                }
            }
        }
        Ok(())
    }
}

fn expand(op: Op) -> Result<(), PassError> {
    let x = op.operand(0);
    if x.ty().tensor().is_none() {
        return Ok(());
    }
    let b = Builder::before(op);
    let one = b.scalar_like(x, Scalar::Float(1.0))?;
    let exp = b.unary("exponential", b.unary("negate", x)?)?;
    let denominator = b.add(one, exp)?;
    let result = b.divide(one, denominator)?;
    replace(op, result);
    Ok(())
}

/// Replaces `old`'s single result by `new` (a value of a new op), carrying
/// over its metadata and non-default layout, and erases `old`.
fn replace(old: Op, new: Value) {
    if let Some(new_op) = new.op() {
        for key in ["hlo.metadata", "hlo.layout"] {
            if let (Some(attr), false) = (old.attr_raw(key), new_op.has_attr(key)) {
                new_op.set_attr_raw(key, attr);
            }
        }
    }
    old.replace_result_uses(0, new);
    old.erase();
}
