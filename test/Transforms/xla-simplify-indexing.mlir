// RUN: hlo-opt %s --split-input-file --passes=xla-simplify-indexing | FileCheck %s

// Symbols become dimensions (XLA's MoveSymbolsToDims); the map simplifies
// over its domain (s1 mod 3 - s1 is 0 for s1 in [0, 2]) and the symbol it no
// longer uses goes, with its operand.
// CHECK: #[[$MAP:.*]] = #xla.indexing_map<"(d0) -> (d0 + 1, d0 mod 2), domain: d0 in [-10, 10]">
// CHECK-LABEL: func.func @simplify_and_drop_unused
// CHECK-SAME:    (%[[S0:.*]]: index, %[[S1:.*]]: index)
// CHECK-NEXT:    %[[R:.*]]:2 = xla.apply_indexing #[[$MAP]](%[[S0]])
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1
func.func @simplify_and_drop_unused(%s0: index, %s1: index) -> (index, index) {
  %0:2 = xla.apply_indexing #xla.indexing_map<"()[s0, s1] -> (1 + s0 + s1 mod 3 - s1, s0 mod 2), domain: s0 in [-10, 10], s1 in [0, 2]">[%s0, %s1]
  func.return %0#0, %0#1 : index, index
}

// -----

// Results that are a constant or a variable need no op; the rest keep one.
// CHECK: #[[$MAP:.*]] = #xla.indexing_map<"(d0, d1) -> (d0 + d1), domain: d0 in [-10, 10], d1 in [-1, 1]">
// CHECK-LABEL: func.func @fold_results
// CHECK-SAME:    (%[[D0:.*]]: index, %[[D1:.*]]: index, %[[S0:.*]]: index)
// CHECK-DAG:     %[[SUM:.*]] = xla.apply_indexing #[[$MAP]](%[[D0]], %[[S0]])
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         return %[[SUM]], %[[C4]], %[[D1]], %[[C1]], %[[S0]]
func.func @fold_results(%d0: index, %d1: index, %s0: index) -> (index, index, index, index, index) {
  %0:5 = xla.apply_indexing #xla.indexing_map<"(d0, d1)[s0] -> (d0 + s0, 4, d1, 1, s0), domain: d0 in [-10, 10], d1 in [0, 2], s0 in [-1, 1]">(%d0, %d1)[%s0]
  func.return %0#0, %0#1, %0#2, %0#3, %0#4 : index, index, index, index, index
}

// -----

// Unused results are dropped, and the variables only they used.
// CHECK: #[[$MAP:.*]] = #xla.indexing_map<"(d0) -> (d0 mod 2), domain: d0 in [0, 2]">
// CHECK-LABEL: func.func @drop_unused_results
// CHECK-SAME:    (%{{.*}}: index, %[[D1:.*]]: index, %{{.*}}: index)
// CHECK-NEXT:    %[[R:.*]] = xla.apply_indexing #[[$MAP]](%[[D1]])
// CHECK-NEXT:    return %[[R]]
func.func @drop_unused_results(%d0: index, %d1: index, %s0: index) -> index {
  %0:5 = xla.apply_indexing #xla.indexing_map<"(d0, d1)[s0] -> (d0 + s0, s0 + 4, d1 mod 2, 1 + d1, s0), domain: d0 in [-10, 10], d1 in [0, 2], s0 in [-1, 1]">(%d0, %d1)[%s0]
  func.return %0#2 : index
}

// -----

// arith.constant operands are folded into the map.
// CHECK: #[[$MAP:.*]] = #xla.indexing_map<"(d0) -> (d0 + 3), domain: d0 in [0, 10]">
// CHECK-LABEL: func.func @fold_constant_operands
// CHECK-SAME:    (%[[D0:.*]]: index)
// CHECK:         %[[R:.*]] = xla.apply_indexing #[[$MAP]](%[[D0]])
// CHECK-NEXT:    return %[[R]]
func.func @fold_constant_operands(%d0: index) -> index {
  %d1 = arith.constant 1 : index
  %s0 = arith.constant 2 : index
  %s1 = arith.constant 3 : index
  %0 = xla.apply_indexing #xla.indexing_map<"(d0, d1)[s0, s1] -> (d0 + d1 + s0 + s1 mod 3), domain: d0 in [0, 10], d1 in [0, 5], s0 in [-10, 10], s1 in [0, 4]">(%d0, %d1)[%s0, %s1]
  func.return %0 : index
}

// -----

