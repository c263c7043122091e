//! `comparison-expander`: rewrites floating-point compares with the
//! `TOTALORDER` comparison type into `SIGNED` integer compares of the
//! bit patterns, as XLA's `ComparisonExpander`
//! (xla/hlo/transforms/expanders/comparison_expander.cc) does.
//!
//! Each operand `f` becomes `x = bitcast_convert<sN>(f)` and then
//! `y = x < 0 ? (MAX ^ x) : x` (MAX the largest sN): flipping the magnitude
//! bits of negative values orders -NaN < -inf < ... < -0 < +0 < ... < +inf <
//! +NaN as plain signed integers.
//!
//! Option `upcast-bf16` (default false; XLA's `expand_via_upcast` list is
//! empty by default): convert bf16 operands to f32 first.
//!
//! Left alone: formats whose width has no signed integer type (f6), the
//! unsigned `f8E8M0FNU`, and the `FNUZ` f8 formats. For the latter (no -0,
//! one NaN with the sign bit set) XLA's expander computes `MIN - x` and
//! maps the NaN pattern to `MIN`, ordering NaN *below* everything, while
//! rxla's interpreter orders that NaN above everything; the pass must not
//! change the interpreter's results, so it does not expand them.

use crate::constant::ConstantBuilder;
use crate::constant::Scalar;
use melior::ir::OperationRef;
use rxla_ir::{
    attrs::enum_case,
    builder::Builder,
    computation,
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::ElementType,
};

#[derive(Clone, Debug)]
pub struct ComparisonExpander {
    upcast_bf16: bool,
}

impl HloPass for ComparisonExpander {
    const NAME: &'static str = "comparison-expander";
    const DESCRIPTION: &'static str =
        "Rewrite TOTALORDER float compares into signed integer compares of the bit patterns";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &["upcast-bf16"])?;
        Ok(Self { upcast_bf16: options.bool("upcast-bf16", false)? })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        for func in computation::functions(module) {
            for op in func.walk_preorder() {
                if op.is("compare") && enum_case(op, "compare_type").as_deref() == Some("TOTALORDER") {
                    self.expand(op)?;
                }
            }
        }
        Ok(())
    }
}

/// The signed integer type of the same width; `None` for formats the
/// expansion does not cover.
fn integer_type(elem: &ElementType) -> Option<ElementType> {
    if !elem.is_float() || elem.0 == "f8E8M0FNU" || elem.0.ends_with("FNUZ") {
        return None;
    }
    let width = elem.bit_width();
    if !matches!(width, 4 | 8 | 16 | 32 | 64) {
        return None;
    }
    Some(ElementType(format!("i{width}")))
}

impl ComparisonExpander {
    fn expand(&self, op: Op) -> Result<(), PassError> {
        let (mut lhs, mut rhs) = (op.operand(0), op.operand(1));
        let Some(t) = lhs.ty().into_tensor() else { return Ok(()) };
        let Some(direction) = enum_case(op, "comparison_direction") else { return Ok(()) };
        let mut elem = t.elem.clone();
        if integer_type(&elem).is_none() {
            return Ok(());
        }
        let b = Builder::before(op);
        if self.upcast_bf16 && elem.0 == "bf16" {
            elem = ElementType::new("f32");
            lhs = b.convert(lhs, &elem)?;
            rhs = b.convert(rhs, &elem)?;
        }
        let int = integer_type(&elem).expect("checked above");
        let width = int.bit_width();
        let zero = b.splat_broadcast(&int, Scalar::Int(0), &t.dims)?;
        let max = b.splat_broadcast(&int, Scalar::Int((1i128 << (width - 1)) - 1), &t.dims)?;
        let to_integral = |f: Value| -> Result<Value, PassError> {
            let signed = b.bitcast_convert(f, &int)?;
            let flipped = b.binary("xor", max, signed)?;
            let is_negative = b.compare("LT", signed, zero, None)?;
            b.select(is_negative, flipped, signed)
        };
        let l = to_integral(lhs)?;
        let r = to_integral(rhs)?;
        let result = b.compare(&direction, l, r, Some("SIGNED"))?;
        if let Some(new_op) = result.op() {
            for key in ["hlo.metadata", "hlo.layout"] {
                if let Some(attr) = op.attr_raw(key) {
                    new_op.set_attr_raw(key, attr);
                }
            }
        }
        op.replace_result_uses(0, result);
        op.erase();
        Ok(())
    }
}
