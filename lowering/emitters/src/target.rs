//! Target descriptions: what the emitters need to know about the machine
//! (XLA's `se::DeviceDescription`, reduced to the fields the emitters and
//! launch-dimension rules read).
//!
//! GPUs: `sm_80` (A100) and `sm_90` (H100 / H200: the same SM, SM count and
//! limits; the H200 differs in memory size and bandwidth only). CPU: a core
//! count and a SIMD width, which set the number of workgroups and the
//! unroll (vector) factor of the CPU flavour.

use std::fmt;

/// A CUDA GPU, by compute capability.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuTarget {
    /// `sm_80`, `sm_90`.
    pub name: &'static str,
    /// Marketing name(s).
    pub device: &'static str,
    pub compute_capability: (u32, u32),
    /// Threads per warp.
    pub warp_size: i64,
    /// Threads per block (all dimensions together).
    pub threads_per_block_limit: i64,
    /// Resident threads per SM (XLA's `threads_per_core_limit`).
    pub threads_per_core_limit: i64,
    /// Streaming multiprocessors (XLA's `core_count`).
    pub core_count: i64,
    /// Static shared memory a block gets without opting in (bytes).
    pub shared_memory_per_block: i64,
    /// Shared memory a block may opt in to (bytes).
    pub shared_memory_per_block_optin: i64,
    /// Shared memory per SM (bytes).
    pub shared_memory_per_core: i64,
    /// 32-bit registers per SM and per block.
    pub registers_per_core_limit: i64,
    pub registers_per_block_limit: i64,
    /// Registers one thread may use.
    pub registers_per_thread_limit: i64,
    /// Grid limits (blocks per dimension).
    pub block_dim_limit: [i64; 3],
    /// DRAM bandwidth (bytes/s) and L2 size (bytes), for cost models.
    pub memory_bandwidth: i64,
    pub l2_cache_size: i64,
    /// Boost clock (kHz).
    pub clock_rate_khz: i64,
}

impl GpuTarget {
    /// NVIDIA A100 (Ampere, sm_80), SXM 80 GB.
    pub fn sm_80() -> GpuTarget {
        GpuTarget {
            name: "sm_80",
            device: "NVIDIA A100",
            compute_capability: (8, 0),
            warp_size: 32,
            threads_per_block_limit: 1024,
            threads_per_core_limit: 2048,
            core_count: 108,
            shared_memory_per_block: 48 * 1024,
            shared_memory_per_block_optin: 163 * 1024,
            shared_memory_per_core: 164 * 1024,
            registers_per_core_limit: 65536,
            registers_per_block_limit: 65536,
            registers_per_thread_limit: 255,
            block_dim_limit: [(1 << 31) - 1, 65535, 65535],
            memory_bandwidth: 2_039_000_000_000,
            l2_cache_size: 40 * 1024 * 1024,
            clock_rate_khz: 1_410_000,
        }
    }

    /// NVIDIA H100 / H200 (Hopper, sm_90), SXM: 132 SMs.
    pub fn sm_90() -> GpuTarget {
        GpuTarget {
            name: "sm_90",
            device: "NVIDIA H100/H200",
            compute_capability: (9, 0),
            warp_size: 32,
            threads_per_block_limit: 1024,
            threads_per_core_limit: 2048,
            core_count: 132,
            shared_memory_per_block: 48 * 1024,
            shared_memory_per_block_optin: 227 * 1024,
            shared_memory_per_core: 228 * 1024,
            registers_per_core_limit: 65536,
            registers_per_block_limit: 65536,
            registers_per_thread_limit: 255,
            block_dim_limit: [(1 << 31) - 1, 65535, 65535],
            // H100 SXM: 3.35 TB/s; the H200's HBM3e gives 4.8 TB/s.
            memory_bandwidth: 3_350_000_000_000,
            l2_cache_size: 50 * 1024 * 1024,
            clock_rate_khz: 1_980_000,
        }
    }

    /// The target named `sm_80` or `sm_90` (also `a100`, `h100`, `h200`).
    pub fn by_name(name: &str) -> Option<GpuTarget> {
        match name.to_ascii_lowercase().as_str() {
            "sm_80" | "sm80" | "a100" => Some(GpuTarget::sm_80()),
            "sm_90" | "sm90" | "h100" | "h200" => Some(GpuTarget::sm_90()),
            _ => None,
        }
    }

    /// Threads the whole GPU keeps resident (XLA's `threads_per_core_limit *
    /// core_count`): loop fusions at least this big are unrolled.
    pub fn resident_threads(&self) -> i64 {
        self.threads_per_core_limit * self.core_count
    }
}

/// A CPU: cores and SIMD width.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CpuTarget {
    pub name: &'static str,
    /// Workgroups run on this many cores in parallel.
    pub cores: i64,
    /// SIMD register width in bytes (32: AVX2, 64: AVX-512, 16: NEON).
    pub vector_bytes: i64,
}

impl CpuTarget {
    /// A generic x86-64 host with AVX2 and 8 cores (fixed, so that the
    /// emitted IR does not depend on the machine that runs the compiler).
    pub fn generic() -> CpuTarget {
        CpuTarget { name: "x86-64-avx2", cores: 8, vector_bytes: 32 }
    }
}

/// Where a kernel runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Gpu(GpuTarget),
    Cpu(CpuTarget),
}

impl Target {
    pub fn is_gpu(&self) -> bool {
        matches!(self, Target::Gpu(_))
    }

    pub fn gpu(&self) -> Option<&GpuTarget> {
        match self {
            Target::Gpu(g) => Some(g),
            Target::Cpu(_) => None,
        }
    }

    /// The short name (`sm_90`, `x86-64-avx2`).
    pub fn name(&self) -> &'static str {
        match self {
            Target::Gpu(g) => g.name,
            Target::Cpu(c) => c.name,
        }
    }

    /// The default GPU target (`sm_90`).
    pub fn default_gpu() -> Target {
        Target::Gpu(GpuTarget::sm_90())
    }

    /// The default CPU target.
    pub fn default_cpu() -> Target {
        Target::Cpu(CpuTarget::generic())
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Gpu(g) => write!(f, "{} ({})", g.name, g.device),
            Target::Cpu(c) => write!(f, "cpu {} ({} cores, {}-byte vectors)", c.name, c.cores, c.vector_bytes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(GpuTarget::by_name("sm_80").unwrap().core_count, 108);
        assert_eq!(GpuTarget::by_name("H200").unwrap().name, "sm_90");
        assert!(GpuTarget::by_name("sm_70").is_none());
        assert_eq!(GpuTarget::sm_90().resident_threads(), 2048 * 132);
    }
}
