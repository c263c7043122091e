//! Custom-call targets whose meaning XLA fixes (not a backend's library).

/// The targets that only carry sharding information, each the identity of
/// its one operand on one device (XLA's ShardingRemover removes them when a
/// program runs unpartitioned): GSPMD's `Sharding` and the edges of a
/// manually partitioned region, and Shardy's round-trip calls (a result's
/// sharding, the edges of a `shard_map` body). Shardy's
/// `xla.sdy.ShardingGroup`, which has no result, is [`SHARDING_GROUP`].
pub const SHARDING_TARGETS: &[&str] = &[
    "Sharding",
    "SPMDFullToShardShape",
    "SPMDShardToFullShape",
    "xla.sdy.FuncResultSharding",
    "xla.sdy.GlobalToLocalShape",
    "xla.sdy.LocalToGlobalShape",
];

/// Shardy's annotation that ties the shardings of values together; it has
/// no result and does nothing on one device.
pub const SHARDING_GROUP: &str = "xla.sdy.ShardingGroup";

/// Why a custom call that no backend can run is unrunnable, for the targets
/// whose reason a user would not guess: JAX's Python callbacks
/// (`jax.debug.print`, `jax.pure_callback`, `io_callback`) call back into
/// the Python process that traced the program.
pub fn unrunnable_reason(target: &str) -> Option<&'static str> {
    matches!(
        target,
        "xla_ffi_python_cpu_callback"
            | "xla_python_cpu_callback"
            | "xla_ffi_python_gpu_callback"
            | "xla_python_gpu_callback"
            | "xla_ffi_partitioned_python_cpu_callback"
    )
    .then_some(
        "a JAX Python callback (jax.debug.print, jax.pure_callback, io_callback): it runs only inside the \
         Python process that traced the program; remove it before exporting",
    )
}

/// The error text for a custom-call `target` that `runner` does not know.
pub fn unknown_target_message(target: &str, runner: &str) -> String {
    match unrunnable_reason(target) {
        Some(reason) => format!("custom-call target \"{target}\" is {reason}"),
        None => format!("custom-call target \"{target}\" is not registered with {runner}"),
    }
}
