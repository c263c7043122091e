// RUN: hlo-opt %s --split-input-file --passes=topk-rewriter | FileCheck %s

// JAX's approx_max_k on the CPU: a sort of the values with a broadcast iota
// along the sort dimension, a plain GT comparator, and slices of the first
// 16 elements of both results: one top-k.
// (The iota is left for dce.)
// CHECK-LABEL: func.func @approx_max_k
// CHECK-NOT:     hlo.sort
// CHECK:         %[[V:.*]], %[[I:.*]] = hlo.topk %arg0 {k = 16 : i64} : (tensor<64x4096xf32>) -> (tensor<64x16xf32>, tensor<64x16xi32>)
// CHECK-NEXT:    return %[[V]], %[[I]]
func.func private @gt(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>) -> tensor<i1> {
  %0 = hlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @approx_max_k(%x: tensor<64x4096xf32>) -> (tensor<64x16xf32>, tensor<64x16xi32>) {
  %0 = hlo.iota dim = 0 : tensor<4096xi32>
  %1 = hlo.broadcast %0, dims = [1] : (tensor<4096xi32>) -> tensor<64x4096xi32>
  %2:2 = hlo.sort %x, %1 {dimension = 1 : i64, to_apply = @gt} : (tensor<64x4096xf32>, tensor<64x4096xi32>) -> (tensor<64x4096xf32>, tensor<64x4096xi32>)
  %3 = hlo.slice %2#0, start = [0, 0], limit = [64, 16], strides = [1, 1] : (tensor<64x4096xf32>) -> tensor<64x16xf32>
  %4 = hlo.slice %2#1, start = [0, 0], limit = [64, 16], strides = [1, 1] : (tensor<64x4096xi32>) -> tensor<64x16xi32>
  return %3, %4 : tensor<64x16xf32>, tensor<64x16xi32>
}

// -----

// The smallest (`compare(rhs, lhs), GT`), values only, sorted along the
// first dimension: the top-k runs on the transposed operand and its result
// is transposed back.
// CHECK-LABEL: func.func @smallest_dim0
// CHECK-NEXT:    %[[T:.*]] = hlo.transpose %arg0, dims = [1, 0] : (tensor<10x3xi32>) -> tensor<3x10xi32>
// CHECK-NEXT:    %[[V:.*]], %{{.*}} = hlo.topk %[[T]] {k = 2 : i64, largest = false}
// CHECK-NEXT:    %[[B:.*]] = hlo.transpose %[[V]], dims = [1, 0] : (tensor<3x2xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    return %[[B]], %[[B]]
func.func private @lt(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i1> {
  %0 = hlo.compare GT, %b, %a : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @smallest_dim0(%x: tensor<10x3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>) {
  %0 = hlo.sort %x {dimension = 0 : i64, to_apply = @lt} : (tensor<10x3xi32>) -> tensor<10x3xi32>
  %1 = hlo.slice %0, start = [0, 0], limit = [2, 3], strides = [1, 1] : (tensor<10x3xi32>) -> tensor<2x3xi32>
  %2 = hlo.slice %0, start = [0, 0], limit = [2, 3], strides = [1, 1] : (tensor<10x3xi32>) -> tensor<2x3xi32>
  return %1, %2 : tensor<2x3xi32>, tensor<2x3xi32>
}

// -----

// Not a top-k: the whole sorted array is used, the slices differ in k, a
// slice drops part of another dimension, the second operand is not an iota
// along the sort dimension, the comparator computes more than a compare.
// CHECK-LABEL: func.func @not_topk
// CHECK-NOT:     hlo.topk
// CHECK-COUNT-5: hlo.sort
// CHECK-NOT:     hlo.topk
func.func private @gt2(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>) -> tensor<i1> {
  %0 = hlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func private @gt1(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func private @negated(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.negate %a : tensor<f32>
  %1 = hlo.negate %b : tensor<f32>
  %2 = hlo.compare GT, %0, %1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %2 : tensor<i1>
}
func.func @not_topk(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x2xf32>, tensor<4x3xf32>, tensor<2x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>) {
  %0 = hlo.sort %x {dimension = 1 : i64, to_apply = @gt1} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = hlo.sort %x {dimension = 1 : i64, to_apply = @gt1} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = hlo.slice %1, start = [0, 0], limit = [4, 2], strides = [1, 1] : (tensor<4x8xf32>) -> tensor<4x2xf32>
  %3 = hlo.slice %1, start = [0, 0], limit = [4, 3], strides = [1, 1] : (tensor<4x8xf32>) -> tensor<4x3xf32>
  %4 = hlo.sort %x {dimension = 1 : i64, to_apply = @gt1} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = hlo.slice %4, start = [0, 0], limit = [2, 2], strides = [1, 1] : (tensor<4x8xf32>) -> tensor<2x2xf32>
  %6 = hlo.iota dim = 0 : tensor<4x8xi32>
  %7:2 = hlo.sort %x, %6 {dimension = 1 : i64, to_apply = @gt2} : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>)
  %8 = hlo.slice %7#0, start = [0, 0], limit = [4, 2], strides = [1, 1] : (tensor<4x8xf32>) -> tensor<4x2xf32>
  %9 = hlo.sort %x {dimension = 1 : i64, to_apply = @negated} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %10 = hlo.slice %9, start = [0, 0], limit = [4, 2], strides = [1, 1] : (tensor<4x8xf32>) -> tensor<4x2xf32>
  return %0, %2, %3, %5, %8, %10 : tensor<4x8xf32>, tensor<4x2xf32>, tensor<4x3xf32>, tensor<2x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>
}
