// RUN: hlo-opt %s --split-input-file --passes=stable-sort-expander | FileCheck %s

// No iota operand: one is appended along the sort dimension, the sort gets a
// copy of the comparator with two more s32 parameters that breaks ties
// between equivalent elements (cmp(a, b) == cmp(b, a)) by the iota, and the
// sort is no longer marked stable.
// CHECK-LABEL: func.func @stable
// CHECK-NEXT:    %[[I:.*]] = hlo.iota dim = 1 : tensor<4x8xi32>
// CHECK-NEXT:    %[[S:.*]]:2 = hlo.sort %arg0, %[[I]] {dimension = 1 : i64, to_apply = @lt.stable} : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>)
// CHECK-NEXT:    return %[[S]]#0 : tensor<4x8xf32>
// CHECK-LABEL: func.func private @lt.stable(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<i32>, %arg3: tensor<i32>) -> tensor<i1>
// CHECK-NEXT:    %[[C:.*]] = hlo.compare LT, %arg0, %arg1
// CHECK-NEXT:    %[[R:.*]] = hlo.compare LT, %arg1, %arg0
// CHECK-NEXT:    %[[SAME:.*]] = hlo.compare EQ, %[[C]], %[[R]] : (tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK-NEXT:    %[[TIE:.*]] = hlo.compare LT, %arg2, %arg3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:    %[[OUT:.*]] = hlo.select %[[SAME]], %[[TIE]], %[[C]]
// CHECK-NEXT:    return %[[OUT]]
func.func private @lt(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @stable(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = hlo.sort %x {dimension = 1 : i64, is_stable = true, to_apply = @lt} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// An s32 iota operand along the sort dimension is reused as the tie breaker
// (its parameters are 2 and 3); the shared comparator itself is untouched.
// CHECK-LABEL: func.func private @lt_keyed(
// CHECK-NEXT:    hlo.compare LT, %arg0, %arg1
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @reuses_iota
// CHECK-NEXT:    %[[I:.*]] = hlo.iota dim = 0 : tensor<16xi32>
// CHECK-NEXT:    %[[S:.*]]:2 = hlo.sort %arg0, %[[I]] {dimension = 0 : i64, to_apply = @lt_keyed.stable}
// CHECK-NEXT:    %[[U:.*]] = hlo.sort %arg0, %[[I]] {dimension = 0 : i64, to_apply = @lt_keyed}
// CHECK-LABEL: func.func private @lt_keyed.stable
// CHECK:         %[[TIE:.*]] = hlo.compare LT, %arg2, %arg3
// CHECK-NEXT:    hlo.select %{{.*}}, %[[TIE]], %{{.*}}
func.func private @lt_keyed(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>) -> tensor<i1> {
  %0 = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @reuses_iota(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xi32>, tensor<16xf32>) {
  %i = hlo.iota dim = 0 : tensor<16xi32>
  %0:2 = hlo.sort %x, %i {dimension = 0 : i64, is_stable = true, to_apply = @lt_keyed} : (tensor<16xf32>, tensor<16xi32>) -> (tensor<16xf32>, tensor<16xi32>)
  %1:2 = hlo.sort %x, %i {dimension = 0 : i64, to_apply = @lt_keyed} : (tensor<16xf32>, tensor<16xi32>) -> (tensor<16xf32>, tensor<16xi32>)
  return %0#0, %0#1, %1#0 : tensor<16xf32>, tensor<16xi32>, tensor<16xf32>
}

// -----

// An iota along another dimension (or of another type) is not a tie
// breaker: a new one is appended.
// CHECK-LABEL: func.func @iota_other_dim
// CHECK:         %[[I:.*]] = hlo.iota dim = 0 : tensor<3x5xi32>
// CHECK:         %[[NEW:.*]] = hlo.iota dim = 1 : tensor<3x5xi32>
// CHECK:         hlo.sort %arg0, %[[I]], %[[NEW]] {dimension = 1 : i64, to_apply = @lt2.stable} : (tensor<3x5xi32>, tensor<3x5xi32>, tensor<3x5xi32>) -> (tensor<3x5xi32>, tensor<3x5xi32>, tensor<3x5xi32>)
// CHECK-LABEL: func.func private @lt2.stable({{.*}}, %arg4: tensor<i32>, %arg5: tensor<i32>)
// CHECK:         hlo.compare LT, %arg4, %arg5
func.func private @lt2(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>) -> tensor<i1> {
  %0 = hlo.compare GT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @iota_other_dim(%x: tensor<3x5xi32>) -> tensor<3x5xi32> {
  %i = hlo.iota dim = 0 : tensor<3x5xi32>
  %0:2 = hlo.sort %x, %i {dimension = 1 : i64, is_stable = true, to_apply = @lt2} : (tensor<3x5xi32>, tensor<3x5xi32>) -> (tensor<3x5xi32>, tensor<3x5xi32>)
  return %0#0 : tensor<3x5xi32>
}

// -----

// Must not fire on sorts not marked stable.
// CHECK-LABEL: func.func @unstable
// CHECK-NEXT:    hlo.sort %arg0 {dimension = 0 : i64, to_apply = @lt} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NOT:     hlo.iota
// CHECK-NOT:     @lt.stable
func.func private @lt(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @unstable(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = hlo.sort %x {dimension = 0 : i64, to_apply = @lt} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
