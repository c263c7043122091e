/*===- rxla-c/Dialect/Hlo.h - C API of the hlo dialect ------------*- C -*-===*\
|*                                                                            *|
|* The C entry points the Rust crate (and any other language binding) uses   *|
|* to register the hlo dialect into an MLIR context.                          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef RXLA_C_DIALECT_HLO_H
#define RXLA_C_DIALECT_HLO_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Hlo, hlo);

/// True if `op` would be dead if its results were unused (MLIR's
/// wouldOpBeTriviallyDead). Used by rxla's Rust DCE.
MLIR_CAPI_EXPORTED bool rxlaOperationIsTriviallyDead(MlirOperation op);

/// True if `op` is free of memory effects (MLIR's isMemoryEffectFree).
MLIR_CAPI_EXPORTED bool rxlaOperationIsMemoryEffectFree(MlirOperation op);

/// All of `op`'s attributes, inherent and discardable, as one dictionary
/// (Operation::getAttrDictionary). MLIR's mlirOperationGetNumAttributes
/// and mlirOperationGetAttribute each rebuild that dictionary from the
/// op's properties, so reading k attributes through them builds it k+1
/// times.
MLIR_CAPI_EXPORTED MlirAttribute rxlaOperationGetAttrDictionary(MlirOperation op);

/// Whether diagnostics on an operation get a "see current operation" note
/// (MLIR's MLIRContext::printOpOnDiagnostic; mlir-opt turns it off for
/// --verify-diagnostics). Not in MLIR's C API.
MLIR_CAPI_EXPORTED void rxlaContextSetPrintOpOnDiagnostic(MlirContext context,
                                                          bool enable);

/// Emits a warning diagnostic at `location` (the C API has only
/// mlirEmitError). Handlers attached to the context receive it; with none,
/// MLIR drops warnings.
MLIR_CAPI_EXPORTED void rxlaEmitWarning(MlirLocation location,
                                        MlirStringRef message);

#ifdef __cplusplus
}
#endif

#endif /* RXLA_C_DIALECT_HLO_H */
