//! `spmd-partitioner`: rewrites the entry computation of a module with
//! shardings into the program every partition runs (XLA's SPMD
//! partitioner, GSPMD): each value becomes the block its partition holds,
//! and collectives move blocks where an op needs them.
//!
//! The rewrite works op by op, in program order, in place: an op's operands
//! are replaced by their blocks in the sharding the op needs (resharded
//! from the sharding they have), its result types become block types, and
//! its attributes that name sizes are adjusted. The shardings come from
//! [`propagate`]; an op's actual result sharding may be coarser than the
//! one propagated (its consumers reshard what they get).
//!
//! - Elementwise ops, `broadcast`, `transpose`: operands in the result's
//!   sharding (projected through the op's dimension map); no communication.
//! - `reshape`: dimensions that start at the same place in row-major order
//!   keep their blocks when the block count divides both sizes; the others
//!   are made whole first.
//! - `reduce`: kept dimensions as the result's; reduced dimensions that are
//!   sharded stay sharded when the reducer is `add`/`multiply`/`maximum`/
//!   `minimum`/`and`/`or` with its identity as the init value, and the
//!   partial results are combined by an `all-reduce` with the same reducer.
//! - `dot`: either each operand in the result's sharding (contracting
//!   dimensions whole), or, when the contracting dimensions are sharded,
//!   one operand as it is, the other matched to it, and the partial products
//!   summed by an `all-reduce`; whichever moves fewer bytes.
//! - `slice`, `pad`, `reverse`, `concatenate`, `sort`, `dynamic-slice`,
//!   `dynamic-update-slice`, `iota`: sharded along the dimensions they act
//!   independently on, whole along the others.
//! - `Sharding` / `xla.sdy.FuncResultSharding` custom calls reshard their
//!   operand and disappear.
//! - Every other op runs on whole operands and gives whole results (correct
//!   for any op; the partitioner's fallback).
//!
//! Resharding: dimensions whose blocks change are gathered by `all-gather`s
//! (one per dimension, grouped over the partitions that differ only there)
//! and then cut by a `dynamic-slice` at the partition's offset, read from a
//! table indexed by `partition-id`. A dimension of `n` elements in `k`
//! blocks has blocks of `ceil(n / k)`, the last ones padded (XLA's uneven
//! sharding); padding never reaches a reduction or a contraction.
//!
//! The entry parameters take their block types and keep their
//! `hlo.sharding` (how a runtime splits the global arguments); the results
//! get `hlo.sharding` result attributes (how it assembles the global
//! outputs): the ROOT's stated sharding, else the one the result has.
//! The entry is renamed `<name>_spmd`, as XLA names it; runtimes take an
//! entry so named as already partitioned.
//!
//! Not done (yet): manual shardings (`shard_map` regions: `SPMDFullToShardShape`
//! and `xla.sdy.GlobalToLocalShape`) are refused; `while`, `call`,
//! `conditional`, `gather`, `scatter` and `convolution` run whole.

use std::{cell::Cell, collections::HashMap};

use melior::ir::OperationRef;
use mlir_sys::*;
use rxla_hlo_text::custom_calls::{SHARDING_GROUP, SHARDING_TARGETS};
use rxla_ir::{
    builder::{quote_symbol, Builder},
    computation,
    op::{parse_type, Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::{ElementType, HloType, TensorType},
};
use rxla_translate::sharding as sharding_attr;

use super::propagation::{
    loop_state, module_attribute, module_partitions, module_replicas, propagate_from, stated, Propagation,
};
use super::rules::{self, DotLayout};
use super::tiles::{Placement, Tiles};
use crate::constant::{splat, ConstantBuilder, Scalar};

type Result<T> = std::result::Result<T, PassError>;

/// The entry name suffix XLA gives a partitioned program.
pub const SPMD_SUFFIX: &str = "_spmd";

#[derive(Clone, Debug)]
pub struct SpmdPartitioner {
    partitions: usize,
}

impl HloPass for SpmdPartitioner {
    const NAME: &'static str = "spmd-partitioner";
    const DESCRIPTION: &'static str =
        "Rewrite the entry into the per-partition program, with collectives (XLA's SPMD partitioner)";

    fn from_options(options: &PassOptions) -> Result<Self> {
        options.expect_only(Self::NAME, &["num_partitions"])?;
        Ok(Self { partitions: options.int("num_partitions", 0)?.max(0) as usize })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<()> {
        let module = Op::of(&module);
        let n = if self.partitions > 0 { self.partitions } else { module_partitions(module) };
        let Some(entry) = computation::entry(module) else { return Ok(()) };
        if n <= 1 || computation::name(entry).ends_with(SPMD_SUFFIX) {
            return Ok(());
        }
        partition(module, entry, n)
    }
}

/// A value of the global program on one partition: its block and how the
/// blocks lie.
#[derive(Clone, Debug)]
struct Local {
    value: Value,
    place: Placement,
}

struct Partitioner<'s> {
    module: Op,
    n: usize,
    replicas: usize,
    /// The next free `channel_id`, shared by every computation partitioned.
    channels: &'s Cell<i64>,
    /// `partition-id` as s32, built once at the top of the computation.
    pid: Option<Value>,
    top: Op,
    plan: Propagation,
    /// The global type of every value of the original program.
    global: HashMap<Value, HloType>,
    locals: HashMap<Value, Local>,
}

/// What a partitioned computation's results are to be.
enum Want {
    /// As the entry's ROOT states (its printed `hlo.sharding`s), else as
    /// they come.
    Stated(Vec<Option<String>>),
    /// Exactly these (a loop body: as its parameter).
    Given(Vec<Placement>),
    /// As they come.
    Any,
}

/// Partitions `entry` of `module` for `n` partitions.
pub fn partition(module: Op, entry: Op, n: usize) -> Result<()> {
    for (i, arg) in entry.arguments().into_iter().enumerate() {
        let text = arg.attr_text("hlo.sharding");
        if let HloType::Tuple(_) = arg.ty() {
            let place = stated(text, &arg.ty(), n, &format!("parameter {i}"))?;
            if place.is_some_and(|p| p != Placement::replicated(&arg.ty(), n)) {
                return Err(PassError(format!(
                    "parameter {i}: a tuple parameter with a tiled sharding is not supported by the SPMD partitioner"
                )));
            }
        }
    }
    // The ROOT's stated shardings, read before the ops change.
    let stated_results: Vec<Option<String>> =
        entry.return_values().into_iter().map(|v| v.op().and_then(|o| o.attr_text("hlo.sharding"))).collect();
    let channels = Cell::new(max_channel(module) + 1);
    let results = partition_computation(module, entry, n, &channels, None, Want::Stated(stated_results))?;
    let mut attrs = Vec::new();
    for want in results {
        let sharding = want.to_sharding().ok_or_else(|| PassError("internal error: uneven result".into()))?;
        attrs.push(format!("{{hlo.sharding = {}}}", sharding_attr::to_mlir(&sharding)));
    }
    entry.set_attr("res_attrs", &format!("[{}]", attrs.join(", ")))?;
    // The computations copied for partitioning, where nothing calls the
    // original any more (the callers now call the copies), go.
    loop {
        let callers = computation::callers(module);
        let unused: Vec<Op> = computation::functions(module)
            .into_iter()
            .filter(|&f| f != entry && !callers.contains_key(&computation::name(f)))
            .filter(|&f| computation::lookup(module, &format!("{}{SPMD_SUFFIX}", computation::name(f))).is_some())
            .collect();
        if unused.is_empty() {
            break;
        }
        unused.into_iter().for_each(Op::erase);
    }
    let name = format!("{}{SPMD_SUFFIX}", computation::name(entry));
    entry.set_attr("sym_name", &format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\"")))?;
    Ok(())
}

