// A warp shuffle over a distance that is not a power of two: the xla_gpu
// verifier (XlaGpuDialect.cpp, ShuffleReduceOp::verify) must reject it.

func.func private @add(%a: f32, %b: f32) -> f32 {
  %0 = arith.addf %a, %b : f32
  return %0 : f32
}

func.func @shuffle(%x: f32) -> f32 {
  %sum = xla_gpu.shuffle_reduce(%x) to 3 combiner=@add : f32
  return %sum : f32
}
