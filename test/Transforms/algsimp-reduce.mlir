// RUN: hlo-opt %s --split-input-file --passes=algsimp | FileCheck %s

// Reducing size-1 dims applies the reducer once, f(init, x), in the
// reducer's operand order; with an exact identity init (max with -inf) it
// is just the input, reshaped.
// CHECK-LABEL: func.func @size_one_dims
// CHECK:         %[[R1:.*]] = hlo.reshape %arg0 : (tensor<4x1xf32>) -> tensor<4xf32>
// CHECK:         %[[I1:.*]] = hlo.broadcast %arg1, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK:         %[[A:.*]] = hlo.add %[[I1]], %[[R1]] : tensor<4xf32>
// CHECK:         %[[R2:.*]] = hlo.reshape %arg0
// CHECK:         %[[I2:.*]] = hlo.broadcast %arg1
// CHECK:         %[[S:.*]] = hlo.subtract %[[R2]], %[[I2]] : tensor<4xf32>
// CHECK:         %[[R3:.*]] = hlo.reshape %arg0
// CHECK-NOT:     hlo.maximum
// CHECK:         return %[[A]], %[[S]], %[[R3]]
func.func @size_one_dims(%x: tensor<4x1xf32>, %i: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %0 = hlo.reduce %x, %i {dimensions = array<i64: 1>, to_apply = @sum} : (tensor<4x1xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = hlo.reduce %x, %i {dimensions = array<i64: 1>, to_apply = @rsub} : (tensor<4x1xf32>, tensor<f32>) -> tensor<4xf32>
  %2 = hlo.reduce %x, %ninf {dimensions = array<i64: 1>, to_apply = @max} : (tensor<4x1xf32>, tensor<f32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
func.func private @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @rsub(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.subtract %b, %a : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @max(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.maximum %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// A float sum with init 0.0 is not the input (0.0 + -0.0 is +0.0, and the
// add flushes subnormals): the add stays.
// CHECK-LABEL: func.func @size_one_float_sum
// CHECK:         hlo.add
// CHECK-NOT:     hlo.reduce %
func.func @size_one_float_sum(%x: tensor<1x4xf32>) -> tensor<4xf32> {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.reduce %x, %z {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<1x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// An empty input reduces to the init value.
// CHECK-LABEL: func.func @empty_input
// CHECK-NEXT:    %[[B:.*]] = hlo.broadcast %arg1, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    return %[[B]]
func.func @empty_input(%x: tensor<0x4xf32>, %i: tensor<f32>) -> tensor<4xf32> {
  %0 = hlo.reduce %x, %i {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<0x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// reduce(transpose(x)) reduces x when the reduced elements keep their
// order; a transpose of kept dims moves to the (smaller) result.
// CHECK-LABEL: func.func @reduce_of_transpose
// CHECK-DAG:     %[[A:.*]] = hlo.reduce %arg0, %arg1 {dimensions = array<i64: 0, 2>, to_apply = @sum} : (tensor<4x2x8xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-DAG:     %[[B:.*]] = hlo.reduce %arg0, %arg1 {dimensions = array<i64: 2>, to_apply = @sum} : (tensor<4x2x8xf32>, tensor<f32>) -> tensor<4x2xf32>
// CHECK-DAG:     %[[T:.*]] = hlo.transpose %[[B]], dims = [1, 0]
// CHECK:         return %[[A]], %[[T]]
func.func @reduce_of_transpose(%x: tensor<4x2x8xf32>, %i: tensor<f32>) -> (tensor<2xf32>, tensor<2x4xf32>) {
  %t = hlo.transpose %x, dims = [1, 0, 2] : (tensor<4x2x8xf32>) -> tensor<2x4x8xf32>
  %0 = hlo.reduce %t, %i {dimensions = array<i64: 1, 2>, to_apply = @sum} : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2xf32>
  %1 = hlo.reduce %t, %i {dimensions = array<i64: 2>, to_apply = @sum} : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x4xf32>
  return %0, %1 : tensor<2xf32>, tensor<2x4xf32>
}
func.func private @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// ... not when a float sum would visit the elements in another order; an
// integer sum does not care.
// CHECK-LABEL: func.func @reduce_of_transpose_order
// CHECK:         %[[T:.*]] = hlo.transpose %arg0
// CHECK:         hlo.reduce %[[T]]
// CHECK:         hlo.reduce %arg1, %{{.*}} {dimensions = array<i64: 1, 0>
func.func @reduce_of_transpose_order(%x: tensor<4x8xf32>, %y: tensor<4x8xi32>, %i: tensor<f32>, %j: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  %t = hlo.transpose %x, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %0 = hlo.reduce %t, %i {dimensions = array<i64: 0, 1>, to_apply = @sum} : (tensor<8x4xf32>, tensor<f32>) -> tensor<f32>
  %u = hlo.transpose %y, dims = [1, 0] : (tensor<4x8xi32>) -> tensor<8x4xi32>
  %1 = hlo.reduce %u, %j {dimensions = array<i64: 0, 1>, to_apply = @sum_i32} : (tensor<8x4xi32>, tensor<i32>) -> tensor<i32>
  return %0, %1 : tensor<f32>, tensor<i32>
}
func.func private @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @sum_i32(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %0 = hlo.add %a, %b : tensor<i32>
  return %0 : tensor<i32>
}

// -----

// reduce(reduce(x)) with an integer sum and zero inits is one reduce; a
// float sum is not (it would add in another order).
// CHECK-LABEL: func.func @reduce_of_reduce
// CHECK-DAG:     hlo.reduce %arg0, %{{.*}} {dimensions = array<i64: 0, 1>, to_apply = @sum_i32}
// CHECK-DAG:     %[[F:.*]] = hlo.reduce %arg1, %{{.*}} {dimensions = array<i64: 1>, to_apply = @sum}
// CHECK-DAG:     hlo.reduce %[[F]], %{{.*}} {dimensions = array<i64: 0>, to_apply = @sum}
func.func @reduce_of_reduce(%x: tensor<4x8x2xi32>, %y: tensor<4x8x2xf32>) -> (tensor<2xi32>, tensor<2xf32>) {
  %z = hlo.constant dense<0> : tensor<i32>
  %a = hlo.reduce %x, %z {dimensions = array<i64: 1>, to_apply = @sum_i32} : (tensor<4x8x2xi32>, tensor<i32>) -> tensor<4x2xi32>
  %0 = hlo.reduce %a, %z {dimensions = array<i64: 0>, to_apply = @sum_i32} : (tensor<4x2xi32>, tensor<i32>) -> tensor<2xi32>
  %fz = hlo.constant dense<0.0> : tensor<f32>
  %b = hlo.reduce %y, %fz {dimensions = array<i64: 1>, to_apply = @sum} : (tensor<4x8x2xf32>, tensor<f32>) -> tensor<4x2xf32>
  %1 = hlo.reduce %b, %fz {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<4x2xf32>, tensor<f32>) -> tensor<2xf32>
  return %0, %1 : tensor<2xi32>, tensor<2xf32>
}
func.func private @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @sum_i32(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %0 = hlo.add %a, %b : tensor<i32>
  return %0 : tensor<i32>
}

// -----

// reduce(reshape(x)): the reshape only merges reduced dims (reduce x), or
// only kept dims (reduce x, then reshape).
// CHECK-LABEL: func.func @reduce_of_reshape
// CHECK-DAG:     %[[A:.*]] = hlo.reduce %arg0, %arg2 {dimensions = array<i64: 1, 2>, to_apply = @sum} : (tensor<4x2x8xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-DAG:     %[[B:.*]] = hlo.reduce %arg1, %arg2 {dimensions = array<i64: 1>, to_apply = @sum} : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK-DAG:     %[[R:.*]] = hlo.reshape %[[B]] : (tensor<8xf32>) -> tensor<2x4xf32>
// CHECK:         return %[[A]], %[[R]]
func.func @reduce_of_reshape(%x: tensor<4x2x8xf32>, %y: tensor<8x4xf32>, %i: tensor<f32>) -> (tensor<4xf32>, tensor<2x4xf32>) {
  %r = hlo.reshape %x : (tensor<4x2x8xf32>) -> tensor<4x16xf32>
  %0 = hlo.reduce %r, %i {dimensions = array<i64: 1>, to_apply = @sum} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
  %s = hlo.reshape %y : (tensor<8x4xf32>) -> tensor<2x4x4xf32>
  %1 = hlo.reduce %s, %i {dimensions = array<i64: 2>, to_apply = @sum} : (tensor<2x4x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  return %0, %1 : tensor<4xf32>, tensor<2x4xf32>
}
func.func private @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// reduce(broadcast(x)): reduce before broadcasting when the reduced dims
// come from x; a broadcast scalar reduced by max is max(init, x); an
// integer sum over broadcast-added dims is init + x * n.
// CHECK-LABEL: func.func @reduce_of_broadcast
// CHECK-DAG:     %[[A:.*]] = hlo.reduce %arg0, %arg3 {dimensions = array<i64: 1>, to_apply = @sum} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-DAG:     %[[AB:.*]] = hlo.broadcast %[[A]], dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
// CHECK-DAG:     %[[M:.*]] = hlo.maximum %arg3, %arg1 : tensor<f32>
// CHECK-DAG:     %[[N:.*]] = hlo.multiply %arg2, %{{.*}} : tensor<4xi32>
// CHECK-DAG:     %[[S:.*]] = hlo.add %{{.*}}, %[[N]] : tensor<4xi32>
// CHECK:         return %[[AB]], %[[M]], %[[S]]
func.func @reduce_of_broadcast(%x: tensor<4x8xf32>, %s: tensor<f32>, %v: tensor<4xi32>, %i: tensor<f32>, %j: tensor<i32>) -> (tensor<3x4xf32>, tensor<f32>, tensor<4xi32>) {
  %b = hlo.broadcast %x, dims = [1, 2] : (tensor<4x8xf32>) -> tensor<3x4x8xf32>
  %0 = hlo.reduce %b, %i {dimensions = array<i64: 2>, to_apply = @sum} : (tensor<3x4x8xf32>, tensor<f32>) -> tensor<3x4xf32>
  %c = hlo.broadcast %s, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
  %1 = hlo.reduce %c, %i {dimensions = array<i64: 0, 1>, to_apply = @max} : (tensor<3x4xf32>, tensor<f32>) -> tensor<f32>
  %d = hlo.broadcast %v, dims = [1] : (tensor<4xi32>) -> tensor<3x4xi32>
  %2 = hlo.reduce %d, %j {dimensions = array<i64: 0>, to_apply = @sum_i32} : (tensor<3x4xi32>, tensor<i32>) -> tensor<4xi32>
  return %0, %1, %2 : tensor<3x4xf32>, tensor<f32>, tensor<4xi32>
}
func.func private @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @max(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.maximum %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @sum_i32(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %0 = hlo.add %a, %b : tensor<i32>
  return %0 : tensor<i32>
}

// -----

// The float sum of a broadcast over added dims stays (x * n rounds
// differently from n additions); a plain reduction stays.
// CHECK-LABEL: func.func @reduce_negative
// CHECK:         hlo.reduce %{{.*}}, %arg2 {dimensions = array<i64: 0>
// CHECK:         hlo.reduce %arg1, %arg2 {dimensions = array<i64: 1>
func.func @reduce_negative(%v: tensor<4xf32>, %x: tensor<4x8xf32>, %i: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %d = hlo.broadcast %v, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
  %0 = hlo.reduce %d, %i {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<3x4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = hlo.reduce %x, %i {dimensions = array<i64: 1>, to_apply = @sum} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
func.func private @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
