//! Every registered pass is usable and documented: a unique name, a
//! one-line description, a page in docs/passes/, a row in docs/passes.md's
//! index, and a lit test that runs it. Every pass a platform pipeline names
//! is registered.

use rxla_passes::{pipeline, registry};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn lit_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            lit_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "mlir" || e == "hlo") {
            out.push(path);
        }
    }
}

/// True if a RUN line runs pass `name` (in --passes or --pass-pipeline).
fn runs_pass(text: &str, name: &str) -> bool {
    text.lines().filter(|l| l.contains("RUN:") && (l.contains("--passes") || l.contains("--pass-pipeline"))).any(|l| {
        l.match_indices(name).any(|(i, _)| {
            let before = l[..i].chars().last().unwrap_or(' ');
            let after = l[i + name.len()..].chars().next().unwrap_or(' ');
            let part = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
            !part(before) && !part(after)
        })
    })
}

#[test]
fn passes_are_named_described_documented_and_tested() {
    let mut lit = Vec::new();
    lit_files(&root().join("test"), &mut lit);
    let texts: Vec<String> = lit.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect();
    let index = std::fs::read_to_string(root().join("docs/passes.md")).unwrap();
    let mut problems = Vec::new();
    let mut names = std::collections::HashSet::new();
    for pass in registry() {
        if !names.insert(pass.name) {
            problems.push(format!("'{}' is registered twice", pass.name));
        }
        if pass.description.is_empty() || pass.description.contains('\n') {
            problems.push(format!("'{}' needs a one-line description", pass.name));
        }
        if !root().join(format!("docs/passes/{}.md", pass.name)).exists() {
            problems.push(format!("'{}' has no docs/passes/{}.md", pass.name, pass.name));
        }
        if !index.contains(&format!("| `{}` |", pass.name)) {
            problems.push(format!("'{}' is missing from the index in docs/passes.md", pass.name));
        }
        if !texts.iter().any(|t| runs_pass(t, pass.name)) {
            problems.push(format!("no lit test under test/ runs '{}'", pass.name));
        }
    }
    for row in index.lines().filter(|l| l.starts_with("| `")) {
        let name = row.trim_start_matches("| `").split('`').next().unwrap_or("");
        if !names.contains(name) {
            problems.push(format!("docs/passes.md lists '{name}', which is not registered"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn pipelines_name_registered_passes() {
    for platform in [pipeline::Platform::Cpu, pipeline::Platform::Gpu] {
        let missing: Vec<&str> = pipeline::pass_names(&pipeline::hlo_pipeline(platform))
            .into_iter()
            .filter(|p| rxla_passes::lookup(p).is_none())
            .collect();
        assert!(missing.is_empty(), "the {} pipeline names unregistered passes: {missing:?}", platform.name());
    }
}
