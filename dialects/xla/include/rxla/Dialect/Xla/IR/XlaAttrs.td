//===- XlaAttrs.td - xla dialect attributes -------------------*- tablegen -*-===//

#ifndef RXLA_DIALECT_XLA_IR_XLAATTRS_TD
#define RXLA_DIALECT_XLA_IR_XLAATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "rxla/Dialect/Xla/IR/XlaBase.td"

def Xla_IndexingMapAttr : AttrDef<Xla_Dialect, "IndexingMap"> {
  let mnemonic = "indexing_map";
  let summary = "an indexing map in XLA's text form";
  let description = [{
    An indexing map (docs/indexing.md of XLA): a symbolic function from
    dimension variables `d`, range variables `s` and runtime variables `rt`
    to result expressions, together with the domain the variables range
    over and constraints on expressions.

    ```mlir
    #xla.indexing_map<"(d0, d1)[s0] -> (d0, d1 + s0), domain: d0 in [0, 1], d1 in [0, 7], s0 in [0, 3]">
    #xla.indexing_map<"(th_x, bl_x) -> (bl_x * 128 + th_x), domain: th_x in [0, 127], bl_x in [0, 9], bl_x * 128 + th_x in [0, 1199]">
    ```

    The attribute stores the text. Several adjacent string literals are
    concatenated (`<"(d0) -> (d0)," "domain: d0 in [0, 3]">`), and runs of
    whitespace are collapsed to one space. The dialect checks the structure:
    the header `(dims)[range vars]{runtime vars} -> (results)`, variable
    names, that result expressions name only declared variables, and that a
    `domain:` lists every variable in declaration order as
    `name in [lo, hi]` before any constraint `expr in [lo, hi]`. `UNDEFINED`
    is XLA's undefined map. Simplification, composition and evaluation of
    maps belong to the Rust indexing library (`lowering/indexing`).
  }];
  // The counts are derived from the text once, when the attribute is
  // created: op verifiers and accessors read them without re-parsing.
  let parameters = (ins StringRefParameter<"the map in XLA's text form">:$text,
    AttrParameter<"::rxla::xla::IndexingMapInfo",
                  "the counts of the map's variables and results">:$info);
  let builders = [
    AttrBuilder<(ins "::llvm::StringRef":$text), [{
      return $_get($_ctxt, text, ::rxla::xla::indexingMapInfoOrEmpty(text));
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getNumDims() const { return getInfo().numDims; }
    unsigned getNumRangeVars() const { return getInfo().numRangeVars; }
    unsigned getNumRuntimeVars() const { return getInfo().numRuntimeVars; }
    /// Range and runtime variables together: the symbols of the map.
    unsigned getNumSymbols() const {
      return getInfo().numRangeVars + getInfo().numRuntimeVars;
    }
    unsigned getNumResults() const { return getInfo().numResults; }
    unsigned getNumConstraints() const { return getInfo().numConstraints; }
    bool isUndefined() const { return getInfo().undefined; }
  }];
}

def Xla_WorkGroupDimension : I32EnumAttr<"WorkGroupDimension",
    "a dimension of the workgroup grid", [
      I32EnumAttrCase<"x", 0>, I32EnumAttrCase<"y", 1>, I32EnumAttrCase<"z", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::rxla::xla";
}
def Xla_WorkGroupDimensionAttr
    : EnumAttr<Xla_Dialect, Xla_WorkGroupDimension, "workgroup_dim">;

#endif // RXLA_DIALECT_XLA_IR_XLAATTRS_TD
