//! The CPU executable: thunk programs, the kernels' machine code and the
//! buffers they run in.

use crate::{
    buffer_assignment,
    driver::CompileTimes,
    entry::{argument_buffers, parameter_specs, result_literal, ParameterSpec},
    executor::{DeviceIds, KernelFn, Machine},
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
    pub(crate) code: Option<rxla_codegen::cpu::LoadedCode>,
    pub buffer_stats: Vec<buffer_assignment::Stats>,
    pub compile_times: CompileTimes,
    /// What the compiler warns about (`file:line:col: warning: ...`), such
    /// as constants a dump elided.
    pub warnings: Vec<String>,
    /// The saved form, with `Options::save_artifact`.
    pub(crate) artifact: Option<Vec<u8>>,
}

/// Bytes of memory of one run, by kind ([`Executable::memory`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryStats {
    /// The entry's parameter buffers (the caller's).
    pub parameters: usize,
    /// The entry's output buffers (outputs in donated parameters excluded).
    pub outputs: usize,
    /// The entry's temporaries, sharing memory by live range.
    pub entry_arena: usize,
    /// The other programs' arenas, summed (an upper bound of what they
    /// add: not all of them are live at once).
    pub nested_arenas: usize,
    /// All temporaries as if none shared memory (what sharing saves).
    pub temporaries_unshared: usize,
    /// The module's constants.
    pub constants: usize,
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
            device: Default::default(),
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

    /// The memory one run needs, by kind (what XLA's buffer assignment
    /// reports): parameters and outputs of the entry, the entry's arena,
    /// the arenas of the programs it runs (loop bodies, branches, calls;
    /// each may be live while the entry's is), and the constants.
    pub fn memory(&self) -> MemoryStats {
        let p = self.entry();
        let bytes = |s: &usize| p.slots[*s].shape.bytes();
        let fresh_outputs = p.outputs.iter().zip(&p.output_params).filter(|(_, d)| d.is_none()).map(|(s, _)| bytes(s));
        MemoryStats {
            parameters: p.param_leaves.iter().map(bytes).sum(),
            outputs: fresh_outputs.sum(),
            entry_arena: p.arena_size,
            nested_arenas: self
                .programs
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != self.entry)
                .map(|(_, q)| q.arena_size)
                .sum(),
            temporaries_unshared: self.buffer_stats.iter().map(|s| s.temp_bytes_unshared).sum(),
            constants: self.constants.iter().map(|c| c.len()).sum(),
        }
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
        self.execute_as(DeviceIds::default(), args)
    }

    /// [`Executable::execute`] as device `device` of a multi-device run.
    fn execute_as(&self, device: DeviceIds, args: &[Buffer]) -> Result<Vec<Buffer>, RunError> {
        let owned = self.donated_parameters(args.len());
        let donated: Vec<Buffer> = owned.iter().map(|&i| args[i].clone()).collect();
        let mut params: Vec<*mut u8> = args.iter().map(|b| b.as_ptr() as *mut u8).collect();
        for (&i, b) in owned.iter().zip(&donated) {
            params[i] = b.as_ptr() as *mut u8;
        }
        self.run_entry_as(device, &params, donated, &owned)
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
        self.run_entry_as(DeviceIds::default(), params, donated, owned)
    }

    fn run_entry_as(
        &self,
        device: DeviceIds,
        params: &[*mut u8],
        donated: Vec<Buffer>,
        owned: &[usize],
    ) -> Result<Vec<Buffer>, RunError> {
        let _flush = pool::FlushDenormals::new();
        let fresh = Machine { device, ..self.machine() }.run(self.entry, params)?;
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
        result_literal(self.entry(), bytes)
    }

    /// The result literal of output buffers, freeing each buffer (not to
    /// the pool of freed maps) as soon as its literal is made: the last
    /// result of a run whose outputs are large, so that the literal and
    /// the buffers are not both held.
    pub fn into_result(&self, outputs: Vec<Buffer>) -> Literal {
        /// Frees its buffer when the literal has been made of it.
        struct Consumed(Option<Buffer>);
        impl AsRef<[u8]> for Consumed {
            fn as_ref(&self) -> &[u8] {
                self.0.as_ref().map_or(&[], Buffer::as_slice)
            }
        }
        impl Drop for Consumed {
            fn drop(&mut self) {
                if let Some(b) = self.0.take() {
                    b.free();
                }
            }
        }
        result_literal(self.entry(), outputs.into_iter().map(|b| Consumed(Some(b))))
    }

    /// Prepares, executes and converts the result.
    pub fn run(&self, args: &[Literal]) -> Result<Literal, RunError> {
        let buffers = self.prepare(args)?;
        let outputs = self.execute(&buffers)?;
        Ok(self.result(&outputs))
    }

    /// Runs `replicas x partitions` devices of the module at once, one
    /// thread each: device `d` is replica `d / partitions` and partition
    /// `d % partitions` (XLA's default device assignment), on
    /// `args_per_device[d]`; returns each device's result in device order.
    /// Collectives exchange data between the devices' threads (in the
    /// interpreter's rendezvous, `rxla_interpreter::replicated::Replicas`),
    /// as XLA's CPU client runs several devices in one process. A device
    /// that fails ends the run with its error.
    pub fn run_devices(
        &self,
        replicas: usize,
        partitions: usize,
        args_per_device: &[Vec<Literal>],
    ) -> Result<Vec<Literal>, RunError> {
        crate::executor::run_each_device(replicas, partitions, args_per_device, |device, args| {
            let buffers = self.prepare(args)?;
            let outputs = self.execute_as(device, &buffers)?;
            Ok(self.result(&outputs))
        })
    }

    /// Runs device `d` of `replicas x partitions` on the calling thread,
    /// whose collectives go through the thread's exchange (the other
    /// devices run elsewhere: other processes under MPI, see
    /// `rxla_interpreter::replicated::with_exchange`).
    pub fn run_device(
        &self,
        d: usize,
        replicas: usize,
        partitions: usize,
        args: &[Literal],
    ) -> Result<Literal, RunError> {
        let buffers = self.prepare(args)?;
        let outputs = self.execute_as(DeviceIds::of(d, replicas, partitions), &buffers)?;
        Ok(self.result(&outputs))
    }

    /// [`Executable::run_devices`] with one partition: replica `r` on
    /// `args_per_replica[r]`.
    pub fn run_replicated(&self, args_per_replica: &[Vec<Literal>]) -> Result<Vec<Literal>, RunError> {
        self.run_devices(args_per_replica.len(), 1, args_per_replica)
    }
}
