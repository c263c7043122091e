//! The C entry points of `dialects/*/include/rxla-c/Dialect/*.h`.

use std::ffi::c_void;

use mlir_sys::{
    MlirAttribute, MlirContext, MlirDialectHandle, MlirLocation, MlirNamedAttribute, MlirOperation, MlirStringRef,
    MlirType,
};

extern "C" {
    pub fn mlirGetDialectHandle__hlo__() -> MlirDialectHandle;
    pub fn mlirGetDialectHandle__xla__() -> MlirDialectHandle;
    pub fn mlirGetDialectHandle__xla_gpu__() -> MlirDialectHandle;
    pub fn rxlaOperationIsTriviallyDead(op: MlirOperation) -> bool;
    pub fn rxlaOperationIsMemoryEffectFree(op: MlirOperation) -> bool;
    pub fn rxlaOperationGetAttrDictionary(op: MlirOperation) -> MlirAttribute;
    pub fn rxlaOperationForEachAttr(
        op: MlirOperation,
        callback: unsafe extern "C" fn(MlirNamedAttribute, *mut c_void),
        user_data: *mut c_void,
    );
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
    pub fn rxlaHloTokenTypeGet(context: MlirContext) -> MlirType;
    pub fn rxlaHloIndexGroupsAttrGet(
        context: MlirContext,
        num_groups: isize,
        groups: *const *const i64,
        sizes: *const isize,
    ) -> MlirAttribute;
    pub fn rxlaHloShardingAttrGetFields(attr: MlirAttribute, fields: *mut RxlaHloShardingFields) -> bool;
    pub fn rxlaHloShardingAttrGet(context: MlirContext, fields: *const RxlaHloShardingFields) -> MlirAttribute;
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

/// `RxlaHloShardingFields`: the fields of an `#hlo.sharding` (see `Hlo.h`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct RxlaHloShardingFields {
    pub kind: u32,
    pub tile_dims: *const i64,
    pub num_tile_dims: isize,
    pub devices: *const i64,
    pub num_devices: isize,
    pub iota_reshape_dims: *const i64,
    pub num_iota_reshape_dims: isize,
    pub iota_transpose_perm: *const i64,
    pub num_iota_transpose_perm: isize,
    pub last_tile_dims: *const u32,
    pub num_last_tile_dims: isize,
    pub tuple_elements: MlirAttribute,
    pub has_shard_as: bool,
    pub shard_as: i64,
    pub has_shard_like: bool,
    pub shard_like: i64,
    pub metadata: MlirStringRef,
}

/// `RxlaHloFieldCallback`: one field of a struct attribute (name, values,
/// count, whether a list, user data).
pub type RxlaHloFieldCallback =
    unsafe extern "C" fn(name: MlirStringRef, values: *const i64, count: isize, is_list: bool, user_data: *mut c_void);
