//! `hlo-opt`: parse, verify, transform and print hlo IR, like mlir-opt;
//! the driver is the `rxla_opt` library (see its docs).

mod allocator;

fn main() -> std::process::ExitCode {
    allocator::configure();
    rxla_opt::opt_main("hlo-opt", rxla_opt::Registry::rxla())
}
