//! `sharding={...}`: XLA's HloSharding in the form `HloSharding::ToString`
//! prints it, read into [`Sharding`] and printed back by its `Display`.
//!
//! ```text
//! sharding ::= '{' leaf-body '}' | '{' (leaf (',' leaf)*)? '}'     (tuple)
//! leaf     ::= '{' leaf-body '}'
//! leaf-body::= ( 'replicated' | 'manual' | 'unknown' | 'unreduced'
//!              | 'maximal' | 'device=' int
//!              | 'devices=' '[' dims ']' (ids | '<=' '[' dims ']' ('T(' perm ')')?)
//!              | 'last_tile_dim_replicate' | 'last_tile_dims=' '{' types '}'
//!              | 'shard_as' int | 'shard_like' int | 'metadata=' '{...}' )*
//! ```
//!
//! XLA's parser builds the sharding through constructors that normalize
//! it; [`Sharding::canonical`] applies the same rules so that the printed
//! text is what XLA would print for the same input.

use super::{iota_transpose, is_permutation, raw_group, read, IotaReplicaGroups};
use crate::ast::{AttrValue, Pos};
use crate::lexer::{Result, Tok};
use crate::parser::{error_at, Parser};
use std::fmt;

/// A sharding: one for the whole value, or one per leaf of a tuple.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sharding {
    Leaf(LeafSharding),
    /// One element per tuple leaf (XLA never nests them).
    Tuple(Vec<LeafSharding>),
}

/// The sharding of one array (or of a whole value, for the tile-less kinds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeafSharding {
    pub kind: LeafKind,
    pub shard_group: Option<ShardGroup>,
    /// The `metadata={...}` text, braces included, kept verbatim.
    pub metadata: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeafKind {
    Replicated,
    Manual,
    Unknown,
    Unreduced,
    /// `{maximal device=3}`: the whole value on one device.
    Maximal {
        device: i64,
    },
    Tiled(Tiling),
}

/// `devices=[dims]...`: the tile grid and the device of each tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tiling {
    /// One entry per array dimension, then one per `last_tile_dims` entry.
    pub dims: Vec<i64>,
    pub devices: TileDevices,
    /// The kinds of the trailing subgroup dimensions; `[Replicated]` is
    /// `last_tile_dim_replicate`.
    pub last_tile_dims: Vec<SubgroupType>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TileDevices {
    /// The device ids in row-major tile order.
    List(Vec<i64>),
    /// `<=[reshape_dims]T(transpose_perm)`: `iota(n)` reshaped, transposed
    /// and read in row-major order.
    Iota { reshape_dims: Vec<i64>, transpose_perm: Vec<i64> },
}

/// The meaning of a trailing tile dimension, in XLA's (OpSharding::Type)
/// sort order for merged subgroups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SubgroupType {
    Maximal,
    Manual,
    Unreduced,
    Replicated,
}

impl SubgroupType {
    pub const ALL: [SubgroupType; 4] =
        [SubgroupType::Maximal, SubgroupType::Manual, SubgroupType::Unreduced, SubgroupType::Replicated];

