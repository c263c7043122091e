//! `xla-simplify-indexing`: canonicalization of the indexing maps of
//! `xla.apply_indexing` and `xla.loop` (what XLA's canonicalization
//! patterns of the two ops do, `xla/codegen/emitters/ir/xla_ops.cc`), with
//! the map algebra of `rxla-indexing`.
//!
//! The two ops read their maps differently, and each rewrite respects that:
//!
//! - `xla.apply_indexing` evaluates its expressions without checking the
//!   domain: the bounds of its variables are a *promise* about the operands
//!   (the emitters guarantee it), which simplification may rely on, as in
//!   XLA. Substituting an operand's definition (a constant, another
//!   `apply_indexing`) is exact; dropping a variable loses only a promise.
//! - `xla.loop` runs its body for the points of the whole domain: the
//!   bounds of its dimensions are *checks* of the dimension operands. A
//!   dimension is only dropped where its check cannot fail (the operand's
//!   known range lies within the bounds), a folded producer's dimension
//!   bound stays as a constraint, and range variables (the induction
//!   variables, which set the trip count) are never dropped.
//!
//! Per op, one rewrite computes the canonical form (see `docs/lowering/xla-simplify-indexing.md`)
//! and replaces the op when it differs; MLIR's greedy driver repeats this to
//! a fixed point.

use crate::ir::{is_index, range_bounds};
use melior::ir::OperationRef;
use mlir_sys::MlirAttribute;
use rxla_indexing::{Expr, ExprKind, IndexingMap, Interval, SimplifyMemo, Variable};
use rxla_ir::{
    attrs,
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    rewrite::{apply_greedily, DriverOptions, Pattern, Rewriter},
    types::HloType,
};
use std::{cell::RefCell, collections::HashMap, rc::Rc};

const APPLY: &str = "xla.apply_indexing";
const LOOP: &str = "xla.loop";
const MAP_ATTR: &str = "indexing_map_attr";

#[derive(Clone, Debug)]
pub struct XlaSimplifyIndexing;

impl HloPass for XlaSimplifyIndexing {
    const NAME: &'static str = "xla-simplify-indexing";
    const DESCRIPTION: &'static str =
        "Canonicalize xla.apply_indexing and xla.loop maps: fold constants, compose, simplify, drop unused variables";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(XlaSimplifyIndexing)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let root = Op::of(&module);
        // HLO modules have nothing to do (and the driver would erase dead
        // ops in them).
        if !root.walk_preorder().iter().any(|op| op.is_named(APPLY) || op.is_named(LOOP)) {
            return Ok(());
        }
        let maps = Rc::new(Maps::default());
        let patterns: Vec<Rc<dyn Pattern>> = vec![
            Rc::new(Simplify { kind: Kind::Apply, maps: maps.clone() }),
            Rc::new(Simplify { kind: Kind::Loop, maps }),
        ];
        // Only the xla ops: no folding of the arith code around them.
        apply_greedily(root, &patterns, DriverOptions { fold: false, ..DriverOptions::default() })?;
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Reading the IR.
// ---------------------------------------------------------------------------

/// An `#xla.indexing_map` attribute (its address) and whether its symbols
/// were turned into dimensions.
type MapKey = (usize, bool);

/// The maps of one run, parsed once per attribute: attributes are uniqued
/// and live as long as the context, so within a run an attribute stands for
/// its text. The greedy driver visits every op many times, and parsing the
/// text was most of the pass's time.
#[derive(Default)]
struct Maps {
    /// By attribute and whether symbols became dimensions ([`Maps::apply`]).
    parsed: RefCell<HashMap<MapKey, Option<Rc<IndexingMap>>>>,
    /// Rebuilt maps come out the same on every visit of an op that did not
    /// change.
    simplified: RefCell<SimplifyMemo>,
}

impl Maps {
    /// The map of `op` if it is one the rewrites can work with (parses,
    /// neither undefined nor known empty).
    fn read(&self, op: Op) -> Option<Rc<IndexingMap>> {
        self.get(op, false, Some)
    }

    /// The map of an `xla.apply_indexing` with its symbols turned into
    /// trailing dimensions (XLA's `MoveSymbolsToDims`): one dimension per
    /// operand.
    fn apply(&self, op: Op) -> Option<Rc<IndexingMap>> {
        let map = self.get(op, true, |map| Some(map.convert_symbols_to_dimensions()))?;
        let well_formed = map.constraints().is_empty()
            && map.num_dims() == op.num_operands()
            && map.num_results() == op.num_results();
        well_formed.then_some(map)
    }

