//! Resharding: a value's blocks from one sharding to another, and the
//! collectives that move them (`all-to-all` for a split moving between
//! dimensions, `collective-permute` for the same blocks on other
//! partitions, `all-gather` then a `dynamic-slice` at a `partition-id`
//! offset otherwise; `all-reduce` / `reduce-scatter` for partial results).

use super::*;

impl Partitioner<'_> {
    /// `l` (a block of `original`) as `want`.
    pub(super) fn reshard(&mut self, b: &Builder, l: &Local, original: Value, want: &Placement) -> Result<Value> {
        if &l.place == want {
            return Ok(l.value);
        }
        let ty = self.global_ty(original);
        self.reshard_typed(b, l.value, &l.place, want, &ty)
    }

    pub(super) fn reshard_typed(
        &mut self,
        b: &Builder,
        v: Value,
        from: &Placement,
        to: &Placement,
        ty: &HloType,
    ) -> Result<Value> {
        match (from, to, ty) {
            _ if from == to => Ok(v),
            (Placement::Array(f), Placement::Array(t), HloType::Tensor(g)) => self.reshard_array(b, v, f, t, g),
            (Placement::Tuple(fs), Placement::Tuple(ts), HloType::Tuple(gs)) => {
                let mut items = Vec::new();
                for (i, ((f, t), g)) in fs.iter().zip(ts).zip(gs).enumerate() {
                    let item = b.get_tuple_element(v, i)?;
                    items.push(self.reshard_typed(b, item, f, t, g)?);
                }
                b.tuple(&items)
            }
            _ => Ok(v),
        }
    }

    pub(super) fn reshard_array(
        &mut self,
        b: &Builder,
        v: Value,
        from: &Tiles,
        to: &Tiles,
        global: &TensorType,
    ) -> Result<Value> {
        let (mut v, mut cur) = (v, from.clone());
        // A split moving from one dimension to another over the same
        // partitions: one all-to-all instead of a gather and a slice.
        while let Some((a, d)) = moved_split(&cur, to, global) {
            v = self.all_to_all(b, v, &cur, a, d)?;
            let k = cur.counts[a];
            let mut next = cur.without(&[a]);
            next.counts[d] = k;
            for (c, t) in next.coords.iter_mut().zip(&to.coords) {
                c[d] = t[d];
            }
            cur = next;
        }
        // The same blocks on other partitions: one collective-permute.
        if let Some(pairs) = permutation(&cur, to) {
            v = self.collective_permute(b, v, &pairs)?;
            cur = to.clone();
        }
        for d in 0..cur.rank() {
            if cur.counts[d] > 1 && !same_dim(&cur, to, d) {
                v = self.all_gather(b, v, &cur, d, global)?;
                cur = cur.without(&[d]);
            }
        }
        let cut: Vec<usize> = (0..cur.rank()).filter(|&d| cur.counts[d] == 1 && to.counts[d] > 1).collect();
        if cut.is_empty() {
            return Ok(v);
        }
        self.slice_blocks(b, v, &cur, to, &cut, global)
    }

    /// Moves the split of dimension `a` of `v` (blocks `tiles`) to
    /// dimension `d`, which is whole: XLA's array all-to-all (split and
    /// concatenate along one dimension) on `d` cut into [k, n/k], then that
    /// k-dimension, now the source partition, merged into `a`.
    pub(super) fn all_to_all(&mut self, b: &Builder, v: Value, tiles: &Tiles, a: usize, d: usize) -> Result<Value> {
        let groups = tiles.groups_varying(&[a]).ok_or_else(|| PassError("internal error: uneven blocks".into()))?;
        let k = tiles.counts[a];
        let local = Builder::tensor(v)?;
        let mut split = local.dims.clone();
        split[d] /= k;
        split.insert(d, k);
        let x = b.reshape(v, &split)?;
        let attrs = vec![
            ("channel_id", b.i64_attr(self.channel())),
            ("dimensions", b.dims_attr(&[d as i64])),
            ("replica_groups", self.partition_groups_attr(b, &groups)),
        ];
        let exchanged = b.value("hlo.all_to_all", &[x], Builder::tensor(x)?.into(), &attrs)?;
        // The source partition (at d) goes right before a's block.
        let a_at = if a < d { a } else { a + 1 };
        let mut order: Vec<i64> = (0..split.len() as i64).filter(|&i| i != d as i64).collect();
        let pos = order.iter().position(|&i| i == a_at as i64).expect("a is a dimension");
        order.insert(pos, d as i64);
        let moved = b.transpose(exchanged, &order)?;
        let mut dims = local.dims.clone();
        dims[a] *= k;
        dims[d] /= k;
        b.reshape(moved, &dims)
    }

    /// Sends each `(source, target)` partition's block to the target.
    pub(super) fn collective_permute(&mut self, b: &Builder, v: Value, pairs: &[(usize, usize)]) -> Result<Value> {
        let list: Vec<Vec<i64>> = pairs.iter().map(|&(s, t)| vec![s as i64, t as i64]).collect();
        let attrs = vec![
            ("channel_id", b.i64_attr(self.channel())),
            ("source_target_pairs", attrs::index_groups(b.context(), &list)),
        ];
        b.value("hlo.collective_permute", &[v], v.ty(), &attrs)
    }

    /// `#hlo.groups<...>` of partition ids (the cross-partition form of
    /// all-to-all with a channel id).
    pub(super) fn partition_groups_attr(&self, b: &Builder, groups: &[Vec<usize>]) -> MlirAttribute {
        let all: Vec<Vec<i64>> = groups.iter().map(|g| g.iter().map(|&p| p as i64).collect()).collect();
        attrs::index_groups(b.context(), &all)
    }

    /// Gathers dimension `d` of `v` (blocks `tiles`) whole.
    pub(super) fn all_gather(
        &mut self,
        b: &Builder,
        v: Value,
        tiles: &Tiles,
        d: usize,
        global: &TensorType,
    ) -> Result<Value> {
        let groups = tiles.groups_varying(&[d]).ok_or_else(|| PassError("internal error: uneven blocks".into()))?;
        let local = Builder::tensor(v)?;
        let mut dims = local.dims.clone();
        dims[d] *= tiles.counts[d];
        let attrs = vec![
            ("all_gather_dimension", b.i64_attr(d as i64)),
            ("channel_id", b.i64_attr(self.channel())),
            ("replica_groups", self.groups_attr(b, &groups)),
            ("use_global_device_ids", attrs::boolean(b.context(), true)),
        ];
        let gathered = b.value("hlo.all_gather", &[v], TensorType::new(&dims, &local.elem).into(), &attrs)?;
        if dims[d] == global.dims[d] {
            return Ok(gathered);
        }
        // Uneven blocks: drop the padding.
        let mut limit = dims.clone();
        limit[d] = global.dims[d];
        b.slice(gathered, &vec![0; dims.len()], &limit, &vec![1; dims.len()])
    }

    /// Cuts the partition's block of dimensions `cut` (whole in `v`).
    pub(super) fn slice_blocks(
        &mut self,
        b: &Builder,
        v: Value,
        cur: &Tiles,
        to: &Tiles,
        cut: &[usize],
        global: &TensorType,
    ) -> Result<Value> {
        let local = Builder::tensor(v)?;
        let target = to.local_dims(&global.dims);
        // Uneven blocks: pad to whole blocks first.
        let high: Vec<i64> = (0..local.rank())
            .map(|d| if cut.contains(&d) { target[d] * to.counts[d] - local.dims[d] } else { 0 })
            .collect();
        let v = if high.iter().any(|&h| h > 0) {
            let zero = b.scalar(&local.elem, zero_of(&local.elem))?;
            b.pad(v, zero, &vec![0; local.rank()], &high, &vec![0; local.rank()])?
        } else {
            v
        };
        let mut indices = Vec::new();
        let mut sizes = local.dims.clone();
        for d in 0..local.rank() {
            let table = if cut.contains(&d) {
                sizes[d] = target[d];
                to.offsets(&global.dims, d)
            } else {
                vec![0; self.n]
            };
            indices.push(self.offset(b, &table)?);
        }
        let _ = cur;
        b.value(
            "hlo.dynamic_slice",
            &[vec![v], indices].concat(),
            TensorType::new(&sizes, &local.elem).into(),
            &[("slice_sizes", b.dims_attr(&sizes))],
        )
    }

    /// The s32 scalar `table[partition-id]`.
    pub(super) fn offset(&mut self, b: &Builder, table: &[i64]) -> Result<Value> {
        let s32 = ElementType::new("i32");
        if table.iter().all(|&x| x == table[0]) {
            return b.scalar(&s32, Scalar::Int(table[0] as i128));
        }
        let pid = self.pid()?;
        let ty = TensorType::new(&[table.len() as i64], &s32);
        let bytes: Vec<u8> = table.iter().flat_map(|&x| (x as i32).to_le_bytes()).collect();
        let attr = ty
            .to_mlir(b.context())
            .and_then(|t| attrs::dense_raw(t, &bytes))
            .ok_or_else(|| PassError(format!("internal error: no {ty} constant")))?;
        let c = b.constant_attr(attr, &ty)?;
        let one = TensorType::new(&[1], &s32);
        let picked = b.value("hlo.dynamic_slice", &[c, pid], one.into(), &[("slice_sizes", b.dims_attr(&[1]))])?;
        b.reshape(picked, &[])
    }

    pub(super) fn pid(&mut self) -> Result<Value> {
        if let Some(p) = self.pid {
            return Ok(p);
        }
        let b = Builder::before(self.top);
        let id = b.value("hlo.partition_id", &[], TensorType::scalar(&ElementType::new("ui32")).into(), &[])?;
        let p = b.convert(id, &ElementType::new("i32"))?;
        self.pid = Some(p);
        Ok(p)
    }

    pub(super) fn channel(&mut self) -> i64 {
        let c = self.channels.get();
        self.channels.set(c + 1);
        c
    }

    /// `#hlo.groups<...>` of partition groups, repeated for every replica
    /// (global device ids: `replica * partitions + partition`).
    pub(super) fn groups_attr(&self, b: &Builder, groups: &[Vec<usize>]) -> MlirAttribute {
        let mut all = Vec::new();
        for r in 0..self.replicas {
            for g in groups {
                all.push(g.iter().map(|p| (r * self.n + p) as i64).collect());
            }
        }
        attrs::index_groups(b.context(), &all)
    }

    /// The sum over each group of `v`, of which each member keeps its part
    /// along dimension `d` (in group order).
    pub(super) fn reduce_scatter(
        &mut self,
        b: &Builder,
        v: Value,
        groups: &[Vec<usize>],
        reducer: &str,
        d: usize,
    ) -> Result<Value> {
        let local = Builder::tensor(v)?;
        let mut dims = local.dims.clone();
        dims[d] /= groups[0].len() as i64;
        let attrs = vec![
            ("channel_id", b.i64_attr(self.channel())),
            ("replica_groups", self.groups_attr(b, groups)),
            ("scatter_dimension", b.i64_attr(d as i64)),
            ("to_apply", b.symbol_ref(reducer)),
            ("use_global_device_ids", attrs::boolean(b.context(), true)),
        ];
        b.value("hlo.reduce_scatter", &[v], TensorType::new(&dims, &local.elem).into(), &attrs)
    }

    pub(super) fn all_reduce(&mut self, b: &Builder, v: Value, groups: &[Vec<usize>], reducer: &str) -> Result<Value> {
        let attrs = vec![
            ("channel_id", b.i64_attr(self.channel())),
            ("replica_groups", self.groups_attr(b, groups)),
            ("to_apply", b.symbol_ref(reducer)),
            ("use_global_device_ids", attrs::boolean(b.context(), true)),
        ];
        b.value("hlo.all_reduce", &[v], v.ty(), &attrs)
    }
}

