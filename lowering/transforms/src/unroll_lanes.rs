//! The fallback of `xla-vectorize-loads-stores` (CPU) for a lane loop
//! over vectors that does not become vector code: the loop is unrolled.
//!
//! A CPU column reduction's strip is a loop over its lanes whose
//! accumulators are vectors: lane `iv` is read with `vector.extract
//! %acc[%iv]` and written with `vector.insert %x, %lanes[%iv]` into a
//! carried vector (see `rxla-emitters`' reduction emitter). Where the body
//! is straight-line vector code the loop disappears; where it is not (a
//! call the inliner left, a gather, an index that is not contiguous across
//! lanes), a loop of dynamic lane accesses would go through memory in
//! LLVM. Unrolled, each lane's code reads and writes constant lanes, which
//! LLVM keeps in registers (and its SLP vectorizer may still group): the
//! code the emitter used to unroll itself.

use crate::ir::*;
use std::collections::HashMap;

/// Unrolls the `scf.for` `lp` from 0 to `lanes` with step 1: its body
/// once per lane, the induction variable a constant, the carried values
/// threaded from one copy to the next. Ops nested in the body (`scf.if`)
/// are copied with their regions.
pub fn unroll(lp: Op, lanes: i64) -> Result<()> {
    let body = lp.region_block(0).ok_or_else(|| bug("scf.for without a body"))?;
    let args = block_args(body);
    let yield_op = terminator(body).ok_or_else(|| bug("scf.for body without a yield"))?;
    let ops: Vec<Op> = block_ops(body).into_iter().filter(|op| *op != yield_op).collect();
    let b = B::before(lp);
    let mut carried: Vec<Value> = lp.operands()[3..].to_vec();
    for lane in 0..lanes {
        let mut map: HashMap<Value, Value> = HashMap::new();
        map.insert(args[0], b.const_index(lane));
        map.extend(args[1..].iter().copied().zip(carried.iter().copied()));
        for op in &ops {
            let copy = op.clone_detached();
            // The copy's operands, and those of the ops nested in it, that
            // name values of this lane.
            for nested in copy.walk_preorder() {
                for (i, v) in nested.operands().into_iter().enumerate() {
                    if let Some(&m) = map.get(&v) {
                        nested.set_operand(i, m);
                    }
                }
            }
            b.insert(copy.raw());
            map.extend(op.results().into_iter().zip(copy.results()));
        }
        carried = yield_op.operands().into_iter().map(|v| map.get(&v).copied().unwrap_or(v)).collect();
    }
    replace_op(lp, &carried);
    Ok(())
}
