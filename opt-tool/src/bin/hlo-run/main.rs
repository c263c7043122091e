//! `hlo-run`: run an HLO module (HLO text or the `hlo` dialect) on a
//! platform and write or print its outputs.
//!
//! ```text
//! hlo-run module.hlo --inputs in.npz --output out.npz
//! hlo-run module.mlir --random-inputs --seed 7 --print-literals
//! hlo-run module.hlo --input a.npy --input b.npy --iterations 10
//! ```
//!
//! The module is imported and verified (`.mlir` parsed by MLIR, anything
//! else read as XLA's HLO text), exported back to the HLO syntax tree, and
//! that tree runs on the platform, so both input forms take the same path.
//! Inputs are positional (`arg0`, `arg1`, ... in an `.npz`, or one `.npy`
//! per parameter); outputs are `out0`, `out1`, ... over the flattened
//! result. See docs/hlo-run.md for the array conventions.
//!
//! Platforms: `interpreter` (the reference interpreter), `cpu` (the
//! compiled module on the host CPU) and `gpu` (compiled to PTX here, run
//! on the first NVIDIA GPU through the CUDA driver). `--reference-platform=interpreter`
//! runs the module there too and compares the outputs within
//! `--atol`/`--rtol`, reporting the first and the worst differing element.

mod job;

use clap::Parser;
use job::Job;
use melior::ir::Module;
use rxla_hlo_text::ast::{self, Shape};
use rxla_interpreter::{literal::Literal, npy, text, Interpreter};
use rxla_opt::cli;
#[path = "../../allocator.rs"]
mod allocator;
use std::{
    io::{Read, Write},
    path::PathBuf,
    process::ExitCode,
    str::FromStr,
    time::{Duration, Instant},
};

/// Where a module runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Platform {
    /// rxla's reference interpreter (`rxla-interpreter`).
    Interpreter,
    /// Compiled for the host CPU (`rxla-runtime`).
    Cpu,
    /// Compiled to PTX, run through the CUDA driver (`rxla_runtime::gpu`).
    Gpu,
}

impl Platform {
    const AVAILABLE: &'static [&'static str] = &["interpreter", "cpu", "gpu"];
}

impl FromStr for Platform {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "interpreter" => Ok(Platform::Interpreter),
            "cpu" => Ok(Platform::Cpu),
            "gpu" => Ok(Platform::Gpu),
            _ => Err(format!("unknown platform '{s}' (available: {})", Platform::AVAILABLE.join(", "))),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum EntryLayoutsArg {
    Module,
    Default,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum InputFormat {
    /// By file extension: `.mlir` is the hlo dialect, anything else HLO text.
    Auto,
    Mlir,
    Hlo,
}

#[derive(Parser, Debug, Clone)]
#[command(
    name = "hlo-run",
    version,
    about = "Run an HLO module on a platform and write or print its outputs",
    after_help = "Inputs are positional: arg0, arg1, ... in --inputs (an .npz), or one --input .npy per \
                  parameter. Outputs are out0, out1, ... over the flattened result tuple. bf16 is stored \
                  as raw bits in <u2, the f8/f6/f4 types as raw bits in |u1 (see docs/hlo-run.md)."
)]
struct Args {
    /// The module: `.mlir` (hlo dialect) or HLO text (`.hlo`, `-` for stdin).
    input: String,

    /// Where to run: `interpreter`, `cpu` or `gpu`.
    #[arg(long, default_value = "interpreter", value_parser = Platform::from_str)]
    platform: Platform,

    /// Also run on this platform and compare the outputs (exit status 1 if
    /// they differ beyond --atol/--rtol).
    #[arg(long = "reference-platform", visible_alias = "reference_platform", value_parser = Platform::from_str)]
    reference_platform: Option<Platform>,

    /// Absolute error bound of the comparison with --reference-platform.
    #[arg(long, visible_alias = "abs_error_bound", default_value_t = 1e-3)]
    atol: f64,

    /// Relative error bound of the comparison with --reference-platform.
    #[arg(long, visible_alias = "rel_error_bound", default_value_t = 1e-3)]
    rtol: f64,

    /// Untimed runs before the timed --iterations (and compiles before the
    /// timed compiles).
    #[arg(long, default_value_t = 0)]
    warmup: u32,

    /// Only compile (`--warmup` untimed, then `--iterations` timed
    /// compiles), print the compile times and the last compile's phases,
    /// and run nothing: no inputs are read (`--platform=cpu|gpu`).
    #[arg(long = "compile-only", conflicts_with_all = ["inputs", "input_npy", "input_literals", "random_inputs", "reference_platform", "output", "print_literals", "profile"])]
    compile_only: bool,

    /// CPU: also save the compiled executable to FILE (the optimized module
    /// and the kernels' machine code); `hlo-run FILE --platform=cpu` runs
    /// it later without recompiling, on a machine with the same CPU.
    #[arg(long = "save-executable", value_name = "FILE")]
    save_executable: Option<String>,

    /// CPU: keep compiled executables in DIR and load them from there when
    /// the same module is compiled again with the same options, by this or
    /// a later run (JAX's persistent compilation cache; see
    /// docs/cpu-backend.md). Off unless given.
    #[arg(long = "compilation-cache-dir", value_name = "DIR")]
    compilation_cache_dir: Option<PathBuf>,

    /// Write the compile and run times (seconds) as JSON to this file.
    #[arg(long = "timings-json", value_name = "FILE.json")]
    timings_json: Option<String>,

    /// Print the time of every step of the entry computation (cpu, gpu),
    /// measured on one extra run (cpu: after the --warmup runs, before the
    /// timed ones, so that with --warmup 1 or more its outputs reuse freed
    /// memory like every timed run; gpu: after the timed runs).
    #[arg(long)]
    profile: bool,

