//===- CollectiveOps.cpp - verifiers of the hlo dialect's collective ops ---===//
//
// all_reduce(_start/_done), all_gather(_start/_done), all_to_all,
// ragged_all_to_all, reduce_scatter, collective_broadcast,
// collective_reduce and collective_permute(_start/_done). The rules follow
// XLA's operation semantics, its shape inference and the HLO verifier's
// replica group checks (CheckReplicaGroups): groups are non-empty, ids are
// distinct and name every id 0..n-1, and (except for all-reduce-like ops)
// all groups have the same size, which is the number of shards of
// all-gather, reduce-scatter and all-to-all (times the module's
// num_partitions for gathers and scatters whose groups name replicas
// across partitions: a channel_id without use_global_device_ids). Without
// explicit groups all replicas form one group of a size unknown here, so
// only divisibility is checked.
//
//===----------------------------------------------------------------------===//

#include "VerifyUtils.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace rxla::hlo;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Checks replica_groups; returns the size of a group, or nullopt when there
/// are no explicit groups (or, with `uniform` false, when sizes may differ).
static FailureOr<std::optional<int64_t>> verifyReplicaGroups(Operation *op, Attribute attr,
                                                             bool uniform) {
  if (!attr)
    return std::optional<int64_t>();
  if (auto iota = dyn_cast<IotaReplicaGroupsAttr>(attr)) {
    // The attribute verifier guarantees a 2-D [num_groups, group_size].
    ArrayRef<int64_t> shape = iota.getGroupShape();
    return std::optional<int64_t>(shape.size() == 2 ? shape[1] : int64_t(0));
  }
  auto groups = cast<IndexGroupsAttr>(attr).getGroupList();
  if (groups.empty())
    return std::optional<int64_t>();
  llvm::DenseSet<int64_t> seen;
  for (auto [i, group] : llvm::enumerate(groups)) {
    if (group.empty())
      return op->emitOpError() << "replica group " << i << " is empty";
    for (int64_t id : group) {
      if (id < 0)
        return op->emitOpError() << "replica_groups contain the negative id " << id;
      if (!seen.insert(id).second)
        return op->emitOpError() << "replica id " << id
                                 << " appears more than once in replica_groups";
    }
  }
  for (int64_t id = 0; id < (int64_t)seen.size(); ++id)
    if (!seen.contains(id))
      return op->emitOpError() << "replica_groups must name every id from 0 to "
                               << seen.size() - 1 << ", but " << id << " is missing";
  if (!uniform)
    return std::optional<int64_t>();
  for (auto [i, group] : llvm::enumerate(groups))
    if (group.size() != groups[0].size())
      return op->emitOpError() << "all replica groups must have the same size, but group 0 has "
                               << groups[0].size() << " ids and group " << i << " has "
                               << group.size();
  return std::optional<int64_t>(groups[0].size());
}

/// The attributes every replica-group collective carries; returns the group
/// size as verifyReplicaGroups.
template <typename OpT>
static FailureOr<std::optional<int64_t>> verifyCollectiveAttrs(OpT op, bool uniform) {
  if (op.getUseGlobalDeviceIds() && !op.getChannelId())
    return op.emitOpError() << "use_global_device_ids requires a channel_id";
  return verifyReplicaGroups(op, op.getReplicaGroupsAttr(), uniform);
}

/// The enclosing module's `num_partitions` (its HLO header attribute, 1
/// when it has none), or nullopt when it cannot be read.
static std::optional<int64_t> numPartitions(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  if (!module)
    return std::nullopt;
  auto header = module->getAttrOfType<DictionaryAttr>("hlo.module_attributes");
  Attribute value = header ? header.get("num_partitions") : Attribute();
  if (!value)
    return 1;
  if (auto i = dyn_cast<IntegerAttr>(value))
    return i.getInt();
  int64_t n;
  if (auto text = dyn_cast<StringAttr>(value); text && !text.getValue().trim().getAsInteger(10, n))
    return n;
  return std::nullopt;
}

