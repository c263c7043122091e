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

use crate::{
    effort::{self, Effort},
    unit::{in_parallel, Unit},
};
use inkwell::{
    attributes::{Attribute, AttributeLoc},
    context::Context,
    module::Module,
    passes::PassBuilderOptions,
    targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple},
    OptimizationLevel,
};
use std::{
    collections::HashMap,
    mem::ManuallyDrop,
    sync::{
        atomic::{AtomicU64, Ordering},
        Condvar, Mutex, OnceLock,
    },
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
        let nounwind = Attribute::get_named_enum_kind_id("nounwind");
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
            // Kernels are called from Rust through the C ABI and call only
            // the C library and rxla's builtins: nothing unwinds through
            // them (and must not). Said here rather than inferred by O3,
            // which not every kernel gets; it spares the unwind tables.
            f.add_attribute(AttributeLoc::Function, context.create_enum_attribute(nounwind, 0));
        }
    }

    /// Optimizes `module` for this machine, each function with the effort
    /// it needs ([`crate::effort`]): the light pipeline where rxla's
    /// lowering vectorized every loop, LLVM's `default<O3>` elsewhere.
    ///
    /// O3 runs without LLVM's loop unroller (as XLA:CPU runs it):
    /// unrolling roughly doubled the time LLVM spends on a model's kernels,
    /// and the emitters unroll themselves where the code depends on it
    /// (small reduce-windows, transpose tiles, reduction lanes). The
    /// vectorizers still interleave.
    pub fn optimize(&self, module: &Module) -> Result<(), String> {
        let (mut light, mut full) = (Vec::new(), Vec::new());
        for (f, e) in effort::efforts(module) {
            match e {
                Effort::Light => light.push(f),
                Effort::Full => full.push(f),
            }
        }
        if !light.is_empty() {
            effort::skipping(module, &full, || self.run_pipeline(module, effort::LIGHT))?;
        }
        if !full.is_empty() {
            effort::skipping(module, &light, || self.run_pipeline(module, effort::FULL))?;
        }
        Ok(())
    }

    fn run_pipeline(&self, module: &Module, pipeline: &str) -> Result<(), String> {
        let options = PassBuilderOptions::create();
        options.set_loop_vectorization(true);
        options.set_loop_slp_vectorization(true);
        options.set_loop_interleaving(true);
        options.set_loop_unrolling(false);
        module.run_passes(pipeline, &self.machine, options).map_err(|e| e.to_string())
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

/// Optimizes a unit's module for the host and writes it as an ELF object
/// file.
fn object(unit: &mut Unit, target: &HostTarget) -> Result<Vec<u8>, String> {
    let llvm = unit.module();
    target.prepare(llvm);
    llvm.verify().map_err(|e| format!("LLVM IR does not verify: {e}"))?;
    target.optimize(llvm)?;
    let buffer = target.machine.write_to_memory_buffer(llvm, FileType::Object).map_err(|e| e.to_string())?;
    Ok(buffer.as_slice().to_vec())
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
    let (triple, cpu, features) = (&target.triple, &target.cpu, &target.features);
    in_parallel(&mut units, target, || HostTarget::with(triple, cpu, features), |unit, _, target| object(unit, target))
        .into_iter()
        .collect()
}

/// Object files linked into memory by LLVM's ORC JIT (JITLink), with
/// symbols the objects do not define (the C library's) resolved in the
/// process, as MCJIT resolves them. Each is a JITDylib of the process's one
/// JIT ([`SharedJit`]).
pub struct LoadedCode {
    dylib: orc_base::LLVMOrcJITDylibRef,
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

/// The process's ORC JIT, made at the first load and kept: an LLJIT made
/// per executable detected the host and built two target machines each
/// time (0.4 ms, an eighth of compiling a one-kernel module). Executables
/// get a JITDylib each, emptied when they are dropped.
struct SharedJit(orc::LLVMOrcLLJITRef);

// SAFETY: LLJIT's execution session is thread-safe (JITDylibs are created,
// filled, looked up and cleared under its lock).
unsafe impl Send for SharedJit {}
unsafe impl Sync for SharedJit {}

fn shared_jit() -> Result<&'static SharedJit, String> {
    static JIT: OnceLock<Result<SharedJit, String>> = OnceLock::new();
    JIT.get_or_init(|| {
        Target::initialize_native(&InitializationConfig::default())?;
        let mut jit = std::ptr::null_mut();
        // SAFETY: a null builder asks for the default LLJIT (host target).
        llvm_result(unsafe { orc::LLVMOrcCreateLLJIT(&mut jit, std::ptr::null_mut()) }, "creating the ORC JIT")?;
        Ok(SharedJit(jit))
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// What a lookup's callback hands back: the addresses by interned name,
/// or the error.
type Found = Option<Result<Vec<(usize, usize)>, String>>;

/// `LLVMOrcExecutionSessionLookup`'s callback: records the result and
/// wakes the waiting loader.
extern "C" fn lookup_done(
    error: LLVMErrorRef,
    result: orc_base::LLVMOrcCSymbolMapPairs,
    pairs: usize,
    ctx: *mut std::ffi::c_void,
) {
    // SAFETY: `ctx` is the loader's `(Mutex<Found>, Condvar)`, alive until
    // it has seen a result; `result` holds `pairs` pairs on success.
    let (found, done) = unsafe { &*(ctx as *const (Mutex<Found>, Condvar)) };
    let value = match llvm_result(error, "looking up the kernels") {
        Ok(()) => Ok((0..pairs)
            .map(|i| {
                let pair = unsafe { &*result.add(i) };
                (pair.Name as usize, pair.Sym.Address as usize)
            })
            .collect()),
        Err(e) => Err(e),
    };
    *found.lock().unwrap_or_else(|e| e.into_inner()) = Some(value);
    done.notify_all();
}

impl LoadedCode {
    /// Links `objects` (from [`kernel_objects`], for this host) into memory
    /// and looks up `functions`.
    pub fn load(objects: &[Vec<u8>], functions: &[String]) -> Result<LoadedCode, String> {
        let jit = shared_jit()?.0;
        // SAFETY: the JIT is live for the process; the buffers are handed
        // over to it (it owns them from here); the lookup's context
        // outlives its callback (waited for below).
        unsafe {
            let session = orc::LLVMOrcLLJITGetExecutionSession(jit);
            let code = LoadedCode { dylib: dylib(jit, session)?, addresses: HashMap::new() };
            let dylib = code.dylib;
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
            code.look_up(jit, session, functions)
        }
    }

    /// Looks up `functions` in this code's dylib, in one lookup (which
    /// links the objects).
    ///
    /// # Safety
    /// `jit` and `session` are the shared JIT's.
    unsafe fn look_up(
        mut self,
        jit: orc::LLVMOrcLLJITRef,
        session: orc_base::LLVMOrcExecutionSessionRef,
        functions: &[String],
    ) -> Result<LoadedCode, String> {
        if functions.is_empty() {
            return Ok(self);
        }
        let mut interned = Vec::with_capacity(functions.len());
        for function in functions {
            let name = std::ffi::CString::new(function.as_str()).map_err(|_| "a kernel name has a NUL byte")?;
            // SAFETY: a live JIT; the entry is retained for us.
            interned.push(unsafe { orc::LLVMOrcLLJITMangleAndIntern(jit, name.as_ptr()) });
        }
        // The lookup takes over one reference of each name.
        let mut symbols: Vec<orc_base::LLVMOrcCLookupSetElement> = interned
            .iter()
            .map(|&name| {
                // SAFETY: a live pool entry; this reference goes to the lookup.
                unsafe { orc_base::LLVMOrcRetainSymbolStringPoolEntry(name) };
                orc_base::LLVMOrcCLookupSetElement {
                    Name: name,
                    LookupFlags: orc_base::LLVMOrcSymbolLookupFlags::LLVMOrcSymbolLookupFlagsRequiredSymbol,
                }
            })
            .collect();
        let mut order = [orc_base::LLVMOrcCJITDylibSearchOrderElement {
            JD: self.dylib,
            JDLookupFlags: orc_base::LLVMOrcJITDylibLookupFlags::LLVMOrcJITDylibLookupFlagsMatchExportedSymbolsOnly,
        }];
        let ctx: Box<(Mutex<Found>, Condvar)> = Box::new((Mutex::new(None), Condvar::new()));
        // SAFETY: the arrays live for the call; `ctx` until the callback
        // has run (waited for below).
        unsafe {
            orc_base::LLVMOrcExecutionSessionLookup(
                session,
                orc_base::LLVMOrcLookupKind::LLVMOrcLookupKindStatic,
                order.as_mut_ptr(),
                order.len(),
                symbols.as_mut_ptr(),
                symbols.len(),
                lookup_done,
                &*ctx as *const (Mutex<Found>, Condvar) as *mut std::ffi::c_void,
            );
        }
        let (found, done) = &*ctx;
        let mut guard = found.lock().unwrap_or_else(|e| e.into_inner());
        while guard.is_none() {
            guard = done.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
        let result = guard.take().expect("a result");
        drop(guard);
        let by_name: Result<HashMap<usize, usize>, String> = result.map(|pairs| pairs.into_iter().collect());
        let addresses: Vec<Option<usize>> =
            interned.iter().map(|&name| by_name.as_ref().ok().and_then(|m| m.get(&(name as usize)).copied())).collect();
        for &name in &interned {
            // SAFETY: our reference from `MangleAndIntern`.
            unsafe { orc_base::LLVMOrcReleaseSymbolStringPoolEntry(name) };
        }
        by_name?;
        for (function, address) in functions.iter().zip(addresses) {
            match address {
                Some(a) if a != 0 => {
                    self.addresses.insert(function.clone(), a);
                }
                _ => return Err(format!("kernel `{function}`: not found in the loaded code")),
            }
        }
        Ok(self)
    }

    /// The address of a loaded function.
    pub fn address(&self, name: &str) -> Option<usize> {
        self.addresses.get(name).copied()
    }
}

/// Emptied JITDylibs of the shared JIT, for the next loads: ORC's C API
/// cannot remove a JITDylib from its session, so one per load would grow
/// the process by ~10 KB per compile.
struct FreeDylibs(Vec<orc_base::LLVMOrcJITDylibRef>);

// SAFETY: an emptied dylib is used by no one until `dylib` hands it out.
unsafe impl Send for FreeDylibs {}

static FREE_DYLIBS: Mutex<FreeDylibs> = Mutex::new(FreeDylibs(Vec::new()));

/// An empty JITDylib of the shared JIT that resolves the process's symbols:
/// an emptied one if there is one, else a new one.
///
/// # Safety
/// `jit` and `session` are the shared JIT's.
unsafe fn dylib(
    jit: orc::LLVMOrcLLJITRef,
    session: orc_base::LLVMOrcExecutionSessionRef,
) -> Result<orc_base::LLVMOrcJITDylibRef, String> {
    if let Some(dylib) = FREE_DYLIBS.lock().unwrap_or_else(|e| e.into_inner()).0.pop() {
        return Ok(dylib);
    }
    static CREATED: AtomicU64 = AtomicU64::new(0);
    let name = format!("rxla-code-{}", CREATED.fetch_add(1, Ordering::Relaxed));
    let name = std::ffi::CString::new(name).expect("no NUL");
    // SAFETY: the name is unique; the generator is handed over to the
    // dylib, and stays with it when it is emptied.
    unsafe {
        let mut dylib = std::ptr::null_mut();
        llvm_result(
            orc_base::LLVMOrcExecutionSessionCreateJITDylib(session, &mut dylib, name.as_ptr()),
            "creating a JITDylib",
        )?;
        let mut generator = std::ptr::null_mut();
        llvm_result(
            orc_base::LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
                &mut generator,
                orc::LLVMOrcLLJITGetGlobalPrefix(jit),
                None,
                std::ptr::null_mut(),
            ),
            "resolving symbols in the process",
        )?;
        orc_base::LLVMOrcJITDylibAddGenerator(dylib, generator);
        Ok(dylib)
    }
}

impl Drop for LoadedCode {
    fn drop(&mut self) {
        // SAFETY: a dylib of the shared JIT; nothing refers to its code any
        // more. Clearing frees the code's memory and symbols; the emptied
        // dylib is used again.
        if llvm_result(unsafe { orc_base::LLVMOrcJITDylibClear(self.dylib) }, "unloading kernels").is_ok() {
            FREE_DYLIBS.lock().unwrap_or_else(|e| e.into_inner()).0.push(self.dylib);
        }
    }
}

// SAFETY: after `load` the dylib is only kept; the code it maps is
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

    /// `@f(ptr p, i64 n)` storing `value` into `p[0..n]`, as an object.
    fn filler(target: &HostTarget, value: f32) -> Vec<u8> {
        let ir = format!(
            "define void @f(ptr %p, i64 %n) {{
entry:
  br label %l
l:
  %i = phi i64 [0, %entry], [%j, %l]
  %q = getelementptr float, ptr %p, i64 %i
  store float {value:.1}, ptr %q
  %j = add i64 %i, 1
  %c = icmp ult i64 %j, %n
  br i1 %c, label %l, label %e
e:
  ret void
}}
"
        );
        let context = Context::create();
        let buffer = inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "filler");
        let module = context.create_module_from_ir(buffer).expect("parses");
        target.prepare(&module);
        target.optimize(&module).expect("optimizes");
        target.machine.write_to_memory_buffer(&module, FileType::Object).expect("compiles").as_slice().to_vec()
    }

    fn fill(code: &LoadedCode) -> f32 {
        let f = code.address("f").expect("f is loaded");
        // SAFETY: `f` has the signature `filler` compiled.
        let f = unsafe { std::mem::transmute::<usize, unsafe extern "C" fn(*mut f32, i64)>(f) };
        let mut out = [0f32; 5];
        unsafe { f(out.as_mut_ptr(), 5) };
        assert!(out.iter().all(|&x| x == out[0]));
        out[0]
    }

    /// Loaded codes share the process's JIT but not their symbols: two
    /// live ones define the same name apart, and a dropped one's emptied
    /// dylib takes the next load, from several threads at once.
    #[test]
    fn loaded_codes_keep_their_symbols_apart() {
        let target = HostTarget::new().expect("host target");
        let names = ["f".to_string()];
        let one = LoadedCode::load(&[filler(&target, 1.0)], &names).expect("loads");
        let two = LoadedCode::load(&[filler(&target, 2.0)], &names).expect("loads");
        assert_eq!((fill(&one), fill(&two)), (1.0, 2.0));
        drop(one);
        let three = LoadedCode::load(&[filler(&target, 3.0)], &names).expect("loads into the emptied dylib");
        assert_eq!((fill(&two), fill(&three)), (2.0, 3.0));
        let objects: Vec<Vec<u8>> = (0..4).map(|i| filler(&target, 10.0 + i as f32)).collect();
        std::thread::scope(|scope| {
            for (i, object) in objects.iter().enumerate() {
                let names = &names;
                scope.spawn(move || {
                    for _ in 0..5 {
                        let code = LoadedCode::load(std::slice::from_ref(object), names).expect("loads");
                        assert_eq!(fill(&code), 10.0 + i as f32);
                    }
                });
            }
        });
        assert!(LoadedCode::load(&[filler(&target, 4.0)], &["g".to_string()]).is_err(), "a missing kernel");
    }
}
