//! `hlo-opt`: parse, verify, transform and print hlo IR, like mlir-opt;
//! the driver is the `rxla_opt` library (see its docs).

// Links mimalloc, which replaces malloc for the whole process: see
// docs/hlo-run.md ("Memory allocator").
use libmimalloc_sys as _;

fn main() -> std::process::ExitCode {
    rxla_opt::opt_main("hlo-opt", rxla_opt::Registry::rxla())
}
