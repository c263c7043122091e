//! The lane-group half of `xla-vectorize-loads-stores` (CPU): scalars that
//! an emitter computes side by side, one per lane, become vectors, as an
//! SLP vectorizer packs isomorphic scalar trees. A CPU column reduction
//! unrolls `L` adjacent columns: each lane carries its accumulators through
//! the loops of its row tree, and each lane's epilogue is written after
//! them. Before this, every lane stayed scalar until LLVM's SLP vectorizer
//! regrouped them, and the lowering and LLVM paid for `L` copies of the
//! loop bodies.
//!
//! A *group* is `n >= 2` scalars of one type, lane `j` the `j`-th. It packs
//! into a `vector<n x T>` when, recursively:
//!
//! - every lane is the same value: a `vector.broadcast` of it;
//! - every lane is an `arith.constant`: a vector constant;
//! - the lanes are `vector.extract`s, in order, of every lane of one vector
//!   (that vector), of a run of its lanes (a `vector.shuffle` of it),
//!   or of every lane of several vectors one after another (concatenated
//!   with `vector.shuffle`): the lanes of the `vector.transfer_read`s that
//!   [`vectorize_straight_line`](crate::vectorize_straight_line) grouped;
//! - every lane is the same elementwise op (an op a lane loop's body may
//!   hold, with equal attributes and operand counts and one result), and
//!   its operands pack, position by position.
//!
//! The seeds:
//!
//! - **Loops**, innermost first. An `scf.for` whose scalar carried values
//!   split into groups, each of whose initial and yielded values pack,
//!   becomes a loop carrying one vector per group. With `s` groups, group
//!   `o` is the scalars at positions `o, o + s, o + 2s, ...`: a column
//!   reduction's lanes carry each of its `s` accumulators in turn. Inside
//!   the loop, lane `j` of a group is `vector.extract` lane `j` of the
//!   group's vector, so the yielded values pack through it; after the loop
//!   the results are extracted the same way, and the loops around it, once
//!   their turn comes, see the lanes of a vector.
//! - **`vector.from_elements`** whose operands pack (a grouped store of
//!   per-lane epilogues): the packed vector replaces it.
//!
//! Every lane computes what it computed before, in the same order within
//! the lane; only the lanes run together. No memory access moves. The
//! scalar ops left unused are erased.

use crate::ir::*;
use crate::vectorize_loads_stores::{elementwise, vectorizable_element};
use crate::vectorize_straight_line::static_position;
use mlir_sys::*;
use std::collections::HashMap;

/// How deep a packing may recurse (a reducer or an epilogue: a few levels).
const MAX_DEPTH: usize = 48;

/// Packs the lane groups of every function under `root`.
pub fn vectorize(root: Op) -> Result<()> {
    // Inner loops first: an outer loop's groups read the inner loop's
    // results as lanes of a vector only once the inner loop is rewritten.
    for lp in ops_named(root, "scf.for").into_iter().rev() {
        vectorize_loop(lp)?;
    }
    for op in ops_named(root, "vector.from_elements") {
        pack_from_elements(op)?;
    }
    erase_unused(root);
    Ok(())
}

/// What a lane list is made of.
enum Lanes {
    /// One value in every lane.
    Uniform(Value),
    /// A scalar constant per lane.
    Constants(Vec<MlirAttribute>),
    /// Runs of `vector.extract`s: (vector, first position, count), in
    /// lane order.
    Extracts(Vec<(Value, i64, i64)>),
    /// The same elementwise op in every lane.
    Ops(Vec<Op>),
}

fn key(lanes: &[Value]) -> Vec<usize> {
    lanes.iter().map(|v| v.0.ptr as usize).collect()
}

/// A scalar type a lane may have (`i1` included: comparisons feed selects).
fn lane_type(ty: MlirType) -> bool {
    !is_vector(ty) && (is_integer(ty) || is_llvm_float(ty))
}

/// The vector a 1-D `vector.extract` with a static position reads, and the
/// position.
fn extract_of(op: Op) -> Option<(Value, i64)> {
    if !op.is_named("vector.extract") || op.num_operands() != 1 {
        return None;
    }
    let source = op.operand(0);
    if shape_of(source.raw_type()).len() != 1 {
        return None;
    }
    match op.dims_attr("static_position")?.as_slice() {
        [k] if *k >= 0 => Some((source, *k)),
        _ => None,
    }
}

