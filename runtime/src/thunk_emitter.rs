//! From the fused `hlo` module (after the CPU HLO pipeline) to thunk
//! programs (XLA's `ThunkEmitter`): each sequential computation becomes a
//! [`Program`], each fusion a kernel (emitted here, compiled later in one
//! LLVM module), each library op a library step, control flow steps that
//! run other programs.
//!
//! Ops without a native implementation in the runtime run one at a time in
//! the reference interpreter ([`Step::Interpret`]); ops that need a host
//! the runtime does not have (infeed, outfeed, send, recv) are compile
//! errors naming the op.

use crate::custom_call;
use crate::program::*;
use rxla_emitters::{choose::EmitterKind, EmittedKernel, Target};
use rxla_ir::layout::{layout_of, LayoutKind};
use rxla_ir::structure::{Fingerprint, Fingerprinter};
use rxla_ir::{
    attrs::{self, StructAttr},
    computation,
    op::{Op, Value},
    types::HloType,
};
use rxla_library::{
    array::{ArrayShape, Buffer, ElementType},
    conv::{ConvDims, WindowDim},
    dot::DotDims,
    fft::FftKind,
    rng::RngAlgorithm,
};
use std::{collections::HashMap, sync::Arc};

/// A compile error, worded for the user (it names the op and its source
/// position when it has one).
#[derive(Clone, Debug)]
pub struct CompileError(pub String);

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

type Result<T> = std::result::Result<T, CompileError>;

/// `op`'s location and name, for messages (`main.hlo:7:3 (add.5)`).
pub fn describe(op: Op) -> String {
    let loc = crate::constants::location_text(op);
    let loc = loc.strip_prefix("loc(").and_then(|l| l.strip_suffix(')')).unwrap_or(&loc).replace('"', "");
    // A named location `name(file:line:col)` reads better as
    // `file:line:col (name)`.
    let loc = match loc.split_once('(') {
        Some((name, inner)) if inner.ends_with(')') && !name.is_empty() && !name.contains(' ') => {
            format!("{} ({name})", &inner[..inner.len() - 1])
        }
        _ => loc,
    };
    format!("`{}` at {}", op.name(), loc)
}

fn err(op: Op, message: impl std::fmt::Display) -> CompileError {
    CompileError(format!("{}: {message}", describe(op)))
}

/// An in-place request: `output` should share `operand`'s buffer at step
/// `step` (if the operand dies there), else receive a copy of it first.
#[derive(Clone, Debug)]
pub struct InPlace {
    pub step: usize,
    pub operand: Slot,
    pub output: Slot,
}

/// What the emitter produced for a module.
pub struct Emitted {
    pub programs: Vec<Program>,
    pub in_place: Vec<Vec<InPlace>>,
    pub entry: usize,
    pub kernels: Vec<(KernelInfo, EmittedKernel)>,
    /// Per kernel, with `shadow_target`: the same computation emitted for
    /// that target.
    pub shadows: Vec<Option<EmittedKernel>>,
    pub constants: Vec<Buffer>,
    /// Per program, the parameter leaves its outputs may be written into:
    /// (output leaf, parameter leaf). The entry's are the module's
    /// `input_output_alias`; a while body's are every state leaf (output k
    /// is the next value of parameter k, as in XLA, so updates happen in
    /// place and unchanged leaves are not copied).
    pub aliases: Vec<Vec<(usize, usize)>>,
}

pub struct ThunkEmitter {
    module: Op,
    /// Where fusions run.
    target: Target,
    /// Where the scalar functions that library steps call (sort
    /// comparators) run: the host.
    host_target: Target,
    /// Float convolutions as emitted kernels (the elemental emitter's
    /// direct convolution) instead of the library's.
    pub emitted_convolutions: bool,
    /// Also emit every kernel for this target (the GPU's kernels for the
    /// CPU, to emulate the GPU on the host).
    pub shadow_target: Option<Target>,
    shadows: Vec<Option<EmittedKernel>>,
    programs: Vec<Option<Program>>,
    in_place: Vec<Vec<InPlace>>,
    program_index: HashMap<String, usize>,
    kernels: Vec<(KernelInfo, EmittedKernel)>,
    kernel_index: HashMap<String, usize>,
    /// Kernels by the structure of the fusions they were emitted for:
    /// a fusion like an earlier one reuses its kernel.
    fingerprints: Fingerprinter,
    kernel_by_fingerprint: HashMap<Fingerprint, usize>,
    constants: Vec<Buffer>,
    /// The programs that while loops run as bodies.
    while_bodies: Vec<usize>,
}

/// The runtime element type of an `hlo` element type.
pub fn element_type(elem: &rxla_ir::ElementType) -> Option<ElementType> {
    rxla_passes::constant::primitive_type(elem)
}

fn array_shape(op: Op, ty: &HloType) -> Result<ArrayShape> {
    let t = ty.tensor().ok_or_else(|| err(op, format!("expected an array, got {ty}")))?;
    let e = element_type(&t.elem)
        .ok_or_else(|| err(op, format!("element type {} has no runtime representation", t.elem)))?;
    Ok(ArrayShape::new(e, t.dims.clone()))
}

/// The physical layout of an array value: `None` for row-major.
fn layout(op: Op, v: Value) -> Result<Option<Vec<i64>>> {
    match layout_of(v) {
        LayoutKind::Default => Ok(None),
        LayoutKind::Permuted(m2m) => Ok(Some(m2m)),
        LayoutKind::Opaque => match v.ty() {
            HloType::Tensor(_) => {
                Err(err(op, "a layout with tiles or a memory space is not supported by the CPU runtime"))
            }
            // Tuples: their leaves are laid out row-major.
            _ => Ok(None),
        },
    }
}

