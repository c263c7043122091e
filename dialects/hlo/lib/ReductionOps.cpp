//===- ReductionOps.cpp - verifiers of the hlo dialect's reduction ops ---===//
//
// reduce, reduce_window, select_and_scatter, map, scan, sort, topk, gather
// and scatter. The rules follow XLA's operation semantics and its shape
// inference (xla/service/shape_inference.cc); result shapes are inferred and
// compared with the declared ones, `?` matching any size.
//
//===----------------------------------------------------------------------===//

#include "VerifyUtils.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace rxla::hlo;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Every value in `values` has the shape of the first one; `what` names them
/// ("input").
static LogicalResult verifySameShapes(Operation *op, ValueRange values, StringRef what) {
  if (values.empty())
    return success();
  auto first = tensorType(values.front()).getShape();
  for (auto [i, v] : llvm::enumerate(values.drop_front())) {
    auto shape = tensorType(v).getShape();
    if (!isCompatibleShape(shape, first))
      return op->emitOpError() << what << " " << i + 1 << " has shape " << shapeString(shape)
                               << " but " << what << " 0 has shape " << shapeString(first);
  }
  return success();
}

/// `operands` are N inputs followed by N init values: the inputs have one
/// shape, init value i is a rank-0 tensor of input i's element type, and the
/// op has N results. Returns N.
static FailureOr<size_t> verifyInputsAndInits(Operation *op) {
  ValueRange operands = op->getOperands();
  if (operands.size() < 2 || operands.size() % 2 != 0)
    return op->emitOpError() << "expects N inputs followed by N init values, but has "
                             << operands.size() << " operands";
  size_t n = operands.size() / 2;
  if (op->getNumResults() != n)
    return op->emitOpError() << "has " << op->getNumResults() << " results but " << n
                             << " inputs (one result per input)";
  if (failed(verifySameShapes(op, operands.take_front(n), "input")))
    return failure();
  for (size_t i = 0; i < n; ++i) {
    auto input = tensorType(operands[i]);
    auto init = tensorType(operands[n + i]);
    if (init.getRank() != 0)
      return op->emitOpError() << "init value " << i << " must be a rank-0 tensor, got "
                               << init;
    if (init.getElementType() != input.getElementType())
      return op->emitOpError() << "init value " << i << " has element type "
                               << init.getElementType() << " but input " << i
                               << " has element type " << input.getElementType();
  }
  return n;
}

/// Result `i` has the element type of input `i`.
static LogicalResult verifyResultElementType(Operation *op, size_t i, Type expected,
                                             StringRef source) {
  Type actual = tensorType(op->getResult(i)).getElementType();
  if (actual != expected)
    return op->emitOpError() << "result " << i << " has element type " << actual << " but "
                             << source << " has element type " << expected;
  return success();
}

/// `dims` are distinct dimensions of a rank-`rank` array in ascending order.
static LogicalResult verifySortedDimList(Operation *op, ArrayRef<int64_t> dims, int64_t rank,
                                         StringRef what) {
  if (failed(verifyDimList(op, dims, rank, what)))
    return failure();
  if (!llvm::is_sorted(dims))
    return op->emitOpError() << what << " must be sorted in ascending order, got "
                             << shapeString(dims);
  return success();
}

/// No dimension appears in both `a` and `b`.
static LogicalResult verifyDisjoint(Operation *op, ArrayRef<int64_t> a, StringRef aName,
                                    ArrayRef<int64_t> b, StringRef bName) {
  for (int64_t d : a)
    if (llvm::is_contained(b, d))
      return op->emitOpError() << "dimension " << d << " is in both " << aName << " and "
                               << bName;
  return success();
}

/// The shape produced by sliding `window` over `shape`. The window must have
/// one dimension per dimension of `shape`; `what` names the windowed operand.
static FailureOr<SmallVector<int64_t>> windowedShape(Operation *op, WindowAttr window,
                                                     ArrayRef<int64_t> shape, StringRef what) {
  if (window.getSize().size() != shape.size())
    return op->emitOpError() << "window has " << window.getSize().size()
                             << " dimensions but " << what << " has rank " << shape.size();
  SmallVector<int64_t> result;
  for (auto [i, d] : llvm::enumerate(shape)) {
    FailureOr<int64_t> size = windowOutputSize(op, window, i, d);
    if (failed(size))
      return failure();
    result.push_back(*size);
  }
  return result;
}

