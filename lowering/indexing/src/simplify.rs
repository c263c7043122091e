//! Range-based simplification of expressions, constraints and maps (XLA's
//! `SymbolicExprSimplifier` and `IndexingMap::Simplify`).
//!
//! Expression rules (`x`, `y` expressions, `c`, `k`, `m` constants; ranges are
//! computed over the map's domain):
//!
//! * an expression whose range is one value becomes that constant (with
//!   [`SimplifyPointDimensions::Preserve`], not when it reads a dimension whose
//!   bounds are a single value, so such dimensions stay visible);
//! * `min` / `max` whose operand ranges do not overlap pick an operand;
//! * `x mod m` with `x` in `[k*m, k*m + m - 1]` becomes `x - k*m`;
//!   summands that are multiples of `m` are dropped and the constant reduced;
//!   `(a * g + b) mod m` with `g | m` becomes `(a * g) mod m + b` when `b` is in
//!   `[0, g - 1]`, and `((a mod (m/g)) * g` when `b` is `0`;
//! * `x floordiv c`: the constant's quotient is moved out, summands `a * g + b`
//!   with `b` in `[0, gcd(g, c) - 1]` lose `b` and the common factor, and a
//!   single inner division is merged: `(y floordiv k + r) floordiv c` is
//!   `(y + r * k) floordiv (k * c)`;
//! * in sums, `(x mod c) * k + (y floordiv c') * k'` pairs where
//!   `y floordiv c'` simplifies to `x floordiv c` and `k' = c * k` become
//!   `x * k`, and `(x floordiv c) * (-c * b)` becomes `(x mod c) * b - x * b`.
//!
//! Constraint rules: the expression of a constraint is simplified; a
//! constraint that always holds is removed; one that never holds makes the map
//! known empty; `x + k in [a, b]` becomes `x in [a - k, b - k]`, `x * k` and
//! `x floordiv k` are divided out exactly, `a * g + b in [lo, hi]` becomes
//! `a in [..]` when `b`'s range cannot change the outcome; mod constraints on
//! the same expression with the same residue are merged (`x mod 2 in [0, 0]`
//! and `x mod 3 in [0, 0]` become `x mod 6 in [0, 0]`), and they tighten the
//! bounds of a variable to the first and last value with that residue.

use crate::expr::{BinOp, Expr, ExprKind, Linear};
use crate::interval::{ceil_div_i128, floor_div_i128, Interval};
use crate::map::IndexingMap;
use crate::range::RangeEvaluator;

/// Whether simplification may replace expressions over a dimension with a
/// single-value range by a constant (XLA's `SimplifyPointDimensions`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SimplifyPointDimensions {
    #[default]
    Replace,
    Preserve,
}

/// Bound on rewrite rounds; every rule shrinks the expression or its
/// constants, so this is only a guard against a cycle.
const MAX_ROUNDS: usize = 64;

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

fn lin_expr(l: &Linear) -> Option<Expr> {
    l.build()
}

/// `multiplied * g + not_multiplied`: `multiplied` collects the summands
/// with a coefficient other than 1 (divided by their gcd `g`).
struct GcdSplit {
    multiplied: Linear,
    gcd: i128,
    not_multiplied: Linear,
}

fn split_by_gcd(lin: &Linear) -> Option<GcdSplit> {
    let mut g = 0;
    for (_, c) in &lin.terms {
        if *c != 1 {
            g = gcd(g, *c);
        }
    }
    if g <= 1 {
        return None;
    }
    let mut multiplied = Linear { terms: Vec::new(), constant: 0 };
    let mut not_multiplied = Linear { terms: Vec::new(), constant: lin.constant };
    for (e, c) in &lin.terms {
        if *c != 1 {
            multiplied.terms.push((e.clone(), c / g));
        } else {
            not_multiplied.terms.push((e.clone(), *c));
        }
    }
    Some(GcdSplit { multiplied, gcd: g, not_multiplied })
}

