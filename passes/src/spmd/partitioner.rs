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
//!   summed by an `all-reduce` (a `reduce-scatter` where the result is
//!   wanted split across the summing partitions); whichever moves fewer
//!   bytes.
//! - `convolution`: the batch and output features split as the result's,
//!   spatial dimensions too where the blocks line up, each extended by a
//!   halo from its neighbours (`halo`); or partial sums where the input
//!   features are split (weight gradients). `gather` and `scatter`
//!   (`indexed`): blocks of the indices, and of the operand where each
//!   partition can tell which indices fall in its block.
//! - `pad` and `slice` along a split dimension: blocks shifted by halos
//!   and a window at each partition's offset (`halo`).
//! - `slice`, `pad`, `reverse`, `concatenate`, `sort`, `dynamic-slice`,
//!   `dynamic-update-slice`, `iota`: sharded along the dimensions they act
//!   independently on, whole along the others.
//! - `while`, `call`, `conditional`: partitioned copies of the computations
//!   they run (a loop's state keeps one placement).
//! - `Sharding` / `xla.sdy.FuncResultSharding` custom calls reshard their
//!   operand and disappear; regions partitioned by hand (`shard_map`) keep
//!   their ops as written, their edges become the blocks themselves.
//! - Every other op runs on whole operands and gives whole results (correct
//!   for any op; the partitioner's fallback).
//!
//! Resharding: a split moving between dimensions is an `all-to-all`, the
//! same blocks on other partitions a `collective-permute`; otherwise
//! dimensions whose blocks change are gathered by `all-gather`s (one per
//! dimension, grouped over the partitions that differ only there) and then
//! cut by a `dynamic-slice` at the partition's offset, read from a table
//! indexed by `partition-id`. A dimension of `n` elements in `k` blocks has
//! blocks of `ceil(n / k)`, the last ones padded (XLA's uneven sharding);
//! padding never reaches a reduction or a contraction.
//!
//! The entry parameters take their block types and keep their
//! `hlo.sharding` (how a runtime splits the global arguments); the results
//! get `hlo.sharding` result attributes (how it assembles the global
//! outputs): the ROOT's stated sharding, else the one the result has.
//! The entry is renamed `<name>_spmd`, as XLA names it; runtimes take an
//! entry so named as already partitioned.
//!
//! Partially manual regions (`shard_map` over some mesh axes) run as manual
//! ones, their values whole along the automatic axes.

mod contractions;
mod control;
mod halo;
mod indexed;
mod manual;
mod reshard;

use std::{cell::Cell, collections::HashMap};

use melior::ir::OperationRef;
use mlir_sys::*;
use rxla_hlo_text::custom_calls::{SHARDING_GROUP, SHARDING_TARGETS};
use rxla_ir::{
    attrs::{self, Window},
    builder::Builder,
    computation,
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::{ElementType, HloType, TensorType},
};
use rxla_translate::sharding as sharding_attr;

use super::propagation::{
    loop_state, module_attribute, module_partitions, module_replicas, propagate_from, stated, Propagation,
};
use super::rules::{self, DotLayout};
use super::tiles::{Placement, Tiles};
use crate::algsimp::zero_of;
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
    Stated(Vec<Option<MlirAttribute>>),
    /// Exactly these (a loop body: as its parameter).
    Given(Vec<Placement>),
    /// As they come.
    Any,
}

/// Partitions `entry` of `module` for `n` partitions.
pub fn partition(module: Op, entry: Op, n: usize) -> Result<()> {
    for (i, arg) in entry.arguments().into_iter().enumerate() {
        let stated_attr = arg.attr("hlo.sharding");
        // A manual sharding describes values inside a `shard_map`; a
        // runtime cannot split a global argument by it.
        // SAFETY: a live block argument.
        let at = unsafe { mlirValueGetLocation(arg.0) };
        let place = stated(stated_attr, &arg.ty(), n, &format!("parameter {i}"))
            .map_err(|e| super::propagation::located(at, e))?;
        if place == Some(Placement::Manual) {
            return Err(super::propagation::located(
                at,
                PassError(format!(
                    "parameter {i}: a (partially) manual sharding on an entry parameter is not supported; only \
                     values inside a region partitioned by hand (shard_map) are manual"
                )),
            ));
        }
        if let HloType::Tuple(_) = arg.ty() {
            let place = stated(stated_attr, &arg.ty(), n, &format!("parameter {i}"))?;
            if place.is_some_and(|p| p != Placement::replicated(&arg.ty(), n)) {
                return Err(PassError(format!(
                    "parameter {i}: a tuple parameter with a tiled sharding is not supported by the SPMD partitioner"
                )));
            }
        }
    }
    // The ROOT's stated shardings, read before the ops change.
    let stated_results: Vec<Option<MlirAttribute>> =
        entry.return_values().into_iter().map(|v| v.op().and_then(|o| o.attr_raw("hlo.sharding"))).collect();
    let channels = Cell::new(max_channel(module) + 1);
    let results = partition_computation(module, entry, n, &channels, None, Want::Stated(stated_results))?;
    let context = entry.context();
    let mut attrs = Vec::new();
    for want in results {
        let sharding = want.to_sharding().ok_or_else(|| PassError("internal error: uneven result".into()))?;
        let attr = sharding_attr::to_attr(context, &sharding)
            .ok_or_else(|| PassError(format!("internal error: the result sharding {sharding:?} does not verify")))?;
        attrs.push(attrs::dictionary(context, &[("hlo.sharding", attr)]));
    }
    entry.set_attr_raw("res_attrs", attrs::array(context, &attrs));
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
    entry.set_string_attr("sym_name", &name);
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
    rxla_ir::computation::update_function_type(func);
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
        let raw = ty.to_mlir(context).ok_or_else(|| PassError(format!("internal error: bad type {ty}")))?;
        mlirValueSetType(v.0, raw);
    }
    Ok(())
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
        // A pad or slice that moves elements across blocks (decided before
        // anything changes; false leaves the op to the rules below).
        if let (Some(t), "pad" | "slice") = (&target, opcode.as_str()) {
            if self.shifted(op, &operands, t)? {
                return Ok(false);
            }
        }
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
                op.set_dims_attr(name, &sizes);
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

    /// The entry's return: every result resharded to its stated sharding
    /// (the ROOT's), or left as it is, and recorded in `res_attrs`.
    fn results(&mut self, ret: Op, want: &Want) -> Result<Vec<Placement>> {
        let b = Builder::before(ret);
        let mut places = Vec::new();
        for (i, v) in ret.operands().into_iter().enumerate() {
            let l = self.local(v)?;
            let ty = self.global_ty(v);
            let target = match want {
                Want::Stated(attrs) => {
                    let attr = attrs.get(i).copied().flatten();
                    stated(attr, &ty, self.n, &format!("result {i}"))?.unwrap_or_else(|| l.place.clone())
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
}

/// True if dimension `d` has the same blocks on every partition in both.
fn same_dim(a: &Tiles, b: &Tiles, d: usize) -> bool {
    a.counts[d] == b.counts[d] && a.coords.iter().zip(&b.coords).all(|(x, y)| x[d] == y[d])
}
