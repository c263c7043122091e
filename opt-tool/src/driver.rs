//! Runs a pipeline one pass at a time, so that hlo-opt can skip passes by
//! name (`--disable-passes`), repeat groups to a fixed point (the HLO
//! pipeline's simplification loop), and run the interpreter after every
//! pass to find the first pass that changes the program's result
//! (`--run-after-each-pass`).
//!
//! Each step gets its own MLIR PassManager (with the verifier and IR
//! printing options of the command line), so MLIR instrumentation works
//! per pass as with a single manager.

use crate::pipeline::{self, Element};
use melior::{
    ir::Module,
    pass::{PassIrPrintingOptions, PassManager},
    Context,
};
use rxla_interpreter::{compare, Interpreter, Literal};
use rxla_passes::pipeline::Step;
use std::{
    collections::HashSet,
    path::PathBuf,
    time::{Duration, Instant},
};

/// A step the driver runs.
#[derive(Clone, Debug)]
pub enum Item {
    /// One pipeline element (a pass, or a nested group of passes).
    Element(Element),
    /// Items repeated until the module stops changing.
    Fixpoint { name: String, items: Vec<Item>, max_iterations: usize },
}

impl Item {
    /// The driver's items for a platform pipeline.
    pub fn from_steps(steps: &[Step]) -> Vec<Item> {
        steps
            .iter()
            .map(|s| match s {
                Step::Pass { name, options } => {
                    Item::Element(Element::Pass { name: name.to_string(), options: options.to_string() })
                }
                Step::Fixpoint { name, steps, max_iterations } => Item::Fixpoint {
                    name: name.to_string(),
                    items: Item::from_steps(steps),
                    max_iterations: *max_iterations,
                },
            })
            .collect()
    }

    /// Every pass name in the items.
    pub fn pass_names(items: &[Item]) -> Vec<String> {
        fn element_names(e: &Element, out: &mut Vec<String>) {
            match e {
                Element::Pass { name, .. } => out.push(name.clone()),
                Element::Nested { elements, .. } => elements.iter().for_each(|e| element_names(e, out)),
            }
        }
        let mut out = Vec::new();
        for item in items {
            match item {
                Item::Element(e) => element_names(e, &mut out),
                Item::Fixpoint { items, .. } => out.extend(Item::pass_names(items)),
            }
        }
        out
    }
}

/// The interpreter check after each pass.
pub struct Checker {
    pub arguments: Vec<Literal>,
    /// The result of the input module.
    pub reference: Literal,
    pub atol: f64,
    pub rtol: f64,
    /// Where to write the module before and after the culprit pass.
    pub dump_dir: Option<PathBuf>,
}

impl Checker {
    /// Evaluates `module` on the checker's arguments.
    pub fn evaluate(module: &Module, arguments: &[Literal]) -> Result<Literal, String> {
        let ast = rxla_translate::export::export_ast(module).map_err(|e| e.to_string())?;
        Interpreter::new(&ast).run(arguments).map_err(|e| e.to_string())
    }
}

/// How the driver runs.
pub struct Options<'a> {
    pub verify_each: bool,
    pub disabled: &'a HashSet<String>,
    pub ir_printing: Option<PassIrPrintingOptions>,
    pub checker: Option<Checker>,
    /// Passes after (before) which the module is printed to stderr
    /// (`--mlir-print-ir-after=NAME`, `--mlir-print-ir-before=NAME`).
    pub print_after: &'a [String],
    pub print_before: &'a [String],
    /// Print the wall time of every pass to stderr at the end
    /// (`--mlir-timing`).
    pub timing: bool,
    /// Where to write a reproducer when a pass fails
    /// (`--mlir-pass-pipeline-crash-reproducer`).
    pub reproducer: Option<&'a std::path::Path>,
    /// Print per-pass statistics to stderr at the end
    /// (`--mlir-pass-statistics`).
    pub statistics: bool,
}

/// What is recorded per pass name: its wall time (`--mlir-timing`) and
/// what `--mlir-pass-statistics` counts (rxla's passes keep no counters of
/// their own, so these are the ones any pass has).
#[derive(Clone, Copy, Default)]
struct PassRecord {
    time: Duration,
    runs: usize,
    changed: usize,
    ops_before: usize,
    ops_after: usize,
}

fn count_ops(module: &Module) -> usize {
    rxla_ir::op::Op::of(&module.as_operation()).walk_preorder().len()
}

