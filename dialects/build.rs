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

    println!("cargo:rustc-link-search=native={}", build.join("hlo").display());
    println!("cargo:rustc-link-lib=static=RxlaHloCAPI");
    println!("cargo:rustc-link-lib=static=RxlaHlo");
    // The generated reference docs and headers, for docs/ and downstream crates.
    println!("cargo:gen_dir={}", build.join("hlo/include").display());
    println!(
        "cargo:rustc-env=RXLA_HLO_TD_DIR={}",
        root.join("dialects/hlo/include").canonicalize().unwrap().display()
    );
    for dir in ["dialects/hlo", "cmake"] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
    }
}