/// True if two ops have the same attributes (by name and value).
fn same_attrs(a: Op, b: Op) -> bool {
    let (x, y) = (a.named_attrs(), b.named_attrs());
    x.len() == y.len()
        && x.iter().all(|n| {
            y.iter()
                .any(|m| unsafe { mlirIdentifierEqual(n.name, m.name) && mlirAttributeEqual(n.attribute, m.attribute) })
        })
}

fn classify(lanes: &[Value]) -> Option<Lanes> {
    let ty = lanes[0].raw_type();
    if !lane_type(ty) || !lanes.iter().all(|v| types_equal(v.raw_type(), ty)) {
        return None;
    }
    if lanes.iter().all(|v| *v == lanes[0]) {
        return Some(Lanes::Uniform(lanes[0]));
    }
    let ops: Vec<Op> = lanes.iter().map(|v| v.op()).collect::<Option<_>>()?;
    if ops.iter().all(|op| op.is_named("arith.constant")) {
        return ops.iter().map(|op| op.attr_raw("value")).collect::<Option<_>>().map(Lanes::Constants);
    }
    if ops.iter().all(|op| op.is_named("vector.extract")) {
        let mut runs: Vec<(Value, i64, i64)> = Vec::new();
        for op in &ops {
            let (source, k) = extract_of(*op)?;
            match runs.last_mut() {
                Some((v, first, count)) if *v == source && *first + *count == k => *count += 1,
                _ => runs.push((source, k, 1)),
            }
        }
        let width = |v: Value| shape_of(v.raw_type())[0];
        let whole = runs.iter().all(|&(v, first, count)| first == 0 && count == width(v));
        return (runs.len() == 1 || whole).then_some(Lanes::Extracts(runs));
    }
    let first = ops[0];
    let fits = |op: &Op| {
        op.name() == first.name()
            && op.num_operands() == first.num_operands()
            && op.num_results() == 1
            && op.region_block(0).is_none()
            && same_attrs(*op, first)
    };
    (elementwise(first) && ops.iter().all(fits)).then_some(Lanes::Ops(ops))
}

/// Checks and builds the packing of lane lists, each list once.
#[derive(Default)]
struct Packer {
    checked: HashMap<Vec<usize>, bool>,
    built: HashMap<Vec<usize>, Value>,
    /// Lane lists taken as packable as they are (a loop's carried groups,
    /// while the loop is checked).
    known: Vec<Vec<usize>>,
}

impl Packer {
    fn check(&mut self, lanes: &[Value], depth: usize) -> bool {
        let k = key(lanes);
        if self.known.contains(&k) {
            return true;
        }
        if let Some(&ok) = self.checked.get(&k) {
            return ok;
        }
        let ok = depth < MAX_DEPTH
            && match classify(lanes) {
                None => false,
                Some(Lanes::Uniform(_) | Lanes::Constants(_) | Lanes::Extracts(_)) => true,
                Some(Lanes::Ops(ops)) => (0..ops[0].num_operands()).all(|i| {
                    let operands: Vec<Value> = ops.iter().map(|op| op.operand(i)).collect();
                    self.check(&operands, depth + 1)
                }),
            };
        self.checked.insert(k, ok);
        ok
    }

    /// The vector of `lanes` (which [`Packer::check`] accepted), built at
    /// `b`.
    fn build(&mut self, b: &B, lanes: &[Value]) -> Result<Value> {
        let k = key(lanes);
        if let Some(v) = self.built.get(&k) {
            return Ok(*v);
        }
        let n = lanes.len() as i64;
        let ty = vector_type_of(lanes[0].raw_type(), n);
        let v = match classify(lanes).ok_or_else(|| bug("a lane group that was checked does not pack"))? {
            Lanes::Uniform(v) => b.val("vector.broadcast", &[v], ty, &[]),
            Lanes::Constants(attrs) => {
                let dense = unsafe { mlirDenseElementsAttrGet(ty, attrs.len() as isize, attrs.as_ptr()) };
                b.val("arith.constant", &[], ty, &[("value", dense)])
            }
            Lanes::Extracts(runs) => concatenate(b, &runs, ty),
            Lanes::Ops(ops) => {
                let copy = ops[0].clone_detached();
                for i in 0..ops[0].num_operands() {
                    let operands: Vec<Value> = ops.iter().map(|op| op.operand(i)).collect();
                    copy.set_operand(i, self.build(b, &operands)?);
                }
                b.insert(copy.raw());
                set_type(copy.result(0), vector_type_of(ops[0].result(0).raw_type(), n));
                copy.result(0)
            }
        };
        self.built.insert(k, v);
        Ok(v)
    }
}

