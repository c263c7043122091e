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
        let attr =
            mlirOperationGetAttributeByName(op, MlirStringRef { data: "sym_name".as_ptr() as *const _, length: 8 });
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
pub fn to_llvm_ir<'ctx>(
    module: &Module,
    context: &'ctx inkwell::context::Context,
) -> Result<inkwell::module::Module<'ctx>, String> {
    drop_range_arguments(module);
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

/// Splits the kernel modules nested in `module` into at most `parts`
/// flat modules (as [`merge_kernel_modules`] makes them) of about the same
/// size, so that LLVM can compile them on as many threads (XLA:CPU splits
/// its LLVM module the same way). Each kernel module goes whole to one
/// part: kernels share nothing but external declarations. The nested
/// modules are moved out of `module`; ops at its top level are copied into
/// every part.
pub fn split_kernel_modules<'c>(module: &Module<'c>, parts: usize) -> Vec<Module<'c>> {
    // SAFETY: the module's live context; the location lives as long.
    let location: melior::ir::Location<'c> = unsafe {
        melior::ir::Location::from_raw(mlirLocationUnknownGet(mlirOperationGetContext(module.as_operation().to_raw())))
    };
    let mut kernels = Vec::new();
    let mut shared = Vec::new();
    // SAFETY: live module; ops are moved between live blocks and every op
    // removed from a block is inserted into another.
    unsafe {
        let top = module.as_operation().to_raw();
        let body = mlirRegionGetFirstBlock(mlirOperationGetRegion(top, 0));
        let mut op = mlirBlockGetFirstOperation(body);
        while !op.ptr.is_null() {
            let name = mlirIdentifierStr(mlirOperationGetName(op));
            if std::slice::from_raw_parts(name.data as *const u8, name.length) == b"builtin.module" {
                kernels.push((size(op), op));
            } else {
                shared.push(op);
            }
            op = mlirOperationGetNextInBlock(op);
        }
        let parts = parts.clamp(1, kernels.len().max(1));
        // Largest first, each to the lightest part so far.
        kernels.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        let mut load = vec![0usize; parts];
        let out: Vec<Module<'c>> = (0..parts).map(|_| Module::new(location)).collect();
        for (s, op) in kernels {
            let i = (0..parts).min_by_key(|&i| load[i]).expect("at least one part");
            load[i] += s;
            mlirOperationRemoveFromParent(op);
            mlirBlockAppendOwnedOperation(out[i].body().to_raw(), op);
        }
        for part in &out {
            for &op in &shared {
                mlirBlockAppendOwnedOperation(part.body().to_raw(), mlirOperationClone(op));
            }
            merge_kernel_modules(part);
        }
        out
    }
}

/// The number of operations in `op` and everything nested in it: how much
/// work LLVM will have with it, roughly.
unsafe fn size(op: MlirOperation) -> usize {
    unsafe {
        let mut n = 1;
        for r in 0..mlirOperationGetNumRegions(op) {
            let mut block = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
            while !block.ptr.is_null() {
                let mut child = mlirBlockGetFirstOperation(block);
                while !child.ptr.is_null() {
                    n += size(child);
                    child = mlirOperationGetNextInBlock(child);
                }
                block = mlirBlockGetNextInRegion(block);
            }
        }
        n
    }
}

/// Removes `xla.range` from the argument attributes of every `llvm.func`
/// in `module` (not nested). The emitters put it on index arguments of
/// the functions kernels call; the lowering has used it (no-wrap flags,
/// unsigned division), and MLIR's translation would warn about an
/// attribute it does not know, once per argument. Those functions are
/// inlined into their kernels, so LLVM's own range attribute would not
/// survive either.
pub fn drop_range_arguments(module: &Module) {
    const RANGE: &str = "xla.range";
    // SAFETY: live module; attributes are rebuilt in its context and set
    // on live ops.
    unsafe {
        let top = module.as_operation().to_raw();
        let context = mlirOperationGetContext(top);
        let range = mlirIdentifierGet(context, str_ref(RANGE));
        let arg_attrs = str_ref("arg_attrs");
        let body = mlirRegionGetFirstBlock(mlirOperationGetRegion(top, 0));
        let mut op = mlirBlockGetFirstOperation(body);
        while !op.ptr.is_null() {
            let attrs = mlirOperationGetAttributeByName(op, arg_attrs);
            if !attrs.ptr.is_null() && mlirAttributeIsAArray(attrs) {
                let n = mlirArrayAttrGetNumElements(attrs);
                let mut changed = false;
                let mut dicts = Vec::with_capacity(n as usize);
                for i in 0..n {
                    let dict = mlirArrayAttrGetElement(attrs, i);
                    if !mlirAttributeIsADictionary(dict)
                        || mlirDictionaryAttrGetElementByName(dict, str_ref(RANGE)).ptr.is_null()
                    {
                        dicts.push(dict);
                        continue;
                    }
                    changed = true;
                    let kept: Vec<MlirNamedAttribute> = (0..mlirDictionaryAttrGetNumElements(dict))
                        .map(|j| mlirDictionaryAttrGetElement(dict, j))
                        .filter(|a| a.name.ptr != range.ptr)
                        .collect();
                    dicts.push(mlirDictionaryAttrGet(context, kept.len() as isize, kept.as_ptr()));
                }
                if changed {
                    mlirOperationSetAttributeByName(
                        op,
                        arg_attrs,
                        mlirArrayAttrGet(context, dicts.len() as isize, dicts.as_ptr()),
                    );
                }
            }
            op = mlirOperationGetNextInBlock(op);
        }
    }
}

fn str_ref(s: &str) -> MlirStringRef {
    MlirStringRef { data: s.as_ptr() as *const _, length: s.len() }
}
