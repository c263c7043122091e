// RUN: hlo-opt %s --split-input-file --passes=flatten-call-graph | FileCheck %s

// A computation called from two call sites: the first keeps it, the second
// gets a clone, and the clone's own control-flow callees are cloned too.
// CHECK-LABEL: func.func private @leaf(
// CHECK-LABEL: func.func private @leaf.clone(
// CHECK-LABEL: func.func private @f(
// CHECK-NEXT:    hlo.call @leaf(
// CHECK-LABEL: func.func private @f.clone(
// CHECK-NEXT:    hlo.call @leaf.clone(
// CHECK-LABEL: func.func @two_calls
// CHECK-NEXT:    %[[A:.*]] = hlo.call @f(%arg0)
// CHECK-NEXT:    %[[B:.*]] = hlo.call @f.clone(%[[A]])
func.func private @leaf(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.negate %x : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.call @leaf(%x) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @two_calls(%a: tensor<f32>) -> tensor<f32> attributes {hlo.entry} {
  %0 = hlo.call @f(%a) : (tensor<f32>) -> tensor<f32>
  %1 = hlo.call @f(%0) : (tensor<f32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// Must not fire: embedded call sites (reducers) may share a computation.
// CHECK-LABEL: func.func @shared_reducer
// CHECK-NOT:     .clone
// CHECK:         to_apply = @add
// CHECK:         to_apply = @add
// CHECK-NOT:   func.func private @add.clone
func.func private @add(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func @shared_reducer(%v: tensor<4xf32>, %z: tensor<f32>) -> (tensor<f32>, tensor<f32>) attributes {hlo.entry} {
  %0 = hlo.reduce %v, %z {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %1 = hlo.reduce %v, %0 {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}

// -----

// Called both as a reducer and by a call: every control-flow call site
// gets its own clone; the reducer keeps the original.
// CHECK-LABEL: func.func @both_contexts
// CHECK-NEXT:    hlo.call @max.clone(
// CHECK-NEXT:    hlo.reduce {{.*}}to_apply = @max}
func.func private @max(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.maximum %x, %y : tensor<f32>
  return %0 : tensor<f32>
}
func.func @both_contexts(%v: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> attributes {hlo.entry} {
  %0 = hlo.call @max(%z, %z) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %1 = hlo.reduce %v, %0 {dimensions = array<i64: 0>, to_apply = @max} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// Two loops sharing condition and body: the second gets clones of both.
// CHECK-LABEL: func.func @two_loops
// CHECK:         hlo.while %{{.*}}, condition = @cond, body = @body :
// CHECK:         hlo.while %{{.*}}, condition = @cond.clone, body = @body.clone :
func.func private @cond(%s: tensor<i32>) -> tensor<i1> {
  %n = hlo.constant dense<10> : tensor<i32>
  %0 = hlo.compare LT, %s, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func private @body(%s: tensor<i32>) -> tensor<i32> {
  %one = hlo.constant dense<1> : tensor<i32>
  %0 = hlo.add %s, %one : tensor<i32>
  return %0 : tensor<i32>
}
func.func @two_loops(%a: tensor<i32>) -> tensor<i32> attributes {hlo.entry} {
  %0 = hlo.while %a, condition = @cond, body = @body : (tensor<i32>) -> tensor<i32>
  %1 = hlo.while %0, condition = @cond, body = @body : (tensor<i32>) -> tensor<i32>
  return %1 : tensor<i32>
}

// -----

// A conditional naming the same computation for both branches is one call
// site: it keeps it; a later call gets a clone.
// CHECK-LABEL: func.func @conditional_site
// CHECK-NEXT:    hlo.conditional %arg0, %arg1, %arg1 {branch_computations = [@neg, @neg]}
// CHECK-NEXT:    hlo.call @neg.clone(
func.func private @neg(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.negate %x : tensor<f32>
  return %0 : tensor<f32>
}
func.func @conditional_site(%p: tensor<i1>, %a: tensor<f32>) -> tensor<f32> attributes {hlo.entry} {
  %0 = hlo.conditional %p, %a, %a {branch_computations = [@neg, @neg]} : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %1 = hlo.call @neg(%0) : (tensor<f32>) -> tensor<f32>
  return %1 : tensor<f32>
}
