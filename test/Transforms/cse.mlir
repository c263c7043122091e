// RUN: hlo-opt %s --split-input-file --passes=cse | FileCheck %s

// Identical instructions merge into the first; commutative ops match with
// their operands swapped; metadata does not count.
// CHECK-LABEL: func.func @merge
// CHECK-NEXT:    %[[A:.*]] = hlo.add %arg0, %arg1
// CHECK-NEXT:    %[[S1:.*]] = hlo.subtract %arg0, %arg1
// CHECK-NEXT:    %[[S2:.*]] = hlo.subtract %arg1, %arg0
// CHECK-NEXT:    %[[E:.*]] = hlo.exponential %[[A]]
// CHECK-NEXT:    return %[[A]], %[[A]], %[[S1]], %[[S2]], %[[E]], %[[E]]
func.func @merge(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = hlo.add %a, %b : tensor<4xf32>
  %1 = hlo.add %b, %a : tensor<4xf32>
  %2 = hlo.subtract %a, %b : tensor<4xf32>
  %3 = hlo.subtract %b, %a : tensor<4xf32>
  %4 = hlo.exponential %0 : tensor<4xf32>
  %5 = hlo.exponential %1 {hlo.metadata = "{op_name=\22other\22}"} : tensor<4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Identical constants and iotas merge; different values, types, dimensions
// or layouts do not. Merging constants lets their users merge.
// CHECK-LABEL: func.func @leaves
// CHECK-NEXT:    %[[C1:.*]] = hlo.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %[[C2:.*]] = hlo.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %[[C3:.*]] = hlo.constant dense<1.000000e+00> : tensor<4xf64>
// CHECK-NEXT:    %[[I0:.*]] = hlo.iota dim = 0 : tensor<4x4xi32>
// CHECK-NEXT:    %[[I1:.*]] = hlo.iota dim = 1 : tensor<4x4xi32>
// CHECK-NEXT:    %[[L:.*]] = hlo.iota dim = 0 {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : tensor<4x4xi32>
// CHECK-NEXT:    %[[N:.*]] = hlo.negate %[[C1]]
// CHECK-NEXT:    return %[[N]], %[[N]], %[[C2]], %[[C3]], %[[I0]], %[[I0]], %[[I1]], %[[L]]
func.func @leaves() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf64>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>) {
  %0 = hlo.constant dense<1.0> : tensor<4xf32>
  %1 = hlo.constant dense<1.0> : tensor<4xf32>
  %2 = hlo.constant dense<2.0> : tensor<4xf32>
  %3 = hlo.constant dense<1.0> : tensor<4xf64>
  %4 = hlo.iota dim = 0 : tensor<4x4xi32>
  %5 = hlo.iota dim = 0 : tensor<4x4xi32>
  %6 = hlo.iota dim = 1 : tensor<4x4xi32>
  %7 = hlo.iota dim = 0 {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : tensor<4x4xi32>
  %8 = hlo.negate %0 : tensor<4xf32>
  %9 = hlo.negate %1 : tensor<4xf32>
  return %8, %9, %2, %3, %4, %5, %6, %7 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf64>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>
}

// -----

// Must not fire: different attributes, result layouts, or shardings.
// CHECK-LABEL: func.func @different
// CHECK-COUNT-2: hlo.compare
// CHECK-COUNT-2: hlo.broadcast
// CHECK-COUNT-2: hlo.negate
// CHECK-COUNT-2: hlo.exponential
func.func @different(%a: tensor<2xf32>, %s: tensor<2xf32>) -> (tensor<2xi1>, tensor<2xi1>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0 = hlo.compare LT, %a, %s : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %1 = hlo.compare GT, %a, %s : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %2 = hlo.broadcast %a, dims = [0] : (tensor<2xf32>) -> tensor<2x2xf32>
  %3 = hlo.broadcast %a, dims = [1] : (tensor<2xf32>) -> tensor<2x2xf32>
  %4 = hlo.negate %a : tensor<2xf32>
  %5 = hlo.negate %a {hlo.layout = #hlo.layout<minor_to_major = [0]>} : tensor<2xf32>
  %6 = hlo.exponential %a {hlo.sharding = #hlo.sharding<replicated>} : tensor<2xf32>
  %7 = hlo.exponential %a {hlo.sharding = #hlo.sharding<maximal device = 0>} : tensor<2xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2xi1>, tensor<2xi1>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// Must not fire: random numbers and side effects. A custom-call without
// has_side_effect merges.
// CHECK-LABEL: func.func @effects
// CHECK-COUNT-2: hlo.rng rng_uniform
// CHECK-COUNT-2: hlo.rng_bit_generator
// CHECK-COUNT-2: hlo.custom_call "effect"
// CHECK-COUNT-1: hlo.custom_call "pure"
// CHECK-NOT:     hlo.custom_call "pure"
func.func @effects(%a: tensor<f32>, %k: tensor<2xui64>) -> (tensor<f32>, tensor<f32>, tensor<4xui32>, tensor<4xui32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) {
  %0 = hlo.rng rng_uniform %a, %a : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %1 = hlo.rng rng_uniform %a, %a : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %2:2 = hlo.rng_bit_generator rng_three_fry %k : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  %3:2 = hlo.rng_bit_generator rng_three_fry %k : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  %4 = hlo.custom_call "effect"(%a) {has_side_effect = true} : (tensor<f32>) -> tensor<f32>
  %5 = hlo.custom_call "effect"(%a) {has_side_effect = true} : (tensor<f32>) -> tensor<f32>
  %6 = hlo.custom_call "pure"(%a) : (tensor<f32>) -> tensor<f32>
  %7 = hlo.custom_call "pure"(%a) : (tensor<f32>) -> tensor<f32>
  return %0, %1, %2#1, %3#1, %4, %5, %6, %7 : tensor<f32>, tensor<f32>, tensor<4xui32>, tensor<4xui32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
}

// -----

// Callees: the same computation, or structurally identical ones, merge;
// a different reducer does not.
// CHECK-LABEL: func.func @callees
// CHECK-NEXT:    %[[R:.*]] = hlo.reduce %arg0, %arg1 {{.*}}to_apply = @sum1}
// CHECK-NEXT:    %[[M:.*]] = hlo.reduce %arg0, %arg1 {{.*}}to_apply = @max}
// CHECK-NEXT:    return %[[R]], %[[R]], %[[R]], %[[M]]
func.func private @sum1(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @sum2(%p: tensor<f32>, %q: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %p, %q {hlo.metadata = "{op_name=\22add\22}"} : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @max(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.maximum %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func @callees(%v: tensor<4xf32>, %z: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) {
  %0 = hlo.reduce %v, %z {dimensions = array<i64: 0>, to_apply = @sum1} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %1 = hlo.reduce %v, %z {dimensions = array<i64: 0>, to_apply = @sum1} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %2 = hlo.reduce %v, %z {dimensions = array<i64: 0>, to_apply = @sum2} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %3 = hlo.reduce %v, %z {dimensions = array<i64: 0>, to_apply = @max} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0, %1, %2, %3 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
}

// -----

// Calls merge when their computation has no side effects; not when it has.
// CHECK-LABEL: func.func @calls
// CHECK-COUNT-1: hlo.call @pure
// CHECK-NOT:     hlo.call @pure
// CHECK-COUNT-2: hlo.call @impure
func.func private @pure(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.negate %x : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @impure(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.rng rng_uniform %x, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @calls(%a: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) {
  %0 = hlo.call @pure(%a) : (tensor<f32>) -> tensor<f32>
  %1 = hlo.call @pure(%a) : (tensor<f32>) -> tensor<f32>
  %2 = hlo.call @impure(%a) : (tensor<f32>) -> tensor<f32>
  %3 = hlo.call @impure(%a) : (tensor<f32>) -> tensor<f32>
  return %0, %1, %2, %3 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
}

// -----

// Operands the merged instruction leaves unused go with it; other dead
// code stays (CSE is not DCE).
// CHECK-LABEL: func.func @cleanup
// CHECK-NEXT:    %[[U:.*]] = hlo.sine %arg0
// CHECK-NEXT:    %[[N:.*]] = hlo.negate %arg0
// CHECK-NEXT:    %[[T:.*]] = hlo.tuple %[[N]], %arg0
// CHECK-NEXT:    %[[G:.*]] = hlo.get_tuple_element %[[T]][0]
// CHECK-NEXT:    return %[[G]], %[[G]]
func.func @cleanup(%a: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %u = hlo.sine %a : tensor<f32>
  %0 = hlo.negate %a : tensor<f32>
  %1 = hlo.tuple %0, %a : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
  %2 = hlo.get_tuple_element %1[0] : (tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>
  %3 = hlo.negate %a : tensor<f32>
  %4 = hlo.tuple %3, %a : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
  %5 = hlo.get_tuple_element %4[0] : (tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>
  return %2, %5 : tensor<f32>, tensor<f32>
}

// -----

// An instruction marked MUST_FUSE merges with nothing, and nothing merges
// into it, although identity ignores frontend attributes: its twins merge
// with each other, whichever comes first.
// CHECK-LABEL: func.func @must_fuse
// CHECK-NEXT: %[[A:.*]] = hlo.add %arg0, %arg1 {hlo.frontend_attributes = "{MUST_FUSE=\22true\22}"}
// CHECK-NEXT: %[[B:.*]] = hlo.add %arg0, %arg1 : tensor<4xf32>
// CHECK-NEXT: %[[C:.*]] = hlo.multiply %arg0, %arg1 : tensor<4xf32>
// CHECK-NEXT: %[[D:.*]] = hlo.multiply %arg0, %arg1 {hlo.frontend_attributes = "{MUST_FUSE=\22true\22}"}
// CHECK-NEXT: return %[[A]], %[[B]], %[[B]], %[[C]], %[[D]], %[[C]]
func.func @must_fuse(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = hlo.add %a, %b {hlo.frontend_attributes = "{MUST_FUSE=\22true\22}"} : tensor<4xf32>
  %1 = hlo.add %a, %b : tensor<4xf32>
  %2 = hlo.add %b, %a : tensor<4xf32>
  %3 = hlo.multiply %a, %b : tensor<4xf32>
  %4 = hlo.multiply %a, %b {hlo.frontend_attributes = "{MUST_FUSE=\22true\22}"} : tensor<4xf32>
  %5 = hlo.multiply %a, %b : tensor<4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
