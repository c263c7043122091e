//! XLA's HLO text format without MLIR: the syntax tree ([`ast`]), a parser
//! ([`parse_module`]), a printer ([`print_module`]) and typed readers for
//! attribute values ([`attrs`]). `rxla-translate` maps the tree to and from
//! the `hlo` dialect.

pub mod ast;
mod ast_helpers;
pub mod attrs;
pub mod custom_calls;
mod error;
pub mod floats;
pub mod lexer;
mod parser;
pub mod printer;
pub mod synthetic;

pub use error::ParseError;
pub use parser::{parse_module, parse_shape, MAX_DEPTH};
pub use printer::{print_literal, print_module, print_shape};
