//! Rewrite patterns in Rust, applied by MLIR's greedy driver.
//!
//! A pattern matches ops by name and rewrites them through a [`Rewriter`]
//! (so the driver sees every change and revisits what it affects). This is
//! melior's pattern support (`create_op_rewrite_pattern`, the greedy
//! driver) specialised for rxla: patterns are Rust values with typed access
//! to `hlo` ops, they can fail with a [`PassError`] instead of panicking
//! across the C boundary, and a set reports whether it changed anything.
//!
//! Two ways to write one:
//! - implement [`Pattern`] (state, several roots, full control);
//! - [`fold`]: a function from an op to the value that replaces it (or
//!   `None`), which is how most algebraic simplifications read.

use crate::{
    builder::Builder,
    op::{string_ref, Op, Value},
    pass::PassError,
};
use melior::{GreedyRewriteDriverConfig, GreedySimplifyRegionLevel};
use mlir_sys::*;
use std::{cell::RefCell, ffi::c_void, rc::Rc};

/// The rewriter a pattern changes IR through.
#[derive(Clone, Copy)]
pub struct Rewriter {
    raw: MlirRewriterBase,
    root: Op,
}

impl Rewriter {
    /// A rewriter over a raw `RewriterBase` matched at `root`.
    pub fn from_raw(raw: MlirRewriterBase, root: Op) -> Self {
        Self { raw, root }
    }

    /// A builder that inserts right before the matched op, at its location.
    pub fn builder(&self) -> Builder {
        unsafe { mlirRewriterBaseSetInsertionPointBefore(self.raw, self.root.raw()) };
        Builder::rewriter(self.raw, self.root)
    }

    /// Replaces `op`'s results with `values` and erases it.
    pub fn replace(&self, op: Op, values: &[Value]) {
        let raw: Vec<MlirValue> = values.iter().map(|v| v.0).collect();
        unsafe { mlirRewriterBaseReplaceOpWithValues(self.raw, op.raw(), raw.len() as isize, raw.as_ptr()) }
    }

    /// Erases `op` (its results must be unused).
    pub fn erase(&self, op: Op) {
        unsafe { mlirRewriterBaseEraseOp(self.raw, op.raw()) }
    }

    /// Changes `op` in place (operands, attributes) inside `f`, notifying
    /// the driver.
    pub fn modify<R>(&self, op: Op, f: impl FnOnce() -> R) -> R {
        unsafe { mlirRewriterBaseStartOpModification(self.raw, op.raw()) };
        let r = f();
        unsafe { mlirRewriterBaseFinalizeOpModification(self.raw, op.raw()) };
        r
    }

    /// Replaces all uses of `from` with `to`.
    pub fn replace_all_uses(&self, from: Value, to: Value) {
        unsafe { mlirRewriterBaseReplaceAllUsesWith(self.raw, from.0, to.0) }
    }
}

/// A rewrite pattern over `hlo` ops.
pub trait Pattern: 'static {
    /// The op names this pattern matches (`hlo.add`, ...).
    fn roots(&self) -> Vec<&'static str>;

    /// Tries to rewrite `op`: Ok(true) if it changed the IR (and only then
    /// may it have created ops), Ok(false) if it does not apply.
    fn match_and_rewrite(&self, op: Op, rewriter: &Rewriter) -> Result<bool, PassError>;

    /// Higher benefit is tried first.
    fn benefit(&self) -> u32 {
        1
    }
}

/// A fold: returns the value replacing `op` (built with the builder, which
/// inserts before `op`), or `None` if the fold does not apply. Build new ops
/// only on the way to returning `Some`.
pub type FoldFn = fn(Op, &Builder) -> Result<Option<Value>, PassError>;

struct Fold {
    root: &'static str,
    f: FoldFn,
}

