// RUN: hlo-opt %s --split-input-file --verify-diagnostics

// Invalid xla dialect IR: one case per diagnostic of the #xla.indexing_map
// checker (XlaAttrs.cpp), the op parsers and verifiers (XlaOps.cpp) and the
// xla.range verifier (XlaDialect.cpp), plus the ODS constraints of each op.

//===----------------------------------------------------------------------===//
// #xla.indexing_map
//===----------------------------------------------------------------------===//

// expected-error @+1 {{invalid indexing map: unexpected character '@' at offset 8}}
#map = #xla.indexing_map<"(d0) -> @d0">

// -----

// expected-error @+1 {{invalid indexing map: expected '(' to open the dimensions at offset 0}}
#map = #xla.indexing_map<"d0 -> (d0)">

// -----

// expected-error @+1 {{invalid indexing map: expected a dimension name}}
#map = #xla.indexing_map<"(1) -> (1)">

// -----

// expected-error @+1 {{invalid indexing map: expected a range variable name}}
#map = #xla.indexing_map<"(d0)[3] -> (d0)">

// -----

// expected-error @+1 {{invalid indexing map: 'mod' cannot be a variable name}}
#map = #xla.indexing_map<"(d0)[mod] -> (d0)">

// -----

// expected-error @+1 {{invalid indexing map: '_d0' cannot be a variable name}}
#map = #xla.indexing_map<"(_d0) -> (_d0)">

// -----

// expected-error @+1 {{invalid indexing map: expected a runtime variable name}}
#map = #xla.indexing_map<"(d0){,} -> (d0)">

// -----

// expected-error @+1 {{invalid indexing map: variable 'd0' is declared twice}}
#map = #xla.indexing_map<"(d0)[d0] -> (d0)">

// -----

// expected-error @+1 {{invalid indexing map: expected ')' to close the dimensions}}
#map = #xla.indexing_map<"(d0 d1) -> (d0)">

// -----

// expected-error @+1 {{invalid indexing map: expected ']' to close the range variables}}
#map = #xla.indexing_map<"(d0)[s0 -> (d0)">

// -----

// expected-error @+1 {{invalid indexing map: expected '}' to close the runtime variables}}
#map = #xla.indexing_map<"(d0){rt0 -> (d0)">

// -----

// expected-error @+1 {{invalid indexing map: expected '->' after the variables}}
#map = #xla.indexing_map<"(d0) (d0)">

// -----

// expected-error @+1 {{invalid indexing map: expected '(' to open the results}}
#map = #xla.indexing_map<"(d0) -> d0">

// -----

// expected-error @+1 {{invalid indexing map: expected ')' to close the results}}
#map = #xla.indexing_map<"(d0) -> (d0 d0)">

// -----

// expected-error @+1 {{invalid indexing map: expected an expression}}
#map = #xla.indexing_map<"(d0) -> (d0 +)">

// -----

// expected-error @+1 {{invalid indexing map: 'd1' is not a variable of the map}}
#map = #xla.indexing_map<"(d0) -> (d0 + d1)">

// -----

// expected-error @+1 {{invalid indexing map: expected ')' to close a parenthesized expression}}
#map = #xla.indexing_map<"(d0) -> ((d0 + 1, d0)">

// -----

// expected-error @+1 {{invalid indexing map: expected '(' after 'min'}}
#map = #xla.indexing_map<"(d0) -> (min d0)">

// -----

// expected-error @+1 {{invalid indexing map: expected ',' between the operands of min/max}}
#map = #xla.indexing_map<"(d0) -> (max(d0))">

// -----

// expected-error @+1 {{invalid indexing map: expected ')' to close min/max}}
#map = #xla.indexing_map<"(d0) -> (max(d0, 1, 2))">

// -----

// expected-error @+1 {{invalid indexing map: expected 'domain:' after the results}}
#map = #xla.indexing_map<"(d0) -> (d0), d0 in [0, 1]">

