//! A sharding as the partitioner works with it: for every partition, the
//! block of the array it holds.
//!
//! XLA's `HloSharding` names a tile assignment (a grid of device ids, one
//! grid dimension per array dimension plus trailing replication
//! dimensions). [`Tiles`] keeps the same information the other way round:
//! `coords[p]` is the block partition `p` holds, one block index per array
//! dimension. Partitions holding the same block are replicas of it. Every
//! partitioning rule (project the result's blocks onto an operand, combine
//! an operand's contracting blocks with another's free ones, group the
//! partitions that differ only in some dimensions for a collective) is then
//! a few lines over this table, whatever order the devices come in.
//!
//! Blocks are XLA's: a dimension of size `n` in `k` blocks has blocks of
//! `ceil(n / k)` elements; the last ones are padded when `k` does not
//! divide `n` (and partition-local code never reads the padding as data).

use rxla_hlo_text::attrs::{device_list, LeafKind, LeafSharding, Sharding, SubgroupType, TileDevices, Tiling};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tiles {
    /// Blocks per array dimension (1: whole on every partition).
    pub counts: Vec<i64>,
    /// `coords[p][i]`: the block of dimension `i` partition `p` holds.
    pub coords: Vec<Vec<i64>>,
}

impl Tiles {
    /// Every partition holds the whole array.
    pub fn replicated(rank: usize, partitions: usize) -> Self {
        Tiles { counts: vec![1; rank], coords: vec![vec![0; rank]; partitions] }
    }

    pub fn rank(&self) -> usize {
        self.counts.len()
    }

    pub fn partitions(&self) -> usize {
        self.coords.len()
    }

    pub fn is_replicated(&self) -> bool {
        self.counts.iter().all(|&k| k == 1)
    }

    /// The number of blocks, all dimensions together.
    pub fn blocks(&self) -> i64 {
        self.counts.iter().product()
    }

    /// The shape every partition holds for an array of `dims` (padded
    /// blocks: `ceil(n / k)`).
    pub fn local_dims(&self, dims: &[i64]) -> Vec<i64> {
        dims.iter().zip(&self.counts).map(|(&n, &k)| block(n, k)).collect()
    }

    /// True if every sharded dimension of `dims` splits into equal blocks.
    pub fn is_even(&self, dims: &[i64]) -> bool {
        dims.iter().zip(&self.counts).all(|(&n, &k)| n % k == 0)
    }

    /// Per partition, where its block of dimension `dim` starts in an
    /// array of `dims`.
    pub fn offsets(&self, dims: &[i64], dim: usize) -> Vec<i64> {
        let size = block(dims[dim], self.counts[dim]);
        self.coords.iter().map(|c| c[dim] * size).collect()
    }

    /// A sharding of rank `picks.len()`: dimension `i` is split as
    /// dimension `j` of `t` for `picks[i] = Some((t, j))`, and whole for
    /// `None`.
    pub fn assemble(partitions: usize, picks: &[Option<(&Tiles, usize)>]) -> Tiles {
        let counts = picks.iter().map(|p| p.map_or(1, |(t, j)| t.counts[j])).collect();
        let coords = (0..partitions)
            .map(|p| picks.iter().map(|pick| pick.map_or(0, |(t, j)| t.coords[p][j])).collect())
            .collect();
        Tiles { counts, coords }
    }

    /// This sharding with dimension `dim` whole.
    pub fn without(&self, dims: &[usize]) -> Tiles {
        let mut t = self.clone();
        for &d in dims {
            t.counts[d] = 1;
            for c in &mut t.coords {
                c[d] = 0;
            }
        }
        t
    }

    /// True if every block has the same number of partitions and every
    /// block is held by one: the shape of every sharding XLA can write, and
    /// what the collectives' groups need.
    pub fn is_uniform(&self) -> bool {
        let mut count: BTreeMap<&[i64], usize> = BTreeMap::new();
        for c in &self.coords {
            if c.iter().zip(&self.counts).any(|(&x, &k)| x < 0 || x >= k) {
                return false;
            }
            *count.entry(c.as_slice()).or_default() += 1;
        }
        count.len() as i64 == self.blocks() && count.values().all(|&n| n == self.partitions() / count.len())
    }