/// The vector of lanes `runs` describes (`ty`).
fn concatenate(b: &B, runs: &[(Value, i64, i64)], ty: MlirType) -> Value {
    let (v, first, count) = runs[0];
    let width = shape_of(v.raw_type())[0];
    if runs.len() == 1 {
        if first == 0 && count == width {
            return v;
        }
        // A run of lanes: a shuffle of the vector with itself (LLVM's
        // `shufflevector`; `vector.extract_strided_slice` has no lowering
        // in `convert-to-llvm`).
        let mask: Vec<i64> = (first..first + count).collect();
        return b.val("vector.shuffle", &[v, v], ty, &[("mask", b.i64_array(&mask))]);
    }
    // Whole vectors, one after another: concatenated pairwise, so that
    // each shuffle takes two vectors of one type where the count is a power
    // of two (LLVM's `shufflevector`; other shuffles lower element by
    // element).
    let elem = element_type(ty);
    let mut parts: Vec<Value> = runs.iter().map(|&(v, _, _)| v).collect();
    while parts.len() > 1 {
        let mut next = Vec::with_capacity(parts.len().div_ceil(2));
        for pair in parts.chunks(2) {
            let [a, c] = pair else {
                next.push(pair[0]);
                continue;
            };
            let len = |v: &Value| shape_of(v.raw_type())[0];
            let mask: Vec<i64> = (0..len(a) + len(c)).collect();
            let joined = vector_type_of(elem, mask.len() as i64);
            next.push(b.val("vector.shuffle", &[*a, *c], joined, &[("mask", b.i64_array(&mask))]));
        }
        parts = next;
    }
    parts[0]
}

/// Lane `j` of `v`, at `b`.
fn lane(b: &B, v: Value, j: usize) -> Value {
    let elem = element_type(v.raw_type());
    b.val("vector.extract", &[v], elem, &[("static_position", static_position(b.ctx, j as i64))])
}

/// The carried groups of `lp`, if its scalar carried values split into
/// groups whose initial and yielded values pack (the fewest groups that
/// do).
fn carried_groups(inits: &[Value], carried: &[Value], yields: &[Value]) -> Option<Vec<Vec<usize>>> {
    let scalars: Vec<usize> = (0..carried.len())
        .filter(|&k| {
            let ty = carried[k].raw_type();
            !is_vector(ty) && vectorizable_element(ty)
        })
        .collect();
    let m = scalars.len();
    if m < 2 {
        return None;
    }
    (1..=m / 2).filter(|s| m.is_multiple_of(*s)).find_map(|s| {
        let groups: Vec<Vec<usize>> = (0..s).map(|o| scalars.iter().skip(o).step_by(s).copied().collect()).collect();
        let mut packer = Packer {
            known: groups.iter().map(|g| key(&g.iter().map(|&k| carried[k]).collect::<Vec<_>>())).collect(),
            ..Packer::default()
        };
        let ok = groups.iter().all(|g| {
            let ty = carried[g[0]].raw_type();
            let of = |values: &[Value]| -> Vec<Value> { g.iter().map(|&k| values[k]).collect() };
            g.iter().all(|&k| types_equal(carried[k].raw_type(), ty))
                && packer.check(&of(yields), 0)
                && packer.check(&of(inits), 0)
        });
        ok.then_some(groups)
    })
}

