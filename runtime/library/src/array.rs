//! The runtime's memory format, and typed views of raw buffers.
//!
//! Every array lives in one contiguous buffer, row-major (the default
//! layout: layout normalization makes every array of a compiled module use
//! it), elements little-endian:
//!
//! | type | bytes per element |
//! |---|---|
//! | `pred` | 1 (0 or 1) |
//! | `s8 u8`, `s1 s2 s4 u1 u2 u4` (sign- or zero-extended), f8/f6/f4 (bits) | 1 |
//! | `s16 u16 f16 bf16` | 2 |
//! | `s32 u32 f32` | 4 |
//! | `s64 u64 f64`, `c64` (real, imaginary) | 8 |
//! | `c128` | 16 |
//!
//! Sub-byte types take a whole byte (like the interpreter's literals), so
//! kernels address every element directly. Buffers are 64-byte aligned,
//! so any view of a buffer is aligned for its element type.

use half::{bf16, f16};
use num_complex::{Complex32, Complex64};
use rxla_interpreter::literal::{element_count, Data, Literal};
use std::alloc::{alloc_zeroed, dealloc, Layout};

pub use rxla_hlo_text::ast::PrimitiveType as ElementType;

/// Alignment of every buffer (a cache line, and the widest vector).
pub const ALIGNMENT: usize = 64;

/// Bytes per element in the runtime's memory format (0 for tokens).
pub fn byte_size(t: ElementType) -> usize {
    use ElementType::*;
    match t {
        Pred | S1 | S2 | S4 | S8 | U1 | U2 | U4 | U8 => 1,
        F4e2m1fn | F6e2m3fn | F6e3m2fn | F8e3m4 | F8e4m3 | F8e4m3fn | F8e4m3fnuz | F8e4m3b11fnuz | F8e5m2
        | F8e5m2fnuz | F8e8m0fnu => 1,
        S16 | U16 | F16 | Bf16 => 2,
        S32 | U32 | F32 => 4,
        S64 | U64 | F64 | C64 => 8,
        C128 => 16,
        Token | Opaque => 0,
    }
}

/// The shape of an array: element type and dimensions (row-major).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArrayShape {
    pub ty: ElementType,
    pub dims: Vec<i64>,
}

impl ArrayShape {
    pub fn new(ty: ElementType, dims: Vec<i64>) -> Self {
        Self { ty, dims }
    }

    pub fn elements(&self) -> usize {
        element_count(&self.dims)
    }

    /// Size of the array in bytes.
    pub fn bytes(&self) -> usize {
        self.elements() * byte_size(self.ty)
    }
}

impl std::fmt::Display for ArrayShape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let dims: Vec<String> = self.dims.iter().map(|d| d.to_string()).collect();
        write!(f, "{}[{}]", self.ty.name(), dims.join(","))
    }
}

/// Element types with a Rust counterpart of the same memory format.
///
/// # Safety
/// Implementors are plain data: every bit pattern of `size_of::<Self>()`
/// bytes is a valid value.
pub unsafe trait Element: Copy + Send + Sync + 'static {}

macro_rules! element {
    ($($t:ty),*) => { $(unsafe impl Element for $t {})* };
}
element!(u8, i8, u16, i16, u32, i32, u64, i64, f16, bf16, f32, f64, Complex32, Complex64);

/// A read-only view of an array in a buffer.
#[derive(Clone, Copy, Debug)]
pub struct ArrayRef<'a> {
    pub ty: ElementType,
    pub dims: &'a [i64],
    pub data: &'a [u8],
}

impl<'a> ArrayRef<'a> {
    pub fn new(ty: ElementType, dims: &'a [i64], data: &'a [u8]) -> Self {
        debug_assert_eq!(data.len(), element_count(dims) * byte_size(ty));
        Self { ty, dims, data }
    }

    pub fn elements(&self) -> usize {
        element_count(self.dims)
    }

    /// The elements as `T` (panics if `T`'s size is not the element size or
    /// the data is misaligned; buffers are always aligned).
    pub fn typed<T: Element>(&self) -> &'a [T] {
        cast(self.data)
    }
}

/// A mutable view of an array in a buffer.
#[derive(Debug)]
pub struct ArrayMut<'a> {
    pub ty: ElementType,
    pub dims: &'a [i64],
    pub data: &'a mut [u8],
}

