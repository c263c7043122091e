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
