//! `rng-bit-generator`, bit-exact with the reference interpreter (and so
//! with XLA's RngBitGeneratorExpander over prng.cc).
//!
//! - The state is `u64[N]`; `state[0]` is the key.
//! - ThreeFry (Threefry-2x32, 20 rounds), `u64[2]` state, counter
//!   `state[1]`: 64-bit outputs: element `i` encrypts `counter + i` into
//!   `w0 | w1 << 32`. 32-bit and narrower outputs: the shape is split in
//!   halves along its first even dimension (else its first largest one; a
//!   scalar takes the first word of one block): half-shape element `h`
//!   encrypts `counter + h` into the two words of indices `2i`, `2i+1` of
//!   the split dimension (the last one dropped for odd sizes). The counter
//!   advances by the number of blocks.
//! - Philox (Philox-4x32, 10 rounds; also `Default`, as on XLA:CPU): the
//!   128-bit counter is `(state[1], state[2])` for `u64[3]` states and
//!   `(low = state[1], high = state[0])` for `u64[2]`. Block `i` encrypts
//!   `counter + i` into four words; 32-bit outputs take them in order,
//!   64-bit outputs pair them (`w0 | w1 << 32`, `w2 | w3 << 32`). The
//!   counter advances by the number of blocks; a `u64[2]` state keeps only
//!   the low half.
//! - Outputs narrower than 32 bits take the low bits of the 32-bit words;
//!   bits are reinterpreted as the element type (floats included); `s1 s2
//!   s4` are stored sign-extended in their byte. `pred` and complex outputs
//!   are errors, as in XLA.
//!
//! Blocks are independent, so large outputs are generated in parallel.

use crate::array::{byte_size, checked_dims, typed_cow, write_typed, ArrayMut, ArrayRef, ElementType};
use crate::convert::wrap_int;
use crate::matmul::SendPtr;
use rayon::prelude::*;
use rxla_hlo_text::floats::float_format;
use rxla_interpreter::ops::rng::{philox4x32, threefry2x32};

/// The `algorithm=` of rng-bit-generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RngAlgorithm {
    /// `rng_default`: Philox on CPU, as XLA:CPU.
    Default,
    ThreeFry,
    Philox,
}

impl RngAlgorithm {
    /// From the HLO text spelling (`rng_default`, `rng_three_fry`,
    /// `rng_philox`).
    pub fn parse(s: &str) -> Option<RngAlgorithm> {
        Some(match s {
            "rng_default" => RngAlgorithm::Default,
            "rng_three_fry" => RngAlgorithm::ThreeFry,
            "rng_philox" => RngAlgorithm::Philox,
            _ => return None,
        })
    }
}

/// Bit width of an element type the generator can fill.
fn bit_width(t: ElementType) -> Option<u32> {
    use ElementType::*;
    Some(match t {
        S1 | U1 => 1,
        S2 | U2 => 2,
        S4 | U4 => 4,
        S8 | U8 => 8,
        S16 | U16 | F16 | Bf16 => 16,
        S32 | U32 | F32 => 32,
        S64 | U64 | F64 => 64,
        Pred | C64 | C128 | Token | Opaque => return None,
        other => float_format(other)?.width(),
    })
}

fn split_u64(x: u64) -> [u32; 2] {
    [x as u32, (x >> 32) as u32]
}

fn philox_block(counter: u128, key: [u32; 2]) -> [u32; 4] {
    let (lo, hi) = (counter as u64, (counter >> 64) as u64);
    philox4x32([lo as u32, (lo >> 32) as u32, hi as u32, (hi >> 32) as u32], key)
}

/// Elements generated per parallel task.
const CHUNK: usize = 1 << 14;

/// Fills `bits` (chunk by chunk, in parallel when large) with `f(i)`.
fn fill(bits: &mut [u64], f: impl Fn(usize, &mut [u64]) + Sync + Send) {
    if bits.len() > CHUNK && rayon::current_num_threads() > 1 {
        bits.par_chunks_mut(CHUNK).enumerate().for_each(|(c, chunk)| f(c * CHUNK, chunk));
    } else {
        bits.chunks_mut(CHUNK).enumerate().for_each(|(c, chunk)| f(c * CHUNK, chunk));
    }
}

/// Threefry bits for `dims` (32-bit words when `wide` is false, else 64),
/// and how far the counter advances.
fn threefry_bits(key: u64, counter: u64, dims: &[usize], wide: bool) -> (Vec<u64>, u64) {
    let key = split_u64(key);
    let n: usize = dims.iter().product();
    let mut bits = vec![0u64; n];
    if wide {
        fill(&mut bits, |start, chunk| {
            for (i, b) in chunk.iter_mut().enumerate() {
                let y = threefry2x32(key, split_u64(counter.wrapping_add((start + i) as u64)));
                *b = y[0] as u64 | (y[1] as u64) << 32;
            }
        });
        return (bits, n as u64);
    }
    if dims.is_empty() {
        return (vec![threefry2x32(key, split_u64(counter))[0] as u64], 1);
    }
    let split = dims.iter().position(|&d| d % 2 == 0).unwrap_or_else(|| {
        let mut best = 0;
        for (i, &d) in dims.iter().enumerate() {
            if d > dims[best] {
                best = i;
            }
        }
        best
    });
    let outer: usize = dims[..split].iter().product();
    let inner: usize = dims[split + 1..].iter().product();
    let d = dims[split];
    let half = d.div_ceil(2);
    // Block (o, h, i) fills elements (o, 2h, i) and (o, 2h + 1, i).
    let blocks = outer * half * inner;
    let out = SendPtr(bits.as_mut_ptr());
    let run = |range: std::ops::Range<usize>| {
        for block in range {
            let (oh, i) = (block / inner, block % inner);
            let (o, h) = (oh / half, oh % half);
            let y = threefry2x32(key, split_u64(counter.wrapping_add(block as u64)));
            let e = (o * d + 2 * h) * inner + i;
            // SAFETY: every block writes its own one or two elements, all
            // inside `bits` (2h + 1 < d checked for the second).
            unsafe {
                *out.get().add(e) = y[0] as u64;
                if 2 * h + 1 < d {
                    *out.get().add(e + inner) = y[1] as u64;
                }
            }
        }
    };
    if blocks > CHUNK && rayon::current_num_threads() > 1 {
        (0..blocks.div_ceil(CHUNK)).into_par_iter().for_each(|c| run(c * CHUNK..((c + 1) * CHUNK).min(blocks)));
    } else {
        run(0..blocks);
    }
    (bits, (outer * half * inner) as u64)
}

