//! Elementwise arithmetic and bitwise identities.
//!
//! Integer (and pred) rules are exact because integer arithmetic wraps.
//! Float rules that drop an arithmetic op (`x + (-0.0)`, `x - 0.0`,
//! `x * 1`, `x / 1`, `pow(x, 1)`) need a canonical `x` (no subnormal the
//! op would flush, no signalling NaN it would quiet); `x + 0.0` is never
//! `x` (for `x = -0.0`), and `x * 0` is never 0 for floats (NaN, inf, -0).

use super::*;
use rxla_ir::rewrite::Pattern;

pub(super) fn patterns(out: &mut Vec<Rc<dyn Pattern>>) {
    out.push(simp("hlo.add", add));
    out.push(simp("hlo.subtract", subtract));
    out.push(simp("hlo.multiply", multiply));
    out.push(simp("hlo.divide", divide));
    out.push(simp("hlo.remainder", remainder));
    out.push(simp("hlo.power", power));
    out.push(simp("hlo.maximum", maximum));
    out.push(simp("hlo.minimum", minimum));
    out.push(simp("hlo.and", and));
    out.push(simp("hlo.or", or));
    out.push(simp("hlo.xor", xor));
    out.push(simp("hlo.not", not));
    out.push(simp("hlo.negate", negate));
    out.push(simp("hlo.abs", abs));
    out.push(simp("hlo.exponential", exponential));
    out.push(simp("hlo.real", real));
    out.push(simp("hlo.imag", imag));
    out.push(simp("hlo.complex", complex));
}

type R = Result<Option<Value>, PassError>;

/// The element type of a binary op's result and its two operands.
fn binary(op: Op) -> Option<(ElementType, Value, Value)> {
    if op.num_operands() != 2 {
        return None;
    }
    Some((elem(op)?, op.operand(0), op.operand(1)))
}

/// `x + 0 -> x`, `0 + x -> x` (integers, pred); `x + (-0.0) -> x` for a
/// canonical float `x`; `x + (y - x) -> y` (integers).
fn add(op: Op, _: &Builder) -> R {
    let Some((e, x, y)) = binary(op) else { return Ok(None) };
    if is_int_like(&e) {
        if is_zero(y) {
            return Ok(fwd(op, x));
        }
        if is_zero(x) {
            return Ok(fwd(op, y));
        }
    } else if is_std_float(&e) {
        if is_neg_zero(y) && canonical(x) {
            return Ok(fwd(op, x));
        }
        if is_neg_zero(x) && canonical(y) {
            return Ok(fwd(op, y));
        }
    }
    if e.is_integer() {
        // A + (B - A) => B, (B - A) + A => B.
        for (a, s) in [(x, y), (y, x)] {
            if let Some(sub) = def(s, "subtract") {
                if sub.operand(1).same_as(a) {
                    return Ok(fwd(op, sub.operand(0)));
                }
            }
        }
    }
    Ok(None)
}

/// `x - 0 -> x` (integers); `x - (+0.0) -> x` (canonical float `x`);
/// integers: `x - x -> 0`, `x - (x - y) -> y`, `x - (x + y) -> -y`,
/// `(x + y) - x -> y`.
fn subtract(op: Op, b: &Builder) -> R {
    let Some((e, x, y)) = binary(op) else { return Ok(None) };
    if e.is_integer() {
        if x.same_as(y) {
            let t = result_tensor(op).unwrap();
            return Ok(Some(splat_like(b, &t, zero_of(&e))?));
        }
        if is_zero(y) {
            return Ok(fwd(op, x));
        }
        if let Some(inner) = def(y, "subtract") {
            if inner.operand(0).same_as(x) {
                return Ok(fwd(op, inner.operand(1)));
            }
        }
        if let Some(inner) = def(y, "add") {
            let other = if inner.operand(0).same_as(x) {
                Some(inner.operand(1))
            } else if inner.operand(1).same_as(x) {
                Some(inner.operand(0))
            } else {
                None
            };
            if let Some(other) = other {
                return Ok(Some(b.unary("negate", other)?));
            }
        }
        if let Some(inner) = def(x, "add") {
            if inner.operand(0).same_as(y) {
                return Ok(fwd(op, inner.operand(1)));
            }
            if inner.operand(1).same_as(y) {
                return Ok(fwd(op, inner.operand(0)));
            }
        }
    } else if is_std_float(&e) && is_pos_zero(y) && canonical(x) {
        return Ok(fwd(op, x));
    }
    Ok(None)
}

