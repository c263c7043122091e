//===- XlaGpuOps.td - the xla_gpu emitter dialect operations --*- tablegen -*-===//
//
// The GPU ops XLA's loop, transpose and reduction emitters produce, with
// XLA's names and syntax (xla/backends/gpu/codegen/emitters/ir/xla_gpu_ops.td).
//
//===----------------------------------------------------------------------===//

#ifndef RXLA_DIALECT_XLAGPU_IR_XLAGPUOPS_TD
#define RXLA_DIALECT_XLAGPU_IR_XLAGPUOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rxla/Dialect/XlaGpu/IR/XlaGpuBase.td"

class XlaGpu_Op<string mnemonic, list<Trait> traits = []>
    : Op<XlaGpu_Dialect, mnemonic, traits>;

def XlaGpu_AllocateSharedOp : XlaGpu_Op<"allocate_shared", [
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "allocate a tensor in shared memory";
  let description = [{
    Allocates a tensor in the shared memory of the thread block; all threads
    of the block see the same tensor. Its contents are undefined until
    written. Every op allocates a distinct tensor (allocations are never
    merged); an unused allocation is removed.

    ```mlir
    %shmem = xla_gpu.allocate_shared : tensor<32x33xf32>
    ```
  }];
  let results = (outs Res<AnyStaticShapeTensor, "", [MemAlloc]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def XlaGpu_SyncThreadsOp : XlaGpu_Op<"sync_threads", [
    MemoryEffects<[MemRead, MemWrite]>, ParamNativeOpTrait<"AtLeastNOperands", "1">,
    TypesMatchWith<"result types match operand types", "operands", "results", "$_self">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "block-wide barrier, threading shared tensors through it";
  let description = [{
    Waits until every thread of the block has reached the barrier
    (`__syncthreads`). The operands are the (shared memory) tensors written
    before the barrier; the results are the same tensors as every thread
    sees them after it, and reads that must observe all threads' writes use
    the results. The op is never removed or reordered. It takes at least
    one tensor (a barrier without data is `gpu.barrier`).

    ```mlir
    %synced:2 = xla_gpu.sync_threads %tile0, %tile1 : tensor<32x33xf32>, tensor<32x33xi32>
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$operands);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = "$operands attr-dict `:` type($operands)";
}

def XlaGpu_ShuffleReduceOp : XlaGpu_Op<"shuffle_reduce", [
    Pure, CallOpInterface, DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    TypesMatchWith<"result types match operand types", "operands", "results", "$_self">]> {
  let summary = "reduce values across a warp with shuffles and a combiner";
  let description = [{
    A butterfly reduction across the lanes of a warp: for distance
    `max_distance`, `max_distance / 2`, ..., 1, every lane receives the
    values of the lane `distance` above it (`shuffle down`) and combines
    them with its own by calling `combiner` with its own values followed by
    the received ones. After the last step, lane 0 holds the reduction of
    the values of lanes `0 .. 2 * max_distance - 1` (the whole warp when
    `max_distance` is half the warp size); other lanes hold partial results.

    The combiner is a `func.func` taking the N accumulator values then the N
    received values and returning N values of the operand types;
    `max_distance` is a power of two.

    ```mlir
    func.func @argmax(%v0: f32, %i0: i32, %v1: f32, %i1: i32) -> (f32, i32)
    %max:2 = xla_gpu.shuffle_reduce(%value, %index) to 16 combiner=@argmax : f32, i32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operands,
                       I64Attr:$max_distance,
                       FlatSymbolRefAttr:$combiner);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    `(` $operands `)` `to` $max_distance `combiner` `` `=` `` $combiner attr-dict
    `:` type($operands)
  }];
  let extraClassDeclaration = [{
    operand_range getArgOperands() { return getOperands(); }
    mlir::MutableOperandRange getArgOperandsMutable() { return getOperandsMutable(); }
    mlir::CallInterfaceCallable getCallableForCallee() { return getCombinerAttr(); }
    void setCalleeFromCallable(mlir::CallInterfaceCallable callee) {
      (*this)->setAttr(getCombinerAttrName(), llvm::cast<mlir::SymbolRefAttr>(callee));
    }
    // No argument or result attributes.
    mlir::ArrayAttr getArgAttrsAttr() { return nullptr; }
    mlir::ArrayAttr getResAttrsAttr() { return nullptr; }
    void setArgAttrsAttr(mlir::ArrayAttr) {}
    void setResAttrsAttr(mlir::ArrayAttr) {}
    mlir::Attribute removeArgAttrsAttr() { return nullptr; }
    mlir::Attribute removeResAttrsAttr() { return nullptr; }
  }];
  let hasVerifier = 1;
}

#endif // RXLA_DIALECT_XLAGPU_IR_XLAGPUOPS_TD
