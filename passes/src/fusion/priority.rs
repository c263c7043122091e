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
//! The pass plans first and builds after: each fusion is decided on views
//! (a node's dataflow graph detached from the IR) and recorded as its
//! consumer's new view, with use lists kept as the built fusions would
//! leave them (`Graph`); once the queue is empty, each planned fusion's
//! computation is built once ([`build_planned`]), in program order. A chain
//! fused op by op is therefore built once, not once per step. Views, kernel
//! times and producer-consumer verdicts are memoized (`Cache`), so a step
//! costs the size of the fusions it touches.
//!
//! See `docs/passes/fusion.md` for the rules.

use super::{
    cost::{benefit_of_times, kernel_time, Device},
    creates_heavy_computation, duplicable, fits_in_budget, fusible_computations, in_place_ok, is_node,
    is_small_constant,
    materialize::build_planned,
    scatter_ok, Functions, FxHashMap, FxHashSet, TypeCacheGuard, View,
};
use melior::ir::OperationRef;
use rxla_ir::{
    op::{distinct, Op, Value},
    pass::{HloPass, PassError, PassOptions},
};
use std::{cell::RefCell, collections::BinaryHeap, rc::Rc};

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
/// ids do). A binary heap whose entries go stale when their op's priority
/// is set again (`key` has the live one): a priority changes at every
/// fusion next to its producer, and a balanced tree paid for a removal
/// and an insertion each time.
#[derive(Default)]
struct Queue {
    heap: BinaryHeap<Entry>,
    key: FxHashMap<Op, (Priority, u64)>,
    id: FxHashMap<Op, u64>,
    next: u64,
}

/// A queued producer: its priority and id (ordered by them), and the op.
struct Entry(Priority, u64, Op);

impl Entry {
    /// The priority's bits and the id (equal for the same key, NaNs too).
    fn key(&self) -> (u64, u64) {
        (self.0 .0.to_bits(), self.1)
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.0, self.1).cmp(&(other.0, other.1))
    }
}

impl Queue {
    fn register(&mut self, op: Op) {
        self.id.insert(op, self.next);
        self.next += 1;
    }

    fn set(&mut self, op: Op, priority: Option<f64>) {
        self.key.remove(&op);
        if let (Some(p), Some(&id)) = (priority, self.id.get(&op)) {
            self.heap.push(Entry(Priority(p), id, op));
            self.key.insert(op, (Priority(p), id));
        }
    }

    /// Forgets an op about to be erased.
    fn forget(&mut self, op: Op) {
        self.set(op, None);
        self.id.remove(&op);
    }

    fn pop(&mut self) -> Option<Op> {
        while let Some(entry) = self.heap.pop() {
            let live = self.key.get(&entry.2).is_some_and(|(p, id)| (p.0.to_bits(), *id) == entry.key());
            if live {
                self.key.remove(&entry.2);
                return Some(entry.2);
            }
        }
        None
    }

    fn contains(&self, op: Op) -> bool {
        self.id.contains_key(&op)
    }
}

