//! `constant_folding`: evaluates instructions whose operands are all
//! constants, with the reference interpreter, and replaces them with the
//! constant result (XLA's HloConstantFolding).
//!
//! Operands count as constant when they are `hlo.constant`s or cheap
//! expressions of constants (broadcast/iota/reshape of constants), which
//! XLA's folder also looks through. Like XLA, broadcasts and iotas are not
//! folded themselves (they would only make the module bigger), nor is
//! anything with side effects, rng, loops, or results over the size bound.
//! Folding uses the interpreter, so the folded value is exactly what
//! evaluating the op would give.

use melior::ir::{Module, OperationRef};
use mlir_sys::*;
use rxla_interpreter::{Data, Interpreter, Literal};
use rxla_ir::{
    builder::Builder,
    computation,
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::{HloType, TensorType},
};
use std::collections::{HashMap, HashSet};

#[derive(Clone, Debug)]
pub struct ConstantFolding {
    /// Largest result (and total operand) element count folded.
    max_elements: i64,
}

impl HloPass for ConstantFolding {
    const NAME: &'static str = "constant_folding";
    const DESCRIPTION: &'static str =
        "Evaluate instructions with constant operands with the interpreter and replace them by constants";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &["max-elements"])?;
        Ok(Self { max_elements: options.int("max-elements", 1 << 20)? })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        for func in computation::functions(module) {
            for op in func.walk_preorder().into_iter().skip(1) {
                if self.foldable(op) {
                    fold(module, op)?;
                }
            }
        }
        crate::dce::remove_dead_instructions(module);
        Ok(())
    }
}

/// Ops never folded: cheap generators (folding them only grows the
/// module), effects and nondeterminism, and control flow.
const NOT_FOLDED: &[&str] = &[
    "constant",
    "broadcast",
    "iota",
    "tuple",
    "get_tuple_element",
    "while",
    "conditional",
    "rng",
    "rng_bit_generator",
    "rng_get_and_update_state",
    "custom_call",
    "after_all",
    "replica_id",
    "partition_id",
    "optimization_barrier",
    "add_dependency",
    "get_dimension_size",
    "set_dimension_size",
    "domain",
];

/// Generators a constant operand may be built from.
const CONSTANT_EXPRESSION: &[&str] = &["constant", "broadcast", "iota", "reshape", "convert"];

impl ConstantFolding {
    fn foldable(&self, op: Op) -> bool {
        // First the test almost every op fails, and the cheapest: its
        // operands are constant expressions (the pass looks at every op
        // of the module, each time the simplification group runs).
        if op.num_results() != 1
            || op.num_operands() == 0
            || !op.operands().into_iter().all(|v| is_constant_expression(v, 4))
        {
            return false;
        }
        if !op.name().starts_with("hlo.") || NOT_FOLDED.contains(&op.opcode().as_str()) {
            return false;
        }
        let Some(result) = op.result_type(0).tensor().cloned() else { return false };
        if result.num_elements() > self.max_elements {
            return false;
        }
        let mut operand_elements = 0;
        for v in op.operands() {
            match v.ty() {
                HloType::Tensor(t) => operand_elements += t.num_elements(),
                _ => return false,
            }
        }
        if operand_elements > self.max_elements {
            return false;
        }
        // Effects (also inside called computations) rule folding out.
        if !rxla_dialects::is_memory_effect_free(&unsafe { op.as_ref() }) {
            return false;
        }
        let Some(module) = op.parent_module() else { return false };
        callees(module, op).iter().all(|f| {
            f.walk_preorder()
                .into_iter()
                .skip(1)
                .all(|o| o.name() == "func.return" || rxla_dialects::is_memory_effect_free(&unsafe { o.as_ref() }))
        })
    }
}

/// True if `v` is computed from constants only, through at most `depth`
/// generator ops.
fn is_constant_expression(v: Value, depth: usize) -> bool {
    let Some(op) = v.op() else { return false };
    if op.is("constant") {
        return true;
    }
    depth > 0
        && op.name().strip_prefix("hlo.").is_some_and(|o| CONSTANT_EXPRESSION.contains(&o))
        && op.operands().into_iter().all(|x| is_constant_expression(x, depth - 1))
}

/// Functions `op` calls, transitively.
fn callees(module: Op, op: Op) -> Vec<Op> {
    let mut seen: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    let mut work: Vec<String> = op.symbol_uses();
    while let Some(name) = work.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        if let Some(f) = computation::lookup(module, &name) {
            for o in f.walk_preorder() {
                work.extend(o.symbol_uses());
            }
            out.push(f);
        }
    }
    out
}

