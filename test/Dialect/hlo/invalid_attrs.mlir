// RUN: hlo-opt %s --split-input-file --verify-diagnostics

// Invalid hlo attributes: the verifiers of #hlo.window and #hlo.iota_groups
// (HloAttrs.cpp) and of the dialect's discardable attributes hlo.layout,
// hlo.entry and unknown hlo.* names (HloDialect.cpp).

// #hlo.window

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @window_entries(%x: tensor<4x6xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{window stride has 1 entries, expected 2 (one per window dimension)}}
  %0 = hlo.reduce_window %x, %init {window = #hlo.window<size = [2, 2], stride = [2]>, to_apply = @sum} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @window_entries_without_size(%x: tensor<f32>, %init: tensor<f32>) {
  // expected-error @+1 {{window pad_low has 1 entries, expected 0 (one per window dimension)}}
  %0 = hlo.reduce_window %x, %init {window = #hlo.window<pad_low = [1]>, to_apply = @sum} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @window_size(%x: tensor<4xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{window size must be >= 1, got 0}}
  %0 = hlo.reduce_window %x, %init {window = #hlo.window<size = [0]>, to_apply = @sum} : (tensor<4xf32>, tensor<f32>) -> tensor<5xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @window_stride(%x: tensor<4xf32>, %init: tensor<f32>) {
  // expected-error @+1 {{window stride must be >= 1, got 0}}
  %0 = hlo.reduce_window %x, %init {window = #hlo.window<size = [2], stride = [0]>, to_apply = @sum} : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  return
}

// -----

func.func @window_lhs_dilation(%x: tensor<1x8x3xf32>, %w: tensor<3x3x4xf32>) {
  // expected-error @+1 {{window lhs_dilation must be >= 1, got 0}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3], lhs_dilation = [0]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 2, input_spatial_dims = [1], kernel_input_feature_dim = 1, kernel_output_feature_dim = 2, kernel_spatial_dims = [0], output_batch_dim = 0, output_feature_dim = 2, output_spatial_dims = [1]>} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
  return
}

// -----

func.func @window_rhs_dilation(%x: tensor<1x8x3xf32>, %w: tensor<3x3x4xf32>) {
  // expected-error @+1 {{window rhs_dilation must be >= 1, got -2}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3], rhs_dilation = [-2]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 2, input_spatial_dims = [1], kernel_input_feature_dim = 1, kernel_output_feature_dim = 2, kernel_spatial_dims = [0], output_batch_dim = 0, output_feature_dim = 2, output_spatial_dims = [1]>} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
  return
}

// -----

func.func @window_reversal_negative(%x: tensor<1x8x3xf32>, %w: tensor<3x3x4xf32>) {
  // expected-error @+1 {{window reversal must be >= 0, got -1}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3], reversal = [-1]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 2, input_spatial_dims = [1], kernel_input_feature_dim = 1, kernel_output_feature_dim = 2, kernel_spatial_dims = [0], output_batch_dim = 0, output_feature_dim = 2, output_spatial_dims = [1]>} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
  return
}

// -----

func.func @window_reversal(%x: tensor<1x8x3xf32>, %w: tensor<3x3x4xf32>) {
  // expected-error @+1 {{window reversal entries must be 0 or 1}}
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3], reversal = [2]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 2, input_spatial_dims = [1], kernel_input_feature_dim = 1, kernel_output_feature_dim = 2, kernel_spatial_dims = [0], output_batch_dim = 0, output_feature_dim = 2, output_spatial_dims = [1]>} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
  return
}

// -----

// #hlo.iota_groups

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @iota_group_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{iota replica groups need a 2-D group_shape [num_groups, group_size]}}
  %0 = hlo.all_reduce %x {to_apply = @sum, replica_groups = #hlo.iota_groups<group_shape = [8], reshape_dims = [8]>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @iota_reshape_dims(%x: tensor<4xf32>) {
  // expected-error @+1 {{iota replica group reshape_dims must be positive}}
  %0 = hlo.all_reduce %x {to_apply = @sum, replica_groups = #hlo.iota_groups<group_shape = [1, 1], reshape_dims = [0]>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @iota_group_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{iota replica group_shape entries must be positive}}
  %0 = hlo.all_reduce %x {to_apply = @sum, replica_groups = #hlo.iota_groups<group_shape = [-1, -4], reshape_dims = [4]>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @iota_device_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{iota replica groups: group_shape has 8 devices but reshape_dims has 6}}
  %0 = hlo.all_reduce %x {to_apply = @sum, replica_groups = #hlo.iota_groups<group_shape = [2, 4], reshape_dims = [2, 3]>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @iota_transpose_size(%x: tensor<4xf32>) {
  // expected-error @+1 {{iota replica groups: transpose must permute reshape_dims}}
  %0 = hlo.all_reduce %x {to_apply = @sum, replica_groups = #hlo.iota_groups<group_shape = [2, 4], reshape_dims = [2, 4], transpose = [0]>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @iota_transpose_permutation(%x: tensor<4xf32>) {
  // expected-error @+1 {{iota replica groups: transpose is not a permutation}}
  %0 = hlo.all_reduce %x {to_apply = @sum, replica_groups = #hlo.iota_groups<group_shape = [2, 4], reshape_dims = [2, 4], transpose = [1, 1]>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// hlo.layout

func.func @layout_not_permutation(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.add' op hlo.layout of the result: minor_to_major is not a permutation}}
  %0 = hlo.add %x, %x {hlo.layout = #hlo.layout<minor_to_major = [0, 0]>} : tensor<2x3xf32>
  return
}

// -----

func.func @layout_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.add' op hlo.layout of the result: minor_to_major is not a permutation}}
  %0 = hlo.add %x, %x {hlo.layout = #hlo.layout<minor_to_major = [2, 0]>} : tensor<2x3xf32>
  return
}

// -----

func.func @layout_rank(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.add' op hlo.layout of the result has 3 dimensions, the array has 2}}
  %0 = hlo.add %x, %x {hlo.layout = #hlo.layout<minor_to_major = [2, 1, 0]>} : tensor<2x3xf32>
  return
}

// -----

func.func @layout_wrong_attribute(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.add' op hlo.layout of the result must be a #hlo.layout for an array}}
  %0 = hlo.add %x, %x {hlo.layout = [1, 0]} : tensor<2x3xf32>
  return
}

// -----

func.func @layout_on_token(%t: !hlo.token) {
  // expected-error @+1 {{'hlo.after_all' op hlo.layout of the result must be a #hlo.layout for an array}}
  %0 = "hlo.after_all"(%t) {hlo.layout = #hlo.layout<>} : (!hlo.token) -> !hlo.token
  return
}

// -----

func.func @layout_tuple_count(%x: tensor<2xf32>) {
  // expected-error @+1 {{'hlo.tuple' op hlo.layout of the result (a tuple) must be an array with one entry per element}}
  %0 = hlo.tuple %x, %x {hlo.layout = [#hlo.layout<minor_to_major = [0]>]} : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
  return
}

// -----

func.func @layout_tuple_element(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.tuple' op hlo.layout of the result: minor_to_major is not a permutation}}
  %0 = hlo.tuple %x {hlo.layout = [#hlo.layout<minor_to_major = [1, 1]>]} : (tensor<2x3xf32>) -> tuple<tensor<2x3xf32>>
  return
}

// -----

func.func @layout_two_results(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.layout' needs an op with exactly one result}}
  %0:2 = hlo.topk %x {k = 2 : i64, hlo.layout = #hlo.layout<minor_to_major = [0]>} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xi32>)
  return
}

// -----

// hlo.entry and unknown hlo.* attributes

func.func @entry_on_op(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.entry' must be a unit attribute on a func.func}}
  %0 = hlo.negate %x {hlo.entry} : tensor<4xf32>
  return
}

// -----

// expected-error @+1 {{'hlo.entry' must be a unit attribute on a func.func}}
func.func @entry_not_unit(%x: tensor<4xf32>) attributes {hlo.entry = true} {
  return
}

// -----

func.func @unknown_attribute(%x: tensor<4xf32>) {
  // expected-error @+1 {{unknown hlo dialect attribute 'hlo.frobnicate'}}
  %0 = hlo.negate %x {hlo.frobnicate = 1 : i64} : tensor<4xf32>
  return
}
