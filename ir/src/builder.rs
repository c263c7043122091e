//! Creating `hlo` ops from Rust, with result types inferred where HLO's
//! shape rules determine them.
//!
//! A [`Builder`] inserts new ops before an op, at the end of a block, or
//! through a pattern's rewriter (so the greedy driver sees them). Each typed
//! helper returns the new op's result and builds its types and attributes
//! through the C API (the `hlo` dialect's enum and struct attributes
//! through its own, [`crate::attrs`]); [`Builder::create`] makes any op
//! from its name, operands, result types and built attributes.

use crate::{
    attrs::DotDims,
    op::{string_ref, Op, Value},
    pass::PassError,
    types::{shape, ElementType, HloType, TensorType},
};
use mlir_sys::*;

/// The parts of an operation of any registered dialect, for
/// [`create_detached`].
pub struct OpParts<'a> {
    pub name: &'a str,
    pub operands: &'a [Value],
    /// The result types; `None` infers them (ops with
    /// `InferTypeOpInterface`).
    pub results: Option<&'a [MlirType]>,
    /// Inherent and discardable attributes alike, by name.
    pub attrs: &'a [(&'a str, MlirAttribute)],
    /// Regions the op takes ownership of.
    pub regions: Vec<MlirRegion>,
}

/// Creates an op from its parts, not inserted anywhere. `None` when MLIR
/// refuses it (an unknown op name, result types it cannot infer); MLIR's
/// diagnostic went to the context's handlers.
pub fn create_detached(context: MlirContext, location: MlirLocation, parts: &OpParts) -> Option<Op> {
    let named: Vec<MlirNamedAttribute> = parts
        .attrs
        .iter()
        .map(|(key, attr)| MlirNamedAttribute {
            name: unsafe { mlirIdentifierGet(context, string_ref(key)) },
            attribute: *attr,
        })
        .collect();
    let raw_operands: Vec<MlirValue> = parts.operands.iter().map(|v| v.0).collect();
    // SAFETY: every handle is live in `context`; the state is consumed by
    // `mlirOperationCreate`, which takes ownership of the regions.
    let op = unsafe {
        let mut state = mlirOperationStateGet(string_ref(parts.name), location);
        mlirOperationStateAddOperands(&mut state, raw_operands.len() as isize, raw_operands.as_ptr());
        match parts.results {
            Some(types) => mlirOperationStateAddResults(&mut state, types.len() as isize, types.as_ptr()),
            None => mlirOperationStateEnableResultTypeInference(&mut state),
        }
        mlirOperationStateAddAttributes(&mut state, named.len() as isize, named.as_ptr());
        mlirOperationStateAddOwnedRegions(&mut state, parts.regions.len() as isize, parts.regions.as_ptr());
        mlirOperationCreate(&mut state)
    };
    (!op.ptr.is_null()).then(|| Op::from_raw(op))
}

/// A new region holding one block with arguments of `types` (at `loc`);
/// the caller owns the region until an op takes it.
pub fn region_with_block(types: &[MlirType], loc: MlirLocation) -> (MlirRegion, MlirBlock) {
    // SAFETY: fresh, detached region and block.
    unsafe {
        let region = mlirRegionCreate();
        let locs = vec![loc; types.len()];
        let block = mlirBlockCreate(types.len() as isize, types.as_ptr(), locs.as_ptr());
        mlirRegionAppendOwnedBlock(region, block);
        (region, block)
    }
}

/// The arguments of `block`.
pub fn block_args(block: MlirBlock) -> Vec<Value> {
    unsafe { (0..mlirBlockGetNumArguments(block)).map(|i| Value(mlirBlockGetArgument(block, i))).collect() }
}

/// `arith::CmpIPredicate`'s value of a predicate's spelling (`eq`, `slt`,
/// `uge`, ...).
pub fn cmpi_predicate(pred: &str) -> Option<i64> {
    ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
        .iter()
        .position(|&q| q == pred)
        .map(|i| i as i64)
}

