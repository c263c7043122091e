//! Builds the C++ half of rxla's dialects (registration, verifiers, C API)
//! with CMake against the system MLIR, and links it statically.

use std::{env, path::PathBuf, process::Command};

const LLVM_PREFIX_VAR: &str = "MLIR_SYS_220_PREFIX";

fn main() {
    let prefix = env::var(LLVM_PREFIX_VAR).unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    let mlir_dir = PathBuf::from(&prefix).join("lib/cmake/mlir");
    if !mlir_dir.join("MLIRConfig.cmake").exists() {
        panic!(
            "MLIR 22 not found at {} ({LLVM_PREFIX_VAR}); run scripts/setup.sh \
             (Debian packages llvm-22-dev libmlir-22-dev mlir-22-tools)",
            mlir_dir.display()
        );
    }
    if Command::new("cmake").arg("--version").output().is_err() {
        panic!("cmake not found; run scripts/setup.sh");
    }

    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap()).join("..");
    let mut config = cmake::Config::new(root.join("cmake"));
    config
        .define("MLIR_DIR", &mlir_dir)
        .define("LLVM_DIR", PathBuf::from(&prefix).join("lib/cmake/llvm"))
        // Release C++ even in debug Rust builds: verifiers are hot in tests.
        .profile("Release")
        .build_target("all");
    if Command::new("ninja").arg("--version").output().is_ok() {
        config.generator("Ninja");
    }
    let dst = config.build();
    let build = dst.join("build");

    // One static library per dialect plus its C API (the handle Rust
    // registers); the C API libraries go first, they reference the dialects.
    for (dir, lib) in [("hlo", "RxlaHlo"), ("xla", "RxlaXla"), ("xla_gpu", "RxlaXlaGpu")] {
        println!("cargo:rustc-link-search=native={}", build.join(dir).display());
        println!("cargo:rustc-link-lib=static={lib}CAPI");
        println!("cargo:rustc-link-lib=static={lib}");
    }
    // The generated reference docs and headers, for docs/ and downstream crates.
    println!("cargo:gen_dir={}", build.join("hlo/include").display());
    // Include directories of the ODS, for melior's dialect! macro.
    for (var, dir) in [
        ("RXLA_HLO_TD_DIR", "dialects/hlo/include"),
        ("RXLA_XLA_TD_DIR", "dialects/xla/include"),
        ("RXLA_XLA_GPU_TD_DIR", "dialects/xla_gpu/include"),
    ] {
        println!("cargo:rustc-env={var}={}", root.join(dir).canonicalize().unwrap().display());
    }
    for dir in ["dialects/hlo", "dialects/xla", "dialects/xla_gpu", "cmake"] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
    }
}
