//! The CUDA driver, through cudarc's dynamically loaded bindings: rxla
//! links no CUDA library, so it builds and runs its CPU backend where
//! none is installed; [`Device::open`] says so when there is no driver.
//!
//! One device (ordinal 0), its primary context and one stream; cuBLAS when
//! `libcublas` can be loaded.

use cudarc::{
    cublas::{result as blas, sys as blas_sys},
    driver::{result as cu, sys},
};
use std::{
    ffi::{c_void, CString},
    sync::Arc,
};

/// A GPU, ready to run kernels.
pub struct Device {
    device: sys::CUdevice,
    context: sys::CUcontext,
    pub stream: sys::CUstream,
    /// cuBLAS, when the library is present.
    pub cublas: Option<blas_sys::cublasHandle_t>,
    pub name: String,
    pub compute_capability: (i32, i32),
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
            return Err("no CUDA driver (libcuda.so) on this machine: --platform=gpu needs an NVIDIA GPU and its driver".into());
        }
        cu::init().map_err(|e| driver_error("cuInit", e))?;
        let count = cu::device::get_count().map_err(|e| driver_error("cuDeviceGetCount", e))?;
        if count == 0 {
            return Err("the CUDA driver sees no GPU".into());
        }
        let device = cu::device::get(0).map_err(|e| driver_error("cuDeviceGet", e))?;
        let name = cu::device::get_name(device).map_err(|e| driver_error("cuDeviceGetName", e))?;
        let attribute = |a| unsafe { cu::device::get_attribute(device, a) };
        let major = attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR).map_err(|e| driver_error("cuDeviceGetAttribute", e))?;
        let minor = attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR).map_err(|e| driver_error("cuDeviceGetAttribute", e))?;
        // SAFETY: a device from cuDeviceGet.
        let context = unsafe { cu::primary_ctx::retain(device) }.map_err(|e| driver_error("cuDevicePrimaryCtxRetain", e))?;
        unsafe { cu::ctx::set_current(context) }.map_err(|e| driver_error("cuCtxSetCurrent", e))?;
        let stream = cu::stream::create(cu::stream::StreamKind::NonBlocking).map_err(|e| driver_error("cuStreamCreate", e))?;
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
        Ok(Arc::new(Device { device, context, stream, cublas, name, compute_capability: (major, minor) }))
    }

    /// Makes the device's context current on this thread.
    pub fn bind(&self) -> Result<(), String> {
        // SAFETY: a live context.
        unsafe { cu::ctx::set_current(self.context) }.map_err(|e| driver_error("cuCtxSetCurrent", e))
    }

    /// `bytes` of device memory (uninitialized).
    pub fn alloc(self: &Arc<Self>, bytes: usize) -> Result<DeviceBuffer, String> {
        if bytes == 0 {
            return Ok(DeviceBuffer { ptr: 0, bytes: 0, device: self.clone() });
        }
        // SAFETY: the context is current (callers bind first).
        let ptr = unsafe { cu::malloc_sync(bytes) }.map_err(|e| driver_error(&format!("cuMemAlloc of {bytes} bytes"), e))?;
        Ok(DeviceBuffer { ptr, bytes, device: self.clone() })
    }

    /// A device copy of `data`.
    pub fn upload(self: &Arc<Self>, data: &[u8]) -> Result<DeviceBuffer, String> {
        let buffer = self.alloc(data.len())?;
        self.write(buffer.ptr, data)?;
        Ok(buffer)
    }

    /// Copies `data` to device address `dst` (waits for the stream first).
    pub fn write(&self, dst: u64, data: &[u8]) -> Result<(), String> {
        if data.is_empty() {
            return Ok(());
        }
        self.synchronize()?;
        // SAFETY: `dst` holds at least `data.len()` bytes (the caller's
        // buffer of that slot).
        unsafe { cu::memcpy_htod_sync(dst, data) }.map_err(|e| driver_error("cuMemcpyHtoD", e))
    }

    /// Copies device address `src` to `out` (waits for the stream first).
    pub fn read(&self, src: u64, out: &mut [u8]) -> Result<(), String> {
        if out.is_empty() {
            return Ok(());
        }
        self.synchronize()?;
        // SAFETY: `src` holds at least `out.len()` bytes.
        unsafe { cu::memcpy_dtoh_sync(out, src) }.map_err(|e| driver_error("cuMemcpyDtoH", e))
    }

    /// A device-to-device copy on the stream.
    pub fn copy(&self, dst: u64, src: u64, bytes: usize) -> Result<(), String> {
        if bytes == 0 || dst == src {
            return Ok(());
        }
        // SAFETY: both addresses hold `bytes` bytes.
        unsafe { cu::memcpy_dtod_async(dst, src, bytes, self.stream) }.map_err(|e| driver_error("cuMemcpyDtoD", e))
    }

    /// Waits for everything queued on the stream.
    pub fn synchronize(&self) -> Result<(), String> {
        // SAFETY: a live stream.
        unsafe { cu::stream::synchronize(self.stream) }.map_err(|e| driver_error("running on the GPU (cuStreamSynchronize)", e))
    }

    /// Loads `ptx` (JIT-compiled by the driver for this GPU) and looks up
    /// `names`.
    pub fn load(&self, ptx: &str, names: &[String]) -> Result<Vec<sys::CUfunction>, String> {
        let image = CString::new(ptx).map_err(|_| "the PTX contains a NUL byte".to_string())?;
        // SAFETY: a NUL-terminated PTX image; the module stays loaded for
        // the life of the process (kernels are looked up once).
        let module = unsafe { cu::module::load_data(image.as_ptr() as *const c_void) }
            .map_err(|e| driver_error(&format!("loading the PTX on {} (sm_{}{})", self.name, self.compute_capability.0, self.compute_capability.1), e))?;
        names
            .iter()
            .map(|n| {
                let c = CString::new(n.as_str()).map_err(|_| format!("kernel name {n:?}"))?;
                // SAFETY: a loaded module.
                unsafe { cu::module::get_function(module, c) }.map_err(|e| driver_error(&format!("kernel {n}"), e))
            })
            .collect()
    }

    /// Launches `function` on the stream with buffer arguments `args`
    /// (device addresses, the kernel ABI's order).
    pub fn launch(&self, function: sys::CUfunction, blocks: [i64; 3], threads: [i64; 3], args: &[u64]) -> Result<(), String> {
        let mut values: Vec<u64> = args.to_vec();
        let mut params: Vec<*mut c_void> = values.iter_mut().map(|v| v as *mut u64 as *mut c_void).collect();
        let dim = |d: [i64; 3]| (d[0] as u32, d[1] as u32, d[2] as u32);
        // SAFETY: a loaded kernel whose parameters are `args.len()` device
        // pointers; `params` points at live values during the call.
        unsafe { cu::launch_kernel(function, dim(blocks), dim(threads), 0, self.stream, &mut params) }
            .map_err(|e| driver_error("cuLaunchKernel", e))
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        // SAFETY: nothing uses the handles after the device goes.
        unsafe {
            if let Some(h) = self.cublas {
                let _ = blas::destroy_handle(h);
            }
            let _ = cu::stream::destroy(self.stream);
            let _ = cu::primary_ctx::release(self.device);
        }
    }
}

/// Device memory, freed on drop.
pub struct DeviceBuffer {
    pub ptr: u64,
    pub bytes: usize,
    device: Arc<Device>,
}

impl DeviceBuffer {
    /// The buffer's bytes on the host.
    pub fn to_host(&self) -> Result<Vec<u8>, String> {
        let mut out = vec![0u8; self.bytes];
        self.device.read(self.ptr, &mut out)?;
        Ok(out)
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        if self.ptr != 0 {
            let _ = self.device.bind();
            let _ = self.device.synchronize();
            // SAFETY: allocated by cuMemAlloc, freed once.
            unsafe {
                let _ = cu::free_sync(self.ptr);
            }
        }
    }
}
