//! Opcode by opcode: which `hlo` op an HLO instruction becomes and how its
//! attributes are written.

use super::{Context, ImportError, Result, Value};
use crate::{
    literal::float_literal,
    types::{mlir_type, quote},
};
use rxla_hlo_text::{
    ast::{AttrValue, Instruction, Shape},
    attrs,
};

/// Reads an instruction's attributes by keyword and, at the end, rejects
/// any that no rule consumed (as XLA's parser does).
pub struct Attrs<'a> {
    inst: &'a Instruction,
    used: Vec<bool>,
}

impl<'a> Attrs<'a> {
    pub fn new(inst: &'a Instruction) -> Self {
        Self { inst, used: vec![false; inst.attributes.len()] }
    }

    /// The value of `key`, marking it consumed.
    pub fn take(&mut self, key: &str) -> Option<&'a AttrValue> {
        let index = self.inst.attributes.iter().position(|a| a.name == key)?;
        self.used[index] = true;
        Some(&self.inst.attributes[index].value)
    }

    /// The value of a required `key`.
    pub fn require(&mut self, key: &str) -> Result<&'a AttrValue> {
        self.take(key).ok_or_else(|| {
            ImportError::new(self.inst.pos, format!("'{}' needs the attribute '{key}'", self.inst.opcode))
        })
    }

    /// Fails on the first attribute nothing consumed.
    pub fn finish(&self) -> Result<()> {
        match self.inst.attributes.iter().zip(&self.used).find(|(_, used)| !**used) {
            Some((attribute, _)) => Err(ImportError::new(
                attribute.pos,
                format!("unknown attribute '{}' for opcode '{}'", attribute.name, self.inst.opcode),
            )),
            None => Ok(()),
        }
    }
}

/// How the op's results relate to the instruction's shape.
pub enum Results {
    /// One result with the instruction's shape.
    Single,
    /// One result per element of the instruction's tuple shape.
    Unpacked(Vec<String>),
}

/// The op an instruction becomes.
pub struct OpSpec {
    pub op: String,
    /// Inherent attributes, `name = value` in MLIR syntax.
    pub inherent: Vec<String>,
    pub results: Results,
}

fn err(value: &AttrValue, e: rxla_hlo_text::ParseError) -> ImportError {
    let _ = value;
    parse_error(e)
}

/// An attribute reader's error, at its position in the HLO text.
pub(crate) fn parse_error(e: rxla_hlo_text::ParseError) -> ImportError {
    let at = if e.token.is_empty() { String::new() } else { format!(" (at '{}')", e.token) };
    ImportError::new(e.pos, format!("{}{at}", e.message))
}

fn dense_i64(values: &[i64]) -> String {
    if values.is_empty() {
        "array<i64>".into()
    } else {
        format!("array<i64: {}>", values.iter().map(i64::to_string).collect::<Vec<_>>().join(", "))
    }
}

fn list(values: &[i64]) -> String {
    format!("[{}]", values.iter().map(i64::to_string).collect::<Vec<_>>().join(", "))
}

fn dims(value: &AttrValue) -> Result<Vec<i64>> {
    attrs::dims(value).map_err(|e| err(value, e))
}

fn int(value: &AttrValue) -> Result<i64> {
    attrs::integer(value).map_err(|e| err(value, e))
}

fn boolean(value: &AttrValue) -> Result<bool> {
    attrs::boolean(value).map_err(|e| err(value, e))
}

fn word(value: &AttrValue) -> Result<String> {
    attrs::enum_word(value).map_err(|e| err(value, e))
}

fn string(value: &AttrValue) -> Result<String> {
    attrs::string(value).map_err(|e| err(value, e))
}

/// One dimension given as `dimensions={d}`.
fn single_dim(value: &AttrValue) -> Result<i64> {
    match dims(value)?.as_slice() {
        [d] => Ok(*d),
        other => Err(ImportError::new(value.pos, format!("expected one dimension, got {}", other.len()))),
    }
}

/// An enum attribute after checking the word is one of `cases`.
fn enum_attr(value: &AttrValue, mnemonic: &str, cases: &[&str]) -> Result<String> {
    let w = word(value)?;
    if cases.contains(&w.as_str()) {
        Ok(format!("#hlo<{mnemonic} {w}>"))
    } else {
        Err(ImportError::new(value.pos, format!("'{w}' is not one of {}", cases.join(", "))))
    }
}

