//! Sets `RXLA_COMPILER_FINGERPRINT`: a hash of the sources of everything
//! that decides what the CPU compiler generates (dialects, IR, passes,
//! import, emitters, lowering, code generation, the runtime and its
//! library) and of `Cargo.lock`. The on-disk compilation cache
//! (`cpu::disk_cache`) keys its entries with it, so an rxla built from
//! other sources never loads the machine code of an older one, even when
//! the version number is the same (as it is between two commits).

use std::{
    fs,
    path::{Path, PathBuf},
};

/// Relative to this crate; the ones missing (a packaged crate) are skipped.
const INPUTS: &[&str] = &[
    "../dialects",
    "../ir/src",
    "../passes/src",
    "../translate/src",
    "../translate/hlo-text/src",
    "../interpreter/src",
    "../lowering/indexing/src",
    "../lowering/emitters/src",
    "../lowering/transforms/src",
    "../lowering/codegen/src",
    "src",
    "library/src",
    "../Cargo.lock",
];

/// What is compiled or generated from: sources, TableGen, CMake files.
const EXTENSIONS: &[&str] = &["rs", "td", "cpp", "h", "txt", "cmake", "toml", "lock"];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for input in INPUTS {
        let path = manifest.join(input);
        if path.exists() {
            // A directory is rescanned by cargo for any change within it.
            println!("cargo:rerun-if-changed={}", path.display());
            collect(&path, &mut files);
        }
    }
    files.sort();
    // FNV-1a, 64 bits: an identity of the sources, not a defence against
    // crafted collisions (the cache directory is the user's own).
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes.iter().chain(&[0u8]) {
            hash ^= b as u64;
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for file in &files {
        let relative = file.strip_prefix(&manifest).unwrap_or(file);
        feed(relative.to_string_lossy().as_bytes());
        feed(&fs::read(file).unwrap_or_default());
    }
    println!("cargo:rustc-env=RXLA_COMPILER_FINGERPRINT={}-{hash:016x}", std::env::var("CARGO_PKG_VERSION").unwrap());
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_file() {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if EXTENSIONS.contains(&ext) {
            out.push(path.to_path_buf());
        }
        return;
    }
    let Ok(entries) = fs::read_dir(path) else { return };
    for entry in entries.flatten() {
        let p = entry.path();
        // Build outputs are not sources.
        if p.file_name().is_some_and(|n| n == "target" || n == "build") {
            continue;
        }
        collect(&p, out);
    }
}
