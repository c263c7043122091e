//! The elemental emitter (XLA's `elemental_hlo_to_mlir.cc`): the scalar
//! value of an HLO instruction at an index, as `arith`/`math`/`complex`/
//! `scf`/`tensor` ops.
//!
//! Index transformations (broadcast, reshape, bitcast, transpose, reverse,
//! slice) apply the op's output-to-input indexing map from `rxla-indexing`
//! to the index and read the operand there; `pad` and `concatenate` add the
//! bounds checks of their maps as `scf.if`; `dynamic-slice`,
//! `dynamic-update-slice` and (canonical) `gather` read their offsets and
//! clamp them; `reduce` and `reduce-window` loop over the reduced elements
//! and call the reducer; `iota` and `constant` need no operands.
//! Elementwise ops map to scalar ops (`scalar_ops.rs`); `map` calls its
//! computation on the operands' elements.
//!
//! Operands are *provided*: computed inline when they belong to the
//! function being emitted, read with `tensor.extract` when they are
//! parameters, taken from the function's arguments when they are injected
//! hero values, and otherwise obtained by calling the function of the
//! subgraph they are a root of. Values are cached per index and region.

use crate::target::Target;
use crate::{
    builder::FuncBuilder,
    fusion::{mlir_elem, mlir_tensor, struct_int, struct_list, Computation, Val},
    kernel::Kernel,
    kernel_ops,
    partitioner::is_inline,
    scalar_ops, EmitError,
};
use rxla_indexing::{output_to_input_indexing, BinOp, Expr, ExprKind};
use rxla_ir::{attrs::Window, op::Value, types::ElementType};
use std::collections::HashMap;

/// Windows of at most this many elements are unrolled by the CPU emitter.
const MAX_UNROLLED_WINDOW: i64 = 27;

/// An index expression without division or remainder: sums and
/// multiples of variables and constants (and their min/max).
fn is_plain(e: &Expr) -> bool {
    match e.kind() {
        ExprKind::Const(_) | ExprKind::Dim(_) | ExprKind::Sym(_) => true,
        ExprKind::Binary(op, a, b) => {
            !matches!(op, BinOp::FloorDiv | BinOp::CeilDiv | BinOp::Mod) && is_plain(a) && is_plain(b)
        }
    }
}

/// Elementwise opcodes (dialect spelling): the result at an index reads
/// every operand at the same index (rank-0 operands are broadcast).
pub fn is_elementwise(opcode: &str) -> bool {
    scalar_ops::UNARY.contains(&opcode) || scalar_ops::NARY.contains(&opcode) || opcode == "map"
}

/// Which function is being emitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Current {
    /// A reducer: parameters are scalars, everything is inline.
    Scalar,
    /// The function of a subgraph.
    Subgraph(usize),
    /// The entry function: every instruction comes from its subgraph's
    /// function (or is injected).
    Entry,
}

/// Emits values of one computation into one function.
pub struct Elemental<'k, 'a, 'c> {
    pub kernel: &'k mut Kernel<'a>,
    pub comp: &'c Computation,
    pub current: Current,
    /// Parameter tensors (or scalars for `Current::Scalar`).
    pub params: Vec<Value>,
    /// Hero values given to the function.
    pub injected: HashMap<usize, Vec<Value>>,
}

impl<'k, 'a, 'c> Elemental<'k, 'a, 'c> {
    pub fn new(
        kernel: &'k mut Kernel<'a>,
        comp: &'c Computation,
        current: Current,
        params: Vec<Value>,
        injected: HashMap<usize, Vec<Value>>,
    ) -> Self {
        Elemental { kernel, comp, current, params, injected }
    }

    fn err(&self, i: usize, message: impl std::fmt::Display) -> EmitError {
        self.kernel.err(format!("`hlo.{}`: {message}", self.comp.instrs[i].opcode))
    }

    /// The element type of a value (HLO spelling) and its kernel-IR type.
    pub fn elem(&self, v: Val) -> ElementType {
        self.comp.ty(v).elem.clone()
    }

    pub fn mlir_ty(&self, v: Val) -> String {
        mlir_elem(&self.comp.ty(v).elem)
    }

    fn key(fb: &FuncBuilder, what: &str, idx: &[Expr]) -> String {
        let parts: Vec<String> = idx.iter().map(|e| fb.simplify(e).to_string()).collect();
        format!("{what}@[{}]", parts.join(";"))
    }

    /// The value of `v` at `idx`.
    pub fn value(&mut self, fb: &mut FuncBuilder, v: Val, idx: &[Expr]) -> Result<Value, EmitError> {
        match v {
            Val::Param(p) => {
                if self.current == Current::Scalar {
                    return Ok(self.params[p]);
                }
                let key = Self::key(fb, &format!("p{p}"), idx);
                if let Some(v) = fb.lookup(&key) {
                    return Ok(v[0]);
                }
                let ids = fb.indices(idx)?;
                let x = fb.extract(self.params[p], &ids);
                fb.remember(key, vec![x]);
                Ok(x)
            }
            Val::Res(i, r) => Ok(self.instr_values(fb, i, idx)?[r]),
        }
    }

    /// All results of instruction `i` at `idx`.
    pub fn instr_values(&mut self, fb: &mut FuncBuilder, i: usize, idx: &[Expr]) -> Result<Vec<Value>, EmitError> {
        if let Some(v) = self.injected.get(&i) {
            return Ok(v.clone());
        }
        if idx.len() != self.comp.instrs[i].results[0].rank() {
            return Err(self.err(
                i,
                format!("read at a rank-{} index but has rank {}", idx.len(), self.comp.instrs[i].results[0].rank()),
            ));
        }
        let key = Self::key(fb, &format!("v{i}"), idx);
        if let Some(v) = fb.lookup(&key) {
            return Ok(v);
        }
        let inline = match self.current {
            Current::Scalar => true,
            Current::Subgraph(s) => is_inline(self.comp, i) || self.kernel.part.of[i] == Some(s),
            Current::Entry => is_inline(self.comp, i),
        };
        let values = if inline { self.emit(fb, i, idx)? } else { self.call_subgraph_of(fb, i, idx)? };
        fb.remember(key, values.clone());
        Ok(values)
    }

