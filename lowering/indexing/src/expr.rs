//! Symbolic index expressions (XLA's `SymbolicExpr`, the successor of MLIR's
//! `AffineExpr`).
//!
//! An [`Expr`] is an immutable, cheaply clonable tree over integer constants,
//! dimension variables `d_i` and symbols `s_j` (in an [`crate::IndexingMap`] the
//! symbols are the range variables followed by the runtime variables), combined
//! with `+`, `*`, `floordiv`, `ceildiv`, `mod`, `min` and `max`.
//!
//! Every constructor canonicalizes (the counterpart of XLA's `Canonicalize`):
//!
//! * constants are folded, and a constant operand of `+`, `*`, `min`, `max` is
//!   on the right;
//! * sums are flattened into `term * coefficient` summands, equal terms are
//!   merged, zero terms dropped, and the summands sorted (dimensions by
//!   position, then symbols, then floordiv, ceildiv, mod, products, min, max),
//!   the constant last; `(x floordiv c) * (c * y) + (x mod c) * y` becomes
//!   `x * y`;
//! * multiplication by a constant is distributed over sums, coefficients are
//!   collected (`(x * 2) * 3` is `x * 6`), and products of non-constants are
//!   sorted;
//! * divisors and moduli are made positive (`x floordiv -c` is
//!   `(-x) floordiv c`), `ceildiv` by a constant becomes `floordiv`, the gcd of
//!   all coefficients and the divisor is cancelled, summands that are exact
//!   multiples of the divisor are moved out of a `floordiv` or dropped from a
//!   `mod`, `(x floordiv a) floordiv b` is `x floordiv (a * b)`, and
//!   `(x mod ab) floordiv b` is `(x floordiv b) mod a`.
//!
//! These rewrites hold for every value of the variables; the rewrites that
//! need variable ranges live in [`crate::simplify`]. Where a rewrite would
//! overflow `i64`, or divides by zero, the node is kept as written instead, so
//! construction never panics.

use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

use crate::interval::floor_div_i128;

/// A binary operator of [`Expr`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BinOp {
    Add,
    Mul,
    FloorDiv,
    CeilDiv,
    Mod,
    Min,
    Max,
}

impl BinOp {
    /// The spelling used in the text format.
    pub fn spelling(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Mul => "*",
            BinOp::FloorDiv => "floordiv",
            BinOp::CeilDiv => "ceildiv",
            BinOp::Mod => "mod",
            BinOp::Min => "min",
            BinOp::Max => "max",
        }
    }
}

/// The node of an [`Expr`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ExprKind {
    Const(i64),
    /// Dimension variable `d_i`.
    Dim(usize),
    /// Symbol `s_j`: range variables first, then runtime variables.
    Sym(usize),
    Binary(BinOp, Expr, Expr),
}

/// A canonicalized symbolic index expression. See the module documentation.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Expr(Arc<ExprKind>);

/// A variable reference handed to [`Expr::map_vars`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Var {
    Dim(usize),
    Sym(usize),
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

fn to_i64(v: i128) -> Option<i64> {
    i64::try_from(v).ok()
}

/// Evaluates one operator on constants; `None` when undefined (division by
/// zero) or when the result does not fit in `i64`.
pub(crate) fn fold(op: BinOp, a: i64, b: i64) -> Option<i64> {
    let (a, b) = (a as i128, b as i128);
    let v = match op {
        BinOp::Add => a + b,
        BinOp::Mul => a * b,
        BinOp::FloorDiv => {
            if b == 0 {
                return None;
            }
            floor_div_i128(a, b)
        }
        BinOp::CeilDiv => {
            if b == 0 {
                return None;
            }
            -floor_div_i128(-a, b)
        }
        BinOp::Mod => {
            if b == 0 {
                return None;
            }
            a.rem_euclid(b.abs())
        }
        BinOp::Min => a.min(b),
        BinOp::Max => a.max(b),
    };
    to_i64(v)
}

impl Expr {
    fn from_kind(kind: ExprKind) -> Expr {
        Expr(Arc::new(kind))
    }

    pub fn constant(v: i64) -> Expr {
        Expr::from_kind(ExprKind::Const(v))
    }

    pub fn zero() -> Expr {
        Expr::constant(0)
    }

    /// Dimension variable `d_i`.
    pub fn dim(i: usize) -> Expr {
        Expr::from_kind(ExprKind::Dim(i))
    }

    /// Symbol `s_j` (range variables first, then runtime variables).
    pub fn sym(j: usize) -> Expr {
        Expr::from_kind(ExprKind::Sym(j))
    }

