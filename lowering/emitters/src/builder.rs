//! Building one function of kernel IR directly in MLIR.
//!
//! A [`FuncBuilder`] appends ops to a block of a function the kernel owns
//! (see `kernel.rs`): the emitters create `arith`, `math`, `complex`,
//! `scf`, `tensor`, `gpu`, `xla` and `xla_gpu` ops through MLIR's C API,
//! and values are [`Value`] handles. Types are named by their MLIR
//! spelling (`f32`, `complex<f64>`, `tensor<4x8xf32>`), which
//! [`FuncBuilder::ty`] turns into types through the C API's constructors.
//!
//! Index arithmetic is symbolic: an index is an [`Expr`] over the
//! function's *index variables* (its index arguments, loop induction
//! variables, thread and block ids, runtime offsets), each with known
//! bounds, so that indexing maps compose and simplify with `rxla-indexing`
//! and equal indices are materialized once (`FuncBuilder::index`). Values
//! are cached per region scope: a value computed inside an `scf.for` or
//! `scf.if` body is not visible after it.

use crate::{kernel_ops, EmitError};
use mlir_sys::*;
use rxla_indexing::{Expr, ExprKind, IndexingMap, Variable};
pub use rxla_ir::builder::block_args;
use rxla_ir::{
    builder::{cmpf_predicate, cmpi_predicate, create_detached, region_with_block, OpParts},
    op::{string_ref, Op, Value},
};
use std::{cell::RefCell, collections::HashMap};

/// The body of a region that yields values: gets the builder, returns the
/// values to yield.
pub type Region<'a> = dyn FnMut(&mut FuncBuilder) -> Result<Vec<Value>, EmitError> + 'a;
/// The body of an `scf.for`: the induction variable and the iter args.
pub type ForBody<'a> = dyn FnMut(&mut FuncBuilder, Expr, &[Value]) -> Result<Vec<Value>, EmitError> + 'a;
/// The branches of an `scf.if` (`true` for the then region).
pub type Branches<'a> = dyn FnMut(&mut FuncBuilder, bool) -> Result<Vec<Value>, EmitError> + 'a;

/// The body of a region's block: gets the block's arguments, returns the
/// values its terminator yields.
pub type BlockBody<'a> = dyn FnMut(&mut FuncBuilder, &[Value]) -> Result<Vec<Value>, EmitError> + 'a;

/// An op with one region of one block, for [`FuncBuilder::region_op`].
pub struct RegionOp<'a> {
    pub name: &'a str,
    pub operands: &'a [Value],
    pub results: &'a [MlirType],
    pub attrs: &'a [(&'a str, MlirAttribute)],
    /// The block's argument types.
    pub arg_types: &'a [MlirType],
    /// The block's terminator (`scf.yield`, `xla.yield`).
    pub terminator: &'a str,
}

/// An index variable: its value and inclusive bounds.
#[derive(Clone, Debug)]
pub struct IndexVar {
    pub value: Value,
    pub lo: i64,
    pub hi: i64,
}

#[derive(Default)]
struct Scope {
    cache: HashMap<String, Vec<Value>>,
}

/// A kernel-IR type: its MLIR spelling or the type itself.
pub trait KernelType {
    fn mlir(&self, fb: &FuncBuilder) -> MlirType;
}

impl KernelType for str {
    fn mlir(&self, fb: &FuncBuilder) -> MlirType {
        fb.ty(self)
    }
}

impl KernelType for String {
    fn mlir(&self, fb: &FuncBuilder) -> MlirType {
        fb.ty(self)
    }
}

impl KernelType for MlirType {
    fn mlir(&self, _: &FuncBuilder) -> MlirType {
        *self
    }
}

impl<T: KernelType + ?Sized> KernelType for &T {
    fn mlir(&self, fb: &FuncBuilder) -> MlirType {
        (**self).mlir(fb)
    }
}

