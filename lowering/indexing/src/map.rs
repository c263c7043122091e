//! [`IndexingMap`]: a symbolic map with a domain (XLA's `IndexingMap`).

use std::collections::HashSet;
use std::fmt;
use std::hash::{Hash, Hasher};

use crate::error::{Error, Result};
use crate::expr::{print_expr, BinOp, Expr, ExprKind, Var};
use crate::interval::Interval;
use crate::range::RangeEvaluator;

/// A variable of an indexing map: its inclusive bounds and an optional name
/// (empty for the default `d<i>` / `s<j>` / `rt<k>`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variable {
    pub bounds: Interval,
    pub name: String,
}

impl Variable {
    pub fn new(lower: i64, upper: i64) -> Variable {
        Variable { bounds: Interval::new(lower, upper), name: String::new() }
    }

    pub fn named(lower: i64, upper: i64, name: &str) -> Variable {
        Variable { bounds: Interval::new(lower, upper), name: name.to_string() }
    }

    pub fn from_interval(bounds: Interval) -> Variable {
        Variable { bounds, name: String::new() }
    }

    /// `[0, size - 1]`, the range of an index into a dimension of `size`.
    pub fn from_size(size: i64) -> Variable {
        Variable::new(0, size.saturating_sub(1))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum State {
    Normal,
    KnownEmpty,
    Undefined,
}

/// Words that cannot be variable names because the text format uses them.
pub(crate) const KEYWORDS: &[&str] =
    &["domain", "in", "mod", "floordiv", "floorDiv", "ceildiv", "min", "max", "true", "false", "is_simplified"];

pub(crate) fn is_valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&name)
}

/// A map from dimension variables `d_i`, range variables `s_j` and runtime
/// variables `rt_k` to a tuple of result expressions, together with a domain:
/// inclusive bounds for every variable and constraints `expr in [lo, hi]`.
///
/// In the expressions, the range variables are symbols `0..R` and the runtime
/// variables symbols `R..R+T` (as in XLA).
///
/// A map whose domain is known to be empty is "known empty" (its results are
/// all `0`); a map that could not be computed is "undefined".
#[derive(Clone, Debug)]
pub struct IndexingMap {
    results: Vec<Expr>,
    dim_vars: Vec<Variable>,
    range_vars: Vec<Variable>,
    rt_vars: Vec<Variable>,
    constraints: Vec<(Expr, Interval)>,
    state: State,
}

fn check_vars(e: &Expr, num_dims: usize, num_syms: usize, what: &str) -> Result<()> {
    let mut bad = None;
    e.walk(&mut |n| match n.kind() {
        ExprKind::Dim(i) if *i >= num_dims => bad = Some(format!("d{i}")),
        ExprKind::Sym(j) if *j >= num_syms => bad = Some(format!("s{j}")),
        _ => {}
    });
    match bad {
        Some(v) => Err(Error::InvalidMap(format!(
            "{what} `{e}` uses {v}, but the map has {num_dims} dimensions and {num_syms} symbols"
        ))),
        None => Ok(()),
    }
}

impl IndexingMap {
    /// Builds a map. Variables with empty bounds make the map known empty;
    /// constraints are added with [`IndexingMap::add_constraint`].
    pub fn new(
        results: Vec<Expr>,
        dim_vars: Vec<Variable>,
        range_vars: Vec<Variable>,
        rt_vars: Vec<Variable>,
        constraints: Vec<(Expr, Interval)>,
    ) -> Result<IndexingMap> {
        let num_syms = range_vars.len() + rt_vars.len();
        for e in &results {
            check_vars(e, dim_vars.len(), num_syms, "result")?;
        }
        for (e, _) in &constraints {
            check_vars(e, dim_vars.len(), num_syms, "constraint")?;
        }
        for v in dim_vars.iter().chain(&range_vars).chain(&rt_vars) {
            if !v.name.is_empty() && !is_valid_name(&v.name) {
                return Err(Error::InvalidMap(format!("`{}` is not a valid variable name", v.name)));
            }
        }
        let mut map =
            IndexingMap { results, dim_vars, range_vars, rt_vars, constraints: Vec::new(), state: State::Normal };
        if !map.variables().all(|v| v.bounds.is_feasible()) {
            map.reset_to_known_empty();
            return Ok(map);
        }
        for (e, r) in constraints {
            map.add_constraint_unchecked(e, r);
        }
        Ok(map)
    }

