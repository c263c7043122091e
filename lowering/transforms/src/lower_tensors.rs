//! `xla-lower-tensors`: tensors become pointers, accesses become loads and
//! stores (XLA's `lower_tensors`: the kernels are not bufferized; a tensor
//! SSA value *is* its buffer, and `tensor.insert` writes in place).
//!
//! - Every tensor value becomes `!llvm.ptr`; `tensor.extract` is a
//!   `getelementptr` + `llvm.load`, `tensor.insert` a `getelementptr` +
//!   `llvm.store` (its result is the pointer it stored through).
//! - Memory types: `i1` is a byte (0 or 1), sub-byte integers and the
//!   f8/f6/f4 formats a byte each, `complex<T>` a `(re, im)` struct; the
//!   runtime's memory format (`rxla_library::array`).
//! - Dense tensor constants become internal constant globals.
//! - `xla.atomic_rmw` becomes `llvm.atomicrmw` for additions and a
//!   compare-and-swap loop (`scf.while` around `llvm.cmpxchg`) otherwise.
//! - `target=cpu` (the default), the CPU kernel ABI: the entry function
//!   (`xla.entry`) takes one pointer per parameter and output, in the
//!   entry's argument order, then `index %workgroup`, and returns
//!   nothing; `xla.workgroup_id` reads `%workgroup`. A kernel with more
//!   than [`MAX_DIRECT_BUFFERS`] buffers becomes `(ptr %buffers, index
//!   %workgroup)` instead, `%buffers` an array of the pointers.
//! - `target=gpu`, the CUDA kernel ABI: the entry function takes one
//!   pointer per parameter and output (`noalias` unless the kernel updates
//!   a buffer in place, 16-byte aligned), returns nothing and is marked
//!   `nvvm.kernel` with `nvvm.maxntid` from `xla.thread_counts`.
//!   `xla_gpu.allocate_shared` becomes a global in address space 3 (shared
//!   memory), `xla_gpu.sync_threads` a `nvvm.barrier0`, `gpu.thread_id` /
//!   `gpu.block_id` the PTX special registers (with their ranges).

use crate::ir::*;
use melior::ir::OperationRef;
use mlir_sys::*;
use rxla_ir::pass::{HloPass, PassError, PassOptions};

/// Which kernel ABI and memory model to lower to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Cpu,
    Gpu,
}

impl Target {
    /// The `target=` option of the lowering passes.
    pub fn from_options(pass: &str, options: &PassOptions) -> std::result::Result<Target, PassError> {
        match options.string("target", "cpu").as_str() {
            "cpu" => Ok(Target::Cpu),
            "gpu" => Ok(Target::Gpu),
            other => Err(PassError(format!("pass '{pass}': target must be cpu or gpu, got '{other}'"))),
        }
    }
}

#[derive(Clone, Debug)]
pub struct LowerTensors {
    pub target: Target,
}

impl HloPass for LowerTensors {
    const NAME: &'static str = "xla-lower-tensors";
    const DESCRIPTION: &'static str =
        "Lower tensors to pointers, tensor accesses to loads and stores, constants to globals, atomic_rmw to atomics; the CPU or GPU kernel ABI (target=cpu|gpu), shared memory and barriers";

    fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
        use melior::dialect::DialectHandle;
        vec![DialectHandle::llvm(), DialectHandle::scf(), DialectHandle::arith()]
    }

    fn from_options(options: &PassOptions) -> std::result::Result<Self, PassError> {
        options.expect_only(Self::NAME, &["target"])?;
        Ok(LowerTensors { target: Target::from_options(Self::NAME, options)? })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> std::result::Result<(), PassError> {
        let root = Op::of(&module);
        let gpu = self.target == Target::Gpu;
        if gpu {
            load_nvvm(root);
        }
        let mut constants = 0usize;
        let mut atomics = Vec::new();
        let mut tensor_constants = Vec::new();
        let mut shared = Vec::new();
        for op in walk(root) {
            match op.name().as_str() {
                "tensor.extract" => lower_extract(op)?,
                "tensor.insert" => lower_insert(op)?,
                "vector.transfer_read" => lower_transfer_read(op, self.target)?,
                "vector.transfer_write" => lower_transfer_write(op, self.target)?,
                // Last: lowering one moves and erases ops of its region.
                "xla.atomic_rmw" => atomics.push(op),
                // After the accesses, which read the tensor type.
                "arith.constant" if is_tensor_constant(op) => tensor_constants.push(op),
                "xla_gpu.allocate_shared" if gpu => shared.push(op),
                "xla_gpu.sync_threads" if gpu => lower_sync_threads(op),
                "gpu.thread_id" | "gpu.block_id" if gpu => lower_thread_index(op)?,
                "xla_gpu.shuffle_reduce" if gpu => {
                    return Err(op_error(
                        op,
                        "`xla_gpu.shuffle_reduce` is lowered by xla-lower-shuffles, which must run first",
                    ));
                }
                "tensor.empty"
                | "xla_gpu.allocate_shared"
                | "xla_gpu.sync_threads"
                | "xla_gpu.shuffle_reduce"
                | "gpu.thread_id"
                | "gpu.block_id" => {
                    return Err(op_error(
                        op,
                        format!("`{}` has no {} lowering", op.name(), if gpu { "GPU" } else { "CPU" }),
                    ));
                }
                "xla.workgroup_id" if gpu => {
                    return Err(op_error(op, "`xla.workgroup_id` (a CPU kernel) has no GPU lowering"))
                }
                _ => {}
            }
        }
        for op in atomics {
            lower_atomic(op)?;
        }
        for op in tensor_constants {
            lower_constant(op, &mut constants)?;
        }
        for (k, op) in shared.into_iter().enumerate() {
            lower_allocate_shared(op, k)?;
        }
        for func in functions(root) {
            if func.has_attr("xla.entry") {
                match self.target {
                    Target::Cpu => lower_entry_abi(func)?,
                    Target::Gpu => lower_gpu_entry_abi(func)?,
                }
            }
        }
        // Every remaining tensor value is a buffer pointer.
        for op in walk(root) {
            for v in op.results() {
                retype_tensor(v);
            }
            for r in 0..num_regions(op) {
                for block in region_blocks(op, r) {
                    for a in block_args(block) {
                        retype_tensor(a);
                    }
                }
            }
        }
        for func in functions(root) {
            crate::flatten_tensors::update_function_type(func);
        }
        Ok(())
    }
}

fn retype_tensor(v: Value) {
    let ty = v.raw_type();
    if is_ranked_tensor(ty) {
        let ctx = unsafe { mlirTypeGetContext(ty) };
        set_type(v, unsafe { mlirLLVMPointerTypeGet(ctx, 0) });
    }
}

/// How an element of type `ty` is stored: the memory type and conversions
/// between the two.
#[derive(Clone, Copy)]
enum Storage {
    /// Stored as is.
    Direct,
    /// `i1` and sub-byte integers: a byte (`trunci` / `extui`).
    Byte,
    /// Non-LLVM float formats: a byte of bits (`arith.bitcast` through the
    /// integer of the format's width).
    FloatBits(u32),
    /// `complex<T>`: a struct of two components.
    Complex,
}

fn storage(ty: MlirType) -> Storage {
    if is_complex(ty) {
        return Storage::Complex;
    }
    let bits = bit_width(ty);
    if is_integer(ty) && !bits.is_multiple_of(8) {
        return Storage::Byte;
    }
    if is_float(ty) && !is_llvm_float(ty) {
        return Storage::FloatBits(bits);
    }
    Storage::Direct
}

fn memory_type(b: &B, ty: MlirType) -> MlirType {
    match storage(ty) {
        Storage::Direct => ty,
        Storage::Byte | Storage::FloatBits(_) => b.int(8),
        Storage::Complex => {
            let e = complex_element(ty);
            unsafe { mlirLLVMStructTypeLiteralGet(b.ctx, 2, [e, e].as_ptr(), false) }
        }
    }
}

/// Converts a loaded memory value to the element type.
fn from_memory(b: &B, v: Value, ty: MlirType) -> Value {
    match storage(ty) {
        Storage::Direct => v,
        Storage::Byte => b.val("arith.trunci", &[v], ty, &[]),
        Storage::FloatBits(bits) => {
            let int = b.int(bits);
            let narrowed = if bits < 8 { b.val("arith.trunci", &[v], int, &[]) } else { v };
            b.val("arith.bitcast", &[narrowed], ty, &[])
        }
        Storage::Complex => b.val("builtin.unrealized_conversion_cast", &[v], ty, &[]),
    }
}

/// Converts an element value to its memory type.
fn to_memory(b: &B, v: Value, ty: MlirType) -> Value {
    let mem = memory_type(b, ty);
    match storage(ty) {
        Storage::Direct => v,
        Storage::Byte => b.val("arith.extui", &[v], mem, &[]),
        Storage::FloatBits(bits) => {
            let int = b.int(bits);
            let as_int = b.val("arith.bitcast", &[v], int, &[]);
            if bits < 8 {
                b.val("arith.extui", &[as_int], mem, &[])
            } else {
                as_int
            }
        }
        Storage::Complex => b.val("builtin.unrealized_conversion_cast", &[v], mem, &[]),
    }
}

