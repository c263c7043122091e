// Fusions as XLA's HLO text, and the interpreter's results before and after
// fusion (bit-identical: fusion does not change any arithmetic).
// RUN: hlo-opt %s --passes=priority-fusion,multi-output-fusion --emit=hlo | FileCheck %s
// RUN: hlo-opt %s --passes=priority-fusion,multi-output-fusion -o %t.fused.mlir
// RUN: hlo-run %s --random-inputs --print-literals > %t.ref
// RUN: hlo-run %t.fused.mlir --random-inputs --print-literals > %t.out
// RUN: diff %t.ref %t.out
// The fused module goes through HLO text and back unchanged in meaning.
// RUN: hlo-opt %t.fused.mlir --emit=hlo > %t.hlo
// RUN: hlo-run %t.hlo --random-inputs --print-literals > %t.out2
// RUN: diff %t.ref %t.out2

// A softmax: three kernels. The exp feeds the sum's input fusion, which
// also outputs it (a multi-output fusion: a tuple root in HLO, read back
// through get-tuple-element), and the divide reads it.
// CHECK:       ENTRY %softmax
// CHECK:         %[[M:.*]] = f32[32]{0} fusion(%{{.*}}), kind=kInput, calls=%[[CM:.*]]
// CHECK:         %[[S:.*]] = (f32[32]{0}, f32[32,100]{1,0}) fusion(%{{.*}}, %[[M]]), kind=kInput, calls=%[[CS:.*]]
// CHECK-DAG:     %[[S0:.*]] = f32[32]{0} get-tuple-element(%[[S]]), index=0
// CHECK-DAG:     %[[S1:.*]] = f32[32,100]{1,0} get-tuple-element(%[[S]]), index=1
// CHECK:         ROOT %{{.*}} = f32[32,100]{1,0} fusion(%[[S1]], %[[S0]]), kind=kLoop, calls=
// CHECK:       %[[CS]] (
// CHECK:         exponential(
// CHECK:         reduce(
// CHECK:         ROOT %{{.*}} = (f32[32]{0}, f32[32,100]{1,0}) tuple(
func.func private @add(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @max(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.maximum %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func @softmax(%x: tensor<32x100xf32>) -> tensor<32x100xf32> attributes {hlo.entry} {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %m = hlo.reduce %x, %ninf {dimensions = array<i64: 1>, to_apply = @max} : (tensor<32x100xf32>, tensor<f32>) -> tensor<32xf32>
  %mb = hlo.broadcast %m, dims = [0] : (tensor<32xf32>) -> tensor<32x100xf32>
  %d = hlo.subtract %x, %mb : tensor<32x100xf32>
  %e = hlo.exponential %d : tensor<32x100xf32>
  %s = hlo.reduce %e, %zero {dimensions = array<i64: 1>, to_apply = @add} : (tensor<32x100xf32>, tensor<f32>) -> tensor<32xf32>
  %sb = hlo.broadcast %s, dims = [0] : (tensor<32xf32>) -> tensor<32x100xf32>
  %r = hlo.divide %e, %sb : tensor<32x100xf32>
  return %r : tensor<32x100xf32>
}