    /// Builds a node exactly as given, without canonicalization. Only used
    /// where a canonical rewrite is impossible (overflow, division by zero)
    /// and when assembling already-canonical parts.
    pub(crate) fn raw(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
        Expr::from_kind(ExprKind::Binary(op, lhs, rhs))
    }

    pub fn kind(&self) -> &ExprKind {
        &self.0
    }

    pub fn as_const(&self) -> Option<i64> {
        match *self.0 {
            ExprKind::Const(v) => Some(v),
            _ => None,
        }
    }

    pub fn is_const(&self) -> bool {
        self.as_const().is_some()
    }

    /// `(op, lhs, rhs)` of a binary node.
    pub fn as_binary(&self) -> Option<(BinOp, &Expr, &Expr)> {
        match &*self.0 {
            ExprKind::Binary(op, l, r) => Some((*op, l, r)),
            _ => None,
        }
    }

    pub fn op(&self) -> Option<BinOp> {
        self.as_binary().map(|(op, _, _)| op)
    }

    /// `c` if this is `lhs <op> c` with a constant `c`.
    pub(crate) fn const_rhs(&self, op: BinOp) -> Option<(&Expr, i64)> {
        match self.as_binary() {
            Some((o, l, r)) if o == op => r.as_const().map(|c| (l, c)),
            _ => None,
        }
    }

    /// Canonical binary constructor.
    pub fn binary(op: BinOp, lhs: &Expr, rhs: &Expr) -> Expr {
        match op {
            BinOp::Add => make_add(lhs, rhs),
            BinOp::Mul => make_mul(lhs, rhs),
            BinOp::FloorDiv => make_floor_div(lhs, rhs),
            BinOp::CeilDiv => make_ceil_div(lhs, rhs),
            BinOp::Mod => make_mod(lhs, rhs),
            BinOp::Min => make_min_max(BinOp::Min, lhs, rhs),
            BinOp::Max => make_min_max(BinOp::Max, lhs, rhs),
        }
    }

    pub fn add(&self, rhs: &Expr) -> Expr {
        make_add(self, rhs)
    }

    pub fn add_const(&self, c: i64) -> Expr {
        make_add(self, &Expr::constant(c))
    }

    pub fn sub(&self, rhs: &Expr) -> Expr {
        make_add(self, &rhs.neg())
    }

    pub fn sub_const(&self, c: i64) -> Expr {
        match 0i64.checked_sub(c) {
            Some(n) => self.add_const(n),
            None => self.sub(&Expr::constant(c)),
        }
    }

    pub fn mul(&self, rhs: &Expr) -> Expr {
        make_mul(self, rhs)
    }

    pub fn mul_const(&self, c: i64) -> Expr {
        make_mul(self, &Expr::constant(c))
    }

    pub fn neg(&self) -> Expr {
        make_mul(self, &Expr::constant(-1))
    }

    pub fn floor_div(&self, rhs: &Expr) -> Expr {
        make_floor_div(self, rhs)
    }

    pub fn floor_div_const(&self, c: i64) -> Expr {
        make_floor_div(self, &Expr::constant(c))
    }

    pub fn ceil_div(&self, rhs: &Expr) -> Expr {
        make_ceil_div(self, rhs)
    }

    pub fn ceil_div_const(&self, c: i64) -> Expr {
        make_ceil_div(self, &Expr::constant(c))
    }

    /// `self mod rhs`: the non-negative (Euclidean) remainder.
    pub fn modulo(&self, rhs: &Expr) -> Expr {
        make_mod(self, rhs)
    }

    pub fn modulo_const(&self, c: i64) -> Expr {
        make_mod(self, &Expr::constant(c))
    }

    pub fn minimum(&self, rhs: &Expr) -> Expr {
        make_min_max(BinOp::Min, self, rhs)
    }

    pub fn maximum(&self, rhs: &Expr) -> Expr {
        make_min_max(BinOp::Max, self, rhs)
    }

    /// Evaluates with the given dimension and symbol values. `None` when a
    /// variable has no value, on division by zero, or on `i64` overflow.
    pub fn eval(&self, dims: &[i64], syms: &[i64]) -> Option<i64> {
        match &*self.0 {
            ExprKind::Const(v) => Some(*v),
            ExprKind::Dim(i) => dims.get(*i).copied(),
            ExprKind::Sym(j) => syms.get(*j).copied(),
            ExprKind::Binary(op, l, r) => {
                let a = l.eval(dims, syms)?;
                let b = r.eval(dims, syms)?;
                fold(*op, a, b)
            }
        }
    }

