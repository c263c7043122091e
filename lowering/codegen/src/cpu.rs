//! Native code for the host CPU: LLVM's optimization pipeline, assembly,
//! object files, and a JIT that links the compiled kernels into memory.
//!
//! The target machine is the host's CPU with all its features (AVX-512
//! where present), so the vectorizers use the widest vectors the machine
//! has. Every function gets the host CPU and features as attributes too,
//! so that the IR says what it was optimized for wherever it is compiled. Functions also say that
//! f32 denormals are flushed (`denormal-fp-math-f32=preserve-sign`): the
//! runtime runs kernels with FTZ/DAZ set, as XLA:CPU does, and LLVM must
//! not fold constants differently. Other types stay IEEE: f16 is computed
//! through conversions that keep its subnormals, and a flushing mode for
//! `half` let InstCombine turn `|x| < 2^-14` into `x == 0`.

use inkwell::{
    attributes::AttributeLoc,
    context::Context,
    module::Module,
    passes::PassBuilderOptions,
    targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple},
    OptimizationLevel,
};
use std::{
    collections::HashMap,
    mem::ManuallyDrop,
    sync::{Mutex, OnceLock},
};

/// The host CPU as a compilation target. Its target machine comes from a
/// process-wide pool and goes back there when the target is dropped.
pub struct HostTarget {
    machine: ManuallyDrop<TargetMachine>,
    pub triple: String,
    pub cpu: String,
    pub features: String,
}

/// Target machines no [`HostTarget`] holds, with their identity
/// (`HostTarget::identity`). Making one, and the subtarget LLVM builds for
/// it at first use (the host's ~200 features parsed, the x86 lowering
/// tables), took 0.2-0.4 ms, paid by every compile and every compile
/// thread when each made its own. A machine is only ever used by the one
/// target that took it out.
struct Idle(Vec<(String, TargetMachine)>);

// SAFETY: an idle machine is used by no thread; it is handed to exactly
// one HostTarget at a time (under the mutex), and LLVM target machines
// may move between threads as long as no two use one at once.
unsafe impl Send for Idle {}

static IDLE: Mutex<Idle> = Mutex::new(Idle(Vec::new()));

/// Idle machines kept at most (two per compile thread is plenty).
const MAX_IDLE: usize = 32;

fn identity_of(triple: &str, cpu: &str, features: &str) -> String {
    format!("{triple} {cpu} {features}")
}

/// The host's triple, CPU name and features, asked of LLVM once.
fn host_identity() -> Result<&'static (String, String, String), String> {
    static HOST: OnceLock<Result<(String, String, String), String>> = OnceLock::new();
    HOST.get_or_init(|| {
        Target::initialize_native(&InitializationConfig::default())?;
        let triple = TargetMachine::get_default_triple().as_str().to_string_lossy().into_owned();
        let cpu = TargetMachine::get_host_cpu_name().to_string();
        let features = TargetMachine::get_host_cpu_features().to_string();
        Ok((triple, cpu, features))
    })
    .as_ref()
    .map_err(Clone::clone)
}

impl HostTarget {
    pub fn new() -> Result<HostTarget, String> {
        let (triple, cpu, features) = host_identity()?;
        Self::with(triple, cpu, features)
    }

    /// A target machine for `triple`, `cpu` and `features` (the native
    /// target must be initialized: [`HostTarget::new`] does it): an idle
    /// one of the pool if there is one.
    fn with(triple: &str, cpu: &str, features: &str) -> Result<HostTarget, String> {
        let identity = identity_of(triple, cpu, features);
        let idle = {
            let mut pool = IDLE.lock().unwrap_or_else(|e| e.into_inner());
            let found = pool.0.iter().position(|(id, _)| *id == identity);
            found.map(|i| pool.0.swap_remove(i).1)
        };
        let machine = match idle {
            Some(machine) => machine,
            None => {
                let llvm_triple = TargetTriple::create(triple);
                let target = Target::from_triple(&llvm_triple).map_err(|e| e.to_string())?;
                target
                    .create_target_machine(
                        &llvm_triple,
                        cpu,
                        features,
                        OptimizationLevel::Aggressive,
                        RelocMode::Default,
                        CodeModel::JITDefault,
                    )
                    .ok_or_else(|| format!("LLVM cannot create a target machine for {cpu} ({triple})"))?
            }
        };
        Ok(HostTarget {
            machine: ManuallyDrop::new(machine),
            triple: triple.to_string(),
            cpu: cpu.to_string(),
            features: features.to_string(),
        })
    }

