//! PTX for NVIDIA GPUs through LLVM's NVPTX target: libdevice linked in
//! for the math functions, LLVM's `default<O3>`, then PTX text.
//!
//! The target is explicit: an SM (`sm_80`, `sm_90`, ...) and the PTX ISA
//! version the PTX is written in ([`PtxTarget::for_sm`] gives the oldest
//! version that supports the SM, so the PTX loads on the oldest driver
//! that knows the GPU). Denormals are kept (`nvvm-reflect-ftz` = 0, as
//! XLA:GPU does by default), so libdevice takes its IEEE paths.

use crate::unit::{in_parallel, Unit};
use inkwell::{
    context::Context,
    memory_buffer::MemoryBuffer,
    module::{Linkage, Module},
    passes::PassBuilderOptions,
    targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple},
    values::BasicValue,
    OptimizationLevel,
};
use std::{
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
};

/// Reduced libdevices kept per process ([`NvptxTarget::libdevice_for`]).
const REDUCED_LIBDEVICES: usize = 64;

/// LLVM's calling convention number of `ptx_kernel` functions.
const PTX_KERNEL_CC: u32 = 71;

/// An SM and the PTX ISA version to write for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxTarget {
    /// `sm_80`, `sm_90`, `sm_90a`, ...
    pub sm: String,
    /// PTX ISA version (major, minor): `.version 7.8`.
    pub ptx_version: (u32, u32),
}

/// One row of [`SM_TABLE`]: name, compute capability (major, minor), the
/// oldest PTX ISA (major, minor) that supports it, and the CUDA release that
/// introduced that ISA.
pub type SmEntry = (&'static str, (u32, u32), (u32, u32), &'static str);

/// The SMs rxla knows: name, compute capability, the oldest PTX ISA that
/// supports it (and the CUDA release that introduced that ISA).
pub const SM_TABLE: &[SmEntry] = &[
    ("sm_70", (7, 0), (6, 0), "CUDA 9.0"),
    ("sm_75", (7, 5), (6, 3), "CUDA 10.0"),
    ("sm_80", (8, 0), (7, 0), "CUDA 11.0"),
    ("sm_86", (8, 6), (7, 1), "CUDA 11.1"),
    ("sm_89", (8, 9), (7, 8), "CUDA 11.8"),
    ("sm_90", (9, 0), (7, 8), "CUDA 11.8"),
    ("sm_90a", (9, 0), (8, 0), "CUDA 12.0"),
];

impl PtxTarget {
    /// `sm` with the oldest PTX ISA version that supports it.
    pub fn for_sm(sm: &str) -> Result<PtxTarget, String> {
        let sm = sm.to_ascii_lowercase();
        let (_, _, ptx, _) = SM_TABLE.iter().find(|(name, ..)| *name == sm).ok_or_else(|| {
            let known: Vec<&str> = SM_TABLE.iter().map(|(n, ..)| *n).collect();
            format!("unknown GPU target `{sm}` (known: {})", known.join(", "))
        })?;
        Ok(PtxTarget { sm, ptx_version: *ptx })
    }

    /// `sm` with an explicit PTX ISA version (`8.0`), which must be at
    /// least the SM's oldest.
    pub fn with_ptx_version(sm: &str, version: &str) -> Result<PtxTarget, String> {
        let base = PtxTarget::for_sm(sm)?;
        let parsed = version
            .split_once('.')
            .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)))
            .ok_or_else(|| format!("bad PTX version `{version}` (expected MAJOR.MINOR, e.g. 7.8)"))?;
        if parsed < base.ptx_version {
            return Err(format!(
                "PTX {version} does not support {} (it needs PTX {}.{} or newer)",
                base.sm, base.ptx_version.0, base.ptx_version.1
            ));
        }
        Ok(PtxTarget { ptx_version: parsed, ..base })
    }

    /// LLVM's feature string: `+ptx78`.
    pub fn features(&self) -> String {
        format!("+ptx{}{}", self.ptx_version.0, self.ptx_version.1)
    }
}

