//! The process allocator of `hlo-opt` and `hlo-run`: mimalloc, linked in
//! place of glibc's malloc for the whole process (see docs/hlo-run.md,
//! "Memory allocator"). Included by both binaries' mains, not by the
//! `rxla_opt` library, whose users keep their own allocator.

// Linking the crate (with its `override` feature) is what replaces malloc.
use libmimalloc_sys as _;

/// mimalloc's `mi_option_purge_delay` (its `mi_option_t` enum, v3).
const PURGE_DELAY: std::os::raw::c_int = 15;

extern "C" {
    // mimalloc's own (the crate declares it only with its `extended`
    // feature, which pulls in another crate).
    fn mi_option_set(option: std::os::raw::c_int, value: std::os::raw::c_long);
}

/// Keeps freed memory instead of returning it to the OS 10 ms later
/// (mimalloc's default), unless `MIMALLOC_PURGE_DELAY` says otherwise. A
/// compile frees and reallocates hundreds of megabytes in bursts; with
/// purging, the kernel zeroed the same pages again and again (18% of
/// `priority-fusion`'s samples on an 80k-instruction module).
pub fn configure() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets an option; mimalloc reads it at its next purge.
        unsafe { mi_option_set(PURGE_DELAY, -1) };
    }
}
