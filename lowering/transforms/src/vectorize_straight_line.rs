//! The straight-line half of `xla-vectorize-loads-stores`: accesses the
//! emitters unrolled themselves (a CPU column reduction's lanes, a CPU
//! transpose tile, a GPU column reduction's adjacent columns, small
//! reduce-windows) are grouped into vector transfers, as an SLP
//! vectorizer groups consecutive memory operations.
//!
//! In one block:
//!
//! - `tensor.extract`s of one tensor that is never written in the
//!   function, at `base + k` for `k` = `k0 .. k0 + n` (the index composed
//!   through its `xla.apply_indexing` chain: the same `base` expression of
//!   the same values, a constant `k`), with `base + k0` a multiple of `n`,
//!   become one `vector.transfer_read` (before the first of them) and a
//!   `vector.extract` of a constant lane each;
//! - a chain of `tensor.insert`s (each result used only by the next insert)
//!   writing `base + k` for `k` = `k0 .. k0 + n`, each address once, with
//!   the same conditions, becomes one `vector.from_elements` and
//!   `vector.transfer_write` after the chain's last insert (the chain's
//!   intermediate tensors have no other readers, and nothing in the block
//!   reads its start while it runs, so the writes may move).
//!
//! `n` is the widest power of two that fits: 128 bits on the GPU, 256 on
//! the CPU. Kernels that update a buffer in place (`xla.in_place`) are
//! left alone: their input and output may be one buffer, and moving reads
//! and writes past each other could change what is read.

use crate::ir::*;
use crate::lower_tensors::Target;
use crate::vectorize_loads_stores::{
    alignment, copy_chain, transfer_read, transfer_write, vectorizable_element, Composer,
};
use mlir_sys::*;
use rxla_indexing::{BinOp, Expr, ExprKind};
use std::collections::HashMap;

/// Groups the unrolled accesses of every block of `root`'s functions.
pub fn vectorize(root: Op, target: Target) -> Result<()> {
    let max_bits = match target {
        Target::Cpu => 256,
        Target::Gpu => 128,
    };
    for func in functions(root) {
        if func.has_attr("xla.in_place") {
            continue;
        }
        let mut blocks = Vec::new();
        for op in std::iter::once(func).chain(walk(func)) {
            for r in 0..num_regions(op) {
                blocks.extend(region_blocks(op, r));
            }
        }
        for block in blocks {
            group_loads(block, max_bits);
            group_stores(block, max_bits);
        }
    }
    Ok(())
}

/// `e` as `(base, k)`: `e = base + k`, `k` its constant term.
fn split_constant(e: &Expr) -> (Expr, i64) {
    if let Some((BinOp::Add, l, r)) = e.as_binary() {
        if let Some(k) = r.as_const() {
            return (l.clone(), k);
        }
        if let Some(k) = l.as_const() {
            return (r.clone(), k);
        }
    }
    match e.kind() {
        ExprKind::Const(k) => (Expr::zero(), *k),
        _ => (e.clone(), 0),
    }
}

/// One access in a group: its constant offset, the op, the index ops it
/// is computed by and the index.
struct Member {
    k: i64,
    op: Op,
    chain: Vec<Op>,
    index: Value,
}

/// The runs of `n` consecutive offsets `k0 .. k0 + n` (`base + k0` a
/// multiple of `n`, each offset present) in `members`, widest first;
/// every member in at most one run.
fn runs(base: &Expr, members: &[Member], max_lanes: i64) -> Vec<(i64, i64)> {
    let mut used: Vec<i64> = Vec::new();
    let mut out = Vec::new();
    let base_align = alignment(base);
    let mut n = max_lanes;
    while n >= 2 {
        if base_align % n == 0 {
            let mut ks: Vec<i64> = members.iter().map(|m| m.k).filter(|k| !used.contains(k)).collect();
            ks.sort_unstable();
            ks.dedup();
            for &k0 in &ks {
                if k0.rem_euclid(n) != 0 || used.contains(&k0) {
                    continue;
                }
                if (k0..k0 + n).all(|k| ks.contains(&k) && !used.contains(&k)) {
                    used.extend(k0..k0 + n);
                    out.push((k0, n));
                }
            }
        }
        n /= 2;
    }
    out
}

