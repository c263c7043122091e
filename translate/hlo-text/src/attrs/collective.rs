//! Collective attributes: `replica_groups` and `source_target_pairs`.

use super::{int_list, iota_transpose, is_permutation, list, read, BRACES};
use crate::ast::AttrValue;
use crate::lexer::{Result, Tok};
use crate::parser::error_at;

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

/// `{{0,1},{2,3}}`, `{}`, `[4,2]<=[8]` or `[2,4]<=[4,2]T(1,0)`. The iota
/// form must have two group dimensions, reshape dimensions whose product is
/// the device count, and a permutation of them (required when there is
/// more than one).
pub fn replica_groups(v: &AttrValue) -> Result<ReplicaGroups> {
    read(v, |p| {
        if p.at_kind(Tok::LBrace)? {
            return Ok(ReplicaGroups::List(list(p, BRACES, "replica groups", int_list)?));
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
