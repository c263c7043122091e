//! `rxla._rxla`: the native half of rxla's Python package.
//!
//! The Python half (`python/rxla/__init__.py`) converts NumPy arrays to and
//! from what crosses this boundary: an array is a triple `(dtype, shape,
//! bytes)` where `dtype` is NumPy's or ml_dtypes' name of the element type
//! (`float32`, `bool`, `bfloat16`, `float8_e4m3fn`, ...), `shape` a tuple of
//! ints and `bytes` the elements, little-endian, row-major (C order). The
//! byte conversion to literals is the `.npy` reader's
//! ([`rxla_interpreter::npy::RawArray::to_literal`]).
//!
//! Compiling and running release the GIL.

use melior::ir::Module;
use pyo3::{
    create_exception,
    exceptions::{PyException, PyRuntimeError, PyTypeError, PyValueError},
    prelude::*,
    types::{PyByteArray, PyDict},
};
use rxla_hlo_text::ast::{self, PrimitiveType, Shape};
use rxla_interpreter::{
    literal::{ElementType, Literal},
    npy::{self, RawArray},
};
use rxla_ir::diagnostics::Collector;

create_exception!(rxla, CompileError, PyException, "A module that does not parse, verify or compile.");
create_exception!(rxla, RunError, PyRuntimeError, "A compiled module that fails to run (such as no GPU).");

/// NumPy / ml_dtypes dtype names, their element types, the `.npy` type
/// character the bytes are read as and the bytes per element. ml_dtypes'
/// types read as raw bits (`V`), as `RawArray::to_literal` expects.
const DTYPES: &[(&str, PrimitiveType, char, usize)] = {
    use PrimitiveType::*;
    &[
        ("bool", Pred, 'b', 1),
        ("int8", S8, 'i', 1),
        ("int16", S16, 'i', 2),
        ("int32", S32, 'i', 4),
        ("int64", S64, 'i', 8),
        ("uint8", U8, 'u', 1),
        ("uint16", U16, 'u', 2),
        ("uint32", U32, 'u', 4),
        ("uint64", U64, 'u', 8),
        ("float16", F16, 'f', 2),
        ("float32", F32, 'f', 4),
        ("float64", F64, 'f', 8),
        ("complex64", C64, 'c', 8),
        ("complex128", C128, 'c', 16),
        ("bfloat16", Bf16, 'V', 2),
        ("float8_e4m3fn", F8e4m3fn, 'V', 1),
        ("float8_e5m2", F8e5m2, 'V', 1),
        ("float8_e4m3", F8e4m3, 'V', 1),
        ("float8_e3m4", F8e3m4, 'V', 1),
        ("float8_e4m3fnuz", F8e4m3fnuz, 'V', 1),
        ("float8_e4m3b11fnuz", F8e4m3b11fnuz, 'V', 1),
        ("float8_e5m2fnuz", F8e5m2fnuz, 'V', 1),
        ("float8_e8m0fnu", F8e8m0fnu, 'V', 1),
        ("float6_e2m3fn", F6e2m3fn, 'V', 1),
        ("float6_e3m2fn", F6e3m2fn, 'V', 1),
        ("float4_e2m1fn", F4e2m1fn, 'V', 1),
        ("int4", S4, 'V', 1),
        ("uint4", U4, 'V', 1),
        ("int2", S2, 'V', 1),
        ("uint2", U2, 'V', 1),
    ]
};

/// The dtype name of an element type (`None`: no NumPy or ml_dtypes type).
fn dtype_name(t: ElementType) -> Option<&'static str> {
    DTYPES.iter().find(|d| d.1 == t).map(|d| d.0)
}

/// `(3, 2)`, `(3,)`, `()`.
fn py_shape(dims: &[i64]) -> String {
    match dims {
        [] => "()".into(),
        [n] => format!("({n},)"),
        _ => format!("({})", dims.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")),
    }
}

/// `f32[2,3]`.
fn hlo_shape(t: ElementType, dims: &[i64]) -> String {
    format!("{}[{}]", t.name(), dims.iter().map(i64::to_string).collect::<Vec<_>>().join(","))
}

/// An array from Python: dtype name, shape, element bytes.
type ArrayIn = (String, Vec<i64>, Vec<u8>);

/// An array for Python: dtype name, shape, element bytes.
type ArrayOut = (String, Vec<i64>, Vec<u8>);

/// An output as Python gets it: dtype name, shape, a `bytearray` of the
/// elements.
type PyArrayOut<'py> = (String, Vec<i64>, Bound<'py, PyByteArray>);

