//===- ControlFlowOps.cpp - verifiers of the hlo dialect's controlflow ops ---===//
//
// Tuples, called computations (call, while, conditional, fusion,
// custom_call, async_start), asynchronous copies, random numbers and the
// host/peer communication ops, following XLA's HLO verifier
// (xla/service/hlo_verifier.cc).
//
//===----------------------------------------------------------------------===//

#include "VerifyUtils.h"

using namespace mlir;
using namespace rxla::hlo;

/// `types`, with a single tuple replaced by its elements: a computation with
/// several outputs returns them as several results or as one tuple.
static SmallVector<Type> flattenSingleTuple(TypeRange types) {
  if (types.size() == 1)
    if (auto tuple = dyn_cast<TupleType>(types[0]))
      return llvm::to_vector(tuple.getTypes());
  return llvm::to_vector(types);
}

/// True if `actual` results are `expected`, either exactly or once a single
/// tuple on either side is replaced by its elements.
static bool resultsMatch(TypeRange actual, TypeRange expected) {
  return actual == expected ||
         TypeRange(flattenSingleTuple(actual)) == TypeRange(flattenSingleTuple(expected));
}

static void printTypes(InFlightDiagnostic &diag, TypeRange types) {
  diag << "(";
  llvm::interleaveComma(types, diag);
  diag << ")";
}

/// Like verifyComputationSignature, but the callee may return the expected
/// results exactly, as their elements (when `results` is one tuple), or as
/// one tuple of them.
static LogicalResult verifyCallee(Operation *op, SymbolTableCollection &symbolTable,
                                  FlatSymbolRefAttr callee, StringRef role, TypeRange inputs,
                                  TypeRange results) {
  auto func = lookupComputation(op, symbolTable, callee, role);
  if (failed(func))
    return failure();
  FunctionType type = func->getFunctionType();
  if (TypeRange(type.getInputs()) != inputs) {
    auto diag = op->emitOpError() << role << " computation '" << callee.getValue()
                                  << "' must take ";
    printTypes(diag, inputs);
    diag << " but takes ";
    printTypes(diag, type.getInputs());
    return diag;
  }
  if (!resultsMatch(type.getResults(), results)) {
    auto diag = op->emitOpError() << role << " computation '" << callee.getValue()
                                  << "' must return ";
    printTypes(diag, results);
    diag << " but returns ";
    printTypes(diag, type.getResults());
    return diag;
  }
  return success();
}

static RankedTensorType u32Scalar(MLIRContext *ctx) {
  return RankedTensorType::get({}, IntegerType::get(ctx, 32, IntegerType::Unsigned));
}

/// True for an array, or for a tuple of arrays (no nested tuples or tokens).
static bool isArrayOrFlatTupleOfArrays(Type type) {
  if (isa<RankedTensorType>(type))
    return true;
  auto tuple = dyn_cast<TupleType>(type);
  return tuple && llvm::all_of(tuple.getTypes(), llvm::IsaPred<RankedTensorType>);
}

//===----------------------------------------------------------------------===//
// Tuples
//===----------------------------------------------------------------------===//

LogicalResult TupleOp::verify() {
  auto expected = TupleType::get(getContext(), getElements().getTypes());
  if (getResult().getType() != expected)
    return emitOpError() << "result type " << getResult().getType()
                         << " must be the tuple of the operand types, " << expected;
  return success();
}

LogicalResult GetTupleElementOp::verify() {
  auto tuple = cast<TupleType>(getOperand().getType());
  if (getIndex() >= tuple.size())
    return emitOpError() << "index " << getIndex() << " is out of range for a tuple of "
                         << tuple.size() << " elements";
  Type element = tuple.getType(getIndex());
  if (getResult().getType() != element)
    return emitOpError() << "result type " << getResult().getType() << " must be the type of "
                         << "tuple element " << getIndex() << ", " << element;
  return success();
}

//===----------------------------------------------------------------------===//
// Called computations
//===----------------------------------------------------------------------===//

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyCallee(*this, symbolTable, getToApplyAttr(), "to_apply",
                      getOperands().getTypes(), getResultTypes());
}

LogicalResult WhileOp::verify() {
  if (getResult().getType() != getInit().getType())
    return emitOpError() << "result type " << getResult().getType()
                         << " must be the type of init, " << getInit().getType();
  return success();
}

LogicalResult WhileOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  Type state = getInit().getType();
  Type pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (failed(verifyCallee(*this, symbolTable, getConditionAttr(), "condition", state, pred)))
    return failure();
  return verifyCallee(*this, symbolTable, getBodyAttr(), "body", state, state);
}

