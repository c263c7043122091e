// RUN: hlo-opt %s --split-input-file --verify-diagnostics

// Invalid collectives: replica groups, all_reduce(_start/_done),
// all_gather(_start/_done), all_to_all, ragged_all_to_all, reduce_scatter,
// collective_broadcast, collective_reduce, collective_permute(_start/_done),
// replica_id and partition_id: one case per verifier message (and at least
// one per op).

// replica groups (checked for every op that has them)

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @replica_group_empty(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.all_reduce' op replica group 1 is empty}}
  %0 = hlo.all_reduce %x {to_apply = @sum, replica_groups = #hlo.groups<[[0, 1], []]>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @replica_group_negative(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.all_reduce' op replica_groups contain the negative id -1}}
  %0 = hlo.all_reduce %x {to_apply = @sum, replica_groups = #hlo.groups<[[0, -1]]>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @replica_group_repeated(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.all_gather' op replica id 1 appears more than once in replica_groups}}
  %0 = hlo.all_gather %x {all_gather_dimension = 0 : i64, replica_groups = #hlo.groups<[[0, 1], [1, 2]]>} : (tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @replica_group_missing_id(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.collective_broadcast' op replica_groups must name every id from 0 to 2, but 1 is missing}}
  %0 = hlo.collective_broadcast %x {replica_groups = #hlo.groups<[[0, 2], [3]]>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @replica_group_sizes(%x: tensor<6xf32>) {
  // expected-error @+1 {{'hlo.all_to_all' op all replica groups must have the same size, but group 0 has 2 ids and group 1 has 1}}
  %0 = hlo.all_to_all %x {dimensions = array<i64: 0>, replica_groups = #hlo.groups<[[0, 1], [2]]>} : (tensor<6xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @use_global_device_ids_without_channel(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.all_reduce' op use_global_device_ids requires a channel_id}}
  %0 = hlo.all_reduce %x {to_apply = @sum, replica_groups = #hlo.groups<[[0, 1]]>, use_global_device_ids = true} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @iota_groups_invalid(%x: tensor<4xf32>) {
  // expected-error @+1 {{iota replica groups: group_shape has 8 devices but reshape_dims has 4}}
  %0 = hlo.all_gather %x {all_gather_dimension = 0 : i64, replica_groups = #hlo.iota_groups<group_shape = [2, 4], reshape_dims = [4]>} : (tensor<4xf32>) -> tensor<16xf32>
  return
}

// -----

// all_reduce, all_reduce_start, all_reduce_done

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @all_reduce_no_operands() {
  // expected-error @+1 {{'hlo.all_reduce' op needs at least one operand}}
  hlo.all_reduce {to_apply = @sum} : () -> ()
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @all_reduce_result_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.all_reduce' op has 2 results but 1 operands (one result per operand)}}
  %0:2 = hlo.all_reduce %x {to_apply = @sum} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @all_reduce_result_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.all_reduce' op result 0 has type 'tensor<2x2xf32>' but operand 0 has type 'tensor<4xf32>'}}
  %0 = hlo.all_reduce %x {to_apply = @sum} : (tensor<4xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @all_reduce_callee(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.all_reduce' op to_apply computation 'sum' must take ('tensor<i32>', 'tensor<i32>') but takes ('tensor<f32>', 'tensor<f32>')}}
  %0 = hlo.all_reduce %x {to_apply = @sum} : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @two(%a: tensor<f32>, %b: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  return %a, %b : tensor<f32>, tensor<f32>
}
func.func @all_reduce_callee_results(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.all_reduce' op to_apply computation 'two' must return ('tensor<f32>') but returns ('tensor<f32>', 'tensor<f32>')}}
  %0 = hlo.all_reduce %x {to_apply = @two} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @all_reduce_missing_callee(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.all_reduce' op to_apply refers to 'nowhere', which is not a func.func in this module}}
  %0 = hlo.all_reduce %x {to_apply = @nowhere} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @all_reduce_start_result(%x: tensor<4xf32>, %y: tensor<2xf32>) {
  // expected-error @+1 {{'hlo.all_reduce_start' op result has type 'tensor<4xf32>' but 'tuple<tensor<4xf32>, tensor<2xf32>>' (the operand, or a tuple of the operands) was expected}}
  %0 = hlo.all_reduce_start %x, %y {to_apply = @sum} : (tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @all_reduce_start_no_operands() {
  // expected-error @+1 {{'hlo.all_reduce_start' op needs at least one operand}}
  %0 = hlo.all_reduce_start {to_apply = @sum} : () -> tensor<f32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @all_reduce_start_groups(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.all_reduce_start' op replica id 0 appears more than once in replica_groups}}
  %0 = hlo.all_reduce_start %x {to_apply = @sum, replica_groups = #hlo.groups<[[0, 0]]>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @all_reduce_start_callee(%x: tensor<4xf16>) {
  // expected-error @+1 {{'hlo.all_reduce_start' op to_apply computation 'sum' must take ('tensor<f16>', 'tensor<f16>') but takes ('tensor<f32>', 'tensor<f32>')}}
  %0 = hlo.all_reduce_start %x {to_apply = @sum} : (tensor<4xf16>) -> tensor<4xf16>
  return
}

// -----

func.func @all_reduce_done_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.all_reduce_done' op requires the same type for all operands and results}}
  %0 = "hlo.all_reduce_done"(%x) : (tensor<4xf32>) -> tensor<2xf32>
  return
}

// -----

// all_gather, all_gather_start, all_gather_done

func.func @all_gather_no_operands() {
  // expected-error @+1 {{'hlo.all_gather' op needs at least one operand}}
  hlo.all_gather {all_gather_dimension = 0 : i64} : () -> ()
  return
}

// -----

func.func @all_gather_result_count(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.all_gather' op has 1 gathered results but 2 operands (one per operand)}}
  %0 = hlo.all_gather %x, %y {all_gather_dimension = 0 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @all_gather_dimension(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'hlo.all_gather' op all_gather_dimension 2 is out of range for operand 0 of rank 2}}
  %0 = hlo.all_gather %x {all_gather_dimension = 2 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @all_gather_element_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.all_gather' op result 0 has element type 'f16' but operand 0 has element type 'f32'}}
  %0 = hlo.all_gather %x {all_gather_dimension = 0 : i64} : (tensor<4xf32>) -> tensor<8xf16>
  return
}

// -----

func.func @all_gather_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'hlo.all_gather' op result 0 has shape [4, 16] but [4, 32] was expected}}
  %0 = hlo.all_gather %x {all_gather_dimension = 1 : i64, replica_groups = #hlo.groups<[[0, 1, 2, 3]]>} : (tensor<4x8xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @all_gather_other_dims(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'hlo.all_gather' op result 0 has shape [8, 16] but [4, ?] was expected}}
  %0 = hlo.all_gather %x {all_gather_dimension = 1 : i64} : (tensor<4x8xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @all_gather_multiple(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.all_gather' op dimension 0 of result 0 (size 6) is not a multiple of dimension 0 of operand 0 (size 4)}}
  %0 = hlo.all_gather %x {all_gather_dimension = 0 : i64} : (tensor<4xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @all_gather_start_arity(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.all_gather_start' op result must be a 2-tuple (operands, gathered results), got 'tuple<tensor<8xf32>>'}}
  %0 = hlo.all_gather_start %x {all_gather_dimension = 0 : i64} : (tensor<4xf32>) -> tuple<tensor<8xf32>>
  return
}

// -----

func.func @all_gather_start_operands(%x: tensor<4xf32>, %y: tensor<2xf32>) {
  // expected-error @+1 {{'hlo.all_gather_start' op result element 0 has type 'tensor<4xf32>' but 'tuple<tensor<4xf32>, tensor<2xf32>>' (the operand, or a tuple of the operands) was expected}}
  %0 = hlo.all_gather_start %x, %y {all_gather_dimension = 0 : i64} : (tensor<4xf32>, tensor<2xf32>) -> tuple<tensor<4xf32>, tuple<tensor<8xf32>, tensor<4xf32>>>
  return
}

// -----

func.func @all_gather_start_not_tuple(%x: tensor<4xf32>, %y: tensor<2xf32>) {
  // expected-error @+1 {{'hlo.all_gather_start' op result element 1 must be a tuple of the 2 gathered arrays, got 'tensor<8xf32>'}}
  %0 = hlo.all_gather_start %x, %y {all_gather_dimension = 0 : i64} : (tensor<4xf32>, tensor<2xf32>) -> tuple<tuple<tensor<4xf32>, tensor<2xf32>>, tensor<8xf32>>
  return
}

// -----

func.func @all_gather_start_not_array(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.all_gather_start' op result 0 must be an array, got 'tuple<tensor<8xf32>>'}}
  %0 = hlo.all_gather_start %x {all_gather_dimension = 0 : i64} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tuple<tensor<8xf32>>>
  return
}

// -----

func.func @all_gather_start_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.all_gather_start' op result 0 has shape [4] but [8] was expected}}
  %0 = hlo.all_gather_start %x {all_gather_dimension = 0 : i64, replica_groups = #hlo.groups<[[0, 1]]>} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  return
}

// -----

func.func @all_gather_start_no_operands() {
  // expected-error @+1 {{'hlo.all_gather_start' op needs at least one operand}}
  %0 = hlo.all_gather_start {all_gather_dimension = 0 : i64} : () -> tuple<tensor<f32>, tensor<f32>>
  return
}

// -----

func.func @all_gather_done_operand(%t: tuple<tensor<4xf32>>) {
  // expected-error @+1 {{'hlo.all_gather_done' op operand must be the tuple produced by all_gather_start, got 'tuple<tensor<4xf32>>'}}
  %0 = hlo.all_gather_done %t : (tuple<tensor<4xf32>>) -> tensor<4xf32>
  return
}

// -----

func.func @all_gather_done_result(%t: tuple<tensor<4xf32>, tensor<8xf32>>) {
  // expected-error @+1 {{'hlo.all_gather_done' op result has type 'tensor<4xf32>' but 'tensor<8xf32>' (element 1 of the all_gather_start tuple) was expected}}
  %0 = hlo.all_gather_done %t : (tuple<tensor<4xf32>, tensor<8xf32>>) -> tensor<4xf32>
  return
}

// -----

// all_to_all, ragged_all_to_all

func.func @all_to_all_dimensions(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'hlo.all_to_all' op dimensions must have exactly one entry (the split and concat dimension), got [0, 1]}}
  %0 = hlo.all_to_all %x {dimensions = array<i64: 0, 1>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @all_to_all_array_operands(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.all_to_all' op the array form (with dimensions) takes exactly one operand, got 2}}
  %0:2 = hlo.all_to_all %x, %y {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @all_to_all_dimension_range(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'hlo.all_to_all' op dimension 2 is out of range for the operand of rank 2}}
  %0 = hlo.all_to_all %x {dimensions = array<i64: 2>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @all_to_all_divisible(%x: tensor<4x6xf32>) {
  // expected-error @+1 {{'hlo.all_to_all' op dimension 1 of the operand (size 6) is not divisible by the replica group size 4}}
  %0 = hlo.all_to_all %x {dimensions = array<i64: 1>, replica_groups = #hlo.groups<[[0, 1, 2, 3]]>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @all_to_all_result(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'hlo.all_to_all' op result 0 has type 'tensor<16xf32>' but operand 0 has type 'tensor<4x4xf32>'}}
  %0 = hlo.all_to_all %x {dimensions = array<i64: 0>} : (tensor<4x4xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @all_to_all_tuple_shapes(%x: tensor<4xf32>, %y: tensor<8xf32>) {
  // expected-error @+1 {{'hlo.all_to_all' op operand 1 has type 'tensor<8xf32>' but operand 0 has type 'tensor<4xf32>' (the tuple form exchanges same-shaped operands)}}
  %0:2 = hlo.all_to_all %x, %y : (tensor<4xf32>, tensor<8xf32>) -> (tensor<4xf32>, tensor<8xf32>)
  return
}

// -----

func.func @all_to_all_tuple_count(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.all_to_all' op the tuple form takes one operand per replica of a group (4), got 2}}
  %0:2 = hlo.all_to_all %x, %y {replica_groups = #hlo.groups<[[0, 1, 2, 3]]>} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @all_to_all_no_operands() {
  // expected-error @+1 {{'hlo.all_to_all' op needs at least one operand}}
  hlo.all_to_all : () -> ()
  return
}

// -----

func.func @ragged_all_to_all_element_type(%in: tensor<6xf32>, %out: tensor<8xf16>, %o: tensor<2xi32>) {
  // expected-error @+1 {{'hlo.ragged_all_to_all' op input has element type 'f32' but output has element type 'f16'}}
  %0 = hlo.ragged_all_to_all %in, %out, %o, %o, %o, %o : (tensor<6xf32>, tensor<8xf16>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<8xf16>
  return
}

// -----

func.func @ragged_all_to_all_rows(%in: tensor<6x4xf32>, %out: tensor<8x3xf32>, %o: tensor<2xi32>) {
  // expected-error @+1 {{'hlo.ragged_all_to_all' op input and output must be ragged along their first dimension with equal other dimensions, got shapes [6, 4] and [8, 3]}}
  %0 = hlo.ragged_all_to_all %in, %out, %o, %o, %o, %o : (tensor<6x4xf32>, tensor<8x3xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<8x3xf32>
  return
}

// -----

func.func @ragged_all_to_all_offsets_rank(%in: tensor<6xf32>, %out: tensor<8xf32>, %o: tensor<2x2x2xi32>) {
  // expected-error @+1 {{'hlo.ragged_all_to_all' op input_offsets must have rank 1 or 2, got 'tensor<2x2x2xi32>'}}
  %0 = hlo.ragged_all_to_all %in, %out, %o, %o, %o, %o : (tensor<6xf32>, tensor<8xf32>, tensor<2x2x2xi32>, tensor<2x2x2xi32>, tensor<2x2x2xi32>, tensor<2x2x2xi32>) -> tensor<8xf32>
  return
}

// -----

func.func @ragged_all_to_all_sizes_type(%in: tensor<6xf32>, %out: tensor<8xf32>, %o: tensor<2xi32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'hlo.ragged_all_to_all' op send_sizes has type 'tensor<2xi64>' but input_offsets has type 'tensor<2xi32>' (offsets and sizes must all have the same type)}}
  %0 = hlo.ragged_all_to_all %in, %out, %o, %s, %o, %o : (tensor<6xf32>, tensor<8xf32>, tensor<2xi32>, tensor<2xi64>, tensor<2xi32>, tensor<2xi32>) -> tensor<8xf32>
  return
}

// -----

func.func @ragged_all_to_all_result(%in: tensor<6xf32>, %out: tensor<8xf32>, %o: tensor<2xi32>) {
  // expected-error @+1 {{'hlo.ragged_all_to_all' op result has type 'tensor<6xf32>' but 'tensor<8xf32>' (the type of output) was expected}}
  %0 = hlo.ragged_all_to_all %in, %out, %o, %o, %o, %o : (tensor<6xf32>, tensor<8xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<6xf32>
  return
}

// -----

func.func @ragged_all_to_all_groups(%in: tensor<6xf32>, %out: tensor<8xf32>, %o: tensor<2xi32>) {
  // expected-error @+1 {{'hlo.ragged_all_to_all' op all replica groups must have the same size, but group 0 has 1 ids and group 1 has 2}}
  %0 = hlo.ragged_all_to_all %in, %out, %o, %o, %o, %o {replica_groups = #hlo.groups<[[0], [1, 2]]>} : (tensor<6xf32>, tensor<8xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<8xf32>
  return
}

// -----

func.func @ragged_all_to_all_float_offsets(%in: tensor<6xf32>, %out: tensor<8xf32>, %o: tensor<2xf32>) {
  // expected-error @+1 {{'hlo.ragged_all_to_all' op operand #2 must be ranked tensor of integer values, but got 'tensor<2xf32>'}}
  %0 = hlo.ragged_all_to_all %in, %out, %o, %o, %o, %o : (tensor<6xf32>, tensor<8xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<8xf32>
  return
}

// -----

// reduce_scatter

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_scatter_no_operands() {
  // expected-error @+1 {{'hlo.reduce_scatter' op needs at least one operand}}
  hlo.reduce_scatter {to_apply = @sum, scatter_dimension = 0 : i64} : () -> ()
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_scatter_result_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.reduce_scatter' op has 2 results but 1 operands (one result per operand)}}
  %0:2 = hlo.reduce_scatter %x {to_apply = @sum, scatter_dimension = 0 : i64} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_scatter_dimension(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.reduce_scatter' op scatter_dimension 1 is out of range for operand 0 of rank 1}}
  %0 = hlo.reduce_scatter %x {to_apply = @sum, scatter_dimension = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_scatter_divisible(%x: tensor<6xf32>) {
  // expected-error @+1 {{'hlo.reduce_scatter' op dimension 0 of operand 0 (size 6) is not divisible by the replica group size 4}}
  %0 = hlo.reduce_scatter %x {to_apply = @sum, scatter_dimension = 0 : i64, replica_groups = #hlo.groups<[[0, 1, 2, 3]]>} : (tensor<6xf32>) -> tensor<1xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_scatter_shape(%x: tensor<8xf32>) {
  // expected-error @+1 {{'hlo.reduce_scatter' op result 0 has shape [4] but [2] was expected}}
  %0 = hlo.reduce_scatter %x {to_apply = @sum, scatter_dimension = 0 : i64, replica_groups = #hlo.groups<[[0, 1, 2, 3]]>} : (tensor<8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_scatter_multiple(%x: tensor<6xf32>) {
  // expected-error @+1 {{'hlo.reduce_scatter' op dimension 0 of operand 0 (size 6) is not a multiple of dimension 0 of result 0 (size 4)}}
  %0 = hlo.reduce_scatter %x {to_apply = @sum, scatter_dimension = 0 : i64} : (tensor<6xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_scatter_element_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{'hlo.reduce_scatter' op result 0 has element type 'bf16' but operand 0 has element type 'f32'}}
  %0 = hlo.reduce_scatter %x {to_apply = @sum, scatter_dimension = 0 : i64} : (tensor<8xf32>) -> tensor<4xbf16>
  return
}

// -----

func.func @max_i32(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %0 = hlo.maximum %a, %b : tensor<i32>
  return %0 : tensor<i32>
}
func.func @reduce_scatter_callee(%x: tensor<8xf32>) {
  // expected-error @+1 {{'hlo.reduce_scatter' op to_apply computation 'max_i32' must take ('tensor<f32>', 'tensor<f32>') but takes ('tensor<i32>', 'tensor<i32>')}}
  %0 = hlo.reduce_scatter %x {to_apply = @max_i32, scatter_dimension = 0 : i64} : (tensor<8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_scatter_groups(%x: tensor<8xf32>) {
  // expected-error @+1 {{'hlo.reduce_scatter' op all replica groups must have the same size, but group 0 has 3 ids and group 1 has 1}}
  %0 = hlo.reduce_scatter %x {to_apply = @sum, scatter_dimension = 0 : i64, replica_groups = #hlo.groups<[[0, 1, 2], [3]]>} : (tensor<8xf32>) -> tensor<4xf32>
  return
}

// -----

// collective_broadcast, collective_reduce

func.func @collective_broadcast_no_operands() {
  // expected-error @+1 {{'hlo.collective_broadcast' op needs at least one operand}}
  hlo.collective_broadcast : () -> ()
  return
}

// -----

func.func @collective_broadcast_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.collective_broadcast' op result 0 has type 'tensor<4xi32>' but operand 0 has type 'tensor<4xf32>'}}
  %0 = hlo.collective_broadcast %x : (tensor<4xf32>) -> tensor<4xi32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @collective_reduce_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.collective_reduce' op has 0 results but 1 operands (one result per operand)}}
  hlo.collective_reduce %x {to_apply = @sum} : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @collective_reduce_no_operands() {
  // expected-error @+1 {{'hlo.collective_reduce' op needs at least one operand}}
  hlo.collective_reduce {to_apply = @sum} : () -> ()
  return
}

// -----

func.func @max_i32(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %0 = hlo.maximum %a, %b : tensor<i32>
  return %0 : tensor<i32>
}
func.func @collective_reduce_callee(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.collective_reduce' op to_apply computation 'max_i32' must take ('tensor<f32>', 'tensor<f32>') but takes ('tensor<i32>', 'tensor<i32>')}}
  %0 = hlo.collective_reduce %x {to_apply = @max_i32} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @collective_reduce_global_ids(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.collective_reduce' op use_global_device_ids requires a channel_id}}
  %0 = hlo.collective_reduce %x {to_apply = @sum, use_global_device_ids = true} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// collective_permute, collective_permute_start, collective_permute_done

func.func @collective_permute_pair(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.collective_permute' op source_target_pairs entry 1 has 3 ids, expected a (source, target) pair}}
  %0 = hlo.collective_permute %x {source_target_pairs = #hlo.groups<[[0, 1], [1, 2, 3]]>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @collective_permute_negative(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.collective_permute' op source_target_pairs contain the negative id -1}}
  %0 = hlo.collective_permute %x {source_target_pairs = #hlo.groups<[[0, -1]]>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @collective_permute_source(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.collective_permute' op source 0 appears more than once in source_target_pairs}}
  %0 = hlo.collective_permute %x {source_target_pairs = #hlo.groups<[[0, 1], [0, 2]]>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @collective_permute_target(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.collective_permute' op target 1 appears more than once in source_target_pairs}}
  %0 = hlo.collective_permute %x {source_target_pairs = #hlo.groups<[[0, 1], [2, 1]]>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @collective_permute_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.collective_permute' op result 0 has type 'tensor<8xf32>' but operand 0 has type 'tensor<4xf32>'}}
  %0 = hlo.collective_permute %x {source_target_pairs = #hlo.groups<[[0, 1]]>} : (tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @collective_permute_no_operands() {
  // expected-error @+1 {{'hlo.collective_permute' op needs at least one operand}}
  hlo.collective_permute {source_target_pairs = #hlo.groups<[[0, 1]]>} : () -> ()
  return
}

// -----

func.func @collective_permute_missing_pairs(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.collective_permute' op requires attribute 'source_target_pairs'}}
  %0 = hlo.collective_permute %x : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @collective_permute_start_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.collective_permute_start' op result has type 'tuple<tensor<4xf32>, tensor<8xf32>>' but ('tensor<4xf32>', 'tensor<4xf32>', context...) was expected}}
  %0 = hlo.collective_permute_start %x {source_target_pairs = #hlo.groups<[[0, 1]]>} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<8xf32>>
  return
}

// -----

func.func @collective_permute_start_pairs(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.collective_permute_start' op target 0 appears more than once in source_target_pairs}}
  %0 = hlo.collective_permute_start %x {source_target_pairs = #hlo.groups<[[1, 0], [2, 0]]>} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  return
}

// -----

func.func @collective_permute_start_no_operands() {
  // expected-error @+1 {{'hlo.collective_permute_start' op needs at least one operand}}
  %0 = hlo.collective_permute_start {source_target_pairs = #hlo.groups<[[0, 1]]>} : () -> tuple<tensor<f32>, tensor<f32>>
  return
}

// -----

func.func @collective_permute_done_operand(%t: tuple<tensor<4xf32>>) {
  // expected-error @+1 {{'hlo.collective_permute_done' op operand must be the tuple produced by collective_permute_start, got 'tuple<tensor<4xf32>>'}}
  %0 = hlo.collective_permute_done %t : (tuple<tensor<4xf32>>) -> tensor<4xf32>
  return
}

// -----

func.func @collective_permute_done_result(%t: tuple<tensor<4xf32>, tensor<4xf32>, tensor<ui32>>) {
  // expected-error @+1 {{'hlo.collective_permute_done' op result has type 'tensor<ui32>' but 'tensor<4xf32>' (element 1 of the collective_permute_start tuple) was expected}}
  %0 = hlo.collective_permute_done %t : (tuple<tensor<4xf32>, tensor<4xf32>, tensor<ui32>>) -> tensor<ui32>
  return
}

// -----

// replica_id, partition_id

func.func @replica_id_type() {
  // expected-error @+1 {{'hlo.replica_id' op result #0 must be 0D tensor of 32-bit unsigned integer values, but got 'tensor<i32>'}}
  %0 = hlo.replica_id : tensor<i32>
  return
}

// -----

func.func @partition_id_type() {
  // expected-error @+1 {{'hlo.partition_id' op result #0 must be 0D tensor of 32-bit unsigned integer values, but got 'tensor<1xui32>'}}
  %0 = hlo.partition_id : tensor<1xui32>
  return
}

// -----

// A gather whose groups name replicas across all partitions (a channel_id
// without use_global_device_ids) has replicas x partitions shards.
module attributes {hlo.module_attributes = {num_partitions = "2"}} {
  func.func @gather_across_partitions(%x: tensor<4xf32>) {
    // expected-error @+1 {{'hlo.all_gather' op result 0 has shape [8] but [16] was expected}}
    %0 = hlo.all_gather %x {all_gather_dimension = 0 : i64, channel_id = 1 : i64, replica_groups = #hlo.groups<[[0, 1]]>} : (tensor<4xf32>) -> tensor<8xf32>
    return
  }
}
