//! `while-loop-trip-count-annotator`: records the trip count of each
//! `hlo.while` whose count is known at compile time in its backend config,
//! as XLA's WhileLoopTripCountAnnotator does:
//! `{"known_induction_variable":{"tuple_index":"I"},"known_init_step":{"init":"A","step":"S"},"known_trip_count":{"n":"N"}}`
//! (`known_init_step` only for loops counting up from a non-negative
//! constant by a positive constant). Keys already in the backend config
//! are kept.
//!
//! The analysis ([`trip_count`]) is shared with `simplify-while-loops`. It
//! follows XLA's while_loop_analysis: the loop state is a tuple built by
//! `hlo.tuple`; the condition's root is one op over constants and
//! `get_tuple_element(param, i)` (the induction variable, possibly through
//! a copy); the body's root is a tuple whose element `i` is one op over
//! constants and element `i` of the parameter. The count then comes from a
//! closed form for `i += c` / `i -= c` against a constant bound with any
//! comparison, or from evaluating the condition and the update on the
//! initial value up to a bound (XLA's brute force). Unlike XLA's pattern
//! match, the closed form is exact: it accounts for the induction
//! variable's width (a loop whose counter would wrap is not counted) and
//! for steps that do not divide the distance to the bound.

use crate::constant::{splat, Scalar};
use melior::ir::OperationRef;
use rxla_ir::{
    attrs::enum_case,
    computation,
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::ElementType,
};

#[derive(Clone, Debug)]
pub struct WhileLoopTripCountAnnotator;

impl HloPass for WhileLoopTripCountAnnotator {
    const NAME: &'static str = "while-loop-trip-count-annotator";
    const DESCRIPTION: &'static str =
        "Record the compile-time trip count of while loops in their backend_config (known_trip_count)";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        for func in computation::functions(module) {
            for op in func.walk_preorder() {
                if op.is("while") {
                    annotate(module, op)?;
                }
            }
        }
        Ok(())
    }
}

/// XLA's default brute-force bound for ComputeWhileLoopTripCount.
pub const DEFAULT_MAX_BRUTE_FORCE_ITERS: u64 = 128;

/// Writes the known trip count of `while_op` into its backend config;
/// true if it changed.
fn annotate(module: Op, while_op: Op) -> Result<bool, PassError> {
    let Some(analysis) = analyze(module, while_op) else { return Ok(false) };
    let Some(n) = analysis.trip_count(DEFAULT_MAX_BRUTE_FORCE_ITERS) else { return Ok(false) };
    let mut fields =
        vec![("known_induction_variable".to_string(), format!("{{\"tuple_index\":\"{}\"}}", analysis.index))];
    if let Some((init, step)) = analysis.init_step() {
        fields.push(("known_init_step".to_string(), format!("{{\"init\":\"{init}\",\"step\":\"{step}\"}}")));
    }
    fields.push(("known_trip_count".to_string(), format!("{{\"n\":\"{n}\"}}")));
    let existing = while_op.string_attr("hlo.backend_config").unwrap_or_default();
    let Some(text) = merge_json_object(&existing, &fields) else {
        // A backend config that is not a JSON object: leave it alone.
        return Ok(false);
    };
    if text == existing {
        return Ok(false);
    }
    while_op.set_string_attr("hlo.backend_config", &text);
    Ok(true)
}

/// The top-level members of a JSON object, as (key, raw value text);
/// `None` if `text` is not an object.
fn json_members(text: &str) -> Option<Vec<(String, String)>> {
    let t = text.trim();
    let inner = t.strip_prefix('{')?.strip_suffix('}')?;
    let b = inner.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while *i < b.len() && (b[*i] as char).is_whitespace() {
            *i += 1;
        }
    };
    // The end of the JSON string starting at b[i] == '"'.
    let string_end = |mut i: usize| -> Option<usize> {
        i += 1;
        while i < b.len() {
            match b[i] {
                b'\\' => i += 2,
                b'"' => return Some(i + 1),
                _ => i += 1,
            }
        }
        None
    };
    loop {
        skip_ws(&mut i);
        if i >= b.len() {
            break;
        }
        if b[i] != b'"' {
            return None;
        }
        let key_end = string_end(i)?;
        let key = inner[i + 1..key_end - 1].to_string();
        i = key_end;
        skip_ws(&mut i);
        if i >= b.len() || b[i] != b':' {
            return None;
        }
        i += 1;
        skip_ws(&mut i);
        let start = i;
        let mut depth = 0i32;
        while i < b.len() {
            match b[i] {
                b'"' => {
                    i = string_end(i)?;
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => depth -= 1,
                b',' if depth == 0 => break,
                _ => {}
            }
            if depth < 0 {
                return None;
            }
            i += 1;
        }
        if depth != 0 {
            return None;
        }
        let value = inner[start..i].trim().to_string();
        if value.is_empty() {
            return None;
        }
        out.push((key, value));
        if i < b.len() {
            i += 1; // the comma
        }
    }
    Some(out)
}

