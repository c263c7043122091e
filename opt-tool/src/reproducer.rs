//! Crash reproducers in mlir-opt's format: the module as it was before the
//! failing pass, followed by an `external_resources` block naming the
//! pipeline to run (`--mlir-pass-pipeline-crash-reproducer=FILE` writes
//! one; `--run-reproducer` runs one).

use crate::pipeline::Element;
use anyhow::{bail, Result};

/// `element` in pipeline syntax (`name{options}`, `anchor(a,b)`).
pub fn element_text(element: &Element) -> String {
    match element {
        Element::Pass { name, options } if options.is_empty() => name.clone(),
        Element::Pass { name, options } => format!("{name}{{{options}}}"),
        Element::Nested { anchor, elements } => {
            format!("{anchor}({})", elements.iter().map(element_text).collect::<Vec<_>>().join(","))
        }
    }
}

/// The reproducer of `element` failing on `module` (its text before the pass).
pub fn render(module: &str, element: &Element, verify_each: bool) -> String {
    let pipeline = format!("builtin.module({})", element_text(element));
    format!(
        "{module}\n\n{{-#\n  external_resources: {{\n    mlir_reproducer: {{\n      pipeline: \"{pipeline}\",\n      \
         disable_threading: true,\n      verify_each: {verify_each}\n    }}\n  }}\n#-}}\n"
    )
}

/// The pipeline of a reproducer and its module text (the resource block
/// blanked out, so that line numbers stay those of the file).
pub fn split(text: &str) -> Result<(String, String)> {
    let Some(start) = text.find("{-#") else {
        bail!("no `{{-# external_resources: {{ mlir_reproducer: ... }} #-}}` block: not a reproducer");
    };
    let Some(len) = text[start..].find("#-}") else { bail!("the reproducer's `{{-#` block is not closed") };
    let block = &text[start..start + len + 3];
    if !block.contains("mlir_reproducer") {
        bail!("the `{{-# ... #-}}` block has no `mlir_reproducer` entry");
    }
    let Some(p) = block.find("pipeline:") else { bail!("the reproducer names no pipeline") };
    let rest = block[p + "pipeline:".len()..].trim_start();
    let Some(quoted) = rest.strip_prefix('"') else { bail!("the reproducer's pipeline is not a quoted string") };
    let Some(end) = quoted.find('"') else { bail!("the reproducer's pipeline string is not closed") };
    let blanked: String = block.chars().map(|c| if c == '\n' { '\n' } else { ' ' }).collect();
    let module = format!("{}{}{}", &text[..start], blanked, &text[start + block.len()..]);
    Ok((quoted[..end].to_string(), module))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rendered_reproducer_splits_back() {
        let element = Element::Nested {
            anchor: "func.func".into(),
            elements: vec![Element::Pass { name: "cse".into(), options: "".into() }],
        };
        let text = render("module {\n}", &element, true);
        let (pipeline, module) = split(&text).unwrap();
        assert_eq!(pipeline, "builtin.module(func.func(cse))");
        assert!(module.starts_with("module {\n}"));
        assert_eq!(module.lines().count(), text.lines().count());
        assert!(split("module {}").is_err());
    }
}
