//! `xla-lower-indexing`: `xla.apply_indexing` becomes `arith` on `index`
//! (XLA lowers it through `affine.apply`; rxla writes the arithmetic
//! directly so it can use what the map knows). Unused maps are erased.
//!
//! The map's bounds are promises about the operands, so the range of every
//! subexpression is known: `floordiv` and `mod` of a non-negative value by
//! a positive constant are unsigned divisions (cheaper, and what LLVM's
//! loop analyses understand), otherwise signed ones with XLA's floor
//! semantics; additions and multiplications whose operands and result stay
//! in `[0, 2^62]` carry `nsw`/`nuw`, which lets LLVM reason about the
//! address arithmetic (vectorization, loop strength reduction).

use crate::ir::*;
use melior::ir::OperationRef;
use rxla_indexing::{expr::BinOp, Expr, ExprKind, IndexingMap, RangeEvaluator};
use rxla_ir::pass::{HloPass, PassError, PassOptions};
use std::collections::HashMap;

#[derive(Clone, Debug)]
pub struct LowerIndexing;

impl HloPass for LowerIndexing {
    const NAME: &'static str = "xla-lower-indexing";
    const DESCRIPTION: &'static str =
        "Lower xla.apply_indexing to index arithmetic (unsigned where the ranges allow, with no-wrap flags)";

    fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
        use melior::dialect::DialectHandle;
        vec![DialectHandle::arith()]
    }

    fn from_options(options: &PassOptions) -> std::result::Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(LowerIndexing)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> std::result::Result<(), PassError> {
        let mut live = Vec::new();
        // Unused maps are erased, not lowered: the vectorizer leaves the
        // index of every lane it merged into a wider access (most of a
        // column reduction's maps), and their arithmetic would only make
        // work for `canonicalize`. Users come after their operands, so
        // going backwards frees a map's operand maps before they are seen.
        for op in ops_named(Op::of(&module), "xla.apply_indexing").into_iter().rev() {
            match op.has_uses() {
                true => live.push(op),
                false => op.erase(),
            }
        }
        for op in live.into_iter().rev() {
            lower_apply(op)?;
        }
        Ok(())
    }
}

/// Largest value for which the no-wrap flags are claimed.
const SAFE: i64 = 1 << 62;

fn lower_apply(op: Op) -> Result<()> {
    let text = op.indexing_map_text("indexing_map_attr").ok_or_else(|| bug("xla.apply_indexing without a map"))?;
    let map = IndexingMap::parse(&text).map_err(|e| bug(format!("map `{text}`: {e}")))?;
    let b = B::before(op);
    let mut lowering = Lowering {
        b,
        map: &map,
        ranges: RangeEvaluator::new(&map, true),
        operands: op.operands(),
        cache: HashMap::new(),
    };
    let results: Vec<Value> = map.results().iter().map(|e| lowering.expr(e)).collect::<Result<_>>()?;
    replace_op(op, &results);
    Ok(())
}

struct Lowering<'a> {
    b: B,
    map: &'a IndexingMap,
    ranges: RangeEvaluator,
    operands: Vec<Value>,
    cache: HashMap<Expr, Value>,
}

impl Lowering<'_> {
    fn nonneg_bounded(&self, e: &Expr) -> bool {
        let r = self.ranges.range(e);
        r.lower >= 0 && r.upper <= SAFE
    }

    fn expr(&mut self, e: &Expr) -> Result<Value> {
        if let Some(v) = self.cache.get(e) {
            return Ok(*v);
        }
        let b = self.b;
        let index = b.index();
        let v = match e.kind() {
            ExprKind::Const(c) => b.const_index(*c),
            ExprKind::Dim(i) => {
                *self.operands.get(*i).ok_or_else(|| bug("apply_indexing: missing dimension operand"))?
            }
            ExprKind::Sym(j) => *self
                .operands
                .get(self.map.num_dims() + *j)
                .ok_or_else(|| bug("apply_indexing: missing symbol operand"))?,
            ExprKind::Binary(op, lhs, rhs) => {
                let (l, r) = (self.expr(lhs)?, self.expr(rhs)?);
                let no_wrap = self.nonneg_bounded(lhs) && self.nonneg_bounded(rhs) && self.nonneg_bounded(e);
                // nsw | nuw
                let flags = || vec![("overflowFlags", b.overflow(3))];
                let positive_divisor = rhs.as_const().is_some_and(|c| c > 0);
                let lhs_nonneg = self.ranges.range(lhs).lower >= 0;
                match op {
                    BinOp::Add => b.val("arith.addi", &[l, r], index, &if no_wrap { flags() } else { vec![] }),
                    BinOp::Mul => b.val("arith.muli", &[l, r], index, &if no_wrap { flags() } else { vec![] }),
                    BinOp::FloorDiv if positive_divisor && lhs_nonneg => b.val("arith.divui", &[l, r], index, &[]),
                    BinOp::FloorDiv => b.val("arith.floordivsi", &[l, r], index, &[]),
                    BinOp::CeilDiv => b.val("arith.ceildivsi", &[l, r], index, &[]),
                    BinOp::Mod if positive_divisor && lhs_nonneg => b.val("arith.remui", &[l, r], index, &[]),
                    BinOp::Mod => {
                        // Euclidean remainder by |r|: remsi, then add |r| to a
                        // negative remainder.
                        let zero = b.const_index(0);
                        let neg_r = b.val("arith.subi", &[zero, r], index, &[]);
                        let r_neg = b.cmpi("slt", r, zero);
                        let abs_r = b.val("arith.select", &[r_neg, neg_r, r], index, &[]);
                        let rem = b.val("arith.remsi", &[l, abs_r], index, &[]);
                        let is_neg = b.cmpi("slt", rem, zero);
                        let fixed = b.val("arith.addi", &[rem, abs_r], index, &[]);
                        b.val("arith.select", &[is_neg, fixed, rem], index, &[])
                    }
                    BinOp::Min => b.val("arith.minsi", &[l, r], index, &[]),
                    BinOp::Max => b.val("arith.maxsi", &[l, r], index, &[]),
                }
            }
        };
        self.cache.insert(e.clone(), v);
        Ok(v)
    }
}
