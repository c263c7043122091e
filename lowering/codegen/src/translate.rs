//! From the `llvm` dialect to LLVM IR.

use melior::ir::Module;
use mlir_sys::*;

/// Moves the ops of every `builtin.module` nested in `module` (one per
/// kernel) into `module` itself: LLVM IR has one flat module. Kernel and
/// function names are unique across kernels (the emitters prefix them
/// with the kernel's name), so no renaming is needed; declarations of the
/// same external function (a libm call in two kernels) are kept once.
pub fn merge_kernel_modules(module: &Module) {
    let mut declared = std::collections::HashSet::new();
    unsafe {
        let top = module.as_operation().to_raw();
        let body = mlirRegionGetFirstBlock(mlirOperationGetRegion(top, 0));
        let mut op = mlirBlockGetFirstOperation(body);
        while !op.ptr.is_null() {
            let next = mlirOperationGetNextInBlock(op);
            let name = mlirIdentifierStr(mlirOperationGetName(op));
            let name = std::slice::from_raw_parts(name.data as *const u8, name.length);
            if name == b"builtin.module" {
                let inner = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
                let mut child = mlirBlockGetFirstOperation(inner);
                while !child.ptr.is_null() {
                    let after = mlirOperationGetNextInBlock(child);
                    mlirOperationRemoveFromParent(child);
                    match declaration_name(child) {
                        Some(name) if !declared.insert(name.clone()) => mlirOperationDestroy(child),
                        _ => mlirBlockInsertOwnedOperationBefore(body, op, child),
                    }
                    child = after;
                }
                mlirOperationRemoveFromParent(op);
                mlirOperationDestroy(op);
            }
            op = next;
        }
    }
}

/// The symbol name of a function declaration (an `llvm.func` without a
/// body).
unsafe fn declaration_name(op: MlirOperation) -> Option<String> {
    unsafe {
        let name = mlirIdentifierStr(mlirOperationGetName(op));
        let name = std::slice::from_raw_parts(name.data as *const u8, name.length);
        if name != b"llvm.func" || !mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)).ptr.is_null() {
            return None;
        }
        let attr = mlirOperationGetAttributeByName(op, MlirStringRef { data: "sym_name".as_ptr() as *const _, length: 8 });
        if attr.ptr.is_null() {
            return None;
        }
        let s = mlirStringAttrGetValue(attr);
        Some(String::from_utf8_lossy(std::slice::from_raw_parts(s.data as *const u8, s.length)).into_owned())
    }
}

/// Translates `module` (the `llvm` dialect only, no nested modules) into
/// an LLVM module of `context`. The MLIR context must have the LLVM
/// translations registered ([`register_translations`]).
pub fn to_llvm_ir<'ctx>(module: &Module, context: &'ctx inkwell::context::Context) -> Result<inkwell::module::Module<'ctx>, String> {
    // SAFETY: live module and context; the result is owned by `context`.
    let raw = unsafe {
        mlirTranslateModuleToLLVMIR(module.as_operation().to_raw(), context.raw() as mlir_sys::LLVMContextRef)
    };
    if raw.is_null() {
        return Err("translation of the llvm dialect to LLVM IR failed".into());
    }
    // SAFETY: a fresh module owned by `context`.
    Ok(unsafe { inkwell::module::Module::new(raw as inkwell::llvm_sys::prelude::LLVMModuleRef) })
}

/// Registers the dialect-to-LLVM-IR translations in `context` (idempotent).
pub fn register_translations(context: &melior::Context) {
    // SAFETY: live context.
    unsafe { mlirRegisterAllLLVMTranslations(context.to_raw()) }
}