    /// Builds a map whose variables are `[0, size - 1]` for the given sizes
    /// (XLA's `IndexingMap::FromTensorSizes`).
    pub fn from_tensor_sizes(results: Vec<Expr>, dim_sizes: &[i64], symbol_sizes: &[i64]) -> Result<IndexingMap> {
        IndexingMap::new(
            results,
            dim_sizes.iter().map(|&s| Variable::from_size(s)).collect(),
            symbol_sizes.iter().map(|&s| Variable::from_size(s)).collect(),
            Vec::new(),
            Vec::new(),
        )
    }

    /// `(d0, ..., dn) -> (d0, ..., dn)` over a tensor of the given shape.
    pub fn identity(shape: &[i64]) -> IndexingMap {
        let results = (0..shape.len()).map(Expr::dim).collect();
        IndexingMap::from_vars(results, shape.iter().map(|&s| Variable::from_size(s)).collect(), Vec::new())
    }

    /// `(d0, ..., dn) -> ()`: every element of the shape reads the same scalar.
    pub fn scalar(shape: &[i64]) -> IndexingMap {
        IndexingMap::from_vars(Vec::new(), shape.iter().map(|&s| Variable::from_size(s)).collect(), Vec::new())
    }

    /// Internal constructor for maps whose expressions are known to be valid.
    pub(crate) fn from_vars(results: Vec<Expr>, dim_vars: Vec<Variable>, range_vars: Vec<Variable>) -> IndexingMap {
        IndexingMap::from_parts(results, dim_vars, range_vars, Vec::new(), Vec::new())
    }

    pub(crate) fn from_parts(
        results: Vec<Expr>,
        dim_vars: Vec<Variable>,
        range_vars: Vec<Variable>,
        rt_vars: Vec<Variable>,
        constraints: Vec<(Expr, Interval)>,
    ) -> IndexingMap {
        let mut map =
            IndexingMap { results, dim_vars, range_vars, rt_vars, constraints: Vec::new(), state: State::Normal };
        if !map.variables().all(|v| v.bounds.is_feasible()) {
            map.reset_to_known_empty();
            return map;
        }
        for (e, r) in constraints {
            map.add_constraint_unchecked(e, r);
        }
        map
    }

    /// The map for which nothing is known.
    pub fn undefined() -> IndexingMap {
        IndexingMap {
            results: Vec::new(),
            dim_vars: Vec::new(),
            range_vars: Vec::new(),
            rt_vars: Vec::new(),
            constraints: Vec::new(),
            state: State::Undefined,
        }
    }

    pub fn is_undefined(&self) -> bool {
        self.state == State::Undefined
    }

    /// True when the domain is known to hold no point.
    pub fn is_known_empty(&self) -> bool {
        self.state == State::KnownEmpty
    }

    pub fn results(&self) -> &[Expr] {
        &self.results
    }

    pub fn num_results(&self) -> usize {
        self.results.len()
    }

    pub fn dim_vars(&self) -> &[Variable] {
        &self.dim_vars
    }

    pub fn range_vars(&self) -> &[Variable] {
        &self.range_vars
    }

    pub fn rt_vars(&self) -> &[Variable] {
        &self.rt_vars
    }

    pub fn num_dims(&self) -> usize {
        self.dim_vars.len()
    }

    pub fn num_range_vars(&self) -> usize {
        self.range_vars.len()
    }

    pub fn num_rt_vars(&self) -> usize {
        self.rt_vars.len()
    }

    /// Range variables plus runtime variables.
    pub fn num_symbols(&self) -> usize {
        self.range_vars.len() + self.rt_vars.len()
    }

    /// The constraints, in insertion order.
    pub fn constraints(&self) -> &[(Expr, Interval)] {
        &self.constraints
    }

    pub fn dim_bounds(&self) -> Vec<Interval> {
        self.dim_vars.iter().map(|v| v.bounds).collect()
    }

    /// Bounds of the symbols: range variables, then runtime variables.
    pub fn symbol_bounds(&self) -> Vec<Interval> {
        self.range_vars.iter().chain(&self.rt_vars).map(|v| v.bounds).collect()
    }