/// One function's body under construction.
pub struct FuncBuilder {
    context: MlirContext,
    location: MlirLocation,
    /// Where new ops go (at the end).
    block: MlirBlock,
    /// The function's entry block while it is detached and this builder
    /// owns it (destroyed with the builder if an emitter gives up).
    owned: Option<MlirBlock>,
    vars: Vec<IndexVar>,
    scopes: Vec<Scope>,
    /// [`FuncBuilder::simplify`]'s results: index variables are only ever
    /// added, with fixed bounds, so an expression always simplifies the
    /// same way, and the emitters simplify the same indices many times
    /// (every lane of a reduction, every cached value's key).
    simplified: RefCell<HashMap<Expr, Expr>>,
    types: RefCell<HashMap<String, MlirType>>,
    /// Float additions and multiplications get `fastmath<reassoc>` (see
    /// `Kernel::reducer_fn`).
    pub reassociate: bool,
}

impl FuncBuilder {
    /// A builder appending to `block` (a function's entry block).
    pub fn new(context: MlirContext, block: MlirBlock) -> FuncBuilder {
        FuncBuilder {
            context,
            location: unsafe { mlirLocationUnknownGet(context) },
            block,
            owned: None,
            vars: Vec::new(),
            scopes: vec![Scope::default()],
            simplified: RefCell::new(HashMap::new()),
            types: RefCell::new(HashMap::new()),
            reassociate: false,
        }
    }

    pub fn context(&self) -> MlirContext {
        self.context
    }

    /// A builder of the detached entry block `block`, which it owns until
    /// [`FuncBuilder::release`].
    pub fn owning(context: MlirContext, block: MlirBlock) -> FuncBuilder {
        let mut fb = FuncBuilder::new(context, block);
        fb.owned = Some(block);
        fb
    }

    /// Gives up the ownership of the entry block (to put it in a
    /// function) and returns it.
    pub fn release(mut self) -> MlirBlock {
        self.owned.take().unwrap_or(self.block)
    }

    // ------------------------------------------------------------------
    // Types and attributes.

    /// The type an MLIR spelling names (the spellings the emitters use:
    /// `index`, `iN`, the float types, `complex<...>`, `tensor<...>`).
    pub fn ty(&self, spelling: &str) -> MlirType {
        if let Some(&t) = self.types.borrow().get(spelling) {
            return t;
        }
        let t = type_of_spelling(self.context, spelling);
        self.types.borrow_mut().insert(spelling.to_string(), t);
        t
    }

    /// The type of `v`.
    pub fn type_of(&self, v: Value) -> MlirType {
        unsafe { mlirValueGetType(v.0) }
    }

    /// The element type of a tensor type, or of a complex type.
    pub fn element_type(&self, ty: MlirType) -> MlirType {
        unsafe {
            if mlirTypeIsAComplex(ty) {
                mlirComplexTypeGetElementType(ty)
            } else {
                mlirShapedTypeGetElementType(ty)
            }
        }
    }

    pub fn i64_attr(&self, v: i64) -> MlirAttribute {
        unsafe { mlirIntegerAttrGet(mlirIntegerTypeGet(self.context, 64), v) }
    }

    pub fn index_attr(&self, v: i64) -> MlirAttribute {
        unsafe { mlirIntegerAttrGet(mlirIndexTypeGet(self.context), v) }
    }

    pub fn str_attr(&self, s: &str) -> MlirAttribute {
        unsafe { mlirStringAttrGet(self.context, string_ref(s)) }
    }

    pub fn unit_attr(&self) -> MlirAttribute {
        unsafe { mlirUnitAttrGet(self.context) }
    }

    pub fn symbol_attr(&self, name: &str) -> MlirAttribute {
        unsafe { mlirFlatSymbolRefAttrGet(self.context, string_ref(name)) }
    }

    pub fn i64_array_attr(&self, values: &[i64]) -> MlirAttribute {
        unsafe { mlirDenseI64ArrayGet(self.context, values.len() as isize, values.as_ptr()) }
    }

