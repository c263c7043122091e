//! Saved CPU executables (`hlo-run --save-executable FILE`, then
//! `hlo-run FILE`): what it takes to run a compiled module again without
//! recompiling it, in one file.
//!
//! The file holds the module after the HLO pipeline (MLIR bytecode) and
//! the kernels' machine code (one ELF object per LLVM unit, as the JIT
//! would have compiled them). Loading re-runs only the thunk emitter on
//! the optimized module, which rebuilds the thunk programs, constants and
//! kernel table, and links the objects into memory with LLVM's ORC JIT:
//! no HLO passes, no lowering, no LLVM optimization or code generation.
//! The emitted kernels' names and a fingerprint of their text must match
//! the saved ones, so a file from an rxla whose emitters changed is
//! refused instead of run with the wrong code; so is a file compiled for a
//! CPU other than this one (the code uses the compiling host's features).

use super::{
    compiler::{assemble, emit_thunks},
    Executable,
};
use crate::{
    driver::{host, with_diagnostics, CompileTimes},
    thunk_emitter::{CompileError, Emitted},
};
use melior::ir::Module;
use rxla_codegen::cpu::LoadedCode;
use std::time::Instant;

const MAGIC: &[u8] = b"RXLA-CPU-EXECUTABLE\0";
/// 2: kernels with at most 32 buffers take them as arguments (the CPU
/// kernel ABI, `docs/lowering.md`); format 1's objects took an array.
const FORMAT: u32 = 2;

/// Whether `bytes` start like a saved executable.
pub fn is_executable_artifact(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// A saved executable's parts.
pub(crate) struct Artifact {
    /// [`rxla_codegen::cpu::HostTarget::identity`] of the compiling host.
    pub host: String,
    pub emitted_convolutions: bool,
    /// The entry parameters' HLO shapes (what the caller must pass).
    pub parameters: Vec<String>,
    /// The optimized module as MLIR bytecode.
    pub module: Vec<u8>,
    /// [`fingerprint`] of the emitted kernels.
    pub fingerprint: u64,
    pub kernels: Vec<String>,
    pub objects: Vec<Vec<u8>>,
}

impl Artifact {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend(FORMAT.to_le_bytes());
        put(&mut out, env!("CARGO_PKG_VERSION").as_bytes());
        put(&mut out, self.host.as_bytes());
        out.push(self.emitted_convolutions as u8);
        out.extend((self.parameters.len() as u64).to_le_bytes());
        self.parameters.iter().for_each(|p| put(&mut out, p.as_bytes()));
        put(&mut out, &self.module);
        out.extend(self.fingerprint.to_le_bytes());
        out.extend((self.kernels.len() as u64).to_le_bytes());
        self.kernels.iter().for_each(|k| put(&mut out, k.as_bytes()));
        out.extend((self.objects.len() as u64).to_le_bytes());
        self.objects.iter().for_each(|o| put(&mut out, o));
        out
    }

    fn from_bytes(bytes: &[u8]) -> Result<Artifact, String> {
        if !is_executable_artifact(bytes) {
            return Err("not a saved rxla CPU executable (no RXLA-CPU-EXECUTABLE header)".into());
        }
        let mut r = Reader { bytes, at: MAGIC.len() };
        let format = u32::from_le_bytes(r.take(4)?.try_into().expect("4 bytes"));
        if format != FORMAT {
            return Err(format!("saved in format {format}; this rxla reads format {FORMAT}"));
        }
        let version = r.text()?;
        if version != env!("CARGO_PKG_VERSION") {
            return Err(format!("saved by rxla {version}; this is rxla {}", env!("CARGO_PKG_VERSION")));
        }
        let host = r.text()?;
        let emitted_convolutions = r.take(1)?[0] != 0;
        let parameters = (0..r.count()?).map(|_| r.text()).collect::<Result<_, _>>()?;
        let module = r.bytes()?.to_vec();
        let fingerprint = r.u64()?;
        let kernels = (0..r.count()?).map(|_| r.text()).collect::<Result<_, _>>()?;
        let objects = (0..r.count()?).map(|_| r.bytes().map(<[u8]>::to_vec)).collect::<Result<_, _>>()?;
        if r.at != bytes.len() {
            return Err(format!("{} bytes of trailing data", bytes.len() - r.at));
        }
        Ok(Artifact { host, emitted_convolutions, parameters, module, fingerprint, kernels, objects })
    }
}