    /// Rebuilds the expression (canonically) with every variable replaced by
    /// `f(var)`.
    pub fn map_vars(&self, f: &mut dyn FnMut(Var) -> Expr) -> Expr {
        match &*self.0 {
            ExprKind::Const(_) => self.clone(),
            ExprKind::Dim(i) => f(Var::Dim(*i)),
            ExprKind::Sym(j) => f(Var::Sym(*j)),
            ExprKind::Binary(op, l, r) => {
                let nl = l.map_vars(f);
                let nr = r.map_vars(f);
                if nl == *l && nr == *r {
                    return self.clone();
                }
                Expr::binary(*op, &nl, &nr)
            }
        }
    }

    /// Replaces `d_i` by `dims[i]` and `s_j` by `syms[j]`; variables without a
    /// replacement are kept.
    pub fn replace_dims_and_symbols(&self, dims: &[Expr], syms: &[Expr]) -> Expr {
        self.map_vars(&mut |v| match v {
            Var::Dim(i) => dims.get(i).cloned().unwrap_or_else(|| Expr::dim(i)),
            Var::Sym(j) => syms.get(j).cloned().unwrap_or_else(|| Expr::sym(j)),
        })
    }

    /// Replaces every occurrence of the subtree `from` by `to`.
    pub fn replace(&self, from: &Expr, to: &Expr) -> Expr {
        if self == from {
            return to.clone();
        }
        match &*self.0 {
            ExprKind::Binary(op, l, r) => {
                let nl = l.replace(from, to);
                let nr = r.replace(from, to);
                if nl == *l && nr == *r {
                    return self.clone();
                }
                Expr::binary(*op, &nl, &nr)
            }
            _ => self.clone(),
        }
    }

    /// Calls `f` on every node, parents before children.
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        if let ExprKind::Binary(_, l, r) = &*self.0 {
            l.walk(f);
            r.walk(f);
        }
    }

    /// The dimensions this expression uses.
    pub fn used_dims(&self) -> BTreeSet<usize> {
        let mut out = BTreeSet::new();
        self.walk(&mut |e| {
            if let ExprKind::Dim(i) = e.kind() {
                out.insert(*i);
            }
        });
        out
    }

    /// The symbols this expression uses.
    pub fn used_syms(&self) -> BTreeSet<usize> {
        let mut out = BTreeSet::new();
        self.walk(&mut |e| {
            if let ExprKind::Sym(j) = e.kind() {
                out.insert(*j);
            }
        });
        out
    }

    pub fn uses_dim(&self, i: usize) -> bool {
        let mut found = false;
        self.walk(&mut |e| found |= matches!(e.kind(), ExprKind::Dim(d) if *d == i));
        found
    }

    pub fn uses_sym(&self, j: usize) -> bool {
        let mut found = false;
        self.walk(&mut |e| found |= matches!(e.kind(), ExprKind::Sym(s) if *s == j));
        found
    }

    /// Number of nodes.
    pub fn size(&self) -> usize {
        let mut n = 0;
        self.walk(&mut |_| n += 1);
        n
    }

    /// Prints with the given names; missing names fall back to `d<i>` / `s<j>`.
    pub fn to_string_with(&self, dim_names: &[String], sym_names: &[String]) -> String {
        let mut s = String::new();
        print_expr(self, dim_names, sym_names, false, &mut s);
        s
    }
}

// ---------------------------------------------------------------------------
// Ordering.
// ---------------------------------------------------------------------------

/// Position of a node kind in the canonical order of summands.
fn rank(e: &Expr) -> u8 {
    match e.kind() {
        ExprKind::Dim(_) => 0,
        ExprKind::Sym(_) => 1,
        ExprKind::Binary(op, _, _) => match op {
            BinOp::FloorDiv => 2,
            BinOp::CeilDiv => 3,
            BinOp::Mod => 4,
            BinOp::Mul => 5,
            BinOp::Min => 6,
            BinOp::Max => 7,
            BinOp::Add => 8,
        },
        ExprKind::Const(_) => 9,
    }
}

impl Ord for Expr {
    /// A total structural order; it decides the order of summands, so that
    /// e.g. `d0 * 8 + d1` and `d2 + (d1 mod 2) * 4` print the way XLA's
    /// documentation shows them.
    fn cmp(&self, other: &Expr) -> Ordering {
        if Arc::ptr_eq(&self.0, &other.0) {
            return Ordering::Equal;
        }
        rank(self).cmp(&rank(other)).then_with(|| match (self.kind(), other.kind()) {
            (ExprKind::Dim(a), ExprKind::Dim(b)) => a.cmp(b),
            (ExprKind::Sym(a), ExprKind::Sym(b)) => a.cmp(b),
            (ExprKind::Const(a), ExprKind::Const(b)) => a.cmp(b),
            (ExprKind::Binary(_, l1, r1), ExprKind::Binary(_, l2, r2)) => l1.cmp(l2).then_with(|| r1.cmp(r2)),
            _ => Ordering::Equal,
        })
    }
}

