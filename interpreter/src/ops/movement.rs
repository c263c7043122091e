//! Data movement: `broadcast`, `reshape`, `copy`, `transpose`,
//! `reverse`, `slice`, `dynamic-slice`, `dynamic-update-slice`,
//! `concatenate`, `pad`, `gather`, `scatter`, `get-dimension-size`,
//! `set-dimension-size`, `dynamic-reshape` and `shuffle`.
//!
//! Every op here moves elements without looking at them (scatter's
//! combiner aside), so all element types, the narrow ones included, take
//! the same typed box copies ([`copy_box`]): a box of the index space is
//! walked row-major with one affine offset per side, innermost dimension as
//! a run (a `copy_from_slice` when both sides are contiguous).
//!
//! Edge-case decisions (XLA:CPU's behaviour unless said otherwise):
//! - `dynamic-slice` / `dynamic-update-slice`: each start index is clamped
//!   to `[0, operand_dim - size]` (as XLA does), read as signed for signed
//!   index types and unsigned for unsigned ones (an unsigned value above
//!   `i64::MAX` saturates, then clamps). The legacy form with one rank-1
//!   index operand is accepted too.
//! - `gather`: each start index (the components named by
//!   `start_index_map`) is clamped to `[0, operand_dim - slice_size]`, so a
//!   slice never reads out of bounds; batching dims take the index of the
//!   matching `start_indices_batching_dims` dimension.
//! - `scatter`: an update window is applied only when it lies entirely in
//!   bounds (`0 <= start <= operand_dim - window_size` in every dimension);
//!   otherwise the whole window is skipped, as XLA does (no clamping).
//!   Updates are applied one scatter index at a time in row-major order of
//!   the scatter dimensions, each window row-major, so duplicate indices
//!   combine in that order (float sums with duplicates are sequential).
//!   `to_apply` runs on the current operand value(s) then the update
//!   value(s); a combiner that is a single add/multiply/maximum/minimum/
//!   and/or of its two parameters, or that returns one parameter, runs as a
//!   typed loop with the semantics documented in `reduce.rs`
//!   ([`super::reduce::Arith`]); any other runs through the interpreter one
//!   element at a time.
//! - `pad`: negative edge padding crops; interior padding inserts the
//!   padding value between elements; a negative result size is an error.
//! - `get-dimension-size` answers the static size (dynamic shapes are not
//!   modelled) as `s32`; `set-dimension-size` returns the operand's data
//!   unchanged under the result's static (bound) dims.
//! - `dynamic-reshape`: the runtime `dim_sizes` must equal the static
//!   result dims (dynamic shapes are not modelled); otherwise an error.
//! - `shuffle` (mode `rotate`, attributes `dimensions` and `shifts`):
//!   output index `i` takes operand index `(i + shift) mod n`; shifts
//!   outside `[0, n)` wrap.
//! - Malformed attributes or operands (counts, ranks, out-of-range static
//!   bounds) are `EvalError`s, never panics: every box copy checks its
//!   extreme offsets against both buffers first.

use super::reduce;
use crate::{
    bail,
    error::{EvalError, Result},
    eval::{attr, attr_error, require, Interpreter},
    literal::{element_count, static_dims, strides, Data, ElementType, Literal},
};
use rxla_hlo_text::{
    ast::{Instruction, Shape},
    attrs,
};

pub fn evaluate(interpreter: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Option<Result<Literal>> {
    type Op = fn(&Interpreter, &Instruction, &[&Literal]) -> Result<Literal>;
    let f: Op = match inst.opcode.as_str() {
        "broadcast" => broadcast,
        "reshape" | "copy" => reshape,
        "dynamic-reshape" => dynamic_reshape,
        "transpose" => transpose,
        "reverse" => reverse,
        "slice" => slice,
        "dynamic-slice" => dynamic_slice,
        "dynamic-update-slice" => dynamic_update_slice,
        "concatenate" => concatenate,
        "pad" => pad,
        "gather" => gather,
        "scatter" => scatter,
        "get-dimension-size" => get_dimension_size,
        "set-dimension-size" => set_dimension_size,
        "shuffle" => shuffle,
        _ => return None,
    };
    Some(f(interpreter, inst, operands))
}

// ---------------------------------------------------------------------------
// Shared helpers (also used by reduce.rs).

/// Runs `$body` with `$a`/`$b` bound to the typed vectors of two `Data` of
/// the same element type (an `EvalError` otherwise).
macro_rules! pair_data {
    ($x:expr, $y:expr, ($a:ident, $b:ident) => $body:expr) => {
        match ($x, $y) {
            (Data::Pred($a), Data::Pred($b)) => $body,
            (Data::S8($a), Data::S8($b)) => $body,
            (Data::S16($a), Data::S16($b)) => $body,
            (Data::S32($a), Data::S32($b)) => $body,
            (Data::S64($a), Data::S64($b)) => $body,
            (Data::U8($a), Data::U8($b)) => $body,
            (Data::U16($a), Data::U16($b)) => $body,
            (Data::U32($a), Data::U32($b)) => $body,
            (Data::U64($a), Data::U64($b)) => $body,
            (Data::F16($a), Data::F16($b)) => $body,
            (Data::Bf16($a), Data::Bf16($b)) => $body,
            (Data::F32($a), Data::F32($b)) => $body,
            (Data::F64($a), Data::F64($b)) => $body,
            (Data::C64($a), Data::C64($b)) => $body,
            (Data::C128($a), Data::C128($b)) => $body,
            (Data::Bits(ta, $a), Data::Bits(tb, $b)) if ta == tb => $body,
            (a, b) => {
                $crate::bail!("element types differ: {} and {}", a.element_type().name(), b.element_type().name())
            }
        }
    };
}

/// The element type and (static) dims of an array shape.
pub(crate) fn array_shape(shape: &Shape) -> Result<(ElementType, Vec<i64>)> {
    match shape {
        Shape::Array { element, dims, .. } => Ok((*element, static_dims(dims))),
        _ => bail!("expected an array shape"),
    }
}

/// Operand `i` as an array.
pub(crate) fn operand<'a>(operands: &[&'a Literal], i: usize) -> Result<(&'a [i64], &'a Data)> {
    match operands.get(i) {
        Some(Literal::Array { dims, data }) => Ok((dims, data)),
        Some(_) => bail!("operand {i} is not an array"),
        None => bail!("missing operand {i}"),
    }
}

