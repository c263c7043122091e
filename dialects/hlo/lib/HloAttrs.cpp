//===- HloAttrs.cpp - hlo dialect attributes ------------------------------===//
//
// Attribute registration, the custom syntax of #hlo.groups and
// #hlo.sharding, and the verifiers of window, iota replica group and
// sharding attributes (a sharding also against the type it annotates).
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

//===----------------------------------------------------------------------===//
// #hlo.sharding
//===----------------------------------------------------------------------===//

// Printed bare inside `<...>` and recursively for tuple elements:
//   replicated | manual | unknown | unreduced | maximal device = N
//   | devices = [dims] ([ids] | iota [dims] (T(perm))?)
//   | tuple [<body>, ...]
// followed by `, last_tile_dims = [...]`, `, shard_as = N`,
// `, shard_like = N`, `, metadata = "..."` when present.

static void printShardingBody(AsmPrinter &printer, ShardingAttr s) {
  switch (s.getKind()) {
  case ShardingKind::maximal:
    printer << "maximal device = " << s.getDevices().front();
    break;
  case ShardingKind::tiled:
    printer << "devices = ";
    printDimList(printer, s.getTileDims());
    if (!s.getIotaReshapeDims().empty()) {
      printer << " iota ";
      printDimList(printer, s.getIotaReshapeDims());
      if (s.getIotaReshapeDims().size() > 1) {
        printer << " T(";
        llvm::interleaveComma(s.getIotaTransposePerm(), printer);
        printer << ')';
      }
    } else {
      printer << ' ';
      printDimList(printer, s.getDevices());
    }
    if (!s.getLastTileDims().empty()) {
      printer << ", last_tile_dims = [";
      llvm::interleaveComma(s.getLastTileDims(), printer, [&](ShardingSubgroup t) {
        printer << stringifyShardingSubgroup(t);
      });
      printer << ']';
    }
    break;
  case ShardingKind::tuple:
    printer << "tuple [";
    llvm::interleaveComma(s.getTupleElements(), printer, [&](Attribute element) {
      printer << '<';
      printShardingBody(printer, cast<ShardingAttr>(element));
      printer << '>';
    });
    printer << ']';
    break;
  default:
    printer << stringifyShardingKind(s.getKind());
  }
  if (s.getShardAs())
    printer << ", shard_as = " << *s.getShardAs();
  if (s.getShardLike())
    printer << ", shard_like = " << *s.getShardLike();
  if (s.getMetadata()) {
    printer << ", metadata = ";
    printer.printAttributeWithoutType(s.getMetadata());
  }
}

void ShardingAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printShardingBody(printer, *this);
  printer << '>';
}

static ShardingAttr parseShardingBody(AsmParser &parser) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  StringRef word;
  if (parser.parseKeyword(&word))
    return {};
  std::optional<ShardingKind> kind =
      word == "devices" ? ShardingKind::tiled : symbolizeShardingKind(word);
  if (!kind || (word == "tiled")) {
    parser.emitError(loc, "expected replicated, manual, unknown, unreduced, maximal, "
                          "devices or tuple");
    return {};
  }
  SmallVector<int64_t> tileDims, devices, reshapeDims, perm;
  SmallVector<ShardingSubgroup> lastTileDims;
  SmallVector<Attribute> elements;
  ArrayAttr tuple;
  std::optional<int64_t> shardAs, shardLike;
  StringAttr metadata;
  auto parseInts = [&](AsmParser::Delimiter delimiter, SmallVector<int64_t> &out) {
    return parser.parseCommaSeparatedList(delimiter, [&]() {
      return parser.parseInteger(out.emplace_back());
    });
  };
  switch (*kind) {
  case ShardingKind::maximal:
    if (parser.parseKeyword("device") || parser.parseEqual() ||
        parser.parseInteger(devices.emplace_back()))
      return {};
    break;
  case ShardingKind::tiled:
    if (parser.parseEqual() || parseInts(AsmParser::Delimiter::Square, tileDims))
      return {};
    if (succeeded(parser.parseOptionalKeyword("iota"))) {
      if (parseInts(AsmParser::Delimiter::Square, reshapeDims))
        return {};
      if (succeeded(parser.parseOptionalKeyword("T"))) {
        if (parseInts(AsmParser::Delimiter::Paren, perm))
          return {};
      } else {
        for (size_t i = 0; i < reshapeDims.size(); ++i)
          perm.push_back(i);
      }
    } else if (parseInts(AsmParser::Delimiter::Square, devices)) {
      return {};
    }
    break;
  case ShardingKind::tuple:
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
          if (parser.parseLess())
            return failure();
          ShardingAttr element = parseShardingBody(parser);
          if (!element || parser.parseGreater())
            return failure();
          elements.push_back(element);
          return success();
        }))
      return {};
    tuple = ArrayAttr::get(ctx, elements);
    break;
  default:
    break;
  }
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc fieldLoc = parser.getCurrentLocation();
    StringRef field;
    if (parser.parseKeyword(&field) || parser.parseEqual())
      return {};
    if (field == "last_tile_dims") {
      if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
            SMLoc typeLoc = parser.getCurrentLocation();
            StringRef name;
            if (parser.parseKeyword(&name))
              return failure();
            std::optional<ShardingSubgroup> t = symbolizeShardingSubgroup(name);
            if (!t)
              return parser.emitError(typeLoc, "expected manual, replicated, unreduced or maximal");
            lastTileDims.push_back(*t);
            return success();
          }))
        return {};
    } else if (field == "shard_as" || field == "shard_like") {
      if (parser.parseInteger((field == "shard_as" ? shardAs : shardLike).emplace()))
        return {};
    } else if (field == "metadata") {
      std::string text;
      if (parser.parseString(&text))
        return {};
      metadata = StringAttr::get(ctx, text);
    } else {
      parser.emitError(fieldLoc, "expected last_tile_dims, shard_as, shard_like or metadata");
      return {};
    }
  }
  return ShardingAttr::getChecked([&] { return parser.emitError(loc); }, ctx, *kind, tileDims,
                                  devices, reshapeDims, perm, lastTileDims, tuple, shardAs,
                                  shardLike, metadata);
}

