//! `simplify-conditional`: XLA's ConditionalSimplifier. For each
//! `hlo.conditional` (except those with a sharding or whose branches reach
//! a channel instruction: send/recv or a collective), in order:
//!
//! 1. Duplicate results: when result elements `i < j` come from the same
//!    value in every branch, users of element `j` read element `i`.
//! 2. Unused results: elements of a tuple result that no get_tuple_element
//!    reads are dropped from every branch (branches are cloned).
//! 3. A conditional nobody uses gets branches that return an empty tuple.
//! 4. Unless the conditional or a branch has side effects: one with a single
//!    branch, or a constant branch index, becomes the taken branch inlined
//!    (a pred index picks branch 0 when true; an out-of-range s32 index
//!    picks the last branch). A pred conditional of two cheap branches
//!    (only elementwise ops, broadcast, concatenate, dynamic_slice,
//!    get_tuple_element, reduce, reshape, pad, slice, tuple), neither of
//!    which just forwards its parameter, becomes both branches inlined and a
//!    `select` (`after_all` for tokens) of their results.
//!
//! Then, for the branch computations of the remaining conditionals, tuple
//! parameter elements a branch never reads are removed: the branch is
//! cloned with a smaller parameter and each calling conditional passes a
//! tuple of just the elements used.
//!
//! rxla leaves conditionals in computations with control dependencies, and
//! those with a non-default result layout, alone.

use crate::call_inliner::{inline_call, remove_unreferenced};
use melior::ir::OperationRef;
use mlir_sys::*;
use rxla_ir::{
    attrs,
    builder::Builder,
    computation::{self, clone_function, functions, SideEffects},
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::HloType,
};
use std::collections::{BTreeSet, HashMap};

#[derive(Clone, Debug)]
pub struct ConditionalSimplifier;

impl HloPass for ConditionalSimplifier {
    const NAME: &'static str = "simplify-conditional";
    const DESCRIPTION: &'static str =
        "Inline conditionals with a constant or single branch, drop unused results and operands (XLA's ConditionalSimplifier)";

    fn from_options(options: &PassOptions) -> Result<Self> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<()> {
        simplify(Op::of(&module))?;
        Ok(())
    }
}

type Result<T> = std::result::Result<T, PassError>;

fn bug(what: String) -> PassError {
    PassError(format!("internal error: {what}"))
}

/// Runs the simplifier over `module`; returns the number of rewrites.
pub fn simplify(module: Op) -> Result<usize> {
    let mut effects = SideEffects::new(module);
    let mut released: Vec<String> = Vec::new();
    let mut conditionals: Vec<Op> = Vec::new();
    for func in functions(module) {
        if func.walk_preorder().iter().any(|op| op.has_attr("hlo.control_predecessors")) {
            continue;
        }
        for op in func.walk_preorder() {
            if op.is("conditional") && !op.has_attr("hlo.sharding") && !calls_channel_instructions(module, op) {
                conditionals.push(op);
            }
        }
    }
    let mut changes = 0;
    let mut remaining: Vec<Op> = Vec::new();
    for c in conditionals {
        let mut c = c;
        if merge_duplicate_elements(c)? {
            changes += 1;
        }
        if let Some(n) = remove_unused_elements(module, c, &mut released)? {
            c = n;
            changes += 1;
        }
        if let Some(n) = empty_unused(module, c, &mut released)? {
            c = n;
            changes += 1;
        }
        if try_remove(module, c, &mut effects, &mut released)? {
            changes += 1;
        } else {
            remaining.push(c);
        }
    }
    // Unused parameter elements of branch computations.
    let mut callers: Vec<(String, Vec<Op>)> = Vec::new();
    for &c in &remaining {
        for name in c.symbol_list_attr("branch_computations").unwrap_or_default() {
            match callers.iter_mut().find(|(n, _)| *n == name) {
                Some(entry) => {
                    if !entry.1.contains(&c) {
                        entry.1.push(c);
                    }
                }
                None => callers.push((name, vec![c])),
            }
        }
    }
    for (name, calling) in callers {
        if remove_unused_operands(module, &name, &calling)? {
            released.push(name);
            changes += 1;
        }
    }
    if changes > 0 {
        remove_unreferenced(module, released);
    }
    Ok(changes)
}