    /// XLA's range annotation, `[lo : index, hi : index]`.
    pub fn range_attr(&self, lo: i64, hi: i64) -> MlirAttribute {
        let bounds = [self.index_attr(lo), self.index_attr(hi)];
        unsafe { mlirArrayAttrGet(self.context, 2, bounds.as_ptr()) }
    }

    // ------------------------------------------------------------------
    // Ops.

    /// Appends `name` with `operands`, result types and attributes.
    pub fn op(&mut self, name: &str, operands: &[Value], results: &[MlirType], attrs: &[(&str, MlirAttribute)]) -> Op {
        self.op_with_regions(name, operands, results, attrs, Vec::new())
    }

    fn op_with_regions(
        &mut self,
        name: &str,
        operands: &[Value],
        results: &[MlirType],
        attrs: &[(&str, MlirAttribute)],
        regions: Vec<MlirRegion>,
    ) -> Op {
        let parts = OpParts { name, operands, results: Some(results), attrs, regions };
        let op = create_detached(self.context, self.location, &parts)
            .unwrap_or_else(|| panic!("internal error: MLIR cannot create `{name}`"));
        unsafe { mlirBlockAppendOwnedOperation(self.block, op.raw()) };
        op
    }

    /// A one-result op of type `ty` without attributes.
    pub fn val(&mut self, name: &str, operands: &[Value], ty: impl KernelType) -> Value {
        let t = ty.mlir(self);
        let attrs = self.fastmath(name);
        self.op(name, operands, &[t], &attrs).result(0)
    }

    /// A one-result op with attributes.
    pub fn val_attrs(
        &mut self,
        name: &str,
        operands: &[Value],
        ty: impl KernelType,
        attrs: &[(&str, MlirAttribute)],
    ) -> Value {
        let t = ty.mlir(self);
        self.op(name, operands, &[t], attrs).result(0)
    }

    /// `name` on operands of one type, with a result of that type.
    pub fn binary(&mut self, name: &str, a: Value, b: Value) -> Value {
        let t = self.type_of(a);
        self.val(name, &[a, b], t)
    }

    /// `name` on one operand, with a result of its type.
    pub fn unary(&mut self, name: &str, a: Value) -> Value {
        let t = self.type_of(a);
        self.val(name, &[a], t)
    }

    /// A conversion (`arith.extf`, `arith.bitcast`, ...) of `x` to `ty`.
    pub fn cast(&mut self, name: &str, x: Value, ty: impl KernelType) -> Value {
        self.val(name, &[x], ty)
    }