impl ThunkEmitter {
    /// Fusions for `target`; comparators for the host CPU.
    pub fn new(module: Op, target: Target) -> ThunkEmitter {
        ThunkEmitter {
            module,
            target,
            host_target: Target::default_cpu(),
            emitted_convolutions: false,
            shadow_target: None,
            shadows: Vec::new(),
            programs: Vec::new(),
            in_place: Vec::new(),
            program_index: HashMap::new(),
            kernels: Vec::new(),
            kernel_index: HashMap::new(),
            fingerprints: Fingerprinter::new(module.raw()),
            kernel_by_fingerprint: HashMap::new(),
            constants: Vec::new(),
            while_bodies: Vec::new(),
        }
    }

    /// Emits the entry computation and everything it runs.
    pub fn emit(mut self) -> Result<Emitted> {
        let entry = computation::entry(self.module)
            .ok_or_else(|| CompileError("the module has no entry computation".into()))?;
        let entry_index = self.program(entry)?;
        let mut aliases = vec![Vec::new(); self.programs.len()];
        aliases[entry_index] = self.aliases(entry_index)?;
        for &body in &self.while_bodies {
            let p = self.programs[body].as_ref().expect("every program is finished");
            aliases[body] = (0..p.param_leaves.len().min(p.result.leaves().len())).map(|k| (k, k)).collect();
        }
        Ok(Emitted {
            programs: self.programs.into_iter().map(|p| p.expect("every program is finished")).collect(),
            in_place: self.in_place,
            entry: entry_index,
            kernels: self.kernels,
            shadows: self.shadows,
            constants: self.constants,
            aliases,
        })
    }

    /// `input_output_alias` of the module as (output leaf, parameter leaf)
    /// pairs of the entry program's flattened result and parameters.
    fn aliases(&self, entry: usize) -> Result<Vec<(usize, usize)>> {
        let Some(text) = module_attribute_string(self.module, "input_output_alias") else { return Ok(Vec::new()) };
        let text = text.as_str();
        let p = self.programs[entry].as_ref().expect("the entry program is finished");
        let pairs = parse_aliases(text).map_err(|e| CompileError(format!("input_output_alias `{text}`: {e}")))?;
        let leaf_index = |tree: &Tree, path: &[usize], all: &[Slot]| -> Option<usize> {
            let mut t = tree;
            for &i in path {
                t = match t {
                    Tree::Tuple(items) => items.get(i)?,
                    _ => return None,
                };
            }
            match t {
                Tree::Array(s) => all.iter().position(|x| x == s),
                _ => None,
            }
        };
        let result_leaves = p.result.leaves();
        let mut out = Vec::new();
        for (output, param, param_path) in pairs {
            let o = leaf_index(&p.result, &output, &result_leaves);
            let i = p.params.get(param).and_then(|t| {
                let offset: usize = p.params[..param].iter().map(|t| t.leaves().len()).sum();
                leaf_index(t, &param_path, &t.leaves()).map(|k| offset + k)
            });
            match (o, i) {
                (Some(o), Some(i)) => out.push((o, i)),
                _ => {
                    return Err(CompileError(format!(
                        "input_output_alias `{text}` names an output or parameter that is not an array"
                    )))
                }
            }
        }
        Ok(out)
    }

    /// The program of `func` (emitted once per computation).
    fn program(&mut self, func: Op) -> Result<usize> {
        let name = computation::name(func);
        if let Some(&i) = self.program_index.get(&name) {
            return Ok(i);
        }
        let index = self.programs.len();
        self.programs.push(None);
        self.in_place.push(Vec::new());
        self.program_index.insert(name.clone(), index);
        let mut p = Program::new(&name);
        let mut values: HashMap<Value, Tree> = HashMap::new();
        for arg in func.arguments() {
            let tree = self.new_tree(&mut p, func, arg, &arg.ty(), true, "param")?;
            p.params.push(tree.clone());
            values.insert(arg, tree);
        }
        p.param_leaves = p.params.iter().flat_map(Tree::leaves).collect();
        let mut in_place = Vec::new();
        for op in func.body_ops() {
            if op.is_named("func.return") {
                let trees: Vec<Tree> = op.operands().iter().map(|v| values[v].clone()).collect();
                let mut result = if trees.len() == 1 { trees.into_iter().next().unwrap() } else { Tree::Tuple(trees) };
                // Called computations (branches, loop bodies, calls) return
                // row-major buffers, whatever layout their root has (a
                // branch whose root is a transpose); the entry keeps its
                // declared result layouts (the ABI).
                if computation::entry(self.module) != Some(func) {
                    let leaves: Vec<Slot> = result.leaves().into_iter().map(|s| self.row_major(&mut p, s)).collect();
                    result = result.rebuild(&mut leaves.into_iter());
                }
                p.result = result;
                continue;
            }
            self.op(&mut p, &mut in_place, op, &mut values)?;
        }
        self.programs[index] = Some(p);
        self.in_place[index] = in_place;
        Ok(index)
    }

    /// Fresh slots for a value of type `ty` (the value's layout for arrays;
    /// row-major leaves for tuples).
    fn new_tree(&mut self, p: &mut Program, op: Op, v: Value, ty: &HloType, top: bool, name: &str) -> Result<Tree> {
        match ty {
            HloType::Tensor(_) => {
                let shape = array_shape(op, ty)?;
                let layout = if top { layout(op, v)? } else { None };
                Ok(Tree::Array(p.new_slot(shape, layout, name)))
            }
            HloType::Tuple(items) => {
                Ok(Tree::Tuple(items.iter().map(|t| self.new_tree(p, op, v, t, false, name)).collect::<Result<_>>()?))
            }
            HloType::Token => Ok(Tree::Token),
            HloType::Other(t) => Err(err(op, format!("values of type {t} are not supported by the CPU runtime"))),
        }
    }