fn put(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend((bytes.len() as u64).to_le_bytes());
    out.extend(bytes);
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end =
            end.ok_or_else(|| format!("truncated: {n} bytes wanted at byte {} of {}", self.at, self.bytes.len()))?;
        let part = &self.bytes[self.at..end];
        self.at = end;
        Ok(part)
    }

    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }

    /// A count of items that each take at least 8 bytes.
    fn count(&mut self) -> Result<usize, String> {
        let n = self.u64()?;
        if n > ((self.bytes.len() - self.at) / 8) as u64 {
            return Err(format!("a count of {n} at byte {} exceeds the file", self.at - 8));
        }
        Ok(n as usize)
    }

    fn bytes(&mut self) -> Result<&'a [u8], String> {
        let n = self.u64()?;
        let n = usize::try_from(n).map_err(|_| format!("a length of {n} at byte {}", self.at - 8))?;
        self.take(n)
    }

    fn text(&mut self) -> Result<String, String> {
        let at = self.at;
        String::from_utf8(self.bytes()?.to_vec()).map_err(|_| format!("text at byte {at} is not UTF-8"))
    }
}

/// The entry parameters' HLO shapes, as text.
pub(crate) fn parameter_shapes(module: &Module) -> Result<Vec<String>, CompileError> {
    let shapes = rxla_translate::export::entry_parameter_shapes(module)
        .map_err(|e| CompileError(format!("saving the executable: {e}")))?;
    Ok(shapes.iter().map(rxla_hlo_text::printer::print_shape).collect())
}

/// The entry parameters' shapes of a saved executable: what
/// [`Executable::run`] of [`load_executable`]'s result takes.
pub fn saved_parameter_shapes(bytes: &[u8]) -> Result<Vec<rxla_hlo_text::ast::Shape>, String> {
    let artifact = Artifact::from_bytes(bytes)?;
    artifact
        .parameters
        .iter()
        .map(|p| rxla_hlo_text::parse_shape(p).map_err(|e| format!("saved parameter shape '{p}': {e}")))
        .collect()
}

/// The module as MLIR bytecode.
pub(crate) fn module_bytecode(module: &Module) -> Vec<u8> {
    op_bytecode(module.as_operation().to_raw())
}

/// An op as MLIR bytecode.
fn op_bytecode(op: mlir_sys::MlirOperation) -> Vec<u8> {
    unsafe extern "C" fn append(part: mlir_sys::MlirStringRef, user: *mut std::ffi::c_void) {
        // SAFETY: `user` is the Vec below; `part` is valid for the call.
        unsafe {
            let out = &mut *(user as *mut Vec<u8>);
            out.extend_from_slice(std::slice::from_raw_parts(part.data as *const u8, part.length));
        }
    }
    let mut out = Vec::new();
    // SAFETY: the module is live; the callback only appends to `out`.
    unsafe {
        mlir_sys::mlirOperationWriteBytecode(op, Some(append), &mut out as *mut Vec<u8> as *mut std::ffi::c_void)
    };
    out
}

