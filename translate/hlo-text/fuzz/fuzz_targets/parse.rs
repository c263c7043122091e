//! Arbitrary text into the parser. Whatever it accepts must print, reparse
//! to the same tree (positions aside), print identically again, and survive
//! every attribute reader; nothing may panic or overflow the stack.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rxla_hlo_text::{attrs, parse_module, print_module};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(module) = parse_module(text) else {
        return;
    };
    let printed = print_module(&module);
    let reparsed = match parse_module(&printed) {
        Ok(m) => m,
        Err(e) => panic!("printed module does not parse: {e}\n{printed}"),
    };
    assert!(
        module.without_positions() == reparsed.without_positions(),
        "round trip changed the tree:\n{printed}"
    );
    assert_eq!(
        print_module(&reparsed),
        printed,
        "printing is not a fixed point"
    );
    let _ = attrs::check_module(&module);
    // Every reader on every value, whatever its keyword, for coverage.
    let values = module
        .attributes
        .iter()
        .chain(module.computations.iter().flat_map(|c| c.attributes.iter()))
        .chain(
            module
                .computations
                .iter()
                .flat_map(|c| c.instructions.iter().flat_map(|i| i.attributes.iter())),
        )
        .map(|a| &a.value);
    for v in values {
        let _ = attrs::integer(v);
        let _ = attrs::float(v);
        let _ = attrs::boolean(v);
        let _ = attrs::bool_list(v);
        let _ = attrs::string(v);
        let _ = attrs::enum_word(v);
        let _ = attrs::dims(v);
        let _ = attrs::int_lists(v);
        let _ = attrs::computation(v);
        let _ = attrs::computation_list(v);
        let _ = attrs::instruction_names(v);
        let _ = attrs::shape(v);
        let _ = attrs::shape_list(v);
        let _ = attrs::slice(v);
        let _ = attrs::padding(v);
        let _ = attrs::window(v);
        let _ = attrs::conv_dim_labels(v);
        if let Ok(groups) = attrs::replica_groups(v) {
            let _ = groups.groups();
        }
        let _ = attrs::source_target_pairs(v);
        let _ = attrs::precision_list(v);
        let _ = attrs::frontend_attributes(v);
        let _ = attrs::metadata(v);
        let _ = attrs::backend_config(v);
        let _ = attrs::sharding(v);
        let _ = attrs::output_to_operand_aliasing(v);
        let _ = attrs::input_output_alias(v);
        let _ = attrs::buffer_donor(v);
        let _ = attrs::entry_computation_layout(v);
        let _ = attrs::result_accuracy(v);
    }
});