// -----

// expected-error @+1 {{invalid indexing map: expected ':' after 'domain'}}
#map = #xla.indexing_map<"(d0) -> (d0), domain d0 in [0, 1]">

// -----

// expected-error @+1 {{invalid indexing map: expected the domain of 'd0' (every variable in declaration order)}}
#map = #xla.indexing_map<"(d0)[s0] -> (d0), domain: s0 in [0, 1], d0 in [0, 1]">

// -----

// expected-error @+1 {{invalid indexing map: expected 'in' after 'd0'}}
#map = #xla.indexing_map<"(d0) -> (d0), domain: d0 [0, 1]">

// -----

// expected-error @+1 {{invalid indexing map: expected '[' to open an interval}}
#map = #xla.indexing_map<"(d0) -> (d0), domain: d0 in (0, 1)">

// -----

// expected-error @+1 {{invalid indexing map: expected an integer bound}}
#map = #xla.indexing_map<"(d0) -> (d0), domain: d0 in [0, n]">

// -----

// expected-error @+1 {{invalid indexing map: bound 9223372036854775808 does not fit in 64 bits}}
#map = #xla.indexing_map<"(d0) -> (d0), domain: d0 in [0, 9223372036854775808]">

// -----

// expected-error @+1 {{invalid indexing map: expected ',' between the bounds of an interval}}
#map = #xla.indexing_map<"(d0) -> (d0), domain: d0 in [0 1]">

// -----

// expected-error @+1 {{invalid indexing map: expected ']' to close an interval}}
#map = #xla.indexing_map<"(d0) -> (d0), domain: d0 in [0, 1)">

// -----

// expected-error @+1 {{invalid indexing map: expected ',' between domain entries}}
#map = #xla.indexing_map<"(d0, d1) -> (d0), domain: d0 in [0, 1] d1 in [0, 1]">

// -----

// expected-error @+1 {{invalid indexing map: the domain of 's0' is missing}}
#map = #xla.indexing_map<"(d0)[s0] -> (d0), domain: d0 in [0, 1]">

// -----

// expected-error @+1 {{invalid indexing map: expected ',' between domain entries}}
#map = #xla.indexing_map<"(d0) -> (d0), domain: d0 in [0, 1] d0 + 1 in [0, 1]">

// -----

// expected-error @+1 {{invalid indexing map: expected 'in' after a constraint expression}}
#map = #xla.indexing_map<"(d0) -> (d0), domain: d0 in [0, 1], d0 mod 2">

// -----

// expected-error @+1 {{invalid indexing map: expected 'true' or 'false' after 'is_simplified:'}}
#map = #xla.indexing_map<"(d0) -> (d0), domain: d0 in [0, 1], is_simplified: yes">

// -----

// expected-error @+1 {{invalid indexing map: unexpected text after the map at offset 33 (')')}}
#map = #xla.indexing_map<"(d0) -> (d0), is_simplified: true)">

// -----

// expected-error @+1 {{expected string}}
#map = #xla.indexing_map<(d0) -> (d0)>

//===----------------------------------------------------------------------===//
// xla.apply_indexing
//===----------------------------------------------------------------------===//

// -----

#map = #xla.indexing_map<"(d0, d1)[s0] -> (d0, d1 + s0), domain: d0 in [1, 2], d1 in [5, 8], s0 in [0, 32]">
func.func @apply_indexing_dims(%d0: index, %s0: index) {
  // expected-error @+1 {{expected 2 dimension operands for the indexing map, got 1}}
  %0:2 = xla.apply_indexing #map (%d0)[%s0]
  func.return
}

// -----

#map = #xla.indexing_map<"(d0)[s0] -> (d0 + s0), domain: d0 in [1, 2], s0 in [0, 32]">
func.func @apply_indexing_symbols(%d0: index) {
  // expected-error @+1 {{expected 1 symbol operands for the indexing map, got 0}}
  %0 = xla.apply_indexing #map (%d0)
  func.return
}