/// Evaluates `op` and replaces it with a constant.
fn fold(module: Op, op: Op) -> Result<(), PassError> {
    let result = op.result_type(0).tensor().cloned().expect("checked by foldable");
    let literal = match evaluate(module, op) {
        Ok(l) => l,
        // Ops the interpreter cannot evaluate stay as they are.
        Err(_) => return Ok(()),
    };
    let attr = literal_attr(op.context(), &result, &literal)?;
    let b = Builder::before(op);
    let new = b.create("hlo.constant", &[], &[result.into()], &[("value", attr)])?;
    if let Some(layout) = op.attr_raw("hlo.layout") {
        new.set_attr_raw("hlo.layout", layout);
    }
    op.replace_result_uses(0, new.result(0));
    op.erase();
    Ok(())
}

/// Runs `op` alone in a scratch module (its constant operand expressions
/// and called computations cloned in) through the interpreter. The
/// constants of the expression whose storage [`constant_literal`] reads
/// become parameters of the scratch function, passed to the interpreter as
/// literals: cloned in, every element went through text on the way (the
/// syntax tree keeps elements as tokens), which was most of the pass's
/// time on modules that fold large tables (a sequence's positions and
/// their sines and cosines).
fn evaluate(module: Op, op: Op) -> Result<Literal, String> {
    let mut leaves: Vec<(Op, Literal)> = Vec::new();
    collect_constants(op, &mut HashSet::new(), &mut leaves);
    unsafe {
        let scratch = Module::from_raw(mlirModuleCreateEmpty(mlirLocationUnknownGet(op.context())));
        let root = Op::from_raw(mlirModuleGetOperation(scratch.to_raw()));
        for f in callees(module, op) {
            let clone = f.clone_detached();
            mlirBlockAppendOwnedOperation(root.region_block(0).expect("module body"), clone.raw());
        }
        let params: Vec<HloType> = leaves.iter().map(|(c, _)| c.result_type(0)).collect();
        let (func, b, args) =
            computation::create_function(root, "main", &params, &[op.result_type(0)]).map_err(|e| e.0)?;
        func.remove_attr("sym_visibility");
        func.set_attr_raw("hlo.entry", mlirUnitAttrGet(op.context()));
        let mut cloned: HashMap<Value, Value> =
            leaves.iter().zip(&args).map(|((c, _), arg)| (c.result(0), *arg)).collect();
        let value = clone_expression(&b, op, &mut cloned)?;
        b.ret(&[value]).map_err(|e| e.0)?;
        let ast = rxla_translate::export::export_ast(&scratch).map_err(|e| e.to_string())?;
        let literals: Vec<Literal> = leaves.into_iter().map(|(_, l)| l).collect();
        Interpreter::new(&ast).run(&literals).map_err(|e| e.to_string())
    }
}

/// The `hlo.constant`s `op`'s operands come from (through the ops
/// [`clone_expression`] clones), each once, with their values where
/// [`constant_literal`] reads them.
fn collect_constants(op: Op, seen: &mut HashSet<Op>, out: &mut Vec<(Op, Literal)>) {
    for v in op.operands() {
        let Some(def) = v.op() else { continue };
        if !seen.insert(def) {
            continue;
        }
        if def.is("constant") {
            if let Some(literal) = constant_literal(def) {
                out.push((def, literal));
            }
        } else {
            collect_constants(def, seen, out);
        }
    }
}

/// The value of a dense `hlo.constant` of a byte-sized (or `pred`) element
/// type, read from the attribute's storage; `None` for other constants
/// (they are cloned into the scratch module as they are).
fn constant_literal(op: Op) -> Option<Literal> {
    let ty = op.result_type(0).into_tensor()?;
    let n = usize::try_from(ty.num_elements()).ok()?;
    let width = match ty.elem.0.as_str() {
        "i1" | "i8" | "ui8" => 1,
        "i16" | "ui16" | "f16" | "bf16" => 2,
        "i32" | "ui32" | "f32" => 4,
        "i64" | "ui64" | "f64" => 8,
        _ => return None,
    };
    let bytes = rxla_ir::attrs::dense_bytes(op.attr_raw("value")?, n, width)?;
    fn le<T, const N: usize>(bytes: &[u8], f: impl Fn([u8; N]) -> T) -> Vec<T> {
        bytes.chunks_exact(N).map(|c| f(c.try_into().expect("N bytes"))).collect()
    }
    let data = match ty.elem.0.as_str() {
        "i1" => Data::Pred(bytes.iter().map(|&b| b != 0).collect()),
        "i8" => Data::S8(le(&bytes, i8::from_le_bytes)),
        "i16" => Data::S16(le(&bytes, i16::from_le_bytes)),
        "i32" => Data::S32(le(&bytes, i32::from_le_bytes)),
        "i64" => Data::S64(le(&bytes, i64::from_le_bytes)),
        "ui8" => Data::U8(bytes),
        "ui16" => Data::U16(le(&bytes, u16::from_le_bytes)),
        "ui32" => Data::U32(le(&bytes, u32::from_le_bytes)),
        "ui64" => Data::U64(le(&bytes, u64::from_le_bytes)),
        "f16" => Data::F16(le(&bytes, |b| half::f16::from_bits(u16::from_le_bytes(b)))),
        "bf16" => Data::Bf16(le(&bytes, |b| half::bf16::from_bits(u16::from_le_bytes(b)))),
        "f32" => Data::F32(le(&bytes, f32::from_le_bytes)),
        "f64" => Data::F64(le(&bytes, f64::from_le_bytes)),
        _ => return None,
    };
    Some(Literal::Array { dims: ty.dims, data })
}

