//! `hlo.constant` values as HLO literals, read from the attribute's raw
//! element data (exact bits; no dependence on MLIR's float printing).

use super::{ExportError, Result};
use crate::{literal::float_format, types::primitive_type};
use melior::ir::Type;
use mlir_sys::*;
use rxla_hlo_text::ast::{Literal, LiteralArray, PrimitiveType};

/// The literal of a dense elements attribute.
pub fn literal(attr: MlirAttribute) -> Result<Literal> {
    // SAFETY: `attr` is a live attribute; every read below is bounds-checked
    // against the element count and storage width.
    unsafe {
        if !mlirAttributeIsADenseElements(attr) {
            return Err(ExportError::new("constant value is not a dense elements attribute"));
        }
        let ty = mlirAttributeGetType(attr);
        let rank = mlirShapedTypeGetRank(ty);
        let dims: Vec<i64> = (0..rank as isize).map(|i| mlirShapedTypeGetDimSize(ty, i)).collect();
        let element = mlirShapedTypeGetElementType(ty);
        let element_text = Type::from_raw(element).to_string();
        let t = primitive_type(&element_text)
            .ok_or_else(|| ExportError::new(format!("constants of type {element_text} have no HLO form")))?;
        let count = mlirElementsAttrGetNumElements(attr) as usize;
        let splat = mlirDenseElementsAttrIsSplat(attr);
        let mut tokens = Vec::with_capacity(count);
        for i in 0..count {
            let index = if splat { 0 } else { i };
            tokens.push(element_text_at(attr, t, index)?);
        }
        Ok(Literal::Array(nest(&dims, &mut tokens.into_iter())))
    }
}

fn nest(dims: &[i64], tokens: &mut impl Iterator<Item = String>) -> LiteralArray {
    match dims.split_first() {
        None => LiteralArray::Element(tokens.next().unwrap_or_default()),
        Some((&n, rest)) => LiteralArray::Nested((0..n).map(|_| nest(rest, tokens)).collect()),
    }
}

/// Bits of element `index`, `bytes` wide, from the raw data.
unsafe fn raw_bits(attr: MlirAttribute, index: usize, bytes: usize) -> u64 {
    let data = unsafe { mlirDenseElementsAttrGetRawData(attr) } as *const u8;
    let mut bits = 0u64;
    for b in 0..bytes {
        bits |= (unsafe { *data.add(index * bytes + b) } as u64) << (8 * b);
    }
    bits
}

/// XLA's text for a float of `t` with raw `bits`.
pub fn float_text(t: PrimitiveType, bits: u64) -> String {
    let format = float_format(t).expect("a float type");
    if let Some(special) = format.special_text(bits) {
        return special;
    }
    match t {
        PrimitiveType::F32 => {
            let v = f32::from_bits(bits as u32);
            shortest(v as f64, |_| format!("{v}"), |_| format!("{v:e}"))
        }
        PrimitiveType::F64 => {
            let v = f64::from_bits(bits);
            shortest(v, |_| format!("{v}"), |_| format!("{v:e}"))
        }
        _ => format.shortest_decimal(bits),
    }
}

/// Plain digits for ordinary magnitudes, exponent form otherwise.
fn shortest(v: f64, plain: impl Fn(f64) -> String, exp: impl Fn(f64) -> String) -> String {
    let a = v.abs();
    if a == 0.0 || (1e-4..1e16).contains(&a) {
        plain(v)
    } else {
        exp(v)
    }
}

unsafe fn element_text_at(attr: MlirAttribute, t: PrimitiveType, index: usize) -> Result<String> {
    use PrimitiveType::*;
    let i = index as isize;
    Ok(unsafe {
        match t {
            Pred => mlirDenseElementsAttrGetBoolValue(attr, i).to_string(),
            S8 => mlirDenseElementsAttrGetInt8Value(attr, i).to_string(),
            S16 => mlirDenseElementsAttrGetInt16Value(attr, i).to_string(),
            S32 => mlirDenseElementsAttrGetInt32Value(attr, i).to_string(),
            S64 => mlirDenseElementsAttrGetInt64Value(attr, i).to_string(),
            U8 => mlirDenseElementsAttrGetUInt8Value(attr, i).to_string(),
            U16 => mlirDenseElementsAttrGetUInt16Value(attr, i).to_string(),
            U32 => mlirDenseElementsAttrGetUInt32Value(attr, i).to_string(),
            U64 => mlirDenseElementsAttrGetUInt64Value(attr, i).to_string(),
            // Sub-byte integers are stored one per byte.
            S2 | S4 => {
                let width = if t == S2 { 2 } else { 4 };
                let bits = raw_bits(attr, index, 1) as i64;
                ((bits << (64 - width)) >> (64 - width)).to_string()
            }
            U2 | U4 => (raw_bits(attr, index, 1) & if t == U2 { 3 } else { 15 }).to_string(),
            C64 | C128 => {
                let (part, bytes) = if t == C64 { (F32, 4) } else { (F64, 8) };
                let re = raw_bits(attr, index * 2, bytes);
                let im = raw_bits(attr, index * 2 + 1, bytes);
                format!("({}, {})", float_text(part, re), float_text(part, im))
            }
            _ => {
                let format = float_format(t)
                    .ok_or_else(|| ExportError::new(format!("constants of type {} have no HLO form", t.name())))?;
                let bytes = (format.width() as usize).div_ceil(8);
                float_text(t, raw_bits(attr, index, bytes))
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_xla_does() {
        assert_eq!(float_text(PrimitiveType::F32, 0x3F800000), "1");
        assert_eq!(float_text(PrimitiveType::F32, 0x80000000), "-0");
        assert_eq!(float_text(PrimitiveType::F32, 0x7F800000), "inf");
        assert_eq!(float_text(PrimitiveType::F32, 0xFFC00000), "-nan");
        assert_eq!(float_text(PrimitiveType::F32, 0x3DCCCCCD), "0.1");
        assert_eq!(float_text(PrimitiveType::F32, 0x00000001), "1e-45");
        assert_eq!(float_text(PrimitiveType::Bf16, 0x3F80), "1");
        assert_eq!(float_text(PrimitiveType::Bf16, 0x3DCD), "0.1");
        assert_eq!(float_text(PrimitiveType::F64, 0x7FF0000000000000), "inf");
    }
}
