// RUN: hlo-opt %s | FileCheck %s
// RUN: hlo-opt %s | hlo-opt | FileCheck %s
// RUN: hlo-opt %s --mlir-print-op-generic | hlo-opt | FileCheck %s
// RUN: hlo-opt %s > %t.1.mlir && hlo-opt %t.1.mlir > %t.2.mlir && diff %t.1.mlir %t.2.mlir

// Round trip of the elementwise ops, conversions, constants and iota.

// Unary ops

// CHECK-LABEL: func.func @abs(
// CHECK: %{{.*}} = hlo.abs %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %{{.*}} = hlo.abs %{{.*}} : (tensor<4xi32>) -> tensor<4xi32>
func.func @abs(%x: tensor<2x3xf32>, %i: tensor<4xi32>) -> tensor<2x3xf32> {
  %0 = hlo.abs %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = hlo.abs %i : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @abs_complex(
// CHECK: %{{.*}} = hlo.abs %{{.*}} : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
func.func @abs_complex(%x: tensor<4xcomplex<f64>>) -> tensor<4xf64> {
  %0 = hlo.abs %x : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// CHECK-LABEL: func.func @acos(
// CHECK: %{{.*}} = hlo.acos %{{.*}} : tensor<2x3xf32>
func.func @acos(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.acos %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @acosh(
// CHECK: %{{.*}} = hlo.acosh %{{.*}} : tensor<2x3xf32>
func.func @acosh(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.acosh %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @asin(
// CHECK: %{{.*}} = hlo.asin %{{.*}} : tensor<2x3xf32>
func.func @asin(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.asin %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @asinh(
// CHECK: %{{.*}} = hlo.asinh %{{.*}} : tensor<2x3xf32>
func.func @asinh(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.asinh %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @atan(
// CHECK: %{{.*}} = hlo.atan %{{.*}} : tensor<2x3xf32>
func.func @atan(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.atan %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @atanh(
// CHECK: %{{.*}} = hlo.atanh %{{.*}} : tensor<2x3xf32>
func.func @atanh(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.atanh %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @cbrt(
// CHECK: %{{.*}} = hlo.cbrt %{{.*}} : tensor<2x3xf32>
func.func @cbrt(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.cbrt %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @cosine(
// CHECK: %{{.*}} = hlo.cosine %{{.*}} : tensor<2x3xf32>
func.func @cosine(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.cosine %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @cosh(
// CHECK: %{{.*}} = hlo.cosh %{{.*}} : tensor<2x3xf32>
func.func @cosh(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.cosh %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @erf(
// CHECK: %{{.*}} = hlo.erf %{{.*}} : tensor<2x3xf32>
func.func @erf(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.erf %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @exponential(
// CHECK: %{{.*}} = hlo.exponential %{{.*}} : tensor<2x3xf32>
func.func @exponential(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.exponential %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @exponential_minus_one(
// CHECK: %{{.*}} = hlo.exponential_minus_one %{{.*}} : tensor<2x3xf32>
func.func @exponential_minus_one(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.exponential_minus_one %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @log(
// CHECK: %{{.*}} = hlo.log %{{.*}} : tensor<2x3xf32>
func.func @log(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.log %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @log_plus_one(
// CHECK: %{{.*}} = hlo.log_plus_one %{{.*}} : tensor<2x3xf32>
func.func @log_plus_one(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.log_plus_one %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @logistic(
// CHECK: %{{.*}} = hlo.logistic %{{.*}} : tensor<2x3xf32>
func.func @logistic(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.logistic %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @rsqrt(
// CHECK: %{{.*}} = hlo.rsqrt %{{.*}} : tensor<2x3xf32>
func.func @rsqrt(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.rsqrt %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @sine(
// CHECK: %{{.*}} = hlo.sine %{{.*}} : tensor<2x3xf32>
func.func @sine(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.sine %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @sinh(
// CHECK: %{{.*}} = hlo.sinh %{{.*}} : tensor<2x3xf32>
func.func @sinh(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.sinh %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @sqrt(
// CHECK: %{{.*}} = hlo.sqrt %{{.*}} : tensor<2x3xf32>
func.func @sqrt(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.sqrt %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @tan(
// CHECK: %{{.*}} = hlo.tan %{{.*}} : tensor<2x3xf32>
func.func @tan(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.tan %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @tanh(
// CHECK: %{{.*}} = hlo.tanh %{{.*}} : tensor<2x3xf32>
func.func @tanh(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.tanh %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @sine_complex_dynamic(
// CHECK: %{{.*}} = hlo.sine %{{.*}} : tensor<?x3xcomplex<f32>>
func.func @sine_complex_dynamic(%x: tensor<?x3xcomplex<f32>>) -> tensor<?x3xcomplex<f32>> {
  %0 = hlo.sine %x : tensor<?x3xcomplex<f32>>
  return %0 : tensor<?x3xcomplex<f32>>
}

// CHECK-LABEL: func.func @exponential_result_accuracy(
// CHECK: %{{.*}} = hlo.exponential %{{.*}} {result_accuracy = #hlo.result_accuracy<mode = HIGHEST>} : tensor<4xbf16>
// CHECK: %{{.*}} = hlo.exponential %{{.*}} {result_accuracy = #hlo.result_accuracy<mode = TOLERANCE, atol = 9.99999974E-6 : f32, rtol = 0.000000e+00 : f32, ulps = 2>} : tensor<4xbf16>
func.func @exponential_result_accuracy(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = hlo.exponential %x {result_accuracy = #hlo.result_accuracy<mode = #hlo<result_accuracy_mode HIGHEST>>} : tensor<4xbf16>
  %1 = hlo.exponential %0 {result_accuracy = #hlo.result_accuracy<mode = #hlo<result_accuracy_mode TOLERANCE>, atol = 1.000000e-05 : f32, rtol = 0.000000e+00 : f32, ulps = 2>} : tensor<4xbf16>
  return %1 : tensor<4xbf16>
}

// CHECK-LABEL: func.func @ceil(
// CHECK: %{{.*}} = hlo.ceil %{{.*}} : tensor<8xf16>
func.func @ceil(%x: tensor<8xf16>) -> tensor<8xf16> {
  %0 = hlo.ceil %x : tensor<8xf16>
  return %0 : tensor<8xf16>
}

// CHECK-LABEL: func.func @floor(
// CHECK: %{{.*}} = hlo.floor %{{.*}} : tensor<8xf16>
func.func @floor(%x: tensor<8xf16>) -> tensor<8xf16> {
  %0 = hlo.floor %x : tensor<8xf16>
  return %0 : tensor<8xf16>
}

// CHECK-LABEL: func.func @round_nearest_afz(
// CHECK: %{{.*}} = hlo.round_nearest_afz %{{.*}} : tensor<8xf16>
func.func @round_nearest_afz(%x: tensor<8xf16>) -> tensor<8xf16> {
  %0 = hlo.round_nearest_afz %x : tensor<8xf16>
  return %0 : tensor<8xf16>
}

// CHECK-LABEL: func.func @round_nearest_even(
// CHECK: %{{.*}} = hlo.round_nearest_even %{{.*}} : tensor<8xf16>
func.func @round_nearest_even(%x: tensor<8xf16>) -> tensor<8xf16> {
  %0 = hlo.round_nearest_even %x : tensor<8xf16>
  return %0 : tensor<8xf16>
}

// CHECK-LABEL: func.func @count_leading_zeros(
// CHECK: %{{.*}} = hlo.count_leading_zeros %{{.*}} : tensor<8xi32>
// CHECK: %{{.*}} = hlo.count_leading_zeros %{{.*}} : tensor<8xui8>
func.func @count_leading_zeros(%x: tensor<8xi32>, %u: tensor<8xui8>) -> tensor<8xi32> {
  %0 = hlo.count_leading_zeros %x : tensor<8xi32>
  %1 = hlo.count_leading_zeros %u : tensor<8xui8>
  return %0 : tensor<8xi32>
}

// CHECK-LABEL: func.func @popcnt(
// CHECK: %{{.*}} = hlo.popcnt %{{.*}} : tensor<8xi32>
// CHECK: %{{.*}} = hlo.popcnt %{{.*}} : tensor<8xui8>
func.func @popcnt(%x: tensor<8xi32>, %u: tensor<8xui8>) -> tensor<8xi32> {
  %0 = hlo.popcnt %x : tensor<8xi32>
  %1 = hlo.popcnt %u : tensor<8xui8>
  return %0 : tensor<8xi32>
}

// CHECK-LABEL: func.func @imag(
// CHECK: %{{.*}} = hlo.imag %{{.*}} : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
// CHECK: %{{.*}} = hlo.imag %{{.*}} : (tensor<4xf64>) -> tensor<4xf64>
func.func @imag(%x: tensor<4xcomplex<f32>>, %y: tensor<4xf64>) -> tensor<4xf32> {
  %0 = hlo.imag %x : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %1 = hlo.imag %y : (tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @real(
// CHECK: %{{.*}} = hlo.real %{{.*}} : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
// CHECK: %{{.*}} = hlo.real %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
func.func @real(%x: tensor<4xcomplex<f64>>, %y: tensor<4xf32>) -> tensor<4xf64> {
  %0 = hlo.real %x : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
  %1 = hlo.real %y : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf64>
}

// CHECK-LABEL: func.func @is_finite(
// CHECK: %{{.*}} = hlo.is_finite %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xi1>
func.func @is_finite(%x: tensor<2x3xf32>) -> tensor<2x3xi1> {
  %0 = hlo.is_finite %x : (tensor<2x3xf32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// CHECK-LABEL: func.func @negate(
// CHECK: %{{.*}} = hlo.negate %{{.*}} : tensor<4xi64>
// CHECK: %{{.*}} = hlo.negate %{{.*}} : tensor<4xcomplex<f32>>
// CHECK: %{{.*}} = hlo.negate %{{.*}} : tensor<4xui16>
func.func @negate(%x: tensor<4xi64>, %y: tensor<4xcomplex<f32>>, %z: tensor<4xui16>) -> tensor<4xi64> {
  %0 = hlo.negate %x : tensor<4xi64>
  %1 = hlo.negate %y : tensor<4xcomplex<f32>>
  %2 = hlo.negate %z : tensor<4xui16>
  return %0 : tensor<4xi64>
}

// CHECK-LABEL: func.func @not(
// CHECK: %{{.*}} = hlo.not %{{.*}} : tensor<4xi1>
// CHECK: %{{.*}} = hlo.not %{{.*}} : tensor<4xui32>
func.func @not(%p: tensor<4xi1>, %x: tensor<4xui32>) -> tensor<4xi1> {
  %0 = hlo.not %p : tensor<4xi1>
  %1 = hlo.not %x : tensor<4xui32>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @sign(
// CHECK: %{{.*}} = hlo.sign %{{.*}} : tensor<4xf32>
// CHECK: %{{.*}} = hlo.sign %{{.*}} : tensor<4xi8>
// CHECK: %{{.*}} = hlo.sign %{{.*}} : tensor<4xcomplex<f64>>
func.func @sign(%x: tensor<4xf32>, %i: tensor<4xi8>, %c: tensor<4xcomplex<f64>>) -> tensor<4xf32> {
  %0 = hlo.sign %x : tensor<4xf32>
  %1 = hlo.sign %i : tensor<4xi8>
  %2 = hlo.sign %c : tensor<4xcomplex<f64>>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @copy(
// CHECK: %{{.*}} = hlo.copy %{{.*}} : tensor<2x3xf32>
// CHECK: %{{.*}} = hlo.copy %{{.*}} : tuple<tensor<2xi32>, tensor<f32>>
func.func @copy(%x: tensor<2x3xf32>, %t: tuple<tensor<2xi32>, tensor<f32>>) -> tuple<tensor<2xi32>, tensor<f32>> {
  %0 = hlo.copy %x : tensor<2x3xf32>
  %1 = hlo.copy %t : tuple<tensor<2xi32>, tensor<f32>>
  return %1 : tuple<tensor<2xi32>, tensor<f32>>
}

// CHECK-LABEL: func.func @convert(
// CHECK: %{{.*}} = hlo.convert %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xi32>
// CHECK: %{{.*}} = hlo.convert %{{.*}} : (tensor<?xi1>) -> tensor<?xbf16>
// CHECK: %{{.*}} = hlo.convert %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xcomplex<f32>>
func.func @convert(%x: tensor<2x3xf32>, %p: tensor<?xi1>) -> tensor<2x3xi32> {
  %0 = hlo.convert %x : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %1 = hlo.convert %p : (tensor<?xi1>) -> tensor<?xbf16>
  %2 = hlo.convert %x : (tensor<2x3xf32>) -> tensor<2x3xcomplex<f32>>
  return %0 : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @bitcast_convert(
// CHECK: %{{.*}} = hlo.bitcast_convert %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xi32>
// CHECK: %{{.*}} = hlo.bitcast_convert %{{.*}} : (tensor<4xf32>) -> tensor<4x4xui8>
// CHECK: %{{.*}} = hlo.bitcast_convert %{{.*}} : (tensor<4x2xf16>) -> tensor<4xf32>
// CHECK: %{{.*}} = hlo.bitcast_convert %{{.*}} : (tensor<f32>) -> tensor<2xbf16>
func.func @bitcast_convert(%x: tensor<2x3xf32>, %y: tensor<4xf32>, %z: tensor<4x2xf16>, %s: tensor<f32>) -> tensor<2x3xi32> {
  %0 = hlo.bitcast_convert %x : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %1 = hlo.bitcast_convert %y : (tensor<4xf32>) -> tensor<4x4xui8>
  %2 = hlo.bitcast_convert %z : (tensor<4x2xf16>) -> tensor<4xf32>
  %3 = hlo.bitcast_convert %s : (tensor<f32>) -> tensor<2xbf16>
  return %0 : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @bitcast_convert_complex(
// CHECK: %{{.*}} = hlo.bitcast_convert %{{.*}} : (tensor<3xcomplex<f64>>) -> tensor<3x2xcomplex<f32>>
func.func @bitcast_convert_complex(%x: tensor<3xcomplex<f64>>) -> tensor<3x2xcomplex<f32>> {
  %0 = hlo.bitcast_convert %x : (tensor<3xcomplex<f64>>) -> tensor<3x2xcomplex<f32>>
  return %0 : tensor<3x2xcomplex<f32>>
}

// CHECK-LABEL: func.func @reduce_precision(
// CHECK: %{{.*}} = hlo.reduce_precision %{{.*}}, exponent_bits = 5, mantissa_bits = 10 : tensor<2x3xf32>
// CHECK: %{{.*}} = hlo.reduce_precision %{{.*}}, exponent_bits = 8, mantissa_bits = 0 : tensor<2x3xf32>
func.func @reduce_precision(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.reduce_precision %x, exponent_bits = 5, mantissa_bits = 10 : tensor<2x3xf32>
  %1 = hlo.reduce_precision %0, exponent_bits = 8, mantissa_bits = 0 : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// Binary ops

// CHECK-LABEL: func.func @add(
// CHECK: %{{.*}} = hlo.add %{{.*}}, %{{.*}} : tensor<2x3xf32>
func.func @add(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.add %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @subtract(
// CHECK: %{{.*}} = hlo.subtract %{{.*}}, %{{.*}} : tensor<2x3xf32>
func.func @subtract(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.subtract %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @multiply(
// CHECK: %{{.*}} = hlo.multiply %{{.*}}, %{{.*}} : tensor<2x3xf32>
func.func @multiply(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.multiply %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @divide(
// CHECK: %{{.*}} = hlo.divide %{{.*}}, %{{.*}} : tensor<2x3xf32>
func.func @divide(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.divide %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @remainder(
// CHECK: %{{.*}} = hlo.remainder %{{.*}}, %{{.*}} : tensor<2x3xf32>
func.func @remainder(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.remainder %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @maximum(
// CHECK: %{{.*}} = hlo.maximum %{{.*}}, %{{.*}} : tensor<2x3xf32>
func.func @maximum(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.maximum %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @minimum(
// CHECK: %{{.*}} = hlo.minimum %{{.*}}, %{{.*}} : tensor<2x3xf32>
func.func @minimum(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.minimum %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @power(
// CHECK: %{{.*}} = hlo.power %{{.*}}, %{{.*}} : tensor<2x3xf32>
func.func @power(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.power %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @atan2(
// CHECK: %{{.*}} = hlo.atan2 %{{.*}}, %{{.*}} : tensor<2x3xf32>
func.func @atan2(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.atan2 %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @add_pred_int_complex(
// CHECK: %{{.*}} = hlo.add %{{.*}}, %{{.*}} : tensor<4xi1>
// CHECK: %{{.*}} = hlo.add %{{.*}}, %{{.*}} : tensor<?xui64>
// CHECK: %{{.*}} = hlo.add %{{.*}}, %{{.*}} : tensor<complex<f64>>
func.func @add_pred_int_complex(%p: tensor<4xi1>, %i: tensor<?xui64>, %c: tensor<complex<f64>>) -> tensor<4xi1> {
  %0 = hlo.add %p, %p : tensor<4xi1>
  %1 = hlo.add %i, %i : tensor<?xui64>
  %2 = hlo.add %c, %c : tensor<complex<f64>>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @and(
// CHECK: %{{.*}} = hlo.and %{{.*}}, %{{.*}} : tensor<4xi1>
// CHECK: %{{.*}} = hlo.and %{{.*}}, %{{.*}} : tensor<4xi32>
func.func @and(%p: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> {
  %0 = hlo.and %p, %p : tensor<4xi1>
  %1 = hlo.and %x, %x : tensor<4xi32>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @or(
// CHECK: %{{.*}} = hlo.or %{{.*}}, %{{.*}} : tensor<4xi1>
// CHECK: %{{.*}} = hlo.or %{{.*}}, %{{.*}} : tensor<4xi32>
func.func @or(%p: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> {
  %0 = hlo.or %p, %p : tensor<4xi1>
  %1 = hlo.or %x, %x : tensor<4xi32>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @xor(
// CHECK: %{{.*}} = hlo.xor %{{.*}}, %{{.*}} : tensor<4xi1>
// CHECK: %{{.*}} = hlo.xor %{{.*}}, %{{.*}} : tensor<4xi32>
func.func @xor(%p: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> {
  %0 = hlo.xor %p, %p : tensor<4xi1>
  %1 = hlo.xor %x, %x : tensor<4xi32>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @shift_left(
// CHECK: %{{.*}} = hlo.shift_left %{{.*}}, %{{.*}} : tensor<4xi32>
// CHECK: %{{.*}} = hlo.shift_left %{{.*}}, %{{.*}} : tensor<4xui8>
func.func @shift_left(%x: tensor<4xi32>, %u: tensor<4xui8>) -> tensor<4xi32> {
  %0 = hlo.shift_left %x, %x : tensor<4xi32>
  %1 = hlo.shift_left %u, %u : tensor<4xui8>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @shift_right_arithmetic(
// CHECK: %{{.*}} = hlo.shift_right_arithmetic %{{.*}}, %{{.*}} : tensor<4xi32>
// CHECK: %{{.*}} = hlo.shift_right_arithmetic %{{.*}}, %{{.*}} : tensor<4xui8>
func.func @shift_right_arithmetic(%x: tensor<4xi32>, %u: tensor<4xui8>) -> tensor<4xi32> {
  %0 = hlo.shift_right_arithmetic %x, %x : tensor<4xi32>
  %1 = hlo.shift_right_arithmetic %u, %u : tensor<4xui8>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @shift_right_logical(
// CHECK: %{{.*}} = hlo.shift_right_logical %{{.*}}, %{{.*}} : tensor<4xi32>
// CHECK: %{{.*}} = hlo.shift_right_logical %{{.*}}, %{{.*}} : tensor<4xui8>
func.func @shift_right_logical(%x: tensor<4xi32>, %u: tensor<4xui8>) -> tensor<4xi32> {
  %0 = hlo.shift_right_logical %x, %x : tensor<4xi32>
  %1 = hlo.shift_right_logical %u, %u : tensor<4xui8>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @mulhi(
// CHECK: %{{.*}} = hlo.mulhi %{{.*}}, %{{.*}} : tensor<4xi32>
// CHECK: %{{.*}} = hlo.mulhi %{{.*}}, %{{.*}} : tensor<4xui8>
func.func @mulhi(%x: tensor<4xi32>, %u: tensor<4xui8>) -> tensor<4xi32> {
  %0 = hlo.mulhi %x, %x : tensor<4xi32>
  %1 = hlo.mulhi %u, %u : tensor<4xui8>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @complex(
// CHECK: %{{.*}} = hlo.complex %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xcomplex<f32>>
// CHECK: %{{.*}} = hlo.complex %{{.*}}, %{{.*}} : (tensor<f64>, tensor<f64>) -> tensor<complex<f64>>
func.func @complex(%re: tensor<2x3xf32>, %im: tensor<2x3xf32>, %re64: tensor<f64>) -> tensor<2x3xcomplex<f32>> {
  %0 = hlo.complex %re, %im : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xcomplex<f32>>
  %1 = hlo.complex %re64, %re64 : (tensor<f64>, tensor<f64>) -> tensor<complex<f64>>
  return %0 : tensor<2x3xcomplex<f32>>
}

// CHECK-LABEL: func.func @compare(
// CHECK: %{{.*}} = hlo.compare EQ, %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK: %{{.*}} = hlo.compare LT, %{{.*}}, %{{.*}}, TOTALORDER : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK: %{{.*}} = hlo.compare GE, %{{.*}}, %{{.*}}, FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK: %{{.*}} = hlo.compare GT, %{{.*}}, %{{.*}}, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK: %{{.*}} = hlo.compare LE, %{{.*}}, %{{.*}}, UNSIGNED : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
// CHECK: %{{.*}} = hlo.compare NE, %{{.*}}, %{{.*}}, UNSIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK: %{{.*}} = hlo.compare EQ, %{{.*}}, %{{.*}}, FLOAT : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
func.func @compare(%x: tensor<2x3xf32>, %i: tensor<4xi32>, %u: tensor<4xui32>, %p: tensor<4xi1>, %c: tensor<4xcomplex<f32>>) -> tensor<2x3xi1> {
  %0 = hlo.compare EQ, %x, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %1 = hlo.compare LT, %x, %x, TOTALORDER : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %2 = hlo.compare GE, %x, %x, FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %3 = hlo.compare GT, %i, %i, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %4 = hlo.compare LE, %u, %u, UNSIGNED : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  %5 = hlo.compare NE, %p, %p, UNSIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %6 = hlo.compare EQ, %c, %c, FLOAT : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
  return %0 : tensor<2x3xi1>
}

// CHECK-LABEL: func.func @select(
// CHECK: %{{.*}} = hlo.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %{{.*}} = hlo.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @select(%p: tensor<2x3xi1>, %s: tensor<i1>, %x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.select %p, %x, %y : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = hlo.select %s, %x, %0 : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @clamp(
// CHECK: %{{.*}} = hlo.clamp %{{.*}}, %{{.*}}, %{{.*}} : (tensor<i32>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK: %{{.*}} = hlo.clamp %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4xi32>, tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
func.func @clamp(%lo: tensor<i32>, %x: tensor<4xi32>, %hi: tensor<4xi32>) -> tensor<4xi32> {
  %0 = hlo.clamp %lo, %x, %hi : (tensor<i32>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = hlo.clamp %x, %0, %lo : (tensor<4xi32>, tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  return %1 : tensor<4xi32>
}

// CHECK-LABEL: func.func @stochastic_convert(
// CHECK: %{{.*}} = hlo.stochastic_convert %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xui32>) -> tensor<2x3xi8>
// CHECK: %{{.*}} = hlo.stochastic_convert %{{.*}}, %{{.*}} : (tensor<4xbf16>, tensor<4xui16>) -> tensor<4xf8E5M2>
func.func @stochastic_convert(%x: tensor<2x3xf32>, %r: tensor<2x3xui32>, %h: tensor<4xbf16>, %r16: tensor<4xui16>) -> tensor<2x3xi8> {
  %0 = hlo.stochastic_convert %x, %r : (tensor<2x3xf32>, tensor<2x3xui32>) -> tensor<2x3xi8>
  %1 = hlo.stochastic_convert %h, %r16 : (tensor<4xbf16>, tensor<4xui16>) -> tensor<4xf8E5M2>
  return %0 : tensor<2x3xi8>
}

// Constants and iota

// CHECK-LABEL: func.func @constant(
// CHECK: %{{.*}} = hlo.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK: %{{.*}} = hlo.constant dense<7> : tensor<i32>
// CHECK: %{{.*}} = hlo.constant dense<[true, false]> : tensor<2xi1>
// CHECK: %{{.*}} = hlo.constant dense<(1.000000e+00,-1.000000e+00)> : tensor<complex<f32>>
// CHECK: %{{.*}} = hlo.constant dense<[1, 2, 3]> : tensor<3xui8>
func.func @constant() -> tensor<2x2xf32> {
  %0 = hlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %1 = hlo.constant dense<7> : tensor<i32>
  %2 = hlo.constant dense<[true, false]> : tensor<2xi1>
  %3 = hlo.constant dense<(1.0, -1.0)> : tensor<complex<f32>>
  %4 = hlo.constant dense<[1, 2, 3]> : tensor<3xui8>
  return %0 : tensor<2x2xf32>
}

// CHECK-LABEL: func.func @iota(
// CHECK: %{{.*}} = hlo.iota dim = 0 : tensor<4x8xi32>
// CHECK: %{{.*}} = hlo.iota dim = 1 : tensor<4x8xf32>
// CHECK: %{{.*}} = hlo.iota dim = 0 : tensor<16xui64>
func.func @iota() -> tensor<4x8xi32> {
  %0 = hlo.iota dim = 0 : tensor<4x8xi32>
  %1 = hlo.iota dim = 1 : tensor<4x8xf32>
  %2 = hlo.iota dim = 0 : tensor<16xui64>
  return %0 : tensor<4x8xi32>
}