    /// A row-major slot holding `slot`'s value (a relayout step if the
    /// slot has another layout).
    fn row_major(&mut self, p: &mut Program, slot: Slot) -> Slot {
        self.in_layout(p, slot, None)
    }

    /// A slot holding `slot`'s value in layout `want` (a relayout step if
    /// the slot has another one).
    fn in_layout(&mut self, p: &mut Program, slot: Slot, want: Option<Vec<i64>>) -> Slot {
        if p.slots[slot].layout == want {
            return slot;
        }
        let shape = p.slots[slot].shape.clone();
        let name = p.slots[slot].name.clone();
        let to = p.new_slot(shape, want, &name);
        p.steps.push(Step::Relayout { from: slot, to });
        to
    }

    /// Result slot `slot` is filled by a library step that writes row-major:
    /// the step writes a row-major temporary, then it is relaid out.
    fn row_major_result(&mut self, p: &mut Program, slot: Slot) -> (Slot, Option<Step>) {
        if p.slots[slot].layout.is_none() {
            return (slot, None);
        }
        let shape = p.slots[slot].shape.clone();
        let name = p.slots[slot].name.clone();
        let tmp = p.new_slot(shape, None, &name);
        (tmp, Some(Step::Relayout { from: tmp, to: slot }))
    }

    fn array(&self, op: Op, values: &HashMap<Value, Tree>, v: Value) -> Result<Slot> {
        match values.get(&v) {
            Some(Tree::Array(s)) => Ok(*s),
            Some(_) => Err(err(op, "expected an array operand, got a tuple or token")),
            None => Err(err(op, "an operand is not defined before its use")),
        }
    }

    /// Fresh slots for every result of `op`.
    fn results(&mut self, p: &mut Program, op: Op) -> Result<Vec<Tree>> {
        let name = op.string_attr("hlo.name").unwrap_or_else(|| op.opcode());
        op.results().iter().map(|r| self.new_tree(p, op, *r, &r.ty(), true, &name)).collect()
    }

    fn callee(&self, op: Op, attr: &str) -> Result<Op> {
        let name = op.symbol_attr(attr).ok_or_else(|| err(op, format!("missing `{attr}`")))?;
        computation::lookup(self.module, &name).ok_or_else(|| err(op, format!("computation `{name}` not found")))
    }

    fn op(
        &mut self,
        p: &mut Program,
        in_place: &mut Vec<InPlace>,
        op: Op,
        values: &mut HashMap<Value, Tree>,
    ) -> Result<()> {
        let opcode = op.opcode();
        let operand_trees = || -> Result<Vec<Tree>> {
            op.operands()
                .iter()
                .map(|v| values.get(v).cloned().ok_or_else(|| err(op, "an operand is not defined before its use")))
                .collect()
        };
        let results: Vec<Tree> = match opcode.as_str() {
            "fusion" => self.fusion(p, in_place, op, values)?,
            "constant" => vec![self.constant(p, op)?],
            "tuple" => vec![Tree::Tuple(operand_trees()?)],
            "get_tuple_element" => {
                let index = op.int_attr("index").ok_or_else(|| err(op, "missing index"))? as usize;
                match &operand_trees()?[0] {
                    Tree::Tuple(items) => {
                        vec![items.get(index).cloned().ok_or_else(|| err(op, "tuple index out of range"))?]
                    }
                    _ => return Err(err(op, "get-tuple-element of a non-tuple")),
                }
            }
            "bitcast" | "reshape" => {
                let mut from = self.array(op, values, op.operand(0))?;
                if opcode == "bitcast" {
                    // A bitcast reinterprets the bytes of its operand in the
                    // operand's declared layout; a slot holding the value in
                    // another one (a control-flow result, row-major) is
                    // relaid out first.
                    from = self.in_layout(p, from, layout(op, op.operand(0))?);
                }
                let result = op.result(0);
                let shape = array_shape(op, &result.ty())?;
                let to_layout = layout(op, result)?;
                if opcode == "bitcast" {
                    vec![Tree::Array(p.alias_slot(from, shape, to_layout, &op.opcode()))]
                } else {
                    // A reshape is a bitcast of row-major arrays.
                    let src = self.row_major(p, from);
                    let viewed = p.alias_slot(src, shape.clone(), None, "reshape");
                    match to_layout {
                        None => vec![Tree::Array(viewed)],
                        Some(l) => {
                            let to = p.new_slot(shape, Some(l), "reshape");
                            p.steps.push(Step::Relayout { from: viewed, to });
                            vec![Tree::Array(to)]
                        }
                    }
                }
            }
            "optimization_barrier" => operand_trees()?,
            "after_all" => vec![Tree::Token],
            "add_dependency" => vec![operand_trees()?[0].clone()],
            "replica_id" | "partition_id" => {
                let out = p.new_slot(ArrayShape::new(ElementType::U32, vec![]), None, &opcode);
                p.steps.push(Step::DeviceId { out, partition: opcode == "partition_id" });
                vec![Tree::Array(out)]
            }
            "dot" => self.dot(p, op, values)?,
            "convolution" if self.emitted_convolutions && emits_convolution(op) => {
                self.convolution_kernel(p, op, values)?
            }
            "convolution" => self.convolution(p, op, values)?,
            "sort" => self.sort(p, op, values)?,
            "fft" => self.fft(p, op, values)?,
            "topk" => self.topk(p, op, values)?,
            "rng_bit_generator" => self.rng_bit_generator(p, op, values)?,
            "custom_call" => self.custom_call(p, op, values)?,
            "while" => self.while_loop(p, op, values)?,
            "conditional" => self.conditional(p, op, values)?,
            "call" => self.call(p, op, values)?,
            "infeed" | "outfeed" | "send" | "send_done" | "recv" | "recv_done" => {
                return Err(err(op, "needs a host the CPU runtime does not provide (infeed/outfeed/send/recv)"));
            }
            _ => self.interpret(p, op, values)?,
        };
        for (r, t) in op.results().into_iter().zip(results) {
            values.insert(r, t);
        }
        Ok(())
    }

