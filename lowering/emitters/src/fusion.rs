//! A fused computation (or a reducer) as the emitters see it: parameters,
//! instructions in topological order with their operands and result
//! shapes, users, and roots. Built once from the `func.func` of the `hlo`
//! dialect; everything after works on indices into it.

use crate::EmitError;
use rxla_indexing::{OpAttrs, OpDesc, PadDim};
use rxla_ir::{
    attrs::StructAttr,
    computation,
    op::{Op, Value},
    types::{ElementType, HloType, TensorType},
};
use std::collections::HashMap;

/// A value of the computation: a parameter or a result of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Val {
    Param(usize),
    /// (instruction, result number)
    Res(usize, usize),
}

impl Val {
    pub fn instr(self) -> Option<usize> {
        match self {
            Val::Res(i, _) => Some(i),
            Val::Param(_) => None,
        }
    }
}

/// One op of the computation.
#[derive(Clone, Debug)]
pub struct Instr {
    pub op: Op,
    /// The op name without `hlo.` (`add`, `dynamic_slice`).
    pub opcode: String,
    pub operands: Vec<Val>,
    pub results: Vec<TensorType>,
}

impl Instr {
    pub fn is(&self, opcode: &str) -> bool {
        self.opcode == opcode
    }

    /// The shape of result 0.
    pub fn shape(&self) -> &TensorType {
        &self.results[0]
    }
}

/// A computation ready for emission.
#[derive(Clone, Debug)]
pub struct Computation {
    pub name: String,
    pub func: Op,
    pub params: Vec<TensorType>,
    pub instrs: Vec<Instr>,
    /// The returned values (a returned `hlo.tuple` is flattened).
    pub roots: Vec<Val>,
    /// Per instruction: (user, operand slot) pairs, in order.
    pub users: Vec<Vec<(usize, usize)>>,
    /// Per parameter: (user, operand slot) pairs.
    pub param_users: Vec<Vec<(usize, usize)>>,
}

impl Computation {
    /// Reads a `func.func` of `hlo` ops.
    pub fn from_func(func: Op) -> Result<Computation, EmitError> {
        let name = computation::name(func);
        let err = |m: String| EmitError::new(&name, m);
        let args = func.arguments();
        let mut values: HashMap<Value, Val> = HashMap::new();
        let mut params = Vec::new();
        for (i, a) in args.iter().enumerate() {
            values.insert(*a, Val::Param(i));
            params.push(
                tensor_type(a.ty()).ok_or_else(|| {
                    err(format!("parameter {i} has type {} (only static arrays are supported)", a.ty()))
                })?,
            );
        }
        let Some(block) = func.region_block(0) else {
            return Err(err("the computation has no body".into()));
        };
        let _ = block;
        let ops: Vec<Op> = func.body_ops();
        let mut instrs: Vec<Instr> = Vec::new();
        let mut roots = Vec::new();
        let mut tuples: HashMap<Value, Vec<Val>> = HashMap::new();
        for op in ops {
            let full = op.name();
            if full == "func.return" {
                for v in op.operands() {
                    if let Some(items) = tuples.get(&v) {
                        roots.extend(items.iter().copied());
                    } else {
                        roots.push(*values.get(&v).ok_or_else(|| err("return of an unknown value".into()))?);
                    }
                }
                continue;
            }
            let Some(opcode) = full.strip_prefix("hlo.") else {
                return Err(err(format!("op `{full}` is not an hlo op")));
            };
            let mut operands = Vec::new();
            for v in op.operands() {
                match values.get(&v) {
                    Some(x) => operands.push(*x),
                    None if tuples.contains_key(&v) => {
                        return Err(err(format!("`hlo.{opcode}` uses a tuple: internal tuples are not supported")))
                    }
                    None => return Err(err(format!("`hlo.{opcode}` uses a value defined outside the computation"))),
                }
            }
            if opcode == "tuple" {
                // Only as the returned value (XLA's tuple root).
                tuples.insert(op.result(0), operands);
                continue;
            }
            let mut results = Vec::new();
            for r in 0..op.num_results() {
                let ty = op.result(r).ty();
                results.push(tensor_type(ty.clone()).ok_or_else(|| {
                    err(format!("`hlo.{opcode}` has a result of type {ty} (only static arrays are supported)"))
                })?);
            }
            let id = instrs.len();
            for r in 0..op.num_results() {
                values.insert(op.result(r), Val::Res(id, r));
            }
            instrs.push(Instr { op, opcode: opcode.to_string(), operands, results });
        }
        if roots.is_empty() {
            return Err(err("the computation returns nothing".into()));
        }
        let mut users = vec![Vec::new(); instrs.len()];
        let mut param_users = vec![Vec::new(); params.len()];
        for (i, ins) in instrs.iter().enumerate() {
            for (slot, v) in ins.operands.iter().enumerate() {
                match v {
                    Val::Res(j, _) => users[*j].push((i, slot)),
                    Val::Param(p) => param_users[*p].push((i, slot)),
                }
            }
        }
        Ok(Computation { name, func, params, instrs, roots, users, param_users })
    }