/// `key={1,2}` as a list of integers.
pub(crate) fn dims_attr(inst: &Instruction, key: &str) -> Result<Vec<i64>> {
    attrs::dims(require(inst, key)?).map_err(attr_error)
}

/// Like [`dims_attr`], an absent attribute being `{}`.
pub(crate) fn dims_attr_or_empty(inst: &Instruction, key: &str) -> Result<Vec<i64>> {
    match attr(inst, key) {
        Some(v) => attrs::dims(v).map_err(attr_error),
        None => Ok(Vec::new()),
    }
}

pub(crate) fn int_attr(inst: &Instruction, key: &str) -> Result<i64> {
    attrs::integer(require(inst, key)?).map_err(attr_error)
}

/// Checks a computed result against the instruction's declared shape.
pub(crate) fn check_result(inst: &Instruction, t: ElementType, dims: &[i64]) -> Result<()> {
    let (et, ed) = array_shape(&inst.shape)?;
    if et != t {
        bail!("result element type {} differs from the declared {}", t.name(), et.name());
    }
    if ed != dims {
        bail!("result dims {dims:?} differ from the declared {ed:?}");
    }
    Ok(())
}

/// Checks that a dimension number is in range for `rank`.
pub(crate) fn check_dim(d: i64, rank: usize, what: &str) -> Result<usize> {
    if d < 0 || d as usize >= rank {
        bail!("{what} {d} is out of range for rank {rank}");
    }
    Ok(d as usize)
}

/// The elements of an integer array as i64 (unsigned values above
/// `i64::MAX` saturate).
pub(crate) fn index_values(data: &Data) -> Result<Vec<i64>> {
    use rxla_hlo_text::ast::PrimitiveType as P;
    Ok(match data {
        Data::S8(v) => v.iter().map(|&x| x as i64).collect(),
        Data::S16(v) => v.iter().map(|&x| x as i64).collect(),
        Data::S32(v) => v.iter().map(|&x| x as i64).collect(),
        Data::S64(v) => v.clone(),
        Data::U8(v) => v.iter().map(|&x| x as i64).collect(),
        Data::U16(v) => v.iter().map(|&x| x as i64).collect(),
        Data::U32(v) => v.iter().map(|&x| x as i64).collect(),
        Data::U64(v) => v.iter().map(|&x| x.min(i64::MAX as u64) as i64).collect(),
        Data::Bits(P::S2 | P::S4, v) => v.iter().map(|&x| x as i8 as i64).collect(),
        Data::Bits(P::U2 | P::U4, v) => v.iter().map(|&x| x as i64).collect(),
        other => bail!("indices must be integers, not {}", other.element_type().name()),
    })
}

/// Calls `f(a, b, n)` for every innermost run of the box `dims`, `a` and
/// `b` being the offsets of the run's first element on each side
/// (`a_base + sum(i * a_strides)`), `n` its length. Nothing for an empty
/// box; one run of length 1 for rank 0.
#[inline]
pub(crate) fn for_each_run(
    dims: &[i64],
    a_base: i64,
    a_strides: &[i64],
    b_base: i64,
    b_strides: &[i64],
    mut f: impl FnMut(i64, i64, usize),
) {
    if dims.iter().any(|&d| d <= 0) {
        return;
    }
    let r = dims.len();
    if r == 0 {
        f(a_base, b_base, 1);
        return;
    }
    let n = dims[r - 1] as usize;
    let mut idx = vec![0i64; r - 1];
    let (mut a, mut b) = (a_base, b_base);
    loop {
        f(a, b, n);
        let mut d = r - 1;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            a += a_strides[d];
            b += b_strides[d];
            if idx[d] < dims[d] {
                break;
            }
            a -= a_strides[d] * dims[d];
            b -= b_strides[d] * dims[d];
            idx[d] = 0;
        }
    }
}

