//! Indexing of single HLO ops (XLA's `indexing_analysis.cc`), for ops given
//! as a plain [`OpDesc`].
//!
//! [`output_to_input_indexing`] maps an element of an op's result to the
//! elements of each operand it reads; [`input_to_output_indexing`] maps an
//! element of one operand to the result elements it contributes to.
//! Unsupported ops (and directions) give undefined maps, like XLA's "unknown
//! indexing"; inconsistent descriptions are errors.

use std::fmt;

use crate::error::{Error, Result};
use crate::expr::Expr;
use crate::interval::Interval;
use crate::map::{compose, IndexingMap, Variable};
use crate::simplify::SimplifyPointDimensions;

/// Padding of one dimension (HLO `pad`'s `low_high_interior`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PadDim {
    pub low: i64,
    pub high: i64,
    pub interior: i64,
}

/// One dimension of a `reduce-window` window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WindowDim {
    pub size: i64,
    pub stride: i64,
    pub padding_low: i64,
    pub padding_high: i64,
    pub window_dilation: i64,
    pub base_dilation: i64,
}

impl WindowDim {
    /// A window of `size` with stride 1, no padding and no dilation.
    pub fn new(size: i64) -> WindowDim {
        WindowDim { size, stride: 1, padding_low: 0, padding_high: 0, window_dilation: 1, base_dilation: 1 }
    }
}

impl Default for WindowDim {
    fn default() -> WindowDim {
        WindowDim::new(1)
    }
}

/// `dot` dimension numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DotDims {
    pub lhs_batch: Vec<i64>,
    pub rhs_batch: Vec<i64>,
    pub lhs_contracting: Vec<i64>,
    pub rhs_contracting: Vec<i64>,
}

/// `gather` dimension numbers and slice sizes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GatherDims {
    pub offset_dims: Vec<i64>,
    pub collapsed_slice_dims: Vec<i64>,
    pub start_index_map: Vec<i64>,
    pub index_vector_dim: i64,
    pub operand_batching_dims: Vec<i64>,
    pub start_indices_batching_dims: Vec<i64>,
    pub slice_sizes: Vec<i64>,
}

/// The attributes of an op; each op reads the fields it needs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct OpAttrs {
    /// `broadcast`: the result dimension of each operand dimension.
    pub broadcast_dimensions: Vec<i64>,
    /// `transpose`: result dimension `i` is operand dimension `permutation[i]`.
    pub permutation: Vec<i64>,
    /// `slice`: start index and stride per dimension (the limits follow from
    /// the result shape).
    pub slice_starts: Vec<i64>,
    pub slice_strides: Vec<i64>,
    /// `pad`: per dimension.
    pub padding: Vec<PadDim>,
    /// `concatenate`.
    pub concat_dimension: Option<i64>,
    /// `reduce`: the reduced operand dimensions.
    pub reduce_dimensions: Vec<i64>,
    /// `reverse`: the reversed dimensions.
    pub reverse_dimensions: Vec<i64>,
    /// `dot`.
    pub dot: Option<DotDims>,
    /// `gather`.
    pub gather: Option<GatherDims>,
    /// `reduce-window`: one entry per dimension.
    pub window: Vec<WindowDim>,
    /// `dynamic-slice`.
    pub dynamic_slice_sizes: Vec<i64>,
    /// `iota`.
    pub iota_dimension: Option<i64>,
    /// `bitcast`: layouts as minor-to-major dimension lists; `None` is the
    /// default descending layout (then a bitcast is a reshape).
    pub operand_layout: Option<Vec<i64>>,
    pub result_layout: Option<Vec<i64>>,
    /// `constant`: the integer values in row-major order, when known. Used to
    /// fold runtime variables whose offsets are constants in a fusion.
    pub literal: Option<Vec<i64>>,
    /// `parameter`: its number in the fused computation.
    pub parameter_number: Option<usize>,
}

/// An HLO op, described without MLIR: its opcode (HLO spelling, e.g.
/// `"add"`, `"dynamic-slice"`), operand and result shapes, and attributes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct OpDesc {
    pub opcode: String,
    pub operand_shapes: Vec<Vec<i64>>,
    pub result_shapes: Vec<Vec<i64>>,
    pub attrs: OpAttrs,
}

impl OpDesc {
    /// An op with one result and default attributes.
    pub fn new(opcode: &str, operand_shapes: Vec<Vec<i64>>, result_shape: Vec<i64>) -> OpDesc {
        OpDesc {
            opcode: opcode.to_string(),
            operand_shapes,
            result_shapes: vec![result_shape],
            attrs: OpAttrs::default(),
        }
    }

    pub fn with_attrs(mut self, attrs: OpAttrs) -> OpDesc {
        self.attrs = attrs;
        self
    }
}

/// A runtime variable of an operand's indexing map: which operand of the op
/// supplies its value, and where that operand is read (a map from the same
/// domain as the operand map to the supplying operand's index).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RuntimeVarIndexing {
    /// The operand number in the op (in fusion results: the node id).
    pub operand: usize,
    pub map: IndexingMap,
}

/// The indexing of one operand: the map and, for each of its runtime
/// variables (in order), where the variable's value comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OperandIndexing {
    pub map: IndexingMap,
    pub rt_vars: Vec<RuntimeVarIndexing>,
}

impl OperandIndexing {
    pub fn new(map: IndexingMap) -> OperandIndexing {
        OperandIndexing { map, rt_vars: Vec::new() }
    }

    pub fn undefined() -> OperandIndexing {
        OperandIndexing::new(IndexingMap::undefined())
    }

    pub fn is_undefined(&self) -> bool {
        self.map.is_undefined()
    }

    pub fn simplify(&mut self) -> bool {
        let mut changed = self.map.simplify();
        for rt in &mut self.rt_vars {
            changed |= rt.map.simplify();
        }
        changed
    }

