// RUN: hlo-opt %s --split-input-file --passes=reduce-window-rewriter | FileCheck %s
// RUN: hlo-opt %s --split-input-file --passes='reduce-window-rewriter{base-length=64}' | FileCheck %s --check-prefix=BASE64

// A forward inclusive cumulative sum over 40 > 16 elements becomes a tree:
// pad to 48 with the init value, rows of 16, scan each row, scan the row
// totals exclusively, broadcast and combine with a map of the reducer, undo
// the reshape and the padding.
// CHECK-LABEL: func.func @cumsum
// CHECK-NEXT:    %[[Z:.*]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[P:.*]] = hlo.pad %arg0, %[[Z]], low = [0, 0], high = [0, 8], interior = [0, 0] : (tensor<4x40xf32>, tensor<f32>) -> tensor<4x48xf32>
// CHECK-NEXT:    %[[T:.*]] = hlo.reshape %[[P]] : (tensor<4x48xf32>) -> tensor<4x3x16xf32>
// CHECK-NEXT:    %[[ROWS:.*]] = hlo.reduce_window %[[T]], %[[Z]] {to_apply = @sum, window = #hlo.window<size = [1, 1, 16], pad_low = [0, 0, 15]>} : (tensor<4x3x16xf32>, tensor<f32>) -> tensor<4x3x16xf32>
// CHECK-NEXT:    %[[LAST:.*]] = hlo.slice %[[ROWS]], start = [0, 0, 15], limit = [4, 3, 16], strides = [1, 1, 1]
// CHECK-NEXT:    %[[TOT:.*]] = hlo.reshape %[[LAST]] : (tensor<4x3x1xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %[[EX:.*]] = hlo.reduce_window %[[TOT]], %[[Z]] {to_apply = @sum, window = #hlo.window<size = [1, 3], pad_low = [0, 3]>} : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x4xf32>
// CHECK-NEXT:    %[[OFF:.*]] = hlo.slice %[[EX]], start = [0, 0], limit = [4, 3], strides = [1, 1]
// CHECK-NEXT:    %[[OFFB:.*]] = hlo.broadcast %[[OFF]], dims = [0, 1] : (tensor<4x3xf32>) -> tensor<4x3x16xf32>
// CHECK-NEXT:    %[[M:.*]] = hlo.map %[[ROWS]], %[[OFFB]] {dimensions = array<i64: 0, 1, 2>, to_apply = @sum}
// CHECK-NEXT:    %[[FLAT:.*]] = hlo.reshape %[[M]] : (tensor<4x3x16xf32>) -> tensor<4x48xf32>
// CHECK-NEXT:    %[[R:.*]] = hlo.slice %[[FLAT]], start = [0, 0], limit = [4, 40], strides = [1, 1]
// CHECK-NEXT:    return %[[R]]
// With a base length of 64 the scan is short: the rank-2 op stays.
// BASE64-LABEL: func.func @cumsum
// BASE64-NEXT:    hlo.constant
// BASE64-NEXT:    hlo.reduce_window %arg0
// BASE64-NEXT:    return
func.func private @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @cumsum(%x: tensor<4x40xf32>) -> tensor<4x40xf32> {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.reduce_window %x, %z {window = #hlo.window<size = [1, 40], pad_low = [0, 39]>, to_apply = @sum} : (tensor<4x40xf32>, tensor<f32>) -> tensor<4x40xf32>
  return %0 : tensor<4x40xf32>
}

// -----

// A reverse exclusive running maximum along dimension 0 (padded high by the
// full length): the dimension is moved last and back, the row scans pad
// high, the totals are the first column, and one init value is appended.
// CHECK-LABEL: func.func @reverse_exclusive
// CHECK:         hlo.transpose %arg0, dims = [1, 0] : (tensor<32x3xi32>) -> tensor<3x32xi32>
// CHECK:         hlo.reduce_window %{{.*}} {to_apply = @max, window = #hlo.window<size = [1, 1, 16], pad_high = [0, 0, 15]>}
// CHECK-NEXT:    hlo.slice %{{.*}}, start = [0, 0, 0], limit = [3, 2, 1]
// CHECK:         hlo.reduce_window %{{.*}} {to_apply = @max, window = #hlo.window<size = [1, 2], pad_high = [0, 2]>}
// CHECK-NEXT:    hlo.slice %{{.*}}, start = [0, 1], limit = [3, 3]
// CHECK:         hlo.map
// CHECK:         hlo.transpose %{{.*}}, dims = [1, 0] : (tensor<3x32xi32>) -> tensor<32x3xi32>
// CHECK-NEXT:    %[[R:.*]] = hlo.pad %{{.*}}, %{{.*}}, low = [0, 0], high = [1, 0], interior = [0, 0] : (tensor<32x3xi32>, tensor<i32>) -> tensor<33x3xi32>
// CHECK-NEXT:    return %[[R]]
func.func private @max(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %0 = hlo.maximum %b, %a : tensor<i32>
  return %0 : tensor<i32>
}
func.func @reverse_exclusive(%x: tensor<32x3xi32>) -> tensor<33x3xi32> {
  %z = hlo.constant dense<-2147483648> : tensor<i32>
  %0 = hlo.reduce_window %x, %z {window = #hlo.window<size = [32, 1], pad_high = [32, 0]>, to_apply = @max} : (tensor<32x3xi32>, tensor<i32>) -> tensor<33x3xi32>
  return %0 : tensor<33x3xi32>
}

// -----

// Rank 1, not a long scan: computed on [N, 1] with a trivial window
// dimension appended, for each input of a variadic reduce_window.
// CHECK-LABEL: func.func @rank1
// CHECK-NEXT:    %[[X:.*]] = hlo.reshape %arg0 : (tensor<21xf32>) -> tensor<21x1xf32>
// CHECK-NEXT:    %[[I:.*]] = hlo.reshape %arg1 : (tensor<21xi32>) -> tensor<21x1xi32>
// CHECK-NEXT:    %[[W:.*]]:2 = hlo.reduce_window %[[X]], %[[I]], %arg2, %arg3 {to_apply = @argmax, window = #hlo.window<size = [4, 1], stride = [3, 1]>} : (tensor<21x1xf32>, tensor<21x1xi32>, tensor<f32>, tensor<i32>) -> (tensor<6x1xf32>, tensor<6x1xi32>)
// CHECK-NEXT:    %[[A:.*]] = hlo.reshape %[[W]]#0 : (tensor<6x1xf32>) -> tensor<6xf32>
// CHECK-NEXT:    %[[B:.*]] = hlo.reshape %[[W]]#1 : (tensor<6x1xi32>) -> tensor<6xi32>
// CHECK-NEXT:    return %[[A]], %[[B]]
func.func private @argmax(%a: tensor<f32>, %i: tensor<i32>, %b: tensor<f32>, %j: tensor<i32>) -> tuple<tensor<f32>, tensor<i32>> {
  %0 = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %1 = hlo.select %0, %a, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %2 = hlo.select %0, %i, %j : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
  %3 = hlo.tuple %1, %2 : (tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tensor<i32>>
  return %3 : tuple<tensor<f32>, tensor<i32>>
}
func.func @rank1(%x: tensor<21xf32>, %i: tensor<21xi32>, %x0: tensor<f32>, %i0: tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>) {
  %0:2 = hlo.reduce_window %x, %i, %x0, %i0 {window = #hlo.window<size = [4], stride = [3]>, to_apply = @argmax} : (tensor<21xf32>, tensor<21xi32>, tensor<f32>, tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>)
  return %0#0, %0#1 : tensor<6xf32>, tensor<6xi32>
}

// -----

// Not a tree (stays rank 2): an init value that is not the reducer's
// identity (sum from 1), a reducer that is not a single associative op, and
// a window that is not a full-length scan.
// CHECK-LABEL: func.func @not_rewritten
// CHECK-NEXT:    %[[ONE:.*]] = hlo.constant
// CHECK-NEXT:    hlo.reduce_window %arg0, %[[ONE]] {to_apply = @sum1, window = #hlo.window<size = [1, 40], pad_low = [0, 39]>}
// CHECK-NEXT:    hlo.reduce_window %arg0, %{{.*}} {to_apply = @logaddexp, window = #hlo.window<size = [1, 40], pad_low = [0, 39]>}
// CHECK-NEXT:    hlo.reduce_window %arg0, %[[ONE]] {to_apply = @sum1, window = #hlo.window<size = [1, 20]>}
// CHECK-NOT:     hlo.map
func.func private @sum1(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @logaddexp(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.exponential %a : tensor<f32>
  %1 = hlo.exponential %b : tensor<f32>
  %2 = hlo.add %0, %1 : tensor<f32>
  %3 = hlo.log %2 : tensor<f32>
  return %3 : tensor<f32>
}
func.func @not_rewritten(%x: tensor<4x40xf32>) -> (tensor<4x40xf32>, tensor<4x40xf32>, tensor<4x21xf32>) {
  %one = hlo.constant dense<1.0> : tensor<f32>
  %0 = hlo.reduce_window %x, %one {window = #hlo.window<size = [1, 40], pad_low = [0, 39]>, to_apply = @sum1} : (tensor<4x40xf32>, tensor<f32>) -> tensor<4x40xf32>
  %1 = hlo.reduce_window %x, %one {window = #hlo.window<size = [1, 40], pad_low = [0, 39]>, to_apply = @logaddexp} : (tensor<4x40xf32>, tensor<f32>) -> tensor<4x40xf32>
  %2 = hlo.reduce_window %x, %one {window = #hlo.window<size = [1, 20]>, to_apply = @sum1} : (tensor<4x40xf32>, tensor<f32>) -> tensor<4x21xf32>
  return %0, %1, %2 : tensor<4x40xf32>, tensor<4x40xf32>, tensor<4x21xf32>
}

// -----

// A scan longer than 16 * 16 (300 -> 19 rows): the row totals' exclusive
// scan (19 long) is split too, into 2 rows of 16 and a scan of their 2
// totals, as XLA:CPU computes a 1000-element cumsum.
// CHECK-LABEL: func.func @long_cumsum
// CHECK-NOT:     size = [1, 19]
// CHECK:         hlo.reduce_window {{.*}}size = [1, 1, 16]{{.*}} -> tensor<2x19x16xf32>
// CHECK-NOT:     size = [1, 19]
// CHECK:         hlo.reduce_window {{.*}}size = [1, 1, 16]{{.*}} -> tensor<2x2x16xf32>
// CHECK:         hlo.reduce_window {{.*}}size = [1, 2], pad_low = [0, 2]>
// CHECK:         return
func.func private @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @long_cumsum(%x: tensor<2x300xf32>) -> tensor<2x300xf32> {
  %z = hlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = hlo.reduce_window %x, %z {to_apply = @sum, window = #hlo.window<size = [1, 300], pad_low = [0, 299]>} : (tensor<2x300xf32>, tensor<f32>) -> tensor<2x300xf32>
  return %0 : tensor<2x300xf32>
}
