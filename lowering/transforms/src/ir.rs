//! Building and restructuring upstream-dialect IR from Rust, over the raw
//! MLIR C API (the lowering passes create `scf`, `arith`, `llvm` ... ops,
//! with regions, which `rxla_ir::builder` does not cover).
//!
//! [`Op`] and [`Value`] are `rxla_ir::op`'s handles; [`B`] inserts new
//! ops at one point with one location.

use mlir_sys::*;
pub use rxla_ir::builder::{block_args, region_with_block};
use rxla_ir::builder::{cmpf_predicate, cmpi_predicate, create_detached, OpParts};
pub use rxla_ir::op::{attr_to_string, type_to_string, Op, Value};
use rxla_ir::PassError;

/// A borrowed MLIR string ref of `s` (valid while `s` is).
pub fn string_ref(s: &str) -> MlirStringRef {
    MlirStringRef { data: s.as_ptr() as *const _, length: s.len() }
}

pub type Result<T> = std::result::Result<T, PassError>;

/// An internal error of a lowering pass.
pub fn bug(what: impl Into<String>) -> PassError {
    PassError(format!("internal error: {}", what.into()))
}

/// An error about the input IR.
pub fn error(what: impl Into<String>) -> PassError {
    PassError(what.into())
}

/// An error about `op`: reported at the op's location (so the message
/// names the file, line and column of the source), and returned.
pub fn op_error(op: Op, what: impl Into<String>) -> PassError {
    let what = what.into();
    // SAFETY: the op is live; its location outlives the call.
    let location = unsafe { melior::ir::Location::from_raw(op.location()) };
    rxla_ir::pass::emit_error(location, &what);
    PassError(what)
}

/// Where new ops go.
#[derive(Clone, Copy, Debug)]
pub enum At {
    Before(MlirOperation),
    /// At the end of a block (before its terminator, if it has one).
    End(MlirBlock),
    /// At the end of a block, after everything (for building terminators).
    Append(MlirBlock),
}

/// Inserts ops at one point.
#[derive(Clone, Copy, Debug)]
pub struct B {
    pub ctx: MlirContext,
    pub loc: MlirLocation,
    pub at: At,
}

impl B {
    pub fn before(op: Op) -> B {
        B { ctx: op.context(), loc: op.location(), at: At::Before(op.raw()) }
    }

    pub fn at_end(&self, block: MlirBlock) -> B {
        B { at: At::End(block), ..*self }
    }

    pub fn append(&self, block: MlirBlock) -> B {
        B { at: At::Append(block), ..*self }
    }

    pub fn with_loc(&self, loc: MlirLocation) -> B {
        B { loc, ..*self }
    }

    // ----- types and attributes -----

    pub fn index(&self) -> MlirType {
        unsafe { mlirIndexTypeGet(self.ctx) }
    }

    pub fn int(&self, bits: u32) -> MlirType {
        unsafe { mlirIntegerTypeGet(self.ctx, bits) }
    }

    pub fn ptr(&self) -> MlirType {
        unsafe { mlirLLVMPointerTypeGet(self.ctx, 0) }
    }

    pub fn ptr_in(&self, address_space: u32) -> MlirType {
        unsafe { mlirLLVMPointerTypeGet(self.ctx, address_space) }
    }

    pub fn int_attr(&self, ty: MlirType, value: i64) -> MlirAttribute {
        unsafe { mlirIntegerAttrGet(ty, value) }
    }

    pub fn unit_attr(&self) -> MlirAttribute {
        unsafe { mlirUnitAttrGet(self.ctx) }
    }

    pub fn string_attr(&self, s: &str) -> MlirAttribute {
        unsafe { mlirStringAttrGet(self.ctx, string_ref(s)) }
    }

    pub fn symbol_attr(&self, s: &str) -> MlirAttribute {
        unsafe { mlirFlatSymbolRefAttrGet(self.ctx, string_ref(s)) }
    }

    pub fn type_attr(&self, ty: MlirType) -> MlirAttribute {
        unsafe { mlirTypeAttrGet(ty) }
    }

    pub fn f32(&self) -> MlirType {
        unsafe { mlirF32TypeGet(self.ctx) }
    }

