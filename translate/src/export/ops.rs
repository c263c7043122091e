//! Op by op: the HLO instruction an `hlo` op is, with its attributes in
//! XLA's text syntax. The inverse of `import/ops.rs`.

use super::{attribute, mlir_attr as m, raw::Op, shape_of, ExportError, Result};
use crate::types::default_layout;
use rxla_hlo_text::ast::{Attribute, Instruction, Layout, Operand, Pos, Shape};

fn missing(op: Op, what: &str) -> ExportError {
    ExportError::new(format!("'{}' has a malformed or missing '{what}' attribute", op.name()))
}

fn braces(values: &[i64]) -> String {
    format!("{{{}}}", values.iter().map(i64::to_string).collect::<Vec<_>>().join(","))
}

fn dims_attr(op: Op, name: &str) -> Result<Vec<i64>> {
    op.attr_text(name).and_then(|t| m::dense_i64_array(&t)).ok_or_else(|| missing(op, name))
}

fn int_attr(op: Op, name: &str) -> Result<i64> {
    op.attr_text(name).and_then(|t| m::integer(&t)).ok_or_else(|| missing(op, name))
}

fn bool_attr(op: Op, name: &str) -> Option<bool> {
    op.attr_text(name).map(|t| t == "true")
}

fn enum_attr(op: Op, name: &str) -> Result<String> {
    op.attr_text(name).and_then(|t| m::enum_case(&t)).ok_or_else(|| missing(op, name))
}

fn callee(op: Op, name: &str) -> Result<String> {
    op.attr_text(name).and_then(|t| m::symbol(&t)).map(|s| format!("%{s}")).ok_or_else(|| missing(op, name))
}

/// `{size=3x3 stride=2x2 pad=0_1x0_1 ...}` from `#hlo.window<...>`.
fn window_text(op: Op, name: &str) -> Result<String> {
    let text = op.attr_text(name).ok_or_else(|| missing(op, name))?;
    let f = m::struct_fields(&text, "window").ok_or_else(|| missing(op, name))?;
    let get = |k: &str| m::field_list(&f, k).ok_or_else(|| missing(op, name));
    let size = get("size")?;
    let rank = size.len();
    let or = |v: Vec<i64>, d: i64| if v.is_empty() { vec![d; rank] } else { v };
    let stride = or(get("stride")?, 1);
    let pad_low = or(get("pad_low")?, 0);
    let pad_high = or(get("pad_high")?, 0);
    let lhs = or(get("lhs_dilation")?, 1);
    let rhs = or(get("rhs_dilation")?, 1);
    let reversal = or(get("reversal")?, 0);
    if rank == 0 {
        return Ok("{}".into());
    }
    let x = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join("x");
    let mut parts = vec![format!("size={}", x(&size))];
    if stride.iter().any(|&s| s != 1) {
        parts.push(format!("stride={}", x(&stride)));
    }
    if pad_low.iter().chain(&pad_high).any(|&p| p != 0) {
        let pads: Vec<String> = pad_low.iter().zip(&pad_high).map(|(l, h)| format!("{l}_{h}")).collect();
        parts.push(format!("pad={}", pads.join("x")));
    }
    if lhs.iter().any(|&d| d != 1) {
        parts.push(format!("lhs_dilate={}", x(&lhs)));
    }
    if rhs.iter().any(|&d| d != 1) {
        parts.push(format!("rhs_dilate={}", x(&rhs)));
    }
    if reversal.iter().any(|&r| r != 0) {
        parts.push(format!("rhs_reversal={}", x(&reversal)));
    }
    Ok(format!("{{{}}}", parts.join(" ")))
}

fn groups_text(groups: &[Vec<i64>]) -> String {
    format!("{{{}}}", groups.iter().map(|g| braces(g)).collect::<Vec<_>>().join(","))
}

fn replica_groups_text(text: &str) -> Option<String> {
    if let Some(groups) = m::groups(text) {
        return Some(groups_text(&groups));
    }
    let f = m::struct_fields(text, "iota_groups")?;
    let list = |v: &[i64]| format!("[{}]", v.iter().map(i64::to_string).collect::<Vec<_>>().join(","));
    let mut out =
        format!("{}<={}", list(&m::field_list(&f, "group_shape")?), list(&m::field_list(&f, "reshape_dims")?));
    let transpose = m::field_list(&f, "transpose")?;
    if !transpose.is_empty() {
        out += &format!("T({})", transpose.iter().map(i64::to_string).collect::<Vec<_>>().join(","));
    }
    Some(out)
}

