// RUN: hlo-opt %s --split-input-file --passes=rng-expander | FileCheck %s
// RUN: hlo-opt %s --split-input-file --passes='rng-expander{seed=7}' | FileCheck %s --check-prefix=SEED

// Uniform f32: the op becomes rng_get_and_update_state (12 words) and a
// call with a key constant. The computation draws Philox bits from the
// state, keeps the top 23 bits of each u32, scales them by 2^-23 into [0, 1)
// and maps them to [a, b).
// CHECK-LABEL: func.func @uniform
// CHECK-NEXT:    %[[KEY:.*]] = hlo.constant dense<13679457532755275413> : tensor<ui64>
// CHECK-NEXT:    %[[STATE:.*]] = hlo.rng_get_and_update_state delta = 12 : tensor<2xui64>
// CHECK-NEXT:    %[[R:.*]] = hlo.call @rng_uniform(%[[KEY]], %[[STATE]], %arg0, %arg1) : (tensor<ui64>, tensor<2xui64>, tensor<f32>, tensor<f32>) -> tensor<3x4xf32>
// CHECK-NEXT:    return %[[R]]
// CHECK-LABEL: func.func private @rng_uniform(%arg0: tensor<ui64>, %arg1: tensor<2xui64>, %arg2: tensor<f32>, %arg3: tensor<f32>) -> tensor<3x4xf32>
// CHECK-COUNT-10: hlo.constant dense<3528531795> : tensor<ui64>
// CHECK:         %[[BITS:.*]] = hlo.reshape %{{.*}} : (tensor<12xui32>) -> tensor<3x4xui32>
// CHECK-NEXT:    %[[NINE:.*]] = hlo.constant dense<9> : tensor<ui32>
// CHECK-NEXT:    %[[NINEB:.*]] = hlo.broadcast %[[NINE]]
// CHECK-NEXT:    %[[M:.*]] = hlo.shift_right_logical %[[BITS]], %[[NINEB]]
// CHECK-NEXT:    %[[F:.*]] = hlo.convert %[[M]] : (tensor<3x4xui32>) -> tensor<3x4xf32>
// CHECK-NEXT:    %[[U:.*]] = hlo.constant dense<1.1920929E-7> : tensor<f32>
// CHECK-NEXT:    %[[UB:.*]] = hlo.broadcast %[[U]]
// CHECK-NEXT:    %[[V:.*]] = hlo.multiply %[[F]], %[[UB]]
// CHECK-NEXT:    %[[RANGE:.*]] = hlo.subtract %arg3, %arg2 : tensor<f32>
// CHECK-NEXT:    %[[RANGEB:.*]] = hlo.broadcast %[[RANGE]]
// CHECK-NEXT:    %[[SCALED:.*]] = hlo.multiply %[[V]], %[[RANGEB]]
// CHECK-NEXT:    %[[LO:.*]] = hlo.broadcast %arg2
// CHECK-NEXT:    %[[OUT:.*]] = hlo.add %[[SCALED]], %[[LO]]
// CHECK-NEXT:    return %[[OUT]]
// SEED-LABEL: func.func @uniform
// SEED-NEXT:    hlo.constant dense<7191089600892374487> : tensor<ui64>
func.func @uniform(%a: tensor<f32>, %b: tensor<f32>) -> tensor<3x4xf32> {
  %0 = hlo.rng rng_uniform %a, %b : (tensor<f32>, tensor<f32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Normal f64 (2 words per element): uniform [0, 1) values for the shape
// split in halves ([3] -> [2, 2]), Box-Muller (max with 1e-7, log, sqrt,
// sine and cosine of 2 pi x), interleaved, cut to 3, then a + b * z.
// Each op gets its own key; bf16 runs the f32 computation in between
// converts.
// CHECK-LABEL: func.func @normal
// CHECK:         hlo.rng_get_and_update_state delta = 6 : tensor<2xui64>
// CHECK:         hlo.call @rng_normal({{.*}}) : (tensor<ui64>, tensor<2xui64>, tensor<f64>, tensor<f64>) -> tensor<3xf64>
// CHECK:         %[[A:.*]] = hlo.convert %arg2 : (tensor<bf16>) -> tensor<f32>
// CHECK-NEXT:    %[[B:.*]] = hlo.convert %arg3 : (tensor<bf16>) -> tensor<f32>
// CHECK-NEXT:    %[[K:.*]] = hlo.constant dense<{{[0-9]+}}> : tensor<ui64>
// CHECK-NEXT:    %[[S:.*]] = hlo.rng_get_and_update_state delta = 4 : tensor<2xui64>
// CHECK-NEXT:    %[[R:.*]] = hlo.call @rng_normal.1(%[[K]], %[[S]], %[[A]], %[[B]]) : (tensor<ui64>, tensor<2xui64>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[C:.*]] = hlo.convert %[[R]] : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK-LABEL: func.func private @rng_normal(
// CHECK:         hlo.reshape %{{.*}} : (tensor<4xui64>) -> tensor<2x2xui64>
// CHECK:         hlo.constant dense<2.2204460492503131E-16> : tensor<f64>
// CHECK:         hlo.slice %{{.*}}, start = [0, 0], limit = [2, 1], strides = [1, 1] : (tensor<2x2xf64>) -> tensor<2x1xf64>
// CHECK-NEXT:    hlo.slice %{{.*}}, start = [0, 1], limit = [2, 2], strides = [1, 1] : (tensor<2x2xf64>) -> tensor<2x1xf64>
// CHECK:         hlo.maximum
// CHECK:         hlo.log
// CHECK:         hlo.sqrt
// CHECK:         hlo.sine
// CHECK:         hlo.cosine
// CHECK:         hlo.concatenate({{.*}}), dim = 1 : (tensor<2x1xf64>, tensor<2x1xf64>) -> tensor<2x2xf64>
// CHECK:         hlo.slice %{{.*}}, start = [0], limit = [3], strides = [1] : (tensor<4xf64>) -> tensor<3xf64>
// CHECK:         hlo.multiply
// CHECK-NEXT:    hlo.broadcast %arg2
// CHECK-NEXT:    hlo.add
func.func @normal(%m: tensor<f64>, %s: tensor<f64>, %lo: tensor<bf16>, %hi: tensor<bf16>) -> (tensor<3xf64>, tensor<4xbf16>) {
  %0 = hlo.rng rng_normal %m, %s : (tensor<f64>, tensor<f64>) -> tensor<3xf64>
  %1 = hlo.rng rng_normal %lo, %hi : (tensor<bf16>, tensor<bf16>) -> tensor<4xbf16>
  return %0, %1 : tensor<3xf64>, tensor<4xbf16>
}

// -----

// Uniform s32: d = bits % (b - a) computed in u32, result a + d/2 + (d - d/2).
// CHECK-LABEL: func.func private @rng_uniform(
// CHECK:         %[[HI:.*]] = hlo.bitcast_convert %arg3 : (tensor<i32>) -> tensor<ui32>
// CHECK-NEXT:    %[[LO:.*]] = hlo.bitcast_convert %arg2 : (tensor<i32>) -> tensor<ui32>
// CHECK-NEXT:    %[[RANGE:.*]] = hlo.subtract %[[HI]], %[[LO]] : tensor<ui32>
// CHECK-NEXT:    %[[RB:.*]] = hlo.broadcast %[[RANGE]]
// CHECK-NEXT:    %[[D:.*]] = hlo.remainder %{{.*}}, %[[RB]] : tensor<8xui32>
// CHECK:         %[[HALF:.*]] = hlo.shift_right_logical %[[D]]
// CHECK-NEXT:    %[[A:.*]] = hlo.broadcast %arg2
// CHECK-NEXT:    %[[H:.*]] = hlo.bitcast_convert %[[HALF]] : (tensor<8xui32>) -> tensor<8xi32>
// CHECK-NEXT:    %[[S1:.*]] = hlo.add %[[A]], %[[H]]
// CHECK-NEXT:    %[[REST:.*]] = hlo.subtract %[[D]], %[[HALF]]
// CHECK-NEXT:    %[[R:.*]] = hlo.bitcast_convert %[[REST]]
// CHECK-NEXT:    hlo.add %[[S1]], %[[R]]
func.func @uniform_int(%a: tensor<i32>, %b: tensor<i32>) -> tensor<8xi32> {
  %0 = hlo.rng rng_uniform %a, %b : (tensor<i32>, tensor<i32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// -----

// Left alone: types XLA's expansion does not handle (pred, s8) and empty
// results.
// CHECK-LABEL: func.func @unsupported
// CHECK-NEXT:    hlo.rng rng_uniform %arg0, %arg0 : (tensor<i1>, tensor<i1>) -> tensor<8xi1>
// CHECK-NEXT:    hlo.rng rng_uniform %arg1, %arg1 : (tensor<i8>, tensor<i8>) -> tensor<8xi8>
// CHECK-NEXT:    hlo.rng rng_uniform %arg2, %arg2 : (tensor<f32>, tensor<f32>) -> tensor<0xf32>
// CHECK-NOT:     hlo.call
func.func @unsupported(%p: tensor<i1>, %i: tensor<i8>, %f: tensor<f32>) -> (tensor<8xi1>, tensor<8xi8>, tensor<0xf32>) {
  %0 = hlo.rng rng_uniform %p, %p : (tensor<i1>, tensor<i1>) -> tensor<8xi1>
  %1 = hlo.rng rng_uniform %i, %i : (tensor<i8>, tensor<i8>) -> tensor<8xi8>
  %2 = hlo.rng rng_uniform %f, %f : (tensor<f32>, tensor<f32>) -> tensor<0xf32>
  return %0, %1, %2 : tensor<8xi1>, tensor<8xi8>, tensor<0xf32>
}
