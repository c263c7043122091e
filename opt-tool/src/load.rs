//! Loading a module (HLO text or MLIR) as HLO's syntax tree, the form the
//! interpreter runs: what `hlo-run` and the Python package share, each
//! reporting the diagnostics in its own way.

use crate::diagnostics::{Collector, Severity};
use melior::ir::Module;
use rxla_hlo_text::ast;

/// A loaded module and the warnings its import gave, rendered
/// (`file:line:col: warning: ...`).
pub struct Loaded {
    pub module: ast::Module,
    pub warnings: Vec<String>,
}

/// Why a module did not load: MLIR's and the importer's diagnostics,
/// rendered, then (where no diagnostic says it) what failed, without the
/// file name.
#[derive(Debug)]
pub struct LoadError {
    pub diagnostics: Vec<String>,
    pub message: Option<String>,
}

/// Parses MLIR (`is_mlir`) or imports HLO text, verifies it and exports
/// the syntax tree. `file` names the source in diagnostics.
pub fn load_ast(source: &str, file: &str, is_mlir: bool) -> Result<Loaded, LoadError> {
    let context = rxla_dialects::create_context();
    context.enable_multi_threading(false);
    rxla_dialects::set_print_op_on_diagnostic(&context, false);
    let collector = Collector::attach(&context);
    let failed = |collector: &Collector| -> LoadError {
        let records = collector.take();
        let has_error = records.iter().any(|d| d.severity == Severity::Error);
        LoadError {
            diagnostics: records.iter().map(|d| d.render(file)).collect(),
            message: (!has_error).then(|| "the module does not verify".to_string()),
        }
    };
    let module = if is_mlir {
        match Module::parse(&context, source) {
            Some(m) => m,
            None => return Err(failed(&collector)),
        }
    } else {
        match rxla_translate::import_hlo_text(&context, source, file) {
            Ok(m) => m,
            Err(rxla_translate::ImportFailure::Verification) => return Err(failed(&collector)),
            Err(failure) => return Err(LoadError { diagnostics: vec![failure.render(file)], message: None }),
        }
    };
    let warnings = collector.take().iter().map(|d| d.render(file)).collect();
    collector.detach(&context);
    let module = rxla_translate::export::export_ast(&module)
        .map_err(|e| LoadError { diagnostics: Vec::new(), message: Some(e.to_string()) })?;
    Ok(Loaded { module, warnings })
}
