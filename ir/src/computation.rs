//! Computations (`func.func`s of the module): lookup, the call graph,
//! fresh symbol names, and new functions for reducers and fusions.

use crate::{
    builder::Builder,
    op::{string_ref, Op, Value},
    pass::PassError,
    types::{ElementType, HloType, TensorType},
};
use mlir_sys::*;
use std::collections::{HashMap, HashSet};

/// The `func.func`s of `module`, in order.
pub fn functions(module: Op) -> Vec<Op> {
    module.body_ops().into_iter().filter(|op| op.is_named("func.func")).collect()
}

/// The function named `name`: from the [`NameIndex`] of `module` while
/// one lives, else by a scan of the module comparing names in place (no
/// copies). Callers with many names to look up use [`by_name`].
pub fn lookup(module: Op, name: &str) -> Option<Op> {
    let indexed = INDEX.with(|index| {
        let mut index = index.borrow_mut();
        let (owner, names) = index.as_mut().filter(|(owner, _)| *owner == module)?;
        let names = names.get_or_insert_with(|| {
            let mut names = HashMap::new();
            for f in functions(*owner) {
                // The first of equally named functions, as the scan finds.
                names.entry(self::name(f)).or_insert(f);
            }
            names
        });
        Some(names.get(name).copied())
    });
    match indexed {
        // Functions added since the index was built are found by the scan.
        Some(Some(found)) => Some(found),
        _ => scan(module, name),
    }
}

/// The module a [`NameIndex`] is open for, and its functions by name once
/// the first lookup listed them.
type OpenIndex = Option<(Op, Option<HashMap<String, Op>>)>;

thread_local! {
    static INDEX: std::cell::RefCell<OpenIndex> = const { std::cell::RefCell::new(None) };
}

/// While alive, [`lookup`] on `module` answers from an index of its
/// functions by name, built at the first lookup, instead of scanning the
/// module (a pass that looks up each reduce's reducer scanned thousands of
/// computations per op). The holder promises that no function of the
/// module is erased or renamed while the index lives; functions added are
/// still found. One index at a time: a nested one replaces it until it is
/// dropped.
pub struct NameIndex {
    outer: OpenIndex,
}

impl NameIndex {
    pub fn new(module: Op) -> Self {
        NameIndex { outer: INDEX.with(|index| index.borrow_mut().replace((module, None))) }
    }
}

impl Drop for NameIndex {
    fn drop(&mut self) {
        let outer = self.outer.take();
        INDEX.with(|index| *index.borrow_mut() = outer);
    }
}

/// [`lookup`] by a scan of the module.
fn scan(module: Op, name: &str) -> Option<Op> {
    let block = module.region_block(0)?;
    // SAFETY: a live module; the names are read while their ops live.
    unsafe {
        let key = string_ref("sym_name");
        let mut op = mlirBlockGetFirstOperation(block);
        while !op.ptr.is_null() {
            let attr = mlirOperationGetAttributeByName(op, key);
            if !attr.ptr.is_null() && mlirAttributeIsAString(attr) {
                let s = mlirStringAttrGetValue(attr);
                let bytes: &[u8] =
                    if s.data.is_null() { &[] } else { std::slice::from_raw_parts(s.data as *const u8, s.length) };
                if bytes == name.as_bytes() && Op::from_raw(op).is_named("func.func") {
                    return Some(Op::from_raw(op));
                }
            }
            op = mlirOperationGetNextInBlock(op);
        }
    }
    None
}

/// The functions of `module` by name: one pass over the module, for
/// callers that look up many names ([`lookup`] scans the module each time).
pub fn by_name(module: Op) -> HashMap<String, Op> {
    functions(module).into_iter().map(|f| (name(f), f)).collect()
}

/// The entry computation: the function marked `hlo.entry`, else the only
/// public one.
pub fn entry(module: Op) -> Option<Op> {
    let funcs = functions(module);
    if let Some(f) = funcs.iter().find(|f| f.has_attr("hlo.entry")) {
        return Some(*f);
    }
    let public: Vec<Op> =
        funcs.into_iter().filter(|f| f.string_attr("sym_visibility").as_deref() != Some("private")).collect();
    (public.len() == 1).then(|| public[0])
}

/// A function's symbol name.
pub fn name(func: Op) -> String {
    func.string_attr("sym_name").unwrap_or_default()
}

