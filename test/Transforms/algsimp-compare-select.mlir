// RUN: hlo-opt %s --split-input-file --passes=algsimp | FileCheck %s

// compare(x, x) of integers: EQ/GE/LE are true, NE/LT/GT false.
// CHECK-LABEL: func.func @compare_self_int
// CHECK-DAG:     %[[T:.*]] = hlo.constant dense<true> : tensor<i1>
// CHECK-DAG:     %[[TB:.*]] = hlo.broadcast %[[T]]
// CHECK-DAG:     %[[F:.*]] = hlo.constant dense<false> : tensor<i1>
// CHECK-DAG:     %[[FB:.*]] = hlo.broadcast %[[F]]
// CHECK:         return %[[TB]], %[[FB]]
func.func @compare_self_int(%x: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = hlo.compare GE, %x, %x : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %1 = hlo.compare NE, %x, %x : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// Not for floats compared as FLOAT (NaN != NaN); in TOTALORDER yes.
// CHECK-LABEL: func.func @compare_self_float
// CHECK:         %[[C:.*]] = hlo.compare EQ, %arg0, %arg0 :
// CHECK:         %[[T:.*]] = hlo.constant dense<true>
// CHECK:         %[[TB:.*]] = hlo.broadcast %[[T]]
// CHECK:         return %[[C]], %[[TB]]
func.func @compare_self_float(%x: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = hlo.compare EQ, %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = hlo.compare EQ, %x, %x, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// Unsigned x < 0 is false; iota >= 0 is true; a signed parameter >= 0 stays.
// CHECK-LABEL: func.func @compare_non_negative
// CHECK-DAG:     %[[F:.*]] = hlo.constant dense<false>
// CHECK-DAG:     %[[FB:.*]] = hlo.broadcast %[[F]]
// CHECK-DAG:     %[[T:.*]] = hlo.constant dense<true>
// CHECK-DAG:     %[[TB:.*]] = hlo.broadcast %[[T]]
// CHECK-DAG:     %[[P:.*]] = hlo.compare GE, %arg1,
// CHECK:         return %[[FB]], %[[TB]], %[[P]]
func.func @compare_non_negative(%u: tensor<4xui32>, %s: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %uz = hlo.constant dense<0> : tensor<4xui32>
  %sz = hlo.constant dense<0> : tensor<4xi32>
  %i = hlo.iota dim = 0 : tensor<4xi32>
  %0 = hlo.compare LT, %u, %uz : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  %1 = hlo.compare GE, %i, %sz : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %2 = hlo.compare GE, %s, %sz : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// pred == true and pred != false are the pred.
// CHECK-LABEL: func.func @compare_pred
// CHECK-NEXT:    return %arg0, %arg0
func.func @compare_pred(%p: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>) {
  %t = hlo.constant dense<true> : tensor<4xi1>
  %f = hlo.constant dense<false> : tensor<4xi1>
  %0 = hlo.compare EQ, %p, %t : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = hlo.compare NE, %f, %p : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// select(p, 1, 0) != 0 is p (jnp.where of a converted mask).
// CHECK-LABEL: func.func @select_ne_zero
// CHECK-NEXT:    %[[P:.*]] = hlo.compare GE, %arg0, %arg1
// CHECK-NEXT:    return %[[P]]
func.func @select_ne_zero(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi1> {
  %p = hlo.compare GE, %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %one = hlo.constant dense<1.0> : tensor<4xf32>
  %zero = hlo.constant dense<0.0> : tensor<4xf32>
  %s = hlo.select %p, %one, %zero : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = hlo.compare NE, %s, %zero : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %r : tensor<4xi1>
}

// -----

// gt(max(a, b), a) is gt(b, a): max returns one of its operands. Not in
// TOTALORDER, where a -NaN is below everything.
// CHECK-LABEL: func.func @gt_of_max
// CHECK-DAG:     %[[M:.*]] = hlo.maximum %arg0, %arg1
// CHECK-DAG:     %[[G:.*]] = hlo.compare GT, %arg1, %arg0 :
// CHECK-DAG:     %[[T:.*]] = hlo.compare GT, %[[M]], %arg0, TOTALORDER
// CHECK:         return %[[G]], %[[T]]
func.func @gt_of_max(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>) {
  %m = hlo.maximum %a, %b : tensor<4xf32>
  %0 = hlo.compare GT, %m, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = hlo.compare GT, %m, %a, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// select with equal branches or a constant predicate; select(not(p), a, b)
// swaps the branches.
// CHECK-LABEL: func.func @select
// CHECK-NEXT:    %[[S:.*]] = hlo.select %arg0, %arg2, %arg1
// CHECK-NEXT:    return %arg1, %arg1, %arg2, %[[S]]
func.func @select(%p: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %t = hlo.constant dense<true> : tensor<i1>
  %f = hlo.constant dense<false> : tensor<4xi1>
  %0 = hlo.select %p, %x, %x : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = hlo.select %t, %x, %y : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = hlo.select %f, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %n = hlo.not %p : tensor<4xi1>
  %3 = hlo.select %n, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// pred selects: select(p, true, false) is p, select(p, false, true) is
// not(p), select(a > b, a, b) is or(a, b), select(a < b, a, b) is and(a, b).
// CHECK-LABEL: func.func @select_pred
// CHECK-DAG:     %[[N:.*]] = hlo.not %arg0
// CHECK-DAG:     %[[O:.*]] = hlo.or %arg1, %arg2
// CHECK-DAG:     %[[A:.*]] = hlo.and %arg1, %arg2
// CHECK:         return %arg0, %[[N]], %[[O]], %[[A]]
func.func @select_pred(%p: tensor<4xi1>, %a: tensor<4xi1>, %b: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %t = hlo.constant dense<true> : tensor<4xi1>
  %f = hlo.constant dense<false> : tensor<4xi1>
  %0 = hlo.select %p, %t, %f : (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = hlo.select %p, %f, %t : (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %gt = hlo.compare GT, %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %2 = hlo.select %gt, %a, %b : (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %lt = hlo.compare LT, %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %3 = hlo.select %lt, %a, %b : (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0, %1, %2, %3 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// A select on a real predicate stays.
// CHECK-LABEL: func.func @select_negative
// CHECK:         hlo.select %arg0, %arg1, %arg2
func.func @select_negative(%p: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.select %p, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
