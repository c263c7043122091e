// RUN: hlo-opt %s --split-input-file --verify-diagnostics

// Invalid elementwise ops, conversions, constants and iota: one case per
// verifier message (and at least one per op).

func.func @abs_unsigned(%x: tensor<4xui32>) {
  // expected-error @+1 {{'hlo.abs' op operand must have a signed integer, floating-point or complex element type, but has 'ui32'}}
  %0 = hlo.abs %x : (tensor<4xui32>) -> tensor<4xui32>
  return
}

// -----

func.func @abs_complex_result(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'hlo.abs' op result element type must be 'f32' for an operand of element type 'complex<f32>', but is 'complex<f32>'}}
  %0 = hlo.abs %x : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  return
}

// -----

func.func @abs_complex_wrong_width(%x: tensor<4xcomplex<f64>>) {
  // expected-error @+1 {{'hlo.abs' op result element type must be 'f64' for an operand of element type 'complex<f64>', but is 'f32'}}
  %0 = hlo.abs %x : (tensor<4xcomplex<f64>>) -> tensor<4xf32>
  return
}

// -----

func.func @abs_float_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.abs' op result element type must be 'f32' for an operand of element type 'f32', but is 'f64'}}
  %0 = hlo.abs %x : (tensor<4xf32>) -> tensor<4xf64>
  return
}

// -----

func.func @abs_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.abs' op all non-scalar operands/results must have the same shape and base type}}
  %0 = hlo.abs %x : (tensor<4xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @abs_pred(%x: tensor<4xi1>) {
  // expected-error @+1 {{'hlo.abs' op operand #0 must be ranked tensor of integer or floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi1>'}}
  %0 = hlo.abs %x : (tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @acos_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.acos' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.acos %x : tensor<4xi32>
  return
}

// -----

func.func @acosh_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.acosh' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.acosh %x : tensor<4xi32>
  return
}

// -----

func.func @asin_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.asin' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.asin %x : tensor<4xi32>
  return
}

// -----

func.func @asinh_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.asinh' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.asinh %x : tensor<4xi32>
  return
}

// -----

func.func @atan_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.atan' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.atan %x : tensor<4xi32>
  return
}

// -----

func.func @atanh_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.atanh' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.atanh %x : tensor<4xi32>
  return
}

// -----

func.func @cbrt_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.cbrt' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.cbrt %x : tensor<4xi32>
  return
}

// -----

func.func @cosine_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.cosine' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.cosine %x : tensor<4xi32>
  return
}

// -----

func.func @cosh_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.cosh' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.cosh %x : tensor<4xi32>
  return
}

// -----

func.func @erf_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.erf' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.erf %x : tensor<4xi32>
  return
}

// -----

func.func @exponential_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.exponential' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.exponential %x : tensor<4xi32>
  return
}

// -----

func.func @exponential_minus_one_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.exponential_minus_one' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.exponential_minus_one %x : tensor<4xi32>
  return
}

// -----

func.func @log_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.log' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.log %x : tensor<4xi32>
  return
}

// -----

func.func @log_plus_one_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.log_plus_one' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.log_plus_one %x : tensor<4xi32>
  return
}

// -----

func.func @logistic_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.logistic' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.logistic %x : tensor<4xi32>
  return
}

// -----

func.func @rsqrt_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.rsqrt' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.rsqrt %x : tensor<4xi32>
  return
}

// -----

func.func @sine_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.sine' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.sine %x : tensor<4xi32>
  return
}

// -----

func.func @sinh_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.sinh' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.sinh %x : tensor<4xi32>
  return
}

// -----

func.func @sqrt_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.sqrt' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.sqrt %x : tensor<4xi32>
  return
}

// -----

func.func @tan_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.tan' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.tan %x : tensor<4xi32>
  return
}

// -----

func.func @tanh_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.tanh' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.tanh %x : tensor<4xi32>
  return
}

// -----

func.func @sine_result_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.sine' op requires the same type for all operands and results}}
  %0 = "hlo.sine"(%x) : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @cosine_bad_result_accuracy(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.cosine' op attribute 'result_accuracy' failed to satisfy constraint: requested accuracy of a transcendental op}}
  %0 = hlo.cosine %x {result_accuracy = 1 : i32} : tensor<4xf32>
  return
}