// All operands constant: the result is a constant.
// CHECK-LABEL: func.func @all_constant
// CHECK-NEXT:    %[[C18:.*]] = arith.constant 18 : index
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    return %[[C18]], %[[C3]]
func.func @all_constant() -> (index, index) {
  %c1 = arith.constant 17 : index
  %0:2 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 + 1, d0 mod 7), domain: d0 in [0, 20]">(%c1)
  func.return %0#0, %0#1 : index, index
}

// -----

// A chain composes into one map; the shared operand becomes one variable.
// CHECK: #[[$MAP:.*]] = #xla.indexing_map<"(d0, d1) -> (d0 * 2 + d1), domain: d0 in [0, 4], d1 in [0, 5]">
// CHECK-LABEL: func.func @fold_sequence_shared_operands
// CHECK-SAME:    (%[[A0:.*]]: index, %[[A1:.*]]: index)
// CHECK-NEXT:    %[[R:.*]] = xla.apply_indexing #[[$MAP]](%[[A1]], %[[A0]])
// CHECK-NEXT:    return %[[R]]
func.func @fold_sequence_shared_operands(%arg0: index, %arg1: index) -> index {
  %0 = xla.apply_indexing #xla.indexing_map<"(d0, d1) -> (d0 + d1), domain: d0 in [0, 5], d1 in [0, 4]">(%arg0, %arg1)
  %1 = xla.apply_indexing #xla.indexing_map<"(d0, d1) -> (d0 + d1), domain: d0 in [0, 4], d1 in [0, 10000]">(%arg1, %0)
  func.return %1 : index
}

// -----

// (a * 8 + 3) floordiv 8 and mod 8 through three maps: a and 3.
// CHECK-LABEL: func.func @fold_chain
// CHECK-SAME:    (%[[A:.*]]: index)
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    return %[[A]], %[[C3]]
func.func @fold_chain(%a: index) -> (index, index) {
  %0 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 * 8), domain: d0 in [0, 15]">(%a)
  %1 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 + 3), domain: d0 in [0, 127]">(%0)
  %2:2 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 floordiv 8, d0 mod 8), domain: d0 in [0, 130]">(%1)
  func.return %2#0, %2#1 : index, index
}

// -----

// A producer with two users folds into both where that makes them no
// bigger: here each becomes one of the producer's operands.
// CHECK-LABEL: func.func @multi_use_producer_folds
// CHECK-SAME:    (%[[A:.*]]: index, %[[B:.*]]: index)
// CHECK-NEXT:    return %[[A]], %[[B]]
func.func @multi_use_producer_folds(%a: index, %b: index) -> (index, index) {
  %0 = xla.apply_indexing #xla.indexing_map<"(d0, d1) -> (d0 * 4 + d1), domain: d0 in [0, 9], d1 in [0, 3]">(%a, %b)
  %1 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 floordiv 4), domain: d0 in [0, 39]">(%0)
  %2 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 mod 4), domain: d0 in [0, 39]">(%0)
  func.return %1, %2 : index, index
}

// -----

// Does not fire on the chain: folding the shared producer would only
// duplicate it (XLA's no_fold_when_producer_has_two_users). The bounds
// still tighten to the thread id's range, and unused variables go.
// CHECK-DAG: #[[$P:.*]] = #xla.indexing_map<"(d0) -> (d0 * 3), domain: d0 in [0, 607]">
// CHECK-DAG: #[[$C1:.*]] = #xla.indexing_map<"(d0) -> (d0 floordiv 32 + 1), domain: d0 in [0, 1821]">
// CHECK-DAG: #[[$C2:.*]] = #xla.indexing_map<"(d0) -> (d0 floordiv 32 + 2), domain: d0 in [0, 1821]">
// CHECK-LABEL: func.func @multi_use_producer_kept
// CHECK:         %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT:    %[[P:.*]] = xla.apply_indexing #[[$P]](%[[TID]])
// CHECK-NEXT:    %[[R1:.*]] = xla.apply_indexing #[[$C1]](%[[P]])
// CHECK-NEXT:    %[[R2:.*]] = xla.apply_indexing #[[$C2]](%[[P]])
// CHECK-NEXT:    return %[[R1]], %[[R2]]
func.func @multi_use_producer_kept(%i: index) -> (index, index) {
  %thread_id_x = gpu.thread_id x {xla.range = [0 : index, 607 : index]}
  %ind0 = xla.apply_indexing #xla.indexing_map<"(d0) -> (3 * d0), domain: d0 in [0, 9407]">(%thread_id_x)
  %ind1 = xla.apply_indexing #xla.indexing_map<"(d0, d1, d2) -> (d0 floordiv 32 + 1), domain: d0 in [0, 9407], d1 in [0, 607], d2 in [0, 1]">(%ind0, %thread_id_x, %i)
  %ind2 = xla.apply_indexing #xla.indexing_map<"(d0, d1, d2) -> (d0 floordiv 32 + 2), domain: d0 in [0, 9407], d1 in [0, 607], d2 in [0, 1]">(%ind0, %thread_id_x, %i)
  func.return %ind1, %ind2 : index, index
}

