//! `hlo` dialect -> HLO text.
//!
//! Walks the module through the C API and builds the `rxla-hlo-text`
//! syntax tree, which its printer writes in XLA's style. Instruction names
//! come from the ops' name locations (the importer puts them there), else
//! `<opcode>.<n>`. Ops with several results become one tuple-shaped
//! instruction; an `hlo.tuple` that re-packs exactly those results is that
//! instruction, other uses read them through `get-tuple-element`.

mod constant;
pub(crate) mod mlir_attr;
mod ops;
mod raw;

use crate::types::parse_mlir_type;
use melior::ir::Module;
use raw::{Op, Val};
use rxla_hlo_text::ast::{self, AttrValue, Attribute, Computation, Instruction, Operand, Pos, Shape};
use std::{
    collections::{HashMap, HashSet},
    fmt,
};

/// An export failure: what could not be written, and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportError {
    pub message: String,
}

impl ExportError {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        Self { message: message.into() }
    }
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error: {}", self.message)
    }
}

impl std::error::Error for ExportError {}

pub type Result<T> = std::result::Result<T, ExportError>;

/// Exports `module` as HLO text.
pub fn export_hlo_text(module: &Module) -> Result<String> {
    Ok(rxla_hlo_text::print_module(&export_ast(module)?))
}

/// Exports `module` as an HLO syntax tree.
/// The HLO shapes of the entry computation's parameters (with their
/// layouts), without exporting the rest of the module.
pub fn entry_parameter_shapes(module: &Module) -> Result<Vec<Shape>> {
    let module_op = Op(module.as_operation().to_raw());
    let funcs: Vec<Op> = module_op.body_ops().into_iter().filter(|op| op.name() == "func.func").collect();
    let entry = funcs.iter().find(|f| f.has_attr("hlo.entry")).or(funcs.last());
    let entry = entry.ok_or_else(|| ExportError::new("the module has no computations"))?;
    let block = entry.entry_block().ok_or_else(|| ExportError::new("the entry computation has no body"))?;
    let mut shapes = Vec::new();
    for (n, (arg, attrs)) in block.arguments().into_iter().zip(entry.arg_attrs()).enumerate() {
        let mut shape = shape_of(arg.type_text(), &format!("parameter {n}"))?;
        if let Some((_, layout)) = attrs.iter().find(|(k, _)| k == "hlo.layout") {
            ops::apply_layout(&mut shape, layout)?;
        }
        shapes.push(shape);
    }
    Ok(shapes)
}

pub fn export_ast(module: &Module) -> Result<ast::Module> {
    let module_op = Op(module.as_operation().to_raw());
    let name = module_op.string_attr("sym_name").unwrap_or_else(|| "module".to_string());
    let attributes = module_attributes(module_op);
    let mut computations = Vec::new();
    let mut entry = None;
    for op in module_op.body_ops() {
        if op.name() != "func.func" {
            return Err(ExportError::new(format!("'{}' at module level is not an HLO computation", op.name())));
        }
        if op.has_attr("hlo.entry") {
            entry = Some(computations.len());
        }
        computations.push(Exporter::default().computation(op)?);
    }
    if computations.is_empty() {
        return Err(ExportError::new("the module has no computations"));
    }
    let entry = entry.unwrap_or(computations.len() - 1);
    computations[entry].is_entry = true;
    let stack_frames = stack_frames(module_op)?;
    Ok(ast::Module { name, attributes, computations, entry, stack_frames, pos: Pos::default() })
}

/// The `hlo.stack_frames` table the importer kept.
fn stack_frames(module: Op) -> Result<Vec<ast::StackFrame>> {
    let Some(text) = module.attr_text("hlo.stack_frames") else { return Ok(Vec::new()) };
    let bad = || ExportError::new("malformed hlo.stack_frames attribute");
    let rows = mlir_attr::list_items(&text).ok_or_else(bad)?;
    rows.into_iter()
        .map(|row| {
            let f = mlir_attr::list_items(row).ok_or_else(bad)?;
            if f.len() != 8 {
                return Err(bad());
            }
            let int = |i: usize| mlir_attr::integer(f[i]).ok_or_else(bad);
            Ok(ast::StackFrame {
                id: int(0)?,
                file: mlir_attr::string(f[1]).ok_or_else(bad)?,
                function: mlir_attr::string(f[2]).ok_or_else(bad)?,
                line: int(3)?,
                column: int(4)?,
                end_line: int(5)?,
                end_column: int(6)?,
                parent_id: int(7)?,
            })
        })
        .collect()
}

/// XLA prints header attributes in this order; others follow sorted.
const HEADER_ORDER: &[&str] = &[
    "is_scheduled",
    "entry_computation_layout",
    "input_output_alias",
    "buffer_donor",
    "alias_passthrough_params",
    "allow_spmd_sharding_propagation_to_parameters",
    "allow_spmd_sharding_propagation_to_output",
    "replica_count",
    "num_partitions",
    "frontend_attributes",
];

