// RUN: hlo-opt %s --split-input-file --passes='xla-lower-tensors{target=gpu}' | FileCheck %s

// The CUDA kernel ABI: an llvm.func marked nvvm.kernel (maxntid from the
// thread counts) taking one noalias, 16-byte aligned pointer per buffer.
// Shared memory is a global in address space 3, cast to a generic
// pointer; sync_threads is a barrier that forwards its tensors; thread and
// block ids read the PTX special registers with their ranges.
// CHECK:       llvm.mlir.global private @kernel_shmem0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
// CHECK:       llvm.func @kernel(%[[IN:.*]]: !llvm.ptr {llvm.align = 16 : i64, llvm.noalias}, %[[OUT:.*]]: !llvm.ptr {llvm.align = 16 : i64, llvm.noalias})
// CHECK-SAME:    attributes {nvvm.kernel, nvvm.maxntid = array<i32: 64, 1, 1>, xla.block_counts = array<i64: 4, 1, 1>
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x range <i32, 0, 64> : i32
// CHECK:         %[[T:.*]] = arith.index_castui %[[TID]] : i32 to index
// CHECK:         nvvm.read.ptx.sreg.ctaid.x range <i32, 0, 4> : i32
// CHECK:         %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK:         %[[S3:.*]] = llvm.mlir.addressof @kernel_shmem0 : !llvm.ptr<3>
// CHECK:         %[[S:.*]] = llvm.addrspacecast %[[S3]] : !llvm.ptr<3> to !llvm.ptr
// CHECK:         %[[P:.*]] = llvm.getelementptr %[[S]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         llvm.store %[[X]], %[[P]] : f32, !llvm.ptr
// CHECK-NEXT:    nvvm.barrier0
// CHECK:         llvm.getelementptr %[[S]][%{{.*}}]
// CHECK:         llvm.getelementptr %[[OUT]][%{{.*}}]
// CHECK:         llvm.return
func.func @kernel(%in: tensor<256xf32>, %out: tensor<256xf32>) -> tensor<256xf32> attributes {xla.entry, xla.block_counts = array<i64: 4, 1, 1>, xla.thread_counts = array<i64: 64, 1, 1>} {
  %t = gpu.thread_id x {xla.range = [0 : index, 63 : index]}
  %b = gpu.block_id x {xla.range = [0 : index, 3 : index]}
  %c64 = arith.constant 64 : index
  %base = arith.muli %b, %c64 : index
  %i = arith.addi %base, %t : index
  %x = tensor.extract %in[%i] : tensor<256xf32>
  %shmem = xla_gpu.allocate_shared : tensor<64xf32>
  %w = tensor.insert %x into %shmem[%t] : tensor<64xf32>
  %synced = xla_gpu.sync_threads %w : tensor<64xf32>
  %c63 = arith.constant 63 : index
  %j = arith.subi %c63, %t : index
  %y = tensor.extract %synced[%j] : tensor<64xf32>
  %r = tensor.insert %y into %out[%i] : tensor<256xf32>
  return %r : tensor<256xf32>
}

// -----

// A kernel that updates a buffer in place: no noalias; HLO names become
// PTX identifiers (dots are not allowed there).
// CHECK:       llvm.func @fusion$1(%{{.*}}: !llvm.ptr {llvm.align = 16 : i64}, %{{.*}}: !llvm.ptr {llvm.align = 16 : i64})
func.func @fusion.1(%in: tensor<4xf32>, %out: tensor<4xf32>) -> tensor<4xf32> attributes {xla.entry, xla.in_place, xla.thread_counts = array<i64: 4, 1, 1>} {
  %t = gpu.thread_id x {xla.range = [0 : index, 3 : index]}
  %x = tensor.extract %in[%t] : tensor<4xf32>
  %r = tensor.insert %x into %out[%t] : tensor<4xf32>
  return %r : tensor<4xf32>
}


// -----

// Vector transfers are aligned to the vector's size on the GPU (buffers are
// 16-byte aligned and the vectorizer only makes transfers at multiples of
// the vector's length), so NVPTX emits ld.global.v4 / st.global.v4.
// CHECK-LABEL: func.func @transfers
// CHECK:         llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr
// CHECK:         llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> vector<4xf16>
func.func @transfers(%in: tensor<64xf32>, %out: tensor<64xf32>, %h: tensor<64xf16>, %i: index) -> (tensor<64xf32>, vector<4xf16>) {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %in[%i], %pad {in_bounds = [true]} : tensor<64xf32>, vector<4xf32>
  %w = vector.transfer_write %v, %out[%i] {in_bounds = [true]} : vector<4xf32>, tensor<64xf32>
  %hpad = arith.constant 0.0 : f16
  %x = vector.transfer_read %h[%i], %hpad {in_bounds = [true]} : tensor<64xf16>, vector<4xf16>
  return %w, %x : tensor<64xf32>, vector<4xf16>
}
