//===- XlaOps.h - the xla emitter dialect ------------------------*- C++ -*-===//
//
// C++ declarations of the xla dialect, generated from the .td files in this
// directory. Include this header from a C++ MLIR project that links RxlaXla.
//
//===----------------------------------------------------------------------===//

#ifndef RXLA_DIALECT_XLA_IR_XLAOPS_H
#define RXLA_DIALECT_XLA_IR_XLAOPS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace rxla::xla {
/// The shape of an indexing map: how many variables of each kind, results
/// and constraints it has.
struct IndexingMapInfo {
  unsigned numDims = 0;
  unsigned numRangeVars = 0;
  unsigned numRuntimeVars = 0;
  unsigned numResults = 0;
  unsigned numConstraints = 0;
  /// XLA's `UNDEFINED` map.
  bool undefined = false;

  bool operator==(const IndexingMapInfo &other) const {
    return numDims == other.numDims && numRangeVars == other.numRangeVars &&
           numRuntimeVars == other.numRuntimeVars &&
           numResults == other.numResults &&
           numConstraints == other.numConstraints && undefined == other.undefined;
  }
};

inline llvm::hash_code hash_value(const IndexingMapInfo &info) {
  return llvm::hash_combine(info.numDims, info.numRangeVars, info.numRuntimeVars,
                            info.numResults, info.numConstraints, info.undefined);
}

/// Checks the structure of an indexing map in XLA's text form (see
/// IndexingMapAttr) and returns its shape; reports the first problem through
/// `emitError` when it is given.
mlir::FailureOr<IndexingMapInfo>
analyzeIndexingMap(llvm::StringRef text,
                   llvm::function_ref<mlir::InFlightDiagnostic()> emitError = nullptr);

/// The shape of the map of `text`, or all zeros if it is not a valid map
/// (creating the attribute then fails its verification).
IndexingMapInfo indexingMapInfoOrEmpty(llvm::StringRef text);

class IndexingMapAttr;
/// The #xla.indexing_map of `text` with runs of whitespace collapsed to one
/// space (as the attribute parser stores it), or null after reporting
/// through `emitError` why the text is not a well-formed map.
IndexingMapAttr getIndexingMapAttr(mlir::MLIRContext *context, llvm::StringRef text,
                                   llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// The name of the discardable attribute holding a value range.
constexpr llvm::StringLiteral kRangeAttrName = "xla.range";
} // namespace rxla::xla

#include "rxla/Dialect/Xla/IR/XlaDialect.h.inc"
#include "rxla/Dialect/Xla/IR/XlaEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "rxla/Dialect/Xla/IR/XlaAttrs.h.inc"

#define GET_OP_CLASSES
#include "rxla/Dialect/Xla/IR/XlaOps.h.inc"

#endif // RXLA_DIALECT_XLA_IR_XLAOPS_H
