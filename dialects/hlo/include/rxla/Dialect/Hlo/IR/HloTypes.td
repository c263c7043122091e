//===- HloTypes.td - hlo dialect types -----------------------*- tablegen -*-===//

#ifndef RXLA_DIALECT_HLO_IR_HLOTYPES_TD
#define RXLA_DIALECT_HLO_IR_HLOTYPES_TD

include "rxla/Dialect/Hlo/IR/HloBase.td"

def Hlo_TokenType : TypeDef<Hlo_Dialect, "Token"> {
  let mnemonic = "token";
  let summary = "XLA token: orders side-effecting operations";
  let description = [{
    Corresponds to XLA's `token[]` shape. Produced by `hlo.after_all` and
    threaded through infeed/outfeed, send/recv and `hlo.add_dependency`.
  }];
}

def Hlo_Token : Type<CPred<"::llvm::isa<::rxla::hlo::TokenType>($_self)">,
                     "token", "::rxla::hlo::TokenType">,
                BuildableType<"::rxla::hlo::TokenType::get($_builder.getContext())">;

// Any value an HLO instruction may produce or take: an array, a token, or a
// (nested) tuple of those.
def Hlo_Tuple : NestedTupleOf<[Hlo_Tensor, Hlo_Token]>;
def Hlo_Value : AnyTypeOf<[Hlo_Tensor, Hlo_Token, Hlo_Tuple], "HLO value (array, token or tuple)">;
def Hlo_TensorOrTuple : AnyTypeOf<[Hlo_Tensor, Hlo_Tuple], "array or tuple">;

#endif // RXLA_DIALECT_HLO_IR_HLOTYPES_TD