/// `getelementptr %base[%index]` over elements of memory type `mem`.
fn element_ptr(b: &B, base: Value, index: Value, mem: MlirType) -> Value {
    let i64t = b.int(64);
    let offset = if is_index(index.raw_type()) { b.index_cast(index, i64t) } else { index };
    b.val(
        "llvm.getelementptr",
        &[base, offset],
        b.ptr(),
        &[("elem_type", b.type_attr(mem)), ("rawConstantIndices", b.i32_array(&[i32::MIN]))],
    )
}

fn load(b: &B, ptr: Value, mem: MlirType) -> Value {
    b.val("llvm.load", &[ptr], mem, &[("ordering", b.int_attr(b.int(64), 0))])
}

fn store(b: &B, value: Value, ptr: Value) {
    b.op("llvm.store", &[value, ptr], &[], &[("ordering", b.int_attr(b.int(64), 0))], vec![]);
}

/// The alignment of a vector access at an index that is a multiple of the
/// vector's length (what `xla-vectorize-loads-stores` guarantees): the
/// vector's size on the GPU, whose buffers are 16-byte aligned; the
/// element's on the CPU, whose buffers may be views at any element
/// offset (unaligned vector accesses cost nothing extra there).
fn vector_alignment(b: &B, vector: MlirType, target: Target) -> MlirAttribute {
    let elem = unsafe { mlirShapedTypeGetElementType(vector) };
    let lanes = unsafe { mlirShapedTypeGetDimSize(vector, 0) };
    let bytes = match target {
        Target::Gpu => (byte_size(elem) * lanes).min(16),
        Target::Cpu => byte_size(elem),
    };
    b.int_attr(b.int(64), bytes)
}

/// The operands of an in-bounds, unmasked 1-D transfer over a flat
/// tensor: (tensor, index).
fn transfer_operands(op: Op, tensor_at: usize) -> Result<(Value, Value)> {
    let operands = op.operands();
    let tensor = operands[tensor_at];
    if !is_ranked_tensor(tensor.raw_type()) || shape_of(tensor.raw_type()).len() != 1 {
        return Err(op_error(op, format!("`{}` must access a flat tensor; run xla-flatten-tensors first", op.name())));
    }
    // SAFETY: live attributes, only queried.
    let (in_bounds, identity, masked) = unsafe {
        let in_bounds = op.attr_raw("in_bounds").is_some_and(|a| {
            mlirAttributeIsAArray(a) && mlirArrayAttrGetNumElements(a) == 1 && {
                let e = mlirArrayAttrGetElement(a, 0);
                mlirAttributeIsABool(e) && mlirBoolAttrGetValue(e)
            }
        });
        let identity = op.attr_raw("permutation_map").is_some_and(|a| {
            mlirAttributeIsAAffineMap(a) && {
                let map = mlirAffineMapAttrGetValue(a);
                mlirAffineMapGetNumDims(map) == 1 && mlirAffineMapIsIdentity(map)
            }
        });
        // The last segment is the mask's.
        let masked = op.attr_raw("operandSegmentSizes").is_some_and(|a| {
            let n = if mlirAttributeIsADenseI32Array(a) { mlirDenseArrayGetNumElements(a) } else { 0 };
            n > 0 && mlirDenseI32ArrayGetElement(a, n - 1) == 1
        });
        (in_bounds, identity, masked)
    };
    if !in_bounds || !identity || masked {
        return Err(op_error(op, format!("`{}` must be 1-D, in bounds and unmasked to be lowered", op.name())));
    }
    Ok((tensor, operands[tensor_at + 1]))
}

fn lower_transfer_read(op: Op, target: Target) -> Result<()> {
    let (tensor, index) = transfer_operands(op, 0)?;
    let vector = op.result(0).raw_type();
    let elem = element_type(tensor.raw_type());
    let b = B::before(op);
    let ptr = element_ptr(&b, tensor, index, elem);
    let loaded = b.val(
        "llvm.load",
        &[ptr],
        vector,
        &[("ordering", b.int_attr(b.int(64), 0)), ("alignment", vector_alignment(&b, vector, target))],
    );
    replace_op(op, &[loaded]);
    Ok(())
}