    /// Removes unused symbols from the map and the runtime variables that
    /// went with them.
    pub fn remove_unused_symbols(&mut self) -> Vec<bool> {
        let range_count = self.map.num_range_vars();
        let removed = self.map.remove_unused_symbols();
        let mut k = 0;
        self.rt_vars.retain(|_| {
            let keep = !removed.get(range_count + k).copied().unwrap_or(false);
            k += 1;
            keep
        });
        removed
    }
}

impl fmt::Display for OperandIndexing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.map)?;
        if !self.rt_vars.is_empty() {
            f.write_str("\nruntime variables:")?;
            for (k, rt) in self.rt_vars.iter().enumerate() {
                write!(f, "\nrt{k}: operand {}: {}", rt.operand, rt.map)?;
            }
        }
        Ok(())
    }
}

/// Composes operand indexings: `consumer` maps some domain to the result of
/// an op, `producer` maps that result to one of the op's operands. The
/// runtime variables follow the order of the composed map's symbols
/// (producer's first).
pub fn compose_operand_indexing(consumer: &OperandIndexing, producer: &OperandIndexing) -> Result<OperandIndexing> {
    let map = compose(&consumer.map, &producer.map)?;
    let mut rt_vars = Vec::with_capacity(producer.rt_vars.len() + consumer.rt_vars.len());
    for rt in &producer.rt_vars {
        rt_vars.push(RuntimeVarIndexing { operand: rt.operand, map: compose(&consumer.map, &rt.map)? });
    }
    rt_vars.extend(consumer.rt_vars.iter().cloned());
    Ok(OperandIndexing { map, rt_vars })
}

/// The indexing of an op: for each operand (output-to-input) or each result
/// (input-to-output), the distinct maps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpIndexing {
    pub indexing_maps: Vec<Vec<OperandIndexing>>,
}

impl OpIndexing {
    pub fn from_maps(maps: Vec<IndexingMap>) -> OpIndexing {
        OpIndexing { indexing_maps: maps.into_iter().map(|m| vec![OperandIndexing::new(m)]).collect() }
    }

    fn undefined(count: usize) -> OpIndexing {
        OpIndexing { indexing_maps: (0..count).map(|_| vec![OperandIndexing::undefined()]).collect() }
    }

    /// The single map of operand `i`, if it has exactly one.
    pub fn map(&self, i: usize) -> Option<&IndexingMap> {
        match self.indexing_maps.get(i).map(|v| v.as_slice()) {
            Some([one]) => Some(&one.map),
            _ => None,
        }
    }
}

impl fmt::Display for OpIndexing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, maps) in self.indexing_maps.iter().enumerate() {
            write!(f, "operand id = {i}")?;
            for m in maps {
                write!(f, " {m}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Opcodes whose result element `i` reads element `i` of every operand.
pub const ELEMENTWISE_OPCODES: &[&str] = &[
    "abs",
    "add",
    "and",
    "atan2",
    "bitcast-convert",
    "cbrt",
    "ceil",
    "clamp",
    "compare",
    "complex",
    "convert",
    "copy",
    "cos",
    "cosine",
    "count-leading-zeros",
    "divide",
    "erf",
    "exp",
    "exponential",
    "exponential-minus-one",
    "expm1",
    "floor",
    "imag",
    "is-finite",
    "log",
    "log-plus-one",
    "log1p",
    "logistic",
    "map",
    "maximum",
    "minimum",
    "multiply",
    "negate",
    "not",
    "or",
    "popcnt",
    "power",
    "real",
    "reduce-precision",
    "remainder",
    "round-nearest-afz",
    "round-nearest-even",
    "rsqrt",
    "select",
    "shift-left",
    "shift-right-arithmetic",
    "shift-right-logical",
    "sign",
    "sin",
    "sine",
    "sqrt",
    "stochastic-convert",
    "subtract",
    "tan",
    "tanh",
    "xor",
];

pub fn is_elementwise(opcode: &str) -> bool {
    ELEMENTWISE_OPCODES.contains(&opcode)
}

// ---------------------------------------------------------------------------
// Validation helpers.
// ---------------------------------------------------------------------------

struct Ctx<'a> {
    op: &'a OpDesc,
}

impl<'a> Ctx<'a> {
    fn err<T>(&self, msg: impl fmt::Display) -> Result<T> {
        Err(Error::InvalidOp(format!("{}: {msg}", self.op.opcode)))
    }

    fn operands(&self, n: usize) -> Result<()> {
        if self.op.operand_shapes.len() != n {
            return self.err(format!("expected {n} operands, got {}", self.op.operand_shapes.len()));
        }
        Ok(())
    }

    fn operand(&self, i: usize) -> Result<&'a [i64]> {
        match self.op.operand_shapes.get(i) {
            Some(s) => Ok(s),
            None => self.err(format!("missing operand {i}")),
        }
    }

    fn result(&self, i: usize) -> Result<&'a [i64]> {
        match self.op.result_shapes.get(i) {
            Some(s) => Ok(s),
            None => self.err(format!("missing result {i}")),
        }
    }

    fn shapes_valid(&self) -> Result<()> {
        for s in self.op.operand_shapes.iter().chain(&self.op.result_shapes) {
            if s.iter().any(|&d| d < 0) {
                return self.err(format!("negative dimension size in shape {s:?}"));
            }
        }
        Ok(())
    }

    /// Checks `dims` are distinct and below `rank`.
    fn dims(&self, what: &str, dims: &[i64], rank: usize) -> Result<Vec<usize>> {
        let mut out = Vec::with_capacity(dims.len());
        for &d in dims {
            if d < 0 || d as usize >= rank {
                return self.err(format!("{what} {d} out of range for rank {rank}"));
            }
            if out.contains(&(d as usize)) {
                return self.err(format!("{what} {d} repeated"));
            }
            out.push(d as usize);
        }
        Ok(out)
    }

    fn permutation(&self, what: &str, p: &[i64], rank: usize) -> Result<Vec<usize>> {
        if p.len() != rank {
            return self.err(format!("{what} {p:?} must have {rank} entries"));
        }
        self.dims(what, p, rank)
    }
}