/// `arith::CmpFPredicate`'s value of a predicate's spelling (`oeq`, `olt`,
/// `uno`, ...).
pub fn cmpf_predicate(pred: &str) -> Option<i64> {
    ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"]
        .iter()
        .position(|&q| q == pred)
        .map(|i| i as i64)
}

/// Where a builder puts new ops.
#[derive(Clone, Copy, Debug)]
pub enum InsertPoint {
    /// Right before this op.
    Before(MlirOperation),
    /// At the end of this block.
    End(MlirBlock),
    /// At the rewriter's insertion point (inside a pattern).
    Rewriter(MlirRewriterBase),
}

/// Creates ops at one insertion point with one location.
#[derive(Clone, Copy, Debug)]
pub struct Builder {
    context: MlirContext,
    location: MlirLocation,
    at: InsertPoint,
}

type Result<T> = std::result::Result<T, PassError>;

fn bug(what: String) -> PassError {
    PassError(format!("internal error: {what}"))
}

impl Builder {
    /// Inserts before `op`, at `op`'s location.
    pub fn before(op: Op) -> Self {
        Self { context: op.context(), location: op.location(), at: InsertPoint::Before(op.raw()) }
    }

    /// Inserts at the end of `block`.
    pub fn at_end(block: MlirBlock, context: MlirContext, location: MlirLocation) -> Self {
        Self { context, location, at: InsertPoint::End(block) }
    }

    /// Inserts through a rewriter (its current insertion point), at `op`'s
    /// location.
    pub fn rewriter(rewriter: MlirRewriterBase, op: Op) -> Self {
        Self { context: op.context(), location: op.location(), at: InsertPoint::Rewriter(rewriter) }
    }

    /// The same builder with another location for new ops.
    pub fn at_location_of(mut self, op: Op) -> Self {
        self.location = op.location();
        self
    }

    pub fn context(&self) -> MlirContext {
        self.context
    }

    /// Creates `name` with operands, result types and attributes, inserted
    /// at the builder's point.
    pub fn create(
        &self,
        name: &str,
        operands: &[Value],
        results: &[HloType],
        attrs: &[(&str, MlirAttribute)],
    ) -> Result<Op> {
        let result_types: Vec<MlirType> = results
            .iter()
            .map(|t| t.to_mlir(self.context).ok_or_else(|| bug(format!("bad type {t}"))))
            .collect::<Result<_>>()?;
        let op = create_detached(
            self.context,
            self.location,
            &OpParts { name, operands, results: Some(&result_types), attrs, regions: Vec::new() },
        )
        .ok_or_else(|| bug(format!("could not create {name}")))?;
        self.insert(op.raw());
        Ok(op)
    }

