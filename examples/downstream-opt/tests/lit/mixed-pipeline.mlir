// RUN: example-opt %s --passes=example-expand-double,algsimp,cse | FileCheck %s
// RUN: example-opt %s -pass-pipeline='builtin.module(example-expand-double,canonicalize)' | FileCheck %s --check-prefix=NESTED

// The downstream pass runs in one pipeline with rxla's Rust passes and
// upstream MLIR passes. The two doubles of the same value become one add
// after cse; the non-tensor op is left alone (hlo ops take tensors).

// CHECK-LABEL: func.func @twice
// CHECK:         %[[A:.*]] = hlo.add %arg0, %arg0
// CHECK-NOT:     hlo.add
// CHECK:         hlo.multiply %[[A]], %[[A]]
func.func @twice(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "example.double"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "example.double"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = hlo.multiply %0, %1 : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// NESTED-LABEL: func.func @scalar
// NESTED:         "example.double"(%arg0) : (f32) -> f32
func.func @scalar(%x: f32) -> f32 {
  %0 = "example.double"(%x) : (f32) -> f32
  return %0 : f32
}