/// Simplifies expressions using the ranges of an evaluator.
pub struct ExprSimplifier<'a> {
    ev: &'a RangeEvaluator,
    mode: SimplifyPointDimensions,
}

impl<'a> ExprSimplifier<'a> {
    pub fn new(ev: &'a RangeEvaluator, mode: SimplifyPointDimensions) -> ExprSimplifier<'a> {
        ExprSimplifier { ev, mode }
    }

    /// The range of `e`; an empty range (only possible in an empty domain)
    /// is treated as unknown so that no rule fires on it.
    fn range(&self, e: &Expr) -> Interval {
        let r = self.ev.range(e);
        if r.is_feasible() {
            r
        } else {
            Interval::full()
        }
    }

    fn point(&self, e: &Expr) -> Option<i64> {
        let r = self.range(e);
        r.is_point().then_some(r.lower)
    }

    /// Simplifies until nothing changes.
    pub fn simplify(&self, e: &Expr) -> Expr {
        let mut e = e.clone();
        for _ in 0..MAX_ROUNDS {
            let s = self.simplify_once(&e);
            if s == e {
                break;
            }
            e = s;
        }
        e
    }

    fn may_replace_by_constant(&self, e: &Expr) -> bool {
        match self.mode {
            SimplifyPointDimensions::Replace => true,
            SimplifyPointDimensions::Preserve => !e.used_dims().iter().any(|&d| self.ev.dim_bound(d).is_point()),
        }
    }

    /// One round of rewrites over the whole expression.
    fn simplify_once(&self, e: &Expr) -> Expr {
        if e.is_const() {
            return e.clone();
        }
        if let Some(v) = self.point(e) {
            if self.may_replace_by_constant(e) {
                return Expr::constant(v);
            }
        }
        let Some((op, l, r)) = e.as_binary() else {
            return e.clone();
        };
        match op {
            BinOp::Min | BinOp::Max => {
                if l == r {
                    return l.clone();
                }
                let (lr, rr) = (self.range(l), self.range(r));
                let (pick_l, pick_r) = if op == BinOp::Min {
                    (lr.upper <= rr.lower, rr.upper <= lr.lower)
                } else {
                    (lr.lower >= rr.upper, rr.lower >= lr.upper)
                };
                if pick_l {
                    return l.clone();
                }
                if pick_r {
                    return r.clone();
                }
                Expr::binary(op, &self.simplify_once(l), &self.simplify_once(r))
            }
            BinOp::Mul => match r.as_const().or_else(|| self.point(r)) {
                Some(k) => self.simplify_once(l).mul_const(k),
                None => self.simplify_once(l).mul(&self.simplify_once(r)),
            },
            BinOp::Add => self.rewrite_sum(e),
            BinOp::Mod => self.rewrite_mod(l, r),
            BinOp::FloorDiv => self.rewrite_floor_div(l, r),
            BinOp::CeilDiv => {
                let rhs = match self.point(r) {
                    Some(k) => Expr::constant(k),
                    None => self.simplify_once(r),
                };
                self.simplify_once(l).ceil_div(&rhs)
            }
        }
    }

    fn rewrite_mod(&self, l: &Expr, r: &Expr) -> Expr {
        let Some(m) = self.point(r) else {
            return self.simplify_once(l).modulo(&self.simplify_once(r));
        };
        let lhs = self.simplify_once(l);
        if m == 0 {
            // Undefined; leave it as written.
            return lhs.modulo(r);
        }
        let m = (m as i128).abs();
        let lr = self.range(&lhs);
        // No wrap-around: the mod is a shift.
        let offset = -floor_div_i128(lr.lower as i128, m) * m;
        if lr != Interval::full() && lr.upper as i128 + offset < m {
            if let Ok(off) = i64::try_from(offset) {
                return lhs.add_const(off);
            }
        }
        let mc = Expr::constant(m as i64);
        let Some(lin) = Linear::of(&lhs) else {
            return lhs.modulo(&mc);
        };
        let mut new_lin = Linear { terms: Vec::new(), constant: lin.constant.rem_euclid(m) };
        for (t, c) in &lin.terms {
            if c % m != 0 {
                new_lin.terms.push((t.clone(), *c));
            }
        }
        if let Some(split) = split_by_gcd(&new_lin) {
            let g = split.gcd;
            if m % g == 0 {
                if let (Some(mul), Some(rest)) = (lin_expr(&split.multiplied), lin_expr(&split.not_multiplied)) {
                    let nm = self.range(&rest);
                    if nm == Interval::point(0) {
                        return mul.modulo_const((m / g) as i64).mul_const(g as i64);
                    }
                    if Interval::new(0, (g - 1) as i64).contains_interval(&nm) {
                        return mul.mul_const(g as i64).modulo(&mc).add(&rest);
                    }
                }
            }
        }
        match lin_expr(&new_lin) {
            Some(x) => x.modulo(&mc),
            None => lhs.modulo(&mc),
        }
    }

    fn rewrite_floor_div(&self, l: &Expr, r: &Expr) -> Expr {
        let lhs = self.simplify_once(l);
        let Some(d) = self.point(r) else {
            return lhs.floor_div(&self.simplify_once(r));
        };
        let base = lhs.floor_div_const(d);
        // The canonical constructor may already have rewritten it.
        let Some((dividend, d)) = base.const_rhs(BinOp::FloorDiv).map(|(x, c)| (x.clone(), c)) else {
            return base;
        };
        if d > 1 {
            if let Some(e) = self.simplify_sum_div(&dividend, d) {
                return e;
            }
        }
        base
    }

    /// Rewrites `dividend floordiv d` where the dividend may be a sum.
    fn simplify_sum_div(&self, dividend: &Expr, d: i64) -> Option<Expr> {
        let lin = Linear::of(dividend)?;
        let mut d = d as i128;
        let mut extracted = Linear { terms: Vec::new(), constant: 0 };
        let mut rest = Linear { terms: Vec::new(), constant: 0 };
        for (t, c) in &lin.terms {
            if c % d == 0 {
                extracted.terms.push((t.clone(), c / d));
            } else {
                rest.terms.push((t.clone(), *c));
            }
        }
        let count = floor_div_i128(lin.constant, d);
        extracted.constant = count;
        rest.constant = lin.constant - count * d;

        let mut new_dividend = lin_expr(&rest)?;
        if let Some(split) = split_by_gcd(&rest) {
            let g = split.gcd;
            let gd = gcd(d, g);
            let mul = lin_expr(&split.multiplied)?;
            let nm_expr = lin_expr(&split.not_multiplied)?;
            let nm = self.range(&nm_expr);
            // `(x * 6 + y) floordiv 9` is `(x * 2) floordiv 3` when y is in
            // [0, 2]: y cannot carry into the quotient.
            if gd != 1 && Interval::new(0, (gd - 1) as i64).contains_interval(&nm) {
                new_dividend = mul.mul_const((g / gd) as i64);
                d /= gd;
            } else if nm.is_point() && nm.lower != 0 {
                let gd2 = gcd(nm.lower as i128, gd);
                if gd2 != 1 {
                    new_dividend = mul.mul_const((g / gd2) as i64).add_const((nm.lower as i128 / gd2) as i64);
                    d /= gd2;
                }
            }
        }

        // A single inner division can be merged into the outer one; with two
        // or more the inner roundings do not add up, so it is not allowed.
        let inner = Linear::of(&new_dividend)?;
        let inner_divs: Vec<usize> = inner
            .terms
            .iter()
            .enumerate()
            .filter(|(_, (t, c))| *c == 1 && t.const_rhs(BinOp::FloorDiv).is_some_and(|(_, k)| k > 0))
            .map(|(i, _)| i)
            .collect();
        if let [idx] = inner_divs[..] {
            let (y, k) = inner.terms[idx].0.const_rhs(BinOp::FloorDiv).map(|(y, k)| (y.clone(), k as i128))?;
            if let Some(nd) = d.checked_mul(k).filter(|v| *v <= i64::MAX as i128) {
                let mut merged = y;
                let mut ok = true;
                for (i, (t, c)) in inner.terms.iter().enumerate() {
                    if i == idx {
                        continue;
                    }
                    match c.checked_mul(k).and_then(|v| i64::try_from(v).ok()) {
                        Some(v) => merged = merged.add(&t.mul_const(v)),
                        None => ok = false,
                    }
                }
                match inner.constant.checked_mul(k).and_then(|v| i64::try_from(v).ok()) {
                    Some(v) => merged = merged.add_const(v),
                    None => ok = false,
                }
                if ok {
                    new_dividend = merged;
                    d = nd;
                }
            }
        }

        let d = i64::try_from(d).ok()?;
        if new_dividend == *dividend && extracted.terms.is_empty() && extracted.constant == 0 {
            return None;
        }
        let result = new_dividend.floor_div_const(d).add(&lin_expr(&extracted)?);
        let original = dividend.floor_div_const(d);
        (result != original).then_some(result)
    }

    fn rewrite_sum(&self, e: &Expr) -> Expr {
        let Some(lin) = Linear::of(e) else {
            return e.clone();
        };
        let mut constant = lin.constant;
        let mut others: Vec<(Expr, i128)> = Vec::new();
        let mut mods: Vec<Option<(Expr, i128)>> = Vec::new();
        let mut divs: Vec<Option<(Expr, i128)>> = Vec::new();
        for (t, c) in &lin.terms {
            let Ok(c64) = i64::try_from(*c) else {
                return e.clone();
            };
            let s = self.simplify_once(&t.mul_const(c64));
            let Some(sl) = Linear::of(&s) else {
                return e.clone();
            };
            constant += sl.constant;
            for (t2, c2) in sl.terms {
                match t2.op() {
                    Some(BinOp::Mod) => mods.push(Some((t2, c2))),
                    Some(BinOp::FloorDiv) => divs.push(Some((t2, c2))),
                    _ => others.push((t2, c2)),
                }
            }
        }
        let push_scaled = |x: &Expr, k: i128, others: &mut Vec<(Expr, i128)>, constant: &mut i128| -> bool {
            match Linear::of(x) {
                Some(xl) => {
                    for (t, c) in xl.terms {
                        others.push((t, c * k));
                    }
                    *constant += xl.constant * k;
                    true
                }
                None => false,
            }
        };
        if !divs.is_empty() {
            // (x mod c) * k + (x floordiv c) * (c * k) == x * k.
            for mod_slot in mods.iter_mut() {
                let Some((m, mk)) = mod_slot.clone() else {
                    continue;
                };
                let Some((x, c)) = m.const_rhs(BinOp::Mod) else {
                    continue;
                };
                if c <= 0 {
                    continue;
                }
                let expected_div = self.simplify(&x.floor_div_const(c));
                for div_slot in divs.iter_mut() {
                    let Some((dv, dk)) = div_slot.clone() else {
                        continue;
                    };
                    if dv != expected_div || dk % mk != 0 || dk / mk != c as i128 {
                        continue;
                    }
                    if push_scaled(x, mk, &mut others, &mut constant) {
                        *mod_slot = None;
                        *div_slot = None;
                    }
                    break;
                }
            }
            // (x floordiv c) * (-c * b) == (x mod c) * b - x * b.
            for div_slot in divs.iter_mut() {
                let Some((dv, dk)) = div_slot.clone() else {
                    continue;
                };
                let Some((x, c)) = dv.const_rhs(BinOp::FloorDiv) else {
                    continue;
                };
                if dk > 0 || c <= 0 || dk % c as i128 != 0 {
                    continue;
                }
                let b = dk / c as i128;
                if push_scaled(x, b, &mut others, &mut constant) {
                    mods.push(Some((x.modulo_const(c), -b)));
                    *div_slot = None;
                }
            }
        }
        let mut result = Linear { terms: others, constant };
        for (t, c) in mods.into_iter().flatten().chain(divs.into_iter().flatten()) {
            result.terms.push((t, c));
        }
        // Rebuild through the canonical constructors, which re-sort and merge.
        let mut acc = Expr::zero();
        for (t, c) in &result.terms {
            let Ok(c) = i64::try_from(*c) else {
                return e.clone();
            };
            acc = acc.add(&t.mul_const(c));
        }
        match i64::try_from(result.constant) {
            Ok(c) => acc.add_const(c),
            Err(_) => e.clone(),
        }
    }
}

// ---------------------------------------------------------------------------
// Constraints and maps.
// ---------------------------------------------------------------------------

fn clamp_i64(v: i128) -> i64 {
    v.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

/// Rewrites `expr in range` into an equivalent constraint on a simpler
/// expression, as long as a rule applies.
fn simplify_constraint_range(expr: &Expr, range: Interval, ev: &RangeEvaluator) -> (Expr, Interval) {
    let mut e = expr.clone();
    let (mut lo, mut hi) = (range.lower as i128, range.upper as i128);
    let unbounded_lo = range.lower == i64::MIN;
    let unbounded_hi = range.upper == i64::MAX;
    for _ in 0..MAX_ROUNDS {
        let next = match e.as_binary() {
            Some((BinOp::Add, _, _)) => {
                let Some(lin) = Linear::of(&e) else { break };
                if lin.constant != 0 {
                    // x + k in [lo, hi]  <=>  x in [lo - k, hi - k].
                    let Some(x) = lin_expr(&Linear { terms: lin.terms.clone(), constant: 0 }) else {
                        break;
                    };
                    if !unbounded_lo {
                        lo -= lin.constant;
                    }
                    if !unbounded_hi {
                        hi -= lin.constant;
                    }
                    Some(x)
                } else if let Some(split) = split_by_gcd(&lin) {
                    // a * g + b in [lo, hi]  <=>  a in [ceil((lo - b) / g), floor((hi - b) / g)],
                    // which does not depend on b when both ends agree over b's range.
                    let g = split.gcd;
                    let (Some(a), Some(b)) = (lin_expr(&split.multiplied), lin_expr(&split.not_multiplied)) else {
                        break;
                    };
                    let br = ev.range(&b);
                    if !br.is_feasible() || br == Interval::full() {
                        break;
                    }
                    let (bl, bh) = (br.lower as i128, br.upper as i128);
                    let new_lo = if unbounded_lo {
                        Some(lo)
                    } else {
                        let (x, y) = (ceil_div_i128(lo - bl, g), ceil_div_i128(lo - bh, g));
                        (x == y).then_some(x)
                    };
                    let new_hi = if unbounded_hi {
                        Some(hi)
                    } else {
                        let (x, y) = (floor_div_i128(hi - bl, g), floor_div_i128(hi - bh, g));
                        (x == y).then_some(x)
                    };
                    match (new_lo, new_hi) {
                        (Some(l), Some(h)) => {
                            lo = l;
                            hi = h;
                            Some(a)
                        }
                        _ => None,
                    }
                } else {
                    None
                }
            }
            Some((BinOp::Mul, x, k)) => match k.as_const() {
                Some(k) if k != 0 => {
                    let k = k as i128;
                    let (a, b) = if k > 0 { (lo, hi) } else { (hi, lo) };
                    if !unbounded_lo && !unbounded_hi {
                        lo = ceil_div_i128(a, k);
                        hi = floor_div_i128(b, k);
                    } else {
                        break;
                    }
                    Some(x.clone())
                }
                _ => None,
            },
            Some((BinOp::FloorDiv, x, k)) => match k.as_const() {
                Some(k) if k > 0 => {
                    let k = k as i128;
                    if !unbounded_lo {
                        lo *= k;
                    }
                    if !unbounded_hi {
                        hi = (hi + 1) * k - 1;
                    }
                    Some(x.clone())
                }
                _ => None,
            },
            _ => None,
        };
        match next {
            Some(n) => e = n,
            None => break,
        }
    }
    (e, Interval::new(clamp_i64(lo), clamp_i64(hi)))
}

/// Simplifies the expressions of all constraints; drops those that always
/// hold and detects those that never hold. Returns true if anything changed.
fn simplify_constraint_exprs(map: &mut IndexingMap) -> bool {
    let ev = RangeEvaluator::new(map, false);
    let s = ExprSimplifier::new(&ev, SimplifyPointDimensions::Replace);
    let mut changed = false;
    let mut kept = Vec::new();
    for (e, r) in map.constraints().to_vec() {
        let se = s.simplify(&e);
        let er = ev.range(&se);
        if !er.intersect(&r).is_feasible() {
            map.reset_to_known_empty();
            return true;
        }
        if r.contains_interval(&er) {
            changed = true;
            continue;
        }
        changed |= se != e;
        kept.push((se, r));
    }
    if changed {
        map.set_constraints_raw(Vec::new());
        for (e, r) in kept {
            map.add_constraint_unchecked(e, r);
        }
    }
    changed
}

fn simplify_constraint_ranges(map: &mut IndexingMap) -> bool {
    let ev = RangeEvaluator::new(map, false);
    let old = map.constraints().to_vec();
    let new: Vec<(Expr, Interval)> = old.iter().map(|(e, r)| simplify_constraint_range(e, *r, &ev)).collect();
    if new == old {
        return false;
    }
    map.set_constraints_raw(Vec::new());
    for (e, r) in new {
        map.add_constraint_unchecked(e, r);
    }
    true
}

/// Merges `x mod a in [r, r]` constraints with the same `x` and `r` into one
/// modulo `lcm(a, ...)`, and tightens a variable's bounds to the first and
/// last value that satisfies its mod constraint. Returns true if anything
/// changed.
pub(crate) fn merge_mod_constraints(map: &mut IndexingMap) -> bool {
    if map.is_known_empty() || map.is_undefined() {
        return false;
    }
    let mut changed = false;
    // Group point-range mod constraints by their left-hand side, in order.
    // (lhs, [(residue, modulus, constraint expression)])
    type Group = (Expr, Vec<(i64, i64, Expr)>);
    let mut groups: Vec<Group> = Vec::new();
    for (e, r) in map.constraints() {
        let Some((lhs, m)) = e.const_rhs(BinOp::Mod) else {
            continue;
        };
        if !r.is_point() || m <= 0 {
            continue;
        }
        match groups.iter_mut().find(|(l, _)| l == lhs) {
            Some((_, v)) => v.push((r.lower, m, e.clone())),
            None => groups.push((lhs.clone(), vec![(r.lower, m, e.clone())])),
        }
    }
    for (lhs, entries) in groups {
        let mut residues: Vec<i64> = Vec::new();
        for (r, _, _) in &entries {
            if !residues.contains(r) {
                residues.push(*r);
            }
        }
        for res in residues {
            let same: Vec<&(i64, i64, Expr)> = entries.iter().filter(|(r, _, _)| *r == res).collect();
            let mut lcm: Option<i128> = Some(1);
            for (_, m, _) in &same {
                lcm = lcm.and_then(|l| {
                    let v = l / gcd(l, *m as i128) * *m as i128;
                    (v <= i64::MAX as i128).then_some(v)
                });
            }
            let Some(div) = lcm else { continue };
            if same.len() > 1 {
                for (_, _, e) in &same {
                    map.erase_constraint(e);
                }
                map.add_constraint_unchecked(lhs.modulo_const(div as i64), Interval::point(res));
                changed = true;
                if map.is_known_empty() {
                    return true;
                }
            }
            let bound = match lhs.kind() {
                ExprKind::Dim(i) => map.dim_bound_mut(*i),
                ExprKind::Sym(j) => map.symbol_bound_mut(*j),
                _ => None,
            };
            if let Some(b) = bound {
                let old = *b;
                let (l, u, r) = (b.lower as i128, b.upper as i128, res as i128);
                let new_l = l + (r - l).rem_euclid(div);
                let new_u = u - (u - r).rem_euclid(div);
                *b = Interval::new(clamp_i64(new_l), clamp_i64(new_u));
                let feasible = b.is_feasible();
                if *b != old {
                    changed = true;
                }
                if !feasible {
                    map.reset_to_known_empty();
                    return true;
                }
            }
        }
    }
    changed
}

/// Simplifies the map: first the constraints (to shrink the domain), then
/// the results using the final domain. Repeats until nothing changes, so a
/// second call returns false. Returns true if anything changed.
pub(crate) fn simplify_map(map: &mut IndexingMap, mode: SimplifyPointDimensions) -> bool {
    if map.is_undefined() || map.is_known_empty() {
        return false;
    }
    let mut changed = false;
    for _ in 0..MAX_ROUNDS {
        let mut round = false;
        for _ in 0..MAX_ROUNDS {
            let mut did = simplify_constraint_exprs(map);
            if map.is_known_empty() {
                return true;
            }
            did |= simplify_constraint_ranges(map);
            if map.is_known_empty() {
                return true;
            }
            if !did {
                break;
            }
            round = true;
        }
        round |= merge_mod_constraints(map);
        if map.is_known_empty() {
            return true;
        }
        let ev = RangeEvaluator::new(map, true);
        let s = ExprSimplifier::new(&ev, mode);
        let new: Vec<Expr> = map.results().iter().map(|e| s.simplify(e)).collect();
        if new != map.results() {
            *map.results_mut() = new;
            round = true;
        }
        if !round {
            break;
        }
        changed = true;
    }
    changed
}

impl IndexingMap {
    /// Simplifies constraints and results (XLA's `IndexingMap::Simplify()`);
    /// returns true if anything changed.
    pub fn simplify(&mut self) -> bool {
        simplify_map(self, SimplifyPointDimensions::Replace)
    }
}

/// [`IndexingMap::simplify`] remembered per map: a rewrite driver that
/// revisits ops until nothing changes simplifies the same maps again and
/// again, and simplification is most of its time.
#[derive(Default)]
pub struct SimplifyMemo {
    done: std::collections::HashMap<Identical, IndexingMap>,
}

/// A map compared with [`IndexingMap::identical`] (names matter: they are
/// kept in the result). Its hash is the map's, which ignores names, so
/// identical maps hash alike.
struct Identical(IndexingMap);

impl PartialEq for Identical {
    fn eq(&self, other: &Identical) -> bool {
        self.0.identical(&other.0)
    }
}

impl Eq for Identical {}

impl std::hash::Hash for Identical {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state)
    }
}

impl SimplifyMemo {
    /// Simplifies `map` as [`IndexingMap::simplify`] does.
    pub fn simplify(&mut self, map: &mut IndexingMap) {
        let key = Identical(map.clone());
        if let Some(simplified) = self.done.get(&key) {
            *map = simplified.clone();
            return;
        }
        map.simplify();
        self.done.insert(key, map.clone());
    }
}

impl IndexingMap {
    pub fn simplify_with(&mut self, mode: SimplifyPointDimensions) -> bool {
        simplify_map(self, mode)
    }

    /// Simplifies one expression over this map's domain.
    pub fn simplify_expr(&self, e: &Expr) -> Expr {
        let ev = RangeEvaluator::new(self, true);
        ExprSimplifier::new(&ev, SimplifyPointDimensions::Replace).simplify(e)
    }

    /// Merges mod constraints (see [`merge_mod_constraints`]).
    pub fn merge_mod_constraints(&mut self) -> bool {
        merge_mod_constraints(self)
    }
}
