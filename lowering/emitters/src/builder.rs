//! Building one function of kernel IR as MLIR text.
//!
//! The emitters write MLIR's generic-enough custom syntax line by line and
//! the kernel is parsed and verified by MLIR at the end (`lib.rs`), which is
//! the most robust way to produce IR of dialects melior has no builders for.
//!
//! Index arithmetic is symbolic: an index is an [`Expr`] over the
//! function's *index variables* (its index arguments, loop induction
//! variables, thread and block ids, runtime offsets), each with known
//! bounds, so that indexing maps compose and simplify with `rxla-indexing`
//! and equal indices are materialized once (`FuncBuilder::index`). Values
//! are cached per region scope: a value computed inside an `scf.for` or
//! `scf.if` body is not visible after it.

use crate::{kernel_ops, EmitError};
use rxla_indexing::{BinOp, Expr, ExprKind, IndexingMap, Variable};
use std::{cell::RefCell, collections::HashMap};

/// The body of a region that yields values: gets the builder, returns the
/// values to yield.
pub type Region<'a> = dyn FnMut(&mut FuncBuilder) -> Result<Vec<String>, EmitError> + 'a;
/// The body of an `scf.for`: the induction variable and the iter args.
pub type ForBody<'a> = dyn FnMut(&mut FuncBuilder, Expr, &[String]) -> Result<Vec<String>, EmitError> + 'a;
/// The branches of an `scf.if` (`true` for the then region).
pub type Branches<'a> = dyn FnMut(&mut FuncBuilder, bool) -> Result<Vec<String>, EmitError> + 'a;

/// An index variable: its SSA name and inclusive bounds.
#[derive(Clone, Debug)]
pub struct IndexVar {
    pub ssa: String,
    pub lo: i64,
    pub hi: i64,
}

#[derive(Default)]
struct Scope {
    cache: HashMap<String, Vec<String>>,
}

/// One function's body under construction.
pub struct FuncBuilder {
    text: String,
    indent: usize,
    next_id: usize,
    vars: Vec<IndexVar>,
    scopes: Vec<Scope>,
    /// [`FuncBuilder::simplify`]'s results: index variables are only ever
    /// added, with fixed bounds, so an expression always simplifies the
    /// same way, and the emitters simplify the same indices many times
    /// (every lane of a reduction, every cached value's key).
    simplified: RefCell<HashMap<Expr, Expr>>,
}

impl Default for FuncBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl FuncBuilder {
    pub fn new() -> FuncBuilder {
        FuncBuilder {
            text: String::new(),
            indent: 2,
            next_id: 0,
            vars: Vec::new(),
            scopes: vec![Scope::default()],
            simplified: RefCell::new(HashMap::new()),
        }
    }

    /// The body text written so far.
    pub fn body(&self) -> &str {
        &self.text
    }

    /// A fresh SSA name (`%<hint><n>`).
    pub fn fresh(&mut self, hint: &str) -> String {
        self.next_id += 1;
        format!("%{hint}{}", self.next_id)
    }

