//===- HloDialect.cpp - hlo dialect registration --------------------------===//
//
// Registration of the dialect's ops, attributes and types, plus the
// verifier of the dialect's discardable attributes (hlo.entry, hlo.layout,
// hlo.sharding on results and on computation parameters).
//
//===----------------------------------------------------------------------===//

#include "rxla/Dialect/Hlo/IR/HloOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace rxla::hlo;

#include "rxla/Dialect/Hlo/IR/HloDialect.cpp.inc"
#include "rxla/Dialect/Hlo/IR/HloEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "rxla/Dialect/Hlo/IR/HloTypes.cpp.inc"

#define GET_OP_CLASSES
#include "rxla/Dialect/Hlo/IR/HloOps.cpp.inc"

void HloDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "rxla/Dialect/Hlo/IR/HloOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "rxla/Dialect/Hlo/IR/HloTypes.cpp.inc"
      >();
  registerAttributes();
}

// A layout is well formed for a tensor when minor_to_major is a permutation
// of its dimensions (or empty, meaning the default).
static LogicalResult verifyLayoutFor(Operation *op, Attribute attr, Type type,
                                     StringRef what) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    auto array = dyn_cast<ArrayAttr>(attr);
    if (!array || array.size() != tuple.size())
      return op->emitOpError() << "hlo.layout of " << what
                               << " (a tuple) must be an array with one entry per element";
    for (auto [a, t] : llvm::zip(array.getValue(), tuple.getTypes()))
      if (failed(verifyLayoutFor(op, a, t, what)))
        return failure();
    return success();
  }
  if (isa<UnitAttr>(attr) && isa<TokenType>(type))
    return success();
  auto layout = dyn_cast<LayoutAttr>(attr);
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!layout || !tensor)
    return op->emitOpError() << "hlo.layout of " << what
                             << " must be a #hlo.layout for an array";
  ArrayRef<int64_t> m2m = layout.getMinorToMajor();
  if (m2m.empty())
    return success();
  llvm::SmallVector<bool> seen(tensor.getRank(), false);
  if ((int64_t)m2m.size() != tensor.getRank())
    return op->emitOpError() << "hlo.layout of " << what << " has "
                             << m2m.size() << " dimensions, the array has "
                             << tensor.getRank();
  for (int64_t d : m2m) {
    if (d < 0 || d >= tensor.getRank() || seen[d])
      return op->emitOpError() << "hlo.layout of " << what
                               << ": minor_to_major is not a permutation";
    seen[d] = true;
  }
  return success();
}

LogicalResult HloDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == "hlo.entry") {
    if (!isa<UnitAttr>(attr.getValue()) || !isa<func::FuncOp>(op))
      return op->emitError() << "'hlo.entry' must be a unit attribute on a func.func";
    return success();
  }
  if (name == "hlo.layout") {
    if (op->getNumResults() != 1)
      return op->emitError() << "'hlo.layout' needs an op with exactly one result";
    return verifyLayoutFor(op, attr.getValue(), op->getResult(0).getType(), "the result");
  }
  if (name == "hlo.sharding") {
    auto sharding = dyn_cast<ShardingAttr>(attr.getValue());
    if (!sharding)
      return op->emitError() << "'hlo.sharding' must be a #hlo.sharding attribute";
    if (op->getNumResults() == 0)
      return op->emitError() << "'hlo.sharding' needs an op with results";
    // Several results are sharded as the tuple of them.
    Type type = op->getNumResults() == 1
                    ? op->getResult(0).getType()
                    : TupleType::get(op->getContext(), op->getResultTypes());
    return sharding.verifyForType(type, [&] { return op->emitOpError(); },
                                  "hlo.sharding of the result");
  }
  // Carried verbatim from HLO text; the importer/exporter own their syntax.
  if (name == "hlo.frontend_attributes" ||
      name == "hlo.metadata" || name == "hlo.backend_config" ||
      name == "hlo.name" || name == "hlo.control_predecessors" ||
      name == "hlo.module_attributes" || name == "hlo.statistics_viz" ||
      name == "hlo.original_value" || name == "hlo.stack_frames" ||
      name == "hlo.computation_attributes")
    return success();
  return op->emitError() << "unknown hlo dialect attribute '" << name << "'";
}

// A computation parameter's sharding (an argument attribute of the func).
LogicalResult HloDialect::verifyRegionArgAttribute(Operation *op, unsigned regionIndex,
                                                   unsigned argIndex,
                                                   NamedAttribute attr) {
  if (attr.getName().getValue() != "hlo.sharding")
    return success();
  auto sharding = dyn_cast<ShardingAttr>(attr.getValue());
  if (!sharding)
    return op->emitError() << "'hlo.sharding' must be a #hlo.sharding attribute";
  Type type;
  if (auto func = dyn_cast<FunctionOpInterface>(op))
    type = func.getArgumentTypes()[argIndex];
  else if (regionIndex < op->getNumRegions() && !op->getRegion(regionIndex).empty())
    type = op->getRegion(regionIndex).getArgument(argIndex).getType();
  else
    return op->emitError() << "'hlo.sharding' on an argument of an op without arguments";
  // At the argument (the HLO parameter instruction) when there is a body.
  Location loc = op->getLoc();
  if (regionIndex < op->getNumRegions() && !op->getRegion(regionIndex).empty())
    loc = op->getRegion(regionIndex).getArgument(argIndex).getLoc();
  std::string what = ("hlo.sharding of argument " + Twine(argIndex) + " of '" +
                      op->getName().getStringRef() + "'")
                         .str();
  return sharding.verifyForType(type, [&] { return mlir::emitError(loc); }, what);
}
