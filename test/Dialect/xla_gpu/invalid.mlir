// RUN: hlo-opt %s --split-input-file --verify-diagnostics

// Invalid xla_gpu dialect IR: one case per verifier message
// (XlaGpuDialect.cpp) and the ODS constraints of each op.

func.func @allocate_shared_dynamic() {
  // expected-error @+1 {{'xla_gpu.allocate_shared' op result #0 must be statically shaped tensor of any type values, but got 'tensor<?xf32>'}}
  %0 = xla_gpu.allocate_shared : tensor<?xf32>
  return
}

// -----

func.func @sync_threads_result_types(%t: tensor<4xf32>) {
  // expected-error @+1 {{'xla_gpu.sync_threads' op failed to verify that result types match operand types}}
  %0 = "xla_gpu.sync_threads"(%t) : (tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @sync_threads_not_tensor(%v: f32) {
  // expected-error @+1 {{'xla_gpu.sync_threads' op operand #0 must be variadic of ranked tensor of any type values, but got 'f32'}}
  %0 = "xla_gpu.sync_threads"(%v) : (f32) -> f32
  return
}

// -----

func.func @sync_threads_nothing() {
  // expected-error @+1 {{'xla_gpu.sync_threads' op expected 1 or more operands, but found 0}}
  "xla_gpu.sync_threads"() : () -> ()
  return
}

// -----

func.func private @add(%a: f32, %b: f32) -> f32 {
  %0 = arith.addf %a, %b : f32
  return %0 : f32
}
func.func @shuffle_reduce_distance(%v: f32) {
  // expected-error @+1 {{'xla_gpu.shuffle_reduce' op max_distance must be a positive power of two, got 12}}
  %0 = xla_gpu.shuffle_reduce(%v) to 12 combiner=@add : f32
  return
}

// -----

func.func private @add(%a: f32, %b: f32) -> f32 {
  %0 = arith.addf %a, %b : f32
  return %0 : f32
}
func.func @shuffle_reduce_zero_distance(%v: f32) {
  // expected-error @+1 {{'xla_gpu.shuffle_reduce' op max_distance must be a positive power of two, got 0}}
  %0 = xla_gpu.shuffle_reduce(%v) to 0 combiner=@add : f32
  return
}

// -----

func.func private @nothing() {
  return
}
func.func @shuffle_reduce_no_operands() {
  // expected-error @+1 {{'xla_gpu.shuffle_reduce' op needs at least one value to reduce}}
  "xla_gpu.shuffle_reduce"() <{combiner = @nothing, max_distance = 16 : i64}> : () -> ()
  return
}

// -----

func.func @shuffle_reduce_missing_combiner(%v: f32) {
  // expected-error @+1 {{'xla_gpu.shuffle_reduce' op combiner 'missing' is not a func.func in this module}}
  %0 = xla_gpu.shuffle_reduce(%v) to 16 combiner=@missing : f32
  return
}

// -----

func.func private @add(%a: f32, %b: f32) -> f32 {
  %0 = arith.addf %a, %b : f32
  return %0 : f32
}
func.func @shuffle_reduce_combiner_type(%v: f32, %i: i32) {
  // expected-error @+1 {{'xla_gpu.shuffle_reduce' op combiner 'add' must have type (f32, i32, f32, i32) -> (f32, i32), got (f32, f32) -> (f32)}}
  %0:2 = xla_gpu.shuffle_reduce(%v, %i) to 16 combiner=@add : f32, i32
  return
}

// -----

func.func private @add(%a: f32, %b: f32) -> f32 {
  %0 = arith.addf %a, %b : f32
  return %0 : f32
}
func.func @shuffle_reduce_result_types(%v: f32) {
  // expected-error @+1 {{'xla_gpu.shuffle_reduce' op failed to verify that result types match operand types}}
  %0 = "xla_gpu.shuffle_reduce"(%v) <{combiner = @add, max_distance = 16 : i64}> : (f32) -> i32
  return
}
