//! Random numbers: `rng-bit-generator`, `rng` and `rng-get-and-update-state`.
//!
//! `rng-bit-generator` is bit-exact with XLA, which expands it
//! (RngBitGeneratorExpander over `xla/hlo/builder/lib/prng.cc`) as follows:
//!
//! - The state is `u64[N]`; `state[0]` is the key (split into its low and
//!   high 32-bit words). The result is `(new_state, bits)`.
//! - `rng_three_fry` (Threefry-2x32, 20 rounds): the counter is `state[1]`.
//!   For 32-bit (and narrower) outputs the shape is split in halves along
//!   its first even dimension (else its first largest one; a scalar becomes
//!   `[1]`): half-shape element `h` (row-major) encrypts counter
//!   `state[1] + h` (low word, high word) into two words, which fill indices
//!   `2i` and `2i+1` of the split dimension (the last one dropped for odd
//!   sizes; a scalar takes the first word). The new counter is
//!   `state[1] + elements(half shape)`. For 64-bit outputs element `i`
//!   encrypts `state[1] + i` and is `word0 | word1 << 32`; the new counter
//!   is `state[1] + elements`.
//! - `rng_philox` (Philox-4x32, 10 rounds, no key scrambling): the counter
//!   is the 128-bit value `(state[1], state[2])` for `u64[3]` states, and
//!   `(low = state[1], high = state[0])` for `u64[2]` states. Block `i`
//!   encrypts `counter + i` into four words. 32-bit outputs take the words
//!   in order (`4i + j`), 64-bit outputs pair them (`w0 | w1 << 32`,
//!   `w2 | w3 << 32`). The counter advances by the number of blocks; a
//!   `u64[2]` state keeps only the low half of it.
//! - `rng_default` is Philox, as on XLA:CPU.
//! - Outputs narrower than 32 bits take the low bits of a 32-bit output of
//!   the same shape (u32 -> uN truncation); the bits are reinterpreted as
//!   the declared element type (floats included). `pred` and complex
//!   outputs are errors (XLA rejects them). (XLA:CPU actually returns the
//!   bits of f16/f32/f64/s8 outputs typed as the unsigned integer of the
//!   same width; the interpreter keeps the declared type, same bits.)
//!
//! `rng` (`rng_uniform`, `rng_normal`) is *not* bit-exact with XLA, whose
//! `rng` is non-deterministic by definition. It draws Philox-4x32 blocks
//! under a fixed key from a per-thread 128-bit counter that starts at a
//! fixed seed ([`RNG_SEED`]) and persists across evaluations on that thread
//! (like XLA's module-global rng state); [`reset_rng_state`] resets it.
//! Uniform floats are `a + (b - a) * u` with `u` in `[0, 1)` made of 24
//! (f32 and narrower, computed in f32 and rounded) or 53 (f64) random
//! bits; uniform integers are `a + bits mod (b - a)` (`a` when `b <= a`);
//! uniform `pred` is `a`. Normal floats use the Box-Muller transform in f64
//! and are rounded to the result type.
//!
//! `rng-get-and-update-state` returns the same per-thread 128-bit state as
//! `u64[2]` (low, high) and adds `delta` to it.

use crate::{
    bail,
    error::Result,
    eval::{attr, attr_error, Interpreter},
    literal::{Data, ElementType, Literal},
    ops::linalg::{array, array_shape, literal_from_f32s, literal_from_f64s, literal_from_i64s, to_f64s, to_i64s},
};
use half::{bf16, f16};
use rxla_hlo_text::{
    ast::{Instruction, PrimitiveType, Shape},
    attrs,
    floats::float_format,
};
use std::cell::Cell;

