//! `xla-expand-narrow-floats`: conversions from and to the float formats
//! LLVM has no type for (the f8, f6 and f4 formats) become integer code
//! over their bits (XLA's `expand_float_ops` does the same with bit
//! arithmetic; rxla uses tables, exact by construction):
//!
//! - `arith.extf` from a narrow format: the value of each of the 2^w bit
//!   patterns, as `f32`, in a constant table indexed by the bits (then
//!   converted exactly to the destination type);
//! - `arith.truncf` to a narrow format: rounding (to nearest, ties to even,
//!   overflow and NaN as the format allows) is a step function of the
//!   source's bit pattern, monotonic on each sign; the steps are computed
//!   at compile time from `FloatFormat::round_from_f64` (the definition the
//!   interpreter uses) and looked up by a branchless binary search over the
//!   step boundaries; from f32 to formats with at most 5 exponent and 4
//!   mantissa bits, one lookup keyed by the bits rounding depends on
//!   ([`expand_trunc_f32`]).
//!
//! - `arith.sitofp`/`arith.uitofp` to a narrow format: through f64 (exact
//!   for up to 53 bits), then rounded once as above, as XLA:CPU converts;
//! - `arith.negf` on a narrow format: the sign bit flipped, with NaN made
//!   the format's canonical NaN of the new sign as the interpreter does
//!   (`fnuz` formats have no negative zero: zero and NaN stay as they
//!   are); [`negated_bits`] is the rule, tested against the definition.
//!
//! Run before `xla-lower-tensors` (the tables are tensor constants).

use crate::ir::*;
use melior::ir::OperationRef;
use mlir_sys::*;
use rxla_hlo_text::{
    ast::PrimitiveType,
    floats::{float_format, FloatFormat, SpecialValues},
};
use rxla_ir::pass::{HloPass, PassError, PassOptions};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

#[derive(Clone, Debug)]
pub struct ExpandNarrowFloats;

impl HloPass for ExpandNarrowFloats {
    const NAME: &'static str = "xla-expand-narrow-floats";
    const DESCRIPTION: &'static str =
        "Expand conversions from and to f8/f6/f4 formats into table lookups on their bits";

    fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
        use melior::dialect::DialectHandle;
        vec![DialectHandle::arith(), DialectHandle::tensor()]
    }

    fn from_options(options: &PassOptions) -> std::result::Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(ExpandNarrowFloats)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> std::result::Result<(), PassError> {
        for op in walk(Op::of(&module)) {
            let name = op.name();
            if name == "arith.extf" || name == "arith.truncf" {
                let from = op.operand(0).raw_type();
                let to = op.result(0).raw_type();
                if let Some(f) = narrow(from) {
                    expand_ext(op, f, from, to)?;
                } else if let Some(f) = narrow(to) {
                    expand_trunc(op, f, from, to)?;
                }
            } else if let Some(f) =
                (name == "arith.sitofp" || name == "arith.uitofp").then(|| narrow(op.result(0).raw_type())).flatten()
            {
                // Through f64 (exact up to 2^53), then one rounding, as
                // XLA:CPU converts; the truncation is then expanded.
                let b = B::before(op);
                let to = op.result(0).raw_type();
                let f64t = b.f64();
                let wide = b.val(&name, &[op.operand(0)], f64t, &[]);
                let t = b.val("arith.truncf", &[wide], to, &[]);
                replace_op(op, &[t]);
                expand_trunc(t.op().expect("just created"), f, f64t, to)?;
            } else if let Some(f) =
                (name == "arith.negf").then(|| narrow(scalar_type(op.result(0).raw_type()))).flatten()
            {
                expand_neg(op, f)?;
            } else if name.starts_with("arith.")
                && op.operands().iter().chain(op.results().iter()).any(|v| narrow(v.raw_type()).is_some())
                && !matches!(name.as_str(), "arith.bitcast" | "arith.constant" | "arith.select")
            {
                return Err(op_error(
                    op,
                    format!(
                        "`{name}` on {} has no CPU lowering (convert to f32 first)",
                        type_to_string(op.operand(0).raw_type())
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// The format of a float type LLVM has no type for.
fn narrow(ty: MlirType) -> Option<(PrimitiveType, FloatFormat)> {
    if !is_float(ty) || is_llvm_float(ty) {
        return None;
    }
    let name = type_to_string(ty).to_ascii_lowercase();
    let t = PrimitiveType::from_name(&name)?;
    Some((t, float_format(t)?))
}

/// What [`expand_neg`] computes, on one code.
#[cfg(test)]
fn negated_bits(format: &FloatFormat, bits: u64) -> u64 {
    let sign = 1u64 << (format.width() - 1);
    let (flipped, magnitude) = (bits ^ sign, bits & (sign - 1));
    match format.kind {
        SpecialValues::FiniteNegZeroNan if magnitude == 0 => bits,
        SpecialValues::Ieee if magnitude > format.infinity(false).unwrap() => {
            (flipped & sign) | format.nan(false, 0).unwrap()
        }
        _ => flipped,
    }
}

/// The element type of a vector, else the type itself.
fn scalar_type(ty: MlirType) -> MlirType {
    if is_vector(ty) {
        element_type(ty)
    } else {
        ty
    }
}

/// A dense 1-D constant of `values` (their low bits) with element type
/// `elem`.
fn table(b: &B, elem: MlirType, values: &[u64]) -> Value {
    let ty = tensor_type(&[values.len() as i64], elem);
    let bytes = (bit_width(elem) as usize).div_ceil(8);
    let raw: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()[..bytes].to_vec()).collect();
    let attr = rxla_ir::attrs::dense_raw(ty, &raw).expect("a table's bytes fit its type");
    b.val("arith.constant", &[], ty, &[("value", attr)])
}

fn expand_ext(op: Op, (_, format): (PrimitiveType, FloatFormat), from: MlirType, to: MlirType) -> Result<()> {
    let b = B::before(op);
    let width = format.width();
    let values: Vec<u64> = (0..1u64 << width).map(|bits| (format.decode(bits) as f32).to_bits() as u64).collect();
    let t = table(&b, b.f32(), &values);
    let bits = b.val("arith.bitcast", &[op.operand(0)], b.int(width), &[]);
    let _ = from;
    let index = b.val("arith.index_castui", &[bits], b.index(), &[]);
    let f32t = b.f32();
    let v = b.val("tensor.extract", &[t, index], f32t, &[]);
    let name = type_to_string(to);
    let result = match name.as_str() {
        "f32" => v,
        "f64" => b.val("arith.extf", &[v], to, &[]),
        // Every narrow value is exact in f16 and bf16.
        "f16" | "bf16" => b.val("arith.truncf", &[v], to, &[]),
        _ => {
            // Narrow to narrow: through f32 (exact), then rounded.
            let t = b.val("arith.truncf", &[v], to, &[]);
            replace_op(op, &[t]);
            let inner = t.op().expect("just created");
            let (_, f) = narrow(to).expect("narrow destination");
            return expand_trunc(inner, (PrimitiveType::F32, f), f32t, to);
        }
    };
    replace_op(op, &[result]);
    Ok(())
}

/// `-x` on the bits: the sign bit flipped, exact for every value.
fn expand_neg(op: Op, (t, format): (PrimitiveType, FloatFormat)) -> Result<()> {
    if !format.has_sign {
        return Err(op_error(op, format!("`arith.negf` on {}: the format has no sign", t.name())));
    }
    let b = B::before(op);
    let width = format.width();
    let ty = op.result(0).raw_type();
    // Scalars, or the vectors of the CPU's vectorized lane bodies.
    let lanes = is_vector(ty).then(|| shape_of(ty)[0]);
    let shaped = |elem: MlirType| lanes.map_or(elem, |n| vector_type_of(elem, n));
    let int = shaped(b.int(width));
    let constant = |v: i64| match lanes {
        None => b.const_int(int, v),
        Some(_) => b.const_literal(int, &v.to_string()),
    };
    let bits = b.val("arith.bitcast", &[op.operand(0)], int, &[]);
    let mut flipped = b.val("arith.xori", &[bits, constant(1 << (width - 1))], int, &[]);
    debug_assert!(format.has_sign);
    let sign = 1i64 << (width - 1);
    let magnitude = b.val("arith.andi", &[bits, constant(sign - 1)], int, &[]);
    match format.kind {
        SpecialValues::FiniteNegZeroNan => {
            // 0 is the only zero and the sign bit alone is NaN: both negate
            // to themselves.
            let pred = b.int_attr(b.int(64), cmpi_code("eq"));
            let zero_or_nan = b.val("arith.cmpi", &[magnitude, constant(0)], shaped(b.int(1)), &[("predicate", pred)]);
            flipped = b.val("arith.select", &[zero_or_nan, bits, flipped], int, &[]);
        }
        SpecialValues::Ieee => {
            // NaN (above infinity) becomes the canonical NaN, sign flipped.
            let infinity = format.infinity(false).expect("IEEE formats have infinities") as i64;
            let quiet = format.nan(false, 0).expect("IEEE formats have NaN") as i64;
            let pred = b.int_attr(b.int(64), cmpi_code("ugt"));
            let nan = b.val("arith.cmpi", &[magnitude, constant(infinity)], shaped(b.int(1)), &[("predicate", pred)]);
            let new_sign = b.val("arith.andi", &[flipped, constant(sign)], int, &[]);
            let canonical = b.val("arith.ori", &[new_sign, constant(quiet)], int, &[]);
            flipped = b.val("arith.select", &[nan, canonical, flipped], int, &[]);
        }
        // The NaN (all ones) and the finite-only formats: the flip is exact.
        SpecialValues::FiniteAllOnesNan | SpecialValues::FiniteOnly => {}
    }
    let result = b.val("arith.bitcast", &[flipped], ty, &[]);
    replace_op(op, &[result]);
    Ok(())
}

/// The source formats a truncation reads bits of.
fn source_format(ty: MlirType) -> Option<FloatFormat> {
    let t = match type_to_string(ty).as_str() {
        "f16" => PrimitiveType::F16,
        "bf16" => PrimitiveType::Bf16,
        "f32" => PrimitiveType::F32,
        "f64" => PrimitiveType::F64,
        _ => return None,
    };
    float_format(t)
}

/// The steps of `round(decode(bits))` over the source's bit patterns
/// `[lo, hi]` (a monotonic run): `(first bits, code)` pairs.
fn steps(source: &FloatFormat, target: &FloatFormat, lo: u64, hi: u64) -> Vec<(u64, u64)> {
    let code = |bits: u64| target.round_from_f64(source.decode(bits));
    let mut out = Vec::new();
    let mut start = lo;
    loop {
        let c = code(start);
        out.push((start, c));
        if code(hi) == c {
            break;
        }
        // The first bits in (start, hi] whose code differs.
        let (mut a, mut z) = (start, hi);
        while z - a > 1 {
            let m = a + (z - a) / 2;
            if code(m) == c {
                a = m
            } else {
                z = m
            }
        }
        start = z;
    }
    out
}

/// f32 to a narrow format with at most 5 exponent and 4 mantissa bits in
/// one lookup: rounding to nearest even keeps `M` mantissa bits, so it
/// depends only on the sign, the exponent, the first `M + 1` mantissa bits
/// (the kept ones and the guard bit; fewer are kept for the target's
/// subnormals, whose guard is among them too) and whether any later bit is
/// set (sticky). The table has one code per such key, computed from a
/// representative value with the definition's rounding (f32 subnormals
/// all round to zero in these formats). 8K-32K one-byte entries, where
/// the search over step boundaries cost ~16 dependent loads per element
/// (an f32 -> f8e4m3fn quantization ran 10-15x XLA:CPU's time).
fn expand_trunc_f32(op: Op, b: &B, source: &FloatFormat, target: &FloatFormat, to: MlirType) -> Result<()> {
    let kept = target.mantissa_bits + 1;
    let rest = 23 - kept;
    let codes = f32_codes(source, target, &type_to_string(to));
    let table_type = tensor_type(&[codes.len() as i64], b.int(8));
    // SAFETY: `codes` outlives the call, which copies it into the attribute.
    let attr = unsafe { mlirDenseElementsAttrInt8Get(table_type, codes.len() as isize, codes.as_ptr()) };
    let codes_t = b.val("arith.constant", &[], table_type, &[("value", attr)]);
    let i32t = b.int(32);
    let bits = b.val("arith.bitcast", &[op.operand(0)], i32t, &[]);
    let c = |v: i64| b.const_int(i32t, v);
    // key = sign:exponent:top bits (bits 31..rest), then sticky.
    let high = b.val("arith.shrui", &[bits, c(rest as i64)], i32t, &[]);
    let high = b.val("arith.shli", &[high, c(1)], i32t, &[]);
    let low = b.val("arith.andi", &[bits, c((1i64 << rest) - 1)], i32t, &[]);
    let zero = c(0);
    let sticky = b.cmpi("ne", low, zero);
    let sticky = b.val("arith.extui", &[sticky], i32t, &[]);
    let key = b.val("arith.ori", &[high, sticky], i32t, &[]);
    let index = b.val("arith.index_castui", &[key], b.index(), &[]);
    let code = b.val("tensor.extract", &[codes_t, index], b.int(8), &[]);
    let width = target.width();
    let narrowed = if width < 8 { b.val("arith.trunci", &[code], b.int(width), &[]) } else { code };
    let result = b.val("arith.bitcast", &[narrowed], to, &[]);
    replace_op(op, &[result]);
    Ok(())
}

/// [`expand_trunc_f32`]'s table for the format named `name`: 2^(M+11)
/// roundings, computed once per process and format (a quantized model
/// converts to one format in many kernels).
fn f32_codes(source: &FloatFormat, target: &FloatFormat, name: &str) -> Arc<Vec<i8>> {
    static TABLES: OnceLock<Mutex<HashMap<String, Arc<Vec<i8>>>>> = OnceLock::new();
    let tables = TABLES.get_or_init(Default::default);
    if let Some(t) = tables.lock().unwrap_or_else(|e| e.into_inner()).get(name) {
        return t.clone();
    }
    let kept = target.mantissa_bits + 1;
    let rest = 23 - kept;
    let key_bits = 1 + 8 + kept + 1;
    let codes: Arc<Vec<i8>> = Arc::new(
        (0..1u64 << key_bits)
            .map(|key| {
                let sticky = key & 1;
                let top = (key >> 1) & ((1 << kept) - 1);
                let exp = (key >> (1 + kept)) & 0xff;
                let sign = key >> (1 + kept + 8);
                let bits = (sign << 31) | (exp << 23) | (top << rest) | sticky;
                target.round_from_f64(source.decode(bits)) as i8
            })
            .collect(),
    );
    tables.lock().unwrap_or_else(|e| e.into_inner()).insert(name.to_string(), codes.clone());
    codes
}

fn expand_trunc(op: Op, (_, target): (PrimitiveType, FloatFormat), from: MlirType, to: MlirType) -> Result<()> {
    let b = B::before(op);
    let source = source_format(from).ok_or_else(|| {
        op_error(op, format!("conversion from {} to {} has no CPU lowering", type_to_string(from), type_to_string(to)))
    })?;
    if source.width() == 32 && target.exponent_bits <= 5 && target.mantissa_bits <= 4 {
        return expand_trunc_f32(op, &b, &source, &target, to);
    }
    let w = source.width();
    let sign = 1u64 << (w - 1);
    let inf = ((1u64 << source.exponent_bits) - 1) << source.mantissa_bits;
    let positive = steps(&source, &target, 0, inf);
    let negative = steps(&source, &target, sign, sign | inf);
    let nan_pos = target.round_from_f64(f64::NAN);
    let nan_neg = target.round_from_f64(-f64::NAN);
    let int = b.int(w);
    let bits = b.val("arith.bitcast", &[op.operand(0)], int, &[]);
    let lookup = |steps: &[(u64, u64)], key: Value| -> Value {
        let starts: Vec<u64> = steps.iter().map(|(s, _)| *s).collect();
        let codes: Vec<u64> = steps.iter().map(|(_, c)| *c).collect();
        let starts_t = table(&b, b.int(w), &starts);
        let codes_t = table(&b, b.int(8), &codes);
        let n = steps.len() as i64;
        // Largest k with starts[k] <= key (starts[0] is the run's first key).
        let mut k = b.const_index(0);
        let mut step = 1i64;
        while step * 2 <= n {
            step *= 2;
        }
        let last = b.const_index(n - 1);
        while step >= 1 {
            let s = b.const_index(step);
            let candidate = b.val("arith.addi", &[k, s], b.index(), &[]);
            let clamped = b.val("arith.minui", &[candidate, last], b.index(), &[]);
            let start = b.val("tensor.extract", &[starts_t, clamped], int, &[]);
            let in_range = b.cmpi("ult", candidate, b.const_index(n));
            let le = b.cmpi("ule", start, key);
            let take = b.and(in_range, le);
            k = b.val("arith.select", &[take, candidate, k], b.index(), &[]);
            step /= 2;
        }
        b.val("tensor.extract", &[codes_t, k], b.int(8), &[])
    };
    let sign_v = b.const_int(int, sign as i64);
    let abs_mask = b.const_int(int, (sign - 1) as i64);
    let abs = b.val("arith.andi", &[bits, abs_mask], int, &[]);
    let negative_bit = b.val("arith.andi", &[bits, sign_v], int, &[]);
    let zero = b.const_int(int, 0);
    let is_negative = b.cmpi("ne", negative_bit, zero);
    let code_pos = lookup(&positive, bits);
    let code_neg = lookup(&negative, bits);
    let code = b.val("arith.select", &[is_negative, code_neg, code_pos], b.int(8), &[]);
    let inf_v = b.const_int(int, inf as i64);
    let is_nan = b.cmpi("ugt", abs, inf_v);
    let i8t = b.int(8);
    let nan_code = {
        let p = b.const_int(i8t, nan_pos as i64);
        let n = b.const_int(i8t, nan_neg as i64);
        b.val("arith.select", &[is_negative, n, p], i8t, &[])
    };
    let code = b.val("arith.select", &[is_nan, nan_code, code], i8t, &[]);
    let width = target.width();
    let narrowed = if width < 8 { b.val("arith.trunci", &[code], b.int(width), &[]) } else { code };
    let result = b.val("arith.bitcast", &[narrowed], to, &[]);
    replace_op(op, &[result]);
    let _ = unsafe { mlirTypeIsAFloat(to) };
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negation_on_the_bits_is_the_negated_value_rounded_back() {
        use PrimitiveType as T;
        let types = [
            T::F8e4m3fn,
            T::F8e5m2,
            T::F8e4m3,
            T::F8e3m4,
            T::F8e4m3fnuz,
            T::F8e5m2fnuz,
            T::F8e4m3b11fnuz,
            T::F6e2m3fn,
            T::F6e3m2fn,
            T::F4e2m1fn,
        ];
        for t in types {
            let f = float_format(t).unwrap();
            for bits in 0..1u64 << f.width() {
                let want = f.round_from_f64(-f.decode(bits));
                assert_eq!(negated_bits(&f, bits), want, "{t:?} code {bits:#x}");
            }
        }
    }
}
