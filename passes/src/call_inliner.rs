//! `call-inliner`: replaces `hlo.call`s by the body of the computation they
//! call, as XLA's CallInliner does.
//!
//! Computations are visited callees first, so a callee's own calls are
//! already inlined when it is inlined into its callers. A call is inlined
//! unless XLA keeps it:
//! - it has a `backend_config` (`hlo.backend_config`);
//! - it sits in a computation run by `hlo.async_start`;
//! - its frontend attributes say `inlineable="false"` (any value other than
//!   `"true"`);
//! - it is a composite (frontend attribute `composite.name`) whose name is
//!   listed in the option `composites-to-preserve` (comma-separated, empty
//!   by default as in XLA, so composites are inlined).
//!
//! Inlined instructions get the call's metadata `op_name` as a prefix of
//! their own, as in XLA. Afterwards dead instructions are removed (XLA runs
//! HloDCE) and the computations that were inlined and are no longer
//! referenced are erased.
//!
//! rxla keeps calls whose caller or callee carries control dependencies
//! (`hlo.control_predecessors`): they name instructions, which inlining
//! would rename.

use crate::dce::remove_dead_instructions;
use melior::ir::OperationRef;
use rxla_ir::{
    builder::Builder,
    computation::{self, functions},
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::HloType,
};
use std::collections::{HashMap, HashSet};

#[derive(Clone, Debug, Default)]
pub struct CallInliner {
    /// Composite names (frontend attribute `composite.name`) kept as calls.
    composites_to_preserve: Vec<String>,
}

impl HloPass for CallInliner {
    const NAME: &'static str = "call-inliner";
    const DESCRIPTION: &'static str = "Inline every hlo.call into its caller (XLA's CallInliner)";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &["composites-to-preserve"])?;
        let names = options.string("composites-to-preserve", "");
        Ok(Self {
            composites_to_preserve: names
                .split(',')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(str::to_string)
                .collect(),
        })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        let order = post_order(module);
        let async_computations: HashSet<String> = computation::call_sites(module)
            .into_iter()
            .filter(|(op, _)| op.is("async_start"))
            .flat_map(|(_, names)| names)
            .collect();
        let mut inlined_callees: Vec<String> = Vec::new();
        for func in order {
            let name = computation::name(func);
            if async_computations.contains(&name) || has_control_dependencies(func) {
                continue;
            }
            for op in func.walk_preorder().into_iter().skip(1) {
                if !op.is("call") || !self.should_inline(module, op) {
                    continue;
                }
                let callee = op.symbol_attr("to_apply").unwrap_or_default();
                inline_call(module, op)?;
                if !inlined_callees.contains(&callee) {
                    inlined_callees.push(callee);
                }
            }
        }
        if inlined_callees.is_empty() {
            return Ok(());
        }
        for func in functions(module) {
            remove_dead_instructions(func);
        }
        remove_unreferenced(module, inlined_callees);
        Ok(())
    }
}

impl CallInliner {
    fn should_inline(&self, module: Op, call: Op) -> bool {
        if call.has_attr("hlo.backend_config") || call.has_attr("hlo.control_predecessors") {
            return false;
        }
        let attrs = call.string_attr("hlo.frontend_attributes").map(|t| frontend_attributes(&t)).unwrap_or_default();
        if let Some(value) = attrs.get("inlineable") {
            if value != "true" {
                return false;
            }
        }
        if attrs.get("composite.name").is_some_and(|n| self.composites_to_preserve.contains(n)) {
            return false;
        }
        let Some(callee) = call.symbol_attr("to_apply").and_then(|n| computation::lookup(module, &n)) else {
            return false;
        };
        !has_control_dependencies(callee)
    }
}

/// True if any op of `func` has control predecessors.
fn has_control_dependencies(func: Op) -> bool {
    func.walk_preorder().into_iter().any(|op| op.has_attr("hlo.control_predecessors"))
}

