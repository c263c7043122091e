//! `stable-sort-expander`: makes `sort` ops with `is_stable = true` stable
//! by construction, as XLA's `StableSortExpander`
//! (xla/hlo/transforms/expanders/stable_sort_expander.cc) does, so that a
//! backend may use any (unstable) sorting algorithm.
//!
//! - The tie breaker is an s32 `iota` along the sort dimension. An operand
//!   that already is one is reused; otherwise a new iota operand is
//!   appended (the sort gets one more result, which nothing uses).
//! - The comparator `cmp(p0.lhs, p0.rhs, ..., pn.lhs, pn.rhs)` is replaced
//!   by a new computation computing
//!   `same = cmp(args) == cmp(args with each lhs/rhs pair swapped)` and
//!   returning `same ? iota.lhs < iota.rhs : cmp(args)`: elements the
//!   comparator considers equivalent keep their original order.
//! - The sort is marked `is_stable = false`: it no longer needs a stable
//!   algorithm (XLA keeps the flag; dropping it makes the pass idempotent).
//!
//! Unlike XLA, which edits the comparator in place when it reuses an iota
//! operand, the pass always works on a copy, so comparators shared with
//! other sorts are untouched. Sorts whose comparator does not return one
//! `pred` scalar, whose operands are not static arrays, or whose sort
//! dimension has more than 2^31 - 1 elements are left alone.

use melior::ir::OperationRef;
use rxla_ir::{
    attrs::StructAttr,
    builder::Builder,
    computation,
    op::Op,
    pass::{HloPass, PassError, PassOptions},
    types::{ElementType, HloType, TensorType},
};

#[derive(Clone, Debug)]
pub struct StableSortExpander;

impl HloPass for StableSortExpander {
    const NAME: &'static str = "stable-sort-expander";
    const DESCRIPTION: &'static str =
        "Make stable sorts stable by construction with an iota tie breaker in the comparator";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        for func in computation::functions(module) {
            for op in func.walk_preorder() {
                if op.is("sort") && op.bool_attr("is_stable") == Some(true) {
                    expand(module, op)?;
                }
            }
        }
        Ok(())
    }
}

/// Index of an operand that is an s32 iota along the sort dimension.
fn iota_operand(sort: Op, dimension: i64) -> Option<usize> {
    sort.operands().iter().position(|v| {
        v.defined_by("iota").is_some_and(|iota| {
            iota.int_attr("iota_dimension") == Some(dimension) && v.ty().tensor().is_some_and(|t| t.elem.0 == "i32")
        })
    })
}

fn expand(module: Op, sort: Op) -> Result<(), PassError> {
    let Some(dimension) = sort.int_attr("dimension") else { return Ok(()) };
    let Some(comparator_name) = sort.symbol_attr("to_apply") else { return Ok(()) };
    let Some(comparator) = computation::lookup(module, &comparator_name) else { return Ok(()) };
    let inputs = sort.operands();
    let Some(shape) = inputs.first().and_then(|v| v.ty().into_tensor()) else { return Ok(()) };
    if inputs.iter().any(|v| v.ty().tensor().is_none()) || dimension as usize >= shape.rank() {
        return Ok(());
    }
    if shape.dims[dimension as usize] > i32::MAX as i64 {
        return Ok(());
    }
    let params = comparator.arguments();
    let returned = comparator.return_values();
    let pred: HloType = TensorType::scalar(&ElementType::new("i1")).into();
    if params.len() != 2 * inputs.len() || returned.len() != 1 || returned[0].ty() != pred {
        return Ok(());
    }

    let existing_iota = iota_operand(sort, dimension);
    let iota_index = existing_iota.unwrap_or(inputs.len());
    let s32 = ElementType::new("i32");
    let mut param_types: Vec<HloType> = params.iter().map(|p| p.ty()).collect();
    if existing_iota.is_none() {
        param_types.push(TensorType::scalar(&s32).into());
        param_types.push(TensorType::scalar(&s32).into());
    }

    // The new comparator: cmp(args), cmp(swapped args), tie break.
    let (new_comparator, b, args) =
        computation::create_function(module, &format!("{comparator_name}.stable"), &param_types, &[pred])?;
    let original = computation::inline_body(comparator, &b, &args[..params.len()])?[0];
    let swapped: Vec<_> = (0..params.len()).map(|i| args[i ^ 1]).collect();
    let reversed = computation::inline_body(comparator, &b, &swapped)?[0];
    let same = b.compare("EQ", original, reversed, None)?;
    let tie_breaker = b.compare("LT", args[2 * iota_index], args[2 * iota_index + 1], None)?;
    let root = b.select(same, tie_breaker, original)?;
    b.ret(&[root])?;
    let new_name = computation::name(new_comparator);

    if existing_iota.is_some() {
        sort.set_symbol_attr("to_apply", &new_name);
        sort.remove_attr("is_stable");
        return Ok(());
    }

    let sb = Builder::before(sort);
    let iota_type = shape.with_elem(&s32);
    let iota = sb.iota(&iota_type, dimension)?;
    let mut operands = inputs.clone();
    operands.push(iota);
    let mut results: Vec<HloType> = sort.results().iter().map(|r| r.ty()).collect();
    results.push(iota_type.into());
    let mut attrs = vec![("dimension", sb.i64_attr(dimension)), ("to_apply", sb.symbol_ref(&new_name))];
    if let Some(layout) = sort.attr_raw("hlo.layout") {
        // One layout per result: the iota result takes the default.
        let mut items = rxla_ir::attrs::array_elements(layout).unwrap_or_else(|| vec![layout]);
        items.push(sb.struct_attr(&StructAttr::new("layout"))?);
        attrs.push(("hlo.layout", rxla_ir::attrs::array(sb.context(), &items)));
    }
    for key in ["hlo.metadata", "hlo.frontend_attributes"] {
        if let Some(attr) = sort.attr_raw(key) {
            attrs.push((key, attr));
        }
    }
    let new_sort = sb.create("hlo.sort", &operands, &results, &attrs)?;
    for i in 0..sort.num_results() {
        sort.replace_result_uses(i, new_sort.result(i));
    }
    sort.erase();
    Ok(())
}