/// Where the CUDA compiler wheel (`nvidia-cuda-nvcc-cu12`) is: its
/// `nvidia/cuda_nvcc` folder, from `RXLA_CUDA_NVCC`, the checkout's
/// `.cuda/` (what `scripts/setup.sh` installs) or `/usr/local/cuda`.
pub fn cuda_nvcc_dir() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(dir) = std::env::var_os("RXLA_CUDA_NVCC") {
        candidates.push(PathBuf::from(dir));
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    candidates.push(workspace.join(".cuda/nvidia/cuda_nvcc"));
    candidates.push(PathBuf::from("/usr/local/cuda"));
    candidates.into_iter().find(|d| d.join("nvvm/libdevice/libdevice.10.bc").is_file() || d.join("bin/ptxas").is_file())
}

/// libdevice's bitcode (`RXLA_LIBDEVICE`, or in [`cuda_nvcc_dir`]).
pub fn libdevice_path() -> Option<PathBuf> {
    if let Some(file) = std::env::var_os("RXLA_LIBDEVICE") {
        return Some(PathBuf::from(file));
    }
    cuda_nvcc_dir().map(|d| d.join("nvvm/libdevice/libdevice.10.bc")).filter(|f| f.is_file())
}

/// `ptxas` (`RXLA_PTXAS`, in [`cuda_nvcc_dir`], or on `PATH`).
pub fn ptxas_path() -> Option<PathBuf> {
    if let Some(file) = std::env::var_os("RXLA_PTXAS") {
        return Some(PathBuf::from(file));
    }
    if let Some(p) = cuda_nvcc_dir().map(|d| d.join("bin/ptxas")).filter(|f| f.is_file()) {
        return Some(p);
    }
    std::env::var_os("PATH")?.to_str()?.split(':').map(|d| Path::new(d).join("ptxas")).find(|p| p.is_file())
}

/// A GPU as an LLVM compilation target.
pub struct NvptxTarget {
    machine: TargetMachine,
    pub target: PtxTarget,
    libdevice: Option<PathBuf>,
}

const TRIPLE: &str = "nvptx64-nvidia-cuda";

impl NvptxTarget {
    /// The target; `libdevice` is linked into modules that call `__nv_*`
    /// functions.
    pub fn new(target: PtxTarget, libdevice: Option<PathBuf>) -> Result<NvptxTarget, String> {
        Target::initialize_nvptx(&InitializationConfig::default());
        let triple = TargetTriple::create(TRIPLE);
        let llvm_target = Target::from_triple(&triple).map_err(|e| e.to_string())?;
        let machine = llvm_target
            .create_target_machine(
                &triple,
                &target.sm,
                &target.features(),
                OptimizationLevel::Aggressive,
                RelocMode::Default,
                CodeModel::Default,
            )
            .ok_or_else(|| {
                format!("LLVM cannot create an NVPTX target machine for {} ({})", target.sm, target.features())
            })?;
        Ok(NvptxTarget { machine, target, libdevice })
    }

    /// Sets the triple, data layout and the denormal mode libdevice reads.
    pub fn prepare(&self, module: &Module) {
        module.set_triple(&TargetTriple::create(TRIPLE));
        module.set_data_layout(&self.machine.get_target_data().get_data_layout());
        let context = module.get_context();
        let zero = context.i32_type().const_zero();
        module.add_basic_value_flag("nvvm-reflect-ftz", inkwell::module::FlagBehavior::Override, zero);
    }

