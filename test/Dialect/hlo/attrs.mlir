// RUN: hlo-opt %s | FileCheck %s
// RUN: hlo-opt %s | hlo-opt | FileCheck %s
// RUN: hlo-opt %s --mlir-print-op-generic | hlo-opt | FileCheck %s
// RUN: hlo-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: hlo-opt %s --mlir-print-op-generic | hlo-opt --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: hlo-opt %s > %t.1.mlir && hlo-opt %t.1.mlir > %t.2.mlir && diff %t.1.mlir %t.2.mlir

// Round trip of every hlo attribute kind in its full form inside attribute
// dictionaries: the structured attributes (#hlo.dot, #hlo.gather,
// #hlo.scatter, #hlo.conv, #hlo.window, #hlo.groups, #hlo.iota_groups,
// #hlo.layout, #hlo.output_operand_alias, #hlo.result_accuracy) through the
// ops that carry them, the enums (#hlo<precision ...> and friends) through
// ops that print them in their attribute dictionary or, for ops whose custom
// form prints the bare case, in the generic form (GENERIC), plus the
// discardable hlo.layout and hlo.entry attributes.

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

func.func @fused(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// #hlo.dot with every list, and #hlo<precision ...> in precision_config.
// CHECK-LABEL: func.func @dot_attr(
// CHECK: %{{.*}} = hlo.dot %{{.*}}, %{{.*}} {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>, precision_config = [#hlo<precision DEFAULT>, #hlo<precision HIGHEST>]} : (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<8x2x4xf32>
// CHECK: %{{.*}} = hlo.dot %{{.*}}, %{{.*}} {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>, precision_config = [#hlo<precision HIGH>, #hlo<precision HIGH>]} : (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<8x2x4xf32>
func.func @dot_attr(%a: tensor<8x2x3xf32>, %b: tensor<8x3x4xf32>) -> tensor<8x2x4xf32> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>, precision_config = [#hlo<precision DEFAULT>, #hlo<precision HIGHEST>]} : (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<8x2x4xf32>
  %1 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>, precision_config = [#hlo<precision HIGH>, #hlo<precision HIGH>]} : (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<8x2x4xf32>
  return %0 : tensor<8x2x4xf32>
}

// An empty #hlo.dot (outer product).
// CHECK-LABEL: func.func @dot_attr_empty(
// CHECK: %{{.*}} = hlo.dot %{{.*}}, %{{.*}} {dot_dimension_numbers = #hlo.dot<>} : (tensor<2xf32>, tensor<3xf32>) -> tensor<2x3xf32>
func.func @dot_attr_empty(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<>} : (tensor<2xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// #hlo.gather with every field.
// CHECK-LABEL: func.func @gather_attr(
// CHECK: %{{.*}} = hlo.gather %{{.*}}, %{{.*}} {dimension_numbers = #hlo.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, indices_are_sorted = true, slice_sizes = array<i64: 1, 1, 2, 2>} : (tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32>
func.func @gather_attr(%x: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32> {
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>, indices_are_sorted = true} : (tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32>
  return %0 : tensor<2x2x3x2x2xi32>
}

// #hlo.scatter with every field.
// CHECK-LABEL: func.func @scatter_attr(
// CHECK: %{{.*}} = hlo.scatter %{{.*}}, %{{.*}}, %{{.*}} {dimension_numbers = #hlo.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>, to_apply = @sum, unique_indices = true} : (tensor<2x3x4x2xf32>, tensor<2x2x3x2xi64>, tensor<2x2x3x1x2xf32>) -> tensor<2x3x4x2xf32>
func.func @scatter_attr(%x: tensor<2x3x4x2xf32>, %idx: tensor<2x2x3x2xi64>, %upd: tensor<2x2x3x1x2xf32>) -> tensor<2x3x4x2xf32> {
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>, to_apply = @sum, unique_indices = true} : (tensor<2x3x4x2xf32>, tensor<2x2x3x2xi64>, tensor<2x2x3x1x2xf32>) -> tensor<2x3x4x2xf32>
  return %0 : tensor<2x3x4x2xf32>
}

// #hlo.conv and a #hlo.window with every list.
// CHECK-LABEL: func.func @conv_attr(
// CHECK: %{{.*}} = hlo.convolution %{{.*}}, %{{.*}} {dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 1, input_spatial_dims = [2, 3], kernel_input_feature_dim = 1, kernel_output_feature_dim = 0, kernel_spatial_dims = [2, 3], output_batch_dim = 0, output_feature_dim = 1, output_spatial_dims = [2, 3]>, precision_config = [#hlo<precision DEFAULT>, #hlo<precision DEFAULT>], window = #hlo.window<size = [3, 3], stride = [3, 2], pad_low = [1, 0], pad_high = [2, -1], lhs_dilation = [2, 1], rhs_dilation = [1, 2], reversal = [1, 0]>} : (tensor<1x3x9x9xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x2xf32>
func.func @conv_attr(%x: tensor<1x3x9x9xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x6x2xf32> {
  %0 = hlo.convolution %x, %w {window = #hlo.window<size = [3, 3], stride = [3, 2], pad_low = [1, 0], pad_high = [2, -1], lhs_dilation = [2, 1], rhs_dilation = [1, 2], reversal = [1, 0]>, dimension_numbers = #hlo.conv<input_batch_dim = 0, input_feature_dim = 1, input_spatial_dims = [2, 3], kernel_input_feature_dim = 1, kernel_output_feature_dim = 0, kernel_spatial_dims = [2, 3], output_batch_dim = 0, output_feature_dim = 1, output_spatial_dims = [2, 3]>, precision_config = [#hlo<precision DEFAULT>, #hlo<precision DEFAULT>]} : (tensor<1x3x9x9xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x2xf32>
  return %0 : tensor<1x8x6x2xf32>
}

// An empty #hlo.window (rank-0 operand).
// CHECK-LABEL: func.func @window_attr_empty(
// CHECK: %{{.*}} = hlo.reduce_window %{{.*}}, %{{.*}} {to_apply = @sum, window = #hlo.window<>} : (tensor<f32>, tensor<f32>) -> tensor<f32>
func.func @window_attr_empty(%x: tensor<f32>, %init: tensor<f32>) -> tensor<f32> {
  %0 = hlo.reduce_window %x, %init {window = #hlo.window<>, to_apply = @sum} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// #hlo.groups (replica groups and source-target pairs, empty and not) and
// #hlo.iota_groups (with and without transpose).
// CHECK-LABEL: func.func @groups_attr(
// CHECK: %{{.*}} = hlo.all_reduce %{{.*}} {replica_groups = #hlo.groups<{{\[\[}}0, 1, 2], [3]]>, to_apply = @sum} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK: %{{.*}} = hlo.all_reduce %{{.*}} {replica_groups = #hlo.groups<[]>, to_apply = @sum} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK: %{{.*}} = hlo.all_reduce %{{.*}} {replica_groups = #hlo.iota_groups<group_shape = [2, 4], reshape_dims = [4, 2], transpose = [1, 0]>, to_apply = @sum} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK: %{{.*}} = hlo.all_reduce %{{.*}} {replica_groups = #hlo.iota_groups<group_shape = [1, 8], reshape_dims = [8]>, to_apply = @sum} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK: %{{.*}} = hlo.collective_permute %{{.*}} {source_target_pairs = #hlo.groups<{{\[\[}}0, 1], [1, 0]]>} : (tensor<8xf32>) -> tensor<8xf32>
func.func @groups_attr(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = hlo.all_reduce %x {to_apply = @sum, replica_groups = #hlo.groups<[[0, 1, 2], [3]]>} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = hlo.all_reduce %0 {to_apply = @sum, replica_groups = #hlo.groups<[]>} : (tensor<8xf32>) -> tensor<8xf32>
  %2 = hlo.all_reduce %1 {to_apply = @sum, replica_groups = #hlo.iota_groups<group_shape = [2, 4], reshape_dims = [4, 2], transpose = [1, 0]>} : (tensor<8xf32>) -> tensor<8xf32>
  %3 = hlo.all_reduce %2 {to_apply = @sum, replica_groups = #hlo.iota_groups<group_shape = [1, 8], reshape_dims = [8]>} : (tensor<8xf32>) -> tensor<8xf32>
  %4 = hlo.collective_permute %3 {source_target_pairs = #hlo.groups<[[0, 1], [1, 0]]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %4 : tensor<8xf32>
}

// #hlo<transpose ...>.
// CHECK-LABEL: func.func @transpose_attr(
// CHECK: %{{.*}} = hlo.triangular_solve %{{.*}}, %{{.*}} {left_side = true, lower = true, transpose_a = #hlo<transpose TRANSPOSE>, unit_diagonal = false} : (tensor<4x4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
func.func @transpose_attr(%a: tensor<4x4xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = hlo.triangular_solve %a, %b {left_side = true, lower = true, unit_diagonal = false, transpose_a = #hlo<transpose TRANSPOSE>} : (tensor<4x4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// #hlo<api_version ...>, #hlo.layout in operand_layout_constraints and
// #hlo.output_operand_alias.
// CHECK-LABEL: func.func @custom_call_attrs(
// CHECK: %{{.*}} = hlo.custom_call "my_target"(%{{.*}}, %{{.*}}) {api_version = #hlo<api_version API_VERSION_TYPED_FFI>, operand_layout_constraints = [#hlo.layout<minor_to_major = [0, 1]>, #hlo.layout<>], output_to_operand_aliasing = [#hlo.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = [0]>]} : (tensor<4x8xf32>, tuple<tensor<4xf32>, tensor<8xf32>>) -> tuple<tensor<4x8xf32>, tensor<4xf32>>
func.func @custom_call_attrs(%x: tensor<4x8xf32>, %t: tuple<tensor<4xf32>, tensor<8xf32>>) -> tuple<tensor<4x8xf32>, tensor<4xf32>> {
  %0 = hlo.custom_call "my_target"(%x, %t) {api_version = #hlo<api_version API_VERSION_TYPED_FFI>, operand_layout_constraints = [#hlo.layout<minor_to_major = [0, 1]>, #hlo.layout<>], output_to_operand_aliasing = [#hlo.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = [0]>]} : (tensor<4x8xf32>, tuple<tensor<4xf32>, tensor<8xf32>>) -> tuple<tensor<4x8xf32>, tensor<4xf32>>
  return %0 : tuple<tensor<4x8xf32>, tensor<4xf32>>
}

// #hlo.result_accuracy and #hlo<result_accuracy_mode ...>.
// GENERIC-LABEL: sym_name = "result_accuracy_attr"
// GENERIC: "hlo.exponential"(%{{.*}}) <{result_accuracy = #hlo.result_accuracy<mode = TOLERANCE, atol = 1.000000e-05 : f64, rtol = 0.000000e+00 : f64, ulps = 2>}>
// GENERIC: "hlo.log"(%{{.*}}) <{result_accuracy = #hlo.result_accuracy<mode = HIGHEST>}>
// CHECK-LABEL: func.func @result_accuracy_attr(
// CHECK: %{{.*}} = hlo.exponential %{{.*}} {result_accuracy = #hlo.result_accuracy<mode = TOLERANCE, atol = 1.000000e-05 : f64, rtol = 0.000000e+00 : f64, ulps = 2>} : tensor<4xf32>
// CHECK: %{{.*}} = hlo.log %{{.*}} {result_accuracy = #hlo.result_accuracy<mode = HIGHEST>} : tensor<4xf32>
func.func @result_accuracy_attr(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.exponential %x {result_accuracy = #hlo.result_accuracy<mode = #hlo<result_accuracy_mode TOLERANCE>, atol = 1.000000e-05 : f64, rtol = 0.000000e+00 : f64, ulps = 2>} : tensor<4xf32>
  %1 = hlo.log %0 {result_accuracy = #hlo.result_accuracy<mode = #hlo<result_accuracy_mode HIGHEST>>} : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// Enums that custom forms print bare: written here in the generic form,
// checked in full form under GENERIC.
// GENERIC-LABEL: sym_name = "enum_attrs"
// GENERIC: "hlo.compare"(%{{.*}}, %{{.*}}) <{compare_type = #hlo<comparison_type TOTALORDER>, comparison_direction = #hlo<comparison_direction LT>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// GENERIC: "hlo.fft"(%{{.*}}) <{fft_length = array<i64: 16>, fft_type = #hlo<fft_type IFFT>}> : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
// GENERIC: "hlo.rng_bit_generator"(%{{.*}}) <{algorithm = #hlo<rng_algorithm rng_three_fry>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
// GENERIC: "hlo.rng"(%{{.*}}, %{{.*}}) <{distribution = #hlo<rng_distribution rng_normal>}> : (tensor<f32>, tensor<f32>) -> tensor<4xf32>
// GENERIC: "hlo.fusion"(%{{.*}}) <{calls = @fused, kind = #hlo<fusion_kind kLoop>}> : (tensor<4xf32>) -> tensor<4xf32>
// GENERIC: "hlo.shuffle"(%{{.*}}) <{dimensions = array<i64: 0>, mode = #hlo<shuffle_mode rotate>, shifts = array<i64: 1>}> : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: func.func @enum_attrs(
// CHECK: %{{.*}} = hlo.compare LT, %{{.*}}, %{{.*}}, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: %{{.*}} = hlo.fft %{{.*}}, IFFT, length = [16] : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
// CHECK: %{{.*}}, %{{.*}} = hlo.rng_bit_generator rng_three_fry %{{.*}} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
// CHECK: %{{.*}} = hlo.rng rng_normal %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<4xf32>
// CHECK: %{{.*}} = hlo.fusion kLoop @fused(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %{{.*}} = hlo.shuffle %{{.*}}, dims = [0], rotate = [1] : tensor<4xf32>
func.func @enum_attrs(%x: tensor<4xf32>, %c: tensor<16xcomplex<f32>>, %s: tensor<2xui64>, %lo: tensor<f32>) -> tensor<4xi1> {
  %0 = "hlo.compare"(%x, %x) <{comparison_direction = #hlo<comparison_direction LT>, compare_type = #hlo<comparison_type TOTALORDER>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = "hlo.fft"(%c) <{fft_type = #hlo<fft_type IFFT>, fft_length = array<i64: 16>}> : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
  %2:2 = "hlo.rng_bit_generator"(%s) <{algorithm = #hlo<rng_algorithm rng_three_fry>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  %3 = "hlo.rng"(%lo, %lo) <{distribution = #hlo<rng_distribution rng_normal>}> : (tensor<f32>, tensor<f32>) -> tensor<4xf32>
  %4 = "hlo.fusion"(%x) <{kind = #hlo<fusion_kind kLoop>, calls = @fused}> : (tensor<4xf32>) -> tensor<4xf32>
  %5 = "hlo.shuffle"(%x) <{dimensions = array<i64: 0>, mode = #hlo<shuffle_mode rotate>, shifts = array<i64: 1>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xi1>
}

// The discardable hlo.layout: a tiled layout with every field, a tuple of
// layouts (unit for a token element), and hlo.entry on the entry
// computation.
// GENERIC-LABEL: sym_name = "layout_attr"
// GENERIC: "hlo.add"(%{{.*}}, %{{.*}}) {hlo.layout = #hlo.layout<minor_to_major = [1, 0], tiles = [array<i64: 8, 128>, array<i64: 2, 1>], element_size_in_bits = 16, memory_space = 1, extra = "D(4)">} : (tensor<16x256xbf16>, tensor<16x256xbf16>) -> tensor<16x256xbf16>
// GENERIC: "hlo.tuple"(%{{.*}}, %{{.*}}) {hlo.layout = [#hlo.layout<minor_to_major = [0, 1]>, unit]} : (tensor<16x256xbf16>, !hlo.token) -> tuple<tensor<16x256xbf16>, !hlo.token>
// GENERIC: "hlo.negate"(%{{.*}}) {hlo.layout = #hlo.layout<minor_to_major = [0, 1], tiles = [array<i64: -1, 128>]>} : (tensor<16x256xbf16>) -> tensor<16x256xbf16>
// GENERIC: }) {hlo.entry} : () -> ()
// CHECK-LABEL: func.func @layout_attr(
// CHECK-SAME: attributes {hlo.entry}
// CHECK: %{{.*}} = hlo.add %{{.*}}, %{{.*}} {hlo.layout = #hlo.layout<minor_to_major = [1, 0], tiles = [array<i64: 8, 128>, array<i64: 2, 1>], element_size_in_bits = 16, memory_space = 1, extra = "D(4)">} : tensor<16x256xbf16>
// CHECK: %{{.*}} = hlo.tuple %{{.*}}, %{{.*}} {hlo.layout = [#hlo.layout<minor_to_major = [0, 1]>, unit]} : (tensor<16x256xbf16>, !hlo.token) -> tuple<tensor<16x256xbf16>, !hlo.token>
// CHECK: %{{.*}} = hlo.negate %{{.*}} {hlo.layout = #hlo.layout<minor_to_major = [0, 1], tiles = [array<i64: -1, 128>]>} : tensor<16x256xbf16>
func.func @layout_attr(%x: tensor<16x256xbf16>, %tok: !hlo.token) -> tensor<16x256xbf16> attributes {hlo.entry} {
  %0 = hlo.add %x, %x {hlo.layout = #hlo.layout<minor_to_major = [1, 0], tiles = [array<i64: 8, 128>, array<i64: 2, 1>], element_size_in_bits = 16, memory_space = 1, extra = "D(4)">} : tensor<16x256xbf16>
  %1 = hlo.tuple %0, %tok {hlo.layout = [#hlo.layout<minor_to_major = [0, 1]>, unit]} : (tensor<16x256xbf16>, !hlo.token) -> tuple<tensor<16x256xbf16>, !hlo.token>
  %2 = hlo.negate %0 {hlo.layout = #hlo.layout<minor_to_major = [0, 1], tiles = [array<i64: -1, 128>]>} : tensor<16x256xbf16>
  return %2 : tensor<16x256xbf16>
}
