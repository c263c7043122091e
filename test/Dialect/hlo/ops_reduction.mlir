// RUN: hlo-opt %s | FileCheck %s
// RUN: hlo-opt %s | hlo-opt | FileCheck %s
// RUN: hlo-opt %s --mlir-print-op-generic | hlo-opt | FileCheck %s
// RUN: hlo-opt %s > %t.1.mlir && hlo-opt %t.1.mlir > %t.2.mlir && diff %t.1.mlir %t.2.mlir

// Round trip of reduce, reduce_window, select_and_scatter, map, scan, sort,
// topk, gather and scatter.

// Called computations.

// Called computations.
func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

func.func @sum_i32(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %0 = hlo.add %a, %b : tensor<i32>
  return %0 : tensor<i32>
}

func.func @argmax(%acc: tensor<f32>, %acc_i: tensor<i32>, %x: tensor<f32>, %x_i: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  %ge = hlo.compare GE, %acc, %x : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %v = hlo.select %ge, %acc, %x : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %i = hlo.select %ge, %acc_i, %x_i : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
  return %v, %i : tensor<f32>, tensor<i32>
}

func.func @argmax_tuple(%acc: tensor<f32>, %acc_i: tensor<i32>, %x: tensor<f32>, %x_i: tensor<i32>) -> tuple<tensor<f32>, tensor<i32>> {
  %t = hlo.tuple %x, %x_i : (tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tensor<i32>>
  return %t : tuple<tensor<f32>, tensor<i32>>
}

func.func @ge(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}

func.func @lt(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}

func.func @lt_keyed(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>) -> tensor<i1> {
  %0 = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}

func.func @greater(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}

func.func @cumsum(%x: tensor<8xf32>, %c: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = hlo.add %x, %c : tensor<8xf32>
  return %0, %0 : tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @reduce(
// CHECK: %{{.*}} = hlo.reduce %{{.*}}, %{{.*}} {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
func.func @reduce(%x: tensor<4x8xf32>, %init: tensor<f32>) -> tensor<8xf32> {
  %0 = hlo.reduce %x, %init {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func.func @reduce_all(
// CHECK: %{{.*}} = hlo.reduce %{{.*}}, %{{.*}} {dimensions = array<i64: 1, 0>, to_apply = @sum_i32} : (tensor<4x8xi32>, tensor<i32>) -> tensor<i32>
func.func @reduce_all(%x: tensor<4x8xi32>, %init: tensor<i32>) -> tensor<i32> {
  %0 = hlo.reduce %x, %init {dimensions = array<i64: 1, 0>, to_apply = @sum_i32} : (tensor<4x8xi32>, tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// CHECK-LABEL: func.func @reduce_variadic(
// CHECK: %{{.*}} = hlo.reduce %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {dimensions = array<i64: 1>, to_apply = @argmax} : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
// CHECK: %{{.*}} = hlo.reduce %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {dimensions = array<i64: 1>, to_apply = @argmax_tuple} : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
func.func @reduce_variadic(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>, %x0: tensor<f32>, %i0: tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0:2 = hlo.reduce %x, %i, %x0, %i0 {dimensions = array<i64: 1>, to_apply = @argmax} : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  %1:2 = hlo.reduce %x, %i, %x0, %i0 {dimensions = array<i64: 1>, to_apply = @argmax_tuple} : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xi32>
}

// CHECK-LABEL: func.func @reduce_dynamic(
// CHECK: %{{.*}} = hlo.reduce %{{.*}}, %{{.*}} {dimensions = array<i64: 1>, to_apply = @sum} : (tensor<?x8xf32>, tensor<f32>) -> tensor<?xf32>
func.func @reduce_dynamic(%x: tensor<?x8xf32>, %init: tensor<f32>) -> tensor<?xf32> {
  %0 = hlo.reduce %x, %init {dimensions = array<i64: 1>, to_apply = @sum} : (tensor<?x8xf32>, tensor<f32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// CHECK-LABEL: func.func @reduce_window(
// CHECK: %{{.*}} = hlo.reduce_window %{{.*}}, %{{.*}} {to_apply = @sum, window = #hlo.window<size = [2, 3], stride = [2, 3]>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x2xf32>
func.func @reduce_window(%x: tensor<4x6xf32>, %init: tensor<f32>) -> tensor<2x2xf32> {
  %0 = hlo.reduce_window %x, %init {window = #hlo.window<size = [2, 3], stride = [2, 3]>, to_apply = @sum} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// CHECK-LABEL: func.func @reduce_window_full(
// CHECK: %{{.*}} = hlo.reduce_window %{{.*}}, %{{.*}} {to_apply = @sum_i32, window = #hlo.window<size = [2, 1], stride = [4, 1], pad_low = [2, 0], pad_high = [1, 0], lhs_dilation = [2, 1], rhs_dilation = [3, 1], reversal = [0, 0]>} : (tensor<3x2xi32>, tensor<i32>) -> tensor<2x2xi32>
func.func @reduce_window_full(%x: tensor<3x2xi32>, %init: tensor<i32>) -> tensor<2x2xi32> {
  %0 = hlo.reduce_window %x, %init {window = #hlo.window<size = [2, 1], stride = [4, 1], pad_low = [2, 0], pad_high = [1, 0], lhs_dilation = [2, 1], rhs_dilation = [3, 1], reversal = [0, 0]>, to_apply = @sum_i32} : (tensor<3x2xi32>, tensor<i32>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// CHECK-LABEL: func.func @reduce_window_variadic(
// CHECK: %{{.*}} = hlo.reduce_window %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {to_apply = @argmax, window = #hlo.window<size = [2, 1]>} : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<3x6xf32>, tensor<3x6xi32>)
func.func @reduce_window_variadic(%x: tensor<4x6xf32>, %i: tensor<4x6xi32>, %x0: tensor<f32>, %i0: tensor<i32>) -> (tensor<3x6xf32>, tensor<3x6xi32>) {
  %0:2 = hlo.reduce_window %x, %i, %x0, %i0 {window = #hlo.window<size = [2, 1]>, to_apply = @argmax} : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<3x6xf32>, tensor<3x6xi32>)
  return %0#0, %0#1 : tensor<3x6xf32>, tensor<3x6xi32>
}

// CHECK-LABEL: func.func @reduce_window_dynamic(
// CHECK: %{{.*}} = hlo.reduce_window %{{.*}}, %{{.*}} {to_apply = @sum, window = #hlo.window<size = [1, 2], stride = [1, 2]>} : (tensor<?x6xf32>, tensor<f32>) -> tensor<?x3xf32>
func.func @reduce_window_dynamic(%x: tensor<?x6xf32>, %init: tensor<f32>) -> tensor<?x3xf32> {
  %0 = hlo.reduce_window %x, %init {window = #hlo.window<size = [1, 2], stride = [1, 2]>, to_apply = @sum} : (tensor<?x6xf32>, tensor<f32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// CHECK-LABEL: func.func @select_and_scatter(
// CHECK: %{{.*}} = hlo.select_and_scatter %{{.*}}, %{{.*}}, %{{.*}} {scatter = @sum, select = @ge, window = #hlo.window<size = [2, 3], stride = [2, 3]>} : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x6xf32>
func.func @select_and_scatter(%x: tensor<4x6xf32>, %src: tensor<2x2xf32>, %init: tensor<f32>) -> tensor<4x6xf32> {
  %0 = hlo.select_and_scatter %x, %src, %init {window = #hlo.window<size = [2, 3], stride = [2, 3]>, select = @ge, scatter = @sum} : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// CHECK-LABEL: func.func @select_and_scatter_padded(
// CHECK: %{{.*}} = hlo.select_and_scatter %{{.*}}, %{{.*}}, %{{.*}} {scatter = @sum, select = @ge, window = #hlo.window<size = [2, 3], stride = [2, 2], pad_low = [0, 1], pad_high = [0, 1]>} : (tensor<4x5xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x5xf32>
func.func @select_and_scatter_padded(%x: tensor<4x5xf32>, %src: tensor<2x3xf32>, %init: tensor<f32>) -> tensor<4x5xf32> {
  %0 = hlo.select_and_scatter %x, %src, %init {window = #hlo.window<size = [2, 3], stride = [2, 2], pad_low = [0, 1], pad_high = [0, 1]>, select = @ge, scatter = @sum} : (tensor<4x5xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// CHECK-LABEL: func.func @map(
// CHECK: %{{.*}} = hlo.map %{{.*}}, %{{.*}} {dimensions = array<i64: 0, 1>, to_apply = @sum} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @map(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = hlo.map %x, %y {dimensions = array<i64: 0, 1>, to_apply = @sum} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @map_to_pred(
// CHECK: %{{.*}} = hlo.map %{{.*}}, %{{.*}} {dimensions = array<i64: 0>, to_apply = @lt} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
func.func @map_to_pred(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  %0 = hlo.map %x, %y {dimensions = array<i64: 0>, to_apply = @lt} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @map_scalar(
// CHECK: %{{.*}} = hlo.map %{{.*}}, %{{.*}} {dimensions = array<i64>, to_apply = @sum} : (tensor<f32>, tensor<f32>) -> tensor<f32>
func.func @map_scalar(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.map %x, %y {dimensions = array<i64>, to_apply = @sum} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @scan(
// CHECK: %{{.*}} = hlo.scan %{{.*}}, %{{.*}} {num_carries = 1 : i64, scan_dimension = 0 : i64, to_apply = @cumsum} : (tensor<5x8xf32>, tensor<8xf32>) -> (tensor<5x8xf32>, tensor<8xf32>)
func.func @scan(%x: tensor<5x8xf32>, %init: tensor<8xf32>) -> (tensor<5x8xf32>, tensor<8xf32>) {
  %0:2 = hlo.scan %x, %init {num_carries = 1 : i64, scan_dimension = 0 : i64, to_apply = @cumsum} : (tensor<5x8xf32>, tensor<8xf32>) -> (tensor<5x8xf32>, tensor<8xf32>)
  return %0#0, %0#1 : tensor<5x8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @scan_reverse(
// CHECK: %{{.*}} = hlo.scan %{{.*}}, %{{.*}} {is_associative = true, is_reverse = true, num_carries = 1 : i64, scan_dimension = 1 : i64, to_apply = @cumsum} : (tensor<8x5xf32>, tensor<8xf32>) -> (tensor<8x5xf32>, tensor<8xf32>)
func.func @scan_reverse(%x: tensor<8x5xf32>, %init: tensor<8xf32>) -> (tensor<8x5xf32>, tensor<8xf32>) {
  %0:2 = hlo.scan %x, %init {num_carries = 1 : i64, scan_dimension = 1 : i64, to_apply = @cumsum, is_reverse = true, is_associative = true} : (tensor<8x5xf32>, tensor<8xf32>) -> (tensor<8x5xf32>, tensor<8xf32>)
  return %0#0, %0#1 : tensor<8x5xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @sort(
// CHECK: %{{.*}} = hlo.sort %{{.*}} {dimension = 1 : i64, to_apply = @lt} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @sort(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = hlo.sort %x {dimension = 1 : i64, to_apply = @lt} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @sort_keyed(
// CHECK: %{{.*}} = hlo.sort %{{.*}}, %{{.*}} {dimension = 0 : i64, is_stable = true, to_apply = @lt_keyed} : (tensor<16xf32>, tensor<16xi32>) -> (tensor<16xf32>, tensor<16xi32>)
func.func @sort_keyed(%k: tensor<16xf32>, %v: tensor<16xi32>) -> (tensor<16xf32>, tensor<16xi32>) {
  %0:2 = hlo.sort %k, %v {dimension = 0 : i64, is_stable = true, to_apply = @lt_keyed} : (tensor<16xf32>, tensor<16xi32>) -> (tensor<16xf32>, tensor<16xi32>)
  return %0#0, %0#1 : tensor<16xf32>, tensor<16xi32>
}

// CHECK-LABEL: func.func @topk(
// CHECK: %{{.*}}, %{{.*}} = hlo.topk %{{.*}} {k = 3 : i64} : (tensor<4x16xf32>) -> (tensor<4x3xf32>, tensor<4x3xi32>)
// CHECK: %{{.*}}, %{{.*}} = hlo.topk %{{.*}} {k = 3 : i64, largest = false} : (tensor<4x16xf32>) -> (tensor<4x3xf32>, tensor<4x3xi32>)
func.func @topk(%x: tensor<4x16xf32>) -> (tensor<4x3xf32>, tensor<4x3xi32>) {
  %0:2 = hlo.topk %x {k = 3 : i64} : (tensor<4x16xf32>) -> (tensor<4x3xf32>, tensor<4x3xi32>)
  %1:2 = hlo.topk %x {k = 3 : i64, largest = false} : (tensor<4x16xf32>) -> (tensor<4x3xf32>, tensor<4x3xi32>)
  return %0#0, %0#1 : tensor<4x3xf32>, tensor<4x3xi32>
}

// CHECK-LABEL: func.func @topk_dynamic(
// CHECK: %{{.*}}, %{{.*}} = hlo.topk %{{.*}} {k = 2 : i64} : (tensor<?x16xbf16>) -> (tensor<?x2xbf16>, tensor<?x2xi32>)
func.func @topk_dynamic(%x: tensor<?x16xbf16>) -> (tensor<?x2xbf16>, tensor<?x2xi32>) {
  %0:2 = hlo.topk %x {k = 2 : i64} : (tensor<?x16xbf16>) -> (tensor<?x2xbf16>, tensor<?x2xi32>)
  return %0#0, %0#1 : tensor<?x2xbf16>, tensor<?x2xi32>
}

// CHECK-LABEL: func.func @gather(
// CHECK: %{{.*}} = hlo.gather %{{.*}}, %{{.*}} {dimension_numbers = #hlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 8, 6>} : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x6xf32>
func.func @gather(%x: tensor<16x11xf32>, %idx: tensor<5x2xi32>) -> tensor<5x8x6xf32> {
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 8, 6>} : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x6xf32>
  return %0 : tensor<5x8x6xf32>
}

// CHECK-LABEL: func.func @gather_rows(
// CHECK: %{{.*}} = hlo.gather %{{.*}}, %{{.*}} {dimension_numbers = #hlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = true, slice_sizes = array<i64: 1, 4>} : (tensor<3x4xf32>, tensor<2x5xi64>) -> tensor<2x5x4xf32>
func.func @gather_rows(%x: tensor<3x4xf32>, %idx: tensor<2x5xi64>) -> tensor<2x5x4xf32> {
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 4>, indices_are_sorted = true} : (tensor<3x4xf32>, tensor<2x5xi64>) -> tensor<2x5x4xf32>
  return %0 : tensor<2x5x4xf32>
}

// CHECK-LABEL: func.func @gather_batching(
// CHECK: %{{.*}} = hlo.gather %{{.*}}, %{{.*}} {dimension_numbers = #hlo.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} : (tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32>
func.func @gather_batching(%x: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32> {
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} : (tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32>
  return %0 : tensor<2x2x3x2x2xi32>
}

// CHECK-LABEL: func.func @gather_dynamic(
// CHECK: %{{.*}} = hlo.gather %{{.*}}, %{{.*}} {dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 11>} : (tensor<16x11xf32>, tensor<?x1xi32>) -> tensor<?x11xf32>
func.func @gather_dynamic(%x: tensor<16x11xf32>, %idx: tensor<?x1xi32>) -> tensor<?x11xf32> {
  %0 = hlo.gather %x, %idx {dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 11>} : (tensor<16x11xf32>, tensor<?x1xi32>) -> tensor<?x11xf32>
  return %0 : tensor<?x11xf32>
}

// CHECK-LABEL: func.func @scatter(
// CHECK: %{{.*}} = hlo.scatter %{{.*}}, %{{.*}}, %{{.*}} {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @sum} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
func.func @scatter(%x: tensor<3x4xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x4xf32>) -> tensor<3x4xf32> {
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @sum} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @scatter_variadic(
// CHECK: %{{.*}} = hlo.scatter %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = true, to_apply = @argmax, unique_indices = true} : (tensor<3x4xf32>, tensor<3x4xi32>, tensor<2xi32>, tensor<2x4xf32>, tensor<2x4xi32>) -> (tensor<3x4xf32>, tensor<3x4xi32>)
func.func @scatter_variadic(%x: tensor<3x4xf32>, %i: tensor<3x4xi32>, %idx: tensor<2xi32>, %ux: tensor<2x4xf32>, %ui: tensor<2x4xi32>) -> (tensor<3x4xf32>, tensor<3x4xi32>) {
  %0:2 = hlo.scatter %x, %i, %idx, %ux, %ui {dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, to_apply = @argmax, indices_are_sorted = true, unique_indices = true} : (tensor<3x4xf32>, tensor<3x4xi32>, tensor<2xi32>, tensor<2x4xf32>, tensor<2x4xi32>) -> (tensor<3x4xf32>, tensor<3x4xi32>)
  return %0#0, %0#1 : tensor<3x4xf32>, tensor<3x4xi32>
}

// CHECK-LABEL: func.func @scatter_batching(
// CHECK: %{{.*}} = hlo.scatter %{{.*}}, %{{.*}}, %{{.*}} {dimension_numbers = #hlo.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>, to_apply = @sum_i32} : (tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>, tensor<2x2x3x1x2xi32>) -> tensor<2x3x4x2xi32>
func.func @scatter_batching(%x: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>, %upd: tensor<2x2x3x1x2xi32>) -> tensor<2x3x4x2xi32> {
  %0 = hlo.scatter %x, %idx, %upd {dimension_numbers = #hlo.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>, to_apply = @sum_i32} : (tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>, tensor<2x2x3x1x2xi32>) -> tensor<2x3x4x2xi32>
  return %0 : tensor<2x3x4x2xi32>
}

