//! Reading `hlo` constants into the runtime's memory format, and
//! single-instruction modules for the interpreter.

use mlir_sys::*;
use rxla_hlo_text::ast;
use rxla_interpreter::Interpreter;
use rxla_ir::{computation, op::Op, op::Value, types::HloType};
use rxla_library::array::{byte_size, literal_bytes, ArrayShape, ElementType};
use std::collections::HashSet;

/// The printed location of `op` (without `loc(...)`).
pub fn location_text(op: Op) -> String {
    unsafe extern "C" fn collect(s: MlirStringRef, user: *mut std::ffi::c_void) {
        // SAFETY: `user` is the String below; `s` is valid for the call.
        unsafe {
            let bytes = std::slice::from_raw_parts(s.data as *const u8, s.length);
            (*(user as *mut String)).push_str(&String::from_utf8_lossy(bytes));
        }
    }
    let mut out = String::new();
    // SAFETY: live op; the callback only appends to `out`.
    unsafe { mlirLocationPrint(op.location(), Some(collect), &mut out as *mut String as *mut _) };
    out
}

/// The elements of the `hlo.constant` `op` (of `shape`), row-major in
/// logical order, in the runtime's memory format.
pub fn bytes(module: Op, op: Op, shape: &ArrayShape) -> Result<Vec<u8>, String> {
    if let Some(b) = dense_bytes(op, shape) {
        return Ok(b);
    }
    // Types whose attribute storage differs from the memory format (the
    // sub-byte integers): let the interpreter read the literal.
    let ast = single_op_module(module, op)?;
    let literal = Interpreter::new(&ast).run(&[]).map_err(|e| e.to_string())?;
    literal_bytes(&literal)
}

fn dense_bytes(op: Op, shape: &ArrayShape) -> Option<Vec<u8>> {
    use ElementType::*;
    // Types whose attribute storage is the memory format (pred: one byte
    // per element either way).
    let natural = matches!(
        shape.ty,
        Pred | S8
            | S16
            | S32
            | S64
            | U8
            | U16
            | U32
            | U64
            | F16
            | Bf16
            | F32
            | F64
            | C64
            | C128
            | F8e4m3fn
            | F8e5m2
            | F8e4m3
            | F8e3m4
            | F8e4m3fnuz
            | F8e4m3b11fnuz
            | F8e5m2fnuz
            | F8e8m0fnu
    );
    if !natural {
        return None;
    }
    rxla_ir::attrs::dense_bytes(op.attr_raw("value")?, shape.elements(), byte_size(shape.ty))
}

/// Every computation `op` calls, transitively.
fn callees(module: Op, op: Op) -> Vec<Op> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut todo: Vec<String> = op.walk_preorder().iter().flat_map(|o| o.symbol_uses()).collect();
    while let Some(name) = todo.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        if let Some(f) = computation::lookup(module, &name) {
            todo.extend(f.walk_preorder().iter().flat_map(|o| o.symbol_uses()));
            out.push(f);
        }
    }
    out
}

/// A module whose entry computation is `op` alone, its operands the
/// parameters, with the computations it calls: what the interpreter runs
/// for one instruction.
pub fn single_op_module(module: Op, op: Op) -> Result<ast::Module, String> {
    unsafe {
        let scratch = melior::ir::Module::from_raw(mlirModuleCreateEmpty(op.location()));
        let root = Op::from_raw(mlirModuleGetOperation(scratch.to_raw()));
        let body = root.region_block(0).ok_or("module without a body")?;
        for f in callees(module, op) {
            mlirBlockAppendOwnedOperation(body, f.clone_detached().raw());
        }
        let params: Vec<HloType> = op.operands().iter().map(|v| v.ty()).collect();
        let results: Vec<HloType> = op.results().iter().map(|v| v.ty()).collect();
        let (func, b, args) = computation::create_function(root, "main", &params, &results).map_err(|e| e.0)?;
        func.remove_attr("sym_visibility");
        func.set_attr_raw("hlo.entry", mlirUnitAttrGet(op.context()));
        let clone = op.clone_detached();
        for (i, a) in args.iter().enumerate() {
            clone.set_operand(i, *a);
        }
        b.insert(clone.raw());
        let values: Vec<Value> = clone.results();
        b.ret(&values).map_err(|e| e.0)?;
        rxla_translate::export::export_ast(&scratch).map_err(|e| e.to_string())
    }
}
