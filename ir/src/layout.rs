//! Layouts (`hlo.layout`) as Rust values, and the small pieces of layout
//! math and op rebuilding the canonicalization and layout passes share.
//!
//! A layout lives beside the value: the discardable `hlo.layout` attribute
//! of the op producing it (an array of layouts for multi-result and
//! tuple-shaped ops), or the `hlo.layout` argument attribute of a function
//! argument. Absent means XLA's default, descending `minor_to_major`
//! (`{rank-1, ..., 1, 0}`, row major). Only `minor_to_major` matters for
//! these passes; a layout that also carries tiles, a memory space, an
//! element size or uninterpreted text is [`LayoutKind::Opaque`] unless its
//! dimension order is already the default.
//!
//! Permutation conventions (as in [`crate::types::shape`]): a transpose by
//! `perm` has result dim `i` = operand dim `perm[i]`. The *major-to-minor*
//! order of a layout is `minor_to_major` reversed; transposing a value by its
//! major-to-minor order gives its *physical* (normalized) form, the array
//! whose row-major order is the value's order in memory.

use crate::{
    builder::Builder,
    op::{Op, Value},
    pass::PassError,
    types::{split_top_level, HloType},
};
use mlir_sys::MlirAttribute;

/// What a value's layout means to a pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutKind {
    /// Row major (no attribute, `#hlo.layout<>`, or descending
    /// `minor_to_major`, possibly with tiling).
    Default,
    /// A non-default dimension order and nothing else: `minor_to_major`.
    Permuted(Vec<i64>),
    /// Something these passes do not reason about (a non-default order with
    /// tiles, memory space, element size or extra text; a malformed layout;
    /// a non-array value).
    Opaque,
}

impl LayoutKind {
    pub fn is_default(&self) -> bool {
        matches!(self, LayoutKind::Default)
    }

    /// The major-to-minor dimension order for a rank-`rank` array: the
    /// identity for the default layout, `None` when opaque.
    pub fn major_to_minor(&self, rank: usize) -> Option<Vec<i64>> {
        match self {
            LayoutKind::Default => Some((0..rank as i64).collect()),
            LayoutKind::Permuted(m2m) => Some(major_to_minor(m2m)),
            LayoutKind::Opaque => None,
        }
    }
}

/// `minor_to_major` reversed: the dims from most major to most minor.
pub fn major_to_minor(minor_to_major: &[i64]) -> Vec<i64> {
    minor_to_major.iter().rev().copied().collect()
}

/// The inverse: the `minor_to_major` of a major-to-minor order.
pub fn minor_to_major_of(major_to_minor: &[i64]) -> Vec<i64> {
    major_to_minor.iter().rev().copied().collect()
}

/// True for an empty or descending `minor_to_major`.
pub fn is_default_minor_to_major(m2m: &[i64]) -> bool {
    m2m.iter().enumerate().all(|(i, &d)| d == (m2m.len() - 1 - i) as i64)
}

/// True if `perm` is a permutation of `0..rank`.
pub fn is_permutation(perm: &[i64], rank: usize) -> bool {
    let mut seen = vec![false; rank];
    perm.len() == rank
        && perm.iter().all(|&d| d >= 0 && (d as usize) < rank && !std::mem::replace(&mut seen[d as usize], true))
}

/// Reads one `#hlo.layout<...>` text as a [`LayoutKind`] for rank `rank`.
pub fn parse_layout(text: &str, rank: usize) -> LayoutKind {
    let Some(inner) = text.trim().strip_prefix("#hlo.layout<").and_then(|t| t.strip_suffix('>')) else {
        return LayoutKind::Opaque;
    };
    let mut m2m: Option<Vec<i64>> = None;
    let mut extras = false;
    for item in split_top_level(inner) {
        let Some((key, value)) = item.split_once('=') else { return LayoutKind::Opaque };
        let (key, value) = (key.trim(), value.trim());
        if key == "minor_to_major" {
            let Some(list) = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) else {
                return LayoutKind::Opaque;
            };
            let parsed: Option<Vec<i64>> =
                list.split(',').filter(|s| !s.trim().is_empty()).map(|s| s.trim().parse().ok()).collect();
            match parsed {
                Some(v) => m2m = Some(v),
                None => return LayoutKind::Opaque,
            }
        } else if !(key == "element_size_in_bits" || key == "memory_space") || value != "0" {
            extras = true;
        }
    }
    kind_of(m2m.unwrap_or_default(), extras, rank)
}