fn tuple_elements(inst: &Instruction) -> Result<Vec<String>> {
    match &inst.shape {
        Shape::Tuple(elements) => {
            elements.iter().map(|e| mlir_type(e).map_err(|m| ImportError::new(inst.pos, m.0))).collect()
        }
        _ => Err(ImportError::new(inst.pos, format!("'{}' must have a tuple shape", inst.opcode))),
    }
}

/// Several results when the shape is a tuple (variadic ops), else one.
fn variadic_results(inst: &Instruction) -> Result<Results> {
    Ok(match &inst.shape {
        Shape::Tuple(_) => Results::Unpacked(tuple_elements(inst)?),
        _ => Results::Single,
    })
}

fn precision_config(value: &AttrValue) -> Result<String> {
    let words = attrs::precision_list(value).map_err(|e| err(value, e))?;
    let cases: Vec<String> = words
        .iter()
        .map(|w| match w {
            attrs::Precision::Default => Ok("#hlo<precision DEFAULT>".to_string()),
            attrs::Precision::High => Ok("#hlo<precision HIGH>".to_string()),
            attrs::Precision::Highest => Ok("#hlo<precision HIGHEST>".to_string()),
            attrs::Precision::PackedNibble => {
                Err(ImportError::new(value.pos, "operand precision packed_nibble is not supported"))
            }
        })
        .collect::<Result<_>>()?;
    Ok(format!("[{}]", cases.join(", ")))
}

fn window_attr(value: &AttrValue) -> Result<String> {
    let d = attrs::window(value).map_err(|e| err(value, e))?;
    let field = |name: &str, values: Vec<i64>, default: i64| -> Option<String> {
        (values.iter().any(|&v| v != default)).then(|| format!("{name} = {}", list(&values)))
    };
    if d.is_empty() {
        return Ok("#hlo.window<>".into());
    }
    let mut fields = vec![format!("size = {}", list(&d.iter().map(|w| w.size).collect::<Vec<_>>()))];
    fields.extend(field("stride", d.iter().map(|w| w.stride).collect(), 1));
    fields.extend(field("pad_low", d.iter().map(|w| w.padding_low).collect(), 0));
    fields.extend(field("pad_high", d.iter().map(|w| w.padding_high).collect(), 0));
    fields.extend(field("lhs_dilation", d.iter().map(|w| w.lhs_dilate).collect(), 1));
    fields.extend(field("rhs_dilation", d.iter().map(|w| w.rhs_dilate).collect(), 1));
    fields.extend(field("reversal", d.iter().map(|w| w.rhs_reversal as i64).collect(), 0));
    Ok(format!("#hlo.window<{}>", fields.join(", ")))
}

fn replica_groups(value: &AttrValue) -> Result<String> {
    match attrs::replica_groups(value).map_err(|e| err(value, e))? {
        attrs::ReplicaGroups::List(groups) => Ok(groups_attr(&groups)),
        attrs::ReplicaGroups::Iota(iota) => {
            let mut fields = vec![
                format!("group_shape = {}", list(&[iota.num_groups, iota.group_size])),
                format!("reshape_dims = {}", list(&iota.reshape_dims)),
            ];
            let identity = iota.transpose_perm.iter().enumerate().all(|(i, &p)| p == i as i64);
            if !identity {
                fields.push(format!("transpose = {}", list(&iota.transpose_perm)));
            }
            Ok(format!("#hlo.iota_groups<{}>", fields.join(", ")))
        }
    }
}

fn groups_attr(groups: &[Vec<i64>]) -> String {
    format!("#hlo.groups<[{}]>", groups.iter().map(|g| list(g)).collect::<Vec<_>>().join(", "))
}

/// Attributes shared by the collectives.
fn collective_attrs(a: &mut Attrs, inherent: &mut Vec<String>) -> Result<()> {
    if let Some(v) = a.take("replica_groups") {
        inherent.push(format!("replica_groups = {}", replica_groups(v)?));
    }
    if let Some(v) = a.take("channel_id") {
        inherent.push(format!("channel_id = {} : i64", int(v)?));
    }
    if let Some(v) = a.take("use_global_device_ids") {
        inherent.push(format!("use_global_device_ids = {}", boolean(v)?));
    }
    Ok(())
}