    /// The entry computation's parameter and result layouts on `cpu`: the
    /// module's (`module`, like XLA's HLO runner) or row-major (`default`,
    /// like a JAX/PJRT client compiling without layouts).
    #[arg(long = "entry-layouts", value_enum, default_value_t = EntryLayoutsArg::Module)]
    entry_layouts: EntryLayoutsArg,

    /// The GPU of --platform=gpu: `sm_80`, `sm_90` (`a100`, `h100`, `h200`)
    /// or a target-description file (XLA's `gpu_device_info { ... }` text).
    #[arg(long = "gpu-target", default_value = "sm_90")]
    gpu_target: String,

    /// The PTX ISA version (`MAJOR.MINOR`; default: the oldest for the SM).
    #[arg(long = "ptx-version", value_name = "X.Y")]
    ptx_version: Option<String>,

    /// With --platform=gpu: run the GPU's thunk sequence on the host (its
    /// kernels compiled for the CPU, a reference gemm in cuBLAS's
    /// conventions): checks the GPU runtime where there is no GPU.
    #[arg(long = "emulate-gpu")]
    emulate_gpu: bool,

    /// Write every stage of the compilation (`cpu`, `gpu`) to DIR, as XLA's
    /// `--xla_dump_to` does: the module before and after the HLO pipeline
    /// (MLIR, and HLO text), the emitted kernels, the lowered kernels, and
    /// the LLVM IR before and after optimization and the assembly (cpu) or
    /// the PTX (gpu).
    #[arg(long = "dump-dir", visible_alias = "xla_dump_to", value_name = "DIR")]
    dump_dir: Option<PathBuf>,

    /// Comma-separated passes the compiler skips (HLO or lowering passes).
    #[arg(long = "disable-passes", value_name = "PASSES", value_delimiter = ',')]
    disable_passes: Vec<String>,

    /// XLA's flag of the same name: `true` (XLA's default) lets a bf16
    /// result that the program converts to f32 skip its rounding to bf16
    /// (the `excess-precision` pass); `false` rounds exactly as the HLO says.
    #[arg(long = "xla_allow_excess_precision", value_name = "BOOL", default_value_t = true,
          action = clap::ArgAction::Set)]
    allow_excess_precision: bool,

    /// How to read the module file.
    #[arg(long = "input-format", visible_alias = "input_format", value_enum, default_value_t = InputFormat::Auto)]
    input_format: InputFormat,

    /// Arguments as an `.npz` with keys arg0, arg1, ... (extra keys are ignored).
    #[arg(long, value_name = "FILE.npz", conflicts_with_all = ["input_npy", "random_inputs"])]
    inputs: Option<String>,

    /// One `.npy` per parameter, in parameter order (repeat the option).
    /// The parameters as literal text, one per parameter in order, as
    /// --print-literals prints them (`f32[2] {1, 2}`, `s32[] 7`, optional
    /// `name:` labels); run_hlo_module's `--input_literals_file`.
    #[arg(long = "input-literals", visible_alias = "input_literals_file", value_name = "FILE",
          conflicts_with_all = ["inputs", "input_npy", "random_inputs"])]
    input_literals: Option<String>,

    #[arg(long = "input", value_name = "FILE.npy", conflicts_with = "random_inputs")]
    input_npy: Vec<String>,

    /// Generate deterministic arguments: floats uniform in [-1, 1), signed
    /// integers in [-8, 8), unsigned in [0, 16) (within the type's range),
    /// random pred.
    #[arg(long = "random-inputs")]
    random_inputs: bool,

    /// Seed of --random-inputs.
    #[arg(long, default_value_t = 0, requires = "random_inputs")]
    seed: u64,

    /// Also write the arguments used to this `.npz` (arg0, arg1, ...).
    #[arg(long = "save-inputs", value_name = "FILE.npz")]
    save_inputs: Option<String>,

    /// Write the outputs to this `.npz` (out0, out1, ...).
    #[arg(long, short = 'o', value_name = "FILE.npz")]
    output: Option<String>,

    /// Print each output in XLA's literal text format (the default when
    /// --output is not given).
    #[arg(long = "print-literals", visible_alias = "print_literals")]
    print_literals: bool,

    /// Run N times and print the minimum and median run time.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    iterations: u32,

    /// Number of replicas to run (interpreter, cpu): each on the same
    /// arguments and on a thread of its own, with its `replica-id`; the
    /// collectives exchange data between them. The outputs are replica
    /// 0's; `--reference-platform` compares every replica
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    replicas: u32,

    /// Number of partitions to run (interpreter, cpu): with --replicas,
    /// replicas x partitions devices, device d being replica d / partitions
    /// and partition d % partitions (XLA's default device assignment);
    /// collectives with a channel_id exchange data across partitions (XLA's
    /// group modes). A module with shardings is SPMD-partitioned: each
    /// device gets its block of the global arguments and the output is the
    /// global result; any other runs on every device on the same arguments
    /// and the outputs are device 0's. Under `mpirun -n N`, each process
    /// is one device
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    partitions: u32,
}

/// An error already worded for the user.
struct Failure(String);

impl<T: std::fmt::Display> From<T> for Failure {
    fn from(e: T) -> Self {
        Failure(e.to_string())
    }
}