    fn get(
        &self,
        op: Op,
        as_apply: bool,
        convert: impl FnOnce(IndexingMap) -> Option<IndexingMap>,
    ) -> Option<Rc<IndexingMap>> {
        let attr = op.attr_raw(MAP_ATTR)?;
        let key = (attr.ptr as usize, as_apply);
        if let Some(map) = self.parsed.borrow().get(&key) {
            return map.clone();
        }
        let map = op
            .indexing_map_text(MAP_ATTR)
            .and_then(|text| IndexingMap::parse(&text).ok())
            .filter(|map| !map.is_undefined() && !map.is_known_empty())
            .and_then(convert)
            .map(Rc::new);
        self.parsed.borrow_mut().insert(key, map.clone());
        map
    }
}

/// The value of an `arith.constant` of type `index`.
fn constant_index(value: Value) -> Option<i64> {
    let op = value.op().filter(|op| op.is_named("arith.constant"))?;
    if !is_index(value.raw_type()) {
        return None;
    }
    op.int_attr("value")
}

/// Reads `[lo : index, hi : index]` (an `xla.range`).
fn read_range(attr: MlirAttribute) -> Option<Interval> {
    range_bounds(attr).map(|(lo, hi)| Interval::new(lo, hi))
}

/// What is known about the values `value` takes (XLA's `GetRange`): a
/// constant, an `xla.range` annotation (on the defining op or the function
/// argument), the range of an `apply_indexing` result over its domain, an
/// `xla.loop` induction variable or map result, the induction variable of
/// an `scf.for` with constant bounds.
fn value_range(maps: &Maps, value: Value) -> Option<Interval> {
    if let Some(c) = constant_index(value) {
        return Some(Interval::point(c));
    }
    if let Some(range) = value.attr("xla.range").and_then(read_range) {
        return Some(range);
    }
    if let Some(op) = value.op() {
        if op.is_named(APPLY) {
            let map = maps.apply(op)?;
            return Some(map.expression_range(map.results().get(value.result_number()?)?));
        }
        return None;
    }
    let owner = value.owner_op()?;
    let i = value.arg_number()?;
    if owner.is_named(LOOP) {
        let map = maps.read(owner)?;
        let ivs = map.num_range_vars();
        if i < ivs {
            return Some(map.range_vars()[i].bounds);
        }
        return map.compute_result_ranges().get(i - ivs).copied();
    }
    if owner.is_named("scf.for") && i == 0 && owner.num_operands() >= 2 {
        let lower = constant_index(owner.operand(0))?;
        let upper = constant_index(owner.operand(1))?;
        return (lower < upper).then(|| Interval::new(lower, upper - 1));
    }
    None
}

// ---------------------------------------------------------------------------
// Rebuilding a map over new operands.
// ---------------------------------------------------------------------------

/// Whose map is being rebuilt (the bounds mean different things).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Apply,
    Loop,
}

/// The dimensions of a map being rebuilt: one per distinct operand value.
struct Dims<'m> {
    maps: &'m Maps,
    values: Vec<Value>,
    vars: Vec<Variable>,
    /// What is guaranteed about each value regardless of the map's domain
    /// (its known range, intersected with the bounds promised by
    /// `apply_indexing` maps it is an operand of). A dimension whose bounds
    /// contain this interval is checked in vain.
    known: Vec<Option<Interval>>,
}

fn intersect(a: Option<Interval>, b: Option<Interval>) -> Option<Interval> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.intersect(&b)),
        (a, None) => a,
        (None, b) => b,
    }
}

