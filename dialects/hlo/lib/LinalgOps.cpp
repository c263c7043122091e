//===- LinalgOps.cpp - verifiers of the hlo dialect's linalg ops ---===//
//
// dot, ragged_dot, scaled_dot, convolution, fft, cholesky, triangular_solve
// and the batch norms. The rules follow XLA's operation semantics and its
// shape inference (xla/service/shape_inference.cc); result shapes are
// inferred and compared with the declared ones, `?` matching any size.
//
// Element types of dot-like ops and convolution are not constrained beyond
// ODS: like XLA's HLO (preferred_element_type, mixed precision), the result
// element type is the op's accumulation/output type and may differ from the
// operands'.
//
//===----------------------------------------------------------------------===//

#include "VerifyUtils.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace rxla::hlo;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// No dimension appears in both `a` and `b`.
static LogicalResult verifyDisjointDims(Operation *op, ArrayRef<int64_t> a, StringRef aName,
                                        ArrayRef<int64_t> b, StringRef bName) {
  for (int64_t d : a)
    if (llvm::is_contained(b, d))
      return op->emitOpError() << "dimension " << d << " is in both " << aName << " and "
                               << bName;
  return success();
}

/// `actual` equals `expected`; `what` names the value ("result").
static LogicalResult verifyTypeIs(Operation *op, Type actual, Type expected, StringRef what) {
  if (actual != expected)
    return op->emitOpError() << what << " has type " << actual << " but " << expected
                             << " was expected";
  return success();
}

/// XLA's precision_config lists one precision per operand (lhs, rhs), or none.
static LogicalResult verifyPrecisionConfig(Operation *op, ArrayAttr config) {
  if (config && config.size() != 0 && config.size() != 2)
    return op->emitOpError() << "precision_config must have 0 or 2 entries (one per operand), got "
                             << config.size();
  return success();
}

/// Checks the dot dimension numbers against the operands and returns the
/// result shape: batch dims, lhs free dims, rhs free dims (each in operand
/// order). Dimensions in `rhsGroupDims` (ragged_dot) are not rhs free dims.
static FailureOr<SmallVector<int64_t>> inferDotShape(Operation *op, RankedTensorType lhs,
                                                     RankedTensorType rhs,
                                                     DotDimensionNumbersAttr dn,
                                                     ArrayRef<int64_t> rhsGroupDims = {}) {
  ArrayRef<int64_t> lb = dn.getLhsBatchDims(), rb = dn.getRhsBatchDims();
  ArrayRef<int64_t> lc = dn.getLhsContractingDims(), rc = dn.getRhsContractingDims();
  if (lb.size() != rb.size())
    return op->emitOpError() << "lhs_batch_dims has " << lb.size()
                             << " entries but rhs_batch_dims has " << rb.size();
  if (lc.size() != rc.size())
    return op->emitOpError() << "lhs_contracting_dims has " << lc.size()
                             << " entries but rhs_contracting_dims has " << rc.size();
  if (failed(verifyDimList(op, lb, lhs.getRank(), "lhs_batch_dims")) ||
      failed(verifyDimList(op, lc, lhs.getRank(), "lhs_contracting_dims")) ||
      failed(verifyDimList(op, rb, rhs.getRank(), "rhs_batch_dims")) ||
      failed(verifyDimList(op, rc, rhs.getRank(), "rhs_contracting_dims")) ||
      failed(verifyDisjointDims(op, lb, "lhs_batch_dims", lc, "lhs_contracting_dims")) ||
      failed(verifyDisjointDims(op, rb, "rhs_batch_dims", rc, "rhs_contracting_dims")))
    return failure();
  for (auto [l, r] : llvm::zip(lb, rb))
    if (!compatibleDim(lhs.getDimSize(l), rhs.getDimSize(r)))
      return op->emitOpError() << "batch dimension sizes differ: lhs dimension " << l
                               << " has size " << lhs.getDimSize(l) << " but rhs dimension "
                               << r << " has size " << rhs.getDimSize(r);
  for (auto [l, r] : llvm::zip(lc, rc))
    if (!compatibleDim(lhs.getDimSize(l), rhs.getDimSize(r)))
      return op->emitOpError() << "contracting dimension sizes differ: lhs dimension " << l
                               << " has size " << lhs.getDimSize(l) << " but rhs dimension "
                               << r << " has size " << rhs.getDimSize(r);
  SmallVector<int64_t> shape;
  for (auto [l, r] : llvm::zip(lb, rb))
    shape.push_back(ShapedType::isDynamic(lhs.getDimSize(l)) ? rhs.getDimSize(r)
                                                              : lhs.getDimSize(l));
  for (int64_t i = 0; i < lhs.getRank(); ++i)
    if (!llvm::is_contained(lb, i) && !llvm::is_contained(lc, i))
      shape.push_back(lhs.getDimSize(i));
  for (int64_t i = 0; i < rhs.getRank(); ++i)
    if (!llvm::is_contained(rb, i) && !llvm::is_contained(rc, i) &&
        !llvm::is_contained(rhsGroupDims, i))
      shape.push_back(rhs.getDimSize(i));
  return shape;
}