/// True if a branch of `c` (transitively) holds a channel instruction.
fn calls_channel_instructions(module: Op, c: Op) -> bool {
    const CHANNEL: &[&str] = &[
        "send",
        "send_done",
        "recv",
        "recv_done",
        "all_reduce",
        "all_reduce_start",
        "all_gather",
        "all_gather_start",
        "all_to_all",
        "ragged_all_to_all",
        "reduce_scatter",
        "collective_broadcast",
        "collective_permute",
        "collective_permute_start",
    ];
    let mut seen: Vec<String> = Vec::new();
    let mut work: Vec<String> = c.symbol_uses();
    while let Some(name) = work.pop() {
        if seen.contains(&name) {
            continue;
        }
        seen.push(name.clone());
        let Some(func) = computation::lookup(module, &name) else { continue };
        for op in func.walk_preorder().into_iter().skip(1) {
            if CHANNEL.iter().any(|n| op.is(n)) {
                return true;
            }
            work.extend(op.symbol_uses());
        }
    }
    false
}

/// The branch functions of `c`.
fn branches(module: Op, c: Op) -> Option<Vec<Op>> {
    c.symbol_list_attr("branch_computations")?.iter().map(|n| computation::lookup(module, n)).collect()
}

/// The single tuple result of `c` and its element types, if `c` has all
/// its uses in get_tuple_elements (and at least one).
fn gte_only_tuple_result(c: Op) -> Option<Vec<HloType>> {
    if c.num_results() != 1 || !c.has_uses() {
        return None;
    }
    let HloType::Tuple(items) = c.result_type(0) else { return None };
    c.result(0).users().iter().all(|u| u.is("get_tuple_element")).then_some(items)
}

/// XLA's MergeDuplicateTupleElements.
fn merge_duplicate_elements(c: Op) -> Result<bool> {
    let Some(items) = gte_only_tuple_result(c) else { return Ok(false) };
    let module = c.parent_module().ok_or_else(|| bug("conditional outside a module".into()))?;
    let Some(funcs) = branches(module, c) else { return Ok(false) };
    let ty = c.result(0).raw_type();
    let roots: Option<Vec<Op>> = funcs
        .iter()
        .map(|f| {
            let returned = f.return_values();
            (returned.len() == 1 && returned[0].raw_type().ptr == ty.ptr).then_some(())?;
            returned[0].defined_by("tuple")
        })
        .collect();
    let Some(roots) = roots else { return Ok(false) };
    if roots.iter().any(|r| r.num_operands() != items.len()) {
        return Ok(false);
    }
    let mut first: HashMap<Vec<usize>, usize> = HashMap::new();
    let mut changed = false;
    for i in 0..items.len() {
        let key: Vec<usize> = roots.iter().map(|r| r.operand(i).0.ptr as usize).collect();
        match first.get(&key) {
            Some(&k) => {
                for user in c.result(0).users() {
                    if user.int_attr("index") == Some(i as i64) {
                        user.set_i64_attr("index", k as i64);
                        changed = true;
                    }
                }
            }
            None => {
                first.insert(key, i);
            }
        }
    }
    Ok(changed)
}

/// Element `i` of tuple `v` (the tuple's operand, or a new
/// get_tuple_element).
fn element(b: &Builder, v: Value, i: usize) -> Result<Value> {
    if let Some(t) = v.defined_by("tuple") {
        if i < t.num_operands() {
            return Ok(t.operand(i));
        }
    }
    b.get_tuple_element(v, i)
}

/// A copy of `c` (same operands and attributes) with result types `types`
/// and branch computations `names`, inserted before it.
fn recreate(c: Op, types: &[HloType], names: &[String], operands: &[Value]) -> Result<Op> {
    let b = Builder::before(c);
    let branches: Vec<MlirAttribute> = names.iter().map(|n| b.symbol_ref(n)).collect();
    let mut attrs: Vec<(String, MlirAttribute)> =
        c.attrs_raw().into_iter().filter(|(k, _)| k != "branch_computations").collect();
    attrs.push(("branch_computations".to_string(), attrs::array(b.context(), &branches)));
    let refs: Vec<(&str, MlirAttribute)> = attrs.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    b.create("hlo.conditional", operands, types, &refs)
}