/// Clones `op` and the ops its operands come from into the builder's block.
fn clone_expression(b: &Builder, op: Op, cloned: &mut HashMap<Value, Value>) -> Result<Value, String> {
    let mut operands = Vec::new();
    for v in op.operands() {
        let new = match cloned.get(&v) {
            Some(n) => *n,
            None => {
                let def = v.op().ok_or("operand is not an op result")?;
                let n = clone_expression(b, def, cloned)?;
                cloned.insert(v, n);
                n
            }
        };
        operands.push(new);
    }
    let clone = op.clone_detached();
    for (i, v) in operands.into_iter().enumerate() {
        clone.set_operand(i, v);
    }
    b.insert(clone.raw());
    Ok(clone.result(0))
}

/// A dense elements attribute holding `literal` (of type `ty`), built from
/// its raw little-endian data (`pred` from its values).
pub fn literal_attr(context: MlirContext, ty: &TensorType, literal: &Literal) -> Result<MlirAttribute, PassError> {
    let bug = |what: &str| PassError(format!("internal error: {what}"));
    let Literal::Array { data, .. } = literal else {
        return Err(bug("folded value is not an array"));
    };
    fn bytes<T: Copy, const N: usize>(v: &[T], f: impl Fn(T) -> [u8; N]) -> Vec<u8> {
        v.iter().flat_map(|x| f(*x)).collect()
    }
    let raw: Option<Vec<u8>> = match data {
        Data::S8(v) => Some(bytes(v, i8::to_le_bytes)),
        Data::S16(v) => Some(bytes(v, i16::to_le_bytes)),
        Data::S32(v) => Some(bytes(v, i32::to_le_bytes)),
        Data::S64(v) => Some(bytes(v, i64::to_le_bytes)),
        Data::U8(v) => Some(v.clone()),
        Data::U16(v) => Some(bytes(v, u16::to_le_bytes)),
        Data::U32(v) => Some(bytes(v, u32::to_le_bytes)),
        Data::U64(v) => Some(bytes(v, u64::to_le_bytes)),
        Data::F16(v) => Some(bytes(v, |x| x.to_bits().to_le_bytes())),
        Data::Bf16(v) => Some(bytes(v, |x| x.to_bits().to_le_bytes())),
        Data::F32(v) => Some(bytes(v, |x| x.to_bits().to_le_bytes())),
        Data::F64(v) => Some(bytes(v, |x| x.to_bits().to_le_bytes())),
        Data::C64(v) => Some(bytes(v, |x| {
            let mut b = [0u8; 8];
            b[..4].copy_from_slice(&x.re.to_bits().to_le_bytes());
            b[4..].copy_from_slice(&x.im.to_bits().to_le_bytes());
            b
        })),
        Data::C128(v) => Some(bytes(v, |x| {
            let mut b = [0u8; 16];
            b[..8].copy_from_slice(&x.re.to_bits().to_le_bytes());
            b[8..].copy_from_slice(&x.im.to_bits().to_le_bytes());
            b
        })),
        // Sub-byte types take a byte per element in MLIR's storage.
        Data::Bits(_, v) => {
            let mask = (1u16 << ty.elem.bit_width().min(8)) - 1;
            Some(v.iter().map(|&b| (b as u16 & mask) as u8).collect())
        }
        _ => None,
    };
    let mlir_type = ty.to_mlir(context).ok_or_else(|| bug("bad constant type"))?;
    match (raw, data) {
        (Some(raw), _) => rxla_ir::attrs::dense_raw(mlir_type, &raw).ok_or_else(|| bug("raw constant data rejected")),
        (None, Data::Pred(v)) => Ok(rxla_ir::attrs::dense_bools(mlir_type, v)),
        _ => Err(bug("unexpected constant element type")),
    }
}
