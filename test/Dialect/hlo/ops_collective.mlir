// RUN: hlo-opt %s | FileCheck %s
// RUN: hlo-opt %s | hlo-opt | FileCheck %s
// RUN: hlo-opt %s --mlir-print-op-generic | hlo-opt | FileCheck %s
// RUN: hlo-opt %s > %t.1.mlir && hlo-opt %t.1.mlir > %t.2.mlir && diff %t.1.mlir %t.2.mlir

// Round trip of the collectives: all_reduce(_start/_done),
// all_gather(_start/_done), all_to_all, ragged_all_to_all, reduce_scatter,
// collective_broadcast, collective_reduce, collective_permute(_start/_done),
// replica_id and partition_id.

// Called computations.

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

func.func @max_i32(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %0 = hlo.maximum %a, %b : tensor<i32>
  return %0 : tensor<i32>
}

// CHECK-LABEL: func.func @all_reduce(
// CHECK: %{{.*}} = hlo.all_reduce %{{.*}} {to_apply = @sum} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: %{{.*}} = hlo.all_reduce %{{.*}} {channel_id = 1 : i64, replica_groups = #hlo.groups<{{\[\[}}0, 2], [1, 3]]>, to_apply = @sum, use_global_device_ids = true} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @all_reduce(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = hlo.all_reduce %x {to_apply = @sum} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = hlo.all_reduce %0 {to_apply = @sum, replica_groups = #hlo.groups<[[0, 2], [1, 3]]>, channel_id = 1 : i64, use_global_device_ids = true} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// Several operands, groups of different sizes (allowed for all-reduce) and
// iota replica groups.
// CHECK-LABEL: func.func @all_reduce_variadic(
// CHECK: %{{.*}} = hlo.all_reduce %{{.*}}, %{{.*}} {replica_groups = #hlo.groups<{{\[\[}}0], [1, 2, 3]]>, to_apply = @sum} : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)
// CHECK: %{{.*}} = hlo.all_reduce %{{.*}}, %{{.*}} {replica_groups = #hlo.iota_groups<group_shape = [2, 4], reshape_dims = [4, 2], transpose = [1, 0]>, to_apply = @sum} : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)
func.func @all_reduce_variadic(%x: tensor<4xf32>, %y: tensor<f32>) -> (tensor<4xf32>, tensor<f32>) {
  %0:2 = hlo.all_reduce %x, %y {to_apply = @sum, replica_groups = #hlo.groups<[[0], [1, 2, 3]]>} : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)
  %1:2 = hlo.all_reduce %0#0, %0#1 {to_apply = @sum, replica_groups = #hlo.iota_groups<group_shape = [2, 4], reshape_dims = [4, 2], transpose = [1, 0]>} : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)
  return %1#0, %1#1 : tensor<4xf32>, tensor<f32>
}

// CHECK-LABEL: func.func @all_reduce_start(
// CHECK: %{{.*}} = hlo.all_reduce_start %{{.*}} {replica_groups = #hlo.groups<{{\[\[}}0, 1]]>, to_apply = @max_i32} : (tensor<4xi32>) -> tensor<4xi32>
// CHECK: %{{.*}} = hlo.all_reduce_done %{{.*}} : tensor<4xi32>
// CHECK: %{{.*}} = hlo.all_reduce_start %{{.*}}, %{{.*}} {to_apply = @max_i32} : (tensor<4xi32>, tensor<2xi32>) -> tuple<tensor<4xi32>, tensor<2xi32>>
// CHECK: %{{.*}} = hlo.all_reduce_done %{{.*}} : tuple<tensor<4xi32>, tensor<2xi32>>
func.func @all_reduce_start(%x: tensor<4xi32>, %y: tensor<2xi32>) -> tensor<4xi32> {
  %0 = hlo.all_reduce_start %x {to_apply = @max_i32, replica_groups = #hlo.groups<[[0, 1]]>} : (tensor<4xi32>) -> tensor<4xi32>
  %1 = hlo.all_reduce_done %0 : tensor<4xi32>
  %2 = hlo.all_reduce_start %x, %y {to_apply = @max_i32} : (tensor<4xi32>, tensor<2xi32>) -> tuple<tensor<4xi32>, tensor<2xi32>>
  %3 = hlo.all_reduce_done %2 : tuple<tensor<4xi32>, tensor<2xi32>>
  return %1 : tensor<4xi32>
}

// CHECK-LABEL: func.func @all_gather(
// CHECK: %{{.*}} = hlo.all_gather %{{.*}} {all_gather_dimension = 1 : i64, replica_groups = #hlo.groups<{{\[\[}}0, 1, 2, 3]]>} : (tensor<4x8xf32>) -> tensor<4x32xf32>
// CHECK: %{{.*}} = hlo.all_gather %{{.*}} {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
func.func @all_gather(%x: tensor<4x8xf32>) -> tensor<4x32xf32> {
  %0 = hlo.all_gather %x {all_gather_dimension = 1 : i64, replica_groups = #hlo.groups<[[0, 1, 2, 3]]>} : (tensor<4x8xf32>) -> tensor<4x32xf32>
  %1 = hlo.all_gather %x {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<4x32xf32>
}

// CHECK-LABEL: func.func @all_gather_variadic(
// CHECK: %{{.*}} = hlo.all_gather %{{.*}}, %{{.*}} {all_gather_dimension = 0 : i64, channel_id = 3 : i64, replica_groups = #hlo.iota_groups<group_shape = [4, 2], reshape_dims = [8]>, use_global_device_ids = true} : (tensor<4xf32>, tensor<2x3xbf16>) -> (tensor<8xf32>, tensor<4x3xbf16>)
func.func @all_gather_variadic(%x: tensor<4xf32>, %y: tensor<2x3xbf16>) -> (tensor<8xf32>, tensor<4x3xbf16>) {
  %0:2 = hlo.all_gather %x, %y {all_gather_dimension = 0 : i64, replica_groups = #hlo.iota_groups<group_shape = [4, 2], reshape_dims = [8]>, channel_id = 3 : i64, use_global_device_ids = true} : (tensor<4xf32>, tensor<2x3xbf16>) -> (tensor<8xf32>, tensor<4x3xbf16>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<4x3xbf16>
}

// CHECK-LABEL: func.func @all_gather_start(
// CHECK: %{{.*}} = hlo.all_gather_start %{{.*}} {all_gather_dimension = 0 : i64, replica_groups = #hlo.groups<{{\[\[}}0, 1], [2, 3]]>} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<8xf32>>
// CHECK: %{{.*}} = hlo.all_gather_done %{{.*}} : (tuple<tensor<4xf32>, tensor<8xf32>>) -> tensor<8xf32>
// CHECK: %{{.*}} = hlo.all_gather_start %{{.*}}, %{{.*}} {all_gather_dimension = 0 : i64, replica_groups = #hlo.groups<{{\[\[}}0, 1], [2, 3]]>} : (tensor<4xf32>, tensor<2xi32>) -> tuple<tuple<tensor<4xf32>, tensor<2xi32>>, tuple<tensor<8xf32>, tensor<4xi32>>>
// CHECK: %{{.*}} = hlo.all_gather_done %{{.*}} : (tuple<tuple<tensor<4xf32>, tensor<2xi32>>, tuple<tensor<8xf32>, tensor<4xi32>>>) -> tuple<tensor<8xf32>, tensor<4xi32>>
func.func @all_gather_start(%x: tensor<4xf32>, %y: tensor<2xi32>) -> tensor<8xf32> {
  %0 = hlo.all_gather_start %x {all_gather_dimension = 0 : i64, replica_groups = #hlo.groups<[[0, 1], [2, 3]]>} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<8xf32>>
  %1 = hlo.all_gather_done %0 : (tuple<tensor<4xf32>, tensor<8xf32>>) -> tensor<8xf32>
  %2 = hlo.all_gather_start %x, %y {all_gather_dimension = 0 : i64, replica_groups = #hlo.groups<[[0, 1], [2, 3]]>} : (tensor<4xf32>, tensor<2xi32>) -> tuple<tuple<tensor<4xf32>, tensor<2xi32>>, tuple<tensor<8xf32>, tensor<4xi32>>>
  %3 = hlo.all_gather_done %2 : (tuple<tuple<tensor<4xf32>, tensor<2xi32>>, tuple<tensor<8xf32>, tensor<4xi32>>>) -> tuple<tensor<8xf32>, tensor<4xi32>>
  return %1 : tensor<8xf32>
}

// CHECK-LABEL: func.func @all_to_all(
// CHECK: %{{.*}} = hlo.all_to_all %{{.*}} {dimensions = array<i64: 1>, replica_groups = #hlo.groups<{{\[\[}}0, 1, 2, 3]]>} : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK: %{{.*}} = hlo.all_to_all %{{.*}} {channel_id = 2 : i64, dimensions = array<i64: 0>} : (tensor<4x16xf32>) -> tensor<4x16xf32>
func.func @all_to_all(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = hlo.all_to_all %x {dimensions = array<i64: 1>, replica_groups = #hlo.groups<[[0, 1, 2, 3]]>} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = hlo.all_to_all %0 {dimensions = array<i64: 0>, channel_id = 2 : i64} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %1 : tensor<4x16xf32>
}

// Tuple form: one operand per replica of a group.
// CHECK-LABEL: func.func @all_to_all_tuple(
// CHECK: %{{.*}} = hlo.all_to_all %{{.*}}, %{{.*}} {replica_groups = #hlo.groups<{{\[\[}}0, 1], [2, 3]]>} : (tensor<8xi32>, tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>)
func.func @all_to_all_tuple(%a: tensor<8xi32>, %b: tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>) {
  %0:2 = hlo.all_to_all %a, %b {replica_groups = #hlo.groups<[[0, 1], [2, 3]]>} : (tensor<8xi32>, tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>)
  return %0#0, %0#1 : tensor<8xi32>, tensor<8xi32>
}

// CHECK-LABEL: func.func @ragged_all_to_all(
// CHECK: %{{.*}} = hlo.ragged_all_to_all %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {replica_groups = #hlo.groups<{{\[\[}}0, 1, 2, 3]]>} : (tensor<6x8xf32>, tensor<10x8xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<10x8xf32>
func.func @ragged_all_to_all(%in: tensor<6x8xf32>, %out: tensor<10x8xf32>, %off: tensor<4xi32>, %sizes: tensor<4xi32>) -> tensor<10x8xf32> {
  %0 = hlo.ragged_all_to_all %in, %out, %off, %sizes, %off, %sizes {replica_groups = #hlo.groups<[[0, 1, 2, 3]]>} : (tensor<6x8xf32>, tensor<10x8xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<10x8xf32>
  return %0 : tensor<10x8xf32>
}

// CHECK-LABEL: func.func @ragged_all_to_all_updates(
// CHECK: %{{.*}} = hlo.ragged_all_to_all %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {channel_id = 5 : i64} : (tensor<6xbf16>, tensor<12xbf16>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<12xbf16>
func.func @ragged_all_to_all_updates(%in: tensor<6xbf16>, %out: tensor<12xbf16>, %off: tensor<2x3xi64>) -> tensor<12xbf16> {
  %0 = hlo.ragged_all_to_all %in, %out, %off, %off, %off, %off {channel_id = 5 : i64} : (tensor<6xbf16>, tensor<12xbf16>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<12xbf16>
  return %0 : tensor<12xbf16>
}

// CHECK-LABEL: func.func @reduce_scatter(
// CHECK: %{{.*}} = hlo.reduce_scatter %{{.*}} {replica_groups = #hlo.groups<{{\[\[}}0, 1, 2, 3]]>, scatter_dimension = 1 : i64, to_apply = @sum} : (tensor<4x16xf32>) -> tensor<4x4xf32>
// CHECK: %{{.*}} = hlo.reduce_scatter %{{.*}} {scatter_dimension = 0 : i64, to_apply = @sum} : (tensor<4x16xf32>) -> tensor<2x16xf32>
func.func @reduce_scatter(%x: tensor<4x16xf32>) -> tensor<4x4xf32> {
  %0 = hlo.reduce_scatter %x {to_apply = @sum, scatter_dimension = 1 : i64, replica_groups = #hlo.groups<[[0, 1, 2, 3]]>} : (tensor<4x16xf32>) -> tensor<4x4xf32>
  %1 = hlo.reduce_scatter %x {to_apply = @sum, scatter_dimension = 0 : i64} : (tensor<4x16xf32>) -> tensor<2x16xf32>
  return %0 : tensor<4x4xf32>
}

// CHECK-LABEL: func.func @reduce_scatter_variadic(
// CHECK: %{{.*}} = hlo.reduce_scatter %{{.*}}, %{{.*}} {channel_id = 7 : i64, replica_groups = #hlo.iota_groups<group_shape = [1, 2], reshape_dims = [2]>, scatter_dimension = 0 : i64, to_apply = @sum} : (tensor<8xf32>, tensor<4x2xf32>) -> (tensor<4xf32>, tensor<2x2xf32>)
func.func @reduce_scatter_variadic(%x: tensor<8xf32>, %y: tensor<4x2xf32>) -> (tensor<4xf32>, tensor<2x2xf32>) {
  %0:2 = hlo.reduce_scatter %x, %y {to_apply = @sum, scatter_dimension = 0 : i64, replica_groups = #hlo.iota_groups<group_shape = [1, 2], reshape_dims = [2]>, channel_id = 7 : i64} : (tensor<8xf32>, tensor<4x2xf32>) -> (tensor<4xf32>, tensor<2x2xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<2x2xf32>
}

// CHECK-LABEL: func.func @collective_broadcast(
// CHECK: %{{.*}} = hlo.collective_broadcast %{{.*}} {replica_groups = #hlo.groups<{{\[\[}}1, 0], [3, 2]]>} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %{{.*}} = hlo.collective_broadcast %{{.*}}, %{{.*}} {channel_id = 1 : i64} : (tensor<4xf32>, tensor<i32>) -> (tensor<4xf32>, tensor<i32>)
func.func @collective_broadcast(%x: tensor<4xf32>, %y: tensor<i32>) -> tensor<4xf32> {
  %0 = hlo.collective_broadcast %x {replica_groups = #hlo.groups<[[1, 0], [3, 2]]>} : (tensor<4xf32>) -> tensor<4xf32>
  %1:2 = hlo.collective_broadcast %x, %y {channel_id = 1 : i64} : (tensor<4xf32>, tensor<i32>) -> (tensor<4xf32>, tensor<i32>)
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @collective_reduce(
// CHECK: %{{.*}} = hlo.collective_reduce %{{.*}} {replica_groups = #hlo.groups<{{\[\[}}0, 1]]>, to_apply = @sum} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %{{.*}} = hlo.collective_reduce %{{.*}}, %{{.*}} {to_apply = @sum} : (tensor<4xf32>, tensor<2x2xf32>) -> (tensor<4xf32>, tensor<2x2xf32>)
func.func @collective_reduce(%x: tensor<4xf32>, %y: tensor<2x2xf32>) -> tensor<4xf32> {
  %0 = hlo.collective_reduce %x {to_apply = @sum, replica_groups = #hlo.groups<[[0, 1]]>} : (tensor<4xf32>) -> tensor<4xf32>
  %1:2 = hlo.collective_reduce %x, %y {to_apply = @sum} : (tensor<4xf32>, tensor<2x2xf32>) -> (tensor<4xf32>, tensor<2x2xf32>)
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @collective_permute(
// CHECK: %{{.*}} = hlo.collective_permute %{{.*}} {source_target_pairs = #hlo.groups<{{\[\[}}0, 1], [1, 2], [2, 3], [3, 0]]>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: %{{.*}} = hlo.collective_permute %{{.*}}, %{{.*}} {channel_id = 4 : i64, source_target_pairs = #hlo.groups<{{\[\[}}0, 1]]>} : (tensor<4x8xf32>, tensor<i32>) -> (tensor<4x8xf32>, tensor<i32>)
// CHECK: %{{.*}} = hlo.collective_permute %{{.*}} {source_target_pairs = #hlo.groups<[]>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @collective_permute(%x: tensor<4x8xf32>, %y: tensor<i32>) -> tensor<4x8xf32> {
  %0 = hlo.collective_permute %x {source_target_pairs = #hlo.groups<[[0, 1], [1, 2], [2, 3], [3, 0]]>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1:2 = hlo.collective_permute %x, %y {source_target_pairs = #hlo.groups<[[0, 1]]>, channel_id = 4 : i64} : (tensor<4x8xf32>, tensor<i32>) -> (tensor<4x8xf32>, tensor<i32>)
  %2 = hlo.collective_permute %x {source_target_pairs = #hlo.groups<[]>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @collective_permute_start(
// CHECK: %{{.*}} = hlo.collective_permute_start %{{.*}} {source_target_pairs = #hlo.groups<{{\[\[}}0, 1], [1, 0]]>} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<ui32>, tensor<ui32>>
// CHECK: %{{.*}} = hlo.collective_permute_done %{{.*}} : (tuple<tensor<4xf32>, tensor<4xf32>, tensor<ui32>, tensor<ui32>>) -> tensor<4xf32>
// CHECK: %{{.*}} = hlo.collective_permute_start %{{.*}}, %{{.*}} {channel_id = 2 : i64, source_target_pairs = #hlo.groups<{{\[\[}}0, 1]]>} : (tensor<4xf32>, tensor<2xi32>) -> tuple<tuple<tensor<4xf32>, tensor<2xi32>>, tuple<tensor<4xf32>, tensor<2xi32>>>
// CHECK: %{{.*}} = hlo.collective_permute_done %{{.*}} : (tuple<tuple<tensor<4xf32>, tensor<2xi32>>, tuple<tensor<4xf32>, tensor<2xi32>>>) -> tuple<tensor<4xf32>, tensor<2xi32>>
func.func @collective_permute_start(%x: tensor<4xf32>, %y: tensor<2xi32>) -> tensor<4xf32> {
  %0 = hlo.collective_permute_start %x {source_target_pairs = #hlo.groups<[[0, 1], [1, 0]]>} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<ui32>, tensor<ui32>>
  %1 = hlo.collective_permute_done %0 : (tuple<tensor<4xf32>, tensor<4xf32>, tensor<ui32>, tensor<ui32>>) -> tensor<4xf32>
  %2 = hlo.collective_permute_start %x, %y {source_target_pairs = #hlo.groups<[[0, 1]]>, channel_id = 2 : i64} : (tensor<4xf32>, tensor<2xi32>) -> tuple<tuple<tensor<4xf32>, tensor<2xi32>>, tuple<tensor<4xf32>, tensor<2xi32>>>
  %3 = hlo.collective_permute_done %2 : (tuple<tuple<tensor<4xf32>, tensor<2xi32>>, tuple<tensor<4xf32>, tensor<2xi32>>>) -> tuple<tensor<4xf32>, tensor<2xi32>>
  return %1 : tensor<4xf32>
}

// CHECK-LABEL: func.func @replica_id(
// CHECK: %{{.*}} = hlo.replica_id : tensor<ui32>
func.func @replica_id() -> tensor<ui32> {
  %0 = hlo.replica_id : tensor<ui32>
  return %0 : tensor<ui32>
}

// CHECK-LABEL: func.func @partition_id(
// CHECK: %{{.*}} = hlo.partition_id : tensor<ui32>
func.func @partition_id() -> tensor<ui32> {
  %0 = hlo.partition_id : tensor<ui32>
  return %0 : tensor<ui32>
}

// Replicas across all partitions (a module of 2 partitions): 2 replicas x
// 2 partitions shards.
// CHECK-LABEL: func.func @gather_across_partitions
// CHECK: hlo.all_gather {{.*}} -> tensor<16xf32>
module attributes {hlo.module_attributes = {num_partitions = "2"}} {
  func.func @gather_across_partitions(%x: tensor<4xf32>) -> tensor<16xf32> {
    %0 = hlo.all_gather %x {all_gather_dimension = 0 : i64, channel_id = 1 : i64, replica_groups = #hlo.groups<[[0, 1]]>} : (tensor<4xf32>) -> tensor<16xf32>
    return %0 : tensor<16xf32>
  }
}
