//===- XlaGpuBase.td - the xla_gpu emitter dialect ------------*- tablegen -*-===//
//
// `xla_gpu` holds the GPU-specific ops of XLA's emitters: shared memory,
// block-level barriers and warp shuffle reductions, used by the transpose
// and reduction emitters next to the target-independent `xla` ops.
//
//===----------------------------------------------------------------------===//

#ifndef RXLA_DIALECT_XLAGPU_IR_XLAGPUBASE_TD
#define RXLA_DIALECT_XLAGPU_IR_XLAGPUBASE_TD

include "mlir/IR/OpBase.td"

def XlaGpu_Dialect : Dialect {
  let name = "xla_gpu";
  let cppNamespace = "::rxla::xla_gpu";
  let summary = "XLA's GPU emitter ops";
  let description = [{
    The GPU-specific ops of XLA's emitters. The transpose emitter stages a
    tile in shared memory (`xla_gpu.allocate_shared`), writes it in one
    `xla.loop`, waits for the whole block (`xla_gpu.sync_threads`) and reads
    it transposed in a second loop. The reduction emitter reduces within a
    warp with `xla_gpu.shuffle_reduce`, across warps through shared memory.

    Shared memory is modelled as tensors with value semantics: writes
    produce new tensor values, and `sync_threads` threads the tensors
    written before the barrier to the reads after it, so the dependence is
    explicit in the IR.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // RXLA_DIALECT_XLAGPU_IR_XLAGPUBASE_TD