    pub fn name(self) -> &'static str {
        match self {
            SubgroupType::Maximal => "maximal",
            SubgroupType::Manual => "manual",
            SubgroupType::Unreduced => "unreduced",
            SubgroupType::Replicated => "replicated",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// `shard_as N` / `shard_like N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardGroup {
    As(i64),
    Like(i64),
}

/// Reads `sharding={...}`; the result is as written, see
/// [`Sharding::canonical`] for the form XLA keeps.
pub fn sharding(v: &AttrValue) -> Result<Sharding> {
    read(v, |p| {
        let open = p.expect(Tok::LBrace, "expects '{' to start the sharding")?;
        if p.eat(Tok::RBrace)? {
            return Ok(Sharding::Tuple(Vec::new()));
        }
        if !p.at_kind(Tok::LBrace)? {
            return Ok(Sharding::Leaf(leaf_body(p, open.pos)?));
        }
        let mut leaves = Vec::new();
        loop {
            let open = p.expect(Tok::LBrace, "expects '{' to start a tuple element's sharding")?;
            leaves.push(leaf_body(p, open.pos)?);
            if !p.eat(Tok::Comma)? {
                break;
            }
        }
        p.expect(Tok::RBrace, "expects ',' or '}' in the tuple sharding")?;
        Ok(Sharding::Tuple(leaves))
    })
}

/// The fields of one leaf after its '{', through its '}'; errors about the
/// combination of fields point at the '{' (`at`).
fn leaf_body(p: &mut Parser<'_>, at: Pos) -> Result<LeafSharding> {
    let mut flags: Vec<&str> = Vec::new();
    let mut device = None;
    let mut tiling: Option<(Vec<i64>, TileDevices)> = None;
    let mut last_tile_dims: Option<Vec<SubgroupType>> = None;
    let mut shard_group = None;
    let mut metadata = None;
    loop {
        let tok = p.peek()?;
        if tok.is(Tok::RBrace) {
            p.bump()?;
            break;
        }
        if !tok.is(Tok::Ident) {
            return Err(error_at(&tok, "expects a sharding field or '}'"));
        }
        p.bump()?;
        let twice = || error_at(&tok, &format!("'{}' given twice in one sharding", tok.text));
        match tok.text {
            "replicated" | "manual" | "unknown" | "unreduced" | "maximal" => {
                if flags.contains(&tok.text) {
                    return Err(twice());
                }
                flags.push(tok.text);
            }
            "device" => {
                p.expect(Tok::Equal, "expects '=' after 'device'")?;
                let id = p.peek()?;
                let value = p.int("expects a device id")?;
                if value < 0 {
                    return Err(error_at(&id, "device ids are not negative"));
                }
                if device.replace(value).is_some() {
                    return Err(twice());
                }
            }
            "devices" => {
                p.expect(Tok::Equal, "expects '=' after 'devices'")?;
                if tiling.is_some() {
                    return Err(twice());
                }
                tiling = Some(tile_assignment(p)?);
            }
            "last_tile_dim_replicate" | "last_tile_dims" => {
                if last_tile_dims.is_some() {
                    return Err(error_at(&tok, "last_tile_dim_replicate and last_tile_dims given together or twice"));
                }
                if tok.text == "last_tile_dims" {
                    p.expect(Tok::Equal, "expects '=' after 'last_tile_dims'")?;
                    last_tile_dims = Some(subgroup_types(p)?);
                } else {
                    last_tile_dims = Some(vec![SubgroupType::Replicated]);
                }
            }
            "shard_as" | "shard_like" => {
                let id = p.int("expects a shard group id")?;
                let group = if tok.text == "shard_as" { ShardGroup::As(id) } else { ShardGroup::Like(id) };
                if shard_group.replace(group).is_some() {
                    return Err(error_at(&tok, "a sharding has at most one shard_as/shard_like"));
                }
            }
            "metadata" => {
                p.expect(Tok::Equal, "expects '=' after 'metadata'")?;
                if !p.at_kind(Tok::LBrace)? {
                    return Err(p.error("expects '{' to start the sharding's metadata"));
                }
                if metadata.replace(raw_group(p)?.to_string()).is_some() {
                    return Err(twice());
                }
            }
            _ => {
                return Err(error_at(
                    &tok,
                    "unknown sharding field: expects replicated, manual, unknown, unreduced, maximal, device=, \
                     devices=, last_tile_dim_replicate, last_tile_dims=, shard_as, shard_like or metadata=",
                ))
            }
        }
    }
    let err = |message: &str| crate::error::ParseError::new(at, message, "{");
    if flags.len() > 1 {
        return Err(err(&format!(
            "a sharding is one of replicated, manual, unknown, unreduced or maximal, not {}",
            flags.join(" and ")
        )));
    }
    let kind = match flags.first().copied() {
        Some("maximal") => {
            if tiling.is_some() || last_tile_dims.is_some() {
                return Err(err("a maximal sharding has one device= and no devices= or last_tile_dims"));
            }
            LeafKind::Maximal { device: device.ok_or_else(|| err("a maximal sharding needs device=N"))? }
        }
        Some(flag) => {
            if device.is_some() || tiling.is_some() || last_tile_dims.is_some() {
                return Err(err(&format!("{flag} shardings have no devices assigned")));
            }
            match flag {
                "replicated" => LeafKind::Replicated,
                "manual" => LeafKind::Manual,
                "unknown" => LeafKind::Unknown,
                _ => LeafKind::Unreduced,
            }
        }
        None => {
            if device.is_some() {
                return Err(err("device= belongs to a maximal sharding: {maximal device=N}"));
            }
            let (dims, devices) = tiling
                .ok_or_else(|| err("expects replicated, manual, unknown, unreduced, maximal or devices=[...]"))?;
            let last_tile_dims = last_tile_dims.unwrap_or_default();
            if last_tile_dims.len() > dims.len() {
                return Err(err(&format!(
                    "{} trailing tile dimensions (last_tile_dims) but only {} tile dimensions",
                    last_tile_dims.len(),
                    dims.len()
                )));
            }
            LeafKind::Tiled(Tiling { dims, devices, last_tile_dims })
        }
    };
    Ok(LeafSharding { kind, shard_group, metadata })
}

/// `[dims]ids` or `[dims]<=[reshape]T(perm)`, checked to assign each of
/// the `product(dims)` devices exactly once.
fn tile_assignment(p: &mut Parser<'_>) -> Result<(Vec<i64>, TileDevices)> {
    let dims_tok = p.peek()?;
    let dims = bracket_ints(p, Tok::LSquare, Tok::RSquare, "the tile dimensions")?;
    if dims.is_empty() || dims.iter().any(|&d| d <= 0) {
        return Err(error_at(&dims_tok, "tile dimensions must be a non-empty list of positive sizes"));
    }
    let count = product(&dims).ok_or_else(|| error_at(&dims_tok, "too many tiles"))?;
    if p.eat(Tok::Leq)? {
        let reshape_tok = p.peek()?;
        let reshape_dims = bracket_ints(p, Tok::LSquare, Tok::RSquare, "the iota dimensions")?;
        if reshape_dims.is_empty() || reshape_dims.iter().any(|&d| d <= 0) || product(&reshape_dims) != Some(count) {
            return Err(error_at(
                &reshape_tok,
                &format!("iota dimensions must be positive and multiply to the {count} tiles"),
            ));
        }
        let transpose_perm = iota_transpose(p, reshape_dims.len(), "iota dimensions", "the iota transpose")?;
        return Ok((dims, TileDevices::Iota { reshape_dims, transpose_perm }));
    }
    let ids_tok = p.peek()?;
    let mut ids = vec![p.int("expects a device id or '<='")?];
    while p.eat(Tok::Comma)? {
        ids.push(p.int("expects a device id")?);
    }
    if ids.len() as i64 != count {
        return Err(error_at(&ids_tok, &format!("{} device ids for {count} tiles", ids.len())));
    }
    if count == 1 {
        return Err(error_at(&ids_tok, "a tiled sharding needs more than one device; use {maximal device=N}"));
    }
    if !is_permutation(&ids, ids.len()) {
        return Err(error_at(&ids_tok, &format!("the device ids must be 0..{} each once", count - 1)));
    }
    Ok((dims, TileDevices::List(ids)))
}

fn bracket_ints(p: &mut Parser<'_>, open: Tok, close: Tok, what: &str) -> Result<Vec<i64>> {
    super::list(p, [open, Tok::Comma, close], what, |p| p.int("expects an integer"))
}

fn subgroup_types(p: &mut Parser<'_>) -> Result<Vec<SubgroupType>> {
    super::list(p, super::BRACES, "last_tile_dims", |p| {
        let tok = p.expect(Tok::Ident, "expects manual, replicated, unreduced or maximal")?;
        SubgroupType::from_name(tok.text)
            .ok_or_else(|| error_at(&tok, "expects manual, replicated, unreduced or maximal"))
    })
}

fn product(dims: &[i64]) -> Option<i64> {
    dims.iter().try_fold(1i64, |acc, &d| acc.checked_mul(d))
}

// ---------------------------------------------------------------------------
// Printing: HloSharding::ToString.
// ---------------------------------------------------------------------------

impl fmt::Display for Sharding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sharding::Leaf(leaf) => leaf.fmt(f),
            Sharding::Tuple(leaves) => {
                f.write_str("{")?;
                for (i, leaf) in leaves.iter().enumerate() {
                    // XLA numbers every fifth element, as in tuple shapes.
                    match i {
                        0 => {}
                        _ if i % 5 == 0 => write!(f, ", /*index={i}*/")?,
                        _ => f.write_str(", ")?,
                    }
                    leaf.fmt(f)?;
                }
                f.write_str("}")
            }
        }
    }
}

