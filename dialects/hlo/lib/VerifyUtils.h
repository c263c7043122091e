//===- VerifyUtils.h - helpers shared by the hlo op verifiers ----*- C++ -*-===//

#ifndef RXLA_DIALECT_HLO_LIB_VERIFYUTILS_H
#define RXLA_DIALECT_HLO_LIB_VERIFYUTILS_H

#include "rxla/Dialect/Hlo/IR/HloOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace rxla::hlo {

/// Emits "<what> has dimension D out of range for rank R" / duplicate
/// errors; succeeds when every entry of `dims` is a distinct dimension of a
/// rank-`rank` array.
inline mlir::LogicalResult verifyDimList(mlir::Operation *op,
                                         llvm::ArrayRef<int64_t> dims,
                                         int64_t rank, llvm::StringRef what) {
  llvm::SmallVector<bool> seen(rank, false);
  for (int64_t d : dims) {
    if (d < 0 || d >= rank)
      return op->emitOpError() << what << " contains dimension " << d
                               << ", out of range for rank " << rank;
    if (seen[d])
      return op->emitOpError() << what << " contains dimension " << d << " twice";
    seen[d] = true;
  }
  return mlir::success();
}

/// True if `perm` is a permutation of [0, rank).
inline bool isPermutation(llvm::ArrayRef<int64_t> perm, int64_t rank) {
  if ((int64_t)perm.size() != rank)
    return false;
  llvm::SmallVector<bool> seen(rank, false);
  for (int64_t d : perm) {
    if (d < 0 || d >= rank || seen[d])
      return false;
    seen[d] = true;
  }
  return true;
}

/// The ranked tensor type of `v` (verifiers run after type constraints, so
/// array operands are ranked tensors).
inline mlir::RankedTensorType tensorType(mlir::Value v) {
  return llvm::cast<mlir::RankedTensorType>(v.getType());
}

/// A shape as "[2, 3]" for diagnostics ("?" for dynamic dimensions).
inline std::string shapeString(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (i)
      s += ", ";
    s += mlir::ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d);
  }
  return s + "]";
}

/// True if two dimension sizes may be equal (either is dynamic, or equal).
inline bool compatibleDim(int64_t a, int64_t b) {
  return mlir::ShapedType::isDynamic(a) || mlir::ShapedType::isDynamic(b) || a == b;
}

/// Looks `callee` up as a func.func in the nearest symbol table; emits a
/// located error naming `role` (e.g. "to_apply") when it is missing.
inline mlir::FailureOr<mlir::func::FuncOp>
lookupComputation(mlir::Operation *op, mlir::SymbolTableCollection &symbolTable,
                  mlir::FlatSymbolRefAttr callee, llvm::StringRef role) {
  auto func = symbolTable.lookupNearestSymbolFrom<mlir::func::FuncOp>(op, callee);
  if (!func)
    return op->emitOpError() << role << " refers to '" << callee.getValue()
                             << "', which is not a func.func in this module";
  return func;
}

/// The flattened result types of a computation: a computation that returns a
/// single tuple counts as returning the tuple's elements (HLO computations
/// with several outputs return a tuple).
inline llvm::SmallVector<mlir::Type> computationResults(mlir::func::FuncOp func) {
  auto results = func.getFunctionType().getResults();
  if (results.size() == 1)
    if (auto tuple = llvm::dyn_cast<mlir::TupleType>(results[0]))
      return llvm::to_vector(tuple.getTypes());
  return llvm::to_vector(results);
}

