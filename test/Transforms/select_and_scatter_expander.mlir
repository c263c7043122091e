// RUN: hlo-opt %s --split-input-file --passes=select_and_scatter_expander | FileCheck %s

// One s32 iota per dimension rides along in a variadic reduce_window whose
// computation keeps the current pick (value and indices) while
// select(pick, candidate) holds, starting from the init value with index -1;
// the picked indices become index vectors for a scatter of the source into
// broadcast(init) with the scatter computation.
// CHECK-LABEL: func.func @select_and_scatter
// CHECK-NEXT:    %[[I0:.*]] = hlo.iota dim = 0 : tensor<4x6xi32>
// CHECK-NEXT:    %[[I1:.*]] = hlo.iota dim = 1 : tensor<4x6xi32>
// CHECK-NEXT:    %[[NEG:.*]] = hlo.constant dense<-1> : tensor<i32>
// CHECK-NEXT:    %[[RW:.*]]:3 = hlo.reduce_window %arg0, %[[I0]], %[[I1]], %arg2, %[[NEG]], %[[NEG]] {to_apply = @ge.reduce_window, window = #hlo.window<size = [2, 3], stride = [2, 3]>} : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>, tensor<i32>) -> (tensor<2x2xf32>, tensor<2x2xi32>, tensor<2x2xi32>)
// CHECK-NEXT:    %[[A:.*]] = hlo.reshape %[[RW]]#1 : (tensor<2x2xi32>) -> tensor<2x2x1xi32>
// CHECK-NEXT:    %[[B:.*]] = hlo.reshape %[[RW]]#2 : (tensor<2x2xi32>) -> tensor<2x2x1xi32>
// CHECK-NEXT:    %[[IDX:.*]] = hlo.concatenate(%[[A]], %[[B]]), dim = 2 : (tensor<2x2x1xi32>, tensor<2x2x1xi32>) -> tensor<2x2x2xi32>
// CHECK-NEXT:    %[[INIT:.*]] = hlo.broadcast %arg2, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
// CHECK-NEXT:    %[[S:.*]] = hlo.scatter %[[INIT]], %[[IDX]], %arg1 {dimension_numbers = #hlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 2>, to_apply = @sum} : (tensor<4x6xf32>, tensor<2x2x2xi32>, tensor<2x2xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    return %[[S]]
// CHECK-LABEL: func.func private @ge.reduce_window(%arg0: tensor<f32>, %arg1: tensor<i32>, %arg2: tensor<i32>, %arg3: tensor<f32>, %arg4: tensor<i32>, %arg5: tensor<i32>) -> tuple<tensor<f32>, tensor<i32>, tensor<i32>>
// CHECK-NEXT:    %[[N:.*]] = hlo.constant dense<-1> : tensor<i32>
// CHECK-NEXT:    %[[LF:.*]] = hlo.compare NE, %arg1, %[[N]]
// CHECK-NEXT:    %[[RF:.*]] = hlo.compare NE, %arg4, %[[N]]
// CHECK-NEXT:    %[[RNF:.*]] = hlo.not %[[RF]]
// CHECK-NEXT:    %[[SEL:.*]] = hlo.compare GE, %arg0, %arg3
// CHECK-NEXT:    %[[K1:.*]] = hlo.and %[[SEL]], %[[LF]]
// CHECK-NEXT:    %[[K:.*]] = hlo.or %[[K1]], %[[RNF]]
// CHECK-NEXT:    %[[V:.*]] = hlo.select %[[K]], %arg0, %arg3
// CHECK-NEXT:    %[[X:.*]] = hlo.select %[[K]], %arg1, %arg4
// CHECK-NEXT:    %[[Y:.*]] = hlo.select %[[K]], %arg2, %arg5
// CHECK-NEXT:    %[[T:.*]] = hlo.tuple %[[V]], %[[X]], %[[Y]]
// CHECK-NEXT:    return %[[T]]
func.func private @ge(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func private @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @select_and_scatter(%x: tensor<4x6xf32>, %src: tensor<2x2xf32>, %init: tensor<f32>) -> tensor<4x6xf32> {
  %0 = hlo.select_and_scatter %x, %src, %init {window = #hlo.window<size = [2, 3], stride = [2, 3]>, select = @ge, scatter = @sum} : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// Padding stays in the reduce_window's window; a multi-op select computation
// is inlined whole; the layout moves to the scatter.
// CHECK-LABEL: func.func @padded
// CHECK:         hlo.reduce_window {{.*}}window = #hlo.window<size = [3], stride = [2], pad_low = [1], pad_high = [1]>} : (tensor<7xi32>, tensor<7xi32>, tensor<i32>, tensor<i32>) -> (tensor<4xi32>, tensor<4xi32>)
// CHECK:         hlo.scatter {{.*}} {dimension_numbers = #hlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, hlo.layout = #hlo.layout<minor_to_major = [0]>, to_apply = @mul}
// CHECK-NOT:     hlo.select_and_scatter
// CHECK-LABEL: func.func private @abs_le.reduce_window(
// CHECK:         %[[A:.*]] = hlo.abs %arg0
// CHECK-NEXT:    %[[B:.*]] = hlo.abs %arg2
// CHECK-NEXT:    hlo.compare LE, %[[A]], %[[B]]
func.func private @abs_le(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i1> {
  %0 = hlo.abs %a : (tensor<i32>) -> tensor<i32>
  %1 = hlo.abs %b : (tensor<i32>) -> tensor<i32>
  %2 = hlo.compare LE, %0, %1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %2 : tensor<i1>
}
func.func private @mul(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %0 = hlo.multiply %a, %b : tensor<i32>
  return %0 : tensor<i32>
}
func.func @padded(%x: tensor<7xi32>, %src: tensor<4xi32>, %init: tensor<i32>) -> tensor<7xi32> {
  %0 = hlo.select_and_scatter %x, %src, %init {window = #hlo.window<size = [3], stride = [2], pad_low = [1], pad_high = [1]>, select = @abs_le, scatter = @mul, hlo.layout = #hlo.layout<minor_to_major = [0]>} : (tensor<7xi32>, tensor<4xi32>, tensor<i32>) -> tensor<7xi32>
  return %0 : tensor<7xi32>
}