impl<'a> ArrayMut<'a> {
    pub fn new(ty: ElementType, dims: &'a [i64], data: &'a mut [u8]) -> Self {
        debug_assert_eq!(data.len(), element_count(dims) * byte_size(ty));
        Self { ty, dims, data }
    }

    pub fn elements(&self) -> usize {
        element_count(self.dims)
    }

    pub fn typed<T: Element>(&mut self) -> &mut [T] {
        cast_mut(self.data)
    }

    pub fn as_ref(&self) -> ArrayRef<'_> {
        ArrayRef { ty: self.ty, dims: self.dims, data: self.data }
    }
}

/// `bytes` as a slice of `T`.
pub fn cast<T: Element>(bytes: &[u8]) -> &[T] {
    let size = std::mem::size_of::<T>();
    assert!(bytes.len().is_multiple_of(size), "{} bytes are not a whole number of {size}-byte elements", bytes.len());
    assert!(
        (bytes.as_ptr() as usize).is_multiple_of(std::mem::align_of::<T>()) || bytes.is_empty(),
        "misaligned buffer"
    );
    // SAFETY: `T: Element` is plain data; length and alignment checked.
    unsafe { std::slice::from_raw_parts(bytes.as_ptr() as *const T, bytes.len() / size) }
}

/// `bytes` as a mutable slice of `T`.
pub fn cast_mut<T: Element>(bytes: &mut [u8]) -> &mut [T] {
    let size = std::mem::size_of::<T>();
    assert!(bytes.len().is_multiple_of(size), "{} bytes are not a whole number of {size}-byte elements", bytes.len());
    assert!(
        (bytes.as_ptr() as usize).is_multiple_of(std::mem::align_of::<T>()) || bytes.is_empty(),
        "misaligned buffer"
    );
    // SAFETY: as in `cast`, and the borrow is unique.
    unsafe { std::slice::from_raw_parts_mut(bytes.as_mut_ptr() as *mut T, bytes.len() / size) }
}

/// An owned, zero-initialized, 64-byte aligned buffer.
///
/// Large buffers (1 MiB and up) are anonymous memory maps: the OS hands out
/// zero pages lazily, so allocating costs nothing until the memory is
/// written, and there is no pass that zeroes it (an aligned `alloc_zeroed`
/// would `memset` it, doubling the cost of writing a fresh output). Maps of
/// 2 MiB and more ask for transparent huge pages, which cuts the number of
/// page faults a kernel takes when it first writes its output by 512x.
pub struct Buffer {
    ptr: *mut u8,
    len: usize,
    mapped: bool,
}

// SAFETY: a Buffer owns its allocation exclusively; sharing follows Rust's
// borrow rules through `as_slice` / `as_mut_slice`.
unsafe impl Send for Buffer {}
unsafe impl Sync for Buffer {}

/// Buffers at least this big are memory maps.
const MAP_THRESHOLD: usize = 1 << 20;

impl Buffer {
    /// `len` zero bytes.
    pub fn zeroed(len: usize) -> Buffer {
        if len == 0 {
            return Buffer { ptr: ALIGNMENT as *mut u8, len: 0, mapped: false };
        }
        if len >= MAP_THRESHOLD {
            if let Some(ptr) = map_zeroed(len) {
                return Buffer { ptr, len, mapped: true };
            }
        }
        let layout = Layout::from_size_align(len, ALIGNMENT).expect("buffer size overflows");
        // SAFETY: non-zero size.
        let ptr = unsafe { alloc_zeroed(layout) };
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Buffer { ptr, len, mapped: false }
    }

    /// A buffer whose contents are unspecified (zeros or bytes of an earlier
    /// buffer), for memory that is written completely before it is read:
    /// the outputs and arenas of an execution. Large ones come from the
    /// pool of recently freed maps, so a program run again does not take
    /// page faults for its outputs each time (XLA's allocators keep freed
    /// memory for the same reason).
    pub fn for_output(len: usize) -> Buffer {
        if len >= MAP_THRESHOLD {
            if let Some(ptr) = pool::take(len) {
                return Buffer { ptr, len, mapped: true };
            }
        }
        Buffer::zeroed(len)
    }

