// RUN: hlo-opt %s --split-input-file --passes=multi-output-fusion | FileCheck %s

// Sibling fusion: the two reductions of one input in a layer norm (sum and
// sum of squares) become one input fusion with two outputs, reading the
// input once.
// CHECK-LABEL: func.func @layer_norm_stats
// CHECK-NEXT:    %[[F:.*]]:2 = hlo.fusion kInput @[[C:.*]](%arg0) : (tensor<8x64xf32>) -> (tensor<8xf32>, tensor<8xf32>)
// CHECK-NEXT:    return %[[F]]#0, %[[F]]#1
// CHECK:       func.func private @[[C]](%[[X:.*]]: tensor<8x64xf32>) -> (tensor<8xf32>, tensor<8xf32>)
// CHECK:         %[[S:.*]] = hlo.reduce %[[X]]
// CHECK:         %[[SQ:.*]] = hlo.multiply %[[X]], %[[X]]
// CHECK:         %[[S2:.*]] = hlo.reduce %[[SQ]]
// CHECK-NEXT:    return %[[S]], %[[S2]]
// CHECK-NOT:   func.func private @sum_of
// CHECK-NOT:   func.func private @sum_of_squares
func.func private @add(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @sum_of(%x: tensor<8x64xf32>) -> tensor<8xf32> {
  %c = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.reduce %x, %c {dimensions = array<i64: 1>, to_apply = @add} : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @sum_of_squares(%x: tensor<8x64xf32>) -> tensor<8xf32> {
  %c = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.multiply %x, %x : tensor<8x64xf32>
  %1 = hlo.reduce %0, %c {dimensions = array<i64: 1>, to_apply = @add} : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func @layer_norm_stats(%x: tensor<8x64xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = hlo.fusion kInput @sum_of(%x) : (tensor<8x64xf32>) -> tensor<8xf32>
  %1 = hlo.fusion kInput @sum_of_squares(%x) : (tensor<8x64xf32>) -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Two unfused row reductions of one input fuse too (rxla lets a row/column
// reduction, not only a fusion, start a sibling group).
// CHECK-LABEL: func.func @plain_reductions
// CHECK-NEXT:    %[[C:.*]] = hlo.constant
// CHECK-NEXT:    %[[F:.*]]:2 = hlo.fusion kInput @{{.*}}(%arg0, %[[C]]) : (tensor<8x64xf32>, tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>)
// CHECK-NEXT:    return %[[F]]#0, %[[F]]#1
func.func private @add(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @max(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.maximum %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func @plain_reductions(%x: tensor<8x64xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.reduce %x, %c {dimensions = array<i64: 1>, to_apply = @add} : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = hlo.reduce %x, %c {dimensions = array<i64: 1>, to_apply = @max} : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Must not fire: reductions of one input over different dimensions (a row
// and a column reduction iterate differently).
// CHECK-LABEL: func.func @different_reductions
// CHECK-NEXT:    hlo.constant
// CHECK-NEXT:    hlo.reduce
// CHECK-NEXT:    hlo.reduce
// CHECK-NEXT:    return
// CHECK-NOT:   hlo.fusion
func.func private @add(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func @different_reductions(%x: tensor<64x64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %c = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.reduce %x, %c {dimensions = array<i64: 1>, to_apply = @add} : (tensor<64x64xf32>, tensor<f32>) -> tensor<64xf32>
  %1 = hlo.reduce %x, %c {dimensions = array<i64: 0>, to_apply = @add} : (tensor<64x64xf32>, tensor<f32>) -> tensor<64xf32>
  return %0, %1 : tensor<64xf32>, tensor<64xf32>
}

// -----

// Producer-consumer multi-output fusion (softmax): the exp fusion has two
// users; it joins the reduction with an extra output that the divide reads.
// It cannot join the divide: the divide also reads the reduction, which
// reads the exp (a cycle).
// CHECK-LABEL: func.func @softmax
// CHECK-NEXT:    %[[M:.*]] = hlo.fusion kInput @max_of(%arg0)
// CHECK-NEXT:    %[[R:.*]]:2 = hlo.fusion kInput @[[C:.*]](%arg0, %[[M]]) : (tensor<32x100xf32>, tensor<32xf32>) -> (tensor<32xf32>, tensor<32x100xf32>)
// CHECK-NEXT:    %[[D:.*]] = hlo.fusion kLoop @divide(%[[R]]#1, %[[R]]#0)
// CHECK-NEXT:    return %[[D]]
// CHECK:       func.func private @[[C]](
// CHECK:         %[[E:.*]] = hlo.exponential
// CHECK:         %[[S:.*]] = hlo.reduce %[[E]]
// CHECK-NEXT:    return %[[S]], %[[E]]
func.func private @add(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @max(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.maximum %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @max_of(%x: tensor<32x100xf32>) -> tensor<32xf32> {
  %c = hlo.constant dense<0xFF800000> : tensor<f32>
  %0 = hlo.reduce %x, %c {dimensions = array<i64: 1>, to_apply = @max} : (tensor<32x100xf32>, tensor<f32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}
func.func private @exp(%x: tensor<32x100xf32>, %m: tensor<32xf32>) -> tensor<32x100xf32> {
  %0 = hlo.broadcast %m, dims = [0] : (tensor<32xf32>) -> tensor<32x100xf32>
  %1 = hlo.subtract %x, %0 : tensor<32x100xf32>
  %2 = hlo.exponential %1 : tensor<32x100xf32>
  return %2 : tensor<32x100xf32>
}
func.func private @sum_of(%e: tensor<32x100xf32>) -> tensor<32xf32> {
  %c = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.reduce %e, %c {dimensions = array<i64: 1>, to_apply = @add} : (tensor<32x100xf32>, tensor<f32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}
func.func private @divide(%e: tensor<32x100xf32>, %s: tensor<32xf32>) -> tensor<32x100xf32> {
  %0 = hlo.broadcast %s, dims = [0] : (tensor<32xf32>) -> tensor<32x100xf32>
  %1 = hlo.divide %e, %0 : tensor<32x100xf32>
  return %1 : tensor<32x100xf32>
}
func.func @softmax(%x: tensor<32x100xf32>) -> tensor<32x100xf32> {
  %m = hlo.fusion kInput @max_of(%x) : (tensor<32x100xf32>) -> tensor<32xf32>
  %e = hlo.fusion kLoop @exp(%x, %m) : (tensor<32x100xf32>, tensor<32xf32>) -> tensor<32x100xf32>
  %s = hlo.fusion kInput @sum_of(%e) : (tensor<32x100xf32>) -> tensor<32xf32>
  %d = hlo.fusion kLoop @divide(%e, %s) : (tensor<32x100xf32>, tensor<32xf32>) -> tensor<32x100xf32>
  return %d : tensor<32x100xf32>
}

// -----

// Must not fire: siblings connected through another op (fusing them would
// make a cycle), and a producer with a single user (priority fusion's
// business).
// CHECK-LABEL: func.func @connected
// CHECK-NEXT:    %[[A:.*]] = hlo.fusion kLoop @neg(%arg0)
// CHECK-NEXT:    %[[B:.*]] = hlo.fusion kLoop @mul(%arg0, %[[A]])
// CHECK-NEXT:    return %[[B]]
func.func private @neg(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = hlo.negate %x : tensor<16xf32>
  return %0 : tensor<16xf32>
}
func.func private @mul(%x: tensor<16xf32>, %y: tensor<16xf32>) -> tensor<16xf32> {
  %0 = hlo.multiply %x, %y : tensor<16xf32>
  return %0 : tensor<16xf32>
}
func.func @connected(%x: tensor<16xf32>) -> tensor<16xf32> {
  %a = hlo.fusion kLoop @neg(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %b = hlo.fusion kLoop @mul(%x, %a) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %b : tensor<16xf32>
}

// -----

// Must not fire: the only shared operand is a scalar (not worth a fusion).
// CHECK-LABEL: func.func @scalar_shared
// CHECK-NEXT:    hlo.fusion kLoop @scale(%arg0, %arg2)
// CHECK-NEXT:    hlo.fusion kLoop @scale(%arg1, %arg2)
// CHECK-NEXT:    return
func.func private @scale(%x: tensor<16x8xf32>, %s: tensor<f32>) -> tensor<16x8xf32> {
  %0 = hlo.broadcast %s, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
  %1 = hlo.multiply %x, %0 : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}
func.func @scalar_shared(%a: tensor<16x8xf32>, %b: tensor<16x8xf32>, %s: tensor<f32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %0 = hlo.fusion kLoop @scale(%a, %s) : (tensor<16x8xf32>, tensor<f32>) -> tensor<16x8xf32>
  %1 = hlo.fusion kLoop @scale(%b, %s) : (tensor<16x8xf32>, tensor<f32>) -> tensor<16x8xf32>
  return %0, %1 : tensor<16x8xf32>, tensor<16x8xf32>
}

// -----

// Must not fire: different loop shapes ([16, 8] and a [4, 8] slice).
// CHECK-LABEL: func.func @different_loop_shapes
// CHECK-NEXT:    hlo.fusion kLoop @neg(%arg0)
// CHECK-NEXT:    hlo.fusion kLoop @top(%arg0)
// CHECK-NEXT:    return
func.func private @neg(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = hlo.negate %x : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
func.func private @top(%x: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %0 = hlo.slice %x, start = [0, 0], limit = [4, 8], strides = [1, 1] : (tensor<16x8xf32>) -> tensor<4x8xf32>
  %1 = hlo.negate %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
func.func @different_loop_shapes(%a: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<4x8xf32>) {
  %0 = hlo.fusion kLoop @neg(%a) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = hlo.fusion kLoop @top(%a) : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %0, %1 : tensor<16x8xf32>, tensor<4x8xf32>
}

// -----

// Must not fire: neither sibling is a fusion or a reduction (two plain
// elementwise ops; priority fusion had nothing to fuse into them).
// CHECK-LABEL: func.func @plain_elementwise
// CHECK-NEXT:    hlo.negate %arg0
// CHECK-NEXT:    hlo.exponential %arg0
// CHECK-NEXT:    return
// CHECK-NOT:   hlo.fusion
func.func @plain_elementwise(%b: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %0 = hlo.negate %b : tensor<16x8xf32>
  %1 = hlo.exponential %b : tensor<16x8xf32>
  return %0, %1 : tensor<16x8xf32>, tensor<16x8xf32>
}

// -----

// Loop fusions of the same shape sharing an operand do fuse; a
// dynamic-update-slice fusion (updated in place) does not.
// CHECK-LABEL: func.func @loop_siblings
// CHECK-NEXT:    %[[F:.*]]:2 = hlo.fusion kLoop @{{.*}}(%arg0) : (tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>)
// CHECK-NEXT:    %[[D:.*]] = hlo.fusion kLoop @update(%arg0, %arg1)
// CHECK-NEXT:    return %[[F]]#0, %[[F]]#1, %[[D]]
func.func private @neg(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = hlo.negate %x : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
func.func private @exp(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = hlo.exponential %x : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
func.func private @update(%x: tensor<16x8xf32>, %i: tensor<i32>) -> tensor<16x8xf32> {
  %0 = hlo.slice %x, start = [0, 0], limit = [1, 8], strides = [1, 1] : (tensor<16x8xf32>) -> tensor<1x8xf32>
  %1 = hlo.negate %0 : tensor<1x8xf32>
  %2 = hlo.dynamic_update_slice %x, %1[%i, %i] : (tensor<16x8xf32>, tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<16x8xf32>
  return %2 : tensor<16x8xf32>
}
func.func @loop_siblings(%a: tensor<16x8xf32>, %i: tensor<i32>) -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) {
  %0 = hlo.fusion kLoop @neg(%a) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = hlo.fusion kLoop @exp(%a) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %2 = hlo.fusion kLoop @update(%a, %i) : (tensor<16x8xf32>, tensor<i32>) -> tensor<16x8xf32>
  return %0, %1, %2 : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>
}

// -----

// Must not fire: siblings reading disjoint slices of a large operand share
// no data.
// CHECK-LABEL: func.func @disjoint_slices
// CHECK-NEXT:    hlo.fusion kLoop @lo(%arg0)
// CHECK-NEXT:    hlo.fusion kLoop @hi(%arg0)
// CHECK-NEXT:    return
func.func private @lo(%x: tensor<64x64xf32>) -> tensor<32x64xf32> {
  %0 = hlo.slice %x, start = [0, 0], limit = [32, 64], strides = [1, 1] : (tensor<64x64xf32>) -> tensor<32x64xf32>
  %1 = hlo.negate %0 : tensor<32x64xf32>
  return %1 : tensor<32x64xf32>
}
func.func private @hi(%x: tensor<64x64xf32>) -> tensor<32x64xf32> {
  %0 = hlo.slice %x, start = [32, 0], limit = [64, 64], strides = [1, 1] : (tensor<64x64xf32>) -> tensor<32x64xf32>
  %1 = hlo.exponential %0 : tensor<32x64xf32>
  return %1 : tensor<32x64xf32>
}
func.func @disjoint_slices(%x: tensor<64x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>) {
  %0 = hlo.fusion kLoop @lo(%x) : (tensor<64x64xf32>) -> tensor<32x64xf32>
  %1 = hlo.fusion kLoop @hi(%x) : (tensor<64x64xf32>) -> tensor<32x64xf32>
  return %0, %1 : tensor<32x64xf32>, tensor<32x64xf32>
}

// -----

// The sibling fusion of the two reductions goes where the later one was;
// the ops between them that read the earlier one (here already a loop
// fusion) move after it, keeping their order.
// CHECK-LABEL: func.func @users_between
// CHECK-NEXT:    %[[C:.*]] = hlo.constant
// CHECK-NEXT:    %[[R:.*]]:2 = hlo.fusion kInput @{{.*}}(%arg0, %[[C]]) : (tensor<8x64xf32>, tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>)
// CHECK-NEXT:    %[[L:.*]]:2 = hlo.fusion kLoop @{{.*}}(%[[R]]#0, %arg1)
// CHECK-NEXT:    return %[[L]]#0, %[[R]]#1, %[[L]]#1
func.func private @add(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @max(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.maximum %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func @users_between(%x: tensor<8x64xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %c = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.reduce %x, %c {dimensions = array<i64: 1>, to_apply = @add} : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = hlo.negate %0 : tensor<8xf32>
  %2 = hlo.multiply %y, %y : tensor<8xf32>
  %3 = hlo.add %1, %2 : tensor<8xf32>
  %4 = hlo.reduce %x, %c {dimensions = array<i64: 1>, to_apply = @max} : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
  return %3, %4, %2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
