//! Where GPU programs run: a [`Backend`] is device memory, kernel
//! launches and gemms.
//!
//! - [`Device`]: the CUDA driver, through cudarc's dynamically loaded
//!   bindings: rxla links no CUDA library, so it builds and runs its CPU
//!   backend where none is installed; [`Device::open`] says so when there
//!   is no driver. One device (ordinal 0), its primary context and one
//!   stream; cuBLAS when `libcublas` can be loaded.
//! - [`HostBackend`]: the same operations on the host (memory is host
//!   memory, kernels are the fusions compiled for the CPU, gemms a
//!   reference column-major gemm with cuBLAS's argument conventions), so
//!   the GPU runtime's plan, staging, control flow and gemm mapping are
//!   tested where there is no GPU (`hlo-run --platform=gpu --emulate-gpu`).

use super::{
    plan::Gemm,
    sort::{DeviceSort, SortKernels},
};
use crate::executor::KernelFn;
use cudarc::{
    cublas::{result as blas, sys as blas_sys},
    driver::{result as cu, sys},
};
use rxla_library::array::{Buffer, ElementType};
use std::{
    collections::HashMap,
    ffi::{c_void, CString},
    sync::{Arc, Mutex},
};

/// A loaded kernel.
#[derive(Clone, Copy)]
pub enum Kernel {
    Cuda(sys::CUfunction),
    /// The fusion compiled for the CPU, run over its workgroups.
    Host {
        function: KernelFn,
        workgroups: i64,
    },
}

// SAFETY: function handles are immutable once loaded.
unsafe impl Send for Kernel {}
unsafe impl Sync for Kernel {}

/// Device memory, kernels and gemms.
pub trait Backend: Send + Sync {
    /// The device's name (and SM).
    fn describe(&self) -> String;
    /// Makes the backend usable on this thread.
    fn bind(&self) -> Result<(), String>;
    /// `bytes` of device memory (uninitialized); 0 for 0 bytes.
    fn alloc(&self, bytes: usize) -> Result<u64, String>;
    /// Frees what `alloc` returned.
    fn free(&self, ptr: u64);
    /// Host to device (after everything queued).
    fn write(&self, dst: u64, data: &[u8]) -> Result<(), String>;
    /// Device to host (after everything queued).
    fn read(&self, src: u64, out: &mut [u8]) -> Result<(), String>;
    /// Device to device, queued.
    fn copy(&self, dst: u64, src: u64, bytes: usize) -> Result<(), String>;
    /// Waits for everything queued.
    fn synchronize(&self) -> Result<(), String>;
    /// Launches `kernel` with buffer arguments (device addresses).
    fn launch(&self, kernel: &Kernel, blocks: [i64; 3], threads: [i64; 3], args: &[u64]) -> Result<(), String>;
    /// Whether [`Backend::gemm`] is available.
    fn has_gemm(&self) -> bool;
    /// `out = lhs . rhs` as the strided-batched gemm `g` (cuBLAS's
    /// column-major conventions: A is the rhs, B the lhs).
    fn gemm(&self, g: &Gemm, lhs: u64, rhs: u64, out: u64) -> Result<(), String>;
    /// Sorts `operands` in place by `keys` as `s` says (queued).
    fn sort_by_keys(&self, s: &DeviceSort, keys: u64, operands: &[u64]) -> Result<(), String>;
}

/// A GPU, ready to run kernels.
pub struct Device {
    device: sys::CUdevice,
    context: sys::CUcontext,
    pub stream: sys::CUstream,
    /// The device's memory pool, where the driver has one: memory is then
    /// allocated and freed in stream order (`cuMemAllocAsync`) and the
    /// pool keeps what is freed for the next run, as XLA's allocator does.
    /// Without it, every run pays `cuMemAlloc` and `cuMemFree`, which
    /// waits for the device: 0.1-0.3 ms a run on an H200.
    pool: Option<sys::CUmemoryPool>,
    /// cuBLAS, when the library is present.
    pub cublas: Option<blas_sys::cublasHandle_t>,
    pub name: String,
    pub compute_capability: (i32, i32),
    /// The device library's sort kernels, loaded at the first sort.
    sort_kernels: std::sync::OnceLock<Result<SortKernels, String>>,
}

