//===- ShapeOps.cpp - verifiers of the hlo dialect's shape ops ---===//
//
// Result shape inference for the shape-changing ops, following XLA's
// ShapeInference (InferSliceShape, InferPadShape, InferConcatOpShape, ...)
// and the HLO verifier. Dynamic (`?`) dimensions match any size.
//
//===----------------------------------------------------------------------===//

#include "VerifyUtils.h"

using namespace mlir;
using namespace rxla::hlo;

static LogicalResult verifySameElementType(Operation *op, RankedTensorType type,
                                           RankedTensorType reference, StringRef what,
                                           StringRef referenceName = "the operand") {
  if (type.getElementType() != reference.getElementType())
    return op->emitOpError() << what << " element type " << type.getElementType()
                             << " must be the element type of " << referenceName << ", "
                             << reference.getElementType();
  return success();
}

/// Emits "<what> has N entries but the operand has rank R" on a size mismatch.
static LogicalResult verifyRankEntries(Operation *op, ArrayRef<int64_t> list, int64_t rank,
                                       StringRef what) {
  if ((int64_t)list.size() != rank)
    return op->emitOpError() << what << " has " << list.size()
                             << " entries but the operand has rank " << rank;
  return success();
}

/// Start index operands: one per operand dimension, all of the same type.
static LogicalResult verifyStartIndices(Operation *op, ValueRange indices, int64_t rank) {
  if ((int64_t)indices.size() != rank)
    return op->emitOpError() << "has " << indices.size()
                             << " start indices but the operand has rank " << rank;
  for (auto [i, index] : llvm::enumerate(indices))
    if (index.getType() != indices[0].getType())
      return op->emitOpError() << "start indices must all have the same type, but #0 is "
                               << indices[0].getType() << " and #" << i << " is "
                               << index.getType();
  return success();
}

static std::optional<int64_t> staticElementCount(RankedTensorType type) {
  if (!type.hasStaticShape())
    return std::nullopt;
  return type.getNumElements();
}

LogicalResult BroadcastOp::verify() {
  RankedTensorType operandType = tensorType(getOperand());
  RankedTensorType resultType = getResult().getType();
  if (failed(verifySameElementType(*this, resultType, operandType, "result")))
    return failure();
  ArrayRef<int64_t> dims = getDimensions();
  if ((int64_t)dims.size() != operandType.getRank())
    return emitOpError() << "dimensions has " << dims.size()
                         << " entries but the operand has rank " << operandType.getRank();
  if (failed(verifyDimList(*this, dims, resultType.getRank(), "dimensions")))
    return failure();
  for (auto [i, d] : llvm::enumerate(dims)) {
    int64_t operandDim = operandType.getDimSize(i);
    int64_t resultDim = resultType.getDimSize(d);
    // HLO's broadcast never stretches a dimension (XLA's verifier requires
    // equal sizes; the builder's size-1 expansion inserts a reshape first).
    if (!compatibleDim(operandDim, resultDim))
      return emitOpError() << "operand dimension " << i << " has size " << operandDim
                           << " but result dimension " << d << " has size " << resultDim;
  }
  return success();
}

LogicalResult ReshapeOp::verify() {
  RankedTensorType operandType = tensorType(getOperand());
  RankedTensorType resultType = getResult().getType();
  if (failed(verifySameElementType(*this, resultType, operandType, "result")))
    return failure();
  auto in = staticElementCount(operandType), out = staticElementCount(resultType);
  if (in && out && *in != *out)
    return emitOpError() << "operand shape " << shapeString(operandType.getShape()) << " has "
                         << *in << " elements but result shape "
                         << shapeString(resultType.getShape()) << " has " << *out;
  return success();
}

LogicalResult DynamicReshapeOp::verify() {
  RankedTensorType operandType = tensorType(getOperand());
  RankedTensorType resultType = getResult().getType();
  if (failed(verifySameElementType(*this, resultType, operandType, "result")))
    return failure();
  if ((int64_t)getDimSizes().size() != resultType.getRank())
    return emitOpError() << "has " << getDimSizes().size()
                         << " dim_sizes operands but the result has rank "
                         << resultType.getRank();
  auto in = staticElementCount(operandType), out = staticElementCount(resultType);
  if (in && out && *in != *out)
    return emitOpError() << "operand shape " << shapeString(operandType.getShape()) << " has "
                         << *in << " elements but result shape "
                         << shapeString(resultType.getShape()) << " has " << *out;
  return success();
}

LogicalResult BitcastOp::verify() {
  RankedTensorType operandType = tensorType(getOperand());
  RankedTensorType resultType = getResult().getType();
  auto in = staticElementCount(operandType), out = staticElementCount(resultType);
  if (!in || !out)
    return success();
  int64_t inBits = *in * elementBitWidth(operandType.getElementType());
  int64_t outBits = *out * elementBitWidth(resultType.getElementType());
  if (inBits != outBits)
    return emitOpError() << "operand " << operandType << " has " << inBits
                         << " bits of data but result " << resultType << " has " << outBits;
  return success();
}

