// RUN: hlo-opt %s --split-input-file --passes=float-normalization | FileCheck %s

// f8 arithmetic computes in f16: operands converted up, an f8 result
// converted back; a compare keeps its pred result.
// CHECK-LABEL: func.func @arith
// CHECK-NEXT:    %[[A:.*]] = hlo.convert %arg0 : (tensor<8xf8E4M3FN>) -> tensor<8xf16>
// CHECK-NEXT:    %[[B:.*]] = hlo.convert %arg1 : (tensor<8xf8E4M3FN>) -> tensor<8xf16>
// CHECK-NEXT:    %[[S:.*]] = hlo.add %[[A]], %[[B]] : tensor<8xf16>
// CHECK-NEXT:    %[[R:.*]] = hlo.convert %[[S]] : (tensor<8xf16>) -> tensor<8xf8E4M3FN>
// CHECK-NEXT:    %[[C:.*]] = hlo.convert %arg0 : (tensor<8xf8E4M3FN>) -> tensor<8xf16>
// CHECK-NEXT:    %[[D:.*]] = hlo.convert %arg1 : (tensor<8xf8E4M3FN>) -> tensor<8xf16>
// CHECK-NEXT:    %[[G:.*]] = hlo.compare GT, %[[C]], %[[D]]
// CHECK-NEXT:    return %[[R]], %[[G]]
func.func @arith(%a: tensor<8xf8E4M3FN>, %b: tensor<8xf8E4M3FN>) -> (tensor<8xf8E4M3FN>, tensor<8xi1>) {
  %0 = hlo.add %a, %b : tensor<8xf8E4M3FN>
  %1 = hlo.compare GT, %a, %b : (tensor<8xf8E4M3FN>, tensor<8xf8E4M3FN>) -> tensor<8xi1>
  return %0, %1 : tensor<8xf8E4M3FN>, tensor<8xi1>
}

// -----

// Conversions, data movement and other types are left alone.
// CHECK-LABEL: func.func @unchanged
// CHECK-NEXT:    hlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xf8E5M2>
// CHECK-NEXT:    hlo.select
// CHECK-NEXT:    hlo.add %arg0, %arg0 : tensor<8xf32>
// CHECK-NEXT:    return
func.func @unchanged(%x: tensor<8xf32>, %p: tensor<8xi1>, %e: tensor<8xf8E5M2>) -> (tensor<8xf8E5M2>, tensor<8xf32>) {
  %0 = hlo.convert %x : (tensor<8xf32>) -> tensor<8xf8E5M2>
  %1 = hlo.select %p, %0, %e : (tensor<8xi1>, tensor<8xf8E5M2>, tensor<8xf8E5M2>) -> tensor<8xf8E5M2>
  %2 = hlo.add %x, %x : tensor<8xf32>
  return %1, %2 : tensor<8xf8E5M2>, tensor<8xf32>
}
