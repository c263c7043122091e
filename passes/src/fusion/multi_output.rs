//! `multi-output-fusion`: fusions with several outputs (XLA:GPU's
//! `MultiOutputFusion`).
//!
//! Walking each computation from its last op to its first (users before
//! producers), for every value:
//!
//! 1. **Sibling fusion.** Users of the value that can be multi-output roots
//!    (loop fusions, reduction or tiled-transpose fusions, row/column
//!    reductions, elementwise ops) are merged pairwise into one fusion whose
//!    outputs are both nodes' outputs, so the shared operand is read once
//!    (e.g. the two reductions of one input in a layer norm). One of each
//!    pair must be a fusion or a row/column reduction.
//! 2. **Producer-consumer fusion.** A loop-fusible producer with several
//!    users is fused into one of them with an extra output for its other
//!    users, when the cost model says the merged kernel is no slower.
//!
//! Merged nodes must iterate the same space (equal loop shapes up to a
//! reshape: a reduction's input shape, otherwise the output shape; two
//! reductions must reduce the same shape the same way), must not be
//! connected through other ops (the fusion would create a cycle), and must
//! fit the kernel budget. The op order is repaired after each fusion.

use super::{
    array_type,
    cost::{kernel_time, Device},
    elements, fits_in_budget, fusible_computations, is_elementwise, is_node, materialize_with_clones,
    reduction_dimensions, restore_topological_order, tiled_transpose, Functions, FusionKind, FxHashMap, FxHashSet, Src,
    TypeCacheGuard, View,
};
use melior::ir::OperationRef;
use rxla_ir::{
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
};
use std::rc::Rc;

#[derive(Clone, Debug)]
pub struct MultiOutputFusion {
    device: Device,
}

impl HloPass for MultiOutputFusion {
    const NAME: &'static str = "multi-output-fusion";
    const DESCRIPTION: &'static str =
        "Fuse siblings that share an operand, and producers with several users, into multi-output fusions";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self { device: Device::default() })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        let mut funcs = Functions::new(module);
        let _types = TypeCacheGuard::new();
        fusible_computations(module).into_iter().try_for_each(|func| run_on(self, &mut funcs, func))
    }
}

/// What the emitter's loop iterates, for multi-output compatibility.
#[derive(Clone, Debug)]
struct Hero {
    /// The hero op (`None` when the view's first output is a parameter).
    op: Option<Op>,
    /// The iteration space: a reduction's or transpose's input shape, else
    /// the output shape.
    loop_dims: Vec<i64>,
    reduction: bool,
    transpose: Option<(Vec<i64>, Vec<i64>)>,
}

fn hero(view: &View) -> Hero {
    match view.mof_hero() {
        Src::Param(i) => Hero {
            op: None,
            loop_dims: array_type(view.params[i]).map(|t| t.dims).unwrap_or_default(),
            reduction: false,
            transpose: None,
        },
        Src::Node(k, r) => {
            let op = view.nodes[k].op;
            let reduction = view.nodes[k].facts.is_unnested_reduction();
            let transpose = if view.nodes[k].facts.is_tiled_transpose() { tiled_transpose(op) } else { None };
            let shape_of = if reduction || transpose.is_some() { op.operand(0) } else { op.result(r) };
            Hero {
                op: Some(op),
                loop_dims: array_type(shape_of).map(|t| t.dims).unwrap_or_default(),
                reduction,
                transpose,
            }
        }
    }
}

/// XLA's `ShapesCompatibleForMultiOutputFusion`, on the two views' heroes.
fn shapes_compatible(h1: &Hero, h2: &Hero) -> Result<(), &'static str> {
    if h1.reduction && h2.reduction {
        let (r1, r2) = (h1.op.unwrap(), h2.op.unwrap());
        let dims = |v: Value| array_type(v).map(|t| t.dims);
        let consistent = dims(r1.result(0)) == dims(r2.result(0))
            && dims(r1.operand(0)) == dims(r2.operand(0))
            && r1.dims_attr("dimensions") == r2.dims_attr("dimensions");
        if !consistent {
            return Err("reductions with different shapes");
        }
    } else if let (Some(t1), Some(t2)) = (&h1.transpose, &h2.transpose) {
        if t1 != t2 {
            return Err("tiled transposes with different shapes");
        }
    } else if (h1.reduction && h2.transpose.is_some()) || (h1.transpose.is_some() && h2.reduction) {
        return Err("a transpose and a reduction");
    }
    let count = |d: &[i64]| d.iter().product::<i64>();
    if h1.loop_dims != h2.loop_dims && count(&h1.loop_dims) != count(&h2.loop_dims) {
        return Err("different loop shapes");
    }
    Ok(())
}

