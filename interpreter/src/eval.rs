//! Evaluating computations: instructions in order, operands by name,
//! called computations through [`Interpreter::call`].

use crate::{
    error::{EvalError, Result},
    literal::Literal,
    ops,
};
use rxla_hlo_text::ast::{AttrValue, Computation, Instruction, Module};
use std::collections::HashMap;

/// Options of a run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Number of simulated replicas for collectives (1: single device).
    pub replicas: usize,
    /// Number of simulated partitions.
    pub partitions: usize,
}

impl Default for Options {
    fn default() -> Self {
        Self { replicas: 1, partitions: 1 }
    }
}

/// Evaluates the computations of one module.
pub struct Interpreter<'m> {
    module: &'m Module,
    computations: HashMap<&'m str, &'m Computation>,
    /// Per computation (by address), the instruction index of each operand
    /// of each instruction, resolved once here rather than on every call
    /// (reducers and loop bodies are called many times).
    operand_slots: HashMap<usize, Vec<Vec<Option<usize>>>>,
    pub options: Options,
    /// The replica and partition this evaluation plays (for replica-id,
    /// partition-id and collectives).
    pub replica_id: usize,
    pub partition_id: usize,
}

impl<'m> Interpreter<'m> {
    pub fn new(module: &'m Module) -> Self {
        let computations = module.computations.iter().map(|c| (c.name.as_str(), c)).collect();
        let operand_slots =
            module.computations.iter().map(|c| (c as *const Computation as usize, resolve_operands(c))).collect();
        Self { module, computations, operand_slots, options: Options::default(), replica_id: 0, partition_id: 0 }
    }

    pub fn module(&self) -> &'m Module {
        self.module
    }

    /// Runs the entry computation on `args` (parameter N is `args[N]`).
    pub fn run(&self, args: &[Literal]) -> Result<Literal> {
        let entry = &self.module.computations[self.module.entry];
        self.evaluate(entry, args)
    }

    /// Calls the computation named `name`.
    pub fn call(&self, name: &str, args: &[Literal]) -> Result<Literal> {
        let name = name.strip_prefix('%').unwrap_or(name);
        let computation = self
            .computations
            .get(name)
            .ok_or_else(|| EvalError::new(format!("computation '{name}' does not exist")))?;
        self.evaluate(computation, args)
    }

    /// The computation named `name`.
    pub fn computation(&self, name: &str) -> Result<&'m Computation> {
        let name = name.strip_prefix('%').unwrap_or(name);
        self.computations
            .get(name)
            .copied()
            .ok_or_else(|| EvalError::new(format!("computation '{name}' does not exist")))
    }

    /// Evaluates `computation` on `args`.
    pub fn evaluate(&self, computation: &Computation, args: &[Literal]) -> Result<Literal> {
        let resolved;
        let slots = match self.operand_slots.get(&(computation as *const Computation as usize)) {
            Some(slots) => slots,
            None => {
                resolved = resolve_operands(computation);
                &resolved
            }
        };
        let mut values: Vec<Option<Literal>> = vec![None; computation.instructions.len()];
        for (i, inst) in computation.instructions.iter().enumerate() {
            let value = if inst.opcode == "parameter" {
                let n = inst.parameter_number.unwrap_or(-1);
                args.get(n as usize).cloned().ok_or_else(|| {
                    EvalError::new(format!(
                        "computation '{}' takes parameter {n} but got {} arguments",
                        computation.name,
                        args.len()
                    ))
                })
            } else {
                let operands = inst
                    .operands
                    .iter()
                    .zip(&slots[i])
                    .map(|(o, slot)| {
                        slot.and_then(|j| values[j].as_ref())
                            .ok_or_else(|| EvalError::new(format!("operand '{}' is not defined", o.name)))
                    })
                    .collect::<Result<Vec<&Literal>>>();
                operands.and_then(|operands| ops::evaluate(self, inst, &operands))
            };
            values[i] = Some(value.map_err(|e| e.at(&inst.name, &inst.opcode))?);
        }
        values
            .get_mut(computation.root)
            .and_then(Option::take)
            .ok_or_else(|| EvalError::new(format!("computation '{}' has no root", computation.name)))
    }
}

/// For each instruction, the index of the instruction each operand names.
fn resolve_operands(computation: &Computation) -> Vec<Vec<Option<usize>>> {
    let index: HashMap<&str, usize> =
        computation.instructions.iter().enumerate().map(|(i, inst)| (inst.name.as_str(), i)).collect();
    computation
        .instructions
        .iter()
        .map(|inst| inst.operands.iter().map(|o| index.get(o.name.as_str()).copied()).collect())
        .collect()
}

/// The value of attribute `name` of `inst`, if present.
pub fn attr<'a>(inst: &'a Instruction, name: &str) -> Option<&'a AttrValue> {
    inst.attributes.iter().find(|a| a.name == name).map(|a| &a.value)
}

/// The value of a required attribute.
pub fn require<'a>(inst: &'a Instruction, name: &str) -> Result<&'a AttrValue> {
    attr(inst, name).ok_or_else(|| EvalError::new(format!("missing attribute '{name}'")))
}

/// Converts an attribute reader's error.
pub fn attr_error(e: rxla_hlo_text::ParseError) -> EvalError {
    EvalError::new(format!("bad attribute value: {}", e.message))
}
