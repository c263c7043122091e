//! Per-op indexing maps against hand-written index semantics of each op, on
//! random small shapes and attributes: the set of (output index, input index)
//! pairs a map describes must be exactly the pairs the op reads. Runtime
//! variables (dynamic offsets) are part of the pairs' key. Input-to-output
//! maps must describe the inverse relation. Random fusions are checked
//! against the composition of the reference relations.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{indices, relation, relation_with_rt, Rng};
use rxla_indexing::{
    fusion_output_to_input_indexing, input_to_output_indexing, output_to_input_indexing, DotDims, Fusion, GatherDims,
    OpAttrs, OpDesc, PadDim, WindowDim,
};

type Rel = BTreeSet<(Vec<i64>, Vec<i64>)>;

const CASES: u64 = 300;

// ---------------------------------------------------------------------------
// Reference semantics.
// ---------------------------------------------------------------------------

fn linearize(shape: &[i64], idx: &[i64]) -> i64 {
    idx.iter().zip(shape).fold(0, |acc, (i, s)| acc * s + i)
}

fn delinearize(shape: &[i64], mut lin: i64) -> Vec<i64> {
    let mut out = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        out[d] = lin % shape[d];
        lin /= shape[d];
    }
    out
}

/// Physical linear position of a logical index under a minor-to-major layout.
fn physical_linear(shape: &[i64], layout: &Option<Vec<i64>>, idx: &[i64]) -> i64 {
    let order: Vec<usize> = match layout {
        None => (0..shape.len()).collect(),
        Some(m2m) => m2m.iter().rev().map(|&d| d as usize).collect(),
    };
    let pshape: Vec<i64> = order.iter().map(|&d| shape[d]).collect();
    let pidx: Vec<i64> = order.iter().map(|&d| idx[d]).collect();
    linearize(&pshape, &pidx)
}

fn offsets_box(input: &[i64], sizes: &[i64]) -> Vec<Vec<i64>> {
    indices(&input.iter().zip(sizes).map(|(i, s)| i - s + 1).collect::<Vec<_>>())
}

