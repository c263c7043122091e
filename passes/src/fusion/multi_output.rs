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
    array_type, clear_type_cache,
    cost::{kernel_time, Device},
    elements, fits_in_budget, fusible_computations, is_elementwise, is_node, materialize,
    reduction_dimensions, restore_topological_order, tiled_transpose, Functions, FusionKind, Src,
    View,
};
use crate::{
    framework::{HloPass, PassError, PassOptions},
    ir::{Op, Value},
};
use melior::ir::OperationRef;
use std::collections::{HashMap, HashSet};

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
        Ok(Self {
            device: Device::default(),
        })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        let mut funcs = Functions::new(module);
        clear_type_cache();
        let result = fusible_computations(module)
            .into_iter()
            .try_for_each(|func| run_on(self, &mut funcs, func));
        clear_type_cache();
        result
    }
}

/// What the emitter's loop iterates, for multi-output compatibility.
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
            loop_dims: array_type(view.params[i])
                .map(|t| t.dims)
                .unwrap_or_default(),
            reduction: false,
            transpose: None,
        },
        Src::Node(k, r) => {
            let op = view.nodes[k].op;
            let reduction = reduction_dimensions(op).is_some_and(|d| d.unnested_is_faster());
            let transpose = tiled_transpose(op);
            let shape_of = if reduction || transpose.is_some() {
                op.operand(0)
            } else {
                op.result(r)
            };
            Hero {
                op: Some(op),
                loop_dims: array_type(shape_of).map(|t| t.dims).unwrap_or_default(),
                reduction,
                transpose,
            }
        }
    }
}

/// XLA's `ShapesCompatibleForMultiOutputFusion`.
fn shapes_compatible(a: &View, b: &View) -> Result<(), &'static str> {
    let (h1, h2) = (hero(a), hero(b));
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
/// elementwise ops.
fn is_mof_root(op: Op, funcs: &Functions) -> bool {
    if !is_node(op) {
        return false;
    }
    if op.is("fusion") {
        return match FusionKind::of(op) {
            Some(FusionKind::Loop) => true,
            Some(FusionKind::Input) => View::of(op, funcs)
                .is_some_and(|v| v.reduction_hero().is_some() || v.transpose_hero().is_some()),
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
        return op.num_results() > 1
            && !reduction_dimensions(op).is_some_and(|d| d.unnested_is_faster());
    }
    FusionKind::of(op) == Some(FusionKind::Loop)
        && view.roots.iter().any(|r| matches!(r, Src::Node(k, _) if view.nodes[*k].op.is("reduce") && view.nodes[*k].op.num_results() > 1))
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
    let uses: Vec<&super::VNode> = view
        .nodes
        .iter()
        .filter(|n| n.inputs.contains(&Src::Param(i)))
        .collect();
    let [node] = uses.as_slice() else { return None };
    if !node.op.is("slice") || view.roots.contains(&Src::Param(i)) {
        return None;
    }
    Some((
        node.op.dims_attr("start_indices")?,
        node.op.dims_attr("limit_indices")?,
    ))
}

/// XLA's `ParameterSlicesAreNonOverlapping`: siblings that read disjoint
/// slices of a large operand share nothing worth a fusion.
fn slices_overlap(a: &View, b: &View, parent: Value) -> bool {
    if super::value_type(parent).byte_size() < 1024 {
        return true;
    }
    let (Some((s1, l1)), Some((s2, l2))) = (unique_slice(a, parent), unique_slice(b, parent))
    else {
        return true;
    };
    (0..s1.len()).all(|d| s1[d] < l2[d] && s2[d] < l1[d])
}

/// True if the view has a dynamic-update-slice or scatter, which update a
/// buffer in place (multi-output fusion keeps away from them).
fn has_in_place_op(view: &View) -> bool {
    view.any(|op| op.is("dynamic_update_slice") || op.is("scatter"))
}

/// XLA's `CanFuseSiblings`; the merged view if so.
fn can_fuse_siblings(
    a: Op,
    b: Op,
    parent: Value,
    funcs: &Functions,
    order: &Order,
) -> Result<View, &'static str> {
    if order.reaches(a, &[b]) || order.reaches(b, &[a]) {
        return Err("the siblings are connected");
    }
    let va = View::of(a, funcs).ok_or("no view")?;
    let vb = View::of(b, funcs).ok_or("no view")?;
    shapes_compatible(&va, &vb)?;
    if !slices_overlap(&va, &vb, parent) {
        return Err("the siblings read disjoint slices");
    }
    if has_in_place_op(&va) || has_in_place_op(&vb) {
        return Err("in-place operations");
    }
    let merged = View::siblings(&va, &vb);
    fits_in_budget(&merged, None)?;
    if merged.output_layout() != Some(None) {
        return Err("outputs with non-default layouts");
    }
    Ok(merged)
}

