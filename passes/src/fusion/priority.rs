//! `priority-fusion`: producer-consumer fusion in order of estimated
//! benefit (XLA:GPU's `PriorityFusion`).
//!
//! Every fusible producer with users sits in a priority queue keyed by the
//! [`cost`](super::cost) model's benefit of fusing it into *all* its users
//! (a producer is fused into every user or into none). The best producer is
//! taken, fused into each consumer (duplicating it when it has several),
//! erased, and the priorities of the new fusions and of their operands'
//! producers are recomputed. Producers with a negative benefit, or that
//! some user cannot take, stay unfused. At the end, scalar constants are
//! fused into every fusible user.
//!
//! See `docs/passes/fusion.md` for the rules.

use super::{
    clear_type_cache,
    cost::{fusion_benefit, Device},
    creates_heavy_computation, duplicable, fits_in_budget, fusible_computations, in_place_ok,
    is_node, is_reduce_intermediate, is_small_constant, materialize, scatter_ok, Functions, View,
};
use crate::{
    framework::{HloPass, PassError, PassOptions},
    ir::Op,
};
use melior::ir::OperationRef;
use std::collections::{BTreeMap, HashMap};

#[derive(Clone, Debug)]
pub struct PriorityFusion {
    device: Device,
    /// Also fuse scalar constants into their users at the end.
    fuse_constants: bool,
}

