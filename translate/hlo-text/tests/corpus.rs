//! Every real module: the oracle cases (`module.hlo`, what JAX hands XLA,
//! and `module.opt.hlo`, what XLA prints after optimising) and the bench
//! modules parse, round-trip through the printer (same tree up to
//! positions, printing a fixed point), and every attribute value reads
//! with the reader for its keyword. XLA's own printouts come back byte for
//! byte.

use std::path::{Path, PathBuf};

use rxla_hlo_text::{attrs, parse_module, print_module};

fn oracle(dir: &str) -> Option<Vec<PathBuf>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test/oracle").join(dir);
    let Ok(entries) = std::fs::read_dir(&root) else {
        panic!("the oracle corpus is missing: {} (the repository's test/oracle)", root.display());
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .flat_map(|case| ["module.hlo", "module.opt.hlo"].map(|f| case.join(f)))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    Some(files)
}

/// Parses, round-trips and checks one file; returns the unknown keywords.
fn check_file(path: &Path) -> Vec<String> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).unwrap();
    let m = parse_module(&text).unwrap_or_else(|e| panic!("{}", e.render(&name)));
    let printed = print_module(&m);
    let again =
        parse_module(&printed).unwrap_or_else(|e| panic!("{name}: printed text does not parse: {e}\n{printed}"));
    assert!(again.without_positions() == m.without_positions(), "{name}: the round trip changed the tree");
    assert_eq!(print_module(&again), printed, "{name}: printing is not a fixed point");
    if path.ends_with("module.opt.hlo") {
        assert_eq!(printed, text, "{name}: XLA's printout does not come back byte for byte");
    }
    attrs::check_module(&m).unwrap_or_else(|e| panic!("{}", e.render(&name))).unknown
}

fn check_all(dir: &str) {
    let Some(files) = oracle(dir) else { return };
    assert!(!files.is_empty());
    let mut unknown: Vec<String> = files.iter().flat_map(|f| check_file(f)).collect();
    unknown.sort();
    unknown.dedup();
    assert!(unknown.is_empty(), "keywords without a reader: {unknown:?}");
    println!("{dir}: {} files parsed, round-tripped and attribute-checked", files.len());
}

#[test]
fn oracle_cases() {
    check_all("cases");
}

#[test]
fn oracle_bench_modules() {
    check_all("bench");
}

#[test]
fn kitchen_sink() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kitchen_sink.hlo");
    assert!(check_file(&path).is_empty());
}
