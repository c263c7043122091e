// RUN: hlo-opt %s --split-input-file --passes=xla-inline | FileCheck %s

// A function with one call site is inlined (and then erased); so is a
// small one called twice. A bigger function called at two sites stays a
// function, called as before.
// CHECK-LABEL: module
// CHECK-NOT:     func.func private @once
// CHECK-NOT:     func.func private @small
// CHECK:         func.func private @big
// CHECK-LABEL:   func.func @kernel
// CHECK:           %[[M:.*]] = arith.mulf %arg0, %arg0
// CHECK:           %[[A:.*]] = arith.addf %[[M]], %[[M]]
// CHECK:           arith.addf %[[A]], %[[A]]
// CHECK:           xla.pure_call @big(
// CHECK:           xla.pure_call @big(
// CHECK-NOT:       xla.pure_call @small
// CHECK-NOT:       xla.pure_call @once
func.func private @once(%x: f32) -> f32 {
  %y = arith.mulf %x, %x : f32
  return %y : f32
}
func.func private @small(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  return %y : f32
}
func.func private @big(%x: f32) -> f32 {
  %a = arith.addf %x, %x : f32
  %b = arith.mulf %a, %x : f32
  %c = arith.subf %b, %a : f32
  %d = arith.mulf %c, %c : f32
  %e = arith.addf %d, %b : f32
  %f = arith.mulf %e, %a : f32
  %g = arith.subf %f, %d : f32
  %h = arith.addf %g, %c : f32
  return %h : f32
}
func.func @kernel(%x: f32) -> f32 {
  %0 = xla.pure_call @once(%x) : (f32) -> f32
  %1 = xla.pure_call @small(%0) : (f32) -> f32
  %2 = xla.pure_call @small(%1) : (f32) -> f32
  %3 = xla.pure_call @big(%2) : (f32) -> f32
  %4 = xla.pure_call @big(%3) : (f32) -> f32
  return %4 : f32
}