// SAFETY: the context is made current on every thread before use; the
// stream and cuBLAS handle are used by one run at a time (runs hold the
// executable's device lock).
unsafe impl Send for Device {}
unsafe impl Sync for Device {}

fn driver_error(what: &str, e: cu::DriverError) -> String {
    let name = e.error_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|_| format!("{:?}", e.0));
    format!("{what}: {name}")
}

impl Device {
    /// The first GPU, or why there is none.
    pub fn open() -> Result<Arc<Device>, String> {
        // SAFETY: probing for the library has no other effect.
        if !unsafe { sys::is_culib_present() } {
            return Err(
                "no CUDA driver (libcuda.so) on this machine: --platform=gpu needs an NVIDIA GPU and its driver".into(),
            );
        }
        cu::init().map_err(|e| driver_error("cuInit", e))?;
        let count = cu::device::get_count().map_err(|e| driver_error("cuDeviceGetCount", e))?;
        if count == 0 {
            return Err("the CUDA driver sees no GPU".into());
        }
        let device = cu::device::get(0).map_err(|e| driver_error("cuDeviceGet", e))?;
        let name = cu::device::get_name(device).map_err(|e| driver_error("cuDeviceGetName", e))?;
        let attribute = |a| unsafe { cu::device::get_attribute(device, a) };
        let major = attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
            .map_err(|e| driver_error("cuDeviceGetAttribute", e))?;
        let minor = attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
            .map_err(|e| driver_error("cuDeviceGetAttribute", e))?;
        // SAFETY: a device from cuDeviceGet.
        let context =
            unsafe { cu::primary_ctx::retain(device) }.map_err(|e| driver_error("cuDevicePrimaryCtxRetain", e))?;
        unsafe { cu::ctx::set_current(context) }.map_err(|e| driver_error("cuCtxSetCurrent", e))?;
        let stream =
            cu::stream::create(cu::stream::StreamKind::NonBlocking).map_err(|e| driver_error("cuStreamCreate", e))?;
        // SAFETY: probing for the library has no other effect.
        let cublas = if unsafe { blas_sys::is_culib_present() } {
            match blas::create_handle() {
                Ok(h) => {
                    // SAFETY: a fresh handle and a live stream.
                    unsafe { blas::set_stream(h, stream as blas_sys::cudaStream_t) }.ok().map(|_| h)
                }
                Err(_) => None,
            }
        } else {
            None
        };
        let pool = Self::keeping_pool(device, attribute);
        Ok(Arc::new(Device {
            device,
            context,
            stream,
            pool,
            cublas,
            name,
            compute_capability: (major, minor),
            sort_kernels: std::sync::OnceLock::new(),
        }))
    }

    /// The device's default memory pool, set to keep freed memory (its
    /// release threshold is the whole device), or `None` where the driver
    /// has no pools (`RXLA_GPU_MEMORY_POOL=0` asks for none).
    fn keeping_pool(
        device: sys::CUdevice,
        attribute: impl Fn(sys::CUdevice_attribute) -> Result<i32, cu::DriverError>,
    ) -> Option<sys::CUmemoryPool> {
        if std::env::var("RXLA_GPU_MEMORY_POOL").is_ok_and(|v| v == "0") {
            return None;
        }
        let supported = attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED).ok()?;
        if supported == 0 {
            return None;
        }
        let mut pool = std::ptr::null_mut();
        let mut threshold = u64::MAX;
        // SAFETY: a live device; the attribute takes a pointer to a u64.
        unsafe {
            sys::cuDeviceGetDefaultMemPool(&mut pool, device).result().ok()?;
            sys::cuMemPoolSetAttribute(
                pool,
                sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                &mut threshold as *mut u64 as *mut c_void,
            )
            .result()
            .ok()?;
        }
        Some(pool)
    }

    /// Loads `ptx` (JIT-compiled by the driver for this GPU) and looks up
    /// `names`.
    pub fn load(&self, ptx: &str, names: &[String]) -> Result<Vec<sys::CUfunction>, String> {
        let image = CString::new(ptx).map_err(|_| "the PTX contains a NUL byte".to_string())?;
        // SAFETY: a NUL-terminated PTX image; the module stays loaded for
        // the life of the process (kernels are looked up once).
        let module = unsafe { cu::module::load_data(image.as_ptr() as *const c_void) }.map_err(|e| {
            driver_error(
                &format!(
                    "loading the PTX on {} (sm_{}{})",
                    self.name, self.compute_capability.0, self.compute_capability.1
                ),
                e,
            )
        })?;
        names
            .iter()
            .map(|n| {
                let c = CString::new(n.as_str()).map_err(|_| format!("kernel name {n:?}"))?;
                // SAFETY: a loaded module.
                unsafe { cu::module::get_function(module, c) }.map_err(|e| driver_error(&format!("kernel {n}"), e))
            })
            .collect()
    }
}

