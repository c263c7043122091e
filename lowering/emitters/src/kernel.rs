//! One kernel under construction: the fused computation, its partition,
//! the functions emitted so far (subgraphs on demand, reducers), and the
//! kernel module they end up in.

use crate::{
    builder::{block_args, type_of_spelling, FuncBuilder},
    elemental::{Current, Elemental},
    fusion::{mlir_elem, mlir_tensor, Computation},
    partitioner::Partition,
    target::Target,
    EmitError, KernelModule,
};
use mlir_sys::*;
use rxla_ir::{
    builder::{create_detached, OpParts},
    computation,
    op::{string_ref, Op, Value},
};
use std::collections::{HashMap, HashSet};

/// The value of a function or module attribute the emitters set.
#[derive(Clone, Debug, PartialEq)]
pub enum Attr {
    I64(i64),
    Str(String),
    /// `array<i64: ...>`.
    I64Array(Vec<i64>),
    Unit,
}

impl Attr {
    fn mlir(&self, context: MlirContext) -> MlirAttribute {
        unsafe {
            match self {
                Attr::I64(v) => mlirIntegerAttrGet(mlirIntegerTypeGet(context, 64), *v),
                Attr::Str(s) => mlirStringAttrGet(context, string_ref(s)),
                Attr::I64Array(v) => mlirDenseI64ArrayGet(context, v.len() as isize, v.as_ptr()),
                Attr::Unit => mlirUnitAttrGet(context),
            }
        }
    }
}

/// The dialects of kernel IR.
const KERNEL_DIALECTS: [&str; 11] =
    ["builtin", "func", "arith", "math", "complex", "scf", "tensor", "vector", "gpu", "xla", "xla_gpu"];

/// A function under construction: its entry block (not yet in a
/// function) and its argument types.
struct FuncShell {
    block: MlirBlock,
    arg_types: Vec<MlirType>,
}

/// A reducer (or scatter combiner) emitted as a scalar function.
#[derive(Clone, Debug)]
pub struct ScalarFn {
    pub name: String,
    pub arg_types: Vec<String>,
    pub result_types: Vec<String>,
}

/// The state of one kernel's emission.
pub struct Kernel<'a> {
    pub comp: &'a Computation,
    pub part: Partition,
    /// The module holding reducers (`to_apply` targets).
    pub module: Option<Op>,
    pub target: Target,
    /// The entry function's (and kernel module's) name.
    pub name: String,
    context: MlirContext,
    /// Emitted functions (detached `func.func` ops), by name.
    functions: Vec<(String, Op)>,
    /// Subgraph functions asked for: the subgraph, and whether at its
    /// root's operand ([`Kernel::request_at_operand`]).
    requested: HashSet<(usize, bool)>,
    queue: Vec<(usize, bool)>,
    scalar_fns: HashMap<String, ScalarFn>,
    /// Attributes of the entry function.
    pub entry_attrs: Vec<(String, Attr)>,
    /// Attributes of the kernel module.
    pub module_attrs: Vec<(String, Attr)>,
}

impl Drop for Kernel<'_> {
    fn drop(&mut self) {
        // Functions not moved into a module (an emitter failed).
        for (_, f) in self.functions.drain(..) {
            unsafe { mlirOperationDestroy(f.raw()) };
        }
    }
}