fn join(values: &[i64]) -> String {
    values.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

impl fmt::Display for LeafSharding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        match &self.kind {
            LeafKind::Replicated => f.write_str("replicated")?,
            LeafKind::Manual => f.write_str("manual")?,
            LeafKind::Unknown => f.write_str("unknown")?,
            LeafKind::Unreduced => f.write_str("unreduced")?,
            LeafKind::Maximal { device } => write!(f, "maximal device={device}")?,
            LeafKind::Tiled(t) => {
                write!(f, "devices=[{}]", join(&t.dims))?;
                match &t.devices {
                    TileDevices::List(ids) => f.write_str(&join(ids))?,
                    TileDevices::Iota { reshape_dims, transpose_perm } => {
                        write!(f, "<=[{}]", join(reshape_dims))?;
                        if reshape_dims.len() > 1 {
                            write!(f, "T({})", join(transpose_perm))?;
                        }
                    }
                }
                match &t.last_tile_dims[..] {
                    [] => {}
                    [SubgroupType::Replicated] => f.write_str(" last_tile_dim_replicate")?,
                    types => {
                        let names: Vec<&str> = types.iter().map(|t| t.name()).collect();
                        write!(f, " last_tile_dims={{{}}}", names.join(", "))?;
                    }
                }
            }
        }
        match self.shard_group {
            Some(ShardGroup::As(id)) => write!(f, " shard_as {id}")?,
            Some(ShardGroup::Like(id)) => write!(f, " shard_like {id}")?,
            None => {}
        }
        if let Some(metadata) = &self.metadata {
            write!(f, " metadata={metadata}")?;
        }
        f.write_str("}")
    }
}

