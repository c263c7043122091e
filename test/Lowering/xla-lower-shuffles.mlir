// RUN: hlo-opt %s --passes=xla-lower-shuffles | FileCheck %s

// A warp reduction to distance 2: shuffles down by 2, then 1, each
// followed by a call of the combiner on (own value, shuffled value). A
// 32-bit float is shuffled as its bits.
// CHECK-LABEL: func.func @warp
// CHECK-DAG:     %[[D2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[ALL:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[CLAMP:.*]] = arith.constant 31 : i32
// CHECK:         %[[BITS:.*]] = arith.bitcast %arg0 : f32 to i32
// CHECK:         %[[S:.*]] = nvvm.shfl.sync  down %[[ALL]], %[[BITS]], %[[D2]], %[[CLAMP]] : i32 -> i32
// CHECK:         %[[F:.*]] = arith.bitcast %[[S]] : i32 to f32
// CHECK:         %[[R2:.*]] = call @add(%arg0, %[[F]])
// CHECK:         nvvm.shfl.sync  down
// CHECK:         %[[R1:.*]] = call @add(%[[R2]], %{{.*}})
// A variadic reduction (argmax over f64 values and i8 indices): the f64
// moves as two 32-bit halves, the i8 widened to 32 bits.
// CHECK:         %[[V:.*]] = arith.bitcast %arg1 : f64 to i64
// CHECK:         %[[LO:.*]] = arith.trunci %[[V]] : i64 to i32
// CHECK:         %[[HI64:.*]] = arith.shrui %[[V]], %{{.*}} : i64
// CHECK:         %[[HI:.*]] = arith.trunci %[[HI64]] : i64 to i32
// CHECK:         nvvm.shfl.sync  down %{{.*}}, %[[LO]]
// CHECK:         nvvm.shfl.sync  down %{{.*}}, %[[HI]]
// CHECK:         %[[W:.*]] = arith.extui %arg2 : i8 to i32
// CHECK:         %[[WS:.*]] = nvvm.shfl.sync  down %{{.*}}, %[[W]]
// CHECK:         %[[N:.*]] = arith.trunci %[[WS]] : i32 to i8
// CHECK:         %[[M:.*]]:2 = call @argmax(%arg1, %arg2, %{{.*}}, %[[N]])
// CHECK:         return %[[R1]], %[[M]]#0, %[[M]]#1
// CHECK-NOT:     xla_gpu.shuffle_reduce
func.func private @add(%a: f32, %b: f32) -> f32 {
  %s = arith.addf %a, %b : f32
  return %s : f32
}
func.func private @argmax(%v: f64, %i: i8, %w: f64, %j: i8) -> (f64, i8) {
  %gt = arith.cmpf ogt, %v, %w : f64
  %m = arith.select %gt, %v, %w : f64
  %k = arith.select %gt, %i, %j : i8
  return %m, %k : f64, i8
}
func.func @warp(%x: f32, %v: f64, %i: i8) -> (f32, f64, i8) {
  %r = xla_gpu.shuffle_reduce(%x) to 2 combiner=@add : f32
  %m:2 = xla_gpu.shuffle_reduce(%v, %i) to 1 combiner=@argmax : f64, i8
  return %r, %m#0, %m#1 : f32, f64, i8
}