    /// The array type of a value.
    pub fn ty(&self, v: Val) -> &TensorType {
        match v {
            Val::Param(p) => &self.params[p],
            Val::Res(i, r) => &self.instrs[i].results[r],
        }
    }

    pub fn instr(&self, i: usize) -> &Instr {
        &self.instrs[i]
    }

    /// True if instruction `i` (any result) is returned.
    pub fn is_root(&self, i: usize) -> bool {
        self.roots.iter().any(|r| r.instr() == Some(i))
    }

    /// Number of uses of instruction `i` inside the computation (operand
    /// slots, not counting the return).
    pub fn num_uses(&self, i: usize) -> usize {
        self.users[i].len()
    }

    /// The distinct users of instruction `i`.
    pub fn distinct_users(&self, i: usize) -> Vec<usize> {
        let mut out: Vec<usize> = self.users[i].iter().map(|u| u.0).collect();
        out.sort();
        out.dedup();
        out
    }

    /// The callee of `to_apply` (reduce, reduce-window, scatter).
    pub fn to_apply(&self, i: usize) -> Option<String> {
        self.instrs[i].op.symbol_attr("to_apply")
    }

    /// Every instruction with the given opcode.
    pub fn find_all(&self, opcode: &str) -> Vec<usize> {
        (0..self.instrs.len()).filter(|&i| self.instrs[i].is(opcode)).collect()
    }

    /// The indexing-library description of a structural instruction `i`
    /// (HLO opcode spelling, shapes and the attributes its indexing needs),
    /// or `None` for other ops (elementwise ops are the identity; the
    /// callers handle them).
    pub fn op_desc(&self, i: usize) -> Option<OpDesc> {
        let ins = &self.instrs[i];
        let op = ins.op;
        let operand_shapes: Vec<Vec<i64>> = ins.operands.iter().map(|v| self.ty(*v).dims.clone()).collect();
        let result_shapes: Vec<Vec<i64>> = ins.results.iter().map(|t| t.dims.clone()).collect();
        let mut attrs = OpAttrs::default();
        match ins.opcode.as_str() {
            "broadcast" => attrs.broadcast_dimensions = op.dims_attr("dimensions")?,
            "transpose" => attrs.permutation = op.dims_attr("dimensions")?,
            "reverse" => attrs.reverse_dimensions = op.dims_attr("dimensions")?,
            "slice" => {
                attrs.slice_starts = op.dims_attr("start_indices")?;
                attrs.slice_strides = op.dims_attr("strides")?;
            }
            "pad" => {
                let lo = op.dims_attr("edge_padding_low")?;
                let hi = op.dims_attr("edge_padding_high")?;
                let interior = op.dims_attr("interior_padding")?;
                attrs.padding =
                    (0..lo.len()).map(|d| PadDim { low: lo[d], high: hi[d], interior: interior[d] }).collect();
            }
            "concatenate" => attrs.concat_dimension = Some(op.int_attr("dimension")?),
            "reduce" => attrs.reduce_dimensions = op.dims_attr("dimensions")?,
            "iota" => attrs.iota_dimension = Some(op.int_attr("iota_dimension")?),
            "dynamic_slice" => attrs.dynamic_slice_sizes = op.dims_attr("slice_sizes")?,
            "reshape" | "bitcast" | "dynamic_update_slice" => {}
            _ => return None,
        }
        Some(OpDesc { opcode: hlo_opcode(&ins.opcode), operand_shapes, result_shapes, attrs })
    }
}

/// The HLO spelling of a dialect op name (`dynamic_slice` ->
/// `dynamic-slice`).
pub fn hlo_opcode(opcode: &str) -> String {
    opcode.replace('_', "-")
}

/// The static array type of `ty`.
fn tensor_type(ty: HloType) -> Option<TensorType> {
    match ty {
        HloType::Tensor(t) if t.dims.iter().all(|&d| d >= 0) => Some(t),
        _ => None,
    }
}

/// The MLIR element type the kernel IR uses: integers are signless (`ui8`
/// is `i8`; signedness is in the ops), everything else is unchanged.
pub fn mlir_elem(elem: &ElementType) -> String {
    if elem.is_unsigned_int() {
        format!("i{}", elem.bit_width())
    } else {
        elem.0.clone()
    }
}

/// The kernel-IR tensor type of an array.
pub fn mlir_tensor(t: &TensorType) -> String {
    let mut s = String::from("tensor<");
    for d in &t.dims {
        s.push_str(&format!("{d}x"));
    }
    s.push_str(&mlir_elem(&t.elem));
    s.push('>');
    s
}

/// Gather dimension numbers (`#hlo.gather<...>`) of instruction `op`.
pub fn struct_list(op: Op, attr: &str, field: &str) -> Vec<i64> {
    StructAttr::of(op, attr).map(|s| s.list(field)).unwrap_or_default()
}

/// A raw field of a struct attribute (`index_vector_dim = 1`).
pub fn struct_int(op: Op, attr: &str, field: &str) -> Option<i64> {
    StructAttr::of(op, attr)?.raw(field)?.trim().parse().ok()
}