/// Philox bits: `n` 32- or 64-bit words, and the number of blocks used.
fn philox_bits(key: u64, counter: u128, n: usize, wide: bool) -> (Vec<u64>, u64) {
    let key = split_u64(key);
    let per = if wide { 2 } else { 4 };
    let mut bits = vec![0u64; n];
    // CHUNK is a multiple of 4: every chunk starts on a block boundary.
    fill(&mut bits, |start, chunk| {
        for (c, words) in chunk.chunks_mut(per).enumerate() {
            let w = philox_block(counter.wrapping_add((start / per + c) as u128), key);
            if wide {
                let pair = [w[0] as u64 | (w[1] as u64) << 32, w[2] as u64 | (w[3] as u64) << 32];
                words.copy_from_slice(&pair[..words.len()]);
            } else {
                words.iter_mut().zip(w).for_each(|(b, x)| *b = x as u64);
            }
        }
    });
    (bits, n.div_ceil(per) as u64)
}

/// Writes `bits` as elements of type `t` (truncated to its width).
fn store_bits(t: ElementType, bits: &[u64], out: &mut [u8]) {
    use ElementType::*;
    match byte_size(t) {
        8 => write_typed(bits, out),
        4 => write_typed(&bits.iter().map(|&b| b as u32).collect::<Vec<_>>(), out),
        2 => write_typed(&bits.iter().map(|&b| b as u16).collect::<Vec<_>>(), out),
        _ => match t {
            S1 | S2 | S4 | U1 | U2 | U4 => {
                out.iter_mut().zip(bits).for_each(|(o, &b)| *o = wrap_int(t, b as i64) as u8);
            }
            _ => {
                let mask = ((1u64 << bit_width(t).unwrap_or(8)) - 1) as u8;
                out.iter_mut().zip(bits).for_each(|(o, &b)| *o = b as u8 & mask);
            }
        },
    }
}

/// `(new_state, output) = rng-bit-generator(state)`.
pub fn rng_bit_generator(
    algorithm: RngAlgorithm,
    state: ArrayRef,
    new_state: ArrayMut,
    output: ArrayMut,
) -> Result<(), String> {
    let op = "rng-bit-generator";
    checked_dims(op, "state", state.ty, state.dims, state.data.len())?;
    checked_dims(op, "new state", new_state.ty, new_state.dims, new_state.data.len())?;
    let dims = checked_dims(op, "output", output.ty, output.dims, output.data.len())?;
    if state.ty != ElementType::U64 || new_state.ty != ElementType::U64 {
        return Err(format!("{op}: the state must be u64, got {} -> {}", state.ty.name(), new_state.ty.name()));
    }
    if state.dims != new_state.dims {
        return Err(format!("{op}: state dims {:?} differ from the new state's {:?}", state.dims, new_state.dims));
    }
    let Some(width) = bit_width(output.ty) else {
        return Err(format!("{op}: cannot produce {}", output.ty.name()));
    };
    let wide = width > 32;
    let s = typed_cow::<u64>(state.data);
    let (bits, next) = match algorithm {
        RngAlgorithm::ThreeFry => {
            if s.len() != 2 {
                return Err(format!("{op}: rng_three_fry needs a u64[2] state, got u64[{}]", s.len()));
            }
            let (bits, advance) = threefry_bits(s[0], s[1], &dims, wide);
            (bits, vec![s[0], s[1].wrapping_add(advance)])
        }
        RngAlgorithm::Philox | RngAlgorithm::Default => {
            let counter = match s.len() {
                2 => s[1] as u128 | (s[0] as u128) << 64,
                3 => s[1] as u128 | (s[2] as u128) << 64,
                k => return Err(format!("{op}: rng_philox needs a u64[2] or u64[3] state, got u64[{k}]")),
            };
            let (bits, blocks) = philox_bits(s[0], counter, dims.iter().product(), wide);
            let c = counter.wrapping_add(blocks as u128);
            (bits, if s.len() == 3 { vec![s[0], c as u64, (c >> 64) as u64] } else { vec![s[0], c as u64] })
        }
    };
    write_typed(&next, new_state.data);
    store_bits(output.ty, &bits, output.data);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pred_and_complex_outputs_are_errors() {
        let st = 5u64.to_le_bytes().repeat(2);
        let mut ns = vec![0u8; 16];
        let mut o = vec![0u8; 4];
        let err = rng_bit_generator(
            RngAlgorithm::Philox,
            ArrayRef::new(ElementType::U64, &[2], &st),
            ArrayMut::new(ElementType::U64, &[2], &mut ns),
            ArrayMut::new(ElementType::Pred, &[4], &mut o),
        );
        assert!(err.unwrap_err().contains("pred"));
    }
}