impl<'m> Dims<'m> {
    fn new(maps: &'m Maps) -> Dims<'m> {
        Dims { maps, values: Vec::new(), vars: Vec::new(), known: Vec::new() }
    }

    /// The expression for operand `value` of a variable `var`: a constant,
    /// or a dimension (one per value; bounds of repeated values intersect,
    /// and are tightened to the value's known range). `promise` says
    /// whether `var`'s bounds are a promise about the value (an
    /// `apply_indexing` operand) rather than a check (an `xla.loop`
    /// dimension). `None` if no value satisfies the bounds.
    fn operand(&mut self, value: Value, var: &Variable, promise: bool) -> Option<Expr> {
        if let Some(c) = constant_index(value) {
            return Some(Expr::constant(c));
        }
        let range = value_range(self.maps, value);
        let bounds = range.map_or(var.bounds, |r| r.intersect(&var.bounds));
        let known = if promise { Some(bounds) } else { range };
        let i = match self.values.iter().position(|v| *v == value) {
            Some(i) => {
                let merged = &mut self.vars[i];
                merged.bounds = merged.bounds.intersect(&bounds);
                if merged.name.is_empty() {
                    merged.name = var.name.clone();
                }
                self.known[i] = intersect(self.known[i], known);
                i
            }
            None => {
                self.values.push(value);
                self.vars.push(Variable { bounds, name: var.name.clone() });
                self.known.push(known);
                self.values.len() - 1
            }
        };
        self.vars[i].bounds.is_feasible().then(|| Expr::dim(i))
    }
}

/// An `xla.apply_indexing` result used as a dimension operand.
struct Producer {
    op: Op,
    result: usize,
    /// Its map, symbols turned into dimensions.
    map: Rc<IndexingMap>,
    /// Every use of its results is a dimension operand of the op being
    /// rewritten, so folding it leaves it dead.
    exclusive: bool,
}

impl Producer {
    /// The producer of `value`, a dimension operand of `user` (whose
    /// dimension operands are its first `num_dims` operands).
    fn of(maps: &Maps, value: Value, user: Op, num_dims: usize) -> Option<Producer> {
        let op = value.op().filter(|op| op.is_named(APPLY))?;
        let map = maps.apply(op)?;
        let exclusive = op.results().iter().all(|r| r.uses().iter().all(|(owner, i)| *owner == user && *i < num_dims));
        Some(Producer { op, result: value.result_number()?, map, exclusive })
    }

