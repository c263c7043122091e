//! `rxla-opt`: the driver of `hlo-opt` as a library, what `MlirOptMain`
//! is to mlir-opt. It parses, verifies, transforms and prints hlo IR.
//!
//! Rust passes (`--list-passes`) and upstream MLIR passes mix in one
//! pipeline: `--passes=dce,canonicalize,cse` or
//! `--pass-pipeline='builtin.module(dce,func.func(cse))'`. `--stage=hlo
//! --platform=cpu|gpu` runs a platform's default HLO pipeline;
//! `--disable-passes` skips passes in any pipeline and
//! `--run-after-each-pass` finds the first pass that changes the result.
//!
//! A downstream project builds its own opt tool from [`Registry::rxla`]
//! plus its passes and dialects:
//!
//! ```no_run
//! fn main() -> std::process::ExitCode {
//!     let registry = rxla_opt::Registry::rxla(); // .with_passes("My passes", &[rxla_ir::pass!(MyPass)])
//!     rxla_opt::opt_main("my-opt", registry)
//! }
//! ```
//!
//! [`run_opt`] runs the same driver in-process on a string (the Python
//! package's `run_passes`). See docs/rust-api.md.

pub mod cli;
pub mod diagnostics;
mod driver;
mod emitter_stage;
mod input;
pub mod load;
mod pipeline;
pub mod registry;
mod reproducer;

pub use registry::Registry;

use anyhow::{bail, Context as _, Result};
use clap::Parser;
use diagnostics::{Collector, Severity};
use melior::{
    ir::{operation::OperationLike, operation::OperationPrintingFlags, Module},
    pass::PassIrPrintingOptions,
    Context,
};
use std::{
    cell::RefCell,
    collections::HashSet,
    ffi::OsString,
    io::{Read, Write},
    path::PathBuf,
    process::ExitCode,
};

#[derive(Parser, Debug)]
#[command(name = "hlo-opt", version, about = "Parse, verify, transform and print rxla's hlo IR")]
struct Args {
    /// Input file (`-` for standard input).
    #[arg(default_value = "-")]
    input: String,

    /// Output file (`-` for standard output).
    #[arg(short = 'o', long = "output", default_value = "-")]
    output: String,

    /// Comma-separated passes to run in order (Rust passes from
    /// --list-passes and upstream MLIR passes, each optionally `name{opt=v}`).
    #[arg(long, value_name = "PASSES")]
    passes: Option<String>,

    /// A full MLIR pipeline: `builtin.module(dce,func.func(cse))`.
    #[arg(long = "pass-pipeline", value_name = "PIPELINE")]
    pass_pipeline: Option<String>,

    /// List rxla's passes with a one-line description and exit.
    #[arg(long = "list-passes")]
    list_passes: bool,

    /// Run the compiler up to this stage for --platform (see --list-stages).
    #[arg(long, value_enum, requires = "platform", conflicts_with_all = ["passes", "pass_pipeline"])]
    stage: Option<Stage>,

    /// The platform whose pipeline --stage runs.
    #[arg(long, value_enum)]
    platform: Option<PlatformArg>,

    /// The GPU of --platform=gpu: `sm_80`, `sm_90` (also `a100`, `h100`,
    /// `h200`), or a target-description file in the text format of XLA's
    /// --xla_gpu_target_config_filename (`gpu_device_info { ... }`).
    #[arg(long = "gpu-target", default_value = "sm_90")]
    gpu_target: String,

    /// The PTX ISA version of --stage=ptx (`MAJOR.MINOR`); defaults to the
    /// oldest version that supports the SM (see docs/gpu-backend.md).
    #[arg(long = "ptx-version", value_name = "X.Y")]
    ptx_version: Option<String>,

    /// List the stages --stage accepts, with the passes of each, and exit.
    #[arg(long = "list-stages")]
    list_stages: bool,

    /// Comma-separated pass names to skip wherever they occur in the
    /// pipeline (--stage, --passes or --pass-pipeline).
    #[arg(long = "disable-passes", value_name = "PASSES", value_delimiter = ',')]
    disable_passes: Vec<String>,

    /// Run the interpreter on these inputs (`FILE.npz`, or `random`) before
    /// the pipeline and after every pass; stop at the first pass that changes
    /// the result and say how.
    #[arg(long = "run-after-each-pass", value_name = "INPUTS")]
    run_after_each_pass: Option<String>,

