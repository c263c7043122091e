//! The CPU executable: thunk programs, the kernels' machine code and the
//! buffers they run in.

use crate::{
    buffer_assignment,
    driver::CompileTimes,
    entry::{argument_buffers, parameter_specs, result_literal, ParameterSpec},
    executor::{KernelFn, Machine},
    pool,
    program::{KernelInfo, Program},
    RunError,
};
use rxla_interpreter::Literal;
use rxla_library::array::Buffer;
use std::sync::Mutex;

/// A compiled module, ready to run (any number of times, from any thread).
pub struct Executable {
    pub(crate) programs: Vec<Program>,
    pub(crate) entry: usize,
    pub(crate) kernels: Vec<KernelInfo>,
    pub(crate) functions: Vec<Option<KernelFn>>,
    pub(crate) constants: Vec<Buffer>,
    pub(crate) arenas: Vec<Mutex<Vec<Buffer>>>,
    /// The kernels' code, kept mapped (`functions` point into it).
    #[allow(dead_code)]
    pub(crate) code: Option<KernelCode>,
    pub buffer_stats: Vec<buffer_assignment::Stats>,
    pub compile_times: CompileTimes,
    /// What the compiler warns about (`file:line:col: warning: ...`), such
    /// as constants a dump elided.
    pub warnings: Vec<String>,
    /// The saved form, with `Options::save_artifact`.
    pub(crate) artifact: Option<Vec<u8>>,
}

/// Where the kernels' machine code lives.
pub(crate) enum KernelCode {
    /// Compiled in memory by MCJIT.
    Jit(rxla_codegen::cpu::Jit),
    /// Object files linked into memory (a saved executable).
    Loaded(rxla_codegen::cpu::LoadedCode),
}

impl KernelCode {
    pub(crate) fn address(&self, name: &str) -> Option<usize> {
        match self {
            KernelCode::Jit(jit) => jit.address(name),
            KernelCode::Loaded(code) => code.address(name),
        }
    }
}

impl Executable {
    /// How many distinct kernels were compiled (fusions of the same
    /// structure share one).
    pub fn num_kernels(&self) -> usize {
        self.kernels.len()
    }

    /// The executable in its saved form (compiled with
    /// `Options::save_artifact`): write it to a file and run it later with
    /// [`crate::load_executable`], without recompiling.
    pub fn artifact(&self) -> Option<&[u8]> {
        self.artifact.as_deref()
    }

    fn entry(&self) -> &Program {
        &self.programs[self.entry]
    }

    fn machine(&self) -> Machine<'_> {
        Machine {
            programs: &self.programs,
            kernels: &self.kernels,
            functions: &self.functions,
            constants: &self.constants,
            arenas: &self.arenas,
            profile: None,
            depth: 0,
        }
    }

    /// Runs on prepared arguments and returns the time of every step (one
    /// line each: what it is, and its time); steps of nested programs
    /// (loop bodies, branches, calls) follow the step that runs them, each
    /// level marked by a leading `executor::NESTED`.
    pub fn profile(&self, args: &[Buffer]) -> Result<Vec<(String, std::time::Duration)>, RunError> {
        let _flush = pool::FlushDenormals::new();
        let sink = Mutex::new(Vec::new());
        let params: Vec<*mut u8> = args.iter().map(|b| b.as_ptr() as *mut u8).collect();
        Machine { profile: Some(&sink), ..self.machine() }.run(self.entry, &params)?;
        Ok(sink.into_inner().unwrap_or_else(|e| e.into_inner()))
    }

    /// The flattened parameter leaves.
    pub fn parameters(&self) -> Vec<ParameterSpec> {
        parameter_specs(self.entry())
    }

    /// The compiled kernels (name, workgroups, emitter).
    pub fn kernels(&self) -> &[KernelInfo] {
        &self.kernels
    }

    /// Argument buffers (physical layouts) for `args`, one literal per
    /// parameter (tuples are flattened).
    pub fn prepare(&self, args: &[Literal]) -> Result<Vec<Buffer>, RunError> {
        argument_buffers(self.entry(), args)
    }

    /// Runs on prepared arguments; returns the output buffers (physical
    /// layouts, one per result leaf). Arguments the module donates to its
    /// outputs (`input_output_alias`) are copied first, so `args` stay
    /// unchanged; [`Executable::execute_donated`] avoids the copies.
    pub fn execute(&self, args: &[Buffer]) -> Result<Vec<Buffer>, RunError> {
        let owned = self.donated_parameters(args.len());
        let donated: Vec<Buffer> = owned.iter().map(|&i| args[i].clone()).collect();
        let mut params: Vec<*mut u8> = args.iter().map(|b| b.as_ptr() as *mut u8).collect();
        for (&i, b) in owned.iter().zip(&donated) {
            params[i] = b.as_ptr() as *mut u8;
        }
        self.run_entry(&params, donated, &owned)
    }

    /// Runs, taking the arguments: an argument the module aliases to an
    /// output (`input_output_alias`) may be updated in place and returned
    /// as that output, without a copy (JAX's buffer donation).
    pub fn execute_donated(&self, mut args: Vec<Buffer>) -> Result<Vec<Buffer>, RunError> {
        let owned = self.donated_parameters(args.len());
        // Moving a Buffer does not move its memory: the pointers stay valid.
        let params: Vec<*mut u8> = args.iter_mut().map(|b| b.as_mut_ptr()).collect();
        let donated: Vec<Buffer> = owned.iter().map(|&i| std::mem::replace(&mut args[i], Buffer::zeroed(0))).collect();
        self.run_entry(&params, donated, &owned)
    }

    /// The parameters whose buffers hold outputs.
    fn donated_parameters(&self, n: usize) -> Vec<usize> {
        let p = self.entry();
        (0..n).filter(|i| p.output_params.contains(&Some(*i))).collect()
    }

    /// Runs the entry program; `donated[j]` is the buffer of parameter
    /// `owned[j]`, which outputs may live in.
    fn run_entry(&self, params: &[*mut u8], donated: Vec<Buffer>, owned: &[usize]) -> Result<Vec<Buffer>, RunError> {
        let _flush = pool::FlushDenormals::new();
        let fresh = self.machine().run(self.entry, params)?;
        let p = self.entry();
        let mut donated: Vec<Option<Buffer>> = donated.into_iter().map(Some).collect();
        let mut fresh = fresh.into_iter();
        let mut out = Vec::with_capacity(p.outputs.len());
        for k in 0..p.outputs.len() {
            match p.output_params.get(k).copied().flatten() {
                Some(i) => {
                    let j = owned.iter().position(|&x| x == i).expect("a donated parameter");
                    out.push(donated[j].take().expect("one output per donated parameter"));
                }
                None => out.push(fresh.next().expect("one buffer per output")),
            }
        }
        Ok(out)
    }

    /// The result literal (logical layouts) of output buffers.
    pub fn result(&self, outputs: &[Buffer]) -> Literal {
        let bytes: Vec<&[u8]> = outputs.iter().map(|b| b.as_slice()).collect();
        result_literal(self.entry(), &bytes)
    }

    /// Prepares, executes and converts the result.
    pub fn run(&self, args: &[Literal]) -> Result<Literal, RunError> {
        let buffers = self.prepare(args)?;
        let outputs = self.execute(&buffers)?;
        Ok(self.result(&outputs))
    }
}