    /// Links libdevice when `module` calls one of its functions, and makes
    /// everything but the kernels internal (so what is not called is
    /// dropped and the rest inlined).
    pub fn link_libdevice(&self, module: &Module) -> Result<(), String> {
        let needs = module
            .get_functions()
            .any(|f| f.count_basic_blocks() == 0 && f.get_name().to_bytes().starts_with(b"__nv_"));
        if needs {
            let path = self.libdevice.as_ref().ok_or_else(|| {
                "the kernels call libdevice math functions, and libdevice.10.bc was not found (run scripts/setup.sh, or set RXLA_LIBDEVICE)".to_string()
            })?;
            let mut called: Vec<String> = module
                .get_functions()
                .filter(|f| f.count_basic_blocks() == 0)
                .map(|f| f.get_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("__nv_"))
                .collect();
            called.sort();
            let library = self.libdevice_for(path, called, module)?;
            module.link_in_module(library).map_err(|e| format!("linking libdevice: {}", e.to_string_lossy()))?;
        }
        for f in module.get_functions() {
            if f.count_basic_blocks() > 0 && f.get_call_conventions() != PTX_KERNEL_CC {
                f.set_linkage(Linkage::Internal);
            }
        }
        Ok(())
    }

    /// libdevice reduced to the `called` functions and what they use, in
    /// `module`'s context. Parsing all of libdevice (~500 functions, 470 KB
    /// of bitcode) took 20-25 ms for every module that calls one of its
    /// functions; a reduced copy parses in a fraction of that. The reduced
    /// bitcode is kept per process for each set of called functions (up to
    /// [`REDUCED_LIBDEVICES`] sets): a first use parses the whole library,
    /// drops what the set does not reach (its other functions made
    /// internal, then `globaldce`) and keeps the rest's bitcode.
    fn libdevice_for<'c>(&self, path: &Path, called: Vec<String>, module: &Module<'c>) -> Result<Module<'c>, String> {
        type Key = (PathBuf, Vec<String>);
        static REDUCED: Mutex<Vec<(Key, Arc<Vec<u8>>)>> = Mutex::new(Vec::new());
        let context = module.get_context();
        let key: Key = (path.to_path_buf(), called);
        let cached =
            REDUCED.lock().unwrap_or_else(|e| e.into_inner()).iter().find(|(k, _)| *k == key).map(|(_, b)| b.clone());
        let library = match cached {
            Some(bitcode) => {
                let buffer = MemoryBuffer::create_from_memory_range_copy(&bitcode, "libdevice (reduced)");
                Module::parse_bitcode_from_buffer(&buffer, context)
                    .map_err(|e| format!("{} (reduced): {}", path.display(), e.to_string_lossy()))?
            }
            None => {
                let library = Module::parse_bitcode_from_path(path, context)
                    .map_err(|e| format!("{}: {}", path.display(), e.to_string_lossy()))?;
                let called: std::collections::HashSet<&str> = key.1.iter().map(String::as_str).collect();
                for f in library.get_functions() {
                    let name = f.get_name().to_string_lossy();
                    if f.count_basic_blocks() > 0 && !called.contains(name.as_ref()) {
                        f.set_linkage(Linkage::Internal);
                    }
                }
                for g in library.get_globals() {
                    if g.get_initializer().is_some() && !g.get_name().to_bytes().starts_with(b"llvm.") {
                        g.set_linkage(Linkage::Internal);
                    }
                }
                library
                    .run_passes("globaldce", &self.machine, PassBuilderOptions::create())
                    .map_err(|e| e.to_string())?;
                let bitcode = Arc::new(library.write_bitcode_to_memory().as_slice().to_vec());
                let mut reduced = REDUCED.lock().unwrap_or_else(|e| e.into_inner());
                // Parts compiled in parallel may have reduced the same set.
                if !reduced.iter().any(|(k, _)| *k == key) {
                    if reduced.len() >= REDUCED_LIBDEVICES {
                        reduced.remove(0);
                    }
                    reduced.push((key, bitcode));
                }
                library
            }
        };
        library.set_triple(&TargetTriple::create(TRIPLE));
        library.set_data_layout(&self.machine.get_target_data().get_data_layout());
        Ok(library)
    }

    /// LLVM's `default<O3>` pipeline for the GPU (with NVVM reflection),
    /// after `globaldce`: the libdevice functions the kernels do not call
    /// are internal and dead once linked, but O3's module passes before
    /// its own dead-code removal (function attribute inference,
    /// interprocedural constant propagation) went through all ~500 of
    /// them, a third of the LLVM time of a small module. The code is
    /// the same.
    pub fn optimize(&self, module: &Module) -> Result<(), String> {
        let options = PassBuilderOptions::create();
        options.set_loop_unrolling(true);
        module.run_passes("globaldce,default<O3>", &self.machine, options).map_err(|e| e.to_string())
    }

    /// Fails when a called function is neither defined nor an intrinsic
    /// (PTX cannot call the C library).
    pub fn check_resolved(&self, module: &Module) -> Result<(), String> {
        let unresolved: Vec<String> = module
            .get_functions()
            .filter(|f| f.count_basic_blocks() == 0 && f.as_global_value().as_pointer_value().get_first_use().is_some())
            .map(|f| f.get_name().to_string_lossy().into_owned())
            .filter(|n| !n.starts_with("llvm."))
            .collect();
        if unresolved.is_empty() {
            Ok(())
        } else {
            Err(format!("the GPU kernels call functions that have no GPU definition: {}", unresolved.join(", ")))
        }
    }

    /// PTX text of `module`.
    pub fn ptx(&self, module: &Module) -> Result<String, String> {
        let buffer = self.machine.write_to_memory_buffer(module, FileType::Assembly).map_err(|e| e.to_string())?;
        Ok(String::from_utf8_lossy(buffer.as_slice()).into_owned())
    }
}

