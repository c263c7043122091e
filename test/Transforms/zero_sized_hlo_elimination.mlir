// RUN: hlo-opt %s --split-input-file --passes=zero_sized_hlo_elimination | FileCheck %s

// Zero-element results of side-effect-free ops become empty constants, which
// keep the op's layout; constants, non-empty results and parameters stay.
// (The negate's constant is left for dce.)
// CHECK-LABEL: func.func @zero_sized
// CHECK-NEXT:    hlo.constant dense<> : tensor<3x0xf32>
// CHECK-NEXT:    %[[T:.*]] = hlo.constant {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} dense<> : tensor<0x3xf32>
// CHECK-NEXT:    %[[Z:.*]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[R:.*]] = hlo.reduce %arg0, %[[Z]]
// CHECK-NEXT:    %[[S:.*]] = hlo.constant dense<> : tensor<0xf32>
// CHECK-NEXT:    %[[C:.*]] = hlo.concatenate(%arg1, %[[S]]), dim = 0
// CHECK-NEXT:    return %[[T]], %[[R]], %[[C]]
func.func private @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @zero_sized(%p: tensor<3x0xf32>, %q: tensor<4xf32>) -> (tensor<0x3xf32>, tensor<3xf32>, tensor<4xf32>) attributes {hlo.entry} {
  %0 = hlo.negate %p : tensor<3x0xf32>
  %1 = hlo.transpose %0, dims = [1, 0] {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : (tensor<3x0xf32>) -> tensor<0x3xf32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %2 = hlo.reduce %p, %z {dimensions = array<i64: 1>, to_apply = @sum} : (tensor<3x0xf32>, tensor<f32>) -> tensor<3xf32>
  %3 = hlo.slice %q, start = [2], limit = [2], strides = [1] : (tensor<4xf32>) -> tensor<0xf32>
  %4 = hlo.concatenate(%q, %3), dim = 0 : (tensor<4xf32>, tensor<0xf32>) -> tensor<4xf32>
  return %1, %2, %4 : tensor<0x3xf32>, tensor<3xf32>, tensor<4xf32>
}

// -----

// Side effects (XLA's HasSideEffect) keep an op: rng, a call of a
// computation with an rng, a custom-call marked has_side_effect. A call of a
// side-effect-free computation goes, and so do zero-sized ops inside it.
// CHECK-LABEL: func.func private @pure
// CHECK-NEXT:    %[[E:.*]] = hlo.constant dense<> : tensor<0xf32>
// CHECK-NEXT:    return %[[E]]
// CHECK-LABEL: func.func private @effect
// CHECK-NEXT:    hlo.rng
// CHECK-LABEL: func.func @effects
// CHECK-NEXT:    %[[R:.*]] = hlo.rng rng_uniform
// CHECK-NEXT:    %[[C:.*]] = hlo.call @effect
// CHECK-NEXT:    %[[P:.*]] = hlo.constant dense<> : tensor<0xf32>
// CHECK-NEXT:    %[[X:.*]] = hlo.custom_call "foo"
// CHECK-NEXT:    return %[[R]], %[[C]], %[[P]], %[[X]]
func.func private @pure(%a: tensor<0xf32>) -> tensor<0xf32> {
  %0 = hlo.negate %a : tensor<0xf32>
  return %0 : tensor<0xf32>
}
func.func private @effect(%a: tensor<f32>) -> tensor<0xf32> {
  %0 = hlo.rng rng_uniform %a, %a : (tensor<f32>, tensor<f32>) -> tensor<0xf32>
  return %0 : tensor<0xf32>
}
func.func @effects(%a: tensor<f32>, %e: tensor<0xf32>) -> (tensor<0xf32>, tensor<0xf32>, tensor<0xf32>, tensor<0xf32>) {
  %0 = hlo.rng rng_uniform %a, %a : (tensor<f32>, tensor<f32>) -> tensor<0xf32>
  %1 = hlo.call @effect(%a) : (tensor<f32>) -> tensor<0xf32>
  %2 = hlo.call @pure(%e) : (tensor<0xf32>) -> tensor<0xf32>
  %3 = hlo.custom_call "foo"(%a) {has_side_effect = true} : (tensor<f32>) -> tensor<0xf32>
  return %0, %1, %2, %3 : tensor<0xf32>, tensor<0xf32>, tensor<0xf32>, tensor<0xf32>
}

// -----

// A multi-result op with only empty results becomes one constant per result
// (XLA skips tuple shapes, but rxla's emitters crashed on such variadic
// ops). Not replaced: tuples, constants, and ops inside a fusion's
// computation (the fusion op itself is replaced).
// CHECK-LABEL: func.func private @fused
// CHECK-NEXT:    hlo.abs
// CHECK-LABEL: func.func @kept
// CHECK-NEXT:    %[[S:.*]] = hlo.constant dense<> : tensor<0xf32>
// CHECK-NEXT:    hlo.constant dense<> : tensor<0xf32>
// CHECK-NEXT:    %[[T:.*]] = hlo.tuple
// CHECK-NEXT:    %[[F:.*]] = hlo.constant dense<> : tensor<0xf32>
// CHECK-NEXT:    hlo.constant dense<> : tensor<0xf32>
// CHECK-NEXT:    return %[[S]], %[[T]], %[[F]]
func.func private @lt(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func private @fused(%a: tensor<0xf32>) -> tensor<0xf32> {
  %0 = hlo.abs %a : (tensor<0xf32>) -> tensor<0xf32>
  return %0 : tensor<0xf32>
}
func.func @kept(%k: tensor<0xf32>, %v: tensor<0xf32>) -> (tensor<0xf32>, tuple<tensor<0xf32>>, tensor<0xf32>) {
  %0:2 = hlo.sort %k, %v {dimension = 0 : i64, to_apply = @lt} : (tensor<0xf32>, tensor<0xf32>) -> (tensor<0xf32>, tensor<0xf32>)
  %1 = hlo.tuple %k : (tensor<0xf32>) -> tuple<tensor<0xf32>>
  %2 = hlo.fusion kLoop @fused(%v) : (tensor<0xf32>) -> tensor<0xf32>
  %3 = hlo.constant dense<> : tensor<0xf32>
  return %0#0, %1, %2 : tensor<0xf32>, tuple<tensor<0xf32>>, tensor<0xf32>
}

// -----

// A computation with control dependencies is left alone.
// CHECK-LABEL: func.func @control_dependencies
// CHECK-NEXT:    hlo.negate
// CHECK-NEXT:    hlo.abs
// CHECK-NOT:     hlo.constant
func.func @control_dependencies(%a: tensor<0xf32>) -> tensor<0xf32> {
  %0 = hlo.negate %a : tensor<0xf32>
  %1 = hlo.abs %0 {hlo.control_predecessors = "{negate.1}"} : (tensor<0xf32>) -> tensor<0xf32>
  return %1 : tensor<0xf32>
}
