// RUN: hlo-opt %s --split-input-file --passes=batchnorm_expander | FileCheck %s
// RUN: hlo-opt %s --split-input-file --passes='batchnorm_expander{rewrite-training-op=false rewrite-grad-op=false}' | FileCheck %s --check-prefix=ONLYINF

// inference: s = scale * rsqrt(var + eps), t = offset - mean * s,
// y = x * broadcast(s) + broadcast(t). No reduction, no reducer.
// CHECK-LABEL: func.func @inference
// CHECK-NEXT:    %[[C:.*]] = hlo.constant dense<1.000000e-03> : tensor<f32>
// CHECK-NEXT:    %[[EPS:.*]] = hlo.broadcast %[[C]], dims = [] : (tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[VE:.*]] = hlo.add %arg4, %[[EPS]] : tensor<3xf32>
// CHECK-NEXT:    %[[R:.*]] = hlo.rsqrt %[[VE]] : tensor<3xf32>
// CHECK-NEXT:    %[[S:.*]] = hlo.multiply %arg1, %[[R]] : tensor<3xf32>
// CHECK-NEXT:    %[[MS:.*]] = hlo.multiply %arg3, %[[S]] : tensor<3xf32>
// CHECK-NEXT:    %[[T:.*]] = hlo.subtract %arg2, %[[MS]] : tensor<3xf32>
// CHECK-NEXT:    %[[SB:.*]] = hlo.broadcast %[[S]], dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[XS:.*]] = hlo.multiply %arg0, %[[SB]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[TB:.*]] = hlo.broadcast %[[T]], dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[Y:.*]] = hlo.add %[[XS]], %[[TB]] : tensor<2x3xf32>
// CHECK-NEXT:    return %[[Y]]
// CHECK-NOT:     reducer
// ONLYINF-LABEL: func.func @inference
// ONLYINF-NOT:     hlo.batch_norm_inference
func.func @inference(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.batch_norm_inference %x, %s, %o, %m, %v {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// training: mean = sum(x) / N, var = sum(x * x) / N - mean * mean,
// y = (x - mean) * rsqrt(var + eps) * scale + offset; epsilon is converted
// to bf16, N (4 * 5 elements per feature) is an s32 converted to bf16, and
// the sums use a scalar add computation over dims 0 and 2.
// CHECK-LABEL: func.func @training
// CHECK-NEXT:    %[[ZERO:.*]] = hlo.constant dense<0.000000e+00> : tensor<bf16>
// CHECK-NEXT:    %[[E:.*]] = hlo.constant dense<9.994500e-04> : tensor<bf16>
// CHECK-NEXT:    %[[EPS:.*]] = hlo.broadcast %[[E]], dims = [] : (tensor<bf16>) -> tensor<4x2x5xbf16>
// CHECK-NEXT:    %[[N32:.*]] = hlo.constant dense<20> : tensor<i32>
// CHECK-NEXT:    %[[N:.*]] = hlo.convert %[[N32]] : (tensor<i32>) -> tensor<bf16>
// CHECK-NEXT:    %[[SC:.*]] = hlo.broadcast %arg1, dims = [1]
// CHECK-NEXT:    %[[OF:.*]] = hlo.broadcast %arg2, dims = [1]
// CHECK-NEXT:    %[[SQ:.*]] = hlo.multiply %arg0, %arg0
// CHECK-NEXT:    %[[SUM:.*]] = hlo.reduce %arg0, %[[ZERO]] {dimensions = array<i64: 0, 2>, to_apply = @add_bf16_reducer}
// CHECK-NEXT:    %[[SUMSQ:.*]] = hlo.reduce %[[SQ]], %[[ZERO]] {dimensions = array<i64: 0, 2>, to_apply = @add_bf16_reducer}
// CHECK-NEXT:    %[[NB:.*]] = hlo.broadcast %[[N]], dims = [] : (tensor<bf16>) -> tensor<2xbf16>
// CHECK-NEXT:    %[[MEAN:.*]] = hlo.divide %[[SUM]], %[[NB]]
// CHECK-NEXT:    %[[MEANB:.*]] = hlo.broadcast %[[MEAN]], dims = [1]
// CHECK-NEXT:    %[[NB2:.*]] = hlo.broadcast %[[N]], dims = []
// CHECK-NEXT:    %[[SQMEAN:.*]] = hlo.divide %[[SUMSQ]], %[[NB2]]
// CHECK-NEXT:    %[[MEANSQ:.*]] = hlo.multiply %[[MEAN]], %[[MEAN]]
// CHECK-NEXT:    %[[VAR:.*]] = hlo.subtract %[[SQMEAN]], %[[MEANSQ]]
// CHECK-NEXT:    %[[VARB:.*]] = hlo.broadcast %[[VAR]], dims = [1]
// CHECK-NEXT:    %[[VE:.*]] = hlo.add %[[VARB]], %[[EPS]]
// CHECK-NEXT:    %[[RS:.*]] = hlo.rsqrt %[[VE]]
// CHECK-NEXT:    %[[XM:.*]] = hlo.subtract %arg0, %[[MEANB]]
// CHECK-NEXT:    %[[NORM:.*]] = hlo.multiply %[[XM]], %[[RS]]
// CHECK-NEXT:    %[[SCALED:.*]] = hlo.multiply %[[NORM]], %[[SC]]
// CHECK-NEXT:    %[[Y:.*]] = hlo.add %[[SCALED]], %[[OF]]
// CHECK-NEXT:    return %[[Y]], %[[MEAN]], %[[VAR]]
// CHECK-LABEL: func.func private @add_bf16_reducer
// CHECK-NEXT:    hlo.add %arg0, %arg1 : tensor<bf16>
// ONLYINF-LABEL: func.func @training
// ONLYINF-NEXT:    hlo.batch_norm_training
func.func @training(%x: tensor<4x2x5xbf16>, %s: tensor<2xbf16>, %o: tensor<2xbf16>) -> (tensor<4x2x5xbf16>, tensor<2xbf16>, tensor<2xbf16>) {
  %0:3 = hlo.batch_norm_training %x, %s, %o {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<4x2x5xbf16>, tensor<2xbf16>, tensor<2xbf16>) -> (tensor<4x2x5xbf16>, tensor<2xbf16>, tensor<2xbf16>)
  return %0#0, %0#1, %0#2 : tensor<4x2x5xbf16>, tensor<2xbf16>, tensor<2xbf16>
}

// -----

// grad: grad_offset = sum(dy), grad_scale = sum(dy * (x - mean)) * rsqrt(var + eps),
// grad_x = scale * rsqrt(var + eps) / N * (dy * N - grad_offset - (x - mean) * sum(dy * (x - mean)) / (var + eps)).
// CHECK-LABEL: func.func @grad
// CHECK-NEXT:    %[[N32:.*]] = hlo.constant dense<8> : tensor<i32>
// CHECK-NEXT:    %[[N:.*]] = hlo.convert %[[N32]]
// CHECK-NEXT:    %[[ZERO:.*]] = hlo.constant dense<0.000000e+00>
// CHECK-NEXT:    %[[E:.*]] = hlo.constant dense<1.000000e-03>
// CHECK-NEXT:    %[[EX:.*]] = hlo.broadcast %[[E]], dims = [] : (tensor<f32>) -> tensor<8x3xf32>
// CHECK-NEXT:    %[[EF:.*]] = hlo.broadcast %[[E]], dims = [] : (tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[SB:.*]] = hlo.broadcast %arg1, dims = [1]
// CHECK-NEXT:    %[[VB:.*]] = hlo.broadcast %arg3, dims = [1]
// CHECK-NEXT:    %[[MB:.*]] = hlo.broadcast %arg2, dims = [1]
// CHECK-NEXT:    %[[VEB:.*]] = hlo.add %[[VB]], %[[EX]]
// CHECK-NEXT:    %[[RSB:.*]] = hlo.rsqrt %[[VEB]]
// CHECK-NEXT:    %[[VE:.*]] = hlo.add %arg3, %[[EF]]
// CHECK-NEXT:    %[[RS:.*]] = hlo.rsqrt %[[VE]]
// CHECK-NEXT:    %[[XM:.*]] = hlo.subtract %arg0, %[[MB]]
// CHECK-NEXT:    %[[DXM:.*]] = hlo.multiply %arg4, %[[XM]]
// CHECK-NEXT:    %[[SDXM:.*]] = hlo.reduce %[[DXM]], %[[ZERO]] {dimensions = array<i64: 0>, to_apply = @add_f32_reducer}
// CHECK-NEXT:    %[[GB:.*]] = hlo.reduce %arg4, %[[ZERO]] {dimensions = array<i64: 0>, to_apply = @add_f32_reducer}
// CHECK-NEXT:    %[[GS:.*]] = hlo.multiply %[[SDXM]], %[[RS]]
// CHECK:         return %{{.*}}, %[[GS]], %[[GB]]
func.func @grad(%x: tensor<8x3xf32>, %s: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>, %dy: tensor<8x3xf32>) -> (tensor<8x3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0:3 = hlo.batch_norm_grad %x, %s, %m, %v, %dy {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<8x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<8x3xf32>) -> (tensor<8x3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0, %0#1, %0#2 : tensor<8x3xf32>, tensor<3xf32>, tensor<3xf32>
}