/// One parameter leaf: element type and dims.
#[derive(Clone, Debug)]
struct Param {
    ty: ElementType,
    dims: Vec<i64>,
}

/// Python's error of a bad argument.
fn argument_error(args: &[ArrayIn], params: &[Param]) -> Option<PyErr> {
    if args.len() != params.len() {
        let s = if params.len() == 1 { "" } else { "s" };
        return Some(PyTypeError::new_err(format!(
            "the executable takes {} argument{s} ({}), got {}",
            params.len(),
            params.iter().map(|p| hlo_shape(p.ty, &p.dims)).collect::<Vec<_>>().join(", "),
            args.len()
        )));
    }
    for (i, ((dtype, shape, bytes), p)) in args.iter().zip(params).enumerate() {
        let want = hlo_shape(p.ty, &p.dims);
        let want_dtype = dtype_name(p.ty).unwrap_or(p.ty.name());
        let Some(&(_, t, _, size)) = DTYPES.iter().find(|d| d.0 == dtype) else {
            return Some(PyTypeError::new_err(format!(
                "argument {i}: expected a {want_dtype} array ({want}), got dtype {dtype}, which rxla does not support"
            )));
        };
        if t != p.ty {
            return Some(PyTypeError::new_err(format!(
                "argument {i}: expected dtype {want_dtype} ({want}), got {dtype} with shape {}",
                py_shape(shape)
            )));
        }
        if *shape != p.dims {
            return Some(PyValueError::new_err(format!(
                "argument {i}: expected shape {} ({want}), got {dtype} with shape {}",
                py_shape(&p.dims),
                py_shape(shape)
            )));
        }
        let count: i64 = shape.iter().product();
        if bytes.len() != count as usize * size {
            return Some(PyValueError::new_err(format!(
                "argument {i}: {} bytes for {} elements of {dtype}",
                bytes.len(),
                count
            )));
        }
    }
    None
}

/// The literals of checked arguments.
fn literals(args: Vec<ArrayIn>, params: &[Param]) -> PyResult<Vec<Literal>> {
    args.into_iter()
        .zip(params)
        .enumerate()
        .map(|(i, ((dtype, shape, bytes), p))| {
            let &(_, _, kind, size) = DTYPES.iter().find(|d| d.0 == dtype).expect("checked");
            let raw =
                RawArray { kind, size, descr: dtype.clone(), shape: shape.iter().map(|&d| d as u64).collect(), bytes };
            raw.to_literal(p.ty).map_err(|e| PyValueError::new_err(format!("argument {i}: {e}")))
        })
        .collect()
}

/// The flattened result leaves as arrays for Python.
fn outputs(result: &Literal) -> Result<Vec<ArrayOut>, String> {
    npy::output_arrays(result)
        .into_iter()
        .map(|(name, lit)| {
            let t = lit.element_type().ok_or_else(|| format!("{name} is not an array"))?;
            let dtype = dtype_name(t).ok_or_else(|| format!("{name}: no NumPy dtype for {}", t.name()))?;
            let mut bytes = rxla_library::array::literal_bytes(lit)?;
            // Sub-byte integers: ml_dtypes keeps the value in the low bits.
            let width = match t {
                PrimitiveType::S4 | PrimitiveType::U4 => 4,
                PrimitiveType::S2 | PrimitiveType::U2 => 2,
                _ => 8,
            };
            if width < 8 {
                bytes.iter_mut().for_each(|b| *b &= (1u8 << width) - 1);
            }
            Ok((dtype.to_string(), lit.dims().to_vec(), bytes))
        })
        .collect()
}

/// What was compiled.
enum Compiled {
    Cpu(Box<rxla_runtime::Executable>),
    Gpu(Box<rxla_runtime::gpu::GpuExecutable>),
    Interpreter(ast::Module),
}