    /// What code compiled for this target needs of a machine: the triple,
    /// the CPU and its features, as LLVM names them.
    pub fn identity(&self) -> String {
        identity_of(&self.triple, &self.cpu, &self.features)
    }

    /// Sets the module's triple and data layout, and the host attributes
    /// on every function definition.
    pub fn prepare(&self, module: &Module) {
        module.set_triple(&TargetTriple::create(&self.triple));
        module.set_data_layout(&self.machine.get_target_data().get_data_layout());
        let context = module.get_context();
        for f in module.get_functions() {
            if f.count_basic_blocks() == 0 {
                continue;
            }
            for (key, value) in [
                ("target-cpu", self.cpu.as_str()),
                ("target-features", self.features.as_str()),
                ("denormal-fp-math", "ieee,ieee"),
                ("denormal-fp-math-f32", "preserve-sign,preserve-sign"),
            ] {
                f.add_attribute(AttributeLoc::Function, context.create_string_attribute(key, value));
            }
        }
    }

    /// LLVM's `default<O3>` pipeline for this machine, without LLVM's loop
    /// unroller (as XLA:CPU runs it): unrolling roughly doubled the time
    /// LLVM spends on a model's kernels, and the emitters unroll
    /// themselves where the code depends on it (small reduce-windows,
    /// transpose tiles, reduction lanes). The vectorizers still
    /// interleave.
    pub fn optimize(&self, module: &Module) -> Result<(), String> {
        let options = PassBuilderOptions::create();
        options.set_loop_vectorization(true);
        options.set_loop_slp_vectorization(true);
        options.set_loop_interleaving(true);
        options.set_loop_unrolling(false);
        module.run_passes("default<O3>", &self.machine, options).map_err(|e| e.to_string())
    }

    /// The machine code of `module` as assembly text.
    pub fn assembly(&self, module: &Module) -> Result<String, String> {
        let buffer = self.machine.write_to_memory_buffer(module, FileType::Assembly).map_err(|e| e.to_string())?;
        Ok(String::from_utf8_lossy(buffer.as_slice()).into_owned())
    }
}

impl Drop for HostTarget {
    fn drop(&mut self) {
        // SAFETY: `machine` is not used after this.
        let machine = unsafe { ManuallyDrop::take(&mut self.machine) };
        let mut pool = IDLE.lock().unwrap_or_else(|e| e.into_inner());
        if pool.0.len() < MAX_IDLE {
            pool.0.push((self.identity(), machine));
        }
    }
}

/// Compiled code in memory: the kernels of one module, optimized and
/// compiled to object files by the pooled target machines (one LLVM module
/// per compile thread), then linked into memory by ORC ([`LoadedCode`]).
/// The code stays mapped as long as this lives.
///
/// This is the path saved executables take too (`kernel_objects`, then
/// `LoadedCode::load`), so a JIT-ed and a reloaded executable run the same
/// machine code. MCJIT, used before, built a generic target machine and
/// its x86 subtarget again on every compile.
pub struct Jit {
    code: LoadedCode,
    units: usize,
}

/// One LLVM module in its own LLVM context (contexts are not thread-safe,
/// so each thread compiles in its own).
struct Unit {
    /// Leaked in [`Unit::new`], freed in `drop` after what was made in it.
    context: *mut Context,
    module: Option<Module<'static>>,
    /// The requested functions this unit defines.
    functions: Vec<String>,
}

// SAFETY: a unit's LLVM objects are only used by one thread at a time:
// the thread compiling it, then the owner, which drops it.
unsafe impl Send for Unit {}