//===----------------------------------------------------------------------===//
// dot
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  if (failed(verifyPrecisionConfig(*this, getPrecisionConfigAttr())))
    return failure();
  FailureOr<SmallVector<int64_t>> shape = inferDotShape(
      *this, tensorType(getLhs()), tensorType(getRhs()), getDotDimensionNumbers());
  if (failed(shape))
    return failure();
  return verifyShapeMatches(*this, tensorType(getResult()).getShape(), *shape, "result");
}

//===----------------------------------------------------------------------===//
// ragged_dot
//===----------------------------------------------------------------------===//
//
// The mode depends on what kind of lhs dimension the (single) ragged
// dimension is, as in XLA/StableHLO's chlo.ragged_dot:
//   non-contracting (m): lhs [b, m, k], rhs [g, b, k, n] -> [b, m, n];
//                        rhs has exactly one group dimension, of size g.
//   contracting (k):     lhs [b, m, k], rhs [b, k, n]    -> [g, b, m, n].
//   batch (b):           lhs [b, m, k], rhs [b, k, n]    -> [b, m, n].
// In the last two modes rhs has no group dimension. group_sizes is [g], or
// [p..., g] where p... are the sizes of the lhs batch dimensions before the
// ragged one, then (non-contracting mode) the lhs non-contracting dimensions
// before it or (contracting mode) the lhs contracting dimensions before it.

