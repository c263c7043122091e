//! The C entry points of `dialects/hlo/include/rxla-c/Dialect/Hlo.h`.

use mlir_sys::{MlirContext, MlirDialectHandle, MlirOperation};

extern "C" {
    pub fn mlirGetDialectHandle__hlo__() -> MlirDialectHandle;
    pub fn rxlaOperationIsTriviallyDead(op: MlirOperation) -> bool;
    pub fn rxlaOperationIsMemoryEffectFree(op: MlirOperation) -> bool;
    pub fn rxlaContextSetPrintOpOnDiagnostic(context: MlirContext, enable: bool);
}