impl Unit {
    /// Translates `module` (the `llvm` dialect) into a fresh LLVM context.
    fn new(module: &melior::ir::Module, functions: &[String]) -> Result<Unit, String> {
        let context: &'static Context = Box::leak(Box::new(Context::create()));
        let mut unit = Unit { context: context as *const Context as *mut Context, module: None, functions: Vec::new() };
        let llvm = crate::translate::to_llvm_ir(module, context)?;
        unit.functions = functions
            .iter()
            .filter(|f| llvm.get_function(f).is_some_and(|f| f.count_basic_blocks() > 0))
            .cloned()
            .collect();
        unit.module = Some(llvm);
        Ok(unit)
    }

    /// Optimizes the module and writes it as an ELF object file.
    fn object(&mut self, target: &HostTarget) -> Result<Vec<u8>, String> {
        let llvm = self.module.as_ref().expect("a translated module");
        target.prepare(llvm);
        llvm.verify().map_err(|e| format!("LLVM IR does not verify: {e}"))?;
        target.optimize(llvm)?;
        let buffer = target.machine.write_to_memory_buffer(llvm, FileType::Object).map_err(|e| e.to_string())?;
        Ok(buffer.as_slice().to_vec())
    }
}

impl Drop for Unit {
    fn drop(&mut self) {
        // The module goes first, then the context it was made in, which
        // nothing else references.
        drop(self.module.take());
        // SAFETY: leaked in `Unit::new`; nothing made from it is left.
        unsafe { drop(Box::from_raw(self.context)) };
    }
}

impl Jit {
    /// Translates `module` (the `llvm` dialect: nested kernel modules, the
    /// lowering's output), split into up to `threads` parts, optimizes and
    /// compiles each for `target` on its own thread and links the objects
    /// into memory; `functions` must all be defined.
    pub fn compile_kernels(
        module: &melior::ir::Module,
        target: &HostTarget,
        functions: &[String],
        threads: usize,
    ) -> Result<Jit, String> {
        let objects = kernel_objects(module, target, functions, threads)?;
        Ok(Jit { code: LoadedCode::load(&objects, functions)?, units: objects.len() })
    }

    /// The address of a compiled function.
    pub fn address(&self, name: &str) -> Option<usize> {
        self.code.address(name)
    }

    /// How many LLVM modules the code was compiled in.
    pub fn units(&self) -> usize {
        self.units
    }
}

/// Translates each module into its own LLVM context (translation reads the
/// MLIR context, which is single-threaded); `functions` must all be defined.
fn translate_units(modules: &[melior::ir::Module], functions: &[String]) -> Result<Vec<Unit>, String> {
    let units = modules.iter().map(|m| Unit::new(m, functions)).collect::<Result<Vec<_>, _>>()?;
    let found: usize = units.iter().map(|u| u.functions.len()).sum();
    if found != functions.len() {
        let missing = functions.iter().find(|f| !units.iter().any(|u| u.functions.contains(f)));
        return Err(format!("kernel `{}`: not defined in the LLVM module", missing.map_or("?", |s| s.as_str())));
    }
    Ok(units)
}

/// Runs `step` on every unit, one thread per unit, each with its own
/// target machine (LLVM's are not shared between threads).
fn in_parallel<T: Send>(
    units: &mut [Unit],
    target: &HostTarget,
    step: fn(&mut Unit, &HostTarget) -> Result<T, String>,
) -> Vec<Result<T, String>> {
    if units.len() == 1 {
        return vec![step(&mut units[0], target)];
    }
    let (triple, cpu, features) = (&target.triple, &target.cpu, &target.features);
    std::thread::scope(|scope| {
        let handles: Vec<_> = units
            .iter_mut()
            .map(|unit| scope.spawn(move || step(unit, &HostTarget::with(triple, cpu, features)?)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err("internal error: an LLVM compile thread panicked".into())))
            .collect()
    })
}

/// Object files of the kernels of `module` (the lowering's output), split
/// into up to `threads` parts and optimized and compiled in parallel:
/// what [`Jit::compile_kernels`] links into memory, and what a saved
/// executable keeps ([`LoadedCode::load`] maps them into memory later,
/// without LLVM's optimizer or code generator).
pub fn kernel_objects(
    module: &melior::ir::Module,
    target: &HostTarget,
    functions: &[String],
    threads: usize,
) -> Result<Vec<Vec<u8>>, String> {
    let parts = crate::translate::split_kernel_modules(module, threads);
    let mut units = translate_units(&parts, functions)?;
    in_parallel(&mut units, target, Unit::object).into_iter().collect()
}

