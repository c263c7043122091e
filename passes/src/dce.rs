//! `dce`: dead code elimination that knows HLO's side effects.
//!
//! Like XLA's HloDCE: an instruction whose results are unused is removed
//! unless it has side effects (rng, custom-call, collectives, send/recv,
//! infeed/outfeed, opt-barrier, ... are declared with memory effects in
//! ODS, so MLIR's effect analysis answers this); calls, fusions, loops and
//! conditionals go when the computations they call have no side effects.
//! Computations that the entry computation (`hlo.entry`) no longer reaches
//! are removed too.

use melior::ir::OperationRef;
use rxla_ir::{
    computation::SideEffects,
    op::{is_trivially_dead_when_unused, Op},
    pass::{HloPass, PassError, PassOptions},
};
use std::collections::{HashMap, HashSet};

#[derive(Clone, Debug)]
pub struct Dce {
    /// Also remove computations unreachable from the entry computation.
    remove_dead_computations: bool,
}

impl HloPass for Dce {
    const NAME: &'static str = "dce";
    const DESCRIPTION: &'static str =
        "Remove unused side-effect-free instructions and computations the entry no longer calls";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &["remove-dead-computations"])?;
        Ok(Self { remove_dead_computations: options.bool("remove-dead-computations", true)? })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        for func in module.body_ops() {
            remove_dead_instructions(func);
        }
        if self.remove_dead_computations {
            remove_dead_computations(module);
        }
        Ok(())
    }
}

/// Erases unused effect-free ops nested in `root`, users before producers,
/// so whole dead chains go in one sweep. Calls, fusions, loops and
/// conditionals are as effectful as the computations they call (the
/// dialect must assume the worst for them; here the callees are known).
pub fn remove_dead_instructions(root: Op) -> usize {
    let module = if root.name() == "builtin.module" { Some(root) } else { root.parent_module() };
    let mut effects = module.map(SideEffects::with_function_table);
    let mut erased = 0;
    // Pre-order lists producers before users within a block; walking it
    // backwards visits every user before the values it consumes.
    for op in root.walk_preorder().into_iter().skip(1).rev() {
        if op.has_uses() || op.num_results() == 0 {
            continue;
        }
        let dead = is_trivially_dead_when_unused(op)
            || (CALLERS.contains(&op.name().as_str()) && effects.as_mut().is_some_and(|e| !e.op(op)));
        if dead {
            op.erase();
            erased += 1;
        }
    }
    erased
}

/// Ops whose only effects are those of the computations they call.
const CALLERS: &[&str] = &["hlo.call", "hlo.fusion", "hlo.while", "hlo.conditional"];

/// Erases `func.func`s not reachable from the entry computation. Modules
/// without an `hlo.entry` function are left alone: every function may be an
/// entry point.
fn remove_dead_computations(module: Op) {
    let funcs: Vec<Op> = module.body_ops().into_iter().filter(|op| op.name() == "func.func").collect();
    let Some(entry) = funcs.iter().find(|f| f.has_attr("hlo.entry")) else {
        return;
    };
    let by_name: HashMap<String, Op> =
        funcs.iter().filter_map(|f| f.string_attr("sym_name").map(|n| (n, *f))).collect();
    let mut reachable: HashSet<Op> = HashSet::from([*entry]);
    let mut work = vec![*entry];
    while let Some(func) = work.pop() {
        for op in func.walk_preorder() {
            for callee in op.symbol_uses() {
                if let Some(&target) = by_name.get(&callee) {
                    if reachable.insert(target) {
                        work.push(target);
                    }
                }
            }
        }
    }
    for func in funcs {
        if !reachable.contains(&func) {
            func.erase();
        }
    }
}