fn collective_attrs(op: Op, attrs: &mut Vec<Attribute>) -> Result<()> {
    if let Some(text) = op.attr_text("channel_id") {
        attrs.push(attribute("channel_id", m::integer(&text).ok_or_else(|| missing(op, "channel_id"))?.to_string()));
    }
    if let Some(text) = op.attr_text("replica_groups") {
        attrs.push(attribute(
            "replica_groups",
            replica_groups_text(&text).ok_or_else(|| missing(op, "replica_groups"))?,
        ));
    }
    if bool_attr(op, "use_global_device_ids") == Some(true) {
        attrs.push(attribute("use_global_device_ids", "true"));
    }
    Ok(())
}

fn precision_text(op: Op, attrs: &mut Vec<Attribute>) -> Result<()> {
    if let Some(text) = op.attr_text("precision_config") {
        let items = m::list_items(&text).ok_or_else(|| missing(op, "precision_config"))?;
        let words = items
            .iter()
            .map(|i| m::enum_case(i).map(|w| w.to_ascii_lowercase()))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| missing(op, "precision_config"))?;
        attrs.push(attribute("operand_precision", format!("{{{}}}", words.join(","))));
    }
    Ok(())
}

fn dim_labels(op: Op) -> Result<String> {
    let text = op.attr_text("dimension_numbers").ok_or_else(|| missing(op, "dimension_numbers"))?;
    let f = m::struct_fields(&text, "conv").ok_or_else(|| missing(op, "dimension_numbers"))?;
    let get = |k: &str| m::field_int(&f, k).ok_or_else(|| missing(op, k));
    let list = |k: &str| m::field_list(&f, k).ok_or_else(|| missing(op, k));
    let labels = |a: (i64, char), b: (i64, char), spatial: Vec<i64>| -> Result<String> {
        let rank = spatial.len() + 2;
        let mut chars = vec!['?'; rank];
        let mut put = |d: i64, c: char| -> Result<()> {
            let slot = chars.get_mut(d as usize).ok_or_else(|| missing(op, "dimension_numbers"))?;
            *slot = c;
            Ok(())
        };
        put(a.0, a.1)?;
        put(b.0, b.1)?;
        for (i, d) in spatial.iter().enumerate() {
            put(*d, char::from_digit(i as u32, 36).unwrap_or('?'))?;
        }
        Ok(chars.into_iter().collect())
    };
    Ok(format!(
        "{}_{}->{}",
        labels((get("input_batch_dim")?, 'b'), (get("input_feature_dim")?, 'f'), list("input_spatial_dims")?)?,
        labels(
            (get("kernel_input_feature_dim")?, 'i'),
            (get("kernel_output_feature_dim")?, 'o'),
            list("kernel_spatial_dims")?
        )?,
        labels((get("output_batch_dim")?, 'b'), (get("output_feature_dim")?, 'f'), list("output_spatial_dims")?)?,
    ))
}

