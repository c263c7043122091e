//! Every lowering pass is usable and documented: a unique name, a one-line
//! description, a row and a section in docs/lowering.md, and a lit test
//! that runs it; the lowering pipelines name only registered rxla passes
//! (the others are upstream MLIR passes).

use rxla_lowering::{pipeline, registry};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn lit_texts(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            lit_texts(&path, out);
        } else if path.extension().is_some_and(|e| e == "mlir" || e == "hlo") {
            out.push(std::fs::read_to_string(&path).unwrap());
        }
    }
}

/// True if a RUN line runs pass `name` in --passes.
fn runs_pass(text: &str, name: &str) -> bool {
    text.lines().filter(|l| l.contains("RUN:") && l.contains("--passes")).any(|l| {
        l.match_indices(name).any(|(i, _)| {
            let before = l[..i].chars().last().unwrap_or(' ');
            let after = l[i + name.len()..].chars().next().unwrap_or(' ');
            let part = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
            !part(before) && !part(after)
        })
    })
}

#[test]
fn lowering_passes_are_named_described_documented_and_tested() {
    let mut texts = Vec::new();
    lit_texts(&root().join("test"), &mut texts);
    let doc = std::fs::read_to_string(root().join("docs/lowering.md")).unwrap();
    let mut problems = Vec::new();
    let mut names = std::collections::HashSet::new();
    for pass in registry() {
        if !names.insert(pass.name) || rxla_passes::lookup(pass.name).is_some() {
            problems.push(format!("'{}' is registered twice", pass.name));
        }
        if pass.description.is_empty() || pass.description.contains('\n') {
            problems.push(format!("'{}' needs a one-line description", pass.name));
        }
        if !doc.contains(&format!("| `{}` |", pass.name)) {
            problems.push(format!("'{}' is missing from the table in docs/lowering.md", pass.name));
        }
        if !doc.contains(&format!("### `{}`", pass.name)) {
            problems.push(format!("'{}' has no section in docs/lowering.md", pass.name));
        }
        if !texts.iter().any(|t| runs_pass(t, pass.name)) {
            problems.push(format!("no lit test under test/ runs '{}'", pass.name));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn pipelines_name_registered_rxla_passes() {
    for platform in [pipeline::Platform::Cpu, pipeline::Platform::Gpu] {
        for step in pipeline::lowering_steps(platform) {
            let pipeline::Step::Pass { name, .. } = step else { continue };
            if name.starts_with("xla-") {
                assert!(
                    rxla_lowering::lookup(name).is_some() || rxla_passes::lookup(name).is_some(),
                    "the {} lowering names the unregistered pass '{name}'",
                    platform.name()
                );
            }
        }
    }
}