LogicalResult RaggedDotOp::verify() {
  if (failed(verifyPrecisionConfig(*this, getPrecisionConfigAttr())))
    return failure();
  auto lhs = tensorType(getLhs()), rhs = tensorType(getRhs());
  auto groupSizes = tensorType(getGroupSizes());
  DotDimensionNumbersAttr dn = getDotDimensionNumbers();
  ArrayRef<int64_t> ragged = getLhsRaggedDimensions();
  ArrayRef<int64_t> groupDims = getRhsGroupDimensions();
  if (ragged.size() != 1)
    return emitOpError() << "lhs_ragged_dimensions must have exactly one entry, got "
                         << shapeString(ragged);
  if (failed(verifyDimList(*this, ragged, lhs.getRank(), "lhs_ragged_dimensions")) ||
      failed(verifyDimList(*this, groupDims, rhs.getRank(), "rhs_group_dimensions")) ||
      failed(verifyDisjointDims(*this, groupDims, "rhs_group_dimensions", dn.getRhsBatchDims(),
                                "rhs_batch_dims")) ||
      failed(verifyDisjointDims(*this, groupDims, "rhs_group_dimensions",
                                dn.getRhsContractingDims(), "rhs_contracting_dims")))
    return failure();
  FailureOr<SmallVector<int64_t>> dotShape = inferDotShape(*this, lhs, rhs, dn, groupDims);
  if (failed(dotShape))
    return failure();

  int64_t raggedDim = ragged[0];
  ArrayRef<int64_t> lb = dn.getLhsBatchDims(), lc = dn.getLhsContractingDims();
  enum { kNonContracting, kContracting, kBatch } mode =
      llvm::is_contained(lb, raggedDim)   ? kBatch
      : llvm::is_contained(lc, raggedDim) ? kContracting
                                          : kNonContracting;

  if (groupSizes.getRank() < 1)
    return emitOpError() << "group_sizes must have rank >= 1, got " << groupSizes;
  int64_t numGroups = groupSizes.getShape().back();
  if (groupSizes.getRank() > 1) {
    SmallVector<int64_t> expected;
    for (int64_t d : lb) {
      if (mode == kBatch && d == raggedDim)
        break;
      expected.push_back(lhs.getDimSize(d));
    }
    if (mode == kContracting) {
      for (int64_t d : lc) {
        if (d == raggedDim)
          break;
        expected.push_back(lhs.getDimSize(d));
      }
    } else if (mode == kNonContracting) {
      for (int64_t d = 0; d < raggedDim; ++d)
        if (!llvm::is_contained(lb, d) && !llvm::is_contained(lc, d))
          expected.push_back(lhs.getDimSize(d));
    }
    expected.push_back(numGroups);
    if (failed(verifyShapeMatches(*this, groupSizes.getShape(), expected, "group_sizes")))
      return failure();
  }

  SmallVector<int64_t> expected;
  if (mode == kNonContracting) {
    if (groupDims.size() != 1)
      return emitOpError() << "rhs_group_dimensions must have exactly one entry when the lhs "
                              "ragged dimension is a non-contracting dimension, got "
                           << shapeString(groupDims);
    int64_t size = rhs.getDimSize(groupDims[0]);
    if (!compatibleDim(size, numGroups))
      return emitOpError() << "rhs group dimension " << groupDims[0] << " has size " << size
                           << " but group_sizes has " << numGroups << " groups";
  } else {
    if (!groupDims.empty())
      return emitOpError() << "rhs_group_dimensions must be empty when the lhs ragged "
                              "dimension is a batch or contracting dimension, got "
                           << shapeString(groupDims);
    if (mode == kContracting)
      expected.push_back(numGroups);
  }
  expected.append(*dotShape);
  return verifyShapeMatches(*this, tensorType(getResult()).getShape(), expected, "result");
}

//===----------------------------------------------------------------------===//
// scaled_dot
//===----------------------------------------------------------------------===//
//
// Each scale has the rank of its operand and scales blocks of it: every
// operand dimension is a multiple of the scale's (the block size along that
// dimension). The result is the dot of lhs and rhs.

LogicalResult ScaledDotOp::verify() {
  if (failed(verifyPrecisionConfig(*this, getPrecisionConfigAttr())))
    return failure();
  auto lhs = tensorType(getLhs()), rhs = tensorType(getRhs());
  for (auto [operand, scale, name] :
       {std::make_tuple(lhs, tensorType(getLhsScale()), StringRef("lhs")),
        std::make_tuple(rhs, tensorType(getRhsScale()), StringRef("rhs"))}) {
    if (scale.getRank() != operand.getRank())
      return emitOpError() << name << "_scale has rank " << scale.getRank() << " but " << name
                           << " has rank " << operand.getRank();
    for (int64_t i = 0; i < operand.getRank(); ++i) {
      int64_t o = operand.getDimSize(i), s = scale.getDimSize(i);
      if (ShapedType::isDynamic(s))
        continue;
      if (s == 0 ? o != 0 : (!ShapedType::isDynamic(o) && o % s != 0))
        return emitOpError() << name << " dimension " << i << " (size " << o
                             << ") is not a multiple of " << name << "_scale dimension " << i
                             << " (size " << s << ")";
    }
  }
  FailureOr<SmallVector<int64_t>> shape =
      inferDotShape(*this, lhs, rhs, getDotDimensionNumbers());
  if (failed(shape))
    return failure();
  return verifyShapeMatches(*this, tensorType(getResult()).getShape(), *shape, "result");
}

