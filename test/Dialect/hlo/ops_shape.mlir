// RUN: hlo-opt %s | FileCheck %s
// RUN: hlo-opt %s | hlo-opt | FileCheck %s
// RUN: hlo-opt %s --mlir-print-op-generic | hlo-opt | FileCheck %s
// RUN: hlo-opt %s > %t.1.mlir && hlo-opt %t.1.mlir > %t.2.mlir && diff %t.1.mlir %t.2.mlir

// Round trip of the shape and data-movement ops.

// CHECK-LABEL: func.func @broadcast(
// CHECK: %{{.*}} = hlo.broadcast %{{.*}}, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: %{{.*}} = hlo.broadcast %{{.*}}, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
func.func @broadcast(%x: tensor<3xf32>, %s: tensor<i32>) -> tensor<2x3xf32> {
  %0 = hlo.broadcast %x, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %1 = hlo.broadcast %s, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @broadcast_permuted_dims(
// CHECK: %{{.*}} = hlo.broadcast %{{.*}}, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x4x2xf32>
func.func @broadcast_permuted_dims(%x: tensor<2x3xf32>) -> tensor<3x4x2xf32> {
  %0 = hlo.broadcast %x, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x4x2xf32>
  return %0 : tensor<3x4x2xf32>
}

// CHECK-LABEL: func.func @broadcast_dynamic(
// CHECK: %{{.*}} = hlo.broadcast %{{.*}}, dims = [1, 2] : (tensor<?x3xf32>) -> tensor<2x?x3xf32>
func.func @broadcast_dynamic(%x: tensor<?x3xf32>) -> tensor<2x?x3xf32> {
  %0 = hlo.broadcast %x, dims = [1, 2] : (tensor<?x3xf32>) -> tensor<2x?x3xf32>
  return %0 : tensor<2x?x3xf32>
}

// CHECK-LABEL: func.func @reshape(
// CHECK: %{{.*}} = hlo.reshape %{{.*}} : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK: %{{.*}} = hlo.reshape %{{.*}} : (tensor<1x1xi8>) -> tensor<i8>
// CHECK: %{{.*}} = hlo.reshape %{{.*}} : (tensor<2x3xf32>) -> tensor<3x1x2xf32>
func.func @reshape(%x: tensor<2x3xf32>, %s: tensor<1x1xi8>) -> tensor<6xf32> {
  %0 = hlo.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
  %1 = hlo.reshape %s : (tensor<1x1xi8>) -> tensor<i8>
  %2 = hlo.reshape %x : (tensor<2x3xf32>) -> tensor<3x1x2xf32>
  return %0 : tensor<6xf32>
}

// CHECK-LABEL: func.func @dynamic_reshape(
// CHECK: %{{.*}} = hlo.dynamic_reshape %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x?xf32>, tensor<i32>, tensor<i32>) -> tensor<?x?xf32>
// CHECK: %{{.*}} = hlo.dynamic_reshape %{{.*}}, %{{.*}} : (tensor<2x?xf32>, tensor<i32>) -> tensor<?xf32>
func.func @dynamic_reshape(%x: tensor<2x?xf32>, %a: tensor<i32>, %b: tensor<i32>) -> tensor<?x?xf32> {
  %0 = hlo.dynamic_reshape %x, %a, %b : (tensor<2x?xf32>, tensor<i32>, tensor<i32>) -> tensor<?x?xf32>
  %1 = hlo.dynamic_reshape %x, %a : (tensor<2x?xf32>, tensor<i32>) -> tensor<?xf32>
  return %0 : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @bitcast(
// CHECK: %{{.*}} = hlo.bitcast %{{.*}} : (tensor<2x3xf32>) -> tensor<6xi32>
// CHECK: %{{.*}} = hlo.bitcast %{{.*}} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK: %{{.*}} = hlo.bitcast %{{.*}} : (tensor<2x3xf32>) -> tensor<12xf16>
func.func @bitcast(%x: tensor<2x3xf32>) -> tensor<6xi32> {
  %0 = hlo.bitcast %x : (tensor<2x3xf32>) -> tensor<6xi32>
  %1 = hlo.bitcast %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = hlo.bitcast %x : (tensor<2x3xf32>) -> tensor<12xf16>
  return %0 : tensor<6xi32>
}

// CHECK-LABEL: func.func @transpose(
// CHECK: %{{.*}} = hlo.transpose %{{.*}}, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = hlo.transpose %x, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// CHECK-LABEL: func.func @transpose_dynamic(
// CHECK: %{{.*}} = hlo.transpose %{{.*}}, dims = [1, 0] : (tensor<?x3xi8>) -> tensor<3x?xi8>
func.func @transpose_dynamic(%x: tensor<?x3xi8>) -> tensor<3x?xi8> {
  %0 = hlo.transpose %x, dims = [1, 0] : (tensor<?x3xi8>) -> tensor<3x?xi8>
  return %0 : tensor<3x?xi8>
}

// CHECK-LABEL: func.func @reverse(
// CHECK: %{{.*}} = hlo.reverse %{{.*}}, dims = [0, 1] : tensor<2x3xf32>
// CHECK: %{{.*}} = hlo.reverse %{{.*}}, dims = [] : tensor<2x3xf32>
func.func @reverse(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.reverse %x, dims = [0, 1] : tensor<2x3xf32>
  %1 = hlo.reverse %0, dims = [] : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @slice(
// CHECK: %{{.*}} = hlo.slice %{{.*}}, start = [2, 1], limit = [4, 8], strides = [1, 3] : (tensor<4x10xf32>) -> tensor<2x3xf32>
// CHECK: %{{.*}} = hlo.slice %{{.*}}, start = [0, 5], limit = [0, 10], strides = [1, 1] : (tensor<4x10xf32>) -> tensor<0x5xf32>
func.func @slice(%x: tensor<4x10xf32>) -> tensor<2x3xf32> {
  %0 = hlo.slice %x, start = [2, 1], limit = [4, 8], strides = [1, 3] : (tensor<4x10xf32>) -> tensor<2x3xf32>
  %1 = hlo.slice %x, start = [0, 5], limit = [0, 10], strides = [1, 1] : (tensor<4x10xf32>) -> tensor<0x5xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @dynamic_slice(
// CHECK: %{{.*}} = hlo.dynamic_slice %{{.*}}[%{{.*}}, %{{.*}}], sizes = [2, 3] : (tensor<4x10xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
func.func @dynamic_slice(%x: tensor<4x10xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<2x3xf32> {
  %0 = hlo.dynamic_slice %x[%i, %j], sizes = [2, 3] : (tensor<4x10xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @dynamic_slice_unsigned_index(
// CHECK: %{{.*}} = hlo.dynamic_slice %{{.*}}[%{{.*}}], sizes = [8] : (tensor<8xi8>, tensor<ui64>) -> tensor<8xi8>
func.func @dynamic_slice_unsigned_index(%x: tensor<8xi8>, %i: tensor<ui64>) -> tensor<8xi8> {
  %0 = hlo.dynamic_slice %x[%i], sizes = [8] : (tensor<8xi8>, tensor<ui64>) -> tensor<8xi8>
  return %0 : tensor<8xi8>
}

// CHECK-LABEL: func.func @dynamic_update_slice(
// CHECK: %{{.*}} = hlo.dynamic_update_slice %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : (tensor<4x10xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x10xf32>
func.func @dynamic_update_slice(%x: tensor<4x10xf32>, %u: tensor<2x3xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<4x10xf32> {
  %0 = hlo.dynamic_update_slice %x, %u[%i, %j] : (tensor<4x10xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// CHECK-LABEL: func.func @concatenate(
// CHECK: %{{.*}} = hlo.concatenate(%{{.*}}, %{{.*}}), dim = 0 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
// CHECK: %{{.*}} = hlo.concatenate(%{{.*}}), dim = 1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %{{.*}} = hlo.concatenate(%{{.*}}, %{{.*}}, %{{.*}}), dim = 1 : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x9xf32>
func.func @concatenate(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<6x3xf32> {
  %0 = hlo.concatenate(%a, %b), dim = 0 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  %1 = hlo.concatenate(%a), dim = 1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = hlo.concatenate(%a, %a, %a), dim = 1 : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x9xf32>
  return %0 : tensor<6x3xf32>
}

// CHECK-LABEL: func.func @concatenate_dynamic(
// CHECK: %{{.*}} = hlo.concatenate(%{{.*}}, %{{.*}}), dim = 0 : (tensor<?x3xi32>, tensor<4x?xi32>) -> tensor<?x3xi32>
func.func @concatenate_dynamic(%a: tensor<?x3xi32>, %b: tensor<4x?xi32>) -> tensor<?x3xi32> {
  %0 = hlo.concatenate(%a, %b), dim = 0 : (tensor<?x3xi32>, tensor<4x?xi32>) -> tensor<?x3xi32>
  return %0 : tensor<?x3xi32>
}

// CHECK-LABEL: func.func @pad(
// CHECK: %{{.*}} = hlo.pad %{{.*}}, %{{.*}}, low = [1, 0], high = [2, 2], interior = [0, 2] : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x9xf32>
// CHECK: %{{.*}} = hlo.pad %{{.*}}, %{{.*}}, low = [-1, 0], high = [0, -3], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<1x0xf32>
func.func @pad(%x: tensor<2x3xf32>, %v: tensor<f32>) -> tensor<5x9xf32> {
  %0 = hlo.pad %x, %v, low = [1, 0], high = [2, 2], interior = [0, 2] : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x9xf32>
  %1 = hlo.pad %x, %v, low = [-1, 0], high = [0, -3], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<1x0xf32>
  return %0 : tensor<5x9xf32>
}

// CHECK-LABEL: func.func @get_dimension_size(
// CHECK: %{{.*}} = hlo.get_dimension_size %{{.*}} {dimension = 1 : i64} : (tensor<2x?xf32>) -> tensor<i32>
func.func @get_dimension_size(%x: tensor<2x?xf32>) -> tensor<i32> {
  %0 = hlo.get_dimension_size %x {dimension = 1 : i64} : (tensor<2x?xf32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// CHECK-LABEL: func.func @set_dimension_size(
// CHECK: %{{.*}} = hlo.set_dimension_size %{{.*}}, %{{.*}} {dimension = 0 : i64} : (tensor<10x3xf32>, tensor<i32>) -> tensor<?x3xf32>
// CHECK: %{{.*}} = hlo.set_dimension_size %{{.*}}, %{{.*}} {dimension = 1 : i64} : (tensor<10x3xf32>, tensor<i32>) -> tensor<10x3xf32>
func.func @set_dimension_size(%x: tensor<10x3xf32>, %n: tensor<i32>) -> tensor<?x3xf32> {
  %0 = hlo.set_dimension_size %x, %n {dimension = 0 : i64} : (tensor<10x3xf32>, tensor<i32>) -> tensor<?x3xf32>
  %1 = hlo.set_dimension_size %x, %n {dimension = 1 : i64} : (tensor<10x3xf32>, tensor<i32>) -> tensor<10x3xf32>
  return %0 : tensor<?x3xf32>
}

// CHECK-LABEL: func.func @shuffle(
// CHECK: %{{.*}} = hlo.shuffle %{{.*}}, dims = [0], rotate = [4] : tensor<16x4xi32>
// CHECK: %{{.*}} = hlo.shuffle %{{.*}}, dims = [1, 0], rotate = [-1, 20] : tensor<16x4xi32>
func.func @shuffle(%x: tensor<16x4xi32>) -> tensor<16x4xi32> {
  %0 = hlo.shuffle %x, dims = [0], rotate = [4] : tensor<16x4xi32>
  %1 = hlo.shuffle %0, dims = [1, 0], rotate = [-1, 20] : tensor<16x4xi32>
  return %1 : tensor<16x4xi32>
}

