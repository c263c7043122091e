//! Converts that change nothing.
//!
//! - `convert(x)` to x's own type is `x`.
//! - `convert(convert(x: S -> M) -> S)` is `x` when every S value survives
//!   M exactly (XLA's IsConvertPairNoOp, CastPreservesValues), restricted
//!   to integer and pred sources: a float round trip is not a no-op in the
//!   interpreter (f32 -> f64 reads subnormals as zero, f16/bf16 widening
//!   quiets signalling NaNs).
//! - `convert(convert(x: S -> M) -> D)` is `convert(x -> D)` when S -> M
//!   preserves values and M is an integer type: the second convert then
//!   depends only on the value. D must be an integer or pred, or a float
//!   that represents every S value exactly (so both paths round nothing).

use super::*;
use rxla_ir::rewrite::Pattern;

pub(super) fn patterns(out: &mut Vec<Rc<dyn Pattern>>) {
    out.push(simp("hlo.convert", convert));
}

type R = Result<Option<Value>, PassError>;

/// Significand bits (with the implicit bit) of the float types a value
/// survives in.
fn significand_bits(e: &ElementType) -> Option<u32> {
    Some(match e.0.as_str() {
        "f16" => 11,
        "bf16" => 8,
        "f32" => 24,
        "f64" => 53,
        _ => return None,
    })
}

/// True if converting any value of integer-or-pred type `s` to `m` keeps
/// it exactly (and converting back returns it).
pub(super) fn preserves(s: &ElementType, m: &ElementType) -> bool {
    if s.is_pred() {
        return is_int_like(m) || significand_bits(m).is_some();
    }
    let bits = s.bit_width();
    if bits == 0 {
        return false;
    }
    if s.is_signed_int() {
        if m.is_signed_int() {
            return m.bit_width() >= bits;
        }
        if let Some(sig) = significand_bits(m) {
            return sig >= bits - 1;
        }
        return false;
    }
    if s.is_unsigned_int() {
        if m.is_unsigned_int() {
            return m.bit_width() >= bits;
        }
        if m.is_signed_int() {
            return m.bit_width() > bits;
        }
        if let Some(sig) = significand_bits(m) {
            return sig >= bits;
        }
    }
    false
}

fn convert(op: Op, b: &Builder) -> R {
    let x = op.operand(0);
    let (Some(xt), Some(rt)) = (tensor(x), result_tensor(op)) else { return Ok(None) };
    if xt.elem == rt.elem {
        return Ok(fwd(op, x));
    }
    let Some(inner) = def(x, "convert") else { return Ok(None) };
    let src = inner.operand(0);
    let Some(st) = tensor(src) else { return Ok(None) };
    let (s, m, d) = (&st.elem, &xt.elem, &rt.elem);
    if !is_int_like(s) || !preserves(s, m) {
        return Ok(None);
    }
    if s == d {
        return Ok(fwd(op, src));
    }
    if !is_int_like(m) {
        return Ok(None);
    }
    let d_ok =
        is_int_like(d) || (d.is_float() && significand_bits(d).is_some_and(|sig| s.is_pred() || sig >= s.bit_width()));
    if d_ok {
        return Ok(Some(b.convert(src, d)?));
    }
    Ok(None)
}