// -----

#map = #xla.indexing_map<"(d0, d1)[s0] -> (d0, d1 + s0), domain: d0 in [1, 2], d1 in [5, 8], s0 in [0, 32]">
func.func @apply_indexing_operand_count(%d0: index) {
  // expected-error @+1 {{'xla.apply_indexing' op operand count 1 does not match the sum of dimensions 2 and symbols 1 in the indexing map}}
  %0:2 = "xla.apply_indexing"(%d0) <{indexing_map_attr = #map}> : (index) -> (index, index)
  func.return
}

// -----

#map = #xla.indexing_map<"(d0) -> (d0, d0 + 1), domain: d0 in [0, 2]">
func.func @apply_indexing_result_count(%d0: index) {
  // expected-error @+1 {{'xla.apply_indexing' op result count 1 does not match the 2 results of the indexing map}}
  %0 = "xla.apply_indexing"(%d0) <{indexing_map_attr = #map}> : (index) -> index
  func.return
}

// -----

#map = #xla.indexing_map<"(d0, d1)[s0] -> (d0, d1 + s0), domain: d0 in [1, 2], d1 in [5, 8], s0 in [0, 32], d0 mod 2 in [0, 1], d0 + s0 in [1, 10]">
func.func @apply_indexing_constraints(%d0: index, %d1: index, %s0: index) {
  // expected-error @+1 {{'xla.apply_indexing' op apply indexing op cannot have any constraints}}
  %0:2 = xla.apply_indexing #map (%d0, %d1)[%s0]
  func.return
}

// -----

func.func @apply_indexing_undefined() {
  // expected-error @+1 {{'xla.apply_indexing' op cannot apply an undefined indexing map}}
  xla.apply_indexing #xla.indexing_map<"UNDEFINED">
  func.return
}

// -----

func.func @apply_indexing_operand_type(%d0: i32) {
  // expected-error @+1 {{'xla.apply_indexing' op operand #0 must be variadic of index, but got 'i32'}}
  %0 = "xla.apply_indexing"(%d0) <{indexing_map_attr = #xla.indexing_map<"(d0) -> (d0), domain: d0 in [0, 1]">}> : (i32) -> index
  func.return
}

// -----

func.func @apply_indexing_not_a_map(%d0: index) {
  // expected-error @+1 {{invalid kind of attribute specified}}
  %0 = xla.apply_indexing affine_map<(d0) -> (d0)> (%d0)
  func.return
}

//===----------------------------------------------------------------------===//
// xla.loop
//===----------------------------------------------------------------------===//

// -----

#map = #xla.indexing_map<"(d0)[s0, s1] -> (s0, s1), domain: d0 in [0, 3], s0 in [0, 1023], s1 in [0, 31]">
func.func @loop_dims(%init: f32) -> f32 {
  // expected-error @+1 {{expected 1 dimension operands for the indexing map, got 0}}
  %sum = xla.loop ()[%i, %j] -> (%ra, %rb) in #map iter_args(%acc = %init) -> (f32) {
    xla.yield %acc : f32
  }
  func.return %sum : f32
}

// -----

#map = #xla.indexing_map<"(d0)[s0, s1] -> (s0, s1), domain: d0 in [0, 3], s0 in [0, 1023], s1 in [0, 31]">
func.func @loop_ivs(%init: f32, %d: index) -> f32 {
  // expected-error @+1 {{expected 2 induction variables (one per range variable) for the indexing map, got 1}}
  %sum = xla.loop (%d)[%i] -> (%ra, %rb) in #map iter_args(%acc = %init) -> (f32) {
    xla.yield %acc : f32
  }
  func.return %sum : f32
}

// -----

#map = #xla.indexing_map<"(d0)[s0, s1] -> (s0, s1), domain: d0 in [0, 3], s0 in [0, 1023], s1 in [0, 31]">
func.func @loop_map_results(%init: f32, %d: index) -> f32 {
  // expected-error @+1 {{expected 2 map result variables (one per result) for the indexing map, got 3}}
  %sum = xla.loop (%d)[%i, %j] -> (%ra, %rb, %rc) in #map iter_args(%acc = %init) -> (f32) {
    xla.yield %acc : f32
  }
  func.return %sum : f32
}

