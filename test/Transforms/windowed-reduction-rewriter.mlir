// RUN: hlo-opt %s --split-input-file --passes=windowed-reduction-rewriter | FileCheck %s

// A bf16 row sum of 100: XLA:CPU's windows of 32 (padding 28 split 14/14),
// then the last sum over the 4 windows as one reduce-window and a reshape.
// CHECK-LABEL: func.func @row
// CHECK-NEXT:    %[[W:.*]] = hlo.reduce_window %arg0, %arg1 {to_apply = @sum, window = #hlo.window<size = [1, 32], stride = [1, 32], pad_low = [0, 14], pad_high = [0, 14]>} : (tensor<8x100xbf16>, tensor<bf16>) -> tensor<8x4xbf16>
// CHECK-NEXT:    %[[T:.*]] = hlo.reduce_window %[[W]], %arg1 {to_apply = @sum, window = #hlo.window<size = [1, 4]>} : (tensor<8x4xbf16>, tensor<bf16>) -> tensor<8x1xbf16>
// CHECK-NEXT:    %[[R:.*]] = hlo.reshape %[[T]] : (tensor<8x1xbf16>) -> tensor<8xbf16>
// CHECK-NEXT:    return %[[R]]
func.func private @sum(%a: tensor<bf16>, %b: tensor<bf16>) -> tensor<bf16> {
  %0 = hlo.add %a, %b : tensor<bf16>
  return %0 : tensor<bf16>
}
func.func @row(%x: tensor<8x100xbf16>, %z: tensor<bf16>) -> tensor<8xbf16> {
  %0 = hlo.reduce %x, %z {dimensions = array<i64: 1>, to_apply = @sum} : (tensor<8x100xbf16>, tensor<bf16>) -> tensor<8xbf16>
  return %0 : tensor<8xbf16>
}

// -----

// Two reduced dimensions, one longer than 32: both are windowed (the short
// one padded up to 32), twice for 2048; a short f16 reduction is only
// written as one ordered reduce-window.
// CHECK-LABEL: func.func @two_dims
// CHECK-NEXT:    hlo.reduce_window %arg0, %arg1 {to_apply = @hsum, window = #hlo.window<size = [32, 1, 32], stride = [32, 1, 32], pad_low = [12, 0, 0], pad_high = [12, 0, 0]>} : {{.*}} -> tensor<1x16x64xf16>
// CHECK-NEXT:    hlo.reduce_window {{.*}}window = #hlo.window<size = [32, 1, 32], stride = [32, 1, 32], pad_low = [15, 0, 0], pad_high = [16, 0, 0]>} : {{.*}} -> tensor<1x16x2xf16>
// CHECK-NEXT:    hlo.reduce_window {{.*}}window = #hlo.window<size = [1, 1, 2]>} : {{.*}} -> tensor<1x16x1xf16>
// CHECK-NEXT:    hlo.reshape {{.*}} -> tensor<16xf16>
// CHECK-NEXT:    hlo.reduce_window %arg2, %arg1 {to_apply = @hsum, window = #hlo.window<size = [1, 8]>} : {{.*}} -> tensor<4x1xf16>
// CHECK-NEXT:    hlo.reshape {{.*}} -> tensor<4xf16>
func.func private @hsum(%a: tensor<f16>, %b: tensor<f16>) -> tensor<f16> {
  %0 = hlo.add %a, %b : tensor<f16>
  return %0 : tensor<f16>
}
func.func @two_dims(%x: tensor<8x16x2048xf16>, %z: tensor<f16>, %y: tensor<4x8xf16>) -> (tensor<16xf16>, tensor<4xf16>) {
  %0 = hlo.reduce %x, %z {dimensions = array<i64: 0, 2>, to_apply = @hsum} : (tensor<8x16x2048xf16>, tensor<f16>) -> tensor<16xf16>
  %1 = hlo.reduce %y, %z {dimensions = array<i64: 1>, to_apply = @hsum} : (tensor<4x8xf16>, tensor<f16>) -> tensor<4xf16>
  return %0, %1 : tensor<16xf16>, tensor<4xf16>
}

// -----

// Left alone: f32 (the emitters' order), and a bf16 maximum, whose result
// does not depend on the order.
// CHECK-LABEL: func.func @unchanged
// CHECK-NEXT:    hlo.reduce %arg0, %arg1 {{.*}}to_apply = @fsum
// CHECK-NEXT:    hlo.reduce %arg2, %arg3 {{.*}}to_apply = @bmax
// CHECK-NEXT:    return
func.func private @fsum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @bmax(%a: tensor<bf16>, %b: tensor<bf16>) -> tensor<bf16> {
  %0 = hlo.maximum %a, %b : tensor<bf16>
  return %0 : tensor<bf16>
}
func.func @unchanged(%x: tensor<8x100xf32>, %z: tensor<f32>, %y: tensor<8x100xbf16>, %w: tensor<bf16>) -> (tensor<8xf32>, tensor<8xbf16>) {
  %0 = hlo.reduce %x, %z {dimensions = array<i64: 1>, to_apply = @fsum} : (tensor<8x100xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = hlo.reduce %y, %w {dimensions = array<i64: 1>, to_apply = @bmax} : (tensor<8x100xbf16>, tensor<bf16>) -> tensor<8xbf16>
  return %0, %1 : tensor<8xf32>, tensor<8xbf16>
}