/// The element type of a flat tensor whose elements can be vector
/// accessed, with the widest vector allowed.
fn lanes_for(tensor: MlirType, max_bits: i64) -> Option<(MlirType, i64)> {
    if !is_ranked_tensor(tensor) || shape_of(tensor).len() != 1 {
        return None;
    }
    let elem = element_type(tensor);
    if !vectorizable_element(elem) {
        return None;
    }
    Some((elem, max_bits / bit_width(elem) as i64))
}

/// The `static_position` of a `vector.extract` of lane `k`.
pub(crate) fn static_position(ctx: MlirContext, k: i64) -> MlirAttribute {
    unsafe { mlirDenseI64ArrayGet(ctx, 1, [k].as_ptr()) }
}

/// True if every root `chain` reads is available before `at` (defined
/// before it in `block`, or outside the block).
fn available_before(roots: &[Value], positions: &HashMap<Op, usize>, at: usize) -> bool {
    roots.iter().all(|v| match v.op() {
        Some(op) => positions.get(&op).is_none_or(|p| *p < at),
        None => true,
    })
}

fn group_loads(block: MlirBlock, max_bits: i64) {
    let ops = block_ops(block);
    let positions: HashMap<Op, usize> = ops.iter().enumerate().map(|(i, op)| (*op, i)).collect();
    let mut composer = Composer::free();
    let mut groups: HashMap<(Value, Expr), Vec<Member>> = HashMap::new();
    for op in &ops {
        if !op.is_named("tensor.extract") || op.num_operands() != 2 {
            continue;
        }
        let tensor = op.operand(0);
        if lanes_for(tensor.raw_type(), max_bits).is_none() {
            continue;
        }
        // Never written: every user reads.
        if !tensor.users().iter().all(|u| u.is_named("tensor.extract") || u.is_named("vector.transfer_read")) {
            continue;
        }
        composer.chain.clear();
        let index = op.operand(1);
        let Some(e) = composer.expr(index) else { continue };
        let (base, k) = split_constant(&e);
        let chain = std::mem::take(&mut composer.chain);
        groups.entry((tensor, base)).or_default().push(Member { k, op: *op, chain, index });
    }
    for ((tensor, base), members) in groups {
        if members.len() < 2 {
            continue;
        }
        let Some((elem, max_lanes)) = lanes_for(tensor.raw_type(), max_bits) else { continue };
        for (k0, n) in runs(&base, &members, max_lanes) {
            let run: Vec<&Member> = members.iter().filter(|m| (k0..k0 + n).contains(&m.k)).collect();
            let first = run.iter().map(|m| positions[&m.op]).min().expect("a run has members");
            let head = run.iter().find(|m| m.k == k0).expect("the run starts at k0");
            let mut roots = Composer::free();
            let _ = roots.expr(head.index);
            if !available_before(&roots.roots, &positions, first) {
                continue;
            }
            let b = B::before(ops[first]);
            let copies = copy_chain(&b, &head.chain, None);
            let index = copies.iter().find(|(from, _)| *from == head.index).map(|(_, to)| *to).unwrap_or(head.index);
            let vector = transfer_read(&b, tensor, index, vector_type_of(elem, n));
            for m in run {
                let lb = B::before(m.op);
                let lane = lb.val(
                    "vector.extract",
                    &[vector],
                    elem,
                    &[("static_position", static_position(lb.ctx, m.k - k0))],
                );
                replace_op(m.op, &[lane]);
            }
        }
    }
}

fn group_stores(block: MlirBlock, max_bits: i64) {
    let ops = block_ops(block);
    let in_block = |op: &Op| op.block().ptr == block.ptr;
    let chain_next = |op: Op| -> Option<Op> {
        let users = op.result(0).users();
        match users.as_slice() {
            [u] if u.is_named("tensor.insert") && in_block(u) && u.operand(1) == op.result(0) => Some(*u),
            _ => None,
        }
    };
    let mut chains: Vec<Vec<Op>> = Vec::new();
    for op in &ops {
        if !op.is_named("tensor.insert") || op.num_operands() != 3 {
            continue;
        }
        // A chain starts where the destination is not a chained insert.
        let dest = op.operand(1);
        if dest.op().is_some_and(|d| d.is_named("tensor.insert") && chain_next(d) == Some(*op)) {
            continue;
        }
        let mut chain = vec![*op];
        while let Some(next) = chain_next(*chain.last().expect("non-empty")) {
            chain.push(next);
        }
        if chain.len() >= 2 {
            chains.push(chain);
        }
    }
    for chain in chains {
        vectorize_chain(&chain, max_bits);
    }
}

