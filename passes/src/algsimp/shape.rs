//! Data movement: reshape, broadcast, transpose, slice, concatenate, pad,
//! reverse, copy, dynamic-slice, dynamic-update-slice, iota and sort.
//!
//! These ops only move, replicate or select elements, so every rewrite
//! here is exact by construction: each rule replaces a movement by another
//! one that reads the same element for every output position.

use super::*;
use crate::constant::ConstantBuilder;
use rxla_ir::{
    rewrite::Pattern,
    types::shape::{compose_permutations, degenerate_reshape_map, inverse_permutation, is_identity_permutation},
};

pub(super) fn patterns(out: &mut Vec<Rc<dyn Pattern>>) {
    out.push(simp("hlo.reshape", reshape));
    out.push(simp("hlo.broadcast", broadcast));
    out.push(simp("hlo.transpose", transpose));
    out.push(simp("hlo.slice", slice));
    out.push(simp("hlo.concatenate", concatenate));
    out.push(simp("hlo.pad", pad));
    out.push(simp("hlo.reverse", reverse));
    out.push(simp("hlo.copy", copy));
    out.push(simp("hlo.dynamic_slice", dynamic_slice));
    out.push(simp("hlo.dynamic_update_slice", dynamic_update_slice));
    out.push(simp("hlo.iota", iota));
    out.push(simp_multi("hlo.sort", sort));
}

type R = Result<Option<Value>, PassError>;

fn dims(op: Op, name: &str) -> Option<Vec<i64>> {
    op.dims_attr(name)
}

fn is_sorted(v: &[i64]) -> bool {
    v.windows(2).all(|w| w[0] < w[1])
}

/// Pairs (from dim, to dim) that a reshape from `from` to `to` leaves
/// unmodified: same size and the same number of elements before them, so
/// the index along them is the same on both sides (XLA's
/// DimensionsUnmodifiedByReshape). Size-1 dims are paired greedily in
/// order. Empty for zero-element shapes.
pub(super) fn unmodified_dims(from: &[i64], to: &[i64]) -> Vec<(usize, usize)> {
    if from.iter().product::<i64>() == 0 || to.iter().product::<i64>() == 0 {
        return Vec::new();
    }
    let prefix = |d: &[i64]| -> Vec<i64> {
        let mut p = Vec::with_capacity(d.len());
        let mut acc = 1i64;
        for &x in d {
            p.push(acc);
            acc = acc.saturating_mul(x);
        }
        p
    };
    let (pf, pt) = (prefix(from), prefix(to));
    let mut out = Vec::new();
    let mut next = 0;
    for i in 0..from.len() {
        if let Some(j) = (next..to.len()).find(|&j| to[j] == from[i] && pt[j] == pf[i]) {
            out.push((i, j));
            next = j + 1;
        }
    }
    out
}

/// For a reshape that only inserts size-1 dims: for each dim of `to`, the
/// dim of `from` it is (None for an inserted 1).
fn inserting_map(from: &[i64], to: &[i64]) -> Option<Vec<Option<usize>>> {
    let map = degenerate_reshape_map(from, to)?;
    (map.iter().filter(|m| m.is_some()).count() == from.len()).then_some(map)
}

// ---------------------------------------------------------------------------
// reshape

/// `reshape(x) -> x` to the same dims; `reshape(reshape(x)) -> reshape(x)`;
/// `reshape(broadcast(x)) -> broadcast(x)` when the reshape leaves x's
/// dims unmodified; `reshape(iota) -> iota` when the iota dim is
/// unmodified; chains of transposes and degenerate reshapes that compose
/// to no permutation become one reshape.
fn reshape(op: Op, b: &Builder) -> R {
    let x = op.operand(0);
    let (Some(xt), Some(rt)) = (tensor(x), result_tensor(op)) else { return Ok(None) };
    if xt.dims == rt.dims {
        return Ok(fwd(op, x));
    }
    if let Some(inner) = def(x, "reshape") {
        let z = inner.operand(0);
        if tensor(z).is_some_and(|t| t.dims == rt.dims) {
            return Ok(fwd(op, z));
        }
        return Ok(Some(b.reshape(z, &rt.dims)?));
    }
    if let Some(bc) = def(x, "broadcast") {
        let bd = dims(bc, "dimensions").unwrap_or_default();
        let map = unmodified_dims(&xt.dims, &rt.dims);
        let new: Option<Vec<i64>> =
            bd.iter().map(|&d| map.iter().find(|(f, _)| *f as i64 == d).map(|(_, t)| *t as i64)).collect();
        if let Some(new) = new {
            return Ok(Some(b.broadcast(bc.operand(0), &new, &rt.dims)?));
        }
    }
    if let Some(io) = def(x, "iota") {
        if let Some(d) = io.int_attr("iota_dimension") {
            if let Some((_, t)) = unmodified_dims(&xt.dims, &rt.dims).into_iter().find(|(f, _)| *f as i64 == d) {
                return Ok(Some(b.iota(&rt, t as i64)?));
            }
        }
    }
    movement_chain(op, b)
}

