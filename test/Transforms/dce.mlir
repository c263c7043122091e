// RUN: hlo-opt %s --split-input-file --passes=dce | FileCheck %s

// Unused pure instructions go, whole chains in one sweep; used ones stay.
// CHECK-LABEL: func.func @dead_chain
// CHECK-NEXT:    %[[E:.*]] = hlo.exponential %arg0
// CHECK-NEXT:    return %[[E]]
func.func @dead_chain(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.negate %a : tensor<4xf32>
  %1 = hlo.add %0, %0 : tensor<4xf32>
  %2 = hlo.multiply %1, %a : tensor<4xf32>
  %3 = hlo.exponential %a : tensor<4xf32>
  return %3 : tensor<4xf32>
}

// -----

// Side-effecting instructions stay even when unused: rng, custom-call,
// outfeed, collectives, opt-barrier.
// CHECK-LABEL: func.func @side_effects_stay
// CHECK:         hlo.rng
// CHECK:         hlo.custom_call "foo"
// CHECK:         hlo.outfeed
// CHECK:         hlo.all_reduce
// CHECK:         hlo.opt_barrier
// CHECK-NOT:     hlo.negate
func.func @side_effects_stay(%a: tensor<f32>, %t: !hlo.token) -> tensor<f32> {
  %0 = hlo.rng rng_uniform %a, %a : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %1 = hlo.custom_call "foo"(%a) : (tensor<f32>) -> tensor<f32>
  %2 = hlo.outfeed %a, %t : (tensor<f32>, !hlo.token) -> !hlo.token
  %3 = hlo.all_reduce %a {to_apply = @side_effects_sum} : (tensor<f32>) -> tensor<f32>
  %4 = hlo.opt_barrier %a : tensor<f32>
  %5 = hlo.negate %a : tensor<f32>
  return %a : tensor<f32>
}
func.func @side_effects_sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Computations the entry no longer reaches are removed; reached ones
// (directly or through another computation) stay.
// CHECK-LABEL: func.func @add
// CHECK-LABEL: func.func @wrapper
// CHECK-NOT:   func.func @orphan
// CHECK-LABEL: func.func @main
func.func @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @wrapper(%a: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> {
  %0 = hlo.reduce %a, %init {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @orphan(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}
func.func @main(%a: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> attributes {hlo.entry} {
  %0 = hlo.call @wrapper(%a, %init) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Without an entry computation every function may be called from outside:
// none is removed.
// CHECK-LABEL: func.func @no_entry_a
// CHECK-LABEL: func.func @no_entry_b
func.func @no_entry_a(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}
func.func @no_entry_b(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}

// -----

// Unused calls and fusions go when their computations have no side
// effects (the op itself must be assumed effectful by the dialect); a call
// of a computation with an outfeed stays.
// CHECK-LABEL: func.func @dead_callers
// CHECK-NOT: hlo.fusion
// CHECK-NOT: @pure
// CHECK: hlo.call @effectful
// CHECK-NOT: func.func private @pure
// CHECK: func.func private @effectful
func.func @dead_callers(%a: tensor<4xf32>, %t: !hlo.token) -> tensor<4xf32> attributes {hlo.entry} {
  %0 = hlo.fusion kLoop @pure(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = hlo.call @pure(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = hlo.call @effectful(%a, %t) : (tensor<4xf32>, !hlo.token) -> !hlo.token
  return %a : tensor<4xf32>
}
func.func private @pure(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.exponential %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @effectful(%x: tensor<4xf32>, %t: !hlo.token) -> !hlo.token {
  %0 = hlo.outfeed %x, %t : (tensor<4xf32>, !hlo.token) -> !hlo.token
  return %0 : !hlo.token
}
