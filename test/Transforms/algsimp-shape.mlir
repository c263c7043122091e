// RUN: hlo-opt %s --split-input-file --passes=algsimp | FileCheck %s

// No-op movements: reshape, broadcast, transpose, slice, pad, concatenate of
// one operand, reverse of size-1 dims, copy.
// CHECK-LABEL: func.func @no_ops
// CHECK-NEXT:    return %arg0
func.func @no_ops(%x: tensor<1x4xf32>, %v: tensor<f32>) -> tensor<1x4xf32> {
  %0 = hlo.reshape %x : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %1 = hlo.broadcast %0, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %2 = hlo.transpose %1, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %3 = hlo.slice %2, start = [0, 0], limit = [1, 4], strides = [1, 1] : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %4 = hlo.pad %3, %v, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<1x4xf32>, tensor<f32>) -> tensor<1x4xf32>
  %5 = hlo.concatenate(%4), dim = 1 : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %6 = hlo.reverse %5, dims = [0] : tensor<1x4xf32>
  %7 = hlo.copy %6 : tensor<1x4xf32>
  return %7 : tensor<1x4xf32>
}

// -----

// reshape(reshape(x)) is one reshape; a reshape of a broadcast that keeps
// the broadcast operand's dims is a broadcast.
// CHECK-LABEL: func.func @reshapes
// CHECK-DAG:     %[[R:.*]] = hlo.reshape %arg0 : (tensor<4x4xf32>) -> tensor<2x8xf32>
// CHECK-DAG:     %[[B:.*]] = hlo.broadcast %arg1, dims = [2] : (tensor<4xf32>) -> tensor<3x2x4xf32>
// CHECK:         return %[[R]], %[[B]]
func.func @reshapes(%x: tensor<4x4xf32>, %y: tensor<4xf32>) -> (tensor<2x8xf32>, tensor<3x2x4xf32>) {
  %0 = hlo.reshape %x : (tensor<4x4xf32>) -> tensor<16xf32>
  %1 = hlo.reshape %0 : (tensor<16xf32>) -> tensor<2x8xf32>
  %2 = hlo.broadcast %y, dims = [1] : (tensor<4xf32>) -> tensor<6x4xf32>
  %3 = hlo.reshape %2 : (tensor<6x4xf32>) -> tensor<3x2x4xf32>
  return %1, %3 : tensor<2x8xf32>, tensor<3x2x4xf32>
}

// -----

// A reshape that splits the broadcast operand's dim stays.
// CHECK-LABEL: func.func @reshape_of_broadcast_negative
// CHECK:         hlo.broadcast
// CHECK:         hlo.reshape
func.func @reshape_of_broadcast_negative(%y: tensor<4xf32>) -> tensor<3x2x2xf32> {
  %0 = hlo.broadcast %y, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
  %1 = hlo.reshape %0 : (tensor<3x4xf32>) -> tensor<3x2x2xf32>
  return %1 : tensor<3x2x2xf32>
}

// -----

// Broadcasts: of a broadcast (composed dims), adding no elements with
// sorted dims (a reshape) or permuted dims (a transpose), of a reshape that
// only inserts 1s, of an iota.
// CHECK-LABEL: func.func @broadcasts
// CHECK-DAG:     %[[B1:.*]] = hlo.broadcast %arg0, dims = [2] : (tensor<4xf32>) -> tensor<2x3x4xf32>
// CHECK-DAG:     %[[R:.*]] = hlo.reshape %arg0 : (tensor<4xf32>) -> tensor<1x4x1xf32>
// CHECK-DAG:     %[[T:.*]] = hlo.transpose %arg1, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
// CHECK-DAG:     %[[B2:.*]] = hlo.broadcast %arg0, dims = [0] : (tensor<4xf32>) -> tensor<4x3x1xf32>
// CHECK-DAG:     %[[I:.*]] = hlo.iota dim = 1 : tensor<3x4xi32>
// CHECK:         return %[[B1]], %[[R]], %[[T]], %[[B2]], %[[I]]
func.func @broadcasts(%x: tensor<4xf32>, %y: tensor<4x3xf32>) -> (tensor<2x3x4xf32>, tensor<1x4x1xf32>, tensor<3x4xf32>, tensor<4x3x1xf32>, tensor<3x4xi32>) {
  %0 = hlo.broadcast %x, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
  %1 = hlo.broadcast %0, dims = [1, 2] : (tensor<3x4xf32>) -> tensor<2x3x4xf32>
  %2 = hlo.broadcast %x, dims = [1] : (tensor<4xf32>) -> tensor<1x4x1xf32>
  %3 = hlo.broadcast %y, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %r = hlo.reshape %x : (tensor<4xf32>) -> tensor<4x1xf32>
  %4 = hlo.broadcast %r, dims = [0, 2] : (tensor<4x1xf32>) -> tensor<4x3x1xf32>
  %i = hlo.iota dim = 0 : tensor<4xi32>
  %5 = hlo.broadcast %i, dims = [1] : (tensor<4xi32>) -> tensor<3x4xi32>
  return %1, %2, %3, %4, %5 : tensor<2x3x4xf32>, tensor<1x4x1xf32>, tensor<3x4xf32>, tensor<4x3x1xf32>, tensor<3x4xi32>
}