    /// Writes one line at the current indentation.
    pub fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.text.push_str("  ");
        }
        self.text.push_str(s);
        self.text.push('\n');
    }

    /// Writes `lhs = rhs` with a fresh name and returns the name.
    pub fn assign(&mut self, hint: &str, rhs: &str) -> String {
        let name = self.fresh(hint);
        self.line(&format!("{name} = {rhs}"));
        name
    }

    /// Writes a line that opens a region (`... {`).
    pub fn open(&mut self, s: &str) {
        self.line(s);
        self.indent += 1;
        self.push_scope();
    }

    /// Closes a region with the given line (`}` or `} else {`).
    pub fn close(&mut self, s: &str) {
        self.pop_scope();
        self.indent -= 1;
        self.line(s);
    }

    pub fn push_scope(&mut self) {
        self.scopes.push(Scope::default());
    }

    pub fn pop_scope(&mut self) {
        self.scopes.pop();
        assert!(!self.scopes.is_empty(), "unbalanced scopes");
    }

    /// A cached value visible in the current region.
    pub fn lookup(&self, key: &str) -> Option<Vec<String>> {
        self.scopes.iter().rev().find_map(|s| s.cache.get(key).cloned())
    }

    /// Caches values in the current region.
    pub fn remember(&mut self, key: String, values: Vec<String>) {
        self.scopes.last_mut().unwrap().cache.insert(key, values);
    }

    // ------------------------------------------------------------------
    // Index variables and index expressions.

    /// Adds an index variable; returns it as an expression.
    pub fn var(&mut self, ssa: &str, lo: i64, hi: i64) -> Expr {
        self.vars.push(IndexVar { ssa: ssa.to_string(), lo, hi });
        Expr::dim(self.vars.len() - 1)
    }

    pub fn var_info(&self, i: usize) -> &IndexVar {
        &self.vars[i]
    }

    /// The variables `e` reads, and `e` renumbered over them.
    fn localize(&self, e: &Expr) -> (Vec<usize>, Expr) {
        let used: Vec<usize> = e.used_dims().into_iter().collect();
        let local = e.map_vars(&mut |v| match v {
            rxla_indexing::Var::Dim(i) => Expr::dim(used.iter().position(|&u| u == i).unwrap()),
            rxla_indexing::Var::Sym(j) => Expr::sym(j),
        });
        (used, local)
    }

    /// Simplifies `e` over the variables' bounds.
    pub fn simplify(&self, e: &Expr) -> Expr {
        if e.is_const() || matches!(e.kind(), ExprKind::Dim(_)) {
            return e.clone();
        }
        if let Some(done) = self.simplified.borrow().get(e) {
            return done.clone();
        }
        let simplified = self.simplify_uncached(e);
        self.simplified.borrow_mut().insert(e.clone(), simplified.clone());
        simplified
    }

    fn simplify_uncached(&self, e: &Expr) -> Expr {
        let (used, local) = self.localize(e);
        let vars: Vec<Variable> = used.iter().map(|&i| Variable::new(self.vars[i].lo, self.vars[i].hi)).collect();
        let Ok(mut map) = IndexingMap::new(vec![local], vars, vec![], vec![], vec![]) else {
            return e.clone();
        };
        map.simplify();
        if map.is_known_empty() || map.is_undefined() || map.results().len() != 1 {
            return e.clone();
        }
        map.results()[0].map_vars(&mut |v| match v {
            rxla_indexing::Var::Dim(i) => Expr::dim(used[i]),
            rxla_indexing::Var::Sym(j) => Expr::sym(j),
        })
    }

    /// The inclusive range of `e` over the variables' bounds.
    pub fn range(&self, e: &Expr) -> (i64, i64) {
        let (used, local) = self.localize(e);
        let vars: Vec<Variable> = used.iter().map(|&i| Variable::new(self.vars[i].lo, self.vars[i].hi)).collect();
        match IndexingMap::new(vec![local.clone()], vars, vec![], vec![], vec![]) {
            Ok(map) => {
                let r = map.expression_range(&local);
                (r.lower, r.upper)
            }
            Err(_) => (i64::MIN, i64::MAX),
        }
    }

    /// An `index` constant.
    pub fn index_const(&mut self, v: i64) -> String {
        self.constant(&v.to_string(), "index")
    }

    /// An `arith.constant` (cached per region).
    pub fn constant(&mut self, value: &str, ty: &str) -> String {
        let key = format!("const:{value}:{ty}");
        if let Some(v) = self.lookup(&key) {
            return v[0].clone();
        }
        let hint = if ty == "index" { "c" } else { "cst" };
        let text = if ty == "i1" {
            // Booleans print without a type.
            let b = match value {
                "1" | "-1" | "true" => "true",
                _ => "false",
            };
            format!("arith.constant {b}")
        } else {
            format!("arith.constant {value} : {ty}")
        };
        let name = self.assign(hint, &text);
        self.remember(key, vec![name.clone()]);
        name
    }

    /// Materializes an index expression as an SSA `index` value.
    pub fn index(&mut self, e: &Expr) -> Result<String, EmitError> {
        let e = self.simplify(e);
        if let Some(c) = e.as_const() {
            return Ok(self.index_const(c));
        }
        if let ExprKind::Dim(i) = e.kind() {
            return Ok(self.vars[*i].ssa.clone());
        }
        let key = format!("idx:{e}");
        if let Some(v) = self.lookup(&key) {
            return Ok(v[0].clone());
        }
        let name = if has_min_max(&e) && !kernel_ops::XLA_DIALECTS {
            self.index_with_min_max(&e)?
        } else {
            let (used, local) = self.localize(&e);
            let operands: Vec<String> = used.iter().map(|&i| self.vars[i].ssa.clone()).collect();
            let bounds: Vec<(i64, i64)> = used.iter().map(|&i| (self.vars[i].lo, self.vars[i].hi)).collect();
            kernel_ops::apply_indexing(self, &local, &operands, &bounds)
        };
        self.remember(key, vec![name.clone()]);
        Ok(name)
    }

    /// Materializes every expression.
    pub fn indices(&mut self, es: &[Expr]) -> Result<Vec<String>, EmitError> {
        es.iter().map(|e| self.index(e)).collect()
    }

    /// `min`/`max` are not affine: emit them (and the nodes above them) as
    /// `arith` ops.
    fn index_with_min_max(&mut self, e: &Expr) -> Result<String, EmitError> {
        let ExprKind::Binary(op, l, r) = e.kind() else { return self.index(e) };
        let a = self.index(l)?;
        let b = self.index(r)?;
        let text = match op {
            BinOp::Add => format!("arith.addi {a}, {b} : index"),
            BinOp::Mul => format!("arith.muli {a}, {b} : index"),
            BinOp::FloorDiv => format!("arith.floordivsi {a}, {b} : index"),
            BinOp::CeilDiv => format!("arith.ceildivsi {a}, {b} : index"),
            BinOp::Min => format!("arith.minsi {a}, {b} : index"),
            BinOp::Max => format!("arith.maxsi {a}, {b} : index"),
            BinOp::Mod => {
                // Floor modulo: remsi has the sign of the dividend.
                let rem = self.assign("rem", &format!("arith.remsi {a}, {b} : index"));
                let zero = self.index_const(0);
                let neg = self.assign("neg", &format!("arith.cmpi slt, {rem}, {zero} : index"));
                let fixed = self.assign("fix", &format!("arith.addi {rem}, {b} : index"));
                return Ok(self.assign("mod", &format!("arith.select {neg}, {fixed}, {rem} : index")));
            }
        };
        Ok(self.assign("idx", &text))
    }

    /// An `i1` that is true iff `lo <= e <= hi` (constant `true` when the
    /// bounds of `e` already imply it).
    pub fn in_range(&mut self, e: &Expr, lo: i64, hi: i64) -> Result<Option<String>, EmitError> {
        let e = self.simplify(e);
        let (elo, ehi) = self.range(&e);
        if elo >= lo && ehi <= hi {
            return Ok(None);
        }
        if elo > hi || ehi < lo {
            return Ok(Some(self.constant("false", "i1")));
        }
        let v = self.index(&e)?;
        if lo == hi {
            let c = self.index_const(lo);
            return Ok(Some(self.assign("cmp", &format!("arith.cmpi eq, {v}, {c} : index"))));
        }
        let mut conds = Vec::new();
        if elo < lo {
            let c = self.index_const(lo);
            conds.push(self.assign("cmp", &format!("arith.cmpi sge, {v}, {c} : index")));
        }
        if ehi > hi {
            let c = self.index_const(hi);
            conds.push(self.assign("cmp", &format!("arith.cmpi sle, {v}, {c} : index")));
        }
        Ok(Some(self.and_all(&conds)))
    }

    /// The conjunction of `i1` values (`true` for none).
    pub fn and_all(&mut self, conds: &[String]) -> String {
        match conds {
            [] => self.constant("true", "i1"),
            [c] => c.clone(),
            [first, rest @ ..] => {
                let mut acc = first.clone();
                for c in rest {
                    acc = self.assign("and", &format!("arith.andi {acc}, {c} : i1"));
                }
                acc
            }
        }
    }

    /// True iff every constraint of `map` (and every dimension bound the
    /// arguments' ranges do not already imply) holds for `dims` / `syms`.
    /// `None` when nothing needs checking.
    pub fn map_constraints(
        &mut self,
        map: &IndexingMap,
        dims: &[Expr],
        syms: &[Expr],
    ) -> Result<Option<String>, EmitError> {
        let mut conds = Vec::new();
        for (d, var) in map.dim_vars().iter().enumerate() {
            if let Some(c) = self.in_range(&dims[d], var.bounds.lower, var.bounds.upper)? {
                conds.push(c);
            }
        }
        let nr = map.num_range_vars();
        for (j, var) in map.range_vars().iter().chain(map.rt_vars()).enumerate() {
            let _ = nr;
            if let Some(c) = self.in_range(&syms[j], var.bounds.lower, var.bounds.upper)? {
                conds.push(c);
            }
        }
        for (expr, interval) in map.constraints() {
            let e = expr.replace_dims_and_symbols(dims, syms);
            if let Some(c) = self.in_range(&e, interval.lower, interval.upper)? {
                conds.push(c);
            }
        }
        if conds.is_empty() {
            return Ok(None);
        }
        Ok(Some(self.and_all(&conds)))
    }

    // ------------------------------------------------------------------
    // Structured control flow.

    /// `scf.for` from `lb` to `ub` (exclusive) with `iter_args`; `body`
    /// gets the induction variable (as an index variable with bounds
    /// `[lb, ub - 1]`) and the region's iter args, and returns the values
    /// to yield. Returns the loop's results.
    pub fn for_loop(
        &mut self,
        lb: i64,
        ub: i64,
        step: i64,
        inits: &[(String, String)],
        body: &mut ForBody,
    ) -> Result<Vec<String>, EmitError> {
        let (lbv, ubv, stepv) = (self.index_const(lb), self.index_const(ub), self.index_const(step));
        let iv = self.fresh("i");
        let result = self.fresh("for");
        let iters: Vec<String> = inits.iter().map(|_| self.fresh("acc")).collect();
        let types: Vec<&str> = inits.iter().map(|(_, t)| t.as_str()).collect();
        let header = if inits.is_empty() {
            format!("scf.for {iv} = {lbv} to {ubv} step {stepv} {{")
        } else {
            let args: Vec<String> = iters.iter().zip(inits).map(|(a, (v, _))| format!("{a} = {v}")).collect();
            format!(
                "{} = scf.for {iv} = {lbv} to {ubv} step {stepv} iter_args({}) -> ({}) {{",
                result_lhs(&result, inits.len()),
                args.join(", "),
                types.join(", ")
            )
        };
        self.open(&header);
        let last = lb + ((ub - lb - 1) / step) * step;
        let ivar = self.var(&iv, lb, last.max(lb));
        let yields = body(self, ivar, &iters)?;
        self.yield_values("scf.yield", &yields, &types);
        self.close("}");
        Ok(results(&result, inits.len()))
    }

    /// The loop of [`FuncBuilder::for_loop`] unrolled by the emitter:
    /// `body` runs once per iteration with the induction variable as a
    /// constant, in straight-line code. For short loops whose unrolling
    /// matters (small windows): LLVM's own unroller is off on the CPU (as
    /// in XLA:CPU), so the emitter decides.
    pub fn unrolled_loop(
        &mut self,
        lb: i64,
        ub: i64,
        step: i64,
        inits: &[(String, String)],
        body: &mut ForBody,
    ) -> Result<Vec<String>, EmitError> {
        let mut values: Vec<String> = inits.iter().map(|(v, _)| v.clone()).collect();
        let mut k = lb;
        while k < ub {
            values = body(self, Expr::constant(k), &values)?;
            k += step;
        }
        Ok(values)
    }

    /// `scf.if` with results of `types`; `branch(fb, true)` emits the then
    /// region, `branch(fb, false)` the else region, each returning the
    /// values it yields.
    pub fn if_else(&mut self, cond: &str, types: &[String], branch: &mut Branches) -> Result<Vec<String>, EmitError> {
        let result = self.fresh("if");
        let tys: Vec<&str> = types.iter().map(String::as_str).collect();
        if types.is_empty() {
            self.open(&format!("scf.if {cond} {{"));
        } else {
            self.open(&format!("{} = scf.if {cond} -> ({}) {{", result_lhs(&result, types.len()), tys.join(", ")));
        }
        let t = branch(self, true)?;
        self.yield_values("scf.yield", &t, &tys);
        self.close("} else {");
        self.push_scope();
        self.indent += 1;
        let e = branch(self, false)?;
        self.yield_values("scf.yield", &e, &tys);
        self.indent -= 1;
        self.pop_scope();
        self.line("}");
        Ok(results(&result, types.len()))
    }

    /// `if cond { body } else { passthrough }` over values of `types`.
    pub fn if_then(
        &mut self,
        cond: Option<&str>,
        passthrough: &[String],
        types: &[String],
        body: &mut Region,
    ) -> Result<Vec<String>, EmitError> {
        match cond {
            None => body(self),
            Some(c) => {
                let pass = passthrough.to_vec();
                self.if_else(c, types, &mut |fb, then| if then { body(fb) } else { Ok(pass.clone()) })
            }
        }
    }

    /// A terminator with values (`scf.yield %a, %b : f32, f32`).
    pub fn yield_values(&mut self, op: &str, values: &[String], types: &[&str]) {
        if values.is_empty() {
            self.line(op);
        } else {
            self.line(&format!("{op} {} : {}", values.join(", "), types.join(", ")));
        }
    }
}

/// `%r` or `%r:3`.
pub fn result_lhs(name: &str, n: usize) -> String {
    if n == 1 {
        name.to_string()
    } else {
        format!("{name}:{n}")
    }
}

/// The result references of an op named `name` with `n` results.
pub fn results(name: &str, n: usize) -> Vec<String> {
    match n {
        0 => Vec::new(),
        1 => vec![name.to_string()],
        _ => (0..n).map(|i| format!("{name}#{i}")).collect(),
    }
}

fn has_min_max(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |n| {
        if let Some(op) = n.op() {
            found |= matches!(op, BinOp::Min | BinOp::Max);
        }
    });
    found
}