// -----

func.func @ceil_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.ceil' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = hlo.ceil %x : tensor<4xi32>
  return
}

// -----

func.func @floor_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.floor' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = hlo.floor %x : tensor<4xi32>
  return
}

// -----

func.func @round_nearest_afz_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.round_nearest_afz' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = hlo.round_nearest_afz %x : tensor<4xi32>
  return
}

// -----

func.func @round_nearest_even_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.round_nearest_even' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = hlo.round_nearest_even %x : tensor<4xi32>
  return
}

// -----

func.func @count_leading_zeros_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.count_leading_zeros' op operand #0 must be ranked tensor of integer values, but got 'tensor<4xf32>'}}
  %0 = hlo.count_leading_zeros %x : tensor<4xf32>
  return
}

// -----

func.func @popcnt_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.popcnt' op operand #0 must be ranked tensor of integer values, but got 'tensor<4xf32>'}}
  %0 = hlo.popcnt %x : tensor<4xf32>
  return
}

// -----

func.func @imag_wrong_part(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'hlo.imag' op result element type must be 'f32' for an operand of element type 'complex<f32>', but is 'f64'}}
  %0 = hlo.imag %x : (tensor<4xcomplex<f32>>) -> tensor<4xf64>
  return
}

// -----

func.func @imag_float_changes_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.imag' op result element type must be 'f32' for an operand of element type 'f32', but is 'bf16'}}
  %0 = hlo.imag %x : (tensor<4xf32>) -> tensor<4xbf16>
  return
}

// -----

func.func @imag_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.imag' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.imag %x : (tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @real_wrong_part(%x: tensor<4xcomplex<f64>>) {
  // expected-error @+1 {{'hlo.real' op result element type must be 'f64' for an operand of element type 'complex<f64>', but is 'f32'}}
  %0 = hlo.real %x : (tensor<4xcomplex<f64>>) -> tensor<4xf32>
  return
}

// -----

func.func @real_shape(%x: tensor<4xcomplex<f64>>) {
  // expected-error @+1 {{'hlo.real' op all non-scalar operands/results must have the same shape and base type}}
  %0 = hlo.real %x : (tensor<4xcomplex<f64>>) -> tensor<5xf64>
  return
}

// -----

func.func @is_finite_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.is_finite' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = hlo.is_finite %x : (tensor<4xi32>) -> tensor<4xi1>
  return
}

// -----

func.func @is_finite_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.is_finite' op result #0 must be ranked tensor of pred (i1) values, but got 'tensor<4xf32>'}}
  %0 = hlo.is_finite %x : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @negate_pred(%x: tensor<4xi1>) {
  // expected-error @+1 {{'hlo.negate' op operand #0 must be ranked tensor of integer or floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi1>'}}
  %0 = hlo.negate %x : tensor<4xi1>
  return
}

// -----

func.func @not_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.not' op operand #0 must be ranked tensor of pred (i1) or integer values, but got 'tensor<4xf32>'}}
  %0 = hlo.not %x : tensor<4xf32>
  return
}

// -----

func.func @popcnt_result_type(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.popcnt' op requires the same type for all operands and results}}
  %0 = "hlo.popcnt"(%x) : (tensor<4xi32>) -> tensor<4xi64>
  return
}

// -----

func.func @sign_unsigned(%x: tensor<4xui32>) {
  // expected-error @+1 {{'hlo.sign' op operand #0 must be ranked tensor of signed integer (sN) or floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xui32>'}}
  %0 = hlo.sign %x : tensor<4xui32>
  return
}

// -----

func.func @copy_token(%t: !hlo.token) {
  // expected-error @+1 {{'hlo.copy' op operand #0 must be array or tuple, but got '!hlo.token'}}
  %0 = hlo.copy %t : !hlo.token
  return
}

// -----

func.func @copy_type_change(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.copy' op requires the same type for all operands and results}}
  %0 = "hlo.copy"(%x) : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @convert_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.convert' op all non-scalar operands/results must have the same shape and base type}}
  %0 = hlo.convert %x : (tensor<4xf32>) -> tensor<3xi32>
  return
}