LogicalResult ConditionalOp::verify() {
  RankedTensorType indexType = getBranchIndex().getType();
  if (indexType.getRank() != 0)
    return emitOpError() << "branch_index must have rank 0, but has type " << indexType;
  ArrayAttr branches = getBranchComputations();
  for (auto [i, branch] : llvm::enumerate(branches))
    if (!isa<FlatSymbolRefAttr>(branch))
      return emitOpError() << "branch_computations entry #" << i
                           << " must be a flat symbol reference, but is " << branch;
  if (indexType.getElementType().isInteger(1)) {
    if (branches.size() != 2)
      return emitOpError() << "a pred branch_index needs exactly 2 branch_computations "
                              "(true, false), but there are "
                           << branches.size();
  } else if (branches.empty()) {
    return emitOpError() << "an i32 branch_index needs at least one branch computation";
  }
  if (getBranchOperands().size() != branches.size())
    return emitOpError() << "has " << branches.size() << " branch_computations but "
                         << getBranchOperands().size()
                         << " branch operands (one operand per branch)";
  return success();
}

LogicalResult ConditionalOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  ArrayAttr branches = getBranchComputations();
  OperandRange operands = getBranchOperands();
  if (branches.size() != operands.size())
    return failure(); // Reported by verify().
  for (auto [i, branch, operand] : llvm::enumerate(branches, operands)) {
    auto callee = dyn_cast<FlatSymbolRefAttr>(branch);
    if (!callee)
      return failure(); // Reported by verify().
    std::string role = "branch_computations[" + std::to_string(i) + "]";
    if (failed(verifyCallee(*this, symbolTable, callee, role, operand.getType(),
                            getResultTypes())))
      return failure();
  }
  return success();
}

LogicalResult FusionOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyCallee(*this, symbolTable, getCallsAttr(), "calls", getOperands().getTypes(),
                      getResultTypes());
}

LogicalResult CustomCallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  std::optional<ArrayAttr> called = getCalledComputations();
  if (!called)
    return success();
  for (Attribute attr : *called)
    if (failed(lookupComputation(*this, symbolTable, cast<FlatSymbolRefAttr>(attr),
                                 "called_computations")))
      return failure();
  return success();
}

LogicalResult AddDependencyOp::verify() {
  if (getResult().getType() != getOperand().getType())
    return emitOpError() << "result type " << getResult().getType()
                         << " must be the operand type " << getOperand().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Async wrappers and copies
//===----------------------------------------------------------------------===//

/// An async context is ((operands...), result, state...).
static LogicalResult verifyAsyncContext(Operation *op, TupleType context, StringRef what) {
  if (context.size() < 2)
    return op->emitOpError() << what
                             << " must be an async context tuple ((operands...), result, "
                                "state...) of at least 2 elements, but is "
                             << context;
  if (!isa<TupleType>(context.getType(0)))
    return op->emitOpError() << what
                             << " element 0 must be the tuple of the async operands, but is "
                             << context.getType(0);
  return success();
}

LogicalResult AsyncStartOp::verify() {
  auto context = cast<TupleType>(getResult().getType());
  if (failed(verifyAsyncContext(*this, context, "result")))
    return failure();
  auto operands = TupleType::get(getContext(), getOperands().getTypes());
  if (context.getType(0) != operands)
    return emitOpError() << "result element 0 must be the tuple of the operand types, "
                         << operands << ", but is " << context.getType(0);
  return success();
}

LogicalResult AsyncStartOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto context = cast<TupleType>(getResult().getType());
  if (context.size() < 2)
    return failure(); // Reported by verify().
  return verifyCallee(*this, symbolTable, getCallsAttr(), "calls", getOperands().getTypes(),
                      context.getType(1));
}

LogicalResult AsyncUpdateOp::verify() {
  return verifyAsyncContext(*this, cast<TupleType>(getBundle().getType()), "operand");
}

LogicalResult AsyncDoneOp::verify() {
  auto context = cast<TupleType>(getBundle().getType());
  if (failed(verifyAsyncContext(*this, context, "operand")))
    return failure();
  Type result = context.getType(1);
  if (!resultsMatch(getResultTypes(), result)) {
    auto diag = emitOpError() << "results ";
    printTypes(diag, getResultTypes());
    return diag << " must be the async result (element 1 of the context), " << result;
  }
  return success();
}

LogicalResult CopyStartOp::verify() {
  Type operand = getOperand().getType();
  auto expected = TupleType::get(getContext(), {operand, operand, u32Scalar(getContext())});
  if (getResult().getType() != expected)
    return emitOpError() << "result type " << getResult().getType()
                         << " must be (destination, source, context) " << expected;
  return success();
}

