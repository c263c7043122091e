//! Native code for the host CPU: LLVM's optimization pipeline, assembly,
//! and a JIT that maps the compiled kernels into memory.
//!
//! The target machine is the host's CPU with all its features (AVX-512
//! where present), so the vectorizers use the widest vectors the machine
//! has. Every function gets the host CPU and features as attributes too:
//! MCJIT builds its own generic target machine, and per-function
//! attributes are what code generation honours. Functions also say that
//! denormals are flushed (`denormal-fp-math=preserve-sign`): the runtime
//! runs kernels with FTZ/DAZ set, as XLA:CPU does, and LLVM must not fold
//! constants differently.

use inkwell::{
    attributes::AttributeLoc,
    context::Context,
    execution_engine::ExecutionEngine,
    module::Module,
    passes::PassBuilderOptions,
    targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple},
    OptimizationLevel,
};
use std::collections::HashMap;

/// The host CPU as a compilation target.
pub struct HostTarget {
    machine: TargetMachine,
    pub triple: String,
    pub cpu: String,
    pub features: String,
}

impl HostTarget {
    pub fn new() -> Result<HostTarget, String> {
        Target::initialize_native(&InitializationConfig::default())?;
        let triple = TargetMachine::get_default_triple();
        let target = Target::from_triple(&triple).map_err(|e| e.to_string())?;
        let cpu = TargetMachine::get_host_cpu_name().to_string();
        let features = TargetMachine::get_host_cpu_features().to_string();
        let machine = target
            .create_target_machine(&triple, &cpu, &features, OptimizationLevel::Aggressive, RelocMode::Default, CodeModel::JITDefault)
            .ok_or_else(|| format!("LLVM cannot create a target machine for {cpu} ({})", triple.as_str().to_string_lossy()))?;
        Ok(HostTarget { machine, triple: triple.as_str().to_string_lossy().into_owned(), cpu, features })
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
                ("denormal-fp-math", "preserve-sign,preserve-sign"),
                ("denormal-fp-math-f32", "preserve-sign,preserve-sign"),
            ] {
                f.add_attribute(AttributeLoc::Function, context.create_string_attribute(key, value));
            }
        }
    }

    /// LLVM's `default<O3>` pipeline for this machine.
    pub fn optimize(&self, module: &Module) -> Result<(), String> {
        let options = PassBuilderOptions::create();
        options.set_loop_vectorization(true);
        options.set_loop_slp_vectorization(true);
        options.set_loop_interleaving(true);
        options.set_loop_unrolling(true);
        module.run_passes("default<O3>", &self.machine, options).map_err(|e| e.to_string())
    }

    /// The machine code of `module` as assembly text.
    pub fn assembly(&self, module: &Module) -> Result<String, String> {
        let buffer = self.machine.write_to_memory_buffer(module, FileType::Assembly).map_err(|e| e.to_string())?;
        Ok(String::from_utf8_lossy(buffer.as_slice()).into_owned())
    }
}

/// Compiled code in memory: the JIT engine and the addresses of the
/// requested functions. The code stays mapped as long as this lives.
pub struct Jit {
    /// Dropped by hand, before the context it was made in.
    engine: std::mem::ManuallyDrop<ExecutionEngine<'static>>,
    context: *mut Context,
    addresses: HashMap<String, usize>,
}

// SAFETY: after construction the engine is only read (addresses looked up
// once, at construction); the code it maps is immutable and callable from
// any thread.
unsafe impl Send for Jit {}
unsafe impl Sync for Jit {}

impl Jit {
    /// Translates `module` (the `llvm` dialect), optimizes it for `target`
    /// and maps it into memory; `functions` must all be defined.
    pub fn compile(module: &melior::ir::Module, target: &HostTarget, functions: &[String]) -> Result<Jit, String> {
        let context: &'static Context = Box::leak(Box::new(Context::create()));
        let raw_context = context as *const Context as *mut Context;
        let build = || -> Result<(ExecutionEngine<'static>, HashMap<String, usize>), String> {
            let llvm = crate::translate::to_llvm_ir(module, context)?;
            target.prepare(&llvm);
            llvm.verify().map_err(|e| format!("LLVM IR does not verify: {e}"))?;
            target.optimize(&llvm)?;
            let engine = llvm.create_jit_execution_engine(OptimizationLevel::Aggressive).map_err(|e| e.to_string())?;
            let mut addresses = HashMap::new();
            for name in functions {
                let address = engine.get_function_address(name).map_err(|e| format!("kernel `{name}`: {e}"))?;
                addresses.insert(name.clone(), address);
            }
            Ok((engine, addresses))
        };
        match build() {
            Ok((engine, addresses)) => Ok(Jit { engine: std::mem::ManuallyDrop::new(engine), context: raw_context, addresses }),
            Err(e) => {
                // SAFETY: nothing made from the context survives the error.
                unsafe { drop(Box::from_raw(raw_context)) };
                Err(e)
            }
        }
    }

    /// The address of a compiled function.
    pub fn address(&self, name: &str) -> Option<usize> {
        self.addresses.get(name).copied()
    }
}

impl Drop for Jit {
    fn drop(&mut self) {
        // SAFETY: the engine (and the module it owns) goes first; then the
        // context leaked in `compile`, which nothing else references.
        unsafe {
            std::mem::ManuallyDrop::drop(&mut self.engine);
            drop(Box::from_raw(self.context));
        }
    }
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