    pub fn dim_bound(&self, i: usize) -> Option<Interval> {
        self.dim_vars.get(i).map(|v| v.bounds)
    }

    pub fn symbol_bound(&self, j: usize) -> Option<Interval> {
        self.symbol_var(j).map(|v| v.bounds)
    }

    fn symbol_var(&self, j: usize) -> Option<&Variable> {
        if j < self.range_vars.len() {
            self.range_vars.get(j)
        } else {
            self.rt_vars.get(j - self.range_vars.len())
        }
    }

    fn symbol_var_mut(&mut self, j: usize) -> Option<&mut Variable> {
        let r = self.range_vars.len();
        if j < r {
            self.range_vars.get_mut(j)
        } else {
            self.rt_vars.get_mut(j - r)
        }
    }

    pub(crate) fn dim_bound_mut(&mut self, i: usize) -> Option<&mut Interval> {
        self.dim_vars.get_mut(i).map(|v| &mut v.bounds)
    }

    pub(crate) fn symbol_bound_mut(&mut self, j: usize) -> Option<&mut Interval> {
        self.symbol_var_mut(j).map(|v| &mut v.bounds)
    }

    fn variables(&self) -> impl Iterator<Item = &Variable> {
        self.dim_vars.iter().chain(&self.range_vars).chain(&self.rt_vars)
    }

    pub(crate) fn results_mut(&mut self) -> &mut Vec<Expr> {
        &mut self.results
    }

    pub(crate) fn set_constraints_raw(&mut self, constraints: Vec<(Expr, Interval)>) {
        self.constraints = constraints;
    }

    /// Renames dimension `i` (an empty name means the default `d<i>`).
    pub fn rename_dim(&mut self, i: usize, name: &str) -> Result<()> {
        if !name.is_empty() && !is_valid_name(name) {
            return Err(Error::InvalidMap(format!("`{name}` is not a valid variable name")));
        }
        match self.dim_vars.get_mut(i) {
            Some(v) => {
                v.name = name.to_string();
                Ok(())
            }
            None => Err(Error::InvalidMap(format!("no dimension {i}"))),
        }
    }

    /// Makes the map known empty: every result becomes `0`, every bound
    /// `[0, -1]`, and the constraints are dropped.
    pub fn reset_to_known_empty(&mut self) {
        if self.is_undefined() {
            return;
        }
        for r in &mut self.results {
            *r = Expr::zero();
        }
        for v in self.dim_vars.iter_mut().chain(&mut self.range_vars).chain(&mut self.rt_vars) {
            v.bounds = Interval::empty();
        }
        self.constraints.clear();
        self.state = State::KnownEmpty;
    }

    /// Adds the constraint `expr in range`. A constraint on a bare variable
    /// tightens its bounds; a constant constraint is checked right away; a
    /// repeated expression intersects the ranges. Infeasibility makes the map
    /// known empty.
    pub fn add_constraint(&mut self, expr: Expr, range: Interval) -> Result<()> {
        check_vars(&expr, self.num_dims(), self.num_symbols(), "constraint")?;
        self.add_constraint_unchecked(expr, range);
        Ok(())
    }

    pub(crate) fn add_constraint_unchecked(&mut self, expr: Expr, range: Interval) {
        if self.state != State::Normal {
            return;
        }
        if !range.is_feasible() {
            self.reset_to_known_empty();
            return;
        }
        let feasible = match expr.kind() {
            ExprKind::Dim(i) => match self.dim_bound_mut(*i) {
                Some(b) => {
                    *b = b.intersect(&range);
                    b.is_feasible()
                }
                None => true,
            },
            ExprKind::Sym(j) => match self.symbol_bound_mut(*j) {
                Some(b) => {
                    *b = b.intersect(&range);
                    b.is_feasible()
                }
                None => true,
            },
            ExprKind::Const(v) => range.contains(*v),
            ExprKind::Binary(..) => match self.constraints.iter_mut().find(|(e, _)| *e == expr) {
                Some((_, r)) => {
                    *r = r.intersect(&range);
                    r.is_feasible()
                }
                None => {
                    self.constraints.push((expr, range));
                    true
                }
            },
        };
        if !feasible {
            self.reset_to_known_empty();
        }
    }

    /// Removes the constraint on `expr`, if any.
    pub fn erase_constraint(&mut self, expr: &Expr) {
        self.constraints.retain(|(e, _)| e != expr);
    }