/// XLA's TryRemovingBitcastOrReshapeTransposeChain, generalised: walking
/// down from `op` through transposes and reshapes that only insert or
/// delete size-1 dims, if the non-degenerate dims come out in their
/// original order and the chain contains a transpose, the whole chain is
/// one reshape (or nothing).
fn movement_chain(op: Op, b: &Builder) -> R {
    let Some(rt) = result_tensor(op) else { return Ok(None) };
    let non_one = |d: &[i64]| -> Vec<usize> { (0..d.len()).filter(|&i| d[i] != 1).collect() };
    let k = non_one(&rt.dims).len();
    // order[t]: position, among the current value's non-1 dims, of the
    // t-th non-1 dim of the result.
    let mut order: Vec<usize> = (0..k).collect();
    let mut cur = op;
    let mut seen_transpose = false;
    let mut best: Option<Value> = None;
    for _ in 0..16 {
        let Some(out_t) = tensor(cur.result(0)) else { break };
        let input = cur.operand(0);
        let Some(in_t) = tensor(input) else { break };
        if cur.is("transpose") {
            let Some(perm) = dims(cur, "dimensions") else { break };
            let out_non_one = non_one(&out_t.dims);
            let in_non_one = non_one(&in_t.dims);
            let mut next = Vec::with_capacity(k);
            for &s in &order {
                let in_dim = perm[out_non_one[s]] as usize;
                let Some(r) = in_non_one.iter().position(|&d| d == in_dim) else { return Ok(None) };
                next.push(r);
            }
            order = next;
            seen_transpose = true;
        } else if cur.is("reshape") {
            if degenerate_reshape_map(&in_t.dims, &out_t.dims).is_none() {
                break;
            }
        } else {
            break;
        }
        if seen_transpose && order.iter().enumerate().all(|(i, &o)| i == o) {
            best = Some(input);
        }
        match input.op() {
            Some(next)
                if (next.is("transpose") || next.is("reshape")) && !next.has_attr("hlo.control_predecessors") =>
            {
                cur = next
            }
            _ => break,
        }
    }
    let Some(start) = best else { return Ok(None) };
    if tensor(start).is_some_and(|t| t.dims == rt.dims) {
        return Ok(fwd(op, start));
    }
    Ok(Some(b.reshape(start, &rt.dims)?))
}

// ---------------------------------------------------------------------------
// broadcast

/// XLA's HandleBroadcast: a broadcast that adds no elements with sorted
/// dims is a reshape, with unsorted dims a transpose;
/// `broadcast(reshape(x))` where the reshape only inserts 1s broadcasts x;
/// `broadcast(iota) -> iota`; `broadcast(broadcast(x))` is one broadcast;
/// size-1 operand dims are dropped with a reshape first.
fn broadcast(op: Op, b: &Builder) -> R {
    let x = op.operand(0);
    let (Some(xt), Some(rt)) = (tensor(x), result_tensor(op)) else { return Ok(None) };
    let Some(bd) = dims(op, "dimensions") else { return Ok(None) };
    if bd.len() != xt.rank() {
        return Ok(None);
    }
    if rt.num_elements() == xt.num_elements() && rt.num_elements() > 0 {
        if is_sorted(&bd) {
            if xt.dims == rt.dims {
                return Ok(fwd(op, x));
            }
            return Ok(Some(b.reshape(x, &rt.dims)?));
        }
        if xt.rank() == rt.rank() {
            return Ok(Some(b.transpose(x, &inverse_permutation(&bd))?));
        }
    }
    if let Some(inner) = def(x, "reshape") {
        let z = inner.operand(0);
        if let Some(zt) = tensor(z) {
            if let Some(map) = inserting_map(&zt.dims, &xt.dims) {
                let new: Vec<i64> = map.iter().enumerate().filter(|(_, m)| m.is_some()).map(|(i, _)| bd[i]).collect();
                return Ok(Some(b.broadcast(z, &new, &rt.dims)?));
            }
        }
    }
    if let Some(io) = def(x, "iota") {
        if let Some(d) = io.int_attr("iota_dimension") {
            let to = bd[d as usize];
            if rt.dims[to as usize] == xt.dims[d as usize] {
                return Ok(Some(b.iota(&rt, to)?));
            }
        }
    }
    if let Some(inner) = def(x, "broadcast") {
        if let Some(inner_dims) = dims(inner, "dimensions") {
            let new: Vec<i64> = inner_dims.iter().map(|&d| bd[d as usize]).collect();
            return Ok(Some(b.broadcast(inner.operand(0), &new, &rt.dims)?));
        }
    }
    if xt.dims.contains(&1) && xt.num_elements() > 0 {
        let kept: Vec<usize> = (0..xt.rank()).filter(|&i| xt.dims[i] != 1).collect();
        let squeezed: Vec<i64> = kept.iter().map(|&i| xt.dims[i]).collect();
        let new_dims: Vec<i64> = kept.iter().map(|&i| bd[i]).collect();
        let r = b.reshape(x, &squeezed)?;
        return Ok(Some(b.broadcast(r, &new_dims, &rt.dims)?));
    }
    Ok(None)
}

