// RUN: hlo-opt %s --split-input-file --passes=scatter_simplifier | FileCheck %s

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// Row scatter: the inserted window dim becomes a size-1 dim of the updates.
// CHECK-LABEL: func.func @rows
// CHECK-NEXT:    %[[U:.*]] = hlo.reshape %arg2 : (tensor<3x4xf32>) -> tensor<3x1x4xf32>
// CHECK-NEXT:    %[[S:.*]] = hlo.scatter %arg0, %arg1, %[[U]] {dimension_numbers = #hlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @sum} : (tensor<5x4xf32>, tensor<3x1xi32>, tensor<3x1x4xf32>) -> tensor<5x4xf32>
// CHECK-NEXT:    return %[[S]]
func.func @rows(%x: tensor<5x4xf32>, %idx: tensor<3x1xi32>, %upd: tensor<3x4xf32>) -> tensor<5x4xf32> {
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @sum} : (tensor<5x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// Two scatter dims after the window dim: the updates are transposed so the
// scatter dims lead, then flattened with them into N = 6.
// CHECK-LABEL: func.func @window_first
// CHECK-NEXT:    %[[I:.*]] = hlo.reshape %arg1 : (tensor<2x3xi32>) -> tensor<6x1xi32>
// CHECK-NEXT:    %[[T:.*]] = hlo.transpose %arg2, dims = [1, 2, 0] : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    %[[U:.*]] = hlo.reshape %[[T]] : (tensor<2x3x4xf32>) -> tensor<6x1x4xf32>
// CHECK-NEXT:    %[[S:.*]] = hlo.scatter %arg0, %[[I]], %[[U]] {dimension_numbers = #hlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = true, to_apply = @sum}
// CHECK-NEXT:    return %[[S]]
func.func @window_first(%x: tensor<5x4xf32>, %idx: tensor<2x3xi32>, %upd: tensor<4x2x3xf32>) -> tensor<5x4xf32> {
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [0], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, to_apply = @sum, indices_are_sorted = true} : (tensor<5x4xf32>, tensor<2x3xi32>, tensor<4x2x3xf32>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// Batching dims: iota indices for the batch, the input batching dim joins
// the inserted dims; unique_indices is kept.
// CHECK-LABEL: func.func @batched
// CHECK-NEXT:    %[[IOTA:.*]] = hlo.iota dim = 1 : tensor<2x2x3x1xi64>
// CHECK-NEXT:    %[[CAT:.*]] = hlo.concatenate(%[[IOTA]], %arg1), dim = 3
// CHECK-NEXT:    %[[I:.*]] = hlo.reshape %[[CAT]] : (tensor<2x2x3x3xi64>) -> tensor<12x3xi64>
// CHECK-NEXT:    %[[U:.*]] = hlo.reshape %arg2 : (tensor<2x2x3x1x2xf32>) -> tensor<12x1x1x1x2xf32>
// CHECK-NEXT:    hlo.scatter %arg0, %[[I]], %[[U]] {dimension_numbers = #hlo.scatter<update_window_dims = [1, 2, 3, 4], scatter_dims_to_operand_dims = [0, 2, 1], index_vector_dim = 1>, to_apply = @sum, unique_indices = true}
func.func @batched(%x: tensor<2x3x4x2xf32>, %idx: tensor<2x2x3x2xi64>, %upd: tensor<2x2x3x1x2xf32>) -> tensor<2x3x4x2xf32> {
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>, to_apply = @sum, unique_indices = true} : (tensor<2x3x4x2xf32>, tensor<2x2x3x2xi64>, tensor<2x2x3x1x2xf32>) -> tensor<2x3x4x2xf32>
  return %0 : tensor<2x3x4x2xf32>
}

// -----

func.func @pair(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  %0 = hlo.maximum %a, %c : tensor<f32>
  %1 = hlo.add %b, %d : tensor<i32>
  return %0, %1 : tensor<f32>, tensor<i32>
}

// Variadic: every update is rewritten the same way.
// CHECK-LABEL: func.func @variadic
// CHECK-NEXT:    %[[I:.*]] = hlo.reshape %arg2 : (tensor<4xi32>) -> tensor<4x1xi32>
// CHECK-NEXT:    %[[U:.*]] = hlo.reshape %arg3 : (tensor<4xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:    %[[V:.*]] = hlo.reshape %arg4 : (tensor<4xi32>) -> tensor<4x1xi32>
// CHECK-NEXT:    %[[S:.*]]:2 = hlo.scatter %arg0, %arg1, %[[I]], %[[U]], %[[V]] {dimension_numbers = #hlo.scatter<update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @pair}
// CHECK-NEXT:    return %[[S]]#0, %[[S]]#1
func.func @variadic(%x: tensor<6xf32>, %y: tensor<6xi32>, %idx: tensor<4xi32>, %u: tensor<4xf32>, %v: tensor<4xi32>) -> (tensor<6xf32>, tensor<6xi32>) {
  %0:2 = hlo.scatter %x, %y, %idx, %u, %v {dimension_numbers = #hlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @pair} : (tensor<6xf32>, tensor<6xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi32>) -> (tensor<6xf32>, tensor<6xi32>)
  return %0#0, %0#1 : tensor<6xf32>, tensor<6xi32>
}

// -----

func.func @mul(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.multiply %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// A scatter into a scalar applies the combiner once: its body is inlined.
// CHECK-LABEL: func.func @scalar
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %arg0, %arg2 : tensor<f32>
// CHECK-NEXT:    return %[[M]]
func.func @scalar(%x: tensor<f32>, %idx: tensor<0xi32>, %u: tensor<f32>) -> tensor<f32> {
  %0 = hlo.scatter %x, %idx, %u {dimension_numbers = #hlo.scatter<index_vector_dim = 0>, to_apply = @mul} : (tensor<f32>, tensor<0xi32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// Already simplified: unchanged.
// CHECK-LABEL: func.func @simplified
// CHECK-NEXT:    hlo.scatter %arg0, %arg1, %arg2 {dimension_numbers = #hlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 1>, to_apply = @sum}
// CHECK-NEXT:    return
func.func @simplified(%x: tensor<5x4xf32>, %idx: tensor<3x2xi32>, %upd: tensor<3x2x2xf32>) -> tensor<5x4xf32> {
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 1>, to_apply = @sum} : (tensor<5x4xf32>, tensor<3x2xi32>, tensor<3x2x2xf32>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}
