//! IR queries and mutations that melior exposes only partly, over the raw
//! MLIR C API. This is the one place in `passes/` with `unsafe`.
//!
//! [`Op`] is a copyable handle to an operation. Like MLIR's `Operation *` it
//! is valid while the operation is alive: never use one after [`Op::erase`]
//! of it (or of an ancestor).

use melior::ir::{operation::OperationLike, OperationRef};
use mlir_sys::{
    mlirArrayAttrGetElement, mlirArrayAttrGetNumElements, mlirAttributeIsAArray,
    mlirAttributeIsAFlatSymbolRef, mlirAttributeIsAString, mlirBlockGetFirstOperation,
    mlirBlockGetNextInRegion, mlirFlatSymbolRefAttrGetValue, mlirIdentifierStr,
    mlirOpOperandIsNull, mlirOperationDestroy, mlirOperationGetAttribute,
    mlirOperationGetAttributeByName, mlirOperationGetName, mlirOperationGetNextInBlock,
    mlirOperationGetNumAttributes, mlirOperationGetNumOperands, mlirOperationGetNumRegions,
    mlirOperationGetNumResults, mlirOperationGetOperand, mlirOperationGetRegion,
    mlirOperationGetResult, mlirOperationRemoveFromParent,
    mlirRegionGetFirstBlock, mlirStringAttrGetValue, mlirValueGetFirstUse,
    mlirValueReplaceAllUsesOfWith, MlirAttribute, MlirOperation, MlirStringRef, MlirValue,
};

fn string(s: MlirStringRef) -> String {
    if s.data.is_null() {
        return String::new();
    }
    // SAFETY: MLIR string refs point to `length` valid bytes.
    let bytes = unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// A handle to a live operation (compared and hashed by address).
#[derive(Clone, Copy, Debug)]
pub struct Op(MlirOperation);

impl PartialEq for Op {
    fn eq(&self, other: &Self) -> bool {
        self.0.ptr == other.0.ptr
    }
}
impl Eq for Op {}
impl std::hash::Hash for Op {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.0.ptr as usize).hash(state)
    }
}

/// A handle to an SSA value.
#[derive(Clone, Copy, Debug)]
pub struct Value(pub MlirValue);

impl Op {
    /// The handle of a melior operation reference.
    pub fn of<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Self {
        Op(op.to_raw())
    }

    /// The raw C API handle.
    pub fn raw(self) -> MlirOperation {
        self.0
    }

    /// A melior reference, for melior's typed APIs.
    ///
    /// # Safety
    /// The caller picks lifetimes no longer than the operation lives.
    pub unsafe fn as_ref<'c, 'a>(self) -> OperationRef<'c, 'a> {
        unsafe { OperationRef::from_raw(self.0) }
    }

    /// The op's name, e.g. `hlo.add`.
    pub fn name(self) -> String {
        // SAFETY: live operation (type invariant).
        unsafe { string(mlirIdentifierStr(mlirOperationGetName(self.0))) }
    }

    /// Number of operands.
    pub fn num_operands(self) -> usize {
        unsafe { mlirOperationGetNumOperands(self.0) as usize }
    }

    /// Operand `i` (panics if out of range: callers check num_operands).
    pub fn operand(self, i: usize) -> Value {
        assert!(i < self.num_operands());
        Value(unsafe { mlirOperationGetOperand(self.0, i as isize) })
    }

    /// Number of results.
    pub fn num_results(self) -> usize {
        unsafe { mlirOperationGetNumResults(self.0) as usize }
    }

    /// Result `i` (panics if out of range).
    pub fn result(self, i: usize) -> Value {
        assert!(i < self.num_results());
        Value(unsafe { mlirOperationGetResult(self.0, i as isize) })
    }

    /// True if any result is used.
    pub fn has_uses(self) -> bool {
        (0..self.num_results()).any(|i| self.result(i).has_uses())
    }

