//! The IR surgery of fusion: a [`View`] becomes a fused computation and
//! the `hlo.fusion` calling it ([`materialize`]), and a computation's op
//! order is made topological again afterwards.

use super::{Functions, Src, View};
use mlir_sys::*;
use rxla_ir::{
    builder::Builder,
    hlo_analysis::{layout_attr, parsed_type, FusionKind, FxHashMap, FxHashSet},
    op::{Op, Value},
    pass::PassError,
};

/// Creates the fused computation of `view` and an `hlo.fusion` of `kind`
/// calling it, right before `before`; returns the fusion op. Uses of the
/// old values are not touched.
pub fn materialize(funcs: &mut Functions, view: &View, kind: FusionKind, before: Op) -> Result<Op, PassError> {
    materialize_with_clones(funcs, view, kind, before).map(|(fusion, _)| fusion)
}

/// [`materialize`], also returning the fused computation's ops (node `k`'s
/// at `k`): copies of the view's ops.
pub fn materialize_with_clones(
    funcs: &mut Functions,
    view: &View,
    kind: FusionKind,
    before: Op,
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
        let op = node.op.clone_detached();
        for (i, s) in node.inputs.iter().enumerate() {
            op.set_operand(i, value(*s, &clones));
        }
        b.insert(op.raw());
        clones.push(op);
    }
    let outputs: Vec<Value> = view.roots.iter().map(|s| value(*s, &clones)).collect();
    b.ret(&outputs)?;
    let fusion = create_fusion(funcs, view, &view.params, kind, &name, &result_types, before)?;
    Ok((fusion, clones))
}

/// Builds `view`, a fusion planned to replace `root` (the view's outputs
/// are `root`'s results, in order): an `hlo.fusion` right before `root`
/// that takes `root`'s uses, and its fused computation. The view's
/// parameters are read through `replaced`, which maps the results of the
/// roots replaced so far to their fusions' (and gets `root`'s). Ops for
/// which `movable` holds (only this fusion holds them) move into the fused
/// computation; the others are copied. Nothing is erased.
pub fn build_planned(
    funcs: &mut Functions,
    view: &View,
    root: Op,
    replaced: &mut FxHashMap<Value, Value>,
    movable: &impl Fn(Op) -> bool,
) -> Result<Op, PassError> {
    let context = root.context();
    let (param_types, result_types) = signature(context, view)?;
    let operands: Vec<Value> = view.params.iter().map(|v| replaced.get(v).copied().unwrap_or(*v)).collect();
    let name = funcs.fresh_name("fused_computation");
    let (func, b, args) = create_fused_function(funcs.module, &name, &param_types, &result_types)?;
    funcs.by_name.insert(name.clone(), func);
    funcs.created.insert(name.clone());
    set_param_layouts(func, view)?;
    let fusion = create_fusion(funcs, view, &operands, view.kind(), &name, &result_types, root)?;
    // The uses move before any op does: `root` itself may move in.
    for r in 0..root.num_results() {
        let (old, new) = (root.result(r), fusion.result(r));
        old.replace_all_uses_with(new);
        replaced.insert(old, new);
    }
    let mut ops: Vec<Op> = Vec::with_capacity(view.nodes.len());
    for node in &view.nodes {
        let op = if movable(node.op) {
            unsafe { mlirOperationRemoveFromParent(node.op.raw()) };
            node.op
        } else {
            node.op.clone_detached()
        };
        for (i, s) in node.inputs.iter().enumerate() {
            let v = match *s {
                Src::Param(p) => args[p],
                Src::Node(k, r) => ops[k].result(r),
            };
            op.set_operand(i, v);
        }
        b.insert(op.raw());
        ops.push(op);
    }
    let outputs: Vec<Value> = view
        .roots
        .iter()
        .map(|s| match *s {
            Src::Param(p) => args[p],
            Src::Node(k, r) => ops[k].result(r),
        })
        .collect();
    b.ret(&outputs)?;
    Ok(fusion)
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

/// An `hlo.fusion` of `kind` calling `name` on `operands` (the view's
/// parameters, or what replaced them), right before `before`, with the
/// view's output layout.
fn create_fusion(
    funcs: &mut Functions,
    view: &View,
    operands: &[Value],
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
        let operands: Vec<MlirValue> = operands.iter().map(|v| v.0).collect();
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
