// RUN: hlo-opt %s --split-input-file --passes=reduction-layout-normalizer | FileCheck %s --check-prefixes=CHECK,REORDER
// RUN: hlo-opt %s --split-input-file --passes='reduction-layout-normalizer{keep-reduction-order=true}' | FileCheck %s --check-prefixes=CHECK,KEEP

func.func @sum(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}

// The input is bitcast to its physical shape [6, 5, 4]; the reduce keeps
// the kept dims in physical order with a layout that makes the final
// bitcast to the original result (and layout) a physical no-op.
// CHECK-LABEL: func.func @physical
// CHECK-NEXT:    %[[B:.*]] = hlo.bitcast %arg0 : (tensor<4x6x5xf32>) -> tensor<6x5x4xf32>
// CHECK-NEXT:    %[[R:.*]] = hlo.reduce %[[B]], %arg1 {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<6x5x4xf32>, tensor<f32>) -> tensor<5x4xf32>
// CHECK-NEXT:    %[[O:.*]] = hlo.bitcast %[[R]] {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : (tensor<5x4xf32>) -> tensor<4x5xf32>
// CHECK-NEXT:    %[[B2:.*]] = hlo.bitcast %arg0 : (tensor<4x6x5xf32>) -> tensor<6x5x4xf32>
// CHECK-NEXT:    %[[R2:.*]] = hlo.reduce %[[B2]], %arg1 {dimensions = array<i64: 1>, hlo.layout = #hlo.layout<minor_to_major = [0, 1]>, to_apply = @sum} : (tensor<6x5x4xf32>, tensor<f32>) -> tensor<6x4xf32>
// CHECK-NEXT:    %[[O2:.*]] = hlo.bitcast %[[R2]] : (tensor<6x4xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    return %[[O]], %[[O2]]
func.func @physical(%a: tensor<4x6x5xf32> {hlo.layout = #hlo.layout<minor_to_major = [0, 2, 1]>}, %z: tensor<f32>) -> (tensor<4x5xf32>, tensor<4x6xf32>) {
  %0 = hlo.reduce %a, %z {dimensions = array<i64: 1>, to_apply = @sum, hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : (tensor<4x6x5xf32>, tensor<f32>) -> tensor<4x5xf32>
  %1 = hlo.reduce %a, %z {dimensions = array<i64: 2>, to_apply = @sum} : (tensor<4x6x5xf32>, tensor<f32>) -> tensor<4x6xf32>
  return %0, %1 : tensor<4x5xf32>, tensor<4x6xf32>
}

// -----

func.func @sum(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func @imax(%x: tensor<i32>, %y: tensor<i32>) -> tensor<i32> {
  %0 = hlo.maximum %y, %x : tensor<i32>
  return %0 : tensor<i32>
}

// The layout visits reduced dims 2 then 0. By default both reduces read
// memory in order (a float sum then adds in another order, as XLA's pass
// does); with keep-reduction-order=true the float sum is left alone and
// only the integer maximum, which does not care, is rewritten.
// CHECK-LABEL: func.func @order
// REORDER-NEXT:  %[[FB:.*]] = hlo.bitcast %arg0 : (tensor<4x6x5xf32>) -> tensor<6x5x4xf32>
// REORDER-NEXT:  %[[F:.*]] = hlo.reduce %[[FB]], %arg2 {dimensions = array<i64: 1, 2>, to_apply = @sum} : (tensor<6x5x4xf32>, tensor<f32>) -> tensor<6xf32>
// KEEP-NEXT:     %[[F:.*]] = hlo.reduce %arg0, %arg2 {dimensions = array<i64: 0, 2>, to_apply = @sum}
// CHECK-NEXT:    %[[B:.*]] = hlo.bitcast %arg1 : (tensor<4x6x5xi32>) -> tensor<6x5x4xi32>
// CHECK-NEXT:    %[[I:.*]] = hlo.reduce %[[B]], %arg3 {dimensions = array<i64: 1, 2>, to_apply = @imax} : (tensor<6x5x4xi32>, tensor<i32>) -> tensor<6xi32>
// CHECK-NEXT:    return %[[F]], %[[I]]
func.func @order(%a: tensor<4x6x5xf32> {hlo.layout = #hlo.layout<minor_to_major = [0, 2, 1]>}, %b: tensor<4x6x5xi32> {hlo.layout = #hlo.layout<minor_to_major = [0, 2, 1]>}, %z: tensor<f32>, %zi: tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>) {
  %0 = hlo.reduce %a, %z {dimensions = array<i64: 0, 2>, to_apply = @sum} : (tensor<4x6x5xf32>, tensor<f32>) -> tensor<6xf32>
  %1 = hlo.reduce %b, %zi {dimensions = array<i64: 0, 2>, to_apply = @imax} : (tensor<4x6x5xi32>, tensor<i32>) -> tensor<6xi32>
  return %0, %1 : tensor<6xf32>, tensor<6xi32>
}

// -----

func.func @argmax(%a: tensor<f32>, %i: tensor<i32>, %b: tensor<f32>, %j: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  %p = hlo.compare GT, %b, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %v = hlo.select %p, %b, %a : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %k = hlo.select %p, %j, %i : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
  return %v, %k : tensor<f32>, tensor<i32>
}

// A variadic reduce whose inputs share a column-major layout: both are
// bitcast; its results need no layout.
// CHECK-LABEL: func.func @variadic
// CHECK:         %[[X:.*]] = hlo.bitcast %{{.*}} : (tensor<4x6xf32>) -> tensor<6x4xf32>
// CHECK-NEXT:    %[[I:.*]] = hlo.bitcast %{{.*}} : (tensor<4x6xi32>) -> tensor<6x4xi32>
// CHECK-NEXT:    %[[R:.*]]:2 = hlo.reduce %[[X]], %[[I]], %arg1, %arg2 {dimensions = array<i64: 1>, to_apply = @argmax} : (tensor<6x4xf32>, tensor<6x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>)
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1
func.func @variadic(%x: tensor<4x6xf32>, %z: tensor<f32>, %zi: tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>) {
  %a = hlo.copy %x {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : tensor<4x6xf32>
  %i = hlo.iota dim = 0 {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : tensor<4x6xi32>
  %0:2 = hlo.reduce %a, %i, %z, %zi {dimensions = array<i64: 0>, to_apply = @argmax} : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>)
  return %0#0, %0#1 : tensor<6xf32>, tensor<6xi32>
}

// -----

func.func @sum(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}

// Default-layout inputs are left alone.
// CHECK-LABEL: func.func @default_layout
// CHECK-NEXT:    hlo.reduce %arg0, %arg1 {dimensions = array<i64: 1>
// CHECK-NEXT:    return
func.func @default_layout(%a: tensor<4x6xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %0 = hlo.reduce %a, %z {dimensions = array<i64: 1>, to_apply = @sum} : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