/// XLA's `IsFusibleAsMultiOutputFusionRoot`: loop fusions, reduction and
/// tiled-transpose fusions, row/column reductions, tiled transposes and
/// elementwise ops. (`view` is the node's view.)
fn is_mof_root(op: Op, view: Option<&View>) -> bool {
    if !is_node(op) {
        return false;
    }
    if op.is("fusion") {
        return match FusionKind::of(op) {
            Some(FusionKind::Loop) => true,
            Some(FusionKind::Input) => {
                view.is_some_and(|v| v.reduction_hero().is_some() || v.transpose_hero().is_some())
            }
            _ => false,
        };
    }
    is_elementwise(op)
        || reduction_dimensions(op).is_some_and(|d| d.unnested_is_faster())
        || tiled_transpose(op).is_some()
}

/// A variadic reduce the loop emitter nests (XLA's
/// `IsNestableVariadicReduction`), which sibling fusion leaves alone.
fn is_nestable_variadic_reduction(op: Op, view: &View) -> bool {
    if op.is("reduce") {
        return op.num_results() > 1 && !reduction_dimensions(op).is_some_and(|d| d.unnested_is_faster());
    }
    FusionKind::of(op) == Some(FusionKind::Loop)
        && view.roots.iter().any(
            |r| matches!(r, Src::Node(k, _) if view.nodes[*k].op.is("reduce") && view.nodes[*k].op.num_results() > 1),
        )
}

/// Multi-output fusion's preference: multi-output fusions, then fusions,
/// then plain ops.
fn preference(op: Op) -> u8 {
    match (op.is("fusion"), op.num_results() > 1) {
        (true, true) => 2,
        (true, false) => 1,
        _ => 0,
    }
}

/// The slice through which `view` reads `parent`, if that is its only use.
fn unique_slice(view: &View, parent: Value) -> Option<(Vec<i64>, Vec<i64>)> {
    let i = view.params.iter().position(|p| *p == parent)?;
    let uses: Vec<&super::VNode> = view.nodes.iter().filter(|n| n.inputs.contains(&Src::Param(i))).collect();
    let [node] = uses.as_slice() else { return None };
    if !node.op.is("slice") || view.roots.contains(&Src::Param(i)) {
        return None;
    }
    Some((node.op.dims_attr("start_indices")?, node.op.dims_attr("limit_indices")?))
}

/// The slice of `parent` a sibling reads, as XLA's
/// `ParameterSlicesAreNonOverlapping` sees it: `None` where it does not
/// matter (an operand under 1 KiB, or not read through one slice).
type ParentSlice = Option<(Vec<i64>, Vec<i64>)>;

fn parent_slice(view: &View, parent: Value) -> ParentSlice {
    if super::value_bytes(parent) < 1024 {
        return None;
    }
    unique_slice(view, parent)
}

/// XLA's `ParameterSlicesAreNonOverlapping`: siblings that read disjoint
/// slices of a large operand share nothing worth a fusion.
fn slices_overlap(a: &ParentSlice, b: &ParentSlice) -> bool {
    let (Some((s1, l1)), Some((s2, l2))) = (a, b) else {
        return true;
    };
    (0..s1.len()).all(|d| s1[d] < l2[d] && s2[d] < l1[d])
}

/// True if the view has a dynamic-update-slice or scatter, which update a
/// buffer in place (multi-output fusion keeps away from them).
fn has_in_place_op(view: &View) -> bool {
    view.any_facts(|f| f.is_dynamic_update_slice() || f.is_scatter())
}

/// A node as this pass sees it: its view and what the rules ask of it.
struct Node {
    /// `View::of(op)`, for a fusible node.
    view: Option<View>,
    /// `is_mof_root(op)`.
    mof_root: bool,
    /// `is_nestable_variadic_reduction(op)`.
    nestable_variadic: bool,
    /// `hero(view)`.
    hero: Option<Hero>,
    /// `has_in_place_op(view)`.
    in_place: bool,
    /// The view has a tiled-transpose hero.
    transpose_hero: bool,
    /// `kernel_time(view)`.
    time: f64,
}

/// The nodes' views and facts, built once per op. A node's view depends on
/// the op and its operands only, so an entry is dropped when its op is
/// erased or its operands are replaced ([`Nodes::forget_users`], right
/// before the uses are replaced).
struct Nodes {
    device: Device,
    map: FxHashMap<Op, Rc<Node>>,
}

impl Nodes {
    fn get(&mut self, op: Op, funcs: &Functions) -> Rc<Node> {
        if let Some(node) = self.map.get(&op) {
            return node.clone();
        }
        let view = if is_node(op) { View::of(op, funcs) } else { None };
        let node = self.make(op, view);
        self.map.insert(op, node.clone());
        node
    }

    /// Records the node of `fusion`, just made from `view` whose node `k`
    /// became `clones[k]`: `View::of` would rebuild the same view from the
    /// fused computation (debug builds check that it does).
    fn insert_fusion(&mut self, fusion: Op, view: &View, clones: &[Op], funcs: &Functions) {
        let view = view.with_ops(clones);
        if cfg!(debug_assertions) {
            let rebuilt = View::of(fusion, funcs);
            assert_eq!(format!("{:?}", Some(&view)), format!("{rebuilt:?}"), "a new fusion's view");
        }
        let node = self.make(fusion, Some(view));
        self.map.insert(fusion, node);
    }