    /// Registers a kernel (once per name) with `outputs` output buffers;
    /// `shadow` is the same computation emitted for `shadow_target`.
    fn kernel(&mut self, kernel: EmittedKernel, outputs: usize, shadow: Option<EmittedKernel>) -> usize {
        if let Some(&i) = self.kernel_index.get(&kernel.name) {
            return i;
        }
        self.shadows.push(shadow);
        let (workgroups, launch) = match &kernel.grid {
            rxla_emitters::launch::Grid::Cpu { workgroups } => (*workgroups, None),
            rxla_emitters::launch::Grid::Gpu(l) => (1, Some(*l)),
        };
        let info = KernelInfo {
            name: kernel.name.clone(),
            workgroups,
            launch,
            outputs,
            emitter: kernel.kind.name().to_string(),
        };
        self.kernel_index.insert(kernel.name.clone(), self.kernels.len());
        self.kernels.push((info, kernel));
        self.kernels.len() - 1
    }

    fn fusion(
        &mut self,
        p: &mut Program,
        in_place: &mut Vec<InPlace>,
        op: Op,
        values: &HashMap<Value, Tree>,
    ) -> Result<Vec<Tree>> {
        let fused = self.callee(op, "calls")?;
        let outputs = op.results().len();
        let empty = |t: HloType| matches!(t, HloType::Tensor(t) if t.num_elements() == 0);
        if op.results().iter().all(|r| empty(r.ty())) {
            // Nothing to compute (and no kernel for a grid of no elements).
            return self.results(p, op);
        }
        let fingerprint = self.fingerprints.fusion(op.raw());
        let reused = fingerprint.as_ref().and_then(|f| self.kernel_by_fingerprint.get(f)).copied();
        let kernel = match reused {
            Some(k) => k,
            None => {
                let emitted = rxla_emitters::emit_fusion(op, self.module, &self.target)
                    .map_err(|e| err(op, format!("kernel {e}")))?;
                let shadow = match &self.shadow_target {
                    Some(t) => Some(
                        rxla_emitters::emit_fusion(op, self.module, t).map_err(|e| err(op, format!("kernel {e}")))?,
                    ),
                    None => None,
                };
                let k = self.kernel(emitted, outputs, shadow);
                if let Some(f) = fingerprint {
                    self.kernel_by_fingerprint.insert(f, k);
                }
                k
            }
        };
        let kind = self.kernels[kernel].1.kind;
        // A kernel reads each operand in the layout of its fused
        // computation's parameter (a fusion may read a column-major
        // parameter through a bitcast of its bytes).
        let mut args = Vec::new();
        let params = fused.arguments();
        for (i, v) in op.operands().into_iter().enumerate() {
            let s = self.array(op, values, v)?;
            let want = match params.get(i) {
                Some(a) => layout(op, *a)?,
                None => None,
            };
            args.push(self.in_layout(p, s, want));
        }
        let results = self.results(p, op)?;
        let mut relayouts = Vec::new();
        let mut outs = Vec::new();
        for t in &results {
            let Tree::Array(s) = t else { return Err(err(op, "a fusion with a tuple result")) };
            let (s, relayout) = self.row_major_result(p, *s);
            outs.push(s);
            relayouts.extend(relayout);
        }
        if matches!(kind, EmitterKind::InPlaceDynamicUpdateSlice | EmitterKind::Scatter) {
            for (k, param) in in_place_parameters(fused).into_iter().enumerate() {
                let param = param.ok_or_else(|| err(op, "an in-place root does not update a parameter"))?;
                in_place.push(InPlace { step: p.steps.len(), operand: args[param], output: outs[k] });
            }
        }
        args.extend(&outs);
        p.steps.push(Step::Kernel { kernel, args });
        p.steps.extend(relayouts);
        Ok(results)
    }

    fn constant(&mut self, p: &mut Program, op: Op) -> Result<Tree> {
        let result = op.result(0);
        let shape = array_shape(op, &result.ty())?;
        let layout = layout(op, result)?;
        let bytes = crate::constants::bytes(self.module, op, &shape).map_err(|e| err(op, e))?;
        let bytes = match &layout {
            None => bytes,
            Some(m2m) => crate::relayout::to_physical(&shape, m2m, &bytes),
        };
        let k = self.constants.len();
        self.constants.push(Buffer::from_bytes(&bytes));
        let slot = p.new_slot(shape, layout, &op.string_attr("hlo.name").unwrap_or_else(|| "constant".into()));
        let b = p.buffer_of(slot);
        p.buffers[b] = Allocation::Constant(k);
        Ok(Tree::Array(slot))
    }

    fn library_operands(&mut self, p: &mut Program, op: Op, values: &HashMap<Value, Tree>) -> Result<Vec<Slot>> {
        let mut out = Vec::new();
        for v in op.operands() {
            let s = self.array(op, values, v)?;
            out.push(self.row_major(p, s));
        }
        Ok(out)
    }