/// The devices in one group of a gather or scatter: the group's size, times
/// the module's partitions when the groups name replicas across all
/// partitions (a channel_id without use_global_device_ids: XLA's
/// kCrossReplicaAndPartition, GetSubgroupSize).
template <typename OpT>
static std::optional<int64_t> participantCount(OpT op, std::optional<int64_t> groupSize) {
  if (!groupSize || !op.getChannelId() || op.getUseGlobalDeviceIds())
    return groupSize;
  std::optional<int64_t> partitions = numPartitions(op);
  if (!partitions)
    return std::nullopt;
  return *groupSize * *partitions;
}

/// At least one operand.
static LogicalResult verifyHasOperands(Operation *op) {
  if (op->getNumOperands() == 0)
    return op->emitOpError() << "needs at least one operand";
  return success();
}

/// The op has one result per operand, of the operand's type.
static LogicalResult verifyResultsAreOperands(Operation *op) {
  if (op->getNumResults() != op->getNumOperands())
    return op->emitOpError() << "has " << op->getNumResults() << " results but "
                             << op->getNumOperands() << " operands (one result per operand)";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(op->getOperandTypes(), op->getResultTypes())))
    if (std::get<0>(pair) != std::get<1>(pair))
      return op->emitOpError() << "result " << i << " has type " << std::get<1>(pair)
                               << " but operand " << i << " has type " << std::get<0>(pair);
  return success();
}

/// One operand is the value itself, several are a tuple of them (XLA's
/// shape of combined collectives).
static Type valueOrTuple(MLIRContext *ctx, TypeRange types) {
  if (types.size() == 1)
    return types[0];
  return TupleType::get(ctx, types);
}

/// to_apply of all-reduce-like ops: (T, T) -> T for the rank-0 tensor T of
/// each operand's element type.
static LogicalResult verifyScalarReducer(Operation *op, SymbolTableCollection &symbolTable,
                                         FlatSymbolRefAttr callee) {
  for (Type type : op->getOperandTypes()) {
    Type scalar = scalarOf(type);
    if (failed(verifyComputationSignature(op, symbolTable, callee, "to_apply",
                                          {scalar, scalar}, {scalar})))
      return failure();
  }
  return success();
}

/// `dim` is a dimension of `type`, which is operand/result `i`.
static LogicalResult verifyDimInRange(Operation *op, RankedTensorType type, int64_t dim,
                                      StringRef dimName, StringRef what, size_t i) {
  if (dim >= type.getRank())
    return op->emitOpError() << dimName << " " << dim << " is out of range for " << what << " "
                             << i << " of rank " << type.getRank();
  return success();
}

/// `result` (result `i`) is `operand` with dimension `dim` multiplied
/// (`gather`) or divided (scatter) by the group size; without a known group
/// size the larger of the two must be a multiple of the smaller.
static LogicalResult verifyResized(Operation *op, RankedTensorType operand, Type resultType,
                                   int64_t dim, std::optional<int64_t> groupSize, bool gather,
                                   size_t i) {
  auto result = dyn_cast<RankedTensorType>(resultType);
  if (!result)
    return op->emitOpError() << "result " << i << " must be an array, got " << resultType;
  StringRef dimName = gather ? "all_gather_dimension" : "scatter_dimension";
  if (failed(verifyDimInRange(op, operand, dim, dimName, "operand", i)))
    return failure();
  if (result.getElementType() != operand.getElementType())
    return op->emitOpError() << "result " << i << " has element type "
                             << result.getElementType() << " but operand " << i
                             << " has element type " << operand.getElementType();
  SmallVector<int64_t> expected(operand.getShape());
  int64_t size = operand.getDimSize(dim);
  std::string what = "result " + std::to_string(i);
  if (groupSize && !ShapedType::isDynamic(size)) {
    if (gather) {
      expected[dim] = size * *groupSize;
    } else {
      if (*groupSize == 0 || size % *groupSize != 0)
        return op->emitOpError() << "dimension " << dim << " of operand " << i << " (size "
                                 << size << ") is not divisible by the replica group size "
                                 << *groupSize;
      expected[dim] = size / *groupSize;
    }
    return verifyShapeMatches(op, result.getShape(), expected, what);
  }
  expected[dim] = ShapedType::kDynamic;
  if (failed(verifyShapeMatches(op, result.getShape(), expected, what)))
    return failure();
  int64_t big = result.getDimSize(dim), small = size;
  if (!gather)
    std::swap(big, small);
  if (!ShapedType::isDynamic(big) && !ShapedType::isDynamic(small) &&
      (small == 0 ? big != 0 : big % small != 0))
    return op->emitOpError() << "dimension " << dim << " of " << (gather ? "result " : "operand ")
                             << i << " (size " << big << ") is not a multiple of dimension "
                             << dim << " of " << (gather ? "operand " : "result ") << i
                             << " (size " << small << ")";
  return success();
}

