//! Shared helpers for the property tests: a deterministic PRNG, enumeration
//! of domains, and a reference expression type with its own evaluator.

#![allow(dead_code)]

use std::collections::BTreeSet;

use rxla_indexing::{BinOp, Expr, IndexingMap, Interval};

/// SplitMix64: tiny, deterministic, good enough for test-case generation.
pub struct Rng(u64);

impl Rng {
    /// A generator for test `seed`, shifted by `RXLA_PROPTEST_SEED` when set
    /// (to explore other cases locally).
    pub fn new(seed: u64) -> Rng {
        let offset = std::env::var("RXLA_PROPTEST_SEED").ok().and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
        let seed = seed.wrapping_add(offset.wrapping_mul(0x1000_0000));
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[lo, hi]`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % ((hi - lo + 1) as u64)) as i64
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next_u64() % den < num
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// Every point of a box of intervals (empty if any interval is empty).
pub fn points(bounds: &[Interval]) -> Vec<Vec<i64>> {
    let mut out = vec![Vec::new()];
    for b in bounds {
        let mut next = Vec::new();
        for p in &out {
            for v in b.lower..=b.upper {
                let mut q = p.clone();
                q.push(v);
                next.push(q);
            }
        }
        out = next;
    }
    out
}

/// Every multi-index of a shape.
pub fn indices(shape: &[i64]) -> Vec<Vec<i64>> {
    points(&shape.iter().map(|&s| Interval::new(0, s - 1)).collect::<Vec<_>>())
}

/// `{(dims, results)}` over the domain, with the symbols (range and
/// runtime) existentially quantified.
pub fn relation(map: &IndexingMap) -> BTreeSet<(Vec<i64>, Vec<i64>)> {
    let mut out = BTreeSet::new();
    if map.is_known_empty() {
        return out;
    }
    let syms = points(&map.symbol_bounds());
    for d in points(&map.dim_bounds()) {
        for s in &syms {
            if map.contains_point(&d, s) {
                out.insert((d.clone(), map.evaluate(&d, s).expect("evaluation failed in the domain")));
            }
        }
    }
    out
}

/// `{(dims ++ runtime values, results)}`: range variables quantified,
/// runtime variables kept.
pub fn relation_with_rt(map: &IndexingMap) -> BTreeSet<(Vec<i64>, Vec<i64>)> {
    let mut out = BTreeSet::new();
    if map.is_known_empty() {
        return out;
    }
    let r = map.num_range_vars();
    let syms = points(&map.symbol_bounds());
    for d in points(&map.dim_bounds()) {
        for s in &syms {
            if map.contains_point(&d, s) {
                let mut key = d.clone();
                key.extend_from_slice(&s[r..]);
                out.insert((key, map.evaluate(&d, s).expect("evaluation failed in the domain")));
            }
        }
    }
    out
}

/// The set of domain points.
pub fn domain(map: &IndexingMap) -> BTreeSet<(Vec<i64>, Vec<i64>)> {
    let mut out = BTreeSet::new();
    if map.is_known_empty() {
        return out;
    }
    let syms = points(&map.symbol_bounds());
    for d in points(&map.dim_bounds()) {
        for s in &syms {
            if map.contains_point(&d, s) {
                out.insert((d.clone(), s.clone()));
            }
        }
    }
    out
}

/// A reference expression: a plain tree evaluated directly, to check the
/// canonicalizing constructors against.
#[derive(Clone, Debug)]
pub enum RefExpr {
    Const(i64),
    Dim(usize),
    Sym(usize),
    Bin(BinOp, Box<RefExpr>, Box<RefExpr>),
}

fn floor_div(a: i64, b: i64) -> Option<i64> {
    if b == 0 {
        return None;
    }
    let (a, b) = (a as i128, b as i128);
    let q = a / b;
    let q = if a % b != 0 && ((a < 0) != (b < 0)) { q - 1 } else { q };
    i64::try_from(q).ok()
}

impl RefExpr {
    pub fn eval(&self, dims: &[i64], syms: &[i64]) -> Option<i64> {
        match self {
            RefExpr::Const(v) => Some(*v),
            RefExpr::Dim(i) => dims.get(*i).copied(),
            RefExpr::Sym(j) => syms.get(*j).copied(),
            RefExpr::Bin(op, l, r) => {
                let a = l.eval(dims, syms)?;
                let b = r.eval(dims, syms)?;
                match op {
                    BinOp::Add => a.checked_add(b),
                    BinOp::Mul => a.checked_mul(b),
                    BinOp::FloorDiv => floor_div(a, b),
                    BinOp::CeilDiv => floor_div(a.checked_neg()?, b).and_then(|v| v.checked_neg()),
                    // Non-negative remainder for any non-zero divisor.
                    BinOp::Mod => (b != 0).then(|| a.rem_euclid(b.abs())),
                    BinOp::Min => Some(a.min(b)),
                    BinOp::Max => Some(a.max(b)),
                }
            }
        }
    }

    /// Builds the canonical [`Expr`] through the public constructors.
    pub fn to_expr(&self) -> Expr {
        match self {
            RefExpr::Const(v) => Expr::constant(*v),
            RefExpr::Dim(i) => Expr::dim(*i),
            RefExpr::Sym(j) => Expr::sym(*j),
            RefExpr::Bin(op, l, r) => Expr::binary(*op, &l.to_expr(), &r.to_expr()),
        }
    }

    pub fn nodes(&self) -> Vec<&RefExpr> {
        let mut out = vec![self];
        if let RefExpr::Bin(_, l, r) = self {
            out.extend(l.nodes());
            out.extend(r.nodes());
        }
        out
    }
}

/// Options for random expressions.
#[derive(Clone, Copy)]
pub struct ExprGen {
    pub num_dims: usize,
    pub num_syms: usize,
    /// Allow products and divisions whose right side is not a constant.
    pub nonlinear: bool,
    pub min_max: bool,
}

pub fn random_expr(rng: &mut Rng, g: ExprGen, depth: usize) -> RefExpr {
    let leaf = depth == 0 || rng.chance(1, 4);
    if leaf {
        let choice = rng.below(g.num_dims + g.num_syms + 1);
        return if choice < g.num_dims {
            RefExpr::Dim(choice)
        } else if choice < g.num_dims + g.num_syms {
            RefExpr::Sym(choice - g.num_dims)
        } else {
            RefExpr::Const(rng.range(-6, 6))
        };
    }
    let mut ops = vec![BinOp::Add, BinOp::Add, BinOp::Mul, BinOp::FloorDiv, BinOp::Mod, BinOp::CeilDiv];
    if g.min_max {
        ops.push(BinOp::Min);
        ops.push(BinOp::Max);
    }
    let op = *rng.pick(&ops);
    let lhs = random_expr(rng, g, depth - 1);
    let rhs = match op {
        BinOp::Mul | BinOp::FloorDiv | BinOp::Mod | BinOp::CeilDiv if !(g.nonlinear && rng.chance(1, 5)) => {
            let mut c = 0;
            while c == 0 {
                c = rng.range(-5, 9);
            }
            RefExpr::Const(c)
        }
        _ => random_expr(rng, g, depth - 1),
    };
    RefExpr::Bin(op, Box::new(lhs), Box::new(rhs))
}

pub fn random_interval(rng: &mut Rng, lo: i64, hi: i64, max_len: i64) -> Interval {
    let a = rng.range(lo, hi);
    Interval::new(a, a + rng.range(0, max_len))
}
