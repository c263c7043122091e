//! Views: a node's dataflow graph detached from the IR ([`View`]), what
//! the rules and the cost model ask of each of its ops ([`Facts`]), and
//! the functions of the module by name ([`Functions`]).

use super::{
    callee_name, cost, is_elementwise, is_expensive, is_expensive_to_repeat, is_fusible_op,
    reads_elements_multiple_times, SMALL_EXPENSIVE_ELEMENTS,
};
use mlir_sys::*;
use rxla_ir::{
    computation,
    hlo_analysis::{
        array_type, elements, layout_attr, opcode_str, reduction_dimensions, tiled_transpose, value_bytes, value_type,
        FusionKind, FxHashMap, ReductionDims,
    },
    op::{Op, Value},
    pass::PassError,
    types::HloType,
};
use std::collections::{HashMap, HashSet};

/// Where an input of a view's op comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Src {
    /// The view's parameter `i` (an outer SSA value).
    Param(usize),
    /// Result `r` of the view's op `k`.
    Node(usize, usize),
}

/// What the fusion rules and the cost model ask about one op. Computed once
/// when the op enters a view from the IR, and carried along as views are
/// merged and materialized (a clone has its original's facts), so the
/// passes' inner loops read fields instead of opcodes, types and
/// attributes.
#[derive(Clone, Copy, Debug)]
pub struct Facts {
    flags: u32,
    /// [`reduction_dimensions`] of a reduce.
    pub reduction: Option<ReductionDims>,
    /// [`cost::op_flops`].
    pub flops: f64,
    /// [`cost::first_operand_read_ratio`].
    pub read_ratio: f64,
    /// Shared memory the op's tiles need in a reduction or transpose
    /// kernel, bytes.
    pub shared_memory: u64,
}

const ELEMENTWISE: u32 = 1 << 0;
const UNARY_ELEMENTWISE: u32 = 1 << 1;
const REDUCE_INTERMEDIATE: u32 = 1 << 2;
const EXPENSIVE: u32 = 1 << 3;
const DUPLICABLE: u32 = 1 << 4;
const SCATTER: u32 = 1 << 5;
const DYNAMIC_UPDATE_SLICE: u32 = 1 << 6;
const TRANSPOSE: u32 = 1 << 7;
const TILED_TRANSPOSE: u32 = 1 << 8;
const UNNESTED_REDUCTION: u32 = 1 << 9;
const EXPENSIVE_TO_REPEAT: u32 = 1 << 10;
const READS_MULTIPLE_TIMES: u32 = 1 << 11;
const SIGNIFICANT_REDUCE: u32 = 1 << 12;
const SMALL_CONCATENATE: u32 = 1 << 13;
/// Facts that depend on how the op's operands are defined, not only on the
/// op and its types: an integer division by a constant is cheap
/// ([`is_expensive`]), and a clone in a fused computation may read the
/// constant through a parameter.
const READS_DEFINITIONS: u32 = 1 << 14;
const REDUCE: u32 = 1 << 15;

impl Facts {
    /// The facts of a live op.
    pub fn of(op: Op) -> Facts {
        let mut flags = 0;
        let mut set = |flag: u32, on: bool| {
            if on {
                flags |= flag;
            }
        };
        let code = opcode_str(&op).unwrap_or("");
        let elementwise = is_elementwise(op);
        set(ELEMENTWISE, elementwise);
        set(UNARY_ELEMENTWISE, elementwise && op.num_operands() == 1);
        set(REDUCE_INTERMEDIATE, is_reduce_intermediate(op));
        let expensive = is_expensive(op);
        set(EXPENSIVE, expensive);
        set(
            DUPLICABLE,
            !expensive || (0..op.num_results()).all(|r| elements(op.result(r)) <= SMALL_EXPENSIVE_ELEMENTS),
        );
        set(SCATTER, code == "scatter");
        set(DYNAMIC_UPDATE_SLICE, code == "dynamic_update_slice");
        set(TRANSPOSE, code == "transpose");
        let tiled = tiled_transpose(op).is_some();
        set(TILED_TRANSPOSE, tiled);
        let reduction = reduction_dimensions(op);
        let unnested = reduction.is_some_and(|d| d.unnested_is_faster());
        set(UNNESTED_REDUCTION, unnested);
        set(EXPENSIVE_TO_REPEAT, is_expensive_to_repeat(op));
        set(READS_MULTIPLE_TIMES, reads_elements_multiple_times(op));
        set(REDUCE, code == "reduce" && elements(op.operand(0)) > elements(op.result(0)));
        set(
            SIGNIFICANT_REDUCE,
            code == "reduce" && {
                let out = elements(op.result(0)).max(1);
                elements(op.operand(0)) / out >= 16
            },
        );
        set(SMALL_CONCATENATE, code == "concatenate" && op.num_operands() <= 64);
        set(READS_DEFINITIONS, code == "divide" || code == "remainder");
        let shared_memory = if let Some(d) = reduction.filter(|d| d.unnested_is_faster()) {
            let bytes = array_type(op.operand(0)).map(|t| t.elem.byte_size()).unwrap_or(4);
            let variadic = op.num_results() as u64;
            if d.row {
                32 * bytes * variadic
            } else {
                2 * 32 * 33 * bytes * variadic
            }
        } else if tiled {
            32 * 33 * array_type(op.result(0)).map(|t| t.elem.byte_size()).unwrap_or(4)
        } else {
            0
        };
        Facts {
            flags,
            reduction,
            flops: cost::op_flops(op),
            read_ratio: cost::first_operand_read_ratio(op),
            shared_memory,
        }
    }