/// The kind of a layout of rank `rank` with `m2m` and, if `extras`, fields
/// other than a zero element size or memory space.
fn kind_of(m2m: Vec<i64>, extras: bool, rank: usize) -> LayoutKind {
    if is_default_minor_to_major(&m2m) && (m2m.is_empty() || m2m.len() == rank) {
        return LayoutKind::Default;
    }
    if extras || !is_permutation(&m2m, rank) {
        return LayoutKind::Opaque;
    }
    LayoutKind::Permuted(m2m)
}

/// The printed `hlo.layout` of a value (the element for a result of a
/// multi-result op), or `None` when it has none (the default).
pub fn layout_text(value: Value) -> Option<String> {
    value.layout_text()
}

/// The layout of an array value.
pub fn layout_of(value: Value) -> LayoutKind {
    let ty = value.ty();
    let Some(t) = ty.tensor() else { return LayoutKind::Opaque };
    let Some(attr) = value.layout_attr() else { return LayoutKind::Default };
    // Plain layouts through the C API; tiled ones from their text.
    match crate::attrs::StructAttr::from_api(attr) {
        Some(layout) if layout.mnemonic == "layout" => {
            // Integer fields are reported only when not zero.
            let extras = layout.fields.iter().any(|(key, _)| key != "minor_to_major");
            kind_of(layout.list("minor_to_major"), extras, t.rank())
        }
        _ => parse_layout(&crate::op::attr_to_string(attr), t.rank()),
    }
}

/// Sets `op`'s `hlo.layout` to the plain layout `minor_to_major` (built
/// through the dialect's C API).
pub fn set_layout(op: Op, minor_to_major: &[i64]) -> Result<(), crate::PassError> {
    let mut layout = crate::attrs::StructAttr::new("layout");
    layout.set_list("minor_to_major", minor_to_major.to_vec());
    op.set_struct_attr("hlo.layout", &layout)
}

/// Copies `from`'s `hlo.layout` attribute (whatever it is) onto `to`.
pub fn copy_layout_attr(from: Op, to: Op) {
    match from.attr_raw("hlo.layout") {
        Some(attr) => to.set_attr_raw("hlo.layout", attr),
        None => {
            to.remove_attr("hlo.layout");
        }
    }
}

/// The physical (row-major in memory) dims of `dims` laid out with
/// major-to-minor order `m2maj`.
pub fn physical_dims(dims: &[i64], m2maj: &[i64]) -> Vec<i64> {
    m2maj.iter().map(|&d| dims[d as usize]).collect()
}

pub use crate::computation::non_fusion_functions;

/// Creates a copy of `op` named `name` (usually `op.name()`) before the
/// builder's point with new operands and result types, keeping every
/// attribute except those in `drop` (e.g. `hlo.layout`, `hlo.sharding` when
/// the shapes change).
pub fn rebuild(b: &Builder, op: Op, operands: &[Value], results: &[HloType], drop: &[&str]) -> Result<Op, PassError> {
    let attrs: Vec<(String, MlirAttribute)> =
        op.attrs_raw().into_iter().filter(|(k, _)| !drop.contains(&k.as_str())).collect();
    let borrowed: Vec<(&str, MlirAttribute)> = attrs.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    b.create(&op.name(), operands, results, &borrowed)
}

/// Erases the ops in `ops` that are (or become, as others go) unused and
/// have no side effects: the leftovers of a rewrite. Every op in `ops` must
/// be alive and listed once.
pub fn erase_unused(ops: &[Op]) {
    let mut live: Vec<Op> = ops.to_vec();
    loop {
        let before = live.len();
        live.retain(|&op| {
            if !op.has_uses() && crate::op::is_trivially_dead_when_unused(op) {
                op.erase();
                false
            } else {
                true
            }
        });
        if live.len() == before {
            return;
        }
    }
}

