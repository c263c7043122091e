//! An in-process compilation cache: compiled executables kept by what
//! they were compiled from, so compiling the same module with the same
//! options again (what a JAX-style `jit` does for every call with the same
//! shapes) costs a lookup, like the executable cache of a JAX/PJRT
//! client. Nothing is cached unless a caller makes a [`CompileCache`];
//! `compile_hlo_text` itself always compiles.
//!
//! The key is the whole HLO text, the file name it is reported under and
//! the compile options, compared for equality, not through a hash, so two
//! different modules can never share an entry. The host target (CPU and
//! features the code is compiled for) is the same for every compile of a
//! process, so it is not part of the key.

use super::{compile_hlo_text, Executable};
use crate::{driver::Options, thunk_emitter::CompileError};
use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    text: String,
    file: String,
    options: String,
}

/// Executables by module and options (see the module docs).
#[derive(Default)]
pub struct CompileCache {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    entries: HashMap<Key, Arc<Executable>>,
    stats: CacheStats,
}

/// Lookups of a [`CompileCache`] so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Lookups answered from the cache.
    pub hits: usize,
    /// Lookups that compiled (failed compiles included: they are not
    /// cached, the next lookup compiles again).
    pub misses: usize,
}

impl CompileCache {
    pub fn new() -> CompileCache {
        CompileCache::default()
    }

    /// The executable for `text` compiled with `options`: the cached one,
    /// or a fresh compile that is then cached. Compiles run outside the
    /// lock, so two threads asking for the same new module at once may
    /// both compile it; the first result is kept.
    pub fn compile_hlo_text(&self, text: &str, file: &str, options: &Options) -> Result<Arc<Executable>, CompileError> {
        let key = Key { text: text.to_string(), file: file.to_string(), options: format!("{options:?}") };
        {
            let mut inner = self.lock();
            if let Some(exe) = inner.entries.get(&key).cloned() {
                inner.stats.hits += 1;
                return Ok(exe);
            }
            inner.stats.misses += 1;
        }
        let exe = Arc::new(compile_hlo_text(text, file, options)?);
        Ok(self.lock().entries.entry(key).or_insert(exe).clone())
    }

    /// How many executables are cached.
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Hits and misses so far.
    pub fn stats(&self) -> CacheStats {
        self.lock().stats
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves the map consistent.
        self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Drops every cached executable (executables still held by callers
    /// stay valid).
    pub fn clear(&self) {
        self.lock().entries.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::test_support::{f32s, run, MODULE};

    #[test]
    fn same_module_and_options_hit() {
        let cache = CompileCache::new();
        let a = cache.compile_hlo_text(MODULE, "m.hlo", &Options::default()).unwrap();
        let b = cache.compile_hlo_text(MODULE, "m.hlo", &Options::default()).unwrap();
        assert!(Arc::ptr_eq(&a, &b), "the second compile is the cached executable");
        assert_eq!(cache.stats(), CacheStats { hits: 1, misses: 1 });
        assert_eq!(run(&b), f32s(&[2.0, 4.0, 6.0, 8.0]));
    }

    #[test]
    fn other_module_or_options_miss() {
        let cache = CompileCache::new();
        let a = cache.compile_hlo_text(MODULE, "m.hlo", &Options::default()).unwrap();
        let other = MODULE.replace("add(p, p)", "multiply(p, p)");
        let b = cache.compile_hlo_text(&other, "m.hlo", &Options::default()).unwrap();
        let options = Options { verify_each: true, ..Options::default() };
        let c = cache.compile_hlo_text(MODULE, "m.hlo", &options).unwrap();
        assert!(!Arc::ptr_eq(&a, &b) && !Arc::ptr_eq(&a, &c));
        assert_eq!(cache.len(), 3);
        assert_eq!(cache.stats(), CacheStats { hits: 0, misses: 3 });
        assert_eq!(run(&b), f32s(&[1.0, 4.0, 9.0, 16.0]));
    }

    #[test]
    fn failed_compiles_are_not_cached() {
        let cache = CompileCache::new();
        let bad = "HloModule m\nENTRY e {\n  ROOT r = f32[4] bogus()\n}\n";
        assert!(cache.compile_hlo_text(bad, "bad.hlo", &Options::default()).is_err());
        assert!(cache.compile_hlo_text(bad, "bad.hlo", &Options::default()).is_err());
        assert!(cache.is_empty());
        assert_eq!(cache.stats(), CacheStats { hits: 0, misses: 2 });
    }
}
