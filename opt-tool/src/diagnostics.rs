//! Diagnostics: checking MLIR's diagnostics (collected by
//! `rxla_ir::diagnostics`) against `expected-error` comments
//! (`--verify-diagnostics`, as mlir-opt).

pub use rxla_ir::diagnostics::{Collector, Record, Severity};

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
                file: diagnostic.file.clone(),
                message: format!("unexpected {}: {}", diagnostic.severity, diagnostic.message),
            }),
        }
    }
    for (e, used) in expectations.iter().zip(used) {
        if !used {
            problems.push(Record {
                severity: Severity::Error,
                position: Some((e.comment_line, 1)),
                file: None,
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
        let got =
            vec![Record { severity: Severity::Error, position: Some((5, 3)), file: None, message: "other".into() }];
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
            file: None,
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