/// Whether `producer` (the node of `p`) can be fused into `consumer`, a
/// fusible node, and the fused view if so (XLA:GPU's
/// `PriorityFusionQueue::CanFuse` and `IsProducerConsumerFusible`),
/// without the rule that depends on the producer's other users (a producer
/// with a reduction hero has one user): what only the two nodes decide,
/// which [`Cache`] remembers. `lone_bitcast`: the consumer is a plain
/// bitcast.
fn can_fuse_views(producer: &View, p: Op, consumer: &View, lone_bitcast: bool) -> Result<View, &'static str> {
    if lone_bitcast {
        return Err("not fusing into a lone bitcast");
    }
    let results = p.results();
    scatter_ok(producer, &results, consumer)?;
    if producer.has_significant_reduce() && consumer.has_significant_reduce() {
        return Err("both the producer and the consumer contain a reduce");
    }
    // The rules that need only the two views come before building the
    // fused one (the reduction epilogue rule alone turned down 50k of
    // 360k candidates on a 128-layer training step).
    let reduction_hero = producer.reduction_hero().is_some();
    if reduction_hero && !consumer.nodes.iter().all(|n| n.facts.is_reduce_intermediate()) {
        // A reduction fusion takes only a convert/bitcast epilogue.
        return Err("a reduction's epilogue may only convert or bitcast");
    }
    in_place_ok(producer, consumer)?;
    if creates_heavy_computation(producer, consumer, &results) {
        return Err("the consumer would recompute the producer's reduction many times");
    }
    let fused = View::fuse(producer, &results, consumer, &[]);
    if reduction_hero && fused.reduction_hero().is_none() {
        // ... and only while the reduction stays its hero.
        return Err("fusion into the output of a reduction would make a loop fusion");
    }
    fits_in_budget(&fused, Some(consumer.params.len()))?;
    if fused.output_layout().is_none() {
        return Err("outputs with several non-default layouts");
    }
    Ok(fused)
}

/// A node as the planner sees it: its view and what the plans ask of it.
struct Node {
    /// Unique among the nodes built in one run (a key for the verdicts).
    gen: u64,
    /// `is_node(op)`, or a planned fusion.
    fusible: bool,
    /// `View::of(op)` or the planned fusion's view; `None` when the op is
    /// not fusible or has no view.
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

/// What [`plan`] computes, kept while it stays valid.
///
/// The planner never changes the IR: a fusion it decides on is recorded as
/// the consumer's new node (a *planned fusion*, whose view holds the
/// producer's ops and the consumer's, and whose results are the
/// consumer's), and the producer is *dead*. A node's view therefore changes
/// only when the node is a consumer of a fusion ([`Cache::plan_fusion`]) or
/// dies ([`Cache::forget`]). Verdicts depend only on the two views, and are
/// found by the producer's generation.
struct Cache {
    device: Device,
    nodes: FxHashMap<Op, Rc<Node>>,
    next_gen: u64,
    /// Ops whose node is a planned fusion.
    planned: FxHashSet<Op>,
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

/// A producer's last assessment, kept so that assessing it again after a
/// few of its users changed costs those users (and a walk of its use
/// list), not all of them.
struct Memo {
    /// The producer's node when assessed.
    producer: Rc<Node>,
    /// Each user's entry, by op. (The use list gives the order: a fusion
    /// of one user moves it in the list, which left an ordered copy to be
    /// rebuilt at every assessment.)
    consumers: FxHashMap<Op, Consumer>,
    /// Users whose node changed (or that died) since: their entries are
    /// stale.
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
            planned: FxHashSet::default(),
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

    /// True if `op` is the plain op `name` (not a planned fusion).
    fn is_plain(&self, op: Op, name: &str) -> bool {
        !self.planned.contains(&op) && op.is(name)
    }

    /// Plans `view`, a producer fused into `c`, as `c`'s new node; `c`'s
    /// former parameters are `old` (the use lists follow in `graph`).
    fn plan_fusion(&mut self, graph: &mut Graph, c: Op, old: &[Value], view: View) {
        graph.replace_node(c, old, &view.params);
        let node = self.make(true, Some(view));
        self.changed(c);
        self.nodes.insert(c, node);
        self.planned.insert(c);
    }

