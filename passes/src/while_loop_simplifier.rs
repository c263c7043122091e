//! `simplify-while-loops`: XLA's WhileLoopSimplifier. For each `hlo.while`
//! of the module, in order, the first of these that applies:
//!
//! 1. Repeated state elements: element `j` that starts as the same value as
//!    an earlier element `i` and evolves the same way (both passed through
//!    unchanged, or both updated by the same dynamic-update-slice of their
//!    own previous value) is dropped and read from `i`.
//! 2. Dead state elements: elements that neither the condition, nor a
//!    side-effecting instruction, nor another element's update, nor the
//!    users of the loop's result depend on are dropped (also groups of
//!    elements that only feed each other).
//! 3. Constant state elements: elements that start as a constant and are set
//!    to the same constant by the body are dropped; the loop reads the
//!    constant. A loop whose whole state is constant is replaced by its init
//!    (unless its condition or body has side effects).
//!
//! and then, unless the loop sends or receives:
//!
//! 4. Constant propagation: a scalar element that starts as a constant and
//!    is passed through unchanged is replaced by that constant inside the
//!    condition and the body.
//! 5. Loops that run 0 times become their init value, loops that run once
//!    become an inlined copy of their body (unless the condition, or for one
//!    trip the body, has side effects; frontend attribute
//!    `skip-simplify-while-loops_trip-count-one="true"` keeps one-trip
//!    loops). The trip count comes from
//!    [`crate::while_loop_trip_count_annotator::trip_count`].
//! 6. Otherwise (and unless the loop holds a `domain`), induction variables
//!    are merged, per integer type (s8, u8, s32, u32, s64, u64): elements
//!    updated as `x += c` become `init + counter * c` on one trip counter
//!    (an element counting from 0 by 1, added if missing) and pass through
//!    the loop unchanged.
//!
//! A loop whose state changes shape gets new condition and body
//! computations (clones); loops sharing a computation keep theirs.
//! Afterwards dead instructions are removed and computations no longer
//! referenced are erased (XLA runs HloDCE). Loops in computations with
//! control dependencies, or with a non-default layout on the loop or its
//! state tuple, are left alone. Not done (XLA does them too): flattening
//! nested state tuples, and the off-by-default trivial-compare removal.

use crate::constant::ConstantBuilder;
use crate::{
    call_inliner::{frontend_attributes, inline_call, remove_unreferenced},
    dce::remove_dead_instructions,
    while_loop_trip_count_annotator::trip_count,
};
use melior::ir::OperationRef;
use mlir_sys::*;
use rxla_ir::{
    builder::Builder,
    computation::{self, clone_function, functions, SideEffects},
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::HloType,
};
use std::collections::{BTreeSet, HashMap, HashSet};

#[derive(Clone, Debug)]
pub struct WhileLoopSimplifier;

impl HloPass for WhileLoopSimplifier {
    const NAME: &'static str = "simplify-while-loops";
    const DESCRIPTION: &'static str =
        "Remove dead, repeated and constant while-loop state and loops with 0 or 1 trips (XLA's WhileLoopSimplifier)";

    fn from_options(options: &PassOptions) -> Result<Self> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<()> {
        let module = Op::of(&module);
        simplify(module)?;
        Ok(())
    }
}

type Result<T> = std::result::Result<T, PassError>;

/// Builds a body's new result from its old one.
type RootBuilder<'a> = dyn Fn(&Builder, Value) -> Result<Value> + 'a;

fn bug(what: String) -> PassError {
    PassError(format!("internal error: {what}"))
}

/// State shared by the rewrites of one run.
struct Ctx {
    module: Op,
    effects: SideEffects,
    /// Functions whose references were dropped: erased at the end if
    /// nothing references them any more.
    released: Vec<String>,
}

/// Runs the simplifier over `module`; returns the number of rewrites.
pub fn simplify(module: Op) -> Result<usize> {
    let mut ctx = Ctx { module, effects: SideEffects::new(module), released: Vec::new() };
    let whiles: Vec<Op> =
        functions(module).into_iter().flat_map(|f| f.walk_preorder()).filter(|op| op.is("while")).collect();
    let mut changes = 0;
    for w in whiles {
        changes += simplify_one(&mut ctx, w)?;
    }
    if changes > 0 {
        for func in functions(module) {
            remove_dead_instructions(func);
        }
        remove_unreferenced(module, std::mem::take(&mut ctx.released));
    }
    Ok(changes)
}