// -----

#map = #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 3]">
func.func @loop_result_types(%init: f32) -> f32 {
  // expected-error @+1 {{1 loop-carried values but 2 result types}}
  %sum = xla.loop ()[%i] -> (%ra) in #map iter_args(%acc = %init) -> (f32, f32) {
    xla.yield %acc : f32
  }
  func.return %sum : f32
}

// -----

#map = #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 3]">
func.func @loop_init_type(%init: i32) -> f32 {
  // expected-error @+2 {{use of value '%init' expects different type than prior uses: 'f32' vs 'i32'}}
  // expected-note @-2 {{prior use here}}
  %sum = xla.loop ()[%i] -> (%ra) in #map iter_args(%acc = %init) -> (f32) {
    xla.yield %acc : f32
  }
  func.return %sum : f32
}

// -----

func.func @loop_undefined() {
  // expected-error @+1 {{'xla.loop' op cannot iterate over an undefined indexing map}}
  xla.loop ()[] -> () in #xla.indexing_map<"UNDEFINED"> iter_args() -> () {
    xla.yield
  }
  func.return
}

// -----

#map = #xla.indexing_map<"()[s0]{rt0} -> (s0 + rt0), domain: s0 in [0, 3], rt0 in [0, 1]">
func.func @loop_runtime_vars() {
  // expected-error @+1 {{'xla.loop' op indexing map has 1 runtime variables; a loop iterates over range variables only}}
  xla.loop ()[%i] -> (%ra) in #map iter_args() -> () {
    xla.yield
  }
  func.return
}

// -----

#map = #xla.indexing_map<"()[s0, s1] -> (s0, s1), domain: s0 in [0, 1023], s1 in [0, 31]">
func.func @loop_result_count(%input: tensor<1024x32xf32>, %init: f32) -> f32 {
  // expected-error @+1 {{'xla.loop' op has 2 results but 1 loop-carried values}}
  %sum:2 = "xla.loop"(%init) <{indexing_map_attr = #map, operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%i: index, %j: index, %r0: index, %r1: index, %iter: f32):
    xla.yield %iter : f32
  }) : (f32) -> (f32, f32)
  func.return %sum#0 : f32
}

// -----

#map = #xla.indexing_map<"(d0)[s0] -> (s0), domain: d0 in [0, 3], s0 in [0, 1023]">
func.func @loop_dim_count(%init: f32) -> f32 {
  // expected-error @+1 {{'xla.loop' op has 0 dimension operands, the indexing map has 1 dimensions}}
  %sum = "xla.loop"(%init) <{indexing_map_attr = #map, operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%i: index, %r0: index, %iter: f32):
    xla.yield %iter : f32
  }) : (f32) -> f32
  func.return %sum : f32
}

// -----

#map = #xla.indexing_map<"()[s0] -> (s0, s0), domain: s0 in [0, 1023]">
func.func @loop_block_args(%init: f32) -> f32 {
  // expected-error @+1 {{'xla.loop' op body has 5 arguments, expected 1 induction variables + 2 map results + 1 loop-carried values}}
  %sum = "xla.loop"(%init) <{indexing_map_attr = #map, operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%i: index, %j: index, %r0: index, %r1: index, %iter: f32):
    xla.yield %iter : f32
  }) : (f32) -> f32
  func.return %sum : f32
}

// -----