/// The statistics in the layout of mlir-opt's `--mlir-pass-statistics
/// --mlir-pass-statistics-display=list`.
fn statistics_report(stats: &[(String, PassRecord)]) -> String {
    let rule = "===-------------------------------------------------------------------------===";
    let mut out = format!("{rule}\n                         ... Pass statistics report ...\n{rule}\n");
    for (name, s) in stats {
        out.push_str(&format!("{name}\n"));
        out.push_str(&format!("  (S) {} runs - Number of times the pass ran\n", s.runs));
        out.push_str(&format!("  (S) {} runs-changed - Runs after which the module was different\n", s.changed));
        out.push_str(&format!(
            "  (S) {} ops-before - Operations in the module before each run, summed\n",
            s.ops_before
        ));
        out.push_str(&format!("  (S) {} ops-after - Operations in the module after each run, summed\n", s.ops_after));
    }
    out
}

/// Why the driver stopped.
pub enum Stop {
    /// A pass failed (diagnostics went to the context's handlers).
    Failed,
    /// The pipeline text or a pass option is bad.
    Tool(anyhow::Error),
    /// `--run-after-each-pass` found the pass that changed the result; the
    /// report says which and how.
    Miscompile(String),
}

struct State<'a, 'o> {
    context: &'a Context,
    options: &'o Options<'o>,
    /// Passes run so far (for reports).
    step: usize,
    /// Per pass name, in the order the passes first ran.
    records: Vec<(String, PassRecord)>,
}

/// Runs `items` over `module`.
pub fn run(context: &Context, module: &mut Module, items: &[Item], options: &Options) -> Result<(), Stop> {
    let mut state = State { context, options, step: 0, records: Vec::new() };
    let result = state.items(module, items);
    if options.timing {
        eprint!("{}", timing_report(&state.records));
    }
    if options.statistics {
        eprint!("{}", statistics_report(&state.records));
    }
    result
}

/// The times in the layout of MLIR's `--mlir-timing --mlir-timing-display=list`.
fn timing_report(records: &[(String, PassRecord)]) -> String {
    let total: f64 = records.iter().map(|(_, r)| r.time.as_secs_f64()).sum();
    let rule = "===-------------------------------------------------------------------------===";
    let mut out = format!("{rule}\n                         ... Execution time report ...\n{rule}\n");
    out.push_str(&format!("  Total Execution Time: {total:.4} seconds\n\n  ----Wall Time----  ----Name----\n"));
    let percent = |t: f64| if total > 0.0 { 100.0 * t / total } else { 0.0 };
    for (name, r) in records {
        let t = r.time.as_secs_f64();
        out.push_str(&format!("  {t:8.4} ({:5.1}%)  {name}\n", percent(t)));
    }
    out.push_str(&format!("  {total:8.4} ({:5.1}%)  Total\n", percent(total)));
    out
}

/// True if `element` is, or holds, a pass named in `names`.
fn names_any(element: &Element, names: &[String]) -> bool {
    match element {
        Element::Pass { name, .. } => names.iter().any(|n| n == name),
        Element::Nested { elements, .. } => elements.iter().any(|e| names_any(e, names)),
    }
}

impl State<'_, '_> {
    fn items(&mut self, module: &mut Module, items: &[Item]) -> Result<(), Stop> {
        for item in items {
            match item {
                Item::Element(element) => {
                    if let Some(element) = without_disabled(element, self.options.disabled) {
                        self.element(module, &element)?;
                    }
                }
                Item::Fixpoint { name, items, max_iterations } => {
                    let mut converged = false;
                    let mut before = rxla_ir::pipeline::Snapshot::of(module);
                    for _ in 0..*max_iterations {
                        self.items(module, items)?;
                        let after = rxla_ir::pipeline::Snapshot::of(module);
                        if after == before {
                            converged = true;
                            break;
                        }
                        before = after;
                    }
                    if !converged {
                        // Not an error (the IR is valid), but a sign that two
                        // rewrites undo each other.
                        eprintln!("hlo-opt: note: '{name}' still changed the module after {max_iterations} iterations");
                    }
                }
            }
        }
        Ok(())
    }

