//! Diagnostics: collecting MLIR's diagnostics with their source positions,
//! printing them as `file:line:col: error: message`, and checking them
//! against `expected-error` comments (`--verify-diagnostics`, as mlir-opt).

use melior::{
    diagnostic::{Diagnostic, DiagnosticSeverity},
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
    pub message: String,
}

impl Record {
    /// `file:line:col: severity: message`.
    pub fn render(&self, file: &str) -> String {
        match self.position {
            Some((line, col)) => format!("{file}:{line}:{col}: {}: {}", self.severity, self.message),
            None => format!("{file}: {}: {}", self.severity, self.message),
        }
    }
}

/// The first file/line/column inside a (possibly name-, call-site- or
/// fused-) location.
fn position(location: Location) -> Option<(usize, usize)> {
    if location.is_file_line_col_range() {
        return Some((location.file_line_col_range_start_line(), location.file_line_col_range_start_column()));
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
    out.push(Record {
        severity: diagnostic.severity().into(),
        position: position(diagnostic.location()),
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
pub struct Collector(Rc<RefCell<Vec<Record>>>);

impl Collector {
    /// Attaches a handler to `context` that records diagnostics here.
    pub fn attach(context: &Context) -> Self {
        let collector = Self::default();
        let sink = collector.0.clone();
        context.attach_diagnostic_handler(move |diagnostic| {
            record(&diagnostic, &mut sink.borrow_mut());
            true
        });
        collector
    }

    /// Takes the diagnostics recorded so far.
    pub fn take(&self) -> Vec<Record> {
        std::mem::take(&mut self.0.borrow_mut())
    }
}

/// An `expected-<severity> @<where> {{message}}` comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    pub severity: Severity,
    /// The 1-based line the diagnostic must be reported on.
    pub line: usize,
    /// The 1-based line of the comment itself.
    pub comment_line: usize,
    /// Substring the diagnostic's message must contain.
    pub message: String,
}

/// Parses the expectations in `text`, whose first line is line `first_line`.
pub fn parse_expectations(text: &str, first_line: usize) -> Result<Vec<Expectation>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let is_expectation_only = |l: &str| {
        let t = l.trim_start();
        t.starts_with("//") && t.contains("expected-")
    };
    let mut out = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let mut rest = *line;
        while let Some(at) = rest.find("expected-") {
            rest = &rest[at + "expected-".len()..];
            let (severity, after) = [
                ("error", Severity::Error),
                ("warning", Severity::Warning),
                ("note", Severity::Note),
                ("remark", Severity::Remark),
            ]
            .iter()
            .find_map(|(word, severity)| rest.strip_prefix(word).map(|after| (*severity, after)))
            .ok_or_else(|| format!("line {}: unknown expected-* kind", first_line + index))?;
            let mut after = after.trim_start();
            let comment_line = first_line + index;
            let mut target = comment_line;
            if let Some(spec) = after.strip_prefix('@') {
                let end = spec.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(spec.len());
                let designator = &spec[..end];
                after = spec[end..].trim_start();
                target = match designator {
                    "above" => {
                        let mut i = index;
                        while i > 0 && is_expectation_only(lines[i - 1]) {
                            i -= 1;
                        }
                        first_line + i.saturating_sub(1)
                    }
                    "below" => {
                        let mut i = index + 1;
                        while i < lines.len() && is_expectation_only(lines[i]) {
                            i += 1;
                        }
                        first_line + i
                    }
                    offset => {
                        let delta: i64 = offset
                            .parse()
                            .map_err(|_| format!("line {comment_line}: bad expected-* designator '@{offset}'"))?;
                        let target = comment_line as i64 + delta;
                        if target < 1 {
                            return Err(format!("line {comment_line}: '@{offset}' is before the file"));
                        }
                        target as usize
                    }
                };
            }
            let body = after
                .strip_prefix("{{")
                .and_then(|b| b.find("}}").map(|end| &b[..end]))
                .ok_or_else(|| format!("line {comment_line}: expected-* needs a {{{{message}}}}"))?;
            out.push(Expectation { severity, line: target, comment_line, message: body.to_string() });
            rest = after;
        }
    }
    Ok(out)
}

/// Matches diagnostics against expectations. Returns the mismatches as
/// records to print: expected diagnostics that were not produced (at the
/// expectation's comment) and diagnostics that were not expected.
pub fn verify(expectations: &[Expectation], diagnostics: &[Record]) -> Vec<Record> {
    let mut used = vec![false; expectations.len()];
    let mut problems = Vec::new();
    for diagnostic in diagnostics {
        let found = expectations.iter().enumerate().position(|(i, e)| {
            !used[i]
                && e.severity == diagnostic.severity
                && Some(e.line) == diagnostic.position.map(|p| p.0)
                && diagnostic.message.contains(&e.message)
        });
        match found {
            Some(i) => used[i] = true,
            None => problems.push(Record {
                severity: Severity::Error,
                position: diagnostic.position,
                message: format!("unexpected {}: {}", diagnostic.severity, diagnostic.message),
            }),
        }
    }
    for (e, used) in expectations.iter().zip(used) {
        if !used {
            problems.push(Record {
                severity: Severity::Error,
                position: Some((e.comment_line, 1)),
                message: format!("expected {} \"{}\" on line {} was not produced", e.severity, e.message, e.line),
            });
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_designators() {
        let text = "a\n// expected-error @+1 {{bad thing}}\nop\n// expected-warning@below {{w}}\n// expected-note @above {{n}}\nx\n";
        let e = parse_expectations(text, 1).unwrap();
        assert_eq!(e.len(), 3);
        assert_eq!((e[0].severity, e[0].line, e[0].message.as_str()), (Severity::Error, 3, "bad thing"));
        assert_eq!((e[1].severity, e[1].line), (Severity::Warning, 6));
        assert_eq!((e[2].severity, e[2].line), (Severity::Note, 3));
    }

    #[test]
    fn plain_expectation_is_on_its_own_line() {
        let e = parse_expectations("x\n%0 = foo // expected-error {{oops}}\n", 10).unwrap();
        assert_eq!(e[0].line, 11);
    }

    #[test]
    fn reports_missing_and_unexpected() {
        let expectations = parse_expectations("// expected-error @+1 {{wanted}}\nop\n", 1).unwrap();
        let got = vec![Record { severity: Severity::Error, position: Some((5, 3)), message: "other".into() }];
        let problems = verify(&expectations, &got);
        assert_eq!(problems.len(), 2);
        assert!(problems[0].message.starts_with("unexpected error: other"));
        assert!(problems[1].message.contains("\"wanted\" on line 2 was not produced"));
    }

    #[test]
    fn matches_substrings_on_the_right_line() {
        let expectations = parse_expectations("// expected-error @+1 {{rank}}\nop\n", 1).unwrap();
        let got = vec![Record {
            severity: Severity::Error,
            position: Some((2, 7)),
            message: "'hlo.x' op wrong rank 3".into(),
        }];
        assert!(verify(&expectations, &got).is_empty());
    }

    #[test]
    fn rejects_malformed_expectations() {
        assert!(parse_expectations("// expected-error @+1 oops\n", 1).is_err());
        assert!(parse_expectations("// expected-bogus {{x}}\n", 1).is_err());
    }
}