/// Partitions computation `func` in place, its parameters placed as
/// `params` (else as their attributes say); returns its results'
/// placements.
fn partition_computation(
    module: Op,
    func: Op,
    n: usize,
    channels: &Cell<i64>,
    params: Option<&[Placement]>,
    want: Want,
) -> Result<Vec<Placement>> {
    let plan = propagate_from(func, n, params)?;
    let mut global = HashMap::new();
    for a in func.arguments() {
        global.insert(a, a.ty());
    }
    let body = func.body_ops();
    for op in &body {
        for v in op.results() {
            global.insert(v, v.ty());
        }
    }
    let top = *body.first().ok_or_else(|| PassError("an empty computation".into()))?;
    let mut p = Partitioner {
        module,
        n,
        replicas: module_replicas(module),
        channels,
        pid: None,
        top,
        plan,
        global,
        locals: HashMap::new(),
    };
    for arg in func.arguments() {
        let place = p.plan.place(arg);
        set_type(arg, &local_type(&arg.ty(), &place))?;
        p.locals.insert(arg, Local { value: arg, place });
    }
    let mut dead = Vec::new();
    let mut results = Vec::new();
    for op in body {
        if op.is_named("func.return") {
            results = p.results(op, &want)?;
        } else if p.op(op).map_err(|e| located(op, e))? {
            dead.push(op);
        }
    }
    for op in dead.into_iter().rev() {
        op.erase();
    }
    let args: Vec<String> = func.arguments().iter().map(|a| a.ty().to_string()).collect();
    let types: Vec<String> = func.return_values().iter().map(|v| v.ty().to_string()).collect();
    func.set_attr("function_type", &format!("({}) -> ({})", args.join(", "), types.join(", ")))?;
    Ok(results)
}

/// Reports `e` at `op` (its HLO instruction) and returns the pass's error.
fn located(op: Op, e: PassError) -> PassError {
    super::propagation::located(op.location(), e)
}

/// The largest `channel_id` in the module (0 if none).
fn max_channel(module: Op) -> i64 {
    module.walk_preorder().into_iter().filter_map(|op| op.int_attr("channel_id")).max().unwrap_or(0)
}

/// The block type of a value of global type `ty` placed as `place`.
fn local_type(ty: &HloType, place: &Placement) -> HloType {
    match (ty, place) {
        (HloType::Tensor(t), Placement::Array(tiles)) => {
            HloType::Tensor(TensorType::new(&tiles.local_dims(&t.dims), &t.elem))
        }
        (HloType::Tuple(items), Placement::Tuple(places)) if items.len() == places.len() => {
            HloType::Tuple(items.iter().zip(places).map(|(t, p)| local_type(t, p)).collect())
        }
        _ => ty.clone(),
    }
}

fn set_type(v: Value, ty: &HloType) -> Result<()> {
    // SAFETY: a live value; the context owns the parsed type.
    unsafe {
        let context = mlirTypeGetContext(mlirValueGetType(v.0));
        let raw =
            parse_type(context, &ty.to_string()).ok_or_else(|| PassError(format!("internal error: bad type {ty}")))?;
        mlirValueSetType(v.0, raw);
    }
    Ok(())
}

fn dims_text(v: &[i64]) -> String {
    format!("array<i64{}>", v.iter().map(|d| format!(", {d}")).collect::<String>().replacen(", ", ": ", 1))
}

