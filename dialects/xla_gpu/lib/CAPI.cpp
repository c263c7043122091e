//===- CAPI.cpp - C API of the xla_gpu dialect ----------------------------===//

#include "rxla-c/Dialect/XlaGpu.h"
#include "rxla/Dialect/XlaGpu/IR/XlaGpuOps.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(XlaGpu, xla_gpu, rxla::xla_gpu::XlaGpuDialect)

MlirAttribute rxlaGpuDimensionAttrGet(MlirContext context, int32_t dim) {
  return wrap(mlir::gpu::DimensionAttr::get(
      unwrap(context), static_cast<mlir::gpu::Dimension>(dim)));
}