    /// A buffer holding a copy of `bytes`.
    pub fn from_bytes(bytes: &[u8]) -> Buffer {
        let mut b = Buffer::zeroed(bytes.len());
        b.as_mut_slice().copy_from_slice(bytes);
        b
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_ptr(&self) -> *const u8 {
        self.ptr
    }

    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        self.ptr
    }

    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: `len` initialized bytes (zeroed at allocation).
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: as above, uniquely borrowed.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }

    /// Frees the memory now, bypassing the pool of freed maps that a plain
    /// drop may keep it in: for buffers no later run will want back, when
    /// the memory is needed for something else.
    pub fn free(self) {
        if self.mapped && self.len > 0 {
            // SAFETY: mapped in `map_zeroed` with this length; `forget`
            // below keeps Drop from touching it again.
            unsafe { libc::munmap(self.ptr as *mut libc::c_void, self.len) };
            std::mem::forget(self);
        }
    }
}

impl AsRef<[u8]> for Buffer {
    fn as_ref(&self) -> &[u8] {
        self.as_slice()
    }
}

/// Unmaps every map the pool keeps (see [`Buffer::for_output`]): what a
/// caller does when no more runs follow or memory is needed elsewhere.
pub fn release_pooled_buffers() {
    pool::release();
}

/// Freed large maps kept for [`Buffer::for_output`], by length, up to
/// [`pool::limit`] bytes together. A training step returns every
/// parameter and optimizer moment as a fresh output (gigabytes): without
/// the pool, each run would fault in and zero that much new memory.
mod pool {
    use std::{
        collections::HashMap,
        sync::{Mutex, OnceLock},
    };

    /// The most bytes kept: a quarter of the machine's memory, at most 8 GiB.
    pub fn limit() -> usize {
        static LIMIT: OnceLock<usize> = OnceLock::new();
        *LIMIT.get_or_init(|| {
            // SAFETY: sysconf has no preconditions.
            let (pages, page) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
            let memory = if pages > 0 && page > 0 { pages as usize * page as usize } else { 4 << 30 };
            (memory / 4).min(8 << 30)
        })
    }

    #[derive(Default)]
    struct Maps {
        by_len: HashMap<usize, Vec<usize>>,
        total: usize,
    }
    static POOL: Mutex<Option<Maps>> = Mutex::new(None);

    /// A kept map of exactly `len` bytes.
    pub fn take(len: usize) -> Option<*mut u8> {
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        let maps = pool.as_mut()?;
        let ptr = maps.by_len.get_mut(&len)?.pop()?;
        maps.total -= len;
        Some(ptr as *mut u8)
    }

    /// How many maps of `len` bytes are kept.
    #[cfg(test)]
    pub fn kept(len: usize) -> usize {
        let pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        pool.as_ref().and_then(|m| m.by_len.get(&len)).map_or(0, Vec::len)
    }

    /// Unmaps every kept map.
    pub fn release() {
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(maps) = pool.as_mut() {
            for (len, ptrs) in maps.by_len.drain() {
                for ptr in ptrs {
                    // SAFETY: each was mapped in `map_zeroed` with this length.
                    unsafe { libc::munmap(ptr as *mut libc::c_void, len) };
                }
            }
            maps.total = 0;
        }
    }

    /// Keeps a map; false if the pool is full (the caller unmaps it).
    pub fn put(len: usize, ptr: *mut u8) -> bool {
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        let maps = pool.get_or_insert_with(Maps::default);
        if maps.total + len > limit() {
            return false;
        }
        maps.by_len.entry(len).or_default().push(ptr as usize);
        maps.total += len;
        true
    }
}

/// An anonymous private map of `len` zero bytes (page-aligned), with
/// transparent huge pages requested for big ones.
fn map_zeroed(len: usize) -> Option<*mut u8> {
    // SAFETY: a fresh anonymous mapping; no existing memory is touched.
    unsafe {
        let ptr = libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        if ptr == libc::MAP_FAILED {
            return None;
        }
        if len >= 2 << 20 {
            // Advice only: without THP the map works with small pages.
            libc::madvise(ptr, len, libc::MADV_HUGEPAGE);
        }
        Some(ptr as *mut u8)
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        if self.len == 0 {
            return;
        }
        if self.mapped {
            if !pool::put(self.len, self.ptr) {
                // SAFETY: mapped in `map_zeroed` with this length.
                unsafe { libc::munmap(self.ptr as *mut libc::c_void, self.len) };
            }
        } else {
            // SAFETY: allocated in `zeroed` with this layout.
            unsafe { dealloc(self.ptr, Layout::from_size_align_unchecked(self.len, ALIGNMENT)) }
        }
    }
}

impl Clone for Buffer {
    fn clone(&self) -> Buffer {
        Buffer::from_bytes(self.as_slice())
    }
}

impl std::fmt::Debug for Buffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Buffer({} bytes)", self.len)
    }
}

