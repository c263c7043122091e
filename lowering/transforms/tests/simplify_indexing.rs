//! `xla-simplify-indexing` keeps what a kernel computes: random programs of
//! `xla.apply_indexing` and `xla.loop` ops (chains, shared and repeated
//! operands, constants, maps with symbols, loops with constraints whose
//! bodies index with the loop's values) are evaluated before and after the
//! pass at every point of their arguments' `xla.range`s.
//!
//! The `apply_indexing` bounds are set from the values the operands really
//! take (the promise the emitters make); the loops' bounds and constraints
//! are random (they are checks: points outside them do not run). A loop
//! yields the sum of a hash of each iteration's induction variables, map
//! results and body values, and its square, so running a different set of
//! points shows. `RXLA_PROPTEST_SEED=<n>` explores other programs.

use melior::ir::{operation::OperationLike, Module};
use rxla_indexing::{Expr, IndexingMap, Interval, Variable};
use rxla_ir::{
    op::{Op, Value},
    HloPass,
};
use rxla_lowering::simplify_indexing::XlaSimplifyIndexing;
use std::collections::HashMap;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// A random expression over `dims` dimensions and `syms` symbols.
fn expr(rng: &mut Rng, dims: usize, syms: usize, depth: usize) -> Expr {
    if depth == 0 || rng.chance(25) {
        let vars = dims + syms;
        if vars == 0 || rng.chance(15) {
            return Expr::constant(rng.int(-3, 6));
        }
        let v = rng.below(vars);
        return if v < dims { Expr::dim(v) } else { Expr::sym(v - dims) };
    }
    let a = expr(rng, dims, syms, depth - 1);
    let b = expr(rng, dims, syms, depth - 1);
    match rng.below(9) {
        0 | 1 => a.add(&b),
        2 => a.sub(&b),
        3 => a.mul_const(rng.int(-2, 5)),
        4 => a.floor_div_const(rng.int(1, 6)),
        5 => a.modulo_const(rng.int(1, 6)),
        6 => a.mul_const(rng.int(2, 9)).add(&b),
        7 => a.minimum(&b),
        _ => a.mul(&b),
    }
}

/// A value of the program: an index into `Program::values`.
type Slot = usize;

enum Node {
    Apply {
        operands: Vec<Slot>,
        /// The map with every variable's bounds still to be set.
        map: IndexingMap,
        results: Vec<Slot>,
    },
    Loop {
        dims: Vec<Slot>,
        map: IndexingMap,
        ivs: Vec<Slot>,
        map_results: Vec<Slot>,
        body: Vec<Node>,
        /// The values hashed per iteration.
        hashed: Vec<Slot>,
        outputs: [Slot; 2],
    },
}

struct Program {
    args: Vec<Interval>,
    constants: Vec<(Slot, i64)>,
    nodes: Vec<Node>,
    num_slots: usize,
    returned: Vec<Slot>,
}

struct Generator<'a> {
    rng: &'a mut Rng,
    num_slots: usize,
}

