//! `divide-to-multiply`: the float division rules of XLA's algebraic
//! simplifier (`HandleDivide`), which turn divisions into multiplications.
//! rxla's `algsimp` only rewrites exactly; these rules change roundings,
//! and XLA:CPU's results are rounded this way.
//!
//! In XLA's order, for f16, f32 and f64:
//! - `exp(A) / exp(B) -> exp(A - B)`; `A / exp(B) -> A * exp(-B)`;
//! - `A / pow(B, C) -> A * pow(B, -C)`;
//! - `A / sqrt(B) -> A * rsqrt(B)` and `A / rsqrt(B) -> A * sqrt(B)` when
//!   the root has no other user;
//! - `A / C` and `A / broadcast(C)` for a constant `C` and a non-constant
//!   `A`: `A * (1 / C)`, the reciprocal folded by `constant_folding`;
//! - `(A / B) / (C / D) -> (A * D) / (B * C)`, `(A / B) / C -> A / (B * C)`,
//!   `A / (B / C) -> (A * C) / B`;
//! - `A / broadcast(B)` where `B` has no other user and fewer elements than
//!   the quotient: `A * broadcast(1 / B)`, one division per element of `B`
//!   instead of one per element of the result (JAX's softmax,
//!   `e / sum(e, keepdims=True)`).
//!
//! XLA:CPU computes bf16 arithmetic in f32 (FloatNormalization runs before
//! its simplifier, and every use gets its own convert): a bf16 division by
//! a constant or a broadcast becomes an f32 product of the converted
//! dividend and an f32 reciprocal, rounded to bf16 once, whatever else
//! uses the divisor. The other rules do not see through the converts, so
//! bf16 keeps them. Complex and 8-bit float divisions are left alone.
//!
//! The pass runs once, after one `algsimp` and before the simplification
//! loop: XLA applies these rules before its CSE, so a divisor's users are
//! counted before identical broadcasts merge. Divisions the pass creates
//! are visited too. `--disable-passes=divide-to-multiply` keeps the
//! divisions as written.

use crate::constant::{ConstantBuilder, Scalar};
use melior::ir::OperationRef;
use rxla_ir::{
    builder::Builder,
    computation,
    layout::copy_layout_attr,
    op::{is_trivially_dead_when_unused, Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::{ElementType, HloType, TensorType},
};
use std::collections::HashSet;

#[derive(Clone, Debug)]
pub struct DivideToMultiply;

impl HloPass for DivideToMultiply {
    const NAME: &'static str = "divide-to-multiply";
    const DESCRIPTION: &'static str =
        "Rewrite float divisions as XLA's algsimp does: by exp/pow/sqrt/rsqrt, constants, broadcasts and quotients";
    const EXACT: bool = false;

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        for func in computation::functions(module) {
            let mut work: Vec<Op> = func.walk_preorder().into_iter().filter(|op| op.is("divide")).collect();
            work.reverse();
            // The divisions still to visit, never erased before their turn.
            let mut pending: HashSet<Op> = work.iter().copied().collect();
            while let Some(op) = work.pop() {
                pending.remove(&op);
                if let Some(created) = rewrite(op)? {
                    // As XLA's ReplaceInstruction, the division and what
                    // only it used go now: later divisors' users are
                    // counted without them.
                    erase_unused(op, &pending);
                    pending.extend(created.iter().copied());
                    work.extend(created.into_iter().rev());
                }
            }
        }
        Ok(())
    }
}

/// Erases the unused `op`, then each of its operands' side-effect-free
/// producers left unused, except the divisions in `pending`.
fn erase_unused(op: Op, pending: &HashSet<Op>) {
    let mut producers: Vec<Op> = Vec::new();
    for v in op.operands() {
        if let Some(p) = v.op() {
            if !producers.contains(&p) {
                producers.push(p);
            }
        }
    }
    op.erase();
    for p in producers {
        if !p.has_uses() && !pending.contains(&p) && is_trivially_dead_when_unused(p) {
            erase_unused(p, pending);
        }
    }
}

/// Rewrites the division `op` by the first rule that applies. `None` when
/// none does; otherwise `op` is unused and the divisions the rule created
/// are returned, to be visited in turn.
fn rewrite(op: Op) -> Result<Option<Vec<Op>>, PassError> {
    if op.num_operands() != 2 || op.num_results() != 1 || !op.has_uses() {
        return Ok(None);
    }
    let HloType::Tensor(t) = op.result_type(0) else { return Ok(None) };
    let (a, d) = (op.operand(0), op.operand(1));
    let b = Builder::before(op);
    let mut created = Vec::new();
    // XLA's order; bf16 only takes the reciprocal rules (see above).
    let native = matches!(t.elem.0.as_str(), "f16" | "f32" | "f64");
    if !native && t.elem.0 != "bf16" {
        return Ok(None);
    }
    let mut result = if native { functions(&b, a, d)? } else { None };
    if result.is_none() {
        result = reciprocal_rules(&b, &t, a, d, &mut created)?;
    }
    if result.is_none() && native {
        result = quotients(&b, a, d, &mut created)?;
    }
    let Some(result) = result else { return Ok(None) };
    if let Some(new) = result.op() {
        copy_layout_attr(op, new);
        if let (Some(metadata), false) = (op.attr_raw("hlo.metadata"), new.has_attr("hlo.metadata")) {
            new.set_attr_raw("hlo.metadata", metadata);
        }
    }
    op.replace_result_uses(0, result);
    Ok(Some(created))
}

