// RUN: hlo-opt %s --split-input-file --passes=tuple-simplifier | FileCheck %s

// get_tuple_element of a tuple is the tuple's operand; the dead tuple goes.
// CHECK-LABEL: func.func @element_of_tuple
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %arg1, %arg1
// CHECK-NEXT:    return %[[M]]
func.func @element_of_tuple(%a: tensor<2xf32>, %b: tensor<3xi32>) -> tensor<3xi32> {
  %t = hlo.tuple %a, %b : (tensor<2xf32>, tensor<3xi32>) -> tuple<tensor<2xf32>, tensor<3xi32>>
  %g = hlo.get_tuple_element %t[1] : (tuple<tensor<2xf32>, tensor<3xi32>>) -> tensor<3xi32>
  %m = hlo.multiply %g, %g : tensor<3xi32>
  return %m : tensor<3xi32>
}

// -----

// A tuple rebuilt from all elements of another tuple, in order, is that tuple.
// CHECK-LABEL: func.func @rebuilt_tuple
// CHECK-NEXT:    return %arg0
func.func @rebuilt_tuple(%t: tuple<tensor<f32>, tensor<i32>>) -> tuple<tensor<f32>, tensor<i32>> {
  %0 = hlo.get_tuple_element %t[0] : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
  %1 = hlo.get_tuple_element %t[1] : (tuple<tensor<f32>, tensor<i32>>) -> tensor<i32>
  %2 = hlo.tuple %0, %1 : (tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tensor<i32>>
  return %2 : tuple<tensor<f32>, tensor<i32>>
}

// -----

// Must not fire: elements swapped, or only a prefix of the source tuple.
// CHECK-LABEL: func.func @not_a_rebuild
// CHECK:         %[[T:.*]] = hlo.tuple %{{.*}}, %{{.*}} :
// CHECK:         %[[P:.*]] = hlo.tuple %{{.*}} :
// CHECK:         return %[[T]], %[[P]]
func.func @not_a_rebuild(%t: tuple<tensor<f32>, tensor<f32>>) -> (tuple<tensor<f32>, tensor<f32>>, tuple<tensor<f32>>) {
  %0 = hlo.get_tuple_element %t[0] : (tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>
  %1 = hlo.get_tuple_element %t[1] : (tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>
  %2 = hlo.tuple %1, %0 : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
  %3 = hlo.tuple %0 : (tensor<f32>) -> tuple<tensor<f32>>
  return %2, %3 : tuple<tensor<f32>, tensor<f32>>, tuple<tensor<f32>>
}

// -----

// Must not fire: the tuple comes from a parameter, not an hlo.tuple.
// CHECK-LABEL: func.func @parameter_tuple
// CHECK-NEXT:    hlo.get_tuple_element %arg0[0]
func.func @parameter_tuple(%t: tuple<tensor<f32>, tensor<f32>>) -> tensor<f32> {
  %0 = hlo.get_tuple_element %t[0] : (tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>
  return %0 : tensor<f32>
}