    pub fn clear_constraints(&mut self) {
        self.constraints.clear();
    }

    pub fn constraint(&self, expr: &Expr) -> Option<Interval> {
        self.constraints.iter().find(|(e, _)| e == expr).map(|(_, r)| *r)
    }

    /// The results at the given point (bounds and constraints are ignored).
    /// `None` on a wrong number of values, division by zero or overflow.
    pub fn evaluate(&self, dims: &[i64], syms: &[i64]) -> Option<Vec<i64>> {
        if dims.len() != self.num_dims() || syms.len() != self.num_symbols() {
            return None;
        }
        self.results.iter().map(|e| e.eval(dims, syms)).collect()
    }

    /// True if the point satisfies every constraint (bounds are not checked,
    /// as in XLA's `ConstraintsSatisfied`).
    pub fn constraints_satisfied(&self, dims: &[i64], syms: &[i64]) -> bool {
        if self.state != State::Normal || dims.len() != self.num_dims() || syms.len() != self.num_symbols() {
            return false;
        }
        self.constraints.iter().all(|(e, r)| e.eval(dims, syms).is_some_and(|v| r.contains(v)))
    }

    /// True if the point lies in the domain: within every bound and
    /// satisfying every constraint.
    pub fn contains_point(&self, dims: &[i64], syms: &[i64]) -> bool {
        self.constraints_satisfied(dims, syms)
            && self.dim_vars.iter().zip(dims).all(|(v, x)| v.bounds.contains(*x))
            && self.range_vars.iter().chain(&self.rt_vars).zip(syms).all(|(v, x)| v.bounds.contains(*x))
    }

    /// True if some constraint mentions symbol `j`.
    pub fn is_symbol_constrained(&self, j: usize) -> bool {
        self.constraints.iter().any(|(e, _)| e.uses_sym(j))
    }

    /// Range of `expr` over the domain (using constraints).
    pub fn expression_range(&self, expr: &Expr) -> Interval {
        RangeEvaluator::new(self, true).range(expr)
    }

    /// Range of every result over the domain (using constraints).
    pub fn compute_result_ranges(&self) -> Vec<Interval> {
        let ev = RangeEvaluator::new(self, true);
        self.results.iter().map(|e| ev.range(e)).collect()
    }

    // -----------------------------------------------------------------------
    // Removing and converting variables.
    // -----------------------------------------------------------------------

    /// Finds variables that neither the results nor constraints over used
    /// variables mention (XLA's `DetectUnusedVariables`). Returns the unused
    /// dims, unused symbols and the constraints that only mention unused
    /// variables.
    fn detect_unused(&self, removing_dims: bool, removing_syms: bool) -> (Vec<bool>, Vec<bool>, Vec<Expr>) {
        let mut unused_dims = vec![true; self.num_dims()];
        let mut unused_syms = vec![true; self.num_symbols()];
        for e in &self.results {
            for d in e.used_dims() {
                unused_dims[d] = false;
            }
            for s in e.used_syms() {
                unused_syms[s] = false;
            }
        }
        let only_unused = |dims: &std::collections::BTreeSet<usize>,
                           syms: &std::collections::BTreeSet<usize>,
                           ud: &[bool],
                           us: &[bool]| {
            if (!dims.is_empty() && !removing_dims) || (!syms.is_empty() && !removing_syms) {
                return false;
            }
            dims.iter().all(|&d| ud[d]) && syms.iter().all(|&s| us[s])
        };
        // A constraint that ties a variable to a used one keeps it alive.
        // Marking can make another constraint "used", so repeat until stable
        // (XLA does a single pass, which can drop a variable that a kept
        // constraint still mentions).
        let vars: Vec<_> = self.constraints.iter().map(|(e, _)| (e.clone(), e.used_dims(), e.used_syms())).collect();
        loop {
            let mut changed = false;
            for (_, dims, syms) in &vars {
                if only_unused(dims, syms, &unused_dims, &unused_syms) {
                    continue;
                }
                for &d in dims {
                    changed |= std::mem::replace(&mut unused_dims[d], false);
                }
                for &s in syms {
                    changed |= std::mem::replace(&mut unused_syms[s], false);
                }
            }
            if !changed {
                break;
            }
        }
        let removable = vars
            .into_iter()
            .filter(|(_, d, s)| only_unused(d, s, &unused_dims, &unused_syms))
            .map(|(e, _, _)| e)
            .collect();
        (unused_dims, unused_syms, removable)
    }

