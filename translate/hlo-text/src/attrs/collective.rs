//! Collective attributes: `replica_groups` and `source_target_pairs`.

use super::{int_list, iota_transpose, is_permutation, list, read, BRACES};
use crate::ast::AttrValue;
use crate::lexer::{Result, Tok, Token};
use crate::parser::{error_at, string_value, Parser};

/// `replica_groups=` in either of its forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplicaGroups {
    /// `{{0,1},{2,3}}`; `{}` for "all devices in one group".
    List(Vec<Vec<i64>>),
    /// `[2,4]<=[4,2]T(1,0)`.
    Iota(IotaReplicaGroups),
}

/// The compact form `[num_groups,group_size]<=[reshape_dims]T(perm)`: the
/// device ids `0..n` laid out as `reshape_dims`, transposed by `perm`, read
/// in row-major order and cut into `num_groups` groups of `group_size`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IotaReplicaGroups {
    pub num_groups: i64,
    pub group_size: i64,
    pub reshape_dims: Vec<i64>,
    /// `[0, 1, ...]` when the text has no `T(...)`.
    pub transpose_perm: Vec<i64>,
}

/// Expanding more devices than this is refused (the text is tiny, the
/// expansion need not be).
const MAX_EXPANDED_DEVICES: i64 = 1 << 24;

impl IotaReplicaGroups {
    /// The explicit groups; `None` when they would exceed 2^24 devices or
    /// the fields are inconsistent (as [`replica_groups`] never returns).
    pub fn expand(&self) -> Option<Vec<Vec<i64>>> {
        let n = self.num_groups.checked_mul(self.group_size)?;
        if self.num_groups < 0 || self.group_size < 0 || n > MAX_EXPANDED_DEVICES {
            return None;
        }
        let dims = &self.reshape_dims;
        let perm = &self.transpose_perm;
        let product = dims.iter().try_fold(1i64, |acc, &d| if d < 0 { None } else { acc.checked_mul(d) })?;
        if product != n || !is_permutation(perm, dims.len()) {
            return None;
        }
        if self.group_size == 0 {
            return Some(vec![Vec::new(); self.num_groups as usize]);
        }
        // Row-major strides of the untransposed layout (no overflow: their
        // product is at most n).
        let mut strides = vec![1i64; dims.len()];
        for d in (0..dims.len().saturating_sub(1)).rev() {
            strides[d] = strides[d + 1] * dims[d + 1];
        }
        let t_dims: Vec<i64> = perm.iter().map(|&p| dims[p as usize]).collect();
        let mut index = vec![0i64; dims.len()];
        let mut ids = Vec::with_capacity(n as usize);
        for _ in 0..n {
            ids.push(index.iter().zip(perm).map(|(i, &p)| i * strides[p as usize]).sum());
            for d in (0..index.len()).rev() {
                index[d] += 1;
                if index[d] < t_dims[d] {
                    break;
                }
                index[d] = 0;
            }
        }
        Some(ids.chunks(self.group_size as usize).map(<[i64]>::to_vec).collect())
    }
}

impl ReplicaGroups {
    /// The groups as explicit lists (see [`IotaReplicaGroups::expand`]).
    pub fn groups(&self) -> Option<Vec<Vec<i64>>> {
        match self {
            ReplicaGroups::List(groups) => Some(groups.clone()),
            ReplicaGroups::Iota(iota) => iota.expand(),
        }
    }
}

/// `{{0,1},{2,3}}`, `{}`, `[4,2]<=[8]`, `[2,4]<=[4,2]T(1,0)` or the mesh
/// form `mesh['x'=2,'y'=2] {'y'}` (see [`mesh_groups`]). The iota form
/// must have two group dimensions, reshape dimensions whose product is the
/// device count, and a permutation of them (required when there is more
/// than one).
pub fn replica_groups(v: &AttrValue) -> Result<ReplicaGroups> {
    read(v, |p| {
        if p.at_kind(Tok::LBrace)? {
            return Ok(ReplicaGroups::List(list(p, BRACES, "replica groups", int_list)?));
        }
        if p.peek()?.is_ident("mesh") {
            return mesh_groups(p);
        }
        let shape_tok = p.peek()?;
        let shape =
            list(p, [Tok::LSquare, Tok::Comma, Tok::RSquare], "the group shape", |p| p.int("expects an integer"))?;
        let [num_groups, group_size] = shape[..] else {
            return Err(error_at(&shape_tok, "expects [num_groups,group_size]"));
        };
        if num_groups < 0 || group_size < 0 {
            return Err(error_at(&shape_tok, "group counts are not negative"));
        }
        p.expect(Tok::Leq, "expects '<=' after the group shape")?;
        let dims_tok = p.peek()?;
        let reshape_dims = list(p, [Tok::LSquare, Tok::Comma, Tok::RSquare], "the reshape dimensions", |p| {
            p.int("expects an integer")
        })?;
        let product = reshape_dims.iter().try_fold(1i64, |acc, &d| if d < 0 { None } else { acc.checked_mul(d) });
        if reshape_dims.is_empty() || product != num_groups.checked_mul(group_size) {
            return Err(error_at(&dims_tok, "reshape dimensions must multiply to num_groups * group_size"));
        }
        let transpose_perm = iota_transpose(p, reshape_dims.len(), "reshape dimensions", "the transpose")?;
        Ok(ReplicaGroups::Iota(IotaReplicaGroups { num_groups, group_size, reshape_dims, transpose_perm }))
    })
}