/// What output element `o` (plus runtime values, for dynamic ops) of `op`
/// reads from operand `k`.
fn reference(op: &OpDesc, k: usize) -> Rel {
    let out = &op.result_shapes[0];
    let input = &op.operand_shapes[k];
    let a = &op.attrs;
    let mut rel = Rel::new();
    let outs = indices(out);
    match op.opcode.as_str() {
        "broadcast" => {
            for o in outs {
                let i = a.broadcast_dimensions.iter().map(|&d| o[d as usize]).collect();
                rel.insert((o, i));
            }
        }
        "transpose" => {
            for o in outs {
                let mut i = vec![0; o.len()];
                for (r, &p) in a.permutation.iter().enumerate() {
                    i[p as usize] = o[r];
                }
                rel.insert((o, i));
            }
        }
        "reverse" => {
            for o in outs {
                let i = (0..o.len())
                    .map(|d| if a.reverse_dimensions.contains(&(d as i64)) { out[d] - 1 - o[d] } else { o[d] })
                    .collect();
                rel.insert((o, i));
            }
        }
        "slice" => {
            for o in outs {
                let i = (0..o.len()).map(|d| a.slice_starts[d] + o[d] * a.slice_strides[d]).collect();
                rel.insert((o, i));
            }
        }
        "pad" if k == 1 => rel.extend(outs.into_iter().map(|o| (o, vec![]))),
        "pad" => {
            for o in outs {
                let mut i = Vec::new();
                for (d, p) in a.padding.iter().enumerate() {
                    let v = o[d] - p.low;
                    if v < 0 || v % (p.interior + 1) != 0 || v / (p.interior + 1) >= input[d] {
                        break;
                    }
                    i.push(v / (p.interior + 1));
                }
                if i.len() == out.len() {
                    rel.insert((o, i));
                }
            }
        }
        "concatenate" => {
            let cd = a.concat_dimension.unwrap() as usize;
            let offset: i64 = op.operand_shapes[..k].iter().map(|s| s[cd]).sum();
            for o in outs {
                if o[cd] >= offset && o[cd] < offset + input[cd] {
                    let mut i = o.clone();
                    i[cd] -= offset;
                    rel.insert((o, i));
                }
            }
        }
        "reduce" | "reduce-window" if k >= op.operand_shapes.len() / 2 => {
            rel.extend(outs.into_iter().map(|o| (o, vec![])))
        }
        "reduce" => {
            for i in indices(input) {
                let o: Vec<i64> =
                    (0..i.len()).filter(|d| !a.reduce_dimensions.contains(&(*d as i64))).map(|d| i[d]).collect();
                rel.insert((o, i));
            }
        }
        "reduce-window" => {
            let wsizes: Vec<i64> = a.window.iter().map(|w| w.size).collect();
            for o in outs {
                'win: for w in indices(&wsizes) {
                    let mut i = Vec::new();
                    for (d, wd) in a.window.iter().enumerate() {
                        let q = o[d] * wd.stride + w[d] * wd.window_dilation - wd.padding_low;
                        if q < 0 || q % wd.base_dilation != 0 || q / wd.base_dilation >= input[d] {
                            continue 'win;
                        }
                        i.push(q / wd.base_dilation);
                    }
                    rel.insert((o.clone(), i));
                }
            }
        }
        "dot" => {
            let dn = a.dot.as_ref().unwrap();
            let (batch, contracting) =
                if k == 0 { (&dn.lhs_batch, &dn.lhs_contracting) } else { (&dn.rhs_batch, &dn.rhs_contracting) };
            // Output layout: batch, lhs free, rhs free.
            let lhs_free = op.operand_shapes[0].len() - dn.lhs_batch.len() - dn.lhs_contracting.len();
            for i in indices(input) {
                let free: Vec<i64> = (0..i.len())
                    .filter(|d| !batch.contains(&(*d as i64)) && !contracting.contains(&(*d as i64)))
                    .map(|d| i[d])
                    .collect();
                let b: Vec<i64> = batch.iter().map(|&d| i[d as usize]).collect();
                for o in indices(out) {
                    let nb = b.len();
                    let (ofree_lo, ofree_hi) = if k == 0 { (nb, nb + lhs_free) } else { (nb + lhs_free, out.len()) };
                    if o[..nb] == b[..] && o[ofree_lo..ofree_hi] == free[..] {
                        rel.insert((o, i.clone()));
                    }
                }
            }
        }
        "gather" if k == 1 => {
            for o in outs {
                for j in 0..input[1] {
                    rel.insert((o.clone(), vec![o[0], j]));
                }
            }
        }
        "gather" => {
            let g = a.gather.as_ref().unwrap();
            let rt_box: Vec<i64> =
                g.start_index_map.iter().map(|&d| input[d as usize] - g.slice_sizes[d as usize] + 1).collect();
            for o in outs {
                for r in indices(&rt_box) {
                    let mut i: Vec<i64> = o[1..].to_vec();
                    for (kk, &d) in g.start_index_map.iter().enumerate() {
                        i[d as usize] += r[kk];
                    }
                    let mut key = o.clone();
                    key.extend(&r);
                    rel.insert((key, i));
                }
            }
        }
        "dynamic-slice" if k > 0 => rel.extend(outs.into_iter().map(|o| (o, vec![]))),
        "dynamic-slice" => {
            for o in outs {
                for r in offsets_box(input, &a.dynamic_slice_sizes) {
                    let i = o.iter().zip(&r).map(|(a, b)| a + b).collect();
                    let mut key = o.clone();
                    key.extend(&r);
                    rel.insert((key, i));
                }
            }
        }
        "dynamic-update-slice" if k == 0 => rel.extend(outs.into_iter().map(|o| (o.clone(), o))),
        "dynamic-update-slice" if k > 1 => rel.extend(outs.into_iter().map(|o| (o, vec![]))),
        "dynamic-update-slice" => {
            for o in outs {
                for r in offsets_box(out, input) {
                    let i: Vec<i64> = o.iter().zip(&r).map(|(a, b)| a - b).collect();
                    // Only in-bounds update elements are read.
                    if i.iter().zip(input).all(|(v, s)| *v >= 0 && v < s) {
                        let mut key = o.clone();
                        key.extend(&r);
                        rel.insert((key, i));
                    }
                }
            }
        }
        "reshape" => {
            for o in outs {
                rel.insert((o.clone(), delinearize(input, linearize(out, &o))));
            }
        }
        "bitcast" => {
            let by_position: BTreeMap<i64, Vec<i64>> =
                indices(input).into_iter().map(|i| (physical_linear(input, &a.operand_layout, &i), i)).collect();
            for o in outs {
                let p = physical_linear(out, &a.result_layout, &o);
                rel.insert((o, by_position[&p].clone()));
            }
        }
        _ => {
            // Elementwise (scalar operands broadcast).
            for o in outs {
                let i = if input.is_empty() { vec![] } else { o.clone() };
                rel.insert((o, i));
            }
        }
    }
    rel
}

fn flip(rel: &Rel) -> Rel {
    rel.iter().map(|(a, b)| (b.clone(), a.clone())).collect()
}

// ---------------------------------------------------------------------------
// Random ops.
// ---------------------------------------------------------------------------

fn shape(rng: &mut Rng, min_rank: i64, max_rank: i64, allow_zero: bool) -> Vec<i64> {
    let rank = rng.range(min_rank, max_rank);
    (0..rank).map(|_| if allow_zero && rng.chance(1, 25) { 0 } else { rng.range(1, 4) }).collect()
}

