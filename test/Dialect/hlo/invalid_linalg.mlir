// RUN: hlo-opt %s --split-input-file --verify-diagnostics

// Invalid dot, ragged_dot, scaled_dot, convolution, fft, cholesky,
// triangular_solve and batch norms: one case per verifier message (and at
// least one per op).

// dot

func.func @dot_precision_config(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'hlo.dot' op precision_config must have 0 or 2 entries (one per operand), got 1}}
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>, precision_config = [#hlo<precision HIGH>]} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_batch_count(%a: tensor<8x2x3xf32>, %b: tensor<8x3x4xf32>) {
  // expected-error @+1 {{'hlo.dot' op lhs_batch_dims has 1 entries but rhs_batch_dims has 0}}
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>} : (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<8x2x8x4xf32>
  return
}

// -----

func.func @dot_contracting_count(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) {
  // expected-error @+1 {{'hlo.dot' op lhs_contracting_dims has 1 entries but rhs_contracting_dims has 2}}
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0, 1]>} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @dot_dim_range(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'hlo.dot' op lhs_contracting_dims contains dimension 2, out of range for rank 2}}
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [2], rhs_contracting_dims = [0]>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_rhs_dim_range(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'hlo.dot' op rhs_contracting_dims contains dimension -1, out of range for rank 2}}
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [-1]>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_dim_twice(%a: tensor<3x3xf32>, %b: tensor<3x3xf32>) {
  // expected-error @+1 {{'hlo.dot' op rhs_contracting_dims contains dimension 0 twice}}
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [0, 1], rhs_contracting_dims = [0, 0]>} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<f32>
  return
}

// -----

func.func @dot_batch_contracting(%a: tensor<3x3xf32>, %b: tensor<3x3xf32>) {
  // expected-error @+1 {{'hlo.dot' op dimension 0 is in both lhs_batch_dims and lhs_contracting_dims}}
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [0], rhs_contracting_dims = [1]>} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @dot_batch_sizes(%a: tensor<8x2x3xf32>, %b: tensor<4x3x5xf32>) {
  // expected-error @+1 {{'hlo.dot' op batch dimension sizes differ: lhs dimension 0 has size 8 but rhs dimension 0 has size 4}}
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>} : (tensor<8x2x3xf32>, tensor<4x3x5xf32>) -> tensor<8x2x5xf32>
  return
}

// -----

func.func @dot_contracting_sizes(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'hlo.dot' op contracting dimension sizes differ: lhs dimension 1 has size 3 but rhs dimension 0 has size 4}}
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @dot_result_shape(%a: tensor<8x2x3xf32>, %b: tensor<8x3x4xf32>) {
  // expected-error @+1 {{'hlo.dot' op result has shape [2, 8, 4] but [8, 2, 4] was expected}}
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>} : (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<2x8x4xf32>
  return
}

// -----

func.func @dot_pred(%a: tensor<2x3xi1>, %b: tensor<3x4xi1>) {
  // expected-error @+1 {{'hlo.dot' op operand #0 must be ranked tensor of integer or floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<2x3xi1>'}}
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<2x3xi1>, tensor<3x4xi1>) -> tensor<2x4xi1>
  return
}

// -----

// ragged_dot

func.func @ragged_dot_ragged_count(%a: tensor<11x5xf32>, %b: tensor<3x5x7xf32>, %g: tensor<3xi64>) {
  // expected-error @+1 {{'hlo.ragged_dot' op lhs_ragged_dimensions must have exactly one entry, got [0, 1]}}
  %0 = hlo.ragged_dot %a, %b, %g {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [1]>, lhs_ragged_dimensions = array<i64: 0, 1>, rhs_group_dimensions = array<i64: 0>} : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  return
}

// -----

func.func @ragged_dot_ragged_range(%a: tensor<11x5xf32>, %b: tensor<3x5x7xf32>, %g: tensor<3xi64>) {
  // expected-error @+1 {{'hlo.ragged_dot' op lhs_ragged_dimensions contains dimension 2, out of range for rank 2}}
  %0 = hlo.ragged_dot %a, %b, %g {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [1]>, lhs_ragged_dimensions = array<i64: 2>, rhs_group_dimensions = array<i64: 0>} : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  return
}

// -----

