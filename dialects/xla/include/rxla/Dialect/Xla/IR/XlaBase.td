//===- XlaBase.td - the xla emitter dialect ------------------*- tablegen -*-===//
//
// `xla` is the target-independent dialect of XLA's emitters: the ops the
// loop, transpose and reduction emitters produce when they turn an HLO
// fusion into MLIR (loops over indexing maps, index arithmetic, calls of
// partitioned subgraph functions, predicated and atomic tensor accesses).
//
//===----------------------------------------------------------------------===//

#ifndef RXLA_DIALECT_XLA_IR_XLABASE_TD
#define RXLA_DIALECT_XLA_IR_XLABASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Xla_Dialect : Dialect {
  let name = "xla";
  let cppNamespace = "::rxla::xla";
  let summary = "XLA's target-independent emitter ops";
  let description = [{
    The ops XLA's emitters produce for a fusion before lowering to `scf`,
    `arith` and LLVM: `xla.loop` iterates over the feasible domain of an
    indexing map, `xla.apply_indexing` evaluates one, `xla.pure_call` calls a
    side-effect-free partitioned subgraph function, `xla.predicated_insert`
    and `xla.predicated_extract` access a tensor element under a condition,
    `xla.atomic_rmw` updates a tensor element atomically, and
    `xla.workgroup_id` reads the id of the current workgroup (a GPU block or
    a CPU work item).

    Indexing maps are `#xla.indexing_map<"...">` attributes holding XLA's
    text form of an indexing map, `(d0)[s0] -> (d0 + s0), domain: d0 in
    [0, 9], s0 in [0, 3]`. The discardable attribute `xla.range = [lo, hi]`
    (two `index` integers) states the closed range of the values an op
    produces or a function argument takes.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerInterfaces();
  }];
}

#endif // RXLA_DIALECT_XLA_IR_XLABASE_TD
