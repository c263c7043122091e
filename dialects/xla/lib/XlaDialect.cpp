//===- XlaDialect.cpp - xla dialect registration --------------------------===//
//
// Registration of the ops and attributes, the dialect interfaces MLIR needs
// to inline calls of partitioned functions (`xla.pure_call`) and to print
// indexing maps as `#indexing_map` aliases, and the verifier of the
// discardable `xla.range` attribute.
//
//===----------------------------------------------------------------------===//

#include "rxla/Dialect/Xla/IR/XlaOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace rxla::xla;

#include "rxla/Dialect/Xla/IR/XlaDialect.cpp.inc"
#include "rxla/Dialect/Xla/IR/XlaEnums.cpp.inc"

void XlaDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "rxla/Dialect/Xla/IR/XlaOps.cpp.inc"
      >();
  registerAttributes();
  registerInterfaces();
}

namespace {
/// Inlining of `xla.pure_call`s and of functions that contain xla ops.
///
/// A call whose callee would be moved (its only use) is always inlined. A
/// callee that would be cloned is inlined only when it is small or when it
/// calls a function that the caller's region also calls: the partitioner
/// outlined functions used at several different indices precisely so that
/// they are emitted once, and inlining them everywhere would undo that (and
/// can grow code exponentially). This is XLA's rule (emitters doc,
/// "Inliner").
struct XlaInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  static constexpr int kMaxOpsToClone = 8;

  bool isLegalToInline(Operation *call, Operation *callable,
                       bool wouldBeCloned) const final {
    if (!wouldBeCloned)
      return true;
    auto func = dyn_cast<func::FuncOp>(callable);
    if (!func || func.isExternal())
      return false;
    Region &body = func.getBody();
    llvm::SmallDenseSet<StringRef> calleeCalls;
    for (auto inner : body.getOps<PureCallOp>())
      calleeCalls.insert(inner.getCallee());
    for (auto sibling : call->getParentRegion()->getOps<PureCallOp>())
      if (calleeCalls.contains(sibling.getCallee()))
        return true;
    int numOps = 0;
    body.front().walk([&](Operation *) { ++numOps; });
    return numOps <= kMaxOpsToClone;
  }

  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }

  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};

/// Prints indexing maps as `#indexing_map`, `#indexing_map1`, ... aliases.
struct XlaOpAsmDialectInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const final {
    if (isa<IndexingMapAttr>(attr)) {
      os << "indexing_map";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void XlaDialect::registerInterfaces() {
  addInterfaces<XlaInlinerInterface, XlaOpAsmDialectInterface>();
}

//===----------------------------------------------------------------------===//
// xla.range = [lo : index, hi : index]
//===----------------------------------------------------------------------===//

static LogicalResult verifyRange(Attribute attr,
                                 function_ref<InFlightDiagnostic()> emitError) {
  auto array = dyn_cast<ArrayAttr>(attr);
  auto bound = [&](unsigned i) -> IntegerAttr {
    auto value = dyn_cast<IntegerAttr>(array[i]);
    return value && value.getType().isIndex() ? value : IntegerAttr();
  };
  if (!array || array.size() != 2 || !bound(0) || !bound(1))
    return emitError() << "'xla.range' must be [lo : index, hi : index], got "
                       << attr;
  int64_t lo = bound(0).getInt(), hi = bound(1).getInt();
  if (lo > hi)
    return emitError() << "'xla.range' is empty: lower bound " << lo
                       << " exceeds upper bound " << hi;
  return success();
}

// Other `xla.*` discardable attributes (XLA's emitters also use xla.entry,
// xla.slice_index, xla.invariant, ...) are not interpreted by the dialect.
LogicalResult XlaDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  if (attr.getName() == kRangeAttrName)
    return verifyRange(attr.getValue(), [&] { return op->emitError(); });
  return success();
}

LogicalResult XlaDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                   unsigned argIndex,
                                                   NamedAttribute attr) {
  if (attr.getName() == kRangeAttrName)
    return verifyRange(attr.getValue(), [&]() -> InFlightDiagnostic {
      InFlightDiagnostic diag = op->emitError();
      diag << "argument #" << argIndex << ": ";
      return diag;
    });
  return success();
}