    /// Inserts a detached op (e.g. a clone) at the builder's point.
    pub fn insert(&self, op: MlirOperation) {
        unsafe {
            match self.at {
                InsertPoint::Before(before) => {
                    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before, op)
                }
                InsertPoint::End(block) => {
                    // Before the terminator if the block has one.
                    let term = mlirBlockGetTerminator(block);
                    if term.ptr.is_null() {
                        mlirBlockAppendOwnedOperation(block, op)
                    } else {
                        mlirBlockInsertOwnedOperationBefore(block, term, op)
                    }
                }
                InsertPoint::Rewriter(rw) => {
                    mlirRewriterBaseInsert(rw, op);
                }
            }
        }
    }

    /// The array type of `v` (an error for tuples and tokens).
    pub fn tensor(v: Value) -> Result<TensorType> {
        v.ty().into_tensor().ok_or_else(|| bug(format!("expected an array operand, got {}", v.ty())))
    }

    /// `hlo.<opcode>` with one operand and its type (negate, exp, abs, ...).
    pub fn unary(&self, opcode: &str, x: Value) -> Result<Value> {
        self.value(&format!("hlo.{opcode}"), &[x], x.ty(), &[])
    }

    /// Creates a single-result op and returns the result.
    pub fn value(
        &self,
        name: &str,
        operands: &[Value],
        result: HloType,
        attrs: &[(&str, MlirAttribute)],
    ) -> Result<Value> {
        Ok(self.create(name, operands, &[result], attrs)?.result(0))
    }

    /// `array<i64: ...>`.
    pub fn dims_attr(&self, dims: &[i64]) -> MlirAttribute {
        crate::attrs::dims(self.context, dims)
    }

    /// An `i64` integer attribute.
    pub fn i64_attr(&self, v: i64) -> MlirAttribute {
        crate::attrs::integer(self.context, v)
    }

    /// An `hlo` struct attribute (dimension numbers, a window); an error if
    /// it does not verify.
    pub fn struct_attr(&self, value: &crate::attrs::StructAttr) -> Result<MlirAttribute> {
        value.to_attr(self.context).ok_or_else(|| bug(format!("bad attribute {}", value.to_text())))
    }

    /// `@name`.
    pub fn symbol_ref(&self, name: &str) -> MlirAttribute {
        crate::attrs::symbol_ref(self.context, name)
    }

    /// `hlo.<opcode>` with two operands of one type (add, multiply, ...).
    pub fn binary(&self, opcode: &str, a: Value, b: Value) -> Result<Value> {
        self.value(&format!("hlo.{opcode}"), &[a, b], a.ty(), &[])
    }

    pub fn add(&self, a: Value, b: Value) -> Result<Value> {
        self.binary("add", a, b)
    }
    pub fn subtract(&self, a: Value, b: Value) -> Result<Value> {
        self.binary("subtract", a, b)
    }
    pub fn multiply(&self, a: Value, b: Value) -> Result<Value> {
        self.binary("multiply", a, b)
    }
    pub fn divide(&self, a: Value, b: Value) -> Result<Value> {
        self.binary("divide", a, b)
    }

    /// `hlo.compare` in direction `dir` (EQ, NE, LT, LE, GT, GE), with an
    /// optional comparison type (FLOAT, TOTALORDER, SIGNED, UNSIGNED).
    pub fn compare(&self, dir: &str, a: Value, b: Value, compare_type: Option<&str>) -> Result<Value> {
        let t = Self::tensor(a)?;
        let enum_attr = |kind: &str, case: &str| {
            crate::attrs::enum_attr(self.context, kind, case).ok_or_else(|| bug(format!("bad {kind} '{case}'")))
        };
        let mut attrs = vec![("comparison_direction", enum_attr("comparison_direction", dir)?)];
        if let Some(ct) = compare_type {
            attrs.push(("compare_type", enum_attr("comparison_type", ct)?));
        }
        self.value("hlo.compare", &[a, b], t.with_elem(&ElementType::new("i1")).into(), &attrs)
    }

    /// `hlo.select`.
    pub fn select(&self, pred: Value, on_true: Value, on_false: Value) -> Result<Value> {
        self.value("hlo.select", &[pred, on_true, on_false], on_true.ty(), &[])
    }

    /// `hlo.convert` to `elem`.
    pub fn convert(&self, x: Value, elem: &ElementType) -> Result<Value> {
        let t = Self::tensor(x)?;
        self.value("hlo.convert", &[x], t.with_elem(elem).into(), &[])
    }

    /// `hlo.broadcast` (XLA's broadcast-in-dim): operand dim i goes to
    /// result dim `dims[i]`.
    pub fn broadcast(&self, x: Value, dims: &[i64], out: &[i64]) -> Result<Value> {
        let t = Self::tensor(x)?;
        self.value("hlo.broadcast", &[x], t.with_dims(out).into(), &[("dimensions", self.dims_attr(dims))])
    }

    /// A scalar broadcast to `out`.
    pub fn broadcast_scalar(&self, x: Value, out: &[i64]) -> Result<Value> {
        self.broadcast(x, &[], out)
    }

    /// `hlo.reshape` to `dims`.
    pub fn reshape(&self, x: Value, dims: &[i64]) -> Result<Value> {
        let t = Self::tensor(x)?;
        self.value("hlo.reshape", &[x], t.with_dims(dims).into(), &[])
    }

    /// `hlo.bitcast` to `ty` (same bytes, a layout change).
    pub fn bitcast(&self, x: Value, ty: &TensorType) -> Result<Value> {
        self.value("hlo.bitcast", &[x], ty.clone().into(), &[])
    }

    /// `hlo.transpose` by `perm` (result dim i is operand dim perm[i]).
    pub fn transpose(&self, x: Value, perm: &[i64]) -> Result<Value> {
        let t = Self::tensor(x)?;
        let dims = shape::permute(&t.dims, perm);
        self.value("hlo.transpose", &[x], t.with_dims(&dims).into(), &[("dimensions", self.dims_attr(perm))])
    }

    /// `hlo.slice`.
    pub fn slice(&self, x: Value, start: &[i64], limit: &[i64], strides: &[i64]) -> Result<Value> {
        let t = Self::tensor(x)?;
        let dims: Vec<i64> = (0..start.len())
            .map(|i| if limit[i] <= start[i] { 0 } else { (limit[i] - start[i] + strides[i] - 1) / strides[i] })
            .collect();
        self.value(
            "hlo.slice",
            &[x],
            t.with_dims(&dims).into(),
            &[
                ("start_indices", self.dims_attr(start)),
                ("limit_indices", self.dims_attr(limit)),
                ("strides", self.dims_attr(strides)),
            ],
        )
    }

    /// `hlo.concatenate` along `dim`.
    pub fn concatenate(&self, xs: &[Value], dim: i64) -> Result<Value> {
        let mut t = Self::tensor(xs[0])?;
        t.dims[dim as usize] =
            xs.iter().map(|x| Self::tensor(*x).map(|t| t.dims[dim as usize])).sum::<Result<i64>>()?;
        self.value("hlo.concatenate", xs, t.into(), &[("dimension", self.i64_attr(dim))])
    }

    /// `hlo.pad`.
    pub fn pad(&self, x: Value, value: Value, low: &[i64], high: &[i64], interior: &[i64]) -> Result<Value> {
        let t = Self::tensor(x)?;
        let dims: Vec<i64> = (0..t.rank())
            .map(|i| {
                let d = t.dims[i];
                low[i] + high[i] + d + if d > 0 { (d - 1) * interior[i] } else { 0 }
            })
            .collect();
        self.value(
            "hlo.pad",
            &[x, value],
            t.with_dims(&dims).into(),
            &[
                ("edge_padding_low", self.dims_attr(low)),
                ("edge_padding_high", self.dims_attr(high)),
                ("interior_padding", self.dims_attr(interior)),
            ],
        )
    }

    /// `hlo.reverse` along `dims`.
    pub fn reverse(&self, x: Value, dims: &[i64]) -> Result<Value> {
        self.value("hlo.reverse", &[x], x.ty(), &[("dimensions", self.dims_attr(dims))])
    }

    /// `hlo.constant` from a dense attribute's text (`dense<...> : tensor<...>`).
    pub fn constant_attr(&self, attr: MlirAttribute, ty: &TensorType) -> Result<Value> {
        self.value("hlo.constant", &[], ty.clone().into(), &[("value", attr)])
    }

    /// `hlo.iota` of `ty` along `dim`.
    pub fn iota(&self, ty: &TensorType, dim: i64) -> Result<Value> {
        self.value("hlo.iota", &[], ty.clone().into(), &[("iota_dimension", self.i64_attr(dim))])
    }

    /// `hlo.dot` with `dims`; the result has element type `elem`. The
    /// precision config is kept if given.
    pub fn dot(
        &self,
        lhs: Value,
        rhs: Value,
        dims: &DotDims,
        elem: &ElementType,
        precision: Option<MlirAttribute>,
    ) -> Result<Value> {
        let (l, r) = (Self::tensor(lhs)?, Self::tensor(rhs)?);
        let out = TensorType::new(&dims.result_dims(&l.dims, &r.dims), elem);
        let dot_dims = dims.to_attr(self.context).ok_or_else(|| bug(format!("bad dot dimension numbers {dims:?}")))?;
        let mut attrs = vec![("dot_dimension_numbers", dot_dims)];
        if let Some(p) = precision {
            attrs.push(("precision_config", p));
        }
        self.value("hlo.dot", &[lhs, rhs], out.into(), &attrs)
    }

    /// `hlo.tuple`.
    pub fn tuple(&self, xs: &[Value]) -> Result<Value> {
        let ty = HloType::Tuple(xs.iter().map(|x| x.ty()).collect());
        self.value("hlo.tuple", xs, ty, &[])
    }

    /// `hlo.get_tuple_element` `i` of `x`.
    pub fn get_tuple_element(&self, x: Value, i: usize) -> Result<Value> {
        let HloType::Tuple(items) = x.ty() else {
            return Err(bug(format!("get_tuple_element of non-tuple {}", x.ty())));
        };
        let ty = items.get(i).cloned().ok_or_else(|| bug(format!("tuple index {i} out of range")))?;
        self.value("hlo.get_tuple_element", &[x], ty, &[("index", self.i64_attr(i as i64))])
    }

    /// `hlo.reduce` of `operands` with `inits` over `dims`, calling
    /// `to_apply`; one result per operand.
    pub fn reduce(&self, operands: &[Value], inits: &[Value], dims: &[i64], to_apply: &str) -> Result<Vec<Value>> {
        let results: Vec<HloType> = operands
            .iter()
            .map(|x| Self::tensor(*x).map(|t| t.with_dims(&shape::remove_dims(&t.dims, dims)).into()))
            .collect::<Result<_>>()?;
        let all: Vec<Value> = operands.iter().chain(inits).copied().collect();
        let op = self.create(
            "hlo.reduce",
            &all,
            &results,
            &[("dimensions", self.dims_attr(dims)), ("to_apply", self.symbol_ref(to_apply))],
        )?;
        Ok(op.results())
    }

    /// `hlo.call` of `callee`.
    pub fn call(&self, callee: &str, args: &[Value], results: &[HloType]) -> Result<Vec<Value>> {
        Ok(self.create("hlo.call", args, results, &[("to_apply", self.symbol_ref(callee))])?.results())
    }

    /// `func.return` of `values` (the builder must be at a block's end).
    pub fn ret(&self, values: &[Value]) -> Result<Op> {
        self.create("func.return", values, &[], &[])
    }
}

/// A symbol name as it appears after `@` (quoted when not a bare id).
pub fn quote_symbol(name: &str) -> String {
    let bare = !name.is_empty()
        && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || "_$.-".contains(c));
    if bare {
        name.to_string()
    } else {
        format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// Helpers the expander passes share (XLA's hlo_creation_utils).
impl Builder {
    /// `hlo.bitcast_convert` of `x` to element type `elem` (same width).
    pub fn bitcast_convert(&self, x: Value, elem: &ElementType) -> Result<Value> {
        let t = Self::tensor(x)?;
        self.value("hlo.bitcast_convert", &[x], t.with_elem(elem).into(), &[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predicates_have_arith_enum_values() {
        assert_eq!(cmpi_predicate("eq"), Some(0));
        assert_eq!(cmpi_predicate("uge"), Some(9));
        assert_eq!(cmpf_predicate("olt"), Some(4));
        assert_eq!(cmpf_predicate("uno"), Some(14));
        assert_eq!(cmpf_predicate("lt"), None);
    }
}
