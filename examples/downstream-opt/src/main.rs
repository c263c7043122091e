//! `example-opt`: hlo-opt with the `example` dialect and pass.

fn main() -> std::process::ExitCode {
    rxla_opt::opt_main("example-opt", example_opt::registry())
}
