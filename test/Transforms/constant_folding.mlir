// RUN: hlo-opt %s --split-input-file --passes=constant_folding | FileCheck %s
// RUN: hlo-opt %s --split-input-file --passes='constant_folding{max-elements=2}' | FileCheck %s --check-prefix=SMALL

// Arithmetic on constants folds to the interpreter's value.
// CHECK-LABEL: func.func @arith
// CHECK-NEXT: %[[C:.*]] = hlo.constant dense<[5.000000e+00, 7.000000e+00, 9.000000e+00]> : tensor<3xf32>
// CHECK-NEXT: return %[[C]]
// SMALL-LABEL: func.func @arith
// SMALL: hlo.add
func.func @arith() -> tensor<3xf32> {
  %a = hlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = hlo.constant dense<[4.0, 5.0, 6.0]> : tensor<3xf32>
  %0 = hlo.add %a, %b : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Chains fold in one run; broadcasts of constants are looked through but a
// lone broadcast or iota is not folded (it would only grow the module).
// CHECK-LABEL: func.func @chain
// CHECK-DAG: hlo.broadcast
// CHECK-DAG: hlo.iota
// CHECK-DAG: %[[C:.*]] = hlo.constant dense<[true, false, false, false]> : tensor<4xi1>
// CHECK: return %{{.*}}, %{{.*}}, %[[C]]
func.func @chain() -> (tensor<4xf32>, tensor<4xi32>, tensor<4xi1>) {
  %s = hlo.constant dense<2.0> : tensor<f32>
  %b = hlo.broadcast %s, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %i = hlo.iota dim = 0 : tensor<4xi32>
  %z = hlo.constant dense<0> : tensor<i32>
  %zb = hlo.broadcast %z, dims = [] : (tensor<i32>) -> tensor<4xi32>
  %c = hlo.compare EQ, %i, %zb : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %b, %i, %c : tensor<4xf32>, tensor<4xi32>, tensor<4xi1>
}

// -----

// Reductions fold through their computation.
// CHECK-LABEL: func.func @reduce
// CHECK-NEXT: %[[C:.*]] = hlo.constant dense<6> : tensor<i32>
// CHECK-NEXT: return %[[C]]
func.func @reduce() -> tensor<i32> {
  %a = hlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %z = hlo.constant dense<0> : tensor<i32>
  %0 = hlo.reduce %a, %z {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<3xi32>, tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}
func.func private @sum(%x: tensor<i32>, %y: tensor<i32>) -> tensor<i32> {
  %0 = hlo.add %x, %y : tensor<i32>
  return %0 : tensor<i32>
}

// -----

// Not folded: non-constant operands, side effects, rng.
// CHECK-LABEL: func.func @not_folded
// CHECK: hlo.multiply
// CHECK: hlo.rng
func.func @not_folded(%p: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %c = hlo.constant dense<3.0> : tensor<f32>
  %0 = hlo.multiply %p, %c : tensor<f32>
  %lo = hlo.constant dense<0.0> : tensor<f32>
  %hi = hlo.constant dense<1.0> : tensor<f32>
  %1 = hlo.rng rng_uniform %lo, %hi : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}
