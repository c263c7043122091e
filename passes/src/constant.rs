//! Matching and making constants.
//!
//! Many rewrites ask "is this operand the constant 0 (or 1, or -inf)?".
//! [`splat`] answers for `hlo.constant`s whose elements are all equal and for
//! broadcasts of such constants, which is how JAX spells scalars used with
//! arrays.

use mlir_sys::*;
use rxla_hlo_text::ast::PrimitiveType;
use rxla_ir::{
    attrs,
    builder::Builder,
    op::{Op, Value},
    pass::PassError,
    types::{element_type_from_spelling, ElementType, TensorType},
};

/// One element value, as wide as any HLO element type needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Bool(bool),
    Int(i128),
    Float(f64),
}

impl Scalar {
    /// The value as f64 (ints converted, bools as 0/1).
    pub fn as_f64(self) -> f64 {
        match self {
            Scalar::Bool(b) => b as i64 as f64,
            Scalar::Int(i) => i as f64,
            Scalar::Float(f) => f,
        }
    }

    /// True for numeric zero (either sign) and false.
    pub fn is_zero(self) -> bool {
        self.as_f64() == 0.0
    }

    /// True for numeric one and true.
    pub fn is_one(self) -> bool {
        self.as_f64() == 1.0
    }
}

/// The value every element of `value` has, if it is a splat constant or a
/// broadcast of one. Complex constants are not matched.
pub fn splat(value: Value) -> Option<Scalar> {
    let op = value.op()?;
    if op.is("broadcast") {
        return splat(op.operand(0));
    }
    if !op.is("constant") {
        return None;
    }
    let attr = op.attr_raw("value")?;
    let elem = value.ty().tensor()?.elem.clone();
    unsafe {
        if !mlirAttributeIsADenseElements(attr) || !mlirDenseElementsAttrIsSplat(attr) {
            // A 1-element constant is a splat too.
            if mlirAttributeIsADenseElements(attr) && mlirElementsAttrGetNumElements(attr) == 1 {
                return element(mlirElementsAttrGetValue(attr, 0, std::ptr::null_mut()), &elem);
            }
            return None;
        }
        element(mlirDenseElementsAttrGetSplatValue(attr), &elem)
    }
}

fn element(attr: MlirAttribute, elem: &ElementType) -> Option<Scalar> {
    unsafe {
        if attr.ptr.is_null() {
            return None;
        }
        if mlirAttributeIsAFloat(attr) {
            return Some(Scalar::Float(mlirFloatAttrGetValueDouble(attr)));
        }
        if mlirAttributeIsABool(attr) {
            return Some(Scalar::Bool(mlirBoolAttrGetValue(attr)));
        }
        if mlirAttributeIsAInteger(attr) {
            return Some(if elem.is_pred() {
                Scalar::Bool(mlirIntegerAttrGetValueUInt(attr) != 0)
            } else if elem.is_unsigned_int() {
                Scalar::Int(mlirIntegerAttrGetValueUInt(attr) as i128)
            } else {
                Scalar::Int(mlirIntegerAttrGetValueInt(attr) as i128)
            });
        }
    }
    None
}

/// True if `value` is a splat constant equal to `x` (numerically).
pub fn is_splat_of(value: Value, x: f64) -> bool {
    splat(value).is_some_and(|s| s.as_f64() == x)
}

/// True if `value` is an `hlo.constant` (any shape).
pub fn is_constant(value: Value) -> bool {
    value.defined_by("constant").is_some()
}

/// The defining `hlo.constant` of `value`.
pub fn constant_op(value: Value) -> Option<Op> {
    value.defined_by("constant")
}