/// Checks that every offset of the box lies in `[0, len)`.
pub(crate) fn check_box(dims: &[i64], base: i64, strides: &[i64], len: usize) -> Result<()> {
    if dims.len() != strides.len() {
        bail!("internal: box of rank {} with {} strides", dims.len(), strides.len());
    }
    if dims.iter().any(|&d| d <= 0) {
        return Ok(());
    }
    let (mut lo, mut hi) = (base, base);
    for (&d, &s) in dims.iter().zip(strides) {
        let span = (d - 1).checked_mul(s).ok_or_else(|| EvalError::new("index overflow"))?;
        if span < 0 {
            lo += span;
        } else {
            hi += span;
        }
    }
    if lo < 0 || hi >= len as i64 {
        bail!("internal: box reaches offsets {lo}..={hi} of a buffer of {len}");
    }
    Ok(())
}

/// Inner strides of both sides (1 for rank 0).
fn inner(a: &[i64], b: &[i64]) -> (i64, i64) {
    (a.last().copied().unwrap_or(1), b.last().copied().unwrap_or(1))
}

/// Copies the box `dims` from `src` (at `src_base + i*src_strides`) to `dst`
/// (at `dst_base + i*dst_strides`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn copy_box<T: Copy>(
    dst: &mut [T],
    dst_base: i64,
    dst_strides: &[i64],
    src: &[T],
    src_base: i64,
    src_strides: &[i64],
    dims: &[i64],
) -> Result<()> {
    check_box(dims, dst_base, dst_strides, dst.len())?;
    check_box(dims, src_base, src_strides, src.len())?;
    let (ds, ss) = inner(dst_strides, src_strides);
    let r = dims.len();
    // Transposing copies (the source contiguous along another dimension
    // than the destination) go tile by tile to stay in cache.
    const TILE: i64 = 32;
    if r >= 2 && ds == 1 && ss.abs() != 1 && dims[r - 1] >= TILE {
        if let Some(k) = (0..r - 1).find(|&k| src_strides[k].abs() == 1 && dims[k] >= TILE) {
            let mut outer = dims.to_vec();
            outer[k] = 1;
            outer[r - 1] = 1;
            let (dk, sk) = (dst_strides[k], src_strides[k]);
            for_each_run(&outer, dst_base, dst_strides, src_base, src_strides, |a0, b0, _| {
                for xb in (0..dims[k]).step_by(TILE as usize) {
                    for yb in (0..dims[r - 1]).step_by(TILE as usize) {
                        for x in xb..(xb + TILE).min(dims[k]) {
                            let (a, b) = (a0 + x * dk + yb, b0 + x * sk + yb * ss);
                            let n = (TILE.min(dims[r - 1] - yb)) as usize;
                            let row = &mut dst[a as usize..a as usize + n];
                            for (i, d) in row.iter_mut().enumerate() {
                                *d = src[(b + i as i64 * ss) as usize];
                            }
                        }
                    }
                }
            });
            return Ok(());
        }
    }
    for_each_run(dims, dst_base, dst_strides, src_base, src_strides, |a, b, n| {
        if ds == 1 && ss == 1 {
            let (a, b) = (a as usize, b as usize);
            dst[a..a + n].copy_from_slice(&src[b..b + n]);
        } else if ds == 1 && ss == 0 {
            let a = a as usize;
            dst[a..a + n].fill(src[b as usize]);
        } else {
            let (mut a, mut b) = (a, b);
            for _ in 0..n {
                dst[a as usize] = src[b as usize];
                a += ds;
                b += ss;
            }
        }
    });
    Ok(())
}

/// [`copy_box`] over `Data` of one element type.
#[allow(clippy::too_many_arguments)]
pub(crate) fn copy_box_data(
    dst: &mut Data,
    dst_base: i64,
    dst_strides: &[i64],
    src: &Data,
    src_base: i64,
    src_strides: &[i64],
    dims: &[i64],
) -> Result<()> {
    pair_data!(dst, src, (a, b) => copy_box(a, dst_base, dst_strides, b, src_base, src_strides, dims))
}

/// A new row-major array of `dims` whose element `i` is
/// `src[base + i*strides]`.
pub(crate) fn gather_box(src: &Data, base: i64, src_strides: &[i64], dims: &[i64]) -> Result<Data> {
    let mut out = Data::zeros(src.element_type(), element_count(dims));
    let out_strides = strides(dims);
    copy_box_data(&mut out, 0, &out_strides, src, base, src_strides, dims)?;
    Ok(out)
}

/// `dims` filled with the one element of `scalar`.
pub(crate) fn splat(scalar: &Data, dims: &[i64]) -> Result<Data> {
    if scalar.len() != 1 {
        bail!("expected a scalar, got {} elements", scalar.len());
    }
    gather_box(scalar, 0, &vec![0; dims.len()], dims)
}

/// A scalar index operand as i64.
fn scalar_index(lit: &Literal) -> Result<i64> {
    match lit {
        Literal::Array { data, .. } if data.len() == 1 => Ok(index_values(data)?[0]),
        _ => bail!("expected a scalar index"),
    }
}