/// `x * 1 -> x`, `1 * x -> x` (integers, pred, canonical floats);
/// integers and pred: `x * 0 -> 0`; integers: `(-a) * (-b) -> a * b`,
/// `|a| * |a| -> a * a`, `x * convert(p) -> select(p, x, 0)` for a pred `p`.
fn multiply(op: Op, b: &Builder) -> R {
    let Some((e, x, y)) = binary(op) else { return Ok(None) };
    if is_one(y) && identity_ok(x, &e) {
        return Ok(fwd(op, x));
    }
    if is_one(x) && identity_ok(y, &e) {
        return Ok(fwd(op, y));
    }
    if is_int_like(&e) {
        if is_zero(y) {
            return Ok(fwd(op, y));
        }
        if is_zero(x) {
            return Ok(fwd(op, x));
        }
    }
    if !e.is_integer() {
        return Ok(None);
    }
    if let (Some(nx), Some(ny)) = (def(x, "negate"), def(y, "negate")) {
        return Ok(Some(b.multiply(nx.operand(0), ny.operand(0))?));
    }
    if x.same_as(y) {
        if let Some(a) = def(x, "abs") {
            return Ok(Some(b.multiply(a.operand(0), a.operand(0))?));
        }
    }
    for (c, other) in [(x, y), (y, x)] {
        if let Some(conv) = def(c, "convert") {
            let p = conv.operand(0);
            if tensor(p).is_some_and(|t| t.elem.is_pred()) {
                let t = result_tensor(op).unwrap();
                let zero = splat_like(b, &t, zero_of(&e))?;
                return Ok(Some(b.select(p, other, zero)?));
            }
        }
    }
    Ok(None)
}

/// `x / 1 -> x` (integers, canonical floats); integer division by a power
/// of two becomes shifts (XLA's TryDivideToShift): `x >> k` for unsigned,
/// `select(x < 0, -(|x| >> k), |x| >> k)` for signed (truncating, and
/// right for the minimum value, whose negation wraps to itself).
fn divide(op: Op, b: &Builder) -> R {
    let Some((e, x, y)) = binary(op) else { return Ok(None) };
    if is_one(y) && identity_ok(x, &e) {
        return Ok(fwd(op, x));
    }
    if !e.is_integer() {
        return Ok(None);
    }
    let Some(c) = splat_int(y) else { return Ok(None) };
    let Some(k) = power_of_two(c, &e) else { return Ok(None) };
    if k == 0 {
        return Ok(None);
    }
    let t = result_tensor(op).unwrap();
    let shift = splat_like(b, &t, Scalar::Int(k as i128))?;
    if e.is_unsigned_int() {
        return Ok(Some(b.binary("shift_right_logical", x, shift)?));
    }
    let (neg, abs) = signed_abs(b, x, &t)?;
    let q = b.binary("shift_right_logical", abs, shift)?;
    let nq = b.unary("negate", q)?;
    Ok(Some(b.select(neg, nq, q)?))
}

/// `log2(c)` if the integer constant `c` is a positive power of two that
/// the type holds as a positive value.
fn power_of_two(c: i128, e: &ElementType) -> Option<u32> {
    if c <= 0 || c & (c - 1) != 0 {
        return None;
    }
    let k = c.trailing_zeros();
    let limit = if e.is_signed_int() { e.bit_width().saturating_sub(1) } else { e.bit_width() };
    (k < limit).then_some(k)
}

/// `(x < 0, select(x < 0, -x, x))` for a signed integer `x`.
fn signed_abs(b: &Builder, x: Value, t: &TensorType) -> Result<(Value, Value), PassError> {
    let zero = splat_like(b, t, Scalar::Int(0))?;
    let neg = b.compare("LT", x, zero, None)?;
    let nx = b.unary("negate", x)?;
    let abs = b.select(neg, nx, x)?;
    Ok((neg, abs))
}

/// Integers: `(a % b) % b -> a % b`; `iota % n -> iota` when every iota
/// value is below `n`; `x % 2^k` becomes a mask (XLA's TryRemainderToAnd),
/// with the sign of the dividend for signed types.
fn remainder(op: Op, b: &Builder) -> R {
    let Some((e, x, y)) = binary(op) else { return Ok(None) };
    if !e.is_integer() {
        return Ok(None);
    }
    if let Some(inner) = def(x, "remainder") {
        if inner.operand(1).same_as(y) {
            return Ok(fwd(op, x));
        }
    }
    let Some(c) = splat_int(y) else { return Ok(None) };
    if let Some(iota) = def(x, "iota") {
        let t = result_tensor(iota).unwrap();
        if let Some(dim) = iota.int_attr("iota_dimension") {
            let size = t.dims.get(dim as usize).copied().unwrap_or(i64::MAX) as i128;
            if c > 0 && c >= size && non_negative_int(x) {
                return Ok(fwd(op, x));
            }
        }
    }
    if power_of_two(c, &e).is_none() {
        return Ok(None);
    }
    let t = result_tensor(op).unwrap();
    let mask = splat_like(b, &t, Scalar::Int(c - 1))?;
    if e.is_unsigned_int() {
        return Ok(Some(b.binary("and", x, mask)?));
    }
    let (neg, abs) = signed_abs(b, x, &t)?;
    let r = b.binary("and", abs, mask)?;
    let nr = b.unary("negate", r)?;
    Ok(Some(b.select(neg, nr, r)?))
}

