// RUN: hlo-opt %s --split-input-file --passes='xla-expand-math{target=gpu}' | FileCheck %s

// On the GPU the transcendental functions are libdevice calls (`__nv_` +
// the C name: f32 and f64 alike), linked in by the NVPTX code generation,
// except f32 tanh and erf (in-house, branch-free); fpowi calls libdevice's
// powi (PTX has no C library); f16 is computed in f32; exact operations
// stay for LLVM's NVPTX instructions.
// CHECK-DAG:   func.func private @__nv_expf(f32) -> f32
// CHECK-DAG:   func.func private @__nv_tanh(f64) -> f64
// CHECK-DAG:   func.func private @__nv_atan2f(f32, f32) -> f32
// CHECK-DAG:   func.func private @__nv_powif(f32, i32) -> f32
// CHECK-DAG:   func.func private @__nv_logf(f32) -> f32
// CHECK-NOT:   @__nv_tanhf
// CHECK-LABEL: func.func @gpu_math
// CHECK:         %[[E:.*]] = call @__nv_expf(%arg0) : (f32) -> f32
// CHECK:         %[[T:.*]] = call @__nv_tanh(%arg1) : (f64) -> f64
// CHECK:         %[[A:.*]] = call @__nv_atan2f(%[[E]], %arg0) : (f32, f32) -> f32
// CHECK:         %[[P:.*]] = call @__nv_powif(%[[A]], %arg2) : (f32, i32) -> f32
// CHECK:         %[[H:.*]] = arith.extf %arg3 : f16 to f32
// CHECK:         %[[L:.*]] = call @__nv_logf(%[[H]]) : (f32) -> f32
// CHECK:         arith.truncf %[[L]] : f32 to f16
// CHECK:         math.sqrt %[[P]] : f32
// CHECK-NOT:     call @__nv_tanhf
// CHECK:         math.fma
// CHECK:         return
func.func @gpu_math(%x: f32, %y: f64, %n: i32, %h: f16) -> (f32, f64, f16, f32) {
  %e = math.exp %x : f32
  %t = math.tanh %y : f64
  %a = math.atan2 %e, %x : f32
  %p = math.fpowi %a, %n : f32, i32
  %l = math.log %h : f16
  %s = math.sqrt %p : f32
  %th = math.tanh %s : f32
  return %s, %t, %l, %th : f32, f64, f16, f32
}

// -----

// `arith.remf` calls libdevice's fmod on the GPU (LLVM's NVPTX `frem` is
// `x - trunc(x / y) * y`: inexact for large quotients, and an infinity
// where fmod(-inf, y) is NaN); f16 is computed in f32, where it is exact.
// CHECK-DAG:   func.func private @__nv_fmodf(f32, f32) -> f32
// CHECK-DAG:   func.func private @__nv_fmod(f64, f64) -> f64
// CHECK-LABEL: func.func @gpu_remf
// CHECK:         call @__nv_fmodf(%arg0, %arg1) : (f32, f32) -> f32
// CHECK:         call @__nv_fmod(%arg2, %arg3) : (f64, f64) -> f64
// CHECK:         %[[A:.*]] = arith.extf %arg4 : f16 to f32
// CHECK:         %[[B:.*]] = arith.extf %arg5 : f16 to f32
// CHECK:         %[[R:.*]] = call @__nv_fmodf(%[[A]], %[[B]]) : (f32, f32) -> f32
// CHECK:         arith.truncf %[[R]] : f32 to f16
// CHECK-NOT:     arith.remf
func.func @gpu_remf(%x: f32, %y: f32, %a: f64, %b: f64, %h: f16, %k: f16) -> (f32, f64, f16) {
  %r = arith.remf %x, %y : f32
  %s = arith.remf %a, %b : f64
  %t = arith.remf %h, %k : f16
  return %r, %s, %t : f32, f64, f16
}