    /// Removes the given variables, renumbering the remaining ones. The
    /// removed variables must not be used by results or constraints.
    fn compress_vars(&mut self, unused_dims: &[bool], unused_syms: &[bool]) -> bool {
        let dims_changed = unused_dims.iter().any(|&u| u);
        let syms_changed = unused_syms.iter().any(|&u| u);
        if !dims_changed && !syms_changed {
            return false;
        }
        let mut dim_map = vec![Expr::zero(); self.num_dims()];
        let mut new_dims = Vec::new();
        for (i, v) in self.dim_vars.iter().enumerate() {
            if !unused_dims.get(i).copied().unwrap_or(false) {
                dim_map[i] = Expr::dim(new_dims.len());
                new_dims.push(v.clone());
            }
        }
        let mut sym_map = vec![Expr::zero(); self.num_symbols()];
        let (mut new_range, mut new_rt) = (Vec::new(), Vec::new());
        let r = self.range_vars.len();
        for j in 0..self.num_symbols() {
            if unused_syms.get(j).copied().unwrap_or(false) {
                continue;
            }
            if j < r {
                new_range.push(self.range_vars[j].clone());
            } else {
                new_rt.push(self.rt_vars[j - r].clone());
            }
        }
        let mut next = 0;
        for (j, slot) in sym_map.iter_mut().enumerate() {
            if !unused_syms.get(j).copied().unwrap_or(false) {
                *slot = Expr::sym(next);
                next += 1;
            }
        }
        let remap = |e: &Expr| {
            e.map_vars(&mut |v| match v {
                Var::Dim(i) => dim_map[i].clone(),
                Var::Sym(j) => sym_map[j].clone(),
            })
        };
        self.results = self.results.iter().map(remap).collect();
        let constraints: Vec<_> = self.constraints.iter().map(|(e, rg)| (remap(e), *rg)).collect();
        self.dim_vars = new_dims;
        self.range_vars = new_range;
        self.rt_vars = new_rt;
        self.constraints.clear();
        for (e, rg) in constraints {
            self.add_constraint_unchecked(e, rg);
        }
        true
    }

    /// Removes symbols that are not used by the results (nor tied to used
    /// variables by constraints); constraints over removed symbols only are
    /// dropped. Returns, per symbol before the call, whether it was removed
    /// (XLA's `RemoveUnusedSymbols`).
    pub fn remove_unused_symbols(&mut self) -> Vec<bool> {
        if self.is_undefined() || self.num_symbols() == 0 {
            return vec![false; self.num_symbols()];
        }
        let (_, unused_syms, removable) = self.detect_unused(false, true);
        self.constraints.retain(|(e, _)| !removable.contains(e));
        self.compress_vars(&[], &unused_syms);
        unused_syms
    }

    /// Like [`IndexingMap::remove_unused_symbols`], for dimensions too.
    /// Returns the removed flags of the dimensions followed by the symbols.
    pub fn remove_unused_vars(&mut self) -> Vec<bool> {
        if self.is_undefined() {
            return Vec::new();
        }
        let (unused_dims, unused_syms, removable) = self.detect_unused(true, true);
        self.constraints.retain(|(e, _)| !removable.contains(e));
        self.compress_vars(&unused_dims, &unused_syms);
        unused_dims.into_iter().chain(unused_syms).collect()
    }

    /// Turns every symbol (range, then runtime) into a trailing dimension.
    pub fn convert_symbols_to_dimensions(&self) -> IndexingMap {
        if self.state != State::Normal || self.num_symbols() == 0 {
            return self.clone();
        }
        let nd = self.num_dims();
        let remap = |e: &Expr| {
            e.map_vars(&mut |v| match v {
                Var::Dim(i) => Expr::dim(i),
                Var::Sym(j) => Expr::dim(nd + j),
            })
        };
        let dims = self
            .dim_vars
            .iter()
            .cloned()
            .chain(self.range_vars.iter().chain(&self.rt_vars).map(|v| Variable::from_interval(v.bounds)))
            .collect();
        IndexingMap::from_parts(
            self.results.iter().map(remap).collect(),
            dims,
            Vec::new(),
            Vec::new(),
            self.constraints.iter().map(|(e, r)| (remap(e), *r)).collect(),
        )
    }