    /// Calls the function computing instruction `i` (a subgraph root).
    fn call_subgraph_of(&mut self, fb: &mut FuncBuilder, i: usize, idx: &[Expr]) -> Result<Vec<Value>, EmitError> {
        let s = self
            .kernel
            .part
            .subgraph_of_root(i)
            .ok_or_else(|| self.err(i, "is needed outside its function but is not a subgraph root"))?;
        let sg = self.kernel.part.subgraphs[s].clone();
        let at = self.operand_index_if_plain(fb, i, &sg.roots, idx);
        let at_operand = at.is_some();
        let index = at.unwrap_or_else(|| idx.to_vec());
        let name = self.kernel.request(s, at_operand);
        let (_, result_types) = self.kernel.subgraph_signature(s, at_operand);
        let mut args = self.params.clone();
        args.extend(fb.indices(&index)?);
        for h in &sg.injected {
            let v = self
                .injected
                .get(h)
                .ok_or_else(|| self.err(*h, "its value is needed by a function that does not receive it"))?;
            args.extend(v.iter().cloned());
        }
        let results = kernel_ops::call(fb, &name, &args, &result_types);
        // Remember every root's results.
        let mut k = 0;
        let mut mine = Vec::new();
        for &r in &sg.roots {
            let n = self.comp.instrs[r].results.len();
            let vals = results[k..k + n].to_vec();
            if r == i {
                mine = vals.clone();
            } else {
                let key = Self::key(fb, &format!("v{r}"), idx);
                fb.remember(key, vals);
            }
            k += n;
        }
        Ok(mine)
    }

    /// For a function whose one root `i` is a bitcast or reshape: the
    /// index of its operand for root index `idx`, if that is plain in this
    /// function's variables (no `div` or `mod` left after simplifying).
    /// Calling the function's variant at the operand then costs nothing,
    /// where the function itself would recover the operand index from a
    /// linear one it knows no more of than its range: a reduction grouped
    /// from `[2,28,28,512]` into `[1568,512]` whose row loops walk 2, 28
    /// and 28 rows reads `[r0, r1, r2, col]`, not `(r floordiv 784, ...)`,
    /// and LLVM does not load each element through two address
    /// expressions it cannot prove equal.
    fn operand_index_if_plain(&self, fb: &FuncBuilder, i: usize, roots: &[usize], idx: &[Expr]) -> Option<Vec<Expr>> {
        let ins = &self.comp.instrs[i];
        if roots != [i] || !(ins.is("bitcast") || ins.is("reshape")) || self.comp.ty(ins.operands[0]).dims.is_empty() {
            return None;
        }
        let at = self.operand_index(fb, i, 0, idx).ok()?;
        at.iter().all(is_plain).then_some(at)
    }

    /// The index at which instruction `i` reads operand `slot`, for an
    /// index transformation op.
    fn operand_index(&self, fb: &FuncBuilder, i: usize, slot: usize, idx: &[Expr]) -> Result<Vec<Expr>, EmitError> {
        let desc = self.comp.op_desc(i).ok_or_else(|| self.err(i, "no indexing for this op"))?;
        let indexing = output_to_input_indexing(&desc, 0).map_err(|e| self.err(i, e))?;
        let map =
            indexing.indexing_maps.get(slot).and_then(|m| m.first()).ok_or_else(|| self.err(i, "no operand map"))?;
        if map.map.is_undefined() || map.map.num_symbols() > 0 {
            return Err(self.err(i, "operand map is not a pure index transformation"));
        }
        Ok(map.map.results().iter().map(|e| fb.simplify(&e.replace_dims_and_symbols(idx, &[]))).collect())
    }

    /// Emits instruction `i` at `idx` in the current function.
    fn emit(&mut self, fb: &mut FuncBuilder, i: usize, idx: &[Expr]) -> Result<Vec<Value>, EmitError> {
        let ins = self.comp.instrs[i].clone();
        let opcode = ins.opcode.as_str();
        let out_elem = ins.results[0].elem.clone();
        let out_ty = mlir_elem(&out_elem);
        match opcode {
            "constant" => return Ok(vec![self.constant(fb, i, idx)?]),
            "iota" => {
                let dim = ins.op.int_attr("iota_dimension").unwrap_or(0) as usize;
                let ix = fb.index(&idx[dim])?;
                return Ok(vec![scalar_ops::index_to(fb, &ix, &out_elem).map_err(|m| self.err(i, m))?]);
            }
            "broadcast" | "reshape" | "bitcast" | "transpose" | "reverse" | "slice" | "copy" => {
                let operand_idx = if opcode == "copy" { idx.to_vec() } else { self.operand_index(fb, i, 0, idx)? };
                return Ok(vec![self.value(fb, ins.operands[0], &operand_idx)?]);
            }
            "pad" => return Ok(vec![self.pad(fb, i, idx)?]),
            "concatenate" => return Ok(vec![self.concatenate(fb, i, idx, 0, 0)?]),
            "dynamic_slice" => return Ok(vec![self.dynamic_slice(fb, i, idx)?]),
            "dynamic_update_slice" => return Ok(vec![self.dynamic_update_slice(fb, i, idx)?]),
            "gather" => return Ok(vec![self.gather(fb, i, idx)?]),
            "reduce" => return self.reduce(fb, i, idx),
            "reduce_window" => return self.reduce_window(fb, i, idx),
            "convolution" => return Ok(vec![self.convolution(fb, i, idx)?]),
            "bitcast_convert" if self.comp.ty(ins.operands[0]).rank() != ins.results[0].rank() => {
                return Ok(vec![self.bitcast_convert_resize(fb, i, idx)?]);
            }
            _ => {}
        }
        if !is_elementwise(opcode) {
            return Err(self.err(i, "is not supported by the elemental emitter"));
        }
        let mut args = Vec::new();
        let mut types = Vec::new();
        for v in &ins.operands {
            let operand_idx: Vec<Expr> = if self.comp.ty(*v).dims.is_empty() { Vec::new() } else { idx.to_vec() };
            args.push(self.value(fb, *v, &operand_idx)?);
            types.push(self.elem(*v));
        }
        let _ = out_ty;
        if opcode == "map" {
            // The mapped computation on the operands' elements.
            let name = self.comp.to_apply(i).ok_or_else(|| self.err(i, "no computation"))?;
            let f = self.kernel.scalar_fn(&name)?;
            return Ok(kernel_ops::call(fb, &f.name, &args, &f.result_types));
        }
        scalar_ops::emit(fb, ins.op, opcode, &types, &out_elem, &args).map_err(|m| self.err(i, m)).map(|v| vec![v])
    }

