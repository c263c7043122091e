//! The reduction half of `xla-vectorize-loads-stores` (CPU): a loop that
//! accumulates scalars over contiguous elements (a CPU row reduction's
//! row loop) runs `L` elements per step with vector accumulators and ends
//! with one horizontal `vector.reduction` per accumulator.
//!
//! A candidate is an `scf.for` with constant bounds and step 1 whose
//! carried values are scalars, each updated once per iteration by a
//! reassociable combiner (`arith.addf`/`mulf` with `reassoc`;
//! `maximumf`/`minimumf`, which are exactly associative; the integer
//! `addi`/`muli`/`andi`/`ori`/`xori`/`max*`/`min*`) and otherwise unused,
//! or tensors written once per iteration at an index contiguous in the
//! induction variable (a multi-output reduction's side outputs), and
//! whose other per-iteration work is loads contiguous in the induction
//! variable, elementwise ops and index computations (the same roles as a
//! lane loop's body). Then:
//!
//! - a new loop steps `L` elements at a time over the largest multiple of
//!   `L` of the trip count, carrying `vector<L x T>` accumulators that start
//!   at the combiner's identity (`-0.0` for `addf`, `-inf` for `maximumf`,
//!   ...), and the side outputs: each step reads `vector<L x T>` at the
//!   step's index, computes the body on vectors, combines, and writes the
//!   side outputs' vectors;
//! - `vector.reduction` reduces each accumulator (with `reassoc`) and the
//!   combiner folds in the loop's initial value;
//! - the original loop runs the remaining iterations, from there, or goes.
//!
//! `L` is four vector registers' worth of the widest element (the host's
//! registers, or the pass's `vector-bits`: 64 f32 lanes with AVX-512, 32
//! with AVX2): four independent accumulators, as LLVM's loop vectorizer
//! interleaves, to hide the latency of the additions. A body with a
//! function `xla-expand-math` expands into a polynomial (`exp`, `log`,
//! `tanh`, ...) gets two registers' worth: the polynomial's latency hides
//! the additions' already. The emitters mark
//! CPU reducers reassociative, so the result may differ from the loop's
//! order only by rounding, as LLVM's own vectorization already did.

use crate::ir::*;
use crate::vectorize_loads_stores::{
    constant_index, copy_chain, index_chain, lane_roles, stride, transfer_read, transfer_write, vector_copy,
    vectorizable_element, Composer, Role,
};
use mlir_sys::*;

/// The combiner kinds: (op name, `vector.kind`).
const COMBINERS: &[(&str, &str)] = &[
    ("arith.addf", "add"),
    ("arith.mulf", "mul"),
    ("arith.maximumf", "maximumf"),
    ("arith.minimumf", "minimumf"),
    ("arith.addi", "add"),
    ("arith.muli", "mul"),
    ("arith.andi", "and"),
    ("arith.ori", "or"),
    ("arith.xori", "xor"),
    ("arith.maxsi", "maxsi"),
    ("arith.minsi", "minsi"),
    ("arith.maxui", "maxui"),
    ("arith.minui", "minui"),
];

/// The registers of accumulators per loop step.
const REGISTERS: i64 = 4;
/// The registers per step where the body computes a function that
/// `xla-expand-math` expands into a polynomial (a softmax's `exp`): its
/// latency already separates the additions, and four copies of it gave
/// LLVM twice the code of two for no speed (one was slower on short rows,
/// a ViT's 197-long softmax).
const REGISTERS_EXPANDED: i64 = 2;

fn kind(op: Op) -> Option<&'static str> {
    let name = op.name();
    let (_, kind) = COMBINERS.iter().find(|(n, _)| *n == name)?;
    // IEEE maximum and minimum (NaN-propagating, -0 below +0) are exactly
    // associative and commutative: any order gives the same result. A float
    // sum or product may be reordered only where the emitter allows it.
    let exact = matches!(name.as_str(), "arith.maximumf" | "arith.minimumf");
    let float = name.ends_with('f');
    if float && !exact && op.attr_raw("fastmath").and_then(fastmath_flags).is_none_or(|f| f & FASTMATH_REASSOC == 0) {
        return None;
    }
    Some(kind)
}