impl Generator<'_> {
    fn slot(&mut self) -> Slot {
        self.num_slots += 1;
        self.num_slots - 1
    }

    /// An apply_indexing over some of `available`; its results join them.
    fn apply(&mut self, available: &mut Vec<Slot>) -> Node {
        let num_operands = 1 + self.rng.below(3);
        let operands: Vec<Slot> = (0..num_operands).map(|_| available[self.rng.below(available.len())]).collect();
        let syms = if num_operands > 1 && self.rng.chance(30) { 1 } else { 0 };
        let dims = num_operands - syms;
        let results: Vec<Expr> = (0..1 + self.rng.below(2)).map(|_| expr(self.rng, dims, syms, 3)).collect();
        let placeholder = |n: usize| (0..n).map(|_| Variable::new(0, 0)).collect::<Vec<_>>();
        let map = IndexingMap::new(results, placeholder(dims), placeholder(syms), vec![], vec![]).unwrap();
        let results: Vec<Slot> = (0..map.num_results()).map(|_| self.slot()).collect();
        available.extend(&results);
        Node::Apply { operands, map, results }
    }

    fn program(&mut self) -> Program {
        let args: Vec<Interval> = (0..1 + self.rng.below(3))
            .map(|_| {
                let lo = if self.rng.chance(20) { self.rng.int(-4, 0) } else { self.rng.int(0, 10) };
                Interval::new(lo, lo + self.rng.int(0, 4))
            })
            .collect();
        let mut available: Vec<Slot> = (0..args.len()).map(|_| self.slot()).collect();
        let mut constants = Vec::new();
        for _ in 0..self.rng.below(3) {
            let slot = self.slot();
            constants.push((slot, self.rng.int(-2, 12)));
            available.push(slot);
        }
        let mut nodes = Vec::new();
        let mut returned = Vec::new();
        for _ in 0..2 + self.rng.below(5) {
            if self.rng.chance(25) {
                let node = self.for_loop(&available);
                if let Node::Loop { outputs, .. } = &node {
                    returned.extend(outputs);
                }
                nodes.push(node);
            } else {
                let node = self.apply(&mut available);
                if let Node::Apply { results, .. } = &node {
                    // Some results go unused.
                    returned.extend(results.iter().filter(|_| self.rng.chance(60)));
                }
                nodes.push(node);
            }
        }
        if returned.is_empty() {
            returned.push(*available.last().unwrap());
        }
        Program { args, constants, nodes, num_slots: self.num_slots, returned }
    }

    fn for_loop(&mut self, outer: &[Slot]) -> Node {
        let num_dims = self.rng.below(3);
        let dims: Vec<Slot> = (0..num_dims).map(|_| outer[self.rng.below(outer.len())]).collect();
        let num_syms = self.rng.below(3);
        let dim_vars: Vec<Variable> = (0..num_dims)
            .map(|_| {
                let lo = self.rng.int(-3, 8);
                Variable::new(lo, lo + self.rng.int(0, 12))
            })
            .collect();
        let range_vars: Vec<Variable> = (0..num_syms)
            .map(|_| {
                let lo = self.rng.int(-1, 2);
                Variable::new(lo, lo + self.rng.int(0, 3))
            })
            .collect();
        let results: Vec<Expr> = (0..self.rng.below(3)).map(|_| expr(self.rng, num_dims, num_syms, 3)).collect();
        let mut map = IndexingMap::new(results, dim_vars, range_vars, vec![], vec![]).unwrap();
        if self.rng.chance(50) {
            let e = expr(self.rng, num_dims, num_syms, 2);
            let range = map.expression_range(&e);
            let lo = range.lower.saturating_add(self.rng.int(0, 2)).max(-1000);
            let hi = range.upper.saturating_sub(self.rng.int(0, 2)).min(1000);
            let mut constrained = map.clone();
            if lo <= hi {
                constrained.add_constraint(e, Interval::new(lo, hi)).unwrap();
            }
            if !constrained.is_known_empty() {
                map = constrained;
            }
        }
        let ivs: Vec<Slot> = (0..num_syms).map(|_| self.slot()).collect();
        let map_results: Vec<Slot> = (0..map.num_results()).map(|_| self.slot()).collect();
        let mut available: Vec<Slot> = outer.iter().chain(&ivs).chain(&map_results).copied().collect();
        let body: Vec<Node> = (0..self.rng.below(3)).map(|_| self.apply(&mut available)).collect();
        let mut hashed: Vec<Slot> = ivs.iter().chain(&map_results).copied().collect();
        for node in &body {
            if let Node::Apply { results, .. } = node {
                hashed.extend(results);
            }
        }
        let outputs = [self.slot(), self.slot()];
        Node::Loop { dims, map, ivs, map_results, body, hashed, outputs }
    }
}

/// Every point of a box of intervals.
fn points(bounds: &[Interval]) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for b in bounds {
        out = out.into_iter().flat_map(|p| (b.lower..=b.upper).map(move |v| [p.clone(), vec![v]].concat())).collect();
    }
    out
}

fn hash(values: &[i64]) -> i64 {
    values.iter().fold(0i64, |h, v| h.wrapping_mul(1009).wrapping_add(*v))
}

