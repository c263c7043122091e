// RUN: hlo-opt %s --split-input-file --passes=dot_decomposer | FileCheck %s

// Two contracting dims (listed as [2, 1]) and a batch dim that is not
// leading in the rhs: lhs -> [B, M, K], rhs -> [B, K, N], K flattened in
// the listed order; the precision config is kept. The result is reshaped
// even to its own shape, as XLA does (excess-precision reads it).
// CHECK-LABEL: func.func @multi_contracting
// CHECK-NEXT:    %[[LT:.*]] = hlo.transpose %arg0, dims = [0, 3, 2, 1] : (tensor<2x3x4x5xf32>) -> tensor<2x5x4x3xf32>
// CHECK-NEXT:    %[[L:.*]] = hlo.reshape %[[LT]] : (tensor<2x5x4x3xf32>) -> tensor<2x5x12xf32>
// CHECK-NEXT:    %[[RT:.*]] = hlo.transpose %arg1, dims = [1, 0, 3, 2] : (tensor<4x2x6x3xf32>) -> tensor<2x4x3x6xf32>
// CHECK-NEXT:    %[[R:.*]] = hlo.reshape %[[RT]] : (tensor<2x4x3x6xf32>) -> tensor<2x12x6xf32>
// CHECK-NEXT:    %[[D:.*]] = hlo.dot %[[L]], %[[R]] {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>, precision_config = [#hlo<precision HIGHEST>, #hlo<precision DEFAULT>]} : (tensor<2x5x12xf32>, tensor<2x12x6xf32>) -> tensor<2x5x6xf32>
// CHECK-NEXT:    %[[O:.*]] = hlo.reshape %[[D]] : (tensor<2x5x6xf32>) -> tensor<2x5x6xf32>
// CHECK-NEXT:    return %[[O]]
func.func @multi_contracting(%a: tensor<2x3x4x5xf32>, %b: tensor<4x2x6x3xf32>) -> tensor<2x5x6xf32> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [1], lhs_contracting_dims = [2, 1], rhs_contracting_dims = [0, 3]>, precision_config = [#hlo<precision HIGHEST>, #hlo<precision DEFAULT>]} : (tensor<2x3x4x5xf32>, tensor<4x2x6x3xf32>) -> tensor<2x5x6xf32>
  return %0 : tensor<2x5x6xf32>
}

// -----

// No contracting dim (an outer product): K = 1; mixed element types stay.
// CHECK-LABEL: func.func @outer
// CHECK-NEXT:    %[[L:.*]] = hlo.reshape %arg0 : (tensor<3xbf16>) -> tensor<3x1xbf16>
// CHECK-NEXT:    %[[R:.*]] = hlo.reshape %arg1 : (tensor<4xbf16>) -> tensor<1x4xbf16>
// CHECK-NEXT:    %[[D:.*]] = hlo.dot %[[L]], %[[R]] {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<3x1xbf16>, tensor<1x4xbf16>) -> tensor<3x4xf32>
// CHECK-NEXT:    %[[O:.*]] = hlo.reshape %[[D]] : (tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:    return %[[O]]
func.func @outer(%a: tensor<3xbf16>, %b: tensor<4xbf16>) -> tensor<3x4xf32> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<>} : (tensor<3xbf16>, tensor<4xbf16>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Two free rhs dims become one N; a lhs without free dims gets no M dim;
// the result is reshaped back.
// CHECK-LABEL: func.func @vector_matrix
// CHECK-NEXT:    %[[R:.*]] = hlo.reshape %arg1 : (tensor<3x4x5xf32>) -> tensor<3x20xf32>
// CHECK-NEXT:    %[[D:.*]] = hlo.dot %arg0, %[[R]] {{.*}} : (tensor<3xf32>, tensor<3x20xf32>) -> tensor<20xf32>
// CHECK-NEXT:    %[[O:.*]] = hlo.reshape %[[D]] : (tensor<20xf32>) -> tensor<4x5xf32>
// CHECK-NEXT:    return %[[O]]
func.func @vector_matrix(%a: tensor<3xf32>, %b: tensor<3x4x5xf32>) -> tensor<4x5xf32> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [0], rhs_contracting_dims = [0]>} : (tensor<3xf32>, tensor<3x4x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// A batch dim that is not leading: only the lhs is transposed; the layout
// goes to the final reshape.
// CHECK-LABEL: func.func @batch_not_leading
// CHECK-NEXT:    %[[L:.*]] = hlo.transpose %arg0, dims = [1, 0, 2] : (tensor<2x8x3xi8>) -> tensor<8x2x3xi8>
// CHECK-NEXT:    %[[D:.*]] = hlo.dot %[[L]], %arg1 {{.*}} : (tensor<8x2x3xi8>, tensor<8x3x4xi8>) -> tensor<8x2x4xi32>
// CHECK-NEXT:    %[[O:.*]] = hlo.reshape %[[D]] {hlo.layout = #hlo.layout<minor_to_major = [1, 2, 0]>} : (tensor<8x2x4xi32>) -> tensor<8x2x4xi32>
// CHECK-NEXT:    return %[[O]]
func.func @batch_not_leading(%a: tensor<2x8x3xi8>, %b: tensor<8x3x4xi8>) -> tensor<8x2x4xi32> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [1], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>, hlo.layout = #hlo.layout<minor_to_major = [1, 2, 0]>} : (tensor<2x8x3xi8>, tensor<8x3x4xi8>) -> tensor<8x2x4xi32>
  return %0 : tensor<8x2x4xi32>
}

// -----

// Canonical already ([K, M] x [N, K] counts as canonical, as in XLA):
// unchanged.
// CHECK-LABEL: func.func @canonical
// CHECK-NEXT:    hlo.dot %arg0, %arg1 {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>}
// CHECK-NEXT:    hlo.dot %arg2, %arg3 {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [0], rhs_contracting_dims = [1]>}
// CHECK-NEXT:    return
func.func @canonical(%a: tensor<8x2x3xf32>, %b: tensor<8x3x4xf32>, %c: tensor<3x2xf32>, %d: tensor<4x3xf32>) -> (tensor<8x2x4xf32>, tensor<2x4xf32>) {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>} : (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<8x2x4xf32>
  %1 = hlo.dot %c, %d {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [0], rhs_contracting_dims = [1]>} : (tensor<3x2xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  return %0, %1 : tensor<8x2x4xf32>, tensor<2x4xf32>
}
