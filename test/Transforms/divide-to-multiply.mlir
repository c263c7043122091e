// RUN: hlo-opt %s --split-input-file --passes=divide-to-multiply | FileCheck %s

// Softmax's division by a broadcast row sum: one reciprocal per row, a
// multiply per element.
// CHECK-LABEL: func.func @softmax_denominator
// CHECK-NEXT:    hlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[ONE:.*]] = hlo.broadcast %{{.*}}, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = hlo.divide %[[ONE]], %arg1 : tensor<4xf32>
// CHECK-NEXT:    %[[RB:.*]] = hlo.broadcast %[[R]], dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %arg0, %[[RB]] : tensor<4x8xf32>
// CHECK-NEXT:    return %[[M]]
func.func @softmax_denominator(%e: tensor<4x8xf32>, %s: tensor<4xf32>) -> tensor<4x8xf32> {
  %b = hlo.broadcast %s, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
  %d = hlo.divide %e, %b : tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

// -----

// A divisor used elsewhere keeps its division (XLA counts its users before
// CSE); so do integers, complex numbers and a broadcast that adds no
// elements.
// CHECK-LABEL: func.func @kept
// CHECK-NEXT:    hlo.broadcast
// CHECK-NEXT:    hlo.divide %arg0, %{{.*}} : tensor<4x8xf32>
// CHECK-NEXT:    hlo.add %arg1, %arg1
// CHECK-NEXT:    hlo.broadcast
// CHECK-NEXT:    hlo.divide %arg2, %{{.*}} : tensor<4x8xi32>
// CHECK-NEXT:    hlo.broadcast
// CHECK-NEXT:    hlo.divide %arg4, %{{.*}} : tensor<4x8xcomplex<f32>>
// CHECK-NEXT:    hlo.broadcast
// CHECK-NEXT:    hlo.divide %arg6, %{{.*}} : tensor<1x4xf32>
// CHECK-NEXT:    return
func.func @kept(%x: tensor<4x8xf32>, %s: tensor<4xf32>, %i: tensor<4x8xi32>, %j: tensor<4xi32>,
                %c: tensor<4x8xcomplex<f32>>, %k: tensor<4xcomplex<f32>>, %y: tensor<1x4xf32>, %u: tensor<4xf32>)
    -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xi32>, tensor<4x8xcomplex<f32>>, tensor<1x4xf32>) {
  %b = hlo.broadcast %s, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
  %d = hlo.divide %x, %b : tensor<4x8xf32>
  %a = hlo.add %s, %s : tensor<4xf32>
  %bi = hlo.broadcast %j, dims = [0] : (tensor<4xi32>) -> tensor<4x8xi32>
  %di = hlo.divide %i, %bi : tensor<4x8xi32>
  %bc = hlo.broadcast %k, dims = [0] : (tensor<4xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
  %dc = hlo.divide %c, %bc : tensor<4x8xcomplex<f32>>
  %bu = hlo.broadcast %u, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
  %du = hlo.divide %y, %bu : tensor<1x4xf32>
  return %d, %a, %di, %dc, %du : tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xi32>, tensor<4x8xcomplex<f32>>, tensor<1x4xf32>
}

// -----

// Division by a constant: a product with its reciprocal, which
// constant_folding folds. A constant divided by a constant is left to fold
// as a division.
// CHECK-LABEL: func.func @by_constant
// CHECK-NEXT:    %[[C:.*]] = hlo.constant dense<3.000000e+00> : tensor<f16>
// CHECK-NEXT:    %[[ONE:.*]] = hlo.constant dense<1.000000e+00> : tensor<f16>
// CHECK-NEXT:    %[[R:.*]] = hlo.divide %[[ONE]], %[[C]] : tensor<f16>
// CHECK-NEXT:    %[[RB:.*]] = hlo.broadcast %[[R]], dims = [] : (tensor<f16>) -> tensor<4xf16>
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %arg0, %[[RB]] : tensor<4xf16>
// CHECK-NEXT:    %[[K:.*]] = hlo.constant
// CHECK-NEXT:    %[[S:.*]] = hlo.constant
// CHECK-NEXT:    %[[Q:.*]] = hlo.divide %[[K]], %[[S]] : tensor<4xf32>
// CHECK-NEXT:    return %[[M]], %[[Q]]
func.func @by_constant(%x: tensor<4xf16>) -> (tensor<4xf16>, tensor<4xf32>) {
  %c = hlo.constant dense<3.0> : tensor<f16>
  %b = hlo.broadcast %c, dims = [] : (tensor<f16>) -> tensor<4xf16>
  %d = hlo.divide %x, %b : tensor<4xf16>
  %k = hlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %m = hlo.constant dense<7.0> : tensor<4xf32>
  %e = hlo.divide %k, %m : tensor<4xf32>
  return %d, %e : tensor<4xf16>, tensor<4xf32>
}

// -----

// bf16 is computed in f32, as XLA:CPU's FloatNormalization has it: the
// reciprocal is not rounded, and the divisor's other users do not matter.
// CHECK-LABEL: func.func @bf16
// CHECK-NEXT:    %[[X:.*]] = hlo.convert %arg1 : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK:         %[[R:.*]] = hlo.divide %{{.*}}, %[[X]] : tensor<4xf32>
// CHECK-NEXT:    %[[RB:.*]] = hlo.broadcast %[[R]], dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[A:.*]] = hlo.convert %arg0 : (tensor<4x8xbf16>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %[[A]], %[[RB]] : tensor<4x8xf32>
// CHECK-NEXT:    %[[N:.*]] = hlo.convert %[[M]] : (tensor<4x8xf32>) -> tensor<4x8xbf16>
// CHECK-NEXT:    %[[NEG:.*]] = hlo.negate %arg1
// CHECK-NEXT:    return %[[N]], %[[NEG]]
func.func @bf16(%h: tensor<4x8xbf16>, %v: tensor<4xbf16>) -> (tensor<4x8xbf16>, tensor<4xbf16>) {
  %b = hlo.broadcast %v, dims = [0] : (tensor<4xbf16>) -> tensor<4x8xbf16>
  %d = hlo.divide %h, %b : tensor<4x8xbf16>
  %n = hlo.negate %v : tensor<4xbf16>
  return %d, %n : tensor<4x8xbf16>, tensor<4xbf16>
}

// -----

// Functions of the divisor: exp, pow, and a sqrt or rsqrt with no other
// user.
// CHECK-LABEL: func.func @functions
// CHECK-NEXT:    %[[D:.*]] = hlo.subtract %arg0, %arg1 : tensor<4xf32>
// CHECK-NEXT:    %[[E:.*]] = hlo.exponential %[[D]] : tensor<4xf32>
// CHECK-NEXT:    %[[N:.*]] = hlo.negate %arg1 : tensor<4xf32>
// CHECK-NEXT:    %[[F:.*]] = hlo.exponential %[[N]] : tensor<4xf32>
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %arg2, %[[F]] : tensor<4xf32>
// CHECK-NEXT:    %[[NC:.*]] = hlo.negate %arg1 : tensor<4xf32>
// CHECK-NEXT:    %[[P:.*]] = hlo.power %arg0, %[[NC]] : tensor<4xf32>
// CHECK-NEXT:    %[[MP:.*]] = hlo.multiply %arg2, %[[P]] : tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = hlo.rsqrt %arg0 : tensor<4xf32>
// CHECK-NEXT:    %[[MR:.*]] = hlo.multiply %arg2, %[[R]] : tensor<4xf32>
// CHECK-NEXT:    %[[S:.*]] = hlo.sqrt %arg1 : tensor<4xf32>
// CHECK-NEXT:    %[[SD:.*]] = hlo.divide %arg2, %[[S]] : tensor<4xf32>
// CHECK-NEXT:    return %[[E]], %[[M]], %[[MP]], %[[MR]], %[[SD]], %[[S]]
func.func @functions(%a: tensor<4xf32>, %b: tensor<4xf32>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %ea = hlo.exponential %a : tensor<4xf32>
  %eb = hlo.exponential %b : tensor<4xf32>
  %0 = hlo.divide %ea, %eb : tensor<4xf32>
  %1 = hlo.divide %x, %eb : tensor<4xf32>
  %p = hlo.power %a, %b : tensor<4xf32>
  %2 = hlo.divide %x, %p : tensor<4xf32>
  %r = hlo.sqrt %a : tensor<4xf32>
  %3 = hlo.divide %x, %r : tensor<4xf32>
  %s = hlo.sqrt %b : tensor<4xf32>
  %4 = hlo.divide %x, %s : tensor<4xf32>
  return %0, %1, %2, %3, %4, %s : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Quotients of quotients become one division.
// CHECK-LABEL: func.func @quotients
// CHECK-NEXT:    %[[BC:.*]] = hlo.multiply %arg1, %arg2 : tensor<4xf32>
// CHECK-NEXT:    %[[Q:.*]] = hlo.divide %arg0, %[[BC]] : tensor<4xf32>
// CHECK-NEXT:    %[[AC:.*]] = hlo.multiply %arg0, %arg2 : tensor<4xf32>
// CHECK-NEXT:    %[[Q2:.*]] = hlo.divide %[[AC]], %arg1 : tensor<4xf32>
// CHECK-NEXT:    return %[[Q]], %[[Q2]]
func.func @quotients(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %ab = hlo.divide %a, %b : tensor<4xf32>
  %0 = hlo.divide %ab, %c : tensor<4xf32>
  %bc = hlo.divide %b, %c : tensor<4xf32>
  %1 = hlo.divide %a, %bc : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// An array constant: the reciprocal `1 / C` (a broadcast one over C) is
// left to constant_folding, not rewritten again.
// CHECK-LABEL: func.func @array_constant
// CHECK-NEXT:    %[[C:.*]] = hlo.constant dense<[2.000000e+00, 4.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %[[ONE:.*]] = hlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[B:.*]] = hlo.broadcast %[[ONE]], dims = [] : (tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT:    %[[R:.*]] = hlo.divide %[[B]], %[[C]] : tensor<2xf32>
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %arg0, %[[R]] : tensor<2xf32>
// CHECK-NEXT:    return %[[M]]
func.func @array_constant(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = hlo.constant dense<[2.0, 4.0]> : tensor<2xf32>
  %d = hlo.divide %x, %c : tensor<2xf32>
  return %d : tensor<2xf32>
}