impl PartialOrd for Expr {
    fn partial_cmp(&self, other: &Expr) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

// ---------------------------------------------------------------------------
// Sums.
// ---------------------------------------------------------------------------

/// A sum viewed as `sum(term_i * coeff_i) + constant`, with coefficients in
/// `i128` so that merging cannot overflow.
#[derive(Clone, Debug)]
pub(crate) struct Linear {
    pub terms: Vec<(Expr, i128)>,
    pub constant: i128,
}

/// Splits `e` into `(base, coefficient)`, e.g. `d0 * 4` into `(d0, 4)`.
pub(crate) fn split_coeff(e: &Expr) -> (Expr, i64) {
    match e.const_rhs(BinOp::Mul) {
        Some((l, c)) => (l.clone(), c),
        None => (e.clone(), 1),
    }
}

fn collect_terms(e: &Expr, scale: i128, terms: &mut Vec<(Expr, i128)>, constant: &mut i128) -> bool {
    match e.kind() {
        ExprKind::Const(v) => match (*v as i128).checked_mul(scale).and_then(|x| constant.checked_add(x)) {
            Some(c) => {
                *constant = c;
                true
            }
            None => false,
        },
        ExprKind::Binary(BinOp::Add, l, r) => {
            collect_terms(l, scale, terms, constant) && collect_terms(r, scale, terms, constant)
        }
        ExprKind::Binary(BinOp::Mul, l, r) if r.is_const() => {
            match r.as_const().and_then(|c| (c as i128).checked_mul(scale)) {
                Some(s) => collect_terms(l, s, terms, constant),
                None => false,
            }
        }
        _ => {
            terms.push((e.clone(), scale));
            true
        }
    }
}

impl Linear {
    /// The linear view of `e` (a single term when `e` is not a sum).
    pub fn of(e: &Expr) -> Option<Linear> {
        let mut lin = Linear { terms: Vec::new(), constant: 0 };
        if collect_terms(e, 1, &mut lin.terms, &mut lin.constant) {
            lin.normalize();
            Some(lin)
        } else {
            None
        }
    }

    /// Sorts the terms and merges equal ones.
    fn normalize(&mut self) {
        self.terms.sort_by(|a, b| a.0.cmp(&b.0));
        let mut merged: Vec<(Expr, i128)> = Vec::with_capacity(self.terms.len());
        for (e, c) in self.terms.drain(..) {
            match merged.last_mut() {
                Some((le, lc)) if *le == e => *lc += c,
                _ => merged.push((e, c)),
            }
        }
        merged.retain(|(_, c)| *c != 0);
        self.terms = merged;
    }

    /// Rewrites `(x floordiv c) * (c * y) + (x mod c) * y` into `x * y`, which
    /// holds for every `x` when `c > 0`.
    fn combine_div_mod(&mut self) -> bool {
        let mut changed_any = false;
        loop {
            let mut found = None;
            'outer: for (i, (e, coeff)) in self.terms.iter().enumerate() {
                let Some((x, c)) = e.const_rhs(BinOp::FloorDiv) else {
                    continue;
                };
                if c <= 0 || coeff % c as i128 != 0 {
                    continue;
                }
                let y = coeff / c as i128;
                for (j, (m, mc)) in self.terms.iter().enumerate() {
                    if *mc == y && m.const_rhs(BinOp::Mod).is_some_and(|(mx, mcst)| mcst == c && mx == x) {
                        found = Some((i, j, x.clone(), y));
                        break 'outer;
                    }
                }
            }
            let Some((i, j, x, y)) = found else { break };
            let mut extra = Vec::new();
            let mut constant = self.constant;
            if !collect_terms(&x, y, &mut extra, &mut constant) {
                // Overflow while expanding x * y: keep the pair as it is.
                break;
            }
            let (hi, lo) = if i > j { (i, j) } else { (j, i) };
            self.terms.remove(hi);
            self.terms.remove(lo);
            self.terms.extend(extra);
            self.constant = constant;
            self.normalize();
            changed_any = true;
        }
        changed_any
    }