// -----

// The same operand twice is one variable (bounds intersected).
// CHECK: #[[$MAP:.*]] = #xla.indexing_map<"(d0, d1) -> (d0 * 2 + d1 * 2), domain: d0 in [0, 5], d1 in [0, 3]">
// CHECK-LABEL: func.func @dedup_operands
// CHECK-SAME:    (%[[A:.*]]: index, %[[B:.*]]: index)
// CHECK-NEXT:    xla.apply_indexing #[[$MAP]](%[[A]], %[[B]])
func.func @dedup_operands(%a: index, %b: index) -> index {
  %0 = xla.apply_indexing #xla.indexing_map<"(d0, d1, d2) -> (d0 + d1 * 2 + d2), domain: d0 in [0, 9], d1 in [0, 3], d2 in [0, 5]">(%a, %b, %a)
  func.return %0 : index
}

// -----

// What is known of the operands (xla.range on ops and function arguments,
// scf.for bounds) narrows the domain: here to a constant...
// CHECK-LABEL: func.func @operand_ranges
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    return %[[C0]]
func.func @operand_ranges(%arg0: index {xla.range = [0 : index, 7 : index]}) -> index {
  %tid = gpu.thread_id x {xla.range = [0 : index, 31 : index]}
  %0 = xla.apply_indexing #xla.indexing_map<"(d0, d1) -> (d0 floordiv 32 + d1 floordiv 8), domain: d0 in [0, 1023], d1 in [0, 63]">(%tid, %arg0)
  func.return %0 : index
}

// -----

// ... and here to the induction variable itself.
// CHECK-LABEL: func.func @scf_for_induction_variable
// CHECK:         scf.for %[[IV:.*]] = %{{.*}} to
// CHECK-NEXT:      tensor.extract %{{.*}}[%[[IV]]]
// CHECK-NOT:     xla.apply_indexing
func.func @scf_for_induction_variable(%t: tensor<64xf32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %init) -> f32 {
    %0 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 mod 16 + d0 floordiv 16), domain: d0 in [0, 63]">(%i)
    %x = tensor.extract %t[%0] : tensor<64xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  func.return %r : f32
}

// -----

// Inside an xla.loop, induction variables and map results are bounded by
// the loop's map.
// CHECK-LABEL: func.func @loop_body_ranges
// CHECK:         xla.loop (%{{.*}})[%[[I:.*]]] -> (%{{.*}}, %{{.*}}) in
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      tensor.extract %{{.*}}[%[[C0]], %[[I]]]
func.func @loop_body_ranges(%t: tensor<8x4xf32>, %init: f32) -> f32 {
  %tid = gpu.thread_id x {xla.range = [0 : index, 7 : index]}
  %r = xla.loop (%tid)[%i] -> (%ra, %rb) in #xla.indexing_map<"(d0)[s0] -> (d0, s0), domain: d0 in [0, 7], s0 in [0, 3]"> iter_args(%acc = %init) -> (f32) {
    %0:2 = xla.apply_indexing #xla.indexing_map<"(d0, d1) -> (d0 floordiv 8, d1 mod 4), domain: d0 in [0, 63], d1 in [0, 63]">(%ra, %i)
    %x = tensor.extract %t[%0#0, %0#1] : tensor<8x4xf32>
    %s = arith.addf %acc, %x : f32
    xla.yield %s : f32
  }
  func.return %r : f32
}

// -----

// Runtime variables are symbols too; a repeated operand is one variable.
// CHECK: #[[$MAP:.*]] = #xla.indexing_map<"(d0, d1) -> (d0 + d1), domain: d0 in [0, 3], d1 in [0, 1]">
// CHECK-LABEL: func.func @runtime_variables
// CHECK-SAME:    (%[[A:.*]]: index, %[[B:.*]]: index)
// CHECK-NEXT:    xla.apply_indexing #[[$MAP]](%[[A]], %[[B]])
func.func @runtime_variables(%a: index, %b: index) -> index {
  %0 = xla.apply_indexing #xla.indexing_map<"(d0)[s0]{rt0} -> (d0 + rt0), domain: d0 in [0, 3], s0 in [0, 1], rt0 in [0, 12]">(%a)[%b, %b]
  func.return %0 : index
}

