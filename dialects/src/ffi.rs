//! The C entry points of `dialects/*/include/rxla-c/Dialect/*.h`.

use std::ffi::c_void;

use mlir_sys::{MlirAttribute, MlirContext, MlirDialectHandle, MlirLocation, MlirOperation, MlirStringRef};

extern "C" {
    pub fn mlirGetDialectHandle__hlo__() -> MlirDialectHandle;
    pub fn mlirGetDialectHandle__xla__() -> MlirDialectHandle;
    pub fn mlirGetDialectHandle__xla_gpu__() -> MlirDialectHandle;
    pub fn rxlaOperationIsTriviallyDead(op: MlirOperation) -> bool;
    pub fn rxlaOperationIsMemoryEffectFree(op: MlirOperation) -> bool;
    pub fn rxlaOperationGetAttrDictionary(op: MlirOperation) -> MlirAttribute;
    pub fn rxlaContextSetPrintOpOnDiagnostic(context: MlirContext, enable: bool);
    pub fn rxlaEmitWarning(location: MlirLocation, message: MlirStringRef);
    pub fn rxlaAttributeIsAIndexingMap(attr: MlirAttribute) -> bool;
    pub fn rxlaIndexingMapAttrGet(context: MlirContext, text: MlirStringRef) -> MlirAttribute;
    pub fn rxlaIndexingMapAttrGetText(attr: MlirAttribute) -> MlirStringRef;
    pub fn rxlaWorkGroupDimensionAttrGet(context: MlirContext, dim: i32) -> MlirAttribute;
    pub fn rxlaArithFastMathAttrGet(context: MlirContext, flags: u32) -> MlirAttribute;
    pub fn rxlaArithFastMathAttrGetFlags(attr: MlirAttribute) -> i64;
    pub fn rxlaArithOverflowAttrGet(context: MlirContext, flags: u32) -> MlirAttribute;
    pub fn rxlaVectorCombiningKindAttrGet(context: MlirContext, kind: MlirStringRef) -> MlirAttribute;
    pub fn rxlaNVVMShflKindAttrGet(context: MlirContext, kind: MlirStringRef) -> MlirAttribute;
    pub fn rxlaLLVMConstantRangeAttrGet(context: MlirContext, bit_width: u32, lower: i64, upper: i64) -> MlirAttribute;
    pub fn rxlaGpuDimensionAttrGet(context: MlirContext, dim: i32) -> MlirAttribute;
    pub fn rxlaHloEnumAttrGetCase(attr: MlirAttribute) -> MlirStringRef;
    pub fn rxlaHloEnumAttrGet(context: MlirContext, kind: MlirStringRef, case: MlirStringRef) -> MlirAttribute;
    pub fn rxlaHloIndexGroupsAttrGet(
        context: MlirContext,
        num_groups: isize,
        groups: *const *const i64,
        sizes: *const isize,
    ) -> MlirAttribute;
    pub fn rxlaHloStructAttrGetFields(
        attr: MlirAttribute,
        callback: RxlaHloFieldCallback,
        user_data: *mut c_void,
    ) -> MlirStringRef;
    pub fn rxlaHloStructAttrGet(
        context: MlirContext,
        mnemonic: MlirStringRef,
        num_fields: isize,
        names: *const MlirStringRef,
        values: *const *const i64,
        sizes: *const isize,
        is_list: *const bool,
    ) -> MlirAttribute;
}

/// `RxlaHloFieldCallback`: one field of a struct attribute (name, values,
/// count, whether a list, user data).
pub type RxlaHloFieldCallback =
    unsafe extern "C" fn(name: MlirStringRef, values: *const i64, count: isize, is_list: bool, user_data: *mut c_void);
