// RUN: hlo-opt %s --split-input-file --passes=simplify-conditional | FileCheck %s

// A constant pred picks branch 0 when true: it is inlined and the branches,
// no longer referenced, go.
// CHECK-NOT:   func.func private @pred_
// CHECK-LABEL: func.func @constant_pred
// CHECK-NEXT:    %[[T:.*]] = hlo.constant dense<true>
// CHECK-NEXT:    %[[R:.*]] = hlo.cosine %arg0
// CHECK-NEXT:    return %[[R]]
func.func private @pred_true(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.cosine %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @pred_false(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.sine %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @constant_pred(%a: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
  %p = hlo.constant dense<true> : tensor<i1>
  %0 = hlo.conditional %p, %a, %a {branch_computations = [@pred_true, @pred_false]} : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An out-of-range s32 index picks the last branch, with its own operand.
// CHECK-LABEL: func.func @constant_index
// CHECK:         %[[R:.*]] = hlo.exponential %arg1
// CHECK-NEXT:    return %[[R]]
func.func private @idx0(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.negate %x : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @idx1(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.exponential %x : tensor<f32>
  return %0 : tensor<f32>
}
func.func @constant_index(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> attributes {hlo.entry} {
  %k = hlo.constant dense<7> : tensor<i32>
  %0 = hlo.conditional %k, %a, %b {branch_computations = [@idx0, @idx1]} : (tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// A single branch always runs.
// CHECK-LABEL: func.func @single_branch
// CHECK-NEXT:    %[[R:.*]] = hlo.negate %arg1
// CHECK-NEXT:    return %[[R]]
func.func private @only(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.negate %x : tensor<f32>
  return %0 : tensor<f32>
}
func.func @single_branch(%k: tensor<i32>, %a: tensor<f32>) -> tensor<f32> attributes {hlo.entry} {
  %0 = hlo.conditional %k, %a {branch_computations = [@only]} : (tensor<i32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Two cheap branches under a runtime pred: both run, a select picks.
// CHECK-LABEL: func.func @to_select
// CHECK-DAG:     %[[F:.*]] = hlo.multiply %arg2, %arg2
// CHECK-DAG:     %[[T:.*]] = hlo.add %arg1, %arg1
// CHECK-DAG:     %[[P:.*]] = hlo.broadcast %arg0, dims = []
// CHECK:         %[[S:.*]] = hlo.select %[[P]], %[[T]], %[[F]]
// CHECK:         return %[[S]]
func.func private @cheap_t(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.add %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @cheap_f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.multiply %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @to_select(%p: tensor<i1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
  %0 = hlo.conditional %p, %a, %b {branch_computations = [@cheap_t, @cheap_f]} : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Must not fire: an expensive branch (dot) under a runtime pred; a branch
// that only forwards its parameter; a constant pred with a side effect.
// CHECK-LABEL: func.func @kept
// CHECK:         hlo.conditional %arg0, %arg1, %arg1 {branch_computations = [@expensive, @cheap]}
// CHECK:         hlo.conditional %arg0, %arg1, %arg1 {branch_computations = [@forward, @cheap]}
// CHECK:         hlo.conditional %{{.*}}, %arg1, %arg1 {branch_computations = [@random, @cheap]}
func.func private @expensive(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = hlo.dot %x, %x {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
func.func private @forward(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  return %x : tensor<2x2xf32>
}
func.func private @cheap(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = hlo.negate %x : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
func.func private @random(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.rng rng_uniform %z, %z : (tensor<f32>, tensor<f32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
func.func @kept(%p: tensor<i1>, %a: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) attributes {hlo.entry} {
  %0 = hlo.conditional %p, %a, %a {branch_computations = [@expensive, @cheap]} : (tensor<i1>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = hlo.conditional %p, %a, %a {branch_computations = [@forward, @cheap]} : (tensor<i1>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %t = hlo.constant dense<true> : tensor<i1>
  %2 = hlo.conditional %t, %a, %a {branch_computations = [@random, @cheap]} : (tensor<i1>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0, %1, %2 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// Result elements: element 2 duplicates element 0 in every branch, so its
// users read element 0; element 1 is then unused and dropped from cloned
// branches.
// CHECK-LABEL: func.func private @res_a.1(%arg0: tensor<f32>) -> tuple<tensor<f32>>
// CHECK-LABEL: func.func private @res_b.1(%arg0: tensor<f32>) -> tuple<tensor<f32>>
// CHECK-LABEL: func.func @results
// CHECK-NEXT:    %[[C:.*]] = hlo.conditional %arg0, %arg1, %arg1 {branch_computations = [@res_a.1, @res_b.1]} : (tensor<i32>, tensor<f32>, tensor<f32>) -> tuple<tensor<f32>>
// CHECK-NEXT:    %[[X:.*]] = hlo.get_tuple_element %[[C]][0]
// CHECK-NEXT:    %[[Y:.*]] = hlo.get_tuple_element %[[C]][0]
// CHECK-NEXT:    return %[[X]], %[[Y]]
func.func private @res_a(%x: tensor<f32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>> {
  %0 = hlo.exponential %x : tensor<f32>
  %1 = hlo.dot %x, %x {dot_dimension_numbers = #hlo.dot<>} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %t = hlo.tuple %0, %1, %0 : (tensor<f32>, tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>>
  return %t : tuple<tensor<f32>, tensor<f32>, tensor<f32>>
}
func.func private @res_b(%x: tensor<f32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>> {
  %0 = hlo.log %x : tensor<f32>
  %t = hlo.tuple %0, %x, %0 : (tensor<f32>, tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>>
  return %t : tuple<tensor<f32>, tensor<f32>, tensor<f32>>
}
func.func @results(%k: tensor<i32>, %a: tensor<f32>) -> (tensor<f32>, tensor<f32>) attributes {hlo.entry} {
  %0 = hlo.conditional %k, %a, %a {branch_computations = [@res_a, @res_b]} : (tensor<i32>, tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>>
  %1 = hlo.get_tuple_element %0[0] : (tuple<tensor<f32>, tensor<f32>, tensor<f32>>) -> tensor<f32>
  %2 = hlo.get_tuple_element %0[2] : (tuple<tensor<f32>, tensor<f32>, tensor<f32>>) -> tensor<f32>
  return %1, %2 : tensor<f32>, tensor<f32>
}

// -----

// Operand elements a branch never reads leave its parameter (the branch is
// cloned); the conditional passes just the elements used.
// CHECK-LABEL: func.func private @ops_a.1(%arg0: tuple<tensor<f32>>) -> tensor<f32>
// CHECK-NEXT:    hlo.get_tuple_element %arg0[0]
// CHECK-LABEL: func.func @operands
// CHECK:         %[[E:.*]] = hlo.get_tuple_element %arg2[1]
// CHECK-NEXT:    %[[T:.*]] = hlo.tuple %[[E]] :
// CHECK-NEXT:    hlo.conditional %arg0, %[[T]], %arg1 {branch_computations = [@ops_a.1, @ops_b]}
func.func private @ops_a(%p: tuple<tensor<f32>, tensor<f32>>) -> tensor<f32> {
  %0 = hlo.get_tuple_element %p[1] : (tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>
  %1 = hlo.dot %0, %0 {dot_dimension_numbers = #hlo.dot<>} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %1 : tensor<f32>
}
func.func private @ops_b(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.dot %x, %x {dot_dimension_numbers = #hlo.dot<>} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @operands(%k: tensor<i32>, %a: tensor<f32>, %t: tuple<tensor<f32>, tensor<f32>>) -> tensor<f32> attributes {hlo.entry} {
  %0 = hlo.conditional %k, %t, %a {branch_computations = [@ops_a, @ops_b]} : (tensor<i32>, tuple<tensor<f32>, tensor<f32>>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Nobody reads the result: the branches return an empty tuple.
// CHECK-LABEL: func.func private @unused_a.1(%arg0: tensor<f32>) -> tuple<>
// CHECK-LABEL: func.func @unused
// CHECK-NEXT:    hlo.conditional %arg0, %arg1, %arg1 {branch_computations = [@unused_a.1, @unused_b.1]} : (tensor<i32>, tensor<f32>, tensor<f32>) -> tuple<>
func.func private @unused_a(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.dot %x, %x {dot_dimension_numbers = #hlo.dot<>} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func private @unused_b(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.sine %x : tensor<f32>
  return %0 : tensor<f32>
}
func.func @unused(%k: tensor<i32>, %a: tensor<f32>) -> tensor<f32> attributes {hlo.entry} {
  %0 = hlo.conditional %k, %a, %a {branch_computations = [@unused_a, @unused_b]} : (tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  return %a : tensor<f32>
}
