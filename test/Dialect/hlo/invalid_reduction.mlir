// RUN: hlo-opt %s --split-input-file --verify-diagnostics

// Invalid reduce, reduce_window, select_and_scatter, map, scan, sort, topk,
// gather and scatter: one case per verifier message (and at least one per
// op).

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_odd_operands(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.reduce' op expects N inputs followed by N init values, but has 3 operands}}
  %0 = hlo.reduce %x, %y, %init {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_no_operands() {
  // expected-error @+1 {{'hlo.reduce' op expects N inputs followed by N init values, but has 0 operands}}
  %0 = hlo.reduce {dimensions = array<i64>, to_apply = @sum} : () -> tensor<f32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_result_count(%x: tensor<4x8xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.reduce' op has 2 results but 1 inputs (one result per input)}}
  %0:2 = hlo.reduce %x, %init {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<4x8xf32>, tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @pair(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  return %a, %b : tensor<f32>, tensor<f32>
}
func.func @reduce_input_shapes(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.reduce' op input 1 has shape [8, 4] but input 0 has shape [4, 8]}}
  %0:2 = hlo.reduce %x, %y, %init, %init {dimensions = array<i64: 0>, to_apply = @pair} : (tensor<4x8xf32>, tensor<8x4xf32>, tensor<f32>, tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_init_rank(%x: tensor<4x8xf32>, %init: tensor<8xf32>) {
  // expected-error @+1 {{'hlo.reduce' op init value 0 must be a rank-0 tensor, got 'tensor<8xf32>'}}
  %0 = hlo.reduce %x, %init {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_init_type(%x: tensor<4x8xf32>, %init: tensor<f16>) {
  // expected-error @+1 {{'hlo.reduce' op init value 0 has element type 'f16' but input 0 has element type 'f32'}}
  %0 = hlo.reduce %x, %init {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<4x8xf32>, tensor<f16>) -> tensor<8xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_dim_range(%x: tensor<4x8xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.reduce' op dimensions contains dimension 2, out of range for rank 2}}
  %0 = hlo.reduce %x, %init {dimensions = array<i64: 2>, to_apply = @sum} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_dim_twice(%x: tensor<4x8xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.reduce' op dimensions contains dimension 0 twice}}
  %0 = hlo.reduce %x, %init {dimensions = array<i64: 0, 0>, to_apply = @sum} : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_result_shape(%x: tensor<4x8xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.reduce' op result 0 has shape [4] but [8] was expected}}
  %0 = hlo.reduce %x, %init {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_result_type(%x: tensor<4x8xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.reduce' op result 0 has element type 'f16' but input 0 has element type 'f32'}}
  %0 = hlo.reduce %x, %init {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf16>
  return
}

// -----

func.func @reduce_missing_callee(%x: tensor<4x8xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.reduce' op to_apply refers to 'nowhere', which is not a func.func in this module}}
  %0 = hlo.reduce %x, %init {dimensions = array<i64: 0>, to_apply = @nowhere} : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  return
}

// -----

func.func @sum_vec(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = hlo.add %a, %b : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @reduce_callee_params(%x: tensor<4x8xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.reduce' op to_apply computation 'sum_vec' must take ('tensor<f32>', 'tensor<f32>') but takes ('tensor<2xf32>', 'tensor<2xf32>')}}
  %0 = hlo.reduce %x, %init {dimensions = array<i64: 0>, to_apply = @sum_vec} : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  return
}

// -----

func.func @pair(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>) -> (tensor<f32>, tensor<f32>) {
  return %a, %c : tensor<f32>, tensor<f32>
}
func.func @reduce_callee_results(%x: tensor<4xf32>, %i: tensor<4xi32>, %x0: tensor<f32>, %i0: tensor<i32>) {
  // expected-error @+1 {{'hlo.reduce' op to_apply computation 'pair' must return ('tensor<f32>', 'tensor<i32>') but returns ('tensor<f32>', 'tensor<f32>')}}
  %0:2 = hlo.reduce %x, %i, %x0, %i0 {dimensions = array<i64: 0>, to_apply = @pair} : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// reduce_window
//===----------------------------------------------------------------------===//

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_window_operands(%x: tensor<4x6xf32>) {
  // expected-error @+1 {{'hlo.reduce_window' op expects N inputs followed by N init values, but has 1 operands}}
  %0 = hlo.reduce_window %x {window = #hlo.window<size = [2, 3]>, to_apply = @sum} : (tensor<4x6xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_window_rank(%x: tensor<4x6xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.reduce_window' op window has 1 dimensions but the inputs has rank 2}}
  %0 = hlo.reduce_window %x, %init {window = #hlo.window<size = [2]>, to_apply = @sum} : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x6xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_window_shape(%x: tensor<4x6xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.reduce_window' op result 0 has shape [2, 3] but [2, 2] was expected}}
  %0 = hlo.reduce_window %x, %init {window = #hlo.window<size = [2, 3], stride = [2, 3]>, to_apply = @sum} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_window_dilated_shape(%x: tensor<3x2xf32>, %init: tensor<f32>) {
  // (3-1)*2+1 + 2 + 1 = 8 padded rows, window (2-1)*3+1 = 4: (8-4)/4+1 = 2.
  // expected-error @+1 {{'hlo.reduce_window' op result 0 has shape [3, 2] but [2, 2] was expected}}
  %0 = hlo.reduce_window %x, %init {window = #hlo.window<size = [2, 1], stride = [4, 1], pad_low = [2, 0], pad_high = [1, 0], lhs_dilation = [2, 1], rhs_dilation = [3, 1]>, to_apply = @sum} : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_window_negative_padding(%x: tensor<4xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.reduce_window' op window dimension 0: the padded input size -1 is negative}}
  %0 = hlo.reduce_window %x, %init {window = #hlo.window<size = [1], pad_low = [-3], pad_high = [-2]>, to_apply = @sum} : (tensor<4xf32>, tensor<f32>) -> tensor<0xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_window_result_type(%x: tensor<4xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.reduce_window' op result 0 has element type 'f64' but input 0 has element type 'f32'}}
  %0 = hlo.reduce_window %x, %init {window = #hlo.window<size = [2]>, to_apply = @sum} : (tensor<4xf32>, tensor<f32>) -> tensor<3xf64>
  return
}

// -----

func.func @sum_i32(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %0 = hlo.add %a, %b : tensor<i32>
  return %0 : tensor<i32>
}
func.func @reduce_window_callee(%x: tensor<4xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.reduce_window' op to_apply computation 'sum_i32' must take ('tensor<f32>', 'tensor<f32>') but takes ('tensor<i32>', 'tensor<i32>')}}
  %0 = hlo.reduce_window %x, %init {window = #hlo.window<size = [2]>, to_apply = @sum_i32} : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// select_and_scatter
//===----------------------------------------------------------------------===//

func.func @ge(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @select_and_scatter_init_rank(%x: tensor<4x6xf32>, %src: tensor<2x2xf32>, %init: tensor<1xf32>) {
  // expected-error @+1 {{'hlo.select_and_scatter' op init_value must be a rank-0 tensor, got 'tensor<1xf32>'}}
  %0 = hlo.select_and_scatter %x, %src, %init {window = #hlo.window<size = [2, 3], stride = [2, 3]>, select = @ge, scatter = @sum} : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<1xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @ge(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @select_and_scatter_init_type(%x: tensor<4x6xf32>, %src: tensor<2x2xf32>, %init: tensor<i32>) {
  // expected-error @+1 {{'hlo.select_and_scatter' op init_value has element type 'i32' but the operand has element type 'f32'}}
  %0 = hlo.select_and_scatter %x, %src, %init {window = #hlo.window<size = [2, 3], stride = [2, 3]>, select = @ge, scatter = @sum} : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<i32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @ge(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @select_and_scatter_source_type(%x: tensor<4x6xf32>, %src: tensor<2x2xf16>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.select_and_scatter' op source has element type 'f16' but the operand has element type 'f32'}}
  %0 = hlo.select_and_scatter %x, %src, %init {window = #hlo.window<size = [2, 3], stride = [2, 3]>, select = @ge, scatter = @sum} : (tensor<4x6xf32>, tensor<2x2xf16>, tensor<f32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @ge(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @select_and_scatter_window_rank(%x: tensor<4x6xf32>, %src: tensor<2x2xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.select_and_scatter' op window has 1 dimensions but the operand has rank 2}}
  %0 = hlo.select_and_scatter %x, %src, %init {window = #hlo.window<size = [2]>, select = @ge, scatter = @sum} : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @ge(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @select_and_scatter_source_shape(%x: tensor<4x6xf32>, %src: tensor<2x3xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.select_and_scatter' op source (one value per window position) has shape [2, 3] but [2, 2] was expected}}
  %0 = hlo.select_and_scatter %x, %src, %init {window = #hlo.window<size = [2, 3], stride = [2, 3]>, select = @ge, scatter = @sum} : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @ge(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @select_and_scatter_result(%x: tensor<4x6xf32>, %src: tensor<2x2xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.select_and_scatter' op result type 'tensor<2x2xf32>' must equal the operand type 'tensor<4x6xf32>'}}
  %0 = hlo.select_and_scatter %x, %src, %init {window = #hlo.window<size = [2, 3], stride = [2, 3]>, select = @ge, scatter = @sum} : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @select_and_scatter_select(%x: tensor<4x6xf32>, %src: tensor<2x2xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.select_and_scatter' op select computation 'sum' must return ('tensor<i1>') but returns ('tensor<f32>')}}
  %0 = hlo.select_and_scatter %x, %src, %init {window = #hlo.window<size = [2, 3], stride = [2, 3]>, select = @sum, scatter = @sum} : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @ge(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @select_and_scatter_scatter(%x: tensor<4x6xf32>, %src: tensor<2x2xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{'hlo.select_and_scatter' op scatter computation 'ge' must return ('tensor<f32>') but returns ('tensor<i1>')}}
  %0 = hlo.select_and_scatter %x, %src, %init {window = #hlo.window<size = [2, 3], stride = [2, 3]>, select = @ge, scatter = @ge} : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x6xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// map
//===----------------------------------------------------------------------===//

func.func @one() -> tensor<f32> {
  %0 = hlo.constant dense<1.0> : tensor<f32>
  return %0 : tensor<f32>
}
func.func @map_no_inputs() {
  // expected-error @+1 {{'hlo.map' op needs at least one input}}
  %0 = hlo.map {dimensions = array<i64>, to_apply = @one} : () -> tensor<f32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @map_input_shapes(%x: tensor<4xf32>, %y: tensor<5xf32>) {
  // expected-error @+1 {{'hlo.map' op input 1 has shape [5] but input 0 has shape [4]}}
  %0 = hlo.map %x, %y {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<4xf32>, tensor<5xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @map_dimensions(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) {
  // expected-error @+1 {{'hlo.map' op dimensions must be [0, 1] (every input dimension, in order), got [1, 0]}}
  %0 = hlo.map %x, %y {dimensions = array<i64: 1, 0>, to_apply = @sum} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @map_result_shape(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.map' op result has shape [2, 2] but [4] was expected}}
  %0 = hlo.map %x, %y {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<4xf32>, tensor<4xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @map_result_type(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.map' op to_apply computation 'sum' must return ('tensor<i1>') but returns ('tensor<f32>')}}
  %0 = hlo.map %x, %y {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @map_arity(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.map' op to_apply computation 'sum' must take ('tensor<f32>') but takes ('tensor<f32>', 'tensor<f32>')}}
  %0 = hlo.map %x {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// scan
//===----------------------------------------------------------------------===//

func.func @cumsum(%x: tensor<8xf32>, %c: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = hlo.add %x, %c : tensor<8xf32>
  return %0, %0 : tensor<8xf32>, tensor<8xf32>
}
func.func @scan_carries_operands(%x: tensor<5x8xf32>) {
  // expected-error @+1 {{'hlo.scan' op num_carries is 2 but there are only 1 operands}}
  %0:2 = hlo.scan %x {num_carries = 2 : i64, scan_dimension = 0 : i64, to_apply = @cumsum} : (tensor<5x8xf32>) -> (tensor<5x8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @cumsum(%x: tensor<8xf32>, %c: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = hlo.add %x, %c : tensor<8xf32>
  return %0, %0 : tensor<8xf32>, tensor<8xf32>
}
func.func @scan_carries_results(%x: tensor<5x8xf32>, %init: tensor<8xf32>) {
  // expected-error @+1 {{'hlo.scan' op num_carries is 2 but there are only 1 results}}
  %0 = hlo.scan %x, %init {num_carries = 2 : i64, scan_dimension = 0 : i64, to_apply = @cumsum} : (tensor<5x8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @cumsum(%x: tensor<8xf32>, %c: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = hlo.add %x, %c : tensor<8xf32>
  return %0, %0 : tensor<8xf32>, tensor<8xf32>
}
func.func @scan_dimension_range(%x: tensor<5x8xf32>, %init: tensor<8xf32>) {
  // expected-error @+1 {{'hlo.scan' op scan_dimension 2 is out of range for input 0 of rank 2}}
  %0:2 = hlo.scan %x, %init {num_carries = 1 : i64, scan_dimension = 2 : i64, to_apply = @cumsum} : (tensor<5x8xf32>, tensor<8xf32>) -> (tensor<5x8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @step(%x: tensor<8xf32>, %y: tensor<8xf32>, %c: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  return %x, %c : tensor<8xf32>, tensor<8xf32>
}
func.func @scan_input_lengths(%x: tensor<5x8xf32>, %y: tensor<6x8xf32>, %init: tensor<8xf32>) {
  // expected-error @+1 {{'hlo.scan' op input 1 has size 6 along scan_dimension 0 but the scanned arrays before it have size 5}}
  %0:2 = hlo.scan %x, %y, %init {num_carries = 1 : i64, scan_dimension = 0 : i64, to_apply = @step} : (tensor<5x8xf32>, tensor<6x8xf32>, tensor<8xf32>) -> (tensor<5x8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @cumsum(%x: tensor<8xf32>, %c: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = hlo.add %x, %c : tensor<8xf32>
  return %0, %0 : tensor<8xf32>, tensor<8xf32>
}
func.func @scan_result_length(%x: tensor<5x8xf32>, %init: tensor<8xf32>) {
  // expected-error @+1 {{'hlo.scan' op result 0 has size 4 along scan_dimension 0 but the scanned arrays before it have size 5}}
  %0:2 = hlo.scan %x, %init {num_carries = 1 : i64, scan_dimension = 0 : i64, to_apply = @cumsum} : (tensor<5x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @cumsum(%x: tensor<8xf32>, %c: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = hlo.add %x, %c : tensor<8xf32>
  return %0, %0 : tensor<8xf32>, tensor<8xf32>
}
func.func @scan_carry_type(%x: tensor<5x8xf32>, %init: tensor<8xf32>) {
  // expected-error @+1 {{'hlo.scan' op result 1 (final carry 0) has type 'tensor<8xf16>' but init 0 has type 'tensor<8xf32>'}}
  %0:2 = hlo.scan %x, %init {num_carries = 1 : i64, scan_dimension = 0 : i64, to_apply = @cumsum} : (tensor<5x8xf32>, tensor<8xf32>) -> (tensor<5x8xf32>, tensor<8xf16>)
  return
}

// -----

func.func @cumsum_rows(%x: tensor<5x8xf32>, %c: tensor<8xf32>) -> (tensor<5x8xf32>, tensor<8xf32>) {
  return %x, %c : tensor<5x8xf32>, tensor<8xf32>
}
func.func @scan_callee(%x: tensor<5x8xf32>, %init: tensor<8xf32>) {
  // expected-error @+1 {{'hlo.scan' op to_apply computation 'cumsum_rows' must take ('tensor<8xf32>', 'tensor<8xf32>') but takes ('tensor<5x8xf32>', 'tensor<8xf32>')}}
  %0:2 = hlo.scan %x, %init {num_carries = 1 : i64, scan_dimension = 0 : i64, to_apply = @cumsum_rows} : (tensor<5x8xf32>, tensor<8xf32>) -> (tensor<5x8xf32>, tensor<8xf32>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// sort
//===----------------------------------------------------------------------===//

func.func @lt(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @sort_no_inputs() {
  // expected-error @+1 {{'hlo.sort' op needs at least one input}}
  hlo.sort {dimension = 0 : i64, to_apply = @lt} : () -> ()
  return
}

// -----

func.func @lt(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @sort_result_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.sort' op has 2 results but 1 inputs (one result per input)}}
  %0:2 = hlo.sort %x {dimension = 0 : i64, to_apply = @lt} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @lt2(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>) -> tensor<i1> {
  %0 = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @sort_input_shapes(%x: tensor<4xf32>, %y: tensor<5xi32>) {
  // expected-error @+1 {{'hlo.sort' op input 1 has shape [5] but input 0 has shape [4]}}
  %0:2 = hlo.sort %x, %y {dimension = 0 : i64, to_apply = @lt2} : (tensor<4xf32>, tensor<5xi32>) -> (tensor<4xf32>, tensor<5xi32>)
  return
}

// -----

func.func @lt(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @sort_dimension(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'hlo.sort' op dimension 2 is out of range for inputs of rank 2}}
  %0 = hlo.sort %x {dimension = 2 : i64, to_apply = @lt} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @lt(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @sort_result_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.sort' op result 0 has type 'tensor<4xf16>' but input 0 has type 'tensor<4xf32>'}}
  %0 = hlo.sort %x {dimension = 0 : i64, to_apply = @lt} : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

// The comparator takes (lhs, rhs) of input 0, then (lhs, rhs) of input 1.
func.func @lt_grouped(%a: tensor<f32>, %c: tensor<i32>, %b: tensor<f32>, %d: tensor<i32>) -> tensor<i1> {
  %0 = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @sort_comparator_order(%x: tensor<4xf32>, %y: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.sort' op to_apply computation 'lt_grouped' must take ('tensor<f32>', 'tensor<f32>', 'tensor<i32>', 'tensor<i32>') but takes ('tensor<f32>', 'tensor<i32>', 'tensor<f32>', 'tensor<i32>')}}
  %0:2 = hlo.sort %x, %y {dimension = 0 : i64, to_apply = @lt_grouped} : (tensor<4xf32>, tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>)
  return
}

// -----

func.func @sub(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.subtract %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @sort_comparator_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.sort' op to_apply computation 'sub' must return ('tensor<i1>') but returns ('tensor<f32>')}}
  %0 = hlo.sort %x {dimension = 0 : i64, to_apply = @sub} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// topk
//===----------------------------------------------------------------------===//

func.func @topk_rank(%x: tensor<f32>) {
  // expected-error @+1 {{'hlo.topk' op operand must have rank >= 1, got 'tensor<f32>'}}
  %0:2 = hlo.topk %x {k = 1 : i64} : (tensor<f32>) -> (tensor<f32>, tensor<i32>)
  return
}

// -----

func.func @topk_k(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'hlo.topk' op k = 4 is larger than the last dimension of the operand (3)}}
  %0:2 = hlo.topk %x {k = 4 : i64} : (tensor<4x3xf32>) -> (tensor<4x4xf32>, tensor<4x4xi32>)
  return
}

// -----

func.func @topk_values_shape(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{'hlo.topk' op values has shape [4, 16] but [4, 3] was expected}}
  %0:2 = hlo.topk %x {k = 3 : i64} : (tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x3xi32>)
  return
}

// -----

func.func @topk_indices_shape(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{'hlo.topk' op indices has shape [3] but [4, 3] was expected}}
  %0:2 = hlo.topk %x {k = 3 : i64} : (tensor<4x16xf32>) -> (tensor<4x3xf32>, tensor<3xi32>)
  return
}

// -----

func.func @topk_values_type(%x: tensor<16xf32>) {
  // expected-error @+1 {{'hlo.topk' op values has element type 'f16' but the operand has element type 'f32'}}
  %0:2 = hlo.topk %x {k = 3 : i64} : (tensor<16xf32>) -> (tensor<3xf16>, tensor<3xi32>)
  return
}

// -----

func.func @topk_indices_type(%x: tensor<16xf32>) {
  // expected-error @+1 {{'hlo.topk' op result #1 must be ranked tensor of 32-bit signless integer values, but got 'tensor<3xi64>'}}
  %0:2 = hlo.topk %x {k = 3 : i64} : (tensor<16xf32>) -> (tensor<3xf32>, tensor<3xi64>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

func.func @gather_index_vector_dim(%x: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{'hlo.gather' op index_vector_dim 3 is out of range for start_indices of rank 2 (it may be at most the rank)}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 3>, slice_sizes = array<i64: 8, 6>} : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x6xf32>
  return
}

// -----

func.func @gather_rank_sum(%x: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{'hlo.gather' op the operand has rank 2 but offset_dims, collapsed_slice_dims and operand_batching_dims have 1 + 0 + 0 entries}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 8, 6>} : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8xf32>
  return
}

// -----

func.func @gather_offset_dims_range(%x: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{'hlo.gather' op offset_dims contains dimension 3, out of range for rank 3}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1, 3], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 8, 6>} : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x6xf32>
  return
}

// -----

func.func @gather_offset_dims_sorted(%x: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{'hlo.gather' op offset_dims must be sorted in ascending order, got [2, 1]}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [2, 1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 8, 6>} : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x6xf32>
  return
}

// -----

func.func @gather_collapsed_range(%x: tensor<16x11xf32>, %idx: tensor<5x1xi32>) {
  // expected-error @+1 {{'hlo.gather' op collapsed_slice_dims contains dimension 2, out of range for rank 2}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [2], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 11>} : (tensor<16x11xf32>, tensor<5x1xi32>) -> tensor<5x11xf32>
  return
}

// -----

func.func @gather_batching_twice(%x: tensor<2x3x4xf32>, %idx: tensor<2x3x1xi32>) {
  // expected-error @+1 {{'hlo.gather' op operand_batching_dims contains dimension 0 twice}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [2], operand_batching_dims = [0, 0], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 4>} : (tensor<2x3x4xf32>, tensor<2x3x1xi32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @gather_collapsed_batching(%x: tensor<2x3x4xf32>, %idx: tensor<2x1xi32>) {
  // expected-error @+1 {{'hlo.gather' op dimension 0 is in both collapsed_slice_dims and operand_batching_dims}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1, 4>} : (tensor<2x3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @gather_indices_batching_range(%x: tensor<2x3x4xf32>, %idx: tensor<2x1xi32>) {
  // expected-error @+1 {{'hlo.gather' op start_indices_batching_dims contains dimension 2, out of range for rank 2}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [2], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1, 4>} : (tensor<2x3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @gather_start_index_map_range(%x: tensor<16x11xf32>, %idx: tensor<5x1xi32>) {
  // expected-error @+1 {{'hlo.gather' op start_index_map contains dimension 2, out of range for rank 2}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [2], index_vector_dim = 1>, slice_sizes = array<i64: 1, 11>} : (tensor<16x11xf32>, tensor<5x1xi32>) -> tensor<5x11xf32>
  return
}

// -----

func.func @gather_start_index_map_batching(%x: tensor<2x3x4xf32>, %idx: tensor<2x1xi32>) {
  // expected-error @+1 {{'hlo.gather' op dimension 0 is in both start_index_map and operand_batching_dims}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1, 4>} : (tensor<2x3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @gather_batching_index_vector_dim(%x: tensor<2x3x4xf32>, %idx: tensor<2x1xi32>) {
  // expected-error @+1 {{'hlo.gather' op start_indices_batching_dims contains index_vector_dim 1}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1, 4>} : (tensor<2x3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @gather_batching_count(%x: tensor<2x3x4xf32>, %idx: tensor<2x1xi32>) {
  // expected-error @+1 {{'hlo.gather' op operand_batching_dims has 1 entries but start_indices_batching_dims has 0}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [1], operand_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1, 4>} : (tensor<2x3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @gather_batching_size(%x: tensor<2x3x4xf32>, %idx: tensor<5x1xi32>) {
  // expected-error @+1 {{'hlo.gather' op operand batching dimension 0 has size 2 but start_indices batching dimension 0 has size 5}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1, 4>} : (tensor<2x3x4xf32>, tensor<5x1xi32>) -> tensor<5x4xf32>
  return
}

// -----

func.func @gather_index_vector_size(%x: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{'hlo.gather' op start_index_map has 1 entries but the index vectors of start_indices have 2 components}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 11>} : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x11xf32>
  return
}

// -----

func.func @gather_slice_sizes_count(%x: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{'hlo.gather' op slice_sizes has 1 entries but the operand has rank 2}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 8>} : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x6xf32>
  return
}

// -----

func.func @gather_slice_size_range(%x: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{'hlo.gather' op slice size 12 of dimension 1 is out of range [0, 11]}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 8, 12>} : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x12xf32>
  return
}

// -----

func.func @gather_collapsed_size(%x: tensor<16x11xf32>, %idx: tensor<5x1xi32>) {
  // expected-error @+1 {{'hlo.gather' op collapsed slice dimension 0 has slice size 2, it must be 1}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2, 11>} : (tensor<16x11xf32>, tensor<5x1xi32>) -> tensor<5x11xf32>
  return
}

// -----

func.func @gather_batching_slice_size(%x: tensor<2x3x4xf32>, %idx: tensor<2x1xi32>) {
  // expected-error @+1 {{'hlo.gather' op operand batching dimension 0 has slice size 2, it must be 0 or 1}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 2, 1, 4>} : (tensor<2x3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @gather_result_shape(%x: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{'hlo.gather' op result has shape [5, 6, 8] but [5, 8, 6] was expected}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 8, 6>} : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x6x8xf32>
  return
}

// -----

func.func @gather_result_type(%x: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{'hlo.gather' op result has element type 'f16' but the operand has element type 'f32'}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 8, 6>} : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x6xf16>
  return
}

// -----

func.func @gather_float_indices(%x: tensor<16x11xf32>, %idx: tensor<5x2xf32>) {
  // expected-error @+1 {{'hlo.gather' op operand #1 must be ranked tensor of integer values, but got 'tensor<5x2xf32>'}}
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 8, 6>} : (tensor<16x11xf32>, tensor<5x2xf32>) -> tensor<5x8x6xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// scatter
//===----------------------------------------------------------------------===//

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @scatter_operand_count(%x: tensor<3x4xf32>, %idx: tensor<2x1xi32>) {
  // expected-error @+1 {{'hlo.scatter' op expects N inputs, the scatter indices and N updates, but has 2 operands}}
  %0 = hlo.scatter %x, %idx {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @sum} : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @scatter_result_count(%x: tensor<3x4xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x4xf32>) {
  // expected-error @+1 {{'hlo.scatter' op has 2 results but 1 inputs (one result per input)}}
  %0:2 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @sum} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>)
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @scatter_float_indices(%x: tensor<3x4xf32>, %idx: tensor<2x1xf32>, %upd: tensor<2x4xf32>) {
  // expected-error @+1 {{'hlo.scatter' op scatter indices must have an integer element type, got 'f32'}}
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @sum} : (tensor<3x4xf32>, tensor<2x1xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @pair(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  return %a, %b : tensor<f32>, tensor<f32>
}
func.func @scatter_input_shapes(%x: tensor<3x4xf32>, %y: tensor<3x5xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x4xf32>) {
  // expected-error @+1 {{'hlo.scatter' op input 1 has shape [3, 5] but input 0 has shape [3, 4]}}
  %0:2 = hlo.scatter %x, %y, %idx, %upd, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @pair} : (tensor<3x4xf32>, tensor<3x5xf32>, tensor<2x1xi32>, tensor<2x4xf32>, tensor<2x4xf32>) -> (tensor<3x4xf32>, tensor<3x5xf32>)
  return
}

// -----

func.func @pair(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  return %a, %b : tensor<f32>, tensor<f32>
}
func.func @scatter_update_shapes(%x: tensor<3x4xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x4xf32>, %upd2: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.scatter' op update 1 has shape [2, 3] but update 0 has shape [2, 4]}}
  %0:2 = hlo.scatter %x, %x, %idx, %upd, %upd2 {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @pair} : (tensor<3x4xf32>, tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>, tensor<2x3xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>)
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @scatter_update_type(%x: tensor<3x4xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x4xf16>) {
  // expected-error @+1 {{'hlo.scatter' op update 0 has element type 'f16' but input 0 has element type 'f32'}}
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @sum} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf16>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @scatter_result_type(%x: tensor<3x4xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x4xf32>) {
  // expected-error @+1 {{'hlo.scatter' op result 0 has type 'tensor<4x3xf32>' but input 0 has type 'tensor<3x4xf32>'}}
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @sum} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @scatter_index_vector_dim(%x: tensor<3x4xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x4xf32>) {
  // expected-error @+1 {{'hlo.scatter' op index_vector_dim 5 is out of range for scatter indices of rank 2 (it may be at most the rank)}}
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 5>, to_apply = @sum} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @scatter_window_dims_range(%x: tensor<3x4xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x4xf32>) {
  // expected-error @+1 {{'hlo.scatter' op update_window_dims contains dimension 2, out of range for rank 2}}
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @sum} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @scatter_inserted_sorted(%x: tensor<3x4x5xf32>, %idx: tensor<2x2xi32>, %upd: tensor<2x4xf32>) {
  // expected-error @+1 {{'hlo.scatter' op inserted_window_dims must be sorted in ascending order, got [2, 0]}}
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [2, 0], scatter_dims_to_operand_dims = [0, 2], index_vector_dim = 1>, to_apply = @sum} : (tensor<3x4x5xf32>, tensor<2x2xi32>, tensor<2x4xf32>) -> tensor<3x4x5xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @scatter_inserted_batching(%x: tensor<2x3x4xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x4xf32>) {
  // expected-error @+1 {{'hlo.scatter' op dimension 0 is in both inserted_window_dims and input_batching_dims}}
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, to_apply = @sum} : (tensor<2x3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @scatter_to_operand_batching(%x: tensor<2x3x4xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x4xf32>) {
  // expected-error @+1 {{'hlo.scatter' op dimension 0 is in both scatter_dims_to_operand_dims and input_batching_dims}}
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @sum} : (tensor<2x3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @scatter_rank_sum(%x: tensor<3x4xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x4xf32>) {
  // expected-error @+1 {{'hlo.scatter' op the inputs have rank 2 but update_window_dims, inserted_window_dims and input_batching_dims have 1 + 0 + 0 entries}}
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @sum} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @scatter_batching_index_vector_dim(%x: tensor<2x3x4xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x4xf32>) {
  // expected-error @+1 {{'hlo.scatter' op scatter_indices_batching_dims contains index_vector_dim 1}}
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, to_apply = @sum} : (tensor<2x3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @scatter_batching_count(%x: tensor<2x3x4xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x4xf32>) {
  // expected-error @+1 {{'hlo.scatter' op input_batching_dims has 1 entries but scatter_indices_batching_dims has 0}}
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [1], input_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, to_apply = @sum} : (tensor<2x3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @scatter_batching_size(%x: tensor<2x3x4xf32>, %idx: tensor<5x1xi32>, %upd: tensor<5x4xf32>) {
  // expected-error @+1 {{'hlo.scatter' op input batching dimension 0 has size 2 but scatter indices batching dimension 0 has size 5}}
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, to_apply = @sum} : (tensor<2x3x4xf32>, tensor<5x1xi32>, tensor<5x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @scatter_index_vector_size(%x: tensor<3x4xf32>, %idx: tensor<2x2xi32>, %upd: tensor<2x4xf32>) {
  // expected-error @+1 {{'hlo.scatter' op scatter_dims_to_operand_dims has 1 entries but the index vectors of the scatter indices have 2 components}}
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @sum} : (tensor<3x4xf32>, tensor<2x2xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @scatter_update_rank(%x: tensor<3x4xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x1x4xf32>) {
  // expected-error @+1 {{'hlo.scatter' op updates have rank 3 but 2 was expected (update_window_dims plus the scatter indices' batch dimensions)}}
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @sum} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x1x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @scatter_window_bound(%x: tensor<3x4xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x5xf32>) {
  // expected-error @+1 {{'hlo.scatter' op update window dimension 1 has size 5, larger than the input's window bound 4}}
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @sum} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x5xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @scatter_scatter_dim_size(%x: tensor<3x4xf32>, %idx: tensor<2x1xi32>, %upd: tensor<3x4xf32>) {
  // expected-error @+1 {{'hlo.scatter' op update scatter dimension 0 has size 3 but the scatter indices' batch dimension has size 2}}
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @sum} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sum_i32(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %0 = hlo.add %a, %b : tensor<i32>
  return %0 : tensor<i32>
}
func.func @scatter_callee(%x: tensor<3x4xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x4xf32>) {
  // expected-error @+1 {{'hlo.scatter' op to_apply computation 'sum_i32' must take ('tensor<f32>', 'tensor<f32>') but takes ('tensor<i32>', 'tensor<i32>')}}
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @sum_i32} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return
}