/// Clones each branch of `c` and makes it return `new_root(builder, old
/// root)`; returns the clones' names.
fn rewrite_branch_roots(
    module: Op,
    c: Op,
    new_root: &dyn Fn(&Builder, Value) -> Result<Value>,
) -> Result<Option<Vec<String>>> {
    let Some(funcs) = branches(module, c) else { return Ok(None) };
    if funcs.iter().any(|f| f.return_values().len() != 1) {
        return Ok(None);
    }
    let mut names = Vec::new();
    for f in funcs {
        let copy = clone_function(module, f, &computation::name(f))?;
        let ret = copy.terminator().ok_or_else(|| bug("branch without return".into()))?;
        let r = new_root(&Builder::before(ret), ret.operand(0))?;
        ret.set_operand(0, r);
        computation::update_function_type(copy);
        crate::dce::remove_dead_instructions(copy);
        names.push(computation::name(copy));
    }
    Ok(Some(names))
}

/// XLA's RemoveUnusedTupleElements; returns the new conditional.
fn remove_unused_elements(module: Op, c: Op, released: &mut Vec<String>) -> Result<Option<Op>> {
    let Some(items) = gte_only_tuple_result(c) else { return Ok(None) };
    if c.has_attr("hlo.layout") {
        return Ok(None);
    }
    let used: BTreeSet<usize> =
        c.result(0).users().iter().filter_map(|u| u.int_attr("index")).map(|i| i as usize).collect();
    if used.len() == items.len() {
        return Ok(None);
    }
    let Some(funcs) = branches(module, c) else { return Ok(None) };
    let old_ty = c.result(0).raw_type();
    if funcs
        .iter()
        .any(|f| f.return_values().len() != 1 || unsafe { !mlirTypeEqual(f.return_values()[0].raw_type(), old_ty) })
    {
        return Ok(None);
    }
    let kept: Vec<usize> = used.iter().copied().collect();
    let new_root = |b: &Builder, r: Value| -> Result<Value> {
        let elements: Vec<Value> = kept.iter().map(|&i| element(b, r, i)).collect::<Result<_>>()?;
        b.tuple(&elements)
    };
    let Some(names) = rewrite_branch_roots(module, c, &new_root)? else { return Ok(None) };
    let new_ty = HloType::Tuple(kept.iter().map(|&i| items[i].clone()).collect());
    let n = recreate(c, &[new_ty], &names, &c.operands())?;
    let old_to_new: HashMap<usize, usize> = kept.iter().enumerate().map(|(n, &o)| (o, n)).collect();
    for user in c.result(0).users() {
        let i = user.int_attr("index").unwrap_or(0) as usize;
        user.set_operand(0, n.result(0));
        user.set_i64_attr("index", old_to_new[&i] as i64);
    }
    released.extend(c.symbol_uses());
    c.erase();
    Ok(Some(n))
}

/// XLA's ReplaceRootWithEmptyTupleIfNoUsers; returns the new conditional.
fn empty_unused(module: Op, c: Op, released: &mut Vec<String>) -> Result<Option<Op>> {
    if c.has_uses() || c.num_results() != 1 || c.has_attr("hlo.layout") {
        return Ok(None);
    }
    if matches!(c.result_type(0), HloType::Tuple(ref items) if items.is_empty()) {
        return Ok(None);
    }
    let new_root = |b: &Builder, _r: Value| -> Result<Value> { b.tuple(&[]) };
    let Some(names) = rewrite_branch_roots(module, c, &new_root)? else { return Ok(None) };
    let n = recreate(c, &[HloType::Tuple(Vec::new())], &names, &c.operands())?;
    released.extend(c.symbol_uses());
    c.erase();
    Ok(Some(n))
}

