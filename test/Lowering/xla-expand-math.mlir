// RUN: hlo-opt %s --split-input-file --passes=xla-expand-math | FileCheck %s

// f64 transcendental functions call the C library (declared once per
// module, as pure functions: LLVM must not assume they write errno, or it
// would not hoist or remove calls); exact operations stay for LLVM's
// instructions.
// CHECK-LABEL: module
// CHECK:         func.func private @tanh(f64) -> f64 attributes {passthrough = {{\[}}["memory", "0"], "nounwind", "willreturn"]}
// CHECK-LABEL:   func.func @f64_functions
// CHECK:           %[[T:.*]] = call @tanh(%arg0) : (f64) -> f64
// CHECK:           %[[U:.*]] = call @tanh(%[[T]]) : (f64) -> f64
// CHECK:           math.sqrt %[[U]] : f64
func.func @f64_functions(%x: f64) -> f64 {
  %t = math.tanh %x : f64
  %u = math.tanh %t : f64
  %s = math.sqrt %u : f64
  return %s : f64
}

// -----

// Half-precision math is computed in f32 and rounded back.
// CHECK-LABEL: func.func @half
// CHECK:         %[[W:.*]] = arith.extf %arg0 : f16 to f32
// CHECK:         %[[S:.*]] = math.sqrt %[[W]] : f32
// CHECK:         arith.truncf %[[S]] : f32 to f16
func.func @half(%x: f16) -> f16 {
  %s = math.sqrt %x : f16
  return %s : f16
}

// -----

// Predicates compare the magnitude; rsqrt is a division of a square root.
// CHECK-LABEL: func.func @predicates
// CHECK:         %[[A:.*]] = math.absf %arg0 : f32
// CHECK:         %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK:         %[[FIN:.*]] = arith.cmpf olt, %[[A]], %[[INF]] : f32
// CHECK:         %[[NAN:.*]] = arith.cmpf uno, %arg0, %arg0 : f32
// CHECK:         %[[S:.*]] = math.sqrt %arg0 : f32
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         arith.divf %[[ONE]], %[[S]] : f32
func.func @predicates(%x: f32) -> (i1, i1, f32) {
  %f = math.isfinite %x : f32
  %n = math.isnan %x : f32
  %r = math.rsqrt %x : f32
  return %f, %n, %r : i1, i1, f32
}

// -----

// Integer powers by squaring, in a loop.
// CHECK-LABEL: func.func @ipowi
// CHECK:         scf.while
// CHECK:           arith.muli
// CHECK:           arith.shrsi
// CHECK-NOT:     math.ipowi
func.func @ipowi(%x: i32, %n: i32) -> i32 {
  %p = math.ipowi %x, %n : i32
  return %p : i32
}

// -----

// The hot f32 functions are in-house branch-free code (range reduction and
// a polynomial in fma: no call, so loops using them vectorize); sin keeps
// the C library.
// CHECK-LABEL: module
// CHECK:         func.func private @sinf(f32) -> f32 attributes {passthrough
// CHECK-NOT:     @expf
// CHECK-LABEL:   func.func @f32_in_house
// CHECK-NOT:       call @expf
// CHECK:           %[[K:.*]] = math.fma %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK:           arith.bitcast %[[K]] : f32 to i32
// CHECK:           math.fma
// CHECK:           %[[E:.*]] = math.fma %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK:           call @sinf(%{{.*}}) : (f32) -> f32
func.func @f32_in_house(%x: f32) -> f32 {
  %e = math.exp %x : f32
  %s = math.sin %e : f32
  return %s : f32
}

// -----

// On vectors (a lane loop the vectorizer rewrote), rsqrt is the same
// division of the exact root, lane by lane.
// CHECK-LABEL: func.func @vector_rsqrt
// CHECK:         %[[S:.*]] = math.sqrt %arg0 : vector<8xf32>
// CHECK:         %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<8xf32>
// CHECK:         arith.divf %[[ONE]], %[[S]] : vector<8xf32>
// CHECK-NOT:     math.rsqrt
func.func @vector_rsqrt(%x: vector<8xf32>) -> vector<8xf32> {
  %r = math.rsqrt %x : vector<8xf32>
  return %r : vector<8xf32>
}
