// RUN: hlo-opt %s --split-input-file --passes=xla-inline | FileCheck %s

// A function with one call site is inlined (and then erased); so is a
// small one called twice (up to 24 ops). A bigger function called at two
// sites stays a function, called as before.
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
  %v0 = arith.addf %x, %x : f32
  %v1 = arith.mulf %v0, %x : f32
  %v2 = arith.subf %v1, %x : f32
  %v3 = arith.addf %v2, %x : f32
  %v4 = arith.mulf %v3, %x : f32
  %v5 = arith.subf %v4, %x : f32
  %v6 = arith.addf %v5, %x : f32
  %v7 = arith.mulf %v6, %x : f32
  %v8 = arith.subf %v7, %x : f32
  %v9 = arith.addf %v8, %x : f32
  %v10 = arith.mulf %v9, %x : f32
  %v11 = arith.subf %v10, %x : f32
  %v12 = arith.addf %v11, %x : f32
  %v13 = arith.mulf %v12, %x : f32
  %v14 = arith.subf %v13, %x : f32
  %v15 = arith.addf %v14, %x : f32
  %v16 = arith.mulf %v15, %x : f32
  %v17 = arith.subf %v16, %x : f32
  %v18 = arith.addf %v17, %x : f32
  %v19 = arith.mulf %v18, %x : f32
  %v20 = arith.subf %v19, %x : f32
  %v21 = arith.addf %v20, %x : f32
  %v22 = arith.mulf %v21, %x : f32
  %v23 = arith.subf %v22, %x : f32
  %v24 = arith.addf %v23, %x : f32
  %v25 = arith.mulf %v24, %x : f32
  return %v25 : f32
}
func.func @kernel(%x: f32) -> f32 {
  %0 = xla.pure_call @once(%x) : (f32) -> f32
  %1 = xla.pure_call @small(%0) : (f32) -> f32
  %2 = xla.pure_call @small(%1) : (f32) -> f32
  %3 = xla.pure_call @big(%2) : (f32) -> f32
  %4 = xla.pure_call @big(%3) : (f32) -> f32
  return %4 : f32
}
