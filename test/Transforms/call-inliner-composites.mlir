// RUN: hlo-opt %s --passes='call-inliner{composites-to-preserve=my.gelu,other}' | FileCheck %s

// A composite named in composites-to-preserve stays a call; another
// composite, and a plain call, are inlined.
// CHECK-LABEL: func.func private @gelu
// CHECK-LABEL: func.func @composites
// CHECK-NEXT:    %[[C:.*]] = hlo.call @gelu(%arg0) {hlo.frontend_attributes = "{composite.name=\22my.gelu\22}"}
// CHECK-NEXT:    %[[T:.*]] = hlo.tanh %[[C]]
// CHECK-NEXT:    %[[N:.*]] = hlo.negate %[[T]]
// CHECK-NEXT:    return %[[N]]
func.func private @gelu(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.tanh %x : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @neg(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.negate %x : tensor<f32>
  return %0 : tensor<f32>
}
func.func @composites(%a: tensor<f32>) -> tensor<f32> attributes {hlo.entry} {
  %0 = hlo.call @gelu(%a) {hlo.frontend_attributes = "{composite.name=\22my.gelu\22}"} : (tensor<f32>) -> tensor<f32>
  %1 = hlo.call @gelu(%0) {hlo.frontend_attributes = "{composite.name=\22my.tanh\22}"} : (tensor<f32>) -> tensor<f32>
  %2 = hlo.call @neg(%1) : (tensor<f32>) -> tensor<f32>
  return %2 : tensor<f32>
}