/// Start indices of a dynamic slice: one scalar operand per dimension (or
/// a single rank-1 operand, the legacy form).
fn start_indices(operands: &[&Literal], first: usize, rank: usize) -> Result<Vec<i64>> {
    let rest = operands.get(first..).unwrap_or(&[]);
    if rest.len() == 1 && rest[0].dims().len() == 1 {
        let (_, data) = operand(rest, 0)?;
        if data.len() != rank {
            bail!("expected {rank} start indices, got {}", data.len());
        }
        return index_values(data);
    }
    if rest.len() != rank {
        bail!("expected {rank} start indices, got {}", rest.len());
    }
    rest.iter().map(|l| scalar_index(l)).collect()
}

// ---------------------------------------------------------------------------
// Ops.

fn broadcast(_: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (od, data) = operand(operands, 0)?;
    let (_, out) = array_shape(&inst.shape)?;
    let map = dims_attr(inst, "dimensions")?;
    if map.len() != od.len() {
        bail!("dimensions has {} entries for an operand of rank {}", map.len(), od.len());
    }
    let ostr = strides(od);
    let mut s = vec![0i64; out.len()];
    for (i, &d) in map.iter().enumerate() {
        let d = check_dim(d, out.len(), "broadcast dimension")?;
        if od[i] != out[d] {
            bail!("operand dimension {i} (size {}) does not match result dimension {d} (size {})", od[i], out[d]);
        }
        s[d] = ostr[i];
    }
    check_result(inst, data.element_type(), &out)?;
    Ok(Literal::array(out.clone(), gather_box(data, 0, &s, &out)?))
}

fn reshape(_: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (_, data) = operand(operands, 0)?;
    let (t, out) = array_shape(&inst.shape)?;
    if t != data.element_type() {
        bail!("{} from {} to {} changes the element type", inst.opcode, data.element_type().name(), t.name());
    }
    if element_count(&out) != data.len() {
        bail!("{} of {} elements to {out:?}", inst.opcode, data.len());
    }
    Ok(Literal::array(out, data.clone()))
}

/// `dynamic-reshape(operand, dim_sizes...)`: a reshape whose runtime sizes
/// must equal the static (bound) result dims, since dynamic shapes are not
/// modelled; a size below its bound is an error.
fn dynamic_reshape(interpreter: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (_, out) = array_shape(&inst.shape)?;
    if operands.len() != out.len() + 1 {
        bail!("dynamic-reshape to rank {} has {} dim_sizes operands", out.len(), operands.len().saturating_sub(1));
    }
    for (d, (size, bound)) in operands[1..].iter().zip(&out).enumerate() {
        let size = scalar_index(size)?;
        if size != *bound {
            bail!("dynamic-reshape dimension {d} has runtime size {size} but static bound {bound}; dynamic shapes are not modelled");
        }
    }
    reshape(interpreter, inst, &operands[..1])
}

fn transpose(_: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (od, data) = operand(operands, 0)?;
    let perm = dims_attr(inst, "dimensions")?;
    if perm.len() != od.len() {
        bail!("dimensions has {} entries for rank {}", perm.len(), od.len());
    }
    let ostr = strides(od);
    let mut seen = vec![false; od.len()];
    let mut out = Vec::with_capacity(od.len());
    let mut s = Vec::with_capacity(od.len());
    for &p in &perm {
        let p = check_dim(p, od.len(), "transpose dimension")?;
        if std::mem::replace(&mut seen[p], true) {
            bail!("dimensions is not a permutation");
        }
        out.push(od[p]);
        s.push(ostr[p]);
    }
    check_result(inst, data.element_type(), &out)?;
    Ok(Literal::array(out.clone(), gather_box(data, 0, &s, &out)?))
}

fn reverse(_: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (od, data) = operand(operands, 0)?;
    let ostr = strides(od);
    let mut s = ostr.clone();
    let mut base = 0i64;
    let mut seen = vec![false; od.len()];
    for d in dims_attr(inst, "dimensions")? {
        let d = check_dim(d, od.len(), "reverse dimension")?;
        if std::mem::replace(&mut seen[d], true) {
            continue;
        }
        if od[d] > 0 {
            base += (od[d] - 1) * ostr[d];
        }
        s[d] = -ostr[d];
    }
    check_result(inst, data.element_type(), od)?;
    Ok(Literal::array(od.to_vec(), gather_box(data, base, &s, od)?))
}

fn slice(_: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (od, data) = operand(operands, 0)?;
    let ranges = attrs::slice(require(inst, "slice")?).map_err(attr_error)?;
    if ranges.len() != od.len() {
        bail!("slice has {} ranges for rank {}", ranges.len(), od.len());
    }
    let ostr = strides(od);
    let mut base = 0;
    let mut s = Vec::new();
    let mut out = Vec::new();
    for (d, r) in ranges.iter().enumerate() {
        if r.stride < 1 || r.start < 0 || r.limit < r.start || r.limit > od[d] {
            bail!("slice range [{}:{}:{}] is invalid for dimension {d} of size {}", r.start, r.limit, r.stride, od[d]);
        }
        out.push((r.limit - r.start + r.stride - 1) / r.stride);
        base += r.start * ostr[d];
        s.push(r.stride * ostr[d]);
    }
    check_result(inst, data.element_type(), &out)?;
    Ok(Literal::array(out.clone(), gather_box(data, base, &s, &out)?))
}