    pub fn f64(&self) -> MlirType {
        unsafe { mlirF64TypeGet(self.ctx) }
    }

    /// `vector<dims x elem>`.
    pub fn vector(&self, dims: &[i64], elem: MlirType) -> MlirType {
        unsafe { mlirVectorTypeGet(dims.len() as isize, dims.as_ptr(), elem) }
    }

    /// `array<i32: ...>`.
    pub fn i32_array(&self, values: &[i32]) -> MlirAttribute {
        rxla_ir::attrs::i32_array(self.ctx, values)
    }

    /// `array<i64: ...>`.
    pub fn i64_array(&self, values: &[i64]) -> MlirAttribute {
        rxla_ir::attrs::dims(self.ctx, values)
    }

    /// `[a, b, ...]`.
    pub fn array_attr(&self, elements: &[MlirAttribute]) -> MlirAttribute {
        rxla_ir::attrs::array(self.ctx, elements)
    }

    /// `{name = value, ...}`.
    pub fn dict_attr(&self, entries: &[(&str, MlirAttribute)]) -> MlirAttribute {
        rxla_ir::attrs::dictionary(self.ctx, entries)
    }

    /// `#llvm.linkage<...>`.
    pub fn linkage(&self, linkage: MlirLLVMLinkage) -> MlirAttribute {
        unsafe { mlirLLVMLinkageAttrGet(self.ctx, linkage) }
    }

    /// `#arith.fastmath<...>` of `mlir::arith::FastMathFlags` bits.
    pub fn fastmath(&self, flags: u32) -> MlirAttribute {
        unsafe { rxla_dialects::ffi::rxlaArithFastMathAttrGet(self.ctx, flags) }
    }

    /// `#arith.overflow<...>` of `mlir::arith::IntegerOverflowFlags` bits.
    pub fn overflow(&self, flags: u32) -> MlirAttribute {
        unsafe { rxla_dialects::ffi::rxlaArithOverflowAttrGet(self.ctx, flags) }
    }

    /// `#vector.kind<kind>`.
    pub fn combining_kind(&self, kind: &str) -> MlirAttribute {
        let attr = unsafe { rxla_dialects::ffi::rxlaVectorCombiningKindAttrGet(self.ctx, string_ref(kind)) };
        assert!(!attr.ptr.is_null(), "internal error: no vector combining kind {kind}");
        attr
    }

    /// `#nvvm<shfl_kind kind>`.
    pub fn shfl_kind(&self, kind: &str) -> MlirAttribute {
        let attr = unsafe { rxla_dialects::ffi::rxlaNVVMShflKindAttrGet(self.ctx, string_ref(kind)) };
        assert!(!attr.ptr.is_null(), "internal error: no shuffle kind {kind}");
        attr
    }

    /// `#llvm.constant_range<iN, lower, upper>` (half-open).
    pub fn constant_range(&self, bits: u32, lower: i64, upper: i64) -> MlirAttribute {
        unsafe { rxla_dialects::ffi::rxlaLLVMConstantRangeAttrGet(self.ctx, bits, lower, upper) }
    }

    // ----- ops -----

    /// Creates `name` with operands, result types, attributes and `regions`
    /// (taken over by the op), inserted at the builder's point.
    pub fn op(
        &self,
        name: &str,
        operands: &[Value],
        results: &[MlirType],
        attrs: &[(&str, MlirAttribute)],
        regions: Vec<MlirRegion>,
    ) -> Op {
        let parts = OpParts { name, operands, results: Some(results), attrs, regions };
        let op = create_detached(self.ctx, self.loc, &parts).unwrap_or_else(|| panic!("could not create {name}"));
        self.insert(op.raw());
        op
    }

    /// A single-result op's result.
    pub fn val(&self, name: &str, operands: &[Value], result: MlirType, attrs: &[(&str, MlirAttribute)]) -> Value {
        self.op(name, operands, &[result], attrs, vec![]).result(0)
    }

