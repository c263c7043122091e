/*===- rxla-c/Dialect/Xla.h - C API of the xla dialect -------------*- C -*-===*\
|*                                                                            *|
|* The C entry point the Rust crate (and any other language binding) uses    *|
|* to register the xla emitter dialect into an MLIR context.                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef RXLA_C_DIALECT_XLA_H
#define RXLA_C_DIALECT_XLA_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Xla, xla);

#ifdef __cplusplus
}
#endif

#endif /* RXLA_C_DIALECT_XLA_H */
