//! Thunk programs: what a compiled computation executes.
//!
//! A [`Program`] is one sequential computation (the entry, a while body or
//! condition, a conditional branch, a called computation) as a list of
//! [`Step`]s over *slots*. A slot is one array value; tuples are trees of
//! slots ([`Tree`]) and cost nothing at run time. Several slots may name
//! the same buffer (a bitcast reinterprets its operand's bytes; an in-place
//! kernel writes its operand's buffer): slots belong to *buffers*, and
//! [`crate::buffer_assignment`] gives each buffer its memory.

use rxla_hlo_text::ast;
use rxla_library::{
    array::ArrayShape,
    conv::{ConvDims, WindowDim},
    dot::DotDims,
    fft::FftKind,
    rng::RngAlgorithm,
};
use std::sync::Arc;

/// An array value of a program.
pub type Slot = usize;
/// A buffer: the memory one or more slots live in.
pub type BufferId = usize;

/// A value: an array, a tuple of values, or a token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tree {
    Array(Slot),
    Tuple(Vec<Tree>),
    Token,
}

impl Tree {
    /// The array slots, depth first.
    pub fn leaves(&self) -> Vec<Slot> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect(&self, out: &mut Vec<Slot>) {
        match self {
            Tree::Array(s) => out.push(*s),
            Tree::Tuple(items) => items.iter().for_each(|t| t.collect(out)),
            Tree::Token => {}
        }
    }

    /// The same structure with `leaves` (in depth-first order) as slots.
    pub fn rebuild(&self, leaves: &mut impl Iterator<Item = Slot>) -> Tree {
        match self {
            Tree::Array(_) => Tree::Array(leaves.next().expect("enough leaves")),
            Tree::Tuple(items) => Tree::Tuple(items.iter().map(|t| t.rebuild(leaves)).collect()),
            Tree::Token => Tree::Token,
        }
    }
}

/// What a slot holds.
#[derive(Clone, Debug)]
pub struct SlotInfo {
    pub shape: ArrayShape,
    /// The physical dimension order (`minor_to_major`) when it is not the
    /// default row-major one.
    pub layout: Option<Vec<i64>>,
    pub buffer: BufferId,
    /// The HLO value's name, for messages.
    pub name: String,
}

/// A compiled kernel: the entry point of one fusion (or scalar
/// computation, such as a sort comparator), JIT-ed for the host or in PTX.
#[derive(Clone, Debug)]
pub struct KernelInfo {
    pub name: String,
    /// CPU workgroups (1 for GPU kernels).
    pub workgroups: i64,
    /// Blocks and threads of a GPU kernel; `None` for host kernels.
    pub launch: Option<rxla_emitters::launch::LaunchDims>,
    /// How many of its buffer arguments (the last ones) are outputs.
    pub outputs: usize,
    /// Which emitter made it (for profiles and messages).
    pub emitter: String,
}

/// A host function of the custom-call registry.
pub type CustomCallFn =
    fn(&[rxla_library::array::ArrayRef], &mut [rxla_library::array::ArrayMut], &str) -> Result<(), String>;

/// One thing a program does.
#[derive(Clone, Debug)]
pub enum Step {
    /// Runs kernel `kernel` over its workgroups; `args` are its buffers in
    /// the kernel ABI's order (fusion parameters, then outputs).
    Kernel {
        kernel: usize,
        args: Vec<Slot>,
    },
    /// Copies `from`'s bytes to `to` (same size).
    Copy {
        from: Slot,
        to: Slot,
    },
    /// Writes the replica id (or, with `partition`, the partition id) the
    /// run plays to `out` (a `u32` scalar).
    DeviceId {
        out: Slot,
        partition: bool,
    },
    /// Copies `from` to `to`, which has the same logical shape and another
    /// physical layout.
    Relayout {
        from: Slot,
        to: Slot,
    },
    Dot {
        lhs: Slot,
        rhs: Slot,
        out: Slot,
        dims: DotDims,
    },
    Convolution {
        lhs: Slot,
        rhs: Slot,
        out: Slot,
        dims: ConvDims,
        window: Vec<WindowDim>,
        feature_groups: usize,
        batch_groups: usize,
    },
    /// Sorts `outputs` (which hold copies of the inputs) along `dimension`
    /// with the compiled comparator kernel.
    Sort {
        outputs: Vec<Slot>,
        dimension: usize,
        comparator: usize,
    },
    /// Sorts `outputs` (copies of the inputs) along `dimension` by the
    /// precomputed `keys` (see `crate::sort_keys`).
    SortByKeys {
        keys: Slot,
        outputs: Vec<Slot>,
        dimension: usize,
        order: rxla_library::key_sort::KeyOrder,
        descending: bool,
    },
    Fft {
        input: Slot,
        output: Slot,
        kind: FftKind,
        lengths: Vec<i64>,
    },
    /// `topk` along the last dimension (`rxla_library::topk`).
    TopK {
        input: Slot,
        values: Slot,
        indices: Slot,
        largest: bool,
    },
    RngBitGenerator {
        algorithm: RngAlgorithm,
        state: Slot,
        new_state: Slot,
        output: Slot,
    },
    CustomCall {
        target: String,
        function: CustomCallFn,
        inputs: Vec<Slot>,
        outputs: Vec<Slot>,
        opaque: String,
    },
    /// `state` holds the loop state (copied from `init` first); runs
    /// program `cond` on it and, while true, program `body`, whose
    /// results become the next state.
    While {
        cond: usize,
        body: usize,
        init: Vec<Slot>,
        state: Vec<Slot>,
        /// The loop's trip count when it is known (the
        /// `known_trip_count` of its backend config, which
        /// `while-loop-trip-count-annotator` writes, as XLA's does): the GPU
        /// then runs the body that many times without evaluating the
        /// condition and reading its predicate back.
        trip_count: Option<u64>,
    },
    /// Runs branch `selector` (a pred: true is branch 0; an s32: clamped
    /// index) on its operands; its results are copied to `results`.
    Conditional {
        selector: Slot,
        branches: Vec<usize>,
        operands: Vec<Vec<Slot>>,
        results: Vec<Slot>,
    },
    /// Runs `program` on `args`; its results are copied to `results`.
    Call {
        program: usize,
        args: Vec<Slot>,
        results: Vec<Slot>,
    },
    /// Runs one instruction through the reference interpreter (ops with no
    /// native implementation); `inputs` are its operands, `outputs` the
    /// leaves of its result.
    Interpret {
        opcode: String,
        module: Arc<ast::Module>,
        inputs: Vec<Tree>,
        outputs: Vec<Slot>,
    },
}