/// A compiled module (`rxla._rxla.Executable`; `rxla.Executable` wraps it).
#[pyclass(module = "rxla._rxla", frozen)]
struct Executable {
    compiled: Compiled,
    params: Vec<Param>,
    /// The parameter shapes, to build tuple and token arguments from the
    /// leaves (empty: the leaves are the arguments).
    shapes: Vec<Shape>,
    platform: &'static str,
    file_name: String,
}

/// Options of `compile`.
struct CompileArgs {
    platform: String,
    file_name: String,
    is_mlir: bool,
    emulate_gpu: bool,
    gpu_target: String,
    ptx_version: Option<String>,
    options: rxla_runtime::Options,
    /// The on-disk compilation cache's directory (CPU).
    cache_dir: Option<std::path::PathBuf>,
}

/// Imports (and verifies) a module and exports the syntax tree; errors are
/// `file:line:col: error: ...` lines.
fn load_ast(source: &str, file: &str, is_mlir: bool) -> Result<ast::Module, String> {
    match rxla_opt::load::load_ast(source, file, is_mlir) {
        Ok(loaded) => Ok(loaded.module),
        Err(e) => {
            let mut lines = e.diagnostics;
            lines.extend(e.message.map(|m| format!("{file}: error: {m}")));
            Err(lines.join("\n"))
        }
    }
}

/// Parses MLIR text in `context`; errors are the parser's diagnostics.
fn parse_mlir<'c>(context: &'c melior::Context, source: &str, file: &str) -> Result<Module<'c>, String> {
    let collector = Collector::attach(context);
    let module = Module::parse(context, source);
    collector.detach(context);
    module.ok_or_else(|| {
        let lines: Vec<String> = collector.take().iter().map(|d| d.render(file)).collect();
        if lines.is_empty() {
            format!("{file}: error: the module does not parse")
        } else {
            lines.join("\n")
        }
    })
}

fn gpu_options(a: &CompileArgs) -> Result<rxla_runtime::gpu::GpuOptions, String> {
    let device = rxla_emitters::GpuTarget::by_name(&a.gpu_target)
        .ok_or_else(|| format!("unknown gpu_target '{}' (sm_80, sm_90, a100, h100, h200)", a.gpu_target))?;
    let ptx = match &a.ptx_version {
        Some(v) => rxla_codegen::gpu::PtxTarget::with_ptx_version(device.name, v),
        None => rxla_codegen::gpu::PtxTarget::for_sm(device.name),
    }
    .map_err(|e| format!("ptx_version: {e}"))?;
    Ok(rxla_runtime::gpu::GpuOptions { common: a.options.clone(), device, ptx, emulate: a.emulate_gpu })
}