/// Each entry of source_target_pairs is a (source, target) pair of
/// non-negative ids; no source and no target appears twice.
static LogicalResult verifySourceTargetPairs(Operation *op, IndexGroupsAttr pairs) {
  llvm::DenseSet<int64_t> sources, targets;
  for (auto [i, pair] : llvm::enumerate(pairs.getGroupList())) {
    if (pair.size() != 2)
      return op->emitOpError() << "source_target_pairs entry " << i << " has " << pair.size()
                               << " ids, expected a (source, target) pair";
    for (int64_t id : pair)
      if (id < 0)
        return op->emitOpError() << "source_target_pairs contain the negative id " << id;
    if (!sources.insert(pair[0]).second)
      return op->emitOpError() << "source " << pair[0]
                               << " appears more than once in source_target_pairs";
    if (!targets.insert(pair[1]).second)
      return op->emitOpError() << "target " << pair[1]
                               << " appears more than once in source_target_pairs";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// all_reduce, all_reduce_start
//===----------------------------------------------------------------------===//

LogicalResult AllReduceOp::verify() {
  if (failed(verifyCollectiveAttrs(*this, /*uniform=*/false)) ||
      failed(verifyHasOperands(*this)))
    return failure();
  return verifyResultsAreOperands(*this);
}

LogicalResult AllReduceOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyScalarReducer(*this, symbolTable, getToApplyAttr());
}

LogicalResult AllReduceStartOp::verify() {
  if (failed(verifyCollectiveAttrs(*this, /*uniform=*/false)) ||
      failed(verifyHasOperands(*this)))
    return failure();
  Type expected = valueOrTuple(getContext(), getOperands().getTypes());
  if (getResult().getType() != expected)
    return emitOpError() << "result has type " << getResult().getType() << " but " << expected
                         << " (the operand, or a tuple of the operands) was expected";
  return success();
}

LogicalResult AllReduceStartOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyScalarReducer(*this, symbolTable, getToApplyAttr());
}

//===----------------------------------------------------------------------===//
// all_gather, all_gather_start, all_gather_done
//===----------------------------------------------------------------------===//

/// Result `i` of the gather is operand `i` with all_gather_dimension
/// multiplied by the group size.
static LogicalResult verifyGathered(Operation *op, TypeRange results, int64_t dim,
                                    std::optional<int64_t> groupSize) {
  if (results.size() != op->getNumOperands())
    return op->emitOpError() << "has " << results.size() << " gathered results but "
                             << op->getNumOperands() << " operands (one per operand)";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(op->getOperands(), results)))
    if (failed(verifyResized(op, tensorType(std::get<0>(pair)), std::get<1>(pair), dim,
                             groupSize, /*gather=*/true, i)))
      return failure();
  return success();
}

LogicalResult AllGatherOp::verify() {
  FailureOr<std::optional<int64_t>> groupSize = verifyCollectiveAttrs(*this, true);
  if (failed(groupSize) || failed(verifyHasOperands(*this)))
    return failure();
  return verifyGathered(*this, getResultTypes(), getAllGatherDimension(),
                        participantCount(*this, *groupSize));
}

