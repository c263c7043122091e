//! The whole importer on arbitrary bytes: HLO text -> syntax tree -> MLIR
//! text -> MLIR parse and verify, and for modules that import, the export
//! back to HLO text and its re-import. Any panic or abort is a bug.

// Not `#![no_main]`: MLIR's static libraries include mlir-opt's `main`
// (libMLIRMlirOptMain.a), which the linker would pick over libFuzzer's.
// This `main` starts libFuzzer's driver itself.

use libfuzzer_sys::fuzz_target;
use std::ffi::{c_char, c_int, CString};

extern "C" {
    fn LLVMFuzzerRunDriver(
        argc: *mut c_int,
        argv: *mut *mut *mut c_char,
        callback: unsafe extern "C" fn(*const u8, usize) -> c_int,
    ) -> c_int;
    fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> c_int;
}

fn main() {
    let args: Vec<CString> = std::env::args().map(|a| CString::new(a).unwrap()).collect();
    let mut pointers: Vec<*mut c_char> = args.iter().map(|a| a.as_ptr() as *mut c_char).collect();
    pointers.push(std::ptr::null_mut());
    let mut argc = args.len() as c_int;
    let mut argv = pointers.as_mut_ptr();
    // SAFETY: argv points at NUL-terminated strings that outlive the call.
    let status = unsafe { LLVMFuzzerRunDriver(&mut argc, &mut argv, LLVMFuzzerTestOneInput) };
    std::process::exit(status);
}
use std::cell::RefCell;

thread_local! {
    /// A context and how many inputs it has seen: MLIR uniques every type
    /// and attribute for the context's lifetime, so it is renewed now and
    /// then to keep memory flat.
    static CONTEXT: RefCell<(Option<melior::Context>, u32)> = const { RefCell::new((None, 0)) };
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    CONTEXT.with(|cell| {
        let mut state = cell.borrow_mut();
        if state.0.is_none() || state.1 >= 2000 {
            let context = rxla_dialects::create_context();
            // Diagnostics are expected; keep them off stderr.
            context.attach_diagnostic_handler(|_| true);
            *state = (Some(context), 0);
        }
        state.1 += 1;
        let context = state.0.as_ref().unwrap();
        let imported = rxla_translate::import_hlo_text(context, text, "fuzz.hlo");
        if let Ok(module) = &imported {
            if let Ok(hlo) = rxla_translate::export_hlo_text(module) {
                let _ = rxla_translate::import_hlo_text(context, &hlo, "fuzz-export.hlo");
            }
        }
        drop(imported);
    });
});