    /// A bitcast-convert between element types of different widths: the
    /// narrow elements are the wide one's bytes in little-endian order
    /// along an extra minor dimension.
    fn bitcast_convert_resize(&mut self, fb: &mut FuncBuilder, i: usize, idx: &[Expr]) -> Result<Value, EmitError> {
        let ins = self.comp.instrs[i].clone();
        let operand = ins.operands[0];
        let (from, to) = (self.elem(operand), ins.results[0].elem.clone());
        if from.is_complex() || to.is_complex() {
            return Err(self.err(i, "complex types are not supported"));
        }
        let (fw, tw) = (from.bit_width(), to.bit_width());
        let (ft, tt) = (mlir_elem(&from), mlir_elem(&to));
        let as_int = |fb: &mut FuncBuilder, v: Value, ty: &str, bits: u32| -> Value {
            if ty.starts_with('i') {
                v
            } else {
                fb.cast("arith.bitcast", v, format!("i{bits}"))
            }
        };
        let from_int = |fb: &mut FuncBuilder, v: Value, ty: &str, _bits: u32| -> Value {
            if ty.starts_with('i') {
                v
            } else {
                fb.cast("arith.bitcast", v, ty)
            }
        };
        if fw > tw {
            // Wide to narrow: element j of the new minor dimension.
            let n = idx.len();
            let x = self.value(fb, operand, &idx[..n - 1])?;
            let xi = as_int(fb, x, &ft, fw);
            let shift = fb.index(&idx[n - 1].mul_const(tw as i64))?;
            let sh = fb.cast("arith.index_cast", shift, format!("i{fw}"));
            let shifted = fb.binary("arith.shrui", xi, sh);
            let t = fb.cast("arith.trunci", shifted, format!("i{tw}"));
            return Ok(from_int(fb, t, &tt, tw));
        }
        // Narrow to wide: combine the minor dimension's elements.
        let k = (tw / fw) as i64;
        let mut acc: Option<Value> = None;
        for j in 0..k {
            let mut at = idx.to_vec();
            at.push(Expr::constant(j));
            let x = self.value(fb, operand, &at)?;
            let xi = as_int(fb, x, &ft, fw);
            let wide = fb.cast("arith.extui", xi, format!("i{tw}"));
            let part = if j == 0 {
                wide
            } else {
                let sh = fb.const_int((j * fw as i64) as i128, format!("i{tw}"));
                fb.binary("arith.shli", wide, sh)
            };
            acc = Some(match acc {
                None => part,
                Some(a) => fb.binary("arith.ori", a, part),
            });
        }
        let acc = acc.ok_or_else(|| self.err(i, "empty bitcast"))?;
        Ok(from_int(fb, acc, &tt, tw))
    }

    /// `arith.constant` of a scalar or splat; a tensor constant read at
    /// the index otherwise.
    fn constant(&mut self, fb: &mut FuncBuilder, i: usize, idx: &[Expr]) -> Result<Value, EmitError> {
        use mlir_sys::*;
        let ins = &self.comp.instrs[i];
        let attr = ins.op.attr_raw("value").ok_or_else(|| self.err(i, "constant without a value"))?;
        let ty = ins.results[0].clone();
        // SAFETY: `attr` is the live constant's; only read.
        unsafe {
            if !mlirAttributeIsADenseElements(attr) {
                return Err(self.err(i, "the value is not a dense elements attribute"));
            }
            if ty.num_elements() == 0 {
                // No element of an empty constant is ever read (the code that
                // would is never reached): any value of the type will do.
                let elem = mlir_elem(&ty.elem);
                return Ok(if ty.elem.is_complex() {
                    let part = mlir_elem(&ElementType::new(elem.trim_start_matches("complex<").trim_end_matches('>')));
                    let z = fb.const_float(0.0, &part);
                    fb.val("complex.create", &[z, z], &elem)
                } else if ty.elem.is_float() {
                    fb.const_float(0.0, &elem)
                } else {
                    fb.const_int(0, &elem)
                });
            }
            if mlirDenseElementsAttrIsSplat(attr) {
                let element = mlirDenseElementsAttrGetSplatValue(attr);
                return scalar_ops::scalar_constant(fb, element, &ty.elem).map_err(|m| self.err(i, m));
            }
            if ty.elem.is_complex() {
                return Err(self.err(i, "non-splat complex constants are not supported"));
            }
            let key = format!("constant-tensor:{i}");
            let tensor = match fb.lookup(&key) {
                Some(v) => v[0],
                None => {
                    // The kernel's tensor type is signless: the same bits
                    // under it.
                    let kernel_ty = fb.ty(&mlir_tensor(&ty));
                    let value = if mlirTypeEqual(mlirAttributeGetType(attr), kernel_ty) {
                        attr
                    } else {
                        let raw = mlirDenseElementsAttrGetRawData(attr);
                        let bytes = dense_raw_size(attr, &ty);
                        mlirDenseElementsAttrRawBufferGet(kernel_ty, bytes, raw)
                    };
                    if value.ptr.is_null() {
                        return Err(self.err(i, "the constant's elements cannot be retyped for the kernel"));
                    }
                    let v = fb.const_attr(value, None);
                    fb.remember(key, vec![v]);
                    v
                }
            };
            let ids = fb.indices(idx)?;
            Ok(fb.extract(tensor, &ids))
        }
    }

