// RUN: hlo-opt %s | FileCheck %s
// RUN: hlo-opt %s | hlo-opt | FileCheck %s
// RUN: hlo-opt %s --mlir-print-op-generic | hlo-opt | FileCheck %s
// RUN: hlo-opt %s > %t.1.mlir && hlo-opt %t.1.mlir > %t.2.mlir && diff %t.1.mlir %t.2.mlir

// Round trip of tuples, control flow, async wrappers, random numbers and
// host/peer communication. Called computations are plain func.funcs.

// Tuples

// CHECK-LABEL: func.func @tuple(
// CHECK: %{{.*}} = hlo.tuple %{{.*}}, %{{.*}} : (tensor<i32>, !hlo.token) -> tuple<tensor<i32>, !hlo.token>
// CHECK: %{{.*}} = hlo.tuple %{{.*}}, %{{.*}} : (tensor<2xf32>, tuple<tensor<i32>, !hlo.token>) -> tuple<tensor<2xf32>, tuple<tensor<i32>, !hlo.token>>
// CHECK: %{{.*}} = hlo.tuple : () -> tuple<>
// CHECK: return %{{.*}} : tuple<tensor<2xf32>, tuple<tensor<i32>, !hlo.token>>
func.func @tuple(%a: tensor<2xf32>, %b: tensor<i32>, %t: !hlo.token) -> tuple<tensor<2xf32>, tuple<tensor<i32>, !hlo.token>> {
  %0 = hlo.tuple %b, %t : (tensor<i32>, !hlo.token) -> tuple<tensor<i32>, !hlo.token>
  %1 = hlo.tuple %a, %0 : (tensor<2xf32>, tuple<tensor<i32>, !hlo.token>) -> tuple<tensor<2xf32>, tuple<tensor<i32>, !hlo.token>>
  %2 = hlo.tuple : () -> tuple<>
  return %1 : tuple<tensor<2xf32>, tuple<tensor<i32>, !hlo.token>>
}

// CHECK-LABEL: func.func @get_tuple_element(
// CHECK: %{{.*}} = hlo.get_tuple_element %{{.*}}[0] : (tuple<tensor<2xf32>, tuple<tensor<i32>, !hlo.token>>) -> tensor<2xf32>
// CHECK: %{{.*}} = hlo.get_tuple_element %{{.*}}[1] : (tuple<tensor<2xf32>, tuple<tensor<i32>, !hlo.token>>) -> tuple<tensor<i32>, !hlo.token>
// CHECK: %{{.*}} = hlo.get_tuple_element %{{.*}}[1] : (tuple<tensor<i32>, !hlo.token>) -> !hlo.token
func.func @get_tuple_element(%t: tuple<tensor<2xf32>, tuple<tensor<i32>, !hlo.token>>) -> tensor<2xf32> {
  %0 = hlo.get_tuple_element %t[0] : (tuple<tensor<2xf32>, tuple<tensor<i32>, !hlo.token>>) -> tensor<2xf32>
  %1 = hlo.get_tuple_element %t[1] : (tuple<tensor<2xf32>, tuple<tensor<i32>, !hlo.token>>) -> tuple<tensor<i32>, !hlo.token>
  %2 = hlo.get_tuple_element %1[1] : (tuple<tensor<i32>, !hlo.token>) -> !hlo.token
  return %0 : tensor<2xf32>
}

// Called computations

