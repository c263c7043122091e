// RUN: hlo-opt %s --split-input-file --passes=dot-strength-reduction | FileCheck %s

// A batch of outer products: broadcasts of both operands and a multiply.
// CHECK-LABEL: func.func @outer
// CHECK-NEXT:    %[[L:.*]] = hlo.broadcast %arg0, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x8xf32>
// CHECK-NEXT:    %[[R:.*]] = hlo.broadcast %arg1, dims = [0, 1, 3] : (tensor<2x4x8xf32>) -> tensor<2x4x16x8xf32>
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %[[L]], %[[R]] : tensor<2x4x16x8xf32>
// CHECK-NEXT:    return %[[M]]
func.func @outer(%a: tensor<2x4x16xf32>, %b: tensor<2x4x8xf32>) -> tensor<2x4x16x8xf32> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0, 1], rhs_batch_dims = [0, 1]>} : (tensor<2x4x16xf32>, tensor<2x4x8xf32>) -> tensor<2x4x16x8xf32>
  return %0 : tensor<2x4x16x8xf32>
}

// -----

// Dots of vectors (batch and contracting dims only): a multiply of the
// operands, arranged as [batch, contracting], and a sum over the
// contracting dims. bf16 operands with an f32 result are converted first.
// CHECK-LABEL: func.func @vectors
// CHECK-NEXT:    %[[A:.*]] = hlo.convert %arg0 : (tensor<16x4xbf16>) -> tensor<16x4xf32>
// CHECK-NEXT:    %[[B:.*]] = hlo.convert %arg1 : (tensor<4x16xbf16>) -> tensor<4x16xf32>
// CHECK-NEXT:    %[[T:.*]] = hlo.transpose %[[A]], dims = [1, 0] : (tensor<16x4xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %[[T]], %[[B]] : tensor<4x16xf32>
// CHECK-NEXT:    %[[Z:.*]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[S:.*]] = hlo.reduce %[[M]], %[[Z]] {dimensions = array<i64: 1>, to_apply = @add_f32_reducer} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    return %[[S]]
// CHECK:       func.func private @add_f32_reducer(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>) -> tensor<f32>
func.func @vectors(%a: tensor<16x4xbf16>, %b: tensor<4x16xbf16>) -> tensor<4xf32> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [1], rhs_batch_dims = [0], lhs_contracting_dims = [0], rhs_contracting_dims = [1]>} : (tensor<16x4xbf16>, tensor<4x16xbf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Matrix products, matrix-vector products included, stay dots.
// CHECK-LABEL: func.func @kept
// CHECK-NEXT:    hlo.dot %arg0, %arg1
// CHECK-NEXT:    hlo.dot %arg0, %arg2
// CHECK-NEXT:    return
func.func @kept(%m: tensor<8x8xf32>, %n: tensor<8x8xf32>, %v: tensor<8xf32>) -> (tensor<8x8xf32>, tensor<8xf32>) {
  %0 = hlo.dot %m, %n {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = hlo.dot %m, %v {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<8x8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<8xf32>
}