/// LLVM IR before and after optimization, and the PTX: the
/// `llvm-before-optimizations`, `llvm` and `ptx` stages.
pub fn stages(module: &melior::ir::Module, target: &NvptxTarget) -> Result<(String, String, String), String> {
    let context = Context::create();
    let llvm = crate::translate::to_llvm_ir(module, &context)?;
    target.prepare(&llvm);
    let before = llvm.print_to_string().to_string();
    llvm.verify().map_err(|e| format!("LLVM IR does not verify: {e}"))?;
    target.link_libdevice(&llvm)?;
    target.optimize(&llvm)?;
    target.check_resolved(&llvm)?;
    let after = llvm.print_to_string().to_string();
    let ptx = target.ptx(&llvm)?;
    Ok((before, after, ptx))
}

/// The PTX of `module` (the `llvm` dialect: nested kernel modules, the
/// lowering's output), split into up to `threads` parts that are linked
/// with libdevice, optimized and compiled to PTX each on its own thread,
/// then put together as one PTX module. On one thread LLVM spent 1.1 s
/// optimizing and 2.9 s writing the PTX of a ResNet-50 training step's 322
/// kernels.
///
/// Internal functions and globals (what libdevice leaves, such as the
/// `__cudart_i2opi_f` table of its trigonometric functions) get a part's
/// suffix, so that two parts that both use one do not define it twice.
pub fn compile_kernels(module: &melior::ir::Module, target: &NvptxTarget, threads: usize) -> Result<String, String> {
    let parts = crate::translate::split_kernel_modules(module, threads);
    let mut units = parts.iter().map(|p| Unit::new(p, &[])).collect::<Result<Vec<_>, _>>()?;
    let (ptx, libdevice) = (&target.target, &target.libdevice);
    let ptx_parts = in_parallel(&mut units, target, || NvptxTarget::new(ptx.clone(), libdevice.clone()), part_ptx);
    let ptx_parts = ptx_parts.into_iter().collect::<Result<Vec<_>, _>>()?;
    Ok(merge_ptx(&ptx_parts))
}