    fn make(&self, op: Op, view: Option<View>) -> Rc<Node> {
        Rc::new(Node {
            mof_root: is_mof_root(op, view.as_ref()),
            nestable_variadic: view.as_ref().is_some_and(|v| is_nestable_variadic_reduction(op, v)),
            hero: view.as_ref().map(hero),
            in_place: view.as_ref().is_some_and(has_in_place_op),
            transpose_hero: view.as_ref().is_some_and(|v| v.transpose_hero().is_some()),
            time: view.as_ref().map(|v| kernel_time(&self.device, v)).unwrap_or(0.0),
            view,
        })
    }

    fn forget(&mut self, op: Op) {
        self.map.remove(&op);
    }

    /// Forgets the users of `op`'s results.
    fn forget_users(&mut self, op: Op) {
        for r in 0..op.num_results() {
            for (user, _) in op.result(r).uses() {
                self.map.remove(&user);
            }
        }
    }
}

/// XLA's `CanFuseSiblings` but for the siblings' connection and the
/// merged view's limits: the checks that need only the two nodes.
/// (`sa` and `sb` are the siblings' [`parent_slice`]s.)
fn siblings_compatible(a: &Node, sa: &ParentSlice, b: &Node, sb: &ParentSlice) -> Result<(), &'static str> {
    if a.view.is_none() || b.view.is_none() {
        return Err("no view");
    }
    shapes_compatible(a.hero.as_ref().ok_or("no view")?, b.hero.as_ref().ok_or("no view")?)?;
    if !slices_overlap(sa, sb) {
        return Err("the siblings read disjoint slices");
    }
    if a.in_place || b.in_place {
        return Err("in-place operations");
    }
    Ok(())
}

/// The rest of XLA's `CanFuseSiblings`, asked of compatible siblings that
/// are not connected: the merged view, if it fits.
fn merge_siblings(a: &Node, b: &Node) -> Result<View, &'static str> {
    let (va, vb) = (a.view.as_ref().ok_or("no view")?, b.view.as_ref().ok_or("no view")?);
    let merged = View::siblings(va, vb);
    fits_in_budget(&merged, None)?;
    if !matches!(merged.output_layout(), Some(None)) {
        return Err("outputs with non-default layouts");
    }
    Ok(merged)
}

fn sibling_candidate(op: Op, nodes: &mut Nodes, funcs: &Functions) -> bool {
    if !op.has_uses() {
        return false;
    }
    let node = nodes.get(op, funcs);
    node.mof_root && node.view.is_some() && !node.nestable_variadic
}

/// Positions of a computation's ops in block (topological) order, kept
/// up to date as fusions replace ops. Positions are spaced [`GAP`] apart
/// so that a fusion takes the position of the op it replaces and the ops
/// moved after it fit in the gap behind it; the body is renumbered only
/// when a gap runs out. (Renumbering after every fusion made this pass
/// quadratic in the computation's size.)
struct Order {
    func: Op,
    /// Each op's position, and the marks of the searches over the order
    /// (one map, so that a search looks each op it meets up once).
    position: FxHashMap<Op, Slot>,
    /// The number of the current search: a slot whose `seen` (`sibling`)
    /// equals it was reached (is one of the searched siblings) in it.
    search: u64,
}

/// An op of an [`Order`].
#[derive(Clone, Copy)]
struct Slot {
    pos: u64,
    seen: u64,
    sibling: u64,
    /// Its index among the siblings of search `sibling`.
    index: u32,
}

impl Slot {
    fn at(pos: u64) -> Self {
        Slot { pos, seen: 0, sibling: 0, index: 0 }
    }
}

/// The initial distance between the positions of adjacent ops.
const GAP: u64 = 1 << 32;

impl Order {
    fn new(func: Op) -> Self {
        let mut order = Order { func, position: FxHashMap::default(), search: 0 };
        order.renumber();
        order
    }

    fn renumber(&mut self) {
        self.position.clear();
        for (i, op) in self.func.body_ops().into_iter().enumerate() {
            self.position.insert(op, Slot::at((i as u64 + 1) * GAP));
        }
    }

    fn pos(&self, op: Op) -> u64 {
        self.position.get(&op).map_or(u64::MAX, |s| s.pos)
    }

    /// A new search number (marks of earlier searches no longer count).
    fn new_search(&mut self) -> u64 {
        self.search += 1;
        self.search
    }

