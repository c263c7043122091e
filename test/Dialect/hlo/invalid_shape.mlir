// RUN: hlo-opt %s --split-input-file --verify-diagnostics

// Invalid shape and data-movement ops: one case per verifier message (and at
// least one per op).

func.func @broadcast_dims_size(%x: tensor<3xf32>) {
  // expected-error @+1 {{'hlo.broadcast' op dimensions has 2 entries but the operand has rank 1}}
  %0 = hlo.broadcast %x, dims = [0, 1] : (tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @broadcast_dim_out_of_range(%x: tensor<3xf32>) {
  // expected-error @+1 {{'hlo.broadcast' op dimensions contains dimension 2, out of range for rank 2}}
  %0 = hlo.broadcast %x, dims = [2] : (tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @broadcast_dim_twice(%x: tensor<3x3xf32>) {
  // expected-error @+1 {{'hlo.broadcast' op dimensions contains dimension 1 twice}}
  %0 = hlo.broadcast %x, dims = [1, 1] : (tensor<3x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @broadcast_size(%x: tensor<3xf32>) {
  // expected-error @+1 {{'hlo.broadcast' op operand dimension 0 has size 3 but result dimension 0 has size 2}}
  %0 = hlo.broadcast %x, dims = [0] : (tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Unlike the builder's BroadcastInDim, HLO's broadcast never stretches a
// size-1 dimension.
func.func @broadcast_no_stretch(%x: tensor<1x3xf32>) {
  // expected-error @+1 {{'hlo.broadcast' op operand dimension 0 has size 1 but result dimension 0 has size 4}}
  %0 = hlo.broadcast %x, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @broadcast_element_type(%x: tensor<3xf32>) {
  // expected-error @+1 {{'hlo.broadcast' op result element type 'f64' must be the element type of the operand, 'f32'}}
  %0 = hlo.broadcast %x, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf64>
  return
}

// -----

func.func @reshape_element_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.reshape' op operand shape [2, 3] has 6 elements but result shape [7] has 7}}
  %0 = hlo.reshape %x : (tensor<2x3xf32>) -> tensor<7xf32>
  return
}

// -----

func.func @reshape_element_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.reshape' op result element type 'i32' must be the element type of the operand, 'f32'}}
  %0 = hlo.reshape %x : (tensor<2x3xf32>) -> tensor<6xi32>
  return
}

// -----

func.func @dynamic_reshape_dim_sizes(%x: tensor<6xf32>, %a: tensor<i32>) {
  // expected-error @+1 {{'hlo.dynamic_reshape' op has 1 dim_sizes operands but the result has rank 2}}
  %0 = hlo.dynamic_reshape %x, %a : (tensor<6xf32>, tensor<i32>) -> tensor<?x?xf32>
  return
}

// -----

func.func @dynamic_reshape_element_count(%x: tensor<6xf32>, %a: tensor<i32>, %b: tensor<i32>) {
  // expected-error @+1 {{'hlo.dynamic_reshape' op operand shape [6] has 6 elements but result shape [2, 4] has 8}}
  %0 = hlo.dynamic_reshape %x, %a, %b : (tensor<6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dynamic_reshape_element_type(%x: tensor<6xf32>, %a: tensor<i32>) {
  // expected-error @+1 {{'hlo.dynamic_reshape' op result element type 'f16' must be the element type of the operand, 'f32'}}
  %0 = hlo.dynamic_reshape %x, %a : (tensor<6xf32>, tensor<i32>) -> tensor<?xf16>
  return
}

// -----

func.func @dynamic_reshape_size_not_scalar(%x: tensor<6xf32>, %a: tensor<1xi32>) {
  // expected-error @+1 {{'hlo.dynamic_reshape' op operand #1 must be variadic of 0D tensor of integer values, but got 'tensor<1xi32>'}}
  %0 = hlo.dynamic_reshape %x, %a : (tensor<6xf32>, tensor<1xi32>) -> tensor<?xf32>
  return
}

// -----

func.func @bitcast_size(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.bitcast' op operand 'tensor<2x3xf32>' has 192 bits of data but result 'tensor<6xf16>' has 96}}
  %0 = hlo.bitcast %x : (tensor<2x3xf32>) -> tensor<6xf16>
  return
}

// -----

func.func @bitcast_token(%t: !hlo.token) {
  // expected-error @+1 {{'hlo.bitcast' op operand #0 must be ranked tensor of XLA primitive type values, but got '!hlo.token'}}
  %0 = hlo.bitcast %t : (!hlo.token) -> tensor<f32>
  return
}

// -----

func.func @transpose_not_permutation(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.transpose' op dimensions [0, 0] is not a permutation of the 2 operand dimensions}}
  %0 = hlo.transpose %x, dims = [0, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @transpose_wrong_size(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.transpose' op dimensions [1, 0, 2] is not a permutation of the 2 operand dimensions}}
  %0 = hlo.transpose %x, dims = [1, 0, 2] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @transpose_result_shape(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.transpose' op result has shape [2, 3] but [3, 2] was expected}}
  %0 = hlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @transpose_element_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.transpose' op result element type 'i32' must be the element type of the operand, 'f32'}}
  %0 = hlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xi32>
  return
}

// -----

func.func @reverse_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.reverse' op dimensions contains dimension 2, out of range for rank 2}}
  %0 = hlo.reverse %x, dims = [2] : tensor<2x3xf32>
  return
}

// -----

func.func @reverse_twice(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.reverse' op dimensions contains dimension 1 twice}}
  %0 = hlo.reverse %x, dims = [1, 1] : tensor<2x3xf32>
  return
}

// -----

func.func @reverse_type_change(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.reverse' op requires the same type for all operands and results}}
  %0 = "hlo.reverse"(%x) {dimensions = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @slice_start_size(%x: tensor<4x10xf32>) {
  // expected-error @+1 {{'hlo.slice' op start_indices has 1 entries but the operand has rank 2}}
  %0 = hlo.slice %x, start = [0], limit = [4, 10], strides = [1, 1] : (tensor<4x10xf32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @slice_limit_size(%x: tensor<4x10xf32>) {
  // expected-error @+1 {{'hlo.slice' op limit_indices has 3 entries but the operand has rank 2}}
  %0 = hlo.slice %x, start = [0, 0], limit = [4, 10, 1], strides = [1, 1] : (tensor<4x10xf32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @slice_strides_size(%x: tensor<4x10xf32>) {
  // expected-error @+1 {{'hlo.slice' op strides has 0 entries but the operand has rank 2}}
  %0 = hlo.slice %x, start = [0, 0], limit = [4, 10], strides = [] : (tensor<4x10xf32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @slice_zero_stride(%x: tensor<4x10xf32>) {
  // expected-error @+1 {{'hlo.slice' op strides[1] is 0 but must be at least 1}}
  %0 = hlo.slice %x, start = [0, 0], limit = [4, 10], strides = [1, 0] : (tensor<4x10xf32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @slice_negative_start(%x: tensor<4x10xf32>) {
  // expected-error @+1 {{'hlo.slice' op start_indices[0] is negative (-1)}}
  %0 = hlo.slice %x, start = [-1, 0], limit = [4, 10], strides = [1, 1] : (tensor<4x10xf32>) -> tensor<5x10xf32>
  return
}

// -----

func.func @slice_start_after_limit(%x: tensor<4x10xf32>) {
  // expected-error @+1 {{'hlo.slice' op start_indices[0] = 3 is greater than limit_indices[0] = 2}}
  %0 = hlo.slice %x, start = [3, 0], limit = [2, 10], strides = [1, 1] : (tensor<4x10xf32>) -> tensor<0x10xf32>
  return
}

// -----

func.func @slice_limit_past_end(%x: tensor<4x10xf32>) {
  // expected-error @+1 {{'hlo.slice' op limit_indices[1] = 11 is past the end of operand dimension 1 (size 10)}}
  %0 = hlo.slice %x, start = [0, 0], limit = [4, 11], strides = [1, 1] : (tensor<4x10xf32>) -> tensor<4x11xf32>
  return
}

// -----

func.func @slice_result_shape(%x: tensor<4x10xf32>) {
  // expected-error @+1 {{'hlo.slice' op result has shape [2, 2] but [2, 3] was expected}}
  %0 = hlo.slice %x, start = [0, 1], limit = [4, 10], strides = [2, 4] : (tensor<4x10xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @slice_element_type(%x: tensor<4x10xf32>) {
  // expected-error @+1 {{'hlo.slice' op result element type 'f64' must be the element type of the operand, 'f32'}}
  %0 = hlo.slice %x, start = [0, 0], limit = [4, 10], strides = [1, 1] : (tensor<4x10xf32>) -> tensor<4x10xf64>
  return
}

// -----

func.func @dynamic_slice_index_count(%x: tensor<4x10xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'hlo.dynamic_slice' op has 1 start indices but the operand has rank 2}}
  %0 = hlo.dynamic_slice %x[%i], sizes = [2, 3] : (tensor<4x10xf32>, tensor<i32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @dynamic_slice_index_types(%x: tensor<4x10xf32>, %i: tensor<i32>, %j: tensor<i64>) {
  // expected-error @+1 {{'hlo.dynamic_slice' op start indices must all have the same type, but #0 is 'tensor<i32>' and #1 is 'tensor<i64>'}}
  %0 = hlo.dynamic_slice %x[%i, %j], sizes = [2, 3] : (tensor<4x10xf32>, tensor<i32>, tensor<i64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @dynamic_slice_index_not_scalar(%x: tensor<4x10xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{'hlo.dynamic_slice' op operand #1 must be variadic of 0D tensor of integer values, but got 'tensor<2xi32>'}}
  %0 = hlo.dynamic_slice %x[%i], sizes = [2, 3] : (tensor<4x10xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @dynamic_slice_sizes_count(%x: tensor<4x10xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'hlo.dynamic_slice' op slice_sizes has 1 entries but the operand has rank 2}}
  %0 = hlo.dynamic_slice %x[%i, %i], sizes = [2] : (tensor<4x10xf32>, tensor<i32>, tensor<i32>) -> tensor<2xf32>
  return
}

// -----

func.func @dynamic_slice_negative_size(%x: tensor<4x10xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'hlo.dynamic_slice' op slice_sizes[0] is negative (-1)}}
  %0 = hlo.dynamic_slice %x[%i, %i], sizes = [-1, 3] : (tensor<4x10xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @dynamic_slice_size_too_large(%x: tensor<4x10xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'hlo.dynamic_slice' op slice_sizes[1] = 11 is larger than operand dimension 1 (size 10)}}
  %0 = hlo.dynamic_slice %x[%i, %i], sizes = [2, 11] : (tensor<4x10xf32>, tensor<i32>, tensor<i32>) -> tensor<2x11xf32>
  return
}

// -----

func.func @dynamic_slice_result_shape(%x: tensor<4x10xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'hlo.dynamic_slice' op result has shape [3, 2] but [2, 3] was expected}}
  %0 = hlo.dynamic_slice %x[%i, %i], sizes = [2, 3] : (tensor<4x10xf32>, tensor<i32>, tensor<i32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @dynamic_slice_element_type(%x: tensor<4x10xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'hlo.dynamic_slice' op result element type 'i32' must be the element type of the operand, 'f32'}}
  %0 = hlo.dynamic_slice %x[%i, %i], sizes = [2, 3] : (tensor<4x10xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @dynamic_update_slice_result_type(%x: tensor<4x10xf32>, %u: tensor<2x3xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'hlo.dynamic_update_slice' op result type 'tensor<2x3xf32>' must be the operand type 'tensor<4x10xf32>'}}
  %0 = hlo.dynamic_update_slice %x, %u[%i, %i] : (tensor<4x10xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @dynamic_update_slice_update_element_type(%x: tensor<4x10xf32>, %u: tensor<2x3xf16>, %i: tensor<i32>) {
  // expected-error @+1 {{'hlo.dynamic_update_slice' op update element type 'f16' must be the element type of the operand, 'f32'}}
  %0 = hlo.dynamic_update_slice %x, %u[%i, %i] : (tensor<4x10xf32>, tensor<2x3xf16>, tensor<i32>, tensor<i32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @dynamic_update_slice_update_rank(%x: tensor<4x10xf32>, %u: tensor<3xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'hlo.dynamic_update_slice' op update has rank 1 but the operand has rank 2}}
  %0 = hlo.dynamic_update_slice %x, %u[%i, %i] : (tensor<4x10xf32>, tensor<3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @dynamic_update_slice_update_too_large(%x: tensor<4x10xf32>, %u: tensor<5x3xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'hlo.dynamic_update_slice' op update dimension 0 (size 5) is larger than operand dimension 0 (size 4)}}
  %0 = hlo.dynamic_update_slice %x, %u[%i, %i] : (tensor<4x10xf32>, tensor<5x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @dynamic_update_slice_index_count(%x: tensor<4x10xf32>, %u: tensor<2x3xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'hlo.dynamic_update_slice' op has 1 start indices but the operand has rank 2}}
  %0 = hlo.dynamic_update_slice %x, %u[%i] : (tensor<4x10xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @dynamic_update_slice_index_types(%x: tensor<4x10xf32>, %u: tensor<2x3xf32>, %i: tensor<i32>, %j: tensor<ui32>) {
  // expected-error @+1 {{'hlo.dynamic_update_slice' op start indices must all have the same type, but #0 is 'tensor<i32>' and #1 is 'tensor<ui32>'}}
  %0 = hlo.dynamic_update_slice %x, %u[%i, %j] : (tensor<4x10xf32>, tensor<2x3xf32>, tensor<i32>, tensor<ui32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @concatenate_no_inputs() {
  // expected-error @+1 {{'hlo.concatenate' op needs at least one input}}
  %0 = "hlo.concatenate"() {dimension = 0 : i64} : () -> tensor<2xf32>
  return
}

// -----

func.func @concatenate_dim_out_of_range(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.concatenate' op dimension 2 is out of range for inputs of rank 2}}
  %0 = hlo.concatenate(%a, %a), dim = 2 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @concatenate_scalar(%a: tensor<f32>) {
  // expected-error @+1 {{'hlo.concatenate' op dimension 0 is out of range for inputs of rank 0}}
  %0 = hlo.concatenate(%a, %a), dim = 0 : (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  return
}

// -----

func.func @concatenate_element_types(%a: tensor<2xf32>, %b: tensor<2xf64>) {
  // expected-error @+1 {{'hlo.concatenate' op input #1 has element type 'f64' but input #0 has 'f32'}}
  %0 = hlo.concatenate(%a, %b), dim = 0 : (tensor<2xf32>, tensor<2xf64>) -> tensor<4xf32>
  return
}

// -----

func.func @concatenate_ranks(%a: tensor<2xf32>, %b: tensor<2x1xf32>) {
  // expected-error @+1 {{'hlo.concatenate' op input #1 has rank 2 but input #0 has rank 1}}
  %0 = hlo.concatenate(%a, %b), dim = 0 : (tensor<2xf32>, tensor<2x1xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @concatenate_other_dim(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{'hlo.concatenate' op input #1 has shape [2, 4], which differs from the other inputs in dimension 1 (only dimension 0 may differ)}}
  %0 = hlo.concatenate(%a, %b), dim = 0 : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concatenate_result_shape(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'hlo.concatenate' op result has shape [5, 3] but [6, 3] was expected}}
  %0 = hlo.concatenate(%a, %b), dim = 0 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  return
}

// -----

func.func @concatenate_result_element_type(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.concatenate' op result element type 'bf16' must be the element type of the inputs, 'f32'}}
  %0 = hlo.concatenate(%a, %a), dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xbf16>
  return
}

// -----

func.func @concatenate_negative_dim(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.concatenate' op attribute 'dimension' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0 = hlo.concatenate(%a, %a), dim = -1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @pad_value_not_scalar(%x: tensor<2x3xf32>, %v: tensor<1xf32>) {
  // expected-error @+1 {{'hlo.pad' op padding_value must have rank 0, but has shape [1]}}
  %0 = hlo.pad %x, %v, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @pad_value_element_type(%x: tensor<2x3xf32>, %v: tensor<f64>) {
  // expected-error @+1 {{'hlo.pad' op padding_value element type 'f64' must be the element type of the operand, 'f32'}}
  %0 = hlo.pad %x, %v, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @pad_result_element_type(%x: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'hlo.pad' op result element type 'i32' must be the element type of the operand, 'f32'}}
  %0 = hlo.pad %x, %v, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @pad_low_size(%x: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'hlo.pad' op edge_padding_low has 1 entries but the operand has rank 2}}
  %0 = hlo.pad %x, %v, low = [0], high = [0, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @pad_high_size(%x: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'hlo.pad' op edge_padding_high has 3 entries but the operand has rank 2}}
  %0 = hlo.pad %x, %v, low = [0, 0], high = [0, 0, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @pad_interior_size(%x: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'hlo.pad' op interior_padding has 1 entries but the operand has rank 2}}
  %0 = hlo.pad %x, %v, low = [0, 0], high = [0, 0], interior = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @pad_negative_interior(%x: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'hlo.pad' op interior_padding[1] is negative (-1)}}
  %0 = hlo.pad %x, %v, low = [0, 0], high = [0, 0], interior = [0, -1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @pad_negative_size(%x: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'hlo.pad' op padding dimension 1 (size 3, low -2, high -2, interior 0) gives the negative size -1}}
  %0 = hlo.pad %x, %v, low = [0, -2], high = [0, -2], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x0xf32>
  return
}

// -----

func.func @pad_result_shape(%x: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'hlo.pad' op result has shape [5, 8] but [5, 9] was expected}}
  %0 = hlo.pad %x, %v, low = [1, 0], high = [2, 2], interior = [0, 2] : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x8xf32>
  return
}

// -----

func.func @get_dimension_size_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.get_dimension_size' op dimension 2 is out of range for an operand of rank 2}}
  %0 = hlo.get_dimension_size %x {dimension = 2 : i64} : (tensor<2x3xf32>) -> tensor<i32>
  return
}

// -----

func.func @get_dimension_size_result_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.get_dimension_size' op result #0 must be 0D tensor of 32-bit signless integer values, but got 'tensor<i64>'}}
  %0 = hlo.get_dimension_size %x {dimension = 0 : i64} : (tensor<2x3xf32>) -> tensor<i64>
  return
}

// -----

func.func @set_dimension_size_out_of_range(%x: tensor<2x3xf32>, %n: tensor<i32>) {
  // expected-error @+1 {{'hlo.set_dimension_size' op dimension 2 is out of range for an operand of rank 2}}
  %0 = hlo.set_dimension_size %x, %n {dimension = 2 : i64} : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @set_dimension_size_element_type(%x: tensor<2x3xf32>, %n: tensor<i32>) {
  // expected-error @+1 {{'hlo.set_dimension_size' op result element type 'f16' must be the element type of the operand, 'f32'}}
  %0 = hlo.set_dimension_size %x, %n {dimension = 0 : i64} : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf16>
  return
}

// -----

func.func @set_dimension_size_result_shape(%x: tensor<2x3xf32>, %n: tensor<i32>) {
  // expected-error @+1 {{'hlo.set_dimension_size' op result has shape [?, 4] but [2, 3] was expected}}
  %0 = hlo.set_dimension_size %x, %n {dimension = 0 : i64} : (tensor<2x3xf32>, tensor<i32>) -> tensor<?x4xf32>
  return
}

// -----

func.func @set_dimension_size_size_type(%x: tensor<2x3xf32>, %n: tensor<i64>) {
  // expected-error @+1 {{'hlo.set_dimension_size' op operand #1 must be 0D tensor of 32-bit signless integer values, but got 'tensor<i64>'}}
  %0 = hlo.set_dimension_size %x, %n {dimension = 0 : i64} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @shuffle_out_of_range(%x: tensor<16xi32>) {
  // expected-error @+1 {{'hlo.shuffle' op dimensions contains dimension 1, out of range for rank 1}}
  %0 = hlo.shuffle %x, dims = [1], rotate = [4] : tensor<16xi32>
  return
}

// -----

func.func @shuffle_twice(%x: tensor<16x2xi32>) {
  // expected-error @+1 {{'hlo.shuffle' op dimensions contains dimension 0 twice}}
  %0 = hlo.shuffle %x, dims = [0, 0], rotate = [4, 1] : tensor<16x2xi32>
  return
}

// -----

func.func @shuffle_shifts(%x: tensor<16x2xi32>) {
  // expected-error @+1 {{'hlo.shuffle' op has 1 shifts but 2 dimensions (one shift per dimension)}}
  %0 = hlo.shuffle %x, dims = [0, 1], rotate = [4] : tensor<16x2xi32>
  return
}

// -----

func.func @shuffle_type_change(%x: tensor<16xi32>) {
  // expected-error @+1 {{'hlo.shuffle' op requires the same type for all operands and results}}
  %0 = "hlo.shuffle"(%x) {dimensions = array<i64: 0>, mode = #hlo<shuffle_mode rotate>, shifts = array<i64: 1>} : (tensor<16xi32>) -> tensor<16xi64>
  return
}