// ---------------------------------------------------------------------------
// transpose

/// Identity permutations vanish; `transpose(transpose(x))` composes;
/// `transpose(broadcast(x))` is a broadcast when x's dims stay in order;
/// transposes that only move size-1 dims (and chains with degenerate
/// reshapes) become reshapes.
fn transpose(op: Op, b: &Builder) -> R {
    let x = op.operand(0);
    let (Some(_), Some(rt)) = (tensor(x), result_tensor(op)) else { return Ok(None) };
    let Some(perm) = dims(op, "dimensions") else { return Ok(None) };
    if is_identity_permutation(&perm) {
        return Ok(fwd(op, x));
    }
    if let Some(inner) = def(x, "transpose") {
        if let Some(p1) = dims(inner, "dimensions") {
            let composed = compose_permutations(&p1, &perm);
            if is_identity_permutation(&composed) {
                return Ok(fwd(op, inner.operand(0)));
            }
            return Ok(Some(b.transpose(inner.operand(0), &composed)?));
        }
    }
    if let Some(bc) = def(x, "broadcast") {
        if let Some(bd) = dims(bc, "dimensions") {
            let inv = inverse_permutation(&perm);
            let new: Vec<i64> = bd.iter().map(|&d| inv[d as usize]).collect();
            if is_sorted(&new) && is_sorted(&bd) {
                return Ok(Some(b.broadcast(bc.operand(0), &new, &rt.dims)?));
            }
        }
    }
    if let Some(v) = super::dot::transpose_of_dot(op, b)? {
        return Ok(Some(v));
    }
    movement_chain(op, b)
}

// ---------------------------------------------------------------------------
// slice

struct SliceAttrs {
    start: Vec<i64>,
    limit: Vec<i64>,
    strides: Vec<i64>,
}

fn slice_attrs(op: Op) -> Option<SliceAttrs> {
    Some(SliceAttrs {
        start: dims(op, "start_indices")?,
        limit: dims(op, "limit_indices")?,
        strides: dims(op, "strides")?,
    })
}

/// Full slices vanish; slices of slices compose; slices of broadcasts,
/// pads, concatenates and reverses move to the operand (XLA's
/// HandleSlice); strides that pick a single element become 1.
fn slice(op: Op, b: &Builder) -> R {
    let x = op.operand(0);
    let (Some(xt), Some(rt)) = (tensor(x), result_tensor(op)) else { return Ok(None) };
    let Some(s) = slice_attrs(op) else { return Ok(None) };
    let rank = rt.rank();
    if xt.dims == rt.dims {
        return Ok(fwd(op, x));
    }
    let n = &rt.dims;
    // slice(slice(y)): element k of dim i is y[s1 + (s + k * st) * st1].
    if let Some(inner) = def(x, "slice") {
        if let Some(s1) = slice_attrs(inner) {
            let mut start = Vec::with_capacity(rank);
            let mut limit = Vec::with_capacity(rank);
            let mut strides = Vec::with_capacity(rank);
            for (i, &count) in n.iter().enumerate() {
                let st = s.strides[i] * s1.strides[i];
                let st0 = s1.start[i] + s.start[i] * s1.strides[i];
                start.push(st0);
                limit.push(if count == 0 { st0 } else { st0 + (count - 1) * st + 1 });
                strides.push(st);
            }
            return Ok(Some(b.slice(inner.operand(0), &start, &limit, &strides)?));
        }
    }
    if let Some(bc) = def(x, "broadcast") {
        let z = bc.operand(0);
        let (Some(zt), Some(bd)) = (tensor(z), dims(bc, "dimensions")) else { return Ok(None) };
        let untouched = bd.iter().all(|&d| {
            let d = d as usize;
            s.start[d] == 0 && s.strides[d] == 1 && s.limit[d] == xt.dims[d]
        });
        if untouched {
            return Ok(Some(b.broadcast(z, &bd, &rt.dims)?));
        }
        // Only when no broadcast dim expands a size-1 operand dim.
        if bd.iter().enumerate().all(|(k, &d)| zt.dims[k] == xt.dims[d as usize]) {
            let pick = |v: &[i64]| -> Vec<i64> { bd.iter().map(|&d| v[d as usize]).collect() };
            let inner = b.slice(z, &pick(&s.start), &pick(&s.limit), &pick(&s.strides))?;
            return Ok(Some(b.broadcast(inner, &bd, &rt.dims)?));
        }
    }
    if let Some(p) = def(x, "pad") {
        if let Some(v) = slice_of_pad(op, b, p, &s, &xt, &rt)? {
            return Ok(Some(v));
        }
    }
    if let Some(c) = def(x, "concatenate") {
        if s.strides.iter().all(|&st| st == 1) {
            if let Some(v) = slice_of_concat(op, b, c, &s, &rt)? {
                return Ok(Some(v));
            }
        }
    }
    if let Some(r) = def(x, "reverse") {
        if let Some(rd) = dims(r, "dimensions") {
            // Element k of a reversed dim of size n is z[n - 1 - (start + k * stride)].
            let mut start = s.start.clone();
            let mut limit = s.limit.clone();
            let mut ok = true;
            for &d in &rd {
                let d = d as usize;
                if n[d] == 0 {
                    ok = false;
                    break;
                }
                let last = s.start[d] + (n[d] - 1) * s.strides[d];
                start[d] = xt.dims[d] - 1 - last;
                limit[d] = xt.dims[d] - s.start[d];
            }
            if ok {
                let inner = b.slice(r.operand(0), &start, &limit, &s.strides)?;
                return Ok(Some(b.reverse(inner, &rd)?));
            }
        }
    }
    // Redundant strides: a stride that can only pick one element.
    if (0..rank).any(|i| s.strides[i] != 1 && n[i] == 1) {
        let strides: Vec<i64> = (0..rank).map(|i| if n[i] == 1 { 1 } else { s.strides[i] }).collect();
        let limit: Vec<i64> = (0..rank).map(|i| if n[i] == 1 { s.start[i] + 1 } else { s.limit[i] }).collect();
        return Ok(Some(b.slice(x, &s.start, &limit, &strides)?));
    }
    Ok(None)
}