//===----------------------------------------------------------------------===//
// convolution
//===----------------------------------------------------------------------===//

LogicalResult ConvolutionOp::verify() {
  if (failed(verifyPrecisionConfig(*this, getPrecisionConfigAttr())))
    return failure();
  auto lhs = tensorType(getLhs()), rhs = tensorType(getRhs());
  auto result = tensorType(getResult());
  ConvDimensionNumbersAttr dn = getDimensionNumbers();
  WindowAttr window = getWindow();
  int64_t rank = lhs.getRank();
  if (rank < 2)
    return emitOpError() << "input must have rank >= 2 (batch and feature dimensions), got "
                         << lhs;
  if (rhs.getRank() != rank)
    return emitOpError() << "kernel has rank " << rhs.getRank() << " but the input has rank "
                         << rank;
  if (result.getRank() != rank)
    return emitOpError() << "result has rank " << result.getRank()
                         << " but the input has rank " << rank;
  size_t numSpatial = rank - 2;
  auto checkRoles = [&](StringRef what, int64_t a, StringRef aName, int64_t b, StringRef bName,
                        ArrayRef<int64_t> spatial) -> LogicalResult {
    if (spatial.size() != numSpatial)
      return emitOpError() << "dimension_numbers has " << spatial.size() << " " << what
                           << " spatial dimensions but the operands have rank " << rank << " ("
                           << numSpatial << " spatial dimensions)";
    SmallVector<int64_t> all{a, b};
    all.append(spatial.begin(), spatial.end());
    if (!isPermutation(all, rank))
      return emitOpError() << "the " << what << " dimension numbers (" << aName << " " << a
                           << ", " << bName << " " << b << ", spatial " << shapeString(spatial)
                           << ") must be a permutation of the " << rank << " dimensions";
    return success();
  };
  if (failed(checkRoles("input", dn.getInputBatchDim(), "batch", dn.getInputFeatureDim(),
                        "feature", dn.getInputSpatialDims())) ||
      failed(checkRoles("kernel", dn.getKernelInputFeatureDim(), "input feature",
                        dn.getKernelOutputFeatureDim(), "output feature",
                        dn.getKernelSpatialDims())) ||
      failed(checkRoles("output", dn.getOutputBatchDim(), "batch", dn.getOutputFeatureDim(),
                        "feature", dn.getOutputSpatialDims())))
    return failure();
  if (window.getSize().size() != numSpatial)
    return emitOpError() << "window has " << window.getSize().size()
                         << " dimensions but the convolution has " << numSpatial
                         << " spatial dimensions";
  for (size_t i = 0; i < numSpatial; ++i) {
    int64_t kernelSize = rhs.getDimSize(dn.getKernelSpatialDims()[i]);
    if (!compatibleDim(window.getSize()[i], kernelSize))
      return emitOpError() << "window size " << window.getSize()[i] << " of spatial dimension "
                           << i << " differs from the kernel's spatial dimension size "
                           << kernelSize;
  }

  int64_t fgc = getFeatureGroupCount(), bgc = getBatchGroupCount();
  if (fgc > 1 && bgc > 1)
    return emitOpError() << "feature_group_count (" << fgc << ") and batch_group_count ("
                         << bgc << ") cannot both be greater than 1";
  int64_t inputBatch = lhs.getDimSize(dn.getInputBatchDim());
  int64_t inputFeature = lhs.getDimSize(dn.getInputFeatureDim());
  int64_t kernelInputFeature = rhs.getDimSize(dn.getKernelInputFeatureDim());
  int64_t kernelOutputFeature = rhs.getDimSize(dn.getKernelOutputFeatureDim());
  auto divisible = [](int64_t size, int64_t by) {
    return ShapedType::isDynamic(size) || size % by == 0;
  };
  if (!divisible(inputFeature, fgc))
    return emitOpError() << "input feature dimension size " << inputFeature
                         << " is not divisible by feature_group_count " << fgc;
  if (!ShapedType::isDynamic(inputFeature) &&
      !compatibleDim(inputFeature / fgc, kernelInputFeature))
    return emitOpError() << "input feature dimension size " << inputFeature
                         << " must be the kernel input feature dimension size "
                         << kernelInputFeature << " times feature_group_count " << fgc;
  if (!divisible(kernelOutputFeature, fgc))
    return emitOpError() << "kernel output feature dimension size " << kernelOutputFeature
                         << " is not divisible by feature_group_count " << fgc;
  if (!divisible(kernelOutputFeature, bgc))
    return emitOpError() << "kernel output feature dimension size " << kernelOutputFeature
                         << " is not divisible by batch_group_count " << bgc;
  if (!divisible(inputBatch, bgc))
    return emitOpError() << "input batch dimension size " << inputBatch
                         << " is not divisible by batch_group_count " << bgc;

  SmallVector<int64_t> expected(rank, 0);
  expected[dn.getOutputBatchDim()] =
      ShapedType::isDynamic(inputBatch) ? inputBatch : inputBatch / bgc;
  expected[dn.getOutputFeatureDim()] = kernelOutputFeature;
  for (size_t i = 0; i < numSpatial; ++i) {
    FailureOr<int64_t> size =
        windowOutputSize(*this, window, i, lhs.getDimSize(dn.getInputSpatialDims()[i]));
    if (failed(size))
      return failure();
    expected[dn.getOutputSpatialDims()[i]] = *size;
  }
  return verifyShapeMatches(*this, result.getShape(), expected, "result");
}

