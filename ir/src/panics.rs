//! Panics inside passes become errors.
//!
//! Rust passes run as callbacks from MLIR's C++ pass manager and greedy
//! driver; a panic must not unwind into C++ (that aborts the process).
//! [`catch`] runs a callback, and turns a panic into an error message
//! naming what panicked and where, so the pass fails with a diagnostic and
//! the tool exits non-zero instead of crashing.

use std::{cell::RefCell, panic, sync::Once};

thread_local! {
    /// Set while [`catch`] runs on this thread: the hook records the
    /// panic's location here instead of printing it.
    static CAUGHT: RefCell<Option<Option<String>>> = const { RefCell::new(None) };
}

fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let recorded = CAUGHT.with(|c| {
                let mut c = c.borrow_mut();
                match c.as_mut() {
                    Some(slot) => {
                        *slot = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
                        true
                    }
                    None => false,
                }
            });
            if !recorded {
                previous(info);
            }
        }));
    });
}

/// The message a panic's payload carries (`panic!`'s text), or "a panic"
/// when it carries none; for a thread's `join` error as well as for
/// [`catch`].
pub fn message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic".to_string())
}

/// Runs `f`; a panic becomes `Err("<message> (at <file:line:col>)")`.
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    let outer = CAUGHT.with(|c| c.borrow_mut().replace(None));
    let result = panic::catch_unwind(panic::AssertUnwindSafe(f));
    let location = CAUGHT.with(|c| std::mem::replace(&mut *c.borrow_mut(), outer)).flatten();
    result.map_err(|payload| {
        let message = message(payload.as_ref());
        match location {
            Some(at) => format!("{message} (at {at})"),
            None => message,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::catch;

    #[test]
    fn a_panic_becomes_an_error_with_its_location() {
        let e = catch(|| -> i32 { panic!("boom {}", 7) }).unwrap_err();
        assert!(e.starts_with("boom 7 (at "), "{e}");
        assert!(e.contains("panics.rs:"), "{e}");
        assert_eq!(catch(|| 3), Ok(3));
    }

    #[test]
    fn nested_catches_report_their_own_panic() {
        let outer = catch(|| {
            let inner = catch(|| -> () { panic!("inner") }).unwrap_err();
            assert!(inner.starts_with("inner (at "));
            panic!("outer")
        })
        .unwrap_err();
        assert!(outer.starts_with("outer (at "), "{outer}");
    }
}
