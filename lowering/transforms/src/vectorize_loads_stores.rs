//! `xla-vectorize-loads-stores`: the contiguous accesses of an emitter's
//! innermost loop become `vector` transfers (XLA's
//! `vectorize_loads_stores`, written for rxla).
//!
//! A candidate is an `scf.for` from 0 to a constant power of two `n`
//! (2..32) with step 1: the lanes of an unrolled loop emitter, a row
//! reduction's vector, a transpose tile row. In its body (not nested
//! deeper: an access under an `scf.if` is not done for every lane):
//!
//! - `tensor.extract %t[%i]` of a tensor defined outside the loop, where
//!   `%i` is `base + iv` with `base` a multiple of `n` (the
//!   `xla.apply_indexing` chain from the loop's operands to `%i` is
//!   composed and inspected), becomes one `vector.transfer_read` of
//!   `vector<n x T>` at `base` before the loop and a `vector.extract` of
//!   lane `iv` inside it;
//! - `tensor.insert %v into %acc[%i]` of the same form, where `%acc` is a
//!   loop-carried tensor used only here and the result only yielded,
//!   becomes a `vector.insert` into a new loop-carried vector and one
//!   `vector.transfer_write` after the loop.
//!
//! Elements must be stored as they are (`f16`, `bf16`, `f32`, `f64`, 8- to
//! 64-bit integers: not `i1`, sub-byte or f8 formats, complex), the
//! flattened tensor's size a multiple of `n` and the vector at most 128
//! bits on the GPU (one `ld.global.v4`) and 1024 bits on the CPU (four AVX
//! registers: a column reduction's strip).
//!
//! `target=cpu` goes further: a lane loop is rewritten only if its whole
//! body can become straight-line vector code (every op that depends on
//! the lane a vectorized access, an elementwise `arith`/`math` op or an
//! index computation for them; see [`lane_roles`]), and then is: the
//! elementwise ops become the same ops on vectors, values the same in
//! every lane are broadcast, and the loop disappears. Other lane loops are
//! left to LLVM's loop vectorizer (the CPU pipeline keeps LLVM's unroller
//! off, and scalar lane code between vector transfers would be worse). On
//! the GPU the loop stays and LLVM unrolls it, as in XLA:GPU.
//!
//! After the loops, the straight-line half groups the accesses the
//! emitters unrolled themselves ([`vectorize_straight_line`]), and on the
//! CPU the lanes computed side by side become vectors
//! ([`vectorize_lane_groups`]).
//!
//! [`vectorize_straight_line`]: crate::vectorize_straight_line
//! [`vectorize_lane_groups`]: crate::vectorize_lane_groups

use crate::ir::*;
use crate::lower_tensors::Target;
use melior::ir::OperationRef;
use mlir_sys::*;
use rxla_indexing::{BinOp, Expr, ExprKind, IndexingMap};
use rxla_ir::pass::{HloPass, PassError, PassOptions};

#[derive(Clone, Debug)]
pub struct VectorizeLoadsStores {
    pub target: Target,
    /// The CPU's vector register width in bits (`vector-bits=`; the host's
    /// by default): how wide a reduction's accumulators are.
    pub vector_bits: i64,
}

/// The widest vector registers of the machine this process runs on, which
/// is the machine the CPU backend compiles for.
pub fn host_vector_bits() -> i64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            return 512;
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            return 256;
        }
    }
    128
}

impl HloPass for VectorizeLoadsStores {
    const NAME: &'static str = "xla-vectorize-loads-stores";
    const DESCRIPTION: &'static str =
        "Turn contiguous accesses of lane loops and unrolled consecutive accesses into vector transfers (target=cpu: elementwise lane loops become straight-line vector code, reduction loops use vector accumulators, lanes computed side by side become vectors)";

    fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
        use melior::dialect::DialectHandle;
        // SAFETY: the C API's handle of an upstream dialect (melior has no
        // constructor for `vector`).
        let vector = unsafe { DialectHandle::from_raw(mlirGetDialectHandle__vector__()) };
        vec![vector, DialectHandle::scf(), DialectHandle::arith()]
    }

    fn from_options(options: &PassOptions) -> std::result::Result<Self, PassError> {
        options.expect_only(Self::NAME, &["target", "vector-bits"])?;
        let vector_bits = options.int("vector-bits", host_vector_bits())?;
        if ![128, 256, 512].contains(&vector_bits) {
            return Err(PassError(format!(
                "pass '{}': vector-bits must be 128, 256 or 512, got {vector_bits}",
                Self::NAME
            )));
        }
        Ok(VectorizeLoadsStores { target: Target::from_options(Self::NAME, options)?, vector_bits })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> std::result::Result<(), PassError> {
        let root = Op::of(&module);
        // Inner loops first: vectorizing a loop replaces it (and on the
        // CPU unrolling destroys it with the loops nested in it), so every
        // loop is visited before the loops around it.
        for op in ops_named(root, "scf.for").into_iter().rev() {
            if vectorize_loop(op, self.target)? || self.target != Target::Cpu {
                continue;
            }
            if crate::vectorize_reductions::vectorize(op, self.vector_bits)? {
                continue;
            }
            if let Some(lanes) = vector_lane_loop(op) {
                crate::unroll_lanes::unroll(op, lanes)?;
            }
        }
        // Then what the emitters unrolled themselves: their accesses, and
        // on the CPU the lanes computed side by side.
        crate::vectorize_straight_line::vectorize(root, self.target)
            .and_then(|()| match self.target {
                Target::Cpu => crate::vectorize_lane_groups::vectorize(root),
                Target::Gpu => Ok(()),
            })
            .map_err(|e| PassError(format!("{}: {}", Self::NAME, e.0)))
    }
}

/// The widest vector a CPU lane loop becomes: four AVX registers (a
/// column reduction's strip of 32 f32 lanes, four independent vectors).
const CPU_LANE_LOOP_BITS: i64 = 1024;

/// The constant value of an index operand.
pub(crate) fn constant_index(v: Value) -> Option<i64> {
    let op = v.op()?;
    op.is_named("arith.constant").then(|| op.int_attr("value")).flatten()
}

/// True if `v` is defined outside `loop` (so it is the same in every lane).
pub(crate) fn defined_outside(v: Value, lp: Op) -> bool {
    let owner = match v.op() {
        Some(op) => op,
        None => match v.owner_op() {
            Some(op) => op,
            None => return false,
        },
    };
    if owner == lp {
        // The loop's own block arguments.
        return false;
    }
    let mut at = Some(owner);
    while let Some(op) = at {
        if op == lp {
            return false;
        }
        at = op.parent();
    }
    true
}

/// The element types whose memory format is the value itself.
pub(crate) fn vectorizable_element(ty: MlirType) -> bool {
    let bits = bit_width(ty);
    if is_integer(ty) {
        return matches!(bits, 8 | 16 | 32 | 64);
    }
    is_llvm_float(ty)
}

/// The vector type for a flat tensor accessed `lanes` at a time.
fn vector_type(tensor: MlirType, lanes: i64, max_bits: i64) -> Option<MlirType> {
    if !is_ranked_tensor(tensor) {
        return None;
    }
    let shape = shape_of(tensor);
    let elem = element_type(tensor);
    if shape.len() != 1 || !vectorizable_element(elem) || shape[0] % lanes != 0 {
        return None;
    }
    if bit_width(elem) as i64 * lanes > max_bits {
        return None;
    }
    Some(vector_type_of(elem, lanes))
}

/// An index as an expression of a loop's induction variable (symbol 0)
/// and of root values (symbols 1..), through the `xla.apply_indexing` ops
/// that compute it. With a loop, the roots are the values defined outside
/// it (an index computed inside it otherwise is not understood); without
/// one, every value that is not an `xla.apply_indexing` result.
pub(crate) struct Composer {
    pub lp: Option<Op>,
    pub iv: Option<Value>,
    pub roots: Vec<Value>,
    /// The `xla.apply_indexing` ops the index uses (inside the loop), in
    /// post-order: every op after the ops it uses.
    pub chain: Vec<Op>,
}

impl Composer {
    pub fn in_loop(lp: Op, iv: Value) -> Composer {
        Composer { lp: Some(lp), iv: Some(iv), roots: Vec::new(), chain: Vec::new() }
    }

    pub fn free() -> Composer {
        Composer { lp: None, iv: None, roots: Vec::new(), chain: Vec::new() }
    }

    fn root(&mut self, v: Value) -> Expr {
        let k = match self.roots.iter().position(|r| *r == v) {
            Some(k) => k,
            None => {
                self.roots.push(v);
                self.roots.len() - 1
            }
        };
        Expr::sym(k + 1)
    }

