//! Reading literals written as text: the layout `--print-literals` and
//! XLA's `Literal::ToString` print (`f32[2,3] { {1, 2, 3}, {4, 5, 6} }`,
//! `s32[] 7`, each optionally after a `name:` label), one per entry
//! parameter, for `hlo-run --input-literals` (`run_hlo_module`'s
//! `--input_literals_file`).
//!
//! The values are HLO constant syntax, so each literal becomes a
//! `constant` of an HLO module that the HLO text parser checks against its
//! shape and the interpreter evaluates: one definition of the syntax.

use crate::{literal::Literal, npy::shape_text, Interpreter};
use rxla_hlo_text::ast::Shape;

/// One literal of the file: its shape text and value text.
struct Entry {
    shape: String,
    value: String,
    line: usize,
}

fn split(text: &str) -> Result<Vec<Entry>, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let line_of = |i: usize| text[..i].matches('\n').count() + 1;
    loop {
        // Whitespace and // comments.
        while i < bytes.len() {
            if bytes[i].is_ascii_whitespace() {
                i += 1;
            } else if text[i..].starts_with("//") {
                i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
            } else {
                break;
            }
        }
        if i >= bytes.len() {
            return Ok(out);
        }
        let start = i;
        // An optional `name:` label.
        let word_end = text[i..].find(|c: char| c.is_whitespace() || c == '{').map_or(bytes.len(), |n| i + n);
        if text[i..word_end].ends_with(':') {
            i = word_end;
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
        }
        // The shape: `type[dims]`.
        let Some(close) = text[i..].find(']').map(|n| i + n + 1) else {
            return Err(format!("line {}: expected a shape such as f32[2,3]", line_of(start)));
        };
        let shape = text[i..close].trim().to_string();
        if !shape.contains('[') || shape.contains(char::is_whitespace) {
            return Err(format!("line {}: expected a shape such as f32[2,3], got '{shape}'", line_of(i)));
        }
        i = close;
        while i < bytes.len() && bytes[i] != b'\n' && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        // The value: a braced array, or a scalar up to the end of the line.
        let value_start = i;
        if i < bytes.len() && bytes[i] == b'{' {
            let mut depth = 0usize;
            while i < bytes.len() {
                match bytes[i] {
                    b'{' => depth += 1,
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            i += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            if depth != 0 {
                return Err(format!("line {}: unbalanced braces in the value of {shape}", line_of(value_start)));
            }
        } else {
            i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
        }
        let value = text[value_start..i].trim().to_string();
        if value.is_empty() {
            return Err(format!("line {}: {shape} has no value", line_of(value_start)));
        }
        out.push(Entry { shape, value, line: line_of(start) });
    }
}

/// The literals of `text`, one per array parameter of `params` (token
/// parameters take none), checked against the parameters' shapes.
pub fn read_literals(text: &str, params: &[Shape]) -> Result<Vec<Literal>, String> {
    let entries = split(text)?;
    let arrays: Vec<(usize, &Shape)> = params.iter().enumerate().filter(|(_, p)| !matches!(p, Shape::Token)).collect();
    if entries.len() != arrays.len() {
        return Err(format!(
            "{} literal{} for {} parameter{}",
            entries.len(),
            if entries.len() == 1 { "" } else { "s" },
            arrays.len(),
            if arrays.len() == 1 { "" } else { "s" }
        ));
    }
    for (e, (i, p)) in entries.iter().zip(&arrays) {
        let want = shape_text(p);
        if e.shape != want {
            return Err(format!("line {}: the literal is {}, parameter {i} is {want}", e.line, e.shape));
        }
    }
    let mut module = String::from("HloModule literals\n\nENTRY literals {\n");
    for (k, e) in entries.iter().enumerate() {
        module.push_str(&format!("  c{k} = {} constant({})\n", e.shape, e.value));
    }
    let names: Vec<String> = (0..entries.len()).map(|k| format!("c{k}")).collect();
    let shapes: Vec<&str> = entries.iter().map(|e| e.shape.as_str()).collect();
    module.push_str(&format!("  ROOT t = ({}) tuple({})\n}}\n", shapes.join(", "), names.join(", ")));
    let ast = rxla_hlo_text::parse_module(&module).map_err(|e| {
        // Name the literal the parser stopped in: constant k is on line k + 4.
        match (e.pos.line as usize).checked_sub(4).and_then(|k| entries.get(k)) {
            Some(entry) => format!("line {}: the value of {} does not parse: {e}", entry.line, entry.shape),
            None => format!("the literals do not parse: {e}"),
        }
    })?;
    let result = Interpreter::new(&ast).run(&[]).map_err(|e| e.to_string())?;
    let Literal::Tuple(values) = result else { return Err("internal error: the literals are not a tuple".into()) };
    let mut values = values.into_iter();
    Ok(params
        .iter()
        .map(|p| if matches!(p, Shape::Token) { Literal::Token } else { values.next().expect("one value per array") })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::literal_to_string;

    fn shapes(text: &str) -> Vec<Shape> {
        let m = rxla_hlo_text::parse_module(&format!("HloModule m\n\nENTRY e {{\n{text}\n  ROOT t = () tuple()\n}}\n"))
            .unwrap();
        m.computations[0].instructions.iter().filter(|i| i.opcode == "parameter").map(|i| i.shape.clone()).collect()
    }

    #[test]
    fn printed_literals_read_back() {
        let params = shapes("  a = f32[2,3] parameter(0)\n  b = s32[] parameter(1)\n  c = pred[3] parameter(2)");
        let text = "out0: f32[2,3] {\n  { 1.5, 2.5, 3.5 },\n  { 5, 6, 7 }\n}\n// a comment\nout1: s32[] 7\npred[3] {1, 0, 1}\n";
        let lits = read_literals(text, &params).unwrap();
        assert_eq!(literal_to_string(&lits[0]), "f32[2,3] {\n  { 1.5, 2.5, 3.5 },\n  { 5, 6, 7 }\n}");
        assert_eq!(literal_to_string(&lits[1]), "s32[] 7");
        assert_eq!(literal_to_string(&lits[2]), "pred[3] {1, 0, 1}");
    }

    #[test]
    fn mismatches_are_errors() {
        let params = shapes("  a = f32[2] parameter(0)");
        assert!(read_literals("f32[3] {1, 2, 3}", &params).unwrap_err().contains("parameter 0 is f32[2]"));
        assert!(read_literals("f32[2] {1, 2}\nf32[2] {1, 2}", &params).unwrap_err().contains("2 literals for 1"));
        assert!(read_literals("f32[2] {1, 2", &params).unwrap_err().contains("unbalanced"));
        assert!(read_literals("f32[2] {1, x}", &params).unwrap_err().contains("does not parse"));
    }
}
