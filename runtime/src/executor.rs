//! Running programs: buffers for every slot, then the steps in order.
//!
//! Kernels run their workgroups in parallel on the runtime's pool (one
//! workgroup runs on the calling thread); library calls run inside the pool
//! so their own parallelism (gemm, sorts) uses it too.

use crate::{pool, program::*, relayout::relayout};
use rayon::prelude::*;
use rxla_interpreter::{Interpreter, Literal};
use rxla_library::array::{bytes_literal, literal_bytes, ArrayMut, ArrayRef, ArrayShape, Buffer, ElementType};
use rxla_lowering::lower_tensors::MAX_DIRECT_BUFFERS;
use std::sync::Mutex;

/// A kernel compiled with the CPU kernel ABI (`docs/lowering.md`): one
/// pointer argument per buffer and the workgroup id when it has at most
/// [`MAX_DIRECT_BUFFERS`] buffers, else the array of the pointers and the
/// workgroup id.
#[derive(Clone, Copy, Debug)]
pub struct KernelFn(usize);

// `KernelFn::call` has one arm per number of buffers up to the lowering's.
const _: () = assert!(MAX_DIRECT_BUFFERS == 32);

impl KernelFn {
    /// # Safety
    /// `address` is the entry of a kernel compiled with the CPU kernel ABI.
    pub unsafe fn from_address(address: usize) -> KernelFn {
        KernelFn(address)
    }

    /// Runs workgroup `workgroup` of the kernel on the `n` buffers at
    /// `buffers`.
    ///
    /// # Safety
    /// `buffers` holds exactly the kernel's buffers, live and of the sizes
    /// it was compiled for.
    pub unsafe fn call(self, buffers: *const *mut u8, n: usize, workgroup: i64) {
        // One call of the kernel's own signature per number of buffers.
        macro_rules! direct {
            ($($i:literal),*) => {{
                // SAFETY: the kernel takes `n` pointers and the workgroup.
                let f = unsafe {
                    std::mem::transmute::<usize, unsafe extern "C" fn($(direct!(@ptr $i),)* i64)>(self.0)
                };
                // SAFETY: `buffers` has `n` pointers (the caller's promise).
                unsafe { f($(*buffers.add($i),)* workgroup) }
            }};
            (@ptr $i:literal) => { *mut u8 };
        }
        match n {
            0 => direct!(),
            1 => direct!(0),
            2 => direct!(0, 1),
            3 => direct!(0, 1, 2),
            4 => direct!(0, 1, 2, 3),
            5 => direct!(0, 1, 2, 3, 4),
            6 => direct!(0, 1, 2, 3, 4, 5),
            7 => direct!(0, 1, 2, 3, 4, 5, 6),
            8 => direct!(0, 1, 2, 3, 4, 5, 6, 7),
            9 => direct!(0, 1, 2, 3, 4, 5, 6, 7, 8),
            10 => direct!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
            11 => direct!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
            12 => direct!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
            13 => direct!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
            14 => direct!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13),
            15 => direct!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14),
            16 => direct!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
            17 => direct!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16),
            18 => direct!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17),
            19 => direct!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18),
            20 => direct!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19),
            21 => direct!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20),
            22 => direct!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21),
            23 => direct!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22),
            24 => direct!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23),
            25 => direct!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24),
            26 => direct!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25),
            27 => direct!(
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26
            ),
            28 => direct!(
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27
            ),
            29 => direct!(
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
                28
            ),
            30 => direct!(
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
                28, 29
            ),
            31 => direct!(
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
                28, 29, 30
            ),
            32 => direct!(
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
                28, 29, 30, 31
            ),
            _ => {
                // SAFETY: a kernel with more buffers takes their array.
                let f = unsafe { std::mem::transmute::<usize, unsafe extern "C" fn(*const *mut u8, i64)>(self.0) };
                unsafe { f(buffers, workgroup) }
            }
        }
    }
}