/// One axis of a mesh group: a mesh axis, or its sub-axis `(pre)size` (the
/// `size` devices of stride `pre` along the axis).
struct GroupAxis {
    mesh_axis: usize,
    sub: Option<(i64, i64)>,
}

/// A mesh axis name: bare or quoted (`x`, `'axis_0'`).
fn axis_name<'v>(p: &mut Parser<'v>) -> Result<(String, Token<'v>)> {
    let tok = p.peek()?;
    let name = match tok.kind {
        Tok::Ident => tok.text.to_string(),
        Tok::Str => string_value(&tok)?,
        _ => return Err(error_at(&tok, "expects a mesh axis name")),
    };
    p.bump()?;
    Ok((name, tok))
}

/// The mesh form XLA prints for `MeshAxesReplicaGroupList`:
/// `mesh[NAME=SIZE,...]` (with `, device_ids=(...)` when the devices are
/// not in iota order), then the axes whose devices form each group,
/// `{NAME, NAME:(PRE)SIZE, ...}`. The devices are laid out as the mesh;
/// each group varies the listed axes (in mesh order; sub-axes of one axis
/// in the listed order) over the other axes fixed, as XLA's
/// `flattened_replica_groups` reads them. An iota mesh gives the iota form,
/// a mesh with device ids the explicit list.
fn mesh_groups(p: &mut Parser<'_>) -> Result<ReplicaGroups> {
    p.bump()?; // mesh
    let mut names: Vec<String> = Vec::new();
    let mut sizes: Vec<i64> = Vec::new();
    let mut device_ids: Option<Vec<i64>> = None;
    p.expect(Tok::LSquare, "expects '[' after mesh")?;
    loop {
        let (name, tok) = axis_name(p)?;
        p.expect(Tok::Equal, "expects '=' after the mesh axis name")?;
        let size = p.int("expects the mesh axis size")?;
        if size < 1 {
            return Err(error_at(&tok, "mesh axis sizes are positive"));
        }
        if names.contains(&name) {
            return Err(error_at(&tok, &format!("mesh axis '{name}' appears twice")));
        }
        names.push(name);
        sizes.push(size);
        if !p.eat(Tok::Comma)? {
            break;
        }
    }
    p.expect(Tok::RSquare, "expects ',' or ']' in the mesh axes")?;
    let devices = sizes.iter().try_fold(1i64, |acc, &s| acc.checked_mul(s)).filter(|&n| n <= MAX_EXPANDED_DEVICES);
    let Some(devices) = devices else { return Err(p.error("the mesh has too many devices")) };
    if p.eat(Tok::Comma)? {
        let tok = p.peek()?;
        if !tok.is_ident("device_ids") {
            return Err(error_at(&tok, "expects device_ids after the mesh axes"));
        }
        p.bump()?;
        p.expect(Tok::Equal, "expects '=' after device_ids")?;
        let ids_tok = p.peek()?;
        let mut ids = Vec::new();
        flat_ints(p, &mut ids)?;
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        if sorted != (0..devices).collect::<Vec<_>>() {
            return Err(error_at(&ids_tok, &format!("device_ids must be a permutation of 0..{devices}")));
        }
        device_ids = Some(ids);
    }
    let axes_tok = p.peek()?;
    let axes = list(p, BRACES, "the group axes", |p| {
        let (name, tok) = axis_name(p)?;
        let mesh_axis =
            names.iter().position(|n| *n == name).ok_or_else(|| error_at(&tok, &format!("no mesh axis '{name}'")))?;
        let sub = if p.eat(Tok::Colon)? {
            p.expect(Tok::LParen, "expects '(' before the sub-axis pre-size")?;
            let pre = p.int("expects the sub-axis pre-size")?;
            p.expect(Tok::RParen, "expects ')' after the sub-axis pre-size")?;
            let size = p.int("expects the sub-axis size")?;
            let full = sizes[mesh_axis];
            if pre < 1 || size < 2 || pre.checked_mul(size).is_none_or(|next| next > full || full % next != 0) {
                return Err(error_at(&tok, &format!("sub-axis ({pre}){size} does not divide '{name}' of size {full}")));
            }
            Some((pre, size))
        } else {
            None
        };
        Ok(GroupAxis { mesh_axis, sub })
    })?;
    // The mesh reshaped so that every group axis is a dimension of its
    // own (XLA's ComputeReindexedAxes), and where those dimensions are.
    let mut reshape_dims: Vec<i64> = Vec::new();
    let mut grouped: Vec<i64> = Vec::new();
    for (dim, &full) in sizes.iter().enumerate() {
        let on_dim: Vec<(usize, (i64, i64))> = axes
            .iter()
            .enumerate()
            .filter(|(_, a)| a.mesh_axis == dim)
            .map(|(k, a)| (k, a.sub.unwrap_or((1, full))))
            .collect();
        if on_dim.is_empty() {
            reshape_dims.push(full);
            continue;
        }
        if on_dim.len() > 1 && axes.iter().any(|a| a.mesh_axis == dim && a.sub.is_none()) {
            return Err(error_at(&axes_tok, &format!("mesh axis '{}' is grouped whole and in part", names[dim])));
        }
        // Sub-axes by pre-size, with padding dimensions between them; the
        // group dimensions keep the order the axes were listed in.
        let mut by_pre = on_dim.clone();
        by_pre.sort_by_key(|&(_, (pre, _))| pre);
        let mut prefix = 1i64;
        let mut placed: Vec<(usize, i64)> = Vec::new();
        for &(k, (pre, size)) in &by_pre {
            if pre % prefix != 0 {
                return Err(error_at(&axes_tok, &format!("sub-axes of '{}' overlap", names[dim])));
            }
            if pre != prefix {
                reshape_dims.push(pre / prefix);
                prefix = pre;
            }
            placed.push((k, reshape_dims.len() as i64));
            reshape_dims.push(size);
            prefix *= size;
        }
        if prefix != full {
            reshape_dims.push(full / prefix);
        }
        placed.sort_by_key(|&(k, _)| k);
        grouped.extend(placed.into_iter().map(|(_, d)| d));
    }
    let group_size: i64 = axes.iter().map(|a| a.sub.map_or(sizes[a.mesh_axis], |(_, s)| s)).product();
    if group_size < 2 {
        return Err(error_at(&axes_tok, "a mesh group needs more than one device"));
    }
    let mut transpose_perm: Vec<i64> = (0..reshape_dims.len() as i64).filter(|d| !grouped.contains(d)).collect();
    transpose_perm.extend(&grouped);
    let (reshape_dims, transpose_perm) = canonical_iota(reshape_dims, transpose_perm);
    let iota = IotaReplicaGroups { num_groups: devices / group_size, group_size, reshape_dims, transpose_perm };
    match device_ids {
        None => Ok(ReplicaGroups::Iota(iota)),
        Some(ids) => {
            let positions = iota.expand().ok_or_else(|| error_at(&axes_tok, "the mesh groups cannot be expanded"))?;
            Ok(ReplicaGroups::List(positions.iter().map(|g| g.iter().map(|&i| ids[i as usize]).collect()).collect()))
        }
    }
}

