//===- ElementwiseOps.cpp - verifiers of the hlo dialect's elementwise ops ---===//
//
// Shapes and element types of the elementwise ops beyond what their ODS
// constraints check, following XLA's shape inference (InferUnaryOpShape,
// InferBitcastConvertShape, InferStochasticConvertShape, the HLO verifier's
// select/clamp/compare/iota checks).
//
//===----------------------------------------------------------------------===//

#include "VerifyUtils.h"

using namespace mlir;
using namespace rxla::hlo;

static Type elementTypeOf(Value v) { return tensorType(v).getElementType(); }

static bool isUnsignedInt(Type t) {
  auto i = dyn_cast<IntegerType>(t);
  return i && i.isUnsigned();
}

static bool compatibleShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  if (a.size() != b.size())
    return false;
  for (auto [x, y] : llvm::zip(a, b))
    if (!compatibleDim(x, y))
      return false;
  return true;
}

static bool isSignedInt(Type t) {
  auto i = dyn_cast<IntegerType>(t);
  return i && i.isSignless() && i.getWidth() > 1;
}

//===----------------------------------------------------------------------===//
// Unary ops whose result element type differs from the operand's
//===----------------------------------------------------------------------===//

// abs/real/imag: complex<fT> -> fT; a real type -> the same type.
static LogicalResult verifyRealResult(Operation *op, Value operand, Value result) {
  Type in = elementTypeOf(operand);
  Type out = elementTypeOf(result);
  Type expected = in;
  if (auto complex = dyn_cast<ComplexType>(in))
    expected = complex.getElementType();
  if (out != expected)
    return op->emitOpError() << "result element type must be " << expected
                             << " for an operand of element type " << in << ", but is "
                             << out;
  return success();
}

LogicalResult AbsOp::verify() {
  Type in = elementTypeOf(getOperand());
  if (isUnsignedInt(in))
    return emitOpError() << "operand must have a signed integer, floating-point or "
                            "complex element type, but has "
                         << in;
  return verifyRealResult(*this, getOperand(), getResult());
}

LogicalResult ImagOp::verify() { return verifyRealResult(*this, getOperand(), getResult()); }
LogicalResult RealOp::verify() { return verifyRealResult(*this, getOperand(), getResult()); }

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

LogicalResult BitcastConvertOp::verify() {
  RankedTensorType operandType = tensorType(getOperand());
  RankedTensorType resultType = getResult().getType();
  Type in = operandType.getElementType();
  Type out = resultType.getElementType();
  if (isa<ComplexType>(in) != isa<ComplexType>(out))
    return emitOpError() << "cannot bitcast between complex and real element types (" << in
                         << " to " << out << ")";
  int64_t inBits = elementBitWidth(in);
  int64_t outBits = elementBitWidth(out);
  if (std::max(inBits, outBits) % std::min(inBits, outBits) != 0)
    return emitOpError() << "cannot bitcast " << inBits << "-bit " << in << " elements to "
                         << outBits << "-bit " << out
                         << " elements: neither bit width divides the other";
  ArrayRef<int64_t> operandShape = operandType.getShape();
  SmallVector<int64_t> expected(operandShape);
  if (inBits > outBits) {
    // Each element becomes `ratio` narrower ones along a new minor dimension.
    expected.push_back(inBits / outBits);
  } else if (inBits < outBits) {
    // The minor dimension, of size `ratio`, is folded into the wider element.
    int64_t ratio = outBits / inBits;
    if (operandShape.empty() || !compatibleDim(operandShape.back(), ratio))
      return emitOpError() << "bitcast of " << inBits << "-bit " << in << " elements to "
                           << outBits << "-bit " << out
                           << " elements needs an operand whose last dimension is " << ratio
                           << ", but the operand shape is " << shapeString(operandShape);
    expected.pop_back();
  }
  return verifyShapeMatches(*this, resultType.getShape(), expected, "result");
}

LogicalResult StochasticConvertOp::verify() {
  Type in = elementTypeOf(getOperand());
  Type random = elementTypeOf(getRandom());
  if (!isUnsignedInt(random))
    return emitOpError() << "random must have an unsigned integer element type, but has "
                         << random;
  if (elementBitWidth(random) != elementBitWidth(in))
    return emitOpError() << "random must have the bit width of the operand's element type "
                         << in << " (" << elementBitWidth(in) << " bits), but has " << random;
  // The Elementwise trait already requires operand, random and result to
  // have the same shape.
  return success();
}

