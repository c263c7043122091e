//! Runs the lit/FileCheck suite in tests/lit with LLVM's `lit` (from
//! `$LIT`, else LLVM 22's, else `lit` on PATH) against the `example-opt`
//! binary cargo just built.

use std::{path::Path, process::Command};

fn main() {
    let lit = std::env::var("LIT").unwrap_or_else(|_| {
        let llvm = "/usr/lib/llvm-22/bin/lit";
        if Path::new(llvm).exists() { llvm.into() } else { "lit".into() }
    });
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lit");
    let exec_root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("example-opt-lit");
    let mut command = Command::new(&lit);
    command
        .arg("-sv")
        .arg(&tests)
        .arg(format!("--param=example_opt={}", env!("CARGO_BIN_EXE_example-opt")))
        .arg(format!("--param=exec_root={}", exec_root.display()));
    if let Ok(dir) = std::env::var("LLVM_TOOLS_DIR") {
        command.arg(format!("--param=llvm_tools_dir={dir}"));
    }
    let status = command.status().unwrap_or_else(|e| panic!("cannot run {lit}: {e} (set LIT=path/to/lit)"));
    std::process::exit(status.code().unwrap_or(1));
}