    fn has(&self, flag: u32) -> bool {
        self.flags & flag != 0
    }

    /// [`is_elementwise`].
    pub fn is_elementwise(&self) -> bool {
        self.has(ELEMENTWISE)
    }
    /// [`is_elementwise`] with one operand.
    pub fn is_unary_elementwise(&self) -> bool {
        self.has(UNARY_ELEMENTWISE)
    }
    /// [`is_reduce_intermediate`].
    pub fn is_reduce_intermediate(&self) -> bool {
        self.has(REDUCE_INTERMEDIATE)
    }
    /// [`is_expensive`].
    pub fn is_expensive(&self) -> bool {
        self.has(EXPENSIVE)
    }
    /// Cheap, or expensive on at most [`SMALL_EXPENSIVE_ELEMENTS`] elements
    /// (see [`duplicable`](super::duplicable)).
    pub fn is_duplicable(&self) -> bool {
        self.has(DUPLICABLE)
    }
    pub fn is_scatter(&self) -> bool {
        self.has(SCATTER)
    }
    pub fn is_dynamic_update_slice(&self) -> bool {
        self.has(DYNAMIC_UPDATE_SLICE)
    }
    pub fn is_transpose(&self) -> bool {
        self.has(TRANSPOSE)
    }
    /// [`tiled_transpose`] is `Some`.
    pub fn is_tiled_transpose(&self) -> bool {
        self.has(TILED_TRANSPOSE)
    }
    /// A row/column reduction the tiled emitter beats a loop at.
    pub fn is_unnested_reduction(&self) -> bool {
        self.has(UNNESTED_REDUCTION)
    }
    /// [`is_expensive_to_repeat`].
    pub fn is_expensive_to_repeat(&self) -> bool {
        self.has(EXPENSIVE_TO_REPEAT)
    }
    /// [`reads_elements_multiple_times`].
    pub fn reads_elements_multiple_times(&self) -> bool {
        self.has(READS_MULTIPLE_TIMES)
    }
    /// A reduce reading more than one input per output.
    pub fn is_reduce(&self) -> bool {
        self.has(REDUCE)
    }
    /// A reduce reading at least 16 inputs per output.
    pub fn is_significant_reduce(&self) -> bool {
        self.has(SIGNIFICANT_REDUCE)
    }
    /// A concatenate of at most 64 operands (a concatenate fusion's hero).
    pub fn is_small_concatenate(&self) -> bool {
        self.has(SMALL_CONCATENATE)
    }
}

/// One op of a view: the (live) op to clone, where its operands come from,
/// and its [`Facts`].
#[derive(Clone, Debug)]
pub struct VNode {
    pub op: Op,
    pub inputs: Inputs,
    pub facts: Facts,
}

/// Where a node's operands come from: a slice, stored inline for the
/// common few operands (views are copied at every fusion step, and an
/// allocation per node would dominate the copy).
#[derive(Clone)]
pub enum Inputs {
    Inline(u8, [Src; 3]),
    Heap(Vec<Src>),
}

