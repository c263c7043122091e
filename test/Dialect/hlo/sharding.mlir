// RUN: hlo-opt %s | FileCheck %s
// RUN: hlo-opt %s | hlo-opt | FileCheck %s
// RUN: hlo-opt %s --mlir-print-op-generic | hlo-opt | FileCheck %s
// RUN: hlo-opt %s > %t.1.mlir && hlo-opt %t.1.mlir > %t.2.mlir && diff %t.1.mlir %t.2.mlir

// Round trip of #hlo.sharding in every form XLA's HloSharding has, on op
// results and on computation parameters (verified against their types).

// CHECK-LABEL: func.func @kinds(
// CHECK-SAME: %{{.*}}: tensor<4x8xf32> {hlo.sharding = #hlo.sharding<devices = [2, 1, 4] [0, 1, 2, 3, 4, 5, 6, 7], last_tile_dims = [replicated]>}
// CHECK-SAME: %{{.*}}: !hlo.token {hlo.sharding = #hlo.sharding<devices = [2, 2] iota [4]>}
func.func @kinds(%x: tensor<4x8xf32> {hlo.sharding = #hlo.sharding<devices = [2, 1, 4] [0, 1, 2, 3, 4, 5, 6, 7], last_tile_dims = [replicated]>},
                 %t: !hlo.token {hlo.sharding = #hlo.sharding<devices = [2, 2] iota [4]>}) -> tensor<4x8xf32> {
  // CHECK: hlo.sharding = #hlo.sharding<replicated>
  %0 = hlo.negate %x {hlo.sharding = #hlo.sharding<replicated>} : tensor<4x8xf32>
  // CHECK: hlo.sharding = #hlo.sharding<manual>
  %1 = hlo.negate %0 {hlo.sharding = #hlo.sharding<manual>} : tensor<4x8xf32>
  // CHECK: hlo.sharding = #hlo.sharding<unknown, shard_as = 1>
  %2 = hlo.negate %1 {hlo.sharding = #hlo.sharding<unknown, shard_as = 1>} : tensor<4x8xf32>
  // CHECK: hlo.sharding = #hlo.sharding<unreduced, shard_like = 2>
  %3 = hlo.negate %2 {hlo.sharding = #hlo.sharding<unreduced, shard_like = 2>} : tensor<4x8xf32>
  // CHECK: hlo.sharding = #hlo.sharding<maximal device = 3, metadata = "{op_name=\22a\22}">
  %4 = hlo.negate %3 {hlo.sharding = #hlo.sharding<maximal device = 3, metadata = "{op_name=\"a\"}">} : tensor<4x8xf32>
  // CHECK: hlo.sharding = #hlo.sharding<devices = [4, 2] iota [8]>
  %5 = hlo.negate %4 {hlo.sharding = #hlo.sharding<devices = [4, 2] iota [8]>} : tensor<4x8xf32>
  // CHECK: hlo.sharding = #hlo.sharding<devices = [2, 4] iota [4, 2] T(1, 0)>
  %6 = hlo.negate %5 {hlo.sharding = #hlo.sharding<devices = [2, 4] iota [4, 2] T(1, 0)>} : tensor<4x8xf32>
  // CHECK: hlo.sharding = #hlo.sharding<devices = [2, 1, 2, 2] iota [8], last_tile_dims = [manual, replicated]>
  %7 = hlo.negate %6 {hlo.sharding = #hlo.sharding<devices = [2, 1, 2, 2] iota [8], last_tile_dims = [manual, replicated]>} : tensor<4x8xf32>
  // An iota with one dimension needs no T(...).
  // CHECK: hlo.sharding = #hlo.sharding<devices = [2, 1] iota [2]>
  %8 = hlo.negate %7 {hlo.sharding = #hlo.sharding<devices = [2, 1] iota [2] T(0)>} : tensor<4x8xf32>
  return %8 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @tuples(
func.func @tuples(%a: tensor<2xf32>, %b: tensor<f32>, %t: !hlo.token) -> tuple<tensor<2xf32>, tuple<tensor<f32>, !hlo.token>> {
  // One element per leaf of the (nested) tuple.
  // CHECK: hlo.sharding = #hlo.sharding<tuple [<devices = [2] [1, 0]>, <replicated>, <maximal device = 0>]>
  %0 = hlo.tuple %b, %t {hlo.sharding = #hlo.sharding<tuple [<replicated>, <maximal device = 0>]>} : (tensor<f32>, !hlo.token) -> tuple<tensor<f32>, !hlo.token>
  %1 = hlo.tuple %a, %0 {hlo.sharding = #hlo.sharding<tuple [<devices = [2] [1, 0]>, <replicated>, <maximal device = 0>]>} : (tensor<2xf32>, tuple<tensor<f32>, !hlo.token>) -> tuple<tensor<2xf32>, tuple<tensor<f32>, !hlo.token>>
  // An empty tuple takes no element or one.
  // CHECK: hlo.sharding = #hlo.sharding<tuple []>
  %2 = "hlo.tuple"() {hlo.sharding = #hlo.sharding<tuple []>} : () -> tuple<>
  // CHECK: hlo.sharding = #hlo.sharding<tuple [<replicated>]>
  %3 = "hlo.tuple"() {hlo.sharding = #hlo.sharding<tuple [<replicated>]>} : () -> tuple<>
  return %1 : tuple<tensor<2xf32>, tuple<tensor<f32>, !hlo.token>>
}