    /// `arith.select`.
    pub fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        let t = self.type_of(a);
        self.val("arith.select", &[c, a, b], t)
    }

    /// `arith.cmpi` (`eq`, `slt`, `ult`, ...).
    pub fn cmpi(&mut self, pred: &str, a: Value, b: Value) -> Value {
        let p = cmpi_predicate(pred).unwrap_or_else(|| panic!("internal error: no arith.cmpi predicate `{pred}`"));
        let attr = self.i64_attr(p);
        let i1 = self.ty("i1");
        self.op("arith.cmpi", &[a, b], &[i1], &[("predicate", attr)]).result(0)
    }

    /// `arith.cmpf` (`oeq`, `olt`, `uno`, ...).
    pub fn cmpf(&mut self, pred: &str, a: Value, b: Value) -> Value {
        let p = cmpf_predicate(pred).unwrap_or_else(|| panic!("internal error: no arith.cmpf predicate `{pred}`"));
        let attr = self.i64_attr(p);
        let i1 = self.ty("i1");
        self.op("arith.cmpf", &[a, b], &[i1], &[("predicate", attr)]).result(0)
    }

    /// `fastmath<reassoc>` for a float addition or multiplication while
    /// [`FuncBuilder::reassociate`] is set.
    fn fastmath(&self, name: &str) -> Vec<(&'static str, MlirAttribute)> {
        if self.reassociate && matches!(name, "arith.addf" | "arith.mulf") {
            // `mlir::arith::FastMathFlags::reassoc`.
            vec![("fastmath", unsafe { rxla_dialects::ffi::rxlaArithFastMathAttrGet(self.context, 1) })]
        } else {
            Vec::new()
        }
    }

    /// `tensor.extract` of `tensor` at `indices`.
    pub fn extract(&mut self, tensor: Value, indices: &[Value]) -> Value {
        let elem = self.element_type(self.type_of(tensor));
        let mut operands = vec![tensor];
        operands.extend_from_slice(indices);
        self.val("tensor.extract", &operands, elem)
    }

    /// `tensor.insert` of `value` into `tensor` at `indices`.
    pub fn insert(&mut self, value: Value, tensor: Value, indices: &[Value]) -> Value {
        let t = self.type_of(tensor);
        let mut operands = vec![value, tensor];
        operands.extend_from_slice(indices);
        self.val("tensor.insert", &operands, t)
    }

    /// A terminator (`scf.yield`, `xla.yield`, `func.return`).
    pub fn terminate(&mut self, name: &str, values: &[Value]) {
        self.op(name, values, &[], &[]);
    }

    /// Creates the op `parts` describes, with one region of one block,
    /// appends it, and builds the block with `body` (which gets the
    /// block's arguments and returns the values the terminator yields).
    pub fn region_op(&mut self, parts: RegionOp, body: &mut BlockBody) -> Result<Op, EmitError> {
        let (region, block) = self.new_region(parts.arg_types);
        let op = self.op_with_regions(parts.name, parts.operands, parts.results, parts.attrs, vec![region]);
        let args = block_args(block);
        let yields = self.inside(block, &mut |fb| body(fb, &args))?;
        self.inside(block, &mut |fb| {
            fb.terminate(parts.terminator, &yields);
            Ok(Vec::new())
        })?;
        Ok(op)
    }

    /// A region of one block with arguments of `arg_types`.
    fn new_region(&self, arg_types: &[MlirType]) -> (MlirRegion, MlirBlock) {
        region_with_block(arg_types, self.location)
    }

    /// Runs `f` with new ops going to the end of `block`, in a new scope.
    fn inside(&mut self, block: MlirBlock, f: &mut Region) -> Result<Vec<Value>, EmitError> {
        let outer = std::mem::replace(&mut self.block, block);
        self.push_scope();
        let r = f(self);
        self.pop_scope();
        self.block = outer;
        r
    }

    pub fn push_scope(&mut self) {
        self.scopes.push(Scope::default());
    }

    pub fn pop_scope(&mut self) {
        self.scopes.pop();
        assert!(!self.scopes.is_empty(), "unbalanced scopes");
    }

    /// A cached value visible in the current region.
    pub fn lookup(&self, key: &str) -> Option<Vec<Value>> {
        self.scopes.iter().rev().find_map(|s| s.cache.get(key).cloned())
    }

    /// Caches values in the current region.
    pub fn remember(&mut self, key: String, values: Vec<Value>) {
        self.scopes.last_mut().unwrap().cache.insert(key, values);
    }

    // ------------------------------------------------------------------
    // Index variables and index expressions.

    /// Adds an index variable; returns it as an expression.
    pub fn var(&mut self, value: Value, lo: i64, hi: i64) -> Expr {
        self.vars.push(IndexVar { value, lo, hi });
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
    pub fn index_const(&mut self, v: i64) -> Value {
        self.const_int(v as i128, "index")
    }

    /// An integer (or `index`) `arith.constant` of `ty` (cached per
    /// region); `v` wraps to the type's width.
    pub fn const_int(&mut self, v: i128, ty: impl KernelType) -> Value {
        let t = ty.mlir(self);
        let key = format!("const:{v}:{}", type_key(t));
        if let Some(c) = self.lookup(&key) {
            return c[0];
        }
        let width = unsafe {
            if mlirTypeIsAInteger(t) {
                mlirIntegerTypeGetWidth(t)
            } else {
                64
            }
        };
        let attr = unsafe {
            if width == 1 {
                mlirBoolAttrGet(self.context, (v & 1) as i32)
            } else {
                mlirIntegerAttrGet(t, wrap_to_i64(v, width))
            }
        };
        let c = self.val_attrs("arith.constant", &[], t, &[("value", attr)]);
        self.remember(key, vec![c]);
        c
    }

    /// A float `arith.constant` of `ty` (cached per region).
    pub fn const_float(&mut self, v: f64, ty: impl KernelType) -> Value {
        let t = ty.mlir(self);
        let key = format!("constf:{:x}:{}", v.to_bits(), type_key(t));
        if let Some(c) = self.lookup(&key) {
            return c[0];
        }
        let attr = unsafe { mlirFloatAttrDoubleGet(self.context, t, v) };
        let c = self.val_attrs("arith.constant", &[], t, &[("value", attr)]);
        self.remember(key, vec![c]);
        c
    }

    /// An `i1` constant.
    pub fn const_bool(&mut self, b: bool) -> Value {
        self.const_int(b as i128, "i1")
    }

    /// An `arith.constant` of a typed attribute (cached per region under
    /// `key` when given).
    pub fn const_attr(&mut self, attr: MlirAttribute, key: Option<String>) -> Value {
        if let Some(c) = key.as_ref().and_then(|k| self.lookup(k)) {
            return c[0];
        }
        let t = unsafe { mlirAttributeGetType(attr) };
        let c = self.val_attrs("arith.constant", &[], t, &[("value", attr)]);
        if let Some(k) = key {
            self.remember(k, vec![c]);
        }
        c
    }

    /// Materializes an index expression as an `index` value.
    pub fn index(&mut self, e: &Expr) -> Result<Value, EmitError> {
        let e = self.simplify(e);
        if let Some(c) = e.as_const() {
            return Ok(self.index_const(c));
        }
        if let ExprKind::Dim(i) = e.kind() {
            return Ok(self.vars[*i].value);
        }
        let key = format!("idx:{e}");
        if let Some(v) = self.lookup(&key) {
            return Ok(v[0]);
        }
        let (used, local) = self.localize(&e);
        let operands: Vec<Value> = used.iter().map(|&i| self.vars[i].value).collect();
        let bounds: Vec<(i64, i64)> = used.iter().map(|&i| (self.vars[i].lo, self.vars[i].hi)).collect();
        let v = kernel_ops::apply_indexing(self, &local, &operands, &bounds);
        self.remember(key, vec![v]);
        Ok(v)
    }

    /// Materializes every expression.
    pub fn indices(&mut self, es: &[Expr]) -> Result<Vec<Value>, EmitError> {
        es.iter().map(|e| self.index(e)).collect()
    }

    /// An `i1` that is true iff `lo <= e <= hi` (constant `true` when the
    /// bounds of `e` already imply it).
    pub fn in_range(&mut self, e: &Expr, lo: i64, hi: i64) -> Result<Option<Value>, EmitError> {
        let e = self.simplify(e);
        let (elo, ehi) = self.range(&e);
        if elo >= lo && ehi <= hi {
            return Ok(None);
        }
        if elo > hi || ehi < lo {
            return Ok(Some(self.const_bool(false)));
        }
        let v = self.index(&e)?;
        if lo == hi {
            let c = self.index_const(lo);
            return Ok(Some(self.cmpi("eq", v, c)));
        }
        let mut conds = Vec::new();
        if elo < lo {
            let c = self.index_const(lo);
            conds.push(self.cmpi("sge", v, c));
        }
        if ehi > hi {
            let c = self.index_const(hi);
            conds.push(self.cmpi("sle", v, c));
        }
        Ok(Some(self.and_all(&conds)))
    }

    /// The conjunction of `i1` values (`true` for none).
    pub fn and_all(&mut self, conds: &[Value]) -> Value {
        match conds {
            [] => self.const_bool(true),
            [c] => *c,
            [first, rest @ ..] => {
                let mut acc = *first;
                for &c in rest {
                    acc = self.binary("arith.andi", acc, c);
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
    ) -> Result<Option<Value>, EmitError> {
        let mut conds = Vec::new();
        for (d, var) in map.dim_vars().iter().enumerate() {
            if let Some(c) = self.in_range(&dims[d], var.bounds.lower, var.bounds.upper)? {
                conds.push(c);
            }
        }
        for (j, var) in map.range_vars().iter().chain(map.rt_vars()).enumerate() {
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
        inits: &[Value],
        body: &mut ForBody,
    ) -> Result<Vec<Value>, EmitError> {
        let (lbv, ubv, stepv) = (self.index_const(lb), self.index_const(ub), self.index_const(step));
        let types: Vec<MlirType> = inits.iter().map(|&v| self.type_of(v)).collect();
        let mut arg_types = vec![self.ty("index")];
        arg_types.extend(&types);
        let mut operands = vec![lbv, ubv, stepv];
        operands.extend_from_slice(inits);
        let last = lb + ((ub - lb - 1) / step) * step;
        let parts = RegionOp {
            name: "scf.for",
            operands: &operands,
            results: &types,
            attrs: &[],
            arg_types: &arg_types,
            terminator: "scf.yield",
        };
        let op = self.region_op(parts, &mut |fb, args| {
            let ivar = fb.var(args[0], lb, last.max(lb));
            body(fb, ivar, &args[1..])
        })?;
        Ok(op.results())
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
        inits: &[Value],
        body: &mut ForBody,
    ) -> Result<Vec<Value>, EmitError> {
        let mut values: Vec<Value> = inits.to_vec();
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
    pub fn if_else(&mut self, cond: Value, types: &[MlirType], branch: &mut Branches) -> Result<Vec<Value>, EmitError> {
        let (then_region, then_block) = self.new_region(&[]);
        let (else_region, else_block) = self.new_region(&[]);
        let op = self.op_with_regions("scf.if", &[cond], types, &[], vec![then_region, else_region]);
        for (block, then) in [(then_block, true), (else_block, false)] {
            let yields = self.inside(block, &mut |fb| branch(fb, then))?;
            self.inside(block, &mut |fb| {
                fb.terminate("scf.yield", &yields);
                Ok(Vec::new())
            })?;
        }
        Ok(op.results())
    }

    /// `if cond { body } else { passthrough }` over the values
    /// `passthrough` (whose types the results have).
    pub fn if_then(
        &mut self,
        cond: Option<Value>,
        passthrough: &[Value],
        body: &mut Region,
    ) -> Result<Vec<Value>, EmitError> {
        match cond {
            None => body(self),
            Some(c) => {
                let pass = passthrough.to_vec();
                let types: Vec<MlirType> = pass.iter().map(|&v| self.type_of(v)).collect();
                self.if_else(c, &types, &mut |fb, then| if then { body(fb) } else { Ok(pass.clone()) })
            }
        }
    }
}

impl Drop for FuncBuilder {
    fn drop(&mut self) {
        if let Some(block) = self.owned.take() {
            unsafe { mlirBlockDestroy(block) }
        }
    }
}

/// A cache key of a type (types are uniqued: the pointer names it).
fn type_key(t: MlirType) -> usize {
    t.ptr as usize
}

/// `v` as the `i64` whose low `width` bits it has (two's complement).
fn wrap_to_i64(v: i128, width: u32) -> i64 {
    if width >= 64 {
        v as i64
    } else {
        let m = v & ((1i128 << width) - 1);
        let m = if m >= 1i128 << (width - 1) { m - (1i128 << width) } else { m };
        m as i64
    }
}

/// The type `spelling` names (a bug in the emitters if none).
pub fn type_of_spelling(context: MlirContext, spelling: &str) -> MlirType {
    kernel_type(context, spelling).unwrap_or_else(|| panic!("internal error: no kernel type is spelled `{spelling}`"))
}

/// The type `spelling` names, built through the C API: an element type
/// or a `tensor<...>` of one.
fn kernel_type(context: MlirContext, spelling: &str) -> Option<MlirType> {
    let s = spelling.trim();
    let Some(inner) = s.strip_prefix("tensor<").and_then(|r| r.strip_suffix('>')) else {
        return rxla_ir::types::element_type_from_spelling(context, s);
    };
    let mut dims = Vec::new();
    let mut rest = inner;
    while let Some((d, tail)) = rest.split_once('x') {
        match d.parse::<i64>() {
            Ok(n) => {
                dims.push(n);
                rest = tail;
            }
            Err(_) => break,
        }
    }
    let elem = rxla_ir::types::element_type_from_spelling(context, rest)?;
    Some(unsafe { mlirRankedTensorTypeGet(dims.len() as isize, dims.as_ptr(), elem, mlirAttributeGetNull()) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rxla_ir::op::type_to_string;

    #[test]
    fn spellings_build_the_types_they_name() {
        let context = rxla_dialects::create_context();
        let raw = context.to_raw();
        for spelling in
            ["index", "i1", "i64", "bf16", "f8E4M3FN", "f4E2M1FN", "complex<f64>", "tensor<f32>", "tensor<4x8xi16>"]
        {
            assert_eq!(type_to_string(type_of_spelling(raw, spelling)), spelling);
        }
        assert!(kernel_type(raw, "tensor<4xf99>").is_none());
        assert!(kernel_type(raw, "memref<4xf32>").is_none());
    }

    #[test]
    fn integer_constants_wrap_to_their_width() {
        assert_eq!(wrap_to_i64(255, 8), -1);
        assert_eq!(wrap_to_i64(u64::MAX as i128, 64), -1);
        assert_eq!(wrap_to_i64(-129, 8), 127);
        assert_eq!(wrap_to_i64(5, 32), 5);
    }

    #[test]
    fn ops_with_regions_are_built_in_place() {
        let context = rxla_dialects::create_context();
        let raw = context.to_raw();
        for d in ["func", "arith", "scf"] {
            unsafe { mlirContextGetOrLoadDialect(raw, string_ref(d)) };
        }
        let index = type_of_spelling(raw, "index");
        let locs = [unsafe { mlirLocationUnknownGet(raw) }];
        let block = unsafe { mlirBlockCreate(1, [index].as_ptr(), locs.as_ptr()) };
        let mut fb = FuncBuilder::new(raw, block);
        let n = block_args(block)[0];
        let zero = fb.index_const(0);
        let sum = fb
            .for_loop(0, 4, 1, &[zero], &mut |fb, i, iters| {
                let iv = fb.index(&i)?;
                Ok(vec![fb.binary("arith.addi", iters[0], iv)])
            })
            .unwrap();
        let total = fb.binary("arith.addi", sum[0], n);
        fb.terminate("func.return", &[total]);
        // The constant is cached in the scope that made it.
        assert!(fb.index_const(0) == zero);
        let mut text = String::new();
        unsafe {
            let mut op = mlirBlockGetFirstOperation(block);
            while !op.ptr.is_null() {
                text.push_str(&Op::from_raw(op).to_text());
                text.push('\n');
                op = mlirOperationGetNextInBlock(op);
            }
            mlirBlockDestroy(block);
        }
        assert!(text.contains("scf.for"), "{text}");
        assert!(text.contains("scf.yield"), "{text}");
        assert!(text.contains("iter_args"), "{text}");
    }
}