/// `type` without dimension `dim`.
static RankedTensorType dropDim(RankedTensorType type, int64_t dim) {
  SmallVector<int64_t> shape(type.getShape());
  if (dim >= 0 && dim < (int64_t)shape.size())
    shape.erase(shape.begin() + dim);
  return RankedTensorType::get(shape, type.getElementType());
}

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  FailureOr<size_t> n = verifyInputsAndInits(*this);
  if (failed(n))
    return failure();
  auto input = tensorType(getOperands()[0]);
  ArrayRef<int64_t> dims = getDimensions();
  if (failed(verifyDimList(*this, dims, input.getRank(), "dimensions")))
    return failure();
  SmallVector<int64_t> expected;
  for (auto [i, d] : llvm::enumerate(input.getShape()))
    if (!llvm::is_contained(dims, (int64_t)i))
      expected.push_back(d);
  for (size_t i = 0; i < *n; ++i) {
    std::string what = "result " + std::to_string(i);
    if (failed(verifyShapeMatches(*this, tensorType(getResult(i)).getShape(), expected, what)) ||
        failed(verifyResultElementType(*this, i, tensorType(getOperands()[i]).getElementType(),
                                       "input " + std::to_string(i))))
      return failure();
  }
  return success();
}

/// (accumulators..., elements...) -> (accumulators...), all rank 0, for the
/// N inputs of a reduce/reduce_window.
static LogicalResult verifyReducer(Operation *op, SymbolTableCollection &symbolTable,
                                   FlatSymbolRefAttr callee) {
  ValueRange operands = op->getOperands();
  size_t n = operands.size() / 2;
  SmallVector<Type> scalars;
  for (size_t i = 0; i < n; ++i)
    scalars.push_back(scalarOf(operands[i].getType()));
  SmallVector<Type> inputs(scalars);
  inputs.append(scalars);
  return verifyComputationSignature(op, symbolTable, callee, "to_apply", inputs, scalars);
}

LogicalResult ReduceOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyReducer(*this, symbolTable, getToApplyAttr());
}

//===----------------------------------------------------------------------===//
// reduce_window
//===----------------------------------------------------------------------===//

LogicalResult ReduceWindowOp::verify() {
  FailureOr<size_t> n = verifyInputsAndInits(*this);
  if (failed(n))
    return failure();
  auto input = tensorType(getOperands()[0]);
  FailureOr<SmallVector<int64_t>> expected =
      windowedShape(*this, getWindow(), input.getShape(), "the inputs");
  if (failed(expected))
    return failure();
  for (size_t i = 0; i < *n; ++i) {
    std::string what = "result " + std::to_string(i);
    if (failed(verifyShapeMatches(*this, tensorType(getResult(i)).getShape(), *expected, what)) ||
        failed(verifyResultElementType(*this, i, tensorType(getOperands()[i]).getElementType(),
                                       "input " + std::to_string(i))))
      return failure();
  }
  return success();
}

LogicalResult ReduceWindowOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyReducer(*this, symbolTable, getToApplyAttr());
}

//===----------------------------------------------------------------------===//
// select_and_scatter
//===----------------------------------------------------------------------===//

LogicalResult SelectAndScatterOp::verify() {
  auto operand = tensorType(getOperand());
  auto source = tensorType(getSource());
  auto init = tensorType(getInitValue());
  if (init.getRank() != 0)
    return emitOpError() << "init_value must be a rank-0 tensor, got " << init;
  if (init.getElementType() != operand.getElementType())
    return emitOpError() << "init_value has element type " << init.getElementType()
                         << " but the operand has element type " << operand.getElementType();
  if (source.getElementType() != operand.getElementType())
    return emitOpError() << "source has element type " << source.getElementType()
                         << " but the operand has element type " << operand.getElementType();
  FailureOr<SmallVector<int64_t>> windowed =
      windowedShape(*this, getWindow(), operand.getShape(), "the operand");
  if (failed(windowed) ||
      failed(verifyShapeMatches(*this, source.getShape(), *windowed,
                                "source (one value per window position)")))
    return failure();
  if (getResult().getType() != operand)
    return emitOpError() << "result type " << getResult().getType()
                         << " must equal the operand type " << operand;
  return success();
}