// -----

func.func @convert_tuple(%x: tuple<tensor<4xf32>>) {
  // expected-error @+1 {{'hlo.convert' op operand #0 must be ranked tensor of XLA primitive type values, but got 'tuple<tensor<4xf32>>'}}
  %0 = hlo.convert %x : (tuple<tensor<4xf32>>) -> tensor<4xi32>
  return
}

// -----

func.func @bitcast_convert_complex_to_real(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'hlo.bitcast_convert' op cannot bitcast between complex and real element types ('complex<f32>' to 'i64')}}
  %0 = hlo.bitcast_convert %x : (tensor<4xcomplex<f32>>) -> tensor<4xi64>
  return
}

// -----

func.func @bitcast_convert_undivisible(%x: tensor<4xf6E2M3FN>) {
  // expected-error @+1 {{'hlo.bitcast_convert' op cannot bitcast 6-bit 'f6E2M3FN' elements to 8-bit 'i8' elements: neither bit width divides the other}}
  %0 = hlo.bitcast_convert %x : (tensor<4xf6E2M3FN>) -> tensor<4xi8>
  return
}

// -----

func.func @bitcast_convert_same_width_shape(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.bitcast_convert' op result has shape [3, 2] but [2, 3] was expected}}
  %0 = hlo.bitcast_convert %x : (tensor<2x3xf32>) -> tensor<3x2xi32>
  return
}

// -----

func.func @bitcast_convert_narrower_missing_dim(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.bitcast_convert' op result has shape [4] but [4, 2] was expected}}
  %0 = hlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @bitcast_convert_narrower_wrong_ratio(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.bitcast_convert' op result has shape [4, 4] but [4, 2] was expected}}
  %0 = hlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4x4xf16>
  return
}

// -----

func.func @bitcast_convert_wider_wrong_last_dim(%x: tensor<4x4xf16>) {
  // expected-error @+1 {{'hlo.bitcast_convert' op bitcast of 16-bit 'f16' elements to 32-bit 'f32' elements needs an operand whose last dimension is 2, but the operand shape is [4, 4]}}
  %0 = hlo.bitcast_convert %x : (tensor<4x4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @bitcast_convert_wider_from_scalar(%x: tensor<i8>) {
  // expected-error @+1 {{'hlo.bitcast_convert' op bitcast of 8-bit 'i8' elements to 16-bit 'i16' elements needs an operand whose last dimension is 2, but the operand shape is []}}
  %0 = hlo.bitcast_convert %x : (tensor<i8>) -> tensor<i16>
  return
}

// -----

func.func @bitcast_convert_wider_wrong_result(%x: tensor<4x2xf16>) {
  // expected-error @+1 {{'hlo.bitcast_convert' op result has shape [2] but [4] was expected}}
  %0 = hlo.bitcast_convert %x : (tensor<4x2xf16>) -> tensor<2xf32>
  return
}

// -----

func.func @reduce_precision_no_exponent(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.reduce_precision' op attribute 'exponent_bits' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 1}}
  %0 = hlo.reduce_precision %x, exponent_bits = 0, mantissa_bits = 10 : tensor<4xf32>
  return
}

// -----

func.func @reduce_precision_negative_mantissa(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.reduce_precision' op attribute 'mantissa_bits' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
  %0 = hlo.reduce_precision %x, exponent_bits = 5, mantissa_bits = -1 : tensor<4xf32>
  return
}

// -----

func.func @reduce_precision_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.reduce_precision' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = hlo.reduce_precision %x, exponent_bits = 5, mantissa_bits = 10 : tensor<4xi32>
  return
}

// -----

func.func @add_mismatch(%x: tensor<4xf32>, %y: tensor<4xf64>) {
  // expected-error @+1 {{'hlo.add' op requires the same type for all operands and results}}
  %0 = "hlo.add"(%x, %y) : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  return
}

// -----

func.func @multiply_mismatch(%x: tensor<4xf32>, %y: tensor<4xf64>) {
  // expected-error @+1 {{'hlo.multiply' op requires the same type for all operands and results}}
  %0 = "hlo.multiply"(%x, %y) : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  return
}

// -----

func.func @maximum_mismatch(%x: tensor<4xf32>, %y: tensor<4xf64>) {
  // expected-error @+1 {{'hlo.maximum' op requires the same type for all operands and results}}
  %0 = "hlo.maximum"(%x, %y) : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  return
}

// -----

func.func @minimum_mismatch(%x: tensor<4xf32>, %y: tensor<4xf64>) {
  // expected-error @+1 {{'hlo.minimum' op requires the same type for all operands and results}}
  %0 = "hlo.minimum"(%x, %y) : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  return
}

// -----

func.func @add_token(%t: !hlo.token) {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found '!hlo.token'}}
  %0 = hlo.add %t, %t : !hlo.token
  return
}