fn main() -> ExitCode {
    use clap::CommandFactory;
    allocator::configure();
    let args = Args::parse_from(cli::double_dash_long_options(&Args::command(), std::env::args_os()));
    // Under mpirun, this process is one device of the job.
    let job = match Job::join() {
        Ok(job) => job,
        Err(e) => {
            eprintln!("hlo-run: error: {e}");
            return ExitCode::FAILURE;
        }
    };
    match run(&args, job.as_ref()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(message)) => {
            if !message.is_empty() {
                match &job {
                    Some(j) => eprintln!("hlo-run: error: rank {}: {message}", j.rank),
                    None => eprintln!("hlo-run: error: {message}"),
                }
            }
            if let Some(j) = &job {
                j.abort();
            }
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args, job: Option<&Job>) -> Result<(), Failure> {
    let (bytes, file) = if args.input == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes).map_err(|e| format!("reading standard input: {e}"))?;
        (bytes, "<stdin>".to_string())
    } else {
        let bytes = std::fs::read(&args.input).map_err(|e| format!("cannot read '{}': {e}", args.input))?;
        (bytes, args.input.clone())
    };
    // A saved executable (--save-executable) runs without its source.
    let saved = rxla_runtime::is_executable_artifact(&bytes).then_some(&bytes[..]);
    let (source, is_mlir, module, params) = match saved {
        Some(saved) => {
            check_saved_run(args, &file)?;
            let params = rxla_runtime::saved_parameter_shapes(saved).map_err(|e| format!("{file}: {e}"))?;
            ("", false, None, params)
        }
        None => {
            if args.save_executable.is_some() && args.platform != Platform::Cpu {
                return Err(Failure("--save-executable saves CPU executables: use --platform=cpu".into()));
            }
            if args.compilation_cache_dir.is_some() && args.platform != Platform::Cpu {
                return Err(Failure("--compilation-cache-dir caches CPU executables: use --platform=cpu".into()));
            }
            let source = std::str::from_utf8(&bytes)
                .map_err(|e| format!("{file}: neither text (HLO or MLIR: {e}) nor a saved executable"))?;
            let is_mlir = match args.input_format {
                InputFormat::Mlir => true,
                InputFormat::Hlo => false,
                InputFormat::Auto => args.input.ends_with(".mlir"),
            };
            let module = load_module(source, &file, is_mlir)?;
            let entry = module
                .computations
                .get(module.entry)
                .ok_or_else(|| format!("{file}: the module has no entry computation"))?;
            let params = npy::parameter_shapes(entry);
            (source, is_mlir, Some(module), params)
        }
    };
    let module = || module.as_ref().expect("only a module's source runs on the interpreter");
    // A module with shardings on several partitions runs partitioned: each
    // device its block of the global arguments (rxla_runtime::spmd).
    let devices = (args.replicas * args.partitions) as usize;
    let spmd = match saved {
        None if args.partitions > 1 => {
            rxla_runtime::spmd::partition_source(source, &file, is_mlir, args.partitions as usize).map_err(Failure)?
        }
        _ => None,
    };
    let spmd_module = spmd.as_ref().map(|p| load_module(&p.hlo_text, &file, false)).transpose()?;
    let spmd_source = spmd.as_ref().map(|p| Source { text: &p.hlo_text, is_mlir: false, saved: None });
    let source = Source { text: source, is_mlir, saved };
    if args.compile_only {
        return compile_only(spmd_source.as_ref().unwrap_or(&source), &file, args);
    }

    let mut arguments = read_arguments(args, &params)?;
    if let Some(path) = &args.save_inputs {
        let named: Vec<(String, Literal)> = arguments
            .iter()
            .enumerate()
            .filter(|(_, l)| !matches!(l, Literal::Token | Literal::Tuple(_)))
            .map(|(i, l)| (format!("arg{i}"), l.clone()))
            .collect();
        npy::write_npz(path, &named)?;
    }

    // One result per device (`--replicas` x `--partitions`); the outputs
    // are device 0's.
    if let Some(j) = job {
        if j.size != devices {
            return Err(Failure(format!(
                "{file}: mpirun started {} processes for {devices} devices (--replicas x --partitions): one device per process",
                j.size
            )));
        }
        if args.reference_platform.is_some() && spmd.is_none() {
            return Err(Failure(format!(
                "{file}: under mpirun, --reference-platform compares a module with shardings with its one-device run; \
                 this module is not partitioned"
            )));
        }
    }
    let run = |platform: Platform, arguments: &mut Vec<Literal>, args: &Args| -> Result<Runs, Failure> {
        // Under mpirun: this process's device only, its collectives over MPI.
        if let Some(j) = job.filter(|_| args.replicas * args.partitions > 1) {
            let d = j.rank;
            let mine = match &spmd {
                Some(p) => p.split_arguments(arguments, devices).map_err(|e| format!("{file}: {e}"))?.swap_remove(d),
                None => arguments.clone(),
            };
            let (r, t, c) = match platform {
                Platform::Interpreter => {
                    let m = spmd_module.as_ref().unwrap_or_else(|| module());
                    let (r, t) = run_interpreter_device(m, &mine, d, j, args)?;
                    (r, t, Vec::new())
                }
                Platform::Cpu => run_cpu_device(spmd_source.as_ref().unwrap_or(&source), &file, &mine, d, j, args)?,
                Platform::Gpu => {
                    return Err(Failure(format!("{file}: under mpirun, devices run on the interpreter and the CPU")))
                }
            };
            let mine = r.into_iter().next().ok_or_else(|| format!("{file}: no result"))?;
            let all = j.gather(mine).map_err(|e| format!("{file}: gathering the results: {e}"))?;
            let results = match &spmd {
                Some(p) => vec![p.gather_result(&all).map_err(|e| format!("{file}: {e}"))?],
                None => all,
            };
            return Ok((results, t, c));
        }
        if let (Some(p), Some(m), Some(src)) = (&spmd, &spmd_module, &spmd_source) {
            if args.partitions > 1 {
                let per_device = p.split_arguments(arguments, devices).map_err(|e| format!("{file}: {e}"))?;
                let (r, t, c) = match platform {
                    Platform::Interpreter => {
                        let (r, t) = run_interpreter(m, arguments, Some(&per_device), args)?;
                        (r, t, Vec::new())
                    }
                    Platform::Cpu => run_cpu(src, &file, arguments, Some(&per_device), args)?,
                    Platform::Gpu => run_gpu_devices(src.text, &file, false, &per_device, args)?,
                };
                let global = p.gather_result(&r).map_err(|e| format!("{file}: {e}"))?;
                return Ok((vec![global], t, c));
            }
        }
        Ok(match platform {
            Platform::Interpreter => {
                let (r, t) = run_interpreter(module(), arguments, None, args)?;
                (r, t, Vec::new())
            }
            Platform::Cpu => run_cpu(&source, &file, arguments, None, args)?,
            Platform::Gpu if args.replicas * args.partitions > 1 => {
                let same = vec![arguments.clone(); (args.replicas * args.partitions) as usize];
                run_gpu_devices(source.text, &file, is_mlir, &same, args)?
            }
            Platform::Gpu => {
                let (r, t, c) = run_gpu(source.text, &file, is_mlir, arguments, args)?;
                (vec![r], t, c)
            }
        })
    };
    let (results, times, compile_times) = run(args.platform, &mut arguments, args)?;
    // Rank 0 reports for the job.
    if job.is_some_and(|j| j.rank != 0) {
        return Ok(());
    }
    let mut mismatch = None;
    if let Some(reference) = args.reference_platform {
        // A partitioned run is checked against the whole program on one
        // device, on the global arguments.
        let quiet = match spmd {
            Some(_) => Args { iterations: 1, warmup: 0, replicas: 1, partitions: 1, ..args.clone() },
            None => Args { iterations: 1, warmup: 0, ..args.clone() },
        };
        let (expected, _, _) = run(reference, &mut arguments, &quiet)?;
        // Every device against its own reference, named by replica (and
        // partition) when there are several.
        let partitions = args.partitions as usize;
        mismatch = Some(results.iter().zip(&expected).enumerate().find_map(|(d, (got, want))| {
            rxla_interpreter::compare::first_mismatch(got, want, args.atol, args.rtol).map(|m| match results.len() {
                1 => m.to_string(),
                _ if partitions == 1 => format!("replica {d}: {m}"),
                _ => format!("replica {} partition {}: {m}", d / partitions, d % partitions),
            })
        }));
    }
    let result = &results[0];
    let outputs = npy::output_arrays(result);

    if let Some(path) = &args.output {
        npy::write_npz(path, &outputs)?;
    }
    let mut stdout = std::io::stdout().lock();
    let mut printed = String::new();
    if args.print_literals || args.output.is_none() {
        for (name, literal) in &outputs {
            printed += &format!("{name}: {}\n", text::literal_to_string(literal));
        }
    }
    if args.iterations > 1 {
        if !compile_times.is_empty() {
            let (min, median) = min_median(&compile_times);
            printed += &format!(
                "compile on {}: {} iterations: min {}, median {}\n",
                platform_name(args.platform),
                compile_times.len(),
                ms(min),
                ms(median)
            );
        }
        let (min, median) = min_median(&times);
        printed += &format!(
            "{} iterations on {}: min {}, median {}\n",
            args.iterations,
            platform_name(args.platform),
            ms(min),
            ms(median)
        );
    }
    if let Some(path) = &args.timings_json {
        let list = |v: &[Duration]| v.iter().map(|d| format!("{:.9}", d.as_secs_f64())).collect::<Vec<_>>().join(", ");
        let json = format!(
            "{{\"platform\": \"{}\", \"compile_s\": [{}], \"run_s\": [{}]}}\n",
            platform_name(args.platform),
            list(&compile_times),
            list(&times)
        );
        std::fs::write(path, json).map_err(|e| format!("cannot write '{path}': {e}"))?;
    }
    if let (Some(m), Some(reference)) = (&mismatch, args.reference_platform) {
        match m {
            None => {
                printed += &format!(
                    "{} agrees with {} (atol {}, rtol {})\n",
                    platform_name(args.platform),
                    platform_name(reference),
                    args.atol,
                    args.rtol
                )
            }
            Some(m) => {
                let _ = stdout.write_all(printed.as_bytes()).and_then(|_| stdout.flush());
                return Err(Failure(format!(
                    "{file}: {} differs from {} (atol {}, rtol {}): {m}",
                    platform_name(args.platform),
                    platform_name(reference),
                    args.atol,
                    args.rtol
                )));
            }
        }
    }
    // A closed pipe (`| head`) is not worth an error.
    let _ = stdout.write_all(printed.as_bytes()).and_then(|_| stdout.flush());
    Ok(())
}

