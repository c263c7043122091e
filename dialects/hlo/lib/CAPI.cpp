//===- CAPI.cpp - C API of the hlo dialect --------------------------------===//

#include "rxla-c/Dialect/Hlo.h"
#include "rxla/Dialect/Hlo/IR/HloOps.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Hlo, hlo, rxla::hlo::HloDialect)

bool rxlaOperationIsTriviallyDead(MlirOperation op) {
  return mlir::wouldOpBeTriviallyDead(unwrap(op));
}

bool rxlaOperationIsMemoryEffectFree(MlirOperation op) {
  return mlir::isMemoryEffectFree(unwrap(op));
}

MlirAttribute rxlaOperationGetAttrDictionary(MlirOperation op) {
  return wrap(mlir::Attribute(unwrap(op)->getAttrDictionary()));
}

void rxlaEmitWarning(MlirLocation location, MlirStringRef message) {
  mlir::emitWarning(unwrap(location)) << unwrap(message);
}

void rxlaContextSetPrintOpOnDiagnostic(MlirContext context, bool enable) {
  unwrap(context)->printOpOnDiagnostic(enable);
}