LogicalResult CopyDoneOp::verify() {
  auto context = cast<TupleType>(getOperand().getType());
  if (context.size() < 2)
    return emitOpError() << "operand must be a copy_start context (destination, source, "
                            "context), but is "
                         << context;
  if (context.getType(0) != context.getType(1))
    return emitOpError() << "destination " << context.getType(0) << " and source "
                         << context.getType(1) << " of the copy must have the same type";
  if (getResult().getType() != context.getType(0))
    return emitOpError() << "result type " << getResult().getType()
                         << " must be the destination type " << context.getType(0);
  return success();
}

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

LogicalResult RngOp::verify() {
  RankedTensorType resultType = getResult().getType();
  Type element = resultType.getElementType();
  for (auto [name, value] : {std::pair<StringRef, Value>{"a", getA()},
                             std::pair<StringRef, Value>{"b", getB()}}) {
    RankedTensorType type = tensorType(value);
    if (type.getRank() != 0)
      return emitOpError() << name << " must have rank 0, but has type " << type;
    if (type.getElementType() != element)
      return emitOpError() << name << " element type " << type.getElementType()
                           << " must be the result element type " << element;
  }
  if (getDistribution() == RngDistribution::rng_normal && !isa<FloatType>(element))
    return emitOpError() << "rng_normal needs a floating-point element type, but has "
                         << element;
  if (getDistribution() == RngDistribution::rng_uniform && isa<ComplexType>(element))
    return emitOpError() << "rng_uniform needs a pred, integer or floating-point element "
                            "type, but has "
                         << element;
  return success();
}

LogicalResult RngBitGeneratorOp::verify() {
  RankedTensorType state = getInitialState().getType();
  if (state.getRank() != 1)
    return emitOpError() << "initial_state must be a 1-D array, but has type " << state;
  if (getOutputState().getType() != state)
    return emitOpError() << "output_state type " << getOutputState().getType()
                         << " must be the initial_state type " << state;
  int64_t size = state.getDimSize(0);
  if (ShapedType::isDynamic(size))
    return success();
  switch (getAlgorithm()) {
  case RngAlgorithm::rng_three_fry:
    if (size != 2)
      return emitOpError() << "rng_three_fry needs an initial_state of 2 elements, but it has "
                           << size;
    break;
  case RngAlgorithm::rng_philox:
    if (size != 2 && size != 3)
      return emitOpError() << "rng_philox needs an initial_state of 2 or 3 elements, but it has "
                           << size;
    break;
  case RngAlgorithm::rng_default:
    break;
  }
  return success();
}

LogicalResult RngGetAndUpdateStateOp::verify() {
  RankedTensorType type = getState().getType();
  if (type.getShape() != ArrayRef<int64_t>{2})
    return emitOpError() << "result must have shape [2], but has type " << type;
  return success();
}

//===----------------------------------------------------------------------===//
// Host and peer communication
//===----------------------------------------------------------------------===//

LogicalResult SendOp::verify() {
  MLIRContext *ctx = getContext();
  auto expected = TupleType::get(
      ctx, {getOperand().getType(), u32Scalar(ctx), TokenType::get(ctx)});
  if (getResult().getType() != expected)
    return emitOpError() << "result type " << getResult().getType()
                         << " must be (data, context, token) " << expected;
  return success();
}

/// A recv context is (data, u32[] context, token) with data an array or tuple.
static LogicalResult verifyRecvContext(Operation *op, TupleType context, StringRef what) {
  MLIRContext *ctx = op->getContext();
  if (context.size() != 3 || isa<TokenType>(context.getType(0)) ||
      context.getType(1) != u32Scalar(ctx) || !isa<TokenType>(context.getType(2)))
    return op->emitOpError() << what
                             << " must be a tuple (data, tensor<ui32>, !hlo.token), but is "
                             << context;
  return success();
}

LogicalResult RecvOp::verify() {
  return verifyRecvContext(*this, cast<TupleType>(getResult().getType()), "result");
}

LogicalResult RecvDoneOp::verify() {
  auto context = cast<TupleType>(getOperand().getType());
  if (failed(verifyRecvContext(*this, context, "operand")))
    return failure();
  auto expected = TupleType::get(getContext(), {context.getType(0), TokenType::get(getContext())});
  if (getResult().getType() != expected)
    return emitOpError() << "result type " << getResult().getType()
                         << " must be (data, token) " << expected;
  return success();
}

LogicalResult InfeedOp::verify() {
  auto result = cast<TupleType>(getResult().getType());
  if (result.size() != 2 || !isa<TokenType>(result.getType(1)))
    return emitOpError() << "result must be a tuple (data, !hlo.token), but is " << result;
  if (!isArrayOrFlatTupleOfArrays(result.getType(0)))
    return emitOpError() << "data must be an array or a tuple of arrays (no nested tuples or "
                            "tokens), but is "
                         << result.getType(0);
  return success();
}