//===----------------------------------------------------------------------===//
// Binary and ternary ops with mixed types
//===----------------------------------------------------------------------===//

LogicalResult ComplexOp::verify() {
  Type real = elementTypeOf(getReal());
  Type imag = elementTypeOf(getImag());
  if (real != imag)
    return emitOpError() << "real and imag must have the same element type, but have " << real
                         << " and " << imag;
  Type out = elementTypeOf(getResult());
  Type expected = ComplexType::get(real);
  if (out != expected)
    return emitOpError() << "result element type must be " << expected << " for parts of type "
                         << real << ", but is " << out;
  return success();
}

LogicalResult CompareOp::verify() {
  std::optional<ComparisonType> compareType = getCompareType();
  if (!compareType)
    return success();
  Type element = elementTypeOf(getLhs());
  bool ok;
  StringRef allowed;
  if (isa<FloatType, ComplexType>(element)) {
    ok = *compareType == ComparisonType::FLOAT || *compareType == ComparisonType::TOTALORDER;
    allowed = "FLOAT or TOTALORDER";
  } else if (isSignedInt(element)) {
    ok = *compareType == ComparisonType::SIGNED;
    allowed = "SIGNED";
  } else {
    // Unsigned integers and pred.
    ok = *compareType == ComparisonType::UNSIGNED;
    allowed = "UNSIGNED";
  }
  if (!ok)
    return emitOpError() << "compare_type " << stringifyComparisonType(*compareType)
                         << " does not suit element type " << element << " (expected "
                         << allowed << ")";
  return success();
}

LogicalResult SelectOp::verify() {
  RankedTensorType predType = tensorType(getPred());
  RankedTensorType onTrue = tensorType(getOnTrue());
  RankedTensorType onFalse = tensorType(getOnFalse());
  if (onTrue != onFalse)
    return emitOpError() << "on_true and on_false must have the same type, but have "
                         << onTrue << " and " << onFalse;
  if (getResult().getType() != onTrue)
    return emitOpError() << "result type " << getResult().getType()
                         << " must be the type of on_true and on_false, " << onTrue;
  if (predType.getRank() != 0 && !compatibleShapes(predType.getShape(), onTrue.getShape()))
    return emitOpError() << "pred must have rank 0 or the shape of on_true "
                         << shapeString(onTrue.getShape()) << ", but has shape "
                         << shapeString(predType.getShape());
  return success();
}

LogicalResult ClampOp::verify() {
  RankedTensorType operandType = tensorType(getOperand());
  for (auto [name, value] : {std::pair<StringRef, Value>{"min", getMin()},
                             std::pair<StringRef, Value>{"max", getMax()}}) {
    RankedTensorType type = tensorType(value);
    if (type.getElementType() != operandType.getElementType())
      return emitOpError() << name << " must have the operand's element type "
                           << operandType.getElementType() << ", but has "
                           << type.getElementType();
    if (type.getRank() != 0 && !compatibleShapes(type.getShape(), operandType.getShape()))
      return emitOpError() << name << " must have rank 0 or the operand's shape "
                           << shapeString(operandType.getShape()) << ", but has shape "
                           << shapeString(type.getShape());
  }
  if (getResult().getType() != operandType)
    return emitOpError() << "result type " << getResult().getType()
                         << " must be the operand type " << operandType;
  return success();
}

//===----------------------------------------------------------------------===//
// Constants and iota
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::verify() {
  // ODS checks that the literal's type is the result type; a literal is
  // always fully static.
  auto type = dyn_cast<RankedTensorType>(getValue().getType());
  if (!type || !type.hasStaticShape())
    return emitOpError() << "value must be a statically shaped literal, but has type "
                         << getValue().getType();
  return success();
}

LogicalResult IotaOp::verify() {
  RankedTensorType type = getOutput().getType();
  if ((int64_t)getIotaDimension() >= type.getRank())
    return emitOpError() << "iota_dimension " << getIotaDimension()
                         << " is out of range for a result of rank " << type.getRank();
  return success();
}