LogicalResult SelectAndScatterOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  Type operandScalar = scalarOf(getOperand().getType());
  Type pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (failed(verifyComputationSignature(*this, symbolTable, getSelectAttr(), "select",
                                        {operandScalar, operandScalar}, {pred})))
    return failure();
  Type sourceScalar = scalarOf(getSource().getType());
  return verifyComputationSignature(*this, symbolTable, getScatterAttr(), "scatter",
                                    {sourceScalar, sourceScalar}, {sourceScalar});
}

//===----------------------------------------------------------------------===//
// map
//===----------------------------------------------------------------------===//

LogicalResult MapOp::verify() {
  if (getInputs().empty())
    return emitOpError() << "needs at least one input";
  if (failed(verifySameShapes(*this, getInputs(), "input")))
    return failure();
  auto input = tensorType(getInputs()[0]);
  ArrayRef<int64_t> dims = getDimensions();
  bool identity = (int64_t)dims.size() == input.getRank();
  for (size_t i = 0; identity && i < dims.size(); ++i)
    identity = dims[i] == (int64_t)i;
  if (!identity) {
    auto all = llvm::to_vector(llvm::seq<int64_t>(0, input.getRank()));
    return emitOpError() << "dimensions must be " << shapeString(all)
                         << " (every input dimension, in order), got " << shapeString(dims);
  }
  return verifyShapeMatches(*this, tensorType(getResult()).getShape(), input.getShape(),
                            "result");
}

LogicalResult MapOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  SmallVector<Type> inputs;
  for (Value v : getInputs())
    inputs.push_back(scalarOf(v.getType()));
  return verifyComputationSignature(*this, symbolTable, getToApplyAttr(), "to_apply", inputs,
                                    {scalarOf(getResult().getType())});
}

//===----------------------------------------------------------------------===//
// scan
//===----------------------------------------------------------------------===//
//
// Operands: m inputs then k inits (k = num_carries). Results: n outputs then
// k carries. to_apply: (input elements..., carries...) -> (output
// elements..., carries...), where an input/output element is the array with
// scan_dimension removed and all inputs/outputs have the same size N along
// scan_dimension.

LogicalResult ScanOp::verify() {
  uint64_t k = getNumCarries();
  if (k > getOperands().size())
    return emitOpError() << "num_carries is " << k << " but there are only "
                         << getOperands().size() << " operands";
  if (k > getNumResults())
    return emitOpError() << "num_carries is " << k << " but there are only "
                         << getNumResults() << " results";
  size_t m = getOperands().size() - k, n = getNumResults() - k;
  int64_t dim = getScanDimension();
  int64_t length = ShapedType::kDynamic;
  auto checkScanned = [&](Value v, StringRef what, size_t i) -> LogicalResult {
    auto type = tensorType(v);
    if (dim >= type.getRank())
      return emitOpError() << "scan_dimension " << dim << " is out of range for " << what
                           << " " << i << " of rank " << type.getRank();
    int64_t size = type.getDimSize(dim);
    if (!compatibleDim(size, length))
      return emitOpError() << what << " " << i << " has size " << size
                           << " along scan_dimension " << dim
                           << " but the scanned arrays before it have size " << length;
    if (!ShapedType::isDynamic(size))
      length = size;
    return success();
  };
  for (size_t i = 0; i < m; ++i)
    if (failed(checkScanned(getOperands()[i], "input", i)))
      return failure();
  for (size_t i = 0; i < n; ++i)
    if (failed(checkScanned(getResult(i), "result", i)))
      return failure();
  for (size_t j = 0; j < k; ++j) {
    Type init = getOperands()[m + j].getType(), carry = getResult(n + j).getType();
    if (init != carry)
      return emitOpError() << "result " << n + j << " (final carry " << j << ") has type "
                           << carry << " but init " << j << " has type " << init;
  }
  return success();
}

