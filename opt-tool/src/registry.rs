//! What an opt tool knows: the Rust passes it can run by name and the
//! dialects it loads beyond rxla's, like the `DialectRegistry` and pass
//! registrations a C++ project hands to `MlirOptMain`.
//!
//! [`Registry::rxla`] is `hlo-opt`'s; a downstream tool starts from it and
//! adds its own passes ([`Registry::with_passes`]) and dialects
//! ([`Registry::with_dialect`] for a C API dialect handle,
//! [`Registry::with_irdl_dialects`] for dialects defined in IRDL, which
//! need no C++), then calls [`crate::opt_main`].

use melior::{dialect::DialectHandle, ir::Module, Context};
use rxla_ir::PassInfo;
use std::sync::OnceLock;

/// A titled group of passes, listed together by `--list-passes`.
#[derive(Clone)]
struct PassGroup {
    title: String,
    passes: Vec<PassInfo>,
}

/// The passes and dialects of an opt tool.
#[derive(Clone, Default)]
pub struct Registry {
    groups: Vec<PassGroup>,
    dialects: Vec<fn() -> DialectHandle>,
    irdl: Vec<String>,
}

impl Registry {
    /// No Rust passes and only the dialects every rxla context has (rxla's
    /// three and all of upstream MLIR's); upstream passes are always
    /// available by their mlir-opt names.
    pub fn empty() -> Registry {
        Registry::default()
    }

    /// `hlo-opt`'s registry: rxla's HLO passes and its lowering passes.
    pub fn rxla() -> Registry {
        Registry::empty()
            .with_passes("Rust passes (--passes=NAME or inside --pass-pipeline)", rxla_passes::registry())
            .with_passes("Lowering passes (kernel IR to the llvm dialect)", rxla_lowering::registry())
    }

    /// Adds a group of passes (made with `rxla_ir::pass!`), listed under
    /// `title`. A name already registered keeps its first registration.
    pub fn with_passes(mut self, title: &str, passes: &[PassInfo]) -> Registry {
        self.groups.push(PassGroup { title: title.to_string(), passes: passes.to_vec() });
        self
    }

    /// Adds a dialect by its C API handle (`mlirGetDialectHandle__NAME__`,
    /// wrapped as melior's `DialectHandle`); it is loaded in every context.
    pub fn with_dialect(mut self, handle: fn() -> DialectHandle) -> Registry {
        self.dialects.push(handle);
        self
    }

    /// Adds the dialects defined by an IRDL module (`irdl.dialect @name
    /// { irdl.operation @op { ... } }`): their ops are verified against the
    /// IRDL constraints and print in the generic form.
    pub fn with_irdl_dialects(mut self, irdl_module: &str) -> Registry {
        self.irdl.push(irdl_module.to_string());
        self
    }

    /// The Rust pass named `name`.
    pub fn lookup(&self, name: &str) -> Option<&PassInfo> {
        self.passes().find(|p| p.name == name)
    }

    /// Every Rust pass, in registration order.
    pub fn passes(&self) -> impl Iterator<Item = &PassInfo> {
        self.groups.iter().flat_map(|g| g.passes.iter())
    }

    /// The `--list-passes` text.
    pub fn list_passes(&self) -> String {
        use std::fmt::Write as _;
        let width = self.passes().map(|p| p.name.len()).max().unwrap_or(0);
        let mut out = String::new();
        for group in &self.groups {
            let _ = writeln!(out, "{}:", group.title);
            for pass in &group.passes {
                let _ = writeln!(out, "  {:width$}  {}", pass.name, pass.description);
            }
            let _ = writeln!(out);
        }
        let _ = writeln!(out, "Upstream MLIR passes are accepted by the same names as in mlir-opt");
        let _ = writeln!(out, "(canonicalize, cse, inline, symbol-dce, sccp, ...).");
        out
    }

    /// A context with rxla's dialects and this registry's.
    pub fn create_context(&self) -> Result<Context, String> {
        let context = rxla_dialects::create_context();
        for handle in &self.dialects {
            let handle = handle();
            handle.register_dialect(&context);
            handle.load_dialect(&context);
        }
        for (i, text) in self.irdl.iter().enumerate() {
            let module = Module::parse(&context, text)
                .ok_or_else(|| format!("IRDL dialect module #{} of the registry does not parse", i + 1))?;
            // SAFETY: the module is live (and kept alive below).
            let loaded = unsafe { mlir_sys::mlirLoadIRDLDialects(module.to_raw()) };
            if loaded.value == 0 {
                return Err(format!("IRDL dialect module #{} of the registry does not load", i + 1));
            }
            // The loaded dialects' verifiers were built from these ops; keep
            // them for the context's life rather than rely on IRDL copying.
            std::mem::forget(module);
        }
        Ok(context)
    }
}

static CURRENT: OnceLock<Registry> = OnceLock::new();

/// Makes `registry` the process's registry; fails when one is in use.
pub(crate) fn install(registry: Registry) -> Result<(), String> {
    CURRENT.set(registry).map_err(|_| "a pass registry is already installed in this process".to_string())
}

/// The process's registry: the installed one, else [`Registry::rxla`].
pub fn current() -> &'static Registry {
    CURRENT.get_or_init(Registry::rxla)
}
