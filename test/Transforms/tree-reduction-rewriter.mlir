// RUN: hlo-opt %s --split-input-file --passes=tree-reduction-rewriter | FileCheck %s
// RUN: hlo-opt %s --split-input-file --passes='tree-reduction-rewriter{min-row-length=1000000}' | FileCheck %s --check-prefix=LONG
// RUN: not hlo-opt %s --split-input-file --passes='tree-reduction-rewriter{max-rows=0}' 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: hlo-opt: error: tree-reduction-rewriter: min-row-length must be at least 4 and max-rows at least 1 (got 32768, 0)

func.func @sum(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}

// A full sum of 65536 elements: 256 chunks of 256 (the power of two
// nearest sqrt(65536)), reduced chunk by chunk, then the 256 partial sums.
// CHECK-LABEL: func.func @full
// CHECK-NEXT:    %[[Z:.*]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[S:.*]] = hlo.reshape %arg0 : (tensor<65536xf32>) -> tensor<256x256xf32>
// CHECK-NEXT:    %[[P:.*]] = hlo.reduce %[[S]], %[[Z]] {dimensions = array<i64: 1>, to_apply = @sum} : (tensor<256x256xf32>, tensor<f32>) -> tensor<256xf32>
// CHECK-NEXT:    %[[T:.*]] = hlo.reduce %[[P]], %[[Z]] {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<256xf32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    return %[[T]]
// With min-row-length=1000000 the row is short enough to stay one reduce.
// LONG-LABEL: func.func @full
// LONG-NEXT:    hlo.constant
// LONG-NEXT:    hlo.reduce %arg0, %{{.*}} {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<65536xf32>, tensor<f32>) -> tensor<f32>
// LONG-NEXT:    return
func.func @full(%a: tensor<65536xf32>) -> tensor<f32> {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.reduce %a, %z {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<65536xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @max(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.maximum %x, %y : tensor<f32>
  return %0 : tensor<f32>
}

// Three rows of 40000: chunks of 256 (sqrt 200: 256 is nearer than 128),
// the rows padded with the init value to 157 * 256 = 40192. A maximum is
// idempotent, so any init value may be applied once per chunk.
// CHECK-LABEL: func.func @rows
// CHECK-NEXT:    %[[Z:.*]] = hlo.constant dense<5.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[PAD:.*]] = hlo.pad %arg0, %[[Z]], low = [0, 0], high = [0, 192], interior = [0, 0] : (tensor<3x40000xf32>, tensor<f32>) -> tensor<3x40192xf32>
// CHECK-NEXT:    %[[S:.*]] = hlo.reshape %[[PAD]] : (tensor<3x40192xf32>) -> tensor<3x157x256xf32>
// CHECK-NEXT:    %[[P:.*]] = hlo.reduce %[[S]], %[[Z]] {dimensions = array<i64: 2>, to_apply = @max} : (tensor<3x157x256xf32>, tensor<f32>) -> tensor<3x157xf32>
// CHECK-NEXT:    %[[T:.*]] = hlo.reduce %[[P]], %[[Z]] {dimensions = array<i64: 1>, to_apply = @max} : (tensor<3x157xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:    return %[[T]]
func.func @rows(%a: tensor<3x40000xf32>) -> tensor<3xf32> {
  %z = hlo.constant dense<5.0> : tensor<f32>
  %0 = hlo.reduce %a, %z {dimensions = array<i64: 1>, to_apply = @max} : (tensor<3x40000xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @sum(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}

// Left alone: a sum whose init value (1) is not its identity (splitting
// would add it once per chunk), a sum with an init value that is not a
// constant, a column reduction (run reduction-dimension-grouper and
// layout normalization first: only the minor dimension is split), and
// 100 rows, enough for the emitters to spread (max-rows is 64).
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     hlo.reshape
// CHECK-NOT:     hlo.pad
// CHECK:         return
func.func @kept(%a: tensor<65536xf32>, %init: tensor<f32>, %c: tensor<65536x4xf32>, %r: tensor<100x65536xf32>) -> (tensor<f32>, tensor<f32>, tensor<4xf32>, tensor<100xf32>) {
  %one = hlo.constant dense<1.0> : tensor<f32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.reduce %a, %one {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<65536xf32>, tensor<f32>) -> tensor<f32>
  %1 = hlo.reduce %a, %init {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<65536xf32>, tensor<f32>) -> tensor<f32>
  %2 = hlo.reduce %c, %zero {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<65536x4xf32>, tensor<f32>) -> tensor<4xf32>
  %3 = hlo.reduce %r, %zero {dimensions = array<i64: 1>, to_apply = @sum} : (tensor<100x65536xf32>, tensor<f32>) -> tensor<100xf32>
  return %0, %1, %2, %3 : tensor<f32>, tensor<f32>, tensor<4xf32>, tensor<100xf32>
}