/// Every op in `module` that references a function by symbol, with the
/// names it references.
pub fn call_sites(module: Op) -> Vec<(Op, Vec<String>)> {
    let mut out = Vec::new();
    for func in functions(module) {
        for op in func.walk_preorder().into_iter().skip(1) {
            let uses = op.symbol_uses();
            if !uses.is_empty() {
                out.push((op, uses));
            }
        }
    }
    out
}

/// For each function name, the ops that reference it.
pub fn callers(module: Op) -> HashMap<String, Vec<Op>> {
    let mut map: HashMap<String, Vec<Op>> = HashMap::new();
    for (op, names) in call_sites(module) {
        for n in names {
            map.entry(n).or_default().push(op);
        }
    }
    map
}

/// A symbol name not yet used in `module`, `hint` if free.
pub fn unique_name(module: Op, hint: &str) -> String {
    let taken: HashSet<String> = functions(module).into_iter().map(name).collect();
    if !taken.contains(hint) {
        return hint.to_string();
    }
    (1..).map(|i| format!("{hint}.{i}")).find(|n| !taken.contains(n)).expect("unbounded")
}

/// Creates `func.func private @name(params) -> results` at the end of
/// `module` (named uniquely after `hint`) and returns it, a builder at the
/// end of its body, and its arguments. The caller adds ops and a
/// `func.return`.
pub fn create_function(
    module: Op,
    hint: &str,
    params: &[HloType],
    results: &[HloType],
) -> Result<(Op, Builder, Vec<Value>), PassError> {
    create_function_named(module, &unique_name(module, hint), params, results)
}

/// [`create_function`] with a name the caller knows is free (passes that
/// create many functions keep their own name set: finding a free name by
/// scanning the module each time would make them quadratic).
pub fn create_function_named(
    module: Op,
    name: &str,
    params: &[HloType],
    results: &[HloType],
) -> Result<(Op, Builder, Vec<Value>), PassError> {
    let context = module.context();
    let location = module.location();
    let bug = |what: String| PassError(format!("internal error: {what}"));
    let types = |ts: &[HloType]| {
        ts.iter().map(|t| t.to_mlir(context).ok_or_else(|| bug(format!("bad type {t}")))).collect::<Result<Vec<_>, _>>()
    };
    let param_types: Vec<MlirType> = types(params)?;
    let result_types: Vec<MlirType> = types(results)?;
    let attrs = [
        ("sym_name", crate::attrs::string(context, name)),
        ("function_type", crate::attrs::function_type(context, &param_types, &result_types)),
        ("sym_visibility", crate::attrs::string(context, "private")),
    ];
    let locations = vec![location; params.len()];
    let func = unsafe {
        let block = mlirBlockCreate(params.len() as isize, param_types.as_ptr(), locations.as_ptr());
        let region = mlirRegionCreate();
        mlirRegionAppendOwnedBlock(region, block);
        let mut state = mlirOperationStateGet(string_ref("func.func"), location);
        let mut named = Vec::new();
        for (key, attr) in attrs {
            named.push(MlirNamedAttribute { name: mlirIdentifierGet(context, string_ref(key)), attribute: attr });
        }
        mlirOperationStateAddAttributes(&mut state, named.len() as isize, named.as_ptr());
        let mut regions = [region];
        mlirOperationStateAddOwnedRegions(&mut state, 1, regions.as_mut_ptr());
        let func = mlirOperationCreate(&mut state);
        let body = module.region_block(0).ok_or_else(|| bug("module without a body".into()))?;
        mlirBlockAppendOwnedOperation(body, func);
        Op::from_raw(func)
    };
    let block = func.region_block(0).expect("created with a block");
    let builder = Builder::at_end(block, context, location);
    let args = func.arguments();
    Ok((func, builder, args))
}

/// A scalar reduction computation `(a, b) -> a <opcode> b` on `elem`
/// (add, multiply, maximum, minimum, and, or, ...), reused when one with the
/// same name already exists.
pub fn scalar_reducer(module: Op, opcode: &str, elem: &ElementType) -> Result<String, PassError> {
    let name = format!("{opcode}_{}_reducer", elem.0.replace(['<', '>'], ""));
    if lookup(module, &name).is_some() {
        return Ok(name);
    }
    let scalar: HloType = TensorType::scalar(elem).into();
    let (func, b, args) = create_function(module, &name, &[scalar.clone(), scalar.clone()], &[scalar])?;
    let r = b.binary(opcode, args[0], args[1])?;
    b.ret(&[r])?;
    Ok(self::name(func))
}

