// RUN: hlo-opt %s --split-input-file --passes=call-inliner | FileCheck %s

// A call becomes the callee's body with parameters mapped to the operands;
// the callee, now unreferenced, is erased.
// CHECK-NOT:   func.func private @mul_add
// CHECK-LABEL: func.func @basic
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %arg0, %arg1
// CHECK-NEXT:    %[[A:.*]] = hlo.add %[[M]], %arg0
// CHECK-NEXT:    return %[[A]]
func.func private @mul_add(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.multiply %x, %y : tensor<4xf32>
  %1 = hlo.add %0, %x : tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func @basic(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
  %0 = hlo.call @mul_add(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Callees first: a call nested in the callee is inlined too, and a callee
// called twice is inlined at both call sites.
// CHECK-NOT:   func.func private
// CHECK-LABEL: func.func @nested
// CHECK-NEXT:    %[[N1:.*]] = hlo.negate %arg0
// CHECK-NEXT:    %[[E1:.*]] = hlo.exponential %[[N1]]
// CHECK-NEXT:    %[[N2:.*]] = hlo.negate %[[E1]]
// CHECK-NEXT:    %[[E2:.*]] = hlo.exponential %[[N2]]
// CHECK-NEXT:    return %[[E2]]
func.func private @inner(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.negate %x : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @outer(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.call @inner(%x) : (tensor<f32>) -> tensor<f32>
  %1 = hlo.exponential %0 : tensor<f32>
  return %1 : tensor<f32>
}
func.func @nested(%a: tensor<f32>) -> tensor<f32> attributes {hlo.entry} {
  %0 = hlo.call @outer(%a) : (tensor<f32>) -> tensor<f32>
  %1 = hlo.call @outer(%0) : (tensor<f32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// Tuple and multiple results are forwarded as they are.
// CHECK-LABEL: func.func @results
// CHECK-NEXT:    %[[T:.*]] = hlo.tuple %arg0, %arg0
// CHECK-NEXT:    %[[N:.*]] = hlo.negate %arg0
// CHECK-NEXT:    return %[[T]], %[[N]], %arg0
func.func private @pair(%x: tensor<f32>) -> tuple<tensor<f32>, tensor<f32>> {
  %0 = hlo.tuple %x, %x : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
  return %0 : tuple<tensor<f32>, tensor<f32>>
}
func.func private @two(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = hlo.negate %x : tensor<f32>
  return %0, %x : tensor<f32>, tensor<f32>
}
func.func @results(%a: tensor<f32>) -> (tuple<tensor<f32>, tensor<f32>>, tensor<f32>, tensor<f32>) attributes {hlo.entry} {
  %0 = hlo.call @pair(%a) : (tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
  %1:2 = hlo.call @two(%a) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %0, %1#0, %1#1 : tuple<tensor<f32>, tensor<f32>>, tensor<f32>, tensor<f32>
}

// -----

// Must not fire: a call with a backend_config, or whose frontend attributes
// say inlineable="false"; the callee stays. inlineable="true" is inlined.
// CHECK-LABEL: func.func private @kept
// CHECK-LABEL: func.func @not_inlinable
// CHECK-NEXT:    %[[C1:.*]] = hlo.call @kept(%arg0) {hlo.backend_config = "{}"}
// CHECK-NEXT:    %[[C2:.*]] = hlo.call @kept(%[[C1]]) {hlo.frontend_attributes = "{inlineable=\22false\22}"}
// CHECK-NEXT:    %[[S:.*]] = hlo.sine %[[C2]]
// CHECK-NEXT:    return %[[S]]
func.func private @kept(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.sine %x : tensor<f32>
  return %0 : tensor<f32>
}
func.func @not_inlinable(%a: tensor<f32>) -> tensor<f32> attributes {hlo.entry} {
  %0 = hlo.call @kept(%a) {hlo.backend_config = "{}"} : (tensor<f32>) -> tensor<f32>
  %1 = hlo.call @kept(%0) {hlo.frontend_attributes = "{inlineable=\22false\22}"} : (tensor<f32>) -> tensor<f32>
  %2 = hlo.call @kept(%1) {hlo.frontend_attributes = "{inlineable=\22true\22}"} : (tensor<f32>) -> tensor<f32>
  return %2 : tensor<f32>
}

// -----

// A callee still referenced elsewhere (here as a reducer) stays.
// CHECK-LABEL: func.func private @sum
// CHECK-LABEL: func.func @still_referenced
// CHECK-NEXT:    %[[A:.*]] = hlo.add %arg1, %arg1
// CHECK-NEXT:    %[[R:.*]] = hlo.reduce %arg0, %[[A]] {{.*}}to_apply = @sum
func.func private @sum(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func @still_referenced(%v: tensor<4xf32>, %s: tensor<f32>) -> tensor<f32> attributes {hlo.entry} {
  %0 = hlo.call @sum(%s, %s) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %1 = hlo.reduce %v, %0 {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// The call's metadata op_name prefixes the inlined instructions' op_names.
// CHECK-LABEL: func.func @op_name_prefix
// CHECK-NEXT:    hlo.negate %arg0 {hlo.metadata = "{op_name=\22jit(f)/call/neg\22 source_line=3}"}
// CHECK-NEXT:    hlo.exponential %{{.*}} {hlo.metadata = "{op_name=\22jit(f)/call\22}"}
func.func private @named(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.negate %x {hlo.metadata = "{op_name=\22neg\22 source_line=3}"} : tensor<f32>
  %1 = hlo.exponential %0 : tensor<f32>
  return %1 : tensor<f32>
}
func.func @op_name_prefix(%a: tensor<f32>) -> tensor<f32> attributes {hlo.entry} {
  %0 = hlo.call @named(%a) {hlo.metadata = "{op_name=\22jit(f)/call\22}"} : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Side-effecting instructions are inlined like any other and stay.
// CHECK-LABEL: func.func @side_effects
// CHECK-NEXT:    %[[R:.*]] = hlo.rng rng_uniform %arg0, %arg0
// CHECK-NEXT:    return %arg0
func.func private @random(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.rng rng_uniform %x, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %x : tensor<f32>
}
func.func @side_effects(%a: tensor<f32>) -> tensor<f32> attributes {hlo.entry} {
  %0 = hlo.call @random(%a) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// A call may name a tuple's elements as its results (or one tuple for
// several returned values): the inlined values are taken apart or packed.
// CHECK-LABEL: func.func @tuple_results
// CHECK-NEXT:    %[[N:.*]] = hlo.negate %arg0
// CHECK-NEXT:    %[[T:.*]] = hlo.tuple %[[N]], %arg0 :
// CHECK-NEXT:    %[[A:.*]] = hlo.get_tuple_element %[[T]][0]
// CHECK-NEXT:    %[[B:.*]] = hlo.get_tuple_element %[[T]][1]
// CHECK-NEXT:    %[[E:.*]] = hlo.exponential %arg0
// CHECK-NEXT:    %[[P:.*]] = hlo.tuple %[[E]], %arg0 :
// CHECK-NEXT:    return %[[A]], %[[B]], %[[P]]
func.func private @as_tuple(%x: tensor<f32>) -> tuple<tensor<f32>, tensor<f32>> {
  %0 = hlo.negate %x : tensor<f32>
  %1 = hlo.tuple %0, %x : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
  return %1 : tuple<tensor<f32>, tensor<f32>>
}
func.func private @as_values(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = hlo.exponential %x : tensor<f32>
  return %0, %x : tensor<f32>, tensor<f32>
}
func.func @tuple_results(%a: tensor<f32>) -> (tensor<f32>, tensor<f32>, tuple<tensor<f32>, tensor<f32>>) attributes {hlo.entry} {
  %0:2 = hlo.call @as_tuple(%a) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  %1 = hlo.call @as_values(%a) : (tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
  return %0#0, %0#1, %1 : tensor<f32>, tensor<f32>, tuple<tensor<f32>, tensor<f32>>
}