/// The rewrites for one loop, in XLA's order.
fn simplify_one(ctx: &mut Ctx, w: Op) -> Result<usize> {
    let Some(parent) = w.parent_func() else { return Ok(0) };
    if parent.walk_preorder().iter().any(|op| op.has_attr("hlo.control_predecessors")) {
        return Ok(0);
    }
    if loop_functions(ctx.module, w).is_none() {
        return Ok(0);
    }
    if try_remove_repeated_indices(ctx, w)? {
        return Ok(1);
    }
    if try_remove_dead_params(ctx, w)? {
        return Ok(1);
    }
    if try_remove_constant_params(ctx, w)? {
        return Ok(1);
    }
    let (cond, body) = loop_functions(ctx.module, w).expect("checked");
    let sends =
        |f: Op| f.walk_preorder().iter().any(|op| ["send", "send_done", "recv", "recv_done"].iter().any(|n| op.is(n)));
    if sends(cond) || sends(body) {
        return Ok(0);
    }
    let mut changes = 0;
    if try_propagate_constant(ctx, w)? {
        changes += 1;
    }
    if try_remove_loop(ctx, w)? {
        return Ok(changes + 1);
    }
    let (cond, body) = loop_functions(ctx.module, w).expect("checked");
    let domains = |f: Op| f.walk_preorder().iter().any(|op| op.is("domain"));
    if domains(cond) || domains(body) {
        return Ok(changes);
    }
    // XLA's order; no 16-bit types, as in XLA.
    let mut w = w;
    for elem in ["i8", "ui8", "i32", "ui32", "i64", "ui64"] {
        if let Some(nw) = try_merge_induction_variables(ctx, w, elem)? {
            w = nw;
            changes += 1;
        }
    }
    Ok(changes)
}

/// The condition and body functions of `w`, each with one parameter.
fn loop_functions(module: Op, w: Op) -> Option<(Op, Op)> {
    let cond = computation::lookup(module, &w.symbol_attr("condition")?)?;
    let body = computation::lookup(module, &w.symbol_attr("body")?)?;
    (cond.arguments().len() == 1 && body.arguments().len() == 1).then_some((cond, body))
}

/// The tuple element types of a value's tuple type.
fn tuple_elements(v: Value) -> Option<Vec<HloType>> {
    match v.ty() {
        HloType::Tuple(items) => Some(items),
        _ => None,
    }
}

/// Element `i` of tuple `v`: the tuple's operand if `v` is built by
/// `hlo.tuple`, else a new get_tuple_element.
fn element(b: &Builder, v: Value, i: usize) -> Result<Value> {
    if let Some(t) = v.defined_by("tuple") {
        if i < t.num_operands() {
            return Ok(t.operand(i));
        }
    }
    b.get_tuple_element(v, i)
}

/// The body's root tuple op (the body returning its state as one tuple).
fn root_tuple(body: Op) -> Option<Op> {
    let returned = body.return_values();
    let param = *body.arguments().first()?;
    if returned.len() != 1 || returned[0].raw_type().ptr != param.raw_type().ptr {
        return None;
    }
    returned[0].defined_by("tuple")
}

/// True if shape-changing rewrites must leave `w` alone: non-default
/// layouts on the loop, its state tuples or the parameters' elements.
fn has_layouts(module: Op, w: Op) -> bool {
    if w.has_attr("hlo.layout") || w.operand(0).op().is_some_and(|o| o.has_attr("hlo.layout")) {
        return true;
    }
    let Some((cond, body)) = loop_functions(module, w) else { return true };
    for f in [cond, body] {
        let param = f.arguments()[0];
        if param.users().iter().any(|u| u.has_attr("hlo.layout")) {
            return true;
        }
    }
    root_tuple(body).is_some_and(|r| r.has_attr("hlo.layout"))
}

/// Makes the function `w.<attr>` private to `w` (cloning it if anything
/// else references it) and returns it.
fn own_function(ctx: &mut Ctx, w: Op, attr: &str) -> Result<Op> {
    let name = w.symbol_attr(attr).ok_or_else(|| bug(format!("while without {attr}")))?;
    let func = computation::lookup(ctx.module, &name).ok_or_else(|| bug(format!("no computation @{name}")))?;
    let references: usize =
        computation::call_sites(ctx.module).iter().map(|(_, names)| names.iter().filter(|n| **n == name).count()).sum();
    if references <= 1 {
        return Ok(func);
    }
    let copy = clone_function(ctx.module, func, &name)?;
    w.set_symbol_attr(attr, &computation::name(copy));
    Ok(copy)
}

/// A builder at the start of `func`'s body.
fn builder_at_start(func: Op) -> Result<Builder> {
    let first = func.body_ops().first().copied().ok_or_else(|| bug("empty function".into()))?;
    Ok(Builder::before(first))
}

/// Adds a new last block argument of type `ty` to `func`.
fn add_parameter(func: Op, ty: &HloType) -> Result<Value> {
    let block = func.region_block(0).ok_or_else(|| bug("function without a body".into()))?;
    let raw = ty.to_mlir(func.context()).ok_or_else(|| bug(format!("bad type {ty}")))?;
    Ok(Value(unsafe { mlirBlockAddArgument(block, raw, func.location()) }))
}