/// Resets `func`'s `function_type` from its block arguments and return
/// (after a pass changed either).
pub fn update_function_type(func: Op) {
    let params: Vec<MlirType> = func.arguments().iter().map(|a| a.raw_type()).collect();
    let results: Vec<MlirType> = func.return_values().iter().map(|v| v.raw_type()).collect();
    func.set_attr_raw("function_type", crate::attrs::function_type(func.context(), &params, &results));
}

/// A copy of `func` (body included) named uniquely after `hint`, private
/// and not the entry, inserted right after `func`.
pub fn clone_function(module: Op, func: Op, hint: &str) -> Result<Op, PassError> {
    let new_name = unique_name(module, hint);
    let copy = func.clone_detached();
    copy.set_string_attr("sym_name", &new_name);
    copy.set_string_attr("sym_visibility", "private");
    copy.remove_attr("hlo.entry");
    unsafe { mlirBlockInsertOwnedOperationAfter(func.block(), func.raw(), copy.raw()) };
    Ok(copy)
}

/// Rewrites the computations `op` references (flat symbol references, also
/// inside array attributes such as `branch_computations`): each reference
/// for which `f` returns a new name is replaced by it, one call per
/// occurrence, in attribute order. Returns true if anything changed.
pub fn replace_callees(op: Op, mut f: impl FnMut(&str) -> Option<String>) -> Result<bool, PassError> {
    let mut changed = false;
    for (key, attr) in op.attrs_raw() {
        unsafe {
            if mlirAttributeIsAFlatSymbolRef(attr) {
                let old = crate::op::string(mlirFlatSymbolRefAttrGetValue(attr));
                if let Some(new) = f(&old) {
                    op.set_symbol_attr(&key, &new);
                    changed = true;
                }
            } else if mlirAttributeIsAArray(attr) {
                let n = mlirArrayAttrGetNumElements(attr);
                let elems: Vec<MlirAttribute> = (0..n).map(|i| mlirArrayAttrGetElement(attr, i)).collect();
                if n == 0 || !elems.iter().all(|e| mlirAttributeIsAFlatSymbolRef(*e)) {
                    continue;
                }
                let mut any = false;
                let names: Vec<String> = elems
                    .iter()
                    .map(|e| {
                        let old = crate::op::string(mlirFlatSymbolRefAttrGetValue(*e));
                        match f(&old) {
                            Some(new) => {
                                any = true;
                                new
                            }
                            None => old,
                        }
                    })
                    .collect();
                if any {
                    let list: Vec<MlirAttribute> =
                        names.iter().map(|n| crate::attrs::symbol_ref(op.context(), n)).collect();
                    op.set_attr_raw(&key, crate::attrs::array(op.context(), &list));
                    changed = true;
                }
            }
        }
    }
    Ok(changed)
}

/// XLA's `HasSideEffect`, over computations by name: an op has a side
/// effect if it is one (rng, collectives, send/recv, infeed/outfeed,
/// opt-barrier, a custom-call with `has_side_effect`, ...) or if a
/// computation it calls contains one. Results are memoized per
/// computation.
pub struct SideEffects {
    module: Op,
    memo: HashMap<String, bool>,
    /// The module's functions by name, listed once when first needed
    /// ([`SideEffects::with_function_table`]); `None` to look each name
    /// up in the module.
    functions: Option<HashMap<String, Op>>,
    table: bool,
}

impl SideEffects {
    /// For a module whose functions may be added or erased while this is
    /// used: each callee is looked up in the module when first asked about.
    pub fn new(module: Op) -> Self {
        Self { module, memo: HashMap::new(), functions: None, table: false }
    }

    /// For a module whose functions stay the same while this is used (ops
    /// inside them may change): callees are found in a table of the
    /// functions built once, so asking about many callees stays linear.
    pub fn with_function_table(module: Op) -> Self {
        Self { module, memo: HashMap::new(), functions: None, table: true }
    }