fn module_attributes(module: Op) -> Vec<Attribute> {
    let mut attributes: Vec<Attribute> = module
        .dict_attr("hlo.module_attributes")
        .into_iter()
        .map(|(k, v)| attribute(&k, mlir_attr::string(&v).unwrap_or(v)))
        .collect();
    attributes.sort_by_key(|a| {
        (HEADER_ORDER.iter().position(|k| *k == a.name).unwrap_or(HEADER_ORDER.len()), a.name.clone())
    });
    attributes
}

pub(crate) fn attribute(name: &str, text: impl Into<String>) -> Attribute {
    Attribute {
        name: name.to_string(),
        value: AttrValue { text: text.into(), pos: Pos::default() },
        pos: Pos::default(),
    }
}

/// How a value is referred to in HLO text.
#[derive(Clone)]
struct Ref {
    name: String,
    shape: Shape,
}

#[derive(Default)]
struct Exporter {
    instructions: Vec<Instruction>,
    names: HashSet<String>,
    values: HashMap<usize, Ref>,
    counter: usize,
}

impl Exporter {
    /// A unique instruction name, preferring `wanted`.
    fn unique_name(&mut self, wanted: Option<String>, opcode: &str) -> String {
        let base = wanted.filter(|n| !n.is_empty()).unwrap_or_else(|| {
            self.counter += 1;
            format!("{opcode}.{}", self.counter)
        });
        let mut name = base.clone();
        let mut n = 1;
        while !self.names.insert(name.clone()) {
            name = format!("{base}.{n}");
            n += 1;
        }
        name
    }

    fn value(&self, v: Val) -> Result<&Ref> {
        self.values.get(&v.key()).ok_or_else(|| ExportError::new("an operand is not defined by an HLO instruction"))
    }

    fn computation(mut self, func: Op) -> Result<Computation> {
        let name = func.string_attr("sym_name").unwrap_or_default();
        let block = func.entry_block().ok_or_else(|| ExportError::new(format!("computation '{name}' has no body")))?;

        for (n, (arg, attrs)) in block.arguments().into_iter().zip(func.arg_attrs()).enumerate() {
            let wanted = attrs.iter().find(|(k, _)| k == "hlo.name").and_then(|(_, v)| mlir_attr::string(v));
            let name = self.unique_name(wanted.or_else(|| Some(format!("Arg_{n}"))), "parameter");
            let mut shape = shape_of(arg.type_text(), &name)?;
            if let Some((_, layout)) = attrs.iter().find(|(k, _)| k == "hlo.layout") {
                ops::apply_layout(&mut shape, layout)?;
            }
            let mut attributes = Vec::new();
            for (key, value) in &attrs {
                if key == "hlo.sharding" {
                    // First, where XLA prints it.
                    attributes.insert(0, ops::sharding_attribute(value)?);
                } else if let Some(hlo) = crate::carried::hlo_name(key) {
                    attributes.push(attribute(hlo, mlir_attr::string(value).unwrap_or_else(|| value.clone())));
                }
            }
            self.instructions.push(Instruction {
                name: name.clone(),
                is_root: false,
                shape: shape.clone(),
                opcode: "parameter".into(),
                operands: Vec::new(),
                literal: None,
                parameter_number: Some(n as i64),
                attributes,
                pos: Pos::default(),
            });
            self.values.insert(arg.key(), Ref { name, shape });
        }

        let ops = block.ops();
        // Tuples that exactly re-pack all results of one op stand for it.
        let mut repacking: HashMap<usize, Op> = HashMap::new();
        for op in &ops {
            if op.name() == "hlo.tuple" {
                if let Some(producer) = repacked_producer(*op) {
                    repacking.insert(producer.key(), *op);
                }
            }
        }
        let mut skip: HashSet<usize> = HashSet::new();
        let mut root: Option<String> = None;

        for op in ops {
            if skip.contains(&op.key()) {
                continue;
            }
            let op_name = op.name();
            if op_name == "func.return" {
                root = Some(self.root(op)?);
                continue;
            }
            if !op_name.starts_with("hlo.") {
                return Err(ExportError::new(format!("'{op_name}' is not an HLO op and has no HLO text form")));
            }
            let operands = op
                .operands()
                .into_iter()
                .map(|v| self.value(v).map(|r| Operand { shape: None, name: r.name.clone(), pos: Pos::default() }))
                .collect::<Result<Vec<_>>>()?;
            let multi = op.num_results() != 1;
            let tuple = repacking.get(&op.key()).copied();
            // The tuple's location names the instruction (the importer gave
            // both the same name).
            let wanted = tuple.and_then(|t| t.location_name()).or_else(|| op.location_name());
            let opcode = op_name["hlo.".len()..].replace('_', "-");
            let name = self.unique_name(wanted, &opcode);

            let mut instruction = ops::instruction(op, &name, operands)?;
            if multi {
                let elements =
                    op.results().into_iter().map(|r| shape_of(r.type_text(), &name)).collect::<Result<Vec<_>>>()?;
                instruction.shape = Shape::Tuple(elements);
                if let Some(t) = tuple {
                    ops::apply_discardable(t, &mut instruction)?;
                }
            }
            let shape = instruction.shape.clone();
            self.instructions.push(instruction);

            if multi {
                if let Some(t) = tuple {
                    skip.insert(t.key());
                    self.values.insert(t.result(0).key(), Ref { name: name.clone(), shape: shape.clone() });
                }
                // Direct uses of single results read them from the tuple.
                for (i, result) in op.results().into_iter().enumerate() {
                    if result.has_uses_other_than(tuple) {
                        let element = match &shape {
                            Shape::Tuple(e) => e[i].clone(),
                            _ => unreachable!(),
                        };
                        let gte_name = self.unique_name(Some(format!("{name}.{i}")), "get-tuple-element");
                        self.instructions.push(Instruction {
                            name: gte_name.clone(),
                            is_root: false,
                            shape: element.clone(),
                            opcode: "get-tuple-element".into(),
                            operands: vec![Operand { shape: None, name: name.clone(), pos: Pos::default() }],
                            literal: None,
                            parameter_number: None,
                            attributes: vec![attribute("index", i.to_string())],
                            pos: Pos::default(),
                        });
                        self.values.insert(result.key(), Ref { name: gte_name, shape: element });
                    }
                }
            } else {
                self.values.insert(op.result(0).key(), Ref { name, shape });
            }
        }

        let root_name = root.ok_or_else(|| ExportError::new(format!("computation '{name}' has no func.return")))?;
        let root = self
            .instructions
            .iter()
            .rposition(|i| i.name == root_name)
            .ok_or_else(|| ExportError::new("the returned value is not an instruction"))?;
        // XLA requires the root to come last only by convention; mark it.
        self.instructions[root].is_root = true;
        let attributes = func
            .dict_attr("hlo.computation_attributes")
            .into_iter()
            .map(|(k, v)| attribute(&k, mlir_attr::string(&v).unwrap_or(v)))
            .collect();
        let params = self
            .instructions
            .iter()
            .filter(|i| i.opcode == "parameter")
            .map(|i| (i.name.clone(), without_layouts(&i.shape)))
            .collect();
        let signature = ast::Signature { params, result: without_layouts(&self.instructions[root].shape) };
        Ok(Computation {
            name,
            is_entry: false,
            signature: Some(signature),
            instructions: self.instructions,
            root,
            attributes,
            pos: Pos::default(),
        })
    }