/// Erases `func`'s first block argument (it must be unused).
fn erase_first_parameter(func: Op) -> Result<()> {
    let block = func.region_block(0).ok_or_else(|| bug("function without a body".into()))?;
    if func.arguments()[0].has_uses() {
        return Err(bug("erasing a used parameter".into()));
    }
    unsafe { mlirBlockEraseArgument(block, 0) };
    Ok(())
}

/// Replaces the get_tuple_element users of tuple op result `v` by the
/// tuple's operands, and erases the tuple if that leaves it unused.
fn forward_tuple(v: Value) {
    let Some(t) = v.defined_by("tuple") else { return };
    for user in v.users() {
        if user.is("get_tuple_element") {
            if let Some(i) = user.int_attr("index") {
                if (i as usize) < t.num_operands() {
                    user.replace_result_uses(0, t.operand(i as usize));
                    if !user.has_uses() {
                        user.erase();
                    }
                }
            }
        }
    }
    if !t.has_uses() {
        t.erase();
    }
}

/// Gives `func` the parameter type `new_ty`; `old_form` builds a value of
/// the old parameter type from the new parameter, which replaces the old
/// parameter. With `new_root`, the body's result is rebuilt from the old
/// result too.
fn rebuild(
    func: Op,
    new_ty: &HloType,
    old_form: impl FnOnce(&Builder, Value) -> Result<Value>,
    new_root: Option<&RootBuilder>,
) -> Result<()> {
    let old = func.arguments()[0];
    let new = add_parameter(func, new_ty)?;
    let b = builder_at_start(func)?;
    let value = old_form(&b, new)?;
    old.replace_all_uses_with(value);
    forward_tuple(value);
    erase_first_parameter(func)?;
    if let Some(f) = new_root {
        let ret = func.terminator().ok_or_else(|| bug("function without return".into()))?;
        let r = f(&Builder::before(ret), ret.operand(0))?;
        ret.set_operand(0, r);
    }
    computation::update_function_type(func);
    Ok(())
}

/// Creates a while like `old` with another init, computations and type,
/// carrying its backend config, frontend attributes and metadata.
fn new_while(old: Op, init: Value, cond: &str, body: &str) -> Result<Op> {
    let b = Builder::before(old);
    let mut attrs = vec![("condition", b.symbol_ref(cond)), ("body", b.symbol_ref(body))];
    for key in ["hlo.backend_config", "hlo.frontend_attributes", "hlo.metadata"] {
        if let Some(attr) = old.attr_raw(key) {
            attrs.push((key, attr));
        }
    }
    b.create("hlo.while", &[init], &[init.ty()], &attrs)
}

/// Replaces `old` (a while) by the tuple of `elements`, forwarding
/// get_tuple_element users, and erases it.
fn replace_while(ctx: &mut Ctx, old: Op, elements: &[Value]) -> Result<()> {
    let t = Builder::before(old).tuple(elements)?;
    old.replace_result_uses(0, t);
    forward_tuple(t);
    release(ctx, old);
    old.erase();
    Ok(())
}

/// Notes the computations `op` references, to erase them at the end if
/// they become unreferenced.
fn release(ctx: &mut Ctx, op: Op) {
    ctx.released.extend(op.symbol_uses());
}

/// XLA's RemoveDeadTupleIndices: rebuilds `w` with only the `kept`
/// elements of its state. A dropped element `i` reads, after the loop, from
/// element `replacement[i]` of the new loop if given, else from the init.
/// Returns the new loop, or `None` (changing nothing) if the dropped
/// elements turn out to be needed.
fn remove_tuple_indices(
    ctx: &mut Ctx,
    w: Op,
    kept: &[usize],
    replacement: &HashMap<usize, usize>,
) -> Result<Option<Op>> {
    let init = w.operand(0);
    let Some(types) = tuple_elements(init) else { return Ok(None) };
    let Some((cond, body)) = loop_functions(ctx.module, w) else { return Ok(None) };
    let old_to_new: HashMap<usize, usize> = kept.iter().enumerate().map(|(n, &o)| (o, n)).collect();
    let new_ty = HloType::Tuple(kept.iter().map(|&i| types[i].clone()).collect());
    let new_cond = clone_function(ctx.module, cond, &computation::name(cond))?;
    let new_body = clone_function(ctx.module, body, &computation::name(body))?;
    let ok = shrink(new_cond, &new_ty, &old_to_new, false)? && shrink(new_body, &new_ty, &old_to_new, true)?;
    if !ok {
        new_cond.erase();
        new_body.erase();
        return Ok(None);
    }
    let b = Builder::before(w);
    let init_elements: Vec<Value> = kept.iter().map(|&i| element(&b, init, i)).collect::<Result<_>>()?;
    let new_init = b.tuple(&init_elements)?;
    let nw = new_while(w, new_init, &computation::name(new_cond), &computation::name(new_body))?;
    let mut elements = Vec::with_capacity(types.len());
    for i in 0..types.len() {
        let v = match (old_to_new.get(&i), replacement.get(&i).and_then(|k| old_to_new.get(k))) {
            (Some(&j), _) | (None, Some(&j)) => b.get_tuple_element(nw.result(0), j)?,
            (None, None) => element(&b, init, i)?,
        };
        elements.push(v);
    }
    replace_while(ctx, w, &elements)?;
    Ok(Some(nw))
}

