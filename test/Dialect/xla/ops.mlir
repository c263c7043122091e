// RUN: hlo-opt %s | FileCheck %s
// RUN: hlo-opt %s | hlo-opt | FileCheck %s
// RUN: hlo-opt %s --mlir-print-op-generic | hlo-opt | FileCheck %s
// RUN: hlo-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: hlo-opt %s > %t.1.mlir && hlo-opt %t.1.mlir > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: hlo-opt %s --mlir-print-op-generic > %t.g1.mlir && hlo-opt %t.g1.mlir --mlir-print-op-generic > %t.g2.mlir && diff %t.g1.mlir %t.g2.mlir

// Round trip of every op of the xla emitter dialect, the #xla.indexing_map
// attribute in all its forms, and the xla.range annotation: custom form,
// generic form (GENERIC), and print -> parse -> print fixed points of both.

// Indexing maps print as #indexing_map aliases.
// CHECK-DAG: #[[$APPLY:indexing_map[0-9]*]] = #xla.indexing_map<"(d0, d1)[s0] -> (d0, d1 + s0), domain: d0 in [1, 2], d1 in [5, 8], s0 in [0, 32]">
// CHECK-DAG: #[[$NOSYM:indexing_map[0-9]*]] = #xla.indexing_map<"(d0, d1) -> (d0 floordiv 4, d1 mod 3, d0 * 2 - d1), domain: d0 in [0, 7], d1 in [0, 2]">
// CHECK-DAG: #[[$NODIM:indexing_map[0-9]*]] = #xla.indexing_map<"()[s0] -> (s0, s0 ceildiv 2), domain: s0 in [2, 4]">
// CHECK-DAG: #[[$RT:indexing_map[0-9]*]] = #xla.indexing_map<"(d0)[s0]{rt0} -> (d0 + s0 * 4 + rt0), domain: d0 in [0, 3], s0 in [0, 1], rt0 in [0, 5]">
// CHECK-DAG: #[[$LOOP:indexing_map[0-9]*]] = #xla.indexing_map<"(d0)[s0, s1] -> (d0 * 4 + s0, s1), domain: d0 in [0, 255], s0 in [0, 3], s1 in [0, 7], d0 * 4 + s0 in [0, 999]">
// CHECK-DAG: #[[$NODIMLOOP:indexing_map[0-9]*]] = #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 15]">
// CHECK-DAG: #[[$POINT:indexing_map[0-9]*]] = #xla.indexing_map<"(th_x, bl_x) -> (bl_x * 128 + th_x), domain: th_x in [0, 127], bl_x in [0, 9]">
// CHECK-DAG: #[[$CONCAT:indexing_map[0-9]*]] = #xla.indexing_map<"(d0) -> (d0), domain: d0 in [0, 3]">
// CHECK-DAG: #[[$CONST:indexing_map[0-9]*]] = #xla.indexing_map<"() -> (42)">
// CHECK-DAG: #[[$EXPR:indexing_map[0-9]*]] = #xla.indexing_map<"(d0, d1)[s0] -> (d0 floorDiv 2 + d1 / 3 - d0 % 5, min(d0, -s0), max(d1 * -2, 7), -(d0 + 1)), domain: d0 in [-4, 4], d1 in [0, 9223372036854775807], s0 in [-9223372036854775808, 0], d0 + d1 in [0, 10], d1 mod 2 in [0, 0], is_simplified: true">
// CHECK-DAG: #[[$TRAIL:indexing_map[0-9]*]] = #xla.indexing_map<"(d0) -> (d0), domain: d0 in [0, 7],">
// CHECK-DAG: #[[$UNDEF:indexing_map[0-9]*]] = #xla.indexing_map<"UNDEFINED">

// GENERIC-DAG: #[[$GAPPLY:indexing_map[0-9]*]] = #xla.indexing_map<"(d0, d1)[s0] -> (d0, d1 + s0), domain: d0 in [1, 2], d1 in [5, 8], s0 in [0, 32]">

