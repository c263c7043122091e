//! `fusion-wrapper`: wraps every instruction that still needs a kernel of
//! its own after fusion into a single-instruction `hlo.fusion` (XLA's
//! FusionWrapper), so that the emitters see nothing but fusions, library
//! calls (dot, convolution, custom-call, sort, fft, rng-bit-generator),
//! control flow and buffer plumbing (parameters, constants, tuples,
//! bitcasts, reshapes of default layouts).

use melior::ir::OperationRef;
use rxla_ir::{
    attrs,
    builder::Builder,
    computation,
    op::Op,
    pass::{HloPass, PassError, PassOptions},
    types::HloType,
};

#[derive(Clone, Debug)]
pub struct FusionWrapper;

impl HloPass for FusionWrapper {
    const NAME: &'static str = "fusion-wrapper";
    const DESCRIPTION: &'static str =
        "Wrap each instruction that still needs its own kernel into a single-instruction fusion";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        let mut taken: std::collections::HashSet<String> =
            computation::functions(module).into_iter().map(computation::name).collect();
        let mut next = 0usize;
        // Only sequential code: a reducer's add is not a kernel.
        let ops: Vec<Op> = computation::sequential_functions(module)
            .into_iter()
            .flat_map(|f| f.body_ops())
            .filter(|op| op.name().strip_prefix("hlo.").is_some_and(|o| WRAPPED.contains(&o)))
            .collect();
        for op in ops {
            {
                if !op.results().iter().all(|r| matches!(r.ty(), HloType::Tensor(_)))
                    || !op.operands().iter().all(|v| matches!(v.ty(), HloType::Tensor(_)))
                {
                    continue;
                }
                // A fresh name without listing the module's functions
                // again (that would make the pass quadratic).
                let name = loop {
                    let n = format!("wrapped_{}.{next}", op.opcode());
                    next += 1;
                    if taken.insert(n.clone()) {
                        break n;
                    }
                };
                wrap(module, op, &name)?;
            }
        }
        Ok(())
    }
}

/// Opcodes that need a kernel when they are not fused (XLA's list).
const WRAPPED: &[&str] = &[
    "abs",
    "add",
    "and",
    "atan2",
    "bitcast_convert",
    "broadcast",
    "cbrt",
    "ceil",
    "clamp",
    "count_leading_zeros",
    "compare",
    "complex",
    "concatenate",
    "convert",
    "copy",
    "cosine",
    "divide",
    "dynamic_slice",
    "dynamic_update_slice",
    "erf",
    "exponential",
    "exponential_minus_one",
    "floor",
    "gather",
    "imag",
    "iota",
    "is_finite",
    "log",
    "log_plus_one",
    "logistic",
    "map",
    "maximum",
    "minimum",
    "multiply",
    "negate",
    "not",
    "or",
    "pad",
    "popcnt",
    "power",
    "real",
    "reduce",
    "reduce_precision",
    "reduce_window",
    "remainder",
    "reverse",
    "round_nearest_afz",
    "round_nearest_even",
    "rsqrt",
    "scatter",
    "select",
    "shift_left",
    "shift_right_arithmetic",
    "shift_right_logical",
    "sign",
    "sine",
    "slice",
    "sqrt",
    "subtract",
    "tan",
    "tanh",
    "transpose",
    "xor",
];

/// Replaces `op` by `hlo.fusion @name(operands)` whose computation is `op`
/// alone (kInput for reductions, the hero of an input fusion; kLoop
/// otherwise).
fn wrap(module: Op, op: Op, name: &str) -> Result<(), PassError> {
    let operands = op.operands();
    let params: Vec<HloType> = operands.iter().map(|v| v.ty()).collect();
    let results: Vec<HloType> = op.results().iter().map(|v| v.ty()).collect();
    let (func, b, args) = computation::create_function_named(module, name, &params, &results)?;
    let clone = op.clone_detached();
    for (i, a) in args.iter().enumerate() {
        clone.set_operand(i, *a);
    }
    b.insert(clone.raw());
    b.ret(&clone.results())?;
    let kind = if op.is("reduce") || op.is("reduce_window") { "kInput" } else { "kLoop" };
    let at = Builder::before(op);
    let kind = attrs::enum_attr(at.context(), "fusion_kind", kind)
        .ok_or_else(|| PassError(format!("internal error: no fusion kind {kind}")))?;
    let fusion = at.create(
        "hlo.fusion",
        &operands,
        &results,
        &[("kind", kind), ("calls", at.symbol_ref(&computation::name(func)))],
    )?;
    if let Some(layout) = op.attr_raw("hlo.layout") {
        fusion.set_attr_raw("hlo.layout", layout);
    }
    for r in 0..op.num_results() {
        op.replace_result_uses(r, fusion.result(r));
    }
    op.erase();
    Ok(())
}