/// The same device layout with size-1 dimensions dropped and dimensions
/// that stay adjacent after the transpose merged, as XLA's iota tile
/// assignments are kept (`[2,2]<=[2,2]` is `[2,2]<=[4]`, which prints
/// without a transpose).
fn canonical_iota(dims: Vec<i64>, perm: Vec<i64>) -> (Vec<i64>, Vec<i64>) {
    let kept: Vec<usize> = (0..dims.len()).filter(|&d| dims[d] != 1).collect();
    if kept.is_empty() {
        return (vec![1], vec![0]);
    }
    let mut dims: Vec<i64> = kept.iter().map(|&d| dims[d]).collect();
    let mut perm: Vec<i64> =
        perm.iter().filter_map(|&p| kept.iter().position(|&d| d == p as usize).map(|i| i as i64)).collect();
    while let Some(k) = (0..perm.len().saturating_sub(1)).find(|&k| perm[k + 1] == perm[k] + 1) {
        let a = perm[k] as usize;
        dims[a] *= dims[a + 1];
        dims.remove(a + 1);
        perm.remove(k + 1);
        for p in perm.iter_mut() {
            if *p > a as i64 {
                *p -= 1;
            }
        }
    }
    (dims, perm)
}

/// The integers of a (possibly nested) bracketed or parenthesized list, in
/// order (`(0,2,1,3)`, `([[0,2],[1,3]])`).
fn flat_ints(p: &mut Parser<'_>, out: &mut Vec<i64>) -> Result<()> {
    let tok = p.peek()?;
    let close = match tok.kind {
        Tok::LParen => Tok::RParen,
        Tok::LSquare => Tok::RSquare,
        Tok::LBrace => Tok::RBrace,
        _ => {
            out.push(p.int("expects a device id")?);
            return Ok(());
        }
    };
    p.bump()?;
    if !p.at_kind(close)? {
        loop {
            flat_ints(p, out)?;
            if !p.eat(Tok::Comma)? {
                break;
            }
        }
    }
    p.expect(close, "expects a closing bracket in device_ids")?;
    Ok(())
}

/// `{{0,1},{1,2}}`: (source, target) device pairs.
pub fn source_target_pairs(v: &AttrValue) -> Result<Vec<(i64, i64)>> {
    read(v, |p| {
        list(p, BRACES, "source-target pairs", |p| {
            let tok = p.peek()?;
            match int_list(p)?[..] {
                [source, target] => Ok((source, target)),
                _ => Err(error_at(&tok, "expects a {source,target} pair")),
            }
        })
    })
}
