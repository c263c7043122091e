//! The structure of IR as a comparable value, read through the C API with
//! no printing.
//!
//! MLIR uniques types and attributes in their context, so their addresses
//! are exact tokens for as long as the context lives; ops are their names,
//! operands are the positions of the values they use, regions and blocks
//! are markers. Locations (and with them HLO instruction names) are left
//! out. The result is the whole token stream, compared exactly (no hash
//! collisions), and only meaningful within one context. Two uses:
//!
//! - [`snapshot`]: a module's structure, to tell whether a group of passes
//!   changed it (the fixed-point driver, XLA's `HloPassFix`);
//! - [`Fingerprinter::fusion`]: kernel reuse (XLA's `KernelReuseCache`).
//!   A model repeats its layers, so most of its fusions are copies of a few;
//!   two fusions emit the same kernel up to its name when their fused
//!   computations have the same structure, with symbol names replaced by
//!   the structure of the computations they name (reducers, comparators).
//!   Parameter names (`hlo.name` in a function's argument attributes) are
//!   names too and left out: JAX names every reducer's parameters after
//!   the instruction that made it (`reduce_sum.367`), so without this each
//!   layer's softmax had a reducer of its own and no two layers shared a
//!   kernel.

use crate::op::{string_ref, Op};
use mlir_sys::*;
use std::collections::HashMap;

/// The structure of some IR, comparable with `==` and hashable.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fingerprint(Vec<u64>);

/// Token tags, so that streams of different shapes never coincide.
mod tag {
    pub const FUNC: u64 = 1 << 60;
    pub const BLOCK: u64 = 2 << 60;
    pub const OP: u64 = 3 << 60;
    pub const OUTSIDE: u64 = 4 << 60;
    pub const CALLEE: u64 = 5 << 60;
    pub const ARRAY: u64 = 6 << 60;
    pub const DICT: u64 = 7 << 60;
    pub const REGION: u64 = 8 << 60;
    pub const NULL: u64 = 9 << 60;
}

/// Fingerprints fusions of one module, remembering the computations it has
/// read (a reducer shared by many fusions is read once).
pub struct Fingerprinter {
    /// `None` for a [`snapshot`]: symbol references are their names.
    table: Option<MlirSymbolTable>,
    /// Computation (by address) -> its structure's id in `ids`.
    memo: HashMap<usize, u64>,
    /// Distinct computation structures, numbered in order of discovery.
    ids: HashMap<Vec<u64>, u64>,
}

impl Fingerprinter {
    /// For the fusions of `module` (a `builtin.module`), which must outlive
    /// this fingerprinter and not change while it is used.
    pub fn new(module: MlirOperation) -> Self {
        // SAFETY: a live module op (a symbol table).
        let table = unsafe { mlirSymbolTableCreate(module) };
        Fingerprinter { table: Some(table), memo: HashMap::new(), ids: HashMap::new() }
    }

    /// The fingerprint of an `hlo.fusion` op: its own attributes (the
    /// fusion kind) and the structure of the computation it calls. `None`
    /// if the op has no callee this can read (then it is not shared).
    pub fn fusion(&mut self, fusion: MlirOperation) -> Option<Fingerprint> {
        let mut tokens = Vec::new();
        for named in Op::from_raw(fusion).named_attrs() {
            tokens.push(named.name.ptr as u64);
            self.attribute(named.attribute, &mut tokens)?;
        }
        Some(Fingerprint(tokens))
    }

    /// The id of the structure of the function `name`.
    fn callee(&mut self, table: MlirSymbolTable, name: MlirStringRef) -> Option<u64> {
        // SAFETY: live symbol table; `name` is valid for the call.
        let func = unsafe { mlirSymbolTableLookup(table, name) };
        if func.ptr.is_null() {
            return None;
        }
        let key = func.ptr as usize;
        if let Some(&id) = self.memo.get(&key) {
            return Some(id);
        }
        let tokens = self.function(func)?;
        let next = self.ids.len() as u64;
        let id = *self.ids.entry(tokens).or_insert(next);
        self.memo.insert(key, id);
        Some(id)
    }

    /// The token stream of a function: its type and argument/result
    /// attributes (layouts), then its body.
    fn function(&mut self, func: MlirOperation) -> Option<Vec<u64>> {
        let mut tokens = vec![tag::FUNC];
        // SAFETY: a live operation.
        unsafe {
            for name in ["function_type", "arg_attrs", "res_attrs"] {
                let attr = mlirOperationGetAttributeByName(func, string_ref(name));
                if attr.ptr.is_null() {
                    tokens.push(tag::NULL);
                } else {
                    self.attribute(attr, &mut tokens)?;
                }
            }
            let mut values = HashMap::new();
            self.regions(func, &mut values, &mut tokens)?;
        }
        Some(tokens)
    }