fn lower_transfer_write(op: Op, target: Target) -> Result<()> {
    let (tensor, index) = transfer_operands(op, 1)?;
    let vector = op.operand(0);
    let elem = element_type(tensor.raw_type());
    let b = B::before(op);
    let ptr = element_ptr(&b, tensor, index, elem);
    let alignment = vector_alignment(&b, vector.raw_type(), target);
    b.op(
        "llvm.store",
        &[vector, ptr],
        &[],
        &[("ordering", b.int_attr(b.int(64), 0)), ("alignment", alignment)],
        vec![],
    );
    replace_op(op, &[tensor]);
    Ok(())
}

/// The single linear index of a flattened access.
fn linear_index(op: Op, operands: &[Value]) -> Result<Value> {
    match operands {
        [i] => Ok(*i),
        _ => Err(bug(format!("{} has {} indices; run xla-flatten-tensors first", op.name(), operands.len()))),
    }
}

fn lower_extract(op: Op) -> Result<()> {
    let operands = op.operands();
    let tensor = operands[0];
    let ty = element_type(tensor.raw_type());
    let b = B::before(op);
    let index = linear_index(op, &operands[1..])?;
    let mem = memory_type(&b, ty);
    let ptr = element_ptr(&b, tensor, index, mem);
    let loaded = load(&b, ptr, mem);
    replace_op(op, &[from_memory(&b, loaded, ty)]);
    Ok(())
}

fn lower_insert(op: Op) -> Result<()> {
    let operands = op.operands();
    let (value, dest) = (operands[0], operands[1]);
    let ty = element_type(dest.raw_type());
    let b = B::before(op);
    let index = linear_index(op, &operands[2..])?;
    let mem = memory_type(&b, ty);
    let ptr = element_ptr(&b, dest, index, mem);
    store(&b, to_memory(&b, value, ty), ptr);
    replace_op(op, &[dest]);
    Ok(())
}

fn is_tensor_constant(op: Op) -> bool {
    op.num_results() == 1 && is_ranked_tensor(op.result(0).raw_type())
}

/// The raw little-endian bytes of a dense attribute in the memory format,
/// and the element type of the global holding them.
fn constant_bytes(b: &B, attr: MlirAttribute, elem: MlirType, n: usize) -> Result<(Vec<u8>, MlirType)> {
    unsafe {
        let splat = mlirDenseElementsAttrIsSplat(attr);
        if bit_width(elem) == 1 && is_integer(elem) {
            let bytes = (0..n)
                .map(|i| mlirDenseElementsAttrGetBoolValue(attr, if splat { 0 } else { i as isize }) as u8)
                .collect();
            return Ok((bytes, b.int(8)));
        }
        let size = byte_size(elem) as usize;
        let raw = mlirDenseElementsAttrGetRawData(attr) as *const u8;
        let stored = if splat { size } else { size * n };
        if (is_integer(elem) || is_float(elem)) && !bit_width(elem).is_multiple_of(8) {
            return Err(error(format!(
                "tensor constants of {} are not supported by the CPU lowering",
                type_to_string(elem)
            )));
        }
        let data = std::slice::from_raw_parts(raw, stored);
        let bytes = if splat { data.repeat(n) } else { data.to_vec() };
        let global_elem = match storage(elem) {
            Storage::Direct => elem,
            Storage::Complex => complex_element(elem),
            Storage::Byte | Storage::FloatBits(_) => b.int(8),
        };
        Ok((bytes, global_elem))
    }
}

fn lower_constant(op: Op, counter: &mut usize) -> Result<()> {
    let attr = op.attr_raw("value").ok_or_else(|| bug("arith.constant without a value"))?;
    let ty = op.result(0).raw_type();
    let elem = element_type(ty);
    let n: i64 = shape_of(ty).iter().product();
    let b = B::before(op);
    let (bytes, global_elem) = constant_bytes(&b, attr, elem, n as usize)?;
    let count = (bytes.len() / byte_size(global_elem) as usize) as i64;
    let data_type = tensor_type(&[count], global_elem);
    let value = unsafe { mlirDenseElementsAttrRawBufferGet(data_type, bytes.len(), bytes.as_ptr() as *const _) };
    let array = unsafe { mlirLLVMArrayTypeGet(global_elem, count as u32) };
    let module = op.parent_module().ok_or_else(|| bug("constant outside a module"))?;
    let func = op.parent_func().map(|f| f.string_attr("sym_name").unwrap_or_default()).unwrap_or_default();
    let name = format!("{func}_cst{counter}");
    *counter += 1;
    let body = module.region_block(0).ok_or_else(|| bug("module without a body"))?;
    let first = block_ops(body).into_iter().next().ok_or_else(|| bug("empty module"))?;
    let gb = B::before(first);
    let init = unsafe { mlirRegionCreate() };
    gb.op(
        "llvm.mlir.global",
        &[],
        &[],
        &[
            ("global_type", b.type_attr(array)),
            ("sym_name", b.string_attr(&name)),
            ("linkage", b.linkage(MlirLLVMLinkage_MlirLLVMLinkageInternal)),
            ("constant", b.unit_attr()),
            ("value", value),
            ("alignment", b.int_attr(b.int(64), 64)),
            ("addr_space", b.int_attr(b.int(32), 0)),
        ],
        vec![init],
    );
    let address = b.val("llvm.mlir.addressof", &[], b.ptr(), &[("global_name", b.symbol_attr(&name))]);
    // The tensor's uses see the pointer once the types are rewritten.
    replace_op(op, &[address]);
    Ok(())
}

