// RUN: hlo-opt %s --split-input-file --passes=algsimp | FileCheck %s

// A convert to the same type, and round trips through a type that holds
// every value, vanish.
// CHECK-LABEL: func.func @no_op_converts
// CHECK-NEXT:    return %arg0, %arg1, %arg2
func.func @no_op_converts(%f: tensor<4xf32>, %s: tensor<4xi8>, %u: tensor<4xui8>) -> (tensor<4xf32>, tensor<4xi8>, tensor<4xui8>) {
  %0 = hlo.convert %f : (tensor<4xf32>) -> tensor<4xf32>
  %1 = hlo.convert %s : (tensor<4xi8>) -> tensor<4xi32>
  %2 = hlo.convert %1 : (tensor<4xi32>) -> tensor<4xi8>
  %3 = hlo.convert %u : (tensor<4xui8>) -> tensor<4xf32>
  %4 = hlo.convert %3 : (tensor<4xf32>) -> tensor<4xui8>
  return %0, %2, %4 : tensor<4xf32>, tensor<4xi8>, tensor<4xui8>
}

// -----

// Narrowing round trips, round trips through an integer of the other
// signedness that cannot hold every value, and float round trips (f32 ->
// f64 reads subnormals as zero; f16 widening quiets signalling NaNs) stay.
// CHECK-LABEL: func.func @round_trips_that_stay
// CHECK-COUNT-8: hlo.convert
func.func @round_trips_that_stay(%s: tensor<4xi32>, %u: tensor<4xui8>, %f: tensor<4xf32>, %h: tensor<4xf16>) -> (tensor<4xi32>, tensor<4xui8>, tensor<4xf32>, tensor<4xf16>) {
  %0 = hlo.convert %s : (tensor<4xi32>) -> tensor<4xi8>
  %1 = hlo.convert %0 : (tensor<4xi8>) -> tensor<4xi32>
  %2 = hlo.convert %u : (tensor<4xui8>) -> tensor<4xi8>
  %3 = hlo.convert %2 : (tensor<4xi8>) -> tensor<4xui8>
  %4 = hlo.convert %f : (tensor<4xf32>) -> tensor<4xf64>
  %5 = hlo.convert %4 : (tensor<4xf64>) -> tensor<4xf32>
  %6 = hlo.convert %h : (tensor<4xf16>) -> tensor<4xf32>
  %7 = hlo.convert %6 : (tensor<4xf32>) -> tensor<4xf16>
  return %1, %3, %5, %7 : tensor<4xi32>, tensor<4xui8>, tensor<4xf32>, tensor<4xf16>
}

// -----

// Widening integer chains are one convert.
// CHECK-LABEL: func.func @widening_chain
// CHECK-NEXT:    %[[C:.*]] = hlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xi64>
// CHECK-NEXT:    return %[[C]]
func.func @widening_chain(%x: tensor<4xi8>) -> tensor<4xi64> {
  %0 = hlo.convert %x : (tensor<4xi8>) -> tensor<4xi16>
  %1 = hlo.convert %0 : (tensor<4xi16>) -> tensor<4xi32>
  %2 = hlo.convert %1 : (tensor<4xi32>) -> tensor<4xi64>
  return %2 : tensor<4xi64>
}

// -----

// Through a float the second convert saturates where a direct integer
// convert would wrap: stays.
// CHECK-LABEL: func.func @chain_through_float
// CHECK:         hlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xf64>
// CHECK:         hlo.convert %{{.*}} : (tensor<4xf64>) -> tensor<4xi8>
func.func @chain_through_float(%x: tensor<4xi32>) -> tensor<4xi8> {
  %0 = hlo.convert %x : (tensor<4xi32>) -> tensor<4xf64>
  %1 = hlo.convert %0 : (tensor<4xf64>) -> tensor<4xi8>
  return %1 : tensor<4xi8>
}
