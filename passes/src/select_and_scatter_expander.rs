//! `select_and_scatter_expander`: rewrites `select_and_scatter` as a
//! variadic `reduce_window` that finds the selected element's index in
//! every window, followed by a `scatter` of the source values to those
//! indices, as XLA's `SelectAndScatterExpander`
//! (xla/service/select_and_scatter_expander.cc):
//!
//! 1. One s32 `iota` per operand dimension (operand-shaped).
//! 2. `reduce_window(operand, iota_0, ..., iota_{r-1};
//!    init, -1, ..., -1)` over the op's window with a new computation
//!    `(v, i..., v', i'...)` that keeps `(v, i...)` when
//!    `select(v, v') && i_0 != -1 || i'_0 == -1` and takes `(v', i'...)`
//!    otherwise: the accumulator starts as the init value with index -1,
//!    the first element of a window replaces it, and later elements replace
//!    the current pick when `select(pick, candidate)` is false. The select
//!    computation is inlined into it.
//! 3. The per-dimension indices are reshaped to `source ++ [1]` and
//!    concatenated into `source ++ [rank]` index vectors.
//! 4. `scatter(broadcast(init), indices, source)` with the scatter
//!    computation, every operand dimension inserted: each source value is
//!    combined into its window's selected element, in source order. A window
//!    with no element (all padding) has index -1, which scatter skips as out
//!    of bounds, as `select_and_scatter` ignores it.
//!
//! Bit-exact with the interpreter's `select_and_scatter`. Left alone: rank-0
//! operands, non-static shapes, and select computations that do not return
//! one `pred` scalar.

use crate::constant::ConstantBuilder;
use crate::constant::Scalar;
use melior::ir::OperationRef;
use rxla_ir::{
    attrs::StructAttr,
    builder::Builder,
    computation,
    op::Op,
    pass::{HloPass, PassError, PassOptions},
    types::{ElementType, HloType, TensorType},
};

type Result<T> = std::result::Result<T, PassError>;

#[derive(Clone, Debug)]
pub struct SelectAndScatterExpander;

impl HloPass for SelectAndScatterExpander {
    const NAME: &'static str = "select_and_scatter_expander";
    const DESCRIPTION: &'static str = "Expand select_and_scatter into an index-tracking reduce_window and a scatter";

    fn from_options(options: &PassOptions) -> Result<Self> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<()> {
        let module = Op::of(&module);
        for func in computation::functions(module) {
            for op in func.walk_preorder() {
                if op.is("select_and_scatter") && op.num_operands() == 3 {
                    expand(module, op)?;
                }
            }
        }
        Ok(())
    }
}