// -----

// Transposes: composed, cancelled, only moving size-1 dims (a reshape),
// chains with degenerate reshapes that compose to the identity, of a
// broadcast whose operand dims stay in order.
// CHECK-LABEL: func.func @transposes
// CHECK-DAG:     %[[T:.*]] = hlo.transpose %arg0, dims = [1, 0, 2] : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
// CHECK-DAG:     %[[R:.*]] = hlo.reshape %arg1 : (tensor<1x4x1x3xf32>) -> tensor<4x1x3x1xf32>
// CHECK-DAG:     %[[B:.*]] = hlo.broadcast %arg3, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK:         return %[[T]], %arg0, %[[R]], %arg2, %[[B]]
func.func @transposes(%x: tensor<2x3x4xf32>, %y: tensor<1x4x1x3xf32>, %z: tensor<3x4xf32>, %w: tensor<4xf32>) -> (tensor<3x2x4xf32>, tensor<2x3x4xf32>, tensor<4x1x3x1xf32>, tensor<3x4xf32>, tensor<4x3xf32>) {
  %0 = hlo.transpose %x, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %1 = hlo.transpose %0, dims = [2, 1, 0] : (tensor<4x2x3xf32>) -> tensor<3x2x4xf32>
  %2 = hlo.transpose %0, dims = [1, 2, 0] : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
  %3 = hlo.transpose %y, dims = [1, 0, 3, 2] : (tensor<1x4x1x3xf32>) -> tensor<4x1x3x1xf32>
  %4 = hlo.transpose %z, dims = [1, 0] : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %5 = hlo.reshape %4 : (tensor<4x3xf32>) -> tensor<4x1x3xf32>
  %6 = hlo.transpose %5, dims = [2, 1, 0] : (tensor<4x1x3xf32>) -> tensor<3x1x4xf32>
  %7 = hlo.reshape %6 : (tensor<3x1x4xf32>) -> tensor<3x4xf32>
  %b = hlo.broadcast %w, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
  %8 = hlo.transpose %b, dims = [1, 0] : (tensor<3x4xf32>) -> tensor<4x3xf32>
  return %1, %2, %3, %7, %8 : tensor<3x2x4xf32>, tensor<2x3x4xf32>, tensor<4x1x3x1xf32>, tensor<3x4xf32>, tensor<4x3xf32>
}

// -----

// A real transpose, and one of a broadcast that would reorder the operand's
// dims, stay.
// CHECK-LABEL: func.func @transposes_negative
// CHECK:         hlo.transpose %arg0, dims = [1, 0]
// CHECK:         hlo.broadcast %arg1
// CHECK:         hlo.transpose
func.func @transposes_negative(%x: tensor<3x4xf32>, %y: tensor<3x4xf32>) -> (tensor<4x3xf32>, tensor<2x4x3xf32>) {
  %0 = hlo.transpose %x, dims = [1, 0] : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %b = hlo.broadcast %y, dims = [1, 2] : (tensor<3x4xf32>) -> tensor<2x3x4xf32>
  %1 = hlo.transpose %b, dims = [0, 2, 1] : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  return %0, %1 : tensor<4x3xf32>, tensor<2x4x3xf32>
}

// -----

