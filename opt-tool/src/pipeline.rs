//! Pass pipelines: the textual syntax of `--passes` and `--pass-pipeline`,
//! and building an MLIR `PassManager` that mixes rxla's Rust passes with
//! upstream MLIR passes.
//!
//! MLIR's C API cannot register a Rust pass under a name, so MLIR's own
//! pipeline parser would not know `dce`. We parse the pipeline here, add
//! Rust passes as external passes, and hand each upstream element
//! (`canonicalize`, `cse{...}`) to MLIR's parser on its own.

use anyhow::{anyhow, bail, Result};
use melior::pass::{OperationPassManager, PassManager};
use mlir_sys::{mlirOpPassManagerAddPipeline, MlirStringRef};
use rxla_ir::PassOptions;
use std::ffi::c_void;

/// One element of a pipeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Element {
    /// `name` or `name{options}`.
    Pass { name: String, options: String },
    /// `anchor(elements)`: passes nested on ops named `anchor`.
    Nested { anchor: String, elements: Vec<Element> },
}

/// Parses a comma-separated list of pipeline elements (`a,b{x=1},func.func(c)`).
pub fn parse_elements(text: &str) -> Result<Vec<Element>> {
    let mut parser = Parser { text: text.as_bytes(), pos: 0 };
    let elements = parser.elements()?;
    parser.skip_space();
    if parser.pos != parser.text.len() {
        bail!("unexpected '{}' at offset {} in pass pipeline '{text}'", parser.rest(), parser.pos);
    }
    Ok(elements)
}

/// Parses `--pass-pipeline`: `builtin.module(elements)`.
pub fn parse_anchored(text: &str) -> Result<Vec<Element>> {
    match parse_elements(text)?.as_slice() {
        [Element::Nested { anchor, elements }] if anchor == "builtin.module" => Ok(elements.clone()),
        _ => bail!("--pass-pipeline must have the form 'builtin.module(pass,...)', got '{text}'"),
    }
}

struct Parser<'a> {
    text: &'a [u8],
    pos: usize,
}

impl Parser<'_> {
    fn rest(&self) -> String {
        String::from_utf8_lossy(&self.text[self.pos..]).into_owned()
    }

    fn skip_space(&mut self) {
        while self.pos < self.text.len() && self.text[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn elements(&mut self) -> Result<Vec<Element>> {
        let mut elements = Vec::new();
        loop {
            self.skip_space();
            if self.pos == self.text.len() || self.text[self.pos] == b')' {
                if !elements.is_empty() {
                    bail!("empty pass name before '{}'", self.rest());
                }
                return Ok(elements);
            }
            elements.push(self.element()?);
            self.skip_space();
            if self.pos < self.text.len() && self.text[self.pos] == b',' {
                self.pos += 1;
                continue;
            }
            return Ok(elements);
        }
    }

    fn element(&mut self) -> Result<Element> {
        let start = self.pos;
        while self.pos < self.text.len()
            && (self.text[self.pos].is_ascii_alphanumeric() || b"-_.".contains(&self.text[self.pos]))
        {
            self.pos += 1;
        }
        let name = String::from_utf8_lossy(&self.text[start..self.pos]).into_owned();
        if name.is_empty() {
            bail!("expected a pass name at '{}'", self.rest());
        }
        self.skip_space();
        match self.text.get(self.pos) {
            Some(b'{') => {
                let close = self.matching(b'{', b'}')?;
                let options = String::from_utf8_lossy(&self.text[self.pos + 1..close]).into_owned();
                self.pos = close + 1;
                Ok(Element::Pass { name, options })
            }
            Some(b'(') => {
                self.pos += 1;
                let elements = self.elements()?;
                self.skip_space();
                if self.text.get(self.pos) != Some(&b')') {
                    bail!("expected ')' to close '{name}(' in pass pipeline");
                }
                self.pos += 1;
                Ok(Element::Nested { anchor: name, elements })
            }
            _ => Ok(Element::Pass { name, options: String::new() }),
        }
    }

    fn matching(&self, open: u8, close: u8) -> Result<usize> {
        let mut depth = 0;
        for (i, &c) in self.text.iter().enumerate().skip(self.pos) {
            if c == open {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    return Ok(i);
                }
            }
        }
        bail!("unbalanced '{}' in pass pipeline", open as char)
    }
}