fn expand(module: Op, sas: Op) -> Result<()> {
    let (operand, source, init) = (sas.operand(0), sas.operand(1), sas.operand(2));
    let (Some(shape), Some(source_shape)) = (operand.ty().into_tensor(), source.ty().into_tensor()) else {
        return Ok(());
    };
    let (Some(select_name), Some(scatter_name), Some(window)) =
        (sas.symbol_attr("select"), sas.symbol_attr("scatter"), sas.attr_raw("window"))
    else {
        return Ok(());
    };
    let Some(select) = computation::lookup(module, &select_name) else { return Ok(()) };
    let rank = shape.rank();
    let elem = shape.elem.clone();
    let s32 = ElementType::new("i32");
    let pred: HloType = TensorType::scalar(&ElementType::new("i1")).into();
    let scalar: HloType = TensorType::scalar(&elem).into();
    let index: HloType = TensorType::scalar(&s32).into();
    let select_params: Vec<HloType> = select.arguments().iter().map(|a| a.ty()).collect();
    let select_results: Vec<HloType> = select.return_values().iter().map(|v| v.ty()).collect();
    if rank == 0 || init.ty() != scalar || select_params != [scalar.clone(), scalar.clone()] || select_results != [pred]
    {
        return Ok(());
    }
    if source_shape.num_elements() == 0 || shape.num_elements() == 0 {
        // No window selects anything: the result is the init value.
        let b = Builder::before(sas);
        let filled = b.broadcast_scalar(init, &shape.dims)?;
        if let (Some(new), Some(layout)) = (filled.op(), sas.attr_raw("hlo.layout")) {
            new.set_attr_raw("hlo.layout", layout);
        }
        sas.replace_result_uses(0, filled);
        sas.erase();
        return Ok(());
    }

    // The window reduction: (operand_lhs, iota_lhs..., operand_rhs, iota_rhs...).
    let side: Vec<HloType> = std::iter::once(scalar.clone()).chain((0..rank).map(|_| index.clone())).collect();
    let params: Vec<HloType> = side.iter().chain(&side).cloned().collect();
    let result = HloType::Tuple(side.clone());
    let (reducer, fb, args) =
        computation::create_function(module, &format!("{select_name}.reduce_window"), &params, &[result])?;
    let rhs_begin = rank + 1;
    let neg_one = fb.scalar(&s32, Scalar::Int(-1))?;
    let lhs_first_in_window = fb.compare("NE", args[1], neg_one, None)?;
    let rhs_first_in_window = fb.compare("NE", args[rhs_begin + 1], neg_one, None)?;
    let rhs_not_first_in_window = fb.unary("not", rhs_first_in_window)?;
    let selected = computation::inline_body(select, &fb, &[args[0], args[rhs_begin]])?[0];
    let keep = fb.binary("and", selected, lhs_first_in_window)?;
    let keep = fb.binary("or", keep, rhs_not_first_in_window)?;
    let picked: Vec<_> = (0..=rank).map(|i| fb.select(keep, args[i], args[rhs_begin + i])).collect::<Result<_>>()?;
    let tuple = fb.tuple(&picked)?;
    fb.ret(&[tuple])?;

    let b = Builder::before(sas);
    let iota_type = shape.with_elem(&s32);
    let iotas: Vec<_> = (0..rank).map(|d| b.iota(&iota_type, d as i64)).collect::<Result<_>>()?;
    let neg_one = b.scalar(&s32, Scalar::Int(-1))?;
    let mut operands = vec![operand];
    operands.extend(&iotas);
    operands.push(init);
    operands.extend(std::iter::repeat_n(neg_one, rank));
    let mut results: Vec<HloType> = vec![source_shape.clone().into()];
    results.extend((0..rank).map(|_| source_shape.with_elem(&s32).into()));
    let reduce_window = b.create(
        "hlo.reduce_window",
        &operands,
        &results,
        &[("window", window), ("to_apply", b.symbol_ref(&computation::name(reducer)))],
    )?;

    let mut column = source_shape.dims.clone();
    column.push(1);
    let indices: Vec<_> = (1..=rank).map(|i| b.reshape(reduce_window.result(i), &column)).collect::<Result<_>>()?;
    let indices = b.concatenate(&indices, rank as i64)?;
    let initial = b.broadcast_scalar(init, &shape.dims)?;
    let all: Vec<i64> = (0..rank as i64).collect();
    let mut dims = StructAttr::new("scatter");
    dims.set_list("inserted_window_dims", all.clone());
    dims.set_list("scatter_dims_to_operand_dims", all);
    dims.set("index_vector_dim", rxla_ir::attrs::Field::Raw(rank.to_string()));
    let dims = b.struct_attr(&dims)?;
    let scatter = b
        .create(
            "hlo.scatter",
            &[initial, indices, source],
            &[shape.clone().into()],
            &[("dimension_numbers", dims), ("to_apply", b.symbol_ref(&scatter_name))],
        )?
        .result(0);
    if let Some(new_op) = scatter.op() {
        for key in ["hlo.layout", "hlo.metadata"] {
            if let Some(attr) = sas.attr_raw(key) {
                new_op.set_attr_raw(key, attr);
            }
        }
    }
    sas.replace_result_uses(0, scatter);
    sas.erase();
    Ok(())
}