    /// The producer's result with its operands as dimensions of `dims`.
    fn expr(&self, dims: &mut Dims) -> Option<Expr> {
        let operands: Vec<Expr> = self
            .op
            .operands()
            .into_iter()
            .zip(self.map.dim_vars())
            .map(|(value, var)| dims.operand(value, var, true))
            .collect::<Option<_>>()?;
        Some(self.map.results().get(self.result)?.replace_dims_and_symbols(&operands, &[]))
    }
}

/// A rebuilt map over its new dimension operands.
struct Rebuilt {
    map: IndexingMap,
    operands: Vec<Value>,
    /// Size of the expressions to evaluate (results in use, constraints).
    cost: usize,
}

enum Outcome {
    Map(Rebuilt),
    /// The loop's domain holds no point: it never runs.
    NeverRuns,
}

/// Rebuilds `map` of `op` (dimension operands first) with constants and
/// the producers marked in `fold` substituted, repeated operands merged,
/// bounds tightened to what is known of the operands, then simplified and
/// stripped of the dimensions it does not need. `None` if the rewrite does
/// not apply.
fn rebuild(
    maps: &Maps,
    kind: Kind,
    op: Op,
    map: &IndexingMap,
    producers: &[Option<Producer>],
    fold: &[bool],
) -> Option<Outcome> {
    let mut dims = Dims::new(maps);
    let mut replacements = Vec::with_capacity(map.num_dims());
    let mut constraints: Vec<(Expr, Interval)> = Vec::new();
    for (i, var) in map.dim_vars().iter().enumerate() {
        let value = op.operand(i);
        let expr = match producers[i].as_ref().filter(|_| fold[i]) {
            Some(producer) => {
                let expr = producer.expr(&mut dims)?;
                if kind == Kind::Loop {
                    // The loop checked the producer's value against the bounds.
                    constraints.push((expr.clone(), var.bounds));
                }
                expr
            }
            None => {
                if kind == Kind::Loop && constant_index(value).is_some_and(|c| !var.bounds.contains(c)) {
                    return Some(Outcome::NeverRuns);
                }
                match dims.operand(value, var, kind == Kind::Apply) {
                    Some(expr) => expr,
                    None if kind == Kind::Loop => return Some(Outcome::NeverRuns),
                    None => return None,
                }
            }
        };
        replacements.push(expr);
    }
    let substitute = |e: &Expr| e.replace_dims_and_symbols(&replacements, &[]);
    let results: Vec<Expr> = map.results().iter().map(substitute).collect();
    constraints.extend(map.constraints().iter().map(|(e, r)| (substitute(e), *r)));
    let mut rebuilt =
        IndexingMap::new(results, dims.vars.clone(), map.range_vars().to_vec(), map.rt_vars().to_vec(), constraints)
            .ok()?;
    if !rebuilt.is_known_empty() {
        maps.simplified.borrow_mut().simplify(&mut rebuilt);
    }
    if rebuilt.is_known_empty() {
        return (kind == Kind::Loop).then_some(Outcome::NeverRuns);
    }

    // Keep the dimensions the expressions use, and those a loop checks.
    let mut keep = vec![false; rebuilt.num_dims()];
    for e in rebuilt.results().iter().chain(rebuilt.constraints().iter().map(|(e, _)| e)) {
        for d in e.used_dims() {
            keep[d] = true;
        }
    }
    if kind == Kind::Loop {
        for (j, known) in dims.known.iter().enumerate() {
            let bounds = rebuilt.dim_vars()[j].bounds;
            keep[j] |= !known.is_some_and(|k| bounds.contains_interval(&k));
        }
    }
    let rebuilt = keep_dims(&rebuilt, &keep)?;
    let operands = dims.values.iter().zip(&keep).filter(|(_, k)| **k).map(|(v, _)| *v).collect();
    let results_cost: usize = match kind {
        Kind::Apply => {
            rebuilt.results().iter().enumerate().filter(|(i, _)| op.result(*i).has_uses()).map(|(_, e)| e.size()).sum()
        }
        Kind::Loop => rebuilt.results().iter().map(Expr::size).sum(),
    };
    let cost = results_cost + rebuilt.constraints().iter().map(|(e, _)| e.size()).sum::<usize>();
    Some(Outcome::Map(Rebuilt { map: rebuilt, operands, cost }))
}

/// `map` with only the dimensions marked in `keep` (the others unused).
fn keep_dims(map: &IndexingMap, keep: &[bool]) -> Option<IndexingMap> {
    if keep.iter().all(|k| *k) {
        return Some(map.clone());
    }
    let mut replacements = Vec::with_capacity(keep.len());
    let mut vars = Vec::new();
    for (var, k) in map.dim_vars().iter().zip(keep) {
        replacements.push(if *k { Expr::dim(vars.len()) } else { Expr::zero() });
        if *k {
            vars.push(var.clone());
        }
    }
    let remap = |e: &Expr| e.replace_dims_and_symbols(&replacements, &[]);
    IndexingMap::new(
        map.results().iter().map(remap).collect(),
        vars,
        map.range_vars().to_vec(),
        map.rt_vars().to_vec(),
        map.constraints().iter().map(|(e, r)| (remap(e), *r)).collect(),
    )
    .ok()
}

/// The canonical form of `op`'s map: producers used only here are always
/// folded (as in XLA); one with other users too only where the folded map
/// is no bigger, so the shared computation is not duplicated for nothing.
fn canonical(maps: &Maps, kind: Kind, op: Op, map: &IndexingMap) -> Option<Outcome> {
    let num_dims = map.num_dims();
    let producers: Vec<Option<Producer>> =
        (0..num_dims).map(|i| Producer::of(maps, op.operand(i), op, num_dims)).collect();
    let mut fold: Vec<bool> = producers.iter().map(|p| p.as_ref().is_some_and(|p| p.exclusive)).collect();
    let mut best = rebuild(maps, kind, op, map, &producers, &fold)?;
    // The results of one producer often only simplify together (a
    // delinearized index linearized again): try folding every producer.
    if producers.iter().zip(&fold).any(|(p, f)| p.is_some() && !f) {
        let all: Vec<bool> = producers.iter().map(Option::is_some).collect();
        if let (Outcome::Map(current), Some(candidate)) = (&best, rebuild(maps, kind, op, map, &producers, &all)) {
            let better = match &candidate {
                Outcome::Map(c) => c.cost <= current.cost,
                Outcome::NeverRuns => true,
            };
            if better {
                best = candidate;
                fold = all;
            }
        }
    }
    for i in 0..num_dims {
        let Outcome::Map(current) = &best else { break };
        let current_cost = current.cost;
        if producers[i].is_none() || fold[i] {
            continue;
        }
        fold[i] = true;
        match rebuild(maps, kind, op, map, &producers, &fold) {
            Some(Outcome::Map(candidate)) if candidate.cost <= current_cost => best = Outcome::Map(candidate),
            Some(Outcome::NeverRuns) => best = Outcome::NeverRuns,
            _ => fold[i] = false,
        }
    }
    Some(best)
}

/// The `#xla.indexing_map` attribute of `map`, in `op`'s context.
fn map_attr(op: Op, map: &IndexingMap) -> Result<MlirAttribute, PassError> {
    let text = map.to_string();
    attrs::indexing_map(op.context(), &text)
        .ok_or_else(|| PassError(format!("internal error: bad indexing map {text}")))
}

fn index_type() -> HloType {
    HloType::Other("index".to_string())
}

// ---------------------------------------------------------------------------
// The rewrites.
// ---------------------------------------------------------------------------

/// What replaces one result of an `apply_indexing`.
enum Replacement {
    Unused,
    Constant(i64),
    Operand(Value),
    /// Result `k` of the new op.
    Result(usize),
}

/// One of the two rewrites, with the run's parsed maps.
struct Simplify {
    kind: Kind,
    maps: Rc<Maps>,
}

impl Pattern for Simplify {
    fn roots(&self) -> Vec<&'static str> {
        vec![match self.kind {
            Kind::Apply => APPLY,
            Kind::Loop => LOOP,
        }]
    }