fn platform_name(p: Platform) -> &'static str {
    match p {
        Platform::Interpreter => "interpreter",
        Platform::Cpu => "cpu",
        Platform::Gpu => "gpu",
    }
}

fn min_median(times: &[Duration]) -> (Duration, Duration) {
    let mut sorted = times.to_vec();
    sorted.sort();
    let mid = sorted.len() / 2;
    let median = if sorted.len().is_multiple_of(2) { (sorted[mid - 1] + sorted[mid]) / 2 } else { sorted[mid] };
    (sorted[0], median)
}

/// The compiler options both platforms share.
fn common_options(args: &Args) -> rxla_runtime::Options {
    let entry_layouts = match args.entry_layouts {
        EntryLayoutsArg::Module => rxla_runtime::EntryLayouts::Module,
        EntryLayoutsArg::Default => rxla_runtime::EntryLayouts::Default,
    };
    let mut disabled_passes = args.disable_passes.clone();
    if !args.allow_excess_precision {
        disabled_passes.push("excess-precision".to_string());
    }
    rxla_runtime::Options { disabled_passes, entry_layouts, dump_dir: args.dump_dir.clone(), ..Default::default() }
}

/// Compiles `--warmup + --iterations` times when timing (once otherwise);
/// returns the last executable and the timed compile times.
fn compile_timed<E>(args: &Args, compile: impl Fn() -> Result<E, Failure>) -> Result<(E, Vec<Duration>), Failure> {
    let timed = args.iterations > 1 || args.compile_only;
    let compiles = if timed { args.warmup + args.iterations } else { 1 };
    let mut compile_times = Vec::new();
    let mut exe = None;
    for i in 0..compiles {
        let start = Instant::now();
        let e = compile()?;
        if i >= compiles - if timed { args.iterations } else { 1 } {
            compile_times.push(start.elapsed());
        }
        exe = Some(e);
    }
    Ok((exe.expect("compiled at least once"), compile_times))
}