    pub fn expr(&mut self, v: Value) -> Option<Expr> {
        if Some(v) == self.iv {
            return Some(Expr::sym(0));
        }
        if let Some(c) = constant_index(v) {
            return Some(Expr::constant(c));
        }
        let index_op = v.op().filter(|op| op.is_named("xla.apply_indexing"));
        match self.lp {
            Some(lp) if defined_outside(v, lp) => return Some(self.root(v)),
            None if index_op.is_none() => return Some(self.root(v)),
            _ => {}
        }
        let op = index_op?;
        let map = IndexingMap::parse(&op.indexing_map_text("indexing_map_attr")?).ok()?;
        let operands: Vec<Expr> = op.operands().into_iter().map(|o| self.expr(o)).collect::<Option<_>>()?;
        let (dims, syms) = operands.split_at(map.num_dims());
        if !self.chain.contains(&op) {
            self.chain.push(op);
        }
        Some(map.results().get(v.result_number()?)?.replace_dims_and_symbols(dims, syms))
    }
}

/// The stride of symbol 0 in `e`, where XLA's analysis knows it (0 or 1).
pub(crate) fn stride(e: &Expr) -> Option<i64> {
    match e.kind() {
        ExprKind::Sym(0) => Some(1),
        ExprKind::Const(_) | ExprKind::Dim(_) | ExprKind::Sym(_) => Some(0),
        ExprKind::Binary(op, l, r) => {
            let (ls, rs) = (stride(l), stride(r));
            match op {
                BinOp::Add => Some(ls? + rs?),
                _ if ls == Some(0) && rs == Some(0) => Some(0),
                _ => None,
            }
        }
    }
}

/// A number every value of `e` without its symbol-0 term is a multiple of
/// (XLA's `GetAlignmentOfRemainder`).
pub(crate) fn alignment(e: &Expr) -> i64 {
    fn gcd(a: i64, b: i64) -> i64 {
        if b == 0 {
            a.abs()
        } else {
            gcd(b, a % b)
        }
    }
    match e.kind() {
        ExprKind::Const(c) => *c,
        ExprKind::Dim(_) | ExprKind::Sym(_) => 1,
        ExprKind::Binary(op, l, r) => {
            let is_iv = |x: &Expr| matches!(x.kind(), ExprKind::Sym(0));
            match op {
                BinOp::Add if is_iv(l) => alignment(r),
                BinOp::Add if is_iv(r) => alignment(l),
                BinOp::Add | BinOp::Mod | BinOp::Min | BinOp::Max => gcd(alignment(l), alignment(r)),
                BinOp::Mul => alignment(l).saturating_mul(alignment(r)),
                BinOp::FloorDiv | BinOp::CeilDiv => 1,
            }
        }
    }
}

/// A contiguous access: the index ops to copy before the loop, with the
/// induction variable replaced by 0.
struct Access {
    op: Op,
    vector: MlirType,
    chain: Vec<Op>,
    index: Value,
}

/// `op`'s index, if it is `base + iv` with `base` a multiple of `lanes`.
fn contiguous(op: Op, index: Value, lp: Op, iv: Value, lanes: i64, vector: MlirType) -> Option<Access> {
    let mut c = Composer::in_loop(lp, iv);
    let e = c.expr(index)?;
    if stride(&e) != Some(1) {
        return None;
    }
    if index != iv && alignment(&e) % lanes != 0 {
        return None;
    }
    // `chain` is in post-order: every op after the ops it uses.
    Some(Access { op, vector, chain: c.chain, index })
}

/// Copies `chain` (index ops, post-order) at `b`, with the induction
/// variable (if any) replaced: `iv` is `(variable, value)`; returns the map
/// from each original result (and the variable) to its copy.
pub(crate) fn copy_chain(b: &B, chain: &[Op], iv: Option<(Value, Value)>) -> Vec<(Value, Value)> {
    let mut mapped: Vec<(Value, Value)> = Vec::new();
    if let Some(pair) = iv {
        mapped.push(pair);
    }
    for op in chain {
        let copy = op.clone_detached();
        for (i, operand) in op.operands().into_iter().enumerate() {
            if let Some((_, to)) = mapped.iter().find(|(from, _)| *from == operand) {
                copy.set_operand(i, *to);
            }
        }
        b.insert(copy.raw());
        for (from, to) in op.results().into_iter().zip(copy.results()) {
            mapped.push((from, to));
        }
    }
    mapped
}

