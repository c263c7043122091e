// RUN: hlo-opt %s --split-input-file --passes=algsimp | FileCheck %s

// Integer identities: x + 0, x - 0, 1 * x, x / 1, pow(x, 1), with splat and
// broadcast constants.
// CHECK-LABEL: func.func @int_identities
// CHECK-NEXT:    return %arg0
func.func @int_identities(%x: tensor<4xi32>) -> tensor<4xi32> {
  %z = hlo.constant dense<0> : tensor<i32>
  %zb = hlo.broadcast %z, dims = [] : (tensor<i32>) -> tensor<4xi32>
  %o = hlo.constant dense<1> : tensor<4xi32>
  %0 = hlo.add %x, %zb : tensor<4xi32>
  %1 = hlo.subtract %0, %zb : tensor<4xi32>
  %2 = hlo.multiply %o, %1 : tensor<4xi32>
  %3 = hlo.divide %2, %o : tensor<4xi32>
  %4 = hlo.power %3, %o : tensor<4xi32>
  return %4 : tensor<4xi32>
}

// -----

// Integer x * 0 is the zero; x - x is zero; x ^ x is zero.
// CHECK-LABEL: func.func @int_zeros
// CHECK-DAG:     %[[Z:.*]] = hlo.constant dense<0> : tensor<4xi32>
// CHECK-DAG:     %[[C:.*]] = hlo.constant dense<0> : tensor<i32>
// CHECK-DAG:     %[[B:.*]] = hlo.broadcast %[[C]], dims = []
// CHECK:         return %[[Z]], %[[B]]
func.func @int_zeros(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %z = hlo.constant dense<0> : tensor<4xi32>
  %0 = hlo.multiply %x, %z : tensor<4xi32>
  %1 = hlo.subtract %x, %x : tensor<4xi32>
  %2 = hlo.xor %1, %1 : tensor<4xi32>
  return %0, %2 : tensor<4xi32>, tensor<4xi32>
}

// -----

