//! Prints a syntax tree back as HLO text in XLA's style:
//!
//! ```text
//! HloModule name, attr=value
//!
//! %comp (p: f32[2]) -> f32[2] {
//!   %p = f32[2]{0} parameter(0)
//!   ROOT %neg = f32[2]{0} negate(%p), metadata={op_name="neg"}
//! }
//!
//! ENTRY %main ...
//! ```
//!
//! Attribute values print as their source text. `ENTRY` and `ROOT` print
//! where the tree marks them (and on the entry/root when nothing is marked
//! and it is not the last one), so `parse_module(&print_module(&m))` equals
//! `m` up to positions and printing is a fixed point. Long lists carry XLA's
//! `/*index=N*/` comments, which the parser skips.

use std::collections::HashMap;
use std::fmt::Write;
use std::hash::Hash;

use crate::ast::*;
use crate::lexer::escape;
use crate::parser::item_rank;

/// The module as HLO text.
pub fn print_module(m: &Module) -> String {
    let mut out = String::with_capacity(64 * m.computations.iter().map(|c| c.instructions.len() + 2).sum::<usize>());
    out.push_str("HloModule ");
    out.push_str(&m.name);
    print_attrs(&mut out, &m.attributes);
    print_stack_frames(&mut out, &m.stack_frames);
    out.push_str("\n\n");
    let marked_entry = m.computations.iter().any(|c| c.is_entry);
    for (i, c) in m.computations.iter().enumerate() {
        let entry = c.is_entry || (!marked_entry && i == m.entry && i + 1 != m.computations.len());
        print_computation(&mut out, c, entry);
        out.push_str("\n\n");
    }
    out
}

fn print_attrs(out: &mut String, attrs: &[Attribute]) {
    for a in attrs {
        out.push_str(", ");
        out.push_str(&a.name);
        out.push('=');
        out.push_str(&a.value.text);
    }
}

fn print_computation(out: &mut String, c: &Computation, entry: bool) {
    if entry {
        out.push_str("ENTRY ");
    }
    out.push('%');
    out.push_str(&c.name);
    if let Some(sig) = &c.signature {
        out.push_str(" (");
        for (i, (name, shape)) in sig.params.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(name);
            out.push_str(": ");
            write_shape(out, shape);
        }
        out.push_str(") -> ");
        write_shape(out, &sig.result);
    }
    out.push_str(" {\n");
    let marked_root = c.instructions.iter().any(|i| i.is_root);
    for (k, i) in c.instructions.iter().enumerate() {
        let root = i.is_root || (!marked_root && k == c.root && k + 1 != c.instructions.len());
        print_instruction(out, i, root);
    }
    out.push('}');
    print_attrs(out, &c.attributes);
}

fn print_instruction(out: &mut String, i: &Instruction, root: bool) {
    out.push_str(if root { "  ROOT %" } else { "  %" });
    out.push_str(&i.name);
    out.push_str(" = ");
    write_shape(out, &i.shape);
    out.push(' ');
    out.push_str(&i.opcode);
    out.push('(');
    if let Some(n) = i.parameter_number {
        let _ = write!(out, "{n}");
    } else if let Some(lit) = &i.literal {
        write_literal(out, lit, Some(&i.shape));
    } else {
        for (k, op) in i.operands.iter().enumerate() {
            separator(out, k);
            if let Some(shape) = &op.shape {
                write_shape(out, shape);
                out.push(' ');
            }
            out.push('%');
            out.push_str(&op.name);
        }
    }
    out.push(')');
    print_attrs(out, &i.attributes);
    out.push('\n');
}

/// `, ` before element `k > 0`, with `/*index=k*/` every fifth, as XLA does.
fn separator(out: &mut String, k: usize) {
    if k > 0 {
        out.push_str(", ");
        if k.is_multiple_of(5) {
            let _ = write!(out, "/*index={k}*/");
        }
    }
}

/// The stack-frame tables rebuilt from the resolved frames: names and file
/// locations are deduplicated in order of first use; frame `k` gets id
/// `k + 1`.
fn print_stack_frames(out: &mut String, frames: &[StackFrame]) {
    if frames.is_empty() {
        return;
    }
    /// Entries in order of first use, and their 1-based ids.
    struct Table<T> {
        entries: Vec<T>,
        ids: HashMap<T, i64>,
    }
    impl<T: Hash + Eq + Copy> Table<T> {
        fn id_of(&mut self, v: T) -> i64 {
            *self.ids.entry(v).or_insert_with(|| {
                self.entries.push(v);
                self.entries.len() as i64
            })
        }
    }
    let new = || Table { entries: Vec::new(), ids: HashMap::new() };
    let (mut files, mut functions): (Table<&str>, Table<&str>) = (new(), new());
    let mut locations: Table<[i64; 6]> = Table { entries: Vec::new(), ids: HashMap::new() };
    let mut frame_rows = Vec::with_capacity(frames.len());
    for f in frames {
        let file = files.id_of(f.file.as_str());
        let function = functions.id_of(f.function.as_str());
        let loc = locations.id_of([file, function, f.line, f.end_line, f.column, f.end_column]);
        frame_rows.push((loc, f.parent_id + 1));
    }
    out.push_str("\n\nFileNames\n");
    for (i, f) in files.entries.iter().enumerate() {
        let _ = writeln!(out, "{} {}", i + 1, escape(f));
    }
    out.push_str("\nFunctionNames\n");
    for (i, f) in functions.entries.iter().enumerate() {
        let _ = writeln!(out, "{} {}", i + 1, escape(f));
    }
    out.push_str("\nFileLocations\n");
    for (i, l) in locations.entries.iter().enumerate() {
        let _ = writeln!(
            out,
            "{} {{file_name_id={} function_name_id={} line={} end_line={} column={} end_column={}}}",
            i + 1,
            l[0],
            l[1],
            l[2],
            l[3],
            l[4],
            l[5]
        );
    }
    out.push_str("\nStackFrames\n");
    for (i, (loc, parent)) in frame_rows.iter().enumerate() {
        let _ = writeln!(out, "{} {{file_location_id={loc} parent_frame_id={parent}}}", i + 1);
    }
}

