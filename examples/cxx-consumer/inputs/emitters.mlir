// Emitter-dialect IR as XLA's GPU emitters produce it (from
// test/Dialect/xla_gpu/ops.mlir): xla.loop over an #xla.indexing_map,
// xla.apply_indexing, predicated inserts and extracts, and the xla_gpu
// shared-memory, barrier and warp-shuffle ops, mixed with func, arith,
// tensor, math and gpu.

// The transpose emitter: a coalesced read into a shared tile, a barrier, a
// transposed read from the tile and a coalesced write.

#read = #xla.indexing_map<"(th_x, bl_x)[s0] -> (bl_x floordiv 2 * 32 + s0 * 4 + th_x floordiv 32, bl_x mod 2 * 32 + th_x mod 32, s0 * 4 + th_x floordiv 32, th_x mod 32), domain: th_x in [0, 127], bl_x in [0, 3], s0 in [0, 7]">
#write = #xla.indexing_map<"(th_x, bl_x)[s0] -> (bl_x mod 2 * 32 + s0 * 4 + th_x floordiv 32, bl_x floordiv 2 * 32 + th_x mod 32, th_x mod 32, s0 * 4 + th_x floordiv 32), domain: th_x in [0, 127], bl_x in [0, 3], s0 in [0, 7]">

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
