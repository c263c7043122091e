//! `flatten-call-graph`: makes every computation called in a control-flow
//! context (`hlo.call`, `hlo.while`, `hlo.conditional`, `hlo.async_start`)
//! have a single call site, as XLA's FlattenCallGraph does.
//!
//! XLA's call graph distinguishes control-flow call sites (the callee runs
//! as a sequential computation) from embedded ones (`to_apply` of reduce,
//! map, sort, scatter, all-reduce, fusion, custom-call, ...: the callee is
//! applied element by element or inside a kernel). A computation's context
//! is control-flow when it is reached only through control-flow call sites
//! from a root, embedded when only through embedded ones, and both
//! otherwise.
//!
//! Computations are visited callees first. For each control-flow call site
//! of a computation except the first one (every one if the computation is
//! also called in an embedded context), the call site gets a fresh clone,
//! and every computation the clone calls through control flow is cloned
//! too, recursively, so the cloned subtree is private to that call site.
//! Embedded call sites are left alone: a reducer shared by many reduces
//! stays shared.

use crate::call_inliner::post_order;
use melior::ir::OperationRef;
use rxla_ir::{
    computation::{self, clone_function, functions, replace_callees},
    op::Op,
    pass::{HloPass, PassError, PassOptions},
};
use std::collections::{HashMap, HashSet};

#[derive(Clone, Debug)]
pub struct FlattenCallGraph;

impl HloPass for FlattenCallGraph {
    const NAME: &'static str = "flatten-call-graph";
    const DESCRIPTION: &'static str =
        "Clone computations so each one has a single control-flow (call/while/conditional) call site";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        flatten(Op::of(&module))?;
        Ok(())
    }
}

/// How a computation is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallContext {
    ControlFlow,
    Embedded,
    Both,
}

impl CallContext {
    fn union(self, other: CallContext) -> CallContext {
        if self == other {
            self
        } else {
            CallContext::Both
        }
    }
}

/// The context in which `op` calls the computations it references.
pub fn call_site_context(op: Op) -> CallContext {
    match op.name().as_str() {
        "hlo.call" | "hlo.while" | "hlo.conditional" | "hlo.async_start" | "hlo.async_update" | "hlo.async_done" => {
            CallContext::ControlFlow
        }
        _ => CallContext::Embedded,
    }
}

/// Each computation's context, XLA's CallGraph::SetCallContexts: roots
/// (computations nothing calls) run in a control-flow context; a callee
/// inherits its caller's context through control-flow call sites and is
/// embedded through embedded ones.
pub fn call_contexts(module: Op) -> HashMap<String, CallContext> {
    let sites = computation::call_sites(module);
    let mut called: HashSet<String> = HashSet::new();
    for (_, names) in &sites {
        called.extend(names.iter().cloned());
    }
    let mut contexts: HashMap<String, CallContext> = HashMap::new();
    let mut work: Vec<String> = Vec::new();
    let by_name: HashMap<String, Op> = functions(module).into_iter().map(|f| (computation::name(f), f)).collect();
    for f in functions(module) {
        let name = computation::name(f);
        if !called.contains(&name) {
            contexts.insert(name.clone(), CallContext::ControlFlow);
            work.push(name);
        }
    }
    while let Some(name) = work.pop() {
        let Some(&func) = by_name.get(&name) else { continue };
        let caller_context = contexts[&name];
        for op in func.walk_preorder().into_iter().skip(1) {
            let site = call_site_context(op);
            let context = if site == CallContext::Embedded { CallContext::Embedded } else { caller_context };
            for callee in op.symbol_uses() {
                let new = match contexts.get(&callee) {
                    Some(old) => old.union(context),
                    None => context,
                };
                if contexts.get(&callee) != Some(&new) {
                    contexts.insert(callee.clone(), new);
                    work.push(callee);
                }
            }
        }
    }
    contexts
}

/// Flattens the call graph of `module`; returns the number of clones made.
pub fn flatten(module: Op) -> Result<usize, PassError> {
    let contexts = call_contexts(module);
    // Call sites per callee, in module order, from the original graph.
    let mut sites: HashMap<String, Vec<Op>> = HashMap::new();
    for (op, names) in computation::call_sites(module) {
        let mut seen: Vec<&String> = Vec::new();
        for n in &names {
            if !seen.contains(&n) {
                seen.push(n);
                sites.entry(n.clone()).or_default().push(op);
            }
        }
    }
    let mut clones = 0;
    for func in post_order(module) {
        let name = computation::name(func);
        let Some(callers) = sites.get(&name) else { continue };
        let context = contexts.get(&name).copied().unwrap_or(CallContext::ControlFlow);
        for (i, site) in callers.iter().enumerate() {
            if call_site_context(*site) == CallContext::Embedded {
                continue;
            }
            if context != CallContext::Both && i == 0 {
                continue;
            }
            let mut work: Vec<Op> = Vec::new();
            let mut error = None;
            replace_callees(*site, |callee| {
                if callee != name {
                    return None;
                }
                match clone_function(module, func, &format!("{name}.clone")) {
                    Ok(copy) => {
                        work.push(copy);
                        Some(computation::name(copy))
                    }
                    Err(e) => {
                        error = Some(e);
                        None
                    }
                }
            })?;
            if let Some(e) = error {
                return Err(e);
            }
            while let Some(current) = work.pop() {
                clones += 1;
                for op in current.walk_preorder().into_iter().skip(1) {
                    if call_site_context(op) != CallContext::ControlFlow {
                        continue;
                    }
                    let mut error = None;
                    replace_callees(op, |callee| {
                        let original = computation::lookup(module, callee)?;
                        match clone_function(module, original, &format!("{callee}.clone")) {
                            Ok(copy) => {
                                work.push(copy);
                                Some(computation::name(copy))
                            }
                            Err(e) => {
                                error = Some(e);
                                None
                            }
                        }
                    })?;
                    if let Some(e) = error {
                        return Err(e);
                    }
                }
            }
        }
    }
    Ok(clones)
}