/// slice(pad(z, v)): entirely in the edge padding -> broadcast(v); exactly
/// undoing the pad -> z; entirely inside z without interior padding ->
/// slice(z).
fn slice_of_pad(op: Op, b: &Builder, p: Op, s: &SliceAttrs, xt: &TensorType, rt: &TensorType) -> R {
    let (z, v) = (p.operand(0), p.operand(1));
    let (Some(low), Some(high), Some(interior)) =
        (dims(p, "edge_padding_low"), dims(p, "edge_padding_high"), dims(p, "interior_padding"))
    else {
        return Ok(None);
    };
    if rt.num_elements() == 0 {
        return Ok(None);
    }
    let mut undoes = true;
    let mut inside = true;
    let mut in_padding = false;
    let mut start = s.start.clone();
    let mut limit = s.limit.clone();
    for i in 0..rt.rank() {
        let edge = xt.dims[i] - high[i];
        if s.limit[i] <= low[i] || s.start[i] >= edge {
            in_padding = true;
            break;
        }
        if s.start[i] != low[i] || s.strides[i] - 1 != interior[i] {
            undoes = false;
        }
        if s.start[i] < low[i] || s.limit[i] > edge || interior[i] != 0 || s.strides[i] != 1 {
            inside = false;
        }
        start[i] -= low[i];
        limit[i] -= low[i];
    }
    if in_padding {
        return Ok(Some(b.broadcast_scalar(v, &rt.dims)?));
    }
    if undoes {
        if let Some(v) = fwd(op, z) {
            return Ok(Some(v));
        }
    }
    if inside {
        return Ok(Some(b.slice(z, &start, &limit, &s.strides)?));
    }
    Ok(None)
}

/// An unstrided slice of a concatenate that reads only some of its
/// operands slices those operands (or is one of them).
fn slice_of_concat(op: Op, b: &Builder, c: Op, s: &SliceAttrs, rt: &TensorType) -> R {
    let Some(dim) = c.int_attr("dimension") else { return Ok(None) };
    let dim = dim as usize;
    let parts = c.operands();
    let (lo, hi) = (s.start[dim], s.limit[dim]);
    if hi <= lo {
        return Ok(None);
    }
    let mut offset = 0;
    let mut first: Option<(usize, i64)> = None;
    let mut last: Option<usize> = None;
    for (i, part) in parts.iter().enumerate() {
        let Some(pt) = tensor(*part) else { return Ok(None) };
        let size = pt.dims[dim];
        if first.is_none() && offset <= lo && lo < offset + size {
            first = Some((i, offset));
        }
        offset += size;
        if last.is_none() && offset >= hi {
            last = Some(i);
            break;
        }
    }
    let (Some((i0, base)), Some(i1)) = (first, last) else { return Ok(None) };
    if i1 - i0 + 1 == parts.len() {
        return Ok(None);
    }
    if i0 == i1 {
        if let Some(v) = fwd(op, parts[i0]) {
            return Ok(Some(v));
        }
    }
    let source = if i0 == i1 { parts[i0] } else { b.concatenate(&parts[i0..=i1], dim as i64)? };
    let mut start = s.start.clone();
    let mut limit = s.limit.clone();
    start[dim] -= base;
    limit[dim] = start[dim] + rt.dims[dim];
    Ok(Some(b.slice(source, &start, &limit, &s.strides)?))
}

