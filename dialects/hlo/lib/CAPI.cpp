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

void rxlaOperationForEachAttr(MlirOperation op,
                              void (*callback)(MlirNamedAttribute, void *),
                              void *userData) {
  mlir::Operation *o = unwrap(op);
  auto emit = [&](const mlir::NamedAttribute &a) {
    callback(mlirNamedAttributeGet(wrap(a.getName()), wrap(a.getValue())),
             userData);
  };
  // Without properties the op's dictionary is all its attributes.
  if (o->getPropertiesStorageSize() == 0) {
    for (const mlir::NamedAttribute &a : o->getAttrDictionary())
      emit(a);
    return;
  }
  // With properties, getAttrDictionary builds (and uniques) a dictionary
  // of the inherent and discardable attributes; this lists the same ones
  // in the same (name) order without building it.
  llvm::SmallVector<mlir::NamedAttribute, 8> attrs;
  if (std::optional<mlir::RegisteredOperationName> info =
          o->getRegisteredInfo())
    for (mlir::StringAttr name : info->getAttributeNames())
      if (std::optional<mlir::Attribute> a = o->getInherentAttr(name);
          a && *a)
        attrs.emplace_back(name, *a);
  for (const mlir::NamedAttribute &a : o->getDiscardableAttrs())
    attrs.push_back(a);
  llvm::sort(attrs, [](const mlir::NamedAttribute &x,
                       const mlir::NamedAttribute &y) {
    return x.getName().strref() < y.getName().strref();
  });
  for (const mlir::NamedAttribute &a : attrs)
    emit(a);
}

void rxlaEmitWarning(MlirLocation location, MlirStringRef message) {
  mlir::emitWarning(unwrap(location)) << unwrap(message);
}

void rxlaContextSetPrintOpOnDiagnostic(MlirContext context, bool enable) {
  unwrap(context)->printOpOnDiagnostic(enable);
}

//===----------------------------------------------------------------------===//
// Typed access to the dialect's enum and integer struct attributes, so that
// passes read and build them without printing and parsing.
//===----------------------------------------------------------------------===//

using namespace rxla::hlo;

// Every enum attribute of the dialect: its mnemonic, attribute class and
// enum. Kept next to HloEnums.td's Hlo_EnumAttr definitions.
#define RXLA_HLO_ENUM_ATTRS(X)                                                 \
  X("comparison_direction", ComparisonDirectionAttr, ComparisonDirection)     \
  X("comparison_type", ComparisonTypeAttr, ComparisonType)                     \
  X("precision", PrecisionAttr, Precision)                                     \
  X("fft_type", FftTypeAttr, FftType)                                          \
  X("rng_algorithm", RngAlgorithmAttr, RngAlgorithm)                           \
  X("rng_distribution", RngDistributionAttr, RngDistribution)                  \
  X("fusion_kind", FusionKindAttr, FusionKind)                                 \
  X("transpose", TriangularSolveTransposeAttr, TriangularSolveTranspose)       \
  X("api_version", CustomCallApiVersionAttr, CustomCallApiVersion)             \
  X("result_accuracy_mode", ResultAccuracyModeAttr, ResultAccuracyMode)        \
  X("shuffle_mode", ShuffleModeAttr, ShuffleMode)

MlirStringRef rxlaHloEnumAttrGetCase(MlirAttribute attr) {
  mlir::Attribute a = unwrap(attr);
#define X(kind, Attr, Enum)                                                    \
  if (auto e = mlir::dyn_cast_if_present<Attr>(a))                             \
    return wrap(stringifyEnum(e.getValue()));
  RXLA_HLO_ENUM_ATTRS(X)
#undef X
  return mlirStringRefCreate(nullptr, 0);
}

MlirAttribute rxlaHloEnumAttrGet(MlirContext context, MlirStringRef kind,
                                 MlirStringRef caseName) {
  llvm::StringRef k = unwrap(kind);
  mlir::MLIRContext *ctx = unwrap(context);
#define X(name, Attr, Enum)                                                    \
  if (k == name) {                                                             \
    if (auto value = symbolizeEnum<Enum>(unwrap(caseName)))                    \
      return wrap(mlir::Attribute(Attr::get(ctx, *value)));                    \
    return MlirAttribute{nullptr};                                             \
  }
  RXLA_HLO_ENUM_ATTRS(X)
#undef X
  return MlirAttribute{nullptr};
}

namespace {
/// Reports one field to the C callback.
struct FieldSink {
  RxlaHloFieldCallback callback;
  void *userData;
  void list(llvm::StringRef name, llvm::ArrayRef<int64_t> values) const {
    callback(wrap(name), values.data(), values.size(), true, userData);
  }
  void integer(llvm::StringRef name, int64_t value) const {
    callback(wrap(name), &value, 1, false, userData);
  }
};
} // namespace