    /// Turns the given range variables (sorted, distinct) into trailing
    /// dimensions, in order.
    pub fn convert_range_variables_to_dimensions(&self, indices: &[usize]) -> Result<IndexingMap> {
        if indices.windows(2).any(|w| w[0] >= w[1]) || indices.iter().any(|&i| i >= self.num_range_vars()) {
            return Err(Error::InvalidMap(format!(
                "range variable indices {indices:?} must be sorted, distinct and below {}",
                self.num_range_vars()
            )));
        }
        let nd = self.num_dims();
        let mut sym_map = Vec::with_capacity(self.num_symbols());
        let mut dims = self.dim_vars.clone();
        let mut ranges = Vec::new();
        for (j, v) in self.range_vars.iter().enumerate() {
            if indices.contains(&j) {
                sym_map.push(Expr::dim(dims.len()));
                dims.push(v.clone());
            } else {
                sym_map.push(Expr::sym(ranges.len()));
                ranges.push(v.clone());
            }
        }
        for k in 0..self.num_rt_vars() {
            sym_map.push(Expr::sym(ranges.len() + k));
        }
        debug_assert!(dims.len() == nd + indices.len());
        let remap = |e: &Expr| {
            e.map_vars(&mut |v| match v {
                Var::Dim(i) => Expr::dim(i),
                Var::Sym(j) => sym_map[j].clone(),
            })
        };
        Ok(IndexingMap::from_parts(
            self.results.iter().map(remap).collect(),
            dims,
            ranges,
            self.rt_vars.clone(),
            self.constraints.iter().map(|(e, r)| (remap(e), *r)).collect(),
        ))
    }

    /// Rewrites a range variable `s` constrained by `s mod c in [k, k]` as
    /// `s' * c + k` with a smaller range, dropping the constraint (XLA's
    /// `RescaleSymbols`). Returns true if something changed.
    pub fn rescale_symbols(&mut self) -> bool {
        if self.state != State::Normal {
            return false;
        }
        crate::simplify::merge_mod_constraints(self);
        let mut replacements: Vec<(Expr, Expr)> = Vec::new();
        let mut deleted: Vec<Expr> = Vec::new();
        for (e, r) in self.constraints.clone() {
            if !r.is_point() {
                continue;
            }
            let Some((lhs, c)) = e.const_rhs(BinOp::Mod) else {
                continue;
            };
            if c <= 0 {
                continue;
            }
            let ExprKind::Sym(j) = *lhs.kind() else {
                continue;
            };
            if j >= self.num_range_vars() || replacements.iter().any(|(s, _)| s == lhs) {
                continue;
            }
            let shift = r.lower;
            let replacement = lhs.mul_const(c).add_const(shift);
            let b = &mut self.range_vars[j].bounds;
            // Values s = s' * c + shift with s in [lo, hi].
            b.lower = crate::interval::ceil_div_i128(b.lower as i128 - shift as i128, c as i128) as i64;
            b.upper = crate::interval::floor_div_i128(b.upper as i128 - shift as i128, c as i128) as i64;
            replacements.push((lhs.clone(), replacement));
            deleted.push(e.clone());
        }
        if deleted.is_empty() {
            return false;
        }
        let apply = |e: &Expr| replacements.iter().fold(e.clone(), |acc, (from, to)| acc.replace(from, to));
        self.results = self.results.iter().map(apply).collect();
        let constraints: Vec<_> =
            self.constraints.iter().filter(|(e, _)| !deleted.contains(e)).map(|(e, r)| (apply(e), *r)).collect();
        self.constraints.clear();
        if !self.variables().all(|v| v.bounds.is_feasible()) {
            self.reset_to_known_empty();
            return true;
        }
        for (e, r) in constraints {
            self.add_constraint_unchecked(e, r);
        }
        true
    }

    // -----------------------------------------------------------------------
    // Printing.
    // -----------------------------------------------------------------------