fn num_elements(shape: &[i64]) -> Option<i64> {
    shape.iter().try_fold(1i64, |acc, &d| acc.checked_mul(d))
}

/// Row-major strides; `None` on overflow.
fn strides(dims: &[i64]) -> Option<Vec<i64>> {
    let mut s = vec![1i64; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        s[i] = dims[i + 1].checked_mul(s[i + 1])?;
    }
    Some(s)
}

fn linearize(dims: &[i64], exprs: &[Expr]) -> Option<Expr> {
    let st = strides(dims)?;
    Some(exprs.iter().zip(st).fold(Expr::zero(), |acc, (e, s)| acc.add(&e.mul_const(s))))
}

fn delinearize(dims: &[i64], linear: &Expr) -> Option<Vec<Expr>> {
    let mut out = Vec::with_capacity(dims.len());
    let mut rem = linear.clone();
    for s in strides(dims)? {
        out.push(rem.floor_div_const(s));
        rem = rem.modulo_const(s);
    }
    Some(out)
}

/// For a reshape from `input` to `output`, the input index as a function of
/// the output dimensions (XLA's `ComputeReshapeIndexingMap`). Runs of
/// dimensions with equal element counts are handled separately, so the
/// common collapse/expand cases need no division at all.
pub(crate) fn reshape_exprs(input: &[i64], output: &[i64]) -> Option<Vec<Expr>> {
    if num_elements(input)? == 0 {
        return Some(vec![Expr::zero(); input.len()]);
    }
    let mut exprs = Vec::with_capacity(input.len());
    let (mut in_n, mut out_n) = (1i128, 1i128);
    let (mut in_sub, mut out_sub, mut out_exprs): (Vec<i64>, Vec<i64>, Vec<Expr>) = (vec![], vec![], vec![]);
    let (mut i, mut o) = (0, 0);
    while i < input.len() || o < output.len() || !in_sub.is_empty() {
        if i < input.len() && (in_sub.is_empty() || in_n < out_n) {
            in_n *= input[i] as i128;
            in_sub.push(input[i]);
            i += 1;
            continue;
        }
        if o < output.len() && (out_sub.is_empty() || out_n < in_n) {
            out_n *= output[o] as i128;
            out_sub.push(output[o]);
            out_exprs.push(Expr::dim(o));
            o += 1;
            continue;
        }
        // A minimal reshape: unchanged, expand, collapse, or both.
        match (in_sub.len(), out_sub.len()) {
            (1, 1) => exprs.extend(out_exprs.iter().cloned()),
            (1, _) => exprs.push(linearize(&out_sub, &out_exprs)?),
            (_, 1) => exprs.extend(delinearize(&in_sub, &out_exprs[0])?),
            _ => exprs.extend(delinearize(&in_sub, &linearize(&out_sub, &out_exprs)?)?),
        }
        in_n = 1;
        out_n = 1;
        in_sub.clear();
        out_sub.clear();
        out_exprs.clear();
    }
    Some(exprs)
}

fn reshape_map(ctx: &Ctx, from: &[i64], to: &[i64]) -> Result<IndexingMap> {
    if num_elements(from) != num_elements(to) {
        return ctx.err(format!("shapes {from:?} and {to:?} have different element counts"));
    }
    let Some(exprs) = reshape_exprs(to, from) else {
        return ctx.err("shape too large");
    };
    let mut map = IndexingMap::from_vars(exprs, from.iter().map(|&s| Variable::from_size(s)).collect(), Vec::new());
    map.simplify_with(SimplifyPointDimensions::Preserve);
    Ok(map)
}

/// The physical (major-to-minor) order of the logical dimensions.
fn physical_order(ctx: &Ctx, layout: &Option<Vec<i64>>, rank: usize) -> Result<Vec<usize>> {
    match layout {
        None => Ok((0..rank).collect()),
        Some(m2m) => {
            let mut order = ctx.permutation("layout", m2m, rank)?;
            order.reverse();
            Ok(order)
        }
    }
}

/// Map from `from`'s logical index to the logical index of `to` that shares
/// its physical position (a bitcast is a transpose, a reshape of the
/// physical shapes, and a transpose).
fn bitcast_map(
    ctx: &Ctx,
    from: &[i64],
    from_layout: &Option<Vec<i64>>,
    to: &[i64],
    to_layout: &Option<Vec<i64>>,
) -> Result<IndexingMap> {
    if num_elements(from) != num_elements(to) {
        return ctx.err(format!("shapes {from:?} and {to:?} have different element counts"));
    }
    let from_order = physical_order(ctx, from_layout, from.len())?;
    let to_order = physical_order(ctx, to_layout, to.len())?;
    let from_phys: Vec<i64> = from_order.iter().map(|&d| from[d]).collect();
    let to_phys: Vec<i64> = to_order.iter().map(|&d| to[d]).collect();
    let Some(phys) = reshape_exprs(&to_phys, &from_phys) else {
        return ctx.err("shape too large");
    };
    // Physical position p of `from` holds logical dimension from_order[p].
    let phys: Vec<Expr> = phys
        .iter()
        .map(|e| e.replace_dims_and_symbols(&from_order.iter().map(|&d| Expr::dim(d)).collect::<Vec<_>>(), &[]))
        .collect();
    let mut results = vec![Expr::zero(); to.len()];
    for (p, &d) in to_order.iter().enumerate() {
        results[d] = phys[p].clone();
    }
    let mut map = IndexingMap::from_vars(results, from.iter().map(|&s| Variable::from_size(s)).collect(), Vec::new());
    map.simplify_with(SimplifyPointDimensions::Preserve);
    Ok(map)
}

fn dims_vars(shape: &[i64]) -> Vec<Variable> {
    shape.iter().map(|&s| Variable::from_size(s)).collect()
}

