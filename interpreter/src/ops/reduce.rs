//! Reductions and ops that call computations on elements: `reduce`,
//! `reduce-window`, `select-and-scatter`, `map`, `sort`, `topk` (and the
//! combiner machinery `scatter` in movement.rs uses).
//!
//! Called computations (`to_apply`, `select`, `scatter`, comparators) run
//! in one of three ways, fastest first:
//! 1. **typed fast paths**, when the computation is a single binary
//!    add/multiply/maximum/minimum/and/or of its two parameters (either
//!    order), or returns a parameter, or (sort, select-and-scatter) is a
//!    single `compare`: plain loops over the typed slices ([`Arith`]);
//! 2. **vectorized**: a computation made only of elementwise ops on
//!    scalars (plus constants, tuples, get-tuple-element) is rewritten to
//!    the same ops on arrays and evaluated once per step over all the
//!    independent positions (all outputs of a reduce for one reduced
//!    index, all windows for one window position, every element of a map,
//!    every sort key), so its semantics are exactly the elementwise ops';
//! 3. **per element** through [`Interpreter::call`] on rank-0 literals.
//!
//! Order of application (what XLA's evaluator does; XLA:CPU agrees within
//! the corpus tolerances): `reduce` folds `acc = f(acc, x)` from the init
//! value over the reduced indices in row-major order, separately for each
//! output; `reduce-window` does the same over the window positions in
//! row-major order; `scatter`/`select-and-scatter` combine
//! `f(current, update)` sequentially.
//!
//! Edge-case decisions:
//! - Fast-path arithmetic ([`Arith`]): integers wrap (two's complement);
//!   pred add/max/or = or, multiply/min/and = and; f16/bf16 compute in f32
//!   and round to nearest even after every step; f32/f64 (and bf16 through
//!   f32) add/multiply flush subnormal inputs and results to zero like the
//!   elementwise ops (XLA:CPU's FTZ/DAZ); maximum/minimum are the
//!   elementwise ops' (`elementwise::fmax32` ...: NaN propagates, -0 < +0);
//!   complex has add and multiply only; narrow types (`Bits`) never take
//!   the fast path. The fast path therefore computes exactly what the same
//!   combiner computes through the elementwise ops (tests check this).
//! - `reduce-window` and `select-and-scatter`: window positions that fall
//!   in padding or in base-dilation holes are skipped (as XLA:CPU does),
//!   which equals padding with the init value when it is the identity; a
//!   window with no valid position yields the init value.
//! - `select-and-scatter`: the first valid element of a window is the
//!   initial selection; each later one replaces it when
//!   `select(selected, candidate)` is false; the source value is scattered
//!   onto the selected element with `scatter(current, source)`, source
//!   positions in row-major order; windows with no valid element scatter
//!   nothing.
//! - `sort`: always stable (valid whether or not `is_stable` is set). A
//!   comparator `compare(g(lhs...), g(rhs...))` whose two sides are the same
//!   expression over the lhs and rhs parameters (JAX's NaN/-0
//!   canonicalising comparators, plain `compare(p0, p1)`) sorts by the key
//!   `g` computed once per element; `TOTALORDER` orders
//!   `-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN` by the bits (NaN
//!   payloads ordered too); the default float comparison is IEEE with
//!   subnormals read as zero, like the elementwise FLOAT compare (the same
//!   holds for select-and-scatter's fast `compare` select) (NaN compares
//!   false; such inputs sort with a plain
//!   stable merge sort, whose result is then implementation-defined, as in
//!   XLA). JAX's lexicographic comparators over several keys
//!   (`or(lt(k0), and(eq(k0), ...))`) sort by the key tuple when every key
//!   is an integer or a TOTALORDER float. Other comparators are called per
//!   comparison.
//! - `topk`: along the last dimension, the k largest (or smallest with
//!   `largest=false`) by total order (floats as above, so NaN is largest),
//!   ties keep the lower index first; indices are s32.
//! - `map`: `to_apply` applied elementwise; `dimensions` must list all
//!   dimensions.

use super::elementwise::{fmax32, fmax64, fmin32, fmin64, ftz32, ftz64};
use super::movement::{
    array_shape, check_box, check_dim, check_result, dims_attr, finish_variadic, for_each_run, operand, splat,
};
use crate::{
    bail,
    error::{EvalError, Result},
    eval::{attr, attr_error, require, Interpreter},
    literal::{element_count, for_each_index, strides, Data, Literal},
};
use half::{bf16, f16};
use num_complex::{Complex32, Complex64};
use rxla_hlo_text::{
    ast::{AttrValue, Computation, Dim, Instruction, Operand, Pos, Shape},
    attrs::{self, WindowDim},
};
use std::collections::HashMap;

pub fn evaluate(interpreter: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Option<Result<Literal>> {
    type Op = fn(&Interpreter, &Instruction, &[&Literal]) -> Result<Literal>;
    let f: Op = match inst.opcode.as_str() {
        "reduce" => reduce,
        "reduce-window" => reduce_window,
        "select-and-scatter" => select_and_scatter,
        "map" => map,
        "sort" => sort,
        "topk" => topk,
        "scan" => scan,
        _ => return None,
    };
    Some(f(interpreter, inst, operands))
}

// ---------------------------------------------------------------------------
// Typed binary combiners.

/// The binary ops of the fast paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinOp {
    Add,
    Mul,
    Max,
    Min,
    And,
    Or,
}

impl BinOp {
    fn from_opcode(opcode: &str) -> Option<BinOp> {
        Some(match opcode {
            "add" => BinOp::Add,
            "multiply" => BinOp::Mul,
            "maximum" => BinOp::Max,
            "minimum" => BinOp::Min,
            "and" => BinOp::And,
            "or" => BinOp::Or,
            _ => return None,
        })
    }
}

/// Element arithmetic of the fast paths (semantics in the module doc).
pub(crate) trait Arith: Copy {
    fn supports(op: BinOp) -> bool;
    fn add_(self, o: Self) -> Self;
    fn mul_(self, o: Self) -> Self;
    fn max_(self, o: Self) -> Self;
    fn min_(self, o: Self) -> Self;
    fn and_(self, o: Self) -> Self;
    fn or_(self, o: Self) -> Self;
}

macro_rules! int_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            fn supports(_: BinOp) -> bool { true }
            #[inline(always)] fn add_(self, o: Self) -> Self { self.wrapping_add(o) }
            #[inline(always)] fn mul_(self, o: Self) -> Self { self.wrapping_mul(o) }
            #[inline(always)] fn max_(self, o: Self) -> Self { Ord::max(self, o) }
            #[inline(always)] fn min_(self, o: Self) -> Self { Ord::min(self, o) }
            #[inline(always)] fn and_(self, o: Self) -> Self { self & o }
            #[inline(always)] fn or_(self, o: Self) -> Self { self | o }
        }
    )*};
}
int_arith!(i8, i16, i32, i64, u8, u16, u32, u64);

impl Arith for bool {
    fn supports(_: BinOp) -> bool {
        true
    }
    #[inline(always)]
    fn add_(self, o: Self) -> Self {
        self | o
    }
    #[inline(always)]
    fn mul_(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    fn max_(self, o: Self) -> Self {
        self | o
    }
    #[inline(always)]
    fn min_(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    fn and_(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    fn or_(self, o: Self) -> Self {
        self | o
    }
}

macro_rules! float_arith {
    ($($t:ty, $ftz:ident, $max:ident, $min:ident);*) => {$(
        impl Arith for $t {
            fn supports(op: BinOp) -> bool { !matches!(op, BinOp::And | BinOp::Or) }
            #[inline(always)] fn add_(self, o: Self) -> Self { $ftz($ftz(self) + $ftz(o)) }
            #[inline(always)] fn mul_(self, o: Self) -> Self { $ftz($ftz(self) * $ftz(o)) }
            #[inline(always)] fn max_(self, o: Self) -> Self { $max(self, o) }
            #[inline(always)] fn min_(self, o: Self) -> Self { $min(self, o) }
            fn and_(self, _: Self) -> Self { self }
            fn or_(self, _: Self) -> Self { self }
        }
    )*};
}
float_arith!(f32, ftz32, fmax32, fmin32; f64, ftz64, fmax64, fmin64);

macro_rules! half_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            fn supports(op: BinOp) -> bool { !matches!(op, BinOp::And | BinOp::Or) }
            #[inline(always)] fn add_(self, o: Self) -> Self { <$t>::from_f32(Arith::add_(self.to_f32(), o.to_f32())) }
            #[inline(always)] fn mul_(self, o: Self) -> Self { <$t>::from_f32(Arith::mul_(self.to_f32(), o.to_f32())) }
            // fmax/fmin return one of their inputs, so narrowing back is exact.
            #[inline(always)] fn max_(self, o: Self) -> Self { <$t>::from_f32(fmax32(self.to_f32(), o.to_f32())) }
            #[inline(always)] fn min_(self, o: Self) -> Self { <$t>::from_f32(fmin32(self.to_f32(), o.to_f32())) }
            fn and_(self, _: Self) -> Self { self }
            fn or_(self, _: Self) -> Self { self }
        }
    )*};
}
half_arith!(f16, bf16);

