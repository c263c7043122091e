//! Ops that can leave partial results to combine: `reduce`, `dot`,
//! `convolution`, with the costs that choose between their strategies.

use super::*;

impl Partitioner<'_> {
    /// `convolution`: the cheapest (in bytes moved) of
    /// - the input split along its batch dimension and the kernel along its
    ///   output features as the result's, and the spatial dimensions the
    ///   result splits split alike in the input where the blocks line up,
    ///   each block extended by a halo from its neighbours (XLA's windowed
    ///   partitioning), other dimensions whole;
    /// - the same with every spatial dimension whole;
    /// - where the input's features are split (a weight gradient contracts
    ///   the batch there), the kernel's input features matched to them, a
    ///   local convolution of the blocks and an all-reduce of the partial
    ///   sums.
    pub(super) fn convolution(&mut self, op: Op, operands: &[Local], t: Tiles) -> Result<()> {
        let c = rules::conv_dims(op).expect("checked");
        let (lt, rt) = (self.global_tensor(op.operand(0))?, self.global_tensor(op.operand(1))?);
        let out = self.global_tensor(op.result(0))?;
        let (l, r) = (self.tiles_of(&operands[0])?, self.tiles_of(&operands[1])?);
        let mut rp: Vec<Option<(&Tiles, usize)>> = vec![None; rt.rank()];
        rp[c.kernel_output_feature] = Some((&t, c.output_feature));
        let rw = Tiles::assemble(self.n, &rp);
        // The input and result blocks with the spatial dimensions in
        // `spatial` split as the result's.
        let blocks = |spatial: &[usize]| -> (Tiles, Tiles) {
            let mut lp: Vec<Option<(&Tiles, usize)>> = vec![None; lt.rank()];
            lp[c.input_batch] = Some((&t, c.output_batch));
            let mut op_: Vec<Option<(&Tiles, usize)>> = vec![None; t.rank()];
            op_[c.output_batch] = Some((&t, c.output_batch));
            op_[c.output_feature] = Some((&t, c.output_feature));
            for &i in spatial {
                lp[c.input_spatial[i]] = Some((&t, c.output_spatial[i]));
                op_[c.output_spatial[i]] = Some((&t, c.output_spatial[i]));
            }
            (Tiles::assemble(self.n, &lp), Tiles::assemble(self.n, &op_))
        };
        let (lw, got) = blocks(&[]);
        let cost_split = gather_cost(&l, &lw, lt.byte_size()) + gather_cost(&r, &rw, rt.byte_size());
        let split_counts: Vec<i64> = {
            let mut counts = vec![1; lt.rank()];
            for (i, &s) in c.input_spatial.iter().enumerate() {
                counts[s] = t.counts[c.output_spatial[i]];
            }
            counts
        };
        let halos = rules::conv_halos(op, &c, &lt.dims, &out.dims, &split_counts);
        let spatial: Vec<usize> = (0..halos.len()).filter(|&i| halos[i].is_some()).collect();
        if !spatial.is_empty() {
            let (lw, got) = blocks(&spatial);
            if lw.is_uniform() && got.is_uniform() {
                let halo_bytes: u64 = spatial
                    .iter()
                    .map(|&i| {
                        let h = halos[i].expect("checked");
                        let s = c.input_spatial[i];
                        lt.byte_size() / lt.dims[s].max(1) as u64 * (h.low.max(0) + h.high.max(0)) as u64
                    })
                    .sum();
                let cost = gather_cost(&l, &lw, lt.byte_size()) + gather_cost(&r, &rw, rt.byte_size()) + halo_bytes;
                if cost <= cost_split {
                    let b = Builder::before(op);
                    let mut lv = self.reshard(&b, &operands[0], op.operand(0), &Placement::Array(lw.clone()))?;
                    let mut window =
                        Window::of(op).ok_or_else(|| PassError("a convolution without a window".into()))?;
                    for &i in &spatial {
                        lv = self.exchange_halo(&b, lv, &lw, c.input_spatial[i], halos[i].expect("checked"))?;
                        window.0[i].pad_low = 0;
                        window.0[i].pad_high = 0;
                    }
                    let rv = self.reshard(&b, &operands[1], op.operand(1), &Placement::Array(rw))?;
                    op.set_operand(0, lv);
                    op.set_operand(1, rv);
                    op.set_struct_attr("window", &window.to_struct())?;
                    return self.finish(op, &[Placement::Array(got)]);
                }
            }
        }
        // The contracted features split as the input's.
        let f = c.input_feature;
        let only_features = (0..lt.rank()).all(|d| d == f || l.counts[d] == 1);
        if l.counts[f] > 1 && lt.dims[f] % l.counts[f] == 0 && only_features {
            let mut kp: Vec<Option<(&Tiles, usize)>> = vec![None; rt.rank()];
            kp[c.kernel_input_feature] = Some((&l, f));
            let kw = Tiles::assemble(self.n, &kp);
            let cost_partial = gather_cost(&r, &kw, rt.byte_size()) + 2 * out.byte_size();
            if cost_partial < cost_split {
                let groups = l.groups_varying(&[f]).ok_or_else(|| PassError("internal error: uneven groups".into()))?;
                let b = Builder::before(op);
                let kv = self.reshard(&b, &operands[1], op.operand(1), &Placement::Array(kw))?;
                op.set_operand(0, operands[0].value);
                op.set_operand(1, kv);
                let whole = self.whole(op.result(0));
                self.finish(op, std::slice::from_ref(&whole))?;
                let adder = computation::scalar_reducer(self.module, "add", &out.elem)?;
                let after = Builder::before(op.next().ok_or_else(|| PassError("internal error: no op after".into()))?)
                    .at_location_of(op);
                let summed = self.all_reduce(&after, op.result(0), &groups, &adder)?;
                self.locals.insert(op.result(0), Local { value: summed, place: whole });
                return Ok(());
            }
        }
        let b = Builder::before(op);
        let lv = self.reshard(&b, &operands[0], op.operand(0), &Placement::Array(lw))?;
        let rv = self.reshard(&b, &operands[1], op.operand(1), &Placement::Array(rw))?;
        op.set_operand(0, lv);
        op.set_operand(1, rv);
        self.finish(op, &[Placement::Array(got)])
    }

    pub(super) fn reduce(&mut self, op: Op, operands: &[Local], t: Tiles) -> Result<()> {
        let k = op.num_operands() / 2;
        let input = self.global_tensor(op.operand(0))?;
        let reduced: Vec<usize> = op.dims_attr("dimensions").unwrap_or_default().iter().map(|&d| d as usize).collect();
        let l = self.tiles_of(&operands[0])?;
        let kept: Vec<usize> = (0..input.rank()).filter(|d| !reduced.contains(d)).collect();
        let combinable = k == 1 && identity_init(self.module, op);
        let mut picks: Vec<Option<(&Tiles, usize)>> = vec![None; input.rank()];
        for (i, &d) in kept.iter().enumerate() {
            picks[d] = Some((&t, i));
        }
        if combinable {
            for &d in &reduced {
                if l.counts[d] > 1 && input.dims[d] % l.counts[d] == 0 {
                    picks[d] = Some((&l, d));
                }
            }
        }
        let mut want = Tiles::assemble(self.n, &picks);
        if !want.is_uniform() {
            want = want.without(&reduced);
        }
        let b = Builder::before(op);
        for (i, l) in operands.iter().enumerate() {
            let place = if i < k { Placement::Array(want.clone()) } else { self.whole(op.operand(i)) };
            let v = self.reshard(&b, l, op.operand(i), &place)?;
            op.set_operand(i, v);
        }
        let places = vec![Placement::Array(t.clone()); op.num_results()];
        self.finish(op, &places)?;
        let split: Vec<usize> = reduced.iter().copied().filter(|&d| want.counts[d] > 1).collect();
        if !split.is_empty() {
            let groups =
                want.groups_varying(&split).ok_or_else(|| PassError("internal error: uneven groups".into()))?;
            let reducer = op.symbol_attr("to_apply").ok_or_else(|| PassError("reduce without to_apply".into()))?;
            let after = Builder::before(op.next().ok_or_else(|| PassError("internal error: no op after".into()))?)
                .at_location_of(op);
            let summed = self.all_reduce(&after, op.result(0), &groups, &reducer)?;
            self.locals.insert(op.result(0), Local { value: summed, place: Placement::Array(t) });
        }
        Ok(())
    }

    pub(super) fn dot(&mut self, op: Op, operands: &[Local], t: Tiles) -> Result<()> {
        let (lt, rt) = (self.global_tensor(op.operand(0))?, self.global_tensor(op.operand(1))?);
        let out = self.global_tensor(op.result(0))?;
        let (l, r) = (self.tiles_of(&operands[0])?, self.tiles_of(&operands[1])?);
        let Some(layout) = DotLayout::of(op, lt.rank(), rt.rank()) else { return self.whole_op(op, operands) };
        // Each operand in the result's sharding.
        let (la, ra) =
            (layout.operand_from_result(&t, true, lt.rank()), layout.operand_from_result(&t, false, rt.rank()));
        let mut best = (gather_cost(&l, &la, lt.byte_size()) + gather_cost(&r, &ra, rt.byte_size()), la, ra, None);
        // One operand as it is, contracting dimensions sharded, the other
        // matched; partial products summed.
        // Operands whose contracting dimensions are already split alike
        // contract where they are (XLA tries that first): gathering them
        // instead would repeat the whole product on every partition, which
        // bytes moved alone do not see (a data-parallel weight gradient).
        let in_place = best.0 > 0;
        for base_lhs in [true, false] {
            if let Some((lb, rb, partial)) = partial_dot(&layout, &l, &r, &lt, &rt, base_lhs) {
                let sum = partial_bytes(&partial.0, &out);
                let moved = gather_cost(&l, &lb, lt.byte_size()) + gather_cost(&r, &rb, rt.byte_size());
                let cost = if in_place && moved == 0 { 0 } else { moved + 2 * sum };
                if cost < best.0 {
                    best = (cost, lb, rb, Some(partial));
                }
            }
        }
        let (_, lw, rw, partial) = best;
        let b = Builder::before(op);
        let lv = self.reshard(&b, &operands[0], op.operand(0), &Placement::Array(lw))?;
        let rv = self.reshard(&b, &operands[1], op.operand(1), &Placement::Array(rw))?;
        op.set_operand(0, lv);
        op.set_operand(1, rv);
        match partial {
            None => self.finish(op, &[Placement::Array(t)]),
            Some((partial, contracted)) => {
                let rank = out.rank();
                let result = Tiles {
                    counts: partial.counts[..rank].to_vec(),
                    coords: partial.coords.iter().map(|c| c[..rank].to_vec()).collect(),
                };
                self.finish(op, &[Placement::Array(result.clone())])?;
                let groups = partial
                    .groups_varying(&contracted)
                    .ok_or_else(|| PassError("internal error: uneven groups".into()))?;
                let adder =
                    computation::scalar_reducer(self.module, if out.elem.is_pred() { "or" } else { "add" }, &out.elem)?;
                let after = Builder::before(op.next().ok_or_else(|| PassError("internal error: no op after".into()))?)
                    .at_location_of(op);
                // Where the result is wanted split further along one
                // dimension across each group, each partition keeps only
                // its part of the sum.
                if let Some(d) = scatter_dim(&result, &t, &groups, &out) {
                    let summed = self.reduce_scatter(&after, op.result(0), &groups, &adder, d)?;
                    self.locals.insert(op.result(0), Local { value: summed, place: Placement::Array(t) });
                    return Ok(());
                }
                let summed = self.all_reduce(&after, op.result(0), &groups, &adder)?;
                self.locals.insert(op.result(0), Local { value: summed, place: Placement::Array(result) });
                Ok(())
            }
        }
    }
}

