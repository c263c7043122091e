//! Control flow, tuples, asynchronous wrappers and collectives.
//!
//! Decisions:
//!
//! - `while` evaluates `condition` then `body` until the condition is
//!   false; a loop that never ends never returns (as on XLA).
//! - `conditional` with a `pred` selector runs `true_computation` (or
//!   `branch_computations[0]`) on operand 1 when true, `false_computation`
//!   (`branch_computations[1]`) on operand 2 when false. With an `s32`
//!   index, an index outside `[0, N)` runs the last branch.
//! - `call`, `fusion` (`calls=`) and `async-start` (`calls=`) evaluate the
//!   called computation on the operands. Async and copy contexts are tuples
//!   laid out as XLA's shapes say: `async-start` gives
//!   `((operands...), result, context...)` (contexts are zeros),
//!   `async-update` returns its operand, `async-done` element 1;
//!   `copy-start` gives `(operand, operand, u32 0)`, `copy-done` element 0.
//! - `opt-barrier`, `domain` and `copy` return their operand,
//!   `add-dependency` its first operand, `after-all` a token.
//! - `custom-call` runs the sharding annotations (identities on one
//!   device) and LAPACK's FFI targets (`lapack_*_ffi`, see
//!   [`crate::ops::lapack`]); any other target is an error. `send`/`recv`
//!   (and their `-done`), `infeed` and `outfeed` are errors: the
//!   interpreter has no host transfers.
//! - `replica-id` / `partition-id` are the u32 ids the interpreter plays.
//! - Collectives exchange data between the replicas run by
//!   [`crate::replicated::run_replicated`]; a plain run is one replica.
//!   `replica_groups` (list or iota form; empty or absent: all of them in
//!   order) name replica ids, partition ids or global device ids
//!   (`replica * partitions + partition`) by XLA's `CollectiveOpGroupMode`:
//!   without `channel_id`, replicas within this partition; with one,
//!   partitions within this replica (all-to-all, collective-broadcast,
//!   collective-permute's pairs), replicas across all partitions
//!   (all-reduce, all-gather, reduce-scatter), or device ids with
//!   `use_global_device_ids=true`. `all-reduce` folds the group's
//!   values in group order with `to_apply` (a lone add/multiply/maximum/
//!   minimum/and/or/xor of the two parameters runs as a typed loop: floats
//!   of 16 bits or fewer are combined in f32 and rounded, maximum/minimum
//!   propagate NaN, integers wrap; any other reducer or type is called per
//!   element). `all-gather` concatenates the group's operands along
//!   `dimensions`, `reduce-scatter` keeps block `position in group` of the
//!   all-reduce, `all-to-all` with `dimensions={d}` splits along `d`, sends
//!   block `j` to group member `j` and concatenates what it receives along
//!   `d` (the tuple form without `dimensions` exchanges operand `j`).
//!   `collective-permute` returns the operand of the replica whose pair
//!   targets this one, zeros if none; `collective-broadcast` the operand
//!   of the group's first replica, zeros outside every group. A replica id
//!   outside the replica count, or a replica outside every group (other
//!   than for broadcast and permute), is an error; so is a result whose
//!   dims do not match the declared shape (for example an all-gather
//!   declared for four replicas run on one).
//!   The `-start`/`-done` forms compute at `-start`: `all-reduce-start`
//!   is the all-reduce, `all-gather-start` is `(operands, result)`,
//!   `collective-permute-start` is `(operand, result, contexts...)`, and
//!   `-done` returns the result.

use crate::{
    bail,
    error::{EvalError, Result},
    eval::{attr, attr_error, require, Interpreter},
    literal::{Data, Literal},
    ops::linalg::{array, array_shape},
    replicated,
};
use half::{bf16, f16};
use rxla_hlo_text::{
    ast::{Instruction, Shape},
    attrs, custom_calls,
};

