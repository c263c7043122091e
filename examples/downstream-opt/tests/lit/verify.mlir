// RUN: example-opt %s --split-input-file --verify-diagnostics
// RUN: not example-opt %s --split-input-file 2>&1 | FileCheck %s

// The IRDL constraints are checked by MLIR's verifier: one type variable
// for the operand and the result.

func.func @mismatch(%x: tensor<2xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{expected 'tensor<2xf32>' but got 'tensor<2xi32>'}}
  %0 = "example.double"(%x) : (tensor<2xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @arity(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{expects exactly 1 operands, but got 2}}
  %0 = "example.double"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK: verify.mlir:9:8: error: expected 'tensor<2xf32>' but got 'tensor<2xi32>'
// CHECK: verify.mlir:17:8: error: op expects exactly 1 operands, but got 2
