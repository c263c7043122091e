// RUN: hlo-opt %s --split-input-file --verify-diagnostics

// Invalid tuples, control flow, async wrappers, random numbers and
// communication ops: one case per verifier message (and at least one per op).

func.func @tuple_result_type(%a: tensor<f32>, %b: tensor<i32>) {
  // expected-error @+1 {{'hlo.tuple' op result type 'tuple<tensor<i32>, tensor<f32>>' must be the tuple of the operand types, 'tuple<tensor<f32>, tensor<i32>>'}}
  %0 = hlo.tuple %a, %b : (tensor<f32>, tensor<i32>) -> tuple<tensor<i32>, tensor<f32>>
  return
}

// -----

func.func @tuple_result_not_tuple(%a: tensor<f32>) {
  // expected-error @+1 {{'hlo.tuple' op result #0 must be nested tuple with any combination of ranked tensor of XLA primitive type values or token values, but got 'tensor<f32>'}}
  %0 = hlo.tuple %a : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @get_tuple_element_out_of_range(%t: tuple<tensor<f32>, tensor<i32>>) {
  // expected-error @+1 {{'hlo.get_tuple_element' op index 2 is out of range for a tuple of 2 elements}}
  %0 = hlo.get_tuple_element %t[2] : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
  return
}

// -----

func.func @get_tuple_element_result_type(%t: tuple<tensor<f32>, tensor<i32>>) {
  // expected-error @+1 {{'hlo.get_tuple_element' op result type 'tensor<f32>' must be the type of tuple element 1, 'tensor<i32>'}}
  %0 = hlo.get_tuple_element %t[1] : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
  return
}

// -----

func.func @get_tuple_element_not_tuple(%a: tensor<f32>) {
  // expected-error @+1 {{'hlo.get_tuple_element' op operand #0 must be nested tuple with any combination of ranked tensor of XLA primitive type values or token values, but got 'tensor<f32>'}}
  %0 = hlo.get_tuple_element %a[0] : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @call_missing(%a: tensor<f32>) {
  // expected-error @+1 {{'hlo.call' op to_apply refers to 'missing', which is not a func.func in this module}}
  %0 = hlo.call @missing(%a) : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @add_f32(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

func.func @call_operand_types(%a: tensor<i32>) {
  // expected-error @+1 {{'hlo.call' op to_apply computation 'add_f32' must take ('tensor<i32>', 'tensor<i32>') but takes ('tensor<f32>', 'tensor<f32>')}}
  %0 = hlo.call @add_f32(%a, %a) : (tensor<i32>, tensor<i32>) -> tensor<f32>
  return
}

// -----

func.func @add_f32(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

func.func @call_operand_count(%a: tensor<f32>) {
  // expected-error @+1 {{'hlo.call' op to_apply computation 'add_f32' must take ('tensor<f32>') but takes ('tensor<f32>', 'tensor<f32>')}}
  %0 = hlo.call @add_f32(%a) : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @add_f32(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

func.func @call_result_types(%a: tensor<f32>) {
  // expected-error @+1 {{'hlo.call' op to_apply computation 'add_f32' must return ('tensor<i32>') but returns ('tensor<f32>')}}
  %0 = hlo.call @add_f32(%a, %a) : (tensor<f32>, tensor<f32>) -> tensor<i32>
  return
}

// -----

func.func @pair(%a: tensor<f32>) -> tuple<tensor<f32>, tensor<f32>> {
  %0 = hlo.tuple %a, %a : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
  return %0 : tuple<tensor<f32>, tensor<f32>>
}

func.func @call_tuple_result_mismatch(%a: tensor<f32>) {
  // expected-error @+1 {{'hlo.call' op to_apply computation 'pair' must return ('tensor<f32>', 'tensor<f32>', 'tensor<f32>') but returns ('tuple<tensor<f32>, tensor<f32>>')}}
  %0:3 = hlo.call @pair(%a) : (tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @cond(%s: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare LT, %s, %s : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}

func.func @body(%s: tensor<f32>) -> tensor<f32> {
  return %s : tensor<f32>
}

func.func @while_result_type(%s: tensor<f32>) {
  // expected-error @+1 {{'hlo.while' op result type 'tensor<i32>' must be the type of init, 'tensor<f32>'}}
  %0 = hlo.while %s, condition = @cond, body = @body : (tensor<f32>) -> tensor<i32>
  return
}

// -----

func.func @body(%s: tensor<f32>) -> tensor<f32> {
  return %s : tensor<f32>
}

func.func @while_condition_missing(%s: tensor<f32>) {
  // expected-error @+1 {{'hlo.while' op condition refers to 'missing', which is not a func.func in this module}}
  %0 = hlo.while %s, condition = @missing, body = @body : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @cond(%s: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare LT, %s, %s : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}

func.func @body(%s: tensor<f32>) -> tensor<f32> {
  return %s : tensor<f32>
}

func.func @while_condition_input(%s: tensor<f64>) {
  // expected-error @+1 {{'hlo.while' op condition computation 'cond' must take ('tensor<f64>') but takes ('tensor<f32>')}}
  %0 = hlo.while %s, condition = @cond, body = @body : (tensor<f64>) -> tensor<f64>
  return
}

// -----

func.func @body(%s: tensor<f32>) -> tensor<f32> {
  return %s : tensor<f32>
}

func.func @while_condition_not_pred(%s: tensor<f32>) {
  // expected-error @+1 {{'hlo.while' op condition computation 'body' must return ('tensor<i1>') but returns ('tensor<f32>')}}
  %0 = hlo.while %s, condition = @body, body = @body : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @cond2(%s: tensor<f32>) -> tensor<2xi1> {
  %0 = hlo.constant dense<true> : tensor<2xi1>
  return %0 : tensor<2xi1>
}

func.func @body(%s: tensor<f32>) -> tensor<f32> {
  return %s : tensor<f32>
}

func.func @while_condition_vector_pred(%s: tensor<f32>) {
  // expected-error @+1 {{'hlo.while' op condition computation 'cond2' must return ('tensor<i1>') but returns ('tensor<2xi1>')}}
  %0 = hlo.while %s, condition = @cond2, body = @body : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @cond(%s: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare LT, %s, %s : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}

func.func @while_body_missing(%s: tensor<f32>) {
  // expected-error @+1 {{'hlo.while' op body refers to 'missing', which is not a func.func in this module}}
  %0 = hlo.while %s, condition = @cond, body = @missing : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @cond(%s: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare LT, %s, %s : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}

func.func @while_body_result(%s: tensor<f32>) {
  // expected-error @+1 {{'hlo.while' op body computation 'cond' must return ('tensor<f32>') but returns ('tensor<i1>')}}
  %0 = hlo.while %s, condition = @cond, body = @cond : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @cond(%s: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare LT, %s, %s : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}

func.func @body2(%s: tensor<f32>, %t: tensor<f32>) -> tensor<f32> {
  return %s : tensor<f32>
}

func.func @while_body_input(%s: tensor<f32>) {
  // expected-error @+1 {{'hlo.while' op body computation 'body2' must take ('tensor<f32>') but takes ('tensor<f32>', 'tensor<f32>')}}
  %0 = hlo.while %s, condition = @cond, body = @body2 : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @br_f32(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}

func.func @br_i32(%a: tensor<i32>) -> tensor<f32> {
  %0 = hlo.convert %a : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}

func.func @conditional_index_rank(%p: tensor<2xi1>, %a: tensor<f32>, %b: tensor<i32>) {
  // expected-error @+1 {{'hlo.conditional' op branch_index must have rank 0, but has type 'tensor<2xi1>'}}
  %0 = hlo.conditional %p, %a, %b {branch_computations = [@br_f32, @br_i32]} : (tensor<2xi1>, tensor<f32>, tensor<i32>) -> tensor<f32>
  return
}

// -----

func.func @br_f32(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}

func.func @br_i32(%a: tensor<i32>) -> tensor<f32> {
  %0 = hlo.convert %a : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}

func.func @conditional_index_type(%k: tensor<i64>, %a: tensor<f32>) {
  // expected-error @+1 {{'hlo.conditional' op operand #0 must be ranked tensor of 1-bit signless integer or 32-bit signless integer values, but got 'tensor<i64>'}}
  %0 = hlo.conditional %k, %a {branch_computations = [@br_f32]} : (tensor<i64>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @br_f32(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}

func.func @br_i32(%a: tensor<i32>) -> tensor<f32> {
  %0 = hlo.convert %a : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}

func.func @conditional_branch_not_symbol(%k: tensor<i32>, %a: tensor<f32>) {
  // expected-error @+1 {{'hlo.conditional' op branch_computations entry #0 must be a flat symbol reference, but is "br_f32"}}
  %0 = hlo.conditional %k, %a {branch_computations = ["br_f32"]} : (tensor<i32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @br_f32(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}

func.func @br_i32(%a: tensor<i32>) -> tensor<f32> {
  %0 = hlo.convert %a : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}

func.func @conditional_pred_three_branches(%p: tensor<i1>, %a: tensor<f32>) {
  // expected-error @+1 {{'hlo.conditional' op a pred branch_index needs exactly 2 branch_computations (true, false), but there are 3}}
  %0 = hlo.conditional %p, %a, %a, %a {branch_computations = [@br_f32, @br_f32, @br_f32]} : (tensor<i1>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @conditional_index_no_branches(%k: tensor<i32>) {
  // expected-error @+1 {{'hlo.conditional' op an i32 branch_index needs at least one branch computation}}
  %0 = hlo.conditional %k {branch_computations = []} : (tensor<i32>) -> tensor<f32>
  return
}

// -----

func.func @br_f32(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}

func.func @br_i32(%a: tensor<i32>) -> tensor<f32> {
  %0 = hlo.convert %a : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}

func.func @conditional_operand_count(%p: tensor<i1>, %a: tensor<f32>) {
  // expected-error @+1 {{'hlo.conditional' op has 2 branch_computations but 1 branch operands (one operand per branch)}}
  %0 = hlo.conditional %p, %a {branch_computations = [@br_f32, @br_f32]} : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @br_f32(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}

func.func @br_i32(%a: tensor<i32>) -> tensor<f32> {
  %0 = hlo.convert %a : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}

func.func @conditional_branch_missing(%p: tensor<i1>, %a: tensor<f32>) {
  // expected-error @+1 {{'hlo.conditional' op branch_computations[1] refers to 'missing', which is not a func.func in this module}}
  %0 = hlo.conditional %p, %a, %a {branch_computations = [@br_f32, @missing]} : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @br_f32(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}

func.func @br_i32(%a: tensor<i32>) -> tensor<f32> {
  %0 = hlo.convert %a : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}

func.func @conditional_branch_operand(%p: tensor<i1>, %a: tensor<f32>) {
  // expected-error @+1 {{'hlo.conditional' op branch_computations[1] computation 'br_i32' must take ('tensor<f32>') but takes ('tensor<i32>')}}
  %0 = hlo.conditional %p, %a, %a {branch_computations = [@br_f32, @br_i32]} : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @br_f32(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}

func.func @br_i32(%a: tensor<i32>) -> tensor<f32> {
  %0 = hlo.convert %a : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}

func.func @conditional_branch_result(%k: tensor<i32>, %a: tensor<f32>) {
  // expected-error @+1 {{'hlo.conditional' op branch_computations[0] computation 'br_f32' must return ('tensor<f64>') but returns ('tensor<f32>')}}
  %0 = hlo.conditional %k, %a {branch_computations = [@br_f32]} : (tensor<i32>, tensor<f32>) -> tensor<f64>
  return
}

// -----

func.func @fusion_missing(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.fusion' op calls refers to 'missing', which is not a func.func in this module}}
  %0 = hlo.fusion kLoop @missing(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @fused(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

func.func @fusion_operands(%a: tensor<4xf16>) {
  // expected-error @+1 {{'hlo.fusion' op calls computation 'fused' must take ('tensor<4xf16>') but takes ('tensor<4xf32>')}}
  %0 = hlo.fusion kLoop @fused(%a) : (tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @fused(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

func.func @fusion_results(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.fusion' op calls computation 'fused' must return ('tensor<4xf32>', 'tensor<4xf32>') but returns ('tensor<4xf32>')}}
  %0:2 = hlo.fusion kInput @fused(%a) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @fused(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

func.func @fusion_kind(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.fusion' op attribute 'kind' failed to satisfy constraint: kind of hlo.fusion}}
  %0 = "hlo.fusion"(%a) {kind = 0 : i32, calls = @fused} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @add_f32(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

func.func @custom_call_missing_computation(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.custom_call' op called_computations refers to 'missing', which is not a func.func in this module}}
  %0 = hlo.custom_call "t"(%a) {called_computations = [@add_f32, @missing]} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @custom_call_bad_api_version(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.custom_call' op attribute 'api_version' failed to satisfy constraint: calling convention of hlo.custom_call}}
  %0 = hlo.custom_call "t"(%a) {api_version = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @opt_barrier_type_change(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.opt_barrier' op requires the same type for all operands and results}}
  %0 = "hlo.opt_barrier"(%a) : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @after_all_not_token(%a: tensor<f32>) {
  // expected-error @+1 {{'hlo.after_all' op operand #0 must be variadic of token, but got 'tensor<f32>'}}
  %0 = "hlo.after_all"(%a) : (tensor<f32>) -> !hlo.token
  return
}

// -----

func.func @add_dependency_result_type(%a: tensor<4xf32>, %t: !hlo.token) {
  // expected-error @+1 {{'hlo.add_dependency' op result type 'tensor<4xf16>' must be the operand type 'tensor<4xf32>'}}
  %0 = hlo.add_dependency %a, %t : (tensor<4xf32>, !hlo.token) -> tensor<4xf16>
  return
}

// -----

func.func @add_dependency_not_token(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.add_dependency' op operand #1 must be token, but got 'tensor<4xf32>'}}
  %0 = hlo.add_dependency %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @domain_kind_missing(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.domain' op requires attribute 'domain_kind'}}
  %0 = hlo.domain %a : tensor<4xf32>
  return
}

// -----

func.func @domain_type_change(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.domain' op requires the same type for all operands and results}}
  %0 = "hlo.domain"(%a) {domain_kind = "sharding"} : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @acomp(%a: tensor<4xf32>) -> tensor<4xi32> {
  %0 = hlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

func.func @async_start_short_context(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.async_start' op result must be an async context tuple ((operands...), result, state...) of at least 2 elements, but is 'tuple<tuple<tensor<4xf32>>>'}}
  %0 = hlo.async_start %a {calls = @acomp} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>>
  return
}

// -----

func.func @acomp(%a: tensor<4xf32>) -> tensor<4xi32> {
  %0 = hlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

func.func @async_start_operands_not_tuple(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.async_start' op result element 0 must be the tuple of the async operands, but is 'tensor<4xf32>'}}
  %0 = hlo.async_start %a {calls = @acomp} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xi32>>
  return
}

// -----

func.func @acomp(%a: tensor<4xf32>) -> tensor<4xi32> {
  %0 = hlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

func.func @async_start_operand_types(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.async_start' op result element 0 must be the tuple of the operand types, 'tuple<tensor<4xf32>>', but is 'tuple<tensor<4xf16>>'}}
  %0 = hlo.async_start %a {calls = @acomp} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf16>>, tensor<4xi32>>
  return
}

// -----

func.func @async_start_missing(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.async_start' op calls refers to 'missing', which is not a func.func in this module}}
  %0 = hlo.async_start %a {calls = @missing} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xi32>>
  return
}

// -----

func.func @acomp(%a: tensor<4xf32>) -> tensor<4xi32> {
  %0 = hlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

func.func @async_start_callee_inputs(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.async_start' op calls computation 'acomp' must take ('tensor<4xf32>', 'tensor<4xf32>') but takes ('tensor<4xf32>')}}
  %0 = hlo.async_start %a, %a {calls = @acomp} : (tensor<4xf32>, tensor<4xf32>) -> tuple<tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xi32>>
  return
}

// -----

func.func @acomp(%a: tensor<4xf32>) -> tensor<4xi32> {
  %0 = hlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

func.func @async_start_callee_result(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.async_start' op calls computation 'acomp' must return ('tensor<4xf32>') but returns ('tensor<4xi32>')}}
  %0 = hlo.async_start %a {calls = @acomp} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<ui32>>
  return
}

// -----

func.func @async_update_type_change(%b: tuple<tuple<tensor<4xf32>>, tensor<4xi32>>) {
  // expected-error @+1 {{'hlo.async_update' op requires the same type for all operands and results}}
  %0 = "hlo.async_update"(%b) : (tuple<tuple<tensor<4xf32>>, tensor<4xi32>>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>>
  return
}

// -----

func.func @async_update_short_context(%b: tuple<tuple<tensor<4xf32>>>) {
  // expected-error @+1 {{'hlo.async_update' op operand must be an async context tuple ((operands...), result, state...) of at least 2 elements, but is 'tuple<tuple<tensor<4xf32>>>'}}
  %0 = hlo.async_update %b : tuple<tuple<tensor<4xf32>>>
  return
}

// -----

func.func @async_done_short_context(%b: tuple<tuple<tensor<4xf32>>>) {
  // expected-error @+1 {{'hlo.async_done' op operand must be an async context tuple ((operands...), result, state...) of at least 2 elements, but is 'tuple<tuple<tensor<4xf32>>>'}}
  %0 = hlo.async_done %b : (tuple<tuple<tensor<4xf32>>>) -> tensor<4xi32>
  return
}

// -----

func.func @async_done_operands_not_tuple(%b: tuple<tensor<4xf32>, tensor<4xi32>>) {
  // expected-error @+1 {{'hlo.async_done' op operand element 0 must be the tuple of the async operands, but is 'tensor<4xf32>'}}
  %0 = hlo.async_done %b : (tuple<tensor<4xf32>, tensor<4xi32>>) -> tensor<4xi32>
  return
}

// -----

func.func @async_done_result(%b: tuple<tuple<tensor<4xf32>>, tensor<4xi32>>) {
  // expected-error @+1 {{'hlo.async_done' op results ('tensor<4xf32>') must be the async result (element 1 of the context), 'tensor<4xi32>'}}
  %0 = hlo.async_done %b : (tuple<tuple<tensor<4xf32>>, tensor<4xi32>>) -> tensor<4xf32>
  return
}

// -----

func.func @async_done_flattened_result(%b: tuple<tuple<>, tuple<tensor<f32>, tensor<i32>>>) {
  // expected-error @+1 {{'hlo.async_done' op results ('tensor<i32>', 'tensor<f32>') must be the async result (element 1 of the context), 'tuple<tensor<f32>, tensor<i32>>'}}
  %0:2 = hlo.async_done %b : (tuple<tuple<>, tuple<tensor<f32>, tensor<i32>>>) -> (tensor<i32>, tensor<f32>)
  return
}

// -----

func.func @copy_start_result(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.copy_start' op result type 'tuple<tensor<4xf32>, tensor<4xf32>, tensor<i32>>' must be (destination, source, context) 'tuple<tensor<4xf32>, tensor<4xf32>, tensor<ui32>>'}}
  %0 = hlo.copy_start %a : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<i32>>
  return
}

// -----

func.func @copy_start_result_short(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.copy_start' op result type 'tuple<tensor<4xf32>, tensor<ui32>>' must be (destination, source, context) 'tuple<tensor<4xf32>, tensor<4xf32>, tensor<ui32>>'}}
  %0 = hlo.copy_start %a : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<ui32>>
  return
}

// -----

func.func @copy_done_short(%c: tuple<tensor<4xf32>>) {
  // expected-error @+1 {{'hlo.copy_done' op operand must be a copy_start context (destination, source, context), but is 'tuple<tensor<4xf32>>'}}
  %0 = hlo.copy_done %c : (tuple<tensor<4xf32>>) -> tensor<4xf32>
  return
}

// -----

func.func @copy_done_source(%c: tuple<tensor<4xf32>, tensor<2x2xf32>, tensor<ui32>>) {
  // expected-error @+1 {{'hlo.copy_done' op destination 'tensor<4xf32>' and source 'tensor<2x2xf32>' of the copy must have the same type}}
  %0 = hlo.copy_done %c : (tuple<tensor<4xf32>, tensor<2x2xf32>, tensor<ui32>>) -> tensor<4xf32>
  return
}

// -----

func.func @copy_done_result(%c: tuple<tensor<4xf32>, tensor<4xf32>, tensor<ui32>>) {
  // expected-error @+1 {{'hlo.copy_done' op result type 'tensor<4xf16>' must be the destination type 'tensor<4xf32>'}}
  %0 = hlo.copy_done %c : (tuple<tensor<4xf32>, tensor<4xf32>, tensor<ui32>>) -> tensor<4xf16>
  return
}

// -----

func.func @rng_a_not_scalar(%a: tensor<2xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{'hlo.rng' op a must have rank 0, but has type 'tensor<2xf32>'}}
  %0 = hlo.rng rng_uniform %a, %b : (tensor<2xf32>, tensor<f32>) -> tensor<3xf32>
  return
}

// -----

func.func @rng_b_element_type(%a: tensor<f32>, %b: tensor<f64>) {
  // expected-error @+1 {{'hlo.rng' op b element type 'f64' must be the result element type 'f32'}}
  %0 = hlo.rng rng_uniform %a, %b : (tensor<f32>, tensor<f64>) -> tensor<3xf32>
  return
}

// -----

func.func @rng_normal_int(%a: tensor<i32>) {
  // expected-error @+1 {{'hlo.rng' op rng_normal needs a floating-point element type, but has 'i32'}}
  %0 = hlo.rng rng_normal %a, %a : (tensor<i32>, tensor<i32>) -> tensor<3xi32>
  return
}

// -----

func.func @rng_uniform_complex(%a: tensor<complex<f32>>) {
  // expected-error @+1 {{'hlo.rng' op rng_uniform needs a pred, integer or floating-point element type, but has 'complex<f32>'}}
  %0 = hlo.rng rng_uniform %a, %a : (tensor<complex<f32>>, tensor<complex<f32>>) -> tensor<3xcomplex<f32>>
  return
}

// -----

func.func @rng_bit_generator_state_rank(%s: tensor<2x2xui64>) {
  // expected-error @+1 {{'hlo.rng_bit_generator' op initial_state must be a 1-D array, but has type 'tensor<2x2xui64>'}}
  %0:2 = hlo.rng_bit_generator rng_default %s : (tensor<2x2xui64>) -> (tensor<2x2xui64>, tensor<4xui32>)
  return
}

// -----

func.func @rng_bit_generator_output_state(%s: tensor<2xui64>) {
  // expected-error @+1 {{'hlo.rng_bit_generator' op output_state type 'tensor<3xui64>' must be the initial_state type 'tensor<2xui64>'}}
  %0:2 = hlo.rng_bit_generator rng_three_fry %s : (tensor<2xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  return
}

// -----

func.func @rng_bit_generator_three_fry_size(%s: tensor<3xui64>) {
  // expected-error @+1 {{'hlo.rng_bit_generator' op rng_three_fry needs an initial_state of 2 elements, but it has 3}}
  %0:2 = hlo.rng_bit_generator rng_three_fry %s : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  return
}

// -----

func.func @rng_bit_generator_philox_size(%s: tensor<4xui64>) {
  // expected-error @+1 {{'hlo.rng_bit_generator' op rng_philox needs an initial_state of 2 or 3 elements, but it has 4}}
  %0:2 = hlo.rng_bit_generator rng_philox %s : (tensor<4xui64>) -> (tensor<4xui64>, tensor<4xui32>)
  return
}

// -----

func.func @rng_bit_generator_state_type(%s: tensor<2xui32>) {
  // expected-error @+1 {{'hlo.rng_bit_generator' op operand #0 must be ranked tensor of 64-bit unsigned integer values, but got 'tensor<2xui32>'}}
  %0:2 = hlo.rng_bit_generator rng_philox %s : (tensor<2xui32>) -> (tensor<2xui32>, tensor<4xui32>)
  return
}

// -----

func.func @rng_bit_generator_float_output(%s: tensor<2xui64>) {
  // expected-error @+1 {{'hlo.rng_bit_generator' op result #1 must be ranked tensor of integer values, but got 'tensor<4xf32>'}}
  %0:2 = hlo.rng_bit_generator rng_philox %s : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xf32>)
  return
}

// -----

func.func @rng_get_and_update_state_shape() {
  // expected-error @+1 {{'hlo.rng_get_and_update_state' op result must have shape [2], but has type 'tensor<3xui64>'}}
  %0 = hlo.rng_get_and_update_state delta = 1 : tensor<3xui64>
  return
}

// -----

func.func @rng_get_and_update_state_type() {
  // expected-error @+1 {{'hlo.rng_get_and_update_state' op result #0 must be ranked tensor of 64-bit unsigned integer values, but got 'tensor<2xi64>'}}
  %0 = hlo.rng_get_and_update_state delta = 1 : tensor<2xi64>
  return
}

// -----

func.func @send_result(%a: tensor<4xf32>, %t: !hlo.token) {
  // expected-error @+1 {{'hlo.send' op result type 'tuple<tensor<4xf32>, !hlo.token>' must be (data, context, token) 'tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>'}}
  %0 = hlo.send %a, %t {channel_id = 1 : i64} : (tensor<4xf32>, !hlo.token) -> tuple<tensor<4xf32>, !hlo.token>
  return
}

// -----

func.func @send_missing_channel(%a: tensor<4xf32>, %t: !hlo.token) {
  // expected-error @+1 {{'hlo.send' op requires attribute 'channel_id'}}
  %0 = hlo.send %a, %t : (tensor<4xf32>, !hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  return
}

// -----

func.func @send_done_not_tuple(%t: !hlo.token) {
  // expected-error @+1 {{'hlo.send_done' op operand #0 must be nested tuple with any combination of ranked tensor of XLA primitive type values or token values, but got '!hlo.token'}}
  %0 = hlo.send_done %t {channel_id = 1 : i64} : (!hlo.token) -> !hlo.token
  return
}

// -----

func.func @recv_result(%t: !hlo.token) {
  // expected-error @+1 {{'hlo.recv' op result must be a tuple (data, tensor<ui32>, !hlo.token), but is 'tuple<tensor<4xf32>, !hlo.token>'}}
  %0 = hlo.recv %t {channel_id = 1 : i64} : (!hlo.token) -> tuple<tensor<4xf32>, !hlo.token>
  return
}

// -----

func.func @recv_token_data(%t: !hlo.token) {
  // expected-error @+1 {{'hlo.recv' op result must be a tuple (data, tensor<ui32>, !hlo.token), but is 'tuple<!hlo.token, tensor<ui32>, !hlo.token>'}}
  %0 = hlo.recv %t {channel_id = 1 : i64} : (!hlo.token) -> tuple<!hlo.token, tensor<ui32>, !hlo.token>
  return
}

// -----

func.func @recv_done_operand(%c: tuple<tensor<4xf32>, tensor<i32>, !hlo.token>) {
  // expected-error @+1 {{'hlo.recv_done' op operand must be a tuple (data, tensor<ui32>, !hlo.token), but is 'tuple<tensor<4xf32>, tensor<i32>, !hlo.token>'}}
  %0 = hlo.recv_done %c {channel_id = 1 : i64} : (tuple<tensor<4xf32>, tensor<i32>, !hlo.token>) -> tuple<tensor<4xf32>, !hlo.token>
  return
}

// -----

func.func @recv_done_result(%c: tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>) {
  // expected-error @+1 {{'hlo.recv_done' op result type 'tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>' must be (data, token) 'tuple<tensor<4xf32>, !hlo.token>'}}
  %0 = hlo.recv_done %c {channel_id = 1 : i64} : (tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  return
}

// -----

func.func @infeed_result(%t: !hlo.token) {
  // expected-error @+1 {{'hlo.infeed' op result must be a tuple (data, !hlo.token), but is 'tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>'}}
  %0 = hlo.infeed %t : (!hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  return
}

// -----

func.func @infeed_nested_tuple(%t: !hlo.token) {
  // expected-error @+1 {{'hlo.infeed' op data must be an array or a tuple of arrays (no nested tuples or tokens), but is 'tuple<tuple<tensor<f32>>>'}}
  %0 = hlo.infeed %t : (!hlo.token) -> tuple<tuple<tuple<tensor<f32>>>, !hlo.token>
  return
}

// -----

func.func @outfeed_token_operand(%t: !hlo.token) {
  // expected-error @+1 {{'hlo.outfeed' op operand #0 must be array or tuple, but got '!hlo.token'}}
  %0 = hlo.outfeed %t, %t : (!hlo.token, !hlo.token) -> !hlo.token
  return
}

// -----

func.func @replica_id_type() {
  // expected-error @+1 {{'hlo.replica_id' op result #0 must be 0D tensor of 32-bit unsigned integer values, but got 'tensor<i32>'}}
  %0 = hlo.replica_id : tensor<i32>
  return
}

// -----

func.func @partition_id_type() {
  // expected-error @+1 {{'hlo.partition_id' op result #0 must be 0D tensor of 32-bit unsigned integer values, but got 'tensor<2xui32>'}}
  %0 = hlo.partition_id : tensor<2xui32>
  return
}