MlirStringRef rxlaHloStructAttrGetFields(MlirAttribute attr,
                                         RxlaHloFieldCallback callback,
                                         void *userData) {
  mlir::Attribute a = unwrap(attr);
  FieldSink f{callback, userData};
  if (auto d = mlir::dyn_cast_if_present<DotDimensionNumbersAttr>(a)) {
    f.list("lhs_batch_dims", d.getLhsBatchDims());
    f.list("rhs_batch_dims", d.getRhsBatchDims());
    f.list("lhs_contracting_dims", d.getLhsContractingDims());
    f.list("rhs_contracting_dims", d.getRhsContractingDims());
    return wrap(llvm::StringRef("dot"));
  }
  if (auto g = mlir::dyn_cast_if_present<GatherDimensionNumbersAttr>(a)) {
    f.list("offset_dims", g.getOffsetDims());
    f.list("collapsed_slice_dims", g.getCollapsedSliceDims());
    f.list("operand_batching_dims", g.getOperandBatchingDims());
    f.list("start_indices_batching_dims", g.getStartIndicesBatchingDims());
    f.list("start_index_map", g.getStartIndexMap());
    f.integer("index_vector_dim", g.getIndexVectorDim());
    return wrap(llvm::StringRef("gather"));
  }
  if (auto s = mlir::dyn_cast_if_present<ScatterDimensionNumbersAttr>(a)) {
    f.list("update_window_dims", s.getUpdateWindowDims());
    f.list("inserted_window_dims", s.getInsertedWindowDims());
    f.list("input_batching_dims", s.getInputBatchingDims());
    f.list("scatter_indices_batching_dims", s.getScatterIndicesBatchingDims());
    f.list("scatter_dims_to_operand_dims", s.getScatterDimsToOperandDims());
    f.integer("index_vector_dim", s.getIndexVectorDim());
    return wrap(llvm::StringRef("scatter"));
  }
  if (auto c = mlir::dyn_cast_if_present<ConvDimensionNumbersAttr>(a)) {
    f.integer("input_batch_dim", c.getInputBatchDim());
    f.integer("input_feature_dim", c.getInputFeatureDim());
    f.list("input_spatial_dims", c.getInputSpatialDims());
    f.integer("kernel_input_feature_dim", c.getKernelInputFeatureDim());
    f.integer("kernel_output_feature_dim", c.getKernelOutputFeatureDim());
    f.list("kernel_spatial_dims", c.getKernelSpatialDims());
    f.integer("output_batch_dim", c.getOutputBatchDim());
    f.integer("output_feature_dim", c.getOutputFeatureDim());
    f.list("output_spatial_dims", c.getOutputSpatialDims());
    return wrap(llvm::StringRef("conv"));
  }
  if (auto w = mlir::dyn_cast_if_present<WindowAttr>(a)) {
    f.list("size", w.getSize());
    f.list("stride", w.getStride());
    f.list("pad_low", w.getPadLow());
    f.list("pad_high", w.getPadHigh());
    f.list("lhs_dilation", w.getLhsDilation());
    f.list("rhs_dilation", w.getRhsDilation());
    f.list("reversal", w.getReversal());
    return wrap(llvm::StringRef("window"));
  }
  // Layouts with tiles or uninterpreted text have fields that are not
  // integers: not reported.
  if (auto l = mlir::dyn_cast_if_present<LayoutAttr>(a)) {
    if (l.getTiles() || l.getExtra())
      return mlirStringRefCreate(nullptr, 0);
    f.list("minor_to_major", l.getMinorToMajor());
    // Default-valued fields are reported where the printer prints them.
    if (l.getElementSizeInBits() != 0)
      f.integer("element_size_in_bits", l.getElementSizeInBits());
    if (l.getMemorySpace() != 0)
      f.integer("memory_space", l.getMemorySpace());
    return wrap(llvm::StringRef("layout"));
  }
  return mlirStringRefCreate(nullptr, 0);
}

namespace {
/// The fields given to rxlaHloStructAttrGet, looked up by name.
struct FieldSource {
  intptr_t count;
  const MlirStringRef *names;
  const int64_t *const *values;
  const intptr_t *sizes;
  const bool *isList;
  /// Fields taken so far; every given field must be taken.
  intptr_t taken = 0;
  bool ok = true;