/// `()[s0, ..] -> (s0, ..)`: every element of `shape`, from a 0-d source.
fn generator_map(shape: &[i64]) -> IndexingMap {
    IndexingMap::from_vars((0..shape.len()).map(Expr::sym).collect(), Vec::new(), dims_vars(shape))
}

fn pad_map(out: &[i64], padding: &[PadDim]) -> IndexingMap {
    let mut exprs = Vec::with_capacity(out.len());
    let mut dims = Vec::with_capacity(out.len());
    let mut constraints = Vec::new();
    for (i, (&size, p)) in out.iter().zip(padding).enumerate() {
        let d = Expr::dim(i);
        dims.push(Variable::new(p.low.max(0), (size - 1).min(size - 1 - p.high)));
        if p.interior == 0 {
            exprs.push(d.sub_const(p.low));
        } else {
            exprs.push(d.sub_const(p.low).floor_div_const(p.interior + 1));
            constraints.push((d.sub_const(p.low).modulo_const(p.interior + 1), Interval::point(0)));
        }
    }
    IndexingMap::from_parts(exprs, dims, Vec::new(), Vec::new(), constraints)
}

fn padded_size(size: i64, p: &PadDim) -> i64 {
    size + p.low + p.high + (size - 1).max(0) * p.interior
}

// ---------------------------------------------------------------------------
// Output to input.
// ---------------------------------------------------------------------------

/// The indexing from result `output_id` of `op` to each of its operands.
pub fn output_to_input_indexing(op: &OpDesc, output_id: usize) -> Result<OpIndexing> {
    let ctx = Ctx { op };
    ctx.shapes_valid()?;
    let opcode = op.opcode.as_str();
    let n = op.operand_shapes.len();
    let out = ctx.result(output_id)?;
    if output_id > 0 && !matches!(opcode, "reduce" | "reduce-window") {
        return ctx.err(format!("has no result {output_id}"));
    }
    if is_elementwise(opcode) {
        let mut maps = Vec::with_capacity(n);
        for (i, s) in op.operand_shapes.iter().enumerate() {
            if s.is_empty() && !out.is_empty() {
                // Scalar operands of select/clamp broadcast implicitly.
                maps.push(IndexingMap::scalar(out));
            } else if s.as_slice() == out {
                maps.push(IndexingMap::identity(out));
            } else {
                return ctx.err(format!("operand {i} has shape {s:?}, the result {out:?}"));
            }
        }
        return Ok(OpIndexing::from_maps(maps));
    }
    let maps = match opcode {
        "parameter" | "constant" | "iota" => {
            ctx.operands(0)?;
            Vec::new()
        }
        "broadcast" => {
            ctx.operands(1)?;
            let input = ctx.operand(0)?;
            let bd = &op.attrs.broadcast_dimensions;
            if bd.len() != input.len() {
                return ctx.err(format!("broadcast_dimensions {bd:?} must have {} entries", input.len()));
            }
            let dims = ctx.dims("broadcast dimension", bd, out.len())?;
            for (i, &d) in dims.iter().enumerate() {
                if input[i] != out[d] {
                    return ctx.err(format!(
                        "operand dimension {i} ({}) differs from result dimension {d} ({})",
                        input[i], out[d]
                    ));
                }
            }
            vec![IndexingMap::from_vars(dims.iter().map(|&d| Expr::dim(d)).collect(), dims_vars(out), Vec::new())]
        }
        "reshape" => {
            ctx.operands(1)?;
            vec![reshape_map(&ctx, out, ctx.operand(0)?)?]
        }
        "bitcast" => {
            ctx.operands(1)?;
            vec![bitcast_map(&ctx, out, &op.attrs.result_layout, ctx.operand(0)?, &op.attrs.operand_layout)?]
        }
        "transpose" => {
            ctx.operands(1)?;
            let input = ctx.operand(0)?;
            let perm = ctx.permutation("permutation", &op.attrs.permutation, input.len())?;
            if perm.iter().enumerate().any(|(i, &p)| out.get(i) != Some(&input[p])) {
                return ctx.err(format!("result shape {out:?} is not {input:?} permuted by {perm:?}"));
            }
            let mut exprs = vec![Expr::zero(); input.len()];
            for (i, &p) in perm.iter().enumerate() {
                exprs[p] = Expr::dim(i);
            }
            vec![IndexingMap::from_vars(exprs, dims_vars(out), Vec::new())]
        }
        "reverse" => {
            ctx.operands(1)?;
            if ctx.operand(0)? != out {
                return ctx.err("operand and result shapes differ");
            }
            vec![reverse_map(&ctx, out)?]
        }
        "slice" => {
            ctx.operands(1)?;
            let input = ctx.operand(0)?;
            let (starts, strides) = slice_params(&ctx, input, out)?;
            let exprs = (0..out.len()).map(|i| Expr::dim(i).mul_const(strides[i]).add_const(starts[i])).collect();
            vec![IndexingMap::from_vars(exprs, dims_vars(out), Vec::new())]
        }
        "pad" => {
            ctx.operands(2)?;
            let input = ctx.operand(0)?;
            let padding = pad_params(&ctx, input, out)?;
            vec![pad_map(out, padding), IndexingMap::scalar(out)]
        }
        "concatenate" => {
            let Some(cd) = op.attrs.concat_dimension else {
                return ctx.err("missing concat_dimension");
            };
            let cd = ctx.dims("concat dimension", &[cd], out.len())?[0];
            let sizes = concat_sizes(&ctx, cd, out)?;
            let mut maps = Vec::with_capacity(n);
            let mut offset = 0;
            for size in sizes {
                let exprs = (0..out.len())
                    .map(|i| if i == cd { Expr::dim(i).sub_const(offset) } else { Expr::dim(i) })
                    .collect();
                let mut dims = dims_vars(out);
                dims[cd] = Variable::new(offset, offset + size - 1);
                maps.push(IndexingMap::from_vars(exprs, dims, Vec::new()));
                offset += size;
            }
            maps
        }
        "reduce" => {
            let (inputs, input) = reduce_params(&ctx)?;
            let reduced = ctx.dims("reduce dimension", &op.attrs.reduce_dimensions, input.len())?;
            let mut exprs = Vec::with_capacity(input.len());
            let mut syms = Vec::new();
            let mut next_out = 0;
            for (i, &size) in input.iter().enumerate() {
                if reduced.contains(&i) {
                    exprs.push(Expr::sym(syms.len()));
                    syms.push(Variable::from_size(size));
                } else {
                    if out.get(next_out) != Some(&size) {
                        return ctx
                            .err(format!("result shape {out:?} does not match operand {input:?} without {reduced:?}"));
                    }
                    exprs.push(Expr::dim(next_out));
                    next_out += 1;
                }
            }
            if next_out != out.len() {
                return ctx.err(format!("result shape {out:?} does not match operand {input:?} without {reduced:?}"));
            }
            let input_map = IndexingMap::from_vars(exprs, dims_vars(out), syms);
            let mut maps = vec![input_map; inputs];
            maps.extend(std::iter::repeat_n(IndexingMap::scalar(out), inputs));
            maps
        }
        "reduce-window" => {
            let (inputs, input) = reduce_params(&ctx)?;
            let map = reduce_window_map(&ctx, input, out)?;
            let mut maps = vec![map; inputs];
            maps.extend(std::iter::repeat_n(IndexingMap::scalar(out), inputs));
            maps
        }
        "dot" => {
            ctx.operands(2)?;
            let (lhs, rhs) = dot_maps(&ctx, out)?;
            vec![lhs, rhs]
        }
        "gather" => return gather_indexing(&ctx, out),
        "dynamic-slice" => return dynamic_slice_indexing(&ctx, out),
        "dynamic-update-slice" => return dynamic_update_slice_indexing(&ctx, out),
        _ => return Ok(OpIndexing::undefined(n)),
    };
    Ok(OpIndexing::from_maps(maps))
}

