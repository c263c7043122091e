//! HLO text -> `hlo` dialect.
//!
//! The syntax tree from `rxla-hlo-text` is written out as MLIR in generic
//! op form, every op carrying `loc("<instruction name>"("<file>":line:col))`,
//! and handed to MLIR's parser, which builds and verifies the module. So a
//! verifier error points at the HLO instruction, and the instruction's
//! name survives for the exporter. (Text is also the fastest way into MLIR
//! from Rust: one parser call instead of a C API call per op and attribute.)

mod ops;
pub mod sdy;

use crate::{
    literal::{array_to_mlir, elided_to_mlir, is_elided, ElidedFill},
    types::{layout_attr_for, mlir_type, quote},
};
use rxla_hlo_text::ast::{self, Computation, Instruction, Literal, Pos, Shape};
use std::{cell::RefCell, collections::HashMap, fmt, fmt::Write as _};

/// An import failure, located in the HLO text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError {
    pub pos: Pos,
    pub message: String,
}

impl ImportError {
    pub fn new(pos: Pos, message: impl Into<String>) -> Self {
        Self { pos, message: message.into() }
    }

    /// `file:line:col: error: message`.
    pub fn render(&self, file: &str) -> String {
        format!("{file}:{}:{}: error: {}", self.pos.line, self.pos.col, self.message)
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: error: {}", self.pos.line, self.pos.col, self.message)
    }
}

impl std::error::Error for ImportError {}

pub type Result<T> = std::result::Result<T, ImportError>;

/// Something imported that the user should know about (a constant whose
/// elements the dump elided, ...), at an instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportWarning {
    pub pos: Pos,
    /// The instruction's name.
    pub instruction: String,
    pub message: String,
}

impl ImportWarning {
    /// `file:line:col: warning: message`.
    pub fn render(&self, file: &str) -> String {
        format!("{file}:{}:{}: warning: {}", self.pos.line, self.pos.col, self.message)
    }
}

/// A value available to later instructions.
#[derive(Clone)]
pub(crate) struct Value {
    pub ssa: String,
    pub ty: String,
}

/// Writes the MLIR text of `module`; `file` names the source in locations.
/// Also returns the warnings to report.
pub fn to_mlir_text(module: &ast::Module, file: &str) -> Result<(String, Vec<ImportWarning>)> {
    let mut out = String::new();
    let names: Vec<&str> = module.computations.iter().map(|c| c.name.as_str()).collect();
    let mut seen = HashMap::new();
    for computation in &module.computations {
        if let Some(first) = seen.insert(computation.name.as_str(), computation.pos) {
            return Err(ImportError::new(
                computation.pos,
                format!("computation '{}' is defined twice (first at line {})", computation.name, first.line),
            ));
        }
    }
    let signatures: HashMap<&str, (Vec<String>, String)> =
        module.computations.iter().map(|c| Ok((c.name.as_str(), computation_signature(c)?))).collect::<Result<_>>()?;

    let frames: HashMap<i64, &ast::StackFrame> = module.stack_frames.iter().map(|f| (f.id, f)).collect();
    let _ = write!(out, "module @{}", quote(&module.name));
    let mut module_attrs = Vec::new();
    if !module.attributes.is_empty() {
        let entries: Vec<String> =
            module.attributes.iter().map(|a| format!("{} = {}", quote(&a.name), quote(&a.value.text))).collect();
        module_attrs.push(format!("hlo.module_attributes = {{{}}}", entries.join(", ")));
    }
    if !module.stack_frames.is_empty() {
        // Kept so that metadata's stack_frame_id still resolves after export.
        let entries: Vec<String> = module
            .stack_frames
            .iter()
            .map(|f| {
                format!(
                    "[{}, {}, {}, {}, {}, {}, {}, {}]",
                    f.id,
                    quote(&f.file),
                    quote(&f.function),
                    f.line,
                    f.column,
                    f.end_line,
                    f.end_column,
                    f.parent_id
                )
            })
            .collect();
        module_attrs.push(format!("hlo.stack_frames = [{}]", entries.join(", ")));
    }
    if !module_attrs.is_empty() {
        let _ = write!(out, " attributes {{{}}}", module_attrs.join(", "));
    }
    out.push_str(" {\n");
    let meshes = sdy::Meshes::of_module(module)?;
    let fill = RefCell::new(ElidedFill::default());
    let warnings = RefCell::new(Vec::new());
    for (index, computation) in module.computations.iter().enumerate() {
        let context = Context {
            file,
            frames: &frames,
            computations: &names,
            signatures: &signatures,
            meshes: &meshes,
            fill: &fill,
            warnings: &warnings,
        };
        emit_computation(&context, computation, index == module.entry, &mut out)?;
    }
    let _ = writeln!(out, "}} loc({})", file_loc(file, module.pos));
    Ok((out, warnings.into_inner()))
}

