// RUN: hlo-opt %s --split-input-file --passes=rng-bit-generator-expander | FileCheck %s

// Philox with a u64[2] state: a call of a generator computation returning
// (new_state, bits). The key is state[0]; the 128-bit counter is the
// reversed state (low word state[1]); ceil(5 / 4) = 2 blocks are encrypted
// with Philox-4x32 (multipliers 0xD2511F53 and 0xCD9E8D57, key increments
// 0x9E3779B9 and 0xBB67AE85, ten rounds), taken round-robin; the state keeps
// the key and the low counter word advanced by 2.
// CHECK-LABEL: func.func @philox
// CHECK-NEXT:    %[[T:.*]] = hlo.call @rng_philox(%arg0) : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<5xui32>>
// CHECK-NEXT:    %[[S:.*]] = hlo.get_tuple_element %[[T]][0]
// CHECK-NEXT:    %[[B:.*]] = hlo.get_tuple_element %[[T]][1]
// CHECK-NEXT:    return %[[S]], %[[B]]
// CHECK-LABEL: func.func private @rng_philox(%arg0: tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<5xui32>>
// CHECK-NEXT:    %[[K1:.*]] = hlo.slice %arg0, start = [0], limit = [1], strides = [1]
// CHECK-NEXT:    %[[KEY:.*]] = hlo.reshape %[[K1]] : (tensor<1xui64>) -> tensor<ui64>
// CHECK-NEXT:    %[[CTR:.*]] = hlo.reverse %arg0, dims = [0]
// CHECK:         hlo.iota dim = 0 : tensor<2xui64>
// CHECK:         %[[NEXT:.*]] = hlo.concatenate({{.*}}), dim = 0 : (tensor<1xui64>, tensor<1xui64>) -> tensor<2xui64>
// CHECK-COUNT-10: hlo.constant dense<3528531795> : tensor<ui64>
// CHECK:         hlo.constant dense<2654435769> : tensor<ui32>
// CHECK:         hlo.concatenate({{.*}}), dim = 1 : (tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>) -> tensor<2x4xui32>
// CHECK-NEXT:    hlo.reshape %{{.*}} : (tensor<2x4xui32>) -> tensor<8xui32>
// CHECK-NEXT:    hlo.slice %{{.*}}, start = [0], limit = [5], strides = [1] : (tensor<8xui32>) -> tensor<5xui32>
// CHECK-NEXT:    %[[BITS:.*]] = hlo.reshape
// CHECK-NEXT:    %[[LOW:.*]] = hlo.slice %[[NEXT]], start = [0], limit = [1], strides = [1]
// CHECK-NEXT:    %[[KEY1:.*]] = hlo.reshape %[[KEY]] : (tensor<ui64>) -> tensor<1xui64>
// CHECK-NEXT:    %[[STATE:.*]] = hlo.concatenate(%[[KEY1]], %[[LOW]]), dim = 0
// CHECK-NEXT:    %[[OUT:.*]] = hlo.tuple %[[STATE]], %[[BITS]]
// CHECK-NEXT:    return %[[OUT]]
func.func @philox(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui32>) {
  %0:2 = hlo.rng_bit_generator rng_philox %s : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui32>)
  return %0#0, %0#1 : tensor<2xui64>, tensor<5xui32>
}

// -----

// Threefry: the counter is state[1] plus the row-major index of each element
// of the half shape (s8[3] splits into [2, 1]); 20 rounds with key injections
// 1..5; the two output words interleave along the split dimension, are cut to
// 3 elements, truncated to u8 and reinterpreted as s8.
// CHECK-LABEL: func.func private @rng_three_fry(%arg0: tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<3xi8>>
// CHECK:         hlo.slice %arg0, start = [1], limit = [2], strides = [1]
// CHECK:         hlo.iota dim = 0 : tensor<2x1xui64>
// CHECK:         hlo.constant dense<466688986> : tensor<ui32>
// CHECK-COUNT-20: hlo.shift_left
// CHECK:         hlo.constant dense<5> : tensor<ui32>
// CHECK:         hlo.concatenate({{.*}}), dim = 1 : (tensor<2x1xui32>, tensor<2x1xui32>) -> tensor<2x2xui32>
// CHECK-NEXT:    hlo.reshape %{{.*}} : (tensor<2x2xui32>) -> tensor<4xui32>
// CHECK-NEXT:    hlo.slice %{{.*}}, start = [0], limit = [3], strides = [1] : (tensor<4xui32>) -> tensor<3xui32>
// CHECK-NEXT:    hlo.convert %{{.*}} : (tensor<3xui32>) -> tensor<3xui8>
// CHECK-NEXT:    hlo.bitcast_convert %{{.*}} : (tensor<3xui8>) -> tensor<3xi8>
func.func @three_fry(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<3xi8>) {
  %0:2 = hlo.rng_bit_generator rng_three_fry %s : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xi8>)
  return %0#0, %0#1 : tensor<2xui64>, tensor<3xi8>
}

// -----

// rng_default is Philox; a u64[3] state holds the counter in state[1..3] and
// keeps all of it. Ops with the same shapes and algorithm share one
// computation.
// CHECK-LABEL: func.func @default_shared
// CHECK:         hlo.call @rng_philox(%arg0) : (tensor<3xui64>) -> tuple<tensor<3xui64>, tensor<2x2xui64>>
// CHECK:         hlo.call @rng_philox(%arg1) : (tensor<3xui64>) -> tuple<tensor<3xui64>, tensor<2x2xui64>>
// CHECK-LABEL: func.func private @rng_philox(%arg0: tensor<3xui64>)
// CHECK:         hlo.slice %arg0, start = [1], limit = [3], strides = [1]
// CHECK-NOT:     func.func private @rng_philox.1
func.func @default_shared(%s: tensor<3xui64>, %t: tensor<3xui64>) -> (tensor<2x2xui64>, tensor<2x2xui64>) {
  %0:2 = hlo.rng_bit_generator rng_default %s : (tensor<3xui64>) -> (tensor<3xui64>, tensor<2x2xui64>)
  %1:2 = hlo.rng_bit_generator rng_philox %t : (tensor<3xui64>) -> (tensor<3xui64>, tensor<2x2xui64>)
  return %0#1, %1#1 : tensor<2x2xui64>, tensor<2x2xui64>
}

// -----

// Left alone: outputs with no elements.
// CHECK-LABEL: func.func @empty
// CHECK-NEXT:    hlo.rng_bit_generator rng_philox
// CHECK-NOT:     hlo.call
func.func @empty(%s: tensor<2xui64>) -> tensor<0xui32> {
  %0:2 = hlo.rng_bit_generator rng_philox %s : (tensor<2xui64>) -> (tensor<2xui64>, tensor<0xui32>)
  return %0#1 : tensor<0xui32>
}