/// Verifies that `callee` (in role `role`) takes exactly `inputs` and
/// returns `results` (directly or as one tuple).
inline mlir::LogicalResult
verifyComputationSignature(mlir::Operation *op, mlir::SymbolTableCollection &symbolTable,
                           mlir::FlatSymbolRefAttr callee, llvm::StringRef role,
                           mlir::TypeRange inputs, mlir::TypeRange results) {
  auto func = lookupComputation(op, symbolTable, callee, role);
  if (mlir::failed(func))
    return mlir::failure();
  auto type = func->getFunctionType();
  if (mlir::TypeRange(type.getInputs()) != inputs) {
    auto diag = op->emitOpError() << role << " computation '" << callee.getValue()
                                  << "' must take (";
    llvm::interleaveComma(inputs, diag);
    diag << ") but takes (";
    llvm::interleaveComma(type.getInputs(), diag);
    return diag << ")";
  }
  auto actual = computationResults(*func);
  if (mlir::TypeRange(actual) != results) {
    auto diag = op->emitOpError() << role << " computation '" << callee.getValue()
                                  << "' must return (";
    llvm::interleaveComma(results, diag);
    diag << ") but returns (";
    llvm::interleaveComma(actual, diag);
    return diag << ")";
  }
  return mlir::success();
}

/// The scalar (rank-0) tensor type with the element type of `type`.
inline mlir::RankedTensorType scalarOf(mlir::Type type) {
  return mlir::RankedTensorType::get({}, llvm::cast<mlir::ShapedType>(type).getElementType());
}

/// The storage bit width of an XLA element type: pred occupies 8 bits (as
/// XLA's primitive_util::BitWidth(PRED)), complex<fN> 2N bits.
inline int64_t elementBitWidth(mlir::Type type) {
  if (type.isInteger(1))
    return 8;
  if (auto complex = llvm::dyn_cast<mlir::ComplexType>(type))
    return 2 * complex.getElementType().getIntOrFloatBitWidth();
  return type.getIntOrFloatBitWidth();
}

/// Emits "<what> has shape [..] but [..] was expected" unless `actual` has
/// the rank of `expected` and every dimension is compatible (`?` matches
/// anything).
inline mlir::LogicalResult verifyShapeMatches(mlir::Operation *op,
                                              llvm::ArrayRef<int64_t> actual,
                                              llvm::ArrayRef<int64_t> expected,
                                              llvm::StringRef what) {
  bool ok = actual.size() == expected.size();
  for (size_t i = 0; ok && i < actual.size(); ++i)
    ok = compatibleDim(actual[i], expected[i]);
  if (ok)
    return mlir::success();
  return op->emitOpError() << what << " has shape " << shapeString(actual) << " but "
                           << shapeString(expected) << " was expected";
}

/// True if `a` and `b` have the same rank and compatible dimensions.
inline bool isCompatibleShape(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!compatibleDim(a[i], b[i]))
      return false;
  return true;
}

/// The number of positions of window dimension `i` of `window` over an input
/// dimension of size `base` (XLA's InferWindowOutputShape): the base dilated
/// by lhs_dilation and padded, minus the window dilated by rhs_dilation,
/// divided by the stride, plus one (0 when the window does not fit). A
/// dynamic `base` gives a dynamic size. Emits an error and fails when the
/// padded input size is negative. Omitted window lists take their defaults.
inline mlir::FailureOr<int64_t> windowOutputSize(mlir::Operation *op, WindowAttr window,
                                                 size_t i, int64_t base) {
  auto entry = [&](llvm::ArrayRef<int64_t> list, int64_t dflt) {
    return i < list.size() ? list[i] : dflt;
  };
  if (mlir::ShapedType::isDynamic(base))
    return mlir::ShapedType::kDynamic;
  int64_t size = entry(window.getSize(), 1);
  int64_t dilatedBase = base == 0 ? 0 : (base - 1) * entry(window.getLhsDilation(), 1) + 1;
  int64_t padded = entry(window.getPadLow(), 0) + dilatedBase + entry(window.getPadHigh(), 0);
  int64_t dilatedWindow = size == 0 ? 0 : (size - 1) * entry(window.getRhsDilation(), 1) + 1;
  if (padded < 0)
    return op->emitOpError() << "window dimension " << i << ": the padded input size "
                             << padded << " is negative";
  if (dilatedWindow > padded)
    return int64_t(0);
  return (padded - dilatedWindow) / entry(window.getStride(), 1) + 1;
}

} // namespace rxla::hlo

#endif // RXLA_DIALECT_HLO_LIB_VERIFYUTILS_H