    /// Seed of `--run-after-each-pass=random`.
    #[arg(long = "run-seed", default_value_t = 0)]
    run_seed: u64,

    /// Absolute tolerance of --run-after-each-pass (default: exact).
    #[arg(long = "run-atol", default_value_t = 0.0)]
    run_atol: f64,

    /// Relative tolerance of --run-after-each-pass (default: exact).
    #[arg(long = "run-rtol", default_value_t = 0.0)]
    run_rtol: f64,

    /// With --run-after-each-pass: write the module before and after the
    /// culprit pass to this directory.
    #[arg(long = "run-dump-dir", value_name = "DIR")]
    run_dump_dir: Option<PathBuf>,

    /// Split the input at `// -----` lines and process each piece alone.
    #[arg(long = "split-input-file")]
    split_input_file: bool,

    /// Check diagnostics against `// expected-error {{...}}` comments.
    #[arg(long = "verify-diagnostics")]
    verify_diagnostics: bool,

    /// Verify the IR after each pass (default: true).
    #[arg(long = "verify-each", default_value_t = true, action = clap::ArgAction::Set,
          num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    verify_each: bool,

    /// Print the IR after every pass (to stderr).
    #[arg(long = "mlir-print-ir-after-all", alias = "print-ir-after-all")]
    print_ir_after_all: bool,

    /// Print the IR before every pass (to stderr).
    #[arg(long = "mlir-print-ir-before-all", alias = "print-ir-before-all")]
    print_ir_before_all: bool,

    /// Print the IR after a pass only when the pass changed it.
    #[arg(long = "mlir-print-ir-after-change")]
    print_ir_after_change: bool,

    /// Print the IR after each run of the named passes (to stderr;
    /// comma-separated or repeated).
    #[arg(long = "mlir-print-ir-after", value_name = "PASSES", value_delimiter = ',')]
    print_ir_after: Vec<String>,

    /// Print the IR before each run of the named passes (to stderr).
    #[arg(long = "mlir-print-ir-before", value_name = "PASSES", value_delimiter = ',')]
    print_ir_before: Vec<String>,

    /// Print, for every pass when the pipeline ends, how often it ran, how
    /// often it changed the module and the operation counts before and
    /// after (to stderr; mlir-opt's list layout).
    #[arg(long = "mlir-pass-statistics")]
    statistics: bool,

    /// When a pass fails, write the module as it was before the pass and
    /// the pass to FILE, in mlir-opt's reproducer format.
    #[arg(long = "mlir-pass-pipeline-crash-reproducer", value_name = "FILE")]
    crash_reproducer: Option<PathBuf>,

    /// The input is a reproducer: run the pipeline it names on its module.
    #[arg(long = "run-reproducer", conflicts_with_all = ["passes", "pass_pipeline", "stage"])]
    run_reproducer: bool,

    /// Print the wall time of every pass (summed over its runs) to stderr,
    /// in the layout of mlir-opt's `--mlir-timing --mlir-timing-display=list`.
    #[arg(long = "mlir-timing")]
    timing: bool,

    /// Print operations in MLIR's generic form.
    #[arg(long = "mlir-print-op-generic")]
    print_op_generic: bool,

    /// Print source locations.
    #[arg(long = "mlir-print-debuginfo")]
    print_debuginfo: bool,

    /// Elide element data of constants larger than N elements.
    #[arg(long = "mlir-elide-elementsattrs-if-larger", value_name = "N")]
    elide_elements: Option<usize>,

    /// Input format: `mlir`, `hlo` (XLA's HLO text), or `auto` (by file
    /// extension: `.hlo` is HLO text; standard input is MLIR).
    #[arg(long = "input-format", value_enum, default_value_t = InputFormat::Auto)]
    input_format: InputFormat,

    /// Output format; defaults to the input's format.
    #[arg(long = "emit", value_enum)]
    emit: Option<Format>,