    fn dot(&mut self, p: &mut Program, op: Op, values: &HashMap<Value, Tree>) -> Result<Vec<Tree>> {
        let d = attrs::DotDims::of(op).ok_or_else(|| err(op, "missing dot dimension numbers"))?;
        let u = |v: Vec<i64>| v.into_iter().map(|x| x as usize).collect::<Vec<_>>();
        let dims = DotDims {
            lhs_batch: u(d.lhs_batch),
            rhs_batch: u(d.rhs_batch),
            lhs_contracting: u(d.lhs_contracting),
            rhs_contracting: u(d.rhs_contracting),
        };
        let operands = self.library_operands(p, op, values)?;
        if operands.len() != 2 {
            return Err(err(op, "a dot with other than two operands (sparsity metadata) is not supported"));
        }
        let results = self.results(p, op)?;
        let Tree::Array(out) = results[0] else { unreachable!() };
        let (tmp, relayout) = self.row_major_result(p, out);
        p.steps.push(Step::Dot { lhs: operands[0], rhs: operands[1], out: tmp, dims });
        p.steps.extend(relayout);
        Ok(results)
    }

    fn convolution(&mut self, p: &mut Program, op: Op, values: &HashMap<Value, Tree>) -> Result<Vec<Tree>> {
        let dn =
            StructAttr::of(op, "dimension_numbers").ok_or_else(|| err(op, "missing convolution dimension numbers"))?;
        let one = |name: &str| -> Result<usize> {
            dn.raw(name).and_then(|t| t.trim().parse::<usize>().ok()).ok_or_else(|| err(op, format!("missing {name}")))
        };
        let many = |name: &str| dn.list(name).into_iter().map(|x| x as usize).collect::<Vec<_>>();
        let dims = ConvDims {
            input_batch: one("input_batch_dim")?,
            input_feature: one("input_feature_dim")?,
            input_spatial: many("input_spatial_dims"),
            kernel_input_feature: one("kernel_input_feature_dim")?,
            kernel_output_feature: one("kernel_output_feature_dim")?,
            kernel_spatial: many("kernel_spatial_dims"),
            output_batch: one("output_batch_dim")?,
            output_feature: one("output_feature_dim")?,
            output_spatial: many("output_spatial_dims"),
        };
        let window: Vec<WindowDim> = match attrs::Window::of(op) {
            Some(w) => {
                w.0.iter()
                    .map(|w| WindowDim {
                        size: w.size,
                        stride: w.stride,
                        pad_low: w.pad_low,
                        pad_high: w.pad_high,
                        lhs_dilation: w.lhs_dilation,
                        rhs_dilation: w.rhs_dilation,
                        reversal: w.reversal,
                    })
                    .collect()
            }
            None => {
                let rhs = array_shape(op, &op.operand(1).ty())?;
                dims.kernel_spatial.iter().map(|&d| WindowDim::new(rhs.dims[d])).collect()
            }
        };
        let feature_groups = op.int_attr("feature_group_count").unwrap_or(1) as usize;
        let batch_groups = op.int_attr("batch_group_count").unwrap_or(1) as usize;
        let operands = self.library_operands(p, op, values)?;
        let results = self.results(p, op)?;
        let Tree::Array(out) = results[0] else { unreachable!() };
        let (tmp, relayout) = self.row_major_result(p, out);
        p.steps.push(Step::Convolution {
            lhs: operands[0],
            rhs: operands[1],
            out: tmp,
            dims,
            window,
            feature_groups,
            batch_groups,
        });
        p.steps.extend(relayout);
        Ok(results)
    }

    /// `func` emitted for the shadow target, if there is one.
    fn shadow(&self, func: Op, op: Op) -> Result<Option<EmittedKernel>> {
        match &self.shadow_target {
            Some(t) => Ok(Some(
                rxla_emitters::emit_computation(func, None, Some(self.module), t)
                    .map_err(|e| err(op, format!("kernel {e}")))?,
            )),
            None => Ok(None),
        }
    }

    /// A convolution as a kernel of its own: a one-op computation through
    /// the emitters (the loop emitter over the output, the elemental
    /// emitter's direct convolution per element).
    fn convolution_kernel(&mut self, p: &mut Program, op: Op, values: &HashMap<Value, Tree>) -> Result<Vec<Tree>> {
        let operands = self.library_operands(p, op, values)?;
        let types: Vec<HloType> = op.operands().iter().map(|v| v.ty()).collect();
        let (func, b, args) = computation::create_function(self.module, "convolution", &types, &[op.result(0).ty()])
            .map_err(|e| err(op, e))?;
        let conv = op.clone_detached();
        conv.set_operands(&args);
        conv.remove_attr("hlo.layout");
        b.insert(conv.raw());
        b.ret(&[conv.result(0)]).map_err(|e| err(op, e))?;
        let kernel = rxla_emitters::emit_computation(func, None, Some(self.module), &self.target)
            .map_err(|e| err(op, format!("convolution kernel {e}")))?;
        let shadow = self.shadow(func, op)?;
        let kernel = self.kernel(kernel, 1, shadow);
        let results = self.results(p, op)?;
        let Tree::Array(out) = results[0] else { unreachable!() };
        let (tmp, relayout) = self.row_major_result(p, out);
        let mut args = operands;
        args.push(tmp);
        p.steps.push(Step::Kernel { kernel, args });
        p.steps.extend(relayout);
        Ok(results)
    }

    fn sort(&mut self, p: &mut Program, op: Op, values: &HashMap<Value, Tree>) -> Result<Vec<Tree>> {
        let comparator = self.callee(op, "to_apply")?;
        if let Some(keys) = crate::sort_keys::analyze(comparator) {
            return self.sort_by_keys(p, op, values, &keys);
        }
        // The runtime's sort calls the comparator on the host.
        let kernel = rxla_emitters::emit_computation(comparator, None, Some(self.module), &self.host_target)
            .map_err(|e| err(op, format!("comparator {e}")))?;
        let comparator = self.kernel(kernel, 1, None);
        let dimension = op.int_attr("dimension").ok_or_else(|| err(op, "missing dimension"))? as usize;
        let operands = self.library_operands(p, op, values)?;
        let results = self.results(p, op)?;
        let mut outs = Vec::new();
        let mut relayouts = Vec::new();
        for (t, from) in results.iter().zip(&operands) {
            let Tree::Array(s) = t else { unreachable!() };
            let (s, relayout) = self.row_major_result(p, *s);
            p.steps.push(Step::Copy { from: *from, to: s });
            outs.push(s);
            relayouts.extend(relayout);
        }
        p.steps.push(Step::Sort { outputs: outs, dimension, comparator });
        p.steps.extend(relayouts);
        Ok(results)
    }