#apply = #xla.indexing_map<"(d0, d1)[s0] -> (d0, d1 + s0), domain: d0 in [1, 2], d1 in [5, 8], s0 in [0, 32]">
#nosym = #xla.indexing_map<"(d0, d1) -> (d0 floordiv 4, d1 mod 3, d0 * 2 - d1), domain: d0 in [0, 7], d1 in [0, 2]">
#nodim = #xla.indexing_map<"()[s0] -> (s0, s0 ceildiv 2), domain: s0 in [2, 4]">
#rt = #xla.indexing_map<"(d0)[s0]{rt0} -> (d0 + s0 * 4 + rt0), domain: d0 in [0, 3], s0 in [0, 1], rt0 in [0, 5]">
#loop = #xla.indexing_map<"(d0)[s0, s1] -> (d0 * 4 + s0, s1), domain: d0 in [0, 255], s0 in [0, 3], s1 in [0, 7], d0 * 4 + s0 in [0, 999]">

// xla.apply_indexing: dimensions in (), symbols in [], either omitted when
// the map has none.

// CHECK-LABEL: func.func @apply_indexing(
// CHECK-SAME: %[[D0:.*]]: index, %[[D1:.*]]: index, %[[S0:.*]]: index)
// CHECK: %{{.*}}:2 = xla.apply_indexing #[[$APPLY]](%[[D0]], %[[D1]])[%[[S0]]]
// CHECK: %{{.*}}:3 = xla.apply_indexing #[[$NOSYM]](%[[D0]], %[[D1]])
// CHECK: %{{.*}}:2 = xla.apply_indexing #[[$NODIM]][%[[S0]]]
// CHECK: %{{.*}} = xla.apply_indexing #[[$RT]](%[[D0]])[%[[D1]], %[[S0]]] {xla.range = [0 : index, 15 : index]}
// GENERIC-LABEL: "func.func"() <{{{.*}}sym_name = "apply_indexing"
// GENERIC: %{{.*}}:2 = "xla.apply_indexing"(%{{.*}}, %{{.*}}, %{{.*}}) <{indexing_map_attr = #[[$GAPPLY]]}> : (index, index, index) -> (index, index)
func.func @apply_indexing(%d0: index, %d1: index, %s0: index) -> (index, index) {
  %0:2 = xla.apply_indexing #apply (%d0, %d1)[%s0]
  %1:3 = xla.apply_indexing #nosym (%d0, %d1)
  %2:2 = xla.apply_indexing #nodim [%s0]
  %3 = xla.apply_indexing #rt (%d0)[%d1, %s0] {xla.range = [0 : index, 15 : index]}
  func.return %0#0, %0#1 : index, index
}

// xla.loop: dimension operands, induction variables (one per range
// variable), map results, loop-carried values; the printer names them
// i, j, ..., ra, rb, ..., iter.

// CHECK-LABEL: func.func @loop(
// CHECK-SAME: %[[IN:.*]]: tensor<1000x8xf32>, %[[INIT:.*]]: f32, %[[TID:.*]]: index)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[L:.*]]:2 = xla.loop (%[[TID]])[%[[I:.*]], %[[J:.*]]] -> (%[[RA:.*]], %[[RB:.*]]) in #[[$LOOP]] iter_args(%[[ACC:.*]] = %[[INIT]], %[[CNT:.*]] = %[[C0]]) -> (f32, index) {
// CHECK-NEXT: %[[X:.*]] = tensor.extract %[[IN]][%[[RA]], %[[RB]]] : tensor<1000x8xf32>
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[CNT]], %[[I]] : index
// CHECK-NEXT: xla.yield %[[SUM]], %[[NEXT]] : f32, index
// CHECK-NEXT: } {xla.range = [0 : index, 42 : index]}
// CHECK: return %[[L]]#0 : f32
// GENERIC-LABEL: "func.func"() <{{{.*}}sym_name = "loop"
// GENERIC: "xla.loop"(%{{.*}}, %{{.*}}, %{{.*}}) <{indexing_map_attr = #{{.*}}, operandSegmentSizes = array<i32: 1, 2>}> ({
// GENERIC-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: f32, %{{.*}}: index):
// GENERIC: "xla.yield"(%{{.*}}, %{{.*}}) : (f32, index) -> ()
// GENERIC-NEXT: }) {xla.range = [0 : index, 42 : index]} : (index, f32, index) -> (f32, index)
func.func @loop(%input: tensor<1000x8xf32>, %init: f32, %tid: index) -> f32 {
  %c0 = arith.constant 0 : index
  %sum:2 = xla.loop (%tid)[%i, %j] -> (%ra, %rb) in #loop
      iter_args(%acc = %init, %count = %c0) -> (f32, index) {
    %x = tensor.extract %input[%ra, %rb] : tensor<1000x8xf32>
    %next = arith.addf %acc, %x : f32
    %next_count = arith.addi %count, %i : index
    xla.yield %next, %next_count : f32, index
  } {xla.range = [0 : index, 42 : index]}
  func.return %sum#0 : f32
}