/// One element in MLIR dense syntax for element type `elem`, or `None` if
/// the value cannot be written in that type (e.g. inf in f8E4M3FN).
pub fn element_text(elem: &ElementType, value: Scalar) -> Option<String> {
    if elem.is_complex() {
        let part = if elem.0 == "complex<f32>" { "f32" } else { "f64" };
        let re = element_text(&ElementType::new(part), value)?;
        return Some(format!("({re}, 0.0)"));
    }
    if elem.is_pred() {
        return Some(if value.is_zero() { "false" } else { "true" }.to_string());
    }
    if elem.is_integer() {
        return Some(match value {
            Scalar::Int(i) => i.to_string(),
            Scalar::Bool(b) => (b as i32).to_string(),
            Scalar::Float(f) => (f as i128).to_string(),
        });
    }
    let f = value.as_f64();
    if f.is_finite() {
        return Some(rxla_translate::literal::float_literal(f));
    }
    let prim = rxla_translate::types::primitive_type(&elem.0)?;
    let token = if f.is_nan() {
        "nan"
    } else if f < 0.0 {
        "-inf"
    } else {
        "inf"
    };
    rxla_translate::literal::element_to_mlir(prim, token).ok()
}

/// The dense attribute of `ty` with every element `value`, or `None` if
/// the value cannot be written in that type (e.g. inf in f8E4M3FN). Floats
/// convert from f64 as MLIR's parser converts a literal; integers wrap to
/// their width.
pub fn splat_attr(context: MlirContext, ty: &TensorType, value: Scalar) -> Option<MlirAttribute> {
    let elem = &ty.elem;
    if !value.as_f64().is_finite() {
        // Only for the check: which types have infinities and NaNs.
        element_text(elem, value)?;
    }
    let shaped = ty.to_mlir(context)?;
    if elem.is_pred() {
        return Some(attrs::dense_bools(shaped, &[!value.is_zero()]));
    }
    if elem.is_complex() {
        // (value, 0), the two parts' bytes.
        let f = value.as_f64();
        let bytes = if elem.0 == "complex<f32>" {
            [(f as f32).to_le_bytes(), 0f32.to_le_bytes()].concat()
        } else {
            [f.to_le_bytes(), 0f64.to_le_bytes()].concat()
        };
        return attrs::dense_raw(shaped, &bytes);
    }
    let elem_ty = element_type_from_spelling(context, &elem.0)?;
    // SAFETY: attribute constructors in a live context.
    let element = unsafe {
        if elem.is_integer() {
            let v = match value {
                Scalar::Int(i) => i,
                Scalar::Bool(b) => b as i128,
                Scalar::Float(f) => f as i128,
            };
            mlirIntegerAttrGet(elem_ty, wrap_to_width(v, elem.bit_width(), elem.is_unsigned_int()))
        } else {
            mlirFloatAttrDoubleGet(context, elem_ty, value.as_f64())
        }
    };
    Some(attrs::dense_splat(shaped, element))
}

/// `v` as the int64 MLIR builds an integer of `bits` bits from: the low
/// bits, zero-extended for unsigned types and sign-extended otherwise.
fn wrap_to_width(v: i128, bits: u32, unsigned: bool) -> i64 {
    let low = v as i64;
    if bits >= 64 || bits == 0 {
        return low;
    }
    let shift = 64 - bits;
    if unsigned {
        ((low as u64) << shift >> shift) as i64
    } else {
        (low << shift) >> shift
    }
}

/// Constants made through a [`Builder`]. They live here rather than in
/// rxla-ir because writing a non-finite float in an element type's own
/// format ([`element_text`]) needs rxla-translate's float formats.
pub trait ConstantBuilder {
    /// A constant of type `ty` with every element `value`.
    fn splat(&self, ty: &TensorType, value: Scalar) -> Result<Value, PassError>;

    /// A scalar constant.
    fn scalar(&self, elem: &ElementType, value: Scalar) -> Result<Value, PassError>;

    /// A scalar constant of `elem` broadcast to `dims` (the constant alone
    /// for a scalar).
    fn splat_broadcast(&self, elem: &ElementType, value: Scalar, dims: &[i64]) -> Result<Value, PassError>;

    /// XLA's `MakeScalarLike`: `value` with the shape and element type of
    /// `x` (a scalar constant, broadcast when `x` is not a scalar).
    fn scalar_like(&self, x: Value, value: Scalar) -> Result<Value, PassError>;
}

impl ConstantBuilder for Builder {
    fn splat(&self, ty: &TensorType, value: Scalar) -> Result<Value, PassError> {
        let attr = splat_attr(self.context(), ty, value)
            .ok_or_else(|| PassError(format!("internal error: {value:?} is not representable in {}", ty.elem)))?;
        self.constant_attr(attr, ty)
    }

