// RUN: not hlo-opt %s --split-input-file --passes='xla-lower-tensors{target=gpu}' 2>&1 | FileCheck %s -DFILE=%s
// RUN: not hlo-opt %s --passes='xla-lower-tensors{target=tpu}' 2>&1 | FileCheck %s --check-prefix=OPT

// What the GPU flavour of xla-lower-tensors rejects, at the op.
// CHECK: [[FILE]]:[[@LINE+2]]:9: error: `xla.workgroup_id` (a CPU kernel) has no GPU lowering
func.func @cpu_kernel(%out: tensor<4xf32>) -> tensor<4xf32> attributes {xla.entry} {
  %wg = xla.workgroup_id x {xla.range = [0 : index, 3 : index]}
  %c = arith.constant 1.0 : f32
  %r = tensor.insert %c into %out[%wg] : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// CHECK: [[FILE]]:[[@LINE+6]]:8: error: `xla_gpu.shuffle_reduce` is lowered by xla-lower-shuffles, which must run first
func.func private @add(%a: f32, %b: f32) -> f32 {
  %s = arith.addf %a, %b : f32
  return %s : f32
}
func.func @warp(%x: f32) -> f32 {
  %r = xla_gpu.shuffle_reduce(%x) to 16 combiner=@add : f32
  return %r : f32
}

// OPT: pass 'xla-lower-tensors': target must be cpu or gpu, got 'tpu'