/// `existing` (a JSON object, or empty) with `fields` set: existing keys
/// keep their place, new ones are appended.
fn merge_json_object(existing: &str, fields: &[(String, String)]) -> Option<String> {
    let mut members = if existing.trim().is_empty() { Vec::new() } else { json_members(existing)? };
    for (key, value) in fields {
        match members.iter_mut().find(|(k, _)| k == key) {
            Some(m) => m.1 = value.clone(),
            None => members.push((key.clone(), value.clone())),
        }
    }
    let body: Vec<String> = members.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
    Some(format!("{{{}}}", body.join(",")))
}

/// An integer element type's range, for exact arithmetic.
#[derive(Clone, Copy, Debug)]
struct IntType {
    bits: u32,
    signed: bool,
}

impl IntType {
    fn of(elem: &ElementType) -> Option<Self> {
        if !elem.is_integer() {
            return None;
        }
        let bits = elem.bit_width();
        (1..=64).contains(&bits).then_some(Self { bits, signed: elem.is_signed_int() })
    }
    fn min(self) -> i128 {
        if self.signed {
            -(1i128 << (self.bits - 1))
        } else {
            0
        }
    }
    fn max(self) -> i128 {
        if self.signed {
            (1i128 << (self.bits - 1)) - 1
        } else {
            (1i128 << self.bits) - 1
        }
    }
    fn contains(self, v: i128) -> bool {
        self.min() <= v && v <= self.max()
    }
    /// Two's complement wrap into the type's range.
    fn wrap(self, v: i128) -> i128 {
        let m = 1i128 << self.bits;
        let mut r = v.rem_euclid(m);
        if self.signed && r > self.max() {
            r -= m;
        }
        r
    }
}

/// What the analysis found about a while loop.
pub struct LoopAnalysis {
    /// Tuple index of the induction variable.
    pub index: usize,
    ty: IntType,
    /// The induction variable's initial value.
    pub init: i128,
    /// The condition's root (a function of the induction variable).
    cond_root: Op,
    /// The body's update of the induction variable.
    update: Op,
    /// The GTE of the induction variable in the condition and body.
    cond_indvar: Option<Value>,
    body_indvar: Option<Value>,
}

/// Follows copies and get_tuple_element(tuple(...)) pairs.
fn trace(value: Value) -> Value {
    let mut v = value;
    loop {
        let Some(op) = v.op() else { return v };
        if op.is("copy") {
            v = op.operand(0);
        } else if op.is("get_tuple_element") {
            let Some(tuple) = op.operand(0).defined_by("tuple") else { return v };
            let Some(i) = op.int_attr("index") else { return v };
            if (i as usize) >= tuple.num_operands() {
                return v;
            }
            v = tuple.operand(i as usize);
        } else {
            return v;
        }
    }
}

/// If every operand of `op` is a constant or `get_tuple_element(param, n)`
/// (possibly through a copy) for one `n`, that `n` (XLA's
/// GetGTEOperandIndex).
fn gte_operand_index(op: Op, param: Value) -> Option<usize> {
    let mut index = None;
    for operand in op.operands() {
        let def = operand.op()?;
        if def.is("constant") {
            continue;
        }
        let gte = if def.is("copy") { def.operand(0).op()? } else { def };
        if !gte.is("get_tuple_element") || !gte.operand(0).same_as(param) {
            return None;
        }
        let i = gte.int_attr("index")? as usize;
        match index {
            None => index = Some(i),
            Some(j) if j == i => {}
            Some(_) => return None,
        }
    }
    index
}

/// The only get_tuple_element of `param` with index `index`.
fn unique_gte(param: Value, index: usize) -> Option<Value> {
    let mut found = None;
    for user in param.users() {
        if user.is("get_tuple_element") && user.int_attr("index") == Some(index as i64) {
            if found.is_some() {
                return None;
            }
            found = Some(user.result(0));
        }
    }
    found
}

/// The single non-constant operand of `op`, if exactly one value is.
fn non_constant_operand(op: Op) -> Option<Value> {
    let mut found: Option<Value> = None;
    for operand in op.operands() {
        if operand.defined_by("constant").is_some() {
            continue;
        }
        match found {
            Some(f) if !f.same_as(operand) => return None,
            _ => found = Some(operand),
        }
    }
    found
}

/// A scalar integer constant's value.
fn int_constant(value: Value) -> Option<i128> {
    value.defined_by("constant")?;
    let t = value.ty().tensor()?.clone();
    if t.num_elements() != 1 {
        return None;
    }
    match splat(value)? {
        Scalar::Int(i) => Some(i),
        _ => None,
    }
}