// -----

func.func @subtract_pred(%x: tensor<4xi1>) {
  // expected-error @+1 {{'hlo.subtract' op operand #0 must be ranked tensor of integer or floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi1>'}}
  %0 = hlo.subtract %x, %x : tensor<4xi1>
  return
}

// -----

func.func @divide_pred(%x: tensor<4xi1>) {
  // expected-error @+1 {{'hlo.divide' op operand #0 must be ranked tensor of integer or floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi1>'}}
  %0 = hlo.divide %x, %x : tensor<4xi1>
  return
}

// -----

func.func @remainder_pred(%x: tensor<4xi1>) {
  // expected-error @+1 {{'hlo.remainder' op operand #0 must be ranked tensor of integer or floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi1>'}}
  %0 = hlo.remainder %x, %x : tensor<4xi1>
  return
}

// -----

func.func @power_pred(%x: tensor<4xi1>) {
  // expected-error @+1 {{'hlo.power' op operand #0 must be ranked tensor of integer or floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi1>'}}
  %0 = hlo.power %x, %x : tensor<4xi1>
  return
}

// -----

func.func @subtract_shape_mismatch(%x: tensor<4xf32>, %y: tensor<5xf32>) {
  // expected-error @+1 {{'hlo.subtract' op all non-scalar operands/results must have the same shape and base type}}
  %0 = "hlo.subtract"(%x, %y) : (tensor<4xf32>, tensor<5xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @atan2_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.atan2' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = hlo.atan2 %x, %x : tensor<4xi32>
  return
}

// -----

func.func @and_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.and' op operand #0 must be ranked tensor of pred (i1) or integer values, but got 'tensor<4xf32>'}}
  %0 = hlo.and %x, %x : tensor<4xf32>
  return
}

// -----

func.func @or_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.or' op operand #0 must be ranked tensor of pred (i1) or integer values, but got 'tensor<4xf32>'}}
  %0 = hlo.or %x, %x : tensor<4xf32>
  return
}

// -----

func.func @xor_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.xor' op operand #0 must be ranked tensor of pred (i1) or integer values, but got 'tensor<4xf32>'}}
  %0 = hlo.xor %x, %x : tensor<4xf32>
  return
}

// -----

func.func @shift_left_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.shift_left' op operand #0 must be ranked tensor of integer values, but got 'tensor<4xf32>'}}
  %0 = hlo.shift_left %x, %x : tensor<4xf32>
  return
}

// -----

func.func @shift_right_arithmetic_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.shift_right_arithmetic' op operand #0 must be ranked tensor of integer values, but got 'tensor<4xf32>'}}
  %0 = hlo.shift_right_arithmetic %x, %x : tensor<4xf32>
  return
}

// -----

func.func @shift_right_logical_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.shift_right_logical' op operand #0 must be ranked tensor of integer values, but got 'tensor<4xf32>'}}
  %0 = hlo.shift_right_logical %x, %x : tensor<4xf32>
  return
}

// -----

func.func @mulhi_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.mulhi' op operand #0 must be ranked tensor of integer values, but got 'tensor<4xf32>'}}
  %0 = hlo.mulhi %x, %x : tensor<4xf32>
  return
}

// -----

func.func @mulhi_pred(%x: tensor<4xi1>) {
  // expected-error @+1 {{'hlo.mulhi' op operand #0 must be ranked tensor of integer values, but got 'tensor<4xi1>'}}
  %0 = hlo.mulhi %x, %x : tensor<4xi1>
  return
}