func.func @ragged_dot_group_range(%a: tensor<11x5xf32>, %b: tensor<3x5x7xf32>, %g: tensor<3xi64>) {
  // expected-error @+1 {{'hlo.ragged_dot' op rhs_group_dimensions contains dimension 3, out of range for rank 3}}
  %0 = hlo.ragged_dot %a, %b, %g {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [1]>, lhs_ragged_dimensions = array<i64: 0>, rhs_group_dimensions = array<i64: 3>} : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  return
}

// -----

func.func @ragged_dot_group_is_batch(%a: tensor<3x11x5xf32>, %b: tensor<3x5x7xf32>, %g: tensor<3xi64>) {
  // expected-error @+1 {{'hlo.ragged_dot' op dimension 0 is in both rhs_group_dimensions and rhs_batch_dims}}
  %0 = hlo.ragged_dot %a, %b, %g {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>, lhs_ragged_dimensions = array<i64: 1>, rhs_group_dimensions = array<i64: 0>} : (tensor<3x11x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<3x11x7xf32>
  return
}

// -----

func.func @ragged_dot_group_is_contracting(%a: tensor<11x3xf32>, %b: tensor<3x3x7xf32>, %g: tensor<3xi64>) {
  // expected-error @+1 {{'hlo.ragged_dot' op dimension 1 is in both rhs_group_dimensions and rhs_contracting_dims}}
  %0 = hlo.ragged_dot %a, %b, %g {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [1]>, lhs_ragged_dimensions = array<i64: 0>, rhs_group_dimensions = array<i64: 1>} : (tensor<11x3xf32>, tensor<3x3x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  return
}

// -----

func.func @ragged_dot_contracting_sizes(%a: tensor<11x5xf32>, %b: tensor<3x2x7xf32>, %g: tensor<3xi64>) {
  // expected-error @+1 {{'hlo.ragged_dot' op contracting dimension sizes differ: lhs dimension 1 has size 5 but rhs dimension 1 has size 2}}
  %0 = hlo.ragged_dot %a, %b, %g {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [1]>, lhs_ragged_dimensions = array<i64: 0>, rhs_group_dimensions = array<i64: 0>} : (tensor<11x5xf32>, tensor<3x2x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  return
}

// -----

func.func @ragged_dot_group_sizes_rank(%a: tensor<11x5xf32>, %b: tensor<3x5x7xf32>, %g: tensor<i64>) {
  // expected-error @+1 {{'hlo.ragged_dot' op group_sizes must have rank >= 1, got 'tensor<i64>'}}
  %0 = hlo.ragged_dot %a, %b, %g {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [1]>, lhs_ragged_dimensions = array<i64: 0>, rhs_group_dimensions = array<i64: 0>} : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<i64>) -> tensor<11x7xf32>
  return
}

// -----

func.func @ragged_dot_group_sizes_shape(%a: tensor<19x17x11x5xf32>, %b: tensor<3x19x5x7xf32>, %g: tensor<19x11x3xi64>) {
  // expected-error @+1 {{'hlo.ragged_dot' op group_sizes has shape [19, 11, 3] but [19, 17, 3] was expected}}
  %0 = hlo.ragged_dot %a, %b, %g {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [1], lhs_contracting_dims = [3], rhs_contracting_dims = [2]>, lhs_ragged_dimensions = array<i64: 2>, rhs_group_dimensions = array<i64: 0>} : (tensor<19x17x11x5xf32>, tensor<3x19x5x7xf32>, tensor<19x11x3xi64>) -> tensor<19x17x11x7xf32>
  return
}

// -----

func.func @ragged_dot_no_group_dim(%a: tensor<11x5xf32>, %b: tensor<5x7xf32>, %g: tensor<3xi64>) {
  // expected-error @+1 {{'hlo.ragged_dot' op rhs_group_dimensions must have exactly one entry when the lhs ragged dimension is a non-contracting dimension, got []}}
  %0 = hlo.ragged_dot %a, %b, %g {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>, lhs_ragged_dimensions = array<i64: 0>, rhs_group_dimensions = array<i64>} : (tensor<11x5xf32>, tensor<5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  return
}

// -----

func.func @ragged_dot_group_count(%a: tensor<11x5xf32>, %b: tensor<3x5x7xf32>, %g: tensor<2xi64>) {
  // expected-error @+1 {{'hlo.ragged_dot' op rhs group dimension 0 has size 3 but group_sizes has 2 groups}}
  %0 = hlo.ragged_dot %a, %b, %g {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [1]>, lhs_ragged_dimensions = array<i64: 0>, rhs_group_dimensions = array<i64: 0>} : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<2xi64>) -> tensor<11x7xf32>
  return
}

// -----

func.func @ragged_dot_contracting_group_dim(%a: tensor<11x5xf32>, %b: tensor<3x5x7xf32>, %g: tensor<3xi64>) {
  // expected-error @+1 {{'hlo.ragged_dot' op rhs_group_dimensions must be empty when the lhs ragged dimension is a batch or contracting dimension, got [0]}}
  %0 = hlo.ragged_dot %a, %b, %g {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [1]>, lhs_ragged_dimensions = array<i64: 1>, rhs_group_dimensions = array<i64: 0>} : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<3x11x7xf32>
  return
}

// -----

func.func @ragged_dot_contracting_result(%a: tensor<11x5xf32>, %b: tensor<5x7xf32>, %g: tensor<3xi64>) {
  // expected-error @+1 {{'hlo.ragged_dot' op result has shape [11, 7] but [3, 11, 7] was expected}}
  %0 = hlo.ragged_dot %a, %b, %g {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>, lhs_ragged_dimensions = array<i64: 1>, rhs_group_dimensions = array<i64>} : (tensor<11x5xf32>, tensor<5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  return
}

// -----

func.func @ragged_dot_precision_config(%a: tensor<11x5xf32>, %b: tensor<3x5x7xf32>, %g: tensor<3xi64>) {
  // expected-error @+1 {{'hlo.ragged_dot' op precision_config must have 0 or 2 entries (one per operand), got 3}}
  %0 = hlo.ragged_dot %a, %b, %g {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [1]>, lhs_ragged_dimensions = array<i64: 0>, rhs_group_dimensions = array<i64: 0>, precision_config = [#hlo<precision HIGH>, #hlo<precision HIGH>, #hlo<precision HIGH>]} : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  return
}

// -----

func.func @ragged_dot_float_group_sizes(%a: tensor<11x5xf32>, %b: tensor<3x5x7xf32>, %g: tensor<3xf32>) {
  // expected-error @+1 {{'hlo.ragged_dot' op operand #2 must be ranked tensor of integer values, but got 'tensor<3xf32>'}}
  %0 = hlo.ragged_dot %a, %b, %g {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [1]>, lhs_ragged_dimensions = array<i64: 0>, rhs_group_dimensions = array<i64: 0>} : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xf32>) -> tensor<11x7xf32>
  return
}

// -----

// scaled_dot

func.func @scaled_dot_scale_rank(%a: tensor<16x64xf8E4M3FN>, %b: tensor<64x32xf8E4M3FN>, %sa: tensor<2xf8E8M0FNU>, %sb: tensor<2x32xf8E8M0FNU>) {
  // expected-error @+1 {{'hlo.scaled_dot' op lhs_scale has rank 1 but lhs has rank 2}}
  %0 = hlo.scaled_dot %a, %b, %sa, %sb {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<16x64xf8E4M3FN>, tensor<64x32xf8E4M3FN>, tensor<2xf8E8M0FNU>, tensor<2x32xf8E8M0FNU>) -> tensor<16x32xbf16>
  return
}

// -----

func.func @scaled_dot_scale_block(%a: tensor<16x64xf8E4M3FN>, %b: tensor<64x32xf8E4M3FN>, %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<3x32xf8E8M0FNU>) {
  // expected-error @+1 {{'hlo.scaled_dot' op rhs dimension 0 (size 64) is not a multiple of rhs_scale dimension 0 (size 3)}}
  %0 = hlo.scaled_dot %a, %b, %sa, %sb {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<16x64xf8E4M3FN>, tensor<64x32xf8E4M3FN>, tensor<16x2xf8E8M0FNU>, tensor<3x32xf8E8M0FNU>) -> tensor<16x32xbf16>
  return
}

// -----

func.func @scaled_dot_result(%a: tensor<16x64xf8E4M3FN>, %b: tensor<64x32xf8E4M3FN>, %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<2x32xf8E8M0FNU>) {
  // expected-error @+1 {{'hlo.scaled_dot' op result has shape [16, 64] but [16, 32] was expected}}
  %0 = hlo.scaled_dot %a, %b, %sa, %sb {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<16x64xf8E4M3FN>, tensor<64x32xf8E4M3FN>, tensor<16x2xf8E8M0FNU>, tensor<2x32xf8E8M0FNU>) -> tensor<16x64xbf16>
  return
}

// -----

func.func @scaled_dot_contracting(%a: tensor<16x64xf8E4M3FN>, %b: tensor<32x32xf8E4M3FN>, %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<1x32xf8E8M0FNU>) {
  // expected-error @+1 {{'hlo.scaled_dot' op contracting dimension sizes differ: lhs dimension 1 has size 64 but rhs dimension 0 has size 32}}
  %0 = hlo.scaled_dot %a, %b, %sa, %sb {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<16x64xf8E4M3FN>, tensor<32x32xf8E4M3FN>, tensor<16x2xf8E8M0FNU>, tensor<1x32xf8E8M0FNU>) -> tensor<16x32xbf16>
  return
}

// -----

func.func @scaled_dot_precision_config(%a: tensor<16x64xf8E4M3FN>, %b: tensor<64x32xf8E4M3FN>, %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<2x32xf8E8M0FNU>) {
  // expected-error @+1 {{'hlo.scaled_dot' op precision_config must have 0 or 2 entries (one per operand), got 1}}
  %0 = hlo.scaled_dot %a, %b, %sa, %sb {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>, precision_config = [#hlo<precision DEFAULT>]} : (tensor<16x64xf8E4M3FN>, tensor<64x32xf8E4M3FN>, tensor<16x2xf8E8M0FNU>, tensor<2x32xf8E8M0FNU>) -> tensor<16x32xbf16>
  return
}

// -----

// convolution

func.func @convolution_rank(%x: tensor<4xf32>, %w: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.convolution' op input must have rank >= 2 (batch and feature dimensions), got 'tensor<4xf32>'}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 0, kernel_input_feature_dim = 0, kernel_output_feature_dim = 0, output_batch_dim = 0, output_feature_dim = 0>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @convolution_kernel_rank(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op kernel has rank 3 but the input has rank 4}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3, 3]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>} : (tensor<1x8x8x3xf32>, tensor<3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @convolution_result_rank(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op result has rank 3 but the input has rank 4}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3, 3]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<6x6x16xf32>
  return
}

// -----

func.func @convolution_spatial_count(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op dimension_numbers has 1 input spatial dimensions but the operands have rank 4 (2 spatial dimensions)}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3, 3]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @convolution_kernel_dims(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op the kernel dimension numbers (input feature 2, output feature 2, spatial [0, 1]) must be a permutation of the 4 dimensions}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3, 3]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 2, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @convolution_output_dims(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op the output dimension numbers (batch 0, feature 4, spatial [1, 2]) must be a permutation of the 4 dimensions}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3, 3]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 4, output_spatial_dims = [1, 2]>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @convolution_window_count(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op window has 1 dimensions but the convolution has 2 spatial dimensions}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @convolution_window_size(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op window size 2 of spatial dimension 1 differs from the kernel's spatial dimension size 3}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3, 2]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x7x16xf32>
  return
}

// -----

func.func @convolution_both_groups(%x: tensor<4x8x8x4xf32>, %w: tensor<3x3x2x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op feature_group_count (2) and batch_group_count (2) cannot both be greater than 1}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3, 3]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>, feature_group_count = 2 : i64, batch_group_count = 2 : i64} : (tensor<4x8x8x4xf32>, tensor<3x3x2x16xf32>) -> tensor<2x6x6x16xf32>
  return
}