/// A failure while running (a library or custom call rejected its input).
#[derive(Clone, Debug)]
pub struct RunError(pub String);

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

type Result<T> = std::result::Result<T, RunError>;

/// Raw pointers that may cross threads: the steps that share them read
/// and write disjoint parts (workgroups) or only read.
#[derive(Clone, Copy)]
struct Ptrs(*const *mut u8);
unsafe impl Send for Ptrs {}
unsafe impl Sync for Ptrs {}

impl Ptrs {
    /// The pointer. A closure that calls this captures the whole `Ptrs`
    /// (Send + Sync), where one that reads `.0` would capture only the raw
    /// pointer field, which is neither.
    fn get(self) -> *const *mut u8 {
        self.0
    }
}

/// Everything a run needs besides the programs.
pub struct Machine<'a> {
    pub programs: &'a [Program],
    pub kernels: &'a [KernelInfo],
    /// The host entry point of each kernel (`None` for GPU kernels).
    pub functions: &'a [Option<KernelFn>],
    pub constants: &'a [Buffer],
    /// Reusable arenas, one pool per program (so repeated runs do not
    /// fault in fresh pages).
    pub arenas: &'a [Mutex<Vec<Buffer>>],
    /// When set, the time of every step is recorded here (what `hlo-run
    /// --profile` prints): the entry program's steps by name, the steps of
    /// the programs they run (loop bodies and conditions, branches, called
    /// computations) with their nesting as leading [`NESTED`] markers.
    pub profile: Option<&'a Mutex<Vec<(String, std::time::Duration)>>>,
    /// How deep the program being run is nested (0: the entry).
    pub depth: usize,
    /// The device this run plays, of how many (collectives, which run in
    /// the interpreter, rendezvous with the other devices' threads).
    pub device: DeviceIds,
}

/// The replica and partition a run plays, and how many there are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceIds {
    pub replica: usize,
    pub replicas: usize,
    pub partition: usize,
    pub partitions: usize,
}

impl DeviceIds {
    /// Device `d` of `replicas x partitions` (XLA's default device
    /// assignment: `d = replica * partitions + partition`).
    pub fn of(d: usize, replicas: usize, partitions: usize) -> DeviceIds {
        let partitions = partitions.max(1);
        DeviceIds { replica: d / partitions, replicas: replicas.max(1), partition: d % partitions, partitions }
    }
}

/// Runs `device` for each of `replicas x partitions` devices, one thread
/// each (collectives rendezvous between them), device `d` on
/// `args_per_device[d]`; the results in device order. What the CPU's and
/// the GPU's `run_devices` share.
pub fn run_each_device(
    replicas: usize,
    partitions: usize,
    args_per_device: &[Vec<Literal>],
    device: impl Fn(DeviceIds, &[Literal]) -> Result<Literal> + Sync,
) -> Result<Vec<Literal>> {
    let n = replicas * partitions;
    if n == 0 || args_per_device.len() != n {
        return Err(RunError(format!(
            "{} argument lists for {replicas} replicas x {partitions} partitions",
            args_per_device.len()
        )));
    }
    rxla_interpreter::replicated::Replicas::new(n)
        .run(64 << 20, |d| device(DeviceIds::of(d, replicas, partitions), &args_per_device[d]))
        .map_err(|e| RunError(e.to_string()))
}

impl Default for DeviceIds {
    fn default() -> Self {
        DeviceIds::of(0, 1, 1)
    }
}

/// Prefixes a profiled step of a nested program, once per level (the
/// nested steps' times are also part of the step that runs them).
pub const NESTED: &str = "> ";