/// `--compile-only`: compiles `--warmup` + `--iterations` times, prints
/// the timed compiles and the phases of the last one, writes them to
/// `--timings-json`.
fn compile_only(source: &Source, file: &str, args: &Args) -> Result<(), Failure> {
    let (times, phases, kernels, memory, cache) = match args.platform {
        Platform::Interpreter => {
            return Err(Failure("--compile-only needs a compiling platform (--platform=cpu or --platform=gpu)".into()))
        }
        Platform::Cpu => {
            let (exe, times, cache) = compile_cpu(source, file, args)?;
            (times, exe.compile_times.clone(), exe.num_kernels(), Some(exe.memory()), cache)
        }
        Platform::Gpu => {
            let (exe, times) = compile_gpu(source.text, file, source.is_mlir, args)?;
            (times, exe.compile_times.clone(), exe.num_kernels(), None, None)
        }
    };
    let phases = [
        ("import", phases.import),
        ("hlo_pipeline", phases.hlo_pipeline),
        ("emit", phases.emit),
        ("lower", phases.lower),
        ("llvm", phases.llvm),
        ("total", phases.total),
    ];
    let (min, median) = min_median(&times);
    let mut out = format!(
        "compile on {}: {} iterations: min {}, median {}\n{kernels} kernels; phases of the last compile:",
        platform_name(args.platform),
        times.len(),
        ms(min),
        ms(median)
    );
    for (name, d) in &phases {
        out += &format!(" {name} {}", ms(*d));
    }
    if let Some(m) = memory {
        out += &format!("\n{}", memory_line(m));
    }
    if let Some(c) = cache {
        out += &format!(
            "\ncompilation cache: {} hits, {} misses, {} replaced, {} bypassed, {} not written",
            c.hits, c.misses, c.replaced, c.bypassed, c.write_errors
        );
    }
    // A closed pipe (`| head`) is not worth an error, nor a panic.
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{out}").and_then(|_| stdout.flush());
    if let Some(path) = &args.timings_json {
        let list = times.iter().map(|d| format!("{:.9}", d.as_secs_f64())).collect::<Vec<_>>().join(", ");
        let phases =
            phases.iter().map(|(name, d)| format!("\"{name}\": {:.9}", d.as_secs_f64())).collect::<Vec<_>>().join(", ");
        let json = format!(
            "{{\"platform\": \"{}\", \"compile_s\": [{list}], \"run_s\": [], \"kernels\": {kernels}, \"phases_s\": {{{phases}}}}}\n",
            platform_name(args.platform)
        );
        std::fs::write(path, json).map_err(|e| format!("cannot write '{path}': {e}"))?;
    }
    Ok(())
}

/// Prints the entry program's steps in order, then the steps of the
/// programs they ran (loop bodies, branches, calls: marked by
/// `rxla_runtime::executor::NESTED`) summed per step over all iterations,
/// slowest first.
fn print_profile(steps: Vec<(String, Duration)>) {
    use rxla_runtime::executor::NESTED;
    let (nested, top): (Vec<_>, Vec<_>) = steps.into_iter().partition(|(what, _)| what.starts_with(NESTED));
    let total: Duration = top.iter().map(|(_, d)| *d).sum();
    let percent = |d: Duration| 100.0 * d.as_secs_f64() / total.as_secs_f64().max(1e-12);
    eprintln!("profile ({} steps, {}):", top.len(), ms(total));
    for (what, d) in top {
        eprintln!("  {:>10}  {:5.1}%  {what}", ms(d), percent(d));
    }
    if nested.is_empty() {
        return;
    }
    // One line per nested step (level and description), in first-run order.
    let mut sums: Vec<(String, Duration, usize)> = Vec::new();
    for (what, d) in nested {
        match sums.iter_mut().find(|(w, _, _)| *w == what) {
            Some(entry) => {
                entry.1 += d;
                entry.2 += 1;
            }
            None => sums.push((what, d, 1)),
        }
    }
    sums.sort_by_key(|s| std::cmp::Reverse(s.1));
    eprintln!("inside loops, branches and calls (summed over runs, slowest first; '{}' per level):", NESTED.trim());
    for (what, d, runs) in sums {
        eprintln!("  {:>10}  {:5.1}%  {:>5}x  {what}", ms(d), percent(d), runs);
    }
}

/// The GPU compiler's options from `--gpu-target`, `--ptx-version` and
/// `--emulate-gpu`.
fn gpu_options(args: &Args) -> Result<rxla_runtime::gpu::GpuOptions, Failure> {
    let device = gpu_device(&args.gpu_target)?;
    let ptx = match &args.ptx_version {
        Some(v) => rxla_codegen::gpu::PtxTarget::with_ptx_version(device.name, v),
        None => rxla_codegen::gpu::PtxTarget::for_sm(device.name),
    }
    .map_err(|e| Failure(format!("--ptx-version: {e}")))?;
    Ok(rxla_runtime::gpu::GpuOptions { common: common_options(args), device, ptx, emulate: args.emulate_gpu })
}

/// Compiles for the GPU (same timing rules as `compile_cpu`).
fn compile_gpu(
    source: &str,
    file: &str,
    is_mlir: bool,
    args: &Args,
) -> Result<(rxla_runtime::gpu::GpuExecutable, Vec<Duration>), Failure> {
    let options = gpu_options(args)?;
    compile_timed(args, || {
        let result = if is_mlir {
            let context = rxla_dialects::create_context();
            context.enable_multi_threading(false);
            let module =
                Module::parse(&context, source).ok_or_else(|| Failure(format!("{file}: the module does not parse")))?;
            rxla_runtime::gpu::compile_module(&context, module, &options)
        } else {
            rxla_runtime::gpu::compile_hlo_text(source, file, &options)
        };
        result.map_err(|e| Failure(format!("{file}: {e}")))
    })
    .inspect(|(exe, _)| exe.warnings.iter().for_each(|w| print_diagnostic(w)))
}