    /// Builds the canonical expression, `None` if a coefficient overflows.
    pub fn build(&self) -> Option<Expr> {
        let mut acc: Option<Expr> = None;
        for (e, c) in &self.terms {
            let c = to_i64(*c)?;
            let term = if c == 1 { e.clone() } else { Expr::raw(BinOp::Mul, e.clone(), Expr::constant(c)) };
            acc = Some(match acc {
                None => term,
                Some(a) => Expr::raw(BinOp::Add, a, term),
            });
        }
        let c = to_i64(self.constant)?;
        Some(match acc {
            None => Expr::constant(c),
            Some(a) if c == 0 => a,
            Some(a) => Expr::raw(BinOp::Add, a, Expr::constant(c)),
        })
    }

    /// gcd of all coefficients and the constant (0 for the zero sum).
    pub fn content(&self) -> i128 {
        let mut g = self.constant.abs();
        for (_, c) in &self.terms {
            g = gcd(g, *c);
        }
        g
    }

    /// Divides every coefficient and the constant by `g` (must divide them).
    pub fn divide(&self, g: i128) -> Linear {
        Linear { terms: self.terms.iter().map(|(e, c)| (e.clone(), c / g)).collect(), constant: self.constant / g }
    }
}

fn make_add(a: &Expr, b: &Expr) -> Expr {
    if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
        return fold(BinOp::Add, x, y)
            .map(Expr::constant)
            .unwrap_or_else(|| Expr::raw(BinOp::Add, a.clone(), b.clone()));
    }
    if a.as_const() == Some(0) {
        return b.clone();
    }
    if b.as_const() == Some(0) {
        return a.clone();
    }
    let mut lin = Linear { terms: Vec::new(), constant: 0 };
    if !collect_terms(a, 1, &mut lin.terms, &mut lin.constant)
        || !collect_terms(b, 1, &mut lin.terms, &mut lin.constant)
    {
        return Expr::raw(BinOp::Add, a.clone(), b.clone());
    }
    lin.normalize();
    lin.combine_div_mod();
    lin.build().unwrap_or_else(|| Expr::raw(BinOp::Add, a.clone(), b.clone()))
}

fn flatten_product(e: &Expr, out: &mut Vec<Expr>) {
    match e.as_binary() {
        Some((BinOp::Mul, l, r)) if !r.is_const() && !l.is_const() => {
            flatten_product(l, out);
            flatten_product(r, out);
        }
        _ => out.push(e.clone()),
    }
}

fn make_mul(a: &Expr, b: &Expr) -> Expr {
    match (a.as_const(), b.as_const()) {
        (Some(x), Some(y)) => {
            return fold(BinOp::Mul, x, y)
                .map(Expr::constant)
                .unwrap_or_else(|| Expr::raw(BinOp::Mul, a.clone(), b.clone()));
        }
        (Some(_), None) => return make_mul(b, a),
        (None, Some(k)) => {
            if k == 0 {
                return Expr::zero();
            }
            if k == 1 {
                return a.clone();
            }
            // Scaling a sum or a scaled term: distribute and collect.
            let mut lin = Linear { terms: Vec::new(), constant: 0 };
            if collect_terms(a, k as i128, &mut lin.terms, &mut lin.constant) {
                lin.normalize();
                lin.combine_div_mod();
                if let Some(e) = lin.build() {
                    return e;
                }
            }
            return Expr::raw(BinOp::Mul, a.clone(), b.clone());
        }
        (None, None) => {}
    }
    // Distribute over sums.
    if let Some((BinOp::Add, l, r)) = a.as_binary() {
        return make_add(&make_mul(l, b), &make_mul(r, b));
    }
    if let Some((BinOp::Add, l, r)) = b.as_binary() {
        return make_add(&make_mul(a, l), &make_mul(a, r));
    }
    let (ba, ka) = split_coeff(a);
    let (bb, kb) = split_coeff(b);
    let mut factors = Vec::new();
    flatten_product(&ba, &mut factors);
    flatten_product(&bb, &mut factors);
    factors.sort();
    let mut prod = factors[0].clone();
    for f in &factors[1..] {
        prod = Expr::raw(BinOp::Mul, prod, f.clone());
    }
    match fold(BinOp::Mul, ka, kb) {
        Some(1) => prod,
        Some(k) => make_mul(&prod, &Expr::constant(k)),
        None => Expr::raw(BinOp::Mul, a.clone(), b.clone()),
    }
}

