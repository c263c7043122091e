// RUN: hlo-opt %s --split-input-file --passes=fusion-wrapper | FileCheck %s

// Ops that need a kernel become single-op fusions (reductions as kInput);
// parameters, constants, bitcasts, reshapes, dots, tuples, existing
// fusions and ops in reducers (embedded computations) are left alone.
// CHECK-LABEL: func.func @main
// CHECK: %[[E:.*]] = hlo.fusion kLoop @wrapped_exponential.{{[0-9]+}}(%arg0)
// CHECK: hlo.fusion kInput @wrapped_reduce.{{[0-9]+}}(%[[E]], %{{.*}})
// CHECK: hlo.dot
// CHECK: hlo.reshape
// CHECK-NOT: hlo.fusion
// CHECK: return
// The reducer is not sequential code: its add stays an add.
// CHECK: func.func private @sum
// CHECK-NEXT: hlo.add
// CHECK: func.func private @wrapped_exponential.{{[0-9]+}}(%[[A:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[X:.*]] = hlo.exponential %[[A]] : tensor<4x8xf32>
// CHECK-NEXT: return %[[X]]
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> (tensor<4xf32>, tensor<4x2xf32>, tensor<32xf32>) attributes {hlo.entry} {
  %e = hlo.exponential %a : tensor<4x8xf32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce %e, %z {dimensions = array<i64: 1>, to_apply = @sum} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %d = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  %s = hlo.reshape %a : (tensor<4x8xf32>) -> tensor<32xf32>
  return %r, %d, %s : tensor<4xf32>, tensor<4x2xf32>, tensor<32xf32>
}
func.func private @sum(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