/// Retypes a (cloned) condition or body to the state `new_ty` made of the
/// old elements in `old_to_new`, deleting what depends on dropped
/// elements. False if something needed depends on them.
fn shrink(func: Op, new_ty: &HloType, old_to_new: &HashMap<usize, usize>, is_body: bool) -> Result<bool> {
    let old = func.arguments()[0];
    let new = add_parameter(func, new_ty)?;
    let mut dropped: Vec<Op> = Vec::new();
    for user in old.users() {
        let Some(i) = user.int_attr("index").filter(|_| user.is("get_tuple_element")) else {
            return Ok(false);
        };
        match old_to_new.get(&(i as usize)) {
            Some(&j) => {
                user.set_operand(0, new);
                user.set_i64_attr("index", j as i64);
            }
            None => dropped.push(user),
        }
    }
    let ret = func.terminator().ok_or_else(|| bug("function without return".into()))?;
    if is_body {
        let Some(root) = root_tuple(func) else { return Ok(false) };
        let mut kept: Vec<(usize, usize)> = old_to_new.iter().map(|(&o, &n)| (n, o)).collect();
        kept.sort();
        let operands: Vec<Value> = kept.iter().map(|&(_, o)| root.operand(o)).collect();
        let t = Builder::before(ret).tuple(&operands)?;
        ret.set_operand(0, t);
        if !root.has_uses() {
            root.erase();
        }
    }
    // Everything computed from the dropped elements.
    let mut dependent: HashSet<Op> = dropped.iter().copied().collect();
    let mut work = dropped.clone();
    while let Some(op) = work.pop() {
        for user in op.users() {
            if user == ret {
                return Ok(false);
            }
            if dependent.insert(user) {
                work.push(user);
            }
        }
    }
    let ops = func.body_ops();
    for op in ops.iter().rev() {
        if dependent.contains(op) {
            if op.has_uses() {
                return Ok(false);
            }
            op.erase();
        }
    }
    erase_first_parameter(func)?;
    computation::update_function_type(func);
    Ok(true)
}