pub fn evaluate(_: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Option<Result<Literal>> {
    Some(match inst.opcode.as_str() {
        "rng-bit-generator" => rng_bit_generator(inst, operands),
        "rng" => rng(inst, operands),
        "rng-get-and-update-state" => rng_get_and_update_state(inst),
        _ => return None,
    })
}

// ---------------------------------------------------------------------------
// The counter-based generators

/// Threefry-2x32 with 20 rounds, as XLA's prng.cc computes it.
pub fn threefry2x32(key: [u32; 2], input: [u32; 2]) -> [u32; 2] {
    const ROTATIONS: [u32; 8] = [13, 15, 26, 6, 17, 29, 16, 24];
    let ks = [key[0], key[1], 0x1BD1_1BDA ^ key[0] ^ key[1]];
    let mut x = [input[0].wrapping_add(ks[0]), input[1].wrapping_add(ks[1])];
    let round = |x: &mut [u32; 2], r: u32| {
        x[0] = x[0].wrapping_add(x[1]);
        x[1] = x[1].rotate_left(r);
        x[1] ^= x[0];
    };
    for i in 0..5usize {
        let rot = if i % 2 == 0 { &ROTATIONS[0..4] } else { &ROTATIONS[4..8] };
        for &r in rot {
            round(&mut x, r);
        }
        x[0] = x[0].wrapping_add(ks[(i + 1) % 3]);
        x[1] = x[1].wrapping_add(ks[(i + 2) % 3]).wrapping_add(i as u32 + 1);
    }
    x
}

/// Philox-4x32 with 10 rounds, as XLA's prng.cc computes it.
pub fn philox4x32(mut x: [u32; 4], mut key: [u32; 2]) -> [u32; 4] {
    for _ in 0..10 {
        let p0 = x[0] as u64 * 0xD251_1F53;
        let p1 = x[2] as u64 * 0xCD9E_8D57;
        x = [((p1 >> 32) as u32) ^ x[1] ^ key[0], p1 as u32, ((p0 >> 32) as u32) ^ x[3] ^ key[1], p0 as u32];
        key = [key[0].wrapping_add(0x9E37_79B9), key[1].wrapping_add(0xBB67_AE85)];
    }
    x
}

fn split_u64(x: u64) -> [u32; 2] {
    [x as u32, (x >> 32) as u32]
}

fn philox_block(counter: u128, key: [u32; 2]) -> [u32; 4] {
    let (lo, hi) = (counter as u64, (counter >> 64) as u64);
    philox4x32([lo as u32, (lo >> 32) as u32, hi as u32, (hi >> 32) as u32], key)
}

/// Bit width of an element type the generator can fill.
fn bit_width(t: ElementType) -> Option<u32> {
    use PrimitiveType::*;
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

/// Threefry bits for `dims` (32-bit words when `wide` is false, else 64).
/// Returns the bits (row-major) and how far the counter advances.
fn threefry_bits(key: u64, counter: u64, dims: &[usize], wide: bool) -> (Vec<u64>, u64) {
    let key = split_u64(key);
    let n: usize = dims.iter().product();
    if wide {
        let bits = (0..n)
            .map(|i| {
                let y = threefry2x32(key, split_u64(counter.wrapping_add(i as u64)));
                y[0] as u64 | (y[1] as u64) << 32
            })
            .collect();
        return (bits, n as u64);
    }
    if dims.is_empty() {
        let y = threefry2x32(key, split_u64(counter));
        return (vec![y[0] as u64], 1);
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
    let mut bits = vec![0u64; n];
    for o in 0..outer {
        for h in 0..half {
            for i in 0..inner {
                let lin = ((o * half) + h) * inner + i;
                let y = threefry2x32(key, split_u64(counter.wrapping_add(lin as u64)));
                for (c, &word) in y.iter().enumerate() {
                    let s = 2 * h + c;
                    if s < d {
                        bits[((o * d) + s) * inner + i] = word as u64;
                    }
                }
            }
        }
    }
    (bits, (outer * half * inner) as u64)
}

/// Philox bits: `n` 32-bit words or 64-bit words; returns the bits and the
/// number of 128-bit blocks used.
fn philox_bits(key: u64, counter: u128, n: usize, wide: bool) -> (Vec<u64>, u64) {
    let key = split_u64(key);
    let mut bits = Vec::with_capacity(n);
    if wide {
        let blocks = n.div_ceil(2);
        for i in 0..blocks {
            let w = philox_block(counter.wrapping_add(i as u128), key);
            bits.push(w[0] as u64 | (w[1] as u64) << 32);
            bits.push(w[2] as u64 | (w[3] as u64) << 32);
        }
        bits.truncate(n);
        (bits, blocks as u64)
    } else {
        let blocks = n.div_ceil(4);
        for i in 0..blocks {
            bits.extend(philox_block(counter.wrapping_add(i as u128), key).iter().map(|&w| w as u64));
        }
        bits.truncate(n);
        (bits, blocks as u64)
    }
}

/// An array of type `t` whose elements have the given bit patterns
/// (truncated to the type's width).
fn from_bits(t: ElementType, dims: Vec<i64>, bits: Vec<u64>) -> Result<Literal> {
    use PrimitiveType::*;
    let data = match t {
        U8 => Data::U8(bits.iter().map(|&b| b as u8).collect()),
        S8 => Data::S8(bits.iter().map(|&b| b as i8).collect()),
        U16 => Data::U16(bits.iter().map(|&b| b as u16).collect()),
        S16 => Data::S16(bits.iter().map(|&b| b as i16).collect()),
        F16 => Data::F16(bits.iter().map(|&b| f16::from_bits(b as u16)).collect()),
        Bf16 => Data::Bf16(bits.iter().map(|&b| bf16::from_bits(b as u16)).collect()),
        U32 => Data::U32(bits.iter().map(|&b| b as u32).collect()),
        S32 => Data::S32(bits.iter().map(|&b| b as i32).collect()),
        F32 => Data::F32(bits.iter().map(|&b| f32::from_bits(b as u32)).collect()),
        U64 => Data::U64(bits),
        S64 => Data::S64(bits.iter().map(|&b| b as i64).collect()),
        F64 => Data::F64(bits.iter().map(|&b| f64::from_bits(b)).collect()),
        S1 | S2 | S4 | U1 | U2 | U4 => return literal_from_i64s(t, dims, bits.iter().map(|&b| b as i64).collect()),
        other => match bit_width(other) {
            Some(w) if w <= 8 => Data::Bits(other, bits.iter().map(|&b| (b & ((1u64 << w) - 1)) as u8).collect()),
            _ => bail!("rng-bit-generator cannot produce {}", other.name()),
        },
    };
    Ok(Literal::array(dims, data))
}

fn rng_bit_generator(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let Some(state_lit) = operands.first() else { bail!("rng-bit-generator needs a state operand") };
    let (state_dims, state) = array(state_lit)?;
    let Data::U64(state) = state else {
        bail!("rng-bit-generator state must be u64, got {}", state.element_type().name())
    };
    let (state_shape, data_shape) = match &inst.shape {
        Shape::Tuple(e) if e.len() == 2 => (array_shape(&e[0])?, array_shape(&e[1])?),
        _ => bail!("rng-bit-generator result must be a (state, data) tuple"),
    };
    if state_shape.1 != state_dims {
        bail!("rng-bit-generator state dims {state_dims:?} differ from the result's {:?}", state_shape.1);
    }
    let algorithm = match attr(inst, "algorithm") {
        Some(v) => attrs::enum_word(v).map_err(attr_error)?,
        None => "rng_default".to_string(),
    };
    let (t, dims) = data_shape;
    let Some(width) = bit_width(t) else { bail!("rng-bit-generator cannot produce {}", t.name()) };
    let wide = width > 32;
    let udims: Vec<usize> = dims.iter().map(|&d| d.max(0) as usize).collect();
    let n: usize = udims.iter().product();
    let (bits, new_state) = match algorithm.as_str() {
        "rng_three_fry" => {
            if state.len() != 2 {
                bail!("rng_three_fry needs a u64[2] state, got u64[{}]", state.len());
            }
            let (bits, advance) = threefry_bits(state[0], state[1], &udims, wide);
            (bits, vec![state[0], state[1].wrapping_add(advance)])
        }
        "rng_philox" | "rng_default" => {
            let counter = match state.len() {
                2 => state[1] as u128 | (state[0] as u128) << 64,
                3 => state[1] as u128 | (state[2] as u128) << 64,
                k => bail!("rng_philox needs a u64[2] or u64[3] state, got u64[{k}]"),
            };
            let (bits, blocks) = philox_bits(state[0], counter, n, wide);
            let next = counter.wrapping_add(blocks as u128);
            let new_state = if state.len() == 3 {
                vec![state[0], next as u64, (next >> 64) as u64]
            } else {
                vec![state[0], next as u64]
            };
            (bits, new_state)
        }
        other => bail!("unknown rng algorithm {other}"),
    };
    Ok(Literal::Tuple(vec![Literal::array(state_dims.to_vec(), Data::U64(new_state)), from_bits(t, dims, bits)?]))
}

// ---------------------------------------------------------------------------
// rng and rng-get-and-update-state

/// The initial per-thread state of `rng` and `rng-get-and-update-state`.
pub const RNG_SEED: u128 = 0x0123_4567_89ab_cdef_0f1e_2d3c_4b5a_6978;
const RNG_KEY: [u32; 2] = [0x5851_f42d, 0x4c95_7f2d];

thread_local! {
    static RNG_STATE: Cell<u128> = const { Cell::new(RNG_SEED) };
}

/// Resets this thread's `rng` state (to make runs reproducible).
pub fn reset_rng_state(seed: u128) {
    RNG_STATE.with(|s| s.set(seed));
}

/// `n` random 64-bit words from this thread's state (advancing it).
fn next_words(n: usize) -> Vec<u64> {
    let blocks = n.div_ceil(2);
    let start = RNG_STATE.with(|s| {
        let v = s.get();
        s.set(v.wrapping_add(blocks as u128));
        v
    });
    let mut out = Vec::with_capacity(blocks * 2);
    for i in 0..blocks {
        let w = philox_block(start.wrapping_add(i as u128), RNG_KEY);
        out.push(w[0] as u64 | (w[1] as u64) << 32);
        out.push(w[2] as u64 | (w[3] as u64) << 32);
    }
    out.truncate(n);
    out
}

fn scalar_operand<'a>(operands: &[&'a Literal], i: usize) -> Result<&'a Data> {
    let Some(lit) = operands.get(i) else { bail!("rng needs two scalar operands") };
    let (dims, data) = array(lit)?;
    if data.len() != 1 {
        bail!("rng operand {i} must be a scalar, got dims {dims:?}");
    }
    Ok(data)
}

