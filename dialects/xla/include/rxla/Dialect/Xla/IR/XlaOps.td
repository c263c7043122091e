//===- XlaOps.td - the xla emitter dialect operations --------*- tablegen -*-===//
//
// The target-independent ops of XLA's emitters, with XLA's names, operand
// order and syntax (xla/codegen/emitters/ir/xla_ops.td), so emitter IR and
// test cases written for XLA read the same here.
//
//===----------------------------------------------------------------------===//

#ifndef RXLA_DIALECT_XLA_IR_XLAOPS_TD
#define RXLA_DIALECT_XLA_IR_XLAOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rxla/Dialect/Xla/IR/XlaBase.td"
include "rxla/Dialect/Xla/IR/XlaAttrs.td"

class Xla_Op<string mnemonic, list<Trait> traits = []>
    : Op<Xla_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

def Xla_ApplyIndexingOp : Xla_Op<"apply_indexing", [Pure]> {
  let summary = "evaluate an indexing map at dimension and symbol values";
  let description = [{
    Applies the indexing map to its operands: the first operands are the
    values of the map's dimensions, the rest the values of its symbols
    (range variables, then runtime variables). There is one `index` result
    per result expression of the map. The map must not have constraints:
    evaluating a map does not check its domain (the emitters check the
    domain separately, or `xla.loop` guarantees it).

    ```mlir
    #map = #xla.indexing_map<"(d0, d1)[s0] -> (d0, d1 + s0), domain: d0 in [0, 1], d1 in [0, 7], s0 in [0, 3]">
    %r:2 = xla.apply_indexing #map(%d0, %d1)[%s0]
    %f = xla.apply_indexing #xla.indexing_map<"()[s0] -> (s0 * 4), domain: s0 in [0, 3]">[%s]
    ```

    Dimension operands are written in parentheses, symbol operands in
    square brackets; either list is omitted when the map has no dimensions
    or no symbols.
  }];
  let arguments = (ins Variadic<Index>:$operands,
                       Xla_IndexingMapAttr:$indexing_map_attr);
  let results = (outs Variadic<Index>:$results);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Xla_LoopOp : Xla_Op<"loop", [
    AttrSizedOperandSegments, RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<OpAsmOpInterface,
                              ["getAsmResultNames", "getAsmBlockArgumentNames"]>]> {
  let summary = "loop nest over the feasible domain of an indexing map";
  let description = [{
    Iterates over every value of the indexing map's range variables for
    which the map's domain holds (the variable bounds and all constraints),
    with the map's dimensions fixed to the `dims` operands (typically thread
    and block ids). The body's block arguments are the range variables
    (the induction variables), the map's results evaluated at the current
    point, and the loop-carried values; `xla.yield` yields the next
    loop-carried values, and the op's results are their final values (the
    `inits` when the domain is empty).

    ```mlir
    #map = #xla.indexing_map<"(d0)[s0, s1] -> (d0 * 4 + s0, s1), domain: d0 in [0, 255], s0 in [0, 3], s1 in [0, 7], d0 * 4 + s0 in [0, 999]">
    %sum = xla.loop (%tid)[%i, %j] -> (%ra, %rb) in #map iter_args(%acc = %init) -> (f32) {
      %x = tensor.extract %input[%ra, %rb] : tensor<1000x8xf32>
      %next = arith.addf %acc, %x : f32
      xla.yield %next : f32
    }
    ```

    Iteration order is unspecified. Runtime variables cannot be iterated
    over; a loop's map has none.
  }];
  let arguments = (ins Xla_IndexingMapAttr:$indexing_map_attr,
                       Variadic<Index>:$dims,
                       Variadic<AnyType>:$inits);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$region);
  let extraClassDeclaration = [{
    mlir::Block *getBody() { return &getRegion().front(); }
    /// The induction variables: one block argument per range variable.
    unsigned getNumInductionVars() { return getIndexingMapAttr().getNumRangeVars(); }
    mlir::Block::BlockArgListType getInductionVars() {
      return getBody()->getArguments().take_front(getNumInductionVars());
    }
    /// The map's results at the current iteration.
    mlir::Block::BlockArgListType getIndexingMapResults() {
      return getBody()->getArguments()
          .drop_front(getNumInductionVars())
          .take_front(getIndexingMapAttr().getNumResults());
    }
    /// The loop-carried values inside the body.
    mlir::Block::BlockArgListType getRegionIterArgs() {
      return getBody()->getArguments().drop_front(
          getNumInductionVars() + getIndexingMapAttr().getNumResults());
    }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

def Xla_PureCallOp : Xla_Op<"pure_call", [
    Pure, CallOpInterface, DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "call of a function without side effects";
  let description = [{
    Calls the `func.func` named `callee` with `operands` and returns its
    results. Unlike `func.call` the callee is known to be free of side
    effects, so unused calls are removed and identical calls are merged.
    The emitters use it to call the functions of a partitioned fusion
    (one tensor per fusion parameter, then one index per output dimension).

    ```mlir
    %v = xla.pure_call @fused_exp(%p0, %i, %j) : (tensor<8x16xf32>, index, index) -> f32
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
  let extraClassDeclaration = [{
    operand_range getArgOperands() { return getOperands(); }
    mlir::MutableOperandRange getArgOperandsMutable() { return getOperandsMutable(); }
    mlir::CallInterfaceCallable getCallableForCallee() { return getCalleeAttr(); }
    void setCalleeFromCallable(mlir::CallInterfaceCallable callee) {
      (*this)->setAttr(getCalleeAttrName(), llvm::cast<mlir::SymbolRefAttr>(callee));
    }
    // No argument or result attributes.
    mlir::ArrayAttr getArgAttrsAttr() { return nullptr; }
    mlir::ArrayAttr getResAttrsAttr() { return nullptr; }
    void setArgAttrsAttr(mlir::ArrayAttr) {}
    void setResAttrsAttr(mlir::ArrayAttr) {}
    mlir::Attribute removeArgAttrsAttr() { return nullptr; }
    mlir::Attribute removeResAttrsAttr() { return nullptr; }
  }];
}

//===----------------------------------------------------------------------===//
// Tensor element access
//===----------------------------------------------------------------------===//

def Xla_PredicatedInsertOp : Xla_Op<"predicated_insert", [
    Pure,
    TypesMatchWith<"result type matches type of dest", "dest", "result", "$_self">,
    TypesMatchWith<"value type matches element type of dest", "dest", "value",
                   "::llvm::cast<::mlir::TensorType>($_self).getElementType()">]> {
  let summary = "insert a value into a tensor if a condition holds";
  let description = [{
    `tensor.insert` under a condition: the result is `dest` with the element
    at `indices` replaced by `value` when `condition` is true, and `dest`
    unchanged otherwise. When false, the indices need not be in bounds.

    ```mlir
    %t1 = xla.predicated_insert %v into %t[%i, %j] if %in_bounds : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins I1:$condition, AnyType:$value,
                       AnyStaticShapeTensor:$dest, Variadic<Index>:$indices);
  let results = (outs AnyStaticShapeTensor:$result);
  let assemblyFormat = [{
    $value `into` $dest `[` $indices `]` `if` $condition attr-dict `:` type($dest)
  }];
  let hasVerifier = 1;
}

def Xla_PredicatedExtractOp : Xla_Op<"predicated_extract", [
    Pure,
    TypesMatchWith<"fallback type matches element type of src", "src", "fallback",
                   "::llvm::cast<::mlir::TensorType>($_self).getElementType()">,
    TypesMatchWith<"result type matches element type of src", "src", "result",
                   "::llvm::cast<::mlir::TensorType>($_self).getElementType()">]> {
  let summary = "extract a tensor element if a condition holds, else a fallback";
  let description = [{
    `tensor.extract` under a condition: the element of `src` at `indices`
    when `condition` is true, `fallback` otherwise (and then the indices need
    not be in bounds).

    ```mlir
    %v = xla.predicated_extract %t[%i, %j] if %in_bounds else %zero : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins I1:$condition, AnyType:$fallback,
                       AnyStaticShapeTensor:$src, Variadic<Index>:$indices);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $src `[` $indices `]` `if` $condition `else` $fallback attr-dict `:` type($src)
  }];
  let hasVerifier = 1;
}

def Xla_AtomicRMWOp : Xla_Op<"atomic_rmw", [
    Pure,
    TypesMatchWith<"result type matches type of input", "input", "result", "$_self">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "atomically read, modify and write an element of a tensor";
  let description = [{
    Reads the element of `input` at `indices`, computes its new value with
    the region and writes it back, atomically with respect to other threads
    updating the same element. The region's one argument is the current
    value; it yields the new one. The result is the updated tensor.

    The argument is either the element type or a rank-1 vector of it, which
    updates that many consecutive elements starting at `indices`.

    ```mlir
    %t1 = xla.atomic_rmw %t[%i] : tensor<8xf32> {
    ^bb0(%current: f32):
      %sum = arith.addf %current, %update : f32
      xla.yield %sum : f32
    }
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, Variadic<Index>:$indices);
  let results = (outs AnyRankedTensor:$result);
  let regions = (region SizedRegion<1>:$computation);
  let extraClassDeclaration = [{
    mlir::Block *getBody() { return &getComputation().front(); }
    /// The value stored in the tensor at `indices`, inside the region.
    mlir::BlockArgument getCurrentValue() { return getBody()->getArgument(0); }
  }];
  let assemblyFormat = [{
    $input `[` $indices `]` `:` type($input) $computation attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Workgroups and terminators
//===----------------------------------------------------------------------===//

def Xla_WorkGroupIdOp : Xla_Op<"workgroup_id", [
    Pure, DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "the id of the current workgroup along one dimension";
  let description = [{
    The index of the workgroup executing this code along `x`, `y` or `z`:
    the block id on GPUs, the work item id on CPUs. Emitters annotate it
    with `xla.range` when the launch grid is known.

    ```mlir
    %wg = xla.workgroup_id x {xla.range = [0 : index, 1023 : index]}
    ```
  }];
  let arguments = (ins Xla_WorkGroupDimensionAttr:$dimension);
  let results = (outs Index:$result);
  let assemblyFormat = "$dimension attr-dict";
}

def Xla_YieldOp : Xla_Op<"yield", [
    Pure, ReturnLike, Terminator,
    ParentOneOf<["::rxla::xla::LoopOp", "::rxla::xla::AtomicRMWOp"]>]> {
  let summary = "terminator of xla.loop and xla.atomic_rmw regions";
  let description = [{
    Yields the next loop-carried values of an `xla.loop` iteration, or the
    new element value of an `xla.atomic_rmw`.

    ```mlir
    xla.yield %next, %count : f32, index
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$results);
  let builders = [OpBuilder<(ins), [{ /* yields nothing */ }]>];
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}

#endif // RXLA_DIALECT_XLA_IR_XLAOPS_TD