/// The `llvm.atomicrmw` operation for a region computing `current + x`.
fn simple_rmw(body: mlir_sys::MlirBlock) -> Option<(i64, Value)> {
    let ops = block_ops(body);
    let current = block_args(body)[0];
    let [combine, yield_op] = ops.as_slice() else { return None };
    if !yield_op.is_named("xla.yield") || yield_op.num_operands() != 1 || yield_op.operand(0) != combine.result(0) {
        return None;
    }
    let code = match combine.name().as_str() {
        "arith.addf" => 11,
        "arith.addi" => 1,
        _ => return None,
    };
    let (a, c) = (combine.operand(0), combine.operand(1));
    let other = if a == current && c != current {
        c
    } else if c == current && a != current {
        a
    } else {
        return None;
    };
    Some((code, other))
}

fn lower_atomic(op: Op) -> Result<()> {
    let operands = op.operands();
    let tensor = operands[0];
    let ty = element_type(tensor.raw_type());
    let b = B::before(op);
    let index = linear_index(op, &operands[1..])?;
    let body = op.region_block(0).ok_or_else(|| bug("xla.atomic_rmw without a body"))?;
    if is_vector(block_args(body)[0].raw_type()) {
        return Err(error("vector xla.atomic_rmw has no CPU lowering"));
    }
    let bits = bit_width(ty);
    if is_complex(ty) || !matches!(storage(ty), Storage::Direct | Storage::Byte) && !is_float(ty) {
        return Err(error(format!("xla.atomic_rmw of {} has no CPU lowering", type_to_string(ty))));
    }
    let mem = memory_type(&b, ty);
    let ptr = element_ptr(&b, tensor, index, mem);
    if let Some((code, x)) = simple_rmw(body).filter(|_| matches!(storage(ty), Storage::Direct)) {
        b.val(
            "llvm.atomicrmw",
            &[ptr, x],
            ty,
            &[("bin_op", b.int_attr(b.int(64), code)), ("ordering", b.int_attr(b.int(64), 2))],
        );
        replace_op(op, &[tensor]);
        return Ok(());
    }
    // Compare-and-swap loop over the element's bits.
    let int = b.int(bits.max(8).next_power_of_two());
    let init = load(&b, ptr, int);
    let (before, before_block) = region_with_block(&[int], b.loc);
    let (after, after_block) = region_with_block(&[int], b.loc);
    let while_op = b.op("scf.while", &[init], &[int], &[], vec![before, after]);
    let bb = b.append(before_block);
    let current_bits = block_args(before_block)[0];
    let current = match storage(ty) {
        Storage::Byte => bb.val("arith.trunci", &[current_bits], ty, &[]),
        _ if is_float(ty) => {
            let same = bb.int(bits);
            let narrowed = if bits < 8 { bb.val("arith.trunci", &[current_bits], same, &[]) } else { current_bits };
            bb.val("arith.bitcast", &[narrowed], ty, &[])
        }
        _ => current_bits,
    };
    block_args(body)[0].replace_all_uses_with(current);
    let yield_op = terminator(body).ok_or_else(|| bug("atomic_rmw body without a terminator"))?;
    let new_value = yield_op.operand(0);
    yield_op.erase();
    move_block_ops(body, before_block);
    let new_bits = match storage(ty) {
        Storage::Byte => bb.val("arith.extui", &[new_value], int, &[]),
        _ if is_float(ty) => {
            let same = bb.int(bits);
            let as_int = bb.val("arith.bitcast", &[new_value], same, &[]);
            if bits < 8 {
                bb.val("arith.extui", &[as_int], int, &[])
            } else {
                as_int
            }
        }
        _ => new_value,
    };
    let pair_ty = unsafe { mlirLLVMStructTypeLiteralGet(b.ctx, 2, [int, b.int(1)].as_ptr(), false) };
    let pair = bb.val(
        "llvm.cmpxchg",
        &[ptr, current_bits, new_bits],
        pair_ty,
        &[("success_ordering", bb.int_attr(bb.int(64), 6)), ("failure_ordering", bb.int_attr(bb.int(64), 2))],
    );
    let seen = bb.val("llvm.extractvalue", &[pair], int, &[("position", bb.i64_array(&[0]))]);
    let ok = bb.val("llvm.extractvalue", &[pair], bb.int(1), &[("position", bb.i64_array(&[1]))]);
    let one = bb.const_bool(true);
    let again = bb.val("arith.xori", &[ok, one], bb.int(1), &[]);
    bb.op("scf.condition", &[again, seen], &[], &[], vec![]);
    let after_arg = block_args(after_block)[0];
    b.yield_in(after_block, &[after_arg]);
    let _ = while_op;
    replace_op(op, &[tensor]);
    Ok(())
}