// ---------------------------------------------------------------------------
// concatenate

/// XLA's HandleConcatenate: a single operand is the result; empty operands
/// are dropped; nested concatenates along the same dim are flattened;
/// adjacent unstrided slices of one array merge into one slice; a
/// concatenate with a broadcast scalar is a pad; n copies of one size-1
/// slab are a broadcast.
fn concatenate(op: Op, b: &Builder) -> R {
    let parts = op.operands();
    let (Some(rt), Some(dim)) = (result_tensor(op), op.int_attr("dimension")) else { return Ok(None) };
    let d = dim as usize;
    if parts.len() == 1 {
        return Ok(fwd(op, parts[0]));
    }
    let types: Option<Vec<TensorType>> = parts.iter().map(|p| tensor(*p)).collect();
    let Some(types) = types else { return Ok(None) };
    let nonempty: Vec<Value> =
        parts.iter().zip(&types).filter(|(_, t)| t.num_elements() > 0).map(|(p, _)| *p).collect();
    if nonempty.len() < parts.len() {
        return match nonempty.len() {
            0 => Ok(None),
            1 => Ok(fwd(op, nonempty[0])),
            _ => Ok(Some(b.concatenate(&nonempty, dim)?)),
        };
    }
    // Flatten nested concatenates along the same dimension.
    let mut flat = Vec::new();
    let mut nested = false;
    for p in &parts {
        match def(*p, "concatenate") {
            Some(inner) if inner.int_attr("dimension") == Some(dim) => {
                flat.extend(inner.operands());
                nested = true;
            }
            _ => flat.push(*p),
        }
    }
    if nested {
        return Ok(Some(b.concatenate(&flat, dim)?));
    }
    // Merge adjacent unstrided slices of the same operand.
    let mut merged: Vec<Value> = Vec::new();
    let mut changed = false;
    let mut i = 0;
    while i < parts.len() {
        let Some((src, s0)) = unstrided_slice(parts[i]) else {
            merged.push(parts[i]);
            i += 1;
            continue;
        };
        let mut end = s0.limit[d];
        let mut j = i + 1;
        while j < parts.len() {
            match unstrided_slice(parts[j]) {
                Some((src_j, sj))
                    if src_j.same_as(src)
                        && sj.start[d] == end
                        && (0..s0.start.len()).all(|k| k == d || sj.start[k] == s0.start[k]) =>
                {
                    end = sj.limit[d];
                    j += 1;
                }
                _ => break,
            }
        }
        if j - i > 1 {
            let mut limit = s0.limit.clone();
            limit[d] = end;
            merged.push(b.slice(src, &s0.start, &limit, &s0.strides)?);
            changed = true;
        } else {
            merged.push(parts[i]);
        }
        i = j;
    }
    if changed {
        return Ok(Some(if merged.len() == 1 { merged[0] } else { b.concatenate(&merged, dim)? }));
    }
    // concat(broadcast(scalar), x) and concat(x, broadcast(scalar)) are pads.
    if parts.len() == 2 {
        let scalar_bcast = |v: Value| {
            def(v, "broadcast").map(|bc| bc.operand(0)).filter(|s| tensor(*s).is_some_and(|t| t.rank() == 0))
        };
        let rank = rt.rank();
        let zeros = vec![0i64; rank];
        if let Some(s) = scalar_bcast(parts[0]) {
            let mut low = zeros.clone();
            low[d] = types[0].dims[d];
            return Ok(Some(b.pad(parts[1], s, &low, &zeros, &zeros)?));
        }
        if let Some(s) = scalar_bcast(parts[1]) {
            let mut high = zeros.clone();
            high[d] = types[1].dims[d];
            return Ok(Some(b.pad(parts[0], s, &zeros, &high, &zeros)?));
        }
    }
    // n copies of one slab of size 1 along dim: broadcast of the slab.
    if parts.iter().all(|p| p.same_as(parts[0])) && types[0].dims[d] == 1 {
        let mut squeezed = types[0].dims.clone();
        squeezed.remove(d);
        let bd: Vec<i64> = (0..rt.rank() as i64).filter(|&k| k != dim).collect();
        let r = b.reshape(parts[0], &squeezed)?;
        return Ok(Some(b.broadcast(r, &bd, &rt.dims)?));
    }
    Ok(None)
}

/// `v` as an unstrided slice: (its operand, attributes).
fn unstrided_slice(v: Value) -> Option<(Value, SliceAttrs)> {
    let s = def(v, "slice")?;
    let a = slice_attrs(s)?;
    a.strides.iter().all(|&st| st == 1).then(|| (s.operand(0), a))
}

