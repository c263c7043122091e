// RUN: hlo-opt %s --passes='dce{remove-dead-computations=false}' | FileCheck %s
// RUN: not hlo-opt %s --passes='dce{bogus=1}' 2>&1 | FileCheck %s --check-prefix=BAD

// With remove-dead-computations=false only instructions are removed.
// CHECK-LABEL: func.func @orphan
// CHECK-LABEL: func.func @main
// CHECK-NOT:     hlo.negate
// BAD: pass 'dce' has no option 'bogus' (options: remove-dead-computations)
func.func @orphan(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}
func.func @main(%a: tensor<f32>) -> tensor<f32> attributes {hlo.entry} {
  %0 = hlo.negate %a : tensor<f32>
  return %a : tensor<f32>
}