    /// The names used for printing: custom names, or `d<i>` / `s<j>` /
    /// `rt<k>`. A name that would repeat an earlier one falls back to a
    /// default (and then to a numbered variant) so the text stays parseable.
    pub fn var_names(&self) -> (Vec<String>, Vec<String>, Vec<String>) {
        let mut taken = HashSet::new();
        let mut pick = |v: &Variable, default: String| {
            let mut candidates = Vec::new();
            if !v.name.is_empty() {
                candidates.push(v.name.clone());
            }
            candidates.push(default.clone());
            for c in candidates {
                if taken.insert(c.clone()) {
                    return c;
                }
            }
            let mut n = 0;
            loop {
                let c = format!("{default}_{n}");
                if taken.insert(c.clone()) {
                    return c;
                }
                n += 1;
            }
        };
        let dims: Vec<String> = self.dim_vars.iter().enumerate().map(|(i, v)| pick(v, format!("d{i}"))).collect();
        let ranges: Vec<String> = self.range_vars.iter().enumerate().map(|(i, v)| pick(v, format!("s{i}"))).collect();
        let rts: Vec<String> = self.rt_vars.iter().enumerate().map(|(i, v)| pick(v, format!("rt{i}"))).collect();
        (dims, ranges, rts)
    }

    /// Prints `expr` with this map's variable names.
    pub fn expr_to_string(&self, expr: &Expr) -> String {
        let (dims, ranges, rts) = self.var_names();
        let syms: Vec<String> = ranges.into_iter().chain(rts).collect();
        let mut s = String::new();
        print_expr(expr, &dims, &syms, false, &mut s);
        s
    }
}

impl fmt::Display for IndexingMap {
    /// XLA's text format, e.g.
    /// `(d0, d1)[s0] -> (d1, d0 + s0), domain: d0 in [0, 9], d1 in [0, 19], s0 in [0, 3], d0 + s0 in [0, 11]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.state {
            State::Undefined => return f.write_str("UNDEFINED"),
            State::KnownEmpty => return f.write_str("KNOWN EMPTY"),
            State::Normal => {}
        }
        let (dims, ranges, rts) = self.var_names();
        let syms: Vec<String> = ranges.iter().chain(&rts).cloned().collect();
        write!(f, "({})", dims.join(", "))?;
        if !ranges.is_empty() {
            write!(f, "[{}]", ranges.join(", "))?;
        }
        if !rts.is_empty() {
            write!(f, "{{{}}}", rts.join(", "))?;
        }
        let results: Vec<String> = self
            .results
            .iter()
            .map(|e| {
                let mut s = String::new();
                print_expr(e, &dims, &syms, false, &mut s);
                s
            })
            .collect();
        write!(f, " -> ({})", results.join(", "))?;
        if dims.is_empty() && syms.is_empty() {
            return Ok(());
        }
        f.write_str(", domain: ")?;
        let mut items: Vec<String> = Vec::new();
        for (name, v) in
            dims.iter().zip(&self.dim_vars).chain(syms.iter().zip(self.range_vars.iter().chain(&self.rt_vars)))
        {
            items.push(format!("{name} in {}", v.bounds));
        }
        // XLA sorts the constraint strings to make the text deterministic.
        let mut cs: Vec<String> = self
            .constraints
            .iter()
            .map(|(e, r)| {
                let mut s = String::new();
                print_expr(e, &dims, &syms, false, &mut s);
                format!("{s} in {r}")
            })
            .collect();
        cs.sort();
        items.extend(cs);
        f.write_str(&items.join(", "))
    }
}

impl std::str::FromStr for IndexingMap {
    type Err = Error;
    fn from_str(s: &str) -> Result<IndexingMap> {
        crate::parser::parse_indexing_map(s)
    }
}

impl PartialEq for IndexingMap {
    /// Equal results, bounds and constraint sets; names do not matter (as in
    /// XLA).
    fn eq(&self, other: &IndexingMap) -> bool {
        if self.state != other.state || self.results != other.results {
            return false;
        }
        let bounds = |m: &IndexingMap| -> (Vec<Interval>, Vec<Interval>, Vec<Interval>) {
            (
                m.dim_vars.iter().map(|v| v.bounds).collect(),
                m.range_vars.iter().map(|v| v.bounds).collect(),
                m.rt_vars.iter().map(|v| v.bounds).collect(),
            )
        };
        if bounds(self) != bounds(other) || self.constraints.len() != other.constraints.len() {
            return false;
        }
        self.constraints.iter().all(|(e, r)| other.constraint(e) == Some(*r))
    }
}