// Slices: of a slice (strided, composed), of a broadcast, of a reverse, a
// stride that picks one element.
// CHECK-LABEL: func.func @slices
// CHECK-DAG:     %[[S:.*]] = hlo.slice %arg0, start = [5], limit = [24], strides = [6] : (tensor<32xf32>) -> tensor<4xf32>
// CHECK-DAG:     %[[BS:.*]] = hlo.slice %arg1, start = [3], limit = [11], strides = [1]
// CHECK-DAG:     %[[B:.*]] = hlo.broadcast %[[BS]], dims = [1] : (tensor<8xf32>) -> tensor<2x8xf32>
// CHECK-DAG:     %[[RS:.*]] = hlo.slice %arg1, start = [2], limit = [15], strides = [3]
// CHECK-DAG:     %[[R:.*]] = hlo.reverse %[[RS]], dims = [0]
// CHECK-DAG:     %[[O:.*]] = hlo.slice %arg1, start = [5], limit = [6], strides = [1]
// CHECK:         return %[[S]], %[[B]], %[[R]], %[[O]]
func.func @slices(%x: tensor<32xf32>, %y: tensor<16xf32>) -> (tensor<4xf32>, tensor<2x8xf32>, tensor<5xf32>, tensor<1xf32>) {
  %0 = hlo.slice %x, start = [3], limit = [30], strides = [2] : (tensor<32xf32>) -> tensor<14xf32>
  %1 = hlo.slice %0, start = [1], limit = [13], strides = [3] : (tensor<14xf32>) -> tensor<4xf32>
  %b = hlo.broadcast %y, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
  %2 = hlo.slice %b, start = [1, 3], limit = [3, 11], strides = [1, 1] : (tensor<4x16xf32>) -> tensor<2x8xf32>
  %r = hlo.reverse %y, dims = [0] : tensor<16xf32>
  %3 = hlo.slice %r, start = [1], limit = [14], strides = [3] : (tensor<16xf32>) -> tensor<5xf32>
  %4 = hlo.slice %y, start = [5], limit = [9], strides = [7] : (tensor<16xf32>) -> tensor<1xf32>
  return %1, %2, %3, %4 : tensor<4xf32>, tensor<2x8xf32>, tensor<5xf32>, tensor<1xf32>
}

// -----

// Slices of a pad: only padding (a broadcast of the padding value),
// exactly the operand, or inside the operand.
// CHECK-LABEL: func.func @slices_of_pad
// CHECK-DAG:     %[[B:.*]] = hlo.broadcast %arg1, dims = [] : (tensor<f32>) -> tensor<2xf32>
// CHECK-DAG:     %[[S:.*]] = hlo.slice %arg0, start = [2], limit = [7], strides = [1]
// CHECK:         return %[[B]], %arg0, %[[S]]
func.func @slices_of_pad(%x: tensor<16xf32>, %v: tensor<f32>) -> (tensor<2xf32>, tensor<16xf32>, tensor<5xf32>) {
  %p = hlo.pad %x, %v, low = [2], high = [3], interior = [1] : (tensor<16xf32>, tensor<f32>) -> tensor<36xf32>
  %0 = hlo.slice %p, start = [0], limit = [2], strides = [1] : (tensor<36xf32>) -> tensor<2xf32>
  %1 = hlo.slice %p, start = [2], limit = [33], strides = [2] : (tensor<36xf32>) -> tensor<16xf32>
  %q = hlo.pad %x, %v, low = [2], high = [3], interior = [0] : (tensor<16xf32>, tensor<f32>) -> tensor<21xf32>
  %2 = hlo.slice %q, start = [4], limit = [9], strides = [1] : (tensor<21xf32>) -> tensor<5xf32>
  return %0, %1, %2 : tensor<2xf32>, tensor<16xf32>, tensor<5xf32>
}

// -----

// Slices of a concatenate: one operand, part of one, part of two.
// CHECK-LABEL: func.func @slices_of_concat
// CHECK-DAG:     %[[S:.*]] = hlo.slice %arg1, start = [2], limit = [6], strides = [1]
// CHECK-DAG:     %[[C:.*]] = hlo.concatenate(%arg0, %arg1), dim = 0
// CHECK-DAG:     %[[T:.*]] = hlo.slice %[[C]], start = [10], limit = [30], strides = [1]
// CHECK:         return %arg1, %[[S]], %[[T]]
func.func @slices_of_concat(%x: tensor<16xf32>, %y: tensor<16xf32>) -> (tensor<16xf32>, tensor<4xf32>, tensor<20xf32>) {
  %c = hlo.concatenate(%x, %y, %x), dim = 0 : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<48xf32>
  %0 = hlo.slice %c, start = [16], limit = [32], strides = [1] : (tensor<48xf32>) -> tensor<16xf32>
  %1 = hlo.slice %c, start = [18], limit = [22], strides = [1] : (tensor<48xf32>) -> tensor<4xf32>
  %2 = hlo.slice %c, start = [10], limit = [30], strides = [1] : (tensor<48xf32>) -> tensor<20xf32>
  return %0, %1, %2 : tensor<16xf32>, tensor<4xf32>, tensor<20xf32>
}

