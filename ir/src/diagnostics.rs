//! MLIR's diagnostics as values: collected from a context with their
//! source positions, and printed as `file:line:col: error: message`.

use melior::{
    diagnostic::{Diagnostic, DiagnosticHandlerId, DiagnosticSeverity},
    ir::Location,
    Context,
};
use std::{cell::RefCell, fmt, rc::Rc};

/// Severity of a diagnostic, as printed and as written in expectations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
    Remark,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        })
    }
}

impl From<DiagnosticSeverity> for Severity {
    fn from(severity: DiagnosticSeverity) -> Self {
        match severity {
            DiagnosticSeverity::Error => Severity::Error,
            DiagnosticSeverity::Warning => Severity::Warning,
            DiagnosticSeverity::Note => Severity::Note,
            DiagnosticSeverity::Remark => Severity::Remark,
        }
    }
}

/// One diagnostic, flattened (notes follow their parent as separate entries).
#[derive(Clone, Debug)]
pub struct Record {
    pub severity: Severity,
    /// 1-based line and column in the input file, when the location has one.
    pub position: Option<(usize, usize)>,
    /// The file the location names, when it has one.
    pub file: Option<String>,
    pub message: String,
}

impl Record {
    /// `file:line:col: severity: message`, for diagnostics on `file`.
    pub fn render(&self, file: &str) -> String {
        match self.position {
            Some((line, col)) => format!("{file}:{line}:{col}: {}: {}", self.severity, self.message),
            None => format!("{file}: {}: {}", self.severity, self.message),
        }
    }

    /// [`Record::render`] with the file the location names (`<unknown>`
    /// when it names none).
    pub fn render_located(&self) -> String {
        self.render(self.file.as_deref().unwrap_or("<unknown>"))
    }
}

/// The first file, line and column inside a (possibly name-, call-site- or
/// fused-) location.
fn position(location: Location) -> Option<(String, usize, usize)> {
    if location.is_file_line_col_range() {
        return Some((
            location.file_line_col_range_filename().as_string_ref().as_str().unwrap_or("<unknown>").to_string(),
            location.file_line_col_range_start_line(),
            location.file_line_col_range_start_column(),
        ));
    }
    if location.is_name() {
        return position(location.name_child_location());
    }
    if location.is_call_site() {
        return position(location.call_site_callee());
    }
    if location.is_fused() {
        return (0..location.fused_num_locations()).find_map(|i| position(location.fused_location(i)));
    }
    None
}

fn record(diagnostic: &Diagnostic, out: &mut Vec<Record>) {
    let at = position(diagnostic.location());
    out.push(Record {
        severity: diagnostic.severity().into(),
        position: at.as_ref().map(|(_, line, col)| (*line, *col)),
        file: at.map(|(file, _, _)| file),
        message: diagnostic.to_string(),
    });
    for i in 0..diagnostic.note_count() {
        if let Ok(note) = diagnostic.note(i) {
            record(&note, out);
        }
    }
}

/// Collects every diagnostic emitted in a context.
#[derive(Clone, Default)]
pub struct Collector {
    records: Rc<RefCell<Vec<Record>>>,
    handler: Option<DiagnosticHandlerId>,
}

impl Collector {
    /// Attaches a handler to `context` that records diagnostics here.
    pub fn attach(context: &Context) -> Self {
        let records: Rc<RefCell<Vec<Record>>> = Rc::default();
        let sink = records.clone();
        let handler = context.attach_diagnostic_handler(move |diagnostic| {
            record(&diagnostic, &mut sink.borrow_mut());
            true
        });
        Collector { records, handler: Some(handler) }
    }

    /// Stops collecting (what was collected stays to be taken).
    pub fn detach(&self, context: &Context) {
        if let Some(handler) = self.handler {
            context.detach_diagnostic_handler(handler);
        }
    }

    /// Takes the diagnostics recorded so far.
    pub fn take(&self) -> Vec<Record> {
        std::mem::take(&mut self.records.borrow_mut())
    }
}