// -----

// Does not fire: emitter output is already canonical.
// CHECK: #[[$MAP:.*]] = #xla.indexing_map<"(d0, d1) -> (d0 * 2 + d1 floordiv 16), domain: d0 in [0, 3], d1 in [0, 31]">
// CHECK-LABEL: func.func @canonical
// CHECK-SAME:    (%[[A:.*]]: index {{.*}}, %[[B:.*]]: index {{.*}})
// CHECK-NEXT:    %[[R:.*]] = xla.apply_indexing #[[$MAP]](%[[A]], %[[B]])
// CHECK-NEXT:    return %[[R]]
func.func @canonical(%arg0: index {xla.range = [0 : index, 3 : index]}, %arg1: index {xla.range = [0 : index, 31 : index]}) -> index {
  %0 = xla.apply_indexing #xla.indexing_map<"(d0, d1) -> (d0 * 2 + d1 floordiv 16), domain: d0 in [0, 3], d1 in [0, 31]">(%arg0, %arg1)
  func.return %0 : index
}

// -----

// Only the xla ops change: arith code around them is not folded.
// CHECK-LABEL: func.func @arith_untouched
// CHECK-NEXT:    arith.constant 1 : index
// CHECK-NEXT:    arith.constant 2 : index
// CHECK-NEXT:    %[[SUM:.*]] = arith.addi
// CHECK-NEXT:    %[[C:.*]] = arith.constant 0 : index
// CHECK-NEXT:    return %[[SUM]], %[[C]]
func.func @arith_untouched(%a: index) -> (index, index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %0 = arith.addi %c1, %c2 : index
  %1 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 floordiv 8), domain: d0 in [0, 7]">(%0)
  func.return %0, %1 : index, index
}

// -----

// xla.loop: an apply_indexing feeding a dimension folds into the loop's
// map (XLA's SimplifyLoopOfApplyIndexing); the loop's check d0 * 4 in
// [0, 12] holds for every d0 in [0, 3] and disappears.
// CHECK: #[[$MAP:.*]] = #xla.indexing_map<"(d0)[s0, s1] -> (d0 * 4 + s0, s1), domain: d0 in [0, 3], s0 in [0, 1024], s1 in [0, 32]">
// CHECK-LABEL: func.func @loop_of_apply_indexing
// CHECK-SAME:    %[[DIM:[a-z0-9]*]]: index)
// CHECK-NEXT:    xla.loop (%[[DIM]])[%{{.*}}, %{{.*}}] -> (%{{.*}}, %{{.*}}) in #[[$MAP]]
func.func @loop_of_apply_indexing(%input: tensor<1024x32xf32>, %init: f32, %dim: index) -> f32 {
  %idx = xla.apply_indexing #xla.indexing_map<"(d0) -> (4 * d0), domain: d0 in [0, 3]">(%dim)
  %sum = xla.loop (%idx)[%i, %j] -> (%r0, %r1) in #xla.indexing_map<"(d0)[s0, s1] -> (d0 + s0, s1), domain: d0 in [0, 12], s0 in [0, 1024], s1 in [0, 32]"> iter_args(%sum_ = %init) -> (f32) {
    %t = tensor.extract %input[%i, %j] : tensor<1024x32xf32>
    %add = arith.addf %sum_, %t : f32
    xla.yield %add : f32
  }
  func.return %sum : f32
}

// -----

// The folded producer's value was checked against [0, 49]: that check
// stays, as d0 in [0, 99] on the thread id (whose range is [0, 127]).
// CHECK: #[[$MAP:.*]] = #xla.indexing_map<"(d0)[s0] -> (s0 * 50 + d0 floordiv 2), domain: d0 in [0, 99], s0 in [0, 1]">
// CHECK-LABEL: func.func @loop_keeps_producer_check
// CHECK:         %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT:    xla.loop (%[[TID]])[%{{.*}}] -> (%{{.*}}) in #[[$MAP]]
func.func @loop_keeps_producer_check(%t: tensor<100xf32>, %init: f32) -> f32 {
  %tid = gpu.thread_id x {xla.range = [0 : index, 127 : index]}
  %0 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 floordiv 2), domain: d0 in [0, 127]">(%tid)
  %r = xla.loop (%0)[%i] -> (%ra) in #xla.indexing_map<"(d0)[s0] -> (d0 + s0 * 50), domain: d0 in [0, 49], s0 in [0, 1]"> iter_args(%acc = %init) -> (f32) {
    %x = tensor.extract %t[%ra] : tensor<100xf32>
    %s = arith.addf %acc, %x : f32
    xla.yield %s : f32
  }
  func.return %r : f32
}

