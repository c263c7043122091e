//===- XlaGpuDialect.cpp - xla_gpu dialect registration and ops -----------===//
//
// Registration, the verifiers of xla_gpu.shuffle_reduce (its combiner's
// signature, a power-of-two distance) and the result names the printer uses.
//
//===----------------------------------------------------------------------===//

#include "rxla/Dialect/XlaGpu/IR/XlaGpuOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace rxla::xla_gpu;

#include "rxla/Dialect/XlaGpu/IR/XlaGpuDialect.cpp.inc"

#define GET_OP_CLASSES
#include "rxla/Dialect/XlaGpu/IR/XlaGpuOps.cpp.inc"

void XlaGpuDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "rxla/Dialect/XlaGpu/IR/XlaGpuOps.cpp.inc"
      >();
}

// "f32, index" for diagnostics.
static std::string typeList(TypeRange types) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(types, os);
  return text;
}

void AllocateSharedOp::getAsmResultNames(function_ref<void(Value, StringRef)> setNameFn) {
  setNameFn(getResult(), "shmem");
}

// Naming only the first result prints a result group, `%synced_tensor:2`.
void SyncThreadsOp::getAsmResultNames(function_ref<void(Value, StringRef)> setNameFn) {
  if (getNumResults() > 0)
    setNameFn(getResult(0), "synced_tensor");
}

LogicalResult ShuffleReduceOp::verify() {
  if (getOperands().empty())
    return emitOpError("needs at least one value to reduce");
  int64_t distance = getMaxDistance();
  if (distance <= 0 || !llvm::isPowerOf2_64(static_cast<uint64_t>(distance)))
    return emitOpError() << "max_distance must be a positive power of two, got "
                         << distance;
  return success();
}

LogicalResult ShuffleReduceOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto combiner =
      symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getCombinerAttr());
  if (!combiner)
    return emitOpError() << "combiner '" << getCombiner()
                         << "' is not a func.func in this module";
  // The accumulators, then the values received from another lane.
  SmallVector<Type> inputs(getOperandTypes());
  inputs.append(getOperandTypes().begin(), getOperandTypes().end());
  FunctionType type = combiner.getFunctionType();
  if (TypeRange(type.getInputs()) != TypeRange(inputs) ||
      TypeRange(type.getResults()) != TypeRange(getOperandTypes()))
    return emitOpError() << "combiner '" << getCombiner() << "' must have type ("
                         << typeList(inputs) << ") -> (" << typeList(getOperandTypes())
                         << "), got (" << typeList(type.getInputs()) << ") -> ("
                         << typeList(type.getResults()) << ")";
  return success();
}