fn sibling_candidate(op: Op, funcs: &Functions) -> bool {
    op.has_uses()
        && is_mof_root(op, funcs)
        && View::of(op, funcs).is_some_and(|v| !is_nestable_variadic_reduction(op, &v))
}

/// Positions of a computation's ops (a topological order), refreshed after
/// each fusion.
struct Order {
    func: Op,
    position: HashMap<Op, usize>,
}

impl Order {
    fn new(func: Op) -> Self {
        let mut order = Order {
            func,
            position: HashMap::new(),
        };
        order.refresh();
        order
    }

    fn refresh(&mut self) {
        self.position = self
            .func
            .body_ops()
            .into_iter()
            .enumerate()
            .map(|(i, op)| (op, i))
            .collect();
    }

    fn pos(&self, op: Op) -> usize {
        self.position.get(&op).copied().unwrap_or(usize::MAX)
    }

    /// `ops` in block order.
    fn sorted(&self, mut ops: Vec<Op>) -> Vec<Op> {
        ops.sort_by_key(|op| self.pos(*op));
        ops
    }

    /// True if an op of `targets` is reachable from `from` through def-use
    /// edges. Edges only go forward in the order, so the search stops at
    /// the last target's position.
    fn reaches(&self, from: Op, targets: &[Op]) -> bool {
        let Some(limit) = targets.iter().map(|t| self.pos(*t)).max() else {
            return false;
        };
        let mut seen: HashSet<Op> = HashSet::new();
        let mut work: Vec<Op> = from.users();
        while let Some(op) = work.pop() {
            if targets.contains(&op) {
                return true;
            }
            if self.pos(op) < limit && seen.insert(op) {
                work.extend(op.users());
            }
        }
        false
    }
}

