// RUN: example-opt --list-passes | FileCheck %s
// RUN: example-opt --version | FileCheck %s --check-prefix=VERSION
// RUN: not example-opt %s --passes=no-such-pass 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// The tool lists rxla's passes and the downstream group, under its own name.

// CHECK: Rust passes
// CHECK: algsimp
// CHECK: Example passes:
// CHECK-NEXT: example-expand-double  Rewrite example.double(x) as hlo.add(x, x)

// VERSION: example-opt
// UNKNOWN: example-opt: error: unknown pass 'no-such-pass'