impl std::ops::Deref for Inputs {
    type Target = [Src];
    fn deref(&self) -> &[Src] {
        match self {
            Inputs::Inline(n, items) => &items[..*n as usize],
            Inputs::Heap(items) => items,
        }
    }
}

impl std::ops::DerefMut for Inputs {
    fn deref_mut(&mut self) -> &mut [Src] {
        match self {
            Inputs::Inline(n, items) => &mut items[..*n as usize],
            Inputs::Heap(items) => items,
        }
    }
}

impl FromIterator<Src> for Inputs {
    fn from_iter<I: IntoIterator<Item = Src>>(iter: I) -> Self {
        let mut items = [Src::Param(0); 3];
        let mut n = 0;
        let mut iter = iter.into_iter();
        for item in iter.by_ref() {
            if n == items.len() {
                let mut heap = items.to_vec();
                heap.push(item);
                heap.extend(iter);
                return Inputs::Heap(heap);
            }
            items[n] = item;
            n += 1;
        }
        Inputs::Inline(n as u8, items)
    }
}

impl std::fmt::Debug for Inputs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A fusion-to-be, detached from the IR (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct View {
    /// Outer values read, each once.
    pub params: Vec<Value>,
    /// Ops in topological order.
    pub nodes: Vec<VNode>,
    /// The outputs, in result order.
    pub roots: Vec<Src>,
}

/// Looks up functions by name, remembering them.
pub struct Functions {
    pub(super) module: Op,
    pub(super) by_name: HashMap<String, Op>,
    /// Fused computations this pass run created (each used by one fusion).
    pub(super) created: HashSet<String>,
    /// Next suffix tried for a fresh fused computation name.
    next_id: usize,
    /// `#hlo<fusion_kind ...>` attributes, parsed once.
    kinds: Vec<(FusionKind, MlirAttribute)>,
    /// How many symbol references name each function, counted over the
    /// module when first needed, then kept up to date by
    /// [`Functions::erase_node`] (the only way fusion passes remove ops;
    /// the fusions they create call only computations they create).
    references: Option<HashMap<String, usize>>,
}

impl Functions {
    pub fn new(module: Op) -> Self {
        let by_name = computation::functions(module).into_iter().map(|f| (computation::name(f), f)).collect();
        Self { module, by_name, created: HashSet::new(), next_id: 0, kinds: Vec::new(), references: None }
    }

    /// The `kind` attribute of a fusion of `kind`.
    pub(super) fn kind_attr(&mut self, context: MlirContext, kind: FusionKind) -> Result<MlirAttribute, PassError> {
        if let Some((_, attr)) = self.kinds.iter().find(|(k, _)| *k == kind) {
            return Ok(*attr);
        }
        let attr = rxla_ir::attrs::enum_attr(context, "fusion_kind", kind.text())
            .ok_or_else(|| PassError(format!("internal error: no fusion kind {}", kind.text())))?;
        self.kinds.push((kind, attr));
        Ok(attr)
    }

    /// A function name not used in the module: `hint`, else `hint.N`.
    /// (Names of erased functions are not reused, so this stays O(1)
    /// amortized however many fusions a run creates.)
    pub fn fresh_name(&mut self, hint: &str) -> String {
        if !self.by_name.contains_key(hint) && self.next_id == 0 {
            self.next_id = 1;
            return hint.to_string();
        }
        loop {
            let name = format!("{hint}.{}", self.next_id);
            self.next_id += 1;
            if !self.by_name.contains_key(&name) {
                return name;
            }
        }
    }

    pub fn get(&self, name: &str) -> Option<Op> {
        self.by_name.get(name).copied()
    }

    /// The fused computation of a fusion op.
    pub fn callee(&self, fusion: Op) -> Option<Op> {
        self.get(&callee_name(fusion)?)
    }

    /// Erases a node: the op, and its fused computation when nothing else
    /// calls it. Its results must be unused.
    pub fn erase_node(&mut self, op: Op) {
        let callee = if op.is("fusion") { callee_name(op) } else { None };
        op.erase();
        let Some(name) = callee else { return };
        let unused = self.created.contains(&name) || self.drop_reference(&name) == 0;
        if unused {
            if let Some(func) = self.by_name.remove(&name) {
                func.erase();
            }
            self.created.remove(&name);
        }
    }

    /// Forgets one reference to `name` (of a fusion just erased); returns
    /// how many are left.
    fn drop_reference(&mut self, name: &str) -> usize {
        match &mut self.references {
            Some(references) => {
                let count = references.entry(name.to_string()).or_insert(0);
                *count = count.saturating_sub(1);
                *count
            }
            None => {
                // Counted after the fusion is gone: nothing to drop.
                let mut references = HashMap::new();
                for f in computation::functions(self.module) {
                    for op in f.walk_preorder().into_iter().skip(1) {
                        for n in op.symbol_uses() {
                            *references.entry(n).or_insert(0) += 1;
                        }
                    }
                }
                let count = references.get(name).copied().unwrap_or(0);
                self.references = Some(references);
                count
            }
        }
    }
}

impl View {
    /// The view of a node: a fusion's fused computation, or the op alone.
    pub fn of(op: Op, funcs: &Functions) -> Option<View> {
        if op.is("fusion") {
            let callee = funcs.callee(op)?;
            return Self::of_fusion(op, callee);
        }
        let n = op.num_operands();
        let mut params: Vec<Value> = Vec::with_capacity(n);
        let inputs = (0..n)
            .map(|i| {
                let v = op.operand(i);
                let index = params.iter().position(|p| *p == v).unwrap_or_else(|| {
                    params.push(v);
                    params.len() - 1
                });
                Src::Param(index)
            })
            .collect();
        let roots = (0..op.num_results()).map(|r| Src::Node(0, r)).collect();
        Some(View { params, nodes: vec![VNode { op, inputs, facts: Facts::of(op) }], roots })
    }

    fn of_fusion(op: Op, callee: Op) -> Option<View> {
        let args = callee.arguments();
        if args.len() != op.num_operands() {
            return None;
        }
        let params = op.operands();
        let mut index: FxHashMap<Op, usize> = FxHashMap::default();
        let mut nodes = Vec::new();
        // Where `v` comes from: an earlier op of the body, or a parameter.
        let src = |v: Value, index: &FxHashMap<Op, usize>| -> Option<Src> {
            match v.op() {
                Some(def) => Some(Src::Node(*index.get(&def)?, v.result_number()?)),
                None => v.arg_number().filter(|&i| i < args.len() && args[i] == v).map(Src::Param),
            }
        };
        let terminator = callee.terminator()?;
        for inner in callee.body_ops() {
            if inner == terminator {
                continue;
            }
            if !is_fusible_op(inner) {
                return None;
            }
            let inputs =
                (0..inner.num_operands()).map(|i| src(inner.operand(i), &index)).collect::<Option<Inputs>>()?;
            index.insert(inner, nodes.len());
            nodes.push(VNode { op: inner, inputs, facts: Facts::of(inner) });
        }
        let roots =
            (0..terminator.num_operands()).map(|i| src(terminator.operand(i), &index)).collect::<Option<Vec<_>>>()?;
        Some(View { params, nodes, roots })
    }

    /// The same view over other ops: `ops[k]` in place of node `k`'s op
    /// (the clones [`materialize`](super::materialize) made, which have the same facts except
    /// those that depend on operands' definitions).
    pub fn with_ops(&self, ops: &[Op]) -> View {
        View {
            params: self.params.clone(),
            nodes: self
                .nodes
                .iter()
                .zip(ops)
                .map(|(n, op)| VNode {
                    op: *op,
                    inputs: n.inputs.clone(),
                    facts: if n.facts.has(READS_DEFINITIONS) { Facts::of(*op) } else { n.facts },
                })
                .collect(),
            roots: self.roots.clone(),
        }
    }

    /// The type of what `src` names.
    pub fn src_type(&self, src: Src) -> HloType {
        value_type(self.src_value(src))
    }

    /// The value `src` names (a parameter, or a result of a node's op).
    pub fn src_value(&self, src: Src) -> Value {
        match src {
            Src::Param(i) => self.params[i],
            Src::Node(k, r) => self.nodes[k].op.result(r),
        }
    }

    /// Bytes of what `src` names.
    pub fn src_bytes(&self, src: Src) -> u64 {
        value_bytes(self.src_value(src))
    }

    /// Uses of each op's results inside the view (operands and roots).
    pub fn use_counts(&self) -> Vec<usize> {
        let mut counts = vec![0; self.nodes.len()];
        for src in self.nodes.iter().flat_map(|n| n.inputs.iter()).chain(self.roots.iter()) {
            if let Src::Node(k, _) = src {
                counts[*k] += 1;
            }
        }
        counts
    }

    /// The view with `producer` (a node whose results are `producer_results`)
    /// fused into `consumer` (this view's consumer): the consumer's reads of
    /// the producer's results read the producer's ops instead. The outputs
    /// are the consumer's, then the producer's results `extra` (for a
    /// multi-output fusion).
    pub fn fuse(producer: &View, producer_results: &[Value], consumer: &View, extra: &[usize]) -> View {
        let mut params: Vec<Value> = Vec::with_capacity(consumer.params.len() + producer.params.len());
        let param_index = |v: Value, params: &mut Vec<Value>| -> usize {
            params.iter().position(|p| *p == v).unwrap_or_else(|| {
                params.push(v);
                params.len() - 1
            })
        };
        // The consumer's operands in order, each read of the producer
        // replaced by the producer's operands.
        for v in &consumer.params {
            if producer_results.contains(v) {
                for p in &producer.params {
                    param_index(*p, &mut params);
                }
            } else {
                param_index(*v, &mut params);
            }
        }
        let p_params: Vec<usize> = producer.params.iter().map(|v| param_index(*v, &mut params)).collect();
        let map_p = |s: Src| match s {
            Src::Param(i) => Src::Param(p_params[i]),
            node => node,
        };
        let mut nodes: Vec<VNode> = Vec::with_capacity(producer.nodes.len() + consumer.nodes.len());
        nodes.extend(producer.nodes.iter().map(|n| VNode {
            op: n.op,
            inputs: n.inputs.iter().map(|s| map_p(*s)).collect(),
            facts: n.facts,
        }));
        let offset = nodes.len();
        let c_params: Vec<Src> = consumer
            .params
            .iter()
            .map(|v| match producer_results.iter().position(|p| p == v) {
                Some(j) => map_p(producer.roots[j]),
                None => Src::Param(param_index(*v, &mut params)),
            })
            .collect();
        let map_c = |s: Src| match s {
            Src::Param(i) => c_params[i],
            Src::Node(k, r) => Src::Node(k + offset, r),
        };
        nodes.extend(consumer.nodes.iter().map(|n| VNode {
            op: n.op,
            inputs: n.inputs.iter().map(|s| map_c(*s)).collect(),
            facts: n.facts,
        }));
        let mut roots: Vec<Src> = consumer.roots.iter().map(|s| map_c(*s)).collect();
        roots.extend(extra.iter().map(|&j| map_p(producer.roots[j])));
        let mut view = View { params, nodes, roots };
        view.prune();
        view
    }

    /// Two views side by side (sibling multi-output fusion): the outputs of
    /// `a`, then those of `b`.
    pub fn siblings(a: &View, b: &View) -> View {
        let mut params = a.params.clone();
        let b_params: Vec<usize> = b
            .params
            .iter()
            .map(|v| {
                params.iter().position(|p| p == v).unwrap_or_else(|| {
                    params.push(*v);
                    params.len() - 1
                })
            })
            .collect();
        let offset = a.nodes.len();
        let map_b = |s: Src| match s {
            Src::Param(i) => Src::Param(b_params[i]),
            Src::Node(k, r) => Src::Node(k + offset, r),
        };
        let mut nodes = Vec::with_capacity(a.nodes.len() + b.nodes.len());
        nodes.extend(a.nodes.iter().cloned());
        nodes.extend(b.nodes.iter().map(|n| VNode {
            op: n.op,
            inputs: n.inputs.iter().map(|s| map_b(*s)).collect(),
            facts: n.facts,
        }));
        let mut roots = a.roots.clone();
        roots.extend(b.roots.iter().map(|s| map_b(*s)));
        View { params, nodes, roots }
    }

    /// Drops ops no output depends on, and parameters nothing reads
    /// (keeping the order of what stays).
    fn prune(&mut self) {
        let mut live = vec![false; self.nodes.len()];
        let mut work: Vec<usize> =
            self.roots.iter().filter_map(|s| if let Src::Node(k, _) = s { Some(*k) } else { None }).collect();
        while let Some(k) = work.pop() {
            if std::mem::replace(&mut live[k], true) {
                continue;
            }
            for s in self.nodes[k].inputs.iter() {
                if let Src::Node(j, _) = s {
                    if !live[*j] {
                        work.push(*j);
                    }
                }
            }
        }
        if live.iter().any(|l| !l) {
            let mut new_index = vec![usize::MAX; self.nodes.len()];
            let mut next = 0;
            for (k, l) in live.iter().enumerate() {
                if *l {
                    new_index[k] = next;
                    next += 1;
                }
            }
            let mut k = 0;
            self.nodes.retain(|_| {
                k += 1;
                live[k - 1]
            });
            let remap = |s: &mut Src| {
                if let Src::Node(k, _) = s {
                    *k = new_index[*k];
                }
            };
            for n in &mut self.nodes {
                n.inputs.iter_mut().for_each(remap);
            }
            self.roots.iter_mut().for_each(remap);
        }
        // Parameters nothing reads any more.
        let mut used = vec![false; self.params.len()];
        for s in self.nodes.iter().flat_map(|n| n.inputs.iter()).chain(self.roots.iter()) {
            if let Src::Param(i) = s {
                used[*i] = true;
            }
        }
        if used.iter().all(|u| *u) {
            return;
        }
        let mut new_param = vec![usize::MAX; self.params.len()];
        let mut next = 0;
        for (i, u) in used.iter().enumerate() {
            if *u {
                new_param[i] = next;
                next += 1;
            }
        }
        let mut i = 0;
        self.params.retain(|_| {
            i += 1;
            used[i - 1]
        });
        let remap = |s: &mut Src| {
            if let Src::Param(i) = s {
                *i = new_param[*i];
            }
        };
        for n in &mut self.nodes {
            n.inputs.iter_mut().for_each(remap);
        }
        self.roots.iter_mut().for_each(remap);
    }

    /// True if any op of the view satisfies `f`.
    pub fn any(&self, f: impl Fn(Op) -> bool) -> bool {
        self.nodes.iter().any(|n| f(n.op))
    }

    /// True if the facts of any op satisfy `f`.
    pub fn any_facts(&self, f: impl Fn(&Facts) -> bool) -> bool {
        self.nodes.iter().any(|n| f(&n.facts))
    }

    /// Number of ops.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The first root's hero for multi-output compatibility (XLA's
    /// `GetRealHeroForMultiOutputFusion`): a reduction or tiled-transpose
    /// hero behind any root, else the first root.
    pub fn mof_hero(&self) -> Src {
        let counts = self.use_counts();
        for root in &self.roots {
            if let Some(k) = self.reduction_hero_of(*root, &counts) {
                return Src::Node(k, 0);
            }
            if let Some(k) = self.transpose_hero_of(*root, &counts) {
                return Src::Node(k, 0);
            }
        }
        self.roots[0]
    }

    /// The first real reduction hero behind the outputs, if any.
    pub fn reduction_hero(&self) -> Option<usize> {
        if !self.any_facts(|f| f.is_unnested_reduction()) {
            return None;
        }
        let counts = self.use_counts();
        self.roots.iter().find_map(|r| self.reduction_hero_of(*r, &counts))
    }

    /// The first tiled-transpose hero behind the outputs, if any.
    pub fn transpose_hero(&self) -> Option<usize> {
        if !self.any_facts(|f| f.is_tiled_transpose()) {
            return None;
        }
        let counts = self.use_counts();
        self.roots.iter().find_map(|r| self.transpose_hero_of(*r, &counts))
    }

    /// The reduction hero behind `root`: a row/column reduction reached
    /// through convert/bitcast-like single-use ops (XLA's
    /// `FindRealReductionHero`).
    pub fn reduction_hero_of(&self, root: Src, counts: &[usize]) -> Option<usize> {
        let Src::Node(mut k, _) = root else {
            return None;
        };
        let start = k;
        loop {
            let node = &self.nodes[k];
            if !node.facts.is_reduce_intermediate() || counts[k] > 1 || node.inputs.len() != 1 {
                break;
            }
            match node.inputs[0] {
                Src::Node(j, _) => k = j,
                Src::Param(_) => return None,
            }
        }
        let dims = self.nodes[k].facts.reduction?;
        if !dims.unnested_is_faster() {
            return None;
        }
        (k == start || (counts[k] == 1 && dims.race_free())).then_some(k)
    }

    /// The tiled-transpose hero behind `root` (through single-use unary
    /// elementwise and bitcast-like ops).
    pub fn transpose_hero_of(&self, root: Src, counts: &[usize]) -> Option<usize> {
        let Src::Node(mut k, _) = root else {
            return None;
        };
        loop {
            let facts = &self.nodes[k].facts;
            if facts.is_transpose() {
                return facts.is_tiled_transpose().then_some(k);
            }
            let intermediate = (facts.is_reduce_intermediate() || facts.is_unary_elementwise())
                && counts[k] <= 1
                && self.nodes[k].inputs.len() == 1;
            if !intermediate {
                return None;
            }
            match self.nodes[k].inputs[0] {
                Src::Node(j, _) => k = j,
                Src::Param(_) => return None,
            }
        }
    }

    /// The fusion kind the emitters would give this view (XLA:GPU's
    /// `ChooseKind` from the fusion analysis): `kInput` for a reduction,
    /// tiled-transpose, concatenate or scatter hero, `kLoop` otherwise.
    pub fn kind(&self) -> FusionKind {
        if self.any_facts(|f| f.is_unnested_reduction() || f.is_tiled_transpose()) {
            let counts = self.use_counts();
            for root in &self.roots {
                if self.reduction_hero_of(*root, &counts).is_some() || self.transpose_hero_of(*root, &counts).is_some()
                {
                    return FusionKind::Input;
                }
            }
        }
        if self.roots.len() == 1 {
            if let Src::Node(k, _) = self.roots[0] {
                let facts = &self.nodes[k].facts;
                if facts.is_scatter() || facts.is_small_concatenate() {
                    return FusionKind::Input;
                }
            }
        }
        FusionKind::Loop
    }

    /// Row/column reductions in the view (each needs its own shared
    /// memory tile and registers).
    pub fn unnested_reductions(&self) -> usize {
        self.nodes.iter().filter(|n| n.facts.is_unnested_reduction()).count()
    }

    /// Shared memory the view's reductions and transposes need, bytes
    /// (XLA:GPU's `SharedMemoryUsage`).
    pub fn shared_memory(&self) -> u64 {
        self.nodes.iter().map(|n| n.facts.shared_memory).sum()
    }

    /// True if some reduce reads at least 16 inputs per output (XLA keeps
    /// such reductions out of each other's fusions).
    pub fn has_significant_reduce(&self) -> bool {
        self.any_facts(|f| f.is_significant_reduce())
    }

    /// The layouts of the outputs, if all default, `Some(None)`; if the
    /// view is one op's results in order, that op's attribute; otherwise
    /// `None` (the passes do not fuse then).
    pub fn output_layout(&self) -> Option<Option<MlirAttribute>> {
        let layouts: Vec<Option<MlirAttribute>> = self.roots.iter().map(|s| layout_attr(self.src_value(*s))).collect();
        if layouts.iter().all(Option::is_none) {
            return Some(None);
        }
        if self.roots.len() == 1 {
            return Some(layouts[0]);
        }
        // All results of one op, in order: its attribute applies as is.
        if let Src::Node(k, 0) = self.roots[0] {
            let op = self.nodes[k].op;
            if op.num_results() == self.roots.len() && self.roots.iter().enumerate().all(|(r, s)| *s == Src::Node(k, r))
            {
                return Some(op.attr_raw("hlo.layout"));
            }
        }
        None
    }

    /// The in-place operands (parameter indices) of the view when it is an
    /// in-place op: the buffer a dynamic-update-slice or scatter root
    /// updates, when it is a parameter.
    pub fn in_place_params(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for root in &self.roots {
            if let Src::Node(k, _) = root {
                let n = &self.nodes[*k];
                if n.facts.is_dynamic_update_slice() || n.facts.is_scatter() {
                    if let Src::Param(i) = n.inputs[0] {
                        out.push(i);
                    }
                }
            }
        }
        out
    }

    /// True if every op is elementwise.
    pub fn is_elementwise(&self) -> bool {
        self.nodes.iter().all(|n| n.facts.is_elementwise())
    }
}

/// XLA's `IsReduceIntermediate`: bitcast, bitcast-convert, convert, or a
/// reshape (a bitcast with default layouts).
pub fn is_reduce_intermediate(op: Op) -> bool {
    (op.is("bitcast") || op.is("bitcast_convert") || op.is("convert") || op.is("reshape")) && op.num_operands() == 1
}
