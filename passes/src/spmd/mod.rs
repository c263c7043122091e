//! SPMD partitioning: from one program with shardings to the program each
//! of N partitions runs, with the collectives that move data between them.
//!
//! - [`tiles`]: a sharding as the blocks each partition holds.
//! - [`rules`]: how each op's dimensions correspond between operands and
//!   result.
//! - [`propagation`]: `sharding-propagation`, a sharding for every
//!   instruction.
//! - [`partitioner`]: `spmd-partitioner`, the per-partition program.

pub mod partitioner;
pub mod propagation;
pub mod rules;
pub mod tiles;

pub use partitioner::{SpmdPartitioner, SPMD_SUFFIX};
pub use propagation::ShardingPropagation;
pub use tiles::{Placement, Tiles};