    fn pad(&mut self, fb: &mut FuncBuilder, i: usize, idx: &[Expr]) -> Result<Value, EmitError> {
        let ins = self.comp.instrs[i].clone();
        let desc = self.comp.op_desc(i).ok_or_else(|| self.err(i, "bad attributes"))?;
        let indexing = output_to_input_indexing(&desc, 0).map_err(|e| self.err(i, e))?;
        let map = indexing.indexing_maps[0][0].map.clone();
        let padding = self.value(fb, ins.operands[1], &[])?;
        if map.is_known_empty() {
            return Ok(padding);
        }
        let operand_idx: Vec<Expr> = map.results().iter().map(|e| e.replace_dims_and_symbols(idx, &[])).collect();
        let cond = fb.map_constraints(&map, idx, &[])?;
        let operand = ins.operands[0];
        let r = fb.if_then(cond, std::slice::from_ref(&padding), &mut |fb| {
            Ok(vec![self.value(fb, operand, &operand_idx)?])
        })?;
        Ok(r[0])
    }

    /// Operand `k` onwards of a concatenate, the first starting at `offset`
    /// along the concatenated dimension.
    fn concatenate(
        &mut self,
        fb: &mut FuncBuilder,
        i: usize,
        idx: &[Expr],
        k: usize,
        offset: i64,
    ) -> Result<Value, EmitError> {
        let ins = self.comp.instrs[i].clone();
        let dim = ins.op.int_attr("dimension").ok_or_else(|| self.err(i, "no dimension"))? as usize;
        let operand = ins.operands[k];
        let size = self.comp.ty(operand).dims[dim];
        let mut operand_idx = idx.to_vec();
        operand_idx[dim] = idx[dim].sub_const(offset);
        if k + 1 == ins.operands.len() {
            return self.value(fb, operand, &operand_idx);
        }
        let ty = fb.ty(&mlir_elem(&ins.results[0].elem));
        let cond = fb.in_range(&idx[dim], i64::MIN, offset + size - 1)?;
        match cond {
            None => self.value(fb, operand, &operand_idx),
            Some(c) => {
                let r = fb.if_else(c, &[ty], &mut |fb, then| {
                    if then {
                        Ok(vec![self.value(fb, operand, &operand_idx)?])
                    } else {
                        Ok(vec![self.concatenate(fb, i, idx, k + 1, offset + size)?])
                    }
                })?;
                Ok(r[0])
            }
        }
    }

    /// A dynamic offset: the value of scalar `v`, as an index clamped to
    /// `[0, hi]`, registered as an index variable.
    pub fn clamped_offset(&mut self, fb: &mut FuncBuilder, v: Val, hi: i64, at: &[Expr]) -> Result<Expr, EmitError> {
        if hi <= 0 {
            return Ok(Expr::constant(0));
        }
        let raw = self.value(fb, v, at)?;
        let elem = self.elem(v);
        let ix = scalar_ops::to_index(fb, &raw, &elem).map_err(|m| self.kernel.err(m))?;
        let top = fb.index_const(hi);
        let c = if elem.is_unsigned_int() {
            // Unsigned: never below 0, and a u64 at or above 2^63 (a
            // negative index) is beyond the top.
            fb.binary("arith.minui", ix, top)
        } else {
            let zero = fb.index_const(0);
            let lo = fb.binary("arith.maxsi", ix, zero);
            fb.binary("arith.minsi", lo, top)
        };
        Ok(fb.var(c, 0, hi))
    }

    fn dynamic_slice(&mut self, fb: &mut FuncBuilder, i: usize, idx: &[Expr]) -> Result<Value, EmitError> {
        let ins = self.comp.instrs[i].clone();
        let operand = ins.operands[0];
        let dims = self.comp.ty(operand).dims.clone();
        let sizes = ins.results[0].dims.clone();
        let mut operand_idx = Vec::new();
        for d in 0..dims.len() {
            let off = self.clamped_offset(fb, ins.operands[1 + d], dims[d] - sizes[d], &[])?;
            operand_idx.push(idx[d].add(&off));
        }
        self.value(fb, operand, &operand_idx)
    }