LogicalResult ScanOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  uint64_t k = getNumCarries();
  if (k > getOperands().size() || k > getNumResults())
    return success(); // reported by verify()
  size_t m = getOperands().size() - k, n = getNumResults() - k;
  int64_t dim = getScanDimension();
  SmallVector<Type> inputs, results;
  for (size_t i = 0; i < m; ++i)
    inputs.push_back(dropDim(tensorType(getOperands()[i]), dim));
  for (size_t i = 0; i < n; ++i)
    results.push_back(dropDim(tensorType(getResult(i)), dim));
  for (size_t j = 0; j < k; ++j) {
    inputs.push_back(getOperands()[m + j].getType());
    results.push_back(getOperands()[m + j].getType());
  }
  return verifyComputationSignature(*this, symbolTable, getToApplyAttr(), "to_apply", inputs,
                                    results);
}

//===----------------------------------------------------------------------===//
// sort
//===----------------------------------------------------------------------===//

LogicalResult SortOp::verify() {
  if (getInputs().empty())
    return emitOpError() << "needs at least one input";
  if (getNumResults() != getInputs().size())
    return emitOpError() << "has " << getNumResults() << " results but "
                         << getInputs().size() << " inputs (one result per input)";
  if (failed(verifySameShapes(*this, getInputs(), "input")))
    return failure();
  int64_t rank = tensorType(getInputs()[0]).getRank();
  if ((int64_t)getDimension() >= rank)
    return emitOpError() << "dimension " << getDimension()
                         << " is out of range for inputs of rank " << rank;
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getInputs(), getResults())))
    if (std::get<0>(pair).getType() != std::get<1>(pair).getType())
      return emitOpError() << "result " << i << " has type " << std::get<1>(pair).getType()
                           << " but input " << i << " has type " << std::get<0>(pair).getType();
  return success();
}

LogicalResult SortOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  // XLA's order: (input 0 lhs, input 0 rhs, input 1 lhs, input 1 rhs, ...).
  SmallVector<Type> inputs;
  for (Value v : getInputs()) {
    inputs.push_back(scalarOf(v.getType()));
    inputs.push_back(scalarOf(v.getType()));
  }
  Type pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  return verifyComputationSignature(*this, symbolTable, getToApplyAttr(), "to_apply", inputs,
                                    {pred});
}

//===----------------------------------------------------------------------===//
// topk
//===----------------------------------------------------------------------===//