    /// The groups of partitions that hold the same blocks in every
    /// dimension but those of `vary`, one partition for each combination
    /// of blocks of `vary`, in row-major order of those blocks: the
    /// replica groups of an all-gather along `vary` or of the all-reduce
    /// that sums partial results over `vary`. `None` if the sharding is
    /// not uniform.
    pub fn groups_varying(&self, vary: &[usize]) -> Option<Vec<Vec<usize>>> {
        if !self.is_uniform() {
            return None;
        }
        let combos: i64 = vary.iter().map(|&d| self.counts[d]).product();
        // key (blocks outside `vary`) -> row-major combination of `vary` -> partitions
        let mut buckets: BTreeMap<Vec<i64>, BTreeMap<i64, Vec<usize>>> = BTreeMap::new();
        for (p, c) in self.coords.iter().enumerate() {
            let key: Vec<i64> = (0..self.rank()).filter(|d| !vary.contains(d)).map(|d| c[d]).collect();
            let combo = vary.iter().fold(0, |acc, &d| acc * self.counts[d] + c[d]);
            buckets.entry(key).or_default().entry(combo).or_default().push(p);
        }
        let mut groups = Vec::new();
        for by_combo in buckets.values() {
            if by_combo.len() as i64 != combos {
                return None;
            }
            let m = by_combo.values().next()?.len();
            if by_combo.values().any(|ps| ps.len() != m) {
                return None;
            }
            for j in 0..m {
                groups.push(by_combo.values().map(|ps| ps[j]).collect());
            }
        }
        groups.sort();
        Some(groups)
    }

    /// The partitioner's view of an `HloSharding` of an array of rank
    /// `rank`, over `partitions` devices. A maximal sharding (the array
    /// lives on one device) is computed on every partition alike, which
    /// gives the same values.
    pub fn from_sharding(leaf: &LeafSharding, rank: usize, partitions: usize) -> Result<Tiles, String> {
        match &leaf.kind {
            LeafKind::Replicated | LeafKind::Unknown | LeafKind::Maximal { .. } => {
                Ok(Tiles::replicated(rank, partitions))
            }
            LeafKind::Manual => Err("a manual sharding (a region partitioned by hand)".into()),
            LeafKind::Unreduced => Err("an unreduced sharding".into()),
            LeafKind::Tiled(t) => from_tiling(t, rank, partitions),
        }
    }

    /// The `HloSharding` XLA would write for this one (canonical: an iota
    /// tile assignment where the devices allow it). Only uniform shardings
    /// have one.
    pub fn to_sharding(&self) -> Option<Sharding> {
        if !self.is_uniform() {
            return None;
        }
        if self.is_replicated() {
            return Some(Sharding::Leaf(LeafSharding {
                kind: LeafKind::Replicated,
                shard_group: None,
                metadata: None,
            }));
        }
        let mut by_block: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
        for (p, c) in self.coords.iter().enumerate() {
            let flat = c.iter().zip(&self.counts).fold(0, |acc, (&x, &k)| acc * k + x);
            by_block.entry(flat).or_default().push(p as i64);
        }
        let replication = self.partitions() as i64 / self.blocks();
        let mut dims = self.counts.clone();
        let mut last_tile_dims = Vec::new();
        if replication > 1 {
            dims.push(replication);
            last_tile_dims.push(SubgroupType::Replicated);
        }
        let devices: Vec<i64> = by_block.into_values().flatten().collect();
        let devices = as_iota(&dims, &last_tile_dims, &devices).unwrap_or(TileDevices::List(devices));
        let tiling = Tiling { dims, devices, last_tile_dims };
        let leaf = LeafSharding { kind: LeafKind::Tiled(tiling), shard_group: None, metadata: None };
        Some(Sharding::Leaf(leaf).canonical())
    }
}

fn from_tiling(t: &Tiling, rank: usize, partitions: usize) -> Result<Tiles, String> {
    if t.dims.len() != rank + t.last_tile_dims.len() {
        return Err(format!(
            "a tile assignment of rank {} ({} subgroup dimensions) on an array of rank {rank}",
            t.dims.len(),
            t.last_tile_dims.len()
        ));
    }
    if let Some(kind) = t.last_tile_dims.iter().find(|k| **k != SubgroupType::Replicated) {
        return Err(format!("a '{}' subgroup", kind.name()));
    }
    let devices = device_list(t).ok_or("a tile assignment whose devices cannot be listed")?;
    let total: i64 = t.dims.iter().product();
    if devices.len() as i64 != total || total != partitions as i64 {
        return Err(format!("a tile assignment of {total} devices for {partitions} partitions"));
    }
    let mut coords: Vec<Option<Vec<i64>>> = vec![None; partitions];
    for (flat, &device) in devices.iter().enumerate() {
        let slot = usize::try_from(device)
            .ok()
            .and_then(|d| coords.get_mut(d))
            .ok_or_else(|| format!("device {device} outside the {partitions} partitions"))?;
        if slot.is_some() {
            return Err(format!("device {device} twice in the tile assignment"));
        }
        // Row-major position in the grid; the array dimensions lead.
        let mut rest = flat as i64;
        let mut c = vec![0; t.dims.len()];
        for d in (0..t.dims.len()).rev() {
            c[d] = rest % t.dims[d];
            rest /= t.dims[d];
        }
        c.truncate(rank);
        *slot = Some(c);
    }
    Ok(Tiles { counts: t.dims[..rank].to_vec(), coords: coords.into_iter().map(|c| c.unwrap_or_default()).collect() })
}