    fn dynamic_update_slice(&mut self, fb: &mut FuncBuilder, i: usize, idx: &[Expr]) -> Result<Value, EmitError> {
        let ins = self.comp.instrs[i].clone();
        let (operand, update) = (ins.operands[0], ins.operands[1]);
        let dims = self.comp.ty(operand).dims.clone();
        let upd = self.comp.ty(update).dims.clone();
        let mut update_idx = Vec::new();
        let mut conds = Vec::new();
        for d in 0..dims.len() {
            let off = self.clamped_offset(fb, ins.operands[2 + d], dims[d] - upd[d], &[])?;
            let e = idx[d].sub(&off);
            if let Some(c) = fb.in_range(&e, 0, upd[d] - 1)? {
                conds.push(c);
            }
            update_idx.push(e);
        }
        let ty = fb.ty(&mlir_elem(&ins.results[0].elem));
        if conds.is_empty() {
            return self.value(fb, update, &update_idx);
        }
        let cond = fb.and_all(&conds);
        let idx = idx.to_vec();
        let r = fb.if_else(cond, &[ty], &mut |fb, then| {
            if then {
                Ok(vec![self.value(fb, update, &update_idx)?])
            } else {
                Ok(vec![self.value(fb, operand, &idx)?])
            }
        })?;
        Ok(r[0])
    }

    /// A gather in the canonical form of `gather_simplifier`: indices
    /// `[N, K]`, offset dims `1..=rank(operand)`.
    fn gather(&mut self, fb: &mut FuncBuilder, i: usize, idx: &[Expr]) -> Result<Value, EmitError> {
        let ins = self.comp.instrs[i].clone();
        let (operand, indices) = (ins.operands[0], ins.operands[1]);
        let dims = self.comp.ty(operand).dims.clone();
        let index_dims = self.comp.ty(indices).dims.clone();
        let offset_dims = struct_list(ins.op, "dimension_numbers", "offset_dims");
        let collapsed = struct_list(ins.op, "dimension_numbers", "collapsed_slice_dims");
        let batching = struct_list(ins.op, "dimension_numbers", "operand_batching_dims");
        let start_index_map = struct_list(ins.op, "dimension_numbers", "start_index_map");
        let ivd = struct_int(ins.op, "dimension_numbers", "index_vector_dim").unwrap_or(-1);
        let slice_sizes = ins.op.dims_attr("slice_sizes").unwrap_or_default();
        let canonical = index_dims.len() == 2
            && ivd == 1
            && collapsed.is_empty()
            && batching.is_empty()
            && offset_dims == (1..=dims.len() as i64).collect::<Vec<_>>()
            && start_index_map.len() as i64 == index_dims[1];
        if !canonical {
            return Err(self.err(i, "only gathers in gather_simplifier's canonical form are supported (indices [N, K], offset dims 1..=rank)"));
        }
        let mut operand_idx: Vec<Expr> = idx[1..].to_vec();
        for (k, &d) in start_index_map.iter().enumerate() {
            let d = d as usize;
            let at = [idx[0].clone(), Expr::constant(k as i64)];
            let off = self.clamped_offset(fb, indices, dims[d] - slice_sizes[d], &at)?;
            operand_idx[d] = operand_idx[d].add(&off);
        }
        self.value(fb, operand, &operand_idx)
    }

    /// An elemental reduce: loops over the reduced dimensions.
    fn reduce(&mut self, fb: &mut FuncBuilder, i: usize, idx: &[Expr]) -> Result<Vec<Value>, EmitError> {
        let ins = self.comp.instrs[i].clone();
        let n = ins.operands.len() / 2;
        let reducer_name = self.comp.to_apply(i).ok_or_else(|| self.err(i, "no reducer"))?;
        let reducer = self.kernel.reducer_fn(&reducer_name)?;
        let in_dims = self.comp.ty(ins.operands[0]).dims.clone();
        let reduced = ins.op.dims_attr("dimensions").unwrap_or_default();
        let mut inits = Vec::new();
        for k in 0..n {
            inits.push(self.value(fb, ins.operands[n + k], &[])?);
        }
        // The input index: kept dims from the output index, reduced dims from
        // the loops.
        let mut input_idx: Vec<Option<Expr>> = vec![None; in_dims.len()];
        let mut out_pos = 0;
        for (d, slot) in input_idx.iter_mut().enumerate() {
            if !reduced.contains(&(d as i64)) {
                *slot = Some(idx[out_pos].clone());
                out_pos += 1;
            }
        }
        let loops: Vec<usize> = (0..in_dims.len()).filter(|d| reduced.contains(&(*d as i64))).collect();
        let inputs: Vec<Val> = ins.operands[..n].to_vec();
        self.reduce_loops(fb, &loops, &in_dims, &mut input_idx, &inits, &inputs, &reducer)
    }

    #[allow(clippy::too_many_arguments)]
    fn reduce_loops(
        &mut self,
        fb: &mut FuncBuilder,
        loops: &[usize],
        in_dims: &[i64],
        input_idx: &mut Vec<Option<Expr>>,
        inits: &[Value],
        inputs: &[Val],
        reducer: &crate::kernel::ScalarFn,
    ) -> Result<Vec<Value>, EmitError> {
        let Some((&d, rest)) = loops.split_first() else {
            let idx: Vec<Expr> = input_idx.iter().map(|e| e.clone().unwrap()).collect();
            let mut args: Vec<Value> = inits.to_vec();
            for v in inputs {
                args.push(self.value(fb, *v, &idx)?);
            }
            return Ok(kernel_ops::call(fb, &reducer.name, &args, &reducer.result_types));
        };
        if in_dims[d] == 0 {
            return Ok(inits.to_vec());
        }
        fb.for_loop(0, in_dims[d], 1, inits, &mut |fb, iv, iters| {
            input_idx[d] = Some(iv);
            self.reduce_loops(fb, rest, in_dims, input_idx, iters, inputs, reducer)
        })
    }