fn reverse_map(ctx: &Ctx, shape: &[i64]) -> Result<IndexingMap> {
    let rev = ctx.dims("reverse dimension", &ctx.op.attrs.reverse_dimensions, shape.len())?;
    let exprs = (0..shape.len())
        .map(|i| if rev.contains(&i) { Expr::dim(i).neg().add_const(shape[i] - 1) } else { Expr::dim(i) })
        .collect();
    Ok(IndexingMap::from_vars(exprs, dims_vars(shape), Vec::new()))
}

fn slice_params<'a>(ctx: &Ctx<'a>, input: &[i64], out: &[i64]) -> Result<(&'a [i64], &'a [i64])> {
    let a = &ctx.op.attrs;
    let rank = input.len();
    if a.slice_starts.len() != rank || a.slice_strides.len() != rank || out.len() != rank {
        return ctx.err(format!("slice_starts/slice_strides/result need {rank} entries"));
    }
    for i in 0..rank {
        let (start, stride) = (a.slice_starts[i], a.slice_strides[i]);
        if stride <= 0 || start < 0 {
            return ctx.err(format!("dimension {i}: start {start} and stride {stride} must be >= 0 and > 0"));
        }
        if out[i] > 0
            && (out[i] - 1).checked_mul(stride).and_then(|v| v.checked_add(start)).is_none_or(|last| last >= input[i])
        {
            return ctx
                .err(format!("dimension {i}: {} elements from {start} by {stride} exceed size {}", out[i], input[i]));
        }
    }
    Ok((&a.slice_starts, &a.slice_strides))
}

fn pad_params<'a>(ctx: &Ctx<'a>, input: &[i64], out: &[i64]) -> Result<&'a [PadDim]> {
    let padding = &ctx.op.attrs.padding;
    if padding.len() != input.len() || out.len() != input.len() {
        return ctx.err(format!("padding must have {} entries", input.len()));
    }
    if !ctx.operand(1)?.is_empty() {
        return ctx.err("the padding value must be a scalar");
    }
    for (i, p) in padding.iter().enumerate() {
        if p.interior < 0 {
            return ctx.err(format!("dimension {i}: negative interior padding"));
        }
        if padded_size(input[i], p) != out[i] {
            return ctx.err(format!(
                "dimension {i}: padding {p:?} of {} gives {}, not {}",
                input[i],
                padded_size(input[i], p),
                out[i]
            ));
        }
    }
    Ok(padding)
}

fn concat_sizes(ctx: &Ctx, cd: usize, out: &[i64]) -> Result<Vec<i64>> {
    let mut sizes = Vec::new();
    let mut total = 0i64;
    for (i, s) in ctx.op.operand_shapes.iter().enumerate() {
        if s.len() != out.len() || s.iter().zip(out).enumerate().any(|(d, (a, b))| d != cd && a != b) {
            return ctx.err(format!("operand {i} shape {s:?} does not fit result {out:?}"));
        }
        sizes.push(s[cd]);
        total += s[cd];
    }
    if sizes.is_empty() || total != out[cd] {
        return ctx.err(format!("operand sizes {sizes:?} along dimension {cd} do not add up to {}", out[cd]));
    }
    Ok(sizes)
}

/// Checks a variadic reduce / reduce-window: `n` inputs then `n` scalar
/// inits, `n` results of one shape. Returns `n` and the input shape.
fn reduce_params<'a>(ctx: &Ctx<'a>) -> Result<(usize, &'a [i64])> {
    let op = ctx.op;
    let total = op.operand_shapes.len();
    if total == 0 || !total.is_multiple_of(2) {
        return ctx.err(format!("expected inputs followed by as many init values, got {total} operands"));
    }
    let inputs = total / 2;
    let input = ctx.operand(0)?;
    for i in 0..inputs {
        if ctx.operand(i)? != input {
            return ctx.err("all inputs must have the same shape");
        }
        if !ctx.operand(inputs + i)?.is_empty() {
            return ctx.err("init values must be scalars");
        }
    }
    if op.result_shapes.len() != inputs || op.result_shapes.iter().any(|r| r != &op.result_shapes[0]) {
        return ctx.err(format!("expected {inputs} results of one shape"));
    }
    Ok((inputs, input))
}