impl<'a> Kernel<'a> {
    pub fn new(comp: &'a Computation, part: Partition, module: Option<Op>, target: &Target) -> Kernel<'a> {
        let context = comp.func.context();
        // Ops are created by name: their dialects must be loaded (a parser
        // would load them on demand).
        for dialect in KERNEL_DIALECTS {
            unsafe { mlirContextGetOrLoadDialect(context, string_ref(dialect)) };
        }
        Kernel {
            comp,
            part,
            module,
            target: target.clone(),
            name: comp.name.clone(),
            context: comp.func.context(),
            functions: Vec::new(),
            requested: HashSet::new(),
            queue: Vec::new(),
            scalar_fns: HashMap::new(),
            entry_attrs: Vec::new(),
            module_attrs: Vec::new(),
        }
    }

    pub fn err(&self, message: impl Into<String>) -> EmitError {
        EmitError::new(&self.name, message.into())
    }

    /// The kernel-IR tensor types of the computation's parameters.
    pub fn param_types(&self) -> Vec<String> {
        self.comp.params.iter().map(mlir_tensor).collect()
    }

    /// Argument and result types of subgraph `s`'s function (or of its
    /// variant at its root's operand, see [`Kernel::request`]): every
    /// parameter tensor, one index per dimension of the shape it is indexed
    /// by, the injected hero values; one scalar per result of each root.
    pub fn subgraph_signature(&self, s: usize, at_operand: bool) -> (Vec<String>, Vec<String>) {
        let sg = &self.part.subgraphs[s];
        let mut args = self.param_types();
        args.extend(self.index_shape(s, at_operand).iter().map(|_| "index".to_string()));
        for &h in &sg.injected {
            args.extend(self.comp.instrs[h].results.iter().map(|t| mlir_elem(&t.elem)));
        }
        let mut results = Vec::new();
        for &r in &sg.roots {
            results.extend(self.comp.instrs[r].results.iter().map(|t| mlir_elem(&t.elem)));
        }
        (args, results)
    }

    /// Asks for subgraph `s`'s function; returns its name. With
    /// `at_operand`, the variant for a subgraph whose one root is an index
    /// transformation (a bitcast or reshape): indexed by the root's
    /// operand, it returns the root's value at the element the operand
    /// index names. A caller whose index for the root composes with the
    /// transformation into plain loop indices calls the variant and leaves
    /// no `div`/`mod` of a linear index to the callee (see
    /// `Elemental::call_subgraph_of`).
    pub fn request(&mut self, s: usize, at_operand: bool) -> String {
        if self.requested.insert((s, at_operand)) {
            self.queue.push((s, at_operand));
        }
        self.function_name(s, at_operand)
    }

    /// The name of subgraph `s`'s function, or of its variant.
    fn function_name(&self, s: usize, at_operand: bool) -> String {
        let name = &self.part.subgraphs[s].name;
        match at_operand {
            true => format!("{name}{AT_OPERAND}"),
            false => name.clone(),
        }
    }

    /// The shape subgraph `s`'s function is indexed by: its roots', or its
    /// root's operand's.
    fn index_shape(&self, s: usize, at_operand: bool) -> Vec<i64> {
        let sg = &self.part.subgraphs[s];
        match at_operand {
            true => self.comp.ty(self.comp.instrs[sg.roots[0]].operands[0]).dims.clone(),
            false => sg.index_shape.clone(),
        }
    }

    /// The scalar function of computation `name` (a reducer), emitting it
    /// on first use.
    pub fn scalar_fn(&mut self, name: &str) -> Result<ScalarFn, EmitError> {
        self.scalar_fn_with(name, false)
    }

    /// A reducer: like [`Kernel::scalar_fn`], but its float additions and
    /// multiplications may be reassociated (`fastmath<reassoc>`). HLO
    /// leaves the order of a reduction unspecified (the reducer must be
    /// associative and commutative), and the flag is what lets LLVM
    /// vectorize a reduction loop with several partial sums.
    pub fn reducer_fn(&mut self, name: &str) -> Result<ScalarFn, EmitError> {
        self.scalar_fn_with(name, true)
    }

    fn scalar_fn_with(&mut self, name: &str, reassociative: bool) -> Result<ScalarFn, EmitError> {
        if let Some(f) = self.scalar_fns.get(name) {
            return Ok(f.clone());
        }
        let module = self.module.ok_or_else(|| self.err(format!("reducer @{name}: no module to look it up in")))?;
        let func = computation::lookup(module, name).ok_or_else(|| self.err(format!("reducer @{name} not found")))?;
        let comp = Computation::from_func(func)?;
        if comp.params.iter().any(|p| !p.dims.is_empty()) {
            return Err(self.err(format!("reducer @{name} has non-scalar parameters")));
        }
        // Unique among the kernel's functions (a subgraph may be named
        // after an `add` root too).
        let mut fname = format!("{}_{}", self.name, name);
        while self.part.subgraphs.iter().any(|s| s.name == fname) || self.scalar_fns.values().any(|f| f.name == fname) {
            fname.push_str("_reducer");
        }
        let arg_types: Vec<String> = comp.params.iter().map(|p| mlir_elem(&p.elem)).collect();
        let result_types: Vec<String> = comp.roots.iter().map(|r| mlir_elem(&comp.ty(*r).elem)).collect();
        let f = ScalarFn { name: fname.clone(), arg_types: arg_types.clone(), result_types: result_types.clone() };
        self.scalar_fns.insert(name.to_string(), f.clone());
        let shell = self.shell(&arg_types);
        let mut fb = FuncBuilder::owning(self.context, shell.block);
        // bf16 and f16 sums round at every step: their order is XLA:CPU's
        // (see the `windowed-reduction-rewriter` pass), not LLVM's.
        let low_precision = arg_types.iter().any(|t| matches!(t.as_str(), "bf16" | "f16"));
        fb.reassociate = reassociative && !low_precision;
        let args = block_args(shell.block);
        let values = {
            let mut el = Elemental::new(self, &comp, Current::Scalar, args, HashMap::new());
            let mut vals = Vec::new();
            for r in comp.roots.clone() {
                vals.push(el.value(&mut fb, r, &[])?);
            }
            vals
        };
        fb.terminate("func.return", &values);
        let result_types: Vec<MlirType> = values.iter().map(|&v| fb.type_of(v)).collect();
        fb.release();
        let func = self.function(&fname, shell, &result_types, true, &[], &[]);
        self.functions.push((fname, func));
        Ok(f)
    }

    /// The entry block of a new function with arguments of `arg_types`.
    fn shell(&self, arg_types: &[String]) -> FuncShell {
        let types: Vec<MlirType> = arg_types.iter().map(|t| type_of_spelling(self.context, t)).collect();
        let locs = vec![unsafe { mlirLocationUnknownGet(self.context) }; types.len()];
        let block = unsafe { mlirBlockCreate(types.len() as isize, types.as_ptr(), locs.as_ptr()) };
        FuncShell { block, arg_types: types }
    }

    /// `func.func @name` around `shell`'s block (which ends in its
    /// `return`): private or not, with attributes per argument and on the
    /// function.
    fn function(
        &self,
        name: &str,
        shell: FuncShell,
        result_types: &[MlirType],
        private: bool,
        arg_attrs: &[Vec<(&str, MlirAttribute)>],
        attrs: &[(String, Attr)],
    ) -> Op {
        let c = self.context;
        unsafe {
            let region = mlirRegionCreate();
            mlirRegionAppendOwnedBlock(region, shell.block);
            let fty = mlirFunctionTypeGet(
                c,
                shell.arg_types.len() as isize,
                shell.arg_types.as_ptr(),
                result_types.len() as isize,
                result_types.as_ptr(),
            );
            let mut all: Vec<(&str, MlirAttribute)> =
                vec![("sym_name", mlirStringAttrGet(c, string_ref(name))), ("function_type", mlirTypeAttrGet(fty))];
            if private {
                all.push(("sym_visibility", mlirStringAttrGet(c, string_ref("private"))));
            }
            if arg_attrs.iter().any(|a| !a.is_empty()) {
                let dicts: Vec<MlirAttribute> = (0..shell.arg_types.len())
                    .map(|i| {
                        let named: Vec<MlirNamedAttribute> = arg_attrs
                            .get(i)
                            .map(|a| a.as_slice())
                            .unwrap_or_default()
                            .iter()
                            .map(|(k, v)| MlirNamedAttribute {
                                name: mlirIdentifierGet(c, string_ref(k)),
                                attribute: *v,
                            })
                            .collect();
                        mlirDictionaryAttrGet(c, named.len() as isize, named.as_ptr())
                    })
                    .collect();
                all.push(("arg_attrs", mlirArrayAttrGet(c, dicts.len() as isize, dicts.as_ptr())));
            }
            let converted: Vec<(String, MlirAttribute)> = attrs.iter().map(|(k, v)| (k.clone(), v.mlir(c))).collect();
            all.extend(converted.iter().map(|(k, v)| (k.as_str(), *v)));
            let parts =
                OpParts { name: "func.func", operands: &[], results: Some(&[]), attrs: &all, regions: vec![region] };
            create_detached(c, mlirLocationUnknownGet(c), &parts).expect("func.func is registered")
        }
    }

    /// Emits every requested subgraph function.
    fn drain(&mut self) -> Result<(), EmitError> {
        while let Some((s, at_operand)) = self.queue.pop() {
            let func = self.emit_subgraph(s, at_operand)?;
            self.functions.push((self.function_name(s, at_operand), func));
        }
        Ok(())
    }

    fn emit_subgraph(&mut self, s: usize, at_operand: bool) -> Result<Op, EmitError> {
        let sg = self.part.subgraphs[s].clone();
        let index_shape = self.index_shape(s, at_operand);
        let (arg_types, _) = self.subgraph_signature(s, at_operand);
        let shell = self.shell(&arg_types);
        let mut fb = FuncBuilder::owning(self.context, shell.block);
        let args = block_args(shell.block);
        let nparams = self.comp.params.len();
        let params: Vec<Value> = args[..nparams].to_vec();
        let mut idx = Vec::new();
        for (d, &size) in index_shape.iter().enumerate() {
            idx.push(fb.var(args[nparams + d], 0, (size - 1).max(0)));
        }
        let mut injected = HashMap::new();
        let mut next = nparams + index_shape.len();
        for &h in &sg.injected {
            let n = self.comp.instrs[h].results.len();
            injected.insert(h, args[next..next + n].to_vec());
            next += n;
        }
        let comp = self.comp;
        let values = {
            let mut el = Elemental::new(self, comp, Current::Subgraph(s), params, injected);
            let mut vals = Vec::new();
            if at_operand {
                // The index transformation is the caller's: the root's
                // value is its operand's at the index given.
                vals.push(el.value(&mut fb, comp.instrs[sg.roots[0]].operands[0], &idx)?);
            } else {
                for &r in &sg.roots {
                    vals.extend(el.instr_values(&mut fb, r, &idx)?);
                }
            }
            vals
        };
        fb.terminate("func.return", &values);
        let result_types: Vec<MlirType> = values.iter().map(|&v| fb.type_of(v)).collect();
        // Index arguments carry their range.
        let arg_attrs: Vec<Vec<(&str, MlirAttribute)>> = (0..arg_types.len())
            .map(|k| match k.checked_sub(nparams).and_then(|d| index_shape.get(d)) {
                Some(&size) => vec![("xla.range", fb.range_attr(0, (size - 1).max(0)))],
                None => Vec::new(),
            })
            .collect();
        fb.release();
        Ok(self.function(&self.function_name(s, at_operand), shell, &result_types, true, &arg_attrs, &[]))
    }

    /// Starts the entry function, with arguments of `arg_types`: the
    /// builder of its body and the arguments.
    pub fn entry(&self, arg_types: &[String]) -> (FuncBuilder, Vec<Value>) {
        let shell = self.shell(arg_types);
        let args = block_args(shell.block);
        (FuncBuilder::owning(self.context, shell.block), args)
    }

    /// The kernel module: the entry function `fb` built (from
    /// [`Kernel::entry`]), returning `results`, and every function it
    /// needs. Verified.
    pub fn finish(mut self, mut fb: FuncBuilder, results: &[Value]) -> Result<KernelModule, EmitError> {
        self.drain()?;
        fb.terminate("func.return", results);
        let result_types: Vec<MlirType> = results.iter().map(|&v| fb.type_of(v)).collect();
        let block = fb.release();
        let arg_types: Vec<MlirType> = block_args(block).iter().map(|a| unsafe { mlirValueGetType(a.0) }).collect();
        let mut attrs = vec![("xla.entry".to_string(), Attr::Unit)];
        attrs.extend(self.entry_attrs.iter().cloned());
        let entry = self.function(&self.name, FuncShell { block, arg_types }, &result_types, false, &[], &attrs);
        let c = self.context;
        let module = unsafe {
            let m = mlirModuleCreateEmpty(mlirLocationUnknownGet(c));
            let op = mlirModuleGetOperation(m);
            mlirOperationSetAttributeByName(op, string_ref("sym_name"), mlirStringAttrGet(c, string_ref(&self.name)));
            let mut module_attrs = vec![("xla.target".to_string(), Attr::Str(self.target.name().to_string()))];
            module_attrs.extend(self.module_attrs.iter().cloned());
            for (k, v) in &module_attrs {
                mlirOperationSetAttributeByName(op, string_ref(k), v.mlir(c));
            }
            let body = mlirModuleGetBody(m);
            mlirBlockAppendOwnedOperation(body, entry.raw());
            // Callees in a stable order: subgraphs in partition order, then
            // scalar functions.
            let mut functions = std::mem::take(&mut self.functions);
            functions.sort_by_key(|(name, _)| function_order(name, &self.part));
            for (_, f) in functions {
                mlirBlockAppendOwnedOperation(body, f.raw());
            }
            KernelModule::from_raw(op)
        };
        module.verify().map_err(|e| self.err(format!("emitted IR does not verify: {e}")))?;
        Ok(module)
    }
}

/// The suffix of a subgraph function indexed by its root's operand
/// ([`Kernel::request`]).
const AT_OPERAND: &str = "_at_operand";

/// Sort key of an emitted function: subgraphs by index (a variant at its
/// root's operand after the subgraph's own), reducers last.
fn function_order(name: &str, part: &Partition) -> (usize, String) {
    let subgraph = name.strip_suffix(AT_OPERAND).unwrap_or(name);
    match part.subgraphs.iter().position(|s| s.name == subgraph) {
        Some(i) => (i, name.to_string()),
        None => (usize::MAX, name.to_string()),
    }
}
