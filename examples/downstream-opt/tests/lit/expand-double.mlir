// RUN: example-opt %s --passes=example-expand-double | FileCheck %s
// RUN: example-opt %s --passes=example-expand-double --emit=hlo | FileCheck %s --check-prefix=HLO

// The downstream op parses and verifies, and the downstream pass rewrites it
// into rxla's hlo ops, which rxla's exporter then prints as HLO text.

// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[X:.*]]: tensor<4xf32>)
// CHECK:         %[[SUM:.*]] = hlo.add %[[X]], %[[X]] : tensor<4xf32>
// CHECK-NOT:     example.double
// CHECK:         return %[[SUM]]

// HLO: ENTRY
// HLO: ROOT {{.*}} = f32[4]{0} add(%[[ARG:.*]], %[[ARG]])
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "example.double"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