    /// A sort whose comparator compares one key per element: a kernel
    /// computes the keys, the runtime sorts by them.
    fn sort_by_keys(
        &mut self,
        p: &mut Program,
        op: Op,
        values: &HashMap<Value, Tree>,
        keys: &crate::sort_keys::KeyComparator,
    ) -> Result<Vec<Tree>> {
        let dimension = op.int_attr("dimension").ok_or_else(|| err(op, "missing dimension"))? as usize;
        let operand_type = op.operand(0).ty().into_tensor().ok_or_else(|| err(op, "sort of a non-array"))?;
        let func =
            crate::sort_keys::key_function(self.module, keys, &operand_type, "sort_keys").map_err(|e| err(op, e))?;
        let kernel = rxla_emitters::emit_computation(func, None, Some(self.module), &self.target)
            .map_err(|e| err(op, format!("sort keys {e}")))?;
        let shadow = self.shadow(func, op)?;
        let kernel = self.kernel(kernel, 1, shadow);
        let operands = self.library_operands(p, op, values)?;
        let key_elem = keys.key.ty().tensor().expect("an array key").elem.clone();
        let key_type = element_type(&key_elem).ok_or_else(|| err(op, "a sort key of an unsupported type"))?;
        let key_slot = p.new_slot(ArrayShape::new(key_type, operand_type.dims.clone()), None, "sort_keys");
        p.steps.push(Step::Kernel { kernel, args: vec![operands[0], key_slot] });
        let results = self.results(p, op)?;
        let mut outs = Vec::new();
        let mut relayouts = Vec::new();
        for (t, from) in results.iter().zip(&operands) {
            let Tree::Array(s) = t else { unreachable!() };
            let (s, relayout) = self.row_major_result(p, *s);
            p.steps.push(Step::Copy { from: *from, to: s });
            outs.push(s);
            relayouts.extend(relayout);
        }
        p.steps.push(Step::SortByKeys {
            keys: key_slot,
            outputs: outs,
            dimension,
            order: keys.order,
            descending: keys.descending,
        });
        p.steps.extend(relayouts);
        Ok(results)
    }

    /// `topk` through the library for the element types whose bits order as
    /// keys; the interpreter for the others.
    fn topk(&mut self, p: &mut Program, op: Op, values: &HashMap<Value, Tree>) -> Result<Vec<Tree>> {
        let input = array_shape(op, &op.operand(0).ty())?;
        let supported = rxla_library::topk::key_order(input.ty).is_some();
        if !supported || op.num_results() != 2 || op.num_operands() != 1 {
            return self.interpret(p, op, values);
        }
        let largest = op.bool_attr("largest").unwrap_or(true);
        let operands = self.library_operands(p, op, values)?;
        let (results, outputs, relayouts) = self.row_major_results(p, op)?;
        let [top, positions] = outputs[..] else { return Err(err(op, "topk results must be two arrays")) };
        p.steps.push(Step::TopK { input: operands[0], values: top, indices: positions, largest });
        p.steps.extend(relayouts);
        Ok(results)
    }

    fn fft(&mut self, p: &mut Program, op: Op, values: &HashMap<Value, Tree>) -> Result<Vec<Tree>> {
        let kind_text = attrs::enum_case(op, "fft_type").ok_or_else(|| err(op, "missing fft_type"))?;
        let kind = FftKind::parse(&kind_text).ok_or_else(|| err(op, format!("unknown fft_type {kind_text}")))?;
        let lengths = op.dims_attr("fft_length").ok_or_else(|| err(op, "missing fft_length"))?;
        let operands = self.library_operands(p, op, values)?;
        let results = self.results(p, op)?;
        let Tree::Array(out) = results[0] else { unreachable!() };
        let (tmp, relayout) = self.row_major_result(p, out);
        p.steps.push(Step::Fft { input: operands[0], output: tmp, kind, lengths });
        p.steps.extend(relayout);
        Ok(results)
    }

    fn rng_bit_generator(&mut self, p: &mut Program, op: Op, values: &HashMap<Value, Tree>) -> Result<Vec<Tree>> {
        let text = attrs::enum_case(op, "algorithm").unwrap_or_else(|| "rng_default".into());
        let algorithm = RngAlgorithm::parse(&text)
            .or_else(|| RngAlgorithm::parse(&format!("rng_{}", text.to_ascii_lowercase())))
            .ok_or_else(|| err(op, format!("unknown rng algorithm {text}")))?;
        let operands = self.library_operands(p, op, values)?;
        let results = self.results(p, op)?;
        let (Tree::Array(state), Tree::Array(out)) = (&results[0], &results[1]) else {
            return Err(err(op, "unexpected result structure"));
        };
        let (s, r1) = self.row_major_result(p, *state);
        let (o, r2) = self.row_major_result(p, *out);
        p.steps.push(Step::RngBitGenerator { algorithm, state: operands[0], new_state: s, output: o });
        p.steps.extend(r1);
        p.steps.extend(r2);
        Ok(results)
    }

