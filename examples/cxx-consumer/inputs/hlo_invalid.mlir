// Well-formed syntax, but the shapes do not match: the contracting
// dimensions have sizes 3 and 4. The hlo verifier (lib/LinalgOps.cpp) must
// reject it (case dot_contracting_sizes of test/Dialect/hlo/invalid_linalg.mlir).

func.func @main(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_contracting_dims = [1], rhs_contracting_dims = [0]>} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}
