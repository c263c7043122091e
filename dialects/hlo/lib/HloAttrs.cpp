//===- HloAttrs.cpp - hlo dialect attributes ------------------------------===//
//
// Attribute registration, the custom syntax of #hlo.groups and the
// verifiers of window and iota replica group attributes.
//
//===----------------------------------------------------------------------===//

#include "rxla/Dialect/Hlo/IR/HloOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace rxla::hlo;

#define GET_ATTRDEF_CLASSES
#include "rxla/Dialect/Hlo/IR/HloAttrs.cpp.inc"

void HloDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "rxla/Dialect/Hlo/IR/HloAttrs.cpp.inc"
      >();
}

FailureOr<SmallVector<int64_t>> rxla::hlo::parseDimList(AsmParser &parser) {
  SmallVector<int64_t> dims;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
        int64_t d;
        if (parser.parseInteger(d))
          return failure();
        dims.push_back(d);
        return success();
      }))
    return failure();
  return dims;
}

void rxla::hlo::printDimList(AsmPrinter &printer, ArrayRef<int64_t> dims) {
  printer << '[';
  llvm::interleaveComma(dims, printer);
  printer << ']';
}

//===----------------------------------------------------------------------===//
// #hlo.groups<[[0, 1], [2, 3]]>
//===----------------------------------------------------------------------===//

Attribute IndexGroupsAttr::parse(AsmParser &parser, Type) {
  Builder b(parser.getContext());
  SmallVector<Attribute> groups;
  auto parseGroup = [&]() -> ParseResult {
    SmallVector<int64_t> ids;
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
          int64_t id;
          if (parser.parseInteger(id))
            return failure();
          ids.push_back(id);
          return success();
        }))
      return failure();
    groups.push_back(b.getDenseI64ArrayAttr(ids));
    return success();
  };
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseGroup) ||
      parser.parseGreater())
    return {};
  return IndexGroupsAttr::get(parser.getContext(), b.getArrayAttr(groups));
}

void IndexGroupsAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(getGroups(), printer, [&](Attribute group) {
    printer << '[';
    llvm::interleaveComma(cast<DenseI64ArrayAttr>(group).asArrayRef(), printer);
    printer << ']';
  });
  printer << "]>";
}

SmallVector<SmallVector<int64_t>> IndexGroupsAttr::getGroupList() const {
  SmallVector<SmallVector<int64_t>> result;
  for (Attribute group : getGroups())
    result.emplace_back(llvm::to_vector(cast<DenseI64ArrayAttr>(group).asArrayRef()));
  return result;
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

LogicalResult WindowAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> size, ArrayRef<int64_t> stride,
                                 ArrayRef<int64_t> padLow, ArrayRef<int64_t> padHigh,
                                 ArrayRef<int64_t> lhsDilation,
                                 ArrayRef<int64_t> rhsDilation,
                                 ArrayRef<int64_t> reversal) {
  size_t rank = size.size();
  auto check = [&](ArrayRef<int64_t> field, StringRef name, int64_t min) -> LogicalResult {
    if (!field.empty() && field.size() != rank)
      return emitError() << "window " << name << " has " << field.size()
                         << " entries, expected " << rank << " (one per window dimension)";
    for (int64_t v : field)
      if (v < min)
        return emitError() << "window " << name << " must be >= " << min << ", got " << v;
    return success();
  };
  if (failed(check(size, "size", 1)) || failed(check(stride, "stride", 1)) ||
      failed(check(padLow, "pad_low", INT64_MIN)) ||
      failed(check(padHigh, "pad_high", INT64_MIN)) ||
      failed(check(lhsDilation, "lhs_dilation", 1)) ||
      failed(check(rhsDilation, "rhs_dilation", 1)) ||
      failed(check(reversal, "reversal", 0)))
    return failure();
  for (int64_t v : reversal)
    if (v > 1)
      return emitError() << "window reversal entries must be 0 or 1";
  return success();
}

LogicalResult IotaReplicaGroupsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                            ArrayRef<int64_t> groupShape,
                                            ArrayRef<int64_t> reshapeDims,
                                            ArrayRef<int64_t> transpose) {
  if (groupShape.size() != 2)
    return emitError() << "iota replica groups need a 2-D group_shape [num_groups, group_size]";
  int64_t total = 1, reshaped = 1;
  for (int64_t d : groupShape) {
    if (d <= 0)
      return emitError() << "iota replica group_shape entries must be positive";
    total *= d;
  }
  for (int64_t d : reshapeDims) {
    if (d <= 0)
      return emitError() << "iota replica group reshape_dims must be positive";
    reshaped *= d;
  }
  if (total != reshaped)
    return emitError() << "iota replica groups: group_shape has " << total
                       << " devices but reshape_dims has " << reshaped;
  if (!transpose.empty()) {
    if (transpose.size() != reshapeDims.size())
      return emitError() << "iota replica groups: transpose must permute reshape_dims";
    SmallVector<bool> seen(transpose.size(), false);
    for (int64_t d : transpose) {
      if (d < 0 || d >= (int64_t)transpose.size() || seen[d])
        return emitError() << "iota replica groups: transpose is not a permutation";
      seen[d] = true;
    }
  }
  return success();
}