/// Kernels with at most this many buffers take them as arguments
/// (`@k(ptr, ..., ptr, i64 workgroup)`); larger ones take an array of
/// them (`@k(ptr buffers, i64 workgroup)`). The runtime calls a kernel by
/// the number of buffers it passes, with the same rule.
pub const MAX_DIRECT_BUFFERS: usize = 32;

/// The CPU kernel ABI of the entry function (see the module comment). Its
/// buffer arguments are 64-byte aligned and do not alias (unless the
/// kernel updates a buffer in place), so that loads and stores of
/// different buffers can be reordered and vectorized; the workgroup id is
/// the last argument. With at most [`MAX_DIRECT_BUFFERS`] buffers that is
/// the kernel. With more, the body becomes the internal, never inlined
/// `@<name>_impl`, and `@<name>(ptr %buffers, index)` loads the pointers
/// and calls it. (A wrapper for every kernel cost LLVM about 0.5 ms of
/// optimization and code generation per kernel: a third of what a small
/// kernel costs.)
fn lower_entry_abi(func: Op) -> Result<()> {
    let block = func.region_block(0).ok_or_else(|| bug("entry function without a body"))?;
    let name = func.string_attr("sym_name").ok_or_else(|| bug("entry function without a name"))?;
    let b = B::before(func);
    let ptr = b.ptr();
    let index = b.index();
    let old_args = block_args(block);
    if let Some(a) = old_args.iter().find(|a| !is_ranked_tensor(a.raw_type())) {
        return Err(error(format!(
            "kernel @{name}: entry argument of type {} (the CPU kernel ABI passes only buffers)",
            type_to_string(a.raw_type())
        )));
    }
    let workgroup = unsafe { Value(mlirBlockAddArgument(block, index, func.location())) };
    for op in walk(func) {
        if op.is_named("xla.workgroup_id") {
            replace_op(op, &[workgroup]);
        }
    }
    if let Some(ret) = terminator(block).filter(|t| t.is_named("func.return")) {
        B::before(ret).op("func.return", &[], &[], &[], vec![]);
        ret.erase();
    }
    let in_place = func.has_attr("xla.in_place");
    let buffer_attrs = buffer_arg_attrs(&b, in_place, 64);
    let mut attrs = vec![buffer_attrs; old_args.len()];
    attrs.push(b.dict_attr(&[]));
    func.set_attr_raw("arg_attrs", b.array_attr(&attrs));
    func.remove_attr("res_attrs");
    if old_args.len() <= MAX_DIRECT_BUFFERS {
        return Ok(());
    }
    func.remove_attr("xla.entry");
    let impl_name = format!("{name}_impl");
    func.set_attr_raw("sym_name", b.string_attr(&impl_name));
    func.set_attr_raw("sym_visibility", b.string_attr("private"));
    // Internal and never inlined (func-to-llvm reads `llvm.linkage` and
    // passes `passthrough` on): LLVM optimizes and compiles the body once,
    // as the wrapper's one callee, with its `noalias` arguments intact. An
    // external body was compiled twice (itself, and inlined into the
    // wrapper); an internal one that is inlined goes through the function
    // simplification pipeline twice. The call costs once per workgroup.
    func.set_attr_raw("llvm.linkage", b.linkage(MlirLLVMLinkage_MlirLLVMLinkageInternal));
    func.set_attr_raw("passthrough", b.array_attr(&[b.string_attr("noinline")]));

    // The wrapper with the runtime's calling convention.
    let (region, body) = region_with_block(&[ptr, index], func.location());
    let wrapper_type = make_function_type(b.ctx, &[ptr, index], &[]);
    let next = func.next();
    let wb = match next {
        Some(n) => B::before(n),
        None => {
            b.at_end(func.parent().and_then(|m| m.region_block(0)).ok_or_else(|| bug("function outside a module"))?)
        }
    };
    let wrapper = wb.op(
        "func.func",
        &[],
        &[],
        &[
            ("sym_name", b.string_attr(&name)),
            ("function_type", b.type_attr(wrapper_type)),
            ("xla.entry", b.unit_attr()),
        ],
        vec![region],
    );
    let _ = wrapper;
    let args = block_args(body);
    let bb = b.append(body);
    let mut call_args = Vec::new();
    for i in 0..old_args.len() {
        let slot = bb.val(
            "llvm.getelementptr",
            &[args[0]],
            ptr,
            &[("elem_type", bb.type_attr(ptr)), ("rawConstantIndices", bb.i32_array(&[i as i32]))],
        );
        call_args.push(bb.val(
            "llvm.load",
            &[slot],
            ptr,
            &[("ordering", bb.int_attr(bb.int(64), 0)), ("invariant", bb.unit_attr())],
        ));
    }
    call_args.push(args[1]);
    bb.op("func.call", &call_args, &[], &[("callee", bb.symbol_attr(&impl_name))], vec![]);
    bb.op("func.return", &[], &[], &[], vec![]);
    Ok(())
}