fn op(opcode: &str, operands: Vec<Vec<i64>>, result: Vec<i64>, attrs: OpAttrs) -> OpDesc {
    OpDesc::new(opcode, operands, result).with_attrs(attrs)
}

fn random_subset(rng: &mut Rng, n: usize) -> Vec<i64> {
    (0..n as i64).filter(|_| rng.chance(1, 2)).collect()
}

fn random_permutation(rng: &mut Rng, n: usize) -> Vec<i64> {
    let mut p: Vec<i64> = (0..n as i64).collect();
    rng.shuffle(&mut p);
    p
}

/// A random shape with the same number of elements as `s`, with size-1
/// dimensions sprinkled in.
fn reshaped(rng: &mut Rng, s: &[i64]) -> Vec<i64> {
    if s.contains(&0) {
        let mut out = shape(rng, 1, 3, false);
        out[0] = 0;
        return out;
    }
    let mut factors = Vec::new();
    for &d in s {
        let mut d = d;
        let mut p = 2;
        while d > 1 {
            while d % p == 0 {
                factors.push(p);
                d /= p;
            }
            p += 1;
        }
    }
    rng.shuffle(&mut factors);
    let mut out: Vec<i64> = Vec::new();
    for f in factors {
        if out.is_empty() || rng.chance(1, 2) {
            out.push(f);
        } else {
            *out.last_mut().unwrap() *= f;
        }
    }
    while rng.chance(1, 3) {
        let at = rng.below(out.len() + 1);
        out.insert(at, 1);
    }
    out
}