//===----------------------------------------------------------------------===//
// fft
//===----------------------------------------------------------------------===//
//
// As XLA's InferFftShape: FFT/IFFT map complex to the same type; RFFT maps
// f32/f64 whose trailing dims are fft_length to complex, the last dim
// becoming fft_length[-1] / 2 + 1; IRFFT maps complex whose trailing dims are
// fft_length except the last, which is fft_length[-1] / 2 + 1, to real with
// the last dim fft_length[-1]. (XLA does not tie FFT/IFFT's fft_length to the
// operand's dimensions, so neither does this verifier.)

LogicalResult FftOp::verify() {
  auto operand = tensorType(getOperand()), result = tensorType(getResult());
  ArrayRef<int64_t> length = getFftLength();
  int64_t fftRank = length.size();
  if (fftRank < 1 || fftRank > 3)
    return emitOpError() << "fft_length must have 1 to 3 entries, got " << fftRank;
  for (int64_t l : length)
    if (l < 0)
      return emitOpError() << "fft_length entries must be non-negative, got "
                           << shapeString(length);
  int64_t rank = operand.getRank();
  if (rank < fftRank)
    return emitOpError() << "operand has rank " << rank << ", less than the " << fftRank
                         << " transformed dimensions of fft_length";
  Type elementType = operand.getElementType();
  auto complexOf = [&](Type t) { return ComplexType::get(t); };
  auto trailingDim = [&](int64_t i) { return operand.getDimSize(rank - fftRank + i); };
  SmallVector<int64_t> shape(operand.getShape());
  Type expectedElement;
  switch (getFftType()) {
  case FftType::FFT:
  case FftType::IFFT:
    if (!isa<ComplexType>(elementType))
      return emitOpError() << stringifyFftType(getFftType())
                           << " requires a complex operand, got " << operand;
    expectedElement = elementType;
    break;
  case FftType::RFFT:
    if (!elementType.isF32() && !elementType.isF64())
      return emitOpError() << "RFFT requires an f32 or f64 operand, got " << operand;
    for (int64_t i = 0; i < fftRank; ++i)
      if (!compatibleDim(trailingDim(i), length[i]))
        return emitOpError() << "RFFT requires the operand's trailing dimensions to be "
                                "fft_length "
                             << shapeString(length) << ", got shape "
                             << shapeString(operand.getShape());
    if (length.back() != 0)
      shape.back() = length.back() / 2 + 1;
    expectedElement = complexOf(elementType);
    break;
  case FftType::IRFFT: {
    auto complex = dyn_cast<ComplexType>(elementType);
    if (!complex)
      return emitOpError() << "IRFFT requires a complex operand, got " << operand;
    for (int64_t i = 0; i + 1 < fftRank; ++i)
      if (!compatibleDim(trailingDim(i), length[i]))
        return emitOpError() << "IRFFT requires the operand's trailing dimensions but the last "
                                "to be those of fft_length "
                             << shapeString(length) << ", got shape "
                             << shapeString(operand.getShape());
    int64_t last = operand.getShape().back();
    if ((last != 0 || length.back() != 0) && !compatibleDim(last, length.back() / 2 + 1))
      return emitOpError() << "IRFFT requires the operand's last dimension to be fft_length["
                           << fftRank - 1 << "] / 2 + 1 = " << length.back() / 2 + 1
                           << ", got " << last;
    shape.back() = length.back();
    expectedElement = complex.getElementType();
    break;
  }
  }
  if (failed(verifyShapeMatches(*this, result.getShape(), shape, "result")))
    return failure();
  if (result.getElementType() != expectedElement)
    return emitOpError() << "result has element type " << result.getElementType() << " but "
                         << expectedElement << " was expected for "
                         << stringifyFftType(getFftType()) << " of " << operand;
  return success();
}