/// The functions of `module`, each after every function it calls (cycles,
/// which HLO does not have, are cut arbitrarily).
pub fn post_order(module: Op) -> Vec<Op> {
    let funcs = functions(module);
    let by_name: HashMap<String, Op> = funcs.iter().map(|f| (computation::name(*f), *f)).collect();
    let mut visited: HashSet<Op> = HashSet::new();
    let mut out = Vec::new();
    // Iterative DFS: (function, callees not yet expanded).
    for root in &funcs {
        if visited.contains(root) {
            continue;
        }
        visited.insert(*root);
        let mut stack: Vec<(Op, Vec<Op>)> = vec![(*root, callees(*root, &by_name))];
        while let Some((func, pending)) = stack.last_mut() {
            if let Some(next) = pending.pop() {
                if visited.insert(next) {
                    let c = callees(next, &by_name);
                    stack.push((next, c));
                }
            } else {
                out.push(*func);
                stack.pop();
            }
        }
    }
    out
}

/// The functions `func` references, in reverse program order (so popping
/// visits them in program order).
fn callees(func: Op, by_name: &HashMap<String, Op>) -> Vec<Op> {
    let mut out: Vec<Op> = Vec::new();
    for op in func.walk_preorder().into_iter().skip(1) {
        for name in op.symbol_uses() {
            if let Some(f) = by_name.get(&name) {
                if !out.contains(f) {
                    out.push(*f);
                }
            }
        }
    }
    out.reverse();
    out
}

/// Replaces `call` (an `hlo.call`) by a copy of its callee's body, mapping
/// parameters to the call's operands; returns the values that replaced the
/// call's results. The callee is left in place.
pub fn inline_call(module: Op, call: Op) -> Result<Vec<Value>, PassError> {
    let bug = |what: String| PassError(format!("internal error: {what}"));
    let callee_name = call.symbol_attr("to_apply").ok_or_else(|| bug("hlo.call without to_apply".into()))?;
    let callee = computation::lookup(module, &callee_name)
        .ok_or_else(|| bug(format!("hlo.call of unknown computation @{callee_name}")))?;
    let params = callee.arguments();
    if params.len() != call.num_operands() {
        return Err(bug(format!(
            "@{callee_name} takes {} parameters, the call passes {}",
            params.len(),
            call.num_operands()
        )));
    }
    let prefix = call.string_attr("hlo.metadata").and_then(|m| metadata_op_name(&m)).filter(|p| !p.is_empty());
    let copy = callee.clone_detached();
    let result = (|| {
        for (param, operand) in copy.arguments().into_iter().zip(call.operands()) {
            param.replace_all_uses_with(operand);
        }
        let ret = copy.terminator().ok_or_else(|| bug(format!("@{callee_name} has no return")))?;
        for op in copy.body_ops() {
            if op == ret {
                continue;
            }
            op.move_before(call);
            if let Some(prefix) = &prefix {
                prefix_op_name(op, prefix)?;
            }
        }
        let returned = ret.operands();
        let b = Builder::before(call);
        // The callee may return the call's results, their elements (one
        // tuple result), or one tuple of them (several results).
        let values = if returned.len() == call.num_results() {
            returned
        } else if returned.len() == 1
            && matches!(returned[0].ty(), HloType::Tuple(ref t) if t.len() == call.num_results())
        {
            (0..call.num_results()).map(|i| b.get_tuple_element(returned[0], i)).collect::<Result<_, _>>()?
        } else if call.num_results() == 1 {
            vec![b.tuple(&returned)?]
        } else {
            return Err(bug(format!(
                "@{callee_name} returns {} values, the call has {} results",
                returned.len(),
                call.num_results()
            )));
        };
        for (i, v) in values.iter().enumerate() {
            call.replace_result_uses(i, *v);
        }
        Ok(values)
    })();
    // SAFETY: the copy is detached; only its terminator (if any) is left,
    // and destroying it drops its uses.
    unsafe { mlir_sys::mlirOperationDestroy(copy.raw()) };
    let values = result?;
    call.erase();
    Ok(values)
}

/// Erases the functions in `candidates` (and, transitively, what they call)
/// that nothing references any more, except the entry and public ones.
///
/// The references are counted once (an op naming a function n times counts
/// n), and erasing a function releases its own: asking the module for each
/// candidate's callers was quadratic when a pass inlined thousands of calls.
pub fn remove_unreferenced(module: Op, mut candidates: Vec<String>) {
    if candidates.is_empty() {
        return;
    }
    let mut references: HashMap<String, usize> = HashMap::new();
    for (_, names) in computation::call_sites(module) {
        for name in names {
            *references.entry(name).or_default() += 1;
        }
    }
    let mut by_name: HashMap<String, Op> = functions(module).into_iter().map(|f| (computation::name(f), f)).collect();
    while let Some(name) = candidates.pop() {
        let Some(&func) = by_name.get(&name) else { continue };
        if func.has_attr("hlo.entry") || func.string_attr("sym_visibility").as_deref() != Some("private") {
            continue;
        }
        if references.get(&name).is_some_and(|&n| n > 0) {
            continue;
        }
        let called: Vec<String> = func.walk_preorder().into_iter().skip(1).flat_map(|op| op.symbol_uses()).collect();
        for callee in &called {
            if let Some(n) = references.get_mut(callee) {
                *n = n.saturating_sub(1);
            }
        }
        by_name.remove(&name);
        func.erase();
        candidates.extend(called);
    }
}

