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
//! Views, kernel times and producer-consumer verdicts are memoized
//! (`Cache`), so a step costs the size of the fusions it touches.
//!
//! See `docs/passes/fusion.md` for the rules.

use super::{
    cost::{benefit_of_times, kernel_time, Device},
    creates_heavy_computation, duplicable, fits_in_budget, fuse_into_owned, fusible_computations, in_place_ok, is_node,
    is_small_constant, materialize_with_clones, scatter_ok, Functions, FxHashMap, FxHashSet, TypeCacheGuard, View,
};
use melior::ir::OperationRef;
use rxla_ir::{
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
};
use std::{cell::RefCell, collections::BTreeMap, rc::Rc};

#[derive(Clone, Debug)]
pub struct PriorityFusion {
    device: Device,
    /// Also fuse scalar constants into their users at the end.
    fuse_constants: bool,
    /// Producers with at least this many users keep a [`Memo`]
    /// ([`MEMO_USERS`]; the tests compare with none).
    memo_users: usize,
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
            memo_users: MEMO_USERS,
        })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        let mut funcs = Functions::new(module);
        let _types = TypeCacheGuard::new();
        fusible_computations(module).into_iter().try_for_each(|func| run_on(self, &mut funcs, func))
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
    key: FxHashMap<Op, (Priority, u64)>,
    id: FxHashMap<Op, u64>,
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
    if producer.reduction_hero().is_some() && p.users().len() > 1 {
        return Err("reduction output fusion only works for a single user");
    }
    can_fuse_views(producer, p, consumer, c)
}