/// `bytes` as `&[T]`, borrowed when aligned (runtime buffers always are)
/// and copied into an aligned vector otherwise, so kernels never fail on a
/// caller's unaligned slice.
pub fn typed_cow<T: Element>(bytes: &[u8]) -> std::borrow::Cow<'_, [T]> {
    let size = std::mem::size_of::<T>();
    if (bytes.as_ptr() as usize).is_multiple_of(std::mem::align_of::<T>()) && bytes.len().is_multiple_of(size) {
        std::borrow::Cow::Borrowed(cast(bytes))
    } else {
        std::borrow::Cow::Owned(typed_vec(bytes))
    }
}

/// The elements of `bytes` written over `out` (same byte length).
pub fn write_typed<T: Element>(values: &[T], out: &mut [u8]) {
    out.copy_from_slice(bytes_of(values));
}

/// Row-major strides (in elements) of `dims`.
pub fn row_major_strides(dims: &[usize]) -> Vec<usize> {
    let mut s = vec![1usize; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * dims[i + 1];
    }
    s
}

/// Checks that a view's buffer holds exactly its shape and returns its
/// dims as `usize` (`op` and `what` name it in the error).
pub fn checked_dims(op: &str, what: &str, ty: ElementType, dims: &[i64], len: usize) -> Result<Vec<usize>, String> {
    if let Some(d) = dims.iter().find(|&&d| d < 0) {
        return Err(format!("{op}: {what} has a negative dimension {d} in {dims:?}"));
    }
    let shape = ArrayShape::new(ty, dims.to_vec());
    if matches!(ty, ElementType::Token | ElementType::Opaque) {
        return Err(format!("{op}: {what} cannot be of type {}", ty.name()));
    }
    if shape.bytes() != len {
        return Err(format!("{op}: {what} {shape} needs {} bytes but its buffer has {len}", shape.bytes()));
    }
    Ok(dims.iter().map(|&d| d as usize).collect())
}

fn bytes_of<T: Element>(v: &[T]) -> &[u8] {
    // SAFETY: plain data viewed as bytes.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) }
}

/// The bytes of an array literal in the runtime's memory format.
pub fn literal_bytes(literal: &Literal) -> Result<Vec<u8>, String> {
    let Literal::Array { data, .. } = literal else {
        return Err("a tuple or token has no array bytes".into());
    };
    Ok(match data {
        Data::Pred(v) => v.iter().map(|&b| b as u8).collect(),
        Data::S8(v) => bytes_of(v.as_slice()).to_vec(),
        Data::S16(v) => bytes_of(v.as_slice()).to_vec(),
        Data::S32(v) => bytes_of(v.as_slice()).to_vec(),
        Data::S64(v) => bytes_of(v.as_slice()).to_vec(),
        Data::U8(v) => v.clone(),
        Data::U16(v) => bytes_of(v.as_slice()).to_vec(),
        Data::U32(v) => bytes_of(v.as_slice()).to_vec(),
        Data::U64(v) => bytes_of(v.as_slice()).to_vec(),
        Data::F16(v) => bytes_of(v.as_slice()).to_vec(),
        Data::Bf16(v) => bytes_of(v.as_slice()).to_vec(),
        Data::F32(v) => bytes_of(v.as_slice()).to_vec(),
        Data::F64(v) => bytes_of(v.as_slice()).to_vec(),
        Data::C64(v) => bytes_of(v.as_slice()).to_vec(),
        Data::C128(v) => bytes_of(v.as_slice()).to_vec(),
        Data::Bits(_, v) => v.clone(),
    })
}

/// Copies an array literal into `out` (exactly its size in bytes).
pub fn write_literal(literal: &Literal, out: &mut [u8]) -> Result<(), String> {
    let bytes = literal_bytes(literal)?;
    if bytes.len() != out.len() {
        return Err(format!("literal has {} bytes, buffer {}", bytes.len(), out.len()));
    }
    out.copy_from_slice(&bytes);
    Ok(())
}

fn typed_vec<T: Element>(bytes: &[u8]) -> Vec<T> {
    let size = std::mem::size_of::<T>();
    let mut out = Vec::<T>::with_capacity(bytes.len() / size);
    // SAFETY: plain data; `out` has room for len/size elements and we copy
    // exactly that many bytes (the source need not be aligned).
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), out.as_mut_ptr() as *mut u8, bytes.len() / size * size);
        out.set_len(bytes.len() / size);
    }
    out
}