// ---------------------------------------------------------------------------
// Normalization: what XLA's constructors (HloSharding::Tile, PartialTile,
// Subgroup, IotaTileAssignment::Create, NormalizeTupleSharding) make of a
// parsed sharding.
// ---------------------------------------------------------------------------

impl Sharding {
    /// The sharding XLA keeps for this text: iota dimensions canonicalized,
    /// trivial subgroups folded away, replicated groups sorted.
    pub fn canonical(&self) -> Sharding {
        match self {
            Sharding::Leaf(leaf) => Sharding::Leaf(leaf.canonical()),
            Sharding::Tuple(leaves) => Sharding::Tuple(leaves.iter().map(LeafSharding::canonical).collect()),
        }
    }

    /// As XLA's NormalizeTupleSharding: a single sharding on a value with
    /// `leaves` tuple leaves (`None`: not a tuple) becomes one copy per
    /// leaf (one for an empty tuple).
    pub fn for_tuple_leaves(self, leaves: Option<usize>) -> Sharding {
        match (self, leaves) {
            (Sharding::Leaf(leaf), Some(n)) => Sharding::Tuple(vec![leaf; n.max(1)]),
            (sharding, _) => sharding,
        }
    }
}

impl LeafSharding {
    pub fn canonical(&self) -> LeafSharding {
        let mut out = self.clone();
        if let LeafKind::Tiled(t) = &self.kind {
            out.kind = canonical_tiling(t);
        }
        out
    }
}

fn canonical_tiling(t: &Tiling) -> LeafKind {
    let mut t = t.clone();
    if let TileDevices::Iota { reshape_dims, transpose_perm } = &t.devices {
        t.devices = canonical_iota(reshape_dims, transpose_perm);
    }
    let types = t.last_tile_dims.clone();
    if types.is_empty() {
        return LeafKind::Tiled(t);
    }
    let data_rank = t.dims.len() - types.len();
    // HloSharding::Subgroup: one kind of subgroup and no data tiling is the
    // plain manual/replicated/unreduced sharding.
    if types.iter().all(|&ty| ty == types[0]) && t.dims[..data_rank].iter().product::<i64>() == 1 {
        match types[0] {
            SubgroupType::Manual => return LeafKind::Manual,
            SubgroupType::Replicated => return LeafKind::Replicated,
            SubgroupType::Unreduced => return LeafKind::Unreduced,
            SubgroupType::Maximal => {}
        }
    }
    // Subgroup dimensions of size 1 are dropped and those of one kind merged,
    // in XLA's kind order. When the kinds already come in that order this
    // only reshapes the grid; otherwise the devices are transposed to that
    // order first (kept as written where XLA's iota transpose would need its
    // decanonicalization, see docs/hlo-text.md).
    let mut subgroups: Vec<(SubgroupType, i64)> =
        types.iter().copied().zip(t.dims[data_rank..].iter().copied()).filter(|&(_, d)| d > 1).collect();
    if subgroups.windows(2).any(|w| w[0].0 > w[1].0) {
        let mut perm: Vec<usize> = (0..data_rank).collect();
        for ty in SubgroupType::ALL {
            perm.extend(
                (0..types.len()).filter(|&i| types[i] == ty && t.dims[data_rank + i] > 1).map(|i| data_rank + i),
            );
        }
        perm.extend((0..types.len()).filter(|&i| t.dims[data_rank + i] == 1).map(|i| data_rank + i));
        let Some(devices) = transpose_devices(&t.devices, &t.dims, &perm) else { return LeafKind::Tiled(t) };
        t.devices = devices;
        subgroups.sort_by_key(|&(ty, _)| ty);
    }
    t.dims.truncate(data_rank);
    t.last_tile_dims.clear();
    for (ty, d) in subgroups {
        if t.last_tile_dims.last() == Some(&ty) {
            *t.dims.last_mut().unwrap() *= d;
        } else {
            t.dims.push(d);
            t.last_tile_dims.push(ty);
        }
    }
    match t.last_tile_dims[..] {
        [] => LeafKind::Tiled(t),
        [SubgroupType::Replicated] => partial_tile(t),
        [SubgroupType::Manual] if t.dims.last() == Some(&count(&t)) => LeafKind::Manual,
        [.., SubgroupType::Replicated] => {
            sort_groups(&mut t);
            LeafKind::Tiled(t)
        }
        _ => LeafKind::Tiled(t),
    }
}