    fn custom_call(&mut self, p: &mut Program, op: Op, values: &HashMap<Value, Tree>) -> Result<Vec<Tree>> {
        let target = op.string_attr("custom_call_target").unwrap_or_default();
        // LAPACK's targets (JAX's CPU linear algebra) run through the
        // interpreter unless a host function replaces them.
        if custom_call::lookup(&target).is_none() && rxla_hlo_text::custom_calls::is_lapack_target(&target) {
            return self.interpret(p, op, values);
        }
        let function = custom_call::lookup(&target).ok_or_else(|| {
            err(
                op,
                rxla_hlo_text::custom_calls::unknown_target_message(
                    &target,
                    "the CPU runtime (rxla_runtime::custom_call::register)",
                ),
            )
        })?;
        let opaque = op.string_attr("backend_config").unwrap_or_default();
        let inputs = self.library_operands(p, op, values)?;
        let results = self.results(p, op)?;
        let mut outputs = Vec::new();
        let mut relayouts = Vec::new();
        for t in &results {
            for leaf in t.leaves() {
                let (s, r) = self.row_major_result(p, leaf);
                outputs.push(s);
                relayouts.extend(r);
            }
        }
        p.steps.push(Step::CustomCall { target, function, inputs, outputs, opaque });
        p.steps.extend(relayouts);
        Ok(results)
    }

    fn while_loop(&mut self, p: &mut Program, op: Op, values: &HashMap<Value, Tree>) -> Result<Vec<Tree>> {
        let cond = self.program(self.callee(op, "condition")?)?;
        let body = self.program(self.callee(op, "body")?)?;
        let init_tree = values.get(&op.operand(0)).cloned().ok_or_else(|| err(op, "undefined operand"))?;
        let mut init = Vec::new();
        for leaf in init_tree.leaves() {
            init.push(self.row_major(p, leaf));
        }
        self.check_row_major(op, body)?;
        self.check_row_major(op, cond)?;
        // A leaf the body returns unchanged (its parameter, as JAX's loops
        // carry the weights they close over) is only read: its state is the
        // init buffer itself, with no copy in and none per iteration.
        let passthrough: Vec<bool> = {
            let b = self.programs[body].as_ref().expect("the body is finished");
            let results = b.result.leaves();
            (0..init.len()).map(|k| results.get(k).is_some_and(|r| Some(r) == b.param_leaves.get(k))).collect()
        };
        let state: Vec<Slot> = init
            .iter()
            .zip(passthrough)
            .map(|(&i, read_only)| {
                let shape = p.slots[i].shape.clone();
                if read_only {
                    let name = p.slots[i].name.clone();
                    p.alias_slot(i, shape, None, &name)
                } else {
                    p.new_slot(shape, None, "while")
                }
            })
            .collect();
        self.while_bodies.push(body);
        let tree = init_tree.rebuild(&mut state.iter().copied());
        let trip_count = op.string_attr("hlo.backend_config").and_then(|c| known_trip_count(&c));
        p.steps.push(Step::While { cond, body, init, state, trip_count });
        Ok(vec![tree])
    }

    /// Loop states and branch operands are passed as row-major buffers.
    fn check_row_major(&self, op: Op, program: usize) -> Result<()> {
        if let Some(prog) = &self.programs[program] {
            let results = prog.result.leaves();
            let leaves = prog.param_leaves.iter().chain(&results);
            if leaves.into_iter().any(|&s| prog.slots[s].layout.is_some()) {
                return Err(err(
                    op,
                    format!("computation `{}` takes or returns arrays with non-default layouts", prog.name),
                ));
            }
        }
        Ok(())
    }

    fn conditional(&mut self, p: &mut Program, op: Op, values: &HashMap<Value, Tree>) -> Result<Vec<Tree>> {
        let names = op.symbol_list_attr("branch_computations").ok_or_else(|| err(op, "missing branch_computations"))?;
        let mut branches = Vec::new();
        for name in &names {
            let f = computation::lookup(self.module, name)
                .ok_or_else(|| err(op, format!("computation `{name}` not found")))?;
            let b = self.program(f)?;
            self.check_row_major(op, b)?;
            branches.push(b);
        }
        let selector = self.array(op, values, op.operand(0))?;
        let mut operands = Vec::new();
        for v in op.operands().into_iter().skip(1) {
            let tree = values.get(&v).cloned().ok_or_else(|| err(op, "undefined operand"))?;
            let mut leaves = Vec::new();
            for leaf in tree.leaves() {
                leaves.push(self.row_major(p, leaf));
            }
            operands.push(leaves);
        }
        let (results, leaves, relayouts) = self.row_major_results(p, op)?;
        p.steps.push(Step::Conditional { selector, branches, operands, results: leaves });
        p.steps.extend(relayouts);
        Ok(results)
    }

    /// The results of an op whose step writes row-major buffers (control
    /// flow, the interpreter, library steps): the result slots (in their
    /// declared layouts), the row-major slots the step fills, and the
    /// relayout steps to run after it.
    fn row_major_results(&mut self, p: &mut Program, op: Op) -> Result<(Vec<Tree>, Vec<Slot>, Vec<Step>)> {
        let results = self.results(p, op)?;
        let mut filled = Vec::new();
        let mut relayouts = Vec::new();
        for t in &results {
            for leaf in t.leaves() {
                let (slot, relayout) = self.row_major_result(p, leaf);
                filled.push(slot);
                relayouts.extend(relayout);
            }
        }
        Ok((results, filled, relayouts))
    }

    fn call(&mut self, p: &mut Program, op: Op, values: &HashMap<Value, Tree>) -> Result<Vec<Tree>> {
        let program = self.program(self.callee(op, "to_apply")?)?;
        self.check_row_major(op, program)?;
        let mut args = Vec::new();
        for v in op.operands() {
            let tree = values.get(&v).cloned().ok_or_else(|| err(op, "undefined operand"))?;
            for leaf in tree.leaves() {
                args.push(self.row_major(p, leaf));
            }
        }
        let (results, leaves, relayouts) = self.row_major_results(p, op)?;
        p.steps.push(Step::Call { program, args, results: leaves });
        p.steps.extend(relayouts);
        Ok(results)
    }