/// A shape as HLO text: `f32[2,<=3]{1,0:T(8,128)}`, `(s32[], token[])`.
pub fn print_shape(shape: &Shape) -> String {
    let mut out = String::new();
    write_shape(&mut out, shape);
    out
}

pub(crate) fn write_shape(out: &mut String, shape: &Shape) {
    match shape {
        Shape::Array { element, dims, layout } => {
            out.push_str(element.name());
            out.push('[');
            for (i, d) in dims.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = match d {
                    Dim::Static(n) => write!(out, "{n}"),
                    Dim::Bounded(n) => write!(out, "<={n}"),
                    Dim::Unbounded => write!(out, "?"),
                };
            }
            out.push(']');
            if let Some(l) = layout {
                write_layout(out, l);
            }
        }
        Shape::Tuple(elements) => {
            out.push('(');
            for (i, e) in elements.iter().enumerate() {
                separator(out, i);
                write_shape(out, e);
            }
            out.push(')');
        }
        Shape::Token => out.push_str("token[]"),
        Shape::Opaque => out.push_str("opaque[]"),
    }
}

/// `{1,0:T(8,128)(2,1)E(4)S(1)}`; items in XLA's order (the verbatim ones
/// by their head). An empty layout prints as nothing, as XLA prints scalars.
fn write_layout(out: &mut String, l: &Layout) {
    let has_items =
        !l.tiles.is_empty() || l.element_size_in_bits.is_some() || l.memory_space.is_some() || !l.other.is_empty();
    if l.minor_to_major.is_empty() && !has_items {
        return;
    }
    out.push('{');
    for (i, d) in l.minor_to_major.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{d}");
    }
    if has_items {
        out.push(':');
        let other_rank = |item: &String| {
            let head: String = item.chars().take_while(|c| c.is_ascii_alphabetic() || *c == '#' || *c == '*').collect();
            item_rank(&head).unwrap_or(usize::MAX)
        };
        let mut others: Vec<(usize, &String)> = l.other.iter().map(|o| (other_rank(o), o)).collect();
        others.sort_by_key(|(r, _)| *r); // stable: keeps the order within a rank
        let mut others = others.into_iter().peekable();
        let mut flush_before = |out: &mut String, rank: usize| {
            while let Some((_, o)) = others.next_if(|(r, _)| *r < rank) {
                out.push_str(o);
            }
        };
        flush_before(out, item_rank("T").unwrap_or(1));
        if !l.tiles.is_empty() {
            out.push('T');
            for t in &l.tiles {
                out.push('(');
                for (i, d) in t.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    if *d == -1 {
                        out.push('*');
                    } else {
                        let _ = write!(out, "{d}");
                    }
                }
                out.push(')');
            }
        }
        flush_before(out, item_rank("E").unwrap_or(5));
        if let Some(e) = l.element_size_in_bits {
            let _ = write!(out, "E({e})");
        }
        flush_before(out, item_rank("S").unwrap_or(6));
        if let Some(s) = l.memory_space {
            let _ = write!(out, "S({s})");
        }
        flush_before(out, usize::MAX);
        for (_, o) in others {
            out.push_str(o);
        }
    }
    out.push('}');
}

/// A literal as HLO text, its array rank read off its nesting.
pub fn print_literal(literal: &Literal) -> String {
    let mut out = String::new();
    write_literal(&mut out, literal, None);
    out
}

/// With the shape known, arrays print exactly as XLA prints them
/// (`{1, 2}`, `{ { 1, 2 }, {3} }`, `{  }` for an empty outer dimension).
fn write_literal(out: &mut String, literal: &Literal, shape: Option<&Shape>) {
    match literal {
        Literal::Tuple(elements) => {
            out.push_str("( ");
            for (i, e) in elements.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let sub = match shape {
                    Some(Shape::Tuple(s)) => s.get(i),
                    _ => None,
                };
                write_literal(out, e, sub);
            }
            out.push_str(" )");
        }
        Literal::Array(a) => {
            let rank = match shape {
                Some(Shape::Array { dims, .. }) => dims.len(),
                _ => height(a),
            };
            write_array(out, a, rank, 0);
        }
    }
}

fn height(a: &LiteralArray) -> usize {
    match a {
        LiteralArray::Element(_) => 0,
        LiteralArray::Nested(children) => 1 + children.iter().map(height).max().unwrap_or(0),
    }
}

fn write_array(out: &mut String, a: &LiteralArray, rank: usize, level: usize) {
    match a {
        LiteralArray::Element(e) => out.push_str(e),
        LiteralArray::Nested(children) if matches!(children.as_slice(), [LiteralArray::Element(e)] if e == "...") => {
            out.push_str("{...}");
        }
        LiteralArray::Nested(children) => {
            let innermost = level + 1 >= rank;
            let pad = if rank <= 1 || (innermost && children.len() <= 1) { "" } else { " " };
            out.push('{');
            out.push_str(pad);
            for (i, c) in children.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_array(out, c, rank, level + 1);
            }
            out.push_str(pad);
            out.push('}');
        }
    }
}