LogicalResult TransposeOp::verify() {
  RankedTensorType operandType = tensorType(getOperand());
  RankedTensorType resultType = getResult().getType();
  if (failed(verifySameElementType(*this, resultType, operandType, "result")))
    return failure();
  ArrayRef<int64_t> perm = getDimensions();
  if (!isPermutation(perm, operandType.getRank()))
    return emitOpError() << "dimensions " << shapeString(perm) << " is not a permutation of the "
                         << operandType.getRank() << " operand dimensions";
  SmallVector<int64_t> expected;
  for (int64_t d : perm)
    expected.push_back(operandType.getDimSize(d));
  return verifyShapeMatches(*this, resultType.getShape(), expected, "result");
}

LogicalResult ReverseOp::verify() {
  return verifyDimList(*this, getDimensions(), tensorType(getOperand()).getRank(),
                       "dimensions");
}

LogicalResult SliceOp::verify() {
  RankedTensorType operandType = tensorType(getOperand());
  RankedTensorType resultType = getResult().getType();
  if (failed(verifySameElementType(*this, resultType, operandType, "result")))
    return failure();
  int64_t rank = operandType.getRank();
  ArrayRef<int64_t> start = getStartIndices(), limit = getLimitIndices(),
                    strides = getStrides();
  if (failed(verifyRankEntries(*this, start, rank, "start_indices")) ||
      failed(verifyRankEntries(*this, limit, rank, "limit_indices")) ||
      failed(verifyRankEntries(*this, strides, rank, "strides")))
    return failure();
  SmallVector<int64_t> expected;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t dim = operandType.getDimSize(i);
    if (strides[i] < 1)
      return emitOpError() << "strides[" << i << "] is " << strides[i]
                           << " but must be at least 1";
    if (start[i] < 0)
      return emitOpError() << "start_indices[" << i << "] is negative (" << start[i] << ")";
    if (start[i] > limit[i])
      return emitOpError() << "start_indices[" << i << "] = " << start[i]
                           << " is greater than limit_indices[" << i << "] = " << limit[i];
    if (!ShapedType::isDynamic(dim) && limit[i] > dim)
      return emitOpError() << "limit_indices[" << i << "] = " << limit[i]
                           << " is past the end of operand dimension " << i << " (size " << dim
                           << ")";
    expected.push_back(llvm::divideCeil(limit[i] - start[i], strides[i]));
  }
  return verifyShapeMatches(*this, resultType.getShape(), expected, "result");
}

LogicalResult DynamicSliceOp::verify() {
  RankedTensorType operandType = tensorType(getOperand());
  RankedTensorType resultType = getResult().getType();
  if (failed(verifySameElementType(*this, resultType, operandType, "result")))
    return failure();
  int64_t rank = operandType.getRank();
  if (failed(verifyStartIndices(*this, getStartIndices(), rank)))
    return failure();
  ArrayRef<int64_t> sizes = getSliceSizes();
  if (failed(verifyRankEntries(*this, sizes, rank, "slice_sizes")))
    return failure();
  for (int64_t i = 0; i < rank; ++i) {
    int64_t dim = operandType.getDimSize(i);
    if (sizes[i] < 0)
      return emitOpError() << "slice_sizes[" << i << "] is negative (" << sizes[i] << ")";
    if (!ShapedType::isDynamic(dim) && sizes[i] > dim)
      return emitOpError() << "slice_sizes[" << i << "] = " << sizes[i]
                           << " is larger than operand dimension " << i << " (size " << dim
                           << ")";
  }
  return verifyShapeMatches(*this, resultType.getShape(), sizes, "result");
}

LogicalResult DynamicUpdateSliceOp::verify() {
  RankedTensorType operandType = tensorType(getOperand());
  RankedTensorType updateType = tensorType(getUpdate());
  if (getResult().getType() != operandType)
    return emitOpError() << "result type " << getResult().getType()
                         << " must be the operand type " << operandType;
  if (failed(verifySameElementType(*this, updateType, operandType, "update")))
    return failure();
  int64_t rank = operandType.getRank();
  if (updateType.getRank() != rank)
    return emitOpError() << "update has rank " << updateType.getRank()
                         << " but the operand has rank " << rank;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t dim = operandType.getDimSize(i), size = updateType.getDimSize(i);
    if (!ShapedType::isDynamic(dim) && !ShapedType::isDynamic(size) && size > dim)
      return emitOpError() << "update dimension " << i << " (size " << size
                           << ") is larger than operand dimension " << i << " (size " << dim
                           << ")";
  }
  return verifyStartIndices(*this, getStartIndices(), rank);
}

