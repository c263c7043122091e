//! The C entry points of `dialects/*/include/rxla-c/Dialect/*.h`.

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
    pub fn rxlaGpuDimensionAttrGet(context: MlirContext, dim: i32) -> MlirAttribute;
}