fn dynamic_slice(_: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (od, data) = operand(operands, 0)?;
    let sizes = dims_attr(inst, "dynamic_slice_sizes")?;
    if sizes.len() != od.len() {
        bail!("dynamic_slice_sizes has {} entries for rank {}", sizes.len(), od.len());
    }
    let starts = start_indices(operands, 1, od.len())?;
    let ostr = strides(od);
    let mut base = 0;
    for d in 0..od.len() {
        if sizes[d] < 0 || sizes[d] > od[d] {
            bail!("slice size {} is out of range for dimension {d} of size {}", sizes[d], od[d]);
        }
        base += starts[d].clamp(0, od[d] - sizes[d]) * ostr[d];
    }
    check_result(inst, data.element_type(), &sizes)?;
    Ok(Literal::array(sizes.clone(), gather_box(data, base, &ostr, &sizes)?))
}

fn dynamic_update_slice(_: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (od, data) = operand(operands, 0)?;
    let (ud, update) = operand(operands, 1)?;
    if ud.len() != od.len() {
        bail!("update of rank {} for an operand of rank {}", ud.len(), od.len());
    }
    let starts = start_indices(operands, 2, od.len())?;
    let ostr = strides(od);
    let mut base = 0;
    for d in 0..od.len() {
        if ud[d] > od[d] {
            bail!("update dimension {d} (size {}) exceeds the operand's ({})", ud[d], od[d]);
        }
        base += starts[d].clamp(0, od[d] - ud[d]) * ostr[d];
    }
    check_result(inst, data.element_type(), od)?;
    let mut out = data.clone();
    copy_box_data(&mut out, base, &ostr, update, 0, &strides(ud), ud)?;
    Ok(Literal::array(od.to_vec(), out))
}

fn concatenate(_: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (t, out) = array_shape(&inst.shape)?;
    let map = dims_attr(inst, "dimensions")?;
    let [d] = map[..] else { bail!("concatenate takes one dimension") };
    let d = check_dim(d, out.len(), "concatenate dimension")?;
    let outstr = strides(&out);
    let mut result = Data::zeros(t, element_count(&out));
    let mut offset = 0i64;
    for i in 0..operands.len() {
        let (od, data) = operand(operands, i)?;
        if od.len() != out.len() || (0..out.len()).any(|k| k != d && od[k] != out[k]) {
            bail!("operand {i} dims {od:?} do not fit the result {out:?}");
        }
        copy_box_data(&mut result, offset * outstr[d], &outstr, data, 0, &strides(od), od)?;
        offset += od[d];
    }
    if offset != out[d] {
        bail!("operands add up to {offset} along dimension {d}, the result has {}", out[d]);
    }
    Ok(Literal::array(out, result))
}

fn pad(_: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (od, data) = operand(operands, 0)?;
    let (_, value) = operand(operands, 1)?;
    let padding = attrs::padding(require(inst, "padding")?).map_err(attr_error)?;
    if padding.len() != od.len() {
        bail!("padding has {} dimensions for rank {}", padding.len(), od.len());
    }
    let mut out = Vec::new();
    for (d, p) in padding.iter().enumerate() {
        let n = p.low + p.high + od[d] + (od[d] - 1).max(0) * p.interior;
        if n < 0 || p.interior < 0 {
            bail!("padding gives dimension {d} a negative size");
        }
        out.push(n);
    }
    check_result(inst, data.element_type(), &out)?;
    let mut result = splat(value, &out)?;
    let outstr = strides(&out);
    let ostr = strides(od);
    let (mut dst_base, mut src_base) = (0, 0);
    let mut dst_strides = Vec::new();
    let mut box_dims = Vec::new();
    for (d, p) in padding.iter().enumerate() {
        let step = p.interior + 1;
        // Operand indices i with 0 <= low + i*step < out[d].
        let first = if p.low >= 0 { 0 } else { (-p.low + step - 1) / step };
        let end = if out[d] - p.low <= 0 { 0 } else { ((out[d] - p.low + step - 1) / step).min(od[d]) };
        box_dims.push((end - first).max(0));
        dst_base += (p.low + first * step) * outstr[d];
        src_base += first * ostr[d];
        dst_strides.push(step * outstr[d]);
    }
    if box_dims.iter().all(|&n| n > 0) {
        copy_box_data(&mut result, dst_base, &dst_strides, data, src_base, &ostr, &box_dims)?;
    }
    Ok(Literal::array(out, result))
}

/// Index vectors of `start_indices`/`scatter_indices`: the dims other than
/// `index_vector_dim` (the batch space), and a reader of component `k` of
/// the vector at a batch index.
struct IndexVectors {
    values: Vec<i64>,
    /// Dims of the batch space (indices dims without index_vector_dim).
    batch_dims: Vec<i64>,
    /// Strides into `values` of each batch dim.
    batch_strides: Vec<i64>,
    /// Stride of the index vector dimension (0 when implicit).
    vector_stride: i64,
    vector_len: i64,
    /// For each indices dim (index_vector_dim excluded), its position in
    /// the batch space; `index_vector_dim` maps to none.
    indices_dim_to_batch: Vec<Option<usize>>,
}