    /// Inserts a detached op.
    pub fn insert(&self, op: MlirOperation) {
        unsafe {
            match self.at {
                At::Before(before) => mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before, op),
                At::End(block) => {
                    let term = mlirBlockGetTerminator(block);
                    if term.ptr.is_null() {
                        mlirBlockAppendOwnedOperation(block, op)
                    } else {
                        mlirBlockInsertOwnedOperationBefore(block, term, op)
                    }
                }
                At::Append(block) => mlirBlockAppendOwnedOperation(block, op),
            }
        }
    }

    // ----- common ops -----

    pub fn const_index(&self, v: i64) -> Value {
        let ty = self.index();
        self.val("arith.constant", &[], ty, &[("value", self.int_attr(ty, v))])
    }

    pub fn const_int(&self, ty: MlirType, v: i64) -> Value {
        self.val("arith.constant", &[], ty, &[("value", self.int_attr(ty, v))])
    }

    pub fn const_bool(&self, v: bool) -> Value {
        self.const_int(self.int(1), v as i64)
    }

    /// `arith.constant` of `ty` (a scalar, or a vector or tensor splat)
    /// from one element's literal: `0x...` bits, or a decimal number
    /// (converted from f64 to a float type as MLIR's parser converts it).
    pub fn const_literal(&self, ty: MlirType, literal: &str) -> Value {
        let attr = literal_attr(ty, literal).unwrap_or_else(|| panic!("internal error: bad literal {literal}"));
        self.val("arith.constant", &[], ty, &[("value", attr)])
    }

    /// `arith.cmpi` with predicate `pred` (eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge).
    pub fn cmpi(&self, pred: &str, a: Value, b: Value) -> Value {
        let i64t = self.int(64);
        self.val("arith.cmpi", &[a, b], self.int(1), &[("predicate", self.int_attr(i64t, cmpi_code(pred)))])
    }

    /// `arith.cmpf` with predicate `pred` (oeq, olt, uno, ...).
    pub fn cmpf(&self, pred: &str, a: Value, b: Value) -> Value {
        let i64t = self.int(64);
        self.val("arith.cmpf", &[a, b], self.int(1), &[("predicate", self.int_attr(i64t, cmpf_code(pred)))])
    }

    pub fn and(&self, a: Value, b: Value) -> Value {
        self.val("arith.andi", &[a, b], a.raw_type(), &[])
    }

    /// `arith.index_cast` (index <-> integer).
    pub fn index_cast(&self, v: Value, to: MlirType) -> Value {
        self.val("arith.index_cast", &[v], to, &[])
    }

    /// `scf.yield` at the end of `block`.
    pub fn yield_in(&self, block: MlirBlock, values: &[Value]) -> Op {
        self.append(block).op("scf.yield", values, &[], &[], vec![])
    }
}

/// `arith.cmpi` predicate codes.
pub fn cmpi_code(pred: &str) -> i64 {
    cmpi_predicate(pred).unwrap_or_else(|| panic!("bad cmpi predicate {pred}"))
}

/// `arith.cmpf` predicate codes.
pub fn cmpf_code(pred: &str) -> i64 {
    cmpf_predicate(pred).unwrap_or_else(|| panic!("bad cmpf predicate {pred}"))
}

/// The closed bounds `[lo, hi]` of an `xla.range` attribute (`[lo : index,
/// hi : index]`); `None` for any other attribute or an empty range.
pub fn range_bounds(attr: MlirAttribute) -> Option<(i64, i64)> {
    // SAFETY: a live attribute, only queried.
    let bounds: Vec<i64> = unsafe {
        if !mlirAttributeIsAArray(attr) {
            return None;
        }
        (0..mlirArrayAttrGetNumElements(attr))
            .map(|i| mlirArrayAttrGetElement(attr, i))
            .map(|bound| mlirAttributeIsAInteger(bound).then(|| mlirIntegerAttrGetValueInt(bound)))
            .collect::<Option<_>>()?
    };
    match bounds[..] {
        [lo, hi] if lo <= hi => Some((lo, hi)),
        _ => None,
    }
}

/// `mlir::arith::FastMathFlags` bits.
pub const FASTMATH_REASSOC: u32 = 1;
pub const FASTMATH_CONTRACT: u32 = 32;