/// Copies `access`'s index computation before `lp` with the induction
/// variable `iv` at 0: the index of the vector's first element.
fn base_index(b: &B, access: &Access, iv: Value) -> Value {
    if access.index == iv {
        return b.const_index(0);
    }
    let mapped = copy_chain(b, &access.chain, Some((iv, b.const_index(0))));
    mapped.iter().find(|(from, _)| *from == access.index).map(|(_, to)| *to).expect("the chain computes the index")
}

fn zero_attr(ty: MlirType) -> MlirAttribute {
    unsafe {
        let ctx = mlirTypeGetContext(ty);
        if is_float(ty) {
            mlirFloatAttrDoubleGet(ctx, ty, 0.0)
        } else {
            mlirIntegerAttrGet(ty, 0)
        }
    }
}

fn dynamic_position(ctx: MlirContext) -> MlirAttribute {
    unsafe { mlirDenseI64ArrayGet(ctx, 1, [i64::MIN].as_ptr()) }
}

fn transfer_attrs(b: &B, segments: &[i32]) -> Vec<(&'static str, MlirAttribute)> {
    unsafe {
        let identity = mlirAffineMapAttrGet(mlirAffineMapMultiDimIdentityGet(b.ctx, 1));
        let in_bounds = mlirArrayAttrGet(b.ctx, 1, [mlirBoolAttrGet(b.ctx, 1)].as_ptr());
        let sizes = mlirDenseI32ArrayGet(b.ctx, segments.len() as isize, segments.as_ptr());
        vec![("permutation_map", identity), ("in_bounds", in_bounds), ("operandSegmentSizes", sizes)]
    }
}

/// `vector.transfer_read %tensor[%index]` of `vector` (in bounds).
pub(crate) fn transfer_read(b: &B, tensor: Value, index: Value, vector: MlirType) -> Value {
    let elem = unsafe { mlirShapedTypeGetElementType(vector) };
    let pad = b.val("arith.constant", &[], elem, &[("value", zero_attr(elem))]);
    b.val("vector.transfer_read", &[tensor, index, pad], vector, &transfer_attrs(b, &[1, 1, 1, 0]))
}

/// `vector.transfer_write %vector, %tensor[%index]` (in bounds).
pub(crate) fn transfer_write(b: &B, vector: Value, tensor: Value, index: Value) -> Value {
    let ty = tensor.raw_type();
    b.val("vector.transfer_write", &[vector, tensor, index], ty, &transfer_attrs(b, &[1, 1, 1, 0]))
}

