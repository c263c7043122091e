// RUN: hlo-opt %s --split-input-file --passes=reshape-mover | FileCheck %s

// Two equivalent transposes and a splat constant: the transpose sinks below
// every elementwise op (one round per op), the constant is rebuilt in the
// operand shape and the old transposes are erased.
// CHECK-LABEL: func.func @transposes_sink
// CHECK-NEXT:    %[[ADD:.*]] = hlo.add %arg0, %arg1 : tensor<2x3xf32>
// CHECK-NEXT:    %[[C:.*]] = hlo.constant dense<2.000000e+00> : tensor<2x3xf32>
// CHECK-NEXT:    %[[MUL:.*]] = hlo.multiply %[[ADD]], %[[C]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[EXP:.*]] = hlo.exponential %[[MUL]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[T:.*]] = hlo.transpose %[[EXP]], dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    return %[[T]]
func.func @transposes_sink(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %ta = hlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %tb = hlo.transpose %b, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %c = hlo.constant dense<2.0> : tensor<3x2xf32>
  %0 = hlo.add %ta, %tb : tensor<3x2xf32>
  %1 = hlo.multiply %0, %c : tensor<3x2xf32>
  %2 = hlo.exponential %1 : tensor<3x2xf32>
  return %2 : tensor<3x2xf32>
}

// -----

// Equivalent reshapes with a scalar broadcast; the compare keeps its pred
// element type in the moved shape.
// CHECK-LABEL: func.func @reshapes_with_scalar_broadcast
// CHECK-NEXT:    %[[B:.*]] = hlo.broadcast %arg2, dims = [] : (tensor<f32>) -> tensor<6xf32>
// CHECK-NEXT:    %[[M:.*]] = hlo.maximum %arg0, %[[B]] : tensor<6xf32>
// CHECK-NEXT:    %[[LT:.*]] = hlo.compare LT, %[[M]], %arg1 : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
// CHECK-NEXT:    %[[R:.*]] = hlo.reshape %[[LT]] : (tensor<6xi1>) -> tensor<2x3xi1>
// CHECK-NEXT:    return %[[R]]
func.func @reshapes_with_scalar_broadcast(%a: tensor<6xf32>, %b: tensor<6xf32>, %s: tensor<f32>) -> tensor<2x3xi1> {
  %ra = hlo.reshape %a : (tensor<6xf32>) -> tensor<2x3xf32>
  %rb = hlo.reshape %b : (tensor<6xf32>) -> tensor<2x3xf32>
  %bs = hlo.broadcast %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %0 = hlo.maximum %ra, %bs : tensor<2x3xf32>
  %1 = hlo.compare LT, %0, %rb : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  return %1 : tensor<2x3xi1>
}

// -----

// A broadcast whose dims stay sorted under the transpose gets new dims; an
// rng with one user and a non-splat constant get an explicit inverse
// transpose (left for constant folding / the algebraic simplifier).
// CHECK-LABEL: func.func @broadcast_constant_rng
// CHECK:         %[[RNG:.*]] = hlo.rng rng_uniform
// CHECK:         %[[BV:.*]] = hlo.broadcast %arg1, dims = [0] : (tensor<4xf32>) -> tensor<4x3x2xf32>
// CHECK-NEXT:    %[[ADD:.*]] = hlo.add %arg0, %[[BV]] : tensor<4x3x2xf32>
// CHECK-NEXT:    %[[TR:.*]] = hlo.transpose %[[RNG]], dims = [2, 1, 0] : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
// CHECK-NEXT:    %[[SUB:.*]] = hlo.subtract %[[ADD]], %[[TR]] : tensor<4x3x2xf32>
// CHECK-NEXT:    %[[OUT:.*]] = hlo.transpose %[[SUB]], dims = [2, 1, 0] : (tensor<4x3x2xf32>) -> tensor<2x3x4xf32>
// CHECK:         %[[IOTA:.*]] = hlo.iota dim = 0 : tensor<2x3xi32>
// CHECK-NEXT:    %[[K:.*]] = hlo.constant dense<{{\[\[}}1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
// CHECK-NEXT:    %[[KT:.*]] = hlo.transpose %[[K]], dims = [1, 0] : (tensor<3x2xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %[[IADD:.*]] = hlo.add %[[IOTA]], %[[KT]] : tensor<2x3xi32>
// CHECK-NEXT:    %[[IOUT:.*]] = hlo.transpose %[[IADD]], dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
// CHECK-NEXT:    return %[[OUT]], %[[IOUT]]
func.func @broadcast_constant_rng(%a: tensor<4x3x2xf32>, %v: tensor<4xf32>, %lo: tensor<f32>) -> (tensor<2x3x4xf32>, tensor<3x2xi32>) {
  %t = hlo.transpose %a, dims = [2, 1, 0] : (tensor<4x3x2xf32>) -> tensor<2x3x4xf32>
  %bv = hlo.broadcast %v, dims = [2] : (tensor<4xf32>) -> tensor<2x3x4xf32>
  %r = hlo.rng rng_uniform %lo, %lo : (tensor<f32>, tensor<f32>) -> tensor<2x3x4xf32>
  %0 = hlo.add %t, %bv : tensor<2x3x4xf32>
  %1 = hlo.subtract %0, %r : tensor<2x3x4xf32>
  %i = hlo.iota dim = 0 : tensor<2x3xi32>
  %ti = hlo.transpose %i, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %k = hlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %2 = hlo.add %ti, %k : tensor<3x2xi32>
  return %1, %2 : tensor<2x3x4xf32>, tensor<3x2xi32>
}