impl Backend for Device {
    fn describe(&self) -> String {
        format!("{} (sm_{}{})", self.name, self.compute_capability.0, self.compute_capability.1)
    }

    fn bind(&self) -> Result<(), String> {
        // SAFETY: a live context.
        unsafe { cu::ctx::set_current(self.context) }.map_err(|e| driver_error("cuCtxSetCurrent", e))
    }

    fn alloc(&self, bytes: usize) -> Result<u64, String> {
        if bytes == 0 {
            return Ok(0);
        }
        let Some(pool) = self.pool else {
            // SAFETY: the context is current (callers bind first).
            return unsafe { cu::malloc_sync(bytes) }
                .map_err(|e| driver_error(&format!("cuMemAlloc of {bytes} bytes"), e));
        };
        // SAFETY: a live stream; every use of the memory is on it (host
        // copies synchronize it first).
        match unsafe { cu::malloc_async(self.stream, bytes) } {
            Ok(ptr) => Ok(ptr),
            Err(_) => {
                // Out of memory with the pool holding freed blocks: give
                // them back to the device and try once more.
                self.synchronize()?;
                // SAFETY: the pool of this device; nothing queued uses
                // its free blocks.
                unsafe { sys::cuMemPoolTrimTo(pool, 0) }.result().map_err(|e| driver_error("cuMemPoolTrimTo", e))?;
                unsafe { cu::malloc_async(self.stream, bytes) }
                    .map_err(|e| driver_error(&format!("cuMemAllocAsync of {bytes} bytes"), e))
            }
        }
    }

    fn free(&self, ptr: u64) {
        if ptr == 0 {
            return;
        }
        let _ = self.bind();
        if self.pool.is_some() {
            // SAFETY: allocated by cuMemAllocAsync, freed once, after the
            // work queued on the stream that uses it.
            unsafe {
                let _ = cu::free_async(ptr, self.stream);
            }
        } else {
            let _ = self.synchronize();
            // SAFETY: allocated by cuMemAlloc, freed once.
            unsafe {
                let _ = cu::free_sync(ptr);
            }
        }
    }

    fn write(&self, dst: u64, data: &[u8]) -> Result<(), String> {
        if data.is_empty() {
            return Ok(());
        }
        self.synchronize()?;
        // SAFETY: `dst` holds at least `data.len()` bytes (the caller's
        // buffer of that slot).
        unsafe { cu::memcpy_htod_sync(dst, data) }.map_err(|e| driver_error("cuMemcpyHtoD", e))
    }

    fn read(&self, src: u64, out: &mut [u8]) -> Result<(), String> {
        if out.is_empty() {
            return Ok(());
        }
        self.synchronize()?;
        // SAFETY: `src` holds at least `out.len()` bytes.
        unsafe { cu::memcpy_dtoh_sync(out, src) }.map_err(|e| driver_error("cuMemcpyDtoH", e))
    }

    fn copy(&self, dst: u64, src: u64, bytes: usize) -> Result<(), String> {
        if bytes == 0 || dst == src {
            return Ok(());
        }
        // SAFETY: both addresses hold `bytes` bytes.
        unsafe { cu::memcpy_dtod_async(dst, src, bytes, self.stream) }.map_err(|e| driver_error("cuMemcpyDtoD", e))
    }

    fn synchronize(&self) -> Result<(), String> {
        // SAFETY: a live stream.
        unsafe { cu::stream::synchronize(self.stream) }
            .map_err(|e| driver_error("running on the GPU (cuStreamSynchronize)", e))
    }

