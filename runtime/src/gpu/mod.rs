//! rxla's GPU backend: compiles an HLO module to PTX and thunk programs
//! ([`compiler`]), and runs them on an NVIDIA GPU through the CUDA driver
//! ([`device`], [`executor`]); [`plan`] says where each step runs and
//! prints the thunk sequence; [`sort`] is the device's radix sort.
//!
//! Compilation needs no GPU. Running needs the CUDA driver, loaded at run
//! time: [`GpuExecutable::run`] fails with a clear message where there is
//! none.

pub mod compiler;
pub mod device;
pub mod executor;
pub mod plan;
pub mod sort;

pub use compiler::{compile_hlo_text, compile_module, GpuOptions};

use crate::executor::DeviceIds;
use crate::{
    executor::KernelFn,
    program::{KernelInfo, Program},
    CompileTimes, ParameterSpec, RunError,
};
use device::{Backend, Device, DeviceBuffer, HostBackend};
use executor::{GpuMachine, Loaded};
use rxla_interpreter::Literal;
use rxla_library::array::Buffer;
use std::sync::{Arc, Mutex};

/// A module compiled for the GPU.
pub struct GpuExecutable {
    pub(crate) programs: Vec<Program>,
    pub(crate) entry: usize,
    pub(crate) kernels: Vec<KernelInfo>,
    /// Host code of the host kernels (sort comparators).
    pub(crate) host_functions: Vec<Option<KernelFn>>,
    pub(crate) constants: Vec<Buffer>,
    /// Keeps the host kernels' code mapped.
    #[allow(dead_code)]
    pub(crate) jit: Option<rxla_codegen::cpu::Jit>,
    /// Every GPU kernel, in one PTX module.
    pub ptx: String,
    pub ptx_target: rxla_codegen::gpu::PtxTarget,
    pub device_target: rxla_emitters::GpuTarget,
    pub buffer_stats: Vec<crate::buffer_assignment::Stats>,
    pub compile_times: CompileTimes,
    /// What the compiler warns about (`file:line:col: warning: ...`), such
    /// as constants a dump elided.
    pub warnings: Vec<String>,
    /// The kernels and constants on the device, after the first run.
    pub(crate) loaded: Mutex<Option<Arc<Loaded>>>,
    /// With `GpuOptions::emulate`: every GPU kernel compiled for the CPU
    /// too, and runs go to the host backend.
    pub(crate) emulation: Option<Emulation>,
}

/// The CPU versions of an executable's GPU kernels.
pub(crate) struct Emulation {
    /// Keeps their code mapped.
    #[allow(dead_code)]
    pub(crate) jit: Option<rxla_codegen::cpu::Jit>,
    /// Per kernel: the CPU entry point and workgroups (GPU kernels only).
    pub(crate) kernels: Vec<Option<(KernelFn, i64)>>,
}

/// Arguments on the device.
pub struct DeviceArgs {
    buffers: Vec<DeviceBuffer>,
}

/// Outputs on the device (one buffer per result leaf).
pub struct DeviceOutputs {
    buffers: Vec<DeviceBuffer>,
}

impl GpuExecutable {
    /// How many distinct kernels were compiled (fusions of the same
    /// structure share one).
    pub fn num_kernels(&self) -> usize {
        self.kernels.len()
    }

    fn entry(&self) -> &Program {
        &self.programs[self.entry]
    }

    /// The flattened parameter leaves.
    pub fn parameters(&self) -> Vec<ParameterSpec> {
        crate::entry::parameter_specs(self.entry())
    }

    /// The compiled kernels (name, launch dimensions, emitter).
    pub fn kernels(&self) -> &[KernelInfo] {
        &self.kernels
    }

    /// The thunk sequence as text (what `hlo-opt --stage=thunks` prints);
    /// dots are shown as cuBLAS gemms where cuBLAS can run them.
    pub fn describe(&self) -> String {
        let device_kernels = self.kernels.iter().filter(|k| k.launch.is_some()).count();
        let mut out = format!(
            "// {} kernels in PTX {}.{} for {} ({} bytes of PTX); {} host kernels\n",
            device_kernels,
            self.ptx_target.ptx_version.0,
            self.ptx_target.ptx_version.1,
            self.ptx_target.sm,
            self.ptx.len(),
            self.kernels.len() - device_kernels
        );
        out.push_str(&plan::describe(&self.programs, self.entry, &self.kernels, true));
        out
    }

    /// The device, with this executable's kernels and constants loaded
    /// (once).
    fn load(&self) -> Result<Arc<Loaded>, RunError> {
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(l) = loaded.as_ref() {
            l.device.bind().map_err(RunError)?;
            return Ok(l.clone());
        }
        let l = if self.emulation.is_some() {
            let host: Arc<dyn Backend> = Arc::new(HostBackend::new());
            Arc::new(Loaded::on_host(self, host)?)
        } else {
            Arc::new(Loaded::on_gpu(self, shared_device().map_err(RunError)?)?)
        };
        *loaded = Some(l.clone());
        Ok(l)
    }

    /// The name of the GPU runs go to (opens the device).
    pub fn device_name(&self) -> Result<String, RunError> {
        Ok(self.load()?.device.describe())
    }