/// XLA's TryRemoveDeadWhileParams.
fn try_remove_dead_params(ctx: &mut Ctx, w: Op) -> Result<bool> {
    let init = w.operand(0);
    let Some(types) = tuple_elements(init) else { return Ok(false) };
    let n = types.len();
    let Some((cond, body)) = loop_functions(ctx.module, w) else { return Ok(false) };
    let Some(root) = root_tuple(body) else { return Ok(false) };
    if n == 0 || root.num_operands() != n || has_layouts(ctx.module, w) {
        return Ok(false);
    }
    let (cond_param, body_param) = (cond.arguments()[0], body.arguments()[0]);
    for p in [cond_param, body_param] {
        if p.users().iter().any(|u| !u.is("get_tuple_element")) {
            return Ok(false);
        }
    }
    let mut used_after: BTreeSet<usize> = BTreeSet::new();
    for user in w.users() {
        match user.int_attr("index").filter(|_| user.is("get_tuple_element")) {
            Some(i) => {
                used_after.insert(i as usize);
            }
            None => used_after.extend(0..n),
        }
    }
    let cond_root = cond.return_values().first().and_then(|v| v.op());
    // Input elements each instruction depends on (within one iteration),
    // and connected groups of instructions.
    let mut deps: HashMap<Op, BTreeSet<usize>> = HashMap::new();
    let mut sets = UnionFind::default();
    let mut side_effecting: BTreeSet<usize> = BTreeSet::new();
    for (func, param) in [(body, body_param), (cond, cond_param)] {
        for op in func.body_ops() {
            if op.name() == "func.return" || op == root {
                continue;
            }
            let mut d = BTreeSet::new();
            if op.is("get_tuple_element") && op.operand(0).same_as(param) {
                let i = op.int_attr("index").unwrap_or(0) as usize;
                d.insert(i);
                if i < n {
                    if let Some(output) = root.operand(i).op() {
                        if output != op {
                            sets.union(output, op);
                        }
                    }
                }
            } else {
                for operand in op.operands() {
                    if let Some(def) = operand.op() {
                        sets.union(def, op);
                        if let Some(od) = deps.get(&def) {
                            d.extend(od.iter().copied());
                        }
                    }
                }
            }
            if Some(op) == cond_root || ctx.effects.op(op) {
                side_effecting.extend(d.iter().copied());
            }
            deps.insert(op, d);
        }
    }
    let output_deps =
        |i: usize| -> BTreeSet<usize> { root.operand(i).op().and_then(|o| deps.get(&o).cloned()).unwrap_or_default() };
    let mut affecting_others: BTreeSet<usize> = BTreeSet::new();
    for i in 0..n {
        affecting_others.extend(output_deps(i).into_iter().filter(|&j| j != i));
    }
    let mut removed: BTreeSet<usize> = (0..n)
        .filter(|i| !affecting_others.contains(i) && !used_after.contains(i) && !side_effecting.contains(i))
        .collect();
    // Groups of elements that only feed each other.
    let mut groups: Vec<(Op, BTreeSet<usize>)> = Vec::new();
    let mut add_to_group = |sets: &mut UnionFind, op: Op, i: usize| {
        let r = sets.find(op);
        match groups.iter_mut().find(|(k, _)| *k == r) {
            Some(g) => {
                g.1.insert(i);
            }
            None => groups.push((r, BTreeSet::from([i]))),
        }
    };
    let mut ungrouped: BTreeSet<usize> = BTreeSet::new();
    for i in 0..n {
        match root.operand(i).op() {
            Some(o) => add_to_group(&mut sets, o, i),
            None => {
                ungrouped.insert(i);
            }
        }
    }
    for p in [body_param, cond_param] {
        for gte in p.users() {
            let i = gte.int_attr("index").unwrap_or(0) as usize;
            add_to_group(&mut sets, gte, i);
        }
    }
    let pass_through = |i: usize| {
        root.operand(i)
            .defined_by("get_tuple_element")
            .is_some_and(|g| g.operand(0).same_as(body_param) && g.int_attr("index") == Some(i as i64))
    };
    for (_, group) in &groups {
        let blocked = group.iter().any(|&i| {
            ungrouped.contains(&i) || side_effecting.contains(&i) || (used_after.contains(&i) && !pass_through(i))
        });
        if !blocked {
            removed.extend(group.iter().copied());
        }
    }
    if removed.is_empty() {
        return Ok(false);
    }
    let kept: Vec<usize> = (0..n).filter(|i| !removed.contains(i)).collect();
    Ok(remove_tuple_indices(ctx, w, &kept, &HashMap::new())?.is_some())
}

/// Union-find over ops.
#[derive(Default)]
struct UnionFind {
    parent: HashMap<Op, Op>,
}

impl UnionFind {
    fn find(&mut self, x: Op) -> Op {
        let mut root = x;
        while let Some(&p) = self.parent.get(&root) {
            if p == root {
                break;
            }
            root = p;
        }
        // Path compression.
        let mut cur = x;
        while cur != root {
            let next = *self.parent.get(&cur).unwrap_or(&root);
            self.parent.insert(cur, root);
            cur = next;
        }
        root
    }

    fn union(&mut self, a: Op, b: Op) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent.insert(rb, ra);
        }
    }
}

/// True if `v` is `dynamic_update_slice(get_tuple_element(param, _), ...)`.
fn dus_insertion(v: Value, param: Value) -> Option<(Op, usize)> {
    let dus = v.defined_by("dynamic_update_slice")?;
    let gte = dus.operand(0).defined_by("get_tuple_element")?;
    gte.operand(0).same_as(param).then_some(())?;
    Some((dus, gte.int_attr("index")? as usize))
}