    /// The operations of every block of every region, in order, not nested.
    pub fn body_ops(self) -> Vec<Op> {
        let mut ops = Vec::new();
        unsafe {
            for r in 0..mlirOperationGetNumRegions(self.0) {
                let region = mlirOperationGetRegion(self.0, r);
                let mut block = mlirRegionGetFirstBlock(region);
                while !block.ptr.is_null() {
                    let mut op = mlirBlockGetFirstOperation(block);
                    while !op.ptr.is_null() {
                        ops.push(Op(op));
                        op = mlirOperationGetNextInBlock(op);
                    }
                    block = mlirBlockGetNextInRegion(block);
                }
            }
        }
        ops
    }

    /// This op and every op nested in it, parents before children.
    pub fn walk_preorder(self) -> Vec<Op> {
        let mut out = vec![self];
        let mut i = 0;
        while i < out.len() {
            let children = out[i].body_ops();
            out.extend(children);
            i += 1;
        }
        out
    }

    /// A string attribute by name (e.g. `sym_name`).
    pub fn string_attr(self, name: &str) -> Option<String> {
        let attr = self.attr(name)?;
        unsafe { mlirAttributeIsAString(attr).then(|| string(mlirStringAttrGetValue(attr))) }
    }

    /// True if the op has an attribute `name`.
    pub fn has_attr(self, name: &str) -> bool {
        self.attr(name).is_some()
    }

    fn attr(self, name: &str) -> Option<MlirAttribute> {
        let name_ref = MlirStringRef { data: name.as_ptr() as *const _, length: name.len() };
        let attr = unsafe { mlirOperationGetAttributeByName(self.0, name_ref) };
        (!attr.ptr.is_null()).then_some(attr)
    }

    /// The symbols this op references through flat symbol reference
    /// attributes (also inside array attributes): its callees.
    pub fn symbol_uses(self) -> Vec<String> {
        fn collect(attr: MlirAttribute, out: &mut Vec<String>) {
            unsafe {
                if mlirAttributeIsAFlatSymbolRef(attr) {
                    out.push(string(mlirFlatSymbolRefAttrGetValue(attr)));
                } else if mlirAttributeIsAArray(attr) {
                    for i in 0..mlirArrayAttrGetNumElements(attr) {
                        collect(mlirArrayAttrGetElement(attr, i), out);
                    }
                }
            }
        }
        let mut out = Vec::new();
        unsafe {
            for i in 0..mlirOperationGetNumAttributes(self.0) {
                collect(mlirOperationGetAttribute(self.0, i).attribute, &mut out);
            }
        }
        out
    }

    /// Replaces every use of result `i` with `value`.
    pub fn replace_result_uses(self, i: usize, value: Value) {
        unsafe { mlirValueReplaceAllUsesOfWith(self.result(i).0, value.0) }
    }

    /// Unlinks and destroys the op. Its results must be unused.
    pub fn erase(self) {
        debug_assert!(!self.has_uses(), "erasing {} with live uses", self.name());
        unsafe {
            mlirOperationRemoveFromParent(self.0);
            mlirOperationDestroy(self.0);
        }
    }

    /// The op defining `value`, if it is an op result.
    pub fn defining(value: Value) -> Option<Op> {
        let op = unsafe { mlir_sys::mlirOpResultGetOwner(value.0) };
        (unsafe { mlir_sys::mlirValueIsAOpResult(value.0) } && !op.ptr.is_null())
            .then_some(Op(op))
    }
}

impl Value {
    /// True if the value has at least one use.
    pub fn has_uses(self) -> bool {
        unsafe { !mlirOpOperandIsNull(mlirValueGetFirstUse(self.0)) }
    }

    /// True if both handles name the same SSA value.
    pub fn same_as(self, other: Value) -> bool {
        unsafe { mlir_sys::mlirValueEqual(self.0, other.0) }
    }

    /// For an op result, its index among the owner's results.
    pub fn result_number(self) -> Option<usize> {
        unsafe {
            mlir_sys::mlirValueIsAOpResult(self.0)
                .then(|| mlir_sys::mlirOpResultGetResultNumber(self.0) as usize)
        }
    }
}

/// Whether MLIR considers `op` removable when unused (no memory effects).
pub fn is_trivially_dead_when_unused(op: Op) -> bool {
    // SAFETY: live operation.
    rxla_dialects::is_trivially_dead(unsafe { &op.as_ref() })
}