impl IndexVectors {
    fn new(dims: &[i64], data: &Data, index_vector_dim: i64) -> Result<Self> {
        let rank = dims.len();
        if index_vector_dim < 0 || index_vector_dim as usize > rank {
            bail!("index_vector_dim {index_vector_dim} is out of range for indices of rank {rank}");
        }
        let ivd = index_vector_dim as usize;
        let istr = strides(dims);
        let mut batch_dims = Vec::new();
        let mut batch_strides = Vec::new();
        let mut indices_dim_to_batch = Vec::new();
        for d in 0..rank {
            if d == ivd {
                indices_dim_to_batch.push(None);
            } else {
                indices_dim_to_batch.push(Some(batch_dims.len()));
                batch_dims.push(dims[d]);
                batch_strides.push(istr[d]);
            }
        }
        let (vector_stride, vector_len) = if ivd == rank { (0, 1) } else { (istr[ivd], dims[ivd]) };
        Ok(Self {
            values: index_values(data)?,
            batch_dims,
            batch_strides,
            vector_stride,
            vector_len,
            indices_dim_to_batch,
        })
    }

    /// Component `k` of the index vector at batch offset `base`.
    fn component(&self, base: i64, k: usize) -> Result<i64> {
        if k as i64 >= self.vector_len {
            bail!("index vector component {k} is out of range (length {})", self.vector_len);
        }
        self.values
            .get((base + k as i64 * self.vector_stride) as usize)
            .copied()
            .ok_or_else(|| EvalError::new("internal: index out of range"))
    }

    /// The batch-space position of indices dimension `d`.
    fn batch_position(&self, d: i64) -> Result<usize> {
        usize::try_from(d)
            .ok()
            .and_then(|d| self.indices_dim_to_batch.get(d).copied().flatten())
            .ok_or_else(|| EvalError::new(format!("indices batching dimension {d} is invalid")))
    }
}

/// Calls `f(batch_index, indices_offset)` for every batch index in
/// row-major order.
fn for_each_batch(iv: &IndexVectors, mut f: impl FnMut(&[i64], i64) -> Result<()>) -> Result<()> {
    let mut err = None;
    crate::literal::for_each_index(&iv.batch_dims, |g| {
        if err.is_some() {
            return;
        }
        let off: i64 = g.iter().zip(&iv.batch_strides).map(|(a, b)| a * b).sum();
        if let Err(e) = f(g, off) {
            err = Some(e);
        }
    });
    err.map_or(Ok(()), Err)
}

/// Operand dims not in `a` nor `b`, ascending.
fn remaining_dims(rank: usize, a: &[i64], b: &[i64]) -> Vec<usize> {
    (0..rank).filter(|&d| !a.contains(&(d as i64)) && !b.contains(&(d as i64))).collect()
}

fn gather(_: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (od, data) = operand(operands, 0)?;
    let (id, idata) = operand(operands, 1)?;
    let (_, out) = array_shape(&inst.shape)?;
    let offset_dims = dims_attr_or_empty(inst, "offset_dims")?;
    let collapsed = dims_attr_or_empty(inst, "collapsed_slice_dims")?;
    let start_index_map = dims_attr_or_empty(inst, "start_index_map")?;
    let operand_batching = dims_attr_or_empty(inst, "operand_batching_dims")?;
    let indices_batching = dims_attr_or_empty(inst, "start_indices_batching_dims")?;
    let slice_sizes = dims_attr(inst, "slice_sizes")?;
    let ivd = int_attr(inst, "index_vector_dim")?;
    check_result(inst, data.element_type(), &out)?;
    let rank = od.len();
    if slice_sizes.len() != rank {
        bail!("slice_sizes has {} entries for an operand of rank {rank}", slice_sizes.len());
    }
    for d in 0..rank {
        if slice_sizes[d] < 0 || slice_sizes[d] > od[d] {
            bail!("slice size {} is out of range for operand dimension {d} (size {})", slice_sizes[d], od[d]);
        }
    }
    if operand_batching.len() != indices_batching.len() {
        bail!("operand_batching_dims and start_indices_batching_dims differ in length");
    }
    let iv = IndexVectors::new(id, idata, ivd)?;
    let offset_operand_dims = remaining_dims(rank, &collapsed, &operand_batching);
    if offset_operand_dims.len() != offset_dims.len() {
        bail!("offset_dims has {} entries, the operand leaves {} dims", offset_dims.len(), offset_operand_dims.len());
    }
    let batch_out_dims: Vec<usize> = (0..out.len()).filter(|d| !offset_dims.contains(&(*d as i64))).collect();
    if batch_out_dims.len() != iv.batch_dims.len()
        || batch_out_dims.iter().zip(&iv.batch_dims).any(|(&d, &n)| out[d] != n)
    {
        bail!("the result's batch dims do not match the indices' {:?}", iv.batch_dims);
    }
    let map: Vec<usize> =
        start_index_map.iter().map(|&d| check_dim(d, rank, "start_index_map entry")).collect::<Result<_>>()?;
    let batching: Vec<(usize, usize)> = operand_batching
        .iter()
        .zip(&indices_batching)
        .map(|(&o, &i)| Ok((check_dim(o, rank, "operand batching dim")?, iv.batch_position(i)?)))
        .collect::<Result<_>>()?;
    let ostr = strides(od);
    let outstr = strides(&out);
    let box_dims: Vec<i64> = offset_operand_dims.iter().map(|&d| slice_sizes[d]).collect();
    let src_strides: Vec<i64> = offset_operand_dims.iter().map(|&d| ostr[d]).collect();
    let mut dst_strides = Vec::new();
    for &o in &offset_dims {
        dst_strides.push(outstr[check_dim(o, out.len(), "offset dim")?]);
    }
    for (k, &d) in offset_operand_dims.iter().enumerate() {
        if out[offset_dims[k] as usize] != slice_sizes[d] {
            bail!("result dimension {} does not match slice size {}", offset_dims[k], slice_sizes[d]);
        }
    }
    let mut result = Data::zeros(data.element_type(), element_count(&out));
    let mut start = vec![0i64; rank];
    for_each_batch(&iv, |g, ioff| {
        start.iter_mut().for_each(|s| *s = 0);
        for (k, &d) in map.iter().enumerate() {
            start[d] = iv.component(ioff, k)?.clamp(0, od[d] - slice_sizes[d]);
        }
        for &(o, b) in &batching {
            start[o] = g[b].clamp(0, od[o] - slice_sizes[o]);
        }
        let src_base: i64 = start.iter().zip(&ostr).map(|(a, b)| a * b).sum();
        let dst_base: i64 = g.iter().zip(&batch_out_dims).map(|(&i, &d)| i * outstr[d]).sum();
        copy_box_data(&mut result, dst_base, &dst_strides, data, src_base, &src_strides, &box_dims)
    })?;
    Ok(Literal::array(out, result))
}

