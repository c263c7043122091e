// RUN: hlo-opt %s --split-input-file --passes=broadcast_canonicalizer | FileCheck %s

// Unsorted broadcast dims: the operand is transposed so that they are
// sorted; the transpose takes the operand's layout, the broadcast keeps its
// own attributes.
// CHECK-LABEL: func.func @unsorted
// CHECK-NEXT:    %[[T:.*]] = hlo.transpose %arg0, dims = [1, 0] {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %[[B:.*]] = hlo.broadcast %[[T]], dims = [0, 2] {hlo.layout = #hlo.layout<minor_to_major = [0, 1, 2]>} : (tensor<3x2xf32>) -> tensor<3x4x2xf32>
// CHECK-NEXT:    return %[[B]]
func.func @unsorted(%x: tensor<2x3xf32> {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>}) -> tensor<3x4x2xf32> {
  %0 = hlo.broadcast %x, dims = [2, 0] {hlo.layout = #hlo.layout<minor_to_major = [0, 1, 2]>} : (tensor<2x3xf32>) -> tensor<3x4x2xf32>
  return %0 : tensor<3x4x2xf32>
}

// -----

// Three dims: operand dim i goes to dims[i] = [3, 0, 1]; sorted [0, 1, 3]
// reads operand dims [1, 2, 0].
// CHECK-LABEL: func.func @rank3
// CHECK-NEXT:    %[[T:.*]] = hlo.transpose %arg0, dims = [1, 2, 0] : (tensor<5x2x3xi32>) -> tensor<2x3x5xi32>
// CHECK-NEXT:    %[[B:.*]] = hlo.broadcast %[[T]], dims = [0, 1, 3] : (tensor<2x3x5xi32>) -> tensor<2x3x7x5xi32>
// CHECK-NEXT:    return %[[B]]
func.func @rank3(%x: tensor<5x2x3xi32>) -> tensor<2x3x7x5xi32> {
  %0 = hlo.broadcast %x, dims = [3, 0, 1] : (tensor<5x2x3xi32>) -> tensor<2x3x7x5xi32>
  return %0 : tensor<2x3x7x5xi32>
}

// -----

// Sorted dims (and scalars) are left alone.
// CHECK-LABEL: func.func @sorted
// CHECK-NEXT:    hlo.broadcast %arg0, dims = [0, 2]
// CHECK-NEXT:    hlo.broadcast %arg1, dims = []
// CHECK-NOT:     hlo.transpose
func.func @sorted(%x: tensor<3x2xf32>, %s: tensor<f32>) -> (tensor<3x4x2xf32>, tensor<4xf32>) {
  %0 = hlo.broadcast %x, dims = [0, 2] : (tensor<3x2xf32>) -> tensor<3x4x2xf32>
  %1 = hlo.broadcast %s, dims = [] : (tensor<f32>) -> tensor<4xf32>
  return %0, %1 : tensor<3x4x2xf32>, tensor<4xf32>
}