pub fn evaluate(interp: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Option<Result<Literal>> {
    let op = inst.opcode.as_str();
    Some(match op {
        "tuple" => Ok(Literal::Tuple(operands.iter().map(|l| (*l).clone()).collect())),
        "get-tuple-element" => get_tuple_element(inst, operands),
        "call" => call(interp, inst, operands, "to_apply"),
        "fusion" => call(interp, inst, operands, "calls"),
        "while" => while_loop(interp, inst, operands),
        "conditional" => conditional(interp, inst, operands),
        "opt-barrier" | "domain" | "copy" | "async-update" | "add-dependency" | "all-reduce-done" => first(operands),
        "after-all" => Ok(Literal::Token),
        "copy-start" => copy_start(inst, operands),
        "copy-done" => element(operands, 0),
        "async-start" => async_start(interp, inst, operands),
        "async-done" | "all-gather-done" | "collective-permute-done" => element(operands, 1),
        "custom-call" => custom_call(inst, operands),
        "replica-id" => Ok(Literal::scalar(Data::U32(vec![interp.replica_id as u32]))),
        "partition-id" => Ok(Literal::scalar(Data::U32(vec![interp.partition_id as u32]))),
        // collective-reduce reduces within each replica group with to_apply,
        // every member receiving the group's result, as all-reduce does.
        "all-reduce" | "all-reduce-start" | "collective-reduce" => all_reduce(interp, inst, operands, &inst.shape),
        "all-gather" => all_gather(interp, inst, operands, &inst.shape),
        "all-gather-start" => start_tuple(inst, operands, |s| all_gather(interp, inst, operands, s)),
        "reduce-scatter" => reduce_scatter(interp, inst, operands),
        "all-to-all" => all_to_all(interp, inst, operands),
        "collective-permute" => collective_permute(interp, inst, operands, &inst.shape),
        "collective-permute-start" => start_tuple(inst, operands, |s| collective_permute(interp, inst, operands, s)),
        "collective-broadcast" => collective_broadcast(interp, inst, operands),
        "send" | "send-done" | "recv" | "recv-done" | "infeed" | "outfeed" => Err(EvalError::new(format!(
            "{op} is not supported by the interpreter (it has no host or device transfers)"
        ))),
        "ragged-all-to-all" => Err(EvalError::new("ragged-all-to-all is not supported by the interpreter")),
        _ => return None,
    })
}

fn first(operands: &[&Literal]) -> Result<Literal> {
    match operands.first() {
        Some(l) => Ok((*l).clone()),
        None => bail!("expected an operand"),
    }
}

/// Element `i` of the tuple operand 0.
fn element(operands: &[&Literal], i: usize) -> Result<Literal> {
    match operands.first() {
        Some(Literal::Tuple(e)) if i < e.len() => Ok(e[i].clone()),
        Some(Literal::Tuple(e)) => bail!("tuple has {} elements, no element {i}", e.len()),
        Some(_) => bail!("expected a tuple operand"),
        None => bail!("expected an operand"),
    }
}

fn get_tuple_element(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let index = attrs::integer(require(inst, "index")?).map_err(attr_error)?;
    if index < 0 {
        bail!("negative tuple index {index}");
    }
    element(operands, index as usize)
}

fn computation_attr(inst: &Instruction, key: &str) -> Result<String> {
    attrs::computation(require(inst, key)?).map_err(attr_error)
}

fn owned(operands: &[&Literal]) -> Vec<Literal> {
    operands.iter().map(|l| (*l).clone()).collect()
}

fn call(interp: &Interpreter, inst: &Instruction, operands: &[&Literal], key: &str) -> Result<Literal> {
    let name = computation_attr(inst, key)?;
    interp.call(&name, &owned(operands))
}

fn scalar_pred(lit: &Literal, what: &str) -> Result<bool> {
    match lit {
        Literal::Array { data: Data::Pred(v), .. } if v.len() == 1 => Ok(v[0]),
        _ => bail!("{what} must be a pred scalar"),
    }
}

fn while_loop(interp: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let condition = computation_attr(inst, "condition")?;
    let body = computation_attr(inst, "body")?;
    let mut state = first(operands)?;
    loop {
        let keep_going = interp.call(&condition, std::slice::from_ref(&state))?;
        if !scalar_pred(&keep_going, "the while condition")? {
            return Ok(state);
        }
        state = interp.call(&body, std::slice::from_ref(&state))?;
    }
}

fn conditional(interp: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let Some(selector) = operands.first() else { bail!("conditional needs a selector operand") };
    let branches = match attr(inst, "branch_computations") {
        Some(v) => attrs::computation_list(v).map_err(attr_error)?,
        None => vec![computation_attr(inst, "true_computation")?, computation_attr(inst, "false_computation")?],
    };
    if branches.is_empty() {
        bail!("conditional has no branches");
    }
    let branch = match selector {
        Literal::Array { data: Data::Pred(v), .. } if v.len() == 1 => {
            if v[0] {
                0
            } else {
                1
            }
        }
        Literal::Array { data: Data::S32(v), .. } if v.len() == 1 => {
            let n = branches.len() as i64;
            let i = v[0] as i64;
            if (0..n).contains(&i) {
                i as usize
            } else {
                branches.len() - 1
            }
        }
        _ => bail!("the conditional selector must be a pred or s32 scalar"),
    };
    if branch >= branches.len() {
        bail!("conditional has no branch {branch}");
    }
    let Some(arg) = operands.get(branch + 1) else { bail!("conditional has no operand for branch {branch}") };
    interp.call(&branches[branch], &[(*arg).clone()])
}

fn context_zeros(shape: &Shape, from: usize) -> Vec<Literal> {
    match shape {
        Shape::Tuple(e) => e.iter().skip(from).map(Literal::zeros_of_shape).collect(),
        _ => Vec::new(),
    }
}

fn copy_start(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let x = first(operands)?;
    let mut elements = vec![x.clone(), x];
    elements.extend(context_zeros(&inst.shape, 2));
    Ok(Literal::Tuple(elements))
}

fn async_start(interp: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let result = call(interp, inst, operands, "calls")?;
    let mut elements = vec![Literal::Tuple(owned(operands)), result];
    elements.extend(context_zeros(&inst.shape, 2));
    Ok(Literal::Tuple(elements))
}

fn custom_call(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let target = match attr(inst, "custom_call_target") {
        Some(v) => attrs::string(v).unwrap_or_else(|_| v.text.clone()),
        None => String::new(),
    };
    // Sharding annotations: the interpreter is one device.
    if custom_calls::SHARDING_TARGETS.contains(&target.as_str()) {
        let changed = "the program is partitioned by hand for several devices";
        // Shardy's edges of a shard_map body with several values: a tuple.
        if let (Shape::Tuple(elements), true) = (&inst.shape, operands.len() != 1) {
            let same = elements.len() == operands.len()
                && elements.iter().zip(operands).all(|(e, x)| x.dims() == crate::literal::static_dims(e.dims()));
            if !same {
                bail!("custom-call '{target}' changes the shapes: {changed}");
            }
            return Ok(Literal::Tuple(owned(operands)));
        }
        let [x] = operands else { bail!("custom-call '{target}' must have one operand") };
        if x.dims() != crate::literal::static_dims(inst.shape.dims()) {
            bail!("custom-call '{target}' changes the shape: {changed}");
        }
        return Ok((*x).clone());
    }
    if target == custom_calls::SHARDING_GROUP {
        return Ok(Literal::Tuple(Vec::new()));
    }
    if custom_calls::is_lapack_target(&target) {
        return crate::ops::lapack::evaluate(&target, inst, operands);
    }
    bail!("{}", rxla_hlo_text::custom_calls::unknown_target_message(&target, "the interpreter"))
}

/// `(operands, result, contexts...)` of the `-start` forms; `compute` gets
/// the declared result shape (element 1).
fn start_tuple(
    inst: &Instruction,
    operands: &[&Literal],
    compute: impl FnOnce(&Shape) -> Result<Literal>,
) -> Result<Literal> {
    let Shape::Tuple(e) = &inst.shape else { bail!("{} must produce a tuple", inst.opcode) };
    if e.len() < 2 {
        bail!("{} must produce at least (operand, result)", inst.opcode);
    }
    let operand_value = if operands.len() == 1 { operands[0].clone() } else { Literal::Tuple(owned(operands)) };
    let mut elements = vec![operand_value, compute(&e[1])?];
    elements.extend(context_zeros(&inst.shape, 2));
    Ok(Literal::Tuple(elements))
}

// ---------------------------------------------------------------------------
// Collectives

/// How a collective's `replica_groups` name its participants (XLA's
/// `CollectiveOpGroupMode`): replica ids within one partition, partition
/// ids within one replica, replica ids across all partitions, or global
/// device ids (`replica * partitions + partition`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GroupMode {
    CrossReplica,
    CrossPartition,
    CrossReplicaAndPartition,
    FlattenedId,
}