// -----

func.func @complex_mixed_parts(%x: tensor<4xf32>, %y: tensor<4xf64>) {
  // expected-error @+1 {{'hlo.complex' op real and imag must have the same element type, but have 'f32' and 'f64'}}
  %0 = hlo.complex %x, %y : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xcomplex<f32>>
  return
}

// -----

func.func @complex_wrong_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.complex' op result element type must be 'complex<f32>' for parts of type 'f32', but is 'complex<f64>'}}
  %0 = hlo.complex %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f64>>
  return
}

// -----

func.func @complex_f16_parts(%x: tensor<4xf16>) {
  // expected-error @+1 {{'hlo.complex' op operand #0 must be ranked tensor of 32-bit float or 64-bit float values, but got 'tensor<4xf16>'}}
  %0 = hlo.complex %x, %x : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xcomplex<f32>>
  return
}

// -----

func.func @complex_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.complex' op all non-scalar operands/results must have the same shape and base type}}
  %0 = hlo.complex %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<2xcomplex<f32>>
  return
}

// -----

func.func @compare_signed_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.compare' op compare_type SIGNED does not suit element type 'f32' (expected FLOAT or TOTALORDER)}}
  %0 = hlo.compare LT, %x, %x, SIGNED : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @compare_float_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.compare' op compare_type FLOAT does not suit element type 'i32' (expected SIGNED)}}
  %0 = hlo.compare LT, %x, %x, FLOAT : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return
}

// -----

func.func @compare_signed_unsigned(%x: tensor<4xui32>) {
  // expected-error @+1 {{'hlo.compare' op compare_type SIGNED does not suit element type 'ui32' (expected UNSIGNED)}}
  %0 = hlo.compare LT, %x, %x, SIGNED : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  return
}

// -----

func.func @compare_signed_pred(%x: tensor<4xi1>) {
  // expected-error @+1 {{'hlo.compare' op compare_type SIGNED does not suit element type 'i1' (expected UNSIGNED)}}
  %0 = hlo.compare EQ, %x, %x, SIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @compare_totalorder_complex_ok_unsigned_bad(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'hlo.compare' op compare_type UNSIGNED does not suit element type 'complex<f32>' (expected FLOAT or TOTALORDER)}}
  %0 = hlo.compare EQ, %x, %x, UNSIGNED : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
  return
}

// -----

func.func @compare_operand_types(%x: tensor<4xf32>, %y: tensor<4xf64>) {
  // expected-error @+1 {{'hlo.compare' op requires all operands to have the same type}}
  %0 = hlo.compare EQ, %x, %y : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xi1>
  return
}

// -----

func.func @compare_result_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.compare' op result #0 must be ranked tensor of pred (i1) values, but got 'tensor<4xi32>'}}
  %0 = hlo.compare EQ, %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi32>
  return
}

// -----

func.func @compare_result_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.compare' op all non-scalar operands/results must have the same shape and base type}}
  %0 = hlo.compare EQ, %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<2xi1>
  return
}

// -----

func.func @select_branch_types(%p: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xf64>) {
  // expected-error @+1 {{'hlo.select' op on_true and on_false must have the same type, but have 'tensor<4xf32>' and 'tensor<4xf64>'}}
  %0 = hlo.select %p, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  return
}

// -----

