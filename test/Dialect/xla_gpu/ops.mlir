// RUN: hlo-opt %s | FileCheck %s
// RUN: hlo-opt %s | hlo-opt | FileCheck %s
// RUN: hlo-opt %s --mlir-print-op-generic | hlo-opt | FileCheck %s
// RUN: hlo-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: hlo-opt %s > %t.1.mlir && hlo-opt %t.1.mlir > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: hlo-opt %s --mlir-print-op-generic > %t.g1.mlir && hlo-opt %t.g1.mlir --mlir-print-op-generic > %t.g2.mlir && diff %t.g1.mlir %t.g2.mlir

// Round trip of every op of the xla_gpu emitter dialect, alone and in the
// shapes XLA's transpose and reduction emitters produce them.

// CHECK-LABEL: func.func @shared_and_sync(
// CHECK: %[[A:.*]] = xla_gpu.allocate_shared : tensor<2xf32>
// CHECK: %[[B:.*]] = xla_gpu.allocate_shared : tensor<2x3xi32>
// CHECK: %[[S:.*]]:2 = xla_gpu.sync_threads %[[A]], %[[B]] : tensor<2xf32>, tensor<2x3xi32>
// CHECK: %{{.*}} = xla_gpu.sync_threads %[[S]]#0 {tag = 1 : i32} : tensor<2xf32>
// CHECK: return %[[S]]#0, %[[S]]#1 : tensor<2xf32>, tensor<2x3xi32>
// GENERIC-LABEL: "func.func"() <{{{.*}}sym_name = "shared_and_sync"
// GENERIC: %{{.*}} = "xla_gpu.allocate_shared"() : () -> tensor<2xf32>
// GENERIC: %{{.*}}:2 = "xla_gpu.sync_threads"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2x3xi32>) -> (tensor<2xf32>, tensor<2x3xi32>)
// GENERIC: "xla_gpu.sync_threads"(%{{.*}}) {tag = 1 : i32} : (tensor<2xf32>) -> tensor<2xf32>
func.func @shared_and_sync() -> (tensor<2xf32>, tensor<2x3xi32>) {
  %shared1 = xla_gpu.allocate_shared : tensor<2xf32>
  %shared2 = xla_gpu.allocate_shared : tensor<2x3xi32>
  %sync:2 = xla_gpu.sync_threads %shared1, %shared2 : tensor<2xf32>, tensor<2x3xi32>
  %again = xla_gpu.sync_threads %sync#0 {tag = 1 : i32} : tensor<2xf32>
  return %sync#0, %sync#1 : tensor<2xf32>, tensor<2x3xi32>
}

// CHECK-LABEL: func.func private @argmax(
func.func private @argmax(%v0: f32, %i0: i32, %v1: f32, %i1: i32) -> (f32, i32) {
  %gt = arith.cmpf ogt, %v1, %v0 : f32
  %v = arith.select %gt, %v1, %v0 : f32
  %i = arith.select %gt, %i1, %i0 : i32
  return %v, %i : f32, i32
}