/// The bits of an `#arith.fastmath<...>` attribute; `None` for any other.
pub fn fastmath_flags(attr: MlirAttribute) -> Option<u32> {
    let flags = unsafe { rxla_dialects::ffi::rxlaArithFastMathAttrGetFlags(attr) };
    u32::try_from(flags).ok()
}

/// A kernel buffer argument's attributes: aligned to `align` bytes, and
/// `noalias` unless the kernel updates a buffer in place.
pub fn buffer_arg_attrs(b: &B, in_place: bool, align: i64) -> MlirAttribute {
    let align = ("llvm.align", b.int_attr(b.int(64), align));
    if in_place {
        b.dict_attr(&[align])
    } else {
        b.dict_attr(&[("llvm.noalias", b.unit_attr()), align])
    }
}

/// The attribute of a constant of `ty` (a scalar, or a shaped type's
/// splat) whose elements are `literal` ([`B::const_literal`]).
pub fn literal_attr(ty: MlirType, literal: &str) -> Option<MlirAttribute> {
    let shaped = unsafe { mlirTypeIsAShaped(ty) };
    let elem = if shaped { element_type(ty) } else { ty };
    let ctx = unsafe { mlirTypeGetContext(ty) };
    let element = if let Some(hex) = literal.strip_prefix("0x") {
        // Exact bits: one element's bytes as a rank-0 tensor, read back.
        let bits = u64::from_str_radix(hex, 16).ok()?;
        let bytes = bits.to_le_bytes();
        let width = (bit_width(elem) as usize).div_ceil(8);
        let one = rxla_ir::attrs::dense_raw(tensor_type(&[], elem), bytes.get(..width)?)?;
        unsafe { mlirDenseElementsAttrGetSplatValue(one) }
    } else if is_float(elem) {
        unsafe { mlirFloatAttrDoubleGet(ctx, elem, literal.parse::<f64>().ok()?) }
    } else {
        unsafe { mlirIntegerAttrGet(elem, literal.parse::<i64>().ok()?) }
    };
    Some(if shaped { rxla_ir::attrs::dense_splat(ty, element) } else { element })
}

/// The ops of `block`, in order.
pub fn block_ops(block: MlirBlock) -> Vec<Op> {
    let mut out = Vec::new();
    unsafe {
        let mut op = mlirBlockGetFirstOperation(block);
        while !op.ptr.is_null() {
            out.push(Op::from_raw(op));
            op = mlirOperationGetNextInBlock(op);
        }
    }
    out
}

/// Moves every op of `from` to the end of `to` (after its last op).
pub fn move_block_ops(from: MlirBlock, to: MlirBlock) {
    for op in block_ops(from) {
        unsafe {
            mlirOperationRemoveFromParent(op.raw());
            mlirBlockAppendOwnedOperation(to, op.raw());
        }
    }
}

/// Moves every op of `from` right before `before`.
pub fn move_block_ops_before(from: MlirBlock, before: Op) {
    for op in block_ops(from) {
        op.move_before(before);
    }
}

/// The block's terminator, if any.
pub fn terminator(block: MlirBlock) -> Option<Op> {
    let op = unsafe { mlirBlockGetTerminator(block) };
    (!op.ptr.is_null()).then(|| Op::from_raw(op))
}

/// The blocks of region `r` of `op`.
pub fn region_blocks(op: Op, r: usize) -> Vec<MlirBlock> {
    let mut out = Vec::new();
    unsafe {
        let region = mlirOperationGetRegion(op.raw(), r as isize);
        let mut b = mlirRegionGetFirstBlock(region);
        while !b.ptr.is_null() {
            out.push(b);
            b = mlirBlockGetNextInRegion(b);
        }
    }
    out
}

/// Every op nested in `root` (not `root` itself), parents first.
pub fn walk(root: Op) -> Vec<Op> {
    root.walk_preorder().into_iter().skip(1).collect()
}

/// Every op named `name` nested in `root`.
pub fn ops_named(root: Op, name: &str) -> Vec<Op> {
    walk(root).into_iter().filter(|op| op.is_named(name)).collect()
}