macro_rules! complex_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            fn supports(op: BinOp) -> bool { matches!(op, BinOp::Add | BinOp::Mul) }
            #[inline(always)] fn add_(self, o: Self) -> Self { self + o }
            #[inline(always)] fn mul_(self, o: Self) -> Self { self * o }
            fn max_(self, _: Self) -> Self { self }
            fn min_(self, _: Self) -> Self { self }
            fn and_(self, _: Self) -> Self { self }
            fn or_(self, _: Self) -> Self { self }
        }
    )*};
}
complex_arith!(Complex32, Complex64);

/// Binds `$f` to the closure `(acc, x) -> op(acc, x)` (or `op(x, acc)`
/// when swapped) and runs `$body`, once per op, monomorphized.
macro_rules! with_op {
    ($op:expr, $swapped:expr, |$f:ident : $t:ty| $body:expr) => {
        match ($op, $swapped) {
            (BinOp::Add, false) => {
                let $f = |a: $t, b: $t| Arith::add_(a, b);
                $body
            }
            (BinOp::Add, true) => {
                let $f = |a: $t, b: $t| Arith::add_(b, a);
                $body
            }
            (BinOp::Mul, false) => {
                let $f = |a: $t, b: $t| Arith::mul_(a, b);
                $body
            }
            (BinOp::Mul, true) => {
                let $f = |a: $t, b: $t| Arith::mul_(b, a);
                $body
            }
            (BinOp::Max, false) => {
                let $f = |a: $t, b: $t| Arith::max_(a, b);
                $body
            }
            (BinOp::Max, true) => {
                let $f = |a: $t, b: $t| Arith::max_(b, a);
                $body
            }
            (BinOp::Min, false) => {
                let $f = |a: $t, b: $t| Arith::min_(a, b);
                $body
            }
            (BinOp::Min, true) => {
                let $f = |a: $t, b: $t| Arith::min_(b, a);
                $body
            }
            (BinOp::And, false) => {
                let $f = |a: $t, b: $t| Arith::and_(a, b);
                $body
            }
            (BinOp::And, true) => {
                let $f = |a: $t, b: $t| Arith::and_(b, a);
                $body
            }
            (BinOp::Or, false) => {
                let $f = |a: $t, b: $t| Arith::or_(a, b);
                $body
            }
            (BinOp::Or, true) => {
                let $f = |a: $t, b: $t| Arith::or_(b, a);
                $body
            }
        }
    };
}

/// Runs `$body` with `$v` bound to the typed vector of a `Data` whose
/// element type implements [`Arith`]; `$other` for the rest.
macro_rules! arith_data {
    ($x:expr, $v:ident => $body:expr, else $other:expr) => {
        match $x {
            Data::Pred($v) => $body,
            Data::S8($v) => $body,
            Data::S16($v) => $body,
            Data::S32($v) => $body,
            Data::S64($v) => $body,
            Data::U8($v) => $body,
            Data::U16($v) => $body,
            Data::U32($v) => $body,
            Data::U64($v) => $body,
            Data::F16($v) => $body,
            Data::Bf16($v) => $body,
            Data::F32($v) => $body,
            Data::F64($v) => $body,
            Data::C64($v) => $body,
            Data::C128($v) => $body,
            _ => $other,
        }
    };
}

/// Like [`arith_data`] over two `Data` of the same type.
macro_rules! arith_pair {
    ($x:expr, $y:expr, ($a:ident, $b:ident) => $body:expr, else $other:expr) => {
        match ($x, $y) {
            (Data::Pred($a), Data::Pred($b)) => $body,
            (Data::S8($a), Data::S8($b)) => $body,
            (Data::S16($a), Data::S16($b)) => $body,
            (Data::S32($a), Data::S32($b)) => $body,
            (Data::S64($a), Data::S64($b)) => $body,
            (Data::U8($a), Data::U8($b)) => $body,
            (Data::U16($a), Data::U16($b)) => $body,
            (Data::U32($a), Data::U32($b)) => $body,
            (Data::U64($a), Data::U64($b)) => $body,
            (Data::F16($a), Data::F16($b)) => $body,
            (Data::Bf16($a), Data::Bf16($b)) => $body,
            (Data::F32($a), Data::F32($b)) => $body,
            (Data::F64($a), Data::F64($b)) => $body,
            (Data::C64($a), Data::C64($b)) => $body,
            (Data::C128($a), Data::C128($b)) => $body,
            _ => $other,
        }
    };
}

/// Whether the element type of `data` has a fast path for `op`.
fn supports(data: &Data, op: BinOp) -> bool {
    fn s<T: Arith>(_: &[T], op: BinOp) -> bool {
        T::supports(op)
    }
    arith_data!(data, v => s(v, op), else false)
}

/// How a combiner computation runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Combiner {
    /// Root is `op(parameter(0), parameter(1))` (`swapped`: the other
    /// order).
    Binary { op: BinOp, swapped: bool },
    /// Root is `parameter(k)`.
    Param(usize),
    /// Anything else.
    General,
}

/// The parameter number an operand of `comp` refers to, if it is a
/// parameter.
fn param_of(comp: &Computation, name: &str) -> Option<i64> {
    comp.instructions
        .iter()
        .find(|i| i.name == name)
        .and_then(|i| i.parameter_number.filter(|_| i.opcode == "parameter"))
}

/// Classifies the combiner `name` taking `2n` scalars.
pub(crate) fn analyze_combiner(interpreter: &Interpreter, name: &str, n: usize) -> Result<Combiner> {
    let comp = interpreter.computation(name)?;
    let root = comp.instructions.get(comp.root).ok_or_else(|| EvalError::new("computation without root"))?;
    let params: Vec<&Instruction> = comp.instructions.iter().filter(|i| i.opcode == "parameter").collect();
    let scalar_type = |s: &Shape| match s {
        Shape::Array { element, dims, .. } if dims.is_empty() => Some(*element),
        _ => None,
    };
    let t = scalar_type(&root.shape);
    if n != 1 || params.len() != 2 || t.is_none() || params.iter().any(|p| scalar_type(&p.shape) != t) {
        return Ok(Combiner::General);
    }
    if root.opcode == "parameter" {
        return Ok(match root.parameter_number {
            Some(k @ 0..=1) => Combiner::Param(k as usize),
            _ => Combiner::General,
        });
    }
    if let (Some(op), [a, b]) = (BinOp::from_opcode(&root.opcode), &root.operands[..]) {
        match (param_of(comp, &a.name), param_of(comp, &b.name)) {
            (Some(0), Some(1)) => return Ok(Combiner::Binary { op, swapped: false }),
            (Some(1), Some(0)) => return Ok(Combiner::Binary { op, swapped: true }),
            _ => {}
        }
    }
    Ok(Combiner::General)
}

/// Produces `(result offset, update offset)` pairs through a callback.
type Walk<'a> = dyn Fn(&mut dyn FnMut(usize, usize)) + 'a;

/// Applies a combiner in place: `results[k][a] = f(results[..][a],
/// updates[..][b])` for every pair `(a, b)` `walk` produces, in order.
/// Offsets must be in bounds (the callers check).
fn combine_with(
    interpreter: &Interpreter,
    name: &str,
    combiner: &Combiner,
    results: &mut [Data],
    updates: &[&Data],
    walk: &Walk,
) -> Result<()> {
    fn binary<T: Arith>(op: BinOp, swapped: bool, r: &mut [T], u: &[T], walk: &Walk) {
        with_op!(op, swapped, |f: T| walk(&mut |a, b| r[a] = f(r[a], u[b])))
    }
    match (*combiner, results, updates) {
        (Combiner::Param(1), [r], [u]) => {
            let mut err = None;
            walk(&mut |a, b| {
                if err.is_none() {
                    err = set_element(r, a, u, b).err();
                }
            });
            err.map_or(Ok(()), Err)
        }
        (Combiner::Param(0), [_], [_]) => Ok(()),
        (Combiner::Binary { op, swapped }, [r], [u]) if supports(r, op) => {
            arith_pair!(r, *u, (x, y) => binary(op, swapped, x, y, walk), else bail!("element types differ"));
            Ok(())
        }
        (_, results, updates) => {
            let mut err: Option<EvalError> = None;
            walk(&mut |a, b| {
                if err.is_some() {
                    return;
                }
                let args: Vec<Literal> =
                    results.iter().map(|d| scalar_at(d, a)).chain(updates.iter().map(|d| scalar_at(d, b))).collect();
                match interpreter.call(name, &args).and_then(flatten) {
                    Ok(outs) if outs.len() == results.len() => {
                        for (r, o) in results.iter_mut().zip(&outs) {
                            if let Err(e) = set_element(r, a, o, 0) {
                                err = Some(e);
                            }
                        }
                    }
                    Ok(outs) => {
                        err = Some(EvalError::new(format!(
                            "'{name}' returned {} values, expected {}",
                            outs.len(),
                            results.len()
                        )))
                    }
                    Err(e) => err = Some(e),
                }
            });
            err.map_or(Ok(()), Err)
        }
    }
}