// -----

// A constant dimension within its bounds folds into the map (XLA's
// FoldConstantDimensions); so does a dimension whose range is one value
// (a single CPU workgroup).
// CHECK: #[[$MAP:.*]] = #xla.indexing_map<"()[s0] -> (s0 + 4), domain: s0 in [0, 3]">
// CHECK: #[[$MAP1:.*]] = #xla.indexing_map<"()[vector] -> (vector), domain: vector in [0, 79]">
// CHECK-LABEL: func.func @loop_constant_dimensions
// CHECK-NOT:     xla.workgroup_id
// CHECK:         xla.loop ()[%{{.*}}] -> (%{{.*}}) in #[[$MAP]]
// CHECK:         xla.loop ()[%{{.*}}] -> (%{{.*}}) in #[[$MAP1]]
func.func @loop_constant_dimensions(%t: tensor<80xf32>, %init: f32) -> (f32, f32) {
  %c4 = arith.constant 4 : index
  %r = xla.loop (%c4)[%i] -> (%ra) in #xla.indexing_map<"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 7], s0 in [0, 3]"> iter_args(%acc = %init) -> (f32) {
    %x = tensor.extract %t[%ra] : tensor<80xf32>
    %s = arith.addf %acc, %x : f32
    xla.yield %s : f32
  }
  %wg = xla.workgroup_id x {xla.range = [0 : index, 0 : index]}
  %r2 = xla.loop (%wg)[%i] -> (%ra) in #xla.indexing_map<"(wg)[vector] -> (wg * 80 + vector), domain: wg in [0, 0], vector in [0, 79]"> iter_args(%acc = %init) -> (f32) {
    %x = tensor.extract %t[%ra] : tensor<80xf32>
    %s = arith.addf %acc, %x : f32
    xla.yield %s : f32
  }
  func.return %r, %r2 : f32, f32
}

// -----

// A loop whose domain holds no point never runs: its results are the
// inits (a constant dimension out of bounds; a constraint the thread ids
// cannot meet).
// CHECK-LABEL: func.func @loop_never_runs
// CHECK-SAME:    %[[INIT:[a-z0-9]*]]: f32)
// CHECK-NOT:     xla.loop
// CHECK:         return %[[INIT]], %[[INIT]]
func.func @loop_never_runs(%t: tensor<8xf32>, %init: f32) -> (f32, f32) {
  %c9 = arith.constant 9 : index
  %r = xla.loop (%c9)[%i] -> (%ra) in #xla.indexing_map<"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 7], s0 in [0, 0]"> iter_args(%acc = %init) -> (f32) {
    %x = tensor.extract %t[%ra] : tensor<8xf32>
    %s = arith.addf %acc, %x : f32
    xla.yield %s : f32
  }
  %tid = gpu.thread_id x {xla.range = [0 : index, 31 : index]}
  %r2 = xla.loop (%tid)[%i] -> (%ra) in #xla.indexing_map<"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 127], s0 in [0, 3], d0 + s0 in [40, 50]"> iter_args(%acc = %init) -> (f32) {
    %x = tensor.extract %t[%ra] : tensor<8xf32>
    %s = arith.addf %acc, %x : f32
    xla.yield %s : f32
  }
  func.return %r, %r2 : f32, f32
}

// -----

// Does not fire: the loop checks d0 in [0, 7] of an operand it knows
// nothing about, so the unused dimension stays.
// CHECK: #[[$MAP:.*]] = #xla.indexing_map<"(d0)[s0] -> (s0), domain: d0 in [0, 7], s0 in [0, 7]">
// CHECK-LABEL: func.func @loop_unknown_dimension_kept
// CHECK-SAME:    %[[D:[a-z0-9]*]]: index)
// CHECK-NEXT:    xla.loop (%[[D]])[%{{.*}}] -> (%{{.*}}) in #[[$MAP]]
func.func @loop_unknown_dimension_kept(%t: tensor<8xf32>, %init: f32, %d: index) -> f32 {
  %r = xla.loop (%d)[%i] -> (%ra) in #xla.indexing_map<"(d0)[s0] -> (s0), domain: d0 in [0, 7], s0 in [0, 7]"> iter_args(%acc = %init) -> (f32) {
    %x = tensor.extract %t[%ra] : tensor<8xf32>
    %s = arith.addf %acc, %x : f32
    xla.yield %s : f32
  }
  func.return %r : f32
}

