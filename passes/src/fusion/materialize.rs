//! The IR surgery of fusion: a [`View`] becomes a fused computation and
//! the `hlo.fusion` calling it ([`materialize`]), and a computation's op
//! order is made topological again afterwards.

use super::{Functions, Src, View};
use mlir_sys::*;
use rxla_ir::{
    builder::Builder,
    computation,
    hlo_analysis::{layout_attr, parsed_type, FusionKind, FxHashMap, FxHashSet},
    op::{Op, Value},
    pass::PassError,
};

/// Creates the fused computation of `view` and an `hlo.fusion` of `kind`
/// calling it, right before `before`; returns the fusion op. Uses of the
/// old values are not touched.
pub fn materialize(funcs: &mut Functions, view: &View, kind: FusionKind, before: Op) -> Result<Op, PassError> {
    materialize_with_clones(funcs, view, kind, before, &[]).map(|(fusion, _)| fusion)
}

/// [`materialize`], also returning the fused computation's ops (node `k`'s
/// at `k`). Ops of the view that live in one of the `donors` (fused
/// computations about to be erased with their fusions) are moved into the
/// new fused computation instead of copied: the same ops, in the same
/// order, with the same operands, so the module is the same.
pub fn materialize_with_clones(
    funcs: &mut Functions,
    view: &View,
    kind: FusionKind,
    before: Op,
    donors: &[Op],
) -> Result<(Op, Vec<Op>), PassError> {
    let context = before.context();
    let (param_types, result_types) = signature(context, view)?;
    let name = funcs.fresh_name("fused_computation");
    let (func, b, args) = create_fused_function(funcs.module, &name, &param_types, &result_types)?;
    funcs.by_name.insert(name.clone(), func);
    funcs.created.insert(name.clone());
    set_param_layouts(func, view)?;
    let mut clones: Vec<Op> = Vec::with_capacity(view.nodes.len());
    let value = |s: Src, clones: &[Op]| match s {
        Src::Param(i) => args[i],
        Src::Node(k, r) => clones[k].result(r),
    };
    for node in &view.nodes {
        let op = take_or_clone(node.op, donors);
        for (i, s) in node.inputs.iter().enumerate() {
            op.set_operand(i, value(*s, &clones));
        }
        b.insert(op.raw());
        clones.push(op);
    }
    let outputs: Vec<Value> = view.roots.iter().map(|s| value(*s, &clones)).collect();
    b.ret(&outputs)?;
    let fusion = create_fusion(funcs, view, kind, &name, &result_types, before)?;
    Ok((fusion, clones))
}

/// Makes `view`, the fusion of `producer` (whose results are `results`)
/// into `c` (whose view is `consumer`; `View::fuse(producer, results,
/// consumer, &[])`), by growing a fused computation that already holds one
/// side's ops instead of building the whole computation afresh: `c`'s own
/// computation, or `donor`, the producer's (when the producer is being
/// fused into its last consumer). The larger side stays where it is and
/// the other side's ops move or are copied in, so a fusion step costs the
/// smaller side's size: a chain fused op by op would otherwise cost its
/// length squared. (XLA's `FuseInstruction` copies the producer into the
/// consumer's computation; merging two fusions copies one of them.)
///
/// The module is the one [`materialize_with_clones`] makes: the
/// computation gets the next fresh name and moves to the end of the
/// module, its parameters are the view's, its ops in the view's order.
/// Only computations this pass run created are grown (they belong to one
/// fusion); `None`, with nothing changed, when neither side has one whose
/// ops and signature are its side's view.
pub fn fuse_into_owned(
    funcs: &mut Functions,
    view: &View,
    producer: &View,
    results: &[Value],
    consumer: &View,
    c: Op,
    donor: Option<Op>,
) -> Result<Option<(Op, Vec<Op>)>, PassError> {
    let offset = producer.nodes.len();
    let same_ops = view.nodes.len() == offset + consumer.nodes.len()
        && view.nodes.iter().zip(producer.nodes.iter().chain(&consumer.nodes)).all(|(a, b)| a.op == b.op);
    if !same_ops || view.roots.len() != consumer.roots.len() {
        return Ok(None);
    }
    let own = funcs.owned_callee(c);
    let consumer_side = own.map(|f| (f, Side::Consumer, consumer.nodes.len()));
    let producer_side = donor.map(|f| (f, Side::Producer, offset));
    let mut sides: Vec<(Op, Side, usize)> = [consumer_side, producer_side].into_iter().flatten().collect();
    sides.sort_by_key(|s| std::cmp::Reverse(s.2));
    // The position of each of the view's parameters.
    let position: FxHashMap<Value, usize> = view.params.iter().enumerate().map(|(i, v)| (*v, i)).collect();
    for (func, side, _) in sides {
        let (kept, part) = match side {
            Side::Consumer => (offset..view.nodes.len(), consumer),
            Side::Producer => (0..offset, producer),
        };
        if !holds(func, part) {
            continue;
        }
        // Where each of the computation's arguments goes: a parameter of
        // the view, or (a consumer's read of the producer's result) the
        // producer's root.
        let old_args: Option<Vec<Src>> = part
            .params
            .iter()
            .map(|v| match results.iter().position(|r| *r == *v).filter(|_| side == Side::Consumer) {
                Some(r) => match producer.roots[r] {
                    Src::Param(i) => position.get(&producer.params[i]).map(|&p| Src::Param(p)),
                    node => Some(node),
                },
                None => position.get(v).map(|&p| Src::Param(p)),
            })
            .collect();
        let Some(old_args) = old_args else { continue };
        // The other side's ops move in when their computation is about to
        // be erased, else are copied.
        let donors: Vec<Op> = match side {
            Side::Consumer => donor.into_iter().collect(),
            Side::Producer => own.into_iter().collect(),
        };
        let made = grow(funcs, view, func, kept, old_args, &donors, c)?;
        return Ok(Some(made));
    }
    Ok(None)
}