/// The rules on the divisor's defining function: exp, pow, sqrt, rsqrt.
fn functions(b: &Builder, a: Value, d: Value) -> Result<Option<Value>, PassError> {
    if let Some(exp) = d.defined_by("exponential") {
        if let Some(num) = a.defined_by("exponential") {
            let diff = b.subtract(num.operand(0), exp.operand(0))?;
            return Ok(Some(b.unary("exponential", diff)?));
        }
        let inverse = b.unary("exponential", b.unary("negate", exp.operand(0))?)?;
        return Ok(Some(b.multiply(a, inverse)?));
    }
    if let Some(pow) = d.defined_by("power") {
        let inverse = b.binary("power", pow.operand(0), b.unary("negate", pow.operand(1))?)?;
        return Ok(Some(b.multiply(a, inverse)?));
    }
    for (root, inverse) in [("sqrt", "rsqrt"), ("rsqrt", "sqrt")] {
        if let Some(r) = d.defined_by(root) {
            if d.has_single_user() {
                return Ok(Some(b.multiply(a, b.unary(inverse, r.operand(0))?)?));
            }
        }
    }
    Ok(None)
}

/// Division by a constant or a broadcast: a product with the reciprocal.
fn reciprocal_rules(
    b: &Builder,
    t: &TensorType,
    a: Value,
    d: Value,
    created: &mut Vec<Op>,
) -> Result<Option<Value>, PassError> {
    // bf16 is computed in f32, as XLA:CPU's FloatNormalization has it.
    let compute = if t.elem.0 == "bf16" { ElementType::new("f32") } else { t.elem.clone() };
    let widen = |v: Value| -> Result<Value, PassError> {
        if compute == t.elem {
            Ok(v)
        } else {
            b.convert(v, &compute)
        }
    };
    let scale = if is_constant(d) {
        if is_constant(a) {
            return Ok(None);
        }
        reciprocal(b, widen(d)?, created)?
    } else if let Some(bc) = d.defined_by("broadcast") {
        let Some(dims) = bc.dims_attr("dimensions") else { return Ok(None) };
        let x = bc.operand(0);
        let Some(xt) = x.ty().into_tensor() else { return Ok(None) };
        let applies = if is_constant(x) {
            !is_constant(a)
        } else {
            // A bf16 divisor gets a convert of its own per use in XLA.
            (x.has_single_user() || compute != t.elem) && xt.num_elements() < t.num_elements()
        };
        if !applies {
            return Ok(None);
        }
        let r = reciprocal(b, widen(x)?, created)?;
        b.broadcast(r, &dims, &t.dims)?
    } else {
        return Ok(None);
    };
    let mut product = b.multiply(widen(a)?, scale)?;
    if compute != t.elem {
        product = b.convert(product, &t.elem)?;
    }
    Ok(Some(product))
}

/// Quotients of quotients: one division instead of two.
fn quotients(b: &Builder, a: Value, d: Value, created: &mut Vec<Op>) -> Result<Option<Value>, PassError> {
    let (x, y) = match (a.defined_by("divide"), d.defined_by("divide")) {
        (Some(n), Some(m)) => (b.multiply(n.operand(0), m.operand(1))?, b.multiply(n.operand(1), m.operand(0))?),
        (Some(n), None) => (n.operand(0), b.multiply(n.operand(1), d)?),
        (None, Some(m)) => (b.multiply(a, m.operand(1))?, m.operand(0)),
        (None, None) => return Ok(None),
    };
    divide(b, x, y, created).map(Some)
}

/// `1 / v`, in `v`'s type. The reciprocal of a constant is left for
/// `constant_folding` (XLA inverts the literal), not visited: `1 / C`
/// would match the constant rule again.
fn reciprocal(b: &Builder, v: Value, created: &mut Vec<Op>) -> Result<Value, PassError> {
    let one = b.scalar_like(v, Scalar::Float(1.0))?;
    if is_constant(v) {
        return b.divide(one, v);
    }
    divide(b, one, v, created)
}

/// `x / y`, recorded in `created` to be visited.
fn divide(b: &Builder, x: Value, y: Value, created: &mut Vec<Op>) -> Result<Value, PassError> {
    let q = b.divide(x, y)?;
    created.extend(q.op());
    Ok(q)
}

fn is_constant(v: Value) -> bool {
    v.defined_by("constant").is_some()
}