LogicalResult TopKOp::verify() {
  auto operand = tensorType(getOperand());
  if (operand.getRank() < 1)
    return emitOpError() << "operand must have rank >= 1, got " << operand;
  int64_t k = getK();
  int64_t last = operand.getShape().back();
  if (!ShapedType::isDynamic(last) && k > last)
    return emitOpError() << "k = " << k << " is larger than the last dimension of the operand ("
                         << last << ")";
  SmallVector<int64_t> expected(operand.getShape());
  expected.back() = k;
  auto values = tensorType(getValues());
  if (failed(verifyShapeMatches(*this, values.getShape(), expected, "values")) ||
      failed(verifyShapeMatches(*this, tensorType(getIndices()).getShape(), expected,
                                "indices")))
    return failure();
  if (values.getElementType() != operand.getElementType())
    return emitOpError() << "values has element type " << values.getElementType()
                         << " but the operand has element type " << operand.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::verify() {
  auto operand = tensorType(getOperand());
  auto indices = tensorType(getStartIndices());
  auto result = tensorType(getResult());
  GatherDimensionNumbersAttr dn = getDimensionNumbers();
  int64_t operandRank = operand.getRank(), indicesRank = indices.getRank();
  ArrayRef<int64_t> offsetDims = dn.getOffsetDims();
  ArrayRef<int64_t> collapsed = dn.getCollapsedSliceDims();
  ArrayRef<int64_t> operandBatching = dn.getOperandBatchingDims();
  ArrayRef<int64_t> indicesBatching = dn.getStartIndicesBatchingDims();
  ArrayRef<int64_t> startIndexMap = dn.getStartIndexMap();
  ArrayRef<int64_t> sliceSizes = getSliceSizes();
  int64_t indexVectorDim = dn.getIndexVectorDim();

  if (indexVectorDim < 0 || indexVectorDim > indicesRank)
    return emitOpError() << "index_vector_dim " << indexVectorDim
                         << " is out of range for start_indices of rank " << indicesRank
                         << " (it may be at most the rank)";
  // The start indices' batch dimensions: all but index_vector_dim.
  SmallVector<int64_t> batchSizes;
  for (int64_t i = 0; i < indicesRank; ++i)
    if (i != indexVectorDim)
      batchSizes.push_back(indices.getDimSize(i));

  if ((int64_t)(offsetDims.size() + collapsed.size() + operandBatching.size()) != operandRank)
    return emitOpError() << "the operand has rank " << operandRank
                         << " but offset_dims, collapsed_slice_dims and operand_batching_dims "
                            "have "
                         << offsetDims.size() << " + " << collapsed.size() << " + "
                         << operandBatching.size() << " entries";
  int64_t resultRank = batchSizes.size() + offsetDims.size();
  if (failed(verifySortedDimList(*this, offsetDims, resultRank, "offset_dims")) ||
      failed(verifySortedDimList(*this, collapsed, operandRank, "collapsed_slice_dims")) ||
      failed(verifySortedDimList(*this, operandBatching, operandRank,
                                 "operand_batching_dims")) ||
      failed(verifyDisjoint(*this, collapsed, "collapsed_slice_dims", operandBatching,
                            "operand_batching_dims")) ||
      failed(verifyDimList(*this, indicesBatching, indicesRank,
                           "start_indices_batching_dims")) ||
      failed(verifyDimList(*this, startIndexMap, operandRank, "start_index_map")) ||
      failed(verifyDisjoint(*this, startIndexMap, "start_index_map", operandBatching,
                            "operand_batching_dims")))
    return failure();
  if (llvm::is_contained(indicesBatching, indexVectorDim))
    return emitOpError() << "start_indices_batching_dims contains index_vector_dim "
                         << indexVectorDim;
  if (operandBatching.size() != indicesBatching.size())
    return emitOpError() << "operand_batching_dims has " << operandBatching.size()
                         << " entries but start_indices_batching_dims has "
                         << indicesBatching.size();
  for (auto [o, s] : llvm::zip(operandBatching, indicesBatching))
    if (!compatibleDim(operand.getDimSize(o), indices.getDimSize(s)))
      return emitOpError() << "operand batching dimension " << o << " has size "
                           << operand.getDimSize(o) << " but start_indices batching dimension "
                           << s << " has size " << indices.getDimSize(s);
  int64_t indexVectorSize = indexVectorDim < indicesRank ? indices.getDimSize(indexVectorDim) : 1;
  if (!compatibleDim(indexVectorSize, startIndexMap.size()))
    return emitOpError() << "start_index_map has " << startIndexMap.size()
                         << " entries but the index vectors of start_indices have "
                         << indexVectorSize << " components";

  if ((int64_t)sliceSizes.size() != operandRank)
    return emitOpError() << "slice_sizes has " << sliceSizes.size()
                         << " entries but the operand has rank " << operandRank;
  for (auto [i, s] : llvm::enumerate(sliceSizes)) {
    int64_t bound = operand.getDimSize(i);
    if (s < 0 || (!ShapedType::isDynamic(bound) && s > bound))
      return emitOpError() << "slice size " << s << " of dimension " << i
                           << " is out of range [0, " << bound << "]";
  }
  for (int64_t d : collapsed)
    if (sliceSizes[d] != 1)
      return emitOpError() << "collapsed slice dimension " << d << " has slice size "
                           << sliceSizes[d] << ", it must be 1";
  for (int64_t d : operandBatching)
    if (sliceSizes[d] > 1)
      return emitOpError() << "operand batching dimension " << d << " has slice size "
                           << sliceSizes[d] << ", it must be 0 or 1";

  // Result: offset dims take the slice sizes that are neither collapsed nor
  // batching (in order), the other dims the start indices' batch dims.
  SmallVector<int64_t> offsetSizes;
  for (auto [i, s] : llvm::enumerate(sliceSizes))
    if (!llvm::is_contained(collapsed, (int64_t)i) &&
        !llvm::is_contained(operandBatching, (int64_t)i))
      offsetSizes.push_back(s);
  SmallVector<int64_t> expected;
  size_t nextOffset = 0, nextBatch = 0;
  for (int64_t i = 0; i < resultRank; ++i)
    expected.push_back(llvm::is_contained(offsetDims, i) ? offsetSizes[nextOffset++]
                                                         : batchSizes[nextBatch++]);
  if (failed(verifyShapeMatches(*this, result.getShape(), expected, "result")))
    return failure();
  if (result.getElementType() != operand.getElementType())
    return emitOpError() << "result has element type " << result.getElementType()
                         << " but the operand has element type " << operand.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// scatter
//===----------------------------------------------------------------------===//

LogicalResult ScatterOp::verify() {
  ValueRange operands = getOperands();
  if (operands.size() < 3 || operands.size() % 2 == 0)
    return emitOpError() << "expects N inputs, the scatter indices and N updates, but has "
                         << operands.size() << " operands";
  size_t n = operands.size() / 2;
  ValueRange inputs = operands.take_front(n);
  Value indicesValue = operands[n];
  ValueRange updates = operands.drop_front(n + 1);
  if (getNumResults() != n)
    return emitOpError() << "has " << getNumResults() << " results but " << n
                         << " inputs (one result per input)";
  auto indices = tensorType(indicesValue);
  if (!isa<IntegerType>(indices.getElementType()))
    return emitOpError() << "scatter indices must have an integer element type, got "
                         << indices.getElementType();
  if (failed(verifySameShapes(*this, inputs, "input")) ||
      failed(verifySameShapes(*this, updates, "update")))
    return failure();
  for (size_t i = 0; i < n; ++i) {
    Type in = tensorType(inputs[i]).getElementType();
    Type up = tensorType(updates[i]).getElementType();
    if (in != up)
      return emitOpError() << "update " << i << " has element type " << up << " but input "
                           << i << " has element type " << in;
    if (getResult(i).getType() != inputs[i].getType())
      return emitOpError() << "result " << i << " has type " << getResult(i).getType()
                           << " but input " << i << " has type " << inputs[i].getType();
  }

  auto input = tensorType(inputs[0]);
  auto update = tensorType(updates[0]);
  ScatterDimensionNumbersAttr dn = getDimensionNumbers();
  int64_t inputRank = input.getRank(), indicesRank = indices.getRank(),
          updateRank = update.getRank();
  ArrayRef<int64_t> windowDims = dn.getUpdateWindowDims();
  ArrayRef<int64_t> inserted = dn.getInsertedWindowDims();
  ArrayRef<int64_t> inputBatching = dn.getInputBatchingDims();
  ArrayRef<int64_t> indicesBatching = dn.getScatterIndicesBatchingDims();
  ArrayRef<int64_t> toOperand = dn.getScatterDimsToOperandDims();
  int64_t indexVectorDim = dn.getIndexVectorDim();

  if (indexVectorDim < 0 || indexVectorDim > indicesRank)
    return emitOpError() << "index_vector_dim " << indexVectorDim
                         << " is out of range for scatter indices of rank " << indicesRank
                         << " (it may be at most the rank)";
  SmallVector<int64_t> scatterSizes;
  for (int64_t i = 0; i < indicesRank; ++i)
    if (i != indexVectorDim)
      scatterSizes.push_back(indices.getDimSize(i));

  if (failed(verifySortedDimList(*this, windowDims, updateRank, "update_window_dims")) ||
      failed(verifySortedDimList(*this, inserted, inputRank, "inserted_window_dims")) ||
      failed(verifySortedDimList(*this, inputBatching, inputRank, "input_batching_dims")) ||
      failed(verifyDisjoint(*this, inserted, "inserted_window_dims", inputBatching,
                            "input_batching_dims")) ||
      failed(verifyDimList(*this, indicesBatching, indicesRank,
                           "scatter_indices_batching_dims")) ||
      failed(verifyDimList(*this, toOperand, inputRank, "scatter_dims_to_operand_dims")) ||
      failed(verifyDisjoint(*this, toOperand, "scatter_dims_to_operand_dims", inputBatching,
                            "input_batching_dims")))
    return failure();
  if ((int64_t)(windowDims.size() + inserted.size() + inputBatching.size()) != inputRank)
    return emitOpError() << "the inputs have rank " << inputRank
                         << " but update_window_dims, inserted_window_dims and "
                            "input_batching_dims have "
                         << windowDims.size() << " + " << inserted.size() << " + "
                         << inputBatching.size() << " entries";
  if (llvm::is_contained(indicesBatching, indexVectorDim))
    return emitOpError() << "scatter_indices_batching_dims contains index_vector_dim "
                         << indexVectorDim;
  if (inputBatching.size() != indicesBatching.size())
    return emitOpError() << "input_batching_dims has " << inputBatching.size()
                         << " entries but scatter_indices_batching_dims has "
                         << indicesBatching.size();
  for (auto [o, s] : llvm::zip(inputBatching, indicesBatching))
    if (!compatibleDim(input.getDimSize(o), indices.getDimSize(s)))
      return emitOpError() << "input batching dimension " << o << " has size "
                           << input.getDimSize(o) << " but scatter indices batching dimension "
                           << s << " has size " << indices.getDimSize(s);
  int64_t indexVectorSize = indexVectorDim < indicesRank ? indices.getDimSize(indexVectorDim) : 1;
  if (!compatibleDim(indexVectorSize, toOperand.size()))
    return emitOpError() << "scatter_dims_to_operand_dims has " << toOperand.size()
                         << " entries but the index vectors of the scatter indices have "
                         << indexVectorSize << " components";

  int64_t expectedUpdateRank = windowDims.size() + scatterSizes.size();
  if (updateRank != expectedUpdateRank)
    return emitOpError() << "updates have rank " << updateRank << " but "
                         << expectedUpdateRank
                         << " was expected (update_window_dims plus the scatter indices' "
                            "batch dimensions)";
  // Window bounds: the input dims that are neither inserted nor batching, in
  // order; an update window dimension may not exceed its bound.
  SmallVector<int64_t> windowBounds;
  for (int64_t i = 0; i < inputRank; ++i)
    if (!llvm::is_contained(inserted, i) && !llvm::is_contained(inputBatching, i))
      windowBounds.push_back(input.getDimSize(i));
  size_t nextWindow = 0, nextScatter = 0;
  for (int64_t i = 0; i < updateRank; ++i) {
    int64_t size = update.getDimSize(i);
    if (llvm::is_contained(windowDims, i)) {
      int64_t bound = windowBounds[nextWindow++];
      if (!ShapedType::isDynamic(size) && !ShapedType::isDynamic(bound) && size > bound)
        return emitOpError() << "update window dimension " << i << " has size " << size
                             << ", larger than the input's window bound " << bound;
    } else {
      int64_t expected = scatterSizes[nextScatter++];
      if (!compatibleDim(size, expected))
        return emitOpError() << "update scatter dimension " << i << " has size " << size
                             << " but the scatter indices' batch dimension has size "
                             << expected;
    }
  }
  return success();
}

LogicalResult ScatterOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  ValueRange operands = getOperands();
  size_t n = operands.size() / 2;
  SmallVector<Type> scalars;
  for (size_t i = 0; i < n; ++i)
    scalars.push_back(scalarOf(operands[i].getType()));
  SmallVector<Type> inputs(scalars);
  inputs.append(scalars);
  return verifyComputationSignature(*this, symbolTable, getToApplyAttr(), "to_apply", inputs,
                                    scalars);
}
