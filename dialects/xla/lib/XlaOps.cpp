//===- XlaOps.cpp - xla dialect operations --------------------------------===//
//
// Custom syntax of xla.apply_indexing and xla.loop (their operand lists are
// split by the indexing map), the verifiers, and the result and block
// argument names the printer uses.
//
//===----------------------------------------------------------------------===//

#include "rxla/Dialect/Xla/IR/XlaOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace rxla::xla;

#define GET_OP_CLASSES
#include "rxla/Dialect/Xla/IR/XlaOps.cpp.inc"

// Emits "expected N <what> for the indexing map, got M" at `loc` unless the
// counts agree.
static ParseResult checkCount(OpAsmParser &parser, llvm::SMLoc loc, size_t got,
                              unsigned expected, StringRef what) {
  if (got == expected)
    return success();
  return parser.emitError(loc) << "expected " << expected << " " << what
                               << " for the indexing map, got " << got;
}

// "f32, index" for diagnostics.
static std::string typeList(TypeRange types) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(types, os);
  return text;
}

// The terminator of `block`, or null when its last op is not one (op
// verifiers run before MLIR checks that blocks end with terminators).
static Operation *terminatorOf(Block *block) {
  if (block->empty() || !block->back().hasTrait<OpTrait::IsTerminator>())
    return nullptr;
  return &block->back();
}

static void printValues(OpAsmPrinter &p, ValueRange values) {
  llvm::interleaveComma(values, p, [&](Value v) { p.printOperand(v); });
}

// "expected R indices for a rank-R tensor, got N".
static LogicalResult verifyIndexCount(Operation *op, Type tensor, size_t numIndices) {
  int64_t rank = cast<RankedTensorType>(tensor).getRank();
  if (static_cast<int64_t>(numIndices) == rank)
    return success();
  return op->emitOpError() << "expected " << rank << " indices for a rank-"
                           << rank << " tensor, got " << numIndices;
}

//===----------------------------------------------------------------------===//
// ApplyIndexingOp
//===----------------------------------------------------------------------===//