/// The devices of a tile grid of `dims` transposed by `perm`
/// (TileAssignment::Transpose); `None` for the iota transposes XLA only
/// manages by decanonicalizing the iota dimensions.
fn transpose_devices(devices: &TileDevices, dims: &[i64], perm: &[usize]) -> Option<TileDevices> {
    match devices {
        TileDevices::List(ids) => {
            let mut strides = vec![1usize; dims.len()];
            for d in (0..dims.len().saturating_sub(1)).rev() {
                strides[d] = strides[d + 1] * dims[d + 1] as usize;
            }
            let new_dims: Vec<usize> = perm.iter().map(|&p| dims[p] as usize).collect();
            let mut index = vec![0usize; perm.len()];
            let mut out = Vec::with_capacity(ids.len());
            for _ in 0..ids.len() {
                out.push(ids[index.iter().zip(perm).map(|(i, &p)| i * strides[p]).sum::<usize>()]);
                for d in (0..index.len()).rev() {
                    index[d] += 1;
                    if index[d] < new_dims[d] {
                        break;
                    }
                    index[d] = 0;
                }
            }
            Some(TileDevices::List(out))
        }
        TileDevices::Iota { reshape_dims, transpose_perm } => {
            // GetTransposeKind: moving only size-1 dimensions keeps the order.
            let mut previous = None;
            let mut reorders = false;
            for &d in perm {
                if dims[d] == 1 {
                    continue;
                }
                if previous.is_some_and(|p| d <= p) {
                    reorders = true;
                }
                previous = Some(d);
            }
            if !reorders {
                return Some(devices.clone());
            }
            let perm_i64: Vec<i64> = perm.iter().map(|&p| p as i64).collect();
            if reshape_dims.len() == 1 {
                return Some(canonical_iota(dims, &perm_i64));
            }
            // A pure transpose: the non-1 tile dimensions are the iota
            // dimensions in transposed order.
            let mut non_one = Vec::new();
            let mut position = vec![usize::MAX; dims.len()];
            for (i, &d) in dims.iter().enumerate() {
                if d == 1 {
                    continue;
                }
                if non_one.len() >= reshape_dims.len() || reshape_dims[transpose_perm[non_one.len()] as usize] != d {
                    return None;
                }
                position[i] = non_one.len();
                non_one.push(d);
            }
            if non_one.len() != reshape_dims.len() {
                return None;
            }
            let new_perm: Vec<i64> =
                perm.iter().filter(|&&p| dims[p] != 1).map(|&p| transpose_perm[position[p]]).collect();
            Some(canonical_iota(reshape_dims, &new_perm))
        }
    }
}

fn count(t: &Tiling) -> i64 {
    t.dims.iter().product()
}

/// HloSharding::PartialTile for a tiling whose last dimension replicates.
fn partial_tile(mut t: Tiling) -> LeafKind {
    let group = *t.dims.last().expect("a subgroup dimension");
    if t.dims.len() == 1 || group == count(&t) {
        return LeafKind::Replicated;
    }
    if group == 1 {
        t.dims.pop();
        t.last_tile_dims.clear();
        return LeafKind::Tiled(t);
    }
    sort_groups(&mut t);
    LeafKind::Tiled(t)
}