/// Runs the program on one point, recording the values each apply_indexing
/// operand takes (by node address).
fn run_ast(program: &Program, args: &[i64], seen: &mut HashMap<(usize, usize), Vec<i64>>) -> Vec<i64> {
    let mut env = vec![0i64; program.num_slots];
    env[..args.len()].copy_from_slice(args);
    for (slot, c) in &program.constants {
        env[*slot] = *c;
    }
    fn run(nodes: &[Node], env: &mut Vec<i64>, seen: &mut HashMap<(usize, usize), Vec<i64>>) {
        for node in nodes {
            match node {
                Node::Apply { operands, map, results } => {
                    let values: Vec<i64> = operands.iter().map(|s| env[*s]).collect();
                    for (k, v) in values.iter().enumerate() {
                        seen.entry((node as *const Node as usize, k)).or_default().push(*v);
                    }
                    let out = map.evaluate(&values[..map.num_dims()], &values[map.num_dims()..]).unwrap();
                    for (slot, v) in results.iter().zip(out) {
                        env[*slot] = v;
                    }
                }
                Node::Loop { dims, map, ivs, map_results, body, hashed, outputs } => {
                    let dims: Vec<i64> = dims.iter().map(|s| env[*s]).collect();
                    let (mut sum, mut squares) = (0i64, 0i64);
                    for syms in points(&map.symbol_bounds()) {
                        if !map.contains_point(&dims, &syms) {
                            continue;
                        }
                        for (slot, v) in ivs.iter().zip(&syms) {
                            env[*slot] = *v;
                        }
                        for (slot, v) in map_results.iter().zip(map.evaluate(&dims, &syms).unwrap()) {
                            env[*slot] = v;
                        }
                        run(body, env, seen);
                        let h = hash(&hashed.iter().map(|s| env[*s]).collect::<Vec<_>>());
                        sum = sum.wrapping_add(h);
                        squares = squares.wrapping_add(h.wrapping_mul(h));
                    }
                    env[outputs[0]] = sum;
                    env[outputs[1]] = squares;
                }
            }
        }
    }
    run(&program.nodes, &mut env, seen);
    program.returned.iter().map(|s| env[*s]).collect()
}

/// Sets the bounds of every apply_indexing variable around the values its
/// operand takes.
fn set_bounds(rng: &mut Rng, nodes: &mut [Node], seen: &HashMap<(usize, usize), Vec<i64>>) {
    for node in nodes.iter_mut() {
        let key = node as *const Node as usize;
        match node {
            Node::Apply { map, operands, .. } => {
                let bounds: Vec<Variable> = (0..operands.len())
                    .map(|k| match seen.get(&(key, k)) {
                        Some(values) => {
                            let lo = *values.iter().min().unwrap() - [0, 0, 1, 3][rng.below(4)];
                            let hi = *values.iter().max().unwrap() + [0, 0, 1, 3][rng.below(4)];
                            Variable::new(lo, hi)
                        }
                        None => Variable::new(0, rng.int(0, 5)),
                    })
                    .collect();
                let nd = map.num_dims();
                *map = IndexingMap::new(
                    map.results().to_vec(),
                    bounds[..nd].to_vec(),
                    bounds[nd..].to_vec(),
                    vec![],
                    vec![],
                )
                .unwrap();
            }
            Node::Loop { body, .. } => set_bounds(rng, body, seen),
        }
    }
}

/// The SSA names of slots: `%v<slot>`, or `%v<first>#<k>` for the results
/// of multi-result ops.
struct Names(HashMap<Slot, String>);

impl Names {
    fn of(nodes: &[Node], names: &mut HashMap<Slot, String>) {
        for node in nodes {
            match node {
                Node::Apply { results, .. } if results.len() > 1 => {
                    for (k, r) in results.iter().enumerate() {
                        names.insert(*r, format!("%v{}#{k}", results[0]));
                    }
                }
                Node::Apply { .. } => {}
                Node::Loop { body, outputs, .. } => {
                    for (k, r) in outputs.iter().enumerate() {
                        names.insert(*r, format!("%v{}#{k}", outputs[0]));
                    }
                    Names::of(body, names);
                }
            }
        }
    }

    fn list(&self, slots: &[Slot]) -> String {
        slots.iter().map(|s| self.0.get(s).cloned().unwrap_or_else(|| format!("%v{s}"))).collect::<Vec<_>>().join(", ")
    }
}

