//! What a Rust pass is, and how it becomes an MLIR pass.
//!
//! A pass implements [`HloPass`]: a name, a one-line description, a
//! constructor from [`PassOptions`] and a `run` over the `builtin.module`
//! it is scheduled on. [`create_pass`] wraps it with melior's external-pass
//! support so that it runs inside an MLIR `PassManager` next to upstream
//! passes, and so IR printing, verification after each pass and timing work
//! the same way for both.

use melior::{
    ir::{operation::OperationLike, r#type::TypeId, Location, OperationRef},
    pass::{create_external, ExternalPass, Pass, RunExternalPass},
    ContextRef,
};
use std::{collections::BTreeMap, ffi::CString, fmt};

/// A failure of a pass, or of building one from its options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PassError(pub String);

impl fmt::Display for PassError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PassError {}

/// Options of one pass instance, as written in a pipeline:
/// `name{key=value other=value}`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PassOptions {
    values: BTreeMap<String, String>,
}

impl PassOptions {
    /// Parses the text between the braces of `name{...}`: space-separated
    /// `key=value` pairs (a bare `key` means `key=true`).
    pub fn parse(text: &str) -> Result<Self, PassError> {
        let mut values = BTreeMap::new();
        for item in text.split_whitespace() {
            let (key, value) = item.split_once('=').unwrap_or((item, "true"));
            if key.is_empty() {
                return Err(PassError(format!("malformed pass option '{item}'")));
            }
            values.insert(key.to_string(), value.to_string());
        }
        Ok(Self { values })
    }

    /// Fails naming the first option not in `known`.
    pub fn expect_only(&self, pass: &str, known: &[&str]) -> Result<(), PassError> {
        match self.values.keys().find(|key| !known.contains(&key.as_str())) {
            Some(key) => Err(PassError(format!(
                "pass '{pass}' has no option '{key}' (options: {})",
                if known.is_empty() { "none".to_string() } else { known.join(", ") }
            ))),
            None => Ok(()),
        }
    }

    /// A boolean option, `default` when absent.
    pub fn bool(&self, key: &str, default: bool) -> Result<bool, PassError> {
        match self.values.get(key).map(String::as_str) {
            None => Ok(default),
            Some("true" | "1") => Ok(true),
            Some("false" | "0") => Ok(false),
            Some(other) => Err(PassError(format!("option '{key}' expects true or false, got '{other}'"))),
        }
    }

    /// A string option, `default` when absent.
    pub fn string(&self, key: &str, default: &str) -> String {
        self.values.get(key).cloned().unwrap_or_else(|| default.to_string())
    }

    /// An integer option, `default` when absent.
    pub fn int(&self, key: &str, default: i64) -> Result<i64, PassError> {
        match self.values.get(key) {
            None => Ok(default),
            Some(text) => {
                text.parse().map_err(|_| PassError(format!("option '{key}' expects an integer, got '{text}'")))
            }
        }
    }
}

/// A pass over HLO IR written in Rust.
pub trait HloPass: Clone + Sized + 'static {
    /// The name used in `--passes=` and pipelines (XLA's name where XLA has
    /// the pass).
    const NAME: &'static str;
    /// One line for `--list-passes`.
    const DESCRIPTION: &'static str;
    /// True if the pass never changes a result bit (what the differential
    /// test checks); false if it may change float rounding (reassociation,
    /// upcasting), in which case results must agree within the case's
    /// tolerance.
    const EXACT: bool = true;

    /// Builds the pass from its pipeline options.
    fn from_options(options: &PassOptions) -> Result<Self, PassError>;

    /// Dialects whose ops the pass creates and the input may lack (MLIR
    /// loads them before the pipeline runs).
    fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
        Vec::new()
    }

    /// Runs over `module` (a `builtin.module`). An error fails the pass
    /// pipeline; it is reported as a diagnostic at the module's location.
    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError>;
}

/// A unique, stable address per pass type: MLIR identifies pass classes by
/// TypeID and needs the same id for every instance of one pass.
#[repr(align(8))]
pub struct PassId(#[allow(dead_code)] u8);

impl PassId {
    /// A new id; declare one `static` per pass.
    pub const fn new() -> Self {
        Self(0)
    }
}

impl Default for PassId {
    fn default() -> Self {
        Self::new()
    }
}

#[derive(Clone)]
struct Adapter<P: HloPass>(P);

impl<'c, P: HloPass> RunExternalPass<'c> for Adapter<P> {
    fn initialize(&mut self, _context: ContextRef<'c>) {}

    fn run(&mut self, operation: OperationRef<'c, '_>, pass: ExternalPass<'_>) {
        // A panic must not unwind into C++: it fails the pass instead.
        let result = crate::panics::catch(|| self.0.run(operation))
            .unwrap_or_else(|what| Err(PassError(format!("internal error: {what}"))));
        if let Err(error) = result {
            emit_error(operation.location(), &format!("pass '{}' failed: {error}", P::NAME));
            pass.signal_failure();
        }
    }
}

/// Wraps a configured pass as an MLIR pass anchored on `builtin.module`.
pub fn create_pass<P: HloPass>(pass: P, id: &'static PassId) -> Pass {
    create_external(
        Adapter(pass),
        TypeId::create(id),
        P::NAME,
        P::NAME,
        P::DESCRIPTION,
        "builtin.module",
        &P::dependent_dialects(),
    )
}

/// Emits an error diagnostic at `location` through the context's handlers.
pub fn emit_error(location: Location<'_>, message: &str) {
    let message = CString::new(message.replace('\0', " ")).expect("no NUL left");
    // SAFETY: the location is live and the message NUL-terminated.
    unsafe { mlir_sys::mlirEmitError(location.to_raw(), message.as_ptr()) }
}