/// Makes the ids within each group of the last tile dimension increase:
/// an iota stays an iota when its minor dimension is one whole iota
/// dimension, or can be split so that it is; otherwise the list is
/// materialized and each group sorted.
fn sort_groups(t: &mut Tiling) {
    let group = *t.dims.last().expect("a subgroup dimension");
    if let TileDevices::Iota { reshape_dims, transpose_perm } = &t.devices {
        if reshape_dims[*transpose_perm.last().unwrap() as usize] == group {
            return;
        }
        if let Some((dims, perm)) = group_minor_iota_dims(reshape_dims, transpose_perm, group) {
            t.devices = canonical_iota(&dims, &perm);
            return;
        }
    }
    let Some(mut ids) = device_list(t) else { return };
    ids.chunks_mut(group as usize).for_each(<[i64]>::sort_unstable);
    t.devices = TileDevices::List(ids);
}

/// The device of every tile in row-major order (`None` beyond 2^24).
pub fn device_list(t: &Tiling) -> Option<Vec<i64>> {
    match &t.devices {
        TileDevices::List(ids) => Some(ids.clone()),
        TileDevices::Iota { reshape_dims, transpose_perm } => {
            let n = product(reshape_dims)?;
            let iota = IotaReplicaGroups {
                num_groups: 1,
                group_size: n,
                reshape_dims: reshape_dims.clone(),
                transpose_perm: transpose_perm.clone(),
            };
            iota.expand()?.pop()
        }
    }
}

/// IotaTileAssignment's canonical form: size-1 dimensions dropped and runs
/// of dimensions that stay in order under the transpose merged, so that
/// `[2,4]T(0,1)` is `[8]`.
pub fn canonical_iota(reshape_dims: &[i64], transpose_perm: &[i64]) -> TileDevices {
    let mut dims = reshape_dims.to_vec();
    let mut perm = transpose_perm.to_vec();
    loop {
        // Drop size-1 dimensions, renumbering the permutation.
        let mut new_index = vec![-1i64; dims.len()];
        let mut kept = Vec::new();
        for (i, &d) in dims.iter().enumerate() {
            if d != 1 {
                new_index[i] = kept.len() as i64;
                kept.push(d);
            }
        }
        perm = perm.iter().map(|&p| new_index[p as usize]).filter(|&p| p >= 0).collect();
        dims = kept;
        // Merge each run perm[base..=i] of consecutive source dimensions
        // into its first one (the others become size 1, dropped next round).
        let mut changed = false;
        let mut base = 0;
        for i in 1..perm.len() {
            let (base_dim, dim) = (perm[base] as usize, perm[i] as usize);
            if base_dim + (i - base) == dim {
                dims[base_dim] *= dims[dim];
                dims[dim] = 1;
                changed = true;
            } else {
                base = i;
            }
        }
        if !changed {
            break;
        }
    }
    if dims.is_empty() {
        return TileDevices::Iota { reshape_dims: vec![1], transpose_perm: vec![0] };
    }
    TileDevices::Iota { reshape_dims: dims, transpose_perm: perm }
}

/// GroupMinorIotaDimsSorted: splits the iota dimensions so that the minor
/// `group` devices are whole dimensions, then sorts those minor dimensions
/// (so each replication group lists its devices in increasing order).
fn group_minor_iota_dims(dims: &[i64], perm: &[i64], mut group: i64) -> Option<(Vec<i64>, Vec<i64>)> {
    let mut grouped = 0;
    let mut split: Option<(usize, i64)> = None;
    for &p in perm.iter().rev() {
        let size = dims[p as usize];
        grouped += 1;
        if size <= group {
            if group % size != 0 {
                return None;
            }
            group /= size;
        } else {
            if size % group != 0 {
                return None;
            }
            split = Some((p as usize, size / group));
            break;
        }
    }
    let (mut new_dims, mut new_perm) = match split {
        None => (dims.to_vec(), perm.to_vec()),
        Some((s, major)) => {
            let mut new_dims = dims.to_vec();
            new_dims[s] = major;
            new_dims.insert(s + 1, dims[s] / major);
            let mut new_perm = Vec::with_capacity(perm.len() + 1);
            for &p in perm {
                let p = p as usize;
                new_perm.push(if p <= s { p as i64 } else { p as i64 + 1 });
                if p == s {
                    new_perm.push(s as i64 + 1);
                }
            }
            (new_dims, new_perm)
        }
    };
    let n = new_perm.len();
    new_perm[n - grouped..].sort_unstable();
    new_dims.shrink_to_fit();
    Some((new_dims, new_perm))
}