LogicalResult ConcatenateOp::verify() {
  OperandRange inputs = getInputs();
  if (inputs.empty())
    return emitOpError() << "needs at least one input";
  RankedTensorType first = tensorType(inputs[0]);
  int64_t rank = first.getRank();
  int64_t dimension = getDimension();
  if (dimension >= rank)
    return emitOpError() << "dimension " << dimension << " is out of range for inputs of rank "
                         << rank;
  SmallVector<int64_t> expected(first.getShape());
  for (auto [i, input] : llvm::enumerate(inputs)) {
    if (i == 0)
      continue;
    RankedTensorType type = tensorType(input);
    if (type.getElementType() != first.getElementType())
      return emitOpError() << "input #" << i << " has element type " << type.getElementType()
                           << " but input #0 has " << first.getElementType();
    if (type.getRank() != rank)
      return emitOpError() << "input #" << i << " has rank " << type.getRank()
                           << " but input #0 has rank " << rank;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = type.getDimSize(d);
      if (d == dimension) {
        expected[d] = ShapedType::isDynamic(expected[d]) || ShapedType::isDynamic(size)
                          ? ShapedType::kDynamic
                          : expected[d] + size;
        continue;
      }
      if (!compatibleDim(expected[d], size))
        return emitOpError() << "input #" << i << " has shape " << shapeString(type.getShape())
                             << ", which differs from the other inputs in dimension " << d
                             << " (only dimension " << dimension << " may differ)";
      if (ShapedType::isDynamic(expected[d]))
        expected[d] = size;
    }
  }
  RankedTensorType resultType = getResult().getType();
  if (failed(verifySameElementType(*this, resultType, first, "result", "the inputs")))
    return failure();
  return verifyShapeMatches(*this, resultType.getShape(), expected, "result");
}

LogicalResult PadOp::verify() {
  RankedTensorType operandType = tensorType(getOperand());
  RankedTensorType paddingType = tensorType(getPaddingValue());
  RankedTensorType resultType = getResult().getType();
  if (paddingType.getRank() != 0)
    return emitOpError() << "padding_value must have rank 0, but has shape "
                         << shapeString(paddingType.getShape());
  if (failed(verifySameElementType(*this, paddingType, operandType, "padding_value")) ||
      failed(verifySameElementType(*this, resultType, operandType, "result")))
    return failure();
  int64_t rank = operandType.getRank();
  ArrayRef<int64_t> low = getEdgePaddingLow(), high = getEdgePaddingHigh(),
                    interior = getInteriorPadding();
  if (failed(verifyRankEntries(*this, low, rank, "edge_padding_low")) ||
      failed(verifyRankEntries(*this, high, rank, "edge_padding_high")) ||
      failed(verifyRankEntries(*this, interior, rank, "interior_padding")))
    return failure();
  SmallVector<int64_t> expected;
  for (int64_t i = 0; i < rank; ++i) {
    if (interior[i] < 0)
      return emitOpError() << "interior_padding[" << i << "] is negative (" << interior[i]
                           << ")";
    int64_t dim = operandType.getDimSize(i);
    if (ShapedType::isDynamic(dim)) {
      expected.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t size = low[i] + high[i] + dim + std::max<int64_t>(dim - 1, 0) * interior[i];
    if (size < 0)
      return emitOpError() << "padding dimension " << i << " (size " << dim << ", low "
                           << low[i] << ", high " << high[i] << ", interior " << interior[i]
                           << ") gives the negative size " << size;
    expected.push_back(size);
  }
  return verifyShapeMatches(*this, resultType.getShape(), expected, "result");
}

LogicalResult GetDimensionSizeOp::verify() {
  int64_t rank = tensorType(getOperand()).getRank();
  if ((int64_t)getDimension() >= rank)
    return emitOpError() << "dimension " << getDimension()
                         << " is out of range for an operand of rank " << rank;
  return success();
}

LogicalResult SetDimensionSizeOp::verify() {
  RankedTensorType operandType = tensorType(getOperand());
  RankedTensorType resultType = getResult().getType();
  int64_t rank = operandType.getRank();
  if ((int64_t)getDimension() >= rank)
    return emitOpError() << "dimension " << getDimension()
                         << " is out of range for an operand of rank " << rank;
  if (failed(verifySameElementType(*this, resultType, operandType, "result")))
    return failure();
  // The result keeps the operand's shape; the set dimension may become `?`.
  return verifyShapeMatches(*this, resultType.getShape(), operandType.getShape(), "result");
}

LogicalResult ShuffleOp::verify() {
  ArrayRef<int64_t> dims = getDimensions();
  if (failed(verifyDimList(*this, dims, tensorType(getOperand()).getRank(), "dimensions")))
    return failure();
  if (getShifts().size() != dims.size())
    return emitOpError() << "has " << getShifts().size() << " shifts but " << dims.size()
                         << " dimensions (one shift per dimension)";
  return success();
}
