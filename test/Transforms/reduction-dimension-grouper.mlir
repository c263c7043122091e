// RUN: hlo-opt %s --split-input-file --passes=reduction-dimension-grouper | FileCheck %s

func.func @sum(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}

// Adjacent reduced dims (given in any order) are merged by a bitcast; the
// result and attributes are unchanged.
// CHECK-LABEL: func.func @adjacent
// CHECK-NEXT:    %[[B:.*]] = hlo.bitcast %arg0 : (tensor<3x4x5x6xf32>) -> tensor<3x20x6xf32>
// CHECK-NEXT:    %[[R:.*]] = hlo.reduce %[[B]], %arg1 {dimensions = array<i64: 1>, hlo.layout = #hlo.layout<minor_to_major = [0, 1]>, to_apply = @sum} : (tensor<3x20x6xf32>, tensor<f32>) -> tensor<3x6xf32>
// CHECK-NEXT:    return %[[R]]
func.func @adjacent(%a: tensor<3x4x5x6xf32>, %z: tensor<f32>) -> tensor<3x6xf32> {
  %0 = hlo.reduce %a, %z {dimensions = array<i64: 2, 1>, to_apply = @sum, hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : (tensor<3x4x5x6xf32>, tensor<f32>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// -----

func.func @sum(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}

// Two runs of reduced dims; a full reduction becomes a rank-1 reduce.
// CHECK-LABEL: func.func @runs
// CHECK-NEXT:    %[[B1:.*]] = hlo.bitcast %arg0 : (tensor<3x4x5x6x7xf32>) -> tensor<12x5x42xf32>
// CHECK-NEXT:    hlo.reduce %[[B1]], %arg1 {dimensions = array<i64: 0, 2>, to_apply = @sum} : (tensor<12x5x42xf32>, tensor<f32>) -> tensor<5xf32>
// CHECK-NEXT:    %[[B2:.*]] = hlo.bitcast %arg0 : (tensor<3x4x5x6x7xf32>) -> tensor<2520xf32>
// CHECK-NEXT:    hlo.reduce %[[B2]], %arg1 {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<2520xf32>, tensor<f32>) -> tensor<f32>
func.func @runs(%a: tensor<3x4x5x6x7xf32>, %z: tensor<f32>) -> (tensor<5xf32>, tensor<f32>) {
  %0 = hlo.reduce %a, %z {dimensions = array<i64: 0, 1, 3, 4>, to_apply = @sum} : (tensor<3x4x5x6x7xf32>, tensor<f32>) -> tensor<5xf32>
  %1 = hlo.reduce %a, %z {dimensions = array<i64: 0, 1, 2, 3, 4>, to_apply = @sum} : (tensor<3x4x5x6x7xf32>, tensor<f32>) -> tensor<f32>
  return %0, %1 : tensor<5xf32>, tensor<f32>
}

// -----

func.func @argmax(%a: tensor<f32>, %i: tensor<i32>, %b: tensor<f32>, %j: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  %p = hlo.compare GT, %b, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %v = hlo.select %p, %b, %a : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %k = hlo.select %p, %j, %i : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
  return %v, %k : tensor<f32>, tensor<i32>
}

// A variadic reduce: every input is bitcast the same way.
// CHECK-LABEL: func.func @variadic
// CHECK-NEXT:    %[[X:.*]] = hlo.bitcast %arg0 : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
// CHECK-NEXT:    %[[I:.*]] = hlo.bitcast %arg1 : (tensor<2x3x4xi32>) -> tensor<2x12xi32>
// CHECK-NEXT:    hlo.reduce %[[X]], %[[I]], %arg2, %arg3 {dimensions = array<i64: 1>, to_apply = @argmax} : (tensor<2x12xf32>, tensor<2x12xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
func.func @variadic(%x: tensor<2x3x4xf32>, %i: tensor<2x3x4xi32>, %z: tensor<f32>, %zi: tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>) {
  %0:2 = hlo.reduce %x, %i, %z, %zi {dimensions = array<i64: 1, 2>, to_apply = @argmax} : (tensor<2x3x4xf32>, tensor<2x3x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<2xi32>
}

// -----

func.func @sum(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}

// Must not fire: no two reduced dims adjacent; an input with a non-default
// layout (reduction-layout-normalizer handles those first).
// CHECK-LABEL: func.func @no_group
// CHECK-NOT:     hlo.bitcast
// CHECK:         hlo.reduce %arg0, %arg1 {dimensions = array<i64: 0, 2>
// CHECK-NEXT:    %[[C:.*]] = hlo.copy
// CHECK-NEXT:    hlo.reduce %[[C]], %arg1 {dimensions = array<i64: 0, 1>
func.func @no_group(%a: tensor<3x4x5xf32>, %z: tensor<f32>) -> (tensor<4xf32>, tensor<5xf32>) {
  %0 = hlo.reduce %a, %z {dimensions = array<i64: 0, 2>, to_apply = @sum} : (tensor<3x4x5xf32>, tensor<f32>) -> tensor<4xf32>
  %c = hlo.copy %a {hlo.layout = #hlo.layout<minor_to_major = [0, 1, 2]>} : tensor<3x4x5xf32>
  %1 = hlo.reduce %c, %z {dimensions = array<i64: 0, 1>, to_apply = @sum} : (tensor<3x4x5xf32>, tensor<f32>) -> tensor<5xf32>
  return %0, %1 : tensor<4xf32>, tensor<5xf32>
}
