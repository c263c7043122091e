//! `rng-bit-generator-expander`: replaces `rng_bit_generator` by a call to
//! a computation that computes the same bits with integer arithmetic on
//! u32/u64 values, as XLA's `RngBitGeneratorExpander`
//! (xla/service/rng_bit_generator_expander.cc) over the generators of
//! `xla/hlo/builder/lib/prng.cc`.
//!
//! The generated computation takes the state `u64[N]` and returns the tuple
//! `(new_state, bits)`; one computation is made per (state shape, output
//! shape, algorithm) and shared by the ops that need it. `state[0]` is the
//! key (split into its low and high 32-bit words).
//!
//! - `rng_three_fry` (u64[2] states): Threefry-2x32 with 20 rounds over the
//!   counter `state[1] + linear index`. For outputs of 32 bits or fewer the
//!   shape is split in halves along its first even dimension (else its first
//!   largest one); each Threefry call fills two neighbouring elements of that
//!   dimension. The new state is `(key, counter + elements encrypted)`.
//! - `rng_philox` (u64[2] or u64[3] states): Philox-4x32 with 10 rounds
//!   over the 128-bit counter `(state[1], state[2])`, or
//!   `(low = state[1], high = state[0])` for u64[2] states (XLA reverses the
//!   state); block `i` encrypts `counter + i` (with carry into the high
//!   word) into four words, taken round-robin; 64-bit outputs pair them.
//!   The counter advances by the number of blocks; a u64[2] state keeps the
//!   low word only.
//! - `rng_default` is Philox, as XLA:CPU configures the pass (XLA's
//!   constructor argument; not an option here, since any other choice would
//!   change what `rng_default` computes).
//! - Outputs narrower than 32 bits are the low bits of a u32 output of the
//!   same shape; signed outputs are bitcasts of the unsigned bits (XLA's
//!   call returns the unsigned type there; the bits are the same).
//!
//! Bit-exact with the interpreter's `rng_bit_generator` (itself bit-exact
//! with XLA:CPU). Left alone: states the algorithm does not accept (XLA
//! would fail: Threefry needs u64[2], Philox u64[2] or u64[3]), outputs
//! with zero elements, and non-static shapes.

use crate::constant::ConstantBuilder;
use crate::constant::Scalar;
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
pub struct RngBitGeneratorExpander;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Algorithm {
    ThreeFry,
    Philox,
}

impl HloPass for RngBitGeneratorExpander {
    const NAME: &'static str = "rng-bit-generator-expander";
    const DESCRIPTION: &'static str =
        "Expand rng_bit_generator into Threefry/Philox integer arithmetic in a called computation";

    fn from_options(options: &PassOptions) -> Result<Self> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<()> {
        let module = Op::of(&module);
        let mut cache: HashMap<String, String> = HashMap::new();
        for func in computation::functions(module) {
            for op in func.walk_preorder() {
                if op.is("rng_bit_generator") && op.num_results() == 2 {
                    self.expand(module, op, &mut cache)?;
                }
            }
        }
        Ok(())
    }
}

impl RngBitGeneratorExpander {
    fn expand(&self, module: Op, op: Op, cache: &mut HashMap<String, String>) -> Result<()> {
        let algorithm = match enum_case(op, "algorithm").as_deref() {
            Some("rng_three_fry") => Algorithm::ThreeFry,
            Some("rng_philox") => Algorithm::Philox,
            // XLA:CPU constructs the pass with RNG_PHILOX as the default,
            // and the interpreter's rng_default is Philox.
            Some("rng_default") => Algorithm::Philox,
            _ => return Ok(()),
        };
        let (Some(state), Some(data)) = (op.operand_type(0).tensor().cloned(), op.result_type(1).tensor().cloned())
        else {
            return Ok(());
        };
        let n = state.dims.first().copied().unwrap_or(0);
        let state_ok = state.rank() == 1
            && state.elem.0 == "ui64"
            && match algorithm {
                Algorithm::ThreeFry => n == 2,
                Algorithm::Philox => n == 2 || n == 3,
            };
        if !state_ok || data.num_elements() == 0 || unsigned_of(&data.elem).is_none() {
            return Ok(());
        }
        let key = format!("{algorithm:?} {state} {data}");
        let callee = match cache.get(&key) {
            Some(name) => name.clone(),
            None => {
                let name = generator_computation(module, algorithm, &state, &data)?;
                cache.insert(key, name.clone());
                name
            }
        };
        let b = Builder::before(op);
        let tuple_type = HloType::Tuple(vec![state.clone().into(), data.clone().into()]);
        let tuple = b.call(&callee, &[op.operand(0)], &[tuple_type])?[0];
        for i in 0..2 {
            let element = b.get_tuple_element(tuple, i)?;
            op.replace_result_uses(i, element);
        }
        op.erase();
        Ok(())
    }
}

