// RUN: hlo-opt %s --passes=inline | FileCheck %s

// MLIR's inliner on xla.pure_call (XlaInlinerInterface, XlaDialect.cpp): a
// callee with one call is always inlined (it is moved, not cloned); a callee
// called several times is inlined only when it is small (at most 8 ops) or
// calls a function its caller also calls, so that functions the partitioner
// outlined to emit them once stay outlined. Calls inside xla.loop bodies
// are inlined like any other.

func.func private @small(%a: f32, %b: f32) -> f32 {
  %0 = arith.addf %a, %b : f32
  return %0 : f32
}

func.func private @once(%a: f32) -> f32 {
  %0 = arith.mulf %a, %a : f32
  return %0 : f32
}

// CHECK-LABEL: func.func private @big(
// CHECK-COUNT-9: arith.mulf
func.func private @big(%a: f32) -> f32 {
  %0 = arith.mulf %a, %a : f32
  %1 = arith.mulf %0, %a : f32
  %2 = arith.mulf %1, %a : f32
  %3 = arith.mulf %2, %a : f32
  %4 = arith.mulf %3, %a : f32
  %5 = arith.mulf %4, %a : f32
  %6 = arith.mulf %5, %a : f32
  %7 = arith.mulf %6, %a : f32
  %8 = arith.mulf %7, %a : f32
  return %8 : f32
}

// CHECK-NOT: @small
// CHECK-NOT: @once
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:.*]]: f32, %[[T:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[X]], %[[X]] : f32
// CHECK-NEXT: %[[B:.*]] = arith.addf %[[A]], %[[X]] : f32
// CHECK-NEXT: %[[C:.*]] = xla.pure_call @big(%[[B]]) : (f32) -> f32
// CHECK-NEXT: %[[D:.*]] = xla.pure_call @big(%[[C]]) : (f32) -> f32
// CHECK-NEXT: xla.loop ()[%{{.*}}] -> (%[[RA:.*]]) in #{{.*}} iter_args(%[[ITER:.*]] = %[[T]]) -> (tensor<4xf32>) {
// CHECK-NEXT: %[[E:.*]] = arith.mulf %[[D]], %[[D]] : f32
// CHECK-NEXT: tensor.insert %[[E]] into %[[ITER]][%[[RA]]] : tensor<4xf32>
func.func @main(%x: f32, %t: tensor<4xf32>) -> (f32, tensor<4xf32>) {
  %a = xla.pure_call @small(%x, %x) : (f32, f32) -> f32
  %b = xla.pure_call @small(%a, %x) : (f32, f32) -> f32
  %c = xla.pure_call @big(%b) : (f32) -> f32
  %d = xla.pure_call @big(%c) : (f32) -> f32
  %r = xla.loop ()[%i] -> (%ra) in #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 3]"> iter_args(%iter = %t) -> (tensor<4xf32>) {
    %e = xla.pure_call @once(%d) : (f32) -> f32
    %n = tensor.insert %e into %iter[%ra] : tensor<4xf32>
    xla.yield %n : tensor<4xf32>
  }
  return %d, %r : f32, tensor<4xf32>
}

// @uses_big is large and called twice, but it calls @big, which its caller
// calls as well: both calls are inlined.

func.func private @uses_big(%a: f32) -> f32 {
  %0 = xla.pure_call @big(%a) : (f32) -> f32
  %1 = arith.addf %0, %a : f32
  %2 = arith.addf %1, %a : f32
  %3 = arith.addf %2, %a : f32
  %4 = arith.addf %3, %a : f32
  %5 = arith.addf %4, %a : f32
  %6 = arith.addf %5, %a : f32
  %7 = arith.addf %6, %a : f32
  %8 = arith.addf %7, %a : f32
  return %8 : f32
}

// CHECK-NOT: @uses_big
// CHECK-LABEL: func.func @shares_callee(
// CHECK: xla.pure_call @big
// CHECK: xla.pure_call @big
// CHECK-COUNT-8: arith.addf
// CHECK: xla.pure_call @big
// CHECK-COUNT-8: arith.addf
// CHECK-NOT: xla.pure_call
// CHECK: return
func.func @shares_callee(%x: f32) -> f32 {
  %a = xla.pure_call @big(%x) : (f32) -> f32
  %b = xla.pure_call @uses_big(%a) : (f32) -> f32
  %c = xla.pure_call @uses_big(%b) : (f32) -> f32
  return %c : f32
}