    fn forget(&mut self, op: Op) {
        self.changed(op);
        self.memos.remove(&op);
        self.nodes.remove(&op);
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
            (Some(pv), Some(cv)) => can_fuse_views(pv, p, cv, self.is_plain(c, "bitcast"))
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

/// The use lists as the planned fusions leave them: for each value, the
/// ops reading it, in MLIR's use-list order, as they would be had each
/// planned fusion been built when planned. Read from the IR the first time
/// a value is asked for (the IR does not change while planning).
///
/// The order is MLIR's because [`Graph::users`] decides the order in which
/// a producer's consumers are assessed and fused (and the memos' cursor
/// walks it), as `Op::users` did when each fusion was built at once: a new
/// fusion op's operand uses go to the front of their lists, the erased
/// consumer's and producer's uses leave them, and replacing the
/// consumer's results by the fusion's reverses each result's list
/// (`replaceAllUsesWith` moves the uses to the front one by one).
#[derive(Default)]
struct Graph {
    uses: FxHashMap<Value, UseList>,
}

/// Lists longer than this become [`UseList::Long`].
const SHORT_USES: usize = 64;

/// One value's readers, front first.
enum UseList {
    /// The raw list: an op once per operand that reads the value.
    Short(Vec<Op>),
    /// Each reader once, at its first place, with constant-time removal,
    /// insertion at the front and reversal: a scalar that a thousand
    /// optimizer updates read loses one reader and gains another at every
    /// fusion of one of them, which cost a walk and a shift of the whole
    /// list (a quarter of the planner's time on a 128-layer training step).
    Long(Indexed),
}

/// A list of distinct ops with removal by op, in a deque of slots (empty
/// where an op was removed) whose logical positions stay put.
struct Indexed {
    slots: std::collections::VecDeque<Option<Op>>,
    /// The logical position of `slots[0]`.
    head: i64,
    /// Each op's logical position.
    at: FxHashMap<Op, i64>,
    /// The list's front is the back of `slots`.
    reversed: bool,
}

impl Indexed {
    fn new(ops: &[Op]) -> Self {
        let mut at = FxHashMap::default();
        let mut slots = std::collections::VecDeque::with_capacity(ops.len());
        for &op in ops {
            if let std::collections::hash_map::Entry::Vacant(e) = at.entry(op) {
                e.insert(slots.len() as i64);
                slots.push_back(Some(op));
            }
        }
        Self { slots, head: 0, at, reversed: false }
    }

    fn push_front(&mut self, op: Op) {
        self.remove(op);
        if self.reversed {
            self.at.insert(op, self.head + self.slots.len() as i64);
            self.slots.push_back(Some(op));
        } else {
            self.head -= 1;
            self.at.insert(op, self.head);
            self.slots.push_front(Some(op));
        }
    }

    fn remove(&mut self, op: Op) {
        if let Some(i) = self.at.remove(&op) {
            self.slots[(i - self.head) as usize] = None;
            if self.slots.len() > SHORT_USES && self.at.len() * 2 < self.slots.len() {
                // Mostly empty slots: pack the list again.
                let mut live: Vec<Op> = self.iter().collect();
                let reversed = self.reversed;
                if reversed {
                    live.reverse();
                }
                *self = Self::new(&live);
                self.reversed = reversed;
            }
        }
    }

    fn iter(&self) -> impl Iterator<Item = Op> + '_ {
        // One of the two directions, without boxing (this is walked at
        // every assessment of a producer).
        let (forward, backward) =
            if self.reversed { (None, Some(self.slots.iter().rev())) } else { (Some(self.slots.iter()), None) };
        forward.into_iter().flatten().chain(backward.into_iter().flatten()).flatten().copied()
    }
}

impl UseList {
    fn iter(&self) -> impl Iterator<Item = Op> + '_ {
        let (short, long) = match self {
            UseList::Short(ops) => (Some(ops.iter().copied()), None),
            UseList::Long(list) => (None, Some(list.iter())),
        };
        short.into_iter().flatten().chain(long.into_iter().flatten())
    }
}

impl Graph {
    fn list(&mut self, v: Value) -> &mut UseList {
        self.uses.entry(v).or_insert_with(|| {
            let ops: Vec<Op> = v.use_owners().collect();
            if ops.len() > SHORT_USES {
                UseList::Long(Indexed::new(&ops))
            } else {
                UseList::Short(ops)
            }
        })
    }

