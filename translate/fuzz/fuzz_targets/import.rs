//! The whole importer on arbitrary bytes: HLO text -> syntax tree -> MLIR
//! text -> MLIR parse and verify, and for modules that import, the export
//! back to HLO text and its re-import. Any panic or abort is a bug.

#![no_main]

use libfuzzer_sys::fuzz_target;
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
        if let Ok(module) = rxla_translate::import_hlo_text(context, text, "fuzz.hlo") {
            if let Ok(hlo) = rxla_translate::export_hlo_text(&module) {
                let _ = rxla_translate::import_hlo_text(context, &hlo, "fuzz-export.hlo");
            }
        }
    });
});
