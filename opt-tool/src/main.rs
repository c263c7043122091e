//! `hlo-opt`: parse, verify, transform and print hlo IR, like mlir-opt;
//! the driver is the `rxla_opt` library (see its docs).

fn main() -> std::process::ExitCode {
    rxla_opt::opt_main("hlo-opt", rxla_opt::Registry::rxla())
}
