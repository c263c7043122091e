// RUN: hlo-opt %s --split-input-file --passes=result_caster | FileCheck %s

// A dot whose result is narrower than its operands' type is computed in the
// operands' type and converted; f32 x f32 -> bf16 and bf16 x f32 -> bf16.
// CHECK-LABEL: func.func @dots
// CHECK-NEXT:    %[[D0:.*]] = hlo.dot %arg0, %arg1 {{.*}} : (tensor<8x16xbf16>, tensor<16x4xbf16>) -> tensor<8x4xf32>
// CHECK-NEXT:    %[[D1:.*]] = hlo.dot %arg2, %arg3 {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>, precision_config = [#hlo<precision HIGH>, #hlo<precision HIGH>]} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    %[[C1:.*]] = hlo.convert %[[D1]] : (tensor<8x4xf32>) -> tensor<8x4xbf16>
// CHECK-NEXT:    %[[D2:.*]] = hlo.dot %arg0, %arg3 {{.*}} : (tensor<8x16xbf16>, tensor<16x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    %[[C2:.*]] = hlo.convert %[[D2]] : (tensor<8x4xf32>) -> tensor<8x4xbf16>
// CHECK-NEXT:    return %[[D0]], %[[C1]], %[[C2]]
func.func @dots(%a: tensor<8x16xbf16>, %b: tensor<16x4xbf16>, %f: tensor<8x16xf32>, %g: tensor<16x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xbf16>, tensor<8x4xbf16>) {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<8x16xbf16>, tensor<16x4xbf16>) -> tensor<8x4xf32>
  %1 = hlo.dot %f, %g {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>, precision_config = [#hlo<precision HIGH>, #hlo<precision HIGH>]} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xbf16>
  %2 = hlo.dot %a, %g {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<8x16xbf16>, tensor<16x4xf32>) -> tensor<8x4xbf16>
  return %0, %1, %2 : tensor<8x4xf32>, tensor<8x4xbf16>, tensor<8x4xbf16>
}

// -----

// Convolutions too; the layout is on both the wide convolution and the
// convert (XLA gives the inferred shape the instruction's layout).
// CHECK-LABEL: func.func @conv
// CHECK-NEXT:    %[[C:.*]] = hlo.convolution %arg0, %arg1 {{{.*}}hlo.layout = #hlo.layout<minor_to_major = [0, 1, 2, 3]>{{.*}}} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
// CHECK-NEXT:    %[[R:.*]] = hlo.convert %[[C]] {hlo.layout = #hlo.layout<minor_to_major = [0, 1, 2, 3]>} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf16>
// CHECK-NEXT:    return %[[R]]
func.func @conv(%y: tensor<1x8x8x3xf32>, %v: tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf16> {
  %0 = hlo.convolution %y, %v {dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>, window = #hlo.window<size = [3, 3], pad_low = [1, 1], pad_high = [1, 1]>, hlo.layout = #hlo.layout<minor_to_major = [0, 1, 2, 3]>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf16>
  return %0 : tensor<1x8x8x4xf16>
}

// -----

// Integer results narrower than the operands: s32 x s32 -> s8.
// CHECK-LABEL: func.func @ints
// CHECK-NEXT:    %[[D:.*]] = hlo.dot %arg0, %arg1 {{.*}} -> tensor<2x3xi32>
// CHECK-NEXT:    %[[C:.*]] = hlo.convert %[[D]] : (tensor<2x3xi32>) -> tensor<2x3xi8>
// CHECK-NEXT:    return %[[C]]
func.func @ints(%a: tensor<2x4xi32>, %b: tensor<4x3xi32>) -> tensor<2x3xi8> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<2x4xi32>, tensor<4x3xi32>) -> tensor<2x3xi8>
  return %0 : tensor<2x3xi8>
}