/// The dimension along which `target` splits what `partial` (summed over
/// each of `groups`) has whole, one block per group member in group order,
/// all else alike: where a reduce-scatter gives `target` directly.
pub(super) fn scatter_dim(partial: &Tiles, target: &Tiles, groups: &[Vec<usize>], out: &TensorType) -> Option<usize> {
    let k = groups.first()?.len() as i64;
    (0..partial.rank()).find(|&d| {
        partial.counts[d] == 1
            && target.counts[d] == k
            && out.dims[d] % k == 0
            && (0..partial.rank()).filter(|&i| i != d).all(|i| same_dim(partial, target, i))
            && groups.iter().all(|g| g.iter().enumerate().all(|(j, &p)| target.coords[p][d] == j as i64))
    })
}

/// Bytes an operand of `bytes` must gather to go from `from` to `to` (0
/// when every partition already holds what it needs).
pub(super) fn gather_cost(from: &Tiles, to: &Tiles, bytes: u64) -> u64 {
    if (0..from.rank()).all(|d| from.counts[d] == 1 || same_dim(from, to, d)) {
        0
    } else {
        bytes
    }
}

/// Bytes of one partition's partial result of `out` (blocks `partial`
/// over the result's dimensions, then the summed ones).
pub(super) fn partial_bytes(partial: &Tiles, out: &TensorType) -> u64 {
    let rank = out.rank();
    let blocks: i64 = partial.counts[..rank].iter().product();
    out.byte_size() / blocks.max(1) as u64
}