/// XLA's TryRemoveRepeatedWhileTupleIndices.
fn try_remove_repeated_indices(ctx: &mut Ctx, w: Op) -> Result<bool> {
    let mut w = w;
    let mut changed = false;
    let mut pivot = 0;
    loop {
        let Some(init) = w.operand(0).defined_by("tuple") else { return Ok(changed) };
        let n = init.num_operands();
        if pivot >= n || has_layouts(ctx.module, w) {
            return Ok(changed);
        }
        let Some((_, body)) = loop_functions(ctx.module, w) else { return Ok(changed) };
        let Some(root) = root_tuple(body) else { return Ok(changed) };
        if root.num_operands() != n {
            return Ok(changed);
        }
        let param = body.arguments()[0];
        let as_pass_through = |v: Value| -> Option<usize> {
            let g = v.defined_by("get_tuple_element")?;
            g.operand(0).same_as(param).then_some(())?;
            Some(g.int_attr("index")? as usize)
        };
        let pivot_body = root.operand(pivot);
        let pivot_is_gte = pivot_body.defined_by("get_tuple_element").is_some_and(|g| g.operand(0).same_as(param));
        let pivot_dus = dus_insertion(pivot_body, param);
        let mut replace_with_init = true;
        let valid_pivot = if pivot_is_gte {
            as_pass_through(pivot_body) == Some(pivot)
        } else if let Some((_, idx)) = pivot_dus {
            idx == pivot
        } else {
            false
        };
        let mut duplicates: BTreeSet<usize> = BTreeSet::new();
        if valid_pivot {
            for i in pivot + 1..n {
                let body_elem = root.operand(i);
                if pivot_is_gte
                    && body_elem.defined_by("get_tuple_element").is_some_and(|g| g.operand(0).same_as(param))
                {
                    if as_pass_through(body_elem) != Some(i) {
                        continue;
                    }
                } else if let (Some((pd, _)), Some((bd, bi))) = (pivot_dus, dus_insertion(body_elem, param)) {
                    if pd.num_operands() != bd.num_operands() || bi != i || pd.operand(0).same_as(bd.operand(0)) {
                        continue;
                    }
                    if (1..bd.num_operands()).any(|k| !bd.operand(k).same_as(pd.operand(k))) {
                        continue;
                    }
                    replace_with_init = false;
                } else {
                    continue;
                }
                if init.operand(pivot).same_as(init.operand(i)) {
                    duplicates.insert(i);
                }
            }
        }
        if !duplicates.is_empty() {
            // Read the duplicates from the pivot inside the loop.
            for attr in ["body", "condition"] {
                let func = own_function(ctx, w, attr)?;
                let p = func.arguments()[0];
                let b = builder_at_start(func)?;
                let pivot_get = b.get_tuple_element(p, pivot)?;
                for user in p.users() {
                    if user.is("get_tuple_element")
                        && user.int_attr("index").is_some_and(|i| duplicates.contains(&(i as usize)))
                    {
                        user.replace_result_uses(0, pivot_get);
                        user.erase();
                    }
                }
            }
            let kept: Vec<usize> = (0..n).filter(|i| !duplicates.contains(i)).collect();
            let replacement: HashMap<usize, usize> =
                if replace_with_init { HashMap::new() } else { duplicates.iter().map(|&d| (d, pivot)).collect() };
            // The loop already reads the duplicates from the pivot.
            changed = true;
            match remove_tuple_indices(ctx, w, &kept, &replacement)? {
                Some(nw) => w = nw,
                None => return Ok(changed),
            }
        }
        pivot += 1;
    }
}

/// XLA's TryRemoveConstantParams.
fn try_remove_constant_params(ctx: &mut Ctx, w: Op) -> Result<bool> {
    let Some(init) = w.operand(0).defined_by("tuple") else { return Ok(false) };
    let Some((cond, body)) = loop_functions(ctx.module, w) else { return Ok(false) };
    let Some(root) = root_tuple(body) else { return Ok(false) };
    let n = init.num_operands();
    if root.num_operands() != n || has_layouts(ctx.module, w) {
        return Ok(false);
    }
    let constant: Vec<bool> = (0..n)
        .map(|i| match (init.operand(i).defined_by("constant"), root.operand(i).defined_by("constant")) {
            (Some(a), Some(b)) => {
                a.attr_raw("value").map(|x| x.ptr) == b.attr_raw("value").map(|x| x.ptr)
                    && a.result(0).raw_type().ptr == b.result(0).raw_type().ptr
                    && a.attr_raw("hlo.layout").map(|x| x.ptr) == b.attr_raw("hlo.layout").map(|x| x.ptr)
            }
            _ => false,
        })
        .collect();
    if !constant.iter().any(|&c| c) {
        return Ok(false);
    }
    if constant.iter().all(|&c| c) {
        // The loop computes its init; keep it if it has side effects.
        if ctx.effects.computation(&computation::name(cond)) || ctx.effects.computation(&computation::name(body)) {
            return Ok(false);
        }
        w.replace_result_uses(0, w.operand(0));
        release(ctx, w);
        w.erase();
        return Ok(true);
    }
    let types = tuple_elements(w.operand(0)).ok_or_else(|| bug("tuple init of non-tuple type".into()))?;
    let kept: Vec<usize> = (0..n).filter(|&i| !constant[i]).collect();
    let new_ty = HloType::Tuple(kept.iter().map(|&i| types[i].clone()).collect());
    let new_cond = clone_function(ctx.module, cond, &computation::name(cond))?;
    let new_body = clone_function(ctx.module, body, &computation::name(body))?;
    // Inside: constants are re-made, the rest read from the new state.
    let old_form = |b: &Builder, p: Value| -> Result<Value> {
        let mut elements = Vec::with_capacity(n);
        let mut j = 0;
        for (i, &is_constant) in constant.iter().enumerate() {
            if let (true, Some(op)) = (is_constant, init.operand(i).op()) {
                let c = op.clone_detached();
                b.insert(c.raw());
                elements.push(c.result(0));
            } else {
                elements.push(b.get_tuple_element(p, j)?);
                j += 1;
            }
        }
        b.tuple(&elements)
    };
    let new_root = |b: &Builder, r: Value| -> Result<Value> {
        let elements: Vec<Value> = kept.iter().map(|&i| element(b, r, i)).collect::<Result<_>>()?;
        b.tuple(&elements)
    };
    rebuild(new_cond, &new_ty, old_form, None)?;
    rebuild(new_body, &new_ty, old_form, Some(&new_root))?;
    let b = Builder::before(w);
    let init_elements: Vec<Value> = kept.iter().map(|&i| init.operand(i)).collect();
    let new_init = b.tuple(&init_elements)?;
    let nw = new_while(w, new_init, &computation::name(new_cond), &computation::name(new_body))?;
    let mut elements = Vec::with_capacity(n);
    let mut j = 0;
    for (i, &is_constant) in constant.iter().enumerate() {
        if is_constant {
            elements.push(init.operand(i));
        } else {
            elements.push(b.get_tuple_element(nw.result(0), j)?);
            j += 1;
        }
    }
    replace_while(ctx, w, &elements)?;
    Ok(true)
}

