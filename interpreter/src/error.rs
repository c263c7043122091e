//! Evaluation errors: which instruction, which opcode, what went wrong.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalError {
    /// The instruction being evaluated (empty for module-level errors).
    pub instruction: String,
    pub opcode: String,
    pub message: String,
}

impl EvalError {
    pub fn new(message: impl Into<String>) -> Self {
        Self { instruction: String::new(), opcode: String::new(), message: message.into() }
    }

    /// Attaches the instruction the error happened in (keeps the innermost).
    pub fn at(mut self, instruction: &str, opcode: &str) -> Self {
        if self.instruction.is_empty() {
            self.instruction = instruction.to_string();
            self.opcode = opcode.to_string();
        }
        self
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.instruction.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "%{} ({}): {}", self.instruction, self.opcode, self.message)
        }
    }
}

impl std::error::Error for EvalError {}

pub type Result<T> = std::result::Result<T, EvalError>;

/// `Err(EvalError::new(format!(...)))`.
#[macro_export]
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err($crate::error::EvalError::new(format!($($arg)*)))
    };
}