/// True if `reduce` (a single-input `hlo.reduce`, in `module`) gives the
/// same bits whatever order it visits the reduced elements in: its combiner
/// is one integer or pred `add`, `multiply`, `maximum`, `minimum`, `and`,
/// `or` or `xor` of its two parameters (wrapping integer arithmetic is
/// associative and commutative). Float combiners never qualify.
pub fn reduce_is_order_insensitive(module: Op, reduce: Op) -> bool {
    if reduce.num_operands() != 2 {
        return false;
    }
    let Some(elem) = reduce.operand(0).ty().tensor().map(|t| t.elem.clone()) else { return false };
    if !(elem.is_integer() || elem.is_pred()) {
        return false;
    }
    let Some(callee) = reduce.symbol_attr("to_apply").and_then(|n| crate::computation::lookup(module, &n)) else {
        return false;
    };
    let params = callee.arguments();
    let body = callee.body_ops();
    let [op, ret] = body.as_slice() else { return false };
    if params.len() != 2 || op.num_operands() != 2 || ret.num_operands() != 1 || !ret.operand(0).same_as(op.result(0)) {
        return false;
    }
    let commutative = ["add", "multiply", "maximum", "minimum", "and", "or", "xor"];
    commutative.iter().any(|name| op.is(name))
        && ((op.operand(0).same_as(params[0]) && op.operand(1).same_as(params[1]))
            || (op.operand(0).same_as(params[1]) && op.operand(1).same_as(params[0])))
}

/// True if visiting the dims `reduced` in the order `order` (a permutation
/// of all dims, major to minor) visits the reduced elements in the same
/// sequence as the logical row-major order: the reduced dims of size > 1
/// appear in increasing order.
pub fn keeps_reduction_order(dims: &[i64], reduced: &[i64], order: &[i64]) -> bool {
    let seq: Vec<i64> = order.iter().copied().filter(|d| reduced.contains(d) && dims[*d as usize] != 1).collect();
    seq.windows(2).all(|w| w[0] < w[1])
}

/// True if a layout pass may reduce `reduce` (in `module`; input `dims`,
/// reduced dims `reduced`) by visiting its input in `order` (major to
/// minor, usually memory order): always, as XLA does (the semantics leave
/// the combining order unspecified), unless `keep_order` (a pass's
/// `keep-reduction-order` option) asks for bit-exact agreement with the
/// logical order, which only an order-preserving `order` or an
/// order-insensitive combiner gives.
pub fn may_reduce_in_order(
    module: Op,
    reduce: Op,
    dims: &[i64],
    reduced: &[i64],
    order: &[i64],
    keep_order: bool,
) -> bool {
    !keep_order || keeps_reduction_order(dims, reduced, order) || reduce_is_order_insensitive(module, reduce)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_layouts() {
        assert_eq!(parse_layout("#hlo.layout<>", 2), LayoutKind::Default);
        assert_eq!(parse_layout("#hlo.layout<minor_to_major = [1, 0]>", 2), LayoutKind::Default);
        assert_eq!(parse_layout("#hlo.layout<minor_to_major = [0, 1]>", 2), LayoutKind::Permuted(vec![0, 1]));
        assert_eq!(
            parse_layout("#hlo.layout<minor_to_major = [1, 0], tiles = [array<i64: 8, 128>]>", 2),
            LayoutKind::Default
        );
        assert_eq!(
            parse_layout("#hlo.layout<minor_to_major = [0, 1], tiles = [array<i64: 8, 128>]>", 2),
            LayoutKind::Opaque
        );
        assert_eq!(parse_layout("#hlo.layout<minor_to_major = [0, 0]>", 2), LayoutKind::Opaque);
        assert_eq!(major_to_minor(&[2, 0, 1]), vec![1, 0, 2]);
        assert_eq!(physical_dims(&[7, 5, 3], &[1, 0, 2]), vec![5, 7, 3]);
    }
}