/// `pow(x, 0) -> 1` (C pow: also for NaN; f64 needs a canonical `x`
/// because pow(sNaN, 0) is NaN); `pow(x, 1) -> x` (integers only);
/// `pow(x, 2) -> x * x` (integers; f16, bf16 and f32, whose power
/// is computed in f64, where x^2 is exact, and rounded once like the
/// product; not f64, where pow is not correctly rounded).
fn power(op: Op, b: &Builder) -> R {
    let Some((e, x, y)) = binary(op) else { return Ok(None) };
    let t = result_tensor(op).unwrap();
    if is_zero(y) {
        let ok = is_int_like(&e)
            || e.is_complex()
            || matches!(e.0.as_str(), "f16" | "bf16" | "f32")
            || (e.0 == "f64" && canonical(x));
        if ok {
            return Ok(Some(splat_like(b, &t, one_of(&e))?));
        }
        return Ok(None);
    }
    // pow(x, 1) is not x for floats: pow returns a NaN of its own for a
    // NaN x, whatever its payload (seen in the interpreter's libm).
    if is_one(y) && is_int_like(&e) {
        return Ok(fwd(op, x));
    }
    let two = match constant::splat(y) {
        Some(Scalar::Int(2)) => true,
        Some(Scalar::Float(f)) => f == 2.0,
        _ => false,
    };
    if two && (e.is_integer() || matches!(e.0.as_str(), "f16" | "bf16" | "f32")) {
        return Ok(Some(b.multiply(x, x)?));
    }
    Ok(None)
}

/// Shared by maximum and minimum: `m(x, x) -> x`; `m(x, e) -> x` for the
/// identity `e` (lowest value for max, highest for min); the absorption
/// rules `m(m(x, y), y) -> m(x, y)`, `m(x, m(x, y)) -> m(x, y)` and
/// `m(y, m(x, y)) -> m(y, x)`. These return operand bits unchanged (NaN
/// propagates the first NaN operand, -0 < +0), see [`selection_ok`].
fn min_max(op: Op, b: &Builder, is_max: bool) -> R {
    let Some((e, x, y)) = binary(op) else { return Ok(None) };
    if !(is_int_like(&e) || is_std_float(&e)) {
        return Ok(None);
    }
    let name = if is_max { "maximum" } else { "minimum" };
    if x.same_as(y) && selection_ok(x, &e) {
        return Ok(fwd(op, x));
    }
    let identity = if is_max {
        if is_std_float(&e) {
            Some(Scalar::Float(f64::NEG_INFINITY))
        } else {
            constant::min_value(&e)
        }
    } else if is_std_float(&e) {
        Some(Scalar::Float(f64::INFINITY))
    } else {
        constant::max_value(&e)
    };
    if let Some(id) = identity {
        if splat_equals(y, id) && selection_ok(x, &e) {
            return Ok(fwd(op, x));
        }
        if splat_equals(x, id) && selection_ok(y, &e) {
            return Ok(fwd(op, y));
        }
    }
    // m(m(x, y), y) -> m(x, y); m(m(y, x), y) -> m(y, x).
    if let Some(inner) = def(x, name) {
        if inner.operand(0).same_as(y) || inner.operand(1).same_as(y) {
            return Ok(fwd(op, x));
        }
    }
    if let Some(inner) = def(y, name) {
        // m(x, m(x, z)) -> m(x, z).
        if inner.operand(0).same_as(x) {
            return Ok(fwd(op, y));
        }
        // m(x, m(z, x)) -> m(x, z).
        if inner.operand(1).same_as(x) {
            return Ok(Some(b.binary(name, x, inner.operand(0))?));
        }
    }
    Ok(None)
}

fn maximum(op: Op, b: &Builder) -> R {
    min_max(op, b, true)
}

fn minimum(op: Op, b: &Builder) -> R {
    min_max(op, b, false)
}

/// `x & x -> x`; `x & 0 -> 0`; `x & ~0 -> x` (true for pred).
fn and(op: Op, _: &Builder) -> R {
    let Some((e, x, y)) = binary(op) else { return Ok(None) };
    if !is_int_like(&e) {
        return Ok(None);
    }
    if x.same_as(y) {
        return Ok(fwd(op, x));
    }
    if is_zero(y) {
        return Ok(fwd(op, y));
    }
    if is_zero(x) {
        return Ok(fwd(op, x));
    }
    if is_all_ones(y, &e) {
        return Ok(fwd(op, x));
    }
    if is_all_ones(x, &e) {
        return Ok(fwd(op, y));
    }
    Ok(None)
}

