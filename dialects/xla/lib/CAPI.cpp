//===- CAPI.cpp - C API of the xla dialect --------------------------------===//

#include "rxla-c/Dialect/Xla.h"
#include "rxla/Dialect/Xla/IR/XlaOps.h"

#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Xla, xla, rxla::xla::XlaDialect)
