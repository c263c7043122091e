//! IR queries and mutations that melior exposes only partly, over the raw
//! MLIR C API. This is the one place in `passes/` with `unsafe`.
//!
//! [`Op`] is a copyable handle to an operation. Like MLIR's `Operation *` it
//! is valid while the operation is alive: never use one after [`Op::erase`]
//! of it (or of an ancestor).

use crate::types::HloType;
use melior::ir::{operation::OperationLike, OperationRef};
use mlir_sys::*;

/// A Rust string of an MLIR string ref.
pub fn string(s: MlirStringRef) -> String {
    if s.data.is_null() {
        return String::new();
    }
    // SAFETY: MLIR string refs point to `length` valid bytes.
    let bytes = unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// A borrowed MLIR string ref of `s` (valid while `s` is).
pub fn string_ref(s: &str) -> MlirStringRef {
    MlirStringRef { data: s.as_ptr() as *const _, length: s.len() }
}

/// Collects what an MLIR print callback writes.
pub(crate) unsafe extern "C" fn print_to_string(text: MlirStringRef, data: *mut std::ffi::c_void) {
    let out = unsafe { &mut *(data as *mut String) };
    out.push_str(&string(text));
}

/// The printed text of an attribute.
pub fn attr_to_string(attr: MlirAttribute) -> String {
    let mut out = String::new();
    unsafe { mlirAttributePrint(attr, Some(print_to_string), &mut out as *mut String as *mut _) };
    out
}

/// The printed text of a type.
pub fn type_to_string(ty: MlirType) -> String {
    let mut out = String::new();
    unsafe { mlirTypePrint(ty, Some(print_to_string), &mut out as *mut String as *mut _) };
    out
}

/// Parses an attribute in `context`; `None` if the text is not one.
pub fn parse_attr(context: MlirContext, text: &str) -> Option<MlirAttribute> {
    let attr = unsafe { mlirAttributeParseGet(context, string_ref(text)) };
    (!attr.ptr.is_null()).then_some(attr)
}

/// Parses a type in `context`; `None` if the text is not one.
pub fn parse_type(context: MlirContext, text: &str) -> Option<MlirType> {
    let ty = unsafe { mlirTypeParseGet(context, string_ref(text)) };
    (!ty.ptr.is_null()).then_some(ty)
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

    /// The handle of a raw live operation.
    pub fn from_raw(raw: MlirOperation) -> Self {
        Op(raw)
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

    /// The op's name, e.g. `hlo.add`, without copying it.
    pub fn name_str(&self) -> &str {
        std::str::from_utf8(self.name_bytes()).unwrap_or_default()
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

    /// A bool attribute by name (`None` if absent or not a bool).
    pub fn bool_attr(self, name: &str) -> Option<bool> {
        let attr = self.attr(name)?;
        unsafe { mlirAttributeIsABool(attr).then(|| mlirBoolAttrGetValue(attr)) }
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

    /// Every attribute, inherent and discardable, sorted by name: the
    /// elements of the op's attribute dictionary, read without building it
    /// (see `rxla_dialects::named_attrs`).
    pub fn named_attrs(self) -> Vec<MlirNamedAttribute> {
        // SAFETY: a live op; its attributes are uniqued in the context.
        unsafe { rxla_dialects::named_attrs(self.0) }
    }

    /// Every attribute as (name, attribute), sorted by name.
    pub fn attrs_raw(self) -> Vec<(String, MlirAttribute)> {
        self.named_attrs()
            .into_iter()
            .map(|named| (string(unsafe { mlirIdentifierStr(named.name) }), named.attribute))
            .collect()
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
        for named in self.named_attrs() {
            collect(named.attribute, &mut out);
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

    /// The MLIR context the op lives in.
    pub fn context(self) -> MlirContext {
        unsafe { mlirOperationGetContext(self.0) }
    }

    /// The op's location.
    pub fn location(self) -> MlirLocation {
        unsafe { mlirOperationGetLocation(self.0) }
    }

    /// The op's name without the dialect prefix (`add` for `hlo.add`).
    pub fn opcode(self) -> String {
        let name = self.name();
        match name.split_once('.') {
            Some((_, rest)) => rest.to_string(),
            None => name,
        }
    }

    /// True if the op is `hlo.<opcode>`.
    pub fn is(self, opcode: &str) -> bool {
        self.name_bytes().strip_prefix(b"hlo.") == Some(opcode.as_bytes())
    }

    /// True if the op's full name is `name` (`func.return`, `hlo.add`).
    pub fn is_named(self, name: &str) -> bool {
        self.name_bytes() == name.as_bytes()
    }

    /// The op's name without copying it (hot in pass loops).
    fn name_bytes(&self) -> &[u8] {
        // SAFETY: op names are interned in the context and outlive the op;
        // the slice does not outlive `self`'s borrow.
        unsafe {
            let s = mlirIdentifierStr(mlirOperationGetName(self.0));
            if s.data.is_null() {
                return &[];
            }
            std::slice::from_raw_parts(s.data as *const u8, s.length)
        }
    }

    /// All operands.
    pub fn operands(self) -> Vec<Value> {
        (0..self.num_operands()).map(|i| self.operand(i)).collect()
    }

    /// All results.
    pub fn results(self) -> Vec<Value> {
        (0..self.num_results()).map(|i| self.result(i)).collect()
    }

    /// The type of result `i`.
    pub fn result_type(self, i: usize) -> HloType {
        self.result(i).ty()
    }

    /// The type of operand `i`.
    pub fn operand_type(self, i: usize) -> HloType {
        self.operand(i).ty()
    }

    /// The raw attribute `name` (inherent or discardable).
    pub fn attr_raw(self, name: &str) -> Option<MlirAttribute> {
        self.attr(name)
    }

    /// The printed text of attribute `name`.
    pub fn attr_text(self, name: &str) -> Option<String> {
        self.attr(name).map(attr_to_string)
    }

    /// A `DenseI64ArrayAttr` (`array<i64: ...>`) by name.
    pub fn dims_attr(self, name: &str) -> Option<Vec<i64>> {
        let attr = self.attr(name)?;
        unsafe {
            if !mlirAttributeIsADenseI64Array(attr) {
                return None;
            }
            let n = mlirDenseArrayGetNumElements(attr);
            Some((0..n).map(|i| mlirDenseI64ArrayGetElement(attr, i)).collect())
        }
    }

    /// An integer attribute by name.
    pub fn int_attr(self, name: &str) -> Option<i64> {
        let attr = self.attr(name)?;
        unsafe { mlirAttributeIsAInteger(attr).then(|| mlirIntegerAttrGetValueInt(attr)) }
    }

    /// A float attribute by name.
    pub fn float_attr(self, name: &str) -> Option<f64> {
        let attr = self.attr(name)?;
        unsafe { mlirAttributeIsAFloat(attr).then(|| mlirFloatAttrGetValueDouble(attr)) }
    }

    /// A flat symbol reference attribute (a callee) by name.
    pub fn symbol_attr(self, name: &str) -> Option<String> {
        let attr = self.attr(name)?;
        unsafe { mlirAttributeIsAFlatSymbolRef(attr).then(|| string(mlirFlatSymbolRefAttrGetValue(attr))) }
    }

    /// An array of flat symbol references by name (e.g. branch computations).
    pub fn symbol_list_attr(self, name: &str) -> Option<Vec<String>> {
        let attr = self.attr(name)?;
        unsafe {
            if !mlirAttributeIsAArray(attr) {
                return None;
            }
            (0..mlirArrayAttrGetNumElements(attr))
                .map(|i| {
                    let e = mlirArrayAttrGetElement(attr, i);
                    mlirAttributeIsAFlatSymbolRef(e).then(|| string(mlirFlatSymbolRefAttrGetValue(e)))
                })
                .collect()
        }
    }

    /// Every attribute as (name, printed value), in the op's order.
    pub fn attrs(self) -> Vec<(String, String)> {
        self.attrs_raw().into_iter().map(|(name, attr)| (name, attr_to_string(attr))).collect()
    }

    /// Sets attribute `name` to a raw attribute.
    pub fn set_attr_raw(self, name: &str, attr: MlirAttribute) {
        unsafe { mlirOperationSetAttributeByName(self.0, string_ref(name), attr) }
    }

    /// Sets `name` to `array<i64: dims>`.
    pub fn set_dims_attr(self, name: &str, dims: &[i64]) {
        self.set_attr_raw(name, crate::attrs::dims(self.context(), dims));
    }

    /// Sets `name` to an `i64` integer attribute.
    pub fn set_i64_attr(self, name: &str, value: i64) {
        self.set_attr_raw(name, crate::attrs::integer(self.context(), value));
    }

    /// Sets `name` to a bool attribute.
    pub fn set_bool_attr(self, name: &str, value: bool) {
        self.set_attr_raw(name, crate::attrs::boolean(self.context(), value));
    }

    /// Sets `name` to a string attribute.
    pub fn set_string_attr(self, name: &str, value: &str) {
        self.set_attr_raw(name, crate::attrs::string(self.context(), value));
    }

    /// Sets `name` to `@symbol`.
    pub fn set_symbol_attr(self, name: &str, symbol: &str) {
        self.set_attr_raw(name, crate::attrs::symbol_ref(self.context(), symbol));
    }

    /// Sets `name` to an `hlo` struct attribute (dimension numbers, a
    /// window); fails if it does not verify (a bug in the calling pass).
    pub fn set_struct_attr(self, name: &str, value: &crate::attrs::StructAttr) -> Result<(), crate::PassError> {
        let attr = value.to_attr(self.context()).ok_or_else(|| {
            crate::PassError(format!("internal error: bad attribute '{}' for '{name}'", value.to_text()))
        })?;
        self.set_attr_raw(name, attr);
        Ok(())
    }

    /// Removes attribute `name`; true if it was there.
    pub fn remove_attr(self, name: &str) -> bool {
        unsafe { mlirOperationRemoveAttributeByName(self.0, string_ref(name)) }
    }

    /// Replaces operand `i`.
    pub fn set_operand(self, i: usize, value: Value) {
        unsafe { mlirOperationSetOperand(self.0, i as isize, value.0) }
    }

    /// Replaces all operands (their number may change; ops with operand
    /// segments need their `operandSegmentSizes` updated too).
    pub fn set_operands(self, values: &[Value]) {
        let raw: Vec<MlirValue> = values.iter().map(|v| v.0).collect();
        unsafe { mlirOperationSetOperands(self.0, raw.len() as isize, raw.as_ptr()) }
    }

    /// The text of the `#xla.indexing_map` attribute `name` (XLA's text
    /// form of the map), `None` if there is none.
    pub fn indexing_map_text(self, name: &str) -> Option<String> {
        let attr = self.attr(name)?;
        // SAFETY: a live attribute of a live op.
        rxla_dialects::indexing_map_text(unsafe { melior::ir::Attribute::from_raw(attr) }).map(str::to_string)
    }

    /// The op that contains this one (`None` at the top).
    pub fn parent(self) -> Option<Op> {
        let op = unsafe { mlirOperationGetParentOperation(self.0) };
        (!op.ptr.is_null()).then_some(Op(op))
    }

    /// The enclosing `func.func` (a computation), if any.
    pub fn parent_func(self) -> Option<Op> {
        let mut op = self.parent();
        while let Some(p) = op {
            if p.name() == "func.func" {
                return Some(p);
            }
            op = p.parent();
        }
        None
    }

    /// The enclosing `builtin.module`.
    pub fn parent_module(self) -> Option<Op> {
        let mut op = self.parent();
        while let Some(p) = op {
            if p.name() == "builtin.module" {
                return Some(p);
            }
            op = p.parent();
        }
        None
    }

    /// The block holding this op.
    pub fn block(self) -> MlirBlock {
        unsafe { mlirOperationGetBlock(self.0) }
    }

    /// The op after this one in its block.
    pub fn next(self) -> Option<Op> {
        let op = unsafe { mlirOperationGetNextInBlock(self.0) };
        (!op.ptr.is_null()).then_some(Op(op))
    }

    /// Ops using any result of this op (each user once, in use-list order).
    pub fn users(self) -> Vec<Op> {
        distinct((0..self.num_results()).flat_map(|r| self.result(r).use_owners()))
    }

    /// Whether exactly one op uses this op's results (walks the use lists
    /// only until a second user shows).
    pub fn has_single_user(self) -> bool {
        single_owner((0..self.num_results()).flat_map(|r| self.result(r).use_owners()))
    }

    /// A deep copy of the op (with its regions), not inserted anywhere.
    pub fn clone_detached(self) -> Op {
        Op(unsafe { mlirOperationClone(self.0) })
    }

    /// Moves this op right before `other` (same or another block).
    pub fn move_before(self, other: Op) {
        unsafe { mlirOperationMoveBefore(self.0, other.0) }
    }

    /// The first block of region `r`.
    pub fn region_block(self, r: usize) -> Option<MlirBlock> {
        unsafe {
            if r >= mlirOperationGetNumRegions(self.0) as usize {
                return None;
            }
            let block = mlirRegionGetFirstBlock(mlirOperationGetRegion(self.0, r as isize));
            (!block.ptr.is_null()).then_some(block)
        }
    }

    /// For a `func.func`: its entry block's arguments (the parameters).
    pub fn arguments(self) -> Vec<Value> {
        let Some(block) = self.region_block(0) else { return Vec::new() };
        unsafe { (0..mlirBlockGetNumArguments(block)).map(|i| Value(mlirBlockGetArgument(block, i))).collect() }
    }

    /// For a `func.func`: the operands of its `func.return` (the root values).
    pub fn return_values(self) -> Vec<Value> {
        self.terminator().map(|t| t.operands()).unwrap_or_default()
    }

    /// For a single-block region holder: the block's terminator.
    pub fn terminator(self) -> Option<Op> {
        let block = self.region_block(0)?;
        let op = unsafe { mlirBlockGetTerminator(block) };
        (!op.ptr.is_null()).then_some(Op(op))
    }

    /// The printed op (generic form off; for debugging and messages).
    pub fn to_text(self) -> String {
        let mut out = String::new();
        unsafe { mlirOperationPrint(self.0, Some(print_to_string), &mut out as *mut String as *mut _) };
        out
    }

    /// The op defining `value`, if it is an op result.
    pub fn defining(value: Value) -> Option<Op> {
        let op = unsafe { mlir_sys::mlirOpResultGetOwner(value.0) };
        (unsafe { mlir_sys::mlirValueIsAOpResult(value.0) } && !op.ptr.is_null()).then_some(Op(op))
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        self.0.ptr == other.0.ptr
    }
}
impl Eq for Value {}
impl std::hash::Hash for Value {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.0.ptr as usize).hash(state)
    }
}

/// The distinct ops of `owners`, first occurrences in order. Values with
/// many users (a learning rate read by every parameter's update, a
/// constant zero) are common in large modules: past a few users, a hash
/// set keeps this linear.
pub fn distinct(owners: impl Iterator<Item = Op>) -> Vec<Op> {
    const LINEAR_SCAN: usize = 16;
    let mut owners = owners;
    let mut out: Vec<Op> = Vec::new();
    for op in owners.by_ref() {
        if !out.contains(&op) {
            out.push(op);
            if out.len() == LINEAR_SCAN {
                break;
            }
        }
    }
    if out.len() == LINEAR_SCAN {
        thread_local! {
            /// Kept between calls so that its table is not grown anew for
            /// each asker (a fusion pass asks for a scalar's thousand users
            /// once per fusion of one of them).
            static SEEN: std::cell::RefCell<crate::hlo_analysis::FxHashSet<Op>> = Default::default();
        }
        SEEN.with_borrow_mut(|seen| {
            seen.clear();
            seen.extend(out.iter().copied());
            out.extend(owners.filter(|op| seen.insert(*op)));
        });
    }
    out
}

/// Whether `owners` names exactly one op (perhaps several times).
fn single_owner(owners: impl Iterator<Item = Op>) -> bool {
    let mut first = None;
    for op in owners {
        match first {
            None => first = Some(op),
            Some(f) if f != op => return false,
            Some(_) => {}
        }
    }
    first.is_some()
}

/// Iterator of [`Value::use_owners`]. The value's uses must not change
/// while it is used.
pub struct UseOwners(MlirOpOperand);

impl Iterator for UseOwners {
    type Item = Op;
    fn next(&mut self) -> Option<Op> {
        // SAFETY: a use of a live value (the iterator's contract).
        unsafe {
            if mlirOpOperandIsNull(self.0) {
                return None;
            }
            let owner = Op(mlirOpOperandGetOwner(self.0));
            self.0 = mlirOpOperandGetNextUse(self.0);
            Some(owner)
        }
    }
}

impl Value {
    /// True if the value has at least one use.
    pub fn has_uses(self) -> bool {
        unsafe { !mlirOpOperandIsNull(mlirValueGetFirstUse(self.0)) }
    }

    /// The value's type.
    pub fn ty(self) -> HloType {
        HloType::from_mlir(self.raw_type())
    }

    /// The value's raw MLIR type.
    pub fn raw_type(self) -> MlirType {
        unsafe { mlirValueGetType(self.0) }
    }

    /// The op defining this value, if it is an op result.
    pub fn op(self) -> Option<Op> {
        Op::defining(self)
    }

    /// True if the value is defined by `hlo.<opcode>`.
    pub fn defined_by(self, opcode: &str) -> Option<Op> {
        self.op().filter(|op| op.is(opcode))
    }

    /// For a block argument, its position.
    pub fn arg_number(self) -> Option<usize> {
        unsafe { mlirValueIsABlockArgument(self.0).then(|| mlirBlockArgumentGetArgNumber(self.0) as usize) }
    }

    /// The op of each use, in use-list order (an op using the value twice
    /// comes twice), without collecting them.
    pub fn use_owners(self) -> UseOwners {
        UseOwners(unsafe { mlirValueGetFirstUse(self.0) })
    }

    /// Every (user, operand index) pair, in use-list order.
    pub fn uses(self) -> Vec<(Op, usize)> {
        let mut out = Vec::new();
        unsafe {
            let mut u = mlirValueGetFirstUse(self.0);
            while !mlirOpOperandIsNull(u) {
                out.push((Op(mlirOpOperandGetOwner(u)), mlirOpOperandGetOperandNumber(u) as usize));
                u = mlirOpOperandGetNextUse(u);
            }
        }
        out
    }

    /// The distinct ops using this value, in use-list order.
    pub fn users(self) -> Vec<Op> {
        distinct(self.use_owners())
    }

    /// Whether exactly one op uses this value (walks the use list only
    /// until a second user shows).
    pub fn has_single_user(self) -> bool {
        single_owner(self.use_owners())
    }

    /// Replaces every use of this value with `other`.
    pub fn replace_all_uses_with(self, other: Value) {
        unsafe { mlirValueReplaceAllUsesOfWith(self.0, other.0) }
    }

    /// True if both handles name the same SSA value.
    pub fn same_as(self, other: Value) -> bool {
        unsafe { mlir_sys::mlirValueEqual(self.0, other.0) }
    }

    /// For an op result, its index among the owner's results.
    pub fn result_number(self) -> Option<usize> {
        unsafe {
            mlir_sys::mlirValueIsAOpResult(self.0).then(|| mlir_sys::mlirOpResultGetResultNumber(self.0) as usize)
        }
    }

    /// For a block argument, the op whose region holds its block
    /// (`func.func`, `xla.loop`, `scf.for`, ...).
    pub fn owner_op(self) -> Option<Op> {
        unsafe {
            if !mlirValueIsABlockArgument(self.0) {
                return None;
            }
            let parent = mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(self.0));
            (!parent.ptr.is_null()).then_some(Op(parent))
        }
    }

    /// The printed discardable attribute `name` of the value: the defining
    /// op's attribute for op results, the argument attribute for arguments
    /// of a `func.func` (e.g. `xla.range`).
    pub fn attr_text(self, name: &str) -> Option<String> {
        self.attr(name).map(attr_to_string)
    }

    /// The discardable attribute `name` of the value, as [`Value::attr_text`]
    /// finds it.
    pub fn attr(self, name: &str) -> Option<MlirAttribute> {
        if let Some(op) = self.op() {
            return op.attr_raw(name);
        }
        let func = self.owner_op().filter(|op| op.is_named("func.func"))?;
        unsafe {
            let arg_attrs = func.attr_raw("arg_attrs")?;
            if !mlirAttributeIsAArray(arg_attrs) {
                return None;
            }
            let i = mlirBlockArgumentGetArgNumber(self.0);
            if i >= mlirArrayAttrGetNumElements(arg_attrs) {
                return None;
            }
            let dict = mlirArrayAttrGetElement(arg_attrs, i);
            if !mlirAttributeIsADictionary(dict) {
                return None;
            }
            let attr = mlirDictionaryAttrGetElementByName(dict, string_ref(name));
            (!attr.ptr.is_null()).then_some(attr)
        }
    }

    /// The printed `hlo.layout` of this value, `None` when it has none
    /// (the default): the defining op's attribute (its entry for this
    /// result when the op has several results), or the argument attribute
    /// for arguments of a `func.func`.
    pub fn layout_text(self) -> Option<String> {
        self.layout_attr().map(attr_to_string)
    }

    /// The `hlo.layout` attribute of the value, as [`Value::layout_text`]
    /// finds it.
    pub fn layout_attr(self) -> Option<MlirAttribute> {
        let attr = self.attr("hlo.layout")?;
        match self.op() {
            Some(op) if op.num_results() > 1 => crate::attrs::array_elements(attr)?.get(self.result_number()?).copied(),
            _ => Some(attr),
        }
    }
}

/// Whether MLIR considers `op` removable when unused (no memory effects).
pub fn is_trivially_dead_when_unused(op: Op) -> bool {
    // SAFETY: live operation.
    rxla_dialects::is_trivially_dead(unsafe { &op.as_ref() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::Module;

    /// `users` lists each user once, in use-list order, past the size
    /// where it switches to a hash set; `has_single_user` counts users, not
    /// uses.
    #[test]
    fn users_are_distinct_and_in_order() {
        let context = rxla_dialects::create_context();
        let adds: String = (0..40).map(|i| format!("%a{i} = hlo.add %x, %x : tensor<f32>\n")).collect();
        let source = format!(
            "func.func @main(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {{
               {adds}
               %n = hlo.negate %y : tensor<f32>
               %m = hlo.multiply %n, %n : tensor<f32>
               return %m : tensor<f32>
             }}"
        );
        let module = Module::parse(&context, &source).expect("parses");
        let root = Op::from_raw(module.as_operation().to_raw());
        let func = root.walk_preorder().into_iter().find(|op| op.is_named("func.func")).expect("a function");
        let args = func.arguments();
        let users = args[0].users();
        assert_eq!(users.len(), 40);
        let expected: Vec<Op> = args[0].uses().into_iter().map(|(op, _)| op).fold(Vec::new(), |mut out, op| {
            if !out.contains(&op) {
                out.push(op);
            }
            out
        });
        assert_eq!(users, expected);
        assert!(!args[0].has_single_user());
        let negate = root.walk_preorder().into_iter().find(|op| op.is_named("hlo.negate")).expect("a negate");
        assert!(negate.has_single_user(), "one user reading it twice");
        assert_eq!(negate.users().len(), 1);
        assert!(args[1].has_single_user());
    }

    /// `named_attrs` reads the same attributes, in the same order, as
    /// MLIR's one-at-a-time C API (which rebuilds the dictionary from the
    /// op's properties on every call): inherent ones (`dimensions`,
    /// `to_apply`) and discardable ones alike.
    #[test]
    fn named_attrs_match_the_c_api() {
        let context = rxla_dialects::create_context();
        let source = "
            func.func private @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
              %0 = hlo.add %a, %b : tensor<f32>
              return %0 : tensor<f32>
            }
            func.func @main(%x: tensor<4x2xf32>, %i: tensor<f32>) -> tensor<4xf32> {
              %0 = hlo.reduce %x, %i {dimensions = array<i64: 1>, to_apply = @sum, note = \"kept\"} : (tensor<4x2xf32>, tensor<f32>) -> tensor<4xf32>
              return %0 : tensor<4xf32>
            }
        ";
        let module = Module::parse(&context, source).expect("parses");
        let root = Op::from_raw(module.as_operation().to_raw());
        let reduce = root.walk_preorder().into_iter().find(|op| op.is_named("hlo.reduce")).expect("a reduce");
        let named: Vec<(String, usize)> = reduce
            .named_attrs()
            .iter()
            .map(|a| (string(unsafe { mlirIdentifierStr(a.name) }), a.attribute.ptr as usize))
            .collect();
        let one_by_one: Vec<(String, usize)> = unsafe {
            (0..mlirOperationGetNumAttributes(reduce.raw()))
                .map(|i| {
                    let a = mlirOperationGetAttribute(reduce.raw(), i);
                    (string(mlirIdentifierStr(a.name)), a.attribute.ptr as usize)
                })
                .collect()
        };
        let names: Vec<&str> = named.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["dimensions", "note", "to_apply"]);
        assert_eq!(named, one_by_one);
        assert_eq!(reduce.symbol_uses(), ["sum"]);
    }

    /// `named_attrs` lists the elements of `getAttrDictionary` for ops of
    /// every kind the compiler builds: with properties (hlo, func, arith,
    /// llvm) and without, inherent attributes set and unset, discardable
    /// ones among them.
    #[test]
    fn named_attrs_match_the_dictionary_for_every_op() {
        let context = rxla_dialects::create_context();
        let source = r#"
            func.func private @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> attributes {note = 1 : i64} {
              %0 = hlo.add %a, %b {other = "x", zeta = unit} : tensor<f32>
              return %0 : tensor<f32>
            }
            func.func @main(%x: tensor<4x2xf32>, %i: tensor<f32>) -> (tensor<4xf32>, tensor<2x4xf32>) {
              %0 = hlo.reduce %x, %i {dimensions = array<i64: 1>, to_apply = @sum, aaa = "first"} : (tensor<4x2xf32>, tensor<f32>) -> tensor<4xf32>
              %1 = hlo.transpose %x, dims = [1, 0] : (tensor<4x2xf32>) -> tensor<2x4xf32>
              %2 = hlo.compare LT, %i, %i : (tensor<f32>, tensor<f32>) -> tensor<i1>
              %c = arith.constant {b = 2 : i32} 3 : index
              %d = arith.addi %c, %c overflow<nsw> : index
              %e = "test.unregistered"(%c) {z = 1 : i64, a = 2 : i64} : (index) -> index
              return %0, %1 : tensor<4xf32>, tensor<2x4xf32>
            }
            llvm.func @f(%p: i64) -> i64 {
              %m = llvm.mul %p, %p overflow<nsw, nuw> {tag = "t"} : i64
              llvm.return %m : i64
            }
        "#;
        context.set_allow_unregistered_dialects(true);
        let module = Module::parse(&context, source).expect("parses");
        let root = Op::from_raw(module.as_operation().to_raw());
        let mut checked = 0;
        for op in root.walk_preorder() {
            let named: Vec<(usize, usize)> =
                op.named_attrs().iter().map(|a| (a.name.ptr as usize, a.attribute.ptr as usize)).collect();
            let dictionary: Vec<(usize, usize)> = unsafe {
                let dict = rxla_dialects::attr_dictionary(op.raw());
                (0..mlirDictionaryAttrGetNumElements(dict))
                    .map(|i| {
                        let a = mlirDictionaryAttrGetElement(dict, i);
                        (a.name.ptr as usize, a.attribute.ptr as usize)
                    })
                    .collect()
            };
            assert_eq!(named, dictionary, "{}", op.name());
            checked += !named.is_empty() as usize;
        }
        assert!(checked >= 10, "{checked}");
    }
}