/// Object files linked into memory by LLVM's ORC JIT (JITLink), with
/// symbols the objects do not define (the C library's) resolved in the
/// process, as MCJIT resolves them.
pub struct LoadedCode {
    jit: orc::LLVMOrcLLJITRef,
    addresses: HashMap<String, usize>,
}

use inkwell::llvm_sys::{
    error::{LLVMDisposeErrorMessage, LLVMErrorRef, LLVMGetErrorMessage},
    orc2::{self as orc_base, lljit as orc},
};

/// The message of an LLVM error (consumed), or Ok.
fn llvm_result(error: LLVMErrorRef, what: &str) -> Result<(), String> {
    if error.is_null() {
        return Ok(());
    }
    // SAFETY: a non-null error is consumed by LLVMGetErrorMessage; the
    // message is ours to dispose of.
    unsafe {
        let message = LLVMGetErrorMessage(error);
        let text = std::ffi::CStr::from_ptr(message).to_string_lossy().into_owned();
        LLVMDisposeErrorMessage(message);
        Err(format!("{what}: {text}"))
    }
}

impl LoadedCode {
    /// Links `objects` (from [`kernel_objects`], for this host) into memory
    /// and looks up `functions`.
    pub fn load(objects: &[Vec<u8>], functions: &[String]) -> Result<LoadedCode, String> {
        Target::initialize_native(&InitializationConfig::default())?;
        let mut jit = std::ptr::null_mut();
        // SAFETY: a null builder asks for the default LLJIT (host target).
        llvm_result(unsafe { orc::LLVMOrcCreateLLJIT(&mut jit, std::ptr::null_mut()) }, "creating the ORC JIT")?;
        let mut code = LoadedCode { jit, addresses: HashMap::new() };
        // SAFETY: `jit` is live; the generator and the buffers are handed
        // over to it (it owns them from here).
        unsafe {
            let dylib = orc::LLVMOrcLLJITGetMainJITDylib(jit);
            let mut generator = std::ptr::null_mut();
            let prefix = orc::LLVMOrcLLJITGetGlobalPrefix(jit);
            llvm_result(
                orc_base::LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
                    &mut generator,
                    prefix,
                    None,
                    std::ptr::null_mut(),
                ),
                "resolving symbols in the process",
            )?;
            orc_base::LLVMOrcJITDylibAddGenerator(dylib, generator);
            // The compiler-runtime functions the process lacks.
            let mut pairs: Vec<orc_base::LLVMOrcCSymbolMapPair> = crate::builtins::symbols()
                .iter()
                .map(|(name, address)| orc_base::LLVMOrcCSymbolMapPair {
                    Name: orc::LLVMOrcLLJITMangleAndIntern(jit, name.as_ptr()),
                    Sym: orc_base::LLVMJITEvaluatedSymbol {
                        Address: *address as u64,
                        Flags: orc_base::LLVMJITSymbolFlags {
                            GenericFlags: orc_base::LLVMJITSymbolGenericFlags::LLVMJITSymbolGenericFlagsExported as u8
                                | orc_base::LLVMJITSymbolGenericFlags::LLVMJITSymbolGenericFlagsCallable as u8,
                            TargetFlags: 0,
                        },
                    },
                })
                .collect();
            let unit = orc_base::LLVMOrcAbsoluteSymbols(pairs.as_mut_ptr(), pairs.len());
            llvm_result(orc_base::LLVMOrcJITDylibDefine(dylib, unit), "defining the compiler-runtime functions")?;
            for (i, object) in objects.iter().enumerate() {
                let name = std::ffi::CString::new(format!("rxla-kernels-{i}.o")).expect("no NUL");
                let buffer = inkwell::llvm_sys::core::LLVMCreateMemoryBufferWithMemoryRangeCopy(
                    object.as_ptr() as *const _,
                    object.len(),
                    name.as_ptr(),
                );
                llvm_result(orc::LLVMOrcLLJITAddObjectFile(jit, dylib, buffer), &format!("object file {i}"))?;
            }
            for function in functions {
                let name = std::ffi::CString::new(function.as_str()).map_err(|_| "a kernel name has a NUL byte")?;
                let mut address = 0;
                llvm_result(
                    orc::LLVMOrcLLJITLookup(jit, &mut address, name.as_ptr()),
                    &format!("kernel `{function}`"),
                )?;
                code.addresses.insert(function.clone(), address as usize);
            }
        }
        Ok(code)
    }

    /// The address of a loaded function.
    pub fn address(&self, name: &str) -> Option<usize> {
        self.addresses.get(name).copied()
    }
}