// CHECK-LABEL: func.func @add_f32(
// CHECK: %{{.*}} = hlo.add %{{.*}}, %{{.*}} : tensor<f32>
func.func @add_f32(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @pair(
// CHECK: %{{.*}} = hlo.tuple %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
func.func @pair(%a: tensor<f32>) -> tuple<tensor<f32>, tensor<f32>> {
  %0 = hlo.tuple %a, %a : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
  return %0 : tuple<tensor<f32>, tensor<f32>>
}

// CHECK-LABEL: func.func @nothing(
func.func @nothing() -> () {
  return
}

// CHECK-LABEL: func.func @call(
// CHECK: %{{.*}} = hlo.call @add_f32(%{{.*}}, %{{.*}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: %{{.*}} = hlo.call @pair(%{{.*}}) : (tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
// CHECK: %{{.*}}:2 = hlo.call @pair(%{{.*}}) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK: hlo.call @nothing() : () -> ()
func.func @call(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.call @add_f32(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %1 = hlo.call @pair(%0) : (tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
  %2:2 = hlo.call @pair(%0) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  hlo.call @nothing() : () -> ()
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @while_cond(
// CHECK: %{{.*}} = hlo.get_tuple_element %{{.*}}[0] : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
// CHECK: %{{.*}} = hlo.constant dense<10> : tensor<i32>
// CHECK: %{{.*}} = hlo.compare LT, %{{.*}}, %{{.*}} : (tensor<i32>, tensor<i32>) -> tensor<i1>
func.func @while_cond(%s: tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i1> {
  %0 = hlo.get_tuple_element %s[0] : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
  %1 = hlo.constant dense<10> : tensor<i32>
  %2 = hlo.compare LT, %0, %1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %2 : tensor<i1>
}

// CHECK-LABEL: func.func @while_body(
func.func @while_body(%s: tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>> {
  return %s : tuple<tensor<i32>, tensor<4xf32>>
}

// CHECK-LABEL: func.func @while(
// CHECK: %{{.*}} = hlo.while %{{.*}}, condition = @while_cond, body = @while_body : (tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>>
func.func @while(%s: tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>> {
  %0 = hlo.while %s, condition = @while_cond, body = @while_body : (tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>>
  return %0 : tuple<tensor<i32>, tensor<4xf32>>
}

// CHECK-LABEL: func.func @scalar_cond(
// CHECK: %{{.*}} = hlo.compare LT, %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<i1>
func.func @scalar_cond(%s: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare LT, %s, %s : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}

// CHECK-LABEL: func.func @scalar_body(
// CHECK: %{{.*}} = hlo.add %{{.*}}, %{{.*}} : tensor<f32>
func.func @scalar_body(%s: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %s, %s : tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @while_scalar(
// CHECK: %{{.*}} = hlo.while %{{.*}}, condition = @scalar_cond, body = @scalar_body : (tensor<f32>) -> tensor<f32>
func.func @while_scalar(%s: tensor<f32>) -> tensor<f32> {
  %0 = hlo.while %s, condition = @scalar_cond, body = @scalar_body : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @branch_f32(
func.func @branch_f32(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}

// CHECK-LABEL: func.func @branch_i32(
// CHECK: %{{.*}} = hlo.convert %{{.*}} : (tensor<i32>) -> tensor<f32>
func.func @branch_i32(%a: tensor<i32>) -> tensor<f32> {
  %0 = hlo.convert %a : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @branch_token(
// CHECK: %{{.*}} = hlo.constant dense<0.000000e+00> : tensor<f32>
func.func @branch_token(%t: !hlo.token) -> tensor<f32> {
  %0 = hlo.constant dense<0.0> : tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @conditional(
// CHECK: %{{.*}} = hlo.conditional %{{.*}}, %{{.*}}, %{{.*}} {branch_computations = [@branch_f32, @branch_i32]} : (tensor<i1>, tensor<f32>, tensor<i32>) -> tensor<f32>
// CHECK: %{{.*}} = hlo.conditional %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {branch_computations = [@branch_f32, @branch_i32, @branch_token]} : (tensor<i32>, tensor<f32>, tensor<i32>, !hlo.token) -> tensor<f32>
// CHECK: %{{.*}} = hlo.conditional %{{.*}}, %{{.*}} {branch_computations = [@branch_f32]} : (tensor<i32>, tensor<f32>) -> tensor<f32>
func.func @conditional(%p: tensor<i1>, %k: tensor<i32>, %a: tensor<f32>, %b: tensor<i32>, %t: !hlo.token) -> tensor<f32> {
  %0 = hlo.conditional %p, %a, %b {branch_computations = [@branch_f32, @branch_i32]} : (tensor<i1>, tensor<f32>, tensor<i32>) -> tensor<f32>
  %1 = hlo.conditional %k, %a, %b, %t {branch_computations = [@branch_f32, @branch_i32, @branch_token]} : (tensor<i32>, tensor<f32>, tensor<i32>, !hlo.token) -> tensor<f32>
  %2 = hlo.conditional %k, %0 {branch_computations = [@branch_f32]} : (tensor<i32>, tensor<f32>) -> tensor<f32>
  return %2 : tensor<f32>
}

// CHECK-LABEL: func.func @fused(
// CHECK: %{{.*}} = hlo.add %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK: %{{.*}} = hlo.multiply %{{.*}}, %{{.*}} : tensor<4xf32>
func.func @fused(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = hlo.add %a, %b : tensor<4xf32>
  %1 = hlo.multiply %a, %b : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @fusion(
// CHECK: %{{.*}}:2 = hlo.fusion kLoop @fused(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK: %{{.*}} = hlo.fusion kOutput @fused(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
func.func @fusion(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = hlo.fusion kLoop @fused(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %1 = hlo.fusion kOutput @fused(%a, %0#1) : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  return %0#0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @custom_call(
// CHECK: %{{.*}} = hlo.custom_call "my_target"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %{{.*}}:2 = hlo.custom_call "other"(%{{.*}}, %{{.*}}) {api_version = #hlo<api_version API_VERSION_TYPED_FFI>, backend_config = "{x=1}", called_computations = [@add_f32, @pair], has_side_effect = true} : (tensor<4xf32>, !hlo.token) -> (tensor<4xf32>, !hlo.token)
// CHECK: hlo.custom_call "no_operands"() : () -> ()
// CHECK: %{{.*}} = hlo.custom_call "aliased"(%{{.*}}) {operand_layout_constraints = [#hlo.layout<minor_to_major = [0]>], output_to_operand_aliasing = [#hlo.output_operand_alias<operand_index = 0>]} : (tensor<4xf32>) -> tensor<4xf32>
func.func @custom_call(%a: tensor<4xf32>, %t: !hlo.token) -> tensor<4xf32> {
  %0 = hlo.custom_call "my_target"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1:2 = hlo.custom_call "other"(%a, %t) {api_version = #hlo<api_version API_VERSION_TYPED_FFI>, backend_config = "{x=1}", called_computations = [@add_f32, @pair], has_side_effect = true} : (tensor<4xf32>, !hlo.token) -> (tensor<4xf32>, !hlo.token)
  hlo.custom_call "no_operands"() : () -> ()
  %2 = hlo.custom_call "aliased"(%a) {operand_layout_constraints = [#hlo.layout<minor_to_major = [0]>], output_to_operand_aliasing = [#hlo.output_operand_alias<operand_index = 0>]} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @opt_barrier(
// CHECK: %{{.*}} = hlo.opt_barrier %{{.*}} : tensor<4xf32>
// CHECK: %{{.*}} = hlo.opt_barrier %{{.*}} : tuple<tensor<4xf32>, !hlo.token>
func.func @opt_barrier(%a: tensor<4xf32>, %t: tuple<tensor<4xf32>, !hlo.token>) -> tensor<4xf32> {
  %0 = hlo.opt_barrier %a : tensor<4xf32>
  %1 = hlo.opt_barrier %t : tuple<tensor<4xf32>, !hlo.token>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @after_all(
// CHECK: %{{.*}} = hlo.after_all : !hlo.token
// CHECK: %{{.*}} = hlo.after_all %{{.*}} : !hlo.token
// CHECK: %{{.*}} = hlo.after_all %{{.*}}, %{{.*}}, %{{.*}} : !hlo.token
// CHECK: return %{{.*}} : !hlo.token
func.func @after_all(%t0: !hlo.token, %t1: !hlo.token) -> !hlo.token {
  %0 = hlo.after_all : !hlo.token
  %1 = hlo.after_all %t0 : !hlo.token
  %2 = hlo.after_all %t0, %t1, %0 : !hlo.token
  return %2 : !hlo.token
}

// CHECK-LABEL: func.func @add_dependency(
// CHECK: %{{.*}} = hlo.add_dependency %{{.*}}, %{{.*}} : (tensor<4xf32>, !hlo.token) -> tensor<4xf32>
// CHECK: %{{.*}} = hlo.add_dependency %{{.*}}, %{{.*}} : (tuple<tensor<i32>>, !hlo.token) -> tuple<tensor<i32>>
func.func @add_dependency(%a: tensor<4xf32>, %t: !hlo.token, %u: tuple<tensor<i32>>) -> tensor<4xf32> {
  %0 = hlo.add_dependency %a, %t : (tensor<4xf32>, !hlo.token) -> tensor<4xf32>
  %1 = hlo.add_dependency %u, %t : (tuple<tensor<i32>>, !hlo.token) -> tuple<tensor<i32>>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @domain(
// CHECK: %{{.*}} = hlo.domain %{{.*}} {domain_kind = "sharding", entry = "{replicated}", exit = "{maximal device=0}"} : tensor<4xf32>
// CHECK: %{{.*}} = hlo.domain %{{.*}} {domain_kind = "sharding"} : tensor<4xf32>
func.func @domain(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.domain %a {domain_kind = "sharding", entry = "{replicated}", exit = "{maximal device=0}"} : tensor<4xf32>
  %1 = hlo.domain %0 {domain_kind = "sharding"} : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// Async wrappers and copies

// CHECK-LABEL: func.func @async_computation(
// CHECK: %{{.*}} = hlo.add %{{.*}}, %{{.*}} : tensor<4xf32>
func.func @async_computation(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.add %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @async_start(
// CHECK: %{{.*}} = hlo.async_start %{{.*}}, %{{.*}} {calls = @async_computation} : (tensor<4xf32>, tensor<4xf32>) -> tuple<tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>, tensor<ui32>>
// CHECK: %{{.*}} = hlo.async_update %{{.*}} : tuple<tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>, tensor<ui32>>
// CHECK: %{{.*}} = hlo.async_update %{{.*}} {calls = @async_computation} : tuple<tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>, tensor<ui32>>
// CHECK: %{{.*}} = hlo.async_done %{{.*}} {calls = @async_computation} : (tuple<tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>, tensor<ui32>>) -> tensor<4xf32>
func.func @async_start(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.async_start %a, %a {calls = @async_computation} : (tensor<4xf32>, tensor<4xf32>) -> tuple<tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>, tensor<ui32>>
  %1 = hlo.async_update %0 : tuple<tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>, tensor<ui32>>
  %2 = hlo.async_update %1 {calls = @async_computation} : tuple<tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>, tensor<ui32>>
  %3 = hlo.async_done %2 {calls = @async_computation} : (tuple<tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>, tensor<ui32>>) -> tensor<4xf32>
  return %3 : tensor<4xf32>
}

// CHECK-LABEL: func.func @async_start_tuple_result(
// CHECK: %{{.*}} = hlo.async_start %{{.*}} {async_execution_thread = "host", calls = @pair} : (tensor<f32>) -> tuple<tuple<tensor<f32>>, tuple<tensor<f32>, tensor<f32>>>
// CHECK: %{{.*}} = hlo.async_done %{{.*}} : (tuple<tuple<tensor<f32>>, tuple<tensor<f32>, tensor<f32>>>) -> tuple<tensor<f32>, tensor<f32>>
// CHECK: %{{.*}}:2 = hlo.async_done %{{.*}} : (tuple<tuple<tensor<f32>>, tuple<tensor<f32>, tensor<f32>>>) -> (tensor<f32>, tensor<f32>)
func.func @async_start_tuple_result(%a: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = hlo.async_start %a {async_execution_thread = "host", calls = @pair} : (tensor<f32>) -> tuple<tuple<tensor<f32>>, tuple<tensor<f32>, tensor<f32>>>
  %1 = hlo.async_done %0 : (tuple<tuple<tensor<f32>>, tuple<tensor<f32>, tensor<f32>>>) -> tuple<tensor<f32>, tensor<f32>>
  %2:2 = hlo.async_done %0 : (tuple<tuple<tensor<f32>>, tuple<tensor<f32>, tensor<f32>>>) -> (tensor<f32>, tensor<f32>)
  return %2#0, %2#1 : tensor<f32>, tensor<f32>
}

// CHECK-LABEL: func.func @copy_start(
// CHECK: %{{.*}} = hlo.copy_start %{{.*}} : (tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<2x3xf32>, tensor<ui32>>
// CHECK: %{{.*}} = hlo.copy_start %{{.*}} {cross_program_prefetch_index = 0 : i64} : (tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<2x3xf32>, tensor<ui32>>
// CHECK: %{{.*}} = hlo.copy_done %{{.*}} : (tuple<tensor<2x3xf32>, tensor<2x3xf32>, tensor<ui32>>) -> tensor<2x3xf32>
func.func @copy_start(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.copy_start %a : (tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<2x3xf32>, tensor<ui32>>
  %1 = hlo.copy_start %a {cross_program_prefetch_index = 0 : i64} : (tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<2x3xf32>, tensor<ui32>>
  %2 = hlo.copy_done %0 : (tuple<tensor<2x3xf32>, tensor<2x3xf32>, tensor<ui32>>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}

// Random numbers

// CHECK-LABEL: func.func @rng(
// CHECK: %{{.*}} = hlo.rng rng_uniform %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<3x4xf32>
// CHECK: %{{.*}} = hlo.rng rng_normal %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<3x4xf32>
// CHECK: %{{.*}} = hlo.rng rng_uniform %{{.*}}, %{{.*}} : (tensor<i32>, tensor<i32>) -> tensor<8xi32>
// CHECK: %{{.*}} = hlo.rng rng_uniform %{{.*}}, %{{.*}} : (tensor<i1>, tensor<i1>) -> tensor<8xi1>
func.func @rng(%a: tensor<f32>, %b: tensor<f32>, %lo: tensor<i32>, %p: tensor<i1>) -> tensor<3x4xf32> {
  %0 = hlo.rng rng_uniform %a, %b : (tensor<f32>, tensor<f32>) -> tensor<3x4xf32>
  %1 = hlo.rng rng_normal %a, %b : (tensor<f32>, tensor<f32>) -> tensor<3x4xf32>
  %2 = hlo.rng rng_uniform %lo, %lo : (tensor<i32>, tensor<i32>) -> tensor<8xi32>
  %3 = hlo.rng rng_uniform %p, %p : (tensor<i1>, tensor<i1>) -> tensor<8xi1>
  return %0 : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @rng_bit_generator(
// CHECK: %{{.*}}, %{{.*}} = hlo.rng_bit_generator rng_three_fry %{{.*}} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<16xui32>)
// CHECK: %{{.*}}, %{{.*}} = hlo.rng_bit_generator rng_philox %{{.*}} : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4x4xui64>)
// CHECK: %{{.*}}, %{{.*}} = hlo.rng_bit_generator rng_philox %{{.*}} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8xi32>)
// CHECK: %{{.*}}, %{{.*}} = hlo.rng_bit_generator rng_default %{{.*}} : (tensor<4xui64>) -> (tensor<4xui64>, tensor<ui8>)
func.func @rng_bit_generator(%s2: tensor<2xui64>, %s3: tensor<3xui64>, %s: tensor<4xui64>) -> tensor<16xui32> {
  %0:2 = hlo.rng_bit_generator rng_three_fry %s2 : (tensor<2xui64>) -> (tensor<2xui64>, tensor<16xui32>)
  %1:2 = hlo.rng_bit_generator rng_philox %s3 : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4x4xui64>)
  %2:2 = hlo.rng_bit_generator rng_philox %s2 : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8xi32>)
  %3:2 = hlo.rng_bit_generator rng_default %s : (tensor<4xui64>) -> (tensor<4xui64>, tensor<ui8>)
  return %0#1 : tensor<16xui32>
}

// CHECK-LABEL: func.func @rng_get_and_update_state(
// CHECK: %{{.*}} = hlo.rng_get_and_update_state delta = 8 : tensor<2xui64>
func.func @rng_get_and_update_state() -> tensor<2xui64> {
  %0 = hlo.rng_get_and_update_state delta = 8 : tensor<2xui64>
  return %0 : tensor<2xui64>
}

// Host and peer communication, replica and partition ids

// CHECK-LABEL: func.func @send(
// CHECK: %{{.*}} = hlo.send %{{.*}}, %{{.*}} {channel_id = 1 : i64} : (tensor<4xf32>, !hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
// CHECK: %{{.*}} = hlo.send_done %{{.*}} {channel_id = 1 : i64} : (tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>) -> !hlo.token
// CHECK: return %{{.*}} : !hlo.token
func.func @send(%a: tensor<4xf32>, %t: !hlo.token) -> !hlo.token {
  %0 = hlo.send %a, %t {channel_id = 1 : i64} : (tensor<4xf32>, !hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  %1 = hlo.send_done %0 {channel_id = 1 : i64} : (tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>) -> !hlo.token
  return %1 : !hlo.token
}

// CHECK-LABEL: func.func @send_to_host(
// CHECK: %{{.*}} = hlo.send %{{.*}}, %{{.*}} {channel_id = 2 : i64, is_host_transfer = true} : (tuple<tensor<4xf32>, tensor<i32>>, !hlo.token) -> tuple<tuple<tensor<4xf32>, tensor<i32>>, tensor<ui32>, !hlo.token>
// CHECK: %{{.*}} = hlo.send_done %{{.*}} {channel_id = 2 : i64, is_host_transfer = true} : (tuple<tuple<tensor<4xf32>, tensor<i32>>, tensor<ui32>, !hlo.token>) -> !hlo.token
// CHECK: return %{{.*}} : !hlo.token
func.func @send_to_host(%a: tuple<tensor<4xf32>, tensor<i32>>, %t: !hlo.token) -> !hlo.token {
  %0 = hlo.send %a, %t {channel_id = 2 : i64, is_host_transfer = true} : (tuple<tensor<4xf32>, tensor<i32>>, !hlo.token) -> tuple<tuple<tensor<4xf32>, tensor<i32>>, tensor<ui32>, !hlo.token>
  %1 = hlo.send_done %0 {channel_id = 2 : i64, is_host_transfer = true} : (tuple<tuple<tensor<4xf32>, tensor<i32>>, tensor<ui32>, !hlo.token>) -> !hlo.token
  return %1 : !hlo.token
}

// CHECK-LABEL: func.func @recv(
// CHECK: %{{.*}} = hlo.recv %{{.*}} {channel_id = 1 : i64} : (!hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
// CHECK: %{{.*}} = hlo.recv_done %{{.*}} {channel_id = 1 : i64} : (tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>) -> tuple<tensor<4xf32>, !hlo.token>
// CHECK: %{{.*}} = hlo.get_tuple_element %{{.*}}[0] : (tuple<tensor<4xf32>, !hlo.token>) -> tensor<4xf32>
func.func @recv(%t: !hlo.token) -> tensor<4xf32> {
  %0 = hlo.recv %t {channel_id = 1 : i64} : (!hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  %1 = hlo.recv_done %0 {channel_id = 1 : i64} : (tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>) -> tuple<tensor<4xf32>, !hlo.token>
  %2 = hlo.get_tuple_element %1[0] : (tuple<tensor<4xf32>, !hlo.token>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// CHECK-LABEL: func.func @recv_from_host(
// CHECK: %{{.*}} = hlo.recv %{{.*}} {channel_id = 3 : i64, is_host_transfer = true} : (!hlo.token) -> tuple<tuple<tensor<2xi32>, tensor<f32>>, tensor<ui32>, !hlo.token>
// CHECK: %{{.*}} = hlo.recv_done %{{.*}} {channel_id = 3 : i64, is_host_transfer = true} : (tuple<tuple<tensor<2xi32>, tensor<f32>>, tensor<ui32>, !hlo.token>) -> tuple<tuple<tensor<2xi32>, tensor<f32>>, !hlo.token>
// CHECK: %{{.*}} = hlo.get_tuple_element %{{.*}}[1] : (tuple<tuple<tensor<2xi32>, tensor<f32>>, !hlo.token>) -> !hlo.token
// CHECK: return %{{.*}} : !hlo.token
func.func @recv_from_host(%t: !hlo.token) -> !hlo.token {
  %0 = hlo.recv %t {channel_id = 3 : i64, is_host_transfer = true} : (!hlo.token) -> tuple<tuple<tensor<2xi32>, tensor<f32>>, tensor<ui32>, !hlo.token>
  %1 = hlo.recv_done %0 {channel_id = 3 : i64, is_host_transfer = true} : (tuple<tuple<tensor<2xi32>, tensor<f32>>, tensor<ui32>, !hlo.token>) -> tuple<tuple<tensor<2xi32>, tensor<f32>>, !hlo.token>
  %2 = hlo.get_tuple_element %1[1] : (tuple<tuple<tensor<2xi32>, tensor<f32>>, !hlo.token>) -> !hlo.token
  return %2 : !hlo.token
}

// CHECK-LABEL: func.func @infeed(
// CHECK: %{{.*}} = hlo.infeed %{{.*}} : (!hlo.token) -> tuple<tensor<4xf32>, !hlo.token>
// CHECK: %{{.*}} = hlo.infeed %{{.*}} {infeed_config = "cfg"} : (!hlo.token) -> tuple<tuple<tensor<2xi32>, tensor<f32>>, !hlo.token>
// CHECK: %{{.*}} = hlo.infeed %{{.*}} : (!hlo.token) -> tuple<tuple<>, !hlo.token>
// CHECK: %{{.*}} = hlo.get_tuple_element %{{.*}}[1] : (tuple<tensor<4xf32>, !hlo.token>) -> !hlo.token
// CHECK: return %{{.*}} : !hlo.token
func.func @infeed(%t: !hlo.token) -> !hlo.token {
  %0 = hlo.infeed %t : (!hlo.token) -> tuple<tensor<4xf32>, !hlo.token>
  %1 = hlo.infeed %t {infeed_config = "cfg"} : (!hlo.token) -> tuple<tuple<tensor<2xi32>, tensor<f32>>, !hlo.token>
  %2 = hlo.infeed %t : (!hlo.token) -> tuple<tuple<>, !hlo.token>
  %3 = hlo.get_tuple_element %0[1] : (tuple<tensor<4xf32>, !hlo.token>) -> !hlo.token
  return %3 : !hlo.token
}

// CHECK-LABEL: func.func @outfeed(
// CHECK: %{{.*}} = hlo.outfeed %{{.*}}, %{{.*}} : (tensor<4xf32>, !hlo.token) -> !hlo.token
// CHECK: %{{.*}} = hlo.outfeed %{{.*}}, %{{.*}} {outfeed_config = "cfg"} : (tuple<tensor<4xf32>, tensor<i32>>, !hlo.token) -> !hlo.token
// CHECK: return %{{.*}} : !hlo.token
func.func @outfeed(%a: tensor<4xf32>, %u: tuple<tensor<4xf32>, tensor<i32>>, %t: !hlo.token) -> !hlo.token {
  %0 = hlo.outfeed %a, %t : (tensor<4xf32>, !hlo.token) -> !hlo.token
  %1 = hlo.outfeed %u, %0 {outfeed_config = "cfg"} : (tuple<tensor<4xf32>, tensor<i32>>, !hlo.token) -> !hlo.token
  return %1 : !hlo.token
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