/// The dot with its contracting dimensions split as `base`'s (the lhs for
/// `base_lhs`): the operand shardings, and the partial product's sharding
/// over the result dimensions plus one per contracting pair (the
/// dimensions the all-reduce sums over, listed).
pub(super) fn partial_dot(
    layout: &DotLayout,
    l: &Tiles,
    r: &Tiles,
    lt: &TensorType,
    rt: &TensorType,
    base_lhs: bool,
) -> Option<(Tiles, Tiles, (Tiles, Vec<usize>))> {
    let d = &layout.dims;
    let (base, other, base_c, other_c, base_b, other_b, base_t) = if base_lhs {
        (l, r, &d.lhs_contracting, &d.rhs_contracting, &d.lhs_batch, &d.rhs_batch, lt)
    } else {
        (r, l, &d.rhs_contracting, &d.lhs_contracting, &d.rhs_batch, &d.lhs_batch, rt)
    };
    if !base_c.iter().any(|&c| base.counts[c as usize] > 1)
        || base_c.iter().any(|&c| base_t.dims[c as usize] % base.counts[c as usize] != 0)
    {
        return None;
    }
    let n = l.partitions();
    let other_rank = if base_lhs { rt.rank() } else { lt.rank() };
    let other_free = if base_lhs { &layout.rhs_free } else { &layout.lhs_free };
    let mut picks: Vec<Option<(&Tiles, usize)>> = vec![None; other_rank];
    for (k, &c) in other_c.iter().enumerate() {
        picks[c as usize] = Some((base, base_c[k] as usize));
    }
    for (k, &bd) in other_b.iter().enumerate() {
        picks[bd as usize] = Some((base, base_b[k] as usize));
    }
    for &f in other_free {
        picks[f as usize] = Some((other, f as usize));
    }
    let matched = Tiles::assemble(n, &picks);
    // The partial product: result dimensions, then the contracting ones.
    let (lhs_side, rhs_side) = if base_lhs { (base, &matched) } else { (&matched, base) };
    let mut result: Vec<Option<(&Tiles, usize)>> = d.lhs_batch.iter().map(|&x| Some((lhs_side, x as usize))).collect();
    result.extend(layout.lhs_free.iter().map(|&x| Some((lhs_side, x as usize))));
    result.extend(layout.rhs_free.iter().map(|&x| Some((rhs_side, x as usize))));
    let rank = result.len();
    result.extend(base_c.iter().map(|&c| Some((base, c as usize))));
    let partial = Tiles::assemble(n, &result);
    if !matched.is_uniform() || !partial.is_uniform() {
        return None;
    }
    let contracted: Vec<usize> = (rank..partial.rank()).filter(|&i| partial.counts[i] > 1).collect();
    let (lw, rw) = if base_lhs { (base.clone(), matched) } else { (matched, base.clone()) };
    Some((lw, rw, (partial, contracted)))
}