    /// Updates the order after `fusion` replaced the ops `replaced` (now
    /// erased), the last of which in block order was `last` (at position
    /// `limit`): `fusion` was inserted right before `last`, and `moved`
    /// (see [`Order::move_dependents_after`]) now follow it, in order.
    fn replace(&mut self, replaced: &[Op], fusion: Op, limit: u64, moved: &[Op]) {
        for op in replaced {
            self.position.remove(op);
        }
        // Every op before `fusion` is before `last`'s old position and every
        // op after the moved ones was after it.
        self.position.insert(fusion, Slot::at(limit));
        if moved.is_empty() {
            return;
        }
        let next = moved.last().and_then(|op| op.next()).map(|op| self.pos(op));
        let hi = next.unwrap_or(limit.saturating_add(GAP));
        let slots = moved.len() as u64 + 1;
        if hi == u64::MAX || hi <= limit || hi - limit < slots {
            self.renumber();
            return;
        }
        let step = (hi - limit) / slots;
        for (i, op) in moved.iter().enumerate() {
            self.position.insert(*op, Slot::at(limit + step * (i as u64 + 1)));
        }
    }

    /// Restores the body's topological order after `fusion` was inserted
    /// right before the op at position `limit` (now erased) and the fused
    /// ops' uses moved to it. Only the ops before the fusion that depend
    /// on it (its users there, and theirs) are out of place; they move
    /// right after it, in their order, and are returned. That is the order
    /// [`restore_topological_order`] makes (Kahn's algorithm taking ready
    /// ops in their current order emits the fusion, then those ops, then
    /// the rest), found without its pass over the whole body. Returns
    /// `None`, changing nothing, when a user of the fusion is outside this
    /// order (nested in a region), for that function to handle.
    fn move_dependents_after(&mut self, fusion: Op, limit: u64) -> Option<Vec<Op>> {
        if limit == u64::MAX {
            return None;
        }
        let block = fusion.block().ptr;
        let search = self.new_search();
        let mut late: Vec<(u64, Op)> = Vec::new();
        let mut work: Vec<Op> = vec![fusion];
        while let Some(op) = work.pop() {
            for r in 0..op.num_results() {
                for user in op.result(r).use_owners() {
                    let slot = match self.position.get_mut(&user) {
                        Some(slot) if user.block().ptr == block => slot,
                        _ => return None,
                    };
                    if slot.pos < limit && slot.seen != search {
                        slot.seen = search;
                        late.push((slot.pos, user));
                        work.push(user);
                    }
                }
            }
        }
        if late.is_empty() {
            return Some(Vec::new());
        }
        late.sort_unstable_by_key(|(p, _)| *p);
        let anchor = fusion.next()?;
        let moved: Vec<Op> = late.into_iter().map(|(_, op)| op).collect();
        for op in &moved {
            op.move_before(anchor);
        }
        Some(moved)
    }

    /// Records `fusion`, which replaced `replaced` (erased) before the op
    /// at position `limit`, repairing the body's order.
    fn fused(&mut self, replaced: &[Op], fusion: Op, limit: u64) {
        match self.move_dependents_after(fusion, limit) {
            Some(moved) => self.replace(replaced, fusion, limit, &moved),
            None => {
                restore_topological_order(self.func);
                self.renumber();
            }
        }
    }

    /// `ops` in block order.
    fn sorted(&self, mut ops: Vec<Op>) -> Vec<Op> {
        ops.sort_by_key(|op| self.pos(*op));
        ops
    }

    /// True if an op of `targets` is reachable from `from` through def-use
    /// edges. Edges only go forward in the order, so the search stops at
    /// the last target's position.
    fn reaches(&mut self, from: Op, targets: &[Op]) -> bool {
        let Some(limit) = targets.iter().map(|t| self.pos(*t)).max() else {
            return false;
        };
        let search = self.new_search();
        let mut work: Vec<Op> = from.users();
        while let Some(op) = work.pop() {
            if targets.contains(&op) {
                return true;
            }
            if let Some(slot) = self.position.get_mut(&op) {
                if slot.pos < limit && slot.seen != search {
                    slot.seen = search;
                    work.extend(op.users());
                }
            }
        }
        false
    }