/// The unsigned type of the same width as an integer output type.
fn unsigned_of(elem: &ElementType) -> Option<ElementType> {
    if !elem.is_integer() || !matches!(elem.bit_width(), 2 | 4 | 8 | 16 | 32 | 64) {
        return None;
    }
    Some(ElementType(format!("ui{}", elem.bit_width())))
}

/// Builds `(state: u64[N]) -> (u64[N], data)` and returns its name.
fn generator_computation(module: Op, algorithm: Algorithm, state: &TensorType, data: &TensorType) -> Result<String> {
    let hint = match algorithm {
        Algorithm::ThreeFry => "rng_three_fry",
        Algorithm::Philox => "rng_philox",
    };
    let result = HloType::Tuple(vec![state.clone().into(), data.clone().into()]);
    let (func, b, args) = computation::create_function(module, hint, &[state.clone().into()], &[result])?;
    let g = Gen { b: &b };
    let state_param = args[0];
    let key = g.b.reshape(g.b.slice(state_param, &[0], &[1], &[1])?, &[])?;
    let (bits, new_counter) = match algorithm {
        Algorithm::ThreeFry => {
            let counter = g.b.slice(state_param, &[1], &[2], &[1])?;
            g.three_fry_bits(key, counter, data)?
        }
        Algorithm::Philox => {
            let counter = if state.dims[0] >= 3 {
                g.b.slice(state_param, &[1], &[3], &[1])?
            } else {
                g.b.reverse(state_param, &[0])?
            };
            let (bits, new_counter) = g.philox_bits(key, counter, data)?;
            let new_counter = if state.dims[0] < 3 { g.b.slice(new_counter, &[0], &[1], &[1])? } else { new_counter };
            (bits, new_counter)
        }
    };
    let final_state = g.b.concatenate(&[g.b.reshape(key, &[1])?, new_counter], 0)?;
    let tuple = g.b.tuple(&[final_state, bits])?;
    b.ret(&[tuple])?;
    Ok(computation::name(func))
}

/// Emits prng.cc's computations with a builder.
pub(crate) struct Gen<'a> {
    pub b: &'a Builder,
}

const U32: &str = "ui32";
const U64: &str = "ui64";

fn dims_of(v: Value) -> Vec<i64> {
    v.ty().tensor().map(|t| t.dims.clone()).unwrap_or_default()
}

