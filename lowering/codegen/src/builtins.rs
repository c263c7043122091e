//! Compiler-runtime functions that LLVM's x86 back end calls and that the
//! JIT must resolve itself: neither the process (Rust links no
//! compiler-rt) nor Debian 12's libgcc (GCC 12) defines them.
//!
//! On a CPU without AVX512-BF16, LLVM legalizes bf16 arithmetic by
//! computing in f32 and rounding with a call to `__truncsfbf2` (and
//! `__truncdfbf2` from f64); before these were provided the call jumped
//! to address 0 on such machines. They round to nearest, ties to even,
//! and keep NaN a NaN of the same sign, quieted: what `vcvtneps2bf16`
//! computes on the CPUs that have it, and what the interpreter does (f64
//! through f32, as XLA's and the interpreter's conversions do).

use half::bf16;
use std::ffi::{c_void, CStr};

// The x86-64 ABI returns a bf16 in the low 16 bits of xmm0: an f32 whose
// bits are the bf16's puts them there. The rounding is `half`'s, which
// the interpreter uses too.
extern "C" fn truncsfbf2(x: f32) -> f32 {
    f32::from_bits(bf16::from_f32(x).to_bits() as u32)
}

extern "C" fn truncdfbf2(x: f64) -> f32 {
    f32::from_bits(bf16::from_f64(x).to_bits() as u32)
}

/// The functions, by the names LLVM calls (`LoadedCode::load` defines
/// them in every JIT it links kernels into).
pub fn symbols() -> [(&'static CStr, *mut c_void); 2] {
    [(c"__truncsfbf2", truncsfbf2 as *mut c_void), (c"__truncdfbf2", truncdfbf2 as *mut c_void)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bf16 bits come back in the low half of the returned register.
    #[test]
    fn return_the_rounded_bits_in_the_low_half() {
        // Halfway between 0x3f80 and 0x3f81: to the even one.
        assert_eq!(truncsfbf2(f32::from_bits(0x3f80_8000)).to_bits(), 0x3f80);
        assert_eq!(truncsfbf2(f32::from_bits(0x3f81_8000)).to_bits(), 0x3f82);
        // Overflow: infinity.
        assert_eq!(truncsfbf2(f32::MAX).to_bits(), 0x7f80);
        // NaN: quieted, sign kept.
        assert_eq!(truncsfbf2(f32::from_bits(0xff80_0001)).to_bits(), 0xffc0);
        // From f64 through f32, as XLA and the interpreter convert: just
        // above the tie in f64 is the tie in f32, rounded to even.
        assert_eq!(truncdfbf2(1.0 + 2f64.powi(-8) + 2f64.powi(-40)).to_bits(), 0x3f80);
    }
}