/// Vectorizes the accesses of `lp` if it is a lane loop; returns whether it did.
fn vectorize_loop(lp: Op, target: Target) -> Result<bool> {
    let operands = lp.operands();
    if operands.len() < 3 || constant_index(operands[0]) != Some(0) || constant_index(operands[2]) != Some(1) {
        return Ok(false);
    }
    let Some(lanes) = constant_index(operands[1]) else { return Ok(false) };
    if !(2..=32).contains(&lanes) || !(lanes as u64).is_power_of_two() {
        return Ok(false);
    }
    let max_bits = match target {
        Target::Cpu => CPU_LANE_LOOP_BITS,
        Target::Gpu => 128,
    };
    let Some(body) = lp.region_block(0) else { return Ok(false) };
    let args = block_args(body);
    let iv = args[0];
    let Some(yield_op) = terminator(body) else { return Ok(false) };
    let mut loads = Vec::new();
    // (access, iter-arg number)
    let mut stores = Vec::new();
    for op in block_ops(body) {
        match op.name().as_str() {
            "tensor.extract" if op.num_operands() == 2 => {
                let tensor = op.operand(0);
                if !defined_outside(tensor, lp) {
                    continue;
                }
                let Some(vector) = vector_type(tensor.raw_type(), lanes, max_bits) else { continue };
                if let Some(a) = contiguous(op, op.operand(1), lp, iv, lanes, vector) {
                    loads.push(a);
                }
            }
            "tensor.insert" if op.num_operands() == 3 => {
                let dest = op.operand(1);
                // The destination is a loop-carried tensor used only here,
                // and the result is only yielded at the same position: no
                // lane reads another lane's write.
                let Some(k) = args[1..].iter().position(|a| *a == dest) else { continue };
                if dest.uses().len() != 1 {
                    continue;
                }
                let uses = op.result(0).uses();
                if uses.len() != 1 || uses[0].0 != yield_op || uses[0].1 != k {
                    continue;
                }
                let Some(vector) = vector_type(dest.raw_type(), lanes, max_bits) else { continue };
                if let Some(a) = contiguous(op, op.operand(2), lp, iv, lanes, vector) {
                    stores.push((a, k));
                }
            }
            _ => {}
        }
    }
    // Lanes of vectors the emitter carries itself (a CPU column
    // reduction's accumulators) are accesses too, already in vector form.
    let lane_access = LaneAccesses::of(lp, lanes);
    let vector_lanes = target == Target::Cpu
        && lane_access.as_ref().is_some_and(|l| block_ops(body).into_iter().any(|op| l.load(op) || l.store(op)));
    if loads.is_empty() && stores.is_empty() && !vector_lanes {
        return Ok(false);
    }
    // On the CPU only bodies that become straight-line vector code: LLVM's
    // loop vectorizer does at least as well on the others as scalar lane
    // code between vector transfers would.
    if target == Target::Cpu {
        let is_load = |op: Op| loads.iter().any(|a| a.op == op) || lane_access.as_ref().is_some_and(|l| l.load(op));
        let is_store =
            |op: Op| stores.iter().any(|(a, _)| a.op == op) || lane_access.as_ref().is_some_and(|l| l.store(op));
        if lane_roles(lp, &is_load, &is_store, &|_| false).is_none() {
            return Ok(false);
        }
    }
    let before = B::before(lp);
    for load in &loads {
        let base = base_index(&before, load, iv);
        let vector = transfer_read(&before, load.op.operand(0), base, load.vector);
        let b = B::before(load.op);
        let elem = load.op.result(0).raw_type();
        let lane = b.val("vector.extract", &[vector, iv], elem, &[("static_position", dynamic_position(b.ctx))]);
        replace_op(load.op, &[lane]);
    }
    let lp = if stores.is_empty() { lp } else { carry_vectors(lp, &stores)? };
    // The per-lane index computations the accesses no longer use.
    // Chains may share ops: each is erased once, users before operands.
    let mut dead: Vec<Op> = Vec::new();
    for access in loads.iter().chain(stores.iter().map(|(a, _)| a)) {
        for op in &access.chain {
            if !dead.contains(op) {
                dead.push(*op);
            }
        }
    }
    while let Some(k) = dead.iter().position(|op| !op.has_uses()) {
        dead.swap_remove(k).erase();
    }
    if target == Target::Cpu && !vectorize_body(lp, lanes)? {
        // The roles were checked before the rewrite.
        return Err(bug("a CPU lane loop did not vectorize after its accesses did"));
    }
    Ok(true)
}

/// The lane count of `lp` if it is a lane loop (0 to a constant, step 1)
/// over vectors the emitter carries: a CPU column reduction's strip.
fn vector_lane_loop(lp: Op) -> Option<i64> {
    let operands = lp.operands();
    if operands.len() < 3 || constant_index(operands[0]) != Some(0) || constant_index(operands[2]) != Some(1) {
        return None;
    }
    let lanes = constant_index(operands[1])?;
    let access = LaneAccesses::of(lp, lanes)?;
    let body = lp.region_block(0)?;
    block_ops(body).into_iter().any(|op| access.load(op) || access.store(op)).then_some(lanes)
}

/// The lane accesses of a lane loop `lp` over `lanes` lanes that are
/// already in vector form (vectorized loads, or vectors the emitter
/// carries): its induction variable and carried values, read once.
struct LaneAccesses {
    lp: Op,
    iv: Value,
    carried: Vec<Value>,
    lanes: i64,
}

impl LaneAccesses {
    fn of(lp: Op, lanes: i64) -> Option<LaneAccesses> {
        let args = block_args(lp.region_block(0)?);
        let (&iv, carried) = args.split_first()?;
        Some(LaneAccesses { lp, iv, carried: carried.to_vec(), lanes })
    }

    /// `vector.extract %v[%iv]` of a `vector<lanes x T>` defined outside
    /// the loop: lane `iv` of a vector.
    fn load(&self, op: Op) -> bool {
        op.is_named("vector.extract")
            && op.num_operands() == 2
            && op.operand(1) == self.iv
            && defined_outside(op.operand(0), self.lp)
            && vector_length(op.operand(0).raw_type()) == Some(self.lanes)
    }