// -----

func.func @convolution_feature_divisible(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x1x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op input feature dimension size 3 is not divisible by feature_group_count 2}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3, 3]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>, feature_group_count = 2 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x1x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @convolution_kernel_input_feature(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op input feature dimension size 4 must be the kernel input feature dimension size 4 times feature_group_count 2}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3, 3]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>, feature_group_count = 2 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @convolution_output_feature_groups(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x1x6xf32>) {
  // expected-error @+1 {{'hlo.convolution' op kernel output feature dimension size 6 is not divisible by feature_group_count 4}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3, 3]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>, feature_group_count = 4 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x1x6xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @convolution_output_feature_batch_groups(%x: tensor<4x8x8x3xf32>, %w: tensor<3x3x3x3xf32>) {
  // expected-error @+1 {{'hlo.convolution' op kernel output feature dimension size 3 is not divisible by batch_group_count 2}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3, 3]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>, batch_group_count = 2 : i64} : (tensor<4x8x8x3xf32>, tensor<3x3x3x3xf32>) -> tensor<2x6x6x3xf32>
  return
}

// -----

func.func @convolution_batch_groups(%x: tensor<3x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{'hlo.convolution' op input batch dimension size 3 is not divisible by batch_group_count 2}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3, 3]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>, batch_group_count = 2 : i64} : (tensor<3x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return
}