/// `dst[a] = src[b]` with a type check.
fn set_element(dst: &mut Data, a: usize, src: &Data, b: usize) -> Result<()> {
    if dst.element_type() != src.element_type() || a >= dst.len() || b >= src.len() {
        bail!("combiner result of type {} does not fit {}", src.element_type().name(), dst.element_type().name());
    }
    dst.set_from(a, src, b);
    Ok(())
}

/// Scatter's window update: combines the box `dims` of `updates` (at
/// `upd_base + i*upd_strides`) into `results` (at `op_base +
/// i*op_strides`), row-major.
#[allow(clippy::too_many_arguments)]
pub(crate) fn combine_box(
    interpreter: &Interpreter,
    name: &str,
    combiner: &Combiner,
    results: &mut [Data],
    op_base: i64,
    op_strides: &[i64],
    updates: &[&Data],
    upd_base: i64,
    upd_strides: &[i64],
    dims: &[i64],
) -> Result<()> {
    for r in results.iter() {
        check_box(dims, op_base, op_strides, r.len())?;
    }
    for u in updates {
        check_box(dims, upd_base, upd_strides, u.len())?;
    }
    let sa = op_strides.last().copied().unwrap_or(1);
    let sb = upd_strides.last().copied().unwrap_or(1);
    let walk = |g: &mut dyn FnMut(usize, usize)| {
        for_each_run(dims, op_base, op_strides, upd_base, upd_strides, |a, b, n| {
            for k in 0..n as i64 {
                g((a + k * sa) as usize, (b + k * sb) as usize);
            }
        })
    };
    combine_with(interpreter, name, combiner, results, updates, &walk)
}

// ---------------------------------------------------------------------------
// Calling computations.

/// Element `i` of `data` as a rank-0 literal.
fn scalar_at(data: &Data, i: usize) -> Literal {
    Literal::scalar(data.select(&[i]))
}

/// The arrays of a computation's result (one, or a tuple's elements).
fn flatten(l: Literal) -> Result<Vec<Data>> {
    match l {
        Literal::Array { data, .. } => Ok(vec![data]),
        Literal::Tuple(es) => es
            .into_iter()
            .map(|e| match e {
                Literal::Array { data, .. } => Ok(data),
                _ => bail!("nested tuple in a called computation's result"),
            })
            .collect(),
        Literal::Token => bail!("token result of a called computation"),
    }
}

/// Elementwise opcodes a scalar computation may be vectorized over.
const ELEMENTWISE: &[&str] = &[
    "abs",
    "add",
    "and",
    "atan2",
    "bitcast-convert",
    "cbrt",
    "ceil",
    "clamp",
    "complex",
    "compare",
    "convert",
    "copy",
    "cosine",
    "count-leading-zeros",
    "divide",
    "erf",
    "exponential",
    "exponential-minus-one",
    "floor",
    "imag",
    "is-finite",
    "log",
    "log-plus-one",
    "logistic",
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
    "sine",
    "sqrt",
    "subtract",
    "tan",
    "tanh",
    "xor",
];

/// A scalar shape with `dims` (tuples elementwise); None for non-scalars.
fn vector_shape(shape: &Shape, dims: &[i64]) -> Option<Shape> {
    match shape {
        Shape::Array { element, dims: d, .. } if d.is_empty() => {
            Some(Shape::Array { element: *element, dims: dims.iter().map(|&n| Dim::Static(n)).collect(), layout: None })
        }
        Shape::Tuple(es) => es.iter().map(|e| vector_shape(e, dims)).collect::<Option<Vec<_>>>().map(Shape::Tuple),
        _ => None,
    }
}

/// Indices of the instructions `root` depends on (itself included).
fn reachable(comp: &Computation, root: usize) -> Vec<bool> {
    let index: HashMap<&str, usize> = comp.instructions.iter().enumerate().map(|(i, x)| (x.name.as_str(), i)).collect();
    let mut seen = vec![false; comp.instructions.len()];
    let mut stack = vec![root];
    while let Some(i) = stack.pop() {
        if i >= seen.len() || std::mem::replace(&mut seen[i], true) {
            continue;
        }
        for o in &comp.instructions[i].operands {
            if let Some(&j) = index.get(o.name.as_str()) {
                stack.push(j);
            }
        }
    }
    seen
}

/// `comp` (restricted to what `root` needs) rewritten to compute on arrays
/// of `dims` elementwise: scalar shapes become `dims`, constants are
/// broadcast. None when it holds anything but elementwise ops, constants,
/// parameters, tuples and get-tuple-element on scalars.
fn vectorize(comp: &Computation, dims: &[i64], root: usize) -> Option<Computation> {
    let needed = reachable(comp, root);
    let mut out: Vec<Instruction> = Vec::new();
    let mut new_root = None;
    for (i, inst) in comp.instructions.iter().enumerate() {
        if !needed[i] {
            continue;
        }
        let shape = vector_shape(&inst.shape, dims)?;
        let op = inst.opcode.as_str();
        if op == "parameter" && !matches!(shape, Shape::Array { .. }) {
            return None;
        }
        let strip = |ops: &[Operand]| ops.iter().map(|o| Operand { shape: None, ..o.clone() }).collect::<Vec<_>>();
        if op == "constant" {
            if !matches!(&inst.shape, Shape::Array { dims, .. } if dims.is_empty()) {
                return None;
            }
            let scalar_name = format!("{}.__vectorized_scalar", inst.name);
            out.push(Instruction { name: scalar_name.clone(), is_root: false, ..inst.clone() });
            out.push(Instruction {
                name: inst.name.clone(),
                is_root: false,
                shape,
                opcode: "broadcast".into(),
                operands: vec![Operand { shape: None, name: scalar_name, pos: Pos::default() }],
                literal: None,
                parameter_number: None,
                attributes: vec![rxla_hlo_text::ast::Attribute {
                    name: "dimensions".into(),
                    value: AttrValue { text: "{}".into(), pos: Pos::default() },
                    pos: Pos::default(),
                }],
                pos: inst.pos,
            });
        } else if op == "parameter" || op == "tuple" || op == "get-tuple-element" || ELEMENTWISE.contains(&op) {
            out.push(Instruction { shape, is_root: false, operands: strip(&inst.operands), ..inst.clone() });
        } else {
            return None;
        }
        if i == root {
            new_root = Some(out.len() - 1);
        }
    }
    Some(Computation {
        name: format!("{}.__vectorized", comp.name),
        is_entry: false,
        signature: None,
        instructions: out,
        root: new_root?,
        attributes: Vec::new(),
        pos: comp.pos,
    })
}

/// Evaluates a vectorized computation on arrays of `dims`.
fn call_vectorized(interpreter: &Interpreter, comp: &Computation, dims: &[i64], args: Vec<Data>) -> Result<Vec<Data>> {
    let args: Vec<Literal> = args.into_iter().map(|d| Literal::array(dims.to_vec(), d)).collect();
    flatten(interpreter.evaluate(comp, &args)?)
}

/// Calls `name` on scalars; the flattened result.
fn call_scalars(interpreter: &Interpreter, name: &str, args: &[Literal]) -> Result<Vec<Data>> {
    interpreter.call(name, args).and_then(flatten)
}

fn computation_attr(inst: &Instruction, key: &str) -> Result<String> {
    attrs::computation(require(inst, key)?).map_err(attr_error)
}

// ---------------------------------------------------------------------------
// reduce