fn random_op(rng: &mut Rng, kind: &str) -> Option<OpDesc> {
    let d = OpAttrs::default();
    Some(match kind {
        "elementwise" => {
            let s = shape(rng, 0, 3, true);
            let maybe_scalar = |rng: &mut Rng| if rng.chance(1, 3) { vec![] } else { s.clone() };
            match rng.below(4) {
                0 => op("add", vec![s.clone(), s.clone()], s.clone(), d),
                1 => op("select", vec![maybe_scalar(rng), s.clone(), s.clone()], s.clone(), d),
                2 => op("clamp", vec![maybe_scalar(rng), s.clone(), maybe_scalar(rng)], s.clone(), d),
                _ => op("convert", vec![s.clone()], s.clone(), d),
            }
        }
        "broadcast" => {
            let input = shape(rng, 0, 2, true);
            let out_rank = input.len() + rng.range(0, 2) as usize;
            let mut positions = random_permutation(rng, out_rank);
            positions.truncate(input.len());
            let mut out = shape(rng, out_rank as i64, out_rank as i64, false);
            for (i, &p) in positions.iter().enumerate() {
                out[p as usize] = input[i];
            }
            op("broadcast", vec![input], out, OpAttrs { broadcast_dimensions: positions, ..d })
        }
        "transpose" => {
            let input = shape(rng, 1, 4, true);
            let perm = random_permutation(rng, input.len());
            let out = perm.iter().map(|&p| input[p as usize]).collect();
            op("transpose", vec![input], out, OpAttrs { permutation: perm, ..d })
        }
        "reverse" => {
            let s = shape(rng, 1, 3, true);
            let dims = random_subset(rng, s.len());
            op("reverse", vec![s.clone()], s, OpAttrs { reverse_dimensions: dims, ..d })
        }
        "slice" => {
            let input = shape(rng, 1, 3, false);
            let (mut starts, mut strides, mut out) = (vec![], vec![], vec![]);
            for &size in &input {
                let start = rng.range(0, size - 1);
                let stride = rng.range(1, 3);
                let max = (size - start + stride - 1) / stride;
                starts.push(start);
                strides.push(stride);
                out.push(rng.range(0, max));
            }
            op("slice", vec![input], out, OpAttrs { slice_starts: starts, slice_strides: strides, ..d })
        }
        "pad" => {
            let input = shape(rng, 1, 2, false);
            let mut padding = Vec::new();
            let mut out = Vec::new();
            for &size in &input {
                let p = PadDim { low: rng.range(-2, 2), high: rng.range(-2, 2), interior: rng.range(0, 2) };
                let o = size + p.low + p.high + (size - 1) * p.interior;
                if o < 0 {
                    return None;
                }
                padding.push(p);
                out.push(o);
            }
            op("pad", vec![input, vec![]], out, OpAttrs { padding, ..d })
        }
        "concatenate" => {
            let base = shape(rng, 1, 3, false);
            let cd = rng.below(base.len());
            let mut operands = Vec::new();
            for _ in 0..rng.range(1, 3) {
                let mut s = base.clone();
                s[cd] = rng.range(0, 3);
                operands.push(s);
            }
            let mut out = base.clone();
            out[cd] = operands.iter().map(|s| s[cd]).sum();
            op("concatenate", operands, out, OpAttrs { concat_dimension: Some(cd as i64), ..d })
        }
        "reduce" => {
            let input = shape(rng, 1, 3, true);
            let dims = random_subset(rng, input.len());
            let out: Vec<i64> = (0..input.len()).filter(|i| !dims.contains(&(*i as i64))).map(|i| input[i]).collect();
            let n = rng.range(1, 2) as usize;
            let mut operands = vec![input.clone(); n];
            operands.extend(vec![vec![]; n]);
            let mut o = op("reduce", operands, out.clone(), OpAttrs { reduce_dimensions: dims, ..d });
            o.result_shapes = vec![out; n];
            o
        }
        "reduce-window" => {
            let input = shape(rng, 1, 2, false);
            let mut window = Vec::new();
            let mut out = Vec::new();
            for &size in &input {
                let w = WindowDim {
                    size: rng.range(1, 3),
                    stride: rng.range(1, 2),
                    padding_low: rng.range(0, 2),
                    padding_high: rng.range(0, 2),
                    window_dilation: rng.range(1, 2),
                    base_dilation: rng.range(1, 2),
                };
                let padded = size + w.padding_low + w.padding_high + (size - 1) * (w.base_dilation - 1);
                let span = (w.size - 1) * w.window_dilation + 1;
                if padded < span {
                    return None;
                }
                out.push((padded - span) / w.stride + 1);
                window.push(w);
            }
            let n = rng.range(1, 2) as usize;
            let mut operands = vec![input.clone(); n];
            operands.extend(vec![vec![]; n]);
            let mut o = op("reduce-window", operands, out.clone(), OpAttrs { window, ..d });
            o.result_shapes = vec![out; n];
            o
        }
        "dot" => {
            let nb = rng.range(0, 1) as usize;
            let (lf, rf, nc) = (rng.range(0, 2) as usize, rng.range(0, 1) as usize, rng.range(0, 2) as usize);
            let batch = shape(rng, nb as i64, nb as i64, false);
            let contract = shape(rng, nc as i64, nc as i64, false);
            let lfree = shape(rng, lf as i64, lf as i64, false);
            let rfree = shape(rng, rf as i64, rf as i64, false);
            // Lay out each side's dimensions in a random order.
            let place = |rng: &mut Rng, free: &[i64]| {
                let rank = nb + nc + free.len();
                let pos = random_permutation(rng, rank);
                let mut s = vec![0; rank];
                let b: Vec<i64> = pos[..nb].to_vec();
                let c: Vec<i64> = pos[nb..nb + nc].to_vec();
                let f: Vec<i64> = pos[nb + nc..].to_vec();
                for (i, &p) in b.iter().enumerate() {
                    s[p as usize] = batch[i];
                }
                for (i, &p) in c.iter().enumerate() {
                    s[p as usize] = contract[i];
                }
                let mut fs = f.clone();
                fs.sort();
                for (i, &p) in fs.iter().enumerate() {
                    s[p as usize] = free[i];
                }
                (s, b, c)
            };
            let (ls, lb, lc) = place(rng, &lfree);
            let (rs, rb, rc) = place(rng, &rfree);
            let out: Vec<i64> = batch.iter().chain(&lfree).chain(&rfree).copied().collect();
            let dn = DotDims { lhs_batch: lb, rhs_batch: rb, lhs_contracting: lc, rhs_contracting: rc };
            op("dot", vec![ls, rs], out, OpAttrs { dot: Some(dn), ..d })
        }
        "gather" => {
            let operand = shape(rng, 1, 3, false);
            let mut sim: Vec<i64> = random_subset(rng, operand.len());
            if sim.is_empty() {
                sim.push(0);
            }
            let sizes: Vec<i64> = operand.iter().map(|&s| rng.range(1, s)).collect();
            let batch = rng.range(1, 3);
            let indices_shape = vec![batch, sim.len() as i64];
            let out: Vec<i64> = std::iter::once(batch).chain(sizes.iter().copied()).collect();
            let g = GatherDims {
                offset_dims: (1..=operand.len() as i64).collect(),
                start_index_map: sim,
                index_vector_dim: 1,
                slice_sizes: sizes,
                ..Default::default()
            };
            op("gather", vec![operand, indices_shape], out, OpAttrs { gather: Some(g), ..d })
        }
        "dynamic-slice" => {
            let input = shape(rng, 1, 3, false);
            let sizes: Vec<i64> = input.iter().map(|&s| rng.range(1, s)).collect();
            let mut operands = vec![input];
            operands.extend(vec![vec![]; sizes.len()]);
            op("dynamic-slice", operands, sizes.clone(), OpAttrs { dynamic_slice_sizes: sizes, ..d })
        }
        "dynamic-update-slice" => {
            let s = shape(rng, 1, 2, false);
            let update: Vec<i64> = s.iter().map(|&x| rng.range(1, x)).collect();
            let mut operands = vec![s.clone(), update];
            operands.extend(vec![vec![]; s.len()]);
            op("dynamic-update-slice", operands, s, d)
        }
        "reshape" => {
            let input = shape(rng, 0, 3, true);
            let out = reshaped(rng, &input);
            op("reshape", vec![input], out, d)
        }
        "bitcast" => {
            let input = shape(rng, 1, 3, false);
            let out = reshaped(rng, &input);
            let (il, ol) = (random_permutation(rng, input.len()), random_permutation(rng, out.len()));
            let attrs = OpAttrs {
                operand_layout: rng.chance(2, 3).then_some(il),
                result_layout: rng.chance(2, 3).then_some(ol),
                ..d
            };
            op("bitcast", vec![input], out, attrs)
        }
        _ => unreachable!("{kind}"),
    })
}