/// True if `head` (the tensor a chain of inserts starts from) is used by
/// an op of the chain's block between its first and last insert, or nested
/// in one. Other uses run before the chain, after it, or not with it (the
/// other branch of an `scf.if`), and see the same writes wherever in the
/// chain they happen.
fn read_during(head: Value, chain: &[Op]) -> bool {
    let uses = head.uses();
    if uses.len() == 1 {
        // Only the chain's first insert.
        return false;
    }
    let block = chain[0].block();
    let ops = block_ops(block);
    let position = |op: Op| ops.iter().position(|o| *o == op);
    let (Some(first), Some(last)) = (position(chain[0]), position(*chain.last().expect("non-empty chain"))) else {
        return true;
    };
    uses.into_iter().any(|(user, _)| {
        if user == chain[0] {
            return false;
        }
        // The user's ancestor in the chain's block, if it has one.
        let mut at = Some(user);
        while let Some(op) = at {
            if op.block().ptr == block.ptr {
                return position(op).is_none_or(|p| (first..=last).contains(&p));
            }
            at = op.parent();
        }
        false
    })
}

/// A vector write replacing a run of a chain's inserts: the lanes, their
/// values in order, and the first lane's index with its index ops.
struct PlannedWrite {
    lanes: i64,
    values: Vec<Value>,
    chain: Vec<Op>,
    index: Value,
}

fn vectorize_chain(chain: &[Op], max_bits: i64) {
    let head = chain[0].operand(1);
    let Some((elem, max_lanes)) = lanes_for(head.raw_type(), max_bits) else { return };
    // The chain's writes move to its end: nothing may read its start while
    // the chain runs.
    if read_during(head, chain) {
        return;
    }
    let mut composer = Composer::free();
    let mut groups: HashMap<Expr, Vec<Member>> = HashMap::new();
    for op in chain {
        composer.chain.clear();
        let index = op.operand(2);
        let Some(e) = composer.expr(index) else { continue };
        let (base, k) = split_constant(&e);
        let chain = std::mem::take(&mut composer.chain);
        groups.entry(base).or_default().push(Member { k, op: *op, chain, index });
    }
    let mut planned: Vec<PlannedWrite> = Vec::new();
    let mut removed: Vec<Op> = Vec::new();
    for (base, members) in &groups {
        // A later write to the same address wins: keep such groups scalar.
        let mut ks: Vec<i64> = members.iter().map(|m| m.k).collect();
        ks.sort_unstable();
        if ks.windows(2).any(|w| w[0] == w[1]) {
            continue;
        }
        for (k0, n) in runs(base, members, max_lanes) {
            let mut run: Vec<&Member> = members.iter().filter(|m| (k0..k0 + n).contains(&m.k)).collect();
            run.sort_by_key(|m| m.k);
            let values = run.iter().map(|m| m.op.operand(0)).collect();
            planned.push(PlannedWrite { lanes: n, values, chain: run[0].chain.clone(), index: run[0].index });
            removed.extend(run.iter().map(|m| m.op));
        }
    }
    if planned.is_empty() {
        return;
    }
    let tail = *chain.last().expect("non-empty chain");
    let Some(after) = tail.next() else { return };
    // Who reads the chain's result reads the last write.
    let users = tail.result(0).uses();
    // The writes go after the chain: take the grouped inserts out of it.
    for op in chain {
        if removed.contains(op) {
            op.result(0).replace_all_uses_with(op.operand(1));
            op.erase();
        }
    }
    let survivors: Vec<&Op> = chain.iter().filter(|op| !removed.contains(op)).collect();
    let mut current = match survivors.last() {
        Some(op) => op.result(0),
        None => head,
    };
    let b = B::before(after);
    for w in planned {
        let vector = b.val("vector.from_elements", &w.values, vector_type_of(elem, w.lanes), &[]);
        let copies = copy_chain(&b, &w.chain, None);
        let index = copies.iter().find(|(from, _)| *from == w.index).map(|(_, to)| *to).unwrap_or(w.index);
        current = transfer_write(&b, vector, current, index);
    }
    for (user, i) in users {
        user.set_operand(i, current);
    }
}