impl Machine<'_> {
    /// The machine for the programs a step runs (one level deeper).
    fn nested(&self) -> Machine<'_> {
        Machine { depth: self.depth + 1, ..*self }
    }

    /// Runs program `index` on parameter buffers `params` (one pointer per
    /// flattened parameter leaf); returns its output buffers.
    pub fn run(&self, index: usize, params: &[*mut u8]) -> Result<Vec<Buffer>> {
        let p = &self.programs[index];
        if params.len() != p.param_leaves.len() {
            return Err(RunError(format!(
                "{}: {} arguments for {} parameters",
                p.name,
                params.len(),
                p.param_leaves.len()
            )));
        }
        let mut arena = self.arenas[index]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .filter(|a| a.len() >= p.arena_size)
            .unwrap_or_else(|| Buffer::for_output(p.arena_size));
        // Outputs in donated parameters need no buffer of their own.
        let mut outputs: Vec<Buffer> = p
            .outputs
            .iter()
            .enumerate()
            .filter(|(k, _)| p.output_params.get(*k).copied().flatten().is_none())
            .map(|(_, &s)| Buffer::for_output(p.slots[s].shape.bytes()))
            .collect();
        let result = {
            let arena_ptr = arena.as_mut_ptr();
            let output_ptrs: Vec<*mut u8> = outputs.iter_mut().map(|b| b.as_mut_ptr()).collect();
            let frame =
                Frame { p, params, arena: arena_ptr, outputs: &output_ptrs, constants: self.constants, staged: None };
            match self.profile {
                None => p.steps.iter().try_for_each(|step| self.step(&frame, step)),
                Some(sink) => p.steps.iter().try_for_each(|step| {
                    let start = std::time::Instant::now();
                    let r = self.step(&frame, step);
                    let name = format!("{}{}", NESTED.repeat(self.depth), self.describe(p, step));
                    sink.lock().unwrap_or_else(|e| e.into_inner()).push((name, start.elapsed()));
                    r
                }),
            }
        };
        self.arenas[index].lock().unwrap_or_else(|e| e.into_inner()).push(arena);
        result.map(|()| outputs)
    }

    /// A step's one-line description for profiles.
    pub fn describe(&self, p: &Program, step: &Step) -> String {
        let shape = |s: &Slot| format!("{}", p.slots[*s].shape);
        match step {
            Step::Kernel { kernel, args } => {
                let k = &self.kernels[*kernel];
                format!(
                    "kernel {} ({}, {} workgroups) -> {}",
                    k.name,
                    k.emitter,
                    k.workgroups,
                    args.last().map(shape).unwrap_or_default()
                )
            }
            Step::Copy { to, .. } => format!("copy {}", shape(to)),
            Step::DeviceId { partition, .. } => if *partition { "partition-id" } else { "replica-id" }.into(),
            Step::Relayout { to, .. } => format!("relayout {}", shape(to)),
            Step::Dot { out, .. } => format!("dot -> {}", shape(out)),
            Step::Convolution { out, .. } => format!("convolution -> {}", shape(out)),
            Step::Sort { outputs, .. } => format!("sort {}", outputs.first().map(shape).unwrap_or_default()),
            Step::SortByKeys { outputs, .. } => {
                format!("sort by keys {}", outputs.first().map(shape).unwrap_or_default())
            }
            Step::Fft { output, .. } => format!("fft -> {}", shape(output)),
            Step::TopK { values, .. } => format!("topk -> {}", shape(values)),
            Step::RngBitGenerator { output, .. } => format!("rng-bit-generator -> {}", shape(output)),
            Step::CustomCall { target, .. } => format!("custom-call {target}"),
            Step::While { .. } => "while".into(),
            Step::Conditional { .. } => "conditional".into(),
            Step::Call { program, .. } => format!("call {}", self.programs[*program].name),
            Step::Interpret { opcode, .. } => format!("{opcode} (interpreter)"),
        }
    }

    /// Runs one step of `p` on host memory: `staged` gives the host copy
    /// of every buffer the step reads or writes (how the GPU runtime runs
    /// the steps it has no device implementation for). Steps that run
    /// other programs are not allowed.
    pub fn run_staged_step(
        &self,
        p: &Program,
        step: &Step,
        staged: &std::collections::HashMap<BufferId, *mut u8>,
    ) -> Result<()> {
        if matches!(step, Step::While { .. } | Step::Conditional { .. } | Step::Call { .. }) {
            return Err(RunError(format!("internal error: {} cannot run staged", self.describe(p, step))));
        }
        let frame = Frame {
            p,
            params: &[],
            arena: std::ptr::null_mut(),
            outputs: &[],
            constants: self.constants,
            staged: Some(staged),
        };
        self.step(&frame, step)
    }

    fn function(&self, kernel: usize) -> Result<KernelFn> {
        self.functions
            .get(kernel)
            .copied()
            .flatten()
            .ok_or_else(|| RunError(format!("internal error: kernel {} has no host code", self.kernels[kernel].name)))
    }

    fn step(&self, f: &Frame, step: &Step) -> Result<()> {
        match step {
            Step::Kernel { kernel, args } => {
                let ptrs: Vec<*mut u8> = args.iter().map(|&s| f.ptr(s)).collect();
                let function = self.function(*kernel)?;
                let workgroups = self.kernels[*kernel].workgroups.max(1);
                let raw = Ptrs(ptrs.as_ptr());
                let n = ptrs.len();
                if workgroups == 1 {
                    // SAFETY: the kernel reads and writes the buffers of its
                    // arguments, which are live and of the sizes it was
                    // compiled for.
                    unsafe { function.call(raw.get(), n, 0) };
                } else {
                    pool::pool().install(|| {
                        (0..workgroups).into_par_iter().for_each(|wg| {
                            // SAFETY: as above; workgroups write disjoint
                            // elements (or update them atomically).
                            unsafe { function.call(raw.get(), n, wg) };
                        })
                    });
                }
            }
            Step::Copy { from, to } => {
                let (src, dst) = (f.ptr(*from), f.ptr(*to));
                let n = f.p.slots[*from].shape.bytes();
                if src != dst {
                    copy(src, dst, n);
                }
            }
            Step::Relayout { from, to } => {
                let shape = &f.p.slots[*from].shape;
                let src = f.bytes(*from);
                let dst = f.bytes_mut(*to);
                relayout(shape, f.p.slots[*from].layout.as_deref(), f.p.slots[*to].layout.as_deref(), src, dst);
            }
            Step::Dot { lhs, rhs, out, dims } => {
                let (l, r, o) = (f.array(*lhs), f.array(*rhs), f.array_mut(*out));
                // Multiply-adds: one per output element and contracted index.
                let contracted: usize = dims.lhs_contracting.iter().map(|&d| l.dims[d].max(0) as usize).product();
                let work = o.elements() * contracted;
                pool::run(work, || rxla_library::dot::dot(l, r, o, dims)).map_err(RunError)?;
            }
            Step::Convolution { lhs, rhs, out, dims, window, feature_groups, batch_groups } => {
                let (l, r, o) = (f.array(*lhs), f.array(*rhs), f.array_mut(*out));
                // At most this many multiply-adds per output element: the
                // kernel's elements over its output features.
                let out_features = r.dims.get(dims.kernel_output_feature).map_or(1, |&d| d.max(1) as usize);
                let work = o.elements() * (r.elements() / out_features).max(1);
                pool::run(work, || {
                    rxla_library::conv::convolution(l, r, o, dims, window, *feature_groups, *batch_groups)
                })
                .map_err(RunError)?;
            }
            Step::Sort { outputs, dimension, comparator } => {
                let function = self.function(*comparator)?;
                let n = outputs.len();
                let less = move |elements: &[*const u8]| -> bool {
                    let mut result: u8 = 0;
                    // The kernel's buffer array: the 2N element pointers,
                    // then the pred output. Uninitialized storage: this runs
                    // for every comparison.
                    const INLINE: usize = 65;
                    let mut inline = [std::mem::MaybeUninit::<*mut u8>::uninit(); INLINE];
                    let mut heap = Vec::new();
                    let slots: *mut *mut u8 = if 2 * n < INLINE {
                        inline.as_mut_ptr() as *mut *mut u8
                    } else {
                        heap.resize(2 * n + 1, std::ptr::null_mut::<u8>());
                        heap.as_mut_ptr()
                    };
                    // SAFETY: `slots` has room for 2N + 1 pointers.
                    unsafe {
                        for (i, e) in elements.iter().take(2 * n).enumerate() {
                            *slots.add(i) = *e as *mut u8;
                        }
                        *slots.add(2 * n) = &mut result;
                        // The comparator reads one element of each operand
                        // and writes one pred.
                        function.call(slots, 2 * n + 1, 0);
                    }
                    result != 0
                };
                let mut arrays: Vec<ArrayMut> = outputs.iter().map(|&s| f.array_mut(s)).collect();
                let work = arrays.first().map_or(0, |a| n_log_n(a.elements()));
                pool::run(work, || rxla_library::sort::sort(&mut arrays, *dimension, &less)).map_err(RunError)?;
            }
            Step::SortByKeys { keys, outputs, dimension, order, descending } => {
                let k = f.array(*keys);
                let mut arrays: Vec<ArrayMut> = outputs.iter().map(|&s| f.array_mut(s)).collect();
                pool::run(n_log_n(k.elements()), || {
                    rxla_library::key_sort::sort_by_keys(k, &mut arrays, *dimension, *order, *descending)
                })
                .map_err(RunError)?;
            }
            Step::TopK { input, values, indices, largest } => {
                let (i, v, x) = (f.array(*input), f.array_mut(*values), f.array_mut(*indices));
                pool::run(n_log_n(i.elements()), || rxla_library::topk::topk(i, v, x, *largest)).map_err(RunError)?;
            }
            Step::Fft { input, output, kind, lengths } => {
                let (i, o) = (f.array(*input), f.array_mut(*output));
                pool::run(n_log_n(i.elements()), || rxla_library::fft::fft(i, o, *kind, lengths)).map_err(RunError)?;
            }
            Step::RngBitGenerator { algorithm, state, new_state, output } => {
                let (s, ns, o) = (f.array(*state), f.array_mut(*new_state), f.array_mut(*output));
                rxla_library::rng::rng_bit_generator(*algorithm, s, ns, o).map_err(RunError)?;
            }
            Step::CustomCall { target, function, inputs, outputs, opaque } => {
                let ins: Vec<ArrayRef> = inputs.iter().map(|&s| f.array(s)).collect();
                let mut outs: Vec<ArrayMut> = outputs.iter().map(|&s| f.array_mut(s)).collect();
                function(&ins, &mut outs, opaque).map_err(|e| RunError(format!("custom-call \"{target}\": {e}")))?;
            }
            Step::While { cond, body, init, state, .. } => {
                // Read-only state leaves share their init buffer.
                for (&i, &s) in init.iter().zip(state) {
                    if f.ptr(i) != f.ptr(s) {
                        copy(f.ptr(i), f.ptr(s), f.p.slots[i].shape.bytes());
                    }
                }
                let state_ptrs: Vec<*mut u8> = state.iter().map(|&s| f.ptr(s)).collect();
                let in_place = &self.programs[*body].output_params;
                let inner = self.nested();
                loop {
                    let go = inner.run(*cond, &state_ptrs)?;
                    if go.first().and_then(|b| b.as_slice().first()).copied().unwrap_or(0) == 0 {
                        break;
                    }
                    // Outputs the body wrote into their state buffer (or left
                    // there unchanged) need no copy; the rest come back fresh.
                    let mut fresh = inner.run(*body, &state_ptrs)?.into_iter();
                    for (k, &s) in state.iter().enumerate() {
                        if in_place.get(k).copied().flatten().is_some() {
                            continue;
                        }
                        let b = fresh
                            .next()
                            .ok_or_else(|| RunError("internal error: a while body output is missing".into()))?;
                        copy(b.as_ptr() as *mut u8, f.ptr(s), b.len());
                    }
                }
            }
            Step::Conditional { selector, branches, operands, results } => {
                let bytes = f.bytes(*selector);
                let branch = if f.p.slots[*selector].shape.ty == ElementType::Pred {
                    if bytes[0] != 0 {
                        0
                    } else {
                        1
                    }
                } else {
                    let i = i32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
                    if i < 0 || i as usize >= branches.len() {
                        branches.len() - 1
                    } else {
                        i as usize
                    }
                };
                let args: Vec<*mut u8> = operands[branch].iter().map(|&s| f.ptr(s)).collect();
                let outs = self.nested().run(branches[branch], &args)?;
                for (b, &s) in outs.iter().zip(results) {
                    copy(b.as_ptr() as *mut u8, f.ptr(s), b.len());
                }
            }
            Step::Call { program, args, results } => {
                let ptrs: Vec<*mut u8> = args.iter().map(|&s| f.ptr(s)).collect();
                let outs = self.nested().run(*program, &ptrs)?;
                for (b, &s) in outs.iter().zip(results) {
                    copy(b.as_ptr() as *mut u8, f.ptr(s), b.len());
                }
            }
            Step::DeviceId { out, partition } => {
                let id = if *partition { self.device.partition } else { self.device.replica } as u32;
                f.bytes_mut(*out).copy_from_slice(&id.to_le_bytes());
            }
            Step::Interpret { opcode, module, inputs, outputs } => {
                let args: Vec<Literal> = inputs.iter().map(|t| f.literal(t)).collect();
                let mut interpreter = Interpreter::new(module);
                interpreter.options.replicas = self.device.replicas;
                interpreter.options.partitions = self.device.partitions;
                interpreter.replica_id = self.device.replica;
                interpreter.partition_id = self.device.partition;
                let result = interpreter.run(&args).map_err(|e| RunError(format!("{opcode} (interpreter): {e}")))?;
                let leaves = flatten(&result);
                if leaves.len() != outputs.len() {
                    return Err(RunError(format!(
                        "{opcode}: the interpreter returned {} arrays, expected {}",
                        leaves.len(),
                        outputs.len()
                    )));
                }
                for (lit, &s) in leaves.iter().zip(outputs) {
                    let bytes = literal_bytes(lit).map_err(RunError)?;
                    f.bytes_mut(s).copy_from_slice(&bytes);
                }
            }
        }
        Ok(())
    }
}

