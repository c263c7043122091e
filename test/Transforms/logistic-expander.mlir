// RUN: hlo-opt %s --split-input-file --passes=logistic-expander | FileCheck %s

// logistic(x) = 1 / (1 + exp(-x)), with one broadcast constant 1 used as the
// addend and the dividend; the metadata moves to the final divide.
// CHECK-LABEL: func.func @logistic
// CHECK-NEXT:    %[[C:.*]] = hlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[ONE:.*]] = hlo.broadcast %[[C]], dims = [] : (tensor<f32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[N:.*]] = hlo.negate %arg0 : tensor<4x8xf32>
// CHECK-NEXT:    %[[E:.*]] = hlo.exponential %[[N]] : tensor<4x8xf32>
// CHECK-NEXT:    %[[D:.*]] = hlo.add %[[ONE]], %[[E]] : tensor<4x8xf32>
// CHECK-NEXT:    %[[R:.*]] = hlo.divide %[[ONE]], %[[D]] {hlo.metadata = "{op_name=\22sigmoid\22}"} : tensor<4x8xf32>
// CHECK-NEXT:    return %[[R]]
// CHECK-NOT:     hlo.logistic
func.func @logistic(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = hlo.logistic %x {hlo.metadata = "{op_name=\"sigmoid\"}"} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A scalar needs no broadcast; the constant has the operand's type.
// CHECK-LABEL: func.func @logistic_scalar_bf16
// CHECK-NEXT:    %[[ONE:.*]] = hlo.constant dense<1.000000e+00> : tensor<bf16>
// CHECK-NEXT:    %[[N:.*]] = hlo.negate %arg0 : tensor<bf16>
// CHECK-NEXT:    %[[E:.*]] = hlo.exponential %[[N]] : tensor<bf16>
// CHECK-NEXT:    %[[D:.*]] = hlo.add %[[ONE]], %[[E]] : tensor<bf16>
// CHECK-NEXT:    %[[R:.*]] = hlo.divide %[[ONE]], %[[D]] : tensor<bf16>
// CHECK-NEXT:    return %[[R]]
func.func @logistic_scalar_bf16(%x: tensor<bf16>) -> tensor<bf16> {
  %0 = hlo.logistic %x : tensor<bf16>
  return %0 : tensor<bf16>
}

// -----

// Complex operands get the constant (1, 0); a non-default layout moves to
// the op that now produces the value.
// CHECK-LABEL: func.func @logistic_complex
// CHECK:         hlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
// CHECK:         hlo.exponential
// CHECK:         hlo.divide %{{.*}}, %{{.*}} {hlo.layout = #hlo.layout<minor_to_major = [0]>} : tensor<3xcomplex<f32>>
// CHECK-NOT:     hlo.logistic
func.func @logistic_complex(%x: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = hlo.logistic %x {hlo.layout = #hlo.layout<minor_to_major = [0]>} : tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}

// -----

// Must not fire on other transcendental ops.
// CHECK-LABEL: func.func @other_ops
// CHECK-NEXT:    hlo.tanh %arg0
// CHECK-NOT:     hlo.exponential
func.func @other_ops(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.tanh %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
