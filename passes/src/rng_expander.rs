//! `rng-expander`: replaces `rng` (uniform and normal distributions) by
//! counter-based Philox arithmetic, as XLA's `RngExpander`
//! (xla/service/rng_expander.cc over `xla/hlo/builder/lib/prng.cc`):
//!
//! ```text
//! state  = rng_get_and_update_state delta=<32-bit words the op needs>
//! result = call @rng_<dist>(key, state, a, b)
//! ```
//!
//! The called computation (one per distribution, result shape and operand
//! shapes) draws Philox-4x32 bits from the 128-bit `state` under `key`:
//!
//! - uniform floats: the top mantissa-width bits of each u32 (f32) or u64
//!   (f64) word, converted, times 2^-mantissa, `* (b - a) + a`;
//! - uniform integers (s32, u32, s64, u64): `a + d/2 + (d - d/2)` with
//!   `d = bits % (b - a)` computed unsigned;
//! - normal (f32, f64): uniform [0, 1) values for the shape split in two
//!   halves, Box-Muller (`u1 = max(x0, 1e-7)`, `sqrt(-2 log u1)` times the
//!   sine and the cosine of `2 pi x1`) interleaved back, then `a + b * z`.
//!
//! f16 and bf16 results run the f32 expansion on converted operands and
//! convert the result back (XLA's `ConvertSmallFpRngToF32Rng`).
//!
//! The key: XLA xors a per-module random number with the module's seed (or
//! a process-global random stream), so every compilation gets a different
//! key. rxla makes compilation reproducible: the i-th `rng` op in the module
//! gets `splitmix64(seed + i)`, with `seed` a pass option (default 42).
//!
//! Semantics: `rng` is random by definition; its values before and after
//! the pass are both draws from the same distribution, not the same draws
//! (the interpreter's `rng` uses its own Philox stream and its own
//! transformations), so the pass is declared inexact. The state is still
//! shared with `rng_get_and_update_state` as XLA does. Left alone:
//! element types XLA's expansion does not support (pred, integers narrower
//! than 32 bits, normal integers), non-static shapes and zero-element
//! results.

use crate::constant::ConstantBuilder;
use crate::{
    constant::Scalar,
    rng_bit_generator_expander::{Gen, SplitShape},
};
use melior::ir::OperationRef;
use rxla_ir::{
    attrs::enum_case,
    builder::Builder,
    computation,
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::{ElementType, HloType, TensorType},
};
use std::collections::HashMap;

type Result<T> = std::result::Result<T, PassError>;

#[derive(Clone, Debug)]
pub struct RngExpander {
    seed: i64,
}

impl HloPass for RngExpander {
    const NAME: &'static str = "rng-expander";
    const DESCRIPTION: &'static str = "Expand rng (uniform/normal) into Philox arithmetic on rng_get_and_update_state";
    const EXACT: bool = false;