// A loop without dimensions and one without loop-carried values (its body
// may hold ops with side effects, e.g. a store through a call).

// CHECK-LABEL: func.func @loop_no_dims_no_iter_args(
// CHECK: xla.loop ()[%[[I:.*]]] -> (%[[RA:.*]]) in #[[$NODIMLOOP]] iter_args() -> () {
// CHECK-NEXT: func.call @effect(%[[RA]]) : (index) -> ()
// CHECK-NEXT: xla.yield
// CHECK-NEXT: }
func.func private @effect(index)
func.func @loop_no_dims_no_iter_args() {
  xla.loop ()[%i] -> (%ra) in #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 15]"> iter_args() -> () {
    func.call @effect(%ra) : (index) -> ()
    xla.yield
  }
  func.return
}

// xla.pure_call

// CHECK-LABEL: func.func private @add(
func.func private @add(%a: f32, %b: f32) -> f32 {
  %0 = arith.addf %a, %b : f32
  return %0 : f32
}

// CHECK-LABEL: func.func private @two_results(
func.func private @two_results(%t: tensor<4xf32>, %i: index) -> (f32, index) {
  %0 = tensor.extract %t[%i] : tensor<4xf32>
  return %0, %i : f32, index
}

// CHECK-LABEL: func.func @pure_call(
// CHECK: %[[C:.*]] = xla.pure_call @add(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: %{{.*}}:2 = xla.pure_call @two_results(%{{.*}}, %{{.*}}) : (tensor<4xf32>, index) -> (f32, index)
// GENERIC-LABEL: "func.func"() <{{{.*}}sym_name = "pure_call"
// GENERIC: "xla.pure_call"(%{{.*}}, %{{.*}}) <{callee = @add}> : (f32, f32) -> f32
func.func @pure_call(%a: f32, %b: f32, %t: tensor<4xf32>, %i: index) -> f32 {
  %c = xla.pure_call @add(%a, %b) : (f32, f32) -> (f32)
  %d:2 = xla.pure_call @two_results(%t, %i) : (tensor<4xf32>, index) -> (f32, index)
  %e = arith.addf %c, %d#0 : f32
  return %e : f32
}

// xla.predicated_insert, xla.predicated_extract

// CHECK-LABEL: func.func @predicated(
// CHECK: %[[E:.*]] = xla.predicated_extract %{{.*}}[%{{.*}}, %{{.*}}] if %{{.*}} else %{{.*}} : tensor<4x8xf32>
// CHECK: %{{.*}} = xla.predicated_insert %[[E]] into %{{.*}}[%{{.*}}, %{{.*}}] if %{{.*}} : tensor<4x8xf32>
// GENERIC-LABEL: "func.func"() <{{{.*}}sym_name = "predicated"
// GENERIC: "xla.predicated_extract"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i1, f32, tensor<4x8xf32>, index, index) -> f32
// GENERIC: "xla.predicated_insert"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i1, f32, tensor<4x8xf32>, index, index) -> tensor<4x8xf32>
func.func @predicated(%src: tensor<4x8xf32>, %dst: tensor<4x8xf32>, %i: index, %j: index,
                      %cond: i1, %fallback: f32) -> tensor<4x8xf32> {
  %v = xla.predicated_extract %src[%i, %j] if %cond else %fallback : tensor<4x8xf32>
  %r = xla.predicated_insert %v into %dst[%i, %j] if %cond : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// xla.atomic_rmw on one element and on a vector of consecutive elements.

// CHECK-LABEL: func.func @atomic_rmw(
// CHECK: %[[A:.*]] = xla.atomic_rmw %{{.*}}[%{{.*}}, %{{.*}}] : tensor<2x3xf32> {
// CHECK-NEXT: ^bb0(%[[CUR:.*]]: f32):
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[CUR]], %{{.*}} : f32
// CHECK-NEXT: xla.yield %[[SUM]] : f32
// CHECK-NEXT: }
// CHECK: xla.atomic_rmw %[[A]][%{{.*}}, %{{.*}}] : tensor<2x3xf32> {
// CHECK-NEXT: ^bb0(%[[VCUR:.*]]: vector<2xf32>):
// CHECK-NEXT: %[[MAX:.*]] = arith.maximumf %[[VCUR]], %{{.*}} : vector<2xf32>
// CHECK-NEXT: xla.yield %[[MAX]] : vector<2xf32>
// CHECK-NEXT: } {xla.range = [0 : index, 0 : index]}
// GENERIC-LABEL: "func.func"() <{{{.*}}sym_name = "atomic_rmw"
// GENERIC: "xla.atomic_rmw"(%{{.*}}, %{{.*}}, %{{.*}}) ({
// GENERIC: }) : (tensor<2x3xf32>, index, index) -> tensor<2x3xf32>
func.func @atomic_rmw(%t: tensor<2x3xf32>, %i: index, %j: index, %x: f32,
                      %v: vector<2xf32>) -> tensor<2x3xf32> {
  %a = xla.atomic_rmw %t[%i, %j] : tensor<2x3xf32> {
  ^bb0(%current: f32):
    %sum = arith.addf %current, %x : f32
    xla.yield %sum : f32
  }
  %b = xla.atomic_rmw %a[%i, %j] : tensor<2x3xf32> {
  ^bb0(%current: vector<2xf32>):
    %max = arith.maximumf %current, %v : vector<2xf32>
    xla.yield %max : vector<2xf32>
  } {xla.range = [0 : index, 0 : index]}
  return %b : tensor<2x3xf32>
}