//===----------------------------------------------------------------------===//
// cholesky, triangular_solve
//===----------------------------------------------------------------------===//

/// `type` has rank >= 2 and its two minor dimensions are equal.
static LogicalResult verifySquareMatrices(Operation *op, RankedTensorType type,
                                          StringRef what) {
  if (type.getRank() < 2)
    return op->emitOpError() << what << " must have rank >= 2, got " << type;
  ArrayRef<int64_t> shape = type.getShape();
  if (!compatibleDim(shape[shape.size() - 1], shape[shape.size() - 2]))
    return op->emitOpError() << what
                             << " must be square in its two minor dimensions, got shape "
                             << shapeString(shape);
  return success();
}

LogicalResult CholeskyOp::verify() { return verifySquareMatrices(*this, tensorType(getA()), "a"); }

LogicalResult TriangularSolveOp::verify() {
  auto a = tensorType(getA()), b = tensorType(getB());
  if (failed(verifySquareMatrices(*this, a, "a")))
    return failure();
  if (b.getRank() != a.getRank())
    return emitOpError() << "b has rank " << b.getRank() << " but a has rank " << a.getRank();
  if (b.getElementType() != a.getElementType())
    return emitOpError() << "b has element type " << b.getElementType()
                         << " but a has element type " << a.getElementType();
  int64_t rank = a.getRank();
  int64_t m = a.getDimSize(rank - 1);
  int64_t solved = getLeftSide() ? rank - 2 : rank - 1;
  if (!compatibleDim(b.getDimSize(solved), m))
    return emitOpError() << "with left_side = " << (getLeftSide() ? "true" : "false")
                         << ", dimension " << solved << " of b (size " << b.getDimSize(solved)
                         << ") must equal the size of a (" << m << ")";
  if (!isCompatibleShape(a.getShape().drop_back(2), b.getShape().drop_back(2)))
    return emitOpError() << "b has batch dimensions " << shapeString(b.getShape().drop_back(2))
                         << " but a has " << shapeString(a.getShape().drop_back(2));
  return verifyTypeIs(*this, getResult().getType(), b, "result");
}

//===----------------------------------------------------------------------===//
// Batch norms
//===----------------------------------------------------------------------===//