impl Partitioner<'_> {
    fn local(&self, v: Value) -> Result<Local> {
        self.locals.get(&v).cloned().ok_or_else(|| PassError("internal error: an operand was not partitioned".into()))
    }

    fn global_ty(&self, v: Value) -> HloType {
        self.global.get(&v).cloned().unwrap_or_else(|| v.ty())
    }

    fn global_tensor(&self, v: Value) -> Result<TensorType> {
        self.global_ty(v).tensor().cloned().ok_or_else(|| PassError("expected an array operand".into()))
    }

    fn tiles_of(&self, l: &Local) -> Result<Tiles> {
        l.place.tiles().cloned().ok_or_else(|| PassError("internal error: an array without array placement".into()))
    }

    /// Partitions one op in place; true if it is to be erased (its
    /// result was replaced).
    fn op(&mut self, op: Op) -> Result<bool> {
        let operands: Vec<Local> = op.operands().into_iter().map(|v| self.local(v)).collect::<Result<_>>()?;
        let targets: Vec<Placement> = op.results().into_iter().map(|v| self.plan.place(v)).collect();
        let b = Builder::before(op);
        let opcode = op.opcode();
        if opcode == "custom_call" {
            let target = op.string_attr("custom_call_target").unwrap_or_default();
            if target == SHARDING_GROUP {
                return Ok(true);
            }
            if target == "Sharding" || target == "xla.sdy.FuncResultSharding" {
                let want = targets.first().cloned().ok_or_else(|| PassError("a sharding without a result".into()))?;
                if want == Placement::Manual || operands[0].place == Placement::Manual {
                    // Inside a region partitioned by hand: the identity.
                    if want != operands[0].place {
                        return Err(PassError(
                            "a sharding constraint between a manual and a non-manual sharding".into(),
                        ));
                    }
                    self.locals.insert(op.result(0), operands[0].clone());
                    return Ok(true);
                }
                let v = self.reshard(&b, &operands[0], op.operand(0), &want)?;
                self.locals.insert(op.result(0), Local { value: v, place: want });
                return Ok(true);
            }
            if SHARDING_TARGETS.contains(&target.as_str()) {
                self.manual_edge(op, &target, &operands, &targets)?;
                return Ok(true);
            }
        }
        // Inside a region partitioned by hand (shard_map's body), ops are
        // already each partition's own: they stay as written.
        if operands.iter().any(|l| l.place == Placement::Manual) {
            for (i, l) in operands.iter().enumerate() {
                let v = match l.place {
                    Placement::Manual => l.value,
                    _ => self.reshard(&b, l, op.operand(i), &self.whole(op.operand(i)))?,
                };
                op.set_operand(i, v);
            }
            op.remove_attr("hlo.sharding");
            for v in op.results() {
                self.locals.insert(v, Local { value: v, place: Placement::Manual });
            }
            return Ok(false);
        }
        let target = targets.first().and_then(Placement::tiles).cloned();
        match opcode.as_str() {
            "tuple" | "get_tuple_element" => {
                for (i, l) in operands.iter().enumerate() {
                    op.set_operand(i, l.value);
                }
                let place = match (opcode.as_str(), operands.first()) {
                    ("tuple", _) => Placement::Tuple(operands.iter().map(|l| l.place.clone()).collect()),
                    (_, Some(Local { place: Placement::Tuple(items), .. })) => {
                        items.get(op.int_attr("index").unwrap_or(0) as usize).cloned().unwrap_or(Placement::Whole)
                    }
                    _ => Placement::replicated(&op.result_type(0), self.n),
                };
                self.finish(op, &[place])?;
            }
            _ if rules::is_elementwise_with(op, |v| self.global_tensor(v).ok()) && target.is_some() => {
                let t = target.expect("checked");
                let out = self.global_tensor(op.result(0))?;
                for (i, l) in operands.iter().enumerate() {
                    let ty = self.global_tensor(op.operand(i))?;
                    let want =
                        if ty.dims == out.dims { Placement::Array(t.clone()) } else { self.whole(op.operand(i)) };
                    let v = self.reshard(&b, l, op.operand(i), &want)?;
                    op.set_operand(i, v);
                }
                self.finish(op, &[Placement::Array(t)])?;
            }
            "broadcast" | "transpose" if target.is_some() => {
                let t = target.expect("checked");
                let dims = op.dims_attr("dimensions").unwrap_or_default();
                let rank = self.global_tensor(op.operand(0))?.rank();
                let picks: Vec<Option<(&Tiles, usize)>> = if opcode == "broadcast" {
                    dims.iter().map(|&d| Some((&t, d as usize))).collect()
                } else {
                    let mut picks = vec![None; rank];
                    for (i, &p) in dims.iter().enumerate() {
                        picks[p as usize] = Some((&t, i));
                    }
                    picks
                };
                let want = Placement::Array(Tiles::assemble(self.n, &picks));
                let v = self.reshard(&b, &operands[0], op.operand(0), &want)?;
                op.set_operand(0, v);
                self.finish(op, &[Placement::Array(t)])?;
            }
            "reshape" if target.is_some() => {
                let t = target.expect("checked");
                let (from, to) = (self.global_tensor(op.operand(0))?, self.global_tensor(op.result(0))?);
                let want = rules::uniform_or_replicated(rules::reshape_carry(&t, &to.dims, &from.dims));
                let got = rules::uniform_or_replicated(rules::reshape_carry(&want, &from.dims, &to.dims));
                let v = self.reshard(&b, &operands[0], op.operand(0), &Placement::Array(want))?;
                op.set_operand(0, v);
                self.finish(op, &[Placement::Array(got)])?;
            }
            "while" => self.while_loop(op, &operands)?,
            "call" => self.call(op, &operands)?,
            "conditional" => self.conditional(op, &operands)?,
            "reduce" if target.is_some() => self.reduce(op, &operands, target.expect("checked"))?,
            "convolution" if target.is_some() && rules::conv_dims(op).is_some() => {
                self.convolution(op, &operands, target.expect("checked"))?
            }
            "gather" if target.is_some() => self.gather(op, &operands, target.expect("checked"))?,
            "scatter" => self.scatter(op, &operands)?,
            "dot" if target.is_some() => self.dot(op, &operands, target.expect("checked"))?,
            _ => match (rules::passthrough_dims_with(op, |v| self.global_tensor(v).ok()), target) {
                (Some(pass), Some(t)) => self.passthrough(op, &operands, &pass, &t)?,
                _ => self.whole_op(op, &operands)?,
            },
        }
        Ok(false)
    }

    /// `convolution`: the cheaper (in bytes moved) of the input split along
    /// its batch dimension and the kernel along its output features as the
    /// result's (spatial and input-feature dimensions whole); or, where the
    /// input's features are split (a weight gradient contracts the batch
    /// there), the kernel's input features matched to them, a local
    /// convolution of the blocks and an all-reduce of the partial sums.
    fn convolution(&mut self, op: Op, operands: &[Local], t: Tiles) -> Result<()> {
        let c = rules::conv_dims(op).expect("checked");
        let (lt, rt) = (self.global_tensor(op.operand(0))?, self.global_tensor(op.operand(1))?);
        let out = self.global_tensor(op.result(0))?;
        let (l, r) = (self.tiles_of(&operands[0])?, self.tiles_of(&operands[1])?);
        let mut lp: Vec<Option<(&Tiles, usize)>> = vec![None; lt.rank()];
        lp[c.input_batch] = Some((&t, c.output_batch));
        let mut rp: Vec<Option<(&Tiles, usize)>> = vec![None; rt.rank()];
        rp[c.kernel_output_feature] = Some((&t, c.output_feature));
        let mut op_: Vec<Option<(&Tiles, usize)>> = vec![None; t.rank()];
        op_[c.output_batch] = Some((&t, c.output_batch));
        op_[c.output_feature] = Some((&t, c.output_feature));
        let (lw, rw, got) = (Tiles::assemble(self.n, &lp), Tiles::assemble(self.n, &rp), Tiles::assemble(self.n, &op_));
        let cost_split = gather_cost(&l, &lw, lt.byte_size()) + gather_cost(&r, &rw, rt.byte_size());
        // The contracted features split as the input's.
        let f = c.input_feature;
        let only_features = (0..lt.rank()).all(|d| d == f || l.counts[d] == 1);
        if l.counts[f] > 1 && lt.dims[f] % l.counts[f] == 0 && only_features {
            let mut kp: Vec<Option<(&Tiles, usize)>> = vec![None; rt.rank()];
            kp[c.kernel_input_feature] = Some((&l, f));
            let kw = Tiles::assemble(self.n, &kp);
            let cost_partial = gather_cost(&r, &kw, rt.byte_size()) + 2 * out.byte_size();
            if cost_partial < cost_split {
                let groups = l.groups_varying(&[f]).ok_or_else(|| PassError("internal error: uneven groups".into()))?;
                let b = Builder::before(op);
                let kv = self.reshard(&b, &operands[1], op.operand(1), &Placement::Array(kw))?;
                op.set_operand(0, operands[0].value);
                op.set_operand(1, kv);
                let whole = self.whole(op.result(0));
                self.finish(op, std::slice::from_ref(&whole))?;
                let adder = computation::scalar_reducer(self.module, "add", &out.elem)?;
                let after = Builder::before(op.next().ok_or_else(|| PassError("internal error: no op after".into()))?)
                    .at_location_of(op);
                let summed = self.all_reduce(&after, op.result(0), &groups, &adder)?;
                self.locals.insert(op.result(0), Local { value: summed, place: whole });
                return Ok(());
            }
        }
        let b = Builder::before(op);
        let lv = self.reshard(&b, &operands[0], op.operand(0), &Placement::Array(lw))?;
        let rv = self.reshard(&b, &operands[1], op.operand(1), &Placement::Array(rw))?;
        op.set_operand(0, lv);
        op.set_operand(1, rv);
        self.finish(op, &[Placement::Array(got)])
    }

    /// `gather`: the operand whole, the indices split along their batch
    /// dimensions as the result's batch dimensions (window dimensions
    /// whole).
    fn gather(&mut self, op: Op, operands: &[Local], t: Tiles) -> Result<()> {
        let (it, out) = (self.global_tensor(op.operand(1))?, self.global_tensor(op.result(0))?);
        let Some(pairs) = rules::indexed_batch_dims(op, "offset_dims", it.rank(), out.rank()) else {
            return self.whole_op(op, operands);
        };
        let mut ip: Vec<Option<(&Tiles, usize)>> = vec![None; it.rank()];
        let mut rp: Vec<Option<(&Tiles, usize)>> = vec![None; out.rank()];
        for &(o, i) in &pairs {
            ip[i] = Some((&t, o));
            rp[o] = Some((&t, o));
        }
        let (iw, got) = (Tiles::assemble(self.n, &ip), Tiles::assemble(self.n, &rp));
        let b = Builder::before(op);
        let ov = self.reshard(&b, &operands[0], op.operand(0), &self.whole(op.operand(0)))?;
        let iv = self.reshard(&b, &operands[1], op.operand(1), &Placement::Array(iw))?;
        op.set_operand(0, ov);
        op.set_operand(1, iv);
        self.finish(op, &[Placement::Array(got)])
    }

    /// `scatter` with an `add` combiner (a gradient of a gather): where the
    /// updates are split along their batch dimensions, each partition
    /// scatters its updates into zeros, an all-reduce sums the partitions'
    /// contributions, and the operand is added once. Any other scatter runs
    /// whole.
    fn scatter(&mut self, op: Op, operands: &[Local]) -> Result<()> {
        let single = op.num_operands() == 3 && op.num_results() == 1;
        let adds = single && combiner_is_add(self.module, op);
        let (Some(it), Some(ut)) = (
            (op.num_operands() == 3).then(|| self.global_tensor(op.operand(1)).ok()).flatten(),
            (op.num_operands() == 3).then(|| self.global_tensor(op.operand(2)).ok()).flatten(),
        ) else {
            return self.whole_op(op, operands);
        };
        let pairs = rules::indexed_batch_dims(op, "update_window_dims", it.rank(), ut.rank());
        let updates = operands[2].place.tiles().cloned();
        let (Some(pairs), Some(u), true) = (pairs, updates, adds) else { return self.whole_op(op, operands) };
        let split: Vec<(usize, usize)> = pairs.iter().copied().filter(|&(o, _)| u.counts[o] > 1).collect();
        if split.is_empty() || split.iter().any(|&(o, _)| ut.dims[o] % u.counts[o] != 0) {
            return self.whole_op(op, operands);
        }
        // Updates keep their split batch dimensions (windows whole); the
        // indices follow them.
        let mut up: Vec<Option<(&Tiles, usize)>> = vec![None; ut.rank()];
        let mut ip: Vec<Option<(&Tiles, usize)>> = vec![None; it.rank()];
        for &(o, i) in &split {
            up[o] = Some((&u, o));
            ip[i] = Some((&u, o));
        }
        let (uw, iw) = (Tiles::assemble(self.n, &up), Tiles::assemble(self.n, &ip));
        if !uw.is_uniform() {
            return self.whole_op(op, operands);
        }
        let b = Builder::before(op);
        let whole = self.whole(op.operand(0));
        let base = self.reshard(&b, &operands[0], op.operand(0), &whole)?;
        let iv = self.reshard(&b, &operands[1], op.operand(1), &Placement::Array(iw))?;
        let uv = self.reshard(&b, &operands[2], op.operand(2), &Placement::Array(uw.clone()))?;
        let operand_ty = Builder::tensor(base)?;
        let zeros = b.splat_broadcast(&operand_ty.elem, zero_of(&operand_ty.elem), &operand_ty.dims)?;
        op.set_operand(0, zeros);
        op.set_operand(1, iv);
        op.set_operand(2, uv);
        self.finish(op, std::slice::from_ref(&whole))?;
        let groups = uw
            .groups_varying(&split.iter().map(|&(o, _)| o).collect::<Vec<_>>())
            .ok_or_else(|| PassError("internal error: uneven groups".into()))?;
        let adder = computation::scalar_reducer(self.module, "add", &operand_ty.elem)?;
        let after = Builder::before(op.next().ok_or_else(|| PassError("internal error: no op after".into()))?)
            .at_location_of(op);
        let summed = self.all_reduce(&after, op.result(0), &groups, &adder)?;
        let total = after.add(base, summed)?;
        self.locals.insert(op.result(0), Local { value: total, place: whole });
        Ok(())
    }

    /// A partitioned copy of computation `name` (the original may have
    /// other callers), its parameters placed as `params`; returns the copy's
    /// name and its results' placements.
    fn partitioned_copy(&mut self, name: &str, params: &[Placement], want: Want) -> Result<(String, Vec<Placement>)> {
        let func = computation::lookup(self.module, name)
            .ok_or_else(|| PassError(format!("no computation named '{name}'")))?;
        let copy = computation::clone_function(self.module, func, &format!("{name}{SPMD_SUFFIX}"))?;
        let places = partition_computation(self.module, copy, self.n, self.channels, Some(params), want)?;
        Ok((computation::name(copy), places))
    }

    /// `while`: the loop state keeps its init's placement (but for whole
    /// elements the body returns split, see [`loop_state`]); body and
    /// condition are partitioned for it (the body's result resharded back
    /// to it, the condition's pred whole).
    fn while_loop(&mut self, op: Op, operands: &[Local]) -> Result<()> {
        let body = op.symbol_attr("body").ok_or_else(|| PassError("while without a body".into()))?;
        let body_func = computation::lookup(self.module, &body)
            .ok_or_else(|| PassError(format!("no computation named '{body}'")))?;
        let carry = loop_state(body_func, &operands[0].place, self.n)?;
        let init = if carry == operands[0].place {
            operands[0].value
        } else {
            self.reshard(&Builder::before(op), &operands[0], op.operand(0), &carry)?
        };
        let cond = op.symbol_attr("condition").ok_or_else(|| PassError("while without a condition".into()))?;
        let (body, _) = self.partitioned_copy(&body, std::slice::from_ref(&carry), Want::Given(vec![carry.clone()]))?;
        let pred = self.cond_result(&cond)?;
        let (cond, _) = self.partitioned_copy(&cond, std::slice::from_ref(&carry), Want::Given(vec![pred]))?;
        op.set_operand(0, init);
        op.set_attr("body", &format!("@{}", quote_symbol(&body)))?;
        op.set_attr("condition", &format!("@{}", quote_symbol(&cond)))?;
        self.finish(op, &[carry])
    }

    /// The whole placement of computation `name`'s one result.
    fn cond_result(&self, name: &str) -> Result<Placement> {
        let func = computation::lookup(self.module, name)
            .ok_or_else(|| PassError(format!("no computation named '{name}'")))?;
        let ty = func
            .return_values()
            .first()
            .map(|v| v.ty())
            .ok_or_else(|| PassError("a condition without result".into()))?;
        Ok(Placement::replicated(&ty, self.n))
    }

    /// `call`: the callee partitioned for its operands' placements; the
    /// results are what it gives.
    fn call(&mut self, op: Op, operands: &[Local]) -> Result<()> {
        let callee = op.symbol_attr("to_apply").ok_or_else(|| PassError("call without to_apply".into()))?;
        let params: Vec<Placement> = operands.iter().map(|l| l.place.clone()).collect();
        let (copy, places) = self.partitioned_copy(&callee, &params, Want::Any)?;
        for (i, l) in operands.iter().enumerate() {
            op.set_operand(i, l.value);
        }
        op.set_attr("to_apply", &format!("@{}", quote_symbol(&copy)))?;
        self.finish(op, &places)
    }

    /// `conditional`: the branch index whole; each branch partitioned for
    /// its operand's placement, all giving the first branch's result
    /// placements.
    fn conditional(&mut self, op: Op, operands: &[Local]) -> Result<()> {
        let Some(branches) = op.symbol_list_attr("branch_computations") else {
            return self.whole_op(op, operands);
        };
        if branches.len() + 1 != operands.len() {
            return self.whole_op(op, operands);
        }
        let b = Builder::before(op);
        let index = self.reshard(&b, &operands[0], op.operand(0), &self.whole(op.operand(0)))?;
        op.set_operand(0, index);
        let mut results: Option<Vec<Placement>> = None;
        let mut copies = Vec::new();
        for (k, branch) in branches.iter().enumerate() {
            let l = &operands[k + 1];
            let want = match &results {
                Some(r) => Want::Given(r.clone()),
                None => Want::Any,
            };
            let (copy, places) = self.partitioned_copy(branch, std::slice::from_ref(&l.place), want)?;
            results.get_or_insert(places);
            copies.push(copy);
            op.set_operand(k + 1, l.value);
        }
        let mut next = copies.into_iter();
        computation::replace_callees(op, |_| next.next())?;
        self.finish(op, &results.unwrap_or_default())
    }

    /// The edges of a region partitioned by hand (`shard_map`): GSPMD's
    /// `SPMDFullToShardShape` (a value's block becomes the region's own)
    /// and `SPMDShardToFullShape` (the region's value becomes the block of
    /// the call's sharding), and Shardy's `xla.sdy.GlobalToLocalShape` /
    /// `xla.sdy.LocalToGlobalShape` (the same for several values, with the
    /// shardings in `xla.sdy.in_shardings` / `xla.sdy.out_shardings`).
    /// The edge is removed; its result maps to the block itself.
    fn manual_edge(&mut self, op: Op, target: &str, operands: &[Local], targets: &[Placement]) -> Result<()> {
        let b = Builder::before(op);
        let check = |global: &TensorType, tiles: &Tiles, local: Value| -> Result<()> {
            let block = tiles.local_dims(&global.dims);
            let have = Builder::tensor(local)?.dims;
            if block != have {
                return Err(PassError(format!(
                    "custom-call '{target}': the region's shape {have:?} is not the block {block:?} of {:?} under its \
                     sharding (a partially manual sharding is not supported)",
                    global.dims
                )));
            }
            Ok(())
        };
        match target {
            "SPMDFullToShardShape" => {
                let tiles = self.tiles_of(&operands[0])?;
                check(&self.global_tensor(op.operand(0))?, &tiles, operands[0].value)?;
                self.locals.insert(op.result(0), Local { value: operands[0].value, place: Placement::Manual });
            }
            "SPMDShardToFullShape" => {
                let want = targets.first().and_then(Placement::tiles).cloned();
                let (Some(tiles), Placement::Manual) = (want, &operands[0].place) else {
                    return Err(PassError(format!("custom-call '{target}' of a value outside a manual region")));
                };
                check(&self.global_tensor(op.result(0))?, &tiles, operands[0].value)?;
                self.locals.insert(op.result(0), Local { value: operands[0].value, place: Placement::Array(tiles) });
            }
            "xla.sdy.GlobalToLocalShape" => {
                let shardings = self.shardy(op, "xla.sdy.in_shardings", operands.len())?;
                let mut blocks = Vec::new();
                for (i, (l, s)) in operands.iter().zip(&shardings).enumerate() {
                    let global = self.global_tensor(op.operand(i))?;
                    let tiles = Tiles::from_sharding(s, global.rank(), self.n).map_err(PassError)?;
                    let v = self.reshard(&b, l, op.operand(i), &Placement::Array(tiles.clone()))?;
                    check(&global, &tiles, v)?;
                    blocks.push(v);
                }
                let v = if op.result_type(0).tensor().is_some() { blocks[0] } else { b.tuple(&blocks)? };
                self.locals.insert(op.result(0), Local { value: v, place: Placement::Manual });
            }
            "xla.sdy.LocalToGlobalShape" => {
                let shardings = self.shardy(op, "xla.sdy.out_shardings", operands.len())?;
                let globals: Vec<TensorType> = match self.global_ty(op.result(0)) {
                    HloType::Tuple(items) => items.iter().filter_map(|t| t.tensor().cloned()).collect(),
                    HloType::Tensor(t) => vec![t],
                    other => return Err(PassError(format!("custom-call '{target}' of type {other}"))),
                };
                let mut places = Vec::new();
                for ((l, s), global) in operands.iter().zip(&shardings).zip(&globals) {
                    let tiles = Tiles::from_sharding(s, global.rank(), self.n).map_err(PassError)?;
                    if l.place != Placement::Manual {
                        return Err(PassError(format!("custom-call '{target}' of a value outside a manual region")));
                    }
                    check(global, &tiles, l.value)?;
                    places.push(Placement::Array(tiles));
                }
                let local = if op.result_type(0).tensor().is_some() {
                    Local { value: operands[0].value, place: places.remove(0) }
                } else {
                    let values: Vec<Value> = operands.iter().map(|l| l.value).collect();
                    Local { value: b.tuple(&values)?, place: Placement::Tuple(places) }
                };
                self.locals.insert(op.result(0), local);
            }
            _ => {
                return Err(PassError(format!(
                    "custom-call '{target}' marks a region partitioned by hand, which the SPMD partitioner does not \
                     support in this form"
                )))
            }
        }
        Ok(())
    }

    /// The `count` shardings Shardy states in `op`'s frontend attribute
    /// `key`.
    fn shardy(&self, op: Op, key: &str, count: usize) -> Result<Vec<rxla_hlo_text::attrs::LeafSharding>> {
        let module_attributes = module_attribute(self.module, "frontend_attributes").unwrap_or_default();
        let op_attributes = op.string_attr("hlo.frontend_attributes").unwrap_or_default();
        let shardings = sharding_attr::shardy_value_shardings(&module_attributes, &op_attributes, key)
            .map_err(PassError)?
            .ok_or_else(|| PassError(format!("custom-call without {key}")))?;
        if shardings.len() != count {
            return Err(PassError(format!("{key} has {} shardings for {count} values", shardings.len())));
        }
        Ok(shardings)
    }

    /// Sets the result types of `op` to the blocks of `places` and records
    /// its results.
    fn finish(&mut self, op: Op, places: &[Placement]) -> Result<()> {
        op.remove_attr("hlo.sharding");
        for (i, place) in places.iter().enumerate() {
            let v = op.result(i);
            set_type(v, &local_type(&self.global_ty(v), place))?;
            self.locals.insert(v, Local { value: v, place: place.clone() });
        }
        Ok(())
    }

    fn whole(&self, v: Value) -> Placement {
        Placement::replicated(&self.global_ty(v), self.n)
    }

    /// The fallback: whole operands, whole results.
    fn whole_op(&mut self, op: Op, operands: &[Local]) -> Result<()> {
        let b = Builder::before(op);
        for (i, l) in operands.iter().enumerate() {
            let want = self.whole(op.operand(i));
            let v = self.reshard(&b, l, op.operand(i), &want)?;
            op.set_operand(i, v);
        }
        let places: Vec<Placement> = op.results().into_iter().map(|v| self.whole(v)).collect();
        self.finish(op, &places)
    }

    fn passthrough(&mut self, op: Op, operands: &[Local], pass: &[bool], t: &Tiles) -> Result<()> {
        let picks: Vec<Option<(&Tiles, usize)>> = pass.iter().enumerate().map(|(d, &p)| p.then_some((t, d))).collect();
        let t = Tiles::assemble(self.n, &picks);
        let b = Builder::before(op);
        let rank = t.rank();
        for (i, l) in operands.iter().enumerate() {
            let ty = self.global_ty(op.operand(i));
            let want = match ty.tensor() {
                Some(tt) if tt.rank() == rank && rank > 0 => Placement::Array(t.clone()),
                _ => self.whole(op.operand(i)),
            };
            let v = self.reshard(&b, l, op.operand(i), &want)?;
            op.set_operand(i, v);
        }
        let out = self.global_tensor(op.result(0))?;
        let local = t.local_dims(&out.dims);
        let fix = |name: &str| -> Result<()> {
            if let Some(mut sizes) = op.dims_attr(name) {
                for d in 0..rank {
                    if pass[d] {
                        sizes[d] = local[d];
                    }
                }
                op.set_attr(name, &dims_text(&sizes))?;
            }
            Ok(())
        };
        match op.opcode().as_str() {
            "slice" => fix("limit_indices")?,
            "dynamic_slice" => fix("slice_sizes")?,
            _ => {}
        }
        let places = vec![Placement::Array(t); op.num_results()];
        self.finish(op, &places)
    }

    fn reduce(&mut self, op: Op, operands: &[Local], t: Tiles) -> Result<()> {
        let k = op.num_operands() / 2;
        let input = self.global_tensor(op.operand(0))?;
        let reduced: Vec<usize> = op.dims_attr("dimensions").unwrap_or_default().iter().map(|&d| d as usize).collect();
        let l = self.tiles_of(&operands[0])?;
        let kept: Vec<usize> = (0..input.rank()).filter(|d| !reduced.contains(d)).collect();
        let combinable = k == 1 && identity_init(self.module, op);
        let mut picks: Vec<Option<(&Tiles, usize)>> = vec![None; input.rank()];
        for (i, &d) in kept.iter().enumerate() {
            picks[d] = Some((&t, i));
        }
        if combinable {
            for &d in &reduced {
                if l.counts[d] > 1 && input.dims[d] % l.counts[d] == 0 {
                    picks[d] = Some((&l, d));
                }
            }
        }
        let mut want = Tiles::assemble(self.n, &picks);
        if !want.is_uniform() {
            want = want.without(&reduced);
        }
        let b = Builder::before(op);
        for (i, l) in operands.iter().enumerate() {
            let place = if i < k { Placement::Array(want.clone()) } else { self.whole(op.operand(i)) };
            let v = self.reshard(&b, l, op.operand(i), &place)?;
            op.set_operand(i, v);
        }
        let places = vec![Placement::Array(t.clone()); op.num_results()];
        self.finish(op, &places)?;
        let split: Vec<usize> = reduced.iter().copied().filter(|&d| want.counts[d] > 1).collect();
        if !split.is_empty() {
            let groups =
                want.groups_varying(&split).ok_or_else(|| PassError("internal error: uneven groups".into()))?;
            let reducer = op.symbol_attr("to_apply").ok_or_else(|| PassError("reduce without to_apply".into()))?;
            let after = Builder::before(op.next().ok_or_else(|| PassError("internal error: no op after".into()))?)
                .at_location_of(op);
            let summed = self.all_reduce(&after, op.result(0), &groups, &reducer)?;
            self.locals.insert(op.result(0), Local { value: summed, place: Placement::Array(t) });
        }
        Ok(())
    }

    fn dot(&mut self, op: Op, operands: &[Local], t: Tiles) -> Result<()> {
        let (lt, rt) = (self.global_tensor(op.operand(0))?, self.global_tensor(op.operand(1))?);
        let out = self.global_tensor(op.result(0))?;
        let (l, r) = (self.tiles_of(&operands[0])?, self.tiles_of(&operands[1])?);
        let Some(layout) = DotLayout::of(op, lt.rank(), rt.rank()) else { return self.whole_op(op, operands) };
        // Each operand in the result's sharding.
        let (la, ra) =
            (layout.operand_from_result(&t, true, lt.rank()), layout.operand_from_result(&t, false, rt.rank()));
        let mut best = (gather_cost(&l, &la, lt.byte_size()) + gather_cost(&r, &ra, rt.byte_size()), la, ra, None);
        // One operand as it is, contracting dimensions sharded, the other
        // matched; partial products summed.
        for base_lhs in [true, false] {
            if let Some((lb, rb, partial)) = partial_dot(&layout, &l, &r, &lt, &rt, base_lhs) {
                let sum = partial_bytes(&partial, &out);
                let cost = gather_cost(&l, &lb, lt.byte_size()) + gather_cost(&r, &rb, rt.byte_size()) + 2 * sum;
                if cost < best.0 {
                    best = (cost, lb, rb, Some(partial));
                }
            }
        }
        let (_, lw, rw, partial) = best;
        let b = Builder::before(op);
        let lv = self.reshard(&b, &operands[0], op.operand(0), &Placement::Array(lw))?;
        let rv = self.reshard(&b, &operands[1], op.operand(1), &Placement::Array(rw))?;
        op.set_operand(0, lv);
        op.set_operand(1, rv);
        match partial {
            None => self.finish(op, &[Placement::Array(t)]),
            Some((partial, contracted)) => {
                let rank = out.rank();
                let result = Tiles {
                    counts: partial.counts[..rank].to_vec(),
                    coords: partial.coords.iter().map(|c| c[..rank].to_vec()).collect(),
                };
                self.finish(op, &[Placement::Array(result.clone())])?;
                let groups = partial
                    .groups_varying(&contracted)
                    .ok_or_else(|| PassError("internal error: uneven groups".into()))?;
                let adder =
                    computation::scalar_reducer(self.module, if out.elem.is_pred() { "or" } else { "add" }, &out.elem)?;
                let after = Builder::before(op.next().ok_or_else(|| PassError("internal error: no op after".into()))?)
                    .at_location_of(op);
                // Where the result is wanted split further along one
                // dimension across each group, each partition keeps only
                // its part of the sum.
                if let Some(d) = scatter_dim(&result, &t, &groups, &out) {
                    let summed = self.reduce_scatter(&after, op.result(0), &groups, &adder, d)?;
                    self.locals.insert(op.result(0), Local { value: summed, place: Placement::Array(t) });
                    return Ok(());
                }
                let summed = self.all_reduce(&after, op.result(0), &groups, &adder)?;
                self.locals.insert(op.result(0), Local { value: summed, place: Placement::Array(result) });
                Ok(())
            }
        }
    }

    /// The entry's return: every result resharded to its stated sharding
    /// (the ROOT's), or left as it is, and recorded in `res_attrs`.
    fn results(&mut self, ret: Op, want: &Want) -> Result<Vec<Placement>> {
        let b = Builder::before(ret);
        let mut places = Vec::new();
        for (i, v) in ret.operands().into_iter().enumerate() {
            let l = self.local(v)?;
            let ty = self.global_ty(v);
            let target = match want {
                Want::Stated(texts) => {
                    let text = texts.get(i).cloned().flatten();
                    stated(text, &ty, self.n, &format!("result {i}"))?.unwrap_or_else(|| l.place.clone())
                }
                Want::Given(places) => places.get(i).cloned().unwrap_or_else(|| l.place.clone()),
                Want::Any => l.place.clone(),
            };
            let value = self.reshard(&b, &l, v, &target)?;
            ret.set_operand(i, value);
            places.push(target);
        }
        Ok(places)
    }

    // ------------------------------------------------------------------
    // Resharding.

    /// `l` (a block of `original`) as `want`.
    fn reshard(&mut self, b: &Builder, l: &Local, original: Value, want: &Placement) -> Result<Value> {
        if &l.place == want {
            return Ok(l.value);
        }
        let ty = self.global_ty(original);
        self.reshard_typed(b, l.value, &l.place, want, &ty)
    }

    fn reshard_typed(
        &mut self,
        b: &Builder,
        v: Value,
        from: &Placement,
        to: &Placement,
        ty: &HloType,
    ) -> Result<Value> {
        match (from, to, ty) {
            _ if from == to => Ok(v),
            (Placement::Array(f), Placement::Array(t), HloType::Tensor(g)) => self.reshard_array(b, v, f, t, g),
            (Placement::Tuple(fs), Placement::Tuple(ts), HloType::Tuple(gs)) => {
                let mut items = Vec::new();
                for (i, ((f, t), g)) in fs.iter().zip(ts).zip(gs).enumerate() {
                    let item = b.get_tuple_element(v, i)?;
                    items.push(self.reshard_typed(b, item, f, t, g)?);
                }
                b.tuple(&items)
            }
            _ => Ok(v),
        }
    }

    fn reshard_array(&mut self, b: &Builder, v: Value, from: &Tiles, to: &Tiles, global: &TensorType) -> Result<Value> {
        let (mut v, mut cur) = (v, from.clone());
        // A split moving from one dimension to another over the same
        // partitions: one all-to-all instead of a gather and a slice.
        while let Some((a, d)) = moved_split(&cur, to, global) {
            v = self.all_to_all(b, v, &cur, a, d)?;
            let k = cur.counts[a];
            let mut next = cur.without(&[a]);
            next.counts[d] = k;
            for (c, t) in next.coords.iter_mut().zip(&to.coords) {
                c[d] = t[d];
            }
            cur = next;
        }
        // The same blocks on other partitions: one collective-permute.
        if let Some(pairs) = permutation(&cur, to) {
            v = self.collective_permute(b, v, &pairs)?;
            cur = to.clone();
        }
        for d in 0..cur.rank() {
            if cur.counts[d] > 1 && !same_dim(&cur, to, d) {
                v = self.all_gather(b, v, &cur, d, global)?;
                cur = cur.without(&[d]);
            }
        }
        let cut: Vec<usize> = (0..cur.rank()).filter(|&d| cur.counts[d] == 1 && to.counts[d] > 1).collect();
        if cut.is_empty() {
            return Ok(v);
        }
        self.slice_blocks(b, v, &cur, to, &cut, global)
    }

    /// Moves the split of dimension `a` of `v` (blocks `tiles`) to
    /// dimension `d`, which is whole: XLA's array all-to-all (split and
    /// concatenate along one dimension) on `d` cut into [k, n/k], then that
    /// k-dimension, now the source partition, merged into `a`.
    fn all_to_all(&mut self, b: &Builder, v: Value, tiles: &Tiles, a: usize, d: usize) -> Result<Value> {
        let groups = tiles.groups_varying(&[a]).ok_or_else(|| PassError("internal error: uneven blocks".into()))?;
        let k = tiles.counts[a];
        let local = Builder::tensor(v)?;
        let mut split = local.dims.clone();
        split[d] /= k;
        split.insert(d, k);
        let x = b.reshape(v, &split)?;
        let attrs = vec![
            ("channel_id", format!("{} : i64", self.channel())),
            ("dimensions", dims_text(&[d as i64])),
            ("replica_groups", self.partition_groups_attr(&groups)),
        ];
        let exchanged = b.value("hlo.all_to_all", &[x], Builder::tensor(x)?.into(), &attrs)?;
        // The source partition (at d) goes right before a's block.
        let a_at = if a < d { a } else { a + 1 };
        let mut order: Vec<i64> = (0..split.len() as i64).filter(|&i| i != d as i64).collect();
        let pos = order.iter().position(|&i| i == a_at as i64).expect("a is a dimension");
        order.insert(pos, d as i64);
        let moved = b.transpose(exchanged, &order)?;
        let mut dims = local.dims.clone();
        dims[a] *= k;
        dims[d] /= k;
        b.reshape(moved, &dims)
    }

    /// Sends each `(source, target)` partition's block to the target.
    fn collective_permute(&mut self, b: &Builder, v: Value, pairs: &[(usize, usize)]) -> Result<Value> {
        let list: Vec<String> = pairs.iter().map(|(s, t)| format!("[{s}, {t}]")).collect();
        let attrs = vec![
            ("channel_id", format!("{} : i64", self.channel())),
            ("source_target_pairs", format!("#hlo.groups<[{}]>", list.join(", "))),
        ];
        b.value("hlo.collective_permute", &[v], v.ty(), &attrs)
    }

    /// `#hlo.groups<...>` of partition ids (the cross-partition form of
    /// all-to-all with a channel id).
    fn partition_groups_attr(&self, groups: &[Vec<usize>]) -> String {
        let all: Vec<String> = groups
            .iter()
            .map(|g| format!("[{}]", g.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")))
            .collect();
        format!("#hlo.groups<[{}]>", all.join(", "))
    }

    /// Gathers dimension `d` of `v` (blocks `tiles`) whole.
    fn all_gather(&mut self, b: &Builder, v: Value, tiles: &Tiles, d: usize, global: &TensorType) -> Result<Value> {
        let groups = tiles.groups_varying(&[d]).ok_or_else(|| PassError("internal error: uneven blocks".into()))?;
        let local = Builder::tensor(v)?;
        let mut dims = local.dims.clone();
        dims[d] *= tiles.counts[d];
        let attrs = vec![
            ("all_gather_dimension", format!("{d} : i64")),
            ("channel_id", format!("{} : i64", self.channel())),
            ("replica_groups", self.groups_attr(&groups)),
            ("use_global_device_ids", "true".to_string()),
        ];
        let gathered = b.value("hlo.all_gather", &[v], TensorType::new(&dims, &local.elem).into(), &attrs)?;
        if dims[d] == global.dims[d] {
            return Ok(gathered);
        }
        // Uneven blocks: drop the padding.
        let mut limit = dims.clone();
        limit[d] = global.dims[d];
        b.slice(gathered, &vec![0; dims.len()], &limit, &vec![1; dims.len()])
    }

    /// Cuts the partition's block of dimensions `cut` (whole in `v`).
    fn slice_blocks(
        &mut self,
        b: &Builder,
        v: Value,
        cur: &Tiles,
        to: &Tiles,
        cut: &[usize],
        global: &TensorType,
    ) -> Result<Value> {
        let local = Builder::tensor(v)?;
        let target = to.local_dims(&global.dims);
        // Uneven blocks: pad to whole blocks first.
        let high: Vec<i64> = (0..local.rank())
            .map(|d| if cut.contains(&d) { target[d] * to.counts[d] - local.dims[d] } else { 0 })
            .collect();
        let v = if high.iter().any(|&h| h > 0) {
            let zero = b.scalar(&local.elem, zero_of(&local.elem))?;
            b.pad(v, zero, &vec![0; local.rank()], &high, &vec![0; local.rank()])?
        } else {
            v
        };
        let mut indices = Vec::new();
        let mut sizes = local.dims.clone();
        for d in 0..local.rank() {
            let table = if cut.contains(&d) {
                sizes[d] = target[d];
                to.offsets(&global.dims, d)
            } else {
                vec![0; self.n]
            };
            indices.push(self.offset(b, &table)?);
        }
        let _ = cur;
        b.value(
            "hlo.dynamic_slice",
            &[vec![v], indices].concat(),
            TensorType::new(&sizes, &local.elem).into(),
            &[("slice_sizes", dims_text(&sizes))],
        )
    }

    /// The s32 scalar `table[partition-id]`.
    fn offset(&mut self, b: &Builder, table: &[i64]) -> Result<Value> {
        let s32 = ElementType::new("i32");
        if table.iter().all(|&x| x == table[0]) {
            return b.scalar(&s32, Scalar::Int(table[0] as i128));
        }
        let pid = self.pid()?;
        let list: Vec<String> = table.iter().map(i64::to_string).collect();
        let ty = TensorType::new(&[table.len() as i64], &s32);
        let c = b.constant_attr(&format!("dense<[{}]> : {ty}", list.join(", ")), &ty)?;
        let one = TensorType::new(&[1], &s32);
        let picked = b.value("hlo.dynamic_slice", &[c, pid], one.into(), &[("slice_sizes", dims_text(&[1]))])?;
        b.reshape(picked, &[])
    }

    fn pid(&mut self) -> Result<Value> {
        if let Some(p) = self.pid {
            return Ok(p);
        }
        let b = Builder::before(self.top);
        let id = b.value("hlo.partition_id", &[], TensorType::scalar(&ElementType::new("ui32")).into(), &[])?;
        let p = b.convert(id, &ElementType::new("i32"))?;
        self.pid = Some(p);
        Ok(p)
    }

    fn channel(&mut self) -> i64 {
        let c = self.channels.get();
        self.channels.set(c + 1);
        c
    }

    /// `#hlo.groups<...>` of partition groups, repeated for every replica
    /// (global device ids: `replica * partitions + partition`).
    fn groups_attr(&self, groups: &[Vec<usize>]) -> String {
        let mut all = Vec::new();
        for r in 0..self.replicas {
            for g in groups {
                let ids: Vec<String> = g.iter().map(|p| (r * self.n + p).to_string()).collect();
                all.push(format!("[{}]", ids.join(", ")));
            }
        }
        format!("#hlo.groups<[{}]>", all.join(", "))
    }

    /// The sum over each group of `v`, of which each member keeps its part
    /// along dimension `d` (in group order).
    fn reduce_scatter(
        &mut self,
        b: &Builder,
        v: Value,
        groups: &[Vec<usize>],
        reducer: &str,
        d: usize,
    ) -> Result<Value> {
        let local = Builder::tensor(v)?;
        let mut dims = local.dims.clone();
        dims[d] /= groups[0].len() as i64;
        let attrs = vec![
            ("channel_id", format!("{} : i64", self.channel())),
            ("replica_groups", self.groups_attr(groups)),
            ("scatter_dimension", format!("{d} : i64")),
            ("to_apply", format!("@{}", quote_symbol(reducer))),
            ("use_global_device_ids", "true".to_string()),
        ];
        b.value("hlo.reduce_scatter", &[v], TensorType::new(&dims, &local.elem).into(), &attrs)
    }

    fn all_reduce(&mut self, b: &Builder, v: Value, groups: &[Vec<usize>], reducer: &str) -> Result<Value> {
        let attrs = vec![
            ("channel_id", format!("{} : i64", self.channel())),
            ("replica_groups", self.groups_attr(groups)),
            ("to_apply", format!("@{}", quote_symbol(reducer))),
            ("use_global_device_ids", "true".to_string()),
        ];
        b.value("hlo.all_reduce", &[v], v.ty(), &attrs)
    }
}

/// The dimension along which `target` splits what `partial` (summed over
/// each of `groups`) has whole, one block per group member in group order,
/// all else alike: where a reduce-scatter gives `target` directly.
fn scatter_dim(partial: &Tiles, target: &Tiles, groups: &[Vec<usize>], out: &TensorType) -> Option<usize> {
    let k = groups.first()?.len() as i64;
    (0..partial.rank()).find(|&d| {
        partial.counts[d] == 1
            && target.counts[d] == k
            && out.dims[d] % k == 0
            && (0..partial.rank()).filter(|&i| i != d).all(|i| same_dim(partial, target, i))
            && groups.iter().all(|g| g.iter().enumerate().all(|(j, &p)| target.coords[p][d] == j as i64))
    })
}

/// Where `to` has `from`'s blocks, held by other partitions: for each
/// partition, a distinct partition that holds its block in `from` (itself
/// if it does): the `(source, target)` pairs of one collective-permute.
/// `None` if the blocks differ in size or no distinct sources exist.
fn permutation(from: &Tiles, to: &Tiles) -> Option<Vec<(usize, usize)>> {
    if from.counts != to.counts || from == to || from.is_replicated() {
        return None;
    }
    // A partition that keeps its block sends it to itself (one that is
    // no target receives zeros).
    let keeps: Vec<bool> = (0..from.partitions()).map(|p| from.coords[p] == to.coords[p]).collect();
    let mut used = keeps.clone();
    let mut pairs = Vec::new();
    for (p, want) in to.coords.iter().enumerate() {
        if keeps[p] {
            pairs.push((p, p));
            continue;
        }
        let q = (0..from.partitions()).find(|&q| !used[q] && &from.coords[q] == want)?;
        used[q] = true;
        pairs.push((q, p));
    }
    Some(pairs)
}

/// A split of `k` blocks that moves from dimension `a` (whole in `to`) to
/// dimension `d` (whole in `from`), held by the same partitions in the
/// same order, both sizes divisible by `k`, every other dimension as it
/// is: what one all-to-all does.
fn moved_split(from: &Tiles, to: &Tiles, global: &TensorType) -> Option<(usize, usize)> {
    let rank = from.rank();
    for a in 0..rank {
        let k = from.counts[a];
        if k <= 1 || to.counts[a] != 1 || global.dims[a] % k != 0 {
            continue;
        }
        for d in (0..rank).filter(|&d| d != a) {
            let fits = from.counts[d] == 1
                && to.counts[d] == k
                && global.dims[d] % k == 0
                && from.coords.iter().zip(&to.coords).all(|(f, t)| f[a] == t[d])
                && (0..rank).filter(|&i| i != a && i != d).all(|i| same_dim(from, to, i));
            if fits {
                return Some((a, d));
            }
        }
    }
    None
}

/// True if dimension `d` has the same blocks on every partition in both.
fn same_dim(a: &Tiles, b: &Tiles, d: usize) -> bool {
    a.counts[d] == b.counts[d] && a.coords.iter().zip(&b.coords).all(|(x, y)| x[d] == y[d])
}

/// Bytes an operand of `bytes` must gather to go from `from` to `to` (0
/// when every partition already holds what it needs).
fn gather_cost(from: &Tiles, to: &Tiles, bytes: u64) -> u64 {
    if (0..from.rank()).all(|d| from.counts[d] == 1 || same_dim(from, to, d)) {
        0
    } else {
        bytes
    }
}

fn partial_bytes(partial: &(Tiles, Vec<usize>), out: &TensorType) -> u64 {
    let rank = out.rank();
    let blocks: i64 = partial.0.counts[..rank].iter().product();
    out.byte_size() / blocks.max(1) as u64
}

/// The dot with its contracting dimensions split as `base`'s (the lhs for
/// `base_lhs`): the operand shardings, and the partial product's sharding
/// over the result dimensions plus one per contracting pair (the
/// dimensions the all-reduce sums over, listed).
fn partial_dot(
    layout: &DotLayout,
    l: &Tiles,
    r: &Tiles,
    lt: &TensorType,
    rt: &TensorType,
    base_lhs: bool,
) -> Option<(Tiles, Tiles, (Tiles, Vec<usize>))> {
    let d = &layout.dims;
    let (base, other, base_c, other_c, base_b, other_b, base_t) = if base_lhs {
        (l, r, &d.lhs_contracting, &d.rhs_contracting, &d.lhs_batch, &d.rhs_batch, lt)
    } else {
        (r, l, &d.rhs_contracting, &d.lhs_contracting, &d.rhs_batch, &d.lhs_batch, rt)
    };
    if !base_c.iter().any(|&c| base.counts[c as usize] > 1)
        || base_c.iter().any(|&c| base_t.dims[c as usize] % base.counts[c as usize] != 0)
    {
        return None;
    }
    let n = l.partitions();
    let other_rank = if base_lhs { rt.rank() } else { lt.rank() };
    let other_free = if base_lhs { &layout.rhs_free } else { &layout.lhs_free };
    let mut picks: Vec<Option<(&Tiles, usize)>> = vec![None; other_rank];
    for (k, &c) in other_c.iter().enumerate() {
        picks[c as usize] = Some((base, base_c[k] as usize));
    }
    for (k, &bd) in other_b.iter().enumerate() {
        picks[bd as usize] = Some((base, base_b[k] as usize));
    }
    for &f in other_free {
        picks[f as usize] = Some((other, f as usize));
    }
    let matched = Tiles::assemble(n, &picks);
    // The partial product: result dimensions, then the contracting ones.
    let (lhs_side, rhs_side) = if base_lhs { (base, &matched) } else { (&matched, base) };
    let mut result: Vec<Option<(&Tiles, usize)>> = d.lhs_batch.iter().map(|&x| Some((lhs_side, x as usize))).collect();
    result.extend(layout.lhs_free.iter().map(|&x| Some((lhs_side, x as usize))));
    result.extend(layout.rhs_free.iter().map(|&x| Some((rhs_side, x as usize))));
    let rank = result.len();
    result.extend(base_c.iter().map(|&c| Some((base, c as usize))));
    let partial = Tiles::assemble(n, &result);
    if !matched.is_uniform() || !partial.is_uniform() {
        return None;
    }
    let contracted: Vec<usize> = (rank..partial.rank()).filter(|&i| partial.counts[i] > 1).collect();
    let (lw, rw) = if base_lhs { (base.clone(), matched) } else { (matched, base.clone()) };
    Some((lw, rw, (partial, contracted)))
}

/// True if `scatter`'s combiner adds the update to the operand (one `add`
/// of its two parameters), so that contributions scattered into zeros
/// sum to the same result.
fn combiner_is_add(module: Op, scatter: Op) -> bool {
    let Some(f) = scatter.symbol_attr("to_apply").and_then(|name| computation::lookup(module, &name)) else {
        return false;
    };
    let (body, args) = (f.body_ops(), f.arguments());
    body.len() == 2
        && args.len() == 2
        && body[0].is("add")
        && body[0].num_operands() == 2
        && ((body[0].operand(0) == args[0] && body[0].operand(1) == args[1])
            || (body[0].operand(0) == args[1] && body[0].operand(1) == args[0]))
        && body[1].operand(0) == body[0].result(0)
}

/// True if `reduce`'s reducer is one binary op whose identity is the init
/// value, so that partial reductions combine with the same reducer.
fn identity_init(module: Op, reduce: Op) -> bool {
    let Some(f) = reduce.symbol_attr("to_apply").and_then(|name| computation::lookup(module, &name)) else {
        return false;
    };
    let body = f.body_ops();
    let args = f.arguments();
    if body.len() != 2 || args.len() != 2 {
        return false;
    }
    let r = body[0];
    let uses_args = r.num_operands() == 2
        && ((r.operand(0) == args[0] && r.operand(1) == args[1])
            || (r.operand(0) == args[1] && r.operand(1) == args[0]));
    if !uses_args || body[1].operand(0) != r.result(0) {
        return false;
    }
    let Some(elem) = reduce.operand_type(1).tensor().map(|t| t.elem.clone()) else { return false };
    let Some(init) = splat(reduce.operand(1)) else { return false };
    let bits = elem.bit_width();
    let (min_int, max_int) = if elem.is_unsigned_int() {
        (0i128, (1i128 << bits) - 1)
    } else {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    };
    match (r.opcode().as_str(), init) {
        ("add" | "or", s) => s.is_zero(),
        ("multiply", s) => s.is_one(),
        ("and", Scalar::Bool(true)) => true,
        ("maximum", Scalar::Float(f)) => f == f64::NEG_INFINITY,
        ("minimum", Scalar::Float(f)) => f == f64::INFINITY,
        ("maximum", Scalar::Int(i)) => i == min_int,
        ("minimum", Scalar::Int(i)) => i == max_int,
        ("maximum", Scalar::Bool(b)) => !b,
        ("minimum", Scalar::Bool(b)) => b,
        _ => false,
    }
}

fn zero_of(elem: &ElementType) -> Scalar {
    if elem.is_pred() {
        Scalar::Bool(false)
    } else if elem.is_float() || elem.is_complex() {
        Scalar::Float(0.0)
    } else {
        Scalar::Int(0)
    }
}