LogicalResult AllGatherStartOp::verify() {
  FailureOr<std::optional<int64_t>> groupSize = verifyCollectiveAttrs(*this, true);
  if (failed(groupSize) || failed(verifyHasOperands(*this)))
    return failure();
  // XLA: (operand or tuple of operands, gathered array or tuple of them).
  auto tuple = cast<TupleType>(getResult().getType());
  if (tuple.size() != 2)
    return emitOpError() << "result must be a 2-tuple (operands, gathered results), got "
                         << tuple;
  Type operands = valueOrTuple(getContext(), getOperands().getTypes());
  if (tuple.getType(0) != operands)
    return emitOpError() << "result element 0 has type " << tuple.getType(0) << " but "
                         << operands << " (the operand, or a tuple of the operands) was expected";
  SmallVector<Type> gathered;
  if (getOperands().size() == 1) {
    gathered.push_back(tuple.getType(1));
  } else {
    auto inner = dyn_cast<TupleType>(tuple.getType(1));
    if (!inner)
      return emitOpError() << "result element 1 must be a tuple of the " << getOperands().size()
                           << " gathered arrays, got " << tuple.getType(1);
    gathered.append(inner.getTypes().begin(), inner.getTypes().end());
  }
  return verifyGathered(*this, gathered, getAllGatherDimension(),
                        participantCount(*this, *groupSize));
}

/// The operand is the 2-tuple of an async start and the result its element 1.
static LogicalResult verifyAsyncDone(Operation *op, StringRef start, bool allowContexts) {
  auto tuple = cast<TupleType>(op->getOperand(0).getType());
  if (tuple.size() < 2 || (!allowContexts && tuple.size() != 2))
    return op->emitOpError() << "operand must be the tuple produced by " << start << ", got "
                             << tuple;
  Type result = op->getResult(0).getType();
  if (result != tuple.getType(1))
    return op->emitOpError() << "result has type " << result << " but " << tuple.getType(1)
                             << " (element 1 of the " << start << " tuple) was expected";
  return success();
}

LogicalResult AllGatherDoneOp::verify() {
  return verifyAsyncDone(*this, "all_gather_start", /*allowContexts=*/false);
}

//===----------------------------------------------------------------------===//
// all_to_all, ragged_all_to_all
//===----------------------------------------------------------------------===//

LogicalResult AllToAllOp::verify() {
  FailureOr<std::optional<int64_t>> groupSize = verifyCollectiveAttrs(*this, true);
  if (failed(groupSize) || failed(verifyHasOperands(*this)) ||
      failed(verifyResultsAreOperands(*this)))
    return failure();
  if (std::optional<ArrayRef<int64_t>> dims = getDimensions()) {
    // Array form: split and concatenate one array along one dimension.
    if (dims->size() != 1)
      return emitOpError() << "dimensions must have exactly one entry (the split and concat "
                              "dimension), got "
                           << shapeString(*dims);
    if (getOperands().size() != 1)
      return emitOpError() << "the array form (with dimensions) takes exactly one operand, got "
                           << getOperands().size();
    auto operand = tensorType(getOperands()[0]);
    int64_t dim = (*dims)[0];
    if (dim < 0 || dim >= operand.getRank())
      return emitOpError() << "dimension " << dim << " is out of range for the operand of rank "
                           << operand.getRank();
    int64_t size = operand.getDimSize(dim);
    if (*groupSize && !ShapedType::isDynamic(size) &&
        (**groupSize == 0 || size % **groupSize != 0))
      return emitOpError() << "dimension " << dim << " of the operand (size " << size
                           << ") is not divisible by the replica group size " << **groupSize;
    return success();
  }
  // Tuple form: one same-shaped chunk per replica of a group.
  for (auto [i, v] : llvm::enumerate(getOperands()))
    if (v.getType() != getOperands()[0].getType())
      return emitOpError() << "operand " << i << " has type " << v.getType()
                           << " but operand 0 has type " << getOperands()[0].getType()
                           << " (the tuple form exchanges same-shaped operands)";
  if (*groupSize && (int64_t)getOperands().size() != **groupSize)
    return emitOpError() << "the tuple form takes one operand per replica of a group ("
                         << **groupSize << "), got " << getOperands().size();
  return success();
}

