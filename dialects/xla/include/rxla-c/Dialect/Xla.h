/*===- rxla-c/Dialect/Xla.h - C API of the xla dialect -------------*- C -*-===*\
|*                                                                            *|
|* The C entry points the Rust crate (and any other language binding) uses   *|
|* to register the xla emitter dialect and to read and build indexing maps.   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef RXLA_C_DIALECT_XLA_H
#define RXLA_C_DIALECT_XLA_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Xla, xla);

/// True if `attr` is an `#xla.indexing_map`.
MLIR_CAPI_EXPORTED bool rxlaAttributeIsAIndexingMap(MlirAttribute attr);

/// The `#xla.indexing_map` holding `text` (XLA's text form of a map; runs of
/// whitespace are collapsed as when parsing). Null, with a diagnostic on the
/// context, when the text is not a well-formed indexing map.
MLIR_CAPI_EXPORTED MlirAttribute rxlaIndexingMapAttrGet(MlirContext context,
                                                        MlirStringRef text);

/// The text of an `#xla.indexing_map`; it lives as long as the context.
MLIR_CAPI_EXPORTED MlirStringRef rxlaIndexingMapAttrGetText(MlirAttribute attr);

/// `#xla<workgroup_dim x|y|z>` for `dim` 0, 1 or 2 (the dimension of
/// `xla.workgroup_id`).
MLIR_CAPI_EXPORTED MlirAttribute rxlaWorkGroupDimensionAttrGet(MlirContext context,
                                                               int32_t dim);

/// `#arith.fastmath<...>` of the bits of `mlir::arith::FastMathFlags`
/// (upstream's C API has no builder for it; the emitters mark reducers'
/// float additions `reassoc`).
MLIR_CAPI_EXPORTED MlirAttribute rxlaArithFastMathAttrGet(MlirContext context,
                                                          uint32_t flags);

/// The bits of an `#arith.fastmath<...>` attribute; -1 for any other
/// attribute.
MLIR_CAPI_EXPORTED int64_t rxlaArithFastMathAttrGetFlags(MlirAttribute attr);

/// `#arith.overflow<...>` of the bits of `mlir::arith::IntegerOverflowFlags`
/// (1: nsw, 2: nuw).
MLIR_CAPI_EXPORTED MlirAttribute rxlaArithOverflowAttrGet(MlirContext context,
                                                          uint32_t flags);

/// `#vector.kind<kind>` (`add`, `maxnumf`, ...); null for an unknown kind.
MLIR_CAPI_EXPORTED MlirAttribute
rxlaVectorCombiningKindAttrGet(MlirContext context, MlirStringRef kind);

/// `#nvvm<shfl_kind kind>` (`bfly`, `up`, `down`, `idx`); null for an
/// unknown kind.
MLIR_CAPI_EXPORTED MlirAttribute rxlaNVVMShflKindAttrGet(MlirContext context,
                                                         MlirStringRef kind);

/// `#llvm.constant_range<iN, lower, upper>` (the half-open range
/// [lower, upper) of `bitWidth`-bit integers).
MLIR_CAPI_EXPORTED MlirAttribute rxlaLLVMConstantRangeAttrGet(
    MlirContext context, uint32_t bitWidth, int64_t lower, int64_t upper);

#ifdef __cplusplus
}
#endif

#endif /* RXLA_C_DIALECT_XLA_H */