/// Replaces every use of `op`'s results with `values` and erases it.
pub fn replace_op(op: Op, values: &[Value]) {
    assert_eq!(op.num_results(), values.len(), "replacing {} with {} values", op.name(), values.len());
    for (i, v) in values.iter().enumerate() {
        op.replace_result_uses(i, *v);
    }
    op.erase();
}

/// Sets the type of a value in place.
pub fn set_type(v: Value, ty: MlirType) {
    unsafe { mlirValueSetType(v.0, ty) }
}

// ----- type queries -----

pub fn is_ranked_tensor(ty: MlirType) -> bool {
    unsafe { mlirTypeIsARankedTensor(ty) }
}

pub fn is_index(ty: MlirType) -> bool {
    unsafe { mlirTypeIsAIndex(ty) }
}

/// `f16`, `bf16`, `f32` or `f64`: the floats LLVM has types for (asked of
/// the type, as printing one is slow).
pub fn is_llvm_float(ty: MlirType) -> bool {
    unsafe { mlirTypeIsAF16(ty) || mlirTypeIsABF16(ty) || mlirTypeIsAF32(ty) || mlirTypeIsAF64(ty) }
}

/// `vector<lanes x elem>`.
pub fn vector_type_of(elem: MlirType, lanes: i64) -> MlirType {
    unsafe { mlirVectorTypeGet(1, [lanes].as_ptr(), elem) }
}

pub fn is_vector(ty: MlirType) -> bool {
    unsafe { mlirTypeIsAVector(ty) }
}

/// Static dimensions of a shaped type.
pub fn shape_of(ty: MlirType) -> Vec<i64> {
    unsafe { (0..mlirShapedTypeGetRank(ty)).map(|i| mlirShapedTypeGetDimSize(ty, i as isize)).collect() }
}

pub fn element_type(ty: MlirType) -> MlirType {
    unsafe { mlirShapedTypeGetElementType(ty) }
}

/// `tensor<dims x elem>`.
pub fn tensor_type(dims: &[i64], elem: MlirType) -> MlirType {
    unsafe { mlirRankedTensorTypeGet(dims.len() as isize, dims.as_ptr(), elem, mlirAttributeGetNull()) }
}

/// Integer or float width in bits (0 for other types).
pub fn bit_width(ty: MlirType) -> u32 {
    unsafe {
        if mlirTypeIsAInteger(ty) {
            mlirIntegerTypeGetWidth(ty)
        } else if mlirTypeIsAFloat(ty) {
            mlirFloatTypeGetWidth(ty)
        } else {
            0
        }
    }
}

pub fn is_integer(ty: MlirType) -> bool {
    unsafe { mlirTypeIsAInteger(ty) }
}

pub fn is_float(ty: MlirType) -> bool {
    unsafe { mlirTypeIsAFloat(ty) }
}

pub fn is_complex(ty: MlirType) -> bool {
    unsafe { mlirTypeIsAComplex(ty) }
}

pub fn complex_element(ty: MlirType) -> MlirType {
    unsafe { mlirComplexTypeGetElementType(ty) }
}

pub fn types_equal(a: MlirType, b: MlirType) -> bool {
    unsafe { mlirTypeEqual(a, b) }
}

/// Bytes an element of `ty` takes in memory (sub-byte types a whole byte,
/// complex numbers two components).
pub fn byte_size(ty: MlirType) -> i64 {
    if is_complex(ty) {
        return 2 * byte_size(complex_element(ty));
    }
    ((bit_width(ty) as i64 + 7) / 8).max(1)
}

/// The type of function `func` (`function_type` attribute).
pub fn function_type(func: Op) -> MlirType {
    unsafe { mlirTypeAttrGetValue(func.attr_raw("function_type").expect("func.func has a type")) }
}

pub fn function_inputs(fty: MlirType) -> Vec<MlirType> {
    unsafe { (0..mlirFunctionTypeGetNumInputs(fty)).map(|i| mlirFunctionTypeGetInput(fty, i)).collect() }
}

pub fn function_results(fty: MlirType) -> Vec<MlirType> {
    unsafe { (0..mlirFunctionTypeGetNumResults(fty)).map(|i| mlirFunctionTypeGetResult(fty, i)).collect() }
}

