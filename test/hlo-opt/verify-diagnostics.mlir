// --verify-diagnostics passes when every diagnostic is expected and every
// expectation is met, and names each mismatch otherwise.
// RUN: hlo-opt %s --split-input-file --verify-diagnostics
// RUN: sed 's/same type for all/SOMETHING ELSE/' %s > %t.mlir
// RUN: not hlo-opt %t.mlir --split-input-file --verify-diagnostics 2>&1 | FileCheck %s

// CHECK-DAG: unexpected error: 'hlo.add' op requires the same type for all operands and results
// CHECK-DAG: expected error "'hlo.add' op requires the SOMETHING ELSE operands and results" on line {{[0-9]+}} was not produced

func.func @a(%x: tensor<2xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{'hlo.add' op requires the same type for all operands and results}}
  %0 = "hlo.add"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @b(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = hlo.negate %x : tensor<2xf32>
  // expected-error @below {{custom op 'hlo.bogus' is unknown}}
  %1 = hlo.bogus %x : tensor<2xf32>
  return %1 : tensor<2xf32>
}
