//! `hlo-opt` and `hlo-run` allocate through mimalloc, process-wide
//! (docs/hlo-run.md, "Memory allocator"): with `MIMALLOC_VERBOSE=1`
//! mimalloc announces itself when the process starts, which glibc's
//! malloc would not.

use std::process::Command;

fn announces_mimalloc(binary: &str) {
    let out = Command::new(binary).arg("--version").env("MIMALLOC_VERBOSE", "1").output().expect("runs");
    assert!(out.status.success(), "{binary} --version failed");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("mimalloc: process init"), "{binary} does not run on mimalloc:\n{stderr}");
}

#[test]
fn hlo_opt_runs_on_mimalloc() {
    announces_mimalloc(env!("CARGO_BIN_EXE_hlo-opt"));
}

#[test]
fn hlo_run_runs_on_mimalloc() {
    announces_mimalloc(env!("CARGO_BIN_EXE_hlo-run"));
}