impl Pattern for Fold {
    fn roots(&self) -> Vec<&'static str> {
        vec![self.root]
    }

    fn match_and_rewrite(&self, op: Op, rewriter: &Rewriter) -> Result<bool, PassError> {
        match (self.f)(op, &rewriter.builder())? {
            Some(value) => {
                rewriter.replace(op, &[value]);
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

/// A pattern from a fold function for ops named `root`.
pub fn fold(root: &'static str, f: FoldFn) -> Rc<dyn Pattern> {
    Rc::new(Fold { root, f })
}

/// A pattern from a function for ops named `root`.
pub fn pattern(root: &'static str, f: fn(Op, &Rewriter) -> Result<bool, PassError>) -> Rc<dyn Pattern> {
    struct FnPattern(&'static str, fn(Op, &Rewriter) -> Result<bool, PassError>);
    impl Pattern for FnPattern {
        fn roots(&self) -> Vec<&'static str> {
            vec![self.0]
        }
        fn match_and_rewrite(&self, op: Op, rewriter: &Rewriter) -> Result<bool, PassError> {
            (self.1)(op, rewriter)
        }
    }
    Rc::new(FnPattern(root, f))
}

/// How the greedy driver runs.
#[derive(Clone, Copy, Debug)]
pub struct DriverOptions {
    /// Sweeps over the IR before giving up on a fixed point.
    pub max_iterations: i64,
    /// Visit producers before users (the order simplifications want).
    pub top_down: bool,
    /// Also apply the ops' own folders (MLIR's `fold` hooks, e.g. of `arith`
    /// ops); a pass that should only touch its patterns' ops turns this off.
    pub fold: bool,
}

impl Default for DriverOptions {
    fn default() -> Self {
        Self { max_iterations: 20, top_down: true, fold: true }
    }
}

struct Shared {
    error: RefCell<Option<PassError>>,
    rewrites: RefCell<usize>,
}

struct Callback {
    pattern: Rc<dyn Pattern>,
    shared: Rc<Shared>,
}

unsafe extern "C" fn destruct(user_data: *mut c_void) {
    drop(unsafe { Box::from_raw(user_data as *mut Callback) });
}

unsafe extern "C" fn match_and_rewrite(
    _pattern: MlirRewritePattern,
    op: MlirOperation,
    rewriter: MlirPatternRewriter,
    user_data: *mut c_void,
) -> MlirLogicalResult {
    let callback = unsafe { &*(user_data as *const Callback) };
    if callback.shared.error.borrow().is_some() {
        return MlirLogicalResult { value: 0 };
    }
    let op = Op::from_raw(op);
    let rewriter = Rewriter::from_raw(unsafe { mlirPatternRewriterAsBase(rewriter) }, op);
    // A panic must not unwind into C++: turn it into a pass error.
    let result = crate::panics::catch(|| callback.pattern.match_and_rewrite(op, &rewriter))
        .unwrap_or_else(|what| Err(PassError(format!("internal error in a rewrite pattern: {what}"))));
    match result {
        Ok(true) => {
            *callback.shared.rewrites.borrow_mut() += 1;
            MlirLogicalResult { value: 1 }
        }
        Ok(false) => MlirLogicalResult { value: 0 },
        Err(e) => {
            *callback.shared.error.borrow_mut() = Some(e);
            MlirLogicalResult { value: 0 }
        }
    }
}

/// Applies `patterns` to everything nested in `root` (usually the module)
/// until nothing matches, erasing ops that become dead (MLIR's notion, which
/// respects HLO's side effects). Returns the number of rewrites.
pub fn apply_greedily(root: Op, patterns: &[Rc<dyn Pattern>], options: DriverOptions) -> Result<usize, PassError> {
    let context = root.context();
    let shared = Rc::new(Shared { error: RefCell::new(None), rewrites: RefCell::new(0) });
    unsafe {
        let set = mlirRewritePatternSetCreate(context);
        for pattern in patterns {
            for name in pattern.roots() {
                let callbacks = MlirRewritePatternCallbacks {
                    construct: None,
                    destruct: Some(destruct),
                    matchAndRewrite: Some(match_and_rewrite),
                };
                let data = Box::into_raw(Box::new(Callback { pattern: pattern.clone(), shared: shared.clone() }));
                let raw = mlirOpRewritePatternCreate(
                    string_ref(name),
                    pattern.benefit(),
                    context,
                    callbacks,
                    data as *mut c_void,
                    0,
                    std::ptr::null_mut(),
                );
                mlirRewritePatternSetAdd(set, raw);
            }
        }
        let frozen = mlirFreezeRewritePattern(set);
        let config = GreedyRewriteDriverConfig::new();
        config.set_max_iterations(options.max_iterations);
        config.set_use_top_down_traversal(options.top_down);
        config.enable_folding(options.fold);
        // Function bodies are single blocks; leave regions alone.
        config.set_region_simplification_level(GreedySimplifyRegionLevel::Disabled);
        config.enable_constant_cse(false);
        // Not reaching a fixed point within max_iterations is not an error
        // for a simplifier: the IR is still correct.
        let _ = mlirApplyPatternsAndFoldGreedilyWithOp(root.raw(), frozen, config.to_raw());
        mlirFrozenRewritePatternSetDestroy(frozen);
    }
    if let Some(error) = shared.error.borrow_mut().take() {
        return Err(error);
    }
    let n = *shared.rewrites.borrow();
    Ok(n)
}