/// Fuses users of `parent` pairwise; returns the ops erased.
fn fuse_siblings(
    funcs: &mut Functions,
    order: &mut Order,
    parent: Value,
    erased: &mut HashSet<Op>,
) -> Result<(), PassError> {
    if array_type(parent).is_none() || elements(parent) <= 1 {
        return Ok(());
    }
    let users: Vec<Op> = parent
        .users()
        .into_iter()
        .filter(|u| sibling_candidate(*u, funcs))
        .collect();
    if users.len() < 2 {
        return Ok(());
    }
    let mut siblings = order.sorted(users);
    siblings.sort_by_key(|op| std::cmp::Reverse(preference(*op)));
    let mut i = 0;
    while i < siblings.len() {
        let anchor_ok = |op: Op| {
            op.is("fusion") || reduction_dimensions(op).is_some_and(|d| d.unnested_is_faster())
        };
        if !anchor_ok(siblings[i]) {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < siblings.len() {
            let (a, b) = (siblings[i], siblings[j]);
            let Ok(merged) = can_fuse_siblings(a, b, parent, funcs, order) else {
                j += 1;
                continue;
            };
            let before = if order.pos(a) > order.pos(b) { a } else { b };
            let fusion = materialize(funcs, &merged, merged.kind(), before)?;
            let na = a.num_results();
            for r in 0..na {
                a.replace_result_uses(r, fusion.result(r));
            }
            for r in 0..b.num_results() {
                b.replace_result_uses(r, fusion.result(na + r));
            }
            funcs.erase_node(a);
            funcs.erase_node(b);
            erased.insert(a);
            erased.insert(b);
            restore_topological_order(order.func);
            order.refresh();
            siblings[i] = fusion;
            siblings.remove(j);
        }
        i += 1;
    }
    Ok(())
}

/// XLA's `IsProducerMultiOutputFusible`: a single-output loop fusion or
/// loop-fusible op, without in-place updates or physical transposes.
fn producer_ok(op: Op, view: &View) -> bool {
    if !is_node(op) || op.num_results() != 1 || op.is("constant") || op.is("scatter") {
        return false;
    }
    if op.is("fusion") && FusionKind::of(op) != Some(FusionKind::Loop) {
        return false;
    }
    if has_in_place_op(view) {
        return false;
    }
    // Physically transposing: a transpose that moves data.
    !view.any(|t| {
        t.is("transpose")
            && t.dims_attr("dimensions").is_some_and(|perm| {
                let dims = array_type(t.operand(0)).map(|x| x.dims).unwrap_or_default();
                let kept: Vec<i64> = perm
                    .iter()
                    .copied()
                    .filter(|&d| dims[d as usize] != 1)
                    .collect();
                kept.windows(2).any(|w| w[0] > w[1])
            })
    })
}

/// Fuses `p` into its best consumer with an extra output for its other
/// users (XLA's producer-consumer multi-output fusion).
fn fuse_producer(
    pass: &MultiOutputFusion,
    funcs: &mut Functions,
    order: &mut Order,
    p: Op,
    erased: &mut HashSet<Op>,
) -> Result<(), PassError> {
    let Some(producer) = View::of(p, funcs) else {
        return Ok(());
    };
    if !producer_ok(p, &producer) {
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
        if !is_mof_root(c, funcs) {
            continue;
        }
        let Some(consumer) = View::of(c, funcs) else {
            continue;
        };
        let Ok(merged) = can_fuse_producer(pass, p, &producer, &results, c, &consumer, order)
        else {
            continue;
        };
        if best
            .as_ref()
            .is_none_or(|(b, _)| preference(c) > preference(*b))
        {
            best = Some((c, merged));
        }
    }
    let Some((c, merged)) = best else {
        return Ok(());
    };
    let fusion = materialize(funcs, &merged, merged.kind(), c)?;
    let nc = c.num_results();
    for r in 0..nc {
        c.replace_result_uses(r, fusion.result(r));
    }
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
    funcs.erase_node(p);
    erased.insert(p);
    restore_topological_order(order.func);
    order.refresh();
    Ok(())
}

/// XLA's `ProducerCandidateIsFusible`; the merged view if so.
fn can_fuse_producer(
    pass: &MultiOutputFusion,
    p: Op,
    producer: &View,
    results: &[Value],
    c: Op,
    consumer: &View,
    order: &Order,
) -> Result<View, &'static str> {
    if has_in_place_op(consumer) {
        return Err("in-place operations");
    }
    shapes_compatible(producer, consumer)?;
    if producer.transpose_hero().is_some() || consumer.transpose_hero().is_some() {
        return Err("a tiled transpose");
    }
    // A cycle: another operand of the consumer depends on the producer.
    let others: Vec<Op> = c
        .operands()
        .into_iter()
        .filter(|v| !results.contains(v))
        .filter_map(|v| v.op())
        .collect();
    if order.reaches(p, &others) {
        return Err("the fusion would create a cycle");
    }
    // Outputs for the producer's other users.
    let extra: Vec<usize> = (0..results.len())
        .filter(|&j| results[j].users().iter().any(|u| *u != c))
        .collect();
    let merged = View::fuse(producer, results, consumer, &extra);
    fits_in_budget(&merged, None)?;
    if merged.output_layout() != Some(None) {
        return Err("outputs with non-default layouts");
    }
    let fused = kernel_time(&pass.device, &merged);
    let unfused = kernel_time(&pass.device, producer) + kernel_time(&pass.device, consumer);
    if fused > unfused {
        return Err("slower fused");
    }
    Ok(merged)
}

fn run_on(pass: &MultiOutputFusion, funcs: &mut Functions, func: Op) -> Result<(), PassError> {
    let Some(terminator) = func.terminator() else {
        return Ok(());
    };
    let ops: Vec<Op> = func
        .body_ops()
        .into_iter()
        .filter(|op| *op != terminator)
        .collect();
    let mut erased: HashSet<Op> = HashSet::new();
    let mut order = Order::new(func);
    for &op in ops.iter().rev() {
        if erased.contains(&op) {
            continue;
        }
        for v in op.results() {
            fuse_siblings(funcs, &mut order, v, &mut erased)?;
        }
        if !erased.contains(&op) && !op.is("constant") {
            fuse_producer(pass, funcs, &mut order, op, &mut erased)?;
        }
    }
    for arg in func.arguments() {
        fuse_siblings(funcs, &mut order, arg, &mut erased)?;
    }
    Ok(())
}