// Floats: x + 0.0 is not x (x = -0.0), x * 0 is not 0 (NaN, inf, -0),
// and a parameter may hold subnormals the arithmetic would flush, so even
// x * 1 and x + (-0.0) stay for it.
// CHECK-LABEL: func.func @float_not_identities
// CHECK:         hlo.add %arg0
// CHECK:         hlo.multiply
// CHECK:         hlo.multiply
// CHECK:         hlo.add
func.func @float_not_identities(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %z = hlo.constant dense<0.0> : tensor<4xf32>
  %nz = hlo.constant dense<-0.0> : tensor<4xf32>
  %o = hlo.constant dense<1.0> : tensor<4xf32>
  %0 = hlo.add %x, %z : tensor<4xf32>
  %1 = hlo.multiply %x, %z : tensor<4xf32>
  %2 = hlo.multiply %x, %o : tensor<4xf32>
  %3 = hlo.add %x, %nz : tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// For a canonical float (the result of arithmetic: no subnormals, no
// signalling NaN) x * 1, x / 1, x + (-0.0) and x - 0.0 are x.
// CHECK-LABEL: func.func @float_identities_canonical
// CHECK-NEXT:    %[[S:.*]] = hlo.add %arg0, %arg1
// CHECK-NEXT:    return %[[S]]
func.func @float_identities_canonical(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %s = hlo.add %a, %b : tensor<4xf32>
  %o = hlo.constant dense<1.0> : tensor<4xf32>
  %nz = hlo.constant dense<-0.0> : tensor<f32>
  %nzb = hlo.broadcast %nz, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %z = hlo.constant dense<0.0> : tensor<4xf32>
  %0 = hlo.multiply %s, %o : tensor<4xf32>
  %1 = hlo.divide %0, %o : tensor<4xf32>
  %2 = hlo.add %nzb, %1 : tensor<4xf32>
  %3 = hlo.subtract %2, %z : tensor<4xf32>
  return %3 : tensor<4xf32>
}

// -----

// pow(x, 0) is 1 (C pow, also for NaN), pow(x, 2) is x * x for f32; f64
// pow(x, 2) stays (pow is not correctly rounded), and float pow(x, 1)
// stays (libm returns its own NaN for a NaN x).
// CHECK-LABEL: func.func @power
// CHECK-DAG:     %[[ONE:.*]] = hlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-DAG:     %[[B:.*]] = hlo.broadcast %[[ONE]], dims = []
// CHECK-DAG:     %[[SQ:.*]] = hlo.multiply %arg0, %arg0 : tensor<4xf32>
// CHECK-DAG:     %[[P1:.*]] = hlo.power %arg0, %{{.*}} : tensor<4xf32>
// CHECK-DAG:     %[[P2:.*]] = hlo.power %arg1, %{{.*}} : tensor<4xf64>
// CHECK:         return %[[B]], %[[SQ]], %[[P1]], %[[P2]]
func.func @power(%x: tensor<4xf32>, %y: tensor<4xf64>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf64>) {
  %c0 = hlo.constant dense<0.0> : tensor<4xf32>
  %c1 = hlo.constant dense<1.0> : tensor<4xf32>
  %c2 = hlo.constant dense<2.0> : tensor<4xf32>
  %d2 = hlo.constant dense<2.0> : tensor<4xf64>
  %0 = hlo.power %x, %c0 : tensor<4xf32>
  %1 = hlo.power %x, %c2 : tensor<4xf32>
  %2 = hlo.power %x, %c1 : tensor<4xf32>
  %3 = hlo.power %y, %d2 : tensor<4xf64>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf64>
}

// -----

// max(x, x), min(x, x), max(x, -inf), min(x, +inf) and the absorption
// rules return operand bits: exact for f32 and integers.
// CHECK-LABEL: func.func @min_max
// CHECK-NEXT:    %[[M:.*]] = hlo.maximum %arg0, %arg1
// CHECK-NEXT:    return %arg0, %arg0, %[[M]]
func.func @min_max(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %ninf = hlo.constant dense<0xFF800000> : tensor<4xf32>
  %0 = hlo.maximum %x, %x : tensor<4xf32>
  %1 = hlo.minimum %0, %0 : tensor<4xf32>
  %2 = hlo.maximum %ninf, %1 : tensor<4xf32>
  %m = hlo.maximum %x, %y : tensor<4xf32>
  %3 = hlo.maximum %m, %y : tensor<4xf32>
  return %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// max(x, -3) is not an identity; bf16 max(x, x) goes through f32, which
// quiets a signalling NaN, so it stays for a parameter.
// CHECK-LABEL: func.func @min_max_negative
// CHECK:         hlo.maximum %arg0
// CHECK:         hlo.maximum %arg1, %arg1
func.func @min_max_negative(%x: tensor<4xf32>, %y: tensor<4xbf16>) -> (tensor<4xf32>, tensor<4xbf16>) {
  %c = hlo.constant dense<-3.0> : tensor<4xf32>
  %0 = hlo.maximum %x, %c : tensor<4xf32>
  %1 = hlo.maximum %y, %y : tensor<4xbf16>
  return %0, %1 : tensor<4xf32>, tensor<4xbf16>
}

// -----

// Bitwise and logical identities.
// CHECK-LABEL: func.func @bitwise
// CHECK-DAG:     %[[ONES:.*]] = hlo.constant dense<-1> : tensor<4xi32>
// CHECK-DAG:     %[[T:.*]] = hlo.constant dense<true> : tensor<4xi1>
// CHECK:         return %arg0, %[[ONES]], %arg1, %[[T]]
func.func @bitwise(%x: tensor<4xi32>, %p: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi1>) {
  %ones = hlo.constant dense<-1> : tensor<4xi32>
  %zero = hlo.constant dense<0> : tensor<4xi32>
  %t = hlo.constant dense<true> : tensor<4xi1>
  %f = hlo.constant dense<false> : tensor<4xi1>
  %0 = hlo.and %x, %ones : tensor<4xi32>
  %1 = hlo.or %0, %zero : tensor<4xi32>
  %2 = hlo.and %1, %1 : tensor<4xi32>
  %3 = hlo.or %x, %ones : tensor<4xi32>
  %4 = hlo.and %p, %t : tensor<4xi1>
  %5 = hlo.or %f, %4 : tensor<4xi1>
  %6 = hlo.xor %5, %f : tensor<4xi1>
  %7 = hlo.or %6, %t : tensor<4xi1>
  return %2, %3, %6, %7 : tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi1>
}

// -----

// x & 1 and x + 1 are not identities.
// CHECK-LABEL: func.func @bitwise_negative
// CHECK:         hlo.and %arg0
// CHECK:         hlo.add
func.func @bitwise_negative(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %one = hlo.constant dense<1> : tensor<4xi32>
  %0 = hlo.and %x, %one : tensor<4xi32>
  %1 = hlo.add %x, %one : tensor<4xi32>
  return %0, %1 : tensor<4xi32>, tensor<4xi32>
}

// -----

// Double negation, double not, abs of abs.
// CHECK-LABEL: func.func @unary
// CHECK-NEXT:    %[[A:.*]] = hlo.abs %arg0
// CHECK-NEXT:    return %arg0, %arg1, %[[A]]
func.func @unary(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>) {
  %0 = hlo.negate %x : tensor<4xf32>
  %1 = hlo.negate %0 : tensor<4xf32>
  %2 = hlo.not %i : tensor<4xi32>
  %3 = hlo.not %2 : tensor<4xi32>
  %4 = hlo.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  %5 = hlo.abs %4 : (tensor<4xf32>) -> tensor<4xf32>
  return %1, %3, %5 : tensor<4xf32>, tensor<4xi32>, tensor<4xf32>
}

// -----

// Integer division and remainder by a power of two become shifts and
// masks (with the dividend's sign for signed types).
// CHECK-LABEL: func.func @div_rem_pow2
// CHECK-NOT:     hlo.divide
// CHECK-NOT:     hlo.remainder
// CHECK:         hlo.shift_right_logical %arg0
// CHECK:         hlo.and %arg0
// CHECK:         hlo.shift_right_logical %{{.*}}
// CHECK:         hlo.select
func.func @div_rem_pow2(%u: tensor<4xui32>, %s: tensor<4xi32>) -> (tensor<4xui32>, tensor<4xui32>, tensor<4xi32>) {
  %c8 = hlo.constant dense<8> : tensor<4xui32>
  %s4 = hlo.constant dense<4> : tensor<4xi32>
  %0 = hlo.divide %u, %c8 : tensor<4xui32>
  %1 = hlo.remainder %u, %c8 : tensor<4xui32>
  %2 = hlo.divide %s, %s4 : tensor<4xi32>
  return %0, %1, %2 : tensor<4xui32>, tensor<4xui32>, tensor<4xi32>
}

// -----

// Not a power of two, or floats: unchanged.
// CHECK-LABEL: func.func @div_negative
// CHECK:         hlo.divide %arg0
// CHECK:         hlo.divide %arg1
func.func @div_negative(%s: tensor<4xi32>, %f: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xf32>) {
  %c6 = hlo.constant dense<6> : tensor<4xi32>
  %f4 = hlo.constant dense<4.0> : tensor<4xf32>
  %0 = hlo.divide %s, %c6 : tensor<4xi32>
  %1 = hlo.divide %f, %f4 : tensor<4xf32>
  return %0, %1 : tensor<4xi32>, tensor<4xf32>
}

// -----

// Integer rewrites that would reassociate floats: x - (x - y) -> y,
// (x + y) - x -> y, (-a) * (-b) -> a * b.
// CHECK-LABEL: func.func @int_reassociation
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %arg0, %arg1
// CHECK-NEXT:    return %arg1, %arg1, %[[M]]
func.func @int_reassociation(%x: tensor<4xi32>, %y: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %0 = hlo.subtract %x, %y : tensor<4xi32>
  %1 = hlo.subtract %x, %0 : tensor<4xi32>
  %2 = hlo.add %x, %y : tensor<4xi32>
  %3 = hlo.subtract %2, %x : tensor<4xi32>
  %n = hlo.negate %x : tensor<4xi32>
  %m = hlo.negate %y : tensor<4xi32>
  %4 = hlo.multiply %n, %m : tensor<4xi32>
  return %1, %3, %4 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// ... but not for floats.
// CHECK-LABEL: func.func @float_reassociation_negative
// CHECK:         hlo.subtract
// CHECK:         hlo.subtract
// CHECK:         hlo.negate
// CHECK:         hlo.multiply
func.func @float_reassociation_negative(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = hlo.subtract %x, %y : tensor<4xf32>
  %1 = hlo.subtract %x, %0 : tensor<4xf32>
  %n = hlo.negate %x : tensor<4xf32>
  %m = hlo.negate %y : tensor<4xf32>
  %2 = hlo.multiply %n, %m : tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}

// -----

// real/imag/complex round trips, imag of a real value, exp(0).
// CHECK-LABEL: func.func @complex_parts
// CHECK-DAG:     %[[Z:.*]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG:     %[[ZB:.*]] = hlo.broadcast %[[Z]]
// CHECK-DAG:     %[[O:.*]] = hlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-DAG:     %[[OB:.*]] = hlo.broadcast %[[O]]
// CHECK:         return %arg0, %arg1, %[[ZB]], %[[OB]]
func.func @complex_parts(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %c = hlo.complex %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f32>>
  %r = hlo.real %c : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %i = hlo.imag %c : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %z = hlo.imag %a : (tensor<4xf32>) -> tensor<4xf32>
  %zero = hlo.constant dense<0.0> : tensor<4xf32>
  %e = hlo.exponential %zero : tensor<4xf32>
  return %r, %i, %z, %e : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Ops with a non-default layout, control dependencies or a sharding are
// left alone.
// CHECK-LABEL: func.func @carried_attributes
// CHECK:         hlo.negate %{{.*}} {hlo.layout
// CHECK:         hlo.add %arg1, %{{.*}} {hlo.sharding
func.func @carried_attributes(%x: tensor<2x2xf32>, %i: tensor<4xi32>) -> (tensor<2x2xf32>, tensor<4xi32>) {
  %0 = hlo.negate %x : tensor<2x2xf32>
  %1 = hlo.negate %0 {hlo.layout = #hlo.layout<minor_to_major = [0, 1]>} : tensor<2x2xf32>
  %z = hlo.constant dense<0> : tensor<4xi32>
  %2 = hlo.add %i, %z {hlo.sharding = #hlo.sharding<replicated>} : tensor<4xi32>
  return %1, %2 : tensor<2x2xf32>, tensor<4xi32>
}
