//! HLO analyses the fusion passes and the emitters share: an
//! `hlo.fusion`'s [`FusionKind`], opcodes, value types memoized while a
//! pass runs ([`value_type`], [`TypeCacheGuard`]) with the fast hash maps
//! keyed by IR pointers ([`FxHashMap`]), non-default layouts
//! ([`layout_text`]), and the reduction and transpose shapes the emitters
//! are chosen by ([`reduction_dimensions`], [`tiled_transpose`]).
//!
//! (Moved out of `rxla_passes::fusion`, whose passes use them from here.)

use crate::{
    op::{Op, Value},
    pass::PassError,
    types::{HloType, TensorType},
};
use mlir_sys::*;
use std::{
    collections::{HashMap, HashSet},
    hash::BuildHasherDefault,
};

/// Threads per warp (GPU), which the reduction heuristics are phrased in.
pub const WARP_SIZE: i64 = 32;

/// `hlo.fusion`'s kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FusionKind {
    /// Elementwise loop over the output (the loop emitter).
    Loop,
    /// Driven by an input-side hero: a row/column reduction, a tiled
    /// transpose, a concatenate or a scatter.
    Input,
    /// An op with an output-fused epilogue (dots, convolutions); these
    /// passes never create it.
    Output,
    /// A library call or custom emitter; never touched.
    Custom,
}

impl FusionKind {
    pub fn text(self) -> &'static str {
        match self {
            FusionKind::Loop => "kLoop",
            FusionKind::Input => "kInput",
            FusionKind::Output => "kOutput",
            FusionKind::Custom => "kCustom",
        }
    }

    /// The kind of an `hlo.fusion` op.
    pub fn of(op: Op) -> Option<Self> {
        match crate::attrs::enum_case(op, "kind")?.as_str() {
            "kLoop" => Some(FusionKind::Loop),
            "kInput" => Some(FusionKind::Input),
            "kOutput" => Some(FusionKind::Output),
            "kCustom" => Some(FusionKind::Custom),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------
// Opcodes.

/// The opcode of an `hlo.*` op (`None` for other dialects).
pub fn opcode(op: Op) -> Option<String> {
    opcode_str(&op).map(str::to_string)
}

/// The opcode of an `hlo.*` op without copying it (`None` for other
/// dialects); the slice lives as long as the op's context.
pub fn opcode_str(op: &Op) -> Option<&str> {
    // SAFETY: op names are interned in the context and outlive the op; the
    // slice does not outlive the borrow of `op`.
    let name = unsafe {
        let s = mlirIdentifierStr(mlirOperationGetName(op.raw()));
        if s.data.is_null() {
            return None;
        }
        std::slice::from_raw_parts(s.data as *const u8, s.length)
    };
    std::str::from_utf8(name.strip_prefix(b"hlo.")?).ok()
}

// ---------------------------------------------------------------------------
// Hashing and types.

/// rustc's FxHash: one rotate, xor and multiply per word. The passes' maps
/// are keyed by op, value and type pointers, for which SipHash's DoS
/// resistance buys nothing and costs most of a lookup.
#[derive(Clone, Copy, Default)]
pub struct FxHasher(u64);

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl std::hash::Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.add(n as u64);
    }
    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.add(n as u64);
    }
    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A hash map with [`FxHasher`].
pub type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;
/// A hash set with [`FxHasher`].
pub type FxHashSet<K> = HashSet<K, BuildHasherDefault<FxHasher>>;

/// What the passes need to know about a type, computed once per MLIR type.
#[derive(Clone, Copy, Debug)]
pub struct TypeFacts {
    /// A tensor with static dimensions.
    pub static_array: bool,
    /// Element count of a static array, else 0.
    pub elements: i64,
    /// `HloType::byte_size`.
    pub bytes: u64,
    /// An array type ([`HloType::is_array`]).
    pub array: bool,
}

impl TypeFacts {
    fn of(t: &HloType) -> Self {
        let static_array = is_static_array(t);
        let elements = match t {
            HloType::Tensor(tt) if static_array => tt.num_elements(),
            _ => 0,
        };
        TypeFacts { static_array, elements, bytes: t.byte_size(), array: matches!(t, HloType::Tensor(_)) }
    }
}