/// The array leaves of a literal, depth first.
pub fn flatten(l: &Literal) -> Vec<&Literal> {
    match l {
        Literal::Tuple(items) => items.iter().flat_map(flatten).collect(),
        Literal::Token => Vec::new(),
        array => vec![array],
    }
}

/// `n log2 n`: the work of a sort or an FFT of `n` elements.
fn n_log_n(n: usize) -> usize {
    n * (usize::BITS - n.leading_zeros()) as usize
}

fn copy(src: *const u8, dst: *mut u8, n: usize) {
    if n == 0 || std::ptr::eq(src, dst) {
        return;
    }
    // Large copies in parallel: a memcpy of hundreds of MiB is
    // bandwidth-bound and one core does not saturate memory.
    const CHUNK: usize = 1 << 20;
    if n >= 8 * CHUNK && pool::threads() > 1 {
        let (s, d) = (src as usize, dst as usize);
        pool::pool().install(|| {
            (0..n.div_ceil(CHUNK)).into_par_iter().for_each(|c| {
                let start = c * CHUNK;
                let len = CHUNK.min(n - start);
                // SAFETY: disjoint chunks of two distinct live buffers.
                unsafe { std::ptr::copy_nonoverlapping((s + start) as *const u8, (d + start) as *mut u8, len) };
            })
        });
    } else {
        // SAFETY: distinct live buffers of at least `n` bytes.
        unsafe { std::ptr::copy_nonoverlapping(src, dst, n) };
    }
}