/// Compiles; `Err` is the message of a `CompileError`.
fn compile_inner(source: &str, a: &CompileArgs) -> Result<Executable, String> {
    let file = a.file_name.as_str();
    let with_file = |e: rxla_runtime::CompileError| {
        let m = e.to_string();
        if m.starts_with(file) {
            m
        } else {
            format!("{file}: {m}")
        }
    };
    let leaf = |s: &rxla_runtime::ParameterSpec| Param { ty: s.shape.ty, dims: s.shape.dims.clone() };
    let (compiled, params, shapes, platform) = match a.platform.as_str() {
        "cpu" => {
            let compile = |options: &rxla_runtime::Options| {
                if a.is_mlir {
                    let context = rxla_dialects::create_context();
                    context.enable_multi_threading(false);
                    let module = parse_mlir(&context, source, file).map_err(rxla_runtime::CompileError)?;
                    rxla_runtime::compile_module(&context, module, options)
                } else {
                    rxla_runtime::compile_hlo_text(source, file, options)
                }
            };
            let exe = match &a.cache_dir {
                Some(dir) => {
                    let kind = match a.is_mlir {
                        true => rxla_runtime::cpu::SourceKind::Mlir,
                        false => rxla_runtime::cpu::SourceKind::HloText,
                    };
                    let cache = rxla_runtime::DiskCache::open(dir).map_err(|e| format!("cache_dir: {e}"))?;
                    cache.compile(source, kind, file, &a.options, compile)
                }
                None => compile(&a.options),
            }
            .map_err(with_file)?;
            let params: Vec<Param> = exe.parameters().iter().map(leaf).collect();
            let shapes = if a.is_mlir { Vec::new() } else { hlo_parameter_shapes(source, &params) };
            (Compiled::Cpu(Box::new(exe)), params, shapes, "cpu")
        }
        "gpu" => {
            let options = gpu_options(a)?;
            let exe = if a.is_mlir {
                let context = rxla_dialects::create_context();
                context.enable_multi_threading(false);
                let module = parse_mlir(&context, source, file)?;
                rxla_runtime::gpu::compile_module(&context, module, &options)
            } else {
                rxla_runtime::gpu::compile_hlo_text(source, file, &options)
            }
            .map_err(with_file)?;
            let params: Vec<Param> = exe.parameters().iter().map(leaf).collect();
            let shapes = if a.is_mlir { Vec::new() } else { hlo_parameter_shapes(source, &params) };
            (Compiled::Gpu(Box::new(exe)), params, shapes, "gpu")
        }
        "interpreter" => {
            let module = load_ast(source, file, a.is_mlir)?;
            let entry = module
                .computations
                .get(module.entry)
                .ok_or_else(|| format!("{file}: error: the module has no entry computation"))?;
            let shapes = npy::parameter_shapes(entry);
            let mut params = Vec::new();
            shapes.iter().for_each(|s| leaves(s, &mut params));
            (Compiled::Interpreter(module), params, shapes, "interpreter")
        }
        other => return Err(format!("unknown platform '{other}' (available: cpu, gpu, interpreter)")),
    };
    Ok(Executable { compiled, params, shapes, platform, file_name: a.file_name.clone() })
}

/// The array leaves of a parameter shape, depth-first.
fn leaves(s: &Shape, out: &mut Vec<Param>) {
    match s {
        Shape::Array { element, dims, .. } => {
            out.push(Param { ty: *element, dims: rxla_interpreter::literal::static_dims(dims) })
        }
        Shape::Tuple(e) => e.iter().for_each(|s| leaves(s, out)),
        Shape::Token | Shape::Opaque => {}
    }
}

/// The entry computation's parameter shapes of HLO text (tuples, tokens),
/// if they agree with the compiled parameter leaves; empty otherwise (the
/// leaves are then the arguments as they are).
fn hlo_parameter_shapes(source: &str, params: &[Param]) -> Vec<Shape> {
    let Ok(module) = rxla_hlo_text::parse_module(source) else { return Vec::new() };
    let Some(entry) = module.computations.get(module.entry) else { return Vec::new() };
    let shapes = npy::parameter_shapes(entry);
    let mut flat = Vec::new();
    shapes.iter().for_each(|s| leaves(s, &mut flat));
    let same = flat.len() == params.len() && flat.iter().zip(params).all(|(a, b)| a.ty == b.ty && a.dims == b.dims);
    if same {
        shapes
    } else {
        Vec::new()
    }
}

/// Builds the interpreter's arguments (tuples, tokens) from leaves.
fn assemble(shapes: &[Shape], leaves: Vec<Literal>) -> Vec<Literal> {
    fn build(s: &Shape, leaves: &mut std::vec::IntoIter<Literal>) -> Literal {
        match s {
            Shape::Array { .. } => leaves.next().expect("one leaf per array"),
            Shape::Tuple(e) => Literal::Tuple(e.iter().map(|s| build(s, leaves)).collect()),
            Shape::Token | Shape::Opaque => Literal::Token,
        }
    }
    let mut it = leaves.into_iter();
    shapes.iter().map(|s| build(s, &mut it)).collect()
}

/// Runs the interpreter on a thread with a big stack; a panic becomes an
/// error.
fn interpret(module: &ast::Module, args: &[Literal]) -> Result<Literal, String> {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("rxla-interpreter".into())
            .stack_size(512 << 20)
            .spawn_scoped(scope, || rxla_interpreter::Interpreter::new(module).run(args).map_err(|e| e.to_string()))
            .map_err(|e| format!("cannot start the interpreter thread: {e}"))?;
        handle.join().unwrap_or_else(|panic| {
            let message = rxla_ir::panics::message(panic.as_ref());
            Err(format!("internal error in the interpreter: {message}"))
        })
    })
}