    /// The regions of `op`: blocks with their arguments, then their ops.
    unsafe fn regions(
        &mut self,
        op: MlirOperation,
        values: &mut HashMap<usize, u64>,
        tokens: &mut Vec<u64>,
    ) -> Option<()> {
        unsafe {
            for r in 0..mlirOperationGetNumRegions(op) {
                tokens.push(tag::REGION);
                let mut block = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
                while !block.ptr.is_null() {
                    let args = mlirBlockGetNumArguments(block);
                    tokens.push(tag::BLOCK | args as u64);
                    for a in 0..args {
                        let v = mlirBlockGetArgument(block, a);
                        let n = values.len() as u64;
                        values.insert(v.ptr as usize, n);
                        tokens.push(mlirValueGetType(v).ptr as u64);
                    }
                    let mut child = mlirBlockGetFirstOperation(block);
                    while !child.ptr.is_null() {
                        self.operation(child, values, tokens)?;
                        child = mlirOperationGetNextInBlock(child);
                    }
                    block = mlirBlockGetNextInRegion(block);
                }
            }
        }
        Some(())
    }

    unsafe fn operation(
        &mut self,
        op: MlirOperation,
        values: &mut HashMap<usize, u64>,
        tokens: &mut Vec<u64>,
    ) -> Option<()> {
        unsafe {
            // Branches name blocks; fused computations have none, and
            // numbering blocks is not worth it for them.
            if mlirOperationGetNumSuccessors(op) > 0 {
                return None;
            }
            let operands = mlirOperationGetNumOperands(op);
            let results = mlirOperationGetNumResults(op);
            let attributes = Op::from_raw(op).named_attrs();
            tokens.extend([
                tag::OP,
                mlirOperationGetName(op).ptr as u64,
                operands as u64,
                results as u64,
                attributes.len() as u64,
            ]);
            for i in 0..operands {
                let v = mlirOperationGetOperand(op, i);
                match values.get(&(v.ptr as usize)) {
                    Some(&n) => tokens.push(n),
                    // A value from outside the function: computations are
                    // isolated, so this is not one to share.
                    None => tokens.extend([tag::OUTSIDE, v.ptr as u64]),
                }
            }
            for i in 0..results {
                let v = mlirOperationGetResult(op, i);
                let n = values.len() as u64;
                values.insert(v.ptr as usize, n);
                tokens.push(mlirValueGetType(v).ptr as u64);
            }
            for named in attributes {
                tokens.push(named.name.ptr as u64);
                self.attribute(named.attribute, tokens)?;
            }
            self.regions(op, values, tokens)
        }
    }

    /// An attribute: symbol references by the structure they name (in
    /// arrays and dictionaries too), anything else by its uniqued address.
    fn attribute(&mut self, attr: MlirAttribute, tokens: &mut Vec<u64>) -> Option<()> {
        // SAFETY: a live attribute of the module's context.
        unsafe {
            if let (true, Some(table)) = (mlirAttributeIsAFlatSymbolRef(attr), self.table) {
                let id = self.callee(table, mlirFlatSymbolRefAttrGetValue(attr))?;
                tokens.extend([tag::CALLEE, id]);
            } else if mlirAttributeIsAArray(attr) {
                let n = mlirArrayAttrGetNumElements(attr);
                tokens.push(tag::ARRAY | n as u64);
                for i in 0..n {
                    self.attribute(mlirArrayAttrGetElement(attr, i), tokens)?;
                }
            } else if mlirAttributeIsADictionary(attr) {
                let n = mlirDictionaryAttrGetNumElements(attr);
                let named: Vec<MlirNamedAttribute> = (0..n)
                    .map(|i| mlirDictionaryAttrGetElement(attr, i))
                    .filter(|named| self.table.is_none() || !is_name(named))
                    .collect();
                tokens.push(tag::DICT | named.len() as u64);
                for named in named {
                    tokens.push(named.name.ptr as u64);
                    self.attribute(named.attribute, tokens)?;
                }
            } else if self.table.is_some() && mlirAttributeIsASymbolRef(attr) {
                // Nested references (@a::@b) do not occur in HLO modules.
                return None;
            } else {
                tokens.push(attr.ptr as u64);
            }
        }
        Some(())
    }
}

/// Whether `named` is an HLO name (`hlo.name`, as a parameter's argument
/// attribute), which kernel reuse leaves out.
fn is_name(named: &MlirNamedAttribute) -> bool {
    // SAFETY: the identifier is owned by the context.
    let name = unsafe { mlirIdentifierStr(named.name) };
    // SAFETY: a string ref into the context's identifier storage.
    let bytes = unsafe { std::slice::from_raw_parts(name.data as *const u8, name.length) };
    bytes == b"hlo.name"
}

impl Drop for Fingerprinter {
    fn drop(&mut self) {
        if let Some(table) = self.table {
            // SAFETY: created in `new`, destroyed once.
            unsafe { mlirSymbolTableDestroy(table) }
        }
    }
}

/// The structure of `op` and everything nested in it, symbol references by
/// name: equal before and after a pass exactly when the pass changed
/// nothing but locations. `None` for IR with branches between blocks
/// (not HLO), which callers compare another way.
pub fn snapshot(op: MlirOperation) -> Option<Fingerprint> {
    let mut f = Fingerprinter { table: None, memo: HashMap::new(), ids: HashMap::new() };
    let mut tokens = Vec::new();
    let mut values = HashMap::new();
    // SAFETY: a live operation, not changed while this runs.
    unsafe { f.operation(op, &mut values, &mut tokens)? };
    Some(Fingerprint(tokens))
}
