//===- HloBase.td - the hlo dialect and its type constraints -*- tablegen -*-===//
//
// The `hlo` dialect models XLA's HLO instruction set one op per HLO opcode.
// Computations are `func.func`s; called computations are referenced by
// symbol so that HLO text maps 1:1 in both directions.
//
//===----------------------------------------------------------------------===//

#ifndef RXLA_DIALECT_HLO_IR_HLOBASE_TD
#define RXLA_DIALECT_HLO_IR_HLOBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/CommonAttrConstraints.td"

def Hlo_Dialect : Dialect {
  let name = "hlo";
  let cppNamespace = "::rxla::hlo";
  let summary = "XLA's HLO instruction set";
  let description = [{
    One operation per XLA HLO opcode, with the operands, attributes and
    result shapes of XLA's operation semantics. An HloModule is a
    `builtin.module`; each HLO computation is a `func.func` (the entry
    computation carries the `hlo.entry` unit attribute) and computations
    called by an instruction (`to_apply`, `calls`, `condition`, `body`,
    branch computations) are referenced by symbol.

    Element types follow XLA's primitive types: `pred` is `i1`, `sN` is
    signless `iN`, `uN` is `uiN`, floating-point types are MLIR's builtin
    float types (including the f8/f6/f4 families), `c64`/`c128` are
    `complex<f32>`/`complex<f64>`, tokens are `!hlo.token` and tuples are the
    builtin `tuple` type. Layouts are not part of the tensor type: a
    non-default layout is carried by the `hlo.layout` attribute (see
    docs/dialect.md for why).
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

//===----------------------------------------------------------------------===//
// Element and value type constraints
//===----------------------------------------------------------------------===//

def Hlo_Pred : TypeAlias<I1, "pred (i1)">;
def Hlo_SInt : AnyTypeOf<[I<2>, I<4>, I8, I16, I32, I64], "signed integer (sN)">;
def Hlo_UInt : AnyTypeOf<[UI<2>, UI<4>, UI8, UI16, UI32, UI64], "unsigned integer (uN)">;
def Hlo_Int : AnyTypeOf<[Hlo_SInt, Hlo_UInt], "integer">;
def Hlo_Float : AnyTypeOf<[AnyFloat], "floating-point">;
def Hlo_Complex : Complex<AnyTypeOf<[F32, F64]>>;

def Hlo_ElementType : AnyTypeOf<[Hlo_Pred, Hlo_Int, Hlo_Float, Hlo_Complex],
                                "XLA primitive type">;

def Hlo_Tensor : RankedTensorOf<[Hlo_ElementType]>;
def Hlo_PredTensor : RankedTensorOf<[Hlo_Pred]>;
def Hlo_IntTensor : RankedTensorOf<[Hlo_Int]>;
def Hlo_PredOrIntTensor : RankedTensorOf<[Hlo_Pred, Hlo_Int]>;
def Hlo_FloatTensor : RankedTensorOf<[Hlo_Float]>;
def Hlo_FpOrComplexTensor : RankedTensorOf<[Hlo_Float, Hlo_Complex]>;
def Hlo_ComplexTensor : RankedTensorOf<[Hlo_Complex]>;
def Hlo_NumericTensor : RankedTensorOf<[Hlo_Int, Hlo_Float, Hlo_Complex]>;
def Hlo_ScalarIntTensor : 0DTensorOf<[Hlo_Int]>;

#endif // RXLA_DIALECT_HLO_IR_HLOBASE_TD