    fn launch(&self, kernel: &Kernel, blocks: [i64; 3], threads: [i64; 3], args: &[u64]) -> Result<(), String> {
        let Kernel::Cuda(function) = *kernel else { return Err("internal error: a host kernel on the GPU".into()) };
        let mut values: Vec<u64> = args.to_vec();
        let mut params: Vec<*mut c_void> = values.iter_mut().map(|v| v as *mut u64 as *mut c_void).collect();
        let dim = |d: [i64; 3]| (d[0] as u32, d[1] as u32, d[2] as u32);
        // SAFETY: a loaded kernel whose parameters are `args.len()` device
        // pointers; `params` points at live values during the call.
        unsafe { cu::launch_kernel(function, dim(blocks), dim(threads), 0, self.stream, &mut params) }
            .map_err(|e| driver_error("cuLaunchKernel", e))
    }

    fn has_gemm(&self) -> bool {
        self.cublas.is_some()
    }

    fn gemm(&self, g: &Gemm, lhs: u64, rhs: u64, out: u64) -> Result<(), String> {
        cublas_gemm(self, g, lhs, rhs, out)
    }

    fn sort_by_keys(&self, s: &DeviceSort, keys: u64, operands: &[u64]) -> Result<(), String> {
        let kernels = self
            .sort_kernels
            .get_or_init(|| {
                let names: Vec<String> = super::sort::KERNEL_NAMES.iter().map(|n| n.to_string()).collect();
                let f = self.load(super::sort::PTX, &names)?;
                Ok(SortKernels {
                    init: Kernel::Cuda(f[0]),
                    histogram: Kernel::Cuda(f[1]),
                    scan: Kernel::Cuda(f[2]),
                    bases: Kernel::Cuda(f[3]),
                    scatter: Kernel::Cuda(f[4]),
                    gather: Kernel::Cuda(f[5]),
                })
            })
            .clone()?;
        super::sort::run(self, &kernels, s, keys, operands)
    }
}

/// `out = lhs . rhs` as one cuBLAS strided-batched gemm (see [`Gemm`]).
fn cublas_gemm(device: &Device, g: &Gemm, lhs: u64, rhs: u64, out: u64) -> Result<(), String> {
    use blas_sys::{cublasComputeType_t as C, cublasGemmAlgo_t, cublasOperation_t as O, cudaDataType as D};
    let handle = device.cublas.ok_or("internal error: no cuBLAS handle")?;
    let (ty, compute) = match g.ty {
        ElementType::F32 => (D::CUDA_R_32F, C::CUBLAS_COMPUTE_32F),
        ElementType::F64 => (D::CUDA_R_64F, C::CUBLAS_COMPUTE_64F),
        ElementType::F16 => (D::CUDA_R_16F, C::CUBLAS_COMPUTE_32F),
        ElementType::Bf16 => (D::CUDA_R_16BF, C::CUBLAS_COMPUTE_32F),
        other => return Err(format!("internal error: cuBLAS gemm of {}", other.name())),
    };
    let op = |t: bool| if t { O::CUBLAS_OP_T } else { O::CUBLAS_OP_N };
    let (one32, zero32, one64, zero64) = (1f32, 0f32, 1f64, 0f64);
    let (alpha, beta): (*const c_void, *const c_void) = if g.ty == ElementType::F64 {
        (&one64 as *const f64 as *const _, &zero64 as *const f64 as *const _)
    } else {
        (&one32 as *const f32 as *const _, &zero32 as *const f32 as *const _)
    };
    // SAFETY: the three device buffers hold the row-major operands the
    // gemm's sizes and strides describe (plan::gemm computed them from
    // the slots' shapes); alpha and beta live across the call.
    unsafe {
        blas::gemm_strided_batched_ex(
            handle,
            op(g.trans_a),
            op(g.trans_b),
            g.m as i32,
            g.n as i32,
            g.k as i32,
            alpha,
            rhs as *const _,
            ty,
            g.lda as i32,
            g.stride_a,
            lhs as *const _,
            ty,
            g.ldb as i32,
            g.stride_b,
            beta,
            out as *mut _,
            ty,
            g.ldc as i32,
            g.stride_c,
            g.batch as i32,
            compute,
            cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
        )
    }
    .map_err(|err| format!("cuBLAS gemm ({} batch {} m {} n {} k {}): {err}", g.ty.name(), g.batch, g.m, g.n, g.k))
}