    /// The name of the root: the returned value, or a new tuple of several.
    fn root(&mut self, ret: Op) -> Result<String> {
        let values = ret.operands();
        match values.as_slice() {
            [single] => Ok(self.value(*single)?.name.clone()),
            _ => {
                let refs = values.iter().map(|v| self.value(*v).cloned()).collect::<Result<Vec<_>>>()?;
                let name = self.unique_name(Some("tuple".into()), "tuple");
                self.instructions.push(Instruction {
                    name: name.clone(),
                    is_root: false,
                    shape: Shape::Tuple(refs.iter().map(|r| r.shape.clone()).collect()),
                    opcode: "tuple".into(),
                    operands: refs
                        .iter()
                        .map(|r| Operand { shape: None, name: r.name.clone(), pos: Pos::default() })
                        .collect(),
                    literal: None,
                    parameter_number: None,
                    attributes: Vec::new(),
                    pos: Pos::default(),
                });
                Ok(name)
            }
        }
    }
}

/// If `tuple` packs all results of one multi-result op, in order, and is
/// their only... (other uses are allowed: they read through gte), that op.
fn repacked_producer(tuple: Op) -> Option<Op> {
    let operands = tuple.operands();
    let first = operands.first()?.defining_op()?;
    if first.num_results() < 2 || first.num_results() != operands.len() {
        return None;
    }
    for (i, v) in operands.iter().enumerate() {
        if v.defining_op()? != first || v.result_number()? != i {
            return None;
        }
    }
    Some(first)
}

/// XLA prints computation signatures without layouts.
fn without_layouts(shape: &Shape) -> Shape {
    match shape {
        Shape::Array { element, dims, .. } => Shape::Array { element: *element, dims: dims.clone(), layout: None },
        Shape::Tuple(elements) => Shape::Tuple(elements.iter().map(without_layouts).collect()),
        other => other.clone(),
    }
}

/// The HLO shape of an MLIR type, with XLA's default layouts.
pub(crate) fn shape_of(type_text: String, what: &str) -> Result<Shape> {
    let mut shape = parse_mlir_type(&type_text)
        .ok_or_else(|| ExportError::new(format!("type '{type_text}' of '{what}' has no HLO shape")))?;
    ops::fill_default_layouts(&mut shape);
    Ok(shape)
}