    /// Accept ops of dialects rxla does not register.
    #[arg(long = "allow-unregistered-dialect")]
    allow_unregistered_dialect: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Stage {
    /// The program each partition runs: sharding propagation and the SPMD
    /// partitioner for the module's num_partitions (before the platform's
    /// HLO pipeline).
    Spmd,
    /// The platform's HLO pipeline: simplification, canonicalization,
    /// layout normalization and fusion.
    Hlo,
    /// The HLO pipeline, then every fusion through the emitters: prints
    /// the kernels' un-lowered MLIR.
    Emitter,
    /// The kernels lowered to `scf` loops over flat tensors.
    Scf,
    /// The scf stage with the contiguous accesses of lane loops as
    /// `vector` transfers.
    Vector,
    /// The kernels in the `llvm` dialect (pointers, loads and stores).
    #[value(name = "llvm-mlir")]
    LlvmMlir,
    /// LLVM IR as translated from the `llvm` dialect.
    #[value(name = "llvm-before-optimizations")]
    LlvmBeforeOptimizations,
    /// LLVM IR after LLVM's optimization pipeline for the target.
    Llvm,
    /// Assembly for the host CPU (--platform=cpu).
    Asm,
    /// An ELF object file of the kernels for the host CPU (--platform=cpu;
    /// binary, so it needs -o FILE): the CPU kernel ABI, for linking ahead
    /// of time.
    Obj,
    /// PTX for the GPU (--platform=gpu).
    Ptx,
    /// The GPU thunk sequence (--platform=gpu): kernel launches with their
    /// dimensions, library calls, copies, host steps and control flow,
    /// with the buffer slices each reads and writes.
    Thunks,
}

impl Stage {
    /// Stages after the emitters work on the kernel module.
    fn lowers(self) -> bool {
        !matches!(self, Stage::Spmd | Stage::Hlo | Stage::Emitter)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum PlatformArg {
    Cpu,
    Gpu,
}

impl PlatformArg {
    fn platform(self) -> rxla_passes::pipeline::Platform {
        match self {
            PlatformArg::Cpu => rxla_passes::pipeline::Platform::Cpu,
            PlatformArg::Gpu => rxla_passes::pipeline::Platform::Gpu,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum InputFormat {
    Auto,
    Mlir,
    Hlo,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// MLIR (the hlo dialect), custom or generic form.
    Mlir,
    /// XLA's HLO text.
    Hlo,
}

/// Runs an opt tool named `tool` (in `--help`, `--version` and messages)
/// with `registry` on the process's command line: `hlo-opt`'s `main` is
/// `opt_main("hlo-opt", Registry::rxla())`.
pub fn opt_main(tool: &'static str, registry: Registry) -> ExitCode {
    if let Err(e) = registry::install(registry) {
        eprintln!("{tool}: error: {e}");
        return ExitCode::FAILURE;
    }
    let args = match parse_args(tool, std::env::args_os()) {
        Ok(args) => args,
        Err(e) => e.exit(),
    };
    let reporter = Reporter { tool, buffer: None };
    let outcome = read_input(&args).and_then(|(text, name)| run(&args, text, name, &reporter));
    match outcome {
        Ok(Outcome { output, ok }) => {
            if let Some(output) = output {
                if let Err(e) = write_output(&args, &output) {
                    eprintln!("{tool}: error: {e:#}");
                    return ExitCode::FAILURE;
                }
            }
            if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(error) => {
            eprintln!("{tool}: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// What [`run_opt`] produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptOutput {
    /// What the tool would print to standard output (or write to `-o`).
    pub output: String,
    /// The diagnostics and errors it would print to standard error, one
    /// per line in order (IR printing of `--mlir-print-ir-*`, timing and
    /// statistics still go to the process's standard error).
    pub diagnostics: String,
    /// The tool's exit status would be 0.
    pub success: bool,
}

/// Runs the driver in-process on `input` with hlo-opt's flags (`args`
/// without the program name and without an input file), using the
/// process's registry ([`registry::current`]): the in-memory equivalent of
/// `echo "$input" | hlo-opt ARGS`. Flags like `--input-format=hlo` say
/// how to read the text.
pub fn run_opt(args: &[&str], input: &str) -> OptOutput {
    let tool = "hlo-opt";
    let argv = std::iter::once(OsString::from(tool)).chain(args.iter().map(OsString::from));
    let args = match parse_args(tool, argv) {
        Ok(args) => args,
        Err(e) => return OptOutput { output: String::new(), diagnostics: e.to_string(), success: false },
    };
    if args.input != "-" {
        let diagnostics = format!("{tool}: error: run_opt reads its input from the string, not '{}'\n", args.input);
        return OptOutput { output: String::new(), diagnostics, success: false };
    }
    let reporter = Reporter { tool, buffer: Some(RefCell::new(String::new())) };
    let outcome = run(&args, input.to_string(), "<input>".to_string(), &reporter);
    let (output, success) = match outcome {
        Ok(Outcome { output, ok }) => (output.unwrap_or_default(), ok),
        Err(error) => {
            reporter.emit(format_args!("{tool}: error: {error:#}"));
            (String::new(), false)
        }
    };
    OptOutput { output, diagnostics: reporter.buffer.map(RefCell::into_inner).unwrap_or_default(), success }
}

/// The command line, with mlir-opt's single-dash long options accepted.
fn parse_args(tool: &'static str, argv: impl IntoIterator<Item = OsString>) -> Result<Args, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let command = Args::command().name(tool).bin_name(tool);
    let argv = cli::double_dash_long_options(&command, argv);
    command.try_get_matches_from(argv).and_then(|m| Args::from_arg_matches(&m))
}

/// Where diagnostics go: standard error as they come (the tool), or a
/// buffer ([`run_opt`]).
struct Reporter {
    tool: &'static str,
    buffer: Option<RefCell<String>>,
}

impl Reporter {
    fn emit(&self, line: std::fmt::Arguments) {
        match &self.buffer {
            Some(buffer) => {
                use std::fmt::Write as _;
                let _ = writeln!(buffer.borrow_mut(), "{line}");
            }
            None => eprintln!("{line}"),
        }
    }
}

/// The result of a run: the text to print (None for --list-* already
/// printed and for object files already written) and whether it succeeded.
struct Outcome {
    output: Option<String>,
    ok: bool,
}

fn read_input(args: &Args) -> Result<(String, String)> {
    if args.list_passes || args.list_stages {
        return Ok((String::new(), String::new()));
    }
    if args.input == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).context("reading standard input")?;
        Ok((text, "<stdin>".to_string()))
    } else {
        let text = std::fs::read_to_string(&args.input).with_context(|| format!("cannot read '{}'", args.input))?;
        Ok((text, args.input.clone()))
    }
}

fn write_output(args: &Args, output: &str) -> Result<()> {
    if args.output == "-" {
        print_ignoring_closed_pipe(output);
        Ok(())
    } else {
        std::fs::write(PathBuf::from(&args.output), output).with_context(|| format!("cannot write '{}'", args.output))
    }
}

fn list_stages() -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    use rxla_passes::pipeline::{hlo_pipeline, Platform};
    let _ = writeln!(out, "Stages (--stage=NAME --platform=cpu|gpu):");
    let spmd: Vec<String> = rxla_passes::pipeline::spmd_pipeline().iter().map(|s| s.to_string()).collect();
    let _ = writeln!(out, "  spmd  the program each of num_partitions partitions runs: {}", spmd.join(", "));
    let _ = writeln!(out, "  hlo  the platform's HLO pipeline:");
    for platform in [Platform::Cpu, Platform::Gpu] {
        let _ = writeln!(out, "       {}:", platform.name());
        for step in hlo_pipeline(platform) {
            let _ = writeln!(out, "         {step}");
        }
    }
    let _ = writeln!(out, "  emitter  the hlo stage, then each fusion to kernel IR (--gpu-target=sm_80|sm_90);");
    let _ = writeln!(out, "           a header-less `fusion {{ ... }}` HLO file goes straight to the emitters");
    let names =
        |steps: Vec<rxla_passes::pipeline::Step>| steps.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ");
    for (stage, steps) in [("scf", "the emitter stage"), ("vector", "the scf stage"), ("llvm-mlir", "the vector stage")]
    {
        let _ = writeln!(out, "  {stage}  {steps}, then:");
        for platform in [Platform::Cpu, Platform::Gpu] {
            let list = match stage {
                "scf" => rxla_lowering::pipeline::scf_steps(platform),
                "vector" => rxla_lowering::pipeline::vector_steps(platform),
                _ => rxla_lowering::pipeline::llvm_steps(platform),
            };
            let _ = writeln!(out, "       {}: {}", platform.name(), names(list));
        }
    }
    let _ = writeln!(out, "  llvm-before-optimizations  the llvm-mlir stage translated to LLVM IR (kernels merged; cpu: host attributes; gpu: nvptx64 triple)");
    let _ = writeln!(
        out,
        "  llvm  LLVM IR after LLVM's optimization (cpu: for the host CPU, O3 or the light pipeline per kernel; gpu: O3, libdevice linked, for the SM)"
    );
    let _ = writeln!(out, "  asm  (cpu) the host CPU's assembly");
    let _ = writeln!(out, "  obj  (cpu) an ELF object file of the kernels (-o FILE)");
    let _ = writeln!(out, "  ptx  (gpu) PTX for --gpu-target and --ptx-version");
    let _ = writeln!(out, "  thunks  (gpu) the thunk sequence: launches (blocks, threads), cuBLAS gemms, copies, host steps, control flow, buffer slices");
    out
}

/// The driver's options from the command line (no interpreter check).
fn driver_options<'a>(
    args: &'a Args,
    disabled: &'a HashSet<String>,
    ir_printing: Option<PassIrPrintingOptions>,
) -> driver::Options<'a> {
    driver::Options {
        verify_each: args.verify_each,
        disabled,
        ir_printing,
        checker: None,
        print_after: &args.print_ir_after,
        print_before: &args.print_ir_before,
        timing: args.timing,
        reproducer: args.crash_reproducer.as_deref(),
        statistics: args.statistics,
    }
}

/// MLIR's IR printing for `--mlir-print-ir-{before,after}-all` and
/// `--mlir-print-ir-after-change`, if any is given.
fn ir_printing(args: &Args) -> Option<PassIrPrintingOptions> {
    (args.print_ir_after_all || args.print_ir_before_all || args.print_ir_after_change).then(|| PassIrPrintingOptions {
        before_all: args.print_ir_before_all,
        after_all: args.print_ir_after_all || args.print_ir_after_change,
        module_scope: true,
        on_change: args.print_ir_after_change,
        on_failure: false,
        flags: printing_flags(args),
        tree_printing_path: PathBuf::new(),
    })
}

fn printing_flags(args: &Args) -> OperationPrintingFlags {
    let mut flags = OperationPrintingFlags::new();
    if args.print_op_generic {
        flags = flags.print_generic_operation_form();
    }
    if args.print_debuginfo {
        flags = flags.enable_debug_info(true, false);
    }
    if let Some(limit) = args.elide_elements {
        flags = flags.elide_large_elements_attributes(limit);
    }
    flags
}

/// Runs the command line on `text` (named `display_name` in diagnostics).
fn run(args: &Args, text: String, display_name: String, reporter: &Reporter) -> Result<Outcome> {
    let registry = registry::current();
    if args.list_passes {
        return Ok(Outcome { output: Some(registry.list_passes()), ok: true });
    }
    if args.list_stages {
        return Ok(Outcome { output: Some(list_stages()), ok: true });
    }
    let (text, reproduced) = if args.run_reproducer {
        let (pipeline, module) = reproducer::split(&text).with_context(|| display_name.clone())?;
        (module, Some(pipeline))
    } else {
        (text, None)
    };
    let pass_pipeline = reproduced.as_ref().or(args.pass_pipeline.as_ref());
    let items: Vec<driver::Item> = match (&args.passes, pass_pipeline, args.stage) {
        (Some(_), Some(_), _) => bail!("use either --passes or --pass-pipeline, not both"),
        (Some(passes), None, None) => {
            pipeline::parse_elements(passes)?.into_iter().map(driver::Item::Element).collect()
        }
        (None, Some(p), None) => pipeline::parse_anchored(p)?.into_iter().map(driver::Item::Element).collect(),
        (None, None, Some(Stage::Spmd)) => driver::Item::from_steps(&rxla_passes::pipeline::spmd_pipeline()),
        (None, None, Some(_)) => {
            let platform = args.platform.expect("clap requires --platform with --stage").platform();
            driver::Item::from_steps(&rxla_passes::pipeline::hlo_pipeline(platform))
        }
        (None, None, None) if args.platform.is_some() => bail!("--platform needs --stage (see --list-stages)"),
        (None, None, None) => Vec::new(),
        _ => bail!("use either --stage or --passes/--pass-pipeline, not both"),
    };
    let in_pipeline = driver::Item::pass_names(&items);
    for name in &args.disable_passes {
        if registry.lookup(name).is_none() && !in_pipeline.contains(name) {
            bail!("--disable-passes: unknown pass '{name}' (see --list-passes)");
        }
    }
    if args.run_after_each_pass.is_some() && items.is_empty() {
        bail!("--run-after-each-pass needs a pipeline (--stage, --passes or --pass-pipeline)");
    }

    melior::utility::register_all_passes();
    let context = registry.create_context().map_err(|e| anyhow::anyhow!(e))?;
    // Deterministic diagnostic order (and --verify-diagnostics) need one thread.
    context.enable_multi_threading(false);
    context.set_allow_unregistered_dialects(args.allow_unregistered_dialect);
    rxla_dialects::set_print_op_on_diagnostic(&context, !args.verify_diagnostics);
    let collector = Collector::attach(&context);

    let input_format = match args.input_format {
        InputFormat::Mlir => Format::Mlir,
        InputFormat::Hlo => Format::Hlo,
        InputFormat::Auto if args.input.ends_with(".hlo") => Format::Hlo,
        InputFormat::Auto => Format::Mlir,
    };
    let options = Options { input: input_format, emit: args.emit.unwrap_or(input_format), file: &display_name };

    let mut outputs = Vec::new();
    let mut ok = true;
    for chunk in input::split(&text, args.split_input_file) {
        let result = process_chunk(args, &options, &context, &chunk, &items, reporter);
        let diagnostics = collector.take();
        if args.verify_diagnostics {
            let expectations = diagnostics::parse_expectations(&chunk.text, chunk.first_line)
                .map_err(|e| anyhow::anyhow!("{display_name}: {e}"))?;
            let problems = diagnostics::verify(&expectations, &diagnostics);
            for problem in &problems {
                reporter.emit(format_args!("{}", problem.render(&display_name)));
            }
            ok &= problems.is_empty();
        } else {
            for diagnostic in &diagnostics {
                reporter.emit(format_args!("{}", diagnostic.render(&display_name)));
            }
            ok &= result.is_ok() && !diagnostics.iter().any(|d| d.severity == Severity::Error);
        }
        match result {
            Ok(printed) => outputs.push(printed),
            Err(ChunkError::Tool(error)) => return Err(error),
            Err(ChunkError::Diagnosed) => {}
            Err(ChunkError::Reported) => ok = false,
            Err(ChunkError::Miscompile(report)) => {
                reporter.emit(format_args!("{}: {display_name}: {report}", reporter.tool));
                ok = false;
            }
        }
    }

    // The object file of --stage=obj is written already.
    let output = (args.stage != Some(Stage::Obj)).then(|| outputs.join("// -----\n"));
    Ok(Outcome { output, ok })
}

enum ChunkError {
    /// Reported through MLIR diagnostics already.
    Diagnosed,
    /// Reported on stderr already (HLO syntax or export errors).
    Reported,
    /// A problem with the command line (bad pipeline), not the input.
    Tool(anyhow::Error),
    /// --run-after-each-pass found a pass that changes the result.
    Miscompile(String),
}

impl From<driver::Stop> for ChunkError {
    fn from(stop: driver::Stop) -> ChunkError {
        match stop {
            driver::Stop::Failed => ChunkError::Diagnosed,
            driver::Stop::Tool(e) => ChunkError::Tool(e),
            driver::Stop::Miscompile(report) => ChunkError::Miscompile(report),
        }
    }
}

struct Options<'a> {
    input: Format,
    emit: Format,
    /// The input's name in diagnostics and locations.
    file: &'a str,
}

fn process_chunk(
    args: &Args,
    options: &Options,
    context: &Context,
    chunk: &input::Chunk,
    items: &[driver::Item],
    reporter: &Reporter,
) -> Result<String, ChunkError> {
    let source = chunk.source_with_file_positions();
    let mut module = match options.input {
        Format::Mlir => Module::parse(context, &source).ok_or(ChunkError::Diagnosed)?,
        Format::Hlo => match rxla_translate::import_hlo_text(context, &source, options.file) {
            Ok(module) => module,
            Err(rxla_translate::ImportFailure::Verification) => return Err(ChunkError::Diagnosed),
            Err(failure) => {
                reporter.emit(format_args!("{}", failure.render(options.file)));
                return Err(ChunkError::Reported);
            }
        },
    };
    if args.stage == Some(Stage::Thunks) {
        return thunks(args, context, module, options.file, reporter);
    }
    let emitter = args.stage.is_some_and(|s| s != Stage::Hlo && s != Stage::Spmd);
    let headerless = emitter && options.input == Format::Hlo && emitter_stage::is_headerless(&chunk.text);
    if !items.is_empty() && !headerless {
        let ir_printing = ir_printing(args);
        let checker = match &args.run_after_each_pass {
            Some(inputs) => Some(checker(args, inputs, &module).map_err(|e| {
                reporter.emit(format_args!("{}: {}: --run-after-each-pass: {e}", reporter.tool, options.file));
                ChunkError::Reported
            })?),
            None => None,
        };
        let disabled = args.disable_passes.iter().cloned().collect();
        let driver_options = driver::Options { checker, ..driver_options(args, &disabled, ir_printing) };
        driver::run(context, &mut module, items, &driver_options).map_err(ChunkError::from)?;
    }
    if emitter {
        let gpu = args.platform == Some(PlatformArg::Gpu);
        let target = emitter_stage::target(gpu, &args.gpu_target).map_err(|e| ChunkError::Tool(anyhow::anyhow!(e)))?;
        let (text, errors) = emitter_stage::emit(&module, &target, headerless);
        for e in &errors {
            reporter.emit(format_args!("{}: error: {e}", options.file));
        }
        if !errors.is_empty() {
            return Err(ChunkError::Reported);
        }
        let stage = args.stage.expect("emitter stages");
        if !stage.lowers() {
            return Ok(text);
        }
        return lower_kernels(args, context, &text, stage, options.file, reporter);
    }
    let mut printed = match options.emit {
        Format::Mlir => module
            .as_operation()
            .to_string_with_flags(printing_flags(args))
            .map_err(|e| ChunkError::Tool(anyhow::anyhow!("printing the module: {e}")))?,
        Format::Hlo => rxla_translate::export_hlo_text(&module).map_err(|e| {
            reporter.emit(format_args!("{}: {e}", options.file));
            ChunkError::Reported
        })?,
    };
    if !printed.ends_with('\n') {
        printed.push('\n');
    }
    Ok(printed)
}

/// The stages after the emitters: the kernel module through the lowering
/// pipeline (pass by pass, with --disable-passes and IR printing), then
/// LLVM.
fn lower_kernels(
    args: &Args,
    context: &Context,
    kernels: &str,
    stage: Stage,
    file: &str,
    reporter: &Reporter,
) -> Result<String, ChunkError> {
    let platform = args.platform.expect("clap requires --platform with --stage").platform();
    let gpu = platform == rxla_passes::pipeline::Platform::Gpu;
    match stage {
        Stage::Obj if gpu => {
            return Err(ChunkError::Tool(anyhow::anyhow!(
                "--stage=obj is for --platform=cpu (the GPU's is --stage=ptx)"
            )))
        }
        Stage::Obj if args.output == "-" || args.split_input_file => {
            return Err(ChunkError::Tool(anyhow::anyhow!(
                "--stage=obj writes a binary object file: give -o FILE (and no --split-input-file)"
            )))
        }
        Stage::Asm if gpu => {
            return Err(ChunkError::Tool(anyhow::anyhow!(
                "--stage=asm is for --platform=cpu (the GPU's is --stage=ptx)"
            )))
        }
        Stage::Ptx if !gpu => {
            return Err(ChunkError::Tool(anyhow::anyhow!(
                "--stage=ptx is for --platform=gpu (the CPU's is --stage=asm)"
            )))
        }
        _ => {}
    }
    let mut module = Module::parse(context, kernels).ok_or(ChunkError::Diagnosed)?;
    let steps = match stage {
        Stage::Scf => rxla_lowering::pipeline::scf_steps(platform),
        Stage::Vector => {
            let mut steps = rxla_lowering::pipeline::scf_steps(platform);
            steps.extend(rxla_lowering::pipeline::vector_steps(platform));
            steps
        }
        _ => rxla_lowering::pipeline::lowering_steps(platform),
    };
    let items = driver::Item::from_steps(&steps);
    let disabled = args.disable_passes.iter().cloned().collect();
    let driver_options = driver_options(args, &disabled, ir_printing(args));
    driver::run(context, &mut module, &items, &driver_options).map_err(ChunkError::from)?;
    if matches!(stage, Stage::Scf | Stage::Vector | Stage::LlvmMlir) {
        return module
            .as_operation()
            .to_string_with_flags(printing_flags(args))
            .map(|mut s| {
                if !s.ends_with('\n') {
                    s.push('\n');
                }
                s
            })
            .map_err(|e| ChunkError::Tool(anyhow::anyhow!("printing the module: {e}")));
    }
    rxla_codegen::translate::merge_kernel_modules(&module);
    rxla_codegen::translate::register_translations(context);
    let report = |e: String| {
        reporter.emit(format_args!("{file}: error: {e}"));
        ChunkError::Reported
    };
    if stage == Stage::Obj {
        let target = rxla_codegen::cpu::HostTarget::new().map_err(|e| ChunkError::Tool(anyhow::anyhow!(e)))?;
        let object = rxla_codegen::cpu::object_file(&module, &target).map_err(report)?;
        std::fs::write(&args.output, object)
            .map_err(|e| ChunkError::Tool(anyhow::anyhow!("cannot write '{}': {e}", args.output)))?;
        return Ok(String::new());
    }
    let (before, after, asm) = if gpu {
        let target = emitter_stage::ptx_target(&args.gpu_target, args.ptx_version.as_deref())
            .map_err(|e| ChunkError::Tool(anyhow::anyhow!(e)))?;
        let nvptx = rxla_codegen::gpu::NvptxTarget::new(target, rxla_codegen::gpu::libdevice_path())
            .map_err(|e| ChunkError::Tool(anyhow::anyhow!(e)))?;
        rxla_codegen::gpu::stages(&module, &nvptx).map_err(report)?
    } else {
        let target = rxla_codegen::cpu::HostTarget::new().map_err(|e| ChunkError::Tool(anyhow::anyhow!(e)))?;
        rxla_codegen::cpu::stages(&module, &target).map_err(report)?
    };
    Ok(match stage {
        Stage::LlvmBeforeOptimizations => before,
        Stage::Llvm => after,
        _ => asm,
    })
}

/// `--stage=thunks`: the whole GPU compilation, then the thunk sequence.
fn thunks(
    args: &Args,
    context: &Context,
    module: Module,
    file: &str,
    reporter: &Reporter,
) -> Result<String, ChunkError> {
    if args.platform != Some(PlatformArg::Gpu) {
        return Err(ChunkError::Tool(anyhow::anyhow!("--stage=thunks is for --platform=gpu")));
    }
    let tool = |e: String| ChunkError::Tool(anyhow::anyhow!(e));
    let device = emitter_stage::gpu_device(&args.gpu_target).map_err(tool)?;
    let ptx = emitter_stage::ptx_target(&args.gpu_target, args.ptx_version.as_deref()).map_err(tool)?;
    let mut options = rxla_runtime::gpu::GpuOptions { device, ptx, ..Default::default() };
    options.common.disabled_passes = args.disable_passes.clone();
    options.common.verify_each = args.verify_each;
    let exe = rxla_runtime::gpu::compile_module(context, module, &options).map_err(|e| {
        reporter.emit(format_args!("{file}: error: {e}"));
        ChunkError::Reported
    })?;
    Ok(exe.describe())
}

/// The interpreter check of --run-after-each-pass: arguments and the input
/// module's result.
fn checker(args: &Args, inputs: &str, module: &Module) -> Result<driver::Checker> {
    let ast = rxla_translate::export::export_ast(module).map_err(|e| anyhow::anyhow!("{e}"))?;
    let params = rxla_interpreter::npy::parameter_shapes(&ast.computations[ast.entry]);
    let arguments = if inputs == "random" {
        rxla_interpreter::random::random_arguments(&params, args.run_seed).map_err(|e| anyhow::anyhow!(e))?
    } else {
        rxla_interpreter::npy::read_args(inputs, &params).map_err(|e| anyhow::anyhow!("{inputs}: {e}"))?
    };
    let reference = driver::Checker::evaluate(module, &arguments)
        .map_err(|e| anyhow::anyhow!("the input module does not run in the interpreter: {e}"))?;
    Ok(driver::Checker {
        arguments,
        reference,
        atol: args.run_atol,
        rtol: args.run_rtol,
        dump_dir: args.run_dump_dir.clone(),
    })
}

/// Writes to stdout; a closed pipe (`| head`) is not an error worth a panic.
fn print_ignoring_closed_pipe(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush());
}
