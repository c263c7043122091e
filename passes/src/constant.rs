//! Matching and making constants.
//!
//! Many rewrites ask "is this operand the constant 0 (or 1, or -inf)?".
//! [`splat`] answers for `hlo.constant`s whose elements are all equal and for
//! broadcasts of such constants, which is how JAX spells scalars used with
//! arrays.

use mlir_sys::*;
use rxla_hlo_text::ast::PrimitiveType;
use rxla_ir::{
    builder::Builder,
    op::{Op, Value},
    pass::PassError,
    types::{ElementType, TensorType},
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

/// `dense<v> : tensor<...>` for a splat of `value`.
pub fn splat_attr_text(ty: &TensorType, value: Scalar) -> Option<String> {
    Some(format!("dense<{}> : {ty}", element_text(&ty.elem, value)?))
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
        let attr = splat_attr_text(ty, value)
            .ok_or_else(|| PassError(format!("internal error: {value:?} is not representable in {}", ty.elem)))?;
        self.constant_attr(&attr, ty)
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