/// Loads the NVVM dialect (not among melior's dialect handles) into the
/// module's context.
pub fn load_nvvm(root: Op) {
    // SAFETY: a live context; loading a registered dialect is idempotent.
    unsafe {
        mlirContextGetOrLoadDialect(root.context(), string_ref("nvvm"));
    }
}

/// `xla_gpu.sync_threads %t...`: a block-wide barrier; the tensors it
/// orders are the same buffers afterwards.
fn lower_sync_threads(op: Op) {
    let b = B::before(op);
    b.op("nvvm.barrier0", &[], &[], &[], vec![]);
    let operands = op.operands();
    replace_op(op, &operands);
}

/// `gpu.thread_id x` / `gpu.block_id x`: the PTX special register (i32,
/// with the range the emitter put in `xla.range`, so LLVM can drop
/// overflow checks), as an index.
fn lower_thread_index(op: Op) -> Result<()> {
    let dim = op.attr_raw("dimension").map(attr_to_string).unwrap_or_default();
    // `#gpu<dim x>`
    let axis = dim.trim_end_matches('>').rsplit([' ', '<']).next().filter(|a| ["x", "y", "z"].contains(a));
    let axis = axis.ok_or_else(|| bug(format!("{} with dimension {dim}", op.name())))?;
    let register = if op.is_named("gpu.thread_id") { "tid" } else { "ctaid" };
    let b = B::before(op);
    let i32t = b.int(32);
    let mut attrs = Vec::new();
    if let Some((lo, hi)) = op.attr_raw("xla.range").and_then(range_bounds) {
        // LLVM ranges are half-open.
        if lo >= 0 && hi < i32::MAX as i64 {
            attrs.push(("range", b.constant_range(32, lo, hi + 1)));
        }
    }
    let raw = b.val(&format!("nvvm.read.ptx.sreg.{register}.{axis}"), &[], i32t, &attrs);
    let index = b.val("arith.index_castui", &[raw], b.index(), &[]);
    replace_op(op, &[index]);
    Ok(())
}