fn write_nodes(nodes: &[Node], names: &Names, out: &mut String, indent: &str) {
    for node in nodes {
        match node {
            Node::Apply { operands, map, results } => {
                let nd = map.num_dims();
                let lhs = if results.len() == 1 {
                    format!("%v{}", results[0])
                } else {
                    format!("%v{}:{}", results[0], results.len())
                };
                let mut line = format!("{indent}{lhs} = xla.apply_indexing #xla.indexing_map<\"{map}\">");
                if nd > 0 {
                    line += &format!("({})", names.list(&operands[..nd]));
                }
                if operands.len() > nd {
                    line += &format!("[{}]", names.list(&operands[nd..]));
                }
                out.push_str(&line);
                out.push('\n');
            }
            Node::Loop { dims, map, ivs, map_results, body, hashed, outputs } => {
                let o = outputs[0];
                out.push_str(&format!(
                    "{indent}%v{o}:2 = xla.loop ({})[{}] -> ({}) in #xla.indexing_map<\"{map}\"> iter_args(%sum{o} = %zero, %sq{o} = %zero) -> (index, index) {{\n",
                    names.list(dims),
                    names.list(ivs),
                    names.list(map_results)
                ));
                let inner = format!("{indent}  ");
                write_nodes(body, names, out, &inner);
                out.push_str(&format!("{inner}%h{o}_0 = arith.addi %zero, %zero : index\n"));
                for (k, s) in hashed.iter().enumerate() {
                    out.push_str(&format!("{inner}%h{o}_{k}m = arith.muli %h{o}_{k}, %k1009 : index\n"));
                    out.push_str(&format!(
                        "{inner}%h{o}_{} = arith.addi %h{o}_{k}m, {} : index\n",
                        k + 1,
                        names.list(&[*s])
                    ));
                }
                let h = format!("%h{o}_{}", hashed.len());
                out.push_str(&format!("{inner}%s{o} = arith.addi %sum{o}, {h} : index\n"));
                out.push_str(&format!("{inner}%hh{o} = arith.muli {h}, {h} : index\n"));
                out.push_str(&format!("{inner}%q{o} = arith.addi %sq{o}, %hh{o} : index\n"));
                out.push_str(&format!("{inner}xla.yield %s{o}, %q{o} : index, index\n{indent}}}\n"));
            }
        }
    }
}

fn to_mlir(program: &Program) -> String {
    let args: Vec<String> = program
        .args
        .iter()
        .enumerate()
        .map(|(i, r)| format!("%v{i}: index {{xla.range = [{} : index, {} : index]}}", r.lower, r.upper))
        .collect();
    let results = vec!["index"; program.returned.len()].join(", ");
    let mut out = format!("func.func @f({}) -> ({results}) {{\n", args.join(", "));
    out.push_str("  %zero = arith.constant 0 : index\n  %k1009 = arith.constant 1009 : index\n");
    for (slot, c) in &program.constants {
        out.push_str(&format!("  %v{slot} = arith.constant {c} : index\n"));
    }
    let mut names = HashMap::new();
    Names::of(&program.nodes, &mut names);
    let names = Names(names);
    write_nodes(&program.nodes, &names, &mut out, "  ");
    out.push_str(&format!("  return {} : {results}\n}}\n", names.list(&program.returned)));
    out
}