/// The array literal of `shape` whose elements are `bytes`.
pub fn bytes_literal(shape: &ArrayShape, bytes: &[u8]) -> Literal {
    use ElementType::*;
    debug_assert_eq!(bytes.len(), shape.bytes());
    let data = match shape.ty {
        Pred => Data::Pred(bytes.iter().map(|&b| b != 0).collect()),
        S8 => Data::S8(typed_vec(bytes)),
        S16 => Data::S16(typed_vec(bytes)),
        S32 => Data::S32(typed_vec(bytes)),
        S64 => Data::S64(typed_vec(bytes)),
        U8 => Data::U8(bytes.to_vec()),
        U16 => Data::U16(typed_vec(bytes)),
        U32 => Data::U32(typed_vec(bytes)),
        U64 => Data::U64(typed_vec(bytes)),
        F16 => Data::F16(typed_vec(bytes)),
        Bf16 => Data::Bf16(typed_vec(bytes)),
        F32 => Data::F32(typed_vec(bytes)),
        F64 => Data::F64(typed_vec(bytes)),
        C64 => Data::C64(typed_vec(bytes)),
        C128 => Data::C128(typed_vec(bytes)),
        t => Data::Bits(t, bytes.to_vec()),
    };
    Literal::Array { dims: shape.dims.clone(), data }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_round_trip_through_bytes() {
        let cases = vec![
            Literal::array(vec![3], Data::Pred(vec![true, false, true])),
            Literal::array(vec![2, 2], Data::F32(vec![1.0, -2.5, f32::NAN, 0.0])),
            Literal::array(vec![2], Data::C64(vec![Complex32::new(1.0, 2.0), Complex32::new(-3.0, 0.5)])),
            Literal::array(vec![2], Data::Bf16(vec![bf16::from_f32(1.5), bf16::from_f32(-0.25)])),
            Literal::array(vec![3], Data::Bits(ElementType::S4, vec![0xf9, 3, 7])),
            Literal::array(vec![0, 4], Data::S64(vec![])),
        ];
        for lit in cases {
            let Literal::Array { dims, .. } = &lit else { unreachable!() };
            let shape = ArrayShape::new(lit.element_type().unwrap(), dims.clone());
            let bytes = literal_bytes(&lit).unwrap();
            assert_eq!(bytes.len(), shape.bytes());
            let back = bytes_literal(&shape, &bytes);
            // NaN != NaN: compare the bytes again.
            assert_eq!(literal_bytes(&back).unwrap(), bytes, "{shape}");
        }
    }

    #[test]
    fn buffers_are_aligned_and_zeroed() {
        for len in [0usize, 1, 63, 64, 4097] {
            let b = Buffer::zeroed(len);
            assert_eq!(b.as_ptr() as usize % ALIGNMENT, 0);
            assert!(b.as_slice().iter().all(|&x| x == 0));
        }
        let v = [1.0f32, 2.0, 3.0];
        let b = Buffer::from_bytes(bytes_of(&v));
        assert_eq!(cast::<f32>(b.as_slice()), &v);
    }

    #[test]
    fn freed_outputs_are_reused_by_length() {
        // Lengths no other test uses, so parallel tests do not take them.
        let (a, b) = ((3 << 20) + 4096, (5 << 20) + 4096);
        let many: Vec<Buffer> = (0..40).map(|i| Buffer::for_output(if i % 2 == 0 { a } else { b })).collect();
        let ptrs: std::collections::HashSet<usize> = many.iter().map(|x| x.as_ptr() as usize).collect();
        drop(many);
        // More maps than the old fixed-count pool kept: all come back.
        let again: Vec<Buffer> = (0..40).map(|i| Buffer::for_output(if i % 2 == 0 { a } else { b })).collect();
        let reused = again.iter().filter(|x| ptrs.contains(&(x.as_ptr() as usize))).count();
        assert_eq!(reused, 40);
        assert!(again.iter().all(|x| x.len() == a || x.len() == b));
        // Freed buffers skip the pool; released pools keep nothing. (Here,
        // not in a test of its own: a release in parallel would empty the
        // pool this test reads.)
        let mut again = again.into_iter();
        again.next().expect("40 buffers").free();
        assert_eq!(pool::kept(a), 0);
        drop(again);
        assert_eq!(pool::kept(a), 19);
        assert_eq!(pool::kept(b), 20);
        release_pooled_buffers();
        assert_eq!((pool::kept(a), pool::kept(b)), (0, 0));
    }
}
