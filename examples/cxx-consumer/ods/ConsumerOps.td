//===- ConsumerOps.td - a downstream dialect built on rxla's ODS -*- tablegen -*-===//
//
// A one-op dialect of the example project, to show that downstream ODS can
// include rxla's installed .td files: `consumer.scale` reuses the hlo
// dialect's Hlo_FloatTensor type constraint. CMakeLists.txt runs
// mlir_tablegen on it with ${RXLA_TABLEGEN_INCLUDE_DIR} on the include path.
//
//===----------------------------------------------------------------------===//

#ifndef CONSUMER_OPS_TD
#define CONSUMER_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rxla/Dialect/Hlo/IR/HloOps.td"

def Consumer_Dialect : Dialect {
  let name = "consumer";
  let cppNamespace = "::consumer";
  let summary = "An example dialect that uses rxla's hlo constraints";
}

def Consumer_ScaleOp : Op<Consumer_Dialect, "scale",
                          [Pure, SameOperandsAndResultType]> {
  let summary = "multiplies a floating-point hlo tensor by a constant";
  let arguments = (ins Hlo_FloatTensor:$input, F64Attr:$factor);
  let results = (outs Hlo_FloatTensor:$result);
  let assemblyFormat = "$input `by` $factor attr-dict `:` type($input)";
}

#endif // CONSUMER_OPS_TD