/// Ops XLA counts as cheap enough to run both branches.
fn is_cheap(op: Op) -> bool {
    const CHEAP: &[&str] = &[
        "broadcast",
        "concatenate",
        "dynamic_slice",
        "get_tuple_element",
        "reduce",
        "reshape",
        "pad",
        "slice",
        "tuple",
        // Elementwise.
        "abs",
        "add",
        "and",
        "atan2",
        "cbrt",
        "ceil",
        "clamp",
        "compare",
        "complex",
        "constant",
        "convert",
        "cosine",
        "count_leading_zeros",
        "divide",
        "erf",
        "exponential",
        "exponential_minus_one",
        "floor",
        "imag",
        "is_finite",
        "log",
        "log_plus_one",
        "logistic",
        "maximum",
        "minimum",
        "multiply",
        "negate",
        "not",
        "or",
        "popcnt",
        "power",
        "real",
        "reduce_precision",
        "remainder",
        "round_nearest_afz",
        "round_nearest_even",
        "rsqrt",
        "select",
        "shift_left",
        "shift_right_arithmetic",
        "shift_right_logical",
        "sign",
        "sine",
        "sqrt",
        "subtract",
        "tan",
        "tanh",
        "xor",
        "acos",
        "acosh",
        "asin",
        "asinh",
        "atan",
        "atanh",
        "cosh",
        "sinh",
    ];
    op.name() == "func.return" || CHEAP.iter().any(|n| op.is(n))
}

/// XLA's ComputationIsEmptyWithArrayRoot: only tuples and
/// get_tuple_elements of the parameter, with an array somewhere in the
/// result.
fn is_empty_with_array_root(func: Op) -> bool {
    let only_plumbing =
        func.body_ops().iter().all(|op| op.name() == "func.return" || op.is("tuple") || op.is("get_tuple_element"));
    fn has_array(t: &HloType) -> bool {
        match t {
            HloType::Tensor(_) => true,
            HloType::Tuple(items) => items.iter().any(has_array),
            _ => false,
        }
    }
    only_plumbing && func.return_values().iter().any(|v| has_array(&v.ty()))
}

/// `hlo.call` of `branch` with `operand`, in place of `c`'s results.
fn call_branch(c: Op, branch: &str, operand: Value) -> Result<Op> {
    let types: Vec<HloType> = c.results().iter().map(|r| r.ty()).collect();
    let b = Builder::before(c);
    b.create("hlo.call", &[operand], &types, &[("to_apply", b.symbol_ref(branch))])
}

/// XLA's TryRemoveConditional.
fn try_remove(module: Op, c: Op, effects: &mut SideEffects, released: &mut Vec<String>) -> Result<bool> {
    if effects.op(c) {
        return Ok(false);
    }
    let Some(names) = c.symbol_list_attr("branch_computations") else { return Ok(false) };
    let index = c.operand(0);
    let pred = index.ty().tensor().is_some_and(|t| t.elem.is_pred());
    let taken = if names.len() == 1 {
        Some(0)
    } else if index.defined_by("constant").is_some() {
        match crate::constant::splat(index) {
            Some(crate::constant::Scalar::Bool(b)) if pred => Some(if b { 0 } else { 1 }),
            Some(crate::constant::Scalar::Int(i)) if !pred => {
                Some(if i < 0 || i >= names.len() as i128 { names.len() - 1 } else { i as usize })
            }
            _ => None,
        }
    } else {
        None
    };
    if let Some(k) = taken {
        let call = call_branch(c, &names[k], c.operand(1 + k))?;
        for i in 0..c.num_results() {
            c.replace_result_uses(i, call.result(i));
        }
        released.extend(c.symbol_uses());
        c.erase();
        inline_call(module, call)?;
        return Ok(true);
    }
    if names.len() != 2 || !pred || c.has_attr("hlo.layout") {
        return Ok(false);
    }
    let Some(funcs) = branches(module, c) else { return Ok(false) };
    if funcs.iter().any(|f| !f.body_ops().into_iter().all(is_cheap)) {
        return Ok(false);
    }
    if funcs.iter().any(|f| is_empty_with_array_root(*f)) {
        return Ok(false);
    }
    fn selectable(t: &HloType) -> bool {
        match t {
            HloType::Tensor(_) | HloType::Token => true,
            HloType::Tuple(items) => items.iter().all(selectable),
            HloType::Other(_) => false,
        }
    }
    if !c.results().iter().all(|r| selectable(&r.ty())) {
        return Ok(false);
    }
    let on_true = call_branch(c, &names[0], c.operand(1))?;
    let on_false = call_branch(c, &names[1], c.operand(2))?;
    let b = Builder::before(c);
    let mut results = Vec::with_capacity(c.num_results());
    for i in 0..c.num_results() {
        results.push(select(&b, index, on_true.result(i), on_false.result(i))?);
    }
    for (i, v) in results.iter().enumerate() {
        c.replace_result_uses(i, *v);
    }
    released.extend(c.symbol_uses());
    c.erase();
    inline_call(module, on_false)?;
    inline_call(module, on_true)?;
    Ok(true)
}

