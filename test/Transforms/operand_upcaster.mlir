// RUN: hlo-opt %s --split-input-file --passes=operand_upcaster | FileCheck %s

// Operands narrower than a dot's result type are converted to it; the dot
// keeps its attributes. bf16 x bf16 -> f32, s8 x s8 -> s32, and a mixed
// bf16 x f32 -> f32 (only the bf16 operand is converted).
// CHECK-LABEL: func.func @dots
// CHECK-NEXT:    %[[A:.*]] = hlo.convert %arg0 : (tensor<8x16xbf16>) -> tensor<8x16xf32>
// CHECK-NEXT:    %[[B:.*]] = hlo.convert %arg1 : (tensor<16x4xbf16>) -> tensor<16x4xf32>
// CHECK-NEXT:    %[[D0:.*]] = hlo.dot %[[A]], %[[B]] {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>, precision_config = [#hlo<precision HIGHEST>, #hlo<precision DEFAULT>]} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    %[[I:.*]] = hlo.convert %arg2 : (tensor<8x16xi8>) -> tensor<8x16xi32>
// CHECK-NEXT:    %[[J:.*]] = hlo.convert %arg3 : (tensor<16x4xi8>) -> tensor<16x4xi32>
// CHECK-NEXT:    %[[D1:.*]] = hlo.dot %[[I]], %[[J]] {{.*}} : (tensor<8x16xi32>, tensor<16x4xi32>) -> tensor<8x4xi32>
// CHECK-NEXT:    %[[M:.*]] = hlo.convert %arg0 : (tensor<8x16xbf16>) -> tensor<8x16xf32>
// CHECK-NEXT:    %[[D2:.*]] = hlo.dot %[[M]], %arg5 {{.*}} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
// Not upcast: a narrower result (result_caster's case) and equal types.
// CHECK-NEXT:    %[[D3:.*]] = hlo.dot %arg4, %arg5 {{.*}} -> tensor<8x4xbf16>
// CHECK-NEXT:    %[[D4:.*]] = hlo.dot %arg4, %arg5 {{.*}} -> tensor<8x4xf32>
// CHECK-NEXT:    return %[[D0]], %[[D1]], %[[D2]], %[[D3]], %[[D4]]
func.func @dots(%a: tensor<8x16xbf16>, %b: tensor<16x4xbf16>, %i: tensor<8x16xi8>, %j: tensor<16x4xi8>, %f: tensor<8x16xf32>, %g: tensor<16x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xi32>, tensor<8x4xf32>, tensor<8x4xbf16>, tensor<8x4xf32>) {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>, precision_config = [#hlo<precision HIGHEST>, #hlo<precision DEFAULT>]} : (tensor<8x16xbf16>, tensor<16x4xbf16>) -> tensor<8x4xf32>
  %1 = hlo.dot %i, %j {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<8x16xi8>, tensor<16x4xi8>) -> tensor<8x4xi32>
  %2 = hlo.dot %a, %g {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<8x16xbf16>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %3 = hlo.dot %f, %g {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xbf16>
  %4 = hlo.dot %f, %g {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %0, %1, %2, %3, %4 : tensor<8x4xf32>, tensor<8x4xi32>, tensor<8x4xf32>, tensor<8x4xbf16>, tensor<8x4xf32>
}

// -----

// Convolutions too: f16 x f16 -> f32 is computed on f32 operands.
// CHECK-LABEL: func.func @conv
// CHECK-NEXT:    %[[X:.*]] = hlo.convert %arg0 : (tensor<1x8x8x3xf16>) -> tensor<1x8x8x3xf32>
// CHECK-NEXT:    %[[W:.*]] = hlo.convert %arg1 : (tensor<3x3x3x4xf16>) -> tensor<3x3x3x4xf32>
// CHECK-NEXT:    hlo.convolution %[[X]], %[[W]] {{.*}} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
// CHECK-NEXT:    hlo.convolution %arg2, %arg3 {{.*}} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf16>
func.func @conv(%x: tensor<1x8x8x3xf16>, %w: tensor<3x3x3x4xf16>, %y: tensor<1x8x8x3xf32>, %v: tensor<3x3x3x4xf32>) -> (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf16>) {
  %0 = hlo.convolution %x, %w {dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>, window = #hlo.window<size = [3, 3], pad_low = [1, 1], pad_high = [1, 1]>} : (tensor<1x8x8x3xf16>, tensor<3x3x3x4xf16>) -> tensor<1x8x8x4xf32>
  %1 = hlo.convolution %y, %v {dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>, window = #hlo.window<size = [3, 3], pad_low = [1, 1], pad_high = [1, 1]>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf16>
  return %0, %1 : tensor<1x8x8x4xf32>, tensor<1x8x8x4xf16>
}

// -----

// f8E4M3FN x f8E5M2 -> bf16: the inferred type is f8E5M2 (more range), and
// bf16 is more precise still, so both operands are converted.
// CHECK-LABEL: func.func @fp8
// CHECK-NEXT:    hlo.convert %arg0 : (tensor<2x4xf8E4M3FN>) -> tensor<2x4xbf16>
// CHECK-NEXT:    hlo.convert %arg1 : (tensor<4x3xf8E5M2>) -> tensor<4x3xbf16>
// CHECK-NEXT:    hlo.dot {{.*}} : (tensor<2x4xbf16>, tensor<4x3xbf16>) -> tensor<2x3xbf16>
func.func @fp8(%a: tensor<2x4xf8E4M3FN>, %b: tensor<4x3xf8E5M2>) -> tensor<2x3xbf16> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<2x4xf8E4M3FN>, tensor<4x3xf8E5M2>) -> tensor<2x3xbf16>
  return %0 : tensor<2x3xbf16>
}