/// The device list as an iota tile assignment (`<=[dims]T(perm)`) where
/// it is one of a transposed mesh of the tile dimensions: how XLA writes
/// the shardings of JAX's meshes.
fn as_iota(dims: &[i64], last_tile_dims: &[SubgroupType], devices: &[i64]) -> Option<TileDevices> {
    let sizes: Vec<i64> = dims.iter().copied().filter(|&d| d > 1).collect();
    if sizes.len() > 5 {
        return None;
    }
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    loop {
        // Mesh axes in `order`, transposed back to the tile order.
        let reshape_dims: Vec<i64> = order.iter().map(|&i| sizes[i]).collect();
        let mut transpose_perm = vec![0i64; order.len()];
        for (pos, &i) in order.iter().enumerate() {
            transpose_perm[i] = pos as i64;
        }
        let candidate = TileDevices::Iota { reshape_dims, transpose_perm };
        let tiling =
            Tiling { dims: dims.to_vec(), devices: candidate.clone(), last_tile_dims: last_tile_dims.to_vec() };
        if device_list(&tiling).as_deref() == Some(devices) {
            return Some(candidate);
        }
        if !next_permutation(&mut order) {
            return None;
        }
    }
}

/// The next permutation in lexicographic order; false after the last.
fn next_permutation(v: &mut [usize]) -> bool {
    let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else { return false };
    let j = (i..v.len()).rev().find(|&j| v[j] > v[i - 1]).expect("exists");
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

/// XLA's shard size: `ceil(n / k)`.
pub fn block(n: i64, k: i64) -> i64 {
    if k <= 1 {
        n
    } else {
        (n + k - 1) / k
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rxla_hlo_text::attrs::sharding;

    fn parse(text: &str) -> LeafSharding {
        let module = format!("HloModule m\nENTRY e {{ ROOT p = f32[8,8] parameter(0), sharding={text} }}\n");
        let m = rxla_hlo_text::parse_module(&module).expect("parses");
        let inst = &m.computations[m.entry].instructions[0];
        let a = inst.attributes.iter().find(|a| a.name == "sharding").expect("has a sharding");
        match sharding(&a.value).expect("a sharding") {
            Sharding::Leaf(l) => l,
            Sharding::Tuple(_) => panic!("tuple"),
        }
    }

    #[test]
    fn iota_with_a_transpose_and_replication_round_trips() {
        let leaf = parse("{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}");
        let t = Tiles::from_sharding(&leaf, 2, 4).expect("tiles");
        // Device order 0,2,1,3: blocks of dim 0 are {0,2} and {1,3}.
        assert_eq!(t.counts, vec![2, 1]);
        assert_eq!(t.coords, vec![vec![0, 0], vec![1, 0], vec![0, 0], vec![1, 0]]);
        assert_eq!(t.groups_varying(&[0]), Some(vec![vec![0, 1], vec![2, 3]]));
        let back = t.to_sharding().expect("uniform");
        assert_eq!(Tiles::from_sharding(&leaf_of(back), 2, 4).expect("tiles"), t);
    }

    fn leaf_of(s: Sharding) -> LeafSharding {
        match s {
            Sharding::Leaf(l) => l,
            Sharding::Tuple(_) => panic!("tuple"),
        }
    }

    #[test]
    fn uneven_blocks_are_padded_and_bad_assignments_are_refused() {
        let t = Tiles::from_sharding(&parse("{devices=[4,1]<=[4]}"), 2, 4).expect("tiles");
        assert_eq!(t.local_dims(&[10, 8]), vec![3, 8]);
        assert_eq!(t.offsets(&[10, 8], 0), vec![0, 3, 6, 9]);
        assert!(!t.is_even(&[10, 8]));
        assert!(Tiles::from_sharding(&parse("{devices=[2,1]<=[2]}"), 2, 4).is_err());
        let twice = LeafSharding {
            kind: LeafKind::Tiled(Tiling {
                dims: vec![2, 1],
                devices: TileDevices::List(vec![0, 0]),
                last_tile_dims: Vec::new(),
            }),
            shard_group: None,
            metadata: None,
        };
        assert!(Tiles::from_sharding(&twice, 2, 2).is_err());
        let skew = Tiles { counts: vec![2], coords: vec![vec![0], vec![0], vec![0], vec![1]] };
        assert!(!skew.is_uniform());
        assert_eq!(skew.groups_varying(&[0]), None);
    }
}

/// How a value of the global program lies on the partitions: an array in
/// blocks, a tuple element by element, or (tokens) whole everywhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Placement {
    Array(Tiles),
    Tuple(Vec<Placement>),
    Whole,
    /// Inside a region partitioned by hand (`shard_map`): the value is
    /// already each partition's own, of the type it is written with.
    Manual,
}

impl Placement {
    /// Everything whole on every partition, for a value of type `ty`.
    pub fn replicated(ty: &rxla_ir::types::HloType, partitions: usize) -> Placement {
        use rxla_ir::types::HloType;
        match ty {
            HloType::Tensor(t) => Placement::Array(Tiles::replicated(t.rank(), partitions)),
            HloType::Tuple(items) => {
                Placement::Tuple(items.iter().map(|t| Placement::replicated(t, partitions)).collect())
            }
            _ => Placement::Whole,
        }
    }

    /// The placement `sharding` gives a value of type `ty` (a tuple
    /// sharding lists the leaves in order; one leaf sharding applies to
    /// every leaf).
    pub fn of(
        ty: &rxla_ir::types::HloType,
        sharding: Option<&Sharding>,
        partitions: usize,
    ) -> Result<Placement, String> {
        let Some(sharding) = sharding else { return Ok(Placement::replicated(ty, partitions)) };
        // Manual, or partially manual (a `manual` subgroup: `shard_map`
        // over some mesh axes): inside such a region values are each
        // partition's own, whole along the automatic axes.
        let manual = |l: &LeafSharding| match &l.kind {
            LeafKind::Manual => true,
            LeafKind::Tiled(t) => t.last_tile_dims.contains(&SubgroupType::Manual),
            _ => false,
        };
        match sharding {
            Sharding::Leaf(l) if manual(l) => return Ok(Placement::Manual),
            Sharding::Tuple(ls) if !ls.is_empty() && ls.iter().all(manual) => return Ok(Placement::Manual),
            _ => {}
        }
        let leaves: Vec<LeafSharding> = match sharding {
            Sharding::Leaf(l) => vec![l.clone(); leaf_count(ty)],
            Sharding::Tuple(ls) => ls.clone(),
        };
        if leaves.len() != leaf_count(ty) {
            return Err(format!("a sharding of {} leaves on a value of {} leaves", leaves.len(), leaf_count(ty)));
        }
        let mut it = leaves.iter();
        build(ty, &mut it, partitions)
    }

    /// The `HloSharding` of this placement (`None` if some array's blocks
    /// are not uniform).
    pub fn to_sharding(&self) -> Option<Sharding> {
        let mut leaves = Vec::new();
        fn collect(p: &Placement, out: &mut Vec<LeafSharding>) -> Option<()> {
            match p {
                Placement::Array(t) => match t.to_sharding()? {
                    Sharding::Leaf(l) => out.push(l),
                    Sharding::Tuple(mut ls) => out.append(&mut ls),
                },
                Placement::Tuple(items) => {
                    for i in items {
                        collect(i, out)?;
                    }
                }
                Placement::Whole => {
                    out.push(LeafSharding { kind: LeafKind::Replicated, shard_group: None, metadata: None })
                }
                Placement::Manual => {
                    out.push(LeafSharding { kind: LeafKind::Manual, shard_group: None, metadata: None })
                }
            }
            Some(())
        }
        collect(self, &mut leaves)?;
        Some(match self {
            Placement::Tuple(_) => Sharding::Tuple(leaves),
            _ => Sharding::Leaf(leaves.pop()?),
        })
    }

    pub fn tiles(&self) -> Option<&Tiles> {
        match self {
            Placement::Array(t) => Some(t),
            _ => None,
        }
    }
}

/// The arrays (and tokens) a value of type `ty` is made of.
pub fn leaf_count(ty: &rxla_ir::types::HloType) -> usize {
    match ty {
        rxla_ir::types::HloType::Tuple(items) => items.iter().map(leaf_count).sum(),
        _ => 1,
    }
}

fn build<'a>(
    ty: &rxla_ir::types::HloType,
    leaves: &mut impl Iterator<Item = &'a LeafSharding>,
    partitions: usize,
) -> Result<Placement, String> {
    use rxla_ir::types::HloType;
    match ty {
        HloType::Tuple(items) => {
            Ok(Placement::Tuple(items.iter().map(|t| build(t, leaves, partitions)).collect::<Result<_, _>>()?))
        }
        HloType::Tensor(t) => {
            let leaf = leaves.next().ok_or("too few leaf shardings")?;
            Ok(Placement::Array(Tiles::from_sharding(leaf, t.rank(), partitions)?))
        }
        _ => {
            leaves.next();
            Ok(Placement::Whole)
        }
    }
}
