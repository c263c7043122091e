//! Range analysis: bounds of an expression over an indexing map's domain
//! (XLA's `RangeEvaluator`).

use std::collections::HashMap;

use crate::expr::{BinOp, Expr, ExprKind};
use crate::interval::Interval;
use crate::map::IndexingMap;

/// Computes an interval holding every value an expression takes over a
/// domain. The variables' bounds are used, and optionally the constraints:
/// a constrained sub-expression's range is intersected with its constraint.
///
/// The evaluator snapshots the bounds, so it stays valid while the map it
/// came from is being modified.
#[derive(Clone, Debug)]
pub struct RangeEvaluator {
    dims: Vec<Interval>,
    syms: Vec<Interval>,
    constraints: HashMap<Expr, Interval>,
}

impl RangeEvaluator {
    pub fn new(map: &IndexingMap, use_constraints: bool) -> RangeEvaluator {
        let constraints = if use_constraints { map.constraints().iter().cloned().collect() } else { HashMap::new() };
        RangeEvaluator { dims: map.dim_bounds(), syms: map.symbol_bounds(), constraints }
    }

    /// An evaluator over plain variable bounds.
    pub fn from_bounds(dims: Vec<Interval>, syms: Vec<Interval>) -> RangeEvaluator {
        RangeEvaluator { dims, syms, constraints: HashMap::new() }
    }

    pub fn range(&self, e: &Expr) -> Interval {
        match e.kind() {
            ExprKind::Const(v) => Interval::point(*v),
            ExprKind::Dim(i) => self.dims.get(*i).copied().unwrap_or(Interval::full()),
            ExprKind::Sym(j) => self.syms.get(*j).copied().unwrap_or(Interval::full()),
            ExprKind::Binary(op, l, r) => {
                let a = self.range(l);
                let b = self.range(r);
                let result = match op {
                    BinOp::Add => a.add(&b),
                    BinOp::Mul => a.mul(&b),
                    BinOp::FloorDiv => a.floor_div(&b),
                    BinOp::CeilDiv => a.ceil_div(&b),
                    BinOp::Mod => a.rem(&b),
                    BinOp::Min => a.minimum(&b),
                    BinOp::Max => a.maximum(&b),
                };
                match self.constraints.get(e) {
                    Some(c) => result.intersect(c),
                    None => result,
                }
            }
        }
    }

    /// Bounds of dimension `i` (everything if there is no such dimension).
    pub fn dim_bound(&self, i: usize) -> Interval {
        self.dims.get(i).copied().unwrap_or(Interval::full())
    }

    pub fn is_always_non_negative(&self, e: &Expr) -> bool {
        self.range(e).lower >= 0
    }

    /// The value of `e` if its range is a single point.
    pub fn constant_value(&self, e: &Expr) -> Option<i64> {
        let r = self.range(e);
        (r.is_point()).then_some(r.lower)
    }
}