  /// A list field; absent ones are empty.
  llvm::ArrayRef<int64_t> list(llvm::StringRef name) {
    for (intptr_t i = 0; i < count; ++i) {
      if (unwrap(names[i]) != name)
        continue;
      ++taken;
      if (!isList[i])
        ok = false;
      return llvm::ArrayRef<int64_t>(values[i], sizes[i]);
    }
    return {};
  }
  /// An integer field; absent ones fail unless a default is given.
  int64_t integer(llvm::StringRef name, std::optional<int64_t> dflt = {}) {
    for (intptr_t i = 0; i < count; ++i) {
      if (unwrap(names[i]) != name)
        continue;
      ++taken;
      if (isList[i] || sizes[i] != 1) {
        ok = false;
        return 0;
      }
      return values[i][0];
    }
    if (!dflt)
      ok = false;
    return dflt.value_or(0);
  }
  bool complete() const { return ok && taken == count; }
};
} // namespace

MlirAttribute rxlaHloStructAttrGet(MlirContext context, MlirStringRef mnemonic,
                                   intptr_t numFields,
                                   const MlirStringRef *names,
                                   const int64_t *const *values,
                                   const intptr_t *sizes, const bool *isList) {
  mlir::MLIRContext *ctx = unwrap(context);
  llvm::StringRef m = unwrap(mnemonic);
  FieldSource f{numFields, names, values, sizes, isList};
  mlir::Attribute made;
  if (m == "dot") {
    auto lb = f.list("lhs_batch_dims"), rb = f.list("rhs_batch_dims");
    auto lc = f.list("lhs_contracting_dims"), rc = f.list("rhs_contracting_dims");
    made = DotDimensionNumbersAttr::get(ctx, lb, rb, lc, rc);
  } else if (m == "gather") {
    auto offset = f.list("offset_dims");
    auto collapsed = f.list("collapsed_slice_dims");
    auto operandBatching = f.list("operand_batching_dims");
    auto indicesBatching = f.list("start_indices_batching_dims");
    auto map = f.list("start_index_map");
    int64_t ivd = f.integer("index_vector_dim");
    made = GatherDimensionNumbersAttr::get(ctx, offset, collapsed,
                                           operandBatching, indicesBatching,
                                           map, ivd);
  } else if (m == "scatter") {
    auto window = f.list("update_window_dims");
    auto inserted = f.list("inserted_window_dims");
    auto inputBatching = f.list("input_batching_dims");
    auto indicesBatching = f.list("scatter_indices_batching_dims");
    auto toOperand = f.list("scatter_dims_to_operand_dims");
    int64_t ivd = f.integer("index_vector_dim");
    made = ScatterDimensionNumbersAttr::get(ctx, window, inserted,
                                            inputBatching, indicesBatching,
                                            toOperand, ivd);
  } else if (m == "layout") {
    // Layouts without tiles (a layout with tiles is read as text).
    auto minorToMajor = f.list("minor_to_major");
    int64_t elementSize = f.integer("element_size_in_bits", 0);
    int64_t memorySpace = f.integer("memory_space", 0);
    made = LayoutAttr::get(ctx, minorToMajor, mlir::ArrayAttr(), elementSize,
                           memorySpace, mlir::StringAttr());
  } else if (m == "window") {
    auto size = f.list("size"), stride = f.list("stride");
    auto low = f.list("pad_low"), high = f.list("pad_high");
    auto lhs = f.list("lhs_dilation"), rhs = f.list("rhs_dilation");
    auto reversal = f.list("reversal");
    if (!f.complete())
      return MlirAttribute{nullptr};
    // The verifier's rules (equal lengths, positive sizes) as a null
    // result rather than an abort. An empty InFlightDiagnostic would read
    // as success: the diagnostic is real and a scoped handler drops it.
    mlir::ScopedDiagnosticHandler quiet(
        ctx, [](mlir::Diagnostic &) { return mlir::success(); });
    made = WindowAttr::getChecked(
        [ctx] { return mlir::emitError(mlir::UnknownLoc::get(ctx)); }, ctx,
        size, stride, low, high, lhs, rhs, reversal);
  } else {
    return MlirAttribute{nullptr};
  }
  if (!f.complete())
    return MlirAttribute{nullptr};
  return wrap(made);
}

MlirAttribute rxlaHloIndexGroupsAttrGet(MlirContext context,
                                        intptr_t numGroups,
                                        const int64_t *const *groups,
                                        const intptr_t *sizes) {
  mlir::MLIRContext *ctx = unwrap(context);
  mlir::Builder b(ctx);
  llvm::SmallVector<mlir::Attribute> list;
  for (intptr_t i = 0; i < numGroups; ++i)
    list.push_back(b.getDenseI64ArrayAttr(
        llvm::ArrayRef<int64_t>(groups[i], static_cast<size_t>(sizes[i]))));
  return wrap(mlir::Attribute(
      IndexGroupsAttr::get(ctx, b.getArrayAttr(list))));
}