Attribute ShardingAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  ShardingAttr sharding = parseShardingBody(parser);
  if (!sharding || parser.parseGreater())
    return {};
  return sharding;
}

static bool isPermutation(ArrayRef<int64_t> values) {
  SmallVector<bool> seen(values.size(), false);
  for (int64_t v : values) {
    if (v < 0 || v >= (int64_t)values.size() || seen[v])
      return false;
    seen[v] = true;
  }
  return true;
}

LogicalResult ShardingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ShardingKind kind, ArrayRef<int64_t> tileDims,
                                   ArrayRef<int64_t> devices, ArrayRef<int64_t> reshapeDims,
                                   ArrayRef<int64_t> perm,
                                   ArrayRef<ShardingSubgroup> lastTileDims, ArrayAttr tuple,
                                   std::optional<int64_t> shardAs,
                                   std::optional<int64_t> shardLike, StringAttr metadata) {
  if (shardAs && shardLike)
    return emitError() << "a sharding has shard_as or shard_like, not both";
  bool tiled = kind == ShardingKind::tiled;
  if (!tiled && (!tileDims.empty() || !reshapeDims.empty() || !perm.empty() ||
                 !lastTileDims.empty()))
    return emitError() << "only a tiled sharding (devices = ...) has tile dimensions";
  if (kind != ShardingKind::tuple && tuple)
    return emitError() << "only a tuple sharding has elements";
  switch (kind) {
  case ShardingKind::maximal:
    if (devices.size() != 1)
      return emitError() << "a maximal sharding has exactly one device";
    if (devices[0] < 0)
      return emitError() << "maximal sharding device must be non-negative, got " << devices[0];
    return success();
  case ShardingKind::tuple:
    if (!tuple)
      return emitError() << "a tuple sharding needs its elements";
    if (shardAs || shardLike || metadata)
      return emitError() << "a tuple sharding carries shard groups and metadata on its elements";
    for (auto [i, element] : llvm::enumerate(tuple)) {
      auto leaf = dyn_cast<ShardingAttr>(element);
      if (!leaf || leaf.getKind() == ShardingKind::tuple)
        return emitError() << "tuple sharding element " << i
                           << " must be a non-tuple #hlo.sharding";
    }
    return success();
  case ShardingKind::tiled:
    break;
  default:
    if (!devices.empty())
      return emitError() << stringifyShardingKind(kind)
                         << " shardings have no devices assigned";
    return success();
  }
  if (tileDims.empty())
    return emitError() << "a tiled sharding needs its tile dimensions";
  int64_t count = 1;
  for (int64_t d : tileDims) {
    if (d <= 0)
      return emitError() << "tile dimensions must be positive, got " << d;
    if (count > (int64_t(1) << 40) / d)
      return emitError() << "too many tiles";
    count *= d;
  }
  if (lastTileDims.size() > tileDims.size())
    return emitError() << lastTileDims.size() << " last_tile_dims but only "
                       << tileDims.size() << " tile dimensions";
  if (reshapeDims.empty() == devices.empty())
    return emitError() << "a tiled sharding lists its devices or gives them as an iota, "
                          "exactly one of the two";
  if (!devices.empty()) {
    if ((int64_t)devices.size() != count)
      return emitError() << "tile dimensions [" << tileDims << "] have " << count
                         << " tiles but " << devices.size() << " devices are listed";
    if (!isPermutation(devices))
      return emitError() << "the listed devices must be 0.." << count - 1 << " each once";
    return success();
  }
  int64_t reshaped = 1;
  for (int64_t d : reshapeDims) {
    if (d <= 0)
      return emitError() << "iota dimensions must be positive, got " << d;
    if (reshaped > count / d + 1)
      return emitError() << "iota dimensions [" << reshapeDims << "] do not multiply to the "
                         << count << " tiles";
    reshaped *= d;
  }
  if (reshaped != count)
    return emitError() << "iota dimensions [" << reshapeDims << "] do not multiply to the "
                       << count << " tiles";
  if (perm.size() != reshapeDims.size() || !isPermutation(perm))
    return emitError() << "iota transpose [" << perm
                       << "] is not a permutation of the iota dimensions";
  return success();
}