    /// Which of `ops` (of this computation) reach which: `result[i]` has
    /// bit `j` set if a def-use path leads from `ops[j]` to `ops[i]`; the
    /// same answers as [`Order::reaches`], for all pairs at once.
    ///
    /// One depth-first search per op, latest op first, each stopping when
    /// it has found every later op of `ops`, and not going through ops
    /// whose sets are known. (A walk over every op between the first and
    /// the last of `ops` costs their distance, which in a training step
    /// spans the forward and backward passes: quadratic in the module.)
    fn reachability(&mut self, ops: &[Op]) -> Vec<Vec<u64>> {
        let words = ops.len().div_ceil(64);
        let positions: Vec<u64> = ops.iter().map(|op| self.pos(*op)).collect();
        if positions.contains(&u64::MAX) {
            // An op nested in another's region: ask pair by pair.
            return (0..ops.len())
                .map(|i| {
                    let mut set = vec![0u64; words];
                    for j in 0..ops.len() {
                        if j != i && self.reaches(ops[j], &[ops[i]]) {
                            set_bit(&mut set, j);
                        }
                    }
                    set
                })
                .collect();
        }
        let n = ops.len();
        let own = self.new_search();
        for (j, op) in ops.iter().enumerate() {
            if let Some(slot) = self.position.get_mut(op) {
                (slot.sibling, slot.index) = (own, j as u32);
            }
        }
        // Latest first: a search from a sibling takes the sets of the later
        // siblings it meets.
        let mut by_pos: Vec<usize> = (0..n).collect();
        by_pos.sort_unstable_by_key(|&j| std::cmp::Reverse(positions[j]));
        // `fwd[j]`: the siblings `ops[j]` reaches.
        let mut fwd = vec![vec![0u64; words]; n];
        let mut stack: Vec<(u64, Op)> = Vec::new();
        for (rank, &j) in by_pos.iter().enumerate().skip(1) {
            let later = &by_pos[..rank];
            let mut found = vec![0u64; words];
            // Ops at or past the latest sibling not yet found cannot lead
            // to one.
            let mut limit = positions[later[0]];
            let search = self.new_search();
            stack.clear();
            stack.push((0, ops[j]));
            'search: while let Some((_, op)) = stack.pop() {
                let start = stack.len();
                for r in 0..op.num_results() {
                    for user in op.result(r).use_owners() {
                        let Some(slot) = self.position.get_mut(&user) else { continue };
                        if slot.sibling == own {
                            let k = slot.index as usize;
                            // A sibling: what it reaches is known; the
                            // search does not go through it.
                            if !has_bit(&found, k) {
                                set_bit(&mut found, k);
                                for (w, f) in found.iter_mut().zip(&fwd[k]) {
                                    *w |= *f;
                                }
                                match later.iter().find(|&&l| !has_bit(&found, l)) {
                                    Some(&l) => limit = positions[l],
                                    None => break 'search,
                                }
                            }
                            continue;
                        }
                        if slot.pos < limit && slot.seen != search {
                            slot.seen = search;
                            stack.push((slot.pos, user));
                        }
                    }
                }
                // The latest user next: in a training step most siblings
                // are connected (a forward op and the backward op reading
                // the same activation), and the users furthest down the
                // body lead there in few steps.
                stack[start..].sort_unstable_by_key(|(p, _)| *p);
                // Entries pushed before the limit dropped are skipped.
                while stack.last().is_some_and(|(p, _)| *p >= limit) {
                    stack.pop();
                }
            }
            fwd[j] = found;
        }
        (0..n)
            .map(|i| {
                let mut set = vec![0u64; words];
                for (j, reached) in fwd.iter().enumerate() {
                    if has_bit(reached, i) {
                        set_bit(&mut set, j);
                    }
                }
                set
            })
            .collect()
    }
}

/// Fuses users of `parent` pairwise; returns the ops erased.
fn fuse_siblings(
    funcs: &mut Functions,
    nodes: &mut Nodes,
    order: &mut Order,
    parent: Value,
    erased: &mut FxHashSet<Op>,
) -> Result<(), PassError> {
    if array_type(parent).is_none() || elements(parent) <= 1 {
        return Ok(());
    }
    let users: Vec<Op> = parent.users().into_iter().filter(|u| sibling_candidate(*u, nodes, funcs)).collect();
    if users.len() < 2 {
        return Ok(());
    }
    let mut siblings = order.sorted(users);
    siblings.sort_by_key(|op| std::cmp::Reverse(preference(*op)));
    // Each sibling's node and slice of `parent`, read once (the pairs
    // below are quadratic in the siblings: 512 readers of one table).
    let describe = |op: Op, nodes: &mut Nodes, funcs: &Functions| -> (Rc<Node>, ParentSlice) {
        let node = nodes.get(op, funcs);
        let slice = node.view.as_ref().and_then(|v| parent_slice(v, parent));
        (node, slice)
    };
    let mut described: Vec<(Rc<Node>, ParentSlice)> = siblings.iter().map(|op| describe(*op, nodes, funcs)).collect();
    // Which siblings reach which: computed when first needed, then kept
    // up to date through fusions ([`merge_reach`]). A fused sibling stays
    // in `siblings` (so indices keep their meaning), no longer `alive`.
    let mut reach: Option<Vec<Vec<u64>>> = None;
    let mut alive = vec![true; siblings.len()];
    let mut i = 0;
    while i < siblings.len() {
        let anchor_ok = |op: Op| op.is("fusion") || reduction_dimensions(op).is_some_and(|d| d.unnested_is_faster());
        if !alive[i] || !anchor_ok(siblings[i]) {
            i += 1;
            continue;
        }
        for j in i + 1..siblings.len() {
            if !alive[j] {
                continue;
            }
            let (a, b) = (siblings[i], siblings[j]);
            let ((na, sa), (nb, sb)) = (&described[i], &described[j]);
            if siblings_compatible(na, sa, nb, sb).is_err() {
                continue;
            }
            let sets = reach.get_or_insert_with(|| order.reachability(&siblings));
            if reaches(sets, i, j) || reaches(sets, j, i) {
                // The fusion would create a cycle.
                continue;
            }
            let Ok(merged) = merge_siblings(na, nb) else {
                continue;
            };
            let before = if order.pos(a) > order.pos(b) { a } else { b };
            let limit = order.pos(before);
            let (fusion, clones) = materialize_with_clones(funcs, &merged, merged.kind(), before)?;
            nodes.forget_users(a);
            nodes.forget_users(b);
            let na = a.num_results();
            for r in 0..na {
                a.replace_result_uses(r, fusion.result(r));
            }
            for r in 0..b.num_results() {
                b.replace_result_uses(r, fusion.result(na + r));
            }
            nodes.forget(a);
            nodes.forget(b);
            funcs.erase_node(a);
            funcs.erase_node(b);
            erased.insert(a);
            erased.insert(b);
            nodes.insert_fusion(fusion, &merged, &clones, funcs);
            order.fused(&[a, b], fusion, limit);
            siblings[i] = fusion;
            alive[j] = false;
            // The fusion's node, and those of siblings that read `a` or
            // `b` (forgotten above: their operands changed).
            for k in 0..siblings.len() {
                if alive[k] && (k == i || !nodes.map.contains_key(&siblings[k])) {
                    described[k] = describe(siblings[k], nodes, funcs);
                }
            }
            merge_reach(sets, i, j);
        }
        i += 1;
    }
    Ok(())
}