/// feature_index is a dimension of the operand; returns its size.
static FailureOr<int64_t> featureSize(Operation *op, RankedTensorType operand,
                                      uint64_t featureIndex) {
  if ((int64_t)featureIndex >= operand.getRank())
    return op->emitOpError() << "feature_index " << featureIndex
                             << " is out of range for an operand of rank " << operand.getRank();
  return operand.getDimSize(featureIndex);
}

/// `v` is 1-D with one element per feature.
static LogicalResult verifyPerFeature(Operation *op, Value v, StringRef what,
                                      int64_t features) {
  auto type = tensorType(v);
  if (type.getRank() != 1)
    return op->emitOpError() << what << " must be a 1-D tensor, got " << type;
  if (!compatibleDim(type.getDimSize(0), features))
    return op->emitOpError() << what << " has " << type.getDimSize(0)
                             << " elements but the feature dimension has size " << features;
  return success();
}

/// The type of a per-feature result: [features] of the operand's element
/// type.
static RankedTensorType perFeatureType(RankedTensorType operand, int64_t features) {
  return RankedTensorType::get({features}, operand.getElementType());
}

/// A per-feature result has `features` elements of the operand's type (a
/// dynamic feature dimension matches any size).
static LogicalResult verifyPerFeatureResult(Operation *op, Value v, StringRef what,
                                            RankedTensorType operand, int64_t features) {
  auto type = tensorType(v);
  if (type.getRank() != 1 || type.getElementType() != operand.getElementType() ||
      !compatibleDim(type.getDimSize(0), features))
    return op->emitOpError() << what << " has type " << type << " but "
                             << perFeatureType(operand, features) << " was expected";
  return success();
}

LogicalResult BatchNormTrainingOp::verify() {
  auto operand = tensorType(getOperand());
  FailureOr<int64_t> features = featureSize(*this, operand, getFeatureIndex());
  if (failed(features) || failed(verifyPerFeature(*this, getScale(), "scale", *features)) ||
      failed(verifyPerFeature(*this, getOffset(), "offset", *features)) ||
      failed(verifyTypeIs(*this, getOutput().getType(), operand, "output")) ||
      failed(verifyPerFeatureResult(*this, getBatchMean(), "batch_mean", operand, *features)) ||
      failed(verifyPerFeatureResult(*this, getBatchVar(), "batch_var", operand, *features)))
    return failure();
  return success();
}

LogicalResult BatchNormInferenceOp::verify() {
  auto operand = tensorType(getOperand());
  FailureOr<int64_t> features = featureSize(*this, operand, getFeatureIndex());
  if (failed(features) || failed(verifyPerFeature(*this, getScale(), "scale", *features)) ||
      failed(verifyPerFeature(*this, getOffset(), "offset", *features)) ||
      failed(verifyPerFeature(*this, getMean(), "mean", *features)) ||
      failed(verifyPerFeature(*this, getVariance(), "variance", *features)) ||
      failed(verifyTypeIs(*this, getResult().getType(), operand, "result")))
    return failure();
  return success();
}

LogicalResult BatchNormGradOp::verify() {
  auto operand = tensorType(getOperand());
  FailureOr<int64_t> features = featureSize(*this, operand, getFeatureIndex());
  if (failed(features) || failed(verifyPerFeature(*this, getScale(), "scale", *features)) ||
      failed(verifyPerFeature(*this, getMean(), "mean", *features)) ||
      failed(verifyPerFeature(*this, getVariance(), "variance", *features)) ||
      failed(verifyShapeMatches(*this, tensorType(getGradOutput()).getShape(),
                                operand.getShape(), "grad_output")) ||
      failed(verifyTypeIs(*this, getGradOperand().getType(), operand, "grad_operand")) ||
      failed(verifyPerFeatureResult(*this, getGradScale(), "grad_scale", operand, *features)) ||
      failed(verifyPerFeatureResult(*this, getGradOffset(), "grad_offset", operand, *features)))
    return failure();
  return success();
}
