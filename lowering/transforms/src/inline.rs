//! `xla-inline`: inlines the subgraph functions of a kernel into their
//! callers (`xla.pure_call` and `func.call`), within a growth budget.
//!
//! A callee is inlined where it has a single call site, or where it is
//! small (at most [`SMALL`] ops), so index computations and tensor
//! accesses of the caller and the callee simplify together. A function
//! the partitioner made because it is read at several indices stays a
//! function when it is big: inlining it everywhere could grow the kernel
//! exponentially (a chain of such functions, each calling the previous one
//! twice). The budget caps the growth of each kernel module at
//! [`GROWTH`] times its size (plus a constant); what is not inlined is
//! left to LLVM's inliner, which has a cost model.

use crate::ir::*;
use melior::ir::OperationRef;
use mlir_sys::*;
use rxla_ir::pass::{HloPass, PassError, PassOptions};
use std::collections::HashMap;

/// Callees this small are inlined at every call site (a batch norm's
/// backward subgraph functions, called in a column reduction's lane loop,
/// are 9 to 20 ops).
const SMALL: usize = 24;
/// A kernel module may grow to this many times its size (plus
/// [`SLACK`] ops) by inlining.
const GROWTH: usize = 4;
const SLACK: usize = 2000;

#[derive(Clone, Debug)]
pub struct Inline;

impl HloPass for Inline {
    const NAME: &'static str = "xla-inline";
    const DESCRIPTION: &'static str = "Inline kernel subgraph functions called once or small, within a growth budget";

    fn from_options(options: &PassOptions) -> std::result::Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Inline)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> std::result::Result<(), PassError> {
        let root = Op::of(&module);
        let mut modules: Vec<Op> = walk(root).into_iter().filter(|op| op.is_named("builtin.module")).collect();
        modules.push(root);
        for m in modules {
            inline_in(m)?;
        }
        Ok(())
    }
}

fn is_call(op: Op) -> bool {
    op.is_named("xla.pure_call") || op.is_named("func.call")
}

/// The functions directly in `module`, by name.
fn functions_of(module: Op) -> HashMap<String, Op> {
    let Some(body) = module.region_block(0) else { return HashMap::new() };
    block_ops(body)
        .into_iter()
        .filter(|op| op.is_named("func.func"))
        .filter_map(|f| f.string_attr("sym_name").map(|n| (n, f)))
        .collect()
}

/// Calls nested in `module` but not in nested modules.
fn calls_in(module: Op) -> Vec<Op> {
    let mut out = Vec::new();
    let Some(body) = module.region_block(0) else { return out };
    for f in block_ops(body) {
        if f.is_named("func.func") {
            out.extend(walk(f).into_iter().filter(|op| is_call(*op)));
        }
    }
    out
}

fn size(op: Op) -> usize {
    op.walk_preorder().len()
}

fn inline_in(module: Op) -> Result<()> {
    let funcs = functions_of(module);
    if funcs.is_empty() {
        return Ok(());
    }
    let initial: usize = funcs.values().map(|f| size(*f)).sum();
    let budget = initial * GROWTH + SLACK;
    let mut total = initial;
    loop {
        let calls = calls_in(module);
        let mut sites: HashMap<String, usize> = HashMap::new();
        for c in &calls {
            if let Some(name) = c.symbol_attr("callee") {
                *sites.entry(name).or_default() += 1;
            }
        }
        let mut changed = false;
        for call in calls {
            let Some(name) = call.symbol_attr("callee") else { continue };
            let Some(&callee) = funcs.get(&name) else { continue };
            let Some(body) = callee.region_block(0) else { continue };
            if region_blocks(callee, 0).len() != 1 {
                continue;
            }
            // Recursion (not produced by the emitters) is left alone.
            if call.parent_func() == Some(callee) {
                continue;
            }
            let n = size(callee);
            let once = sites.get(&name) == Some(&1);
            if !(once || n <= SMALL) || total + n > budget {
                continue;
            }
            let _ = body;
            inline_call(call, callee)?;
            total += n;
            changed = true;
            if let Some(s) = sites.get_mut(&name) {
                *s -= 1;
            }
        }
        if !changed {
            break;
        }
    }
    // Private functions nobody calls or names any more (a shuffle's
    // combiner is a symbol reference, not a call).
    let mut remaining: std::collections::HashSet<String> =
        calls_in(module).iter().filter_map(|c| c.symbol_attr("callee")).collect();
    for op in walk(module) {
        remaining.extend(op.symbol_uses());
    }
    for (name, f) in functions_of(module) {
        let private = f.string_attr("sym_visibility").as_deref() == Some("private");
        if private && !remaining.contains(&name) && f.region_block(0).is_some() {
            f.erase();
        }
    }
    Ok(())
}

/// Replaces `call` with a copy of `callee`'s body.
fn inline_call(call: Op, callee: Op) -> Result<()> {
    let copy = callee.clone_detached();
    let block = copy.region_block(0).ok_or_else(|| bug("inlined function without a body"))?;
    for (arg, value) in block_args(block).iter().zip(call.operands()) {
        arg.replace_all_uses_with(value);
    }
    let ret = terminator(block).ok_or_else(|| bug("function body without a terminator"))?;
    let results = ret.operands();
    ret.erase();
    move_block_ops_before(block, call);
    replace_op(call, &results);
    unsafe { mlirOperationDestroy(copy.raw()) };
    Ok(())
}