    /// The distinct readers of the single-result `op`, borrowed where the
    /// list is long.
    fn single_users(&mut self, op: Op) -> Users<'_> {
        match self.list(op.result(0)) {
            UseList::Long(list) => Users::Many(list),
            short => Users::Few(distinct(short.iter())),
        }
    }

    /// The distinct readers of `op`'s results (`Op::users`).
    fn users(&mut self, op: Op) -> Vec<Op> {
        for r in 0..op.num_results() {
            self.list(op.result(r));
        }
        let uses = &self.uses;
        if op.num_results() == 1 {
            if let UseList::Long(list) = &uses[&op.result(0)] {
                return list.iter().collect();
            }
        }
        distinct((0..op.num_results()).flat_map(|r| uses[&op.result(r)].iter()))
    }

    /// `c` no longer reads `v`.
    fn remove(&mut self, v: Value, c: Op) {
        match self.list(v) {
            UseList::Short(ops) => ops.retain(|u| *u != c),
            UseList::Long(list) => list.remove(c),
        }
    }

    /// `c` reads `v`, as a new op's operand.
    fn push_front(&mut self, v: Value, c: Op) {
        let list = self.list(v);
        if let UseList::Short(ops) = list {
            if ops.len() < SHORT_USES {
                ops.insert(0, c);
                return;
            }
            let ops = std::mem::take(ops);
            *list = UseList::Long(Indexed::new(&ops));
        }
        if let UseList::Long(long) = list {
            long.push_front(c);
        }
    }

    /// `c` reads `new` instead of `old` (a fusion replaced it).
    fn replace_node(&mut self, c: Op, old: &[Value], new: &[Value]) {
        for v in old {
            self.remove(*v, c);
        }
        for v in new {
            self.push_front(*v, c);
        }
        for r in 0..c.num_results() {
            match self.list(c.result(r)) {
                UseList::Short(ops) => ops.reverse(),
                UseList::Long(list) => list.reversed = !list.reversed,
            }
        }
    }

    /// `p`, which read `params`, is gone.
    fn remove_node(&mut self, p: Op, params: &[Value]) {
        for v in params {
            self.remove(*v, p);
        }
    }
}

/// [`Graph::single_users`].
enum Users<'a> {
    Few(Vec<Op>),
    Many(&'a Indexed),
}

impl Users<'_> {
    fn len(&self) -> usize {
        match self {
            Users::Few(ops) => ops.len(),
            Users::Many(list) => list.at.len(),
        }
    }