    fn from_options(options: &PassOptions) -> Result<Self> {
        options.expect_only(Self::NAME, &["seed"])?;
        Ok(Self { seed: options.int("seed", 42)? })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<()> {
        let module = Op::of(&module);
        let mut cache: HashMap<String, String> = HashMap::new();
        let mut index: u64 = 0;
        for func in computation::functions(module) {
            for op in func.walk_preorder() {
                if op.is("rng") && op.num_operands() == 2 {
                    let key = splitmix64((self.seed as u64).wrapping_add(index));
                    index += 1;
                    expand(module, op, key, &mut cache)?;
                }
            }
        }
        Ok(())
    }
}

fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Distribution {
    Uniform,
    Normal,
}

fn expand(module: Op, op: Op, key: u64, cache: &mut HashMap<String, String>) -> Result<()> {
    let distribution = match enum_case(op, "distribution").as_deref() {
        Some("rng_uniform") => Distribution::Uniform,
        Some("rng_normal") => Distribution::Normal,
        _ => return Ok(()),
    };
    let Some(shape) = op.result_type(0).tensor().cloned() else { return Ok(()) };
    let (a, b) = (op.operand(0), op.operand(1));
    let scalar: HloType = TensorType::scalar(&shape.elem).into();
    if a.ty() != scalar || b.ty() != scalar || shape.num_elements() == 0 {
        return Ok(());
    }
    let small_float = matches!(shape.elem.0.as_str(), "f16" | "bf16");
    let supported = match distribution {
        Distribution::Uniform => {
            small_float || matches!(shape.elem.0.as_str(), "f32" | "f64" | "i32" | "ui32" | "i64" | "ui64")
        }
        Distribution::Normal => small_float || matches!(shape.elem.0.as_str(), "f32" | "f64"),
    };
    if !supported {
        return Ok(());
    }

    let bld = Builder::before(op);
    let (wide, a, b) = if small_float {
        let f32 = ElementType::new("f32");
        (shape.with_elem(&f32), bld.convert(a, &f32)?, bld.convert(b, &f32)?)
    } else {
        (shape.clone(), a, b)
    };
    let cache_key = format!("{distribution:?} {wide}");
    let callee = match cache.get(&cache_key) {
        Some(name) => name.clone(),
        None => {
            let name = rng_computation(module, distribution, &wide)?;
            cache.insert(cache_key, name.clone());
            name
        }
    };
    let words = wide.num_elements() * (wide.elem.bit_width() as i64 / 32);
    let key = bld.scalar(&ElementType::new("ui64"), Scalar::Int(key as i128))?;
    let state_type = TensorType::new(&[2], &ElementType::new("ui64"));
    let state = bld.value("hlo.rng_get_and_update_state", &[], state_type.into(), &[("delta", bld.i64_attr(words))])?;
    let mut result = bld.call(&callee, &[key, state, a, b], &[wide.into()])?[0];
    if small_float {
        result = bld.convert(result, &shape.elem)?;
    }
    if let (Some(layout), Some(last)) = (op.attr_raw("hlo.layout"), result.op()) {
        last.set_attr_raw("hlo.layout", layout);
    }
    op.replace_result_uses(0, result);
    op.erase();
    Ok(())
}

/// `(key: u64[], state: u64[2], a, b) -> shape`, as XLA's
/// `GetComputationForRng` builds it.
fn rng_computation(module: Op, distribution: Distribution, shape: &TensorType) -> Result<String> {
    let u64 = ElementType::new("ui64");
    let scalar: HloType = TensorType::scalar(&shape.elem).into();
    let params: Vec<HloType> =
        vec![TensorType::scalar(&u64).into(), TensorType::new(&[2], &u64).into(), scalar.clone(), scalar];
    let hint = match distribution {
        Distribution::Uniform => "rng_uniform",
        Distribution::Normal => "rng_normal",
    };
    let (func, b, args) = computation::create_function(module, hint, &params, &[shape.clone().into()])?;
    let g = Gen { b: &b };
    let (key, state, lo, hi) = (args[0], args[1], args[2], args[3]);
    let result = match distribution {
        Distribution::Uniform if shape.elem.is_float() => uniform_float(&g, key, state, lo, hi, shape)?,
        Distribution::Uniform => uniform_int(&g, key, state, lo, hi, shape)?,
        Distribution::Normal => {
            let split = SplitShape::new(&shape.dims);
            let zero = b.scalar(&shape.elem, Scalar::Float(0.0))?;
            let one = b.scalar(&shape.elem, Scalar::Float(1.0))?;
            let uniform = uniform_float(&g, key, state, zero, one, &shape.with_dims(&split.concat))?;
            let rank = split.half.len();
            let ones = vec![1; rank];
            let x0 = b.slice(uniform, &vec![0; rank], &split.half, &ones)?;
            let mut starts = vec![0; rank];
            starts[split.concat_dim] = 1;
            let x1 = b.slice(uniform, &starts, &split.concat, &ones)?;
            let (z0, z1) = box_muller(&b, x0, x1)?;
            let normal = split.combine(&b, [z0, z1], &shape.dims)?;
            let scaled = b.multiply(broadcast_to(&b, hi, &shape.dims)?, normal)?;
            b.add(broadcast_to(&b, lo, &shape.dims)?, scaled)?
        }
    };
    b.ret(&[result])?;
    Ok(computation::name(func))
}

/// A scalar broadcast to `dims` (itself for rank 0).
fn broadcast_to(b: &Builder, scalar: Value, dims: &[i64]) -> Result<Value> {
    if dims.is_empty() {
        Ok(scalar)
    } else {
        b.broadcast_scalar(scalar, dims)
    }
}

/// The Philox bits for `shape` as the unsigned integer of its width.
fn bits(g: &Gen, key: Value, state: Value, shape: &TensorType) -> Result<Value> {
    let unsigned = ElementType(format!("ui{}", shape.elem.bit_width()));
    Ok(g.philox_bits(key, state, &shape.with_elem(&unsigned))?.0)
}

/// prng.cc's `ConvertRandomBitsToUniformFloatingPoint` (f32, f64).
fn uniform_float(g: &Gen, key: Value, state: Value, lo: Value, hi: Value, shape: &TensorType) -> Result<Value> {
    let b = g.b;
    let bits = bits(g, key, state, shape)?;
    let width = shape.elem.bit_width() as i64;
    let mantissa = if width == 64 { 52 } else { 23 };
    let shift = b.scalar_like(bits, Scalar::Int((width - mantissa) as i128))?;
    let bits = b.binary("shift_right_logical", bits, shift)?;
    let values = b.convert(bits, &shape.elem)?;
    let scale = b.scalar_like(values, Scalar::Float(2f64.powi(-(mantissa as i32))))?;
    let values = b.multiply(values, scale)?;
    let range = b.subtract(hi, lo)?;
    let values = b.multiply(values, broadcast_to(b, range, &shape.dims)?)?;
    b.add(values, broadcast_to(b, lo, &shape.dims)?)
}

/// prng.cc's `ConvertRandomBitsToUniformInt` (s32, u32, s64, u64).
fn uniform_int(g: &Gen, key: Value, state: Value, lo: Value, hi: Value, shape: &TensorType) -> Result<Value> {
    let b = g.b;
    let bits = bits(g, key, state, shape)?;
    let unsigned = ElementType(format!("ui{}", shape.elem.bit_width()));
    let as_unsigned = |v: Value| if shape.elem == unsigned { Ok(v) } else { b.bitcast_convert(v, &unsigned) };
    let as_signed = |v: Value| if shape.elem == unsigned { Ok(v) } else { b.bitcast_convert(v, &shape.elem) };
    let range = b.subtract(as_unsigned(hi)?, as_unsigned(lo)?)?;
    let dist = b.binary("remainder", bits, broadcast_to(b, range, &shape.dims)?)?;
    let one = b.scalar_like(dist, Scalar::Int(1))?;
    let dist_div_2 = b.binary("shift_right_logical", dist, one)?;
    let first = b.add(broadcast_to(b, lo, &shape.dims)?, as_signed(dist_div_2)?)?;
    b.add(first, as_signed(b.subtract(dist, dist_div_2)?)?)
}

/// prng.cc's `BoxMullerTransform`.
fn box_muller(b: &Builder, x0: Value, x1: Value) -> Result<(Value, Value)> {
    let u1 = b.binary("maximum", x0, b.scalar_like(x0, Scalar::Float(1.0e-7f32 as f64))?)?;
    let v1 = b.multiply(b.scalar_like(x1, Scalar::Float(2.0 * std::f64::consts::PI))?, x1)?;
    let u2 = b.unary("sqrt", b.multiply(b.scalar_like(u1, Scalar::Float(-2.0))?, b.unary("log", u1)?)?)?;
    Ok((b.multiply(b.unary("sine", v1)?, u2)?, b.multiply(b.unary("cosine", v1)?, u2)?))
}
