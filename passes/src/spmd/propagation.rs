//! `sharding-propagation`: gives every instruction of the entry
//! computation a sharding, from those the program states (parameters,
//! `Sharding` custom calls, the ROOT) forward through [`rules::infer`]
//! (XLA's ShardingPropagation, forward only: an instruction without a
//! stated sharding takes the one its operands imply).
//!
//! The pass writes what it found as `hlo.sharding` on every op; the
//! partitioner runs the same analysis itself, so running this pass first
//! only makes the decisions visible (`hlo-opt --passes=sharding-propagation`).

use std::collections::HashMap;

use melior::ir::{Location, OperationRef};
use mlir_sys::{
    mlirAttributeIsADictionary, mlirAttributeIsAString, mlirDictionaryAttrGetElementByName, mlirStringAttrGetValue,
    mlirValueGetLocation, MlirAttribute, MlirLocation,
};
use rxla_ir::{
    computation,
    op::{string, string_ref, Op, Value},
    pass::{emit_error, HloPass, PassError, PassOptions},
    types::HloType,
};
use rxla_translate::sharding as sharding_attr;

use super::rules;
use super::tiles::{leaf_count, Placement};
use rxla_hlo_text::attrs::Sharding;

/// The placement of every value of `entry` (parameters and op results).
pub struct Propagation {
    pub places: HashMap<Value, Placement>,
}

impl Propagation {
    pub fn place(&self, v: Value) -> Placement {
        self.places.get(&v).cloned().unwrap_or(Placement::Whole)
    }
}

/// The `hlo.sharding` of an op's result or of a parameter, read.
pub fn stated(
    attr: Option<MlirAttribute>,
    ty: &HloType,
    partitions: usize,
    what: &str,
) -> Result<Option<Placement>, PassError> {
    let Some(attr) = attr else { return Ok(None) };
    // The attribute's text only for the messages.
    let text = || rxla_ir::op::attr_to_string(attr);
    let sharding = sharding_attr::from_attr(attr)
        .ok_or_else(|| PassError(format!("{what}: cannot read the sharding {}", text())))?;
    Placement::of(ty, Some(&sharding), partitions)
        .map(Some)
        .map_err(|e| PassError(format!("{what}: the sharding {} cannot be partitioned: {e}", text())))
}

/// Reports `e` at `location` (an instruction's) and returns the pass's
/// error, which points there.
pub fn located(location: MlirLocation, e: PassError) -> PassError {
    // SAFETY: the location belongs to a live op or value.
    emit_error(unsafe { Location::from_raw(location) }, &e.0);
    PassError(format!("{} (see the error at the instruction)", e.0))
}

/// Runs the analysis over `entry` for `partitions` devices.
pub fn propagate(entry: Op, partitions: usize) -> Result<Propagation, PassError> {
    propagate_from(entry, partitions, None)
}

/// [`propagate`] over any computation, its parameters placed as `params`
/// say (else as their `hlo.sharding` attributes do).
pub fn propagate_from(entry: Op, partitions: usize, params: Option<&[Placement]>) -> Result<Propagation, PassError> {
    let mut places = HashMap::new();
    for (i, arg) in entry.arguments().into_iter().enumerate() {
        let ty = arg.ty();
        if let Some(p) = params.and_then(|ps| ps.get(i)) {
            places.insert(arg, p.clone());
            continue;
        }
        // SAFETY: a live block argument.
        let at = unsafe { mlirValueGetLocation(arg.0) };
        let place = stated(arg.attr("hlo.sharding"), &ty, partitions, &format!("parameter {i}"))
            .map_err(|e| located(at, e))?
            .unwrap_or_else(|| Placement::replicated(&ty, partitions));
        places.insert(arg, place);
    }
    for op in entry.body_ops() {
        if op.num_results() == 0 {
            continue;
        }
        let operands: Vec<Placement> = op
            .operands()
            .into_iter()
            .map(|v| places.get(&v).cloned().unwrap_or_else(|| Placement::replicated(&v.ty(), partitions)))
            .collect();
        let stated = if op.num_results() == 1 {
            stated(op.attr_raw("hlo.sharding"), &op.result_type(0), partitions, &format!("'{}'", op.name()))
                .map_err(|e| located(op.location(), e))?
        } else {
            None
        };
        let results = match stated {
            Some(p) => vec![p],
            None => infer_through_calls(op, &operands, partitions)?,
        };
        for (v, p) in op.results().into_iter().zip(results) {
            places.insert(v, p);
        }
    }
    // Backward, for values any partition can make its block of without
    // communication (a broadcast, an iota): one its elementwise users all
    // want instead of a whole one each user would cut its block from.
    for op in entry.body_ops().into_iter().rev() {
        if !(op.is("broadcast") || op.is("iota")) || op.num_results() != 1 || op.has_attr("hlo.sharding") {
            continue;
        }
        let v = op.result(0);
        if places.get(&v).and_then(Placement::tiles).is_none_or(|t| !t.is_replicated()) {
            continue;
        }
        let mut wanted: Option<Placement> = None;
        let mut agreed = true;
        for user in v.users() {
            let place = (user.num_results() == 1 && rules::is_elementwise(user))
                .then(|| places.get(&user.result(0)).cloned())
                .flatten();
            match (place, &wanted) {
                (Some(p), None) => wanted = Some(p),
                (Some(p), Some(w)) if &p == w => {}
                _ => agreed = false,
            }
        }
        if let (true, Some(p)) = (agreed, wanted) {
            places.insert(v, p);
        }
    }
    Ok(Propagation { places })
}