const KINDS: &[&str] = &[
    "elementwise",
    "broadcast",
    "transpose",
    "reverse",
    "slice",
    "pad",
    "concatenate",
    "reduce",
    "reduce-window",
    "dot",
    "gather",
    "dynamic-slice",
    "dynamic-update-slice",
    "reshape",
    "bitcast",
];

/// Ops whose input-to-output maps exist (the others give undefined maps).
fn has_input_to_output(opcode: &str) -> bool {
    !matches!(opcode, "reduce-window" | "gather" | "dynamic-slice" | "dynamic-update-slice")
}

#[test]
fn output_to_input_matches_reference() {
    let mut rng = Rng::new(100);
    for kind in KINDS {
        let mut checked = 0;
        let mut attempts = 0;
        while checked < CASES && attempts < CASES * 10 {
            attempts += 1;
            let Some(op) = random_op(&mut rng, kind) else {
                continue;
            };
            let indexing = output_to_input_indexing(&op, 0).unwrap_or_else(|e| panic!("{op:?}: {e}"));
            assert_eq!(indexing.indexing_maps.len(), op.operand_shapes.len(), "{op:?}");
            for k in 0..op.operand_shapes.len() {
                let [oi] = indexing.indexing_maps[k].as_slice() else { panic!("{op:?}: operand {k} has several maps") };
                assert!(!oi.is_undefined(), "{op:?}: operand {k} undefined");
                assert_eq!(oi.rt_vars.len(), oi.map.num_rt_vars());
                let mut actual = relation_with_rt(&oi.map);
                let expected = reference(&op, k);
                let in_shape = &op.operand_shapes[k];
                let dus_update = op.opcode == "dynamic-update-slice" && k == 1;
                if dus_update {
                    // The update map has no in-bounds constraint (as in XLA).
                    actual.retain(|(_, i)| i.iter().zip(in_shape).all(|(v, s)| *v >= 0 && v < s));
                }
                for (o, i) in &actual {
                    assert!(
                        i.iter().zip(in_shape).all(|(v, s)| *v >= 0 && v < s),
                        "{op:?}: {o:?} reads {i:?} out of bounds\n{}",
                        oi.map
                    );
                }
                assert_eq!(actual, expected, "{op:?}, operand {k}\nmap: {}", oi.map);
            }
            // Multi-output ops index the same way for every output.
            for out in 1..op.result_shapes.len() {
                assert_eq!(output_to_input_indexing(&op, out).unwrap(), indexing);
            }
            checked += 1;
        }
        assert_eq!(checked, CASES, "{kind}: the generator failed too often");
    }
}

#[test]
fn input_to_output_is_the_inverse_relation() {
    let mut rng = Rng::new(200);
    for kind in KINDS {
        let mut checked = 0;
        while checked < CASES {
            let Some(op) = random_op(&mut rng, kind) else {
                continue;
            };
            for k in 0..op.operand_shapes.len() {
                let indexing = input_to_output_indexing(&op, k).unwrap_or_else(|e| panic!("{op:?}: {e}"));
                assert_eq!(indexing.indexing_maps.len(), op.result_shapes.len());
                let map = &indexing.indexing_maps[0][0].map;
                if !has_input_to_output(&op.opcode) {
                    assert!(map.is_undefined());
                    continue;
                }
                let expected = flip(&reference(&op, k));
                assert_eq!(relation(map), expected, "{op:?}, operand {k}\nmap: {map}");
            }
            checked += 1;
        }
    }
}

#[test]
fn iota_and_constant_generators() {
    for opcode in ["iota", "constant"] {
        let o = op(opcode, vec![], vec![2, 3], OpAttrs { iota_dimension: Some(1), ..Default::default() });
        assert!(output_to_input_indexing(&o, 0).unwrap().indexing_maps.is_empty());
        let map = input_to_output_indexing(&o, 0).unwrap().map(0).unwrap().clone();
        let expected: Rel = indices(&[2, 3]).into_iter().map(|i| (vec![], i)).collect();
        assert_eq!(relation(&map), expected);
    }
}