/// Window indexing: a window over the padded, base-dilated input, composed
/// with the pad map that removes padding and dilation holes (XLA's
/// `ComposeWindowIndexingMap`).
fn reduce_window_map(ctx: &Ctx, input: &[i64], out: &[i64]) -> Result<IndexingMap> {
    let window = &ctx.op.attrs.window;
    let rank = input.len();
    if window.len() != rank || out.len() != rank {
        return ctx.err(format!("window must have {rank} dimensions"));
    }
    let mut padding = Vec::with_capacity(rank);
    let mut padded = Vec::with_capacity(rank);
    let mut exprs = Vec::with_capacity(rank);
    let mut range_vars = Vec::with_capacity(rank);
    for (i, w) in window.iter().enumerate() {
        if w.size < 1 || w.stride < 1 || w.window_dilation < 1 || w.base_dilation < 1 {
            return ctx.err(format!("window dimension {i}: size, stride and dilations must be positive"));
        }
        let p = PadDim { low: w.padding_low, high: w.padding_high, interior: w.base_dilation - 1 };
        let padded_size = padded_size(input[i], &p);
        let needed = (out[i] - 1).max(0) * w.stride + (w.size - 1) * w.window_dilation + 1;
        if out[i] > 0 && needed > padded_size {
            return ctx
                .err(format!("window dimension {i}: {} windows do not fit the padded size {padded_size}", out[i]));
        }
        padding.push(p);
        padded.push(padded_size);
        exprs.push(Expr::sym(i).mul_const(w.window_dilation).add(&Expr::dim(i).mul_const(w.stride)));
        range_vars.push(Variable::from_size(w.size));
    }
    let no_padding = IndexingMap::from_vars(exprs, dims_vars(out), range_vars);
    let mut map = compose(&no_padding, &pad_map(&padded, &padding))?;
    map.simplify();
    map.remove_unused_symbols();
    Ok(map)
}

fn dot_maps(ctx: &Ctx, out: &[i64]) -> Result<(IndexingMap, IndexingMap)> {
    let Some(dn) = &ctx.op.attrs.dot else {
        return ctx.err("missing dot dimension numbers");
    };
    let (lhs, rhs) = (ctx.operand(0)?, ctx.operand(1)?);
    let lb = ctx.dims("lhs batch dimension", &dn.lhs_batch, lhs.len())?;
    let rb = ctx.dims("rhs batch dimension", &dn.rhs_batch, rhs.len())?;
    let lc = ctx.dims("lhs contracting dimension", &dn.lhs_contracting, lhs.len())?;
    let rc = ctx.dims("rhs contracting dimension", &dn.rhs_contracting, rhs.len())?;
    if lb.len() != rb.len() || lc.len() != rc.len() {
        return ctx.err("lhs and rhs need as many batch and contracting dimensions");
    }
    if lb.iter().any(|d| lc.contains(d)) || rb.iter().any(|d| rc.contains(d)) {
        return ctx.err("a dimension cannot be both batch and contracting");
    }
    let mut lhs_exprs = vec![Expr::zero(); lhs.len()];
    let mut rhs_exprs = vec![Expr::zero(); rhs.len()];
    let mut out_dims = Vec::new();
    for (&l, &r) in lb.iter().zip(&rb) {
        if lhs[l] != rhs[r] {
            return ctx.err(format!("batch dimensions {l} and {r} differ in size"));
        }
        lhs_exprs[l] = Expr::dim(out_dims.len());
        rhs_exprs[r] = Expr::dim(out_dims.len());
        out_dims.push(lhs[l]);
    }
    for i in 0..lhs.len() {
        if !lb.contains(&i) && !lc.contains(&i) {
            lhs_exprs[i] = Expr::dim(out_dims.len());
            out_dims.push(lhs[i]);
        }
    }
    for i in 0..rhs.len() {
        if !rb.contains(&i) && !rc.contains(&i) {
            rhs_exprs[i] = Expr::dim(out_dims.len());
            out_dims.push(rhs[i]);
        }
    }
    if out_dims != out {
        return ctx.err(format!("result shape {out:?} should be {out_dims:?}"));
    }
    let mut syms = Vec::new();
    for (&l, &r) in lc.iter().zip(&rc) {
        if lhs[l] != rhs[r] {
            return ctx.err(format!("contracting dimensions {l} and {r} differ in size"));
        }
        lhs_exprs[l] = Expr::sym(syms.len());
        rhs_exprs[r] = Expr::sym(syms.len());
        syms.push(Variable::from_size(lhs[l]));
    }
    Ok((
        IndexingMap::from_vars(lhs_exprs, dims_vars(out), syms.clone()),
        IndexingMap::from_vars(rhs_exprs, dims_vars(out), syms),
    ))
}

/// Builds an operand indexing whose runtime variables are the given
/// `(bounds, operand, map)` triples, then drops unused symbols.
fn with_rt_vars(results: Vec<Expr>, out: &[i64], rts: Vec<(Interval, usize, IndexingMap)>) -> OperandIndexing {
    let rt_vars = rts.iter().map(|(b, _, _)| Variable::from_interval(*b)).collect();
    let map = IndexingMap::from_parts(results, dims_vars(out), Vec::new(), rt_vars, Vec::new());
    let mut oi = OperandIndexing {
        map,
        rt_vars: rts.into_iter().map(|(_, operand, map)| RuntimeVarIndexing { operand, map }).collect(),
    };
    oi.remove_unused_symbols();
    oi
}