impl Drop for Device {
    fn drop(&mut self) {
        // SAFETY: nothing uses the handles after the device goes.
        unsafe {
            if let Some(h) = self.cublas {
                let _ = blas::destroy_handle(h);
            }
            let _ = cu::stream::synchronize(self.stream);
            if let Some(pool) = self.pool {
                let _ = sys::cuMemPoolTrimTo(pool, 0);
            }
            let _ = cu::stream::destroy(self.stream);
            let _ = cu::primary_ctx::release(self.device);
        }
    }
}

/// Device memory of a backend, freed on drop.
pub struct DeviceBuffer {
    pub ptr: u64,
    pub bytes: usize,
    device: Arc<dyn Backend>,
}

impl DeviceBuffer {
    /// `bytes` of `device`'s memory (uninitialized).
    pub fn alloc(device: &Arc<dyn Backend>, bytes: usize) -> Result<DeviceBuffer, String> {
        Ok(DeviceBuffer { ptr: device.alloc(bytes)?, bytes, device: device.clone() })
    }

    /// A device copy of `data`.
    pub fn upload(device: &Arc<dyn Backend>, data: &[u8]) -> Result<DeviceBuffer, String> {
        let buffer = DeviceBuffer::alloc(device, data.len())?;
        device.write(buffer.ptr, data)?;
        Ok(buffer)
    }

    /// The buffer's bytes on the host.
    pub fn to_host(&self) -> Result<Vec<u8>, String> {
        let mut out = vec![0u8; self.bytes];
        self.device.read(self.ptr, &mut out)?;
        Ok(out)
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        self.device.free(self.ptr);
    }
}

/// The GPU runtime's operations on the host (see the module comment).
pub struct HostBackend {
    /// Live allocations by address (64-byte aligned, like the CPU's).
    memory: Mutex<HashMap<u64, Buffer>>,
}

impl HostBackend {
    pub fn new() -> HostBackend {
        HostBackend { memory: Mutex::new(HashMap::new()) }
    }
}

impl Default for HostBackend {
    fn default() -> HostBackend {
        HostBackend::new()
    }
}

impl Backend for HostBackend {
    fn describe(&self) -> String {
        "the host (GPU emulation)".into()
    }

    fn bind(&self) -> Result<(), String> {
        Ok(())
    }

    fn alloc(&self, bytes: usize) -> Result<u64, String> {
        if bytes == 0 {
            return Ok(0);
        }
        let mut b = Buffer::zeroed(bytes);
        let ptr = b.as_mut_ptr() as u64;
        self.memory.lock().unwrap_or_else(|e| e.into_inner()).insert(ptr, b);
        Ok(ptr)
    }

    fn free(&self, ptr: u64) {
        self.memory.lock().unwrap_or_else(|e| e.into_inner()).remove(&ptr);
    }