impl Gen<'_> {
    fn u32(&self, value: u64, dims: &[i64]) -> Result<Value> {
        self.b.splat_broadcast(&ElementType::new(U32), Scalar::Int(value as i128), dims)
    }

    fn u64(&self, value: u64, dims: &[i64]) -> Result<Value> {
        self.b.splat_broadcast(&ElementType::new(U64), Scalar::Int(value as i128), dims)
    }

    fn op(&self, opcode: &str, a: Value, b: Value) -> Result<Value> {
        self.b.binary(opcode, a, b)
    }

    /// A scalar broadcast to `dims` (the scalar itself for rank 0).
    fn like(&self, scalar: Value, dims: &[i64]) -> Result<Value> {
        if dims.is_empty() {
            Ok(scalar)
        } else {
            self.b.broadcast_scalar(scalar, dims)
        }
    }

    fn to(&self, v: Value, elem: &str) -> Result<Value> {
        self.b.convert(v, &ElementType::new(elem))
    }

    /// Splits a u64 value into its low and high u32 words.
    fn u64_to_u32s(&self, v: Value) -> Result<[Value; 2]> {
        let high = self.op("shift_right_logical", v, self.u64(32, &dims_of(v))?)?;
        Ok([self.to(v, U32)?, self.to(high, U32)?])
    }

    /// Joins low and high u32 words into a u64 value.
    fn u32s_to_u64(&self, words: [Value; 2]) -> Result<Value> {
        let high = self.to(words[1], U64)?;
        let high = self.op("shift_left", high, self.u64(32, &dims_of(high))?)?;
        self.op("or", self.to(words[0], U64)?, high)
    }

    fn rotate_left(&self, v: Value, distance: u64) -> Result<Value> {
        let dims = dims_of(v);
        let left = self.op("shift_left", v, self.u32(distance, &dims)?)?;
        let right = self.op("shift_right_logical", v, self.u32(32 - distance, &dims)?)?;
        self.op("or", left, right)
    }

    /// Threefry-2x32 (20 rounds) of `input` (u32 arrays) under `key` (u32
    /// scalars).
    fn three_fry_2x32(&self, input: [Value; 2], key: [Value; 2]) -> Result<[Value; 2]> {
        const ROTATIONS: [u64; 8] = [13, 15, 26, 6, 17, 29, 16, 24];
        let dims = dims_of(input[0]);
        let parity = self.u32(0x1BD1_1BDA, &[])?;
        let ks2 = self.op("xor", self.op("xor", parity, key[0])?, key[1])?;
        let ks = [self.like(key[0], &dims)?, self.like(key[1], &dims)?, self.like(ks2, &dims)?];
        let mut x = [self.op("add", input[0], ks[0])?, self.op("add", input[1], ks[1])?];
        for group in 0..5usize {
            let rotations = if group % 2 == 0 { &ROTATIONS[..4] } else { &ROTATIONS[4..] };
            for &r in rotations {
                x[0] = self.op("add", x[0], x[1])?;
                x[1] = self.rotate_left(x[1], r)?;
                x[1] = self.op("xor", x[0], x[1])?;
            }
            let injection = group + 1;
            x[0] = self.op("add", x[0], ks[injection % 3])?;
            x[1] = self.op("add", x[1], ks[(injection + 1) % 3])?;
            x[1] = self.op("add", x[1], self.u32(injection as u64, &dims)?)?;
        }
        Ok(x)
    }

    /// prng.cc's `GetThreeFryInputsAndUpdatedState`: the counter plus each
    /// element's row-major index over `dims`, as u32 words, and the counter
    /// advanced by the element count.
    fn three_fry_inputs(&self, counter: Value, dims: &[i64]) -> Result<([Value; 2], Value)> {
        let u64_type = TensorType::new(dims, &ElementType::new(U64));
        let mut input = self.like(self.b.reshape(counter, &[])?, dims)?;
        let mut trailing: i64 = 1;
        for i in (0..dims.len()).rev() {
            if dims[i] < 2 {
                continue;
            }
            let index = self.b.iota(&u64_type, i as i64)?;
            let offset = self.op("multiply", index, self.u64(trailing as u64, dims)?)?;
            input = self.op("add", input, offset)?;
            trailing *= dims[i];
        }
        let count: i64 = dims.iter().product();
        let new_counter = self.op("add", counter, self.u64(count as u64, &[1])?)?;
        Ok((self.u64_to_u32s(input)?, new_counter))
    }

    /// Threefry bits of type `data` (and the new counter, u64[1]).
    fn three_fry_bits(&self, key: Value, counter: Value, data: &TensorType) -> Result<(Value, Value)> {
        let key = self.u64_to_u32s(key)?;
        let width = data.elem.bit_width();
        let (bits, new_counter, unsigned) = if width == 64 {
            let (input, new_counter) = self.three_fry_inputs(counter, &data.dims)?;
            let out = self.three_fry_2x32(input, key)?;
            (self.u32s_to_u64(out)?, new_counter, U64.to_string())
        } else {
            let split = SplitShape::new(&data.dims);
            let (input, new_counter) = self.three_fry_inputs(counter, &split.half)?;
            let out = self.three_fry_2x32(input, key)?;
            (split.combine(self.b, out, &data.dims)?, new_counter, U32.to_string())
        };
        Ok((self.retype(bits, &unsigned, &data.elem)?, new_counter))
    }

    /// Bits computed as `unsigned` (u32 or u64) turned into `elem`: the low
    /// bits for narrower types, reinterpreted for signed ones.
    fn retype(&self, bits: Value, unsigned: &str, elem: &ElementType) -> Result<Value> {
        let target = unsigned_of(elem).ok_or_else(|| PassError(format!("internal error: rng bits of {elem}")))?;
        let bits = if target.0 != unsigned { self.b.convert(bits, &target)? } else { bits };
        if &target == elem {
            Ok(bits)
        } else {
            self.b.bitcast_convert(bits, elem)
        }
    }

    /// Philox-4x32 (10 rounds) of `state` (u32 arrays) under `key` (u32
    /// scalars).
    fn philox_4x32(&self, mut x: [Value; 4], mut key: [Value; 2]) -> Result<[Value; 4]> {
        const W32A: u64 = 0x9E37_79B9;
        const W32B: u64 = 0xBB67_AE85;
        const M4X32A: u64 = 0xD251_1F53;
        const M4X32B: u64 = 0xCD9E_8D57;
        let dims = dims_of(x[0]);
        let mul_hi_lo = |v: Value, k: u64| -> Result<(Value, Value)> {
            let product = self.op("multiply", self.to(v, U64)?, self.u64(k, &dims)?)?;
            let low = self.to(product, U32)?;
            let high = self.to(self.op("shift_right_logical", product, self.u64(32, &dims)?)?, U32)?;
            Ok((high, low))
        };
        for _ in 0..10 {
            let (hi0, lo0) = mul_hi_lo(x[0], M4X32A)?;
            let (hi1, lo1) = mul_hi_lo(x[2], M4X32B)?;
            let k0 = self.like(key[0], &dims)?;
            let k1 = self.like(key[1], &dims)?;
            x = [
                self.op("xor", self.op("xor", hi1, x[1])?, k0)?,
                lo1,
                self.op("xor", self.op("xor", hi0, x[3])?, k1)?,
                lo0,
            ];
            key = [self.op("add", key[0], self.u32(W32A, &[])?)?, self.op("add", key[1], self.u32(W32B, &[])?)?];
        }
        Ok(x)
    }

    /// `u128 + u64` with the 128-bit value as (low, high) u64 scalars and
    /// `addend` a u64 array (or scalar): prng.cc's `Uint128AddUint64`.
    fn add_u128(&self, u128: [Value; 2], addend: Value) -> Result<[Value; 2]> {
        let dims = dims_of(addend);
        let low = self.like(u128[0], &dims)?;
        let new_low = self.op("add", low, addend)?;
        let carried = self.b.compare("LT", new_low, low, None)?;
        let high_plus_one = self.op("add", u128[1], self.u64(1, &[])?)?;
        let new_high = self.b.select(carried, self.like(high_plus_one, &dims)?, self.like(u128[1], &dims)?)?;
        Ok([new_low, new_high])
    }

    /// `count` Philox blocks from the 128-bit `counter` (u64[2], low word
    /// first): the four u32 word arrays and the advanced counter (u64[2]).
    fn philox_blocks(&self, key: Value, counter: Value, blocks: i64) -> Result<([Value; 4], Value)> {
        let key = self.u64_to_u32s(key)?;
        let low = self.b.reshape(self.b.slice(counter, &[0], &[1], &[1])?, &[])?;
        let high = self.b.reshape(self.b.slice(counter, &[1], &[2], &[1])?, &[])?;
        // prng.cc takes the state apart into u32 words and joins them again.
        let [w0, w1] = self.u64_to_u32s(low)?;
        let [w2, w3] = self.u64_to_u32s(high)?;
        let state = [self.u32s_to_u64([w0, w1])?, self.u32s_to_u64([w2, w3])?];
        let index = self.b.iota(&TensorType::new(&[blocks], &ElementType::new(U64)), 0)?;
        let [in_low, in_high] = self.add_u128(state, index)?;
        let [i0, i1] = self.u64_to_u32s(in_low)?;
        let [i2, i3] = self.u64_to_u32s(in_high)?;
        let [next_low, next_high] = self.add_u128(state, self.u64(blocks as u64, &[])?)?;
        let new_counter =
            self.b.concatenate(&[self.b.reshape(next_low, &[1])?, self.b.reshape(next_high, &[1])?], 0)?;
        Ok((self.philox_4x32([i0, i1, i2, i3], key)?, new_counter))
    }

    /// Philox bits of type `data` and the new 128-bit counter (u64[2]).
    pub(crate) fn philox_bits(&self, key: Value, counter: Value, data: &TensorType) -> Result<(Value, Value)> {
        let n = data.num_elements();
        let wide = data.elem.bit_width() == 64;
        let (words, new_counter) =
            self.philox_blocks(key, counter, if wide { (2 * n + 3) / 4 } else { (n + 3) / 4 })?;
        let (lanes, unsigned): (Vec<Value>, &str) = if wide {
            (vec![self.u32s_to_u64([words[0], words[1]])?, self.u32s_to_u64([words[2], words[3]])?], U64)
        } else {
            (words.to_vec(), U32)
        };
        // Round-robin: element j * lanes + l comes from lane l of block j.
        let len = dims_of(lanes[0])[0];
        let columns: Vec<Value> = lanes.iter().map(|&v| self.b.reshape(v, &[len, 1])).collect::<Result<_>>()?;
        let all = self.b.concatenate(&columns, 1)?;
        let flat = self.b.reshape(all, &[len * lanes.len() as i64])?;
        let flat = self.b.slice(flat, &[0], &[n], &[1])?;
        let bits = self.b.reshape(flat, &data.dims)?;
        Ok((self.retype(bits, unsigned, &data.elem)?, new_counter))
    }
}

