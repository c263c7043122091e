// RUN: hlo-opt %s --split-input-file --passes=layout-normalization | FileCheck %s --check-prefixes=CHECK,REORDER
// RUN: hlo-opt %s --split-input-file --passes='layout-normalization{keep-reduction-order=true}' | FileCheck %s --check-prefixes=CHECK,KEEP

// A transpose whose layout makes it physically a no-op (what JAX emits for
// x.T at the root) is just a bitcast; the result keeps its layout (ABI).
// CHECK-LABEL: func.func @bitcast_transpose
// CHECK-NEXT:    %[[B:.*]] = hlo.bitcast %arg0 {hlo.layout = #hlo.layout<minor_to_major = [2, 0, 1]>} : (tensor<5x7x3xi8>) -> tensor<7x5x3xi8>
// CHECK-NEXT:    return %[[B]]
func.func @bitcast_transpose(%x: tensor<5x7x3xi8>) -> tensor<7x5x3xi8> {
  %0 = hlo.transpose %x, dims = [1, 0, 2] {hlo.layout = #hlo.layout<minor_to_major = [2, 0, 1]>} : (tensor<5x7x3xi8>) -> tensor<7x5x3xi8>
  return %0 : tensor<7x5x3xi8>
}

// -----

// Elementwise ops run on the physical shape: a parameter with a layout is
// read through a bitcast, a default-layout operand through an explicit
// transpose; the root goes back through a bitcast with the old layout.
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME:    (%arg0: tensor<2x3xf32> {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>}, %arg1: tensor<2x3xf32>)
// CHECK-NEXT:    %[[A:.*]] = hlo.bitcast %arg0 : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %[[B:.*]] = hlo.transpose %arg1, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %[[ADD:.*]] = hlo.add %[[A]], %[[B]] : tensor<3x2xf32>
// CHECK-NEXT:    %[[EXP:.*]] = hlo.exponential %[[ADD]] : tensor<3x2xf32>
// CHECK-NEXT:    %[[OUT:.*]] = hlo.bitcast %[[EXP]] {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[OUT]]
func.func @elementwise(%a: tensor<2x3xf32> {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>}, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.add %a, %b {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : tensor<2x3xf32>
  %1 = hlo.exponential %0 {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// XLA's "transpose with a bitcast layout, then a copy to the default
// layout" is one physical transpose.
// CHECK-LABEL: func.func @transpose_copy
// CHECK-NEXT:    %[[T:.*]] = hlo.transpose %arg0, dims = [0, 2, 3, 1] : (tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32>
// CHECK-NEXT:    return %[[T]]
func.func @transpose_copy(%x: tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32> {
  %0 = hlo.transpose %x, dims = [0, 2, 3, 1] {hlo.layout = #hlo.layout<minor_to_major = [2, 1, 3, 0]>} : (tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32>
  %1 = hlo.copy %0 : tensor<1x8x8x3xf32>
  return %1 : tensor<1x8x8x3xf32>
}

// -----

// A reshape between non-default layouts: transpose, reshape, transpose.
// CHECK-LABEL: func.func @reshape
// CHECK-NEXT:    %[[A:.*]] = hlo.bitcast %arg0 : (tensor<4x6xf32>) -> tensor<6x4xf32>
// CHECK-NEXT:    %[[T1:.*]] = hlo.transpose %[[A]], dims = [1, 0] : (tensor<6x4xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    %[[R:.*]] = hlo.reshape %[[T1]] : (tensor<4x6xf32>) -> tensor<2x12xf32>
// CHECK-NEXT:    %[[T2:.*]] = hlo.transpose %[[R]], dims = [1, 0] : (tensor<2x12xf32>) -> tensor<12x2xf32>
// CHECK-NEXT:    %[[OUT:.*]] = hlo.bitcast %[[T2]] {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : (tensor<12x2xf32>) -> tensor<2x12xf32>
// CHECK-NEXT:    return %[[OUT]]
func.func @reshape(%a: tensor<4x6xf32> {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>}) -> tensor<2x12xf32> {
  %0 = hlo.reshape %a {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : (tensor<4x6xf32>) -> tensor<2x12xf32>
  return %0 : tensor<2x12xf32>
}

// -----

// Broadcast dims, the iota dimension and splat constants are rewritten for
// the physical shape; other constants are transposed.
// CHECK-LABEL: func.func @generators
// CHECK-NEXT:    %[[BR:.*]] = hlo.broadcast %arg0, dims = [2] : (tensor<3xf32>) -> tensor<4x5x3xf32>
// CHECK-NEXT:    %[[O1:.*]] = hlo.bitcast %[[BR]] {hlo.layout = #hlo.layout<minor_to_major = [0, 2, 1]>} : (tensor<4x5x3xf32>) -> tensor<3x4x5xf32>
// CHECK-NEXT:    %[[IOTA:.*]] = hlo.iota dim = 0 : tensor<6x4xi32>
// CHECK-NEXT:    %[[O2:.*]] = hlo.bitcast %[[IOTA]] {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>}
// CHECK-NEXT:    %[[SPLAT:.*]] = hlo.constant dense<1.500000e+00> : tensor<3x2xf32>
// CHECK-NEXT:    %[[O3:.*]] = hlo.bitcast %[[SPLAT]] {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>}
// CHECK-NEXT:    %[[K:.*]] = hlo.constant dense<{{\[\[}}1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
// CHECK-NEXT:    %[[KT:.*]] = hlo.transpose %[[K]], dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
// CHECK-NEXT:    %[[O4:.*]] = hlo.bitcast %[[KT]] {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>}
// CHECK-NEXT:    return %[[O1]], %[[O2]], %[[O3]], %[[O4]]
func.func @generators(%s: tensor<3xf32>) -> (tensor<3x4x5xf32>, tensor<4x6xi32>, tensor<2x3xf32>, tensor<2x3xi32>) {
  %0 = hlo.broadcast %s, dims = [0] {hlo.layout = #hlo.layout<minor_to_major = [0, 2, 1]>} : (tensor<3xf32>) -> tensor<3x4x5xf32>
  %1 = hlo.iota dim = 1 {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : tensor<4x6xi32>
  %2 = hlo.constant {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} dense<1.5> : tensor<2x3xf32>
  %3 = hlo.constant {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  return %0, %1, %2, %3 : tensor<3x4x5xf32>, tensor<4x6xi32>, tensor<2x3xf32>, tensor<2x3xi32>
}

// -----

// Layout-preserving movement ops get their per-dimension attributes (and
// start index operands) permuted.
// CHECK-LABEL: func.func @movement
// CHECK-NEXT:    %[[A:.*]] = hlo.bitcast %arg0 : (tensor<4x6x5xf32>) -> tensor<6x5x4xf32>
// CHECK-NEXT:    %[[S:.*]] = hlo.slice %[[A]], start = [0, 0, 1], limit = [6, 5, 3], strides = [2, 1, 1] : (tensor<6x5x4xf32>) -> tensor<3x5x2xf32>
// CHECK-NEXT:    hlo.bitcast %[[S]] {hlo.layout = #hlo.layout<minor_to_major = [0, 2, 1]>}
// CHECK-NEXT:    %[[P:.*]] = hlo.pad %[[A]], %arg1, low = [0, 0, 1], high = [0, 0, 2], interior = [0, 0, 0] : (tensor<6x5x4xf32>, tensor<f32>) -> tensor<6x5x7xf32>
// CHECK-NEXT:    hlo.bitcast %[[P]]
// CHECK-NEXT:    %[[R:.*]] = hlo.reverse %[[A]], dims = [0, 2] : tensor<6x5x4xf32>
// CHECK-NEXT:    %[[C:.*]] = hlo.concatenate(%[[A]], %[[R]]), dim = 2 : (tensor<6x5x4xf32>, tensor<6x5x4xf32>) -> tensor<6x5x8xf32>
// CHECK-NEXT:    hlo.bitcast %[[C]]
// CHECK-NEXT:    %[[DS:.*]] = hlo.dynamic_slice %[[A]][%arg2, %arg3, %arg4], sizes = [2, 5, 2] : {{.*}} -> tensor<2x5x2xf32>
// CHECK-NEXT:    %[[DUS:.*]] = hlo.dynamic_update_slice %[[A]], %[[DS]][%arg2, %arg3, %arg4] : {{.*}} -> tensor<6x5x4xf32>
// CHECK-NEXT:    hlo.bitcast %[[DUS]]
func.func @movement(%a: tensor<4x6x5xf32> {hlo.layout = #hlo.layout<minor_to_major = [0, 2, 1]>}, %z: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>, %k: tensor<i32>) -> (tensor<2x3x5xf32>, tensor<7x6x5xf32>, tensor<8x6x5xf32>, tensor<4x6x5xf32>) {
  %0 = hlo.slice %a, start = [1, 0, 0], limit = [3, 6, 5], strides = [1, 2, 1] {hlo.layout = #hlo.layout<minor_to_major = [0, 2, 1]>} : (tensor<4x6x5xf32>) -> tensor<2x3x5xf32>
  %1 = hlo.pad %a, %z, low = [1, 0, 0], high = [2, 0, 0], interior = [0, 0, 0] {hlo.layout = #hlo.layout<minor_to_major = [0, 2, 1]>} : (tensor<4x6x5xf32>, tensor<f32>) -> tensor<7x6x5xf32>
  %2 = hlo.reverse %a, dims = [0, 1] {hlo.layout = #hlo.layout<minor_to_major = [0, 2, 1]>} : tensor<4x6x5xf32>
  %3 = hlo.concatenate(%a, %2), dim = 0 {hlo.layout = #hlo.layout<minor_to_major = [0, 2, 1]>} : (tensor<4x6x5xf32>, tensor<4x6x5xf32>) -> tensor<8x6x5xf32>
  %4 = hlo.dynamic_slice %a[%k, %i, %j], sizes = [2, 2, 5] {hlo.layout = #hlo.layout<minor_to_major = [0, 2, 1]>} : (tensor<4x6x5xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x5xf32>
  %5 = hlo.dynamic_update_slice %a, %4[%k, %i, %j] {hlo.layout = #hlo.layout<minor_to_major = [0, 2, 1]>} : (tensor<4x6x5xf32>, tensor<2x2x5xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x6x5xf32>
  return %0, %1, %3, %5 : tensor<2x3x5xf32>, tensor<7x6x5xf32>, tensor<8x6x5xf32>, tensor<4x6x5xf32>
}

// -----

func.func @sum(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}

// A reduce over the physical input, reading memory in order. When the
// layout reorders two reduced dims of a float sum, that adds in another
// order (as XLA does); with keep-reduction-order=true the input is
// transposed back to logical order instead.
// CHECK-LABEL: func.func @reduce
// CHECK-NEXT:    %[[A:.*]] = hlo.bitcast %arg0 : (tensor<4x6x5xf32>) -> tensor<6x5x4xf32>
// CHECK-NEXT:    %[[R1:.*]] = hlo.reduce %[[A]], %arg1 {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<6x5x4xf32>, tensor<f32>) -> tensor<5x4xf32>
// CHECK-NEXT:    %[[O1:.*]] = hlo.bitcast %[[R1]] {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : (tensor<5x4xf32>) -> tensor<4x5xf32>
// REORDER-NEXT:  %[[R2:.*]] = hlo.reduce %[[A]], %arg1 {dimensions = array<i64: 1, 2>, to_apply = @sum} : (tensor<6x5x4xf32>, tensor<f32>) -> tensor<6xf32>
// KEEP-NEXT:     %[[L:.*]] = hlo.transpose %[[A]], dims = [2, 0, 1] : (tensor<6x5x4xf32>) -> tensor<4x6x5xf32>
// KEEP-NEXT:     %[[R2:.*]] = hlo.reduce %[[L]], %arg1 {dimensions = array<i64: 0, 2>, to_apply = @sum}
// CHECK-NEXT:    return %[[O1]], %[[R2]]
func.func @reduce(%a: tensor<4x6x5xf32> {hlo.layout = #hlo.layout<minor_to_major = [0, 2, 1]>}, %z: tensor<f32>) -> (tensor<4x5xf32>, tensor<6xf32>) {
  %0 = hlo.reduce %a, %z {dimensions = array<i64: 1>, to_apply = @sum, hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : (tensor<4x6x5xf32>, tensor<f32>) -> tensor<4x5xf32>
  %1 = hlo.reduce %a, %z {dimensions = array<i64: 0, 2>, to_apply = @sum} : (tensor<4x6x5xf32>, tensor<f32>) -> tensor<6xf32>
  return %0, %1 : tensor<4x5xf32>, tensor<6xf32>
}

// -----

// Ops the pass does not rewrite (a dot) keep their operands and layout:
// they read the boundary bitcast, and normalized users read their result
// through a bitcast to the physical shape.
// CHECK-LABEL: func.func @boundaries
// CHECK-NEXT:    %[[T:.*]] = hlo.transpose %arg0, dims = [1, 0] : (tensor<3x4xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %[[N:.*]] = hlo.negate %[[T]] : tensor<4x3xf32>
// CHECK-NEXT:    %[[NB:.*]] = hlo.bitcast %[[N]] {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:    %[[D:.*]] = hlo.dot %[[NB]], %arg1 {{.*}}hlo.layout = #hlo.layout<minor_to_major = [0, 1]>{{.*}} -> tensor<3x5xf32>
// CHECK-NEXT:    %[[DP:.*]] = hlo.bitcast %[[D]] : (tensor<3x5xf32>) -> tensor<5x3xf32>
// CHECK-NEXT:    %[[ABS:.*]] = hlo.abs %[[DP]] : (tensor<5x3xf32>) -> tensor<5x3xf32>
// CHECK-NEXT:    %[[OUT:.*]] = hlo.bitcast %[[ABS]] {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>}
// CHECK-NEXT:    return %[[OUT]]
func.func @boundaries(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %0 = hlo.negate %a {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : tensor<3x4xf32>
  %1 = hlo.dot %0, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>, hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %2 = hlo.abs %1 {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %2 : tensor<3x5xf32>
}

// -----

// Default layouts, and layouts with tiles in a non-default order, are left
// alone.
// CHECK-LABEL: func.func @untouched
// CHECK-NEXT:    hlo.negate %arg0 : tensor<3x4xf32>
// CHECK-NEXT:    hlo.negate %arg0 {hlo.layout = #hlo.layout<minor_to_major = [0, 1], tiles = [array<i64: 8, 128>]>}
// CHECK-NEXT:    return
// CHECK-NOT:     hlo.bitcast
func.func @untouched(%a: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %0 = hlo.negate %a : tensor<3x4xf32>
  %1 = hlo.negate %a {hlo.layout = #hlo.layout<minor_to_major = [0, 1], tiles = [array<i64: 8, 128>]>} : tensor<3x4xf32>
  return %0, %1 : tensor<3x4xf32>, tensor<3x4xf32>
}

// -----

// A reduce-window reads its operand as a row-major array: the transposed
// value reaches it as an explicit transpose of the physical form (the
// bitcast of %arg0 the transpose was in memory), not as the boundary
// bitcast that reinterprets %arg0's bytes.
// CHECK-LABEL: func.func @row_major_consumer
// CHECK:         %[[T:.*]] = hlo.transpose %arg0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    hlo.reduce_window %[[T]], %arg1
func.func private @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @row_major_consumer(%x: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<3x2xf32> {
  %t = hlo.transpose %x, dims = [1, 0] {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %0 = hlo.reduce_window %t, %z {to_apply = @add, window = #hlo.window<size = [1, 2], pad_low = [0, 1]>} : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