// -----

// Layout: the moved rearrange takes the elementwise op's layout, the new
// elementwise op has none.
// CHECK-LABEL: func.func @layout_moves_with_the_result
// CHECK-NEXT:    %[[N:.*]] = hlo.negate %arg0 : tensor<2x3xf32>
// CHECK-NEXT:    hlo.transpose %[[N]], dims = [1, 0] {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>}
func.func @layout_moves_with_the_result(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %t = hlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %0 = hlo.negate %t {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// Must not fire: an operand that is neither a rearrange nor trivially
// rearrangeable; a transpose with a user that is not elementwise (the
// negate would need a copy of it); different permutations; a reshape of a
// broadcast of a non-scalar.
// CHECK-LABEL: func.func @no_move
// CHECK-NEXT:    %[[TA:.*]] = hlo.transpose %arg0
// CHECK-NEXT:    hlo.add %[[TA]], %arg1
// CHECK-NEXT:    %[[TB:.*]] = hlo.transpose %arg1
// CHECK-NEXT:    hlo.negate %[[TB]]
// CHECK-NEXT:    hlo.dot %[[TB]], %arg0
// CHECK-NEXT:    %[[T1:.*]] = hlo.transpose %arg2, dims = [1, 0, 2]
// CHECK-NEXT:    %[[T2:.*]] = hlo.transpose %arg2, dims = [0, 2, 1]
// CHECK-NEXT:    hlo.multiply %[[T1]], %[[T2]]
// CHECK-NEXT:    %[[RC:.*]] = hlo.reshape %arg3
// CHECK-NEXT:    %[[BV:.*]] = hlo.broadcast %arg4
// CHECK-NEXT:    hlo.add %[[RC]], %[[BV]]
func.func @no_move(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>, %x: tensor<2x2x2xf32>, %c: tensor<6xf32>, %v: tensor<3xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2x2xf32>, tensor<2x3xf32>) {
  %ta = hlo.transpose %a, dims = [1, 0] : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %0 = hlo.add %ta, %b : tensor<2x2xf32>
  %tb = hlo.transpose %b, dims = [1, 0] : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = hlo.negate %tb : tensor<2x2xf32>
  %2 = hlo.dot %tb, %a {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %t1 = hlo.transpose %x, dims = [1, 0, 2] : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %t2 = hlo.transpose %x, dims = [0, 2, 1] : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %3 = hlo.multiply %t1, %t2 : tensor<2x2x2xf32>
  %rc = hlo.reshape %c : (tensor<6xf32>) -> tensor<2x3xf32>
  %bv = hlo.broadcast %v, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %4 = hlo.add %rc, %bv : tensor<2x3xf32>
  return %0, %1, %2, %3, %4 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2x2xf32>, tensor<2x3xf32>
}

// -----

// With reshape-of-1d-broadcast-is-cheap (XLA's option), a reshape of a
// broadcast that leaves the broadcast dim whole moves too.
// RUN: hlo-opt %s --split-input-file --passes='reshape-mover{reshape-of-1d-broadcast-is-cheap=true}' | FileCheck %s --check-prefix=CHEAP
// CHEAP-LABEL: func.func @cheap_1d_broadcast
// CHEAP-NEXT:    %[[B:.*]] = hlo.broadcast %arg1, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
// CHEAP-NEXT:    %[[A:.*]] = hlo.add %arg0, %[[B]] : tensor<4x3xf32>
// CHEAP-NEXT:    hlo.reshape %[[A]] : (tensor<4x3xf32>) -> tensor<2x2x3xf32>
// CHECK-LABEL: func.func @cheap_1d_broadcast
// CHECK-NEXT:    hlo.reshape %arg0
func.func @cheap_1d_broadcast(%a: tensor<4x3xf32>, %v: tensor<3xf32>) -> tensor<2x2x3xf32> {
  %r = hlo.reshape %a : (tensor<4x3xf32>) -> tensor<2x2x3xf32>
  %b = hlo.broadcast %v, dims = [2] : (tensor<3xf32>) -> tensor<2x2x3xf32>
  %0 = hlo.add %r, %b : tensor<2x2x3xf32>
  return %0 : tensor<2x2x3xf32>
}