/// [`can_fuse`] for a fusible consumer, without the rule that depends on
/// the producer's other users (a producer with a reduction hero has one
/// user): what only the two nodes decide, which [`Cache`] remembers.
fn can_fuse_views(producer: &View, p: Op, consumer: &View, c: Op) -> Result<View, &'static str> {
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
        if !consumer.nodes.iter().all(|n| n.facts.is_reduce_intermediate()) {
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

/// A node as the planner sees it: its view and what the plans ask of it.
struct Node {
    /// Unique among the nodes built in one run (a key for the verdicts
    /// that stays unique when an erased op's address is reused).
    gen: u64,
    /// `is_node(op)`.
    fusible: bool,
    /// `View::of(op)`; `None` when the op is not fusible or has no view.
    view: Option<View>,
    /// `kernel_time` of the view.
    time: f64,
    /// `duplicable` of the view.
    duplicable: bool,
    /// The view has a reduction hero.
    reduction_hero: bool,
    /// As a consumer: what each producer fused into it gives.
    verdicts: RefCell<Vec<Verdict>>,
}

/// A producer node (op and generation) fused into a consumer: the fused
/// view and its kernel time, or `None` if the producer cannot be fused
/// into it.
struct Verdict {
    producer: Op,
    gen: u64,
    fused: Option<Rc<Fused>>,
}

/// A producer fused into a consumer.
struct Fused {
    view: View,
    time: f64,
}

/// What [`plan`] computes from the IR, kept while it stays valid.
///
/// A node's view depends only on the op and its operands (a fused
/// computation belongs to its fusion and never changes), so it is
/// recomputed only when the op is erased ([`Cache::forget`], right before
/// `erase_node`), and follows its operands when they are replaced
/// ([`Cache::retarget`], right after `replace_result_uses`). Verdicts
/// depend only on the two views, and are found by the producer's
/// generation.
struct Cache {
    device: Device,
    nodes: FxHashMap<Op, Rc<Node>>,
    next_gen: u64,
    /// Producers with this many users keep a memo.
    memo_users: usize,
    /// The last assessment of each producer with many users.
    memos: FxHashMap<Op, Memo>,
    /// For an op, the producers whose memo lists it as a consumer (or
    /// did once: a stale entry only costs a lookup).
    watchers: FxHashMap<Op, Vec<Op>>,
}

/// Producers with at least this many users keep their last assessment
/// ([`Memo`]). A scalar that feeds every parameter's update (a learning
/// rate, a clipping factor) has a thousand users in a large training step
/// and is assessed again after each fusion of one of them: without the
/// memo those assessments were 97% of the planner's work on users, and
/// grew quadratically with the model's depth.
const MEMO_USERS: usize = 64;

/// How far past its expected place an unchanged consumer is looked for in
/// a memo (the consumers in between were fused since).
const MEMO_LOOKAHEAD: usize = 16;

/// A producer's last assessment, kept so that assessing it again after a
/// few of its users changed costs those users (and a walk of its use
/// list), not all of them.
struct Memo {
    /// The producer's node when assessed.
    producer: Rc<Node>,
    /// Every user, in [`Op::users`] order.
    consumers: Vec<Consumer>,
    /// Users whose node changed (or that were erased) since: their
    /// entries are stale.
    stale: FxHashSet<Op>,
}

/// One user of a producer as a consumer: its node, the fused view, and
/// both kernel times (copied, for the sums).
#[derive(Clone)]
struct Consumer {
    op: Op,
    node: Rc<Node>,
    fused: Rc<Fused>,
    time: f64,
    fused_time: f64,
}

impl Cache {
    fn new(device: Device, memo_users: usize) -> Self {
        Self {
            device,
            nodes: FxHashMap::default(),
            next_gen: 0,
            memo_users,
            memos: FxHashMap::default(),
            watchers: FxHashMap::default(),
        }
    }

    /// Records that `op`'s node changed or went: the memos listing it see
    /// its entry as stale.
    fn changed(&mut self, op: Op) {
        if let Some(producers) = self.watchers.get(&op) {
            for p in producers {
                if let Some(memo) = self.memos.get_mut(p) {
                    memo.stale.insert(op);
                }
            }
        }
    }

    fn node(&mut self, op: Op, funcs: &Functions) -> Rc<Node> {
        if let Some(node) = self.nodes.get(&op) {
            return node.clone();
        }
        let fusible = is_node(op);
        let view = if fusible { View::of(op, funcs) } else { None };
        let node = self.make(fusible, view);
        self.changed(op);
        self.nodes.insert(op, node.clone());
        node
    }

    fn make(&mut self, fusible: bool, view: Option<View>) -> Rc<Node> {
        self.next_gen += 1;
        let (time, duplicable, reduction_hero) = match &view {
            Some(v) => (kernel_time(&self.device, v), duplicable(v), v.reduction_hero().is_some()),
            None => (0.0, false, false),
        };
        Rc::new(Node {
            gen: self.next_gen,
            fusible,
            view,
            time,
            duplicable,
            reduction_hero,
            verdicts: RefCell::new(Vec::new()),
        })
    }

    /// Records the view of a fusion just made (`View::of` would rebuild the
    /// same view from its fused computation).
    fn insert_fusion(&mut self, fusion: Op, view: View) {
        let node = self.make(true, Some(view));
        self.changed(fusion);
        self.nodes.insert(fusion, node);
    }

    fn forget(&mut self, op: Op) {
        self.changed(op);
        self.memos.remove(&op);
        self.nodes.remove(&op);
    }

    /// Follows `old`'s results being replaced by `new`'s (same types) in
    /// `users`: a user's view reads the new values in place of the old
    /// ones and is otherwise the same (same ops, types and kernel time),
    /// but it is a new node for the verdicts, whose fused views name the
    /// values read.
    fn retarget(&mut self, users: &[Op], old: Op, new: Op) {
        for user in users {
            let Some(node) = self.nodes.get(user).cloned() else {
                continue;
            };
            let view = node.view.as_ref().map(|v| {
                let mut v = v.clone();
                for p in &mut v.params {
                    if p.op() == Some(old) {
                        if let Some(r) = p.result_number() {
                            *p = new.result(r);
                        }
                    }
                }
                v
            });
            self.next_gen += 1;
            let updated = Rc::new(Node {
                gen: self.next_gen,
                fusible: node.fusible,
                view,
                time: node.time,
                duplicable: node.duplicable,
                reduction_hero: node.reduction_hero,
                verdicts: RefCell::new(Vec::new()),
            });
            self.changed(*user);
            self.nodes.insert(*user, updated);
        }
    }

    /// `can_fuse_views` of two fusible nodes, with the fused view's kernel
    /// time; memoized in the consumer.
    fn verdict(&self, producer: &Node, p: Op, consumer: &Node, c: Op) -> Option<Rc<Fused>> {
        let mut verdicts = consumer.verdicts.borrow_mut();
        let slot = verdicts.iter().position(|v| v.producer == p);
        if let Some(i) = slot {
            if verdicts[i].gen == producer.gen {
                return verdicts[i].fused.clone();
            }
        }
        let result = match (&producer.view, &consumer.view) {
            (Some(pv), Some(cv)) => can_fuse_views(pv, p, cv, c)
                .ok()
                .map(|view| Rc::new(Fused { time: kernel_time(&self.device, &view), view })),
            _ => None,
        };
        let entry = Verdict { producer: p, gen: producer.gen, fused: result.clone() };
        match slot {
            Some(i) => verdicts[i] = entry,
            None => verdicts.push(entry),
        }
        result
    }
}

/// A fusion [`plan`] found worth making.
struct Plan {
    producer: Rc<Node>,
    /// The users of the producer, each with its node and the fused view.
    consumers: Vec<Consumer>,
}

/// The benefit of fusing `p` into all its users, if it can be fused into
/// all of them and the benefit is not negative; `plan` also returns them.
/// A producer is a fusible single-result node that is not a constant
/// (constants are fused at the end) or a scatter.
fn priority(cache: &mut Cache, funcs: &Functions, p: Op) -> Option<f64> {
    assess(cache, funcs, p, false).map(|(benefit, _)| benefit)
}

/// [`priority`]'s fusion: the producer and each consumer with its fused
/// view.
fn plan(cache: &mut Cache, funcs: &Functions, p: Op) -> Option<Plan> {
    assess(cache, funcs, p, true).and_then(|(_, plan)| plan)
}

/// The benefit, and the plan when `want_plan`.
fn assess(cache: &mut Cache, funcs: &Functions, p: Op, want_plan: bool) -> Option<(f64, Option<Plan>)> {
    if p.num_results() != 1 || p.is("constant") || p.is("scatter") {
        return None;
    }
    let users = p.users();
    if users.is_empty() {
        return None;
    }
    let producer = cache.node(p, funcs);
    if !producer.fusible || producer.view.is_none() {
        return None;
    }
    if users.len() > 1 && (!producer.duplicable || producer.reduction_hero) {
        return None;
    }
    // The last assessment's consumers, where their nodes are unchanged:
    // each verdict would be found again (the same producer node and
    // consumer node), so it is taken as is.
    let memo = cache.memos.remove(&p).filter(|m| Rc::ptr_eq(&m.producer, &producer));
    let (mut old, stale): (Vec<Option<Consumer>>, FxHashSet<Op>) = match memo {
        Some(m) => (m.consumers.into_iter().map(Some).collect(), m.stale),
        None => (Vec::new(), FxHashSet::default()),
    };
    let keep = users.len() >= cache.memo_users;
    let memoized = !old.is_empty();
    let block = p.block().ptr;
    let mut consumers: Vec<Consumer> = Vec::with_capacity(users.len());
    let mut cursor = 0;
    for &c in &users {
        let end = old.len().min(cursor + MEMO_LOOKAHEAD);
        let at = (cursor..end).find(|&k| old[k].as_ref().is_some_and(|e| e.op == c));
        if let Some(k) = at {
            cursor = k + 1;
            if stale.is_empty() || !stale.contains(&c) {
                consumers.extend(old[k].take());
                continue;
            }
        }
        if c.block().ptr != block {
            return None;
        }
        let consumer = cache.node(c, funcs);
        if !consumer.fusible || consumer.view.is_none() {
            return None;
        }
        let fused = cache.verdict(&producer, p, &consumer, c)?;
        if keep {
            cache.watchers.entry(c).or_default().push(p);
        }
        consumers.push(Consumer { op: c, time: consumer.time, fused_time: fused.time, node: consumer, fused });
    }
    if cfg!(debug_assertions) && memoized {
        check_memoized(cache, funcs, p, &producer, &consumers);
    }
    let benefit =
        benefit_of_times(producer.time, consumers.iter().map(|c| c.time), consumers.iter().map(|c| c.fused_time));
    let plan = (want_plan && benefit >= 0.0).then(|| Plan {
        producer: producer.clone(),
        consumers: if keep { consumers.clone() } else { std::mem::take(&mut consumers) },
    });
    if keep {
        cache.memos.insert(p, Memo { producer, consumers, stale: FxHashSet::default() });
    }
    (benefit >= 0.0).then_some((benefit, plan))
}

/// Debug builds: the consumers an assessment took partly from a memo are
/// those found afresh (the same ops, nodes and verdicts).
fn check_memoized(cache: &mut Cache, funcs: &Functions, p: Op, producer: &Node, consumers: &[Consumer]) {
    let users = p.users();
    assert_eq!(users, consumers.iter().map(|c| c.op).collect::<Vec<_>>(), "memoized users of a producer");
    for (c, memo) in users.into_iter().zip(consumers) {
        let node = cache.node(c, funcs);
        let fused = cache.verdict(producer, p, &node, c);
        assert!(Rc::ptr_eq(&node, &memo.node), "a memoized consumer's node is current");
        assert!(fused.is_some_and(|f| Rc::ptr_eq(&f, &memo.fused)), "a memoized verdict is current");
    }
}

/// Fuses `view` as a fusion replacing `c` (whose results are the view's
/// first results), keeping the cache in step; returns the fusion. The ops
/// of `c`'s fused computation, and of `donor`'s (a producer fused into its
/// last consumer), move into the new one. `parts` are the producer's view
/// and results and the consumer's view `view` fuses (`View::fuse`), when
/// it does: the producer's ops then move into `c`'s fused computation if
/// this run made it ([`fuse_into_owned`]).
fn replace_by_fusion(
    cache: &mut Cache,
    funcs: &mut Functions,
    view: &View,
    c: Op,
    donor: Option<Op>,
    parts: Option<(&View, &[Value], &View)>,
) -> Result<Op, PassError> {
    let donor = donor.and_then(|p| funcs.owned_callee(p));
    let grown = match parts {
        Some((producer, results, consumer)) => fuse_into_owned(funcs, view, producer, results, consumer, c, donor)?,
        None => None,
    };
    let (fusion, clones) = match grown {
        Some(made) => made,
        None => {
            let donors: Vec<Op> = [funcs.owned_callee(c), donor].into_iter().flatten().collect();
            materialize_with_clones(funcs, view, view.kind(), c, &donors)?
        }
    };
    let users = c.users();
    for r in 0..c.num_results() {
        c.replace_result_uses(r, fusion.result(r));
    }
    cache.retarget(&users, c, fusion);
    cache.forget(c);
    funcs.erase_node(c);
    cache.insert_fusion(fusion, view.with_ops(&clones));
    Ok(fusion)
}

fn run_on(pass: &PriorityFusion, funcs: &mut Functions, func: Op) -> Result<(), PassError> {
    let Some(terminator) = func.terminator() else {
        return Ok(());
    };
    let ops: Vec<Op> = func.body_ops().into_iter().filter(|op| *op != terminator).collect();
    let mut cache = Cache::new(pass.device, pass.memo_users);
    let mut queue = Queue::default();
    for &op in &ops {
        queue.register(op);
    }
    for &op in &ops {
        let priority = priority(&mut cache, funcs, op);
        queue.set(op, priority);
    }
    while let Some(p) = queue.pop() {
        // The neighbourhood may have changed since the priority was set.
        let Some(chosen) = plan(&mut cache, funcs, p) else {
            continue;
        };
        let producer = chosen.producer.view.as_ref().ok_or_else(|| bug("producer view"))?;
        let results = p.results();
        let mut created = Vec::with_capacity(chosen.consumers.len());
        let last = chosen.consumers.len() - 1;
        for (i, Consumer { op: c, node: planned, fused, .. }) in chosen.consumers.into_iter().enumerate() {
            // The producer's fused computation moves into its last
            // consumer's.
            let donor = (i == last).then_some(p);
            // The consumer's view now (an earlier fusion may have replaced
            // one of its operands).
            let consumer = cache.node(c, funcs);
            let view = consumer.view.as_ref().ok_or_else(|| bug("consumer view"))?;
            let parts = Some((producer, &results[..], view));
            let fusion = if Rc::ptr_eq(&consumer, &planned) {
                replace_by_fusion(&mut cache, funcs, &fused.view, c, donor, parts)?
            } else {
                let fused = View::fuse(producer, &results, view, &[]);
                replace_by_fusion(&mut cache, funcs, &fused, c, donor, parts)?
            };
            queue.forget(c);
            queue.register(fusion);
            created.push(fusion);
        }
        queue.forget(p);
        if p.has_uses() {
            return Err(bug("a fused producer still has users"));
        }
        cache.forget(p);
        funcs.erase_node(p);
        // New fusions are producers now; their operands' producers have
        // new consumers.
        let mut touched: Vec<Op> = created.clone();
        let mut seen: FxHashSet<Op> = created.iter().copied().collect();
        for f in &created {
            for i in 0..f.num_operands() {
                if let Some(d) = f.operand(i).op() {
                    if queue.contains(d) && seen.insert(d) {
                        touched.push(d);
                    }
                }
            }
        }
        for op in touched {
            let priority = priority(&mut cache, funcs, op);
            queue.set(op, priority);
        }
    }
    if pass.fuse_constants {
        fuse_constants(&mut cache, funcs, func)?;
    }
    Ok(())
}

/// Fuses every scalar constant into each fusible user (XLA fuses small
/// constants last: they cost nothing inside a kernel and would otherwise
/// be kernel parameters).
fn fuse_constants(cache: &mut Cache, funcs: &mut Functions, func: Op) -> Result<(), PassError> {
    let Some(terminator) = func.terminator() else {
        return Ok(());
    };
    let constants: Vec<Op> =
        func.body_ops().into_iter().filter(|op| *op != terminator && is_small_constant(*op)).collect();
    for constant in constants {
        let producer = cache.node(constant, funcs);
        let producer = match (producer.fusible, &producer.view) {
            (true, Some(_)) => producer,
            _ => {
                // Not a fusible node (say, a dynamic shape): its view alone.
                let view = View::of(constant, funcs).ok_or_else(|| bug("constant view"))?;
                cache.make(false, Some(view))
            }
        };
        let producer = producer.view.as_ref().ok_or_else(|| bug("constant view"))?;
        let results = constant.results();
        for c in constant.users() {
            if !is_node(c) || c.is("bitcast") {
                continue;
            }
            let consumer = cache.node(c, funcs);
            let Some(consumer) = consumer.view.as_ref() else {
                continue;
            };
            if scatter_ok(producer, &results, consumer).is_err() {
                continue;
            }
            let fused = View::fuse(producer, &results, consumer, &[]);
            if fits_in_budget(&fused, Some(consumer.params.len())).is_err() || fused.output_layout().is_none() {
                continue;
            }
            replace_by_fusion(cache, funcs, &fused, c, None, Some((producer, &results, consumer)))?;
        }
        if !constant.has_uses() {
            cache.forget(constant);
            funcs.erase_node(constant);
        }
    }
    Ok(())
}

fn bug(what: &str) -> PassError {
    PassError(format!("internal error in priority-fusion: {what}"))
}

#[cfg(test)]
mod tests {
    use super::{PriorityFusion, MEMO_USERS};
    use crate::fusion::cost::Device;
    use melior::{ir::Module, pass::PassManager};
    use rxla_ir::pass::{create_pass, PassId};

    static ID: PassId = PassId::new();

    fn run(text: &str, memo_users: usize) -> String {
        let context = rxla_dialects::create_context();
        let mut module = Module::parse(&context, text).expect("parses");
        let manager = PassManager::new(&context);
        manager.enable_verifier(true);
        let pass = PriorityFusion { device: Device::default(), fuse_constants: true, memo_users };
        manager.add_pass(create_pass(pass, &ID));
        manager.run(&mut module).expect("pass runs");
        module.as_operation().to_string()
    }

    /// A scalar feeding many users (as a learning rate feeds every
    /// parameter's update), each user's neighbourhood fused before it: the
    /// memo's incremental assessments make the same fusions, in the same
    /// order, as assessing every user each time.
    #[test]
    fn memoized_assessments_fuse_as_full_ones() {
        let users = 3 * MEMO_USERS;
        let mut body = String::from("  %s = hlo.negate %lr : tensor<f32>\n");
        let mut results = Vec::new();
        for i in 0..users {
            let x = format!("%arg{}", i % 4);
            body += &format!(
                "  %b{i} = hlo.broadcast %s, dims = [] : (tensor<f32>) -> tensor<16xf32>\n  \
                 %e{i} = hlo.exponential {x} : tensor<16xf32>\n  \
                 %m{i} = hlo.multiply %e{i}, %b{i} : tensor<16xf32>\n"
            );
            if i % 5 == 0 {
                // Some users' results are read by another op.
                body += &format!("  %t{i} = hlo.tanh %m{i} : tensor<16xf32>\n");
                results.push(format!("%t{i}"));
            } else {
                results.push(format!("%m{i}"));
            }
        }
        let params: Vec<String> = (0..4).map(|i| format!("%arg{i}: tensor<16xf32>")).collect();
        let types = vec!["tensor<16xf32>"; users].join(", ");
        let text = format!(
            "func.func @main(%lr: tensor<f32>, {}) -> ({types}) {{\n{body}  return {} : {types}\n}}",
            params.join(", "),
            results.join(", "),
        );
        let memo = run(&text, MEMO_USERS);
        let full = run(&text, usize::MAX);
        assert_eq!(memo, full);
        // The scalar was fused into its users' kernels.
        assert!(memo.matches("hlo.fusion").count() >= users, "{memo}");
    }
}