/// `reach[to]` has bit `from` set if sibling `from` reaches sibling `to`.
fn reaches(reach: &[Vec<u64>], from: usize, to: usize) -> bool {
    has_bit(&reach[to], from)
}

/// Bit `k` of a set of sibling indices.
fn has_bit(set: &[u64], k: usize) -> bool {
    (set[k / 64] >> (k % 64)) & 1 == 1
}

fn set_bit(set: &mut [u64], k: usize) {
    set[k / 64] |= 1 << (k % 64);
}

/// Updates the siblings' reachability after siblings `i` and `j` were
/// fused into one op, now sibling `i` (`j` is gone and never asked about
/// again). A new path between siblings passes through the fusion: from a
/// sibling reaching `i` or `j` to one reached by `i` or `j`. So the sets
/// stay what a fresh [`Order::reachability`] would compute, without its
/// walk over every op between the siblings.
fn merge_reach(reach: &mut [Vec<u64>], i: usize, j: usize) {
    let bit = |k: usize| (k / 64, 1u64 << (k % 64));
    let mut into: Vec<u64> = reach[i].iter().zip(&reach[j]).map(|(x, y)| x | y).collect();
    for k in [i, j] {
        let (w, m) = bit(k);
        into[w] &= !m;
    }
    let (wi, mi) = bit(i);
    let (wj, mj) = bit(j);
    for (t, set) in reach.iter_mut().enumerate() {
        if t != i && t != j && (set[wi] & mi != 0 || set[wj] & mj != 0) {
            for (w, x) in set.iter_mut().zip(&into) {
                *w |= x;
            }
            set[wi] |= mi;
        }
    }
    reach[i] = into;
}

/// XLA's `IsProducerMultiOutputFusible`: a single-output loop fusion or
/// loop-fusible op, without in-place updates or physical transposes.
fn producer_ok(op: Op, node: &Node) -> bool {
    let Some(view) = &node.view else { return false };
    if !is_node(op) || op.num_results() != 1 || op.is("constant") || op.is("scatter") {
        return false;
    }
    if op.is("fusion") && FusionKind::of(op) != Some(FusionKind::Loop) {
        return false;
    }
    if node.in_place {
        return false;
    }
    // Physically transposing: a transpose that moves data.
    !view.nodes.iter().any(|n| {
        let t = n.op;
        n.facts.is_transpose()
            && t.dims_attr("dimensions").is_some_and(|perm| {
                let dims = array_type(t.operand(0)).map(|x| x.dims).unwrap_or_default();
                let kept: Vec<i64> = perm.iter().copied().filter(|&d| dims[d as usize] != 1).collect();
                kept.windows(2).any(|w| w[0] > w[1])
            })
    })
}

