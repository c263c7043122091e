// RUN: hlo-opt %s --split-input-file --passes=simplify-while-loops | FileCheck %s

// Dead state: element 2 feeds only itself and nothing reads it after the
// loop: the loop is rebuilt without it (new condition and body).
// CHECK-LABEL: func.func private @dead_cond.1(%arg0: tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i1>
// CHECK-LABEL: func.func private @dead_body.1(%arg0: tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>>
// CHECK-NOT:     hlo.multiply
// CHECK:         return
// CHECK-LABEL: func.func @dead
// CHECK-NEXT:    %[[N:.*]] = hlo.constant dense<0>
// CHECK-NEXT:    %[[T:.*]] = hlo.tuple %[[N]], %arg0 :
// CHECK-NEXT:    %[[W:.*]] = hlo.while %[[T]], condition = @dead_cond.1, body = @dead_body.1 :
// CHECK-NEXT:    %[[R:.*]] = hlo.get_tuple_element %[[W]][1]
// CHECK-NEXT:    return %[[R]]
func.func private @dead_cond(%p: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<i1> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<i32>
  %n = hlo.constant dense<10> : tensor<i32>
  %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @dead_body(%p: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<i32>
  %x = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %y = hlo.get_tuple_element %p[2] : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %one = hlo.constant dense<1> : tensor<i32>
  %i2 = hlo.add %i, %one : tensor<i32>
  %x2 = hlo.exponential %x : tensor<4xf32>
  %y2 = hlo.multiply %y, %y : tensor<4xf32>
  %t = hlo.tuple %i2, %x2, %y2 : (tensor<i32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
  return %t : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
}
func.func @dead(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
  %z = hlo.constant dense<0> : tensor<i32>
  %t = hlo.tuple %z, %a, %b : (tensor<i32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
  %w = hlo.while %t, condition = @dead_cond, body = @dead_body : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
  %r = hlo.get_tuple_element %w[1] : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Must not fire: element 2 feeds a side-effecting instruction (an outfeed)
// and element 1 feeds element 0, so nothing is dead; the trip count is
// unknown (the bound is a parameter).
// CHECK-LABEL: func.func @live
// CHECK:         hlo.while %{{.*}}, condition = @live_cond, body = @live_body : (tuple<tensor<f32>, tensor<f32>, tensor<f32>, !hlo.token>)
func.func private @live_cond(%p: tuple<tensor<f32>, tensor<f32>, tensor<f32>, !hlo.token>) -> tensor<i1> {
  %x = hlo.get_tuple_element %p[0] : (tuple<tensor<f32>, tensor<f32>, tensor<f32>, !hlo.token>) -> tensor<f32>
  %z = hlo.constant dense<100.0> : tensor<f32>
  %c = hlo.compare LT, %x, %z : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @live_body(%p: tuple<tensor<f32>, tensor<f32>, tensor<f32>, !hlo.token>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>, !hlo.token> {
  %x = hlo.get_tuple_element %p[0] : (tuple<tensor<f32>, tensor<f32>, tensor<f32>, !hlo.token>) -> tensor<f32>
  %y = hlo.get_tuple_element %p[1] : (tuple<tensor<f32>, tensor<f32>, tensor<f32>, !hlo.token>) -> tensor<f32>
  %s = hlo.get_tuple_element %p[2] : (tuple<tensor<f32>, tensor<f32>, tensor<f32>, !hlo.token>) -> tensor<f32>
  %tok = hlo.get_tuple_element %p[3] : (tuple<tensor<f32>, tensor<f32>, tensor<f32>, !hlo.token>) -> !hlo.token
  %x2 = hlo.add %x, %y : tensor<f32>
  %tok2 = hlo.outfeed %s, %tok : (tensor<f32>, !hlo.token) -> !hlo.token
  %t = hlo.tuple %x2, %y, %s, %tok2 : (tensor<f32>, tensor<f32>, tensor<f32>, !hlo.token) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>, !hlo.token>
  return %t : tuple<tensor<f32>, tensor<f32>, tensor<f32>, !hlo.token>
}
func.func @live(%a: tensor<f32>, %b: tensor<f32>, %t0: !hlo.token) -> tensor<f32> attributes {hlo.entry} {
  %t = hlo.tuple %a, %b, %a, %t0 : (tensor<f32>, tensor<f32>, tensor<f32>, !hlo.token) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>, !hlo.token>
  %w = hlo.while %t, condition = @live_cond, body = @live_body : (tuple<tensor<f32>, tensor<f32>, tensor<f32>, !hlo.token>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>, !hlo.token>
  %r = hlo.get_tuple_element %w[0] : (tuple<tensor<f32>, tensor<f32>, tensor<f32>, !hlo.token>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Repeated state: elements 1 and 2 start as the same value and pass
// through unchanged: element 2 is dropped and read from element 1, inside
// the loop and after it (where it is the init value).
// CHECK-LABEL: func.func @repeated
// CHECK:         %[[T:.*]] = hlo.tuple %arg0, %arg1 :
// CHECK-NEXT:    %[[W:.*]] = hlo.while %[[T]], condition = @repeated_cond.{{[0-9]+}}, body = @repeated_body.{{[0-9]+}} : (tuple<tensor<f32>, tensor<f32>>)
// CHECK-NEXT:    %[[X:.*]] = hlo.get_tuple_element %[[W]][0]
// CHECK-NEXT:    return %[[X]], %arg1
func.func private @repeated_cond(%p: tuple<tensor<f32>, tensor<f32>, tensor<f32>>) -> tensor<i1> {
  %x = hlo.get_tuple_element %p[0] : (tuple<tensor<f32>, tensor<f32>, tensor<f32>>) -> tensor<f32>
  %l = hlo.get_tuple_element %p[2] : (tuple<tensor<f32>, tensor<f32>, tensor<f32>>) -> tensor<f32>
  %c = hlo.compare LT, %x, %l : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @repeated_body(%p: tuple<tensor<f32>, tensor<f32>, tensor<f32>>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>> {
  %x = hlo.get_tuple_element %p[0] : (tuple<tensor<f32>, tensor<f32>, tensor<f32>>) -> tensor<f32>
  %y = hlo.get_tuple_element %p[1] : (tuple<tensor<f32>, tensor<f32>, tensor<f32>>) -> tensor<f32>
  %l = hlo.get_tuple_element %p[2] : (tuple<tensor<f32>, tensor<f32>, tensor<f32>>) -> tensor<f32>
  %x2 = hlo.add %x, %y : tensor<f32>
  %t = hlo.tuple %x2, %y, %l : (tensor<f32>, tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>>
  return %t : tuple<tensor<f32>, tensor<f32>, tensor<f32>>
}
func.func @repeated(%a: tensor<f32>, %b: tensor<f32>) -> (tensor<f32>, tensor<f32>) attributes {hlo.entry} {
  %t = hlo.tuple %a, %b, %b : (tensor<f32>, tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>>
  %w = hlo.while %t, condition = @repeated_cond, body = @repeated_body : (tuple<tensor<f32>, tensor<f32>, tensor<f32>>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>>
  %r = hlo.get_tuple_element %w[0] : (tuple<tensor<f32>, tensor<f32>, tensor<f32>>) -> tensor<f32>
  %s = hlo.get_tuple_element %w[2] : (tuple<tensor<f32>, tensor<f32>, tensor<f32>>) -> tensor<f32>
  return %r, %s : tensor<f32>, tensor<f32>
}

// -----

// Constant state: element 1 starts as 2.0 and the body sets it to 2.0: it
// leaves the state; the condition and body use the constant.
// CHECK-LABEL: func.func private @constant_body.1(%arg0: tuple<tensor<f32>>) -> tuple<tensor<f32>>
// CHECK-DAG:     %[[X:.*]] = hlo.get_tuple_element %arg0[0]
// CHECK-DAG:     %[[C:.*]] = hlo.constant dense<2.000000e+00>
// CHECK:         hlo.multiply %[[X]], %[[C]]
// CHECK-LABEL: func.func @constant
// CHECK:         %[[C2:.*]] = hlo.constant dense<2.000000e+00>
// CHECK:         %[[W:.*]] = hlo.while %{{.*}}, condition = @constant_cond.1, body = @constant_body.1 : (tuple<tensor<f32>>)
// CHECK-NEXT:    %[[X:.*]] = hlo.get_tuple_element %[[W]][0]
// CHECK-NEXT:    return %[[X]], %[[C2]]
func.func private @constant_cond(%p: tuple<tensor<f32>, tensor<f32>>) -> tensor<i1> {
  %x = hlo.get_tuple_element %p[0] : (tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>
  %z = hlo.constant dense<100.0> : tensor<f32>
  %c = hlo.compare LT, %x, %z : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @constant_body(%p: tuple<tensor<f32>, tensor<f32>>) -> tuple<tensor<f32>, tensor<f32>> {
  %x = hlo.get_tuple_element %p[0] : (tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>
  %k = hlo.get_tuple_element %p[1] : (tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>
  %x2 = hlo.multiply %x, %k : tensor<f32>
  %two = hlo.constant dense<2.0> : tensor<f32>
  %t = hlo.tuple %x2, %two : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
  return %t : tuple<tensor<f32>, tensor<f32>>
}
func.func @constant(%a: tensor<f32>) -> (tensor<f32>, tensor<f32>) attributes {hlo.entry} {
  %two = hlo.constant dense<2.0> : tensor<f32>
  %t = hlo.tuple %a, %two : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
  %w = hlo.while %t, condition = @constant_cond, body = @constant_body : (tuple<tensor<f32>, tensor<f32>>) -> tuple<tensor<f32>, tensor<f32>>
  %r = hlo.get_tuple_element %w[0] : (tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>
  %s = hlo.get_tuple_element %w[1] : (tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>
  return %r, %s : tensor<f32>, tensor<f32>
}

// -----

// Constant propagation: element 1 starts as the scalar constant 3 and
// passes through, so the condition reads the constant (the loop itself
// stays: its trip count is unknown).
// CHECK-LABEL: func.func private @propagate_cond
// CHECK-NEXT:    %[[C:.*]] = hlo.constant dense<3>
// CHECK-NEXT:    %[[X:.*]] = hlo.get_tuple_element %arg0[0]
// CHECK-NEXT:    hlo.compare LT, %[[X]], %[[C]]
// CHECK-LABEL: func.func private @propagate_body
// CHECK:         %[[K:.*]] = hlo.constant dense<3>
// CHECK:         hlo.tuple %{{.*}}, %[[K]] :
// CHECK-LABEL: func.func @propagate
// CHECK:         hlo.while
func.func private @propagate_cond(%p: tuple<tensor<i32>, tensor<i32>>) -> tensor<i1> {
  %x = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
  %k = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
  %c = hlo.compare LT, %x, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @propagate_body(%p: tuple<tensor<i32>, tensor<i32>>) -> tuple<tensor<i32>, tensor<i32>> {
  %x = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
  %k = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
  %x2 = hlo.multiply %x, %x : tensor<i32>
  %t = hlo.tuple %x2, %k : (tensor<i32>, tensor<i32>) -> tuple<tensor<i32>, tensor<i32>>
  return %t : tuple<tensor<i32>, tensor<i32>>
}
func.func @propagate(%a: tensor<i32>) -> tuple<tensor<i32>, tensor<i32>> attributes {hlo.entry} {
  %three = hlo.constant dense<3> : tensor<i32>
  %t = hlo.tuple %a, %three : (tensor<i32>, tensor<i32>) -> tuple<tensor<i32>, tensor<i32>>
  %w = hlo.while %t, condition = @propagate_cond, body = @propagate_body : (tuple<tensor<i32>, tensor<i32>>) -> tuple<tensor<i32>, tensor<i32>>
  return %w : tuple<tensor<i32>, tensor<i32>>
}

// -----

// A loop that runs 0 times is its init; the loop's computations go.
// CHECK-NOT:   func.func private @zero_
// CHECK-LABEL: func.func @zero
// CHECK-NEXT:    %[[C:.*]] = hlo.constant dense<5>
// CHECK-NEXT:    %[[T:.*]] = hlo.tuple %[[C]], %arg0 :
// CHECK-NEXT:    return %[[T]]
func.func private @zero_cond(%p: tuple<tensor<i32>, tensor<f32>>) -> tensor<i1> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %n = hlo.constant dense<5> : tensor<i32>
  %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @zero_body(%p: tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %x = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<f32>
  %one = hlo.constant dense<1> : tensor<i32>
  %i2 = hlo.add %i, %one : tensor<i32>
  %x2 = hlo.sine %x : tensor<f32>
  %t = hlo.tuple %i2, %x2 : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  return %t : tuple<tensor<i32>, tensor<f32>>
}
func.func @zero(%a: tensor<f32>) -> tuple<tensor<i32>, tensor<f32>> attributes {hlo.entry} {
  %five = hlo.constant dense<5> : tensor<i32>
  %t = hlo.tuple %five, %a : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  %w = hlo.while %t, condition = @zero_cond, body = @zero_body : (tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>>
  return %w : tuple<tensor<i32>, tensor<f32>>
}

// -----

// A loop that runs once is its body, inlined.
// CHECK-NOT:   func.func private @once_
// CHECK-LABEL: func.func @once
// CHECK:         %[[S:.*]] = hlo.sine
// CHECK:         %[[R:.*]] = hlo.tuple %{{.*}}, %[[S]] :
// CHECK-NOT:     hlo.while
// CHECK:         return %[[R]]
func.func private @once_cond(%p: tuple<tensor<i32>, tensor<f32>>) -> tensor<i1> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %n = hlo.constant dense<5> : tensor<i32>
  %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @once_body(%p: tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %x = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<f32>
  %one = hlo.constant dense<1> : tensor<i32>
  %i2 = hlo.add %i, %one : tensor<i32>
  %x2 = hlo.sine %x : tensor<f32>
  %t = hlo.tuple %i2, %x2 : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  return %t : tuple<tensor<i32>, tensor<f32>>
}
func.func @once(%a: tensor<f32>) -> tuple<tensor<i32>, tensor<f32>> attributes {hlo.entry} {
  %four = hlo.constant dense<4> : tensor<i32>
  %t = hlo.tuple %four, %a : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  %w = hlo.while %t, condition = @once_cond, body = @once_body : (tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>>
  return %w : tuple<tensor<i32>, tensor<f32>>
}

// -----

// Must not fire: one trip, but the body has a side effect; two trips.
// CHECK-LABEL: func.func @kept
// CHECK:         hlo.while %{{.*}}, condition = @kept_cond, body = @kept_body
// CHECK:         hlo.while %{{.*}}, condition = @kept_cond, body = @kept_body2
func.func private @kept_cond(%p: tuple<tensor<i32>, tensor<f32>>) -> tensor<i1> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %n = hlo.constant dense<5> : tensor<i32>
  %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @kept_body(%p: tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %x = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<f32>
  %one = hlo.constant dense<1> : tensor<i32>
  %i2 = hlo.add %i, %one : tensor<i32>
  %x2 = hlo.rng rng_uniform %x, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %t = hlo.tuple %i2, %x2 : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  return %t : tuple<tensor<i32>, tensor<f32>>
}
func.func private @kept_body2(%p: tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %x = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<f32>
  %one = hlo.constant dense<1> : tensor<i32>
  %i2 = hlo.add %i, %one : tensor<i32>
  %x2 = hlo.sine %x : tensor<f32>
  %t = hlo.tuple %i2, %x2 : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  return %t : tuple<tensor<i32>, tensor<f32>>
}
func.func @kept(%a: tensor<f32>) -> (tuple<tensor<i32>, tensor<f32>>, tuple<tensor<i32>, tensor<f32>>) attributes {hlo.entry} {
  %four = hlo.constant dense<4> : tensor<i32>
  %three = hlo.constant dense<3> : tensor<i32>
  %t = hlo.tuple %four, %a : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  %w = hlo.while %t, condition = @kept_cond, body = @kept_body : (tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>>
  %t2 = hlo.tuple %three, %a : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  %w2 = hlo.while %t2, condition = @kept_cond, body = @kept_body2 : (tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>>
  return %w, %w2 : tuple<tensor<i32>, tensor<f32>>, tuple<tensor<i32>, tensor<f32>>
}

// -----

// A computation shared by two loops is cloned before it is changed in
// place: only the first loop's condition reads the propagated constant.
// CHECK-LABEL: func.func private @shared_cond(
// CHECK-NEXT:    hlo.get_tuple_element %arg0[0]
// CHECK-NEXT:    hlo.get_tuple_element %arg0[1]
// CHECK-LABEL: func.func private @shared_cond.1(
// CHECK-NEXT:    hlo.constant dense<7>
// CHECK-LABEL: func.func @shared
// CHECK:         hlo.while %{{.*}}, condition = @shared_cond.1, body = @shared_body
// CHECK:         hlo.while %{{.*}}, condition = @shared_cond, body = @shared_body2
func.func private @shared_cond(%p: tuple<tensor<i32>, tensor<i32>>) -> tensor<i1> {
  %x = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
  %k = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
  %c = hlo.compare LT, %x, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @shared_body(%p: tuple<tensor<i32>, tensor<i32>>) -> tuple<tensor<i32>, tensor<i32>> {
  %x = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
  %k = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
  %x2 = hlo.multiply %x, %x : tensor<i32>
  %t = hlo.tuple %x2, %k : (tensor<i32>, tensor<i32>) -> tuple<tensor<i32>, tensor<i32>>
  return %t : tuple<tensor<i32>, tensor<i32>>
}
func.func private @shared_body2(%p: tuple<tensor<i32>, tensor<i32>>) -> tuple<tensor<i32>, tensor<i32>> {
  %x = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
  %k = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
  %x2 = hlo.add %x, %k : tensor<i32>
  %k2 = hlo.add %k, %k : tensor<i32>
  %t = hlo.tuple %x2, %k2 : (tensor<i32>, tensor<i32>) -> tuple<tensor<i32>, tensor<i32>>
  return %t : tuple<tensor<i32>, tensor<i32>>
}
func.func @shared(%a: tensor<i32>, %b: tensor<i32>) -> (tuple<tensor<i32>, tensor<i32>>, tuple<tensor<i32>, tensor<i32>>) attributes {hlo.entry} {
  %seven = hlo.constant dense<7> : tensor<i32>
  %t = hlo.tuple %a, %seven : (tensor<i32>, tensor<i32>) -> tuple<tensor<i32>, tensor<i32>>
  %w = hlo.while %t, condition = @shared_cond, body = @shared_body : (tuple<tensor<i32>, tensor<i32>>) -> tuple<tensor<i32>, tensor<i32>>
  %t2 = hlo.tuple %a, %b : (tensor<i32>, tensor<i32>) -> tuple<tensor<i32>, tensor<i32>>
  %w2 = hlo.while %t2, condition = @shared_cond, body = @shared_body2 : (tuple<tensor<i32>, tensor<i32>>) -> tuple<tensor<i32>, tensor<i32>>
  return %w, %w2 : tuple<tensor<i32>, tensor<i32>>, tuple<tensor<i32>, tensor<i32>>
}

// -----

// Induction variables: element 1 adds 3 each trip; with the trip counter
// (element 0: from 0, adding 1) it becomes init + counter * 3 and passes
// through the loop unchanged.
// CHECK-LABEL: func.func private @induction_body.1(
// CHECK:         %[[P1:.*]] = hlo.get_tuple_element %arg0[1]
// CHECK-NEXT:    %[[C:.*]] = hlo.constant dense<3>
// CHECK-NEXT:    %[[I:.*]] = hlo.get_tuple_element %arg0[0]
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %[[I]], %[[C]]
// CHECK-NEXT:    %[[J:.*]] = hlo.add %[[P1]], %[[M]]
// CHECK:         hlo.convert %[[J]]
// CHECK:         %[[K:.*]] = hlo.get_tuple_element %arg0[1]
// CHECK-NEXT:    hlo.tuple %{{.*}}, %[[K]], %{{.*}} :
// CHECK-LABEL: func.func @induction
// CHECK:         %[[W:.*]] = hlo.while %{{.*}}, condition = @induction_cond.1, body = @induction_body.1
// CHECK-DAG:     %[[I:.*]] = hlo.get_tuple_element %[[W]][0]
// CHECK-DAG:     %[[J:.*]] = hlo.get_tuple_element %[[W]][1]
// CHECK-DAG:     %[[C:.*]] = hlo.constant dense<3>
// CHECK:         %[[M:.*]] = hlo.multiply %[[I]], %[[C]]
// CHECK:         %[[R:.*]] = hlo.add %[[J]], %[[M]]
// CHECK:         return %[[R]],
func.func private @induction_cond(%p: tuple<tensor<i32>, tensor<i32>, tensor<f32>>) -> tensor<i1> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<i32>, tensor<f32>>) -> tensor<i32>
  %x = hlo.get_tuple_element %p[2] : (tuple<tensor<i32>, tensor<i32>, tensor<f32>>) -> tensor<f32>
  %l = hlo.constant dense<1.0e3> : tensor<f32>
  %n = hlo.constant dense<100> : tensor<i32>
  %c1 = hlo.compare LT, %x, %l : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %c2 = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %c = hlo.and %c1, %c2 : tensor<i1>
  return %c : tensor<i1>
}
func.func private @induction_body(%p: tuple<tensor<i32>, tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<i32>, tensor<f32>> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<i32>, tensor<f32>>) -> tensor<i32>
  %j = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<i32>, tensor<f32>>) -> tensor<i32>
  %x = hlo.get_tuple_element %p[2] : (tuple<tensor<i32>, tensor<i32>, tensor<f32>>) -> tensor<f32>
  %one = hlo.constant dense<1> : tensor<i32>
  %three = hlo.constant dense<3> : tensor<i32>
  %i2 = hlo.add %i, %one : tensor<i32>
  %j2 = hlo.add %three, %j : tensor<i32>
  %jf = hlo.convert %j : (tensor<i32>) -> tensor<f32>
  %x2 = hlo.add %x, %jf : tensor<f32>
  %t = hlo.tuple %i2, %j2, %x2 : (tensor<i32>, tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<i32>, tensor<f32>>
  return %t : tuple<tensor<i32>, tensor<i32>, tensor<f32>>
}
func.func @induction(%a: tensor<f32>, %j0: tensor<i32>) -> (tensor<i32>, tensor<f32>) attributes {hlo.entry} {
  %z = hlo.constant dense<0> : tensor<i32>
  %t = hlo.tuple %z, %j0, %a : (tensor<i32>, tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<i32>, tensor<f32>>
  %w = hlo.while %t, condition = @induction_cond, body = @induction_body : (tuple<tensor<i32>, tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<i32>, tensor<f32>>
  %r = hlo.get_tuple_element %w[1] : (tuple<tensor<i32>, tensor<i32>, tensor<f32>>) -> tensor<i32>
  %s = hlo.get_tuple_element %w[2] : (tuple<tensor<i32>, tensor<i32>, tensor<f32>>) -> tensor<f32>
  return %r, %s : tensor<i32>, tensor<f32>
}

// -----

// Repeated state updated in place: elements 1 and 2 start as the same
// buffer and get the same dynamic-update-slice each trip: element 2 is
// dropped and, after the loop, read from element 1.
// CHECK-LABEL: func.func @repeated_dus
// CHECK:         %[[W:.*]] = hlo.while %{{.*}} : (tuple<tensor<i32>, tensor<8xf32>>)
// CHECK-NEXT:    %[[A:.*]] = hlo.get_tuple_element %[[W]][1]
// CHECK-NEXT:    %[[B:.*]] = hlo.get_tuple_element %[[W]][1]
// CHECK-NEXT:    return %[[A]], %[[B]]
func.func private @dus_cond(%p: tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<i1> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<i32>
  %n = hlo.constant dense<8> : tensor<i32>
  %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @dus_body(%p: tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>) -> tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<i32>
  %a = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<8xf32>
  %b = hlo.get_tuple_element %p[2] : (tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<8xf32>
  %f = hlo.convert %i : (tensor<i32>) -> tensor<f32>
  %u = hlo.reshape %f : (tensor<f32>) -> tensor<1xf32>
  %a2 = hlo.dynamic_update_slice %a, %u[%i] : (tensor<8xf32>, tensor<1xf32>, tensor<i32>) -> tensor<8xf32>
  %b2 = hlo.dynamic_update_slice %b, %u[%i] : (tensor<8xf32>, tensor<1xf32>, tensor<i32>) -> tensor<8xf32>
  %one = hlo.constant dense<1> : tensor<i32>
  %i2 = hlo.add %i, %one : tensor<i32>
  %t = hlo.tuple %i2, %a2, %b2 : (tensor<i32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
  return %t : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
}
func.func @repeated_dus(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) attributes {hlo.entry} {
  %z = hlo.constant dense<0> : tensor<i32>
  %t = hlo.tuple %z, %x, %x : (tensor<i32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
  %w = hlo.while %t, condition = @dus_cond, body = @dus_body : (tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>) -> tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
  %r = hlo.get_tuple_element %w[1] : (tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<8xf32>
  %s = hlo.get_tuple_element %w[2] : (tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<8xf32>
  return %r, %s : tensor<8xf32>, tensor<8xf32>
}