/// `xla_gpu.allocate_shared : tensor<N x T>`: a block's shared-memory
/// array, as a generic pointer to an uninitialized global in address space
/// 3 (NVPTX infers the address space back, so accesses are `ld.shared` /
/// `st.shared`).
fn lower_allocate_shared(op: Op, k: usize) -> Result<()> {
    let ty = op.result(0).raw_type();
    let elem = element_type(ty);
    let n: i64 = shape_of(ty).iter().product();
    let b = B::before(op);
    let mem = memory_type(&b, elem);
    let array = unsafe { mlirLLVMArrayTypeGet(mem, n.max(1) as u32) };
    let module = op.parent_module().ok_or_else(|| bug("allocate_shared outside a module"))?;
    let func = op.parent_func().and_then(|f| f.string_attr("sym_name")).unwrap_or_default();
    let name = format!("{func}_shmem{k}");
    let body = module.region_block(0).ok_or_else(|| bug("module without a body"))?;
    let first = block_ops(body).into_iter().next().ok_or_else(|| bug("empty module"))?;
    let init = unsafe { mlirRegionCreate() };
    B::before(first).op(
        "llvm.mlir.global",
        &[],
        &[],
        &[
            ("global_type", b.type_attr(array)),
            ("sym_name", b.string_attr(&name)),
            ("linkage", b.linkage(MlirLLVMLinkage_MlirLLVMLinkagePrivate)),
            ("alignment", b.int_attr(b.int(64), 16)),
            ("addr_space", b.int_attr(b.int(32), 3)),
        ],
        vec![init],
    );
    let shared = b.val("llvm.mlir.addressof", &[], b.ptr_in(3), &[("global_name", b.symbol_attr(&name))]);
    let generic = b.val("llvm.addrspacecast", &[shared], b.ptr(), &[]);
    replace_op(op, &[generic]);
    Ok(())
}

/// The PTX name of kernel `name`: PTX identifiers are `[A-Za-z_$][A-Za-z0-9_$]*`,
/// HLO names have dots (`fusion.1`), which become `$` (other characters
/// `$x` and their hex code; a leading digit gets a `_`), so distinct HLO
/// names stay distinct.
pub fn ptx_name(name: &str) -> String {
    let mut out = String::new();
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        out.push('_');
    }
    for c in name.chars() {
        match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '_' => out.push(c),
            '.' => out.push('$'),
            other => out.push_str(&format!("$x{:02x}", other as u32)),
        }
    }
    out
}

/// The GPU kernel ABI of the entry function (see the module comment).
/// The kernel becomes an `llvm.func` right away: the NVVM attributes are
/// only valid there (its body is still `scf` and `arith`, which
/// `convert-to-llvm` converts wherever they are).
fn lower_gpu_entry_abi(func: Op) -> Result<()> {
    let block = func.region_block(0).ok_or_else(|| bug("entry function without a body"))?;
    let name = func.string_attr("sym_name").ok_or_else(|| bug("entry function without a name"))?;
    let b = B::before(func);
    let args = block_args(block);
    if let Some(a) = args.iter().find(|a| !is_ranked_tensor(a.raw_type())) {
        return Err(op_error(
            func,
            format!(
                "kernel @{name}: entry argument of type {} (the GPU kernel ABI passes only buffers)",
                type_to_string(a.raw_type())
            ),
        ));
    }
    if let Some(ret) = terminator(block).filter(|t| t.is_named("func.return")) {
        B::before(ret).op("llvm.return", &[], &[], &[], vec![]);
        ret.erase();
    }
    let in_place = func.has_attr("xla.in_place");
    let buffer_attrs = buffer_arg_attrs(&b, in_place, 16);
    let ptrs = vec![b.ptr(); args.len()];
    let fty = unsafe { mlirLLVMFunctionTypeGet(mlirLLVMVoidTypeGet(b.ctx), ptrs.len() as isize, ptrs.as_ptr(), false) };
    let mut attrs = vec![
        ("sym_name", b.string_attr(&name)),
        ("function_type", b.type_attr(fty)),
        ("arg_attrs", b.array_attr(&vec![buffer_attrs; args.len()])),
        ("linkage", b.linkage(MlirLLVMLinkage_MlirLLVMLinkageExternal)),
        ("nvvm.kernel", b.unit_attr()),
    ];
    if let Some(threads) = func.dims_attr("xla.thread_counts") {
        let threads: Vec<i32> = threads.iter().map(|&t| t as i32).collect();
        attrs.push(("nvvm.maxntid", b.i32_array(&threads)));
    }
    // The launch description stays readable in the llvm-mlir stage.
    let kept: Vec<(String, MlirAttribute)> =
        func.attrs_raw().into_iter().filter(|(k, _)| k.starts_with("xla.") && k != "xla.entry").collect();
    for (k, v) in &kept {
        attrs.push((k.as_str(), *v));
    }
    let symbol = ptx_name(&name);
    attrs[0] = ("sym_name", b.string_attr(&symbol));
    let region = unsafe { mlirRegionCreate() };
    let kernel = b.op("llvm.func", &[], &[], &attrs, vec![region]);
    unsafe { mlirRegionTakeBody(mlirOperationGetRegion(kernel.raw(), 0), mlirOperationGetRegion(func.raw(), 0)) };
    func.erase();
    Ok(())
}