fn rng(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (t, dims) = array_shape(&inst.shape)?;
    let n: usize = dims.iter().map(|&d| d.max(0) as usize).product();
    let distribution = match attr(inst, "distribution") {
        Some(v) => attrs::enum_word(v).map_err(attr_error)?,
        None => bail!("rng needs a distribution"),
    };
    let a = scalar_operand(operands, 0)?;
    let b = scalar_operand(operands, 1)?;
    let is_float = matches!(t, PrimitiveType::F64) || (float_format(t).is_some());
    match distribution.as_str() {
        "rng_uniform" if t == PrimitiveType::Pred => literal_from_i64s(t, dims.clone(), vec![to_i64s(a)[0]; n]),
        "rng_uniform" if is_float => {
            let (lo, hi) = (to_f64s(a)[0], to_f64s(b)[0]);
            let words = next_words(n);
            if t == PrimitiveType::F64 {
                let v =
                    words.iter().map(|&w| lo + (hi - lo) * ((w >> 11) as f64 * (1.0 / (1u64 << 53) as f64))).collect();
                literal_from_f64s(t, dims, v)
            } else {
                let (lo, hi) = (lo as f32, hi as f32);
                let v =
                    words.iter().map(|&w| lo + (hi - lo) * ((w >> 40) as f32 * (1.0 / (1u32 << 24) as f32))).collect();
                literal_from_f32s(t, dims, v)
            }
        }
        "rng_uniform" => {
            let (lo, hi) = (to_i64s(a)[0], to_i64s(b)[0]);
            let unsigned =
                matches!(t, PrimitiveType::U8 | PrimitiveType::U16 | PrimitiveType::U32 | PrimitiveType::U64);
            let range: u64 = if unsigned {
                (hi as u64).saturating_sub(lo as u64)
            } else if hi > lo {
                (hi as i128 - lo as i128) as u64
            } else {
                0
            };
            let words = next_words(n);
            let v = words.iter().map(|&w| if range == 0 { lo } else { lo.wrapping_add((w % range) as i64) }).collect();
            literal_from_i64s(t, dims, v)
        }
        "rng_normal" if is_float => {
            let (mu, sigma) = (to_f64s(a)[0], to_f64s(b)[0]);
            let words = next_words(2 * n);
            let v = (0..n)
                .map(|i| {
                    let u1 = ((words[2 * i] >> 11) as f64 + 1.0) * (1.0 / (1u64 << 53) as f64);
                    let u2 = (words[2 * i + 1] >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
                    mu + sigma * (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
                })
                .collect();
            literal_from_f64s(t, dims, v)
        }
        "rng_normal" => bail!("rng_normal needs a floating-point result, got {}", t.name()),
        other => bail!("unknown rng distribution {other}"),
    }
}

fn rng_get_and_update_state(inst: &Instruction) -> Result<Literal> {
    let delta = match attr(inst, "delta") {
        Some(v) => attrs::integer(v).map_err(attr_error)?,
        None => bail!("rng-get-and-update-state needs a delta"),
    };
    let (t, dims) = array_shape(&inst.shape)?;
    if t != PrimitiveType::U64 || dims != [2] {
        bail!("rng-get-and-update-state produces u64[2], not {}{dims:?}", t.name());
    }
    let old = RNG_STATE.with(|s| {
        let v = s.get();
        s.set(v.wrapping_add(delta as u128));
        v
    });
    Ok(Literal::array(vec![2], Data::U64(vec![old as u64, (old >> 64) as u64])))
}
