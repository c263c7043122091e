//! An on-disk compilation cache (JAX's persistent compilation cache): a
//! compiled module is saved in a directory, under a key of what it was
//! compiled from, and a later compile of the same module with the same
//! options, in this process or another, loads it instead of compiling.
//! Nothing is cached unless a caller opens a [`DiskCache`] (`hlo-run
//! --compilation-cache-dir`, `rxla.compile(..., cache_dir=...)`).
//!
//! An entry is a saved executable ([`super::artifact`]) in
//! `<dir>/<key>.rxla-exe`. The key is SHA-256 of
//! - the compiler's identity: rxla's version and a fingerprint of the
//!   sources it was built from (`build.rs`), so that another build never
//!   loads this one's code;
//! - the host CPU and the features the code is compiled for;
//! - the compile options;
//! - the module's text, and whether it is HLO text or MLIR.
//!
//! The file name a module is reported under is not part of the key: the
//! same program from two files is one entry.
//!
//! A hit skips the HLO pipeline, the lowering and LLVM; it re-runs the
//! thunk emitter on the saved module and links the saved objects (see
//! [`super::artifact`]). An entry that does not load (damaged, or saved by
//! a build whose emitters differ) is compiled again and replaced. Entries
//! are written to a temporary file and renamed into place, so processes
//! sharing the directory never read a partial entry. The directory is
//! never pruned: remove it (or its files) to reclaim the space.
//!
//! Compiles that dump their stages (`Options::dump_dir`) bypass the cache,
//! since a hit would write no dumps.

use super::{compile_hlo_text, load_executable, Executable};
use crate::{
    driver::{host, Options},
    thunk_emitter::CompileError,
};
use sha2::{Digest, Sha256};
use std::{
    path::{Path, PathBuf},
    sync::Mutex,
    time::{SystemTime, UNIX_EPOCH},
};

/// What the module text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// XLA's HLO text.
    HloText,
    /// The `hlo` dialect in MLIR's text form.
    Mlir,
}

/// Lookups of a [`DiskCache`] so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DiskCacheStats {
    /// Compiles answered by loading an entry.
    pub hits: usize,
    /// Compiles with no entry: compiled, and the entry written.
    pub misses: usize,
    /// Entries that did not load, compiled again and replaced.
    pub replaced: usize,
    /// Compiles that did not use the cache (`Options::dump_dir`).
    pub bypassed: usize,
    /// Entries that could not be written (the executable is still
    /// returned; the warning is in its `warnings`).
    pub write_errors: usize,
}

/// A directory of compiled executables (see the module docs).
pub struct DiskCache {
    dir: PathBuf,
    stats: Mutex<DiskCacheStats>,
}

impl DiskCache {
    /// Opens (creating it if needed) the cache in `dir`.
    pub fn open(dir: impl Into<PathBuf>) -> Result<DiskCache, CompileError> {
        let dir = dir.into();
        std::fs::create_dir_all(&dir).map_err(|e| {
            CompileError(format!("compilation cache: cannot create directory '{}': {e}", dir.display()))
        })?;
        Ok(DiskCache { dir, stats: Mutex::new(DiskCacheStats::default()) })
    }

    /// Compiles HLO text as [`compile_hlo_text`] does, through the cache.
    pub fn compile_hlo_text(&self, text: &str, file: &str, options: &Options) -> Result<Executable, CompileError> {
        self.compile(text, SourceKind::HloText, file, options, |o| compile_hlo_text(text, file, o))
    }

    /// The entry a module compiled with `options` is kept in (whether or
    /// not it exists yet).
    pub fn entry_path(&self, text: &str, kind: SourceKind, options: &Options) -> Result<PathBuf, CompileError> {
        Ok(self.dir.join(format!("{}.rxla-exe", key(text, kind, options)?)))
    }