/// The key/value pairs of HLO frontend attributes text
/// (`{key="value",other="value"}`).
pub fn frontend_attributes(text: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let inner = text.trim().trim_start_matches('{').trim_end_matches('}');
    let bytes = inner.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        // key up to '='
        let start = i;
        while i < bytes.len() && bytes[i] != b'=' {
            i += 1;
        }
        let key = inner[start..i].trim().trim_start_matches(',').trim().trim_matches('"').to_string();
        i += 1;
        // value: a quoted string (with escapes) or a bare token
        let value;
        while i < bytes.len() && bytes[i] == b' ' {
            i += 1;
        }
        if i < bytes.len() && bytes[i] == b'"' {
            let (v, end) = quoted(inner, i);
            value = v;
            i = end;
        } else {
            let s = i;
            while i < bytes.len() && bytes[i] != b',' {
                i += 1;
            }
            value = inner[s.min(inner.len())..i.min(inner.len())].trim().to_string();
        }
        if !key.is_empty() {
            out.insert(key, value);
        }
        while i < bytes.len() && bytes[i] != b',' {
            i += 1;
        }
        i += 1;
    }
    out
}

/// The raw (still escaped) contents of the quoted string starting at
/// `text[start] == '"'`, and the index after its closing quote.
fn quoted(text: &str, start: usize) -> (String, usize) {
    let bytes = text.as_bytes();
    let mut i = start + 1;
    while i < bytes.len() && bytes[i] != b'"' {
        if bytes[i] == b'\\' {
            i += 1;
        }
        i += 1;
    }
    let end = i.min(bytes.len());
    (text[start + 1..end].to_string(), (i + 1).min(bytes.len()))
}

/// The `op_name` of HLO metadata text (`{op_name="..." source_file=...}`),
/// still escaped.
pub fn metadata_op_name(text: &str) -> Option<String> {
    let at = find_field(text, "op_name")?;
    Some(quoted(text, at).0)
}

/// Position of the opening quote of `field="` in metadata text.
fn find_field(text: &str, field: &str) -> Option<usize> {
    let pattern = format!("{field}=\"");
    let mut search = 0;
    while let Some(pos) = text[search..].find(&pattern) {
        let at = search + pos;
        let before = text[..at].chars().last();
        if matches!(before, None | Some('{') | Some(' ') | Some(',')) {
            return Some(at + field.len() + 1);
        }
        search = at + pattern.len();
    }
    None
}

/// Longest op_name XLA forms when prefixing inlined instructions.
const MAX_OP_NAME_SIZE: usize = 1024;

/// Prepends `prefix/` to the metadata op_name of `op` (sets it to `prefix`
/// when empty or absent).
fn prefix_op_name(op: Op, prefix: &str) -> Result<(), PassError> {
    let text = op.string_attr("hlo.metadata").unwrap_or_else(|| "{}".to_string());
    let new_text = match find_field(&text, "op_name") {
        Some(at) => {
            let (old, end) = quoted(&text, at);
            if prefix.len() + old.len() >= MAX_OP_NAME_SIZE {
                return Ok(());
            }
            let name = if old.is_empty() { prefix.to_string() } else { format!("{prefix}/{old}") };
            format!("{}\"{}\"{}", &text[..at], name, &text[end..])
        }
        None => {
            let inner = text.trim().trim_start_matches('{').trim_end_matches('}').trim();
            if inner.is_empty() {
                format!("{{op_name=\"{prefix}\"}}")
            } else {
                format!("{{op_name=\"{prefix}\" {inner}}}")
            }
        }
    };
    op.set_string_attr("hlo.metadata", &new_text);
    Ok(())
}