    /// True if `op` or anything it calls has a side effect.
    pub fn op(&mut self, op: Op) -> bool {
        let name = op.name();
        let own = match name.as_str() {
            "func.return" => false,
            // Ops that only call computations: as effectful as their callees.
            "hlo.call" | "hlo.while" | "hlo.conditional" | "hlo.fusion" | "hlo.scatter" => false,
            "hlo.custom_call" => op.bool_attr("has_side_effect") == Some(true),
            _ => !rxla_dialects::is_memory_effect_free(unsafe { &op.as_ref() }),
        };
        own || op.symbol_uses().iter().any(|callee| self.computation(callee))
    }

    /// True if the computation named `name` (or anything it calls) has a
    /// side effect. An unknown name counts as effectful.
    pub fn computation(&mut self, name: &str) -> bool {
        if let Some(&known) = self.memo.get(name) {
            return known;
        }
        let module = self.module;
        let found = if self.table {
            self.functions.get_or_insert_with(|| by_name(module)).get(name).copied()
        } else {
            lookup(module, name)
        };
        let Some(func) = found else { return true };
        // Break cycles optimistically; a real effect still propagates.
        self.memo.insert(name.to_string(), false);
        let result = func.walk_preorder().into_iter().skip(1).any(|op| self.op(op));
        self.memo.insert(name.to_string(), result);
        result
    }
}

/// Clones the body of the single-block computation `func` at `builder`,
/// with its parameters replaced by `args` (XLA's CallInliner on one call),
/// and returns the values it returns.
pub fn inline_body(func: Op, builder: &Builder, args: &[Value]) -> Result<Vec<Value>, PassError> {
    let bug = |what: String| PassError(format!("internal error: {what}"));
    let params = func.arguments();
    if params.len() != args.len() {
        return Err(bug(format!(
            "inlining {} with {} arguments for {} parameters",
            name(func),
            args.len(),
            params.len()
        )));
    }
    let mut map: HashMap<Value, Value> = params.into_iter().zip(args.iter().copied()).collect();
    for op in func.body_ops() {
        let operands: Vec<Value> = op
            .operands()
            .iter()
            .map(|v| {
                map.get(v)
                    .copied()
                    .ok_or_else(|| bug(format!("{} uses a value from outside {}", op.name(), name(func))))
            })
            .collect::<Result<_, _>>()?;
        if op.name() == "func.return" {
            return Ok(operands);
        }
        if unsafe { mlirOperationGetNumRegions(op.raw()) } > 0 {
            return Err(bug(format!("cannot inline {} with regions", op.name())));
        }
        let copy = op.clone_detached();
        for (i, v) in operands.into_iter().enumerate() {
            copy.set_operand(i, v);
        }
        builder.insert(copy.raw());
        for (old, new) in op.results().into_iter().zip(copy.results()) {
            map.insert(old, new);
        }
    }
    Err(bug(format!("{} has no return", name(func))))
}

/// The functions of `module` that are not fused computations (the ones
/// the top-level passes rewrite; fusions are rewritten as a whole).
pub fn non_fusion_functions(module: Op) -> Vec<Op> {
    let funcs = functions(module);
    let mut fused = std::collections::HashSet::new();
    for func in &funcs {
        for op in func.walk_preorder() {
            if op.is("fusion") {
                if let Some(callee) = op.symbol_attr("calls") {
                    fused.insert(callee);
                }
            }
        }
    }
    funcs.into_iter().filter(|f| !fused.contains(&name(*f))).collect()
}

/// Calls `f` on every `hlo.<opcode>` op of the computations that are not
/// fused computations, in program order. The ops are listed first, so `f`
/// may replace or erase the op it is given (but no other listed op).
pub fn for_each_op<T>(
    module: Op,
    opcode: &str,
    mut f: impl FnMut(Op) -> Result<T, PassError>,
) -> Result<(), PassError> {
    let ops: Vec<Op> = non_fusion_functions(module)
        .into_iter()
        .flat_map(|func| func.walk_preorder())
        .filter(|op| op.is(opcode))
        .collect();
    for op in ops {
        f(op)?;
    }
    Ok(())
}

