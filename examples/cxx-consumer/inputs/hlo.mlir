// An hlo module (ops and forms from test/Dialect/hlo/ops_*.mlir): the
// entry computation, a computation called by hlo.reduce, a dot with a
// structured attribute. main.cpp and capi.c parse and verify it.

func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

func.func @main(%x: tensor<2x3xf32>, %y: tensor<3x4xf32>) -> tensor<2xf32> attributes {hlo.entry} {
  %xx = hlo.add %x, %x : tensor<2x3xf32>
  %d = hlo.dot %xx, %y {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce %d, %zero {dimensions = array<i64: 1>, to_apply = @sum} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
