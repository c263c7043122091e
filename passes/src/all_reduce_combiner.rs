//! `all-reduce-combiner`: independent `all-reduce`s over the same devices
//! with the same reducer become one variadic `all-reduce` (XLA's
//! AllReduceCombiner), so that a data-parallel step's gradients cross the
//! devices in one collective instead of one per parameter.
//!
//! Per computation, in program order: an all-reduce joins the open group of
//! all-reduces like it (the same reducer: the same computation or one
//! binary op of the same type; the same replica groups, channel kind and
//! `use_global_device_ids`; every operand an array) unless one of its
//! operands depends on a member's result. The combined op takes the place
//! of the group's last member, and the ops before it that use a member's
//! result move after it, in their order (none of them feeds a member, or
//! that member would not have joined). A group closes at the first
//! all-reduce like it that cannot join, or when it would exceed
//! `threshold_bytes` (default 30 MiB, XLA:CPU's). All-reduces with a
//! sharding, and computations with control dependencies, are left alone.

use melior::ir::OperationRef;
use rxla_ir::{
    builder::Builder,
    computation::{self, functions},
    op::Op,
    pass::{HloPass, PassError, PassOptions},
    types::HloType,
};
use std::collections::{HashMap, HashSet};

#[derive(Clone, Debug)]
pub struct AllReduceCombiner {
    threshold_bytes: u64,
}

impl HloPass for AllReduceCombiner {
    const NAME: &'static str = "all-reduce-combiner";
    const DESCRIPTION: &'static str =
        "Combine independent all-reduces over the same devices into one (XLA's AllReduceCombiner)";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &["threshold_bytes"])?;
        let threshold = options.int("threshold_bytes", DEFAULT_THRESHOLD_BYTES as i64)?;
        if threshold < 0 {
            return Err(PassError(format!("{}: threshold_bytes must not be negative", Self::NAME)));
        }
        Ok(Self { threshold_bytes: threshold as u64 })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        self.run_on_module(Op::of(&module))
    }
}

impl Default for AllReduceCombiner {
    fn default() -> Self {
        Self { threshold_bytes: DEFAULT_THRESHOLD_BYTES }
    }
}

/// XLA:CPU's combine threshold.
pub const DEFAULT_THRESHOLD_BYTES: u64 = 30 << 20;

/// The all-reduces gathered so far for one combined op.
struct Group {
    members: Vec<Op>,
    bytes: u64,
    /// Every op so far that depends on a member's result.
    tainted: HashSet<Op>,
}

impl AllReduceCombiner {
    /// Combines the all-reduces of every computation of `module`.
    pub fn run_on_module(&self, module: Op) -> Result<(), PassError> {
        for func in functions(module) {
            self.run_on_function(module, func)?;
        }
        Ok(())
    }

    fn run_on_function(&self, module: Op, func: Op) -> Result<(), PassError> {
        if func.body_ops().iter().any(|op| op.has_attr("control_predecessors")) {
            return Ok(());
        }
        // One group at a time, each scan on the computation as the last
        // combine left it (moving ops invalidates positions, and a moved
        // op may be another group's member). Every combine removes
        // all-reduces, so this ends.
        while let Some((members, moved)) = self.next_group(module, func) {
            combine(&members, &moved)?;
        }
        Ok(())
    }