pub(crate) struct Context<'a> {
    pub file: &'a str,
    /// The module's stack frames by id, for metadata stack_frame_id.
    pub frames: &'a HashMap<i64, &'a ast::StackFrame>,
    pub computations: &'a [&'a str],
    /// Parameter types and result type of every computation, by name.
    pub signatures: &'a HashMap<&'a str, (Vec<String>, String)>,
    /// Shardy's meshes, for instructions that carry a Shardy sharding.
    pub meshes: &'a sdy::Meshes,
    /// The values of elided constants, in text order across the module.
    pub fill: &'a RefCell<ElidedFill>,
    pub warnings: &'a RefCell<Vec<ImportWarning>>,
}

impl Context<'_> {
    /// `@"name"` for a computation that exists.
    pub fn callee(&self, name: &str, pos: Pos) -> Result<String> {
        if self.computations.contains(&name) {
            Ok(format!("@{}", quote(name)))
        } else {
            Err(ImportError::new(pos, format!("computation '{name}' is not defined in this module")))
        }
    }
}

fn file_loc(file: &str, pos: Pos) -> String {
    format!("{}:{}:{}", quote(file), pos.line, pos.col)
}

pub(crate) fn op_loc(file: &str, name: &str, pos: Pos) -> String {
    format!("loc({}({}))", quote(name), file_loc(file, pos))
}

/// The location of an instruction: its name around its position in the
/// HLO text, fused with the source location its metadata names (directly,
/// or through a stack frame and its callers) when there is one.
pub(crate) fn instruction_loc(context: &Context, inst: &Instruction) -> String {
    let here = file_loc(context.file, inst.pos);
    let source = inst
        .attributes
        .iter()
        .find(|a| a.name == "metadata")
        .and_then(|a| rxla_hlo_text::attrs::metadata(&a.value).ok())
        .and_then(|m| {
            if let (Some(file), Some(line)) = (&m.source_file, m.source_line) {
                Some(format!("{}:{}:{}", quote(file), line, m.source_column.unwrap_or(0)))
            } else {
                m.stack_frame_id.and_then(|id| frame_loc(context, id, 0))
            }
        });
    match source {
        Some(source) => format!("loc({}(fused[{here}, {source}]))", quote(&inst.name)),
        None => format!("loc({}({here}))", quote(&inst.name)),
    }
}

/// `callsite(frame at caller at ...)` for a stack frame id.
fn frame_loc(context: &Context, id: i64, depth: usize) -> Option<String> {
    let frame = context.frames.get(&id)?;
    let here = format!("{}:{}:{}", quote(&frame.file), frame.line, frame.column);
    let caller = (frame.parent_id != 0 && depth < 64).then(|| frame_loc(context, frame.parent_id, depth + 1)).flatten();
    Some(match caller {
        Some(caller) => format!("callsite({here} at {caller})"),
        None => here,
    })
}