    fn iter(&self) -> impl Iterator<Item = Op> + '_ {
        let (few, many) = match self {
            Users::Few(ops) => (Some(ops.iter().copied()), None),
            Users::Many(list) => (None, Some(list.iter())),
        };
        few.into_iter().flatten().chain(many.into_iter().flatten())
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
fn priority(cache: &mut Cache, graph: &mut Graph, funcs: &Functions, p: Op) -> Option<f64> {
    assess(cache, graph, funcs, p, false).map(|(benefit, _)| benefit)
}

/// [`priority`]'s fusion: the producer and each consumer with its fused
/// view.
fn plan(cache: &mut Cache, graph: &mut Graph, funcs: &Functions, p: Op) -> Option<Plan> {
    assess(cache, graph, funcs, p, true).and_then(|(_, plan)| plan)
}

/// The benefit, and the plan when `want_plan`.
fn assess(
    cache: &mut Cache,
    graph: &mut Graph,
    funcs: &Functions,
    p: Op,
    want_plan: bool,
) -> Option<(f64, Option<Plan>)> {
    if p.num_results() != 1 || cache.is_plain(p, "constant") || cache.is_plain(p, "scatter") {
        return None;
    }
    let users = graph.single_users(p);
    if users.len() == 0 {
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
    let mut known = match memo {
        Some(Memo { mut consumers, stale, .. }) => {
            for c in &stale {
                consumers.remove(c);
            }
            consumers
        }
        None => FxHashMap::default(),
    };
    let keep = users.len() >= cache.memo_users;
    let memoized = !known.is_empty();
    let block = p.block().ptr;
    // The kernel times in use-list order, for the sums.
    let mut times: Vec<f64> = Vec::with_capacity(users.len());
    let mut fused_times: Vec<f64> = Vec::with_capacity(users.len());
    let mut planned: Vec<Consumer> = Vec::new();
    for c in users.iter() {
        let entry = match known.get(&c) {
            Some(entry) => entry,
            None => {
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
                let entry = Consumer { op: c, time: consumer.time, fused_time: fused.time, node: consumer, fused };
                known.entry(c).or_insert(entry)
            }
        };
        times.push(entry.time);
        fused_times.push(entry.fused_time);
        if want_plan {
            planned.push(entry.clone());
        }
    }
    if cfg!(debug_assertions) && memoized {
        let users: Vec<Op> = users.iter().collect();
        check_memoized(cache, funcs, &users, p, &producer, &known);
    }
    let benefit = benefit_of_times(producer.time, times.into_iter(), fused_times.into_iter());
    let plan = (want_plan && benefit >= 0.0).then(|| Plan { producer: producer.clone(), consumers: planned });
    if keep {
        cache.memos.insert(p, Memo { producer, consumers: known, stale: FxHashSet::default() });
    }
    (benefit >= 0.0).then_some((benefit, plan))
}

/// Debug builds: the consumers an assessment took partly from a memo are
/// those found afresh (the same nodes and verdicts).
fn check_memoized(
    cache: &mut Cache,
    funcs: &Functions,
    users: &[Op],
    p: Op,
    producer: &Node,
    consumers: &FxHashMap<Op, Consumer>,
) {
    for &c in users {
        let memo = &consumers[&c];
        let node = cache.node(c, funcs);
        let fused = cache.verdict(producer, p, &node, c);
        assert!(Rc::ptr_eq(&node, &memo.node), "a memoized consumer's node is current");
        assert!(fused.is_some_and(|f| Rc::ptr_eq(&f, &memo.fused)), "a memoized verdict is current");
    }
}

fn run_on(pass: &PriorityFusion, funcs: &mut Functions, func: Op) -> Result<(), PassError> {
    let Some(terminator) = func.terminator() else {
        return Ok(());
    };
    let ops: Vec<Op> = func.body_ops().into_iter().filter(|op| *op != terminator).collect();
    let mut cache = Cache::new(pass.device, pass.memo_users);
    let mut graph = Graph::default();
    // Producers fused into all their users.
    let mut dead: FxHashSet<Op> = FxHashSet::default();
    let mut queue = Queue::default();
    for &op in &ops {
        queue.register(op);
    }
    for &op in &ops {
        let priority = priority(&mut cache, &mut graph, funcs, op);
        queue.set(op, priority);
    }
    while let Some(p) = queue.pop() {
        // The neighbourhood may have changed since the priority was set.
        let Some(chosen) = plan(&mut cache, &mut graph, funcs, p) else {
            continue;
        };
        let producer = chosen.producer.view.as_ref().ok_or_else(|| bug("producer view"))?;
        let mut created = Vec::with_capacity(chosen.consumers.len());
        for Consumer { op: c, node, fused, .. } in chosen.consumers {
            // Planning a fusion changes only its consumer's node, so the
            // other consumers' nodes are the ones assessed.
            debug_assert!(Rc::ptr_eq(&cache.node(c, funcs), &node), "a consumer changed while planned");
            let old = &node.view.as_ref().ok_or_else(|| bug("consumer view"))?.params;
            cache.plan_fusion(&mut graph, c, old, fused.view.clone());
            // A new fusion: a new id in the queue (XLA's unique ids).
            queue.forget(c);
            queue.register(c);
            created.push(c);
        }
        queue.forget(p);
        graph.remove_node(p, &producer.params);
        if !graph.users(p).is_empty() {
            return Err(bug("a fused producer still has users"));
        }
        cache.forget(p);
        dead.insert(p);
        // New fusions are producers now; their operands' producers have
        // new consumers.
        let mut touched: Vec<Op> = created.clone();
        let mut seen: FxHashSet<Op> = created.iter().copied().collect();
        for f in &created {
            let node = cache.node(*f, funcs);
            for v in node.view.iter().flat_map(|v| v.params.iter()) {
                if let Some(d) = v.op() {
                    if queue.contains(d) && seen.insert(d) {
                        touched.push(d);
                    }
                }
            }
        }
        for op in touched {
            let priority = priority(&mut cache, &mut graph, funcs, op);
            queue.set(op, priority);
        }
    }
    if pass.fuse_constants {
        fuse_constants(&mut cache, &mut graph, funcs, &ops, &mut dead)?;
    }
    build(funcs, &cache, func, &ops, &dead)
}

/// Plans the fusion of every scalar constant into each fusible user (XLA
/// fuses small constants last: they cost nothing inside a kernel and would
/// otherwise be kernel parameters).
fn fuse_constants(
    cache: &mut Cache,
    graph: &mut Graph,
    funcs: &Functions,
    ops: &[Op],
    dead: &mut FxHashSet<Op>,
) -> Result<(), PassError> {
    for &constant in ops.iter().filter(|op| is_small_constant(**op)) {
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
        for c in graph.users(constant) {
            let consumer = cache.node(c, funcs);
            if !consumer.fusible || cache.is_plain(c, "bitcast") {
                continue;
            }
            let Some(view) = consumer.view.as_ref() else {
                continue;
            };
            if scatter_ok(producer, &results, view).is_err() {
                continue;
            }
            let fused = View::fuse(producer, &results, view, &[]);
            if fits_in_budget(&fused, Some(view.params.len())).is_err() || fused.output_layout().is_none() {
                continue;
            }
            cache.plan_fusion(graph, c, &view.params, fused);
        }
        if graph.users(constant).is_empty() {
            cache.forget(constant);
            dead.insert(constant);
        }
    }
    Ok(())
}

/// Builds the planned fusions of `func` (whose ops were `ops`), in program
/// order, and erases the ops they replace and the producers fused into
/// them. An op of the computation that only one fusion holds moves into
/// that fusion's computation; one duplicated into several is copied.
fn build(funcs: &mut Functions, cache: &Cache, func: Op, ops: &[Op], dead: &FxHashSet<Op>) -> Result<(), PassError> {
    let mut fusions: Vec<(Op, &View)> = Vec::new();
    for &op in ops.iter().filter(|op| cache.planned.contains(op) && !dead.contains(op)) {
        let view = cache.nodes.get(&op).and_then(|n| n.view.as_ref()).ok_or_else(|| bug("planned view"))?;
        fusions.push((op, view));
    }
    let mut holders: FxHashMap<Op, u32> = FxHashMap::default();
    for node in fusions.iter().flat_map(|(_, view)| view.nodes.iter()) {
        *holders.entry(node.op).or_default() += 1;
    }
    // An op still read outside the fusions (a constant that some users
    // could not take) stays.
    let gone = |op: Op| dead.contains(&op) || cache.planned.contains(&op);
    let movable = |op: Op| holders.get(&op) == Some(&1) && gone(op) && op.parent() == Some(func);
    let mut replaced: FxHashMap<Value, Value> = FxHashMap::default();
    for &(op, view) in &fusions {
        build_planned(funcs, view, op, &mut replaced, &movable)?;
    }
    for &op in ops.iter().rev() {
        if gone(op) && op.parent() == Some(func) {
            if op.has_uses() {
                return Err(bug("a fused op still has users"));
            }
            funcs.erase_node(op);
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