fn scatter(interpreter: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    if operands.len() < 3 || operands.len().is_multiple_of(2) {
        bail!("scatter takes N operands, the indices and N updates; got {} operands", operands.len());
    }
    let n = (operands.len() - 1) / 2;
    let (od, _) = operand(operands, 0)?;
    let (id, idata) = operand(operands, n)?;
    let (ud, _) = operand(operands, n + 1)?;
    let mut results = Vec::with_capacity(n);
    let mut updates = Vec::with_capacity(n);
    for k in 0..n {
        let (dk, data) = operand(operands, k)?;
        let (uk, update) = operand(operands, n + 1 + k)?;
        if dk != od || uk != ud {
            bail!("scatter operands (or updates) differ in shape");
        }
        if data.element_type() != update.element_type() {
            bail!("operand {k} and its updates differ in element type");
        }
        results.push(data.clone());
        updates.push(update);
    }
    let update_window_dims = dims_attr_or_empty(inst, "update_window_dims")?;
    let inserted = dims_attr_or_empty(inst, "inserted_window_dims")?;
    let to_operand = dims_attr_or_empty(inst, "scatter_dims_to_operand_dims")?;
    let input_batching = dims_attr_or_empty(inst, "input_batching_dims")?;
    let indices_batching = dims_attr_or_empty(inst, "scatter_indices_batching_dims")?;
    let ivd = int_attr(inst, "index_vector_dim")?;
    let to_apply = attrs::computation(require(inst, "to_apply")?).map_err(attr_error)?;
    let rank = od.len();
    if input_batching.len() != indices_batching.len() {
        bail!("input_batching_dims and scatter_indices_batching_dims differ in length");
    }
    let iv = IndexVectors::new(id, idata, ivd)?;
    let window_operand_dims = remaining_dims(rank, &inserted, &input_batching);
    if window_operand_dims.len() != update_window_dims.len() {
        bail!(
            "update_window_dims has {} entries, the operand leaves {} dims",
            update_window_dims.len(),
            window_operand_dims.len()
        );
    }
    let update_scatter_dims: Vec<usize> =
        (0..ud.len()).filter(|d| !update_window_dims.contains(&(*d as i64))).collect();
    if update_scatter_dims.len() != iv.batch_dims.len() {
        bail!("updates have {} scatter dims, the indices {}", update_scatter_dims.len(), iv.batch_dims.len());
    }
    for (j, &d) in update_scatter_dims.iter().enumerate() {
        if ud[d] != iv.batch_dims[j] {
            bail!("update scatter dimension {d} (size {}) does not match the indices ({})", ud[d], iv.batch_dims[j]);
        }
    }
    let map: Vec<usize> =
        to_operand.iter().map(|&d| check_dim(d, rank, "scatter_dims_to_operand_dims entry")).collect::<Result<_>>()?;
    let batching: Vec<(usize, usize)> = input_batching
        .iter()
        .zip(&indices_batching)
        .map(|(&o, &i)| Ok((check_dim(o, rank, "input batching dim")?, iv.batch_position(i)?)))
        .collect::<Result<_>>()?;
    let ostr = strides(od);
    let ustr = strides(ud);
    let mut window_size = vec![1i64; rank];
    let mut box_dims = Vec::new();
    let mut upd_strides = Vec::new();
    for (k, &w) in update_window_dims.iter().enumerate() {
        let w = check_dim(w, ud.len(), "update window dim")?;
        window_size[window_operand_dims[k]] = ud[w];
        box_dims.push(ud[w]);
        upd_strides.push(ustr[w]);
    }
    let op_strides: Vec<i64> = window_operand_dims.iter().map(|&d| ostr[d]).collect();
    let combiner = reduce::analyze_combiner(interpreter, &to_apply, n)?;
    let mut start = vec![0i64; rank];
    for_each_batch(&iv, |g, ioff| {
        start.iter_mut().for_each(|s| *s = 0);
        for (k, &d) in map.iter().enumerate() {
            start[d] = iv.component(ioff, k)?;
        }
        for &(o, b) in &batching {
            start[o] = g[b];
        }
        if (0..rank).any(|d| start[d] < 0 || start[d] > od[d] - window_size[d]) {
            return Ok(()); // out of bounds: XLA skips the whole window
        }
        let op_base: i64 = start.iter().zip(&ostr).map(|(a, b)| a * b).sum();
        let upd_base: i64 = g.iter().zip(&update_scatter_dims).map(|(&i, &d)| i * ustr[d]).sum();
        reduce::combine_box(
            interpreter,
            &to_apply,
            &combiner,
            &mut results,
            op_base,
            &op_strides,
            &updates,
            upd_base,
            &upd_strides,
            &box_dims,
        )
    })?;
    let outs: Vec<Literal> = results.into_iter().map(|d| Literal::array(od.to_vec(), d)).collect();
    finish_variadic(inst, outs)
}

