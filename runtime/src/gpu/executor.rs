//! Running GPU programs: every buffer lives in device memory; kernels
//! launch on one stream, dots call cuBLAS, control flow runs on the host
//! (reading predicates back), and the steps with no device implementation
//! run on the host on copies of the buffers they touch (see
//! [`super::plan::Placement`]).

use super::{
    device::{Backend, Device, DeviceBuffer, Kernel},
    plan::{placement, Placement},
    GpuExecutable,
};
use crate::{executor::Machine, program::*, RunError};
use rxla_library::array::{Buffer, ElementType};
use std::{collections::HashMap, sync::Arc};

type Result<T> = std::result::Result<T, RunError>;

fn e(message: String) -> RunError {
    RunError(message)
}

/// What an executable keeps on its backend: its kernels and constants.
pub struct Loaded {
    pub device: Arc<dyn Backend>,
    /// Per kernel of the executable: the loaded GPU kernel.
    pub functions: Vec<Option<Kernel>>,
    pub constants: Vec<DeviceBuffer>,
}

impl Loaded {
    /// Loads the PTX on a CUDA device.
    pub fn on_gpu(exe: &GpuExecutable, device: Arc<Device>) -> Result<Loaded> {
        device.bind().map_err(e)?;
        let names: Vec<String> = exe
            .kernels
            .iter()
            .filter(|k| k.launch.is_some())
            .map(|k| rxla_lowering::lower_tensors::ptx_name(&k.name))
            .collect();
        let mut loaded =
            if names.is_empty() { Vec::new() } else { device.load(&exe.ptx, &names).map_err(e)? }.into_iter();
        let functions = exe
            .kernels
            .iter()
            .map(|k| if k.launch.is_some() { loaded.next().map(Kernel::Cuda) } else { None })
            .collect();
        Loaded::with(exe, device, functions)
    }

    /// The GPU kernels' CPU versions on the host backend (an executable
    /// compiled with `GpuOptions::emulate`).
    pub fn on_host(exe: &GpuExecutable, device: Arc<dyn Backend>) -> Result<Loaded> {
        let emulation =
            exe.emulation.as_ref().ok_or_else(|| e("internal error: no CPU kernels to emulate the GPU with".into()))?;
        let functions = exe
            .kernels
            .iter()
            .zip(&emulation.kernels)
            .map(|(k, shadow)| match (k.launch, shadow) {
                (Some(_), Some((function, workgroups))) => {
                    Ok(Some(Kernel::Host { function: *function, workgroups: *workgroups }))
                }
                (Some(_), None) => Err(e(format!("internal error: kernel {} has no CPU version", k.name))),
                (None, _) => Ok(None),
            })
            .collect::<Result<_>>()?;
        Loaded::with(exe, device, functions)
    }

    fn with(exe: &GpuExecutable, device: Arc<dyn Backend>, functions: Vec<Option<Kernel>>) -> Result<Loaded> {
        let constants = exe
            .constants
            .iter()
            .map(|c| DeviceBuffer::upload(&device, c.as_slice()))
            .collect::<std::result::Result<_, _>>()
            .map_err(e)?;
        Ok(Loaded { device, functions, constants })
    }
}

/// One running program: where its slots are on the device.
struct Frame<'a> {
    p: &'a Program,
    params: &'a [u64],
    arena: u64,
    outputs: &'a [u64],
    constants: &'a [DeviceBuffer],
}

impl Frame<'_> {
    fn ptr(&self, slot: Slot) -> u64 {
        match self.p.buffers[self.p.buffer_of(slot)] {
            Allocation::Parameter(i) => self.params[i],
            Allocation::Constant(k) => self.constants[k].ptr,
            Allocation::Temp { offset, .. } => self.arena + offset as u64,
            Allocation::Output(i) => self.outputs[i],
            Allocation::Unassigned | Allocation::Unused => {
                panic!("slot {} ({}) of {} has no memory", slot, self.p.slots[slot].name, self.p.name)
            }
        }
    }

    fn bytes(&self, slot: Slot) -> usize {
        self.p.slots[slot].shape.bytes()
    }
}

/// Runs programs of one executable on its device.
pub struct GpuMachine<'a> {
    pub exe: &'a GpuExecutable,
    pub loaded: &'a Loaded,
    /// When set, the time of every step of the entry program (the stream
    /// is synchronized after each step).
    pub profile: Option<&'a std::sync::Mutex<Vec<(String, std::time::Duration)>>>,
    /// The replica and partition this run plays (what `replica-id` and
    /// `partition-id` give and the host-staged collectives rendezvous as).
    pub device: crate::executor::DeviceIds,
}