ParseResult ApplyIndexingOp::parse(OpAsmParser &parser, OperationState &result) {
  llvm::SMLoc mapLoc = parser.getCurrentLocation();
  IndexingMapAttr map;
  if (parser.parseAttribute(map, getIndexingMapAttrAttrName(result.name),
                            result.attributes))
    return failure();
  // Counts are reported at the map: an omitted list has no location.
  SmallVector<OpAsmParser::UnresolvedOperand> dims, symbols;
  if (parser.parseOperandList(dims, OpAsmParser::Delimiter::OptionalParen) ||
      checkCount(parser, mapLoc, dims.size(), map.getNumDims(),
                 "dimension operands") ||
      parser.parseOperandList(symbols, OpAsmParser::Delimiter::OptionalSquare) ||
      checkCount(parser, mapLoc, symbols.size(), map.getNumSymbols(),
                 "symbol operands"))
    return failure();
  Type index = parser.getBuilder().getIndexType();
  if (parser.resolveOperands(dims, index, result.operands) ||
      parser.resolveOperands(symbols, index, result.operands) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  result.addTypes(SmallVector<Type>(map.getNumResults(), index));
  return success();
}

void ApplyIndexingOp::print(OpAsmPrinter &p) {
  IndexingMapAttr map = getIndexingMapAttr();
  p << ' ' << map;
  ValueRange operands = getOperands();
  size_t numDims = std::min<size_t>(map.getNumDims(), operands.size());
  if (numDims > 0) {
    p << '(';
    printValues(p, operands.take_front(numDims));
    p << ')';
  }
  if (operands.size() > numDims) {
    p << '[';
    printValues(p, operands.drop_front(numDims));
    p << ']';
  }
  p.printOptionalAttrDict((*this)->getAttrs(),
                          /*elidedAttrs=*/{getIndexingMapAttrAttrName()});
}

LogicalResult ApplyIndexingOp::verify() {
  IndexingMapAttr map = getIndexingMapAttr();
  if (map.isUndefined())
    return emitOpError("cannot apply an undefined indexing map");
  if (getNumOperands() != map.getNumDims() + map.getNumSymbols())
    return emitOpError() << "operand count " << getNumOperands()
                         << " does not match the sum of dimensions "
                         << map.getNumDims() << " and symbols "
                         << map.getNumSymbols() << " in the indexing map";
  if (getNumResults() != map.getNumResults())
    return emitOpError() << "result count " << getNumResults()
                         << " does not match the " << map.getNumResults()
                         << " results of the indexing map";
  if (map.getNumConstraints() > 0)
    return emitOpError("apply indexing op cannot have any constraints");
  return success();
}

//===----------------------------------------------------------------------===//
// LoopOp
//===----------------------------------------------------------------------===//

// Naming only the first result prints a result group, `%xla_loop:2`.
void LoopOp::getAsmResultNames(function_ref<void(Value, StringRef)> setNameFn) {
  if (getNumResults() > 0)
    setNameFn(getResult(0), "xla_loop");
}

void LoopOp::getAsmBlockArgumentNames(Region &region, OpAsmSetValueNameFn setNameFn) {
  if (region.empty())
    return;
  Block &body = region.front();
  IndexingMapAttr map = getIndexingMapAttr();
  unsigned numIvs = map.getNumRangeVars(), numMapResults = map.getNumResults();
  if (body.getNumArguments() != numIvs + numMapResults + getNumResults())
    return; // invalid; printed with default names
  // i, j, k, l, m, n, n_0, ... for induction variables; ra, rb, ..., rz, rz_0,
  // ... for map results; iter, iter_0, ... for loop-carried values.
  for (unsigned i = 0; i < numIvs; ++i)
    setNameFn(body.getArgument(i), std::string(1, static_cast<char>('i' + std::min(i, 5u))));
  for (unsigned i = 0; i < numMapResults; ++i)
    setNameFn(body.getArgument(numIvs + i),
              std::string("r") + static_cast<char>('a' + std::min(i, 25u)));
  for (unsigned i = numIvs + numMapResults; i < body.getNumArguments(); ++i)
    setNameFn(body.getArgument(i), "iter");
}

// (%dims)[%ivs] -> (%map_results) in #map iter_args(%iter = %init, ...) -> (types) {
//   body
// } attr-dict
ParseResult LoopOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  Type index = b.getIndexType();
  SmallVector<OpAsmParser::UnresolvedOperand> dims, inits;
  SmallVector<OpAsmParser::Argument> ivs, mapResults, iterArgs;
  llvm::SMLoc dimsLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(dims, OpAsmParser::Delimiter::Paren))
    return failure();
  llvm::SMLoc ivsLoc = parser.getCurrentLocation();
  if (parser.parseArgumentList(ivs, OpAsmParser::Delimiter::Square) ||
      parser.parseArrow())
    return failure();
  llvm::SMLoc resultsLoc = parser.getCurrentLocation();
  if (parser.parseArgumentList(mapResults, OpAsmParser::Delimiter::Paren))
    return failure();
  IndexingMapAttr map;
  if (parser.parseKeyword("in") ||
      parser.parseAttribute(map, getIndexingMapAttrAttrName(result.name),
                            result.attributes))
    return failure();
  if (checkCount(parser, dimsLoc, dims.size(), map.getNumDims(),
                 "dimension operands") ||
      checkCount(parser, ivsLoc, ivs.size(), map.getNumRangeVars(),
                 "induction variables (one per range variable)") ||
      checkCount(parser, resultsLoc, mapResults.size(), map.getNumResults(),
                 "map result variables (one per result)"))
    return failure();
  if (parser.resolveOperands(dims, index, result.operands))
    return failure();

  llvm::SMLoc initsLoc = parser.getCurrentLocation();
  if (parser.parseKeyword("iter_args") ||
      parser.parseAssignmentList(iterArgs, inits) ||
      parser.parseArrowTypeList(result.types))
    return failure();
  if (inits.size() != result.types.size())
    return parser.emitError(initsLoc)
           << inits.size() << " loop-carried values but " << result.types.size()
           << " result types";
  if (parser.resolveOperands(inits, result.types, initsLoc, result.operands))
    return failure();

  SmallVector<OpAsmParser::Argument> regionArgs;
  for (OpAsmParser::Argument &arg : ivs) {
    arg.type = index;
    regionArgs.push_back(arg);
  }
  for (OpAsmParser::Argument &arg : mapResults) {
    arg.type = index;
    regionArgs.push_back(arg);
  }
  for (auto [arg, type] : llvm::zip(iterArgs, result.types)) {
    arg.type = type;
    regionArgs.push_back(arg);
  }
  if (parser.parseRegion(*result.addRegion(), regionArgs) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  result.getOrAddProperties<Properties>().operandSegmentSizes = {
      static_cast<int32_t>(dims.size()), static_cast<int32_t>(inits.size())};
  return success();
}

