//! Every HLO module of the oracle corpus imports, verifies, and round-trips:
//! HLO -> MLIR -> HLO -> MLIR gives the same MLIR, and exporting again
//! gives the same HLO text.

use melior::ir::operation::OperationLike;
use std::path::{Path, PathBuf};

fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    // The oracle's cases and bench modules, the real models (test/models:
    // as JAX hands them over, and XLA's dumps with Shardy's custom calls and
    // elided constants), and the LAPACK custom calls of test/linalg.
    for dir in ["test/oracle/cases", "test/oracle/bench", "test/models/cases", "test/linalg/cases"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
        for entry in entries.flatten() {
            for name in ["module.hlo", "module.opt.hlo", "dump.hlo"] {
                let path = entry.path().join(name);
                if path.exists() {
                    files.push(path);
                }
            }
        }
    }
    files.sort();
    files
}

fn mlir_text(module: &melior::ir::Module) -> String {
    module.as_operation().to_string()
}

#[test]
fn oracle_modules_import_verify_and_round_trip() {
    let files = corpus();
    assert!(!files.is_empty(), "the oracle corpus (the repository's test/oracle) is missing");
    let context = rxla_dialects::create_context();
    let mut failures = Vec::new();
    for path in &files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let result = (|| -> Result<(), String> {
            let first = rxla_translate::import_hlo_text(&context, &text, &name).map_err(|e| e.render(&name))?;
            if !first.as_operation().verify() {
                return Err("imported module does not verify".into());
            }
            let hlo = rxla_translate::export_hlo_text(&first).map_err(|e| e.to_string())?;
            let second = rxla_translate::import_hlo_text(&context, &hlo, "exported.hlo")
                .map_err(|e| format!("re-import of the export failed: {}\n{hlo}", e.render("exported.hlo")))?;
            if mlir_text(&first) != mlir_text(&second) {
                return Err(format!(
                    "HLO -> MLIR -> HLO -> MLIR is not a fixed point\n--- first\n{}\n--- second\n{}",
                    mlir_text(&first),
                    mlir_text(&second)
                ));
            }
            let hlo2 = rxla_translate::export_hlo_text(&second).map_err(|e| e.to_string())?;
            if hlo != hlo2 {
                return Err(format!("export is not a fixed point\n--- first\n{hlo}\n--- second\n{hlo2}"));
            }
            Ok(())
        })();
        if let Err(e) = result {
            failures.push(format!("{name}: {e}"));
        }
    }
    // One line per failure, then the first in full.
    let summary: Vec<&str> = failures.iter().map(|f| f.lines().next().unwrap_or("")).collect();
    assert!(
        failures.is_empty(),
        "{} of {} modules failed:\n{}\n\nfirst in full:\n{}",
        failures.len(),
        files.len(),
        summary.join("\n"),
        failures.first().map(String::as_str).unwrap_or("")
    );
    eprintln!("{} oracle modules imported, verified and round-tripped", files.len());
}