/// Which side of a producer-consumer fusion a computation holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Producer,
    Consumer,
}

/// True if `func`'s body is `part`'s ops in order, its arguments `part`'s
/// parameters and its outputs `part`'s roots.
fn holds(func: Op, part: &View) -> bool {
    let (Some(block), Some(terminator)) = (func.region_block(0), func.terminator()) else {
        return false;
    };
    let args = func.arguments();
    if args.len() != part.params.len() {
        return false;
    }
    let mut next = unsafe { Some(Op::from_raw(mlirBlockGetFirstOperation(block))) };
    for node in &part.nodes {
        if next != Some(node.op) {
            return false;
        }
        next = node.op.next();
    }
    let value = |s: Src| match s {
        Src::Param(j) => args[j],
        Src::Node(k, r) => part.nodes[k].op.result(r),
    };
    next == Some(terminator)
        && terminator.num_operands() == part.roots.len()
        && part.roots.iter().enumerate().all(|(i, s)| terminator.operand(i) == value(*s))
}

/// Grows `func`, which holds the view's nodes `kept`, into the view's
/// fused computation (see [`fuse_into_owned`]); `old_args[j]` is what the
/// view reads where `func` read its argument `j`. Creates the fusion
/// before `before`.
fn grow(
    funcs: &mut Functions,
    view: &View,
    func: Op,
    kept: std::ops::Range<usize>,
    old_args: Vec<Src>,
    donors: &[Op],
    before: Op,
) -> Result<(Op, Vec<Op>), PassError> {
    let bug = |what: &str| PassError(format!("internal error: {what}"));
    let context = before.context();
    let block = func.region_block(0).ok_or_else(|| bug("a computation without a block"))?;
    let terminator = func.terminator().ok_or_else(|| bug("a computation without a terminator"))?;
    let (param_types, result_types) = signature(context, view)?;
    let old_count = func.arguments().len();
    let location = funcs.module.location();
    let new_args: Vec<Value> =
        param_types.iter().map(|t| Value(unsafe { mlirBlockAddArgument(block, *t, location) })).collect();
    // The view's ops: the kept ones where they are, the others before the
    // first kept op or before the terminator, in the view's order.
    let first_kept = if kept.is_empty() { terminator } else { view.nodes[kept.start].op };
    let mut ops: Vec<Op> = Vec::with_capacity(view.nodes.len());
    for (k, node) in view.nodes.iter().enumerate() {
        if kept.contains(&k) {
            ops.push(node.op);
            continue;
        }
        let op = take_or_clone(node.op, donors);
        for (i, s) in node.inputs.iter().enumerate() {
            let v = match *s {
                Src::Param(p) => new_args[p],
                Src::Node(j, r) => ops[j].result(r),
            };
            op.set_operand(i, v);
        }
        let at = if k < kept.start { first_kept } else { terminator };
        unsafe { mlirBlockInsertOwnedOperationBefore(block, at.raw(), op.raw()) };
        ops.push(op);
    }
    let value = |s: Src| match s {
        Src::Param(p) => new_args[p],
        Src::Node(k, r) => ops[k].result(r),
    };
    let args = func.arguments();
    for (old, src) in args.iter().zip(old_args) {
        old.replace_all_uses_with(value(src));
    }
    let outputs: Vec<Value> = view.roots.iter().map(|s| value(*s)).collect();
    terminator.set_operands(&outputs);
    for _ in 0..old_count {
        unsafe { mlirBlockEraseArgument(block, 0) };
    }

    let old_name = computation::name(func);
    let name = funcs.fresh_name("fused_computation");
    unsafe {
        func.set_attr_raw("function_type", rxla_ir::attrs::function_type(context, &param_types, &result_types));
        func.set_attr_raw("sym_name", mlirStringAttrGet(context, rxla_ir::op::string_ref(&name)));
        let body = funcs.module.region_block(0).ok_or_else(|| bug("module without a body"))?;
        mlirOperationRemoveFromParent(func.raw());
        mlirBlockAppendOwnedOperation(body, func.raw());
    }
    func.remove_attr("arg_attrs");
    set_param_layouts(func, view)?;
    // The old name stays in `created`, so that erasing the fusion that
    // called it forgets it without finding a computation to erase.
    funcs.by_name.remove(&old_name);
    funcs.by_name.insert(name.clone(), func);
    funcs.created.insert(name.clone());
    let fusion = create_fusion(funcs, view, view.kind(), &name, &result_types, before)?;
    Ok((fusion, ops))
}

