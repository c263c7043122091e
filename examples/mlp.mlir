// A two-layer MLP (dot, bias broadcast, ReLU, dot, bias, softmax) as the
// hlo dialect represents the HLO that jax.jit produces for it. It also
// carries what the HLO passes clean up: a tuple taken apart right away, a
// dead instruction and a computation nothing calls.
//
//   hlo-opt examples/mlp.mlir --passes=tuple-simplifier,dce,cse

func.func @max_f32(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.maximum %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

func.func @add_f32(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

func.func @unused_computation(%a: tensor<f32>) -> tensor<f32> {
  %0 = hlo.negate %a : tensor<f32>
  return %0 : tensor<f32>
}

func.func @main(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32>, %b1: tensor<32xf32>,
                %w2: tensor<32x4xf32>, %b2: tensor<4xf32>) -> tensor<8x4xf32>
    attributes {hlo.entry} {
  // Layer 1: relu(x @ w1 + b1)
  %h = hlo.dot %x, %w1 {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>}
      : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %b1b = hlo.broadcast %b1, dims = [1] : (tensor<32xf32>) -> tensor<8x32xf32>
  %h1 = hlo.add %h, %b1b : tensor<8x32xf32>
  %zero = hlo.constant dense<0.000000e+00> : tensor<f32>
  %zeros = hlo.broadcast %zero, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
  %relu = hlo.maximum %h1, %zeros : tensor<8x32xf32>
  %dead = hlo.exponential %h1 : tensor<8x32xf32>

  // The layer's output goes through a tuple, as XLA's call lowering leaves it.
  %t = hlo.tuple %relu, %h1 : (tensor<8x32xf32>, tensor<8x32xf32>) -> tuple<tensor<8x32xf32>, tensor<8x32xf32>>
  %act = hlo.get_tuple_element %t[0] : (tuple<tensor<8x32xf32>, tensor<8x32xf32>>) -> tensor<8x32xf32>

  // Layer 2: act @ w2 + b2
  %o = hlo.dot %act, %w2 {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>}
      : (tensor<8x32xf32>, tensor<32x4xf32>) -> tensor<8x4xf32>
  %b2b = hlo.broadcast %b2, dims = [1] : (tensor<4xf32>) -> tensor<8x4xf32>
  %logits = hlo.add %o, %b2b : tensor<8x4xf32>

  // Softmax over the last dimension.
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %max = hlo.reduce %logits, %ninf {dimensions = array<i64: 1>, to_apply = @max_f32}
      : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32>
  %maxb = hlo.broadcast %max, dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
  %shifted = hlo.subtract %logits, %maxb : tensor<8x4xf32>
  %e = hlo.exponential %shifted : tensor<8x4xf32>
  %zero2 = hlo.constant dense<0.000000e+00> : tensor<f32>
  %sum = hlo.reduce %e, %zero2 {dimensions = array<i64: 1>, to_apply = @add_f32}
      : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32>
  %sumb = hlo.broadcast %sum, dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
  %probs = hlo.divide %e, %sumb : tensor<8x4xf32>
  return %probs : tensor<8x4xf32>
}