/// Only canonical gathers (as produced by XLA's gather simplifier): indices
/// `[batch, index_vector]`, `index_vector_dim == 1`, no collapsed or batching
/// dimensions, `offset_dims == [1, ..., rank]`, increasing `start_index_map`.
fn gather_indexing(ctx: &Ctx, out: &[i64]) -> Result<OpIndexing> {
    ctx.operands(2)?;
    let Some(g) = &ctx.op.attrs.gather else {
        return ctx.err("missing gather dimension numbers");
    };
    let (operand, indices) = (ctx.operand(0)?, ctx.operand(1)?);
    let rank = operand.len();
    let canonical = indices.len() == 2
        && g.index_vector_dim == 1
        && g.collapsed_slice_dims.is_empty()
        && g.operand_batching_dims.is_empty()
        && g.start_indices_batching_dims.is_empty()
        && g.offset_dims.iter().copied().eq(1..=rank as i64)
        && g.start_index_map.windows(2).all(|w| w[0] < w[1])
        && g.start_index_map.len() as i64 == indices[1];
    if !canonical {
        return Err(Error::Unsupported(format!(
            "gather: only canonical gathers (see XLA's gather_simplifier) are supported, got {g:?} with indices {indices:?}"
        )));
    }
    let sim = ctx.dims("start_index_map entry", &g.start_index_map, rank)?;
    if g.slice_sizes.len() != rank || g.slice_sizes.iter().zip(operand).any(|(s, d)| *s < 0 || s > d) {
        return ctx.err(format!("slice_sizes {:?} do not fit operand {operand:?}", g.slice_sizes));
    }
    let expected: Vec<i64> = std::iter::once(indices[0]).chain(g.slice_sizes.iter().copied()).collect();
    if out != expected {
        return ctx.err(format!("result shape {out:?} should be {expected:?}"));
    }
    let indices_map =
        IndexingMap::from_vars(vec![Expr::dim(0), Expr::sym(0)], dims_vars(out), vec![Variable::from_size(indices[1])]);
    let mut exprs = Vec::with_capacity(rank);
    let mut rts = Vec::new();
    for (d, &slice) in g.slice_sizes.iter().enumerate() {
        let mut e = Expr::dim(d + 1);
        if let Some(k) = sim.iter().position(|&x| x == d) {
            // The start index of operand dimension d is indices[d0, k].
            let rt_map =
                IndexingMap::from_vars(vec![Expr::dim(0), Expr::constant(k as i64)], dims_vars(out), Vec::new());
            e = e.add(&Expr::sym(rts.len()));
            rts.push((Interval::new(0, operand[d] - slice), 1, rt_map));
        }
        exprs.push(e);
    }
    Ok(OpIndexing { indexing_maps: vec![vec![with_rt_vars(exprs, out, rts)], vec![OperandIndexing::new(indices_map)]] })
}

fn dynamic_slice_indexing(ctx: &Ctx, out: &[i64]) -> Result<OpIndexing> {
    let input = ctx.operand(0)?;
    let rank = input.len();
    ctx.operands(1 + rank)?;
    let sizes = &ctx.op.attrs.dynamic_slice_sizes;
    if sizes.as_slice() != out || sizes.iter().zip(input).any(|(s, d)| s > d) {
        return ctx.err(format!("dynamic_slice_sizes {sizes:?} must equal the result shape {out:?} and fit {input:?}"));
    }
    for i in 1..=rank {
        if !ctx.operand(i)?.is_empty() {
            return ctx.err("offsets must be scalars");
        }
    }
    let mut exprs = Vec::with_capacity(rank);
    let mut rts = Vec::with_capacity(rank);
    for d in 0..rank {
        exprs.push(Expr::dim(d).add(&Expr::sym(d)));
        // Offsets are clamped so that the slice stays in bounds.
        rts.push((Interval::new(0, input[d] - sizes[d]), 1 + d, IndexingMap::scalar(out)));
    }
    let mut maps = vec![vec![with_rt_vars(exprs, out, rts)]];
    maps.extend((0..rank).map(|_| vec![OperandIndexing::new(IndexingMap::scalar(out))]));
    Ok(OpIndexing { indexing_maps: maps })
}

fn dynamic_update_slice_indexing(ctx: &Ctx, out: &[i64]) -> Result<OpIndexing> {
    let input = ctx.operand(0)?;
    let rank = input.len();
    ctx.operands(2 + rank)?;
    let update = ctx.operand(1)?;
    if input != out || update.len() != rank || update.iter().zip(out).any(|(u, o)| u > o) {
        return ctx.err(format!("operand {input:?}, update {update:?} and result {out:?} do not fit"));
    }
    for i in 2..2 + rank {
        if !ctx.operand(i)?.is_empty() {
            return ctx.err("offsets must be scalars");
        }
    }
    let mut exprs = Vec::with_capacity(rank);
    let mut rts = Vec::with_capacity(rank);
    for d in 0..rank {
        exprs.push(Expr::dim(d).sub(&Expr::sym(d)));
        rts.push((Interval::new(0, out[d] - update[d]), 2 + d, IndexingMap::scalar(out)));
    }
    let mut maps = vec![vec![OperandIndexing::new(IndexingMap::identity(out))], vec![with_rt_vars(exprs, out, rts)]];
    maps.extend((0..rank).map(|_| vec![OperandIndexing::new(IndexingMap::scalar(out))]));
    Ok(OpIndexing { indexing_maps: maps })
}

// ---------------------------------------------------------------------------
// Input to output.
// ---------------------------------------------------------------------------