/// The per-thread type caches. MLIR types are uniqued and live as long as
/// their context, but a later context may reuse an address for another
/// type, so the caches are only used while a fusion pass runs (see
/// [`TypeCacheGuard`]); other callers (the emitters use
/// [`reduction_dimensions`], ...) parse types afresh.
#[derive(Default)]
struct TypeCache {
    active: bool,
    types: FxHashMap<usize, HloType>,
    facts: FxHashMap<usize, TypeFacts>,
    /// [`parsed_type`]s.
    parsed: FxHashMap<usize, MlirType>,
}

thread_local! {
    static TYPES: std::cell::RefCell<TypeCache> = std::cell::RefCell::new(TypeCache::default());
}

/// Forgets cached types and stops caching (the end of a pass run).
pub fn clear_type_cache() {
    TYPES.with(|t| {
        let mut t = t.borrow_mut();
        t.active = false;
        t.types.clear();
        t.facts.clear();
        t.parsed.clear();
    });
}

/// Caches types while alive: a fusion pass holds one for its run.
pub struct TypeCacheGuard(());

impl TypeCacheGuard {
    pub fn new() -> Self {
        clear_type_cache();
        TYPES.with(|t| t.borrow_mut().active = true);
        TypeCacheGuard(())
    }
}

impl Default for TypeCacheGuard {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for TypeCacheGuard {
    fn drop(&mut self) {
        clear_type_cache();
    }
}

/// The type of `v` (memoized while a pass runs: printing and parsing types
/// dominates the passes' time otherwise).
pub fn value_type(v: Value) -> HloType {
    let key = v.raw_type().ptr as usize;
    let cached = TYPES.with(|t| {
        let t = t.borrow();
        if t.active {
            Some(t.types.get(&key).cloned())
        } else {
            None
        }
    });
    match cached {
        Some(Some(t)) => t,
        Some(None) => {
            let t = v.ty();
            TYPES.with(|c| c.borrow_mut().types.insert(key, t.clone()));
            t
        }
        None => v.ty(),
    }
}

/// The facts of `v`'s type (memoized like [`value_type`], without cloning
/// the type).
pub fn type_facts(v: Value) -> TypeFacts {
    let key = v.raw_type().ptr as usize;
    let cached = TYPES.with(|t| {
        let t = t.borrow();
        if t.active {
            Some(t.facts.get(&key).copied())
        } else {
            None
        }
    });
    match cached {
        Some(Some(f)) => f,
        Some(None) => {
            let f = TypeFacts::of(&value_type(v));
            TYPES.with(|c| c.borrow_mut().facts.insert(key, f));
            f
        }
        None => TypeFacts::of(&v.ty()),
    }
}

/// [`HloType::is_array`] of `v`'s type, memoized like [`type_facts`].
pub fn is_array_value(v: Value) -> bool {
    if TYPES.with(|t| t.borrow().active) {
        type_facts(v).array
    } else {
        HloType::is_array(v.raw_type())
    }
}

/// A static array type.
fn is_static_array(t: &HloType) -> bool {
    matches!(t, HloType::Tensor(tt) if tt.dims.iter().all(|&d| d >= 0))
}

/// True if `v` is a static array.
pub fn is_static_array_value(v: Value) -> bool {
    type_facts(v).static_array
}

/// Bytes of `v`'s type (`HloType::byte_size`).
pub fn value_bytes(v: Value) -> u64 {
    type_facts(v).bytes
}

/// The array type of a value, if static.
pub fn array_type(v: Value) -> Option<TensorType> {
    match value_type(v) {
        HloType::Tensor(t) if t.dims.iter().all(|&d| d >= 0) => Some(t),
        _ => None,
    }
}

/// Element count of a value (0 for non-arrays).
pub fn elements(v: Value) -> i64 {
    type_facts(v).elements
}

// ---------------------------------------------------------------------------
// Layouts (`hlo.layout`, absent = default).

/// The printed `hlo.layout` of `v` when it is not the default one.
pub fn layout_text(v: Value) -> Option<String> {
    layout_attr(v).map(crate::op::attr_to_string)
}

/// The `hlo.layout` attribute of `v` when it is not the default one.
pub fn layout_attr(v: Value) -> Option<MlirAttribute> {
    let attr = v.layout_attr()?;
    let rank = array_type(v).map(|t| t.rank()).unwrap_or(0);
    (!is_default_layout(attr, rank)).then_some(attr)
}

/// True if a layout is the default (descending, nothing else).
fn is_default_layout(attr: MlirAttribute, rank: usize) -> bool {
    let Some(layout) = crate::attrs::StructAttr::from_attr(attr).filter(|s| s.mnemonic == "layout") else {
        return false;
    };
    let descending: Vec<i64> = (0..rank as i64).rev().collect();
    layout.fields.iter().all(|(key, value)| match (key.as_str(), value) {
        ("minor_to_major", crate::attrs::Field::List(l)) => l.is_empty() || *l == descending,
        ("element_size_in_bits" | "memory_space", crate::attrs::Field::Raw(v)) => v == "0",
        _ => false,
    })
}

/// The minor-to-major order of `v` (descending unless a plain permuted
/// layout says otherwise).
fn minor_to_major(v: Value) -> Vec<i64> {
    let rank = array_type(v).map(|t| t.rank()).unwrap_or(0);
    let default: Vec<i64> = (0..rank as i64).rev().collect();
    let Some(text) = layout_text(v) else {
        return default;
    };
    let Some(attr) = crate::attrs::StructAttr::parse(&text) else {
        return default;
    };
    let m2m = attr.list("minor_to_major");
    let mut sorted = m2m.clone();
    sorted.sort();
    if sorted == (0..rank as i64).collect::<Vec<_>>() {
        m2m
    } else {
        default
    }
}

// ---------------------------------------------------------------------------
// Reductions and transposes.

/// A reduction's shape in the emitter's terms (XLA's
/// `GetReductionKindAndContiguousComponents`): row reductions are
/// `[batch, kept, reduced]` (reducing the most minor elements), column
/// reductions `[kept_major, reduced, kept_minor]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReductionDims {
    pub row: bool,
    pub dims: [i64; 3],
}