impl Drop for LoadedCode {
    fn drop(&mut self) {
        // SAFETY: created in `load`; nothing refers to its code any more.
        let _ = llvm_result(unsafe { orc::LLVMOrcDisposeLLJIT(self.jit) }, "disposing of the ORC JIT");
    }
}

// SAFETY: after `load` the JIT is only kept alive; the code it maps is
// immutable and callable from any thread.
unsafe impl Send for LoadedCode {}
unsafe impl Sync for LoadedCode {}

/// An ELF object file of the kernels of `module` (one flat module of
/// `llvm` dialect kernels), optimized for `target`: what the JIT would
/// load, for linking ahead of time (`hlo-opt --stage=obj`).
pub fn object_file(module: &melior::ir::Module, target: &HostTarget) -> Result<Vec<u8>, String> {
    let context = Context::create();
    let llvm = crate::translate::to_llvm_ir(module, &context)?;
    target.prepare(&llvm);
    llvm.verify().map_err(|e| format!("LLVM IR does not verify: {e}"))?;
    target.optimize(&llvm)?;
    let buffer = target.machine.write_to_memory_buffer(&llvm, FileType::Object).map_err(|e| e.to_string())?;
    Ok(buffer.as_slice().to_vec())
}

/// LLVM IR text of `module` before and after optimization, and the
/// assembly: the `llvm-before-optimizations`, `llvm` and `asm` stages.
pub fn stages(module: &melior::ir::Module, target: &HostTarget) -> Result<(String, String, String), String> {
    let context = Context::create();
    let llvm = crate::translate::to_llvm_ir(module, &context)?;
    target.prepare(&llvm);
    let before = llvm.print_to_string().to_string();
    llvm.verify().map_err(|e| format!("LLVM IR does not verify: {e}"))?;
    target.optimize(&llvm)?;
    let after = llvm.print_to_string().to_string();
    let asm = target.assembly(&llvm)?;
    Ok((before, after, asm))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOOP: &str = "define void @f(ptr %p, i64 %n) {
entry:
  br label %l
l:
  %i = phi i64 [0, %entry], [%j, %l]
  %q = getelementptr float, ptr %p, i64 %i
  %v = load float, ptr %q
  %w = fadd float %v, 1.0
  store float %w, ptr %q
  %j = add i64 %i, 1
  %c = icmp ult i64 %j, %n
  br i1 %c, label %l, label %e
e:
  ret void
}
";

    fn object(target: &HostTarget) -> Vec<u8> {
        let context = Context::create();
        let buffer = inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(LOOP.as_bytes(), "loop");
        let module = context.create_module_from_ir(buffer).expect("parses");
        target.prepare(&module);
        target.optimize(&module).expect("optimizes");
        target.machine.write_to_memory_buffer(&module, FileType::Object).expect("compiles").as_slice().to_vec()
    }

    /// A dropped target's machine serves the next target of the host (the
    /// only user of the pool in this test binary), and compiles the same
    /// code again; a target made while it is held gets another machine.
    #[test]
    fn dropped_targets_lend_their_machine_and_it_compiles_the_same() {
        let first = HostTarget::new().expect("host target");
        let machine = first.machine.as_mut_ptr();
        let before = object(&first);
        drop(first);
        let second = HostTarget::new().expect("host target");
        assert_eq!(second.machine.as_mut_ptr(), machine, "the idle machine is reused");
        assert_eq!(object(&second), before, "the reused machine compiles the same object");
        let third = HostTarget::new().expect("host target");
        assert_ne!(third.machine.as_mut_ptr(), machine, "a held machine is not lent twice");
    }
}