bool rxlaHloShardingAttrGetFields(MlirAttribute attr,
                                  RxlaHloShardingFields *fields) {
  auto sharding = llvm::dyn_cast<ShardingAttr>(unwrap(attr));
  if (!sharding)
    return false;
  auto list = [](llvm::ArrayRef<int64_t> values, const int64_t *&data,
                 intptr_t &size) {
    data = values.data();
    size = static_cast<intptr_t>(values.size());
  };
  fields->kind = static_cast<uint32_t>(sharding.getKind());
  list(sharding.getTileDims(), fields->tileDims, fields->numTileDims);
  list(sharding.getDevices(), fields->devices, fields->numDevices);
  list(sharding.getIotaReshapeDims(), fields->iotaReshapeDims,
       fields->numIotaReshapeDims);
  list(sharding.getIotaTransposePerm(), fields->iotaTransposePerm,
       fields->numIotaTransposePerm);
  static_assert(sizeof(ShardingSubgroup) == sizeof(uint32_t));
  llvm::ArrayRef<ShardingSubgroup> last = sharding.getLastTileDims();
  fields->lastTileDims = reinterpret_cast<const uint32_t *>(last.data());
  fields->numLastTileDims = static_cast<intptr_t>(last.size());
  fields->tupleElements = wrap(mlir::Attribute(sharding.getTupleElements()));
  fields->hasShardAs = sharding.getShardAs().has_value();
  fields->shardAs = sharding.getShardAs().value_or(0);
  fields->hasShardLike = sharding.getShardLike().has_value();
  fields->shardLike = sharding.getShardLike().value_or(0);
  mlir::StringAttr metadata = sharding.getMetadata();
  fields->metadata = metadata ? wrap(metadata.getValue())
                              : MlirStringRef{nullptr, 0};
  return true;
}

MlirAttribute rxlaHloShardingAttrGet(MlirContext context,
                                     const RxlaHloShardingFields *fields) {
  mlir::MLIRContext *ctx = unwrap(context);
  std::optional<ShardingKind> kind = symbolizeShardingKind(fields->kind);
  if (!kind)
    return MlirAttribute{nullptr};
  auto list = [](const int64_t *data, intptr_t size) {
    return llvm::ArrayRef<int64_t>(data, static_cast<size_t>(size));
  };
  llvm::SmallVector<ShardingSubgroup> last;
  for (intptr_t i = 0; i < fields->numLastTileDims; ++i) {
    std::optional<ShardingSubgroup> t =
        symbolizeShardingSubgroup(fields->lastTileDims[i]);
    if (!t)
      return MlirAttribute{nullptr};
    last.push_back(*t);
  }
  mlir::ArrayAttr tuple;
  if (!mlirAttributeIsNull(fields->tupleElements)) {
    tuple = llvm::dyn_cast<mlir::ArrayAttr>(unwrap(fields->tupleElements));
    if (!tuple)
      return MlirAttribute{nullptr};
  }
  std::optional<int64_t> shardAs, shardLike;
  if (fields->hasShardAs)
    shardAs = fields->shardAs;
  if (fields->hasShardLike)
    shardLike = fields->shardLike;
  mlir::StringAttr metadata;
  if (fields->metadata.data)
    metadata = mlir::StringAttr::get(ctx, unwrap(fields->metadata));
  // The verifier's rules as a null result (see rxlaHloStructAttrGet).
  mlir::ScopedDiagnosticHandler quiet(
      ctx, [](mlir::Diagnostic &) { return mlir::success(); });
  auto error = [ctx] { return mlir::emitError(mlir::UnknownLoc::get(ctx)); };
  // The generated getChecked (the storage is complete only in HloAttrs.cpp).
  llvm::function_ref<mlir::InFlightDiagnostic()> emitError(error);
  return wrap(mlir::Attribute(ShardingAttr::getChecked(
      emitError, ctx,
      *kind, list(fields->tileDims, fields->numTileDims),
      list(fields->devices, fields->numDevices),
      list(fields->iotaReshapeDims, fields->numIotaReshapeDims),
      list(fields->iotaTransposePerm, fields->numIotaTransposePerm),
      llvm::ArrayRef<ShardingSubgroup>(last),
      tuple, shardAs, shardLike, metadata)));
}

MlirType rxlaHloTokenTypeGet(MlirContext context) {
  return wrap(mlir::Type(TokenType::get(unwrap(context))));
}