    fn element(&mut self, module: &mut Module, element: &Element) -> Result<(), Stop> {
        self.step += 1;
        let manager = PassManager::new(self.context);
        manager.enable_verifier(self.options.verify_each);
        if let Some(printing) = &self.options.ir_printing {
            manager.enable_ir_printing(printing);
        }
        pipeline::build(&manager, std::slice::from_ref(element)).map_err(Stop::Tool)?;
        // The module before the pass, for the checker's report and the
        // reproducer.
        let before = (self.options.checker.is_some() || self.options.reproducer.is_some())
            .then(|| module.as_operation().to_string());
        let name = element_name(element);
        if names_any(element, self.options.print_before) {
            eprintln!("// -----// IR Dump Before {name} //----- //\n{}", module.as_operation());
        }
        let counted = self.options.statistics.then(|| (rxla_ir::pipeline::Snapshot::of(module), count_ops(module)));
        let start = Instant::now();
        let ran = manager.run(module);
        let elapsed = start.elapsed();
        let record = match self.records.iter().position(|(n, _)| *n == name) {
            Some(i) => &mut self.records[i].1,
            None => {
                self.records.push((name.clone(), PassRecord::default()));
                &mut self.records.last_mut().expect("just pushed").1
            }
        };
        record.time += elapsed;
        if let Some((shape, ops)) = counted {
            record.runs += 1;
            record.changed += (ran.is_ok() && rxla_ir::pipeline::Snapshot::of(module) != shape) as usize;
            record.ops_before += ops;
            record.ops_after += if ran.is_ok() { count_ops(module) } else { ops };
        }
        if ran.is_err() {
            if let (Some(path), Some(before)) = (self.options.reproducer, &before) {
                let text = crate::reproducer::render(before, element, self.options.verify_each);
                match std::fs::write(path, text) {
                    Ok(()) => eprintln!(
                        "hlo-opt: note: wrote a reproducer of the failing pass '{name}' to {} (run it with: hlo-opt {} --run-reproducer)",
                        path.display(),
                        path.display()
                    ),
                    Err(e) => eprintln!("hlo-opt: error: could not write the reproducer to {}: {e}", path.display()),
                }
            }
            return Err(Stop::Failed);
        }
        if names_any(element, self.options.print_after) {
            eprintln!("// -----// IR Dump After {name} //----- //\n{}", module.as_operation());
        }
        if let (Some(checker), Some(before)) = (&self.options.checker, before) {
            let after = Checker::evaluate(module, &checker.arguments);
            let problem = match &after {
                Ok(result) => compare::first_mismatch(result, &checker.reference, checker.atol, checker.rtol)
                    .map(|m| format!("the result changed: {m}")),
                Err(e) => Some(format!("the module no longer runs in the interpreter: {e}")),
            };
            if let Some(problem) = problem {
                let mut report = format!("pass '{name}' (step {}) changed the program: {problem}", self.step);
                if let Some(dir) = &checker.dump_dir {
                    let _ = std::fs::create_dir_all(dir);
                    let b = dir.join(format!("before_{name}.mlir"));
                    let a = dir.join(format!("after_{name}.mlir"));
                    let written =
                        std::fs::write(&b, &before).and_then(|_| std::fs::write(&a, module.as_operation().to_string()));
                    match written {
                        Ok(()) => report.push_str(&format!(
                            "\n  module before the pass: {}\n  module after the pass: {}\n  reproduce: hlo-opt {} --passes={name}",
                            b.display(),
                            a.display(),
                            b.display()
                        )),
                        Err(e) => report.push_str(&format!("\n  could not write the modules to {}: {e}", dir.display())),
                    }
                }
                report.push_str(&format!("\n  skip it with --disable-passes={name}"));
                return Err(Stop::Miscompile(report));
            }
        }
        Ok(())
    }
}

fn element_name(element: &Element) -> String {
    match element {
        Element::Pass { name, .. } => name.clone(),
        Element::Nested { anchor, elements } => {
            format!("{anchor}({})", elements.iter().map(element_name).collect::<Vec<_>>().join(","))
        }
    }
}

/// The element with disabled passes removed (None if nothing is left).
fn without_disabled(element: &Element, disabled: &HashSet<String>) -> Option<Element> {
    match element {
        Element::Pass { name, .. } => (!disabled.contains(name)).then(|| element.clone()),
        Element::Nested { anchor, elements } => {
            let kept: Vec<Element> = elements.iter().filter_map(|e| without_disabled(e, disabled)).collect();
            (!kept.is_empty()).then(|| Element::Nested { anchor: anchor.clone(), elements: kept })
        }
    }
}