/// True if `reduce`'s reducer is one binary op whose identity is the init
/// value, so that partial reductions combine with the same reducer.
pub(super) fn identity_init(module: Op, reduce: Op) -> bool {
    let Some(f) = reduce.symbol_attr("to_apply").and_then(|name| computation::lookup(module, &name)) else {
        return false;
    };
    let body = f.body_ops();
    let args = f.arguments();
    if body.len() != 2 || args.len() != 2 {
        return false;
    }
    let r = body[0];
    let uses_args = r.num_operands() == 2
        && ((r.operand(0) == args[0] && r.operand(1) == args[1])
            || (r.operand(0) == args[1] && r.operand(1) == args[0]));
    if !uses_args || body[1].operand(0) != r.result(0) {
        return false;
    }
    let Some(elem) = reduce.operand_type(1).tensor().map(|t| t.elem.clone()) else { return false };
    let Some(init) = splat(reduce.operand(1)) else { return false };
    let bits = elem.bit_width();
    let (min_int, max_int) = if elem.is_unsigned_int() {
        (0i128, (1i128 << bits) - 1)
    } else {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    };
    match (r.opcode().as_str(), init) {
        ("add" | "or", s) => s.is_zero(),
        ("multiply", s) => s.is_one(),
        ("and", Scalar::Bool(true)) => true,
        ("maximum", Scalar::Float(f)) => f == f64::NEG_INFINITY,
        ("minimum", Scalar::Float(f)) => f == f64::INFINITY,
        ("maximum", Scalar::Int(i)) => i == min_int,
        ("minimum", Scalar::Int(i)) => i == max_int,
        ("maximum", Scalar::Bool(b)) => !b,
        ("minimum", Scalar::Bool(b)) => b,
        _ => false,
    }
}