void LoopOp::print(OpAsmPrinter &p) {
  Block *body = getBody();
  IndexingMapAttr map = getIndexingMapAttr();
  unsigned numIvs = map.getNumRangeVars(), numMapResults = map.getNumResults();
  ArrayRef<BlockArgument> args = body->getArguments();
  numIvs = std::min<size_t>(numIvs, args.size());
  numMapResults = std::min<size_t>(numMapResults, args.size() - numIvs);
  p << " (";
  printValues(p, getDims());
  p << ")[";
  printValues(p, ValueRange(args.take_front(numIvs)));
  p << "] -> (";
  printValues(p, ValueRange(args.slice(numIvs, numMapResults)));
  p << ") in " << map << " iter_args(";
  ArrayRef<BlockArgument> iterArgs = args.drop_front(numIvs + numMapResults);
  llvm::interleaveComma(llvm::zip(iterArgs, getInits()), p, [&](auto pair) {
    p.printOperand(std::get<0>(pair));
    p << " = ";
    p.printOperand(std::get<1>(pair));
  });
  p << ") -> (" << getInits().getTypes() << ") ";
  p.printRegion(getRegion(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
  p.printOptionalAttrDict((*this)->getAttrs(),
                          /*elidedAttrs=*/{getIndexingMapAttrAttrName(),
                                           getOperandSegmentSizesAttrName()});
}

LogicalResult LoopOp::verify() {
  IndexingMapAttr map = getIndexingMapAttr();
  if (map.isUndefined())
    return emitOpError("cannot iterate over an undefined indexing map");
  if (map.getNumRuntimeVars() > 0)
    return emitOpError() << "indexing map has " << map.getNumRuntimeVars()
                         << " runtime variables; a loop iterates over range "
                            "variables only";
  if (getInits().size() != getNumResults())
    return emitOpError() << "has " << getNumResults() << " results but "
                         << getInits().size() << " loop-carried values";
  if (getDims().size() != map.getNumDims())
    return emitOpError() << "has " << getDims().size()
                         << " dimension operands, the indexing map has "
                         << map.getNumDims() << " dimensions";
  Block *body = getBody();
  unsigned numIndexArgs = map.getNumRangeVars() + map.getNumResults();
  if (body->getNumArguments() != numIndexArgs + getNumResults())
    return emitOpError() << "body has " << body->getNumArguments()
                         << " arguments, expected " << map.getNumRangeVars()
                         << " induction variables + " << map.getNumResults()
                         << " map results + " << getNumResults()
                         << " loop-carried values";
  for (unsigned i = 0; i < numIndexArgs; ++i)
    if (!body->getArgument(i).getType().isIndex())
      return emitOpError() << "body argument #" << i
                           << " (an induction variable or map result) must be "
                              "index, got "
                           << body->getArgument(i).getType();
  for (auto [i, arg, init, resultType] :
       llvm::enumerate(getRegionIterArgs(), getInits(), getResultTypes())) {
    if (arg.getType() != resultType || init.getType() != resultType)
      return emitOpError() << "loop-carried value #" << i << ": init type "
                           << init.getType() << ", body argument type "
                           << arg.getType() << " and result type " << resultType
                           << " must match";
  }
  Operation *terminator = terminatorOf(body);
  if (!terminator || !isa<YieldOp>(terminator))
    return emitOpError("body must end with xla.yield");
  if (TypeRange(terminator->getOperandTypes()) != TypeRange(getResultTypes()))
    return emitOpError() << "body yields (" << typeList(terminator->getOperandTypes())
                         << "), expected the loop-carried types ("
                         << typeList(getResultTypes()) << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// PureCallOp
//===----------------------------------------------------------------------===//

void PureCallOp::getAsmResultNames(function_ref<void(Value, StringRef)> setNameFn) {
  if (getNumResults() > 0)
    setNameFn(getResult(0), "pure_call");
}

LogicalResult PureCallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee = symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "callee '" << getCallee()
                         << "' is not a func.func in this module";
  FunctionType type = callee.getFunctionType();
  if (TypeRange(getOperandTypes()) != TypeRange(type.getInputs()))
    return emitOpError() << "callee '" << getCallee() << "' takes ("
                         << typeList(type.getInputs()) << ") but is called with ("
                         << typeList(getOperandTypes()) << ")";
  if (TypeRange(getResultTypes()) != TypeRange(type.getResults()))
    return emitOpError() << "callee '" << getCallee() << "' returns ("
                         << typeList(type.getResults()) << ") but the call has results ("
                         << typeList(getResultTypes()) << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// Predicated and atomic accesses
//===----------------------------------------------------------------------===//

LogicalResult PredicatedInsertOp::verify() {
  return verifyIndexCount(*this, getDest().getType(), getIndices().size());
}

LogicalResult PredicatedExtractOp::verify() {
  return verifyIndexCount(*this, getSrc().getType(), getIndices().size());
}

void AtomicRMWOp::getAsmResultNames(function_ref<void(Value, StringRef)> setNameFn) {
  setNameFn(getResult(), "atomic_rmw");
}

LogicalResult AtomicRMWOp::verify() {
  if (failed(verifyIndexCount(*this, getInput().getType(), getIndices().size())))
    return failure();
  Block *body = getBody();
  if (body->getNumArguments() != 1)
    return emitOpError() << "region must have one argument (the current value), got "
                         << body->getNumArguments();
  Type argType = getCurrentValue().getType();
  Type elementType = getInput().getType().getElementType();
  if (auto vector = dyn_cast<VectorType>(argType)) {
    if (vector.getRank() != 1 || vector.isScalable())
      return emitOpError("expected a rank-1 vector type for the block argument");
    if (vector.getElementType() != elementType)
      return emitOpError("mismatch in the result element type and the block "
                         "argument vector element type");
  } else if (argType != elementType) {
    return emitOpError("mismatch in the result element type and the block argument type");
  }
  Operation *terminator = terminatorOf(body);
  if (!terminator || !isa<YieldOp>(terminator))
    return emitOpError("region must end with xla.yield");
  if (terminator->getNumOperands() != 1 ||
      terminator->getOperand(0).getType() != argType)
    return emitOpError("mismatch in the block argument type and the yielded type");
  return success();
}

//===----------------------------------------------------------------------===//
// WorkGroupIdOp
//===----------------------------------------------------------------------===//

void WorkGroupIdOp::getAsmResultNames(function_ref<void(Value, StringRef)> setNameFn) {
  setNameFn(getResult(), (Twine("workgroup_id_") + stringifyEnum(getDimension())).str());
}
