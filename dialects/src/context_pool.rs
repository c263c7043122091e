//! Contexts lent to one compile at a time and taken back after it.
//!
//! A fresh context pays for loading its dialects (operation tables,
//! interfaces, the extensions `register_all_dialects` promises), for the
//! pass managers' pattern sets and for its thread pool again on every
//! compile: a third of the compile time of a small module. A context that
//! served a compile keeps all of that; it also keeps what the compile
//! uniqued (types, attributes, constants' data), so only small modules'
//! contexts come back, and each context serves a bounded number of
//! compiles.

use melior::Context;
use std::{ops::Deref, sync::Mutex};

/// Contexts no compile holds, with the number of compiles each served.
struct Idle(Vec<(Context, u32)>);

// SAFETY: an idle context is used by no thread; it is lent to exactly one
// holder at a time (under the mutex), and an MLIR context may move between
// threads as long as no two use it at once.
unsafe impl Send for Idle {}

static IDLE: Mutex<Idle> = Mutex::new(Idle(Vec::new()));

/// Idle contexts kept at most (one per concurrent compile is plenty).
const MAX_IDLE: usize = 8;

/// Compiles one context serves before it is dropped: what they uniqued
/// stays in it until then.
pub const MAX_USES: u32 = 64;

/// A context from the pool (or a new one, from [`crate::create_context`]).
/// Dropped, it is destroyed; [`PooledContext::give_back`] returns it to the
/// pool instead, for a holder that knows it is in a clean state.
pub struct PooledContext {
    context: Option<Context>,
    uses: u32,
}

impl PooledContext {
    /// An idle context, or a new one when none is idle.
    pub fn take() -> PooledContext {
        let idle = IDLE.lock().unwrap_or_else(|e| e.into_inner()).0.pop();
        match idle {
            Some((context, uses)) => PooledContext { context: Some(context), uses },
            None => PooledContext { context: Some(crate::create_context()), uses: 0 },
        }
    }

    /// Returns the context to the pool for another compile. The holder
    /// promises that nothing made in it is still alive (modules, pass
    /// managers, attached diagnostic handlers), that it is single-threaded,
    /// and that what it uniqued is small.
    pub fn give_back(mut self) {
        let Some(context) = self.context.take() else { return };
        let uses = self.uses + 1;
        if uses >= MAX_USES {
            return;
        }
        let mut pool = IDLE.lock().unwrap_or_else(|e| e.into_inner());
        if pool.0.len() < MAX_IDLE {
            pool.0.push((context, uses));
        }
    }

    /// How many compiles the context served before this one.
    pub fn uses(&self) -> u32 {
        self.uses
    }
}

impl Deref for PooledContext {
    type Target = Context;

    fn deref(&self) -> &Context {
        self.context.as_ref().expect("a pooled context is held until given back")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A context given back is lent again, with the dialects it loaded; a
    /// dropped one is not, and a context retires after `MAX_USES`.
    #[test]
    fn given_back_contexts_are_lent_again_and_retire() {
        // The only user of the pool in this test binary.
        let first = PooledContext::take();
        first.get_or_load_dialect("scf");
        let raw = first.to_raw().ptr;
        first.give_back();
        let second = PooledContext::take();
        assert_eq!(second.to_raw().ptr, raw, "the idle context is lent again");
        assert_eq!(second.uses(), 1);
        assert!(second.is_registered_operation("scf.for"));
        let third = PooledContext::take();
        assert_ne!(third.to_raw().ptr, raw, "a held context is not lent twice");
        drop(second);
        let fourth = PooledContext::take();
        assert_ne!(fourth.to_raw().ptr, raw, "a dropped context is not lent again");
        let mut held = fourth;
        for _ in 0..MAX_USES {
            held.give_back();
            held = PooledContext::take();
        }
        assert_eq!(held.uses(), 0, "a context retires after MAX_USES compiles");
    }
}