// -----

func.func @convolution_result_shape(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op result has shape [1, 8, 8, 16] but [1, 4, 4, 16] was expected}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3, 3], stride = [2, 2], pad_low = [1, 1], pad_high = [1, 1]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  return
}

// -----

func.func @convolution_negative_padding(%x: tensor<1x2x3xf32>, %w: tensor<1x3x3xf32>) {
  // expected-error @+1 {{'hlo.convolution' op window dimension 0: the padded input size -2 is negative}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [1], pad_low = [-2], pad_high = [-2]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 2, input_spatial_dims = [1], kernel_input_feature_dim = 1, kernel_output_feature_dim = 2, kernel_spatial_dims = [0], output_batch_dim = 0, output_feature_dim = 2, output_spatial_dims = [1]>} : (tensor<1x2x3xf32>, tensor<1x3x3xf32>) -> tensor<1x0x3xf32>
  return
}

// -----

func.func @convolution_precision_config(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op precision_config must have 0 or 2 entries (one per operand), got 1}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3, 3]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>, precision_config = [#hlo<precision HIGHEST>]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @convolution_zero_groups(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op attribute 'feature_group_count' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3, 3]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>, feature_group_count = 0 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

// fft

func.func @fft_length_count(%x: tensor<2x2x2x2xcomplex<f32>>) {
  // expected-error @+1 {{'hlo.fft' op fft_length must have 1 to 3 entries, got 4}}
  %0 = hlo.fft %x, FFT, length = [2, 2, 2, 2] : (tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>>
  return
}

// -----

func.func @fft_length_negative(%x: tensor<16xcomplex<f32>>) {
  // expected-error @+1 {{'hlo.fft' op fft_length entries must be non-negative, got [-16]}}
  %0 = hlo.fft %x, FFT, length = [-16] : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
  return
}

// -----

func.func @fft_rank(%x: tensor<16xcomplex<f32>>) {
  // expected-error @+1 {{'hlo.fft' op operand has rank 1, less than the 2 transformed dimensions of fft_length}}
  %0 = hlo.fft %x, FFT, length = [4, 16] : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
  return
}

// -----

func.func @fft_real_operand(%x: tensor<16xf32>) {
  // expected-error @+1 {{'hlo.fft' op FFT requires a complex operand, got 'tensor<16xf32>'}}
  %0 = hlo.fft %x, FFT, length = [16] : (tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @fft_result_type(%x: tensor<16xcomplex<f32>>) {
  // expected-error @+1 {{'hlo.fft' op result has element type 'complex<f64>' but 'complex<f32>' was expected for IFFT of 'tensor<16xcomplex<f32>>'}}
  %0 = hlo.fft %x, IFFT, length = [16] : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f64>>
  return
}

// -----

func.func @rfft_operand(%x: tensor<16xbf16>) {
  // expected-error @+1 {{'hlo.fft' op RFFT requires an f32 or f64 operand, got 'tensor<16xbf16>'}}
  %0 = hlo.fft %x, RFFT, length = [16] : (tensor<16xbf16>) -> tensor<9xcomplex<f32>>
  return
}

// -----

func.func @rfft_length(%x: tensor<16xf32>) {
  // expected-error @+1 {{'hlo.fft' op RFFT requires the operand's trailing dimensions to be fft_length [8], got shape [16]}}
  %0 = hlo.fft %x, RFFT, length = [8] : (tensor<16xf32>) -> tensor<5xcomplex<f32>>
  return
}

// -----

func.func @rfft_result_shape(%x: tensor<16xf32>) {
  // expected-error @+1 {{'hlo.fft' op result has shape [16] but [9] was expected}}
  %0 = hlo.fft %x, RFFT, length = [16] : (tensor<16xf32>) -> tensor<16xcomplex<f32>>
  return
}

// -----

func.func @rfft_result_type(%x: tensor<16xf64>) {
  // expected-error @+1 {{'hlo.fft' op result has element type 'complex<f32>' but 'complex<f64>' was expected for RFFT of 'tensor<16xf64>'}}
  %0 = hlo.fft %x, RFFT, length = [16] : (tensor<16xf64>) -> tensor<9xcomplex<f32>>
  return
}

// -----

func.func @irfft_operand(%x: tensor<9xf32>) {
  // expected-error @+1 {{'hlo.fft' op IRFFT requires a complex operand, got 'tensor<9xf32>'}}
  %0 = hlo.fft %x, IRFFT, length = [16] : (tensor<9xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @irfft_outer_length(%x: tensor<3x9xcomplex<f32>>) {
  // expected-error @+1 {{'hlo.fft' op IRFFT requires the operand's trailing dimensions but the last to be those of fft_length [4, 16], got shape [3, 9]}}
  %0 = hlo.fft %x, IRFFT, length = [4, 16] : (tensor<3x9xcomplex<f32>>) -> tensor<3x16xf32>
  return
}

// -----

func.func @irfft_last_length(%x: tensor<16xcomplex<f32>>) {
  // expected-error @+1 {{'hlo.fft' op IRFFT requires the operand's last dimension to be fft_length[0] / 2 + 1 = 9, got 16}}
  %0 = hlo.fft %x, IRFFT, length = [16] : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
  return
}

// -----

func.func @irfft_result_type(%x: tensor<9xcomplex<f32>>) {
  // expected-error @+1 {{'hlo.fft' op result has element type 'complex<f32>' but 'f32' was expected for IRFFT of 'tensor<9xcomplex<f32>>'}}
  %0 = hlo.fft %x, IRFFT, length = [16] : (tensor<9xcomplex<f32>>) -> tensor<16xcomplex<f32>>
  return
}

// -----

func.func @fft_integer(%x: tensor<16xi32>) {
  // expected-error @+1 {{'hlo.fft' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<16xi32>'}}
  %0 = hlo.fft %x, FFT, length = [16] : (tensor<16xi32>) -> tensor<16xi32>
  return
}

// -----

// cholesky

func.func @cholesky_rank(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.cholesky' op a must have rank >= 2, got 'tensor<4xf32>'}}
  %0 = hlo.cholesky %a : tensor<4xf32>
  return
}

// -----

func.func @cholesky_square(%a: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'hlo.cholesky' op a must be square in its two minor dimensions, got shape [2, 3, 4]}}
  %0 = hlo.cholesky %a : tensor<2x3x4xf32>
  return
}

// -----

func.func @cholesky_result(%a: tensor<4x4xf32>) {
  // expected-error @+1 {{'hlo.cholesky' op requires the same type for all operands and results}}
  %0 = "hlo.cholesky"(%a) : (tensor<4x4xf32>) -> tensor<4x4xf64>
  return
}

// -----

func.func @cholesky_integer(%a: tensor<4x4xi32>) {
  // expected-error @+1 {{'hlo.cholesky' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4x4xi32>'}}
  %0 = hlo.cholesky %a : tensor<4x4xi32>
  return
}

// -----

// triangular_solve

func.func @triangular_solve_square(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'hlo.triangular_solve' op a must be square in its two minor dimensions, got shape [4, 3]}}
  %0 = hlo.triangular_solve %a, %b {left_side = true, lower = true, unit_diagonal = false, transpose_a = #hlo<transpose NO_TRANSPOSE>} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @triangular_solve_a_rank(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.triangular_solve' op a must have rank >= 2, got 'tensor<4xf32>'}}
  %0 = hlo.triangular_solve %a, %b {left_side = true, lower = true, unit_diagonal = false, transpose_a = #hlo<transpose NO_TRANSPOSE>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @triangular_solve_b_rank(%a: tensor<4x4xf32>, %b: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'hlo.triangular_solve' op b has rank 3 but a has rank 2}}
  %0 = hlo.triangular_solve %a, %b {left_side = true, lower = true, unit_diagonal = false, transpose_a = #hlo<transpose NO_TRANSPOSE>} : (tensor<4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return
}

// -----

func.func @triangular_solve_element_type(%a: tensor<4x4xf32>, %b: tensor<4x3xf64>) {
  // expected-error @+1 {{'hlo.triangular_solve' op b has element type 'f64' but a has element type 'f32'}}
  %0 = hlo.triangular_solve %a, %b {left_side = true, lower = true, unit_diagonal = false, transpose_a = #hlo<transpose NO_TRANSPOSE>} : (tensor<4x4xf32>, tensor<4x3xf64>) -> tensor<4x3xf64>
  return
}

// -----

func.func @triangular_solve_left(%a: tensor<4x4xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'hlo.triangular_solve' op with left_side = true, dimension 0 of b (size 3) must equal the size of a (4)}}
  %0 = hlo.triangular_solve %a, %b {left_side = true, lower = true, unit_diagonal = false, transpose_a = #hlo<transpose NO_TRANSPOSE>} : (tensor<4x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @triangular_solve_right(%a: tensor<4x4xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'hlo.triangular_solve' op with left_side = false, dimension 1 of b (size 3) must equal the size of a (4)}}
  %0 = hlo.triangular_solve %a, %b {left_side = false, lower = true, unit_diagonal = false, transpose_a = #hlo<transpose TRANSPOSE>} : (tensor<4x4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @triangular_solve_batch(%a: tensor<2x4x4xf32>, %b: tensor<3x4x3xf32>) {
  // expected-error @+1 {{'hlo.triangular_solve' op b has batch dimensions [3] but a has [2]}}
  %0 = hlo.triangular_solve %a, %b {left_side = true, lower = true, unit_diagonal = false, transpose_a = #hlo<transpose NO_TRANSPOSE>} : (tensor<2x4x4xf32>, tensor<3x4x3xf32>) -> tensor<3x4x3xf32>
  return
}

// -----

func.func @triangular_solve_result(%a: tensor<4x4xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'hlo.triangular_solve' op result has type 'tensor<4x4xf32>' but 'tensor<4x3xf32>' was expected}}
  %0 = hlo.triangular_solve %a, %b {left_side = true, lower = true, unit_diagonal = false, transpose_a = #hlo<transpose NO_TRANSPOSE>} : (tensor<4x4xf32>, tensor<4x3xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @triangular_solve_missing_attr(%a: tensor<4x4xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'hlo.triangular_solve' op requires attribute 'transpose_a'}}
  %0 = hlo.triangular_solve %a, %b {left_side = true, lower = true, unit_diagonal = false} : (tensor<4x4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

// batch norms

func.func @batch_norm_training_feature_index(%x: tensor<8x4x4x16xf32>, %scale: tensor<16xf32>, %offset: tensor<16xf32>) {
  // expected-error @+1 {{'hlo.batch_norm_training' op feature_index 4 is out of range for an operand of rank 4}}
  %0:3 = hlo.batch_norm_training %x, %scale, %offset {epsilon = 1.000000e-03 : f32, feature_index = 4 : i64} : (tensor<8x4x4x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x4x4x16xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

func.func @batch_norm_training_scale_rank(%x: tensor<8x16xf32>, %scale: tensor<1x16xf32>, %offset: tensor<16xf32>) {
  // expected-error @+1 {{'hlo.batch_norm_training' op scale must be a 1-D tensor, got 'tensor<1x16xf32>'}}
  %0:3 = hlo.batch_norm_training %x, %scale, %offset {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<8x16xf32>, tensor<1x16xf32>, tensor<16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

func.func @batch_norm_training_offset_size(%x: tensor<8x16xf32>, %scale: tensor<16xf32>, %offset: tensor<8xf32>) {
  // expected-error @+1 {{'hlo.batch_norm_training' op offset has 8 elements but the feature dimension has size 16}}
  %0:3 = hlo.batch_norm_training %x, %scale, %offset {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<8xf32>) -> (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

func.func @batch_norm_training_output(%x: tensor<8x16xf32>, %scale: tensor<16xf32>, %offset: tensor<16xf32>) {
  // expected-error @+1 {{'hlo.batch_norm_training' op output has type 'tensor<16x8xf32>' but 'tensor<8x16xf32>' was expected}}
  %0:3 = hlo.batch_norm_training %x, %scale, %offset {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<16x8xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

func.func @batch_norm_training_mean(%x: tensor<8x16xf32>, %scale: tensor<16xf32>, %offset: tensor<16xf32>) {
  // expected-error @+1 {{'hlo.batch_norm_training' op batch_mean has type 'tensor<16xf16>' but 'tensor<16xf32>' was expected}}
  %0:3 = hlo.batch_norm_training %x, %scale, %offset {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16xf32>, tensor<16xf16>, tensor<16xf32>)
  return
}

// -----

func.func @batch_norm_training_var(%x: tensor<8x16xf32>, %scale: tensor<16xf32>, %offset: tensor<16xf32>) {
  // expected-error @+1 {{'hlo.batch_norm_training' op batch_var has type 'tensor<8xf32>' but 'tensor<16xf32>' was expected}}
  %0:3 = hlo.batch_norm_training %x, %scale, %offset {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>, tensor<8xf32>)
  return
}

// -----

func.func @batch_norm_training_integer(%x: tensor<8x16xi32>, %scale: tensor<16xf32>, %offset: tensor<16xf32>) {
  // expected-error @+1 {{'hlo.batch_norm_training' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<8x16xi32>'}}
  %0:3 = hlo.batch_norm_training %x, %scale, %offset {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<8x16xi32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16xi32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

func.func @batch_norm_inference_feature_index(%x: tensor<8x16xf32>, %s: tensor<16xf32>) {
  // expected-error @+1 {{'hlo.batch_norm_inference' op feature_index 2 is out of range for an operand of rank 2}}
  %0 = hlo.batch_norm_inference %x, %s, %s, %s, %s {epsilon = 1.000000e-03 : f32, feature_index = 2 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @batch_norm_inference_mean(%x: tensor<8x16xf32>, %s: tensor<16xf32>, %m: tensor<8xf32>) {
  // expected-error @+1 {{'hlo.batch_norm_inference' op mean has 8 elements but the feature dimension has size 16}}
  %0 = hlo.batch_norm_inference %x, %s, %s, %m, %s {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @batch_norm_inference_variance(%x: tensor<8x16xf32>, %s: tensor<16xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'hlo.batch_norm_inference' op variance must be a 1-D tensor, got 'tensor<f32>'}}
  %0 = hlo.batch_norm_inference %x, %s, %s, %s, %v {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @batch_norm_inference_result(%x: tensor<8x16xf32>, %s: tensor<16xf32>) {
  // expected-error @+1 {{'hlo.batch_norm_inference' op result has type 'tensor<8x16xf16>' but 'tensor<8x16xf32>' was expected}}
  %0 = hlo.batch_norm_inference %x, %s, %s, %s, %s {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<8x16xf16>
  return
}

// -----

func.func @batch_norm_grad_feature_index(%x: tensor<8x16xf32>, %s: tensor<16xf32>) {
  // expected-error @+1 {{'hlo.batch_norm_grad' op feature_index 3 is out of range for an operand of rank 2}}
  %0:3 = hlo.batch_norm_grad %x, %s, %s, %s, %x {epsilon = 1.000000e-03 : f32, feature_index = 3 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

func.func @batch_norm_grad_grad_output(%x: tensor<8x16xf32>, %s: tensor<16xf32>, %dy: tensor<8x8xf32>) {
  // expected-error @+1 {{'hlo.batch_norm_grad' op grad_output has shape [8, 8] but [8, 16] was expected}}
  %0:3 = hlo.batch_norm_grad %x, %s, %s, %s, %dy {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x8xf32>) -> (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

func.func @batch_norm_grad_scale(%x: tensor<8x16xf32>, %s: tensor<16xf32>, %bad: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.batch_norm_grad' op scale has 4 elements but the feature dimension has size 16}}
  %0:3 = hlo.batch_norm_grad %x, %bad, %s, %s, %x {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<8x16xf32>, tensor<4xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

func.func @batch_norm_grad_grad_operand(%x: tensor<8x16xf32>, %s: tensor<16xf32>) {
  // expected-error @+1 {{'hlo.batch_norm_grad' op grad_operand has type 'tensor<8x16xbf16>' but 'tensor<8x16xf32>' was expected}}
  %0:3 = hlo.batch_norm_grad %x, %s, %s, %s, %x {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x16xf32>) -> (tensor<8x16xbf16>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

func.func @batch_norm_grad_grad_scale(%x: tensor<8x16xf32>, %s: tensor<16xf32>) {
  // expected-error @+1 {{'hlo.batch_norm_grad' op grad_scale has type 'tensor<8x16xf32>' but 'tensor<16xf32>' was expected}}
  %0:3 = hlo.batch_norm_grad %x, %s, %s, %s, %x {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<16xf32>)
  return
}

// -----

func.func @batch_norm_grad_grad_offset(%x: tensor<8x16xf32>, %s: tensor<16xf32>) {
  // expected-error @+1 {{'hlo.batch_norm_grad' op grad_offset has type 'tensor<15xf32>' but 'tensor<16xf32>' was expected}}
  %0:3 = hlo.batch_norm_grad %x, %s, %s, %s, %x {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>, tensor<15xf32>)
  return
}