/// Fuses `p` into its best consumer with an extra output for its other
/// users (XLA's producer-consumer multi-output fusion).
fn fuse_producer(
    funcs: &mut Functions,
    nodes: &mut Nodes,
    order: &mut Order,
    p: Op,
    erased: &mut FxHashSet<Op>,
) -> Result<(), PassError> {
    if !is_node(p) {
        return Ok(());
    }
    let producer = nodes.get(p, funcs);
    if producer.view.is_none() || !producer_ok(p, &producer) {
        return Ok(());
    }
    let users = order.sorted(p.users());
    if users.len() == 1 && preference(users[0]) < 2 {
        // Priority fusion already declined this single-user fusion.
        return Ok(());
    }
    let results = p.results();
    let mut best: Option<(Op, View)> = None;
    for &c in &users {
        let consumer = nodes.get(c, funcs);
        if !consumer.mof_root || consumer.view.is_none() {
            continue;
        }
        let Ok(merged) = can_fuse_producer(nodes, p, &producer, &results, c, &consumer, order) else {
            continue;
        };
        if best.as_ref().is_none_or(|(b, _)| preference(c) > preference(*b)) {
            best = Some((c, merged));
        }
    }
    let Some((c, merged)) = best else {
        return Ok(());
    };
    let limit = order.pos(c);
    let (fusion, clones) = materialize_with_clones(funcs, &merged, merged.kind(), c)?;
    nodes.forget_users(c);
    nodes.forget_users(p);
    let nc = c.num_results();
    for r in 0..nc {
        c.replace_result_uses(r, fusion.result(r));
    }
    nodes.forget(c);
    funcs.erase_node(c);
    erased.insert(c);
    // The producer's results still used (by users other than `c`), in
    // order, are the extra outputs.
    let mut next = nc;
    for v in &results {
        if v.has_uses() {
            v.replace_all_uses_with(fusion.result(next));
            next += 1;
        }
    }
    nodes.forget(p);
    funcs.erase_node(p);
    erased.insert(p);
    nodes.insert_fusion(fusion, &merged, &clones, funcs);
    order.fused(&[c, p], fusion, limit);
    Ok(())
}

/// XLA's `ProducerCandidateIsFusible`; the merged view if so.
fn can_fuse_producer(
    nodes: &Nodes,
    p: Op,
    producer: &Node,
    results: &[Value],
    c: Op,
    consumer: &Node,
    order: &mut Order,
) -> Result<View, &'static str> {
    let (Some(pv), Some(cv)) = (&producer.view, &consumer.view) else {
        return Err("no view");
    };
    if consumer.in_place {
        return Err("in-place operations");
    }
    shapes_compatible(producer.hero.as_ref().ok_or("no view")?, consumer.hero.as_ref().ok_or("no view")?)?;
    if producer.transpose_hero || consumer.transpose_hero {
        return Err("a tiled transpose");
    }
    // A cycle: another operand of the consumer depends on the producer.
    let others: Vec<Op> = c.operands().into_iter().filter(|v| !results.contains(v)).filter_map(|v| v.op()).collect();
    if order.reaches(p, &others) {
        return Err("the fusion would create a cycle");
    }
    // The consumer would recompute the producer's reduction (or other
    // expensive op) for each element it reads it at (a chain of
    // softmaxes over short rows grew as row_length^depth).
    if super::creates_heavy_computation(pv, cv, results) {
        return Err("the producer would be recomputed for every element the consumer reads");
    }
    // Outputs for the producer's other users.
    let extra: Vec<usize> = (0..results.len()).filter(|&j| results[j].uses().iter().any(|(u, _)| *u != c)).collect();
    let merged = View::fuse(pv, results, cv, &extra);
    fits_in_budget(&merged, None)?;
    if !matches!(merged.output_layout(), Some(None)) {
        return Err("outputs with non-default layouts");
    }
    let fused = kernel_time(&nodes.device, &merged);
    let unfused = producer.time + consumer.time;
    if fused > unfused {
        return Err("slower fused");
    }
    Ok(merged)
}