fn make_floor_div(a: &Expr, b: &Expr) -> Expr {
    let raw = || Expr::raw(BinOp::FloorDiv, a.clone(), b.clone());
    let Some(d) = b.as_const() else {
        if a.as_const() == Some(0) {
            return Expr::zero();
        }
        return raw();
    };
    if d == 0 {
        return raw();
    }
    if let Some(v) = a.as_const() {
        return fold(BinOp::FloorDiv, v, d).map(Expr::constant).unwrap_or_else(raw);
    }
    if d == 1 {
        return a.clone();
    }
    if d == -1 {
        return a.neg();
    }
    if d < 0 {
        // floor(a / -c) == floor(-a / c): keep divisors positive.
        return match d.checked_neg() {
            Some(nd) => make_floor_div(&a.neg(), &Expr::constant(nd)),
            None => raw(),
        };
    }
    // (x floordiv c1) floordiv c2 == x floordiv (c1 * c2) for positive c1, c2.
    if let Some((x, c1)) = a.const_rhs(BinOp::FloorDiv) {
        if c1 > 0 {
            if let Some(c) = c1.checked_mul(d) {
                return make_floor_div(x, &Expr::constant(c));
            }
        }
    }
    // (x mod (c * d)) floordiv d == (x floordiv d) mod c.
    if let Some((x, m)) = a.const_rhs(BinOp::Mod) {
        if m > 0 && m % d == 0 {
            return make_mod(&make_floor_div(x, b), &Expr::constant(m / d));
        }
    }
    let Some(lin) = Linear::of(a) else {
        return raw();
    };
    let g = gcd(lin.content(), d as i128);
    if g > 1 {
        if let Some(num) = lin.divide(g).build() {
            return make_floor_div(&num, &Expr::constant((d as i128 / g) as i64));
        }
        return raw();
    }
    // Move summands that are multiples of the divisor out of the division.
    let mut inside = Linear { terms: Vec::new(), constant: 0 };
    let mut outside = Linear { terms: Vec::new(), constant: 0 };
    for (e, c) in &lin.terms {
        if c % d as i128 == 0 {
            outside.terms.push((e.clone(), c / d as i128));
        } else {
            inside.terms.push((e.clone(), *c));
        }
    }
    if lin.constant % d as i128 == 0 {
        outside.constant = lin.constant / d as i128;
    } else {
        inside.constant = lin.constant;
    }
    if outside.terms.is_empty() && outside.constant == 0 {
        return raw();
    }
    match (inside.build(), outside.build()) {
        (Some(i), Some(o)) => make_add(&make_floor_div(&i, b), &o),
        _ => raw(),
    }
}

fn make_ceil_div(a: &Expr, b: &Expr) -> Expr {
    let raw = || Expr::raw(BinOp::CeilDiv, a.clone(), b.clone());
    let Some(d) = b.as_const() else {
        if a.as_const() == Some(0) {
            return Expr::zero();
        }
        return raw();
    };
    if d == 0 {
        return raw();
    }
    if let Some(v) = a.as_const() {
        return fold(BinOp::CeilDiv, v, d).map(Expr::constant).unwrap_or_else(raw);
    }
    if d > 0 {
        // ceil(a / d) == floor((a + d - 1) / d).
        return make_floor_div(&a.add_const(d - 1), b);
    }
    // ceil(a / -c) == -floor(a / c).
    match d.checked_neg() {
        Some(nd) => make_floor_div(a, &Expr::constant(nd)).neg(),
        None => raw(),
    }
}

fn make_mod(a: &Expr, b: &Expr) -> Expr {
    let raw = || Expr::raw(BinOp::Mod, a.clone(), b.clone());
    let Some(m) = b.as_const() else {
        if a.as_const() == Some(0) || a == b {
            return Expr::zero();
        }
        return raw();
    };
    if m == 0 {
        return raw();
    }
    if let Some(v) = a.as_const() {
        return fold(BinOp::Mod, v, m).map(Expr::constant).unwrap_or_else(raw);
    }
    // The Euclidean remainder only depends on |m|.
    let Some(m) = m.checked_abs() else {
        return raw();
    };
    if m == 1 {
        return Expr::zero();
    }
    let mc = Expr::constant(m);
    // (x mod (k * m)) mod m == x mod m.
    if let Some((x, m1)) = a.const_rhs(BinOp::Mod) {
        if m1 > 0 && m1 % m == 0 {
            return make_mod(x, &mc);
        }
    }
    let Some(lin) = Linear::of(a) else {
        return raw();
    };
    // Summands that are multiples of m do not change the remainder.
    let mut rest = Linear { terms: Vec::new(), constant: lin.constant };
    let mut dropped = false;
    for (e, c) in &lin.terms {
        if c % m as i128 == 0 {
            dropped = true;
        } else {
            rest.terms.push((e.clone(), *c));
        }
    }
    if rest.constant % m as i128 == 0 && rest.constant != 0 {
        rest.constant = 0;
        dropped = true;
    }
    if rest.terms.is_empty() {
        return Expr::constant(rest.constant.rem_euclid(m as i128) as i64);
    }
    // (g * x) mod (g * m') == g * (x mod m').
    let g = gcd(rest.content(), m as i128);
    if g > 1 {
        return match rest.divide(g).build() {
            Some(x) => make_mul(&make_mod(&x, &Expr::constant((m as i128 / g) as i64)), &Expr::constant(g as i64)),
            None => raw(),
        };
    }
    if dropped {
        // Nothing is left to drop, so this recursion ends at the next level;
        // it re-applies the rules above to what is left.
        return match rest.build() {
            Some(x) => make_mod(&x, &mc),
            None => raw(),
        };
    }
    if b.as_const() == Some(m) {
        raw()
    } else {
        Expr::raw(BinOp::Mod, a.clone(), mc)
    }
}