// ---------------------------------------------------------------------------
// pad

/// Pads of empty arrays are broadcasts of the padding value; interior
/// padding of size-1 dims is dropped; all-zero pads vanish; negative edge
/// padding becomes a non-negative pad and a slice (XLA's HandlePad).
fn pad(op: Op, b: &Builder) -> R {
    let (x, v) = (op.operand(0), op.operand(1));
    let (Some(xt), Some(rt)) = (tensor(x), result_tensor(op)) else { return Ok(None) };
    let (Some(low), Some(high), Some(interior)) =
        (dims(op, "edge_padding_low"), dims(op, "edge_padding_high"), dims(op, "interior_padding"))
    else {
        return Ok(None);
    };
    if rt.num_elements() == 0 {
        return Ok(None);
    }
    if xt.num_elements() == 0 {
        return Ok(Some(b.broadcast_scalar(v, &rt.dims)?));
    }
    if (0..xt.rank()).any(|i| interior[i] > 0 && xt.dims[i] == 1) {
        let new: Vec<i64> = (0..xt.rank()).map(|i| if xt.dims[i] == 1 { 0 } else { interior[i] }).collect();
        return Ok(Some(b.pad(x, v, &low, &high, &new)?));
    }
    if low.iter().chain(&high).chain(&interior).all(|&p| p == 0) {
        return Ok(fwd(op, x));
    }
    if low.iter().chain(&high).any(|&p| p < 0) {
        let nl: Vec<i64> = low.iter().map(|&p| p.max(0)).collect();
        let nh: Vec<i64> = high.iter().map(|&p| p.max(0)).collect();
        let padded = b.pad(x, v, &nl, &nh, &interior)?;
        let Some(pt) = tensor(padded) else { return Ok(None) };
        let start: Vec<i64> = low.iter().map(|&p| if p < 0 { -p } else { 0 }).collect();
        let limit: Vec<i64> = (0..xt.rank()).map(|i| pt.dims[i] + high[i].min(0)).collect();
        let ones = vec![1i64; xt.rank()];
        return Ok(Some(b.slice(padded, &start, &limit, &ones)?));
    }
    Ok(None)
}

// ---------------------------------------------------------------------------
// reverse

/// Element-wise binary ops that commute with moving elements.
const ELEMENTWISE_BINARY: &[&str] = &[
    "add",
    "subtract",
    "multiply",
    "divide",
    "remainder",
    "power",
    "maximum",
    "minimum",
    "and",
    "or",
    "xor",
    "atan2",
    "shift_left",
    "shift_right_arithmetic",
    "shift_right_logical",
];

/// Reverses of size-1 dims vanish; reverse(reverse) keeps the symmetric
/// difference; reverses move into elementwise ops with a broadcast scalar
/// operand, through reshapes that only insert 1s, and onto scalar
/// broadcasts.
fn reverse(op: Op, b: &Builder) -> R {
    let x = op.operand(0);
    let (Some(xt), Some(rt)) = (tensor(x), result_tensor(op)) else { return Ok(None) };
    let Some(rd) = dims(op, "dimensions") else { return Ok(None) };
    if rd.iter().all(|&d| xt.dims[d as usize] <= 1) {
        return Ok(fwd(op, x));
    }
    if let Some(inner) = def(x, "reverse") {
        if let Some(rd2) = dims(inner, "dimensions") {
            let mut sym: Vec<i64> =
                rd.iter().chain(&rd2).copied().filter(|d| rd.contains(d) != rd2.contains(d)).collect();
            sym.sort();
            sym.dedup();
            if sym.is_empty() {
                return Ok(fwd(op, inner.operand(0)));
            }
            return Ok(Some(b.reverse(inner.operand(0), &sym)?));
        }
    }
    if let Some(bc) = def(x, "broadcast") {
        if tensor(bc.operand(0)).is_some_and(|t| t.rank() == 0) {
            return Ok(Some(b.broadcast_scalar(bc.operand(0), &rt.dims)?));
        }
    }
    if let Some(inner) =
        x.op().filter(|o| o.name().starts_with("hlo.") && ELEMENTWISE_BINARY.contains(&o.opcode().as_str()))
    {
        if inner.num_operands() == 2 && !inner.has_attr("hlo.control_predecessors") {
            let scalar =
                |v: Value| def(v, "broadcast").is_some_and(|bc| tensor(bc.operand(0)).is_some_and(|t| t.rank() == 0));
            let (a, c) = (inner.operand(0), inner.operand(1));
            let name = inner.name();
            if scalar(a) && !scalar(c) {
                let rc = b.reverse(c, &rd)?;
                return Ok(Some(b.value(&name, &[a, rc], rt.into(), &[])?));
            }
            if scalar(c) && !scalar(a) {
                let ra = b.reverse(a, &rd)?;
                return Ok(Some(b.value(&name, &[ra, c], rt.into(), &[])?));
            }
        }
    }
    if let Some(inner) = def(x, "reshape") {
        let z = inner.operand(0);
        if let Some(zt) = tensor(z) {
            if let Some(map) = inserting_map(&zt.dims, &xt.dims) {
                let new: Vec<i64> = rd
                    .iter()
                    .filter(|&&d| xt.dims[d as usize] != 1)
                    .filter_map(|&d| map[d as usize])
                    .map(|m| m as i64)
                    .collect();
                let r = if new.is_empty() { z } else { b.reverse(z, &new)? };
                return Ok(Some(b.reshape(r, &rt.dims)?));
            }
        }
    }
    Ok(None)
}