/// One array, or a tuple of N, checked against the declared shape.
pub(crate) fn finish_variadic(inst: &Instruction, mut outs: Vec<Literal>) -> Result<Literal> {
    match &inst.shape {
        Shape::Tuple(shapes) => {
            if shapes.len() != outs.len() {
                bail!("the result tuple has {} elements, the op computes {}", shapes.len(), outs.len());
            }
            for (s, l) in shapes.iter().zip(&outs) {
                let (t, dims) = array_shape(s)?;
                if l.element_type() != Some(t) || l.dims() != dims {
                    bail!("result {:?} {:?} differs from the declared shape", l.element_type(), l.dims());
                }
            }
            Ok(Literal::Tuple(outs))
        }
        _ if outs.len() == 1 => {
            let l = outs.pop().unwrap();
            check_result(inst, l.element_type().unwrap_or(ElementType::Token), l.dims())?;
            Ok(l)
        }
        _ => bail!("the op computes {} results but the declared shape is an array", outs.len()),
    }
}

fn get_dimension_size(_: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (od, _) = operand(operands, 0)?;
    let map = dims_attr(inst, "dimensions")?;
    let [d] = map[..] else { bail!("get-dimension-size takes one dimension") };
    let d = check_dim(d, od.len(), "dimension")?;
    let (t, _) = array_shape(&inst.shape)?;
    let size = od[d];
    let data = match t {
        ElementType::S32 => Data::S32(vec![size as i32]),
        ElementType::S64 => Data::S64(vec![size]),
        ElementType::U32 => Data::U32(vec![size as u32]),
        other => bail!("get-dimension-size of type {}", other.name()),
    };
    Ok(Literal::scalar(data))
}

fn set_dimension_size(_: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (od, data) = operand(operands, 0)?;
    let (t, out) = array_shape(&inst.shape)?;
    if t != data.element_type() || out.len() != od.len() || element_count(&out) != data.len() {
        bail!("set-dimension-size result {out:?} does not match the operand {od:?}");
    }
    Ok(Literal::array(out, data.clone()))
}

fn shuffle(_: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (od, data) = operand(operands, 0)?;
    if let Some(mode) = attr(inst, "mode") {
        let mode = attrs::enum_word(mode).map_err(attr_error)?;
        if mode != "rotate" {
            bail!("shuffle mode '{mode}' is not supported");
        }
    }
    let dims = dims_attr(inst, "dimensions")?;
    let shifts = dims_attr(inst, "shifts")?;
    if dims.len() != shifts.len() {
        bail!("shuffle has {} dimensions and {} shifts", dims.len(), shifts.len());
    }
    check_result(inst, data.element_type(), od)?;
    let mut shift = vec![0i64; od.len()];
    for (&d, &s) in dims.iter().zip(&shifts) {
        let d = check_dim(d, od.len(), "shuffle dimension")?;
        if od[d] > 0 {
            shift[d] = s.rem_euclid(od[d]);
        }
    }
    // Each dimension splits into two runs: output [0, n-s) from operand
    // [s, n), output [n-s, n) from operand [0, s); copy every combination.
    let ostr = strides(od);
    let mut result = data.clone();
    let rotated: Vec<usize> = (0..od.len()).filter(|&d| shift[d] != 0).collect();
    for combo in 0..(1u64 << rotated.len()) {
        let mut box_dims = od.to_vec();
        let (mut dst, mut src) = (0, 0);
        for (bit, &d) in rotated.iter().enumerate() {
            let (n, s) = (od[d], shift[d]);
            if combo >> bit & 1 == 0 {
                box_dims[d] = n - s;
                src += s * ostr[d];
            } else {
                box_dims[d] = s;
                dst += (n - s) * ostr[d];
            }
        }
        copy_box_data(&mut result, dst, &ostr, data, src, &ostr, &box_dims)?;
    }
    Ok(Literal::array(od.to_vec(), result))
}
