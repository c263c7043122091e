// RUN: hlo-opt --list-passes | FileCheck %s

// Every Rust pass is listed with its one-line description.
// CHECK: Rust passes
// CHECK-DAG: {{^  }}dce{{ +}}Remove unused side-effect-free instructions
// CHECK-DAG: {{^  }}tuple-simplifier{{ +}}Forward get_tuple_element
// CHECK: Upstream MLIR passes are accepted
