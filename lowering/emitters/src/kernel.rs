//! One kernel under construction: the fused computation, its partition,
//! the functions emitted so far (subgraphs on demand, reducers), and the
//! module text they end up in.

use crate::{
    builder::FuncBuilder,
    elemental::{Current, Elemental},
    fusion::{mlir_elem, mlir_tensor, Computation},
    partitioner::Partition,
    target::Target,
    EmitError,
};
use rxla_ir::{computation, op::Op};
use std::collections::{HashMap, HashSet};

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
    functions: Vec<String>,
    /// Subgraph functions asked for: the subgraph, and whether at its
    /// root's operand ([`Kernel::request_at_operand`]).
    requested: HashSet<(usize, bool)>,
    queue: Vec<(usize, bool)>,
    scalar_fns: HashMap<String, ScalarFn>,
    /// Attributes of the entry function (`name = value`).
    pub entry_attrs: Vec<String>,
    /// Attributes of the kernel module.
    pub module_attrs: Vec<String>,
}

impl<'a> Kernel<'a> {
    pub fn new(comp: &'a Computation, part: Partition, module: Option<Op>, target: &Target) -> Kernel<'a> {
        Kernel {
            comp,
            part,
            module,
            target: target.clone(),
            name: comp.name.clone(),
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
        let mut fb = FuncBuilder::new();
        let args: Vec<String> = (0..arg_types.len()).map(|i| format!("%a{i}")).collect();
        let values = {
            let mut el = Elemental::new(self, &comp, Current::Scalar, args.clone(), HashMap::new());
            let mut vals = Vec::new();
            for r in comp.roots.clone() {
                vals.push(el.value(&mut fb, r, &[])?);
            }
            vals
        };
        let sig: Vec<String> = args.iter().zip(&arg_types).map(|(a, t)| format!("{a}: {t}")).collect();
        // bf16 and f16 sums round at every step: their order is XLA:CPU's
        // (see the `windowed-reduction-rewriter` pass), not LLVM's.
        let low_precision = arg_types.iter().any(|t| matches!(t.as_str(), "bf16" | "f16"));
        let body = if reassociative && !low_precision { reassociative_body(fb.body()) } else { fb.body().to_string() };
        let text = format!(
            "  func.func private @\"{fname}\"({}) -> ({}) {{\n{}    return {} : {}\n  }}\n",
            sig.join(", "),
            result_types.join(", "),
            body,
            values.join(", "),
            result_types.join(", ")
        );
        self.functions.push(text);
        Ok(f)
    }

    /// Emits every requested subgraph function.
    fn drain(&mut self) -> Result<(), EmitError> {
        while let Some((s, at_operand)) = self.queue.pop() {
            let text = self.emit_subgraph(s, at_operand)?;
            self.functions.push(text);
        }
        Ok(())
    }

    fn emit_subgraph(&mut self, s: usize, at_operand: bool) -> Result<String, EmitError> {
        let sg = self.part.subgraphs[s].clone();
        let index_shape = self.index_shape(s, at_operand);
        let (arg_types, result_types) = self.subgraph_signature(s, at_operand);
        let mut fb = FuncBuilder::new();
        let mut args = Vec::new();
        let params: Vec<String> = (0..self.comp.params.len()).map(|i| format!("%p{i}")).collect();
        args.extend(params.iter().cloned());
        let mut idx = Vec::new();
        for (d, &size) in index_shape.iter().enumerate() {
            // Not `%i{n}`: that is `FuncBuilder::fresh("i")`'s loop variables
            // (a rank-5 index met a window loop's `%i4`).
            let name = format!("%idx_{d}");
            idx.push(fb.var(&name, 0, (size - 1).max(0)));
            args.push(name);
        }
        let mut injected = HashMap::new();
        for &h in &sg.injected {
            let names: Vec<String> = (0..self.comp.instrs[h].results.len()).map(|r| format!("%h{h}_{r}")).collect();
            args.extend(names.iter().cloned());
            injected.insert(h, names);
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
        // Index arguments carry their range.
        let nparams = self.comp.params.len();
        let sig: Vec<String> = args
            .iter()
            .zip(&arg_types)
            .enumerate()
            .map(|(k, (a, t))| match k.checked_sub(nparams).and_then(|d| index_shape.get(d)) {
                Some(&size) if crate::kernel_ops::XLA_DIALECTS => {
                    format!("{a}: {t} {{xla.range = [0 : index, {} : index]}}", (size - 1).max(0))
                }
                _ => format!("{a}: {t}"),
            })
            .collect();
        Ok(format!(
            "  func.func private @\"{}\"({}) -> ({}) {{\n{}    return {} : {}\n  }}\n",
            self.function_name(s, at_operand),
            sig.join(", "),
            result_types.join(", "),
            fb.body(),
            values.join(", "),
            result_types.join(", ")
        ))
    }

    /// The kernel module's text: the entry function (`args` are the
    /// entry's argument names and types, `body` its body ending in
    /// `return`) and every function it needs.
    pub fn finish(
        mut self,
        args: &[(String, String)],
        result_types: &[String],
        body: &str,
    ) -> Result<String, EmitError> {
        self.drain()?;
        let sig: Vec<String> = args.iter().map(|(a, t)| format!("{a}: {t}")).collect();
        let mut attrs = vec!["xla.entry".to_string()];
        attrs.extend(self.entry_attrs.iter().cloned());
        let mut module_attrs = vec![format!("xla.target = \"{}\"", self.target.name())];
        module_attrs.extend(self.module_attrs.iter().cloned());
        let mut text = format!(
            "module @\"{}\" attributes {{{}}} {{\n  func.func @\"{}\"({}) -> ({}) attributes {{{}}} {{\n{}  }}\n",
            self.name,
            module_attrs.join(", "),
            self.name,
            sig.join(", "),
            result_types.join(", "),
            attrs.join(", "),
            body
        );
        // Callees in a stable order: subgraphs in partition order, then
        // scalar functions.
        self.functions.sort_by_key(|f| function_order(f, &self.part));
        for f in &self.functions {
            text.push_str(f);
        }
        text.push_str("}\n");
        Ok(text)
    }
}

/// The suffix of a subgraph function indexed by its root's operand
/// ([`Kernel::request`]).
const AT_OPERAND: &str = "_at_operand";

/// Sort key of an emitted function text: subgraphs by index (a variant at
/// its root's operand after the subgraph's own), reducers last.
fn function_order(text: &str, part: &Partition) -> (usize, String) {
    let name = text.split('"').nth(1).unwrap_or("").to_string();
    let subgraph = name.strip_suffix(AT_OPERAND).unwrap_or(&name);
    match part.subgraphs.iter().position(|s| s.name == subgraph) {
        Some(i) => (i, name),
        None => (usize::MAX, name),
    }
}

/// `body` with `fastmath<reassoc>` on every float addition and
/// multiplication (see [`Kernel::reducer_fn`]).
fn reassociative_body(body: &str) -> String {
    body.lines()
        .map(|line| {
            let is_op = line.contains("= arith.addf ") || line.contains("= arith.mulf ");
            match line.rfind(" : ") {
                Some(at) if is_op && !line.contains("fastmath") => {
                    format!("{} fastmath<reassoc>{}\n", &line[..at], &line[at..])
                }
                _ => format!("{line}\n"),
            }
        })
        .collect()
}