/// Compiles for the GPU here and runs on the first GPU (same timing rules
/// as `run_cpu`; a run waits for the GPU to finish).
fn run_gpu(
    source: &str,
    file: &str,
    is_mlir: bool,
    arguments: &mut Vec<Literal>,
    args: &Args,
) -> Result<(Literal, Vec<Duration>, Vec<Duration>), Failure> {
    let (exe, compile_times) = compile_gpu(source, file, is_mlir, args)?;
    let fail = |e: rxla_runtime::RunError| Failure(format!("{file}: {e}"));
    let device_args = exe.prepare(arguments).map_err(fail)?;
    release_arguments(arguments, args);
    for _ in 0..args.warmup {
        exe.execute(&device_args).map_err(fail)?;
    }
    let mut times = Vec::with_capacity(args.iterations as usize);
    let mut outputs = None;
    for _ in 0..args.iterations {
        // The last run's outputs are freed before this one allocates its own.
        drop(outputs.take());
        let start = Instant::now();
        let out = exe.execute(&device_args).map_err(fail)?;
        times.push(start.elapsed());
        outputs = Some(out);
    }
    let result = exe.result(&outputs.expect("at least one iteration")).map_err(fail)?;
    if args.profile {
        print_profile(exe.profile(&device_args).map_err(fail)?);
    }
    Ok((result, times, compile_times))
}

/// Several devices on the GPU (or its emulation): one host thread each,
/// on `per_device` arguments; collectives are host steps between them.
fn run_gpu_devices(
    source: &str,
    file: &str,
    is_mlir: bool,
    per_device: &[Vec<Literal>],
    args: &Args,
) -> Result<Runs, Failure> {
    let (exe, compile_times) = compile_gpu(source, file, is_mlir, args)?;
    let fail = |e: rxla_runtime::RunError| Failure(format!("{file}: {e}"));
    let (replicas, partitions) = (args.replicas as usize, args.partitions as usize);
    for _ in 0..args.warmup {
        exe.run_devices(replicas, partitions, per_device).map_err(fail)?;
    }
    let mut times = Vec::with_capacity(args.iterations as usize);
    let mut results = Vec::new();
    for _ in 0..args.iterations {
        let start = Instant::now();
        results = exe.run_devices(replicas, partitions, per_device).map_err(fail)?;
        times.push(start.elapsed());
    }
    Ok((results, times, compile_times))
}

/// `--gpu-target`: a name or a target-description file.
fn gpu_device(name: &str) -> Result<rxla_emitters::GpuTarget, Failure> {
    if let Some(t) = rxla_emitters::GpuTarget::by_name(name) {
        return Ok(t);
    }
    if std::path::Path::new(name).is_file() {
        let text = std::fs::read_to_string(name).map_err(|e| format!("--gpu-target: cannot read '{name}': {e}"))?;
        return rxla_emitters::GpuTarget::from_spec(&text).map_err(|e| Failure(format!("--gpu-target: {name}: {e}")));
    }
    Err(Failure(format!("--gpu-target: unknown target '{name}' (sm_80, sm_90, or a target-description file)")))
}

/// Compiles for the host CPU (`--warmup` + `--iterations` times when
/// timing, or with `--compile-only`); returns the last executable, the
/// timed compile times and, with `--compilation-cache-dir`, the cache's
/// lookups.
fn compile_cpu(source: &Source, file: &str, args: &Args) -> Result<CpuCompiled, Failure> {
    let mut options = common_options(args);
    options.save_artifact = args.save_executable.is_some();
    let cache = match &args.compilation_cache_dir {
        Some(dir) => Some(rxla_runtime::DiskCache::open(dir).map_err(|e| format!("--compilation-cache-dir: {e}"))?),
        None => None,
    };
    let compile = |options: &rxla_runtime::Options| {
        if source.is_mlir {
            let context = rxla_dialects::create_context();
            context.enable_multi_threading(false);
            let module = Module::parse(&context, source.text)
                .ok_or_else(|| rxla_runtime::CompileError("the module does not parse".into()))?;
            rxla_runtime::compile_module(&context, module, options)
        } else {
            rxla_runtime::compile_hlo_text(source.text, file, options)
        }
    };
    let kind = match source.is_mlir {
        true => rxla_runtime::cpu::SourceKind::Mlir,
        false => rxla_runtime::cpu::SourceKind::HloText,
    };
    let (exe, times) = compile_timed(args, || {
        let result = match (source.saved, &cache) {
            (Some(saved), _) => rxla_runtime::load_executable(saved, file),
            (None, Some(cache)) => cache.compile(source.text, kind, file, &options, compile),
            (None, None) => compile(&options),
        };
        result.map_err(|e| Failure(format!("{file}: {e}")))
    })?;
    exe.warnings.iter().for_each(|w| print_diagnostic(w));
    if let Some(path) = &args.save_executable {
        let artifact = exe.artifact().expect("compiled with save_artifact");
        std::fs::write(path, artifact).map_err(|e| format!("--save-executable: cannot write '{path}': {e}"))?;
    }
    Ok((exe, times, cache.map(|c| c.stats())))
}

type CpuCompiled = (rxla_runtime::Executable, Vec<Duration>, Option<rxla_runtime::cpu::DiskCacheStats>);

/// What the CPU compiles: a module's text, or a saved executable.
struct Source<'a> {
    text: &'a str,
    is_mlir: bool,
    saved: Option<&'a [u8]>,
}