/// `x | x -> x`; `x | 0 -> x`; `x | ~0 -> ~0` (true for pred).
fn or(op: Op, _: &Builder) -> R {
    let Some((e, x, y)) = binary(op) else { return Ok(None) };
    if !is_int_like(&e) {
        return Ok(None);
    }
    if x.same_as(y) {
        return Ok(fwd(op, x));
    }
    if is_zero(y) {
        return Ok(fwd(op, x));
    }
    if is_zero(x) {
        return Ok(fwd(op, y));
    }
    if is_all_ones(y, &e) {
        return Ok(fwd(op, y));
    }
    if is_all_ones(x, &e) {
        return Ok(fwd(op, x));
    }
    Ok(None)
}

/// `x ^ x -> 0`; `x ^ 0 -> x`.
fn xor(op: Op, b: &Builder) -> R {
    let Some((e, x, y)) = binary(op) else { return Ok(None) };
    if !is_int_like(&e) {
        return Ok(None);
    }
    if x.same_as(y) {
        let t = result_tensor(op).unwrap();
        return Ok(Some(splat_like(b, &t, zero_of(&e))?));
    }
    if is_zero(y) {
        return Ok(fwd(op, x));
    }
    if is_zero(x) {
        return Ok(fwd(op, y));
    }
    Ok(None)
}

/// `not(not(x)) -> x`.
fn not(op: Op, _: &Builder) -> R {
    match def(op.operand(0), "not") {
        Some(inner) => Ok(fwd(op, inner.operand(0))),
        None => Ok(None),
    }
}

/// `-(-x) -> x`: a sign flip twice, for integers (wrapping), complex and
/// the standard floats (f16/bf16 flip the sign bit directly).
fn negate(op: Op, _: &Builder) -> R {
    let Some(e) = elem(op) else { return Ok(None) };
    if !(is_int_like(&e) || is_std_float(&e) || e.is_complex()) {
        return Ok(None);
    }
    match def(op.operand(0), "negate") {
        Some(inner) => Ok(fwd(op, inner.operand(0))),
        None => Ok(None),
    }
}

/// `abs(abs(x)) -> abs(x)` (real types); `abs(x) -> x` for a
/// non-negative integer `x`.
fn abs(op: Op, _: &Builder) -> R {
    let x = op.operand(0);
    let Some(e) = tensor(x).map(|t| t.elem) else { return Ok(None) };
    if e.is_complex() {
        return Ok(None);
    }
    if def(x, "abs").is_some_and(|inner| tensor(inner.operand(0)).is_some_and(|t| !t.elem.is_complex())) {
        return Ok(fwd(op, x));
    }
    if e.is_signed_int() && non_negative_int(x) {
        return Ok(fwd(op, x));
    }
    Ok(None)
}

/// `exp(0) -> 1` (exactly 1 for either zero).
fn exponential(op: Op, b: &Builder) -> R {
    let Some(t) = result_tensor(op) else { return Ok(None) };
    if is_std_float(&t.elem) && is_zero(op.operand(0)) {
        return Ok(Some(splat_like(b, &t, Scalar::Float(1.0))?));
    }
    Ok(None)
}

/// `real(complex(r, i)) -> r`; `real(x) -> x` for a real `x`.
fn real(op: Op, _: &Builder) -> R {
    let x = op.operand(0);
    if let Some(c) = def(x, "complex") {
        return Ok(fwd(op, c.operand(0)));
    }
    if tensor(x).is_some_and(|t| is_std_float(&t.elem)) {
        return Ok(fwd(op, x));
    }
    Ok(None)
}

/// `imag(complex(r, i)) -> i`; `imag(x) -> +0` for a real `x`.
fn imag(op: Op, b: &Builder) -> R {
    let x = op.operand(0);
    if let Some(c) = def(x, "complex") {
        return Ok(fwd(op, c.operand(1)));
    }
    if let Some(t) = tensor(x).filter(|t| is_std_float(&t.elem)) {
        return Ok(Some(splat_like(b, &t, Scalar::Float(0.0))?));
    }
    Ok(None)
}

/// `complex(real(c), imag(c)) -> c`.
fn complex(op: Op, _: &Builder) -> R {
    if let (Some(r), Some(i)) = (def(op.operand(0), "real"), def(op.operand(1), "imag")) {
        if r.operand(0).same_as(i.operand(0)) {
            return Ok(fwd(op, r.operand(0)));
        }
    }
    Ok(None)
}