#[test]
fn invalid_ops_are_errors() {
    let d = OpAttrs::default;
    let bad = [
        op("transpose", vec![vec![2, 3]], vec![3, 2], OpAttrs { permutation: vec![0, 0], ..d() }),
        op("transpose", vec![vec![2, 3]], vec![2, 3], OpAttrs { permutation: vec![1, 0], ..d() }),
        op("broadcast", vec![vec![2]], vec![3, 4], OpAttrs { broadcast_dimensions: vec![0], ..d() }),
        op("broadcast", vec![vec![2]], vec![3, 2], OpAttrs { broadcast_dimensions: vec![2], ..d() }),
        op("reshape", vec![vec![2, 3]], vec![5], d()),
        op("add", vec![vec![2, 3], vec![3, 2]], vec![2, 3], d()),
        op("slice", vec![vec![4]], vec![3], OpAttrs { slice_starts: vec![2], slice_strides: vec![1], ..d() }),
        op("slice", vec![vec![4]], vec![1], OpAttrs { slice_starts: vec![0], slice_strides: vec![0], ..d() }),
        op(
            "pad",
            vec![vec![4], vec![]],
            vec![5],
            OpAttrs { padding: vec![PadDim { low: 1, high: 1, interior: 0 }], ..d() },
        ),
        op("concatenate", vec![vec![2, 3], vec![2, 4]], vec![4, 3], OpAttrs { concat_dimension: Some(0), ..d() }),
        op("concatenate", vec![vec![2, 3]], vec![2, 3], d()),
        op("reduce", vec![vec![4, 5], vec![]], vec![5], OpAttrs { reduce_dimensions: vec![1], ..d() }),
        op("reduce", vec![vec![4, 5]], vec![5], OpAttrs { reduce_dimensions: vec![0], ..d() }),
        op(
            "dot",
            vec![vec![2, 3], vec![4, 5]],
            vec![2, 5],
            OpAttrs {
                dot: Some(DotDims { lhs_contracting: vec![1], rhs_contracting: vec![0], ..Default::default() }),
                ..d()
            },
        ),
        op("dot", vec![vec![2, 3], vec![3, 5]], vec![2, 5], d()),
        op("dynamic-slice", vec![vec![4], vec![]], vec![5], OpAttrs { dynamic_slice_sizes: vec![5], ..d() }),
        op("dynamic-update-slice", vec![vec![4], vec![5], vec![]], vec![4], d()),
        op(
            "reduce-window",
            vec![vec![4], vec![]],
            vec![4],
            OpAttrs { window: vec![WindowDim { stride: 0, ..WindowDim::new(2) }], ..d() },
        ),
        op("bitcast", vec![vec![2, 3]], vec![6], OpAttrs { operand_layout: Some(vec![0, 0]), ..d() }),
        op("reverse", vec![vec![2, 3]], vec![2, 3], OpAttrs { reverse_dimensions: vec![2], ..d() }),
        op("add", vec![vec![-1], vec![-1]], vec![-1], d()),
    ];
    for o in bad {
        assert!(output_to_input_indexing(&o, 0).is_err(), "{o:?} was accepted");
    }
    assert!(output_to_input_indexing(&op("add", vec![vec![2]], vec![2], d()), 1).is_err(), "no result 1");
    // A non-canonical gather is reported as unsupported.
    let g = op(
        "gather",
        vec![vec![5, 6], vec![3]],
        vec![3, 6],
        OpAttrs {
            gather: Some(GatherDims {
                offset_dims: vec![1],
                collapsed_slice_dims: vec![0],
                start_index_map: vec![0],
                index_vector_dim: 1,
                slice_sizes: vec![1, 6],
                ..Default::default()
            }),
            ..d()
        },
    );
    assert!(matches!(output_to_input_indexing(&g, 0), Err(rxla_indexing::Error::Unsupported(_))));
    // Unknown ops have unknown indexing, like in XLA.
    let u = output_to_input_indexing(&op("custom-call", vec![vec![2], vec![3]], vec![4], d()), 0).unwrap();
    assert_eq!(u.indexing_maps.len(), 2);
    assert!(u.indexing_maps.iter().all(|m| m[0].is_undefined()));
}

// ---------------------------------------------------------------------------
// Fusions.
// ---------------------------------------------------------------------------