/// A saved executable runs on the CPU it was compiled for, and has no
/// source to run elsewhere or to save again.
fn check_saved_run(args: &Args, file: &str) -> Result<(), Failure> {
    if args.platform != Platform::Cpu {
        return Err(Failure(format!("{file} is a saved CPU executable: run it with --platform=cpu")));
    }
    if args.reference_platform.is_some() {
        return Err(Failure(format!(
            "{file} is a saved executable: --reference-platform needs the module's source, which it does not keep"
        )));
    }
    if args.save_executable.is_some() {
        return Err(Failure(format!("{file} is a saved executable already (--save-executable)")));
    }
    if args.compilation_cache_dir.is_some() {
        return Err(Failure(format!(
            "{file} is a saved executable: there is nothing to compile (--compilation-cache-dir)"
        )));
    }
    Ok(())
}

/// Device `d` of an MPI job on the CPU, on this thread.
fn run_cpu_device(
    source: &Source,
    file: &str,
    arguments: &[Literal],
    d: usize,
    job: &Job,
    args: &Args,
) -> Result<Runs, Failure> {
    let (exe, compile_times, _) = compile_cpu(source, file, args)?;
    let (replicas, partitions) = (args.replicas as usize, args.partitions as usize);
    let exchange = job.exchange();
    let run = || {
        rxla_interpreter::replicated::with_exchange(exchange.clone(), || {
            exe.run_device(d, replicas, partitions, arguments)
        })
    };
    let fail = |e: rxla_runtime::RunError| Failure(format!("{file}: {e}"));
    for _ in 0..args.warmup {
        run().map_err(fail)?;
    }
    let mut times = Vec::with_capacity(args.iterations as usize);
    let mut result = None;
    for _ in 0..args.iterations {
        let start = Instant::now();
        result = Some(run().map_err(fail)?);
        times.push(start.elapsed());
    }
    Ok((vec![result.expect("at least one iteration")], times, compile_times))
}

/// One device `d` of an MPI job on the interpreter, its collectives
/// through the job's exchange.
fn run_interpreter_device(
    module: &ast::Module,
    arguments: &[Literal],
    d: usize,
    job: &Job,
    args: &Args,
) -> Result<(Vec<Literal>, Vec<Duration>), Failure> {
    let exchange = job.exchange();
    interpret_on_thread(&format!("device-{d}"), module, arguments, Some(d), args, |run| {
        rxla_interpreter::replicated::with_exchange(exchange, run)
    })
}

/// Runs `module` `--iterations` times on a thread of its own (a big stack
/// for deeply nested computations; a panic in the interpreter becomes an
/// error message instead of a crash), as device `device` of
/// `--replicas x --partitions` if given; `around` wraps the runs (an MPI
/// exchange).
fn interpret_on_thread(
    name: &str,
    module: &ast::Module,
    arguments: &[Literal],
    device: Option<usize>,
    args: &Args,
    around: impl FnOnce(
            &mut dyn FnMut() -> Result<(Vec<Literal>, Vec<Duration>), Failure>,
        ) -> Result<(Vec<Literal>, Vec<Duration>), Failure>
        + Send,
) -> Result<(Vec<Literal>, Vec<Duration>), Failure> {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name(name.into())
            .stack_size(512 << 20)
            .spawn_scoped(scope, || {
                around(&mut || {
                    let mut interpreter = Interpreter::new(module);
                    interpreter.options.replicas = args.replicas as usize;
                    if let Some(d) = device {
                        interpreter.options.partitions = args.partitions as usize;
                        interpreter.replica_id = d / args.partitions as usize;
                        interpreter.partition_id = d % args.partitions as usize;
                    }
                    let mut times = Vec::with_capacity(args.iterations as usize);
                    let mut result = None;
                    for _ in 0..args.iterations {
                        let start = Instant::now();
                        let value = interpreter.run(arguments).map_err(|e| Failure(format!("{}: {e}", args.input)))?;
                        times.push(start.elapsed());
                        result = Some(value);
                    }
                    Ok((vec![result.expect("at least one iteration")], times))
                })
            })
            .map_err(|e| Failure(format!("cannot start the interpreter thread: {e}")))?;
        handle.join().unwrap_or_else(|panic| {
            let message = rxla_ir::panics::message(panic.as_ref());
            Err(Failure(format!("{}: internal error in the interpreter: {message}", args.input)))
        })
    })
}

/// Runs on the CPU; with several devices, on `per_device` arguments (else
/// every device on `arguments`).
fn run_cpu(
    source: &Source,
    file: &str,
    arguments: &mut Vec<Literal>,
    per_device: Option<&[Vec<Literal>]>,
    args: &Args,
) -> Result<Runs, Failure> {
    let (exe, compile_times, _) = compile_cpu(source, file, args)?;
    let fail = |e: rxla_runtime::RunError| Failure(format!("{file}: {e}"));
    let (replicas, partitions) = (args.replicas as usize, args.partitions as usize);
    if replicas * partitions > 1 {
        // Every device on its arguments, one thread each (the collectives
        // exchange data between them).
        let same;
        let per_device = match per_device {
            Some(p) => p,
            None => {
                same = vec![arguments.clone(); replicas * partitions];
                &same
            }
        };
        for _ in 0..args.warmup {
            exe.run_devices(replicas, partitions, per_device).map_err(fail)?;
        }
        let mut times = Vec::with_capacity(args.iterations as usize);
        let mut results = Vec::new();
        for _ in 0..args.iterations {
            let start = Instant::now();
            results = exe.run_devices(replicas, partitions, per_device).map_err(fail)?;
            times.push(start.elapsed());
        }
        return Ok((results, times, compile_times));
    }
    let buffers = exe.prepare(arguments).map_err(fail)?;
    release_arguments(arguments, args);
    for _ in 0..args.warmup {
        exe.execute(&buffers).map_err(fail)?;
    }
    if args.profile {
        // Before the timed runs: their outputs are held until the end, so a
        // run after them would take every output as fresh, faulting memory.
        print_profile(exe.profile(&buffers).map_err(fail)?);
        eprintln!("{}", memory_line(exe.memory()));
    }
    let mut times = Vec::with_capacity(args.iterations as usize);
    let mut outputs = None;
    for _ in 0..args.iterations {
        // The last run's outputs go back to the pool of freed buffers, from
        // which this run takes its own.
        drop(outputs.take());
        let start = Instant::now();
        let out = exe.execute(&buffers).map_err(fail)?;
        times.push(start.elapsed());
        outputs = Some(out);
    }
    // No more runs: the memory the runs kept for the next one is released
    // before the result literal (as big as the outputs) is made.
    drop(buffers);
    rxla_runtime::cpu::release_pooled_buffers();
    let result = exe.into_result(outputs.expect("at least one iteration"));
    drop(exe);
    rxla_runtime::cpu::release_pooled_buffers();
    Ok((vec![result], times, compile_times))
}