/// The identity of a combiner on `ty`.
fn identity(op: Op, ty: MlirType) -> MlirAttribute {
    let ctx = unsafe { mlirTypeGetContext(ty) };
    let bits = bit_width(ty);
    let float = |v: f64| unsafe { mlirFloatAttrDoubleGet(ctx, ty, v) };
    let int = |v: i64| unsafe { mlirIntegerAttrGet(ty, v) };
    match op.name().as_str() {
        "arith.addf" => float(-0.0),
        "arith.mulf" => float(1.0),
        "arith.maximumf" => float(f64::NEG_INFINITY),
        "arith.minimumf" => float(f64::INFINITY),
        "arith.muli" => int(1),
        "arith.andi" | "arith.minui" => int(-1),
        "arith.maxsi" => int(if bits >= 64 { i64::MIN } else { -(1i64 << (bits - 1)) }),
        "arith.minsi" => int(if bits >= 64 { i64::MAX } else { (1i64 << (bits - 1)) - 1 }),
        _ => int(0),
    }
}

/// A contiguous access's index in the vector loop: the induction variable
/// itself (`iv`, now `step_iv`), or an index op (an `Index` role, copied
/// into the vector loop and `mapped`).
fn step_index(mapped: &[(Value, Value)], index: Value, iv: Value, step_iv: Value) -> Result<Value> {
    match mapped.iter().find(|(from, _)| *from == index) {
        Some((_, c)) => Ok(*c),
        None if index == iv => Ok(step_iv),
        None => Err(bug("a contiguous access whose index is not computed in the loop")),
    }
}