// xla.workgroup_id and xla.range on ops and function arguments.

// CHECK-LABEL: func.func @workgroup_id(
// CHECK-SAME: %{{.*}}: index {xla.range = [0 : index, 127 : index]})
// CHECK: %[[X:.*]] = xla.workgroup_id x {xla.range = [0 : index, 1023 : index]}
// CHECK: %[[Y:.*]] = xla.workgroup_id y
// CHECK: %[[Z:.*]] = xla.workgroup_id z
// CHECK: %{{.*}} = xla.apply_indexing #[[$POINT]](%{{.*}}, %[[X]])
// GENERIC-LABEL: "func.func"() <{{{.*}}sym_name = "workgroup_id"
// GENERIC: "xla.workgroup_id"() <{dimension = #xla<workgroup_dim x>}> {xla.range = [0 : index, 1023 : index]} : () -> index
func.func @workgroup_id(%tid: index {xla.range = [0 : index, 127 : index]}) -> (index, index, index) {
  %x = xla.workgroup_id x {xla.range = [0 : index, 1023 : index]}
  %y = xla.workgroup_id y
  %z = xla.workgroup_id z
  %linear = xla.apply_indexing #xla.indexing_map<"(th_x, bl_x) -> (bl_x * 128 + th_x), domain: th_x in [0, 127], bl_x in [0, 9]">(%tid, %x)
  return %linear, %y, %z : index, index, index
}

// #xla.indexing_map in attribute dictionaries: adjacent strings are
// concatenated and runs of whitespace collapsed; every expression form
// (floordiv/floorDiv, ceildiv, mod, /, %, min, max, unary minus, negative
// bounds), constraints, is_simplified, a trailing comma, a map without
// variables and the undefined map.

// CHECK-LABEL: func.func @indexing_map_forms()
// CHECK-SAME: concat = #[[$CONCAT]], constant = #[[$CONST]], expressions = #[[$EXPR]], trailing = #[[$TRAIL]], undefined = #[[$UNDEF]]
// GENERIC-LABEL: "func.func"() <{{{.*}}sym_name = "indexing_map_forms"
func.func @indexing_map_forms() attributes {
  concat = #xla.indexing_map<"(d0) -> (d0)," " domain:   d0 in [0, 3]">,
  constant = #xla.indexing_map<"() -> (42)">,
  expressions = #xla.indexing_map<
    "(d0, d1)[s0] -> (d0 floorDiv 2 + d1 / 3 - d0 % 5, min(d0, -s0), max(d1 * -2, 7), -(d0 + 1)),"
    "\n  domain: d0 in [-4, 4], d1 in [0, 9223372036854775807], s0 in [-9223372036854775808, 0],"
    "\t d0 + d1 in [0, 10], d1 mod 2 in [0, 0], is_simplified: true">,
  trailing = #xla.indexing_map<"(d0) -> (d0), domain: d0 in [0, 7],">,
  undefined = #xla.indexing_map<"UNDEFINED">
} {
  return
}
