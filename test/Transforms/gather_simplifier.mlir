// RUN: hlo-opt %s --split-input-file --passes=gather_simplifier | FileCheck %s

// jnp.take along axis 1: implicit index vector dim, a collapsed dim and an
// offset dim before the batch dims. Indices become [N, 1], the gather
// [N, 3, 1]; the collapsed dim goes and the batch dims come back with one
// reshape, the offset dim moves to the front with a transpose.
// CHECK-LABEL: func.func @take_axis1
// CHECK-NEXT:    %[[I:.*]] = hlo.reshape %arg1 : (tensor<2x5xi32>) -> tensor<10x1xi32>
// CHECK-NEXT:    %[[G:.*]] = hlo.gather %arg0, %[[I]] {dimension_numbers = #hlo.gather<offset_dims = [1, 2], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 3, 1>} : (tensor<3x4xf32>, tensor<10x1xi32>) -> tensor<10x3x1xf32>
// CHECK-NEXT:    %[[R:.*]] = hlo.reshape %[[G]] : (tensor<10x3x1xf32>) -> tensor<2x5x3xf32>
// CHECK-NEXT:    %[[T:.*]] = hlo.transpose %[[R]], dims = [2, 0, 1] : (tensor<2x5x3xf32>) -> tensor<3x2x5xf32>
// CHECK-NEXT:    return %[[T]]
func.func @take_axis1(%x: tensor<3x4xf32>, %idx: tensor<2x5xi32>) -> tensor<3x2x5xf32> {
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 3, 1>} : (tensor<3x4xf32>, tensor<2x5xi32>) -> tensor<3x2x5xf32>
  return %0 : tensor<3x2x5xf32>
}

// -----

// Batching dims: an iota along the indices batching dim is concatenated in
// front of the index vectors, the operand batching dim is prepended to
// start_index_map and collapsed.
// CHECK-LABEL: func.func @batched
// CHECK-NEXT:    %[[IOTA:.*]] = hlo.iota dim = 1 : tensor<2x2x3x1xi64>
// CHECK-NEXT:    %[[CAT:.*]] = hlo.concatenate(%[[IOTA]], %arg1), dim = 3 : (tensor<2x2x3x1xi64>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x3xi64>
// CHECK-NEXT:    %[[I:.*]] = hlo.reshape %[[CAT]] : (tensor<2x2x3x3xi64>) -> tensor<12x3xi64>
// CHECK-NEXT:    %[[G:.*]] = hlo.gather %arg0, %[[I]] {dimension_numbers = #hlo.gather<offset_dims = [1, 2, 3, 4], start_index_map = [0, 2, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1, 2, 2>} : (tensor<2x3x4x2xi32>, tensor<12x3xi64>) -> tensor<12x1x1x2x2xi32>
// CHECK-NEXT:    %[[R:.*]] = hlo.reshape %[[G]] : (tensor<12x1x1x2x2xi32>) -> tensor<2x2x3x2x2xi32>
// CHECK-NEXT:    return %[[R]]
func.func @batched(%x: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32> {
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} : (tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32>
  return %0 : tensor<2x2x3x2x2xi32>
}

// -----

// A batch of 300 does not fit u8 indices: they are converted to s32 first.
// CHECK-LABEL: func.func @wide_batch
// CHECK-NEXT:    %[[C:.*]] = hlo.convert %arg1 : (tensor<300x1xui8>) -> tensor<300x1xi32>
// CHECK-NEXT:    %[[IOTA:.*]] = hlo.iota dim = 0 : tensor<300x1xi32>
// CHECK-NEXT:    %[[CAT:.*]] = hlo.concatenate(%[[IOTA]], %[[C]]), dim = 1
// CHECK-NEXT:    hlo.gather %arg0, %[[CAT]] {dimension_numbers = #hlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>
func.func @wide_batch(%x: tensor<300x5xf32>, %idx: tensor<300x1xui8>) -> tensor<300xf32> {
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>} : (tensor<300x5xf32>, tensor<300x1xui8>) -> tensor<300xf32>
  return %0 : tensor<300xf32>
}

// -----

// A scalar index (no batch dims): [1, 1] indices, the leading dim of 1 is
// removed again; indices_are_sorted is kept.
// CHECK-LABEL: func.func @scalar_index
// CHECK-NEXT:    %[[I:.*]] = hlo.reshape %arg1 : (tensor<i32>) -> tensor<1x1xi32>
// CHECK-NEXT:    %[[G:.*]] = hlo.gather %arg0, %[[I]] {{.*}}indices_are_sorted = true{{.*}} -> tensor<1x1x3xf32>
// CHECK-NEXT:    %[[R:.*]] = hlo.reshape %[[G]] : (tensor<1x1x3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    return %[[R]]
func.func @scalar_index(%x: tensor<7x3xf32>, %i: tensor<i32>) -> tensor<3xf32> {
  %0 = hlo.gather %x, %i {dimension_numbers = #hlo.gather<offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 0>, slice_sizes = array<i64: 1, 3>, indices_are_sorted = true} : (tensor<7x3xf32>, tensor<i32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// A zero slice size: the result is empty, a broadcast zero.
// CHECK-LABEL: func.func @zero_slice
// CHECK-NEXT:    %[[Z:.*]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[B:.*]] = hlo.broadcast %[[Z]], dims = [] : (tensor<f32>) -> tensor<4x0xf32>
// CHECK-NEXT:    return %[[B]]
func.func @zero_slice(%x: tensor<7x3xf32>, %idx: tensor<4x1xi32>) -> tensor<4x0xf32> {
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 0>} : (tensor<7x3xf32>, tensor<4x1xi32>) -> tensor<4x0xf32>
  return %0 : tensor<4x0xf32>
}

// -----

// Already simplified (start_index_map need not be the identity): unchanged.
// CHECK-LABEL: func.func @simplified
// CHECK-NEXT:    hlo.gather %arg0, %arg1 {dimension_numbers = #hlo.gather<offset_dims = [1, 2], start_index_map = [1, 0], index_vector_dim = 1>, slice_sizes = array<i64: 8, 6>}
// CHECK-NEXT:    return
func.func @simplified(%x: tensor<16x11xf32>, %idx: tensor<5x2xi32>) -> tensor<5x8x6xf32> {
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1, 2], start_index_map = [1, 0], index_vector_dim = 1>, slice_sizes = array<i64: 8, 6>} : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x6xf32>
  return %0 : tensor<5x8x6xf32>
}