fn callee(context: &Context, value: &AttrValue) -> Result<String> {
    let name = attrs::computation(value).map_err(|e| err(value, e))?;
    context.callee(&name, value.pos)
}

/// Maps `inst` to an op; `a` gives access to its attributes.
pub fn lower(context: &Context, inst: &Instruction, a: &mut Attrs, operands: &[Value]) -> Result<OpSpec> {
    let mut inherent: Vec<String> = Vec::new();
    let mut results = Results::Single;
    let opcode = inst.opcode.as_str();
    let simple = |name: &str| format!("hlo.{}", name.replace('-', "_"));
    let op = match opcode {
        // Elementwise without attributes.
        "abs"
        | "ceil"
        | "count-leading-zeros"
        | "floor"
        | "imag"
        | "is-finite"
        | "negate"
        | "not"
        | "popcnt"
        | "real"
        | "round-nearest-afz"
        | "round-nearest-even"
        | "sign"
        | "copy"
        | "convert"
        | "bitcast-convert"
        | "bitcast"
        | "reshape"
        | "dynamic-reshape"
        | "add"
        | "subtract"
        | "multiply"
        | "divide"
        | "remainder"
        | "maximum"
        | "minimum"
        | "power"
        | "atan2"
        | "and"
        | "or"
        | "xor"
        | "shift-left"
        | "shift-right-arithmetic"
        | "shift-right-logical"
        | "mulhi"
        | "complex"
        | "select"
        | "clamp"
        | "stochastic-convert"
        | "tuple"
        | "opt-barrier"
        | "after-all"
        | "add-dependency"
        | "replica-id"
        | "partition-id"
        | "dynamic-update-slice"
        | "copy-done"
        | "all-reduce-done"
        | "all-gather-done"
        | "collective-permute-done" => simple(opcode),
        "acos"
        | "acosh"
        | "asin"
        | "asinh"
        | "atan"
        | "atanh"
        | "cbrt"
        | "cosine"
        | "cosh"
        | "erf"
        | "exponential"
        | "exponential-minus-one"
        | "log"
        | "log-plus-one"
        | "logistic"
        | "rsqrt"
        | "sine"
        | "sinh"
        | "sqrt"
        | "tan"
        | "tanh" => {
            if let Some(v) = a.take("result_accuracy") {
                let ra = attrs::result_accuracy(v).map_err(|e| err(v, e))?;
                inherent.push(format!("result_accuracy = {}", result_accuracy_attr(&ra)));
            }
            simple(opcode)
        }
        "compare" => {
            let direction = a.require("direction")?;
            inherent.push(format!(
                "comparison_direction = {}",
                enum_attr(direction, "comparison_direction", &["EQ", "NE", "GE", "GT", "LE", "LT"])?
            ));
            if let Some(t) = a.take("type") {
                inherent.push(format!(
                    "compare_type = {}",
                    enum_attr(t, "comparison_type", &["FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"])?
                ));
            }
            simple(opcode)
        }
        "reduce-precision" => {
            inherent.push(format!("exponent_bits = {} : i32", int(a.require("exponent_bits")?)?));
            inherent.push(format!("mantissa_bits = {} : i32", int(a.require("mantissa_bits")?)?));
            simple(opcode)
        }
        "broadcast" | "transpose" | "reverse" => {
            inherent.push(format!("dimensions = {}", dense_i64(&dims(a.require("dimensions")?)?)));
            simple(opcode)
        }
        "concatenate" => {
            inherent.push(format!("dimension = {} : i64", single_dim(a.require("dimensions")?)?));
            simple(opcode)
        }
        "slice" => {
            let v = a.require("slice")?;
            let slice = attrs::slice(v).map_err(|e| err(v, e))?;
            inherent.push(format!("start_indices = {}", dense_i64(&slice.iter().map(|s| s.start).collect::<Vec<_>>())));
            inherent.push(format!("limit_indices = {}", dense_i64(&slice.iter().map(|s| s.limit).collect::<Vec<_>>())));
            inherent.push(format!("strides = {}", dense_i64(&slice.iter().map(|s| s.stride).collect::<Vec<_>>())));
            simple(opcode)
        }
        "dynamic-slice" => {
            inherent.push(format!("slice_sizes = {}", dense_i64(&dims(a.require("dynamic_slice_sizes")?)?)));
            simple(opcode)
        }
        "pad" => {
            let v = a.require("padding")?;
            let padding = attrs::padding(v).map_err(|e| err(v, e))?;
            inherent
                .push(format!("edge_padding_low = {}", dense_i64(&padding.iter().map(|p| p.low).collect::<Vec<_>>())));
            inherent.push(format!(
                "edge_padding_high = {}",
                dense_i64(&padding.iter().map(|p| p.high).collect::<Vec<_>>())
            ));
            inherent.push(format!(
                "interior_padding = {}",
                dense_i64(&padding.iter().map(|p| p.interior).collect::<Vec<_>>())
            ));
            simple(opcode)
        }
        "iota" => {
            inherent.push(format!("iota_dimension = {} : i64", int(a.require("iota_dimension")?)?));
            simple(opcode)
        }
        "get-dimension-size" | "set-dimension-size" => {
            inherent.push(format!("dimension = {} : i64", single_dim(a.require("dimensions")?)?));
            simple(opcode)
        }
        "gather" => {
            let mut fields = Vec::new();
            for (hlo, mlir) in [
                ("offset_dims", "offset_dims"),
                ("collapsed_slice_dims", "collapsed_slice_dims"),
                ("operand_batching_dims", "operand_batching_dims"),
                ("start_indices_batching_dims", "start_indices_batching_dims"),
                ("start_index_map", "start_index_map"),
            ] {
                if let Some(v) = a.take(hlo) {
                    let d = dims(v)?;
                    if !d.is_empty() {
                        fields.push(format!("{mlir} = {}", list(&d)));
                    }
                }
            }
            fields.push(format!("index_vector_dim = {}", int(a.require("index_vector_dim")?)?));
            inherent.push(format!("dimension_numbers = #hlo.gather<{}>", fields.join(", ")));
            inherent.push(format!("slice_sizes = {}", dense_i64(&dims(a.require("slice_sizes")?)?)));
            if let Some(v) = a.take("indices_are_sorted") {
                inherent.push(format!("indices_are_sorted = {}", boolean(v)?));
            }
            simple(opcode)
        }
        "scatter" => {
            let mut fields = Vec::new();
            for name in [
                "update_window_dims",
                "inserted_window_dims",
                "input_batching_dims",
                "scatter_indices_batching_dims",
                "scatter_dims_to_operand_dims",
            ] {
                if let Some(v) = a.take(name) {
                    let d = dims(v)?;
                    if !d.is_empty() {
                        fields.push(format!("{name} = {}", list(&d)));
                    }
                }
            }
            fields.push(format!("index_vector_dim = {}", int(a.require("index_vector_dim")?)?));
            inherent.push(format!("dimension_numbers = #hlo.scatter<{}>", fields.join(", ")));
            inherent.push(format!("to_apply = {}", callee(context, a.require("to_apply")?)?));
            for flag in ["indices_are_sorted", "unique_indices"] {
                if let Some(v) = a.take(flag) {
                    inherent.push(format!("{flag} = {}", boolean(v)?));
                }
            }
            results = variadic_results(inst)?;
            simple(opcode)
        }
        "reduce" => {
            inherent.push(format!("dimensions = {}", dense_i64(&dims(a.require("dimensions")?)?)));
            inherent.push(format!("to_apply = {}", callee(context, a.require("to_apply")?)?));
            results = variadic_results(inst)?;
            simple(opcode)
        }
        "reduce-window" => {
            inherent.push(format!("window = {}", window_attr(a.require("window")?)?));
            inherent.push(format!("to_apply = {}", callee(context, a.require("to_apply")?)?));
            results = variadic_results(inst)?;
            simple(opcode)
        }
        "select-and-scatter" => {
            inherent.push(format!("window = {}", window_attr(a.require("window")?)?));
            inherent.push(format!("select = {}", callee(context, a.require("select")?)?));
            inherent.push(format!("scatter = {}", callee(context, a.require("scatter")?)?));
            simple(opcode)
        }
        "map" => {
            let d = match a.take("dimensions") {
                Some(v) => dims(v)?,
                None => match &inst.shape {
                    Shape::Array { dims, .. } => (0..dims.len() as i64).collect(),
                    _ => Vec::new(),
                },
            };
            inherent.push(format!("dimensions = {}", dense_i64(&d)));
            inherent.push(format!("to_apply = {}", callee(context, a.require("to_apply")?)?));
            simple(opcode)
        }
        "sort" => {
            inherent.push(format!("dimension = {} : i64", single_dim(a.require("dimensions")?)?));
            if let Some(v) = a.take("is_stable") {
                inherent.push(format!("is_stable = {}", boolean(v)?));
            }
            inherent.push(format!("to_apply = {}", callee(context, a.require("to_apply")?)?));
            results = variadic_results(inst)?;
            simple(opcode)
        }
        "topk" => {
            inherent.push(format!("k = {} : i64", int(a.require("k")?)?));
            if let Some(v) = a.take("largest") {
                inherent.push(format!("largest = {}", boolean(v)?));
            }
            results = Results::Unpacked(tuple_elements(inst)?);
            simple(opcode)
        }
        "scan" => {
            // XLA prints `dimensions={d}, num_carries=k, is_reverse=..,
            // is_associative=.., to_apply=..`; num_carries (the trailing
            // operands that are inits) is always printed, so it is required.
            inherent.push(format!("scan_dimension = {} : i64", single_dim(a.require("dimensions")?)?));
            let k = int(a.require("num_carries")?)?;
            inherent.push(format!("num_carries = {k} : i64"));
            inherent.push(format!("to_apply = {}", callee(context, a.require("to_apply")?)?));
            if let Some(v) = a.take("is_reverse") {
                inherent.push(format!("is_reverse = {}", boolean(v)?));
            }
            if let Some(v) = a.take("is_associative") {
                inherent.push(format!("is_associative = {}", boolean(v)?));
            }
            results = variadic_results(inst)?;
            simple(opcode)
        }
        "shuffle" => {
            inherent.push(format!("dimensions = {}", dense_i64(&dims(a.require("dimensions")?)?)));
            inherent.push(format!("mode = {}", enum_attr(a.require("mode")?, "shuffle_mode", &["rotate"])?));
            inherent.push(format!("shifts = {}", dense_i64(&dims(a.require("shifts")?)?)));
            simple(opcode)
        }
        "ragged-dot" | "scaled-dot" => {
            let mut fields = Vec::new();
            for name in ["lhs_batch_dims", "rhs_batch_dims", "lhs_contracting_dims", "rhs_contracting_dims"] {
                if let Some(v) = a.take(name) {
                    let d = dims(v)?;
                    if !d.is_empty() {
                        fields.push(format!("{name} = {}", list(&d)));
                    }
                }
            }
            inherent.push(format!("dot_dimension_numbers = #hlo.dot<{}>", fields.join(", ")));
            if opcode == "ragged-dot" {
                inherent.push(format!("lhs_ragged_dimensions = {}", dense_i64(&dims(a.require("lhs_ragged_dims")?)?)));
                let groups = match a.take("rhs_group_dims") {
                    Some(v) => dims(v)?,
                    None => Vec::new(),
                };
                inherent.push(format!("rhs_group_dimensions = {}", dense_i64(&groups)));
            }
            if let Some(v) = a.take("operand_precision") {
                inherent.push(format!("precision_config = {}", precision_config(v)?));
            }
            simple(opcode)
        }
        "dot" => {
            let mut fields = Vec::new();
            for name in ["lhs_batch_dims", "rhs_batch_dims", "lhs_contracting_dims", "rhs_contracting_dims"] {
                if let Some(v) = a.take(name) {
                    let d = dims(v)?;
                    if !d.is_empty() {
                        fields.push(format!("{name} = {}", list(&d)));
                    }
                }
            }
            inherent.push(format!("dot_dimension_numbers = #hlo.dot<{}>", fields.join(", ")));
            if let Some(v) = a.take("operand_precision") {
                inherent.push(format!("precision_config = {}", precision_config(v)?));
            }
            if let Some(v) = a.take("algorithm") {
                inherent.push(format!("algorithm = {}", quote(&word(v)?)));
            }
            simple(opcode)
        }
        "convolution" => {
            inherent.push(format!(
                "window = {}",
                match a.take("window") {
                    Some(v) => window_attr(v)?,
                    None => "#hlo.window<>".into(),
                }
            ));
            let v = a.require("dim_labels")?;
            let c = attrs::conv_dim_labels(v).map_err(|e| err(v, e))?;
            inherent.push(format!(
                "dimension_numbers = #hlo.conv<input_batch_dim = {}, input_feature_dim = {}, input_spatial_dims = {}, kernel_input_feature_dim = {}, kernel_output_feature_dim = {}, kernel_spatial_dims = {}, output_batch_dim = {}, output_feature_dim = {}, output_spatial_dims = {}>",
                c.input_batch, c.input_feature, list(&c.input_spatial),
                c.kernel_input_feature, c.kernel_output_feature, list(&c.kernel_spatial),
                c.output_batch, c.output_feature, list(&c.output_spatial)
            ));
            for name in ["feature_group_count", "batch_group_count"] {
                if let Some(v) = a.take(name) {
                    inherent.push(format!("{name} = {} : i64", int(v)?));
                }
            }
            if let Some(v) = a.take("operand_precision") {
                inherent.push(format!("precision_config = {}", precision_config(v)?));
            }
            simple(opcode)
        }
        "fft" => {
            inherent.push(format!(
                "fft_type = {}",
                enum_attr(a.require("fft_type")?, "fft_type", &["FFT", "IFFT", "RFFT", "IRFFT"])?
            ));
            inherent.push(format!("fft_length = {}", dense_i64(&dims(a.require("fft_length")?)?)));
            simple(opcode)
        }
        "cholesky" => {
            if let Some(v) = a.take("lower") {
                inherent.push(format!("lower = {}", boolean(v)?));
            }
            simple(opcode)
        }
        "triangular-solve" => {
            for flag in ["left_side", "lower", "unit_diagonal"] {
                let value = match a.take(flag) {
                    Some(v) => boolean(v)?,
                    None => false,
                };
                inherent.push(format!("{flag} = {value}"));
            }
            let transpose = match a.take("transpose_a") {
                Some(v) => enum_attr(v, "transpose", &["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"])?,
                None => "#hlo<transpose NO_TRANSPOSE>".into(),
            };
            inherent.push(format!("transpose_a = {transpose}"));
            simple(opcode)
        }
        "batch-norm-training" | "batch-norm-inference" | "batch-norm-grad" => {
            let v = a.require("epsilon")?;
            let epsilon = attrs::float(v).map_err(|e| err(v, e))?;
            inherent.push(format!("epsilon = {} : f32", float_literal(epsilon)));
            inherent.push(format!("feature_index = {} : i64", int(a.require("feature_index")?)?));
            if opcode != "batch-norm-inference" {
                results = Results::Unpacked(tuple_elements(inst)?);
            }
            simple(opcode)
        }
        "rng" => {
            inherent.push(format!(
                "distribution = {}",
                enum_attr(a.require("distribution")?, "rng_distribution", &["rng_uniform", "rng_normal"])?
            ));
            simple(opcode)
        }
        "rng-bit-generator" => {
            inherent.push(format!(
                "algorithm = {}",
                enum_attr(a.require("algorithm")?, "rng_algorithm", &["rng_default", "rng_three_fry", "rng_philox"])?
            ));
            results = Results::Unpacked(tuple_elements(inst)?);
            simple(opcode)
        }
        "rng-get-and-update-state" => {
            inherent.push(format!("delta = {} : i64", int(a.require("delta")?)?));
            simple(opcode)
        }
        "get-tuple-element" => {
            inherent.push(format!("index = {} : i64", int(a.require("index")?)?));
            simple(opcode)
        }
        "call" => {
            inherent.push(format!("to_apply = {}", callee(context, a.require("to_apply")?)?));
            if let Some(v) = a.take("is_composite") {
                inherent.push(format!("is_composite = {}", boolean(v)?));
            }
            simple(opcode)
        }
        "while" => {
            inherent.push(format!("condition = {}", callee(context, a.require("condition")?)?));
            inherent.push(format!("body = {}", callee(context, a.require("body")?)?));
            simple(opcode)
        }
        "conditional" => {
            let branches = if let Some(v) = a.take("branch_computations") {
                let names = attrs::computation_list(v).map_err(|e| err(v, e))?;
                names.iter().map(|n| context.callee(n, v.pos)).collect::<Result<Vec<_>>>()?
            } else {
                vec![
                    callee(context, a.require("true_computation")?)?,
                    callee(context, a.require("false_computation")?)?,
                ]
            };
            inherent.push(format!("branch_computations = [{}]", branches.join(", ")));
            simple(opcode)
        }
        "fusion" => {
            inherent.push(format!(
                "kind = {}",
                enum_attr(a.require("kind")?, "fusion_kind", &["kLoop", "kInput", "kOutput", "kCustom"])?
            ));
            inherent.push(format!("calls = {}", callee(context, a.require("calls")?)?));
            simple(opcode)
        }
        "custom-call" => {
            inherent.push(format!("custom_call_target = {}", quote(&string(a.require("custom_call_target")?)?)));
            if let Some(v) = a.take("backend_config") {
                // Either a quoted string or raw `{...}` JSON/proto text.
                let text = if v.text.starts_with('"') { string(v)? } else { v.text.clone() };
                inherent.push(format!("backend_config = {}", quote(&text)));
            }
            if let Some(v) = a.take("api_version") {
                inherent.push(format!(
                    "api_version = {}",
                    enum_attr(
                        v,
                        "api_version",
                        &[
                            "API_VERSION_UNSPECIFIED",
                            "API_VERSION_ORIGINAL",
                            "API_VERSION_STATUS_RETURNING",
                            "API_VERSION_STATUS_RETURNING_UNIFIED",
                            "API_VERSION_TYPED_FFI",
                        ]
                    )?
                ));
            }
            if let Some(v) = a.take("custom_call_has_side_effect") {
                inherent.push(format!("has_side_effect = {}", boolean(v)?));
            }
            if let Some(v) = a.take("called_computations") {
                let names = attrs::computation_list(v).map_err(|e| err(v, e))?;
                let refs = names.iter().map(|n| context.callee(n, v.pos)).collect::<Result<Vec<_>>>()?;
                inherent.push(format!("called_computations = [{}]", refs.join(", ")));
            }
            if let Some(v) = a.take("operand_layout_constraints") {
                let shapes = attrs::shape_list(v).map_err(|e| err(v, e))?;
                let layouts = shapes
                    .iter()
                    .map(|shape| match shape {
                        Shape::Array { dims, layout, .. } => Ok(crate::types::layout_attr(
                            &layout.clone().unwrap_or_else(|| crate::types::default_layout(dims.len())),
                        )),
                        _ => Err(ImportError::new(v.pos, "operand layout constraints on tuples are not supported")),
                    })
                    .collect::<Result<Vec<_>>>()?;
                inherent.push(format!("operand_layout_constraints = [{}]", layouts.join(", ")));
            }
            if let Some(v) = a.take("output_to_operand_aliasing") {
                let aliases = attrs::output_to_operand_aliasing(v).map_err(|e| err(v, e))?;
                let items: Vec<String> = aliases
                    .iter()
                    .map(|al| {
                        let mut f = Vec::new();
                        if !al.output_index.is_empty() {
                            f.push(format!("output_tuple_indices = {}", list(&al.output_index)));
                        }
                        f.push(format!("operand_index = {}", al.operand));
                        if !al.operand_index.is_empty() {
                            f.push(format!("operand_tuple_indices = {}", list(&al.operand_index)));
                        }
                        format!("#hlo.output_operand_alias<{}>", f.join(", "))
                    })
                    .collect();
                inherent.push(format!("output_to_operand_aliasing = [{}]", items.join(", ")));
            }
            simple(opcode)
        }
        "domain" => {
            let v = a.require("domain")?;
            inherent.push(format!("domain_kind = {}", quote(&v.text)));
            simple(opcode)
        }
        "async-start" => {
            inherent.push(format!("calls = {}", callee(context, a.require("calls")?)?));
            if let Some(v) = a.take("async_execution_thread") {
                inherent.push(format!("async_execution_thread = {}", quote(&string(v)?)));
            }
            simple(opcode)
        }
        "async-update" | "async-done" => {
            if let Some(v) = a.take("calls") {
                inherent.push(format!("calls = {}", callee(context, v)?));
            }
            let _ = a.take("async_execution_thread");
            simple(opcode)
        }
        "copy-start" => {
            if let Some(v) = a.take("cross_program_prefetch_index") {
                inherent.push(format!("cross_program_prefetch_index = {} : i64", int(v)?));
            }
            simple(opcode)
        }
        "all-reduce" | "all-reduce-start" | "collective-reduce" => {
            inherent.push(format!("to_apply = {}", callee(context, a.require("to_apply")?)?));
            collective_attrs(a, &mut inherent)?;
            if opcode != "all-reduce-start" {
                results = variadic_results(inst)?;
            }
            simple(opcode)
        }
        "all-gather" | "all-gather-start" => {
            inherent.push(format!("all_gather_dimension = {} : i64", single_dim(a.require("dimensions")?)?));
            collective_attrs(a, &mut inherent)?;
            if opcode == "all-gather" {
                results = variadic_results(inst)?;
            }
            simple(opcode)
        }
        "all-to-all" => {
            if let Some(v) = a.take("dimensions") {
                inherent.push(format!("dimensions = {}", dense_i64(&dims(v)?)));
            }
            collective_attrs(a, &mut inherent)?;
            results = variadic_results(inst)?;
            simple(opcode)
        }
        "ragged-all-to-all" => {
            collective_attrs(a, &mut inherent)?;
            simple(opcode)
        }
        "reduce-scatter" => {
            inherent.push(format!("scatter_dimension = {} : i64", single_dim(a.require("dimensions")?)?));
            inherent.push(format!("to_apply = {}", callee(context, a.require("to_apply")?)?));
            collective_attrs(a, &mut inherent)?;
            results = variadic_results(inst)?;
            simple(opcode)
        }
        "collective-broadcast" => {
            collective_attrs(a, &mut inherent)?;
            results = variadic_results(inst)?;
            simple(opcode)
        }
        "collective-permute" | "collective-permute-start" => {
            let v = a.require("source_target_pairs")?;
            let pairs = attrs::source_target_pairs(v).map_err(|e| err(v, e))?;
            let pairs: Vec<Vec<i64>> = pairs.iter().map(|&(s, t)| vec![s, t]).collect();
            inherent.push(format!("source_target_pairs = {}", groups_attr(&pairs)));
            if let Some(v) = a.take("channel_id") {
                inherent.push(format!("channel_id = {} : i64", int(v)?));
            }
            if opcode == "collective-permute" && operands.len() > 1 {
                results = variadic_results(inst)?;
            }
            simple(opcode)
        }
        "send" | "send-done" | "recv" | "recv-done" => {
            inherent.push(format!("channel_id = {} : i64", int(a.require("channel_id")?)?));
            if let Some(v) = a.take("is_host_transfer") {
                inherent.push(format!("is_host_transfer = {}", boolean(v)?));
            }
            simple(opcode)
        }
        "infeed" => {
            if let Some(v) = a.take("infeed_config") {
                inherent.push(format!("infeed_config = {}", quote(&string(v)?)));
            }
            simple(opcode)
        }
        "outfeed" => {
            if let Some(v) = a.take("outfeed_config") {
                inherent.push(format!("outfeed_config = {}", quote(&string(v)?)));
            }
            // The outfeed shape is the operand's shape; nothing to keep.
            let _ = a.take("outfeed_shape");
            simple(opcode)
        }
        "parameter" | "constant" => unreachable!("handled by the caller"),
        other => {
            return Err(ImportError::new(
                inst.pos,
                format!("opcode '{other}' is not supported by the importer (unknown to rxla's hlo dialect)"),
            ))
        }
    };
    Ok(OpSpec { op, inherent, results })
}

fn result_accuracy_attr(ra: &attrs::ResultAccuracy) -> String {
    match ra {
        attrs::ResultAccuracy::Mode(mode) => {
            format!("#hlo.result_accuracy<mode = #hlo<result_accuracy_mode {}>>", mode.to_ascii_uppercase())
        }
        attrs::ResultAccuracy::Tolerance { atol, rtol, ulps } => format!(
            "#hlo.result_accuracy<mode = #hlo<result_accuracy_mode TOLERANCE>, atol = {} : f64, rtol = {} : f64, ulps = {}>",
            float_literal(*atol),
            float_literal(*rtol),
            *ulps as i64
        ),
    }
}