#[pymethods]
impl Executable {
    /// Runs on `args`, a list of `(dtype, shape, bytes)`; returns the
    /// flattened outputs as `(dtype, shape, bytearray)`.
    fn run<'py>(&self, py: Python<'py>, args: Vec<ArrayIn>) -> PyResult<Vec<PyArrayOut<'py>>> {
        if let Some(e) = argument_error(&args, &self.params) {
            return Err(e);
        }
        let result = py.detach(|| -> PyResult<Vec<ArrayOut>> {
            let leaves = literals(args, &self.params)?;
            // One literal per parameter (tuples, tokens) where the shapes are known.
            let leaves = if self.shapes.is_empty() { leaves } else { assemble(&self.shapes, leaves) };
            let file = &self.file_name;
            let run_error = |e: String| RunError::new_err(format!("{file}: {e}"));
            let result = match &self.compiled {
                Compiled::Cpu(exe) => exe.run(&leaves).map_err(|e| run_error(e.to_string()))?,
                Compiled::Gpu(exe) => exe.run(&leaves).map_err(|e| run_error(e.to_string()))?,
                Compiled::Interpreter(module) => interpret(module, &leaves).map_err(run_error)?,
            };
            outputs(&result).map_err(run_error)
        })?;
        Ok(result.into_iter().map(|(dtype, dims, bytes)| (dtype, dims, PyByteArray::new(py, &bytes))).collect())
    }

    /// The parameters (flattened leaves) as `(dtype, shape)`; the dtype is
    /// the HLO type's name (`f32`) where NumPy and ml_dtypes have no name
    /// for it.
    #[getter]
    fn parameters(&self) -> Vec<(String, Vec<i64>)> {
        self.params.iter().map(|p| (dtype_name(p.ty).unwrap_or(p.ty.name()).to_string(), p.dims.clone())).collect()
    }

    /// The parameters as HLO shapes (`f32[2,3]`).
    #[getter]
    fn parameter_shapes(&self) -> Vec<String> {
        self.params.iter().map(|p| hlo_shape(p.ty, &p.dims)).collect()
    }

    #[getter]
    fn platform(&self) -> &'static str {
        self.platform
    }

    #[getter]
    fn file_name(&self) -> &str {
        &self.file_name
    }

    /// The compiler's warnings (`file:line:col: warning: ...`).
    #[getter]
    fn warnings(&self) -> Vec<String> {
        match &self.compiled {
            Compiled::Cpu(exe) => exe.warnings.clone(),
            Compiled::Gpu(exe) => exe.warnings.clone(),
            Compiled::Interpreter(_) => Vec::new(),
        }
    }

    /// How many distinct kernels were compiled (0 for the interpreter).
    #[getter]
    fn num_kernels(&self) -> usize {
        match &self.compiled {
            Compiled::Cpu(exe) => exe.num_kernels(),
            Compiled::Gpu(exe) => exe.num_kernels(),
            Compiled::Interpreter(_) => 0,
        }
    }

    /// The compile phases' times in seconds (empty for the interpreter).
    #[getter]
    fn compile_times<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let times = match &self.compiled {
            Compiled::Cpu(exe) => Some(&exe.compile_times),
            Compiled::Gpu(exe) => Some(&exe.compile_times),
            Compiled::Interpreter(_) => None,
        };
        if let Some(t) = times {
            for (name, v) in [
                ("import", t.import),
                ("hlo_pipeline", t.hlo_pipeline),
                ("emit", t.emit),
                ("lower", t.lower),
                ("llvm", t.llvm),
                ("total", t.total),
            ] {
                d.set_item(name, v.as_secs_f64())?;
            }
        }
        Ok(d)
    }

    /// The PTX of a GPU executable (`None` on other platforms).
    #[getter]
    fn ptx(&self) -> Option<String> {
        match &self.compiled {
            Compiled::Gpu(exe) => Some(exe.ptx.clone()),
            _ => None,
        }
    }
}