// CHECK-LABEL: func.func @shuffle_reduce(
// CHECK-SAME: %[[V:.*]]: f32, %[[I:.*]]: i32)
// CHECK: %[[R:.*]]:2 = xla_gpu.shuffle_reduce(%[[V]], %[[I]]) to 16 combiner=@argmax {xla.range = [0 : index, 42 : index]} : f32, i32
// CHECK: xla_gpu.shuffle_reduce(%[[R]]#0, %[[R]]#1) to 1 combiner=@argmax : f32, i32
// GENERIC-LABEL: "func.func"() <{{{.*}}sym_name = "shuffle_reduce"
// GENERIC: "xla_gpu.shuffle_reduce"(%{{.*}}, %{{.*}}) <{combiner = @argmax, max_distance = 16 : i64}> {xla.range = [0 : index, 42 : index]} : (f32, i32) -> (f32, i32)
func.func @shuffle_reduce(%v: f32, %i: i32) -> (f32, i32) {
  %r:2 = xla_gpu.shuffle_reduce (%v, %i) to 16 combiner=@argmax {xla.range = [0 : index, 42 : index]} : f32, i32
  %s:2 = xla_gpu.shuffle_reduce(%r#0, %r#1) to 1 combiner = @argmax : f32, i32
  return %s#0, %s#1 : f32, i32
}

// The transpose emitter: a coalesced read into a shared tile, a barrier, a
// transposed read from the tile and a coalesced write.

#read = #xla.indexing_map<"(th_x, bl_x)[s0] -> (bl_x floordiv 2 * 32 + s0 * 4 + th_x floordiv 32, bl_x mod 2 * 32 + th_x mod 32, s0 * 4 + th_x floordiv 32, th_x mod 32), domain: th_x in [0, 127], bl_x in [0, 3], s0 in [0, 7]">
#write = #xla.indexing_map<"(th_x, bl_x)[s0] -> (bl_x mod 2 * 32 + s0 * 4 + th_x floordiv 32, bl_x floordiv 2 * 32 + th_x mod 32, th_x mod 32, s0 * 4 + th_x floordiv 32), domain: th_x in [0, 127], bl_x in [0, 3], s0 in [0, 7]">

// CHECK-LABEL: func.func @transpose(
// CHECK: %[[TID:.*]] = gpu.thread_id  x {xla.range = [0 : index, 127 : index]}
// CHECK: %[[BID:.*]] = gpu.block_id  x {xla.range = [0 : index, 3 : index]}
// CHECK: %[[SHMEM:.*]] = xla_gpu.allocate_shared : tensor<32x33xf32>
// CHECK: %[[TILE:.*]] = xla.loop (%[[TID]], %[[BID]])[%{{.*}}] -> (%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) in #{{.*}} iter_args(%{{.*}} = %[[SHMEM]]) -> (tensor<32x33xf32>) {
// CHECK: %[[SYNCED:.*]] = xla_gpu.sync_threads %[[TILE]] : tensor<32x33xf32>
// CHECK: xla.loop (%[[TID]], %[[BID]])
// CHECK: tensor.extract %[[SYNCED]]
func.func @transpose(%in: tensor<64x64xf32>, %out: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %tid = gpu.thread_id x {xla.range = [0 : index, 127 : index]}
  %bid = gpu.block_id x {xla.range = [0 : index, 3 : index]}
  %shmem = xla_gpu.allocate_shared : tensor<32x33xf32>
  %tile = xla.loop (%tid, %bid)[%s] -> (%r0, %r1, %t0, %t1) in #read iter_args(%iter = %shmem) -> (tensor<32x33xf32>) {
    %x = tensor.extract %in[%r0, %r1] : tensor<64x64xf32>
    %e = math.exp %x : f32
    %next = tensor.insert %e into %iter[%t0, %t1] : tensor<32x33xf32>
    xla.yield %next : tensor<32x33xf32>
  }
  %synced = xla_gpu.sync_threads %tile : tensor<32x33xf32>
  %result = xla.loop (%tid, %bid)[%s] -> (%w0, %w1, %t0, %t1) in #write iter_args(%iter = %out) -> (tensor<64x64xf32>) {
    %x = tensor.extract %synced[%t0, %t1] : tensor<32x33xf32>
    %next = tensor.insert %x into %iter[%w0, %w1] : tensor<64x64xf32>
    xla.yield %next : tensor<64x64xf32>
  }
  return %result : tensor<64x64xf32>
}

// The reduction emitter's cross-warp step: each warp's partial result goes
// to shared memory, then the first warp reads them back (the init value for
// lanes past the last warp) and reduces them with a shuffle.

func.func private @add(%a: f32, %b: f32) -> f32 {
  %0 = arith.addf %a, %b : f32
  return %0 : f32
}

// CHECK-LABEL: func.func @reduce_via_shared_memory(
// CHECK: %[[SHMEM:.*]] = xla_gpu.allocate_shared : tensor<4xf32>
// CHECK: %[[W:.*]] = xla.predicated_insert %{{.*}} into %[[SHMEM]][%{{.*}}] if %{{.*}} : tensor<4xf32>
// CHECK: %[[SYNCED:.*]] = xla_gpu.sync_threads %[[W]] : tensor<4xf32>
// CHECK: %[[X:.*]] = xla.predicated_extract %[[SYNCED]][%{{.*}}] if %{{.*}} else %{{.*}} : tensor<4xf32>
// CHECK: xla_gpu.shuffle_reduce(%[[X]]) to 2 combiner=@add : f32
func.func @reduce_via_shared_memory(%partial: f32, %init: f32) -> f32 {
  %tid = gpu.thread_id x {xla.range = [0 : index, 127 : index]}
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %lane_and_warp:2 = xla.apply_indexing #xla.indexing_map<"(th_x) -> (th_x mod 32, th_x floordiv 32), domain: th_x in [0, 127]">(%tid)
  %is_lane0 = arith.cmpi eq, %lane_and_warp#0, %c0 : index
  %shmem = xla_gpu.allocate_shared : tensor<4xf32>
  %written = xla.predicated_insert %partial into %shmem[%lane_and_warp#1] if %is_lane0 : tensor<4xf32>
  %synced = xla_gpu.sync_threads %written : tensor<4xf32>
  %in_range = arith.cmpi ult, %tid, %c4 : index
  %x = xla.predicated_extract %synced[%tid] if %in_range else %init : tensor<4xf32>
  %sum = xla_gpu.shuffle_reduce(%x) to 2 combiner=@add : f32
  return %sum : f32
}
