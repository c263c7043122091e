//===- HloEnums.td - hlo dialect enum attributes -------------*- tablegen -*-===//
//
// Enum cases are spelled as XLA's HLO text spells them, so the importer and
// exporter map them by string.
//
//===----------------------------------------------------------------------===//

#ifndef RXLA_DIALECT_HLO_IR_HLOENUMS_TD
#define RXLA_DIALECT_HLO_IR_HLOENUMS_TD

include "mlir/IR/EnumAttr.td"
include "rxla/Dialect/Hlo/IR/HloBase.td"

class Hlo_EnumAttr<I32EnumAttr enumInfo, string name>
    : EnumAttr<Hlo_Dialect, enumInfo, name>;
// Inside an op's custom format the bare case is printed (`EQ`); inside an
// attribute dictionary the full form (`#hlo<comparison_direction EQ>`).

def Hlo_ComparisonDirection : I32EnumAttr<"ComparisonDirection",
    "comparison direction of hlo.compare", [
      I32EnumAttrCase<"EQ", 0>, I32EnumAttrCase<"NE", 1>,
      I32EnumAttrCase<"GE", 2>, I32EnumAttrCase<"GT", 3>,
      I32EnumAttrCase<"LE", 4>, I32EnumAttrCase<"LT", 5>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::rxla::hlo";
}
def Hlo_ComparisonDirectionAttr
    : Hlo_EnumAttr<Hlo_ComparisonDirection, "comparison_direction">;

def Hlo_ComparisonType : I32EnumAttr<"ComparisonType",
    "comparison type of hlo.compare", [
      I32EnumAttrCase<"FLOAT", 0>, I32EnumAttrCase<"TOTALORDER", 1>,
      I32EnumAttrCase<"SIGNED", 2>, I32EnumAttrCase<"UNSIGNED", 3>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::rxla::hlo";
}
def Hlo_ComparisonTypeAttr : Hlo_EnumAttr<Hlo_ComparisonType, "comparison_type">;

def Hlo_Precision : I32EnumAttr<"Precision", "operand precision of dot/convolution", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"HIGH", 1>,
      I32EnumAttrCase<"HIGHEST", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::rxla::hlo";
}
def Hlo_PrecisionAttr : Hlo_EnumAttr<Hlo_Precision, "precision">;
def Hlo_PrecisionConfigAttr : TypedArrayAttrBase<Hlo_PrecisionAttr,
    "precision config (one precision per operand)">;

def Hlo_FftType : I32EnumAttr<"FftType", "kind of hlo.fft", [
      I32EnumAttrCase<"FFT", 0>, I32EnumAttrCase<"IFFT", 1>,
      I32EnumAttrCase<"RFFT", 2>, I32EnumAttrCase<"IRFFT", 3>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::rxla::hlo";
}
def Hlo_FftTypeAttr : Hlo_EnumAttr<Hlo_FftType, "fft_type">;

def Hlo_RngAlgorithm : I32EnumAttr<"RngAlgorithm", "algorithm of hlo.rng_bit_generator", [
      I32EnumAttrCase<"rng_default", 0>, I32EnumAttrCase<"rng_three_fry", 1>,
      I32EnumAttrCase<"rng_philox", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::rxla::hlo";
}
def Hlo_RngAlgorithmAttr : Hlo_EnumAttr<Hlo_RngAlgorithm, "rng_algorithm">;

def Hlo_RngDistribution : I32EnumAttr<"RngDistribution", "distribution of hlo.rng", [
      I32EnumAttrCase<"rng_uniform", 0>, I32EnumAttrCase<"rng_normal", 1>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::rxla::hlo";
}
def Hlo_RngDistributionAttr : Hlo_EnumAttr<Hlo_RngDistribution, "rng_distribution">;

def Hlo_FusionKind : I32EnumAttr<"FusionKind", "kind of hlo.fusion", [
      I32EnumAttrCase<"kLoop", 0>, I32EnumAttrCase<"kInput", 1>,
      I32EnumAttrCase<"kOutput", 2>, I32EnumAttrCase<"kCustom", 3>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::rxla::hlo";
}
def Hlo_FusionKindAttr : Hlo_EnumAttr<Hlo_FusionKind, "fusion_kind">;

def Hlo_TriangularSolveTranspose : I32EnumAttr<"TriangularSolveTranspose",
    "transpose_a of hlo.triangular_solve", [
      I32EnumAttrCase<"NO_TRANSPOSE", 0>, I32EnumAttrCase<"TRANSPOSE", 1>,
      I32EnumAttrCase<"ADJOINT", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::rxla::hlo";
}
def Hlo_TriangularSolveTransposeAttr
    : Hlo_EnumAttr<Hlo_TriangularSolveTranspose, "transpose">;

def Hlo_CustomCallApiVersion : I32EnumAttr<"CustomCallApiVersion",
    "calling convention of hlo.custom_call", [
      I32EnumAttrCase<"API_VERSION_UNSPECIFIED", 0>,
      I32EnumAttrCase<"API_VERSION_ORIGINAL", 1>,
      I32EnumAttrCase<"API_VERSION_STATUS_RETURNING", 2>,
      I32EnumAttrCase<"API_VERSION_STATUS_RETURNING_UNIFIED", 3>,
      I32EnumAttrCase<"API_VERSION_TYPED_FFI", 4>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::rxla::hlo";
}
def Hlo_CustomCallApiVersionAttr
    : Hlo_EnumAttr<Hlo_CustomCallApiVersion, "api_version">;

def Hlo_ResultAccuracyMode : I32EnumAttr<"ResultAccuracyMode",
    "requested accuracy of a transcendental op", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"HIGHEST", 1>,
      I32EnumAttrCase<"TOLERANCE", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::rxla::hlo";
}
def Hlo_ResultAccuracyModeAttr
    : Hlo_EnumAttr<Hlo_ResultAccuracyMode, "result_accuracy_mode">;

def Hlo_ShuffleMode : I32EnumAttr<"ShuffleMode", "pattern of hlo.shuffle", [
      I32EnumAttrCase<"rotate", 0>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::rxla::hlo";
}
def Hlo_ShuffleModeAttr : Hlo_EnumAttr<Hlo_ShuffleMode, "shuffle_mode">;

// The kinds of #hlo.sharding and of its trailing subgroup tile dimensions,
// spelled as XLA's HloSharding::ToString spells them. Plain C++ enums: the
// sharding attribute prints them bare.
def Hlo_ShardingKind : I32EnumAttr<"ShardingKind", "kind of an #hlo.sharding", [
      I32EnumAttrCase<"replicated", 0>, I32EnumAttrCase<"manual", 1>,
      I32EnumAttrCase<"unknown", 2>, I32EnumAttrCase<"unreduced", 3>,
      I32EnumAttrCase<"maximal", 4>, I32EnumAttrCase<"tiled", 5>,
      I32EnumAttrCase<"tuple", 6>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::rxla::hlo";
}

def Hlo_ShardingSubgroup : I32EnumAttr<"ShardingSubgroup",
    "meaning of a trailing tile dimension of an #hlo.sharding", [
      I32EnumAttrCase<"maximal", 0>, I32EnumAttrCase<"manual", 1>,
      I32EnumAttrCase<"unreduced", 2>, I32EnumAttrCase<"replicated", 3>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::rxla::hlo";
}

#endif // RXLA_DIALECT_HLO_IR_HLOENUMS_TD