    /// An elemental reduce-window: loops over the window; padding and
    /// holes of base dilation are skipped.
    fn reduce_window(&mut self, fb: &mut FuncBuilder, i: usize, idx: &[Expr]) -> Result<Vec<Value>, EmitError> {
        let ins = self.comp.instrs[i].clone();
        let n = ins.operands.len() / 2;
        let reducer_name = self.comp.to_apply(i).ok_or_else(|| self.err(i, "no reducer"))?;
        let reducer = self.kernel.reducer_fn(&reducer_name)?;
        let window = Window::of(ins.op).ok_or_else(|| self.err(i, "no window"))?;
        if window.0.iter().any(|w| w.reversal) {
            return Err(self.err(i, "window reversal is not supported"));
        }
        let in_dims = self.comp.ty(ins.operands[0]).dims.clone();
        let mut inits = Vec::new();
        for k in 0..n {
            inits.push(self.value(fb, ins.operands[n + k], &[])?);
        }
        let inputs: Vec<Val> = ins.operands[..n].to_vec();
        let mut pos: Vec<Expr> = Vec::new();
        self.window_loops(fb, &window, &in_dims, idx, &mut pos, &inits, &inputs, &reducer)
    }

    /// One output element of a convolution: the sum over the kernel's
    /// window positions (outer loops, in order) and its input features
    /// (inner loop) of input times kernel, in f32 for f16/bf16/f32 and f64
    /// for f64 (the order of rxla's reference implementation). Positions in
    /// the padding or between dilated input elements contribute nothing;
    /// feature and batch groups pick the input features or batch of the
    /// output feature's group.
    fn convolution(&mut self, fb: &mut FuncBuilder, i: usize, idx: &[Expr]) -> Result<Value, EmitError> {
        let ins = self.comp.instrs[i].clone();
        let op = ins.op;
        let dn = rxla_ir::attrs::StructAttr::of(op, "dimension_numbers")
            .ok_or_else(|| self.err(i, "no dimension numbers"))?;
        let one = |name: &str| dn.raw(name).and_then(|t| t.trim().parse::<usize>().ok());
        let many = |name: &str| dn.list(name).into_iter().map(|x| x as usize).collect::<Vec<_>>();
        let (Some(ib), Some(ifd), Some(kif), Some(kof), Some(ob), Some(of)) = (
            one("input_batch_dim"),
            one("input_feature_dim"),
            one("kernel_input_feature_dim"),
            one("kernel_output_feature_dim"),
            one("output_batch_dim"),
            one("output_feature_dim"),
        ) else {
            return Err(self.err(i, "incomplete dimension numbers"));
        };
        let (is, ks, os) = (many("input_spatial_dims"), many("kernel_spatial_dims"), many("output_spatial_dims"));
        let (lhs, rhs) = (ins.operands[0], ins.operands[1]);
        let lhs_dims = self.comp.ty(lhs).dims.clone();
        let rhs_dims = self.comp.ty(rhs).dims.clone();
        let result = ins.results[0].elem.clone();
        let acc = ConvAccumulator::of(&result, &self.elem(lhs), &self.elem(rhs)).ok_or_else(|| {
            self.err(
                i,
                format!(
                    "of {} x {} -> {result} is not supported by the elemental emitter",
                    self.elem(lhs),
                    self.elem(rhs)
                ),
            )
        })?;
        let window: Vec<rxla_ir::attrs::WindowDim> = match Window::of(op) {
            Some(w) => w.0,
            None => ks
                .iter()
                .map(|&d| rxla_ir::attrs::WindowDim {
                    size: rhs_dims[d],
                    stride: 1,
                    pad_low: 0,
                    pad_high: 0,
                    lhs_dilation: 1,
                    rhs_dilation: 1,
                    reversal: false,
                })
                .collect(),
        };
        if window.len() != is.len() || ks.len() != is.len() || os.len() != is.len() {
            return Err(self.err(i, "window and spatial dimensions disagree"));
        }
        let fgc = op.int_attr("feature_group_count").unwrap_or(1).max(1);
        let bgc = op.int_attr("batch_group_count").unwrap_or(1).max(1);
        let ci = rhs_dims[kif];
        let og = (rhs_dims[kof] / (fgc * bgc)).max(1);
        let n_out = ins.results[0].dims[ob];
        // The output feature's group.
        let group = fb.simplify(&idx[of].floor_div_const(og));
        let batch = if bgc > 1 { fb.simplify(&group.mul_const(n_out).add(&idx[ob])) } else { idx[ob].clone() };
        let feature_base = if fgc > 1 { group.mul_const(ci) } else { Expr::zero() };
        let geometry = ConvGeometry {
            lhs,
            rhs,
            lhs_rank: lhs_dims.len(),
            rhs_rank: rhs_dims.len(),
            in_dims: is.iter().map(|&d| lhs_dims[d]).collect(),
            ib,
            ifd,
            is,
            kif,
            kof,
            ks,
            batch,
            feature_base,
            feature: idx[of].clone(),
            out: os.iter().map(|&d| idx[d].clone()).collect(),
            window,
            ci,
            acc,
        };
        let zero = geometry.acc.zero(fb);
        let mut pos = Vec::new();
        let sum = self.conv_loops(fb, &geometry, &mut pos, &zero)?;
        geometry.acc.finish(fb, &sum).map_err(|e| self.err(i, e))
    }