fn make_min_max(op: BinOp, a: &Expr, b: &Expr) -> Expr {
    if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
        return Expr::constant(if op == BinOp::Min { x.min(y) } else { x.max(y) });
    }
    // min(x, x + k) and max(x, x + k) are decided by the sign of k.
    if let Some(diff) = a.sub(b).as_const() {
        let pick_a = if op == BinOp::Min { diff <= 0 } else { diff >= 0 };
        return if pick_a { a.clone() } else { b.clone() };
    }
    if b < a {
        Expr::raw(op, b.clone(), a.clone())
    } else {
        Expr::raw(op, a.clone(), b.clone())
    }
}

// ---------------------------------------------------------------------------
// Operators.
// ---------------------------------------------------------------------------

macro_rules! impl_op {
    ($trait:ident, $method:ident, $f:ident) => {
        impl std::ops::$trait<&Expr> for &Expr {
            type Output = Expr;
            fn $method(self, rhs: &Expr) -> Expr {
                $f(self, rhs)
            }
        }
        impl std::ops::$trait<Expr> for Expr {
            type Output = Expr;
            fn $method(self, rhs: Expr) -> Expr {
                $f(&self, &rhs)
            }
        }
        impl std::ops::$trait<&Expr> for Expr {
            type Output = Expr;
            fn $method(self, rhs: &Expr) -> Expr {
                $f(&self, rhs)
            }
        }
        impl std::ops::$trait<i64> for Expr {
            type Output = Expr;
            fn $method(self, rhs: i64) -> Expr {
                $f(&self, &Expr::constant(rhs))
            }
        }
        impl std::ops::$trait<i64> for &Expr {
            type Output = Expr;
            fn $method(self, rhs: i64) -> Expr {
                $f(self, &Expr::constant(rhs))
            }
        }
    };
}

fn sub_exprs(a: &Expr, b: &Expr) -> Expr {
    a.sub(b)
}

impl_op!(Add, add, make_add);
impl_op!(Mul, mul, make_mul);
impl_op!(Sub, sub, sub_exprs);

impl std::ops::Neg for Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        Expr::neg(&self)
    }
}

impl std::ops::Neg for &Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        Expr::neg(self)
    }
}

// ---------------------------------------------------------------------------
// Printing, in the style of MLIR's affine expression printer (which XLA's
// indexing map printer follows).
// ---------------------------------------------------------------------------

fn var_name(prefix: &str, i: usize, names: &[String]) -> String {
    match names.get(i) {
        Some(n) if !n.is_empty() => n.clone(),
        _ => format!("{prefix}{i}"),
    }
}