impl HloPass for PriorityFusion {
    const NAME: &'static str = "priority-fusion";
    const DESCRIPTION: &'static str =
        "Fuse producers into their consumers, best estimated benefit first (XLA's PriorityFusion)";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &["fuse-constants"])?;
        Ok(Self {
            device: Device::default(),
            fuse_constants: options.bool("fuse-constants", true)?,
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

/// A priority with a total order.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Priority(f64);
impl Eq for Priority {}
impl PartialOrd for Priority {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Priority {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// The producers, best first; ties go to the later op (as XLA's unique
/// ids do).
#[derive(Default)]
struct Queue {
    by_priority: BTreeMap<(Priority, u64), Op>,
    key: HashMap<Op, (Priority, u64)>,
    id: HashMap<Op, u64>,
    next: u64,
}

impl Queue {
    fn register(&mut self, op: Op) {
        self.id.insert(op, self.next);
        self.next += 1;
    }

    fn set(&mut self, op: Op, priority: Option<f64>) {
        if let Some(old) = self.key.remove(&op) {
            self.by_priority.remove(&old);
        }
        if let (Some(p), Some(&id)) = (priority, self.id.get(&op)) {
            let key = (Priority(p), id);
            self.by_priority.insert(key, op);
            self.key.insert(op, key);
        }
    }

    /// Forgets an op about to be erased.
    fn forget(&mut self, op: Op) {
        self.set(op, None);
        self.id.remove(&op);
    }

    fn pop(&mut self) -> Option<Op> {
        let (&key, &op) = self.by_priority.iter().next_back()?;
        self.by_priority.remove(&key);
        self.key.remove(&op);
        Some(op)
    }

    fn contains(&self, op: Op) -> bool {
        self.id.contains_key(&op)
    }
}

/// Whether `producer` can be fused into `consumer`, and the fused view if
/// so (XLA:GPU's `PriorityFusionQueue::CanFuse` and
/// `IsProducerConsumerFusible`).
pub fn can_fuse(producer: &View, p: Op, consumer: &View, c: Op) -> Result<View, &'static str> {
    if !is_node(c) {
        return Err("the consumer is not fusible");
    }
    if c.is("bitcast") {
        return Err("not fusing into a lone bitcast");
    }
    let results = p.results();
    scatter_ok(producer, &results, consumer)?;
    if producer.has_significant_reduce() && consumer.has_significant_reduce() {
        return Err("both the producer and the consumer contain a reduce");
    }
    let fused = View::fuse(producer, &results, consumer, &[]);
    // A reduction fusion takes only a convert/bitcast epilogue, and only
    // while the reduction stays its hero.
    if producer.reduction_hero().is_some() {
        if p.users().len() > 1 {
            return Err("reduction output fusion only works for a single user");
        }
        if !consumer.nodes.iter().all(|n| is_reduce_intermediate(n.op)) {
            return Err("a reduction's epilogue may only convert or bitcast");
        }
        if fused.reduction_hero().is_none() {
            return Err("fusion into the output of a reduction would make a loop fusion");
        }
    }
    fits_in_budget(&fused, Some(consumer.params.len()))?;
    in_place_ok(producer, consumer)?;
    if creates_heavy_computation(producer, consumer, &results) {
        return Err("the consumer would recompute the producer's reduction many times");
    }
    if fused.output_layout().is_none() {
        return Err("outputs with several non-default layouts");
    }
    Ok(fused)
}

/// A producer the queue considers: a fusible single-result node that is
/// not a constant (constants are fused at the end) or a scatter.
fn is_producer(op: Op) -> bool {
    is_node(op) && op.num_results() == 1 && !op.is("constant") && !op.is("scatter")
}

/// The consumers of `p` and the fused view for each, if `p` can be fused
/// into all of them; with the benefit of doing so.
fn plan(device: &Device, funcs: &Functions, p: Op) -> Option<(f64, Vec<Op>)> {
    if !is_producer(p) {
        return None;
    }
    let users = p.users();
    if users.is_empty() {
        return None;
    }
    let producer = View::of(p, funcs)?;
    if users.len() > 1 && !duplicable(&producer) {
        return None;
    }
    let mut consumers = Vec::with_capacity(users.len());
    let mut fused = Vec::with_capacity(users.len());
    for &c in &users {
        if c.block().ptr != p.block().ptr {
            return None;
        }
        let consumer = View::of(c, funcs)?;
        fused.push(can_fuse(&producer, p, &consumer, c).ok()?);
        consumers.push(consumer);
    }
    let benefit = fusion_benefit(device, &producer, &consumers, &fused);
    (benefit >= 0.0).then_some((benefit, users))
}

fn run_on(pass: &PriorityFusion, funcs: &mut Functions, func: Op) -> Result<(), PassError> {
    let Some(terminator) = func.terminator() else {
        return Ok(());
    };
    let ops: Vec<Op> = func
        .body_ops()
        .into_iter()
        .filter(|op| *op != terminator)
        .collect();
    let mut queue = Queue::default();
    for &op in &ops {
        queue.register(op);
    }
    for &op in &ops {
        let priority = plan(&pass.device, funcs, op).map(|(b, _)| b);
        queue.set(op, priority);
    }
    while let Some(p) = queue.pop() {
        // The neighbourhood may have changed since the priority was set.
        let Some((_, consumers)) = plan(&pass.device, funcs, p) else {
            continue;
        };
        let producer = View::of(p, funcs).ok_or_else(|| bug("producer view"))?;
        let mut created = Vec::with_capacity(consumers.len());
        for c in consumers {
            // The consumer's view now (an earlier fusion may have replaced
            // one of its operands).
            let consumer = View::of(c, funcs).ok_or_else(|| bug("consumer view"))?;
            let fused = View::fuse(&producer, &p.results(), &consumer, &[]);
            let fusion = materialize(funcs, &fused, fused.kind(), c)?;
            for r in 0..c.num_results() {
                c.replace_result_uses(r, fusion.result(r));
            }
            queue.forget(c);
            funcs.erase_node(c);
            queue.register(fusion);
            created.push(fusion);
        }
        queue.forget(p);
        if p.has_uses() {
            return Err(bug("a fused producer still has users"));
        }
        funcs.erase_node(p);
        // New fusions are producers now; their operands' producers have
        // new consumers.
        let mut touched: Vec<Op> = created.clone();
        for f in &created {
            for v in f.operands() {
                if let Some(d) = v.op() {
                    if queue.contains(d) && !touched.contains(&d) {
                        touched.push(d);
                    }
                }
            }
        }
        for op in touched {
            let priority = plan(&pass.device, funcs, op).map(|(b, _)| b);
            queue.set(op, priority);
        }
    }
    if pass.fuse_constants {
        fuse_constants(funcs, func)?;
    }
    Ok(())
}

/// Fuses every scalar constant into each fusible user (XLA fuses small
/// constants last: they cost nothing inside a kernel and would otherwise
/// be kernel parameters).
fn fuse_constants(funcs: &mut Functions, func: Op) -> Result<(), PassError> {
    let Some(terminator) = func.terminator() else {
        return Ok(());
    };
    let constants: Vec<Op> = func
        .body_ops()
        .into_iter()
        .filter(|op| *op != terminator && is_small_constant(*op))
        .collect();
    for constant in constants {
        let producer = View::of(constant, funcs).ok_or_else(|| bug("constant view"))?;
        for c in constant.users() {
            if !is_node(c) || c.is("bitcast") {
                continue;
            }
            let Some(consumer) = View::of(c, funcs) else {
                continue;
            };
            if scatter_ok(&producer, &constant.results(), &consumer).is_err() {
                continue;
            }
            let fused = View::fuse(&producer, &constant.results(), &consumer, &[]);
            if fits_in_budget(&fused, Some(consumer.params.len())).is_err()
                || fused.output_layout().is_none()
            {
                continue;
            }
            let fusion = materialize(funcs, &fused, fused.kind(), c)?;
            for r in 0..c.num_results() {
                c.replace_result_uses(r, fusion.result(r));
            }
            funcs.erase_node(c);
        }
        if !constant.has_uses() {
            funcs.erase_node(constant);
        }
    }
    Ok(())
}

fn bug(what: &str) -> PassError {
    PassError(format!("internal error in priority-fusion: {what}"))
}