    fn interpret(&mut self, p: &mut Program, op: Op, values: &HashMap<Value, Tree>) -> Result<Vec<Tree>> {
        let module = crate::constants::single_op_module(self.module, op).map_err(|e| err(op, e))?;
        let mut inputs = Vec::new();
        for v in op.operands() {
            let tree = values.get(&v).cloned().ok_or_else(|| err(op, "undefined operand"))?;
            let rebuilt: Vec<Slot> = tree.leaves().into_iter().map(|s| self.row_major(p, s)).collect();
            inputs.push(tree.rebuild(&mut rebuilt.into_iter()));
        }
        let (results, outputs, relayouts) = self.row_major_results(p, op)?;
        p.steps.push(Step::Interpret { opcode: op.opcode(), module: Arc::new(module), inputs, outputs });
        p.steps.extend(relayouts);
        Ok(results)
    }
}

/// Whether the elemental emitter computes `op` (a convolution): float,
/// complex and integer element types (`rxla_emitters::elemental::computes_convolution`).
fn emits_convolution(op: Op) -> bool {
    let elem = |v: Value| v.ty().tensor().map(|t| t.elem.clone());
    match (
        elem(op.result(0)),
        op.operands().first().copied().and_then(elem),
        op.operands().get(1).copied().and_then(elem),
    ) {
        (Some(result), Some(lhs), Some(rhs)) => rxla_emitters::elemental::computes_convolution(&result, &lhs, &rhs),
        _ => false,
    }
}

/// The `known_trip_count` of a while loop's backend config
/// (`{"known_trip_count":{"n":"5"},...}`), as XLA's WhileThunk reads it.
fn known_trip_count(config: &str) -> Option<u64> {
    let json: serde_json::Value = serde_json::from_str(config).ok()?;
    let n = json.get("known_trip_count")?.get("n")?;
    match n {
        serde_json::Value::String(s) => s.parse().ok(),
        other => other.as_u64(),
    }
}

/// One input/output alias: (output index path, parameter, parameter index
/// path).
type Alias = (Vec<usize>, usize, Vec<usize>);

/// `{ {0}: (1, {}, may-alias), {1, 2}: (0, {1}) }` as (output index path,
/// parameter, parameter index path) triples.
/// The string entry `name` of the module's `hlo.module_attributes`.
fn module_attribute_string(module: Op, name: &str) -> Option<String> {
    use mlir_sys::*;
    let dict = module.attr_raw("hlo.module_attributes")?;
    // SAFETY: live attributes, only read.
    unsafe {
        if !mlirAttributeIsADictionary(dict) {
            return None;
        }
        let entry = mlirDictionaryAttrGetElementByName(dict, rxla_ir::op::string_ref(name));
        (!entry.ptr.is_null() && mlirAttributeIsAString(entry))
            .then(|| rxla_ir::op::string(mlirStringAttrGetValue(entry)))
    }
}

fn parse_aliases(text: &str) -> std::result::Result<Vec<Alias>, String> {
    let path = |t: &str| -> std::result::Result<Vec<usize>, String> {
        let inner = t.trim().strip_prefix('{').and_then(|t| t.strip_suffix('}')).ok_or("expected {...}")?;
        inner
            .split(',')
            .map(str::trim)
            .filter(|x| !x.is_empty())
            .map(|x| x.parse().map_err(|_| format!("bad index {x}")))
            .collect()
    };
    let body = text.trim().strip_prefix('{').and_then(|t| t.strip_suffix('}')).ok_or("expected {...}")?;
    let mut out = Vec::new();
    let mut rest = body.trim();
    while !rest.is_empty() {
        let close = rest.find('}').ok_or("unclosed output index")?;
        let output = path(&rest[..=close])?;
        rest = rest[close + 1..].trim_start().strip_prefix(':').ok_or("expected ':'")?.trim_start();
        let end = rest.find(')').ok_or("unclosed parameter")?;
        let inside = rest.strip_prefix('(').ok_or("expected '('")?;
        let inside = &inside[..end - 1];
        let (param, tail) = inside.split_once(',').ok_or("expected a parameter index path")?;
        let param: usize = param.trim().parse().map_err(|_| format!("bad parameter {param}"))?;
        let tail = tail.trim();
        let close = tail.find('}').ok_or("unclosed parameter index")?;
        out.push((output, param, path(&tail[..=close])?));
        rest = rest[end + 1..].trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
    }
    Ok(out)
}

/// For each root of an in-place fused computation, the parameter whose
/// buffer it updates (through bitcasts: the operand of its DUS or
/// scatter).
pub fn in_place_parameters(fused: Op) -> Vec<Option<usize>> {
    let through_bitcasts = |mut v: Value| -> Value {
        while let Some(def) = v.op().filter(|o| o.is("bitcast") || o.is("reshape")) {
            v = def.operand(0);
        }
        v
    };
    fused
        .return_values()
        .into_iter()
        .map(|root| {
            let root = through_bitcasts(root);
            let def = root.op()?;
            if !(def.is("dynamic_update_slice") || def.is("scatter")) {
                return None;
            }
            let operand = through_bitcasts(def.operand(0));
            if operand.op().is_some() {
                return None;
            }
            operand.arg_number()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn parses_input_output_aliases() {
        assert_eq!(
            super::parse_aliases("{ {0}: (1, {}, may-alias), {1, 2}: (0, {1}) }").unwrap(),
            vec![(vec![0], 1, vec![]), (vec![1, 2], 0, vec![1])]
        );
        assert_eq!(super::parse_aliases("{ {}: (0, {}) }").unwrap(), vec![(vec![], 0, vec![])]);
        assert!(super::parse_aliases("{ {0}: 1 }").is_err());
    }
}
