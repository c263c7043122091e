// The example's own dialect (ods/ConsumerOps.td, built on rxla's installed
// ODS) next to hlo ops: consumer.scale accepts hlo's floating-point tensors.

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.add %x, %x : tensor<4xf32>
  %1 = consumer.scale %0 by 5.000000e-01 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
