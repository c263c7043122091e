// RUN: hlo-opt %s --split-input-file --passes=xla-lower-indexing | FileCheck %s

// Index arithmetic with what the map's bounds promise: non-negative values
// divide and take remainders unsigned, additions and multiplications that
// stay in range carry no-wrap flags.
// CHECK-LABEL: func.func @nonnegative
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK:         %[[M:.*]] = arith.muli %arg0, %[[C8]] overflow<nsw, nuw> : index
// CHECK:         %[[A:.*]] = arith.addi %[[M]], %arg1 overflow<nsw, nuw> : index
// CHECK:         %[[C5:.*]] = arith.constant 5 : index
// CHECK:         %[[D:.*]] = arith.divui %[[A]], %[[C5]] : index
// CHECK:         %[[R:.*]] = arith.remui %[[A]], %[[C5]] : index
// CHECK:         return %[[D]], %[[R]]
#map = #xla.indexing_map<"(d0, d1) -> ((d0 * 8 + d1) floordiv 5, (d0 * 8 + d1) mod 5), domain: d0 in [0, 18], d1 in [0, 7]">
func.func @nonnegative(%a: index, %b: index) -> (index, index) {
  %r:2 = xla.apply_indexing #map(%a, %b)
  return %r#0, %r#1 : index, index
}

// -----

// A possibly negative value: floor division and a Euclidean remainder.
// CHECK-LABEL: func.func @signed
// CHECK:         arith.addi %arg0, %{{.*}} : index
// CHECK:         arith.floordivsi
// CHECK:         arith.remsi
// CHECK:         arith.select
#map = #xla.indexing_map<"(d0) -> ((d0 - 4) floordiv 3, (d0 - 4) mod 3), domain: d0 in [0, 9]">
func.func @signed(%a: index) -> (index, index) {
  %r:2 = xla.apply_indexing #map(%a)
  return %r#0, %r#1 : index, index
}

// -----

// Unused maps are erased, not lowered, also one whose only user is another
// unused map (a lane index the vectorizer merged into a wider access);
// the used one is lowered as before.
// CHECK-LABEL: func.func @unused
// CHECK-NOT:     xla.apply_indexing
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[M:.*]] = arith.muli %arg0, %[[C4]] overflow<nsw, nuw> : index
// CHECK-NEXT:    return %[[M]]
#used = #xla.indexing_map<"(d0) -> (d0 * 4), domain: d0 in [0, 9]">
#lane = #xla.indexing_map<"(d0) -> (d0 * 4 + 1), domain: d0 in [0, 9]">
#next = #xla.indexing_map<"(d0) -> (d0 * 2), domain: d0 in [0, 40]">
func.func @unused(%a: index) -> index {
  %u = xla.apply_indexing #used(%a)
  %l = xla.apply_indexing #lane(%a)
  %n = xla.apply_indexing #next(%l)
  return %u : index
}