fn run_on(pass: &MultiOutputFusion, funcs: &mut Functions, func: Op) -> Result<(), PassError> {
    let Some(terminator) = func.terminator() else {
        return Ok(());
    };
    let ops: Vec<Op> = func.body_ops().into_iter().filter(|op| *op != terminator).collect();
    let mut erased: FxHashSet<Op> = FxHashSet::default();
    let mut order = Order::new(func);
    let mut nodes = Nodes { device: pass.device, map: FxHashMap::default() };
    for &op in ops.iter().rev() {
        if erased.contains(&op) {
            continue;
        }
        for r in 0..op.num_results() {
            fuse_siblings(funcs, &mut nodes, &mut order, op.result(r), &mut erased)?;
        }
        if !erased.contains(&op) && !op.is("constant") {
            fuse_producer(funcs, &mut nodes, &mut order, op, &mut erased)?;
        }
    }
    for arg in func.arguments() {
        fuse_siblings(funcs, &mut nodes, &mut order, arg, &mut erased)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{merge_reach, Order};
    use melior::ir::Module;
    use rxla_ir::op::Op;

    /// A deterministic generator of numbers below its argument.
    fn xorshift(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |m| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m as u64) as usize
        }
    }

    /// Transitive closure of a graph on `n` nodes (Floyd-Warshall).
    fn closure(edges: &[(usize, usize)], n: usize) -> Vec<Vec<bool>> {
        let mut r = vec![vec![false; n]; n];
        for &(a, b) in edges {
            r[a][b] = true;
        }
        for m in 0..n {
            for a in 0..n {
                for b in 0..n {
                    if r[a][m] && r[m][b] {
                        r[a][b] = true;
                    }
                }
            }
        }
        r
    }

    /// The siblings' sets in `Order::reachability`'s format: `set[to]` has
    /// bit `from` if sibling `from` reaches sibling `to`.
    fn sets(r: &[Vec<bool>], siblings: &[usize]) -> Vec<Vec<u64>> {
        siblings
            .iter()
            .enumerate()
            .map(|(to, &t)| {
                let mut set = vec![0u64; siblings.len().div_ceil(64)];
                for (from, &f) in siblings.iter().enumerate() {
                    if from != to && r[f][t] {
                        set[from / 64] |= 1 << (from % 64);
                    }
                }
                set
            })
            .collect()
    }

    /// The searches of `Order::reachability` answer as the closure does, on
    /// random DAGs of ops (each `add` reads one or two earlier ops) and
    /// random sets of them, connected and not.
    #[test]
    fn reachability_equals_the_closure() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        let context = rxla_dialects::create_context();
        let n = 40;
        let mut pairs = [0usize; 2];
        for _ in 0..60 {
            let mut edges = Vec::new();
            let mut body = String::new();
            for i in 0..n {
                let operand = |k: Option<usize>| k.map_or("%arg0".to_string(), |k| format!("%{k}"));
                let (a, b) = if i == 0 { (None, None) } else { (Some(next(i)), Some(next(i))) };
                // Mostly chains of neighbours, some long edges.
                let a = a.map(|a| if next(3) == 0 { a } else { i - 1 });
                let b = if next(2) == 0 { a } else { b };
                edges.extend([a, b].into_iter().flatten().map(|k| (k, i)));
                body += &format!(
                    "    %{i} = \"hlo.add\"({}, {}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n",
                    operand(a),
                    operand(b)
                );
            }
            let text = format!(
                "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {{\n{body}    return %{} : tensor<4xf32>\n}}",
                n - 1
            );
            let module = Module::parse(&context, &text).expect("parses");
            let func = Op::of(&module.as_operation()).body_ops()[0];
            let ops = func.body_ops();
            let mut order = Order::new(func);
            let r = closure(&edges, n);
            let mut chosen: Vec<usize> = Vec::new();
            let k = 2 + next(10);
            while chosen.len() < k {
                let x = next(n);
                if !chosen.contains(&x) {
                    chosen.push(x);
                }
            }
            let siblings: Vec<Op> = chosen.iter().map(|&x| ops[x]).collect();
            assert_eq!(order.reachability(&siblings), sets(&r, &chosen), "edges {edges:?}, siblings {chosen:?}");
            for (x, &a) in chosen.iter().enumerate() {
                for &b in &chosen[x + 1..] {
                    pairs[(r[a][b] || r[b][a]) as usize] += 1;
                }
            }
        }
        // Both answers were asked for.
        assert!(pairs[0] > 50 && pairs[1] > 50, "{pairs:?}");
    }

    /// After two unconnected siblings are fused (one node contracted into
    /// the other), the updated sets are those computed afresh on the
    /// contracted graph, on random DAGs whose siblings are joined through
    /// other nodes.
    #[test]
    fn merged_reachability_equals_recomputed() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        let (n, k) = (12, 5);
        let mut checked = 0;
        for _ in 0..500 {
            // Edges from lower to higher nodes: a DAG.
            let edges: Vec<(usize, usize)> = (0..next(16)).map(|_| (next(n), next(n))).filter(|(a, b)| a < b).collect();
            let mut siblings: Vec<usize> = Vec::new();
            while siblings.len() < k {
                let x = next(n);
                if !siblings.contains(&x) {
                    siblings.push(x);
                }
            }
            let r = closure(&edges, n);
            let mut reach = sets(&r, &siblings);
            let (i, j) = (next(k), next(k));
            let (si, sj) = (siblings[i], siblings[j]);
            if i == j || r[si][sj] || r[sj][si] {
                continue;
            }
            merge_reach(&mut reach, i, j);
            let contracted: Vec<(usize, usize)> =
                edges.iter().map(|&(a, b)| (if a == sj { si } else { a }, if b == sj { si } else { b })).collect();
            let fresh = sets(&closure(&contracted, n), &siblings);
            // Sibling `j` is gone: neither its set nor its bit is asked about.
            let (w, m) = (j / 64, 1u64 << (j % 64));
            for to in (0..k).filter(|&t| t != j) {
                assert_eq!(
                    reach[to][w] & !m,
                    fresh[to][w] & !m,
                    "sibling {to} after fusing {i} and {j}; edges {edges:?}, siblings {siblings:?}"
                );
            }
            checked += 1;
        }
        assert!(checked > 100, "too few unconnected pairs drawn: {checked}");
    }
}
