//===- CAPI.cpp - C API of the xla_gpu dialect ----------------------------===//

#include "rxla-c/Dialect/XlaGpu.h"
#include "rxla/Dialect/XlaGpu/IR/XlaGpuOps.h"

#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(XlaGpu, xla_gpu, rxla::xla_gpu::XlaGpuDialect)