impl Eq for IndexingMap {}

impl IndexingMap {
    /// Equal in everything, names and the order of constraints included:
    /// the two print the same.
    pub(crate) fn identical(&self, other: &IndexingMap) -> bool {
        self.state == other.state
            && self.results == other.results
            && self.dim_vars == other.dim_vars
            && self.range_vars == other.range_vars
            && self.rt_vars == other.rt_vars
            && self.constraints == other.constraints
    }
}

impl Hash for IndexingMap {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.state.hash(state);
        self.results.hash(state);
        for v in self.variables() {
            v.bounds.hash(state);
        }
        (self.dim_vars.len(), self.range_vars.len(), self.rt_vars.len()).hash(state);
        let mut cs: Vec<&(Expr, Interval)> = self.constraints.iter().collect();
        cs.sort();
        cs.hash(state);
    }
}

/// Composes two maps: the result maps the consumer's domain through the
/// consumer and then the producer (XLA's `ComposeIndexingMaps(consumer,
/// producer)`). The consumer's results index the producer's dimensions.
///
/// The symbols of the result are, in order: the producer's range variables,
/// the consumer's range variables, the producer's runtime variables and the
/// consumer's runtime variables. The domain is the consumer's, restricted by
/// both maps' constraints and by the producer's dimension bounds applied to
/// the consumer's results.
pub fn compose(consumer: &IndexingMap, producer: &IndexingMap) -> Result<IndexingMap> {
    if consumer.is_undefined() || producer.is_undefined() {
        return Ok(IndexingMap::undefined());
    }
    if consumer.num_results() != producer.num_dims() {
        return Err(Error::InvalidMap(format!(
            "cannot compose: the consumer has {} results but the producer has {} dimensions",
            consumer.num_results(),
            producer.num_dims()
        )));
    }
    let (r2, t2) = (producer.num_range_vars(), producer.num_rt_vars());
    let r1 = consumer.num_range_vars();
    let consumer_sym = |j: usize| {
        if j < r1 {
            Expr::sym(r2 + j)
        } else {
            Expr::sym(r2 + r1 + t2 + (j - r1))
        }
    };
    let producer_sym = |j: usize| {
        if j < r2 {
            Expr::sym(j)
        } else {
            Expr::sym(r2 + r1 + (j - r2))
        }
    };
    let remap_consumer = |e: &Expr| {
        e.map_vars(&mut |v| match v {
            Var::Dim(i) => Expr::dim(i),
            Var::Sym(j) => consumer_sym(j),
        })
    };
    let consumer_results: Vec<Expr> = consumer.results.iter().map(remap_consumer).collect();
    let through = |e: &Expr| {
        e.map_vars(&mut |v| match v {
            Var::Dim(i) => consumer_results[i].clone(),
            Var::Sym(j) => producer_sym(j),
        })
    };
    let range_vars: Vec<Variable> = producer.range_vars.iter().chain(&consumer.range_vars).cloned().collect();
    let rt_vars: Vec<Variable> = producer.rt_vars.iter().chain(&consumer.rt_vars).cloned().collect();
    let mut composed = IndexingMap {
        results: producer.results.iter().map(through).collect(),
        dim_vars: consumer.dim_vars.clone(),
        range_vars,
        rt_vars,
        constraints: Vec::new(),
        state: State::Normal,
    };
    if consumer.is_known_empty() || producer.is_known_empty() {
        composed.reset_to_known_empty();
        return Ok(composed);
    }
    for (e, r) in &producer.constraints {
        composed.add_constraint_unchecked(through(e), *r);
    }
    for (e, r) in &consumer.constraints {
        composed.add_constraint_unchecked(remap_consumer(e), *r);
    }
    for (e, v) in consumer_results.iter().zip(&producer.dim_vars) {
        composed.add_constraint_unchecked(e.clone(), v.bounds);
    }
    Ok(composed)
}

impl std::ops::Mul<&IndexingMap> for &IndexingMap {
    type Output = Result<IndexingMap>;
    /// `consumer * producer` is [`compose`]`(consumer, producer)`, as in XLA.
    fn mul(self, producer: &IndexingMap) -> Result<IndexingMap> {
        compose(self, producer)
    }
}
