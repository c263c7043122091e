// RUN: hlo-opt %s | FileCheck %s
// RUN: hlo-opt %s | hlo-opt | FileCheck %s
// RUN: hlo-opt %s --mlir-print-op-generic | hlo-opt | FileCheck %s
// RUN: hlo-opt %s > %t.1.mlir && hlo-opt %t.1.mlir > %t.2.mlir && diff %t.1.mlir %t.2.mlir

// Round trip of dot, ragged_dot, scaled_dot, convolution, fft, cholesky,
// triangular_solve and the batch norms.

// CHECK-LABEL: func.func @dot(
// CHECK: %{{.*}} = hlo.dot %{{.*}}, %{{.*}} {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
func.func @dot(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @dot_vector(
// CHECK: %{{.*}} = hlo.dot %{{.*}}, %{{.*}} {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [0], rhs_contracting_dims = [0]>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
func.func @dot_vector(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<f32> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [0], rhs_contracting_dims = [0]>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @dot_batch(
// CHECK: %{{.*}} = hlo.dot %{{.*}}, %{{.*}} {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [2]>, precision_config = [#hlo<precision HIGHEST>, #hlo<precision DEFAULT>]} : (tensor<8x2x3xbf16>, tensor<8x4x3xbf16>) -> tensor<8x2x4xf32>
func.func @dot_batch(%a: tensor<8x2x3xbf16>, %b: tensor<8x4x3xbf16>) -> tensor<8x2x4xf32> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [2]>, precision_config = [#hlo<precision HIGHEST>, #hlo<precision DEFAULT>]} : (tensor<8x2x3xbf16>, tensor<8x4x3xbf16>) -> tensor<8x2x4xf32>
  return %0 : tensor<8x2x4xf32>
}

// CHECK-LABEL: func.func @dot_outer(
// CHECK: %{{.*}} = hlo.dot %{{.*}}, %{{.*}} {algorithm = "dot_bf16_bf16_f32", dot_dimension_numbers = #hlo.dot<>} : (tensor<2xi8>, tensor<5xi8>) -> tensor<2x5xi32>
func.func @dot_outer(%a: tensor<2xi8>, %b: tensor<5xi8>) -> tensor<2x5xi32> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<>, algorithm = "dot_bf16_bf16_f32"} : (tensor<2xi8>, tensor<5xi8>) -> tensor<2x5xi32>
  return %0 : tensor<2x5xi32>
}

// CHECK-LABEL: func.func @dot_dynamic(
// CHECK: %{{.*}} = hlo.dot %{{.*}}, %{{.*}} {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<?x3xf32>, tensor<3x?xf32>) -> tensor<?x?xf32>
func.func @dot_dynamic(%a: tensor<?x3xf32>, %b: tensor<3x?xf32>) -> tensor<?x?xf32> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<?x3xf32>, tensor<3x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// Ragged non-contracting: [b, m, k] x [g, b, k, n] -> [b, m, n].
// CHECK-LABEL: func.func @ragged_dot(
// CHECK: %{{.*}} = hlo.ragged_dot %{{.*}}, %{{.*}}, %{{.*}} {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [1], lhs_contracting_dims = [2], rhs_contracting_dims = [2]>, lhs_ragged_dimensions = array<i64: 1>, rhs_group_dimensions = array<i64: 0>} : (tensor<2x11x5xf32>, tensor<3x2x5x7xf32>, tensor<3xi64>) -> tensor<2x11x7xf32>
func.func @ragged_dot(%a: tensor<2x11x5xf32>, %b: tensor<3x2x5x7xf32>, %g: tensor<3xi64>) -> tensor<2x11x7xf32> {
  %0 = hlo.ragged_dot %a, %b, %g {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [1], lhs_contracting_dims = [2], rhs_contracting_dims = [2]>, lhs_ragged_dimensions = array<i64: 1>, rhs_group_dimensions = array<i64: 0>} : (tensor<2x11x5xf32>, tensor<3x2x5x7xf32>, tensor<3xi64>) -> tensor<2x11x7xf32>
  return %0 : tensor<2x11x7xf32>
}

// The same with per-batch group sizes [b, g].
// CHECK-LABEL: func.func @ragged_dot_grouped(
// CHECK: %{{.*}} = hlo.ragged_dot %{{.*}}, %{{.*}}, %{{.*}} {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [1], lhs_contracting_dims = [2], rhs_contracting_dims = [2]>, lhs_ragged_dimensions = array<i64: 1>, precision_config = [#hlo<precision DEFAULT>, #hlo<precision HIGH>], rhs_group_dimensions = array<i64: 0>} : (tensor<2x11x5xf32>, tensor<3x2x5x7xf32>, tensor<2x3xi32>) -> tensor<2x11x7xf32>
func.func @ragged_dot_grouped(%a: tensor<2x11x5xf32>, %b: tensor<3x2x5x7xf32>, %g: tensor<2x3xi32>) -> tensor<2x11x7xf32> {
  %0 = hlo.ragged_dot %a, %b, %g {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [1], lhs_contracting_dims = [2], rhs_contracting_dims = [2]>, lhs_ragged_dimensions = array<i64: 1>, rhs_group_dimensions = array<i64: 0>, precision_config = [#hlo<precision DEFAULT>, #hlo<precision HIGH>]} : (tensor<2x11x5xf32>, tensor<3x2x5x7xf32>, tensor<2x3xi32>) -> tensor<2x11x7xf32>
  return %0 : tensor<2x11x7xf32>
}

// Ragged contracting: [m, k] x [k, n] -> [g, m, n].
// CHECK-LABEL: func.func @ragged_dot_contracting(
// CHECK: %{{.*}} = hlo.ragged_dot %{{.*}}, %{{.*}}, %{{.*}} {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>, lhs_ragged_dimensions = array<i64: 1>, rhs_group_dimensions = array<i64>} : (tensor<11x5xf32>, tensor<5x7xf32>, tensor<3xi32>) -> tensor<3x11x7xf32>
func.func @ragged_dot_contracting(%a: tensor<11x5xf32>, %b: tensor<5x7xf32>, %g: tensor<3xi32>) -> tensor<3x11x7xf32> {
  %0 = hlo.ragged_dot %a, %b, %g {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>, lhs_ragged_dimensions = array<i64: 1>, rhs_group_dimensions = array<i64>} : (tensor<11x5xf32>, tensor<5x7xf32>, tensor<3xi32>) -> tensor<3x11x7xf32>
  return %0 : tensor<3x11x7xf32>
}

// Ragged batch: [b, m, k] x [b, k, n] -> [b, m, n].
// CHECK-LABEL: func.func @ragged_dot_batch(
// CHECK: %{{.*}} = hlo.ragged_dot %{{.*}}, %{{.*}}, %{{.*}} {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>, lhs_ragged_dimensions = array<i64: 0>, rhs_group_dimensions = array<i64>} : (tensor<3x11x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<3x11x7xf32>
func.func @ragged_dot_batch(%a: tensor<3x11x5xf32>, %b: tensor<3x5x7xf32>, %g: tensor<3xi64>) -> tensor<3x11x7xf32> {
  %0 = hlo.ragged_dot %a, %b, %g {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>, lhs_ragged_dimensions = array<i64: 0>, rhs_group_dimensions = array<i64>} : (tensor<3x11x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<3x11x7xf32>
  return %0 : tensor<3x11x7xf32>
}

// CHECK-LABEL: func.func @scaled_dot(
// CHECK: %{{.*}} = hlo.scaled_dot %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<16x64xf8E4M3FN>, tensor<64x32xf8E4M3FN>, tensor<16x2xf8E8M0FNU>, tensor<2x32xf8E8M0FNU>) -> tensor<16x32xbf16>
func.func @scaled_dot(%a: tensor<16x64xf8E4M3FN>, %b: tensor<64x32xf8E4M3FN>, %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<2x32xf8E8M0FNU>) -> tensor<16x32xbf16> {
  %0 = hlo.scaled_dot %a, %b, %sa, %sb {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<16x64xf8E4M3FN>, tensor<64x32xf8E4M3FN>, tensor<16x2xf8E8M0FNU>, tensor<2x32xf8E8M0FNU>) -> tensor<16x32xbf16>
  return %0 : tensor<16x32xbf16>
}

// CHECK-LABEL: func.func @scaled_dot_batch(
// CHECK: %{{.*}} = hlo.scaled_dot %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [2]>, precision_config = [#hlo<precision DEFAULT>, #hlo<precision DEFAULT>]} : (tensor<4x16x64xf4E2M1FN>, tensor<4x32x64xf4E2M1FN>, tensor<4x16x2xf8E8M0FNU>, tensor<4x32x2xf8E8M0FNU>) -> tensor<4x16x32xf32>
func.func @scaled_dot_batch(%a: tensor<4x16x64xf4E2M1FN>, %b: tensor<4x32x64xf4E2M1FN>, %sa: tensor<4x16x2xf8E8M0FNU>, %sb: tensor<4x32x2xf8E8M0FNU>) -> tensor<4x16x32xf32> {
  %0 = hlo.scaled_dot %a, %b, %sa, %sb {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [2]>, precision_config = [#hlo<precision DEFAULT>, #hlo<precision DEFAULT>]} : (tensor<4x16x64xf4E2M1FN>, tensor<4x32x64xf4E2M1FN>, tensor<4x16x2xf8E8M0FNU>, tensor<4x32x2xf8E8M0FNU>) -> tensor<4x16x32xf32>
  return %0 : tensor<4x16x32xf32>
}

// b01f_01io->b01f with stride 2 and SAME padding.
// CHECK-LABEL: func.func @convolution(
// CHECK: %{{.*}} = hlo.convolution %{{.*}}, %{{.*}} {dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>, window = #hlo.window<size = [3, 3], stride = [2, 2], pad_low = [1, 1], pad_high = [1, 1]>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
func.func @convolution(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32> {
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3, 3], stride = [2, 2], pad_low = [1, 1], pad_high = [1, 1]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
  return %0 : tensor<1x4x4x16xf32>
}

// bf01_oi01->bf01, dilations, depthwise (feature_group_count = input features).
// CHECK-LABEL: func.func @convolution_grouped(
// CHECK: %{{.*}} = hlo.convolution %{{.*}}, %{{.*}} {dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 1, input_spatial_dims = [2, 3], kernel_input_feature_dim = 1, kernel_output_feature_dim = 0, kernel_spatial_dims = [2, 3], output_batch_dim = 0, output_feature_dim = 1, output_spatial_dims = [2, 3]>, feature_group_count = 4 : i64, precision_config = [#hlo<precision HIGH>, #hlo<precision HIGH>], window = #hlo.window<size = [3, 3], lhs_dilation = [2, 1], rhs_dilation = [1, 3]>} : (tensor<2x4x10x10xf32>, tensor<8x1x3x3xf32>) -> tensor<2x8x17x4xf32>
func.func @convolution_grouped(%x: tensor<2x4x10x10xf32>, %w: tensor<8x1x3x3xf32>) -> tensor<2x8x17x4xf32> {
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3, 3], lhs_dilation = [2, 1], rhs_dilation = [1, 3]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 1, input_spatial_dims = [2, 3], kernel_input_feature_dim = 1, kernel_output_feature_dim = 0, kernel_spatial_dims = [2, 3], output_batch_dim = 0, output_feature_dim = 1, output_spatial_dims = [2, 3]>, feature_group_count = 4 : i64, precision_config = [#hlo<precision HIGH>, #hlo<precision HIGH>]} : (tensor<2x4x10x10xf32>, tensor<8x1x3x3xf32>) -> tensor<2x8x17x4xf32>
  return %0 : tensor<2x8x17x4xf32>
}

// A weight-gradient convolution: batch_group_count splits the batch.
// CHECK-LABEL: func.func @convolution_batch_groups(
// CHECK: %{{.*}} = hlo.convolution %{{.*}}, %{{.*}} {batch_group_count = 2 : i64, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>, window = #hlo.window<size = [3, 3]>} : (tensor<8x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<4x3x3x4xf32>
func.func @convolution_batch_groups(%x: tensor<8x5x5x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<4x3x3x4xf32> {
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3, 3]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>, batch_group_count = 2 : i64} : (tensor<8x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<4x3x3x4xf32>
  return %0 : tensor<4x3x3x4xf32>
}

// No spatial dimensions: a matmul written as a convolution.
// CHECK-LABEL: func.func @convolution_0d(
// CHECK: %{{.*}} = hlo.convolution %{{.*}}, %{{.*}} {dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 1, kernel_input_feature_dim = 0, kernel_output_feature_dim = 1, output_batch_dim = 0, output_feature_dim = 1>, window = #hlo.window<>} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
func.func @convolution_0d(%x: tensor<4x3xf32>, %w: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %0 = hlo.convolution %x, %w {window = #hlo.window<>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 1, kernel_input_feature_dim = 0, kernel_output_feature_dim = 1, output_batch_dim = 0, output_feature_dim = 1>} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// CHECK-LABEL: func.func @fft(
// CHECK: %{{.*}} = hlo.fft %{{.*}}, FFT, length = [16] : (tensor<4x16xcomplex<f32>>) -> tensor<4x16xcomplex<f32>>
// CHECK: %{{.*}} = hlo.fft %{{.*}}, IFFT, length = [4, 16] : (tensor<4x16xcomplex<f32>>) -> tensor<4x16xcomplex<f32>>
func.func @fft(%x: tensor<4x16xcomplex<f32>>) -> tensor<4x16xcomplex<f32>> {
  %0 = hlo.fft %x, FFT, length = [16] : (tensor<4x16xcomplex<f32>>) -> tensor<4x16xcomplex<f32>>
  %1 = hlo.fft %0, IFFT, length = [4, 16] : (tensor<4x16xcomplex<f32>>) -> tensor<4x16xcomplex<f32>>
  return %1 : tensor<4x16xcomplex<f32>>
}

// CHECK-LABEL: func.func @fft_real(
// CHECK: %{{.*}} = hlo.fft %{{.*}}, RFFT, length = [8, 16] : (tensor<3x8x16xf64>) -> tensor<3x8x9xcomplex<f64>>
// CHECK: %{{.*}} = hlo.fft %{{.*}}, IRFFT, length = [8, 16] : (tensor<3x8x9xcomplex<f64>>) -> tensor<3x8x16xf64>
func.func @fft_real(%x: tensor<3x8x16xf64>) -> tensor<3x8x16xf64> {
  %0 = hlo.fft %x, RFFT, length = [8, 16] : (tensor<3x8x16xf64>) -> tensor<3x8x9xcomplex<f64>>
  %1 = hlo.fft %0, IRFFT, length = [8, 16] : (tensor<3x8x9xcomplex<f64>>) -> tensor<3x8x16xf64>
  return %1 : tensor<3x8x16xf64>
}

// CHECK-LABEL: func.func @fft_3d(
// CHECK: %{{.*}} = hlo.fft %{{.*}}, RFFT, length = [4, 6, 17] : (tensor<2x4x6x17xf32>) -> tensor<2x4x6x9xcomplex<f32>>
func.func @fft_3d(%x: tensor<2x4x6x17xf32>) -> tensor<2x4x6x9xcomplex<f32>> {
  %0 = hlo.fft %x, RFFT, length = [4, 6, 17] : (tensor<2x4x6x17xf32>) -> tensor<2x4x6x9xcomplex<f32>>
  return %0 : tensor<2x4x6x9xcomplex<f32>>
}

// CHECK-LABEL: func.func @cholesky(
// CHECK: %{{.*}} = hlo.cholesky %{{.*}} : tensor<3x4x4xf32>
// CHECK: %{{.*}} = hlo.cholesky %{{.*}} {lower = true} : tensor<3x4x4xf32>
// CHECK: %{{.*}} = hlo.cholesky %{{.*}} : tensor<2x2xcomplex<f64>>
func.func @cholesky(%a: tensor<3x4x4xf32>, %c: tensor<2x2xcomplex<f64>>) -> tensor<3x4x4xf32> {
  %0 = hlo.cholesky %a : tensor<3x4x4xf32>
  %1 = hlo.cholesky %a {lower = true} : tensor<3x4x4xf32>
  %2 = hlo.cholesky %c : tensor<2x2xcomplex<f64>>
  return %0 : tensor<3x4x4xf32>
}

// CHECK-LABEL: func.func @triangular_solve(
// CHECK: %{{.*}} = hlo.triangular_solve %{{.*}}, %{{.*}} {left_side = true, lower = true, transpose_a = #hlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
// CHECK: %{{.*}} = hlo.triangular_solve %{{.*}}, %{{.*}} {left_side = false, lower = false, transpose_a = #hlo<transpose ADJOINT>, unit_diagonal = true} : (tensor<2x4x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
func.func @triangular_solve(%a: tensor<2x4x4xf32>, %b: tensor<2x4x3xf32>, %c: tensor<2x3x4xf32>) -> tensor<2x4x3xf32> {
  %0 = hlo.triangular_solve %a, %b {left_side = true, lower = true, unit_diagonal = false, transpose_a = #hlo<transpose NO_TRANSPOSE>} : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %1 = hlo.triangular_solve %a, %c {left_side = false, lower = false, unit_diagonal = true, transpose_a = #hlo<transpose ADJOINT>} : (tensor<2x4x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x4x3xf32>
}

// CHECK-LABEL: func.func @batch_norm_training(
// CHECK: %{{.*}}, %{{.*}}, %{{.*}} = hlo.batch_norm_training %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f32, feature_index = 3 : i64} : (tensor<8x4x4x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x4x4x16xf32>, tensor<16xf32>, tensor<16xf32>)
func.func @batch_norm_training(%x: tensor<8x4x4x16xf32>, %scale: tensor<16xf32>, %offset: tensor<16xf32>) -> tensor<8x4x4x16xf32> {
  %0:3 = hlo.batch_norm_training %x, %scale, %offset {epsilon = 1.000000e-03 : f32, feature_index = 3 : i64} : (tensor<8x4x4x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x4x4x16xf32>, tensor<16xf32>, tensor<16xf32>)
  return %0#0 : tensor<8x4x4x16xf32>
}

// CHECK-LABEL: func.func @batch_norm_inference(
// CHECK: %{{.*}} = hlo.batch_norm_inference %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64} : (tensor<8x16x4x4xbf16>, tensor<16xbf16>, tensor<16xbf16>, tensor<16xbf16>, tensor<16xbf16>) -> tensor<8x16x4x4xbf16>
func.func @batch_norm_inference(%x: tensor<8x16x4x4xbf16>, %scale: tensor<16xbf16>, %offset: tensor<16xbf16>, %mean: tensor<16xbf16>, %var: tensor<16xbf16>) -> tensor<8x16x4x4xbf16> {
  %0 = hlo.batch_norm_inference %x, %scale, %offset, %mean, %var {epsilon = 1.000000e-05 : f32, feature_index = 1 : i64} : (tensor<8x16x4x4xbf16>, tensor<16xbf16>, tensor<16xbf16>, tensor<16xbf16>, tensor<16xbf16>) -> tensor<8x16x4x4xbf16>
  return %0 : tensor<8x16x4x4xbf16>
}

// CHECK-LABEL: func.func @batch_norm_grad(
// CHECK: %{{.*}}, %{{.*}}, %{{.*}} = hlo.batch_norm_grad %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>)
func.func @batch_norm_grad(%x: tensor<8x16xf32>, %scale: tensor<16xf32>, %mean: tensor<16xf32>, %var: tensor<16xf32>, %dy: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0:3 = hlo.batch_norm_grad %x, %scale, %mean, %var, %dy {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>)
  return %0#0 : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @batch_norm_dynamic(
// CHECK: %{{.*}}, %{{.*}}, %{{.*}} = hlo.batch_norm_training %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<?x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<?x16xf32>, tensor<16xf32>, tensor<16xf32>)
func.func @batch_norm_dynamic(%x: tensor<?x16xf32>, %scale: tensor<16xf32>, %offset: tensor<16xf32>) -> tensor<?x16xf32> {
  %0:3 = hlo.batch_norm_training %x, %scale, %offset {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<?x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<?x16xf32>, tensor<16xf32>, tensor<16xf32>)
  return %0#0 : tensor<?x16xf32>
}