/// Adds `elements` to `manager` (anchored on builtin.module).
///
/// Rust passes run on `builtin.module`. At the top level a name that is both
/// a Rust pass and an upstream pass (`cse`) means the Rust pass; nested under
/// another anchor (`func.func(cse)`) it means the upstream one, and a
/// Rust-only pass there is an error.
pub fn build(manager: &PassManager, elements: &[Element]) -> Result<()> {
    add_elements(&manager.as_operation_pass_manager(), elements, "builtin.module")
}

fn add_elements(manager: &OperationPassManager, elements: &[Element], anchor: &str) -> Result<()> {
    for element in elements {
        match element {
            Element::Nested { anchor: nested, elements } => {
                add_elements(&manager.nested_under(nested), elements, nested)?;
            }
            Element::Pass { name, options } => {
                let rust = lookup_rust_pass(name);
                if anchor != "builtin.module" {
                    if let Err(e) = add_upstream(manager, name, options) {
                        if rust.is_some() {
                            bail!("rxla pass '{name}' runs on builtin.module; it cannot be nested under '{anchor}'");
                        }
                        return Err(e);
                    }
                } else if let Some(info) = rust {
                    let options =
                        PassOptions::parse(options).and_then(|o| (info.create)(&o)).map_err(|e| anyhow!("{e}"))?;
                    manager.add_pass(options);
                } else {
                    add_upstream(manager, name, options)?;
                }
            }
        }
    }
    Ok(())
}

/// A Rust pass of the process's registry by name.
pub fn lookup_rust_pass(name: &str) -> Option<&'static rxla_ir::PassInfo> {
    crate::registry::current().lookup(name)
}

/// Adds an upstream MLIR pass (`name{options}`) through MLIR's parser.
fn add_upstream(manager: &OperationPassManager, name: &str, options: &str) -> Result<()> {
    let text = if options.is_empty() { name.to_string() } else { format!("{name}{{{options}}}") };
    let mut message = String::new();
    unsafe extern "C" fn collect(s: MlirStringRef, user: *mut c_void) {
        // SAFETY: `user` is the `message` String below; `s` is valid UTF-8 text.
        unsafe {
            let bytes = std::slice::from_raw_parts(s.data as *const u8, s.length);
            (*(user as *mut String)).push_str(&String::from_utf8_lossy(bytes));
        }
    }
    let text_ref = MlirStringRef { data: text.as_ptr() as *const _, length: text.len() };
    // SAFETY: the manager is live; callbacks only touch `message`.
    let result = unsafe {
        mlirOpPassManagerAddPipeline(
            manager.to_raw(),
            text_ref,
            Some(collect),
            &mut message as *mut String as *mut c_void,
        )
    };
    if result.value == 0 {
        let detail = message.trim();
        if detail.contains("does not refer to a registered pass") || detail.is_empty() {
            bail!("unknown pass '{name}' (see --list-passes)");
        }
        bail!("invalid pass '{text}': {detail}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pass(name: &str, options: &str) -> Element {
        Element::Pass { name: name.into(), options: options.into() }
    }

    #[test]
    fn parses_flat_lists_with_options() {
        assert_eq!(
            parse_elements("dce, canonicalize{max-iterations=2 region-simplify=disabled},cse").unwrap(),
            vec![pass("dce", ""), pass("canonicalize", "max-iterations=2 region-simplify=disabled"), pass("cse", "")]
        );
    }

    #[test]
    fn parses_nested_anchors() {
        assert_eq!(
            parse_anchored("builtin.module(dce,func.func(cse,canonicalize))").unwrap(),
            vec![
                pass("dce", ""),
                Element::Nested {
                    anchor: "func.func".into(),
                    elements: vec![pass("cse", ""), pass("canonicalize", "")]
                }
            ]
        );
    }

    #[test]
    fn rejects_malformed_pipelines() {
        assert!(parse_elements("dce,").is_err());
        assert!(parse_elements("func.func(cse").is_err());
        assert!(parse_elements("cse{a=1").is_err());
        assert!(parse_anchored("dce").is_err());
        assert!(parse_elements("dce)").is_err());
    }
}
