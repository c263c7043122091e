// RUN: hlo-opt %s --split-input-file --passes=algsimp | FileCheck %s

// A transposed lhs is contracted directly: the transpose goes into the
// dimension numbers (the free dim keeps its place).
// CHECK-LABEL: func.func @transposed_lhs
// CHECK-NEXT:    %[[D:.*]] = hlo.dot %arg0, %arg1 {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [0], rhs_contracting_dims = [0]>} : (tensor<4x3xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT:    return %[[D]]
func.func @transposed_lhs(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %t = hlo.transpose %a, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %0 = hlo.dot %t, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// Batch and contracting dims of a transposed rhs, precision config kept.
// CHECK-LABEL: func.func @transposed_rhs_batch
// CHECK-NEXT:    %[[D:.*]] = hlo.dot %arg0, %arg1 {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [1], lhs_contracting_dims = [2], rhs_contracting_dims = [2]>, precision_config = [#hlo<precision HIGHEST>, #hlo<precision DEFAULT>]} : (tensor<2x3x4xf32>, tensor<5x2x4xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT:    return %[[D]]
func.func @transposed_rhs_batch(%a: tensor<2x3x4xf32>, %b: tensor<5x2x4xf32>) -> tensor<2x3x5xf32> {
  %t = hlo.transpose %b, dims = [1, 2, 0] : (tensor<5x2x4xf32>) -> tensor<2x4x5xf32>
  %0 = hlo.dot %a, %t {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>, precision_config = [#hlo<precision HIGHEST>, #hlo<precision DEFAULT>]} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// A transpose that reorders the lhs free dims would change the result's
// dim order: it stays.
// CHECK-LABEL: func.func @transpose_reordering_free_dims
// CHECK:         hlo.transpose
// CHECK:         hlo.dot
func.func @transpose_reordering_free_dims(%a: tensor<3x2x4xf32>, %b: tensor<4x5xf32>) -> tensor<2x3x5xf32> {
  %t = hlo.transpose %a, dims = [1, 0, 2] : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %0 = hlo.dot %t, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [2], rhs_contracting_dims = [0]>} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// Size-1 dims are dropped: a matrix-vector product, and an outer product
// (size-1 contraction) that stays a dot (not a multiply: the dot starts
// from +0 and does not flush subnormals).
// CHECK-LABEL: func.func @degenerate_dims
// CHECK:         %[[B:.*]] = hlo.reshape %arg1 : (tensor<3x1xf32>) -> tensor<3xf32>
// CHECK:         %[[D:.*]] = hlo.dot %arg0, %[[B]] {{.*}} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4xf32>
// CHECK:         %[[R:.*]] = hlo.reshape %[[D]] : (tensor<4xf32>) -> tensor<4x1xf32>
// CHECK:         %[[L:.*]] = hlo.reshape %arg2 : (tensor<4x1xf32>) -> tensor<4xf32>
// CHECK:         %[[M:.*]] = hlo.reshape %arg3 : (tensor<1x5xf32>) -> tensor<5xf32>
// CHECK:         %[[O:.*]] = hlo.dot %[[L]], %[[M]] {dot_dimension_numbers = #hlo.dot<>} : (tensor<4xf32>, tensor<5xf32>) -> tensor<4x5xf32>
// CHECK-NOT:     hlo.multiply
// CHECK:         return %[[R]], %[[O]]
func.func @degenerate_dims(%a: tensor<4x3xf32>, %b: tensor<3x1xf32>, %c: tensor<4x1xf32>, %d: tensor<1x5xf32>) -> (tensor<4x1xf32>, tensor<4x5xf32>) {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<4x3xf32>, tensor<3x1xf32>) -> tensor<4x1xf32>
  %1 = hlo.dot %c, %d {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<4x1xf32>, tensor<1x5xf32>) -> tensor<4x5xf32>
  return %0, %1 : tensor<4x1xf32>, tensor<4x5xf32>
}

// -----

// A contraction over no elements is zeros.
// CHECK-LABEL: func.func @empty_contraction
// CHECK-NOT:     hlo.dot
// CHECK:         %[[Z:.*]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK:         %[[B:.*]] = hlo.broadcast %[[Z]], dims = [] : (tensor<f32>) -> tensor<4x5xf32>
// CHECK:         return %[[B]]
func.func @empty_contraction(%a: tensor<4x0xf32>, %b: tensor<0x5xf32>) -> tensor<4x5xf32> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<4x0xf32>, tensor<0x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// A plain matmul stays.
// CHECK-LABEL: func.func @matmul
// CHECK-NEXT:    hlo.dot %arg0, %arg1
func.func @matmul(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// A transpose of a dot that puts the rhs free dims first is the dot with
// its operands swapped (XLA's transpose-of-dot), precisions swapped too.
// CHECK-LABEL: func.func @transpose_of_dot
// CHECK-NEXT:    %[[D:.*]] = hlo.dot %arg1, %arg0 {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [0], rhs_contracting_dims = [1]>, precision_config = [#hlo<precision DEFAULT>, #hlo<precision HIGHEST>]} : (tensor<3x5xf32>, tensor<4x3xf32>) -> tensor<5x4xf32>
// CHECK-NEXT:    return %[[D]]
func.func @transpose_of_dot(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<5x4xf32> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>, precision_config = [#hlo<precision HIGHEST>, #hlo<precision DEFAULT>]} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %1 = hlo.transpose %0, dims = [1, 0] : (tensor<4x5xf32>) -> tensor<5x4xf32>
  return %1 : tensor<5x4xf32>
}

// -----

// Batch dims stay in front; several free dims on each side move as blocks.
// CHECK-LABEL: func.func @transpose_of_batch_dot
// CHECK-NEXT:    %[[D:.*]] = hlo.dot %arg1, %arg0 {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [1], rhs_batch_dims = [0], lhs_contracting_dims = [0], rhs_contracting_dims = [3]>} : (tensor<4x2x5xf32>, tensor<2x6x7x4xf32>) -> tensor<2x5x6x7xf32>
// CHECK-NEXT:    return %[[D]]
func.func @transpose_of_batch_dot(%a: tensor<2x6x7x4xf32>, %b: tensor<4x2x5xf32>) -> tensor<2x5x6x7xf32> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [1], lhs_contracting_dims = [3], rhs_contracting_dims = [0]>} : (tensor<2x6x7x4xf32>, tensor<4x2x5xf32>) -> tensor<2x6x7x5xf32>
  %1 = hlo.transpose %0, dims = [0, 3, 1, 2] : (tensor<2x6x7x5xf32>) -> tensor<2x5x6x7xf32>
  return %1 : tensor<2x5x6x7xf32>
}

// -----

// A dot with another user stays (it would be computed twice), and so does
// a transpose that reorders the free dims of one side.
// CHECK-LABEL: func.func @transpose_of_dot_kept
// CHECK:         %[[D:.*]] = hlo.dot %arg0, %arg1
// CHECK:         hlo.transpose %[[D]], dims = [1, 0]
// CHECK:         %[[E:.*]] = hlo.dot %arg2, %arg1
// CHECK:         hlo.transpose %[[E]], dims = [1, 0, 2]
func.func @transpose_of_dot_kept(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>, %c: tensor<2x4x3xf32>) -> (tensor<4x5xf32>, tensor<5x4xf32>, tensor<4x2x5xf32>) {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %1 = hlo.transpose %0, dims = [1, 0] : (tensor<4x5xf32>) -> tensor<5x4xf32>
  %2 = hlo.dot %c, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [2], rhs_contracting_dims = [0]>} : (tensor<2x4x3xf32>, tensor<3x5xf32>) -> tensor<2x4x5xf32>
  %3 = hlo.transpose %2, dims = [1, 0, 2] : (tensor<2x4x5xf32>) -> tensor<4x2x5xf32>
  return %0, %1, %3 : tensor<4x5xf32>, tensor<5x4xf32>, tensor<4x2x5xf32>
}
