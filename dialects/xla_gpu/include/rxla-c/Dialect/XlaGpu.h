/*===- rxla-c/Dialect/XlaGpu.h - C API of the xla_gpu dialect ------*- C -*-===*\
|*                                                                            *|
|* The C entry point the Rust crate (and any other language binding) uses    *|
|* to register the xla_gpu emitter dialect and build GPU attributes.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef RXLA_C_DIALECT_XLAGPU_H
#define RXLA_C_DIALECT_XLAGPU_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(XlaGpu, xla_gpu);

/// `#gpu<dim x|y|z>` for `dim` 0, 1 or 2 (the dimension of
/// `gpu.thread_id` and `gpu.block_id`, which upstream's C API cannot build).
MLIR_CAPI_EXPORTED MlirAttribute rxlaGpuDimensionAttrGet(MlirContext context,
                                                         int32_t dim);

#ifdef __cplusplus
}
#endif

#endif /* RXLA_C_DIALECT_XLAGPU_H */