/// [`rules::infer`], and through the computations control flow runs: a
/// `call` gives what its callee returns for its operands' placements, a
/// `while` keeps its state's placement, a `conditional` gives what its
/// first branch returns (as the partitioner makes them).
fn infer_through_calls(op: Op, operands: &[Placement], partitions: usize) -> Result<Vec<Placement>, PassError> {
    if operands.contains(&Placement::Manual) {
        return Ok(rules::infer(op, operands, partitions));
    }
    let callee = |attr: &str| -> Option<Op> {
        let name = op.symbol_attr(attr)?;
        computation::lookup(op.parent_module()?, &name)
    };
    let returned = |func: Op, params: &[Placement]| -> Result<Vec<Placement>, PassError> {
        let found = propagate_from(func, partitions, Some(params))?;
        Ok(func.return_values().into_iter().map(|v| found.place(v)).collect())
    };
    Ok(match op.opcode().as_str() {
        "call" => match callee("to_apply") {
            Some(f) => returned(f, operands)?,
            None => rules::infer(op, operands, partitions),
        },
        "while" => match (callee("body"), operands.first()) {
            (Some(body), Some(init)) => vec![loop_state(body, init, partitions)?],
            _ => operands.to_vec(),
        },
        "conditional" => match op.symbol_list_attr("branch_computations").and_then(|b| b.first().cloned()) {
            Some(first) if operands.len() > 1 => {
                match op.parent_module().and_then(|m| computation::lookup(m, &first)) {
                    Some(f) => returned(f, &operands[1..2])?,
                    None => rules::infer(op, operands, partitions),
                }
            }
            _ => rules::infer(op, operands, partitions),
        },
        _ => rules::infer(op, operands, partitions),
    })
}

/// The placement a `while` keeps its state in: its init's, except that an
/// element the init has whole and the body returns split (an output
/// buffer a scan writes block by block) is kept split; a partition cuts
/// its block of a whole init without communication, and the body then
/// writes it without gathering every step.
pub fn loop_state(body: Op, init: &Placement, partitions: usize) -> Result<Placement, PassError> {
    let Placement::Tuple(items) = init else { return Ok(init.clone()) };
    let found = propagate_from(body, partitions, Some(std::slice::from_ref(init)))?;
    let Some(Placement::Tuple(returned)) = body.return_values().first().map(|v| found.place(*v)) else {
        return Ok(init.clone());
    };
    if returned.len() != items.len() {
        return Ok(init.clone());
    }
    let state: Vec<Placement> = items
        .iter()
        .zip(&returned)
        .map(|(i, r)| match (i, r) {
            (Placement::Array(t), Placement::Array(u)) if t.is_replicated() && !u.is_replicated() => r.clone(),
            _ => i.clone(),
        })
        .collect();
    Ok(Placement::Tuple(state))
}

/// The number of partitions the module is compiled for: its
/// `num_partitions` (1 if absent).
pub fn module_partitions(module: Op) -> usize {
    module_int(module, "num_partitions").unwrap_or(1).max(1) as usize
}

/// The number of replicas (`replica_count`, 1 if absent).
pub fn module_replicas(module: Op) -> usize {
    module_int(module, "replica_count").unwrap_or(1).max(1) as usize
}

fn module_int(module: Op, key: &str) -> Option<i64> {
    module_attribute(module, key)?.trim().parse().ok()
}

/// The module's HLO header attribute `key` (`hlo.module_attributes`), as
/// written (`frontend_attributes` gives the `{...}` text).
pub fn module_attribute(module: Op, key: &str) -> Option<String> {
    let dict = module.attr_raw("hlo.module_attributes")?;
    // SAFETY: a live attribute, only read.
    unsafe {
        if !mlirAttributeIsADictionary(dict) {
            return None;
        }
        let value = mlirDictionaryAttrGetElementByName(dict, string_ref(key));
        if value.ptr.is_null() || !mlirAttributeIsAString(value) {
            return None;
        }
        Some(string(mlirStringAttrGetValue(value)))
    }
}

#[derive(Clone, Debug)]
pub struct ShardingPropagation {
    partitions: usize,
}

impl HloPass for ShardingPropagation {
    const NAME: &'static str = "sharding-propagation";
    const DESCRIPTION: &'static str =
        "Give every entry instruction an hlo.sharding, forward from the stated ones (XLA's ShardingPropagation)";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &["num_partitions"])?;
        Ok(Self { partitions: options.int("num_partitions", 0)?.max(0) as usize })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        let n = if self.partitions > 0 { self.partitions } else { module_partitions(module) };
        let Some(entry) = computation::entry(module) else { return Ok(()) };
        if n <= 1 {
            return Ok(());
        }
        let found = propagate(entry, n)?;
        for op in entry.body_ops() {
            if op.num_results() != 1 || op.has_attr("hlo.sharding") {
                continue;
            }
            let mut sharding = found.place(op.result(0)).to_sharding();
            // A manual tuple (a call inside a shard_map) is manual leaf by leaf.
            if let (Some(Sharding::Leaf(leaf)), HloType::Tuple(_)) = (&sharding, op.result_type(0)) {
                sharding = Some(Sharding::Tuple(vec![leaf.clone(); leaf_count(&op.result_type(0))]));
            }
            if let Some(sharding) = sharding {
                let attr = sharding_attr::to_attr(op.context(), &sharding).ok_or_else(|| {
                    PassError(format!("internal error: the propagated sharding {sharding:?} does not verify"))
                })?;
                op.set_attr_raw("hlo.sharding", attr);
            }
        }
        Ok(())
    }
}