impl Step {
    /// The slots the step reads and the slots it writes.
    pub fn reads_writes(&self) -> (Vec<Slot>, Vec<Slot>) {
        match self {
            Step::Kernel { args, .. } => (args.clone(), args.clone()),
            Step::Copy { from, to } | Step::Relayout { from, to } => (vec![*from], vec![*to]),
            Step::DeviceId { out, .. } => (vec![], vec![*out]),
            Step::Dot { lhs, rhs, out, .. } | Step::Convolution { lhs, rhs, out, .. } => (vec![*lhs, *rhs], vec![*out]),
            Step::Sort { outputs, .. } => (outputs.clone(), outputs.clone()),
            Step::SortByKeys { keys, outputs, .. } => {
                let mut reads = outputs.clone();
                reads.push(*keys);
                (reads, outputs.clone())
            }
            Step::Fft { input, output, .. } => (vec![*input], vec![*output]),
            Step::TopK { input, values, indices, .. } => (vec![*input], vec![*values, *indices]),
            Step::RngBitGenerator { state, new_state, output, .. } => (vec![*state], vec![*new_state, *output]),
            Step::CustomCall { inputs, outputs, .. } => (inputs.clone(), outputs.clone()),
            Step::While { init, state, .. } => {
                let mut reads = init.clone();
                reads.extend(state);
                (reads, state.clone())
            }
            Step::Conditional { selector, operands, results, .. } => {
                let mut reads = vec![*selector];
                reads.extend(operands.iter().flatten());
                (reads, results.clone())
            }
            Step::Call { args, results, .. } => (args.clone(), results.clone()),
            Step::Interpret { inputs, outputs, .. } => {
                (inputs.iter().flat_map(Tree::leaves).collect(), outputs.clone())
            }
        }
    }
}

/// Where a buffer's memory comes from (set by buffer assignment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allocation {
    /// Not assigned yet.
    Unassigned,
    /// The caller's argument (leaf `i` of the flattened parameters).
    Parameter(usize),
    /// A constant owned by the executable.
    Constant(usize),
    /// `size` bytes at `offset` in the program's temporary arena.
    Temp { offset: usize, size: usize },
    /// Output `i`: a buffer of its own, handed to the caller.
    Output(usize),
    /// No slot uses this buffer any more (it was merged into another).
    Unused,
}

/// A compiled sequential computation.
#[derive(Clone, Debug)]
pub struct Program {
    pub name: String,
    pub slots: Vec<SlotInfo>,
    /// One allocation per buffer.
    pub buffers: Vec<Allocation>,
    pub params: Vec<Tree>,
    pub result: Tree,
    pub steps: Vec<Step>,
    /// Bytes of the temporary arena.
    pub arena_size: usize,
    /// The result's leaf slots, in order (each an `Output` buffer).
    pub outputs: Vec<Slot>,
    /// Flattened parameter leaves, in order.
    pub param_leaves: Vec<Slot>,
    /// Per output leaf: the donated parameter leaf whose buffer holds it
    /// (`input_output_alias`), or `None` for an `Output` buffer.
    pub output_params: Vec<Option<usize>>,
}

impl Program {
    pub fn new(name: &str) -> Program {
        Program {
            name: name.to_string(),
            slots: Vec::new(),
            buffers: Vec::new(),
            params: Vec::new(),
            result: Tree::Token,
            steps: Vec::new(),
            arena_size: 0,
            outputs: Vec::new(),
            param_leaves: Vec::new(),
            output_params: Vec::new(),
        }
    }

    /// A slot in a new buffer.
    pub fn new_slot(&mut self, shape: ArrayShape, layout: Option<Vec<i64>>, name: &str) -> Slot {
        let buffer = self.buffers.len();
        self.buffers.push(Allocation::Unassigned);
        self.slots.push(SlotInfo { shape, layout, buffer, name: name.to_string() });
        self.slots.len() - 1
    }

    /// A slot viewing the buffer of `of` with another shape or layout.
    pub fn alias_slot(&mut self, of: Slot, shape: ArrayShape, layout: Option<Vec<i64>>, name: &str) -> Slot {
        let buffer = self.slots[of].buffer;
        self.slots.push(SlotInfo { shape, layout, buffer, name: name.to_string() });
        self.slots.len() - 1
    }

    pub fn buffer_of(&self, slot: Slot) -> BufferId {
        self.slots[slot].buffer
    }
}