/// The tuple index of the loop's induction variable (XLA's
/// GetLoopInductionVarTupleIdx, fast path).
pub fn induction_var_index(module: Op, while_op: Op) -> Option<usize> {
    let cond = computation::lookup(module, &while_op.symbol_attr("condition")?)?;
    let body = computation::lookup(module, &while_op.symbol_attr("body")?)?;
    let cond_param = *cond.arguments().first()?;
    let body_param = *body.arguments().first()?;
    let cond_root = cond.return_values().first()?.op()?;
    let index = gte_operand_index(cond_root, cond_param)?;
    let returned = body.return_values();
    if returned.len() != 1 || returned[0].raw_type().ptr != body_param.raw_type().ptr {
        return None;
    }
    let body_root = returned[0].defined_by("tuple")?;
    if index >= body_root.num_operands() {
        return None;
    }
    let inc = trace(body_root.operand(index)).op()?;
    if gte_operand_index(inc, body_param)? != index {
        return None;
    }
    while_op.operand(0).defined_by("tuple")?;
    Some(index)
}

/// Analyzes `while_op`'s induction variable; `None` if the loop does not
/// have the shape the trip count analysis understands.
pub fn analyze(module: Op, while_op: Op) -> Option<LoopAnalysis> {
    let index = induction_var_index(module, while_op)?;
    let cond = computation::lookup(module, &while_op.symbol_attr("condition")?)?;
    let body = computation::lookup(module, &while_op.symbol_attr("body")?)?;
    let init_tuple = while_op.operand(0).defined_by("tuple")?;
    if index >= init_tuple.num_operands() {
        return None;
    }
    let init_value = trace(init_tuple.operand(index));
    let elem = init_value.ty().tensor()?.elem.clone();
    let ty = IntType::of(&elem)?;
    let init = int_constant(init_value)?;
    let cond_root = cond.return_values().first()?.op()?;
    let body_root = body.return_values()[0].defined_by("tuple")?;
    let update = trace(body_root.operand(index)).op()?;
    let cond_param = *cond.arguments().first()?;
    let body_param = *body.arguments().first()?;
    Some(LoopAnalysis {
        index,
        ty,
        init,
        cond_root,
        update,
        cond_indvar: unique_gte(cond_param, index),
        body_indvar: unique_gte(body_param, index),
    })
}

/// The number of times `while_op`'s body runs, if known at compile time
/// (XLA's ComputeWhileLoopTripCount): closed form for a constant step,
/// else evaluation of up to `max_brute_force_iters` iterations.
pub fn trip_count(module: Op, while_op: Op, max_brute_force_iters: u64) -> Option<u64> {
    analyze(module, while_op)?.trip_count(max_brute_force_iters)
}

/// A compare's direction with the induction variable on the left, and the
/// constant bound.
fn normalized_compare(cond_root: Op, indvar: Value, ty: IntType) -> Option<(String, i128)> {
    if !cond_root.is("compare") || cond_root.num_operands() != 2 {
        return None;
    }
    let dir = enum_case(cond_root, "comparison_direction")?;
    if !compare_type_ok(cond_root, ty) {
        return None;
    }
    let (a, b) = (cond_root.operand(0), cond_root.operand(1));
    if a.same_as(indvar) {
        Some((dir, int_constant(b)?))
    } else if b.same_as(indvar) {
        let swapped = match dir.as_str() {
            "LT" => "GT",
            "LE" => "GE",
            "GT" => "LT",
            "GE" => "LE",
            other => other,
        };
        Some((swapped.to_string(), int_constant(a)?))
    } else {
        None
    }
}

/// True if a compare's optional compare_type agrees with integers of
/// type `ty` (SIGNED for signed, UNSIGNED for unsigned).
fn compare_type_ok(op: Op, ty: IntType) -> bool {
    match enum_case(op, "compare_type") {
        None => true,
        Some(ct) => ct == if ty.signed { "SIGNED" } else { "UNSIGNED" },
    }
}

fn holds(dir: &str, x: i128, n: i128) -> Option<bool> {
    Some(match dir {
        "EQ" => x == n,
        "NE" => x != n,
        "LT" => x < n,
        "LE" => x <= n,
        "GT" => x > n,
        "GE" => x >= n,
        _ => return None,
    })
}

impl LoopAnalysis {
    /// The constant step `s` if the body does `i = i + s` (`i - c` counts
    /// as `s = -c`).
    fn step(&self) -> Option<i128> {
        let indvar = self.body_indvar?;
        let u = self.update;
        if u.num_operands() != 2 {
            return None;
        }
        let (a, b) = (u.operand(0), u.operand(1));
        let is_indvar = |v: Value| trace(v).same_as(indvar);
        if u.is("add") {
            if is_indvar(a) {
                int_constant(b)
            } else if is_indvar(b) {
                int_constant(a)
            } else {
                None
            }
        } else if u.is("subtract") && is_indvar(a) {
            int_constant(b).map(|c| -c)
        } else {
            None
        }
    }