// -----

// A slice across the padding edge, or with a stride that picks several
// elements, stays.
// CHECK-LABEL: func.func @slices_negative
// CHECK:         hlo.pad
// CHECK:         hlo.slice %{{.*}}, start = [0], limit = [5]
// CHECK:         hlo.slice %arg0, start = [5], limit = [9], strides = [3]
func.func @slices_negative(%x: tensor<16xf32>, %v: tensor<f32>) -> (tensor<5xf32>, tensor<2xf32>) {
  %q = hlo.pad %x, %v, low = [2], high = [3], interior = [0] : (tensor<16xf32>, tensor<f32>) -> tensor<21xf32>
  %0 = hlo.slice %q, start = [0], limit = [5], strides = [1] : (tensor<21xf32>) -> tensor<5xf32>
  %1 = hlo.slice %x, start = [5], limit = [9], strides = [3] : (tensor<16xf32>) -> tensor<2xf32>
  return %0, %1 : tensor<5xf32>, tensor<2xf32>
}

// -----

// Concatenates: empty operands dropped, nested ones flattened, adjacent
// slices merged, a broadcast scalar operand as a pad, copies of one slab
// as a broadcast.
// CHECK-LABEL: func.func @concats
// CHECK-DAG:     %[[F:.*]] = hlo.concatenate(%arg0, %arg1, %arg1, %arg0), dim = 0
// CHECK-DAG:     %[[S:.*]] = hlo.slice %arg2, start = [0, 2], limit = [4, 12], strides = [1, 1]
// CHECK-DAG:     %[[P:.*]] = hlo.pad %arg0, %arg3, low = [0], high = [4], interior = [0]
// CHECK-DAG:     %[[R:.*]] = hlo.reshape %arg4 : (tensor<4x1xf32>) -> tensor<4xf32>
// CHECK-DAG:     %[[B:.*]] = hlo.broadcast %[[R]], dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK:         return %arg0, %[[F]], %[[S]], %[[P]], %[[B]]
func.func @concats(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4x16xf32>, %s: tensor<f32>, %w: tensor<4x1xf32>) -> (tensor<4xf32>, tensor<16xf32>, tensor<4x10xf32>, tensor<8xf32>, tensor<4x3xf32>) {
  %e = hlo.constant dense<> : tensor<0xf32>
  %0 = hlo.concatenate(%e, %x, %e), dim = 0 : (tensor<0xf32>, tensor<4xf32>, tensor<0xf32>) -> tensor<4xf32>
  %n = hlo.concatenate(%x, %y), dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  %1 = hlo.concatenate(%n, %y, %x), dim = 0 : (tensor<8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<16xf32>
  %a = hlo.slice %z, start = [0, 2], limit = [4, 5], strides = [1, 1] : (tensor<4x16xf32>) -> tensor<4x3xf32>
  %b = hlo.slice %z, start = [0, 5], limit = [4, 12], strides = [1, 1] : (tensor<4x16xf32>) -> tensor<4x7xf32>
  %2 = hlo.concatenate(%a, %b), dim = 1 : (tensor<4x3xf32>, tensor<4x7xf32>) -> tensor<4x10xf32>
  %sb = hlo.broadcast %s, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %3 = hlo.concatenate(%x, %sb), dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  %4 = hlo.concatenate(%w, %w, %w), dim = 1 : (tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<16xf32>, tensor<4x10xf32>, tensor<8xf32>, tensor<4x3xf32>
}

// -----

// Slices that are not adjacent are not merged.
// CHECK-LABEL: func.func @concat_negative
// CHECK:         hlo.concatenate(%{{.*}}, %{{.*}}), dim = 1
func.func @concat_negative(%z: tensor<4x16xf32>) -> tensor<4x10xf32> {
  %a = hlo.slice %z, start = [0, 2], limit = [4, 5], strides = [1, 1] : (tensor<4x16xf32>) -> tensor<4x3xf32>
  %b = hlo.slice %z, start = [0, 6], limit = [4, 13], strides = [1, 1] : (tensor<4x16xf32>) -> tensor<4x7xf32>
  %0 = hlo.concatenate(%a, %b), dim = 1 : (tensor<4x3xf32>, tensor<4x7xf32>) -> tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// -----

// Pads: of an empty array (a broadcast), interior padding of size-1 dims
// dropped, negative edges as a pad and a slice.
// CHECK-LABEL: func.func @pads
// CHECK-DAG:     %[[B:.*]] = hlo.broadcast %arg2, dims = [] : (tensor<f32>) -> tensor<3xf32>
// CHECK-DAG:     %[[P:.*]] = hlo.pad %arg1, %arg2, low = [0, 1], high = [0, 0], interior = [1, 0]
// CHECK-DAG:     %[[N:.*]] = hlo.pad %arg3, %arg2, low = [0], high = [3], interior = [1]
// CHECK-DAG:     %[[S:.*]] = hlo.slice %[[N]], start = [2], limit = [34], strides = [1]
// CHECK:         return %[[B]], %[[P]], %[[S]]
func.func @pads(%e: tensor<0xf32>, %x: tensor<4x1xf32>, %v: tensor<f32>, %y: tensor<16xf32>) -> (tensor<3xf32>, tensor<7x2xf32>, tensor<32xf32>) {
  %0 = hlo.pad %e, %v, low = [1], high = [2], interior = [0] : (tensor<0xf32>, tensor<f32>) -> tensor<3xf32>
  %1 = hlo.pad %x, %v, low = [0, 1], high = [0, 0], interior = [1, 3] : (tensor<4x1xf32>, tensor<f32>) -> tensor<7x2xf32>
  %2 = hlo.pad %y, %v, low = [-2], high = [3], interior = [1] : (tensor<16xf32>, tensor<f32>) -> tensor<32xf32>
  return %0, %1, %2 : tensor<3xf32>, tensor<7x2xf32>, tensor<32xf32>
}

// -----

// Reverses: of a reverse (symmetric difference), into an elementwise op
// with a broadcast scalar, through a reshape that only inserts 1s.
// CHECK-LABEL: func.func @reverses
// CHECK-DAG:     %[[R1:.*]] = hlo.reverse %arg0, dims = [0] : tensor<4x4xf32>
// CHECK-DAG:     %[[R2:.*]] = hlo.reverse %arg1, dims = [0] : tensor<16xf32>
// CHECK-DAG:     %[[SUB:.*]] = hlo.subtract %{{.*}}, %[[R2]]
// CHECK-DAG:     %[[R3:.*]] = hlo.reverse %arg1, dims = [0] : tensor<16xf32>
// CHECK-DAG:     %[[RS:.*]] = hlo.reshape %[[R3]] : (tensor<16xf32>) -> tensor<16x1xf32>
// CHECK:         return %[[R1]], %[[SUB]], %[[RS]]
func.func @reverses(%x: tensor<4x4xf32>, %y: tensor<16xf32>, %s: tensor<f32>) -> (tensor<4x4xf32>, tensor<16xf32>, tensor<16x1xf32>) {
  %0 = hlo.reverse %x, dims = [0, 1] : tensor<4x4xf32>
  %1 = hlo.reverse %0, dims = [1] : tensor<4x4xf32>
  %b = hlo.broadcast %s, dims = [] : (tensor<f32>) -> tensor<16xf32>
  %d = hlo.subtract %b, %y : tensor<16xf32>
  %2 = hlo.reverse %d, dims = [0] : tensor<16xf32>
  %r = hlo.reshape %y : (tensor<16xf32>) -> tensor<16x1xf32>
  %3 = hlo.reverse %r, dims = [0, 1] : tensor<16x1xf32>
  return %1, %2, %3 : tensor<4x4xf32>, tensor<16xf32>, tensor<16x1xf32>
}

// -----

// Dynamic slices: of the whole array, whole dims (index 0), constant
// indices (clamped, a static slice), through a transpose.
// CHECK-LABEL: func.func @dynamic_slices
// CHECK-DAG:     %[[Z:.*]] = hlo.constant dense<0> : tensor<i32>
// CHECK-DAG:     %[[D:.*]] = hlo.dynamic_slice %arg0[%arg1, %[[Z]]], sizes = [3, 6]
// CHECK-DAG:     %[[S:.*]] = hlo.slice %arg0, start = [5, 0], limit = [8, 2], strides = [1, 1]
// CHECK-DAG:     %[[T:.*]] = hlo.dynamic_slice %arg3[%arg2, %arg1], sizes = [2, 3]
// CHECK-DAG:     %[[TT:.*]] = hlo.transpose %[[T]], dims = [1, 0]
// CHECK:         return %arg0, %[[D]], %[[S]], %[[TT]]
func.func @dynamic_slices(%x: tensor<8x6xf32>, %i: tensor<i32>, %j: tensor<i32>, %y: tensor<6x8xf32>) -> (tensor<8x6xf32>, tensor<3x6xf32>, tensor<3x2xf32>, tensor<3x2xf32>) {
  %0 = hlo.dynamic_slice %x[%i, %j], sizes = [8, 6] : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
  %1 = hlo.dynamic_slice %x[%i, %j], sizes = [3, 6] : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<3x6xf32>
  %c7 = hlo.constant dense<7> : tensor<i32>
  %cm = hlo.constant dense<-4> : tensor<i32>
  %2 = hlo.dynamic_slice %x[%c7, %cm], sizes = [3, 2] : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<3x2xf32>
  %t = hlo.transpose %y, dims = [1, 0] : (tensor<6x8xf32>) -> tensor<8x6xf32>
  %3 = hlo.dynamic_slice %t[%i, %j], sizes = [3, 2] : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<3x2xf32>
  return %0, %1, %2, %3 : tensor<8x6xf32>, tensor<3x6xf32>, tensor<3x2xf32>, tensor<3x2xf32>
}

// -----

// A dynamic slice with dynamic indices on both dims stays.
// CHECK-LABEL: func.func @dynamic_slice_negative
// CHECK:         hlo.dynamic_slice %arg0[%arg1, %arg2], sizes = [3, 2]
func.func @dynamic_slice_negative(%x: tensor<8x6xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<3x2xf32> {
  %0 = hlo.dynamic_slice %x[%i, %j], sizes = [3, 2] : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// Dynamic update slices: of the whole array (the update), of whole dims
// (index 0), with an empty update (the operand).
// CHECK-LABEL: func.func @dynamic_update_slices
// CHECK-DAG:     %[[Z:.*]] = hlo.constant dense<0> : tensor<i32>
// CHECK-DAG:     %[[D:.*]] = hlo.dynamic_update_slice %arg0, %arg2[%arg4, %[[Z]]]
// CHECK:         return %arg1, %[[D]], %arg0
func.func @dynamic_update_slices(%x: tensor<8x6xf32>, %u: tensor<8x6xf32>, %w: tensor<2x6xf32>, %e: tensor<0x6xf32>, %i: tensor<i32>, %j: tensor<i32>) -> (tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>) {
  %0 = hlo.dynamic_update_slice %x, %u[%i, %j] : (tensor<8x6xf32>, tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
  %1 = hlo.dynamic_update_slice %x, %w[%i, %j] : (tensor<8x6xf32>, tensor<2x6xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
  %2 = hlo.dynamic_update_slice %x, %e[%i, %j] : (tensor<8x6xf32>, tensor<0x6xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
  return %0, %1, %2 : tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>
}

// -----

// An iota along a size-1 dim is zeros; a sort along a size-1 dim returns
// its operands.
// CHECK-LABEL: func.func @iota_sort
// CHECK-DAG:     %[[Z:.*]] = hlo.constant dense<0> : tensor<i32>
// CHECK-DAG:     %[[B:.*]] = hlo.broadcast %[[Z]], dims = [] : (tensor<i32>) -> tensor<1x4xi32>
// CHECK:         return %[[B]], %arg0, %arg1
func.func @iota_sort(%x: tensor<4x1xf32>, %y: tensor<4x1xi32>) -> (tensor<1x4xi32>, tensor<4x1xf32>, tensor<4x1xi32>) {
  %0 = hlo.iota dim = 0 : tensor<1x4xi32>
  %1:2 = hlo.sort %x, %y {dimension = 1 : i64, to_apply = @lt} : (tensor<4x1xf32>, tensor<4x1xi32>) -> (tensor<4x1xf32>, tensor<4x1xi32>)
  return %0, %1#0, %1#1 : tensor<1x4xi32>, tensor<4x1xf32>, tensor<4x1xi32>
}
func.func private @lt(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>) -> tensor<i1> {
  %0 = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}

// -----

// A sort along a longer dim stays.
// CHECK-LABEL: func.func @sort_negative
// CHECK:         hlo.sort %arg0
func.func @sort_negative(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %0 = hlo.sort %x {dimension = 1 : i64, to_apply = @lt1} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
func.func private @lt1(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