SmallVector<int64_t> ShardingAttr::getDeviceList() const {
  if (getIotaReshapeDims().empty())
    return llvm::to_vector(getDevices());
  ArrayRef<int64_t> dims = getIotaReshapeDims(), perm = getIotaTransposePerm();
  SmallVector<int64_t> strides(dims.size(), 1);
  for (int64_t d = (int64_t)dims.size() - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * dims[d + 1];
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  // Walk the transposed index space in row-major order.
  SmallVector<int64_t> index(dims.size(), 0), ids;
  ids.reserve(n);
  for (int64_t i = 0; i < n; ++i) {
    int64_t id = 0;
    for (size_t k = 0; k < perm.size(); ++k)
      id += index[k] * strides[perm[k]];
    ids.push_back(id);
    for (int64_t k = (int64_t)index.size() - 1; k >= 0; --k) {
      if (++index[k] < dims[perm[k]])
        break;
      index[k] = 0;
    }
  }
  return ids;
}

LogicalResult ShardingAttr::verifyForType(Type type,
                                          function_ref<InFlightDiagnostic()> emitError,
                                          StringRef what) const {
  if (isa<TokenType>(type))
    return success();
  if (auto tupleType = dyn_cast<TupleType>(type)) {
    SmallVector<Type> leaves;
    tupleType.getFlattenedTypes(leaves);
    if (getKind() != ShardingKind::tuple)
      return emitError() << what << " of a tuple with " << leaves.size()
                         << " leaves must be a tuple sharding (one element per leaf)";
    size_t n = getTupleElements().size();
    // An empty tuple may have one element (XLA's RequiredLeaves).
    if (leaves.empty() && n <= 1)
      return success();
    if (n != leaves.size())
      return emitError() << what << " has " << n << " tuple elements but the value has "
                         << leaves.size() << " leaves";
    for (auto [i, element, leaf] : llvm::enumerate(getTupleElements(), leaves)) {
      std::string elementWhat = (what + " element " + Twine(i)).str();
      if (failed(cast<ShardingAttr>(element).verifyForType(leaf, emitError, elementWhat)))
        return failure();
    }
    return success();
  }
  if (getKind() == ShardingKind::tuple)
    return emitError() << what << " is a tuple sharding but the value is not a tuple: " << type;
  if (getKind() != ShardingKind::tiled)
    return success();
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return emitError() << what << " tiles a value that is not an array: " << type;
  int64_t dataRank = (int64_t)getTileDims().size() - (int64_t)getLastTileDims().size();
  if (dataRank != tensor.getRank())
    return emitError() << what << " tiles " << dataRank << " array dimensions (devices = ["
                       << getTileDims() << "] with " << getLastTileDims().size()
                       << " last_tile_dims) but the value has rank " << tensor.getRank();
  int64_t count = 1;
  for (int64_t d : getTileDims())
    count *= d;
  if (count == 1)
    return emitError() << what << " tiles over a single device; write replicated or "
                                  "maximal device = N";
  return success();
}