impl GpuMachine<'_> {
    fn host(&self) -> Machine<'_> {
        Machine {
            programs: &self.exe.programs,
            kernels: &self.exe.kernels,
            functions: &self.exe.host_functions,
            constants: &self.exe.constants,
            arenas: &[],
            profile: None,
            depth: 0,
            device: self.device,
        }
    }

    /// Runs program `index` on device parameter addresses; returns its
    /// output buffers (not waiting for the stream).
    pub fn run(&self, index: usize, params: &[u64]) -> Result<Vec<DeviceBuffer>> {
        let p = &self.exe.programs[index];
        if params.len() != p.param_leaves.len() {
            return Err(e(format!("{}: {} arguments for {} parameters", p.name, params.len(), p.param_leaves.len())));
        }
        let device = &self.loaded.device;
        let arena = DeviceBuffer::alloc(device, p.arena_size).map_err(e)?;
        let outputs: Vec<DeviceBuffer> = p
            .outputs
            .iter()
            .enumerate()
            .filter(|(k, _)| p.output_params.get(*k).copied().flatten().is_none())
            .map(|(_, &s)| DeviceBuffer::alloc(device, p.slots[s].shape.bytes()))
            .collect::<std::result::Result<_, _>>()
            .map_err(e)?;
        let output_ptrs: Vec<u64> = outputs.iter().map(|b| b.ptr).collect();
        let frame = Frame { p, params, arena: arena.ptr, outputs: &output_ptrs, constants: &self.loaded.constants };
        let host = self.host();
        for step in &p.steps {
            let start = std::time::Instant::now();
            self.step(&frame, &host, step)?;
            if let Some(sink) = self.profile {
                device.synchronize().map_err(e)?;
                sink.lock().unwrap_or_else(|e| e.into_inner()).push((host.describe(p, step), start.elapsed()));
            }
        }
        // The arena is freed (after the stream drains) when it drops.
        drop(arena);
        Ok(outputs)
    }

    fn step(&self, f: &Frame, host: &Machine, step: &Step) -> Result<()> {
        let device = &self.loaded.device;
        match placement(f.p, &self.exe.kernels, step, device.has_gemm()) {
            Placement::Device => match step {
                Step::Kernel { kernel, args } => {
                    let k = &self.exe.kernels[*kernel];
                    let launch = k.launch.expect("device kernels have launch dimensions");
                    if launch.blocks.iter().chain(&launch.threads).any(|&d| d <= 0) {
                        // Nothing to compute (zero-sized output): CUDA
                        // rejects empty grids.
                        return Ok(());
                    }
                    let function = self.loaded.functions[*kernel]
                        .ok_or_else(|| e(format!("internal error: kernel {} is not loaded", k.name)))?;
                    let ptrs: Vec<u64> = args.iter().map(|&s| f.ptr(s)).collect();
                    device
                        .launch(&function, launch.blocks, launch.threads, &ptrs)
                        .map_err(|m| e(format!("kernel {}: {m}", k.name)))
                }
                Step::Copy { from, to } => device.copy(f.ptr(*to), f.ptr(*from), f.bytes(*from)).map_err(e),
                _ => unreachable!("only kernels and copies run on the device"),
            },
            Placement::Cublas(g) => {
                let Step::Dot { lhs, rhs, out, .. } = step else { unreachable!("gemms are dots") };
                device.gemm(&g, f.ptr(*lhs), f.ptr(*rhs), f.ptr(*out)).map_err(e)
            }
            Placement::Sort(s) => {
                let Step::SortByKeys { keys, outputs, .. } = step else { unreachable!("device sorts sort by keys") };
                let operands: Vec<u64> = outputs.iter().map(|&o| f.ptr(o)).collect();
                device.sort_by_keys(&s, f.ptr(*keys), &operands).map_err(e)
            }
            Placement::Host => self.staged(f, host, step),
            Placement::Control => self.control(f, step),
        }
    }

    /// Runs `step` on the host: copies every buffer it touches to host
    /// memory, runs it there, and copies what it wrote back.
    fn staged(&self, f: &Frame, host: &Machine, step: &Step) -> Result<()> {
        let device = &self.loaded.device;
        let (reads, writes) = step.reads_writes();
        let mut sizes: HashMap<BufferId, usize> = HashMap::new();
        for &s in reads.iter().chain(&writes) {
            let b = f.p.buffer_of(s);
            let n = f.bytes(s);
            let entry = sizes.entry(b).or_insert(0);
            *entry = (*entry).max(n);
        }
        let mut copies: HashMap<BufferId, (Buffer, u64)> = HashMap::new();
        let slot_of = |b: BufferId| {
            reads.iter().chain(&writes).copied().find(|&s| f.p.buffer_of(s) == b).expect("a slot of the buffer")
        };
        for (&b, &n) in &sizes {
            let ptr = f.ptr(slot_of(b));
            let mut copy = Buffer::zeroed(n);
            device.read(ptr, copy.as_mut_slice()).map_err(e)?;
            copies.insert(b, (copy, ptr));
        }
        let staged: HashMap<BufferId, *mut u8> =
            copies.iter_mut().map(|(&b, (copy, _))| (b, copy.as_mut_ptr())).collect();
        host.run_staged_step(f.p, step, &staged)?;
        let written: std::collections::HashSet<BufferId> = writes.iter().map(|&s| f.p.buffer_of(s)).collect();
        for b in written {
            let (copy, ptr) = &copies[&b];
            device.write(*ptr, copy.as_slice()).map_err(e)?;
        }
        Ok(())
    }

    fn control(&self, f: &Frame, step: &Step) -> Result<()> {
        let device = &self.loaded.device;
        let inner = GpuMachine { profile: None, ..*self };
        let copy_back = |outs: &[DeviceBuffer], results: &[Slot]| -> Result<()> {
            for (b, &s) in outs.iter().zip(results) {
                device.copy(f.ptr(s), b.ptr, b.bytes).map_err(e)?;
            }
            Ok(())
        };
        match step {
            Step::While { cond, body, init, state, trip_count } => {
                // Read-only state leaves share their init buffer.
                for (&i, &s) in init.iter().zip(state) {
                    if f.ptr(s) != f.ptr(i) {
                        device.copy(f.ptr(s), f.ptr(i), f.bytes(i)).map_err(e)?;
                    }
                }
                let state_ptrs: Vec<u64> = state.iter().map(|&s| f.ptr(s)).collect();
                let in_place = &self.exe.programs[*body].output_params;
                // The state leaves the body's fresh outputs go to (the others
                // it writes in place or leaves unchanged).
                let copied: Vec<Slot> = state
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| in_place.get(*k).copied().flatten().is_none())
                    .map(|(_, &s)| s)
                    .collect();
                if let Some(n) = trip_count {
                    // A known trip count: the body's launches queue back to
                    // back, with no predicate to wait for.
                    for _ in 0..*n {
                        let next = inner.run(*body, &state_ptrs)?;
                        copy_back(&next, &copied)?;
                    }
                    return Ok(());
                }
                loop {
                    let go = inner.run(*cond, &state_ptrs)?;
                    let mut flag = [0u8];
                    if let Some(b) = go.first() {
                        device.read(b.ptr, &mut flag).map_err(e)?;
                    }
                    if flag[0] == 0 {
                        break;
                    }
                    let next = inner.run(*body, &state_ptrs)?;
                    copy_back(&next, &copied)?;
                }
                Ok(())
            }
            Step::Conditional { selector, branches, operands, results } => {
                let mut bytes = [0u8; 4];
                let is_pred = f.p.slots[*selector].shape.ty == ElementType::Pred;
                device.read(f.ptr(*selector), &mut bytes[..if is_pred { 1 } else { 4 }]).map_err(e)?;
                let branch = if is_pred {
                    if bytes[0] != 0 {
                        0
                    } else {
                        1
                    }
                } else {
                    let i = i32::from_le_bytes(bytes);
                    if i < 0 || i as usize >= branches.len() {
                        branches.len() - 1
                    } else {
                        i as usize
                    }
                };
                let args: Vec<u64> = operands[branch].iter().map(|&s| f.ptr(s)).collect();
                let outs = inner.run(branches[branch], &args)?;
                copy_back(&outs, results)
            }
            Step::Call { program, args, results } => {
                let ptrs: Vec<u64> = args.iter().map(|&s| f.ptr(s)).collect();
                let outs = inner.run(*program, &ptrs)?;
                copy_back(&outs, results)
            }
            _ => unreachable!("control steps"),
        }
    }
}