    fn conv_loops(
        &mut self,
        fb: &mut FuncBuilder,
        g: &ConvGeometry,
        pos: &mut Vec<Expr>,
        acc: &Value,
    ) -> Result<Value, EmitError> {
        let d = pos.len();
        if d < g.window.len() {
            let size = g.window[d].size;
            if size <= 0 {
                return Ok(*acc);
            }
            let r = fb.for_loop(0, size, 1, &[*acc], &mut |fb, iv, iters| {
                pos.push(iv);
                let r = self.conv_loops(fb, g, pos, &iters[0]);
                pos.pop();
                Ok(vec![r?])
            })?;
            return Ok(r[0]);
        }
        // The input position of each window position, and whether it is a
        // real input element.
        let mut conds = Vec::new();
        let mut in_pos = Vec::new();
        for (k, w) in g.window.iter().enumerate() {
            let p =
                fb.simplify(&g.out[k].mul_const(w.stride).add(&pos[k].mul_const(w.rhs_dilation)).sub_const(w.pad_low));
            if let Some(c) = fb.in_range(&p, 0, (g.in_dims[k] - 1) * w.lhs_dilation)? {
                conds.push(c);
            }
            if w.lhs_dilation > 1 {
                let m = fb.simplify(&p.modulo_const(w.lhs_dilation));
                if let Some(c) = fb.in_range(&m, 0, 0)? {
                    conds.push(c);
                }
                in_pos.push(fb.simplify(&p.floor_div_const(w.lhs_dilation)));
            } else {
                in_pos.push(p);
            }
        }
        let cond = if conds.is_empty() { None } else { Some(fb.and_all(&conds)) };
        let r = fb.if_then(cond, &[*acc], &mut |fb| {
            let r = fb.for_loop(0, g.ci, 1, &[*acc], &mut |fb, c, iters| {
                let mut lhs_idx = vec![Expr::zero(); g.lhs_rank];
                lhs_idx[g.ib] = g.batch.clone();
                lhs_idx[g.ifd] = fb.simplify(&g.feature_base.add(&c));
                let mut rhs_idx = vec![Expr::zero(); g.rhs_rank];
                rhs_idx[g.kif] = c.clone();
                rhs_idx[g.kof] = g.feature.clone();
                for (k, w) in g.window.iter().enumerate() {
                    lhs_idx[g.is[k]] = in_pos[k].clone();
                    rhs_idx[g.ks[k]] =
                        if w.reversal { fb.simplify(&Expr::constant(w.size - 1).sub(&pos[k])) } else { pos[k].clone() };
                }
                let x = self.value(fb, g.lhs, &lhs_idx)?;
                let y = self.value(fb, g.rhs, &rhs_idx)?;
                let x = g.acc.operand(fb, &x, &self.elem(g.lhs)).map_err(|e| EmitError::new("convolution", e))?;
                let y = g.acc.operand(fb, &y, &self.elem(g.rhs)).map_err(|e| EmitError::new("convolution", e))?;
                Ok(vec![g.acc.multiply_add(fb, &iters[0], &x, &y)])
            })?;
            Ok(r)
        })?;
        Ok(r[0])
    }

    #[allow(clippy::too_many_arguments)]
    fn window_loops(
        &mut self,
        fb: &mut FuncBuilder,
        window: &Window,
        in_dims: &[i64],
        out_idx: &[Expr],
        pos: &mut Vec<Expr>,
        inits: &[Value],
        inputs: &[Val],
        reducer: &crate::kernel::ScalarFn,
    ) -> Result<Vec<Value>, EmitError> {
        let d = pos.len();
        if d == in_dims.len() {
            // Position in the padded, base-dilated input.
            let mut conds = Vec::new();
            let mut idx = Vec::new();
            for (k, w) in window.0.iter().enumerate() {
                let p = out_idx[k].mul_const(w.stride).add(&pos[k].mul_const(w.rhs_dilation)).sub_const(w.pad_low);
                let p = fb.simplify(&p);
                let last = (in_dims[k] - 1) * w.lhs_dilation;
                if let Some(c) = fb.in_range(&p, 0, last)? {
                    conds.push(c);
                }
                if w.lhs_dilation > 1 {
                    let m = fb.simplify(&p.modulo_const(w.lhs_dilation));
                    if let Some(c) = fb.in_range(&m, 0, 0)? {
                        conds.push(c);
                    }
                    idx.push(p.floor_div_const(w.lhs_dilation));
                } else {
                    idx.push(p);
                }
            }
            let accs: Vec<Value> = inits.to_vec();
            let cond = if conds.is_empty() { None } else { Some(fb.and_all(&conds)) };
            if let (Some(c), Target::Cpu(_)) = (cond, &self.kernel.target) {
                // Branch free on CPUs: read at the index clamped into the
                // input (always valid), reduce, and keep the old
                // accumulator where the position is padding. Every output
                // element then runs the same straight-line code, which
                // LLVM vectorizes across adjacent outputs.
                let clamped: Vec<Expr> = idx
                    .iter()
                    .zip(in_dims)
                    .map(|(e, &n)| fb.simplify(&e.maximum(&Expr::zero()).minimum(&Expr::constant(n - 1))))
                    .collect();
                let mut args = accs.clone();
                for v in inputs {
                    args.push(self.value(fb, *v, &clamped)?);
                }
                let new = kernel_ops::call(fb, &reducer.name, &args, &reducer.result_types);
                return Ok(new.iter().zip(&accs).map(|(&n, &o)| fb.select(c, n, o)).collect());
            }
            return fb.if_then(cond, &accs, &mut |fb| {
                let mut args = accs.clone();
                for v in inputs {
                    args.push(self.value(fb, *v, &idx)?);
                }
                Ok(kernel_ops::call(fb, &reducer.name, &args, &reducer.result_types))
            });
        }
        let size = window.0[d].size;
        if size == 0 {
            return Ok(inits.to_vec());
        }
        // Small windows (pooling) are unrolled on the CPU, where LLVM's
        // unroller is off: straight-line code per output, which LLVM
        // vectorizes across adjacent outputs. (On GPUs LLVM unrolls.)
        let elements: i64 = window.0.iter().map(|w| w.size).product();
        let unroll = matches!(self.kernel.target, Target::Cpu(_)) && elements <= MAX_UNROLLED_WINDOW;
        let emit_loop = if unroll { FuncBuilder::unrolled_loop } else { FuncBuilder::for_loop };
        emit_loop(fb, 0, size, 1, inits, &mut |fb, iv, iters| {
            pos.push(iv);
            let r = self.window_loops(fb, window, in_dims, out_idx, pos, iters, inputs, reducer);
            pos.pop();
            r
        })
    }
}