#map = #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 1023]">
func.func @loop_index_args(%init: f32) -> f32 {
  // expected-error @+1 {{'xla.loop' op body argument #1 (an induction variable or map result) must be index, got 'i32'}}
  %sum = "xla.loop"(%init) <{indexing_map_attr = #map, operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%i: index, %r0: i32, %iter: f32):
    xla.yield %iter : f32
  }) : (f32) -> f32
  func.return %sum : f32
}

// -----

#map = #xla.indexing_map<"()[s0, s1] -> (s0, s1), domain: s0 in [0, 1023], s1 in [0, 31]">
func.func @loop_types(%init: f32) -> i32 {
  // expected-error @+1 {{'xla.loop' op loop-carried value #0: init type 'f32', body argument type 'f32' and result type 'i32' must match}}
  %sum = "xla.loop"(%init) <{indexing_map_attr = #map, operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%i: index, %j: index, %r0: index, %r1: index, %iter: f32):
    xla.yield %iter : f32
  }) : (f32) -> (i32)
  func.return %sum : i32
}

// -----

#map = #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 3]">
func.func @loop_yield_types(%init: f32) -> f32 {
  // expected-error @+1 {{'xla.loop' op body yields (i32), expected the loop-carried types (f32)}}
  %sum = xla.loop ()[%i] -> (%ra) in #map iter_args(%acc = %init) -> (f32) {
    %c = arith.constant 0 : i32
    xla.yield %c : i32
  }
  func.return %sum : f32
}

// -----

#map = #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 3]">
func.func @loop_no_yield(%init: f32) -> f32 {
  // expected-error @+1 {{'xla.loop' op body must end with xla.yield}}
  %sum = xla.loop ()[%i] -> (%ra) in #map iter_args(%acc = %init) -> (f32) {
    %x = arith.addf %acc, %acc : f32
  }
  func.return %sum : f32
}

// -----

#map = #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 3]">
func.func @loop_region_blocks(%init: f32) -> f32 {
  // expected-error @+1 {{'xla.loop' op region #0 ('region') failed to verify constraint: region with 1 blocks}}
  %sum = "xla.loop"(%init) <{indexing_map_attr = #map, operandSegmentSizes = array<i32: 0, 1>}> ({
  }) : (f32) -> f32
  func.return %sum : f32
}

//===----------------------------------------------------------------------===//
// xla.pure_call
//===----------------------------------------------------------------------===//

// -----

func.func @pure_call_missing(%a: f32) -> f32 {
  // expected-error @+1 {{'xla.pure_call' op callee 'missing' is not a func.func in this module}}
  %0 = xla.pure_call @missing(%a) : (f32) -> f32
  return %0 : f32
}

// -----

func.func private @add(%a: f32, %b: f32) -> f32 {
  %0 = arith.addf %a, %b : f32
  return %0 : f32
}
func.func @pure_call_operands(%a: f32) -> f32 {
  // expected-error @+1 {{'xla.pure_call' op callee 'add' takes (f32, f32) but is called with (f32)}}
  %0 = xla.pure_call @add(%a) : (f32) -> f32
  return %0 : f32
}

// -----

func.func private @add(%a: f32, %b: f32) -> f32 {
  %0 = arith.addf %a, %b : f32
  return %0 : f32
}
func.func @pure_call_results(%a: f32) -> (f32, f32) {
  // expected-error @+1 {{'xla.pure_call' op callee 'add' returns (f32) but the call has results (f32, f32)}}
  %0:2 = xla.pure_call @add(%a, %a) : (f32, f32) -> (f32, f32)
  return %0#0, %0#1 : f32, f32
}

//===----------------------------------------------------------------------===//
// xla.predicated_insert, xla.predicated_extract
//===----------------------------------------------------------------------===//

// -----

func.func @predicated_insert_indices(%v: f32, %t: tensor<4x8xf32>, %i: index, %c: i1) {
  // expected-error @+1 {{'xla.predicated_insert' op expected 2 indices for a rank-2 tensor, got 1}}
  %0 = xla.predicated_insert %v into %t[%i] if %c : tensor<4x8xf32>
  return
}