impl ReductionDims {
    /// XLA's `IsUnnestedReductionFasterThanElemental`.
    pub fn unnested_is_faster(&self) -> bool {
        if self.row {
            return self.dims[2] >= WARP_SIZE || (self.dims[2] > 0 && WARP_SIZE % self.dims[2] == 0);
        }
        let (major, minor) = (self.dims[1], self.dims[2]);
        let elemental = major < WARP_SIZE
            || (major < 2 * WARP_SIZE && minor < WARP_SIZE)
            || (major < 4 * WARP_SIZE && minor < 8)
            || (major < 8 * WARP_SIZE && minor < 3);
        !elemental
    }

    /// XLA's `ReductionIsRaceFree` (one block reduces each output).
    pub fn race_free(&self) -> bool {
        if self.row {
            self.dims[2] <= 1024 * 16 && self.dims[0] <= 8
        } else {
            self.dims[1] <= WARP_SIZE * 128
        }
    }
}

/// True if `dims` are consecutive in the minor-to-major order `m2m`.
fn consecutive(m2m: &[i64], dims: &[i64]) -> bool {
    let mut positions: Vec<usize> = dims.iter().filter_map(|d| m2m.iter().position(|x| x == d)).collect();
    if positions.len() != dims.len() {
        return false;
    }
    positions.sort();
    positions.windows(2).all(|w| w[1] == w[0] + 1)
}

/// `(major, middle, minor)` element counts around the consecutive `middle`
/// dims.
fn partition(dims: &[i64], m2m: &[i64], middle: &[i64]) -> [i64; 3] {
    let mut values = [1i64, 1, 1];
    let mut segment = 2; // minor
    for &d in m2m {
        let in_middle = middle.contains(&d);
        if segment == 2 && in_middle {
            segment = 1;
        } else if segment == 1 && !in_middle {
            segment = 0;
        }
        values[segment] *= dims[d as usize];
    }
    values
}