    /// Copies `args` (one literal per parameter) to the device.
    pub fn prepare(&self, args: &[Literal]) -> Result<DeviceArgs, RunError> {
        let loaded = self.load()?;
        let host = crate::entry::argument_buffers(self.entry(), args)?;
        let buffers = host
            .iter()
            .map(|b| DeviceBuffer::upload(&loaded.device, b.as_slice()))
            .collect::<Result<_, _>>()
            .map_err(RunError)?;
        Ok(DeviceArgs { buffers })
    }

    /// Runs on device arguments and waits for the GPU. Arguments the
    /// module donates to its outputs are copied first, so `args` stay
    /// unchanged.
    pub fn execute(&self, args: &DeviceArgs) -> Result<DeviceOutputs, RunError> {
        self.execute_inner(args, None, DeviceIds::default())
    }

    fn execute_inner(
        &self,
        args: &DeviceArgs,
        profile: Option<&Mutex<Vec<(String, std::time::Duration)>>>,
        device_ids: DeviceIds,
    ) -> Result<DeviceOutputs, RunError> {
        let loaded = self.load()?;
        let p = self.entry();
        let device = &loaded.device;
        // Donated parameters: fresh copies, which become the outputs.
        let mut donated: Vec<(usize, DeviceBuffer)> = Vec::new();
        let mut params: Vec<u64> = args.buffers.iter().map(|b| b.ptr).collect();
        for (i, param) in params.iter_mut().enumerate() {
            if p.output_params.contains(&Some(i)) {
                let copy = DeviceBuffer::alloc(device, args.buffers[i].bytes).map_err(RunError)?;
                device.copy(copy.ptr, *param, args.buffers[i].bytes).map_err(RunError)?;
                *param = copy.ptr;
                donated.push((i, copy));
            }
        }
        let machine = GpuMachine { exe: self, loaded: &loaded, profile, device: device_ids };
        let fresh = machine.run(self.entry, &params)?;
        device.synchronize().map_err(RunError)?;
        let mut fresh = fresh.into_iter();
        let mut buffers = Vec::with_capacity(p.outputs.len());
        for k in 0..p.outputs.len() {
            match p.output_params.get(k).copied().flatten() {
                Some(i) => {
                    let j = donated.iter().position(|(x, _)| *x == i).expect("a donated parameter");
                    buffers.push(donated.remove(j).1);
                }
                None => buffers.push(fresh.next().expect("one buffer per output")),
            }
        }
        Ok(DeviceOutputs { buffers })
    }

    /// Runs and returns the time of every step of the entry program (the
    /// stream is synchronized after each).
    pub fn profile(&self, args: &DeviceArgs) -> Result<Vec<(String, std::time::Duration)>, RunError> {
        let sink = Mutex::new(Vec::new());
        self.execute_inner(args, Some(&sink), DeviceIds::default())?;
        Ok(sink.into_inner().unwrap_or_else(|e| e.into_inner()))
    }

    /// The result literal of device outputs (copied to the host).
    pub fn result(&self, outputs: &DeviceOutputs) -> Result<Literal, RunError> {
        let host: Vec<Vec<u8>> =
            outputs.buffers.iter().map(|b| b.to_host()).collect::<Result<_, _>>().map_err(RunError)?;
        Ok(crate::entry::result_literal(self.entry(), host))
    }

    /// Prepares, executes and copies the result back.
    pub fn run(&self, args: &[Literal]) -> Result<Literal, RunError> {
        let device_args = self.prepare(args)?;
        let outputs = self.execute(&device_args)?;
        self.result(&outputs)
    }

    /// Runs `replicas x partitions` devices of the module at once, one
    /// host thread each (device `d`: replica `d / partitions`, partition
    /// `d % partitions`) on `args_per_device[d]`, all on this process's GPU
    /// (or its emulation); returns each device's result in device order.
    /// Collectives are host steps that rendezvous between the threads, as
    /// on the CPU (`Executable::run_devices`).
    pub fn run_devices(
        &self,
        replicas: usize,
        partitions: usize,
        args_per_device: &[Vec<Literal>],
    ) -> Result<Vec<Literal>, RunError> {
        let loaded = self.load()?;
        crate::executor::run_each_device(replicas, partitions, args_per_device, |device, args| {
            loaded.device.bind().map_err(RunError)?;
            let device_args = self.prepare(args)?;
            let outputs = self.execute_inner(&device_args, None, device)?;
            self.result(&outputs)
        })
    }
}

/// The process's GPU (opened once; the error is kept too).
fn shared_device() -> Result<Arc<Device>, String> {
    static DEVICE: Mutex<Option<Result<Arc<Device>, String>>> = Mutex::new(None);
    let mut d = DEVICE.lock().unwrap_or_else(|e| e.into_inner());
    let result = d.get_or_insert_with(Device::open).clone();
    if let Ok(dev) = &result {
        dev.bind()?;
    }
    result
}

/// Whether a GPU can run rxla's kernels here (for tests that skip
/// without one): `Err` says why not.
pub fn available() -> Result<String, String> {
    shared_device().map(|d| d.describe())
}