    /// `(init, step)` for XLA's known_init_step: a loop counting up from a
    /// non-negative constant by a positive one.
    pub fn init_step(&self) -> Option<(i128, i128)> {
        let s = self.step()?;
        (s > 0 && self.init >= 0).then_some((self.init, s))
    }

    /// The trip count; see [`trip_count`].
    pub fn trip_count(&self, max_brute_force_iters: u64) -> Option<u64> {
        if let Some(n) = self.closed_form() {
            return Some(n);
        }
        self.brute_force(max_brute_force_iters)
    }

    /// Exact count for `i += s` against `i <dir> n`, `None` when the
    /// counter would leave its type's range (wrap) or never stop.
    fn closed_form(&self) -> Option<u64> {
        let s = self.step()?;
        let indvar = self.cond_indvar?;
        let (dir, n) = normalized_compare(self.cond_root, indvar, self.ty)?;
        let x0 = self.init;
        if !holds(&dir, x0, n)? {
            return Some(0);
        }
        if s == 0 {
            return None; // the condition holds forever
        }
        // Smallest t > 0 with the condition false at x0 + t*s.
        let t: i128 = match (dir.as_str(), s > 0) {
            ("LT", true) => (n - x0 + s - 1) / s,
            ("LE", true) => (n - x0) / s + 1,
            ("GT", false) => (x0 - n + (-s) - 1) / (-s),
            ("GE", false) => (x0 - n) / (-s) + 1,
            ("EQ", _) => 1,
            ("NE", _) => {
                let d = n - x0;
                if d % s != 0 || d / s <= 0 {
                    return None;
                }
                d / s
            }
            _ => return None, // moving away from the bound: wraps or never ends
        };
        let last = x0 + t * s;
        if t <= 0 || !self.ty.contains(last) || t > i64::MAX as i128 {
            return None;
        }
        Some(t as u64)
    }

    /// Evaluates the condition and the update (ops over constants and the
    /// induction variable) from the initial value, up to `max` iterations.
    fn brute_force(&self, max: u64) -> Option<u64> {
        let cond_indvar = self.cond_indvar?;
        let body_indvar = self.body_indvar?;
        if !non_constant_operand(self.cond_root)?.same_as(cond_indvar) {
            return None;
        }
        if !non_constant_operand(self.update)?.same_as(body_indvar) {
            return None;
        }
        let mut x = self.init;
        for count in 0..=max {
            match eval(self.cond_root, cond_indvar, x, self.ty)? {
                Eval::Bool(false) => return Some(count),
                Eval::Bool(true) => {}
                Eval::Int(_) => return None,
            }
            match eval(self.update, body_indvar, x, self.ty)? {
                Eval::Int(v) => x = v,
                Eval::Bool(_) => return None,
            }
        }
        None
    }
}

enum Eval {
    Int(i128),
    Bool(bool),
}

/// Evaluates `op` (over constants and `indvar = x`) on scalars of type
/// `ty`, wrapping like the hardware.
fn eval(op: Op, indvar: Value, x: i128, ty: IntType) -> Option<Eval> {
    let args: Vec<i128> = op
        .operands()
        .into_iter()
        .map(|v| if v.same_as(indvar) { Some(x) } else { int_constant(v) })
        .collect::<Option<_>>()?;
    if op.is("compare") {
        if args.len() != 2 {
            return None;
        }
        let dir = enum_case(op, "comparison_direction")?;
        if !compare_type_ok(op, ty) {
            return None;
        }
        return holds(&dir, args[0], args[1]).map(Eval::Bool);
    }
    // The result must have the induction variable's type.
    let elem = op.result_type(0).tensor()?.elem.clone();
    let rt = IntType::of(&elem)?;
    if rt.bits != ty.bits || rt.signed != ty.signed {
        return None;
    }
    let v = match (op.opcode().as_str(), args.as_slice()) {
        ("add", [a, b]) => a + b,
        ("subtract", [a, b]) => a - b,
        ("multiply", [a, b]) => a.checked_mul(*b)?,
        ("maximum", [a, b]) => *a.max(b),
        ("minimum", [a, b]) => *a.min(b),
        ("and", [a, b]) => ty.wrap(a & b),
        ("or", [a, b]) => ty.wrap(a | b),
        ("xor", [a, b]) => ty.wrap(a ^ b),
        ("negate", [a]) => -a,
        ("copy", [a]) => *a,
        _ => return None,
    };
    Some(Eval::Int(ty.wrap(v)))
}