    /// Hits, misses and the rest so far.
    pub fn stats(&self) -> DiskCacheStats {
        *self.lock()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, DiskCacheStats> {
        self.stats.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Through the cache, with the caller's own compile of `text` (MLIR
    /// text, or callers that parse it themselves): `compile` runs on a
    /// miss, with `options` plus `save_artifact`.
    pub fn compile(
        &self,
        text: &str,
        kind: SourceKind,
        file: &str,
        options: &Options,
        compile: impl FnOnce(&Options) -> Result<Executable, CompileError>,
    ) -> Result<Executable, CompileError> {
        if options.dump_dir.is_some() {
            self.lock().bypassed += 1;
            return compile(options);
        }
        let path = self.entry_path(text, kind, options)?;
        let mut replacing = false;
        if let Ok(bytes) = std::fs::read(&path) {
            match load_executable(&bytes, &path.display().to_string()) {
                Ok(mut exe) => {
                    self.lock().hits += 1;
                    if options.save_artifact {
                        exe.artifact = Some(bytes);
                    }
                    return Ok(exe);
                }
                Err(_) => replacing = true,
            }
        }
        // Counted before compiling: a compile that fails is a miss too.
        match replacing {
            true => self.lock().replaced += 1,
            false => self.lock().misses += 1,
        }
        let mut exe = compile(&Options { save_artifact: true, ..options.clone() })?;
        let bytes = exe.artifact.take().expect("compiled with save_artifact");
        if let Err(e) = write_atomically(&path, &bytes) {
            self.lock().write_errors += 1;
            exe.warnings.push(format!("{file}: warning: compilation cache: cannot write '{}': {e}", path.display()));
        }
        if options.save_artifact {
            exe.artifact = Some(bytes);
        }
        Ok(exe)
    }
}

/// The cache key (hex SHA-256; see the module docs).
fn key(text: &str, kind: SourceKind, options: &Options) -> Result<String, CompileError> {
    // Every option is part of the key except the two that do not change
    // the executable; new options join the key by default.
    let options = Options { dump_dir: None, save_artifact: false, ..options.clone() };
    let mut hash = Sha256::new();
    for part in
        [env!("RXLA_COMPILER_FINGERPRINT"), &host()?.identity(), &format!("{options:?}"), &format!("{kind:?}"), text]
    {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part.as_bytes());
    }
    Ok(hash.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Writes `bytes` to a temporary file beside `path`, then renames it
/// there: a reader sees the old entry, no entry, or the whole new one.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("entry");
    let temporary = path.with_file_name(format!(".{name}.{}.{nanos}.tmp", std::process::id()));
    let result = std::fs::write(&temporary, bytes).and_then(|_| std::fs::rename(&temporary, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::{
        artifact,
        test_support::{f32s, run, MODULE},
    };

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("rxla-disk-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_second_cache_on_the_same_directory_loads_the_entry() {
        let dir = scratch("hit");
        let first = DiskCache::open(&dir).unwrap();
        let exe = first.compile_hlo_text(MODULE, "m.hlo", &Options::default()).unwrap();
        assert_eq!(run(&exe), f32s(&[2.0, 4.0, 6.0, 8.0]));
        assert_eq!(first.stats(), DiskCacheStats { misses: 1, ..Default::default() });
        let path = first.entry_path(MODULE, SourceKind::HloText, &Options::default()).unwrap();
        let entry = std::fs::read(&path).unwrap();
        assert!(artifact::is_executable_artifact(&entry), "{} is a saved executable", path.display());

        // Another file name, another cache object (as another process would
        // have): the same entry.
        let second = DiskCache::open(&dir).unwrap();
        let exe = second.compile_hlo_text(MODULE, "other.hlo", &Options::default()).unwrap();
        assert_eq!(second.stats(), DiskCacheStats { hits: 1, ..Default::default() });
        assert!(exe.compile_times.hlo_pipeline.is_zero(), "a hit runs no HLO pipeline");
        assert_eq!(run(&exe), f32s(&[2.0, 4.0, 6.0, 8.0]));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn other_modules_options_and_source_kinds_are_other_entries() {
        let dir = scratch("keys");
        let cache = DiskCache::open(&dir).unwrap();
        let default = Options::default();
        let disabled = Options { disabled_passes: vec!["algsimp".into()], ..Options::default() };
        let other = MODULE.replace("add(p, p)", "multiply(p, p)");
        let paths = [
            cache.entry_path(MODULE, SourceKind::HloText, &default).unwrap(),
            cache.entry_path(&other, SourceKind::HloText, &default).unwrap(),
            cache.entry_path(MODULE, SourceKind::HloText, &disabled).unwrap(),
            cache.entry_path(MODULE, SourceKind::Mlir, &default).unwrap(),
        ];
        for (i, a) in paths.iter().enumerate() {
            assert!(paths[i + 1..].iter().all(|b| a != b), "entry {i} is shared");
        }
        // Options that do not change the executable share the entry.
        let saving = Options { save_artifact: true, ..Options::default() };
        assert_eq!(cache.entry_path(MODULE, SourceKind::HloText, &saving).unwrap(), paths[0]);

        let exe = cache.compile_hlo_text(&other, "m.hlo", &default).unwrap();
        assert_eq!(run(&exe), f32s(&[1.0, 4.0, 9.0, 16.0]));
        cache.compile_hlo_text(MODULE, "m.hlo", &disabled).unwrap();
        let exe = cache.compile_hlo_text(MODULE, "m.hlo", &saving).unwrap();
        assert!(exe.artifact().is_some(), "save_artifact still gets the saved form");
        let exe = cache.compile_hlo_text(MODULE, "m.hlo", &saving).unwrap();
        assert!(exe.artifact().is_some(), "and from a hit too");
        assert_eq!(cache.stats(), DiskCacheStats { misses: 3, hits: 1, ..Default::default() });
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_damaged_entry_is_compiled_again_and_replaced() {
        let dir = scratch("damaged");
        let cache = DiskCache::open(&dir).unwrap();
        let path = cache.entry_path(MODULE, SourceKind::HloText, &Options::default()).unwrap();
        std::fs::write(&path, b"RXLA-CPU-EXECUTABLE\0 cut short").unwrap();
        let exe = cache.compile_hlo_text(MODULE, "m.hlo", &Options::default()).unwrap();
        assert_eq!(run(&exe), f32s(&[2.0, 4.0, 6.0, 8.0]));
        assert_eq!(cache.stats(), DiskCacheStats { replaced: 1, ..Default::default() });
        cache.compile_hlo_text(MODULE, "m.hlo", &Options::default()).unwrap();
        assert_eq!(cache.stats().hits, 1, "the replacement loads");
        let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(leftovers.len(), 1, "no temporary files are left: {leftovers:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn failed_compiles_write_nothing_and_dumps_bypass_the_cache() {
        let dir = scratch("bypass");
        let cache = DiskCache::open(&dir).unwrap();
        let bad = "HloModule m\nENTRY e {\n  ROOT r = f32[4] bogus()\n}\n";
        let e = cache.compile_hlo_text(bad, "bad.hlo", &Options::default()).err().expect("fails");
        assert!(e.to_string().contains("bad.hlo"), "{e}");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        let dumping = Options { dump_dir: Some(dir.join("dump")), ..Options::default() };
        cache.compile_hlo_text(MODULE, "m.hlo", &dumping).unwrap();
        assert!(dir.join("dump").join("kernels.ll").exists(), "the dump is written");
        assert_eq!(cache.stats(), DiskCacheStats { misses: 1, bypassed: 1, ..Default::default() });
        let entries = std::fs::read_dir(&dir).unwrap().flatten().filter(|e| e.path().is_file()).count();
        assert_eq!(entries, 0, "a bypassed compile writes no entry");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unusable_directory_is_a_located_error() {
        let dir = scratch("file");
        std::fs::write(&dir, b"a file, not a directory").unwrap();
        let e = DiskCache::open(dir.join("sub")).err().expect("cannot create");
        assert!(e.to_string().contains("cannot create directory"), "{e}");
        let _ = std::fs::remove_file(&dir);
    }
}
