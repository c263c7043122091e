// --mlir-print-ir-after-all prints the module after every pass, Rust and
// upstream alike, to stderr; the result still goes to stdout.
// RUN: hlo-opt %s --passes=dce,canonicalize --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s
// RUN: hlo-opt %s --passes=dce --mlir-print-ir-before-all 2>&1 >/dev/null | FileCheck %s --check-prefix=BEFORE
// RUN: hlo-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: hlo-opt %s -o %t && FileCheck %s --check-prefix=FILE < %t
// RUN: cat %s | hlo-opt - | FileCheck %s --check-prefix=FILE

// CHECK: IR Dump After dce (dce)
// CHECK: hlo.negate
// CHECK: IR Dump After Canonicalizer (canonicalize)
// BEFORE: IR Dump Before dce (dce)
// GENERIC: "hlo.negate"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
// FILE: %0 = hlo.negate %arg0 : tensor<2xf32>
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> attributes {hlo.entry} {
  %0 = hlo.negate %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}
