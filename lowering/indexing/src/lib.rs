//! Indexing maps for rxla: XLA's `IndexingMap` / `SymbolicExpr` library and
//! HLO indexing analysis, in pure Rust (no MLIR).
//!
//! * [`Expr`]: symbolic index expressions over dimensions `d_i` and symbols
//!   `s_j`, canonicalized on construction, with evaluation.
//! * [`Interval`] and [`RangeEvaluator`]: interval arithmetic and range
//!   analysis of expressions over a domain.
//! * [`IndexingMap`]: expressions plus a domain (dimension, range and runtime
//!   variables with bounds, and constraints); XLA's text format both ways,
//!   [`compose`], simplification, removal of unused variables.
//! * [`OpDesc`], [`output_to_input_indexing`], [`input_to_output_indexing`]:
//!   per-op indexing of HLO ops described in plain Rust.
//! * [`Fusion`], [`compute_grouped_output_to_input_indexing`]: indexing from a
//!   fused computation's root to each of its nodes and parameters.
//!
//! See `docs/indexing.md` for the text syntax and the rules implemented.
//!
//! ```
//! use rxla_indexing::{compose, output_to_input_indexing, IndexingMap, OpAttrs, OpDesc};
//!
//! // The output-to-input map of a transpose.
//! let t = OpDesc::new("transpose", vec![vec![20, 40]], vec![40, 20])
//!     .with_attrs(OpAttrs { permutation: vec![1, 0], ..Default::default() });
//! let map = output_to_input_indexing(&t, 0).unwrap().map(0).unwrap().clone();
//! assert_eq!(map.to_string(), "(d0, d1) -> (d1, d0), domain: d0 in [0, 39], d1 in [0, 19]");
//!
//! // Maps parse from XLA's text format, compose and simplify.
//! let collapse = IndexingMap::parse("(d0) -> (d0 floordiv 8, d0 mod 8), domain: d0 in [0, 31]").unwrap();
//! let expand = IndexingMap::parse("(d0, d1) -> (d0 * 8 + d1), domain: d0 in [0, 3], d1 in [0, 7]").unwrap();
//! let mut round_trip = compose(&expand, &collapse).unwrap();
//! round_trip.simplify();
//! assert_eq!(round_trip.to_string(), "(d0, d1) -> (d0, d1), domain: d0 in [0, 3], d1 in [0, 7]");
//! ```

pub mod error;
pub mod expr;
pub mod fusion;
pub mod interval;
pub mod map;
pub mod ops;
pub mod parser;
pub mod range;
pub mod simplify;

pub use error::{Error, Result};
pub use expr::{BinOp, Expr, ExprKind, Var};
pub use fusion::{compute_grouped_output_to_input_indexing, fusion_output_to_input_indexing, Fusion, FusionNode};
pub use interval::Interval;
pub use map::{compose, IndexingMap, Variable};
pub use ops::{
    compose_operand_indexing, input_to_output_indexing, output_to_input_indexing, DotDims, GatherDims, OpAttrs, OpDesc,
    OpIndexing, OperandIndexing, PadDim, RuntimeVarIndexing, WindowDim,
};
pub use parser::{parse_expr, parse_expr_with_names, parse_indexing_map};
pub use range::RangeEvaluator;
pub use simplify::{ExprSimplifier, SimplifyMemo, SimplifyPointDimensions};
