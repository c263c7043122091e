// RUN: hlo-opt %s --split-input-file --passes=excess-precision | FileCheck %s

// A bf16 product converted to f32 is the f32 product (XLA's FloatNormalization
// with xla_allow_excess_precision); the other user keeps the rounded value,
// now a convert of the same f32 product.
// CHECK-LABEL: func.func @multiply
// CHECK-NEXT:    %[[A:.*]] = hlo.convert %arg0 : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK-NEXT:    %[[B:.*]] = hlo.convert %arg1 : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %[[A]], %[[B]] : tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = hlo.convert %[[M]] : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK-NEXT:    return %[[M]], %[[R]]
func.func @multiply(%a: tensor<4xbf16>, %b: tensor<4xbf16>) -> (tensor<4xf32>, tensor<4xbf16>) {
  %0 = hlo.multiply %a, %b : tensor<4xbf16>
  %1 = hlo.convert %0 : (tensor<4xbf16>) -> tensor<4xf32>
  return %1, %0 : tensor<4xf32>, tensor<4xbf16>
}

// -----

// A bf16 dot feeding only a convert to f32 becomes a dot of the same bf16
// operands to f32; only the last rounding goes: the tanh before the product
// still rounds to bf16.
// CHECK-LABEL: func.func @dot
// CHECK-NEXT:    %[[T:.*]] = hlo.tanh %arg0 : tensor<2x8xbf16>
// CHECK-NEXT:    %[[D:.*]] = hlo.dot %[[T]], %arg1 {{.*}} : (tensor<2x8xbf16>, tensor<8x4xbf16>) -> tensor<2x4xf32>
// CHECK-NEXT:    return %[[D]]
func.func @dot(%x: tensor<2x8xbf16>, %w: tensor<8x4xbf16>) -> tensor<2x4xf32> {
  %t = hlo.tanh %x : tensor<2x8xbf16>
  %0 = hlo.dot %t, %w {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<2x8xbf16>, tensor<8x4xbf16>) -> tensor<2x4xbf16>
  %1 = hlo.convert %0 : (tensor<2x4xbf16>) -> tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}

// -----

// Left alone: converts to f64 or int, a convert of a convert (the user's own
// rounding, x.astype(bf16).astype(f32)), f16 and data movement.
// CHECK-LABEL: func.func @unchanged
// CHECK-NEXT:    hlo.add %arg0, %arg0 : tensor<4xbf16>
// CHECK-NEXT:    hlo.convert %{{.*}} : (tensor<4xbf16>) -> tensor<4xf64>
// CHECK-NEXT:    hlo.convert %{{.*}} : (tensor<4xbf16>) -> tensor<4xi32>
// CHECK-NEXT:    hlo.convert %arg1 : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK-NEXT:    hlo.convert %{{.*}} : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK-NEXT:    hlo.add %arg2, %arg2 : tensor<4xf16>
// CHECK-NEXT:    hlo.convert %{{.*}} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NEXT:    hlo.reverse
// CHECK-NEXT:    hlo.convert %{{.*}} : (tensor<4xbf16>) -> tensor<4xf32>
func.func @unchanged(%a: tensor<4xbf16>, %f: tensor<4xf32>, %h: tensor<4xf16>) -> (tensor<4xf64>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = hlo.add %a, %a : tensor<4xbf16>
  %1 = hlo.convert %0 : (tensor<4xbf16>) -> tensor<4xf64>
  %2 = hlo.convert %0 : (tensor<4xbf16>) -> tensor<4xi32>
  %3 = hlo.convert %f : (tensor<4xf32>) -> tensor<4xbf16>
  %4 = hlo.convert %3 : (tensor<4xbf16>) -> tensor<4xf32>
  %5 = hlo.add %h, %h : tensor<4xf16>
  %6 = hlo.convert %5 : (tensor<4xf16>) -> tensor<4xf32>
  %7 = hlo.reverse %a, dims = [0] : tensor<4xbf16>
  %8 = hlo.convert %7 : (tensor<4xbf16>) -> tensor<4xf32>
  return %1, %2, %4, %6, %8 : tensor<4xf64>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