/// Where `to` has `from`'s blocks, held by other partitions: for each
/// partition, a distinct partition that holds its block in `from` (itself
/// if it does): the `(source, target)` pairs of one collective-permute.
/// `None` if the blocks differ in size or no distinct sources exist.
pub(super) fn permutation(from: &Tiles, to: &Tiles) -> Option<Vec<(usize, usize)>> {
    if from.counts != to.counts || from == to || from.is_replicated() {
        return None;
    }
    // A partition that keeps its block sends it to itself (one that is
    // no target receives zeros).
    let keeps: Vec<bool> = (0..from.partitions()).map(|p| from.coords[p] == to.coords[p]).collect();
    let mut used = keeps.clone();
    let mut pairs = Vec::new();
    for (p, want) in to.coords.iter().enumerate() {
        if keeps[p] {
            pairs.push((p, p));
            continue;
        }
        let q = (0..from.partitions()).find(|&q| !used[q] && &from.coords[q] == want)?;
        used[q] = true;
        pairs.push((q, p));
    }
    Some(pairs)
}

/// A split of `k` blocks that moves from dimension `a` (whole in `to`) to
/// dimension `d` (whole in `from`), held by the same partitions in the
/// same order, both sizes divisible by `k`, every other dimension as it
/// is: what one all-to-all does.
pub(super) fn moved_split(from: &Tiles, to: &Tiles, global: &TensorType) -> Option<(usize, usize)> {
    let rank = from.rank();
    for a in 0..rank {
        let k = from.counts[a];
        if k <= 1 || to.counts[a] != 1 || global.dims[a] % k != 0 {
            continue;
        }
        for d in (0..rank).filter(|&d| d != a) {
            let fits = from.counts[d] == 1
                && to.counts[d] == k
                && global.dims[d] % k == 0
                && from.coords.iter().zip(&to.coords).all(|(f, t)| f[a] == t[d])
                && (0..rank).filter(|&i| i != a && i != d).all(|i| same_dim(from, to, i));
            if fits {
                return Some((a, d));
            }
        }
    }
    None
}