/// The PTX of part `index`: linked with libdevice, optimized, its
/// internal symbols renamed apart from the other parts'.
fn part_ptx(unit: &mut Unit, index: usize, target: &NvptxTarget) -> Result<String, String> {
    let llvm = unit.module();
    target.prepare(llvm);
    llvm.verify().map_err(|e| format!("LLVM IR does not verify: {e}"))?;
    target.link_libdevice(llvm)?;
    target.optimize(llvm)?;
    target.check_resolved(llvm)?;
    if index > 0 {
        let internal = |l: Linkage| matches!(l, Linkage::Internal | Linkage::Private);
        for f in llvm.get_functions() {
            if f.count_basic_blocks() > 0 && internal(f.get_linkage()) {
                let name = format!("{}_p{index}", f.get_name().to_string_lossy());
                f.as_global_value().set_name(&name);
            }
        }
        for g in llvm.get_globals() {
            if internal(g.get_linkage()) {
                let name = format!("{}_p{index}", g.get_name().to_string_lossy());
                g.set_name(&name);
            }
        }
    }
    target.ptx(llvm)
}

/// One PTX module of several of the same target: the first's header
/// (`.version`, `.target`, `.address_size`), then every part's
/// declarations and definitions, each `.extern` declaration once.
fn merge_ptx(parts: &[String]) -> String {
    let mut out = String::with_capacity(parts.iter().map(String::len).sum());
    let mut externs = std::collections::HashSet::new();
    for (i, part) in parts.iter().enumerate() {
        let mut lines = part.lines();
        if i > 0 {
            // Skip the header: everything up to `.address_size`.
            for line in lines.by_ref() {
                if line.starts_with(".address_size") {
                    break;
                }
            }
        }
        while let Some(line) = lines.next() {
            if line.starts_with(".extern") {
                let mut declaration = line.to_string();
                while !declaration.trim_end().ends_with(';') {
                    match lines.next() {
                        Some(next) => {
                            declaration.push('\n');
                            declaration.push_str(next);
                        }
                        None => break,
                    }
                }
                if externs.insert(declaration.clone()) {
                    out.push_str(&declaration);
                    out.push('\n');
                }
                continue;
            }
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Runs `ptxas -arch=<sm>` on `ptx`; `Err` carries ptxas's messages.
pub fn ptxas_check(ptxas: &Path, ptx: &str, sm: &str) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("rxla-ptxas-{}-{:?}", std::process::id(), std::thread::current().id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let input = dir.join("kernels.ptx");
    std::fs::write(&input, ptx).map_err(|e| e.to_string())?;
    let output = std::process::Command::new(ptxas)
        .arg(format!("-arch={sm}"))
        .arg(&input)
        .arg("-o")
        .arg(dir.join("kernels.cubin"))
        .output()
        .map_err(|e| format!("running {}: {e}", ptxas.display()))?;
    let _ = std::fs::remove_dir_all(&dir);
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "ptxas -arch={sm}: {}{}",
            String::from_utf8_lossy(&output.stderr),
            String::from_utf8_lossy(&output.stdout)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sm_table_gives_the_oldest_ptx_version() {
        assert_eq!(PtxTarget::for_sm("sm_80").unwrap().ptx_version, (7, 0));
        assert_eq!(PtxTarget::for_sm("SM_90").unwrap().ptx_version, (7, 8));
        assert_eq!(PtxTarget::for_sm("sm_90a").unwrap().features(), "+ptx80");
        assert!(PtxTarget::for_sm("sm_12").unwrap_err().contains("known: sm_70"));
        assert_eq!(PtxTarget::with_ptx_version("sm_90", "8.3").unwrap().features(), "+ptx83");
        assert!(PtxTarget::with_ptx_version("sm_90", "7.0").unwrap_err().contains("needs PTX 7.8"));
        assert!(PtxTarget::with_ptx_version("sm_90", "x").is_err());
    }

    #[test]
    fn every_sm_in_the_table_makes_a_target_machine() {
        for (sm, ..) in SM_TABLE {
            NvptxTarget::new(PtxTarget::for_sm(sm).unwrap(), None).unwrap();
        }
    }
}