/// `op` itself, taken out of its block, when it lives in one of the
/// `donors` (fused computations about to be erased); else a copy.
fn take_or_clone(op: Op, donors: &[Op]) -> Op {
    if !donors.is_empty() && op.parent().is_some_and(|f| donors.contains(&f)) {
        unsafe { mlirOperationRemoveFromParent(op.raw()) };
        op
    } else {
        op.clone_detached()
    }
}

/// Parameters keep their operands' layouts.
fn set_param_layouts(func: Op, view: &View) -> Result<(), PassError> {
    let layouts: Vec<Option<MlirAttribute>> = view.params.iter().map(|v| layout_attr(*v)).collect();
    if layouts.iter().any(Option::is_some) {
        let context = func.context();
        let dicts: Vec<MlirAttribute> = layouts
            .iter()
            .map(|l| {
                let entries: Vec<(&str, MlirAttribute)> = l.iter().map(|a| ("hlo.layout", *a)).collect();
                rxla_ir::attrs::dictionary(context, &entries)
            })
            .collect();
        func.set_attr_raw("arg_attrs", rxla_ir::attrs::array(context, &dicts));
    }
    Ok(())
}

/// An `hlo.fusion` of `kind` calling `name` on the view's parameters,
/// right before `before`, with the view's output layout.
fn create_fusion(
    funcs: &mut Functions,
    view: &View,
    kind: FusionKind,
    name: &str,
    result_types: &[MlirType],
    before: Op,
) -> Result<Op, PassError> {
    let context = before.context();
    let bug = |what: &str| PassError(format!("internal error: {what}"));
    let fusion = unsafe {
        let named = [
            MlirNamedAttribute {
                name: mlirIdentifierGet(context, rxla_ir::op::string_ref("kind")),
                attribute: funcs.kind_attr(context, kind)?,
            },
            MlirNamedAttribute {
                name: mlirIdentifierGet(context, rxla_ir::op::string_ref("calls")),
                attribute: mlirFlatSymbolRefAttrGet(context, rxla_ir::op::string_ref(name)),
            },
        ];
        let operands: Vec<MlirValue> = view.params.iter().map(|v| v.0).collect();
        let mut state = mlirOperationStateGet(rxla_ir::op::string_ref("hlo.fusion"), before.location());
        mlirOperationStateAddOperands(&mut state, operands.len() as isize, operands.as_ptr());
        mlirOperationStateAddResults(&mut state, result_types.len() as isize, result_types.as_ptr());
        mlirOperationStateAddAttributes(&mut state, named.len() as isize, named.as_ptr());
        let op = mlirOperationCreate(&mut state);
        if op.ptr.is_null() {
            return Err(bug("could not create a fusion"));
        }
        mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before.raw()), before.raw(), op);
        Op::from_raw(op)
    };
    match view.output_layout() {
        Some(Some(layout)) => fusion.set_attr_raw("hlo.layout", layout),
        Some(None) => {}
        None => return Err(bug("fusion outputs with mixed layouts")),
    }
    Ok(fusion)
}