LogicalResult RaggedAllToAllOp::verify() {
  if (failed(verifyCollectiveAttrs(*this, true)))
    return failure();
  auto input = tensorType(getInput()), output = tensorType(getOutput());
  if (input.getElementType() != output.getElementType())
    return emitOpError() << "input has element type " << input.getElementType()
                         << " but output has element type " << output.getElementType();
  if (input.getRank() < 1 || input.getRank() != output.getRank() ||
      !isCompatibleShape(input.getShape().drop_front(), output.getShape().drop_front()))
    return emitOpError() << "input and output must be ragged along their first dimension with "
                            "equal other dimensions, got shapes "
                         << shapeString(input.getShape()) << " and "
                         << shapeString(output.getShape());
  Value offsetsAndSizes[] = {getInputOffsets(), getSendSizes(), getOutputOffsets(),
                             getRecvSizes()};
  StringRef names[] = {"input_offsets", "send_sizes", "output_offsets", "recv_sizes"};
  for (auto [v, name] : llvm::zip(offsetsAndSizes, names)) {
    auto type = tensorType(v);
    if (type.getRank() != 1 && type.getRank() != 2)
      return emitOpError() << name << " must have rank 1 or 2, got " << type;
    if (type != offsetsAndSizes[0].getType())
      return emitOpError() << name << " has type " << type << " but input_offsets has type "
                           << offsetsAndSizes[0].getType()
                           << " (offsets and sizes must all have the same type)";
  }
  if (getResult().getType() != output)
    return emitOpError() << "result has type " << getResult().getType() << " but " << output
                         << " (the type of output) was expected";
  return success();
}

//===----------------------------------------------------------------------===//
// reduce_scatter
//===----------------------------------------------------------------------===//

LogicalResult ReduceScatterOp::verify() {
  FailureOr<std::optional<int64_t>> groupSize = verifyCollectiveAttrs(*this, true);
  if (failed(groupSize) || failed(verifyHasOperands(*this)))
    return failure();
  if (getNumResults() != getOperands().size())
    return emitOpError() << "has " << getNumResults() << " results but "
                         << getOperands().size() << " operands (one result per operand)";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getOperands(), getResultTypes())))
    if (failed(verifyResized(*this, tensorType(std::get<0>(pair)), std::get<1>(pair),
                             getScatterDimension(), participantCount(*this, *groupSize),
                             /*gather=*/false, i)))
      return failure();
  return success();
}

LogicalResult ReduceScatterOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyScalarReducer(*this, symbolTable, getToApplyAttr());
}

//===----------------------------------------------------------------------===//
// collective_broadcast, collective_reduce
//===----------------------------------------------------------------------===//

LogicalResult CollectiveBroadcastOp::verify() {
  if (failed(verifyCollectiveAttrs(*this, /*uniform=*/false)) ||
      failed(verifyHasOperands(*this)))
    return failure();
  return verifyResultsAreOperands(*this);
}

LogicalResult CollectiveReduceOp::verify() {
  if (failed(verifyCollectiveAttrs(*this, /*uniform=*/false)) ||
      failed(verifyHasOperands(*this)))
    return failure();
  return verifyResultsAreOperands(*this);
}

LogicalResult CollectiveReduceOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyScalarReducer(*this, symbolTable, getToApplyAttr());
}

//===----------------------------------------------------------------------===//
// collective_permute, collective_permute_start, collective_permute_done
//===----------------------------------------------------------------------===//

LogicalResult CollectivePermuteOp::verify() {
  if (failed(verifySourceTargetPairs(*this, getSourceTargetPairs())) ||
      failed(verifyHasOperands(*this)))
    return failure();
  return verifyResultsAreOperands(*this);
}

LogicalResult CollectivePermuteStartOp::verify() {
  if (failed(verifySourceTargetPairs(*this, getSourceTargetPairs())) ||
      failed(verifyHasOperands(*this)))
    return failure();
  // XLA: (operands, received values, context...), where operands and
  // received values are the operand or a tuple of the operands; any further
  // elements are backend context (commonly u32[] scalars).
  auto tuple = cast<TupleType>(getResult().getType());
  Type expected = valueOrTuple(getContext(), getOperands().getTypes());
  if (tuple.size() < 2 || tuple.getType(0) != expected || tuple.getType(1) != expected)
    return emitOpError() << "result has type " << tuple << " but (" << expected << ", "
                         << expected << ", context...) was expected";
  return success();
}

LogicalResult CollectivePermuteDoneOp::verify() {
  return verifyAsyncDone(*this, "collective_permute_start", /*allowContexts=*/true);
}