/// The reduction dimensions of a reduce whose reduced or kept dimensions
/// are contiguous in memory (`None` for other reduces and other ops).
pub fn reduction_dimensions(op: Op) -> Option<ReductionDims> {
    if !op.is("reduce") || op.num_operands() < 2 {
        return None;
    }
    let input = array_type(op.operand(0))?;
    let reduced = op.dims_attr("dimensions")?;
    let rank = input.rank() as i64;
    let kept: Vec<i64> = (0..rank).filter(|d| !reduced.contains(d)).collect();
    let m2m = minor_to_major(op.operand(0));
    if kept.is_empty() {
        return Some(ReductionDims { row: true, dims: [1, 1, input.num_elements()] });
    }
    if consecutive(&m2m, &kept) {
        let p = partition(&input.dims, &m2m, &kept);
        if p[1] == 1 {
            return Some(ReductionDims { row: true, dims: [1, 1, p[0] * p[2]] });
        }
        if p[2] == 1 {
            return Some(ReductionDims { row: false, dims: [1, p[0], p[1]] });
        }
        return Some(ReductionDims { row: true, dims: p });
    }
    if !consecutive(&m2m, &reduced) {
        return None;
    }
    let p = partition(&input.dims, &m2m, &reduced);
    if p[2] == 1 {
        return Some(ReductionDims { row: true, dims: [1, p[0], p[1]] });
    }
    Some(ReductionDims { row: false, dims: p })
}

/// A transpose the transpose emitter tiles through shared memory: after
/// dropping size-1 dims and merging dims that stay adjacent, it swaps the
/// two most minor dims (`[0, 2, 1]`) or the outer ones (`[2, 1, 0]`), each
/// at least 16 long (or 8, with at least 64 * 128 elements swapped).
/// Returns the normalized input dims and permutation.
pub fn tiled_transpose(op: Op) -> Option<(Vec<i64>, Vec<i64>)> {
    if !op.is("transpose") {
        return None;
    }
    let input = array_type(op.operand(0))?;
    let perm = op.dims_attr("dimensions")?;
    let (dims, perm) = normalize_transpose(&input.dims, &perm);
    let (a, b) = match perm.as_slice() {
        [1, 0] => (dims[0], dims[1]),
        [0, 2, 1] => (dims[1], dims[2]),
        [2, 1, 0] => (dims[0], dims[2]),
        _ => return None,
    };
    let tiled = (a >= 16 && b >= 16) || (a >= 8 && b >= 8 && a * b >= 64 * 128);
    tiled.then_some((dims, perm))
}

/// Drops size-1 dims and merges runs of input dims a transpose keeps
/// adjacent; returns the merged input dims and the permutation over them.
fn normalize_transpose(dims: &[i64], perm: &[i64]) -> (Vec<i64>, Vec<i64>) {
    // Output order of the input dims that are not 1.
    let kept: Vec<i64> = perm.iter().copied().filter(|&d| dims[d as usize] != 1).collect();
    // Groups: runs in output order of consecutive input dims.
    let mut groups: Vec<Vec<i64>> = Vec::new();
    for d in kept {
        match groups.last_mut() {
            Some(g) if *g.last().unwrap() + 1 == d => g.push(d),
            _ => groups.push(vec![d]),
        }
    }
    // Input order of the groups.
    let mut by_input: Vec<usize> = (0..groups.len()).collect();
    by_input.sort_by_key(|&g| groups[g][0]);
    let merged: Vec<i64> = by_input.iter().map(|&g| groups[g].iter().map(|&d| dims[d as usize]).product()).collect();
    let mut new_perm = vec![0i64; groups.len()];
    for (out, g) in (0..groups.len()).enumerate() {
        new_perm[out] = by_input.iter().position(|&x| x == g).unwrap() as i64;
    }
    (merged, new_perm)
}

// ---------------------------------------------------------------------------
// Types as the passes write them.

/// The MLIR type of `v` as the passes write it: `v`'s type read as an
/// [`HloType`] and built back (what `computation::create_function` and
/// `Builder::create` do with the types they are given), memoized per type
/// while a pass runs.
pub fn parsed_type(context: MlirContext, v: Value) -> Result<MlirType, PassError> {
    let key = v.raw_type().ptr as usize;
    let cached = TYPES.with(|t| {
        let t = t.borrow();
        t.active.then(|| t.parsed.get(&key).copied())
    });
    if let Some(Some(ty)) = cached {
        return Ok(ty);
    }
    let t = value_type(v);
    let ty = t.to_mlir(context).ok_or_else(|| PassError(format!("internal error: bad type {t}")))?;
    if cached.is_some() {
        TYPES.with(|c| c.borrow_mut().parsed.insert(key, ty));
    }
    Ok(ty)
}