fn reduce(interpreter: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    if operands.is_empty() || !operands.len().is_multiple_of(2) {
        bail!("reduce takes N inputs and N init values, got {} operands", operands.len());
    }
    let n = operands.len() / 2;
    let (id, _) = operand(operands, 0)?;
    let mut inputs = Vec::new();
    let mut inits = Vec::new();
    for k in 0..n {
        let (dk, data) = operand(operands, k)?;
        let (_, init) = operand(operands, n + k)?;
        if dk != id {
            bail!("reduce inputs differ in shape");
        }
        if init.len() != 1 {
            bail!("init value {k} is not a scalar");
        }
        inputs.push(data);
        inits.push(init);
    }
    let mut reduced = vec![false; id.len()];
    for d in dims_attr(inst, "dimensions")? {
        reduced[check_dim(d, id.len(), "reduce dimension")?] = true;
    }
    let kept: Vec<usize> = (0..id.len()).filter(|&d| !reduced[d]).collect();
    let red: Vec<usize> = (0..id.len()).filter(|&d| reduced[d]).collect();
    let out_dims: Vec<i64> = kept.iter().map(|&d| id[d]).collect();
    let red_dims: Vec<i64> = red.iter().map(|&d| id[d]).collect();
    let name = computation_attr(inst, "to_apply")?;
    let combiner = analyze_combiner(interpreter, &name, n)?;
    let in_str = strides(id);
    let out_str = strides(&out_dims);

    let results: Vec<Data> = match combiner {
        Combiner::Binary { op, swapped }
            if supports(inputs[0], op) && inputs[0].element_type() == inits[0].element_type() =>
        {
            // Output offset of each input dim (0 for reduced ones).
            let mut o_of_in = vec![0i64; id.len()];
            for (j, &d) in kept.iter().enumerate() {
                o_of_in[d] = out_str[j];
            }
            let mut acc = splat(inits[0], &out_dims)?;
            arith_pair!(&mut acc, inputs[0], (a, x) => reduce_fast(op, swapped, x, id, &in_str, &o_of_in, a), else bail!("element types differ"));
            vec![acc]
        }
        _ => {
            // Offsets of each output's first input element, and of each
            // reduced index.
            let mut bases = Vec::with_capacity(element_count(&out_dims));
            for_each_index(&out_dims, |o| bases.push(o.iter().zip(&kept).map(|(&i, &d)| i * in_str[d]).sum::<i64>()));
            let mut red_offsets = Vec::with_capacity(element_count(&red_dims));
            for_each_index(&red_dims, |r| {
                red_offsets.push(r.iter().zip(&red).map(|(&i, &d)| i * in_str[d]).sum::<i64>())
            });
            reduce_general(interpreter, &name, &inputs, &inits, &out_dims, &bases, &red_offsets)?
        }
    };
    let outs = results.into_iter().map(|d| Literal::array(out_dims.clone(), d)).collect();
    finish_variadic(inst, outs)
}

fn reduce_fast<T: Arith>(
    op: BinOp,
    swapped: bool,
    x: &[T],
    in_dims: &[i64],
    in_str: &[i64],
    o_of_in: &[i64],
    acc: &mut [T],
) {
    fn run<T: Copy>(x: &[T], in_dims: &[i64], in_str: &[i64], o_of_in: &[i64], acc: &mut [T], f: impl Fn(T, T) -> T) {
        let so = o_of_in.last().copied().unwrap_or(0);
        for_each_run(in_dims, 0, in_str, 0, o_of_in, |a, b, n| {
            let (a, b) = (a as usize, b as usize);
            if so == 0 {
                let mut v = acc[b];
                for &e in &x[a..a + n] {
                    v = f(v, e);
                }
                acc[b] = v;
            } else {
                for (r, &e) in acc[b..b + n].iter_mut().zip(&x[a..a + n]) {
                    *r = f(*r, e);
                }
            }
        });
    }
    with_op!(op, swapped, |f: T| run(x, in_dims, in_str, o_of_in, acc, f))
}

/// The general reduce: for each reduced offset in order, all outputs at
/// once when `name` vectorizes, else output by output.
fn reduce_general(
    interpreter: &Interpreter,
    name: &str,
    inputs: &[&Data],
    inits: &[&Data],
    out_dims: &[i64],
    bases: &[i64],
    red_offsets: &[i64],
) -> Result<Vec<Data>> {
    let n = inputs.len();
    let comp = interpreter.computation(name)?;
    let mut acc: Vec<Data> = inits.iter().map(|i| splat(i, out_dims)).collect::<Result<_>>()?;
    if bases.is_empty() {
        return Ok(acc);
    }
    if let Some(vc) = vectorize(comp, out_dims, comp.root) {
        let mut idx = vec![0usize; bases.len()];
        for &r in red_offsets {
            for (i, &b) in idx.iter_mut().zip(bases) {
                *i = (b + r) as usize;
            }
            let mut args: Vec<Data> = std::mem::take(&mut acc);
            args.extend(inputs.iter().map(|x| x.select(&idx)));
            acc = call_vectorized(interpreter, &vc, out_dims, args)?;
            check_count(name, &acc, n, bases.len())?;
        }
        return Ok(acc);
    }
    for (o, &b) in bases.iter().enumerate() {
        let mut cur: Vec<Literal> = inits.iter().map(|d| scalar_at(d, 0)).collect();
        for &r in red_offsets {
            let i = (b + r) as usize;
            let args: Vec<Literal> = cur.drain(..).chain(inputs.iter().map(|x| scalar_at(x, i))).collect();
            let outs = call_scalars(interpreter, name, &args)?;
            check_count(name, &outs, n, 1)?;
            cur = outs.into_iter().map(Literal::scalar).collect();
        }
        for (a, c) in acc.iter_mut().zip(&cur) {
            set_element(a, o, c.data().unwrap(), 0)?;
        }
    }
    Ok(acc)
}