/// prng.cc's `SplitShapeIntoHalves`: the shape with its split dimension
/// halved (rounded up) and a 1 inserted after it, and the same with 2.
pub(crate) struct SplitShape {
    pub half: Vec<i64>,
    pub concat: Vec<i64>,
    pub split_dim: usize,
    pub concat_dim: usize,
}

impl SplitShape {
    pub fn new(dims: &[i64]) -> Self {
        if dims.is_empty() {
            return Self { half: vec![1], concat: vec![2], split_dim: 0, concat_dim: 0 };
        }
        let split_dim = dims.iter().position(|d| d % 2 == 0).unwrap_or_else(|| {
            let mut best = 0;
            for (i, &d) in dims.iter().enumerate() {
                if d > dims[best] {
                    best = i;
                }
            }
            best
        });
        let mut half = Vec::with_capacity(dims.len() + 1);
        let mut concat = Vec::with_capacity(dims.len() + 1);
        for (i, &d) in dims.iter().enumerate() {
            if i == split_dim {
                half.extend([(d + 1) / 2, 1]);
                concat.extend([(d + 1) / 2, 2]);
            } else {
                half.push(d);
                concat.push(d);
            }
        }
        Self { half, concat, split_dim, concat_dim: split_dim + 1 }
    }

    /// prng.cc's `CombineShapePair`: interleaves two half-shaped values
    /// along the split dimension into `dims`.
    pub fn combine(&self, b: &Builder, pair: [Value; 2], dims: &[i64]) -> Result<Value> {
        if dims.is_empty() {
            return b.reshape(pair[0], &[]);
        }
        let joined = b.concatenate(&pair, self.concat_dim as i64)?;
        let mut even = dims.to_vec();
        even[self.split_dim] = (dims[self.split_dim] + 1) / 2 * 2;
        let result = b.reshape(joined, &even)?;
        if even[self.split_dim] == dims[self.split_dim] {
            return Ok(result);
        }
        let zeros = vec![0; dims.len()];
        let ones = vec![1; dims.len()];
        b.slice(result, &zeros, dims, &ones)
    }
}
