// RUN: not hlo-opt %s --split-input-file --passes=xla-lower-tensors 2>&1 | FileCheck %s -DFILE=%s

// Vector transfers have a lowering only in the form the vectorizer makes
// them: 1-D, in bounds and unmasked, over a flat tensor.
// CHECK: [[FILE]]:[[@LINE+3]]:8: error: `vector.transfer_read` must be 1-D, in bounds and unmasked to be lowered
func.func @out_of_bounds(%in: tensor<64xf32>, %i: index) -> vector<8xf32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %in[%i], %pad {in_bounds = [false]} : tensor<64xf32>, vector<8xf32>
  return %v : vector<8xf32>
}

// -----

// CHECK: [[FILE]]:[[@LINE+3]]:8: error: `vector.transfer_write` must access a flat tensor; run xla-flatten-tensors first
func.func @not_flat(%v: vector<8xf32>, %out: tensor<8x8xf32>, %i: index) -> tensor<8x8xf32> {
  %c0 = arith.constant 0 : index
  %w = vector.transfer_write %v, %out[%c0, %i] {in_bounds = [true]} : vector<8xf32>, tensor<8x8xf32>
  return %w : tensor<8x8xf32>
}

// -----

// A mask (the last operand segment) has no lowering either.
// CHECK: [[FILE]]:[[@LINE+3]]:8: error: `vector.transfer_read` must be 1-D, in bounds and unmasked to be lowered
func.func @masked(%in: tensor<64xf32>, %i: index, %m: vector<8xi1>) -> vector<8xf32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %in[%i], %pad, %m {in_bounds = [true]} : tensor<64xf32>, vector<8xf32>
  return %v : vector<8xf32>
}