    /// `vector.insert %x, %acc[%iv]` into a `vector<lanes x T>` the loop
    /// carries: lane `iv` of a vector it computes.
    fn store(&self, op: Op) -> bool {
        op.is_named("vector.insert")
            && op.num_operands() == 3
            && op.operand(2) == self.iv
            && self.carried.contains(&op.operand(1))
            && vector_length(op.operand(1).raw_type()) == Some(self.lanes)
    }
}

/// The length of a 1-D vector type.
fn vector_length(ty: MlirType) -> Option<i64> {
    (is_vector(ty) && unsafe { mlirShapedTypeGetRank(ty) } == 1).then(|| unsafe { mlirShapedTypeGetDimSize(ty, 0) })
}

/// Rebuilds `lp` with one more loop-carried vector per store: the stores
/// become `vector.insert`s into it, and a `vector.transfer_write` after
/// the loop writes it. Returns the new loop.
fn carry_vectors(lp: Op, stores: &[(Access, usize)]) -> Result<Op> {
    let before = B::before(lp);
    let old_body = lp.region_block(0).ok_or_else(|| bug("scf.for without a body"))?;
    let old_args = block_args(old_body);
    let iv = old_args[0];
    let bases: Vec<Value> = stores.iter().map(|(a, _)| base_index(&before, a, iv)).collect();
    let mut inits: Vec<Value> = lp.operands();
    let mut types: Vec<MlirType> = lp.results().iter().map(|v| v.raw_type()).collect();
    for (a, _) in stores {
        let splat =
            unsafe { mlirDenseElementsAttrSplatGet(a.vector, zero_attr(mlirShapedTypeGetElementType(a.vector))) };
        inits.push(before.val("arith.constant", &[], a.vector, &[("value", splat)]));
        types.push(a.vector);
    }
    let mut arg_types = vec![before.index()];
    arg_types.extend(&types);
    let (region, block) = region_with_block(&arg_types, before.loc);
    let new_loop = before.op("scf.for", &inits, &types, &[], vec![region]);
    let new_args = block_args(block);
    let nold = old_args.len();
    for (old, new) in old_args.iter().zip(&new_args) {
        old.replace_all_uses_with(*new);
    }
    let old_yield = terminator(old_body).ok_or_else(|| bug("scf.for body without a yield"))?;
    let mut yielded = old_yield.operands();
    old_yield.erase();
    move_block_ops(old_body, block);
    for (j, (a, k)) in stores.iter().enumerate() {
        let b = B::before(a.op);
        let value = a.op.operand(0);
        let dest = a.op.operand(1);
        let acc = new_args[nold + j];
        let inserted = b.val(
            "vector.insert",
            &[value, acc, new_args[0]],
            a.vector,
            &[("static_position", dynamic_position(b.ctx))],
        );
        // The tensor passes through the loop unchanged.
        yielded[*k] = dest;
        yielded.push(inserted);
        a.op.erase();
    }
    before.append(block).op("scf.yield", &yielded, &[], &[], vec![]);
    let after = match lp.next() {
        Some(next) => B::before(next),
        None => return Err(bug("scf.for without a successor")),
    };
    let mut results = new_loop.results();
    for (j, (_, k)) in stores.iter().enumerate() {
        let init = inits[3 + *k];
        results[*k] = transfer_write(&after, results[types.len() - stores.len() + j], init, bases[j]);
    }
    results.truncate(types.len() - stores.len());
    replace_op(lp, &results);
    Ok(new_loop)
}

/// Elementwise ops whose vector form is the same op on vectors: on types
/// LLVM has (`xla-expand-narrow-floats` expands f8/f6/f4 conversions on
/// scalars only).
pub(crate) fn elementwise(op: Op) -> bool {
    let name = op.name();
    if let Some(math) = name.strip_prefix("math.") {
        let f32 = op.num_operands() > 0 && unsafe { mlirTypeIsAF32(op.operand(0).raw_type()) };
        let f64 = op.num_operands() > 0 && unsafe { mlirTypeIsAF64(op.operand(0).raw_type()) };
        // `rsqrt` is `1 / sqrt` in the operand's type (narrow floats compute
        // it in f32 as scalars, so they stay scalars).
        let exact = (crate::expand_math::EXACT.contains(&math) && math != "fpowi") || (math == "rsqrt" && (f32 || f64));
        return exact || (f32 && crate::math::IN_HOUSE.contains(&math));
    }
    matches!(
        name.strip_prefix("arith.").unwrap_or(""),
        "addf"
            | "subf"
            | "mulf"
            | "divf"
            | "remf"
            | "negf"
            | "maximumf"
            | "minimumf"
            | "maxnumf"
            | "minnumf"
            | "addi"
            | "subi"
            | "muli"
            | "divsi"
            | "divui"
            | "remsi"
            | "remui"
            | "andi"
            | "ori"
            | "xori"
            | "shli"
            | "shrsi"
            | "shrui"
            | "maxsi"
            | "minsi"
            | "maxui"
            | "minui"
            | "cmpf"
            | "cmpi"
            | "select"
            | "extf"
            | "truncf"
            | "extsi"
            | "extui"
            | "trunci"
            | "sitofp"
            | "uitofp"
            | "fptosi"
            | "fptoui"
            | "bitcast"
    ) && op
        .results()
        .iter()
        .chain(op.operands().iter())
        .all(|v| is_integer(v.raw_type()) || is_llvm_float(v.raw_type()))
}