/// What the loops of an elemental convolution need (see
/// `Elemental::convolution`).
struct ConvGeometry {
    lhs: Val,
    rhs: Val,
    lhs_rank: usize,
    rhs_rank: usize,
    /// Input spatial sizes.
    in_dims: Vec<i64>,
    ib: usize,
    ifd: usize,
    is: Vec<usize>,
    kif: usize,
    kof: usize,
    ks: Vec<usize>,
    /// The input batch and first input feature the output element reads.
    batch: Expr,
    feature_base: Expr,
    /// The output feature (the kernel's output feature index).
    feature: Expr,
    /// The output spatial position.
    out: Vec<Expr>,
    window: Vec<rxla_ir::attrs::WindowDim>,
    /// Input features per group.
    ci: i64,
    acc: ConvAccumulator,
}

/// Whether the elemental emitter computes a convolution of `lhs x rhs ->
/// result` element types (the rest run in the runtime library).
pub fn computes_convolution(result: &ElementType, lhs: &ElementType, rhs: &ElementType) -> bool {
    ConvAccumulator::of(result, lhs, rhs).is_some()
}

/// How a convolution's products are accumulated, with the runtime
/// library's rules (`rxla_library::convert`, the interpreter's): floats in
/// f32 (f64 for f64 results), complex numbers in their own type, integers
/// wrapping in i32 (i64 for 64-bit results); an operand of another type
/// than the result is first converted to the result type, except that
/// integer operands of integer results keep their value (the final wrap
/// gives the same bits).
struct ConvAccumulator {
    /// The result's element type.
    result: ElementType,
    /// The accumulator's kernel-IR type.
    ty: String,
    kind: AccKind,
}

#[derive(Clone, Copy, PartialEq)]
enum AccKind {
    Float,
    Complex,
    Integer,
}

impl ConvAccumulator {
    /// The accumulator of `lhs x rhs -> result`, if the emitter computes
    /// it (`pred` results, f8/f6/f4 formats and complex operands of real
    /// results stay with the library).
    fn of(result: &ElementType, lhs: &ElementType, rhs: &ElementType) -> Option<ConvAccumulator> {
        let wide_float = |t: &ElementType| matches!(t.0.as_str(), "f16" | "bf16" | "f32" | "f64");
        let (ty, kind) = if wide_float(result) {
            if !wide_float(lhs) || !wide_float(rhs) {
                return None;
            }
            (if result.0 == "f64" { "f64" } else { "f32" }.to_string(), AccKind::Float)
        } else if result.is_complex() {
            if lhs != result || rhs != result {
                return None;
            }
            (result.0.clone(), AccKind::Complex)
        } else if result.is_integer() && result.bit_width() >= 8 {
            let int = |t: &ElementType| t.is_integer() && t.bit_width() >= 8;
            if !int(lhs) || !int(rhs) {
                return None;
            }
            (if result.bit_width() == 64 { "i64" } else { "i32" }.to_string(), AccKind::Integer)
        } else {
            return None;
        };
        Some(ConvAccumulator { result: result.clone(), ty, kind })
    }

    fn zero(&self, fb: &mut FuncBuilder) -> Value {
        match self.kind {
            AccKind::Float => fb.const_float(0.0, &self.ty),
            AccKind::Integer => fb.const_int(0, &self.ty),
            AccKind::Complex => {
                let part = if self.ty == "complex<f64>" { "f64" } else { "f32" };
                let z = fb.const_float(0.0, part);
                fb.val("complex.create", &[z, z], &self.ty)
            }
        }
    }

    /// The accumulator's type (integers as signed: wrapping makes the
    /// signedness irrelevant to the sum).
    fn acc_type(&self) -> ElementType {
        ElementType::new(&self.ty)
    }

    /// An operand element of type `elem` as an accumulator value.
    fn operand(&self, fb: &mut FuncBuilder, x: &Value, elem: &ElementType) -> Result<Value, String> {
        match self.kind {
            AccKind::Complex => Ok(*x),
            // Integers keep their value: extended by their own signedness.
            AccKind::Integer => scalar_ops::convert(fb, x, elem, &self.acc_type()),
            AccKind::Float => {
                let x = scalar_ops::convert(fb, x, elem, &self.result)?;
                scalar_ops::convert(fb, &x, &self.result, &self.acc_type())
            }
        }
    }

    /// `acc + x * y`.
    fn multiply_add(&self, fb: &mut FuncBuilder, acc: &Value, x: &Value, y: &Value) -> Value {
        let (mul, add) = match self.kind {
            AccKind::Float => ("arith.mulf", "arith.addf"),
            AccKind::Integer => ("arith.muli", "arith.addi"),
            AccKind::Complex => ("complex.mul", "complex.add"),
        };
        let m = fb.binary(mul, *x, *y);
        fb.binary(add, *acc, m)
    }

    /// The sum as the result type (rounded once; integers wrap).
    fn finish(&self, fb: &mut FuncBuilder, sum: &Value) -> Result<Value, String> {
        match self.kind {
            AccKind::Complex => Ok(*sum),
            AccKind::Float | AccKind::Integer => scalar_ops::convert(fb, sum, &self.acc_type(), &self.result),
        }
    }
}

/// The size in bytes of a non-splat dense attribute's raw data, for
/// integer element types (the ones retyped: unsigned to signless).
fn dense_raw_size(_attr: mlir_sys::MlirAttribute, ty: &rxla_ir::TensorType) -> usize {
    ty.num_elements() as usize * (ty.elem.bit_width() as usize).div_ceil(8)
}