/// The computations that run as sequential code: the entry computation and
/// those it reaches through `call`, `while` and `conditional` (XLA's
/// control-flow call contexts), not reducers, comparators, scatter
/// combiners or fused computations (embedded contexts). Without an entry,
/// every function that no op uses in an embedded context.
pub fn sequential_functions(module: Op) -> Vec<Op> {
    const SEQUENTIAL: &[&str] = &["hlo.call", "hlo.while", "hlo.conditional"];
    let funcs = functions(module);
    let by_name: HashMap<String, Op> = funcs.iter().map(|f| (name(*f), *f)).collect();
    let Some(entry) = funcs.iter().copied().find(|f| f.has_attr("hlo.entry")) else {
        let mut embedded = std::collections::HashSet::new();
        for func in &funcs {
            for op in func.walk_preorder().into_iter().skip(1) {
                if !SEQUENTIAL.contains(&op.name().as_str()) {
                    embedded.extend(op.symbol_uses());
                }
            }
        }
        return funcs.into_iter().filter(|f| !embedded.contains(&name(*f))).collect();
    };
    let mut seen = std::collections::HashSet::from([entry]);
    let mut order = vec![entry];
    let mut i = 0;
    while i < order.len() {
        for op in order[i].walk_preorder().into_iter().skip(1) {
            if SEQUENTIAL.contains(&op.name().as_str()) {
                for callee in op.symbol_uses() {
                    if let Some(&f) = by_name.get(&callee) {
                        if seen.insert(f) {
                            order.push(f);
                        }
                    }
                }
            }
        }
        i += 1;
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::Module;

    /// `lookup` finds each function by its exact name (not a prefix, not a
    /// non-function symbol), as the table `by_name` does.
    #[test]
    fn lookup_finds_functions_by_exact_name() {
        let context = rxla_dialects::create_context();
        let source = "
            func.func private @add(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
              %0 = hlo.add %x, %y : tensor<f32>
              return %0 : tensor<f32>
            }
            func.func private @add.1(%x: tensor<f32>) -> tensor<f32> {
              return %x : tensor<f32>
            }
            func.func @main(%x: tensor<f32>) -> tensor<f32> {
              return %x : tensor<f32>
            }
        ";
        let module = Module::parse(&context, source).expect("parses");
        let module = Op::from_raw(module.as_operation().to_raw());
        let table = by_name(module);
        assert_eq!(table.len(), 3);
        for name in ["add", "add.1", "main"] {
            let found = lookup(module, name).unwrap_or_else(|| panic!("@{name} found"));
            assert_eq!(super::name(found), name);
            assert_eq!(table.get(name), Some(&found));
        }
        for missing in ["ad", "add.", "add.10", "", "Main"] {
            assert!(lookup(module, missing).is_none(), "@{missing}");
        }
    }

    /// Under a `NameIndex`, `lookup` answers as the scan does, finds
    /// functions added after the index was built, and only serves the
    /// module it was opened for; dropping a nested index restores the
    /// outer one.
    #[test]
    fn name_index_answers_as_the_scan() {
        let context = rxla_dialects::create_context();
        let parse = |source: &str| Module::parse(&context, source).expect("parses");
        let a = parse("func.func private @f() { return }\nfunc.func private @g() { return }");
        let b = parse("func.func private @f() { return }\nfunc.func private @h() { return }");
        let (ma, mb) = (Op::from_raw(a.as_operation().to_raw()), Op::from_raw(b.as_operation().to_raw()));
        let names = ["f", "g", "h", "x"];
        let scanned: Vec<_> = names.iter().map(|n| (scan(ma, n), scan(mb, n))).collect();
        let indexed = |names: &[&str]| -> Vec<_> { names.iter().map(|n| (lookup(ma, n), lookup(mb, n))).collect() };
        {
            let _outer = NameIndex::new(ma);
            assert_eq!(indexed(&names), scanned);
            {
                let _inner = NameIndex::new(mb);
                assert_eq!(indexed(&names), scanned);
            }
            assert!(INDEX.with(|i| i.borrow().as_ref().map(|(m, _)| *m)) == Some(ma));
            // A function added after the index was built.
            let f = scan(ma, "f").expect("@f");
            let added = f.clone_detached();
            added.set_string_attr("sym_name", "k");
            // SAFETY: `added` is detached and goes into @f's live block.
            unsafe { mlirBlockInsertOwnedOperationBefore(f.block(), f.raw(), added.raw()) };
            assert_eq!(lookup(ma, "k"), Some(added));
        }
        assert!(INDEX.with(|i| i.borrow().is_none()));
    }
}