    fn match_and_rewrite(&self, op: Op, rewriter: &Rewriter) -> Result<bool, PassError> {
        match self.kind {
            Kind::Apply => simplify_apply(&self.maps, op, rewriter),
            Kind::Loop => simplify_loop(&self.maps, op, rewriter),
        }
    }
}

fn simplify_apply(maps: &Maps, op: Op, rewriter: &Rewriter) -> Result<bool, PassError> {
    let Some(map) = maps.apply(op) else { return Ok(false) };
    let Some(Outcome::Map(rebuilt)) = canonical(maps, Kind::Apply, op, &map) else { return Ok(false) };

    // Results that are constants or operands need no op (XLA's
    // FoldApplyIndexingResults); unused ones are dropped.
    let mut kept = Vec::new();
    let mut replacements = Vec::with_capacity(op.num_results());
    for (i, e) in rebuilt.map.results().iter().enumerate() {
        replacements.push(match e.kind() {
            _ if !op.result(i).has_uses() => Replacement::Unused,
            ExprKind::Const(c) => Replacement::Constant(*c),
            ExprKind::Dim(j) => Replacement::Operand(rebuilt.operands[*j]),
            _ => {
                kept.push(e.clone());
                Replacement::Result(kept.len() - 1)
            }
        });
    }
    let Ok(mut map) = IndexingMap::new(kept, rebuilt.map.dim_vars().to_vec(), vec![], vec![], vec![]) else {
        return Ok(false);
    };
    let removed = map.remove_unused_vars();
    let operands: Vec<Value> =
        rebuilt.operands.iter().zip(&removed).filter(|(_, removed)| !**removed).map(|(v, _)| *v).collect();
    let text = map.to_string();
    if map.num_results() == op.num_results()
        && op.indexing_map_text(MAP_ATTR).as_deref() == Some(text.as_str())
        && operands == op.operands()
    {
        return Ok(false);
    }

    let builder = rewriter.builder();
    let new_op = if map.num_results() > 0 {
        let types = vec![index_type(); map.num_results()];
        Some(builder.create(APPLY, &operands, &types, &[(MAP_ATTR, map_attr(op, &map)?)])?)
    } else {
        None
    };
    for (i, replacement) in replacements.into_iter().enumerate() {
        let value = match replacement {
            Replacement::Unused => continue,
            Replacement::Constant(c) => {
                let value = attrs::index(op.context(), c);
                builder.create("arith.constant", &[], &[index_type()], &[("value", value)])?.result(0)
            }
            Replacement::Operand(v) => v,
            Replacement::Result(k) => new_op.expect("an op for the kept results").result(k),
        };
        rewriter.replace_all_uses(op.result(i), value);
    }
    rewriter.erase(op);
    Ok(true)
}

fn simplify_loop(maps: &Maps, op: Op, rewriter: &Rewriter) -> Result<bool, PassError> {
    let Some(map) = maps.read(op) else { return Ok(false) };
    let num_dims = map.num_dims();
    if map.num_rt_vars() > 0 || op.num_operands() < num_dims || op.num_operands() - num_dims != op.num_results() {
        return Ok(false);
    }
    let inits: Vec<Value> = op.operands()[num_dims..].to_vec();
    match canonical(maps, Kind::Loop, op, &map) {
        None => Ok(false),
        Some(Outcome::NeverRuns) => {
            rewriter.replace(op, &inits);
            Ok(true)
        }
        Some(Outcome::Map(rebuilt)) => {
            if op.indexing_map_text(MAP_ATTR) == Some(rebuilt.map.to_string())
                && rebuilt.operands == op.operands()[..num_dims]
            {
                return Ok(false);
            }
            let attr = map_attr(op, &rebuilt.map)?;
            let operands: Vec<Value> = rebuilt.operands.iter().chain(&inits).copied().collect();
            let sizes = attrs::i32_array(op.context(), &[rebuilt.operands.len() as i32, inits.len() as i32]);
            rewriter.modify(op, || {
                op.set_attr_raw(MAP_ATTR, attr);
                op.set_operands(&operands);
                op.set_attr_raw("operandSegmentSizes", sizes);
            });
            Ok(true)
        }
    }
}
