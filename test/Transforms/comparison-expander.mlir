// RUN: hlo-opt %s --split-input-file --passes=comparison-expander | FileCheck %s
// RUN: hlo-opt %s --split-input-file --passes='comparison-expander{upcast-bf16=true}' | FileCheck %s --check-prefix=UPCAST

// A TOTALORDER compare of f32 becomes a SIGNED compare of s32 keys:
// x = bitcast(f), key = x < 0 ? (INT32_MAX ^ x) : x, for both operands.
// CHECK-LABEL: func.func @total_order_f32
// CHECK-NEXT:    %[[Z:.*]] = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %[[ZERO:.*]] = hlo.broadcast %[[Z]], dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[M:.*]] = hlo.constant dense<2147483647> : tensor<i32>
// CHECK-NEXT:    %[[MAX:.*]] = hlo.broadcast %[[M]], dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[A:.*]] = hlo.bitcast_convert %arg0 : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[AF:.*]] = hlo.xor %[[MAX]], %[[A]] : tensor<4xi32>
// CHECK-NEXT:    %[[AN:.*]] = hlo.compare LT, %[[A]], %[[ZERO]] : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK-NEXT:    %[[AK:.*]] = hlo.select %[[AN]], %[[AF]], %[[A]]
// CHECK-NEXT:    %[[B:.*]] = hlo.bitcast_convert %arg1 : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[BF:.*]] = hlo.xor %[[MAX]], %[[B]] : tensor<4xi32>
// CHECK-NEXT:    %[[BN:.*]] = hlo.compare LT, %[[B]], %[[ZERO]]
// CHECK-NEXT:    %[[BK:.*]] = hlo.select %[[BN]], %[[BF]], %[[B]]
// CHECK-NEXT:    %[[R:.*]] = hlo.compare LT, %[[AK]], %[[BK]], SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK-NEXT:    return %[[R]]
func.func @total_order_f32(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %0 = hlo.compare LT, %a, %b, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// bf16 keys are s16 (the direction is kept). With upcast-bf16 the operands
// are converted to f32 first and the keys are s32.
// CHECK-LABEL: func.func @scalar_bf16
// CHECK:         hlo.constant dense<32767> : tensor<i16>
// CHECK:         hlo.bitcast_convert %arg0 : (tensor<bf16>) -> tensor<i16>
// CHECK:         hlo.bitcast_convert %arg1 : (tensor<bf16>) -> tensor<i16>
// CHECK:         hlo.compare GE, %{{.*}}, %{{.*}}, SIGNED : (tensor<i16>, tensor<i16>) -> tensor<i1>
// UPCAST-LABEL:  func.func @scalar_bf16
// UPCAST-NEXT:     %[[A:.*]] = hlo.convert %arg0 : (tensor<bf16>) -> tensor<f32>
// UPCAST-NEXT:     %[[B:.*]] = hlo.convert %arg1 : (tensor<bf16>) -> tensor<f32>
// UPCAST:          hlo.bitcast_convert %[[A]] : (tensor<f32>) -> tensor<i32>
// UPCAST:          hlo.bitcast_convert %[[B]] : (tensor<f32>) -> tensor<i32>
// UPCAST:          hlo.compare GE, %{{.*}}, %{{.*}}, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
func.func @scalar_bf16(%a: tensor<bf16>, %b: tensor<bf16>) -> tensor<i1> {
  %0 = hlo.compare GE, %a, %b, TOTALORDER : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
  return %0 : tensor<i1>
}

// -----

// f64 keys are s64; f8E4M3FN keys are s8.
// CHECK-LABEL: func.func @f64_and_f8
// CHECK:         hlo.constant dense<9223372036854775807> : tensor<i64>
// CHECK:         hlo.compare EQ, %{{.*}}, %{{.*}}, SIGNED : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi1>
// CHECK:         hlo.constant dense<127> : tensor<i8>
// CHECK:         hlo.compare NE, %{{.*}}, %{{.*}}, SIGNED : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi1>
func.func @f64_and_f8(%a: tensor<2xf64>, %b: tensor<2xf8E4M3FN>) -> (tensor<2xi1>, tensor<2xi1>) {
  %0 = hlo.compare EQ, %a, %a, TOTALORDER : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
  %1 = hlo.compare NE, %b, %b, TOTALORDER : (tensor<2xf8E4M3FN>, tensor<2xf8E4M3FN>) -> tensor<2xi1>
  return %0, %1 : tensor<2xi1>, tensor<2xi1>
}

// -----

// Must not fire: FLOAT (default) compares, integer compares, and the FNUZ
// formats (whose NaN XLA's expansion orders differently from rxla).
// CHECK-LABEL: func.func @untouched
// CHECK-NEXT:    hlo.compare LT, %arg0, %arg1 :
// CHECK-NEXT:    hlo.compare LT, %arg2, %arg2, TOTALORDER :
// CHECK-NEXT:    hlo.compare LT, %arg3, %arg3, SIGNED :
// CHECK-NEXT:    return
func.func @untouched(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf8E4M3FNUZ>, %i: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = hlo.compare LT, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = hlo.compare LT, %c, %c, TOTALORDER : (tensor<4xf8E4M3FNUZ>, tensor<4xf8E4M3FNUZ>) -> tensor<4xi1>
  %2 = hlo.compare LT, %i, %i, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}