/// The parameter instructions of a computation by number, checked dense.
fn parameters(computation: &Computation) -> Result<Vec<&Instruction>> {
    let mut params: Vec<Option<&Instruction>> = Vec::new();
    for inst in &computation.instructions {
        if inst.opcode != "parameter" {
            continue;
        }
        let n = inst
            .parameter_number
            .ok_or_else(|| ImportError::new(inst.pos, "parameter needs a number: parameter(N)"))?;
        if !(0..=1_000_000).contains(&n) {
            return Err(ImportError::new(inst.pos, format!("parameter number {n} is out of range")));
        }
        let n = n as usize;
        if params.len() <= n {
            params.resize(n + 1, None);
        }
        if let Some(other) = params[n] {
            return Err(ImportError::new(
                inst.pos,
                format!("parameter {n} is defined twice (also '{}' at line {})", other.name, other.pos.line),
            ));
        }
        params[n] = Some(inst);
    }
    params
        .into_iter()
        .enumerate()
        .map(|(n, p)| {
            p.ok_or_else(|| {
                ImportError::new(computation.pos, format!("computation '{}' has no parameter {n}", computation.name))
            })
        })
        .collect()
}

fn shape_type(shape: &Shape, pos: Pos) -> Result<String> {
    mlir_type(shape).map_err(|e| ImportError::new(pos, e.0))
}

fn computation_signature(computation: &Computation) -> Result<(Vec<String>, String)> {
    let params = parameters(computation)?.iter().map(|p| shape_type(&p.shape, p.pos)).collect::<Result<Vec<_>>>()?;
    let root = computation.instructions.get(computation.root).ok_or_else(|| {
        ImportError::new(computation.pos, format!("computation '{}' has no instructions", computation.name))
    })?;
    Ok((params, shape_type(&root.shape, root.pos)?))
}

fn emit_computation(context: &Context, computation: &Computation, is_entry: bool, out: &mut String) -> Result<()> {
    let params = parameters(computation)?;
    let (param_types, result_type) = &context.signatures[computation.name.as_str()];
    let mut values: HashMap<&str, Value> = HashMap::new();

    // Signature: `%argN: type {hlo.name = ..., hlo.layout = ...} loc(...)`.
    let visibility = if is_entry { "" } else { "private " };
    let _ = write!(out, "  func.func {visibility}@{}(", quote(&computation.name));
    for (n, (param, ty)) in params.iter().zip(param_types).enumerate() {
        if n > 0 {
            out.push_str(", ");
        }
        let mut attrs = vec![format!("hlo.name = {}", quote(&param.name))];
        if let Some(layout) = layout_attr_for(&param.shape) {
            attrs.push(format!("hlo.layout = {layout}"));
        }
        let written = param.attributes.iter().find(|a| a.name == "sharding").map(|a| &a.value);
        if let Some(sharding) = sharding_attr(context, param, written)? {
            attrs.push(format!("hlo.sharding = {sharding}"));
        }
        for attribute in &param.attributes {
            if attribute.name == "sharding" {
                continue;
            }
            match crate::carried::mlir_name(&attribute.name) {
                Some(mlir) => attrs.push(format!("{mlir} = {}", quote(&attribute.value.text))),
                None => {
                    return Err(ImportError::new(
                        attribute.pos,
                        format!("unknown attribute '{}' for opcode 'parameter'", attribute.name),
                    ))
                }
            }
        }
        let _ = write!(out, "%arg{n}: {ty} {{{}}} {}", attrs.join(", "), op_loc(context.file, &param.name, param.pos));
        if values.insert(param.name.as_str(), Value { ssa: format!("%arg{n}"), ty: ty.clone() }).is_some() {
            return Err(ImportError::new(param.pos, format!("instruction name '{}' is used twice", param.name)));
        }
    }
    let _ = write!(out, ") -> {result_type}");
    let mut func_attrs = Vec::new();
    if is_entry {
        func_attrs.push("hlo.entry".to_string());
    }
    if !computation.attributes.is_empty() {
        let entries: Vec<String> =
            computation.attributes.iter().map(|a| format!("{} = {}", quote(&a.name), quote(&a.value.text))).collect();
        func_attrs.push(format!("hlo.computation_attributes = {{{}}}", entries.join(", ")));
    }
    if !func_attrs.is_empty() {
        let _ = write!(out, " attributes {{{}}}", func_attrs.join(", "));
    }
    out.push_str(" {\n");

    for (index, inst) in computation.instructions.iter().enumerate() {
        if inst.opcode == "parameter" {
            continue;
        }
        if values.contains_key(inst.name.as_str()) {
            return Err(ImportError::new(inst.pos, format!("instruction name '{}' is used twice", inst.name)));
        }
        let value = emit_instruction(context, inst, index, &values, out)?;
        values.insert(inst.name.as_str(), value);
    }

    let root = &computation.instructions[computation.root];
    let value = &values[root.name.as_str()];
    let _ =
        writeln!(out, "    func.return {} : {} {}", value.ssa, value.ty, op_loc(context.file, &root.name, root.pos));
    let _ = writeln!(out, "  }} loc({})", file_loc(context.file, computation.pos));
    Ok(())
}

