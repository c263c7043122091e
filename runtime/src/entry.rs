//! The entry computation's parameters and results, as the CPU and GPU
//! executables take and return them: flattened parameter leaves, argument
//! buffers in the parameters' physical layouts, and result literals in
//! logical layouts.

use crate::{
    executor::{self, literal_of},
    program::{Program, Tree},
    relayout, RunError,
};
use rxla_interpreter::Literal;
use rxla_library::array::{literal_bytes, ArrayShape, Buffer};

/// One parameter leaf as the executable expects it.
#[derive(Clone, Debug)]
pub struct ParameterSpec {
    pub shape: ArrayShape,
    /// The physical layout (`minor_to_major`) if not row-major.
    pub layout: Option<Vec<i64>>,
}

/// The flattened parameter leaves of a program.
pub(crate) fn parameter_specs(p: &Program) -> Vec<ParameterSpec> {
    p.param_leaves
        .iter()
        .map(|&s| ParameterSpec { shape: p.slots[s].shape.clone(), layout: p.slots[s].layout.clone() })
        .collect()
}

/// Argument buffers (physical layouts) for `args`, one literal per
/// parameter (tuples are flattened).
pub(crate) fn argument_buffers(p: &Program, args: &[Literal]) -> Result<Vec<Buffer>, RunError> {
    if args.len() != p.params.len() {
        return Err(RunError(format!("{} arguments for {} parameters", args.len(), p.params.len())));
    }
    let leaves: Vec<&Literal> = args.iter().flat_map(executor::flatten).collect();
    let specs = parameter_specs(p);
    if leaves.len() != specs.len() {
        return Err(RunError(format!("{} argument arrays for {} parameter arrays", leaves.len(), specs.len())));
    }
    let mut out = Vec::new();
    for (i, (lit, spec)) in leaves.iter().zip(&specs).enumerate() {
        if lit.dims() != spec.shape.dims.as_slice() || lit.element_type() != Some(spec.shape.ty) {
            return Err(RunError(format!(
                "argument {i}: expected {}, got {}[{}]",
                spec.shape,
                lit.element_type().map(|t| t.name()).unwrap_or("?"),
                lit.dims().iter().map(|d| d.to_string()).collect::<Vec<_>>().join(",")
            )));
        }
        let bytes = literal_bytes(lit).map_err(RunError)?;
        let bytes = match &spec.layout {
            None => bytes,
            Some(m2m) => relayout::to_physical(&spec.shape, m2m, &bytes),
        };
        out.push(Buffer::from_bytes(&bytes));
    }
    Ok(out)
}

/// The result literal (logical layouts) of a program's output bytes. Each
/// output is dropped once its literal is made, so that owned buffers passed
/// in are freed one by one (a training step's outputs are gigabytes).
pub(crate) fn result_literal<B: AsRef<[u8]>>(p: &Program, outputs: impl IntoIterator<Item = B>) -> Literal {
    let mut leaves = p.outputs.iter().zip(outputs).map(|(&s, b)| {
        let b = b.as_ref();
        let info = &p.slots[s];
        match &info.layout {
            None => literal_of(&info.shape, b),
            Some(m2m) => literal_of(&info.shape, &relayout::to_logical(&info.shape, m2m, b)),
        }
    });
    fn build(t: &Tree, leaves: &mut dyn Iterator<Item = Literal>) -> Literal {
        match t {
            Tree::Array(_) => leaves.next().expect("one literal per output"),
            Tree::Tuple(items) => Literal::Tuple(items.iter().map(|t| build(t, leaves)).collect()),
            Tree::Token => Literal::Token,
        }
    }
    build(&p.result, &mut leaves)
}
