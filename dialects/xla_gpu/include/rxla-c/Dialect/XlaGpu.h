/*===- rxla-c/Dialect/XlaGpu.h - C API of the xla_gpu dialect ------*- C -*-===*\
|*                                                                            *|
|* The C entry point the Rust crate (and any other language binding) uses    *|
|* to register the xla_gpu emitter dialect into an MLIR context.              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef RXLA_C_DIALECT_XLAGPU_H
#define RXLA_C_DIALECT_XLAGPU_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(XlaGpu, xla_gpu);

#ifdef __cplusplus
}
#endif

#endif /* RXLA_C_DIALECT_XLAGPU_H */