/// Whether `text` is MLIR (else HLO text): HLO text starts with `HloModule`
/// after comments and blank lines.
fn looks_like_mlir(text: &str) -> bool {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with('#'));
    !matches!(first, Some(l) if l.starts_with("HloModule"))
}

/// Compiles HLO text or `hlo`-dialect MLIR for a platform.
#[pyfunction]
#[pyo3(signature = (text, platform = "cpu", *, file_name = "<input>", input_format = "auto", emulate_gpu = false,
                    gpu_target = "sm_90", ptx_version = None, entry_layouts = "module", disable_passes = Vec::new(),
                    dump_dir = None, cache_dir = None))]
#[allow(clippy::too_many_arguments)]
fn compile(
    py: Python<'_>,
    text: &str,
    platform: &str,
    file_name: &str,
    input_format: &str,
    emulate_gpu: bool,
    gpu_target: &str,
    ptx_version: Option<String>,
    entry_layouts: &str,
    disable_passes: Vec<String>,
    dump_dir: Option<std::path::PathBuf>,
    cache_dir: Option<std::path::PathBuf>,
) -> PyResult<Executable> {
    let is_mlir = match input_format {
        "auto" => looks_like_mlir(text),
        "mlir" => true,
        "hlo" => false,
        other => return Err(PyValueError::new_err(format!("input_format: '{other}' is not auto, hlo or mlir"))),
    };
    let entry_layouts = match entry_layouts {
        "module" => rxla_runtime::EntryLayouts::Module,
        "default" => rxla_runtime::EntryLayouts::Default,
        other => return Err(PyValueError::new_err(format!("entry_layouts: '{other}' is not module or default"))),
    };
    if !matches!(platform, "cpu" | "gpu" | "interpreter") {
        return Err(PyValueError::new_err(format!("unknown platform '{platform}' (available: cpu, gpu, interpreter)")));
    }
    if emulate_gpu && platform != "gpu" {
        return Err(PyValueError::new_err("emulate_gpu=True needs platform='gpu'"));
    }
    if cache_dir.is_some() && platform != "cpu" {
        return Err(PyValueError::new_err("cache_dir caches CPU executables: it needs platform='cpu'"));
    }
    let args = CompileArgs {
        platform: platform.to_string(),
        file_name: file_name.to_string(),
        is_mlir,
        emulate_gpu,
        gpu_target: gpu_target.to_string(),
        ptx_version,
        options: rxla_runtime::Options {
            entry_layouts,
            disabled_passes: disable_passes,
            dump_dir,
            ..Default::default()
        },
        cache_dir,
    };
    let source = text.to_string();
    py.detach(move || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| compile_inner(&source, &args)))
            .unwrap_or_else(|_| Err(format!("{}: internal compiler error (a panic; see stderr)", args.file_name)))
    })
    .map_err(CompileError::new_err)
}

/// Runs hlo-opt in-process: `args` are its command-line flags, `text` its
/// input; returns `(success, output, diagnostics)`.
#[pyfunction]
fn run_opt(py: Python<'_>, args: Vec<String>, text: &str) -> (bool, String, String) {
    let text = text.to_string();
    py.detach(move || {
        let flags: Vec<&str> = args.iter().map(String::as_str).collect();
        match std::panic::catch_unwind(|| rxla_opt::run_opt(&flags, &text)) {
            Ok(out) => (out.success, out.output, out.diagnostics),
            Err(_) => (false, String::new(), "hlo-opt: internal error (a panic; see stderr)".to_string()),
        }
    })
}

/// The dtype names rxla accepts and returns.
#[pyfunction]
fn dtypes() -> Vec<(&'static str, &'static str)> {
    DTYPES.iter().map(|d| (d.0, d.1.name())).collect()
}

#[pymodule]
fn _rxla(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Executable>()?;
    m.add_function(wrap_pyfunction!(compile, m)?)?;
    m.add_function(wrap_pyfunction!(run_opt, m)?)?;
    m.add_function(wrap_pyfunction!(dtypes, m)?)?;
    m.add("CompileError", m.py().get_type::<CompileError>())?;
    m.add("RunError", m.py().get_type::<RunError>())?;
    Ok(())
}