/// Rewrites `lp` to carry its lane groups as vectors; returns whether it
/// did.
fn vectorize_loop(lp: Op) -> Result<bool> {
    let Some(body) = lp.region_block(0) else { return Ok(false) };
    let Some(old_yield) = terminator(body) else { return Ok(false) };
    let operands = lp.operands();
    if operands.len() < 3 {
        return Ok(false);
    }
    let inits = operands[3..].to_vec();
    let args = block_args(body);
    let carried = args[1..].to_vec();
    let yields = old_yield.operands();
    if inits.len() != carried.len() || yields.len() != carried.len() {
        return Ok(false);
    }
    let Some(groups) = carried_groups(&inits, &carried, &yields) else { return Ok(false) };
    let grouped: Vec<bool> = (0..carried.len()).map(|k| groups.iter().any(|g| g.contains(&k))).collect();
    let keep: Vec<usize> = (0..carried.len()).filter(|&k| !grouped[k]).collect();

    let b = B::before(lp);
    let new_inits = regroup(&b, &inits, &keep, &groups)?;
    let types: Vec<MlirType> = new_inits.iter().map(|v| v.raw_type()).collect();
    let mut arg_types = vec![args[0].raw_type()];
    arg_types.extend(&types);
    let (region, block) = region_with_block(&arg_types, b.loc);
    let mut loop_operands = operands[..3].to_vec();
    loop_operands.extend(&new_inits);
    let new_loop = b.op("scf.for", &loop_operands, &types, &[], vec![region]);
    for (name, attr) in lp.attrs_raw() {
        new_loop.set_attr_raw(&name, attr);
    }
    let new_args = block_args(block);
    move_block_ops(body, block);
    args[0].replace_all_uses_with(new_args[0]);
    for (i, &k) in keep.iter().enumerate() {
        carried[k].replace_all_uses_with(new_args[1 + i]);
    }
    // Each lane of a group: a lane of the group's vector.
    let start = B::before(block_ops(block)[0]);
    for (gi, g) in groups.iter().enumerate() {
        let v = new_args[1 + keep.len() + gi];
        for (j, &k) in g.iter().enumerate() {
            if carried[k].has_uses() {
                carried[k].replace_all_uses_with(lane(&start, v, j));
            }
        }
    }
    let at_yield = B::before(old_yield);
    let new_yields = regroup(&at_yield, &old_yield.operands(), &keep, &groups)?;
    at_yield.op("scf.yield", &new_yields, &[], &[], vec![]);
    old_yield.erase();
    // The results, from after the new loop (which sits right before `lp`).
    for (i, &k) in keep.iter().enumerate() {
        lp.result(k).replace_all_uses_with(new_loop.result(i));
    }
    for (gi, g) in groups.iter().enumerate() {
        let v = new_loop.result(keep.len() + gi);
        for (j, &k) in g.iter().enumerate() {
            if lp.result(k).has_uses() {
                lp.result(k).replace_all_uses_with(lane(&b, v, j));
            }
        }
    }
    lp.erase();
    Ok(true)
}

/// `values` (one per carried value) as the rewritten loop carries them: the
/// ungrouped ones (`keep`), then each group's vector, built at `b`.
fn regroup(b: &B, values: &[Value], keep: &[usize], groups: &[Vec<usize>]) -> Result<Vec<Value>> {
    let mut packer = Packer::default();
    let mut out: Vec<Value> = keep.iter().map(|&k| values[k]).collect();
    for g in groups {
        let lanes: Vec<Value> = g.iter().map(|&k| values[k]).collect();
        out.push(packer.build(b, &lanes)?);
    }
    Ok(out)
}

/// Replaces a `vector.from_elements` whose operands pack by their vector.
fn pack_from_elements(op: Op) -> Result<()> {
    let lanes = op.operands();
    if lanes.len() < 2 {
        return Ok(());
    }
    let mut packer = Packer::default();
    if !packer.check(&lanes, 0) {
        return Ok(());
    }
    let v = packer.build(&B::before(op), &lanes)?;
    replace_op(op, &[v]);
    Ok(())
}

/// Erases the lane ops packing left unused (pure ops only), users first.
fn erase_unused(root: Op) {
    for op in walk(root).into_iter().rev() {
        let pure = elementwise(op)
            || ["vector.extract", "vector.broadcast", "vector.shuffle", "xla.apply_indexing"]
                .iter()
                .any(|n| op.is_named(n));
        if pure && op.num_results() > 0 && !op.has_uses() {
            op.erase();
        }
    }
}