    /// The first group of two or more all-reduces that combine, with the
    /// ops that must move after the combined op.
    fn next_group(&self, module: Op, func: Op) -> Option<(Vec<Op>, Vec<Op>)> {
        let body = func.body_ops();
        let position: HashMap<Op, usize> = body.iter().enumerate().map(|(i, &op)| (op, i)).collect();
        let finish = |g: Group| -> Option<(Vec<Op>, Vec<Op>)> {
            if g.members.len() < 2 {
                return None;
            }
            // What uses a member before the last one waits for the
            // combined op (none of it feeds a member: those would not
            // have joined).
            let last = position[g.members.last().expect("a group has members")];
            let mut moved: Vec<Op> = g.tainted.into_iter().filter(|op| position[op] < last).collect();
            moved.sort_by_key(|op| position[op]);
            Some((g.members, moved))
        };
        let mut open: HashMap<Key, Group> = HashMap::new();
        for &op in &body {
            let defining: Vec<Op> = op.operands().into_iter().filter_map(|v| v.op()).collect();
            for g in open.values_mut() {
                if defining.iter().any(|d| g.tainted.contains(d) || g.members.contains(d)) {
                    g.tainted.insert(op);
                }
            }
            let Some((key, bytes)) = combinable(module, op) else { continue };
            let joins =
                open.get(&key).is_some_and(|g| !g.tainted.contains(&op) && g.bytes + bytes <= self.threshold_bytes);
            if joins {
                let g = open.get_mut(&key).expect("checked");
                g.members.push(op);
                g.bytes += bytes;
            } else {
                if let Some(found) = open.remove(&key).and_then(finish) {
                    return Some(found);
                }
                open.insert(key, Group { members: vec![op], bytes, tainted: HashSet::new() });
            }
        }
        // The open groups, earliest first.
        let mut rest: Vec<Group> = open.into_values().collect();
        rest.sort_by_key(|g| position[&g.members[0]]);
        rest.into_iter().find_map(finish)
    }
}

/// What all-reduces must share to combine: the reducer, the replica groups
/// and `use_global_device_ids` (uniqued attributes, compared by address),
/// and whether they have a channel id.
type Key = (String, usize, usize, bool);

/// What an all-reduce must share with others to combine, and its bytes;
/// `None` for ops that do not combine.
fn combinable(module: Op, op: Op) -> Option<(Key, u64)> {
    if !op.is("all_reduce") || op.num_operands() == 0 || op.has_attr("hlo.sharding") {
        return None;
    }
    let mut bytes = 0;
    for v in op.operands() {
        match v.ty() {
            HloType::Tensor(t) => bytes += t.byte_size(),
            _ => return None,
        }
    }
    let attr = |name: &str| op.attr_raw(name).map_or(0, |a| a.ptr as usize);
    let key =
        (reducer_key(module, op), attr("replica_groups"), attr("use_global_device_ids"), op.has_attr("channel_id"));
    Some((key, bytes))
}

/// The reducer of `all_reduce` as far as combining goes: `add:f32` for a
/// computation that applies one binary op to its two parameters (JAX
/// gives every all-reduce its own copy of such a reducer), else its name.
/// The element type is part of it, so combined operands share one type.
fn reducer_key(module: Op, all_reduce: Op) -> String {
    let name = all_reduce.symbol_attr("to_apply").unwrap_or_default();
    let Some(f) = computation::lookup(module, &name) else { return name };
    let (body, args) = (f.body_ops(), f.arguments());
    let simple = body.len() == 2
        && args.len() == 2
        && body[0].num_operands() == 2
        && body[0].num_results() == 1
        && ((body[0].operand(0) == args[0] && body[0].operand(1) == args[1])
            || (body[0].operand(0) == args[1] && body[0].operand(1) == args[0]))
        && body[1].num_operands() == 1
        && body[1].operand(0) == body[0].result(0);
    if simple {
        format!("{}:{}", body[0].name(), args[0].ty())
    } else {
        name
    }
}

/// Replaces `members` (in program order) by one all-reduce of all their
/// operands, placed where the last one is, with `moved` (in program
/// order) after it.
fn combine(members: &[Op], moved: &[Op]) -> Result<(), PassError> {
    let last = *members.last().expect("a group has members");
    let b = Builder::before(last).at_location_of(members[0]);
    let operands: Vec<_> = members.iter().flat_map(|m| m.operands()).collect();
    let results: Vec<HloType> = members.iter().flat_map(|m| m.results()).map(|v| v.ty()).collect();
    // The first member's attributes (its channel id among them); the
    // operands' layouts are the results' own.
    let attrs = members[0].attrs_raw();
    let attrs: Vec<(&str, _)> = attrs.iter().map(|(k, a)| (k.as_str(), *a)).collect();
    let combined = b.create("hlo.all_reduce", &operands, &results, &attrs)?;
    for &op in moved {
        op.move_before(last);
    }
    let mut next = 0;
    for m in members {
        for i in 0..m.num_results() {
            m.replace_result_uses(i, combined.result(next));
            next += 1;
        }
    }
    members.iter().for_each(|m| m.erase());
    Ok(())
}
