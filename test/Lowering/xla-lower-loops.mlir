// RUN: hlo-opt %s --split-input-file --passes=xla-lower-loops | FileCheck %s

// An xla.loop becomes one scf.for per range variable (bounds from the
// variable's interval), the constraint a guard and the map's results an
// xla.apply_indexing under it: 19 vectors of 8 lanes cover 152 positions,
// only 150 are elements. The constraint uses the innermost variable, so
// the guard is in the innermost body. The workgroup id is annotated within
// the dimension's bounds, so it is not checked.
// CHECK-LABEL: func.func @loop
// CHECK:         %[[WG:.*]] = xla.workgroup_id x
// CHECK-DAG:     %[[C19:.*]] = arith.constant 19 : index
// CHECK:         %[[R:.*]] = scf.for %[[V:.*]] = %{{.*}} to %[[C19]] step %{{.*}} iter_args(%[[T0:.*]] = %arg1)
// CHECK:           %[[C8:.*]] = arith.constant 8 : index
// CHECK:           scf.for %[[L:.*]] = %{{.*}} to %[[C8]] step %{{.*}} iter_args(%[[T1:.*]] = %[[T0]])
// CHECK:             %[[LIN:.*]] = xla.apply_indexing #{{.*}}(%[[WG]])[%[[V]], %[[L]]]
// CHECK:             %[[OK:.*]] = arith.cmpi sle, %[[LIN]], %{{.*}}
// CHECK:             %[[IF:.*]] = scf.if %[[OK]] -> (tensor<30x5xf32>) {
// CHECK:               %[[IDX:.*]]:2 = xla.apply_indexing #{{.*}}(%[[WG]])[%[[V]], %[[L]]]
// CHECK:               tensor.extract %arg0[%[[IDX]]#0, %[[IDX]]#1]
// CHECK:               %[[INS:.*]] = tensor.insert %{{.*}} into %[[T1]][%[[IDX]]#0, %[[IDX]]#1]
// CHECK:               scf.yield %[[INS]]
// CHECK:             } else {
// CHECK:               scf.yield %[[T1]]
// CHECK:         return %[[R]]
#map = #xla.indexing_map<"(wg)[v, l] -> ((v * 8 + l) floordiv 5, (v * 8 + l) mod 5), domain: wg in [0, 1], v in [0, 18], l in [0, 7], v * 8 + l in [0, 149]">
func.func @loop(%in: tensor<30x5xf32>, %out: tensor<30x5xf32>) -> tensor<30x5xf32> {
  %wg = xla.workgroup_id x {xla.range = [0 : index, 1 : index]}
  %r = xla.loop (%wg)[%i, %j] -> (%a, %b) in #map iter_args(%iter = %out) -> (tensor<30x5xf32>) {
    %x = tensor.extract %in[%a, %b] : tensor<30x5xf32>
    %y = arith.addf %x, %x : f32
    %t = tensor.insert %y into %iter[%a, %b] : tensor<30x5xf32>
    xla.yield %t : tensor<30x5xf32>
  }
  return %r : tensor<30x5xf32>
}

// -----

// A guard goes outside the loops of the variables its constraints do not
// use: 50 rows of 8 lanes, every fifth row skipped, the check on the row
// only, so the lane loop's body is straight-line (a vectorizable lane
// loop) and the check runs once per row. Variables it does not use are 0
// in its xla.apply_indexing.
// CHECK-LABEL: func.func @guard_outside_lanes
// CHECK:         scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[T0:.*]] = %arg1)
// CHECK:           %[[C0:.*]] = arith.constant 0 : index
// CHECK:           %[[R:.*]] = xla.apply_indexing #{{.*}}[%[[ROW]], %[[C0]]]
// CHECK:           %[[OK:.*]] = arith.cmpi sle, %[[R]], %{{.*}}
// CHECK:           scf.if %[[OK]] -> (tensor<400xf32>) {
// CHECK:             scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[T1:.*]] = %[[T0]])
// CHECK-NOT:           scf.if
// CHECK:               xla.apply_indexing #{{.*}}[%[[ROW]], %[[L]]]
// CHECK:               tensor.insert
// CHECK:           } else {
// CHECK:             scf.yield %[[T0]]
#map2 = #xla.indexing_map<"()[r, l] -> (r * 8 + l), domain: r in [0, 49], l in [0, 7], r mod 5 in [0, 3]">
func.func @guard_outside_lanes(%in: tensor<400xf32>, %out: tensor<400xf32>) -> tensor<400xf32> {
  %r = xla.loop ()[%i, %j] -> (%a) in #map2 iter_args(%iter = %out) -> (tensor<400xf32>) {
    %x = tensor.extract %in[%a] : tensor<400xf32>
    %t = tensor.insert %x into %iter[%a] : tensor<400xf32>
    xla.yield %t : tensor<400xf32>
  }
  return %r : tensor<400xf32>
}

// -----

// A dimension without a known range is checked against its bounds; a
// loop without range variables is its body under that check.
// CHECK-LABEL: func.func @dims_checked
// CHECK-NOT:     scf.for
// CHECK:         %[[GE:.*]] = arith.cmpi sge, %arg2, %{{.*}}
// CHECK:         %[[LE:.*]] = arith.cmpi sle, %arg2, %{{.*}}
// CHECK:         %[[OK:.*]] = arith.andi %[[GE]], %[[LE]]
// CHECK:         scf.if %[[OK]] -> (tensor<4xf32>)
#map1 = #xla.indexing_map<"(d0) -> (d0), domain: d0 in [0, 3]">
func.func @dims_checked(%in: tensor<4xf32>, %out: tensor<4xf32>, %d: index) -> tensor<4xf32> {
  %r = xla.loop (%d)[] -> (%a) in #map1 iter_args(%iter = %out) -> (tensor<4xf32>) {
    %x = tensor.extract %in[%a] : tensor<4xf32>
    %t = tensor.insert %x into %iter[%a] : tensor<4xf32>
    xla.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Predicated accesses become scf.if; pure calls become func.call.
// CHECK-LABEL: func.func @predicated
// CHECK:         %[[E:.*]] = scf.if %arg2 -> (f32) {
// CHECK:           %[[X:.*]] = tensor.extract %arg0[%arg3]
// CHECK:           scf.yield %[[X]]
// CHECK:         } else {
// CHECK:           scf.yield %arg4
// CHECK:         %[[C:.*]] = call @twice(%[[E]]) : (f32) -> f32
// CHECK:         %[[I:.*]] = scf.if %arg2 -> (tensor<4xf32>) {
// CHECK:           %[[T:.*]] = tensor.insert %[[C]] into %arg1[%arg3]
// CHECK:           scf.yield %[[T]]
// CHECK:         } else {
// CHECK:           scf.yield %arg1
// CHECK:         return %[[I]]
func.func private @twice(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  return %y : f32
}
func.func @predicated(%in: tensor<4xf32>, %out: tensor<4xf32>, %c: i1, %i: index, %f: f32) -> tensor<4xf32> {
  %x = xla.predicated_extract %in[%i] if %c else %f : tensor<4xf32>
  %y = xla.pure_call @twice(%x) : (f32) -> f32
  %t = xla.predicated_insert %y into %out[%i] if %c : tensor<4xf32>
  return %t : tensor<4xf32>
}