/// `#hlo.sharding<...>` for `inst`: its Shardy sharding (xla.sdy.sharding)
/// if it has one, else the `sharding={...}` written on it, in the form XLA
/// keeps (crate::sharding::for_shape).
fn sharding_attr(context: &Context, inst: &Instruction, written: Option<&ast::AttrValue>) -> Result<Option<String>> {
    let sharding = match context.meshes.sharding_of(inst)? {
        Some(sharding) => sharding,
        None => match written {
            Some(value) => rxla_hlo_text::attrs::sharding(value).map_err(ops::parse_error)?,
            None => return Ok(None),
        },
    };
    Ok(Some(crate::sharding::to_mlir(&crate::sharding::for_shape(&sharding, &inst.shape))))
}

fn emit_instruction(
    context: &Context,
    inst: &Instruction,
    index: usize,
    values: &HashMap<&str, Value>,
    out: &mut String,
) -> Result<Value> {
    let ty = shape_type(&inst.shape, inst.pos)?;
    let loc = instruction_loc(context, inst);
    let ssa = format!("%v{index}");

    // Discardable attributes: layout, sharding and the verbatim ones.
    let mut discardable = Vec::new();
    if let Some(layout) = layout_attr_for(&inst.shape) {
        discardable.push(format!("hlo.layout = {layout}"));
    }
    let mut reader = ops::Attrs::new(inst);
    let written = reader.take("sharding");
    if let Some(sharding) = sharding_attr(context, inst, written)? {
        discardable.push(format!("hlo.sharding = {sharding}"));
    }
    for (key, mlir) in crate::carried::CARRIED {
        // custom-call's backend_config is an op attribute of its own.
        if *key == "backend_config" && inst.opcode == "custom-call" {
            continue;
        }
        if let Some(value) = reader.take(key) {
            discardable.push(format!("{mlir} = {}", quote(&value.text)));
        }
    }

    if inst.opcode == "constant" {
        reader.finish()?;
        return emit_constant(context, inst, &ssa, &ty, &loc, &discardable, out);
    }

    let mut operands = Vec::new();
    for operand in &inst.operands {
        let value = values.get(operand.name.as_str()).ok_or_else(|| {
            ImportError::new(operand.pos, format!("operand '{}' is not defined before '{}'", operand.name, inst.name))
        })?;
        operands.push(value.clone());
    }

    let spec = ops::lower(context, inst, &mut reader, &operands)?;
    reader.finish()?;

    let operand_list = operands.iter().map(|v| v.ssa.as_str()).collect::<Vec<_>>().join(", ");
    let operand_types = operands.iter().map(|v| v.ty.as_str()).collect::<Vec<_>>().join(", ");
    let props = if spec.inherent.is_empty() { String::new() } else { format!(" <{{{}}}>", spec.inherent.join(", ")) };
    let extra = if discardable.is_empty() { String::new() } else { format!(" {{{}}}", discardable.join(", ")) };

    match &spec.results {
        ops::Results::Single => {
            let _ = writeln!(
                out,
                "    {ssa} = \"{}\"({operand_list}){props}{extra} : ({operand_types}) -> {ty} {loc}",
                spec.op
            );
        }
        ops::Results::Unpacked(types) => {
            // One MLIR result per tuple element, re-packed into the tuple
            // that the HLO instruction denotes.
            let n = types.len();
            let _ = writeln!(
                out,
                "    {ssa}r:{n} = \"{}\"({operand_list}){props} : ({operand_types}) -> ({}) {loc}",
                spec.op,
                types.join(", ")
            );
            let elements = (0..n).map(|i| format!("{ssa}r#{i}")).collect::<Vec<_>>().join(", ");
            let _ =
                writeln!(out, "    {ssa} = \"hlo.tuple\"({elements}){extra} : ({}) -> {ty} {loc}", types.join(", "));
        }
    }
    Ok(Value { ssa, ty })
}