pub fn make_function_type(ctx: MlirContext, inputs: &[MlirType], results: &[MlirType]) -> MlirType {
    unsafe {
        mlirFunctionTypeGet(ctx, inputs.len() as isize, inputs.as_ptr(), results.len() as isize, results.as_ptr())
    }
}

/// Sets a `func.func`'s type attribute.
pub fn set_function_type(func: Op, ty: MlirType) {
    func.set_attr_raw("function_type", unsafe { mlirTypeAttrGet(ty) });
}

/// The `func.func` ops directly in `module` and in modules nested in it.
pub fn functions(root: Op) -> Vec<Op> {
    walk(root).into_iter().filter(|op| op.is_named("func.func")).collect()
}

/// Number of regions of `op`.
pub fn num_regions(op: Op) -> usize {
    unsafe { mlirOperationGetNumRegions(op.raw()) as usize }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The attributes the builders make are the ones their text parses to
    /// (uniqued: the same pointer), in a context where their dialects are
    /// not loaded yet.
    #[test]
    fn built_attributes_equal_parsed_ones() {
        let context = rxla_dialects::create_context();
        let ctx = context.to_raw();
        let b = B {
            ctx,
            loc: unsafe { mlirLocationUnknownGet(ctx) },
            at: At::End(unsafe { mlirBlockCreate(0, std::ptr::null(), std::ptr::null()) }),
        };
        let overflow = b.overflow(3);
        let kind = b.combining_kind("maxnumf");
        let shfl = b.shfl_kind("down");
        let range = b.constant_range(32, 0, 256);
        let reassoc = b.fastmath(FASTMATH_REASSOC | FASTMATH_CONTRACT);
        let parse = |text: &str| rxla_ir::op::parse_attr(ctx, text).unwrap_or_else(|| panic!("parses: {text}"));
        assert_eq!(overflow.ptr, parse("#arith.overflow<nsw, nuw>").ptr);
        assert_eq!(kind.ptr, parse("#vector.kind<maxnumf>").ptr);
        assert_eq!(shfl.ptr, parse("#nvvm<shfl_kind down>").ptr);
        assert_eq!(range.ptr, parse("#llvm.constant_range<i32, 0, 256>").ptr);
        assert_eq!(reassoc.ptr, parse("#arith.fastmath<reassoc,contract>").ptr);
        assert_eq!(fastmath_flags(reassoc), Some(FASTMATH_REASSOC | FASTMATH_CONTRACT));
        assert_eq!(fastmath_flags(overflow), None);
        let linkage = b.linkage(MlirLLVMLinkage_MlirLLVMLinkageInternal);
        assert_eq!(linkage.ptr, parse("#llvm.linkage<internal>").ptr);
        assert_eq!(buffer_arg_attrs(&b, false, 16).ptr, parse("{llvm.noalias, llvm.align = 16 : i64}").ptr);
        unsafe {
            mlirBlockDestroy(match b.at {
                At::End(block) => block,
                _ => unreachable!(),
            })
        };
    }

    /// Constants from one element's literal: bits, decimals, splats.
    #[test]
    fn literal_attributes_equal_parsed_ones() {
        let context = rxla_dialects::create_context();
        let ctx = context.to_raw();
        let ty = |text: &str| rxla_ir::op::parse_type(ctx, text).expect("type parses");
        let parse = |text: &str| rxla_ir::op::parse_attr(ctx, text).unwrap_or_else(|| panic!("parses: {text}"));
        for (t, literal, text) in [
            ("f32", "1.0", "1.0 : f32"),
            ("f32", "0x7F800000", "0x7F800000 : f32"),
            ("bf16", "0x7F80", "0x7F80 : bf16"),
            ("f16", "0.1", "0.1 : f16"),
            ("i32", "-7", "-7 : i32"),
            ("vector<8xf32>", "0.5", "dense<0.5> : vector<8xf32>"),
            ("vector<4x2xi16>", "0x7FFF", "dense<32767> : vector<4x2xi16>"),
        ] {
            let built = literal_attr(ty(t), literal).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(built.ptr, parse(text).ptr, "{text}");
        }
        assert!(literal_attr(ty("f32"), "one").is_none());
    }
}
