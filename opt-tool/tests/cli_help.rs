//! The `--help` texts of hlo-opt and hlo-run against their snapshots in
//! tests/help/: a flag renamed, dropped or redescribed shows up here
//! first (scripts and RUN lines depend on the spellings).
//!
//! `RXLA_UPDATE_SNAPSHOTS=1 cargo test -p rxla-opt --test cli_help`
//! rewrites the snapshots after an intended change.

use std::{path::PathBuf, process::Command};

fn check(binary: &str, name: &str) {
    let out = Command::new(binary).arg("--help").env("COLUMNS", "100").output().expect("the tool runs");
    assert!(out.status.success(), "{name} --help failed: {}", String::from_utf8_lossy(&out.stderr));
    let help = String::from_utf8(out.stdout).expect("the help is UTF-8");
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/help").join(format!("{name}.txt"));
    if std::env::var_os("RXLA_UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &help).expect("the snapshot is writable");
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    if help != want {
        let first = help.lines().zip(want.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "{name} --help differs from {} (first at line {}):\n  now:      {:?}\n  snapshot: {:?}\n\
             rerun with RXLA_UPDATE_SNAPSHOTS=1 if the change is intended",
            path.display(),
            first + 1,
            help.lines().nth(first).unwrap_or(""),
            want.lines().nth(first).unwrap_or("")
        );
    }
}

#[test]
fn hlo_opt_help() {
    check(env!("CARGO_BIN_EXE_hlo-opt"), "hlo-opt");
}

#[test]
fn hlo_run_help() {
    check(env!("CARGO_BIN_EXE_hlo-run"), "hlo-run");
}
