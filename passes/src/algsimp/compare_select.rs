//! Compares with a known outcome and selects with a known choice.
//!
//! `compare(x, x)` is only folded where equality is reflexive: integers,
//! pred, and floats compared in TOTALORDER (a FLOAT compare of NaN with
//! itself is unordered). Rules that depend on the integer order require
//! the compare to use the element type's own signedness.

use super::*;
use rxla_ir::rewrite::Pattern;

pub(super) fn patterns(out: &mut Vec<Rc<dyn Pattern>>) {
    out.push(simp("hlo.compare", compare));
    out.push(simp("hlo.select", select));
}

type R = Result<Option<Value>, PassError>;

fn bool_like(op: Op, b: &Builder, value: bool) -> R {
    let t = result_tensor(op).unwrap();
    Ok(Some(splat_like(b, &t, Scalar::Bool(value))?))
}

/// The outcome of `a <dir> a` for a reflexive order.
fn reflexive(dir: &str) -> Option<bool> {
    match dir {
        "EQ" | "GE" | "LE" => Some(true),
        "NE" | "LT" | "GT" => Some(false),
        _ => None,
    }
}

fn compare(op: Op, b: &Builder) -> R {
    let (x, y) = (op.operand(0), op.operand(1));
    let Some(e) = tensor(x).map(|t| t.elem) else { return Ok(None) };
    let Some(dir) = direction(op) else { return Ok(None) };
    let ctype = compare_type(op);
    let int_order = is_int_like(&e) && default_int_compare(op, &e);

    // compare(x, x): integers and pred, or floats in total order.
    if x.same_as(y) && (int_order || (e.is_float() && ctype.as_deref() == Some("TOTALORDER"))) {
        if let Some(v) = reflexive(&dir) {
            return bool_like(op, b, v);
        }
    }

    if int_order {
        // Comparisons of a non-negative value with zero (every value of an
        // unsigned type is non-negative).
        if !e.is_pred() {
            if is_zero(y) && non_negative_int(x) {
                match dir.as_str() {
                    "LT" => return bool_like(op, b, false),
                    "GE" => return bool_like(op, b, true),
                    _ => {}
                }
            }
            if is_zero(x) && non_negative_int(y) {
                match dir.as_str() {
                    "GT" => return bool_like(op, b, false),
                    "LE" => return bool_like(op, b, true),
                    _ => {}
                }
            }
        }
        // pred: a != false -> a, a == true -> a.
        if e.is_pred() {
            let is_false = |v: Value| splat_int(v) == Some(0);
            let is_true = |v: Value| splat_int(v) == Some(1);
            match dir.as_str() {
                "NE" if is_false(y) => return Ok(fwd(op, x)),
                "NE" if is_false(x) => return Ok(fwd(op, y)),
                "EQ" if is_true(y) => return Ok(fwd(op, x)),
                "EQ" if is_true(x) => return Ok(fwd(op, y)),
                _ => {}
            }
        }
    }

    let ordered = if e.is_float() { ctype.as_deref() != Some("TOTALORDER") } else { int_order };

    // select(p, 1, 0) != 0 -> p (the jnp.where(mask.astype(...)) pattern):
    // the select yields exactly 1 or 0, so no NaN or -0 is compared.
    if dir == "NE" && is_zero(y) && ordered {
        if let Some(sel) = def(x, "select") {
            let p = sel.operand(0);
            if is_one(sel.operand(1)) && is_zero(sel.operand(2)) {
                if let Some(v) = fwd(op, p) {
                    return Ok(Some(v));
                }
            }
        }
    }

    // gt(max(a, b), a) -> gt(b, a); gt(max(a, b), b) -> gt(a, b);
    // gt(a, min(a, b)) -> gt(a, b); gt(b, min(a, b)) -> gt(b, a).
    // max/min return one of their operands (NaN propagates, -0 < +0 is
    // consistent with the compare's +0 == -0), so the outcomes agree; not
    // for TOTALORDER, where a -NaN is below everything.
    if dir == "GT" && ordered && (is_int_like(&e) || is_std_float(&e)) {
        if let Some(m) = def(x, "maximum") {
            let (a, c) = (m.operand(0), m.operand(1));
            if y.same_as(a) {
                return Ok(Some(b.compare("GT", c, a, ctype.as_deref())?));
            }
            if y.same_as(c) {
                return Ok(Some(b.compare("GT", a, c, ctype.as_deref())?));
            }
        }
        if let Some(m) = def(y, "minimum") {
            let (a, c) = (m.operand(0), m.operand(1));
            if x.same_as(a) {
                return Ok(Some(b.compare("GT", a, c, ctype.as_deref())?));
            }
            if x.same_as(c) {
                return Ok(Some(b.compare("GT", c, a, ctype.as_deref())?));
            }
        }
    }
    Ok(None)
}

/// `select(p, x, x) -> x`; `select(true, x, y) -> x`;
/// `select(false, x, y) -> y`; `select(not(p), x, y) -> select(p, y, x)`;
/// pred results: `select(p, true, false) -> p`,
/// `select(p, false, true) -> not(p)`, and `select(a <dir> b, a, b)`
/// becomes `or(a, b)` (GT, GE), `and(a, b)` (LT, LE), `b` (EQ), `a` (NE).
fn select(op: Op, b: &Builder) -> R {
    let (p, x, y) = (op.operand(0), op.operand(1), op.operand(2));
    if x.same_as(y) {
        return Ok(fwd(op, x));
    }
    match splat_int(p) {
        Some(1) => return Ok(fwd(op, x)),
        Some(0) => return Ok(fwd(op, y)),
        _ => {}
    }
    if let Some(n) = def(p, "not") {
        return Ok(Some(b.select(n.operand(0), y, x)?));
    }
    let Some(e) = elem(op) else { return Ok(None) };
    if !e.is_pred() {
        return Ok(None);
    }
    let same_shape = p.ty() == op.result_type(0);
    if same_shape && splat_int(x) == Some(1) && splat_int(y) == Some(0) {
        return Ok(fwd(op, p));
    }
    if same_shape && splat_int(x) == Some(0) && splat_int(y) == Some(1) {
        return Ok(Some(b.unary("not", p)?));
    }
    if let Some(cmp) = def(p, "compare") {
        if cmp.operand(0).same_as(x) && cmp.operand(1).same_as(y) && default_int_compare(cmp, &e) {
            match direction(cmp).as_deref() {
                Some("GT" | "GE") => return Ok(Some(b.binary("or", x, y)?)),
                Some("LT" | "LE") => return Ok(Some(b.binary("and", x, y)?)),
                Some("EQ") => return Ok(fwd(op, y)),
                Some("NE") => return Ok(fwd(op, x)),
                _ => {}
            }
        }
    }
    Ok(None)
}
