// RUN: hlo-opt %s --passes=xla-contract-float-ops | FileCheck %s

// Float adds, subtracts and multiplies (scalar and vector) may contract into
// FMAs; a reducer's reassoc stays; integer ops and divisions are left alone.
// CHECK-LABEL: func.func @ops
// CHECK:         arith.mulf %arg0, %arg1 fastmath<contract> : f32
// CHECK:         arith.addf %{{.*}}, %arg2 fastmath<contract> : f32
// CHECK:         arith.subf %{{.*}}, %arg0 fastmath<reassoc,contract> : f32
// CHECK:         arith.divf %{{.*}}, %arg1 : f32
// CHECK:         arith.mulf %arg3, %arg3 fastmath<contract> : vector<8xf16>
// CHECK:         arith.addi %arg4, %arg4 : i32
func.func @ops(%a: f32, %b: f32, %c: f32, %v: vector<8xf16>, %i: i32) -> (f32, vector<8xf16>, i32) {
  %0 = arith.mulf %a, %b : f32
  %1 = arith.addf %0, %c : f32
  %2 = arith.subf %1, %a fastmath<reassoc> : f32
  %3 = arith.divf %2, %b : f32
  %4 = arith.mulf %v, %v : vector<8xf16>
  %5 = arith.addi %i, %i : i32
  return %3, %4, %5 : f32, vector<8xf16>, i32
}
