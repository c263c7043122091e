// RUN: hlo-opt %s --split-input-file --passes=priority-fusion | FileCheck %s

// An elementwise chain with a broadcast scalar constant becomes one loop
// fusion; the fused computation holds the whole chain.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT:    %[[F:.*]] = hlo.fusion kLoop @[[C:.*]](%arg0, %arg1) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    return %[[F]]
// CHECK:       func.func private @[[C]](%[[A:.*]]: tensor<8x16xf32>, %[[B:.*]]: tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    %[[K:.*]] = hlo.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[BC:.*]] = hlo.broadcast %[[K]]
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %[[A]], %[[BC]]
// CHECK-NEXT:    %[[S:.*]] = hlo.add %[[M]], %[[B]]
// CHECK-NEXT:    %[[T:.*]] = hlo.tanh %[[S]]
// CHECK-NEXT:    return %[[T]]
func.func @chain(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c = hlo.constant dense<2.0> : tensor<f32>
  %0 = hlo.broadcast %c, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
  %1 = hlo.multiply %a, %0 : tensor<8x16xf32>
  %2 = hlo.add %1, %b : tensor<8x16xf32>
  %3 = hlo.tanh %2 : tensor<8x16xf32>
  return %3 : tensor<8x16xf32>
}

// -----

// Producers fuse into a row reduction, which makes it an input fusion; the
// scalar init constant is fused too. The reducer is not a fusion target.
// CHECK-LABEL: func.func private @sum
// CHECK-NEXT:    hlo.add
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @reduce_hero
// CHECK-NEXT:    %[[F:.*]] = hlo.fusion kInput @[[C:.*]](%arg0, %arg1) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8xf32>
// CHECK-NEXT:    return %[[F]]
// CHECK:       func.func private @[[C]](
// CHECK-NEXT:    hlo.constant
// CHECK-NEXT:    hlo.multiply
// CHECK-NEXT:    hlo.reduce
// CHECK-NEXT:    return
func.func private @sum(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_hero(%a: tensor<8x64xf32>, %b: tensor<8x64xf32>) -> tensor<8xf32> {
  %c = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.multiply %a, %b : tensor<8x64xf32>
  %1 = hlo.reduce %0, %c {dimensions = array<i64: 1>, to_apply = @sum} : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// A reduction's epilogue may only convert or bitcast: the convert joins the
// reduction's fusion (still kInput), the multiply after it does not (and,
// with nothing else to fuse, stays a plain op).
// CHECK-LABEL: func.func @reduction_epilogue
// CHECK-NEXT:    %[[R:.*]] = hlo.fusion kInput @[[C:.*]](%arg0) : (tensor<8x64xf32>) -> tensor<8xf16>
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %[[R]], %[[R]] : tensor<8xf16>
// CHECK-NEXT:    return %[[M]]
// CHECK:       func.func private @[[C]](
// CHECK:         hlo.reduce
// CHECK-NEXT:    hlo.convert
// CHECK-NEXT:    return
func.func private @sum(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduction_epilogue(%a: tensor<8x64xf32>) -> tensor<8xf16> {
  %c = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.reduce %a, %c {dimensions = array<i64: 1>, to_apply = @sum} : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = hlo.convert %0 : (tensor<8xf32>) -> tensor<8xf16>
  %2 = hlo.multiply %1, %1 : tensor<8xf16>
  return %2 : tensor<8xf16>
}

// -----

// An expensive producer (exp over 4096 elements) with two consumers is not
// duplicated: it stays a fusion of its own that both consumers read. The
// cheap broadcast it reads is duplicated into it and into the second
// consumer.
// CHECK-LABEL: func.func @no_expensive_duplication
// CHECK-NEXT:    %[[E:.*]] = hlo.fusion kLoop @[[CE:.*]](%arg0, %arg1) : (tensor<64x64xf32>, tensor<64xf32>) -> tensor<64x64xf32>
// CHECK-NEXT:    %[[X:.*]] = hlo.negate %[[E]]
// CHECK-NEXT:    %[[Y:.*]] = hlo.fusion kLoop @{{.*}}(%[[E]], %arg1) :
// CHECK-NEXT:    return %[[X]], %[[Y]]
// CHECK:       func.func private @[[CE]](
// CHECK-NEXT:    hlo.broadcast
// CHECK-NEXT:    hlo.subtract
// CHECK-NEXT:    hlo.exponential
// CHECK-NEXT:    return
func.func @no_expensive_duplication(%a: tensor<64x64xf32>, %v: tensor<64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %b = hlo.broadcast %v, dims = [0] : (tensor<64xf32>) -> tensor<64x64xf32>
  %0 = hlo.subtract %a, %b : tensor<64x64xf32>
  %1 = hlo.exponential %0 : tensor<64x64xf32>
  %2 = hlo.negate %1 : tensor<64x64xf32>
  %3 = hlo.multiply %1, %b : tensor<64x64xf32>
  return %2, %3 : tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// Cheap producers (and expensive ones on at most 1024 elements, like this
// per-row divide) are duplicated into every consumer when all can take
// them: no kernel is left for them.
// CHECK-LABEL: func.func @duplicate_small
// CHECK-NEXT:    %[[X:.*]] = hlo.fusion kLoop @[[C1:.*]](%arg0, %arg1) :
// CHECK-NEXT:    %[[Y:.*]] = hlo.fusion kLoop @[[C2:.*]](%arg0, %arg1) :
// CHECK-NEXT:    return %[[X]], %[[Y]]
// CHECK:       func.func private @[[C1]](
// CHECK:         hlo.divide
// CHECK:         hlo.subtract
// CHECK:       func.func private @[[C2]](
// CHECK:         hlo.divide
// CHECK:         hlo.multiply
func.func @duplicate_small(%x: tensor<32x256xf32>, %s: tensor<32xf32>) -> (tensor<32x256xf32>, tensor<32x256xf32>) {
  %c = hlo.constant dense<256.0> : tensor<f32>
  %n = hlo.broadcast %c, dims = [] : (tensor<f32>) -> tensor<32xf32>
  %mean = hlo.divide %s, %n : tensor<32xf32>
  %b = hlo.broadcast %mean, dims = [0] : (tensor<32xf32>) -> tensor<32x256xf32>
  %0 = hlo.subtract %x, %b : tensor<32x256xf32>
  %1 = hlo.multiply %x, %b : tensor<32x256xf32>
  return %0, %1 : tensor<32x256xf32>, tensor<32x256xf32>
}

// -----

// Never fused: dot, custom-call, sort, rng and other side-effecting or
// library ops; fusion stops at them and continues on the other side.
// CHECK-LABEL: func.func @not_fusible
// CHECK-NEXT:    %[[A:.*]] = hlo.fusion kLoop @{{.*}}(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:    %[[D:.*]] = hlo.dot %[[A]], %[[A]]
// CHECK-NEXT:    %[[CC:.*]] = hlo.custom_call "foo"(%[[D]])
// CHECK-NEXT:    %[[R:.*]] = hlo.rng
// CHECK-NEXT:    %[[F:.*]] = hlo.fusion kLoop @{{.*}}(%[[CC]], %[[R]]) :
// CHECK-NEXT:    return %[[F]]
func.func @not_fusible(%a: tensor<4x4xf32>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<4x4xf32> {
  %0 = hlo.negate %a : tensor<4x4xf32>
  %1 = hlo.floor %0 : tensor<4x4xf32>
  %2 = hlo.dot %1, %1 {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = hlo.custom_call "foo"(%2) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %4 = hlo.rng rng_uniform %lo, %hi : (tensor<f32>, tensor<f32>) -> tensor<4x4xf32>
  %5 = hlo.add %3, %4 : tensor<4x4xf32>
  %6 = hlo.sqrt %5 : tensor<4x4xf32>
  return %6 : tensor<4x4xf32>
}

// -----

// A value the computation returns is computed once: it is not fused into
// its other users (XLA does not fuse across the root). Nothing here fuses.
// CHECK-LABEL: func.func @root_not_fused
// CHECK-NEXT:    %[[S:.*]] = hlo.add %arg0, %arg1
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %[[S]], %arg0
// CHECK-NEXT:    return %[[S]], %[[M]]
// CHECK-NOT:   hlo.fusion
func.func @root_not_fused(%a: tensor<16xf32>, %b: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = hlo.add %a, %b : tensor<16xf32>
  %1 = hlo.multiply %0, %a : tensor<16xf32>
  return %0, %1 : tensor<16xf32>, tensor<16xf32>
}

// -----

// A reduction does not fuse into another reduction (both reduce at least 16
// elements per output): two input fusions.
// CHECK-LABEL: func.func @reduce_into_reduce
// CHECK-NEXT:    %[[R1:.*]] = hlo.fusion kInput @{{.*}}(%arg0) : (tensor<4x32x64xf32>) -> tensor<4x32xf32>
// CHECK-NEXT:    %[[R2:.*]] = hlo.fusion kInput @{{.*}}(%[[R1]]) : (tensor<4x32xf32>) -> tensor<4xf32>
// CHECK-NEXT:    return %[[R2]]
func.func private @sum(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_into_reduce(%a: tensor<4x32x64xf32>) -> tensor<4xf32> {
  %c = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.reduce %a, %c {dimensions = array<i64: 2>, to_apply = @sum} : (tensor<4x32x64xf32>, tensor<f32>) -> tensor<4x32xf32>
  %1 = hlo.reduce %0, %c {dimensions = array<i64: 1>, to_apply = @sum} : (tensor<4x32xf32>, tensor<f32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Scatter: the updates' producer fuses into the scatter (an input fusion),
// the producer of the operand it updates in place does not.
// CHECK-LABEL: func.func @scatter
// CHECK-NEXT:    %[[OP:.*]] = hlo.negate %arg0
// CHECK-NEXT:    %[[S:.*]] = hlo.fusion kInput @[[C:.*]](%[[OP]], %arg1, %arg2) :
// CHECK-NEXT:    return %[[S]]
// CHECK:       func.func private @[[C]](
// CHECK-NEXT:    hlo.exponential
// CHECK-NEXT:    hlo.scatter
// CHECK-NEXT:    return
func.func private @sum(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func @scatter(%x: tensor<3x4xf32>, %idx: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  %0 = hlo.negate %x : tensor<3x4xf32>
  %1 = hlo.exponential %u : tensor<2x4xf32>
  %2 = hlo.scatter %0, %idx, %1 {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @sum} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return %2 : tensor<3x4xf32>
}

// -----

// Dynamic-update-slice: the update and the indices fuse into it (a loop
// fusion the in-place emitter takes); a slice of the buffer it updates may
// not (the buffer would be overwritten while read).
// CHECK-LABEL: func.func @dynamic_update_slice
// CHECK-NEXT:    %[[SL:.*]] = hlo.slice %arg0
// CHECK-NEXT:    %[[D:.*]] = hlo.fusion kLoop @[[C:.*]](%arg0, %[[SL]], %arg1) :
// CHECK-NEXT:    return %[[D]]
// CHECK:       func.func private @[[C]](
// CHECK:         hlo.exponential
// CHECK:         hlo.dynamic_update_slice
// CHECK-NEXT:    return
func.func @dynamic_update_slice(%x: tensor<8x8xf32>, %i: tensor<i32>) -> tensor<8x8xf32> {
  %s = hlo.slice %x, start = [0, 0], limit = [2, 8], strides = [1, 1] : (tensor<8x8xf32>) -> tensor<2x8xf32>
  %u = hlo.exponential %s : tensor<2x8xf32>
  %c = hlo.constant dense<1> : tensor<i32>
  %j = hlo.add %i, %c : tensor<i32>
  %0 = hlo.dynamic_update_slice %x, %u[%j, %c] : (tensor<8x8xf32>, tensor<2x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A transpose of a large enough tile is the hero of an input fusion; a
// concatenate root makes an input fusion too.
// CHECK-LABEL: func.func @heroes
// CHECK-NEXT:    %[[T:.*]] = hlo.fusion kInput @{{.*}}(%arg0) : (tensor<64x128xf32>) -> tensor<128x64xf32>
// CHECK-NEXT:    %[[C:.*]] = hlo.fusion kInput @{{.*}}(%arg1, %arg2) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:    return %[[T]], %[[C]]
func.func @heroes(%a: tensor<64x128xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> (tensor<128x64xf32>, tensor<8x8xf32>) {
  %0 = hlo.exponential %a : tensor<64x128xf32>
  %1 = hlo.transpose %0, dims = [1, 0] : (tensor<64x128xf32>) -> tensor<128x64xf32>
  %2 = hlo.negate %b : tensor<4x8xf32>
  %3 = hlo.concatenate(%2, %c), dim = 0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %1, %3 : tensor<128x64xf32>, tensor<8x8xf32>
}

// -----

// Gather fuses as a consumer (its index computation fuses into it); an
// existing loop fusion is extended by its producer.
// CHECK-LABEL: func.func @gather_and_existing_fusion
// CHECK-NEXT:    %[[G:.*]] = hlo.fusion kLoop @[[C:.*]](%arg0, %arg1) : (tensor<16x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
// CHECK-NEXT:    return %[[G]]
// CHECK:       func.func private @[[C]](
// CHECK:         hlo.add
// CHECK:         hlo.gather
// CHECK-NEXT:    hlo.floor
// CHECK-NEXT:    return
func.func private @existing(%g: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = hlo.floor %g : tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
func.func @gather_and_existing_fusion(%t: tensor<16x4xf32>, %i: tensor<3xi32>) -> tensor<3x4xf32> {
  %one = hlo.constant dense<1> : tensor<i32>
  %b = hlo.broadcast %one, dims = [] : (tensor<i32>) -> tensor<3xi32>
  %j = hlo.add %i, %b : tensor<3xi32>
  %k = hlo.reshape %j : (tensor<3xi32>) -> tensor<3x1xi32>
  %g = hlo.gather %t, %k {dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>} : (tensor<16x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  %r = hlo.fusion kLoop @existing(%g) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

// While bodies and conditions are fused too (the condition's reduction is
// a row reduction of 4, an input fusion; its compare takes its constant);
// the reducer @max is not a fusion target.
// CHECK-LABEL: func.func private @body
// CHECK-NEXT:    %[[F:.*]] = hlo.fusion kLoop @{{.*}}(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    return %[[F]]
// CHECK-LABEL: func.func private @cond
// CHECK-NEXT:    %[[R:.*]] = hlo.fusion kInput @{{.*}}(%arg0) : (tensor<4xf32>) -> tensor<f32>
// CHECK-NEXT:    %[[P:.*]] = hlo.fusion kLoop @{{.*}}(%[[R]]) : (tensor<f32>) -> tensor<i1>
// CHECK-NEXT:    return %[[P]]
// CHECK-LABEL: func.func private @max
// CHECK-NEXT:    hlo.maximum
// CHECK-LABEL: func.func @while_loop
// CHECK-NEXT:    hlo.while
func.func private @body(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.multiply %x, %x : tensor<4xf32>
  %1 = hlo.add %0, %x : tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @cond(%x: tensor<4xf32>) -> tensor<i1> {
  %c = hlo.constant dense<0.0> : tensor<f32>
  %lim = hlo.constant dense<100.0> : tensor<f32>
  %0 = hlo.reduce %x, %c {dimensions = array<i64: 0>, to_apply = @max} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %1 = hlo.compare LT, %0, %lim : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %1 : tensor<i1>
}
func.func private @max(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.maximum %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func @while_loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.while %x, condition = @cond, body = @body : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A consumer with a non-default layout keeps it on the fusion.
// CHECK-LABEL: func.func @layout
// CHECK-NEXT:    %[[F:.*]] = hlo.fusion kLoop @{{.*}}(%arg0) {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>}
// CHECK-NEXT:    return %[[F]]
func.func @layout(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = hlo.negate %a : tensor<4x8xf32>
  %1 = hlo.floor %0 {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// Must not fire: a computation with control dependencies (they name
// instructions that fusion would move into fused computations).
// CHECK-LABEL: func.func @control_dependencies
// CHECK-NEXT:    hlo.negate
// CHECK-NEXT:    hlo.exponential
// CHECK-NEXT:    return
// CHECK-NOT:   hlo.fusion
func.func @control_dependencies(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.negate %a : tensor<4xf32>
  %1 = hlo.exponential %0 {hlo.control_predecessors = "{negate.1}"} : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Fusions grow step by step: the fused computations made earlier in the run
// take in the next producer or consumer, and the result has the parameters
// in the order of the consumer's operands, each producer's operands in
// place of its result. The producer `%1`, read twice, is duplicated: copied
// into the first consumer's fusion, moved into the last one's.
// CHECK-LABEL: func.func @grow
// CHECK-NEXT:    %[[F:.*]] = hlo.fusion kLoop @[[C:.*]](%arg2, %arg0, %arg1)
// CHECK-NEXT:    %[[G:.*]] = hlo.fusion kLoop @[[D:.*]](%arg0, %arg1)
// CHECK-NEXT:    return %[[F]], %[[G]]
// CHECK:       func.func private @[[C]](%[[C0:.*]]: tensor<8x16xf32>, %[[C1:.*]]: tensor<8x16xf32>, %[[C2:.*]]: tensor<8x16xf32>)
// CHECK-NEXT:    %[[A:.*]] = hlo.add %[[C1]], %[[C2]]
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %[[A]], %[[A]]
// CHECK-NEXT:    %[[S:.*]] = hlo.subtract %[[C0]], %[[C1]]
// CHECK-NEXT:    %[[E:.*]] = hlo.exponential %[[S]]
// CHECK-NEXT:    %[[X:.*]] = hlo.maximum %[[E]], %[[M]]
// CHECK-NEXT:    %[[T:.*]] = hlo.tanh %[[X]]
// CHECK-NEXT:    return %[[T]]
// CHECK:       func.func private @[[D]](%[[D0:.*]]: tensor<8x16xf32>, %[[D1:.*]]: tensor<8x16xf32>)
// CHECK-NEXT:    %[[A2:.*]] = hlo.add %[[D0]], %[[D1]]
// CHECK-NEXT:    %[[M2:.*]] = hlo.multiply %[[A2]], %[[A2]]
// CHECK-NEXT:    %[[N:.*]] = hlo.negate %[[M2]]
// CHECK-NEXT:    return %[[N]]
// CHECK-NOT:   func.func
func.func @grow(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = hlo.add %a, %b : tensor<8x16xf32>
  %1 = hlo.multiply %0, %0 : tensor<8x16xf32>
  %2 = hlo.subtract %c, %a : tensor<8x16xf32>
  %3 = hlo.exponential %2 : tensor<8x16xf32>
  %4 = hlo.maximum %3, %1 : tensor<8x16xf32>
  %5 = hlo.tanh %4 : tensor<8x16xf32>
  %6 = hlo.negate %1 : tensor<8x16xf32>
  return %5, %6 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// A short row reduction (10 per output, computed elementally) is not fused
// into a consumer that reads each of its elements several times through a
// broadcast: it would be recomputed for every element of the row.
// CHECK-LABEL: func.func @reduce_not_recomputed
// CHECK-NEXT:    %[[M:.*]] = hlo.reduce %arg0, %arg1 {{.*}} -> tensor<16xf32>
// CHECK-NEXT:    %[[S:.*]] = hlo.fusion kLoop @{{.*}}(%arg0, %[[M]]) : (tensor<16x10xf32>, tensor<16xf32>) -> tensor<16x10xf32>
// CHECK-NEXT:    return %[[S]]
func.func @reduce_not_recomputed(%x: tensor<16x10xf32>, %ninf: tensor<f32>) -> tensor<16x10xf32> {
  %m = hlo.reduce %x, %ninf {dimensions = array<i64: 1>, to_apply = @max} : (tensor<16x10xf32>, tensor<f32>) -> tensor<16xf32>
  %b = hlo.broadcast %m, dims = [0] : (tensor<16xf32>) -> tensor<16x10xf32>
  %s = hlo.subtract %x, %b : tensor<16x10xf32>
  return %s : tensor<16x10xf32>
}
func.func private @max(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.maximum %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