/// The MLIR types of a view's parameters and of its outputs: the fused
/// computation's signature.
fn signature(context: MlirContext, view: &View) -> Result<(Vec<MlirType>, Vec<MlirType>), PassError> {
    let params = view.params.iter().map(|v| parsed_type(context, *v)).collect::<Result<_, _>>()?;
    let results = view.roots.iter().map(|s| parsed_type(context, view.src_value(*s))).collect::<Result<_, _>>()?;
    Ok((params, results))
}

/// A private function `name` with these parameter and result types at the
/// end of the module, with its builder and arguments: what
/// `computation::create_function_named` makes, from MLIR types.
fn create_fused_function(
    module: Op,
    name: &str,
    params: &[MlirType],
    results: &[MlirType],
) -> Result<(Op, Builder, Vec<Value>), PassError> {
    let bug = |what: &str| PassError(format!("internal error: {what}"));
    let context = module.context();
    let location = module.location();
    let body = module.region_block(0).ok_or_else(|| bug("module without a body"))?;
    let func = unsafe {
        let attr = |key: &str, attribute: MlirAttribute| MlirNamedAttribute {
            name: mlirIdentifierGet(context, rxla_ir::op::string_ref(key)),
            attribute,
        };
        let named = [
            attr("sym_name", mlirStringAttrGet(context, rxla_ir::op::string_ref(name))),
            attr("function_type", rxla_ir::attrs::function_type(context, params, results)),
            attr("sym_visibility", mlirStringAttrGet(context, rxla_ir::op::string_ref("private"))),
        ];
        let locations = vec![location; params.len()];
        let block = mlirBlockCreate(params.len() as isize, params.as_ptr(), locations.as_ptr());
        let region = mlirRegionCreate();
        mlirRegionAppendOwnedBlock(region, block);
        let mut state = mlirOperationStateGet(rxla_ir::op::string_ref("func.func"), location);
        mlirOperationStateAddAttributes(&mut state, named.len() as isize, named.as_ptr());
        let mut regions = [region];
        mlirOperationStateAddOwnedRegions(&mut state, 1, regions.as_mut_ptr());
        let func = mlirOperationCreate(&mut state);
        if func.ptr.is_null() {
            return Err(bug("could not create a fused computation"));
        }
        mlirBlockAppendOwnedOperation(body, func);
        Op::from_raw(func)
    };
    let block = func.region_block(0).ok_or_else(|| bug("a function without a block"))?;
    let builder = Builder::at_end(block, context, location);
    let args = func.arguments();
    Ok((func, builder, args))
}

/// Restores a valid (topological) op order in `func`'s body after a fusion
/// moved definitions below some of their uses, keeping the current order
/// wherever it is valid.
pub fn restore_topological_order(func: Op) {
    let Some(terminator) = func.terminator() else {
        return;
    };
    let ops: Vec<Op> = func.body_ops().into_iter().filter(|op| *op != terminator).collect();
    let position: FxHashMap<Op, usize> = ops.iter().enumerate().map(|(i, op)| (*op, i)).collect();
    let valid = ops
        .iter()
        .enumerate()
        .all(|(i, op)| op.operands().iter().all(|v| v.op().and_then(|d| position.get(&d)).is_none_or(|&p| p < i)));
    if valid {
        return;
    }
    // Kahn's algorithm, ready ops taken in their current order.
    let mut pending: Vec<usize> = vec![0; ops.len()];
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); ops.len()];
    for (i, op) in ops.iter().enumerate() {
        let mut deps: FxHashSet<usize> = FxHashSet::default();
        for v in op.operands() {
            if let Some(&p) = v.op().and_then(|d| position.get(&d)) {
                deps.insert(p);
            }
        }
        pending[i] = deps.len();
        for p in deps {
            users[p].push(i);
        }
    }
    let mut ready: std::collections::BinaryHeap<std::cmp::Reverse<usize>> =
        (0..ops.len()).filter(|&i| pending[i] == 0).map(std::cmp::Reverse).collect();
    let mut order = Vec::with_capacity(ops.len());
    while let Some(std::cmp::Reverse(i)) = ready.pop() {
        order.push(i);
        for &u in &users[i] {
            pending[u] -= 1;
            if pending[u] == 0 {
                ready.push(std::cmp::Reverse(u));
            }
        }
    }
    if order.len() != ops.len() {
        // A cycle: the fusion checks exclude it; leave the order alone.
        return;
    }
    for i in order {
        ops[i].move_before(terminator);
    }
}