/// XLA's TryPropagateConstant: scalar elements that start constant and
/// pass through unchanged read the constant inside the loop.
fn try_propagate_constant(ctx: &mut Ctx, w: Op) -> Result<bool> {
    let Some(init) = w.operand(0).defined_by("tuple") else { return Ok(false) };
    let Some((_, body)) = loop_functions(ctx.module, w) else { return Ok(false) };
    let Some(root) = root_tuple(body) else { return Ok(false) };
    let param = body.arguments()[0];
    let mut constants: HashMap<usize, Op> = HashMap::new();
    for i in 0..root.num_operands().min(init.num_operands()) {
        let Some(g) = root.operand(i).defined_by("get_tuple_element") else { continue };
        if !g.operand(0).same_as(param) || g.int_attr("index") != Some(i as i64) {
            continue;
        }
        if g.result_type(0).tensor().is_none_or(|t| t.rank() != 0) {
            continue;
        }
        if let Some(c) = init.operand(i).defined_by("constant") {
            constants.insert(i, c);
        }
    }
    if constants.is_empty() {
        return Ok(false);
    }
    let mut changed = false;
    for attr in ["condition", "body"] {
        // Only touch the function if it reads one of the elements.
        let name = w.symbol_attr(attr).ok_or_else(|| bug(format!("while without {attr}")))?;
        let func = computation::lookup(ctx.module, &name).ok_or_else(|| bug(format!("no computation @{name}")))?;
        let reads = func.arguments()[0].users().iter().any(|u| {
            u.is("get_tuple_element") && u.int_attr("index").is_some_and(|i| constants.contains_key(&(i as usize)))
        });
        if !reads {
            continue;
        }
        let func = own_function(ctx, w, attr)?;
        let b = builder_at_start(func)?;
        for user in func.arguments()[0].users() {
            if !user.is("get_tuple_element") {
                continue;
            }
            let Some(c) = user.int_attr("index").and_then(|i| constants.get(&(i as usize))) else { continue };
            let copy = c.clone_detached();
            b.insert(copy.raw());
            user.replace_result_uses(0, copy.result(0));
            changed = true;
        }
    }
    Ok(changed)
}

/// XLA's TryRemoveWhileLoop: 0 trips -> init, 1 trip -> the body inlined.
fn try_remove_loop(ctx: &mut Ctx, w: Op) -> Result<bool> {
    let Some((cond, body)) = loop_functions(ctx.module, w) else { return Ok(false) };
    if ctx.effects.computation(&computation::name(cond)) {
        return Ok(false);
    }
    let Some(trips) = trip_count(ctx.module, w, 1) else { return Ok(false) };
    if trips == 0 {
        w.replace_result_uses(0, w.operand(0));
        release(ctx, w);
        w.erase();
        return Ok(true);
    }
    let skip = w
        .string_attr("hlo.frontend_attributes")
        .map(|t| frontend_attributes(&t))
        .and_then(|a| a.get("skip-simplify-while-loops_trip-count-one").cloned())
        .is_some_and(|v| v == "true");
    if trips != 1 || skip || ctx.effects.computation(&computation::name(body)) {
        return Ok(false);
    }
    let body_name = computation::name(body);
    let b = Builder::before(w);
    let call = b.create("hlo.call", &[w.operand(0)], &[w.result_type(0)], &[("to_apply", b.symbol_ref(&body_name))])?;
    w.replace_result_uses(0, call.result(0));
    release(ctx, w);
    w.erase();
    inline_call(ctx.module, call)?;
    Ok(true)
}

