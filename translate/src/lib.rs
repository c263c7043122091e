//! HLO text in and out of the `hlo` dialect.
//!
//! - [`import_hlo_text`]: XLA's HLO text (what `jax.jit(f).lower(x)
//!   .as_text(dialect="hlo")` and `--xla_dump_to` write, and XLA's `.hlo` test
//!   files) to a verified `builtin.module` of `hlo` ops;
//! - [`export_hlo_text`]: such a module back to HLO text that XLA's parser
//!   accepts.
//!
//! The syntax itself lives in `rxla-hlo-text` (no MLIR); this crate maps
//! its tree to and from MLIR. How each construct maps is documented in
//! docs/hlo-text.md.

mod carried;
pub mod export;
pub mod import;
pub mod literal;
pub mod sharding;
pub mod types;

use melior::{
    ir::{Location, Module},
    Context,
};
use std::fmt;

/// Why an import failed.
#[derive(Debug)]
pub enum ImportFailure {
    /// The text is not well-formed HLO.
    Syntax(rxla_hlo_text::ParseError),
    /// Well-formed, but not importable (unknown computation, bad literal, ...).
    Import(import::ImportError),
    /// MLIR rejected the module (a verifier error); the diagnostics went to
    /// the context's handlers, located at the HLO instructions.
    Verification,
}

impl ImportFailure {
    /// `file:line:col: error: message` (or a summary for verification).
    pub fn render(&self, file: &str) -> String {
        match self {
            ImportFailure::Syntax(e) => e.render(file),
            ImportFailure::Import(e) => e.render(file),
            ImportFailure::Verification => format!("{file}: error: the imported module does not verify"),
        }
    }
}

impl fmt::Display for ImportFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render("<input>"))
    }
}

impl std::error::Error for ImportFailure {}

/// Imports HLO text into `context` (which must have the hlo dialect);
/// `file` names the source in locations and errors.
/// Warnings (an elided constant, ...) go to the context's diagnostic
/// handlers, located at the instruction.
pub fn import_hlo_text<'c>(context: &'c Context, text: &str, file: &str) -> Result<Module<'c>, ImportFailure> {
    let (module, warnings) = import_hlo_text_with_warnings(context, text, file)?;
    for w in warnings {
        let at = Location::new(context, file, w.pos.line as usize, w.pos.col as usize);
        rxla_dialects::emit_warning(Location::name(context, &w.instruction, at), &w.message);
    }
    Ok(module)
}

/// [`import_hlo_text`], returning the warnings instead of emitting them.
pub fn import_hlo_text_with_warnings<'c>(
    context: &'c Context,
    text: &str,
    file: &str,
) -> Result<(Module<'c>, Vec<import::ImportWarning>), ImportFailure> {
    let ast = rxla_hlo_text::parse_module(text).map_err(ImportFailure::Syntax)?;
    let (mlir, warnings) = import::to_mlir_text(&ast, file).map_err(ImportFailure::Import)?;
    let module = Module::parse(context, &mlir).ok_or(ImportFailure::Verification)?;
    Ok((module, warnings))
}

pub use export::{export_hlo_text, ExportError};