/// Adds a random op reading existing nodes; returns false if none fit.
fn add_random_node(rng: &mut Rng, f: &mut Fusion, constant_scalar: usize) -> bool {
    let src = rng.below(f.nodes.len());
    if src == constant_scalar {
        return false;
    }
    let s = f.nodes[src].op.result_shapes[0].clone();
    let d = OpAttrs::default();
    let name = format!("n{}", f.nodes.len());
    match rng.below(12) {
        0 => {
            f.add(&name, op("exponential", vec![s.clone()], s, d), &[src]);
        }
        1 => {
            // Add to another node of the same shape (or to itself).
            let same: Vec<usize> =
                (0..f.nodes.len()).filter(|&i| i != constant_scalar && f.nodes[i].op.result_shapes[0] == s).collect();
            let other = *rng.pick(&same);
            f.add(&name, op("add", vec![s.clone(), s.clone()], s, d), &[src, other]);
        }
        2 if !s.is_empty() => {
            let perm = random_permutation(rng, s.len());
            let out = perm.iter().map(|&p| s[p as usize]).collect();
            f.add(&name, op("transpose", vec![s], out, OpAttrs { permutation: perm, ..d }), &[src]);
        }
        3 if !s.is_empty() => {
            let dims = random_subset(rng, s.len());
            f.add(&name, op("reverse", vec![s.clone()], s, OpAttrs { reverse_dimensions: dims, ..d }), &[src]);
        }
        4 => {
            let out = reshaped(rng, &s);
            if out.len() > 4 {
                return false;
            }
            f.add(&name, op("reshape", vec![s], out, d), &[src]);
        }
        5 if s.len() < 3 => {
            let out_rank = s.len() + 1;
            let mut positions = random_permutation(rng, out_rank);
            positions.truncate(s.len());
            positions.sort();
            let mut out = vec![rng.range(1, 3); out_rank];
            for (i, &p) in positions.iter().enumerate() {
                out[p as usize] = s[i];
            }
            f.add(&name, op("broadcast", vec![s], out, OpAttrs { broadcast_dimensions: positions, ..d }), &[src]);
        }
        6 if !s.is_empty() => {
            let dims = random_subset(rng, s.len());
            let out: Vec<i64> = (0..s.len()).filter(|i| !dims.contains(&(*i as i64))).map(|i| s[i]).collect();
            f.add(
                &name,
                op("reduce", vec![s, vec![]], out, OpAttrs { reduce_dimensions: dims, ..d }),
                &[src, constant_scalar],
            );
        }
        7 if !s.is_empty() && s.iter().all(|&x| x > 0) => {
            let (mut starts, mut strides, mut out) = (vec![], vec![], vec![]);
            for &size in &s {
                let start = rng.range(0, size - 1);
                let stride = rng.range(1, 2);
                starts.push(start);
                strides.push(stride);
                out.push(rng.range(1, (size - start + stride - 1) / stride));
            }
            f.add(
                &name,
                op("slice", vec![s], out, OpAttrs { slice_starts: starts, slice_strides: strides, ..d }),
                &[src],
            );
        }
        8 if !s.is_empty() => {
            let padding: Vec<PadDim> = s
                .iter()
                .map(|_| PadDim { low: rng.range(-1, 1), high: rng.range(0, 1), interior: rng.range(0, 1) })
                .collect();
            let out: Vec<i64> =
                s.iter().zip(&padding).map(|(&x, p)| x + p.low + p.high + (x - 1).max(0) * p.interior).collect();
            if out.iter().any(|&o| o < 0) {
                return false;
            }
            f.add(&name, op("pad", vec![s, vec![]], out, OpAttrs { padding, ..d }), &[src, constant_scalar]);
        }
        9 if !s.is_empty() => {
            // A dynamic slice at a constant offset: the runtime variables fold.
            let sizes: Vec<i64> = s.iter().map(|&x| rng.range(x.min(1), x)).collect();
            let mut operands = vec![s.clone()];
            let mut nodes = vec![src];
            for (dim, (&x, &size)) in s.iter().zip(&sizes).enumerate() {
                let value = rng.range(0, x - size);
                let c = op("constant", vec![], vec![], OpAttrs { literal: Some(vec![value]), ..d.clone() });
                nodes.push(f.add(&format!("off{}_{dim}", f.nodes.len()), c, &[]));
                operands.push(vec![]);
            }
            f.add(
                &name,
                op("dynamic-slice", operands, sizes.clone(), OpAttrs { dynamic_slice_sizes: sizes, ..d }),
                &nodes,
            );
        }
        10 if !s.is_empty() => {
            let cd = rng.below(s.len());
            f.add(
                &name,
                op(
                    "concatenate",
                    vec![s.clone(), s.clone()],
                    {
                        let mut o = s.clone();
                        o[cd] *= 2;
                        o
                    },
                    OpAttrs { concat_dimension: Some(cd as i64), ..d },
                ),
                &[src, src],
            );
        }
        11 if !s.contains(&0) => {
            let out = reshaped(rng, &s);
            if out.len() > 4 {
                return false;
            }
            let attrs = OpAttrs {
                operand_layout: Some(random_permutation(rng, s.len())),
                result_layout: Some(random_permutation(rng, out.len())),
                ..d
            };
            f.add(&name, op("bitcast", vec![s], out, attrs), &[src]);
        }
        _ => return false,
    }
    true
}