    fn write(&self, dst: u64, data: &[u8]) -> Result<(), String> {
        // SAFETY: `dst` is host memory of this backend with room for `data`
        // (the executor's slot sizes).
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), dst as *mut u8, data.len()) };
        Ok(())
    }

    fn read(&self, src: u64, out: &mut [u8]) -> Result<(), String> {
        // SAFETY: as in `write`.
        unsafe { std::ptr::copy_nonoverlapping(src as *const u8, out.as_mut_ptr(), out.len()) };
        Ok(())
    }

    fn copy(&self, dst: u64, src: u64, bytes: usize) -> Result<(), String> {
        if bytes > 0 && dst != src {
            // SAFETY: distinct buffers of at least `bytes` bytes.
            unsafe { std::ptr::copy_nonoverlapping(src as *const u8, dst as *mut u8, bytes) };
        }
        Ok(())
    }

    fn synchronize(&self) -> Result<(), String> {
        Ok(())
    }

    fn launch(&self, kernel: &Kernel, _blocks: [i64; 3], _threads: [i64; 3], args: &[u64]) -> Result<(), String> {
        let Kernel::Host { function, workgroups } = *kernel else {
            return Err("internal error: a GPU kernel on the host".into());
        };
        let ptrs: Vec<*mut u8> = args.iter().map(|&a| a as *mut u8).collect();
        let _flush = crate::pool::FlushDenormals::new();
        for wg in 0..workgroups.max(1) {
            // SAFETY: the kernel (the fusion compiled with the CPU kernel
            // ABI) reads and writes the buffers of its arguments, which
            // are live host memory of the slots' sizes.
            unsafe { function.call(ptrs.as_ptr(), ptrs.len(), wg) };
        }
        Ok(())
    }

    fn has_gemm(&self) -> bool {
        true
    }

    fn gemm(&self, g: &Gemm, lhs: u64, rhs: u64, out: u64) -> Result<(), String> {
        reference_gemm(g, lhs as *const u8, rhs as *const u8, out as *mut u8)
    }

    /// The host's key sort on the same buffers (the device's radix sort is
    /// PTX, which the host cannot run; its plan and buffers are what
    /// emulation checks).
    fn sort_by_keys(&self, s: &DeviceSort, keys: u64, operands: &[u64]) -> Result<(), String> {
        use rxla_library::array::{byte_size, ArrayMut, ArrayRef};
        let dims = [s.slices as i64, s.len as i64];
        let n = s.elements() as usize;
        // SAFETY: host memory of this backend holding the slots' n
        // elements (the plan's shapes); the operands are distinct buffers.
        let keys = ArrayRef::new(s.key_type, &dims, unsafe {
            std::slice::from_raw_parts(keys as *const u8, n * byte_size(s.key_type))
        });
        let mut arrays: Vec<ArrayMut> = operands
            .iter()
            .zip(&s.operand_types)
            .map(|(&p, &ty)| {
                ArrayMut::new(ty, &dims, unsafe { std::slice::from_raw_parts_mut(p as *mut u8, n * byte_size(ty)) })
            })
            .collect();
        rxla_library::key_sort::sort_by_keys(keys, &mut arrays, 1, s.order, s.descending)
    }
}

/// cuBLAS's `gemmStridedBatched` on host memory, column-major:
/// `C[i + j ldc] = sum_p op(A)[i, p] op(B)[p, j]` per batch, with A the
/// rhs and B the lhs ([`Gemm`]), accumulated in f64.
fn reference_gemm(g: &Gemm, lhs: *const u8, rhs: *const u8, out: *mut u8) -> Result<(), String> {
    let size = match g.ty {
        ElementType::F32 => 4,
        ElementType::F64 => 8,
        ElementType::F16 | ElementType::Bf16 => 2,
        other => return Err(format!("internal error: gemm of {}", other.name())),
    };
    // SAFETY (all three): element `i` of a buffer the gemm's sizes and
    // strides lie within (the slots' shapes).
    let load = |base: *const u8, i: i64| -> f64 {
        unsafe {
            let p = base.add(i as usize * size);
            match g.ty {
                ElementType::F32 => (p as *const f32).read_unaligned() as f64,
                ElementType::F64 => (p as *const f64).read_unaligned(),
                ElementType::F16 => half::f16::from_bits((p as *const u16).read_unaligned()).to_f64(),
                _ => half::bf16::from_bits((p as *const u16).read_unaligned()).to_f64(),
            }
        }
    };
    let store = |i: i64, v: f64| unsafe {
        let p = out.add(i as usize * size);
        match g.ty {
            ElementType::F32 => (p as *mut f32).write_unaligned(v as f32),
            ElementType::F64 => (p as *mut f64).write_unaligned(v),
            ElementType::F16 => (p as *mut u16).write_unaligned(half::f16::from_f64(v).to_bits()),
            _ => (p as *mut u16).write_unaligned(half::bf16::from_f64(v).to_bits()),
        }
    };
    for b in 0..g.batch {
        for j in 0..g.n {
            for i in 0..g.m {
                let mut acc = 0f64;
                for p in 0..g.k {
                    let a = if g.trans_a { p + i * g.lda } else { i + p * g.lda };
                    let bb = if g.trans_b { j + p * g.ldb } else { p + j * g.ldb };
                    acc += load(rhs, b * g.stride_a + a) * load(lhs, b * g.stride_b + bb);
                }
                store(b * g.stride_c + i + j * g.ldc, acc);
            }
        }
    }
    Ok(())
}
