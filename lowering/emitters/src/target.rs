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
    pub device: String,
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
            device: "NVIDIA A100".into(),
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
            device: "NVIDIA H100/H200".into(),
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

    /// A target description in the text format of XLA's
    /// `--xla_gpu_target_config_filename` files (`GpuTargetConfigProto`,
    /// e.g. XLA's `gpu_specs/h100_sxm.txtpb`): the `gpu_device_info`
    /// fields the emitters read override those of the SM named by
    /// `cuda_compute_capability` (8.x: `sm_80`, 9.x: `sm_90`); other
    /// fields and messages are ignored.
    pub fn from_spec(text: &str) -> Result<GpuTarget, String> {
        let fields = parse_text_proto(text)?;
        let get = |key: &str| fields.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
        let int = |key: &str| -> Result<Option<i64>, String> {
            get(key).map(|v| v.parse::<i64>().map_err(|_| format!("{key}: expected an integer, got `{v}`"))).transpose()
        };
        let major = int("gpu_device_info.cuda_compute_capability.major")?.ok_or(
            "the target description has no gpu_device_info.cuda_compute_capability (only CUDA GPUs are supported)",
        )?;
        let minor = int("gpu_device_info.cuda_compute_capability.minor")?.unwrap_or(0);
        let mut t = match major {
            8 => GpuTarget::sm_80(),
            9 => GpuTarget::sm_90(),
            _ => return Err(format!("compute capability {major}.{minor} is not supported (8.x or 9.x)")),
        };
        t.compute_capability = (major as u32, minor as u32);
        t.name = match (major, minor) {
            (8, 0) => "sm_80",
            (8, 6) => "sm_86",
            (8, 9) => "sm_89",
            (8, _) => return Err(format!("compute capability 8.{minor} is not supported (8.0, 8.6, 8.9)")),
            (9, 0) => "sm_90",
            _ => return Err(format!("compute capability {major}.{minor} is not supported (9.0)")),
        };
        let d = "gpu_device_info.";
        let [bx, by, bz] = &mut t.block_dim_limit;
        for (key, field) in [
            ("threads_per_warp", &mut t.warp_size),
            ("threads_per_block_limit", &mut t.threads_per_block_limit),
            ("threads_per_core_limit", &mut t.threads_per_core_limit),
            ("core_count", &mut t.core_count),
            ("shared_memory_per_block", &mut t.shared_memory_per_block),
            ("shared_memory_per_block_optin", &mut t.shared_memory_per_block_optin),
            ("shared_memory_per_core", &mut t.shared_memory_per_core),
            ("registers_per_core_limit", &mut t.registers_per_core_limit),
            ("registers_per_block_limit", &mut t.registers_per_block_limit),
            ("memory_bandwidth", &mut t.memory_bandwidth),
            ("l2_cache_size", &mut t.l2_cache_size),
            ("block_dim_limit_x", bx),
            ("block_dim_limit_y", by),
            ("block_dim_limit_z", bz),
        ] {
            if let Some(v) = int(&format!("{d}{key}"))? {
                *field = v;
            }
        }
        if let Some(ghz) = get("gpu_device_info.clock_rate_ghz") {
            let ghz: f64 = ghz.parse().map_err(|_| format!("clock_rate_ghz: expected a number, got `{ghz}`"))?;
            t.clock_rate_khz = (ghz * 1e6).round() as i64;
        }
        if let Some(name) = get("device_description_str") {
            t.device = name.to_string();
        }
        if t.warp_size != 32 {
            return Err(format!("threads_per_warp {} (the emitters assume 32)", t.warp_size));
        }
        Ok(t)
    }

    /// Threads the whole GPU keeps resident (XLA's `threads_per_core_limit *
    /// core_count`): loop fusions at least this big are unrolled.
    pub fn resident_threads(&self) -> i64 {
        self.threads_per_core_limit * self.core_count
    }
}

/// The scalar fields of a protobuf text message as (`a.b.c`, value)
/// pairs; strings are unquoted.
fn parse_text_proto(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let mut path: Vec<String> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        let mut rest = line;
        while !rest.is_empty() {
            if let Some(r) = rest.strip_prefix('}') {
                path.pop().ok_or_else(|| format!("line {}: unbalanced `}}`", n + 1))?;
                rest = r.trim_start();
                continue;
            }
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
            let (key, r) = rest.split_at(end);
            if key.is_empty() {
                return Err(format!("line {}: cannot parse `{}`", n + 1, raw.trim()));
            }
            let r = r.trim_start();
            if let Some(r) = r
                .strip_prefix('{')
                .or_else(|| r.strip_prefix(':').map(str::trim_start).and_then(|r| r.strip_prefix('{')))
            {
                path.push(key.to_string());
                rest = r.trim_start();
                continue;
            }
            let r = r
                .strip_prefix(':')
                .ok_or_else(|| format!("line {}: expected `:` or `{{` after `{key}`", n + 1))?
                .trim_start();
            let (value, r) = if let Some(q) = r.strip_prefix('"') {
                let close = q.find('"').ok_or_else(|| format!("line {}: unterminated string", n + 1))?;
                (q[..close].to_string(), &q[close + 1..])
            } else {
                let end = r.find(|c: char| c.is_whitespace() || c == '}').unwrap_or(r.len());
                (r[..end].to_string(), &r[end..])
            };
            let mut full = path.clone();
            full.push(key.to_string());
            out.push((full.join("."), value));
            rest = r.trim_start();
        }
    }
    if !path.is_empty() {
        return Err(format!("unclosed message `{}`", path.join(".")));
    }
    Ok(out)
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

    #[test]
    fn target_description_files() {
        let spec = "# H100 PCIe\ngpu_device_info {\n  threads_per_block_limit: 1024\n  core_count: 114\n  shared_memory_per_block_optin: 232448\n  clock_rate_ghz: 1.755\n  cuda_compute_capability {\n    major: 9\n  }\n}\nplatform_name: \"CUDA\"\ndevice_description_str: \"NVIDIA H100 PCIe\"\n";
        let t = GpuTarget::from_spec(spec).unwrap();
        assert_eq!((t.name, t.core_count, t.clock_rate_khz), ("sm_90", 114, 1_755_000));
        assert_eq!(t.device, "NVIDIA H100 PCIe");
        assert_eq!(t.shared_memory_per_block_optin, 232448);
        let a100 = GpuTarget::from_spec("gpu_device_info { cuda_compute_capability { major: 8 minor: 0 } }").unwrap();
        assert_eq!(a100, GpuTarget::sm_80());
        assert!(GpuTarget::from_spec("gpu_device_info { core_count: 2 }")
            .unwrap_err()
            .contains("cuda_compute_capability"));
        assert!(GpuTarget::from_spec("gpu_device_info { cuda_compute_capability { major: 7 } }")
            .unwrap_err()
            .contains("7.0"));
        assert!(GpuTarget::from_spec("gpu_device_info { core_count: x cuda_compute_capability { major: 9 } }")
            .unwrap_err()
            .contains("core_count"));
        assert!(GpuTarget::from_spec("gpu_device_info {").unwrap_err().contains("unclosed"));
    }
}