func.func @select_result_type(%p: tensor<4xi1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.select' op result type 'tensor<4xf16>' must be the type of on_true and on_false, 'tensor<4xf32>'}}
  %0 = hlo.select %p, %x, %x : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @select_pred_shape(%p: tensor<3xi1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.select' op pred must have rank 0 or the shape of on_true [4], but has shape [3]}}
  %0 = hlo.select %p, %x, %x : (tensor<3xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @select_pred_type(%p: tensor<4xi32>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.select' op operand #0 must be ranked tensor of pred (i1) values, but got 'tensor<4xi32>'}}
  %0 = hlo.select %p, %x, %x : (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @clamp_min_element_type(%lo: tensor<f32>, %x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.clamp' op min must have the operand's element type 'i32', but has 'f32'}}
  %0 = hlo.clamp %lo, %x, %x : (tensor<f32>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @clamp_max_shape(%hi: tensor<2xi32>, %x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.clamp' op max must have rank 0 or the operand's shape [4], but has shape [2]}}
  %0 = hlo.clamp %x, %x, %hi : (tensor<4xi32>, tensor<4xi32>, tensor<2xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @clamp_result_type(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.clamp' op result type 'tensor<4xi64>' must be the operand type 'tensor<4xi32>'}}
  %0 = hlo.clamp %x, %x, %x : (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi64>
  return
}

// -----

func.func @stochastic_convert_signed_random(%x: tensor<4xf32>, %r: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.stochastic_convert' op random must have an unsigned integer element type, but has 'i32'}}
  %0 = hlo.stochastic_convert %x, %r : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi8>
  return
}

// -----

func.func @stochastic_convert_random_width(%x: tensor<4xf32>, %r: tensor<4xui16>) {
  // expected-error @+1 {{'hlo.stochastic_convert' op random must have the bit width of the operand's element type 'f32' (32 bits), but has 'ui16'}}
  %0 = hlo.stochastic_convert %x, %r : (tensor<4xf32>, tensor<4xui16>) -> tensor<4xi8>
  return
}

// -----

func.func @stochastic_convert_random_shape(%x: tensor<4xf32>, %r: tensor<2x2xui32>) {
  // expected-error @+1 {{'hlo.stochastic_convert' op all non-scalar operands/results must have the same shape and base type}}
  %0 = hlo.stochastic_convert %x, %r : (tensor<4xf32>, tensor<2x2xui32>) -> tensor<4xi8>
  return
}

// -----

func.func @stochastic_convert_result_shape(%x: tensor<4xf32>, %r: tensor<4xui32>) {
  // expected-error @+1 {{'hlo.stochastic_convert' op all non-scalar operands/results must have the same shape and base type}}
  %0 = hlo.stochastic_convert %x, %r : (tensor<4xf32>, tensor<4xui32>) -> tensor<8xi8>
  return
}

// -----

func.func @stochastic_convert_int_operand(%x: tensor<4xi32>, %r: tensor<4xui32>) {
  // expected-error @+1 {{'hlo.stochastic_convert' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = hlo.stochastic_convert %x, %r : (tensor<4xi32>, tensor<4xui32>) -> tensor<4xi8>
  return
}

// -----

func.func @constant_type_mismatch() {
  // expected-error @+1 {{'hlo.constant' op failed to verify that all of {value, output} have same type}}
  %0 = "hlo.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf64>
  return
}

// -----

func.func @constant_token() {
  // expected-error @+1 {{'hlo.constant' op result #0 must be ranked tensor of XLA primitive type values, but got '!hlo.token'}}
  %0 = "hlo.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> !hlo.token
  return
}

// -----

func.func @iota_dim_out_of_range() {
  // expected-error @+1 {{'hlo.iota' op iota_dimension 2 is out of range for a result of rank 2}}
  %0 = hlo.iota dim = 2 : tensor<4x8xi32>
  return
}

// -----

func.func @iota_scalar() {
  // expected-error @+1 {{'hlo.iota' op iota_dimension 0 is out of range for a result of rank 0}}
  %0 = hlo.iota dim = 0 : tensor<i32>
  return
}

// -----

func.func @iota_negative_dim() {
  // expected-error @+1 {{'hlo.iota' op attribute 'iota_dimension' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0 = hlo.iota dim = -1 : tensor<4xi32>
  return
}

// -----

func.func @iota_pred() {
  // expected-error @+1 {{'hlo.iota' op result #0 must be ranked tensor of integer or floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<4xi1>'}}
  %0 = hlo.iota dim = 0 : tensor<4xi1>
  return
}

// -----

func.func @constant_dynamic_shape() {
  // expected-error @+1 {{'hlo.constant' op value must be a statically shaped literal, but has type 'tensor<?xf32>'}}
  %0 = "hlo.constant"() {value = dense_resource<blob> : tensor<?xf32>} : () -> tensor<?xf32>
  return
}