/// How each op of a lane loop's body relates to the lane.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// Depends on nothing the lane changes: moves before the loop.
    Uniform,
    /// An `xla.apply_indexing` of lane-dependent operands: its results
    /// that do not depend on the lane (through the loop's index chains)
    /// are copied before the loop with the lane at 0; the others feed
    /// only the vectorized accesses (and go with them).
    Index,
    /// A vectorized load (its result is a lane of a vector).
    Load,
    /// A vectorized store.
    Store,
    /// An elementwise op on lane values: the same op on vectors.
    Elementwise,
    /// A reduction's combiner: `acc = op(acc, x)` for a carried `acc`.
    Combine,
}

/// The role of every op of `lp`'s body (its terminator excluded), if the
/// body can run as straight-line vector code: every carried value is a
/// tensor the stores write (or passed through unchanged) or a stored
/// vector, and every op that depends on the lane is a load, a store, an
/// elementwise op or an index computation for them. `load` and `store`
/// recognize the vectorized accesses.
pub(crate) fn lane_roles(
    lp: Op,
    load: &dyn Fn(Op) -> bool,
    store: &dyn Fn(Op) -> bool,
    combine: &dyn Fn(Op) -> bool,
) -> Option<Vec<(Op, Role)>> {
    let body = lp.region_block(0)?;
    let args = block_args(body);
    let iv = args[0];
    let carried = &args[1..];
    let yield_op = terminator(body)?;
    for (k, a) in carried.iter().enumerate() {
        let users = a.users();
        let passed = yield_op.operand(k) == *a && users.len() == 1;
        let stored = users.len() == 1 && store(users[0]) && yield_op.operand(k) == users[0].result(0);
        let combined = users.len() == 1
            && combine(users[0])
            && yield_op.operand(k) == users[0].result(0)
            && users[0].result(0).uses().len() == 1;
        if !passed && !stored && !combined {
            return None;
        }
    }
    let mut varying: Vec<Value> = vec![iv];
    let mut lane_index: Vec<Value> = Vec::new();
    let mut roles = Vec::new();
    for op in block_ops(body) {
        if op == yield_op {
            break;
        }
        let operands = op.operands();
        let role = if load(op) {
            Role::Load
        } else if store(op) {
            Role::Store
        } else if combine(op) {
            if operands.contains(&iv) || operands.iter().any(|v| lane_index.contains(v)) {
                return None;
            }
            Role::Combine
        } else if op.is_named("xla.apply_indexing")
            && operands.iter().any(|v| varying.contains(v) || lane_index.contains(v))
        {
            // Results that do not depend on the lane are uniform; the others
            // may only feed the accesses (checked below).
            let mut c = Composer::in_loop(lp, iv);
            for r in op.results() {
                if r.has_uses() && c.expr(r).is_none_or(|e| e.uses_sym(0)) {
                    lane_index.push(r);
                }
            }
            Role::Index
        } else if operands.iter().any(|v| lane_index.contains(v) || carried.contains(v)) {
            return None;
        } else if operands.iter().any(|v| varying.contains(v)) {
            if !elementwise(op) || operands.contains(&iv) {
                return None;
            }
            Role::Elementwise
        } else {
            if num_regions(op) > 0 || !rxla_ir::op::is_trivially_dead_when_unused(op) {
                return None;
            }
            Role::Uniform
        };
        match role {
            Role::Load | Role::Elementwise => varying.extend(op.results()),
            _ => {}
        }
        roles.push((op, role));
    }
    // Lane indices may only feed the accesses and other index computations.
    for r in &lane_index {
        for user in r.users() {
            let ok = roles.iter().any(|(o, role)| *o == user && matches!(role, Role::Load | Role::Store | Role::Index));
            if !ok {
                return None;
            }
        }
    }
    Some(roles)
}

