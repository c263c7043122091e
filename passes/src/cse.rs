//! `cse`: common subexpression elimination, as XLA's HloCSE (layout
//! sensitive) does, per computation:
//!
//! - identical constants (same value, type and layout) are merged into the
//!   first one, and so are identical iotas (XLA treats iota operands with
//!   the same shape and dimension as equal, which amounts to the same);
//! - then, in program order (so operands are already canonical), an
//!   instruction identical to an earlier one is replaced by it. Identical
//!   means: same op, same result types (with `hlo.layout`), same operands
//!   (in either order for the commutative add, multiply, maximum, minimum,
//!   and, or, xor), same attributes, and callees that are the same
//!   computation or structurally identical ones. Metadata and frontend
//!   attributes do not count; shardings count when both ops have one.
//!
//! Never merged: instructions with side effects (their own or their
//! callees': collectives, send/recv, infeed/outfeed, custom-calls with
//! `has_side_effect`, ...), random number generation (`rng`,
//! `rng_bit_generator`, `rng_get_and_update_state`), `after_all` and
//! `add_dependency`, zero-operand instructions other than constants, iotas,
//! `partition_id` and `replica_id`, and instructions marked `MUST_FUSE`.
//! Computations with control dependencies are left alone. Replaced
//! instructions are erased together with the operands they leave unused.

use crate::call_inliner::frontend_attributes;
use melior::ir::OperationRef;
use mlir_sys::*;
use rxla_ir::hlo_analysis::{FxHashMap, FxHashSet, FxHasher};
use rxla_ir::{
    computation::{self, functions, SideEffects},
    op::{is_trivially_dead_when_unused, string, Op},
    pass::{HloPass, PassError, PassOptions},
};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

#[derive(Clone, Debug)]
pub struct Cse;

impl HloPass for Cse {
    const NAME: &'static str = "cse";
    const DESCRIPTION: &'static str = "Merge identical instructions and constants (XLA's HloCSE)";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        let mut effects = SideEffects::with_function_table(module);
        let mut same = SameComputation::new(module);
        for func in functions(module) {
            run_on_function(func, &mut effects, &mut same);
        }
        Ok(())
    }
}

/// Attributes identity ignores.
const IGNORED: &[&str] =
    &["hlo.metadata", "hlo.frontend_attributes", "hlo.original_value", "hlo.statistics_viz", "hlo.sharding"];

const COMMUTATIVE: &[&str] = &["hlo.add", "hlo.multiply", "hlo.maximum", "hlo.minimum", "hlo.and", "hlo.or", "hlo.xor"];

/// Never merged even when MLIR sees no effect (random numbers).
const NEVER: &[&str] =
    &["hlo.rng", "hlo.rng_bit_generator", "hlo.rng_get_and_update_state", "hlo.after_all", "hlo.add_dependency"];

/// Runs CSE on one computation; returns the number of instructions merged.
pub fn run_on_function(func: Op, effects: &mut SideEffects, same: &mut SameComputation) -> usize {
    let ops = func.body_ops();
    if ops.iter().any(|op| op.has_attr("hlo.control_predecessors")) {
        return 0;
    }
    let mut merged = 0;
    let mut erased: FxHashSet<Op> = FxHashSet::default();
    let mut maybe_dead: Vec<Op> = Vec::new();
    let mut replace = |op: Op, rep: Op, erased: &mut FxHashSet<Op>, maybe_dead: &mut Vec<Op>| {
        for i in 0..op.num_results() {
            op.replace_result_uses(i, rep.result(i));
        }
        maybe_dead.extend(op.operands().into_iter().filter_map(|v| v.op()));
        erased.insert(op);
        op.erase();
        merged += 1;
    };

    // Constants and iotas: same value (dimension), type and layout.
    let mut leaves: HashMap<(String, usize, usize, usize, usize), Op> = HashMap::new();
    for &op in &ops {
        let key_attr = if op.is("constant") {
            "value"
        } else if op.is("iota") {
            "iota_dimension"
        } else {
            continue;
        };
        if op.num_results() != 1 || op.num_operands() != 0 {
            continue;
        }
        let ptr = |name: &str| op.attr_raw(name).map(|a| a.ptr as usize).unwrap_or(0);
        let key =
            (op.name(), ptr(key_attr), op.result(0).raw_type().ptr as usize, ptr("hlo.layout"), ptr("hlo.sharding"));
        match leaves.get(&key) {
            Some(&rep) => replace(op, rep, &mut erased, &mut maybe_dead),
            None => {
                leaves.insert(key, op);
            }
        }
    }

    // Everything else, in program order. Keys hash what is cheap to read
    // (name, result types, operands); attributes and eligibility, which
    // need the op's attribute dictionary and callees, are only compared
    // when a key matches, which most ops' keys never do.
    let mut table: FxHashMap<u64, Vec<Op>> = FxHashMap::default();
    for &op in &ops {
        if erased.contains(&op) || !maybe_eligible(op) {
            continue;
        }
        let key = hash_key(op);
        let candidates = table.entry(key).or_default();
        // An ineligible op merges with nothing and nothing merges into it
        // (its twins can differ from it in attributes identity ignores:
        // `MUST_FUSE`), so the search goes on past it.
        let found = candidates.iter().copied().find(|&c| identical(c, op, same) && eligible(c, effects));
        match found {
            Some(rep) if eligible(op, effects) => replace(op, rep, &mut erased, &mut maybe_dead),
            _ => candidates.push(op),
        }
    }

    // Operands the merged instructions no longer use.
    while let Some(op) = maybe_dead.pop() {
        if erased.contains(&op) || op.has_uses() || !is_trivially_dead_when_unused(op) || op.parent_func() != Some(func)
        {
            continue;
        }
        maybe_dead.extend(op.operands().into_iter().filter_map(|v| v.op()));
        erased.insert(op);
        op.erase();
    }
    merged
}

