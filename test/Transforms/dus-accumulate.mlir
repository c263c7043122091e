// RUN: hlo-opt %s --split-input-file --passes=dus-accumulate | FileCheck %s

// The gradient of x[:, t] in a loop: the slice's cotangent written into
// zeros and added to the accumulator becomes an update of the
// accumulator's slice.
// CHECK-LABEL: func.func @accumulate
// CHECK:         %[[S:.*]] = hlo.dynamic_slice %arg0[%arg2, %arg3], sizes = [4, 1] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x1xf32>
// CHECK-NEXT:    %[[A:.*]] = hlo.add %[[S]], %arg1 : tensor<4x1xf32>
// CHECK-NEXT:    %[[U:.*]] = hlo.dynamic_update_slice %arg0, %[[A]][%arg2, %arg3] : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
// CHECK-NEXT:    return %[[U]]
func.func @accumulate(%acc: tensor<4x8xf32>, %u: tensor<4x1xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<4x8xf32> {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %zeros = hlo.broadcast %z, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  %d = hlo.dynamic_update_slice %zeros, %u[%i, %j] : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  %r = hlo.add %d, %acc : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Not rewritten: the update is written into something other than zeros,
// or the dynamic-update-slice has another user.
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     hlo.dynamic_slice
// CHECK-COUNT-2: hlo.add
func.func @kept(%acc: tensor<8xi32>, %base: tensor<8xi32>, %u: tensor<2xi32>, %i: tensor<i32>) -> (tensor<8xi32>, tensor<8xi32>, tensor<8xi32>) {
  %d = hlo.dynamic_update_slice %base, %u[%i] : (tensor<8xi32>, tensor<2xi32>, tensor<i32>) -> tensor<8xi32>
  %r = hlo.add %acc, %d : tensor<8xi32>
  %zeros = hlo.constant dense<0> : tensor<8xi32>
  %e = hlo.dynamic_update_slice %zeros, %u[%i] : (tensor<8xi32>, tensor<2xi32>, tensor<i32>) -> tensor<8xi32>
  %s = hlo.add %acc, %e : tensor<8xi32>
  return %r, %s, %e : tensor<8xi32>, tensor<8xi32>, tensor<8xi32>
}