fn check_count(name: &str, outs: &[Data], n: usize, len: usize) -> Result<()> {
    if outs.len() != n || outs.iter().any(|d| d.len() != len) {
        bail!("'{name}' returned {} values, expected {n}", outs.len());
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Windows (reduce-window, select-and-scatter)

/// Walks the windows of an operand: per output position, the input offset
/// of every window position (row-major), -1 where it falls in padding or a
/// dilation hole.
struct Windows {
    out_dims: Vec<i64>,
    win: Vec<i64>,
    /// Per dim, `out_d * win_d` entries: input index times input stride,
    /// or -1.
    tables: Vec<Vec<i64>>,
}

impl Windows {
    fn new(in_dims: &[i64], window: &[WindowDim]) -> Result<Self> {
        if window.len() != in_dims.len() {
            bail!("window has {} dimensions for an operand of rank {}", window.len(), in_dims.len());
        }
        let in_str = strides(in_dims);
        let mut out_dims = Vec::new();
        let mut tables = Vec::new();
        for (d, w) in window.iter().enumerate() {
            if w.size < 0 || w.stride < 1 || w.lhs_dilate < 1 || w.rhs_dilate < 1 {
                bail!("window dimension {d} is invalid");
            }
            let base = if in_dims[d] == 0 { 0 } else { (in_dims[d] - 1) * w.lhs_dilate + 1 };
            let padded = base + w.padding_low + w.padding_high;
            let span = if w.size == 0 { 0 } else { (w.size - 1) * w.rhs_dilate + 1 };
            let out = if padded < span { 0 } else { (padded - span) / w.stride + 1 };
            if out.checked_mul(w.size).is_none_or(|n| n > i32::MAX as i64) {
                bail!("window dimension {d} is too large");
            }
            let mut t = Vec::with_capacity((out * w.size) as usize);
            for o in 0..out {
                for k in 0..w.size {
                    let p = o * w.stride + k * w.rhs_dilate - w.padding_low;
                    let valid = p >= 0 && (p % w.lhs_dilate) == 0 && p / w.lhs_dilate < in_dims[d];
                    t.push(if valid { p / w.lhs_dilate * in_str[d] } else { -1 });
                }
            }
            out_dims.push(out);
            tables.push(t);
        }
        Ok(Self { out_dims, win: window.iter().map(|w| w.size).collect(), tables })
    }

    fn window_count(&self) -> usize {
        element_count(&self.win)
    }

    /// Calls `f(output_index, offsets)` for every output in row-major
    /// order.
    fn for_each_output(&self, mut f: impl FnMut(usize, &[i64])) {
        let mut cur: Vec<i64> = Vec::with_capacity(self.window_count());
        let mut next: Vec<i64> = Vec::with_capacity(self.window_count());
        let mut o_flat = 0;
        for_each_index(&self.out_dims, |o| {
            cur.clear();
            cur.push(0);
            for (d, &od) in o.iter().enumerate() {
                let w = self.win[d] as usize;
                let row = &self.tables[d][od as usize * w..od as usize * w + w];
                next.clear();
                for &p in &cur {
                    for &e in row {
                        next.push(if p < 0 || e < 0 { -1 } else { p + e });
                    }
                }
                std::mem::swap(&mut cur, &mut next);
            }
            f(o_flat, &cur);
            o_flat += 1;
        });
    }

    /// All offsets, output-major (`out * window_count + w`).
    fn all_offsets(&self) -> Vec<i64> {
        let mut all = Vec::with_capacity(element_count(&self.out_dims) * self.window_count());
        self.for_each_output(|_, offs| all.extend_from_slice(offs));
        all
    }
}

fn window_attr(inst: &Instruction) -> Result<Vec<WindowDim>> {
    attrs::window(require(inst, "window")?).map_err(attr_error)
}

fn reduce_window(interpreter: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    if operands.is_empty() || !operands.len().is_multiple_of(2) {
        bail!("reduce-window takes N inputs and N init values, got {} operands", operands.len());
    }
    let n = operands.len() / 2;
    let (id, _) = operand(operands, 0)?;
    let mut inputs = Vec::new();
    let mut inits = Vec::new();
    for k in 0..n {
        let (dk, data) = operand(operands, k)?;
        let (_, init) = operand(operands, n + k)?;
        if dk != id || init.len() != 1 {
            bail!("reduce-window inputs differ in shape or an init value is not a scalar");
        }
        inputs.push(data);
        inits.push(init);
    }
    let windows = Windows::new(id, &window_attr(inst)?)?;
    let out_dims = windows.out_dims.clone();
    let name = computation_attr(inst, "to_apply")?;
    let combiner = analyze_combiner(interpreter, &name, n)?;
    let results = match combiner {
        Combiner::Binary { op, swapped }
            if supports(inputs[0], op) && inputs[0].element_type() == inits[0].element_type() =>
        {
            fn run<T: Arith>(op: BinOp, swapped: bool, x: &[T], acc: &mut [T], windows: &Windows) {
                with_op!(op, swapped, |f: T| windows.for_each_output(|o, offs| {
                    let mut v = acc[o];
                    for &p in offs {
                        if p >= 0 {
                            v = f(v, x[p as usize]);
                        }
                    }
                    acc[o] = v;
                }))
            }
            let mut acc = splat(inits[0], &out_dims)?;
            arith_pair!(&mut acc, inputs[0], (a, x) => run(op, swapped, x, a, &windows), else bail!("element types differ"));
            vec![acc]
        }
        _ => reduce_window_general(interpreter, &name, &inputs, &inits, &windows)?,
    };
    let outs = results.into_iter().map(|d| Literal::array(out_dims.clone(), d)).collect();
    finish_variadic(inst, outs)
}

fn reduce_window_general(
    interpreter: &Interpreter,
    name: &str,
    inputs: &[&Data],
    inits: &[&Data],
    windows: &Windows,
) -> Result<Vec<Data>> {
    let n = inputs.len();
    let out_dims = &windows.out_dims;
    let count = element_count(out_dims);
    let wc = windows.window_count();
    let mut acc: Vec<Data> = inits.iter().map(|i| splat(i, out_dims)).collect::<Result<_>>()?;
    if count == 0 || wc == 0 {
        return Ok(acc);
    }
    let comp = interpreter.computation(name)?;
    let all = windows.all_offsets();
    if let Some(vc) = vectorize(comp, out_dims, comp.root) {
        let mut idx = vec![0usize; count];
        for w in 0..wc {
            let mut any = false;
            let mut every = true;
            for (o, i) in idx.iter_mut().enumerate() {
                let p = all[o * wc + w];
                any |= p >= 0;
                every &= p >= 0;
                *i = p.max(0) as usize;
            }
            if !any {
                continue;
            }
            let mut args: Vec<Data> = acc.clone();
            args.extend(inputs.iter().map(|x| x.select(&idx)));
            let new = call_vectorized(interpreter, &vc, out_dims, args)?;
            check_count(name, &new, n, count)?;
            if every {
                acc = new;
            } else {
                for o in (0..count).filter(|&o| all[o * wc + w] >= 0) {
                    for (a, b) in acc.iter_mut().zip(&new) {
                        set_element(a, o, b, o)?;
                    }
                }
            }
        }
        return Ok(acc);
    }
    for o in 0..count {
        let mut cur: Vec<Literal> = inits.iter().map(|d| scalar_at(d, 0)).collect();
        for &p in all[o * wc..(o + 1) * wc].iter().filter(|&&p| p >= 0) {
            let args: Vec<Literal> = cur.drain(..).chain(inputs.iter().map(|x| scalar_at(x, p as usize))).collect();
            let outs = call_scalars(interpreter, name, &args)?;
            check_count(name, &outs, n, 1)?;
            cur = outs.into_iter().map(Literal::scalar).collect();
        }
        for (a, c) in acc.iter_mut().zip(&cur) {
            set_element(a, o, c.data().unwrap(), 0)?;
        }
    }
    Ok(acc)
}

// ---------------------------------------------------------------------------
// Comparison keys (sort, select-and-scatter, topk)

/// Comparable keys of an array's elements.
enum Keys {
    /// Integers, pred, or floats in total order (as monotone integers).
    I(Vec<i64>),
    U(Vec<u64>),
    /// Floats in IEEE (partial) order.
    F(Vec<f64>),
}

/// A float's bits as a signed integer ordered like XLA's total order.
#[inline]
fn total_key(bits: i64, sign_mask_max: i64) -> i64 {
    if bits < 0 {
        bits ^ sign_mask_max
    } else {
        bits
    }
}

fn keys_of(data: &Data, total: bool) -> Option<Keys> {
    use rxla_hlo_text::ast::PrimitiveType as P;
    Some(match data {
        Data::Pred(v) => Keys::I(v.iter().map(|&x| x as i64).collect()),
        Data::S8(v) => Keys::I(v.iter().map(|&x| x as i64).collect()),
        Data::S16(v) => Keys::I(v.iter().map(|&x| x as i64).collect()),
        Data::S32(v) => Keys::I(v.iter().map(|&x| x as i64).collect()),
        Data::S64(v) => Keys::I(v.clone()),
        Data::U8(v) => Keys::I(v.iter().map(|&x| x as i64).collect()),
        Data::U16(v) => Keys::I(v.iter().map(|&x| x as i64).collect()),
        Data::U32(v) => Keys::I(v.iter().map(|&x| x as i64).collect()),
        Data::U64(v) => Keys::U(v.clone()),
        Data::Bits(P::S2 | P::S4, v) => Keys::I(v.iter().map(|&x| x as i8 as i64).collect()),
        Data::Bits(P::U2 | P::U4, v) => Keys::I(v.iter().map(|&x| x as i64).collect()),
        Data::F16(v) if total => {
            Keys::I(v.iter().map(|x| total_key(x.to_bits() as i16 as i64, i16::MAX as i64)).collect())
        }
        Data::Bf16(v) if total => {
            Keys::I(v.iter().map(|x| total_key(x.to_bits() as i16 as i64, i16::MAX as i64)).collect())
        }
        Data::F32(v) if total => {
            Keys::I(v.iter().map(|x| total_key(x.to_bits() as i32 as i64, i32::MAX as i64)).collect())
        }
        Data::F64(v) if total => Keys::I(v.iter().map(|x| total_key(x.to_bits() as i64, i64::MAX)).collect()),
        Data::F16(v) => Keys::F(v.iter().map(|x| x.to_f64()).collect()),
        // IEEE order with subnormals as zero (DAZ), as the elementwise
        // FLOAT compare does.
        Data::Bf16(v) => Keys::F(v.iter().map(|x| ftz32(x.to_f32()) as f64).collect()),
        Data::F32(v) => Keys::F(v.iter().map(|&x| ftz32(x) as f64).collect()),
        Data::F64(v) => Keys::F(v.iter().map(|&x| ftz64(x)).collect()),
        Data::Bits(_, _) if !total => Keys::F(
            Literal::array(vec![data.len() as i64], data.clone()).to_f32_vec().into_iter().map(|x| x as f64).collect(),
        ),
        Data::Bits(_, _) => {
            // Narrow floats: through f32, whose total order they share
            // (the sign of NaN is kept).
            let v = Literal::array(vec![data.len() as i64], data.clone()).to_f32_vec();
            Keys::I(v.iter().map(|x| total_key(x.to_bits() as i32 as i64, i32::MAX as i64)).collect())
        }
        _ => return None,
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Direction {
    fn parse(v: &AttrValue) -> Result<Direction> {
        Ok(match attrs::enum_word(v).map_err(attr_error)?.as_str() {
            "EQ" => Direction::Eq,
            "NE" => Direction::Ne,
            "LT" => Direction::Lt,
            "LE" => Direction::Le,
            "GT" => Direction::Gt,
            "GE" => Direction::Ge,
            other => bail!("unknown comparison direction {other}"),
        })
    }

    /// The direction with operands exchanged.
    fn swap(self) -> Direction {
        match self {
            Direction::Lt => Direction::Gt,
            Direction::Gt => Direction::Lt,
            Direction::Le => Direction::Ge,
            Direction::Ge => Direction::Le,
            d => d,
        }
    }

    #[inline]
    fn holds<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            Direction::Eq => a == b,
            Direction::Ne => a != b,
            Direction::Lt => a < b,
            Direction::Le => a <= b,
            Direction::Gt => a > b,
            Direction::Ge => a >= b,
        }
    }
}

impl Keys {
    #[inline]
    fn compare(&self, dir: Direction, i: usize, j: usize) -> bool {
        match self {
            Keys::I(v) => dir.holds(v[i], v[j]),
            Keys::U(v) => dir.holds(v[i], v[j]),
            Keys::F(v) => dir.holds(v[i], v[j]),
        }
    }
}

/// A `compare` instruction's direction and whether it orders floats
/// totally.
fn compare_kind(inst: &Instruction) -> Result<(Direction, bool)> {
    let dir = Direction::parse(require(inst, "direction")?)?;
    let total = match attr(inst, "type") {
        Some(v) => attrs::enum_word(v).map_err(attr_error)? == "TOTALORDER",
        None => false,
    };
    Ok((dir, total))
}

// ---------------------------------------------------------------------------
// select-and-scatter

fn select_and_scatter(interpreter: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (od, data) = operand(operands, 0)?;
    let (sd, source) = operand(operands, 1)?;
    let (_, init) = operand(operands, 2)?;
    let windows = Windows::new(od, &window_attr(inst)?)?;
    if windows.out_dims != sd {
        bail!("source dims {sd:?} do not match the window output {:?}", windows.out_dims);
    }
    check_result(inst, init.element_type(), od)?;
    let select = computation_attr(inst, "select")?;
    let scatter_name = computation_attr(inst, "scatter")?;
    let count = element_count(sd);
    let wc = windows.window_count();
    let mut selected = vec![-1i64; count];

    // Fast select: root compare(parameter(0), parameter(1)) (either order).
    let comp = interpreter.computation(&select)?;
    let root = comp.instructions.get(comp.root).ok_or_else(|| EvalError::new("computation without root"))?;
    let mut fast = None;
    if root.opcode == "compare" && root.operands.len() == 2 {
        let (dir, total) = compare_kind(root)?;
        let dir = match (param_of(comp, &root.operands[0].name), param_of(comp, &root.operands[1].name)) {
            (Some(0), Some(1)) => Some(dir),
            (Some(1), Some(0)) => Some(dir.swap()),
            _ => None,
        };
        if let Some(dir) = dir {
            fast = keys_of(data, total).map(|k| (k, dir));
        }
    }
    if let Some((keys, dir)) = fast {
        windows.for_each_output(|o, offs| {
            let mut cur = -1i64;
            for &p in offs.iter().filter(|&&p| p >= 0) {
                if cur < 0 || !keys.compare(dir, cur as usize, p as usize) {
                    cur = p;
                }
            }
            selected[o] = cur;
        });
    } else if count > 0 && wc > 0 {
        let all = windows.all_offsets();
        if let Some(vc) = vectorize(comp, sd, comp.root) {
            let mut cur_idx = vec![0usize; count];
            let mut cand_idx = vec![0usize; count];
            for w in 0..wc {
                let mut need = false;
                for o in 0..count {
                    let p = all[o * wc + w];
                    if p >= 0 && selected[o] < 0 {
                        selected[o] = p;
                    } else if p >= 0 {
                        need = true;
                    }
                    cand_idx[o] = if p >= 0 { p as usize } else { selected[o].max(0) as usize };
                    cur_idx[o] = if selected[o] >= 0 { selected[o] as usize } else { cand_idx[o] };
                }
                if !need {
                    continue;
                }
                let keep = call_vectorized(interpreter, &vc, sd, vec![data.select(&cur_idx), data.select(&cand_idx)])?;
                let Some(Data::Pred(keep)) = keep.first() else { bail!("'{select}' does not return pred") };
                for o in 0..count {
                    let p = all[o * wc + w];
                    if p >= 0 && selected[o] >= 0 && selected[o] != p && !keep[o] {
                        selected[o] = p;
                    }
                }
            }
        } else {
            for o in 0..count {
                let mut cur = -1i64;
                for &p in all[o * wc..(o + 1) * wc].iter().filter(|&&p| p >= 0) {
                    if cur < 0 {
                        cur = p;
                        continue;
                    }
                    let outs = call_scalars(
                        interpreter,
                        &select,
                        &[scalar_at(data, cur as usize), scalar_at(data, p as usize)],
                    )?;
                    match outs.first() {
                        Some(Data::Pred(v)) if v.len() == 1 => {
                            if !v[0] {
                                cur = p;
                            }
                        }
                        _ => bail!("'{select}' does not return a pred scalar"),
                    }
                }
                selected[o] = cur;
            }
        }
    }

    let mut result = vec![splat(init, od)?];
    let combiner = analyze_combiner(interpreter, &scatter_name, 1)?;
    let walk = |g: &mut dyn FnMut(usize, usize)| {
        for (o, &p) in selected.iter().enumerate() {
            if p >= 0 {
                g(p as usize, o);
            }
        }
    };
    if source.element_type() != init.element_type() {
        bail!("source and init value differ in element type");
    }
    combine_with(interpreter, &scatter_name, &combiner, &mut result, &[source], &walk)?;
    Ok(Literal::array(od.to_vec(), result.pop().unwrap()))
}

// ---------------------------------------------------------------------------
// map

fn map(interpreter: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (t, out) = array_shape(&inst.shape)?;
    let name = computation_attr(inst, "to_apply")?;
    let mut inputs = Vec::new();
    for k in 0..operands.len() {
        let (dk, data) = operand(operands, k)?;
        if dk != out {
            bail!("map operand {k} dims {dk:?} differ from the result {out:?}");
        }
        inputs.push(data);
    }
    if let Some(dims) = attr(inst, "dimensions") {
        let dims = attrs::dims(dims).map_err(attr_error)?;
        if dims != (0..out.len() as i64).collect::<Vec<_>>() {
            bail!("map over dimensions {dims:?} (only all dimensions are supported)");
        }
    }
    let count = element_count(&out);
    let comp = interpreter.computation(&name)?;
    let result = if let Some(vc) = vectorize(comp, &out, comp.root) {
        let outs = call_vectorized(interpreter, &vc, &out, inputs.iter().map(|d| (*d).clone()).collect())?;
        check_count(&name, &outs, 1, count)?;
        outs.into_iter().next().unwrap()
    } else {
        let mut result = Data::zeros(t, count);
        for i in 0..count {
            let args: Vec<Literal> = inputs.iter().map(|d| scalar_at(d, i)).collect();
            let outs = call_scalars(interpreter, &name, &args)?;
            check_count(&name, &outs, 1, 1)?;
            set_element(&mut result, i, &outs[0], 0)?;
        }
        result
    };
    check_result(inst, result.element_type(), &out)?;
    Ok(Literal::array(out, result))
}

// ---------------------------------------------------------------------------
// sort

/// Stable bottom-up merge sort of `v` by a fallible strict "less".
fn merge_sort(v: &mut Vec<usize>, less: &mut dyn FnMut(usize, usize) -> Result<bool>) -> Result<()> {
    const RUN: usize = 16;
    let n = v.len();
    for start in (0..n).step_by(RUN) {
        let end = (start + RUN).min(n);
        for i in start + 1..end {
            let x = v[i];
            let mut j = i;
            while j > start && less(x, v[j - 1])? {
                v[j] = v[j - 1];
                j -= 1;
            }
            v[j] = x;
        }
    }
    let mut buf = vec![0usize; n];
    let mut width = RUN;
    while width < n {
        for start in (0..n).step_by(2 * width) {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j, mut k) = (start, mid, start);
            while i < mid && j < end {
                if less(v[j], v[i])? {
                    buf[k] = v[j];
                    j += 1;
                } else {
                    buf[k] = v[i];
                    i += 1;
                }
                k += 1;
            }
            buf[k..k + (mid - i)].copy_from_slice(&v[i..mid]);
            k += mid - i;
            buf[k..k + (end - j)].copy_from_slice(&v[j..end]);
        }
        std::mem::swap(v, &mut buf);
        width *= 2;
    }
    Ok(())
}

/// Whether instruction `a` (over the lhs parameters 2k) and `b` (over the
/// rhs parameters 2k+1) are the same expression.
fn mirrored(comp: &Computation, index: &HashMap<&str, usize>, a: usize, b: usize, depth: usize) -> bool {
    if depth > 64 {
        return false;
    }
    let (x, y) = (&comp.instructions[a], &comp.instructions[b]);
    if x.opcode == "parameter" || y.opcode == "parameter" {
        return match (x.parameter_number, y.parameter_number) {
            (Some(p), Some(q)) => x.opcode == y.opcode && p % 2 == 0 && q == p + 1,
            _ => false,
        };
    }
    if a == b {
        // A shared node must not depend on parameters.
        let r = reachable(comp, a);
        return !comp.instructions.iter().enumerate().any(|(i, inst)| r[i] && inst.opcode == "parameter");
    }
    let attrs_eq = x.attributes.len() == y.attributes.len()
        && x.attributes.iter().zip(&y.attributes).all(|(p, q)| p.name == q.name && p.value.text == q.value.text);
    if x.opcode != y.opcode
        || x.shape != y.shape
        || x.literal != y.literal
        || !attrs_eq
        || x.operands.len() != y.operands.len()
    {
        return false;
    }
    x.operands.iter().zip(&y.operands).all(|(p, q)| match (index.get(p.name.as_str()), index.get(q.name.as_str())) {
        (Some(&i), Some(&j)) => mirrored(comp, index, i, j, depth + 1),
        _ => false,
    })
}

/// A lexicographic comparator, JAX's form for several sort keys:
/// `or(compare(k0l, k0r, LT), and(compare(k0l, k0r, EQ), <rest>))` down to
/// a last `compare(kl, kr)`, each key `k` the same expression of either
/// side. Per level: the lhs key expression, the direction and whether the
/// order is total. None when the comparator has another form.
fn comparator_levels(comp: &Computation) -> Result<Option<Vec<(usize, Direction, bool)>>> {
    let index: HashMap<&str, usize> = comp.instructions.iter().enumerate().map(|(i, x)| (x.name.as_str(), i)).collect();
    let mut levels = Vec::new();
    let mut at = comp.root;
    for _ in 0..64 {
        let Some(inst) = comp.instructions.get(at) else { return Ok(None) };
        let operand = |k: usize| inst.operands.get(k).and_then(|o| index.get(o.name.as_str()).copied());
        if inst.opcode == "compare" {
            let (Some(a), Some(b)) = (operand(0), operand(1)) else { return Ok(None) };
            let (dir, total) = compare_kind(inst)?;
            if mirrored(comp, &index, a, b, 0) {
                levels.push((a, dir, total));
            } else if mirrored(comp, &index, b, a, 0) {
                levels.push((b, dir.swap(), total));
            } else {
                return Ok(None);
            }
            return Ok(Some(levels));
        }
        if inst.opcode != "or" || inst.operands.len() != 2 {
            return Ok(None);
        }
        let (Some(x), Some(y)) = (operand(0), operand(1)) else { return Ok(None) };
        let is = |i: usize, op: &str| comp.instructions[i].opcode == op;
        let (lt, and) = if is(x, "compare") && is(y, "and") {
            (x, y)
        } else if is(y, "compare") && is(x, "and") {
            (y, x)
        } else {
            return Ok(None);
        };
        let (lt, and) = (&comp.instructions[lt], &comp.instructions[and]);
        let (dir, total) = compare_kind(lt)?;
        if !matches!(dir, Direction::Lt | Direction::Gt) || lt.operands.len() != 2 || and.operands.len() != 2 {
            return Ok(None);
        }
        // The and's operands: the EQ compare of the same two keys, and the rest.
        fn names(i: &Instruction) -> Vec<&str> {
            i.operands.iter().map(|o| o.name.as_str()).collect()
        }
        let lt_names = names(lt);
        let mut rest = None;
        let mut found_eq = false;
        for o in &and.operands {
            let Some(&j) = index.get(o.name.as_str()) else { return Ok(None) };
            let e = &comp.instructions[j];
            let mut en = names(e);
            if !found_eq && e.opcode == "compare" && compare_kind(e)? == (Direction::Eq, total) && {
                if en != lt_names {
                    en.reverse();
                }
                en == lt_names
            } {
                found_eq = true;
            } else {
                rest = Some(j);
            }
        }
        let (Some(rest), true) = (rest, found_eq) else { return Ok(None) };
        let (Some(&a), Some(&b)) = (index.get(lt_names[0]), index.get(lt_names[1])) else { return Ok(None) };
        if mirrored(comp, &index, a, b, 0) {
            levels.push((a, dir, total));
        } else if mirrored(comp, &index, b, a, 0) {
            levels.push((b, dir.swap(), total));
        } else {
            return Ok(None);
        }
        at = rest;
    }
    Ok(None)
}

fn sort(interpreter: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    if operands.is_empty() {
        bail!("sort takes at least one operand");
    }
    let (dims, _) = operand(operands, 0)?;
    let mut inputs = Vec::new();
    for k in 0..operands.len() {
        let (dk, data) = operand(operands, k)?;
        if dk != dims {
            bail!("sort operands differ in shape");
        }
        inputs.push(data);
    }
    let dim_list = dims_attr(inst, "dimensions")?;
    let [d] = dim_list[..] else { bail!("sort takes one dimension") };
    let d = check_dim(d, dims.len(), "sort dimension")?;
    let name = computation_attr(inst, "to_apply")?;
    let comp = interpreter.computation(&name)?;
    let total_count = element_count(dims);
    let len = dims[d] as usize;
    let step = strides(dims)[d] as usize;
    // First offset of every slice along d.
    let mut outer = dims.to_vec();
    outer[d] = 1;
    let mut bases = Vec::new();
    let st = strides(dims);
    for_each_index(&outer, |i| bases.push(i.iter().zip(&st).map(|(a, b)| a * b).sum::<i64>() as usize));

    // Sort keys when the comparator compares one expression of each side
    // (or several, lexicographically).
    let mut levels: Vec<(Keys, Direction)> = Vec::new();
    for (key_root, dir, total) in comparator_levels(comp)?.unwrap_or_default() {
        let key_inst = &comp.instructions[key_root];
        let key_data = if key_inst.opcode == "parameter" {
            let p = key_inst.parameter_number.unwrap_or(-1) as usize / 2;
            inputs.get(p).map(|x| (*x).clone())
        } else if let Some(vc) = vectorize(comp, dims, key_root) {
            let args: Vec<Data> = (0..2 * inputs.len()).map(|i| inputs[i / 2].clone()).collect();
            Some(
                call_vectorized(interpreter, &vc, dims, args)?
                    .into_iter()
                    .next()
                    .ok_or_else(|| EvalError::new("empty key"))?,
            )
        } else {
            None
        };
        match key_data.filter(|kd| kd.len() == total_count).and_then(|kd| keys_of(&kd, total)) {
            Some(keys) => levels.push((keys, dir)),
            None => {
                levels.clear();
                break;
            }
        }
    }
    // Several levels sort lexicographically when every level is a strict
    // total order on integer keys; otherwise the comparator is called.
    let lexicographic = levels.len() > 1
        && levels
            .iter()
            .all(|(k, d)| matches!(k, Keys::I(_) | Keys::U(_)) && matches!(d, Direction::Lt | Direction::Gt));
    let keyed: Option<(Keys, Direction)> = if levels.len() == 1 { levels.pop() } else { None };

    let mut perm: Vec<usize> = Vec::with_capacity(total_count);
    let mut idx: Vec<usize> = Vec::with_capacity(len);
    for &base in &bases {
        idx.clear();
        idx.extend((0..len).map(|i| base + i * step));
        if lexicographic {
            idx.sort_by(|&a, &b| {
                for (keys, dir) in &levels {
                    let o = match keys {
                        Keys::I(k) => k[a].cmp(&k[b]),
                        Keys::U(k) => k[a].cmp(&k[b]),
                        Keys::F(_) => std::cmp::Ordering::Equal,
                    };
                    let o = if *dir == Direction::Gt { o.reverse() } else { o };
                    if o != std::cmp::Ordering::Equal {
                        return o;
                    }
                }
                std::cmp::Ordering::Equal
            });
            perm.extend_from_slice(&idx);
            continue;
        }
        match &keyed {
            Some((Keys::I(k), dir @ (Direction::Lt | Direction::Gt))) => {
                if *dir == Direction::Lt {
                    idx.sort_by_key(|&i| k[i]);
                } else {
                    idx.sort_by(|&a, &b| k[b].cmp(&k[a]));
                }
            }
            Some((Keys::U(k), dir @ (Direction::Lt | Direction::Gt))) => {
                if *dir == Direction::Lt {
                    idx.sort_by_key(|&i| k[i]);
                } else {
                    idx.sort_by(|&a, &b| k[b].cmp(&k[a]));
                }
            }
            Some((Keys::F(k), dir @ (Direction::Lt | Direction::Gt))) if idx.iter().all(|&i| !k[i].is_nan()) => {
                let ord = |a: &usize, b: &usize| k[*a].partial_cmp(&k[*b]).unwrap_or(std::cmp::Ordering::Equal);
                if *dir == Direction::Lt {
                    idx.sort_by(ord);
                } else {
                    idx.sort_by(|a, b| ord(b, a));
                }
            }
            Some((keys, dir)) => merge_sort(&mut idx, &mut |a, b| Ok(keys.compare(*dir, a, b)))?,
            None => merge_sort(&mut idx, &mut |a, b| {
                let args: Vec<Literal> = inputs.iter().flat_map(|x| [scalar_at(x, a), scalar_at(x, b)]).collect();
                match call_scalars(interpreter, &name, &args)?.first() {
                    Some(Data::Pred(v)) if v.len() == 1 => Ok(v[0]),
                    _ => bail!("comparator '{name}' does not return a pred scalar"),
                }
            })?,
        }
        perm.extend_from_slice(&idx);
    }
    // perm lists, slice by slice, source offsets in sorted order; place
    // them at the slice positions.
    let mut gather = vec![0usize; total_count];
    for (s, &base) in bases.iter().enumerate() {
        for i in 0..len {
            gather[base + i * step] = perm[s * len + i];
        }
    }
    let outs = inputs.iter().map(|x| Literal::array(dims.to_vec(), x.select(&gather))).collect();
    finish_variadic(inst, outs)
}

// ---------------------------------------------------------------------------
// topk

fn topk(_: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (dims, data) = operand(operands, 0)?;
    let k = super::movement::int_attr(inst, "k")?;
    let largest = match attr(inst, "largest") {
        Some(v) => attrs::boolean(v).map_err(attr_error)?,
        None => true,
    };
    let Some(&n) = dims.last() else { bail!("topk of a scalar") };
    if k < 0 || k > n {
        bail!("k = {k} is out of range for a last dimension of {n}");
    }
    let keys = keys_of(data, true).ok_or_else(|| EvalError::new(format!("topk of {}", data.element_type().name())))?;
    let (n, k) = (n as usize, k as usize);
    let rows = data.len().checked_div(n).unwrap_or_else(|| element_count(&dims[..dims.len() - 1]));
    let mut out_dims = dims.to_vec();
    *out_dims.last_mut().unwrap() = k as i64;
    let mut picks: Vec<usize> = Vec::with_capacity(rows * k);
    let mut indices: Vec<i32> = Vec::with_capacity(rows * k);
    let mut idx: Vec<usize> = Vec::with_capacity(n);
    for r in 0..rows {
        idx.clear();
        idx.extend(r * n..(r + 1) * n);
        let cmp = |a: &usize, b: &usize| -> std::cmp::Ordering {
            let o = match &keys {
                Keys::I(v) => v[*a].cmp(&v[*b]),
                Keys::U(v) => v[*a].cmp(&v[*b]),
                Keys::F(v) => v[*a].total_cmp(&v[*b]),
            };
            (if largest { o.reverse() } else { o }).then(a.cmp(b))
        };
        if k > 0 && k < n {
            idx.select_nth_unstable_by(k - 1, cmp);
        }
        idx.truncate(k);
        idx.sort_by(cmp);
        picks.extend_from_slice(&idx);
        indices.extend(idx.iter().map(|&i| (i - r * n) as i32));
    }
    let values = Literal::array(out_dims.clone(), data.select(&picks));
    let indices = Literal::array(out_dims, Data::S32(indices));
    finish_variadic(inst, vec![values, indices])
}

// ---------------------------------------------------------------------------
// scan

/// `scan(inputs..., inits...)`, `num_carries` (k) trailing operands being
/// the inits: `to_apply` runs once per position along `dimensions={d}`
/// (from N-1 down to 0 when `is_reverse`), on the m input slices at that
/// position then the k carries, and returns n output slices then the k new
/// carries. The result is the n outputs stacked along d, then the k final
/// carries (a tuple unless the shape is a lone array). `is_associative`
/// is a hint only: evaluation is always sequential.
fn scan(interp: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let k = match attr(inst, "num_carries") {
        Some(v) => attrs::integer(v).map_err(attr_error)?,
        None => bail!("scan needs num_carries"),
    };
    if k < 0 || k as usize > operands.len() {
        bail!("scan has num_carries {k} but {} operands", operands.len());
    }
    let k = k as usize;
    let m = operands.len() - k;
    let dim = match dims_attr(inst, "dimensions")?.as_slice() {
        [d] => *d,
        other => bail!("scan needs exactly one dimension, got {other:?}"),
    };
    let reverse = match attr(inst, "is_reverse") {
        Some(v) => attrs::boolean(v).map_err(attr_error)?,
        None => false,
    };
    let to_apply = match attr(inst, "to_apply") {
        Some(v) => attrs::computation(v).map_err(attr_error)?,
        None => bail!("scan needs to_apply"),
    };
    let shapes: Vec<&Shape> = match &inst.shape {
        Shape::Tuple(e) => e.iter().collect(),
        s => vec![s],
    };
    if shapes.len() < k {
        bail!("scan declares {} results but has {k} carries", shapes.len());
    }
    let n = shapes.len() - k;
    let mut outs = Vec::with_capacity(n);
    for s in &shapes[..n] {
        let (t, dims) = array_shape(s)?;
        let d = check_dim(dim, dims.len(), "scan dimension")?;
        outs.push((t, dims, d));
    }
    // The scanned length N, from the inputs (or the outputs when none).
    let mut length: Option<i64> = None;
    for (i, lit) in operands[..m].iter().enumerate() {
        let dims = lit.dims();
        let d = check_dim(dim, dims.len(), "scan dimension")?;
        match length {
            Some(l) if l != dims[d] => bail!("scan input {i} has size {} along dimension {d}, not {l}", dims[d]),
            _ => length = Some(dims[d]),
        }
    }
    for (i, (_, dims, d)) in outs.iter().enumerate() {
        match length {
            Some(l) if l != dims[*d] => bail!("scan result {i} has size {} along dimension {d}, not {l}", dims[*d]),
            _ => length = Some(dims[*d]),
        }
    }
    let length = length.unwrap_or(0).max(0) as usize;
    let split = |dims: &[i64], d: usize| -> (usize, usize) {
        let outer: usize = dims[..d].iter().map(|&x| x.max(0) as usize).product();
        let inner: usize = dims[d + 1..].iter().map(|&x| x.max(0) as usize).product();
        (outer, inner)
    };
    let mut out_data: Vec<Data> = outs.iter().map(|(t, dims, _)| Data::zeros(*t, element_count(dims))).collect();
    let mut carries: Vec<Literal> = operands[m..].iter().map(|l| (*l).clone()).collect();
    for step in 0..length {
        let pos = if reverse { length - 1 - step } else { step };
        let mut args = Vec::with_capacity(m + k);
        for lit in &operands[..m] {
            let Literal::Array { dims, data } = lit else { bail!("scan input is not an array") };
            let d = dim as usize;
            let (outer, inner) = split(dims, d);
            let size = dims[d] as usize;
            let mut indices = Vec::with_capacity(outer * inner);
            for o in 0..outer {
                let start = (o * size + pos) * inner;
                indices.extend(start..start + inner);
            }
            let mut slice_dims = dims.clone();
            slice_dims.remove(d);
            args.push(Literal::array(slice_dims, data.select(&indices)));
        }
        args.extend(carries.iter().cloned());
        let result = interp.call(&to_apply, &args)?;
        let mut values = match result {
            Literal::Tuple(e) => e,
            other => vec![other],
        };
        if values.len() != n + k {
            bail!("scan's to_apply returned {} values, expected {}", values.len(), n + k);
        }
        carries = values.split_off(n);
        for (j, y) in values.iter().enumerate() {
            let (t, dims, d) = &outs[j];
            let mut expect = dims.clone();
            expect.remove(*d);
            let Literal::Array { dims: ydims, data: ydata } = y else { bail!("scan output {j} is not an array") };
            if *ydims != expect || ydata.element_type() != *t {
                bail!("scan output {j} at one position is {ydims:?}, expected {expect:?}");
            }
            let (outer, inner) = split(dims, *d);
            for o in 0..outer {
                for i in 0..inner {
                    out_data[j].set_from((o * length + pos) * inner + i, ydata, o * inner + i);
                }
            }
        }
    }
    let mut results: Vec<Literal> =
        outs.into_iter().zip(out_data).map(|((_, dims, _), data)| Literal::array(dims, data)).collect();
    results.extend(carries);
    match &inst.shape {
        Shape::Tuple(_) => Ok(Literal::Tuple(results)),
        _ => Ok(results.pop().expect("one result")),
    }
}