/// Frees the argument literals once the executable holds its own copies,
/// unless a reference run (`--reference-platform`) still reads them: a
/// training step's arguments are gigabytes.
fn release_arguments(arguments: &mut Vec<Literal>, args: &Args) {
    if args.reference_platform.is_none() {
        *arguments = Vec::new();
    }
}

/// The memory of one run on the CPU, by kind (`--compile-only`,
/// `--profile`).
fn memory_line(m: rxla_runtime::cpu::MemoryStats) -> String {
    format!(
        "memory: parameters {}, outputs {}, temporaries {} (entry arena; {} unshared), nested arenas {}, constants {}",
        bytes(m.parameters),
        bytes(m.outputs),
        bytes(m.entry_arena),
        bytes(m.temporaries_unshared),
        bytes(m.nested_arenas),
        bytes(m.constants)
    )
}

/// `n` bytes in the largest binary unit that keeps a whole part.
fn bytes(n: usize) -> String {
    const UNITS: [&str; 3] = ["KiB", "MiB", "GiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut value = n as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

/// Imports and verifies the module, then exports the syntax tree the
/// platforms run.
fn load_module(source: &str, file: &str, is_mlir: bool) -> Result<ast::Module, Failure> {
    match rxla_opt::load::load_ast(source, file, is_mlir) {
        Ok(loaded) => {
            loaded.warnings.iter().for_each(|w| print_diagnostic(w));
            Ok(loaded.module)
        }
        Err(e) => {
            e.diagnostics.iter().for_each(|d| eprintln!("{d}"));
            Err(Failure(e.message.map(|m| format!("{file}: {m}")).unwrap_or_default()))
        }
    }
}

/// Prints a diagnostic to stderr once: the module is imported once per
/// platform it runs on (`--reference-platform` too), and its import
/// warnings need not repeat.
fn print_diagnostic(line: &str) {
    static PRINTED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut printed = PRINTED.lock().unwrap_or_else(|e| e.into_inner());
    if !printed.iter().any(|p| p == line) {
        eprintln!("{line}");
        printed.push(line.to_string());
    }
}

fn read_arguments(args: &Args, params: &[Shape]) -> Result<Vec<Literal>, Failure> {
    if let Some(path) = &args.inputs {
        return Ok(npy::read_args(path, params)?);
    }
    if let Some(path) = &args.input_literals {
        let text = std::fs::read_to_string(path).map_err(|e| Failure(format!("{path}: {e}")))?;
        return rxla_interpreter::literal_file::read_literals(&text, params)
            .map_err(|e| Failure(format!("{path}: {e}")));
    }
    if !args.input_npy.is_empty() {
        let arrays = params.iter().filter(|p| !matches!(p, Shape::Token)).count();
        if args.input_npy.len() != arrays {
            return Err(Failure(format!(
                "the entry computation takes {} parameter{}, but {} --input file{} given",
                arrays,
                if arrays == 1 { "" } else { "s" },
                args.input_npy.len(),
                if args.input_npy.len() == 1 { " was" } else { "s were" }
            )));
        }
        let mut files = args.input_npy.iter();
        let mut out = Vec::with_capacity(params.len());
        for (i, shape) in params.iter().enumerate() {
            if matches!(shape, Shape::Token) {
                out.push(Literal::Token);
                continue;
            }
            let path = files.next().unwrap();
            let raw = npy::read_npy_raw(path)?;
            let literal =
                npy::conform(&raw, shape, &format!("parameter {i}")).map_err(|e| Failure(format!("{path}: {e}")))?;
            out.push(literal);
        }
        return Ok(out);
    }
    if args.random_inputs {
        return rxla_interpreter::random::random_arguments(params, args.seed).map_err(Failure);
    }
    if params.iter().all(|p| matches!(p, Shape::Token)) {
        return Ok(params.iter().map(|_| Literal::Token).collect());
    }
    Err(Failure(format!(
        "the entry computation takes {} parameter{}: give --inputs FILE.npz, one --input FILE.npy per parameter, --input-literals FILE, \
         or --random-inputs",
        params.len(),
        if params.len() == 1 { "" } else { "s" }
    )))
}

/// Each replica's result, the run times and the compile times.
type Runs = (Vec<Literal>, Vec<Duration>, Vec<Duration>);

fn run_interpreter(
    module: &ast::Module,
    arguments: &[Literal],
    per_device: Option<&[Vec<Literal>]>,
    args: &Args,
) -> Result<(Vec<Literal>, Vec<Duration>), Failure> {
    let (replicas, partitions) = (args.replicas as usize, args.partitions as usize);
    if replicas * partitions > 1 {
        // Every device on its arguments (else all on the same), one thread each.
        let per_device =
            per_device.map(<[_]>::to_vec).unwrap_or_else(|| vec![arguments.to_vec(); replicas * partitions]);
        let mut times = Vec::with_capacity(args.iterations as usize);
        let mut results = Vec::new();
        for _ in 0..args.iterations {
            let start = Instant::now();
            results = rxla_interpreter::replicated::run_devices(module, replicas, partitions, &per_device)
                .map_err(|e| Failure(format!("{}: {e}", args.input)))?;
            times.push(start.elapsed());
        }
        return Ok((results, times));
    }
    interpret_on_thread("interpreter", module, arguments, None, args, |run| run())
}