/// FNV-1a over the kernels' names and modules (as bytecode): equal when
/// the emitters made the same kernels.
pub(crate) fn fingerprint(emitted: &Emitted) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for (_, kernel) in &emitted.kernels {
        let code = op_bytecode(kernel.module.op().raw());
        for byte in kernel.name.bytes().chain([0]).chain(code).chain([0]) {
            hash ^= byte as u64;
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}

/// Loads a saved executable (`file` names it in errors).
pub fn load_executable(bytes: &[u8], file: &str) -> Result<Executable, CompileError> {
    let start = Instant::now();
    let artifact = Artifact::from_bytes(bytes).map_err(|e| CompileError(format!("{file}: {e}")))?;
    let here = host()?.identity();
    if artifact.host != here {
        return Err(CompileError(format!(
            "{file}: compiled for another CPU ({}); this machine is {here}: compile the module again here",
            artifact.host
        )));
    }
    let context = rxla_dialects::create_context();
    context.enable_multi_threading(false);
    let mut times = CompileTimes::default();
    let emitted = with_diagnostics(&context, || {
        let t = Instant::now();
        let data =
            mlir_sys::MlirStringRef { data: artifact.module.as_ptr() as *const _, length: artifact.module.len() };
        // SAFETY: the context is live; MLIR reads the bytecode during the call.
        let raw = unsafe { mlir_sys::mlirModuleCreateParse(context.to_raw(), data) };
        if raw.ptr.is_null() {
            return Err(CompileError(format!("{file}: the saved module does not parse")));
        }
        // SAFETY: a fresh module owned by nobody else.
        let module = unsafe { Module::from_raw(raw) };
        times.import = t.elapsed();
        let t = Instant::now();
        let emitted = emit_thunks(&module, artifact.emitted_convolutions)?;
        times.emit = t.elapsed();
        Ok(emitted)
    })?;
    let names: Vec<String> = emitted.kernels.iter().map(|(k, _)| k.name.clone()).collect();
    if names != artifact.kernels || fingerprint(&emitted) != artifact.fingerprint {
        return Err(CompileError(format!(
            "{file}: the saved kernels do not match what this rxla emits for the saved module \
             (saved by a build with other emitters?): compile the module again"
        )));
    }
    let t = Instant::now();
    let code = if names.is_empty() {
        None
    } else {
        let loaded = LoadedCode::load(&artifact.objects, &names).map_err(|e| CompileError(format!("{file}: {e}")))?;
        Some(loaded)
    };
    times.llvm = t.elapsed();
    assemble(emitted, code, times, start)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Artifact {
        Artifact {
            host: "x86_64 cpu +f".into(),
            emitted_convolutions: true,
            parameters: vec!["f32[2]{0}".into()],
            module: vec![1, 2, 3],
            fingerprint: 42,
            kernels: vec!["a".into(), "b".into()],
            objects: vec![vec![9; 5]],
        }
    }

    #[test]
    fn round_trips() {
        let a = Artifact::from_bytes(&sample().to_bytes()).unwrap();
        assert_eq!((a.host.as_str(), a.emitted_convolutions, a.fingerprint), ("x86_64 cpu +f", true, 42));
        assert_eq!(a.parameters, vec!["f32[2]{0}".to_string()]);
        assert_eq!(
            (a.module, a.kernels, a.objects),
            (vec![1, 2, 3], vec!["a".to_string(), "b".into()], vec![vec![9; 5]])
        );
    }

    #[test]
    fn rejects_damage_with_a_reason() {
        let bytes = sample().to_bytes();
        for cut in [5, MAGIC.len() + 2, bytes.len() - 1] {
            let e = Artifact::from_bytes(&bytes[..cut]).err().unwrap();
            assert!(e.contains("truncated") || e.contains("header"), "{e}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Artifact::from_bytes(&longer).err().unwrap().contains("trailing"));
        let mut huge = sample();
        huge.kernels.clear();
        let mut bytes = huge.to_bytes();
        let at = bytes.len() - 8 - 8 - 5 - 8; // the kernel count
        bytes[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(Artifact::from_bytes(&bytes).err().unwrap().contains("exceeds"));
        let mut format = sample().to_bytes();
        format[MAGIC.len()] = 9;
        assert!(Artifact::from_bytes(&format).err().unwrap().contains("format 9"));
    }
}