/// Evaluates the function of a module of arith, xla.apply_indexing and
/// xla.loop ops.
fn run_mlir(module: &Module, args: &[i64]) -> Vec<i64> {
    fn block(ops: &[Op], env: &mut HashMap<Value, i64>) -> Vec<i64> {
        for op in ops {
            let name = op.name();
            let get = |env: &HashMap<Value, i64>, i: usize| env[&op.operand(i)];
            match name.as_str() {
                "arith.constant" => {
                    env.insert(op.result(0), op.int_attr("value").unwrap());
                }
                "arith.addi" => {
                    let v = get(env, 0).wrapping_add(get(env, 1));
                    env.insert(op.result(0), v);
                }
                "arith.muli" => {
                    let v = get(env, 0).wrapping_mul(get(env, 1));
                    env.insert(op.result(0), v);
                }
                "xla.apply_indexing" => {
                    let map = IndexingMap::parse(&op.indexing_map_text("indexing_map_attr").unwrap()).unwrap();
                    let values: Vec<i64> = (0..op.num_operands()).map(|i| get(env, i)).collect();
                    let out = map.evaluate(&values[..map.num_dims()], &values[map.num_dims()..]).unwrap();
                    for (i, v) in out.into_iter().enumerate() {
                        env.insert(op.result(i), v);
                    }
                }
                "xla.loop" => {
                    let map = IndexingMap::parse(&op.indexing_map_text("indexing_map_attr").unwrap()).unwrap();
                    let nd = map.num_dims();
                    let dims: Vec<i64> = (0..nd).map(|i| get(env, i)).collect();
                    let mut iter: Vec<i64> = (nd..op.num_operands()).map(|i| get(env, i)).collect();
                    let args = op.arguments();
                    let body = op.body_ops();
                    for syms in points(&map.symbol_bounds()) {
                        if !map.contains_point(&dims, &syms) {
                            continue;
                        }
                        let results = map.evaluate(&dims, &syms).unwrap();
                        for (arg, v) in args.iter().zip(syms.iter().chain(&results).chain(&iter)) {
                            env.insert(*arg, *v);
                        }
                        iter = block(&body, env);
                    }
                    for (i, v) in iter.into_iter().enumerate() {
                        env.insert(op.result(i), v);
                    }
                }
                "func.return" | "xla.yield" => {
                    return (0..op.num_operands()).map(|i| get(env, i)).collect();
                }
                other => panic!("unexpected op {other}"),
            }
        }
        panic!("block without terminator")
    }
    let root = Op::of(&module.as_operation());
    let func = root.walk_preorder().into_iter().find(|op| op.is_named("func.func")).unwrap();
    let mut env: HashMap<Value, i64> = func.arguments().into_iter().zip(args.iter().copied()).collect();
    block(&func.body_ops(), &mut env)
}

fn count(module: &Module, name: &str) -> usize {
    Op::of(&module.as_operation()).walk_preorder().iter().filter(|op| op.is_named(name)).count()
}

#[test]
fn random_programs_compute_the_same() {
    let seed: u64 = std::env::var("RXLA_PROPTEST_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(7);
    let mut rng = Rng(seed);
    let context = rxla_dialects::create_context();
    let (mut applies_before, mut applies_after, mut loops_before, mut loops_after) = (0, 0, 0, 0);
    for case in 0..300 {
        let mut program = Generator { rng: &mut rng, num_slots: 0 }.program();
        let inputs = points(&program.args);
        let mut seen = HashMap::new();
        for args in &inputs {
            run_ast(&program, args, &mut seen);
        }
        set_bounds(&mut rng, &mut program.nodes, &seen);
        let expected: Vec<Vec<i64>> = inputs.iter().map(|args| run_ast(&program, args, &mut HashMap::new())).collect();

        let text = to_mlir(&program);
        let module = Module::parse(&context, &text).unwrap_or_else(|| panic!("case {case} does not parse:\n{text}"));
        assert!(module.as_operation().verify(), "case {case} does not verify:\n{text}");
        for (args, want) in inputs.iter().zip(&expected) {
            assert_eq!(&run_mlir(&module, args), want, "case {case}: the evaluator disagrees at {args:?}:\n{text}");
        }
        applies_before += count(&module, "xla.apply_indexing");
        loops_before += count(&module, "xla.loop");

        XlaSimplifyIndexing.run(module.as_operation()).unwrap_or_else(|e| panic!("case {case}: {e}\n{text}"));
        let after = module.as_operation().to_string();
        assert!(module.as_operation().verify(), "case {case}: result does not verify:\n{text}\n{after}");
        for (args, want) in inputs.iter().zip(&expected) {
            assert_eq!(&run_mlir(&module, args), want, "case {case} at {args:?}:\n{text}\n=>\n{after}");
        }
        applies_after += count(&module, "xla.apply_indexing");
        loops_after += count(&module, "xla.loop");

        // A second run finds nothing to do.
        XlaSimplifyIndexing.run(module.as_operation()).unwrap();
        assert_eq!(module.as_operation().to_string(), after, "case {case}: not a fixed point");
    }
    eprintln!("apply_indexing {applies_before} -> {applies_after}, xla.loop {loops_before} -> {loops_after}");
    assert!(applies_after < applies_before);
}
