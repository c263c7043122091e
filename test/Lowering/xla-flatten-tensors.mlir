// RUN: hlo-opt %s --split-input-file --passes=xla-flatten-tensors | FileCheck %s

// Every tensor becomes one-dimensional: arguments, loop-carried values and
// results; the indices of accesses are linearized row-major (the tensor
// `tensor<2x3x4xf32>` has strides 12, 4, 1), a rank-0 tensor is
// `tensor<1xT>` read at 0, and dense constants are reshaped.
// CHECK:       #[[LIN:.*]] = #xla.indexing_map<"(d0, d1, d2) -> (d0 * 12 + d1 * 4 + d2), domain: d0 in [0, 1], d1 in [0, 2], d2 in [0, 3]">
// CHECK-LABEL: func.func @flatten
// CHECK-SAME:    (%[[IN:.*]]: tensor<24xf32>, %[[S:.*]]: tensor<1xf32>, %[[OUT:.*]]: tensor<24xf32>, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index) -> tensor<24xf32>
// CHECK:         %[[CST:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK:         %[[I:.*]] = xla.apply_indexing #[[LIN]](%arg3, %arg4, %arg5)
// CHECK:         tensor.extract %[[IN]][%[[I]]] : tensor<24xf32>
// CHECK:         %[[Z:.*]] = arith.constant 0 : index
// CHECK:         tensor.extract %[[S]][%[[Z]]] : tensor<1xf32>
// CHECK:         tensor.extract %[[CST]][%{{.*}}] : tensor<4xf32>
// CHECK:         scf.for {{.*}} iter_args(%[[T:.*]] = %[[OUT]]) -> (tensor<24xf32>)
// CHECK:           tensor.insert %{{.*}} into %[[T]][%{{.*}}] : tensor<24xf32>
func.func @flatten(%in: tensor<2x3x4xf32>, %s: tensor<f32>, %out: tensor<2x3x4xf32>, %i: index, %j: index, %k: index) -> tensor<2x3x4xf32> {
  %cst = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %x = tensor.extract %in[%i, %j, %k] : tensor<2x3x4xf32>
  %y = tensor.extract %s[] : tensor<f32>
  %c1 = arith.constant 1 : index
  %z = tensor.extract %cst[%c1, %c1] : tensor<2x2xf32>
  %sum = arith.addf %x, %y : f32
  %sum2 = arith.addf %sum, %z : f32
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %v = %c0 to %c2 step %c1 iter_args(%t = %out) -> (tensor<2x3x4xf32>) {
    %t2 = tensor.insert %sum2 into %t[%v, %j, %k] : tensor<2x3x4xf32>
    scf.yield %t2 : tensor<2x3x4xf32>
  }
  return %r : tensor<2x3x4xf32>
}