/// The reference relation of a node reading operand `k`, with dynamic
/// offsets taken from constant operand nodes.
fn node_reference(f: &Fusion, node: usize, k: usize) -> Rel {
    let n = &f.nodes[node];
    if n.op.opcode != "dynamic-slice" || k > 0 {
        return reference(&n.op, k);
    }
    let offsets: Vec<i64> = n.operands[1..].iter().map(|&c| f.nodes[c].op.attrs.literal.as_ref().unwrap()[0]).collect();
    indices(&n.op.result_shapes[0])
        .into_iter()
        .map(|o| (o.clone(), o.iter().zip(&offsets).map(|(a, b)| a + b).collect()))
        .collect()
}

#[test]
fn random_fusions_match_composed_references() {
    let mut rng = Rng::new(300);
    let mut multi_map = 0;
    for case in 0..CASES {
        let mut f = Fusion::new();
        let p0 = f.parameter("p0", 0, shape(&mut rng, 1, 3, false));
        let c = f.add("c", op("constant", vec![], vec![], OpAttrs::default()), &[]);
        let steps = rng.range(1, 5);
        let mut added = 0;
        while added < steps {
            if add_random_node(&mut rng, &mut f, c) {
                added += 1;
            }
        }
        let root = f.root;
        // Reference: compose the relations from the root backwards.
        let mut rel: Vec<Rel> = vec![Rel::new(); f.nodes.len()];
        rel[root] = indices(&f.nodes[root].op.result_shapes[0]).into_iter().map(|o| (o.clone(), o)).collect();
        for id in (0..=root).rev() {
            if rel[id].is_empty() {
                continue;
            }
            for k in 0..f.nodes[id].operands.len() {
                let step = node_reference(&f, id, k);
                let mut by_input: BTreeMap<&Vec<i64>, Vec<&Vec<i64>>> = BTreeMap::new();
                for (x, i) in &step {
                    by_input.entry(x).or_default().push(i);
                }
                let composed: Vec<(Vec<i64>, Vec<i64>)> = rel[id]
                    .iter()
                    .flat_map(|(r, x)| by_input.get(x).into_iter().flatten().map(move |i| (r.clone(), (*i).clone())))
                    .collect();
                rel[f.nodes[id].operands[k]].extend(composed);
            }
        }
        let maps = fusion_output_to_input_indexing(&f, 0).unwrap();
        let mut actual = Rel::new();
        for m in &maps[0] {
            assert!(m.rt_vars.is_empty(), "case {case}: constant offsets should fold: {m}");
            actual.extend(relation(&m.map));
        }
        if maps[0].len() > 1 {
            multi_map += 1;
        }
        assert_eq!(
            actual,
            rel[p0],
            "case {case}: {:#?}\nmaps: {:#?}",
            f.nodes.iter().map(|n| (&n.op.opcode, &n.op.result_shapes[0], &n.operands)).collect::<Vec<_>>(),
            maps[0].iter().map(|m| m.map.to_string()).collect::<Vec<_>>()
        );
    }
    assert!(multi_map > 0);
}

#[test]
fn fusion_runtime_variables_name_their_nodes() {
    // dynamic-slice(p0, p1, iota-free offset p2) keeps runtime variables that
    // point at the parameter nodes supplying the offsets.
    let mut f = Fusion::new();
    let p0 = f.parameter("p0", 0, vec![8, 6]);
    let p1 = f.parameter("p1", 1, vec![]);
    let c = f.add("c", op("constant", vec![], vec![], OpAttrs { literal: Some(vec![2]), ..Default::default() }), &[]);
    let ds = f.add(
        "ds",
        op(
            "dynamic-slice",
            vec![vec![8, 6], vec![], vec![]],
            vec![3, 4],
            OpAttrs { dynamic_slice_sizes: vec![3, 4], ..Default::default() },
        ),
        &[p0, p1, c],
    );
    f.add("neg", op("negate", vec![vec![3, 4]], vec![3, 4], OpAttrs::default()), &[ds]);
    let maps = fusion_output_to_input_indexing(&f, 0).unwrap();
    let [m] = maps[0].as_slice() else { panic!() };
    assert_eq!(
        m.map.to_string(),
        "(d0, d1){rt0} -> (d0 + rt0, d1 + 2), domain: d0 in [0, 2], d1 in [0, 3], rt0 in [0, 5]"
    );
    assert_eq!(m.rt_vars.len(), 1);
    assert_eq!(m.rt_vars[0].operand, p1);
    assert_eq!(maps[1][0].map.to_string(), "(d0, d1) -> (), domain: d0 in [0, 2], d1 in [0, 3]");
    // A bad graph is an error.
    let mut bad = f.clone();
    bad.nodes[ds].operands[0] = ds;
    assert!(fusion_output_to_input_indexing(&bad, 0).is_err());
}
