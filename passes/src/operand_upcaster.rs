//! `operand_upcaster`: for a `dot` or `convolution` whose result element
//! type is wider than the type shape inference gives its operands, converts
//! the operands to the result type, as XLA's `OperandUpcaster`
//! (xla/hlo/transforms/operand_upcaster.cc).
//!
//! The inferred type is XLA's `HigherPrecisionElementType(lhs, rhs)`
//! (complex before real, then floating-point range, then precision, then
//! width, then signed before unsigned). The op qualifies when the result
//! type is at least as precise as the inferred one (`ElementCanUpcast`) and
//! not all three types already equal the inferred one; then every operand
//! whose type differs from the result's is converted to it. E.g.
//! `dot(bf16, bf16) -> f32` becomes `dot(convert(f32), convert(f32)) -> f32`
//! and `dot(s8, s8) -> s32` becomes a dot of s32 operands.
//!
//! Not exact by declaration (the products of converted operands may round
//! differently from the interpreter's mixed-precision accumulation).
//! rxla has no `PACKED_NIBBLE` precision, so XLA's nibble-splitting branch
//! does not exist here.

use melior::ir::OperationRef;
use rxla_ir::{
    builder::Builder,
    computation,
    op::Op,
    pass::{HloPass, PassError, PassOptions},
    types::ElementType,
};

#[derive(Clone, Debug)]
pub struct OperandUpcaster;

impl HloPass for OperandUpcaster {
    const NAME: &'static str = "operand_upcaster";
    const DESCRIPTION: &'static str = "Convert dot/convolution operands up to a wider result element type";
    const EXACT: bool = false;

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        for func in computation::functions(module) {
            for op in func.walk_preorder() {
                if !(op.is("dot") || op.is("convolution")) || op.num_operands() != 2 {
                    continue;
                }
                let Some((lhs, rhs, result)) = element_types(op) else { continue };
                let Some(inferred) = higher_precision(&lhs, &rhs) else { continue };
                if result == inferred && lhs == inferred && rhs == inferred {
                    continue;
                }
                if higher_precision(&inferred, &result).as_ref() != Some(&result) {
                    continue;
                }
                let b = Builder::before(op);
                for i in 0..2 {
                    let operand = op.operand(i);
                    if operand.ty().tensor().is_some_and(|t| t.elem != result) {
                        let converted = b.convert(operand, &result)?;
                        op.set_operand(i, converted);
                    }
                }
            }
        }
        Ok(())
    }
}

/// The element types of a dot/convolution's lhs, rhs and result, if all
/// are static arrays.
pub(crate) fn element_types(op: Op) -> Option<(ElementType, ElementType, ElementType)> {
    let elem = |t: rxla_ir::types::HloType| t.tensor().map(|t| t.elem.clone());
    Some((elem(op.operand_type(0))?, elem(op.operand_type(1))?, elem(op.result_type(0))?))
}

/// XLA's `primitive_util::HigherPrecisionType`; `None` where XLA would
/// fail a check (two different types that rank the same).
pub(crate) fn higher_precision(a: &ElementType, b: &ElementType) -> Option<ElementType> {
    let (pa, pb) = (properties(a)?, properties(b)?);
    if pa > pb {
        Some(a.clone())
    } else if pb > pa {
        Some(b.clone())
    } else {
        (a == b).then(|| a.clone())
    }
}

/// (complex, overflow exponent, significand width, component width,
/// signed integer), compared lexicographically as XLA does.
fn properties(t: &ElementType) -> Option<(bool, i32, i32, u32, bool)> {
    let (complex, component) = match t.0.as_str() {
        "complex<f32>" => (true, ElementType::new("f32")),
        "complex<f64>" => (true, ElementType::new("f64")),
        _ => (false, t.clone()),
    };
    let (range, precision) = if component.is_float() { float_format(&component.0)? } else { (-1, -1) };
    let width = component.bit_width();
    if width == 0 {
        return None;
    }
    Some((complex, range, precision, width, component.is_signed_int()))
}

/// `std::numeric_limits<T>::max_exponent` and `digits` of a float type.
fn float_format(name: &str) -> Option<(i32, i32)> {
    Some(match name {
        "f16" => (16, 11),
        "bf16" => (128, 8),
        "f32" => (128, 24),
        "f64" => (1024, 53),
        "f8E4M3FN" => (9, 4),
        "f8E4M3" => (8, 4),
        "f8E4M3FNUZ" => (8, 4),
        "f8E4M3B11FNUZ" => (5, 4),
        "f8E5M2" => (16, 3),
        "f8E5M2FNUZ" => (16, 3),
        "f8E3M4" => (4, 5),
        "f8E8M0FNU" => (128, 1),
        "f4E2M1FN" => (3, 2),
        "f6E2M3FN" => (3, 4),
        "f6E3M2FN" => (5, 3),
        _ => return None,
    })
}