/// The mode of `inst`, as XLA's `GetCollectiveOpGroupMode` decides it:
/// no `channel_id` is cross-replica; with one, the ops that have a
/// `use_global_device_ids` field (all-reduce, all-gather, reduce-scatter)
/// are cross-replica-and-partition (false) or flattened ids (true), the
/// others (all-to-all, collective-broadcast) cross-partition.
fn group_mode(inst: &Instruction) -> Result<GroupMode> {
    let has_channel = attr(inst, "channel_id").is_some();
    let global = match attr(inst, "use_global_device_ids") {
        Some(v) => Some(attrs::boolean(v).map_err(attr_error)?),
        None if matches!(
            inst.opcode.as_str(),
            "all-reduce" | "all-reduce-start" | "all-gather" | "all-gather-start" | "reduce-scatter"
        ) =>
        {
            Some(false)
        }
        None => None,
    };
    Ok(match (has_channel, global) {
        (false, Some(true)) => bail!("use_global_device_ids=true needs a channel_id"),
        (false, _) => GroupMode::CrossReplica,
        (true, None) => GroupMode::CrossPartition,
        (true, Some(false)) => GroupMode::CrossReplicaAndPartition,
        (true, Some(true)) => GroupMode::FlattenedId,
    })
}

/// The devices taking part in `inst` with this device, as global device
/// ids in group order, and this device's position among them; `None` when
/// this device is in no group.
fn participants(interp: &Interpreter, inst: &Instruction) -> Result<Option<(Vec<usize>, usize)>> {
    let replicas = interp.options.replicas.max(1);
    let partitions = interp.options.partitions.max(1);
    let (me_r, me_p) = (interp.replica_id, interp.partition_id);
    let me = me_r * partitions + me_p;
    let mode = group_mode(inst)?;
    // What the group members are, and how many there are.
    let (what, count) = match mode {
        GroupMode::CrossReplica | GroupMode::CrossReplicaAndPartition => ("replicas", replicas),
        GroupMode::CrossPartition => ("partitions", partitions),
        GroupMode::FlattenedId => ("devices", replicas * partitions),
    };
    let groups: Vec<Vec<i64>> = match attr(inst, "replica_groups") {
        None => vec![(0..count as i64).collect()],
        Some(v) => match attrs::replica_groups(v).map_err(attr_error)? {
            attrs::ReplicaGroups::List(g) if g.is_empty() => vec![(0..count as i64).collect()],
            other => other.groups().ok_or_else(|| EvalError::new("replica_groups cannot be expanded"))?,
        },
    };
    for &id in groups.iter().flatten() {
        if id < 0 || id as usize >= count {
            bail!("replica group member {id} is outside the {count} {what} the interpreter runs");
        }
    }
    let groups = groups.into_iter().map(|g| g.into_iter().map(|id| id as usize).collect::<Vec<_>>());
    let devices: Vec<Vec<usize>> = match mode {
        GroupMode::CrossReplica => groups.map(|g| g.iter().map(|r| r * partitions + me_p).collect()).collect(),
        GroupMode::CrossPartition => groups.map(|g| g.iter().map(|q| me_r * partitions + q).collect()).collect(),
        // Every partition of each replica of the group, replica by replica
        // (XLA's GetParticipatingDevices).
        GroupMode::CrossReplicaAndPartition => {
            groups.map(|g| g.iter().flat_map(|r| (0..partitions).map(move |p| r * partitions + p)).collect()).collect()
        }
        GroupMode::FlattenedId => groups.collect(),
    };
    Ok(devices.into_iter().find_map(|g| g.iter().position(|&d| d == me).map(|i| (g.clone(), i))))
}