/// Vectorizes the reduction loop `lp` (CPU); returns whether it did.
pub fn vectorize(lp: Op, vector_bits: i64) -> Result<bool> {
    let operands = lp.operands();
    if operands.len() < 4 {
        return Ok(false);
    }
    let (Some(lo), Some(hi), Some(1)) =
        (constant_index(operands[0]), constant_index(operands[1]), constant_index(operands[2]))
    else {
        return Ok(false);
    };
    let Some(body) = lp.region_block(0) else { return Ok(false) };
    let args = block_args(body);
    let iv = args[0];
    let carried = &args[1..];
    // A carried tensor is a side output, written at the element read.
    let stored: Vec<bool> = carried.iter().map(|a| is_ranked_tensor(a.raw_type())).collect();
    if !carried.iter().zip(&stored).all(|(a, s)| *s || vectorizable_element(a.raw_type())) {
        return Ok(false);
    }
    let contiguous = |index: Value| Composer::in_loop(lp, iv).expr(index).is_some_and(|e| stride(&e) == Some(1));
    let store = |op: Op| {
        op.is_named("tensor.insert")
            && op.num_operands() == 3
            && carried.contains(&op.operand(1))
            && vectorizable_element(op.operand(0).raw_type())
            && shape_of(op.operand(1).raw_type()).len() == 1
            && contiguous(op.operand(2))
    };
    let combine = |op: Op| {
        kind(op).is_some()
            && op.num_operands() == 2
            && carried.iter().any(|a| op.operand(0) == *a || op.operand(1) == *a)
    };
    let load = |op: Op| {
        op.is_named("tensor.extract")
            && op.num_operands() == 2
            && vectorizable_element(op.result(0).raw_type())
            && crate::vectorize_loads_stores::defined_outside(op.operand(0), lp)
            && shape_of(op.operand(0).raw_type()).len() == 1
            && contiguous(op.operand(1))
    };
    let Some(roles) = lane_roles(lp, &load, &store, &combine) else { return Ok(false) };
    if carried.iter().zip(&stored).any(|(a, s)| *s && !a.users().first().is_some_and(|u| store(*u))) {
        // A tensor passed through unchanged (lane_roles allows it).
        return Ok(false);
    }
    if !roles.iter().any(|(_, r)| *r == Role::Load) {
        return Ok(false);
    }
    // Four registers of the widest element (two with a polynomial).
    let widest = roles
        .iter()
        .flat_map(|(op, _)| op.results())
        .chain(carried.iter().copied())
        .filter(|v| is_integer(v.raw_type()) || is_float(v.raw_type()))
        .map(|v| bit_width(v.raw_type()) as i64)
        .max()
        .unwrap_or(32)
        .max(8);
    let expanded =
        roles.iter().any(|(op, _)| op.name().strip_prefix("math.").is_some_and(|m| crate::math::IN_HOUSE.contains(&m)));
    let registers = if expanded { REGISTERS_EXPANDED } else { REGISTERS };
    let lanes = registers * vector_bits / widest;
    let steps = (hi - lo) / lanes;
    if steps < 1 {
        return Ok(false);
    }
    let split = lo + steps * lanes;
    let vector_of = |ty: MlirType| vector_type_of(ty, lanes);
    // Each carried value's combiner or store.
    let updates: Vec<Op> = carried.iter().map(|a| a.users()[0]).collect();

    let b = B::before(lp);
    // Work that is the same in every iteration moves before the loop (both
    // loops then use it).
    for (op, role) in &roles {
        if *role == Role::Uniform {
            op.move_before(lp);
        }
    }
    let inits: Vec<Value> = (0..carried.len())
        .map(|k| {
            if stored[k] {
                return operands[3 + k];
            }
            let a = carried[k];
            let ty = vector_of(a.raw_type());
            let splat = unsafe { mlirDenseElementsAttrSplatGet(ty, identity(updates[k], a.raw_type())) };
            b.val("arith.constant", &[], ty, &[("value", splat)])
        })
        .collect();
    let mut loop_operands = vec![b.const_index(lo), b.const_index(split), b.const_index(lanes)];
    loop_operands.extend(&inits);
    let types: Vec<MlirType> = inits.iter().map(|v| v.raw_type()).collect();
    let mut arg_types = vec![b.index()];
    arg_types.extend(&types);
    let (region, block) = region_with_block(&arg_types, b.loc);
    let step_loop = b.op("scf.for", &loop_operands, &types, &[], vec![region]);
    let new_args = block_args(block);
    let at = b.at_end(block);
    let mut mapped: Vec<(Value, Value)> = Vec::new();
    for (a, n) in carried.iter().zip(&new_args[1..]) {
        mapped.push((*a, *n));
    }
    let mut combined = vec![None; carried.len()];
    for (op, role) in &roles {
        match role {
            Role::Uniform => {}
            Role::Store => {
                // The vector of values at the step's index, into the
                // carried tensor.
                let value = op.operand(0);
                let at_step = step_index(&mapped, op.operand(2), iv, new_args[0])?;
                let vector = match mapped.iter().find(|(from, _)| *from == value) {
                    Some((_, v)) => *v,
                    None => at.val("vector.broadcast", &[value], vector_of(value.raw_type()), &[]),
                };
                let k = carried.iter().position(|a| op.operand(1) == *a).expect("a carried tensor");
                let tensor = new_args[1 + k];
                combined[k] = Some(transfer_write(&at, vector, tensor, at_step));
            }
            Role::Index => {
                let used: Vec<Value> = op.results().into_iter().filter(|r| r.has_uses()).collect();
                let copies = copy_chain(&at, &index_chain(*op, lp, iv), Some((iv, new_args[0])));
                for r in used {
                    if let Some((_, c)) = copies.iter().find(|(from, _)| *from == r) {
                        mapped.push((r, *c));
                    }
                }
            }
            Role::Load => {
                let at_step = step_index(&mapped, op.operand(1), iv, new_args[0])?;
                let v = transfer_read(&at, op.operand(0), at_step, vector_of(op.result(0).raw_type()));
                mapped.push((op.result(0), v));
            }
            Role::Elementwise => {
                let copy = vector_copy(&at, *op, &mapped, lanes);
                mapped.extend(op.results().into_iter().zip(copy.results()));
            }
            Role::Combine => {
                let copy = vector_copy(&at, *op, &mapped, lanes);
                let k = carried.iter().position(|a| op.operands().contains(a)).expect("a carried accumulator");
                combined[k] = Some(copy.result(0));
            }
        }
    }
    let yielded: Vec<Value> =
        combined.into_iter().map(|v| v.expect("every accumulator is combined, every tensor written")).collect();
    b.append(block).op("scf.yield", &yielded, &[], &[], vec![]);
    // The horizontal step, then the loop's initial value.
    let mut finals = Vec::new();
    for (k, c) in updates.iter().enumerate() {
        if stored[k] {
            finals.push(step_loop.result(k));
            continue;
        }
        let ty = carried[k].raw_type();
        let kind_attr = b.combining_kind(kind(*c).expect("a combiner"));
        let mut attrs = vec![("kind", kind_attr)];
        if is_float(ty) {
            attrs.push(("fastmath", b.fastmath(FASTMATH_REASSOC)));
        }
        let reduced = b.val("vector.reduction", &[step_loop.result(k)], ty, &attrs);
        let fold = c.clone_detached();
        let acc_at = if c.operand(0) == carried[k] { 0 } else { 1 };
        fold.set_operand(acc_at, operands[3 + k]);
        fold.set_operand(1 - acc_at, reduced);
        b.insert(fold.raw());
        finals.push(fold.result(0));
    }
    if split == hi {
        replace_op(lp, &finals);
    } else {
        // The rest of the iterations, scalar, from the vector loop's result.
        lp.set_operand(0, b.const_index(split));
        for (k, f) in finals.into_iter().enumerate() {
            lp.set_operand(3 + k, f);
        }
    }
    Ok(true)
}