/// The part of [`eligible`] that reads only the op's name and arity.
fn maybe_eligible(op: Op) -> bool {
    let Some(opcode) = op.name_str().strip_prefix("hlo.") else {
        return false;
    };
    if NEVER.contains(&op.name_str()) || opcode == "constant" || opcode == "iota" || op.num_results() == 0 {
        return false;
    }
    op.num_operands() > 0 || opcode == "partition_id" || opcode == "replica_id"
}

/// XLA's ShouldEliminateInstruction plus rxla's never-merge list.
fn eligible(op: Op, effects: &mut SideEffects) -> bool {
    if !maybe_eligible(op) {
        return false;
    }
    if let Some(text) = op.string_attr("hlo.frontend_attributes") {
        if frontend_attributes(&text).contains_key("MUST_FUSE") {
            return false;
        }
    }
    !effects.op(op)
}

/// The op's attributes as (name, raw attribute), sorted by name, without
/// the ignored ones.
fn compared_attrs(op: Op) -> Vec<(String, MlirAttribute)> {
    let mut out: Vec<(String, MlirAttribute)> =
        op.attrs_raw().into_iter().filter(|(n, _)| !IGNORED.contains(&n.as_str())).collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// True if `attr` references computations (a symbol or a list of them).
fn is_callee_attr(attr: MlirAttribute) -> bool {
    unsafe {
        mlirAttributeIsAFlatSymbolRef(attr)
            || (mlirAttributeIsAArray(attr)
                && mlirArrayAttrGetNumElements(attr) > 0
                && (0..mlirArrayAttrGetNumElements(attr))
                    .all(|i| mlirAttributeIsAFlatSymbolRef(mlirArrayAttrGetElement(attr, i))))
    }
}

/// The symbol names in a callee attribute.
fn callee_names(attr: MlirAttribute) -> Vec<String> {
    unsafe {
        if mlirAttributeIsAFlatSymbolRef(attr) {
            return vec![string(mlirFlatSymbolRefAttrGetValue(attr))];
        }
        (0..mlirArrayAttrGetNumElements(attr))
            .map(|i| string(mlirFlatSymbolRefAttrGetValue(mlirArrayAttrGetElement(attr, i))))
            .collect()
    }
}

/// A hash of the op's name, result types and operands (in a canonical
/// order for commutative ops): equal for identical ops.
fn hash_key(op: Op) -> u64 {
    let mut h = FxHasher::default();
    op.name_str().hash(&mut h);
    for i in 0..op.num_results() {
        (op.result(i).raw_type().ptr as usize).hash(&mut h);
    }
    let n = op.num_operands();
    if n == 2 && COMMUTATIVE.contains(&op.name_str()) {
        let (a, b) = (op.operand(0).0.ptr as usize, op.operand(1).0.ptr as usize);
        (a.min(b), a.max(b)).hash(&mut h);
    } else {
        for i in 0..n {
            (op.operand(i).0.ptr as usize).hash(&mut h);
        }
    }
    h.finish()
}

/// Same attributes: equal, or callees that are the same computation.
fn same_attrs(a: Op, b: Op, same: &mut SameComputation) -> bool {
    let (x, y) = (compared_attrs(a), compared_attrs(b));
    if x.len() != y.len() {
        return false;
    }
    for ((na, aa), (nb, ab)) in x.iter().zip(&y) {
        if na != nb {
            return false;
        }
        if aa.ptr == ab.ptr {
            continue;
        }
        if !(is_callee_attr(*aa) && is_callee_attr(*ab)) {
            return false;
        }
        let (ca, cb) = (callee_names(*aa), callee_names(*ab));
        if ca.len() != cb.len() || unsafe { mlirAttributeIsAFlatSymbolRef(*aa) != mlirAttributeIsAFlatSymbolRef(*ab) } {
            return false;
        }
        if !ca.iter().zip(&cb).all(|(p, q)| same.equal(p, q)) {
            return false;
        }
    }
    // Shardings differ only when both are there and differ.
    match (a.attr_raw("hlo.sharding"), b.attr_raw("hlo.sharding")) {
        (Some(p), Some(q)) => p.ptr == q.ptr,
        _ => true,
    }
}

/// XLA's IdenticalIgnoringCommutativeOperandOrder for two ops of one
/// computation.
fn identical(a: Op, b: Op, same: &mut SameComputation) -> bool {
    if a.name_str() != b.name_str() || a.num_operands() != b.num_operands() || a.num_results() != b.num_results() {
        return false;
    }
    if !(0..a.num_results()).all(|i| a.result(i).raw_type().ptr == b.result(i).raw_type().ptr) {
        return false;
    }
    let (x, y) = (a.operands(), b.operands());
    let in_order = x.iter().zip(&y).all(|(p, q)| p.same_as(*q));
    let swapped = COMMUTATIVE.contains(&a.name_str()) && x.len() == 2 && x[0].same_as(y[1]) && x[1].same_as(y[0]);
    if !(in_order || swapped) {
        return false;
    }
    same_attrs(a, b, same)
}

/// Structural equality of computations (XLA compares called computations
/// with `HloComputation::operator==`): same signature, and instruction by
/// instruction the same ops, types, attributes and operand structure.
pub struct SameComputation {
    module: Op,
    memo: HashMap<(String, String), bool>,
    /// The module's functions by name, listed when first needed (CSE adds
    /// and erases no functions).
    functions: Option<HashMap<String, Op>>,
}

impl SameComputation {
    pub fn new(module: Op) -> Self {
        Self { module, memo: HashMap::new(), functions: None }
    }

    /// True if the computations named `a` and `b` compute the same thing.
    pub fn equal(&mut self, a: &str, b: &str) -> bool {
        if a == b {
            return true;
        }
        let key = if a < b { (a.to_string(), b.to_string()) } else { (b.to_string(), a.to_string()) };
        if let Some(&r) = self.memo.get(&key) {
            return r;
        }
        // Cycles (not valid HLO) compare unequal.
        self.memo.insert(key.clone(), false);
        let module = self.module;
        let functions = self.functions.get_or_insert_with(|| computation::by_name(module));
        let result = match (functions.get(a).copied(), functions.get(b).copied()) {
            (Some(fa), Some(fb)) => self.compare(fa, fb),
            _ => false,
        };
        self.memo.insert(key, result);
        result
    }

    fn compare(&mut self, fa: Op, fb: Op) -> bool {
        match (fa.attr_raw("function_type"), fb.attr_raw("function_type")) {
            (Some(p), Some(q)) if p.ptr == q.ptr => {}
            _ => return false,
        }
        let (xa, xb) = (fa.body_ops(), fb.body_ops());
        if xa.len() != xb.len() {
            return false;
        }
        // Where each value comes from: (op position or usize::MAX for a
        // parameter, result or argument number).
        fn origin(v: rxla_ir::op::Value, positions: &HashMap<Op, usize>) -> Option<(usize, usize)> {
            if let Some(n) = v.arg_number() {
                if v.op().is_none() {
                    return Some((usize::MAX, n));
                }
            }
            let op = v.op()?;
            Some((*positions.get(&op)?, v.result_number()?))
        }
        let pa: HashMap<Op, usize> = xa.iter().enumerate().map(|(i, o)| (*o, i)).collect();
        let pb: HashMap<Op, usize> = xb.iter().enumerate().map(|(i, o)| (*o, i)).collect();
        for (oa, ob) in xa.iter().zip(&xb) {
            if oa.name() != ob.name() || oa.num_operands() != ob.num_operands() || oa.num_results() != ob.num_results()
            {
                return false;
            }
            if !(0..oa.num_results()).all(|i| oa.result(i).raw_type().ptr == ob.result(i).raw_type().ptr) {
                return false;
            }
            for (va, vb) in oa.operands().into_iter().zip(ob.operands()) {
                match (origin(va, &pa), origin(vb, &pb)) {
                    (Some(p), Some(q)) if p == q => {}
                    _ => return false,
                }
            }
            if oa.name() == "func.return" {
                continue;
            }
            if oa.has_attr("hlo.control_predecessors") || ob.has_attr("hlo.control_predecessors") {
                return false;
            }
            if !same_attrs(*oa, *ob, self) {
                return false;
            }
        }
        true
    }
}