// -----

func.func @predicated_insert_value_type(%v: i32, %t: tensor<4xf32>, %i: index, %c: i1) {
  // expected-error @+1 {{'xla.predicated_insert' op failed to verify that value type matches element type of dest}}
  %0 = "xla.predicated_insert"(%c, %v, %t, %i) : (i1, i32, tensor<4xf32>, index) -> tensor<4xf32>
  return
}

// -----

func.func @predicated_insert_dynamic(%v: f32, %t: tensor<?xf32>, %i: index, %c: i1) {
  // expected-error @+1 {{'dest' must be statically shaped tensor of any type values, but got 'tensor<?xf32>'}}
  %0 = xla.predicated_insert %v into %t[%i] if %c : tensor<?xf32>
  return
}

// -----

func.func @predicated_extract_indices(%t: tensor<4x8xf32>, %i: index, %c: i1, %f: f32) {
  // expected-error @+1 {{'xla.predicated_extract' op expected 2 indices for a rank-2 tensor, got 3}}
  %0 = xla.predicated_extract %t[%i, %i, %i] if %c else %f : tensor<4x8xf32>
  return
}

// -----

func.func @predicated_extract_fallback_type(%t: tensor<4xf32>, %i: index, %c: i1, %f: i32) {
  // expected-error @+1 {{'xla.predicated_extract' op failed to verify that fallback type matches element type of src}}
  %0 = "xla.predicated_extract"(%c, %f, %t, %i) : (i1, i32, tensor<4xf32>, index) -> f32
  return
}

// -----

func.func @predicated_extract_condition(%t: tensor<4xf32>, %i: index, %c: i32, %f: f32) {
  // expected-error @+1 {{'xla.predicated_extract' op operand #0 must be 1-bit signless integer, but got 'i32'}}
  %0 = "xla.predicated_extract"(%c, %f, %t, %i) : (i32, f32, tensor<4xf32>, index) -> f32
  return
}

//===----------------------------------------------------------------------===//
// xla.atomic_rmw
//===----------------------------------------------------------------------===//

// -----

func.func @atomic_rmw_mismatch_yield(%in: tensor<2x3xf32>, %i: index, %j: index) {
  // expected-error @+1 {{'xla.atomic_rmw' op mismatch in the block argument type and the yielded type}}
  %ret = xla.atomic_rmw %in[%i, %j] : tensor<2x3xf32> {
  ^bb0(%current : f32):
    %c42 = arith.constant 420 : i32
    xla.yield %c42 : i32
  }
  return
}

// -----

func.func @atomic_rmw_mismatch_block_arg_type(%in: tensor<2x3xf32>, %i: index, %j: index) {
  // expected-error @+1 {{'xla.atomic_rmw' op mismatch in the result element type and the block argument type}}
  %ret = xla.atomic_rmw %in[%i, %j] : tensor<2x3xf32> {
  ^bb0(%current : i32):
    xla.yield %current : i32
  }
  return
}

// -----

func.func @atomic_rmw_mismatch_vector_element_type(%in: tensor<16xf32>, %i: index) {
  // expected-error @+1 {{'xla.atomic_rmw' op mismatch in the result element type and the block argument vector element type}}
  %ret = xla.atomic_rmw %in[%i] : tensor<16xf32> {
  ^bb0(%current : vector<2xi32>):
    xla.yield %current : vector<2xi32>
  }
  return
}

// -----

func.func @atomic_rmw_vector_rank(%in: tensor<16xf32>, %i: index) {
  // expected-error @+1 {{'xla.atomic_rmw' op expected a rank-1 vector type for the block argument}}
  %ret = xla.atomic_rmw %in[%i] : tensor<16xf32> {
  ^bb0(%current : vector<2x2xf32>):
    xla.yield %current : vector<2x2xf32>
  }
  return
}