/// [`participants`], where this device must be in a group.
fn require_participants(interp: &Interpreter, inst: &Instruction) -> Result<(Vec<usize>, usize)> {
    participants(interp, inst)?.ok_or_else(|| {
        EvalError::new(format!(
            "replica {} (partition {}) is in no replica group of {}",
            interp.replica_id, interp.partition_id, inst.opcode
        ))
    })
}

/// Deposits this replica's operands and returns every replica's (indexed
/// by replica id).
fn exchange(interp: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Vec<Vec<Literal>>> {
    let mine = Literal::Tuple(owned(operands));
    let all = replicated::exchange(interp, &inst.name, mine)?;
    all.iter()
        .map(|l| match l {
            Literal::Tuple(e) => Ok(e.clone()),
            _ => bail!("collective exchange lost its operand tuple"),
        })
        .collect()
}

/// Array results of a collective: one array, or a tuple when the declared
/// shape is a tuple.
fn shaped_result(shape: &Shape, values: Vec<Literal>, opcode: &str, replicas: usize) -> Result<Literal> {
    let check = |s: &Shape, v: &Literal| -> Result<()> {
        let (t, dims) = array_shape(s)?;
        if v.dims() != dims.as_slice() || v.element_type() != Some(t) {
            bail!(
                "{opcode} on {replicas} replica(s) gives {}{:?} but the instruction declares {}{dims:?} (run it with run_replicated and the replica count it was written for)",
                v.element_type().map(|t| t.name()).unwrap_or("?"),
                v.dims(),
                t.name()
            );
        }
        Ok(())
    };
    match shape {
        Shape::Tuple(e) => {
            if e.len() != values.len() {
                bail!("{opcode} declares {} results but has {} operands", e.len(), values.len());
            }
            for (s, v) in e.iter().zip(&values) {
                check(s, v)?;
            }
            Ok(Literal::Tuple(values))
        }
        s => {
            let [v]: [Literal; 1] = values
                .try_into()
                .map_err(|_| EvalError::new(format!("{opcode} with several operands must produce a tuple")))?;
            check(s, &v)?;
            Ok(v)
        }
    }
}

/// A reducer computation: its name, and the binary op it is when it is a
/// lone add/multiply/... of its two parameters (the typed fast path).
struct Reducer {
    name: String,
    op: Option<&'static str>,
}

fn reducer(interp: &Interpreter, inst: &Instruction) -> Result<Reducer> {
    let name = computation_attr(inst, "to_apply")?;
    let comp = interp.computation(&name)?;
    let params: Vec<&str> =
        comp.instructions.iter().filter(|i| i.opcode == "parameter").map(|i| i.name.as_str()).collect();
    let Some(root) = comp.instructions.get(comp.root) else { return Ok(Reducer { name, op: None }) };
    const OPS: [&str; 7] = ["add", "multiply", "maximum", "minimum", "and", "or", "xor"];
    if comp.instructions.len() == 3 && params.len() == 2 && root.operands.len() == 2 {
        if let Some(op) = OPS.iter().find(|&&o| o == root.opcode) {
            let names = [root.operands[0].name.as_str(), root.operands[1].name.as_str()];
            if (names[0] == params[0] && names[1] == params[1]) || (names[0] == params[1] && names[1] == params[0]) {
                return Ok(Reducer { name, op: Some(op) });
            }
        }
    }
    Ok(Reducer { name, op: None })
}

fn fmax(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else if a > b {
        a
    } else {
        b
    }
}
fn fmin(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else if a < b {
        a
    } else {
        b
    }
}
fn dmax(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a > b {
        a
    } else {
        b
    }
}
fn dmin(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a < b {
        a
    } else {
        b
    }
}

/// `acc = op(acc, x)` element-wise for the typed fast path; `None` when the
/// types do not support `op`.
fn combine_fast(op: &str, acc: &mut Data, x: &Data) -> Option<()> {
    macro_rules! zip {
        ($a:expr, $b:expr, $f:expr) => {{
            for (p, q) in $a.iter_mut().zip($b.iter()) {
                *p = $f(*p, *q);
            }
            Some(())
        }};
    }
    macro_rules! int {
        ($a:expr, $b:expr) => {
            match op {
                "add" => zip!($a, $b, |p: _, q| num_wrapping_add(p, q)),
                "multiply" => zip!($a, $b, |p: _, q| num_wrapping_mul(p, q)),
                "maximum" => zip!($a, $b, |p: _, q| std::cmp::max(p, q)),
                "minimum" => zip!($a, $b, |p: _, q| std::cmp::min(p, q)),
                "and" => zip!($a, $b, |p: _, q| p & q),
                "or" => zip!($a, $b, |p: _, q| p | q),
                "xor" => zip!($a, $b, |p: _, q| p ^ q),
                _ => None,
            }
        };
    }
    macro_rules! half {
        ($a:expr, $b:expr, $t:ty) => {
            match op {
                "add" => zip!($a, $b, |p: $t, q: $t| <$t>::from_f32(p.to_f32() + q.to_f32())),
                "multiply" => zip!($a, $b, |p: $t, q: $t| <$t>::from_f32(p.to_f32() * q.to_f32())),
                "maximum" => zip!($a, $b, |p: $t, q: $t| <$t>::from_f32(fmax(p.to_f32(), q.to_f32()))),
                "minimum" => zip!($a, $b, |p: $t, q: $t| <$t>::from_f32(fmin(p.to_f32(), q.to_f32()))),
                _ => None,
            }
        };
    }
    match (acc, x) {
        (Data::Pred(a), Data::Pred(b)) => match op {
            "add" | "or" | "maximum" => zip!(a, b, |p: bool, q: bool| p | q),
            "multiply" | "and" | "minimum" => zip!(a, b, |p: bool, q: bool| p & q),
            "xor" => zip!(a, b, |p: bool, q: bool| p ^ q),
            _ => None,
        },
        (Data::S8(a), Data::S8(b)) => int!(a, b),
        (Data::S16(a), Data::S16(b)) => int!(a, b),
        (Data::S32(a), Data::S32(b)) => int!(a, b),
        (Data::S64(a), Data::S64(b)) => int!(a, b),
        (Data::U8(a), Data::U8(b)) => int!(a, b),
        (Data::U16(a), Data::U16(b)) => int!(a, b),
        (Data::U32(a), Data::U32(b)) => int!(a, b),
        (Data::U64(a), Data::U64(b)) => int!(a, b),
        (Data::F16(a), Data::F16(b)) => half!(a, b, f16),
        (Data::Bf16(a), Data::Bf16(b)) => half!(a, b, bf16),
        (Data::F32(a), Data::F32(b)) => match op {
            "add" => zip!(a, b, |p: f32, q: f32| p + q),
            "multiply" => zip!(a, b, |p: f32, q: f32| p * q),
            "maximum" => zip!(a, b, fmax),
            "minimum" => zip!(a, b, fmin),
            _ => None,
        },
        (Data::F64(a), Data::F64(b)) => match op {
            "add" => zip!(a, b, |p: f64, q: f64| p + q),
            "multiply" => zip!(a, b, |p: f64, q: f64| p * q),
            "maximum" => zip!(a, b, dmax),
            "minimum" => zip!(a, b, dmin),
            _ => None,
        },
        (Data::C64(a), Data::C64(b)) => match op {
            "add" => zip!(a, b, |p, q| p + q),
            "multiply" => zip!(a, b, |p, q| p * q),
            _ => None,
        },
        (Data::C128(a), Data::C128(b)) => match op {
            "add" => zip!(a, b, |p, q| p + q),
            "multiply" => zip!(a, b, |p, q| p * q),
            _ => None,
        },
        _ => None,
    }
}

trait WrappingInt: Copy {
    fn w_add(self, o: Self) -> Self;
    fn w_mul(self, o: Self) -> Self;
}
macro_rules! wrapping_int {
    ($($t:ty),*) => {$(
        impl WrappingInt for $t {
            fn w_add(self, o: Self) -> Self { self.wrapping_add(o) }
            fn w_mul(self, o: Self) -> Self { self.wrapping_mul(o) }
        }
    )*};
}
wrapping_int!(i8, i16, i32, i64, u8, u16, u32, u64);
fn num_wrapping_add<T: WrappingInt>(a: T, b: T) -> T {
    a.w_add(b)
}
fn num_wrapping_mul<T: WrappingInt>(a: T, b: T) -> T {
    a.w_mul(b)
}

/// `op(a, b)` element-wise.
fn combine(interp: &Interpreter, reducer: &Reducer, a: &Literal, b: &Literal) -> Result<Literal> {
    let (a_dims, a_data) = array(a)?;
    let (b_dims, b_data) = array(b)?;
    if a_dims != b_dims || a_data.element_type() != b_data.element_type() {
        bail!("replicas contribute different shapes to a reduction: {a_dims:?} and {b_dims:?}");
    }
    let mut acc = a_data.clone();
    if let Some(op) = reducer.op {
        if combine_fast(op, &mut acc, b_data).is_some() {
            return Ok(Literal::array(a_dims.to_vec(), acc));
        }
    }
    for i in 0..acc.len() {
        let x = Literal::scalar(a_data.select(&[i]));
        let y = Literal::scalar(b_data.select(&[i]));
        let r = interp.call(&reducer.name, &[x, y])?;
        match r.data() {
            Some(d) if d.len() == 1 && d.element_type() == acc.element_type() => acc.set_from(i, d, 0),
            _ => bail!("the reduction computation must return a scalar of the operand type"),
        }
    }
    Ok(Literal::array(a_dims.to_vec(), acc))
}

/// For each operand index, the fold over `group` (in order) of every
/// member's operand.
fn reduce_over(
    interp: &Interpreter,
    inst: &Instruction,
    all: &[Vec<Literal>],
    group: &[usize],
) -> Result<Vec<Literal>> {
    let reducer = reducer(interp, inst)?;
    let k = all[group[0]].len();
    (0..k)
        .map(|j| {
            let mut acc = all[group[0]][j].clone();
            for &m in &group[1..] {
                let x = all[m].get(j).ok_or_else(|| EvalError::new("replicas contribute different operand counts"))?;
                acc = combine(interp, &reducer, &acc, x)?;
            }
            Ok(acc)
        })
        .collect()
}

fn all_reduce(interp: &Interpreter, inst: &Instruction, operands: &[&Literal], shape: &Shape) -> Result<Literal> {
    let all = exchange(interp, inst, operands)?;
    let (group, _) = require_participants(interp, inst)?;
    let values = reduce_over(interp, inst, &all, &group)?;
    shaped_result(shape, values, &inst.opcode, all.len())
}

fn single_dimension(inst: &Instruction) -> Result<usize> {
    let dims = attrs::dims(require(inst, "dimensions")?).map_err(attr_error)?;
    match dims[..] {
        [d] if d >= 0 => Ok(d as usize),
        _ => bail!("{} needs one dimension, got {dims:?}", inst.opcode),
    }
}

/// Concatenates arrays of one type along `dim`.
fn concat(parts: &[&Literal], dim: usize) -> Result<Literal> {
    let Some(first) = parts.first() else { bail!("nothing to concatenate") };
    let (dims0, data0) = array(first)?;
    if dim >= dims0.len() {
        bail!("dimension {dim} is out of range for rank {}", dims0.len());
    }
    let outer: usize = dims0[..dim].iter().map(|&d| d.max(0) as usize).product();
    let inner: usize = dims0[dim + 1..].iter().map(|&d| d.max(0) as usize).product();
    let mut total = 0i64;
    let mut chunks = Vec::with_capacity(parts.len());
    let mut datas = Vec::with_capacity(parts.len());
    for p in parts {
        let (d, data) = array(p)?;
        if d.len() != dims0.len()
            || d[..dim] != dims0[..dim]
            || d[dim + 1..] != dims0[dim + 1..]
            || data.element_type() != data0.element_type()
        {
            bail!("cannot concatenate {:?} with {:?} along {dim}", d, dims0);
        }
        total += d[dim];
        chunks.push(d[dim].max(0) as usize * inner);
        datas.push(data);
    }
    macro_rules! cat {
        ($($v:ident),*) => {
            match data0 {
                $(Data::$v(_) => {
                    let mut out = Vec::with_capacity(outer * chunks.iter().sum::<usize>());
                    for o in 0..outer {
                        for (p, &c) in datas.iter().zip(&chunks) {
                            let Data::$v(v) = p else { bail!("mixed element types") };
                            out.extend_from_slice(&v[o * c..(o + 1) * c]);
                        }
                    }
                    Data::$v(out)
                })*
                Data::Bits(t, _) => {
                    let mut out = Vec::with_capacity(outer * chunks.iter().sum::<usize>());
                    for o in 0..outer {
                        for (p, &c) in datas.iter().zip(&chunks) {
                            let Data::Bits(_, v) = p else { bail!("mixed element types") };
                            out.extend_from_slice(&v[o * c..(o + 1) * c]);
                        }
                    }
                    Data::Bits(*t, out)
                }
            }
        };
    }
    let data = cat!(Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, Bf16, F32, F64, C64, C128);
    let mut dims = dims0.to_vec();
    dims[dim] = total;
    Ok(Literal::array(dims, data))
}

/// Block `index` of `count` equal blocks of `lit` along `dim`.
fn split(lit: &Literal, dim: usize, count: usize, index: usize) -> Result<Literal> {
    let (dims, data) = array(lit)?;
    if dim >= dims.len() {
        bail!("dimension {dim} is out of range for rank {}", dims.len());
    }
    let size = dims[dim].max(0) as usize;
    if count == 0 || !size.is_multiple_of(count) {
        bail!("dimension {dim} of size {size} does not split into {count} blocks");
    }
    let block = size / count;
    let outer: usize = dims[..dim].iter().map(|&d| d.max(0) as usize).product();
    let inner: usize = dims[dim + 1..].iter().map(|&d| d.max(0) as usize).product();
    let mut indices = Vec::with_capacity(outer * block * inner);
    for o in 0..outer {
        let start = (o * size + index * block) * inner;
        indices.extend(start..start + block * inner);
    }
    let mut out_dims = dims.to_vec();
    out_dims[dim] = block as i64;
    Ok(Literal::array(out_dims, data.select(&indices)))
}

fn all_gather(interp: &Interpreter, inst: &Instruction, operands: &[&Literal], shape: &Shape) -> Result<Literal> {
    let dim = single_dimension(inst)?;
    let all = exchange(interp, inst, operands)?;
    let (group, _) = require_participants(interp, inst)?;
    let values = (0..operands.len())
        .map(|j| {
            let parts: Vec<&Literal> = group.iter().map(|&m| &all[m][j]).collect();
            concat(&parts, dim)
        })
        .collect::<Result<Vec<_>>>()?;
    shaped_result(shape, values, &inst.opcode, all.len())
}

fn reduce_scatter(interp: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let dim = single_dimension(inst)?;
    let all = exchange(interp, inst, operands)?;
    let (group, position) = require_participants(interp, inst)?;
    let reduced = reduce_over(interp, inst, &all, &group)?;
    let values = reduced.iter().map(|r| split(r, dim, group.len(), position)).collect::<Result<Vec<_>>>()?;
    shaped_result(&inst.shape, values, &inst.opcode, all.len())
}

fn all_to_all(interp: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let all = exchange(interp, inst, operands)?;
    let (group, position) = require_participants(interp, inst)?;
    let values = if attr(inst, "dimensions").is_some() {
        let dim = single_dimension(inst)?;
        (0..operands.len())
            .map(|j| {
                let blocks =
                    group.iter().map(|&m| split(&all[m][j], dim, group.len(), position)).collect::<Result<Vec<_>>>()?;
                concat(&blocks.iter().collect::<Vec<_>>(), dim)
            })
            .collect::<Result<Vec<_>>>()?
    } else {
        if operands.len() != group.len() {
            bail!("tuple all-to-all needs one operand per group member ({}), got {}", group.len(), operands.len());
        }
        group.iter().map(|&m| all[m][position].clone()).collect()
    };
    shaped_result(&inst.shape, values, &inst.opcode, all.len())
}

fn collective_permute(
    interp: &Interpreter,
    inst: &Instruction,
    operands: &[&Literal],
    shape: &Shape,
) -> Result<Literal> {
    if operands.len() != 1 {
        bail!("collective-permute with {} operands is not supported by the interpreter", operands.len());
    }
    let pairs = attrs::source_target_pairs(require(inst, "source_target_pairs")?).map_err(attr_error)?;
    let all = exchange(interp, inst, operands)?;
    let n = all.len();
    // Pairs of replica ids within this partition, or, with a channel_id,
    // of partition ids within this replica.
    let partitions = interp.options.partitions.max(1);
    let cross_partition = attr(inst, "channel_id").is_some();
    let (count, what, me) = if cross_partition {
        (partitions, "partitions", interp.partition_id)
    } else {
        (interp.options.replicas.max(1), "replicas", interp.replica_id)
    };
    for &(s, t) in &pairs {
        if s < 0 || t < 0 || s as usize >= count || t as usize >= count {
            bail!("source-target pair {{{s},{t}}} is outside the {count} {what} the interpreter runs");
        }
    }
    let device = |id: usize| {
        if cross_partition {
            interp.replica_id * partitions + id
        } else {
            id * partitions + interp.partition_id
        }
    };
    let value = match pairs.iter().find(|&&(_, t)| t as usize == me) {
        Some(&(s, _)) => all[device(s as usize)][0].clone(),
        None => Literal::zeros_of_shape(shape),
    };
    shaped_result(shape, vec![value], &inst.opcode, n)
}

fn collective_broadcast(interp: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let all = exchange(interp, inst, operands)?;
    let values = match participants(interp, inst)? {
        Some((group, _)) => all[group[0]].clone(),
        None => match &inst.shape {
            Shape::Tuple(e) => e.iter().map(Literal::zeros_of_shape).collect(),
            s => vec![Literal::zeros_of_shape(s)],
        },
    };
    shaped_result(&inst.shape, values, &inst.opcode, all.len())
}