fn emit_constant(
    context: &Context,
    inst: &Instruction,
    ssa: &str,
    ty: &str,
    loc: &str,
    discardable: &[String],
    out: &mut String,
) -> Result<Value> {
    let literal =
        inst.literal.as_ref().ok_or_else(|| ImportError::new(inst.pos, "constant needs a literal: constant(...)"))?;
    let extra = if discardable.is_empty() { String::new() } else { format!(" {{{}}}", discardable.join(", ")) };
    let dense = |shape: &Shape, literal: &Literal| -> Result<String> {
        match (shape, literal) {
            (Shape::Array { element, dims, .. }, Literal::Array(array)) if is_elided(array) => {
                let body = elided_to_mlir(*element, dims, &mut context.fill.borrow_mut())
                    .map_err(|e| ImportError::new(inst.pos, e.0))?;
                context.warnings.borrow_mut().push(ImportWarning {
                    pos: inst.pos,
                    instruction: inst.name.clone(),
                    message: format!(
                        "constant '{}' was elided from the dump ({{...}}): it gets the placeholder values \
                         XLA's parser gives it, not the model's",
                        inst.name
                    ),
                });
                Ok(format!("dense<{body}> : {}", shape_type(shape, inst.pos)?))
            }
            (Shape::Array { element, dims, .. }, Literal::Array(array)) => {
                let body = array_to_mlir(*element, dims, array).map_err(|e| ImportError::new(inst.pos, e.0))?;
                Ok(format!("dense<{body}> : {}", shape_type(shape, inst.pos)?))
            }
            _ => Err(ImportError::new(inst.pos, "the literal does not match the constant's shape")),
        }
    };
    match (&inst.shape, literal) {
        (Shape::Tuple(shapes), Literal::Tuple(elements)) => {
            if shapes.len() != elements.len() {
                return Err(ImportError::new(
                    inst.pos,
                    format!("tuple literal has {} elements, the shape has {}", elements.len(), shapes.len()),
                ));
            }
            let mut names = Vec::new();
            let mut types = Vec::new();
            for (i, (shape, element)) in shapes.iter().zip(elements).enumerate() {
                let element_ty = shape_type(shape, inst.pos)?;
                let _ = writeln!(
                    out,
                    "    {ssa}e{i} = \"hlo.constant\"() <{{value = {}}}> : () -> {element_ty} {loc}",
                    dense(shape, element)?
                );
                names.push(format!("{ssa}e{i}"));
                types.push(element_ty);
            }
            let _ = writeln!(
                out,
                "    {ssa} = \"hlo.tuple\"({}){extra} : ({}) -> {ty} {loc}",
                names.join(", "),
                types.join(", ")
            );
        }
        (shape, literal) => {
            let _ = writeln!(
                out,
                "    {ssa} = \"hlo.constant\"() <{{value = {}}}>{extra} : () -> {ty} {loc}",
                dense(shape, literal)?
            );
        }
    }
    let _ = context;
    Ok(Value { ssa: ssa.to_string(), ty: ty.to_string() })
}