// ---------------------------------------------------------------------------
// copy

/// A copy with the same (default) layout as its operand is the operand;
/// `copy(copy(x)) -> x` when x has the default layout.
fn copy(op: Op, _: &Builder) -> R {
    let x = op.operand(0);
    if let Some(v) = fwd(op, x) {
        return Ok(Some(v));
    }
    if let Some(inner) = def(x, "copy") {
        return Ok(fwd(op, inner.operand(0)));
    }
    Ok(None)
}

// ---------------------------------------------------------------------------
// dynamic-slice / dynamic-update-slice

/// A scalar 0 of the type of index operand `idx`.
fn zero_index(b: &Builder, idx: Value) -> Result<Option<Value>, PassError> {
    let Some(t) = tensor(idx) else { return Ok(None) };
    Ok(Some(b.scalar(&t.elem, Scalar::Int(0))?))
}

fn dynamic_slice_op(b: &Builder, x: Value, idx: &[Value], sizes: &[i64]) -> Result<Value, PassError> {
    let t = tensor(x).ok_or_else(|| PassError("internal error: dynamic_slice of a non-array".into()))?;
    let mut operands = vec![x];
    operands.extend_from_slice(idx);
    b.value("hlo.dynamic_slice", &operands, t.with_dims(sizes).into(), &[("slice_sizes", b.dims_attr(sizes))])
}

/// The clamped start of a constant index for a slice of `size` out of
/// `dim` (dynamic-slice clamps starts into [0, dim - size]).
fn clamped_start(idx: Value, dim: i64, size: i64) -> Option<i64> {
    let i = splat_int(idx)?;
    let hi = (dim - size).max(0) as i128;
    Some(i.clamp(0, hi) as i64)
}