/// XLA's TryMergeInductionVariables for `elem` scalars: every element
/// updated as `x += c` (a constant) becomes `init + counter * c`, computed
/// from one trip counter (an element starting at 0 and adding 1, added at
/// the end of the state if there is none), and passes through the loop
/// unchanged. Wrapping arithmetic makes this exact. Returns the new loop.
fn try_merge_induction_variables(ctx: &mut Ctx, w: Op, elem: &str) -> Result<Option<Op>> {
    let Some(init) = w.operand(0).defined_by("tuple") else { return Ok(None) };
    let Some((cond, body)) = loop_functions(ctx.module, w) else { return Ok(None) };
    let Some(root) = root_tuple(body) else { return Ok(None) };
    let n = init.num_operands();
    if root.num_operands() != n || has_layouts(ctx.module, w) {
        return Ok(None);
    }
    let param = body.arguments()[0];
    let scalar_of = |v: Value| v.ty().tensor().is_some_and(|t| t.rank() == 0 && t.elem.0 == elem);
    let mut trip_counter: Option<usize> = None;
    let mut steps: Vec<(usize, Op)> = Vec::new();
    for i in 0..n {
        let Some(add) = root.operand(i).defined_by("add") else { continue };
        if !scalar_of(add.result(0)) {
            continue;
        }
        let is_gte_i = |v: Value| {
            v.defined_by("get_tuple_element")
                .is_some_and(|g| g.operand(0).same_as(param) && g.int_attr("index") == Some(i as i64))
        };
        let step = if is_gte_i(add.operand(0)) {
            add.operand(1).defined_by("constant")
        } else if is_gte_i(add.operand(1)) {
            add.operand(0).defined_by("constant")
        } else {
            None
        };
        let Some(step) = step else { continue };
        let is_one = crate::constant::splat(step.result(0)).is_some_and(|s| s.is_one());
        let starts_at_zero = init.operand(i).defined_by("constant").is_some()
            && crate::constant::splat(init.operand(i)).is_some_and(|s| s.is_zero());
        if trip_counter.is_none() && is_one && starts_at_zero {
            trip_counter = Some(i);
        } else {
            steps.push((i, step));
        }
    }
    if steps.len() + usize::from(trip_counter.is_some()) < 2 {
        return Ok(None);
    }
    let types = tuple_elements(w.operand(0)).ok_or_else(|| bug("tuple init of non-tuple type".into()))?;
    let scalar: HloType = rxla_ir::types::TensorType::scalar(&rxla_ir::types::ElementType::new(elem)).into();
    let added = trip_counter.is_none();
    let counter = trip_counter.unwrap_or(n);
    let mut new_types = types.clone();
    if added {
        new_types.push(scalar.clone());
    }
    let new_ty = HloType::Tuple(new_types);
    let step_of = |i: usize| steps.iter().find(|(k, _)| *k == i).map(|(_, c)| *c);
    // The old state from the new one: induction variables are
    // init + counter * step.
    let old_form = |b: &Builder, v: Value| -> Result<Value> {
        let mut elements = Vec::with_capacity(n);
        for i in 0..n {
            let e = b.get_tuple_element(v, i)?;
            match step_of(i) {
                Some(c) => {
                    let copy = c.clone_detached();
                    b.insert(copy.raw());
                    let count = b.get_tuple_element(v, counter)?;
                    let offset = b.multiply(count, copy.result(0))?;
                    elements.push(b.add(e, offset)?);
                }
                None => elements.push(e),
            }
        }
        b.tuple(&elements)
    };
    let new_cond = clone_function(ctx.module, cond, &computation::name(cond))?;
    let new_body = clone_function(ctx.module, body, &computation::name(body))?;
    rebuild(new_cond, &new_ty, old_form, None)?;
    let new_root = |b: &Builder, r: Value| -> Result<Value> {
        let p = new_body.arguments()[0];
        let mut elements = Vec::with_capacity(n + 1);
        for i in 0..n {
            elements.push(if step_of(i).is_some() { b.get_tuple_element(p, i)? } else { element(b, r, i)? });
        }
        if added {
            let one = b.scalar(&rxla_ir::types::ElementType::new(elem), crate::constant::Scalar::Int(1))?;
            let count = b.get_tuple_element(p, counter)?;
            elements.push(b.add(count, one)?);
        }
        b.tuple(&elements)
    };
    rebuild(new_body, &new_ty, old_form, Some(&new_root))?;
    let b = Builder::before(w);
    let new_init = if added {
        let mut elements: Vec<Value> = init.operands();
        elements.push(b.scalar(&rxla_ir::types::ElementType::new(elem), crate::constant::Scalar::Int(0))?);
        b.tuple(&elements)?
    } else {
        init.result(0)
    };
    let nw = new_while(w, new_init, &computation::name(new_cond), &computation::name(new_body))?;
    let old = old_form(&b, nw.result(0))?;
    let elements =
        old.defined_by("tuple").map(|t| t.operands()).ok_or_else(|| bug("old form is not a tuple".into()))?;
    replace_while(ctx, w, &elements)?;
    if !old.has_uses() {
        if let Some(t) = old.op() {
            t.erase();
        }
    }
    Ok(Some(nw))
}