// -----

func.func @atomic_rmw_indices(%in: tensor<2x3xf32>, %i: index) {
  // expected-error @+1 {{'xla.atomic_rmw' op expected 2 indices for a rank-2 tensor, got 1}}
  %ret = xla.atomic_rmw %in[%i] : tensor<2x3xf32> {
  ^bb0(%current : f32):
    xla.yield %current : f32
  }
  return
}

// -----

func.func @atomic_rmw_region_args(%in: tensor<4xf32>, %i: index) {
  // expected-error @+1 {{'xla.atomic_rmw' op region must have one argument (the current value), got 2}}
  %ret = xla.atomic_rmw %in[%i] : tensor<4xf32> {
  ^bb0(%current : f32, %other : f32):
    xla.yield %current : f32
  }
  return
}

// -----

func.func @atomic_rmw_no_yield(%in: tensor<4xf32>, %i: index) {
  // expected-error @+1 {{'xla.atomic_rmw' op region must end with xla.yield}}
  %ret = xla.atomic_rmw %in[%i] : tensor<4xf32> {
  ^bb0(%current : f32):
    %x = arith.addf %current, %current : f32
  }
  return
}

// -----

func.func @atomic_rmw_result_type(%in: tensor<4xf32>, %i: index) {
  // expected-error @+1 {{'xla.atomic_rmw' op failed to verify that result type matches type of input}}
  %ret = "xla.atomic_rmw"(%in, %i) ({
  ^bb0(%current : f32):
    xla.yield %current : f32
  }) : (tensor<4xf32>, index) -> tensor<8xf32>
  return
}

//===----------------------------------------------------------------------===//
// xla.workgroup_id, xla.yield
//===----------------------------------------------------------------------===//

// -----

func.func @workgroup_id_dimension() {
  // expected-error @+1 {{expected ::rxla::xla::WorkGroupDimension to be one of: x, y, z}}
  %0 = xla.workgroup_id w
  // The attribute parser reports this one at the next token.
  // expected-error @+1 {{failed to parse Xla_WorkGroupDimensionAttr parameter 'value'}}
  return
}

// -----

func.func @workgroup_id_result() {
  // expected-error @+1 {{'xla.workgroup_id' op result #0 must be index, but got 'i32'}}
  %0 = "xla.workgroup_id"() <{dimension = #xla<workgroup_dim x>}> : () -> i32
  return
}

// -----

func.func @yield_outside(%a: f32) {
  // expected-error @+1 {{'xla.yield' op expects parent op to be one of 'xla.loop, xla.atomic_rmw'}}
  xla.yield %a : f32
}

//===----------------------------------------------------------------------===//
// xla.range
//===----------------------------------------------------------------------===//

// -----

func.func @range_shape() {
  // expected-error @+1 {{'xla.range' must be [lo : index, hi : index], got [0, 127]}}
  %0 = xla.workgroup_id x {xla.range = [0, 127]}
  return
}

// -----

func.func @range_empty() {
  // expected-error @+1 {{'xla.range' is empty: lower bound 5 exceeds upper bound 3}}
  %0 = xla.workgroup_id x {xla.range = [5 : index, 3 : index]}
  return
}

// -----

// expected-error @+1 {{argument #1: 'xla.range' must be [lo : index, hi : index], got [0 : index]}}
func.func @range_argument(%a: index, %b: index {xla.range = [0 : index]}) {
  return
}

// -----

// expected-error @+1 {{invalid indexing map: integer 9223372036854775809 does not fit in 64 bits}}
#map = #xla.indexing_map<"(d0) -> (d0 * 9223372036854775809)">

// -----

// expected-error @+1 {{invalid indexing map: expression nests deeper than 256 levels}}
#map = #xla.indexing_map<"(d0) -> ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((d0))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))">