/// The lane loop `lp` (loads and stores already vector transfers) as
/// straight-line vector code, if [`lane_roles`] allows: lane values
/// become the transferred vectors, elementwise ops the same ops on
/// `vector<lanes x T>` (operands the same in every lane broadcast), the
/// stores' vectors the computed ones; uniform ops move before the loop.
/// Returns false, changing nothing, otherwise.
fn vectorize_body(lp: Op, lanes: i64) -> Result<bool> {
    let body = lp.region_block(0).ok_or_else(|| bug("scf.for without a body"))?;
    let args = block_args(body);
    let iv = args[0];
    let access = LaneAccesses::of(lp, lanes).ok_or_else(|| bug("scf.for without an induction variable"))?;
    let Some(roles) = lane_roles(lp, &|op| access.load(op), &|op| access.store(op), &|_| false) else {
        return Ok(false);
    };
    let b = B::before(lp);
    let mut mapped: Vec<(Value, Value)> = Vec::new();
    let lookup = |mapped: &Vec<(Value, Value)>, v: Value| mapped.iter().find(|(from, _)| *from == v).map(|(_, to)| *to);
    let mut results: Vec<Value> = lp.operands()[3..].to_vec();
    for (op, role) in roles {
        match role {
            Role::Uniform => op.move_before(lp),
            Role::Index => {
                // The accesses no longer use lane indices: what is used
                // is the same in every lane (or feeds only such values).
                let uniform: Vec<Value> = op.results().into_iter().filter(|r| r.has_uses()).collect();
                if uniform.is_empty() {
                    continue;
                }
                let copies = copy_chain(&b, &index_chain(op, lp, iv), Some((iv, b.const_index(0))));
                for r in uniform {
                    if let Some((_, c)) = copies.iter().find(|(from, _)| *from == r) {
                        r.replace_all_uses_with(*c);
                    }
                }
            }
            Role::Load => mapped.push((op.result(0), op.operand(0))),
            Role::Store => {
                let value = op.operand(0);
                let vector = match lookup(&mapped, value) {
                    Some(v) => v,
                    None => b.val("vector.broadcast", &[value], op.result(0).raw_type(), &[]),
                };
                let k = args[1..].iter().position(|a| *a == op.operand(1)).expect("a carried vector");
                results[k] = vector;
            }
            Role::Elementwise => {
                let copy = vector_copy(&b, op, &mapped, lanes);
                mapped.extend(op.results().into_iter().zip(copy.results()));
            }
            Role::Combine => return Err(bug("a lane loop with a reduction combiner")),
        }
    }
    let inits = lp.operands();
    replace_op(lp, &results);
    // The stored vectors' zero initial values, now unused.
    for v in inits {
        if let Some(op) = v.op() {
            if is_vector(v.raw_type()) && op.is_named("arith.constant") && !v.has_uses() {
                op.erase();
            }
        }
    }
    Ok(true)
}

/// A copy of the elementwise op `op` at `b` on `vector<lanes x T>`: its
/// operands the vectors `mapped` gives them, or broadcast (a `select`
/// keeps a scalar condition: one for all lanes).
pub(crate) fn vector_copy(b: &B, op: Op, mapped: &[(Value, Value)], lanes: i64) -> Op {
    let vector_of = |ty: MlirType| vector_type_of(ty, lanes);
    let copy = op.clone_detached();
    for (i, v) in op.operands().into_iter().enumerate() {
        let operand = match mapped.iter().find(|(from, _)| *from == v) {
            Some((_, m)) => *m,
            None if i == 0 && op.is_named("arith.select") => v,
            None => b.val("vector.broadcast", &[v], vector_of(v.raw_type()), &[]),
        };
        copy.set_operand(i, operand);
    }
    b.insert(copy.raw());
    for (r, c) in op.results().into_iter().zip(copy.results()) {
        set_type(c, vector_of(r.raw_type()));
    }
    copy
}

/// The `xla.apply_indexing` ops in `lp` that `op` (one of them) is
/// computed from, in post-order.
pub(crate) fn index_chain(op: Op, lp: Op, iv: Value) -> Vec<Op> {
    let mut c = Composer::in_loop(lp, iv);
    for r in op.results() {
        let _ = c.expr(r);
    }
    c.chain
}
