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

/// Calls `callback` with each of `op`'s attributes, inherent and
/// discardable, in name order: the elements of
/// rxlaOperationGetAttrDictionary, without building (and uniquing) that
/// dictionary for ops that keep attributes as properties.
MLIR_CAPI_EXPORTED void
rxlaOperationForEachAttr(MlirOperation op,
                         void (*callback)(MlirNamedAttribute, void *),
                         void *userData);

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

/// The case name of one of the dialect's enum attributes (`LT` of
/// `#hlo<comparison_direction LT>`); a null string ref for any other
/// attribute. The string is static.
MLIR_CAPI_EXPORTED MlirStringRef rxlaHloEnumAttrGetCase(MlirAttribute attr);

/// The enum attribute of kind `kind` (its mnemonic, `comparison_direction`)
/// and case `caseName`; a null attribute if either is unknown.
MLIR_CAPI_EXPORTED MlirAttribute rxlaHloEnumAttrGet(MlirContext context,
                                                    MlirStringRef kind,
                                                    MlirStringRef caseName);

/// Receives one field of a struct attribute: its name as printed, and
/// either a list (`isList`) or one integer (`count` is 1).
typedef void (*RxlaHloFieldCallback)(MlirStringRef name, const int64_t *values,
                                     intptr_t count, bool isList,
                                     void *userData);

/// Calls `callback` for each field of an integer-valued struct attribute
/// (`#hlo.dot`, `gather`, `scatter`, `conv`, `window`, and `layout`
/// without tiles), in parameter order, and returns its mnemonic. Lists are
/// reported even when empty; a layout's default-valued integers only where
/// they are printed. For any other attribute: a null string ref, and no
/// calls.
MLIR_CAPI_EXPORTED MlirStringRef rxlaHloStructAttrGetFields(
    MlirAttribute attr, RxlaHloFieldCallback callback, void *userData);

/// Builds the struct attribute `mnemonic` (`dot`, `gather`, `scatter`,
/// `window`, or `layout` without tiles) from `numFields` named fields, each a list (`isList`) or one
/// integer (`sizes[i]` is 1); absent lists are empty. A null attribute when
/// a required field is missing, a field is unknown or of the wrong kind, or
/// the attribute would not verify.
MLIR_CAPI_EXPORTED MlirAttribute rxlaHloStructAttrGet(
    MlirContext context, MlirStringRef mnemonic, intptr_t numFields,
    const MlirStringRef *names, const int64_t *const *values,
    const intptr_t *sizes, const bool *isList);

/// `#hlo.groups<[[...], ...]>` of `numGroups` groups, group `i` being the
/// `sizes[i]` ids at `groups[i]`.
MLIR_CAPI_EXPORTED MlirAttribute rxlaHloIndexGroupsAttrGet(
    MlirContext context, intptr_t numGroups, const int64_t *const *groups,
    const intptr_t *sizes);

/// The fields of an `#hlo.sharding` (XLA's HloSharding). `kind` and the
/// `lastTileDims` entries are the values of `rxla::hlo::ShardingKind`
/// (replicated 0, manual 1, unknown 2, unreduced 3, maximal 4, tiled 5,
/// tuple 6) and `rxla::hlo::ShardingSubgroup` (maximal 0, manual 1,
/// unreduced 2, replicated 3). A maximal sharding's device is the one
/// entry of `devices`; a tuple's leaves are `tupleElements` (an array of
/// shardings; null otherwise); a null `metadata.data` means none.
typedef struct {
  uint32_t kind;
  const int64_t *tileDims;
  intptr_t numTileDims;
  const int64_t *devices;
  intptr_t numDevices;
  const int64_t *iotaReshapeDims;
  intptr_t numIotaReshapeDims;
  const int64_t *iotaTransposePerm;
  intptr_t numIotaTransposePerm;
  const uint32_t *lastTileDims;
  intptr_t numLastTileDims;
  MlirAttribute tupleElements;
  bool hasShardAs;
  int64_t shardAs;
  bool hasShardLike;
  int64_t shardLike;
  MlirStringRef metadata;
} RxlaHloShardingFields;

/// Fills `fields` from an `#hlo.sharding` (the lists point into the
/// attribute, which lives as long as its context); false for any other
/// attribute.
MLIR_CAPI_EXPORTED bool rxlaHloShardingAttrGetFields(MlirAttribute attr,
                                                     RxlaHloShardingFields *fields);

/// The `#hlo.sharding` of `fields`; a null attribute where it would not
/// verify (an unknown kind, devices listed twice, ...).
MLIR_CAPI_EXPORTED MlirAttribute
rxlaHloShardingAttrGet(MlirContext context, const RxlaHloShardingFields *fields);

/// `!hlo.token`.
MLIR_CAPI_EXPORTED MlirType rxlaHloTokenTypeGet(MlirContext context);

#ifdef __cplusplus
}
#endif

#endif /* RXLA_C_DIALECT_HLO_H */