/// XLA's HandleDynamicSlice: a slice of the whole array is the array;
/// indices of dims taken whole become 0; dynamic slices move into
/// broadcasts, transposes and degenerate reshapes; constant indices make a
/// static slice.
fn dynamic_slice(op: Op, b: &Builder) -> R {
    let x = op.operand(0);
    let idx: Vec<Value> = op.operands()[1..].to_vec();
    let (Some(xt), Some(rt)) = (tensor(x), result_tensor(op)) else { return Ok(None) };
    let Some(sizes) = dims(op, "slice_sizes") else { return Ok(None) };
    if idx.len() != xt.rank() || sizes.len() != xt.rank() {
        return Ok(None);
    }
    if xt.dims == rt.dims {
        return Ok(fwd(op, x));
    }
    // Dims taken whole start at 0 whatever the index.
    let whole: Vec<usize> = (0..xt.rank()).filter(|&d| sizes[d] == xt.dims[d] && !is_zero(idx[d])).collect();
    if !whole.is_empty() {
        let Some(zero) = zero_index(b, idx[whole[0]])? else { return Ok(None) };
        let mut new_idx = idx.clone();
        for &d in &whole {
            if tensor(idx[d]) == tensor(zero) {
                new_idx[d] = zero;
            } else if let Some(z) = zero_index(b, idx[d])? {
                new_idx[d] = z;
            }
        }
        return Ok(Some(dynamic_slice_op(b, x, &new_idx, &sizes)?));
    }
    if let Some(bc) = def(x, "broadcast") {
        let z = bc.operand(0);
        if let (Some(zt), Some(bd)) = (tensor(z), dims(bc, "dimensions")) {
            if bd.iter().enumerate().all(|(k, &d)| zt.dims[k] == xt.dims[d as usize]) {
                let inner = if zt.rank() == 0 {
                    z
                } else {
                    let ni: Vec<Value> = bd.iter().map(|&d| idx[d as usize]).collect();
                    let ns: Vec<i64> = bd.iter().map(|&d| sizes[d as usize]).collect();
                    dynamic_slice_op(b, z, &ni, &ns)?
                };
                return Ok(Some(b.broadcast(inner, &bd, &rt.dims)?));
            }
        }
    }
    if let Some(tr) = def(x, "transpose") {
        if let Some(perm) = dims(tr, "dimensions") {
            let inv = inverse_permutation(&perm);
            let ni: Vec<Value> = inv.iter().map(|&j| idx[j as usize]).collect();
            let ns: Vec<i64> = inv.iter().map(|&j| sizes[j as usize]).collect();
            let inner = dynamic_slice_op(b, tr.operand(0), &ni, &ns)?;
            return Ok(Some(b.transpose(inner, &perm)?));
        }
    }
    if let Some(rs) = def(x, "reshape") {
        let z = rs.operand(0);
        if let Some(zt) = tensor(z) {
            if degenerate_reshape_map(&zt.dims, &xt.dims).is_some() && zt.num_elements() > 0 {
                // For each dim of z: the index and size of the dim of x it
                // is, or None for a size-1 dim the reshape deletes.
                let mut mapped: Vec<Option<(Value, i64)>> = vec![None; zt.rank()];
                for (from, to) in unmodified_dims(&zt.dims, &xt.dims) {
                    if zt.dims[from] != 1 {
                        mapped[from] = Some((idx[to], sizes[to]));
                    }
                }
                if (0..zt.rank()).all(|i| zt.dims[i] == 1 || mapped[i].is_some()) {
                    let zero = if mapped.iter().any(|m| m.is_none()) { zero_index(b, idx[0])? } else { None };
                    let mut ni = Vec::with_capacity(zt.rank());
                    let mut ns = Vec::with_capacity(zt.rank());
                    for m in &mapped {
                        match (m, zero) {
                            (Some((i, s)), _) => {
                                ni.push(*i);
                                ns.push(*s);
                            }
                            (None, Some(z)) => {
                                ni.push(z);
                                ns.push(1);
                            }
                            (None, None) => return Err(PassError("internal error: no zero index".into())),
                        }
                    }
                    let inner = dynamic_slice_op(b, z, &ni, &ns)?;
                    return Ok(Some(b.reshape(inner, &rt.dims)?));
                }
            }
        }
    }
    let starts: Option<Vec<i64>> = (0..xt.rank()).map(|d| clamped_start(idx[d], xt.dims[d], sizes[d])).collect();
    if let Some(starts) = starts {
        let limits: Vec<i64> = (0..xt.rank()).map(|d| starts[d] + sizes[d]).collect();
        let ones = vec![1i64; xt.rank()];
        return Ok(Some(b.slice(x, &starts, &limits, &ones)?));
    }
    Ok(None)
}

/// XLA's HandleDynamicUpdateSlice: an update of the whole array is the
/// update; indices of dims updated whole become 0; empty updates vanish.
fn dynamic_update_slice(op: Op, b: &Builder) -> R {
    let (x, u) = (op.operand(0), op.operand(1));
    let idx: Vec<Value> = op.operands()[2..].to_vec();
    let (Some(xt), Some(ut)) = (tensor(x), tensor(u)) else { return Ok(None) };
    if idx.len() != xt.rank() {
        return Ok(None);
    }
    if ut.dims == xt.dims {
        return Ok(fwd(op, u));
    }
    if ut.num_elements() == 0 {
        return Ok(fwd(op, x));
    }
    let whole: Vec<usize> = (0..xt.rank()).filter(|&d| ut.dims[d] == xt.dims[d] && !is_zero(idx[d])).collect();
    if !whole.is_empty() {
        let mut operands = vec![x, u];
        let mut new_idx = idx.clone();
        for &d in &whole {
            if let Some(z) = zero_index(b, idx[d])? {
                new_idx[d] = z;
            }
        }
        operands.extend(new_idx);
        return Ok(Some(b.value("hlo.dynamic_update_slice", &operands, op.result_type(0), &[])?));
    }
    Ok(None)
}

// ---------------------------------------------------------------------------
// iota, sort

/// An iota along a dim of size 1 is all zeros.
fn iota(op: Op, b: &Builder) -> R {
    let (Some(rt), Some(d)) = (result_tensor(op), op.int_attr("iota_dimension")) else { return Ok(None) };
    if rt.dims.get(d as usize) == Some(&1) && rt.num_elements() > 0 {
        return Ok(Some(splat_like(b, &rt, zero_of(&rt.elem))?));
    }
    Ok(None)
}

/// A sort along a dim of size 0 or 1 returns its operands.
fn sort(op: Op, _: &Builder) -> Result<Option<Vec<Value>>, PassError> {
    let (Some(xt), Some(d)) = (tensor(op.operand(0)), op.int_attr("dimension")) else { return Ok(None) };
    if op.num_operands() != op.num_results() || xt.dims.get(d as usize).is_none_or(|&n| n > 1) {
        return Ok(None);
    }
    let operands = op.operands();
    for (i, v) in operands.iter().enumerate() {
        if v.ty() != op.result_type(i) || v.layout_text().is_some() {
            return Ok(None);
        }
    }
    Ok(Some(operands))
}