/// The buffers of one running program.
struct Frame<'a> {
    p: &'a Program,
    params: &'a [*mut u8],
    arena: *mut u8,
    outputs: &'a [*mut u8],
    constants: &'a [Buffer],
    /// Host copies of buffers (see [`Machine::run_staged_step`]).
    staged: Option<&'a std::collections::HashMap<BufferId, *mut u8>>,
}

impl Frame<'_> {
    fn ptr(&self, slot: Slot) -> *mut u8 {
        let buffer = self.p.buffer_of(slot);
        if let Some(staged) = self.staged {
            return *staged.get(&buffer).unwrap_or_else(|| {
                panic!("slot {} ({}) of {} is not staged", slot, self.p.slots[slot].name, self.p.name)
            });
        }
        match self.p.buffers[buffer] {
            Allocation::Parameter(i) => self.params[i],
            Allocation::Constant(k) => self.constants[k].as_ptr() as *mut u8,
            // SAFETY: offsets lie within the arena (buffer assignment).
            Allocation::Temp { offset, .. } => unsafe { self.arena.add(offset) },
            Allocation::Output(i) => self.outputs[i],
            Allocation::Unassigned | Allocation::Unused => {
                panic!("slot {} ({}) of {} has no memory", slot, self.p.slots[slot].name, self.p.name)
            }
        }
    }

    fn bytes(&self, slot: Slot) -> &[u8] {
        let n = self.p.slots[slot].shape.bytes();
        // SAFETY: the slot's buffer holds at least its array's bytes; the
        // step reading it does not write it through another view.
        unsafe { std::slice::from_raw_parts(self.ptr(slot), n) }
    }

    #[allow(clippy::mut_from_ref)]
    fn bytes_mut(&self, slot: Slot) -> &mut [u8] {
        let n = self.p.slots[slot].shape.bytes();
        // SAFETY: as above; the step is the only writer of this buffer.
        unsafe { std::slice::from_raw_parts_mut(self.ptr(slot), n) }
    }

    fn array(&self, slot: Slot) -> ArrayRef<'_> {
        let s = &self.p.slots[slot];
        ArrayRef::new(s.shape.ty, &s.shape.dims, self.bytes(slot))
    }

    fn array_mut(&self, slot: Slot) -> ArrayMut<'_> {
        let s = &self.p.slots[slot];
        ArrayMut::new(s.shape.ty, &s.shape.dims, self.bytes_mut(slot))
    }

    fn literal(&self, t: &Tree) -> Literal {
        match t {
            Tree::Array(s) => literal_of(&self.p.slots[*s].shape, self.bytes(*s)),
            Tree::Tuple(items) => Literal::Tuple(items.iter().map(|t| self.literal(t)).collect()),
            Tree::Token => Literal::Token,
        }
    }
}

/// The literal of an array in the memory format. Kernels store sub-byte
/// integers zero-extended; literals want signed ones sign-extended.
pub fn literal_of(shape: &ArrayShape, bytes: &[u8]) -> Literal {
    let bits = match shape.ty {
        ElementType::S1 | ElementType::U1 => 1,
        ElementType::S2 | ElementType::U2 => 2,
        ElementType::S4 | ElementType::U4 => 4,
        _ => return bytes_literal(shape, bytes),
    };
    let signed = matches!(shape.ty, ElementType::S1 | ElementType::S2 | ElementType::S4);
    let fixed: Vec<u8> = bytes
        .iter()
        .map(|&b| {
            let v = b & ((1u8 << bits) - 1);
            if signed && v & (1 << (bits - 1)) != 0 {
                v | !((1u8 << bits) - 1)
            } else {
                v
            }
        })
        .collect();
    bytes_literal(shape, &fixed)
}
