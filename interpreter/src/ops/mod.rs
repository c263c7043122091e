//! Opcode dispatch. Each family of ops lives in its own module and answers
//! `None` for opcodes that are not its own.

use crate::{
    error::{EvalError, Result},
    eval::Interpreter,
    literal::Literal,
};
use rxla_hlo_text::ast::Instruction;

pub mod control;
pub mod convert;
pub mod elementwise;
pub mod lapack;
pub mod linalg;
pub mod movement;
pub mod reduce;
pub mod rng;

type Family = fn(&Interpreter, &Instruction, &[&Literal]) -> Option<Result<Literal>>;

const FAMILIES: &[Family] = &[
    elementwise::evaluate,
    convert::evaluate,
    movement::evaluate,
    reduce::evaluate,
    linalg::evaluate,
    control::evaluate,
    rng::evaluate,
];

/// Evaluates one instruction on its operand values.
pub fn evaluate(interpreter: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    for family in FAMILIES {
        if let Some(result) = family(interpreter, inst, operands) {
            return result;
        }
    }
    Err(EvalError::new(format!("opcode '{}' is not supported by the interpreter", inst.opcode)))
}