/// Puts `layout` (the printed `hlo.layout` attribute) on `shape`.
pub fn apply_layout(shape: &mut Shape, text: &str) -> Result<()> {
    match shape {
        Shape::Array { layout, .. } => {
            *layout =
                Some(parse_layout(text).ok_or_else(|| ExportError::new(format!("malformed hlo.layout '{text}'")))?);
            Ok(())
        }
        Shape::Tuple(elements) => {
            let items =
                m::list_items(text).ok_or_else(|| ExportError::new(format!("malformed hlo.layout '{text}'")))?;
            for (element, item) in elements.iter_mut().zip(items) {
                if item.starts_with("#hlo.layout") || item.starts_with('[') {
                    apply_layout(element, item)?;
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn parse_layout(text: &str) -> Option<Layout> {
    let f = m::struct_fields(text, "layout")?;
    let mut layout = Layout { minor_to_major: m::field_list(&f, "minor_to_major")?, ..Layout::default() };
    if let Some((_, tiles)) = f.iter().find(|(k, _)| *k == "tiles") {
        for tile in m::list_items(tiles)? {
            layout.tiles.push(m::dense_i64_array(tile)?);
        }
    }
    layout.element_size_in_bits = m::field_int(&f, "element_size_in_bits");
    layout.memory_space = m::field_int(&f, "memory_space");
    if let Some((_, extra)) = f.iter().find(|(k, _)| *k == "extra") {
        layout.other = vec![m::string(extra)?];
    }
    Some(layout)
}

/// Gives every array without a layout XLA's default one.
pub fn fill_default_layouts(shape: &mut Shape) {
    match shape {
        Shape::Array { dims, layout: layout @ None, .. } => *layout = Some(default_layout(dims.len())),
        Shape::Tuple(elements) => elements.iter_mut().for_each(fill_default_layouts),
        _ => {}
    }
}

/// Layout, sharding and verbatim attributes of `op` onto `inst`; the
/// sharding first, where XLA prints it (before frontend_attributes and
/// metadata).
pub fn apply_discardable(op: Op, inst: &mut Instruction) -> Result<()> {
    let first = inst.attributes.len();
    for (key, value) in op.discardable_attrs() {
        if key == "hlo.layout" {
            apply_layout(&mut inst.shape, &value)?;
        } else if key == "hlo.sharding" {
            inst.attributes.insert(first, sharding_attribute(&value)?);
        } else if let Some(hlo) = crate::carried::hlo_name(&key) {
            inst.attributes.push(attribute(hlo, m::string(&value).unwrap_or(value)));
        }
    }
    fill_default_layouts(&mut inst.shape);
    Ok(())
}

/// `sharding={...}` from a printed `#hlo.sharding<...>`.
pub fn sharding_attribute(value: &str) -> Result<Attribute> {
    let sharding = crate::sharding::from_mlir(value)
        .ok_or_else(|| ExportError::new(format!("hlo.sharding is not a #hlo.sharding: {value}")))?;
    Ok(attribute("sharding", sharding.to_string()))
}

/// The instruction for single- or multi-result `op` named `name`.
pub fn instruction(op: Op, name: &str, operands: Vec<Operand>) -> Result<Instruction> {
    let op_name = op.name();
    let short = &op_name["hlo.".len()..];
    let mut opcode = short.replace('_', "-");
    let mut attrs: Vec<Attribute> = Vec::new();
    let mut literal = None;
    match short {
        "compare" => {
            attrs.push(attribute("direction", enum_attr(op, "comparison_direction")?));
            if op.has_attr("compare_type") {
                attrs.push(attribute("type", enum_attr(op, "compare_type")?));
            }
        }
        "reduce_precision" => {
            attrs.push(attribute("exponent_bits", int_attr(op, "exponent_bits")?.to_string()));
            attrs.push(attribute("mantissa_bits", int_attr(op, "mantissa_bits")?.to_string()));
        }
        "broadcast" | "transpose" | "reverse" => {
            attrs.push(attribute("dimensions", braces(&dims_attr(op, "dimensions")?)));
        }
        "reduce" | "map" => {
            attrs.push(attribute("dimensions", braces(&dims_attr(op, "dimensions")?)));
            attrs.push(attribute("to_apply", callee(op, "to_apply")?));
        }
        "concatenate" | "get_dimension_size" | "set_dimension_size" => {
            attrs.push(attribute("dimensions", braces(&[int_attr(op, "dimension")?])));
        }
        "sort" => {
            attrs.push(attribute("dimensions", braces(&[int_attr(op, "dimension")?])));
            if bool_attr(op, "is_stable") == Some(true) {
                attrs.push(attribute("is_stable", "true"));
            }
            attrs.push(attribute("to_apply", callee(op, "to_apply")?));
        }
        "slice" => {
            let (s, l, st) =
                (dims_attr(op, "start_indices")?, dims_attr(op, "limit_indices")?, dims_attr(op, "strides")?);
            let parts: Vec<String> = s
                .iter()
                .zip(&l)
                .zip(&st)
                .map(|((s, l), st)| if *st == 1 { format!("[{s}:{l}]") } else { format!("[{s}:{l}:{st}]") })
                .collect();
            attrs.push(attribute("slice", format!("{{{}}}", parts.join(", "))));
        }
        "dynamic_slice" => attrs.push(attribute("dynamic_slice_sizes", braces(&dims_attr(op, "slice_sizes")?))),
        "pad" => {
            let (lo, hi, int) = (
                dims_attr(op, "edge_padding_low")?,
                dims_attr(op, "edge_padding_high")?,
                dims_attr(op, "interior_padding")?,
            );
            let interior = int.iter().any(|&i| i != 0);
            let parts: Vec<String> = (0..lo.len())
                .map(|i| {
                    let base = format!("{}_{}", lo[i], hi.get(i).copied().unwrap_or(0));
                    if interior {
                        format!("{base}_{}", int.get(i).copied().unwrap_or(0))
                    } else {
                        base
                    }
                })
                .collect();
            attrs.push(attribute("padding", parts.join("x")));
        }
        "iota" => attrs.push(attribute("iota_dimension", int_attr(op, "iota_dimension")?.to_string())),
        "gather" | "scatter" => {
            let text = op.attr_text("dimension_numbers").ok_or_else(|| missing(op, "dimension_numbers"))?;
            let f = m::struct_fields(&text, short).ok_or_else(|| missing(op, "dimension_numbers"))?;
            let fields: &[&str] = if short == "gather" {
                &[
                    "offset_dims",
                    "collapsed_slice_dims",
                    "start_index_map",
                    "operand_batching_dims",
                    "start_indices_batching_dims",
                ]
            } else {
                &[
                    "update_window_dims",
                    "inserted_window_dims",
                    "scatter_dims_to_operand_dims",
                    "input_batching_dims",
                    "scatter_indices_batching_dims",
                ]
            };
            for (i, field) in fields.iter().enumerate() {
                let values = m::field_list(&f, field).ok_or_else(|| missing(op, field))?;
                // Batching dims are printed only when present, as XLA does.
                if i < 3 || !values.is_empty() {
                    attrs.push(attribute(field, braces(&values)));
                }
            }
            attrs.push(attribute(
                "index_vector_dim",
                m::field_int(&f, "index_vector_dim").ok_or_else(|| missing(op, "index_vector_dim"))?.to_string(),
            ));
            if short == "gather" {
                attrs.push(attribute("slice_sizes", braces(&dims_attr(op, "slice_sizes")?)));
            }
            for flag in ["indices_are_sorted", "unique_indices"] {
                if bool_attr(op, flag) == Some(true) {
                    attrs.push(attribute(flag, "true"));
                }
            }
            if short == "scatter" {
                attrs.push(attribute("to_apply", callee(op, "to_apply")?));
            }
        }
        "reduce_window" => {
            attrs.push(attribute("window", window_text(op, "window")?));
            attrs.push(attribute("to_apply", callee(op, "to_apply")?));
        }
        "select_and_scatter" => {
            attrs.push(attribute("window", window_text(op, "window")?));
            attrs.push(attribute("select", callee(op, "select")?));
            attrs.push(attribute("scatter", callee(op, "scatter")?));
        }
        "topk" => {
            attrs.push(attribute("k", int_attr(op, "k")?.to_string()));
            attrs.push(attribute("largest", bool_attr(op, "largest").unwrap_or(true).to_string()));
        }
        "scan" => {
            attrs.push(attribute("dimensions", braces(&[int_attr(op, "scan_dimension")?])));
            attrs.push(attribute("num_carries", int_attr(op, "num_carries")?.to_string()));
            if bool_attr(op, "is_reverse") == Some(true) {
                attrs.push(attribute("is_reverse", "true"));
            }
            if let Some(assoc) = bool_attr(op, "is_associative") {
                attrs.push(attribute("is_associative", assoc.to_string()));
            }
            attrs.push(attribute("to_apply", callee(op, "to_apply")?));
        }
        "shuffle" => {
            attrs.push(attribute("dimensions", braces(&dims_attr(op, "dimensions")?)));
            attrs.push(attribute("mode", enum_attr(op, "mode")?));
            attrs.push(attribute("shifts", braces(&dims_attr(op, "shifts")?)));
        }
        "ragged_dot" | "scaled_dot" => {
            let text = op.attr_text("dot_dimension_numbers").ok_or_else(|| missing(op, "dot_dimension_numbers"))?;
            let f = m::struct_fields(&text, "dot").ok_or_else(|| missing(op, "dot_dimension_numbers"))?;
            for field in ["lhs_batch_dims", "lhs_contracting_dims", "rhs_batch_dims", "rhs_contracting_dims"] {
                let values = m::field_list(&f, field).ok_or_else(|| missing(op, field))?;
                if !values.is_empty() {
                    attrs.push(attribute(field, braces(&values)));
                }
            }
            if short == "ragged_dot" {
                attrs.push(attribute("lhs_ragged_dims", braces(&dims_attr(op, "lhs_ragged_dimensions")?)));
                let groups = dims_attr(op, "rhs_group_dimensions")?;
                if !groups.is_empty() {
                    attrs.push(attribute("rhs_group_dims", braces(&groups)));
                }
            }
            precision_text(op, &mut attrs)?;
        }
        "dot" => {
            let text = op.attr_text("dot_dimension_numbers").ok_or_else(|| missing(op, "dot_dimension_numbers"))?;
            let f = m::struct_fields(&text, "dot").ok_or_else(|| missing(op, "dot_dimension_numbers"))?;
            for field in ["lhs_batch_dims", "lhs_contracting_dims", "rhs_batch_dims", "rhs_contracting_dims"] {
                let values = m::field_list(&f, field).ok_or_else(|| missing(op, field))?;
                if !values.is_empty() {
                    attrs.push(attribute(field, braces(&values)));
                }
            }
            precision_text(op, &mut attrs)?;
            if let Some(text) = op.attr_text("algorithm") {
                attrs.push(attribute("algorithm", m::string(&text).ok_or_else(|| missing(op, "algorithm"))?));
            }
        }
        "convolution" => {
            let window = window_text(op, "window")?;
            if window != "{}" {
                attrs.push(attribute("window", window));
            }
            attrs.push(attribute("dim_labels", dim_labels(op)?));
            for name in ["feature_group_count", "batch_group_count"] {
                let value = op.attr_text(name).and_then(|t| m::integer(&t)).unwrap_or(1);
                if value != 1 {
                    attrs.push(attribute(name, value.to_string()));
                }
            }
            precision_text(op, &mut attrs)?;
        }
        "fft" => {
            attrs.push(attribute("fft_type", enum_attr(op, "fft_type")?));
            attrs.push(attribute("fft_length", braces(&dims_attr(op, "fft_length")?)));
        }
        "cholesky" => attrs.push(attribute("lower", bool_attr(op, "lower").unwrap_or(false).to_string())),
        "triangular_solve" => {
            for flag in ["left_side", "lower", "unit_diagonal"] {
                attrs.push(attribute(flag, bool_attr(op, flag).unwrap_or(false).to_string()));
            }
            attrs.push(attribute("transpose_a", enum_attr(op, "transpose_a")?));
        }
        "batch_norm_training" | "batch_norm_inference" | "batch_norm_grad" => {
            let epsilon = op.attr_text("epsilon").and_then(|t| m::float(&t)).ok_or_else(|| missing(op, "epsilon"))?;
            attrs.push(attribute("epsilon", format!("{}", epsilon as f32)));
            attrs.push(attribute("feature_index", int_attr(op, "feature_index")?.to_string()));
        }
        "rng" => attrs.push(attribute("distribution", enum_attr(op, "distribution")?)),
        "rng_bit_generator" => attrs.push(attribute("algorithm", enum_attr(op, "algorithm")?)),
        "rng_get_and_update_state" => attrs.push(attribute("delta", int_attr(op, "delta")?.to_string())),
        "get_tuple_element" => attrs.push(attribute("index", int_attr(op, "index")?.to_string())),
        "call" => {
            attrs.push(attribute("to_apply", callee(op, "to_apply")?));
            if bool_attr(op, "is_composite") == Some(true) {
                attrs.push(attribute("is_composite", "true"));
            }
        }
        "while" => {
            attrs.push(attribute("condition", callee(op, "condition")?));
            attrs.push(attribute("body", callee(op, "body")?));
        }
        "conditional" => {
            let text = op.attr_text("branch_computations").ok_or_else(|| missing(op, "branch_computations"))?;
            let names = m::symbol_list(&text).ok_or_else(|| missing(op, "branch_computations"))?;
            let list: Vec<String> = names.iter().map(|n| format!("%{n}")).collect();
            attrs.push(attribute("branch_computations", format!("{{{}}}", list.join(", "))));
        }
        "fusion" => {
            attrs.push(attribute("kind", enum_attr(op, "kind")?));
            attrs.push(attribute("calls", callee(op, "calls")?));
        }
        "custom_call" => {
            let target = op
                .attr_text("custom_call_target")
                .and_then(|t| m::string(&t))
                .ok_or_else(|| missing(op, "custom_call_target"))?;
            attrs.push(attribute("custom_call_target", rxla_hlo_text::lexer::escape(&target)));
            if let Some(config) = op.attr_text("backend_config").and_then(|t| m::string(&t)) {
                if !config.is_empty() {
                    let text = if config.starts_with('{') { config } else { rxla_hlo_text::lexer::escape(&config) };
                    attrs.push(attribute("backend_config", text));
                }
            }
            if let Some(text) = op.attr_text("api_version") {
                let version = m::enum_case(&text).ok_or_else(|| missing(op, "api_version"))?;
                if version != "API_VERSION_ORIGINAL" {
                    attrs.push(attribute("api_version", version));
                }
            }
            if bool_attr(op, "has_side_effect") == Some(true) {
                attrs.push(attribute("custom_call_has_side_effect", "true"));
            }
            if let Some(text) = op.attr_text("called_computations") {
                let names = m::symbol_list(&text).ok_or_else(|| missing(op, "called_computations"))?;
                let list: Vec<String> = names.iter().map(|n| format!("%{n}")).collect();
                attrs.push(attribute("called_computations", format!("{{{}}}", list.join(", "))));
            }
            if let Some(text) = op.attr_text("operand_layout_constraints") {
                let items = m::list_items(&text).ok_or_else(|| missing(op, "operand_layout_constraints"))?;
                let mut shapes = Vec::new();
                for (item, operand) in items.iter().zip(op.operands()) {
                    let mut shape = shape_of(operand.type_text(), name)?;
                    apply_layout(&mut shape, item)?;
                    shapes.push(rxla_hlo_text::print_shape(&shape));
                }
                attrs.push(attribute("operand_layout_constraints", format!("{{{}}}", shapes.join(", "))));
            }
            if let Some(text) = op.attr_text("output_to_operand_aliasing") {
                let items = m::list_items(&text).ok_or_else(|| missing(op, "output_to_operand_aliasing"))?;
                let mut parts = Vec::new();
                for item in items {
                    let f = m::struct_fields(item, "output_operand_alias")
                        .ok_or_else(|| missing(op, "output_to_operand_aliasing"))?;
                    let out = m::field_list(&f, "output_tuple_indices").unwrap_or_default();
                    let operand = m::field_int(&f, "operand_index").ok_or_else(|| missing(op, "operand_index"))?;
                    let index = m::field_list(&f, "operand_tuple_indices").unwrap_or_default();
                    parts.push(format!("{}: ({operand}, {})", braces(&out), braces(&index)));
                }
                attrs.push(attribute("output_to_operand_aliasing", format!("{{{}}}", parts.join(", "))));
            }
        }
        "domain" => {
            let kind =
                op.attr_text("domain_kind").and_then(|t| m::string(&t)).ok_or_else(|| missing(op, "domain_kind"))?;
            attrs.push(attribute("domain", kind));
        }
        "async_start" | "async_update" | "async_done" => {
            if op.has_attr("calls") {
                attrs.push(attribute("calls", callee(op, "calls")?));
            }
            if let Some(thread) = op.attr_text("async_execution_thread").and_then(|t| m::string(&t)) {
                attrs.push(attribute("async_execution_thread", rxla_hlo_text::lexer::escape(&thread)));
            }
        }
        "copy_start" => {
            if let Some(text) = op.attr_text("cross_program_prefetch_index") {
                attrs.push(attribute(
                    "cross_program_prefetch_index",
                    m::integer(&text).ok_or_else(|| missing(op, "cross_program_prefetch_index"))?.to_string(),
                ));
            }
        }
        "all_reduce" | "all_reduce_start" | "collective_reduce" => {
            collective_attrs(op, &mut attrs)?;
            attrs.push(attribute("to_apply", callee(op, "to_apply")?));
        }
        "all_gather" | "all_gather_start" => {
            collective_attrs(op, &mut attrs)?;
            attrs.push(attribute("dimensions", braces(&[int_attr(op, "all_gather_dimension")?])));
        }
        "all_to_all" => {
            collective_attrs(op, &mut attrs)?;
            if op.has_attr("dimensions") {
                attrs.push(attribute("dimensions", braces(&dims_attr(op, "dimensions")?)));
            }
        }
        "ragged_all_to_all" | "collective_broadcast" => collective_attrs(op, &mut attrs)?,
        "reduce_scatter" => {
            collective_attrs(op, &mut attrs)?;
            attrs.push(attribute("dimensions", braces(&[int_attr(op, "scatter_dimension")?])));
            attrs.push(attribute("to_apply", callee(op, "to_apply")?));
        }
        "collective_permute" | "collective_permute_start" => {
            if let Some(text) = op.attr_text("channel_id") {
                attrs.push(attribute(
                    "channel_id",
                    m::integer(&text).ok_or_else(|| missing(op, "channel_id"))?.to_string(),
                ));
            }
            let text = op.attr_text("source_target_pairs").ok_or_else(|| missing(op, "source_target_pairs"))?;
            let pairs = m::groups(&text).ok_or_else(|| missing(op, "source_target_pairs"))?;
            attrs.push(attribute("source_target_pairs", groups_text(&pairs)));
        }
        "send" | "send_done" | "recv" | "recv_done" => {
            attrs.push(attribute("channel_id", int_attr(op, "channel_id")?.to_string()));
            if bool_attr(op, "is_host_transfer") == Some(true) {
                attrs.push(attribute("is_host_transfer", "true"));
            }
        }
        "infeed" | "outfeed" => {
            let key = format!("{short}_config");
            if let Some(config) = op.attr_text(&key).and_then(|t| m::string(&t)) {
                if !config.is_empty() {
                    attrs.push(attribute(&key, rxla_hlo_text::lexer::escape(&config)));
                }
            }
        }
        "constant" => {
            let value = op.attr("value").ok_or_else(|| missing(op, "value"))?;
            literal = Some(super::constant::literal(value)?);
        }
        _ => {}
    }
    if let Some(text) = op.attr_text("result_accuracy") {
        attrs.push(attribute(
            "result_accuracy",
            result_accuracy_text(&text).ok_or_else(|| missing(op, "result_accuracy"))?,
        ));
    }
    if short == "opt_barrier" {
        opcode = "opt-barrier".into();
    }
    let shape =
        if op.num_results() == 1 { shape_of(op.result(0).type_text(), name)? } else { Shape::Tuple(Vec::new()) };
    let mut inst = Instruction {
        name: name.to_string(),
        is_root: false,
        shape,
        opcode,
        operands,
        literal,
        parameter_number: None,
        attributes: attrs,
        pos: Pos::default(),
    };
    if op.num_results() == 1 {
        apply_discardable(op, &mut inst)?;
    }
    Ok(inst)
}

fn result_accuracy_text(text: &str) -> Option<String> {
    let f = m::struct_fields(text, "result_accuracy")?;
    let mode = m::enum_case(f.iter().find(|(k, _)| *k == "mode")?.1)?;
    if mode == "TOLERANCE" {
        let get = |k: &str| f.iter().find(|(key, _)| *key == k).and_then(|(_, v)| m::float(v)).unwrap_or(0.0);
        Some(format!(
            "{{tolerance={{atol={},rtol={},ulps={}}}}}",
            get("atol"),
            get("rtol"),
            m::field_int(&f, "ulps").unwrap_or(0)
        ))
    } else {
        Some(format!("{{mode={}}}", mode.to_ascii_lowercase()))
    }
}
