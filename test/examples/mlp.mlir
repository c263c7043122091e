// The README's main job: verify the bundled MLP and clean it up with the
// HLO passes.
// RUN: hlo-opt %S/../../examples/mlp.mlir --passes=tuple-simplifier,dce,cse | FileCheck %s

// CHECK-LABEL: func.func @max_f32
// CHECK-LABEL: func.func @add_f32
// CHECK-NOT:   func.func @unused_computation
// CHECK-LABEL: func.func @main
// CHECK-NOT:     hlo.tuple
// CHECK-NOT:     hlo.get_tuple_element
// CHECK:         %[[ZERO:.*]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK:         %[[RELU:.*]] = hlo.maximum
// CHECK-NEXT:    hlo.dot %[[RELU]], %arg3
// CHECK:         hlo.reduce %{{.*}}, %[[ZERO]] {dimensions = array<i64: 1>, to_apply = @add_f32}
// CHECK:         %[[P:.*]] = hlo.divide
// CHECK-NEXT:    return %[[P]] : tensor<8x4xf32>
