//! One LLVM module in its own LLVM context: what a compile thread
//! optimizes and compiles (LLVM contexts are not thread-safe, so each
//! thread works in its own).

use inkwell::{context::Context, module::Module};

pub(crate) struct Unit {
    /// Leaked in [`Unit::new`], freed in `drop` after what was made in it.
    context: *mut Context,
    module: Option<Module<'static>>,
    /// The requested functions this unit defines.
    pub(crate) functions: Vec<String>,
}

// SAFETY: a unit's LLVM objects are only used by one thread at a time:
// the thread compiling it, then the owner, which drops it.
unsafe impl Send for Unit {}

impl Unit {
    /// Translates `module` (the `llvm` dialect) into a fresh LLVM context;
    /// notes which of `functions` it defines.
    pub(crate) fn new(module: &melior::ir::Module, functions: &[String]) -> Result<Unit, String> {
        let context: &'static Context = Box::leak(Box::new(Context::create()));
        let mut unit = Unit { context: context as *const Context as *mut Context, module: None, functions: Vec::new() };
        let llvm = crate::translate::to_llvm_ir(module, context)?;
        unit.functions = functions
            .iter()
            .filter(|f| llvm.get_function(f).is_some_and(|f| f.count_basic_blocks() > 0))
            .cloned()
            .collect();
        unit.module = Some(llvm);
        Ok(unit)
    }

    /// The translated module.
    pub(crate) fn module(&self) -> &Module<'static> {
        self.module.as_ref().expect("a translated module")
    }
}

impl Drop for Unit {
    fn drop(&mut self) {
        // The module goes first, then the context it was made in, which
        // nothing else references.
        drop(self.module.take());
        // SAFETY: leaked in `Unit::new`; nothing made from it is left.
        unsafe { drop(Box::from_raw(self.context)) };
    }
}

/// Runs `step` on every unit (with its index), one thread per unit. A
/// single unit runs on the calling thread with `target`; otherwise each
/// thread makes its own target with `make` (LLVM's target machines are not
/// shared between threads).
pub(crate) fn in_parallel<M, T: Send>(
    units: &mut [Unit],
    target: &M,
    make: impl Fn() -> Result<M, String> + Sync,
    step: impl Fn(&mut Unit, usize, &M) -> Result<T, String> + Sync,
) -> Vec<Result<T, String>> {
    if units.len() == 1 {
        return vec![step(&mut units[0], 0, target)];
    }
    let (make, step) = (&make, &step);
    std::thread::scope(|scope| {
        let handles: Vec<_> =
            units.iter_mut().enumerate().map(|(i, unit)| scope.spawn(move || step(unit, i, &make()?))).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err("internal error: an LLVM compile thread panicked".into())))
            .collect()
    })
}
