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
use std::{
    any::{Any, TypeId},
    collections::HashMap,
    ops::Deref,
    sync::Mutex,
};

/// Contexts no compile holds, with the number of compiles each served.
struct Idle(Vec<(Context, u32)>);

// SAFETY: an idle context is used by no thread; it is lent to exactly one
// holder at a time (under the mutex), and an MLIR context may move between
// threads as long as no two use it at once.
unsafe impl Send for Idle {}

static IDLE: Mutex<Idle> = Mutex::new(Idle(Vec::new()));

/// What pooled contexts keep for their next compiles ([`with_attached`]),
/// by the context's address; an entry lives exactly as long as its
/// context is in the pool's hands (lent or idle).
struct Attached(HashMap<usize, Vec<Attachment>>);

/// One kept value, with its type.
type Attachment = (TypeId, Box<dyn Any>);

// SAFETY: an attachment is only used by the thread that holds its
// context (it is taken out of the map while in use), and the map itself
// is guarded by the mutex.
unsafe impl Send for Attached {}

static ATTACHED: Mutex<Option<Attached>> = Mutex::new(None);

fn key(context: &Context) -> usize {
    context.to_raw().ptr as usize
}

/// Starts keeping attachments for a context the pool lends.
fn track(context: &Context) {
    let mut attached = ATTACHED.lock().unwrap_or_else(|e| e.into_inner());
    attached.get_or_insert_with(|| Attached(HashMap::new())).0.entry(key(context)).or_default();
}

/// Drops a context's attachments, before the context itself.
fn untrack(context: &Context) {
    let gone = ATTACHED.lock().unwrap_or_else(|e| e.into_inner()).as_mut().and_then(|a| a.0.remove(&key(context)));
    drop(gone);
}

/// Runs `f` on the value of type `T` kept with `context`, made by `make`
/// on first use. For a pooled context the value stays with it for its
/// later compiles (a pass manager built in it, say) and is dropped before
/// the context is; for any other context it is made for this call and
/// dropped after it. `T` may hold references into the context (with
/// their lifetime extended by the caller): it never outlives it. When `f`
/// fails (`keep` says so of its result), the value is dropped rather
/// than kept.
pub fn with_attached<T: 'static, R>(
    context: &Context,
    make: impl FnOnce() -> T,
    f: impl FnOnce(&mut T) -> R,
    keep: impl FnOnce(&R) -> bool,
) -> R {
    let id = TypeId::of::<T>();
    let (pooled, taken) = {
        let mut attached = ATTACHED.lock().unwrap_or_else(|e| e.into_inner());
        match attached.as_mut().and_then(|a| a.0.get_mut(&key(context))) {
            None => (false, None),
            Some(values) => {
                let at = values.iter().position(|(t, _)| *t == id);
                (true, at.map(|i| values.swap_remove(i).1))
            }
        }
    };
    let mut value: Box<dyn Any> = match taken {
        Some(value) => value,
        None => Box::new(make()),
    };
    let result = f(value.downcast_mut::<T>().expect("attachments are stored by their type"));
    if pooled && keep(&result) {
        let mut attached = ATTACHED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(values) = attached.as_mut().and_then(|a| a.0.get_mut(&key(context))) {
            values.push((id, value));
            return result;
        }
    }
    drop(value);
    result
}

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
            None => {
                let context = crate::create_context();
                track(&context);
                PooledContext { context: Some(context), uses: 0 }
            }
        }
    }

    /// Returns the context to the pool for another compile. The holder
    /// promises that nothing made in it is still alive outside its
    /// attachments ([`with_attached`]): no module, no attached diagnostic
    /// handler; that it is single-threaded; and that what it uniqued is
    /// small.
    pub fn give_back(mut self) {
        let Some(context) = self.context.take() else { return };
        let uses = self.uses + 1;
        if uses < MAX_USES {
            let mut pool = IDLE.lock().unwrap_or_else(|e| e.into_inner());
            if pool.0.len() < MAX_IDLE {
                pool.0.push((context, uses));
                return;
            }
        }
        untrack(&context);
    }

    /// How many compiles the context served before this one.
    pub fn uses(&self) -> u32 {
        self.uses
    }
}

impl Drop for PooledContext {
    fn drop(&mut self) {
        if let Some(context) = self.context.take() {
            untrack(&context);
        }
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
    /// The tests take turns with the pool.
    static SERIAL: Mutex<()> = Mutex::new(());

    #[test]
    fn given_back_contexts_are_lent_again_and_retire() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
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

    /// An attachment is made once per pooled context and reused while the
    /// context is; a failed use drops it; a plain context keeps nothing.
    #[test]
    fn attachments_stay_with_pooled_contexts() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        struct Count(u32);
        let made = std::cell::Cell::new(0);
        let bump = |context: &Context, keep: bool| {
            with_attached(
                context,
                || {
                    made.set(made.get() + 1);
                    Count(0)
                },
                |c: &mut Count| {
                    c.0 += 1;
                    c.0
                },
                |_| keep,
            )
        };
        let pooled = PooledContext::take();
        assert_eq!(bump(&pooled, true), 1);
        assert_eq!(bump(&pooled, true), 2, "kept with the pooled context");
        assert_eq!(bump(&pooled, false), 3);
        assert_eq!(bump(&pooled, true), 1, "dropped after a failed use");
        assert_eq!(made.get(), 2);
        let plain = crate::create_context();
        assert_eq!(bump(&plain, true), 1);
        assert_eq!(bump(&plain, true), 1, "a plain context keeps nothing");
        let raw = key(&pooled);
        drop(pooled);
        assert!(ATTACHED.lock().unwrap().as_ref().is_none_or(|a| !a.0.contains_key(&raw)), "untracked when dropped");
    }
}
