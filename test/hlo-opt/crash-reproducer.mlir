// When a pass fails, --mlir-pass-pipeline-crash-reproducer writes the
// module as it was before that pass and the pass, in mlir-opt's format;
// --run-reproducer runs it and fails the same way.
// RUN: not hlo-opt %s --passes=canonicalize,xla-lower-tensors --mlir-pass-pipeline-crash-reproducer=%t.mlir 2>&1 | FileCheck %s --check-prefix=NOTE
// RUN: FileCheck %s --check-prefix=REPRO < %t.mlir
// RUN: not hlo-opt %t.mlir --run-reproducer 2>&1 | FileCheck %s --check-prefix=AGAIN
// RUN: not hlo-opt %S/print-ir.mlir --run-reproducer 2>&1 | FileCheck %s --check-prefix=NOTREPRO

// NOTE: hlo-opt: note: wrote a reproducer of the failing pass 'xla-lower-tensors' to {{.*}} (run it with: hlo-opt {{.*}} --run-reproducer)
// NOTE: error: `vector.transfer_write` must access a flat tensor; run xla-flatten-tensors first

// REPRO:      func.func @not_flat
// REPRO:      vector.transfer_write
// REPRO:      {-#
// REPRO-NEXT:   external_resources: {
// REPRO-NEXT:     mlir_reproducer: {
// REPRO-NEXT:       pipeline: "builtin.module(xla-lower-tensors)",
// REPRO-NEXT:       disable_threading: true,
// REPRO-NEXT:       verify_each: true
// REPRO:      #-}

// AGAIN: error: `vector.transfer_write` must access a flat tensor; run xla-flatten-tensors first
// AGAIN-NOT: wrote a reproducer

// NOTREPRO: hlo-opt: error: {{.*}}print-ir.mlir: no `{-# external_resources: { mlir_reproducer: ... } #-}` block: not a reproducer
func.func @not_flat(%v: vector<8xf32>, %out: tensor<8x8xf32>, %i: index) -> tensor<8x8xf32> {
  %c0 = arith.constant 0 : index
  %w = vector.transfer_write %v, %out[%c0, %i] {in_bounds = [true]} : vector<8xf32>, tensor<8x8xf32>
  return %w : tensor<8x8xf32>
}
