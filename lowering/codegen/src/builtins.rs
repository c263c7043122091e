//! Compiler-runtime functions that LLVM's x86 back end calls and that the
//! JIT must resolve itself: neither the process (Rust links no
//! compiler-rt) nor Debian 12's libgcc (GCC 12) defines them.
//!
//! On a CPU without AVX512-BF16, LLVM legalizes bf16 arithmetic by
//! computing in f32 and rounding with a call to `__truncsfbf2` (and
//! `__truncdfbf2` from f64); before these were provided the call jumped
//! to address 0 on such machines. They round to nearest, ties to even,
//! and keep NaN a NaN of the same sign, quieted: what `vcvtneps2bf16`
//! computes on the CPUs that have it, and what the interpreter does.

use std::ffi::{c_void, CStr};

/// bf16 bits of `x`, rounded to nearest even; NaN quieted.
pub fn f32_to_bf16_bits(x: f32) -> u16 {
    let bits = x.to_bits();
    if x.is_nan() {
        return ((bits >> 16) | 0x40) as u16;
    }
    let lowest_kept = (bits >> 16) & 1;
    (bits.wrapping_add(0x7fff + lowest_kept) >> 16) as u16
}

/// bf16 bits of `x`, rounded once, to nearest even (through f32 with
/// round-to-odd, which makes the second rounding exact); NaN quieted.
pub fn f64_to_bf16_bits(x: f64) -> u16 {
    if x.is_nan() {
        return f32_to_bf16_bits(x as f32);
    }
    let narrowed = x as f32;
    // Round to odd: if f32 was inexact, force its lowest bit to 1 so the
    // f32 -> bf16 rounding sees the sticky information.
    let mut bits = narrowed.to_bits();
    if narrowed.is_finite() && (narrowed as f64) != x {
        let toward_zero = if (narrowed as f64).abs() > x.abs() { bits - 1 } else { bits };
        bits = toward_zero | 1;
    }
    f32_to_bf16_bits(f32::from_bits(bits))
}

// The x86-64 ABI returns a bf16 in the low 16 bits of xmm0: an f32 whose
// bits are the bf16's puts them there.
extern "C" fn truncsfbf2(x: f32) -> f32 {
    f32::from_bits(f32_to_bf16_bits(x) as u32)
}

extern "C" fn truncdfbf2(x: f64) -> f32 {
    f32::from_bits(f64_to_bf16_bits(x) as u32)
}

/// The functions, by the names LLVM calls.
pub fn symbols() -> [(&'static CStr, *mut c_void); 2] {
    [(c"__truncsfbf2", truncsfbf2 as *mut c_void), (c"__truncdfbf2", truncdfbf2 as *mut c_void)]
}

/// Makes [`symbols`] visible to MCJIT's process-wide symbol search (once).
pub fn register_for_mcjit() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for (name, address) in symbols() {
            // SAFETY: a NUL-terminated name and a function that lives as
            // long as the process; LLVM copies the name.
            unsafe { inkwell::llvm_sys::support::LLVMAddSymbol(name.as_ptr(), address) };
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_to_nearest_even_and_keeps_nan() {
        assert_eq!(f32_to_bf16_bits(1.0), 0x3f80);
        // Halfway between 0x3f80 and 0x3f81: to the even one.
        assert_eq!(f32_to_bf16_bits(f32::from_bits(0x3f80_8000)), 0x3f80);
        assert_eq!(f32_to_bf16_bits(f32::from_bits(0x3f81_8000)), 0x3f82);
        assert_eq!(f32_to_bf16_bits(f32::from_bits(0x3f80_8001)), 0x3f81);
        assert_eq!(f32_to_bf16_bits(f32::MAX), 0x7f80); // overflows to infinity
        assert_eq!(f32_to_bf16_bits(f32::NEG_INFINITY), 0xff80);
        assert_eq!(f32_to_bf16_bits(f32::from_bits(0xff80_0001)), 0xffc0); // NaN, sign kept
        assert_eq!(f64_to_bf16_bits(1.0 + 2f64.powi(-8)), 0x3f80); // tie: even
        assert_eq!(f64_to_bf16_bits(1.0 + 2f64.powi(-8) + 2f64.powi(-40)), 0x3f81);
        // just above the tie
    }
}
