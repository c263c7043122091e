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

/// LAPACK's typed-FFI targets that JAX's CPU lowering emits for
/// `jnp.linalg` and `jax.scipy.linalg` (prefix `s`/`d`/`c`/`z`: f32, f64,
/// c64, c128). The interpreter evaluates them (`rxla_interpreter::ops::lapack`)
/// and the CPU and GPU runtimes run them through it; the eigen-decompositions
/// of general matrices (`geev`, `gees`, `gehrd`) are not among them.
pub const LAPACK_TARGETS: &[&str] = &[
    "lapack_spotrf_ffi",
    "lapack_dpotrf_ffi",
    "lapack_cpotrf_ffi",
    "lapack_zpotrf_ffi",
    "lapack_strsm_ffi",
    "lapack_dtrsm_ffi",
    "lapack_ctrsm_ffi",
    "lapack_ztrsm_ffi",
    "lapack_sgetrf_ffi",
    "lapack_dgetrf_ffi",
    "lapack_cgetrf_ffi",
    "lapack_zgetrf_ffi",
    "lapack_sgeqrf_ffi",
    "lapack_dgeqrf_ffi",
    "lapack_cgeqrf_ffi",
    "lapack_zgeqrf_ffi",
    "lapack_sorgqr_ffi",
    "lapack_dorgqr_ffi",
    "lapack_cungqr_ffi",
    "lapack_zungqr_ffi",
    "lapack_ssyevd_ffi",
    "lapack_dsyevd_ffi",
    "lapack_cheevd_ffi",
    "lapack_zheevd_ffi",
    "lapack_sgesdd_ffi",
    "lapack_dgesdd_ffi",
    "lapack_cgesdd_ffi",
    "lapack_zgesdd_ffi",
    "lapack_sgesvd_ffi",
    "lapack_dgesvd_ffi",
    "lapack_cgesvd_ffi",
    "lapack_zgesvd_ffi",
];

/// Whether `target` is one of [`LAPACK_TARGETS`].
pub fn is_lapack_target(target: &str) -> bool {
    LAPACK_TARGETS.contains(&target)
}