/// `pred ? t : f` for any value type: select on arrays (the scalar pred
/// broadcast as needed), after_all on tokens, element-wise on tuples.
fn select(b: &Builder, pred: Value, t: Value, f: Value) -> Result<Value> {
    match f.ty() {
        HloType::Token => b.value("hlo.after_all", &[t, f], HloType::Token, &[]),
        HloType::Tensor(ty) => {
            let p = if ty.rank() == 0 { pred } else { b.broadcast(pred, &[], &ty.dims)? };
            b.select(p, t, f)
        }
        HloType::Tuple(items) => {
            let mut elements = Vec::with_capacity(items.len());
            for i in 0..items.len() {
                let (ti, fi) = (b.get_tuple_element(t, i)?, b.get_tuple_element(f, i)?);
                elements.push(select(b, pred, ti, fi)?);
            }
            b.tuple(&elements)
        }
        HloType::Other(t) => Err(bug(format!("select of unsupported type {t}"))),
    }
}

/// XLA's TryRemoveUnusedConditionalOperands for branch computation `name`
/// called by `calling` conditionals.
fn remove_unused_operands(module: Op, name: &str, calling: &[Op]) -> Result<bool> {
    let Some(func) = computation::lookup(module, name) else { return Ok(false) };
    let Some(&param) = func.arguments().first() else { return Ok(false) };
    if func.arguments().len() != 1 || func.return_values().iter().any(|v| v.same_as(param)) {
        return Ok(false);
    }
    let HloType::Tuple(items) = param.ty() else { return Ok(false) };
    let mut used: BTreeSet<usize> = BTreeSet::new();
    for user in param.users() {
        match user.int_attr("index").filter(|_| user.is("get_tuple_element")) {
            Some(i) => {
                used.insert(i as usize);
            }
            None => return Ok(false),
        }
    }
    if used.len() == items.len() {
        return Ok(false);
    }
    let kept: Vec<usize> = used.into_iter().collect();
    let old_to_new: HashMap<usize, usize> = kept.iter().enumerate().map(|(n, &o)| (o, n)).collect();
    let new_ty = HloType::Tuple(kept.iter().map(|&i| items[i].clone()).collect());
    let copy = clone_function(module, func, name)?;
    let block = copy.region_block(0).ok_or_else(|| bug("function without a body".into()))?;
    let raw = new_ty.to_mlir(copy.context()).ok_or_else(|| bug(format!("bad type {new_ty}")))?;
    let new_param = Value(unsafe { mlirBlockAddArgument(block, raw, copy.location()) });
    let old_param = copy.arguments()[0];
    for user in old_param.users() {
        let i = user.int_attr("index").unwrap_or(0) as usize;
        user.set_operand(0, new_param);
        user.set_i64_attr("index", old_to_new[&i] as i64);
    }
    unsafe { mlirBlockEraseArgument(block, 0) };
    computation::update_function_type(copy);
    let copy_name = computation::name(copy);
    for &c in calling {
        let Some(names) = c.symbol_list_attr("branch_computations") else { continue };
        let mut new_names = names.clone();
        for (k, n) in names.iter().enumerate() {
            if n != name {
                continue;
            }
            let b = Builder::before(c);
            let old = c.operand(1 + k);
            let elements: Vec<Value> = kept.iter().map(|&i| element(&b, old, i)).collect::<Result<_>>()?;
            let t = b.tuple(&elements)?;
            c.set_operand(1 + k, t);
            new_names[k] = copy_name.clone();
        }
        let list: Vec<_> = new_names.iter().map(|n| rxla_ir::attrs::symbol_ref(c.context(), n)).collect();
        c.set_attr_raw("branch_computations", rxla_ir::attrs::array(c.context(), &list));
    }
    Ok(true)
}
