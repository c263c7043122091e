// Malformed and invalid input: a located diagnostic and a non-zero exit,
// never a crash.
// RUN: not hlo-opt %s --split-input-file 2>&1 | FileCheck %s -DFILE=%s
// RUN: not hlo-opt %t.does-not-exist 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not hlo-opt --no-such-flag 2>&1 | FileCheck %s --check-prefix=FLAG

// CHECK: [[FILE]]:[[@LINE+2]]:8: error: custom op 'hlo.no_such_op' is unknown
func.func @unknown_op(%a: tensor<f32>) -> tensor<f32> {
  %0 = hlo.no_such_op %a : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CHECK: [[FILE]]:[[@LINE+2]]:8: error: 'hlo.add' op all non-scalar operands/results must have the same shape
func.func @verifier(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  %0 = "hlo.add"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// The chunk after a bad one is still processed and printed.
// CHECK: [[FILE]]:[[@LINE+1]]:{{[0-9]+}}: error: expected ')'
func.func @syntax(%a: tensor<f32> -> tensor<f32> {
  return %a : tensor<f32>
}

// MISSING: hlo-opt: error: cannot read '{{.*}}does-not-exist'
// FLAG: error: unexpected argument '--no-such-flag'
