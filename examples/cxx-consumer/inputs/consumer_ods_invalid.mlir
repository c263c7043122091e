// consumer.scale on an integer tensor: the Hlo_FloatTensor constraint that
// ConsumerOps.td borrows from rxla's HloBase.td must reject it.

func.func @main(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = consumer.scale %x by 2.000000e+00 : tensor<4xi32>
  return %0 : tensor<4xi32>
}