/// The indexing from operand `input_id` of `op` to each of its results.
pub fn input_to_output_indexing(op: &OpDesc, input_id: usize) -> Result<OpIndexing> {
    let ctx = Ctx { op };
    ctx.shapes_valid()?;
    let opcode = op.opcode.as_str();
    let results = op.result_shapes.len();
    if matches!(opcode, "iota" | "constant") {
        // No operands: the 0-d "generator" that produces every element.
        if input_id != 0 {
            return ctx.err(format!("has no input {input_id}"));
        }
        return Ok(OpIndexing::from_maps(vec![generator_map(ctx.result(0)?)]));
    }
    let input = ctx.operand(input_id)?;
    let out = ctx.result(0)?;
    if is_elementwise(opcode) {
        let map = if input.is_empty() && !out.is_empty() {
            generator_map(out)
        } else if input == out {
            IndexingMap::identity(out)
        } else {
            return ctx.err(format!("operand {input_id} has shape {input:?}, the result {out:?}"));
        };
        return Ok(OpIndexing::from_maps(vec![map]));
    }
    let map = match opcode {
        "broadcast" => {
            ctx.operands(1)?;
            let dims = ctx.dims("broadcast dimension", &op.attrs.broadcast_dimensions, out.len())?;
            if dims.len() != input.len() {
                return ctx.err("broadcast_dimensions must have one entry per operand dimension");
            }
            let mut exprs = Vec::with_capacity(out.len());
            let mut syms = Vec::new();
            for (j, &size) in out.iter().enumerate() {
                match dims.iter().position(|&d| d == j) {
                    Some(i) => exprs.push(Expr::dim(i)),
                    None => {
                        exprs.push(Expr::sym(syms.len()));
                        syms.push(Variable::from_size(size));
                    }
                }
            }
            IndexingMap::from_vars(exprs, dims_vars(input), syms)
        }
        "reshape" => reshape_map(&ctx, input, out)?,
        "bitcast" => bitcast_map(&ctx, input, &op.attrs.operand_layout, out, &op.attrs.result_layout)?,
        "transpose" => {
            let perm = ctx.permutation("permutation", &op.attrs.permutation, input.len())?;
            if perm.iter().enumerate().any(|(i, &p)| out.get(i) != Some(&input[p])) {
                return ctx.err(format!("result shape {out:?} is not {input:?} permuted by {perm:?}"));
            }
            IndexingMap::from_vars(perm.iter().map(|&p| Expr::dim(p)).collect(), dims_vars(input), Vec::new())
        }
        "reverse" => reverse_map(&ctx, input)?,
        "slice" => {
            let (starts, strides) = slice_params(&ctx, input, out)?;
            let exprs = (0..out.len()).map(|i| Expr::dim(i).sub_const(starts[i]).floor_div_const(strides[i])).collect();
            let mut map = IndexingMap::from_vars(exprs, dims_vars(input), Vec::new());
            for i in 0..out.len() {
                let d = Expr::dim(i);
                let last = (out[i] - 1) * strides[i] + starts[i];
                map.add_constraint_unchecked(d.clone(), Interval::new(starts[i], last));
                map.add_constraint_unchecked(d.sub_const(starts[i]).modulo_const(strides[i]), Interval::point(0));
            }
            map
        }
        "pad" => {
            let padding = pad_params(&ctx, ctx.operand(0)?, out)?;
            if input_id == 1 {
                generator_map(out)
            } else {
                // Element i lands at low + i * (interior + 1), if that is not
                // cut off by negative padding.
                let exprs: Vec<Expr> = padding
                    .iter()
                    .enumerate()
                    .map(|(i, p)| Expr::dim(i).mul_const(p.interior + 1).add_const(p.low))
                    .collect();
                let constraints = exprs.iter().zip(out).map(|(e, &o)| (e.clone(), Interval::new(0, o - 1))).collect();
                let mut map = IndexingMap::from_parts(exprs, dims_vars(input), Vec::new(), Vec::new(), constraints);
                map.simplify_with(SimplifyPointDimensions::Preserve);
                map
            }
        }
        "concatenate" => {
            let Some(cd) = op.attrs.concat_dimension else {
                return ctx.err("missing concat_dimension");
            };
            let cd = ctx.dims("concat dimension", &[cd], out.len())?[0];
            let sizes = concat_sizes(&ctx, cd, out)?;
            let offset: i64 = sizes[..input_id].iter().sum();
            let exprs =
                (0..input.len()).map(|i| if i == cd { Expr::dim(i).add_const(offset) } else { Expr::dim(i) }).collect();
            IndexingMap::from_vars(exprs, dims_vars(input), Vec::new())
        }
        "reduce" => {
            let (inputs, shape) = reduce_params(&ctx)?;
            let map = if input_id >= inputs {
                generator_map(out)
            } else {
                let reduced = ctx.dims("reduce dimension", &op.attrs.reduce_dimensions, shape.len())?;
                let exprs = (0..shape.len()).filter(|i| !reduced.contains(i)).map(Expr::dim).collect();
                IndexingMap::from_vars(exprs, dims_vars(shape), Vec::new())
            };
            return Ok(OpIndexing::from_maps(vec![map; results]));
        }
        "dot" => {
            ctx.operands(2)?;
            let (lhs, rhs) = dot_maps(&ctx, out)?;
            invert_dot(if input_id == 0 { &lhs } else { &rhs }, input, out)?
        }
        _ => return Ok(OpIndexing::undefined(results)),
    };
    Ok(OpIndexing::from_maps(vec![map]))
}

/// Inverts a dot operand map `(d..)[s..] -> (operand index)`: the operand's
/// dimensions become the domain, the output dimensions the operand does not
/// determine (the other side's free dimensions) become range variables.
fn invert_dot(operand_map: &IndexingMap, input: &[i64], out: &[i64]) -> Result<IndexingMap> {
    let mut exprs: Vec<Option<Expr>> = vec![None; out.len()];
    for (i, e) in operand_map.results().iter().enumerate() {
        if let crate::expr::ExprKind::Dim(d) = e.kind() {
            exprs[*d] = Some(Expr::dim(i));
        }
    }
    let mut syms = Vec::new();
    let exprs = exprs
        .into_iter()
        .enumerate()
        .map(|(d, e)| {
            e.unwrap_or_else(|| {
                syms.push(Variable::from_size(out[d]));
                Expr::sym(syms.len() - 1)
            })
        })
        .collect();
    Ok(IndexingMap::from_vars(exprs, dims_vars(input), syms))
}
