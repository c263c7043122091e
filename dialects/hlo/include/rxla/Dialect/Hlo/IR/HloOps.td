//===- HloOps.td - the hlo dialect operations ----------------*- tablegen -*-===//
//
// One op per XLA HLO opcode (xla/hlo/ir/hlo_opcode.h), named after the
// opcode with `-` replaced by `_` (`get-tuple-element` -> hlo.get_tuple_element).
// Attributes keep the names of XLA's HLO text keywords. Called computations
// are FlatSymbolRefAttrs naming `func.func`s in the enclosing module.
//
// Exception: `parameter` is not an op. A computation's parameters are the
// block arguments of its `func.func` (parameter N is argument N), which is
// what lets MLIR's call graph, inliner and verifiers see them.
//
//===----------------------------------------------------------------------===//

#ifndef RXLA_DIALECT_HLO_IR_HLOOPS_TD
#define RXLA_DIALECT_HLO_IR_HLOOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "rxla/Dialect/Hlo/IR/HloBase.td"
include "rxla/Dialect/Hlo/IR/HloTypes.td"
include "rxla/Dialect/Hlo/IR/HloEnums.td"
include "rxla/Dialect/Hlo/IR/HloAttrs.td"

class Hlo_Op<string mnemonic, list<Trait> traits = []>
    : Op<Hlo_Dialect, mnemonic, traits> {
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

// Ops that call computations by symbol verify the callee's signature.
class Hlo_CallerOp<string mnemonic, list<Trait> traits = []>
    : Hlo_Op<mnemonic, !listconcat(traits,
                                   [DeclareOpInterfaceMethods<SymbolUserOpInterface>])>;

// Side-effecting ops: never removed when dead, never merged by CSE.
defvar Hlo_SideEffect = MemoryEffects<[MemRead, MemWrite]>;

def Hlo_ResultAccuracy : OptionalAttr<Hlo_ResultAccuracyAttr>;

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//===----------------------------------------------------------------------===//

class Hlo_UnaryOp<string mnemonic, Type type, string desc, list<Trait> traits = []>
    : Hlo_Op<mnemonic, !listconcat(traits,
                                   [Pure, Elementwise, SameOperandsAndResultType])> {
  let summary = desc;
  let arguments = (ins type:$operand);
  let results = (outs type:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

// Transcendental ops accept XLA's optional result_accuracy.
class Hlo_TranscendentalOp<string mnemonic, string desc>
    : Hlo_Op<mnemonic, [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = desc;
  let arguments = (ins Hlo_FpOrComplexTensor:$operand, Hlo_ResultAccuracy:$result_accuracy);
  let results = (outs Hlo_FpOrComplexTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

def Hlo_AbsOp : Hlo_Op<"abs", [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "absolute value (the real modulus for complex numbers)";
  let arguments = (ins Hlo_NumericTensor:$operand);
  let results = (outs Hlo_NumericTensor:$result);
  let hasVerifier = 1;
}
def Hlo_AcosOp : Hlo_TranscendentalOp<"acos", "arc cosine">;
def Hlo_AcoshOp : Hlo_TranscendentalOp<"acosh", "inverse hyperbolic cosine">;
def Hlo_AsinOp : Hlo_TranscendentalOp<"asin", "arc sine">;
def Hlo_AsinhOp : Hlo_TranscendentalOp<"asinh", "inverse hyperbolic sine">;
def Hlo_AtanOp : Hlo_TranscendentalOp<"atan", "arc tangent">;
def Hlo_AtanhOp : Hlo_TranscendentalOp<"atanh", "inverse hyperbolic tangent">;
def Hlo_CbrtOp : Hlo_TranscendentalOp<"cbrt", "cube root">;
def Hlo_CeilOp : Hlo_UnaryOp<"ceil", Hlo_FloatTensor, "round toward +infinity">;
def Hlo_ClzOp : Hlo_UnaryOp<"count_leading_zeros", Hlo_IntTensor, "count leading zero bits">;
def Hlo_CosineOp : Hlo_TranscendentalOp<"cosine", "cosine">;
def Hlo_CoshOp : Hlo_TranscendentalOp<"cosh", "hyperbolic cosine">;
def Hlo_ErfOp : Hlo_TranscendentalOp<"erf", "error function">;
def Hlo_ExpOp : Hlo_TranscendentalOp<"exponential", "e^x">;
def Hlo_Expm1Op : Hlo_TranscendentalOp<"exponential_minus_one", "e^x - 1, accurate near 0">;
def Hlo_FloorOp : Hlo_UnaryOp<"floor", Hlo_FloatTensor, "round toward -infinity">;
def Hlo_ImagOp : Hlo_Op<"imag", [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "imaginary part (0 for a real operand)";
  let arguments = (ins Hlo_FpOrComplexTensor:$operand);
  let results = (outs Hlo_FloatTensor:$result);
  let hasVerifier = 1;
}
def Hlo_IsFiniteOp : Hlo_Op<"is_finite", [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "true where the element is neither infinite nor NaN";
  let arguments = (ins Hlo_FloatTensor:$operand);
  let results = (outs Hlo_PredTensor:$result);
}
def Hlo_LogOp : Hlo_TranscendentalOp<"log", "natural logarithm">;
def Hlo_Log1pOp : Hlo_TranscendentalOp<"log_plus_one", "ln(1 + x), accurate near 0">;
def Hlo_LogisticOp : Hlo_TranscendentalOp<"logistic", "1 / (1 + e^-x)">;
def Hlo_NegOp : Hlo_UnaryOp<"negate", Hlo_NumericTensor, "negation">;
def Hlo_NotOp : Hlo_UnaryOp<"not", Hlo_PredOrIntTensor, "logical (pred) or bitwise (integer) not">;
def Hlo_PopcntOp : Hlo_UnaryOp<"popcnt", Hlo_IntTensor, "count set bits">;
def Hlo_RealOp : Hlo_Op<"real", [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "real part (the value itself for a real operand)";
  let arguments = (ins Hlo_FpOrComplexTensor:$operand);
  let results = (outs Hlo_FloatTensor:$result);
  let hasVerifier = 1;
}
def Hlo_RoundNearestAfzOp : Hlo_UnaryOp<"round_nearest_afz", Hlo_FloatTensor,
    "round to nearest, ties away from zero">;
def Hlo_RoundNearestEvenOp : Hlo_UnaryOp<"round_nearest_even", Hlo_FloatTensor,
    "round to nearest, ties to even">;
def Hlo_RsqrtOp : Hlo_TranscendentalOp<"rsqrt", "1 / sqrt(x)">;
// XLA rejects unsigned operands of sign (InferUnaryOpShape: signed or complex).
def Hlo_SignOp : Hlo_UnaryOp<"sign", RankedTensorOf<[Hlo_SInt, Hlo_Float, Hlo_Complex]>,
    "sign: -1, 0 or 1 (NaN stays NaN)">;
def Hlo_SineOp : Hlo_TranscendentalOp<"sine", "sine">;
def Hlo_SinhOp : Hlo_TranscendentalOp<"sinh", "hyperbolic sine">;
def Hlo_SqrtOp : Hlo_TranscendentalOp<"sqrt", "square root">;
def Hlo_TanOp : Hlo_TranscendentalOp<"tan", "tangent">;
def Hlo_TanhOp : Hlo_TranscendentalOp<"tanh", "hyperbolic tangent">;

def Hlo_CopyOp : Hlo_Op<"copy", [Pure, SameOperandsAndResultType]> {
  let summary = "copy of an array or tuple (may change the layout)";
  let arguments = (ins Hlo_TensorOrTuple:$operand);
  let results = (outs Hlo_TensorOrTuple:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

def Hlo_ConvertOp : Hlo_Op<"convert", [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "element type conversion (ConvertElementType)";
  let arguments = (ins Hlo_Tensor:$operand);
  let results = (outs Hlo_Tensor:$result);
}

def Hlo_BitcastConvertOp : Hlo_Op<"bitcast_convert", [Pure]> {
  let summary = "reinterpret the bits of each element as another element type";
  let description = [{
    Between types of equal width the shape is kept. Converting to a narrower
    type appends a minor dimension of size (in width / out width); converting
    to a wider type drops a minor dimension of size (out width / in width).
  }];
  let arguments = (ins Hlo_Tensor:$operand);
  let results = (outs Hlo_Tensor:$result);
  let hasVerifier = 1;
}

def Hlo_ReducePrecisionOp : Hlo_Op<"reduce_precision",
    [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "round to a float format with fewer exponent/mantissa bits";
  let arguments = (ins Hlo_FloatTensor:$operand,
                       ConfinedAttr<I32Attr, [IntMinValue<1>]>:$exponent_bits,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$mantissa_bits);
  let results = (outs Hlo_FloatTensor:$result);
  let assemblyFormat = "$operand `,` `exponent_bits` `=` $exponent_bits `,` "
                       "`mantissa_bits` `=` $mantissa_bits attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Elementwise binary and ternary ops
//===----------------------------------------------------------------------===//

class Hlo_BinaryOp<string mnemonic, Type type, string desc, list<Trait> traits = []>
    : Hlo_Op<mnemonic, !listconcat(traits,
                                   [Pure, Elementwise, SameOperandsAndResultType])> {
  let summary = desc;
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def Hlo_AddOp : Hlo_BinaryOp<"add", Hlo_Tensor, "addition (logical or for pred)", [Commutative]>;
def Hlo_SubtractOp : Hlo_BinaryOp<"subtract", Hlo_NumericTensor, "subtraction">;
def Hlo_MultiplyOp : Hlo_BinaryOp<"multiply", Hlo_Tensor, "multiplication (logical and for pred)", [Commutative]>;
def Hlo_DivideOp : Hlo_BinaryOp<"divide", Hlo_NumericTensor, "division (integer division truncates)">;
def Hlo_RemainderOp : Hlo_BinaryOp<"remainder", Hlo_NumericTensor, "remainder with the sign of the dividend">;
def Hlo_MaximumOp : Hlo_BinaryOp<"maximum", Hlo_Tensor, "maximum (NaN propagates)", [Commutative]>;
def Hlo_MinimumOp : Hlo_BinaryOp<"minimum", Hlo_Tensor, "minimum (NaN propagates)", [Commutative]>;
def Hlo_PowerOp : Hlo_BinaryOp<"power", Hlo_NumericTensor, "lhs raised to the power rhs">;
def Hlo_Atan2Op : Hlo_BinaryOp<"atan2", Hlo_FpOrComplexTensor, "two-argument arc tangent atan(lhs/rhs)">;
def Hlo_AndOp : Hlo_BinaryOp<"and", Hlo_PredOrIntTensor, "logical or bitwise and", [Commutative]>;
def Hlo_OrOp : Hlo_BinaryOp<"or", Hlo_PredOrIntTensor, "logical or bitwise or", [Commutative]>;
def Hlo_XorOp : Hlo_BinaryOp<"xor", Hlo_PredOrIntTensor, "logical or bitwise exclusive or", [Commutative]>;
def Hlo_ShiftLeftOp : Hlo_BinaryOp<"shift_left", Hlo_IntTensor, "shift left (0 when the shift is >= the bit width)">;
def Hlo_ShiftRightArithmeticOp : Hlo_BinaryOp<"shift_right_arithmetic", Hlo_IntTensor, "arithmetic shift right">;
def Hlo_ShiftRightLogicalOp : Hlo_BinaryOp<"shift_right_logical", Hlo_IntTensor, "logical shift right">;
def Hlo_MulhiOp : Hlo_BinaryOp<"mulhi", Hlo_IntTensor, "high half of the double-width integer product", [Commutative]>;

def Hlo_ComplexOp : Hlo_Op<"complex", [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "complex number from real and imaginary parts";
  let arguments = (ins RankedTensorOf<[F32, F64]>:$real, RankedTensorOf<[F32, F64]>:$imag);
  let results = (outs Hlo_ComplexTensor:$result);
  let hasVerifier = 1;
}

def Hlo_CompareOp : Hlo_Op<"compare",
    [Pure, Elementwise, SameOperandsAndResultShape, SameTypeOperands]> {
  let summary = "elementwise comparison with a direction and a comparison type";
  let description = [{
    `compare_type` defaults to FLOAT for floating point, SIGNED for signed and
    UNSIGNED for unsigned integers and pred; TOTALORDER orders floats as
    -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN.
  }];
  let arguments = (ins Hlo_Tensor:$lhs, Hlo_Tensor:$rhs,
                       Hlo_ComparisonDirectionAttr:$comparison_direction,
                       OptionalAttr<Hlo_ComparisonTypeAttr>:$compare_type);
  let results = (outs Hlo_PredTensor:$result);
  let assemblyFormat = "custom<EnumCase>($comparison_direction) `,` $lhs `,` $rhs (`,` custom<EnumCase>($compare_type)^)? "
                       "attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Hlo_SelectOp : Hlo_Op<"select", [Pure]> {
  let summary = "pick on_true or on_false per element (a scalar pred picks whole arrays)";
  let arguments = (ins Hlo_PredTensor:$pred, Hlo_Tensor:$on_true, Hlo_Tensor:$on_false);
  let results = (outs Hlo_Tensor:$result);
  let hasVerifier = 1;
}

def Hlo_ClampOp : Hlo_Op<"clamp", [Pure]> {
  let summary = "min(max(operand, min), max); min and max may be scalars";
  let arguments = (ins Hlo_Tensor:$min, Hlo_Tensor:$operand, Hlo_Tensor:$max);
  let results = (outs Hlo_Tensor:$result);
  let hasVerifier = 1;
}

def Hlo_StochasticConvertOp : Hlo_Op<"stochastic_convert", [Pure, Elementwise]> {
  let summary = "float to narrower type conversion with stochastic rounding";
  let arguments = (ins Hlo_FloatTensor:$operand, Hlo_IntTensor:$random);
  let results = (outs Hlo_Tensor:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Constants and index generation
//===----------------------------------------------------------------------===//

def Hlo_ConstantOp : Hlo_Op<"constant",
    [ConstantLike, Pure, AllTypesMatch<["value", "output"]>]> {
  let summary = "literal array";
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Hlo_Tensor:$output);
  let assemblyFormat = "attr-dict $value";
  let hasVerifier = 1;
}

def Hlo_IotaOp : Hlo_Op<"iota", [Pure]> {
  let summary = "0, 1, 2, ... along iota_dimension, broadcast along the others";
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$iota_dimension);
  let results = (outs Hlo_NumericTensor:$output);
  let assemblyFormat = "`dim` `=` $iota_dimension attr-dict `:` type($output)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape and data movement
//===----------------------------------------------------------------------===//

def Hlo_BroadcastOp : Hlo_Op<"broadcast", [Pure]> {
  let summary = "BroadcastInDim: operand dimension i becomes result dimension dimensions[i]";
  let arguments = (ins Hlo_Tensor:$operand, DenseI64ArrayAttr:$dimensions);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "$operand `,` `dims` `=` $dimensions attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Hlo_ReshapeOp : Hlo_Op<"reshape", [Pure]> {
  let summary = "same elements in row-major order, new dimensions";
  let arguments = (ins Hlo_Tensor:$operand);
  let results = (outs Hlo_Tensor:$result);
  let hasVerifier = 1;
}

def Hlo_DynamicReshapeOp : Hlo_Op<"dynamic_reshape", [Pure]> {
  let summary = "reshape to runtime dimension sizes (bounded by the static result shape)";
  let arguments = (ins Hlo_Tensor:$operand, Variadic<Hlo_ScalarIntTensor>:$dim_sizes);
  let results = (outs Hlo_Tensor:$result);
  let hasVerifier = 1;
}

def Hlo_BitcastOp : Hlo_Op<"bitcast", [Pure]> {
  let summary = "reinterpret the operand's buffer with another shape/layout (same byte size)";
  let arguments = (ins Hlo_Tensor:$operand);
  let results = (outs Hlo_Tensor:$result);
  let hasVerifier = 1;
}

def Hlo_TransposeOp : Hlo_Op<"transpose", [Pure]> {
  let summary = "permute dimensions: result dim i is operand dim permutation[i]";
  let arguments = (ins Hlo_Tensor:$operand, DenseI64ArrayAttr:$dimensions);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "$operand `,` `dims` `=` $dimensions attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Hlo_ReverseOp : Hlo_Op<"reverse", [Pure, SameOperandsAndResultType]> {
  let summary = "reverse the order of elements along the given dimensions";
  let arguments = (ins Hlo_Tensor:$operand, DenseI64ArrayAttr:$dimensions);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "$operand `,` `dims` `=` $dimensions attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Hlo_SliceOp : Hlo_Op<"slice", [Pure]> {
  let summary = "static strided slice [start, limit) with stride";
  let arguments = (ins Hlo_Tensor:$operand, DenseI64ArrayAttr:$start_indices,
                       DenseI64ArrayAttr:$limit_indices, DenseI64ArrayAttr:$strides);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "$operand `,` `start` `=` $start_indices `,` `limit` `=` $limit_indices "
                       "`,` `strides` `=` $strides attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Hlo_DynamicSliceOp : Hlo_Op<"dynamic_slice", [Pure]> {
  let summary = "slice of slice_sizes at runtime start indices (clamped into bounds)";
  let arguments = (ins Hlo_Tensor:$operand, Variadic<Hlo_ScalarIntTensor>:$start_indices,
                       DenseI64ArrayAttr:$slice_sizes);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "$operand `[` $start_indices `]` `,` `sizes` `=` $slice_sizes attr-dict "
                       "`:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Hlo_DynamicUpdateSliceOp : Hlo_Op<"dynamic_update_slice", [Pure]> {
  let summary = "operand with update written at runtime start indices (clamped)";
  let arguments = (ins Hlo_Tensor:$operand, Hlo_Tensor:$update,
                       Variadic<Hlo_ScalarIntTensor>:$start_indices);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "$operand `,` $update `[` $start_indices `]` attr-dict "
                       "`:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Hlo_ConcatenateOp : Hlo_Op<"concatenate", [Pure]> {
  let summary = "join arrays along one dimension (ConcatInDim)";
  let arguments = (ins Variadic<Hlo_Tensor>:$inputs, ConfinedAttr<I64Attr, [IntNonNegative]>:$dimension);
  let results = (outs Hlo_Tensor:$result);
  // Parenthesized: a bare variadic list followed by `, dim` cannot be parsed.
  let assemblyFormat = "`(` $inputs `)` `,` `dim` `=` $dimension attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Hlo_PadOp : Hlo_Op<"pad", [Pure]> {
  let summary = "edge (possibly negative) and interior padding with a scalar value";
  let arguments = (ins Hlo_Tensor:$operand, Hlo_Tensor:$padding_value,
                       DenseI64ArrayAttr:$edge_padding_low,
                       DenseI64ArrayAttr:$edge_padding_high,
                       DenseI64ArrayAttr:$interior_padding);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "$operand `,` $padding_value `,` `low` `=` $edge_padding_low `,` "
                       "`high` `=` $edge_padding_high `,` `interior` `=` $interior_padding "
                       "attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Hlo_GatherOp : Hlo_Op<"gather", [Pure]> {
  let summary = "gather slices of operand at start indices";
  let arguments = (ins Hlo_Tensor:$operand, Hlo_IntTensor:$start_indices,
                       Hlo_GatherDimensionNumbersAttr:$dimension_numbers,
                       DenseI64ArrayAttr:$slice_sizes,
                       DefaultValuedAttr<BoolAttr, "false">:$indices_are_sorted);
  let results = (outs Hlo_Tensor:$result);
  let hasVerifier = 1;
}

def Hlo_ScatterOp : Hlo_CallerOp<"scatter", []> {
  let summary = "combine updates into operands at scatter indices with to_apply";
  let description = [{
    Operands are `inputs..., scatter_indices, updates...` as in HLO text: N
    inputs, one index array, N updates. to_apply takes 2N scalars (current
    values, then update values) and returns N scalars (a tuple if N > 1).
  }];
  let arguments = (ins Variadic<Hlo_Tensor>:$operands,
                       Hlo_ScatterDimensionNumbersAttr:$dimension_numbers,
                       FlatSymbolRefAttr:$to_apply,
                       DefaultValuedAttr<BoolAttr, "false">:$indices_are_sorted,
                       DefaultValuedAttr<BoolAttr, "false">:$unique_indices);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let hasVerifier = 1;
}

def Hlo_GetDimensionSizeOp : Hlo_Op<"get_dimension_size", [Pure]> {
  let summary = "runtime size of one dimension, as s32";
  let arguments = (ins Hlo_Tensor:$operand, ConfinedAttr<I64Attr, [IntNonNegative]>:$dimension);
  let results = (outs 0DTensorOf<[I32]>:$result);
  let hasVerifier = 1;
}

def Hlo_SetDimensionSizeOp : Hlo_Op<"set_dimension_size", [Pure]> {
  let summary = "set the runtime size of one (bounded) dimension";
  let arguments = (ins Hlo_Tensor:$operand, 0DTensorOf<[I32]>:$size,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dimension);
  let results = (outs Hlo_Tensor:$result);
  let hasVerifier = 1;
}

def Hlo_ShuffleOp : Hlo_Op<"shuffle", [Pure, SameOperandsAndResultType]> {
  let summary = "move elements along dimensions by a pattern (rotate by shifts)";
  let arguments = (ins Hlo_Tensor:$operand, DenseI64ArrayAttr:$dimensions,
                       Hlo_ShuffleModeAttr:$mode, DenseI64ArrayAttr:$shifts);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "$operand `,` `dims` `=` $dimensions `,` custom<EnumCase>($mode) `=` $shifts attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions and windows
//===----------------------------------------------------------------------===//

def Hlo_ReduceOp : Hlo_CallerOp<"reduce", [Pure]> {
  let summary = "reduce N arrays along dimensions with a computation (variadic Reduce)";
  let description = [{
    Operands are `inputs..., init_values...` (N each). to_apply maps 2N
    scalars (accumulators, then elements) to N scalars.
  }];
  let arguments = (ins Variadic<Hlo_Tensor>:$operands, DenseI64ArrayAttr:$dimensions,
                       FlatSymbolRefAttr:$to_apply);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let hasVerifier = 1;
}

def Hlo_ReduceWindowOp : Hlo_CallerOp<"reduce_window", [Pure]> {
  let summary = "reduce every window of N arrays with a computation";
  let arguments = (ins Variadic<Hlo_Tensor>:$operands, Hlo_WindowAttr:$window,
                       FlatSymbolRefAttr:$to_apply);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let hasVerifier = 1;
}

def Hlo_SelectAndScatterOp : Hlo_CallerOp<"select_and_scatter", [Pure]> {
  let summary = "select one element per window, scatter source values onto it";
  let arguments = (ins Hlo_Tensor:$operand, Hlo_Tensor:$source, Hlo_Tensor:$init_value,
                       Hlo_WindowAttr:$window, FlatSymbolRefAttr:$select,
                       FlatSymbolRefAttr:$scatter);
  let results = (outs Hlo_Tensor:$result);
  let hasVerifier = 1;
}

def Hlo_MapOp : Hlo_CallerOp<"map", [Pure]> {
  let summary = "apply a scalar computation elementwise over N arrays";
  let arguments = (ins Variadic<Hlo_Tensor>:$inputs, DenseI64ArrayAttr:$dimensions,
                       FlatSymbolRefAttr:$to_apply);
  let results = (outs Hlo_Tensor:$result);
  let hasVerifier = 1;
}

def Hlo_ScanOp : Hlo_CallerOp<"scan", [Pure]> {
  let summary = "sequential scan along a dimension, with carries";
  let description = [{
    Operands are `inputs..., inits...`; `num_carries` (k) says how many
    trailing operands are inits. Results are the n scanned outputs then the
    k final carries.
  }];
  let arguments = (ins Variadic<Hlo_Tensor>:$operands,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$num_carries,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$scan_dimension,
                       FlatSymbolRefAttr:$to_apply,
                       DefaultValuedAttr<BoolAttr, "false">:$is_reverse,
                       OptionalAttr<BoolAttr>:$is_associative);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Linear algebra, convolution, fft, sort
//===----------------------------------------------------------------------===//

def Hlo_DotOp : Hlo_Op<"dot", [Pure]> {
  let summary = "general dot product (DotGeneral)";
  let description = [{
    The result dimensions are the batch dimensions, then lhs free
    dimensions, then rhs free dimensions, each in operand order.
  }];
  let arguments = (ins Hlo_NumericTensor:$lhs, Hlo_NumericTensor:$rhs,
                       Hlo_DotDimensionNumbersAttr:$dot_dimension_numbers,
                       OptionalAttr<Hlo_PrecisionConfigAttr>:$precision_config,
                       OptionalAttr<StrAttr>:$algorithm);
  let results = (outs Hlo_NumericTensor:$result);
  let hasVerifier = 1;
}

def Hlo_RaggedDotOp : Hlo_Op<"ragged_dot", [Pure]> {
  let summary = "dot whose ragged dimension is split into groups of given sizes";
  let arguments = (ins Hlo_NumericTensor:$lhs, Hlo_NumericTensor:$rhs,
                       Hlo_IntTensor:$group_sizes,
                       Hlo_DotDimensionNumbersAttr:$dot_dimension_numbers,
                       DenseI64ArrayAttr:$lhs_ragged_dimensions,
                       DenseI64ArrayAttr:$rhs_group_dimensions,
                       OptionalAttr<Hlo_PrecisionConfigAttr>:$precision_config);
  let results = (outs Hlo_NumericTensor:$result);
  let hasVerifier = 1;
}

def Hlo_ScaledDotOp : Hlo_Op<"scaled_dot", [Pure]> {
  let summary = "dot of block-scaled operands (lhs, rhs, lhs_scale, rhs_scale)";
  let arguments = (ins Hlo_NumericTensor:$lhs, Hlo_NumericTensor:$rhs,
                       Hlo_NumericTensor:$lhs_scale, Hlo_NumericTensor:$rhs_scale,
                       Hlo_DotDimensionNumbersAttr:$dot_dimension_numbers,
                       OptionalAttr<Hlo_PrecisionConfigAttr>:$precision_config);
  let results = (outs Hlo_NumericTensor:$result);
  let hasVerifier = 1;
}

def Hlo_ConvolutionOp : Hlo_Op<"convolution", [Pure]> {
  let summary = "general convolution with window, dilations and groups";
  let arguments = (ins Hlo_NumericTensor:$lhs, Hlo_NumericTensor:$rhs,
                       Hlo_WindowAttr:$window,
                       Hlo_ConvDimensionNumbersAttr:$dimension_numbers,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntMinValue<1>]>, "1">:$feature_group_count,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntMinValue<1>]>, "1">:$batch_group_count,
                       OptionalAttr<Hlo_PrecisionConfigAttr>:$precision_config);
  let results = (outs Hlo_NumericTensor:$result);
  let hasVerifier = 1;
}

def Hlo_FftOp : Hlo_Op<"fft", [Pure]> {
  let summary = "FFT, IFFT, RFFT or IRFFT over the innermost fft_length dimensions";
  let arguments = (ins Hlo_FpOrComplexTensor:$operand, Hlo_FftTypeAttr:$fft_type,
                       DenseI64ArrayAttr:$fft_length);
  let results = (outs Hlo_FpOrComplexTensor:$result);
  let assemblyFormat = "$operand `,` custom<EnumCase>($fft_type) `,` `length` `=` $fft_length attr-dict "
                       "`:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Hlo_CholeskyOp : Hlo_Op<"cholesky", [Pure, SameOperandsAndResultType]> {
  let summary = "Cholesky factor of a batch of symmetric positive definite matrices";
  let arguments = (ins Hlo_FpOrComplexTensor:$a, DefaultValuedAttr<BoolAttr, "false">:$lower);
  let results = (outs Hlo_FpOrComplexTensor:$result);
  let assemblyFormat = "$a attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Hlo_TriangularSolveOp : Hlo_Op<"triangular_solve", [Pure]> {
  let summary = "solve op(a) x = b or x op(a) = b for triangular a";
  let arguments = (ins Hlo_FpOrComplexTensor:$a, Hlo_FpOrComplexTensor:$b,
                       BoolAttr:$left_side, BoolAttr:$lower, BoolAttr:$unit_diagonal,
                       Hlo_TriangularSolveTransposeAttr:$transpose_a);
  let results = (outs Hlo_FpOrComplexTensor:$result);
  let hasVerifier = 1;
}

def Hlo_SortOp : Hlo_CallerOp<"sort", [Pure]> {
  let summary = "sort N same-shaped arrays along a dimension with a comparator";
  let arguments = (ins Variadic<Hlo_Tensor>:$inputs,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dimension,
                       DefaultValuedAttr<BoolAttr, "false">:$is_stable,
                       FlatSymbolRefAttr:$to_apply);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let hasVerifier = 1;
}

def Hlo_TopKOp : Hlo_Op<"topk", [Pure]> {
  let summary = "k largest (or smallest) values and their s32 indices along the last dimension";
  let arguments = (ins Hlo_Tensor:$operand, ConfinedAttr<I64Attr, [IntNonNegative]>:$k,
                       DefaultValuedAttr<BoolAttr, "true">:$largest);
  let results = (outs Hlo_Tensor:$values, RankedTensorOf<[I32]>:$indices);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Batch normalization
//===----------------------------------------------------------------------===//

def Hlo_BatchNormTrainingOp : Hlo_Op<"batch_norm_training", [Pure]> {
  let summary = "normalize with batch statistics; returns (output, mean, variance)";
  let arguments = (ins Hlo_FloatTensor:$operand, Hlo_FloatTensor:$scale, Hlo_FloatTensor:$offset,
                       F32Attr:$epsilon, ConfinedAttr<I64Attr, [IntNonNegative]>:$feature_index);
  let results = (outs Hlo_FloatTensor:$output, Hlo_FloatTensor:$batch_mean,
                      Hlo_FloatTensor:$batch_var);
  let hasVerifier = 1;
}

def Hlo_BatchNormInferenceOp : Hlo_Op<"batch_norm_inference", [Pure]> {
  let summary = "normalize with given mean and variance";
  let arguments = (ins Hlo_FloatTensor:$operand, Hlo_FloatTensor:$scale, Hlo_FloatTensor:$offset,
                       Hlo_FloatTensor:$mean, Hlo_FloatTensor:$variance,
                       F32Attr:$epsilon, ConfinedAttr<I64Attr, [IntNonNegative]>:$feature_index);
  let results = (outs Hlo_FloatTensor:$result);
  let hasVerifier = 1;
}

def Hlo_BatchNormGradOp : Hlo_Op<"batch_norm_grad", [Pure]> {
  let summary = "gradients of batch norm; returns (grad_operand, grad_scale, grad_offset)";
  let arguments = (ins Hlo_FloatTensor:$operand, Hlo_FloatTensor:$scale, Hlo_FloatTensor:$mean,
                       Hlo_FloatTensor:$variance, Hlo_FloatTensor:$grad_output,
                       F32Attr:$epsilon, ConfinedAttr<I64Attr, [IntNonNegative]>:$feature_index);
  let results = (outs Hlo_FloatTensor:$grad_operand, Hlo_FloatTensor:$grad_scale,
                      Hlo_FloatTensor:$grad_offset);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

def Hlo_RngOp : Hlo_Op<"rng", [Hlo_SideEffect]> {
  let summary = "random numbers from a uniform [a, b) or normal(a, b) distribution";
  let arguments = (ins Hlo_Tensor:$a, Hlo_Tensor:$b, Hlo_RngDistributionAttr:$distribution);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "custom<EnumCase>($distribution) $a `,` $b attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Hlo_RngBitGeneratorOp : Hlo_Op<"rng_bit_generator", [Pure]> {
  let summary = "random bits from an explicit state; returns (new_state, bits)";
  let arguments = (ins RankedTensorOf<[UI64]>:$initial_state, Hlo_RngAlgorithmAttr:$algorithm);
  let results = (outs RankedTensorOf<[UI64]>:$output_state, Hlo_IntTensor:$output);
  let assemblyFormat = "custom<EnumCase>($algorithm) $initial_state attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Hlo_RngGetAndUpdateStateOp : Hlo_Op<"rng_get_and_update_state", [Hlo_SideEffect]> {
  let summary = "read the global rng state and advance it by delta";
  let arguments = (ins I64Attr:$delta);
  let results = (outs RankedTensorOf<[UI64]>:$state);
  let assemblyFormat = "`delta` `=` $delta attr-dict `:` type($state)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tuples and control flow
//===----------------------------------------------------------------------===//

def Hlo_TupleOp : Hlo_Op<"tuple", [Pure]> {
  let summary = "group values into a tuple";
  let arguments = (ins Variadic<Hlo_Value>:$elements);
  let results = (outs Hlo_Tuple:$result);
  let hasVerifier = 1;
}

def Hlo_GetTupleElementOp : Hlo_Op<"get_tuple_element", [Pure]> {
  let summary = "element `index` of a tuple";
  let arguments = (ins Hlo_Tuple:$operand, ConfinedAttr<I64Attr, [IntNonNegative]>:$index);
  let results = (outs Hlo_Value:$result);
  let assemblyFormat = "$operand `[` $index `]` attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Hlo_CallOp : Hlo_CallerOp<"call", []> {
  let summary = "call a computation";
  let description = [{
    With `is_composite` it is a Composite operation: `to_apply` is the
    decomposition of the op its frontend attributes name (`composite.name`,
    `composite.attributes`, `composite.version`), and running it means
    running the decomposition.
  }];
  let arguments = (ins Variadic<Hlo_Value>:$operands, FlatSymbolRefAttr:$to_apply,
                       DefaultValuedAttr<BoolAttr, "false">:$is_composite);
  let results = (outs Variadic<Hlo_Value>:$results);
  let assemblyFormat = "$to_apply `(` $operands `)` attr-dict `:` functional-type(operands, results)";
}

def Hlo_WhileOp : Hlo_CallerOp<"while", []> {
  let summary = "loop: state = body(state) while condition(state)";
  let arguments = (ins Hlo_Value:$init, FlatSymbolRefAttr:$condition, FlatSymbolRefAttr:$body);
  let results = (outs Hlo_Value:$result);
  let assemblyFormat = "$init `,` `condition` `=` $condition `,` `body` `=` $body attr-dict "
                       "`:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Hlo_ConditionalOp : Hlo_CallerOp<"conditional", []> {
  let summary = "run one branch computation chosen by a pred or s32 index";
  let description = [{
    Operands are `branch_index, branch_operands...` with one operand per
    branch computation. A pred selects branch 0 when true, 1 when false
    (true_computation, false_computation); an s32 index outside
    [0, N) selects the last branch.
  }];
  let arguments = (ins RankedTensorOf<[I1, I32]>:$branch_index, Variadic<Hlo_Value>:$branch_operands,
                       ArrayAttr:$branch_computations);
  let results = (outs Variadic<Hlo_Value>:$results);
  let hasVerifier = 1;
}

def Hlo_FusionOp : Hlo_CallerOp<"fusion", []> {
  let summary = "a fused computation executed as one kernel";
  let arguments = (ins Variadic<Hlo_Value>:$operands, Hlo_FusionKindAttr:$kind,
                       FlatSymbolRefAttr:$calls);
  let results = (outs Variadic<Hlo_Value>:$results);
  let assemblyFormat = "custom<EnumCase>($kind) $calls `(` $operands `)` attr-dict `:` functional-type(operands, results)";
}

def Hlo_CustomCallOp : Hlo_CallerOp<"custom_call", [Hlo_SideEffect]> {
  let summary = "call a target registered with the runtime by name";
  let arguments = (ins Variadic<Hlo_Value>:$operands,
                       StrAttr:$custom_call_target,
                       DefaultValuedAttr<StrAttr, "\"\"">:$backend_config,
                       DefaultValuedAttr<Hlo_CustomCallApiVersionAttr,
                           "::rxla::hlo::CustomCallApiVersion::API_VERSION_ORIGINAL">:$api_version,
                       DefaultValuedAttr<BoolAttr, "false">:$has_side_effect,
                       OptionalAttr<FlatSymbolRefArrayAttr>:$called_computations,
                       OptionalAttr<TypedArrayAttrBase<Hlo_LayoutAttr, "operand layouts">>:$operand_layout_constraints,
                       OptionalAttr<TypedArrayAttrBase<Hlo_OutputOperandAliasAttr, "aliases">>:$output_to_operand_aliasing);
  let results = (outs Variadic<Hlo_Value>:$results);
  let assemblyFormat = "$custom_call_target `(` $operands `)` attr-dict `:` functional-type(operands, results)";
}

def Hlo_OptimizationBarrierOp : Hlo_Op<"opt_barrier", [Hlo_SideEffect, SameOperandsAndResultType]> {
  let summary = "identity that no optimization may move computation across";
  let arguments = (ins Hlo_Value:$operand);
  let results = (outs Hlo_Value:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

def Hlo_AfterAllOp : Hlo_Op<"after_all", [Pure]> {
  let summary = "a token ordered after all operand tokens";
  let arguments = (ins Variadic<Hlo_Token>:$tokens);
  let results = (outs Hlo_Token:$result);
  // The trailing type ends the operand list, so zero tokens parse back.
  let assemblyFormat = "$tokens attr-dict `:` type($result)";
}

def Hlo_AddDependencyOp : Hlo_Op<"add_dependency", [Pure]> {
  let summary = "the operand, ordered after the token";
  let arguments = (ins Hlo_Value:$operand, Hlo_Token:$token);
  let results = (outs Hlo_Value:$result);
  let hasVerifier = 1;
}

def Hlo_DomainOp : Hlo_Op<"domain", [Pure, SameOperandsAndResultType]> {
  let summary = "marks a boundary between sharding (or other) domains";
  let arguments = (ins Hlo_Value:$operand, StrAttr:$domain_kind,
                       OptionalAttr<StrAttr>:$entry, OptionalAttr<StrAttr>:$exit);
  let results = (outs Hlo_Value:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Async wrappers and copies
//===----------------------------------------------------------------------===//

def Hlo_AsyncStartOp : Hlo_CallerOp<"async_start", [Hlo_SideEffect]> {
  let summary = "start running a computation asynchronously";
  let description = [{
    The result is the async context tuple `((operands...), result, state...)`
    that async_update and async_done consume.
  }];
  let arguments = (ins Variadic<Hlo_Value>:$operands, FlatSymbolRefAttr:$calls,
                       OptionalAttr<StrAttr>:$async_execution_thread);
  let results = (outs Hlo_Tuple:$result);
  let hasVerifier = 1;
}

def Hlo_AsyncUpdateOp : Hlo_Op<"async_update", [Hlo_SideEffect, SameOperandsAndResultType]> {
  let summary = "a step of an asynchronous computation";
  let arguments = (ins Hlo_Tuple:$bundle, OptionalAttr<FlatSymbolRefAttr>:$calls);
  let results = (outs Hlo_Tuple:$result);
  let assemblyFormat = "$bundle attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Hlo_AsyncDoneOp : Hlo_Op<"async_done", [Hlo_SideEffect]> {
  let summary = "wait for an asynchronous computation and return its result";
  let arguments = (ins Hlo_Tuple:$bundle, OptionalAttr<FlatSymbolRefAttr>:$calls);
  let results = (outs Variadic<Hlo_Value>:$results);
  let hasVerifier = 1;
}

def Hlo_CopyStartOp : Hlo_Op<"copy_start", [Hlo_SideEffect]> {
  let summary = "start an asynchronous copy; returns (destination, source, context)";
  let arguments = (ins Hlo_Tensor:$operand, OptionalAttr<I64Attr>:$cross_program_prefetch_index);
  let results = (outs Hlo_Tuple:$result);
  let hasVerifier = 1;
}

def Hlo_CopyDoneOp : Hlo_Op<"copy_done", [Hlo_SideEffect]> {
  let summary = "wait for an asynchronous copy and return the destination";
  let arguments = (ins Hlo_Tuple:$operand);
  let results = (outs Hlo_Tensor:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

defvar Hlo_CollectiveAttrs = (ins OptionalAttr<Hlo_ReplicaGroups>:$replica_groups,
                                 OptionalAttr<I64Attr>:$channel_id,
                                 DefaultValuedAttr<BoolAttr, "false">:$use_global_device_ids);

def Hlo_AllReduceOp : Hlo_CallerOp<"all_reduce", [Hlo_SideEffect]> {
  let summary = "reduce across replicas with a computation; every replica gets the result";
  let arguments = !con((ins Variadic<Hlo_Tensor>:$operands, FlatSymbolRefAttr:$to_apply),
                       Hlo_CollectiveAttrs);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let hasVerifier = 1;
}

def Hlo_AllReduceStartOp : Hlo_CallerOp<"all_reduce_start", [Hlo_SideEffect]> {
  let summary = "asynchronous all-reduce: start";
  let arguments = !con((ins Variadic<Hlo_Tensor>:$operands, FlatSymbolRefAttr:$to_apply),
                       Hlo_CollectiveAttrs);
  let results = (outs Hlo_TensorOrTuple:$result);
  let hasVerifier = 1;
}

def Hlo_AllReduceDoneOp : Hlo_Op<"all_reduce_done", [Hlo_SideEffect, SameOperandsAndResultType]> {
  let summary = "asynchronous all-reduce: wait";
  let arguments = (ins Hlo_TensorOrTuple:$operand);
  let results = (outs Hlo_TensorOrTuple:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

def Hlo_AllGatherOp : Hlo_Op<"all_gather", [Hlo_SideEffect]> {
  let summary = "concatenate the operands of all replicas along all_gather_dimension";
  let arguments = !con((ins Variadic<Hlo_Tensor>:$operands,
                            ConfinedAttr<I64Attr, [IntNonNegative]>:$all_gather_dimension),
                       Hlo_CollectiveAttrs);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let hasVerifier = 1;
}

def Hlo_AllGatherStartOp : Hlo_Op<"all_gather_start", [Hlo_SideEffect]> {
  let summary = "asynchronous all-gather: start; returns (operands, results)";
  let arguments = !con((ins Variadic<Hlo_Tensor>:$operands,
                            ConfinedAttr<I64Attr, [IntNonNegative]>:$all_gather_dimension),
                       Hlo_CollectiveAttrs);
  let results = (outs Hlo_Tuple:$result);
  let hasVerifier = 1;
}

def Hlo_AllGatherDoneOp : Hlo_Op<"all_gather_done", [Hlo_SideEffect]> {
  let summary = "asynchronous all-gather: wait";
  let arguments = (ins Hlo_Tuple:$operand);
  let results = (outs Hlo_TensorOrTuple:$result);
  let hasVerifier = 1;
}

def Hlo_AllToAllOp : Hlo_Op<"all_to_all", [Hlo_SideEffect]> {
  let summary = "split along split_dimension, exchange, concatenate along concat_dimension";
  let description = [{
    Array form: one operand with `dimensions = [d]` (split and concat along
    d). Tuple form: N operands, no dimensions, one chunk per replica.
  }];
  let arguments = !con((ins Variadic<Hlo_Tensor>:$operands,
                            OptionalAttr<DenseI64ArrayAttr>:$dimensions),
                       Hlo_CollectiveAttrs);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let hasVerifier = 1;
}

def Hlo_RaggedAllToAllOp : Hlo_Op<"ragged_all_to_all", [Hlo_SideEffect]> {
  let summary = "all-to-all of ragged chunks given by offset and size arrays";
  let description = [{
    Operands: input, output, input_offsets, send_sizes, output_offsets,
    recv_sizes.
  }];
  let arguments = !con((ins Hlo_Tensor:$input, Hlo_Tensor:$output,
                            Hlo_IntTensor:$input_offsets, Hlo_IntTensor:$send_sizes,
                            Hlo_IntTensor:$output_offsets, Hlo_IntTensor:$recv_sizes),
                       Hlo_CollectiveAttrs);
  let results = (outs Hlo_Tensor:$result);
  let hasVerifier = 1;
}

def Hlo_ReduceScatterOp : Hlo_CallerOp<"reduce_scatter", [Hlo_SideEffect]> {
  let summary = "all-reduce, then each replica keeps its slice along scatter_dimension";
  let arguments = !con((ins Variadic<Hlo_Tensor>:$operands, FlatSymbolRefAttr:$to_apply,
                            ConfinedAttr<I64Attr, [IntNonNegative]>:$scatter_dimension),
                       Hlo_CollectiveAttrs);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let hasVerifier = 1;
}

def Hlo_CollectiveBroadcastOp : Hlo_Op<"collective_broadcast", [Hlo_SideEffect]> {
  let summary = "broadcast the first replica's operand of each group to the group";
  let arguments = !con((ins Variadic<Hlo_Tensor>:$operands), Hlo_CollectiveAttrs);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let hasVerifier = 1;
}

def Hlo_CollectiveReduceOp : Hlo_CallerOp<"collective_reduce", [Hlo_SideEffect]> {
  let summary = "reduce within replica groups with a computation";
  let arguments = !con((ins Variadic<Hlo_Tensor>:$operands, FlatSymbolRefAttr:$to_apply),
                       Hlo_CollectiveAttrs);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let hasVerifier = 1;
}

defvar Hlo_PermuteAttrs = (ins Hlo_IndexGroupsAttr:$source_target_pairs,
                              OptionalAttr<I64Attr>:$channel_id);

def Hlo_CollectivePermuteOp : Hlo_Op<"collective_permute", [Hlo_SideEffect]> {
  let summary = "send the operand from each source replica to its target";
  let arguments = !con((ins Variadic<Hlo_Tensor>:$operands), Hlo_PermuteAttrs);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let hasVerifier = 1;
}

def Hlo_CollectivePermuteStartOp : Hlo_Op<"collective_permute_start", [Hlo_SideEffect]> {
  let summary = "asynchronous collective-permute: start";
  let arguments = !con((ins Variadic<Hlo_Tensor>:$operands), Hlo_PermuteAttrs);
  let results = (outs Hlo_Tuple:$result);
  let hasVerifier = 1;
}

def Hlo_CollectivePermuteDoneOp : Hlo_Op<"collective_permute_done", [Hlo_SideEffect]> {
  let summary = "asynchronous collective-permute: wait";
  let arguments = (ins Hlo_Tuple:$operand);
  let results = (outs Hlo_TensorOrTuple:$result);
  let hasVerifier = 1;
}

def Hlo_ReplicaIdOp : Hlo_Op<"replica_id", [Pure]> {
  let summary = "the id of the replica running this code, as u32";
  let results = (outs 0DTensorOf<[UI32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Hlo_PartitionIdOp : Hlo_Op<"partition_id", [Pure]> {
  let summary = "the id of the partition running this code, as u32";
  let results = (outs 0DTensorOf<[UI32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Host and peer communication
//===----------------------------------------------------------------------===//

def Hlo_SendOp : Hlo_Op<"send", [Hlo_SideEffect]> {
  let summary = "start sending data on a channel; returns (data, context, token)";
  let arguments = (ins Hlo_TensorOrTuple:$operand, Hlo_Token:$token, I64Attr:$channel_id,
                       DefaultValuedAttr<BoolAttr, "false">:$is_host_transfer);
  let results = (outs Hlo_Tuple:$result);
  let hasVerifier = 1;
}

def Hlo_SendDoneOp : Hlo_Op<"send_done", [Hlo_SideEffect]> {
  let summary = "wait until a send completes; returns a token";
  let arguments = (ins Hlo_Tuple:$operand, I64Attr:$channel_id,
                       DefaultValuedAttr<BoolAttr, "false">:$is_host_transfer);
  let results = (outs Hlo_Token:$result);
}

def Hlo_RecvOp : Hlo_Op<"recv", [Hlo_SideEffect]> {
  let summary = "start receiving data on a channel; returns (data, context, token)";
  let arguments = (ins Hlo_Token:$token, I64Attr:$channel_id,
                       DefaultValuedAttr<BoolAttr, "false">:$is_host_transfer);
  let results = (outs Hlo_Tuple:$result);
  let hasVerifier = 1;
}

def Hlo_RecvDoneOp : Hlo_Op<"recv_done", [Hlo_SideEffect]> {
  let summary = "wait until a receive completes; returns (data, token)";
  let arguments = (ins Hlo_Tuple:$operand, I64Attr:$channel_id,
                       DefaultValuedAttr<BoolAttr, "false">:$is_host_transfer);
  let results = (outs Hlo_Tuple:$result);
  let hasVerifier = 1;
}

def Hlo_InfeedOp : Hlo_Op<"infeed", [Hlo_SideEffect]> {
  let summary = "read data from the host's infeed queue; returns (data, token)";
  let arguments = (ins Hlo_Token:$token, DefaultValuedAttr<StrAttr, "\"\"">:$infeed_config);
  let results = (outs Hlo_Tuple:$result);
  let hasVerifier = 1;
}

def Hlo_OutfeedOp : Hlo_Op<"outfeed", [Hlo_SideEffect]> {
  let summary = "write data to the host's outfeed queue";
  let arguments = (ins Hlo_TensorOrTuple:$operand, Hlo_Token:$token,
                       DefaultValuedAttr<StrAttr, "\"\"">:$outfeed_config);
  let results = (outs Hlo_Token:$result);
}

#endif // RXLA_DIALECT_HLO_IR_HLOOPS_TD