// -----

// A constraint on a thread id becomes its bound, which the thread id's
// range does not imply: the dimension stays, checked.
// CHECK: #[[$MAP:.*]] = #xla.indexing_map<"(d0)[s0] -> (s0), domain: d0 in [0, 49], s0 in [0, 7]">
// CHECK-LABEL: func.func @loop_checked_dimension_kept
// CHECK:         %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT:    xla.loop (%[[TID]])[%{{.*}}] -> (%{{.*}}) in #[[$MAP]]
func.func @loop_checked_dimension_kept(%t: tensor<8xf32>, %init: f32) -> f32 {
  %tid = gpu.thread_id x {xla.range = [0 : index, 127 : index]}
  %r = xla.loop (%tid)[%i] -> (%ra) in #xla.indexing_map<"(d0)[s0] -> (s0), domain: d0 in [0, 127], s0 in [0, 7], d0 * 2 in [0, 99]"> iter_args(%acc = %init) -> (f32) {
    %x = tensor.extract %t[%ra] : tensor<8xf32>
    %s = arith.addf %acc, %x : f32
    xla.yield %s : f32
  }
  func.return %r : f32
}

// -----

// Range variables set the trip count: an unused one is never dropped (the
// thread id, always in bounds and unused, is).
// CHECK: #[[$MAP:.*]] = #xla.indexing_map<"()[s0] -> (), domain: s0 in [0, 7]">
// CHECK-LABEL: func.func @loop_unused_range_variable_kept
// CHECK:         xla.loop ()[%{{.*}}] -> () in #[[$MAP]]
func.func @loop_unused_range_variable_kept(%init: f32) -> f32 {
  %tid = gpu.thread_id x {xla.range = [0 : index, 127 : index]}
  %one = arith.constant 1.0 : f32
  %r = xla.loop (%tid)[%i] -> () in #xla.indexing_map<"(d0)[s0] -> (), domain: d0 in [0, 127], s0 in [0, 7]"> iter_args(%acc = %init) -> (f32) {
    %s = arith.addf %acc, %one : f32
    xla.yield %s : f32
  }
  func.return %r : f32
}

// -----

// Does not fire on an emitter's loop: thread and block ids in range, map
// already simplified.
// CHECK: #[[$MAP:.*]] = #xla.indexing_map<"(th_x, bl_x)[unroll] -> (bl_x floordiv 4096, (bl_x floordiv 8) mod 512, th_x * 4 + unroll + (bl_x mod 8) * 512), domain: th_x in [0, 127], bl_x in [0, 24575], unroll in [0, 3]">
// CHECK-LABEL: func.func @emitter_loop
// CHECK:         %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT:    %[[BID:.*]] = gpu.block_id x
// CHECK-NEXT:    xla.loop (%[[TID]], %[[BID]])[%{{.*}}] -> (%{{.*}}, %{{.*}}, %{{.*}}) in #[[$MAP]]
func.func @emitter_loop(%in: tensor<6x512x4096xbf16>, %out: tensor<6x512x4096xbf16>) -> tensor<6x512x4096xbf16> {
  %thread_id_x = gpu.thread_id x {xla.range = [0 : index, 127 : index]}
  %block_id_x = gpu.block_id x {xla.range = [0 : index, 24575 : index]}
  %r = xla.loop (%thread_id_x, %block_id_x)[%i] -> (%ra, %rb, %rc) in #xla.indexing_map<"(th_x, bl_x)[unroll] -> (bl_x floordiv 4096, (bl_x floordiv 8) mod 512, th_x * 4 + unroll + (bl_x mod 8) * 512), domain: th_x in [0, 127], bl_x in [0, 24575], unroll in [0, 3]"> iter_args(%iter = %out) -> (tensor<6x512x4096xbf16>) {
    %x = tensor.extract %in[%ra, %rb, %rc] : tensor<6x512x4096xbf16>
    %inserted = tensor.insert %x into %iter[%ra, %rb, %rc] : tensor<6x512x4096xbf16>
    xla.yield %inserted : tensor<6x512x4096xbf16>
  }
  func.return %r : tensor<6x512x4096xbf16>
}
