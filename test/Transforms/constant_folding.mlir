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

// -----

// Constant operands reach the interpreter as values read from their
// storage, not as text: every element type read that way folds to the same
// bits, splats and arrays alike (negative zero, NaN payloads, the extremes
// of each integer type).
// CHECK-LABEL: func.func @storage_types
// CHECK-DAG: hlo.constant dense<[-0.000000e+00, 0x7FC00001, 0xFF800000]> : tensor<3xf32>
// CHECK-DAG: hlo.constant dense<[0x7FF0000000000001, 2.500000e+00]> : tensor<2xf64>
// CHECK-DAG: hlo.constant dense<[-1.500000e+00, 6.550400e+04]> : tensor<2xf16>
// CHECK-DAG: hlo.constant dense<[-3.000000e+00, 3.389530e+38]> : tensor<2xbf16>
// CHECK-DAG: hlo.constant dense<[127, -128, -1]> : tensor<3xi8>
// CHECK-DAG: hlo.constant dense<[-32768, 32767]> : tensor<2xi16>
// CHECK-DAG: hlo.constant dense<[-2147483648, 7]> : tensor<2xi32>
// CHECK-DAG: hlo.constant dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>
// CHECK-DAG: hlo.constant dense<[255, 0]> : tensor<2xui8>
// CHECK-DAG: hlo.constant dense<[65535, 1]> : tensor<2xui16>
// CHECK-DAG: hlo.constant dense<[4294967295, 2]> : tensor<2xui32>
// CHECK-DAG: hlo.constant dense<[18446744073709551615, 3]> : tensor<2xui64>
// CHECK-DAG: hlo.constant dense<[false, true, true]> : tensor<3xi1>
// CHECK-DAG: hlo.constant dense<4> : tensor<3xi32>
// CHECK-NOT: hlo.copy
func.func @storage_types() -> (tensor<3xf32>, tensor<2xf64>, tensor<2xf16>, tensor<2xbf16>, tensor<3xi8>, tensor<2xi16>, tensor<2xi32>, tensor<2xi64>, tensor<2xui8>, tensor<2xui16>, tensor<2xui32>, tensor<2xui64>, tensor<3xi1>, tensor<3xi32>) {
  %f32 = hlo.constant dense<[-0.0, 0x7FC00001, 0xFF800000]> : tensor<3xf32>
  %f64 = hlo.constant dense<[0x7FF0000000000001, 2.5]> : tensor<2xf64>
  %f16 = hlo.constant dense<[-1.5, 65504.0]> : tensor<2xf16>
  %bf16 = hlo.constant dense<[-3.0, 3.38953139e+38]> : tensor<2xbf16>
  %s8 = hlo.constant dense<[127, -128, -1]> : tensor<3xi8>
  %s16 = hlo.constant dense<[-32768, 32767]> : tensor<2xi16>
  %s32 = hlo.constant dense<[-2147483648, 7]> : tensor<2xi32>
  %s64 = hlo.constant dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>
  %u8 = hlo.constant dense<[255, 0]> : tensor<2xui8>
  %u16 = hlo.constant dense<[65535, 1]> : tensor<2xui16>
  %u32 = hlo.constant dense<[4294967295, 2]> : tensor<2xui32>
  %u64 = hlo.constant dense<[18446744073709551615, 3]> : tensor<2xui64>
  %pred = hlo.constant dense<[true, false, false]> : tensor<3xi1>
  %splat = hlo.constant dense<4> : tensor<3xi32>
  %0 = hlo.copy %f32 : tensor<3xf32>
  %1 = hlo.copy %f64 : tensor<2xf64>
  %2 = hlo.copy %f16 : tensor<2xf16>
  %3 = hlo.copy %bf16 : tensor<2xbf16>
  %4 = hlo.copy %s8 : tensor<3xi8>
  %5 = hlo.copy %s16 : tensor<2xi16>
  %6 = hlo.copy %s32 : tensor<2xi32>
  %7 = hlo.copy %s64 : tensor<2xi64>
  %8 = hlo.copy %u8 : tensor<2xui8>
  %9 = hlo.copy %u16 : tensor<2xui16>
  %10 = hlo.copy %u32 : tensor<2xui32>
  %11 = hlo.copy %u64 : tensor<2xui64>
  %12 = hlo.not %pred : tensor<3xi1>
  %13 = hlo.copy %splat : tensor<3xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13 : tensor<3xf32>, tensor<2xf64>, tensor<2xf16>, tensor<2xbf16>, tensor<3xi8>, tensor<2xi16>, tensor<2xi32>, tensor<2xi64>, tensor<2xui8>, tensor<2xui16>, tensor<2xui32>, tensor<2xui64>, tensor<3xi1>, tensor<3xi32>
}
