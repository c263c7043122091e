// Smoke test: hlo-opt parses and prints an hlo function.
// RUN: hlo-opt %s | FileCheck %s

// CHECK-LABEL: func.func @f
// CHECK: hlo.add
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = hlo.add %a, %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}
