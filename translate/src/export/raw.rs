//! The exporter's view of MLIR IR over the C API: the one place in this
//! crate with `unsafe`. Handles are valid while the module being exported
//! lives; the exporter never mutates it.

use melior::ir::{Attribute, Type};
use mlir_sys::*;

fn string(s: MlirStringRef) -> String {
    if s.data.is_null() {
        return String::new();
    }
    // SAFETY: MLIR string refs point to `length` valid bytes.
    let bytes = unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

fn string_ref(s: &str) -> MlirStringRef {
    MlirStringRef { data: s.as_ptr() as *const _, length: s.len() }
}

/// Printed text of an attribute.
pub fn attr_text(attr: MlirAttribute) -> String {
    // SAFETY: a non-null attribute of a live context.
    unsafe { Attribute::from_raw(attr) }.to_string()
}

#[derive(Clone, Copy, Debug)]
pub struct Op(pub MlirOperation);

impl PartialEq for Op {
    fn eq(&self, other: &Self) -> bool {
        self.0.ptr == other.0.ptr
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Val(pub MlirValue);

#[derive(Clone, Copy, Debug)]
pub struct Block(MlirBlock);

impl Op {
    pub fn key(self) -> usize {
        self.0.ptr as usize
    }

    pub fn name(self) -> String {
        unsafe { string(mlirIdentifierStr(mlirOperationGetName(self.0))) }
    }

    /// An attribute (inherent or discardable) by name.
    pub fn attr(self, name: &str) -> Option<MlirAttribute> {
        let attr = unsafe { mlirOperationGetAttributeByName(self.0, string_ref(name)) };
        (!attr.ptr.is_null()).then_some(attr)
    }

    /// The printed text of attribute `name`.
    pub fn attr_text(self, name: &str) -> Option<String> {
        self.attr(name).map(attr_text)
    }

    pub fn has_attr(self, name: &str) -> bool {
        self.attr(name).is_some()
    }

    pub fn string_attr(self, name: &str) -> Option<String> {
        let attr = self.attr(name)?;
        unsafe { mlirAttributeIsAString(attr).then(|| string(mlirStringAttrGetValue(attr))) }
    }

    /// Entries of a dictionary attribute, values printed.
    pub fn dict_attr(self, name: &str) -> Vec<(String, String)> {
        self.attr(name).map(dict_entries).unwrap_or_default()
    }

    /// Discardable attributes, values printed.
    pub fn discardable_attrs(self) -> Vec<(String, String)> {
        unsafe {
            (0..mlirOperationGetNumDiscardableAttributes(self.0))
                .map(|i| {
                    let named = mlirOperationGetDiscardableAttribute(self.0, i);
                    (string(mlirIdentifierStr(named.name)), attr_text(named.attribute))
                })
                .collect()
        }
    }

    pub fn body_ops(self) -> Vec<Op> {
        match self.entry_block() {
            Some(block) => block.ops(),
            None => Vec::new(),
        }
    }

    pub fn entry_block(self) -> Option<Block> {
        unsafe {
            if mlirOperationGetNumRegions(self.0) == 0 {
                return None;
            }
            let block = mlirRegionGetFirstBlock(mlirOperationGetRegion(self.0, 0));
            (!block.ptr.is_null()).then_some(Block(block))
        }
    }

    /// Per-argument attributes of a func.func (`arg_attrs`).
    pub fn arg_attrs(self) -> Vec<Vec<(String, String)>> {
        let count = self.entry_block().map(|b| b.arguments().len()).unwrap_or(0);
        let mut out = vec![Vec::new(); count];
        if let Some(array) = self.attr("arg_attrs") {
            unsafe {
                if mlirAttributeIsAArray(array) {
                    let n = mlirArrayAttrGetNumElements(array) as usize;
                    for (i, entries) in out.iter_mut().enumerate().take(n) {
                        *entries = dict_entries(mlirArrayAttrGetElement(array, i as isize));
                    }
                }
            }
        }
        out
    }

    pub fn num_results(self) -> usize {
        unsafe { mlirOperationGetNumResults(self.0) as usize }
    }

    pub fn result(self, i: usize) -> Val {
        Val(unsafe { mlirOperationGetResult(self.0, i as isize) })
    }

    pub fn results(self) -> Vec<Val> {
        (0..self.num_results()).map(|i| self.result(i)).collect()
    }

    pub fn operands(self) -> Vec<Val> {
        unsafe { (0..mlirOperationGetNumOperands(self.0)).map(|i| Val(mlirOperationGetOperand(self.0, i))).collect() }
    }

    /// The name of a `loc("name"(...))` location, if the op has one.
    pub fn location_name(self) -> Option<String> {
        unsafe { location_name(mlirOperationGetLocation(self.0)) }
    }
}

unsafe fn location_name(loc: MlirLocation) -> Option<String> {
    unsafe {
        if mlirLocationIsAName(loc) {
            return Some(string(mlirIdentifierStr(mlirLocationNameGetName(loc))));
        }
        if mlirLocationIsAFused(loc) {
            let n = mlirLocationFusedGetNumLocations(loc) as usize;
            let mut locs = vec![MlirLocation { ptr: std::ptr::null() }; n];
            mlirLocationFusedGetLocations(loc, locs.as_mut_ptr());
            return locs.into_iter().find_map(|l| location_name(l));
        }
        None
    }
}

fn dict_entries(dict: MlirAttribute) -> Vec<(String, String)> {
    unsafe {
        if !mlirAttributeIsADictionary(dict) {
            return Vec::new();
        }
        (0..mlirDictionaryAttrGetNumElements(dict))
            .map(|i| {
                let named = mlirDictionaryAttrGetElement(dict, i);
                (string(mlirIdentifierStr(named.name)), attr_text(named.attribute))
            })
            .collect()
    }
}

impl Block {
    pub fn arguments(self) -> Vec<Val> {
        unsafe { (0..mlirBlockGetNumArguments(self.0)).map(|i| Val(mlirBlockGetArgument(self.0, i))).collect() }
    }

    pub fn ops(self) -> Vec<Op> {
        let mut ops = Vec::new();
        unsafe {
            let mut op = mlirBlockGetFirstOperation(self.0);
            while !op.ptr.is_null() {
                ops.push(Op(op));
                op = mlirOperationGetNextInBlock(op);
            }
        }
        ops
    }
}

impl Val {
    pub fn key(self) -> usize {
        self.0.ptr as usize
    }

    pub fn type_text(self) -> String {
        // SAFETY: a live value.
        unsafe { Type::from_raw(mlirValueGetType(self.0)) }.to_string()
    }

    pub fn defining_op(self) -> Option<Op> {
        unsafe { mlirValueIsAOpResult(self.0).then(|| Op(mlirOpResultGetOwner(self.0))) }
    }

    pub fn result_number(self) -> Option<usize> {
        unsafe { mlirValueIsAOpResult(self.0).then(|| mlirOpResultGetResultNumber(self.0) as usize) }
    }

    /// True if some op other than `except` uses the value.
    pub fn has_uses_other_than(self, except: Option<Op>) -> bool {
        unsafe {
            let mut operand = mlirValueGetFirstUse(self.0);
            while !mlirOpOperandIsNull(operand) {
                let owner = Op(mlirOpOperandGetOwner(operand));
                if Some(owner) != except {
                    return true;
                }
                operand = mlirOpOperandGetNextUse(operand);
            }
        }
        false
    }
}