pub(crate) fn print_expr(e: &Expr, dims: &[String], syms: &[String], parens: bool, out: &mut String) {
    use std::fmt::Write;
    let (op, lhs, rhs) = match e.kind() {
        ExprKind::Const(v) => {
            let _ = write!(out, "{v}");
            return;
        }
        ExprKind::Dim(i) => {
            out.push_str(&var_name("d", *i, dims));
            return;
        }
        ExprKind::Sym(j) => {
            out.push_str(&var_name("s", *j, syms));
            return;
        }
        ExprKind::Binary(op, l, r) => (*op, l, r),
    };
    match op {
        BinOp::Min | BinOp::Max => {
            out.push_str(op.spelling());
            out.push('(');
            print_expr(lhs, dims, syms, false, out);
            out.push_str(", ");
            print_expr(rhs, dims, syms, false, out);
            out.push(')');
        }
        BinOp::Mul | BinOp::FloorDiv | BinOp::CeilDiv | BinOp::Mod => {
            if parens {
                out.push('(');
            }
            if op == BinOp::Mul && rhs.as_const() == Some(-1) {
                out.push('-');
                print_expr(lhs, dims, syms, true, out);
            } else {
                print_expr(lhs, dims, syms, true, out);
                out.push(' ');
                out.push_str(op.spelling());
                out.push(' ');
                print_expr(rhs, dims, syms, true, out);
            }
            if parens {
                out.push(')');
            }
        }
        BinOp::Add => {
            if parens {
                out.push('(');
            }
            print_expr(lhs, dims, syms, false, out);
            // A negatively scaled summand prints as a subtraction.
            if let Some((x, k)) = rhs.const_rhs(BinOp::Mul) {
                if k < 0 {
                    out.push_str(" - ");
                    if k == -1 {
                        let nested_sum = x.op() == Some(BinOp::Add);
                        print_expr(x, dims, syms, nested_sum, out);
                    } else {
                        print_expr(x, dims, syms, true, out);
                        out.push_str(&format!(" * {}", -(k as i128)));
                    }
                    if parens {
                        out.push(')');
                    }
                    return;
                }
            }
            match rhs.as_const() {
                Some(c) if c < 0 => out.push_str(&format!(" - {}", -(c as i128))),
                _ => {
                    out.push_str(" + ");
                    print_expr(rhs, dims, syms, false, out);
                }
            }
            if parens {
                out.push(')');
            }
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_with(&[], &[]))
    }
}

impl fmt::Debug for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Expr({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(i: usize) -> Expr {
        Expr::dim(i)
    }

    #[test]
    fn canonical_sums() {
        assert_eq!((d(0) + 1 - 1).to_string(), "d0");
        assert_eq!((d(1) + d(0) * 8).to_string(), "d0 * 8 + d1");
        assert_eq!((Expr::constant(16) - d(1)).to_string(), "-d1 + 16");
        assert_eq!((d(0) * 2 + d(0) * 3).to_string(), "d0 * 5");
        assert_eq!((d(0) - d(0)).to_string(), "0");
        assert_eq!((d(0) - d(1) * 3).to_string(), "d0 - d1 * 3");
        assert_eq!(((d(0) + 2) * 3).to_string(), "d0 * 3 + 6");
        assert_eq!((d(0) * d(1) * 2).to_string(), "(d0 * d1) * 2");
    }

    #[test]
    fn canonical_div_mod() {
        assert_eq!((d(0) * 16 + d(1)).floor_div_const(8).to_string(), "d0 * 2 + d1 floordiv 8");
        assert_eq!((d(0) * 6 + 9).floor_div_const(18).to_string(), "(d0 * 2 + 3) floordiv 6");
        assert_eq!((d(0) * 16 + d(1)).modulo_const(8).to_string(), "d1 mod 8");
        assert_eq!((d(1) * 4).modulo_const(8).to_string(), "(d1 mod 2) * 4");
        assert_eq!(d(0).floor_div_const(2).floor_div_const(7).to_string(), "d0 floordiv 14");
        assert_eq!(d(0).modulo_const(16).floor_div_const(4).to_string(), "(d0 floordiv 4) mod 4");
        assert_eq!((d(1) - 3).floor_div_const(7).to_string(), "(d1 - 3) floordiv 7");
        assert_eq!((d(1) - 3).modulo_const(7).to_string(), "(d1 - 3) mod 7");
        assert_eq!(d(0).floor_div_const(-2).to_string(), "(-d0) floordiv 2");
        assert_eq!(d(0).ceil_div_const(4).to_string(), "(d0 + 3) floordiv 4");
        let x = d(0) * 128;
        let e = x.modulo_const(715) + x.floor_div_const(715) * 715;
        assert_eq!(e.to_string(), "d0 * 128");
        assert_eq!(d(0).minimum(&(d(0) + 1)).to_string(), "d0");
        assert_eq!(Expr::constant(10).maximum(&d(0)).to_string(), "max(d0, 10)");
    }

    #[test]
    fn eval_semantics() {
        let e = d(0).modulo_const(5);
        assert_eq!(e.eval(&[-7], &[]), Some(3));
        assert_eq!(d(0).floor_div_const(2).eval(&[-3], &[]), Some(-2));
        assert_eq!(Expr::raw(BinOp::FloorDiv, d(0), Expr::zero()).eval(&[1], &[]), None);
        assert_eq!((d(0) * i64::MAX).eval(&[2], &[]), None);
        assert_eq!(Expr::sym(0).eval(&[], &[]), None);
    }
}
