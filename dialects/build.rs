//! Builds the C++ half of rxla's dialects (registration, verifiers, C API)
//! with CMake against the system MLIR, and links it statically. The CMake
//! project is this crate's own `CMakeLists.txt` (the same one
//! `cmake -S cmake` wraps to install the C++ package; see docs/cxx-api.md).

use std::{
    env,
    path::{Path, PathBuf},
    process::Command,
};

const LLVM_PREFIX_VAR: &str = "MLIR_SYS_220_PREFIX";
const LLVM_CONFIG: &str = "llvm-config-22";
const DEFAULT_LLVM_PREFIX: &str = "/usr/lib/llvm-22";

/// The LLVM/MLIR 22 install prefix and where it came from: $MLIR_SYS_220_PREFIX,
/// else `llvm-config-22 --prefix`, else /usr/lib/llvm-22.
fn llvm_prefix() -> (PathBuf, String) {
    if let Ok(prefix) = env::var(LLVM_PREFIX_VAR) {
        return (PathBuf::from(prefix), format!("from ${LLVM_PREFIX_VAR}"));
    }
    if let Ok(output) = Command::new(LLVM_CONFIG).arg("--prefix").output() {
        let prefix = String::from_utf8_lossy(&output.stdout).trim().to_string();
        if output.status.success() && !prefix.is_empty() {
            return (PathBuf::from(prefix), format!("from `{LLVM_CONFIG} --prefix`"));
        }
    }
    (
        PathBuf::from(DEFAULT_LLVM_PREFIX),
        format!("the default; ${LLVM_PREFIX_VAR} is unset and `{LLVM_CONFIG} --prefix` failed"),
    )
}

fn main() {
    println!("cargo:rerun-if-env-changed={LLVM_PREFIX_VAR}");
    let (prefix, origin) = llvm_prefix();
    let mlir_dir = prefix.join("lib/cmake/mlir");
    if !mlir_dir.join("MLIRConfig.cmake").exists() {
        panic!(
            "MLIR 22 not found: no MLIRConfig.cmake in {} (LLVM prefix {}, {origin}). \
             The prefix is taken from ${LLVM_PREFIX_VAR}, else `{LLVM_CONFIG} --prefix`, \
             else {DEFAULT_LLVM_PREFIX}; run scripts/setup.sh \
             (Debian packages llvm-22-dev libmlir-22-dev mlir-22-tools) or set ${LLVM_PREFIX_VAR}",
            mlir_dir.display(),
            prefix.display()
        );
    }
    if Command::new("cmake").arg("--version").output().is_err() {
        panic!("cmake not found; run scripts/setup.sh");
    }

    // The crate's own CMake project (CMakeLists.txt next to this file).
    let crate_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    discard_stale_cmake_cache(&PathBuf::from(env::var("OUT_DIR").unwrap()).join("build"), &crate_dir);
    let mut config = cmake::Config::new(&crate_dir);
    config
        .define("MLIR_DIR", &mlir_dir)
        .define("LLVM_DIR", prefix.join("lib/cmake/llvm"))
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
        ("RXLA_HLO_TD_DIR", "hlo/include"),
        ("RXLA_XLA_TD_DIR", "xla/include"),
        ("RXLA_XLA_GPU_TD_DIR", "xla_gpu/include"),
    ] {
        println!("cargo:rustc-env={var}={}", canonical(&crate_dir.join(dir)).display());
    }
    // The dialect sources (ODS, C++, their CMakeLists.txt) and the project's
    // CMake files.
    for path in ["hlo", "xla", "xla_gpu", "CMakeLists.txt", "cmake"] {
        println!("cargo:rerun-if-changed={}", crate_dir.join(path).display());
    }
}

/// CMake refuses a build tree configured from another source directory (as
/// build trees from before the project moved from ../cmake into this crate
/// are); start such a tree afresh.
fn discard_stale_cmake_cache(build: &Path, source: &Path) {
    let Ok(cache) = std::fs::read_to_string(build.join("CMakeCache.txt")) else { return };
    let home = cache.lines().find_map(|line| line.strip_prefix("CMAKE_HOME_DIRECTORY:INTERNAL="));
    let same = home.is_some_and(|home| Path::new(home).canonicalize().ok() == source.canonicalize().ok());
    if !same {
        std::fs::remove_dir_all(build).unwrap_or_else(|e| panic!("removing {}: {e}", build.display()));
    }
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