    fn scalar(&self, elem: &ElementType, value: Scalar) -> Result<Value, PassError> {
        self.splat(&TensorType::scalar(elem), value)
    }

    fn splat_broadcast(&self, elem: &ElementType, value: Scalar, dims: &[i64]) -> Result<Value, PassError> {
        let c = self.scalar(elem, value)?;
        if dims.is_empty() {
            Ok(c)
        } else {
            self.broadcast_scalar(c, dims)
        }
    }

    fn scalar_like(&self, x: Value, value: Scalar) -> Result<Value, PassError> {
        let t = Builder::tensor(x)?;
        self.splat_broadcast(&t.elem, value, &t.dims)
    }
}

/// The primitive type of an element type (for the interpreter's literals).
pub fn primitive_type(elem: &ElementType) -> Option<PrimitiveType> {
    rxla_translate::types::primitive_type(&elem.0)
}

/// The lowest value of an element type (XLA's LiteralUtil::MinValue: -inf
/// for floats with infinities), the identity of max.
pub fn min_value(elem: &ElementType) -> Option<Scalar> {
    Some(if elem.is_pred() {
        Scalar::Bool(false)
    } else if elem.is_unsigned_int() {
        Scalar::Int(0)
    } else if elem.is_signed_int() {
        Scalar::Int(-(1i128 << (elem.bit_width() - 1)))
    } else if elem.is_float() {
        Scalar::Float(f64::NEG_INFINITY)
    } else {
        return None;
    })
}

/// The highest value of an element type, the identity of min.
pub fn max_value(elem: &ElementType) -> Option<Scalar> {
    Some(if elem.is_pred() {
        Scalar::Bool(true)
    } else if elem.is_unsigned_int() {
        Scalar::Int((1i128 << elem.bit_width()) - 1)
    } else if elem.is_signed_int() {
        Scalar::Int((1i128 << (elem.bit_width() - 1)) - 1)
    } else if elem.is_float() {
        Scalar::Float(f64::INFINITY)
    } else {
        return None;
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Splats built through the C API are the attributes their text parses
    /// to, and values a type cannot hold are refused.
    #[test]
    fn splats_equal_their_text() {
        let context = rxla_dialects::create_context();
        let ctx = context.to_raw();
        let cases: &[(&str, Scalar, &str)] = &[
            ("f32", Scalar::Float(1.5), "dense<1.5> : tensor<2x3xf32>"),
            ("f32", Scalar::Float(f64::NAN), "dense<0x7FC00000> : tensor<2x3xf32>"),
            ("bf16", Scalar::Float(f64::NEG_INFINITY), "dense<0xFF80> : tensor<2x3xbf16>"),
            ("f16", Scalar::Int(3), "dense<3.0> : tensor<2x3xf16>"),
            ("f8E4M3FN", Scalar::Float(0.1), "dense<0.1> : tensor<2x3xf8E4M3FN>"),
            ("i8", Scalar::Int(-1), "dense<-1> : tensor<2x3xi8>"),
            ("ui8", Scalar::Int(255), "dense<255> : tensor<2x3xui8>"),
            ("i4", Scalar::Int(-8), "dense<-8> : tensor<2x3xi4>"),
            ("ui64", Scalar::Int(u64::MAX as i128), "dense<18446744073709551615> : tensor<2x3xui64>"),
            ("i1", Scalar::Bool(true), "dense<true> : tensor<2x3xi1>"),
            ("complex<f32>", Scalar::Float(2.0), "dense<(2.0, 0.0)> : tensor<2x3xcomplex<f32>>"),
        ];
        for (elem, value, text) in cases {
            let ty = TensorType::new(&[2, 3], &ElementType::new(elem));
            let built = splat_attr(ctx, &ty, *value).unwrap_or_else(|| panic!("{text}"));
            let parsed = rxla_ir::op::parse_attr(ctx, text).unwrap_or_else(|| panic!("parses: {text}"));
            assert_eq!(built.ptr, parsed.ptr, "{text}");
        }
        let f8 = TensorType::new(&[2], &ElementType::new("f8E4M3FN"));
        assert!(splat_attr(ctx, &f8, Scalar::Float(f64::INFINITY)).is_none(), "f8E4M3FN has no infinity");
    }
}
