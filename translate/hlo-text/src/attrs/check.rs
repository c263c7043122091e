//! Which reader applies to which attribute keyword, and a whole-module check
//! that runs them all: every known keyword's value must read, computation
//! references must name computations of the module, and
//! `control-predecessors` must name instructions of the same computation.

use std::collections::HashSet;

use super::*;
use crate::ast::{Attribute, Module};

/// What [`check_module`] saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Attributes whose value a reader accepted.
    pub checked: usize,
    /// Keywords no reader is known for (values carried through unread).
    pub unknown: Vec<String>,
}

/// The readers, by what they return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reader {
    Int,
    Float,
    Bool,
    BoolList,
    Str,
    Word(&'static [&'static str]),
    Dims,
    IntLists,
    Computation,
    ComputationList,
    InstructionNames,
    Shape,
    ShapeList,
    Slice,
    Padding,
    Window,
    DimLabels,
    ReplicaGroups,
    SourceTargetPairs,
    Precision,
    FrontendAttributes,
    Metadata,
    BackendConfig,
    Sharding,
    OutputOperandAliasing,
    InputOutputAlias,
    BufferDonor,
    EntryLayout,
    ResultAccuracy,
    /// Values no reader interprets (`origin`, `statistics`, `domain`,
    /// `literal`): only bracket balance, which the parser already checked.
    Opaque,
}

const ANY: &[&str] = &[];
const DIRECTIONS: &[&str] = &["EQ", "NE", "GE", "GT", "LE", "LT"];
const COMPARISON_TYPES: &[&str] = &["FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"];
const FUSION_KINDS: &[&str] = &["kLoop", "kInput", "kOutput", "kCustom"];
const FFT_TYPES: &[&str] = &["FFT", "IFFT", "RFFT", "IRFFT"];
const TRANSPOSE: &[&str] = &["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"];
const DISTRIBUTIONS: &[&str] = &["rng_uniform", "rng_normal"];

/// The reader for `keyword` on an instruction with `opcode`.
fn instruction_reader(opcode: &str, keyword: &str) -> Option<Reader> {
    use Reader::*;
    Some(match keyword {
        "index"
        | "iota_dimension"
        | "index_vector_dim"
        | "feature_group_count"
        | "batch_group_count"
        | "exponent_bits"
        | "mantissa_bits"
        | "k"
        | "channel_id"
        | "delta"
        | "feature_index"
        | "cross_program_prefetch_index"
        | "inferred_dimension" => Int,
        "epsilon" => Float,
        "is_stable"
        | "indices_are_sorted"
        | "unique_indices"
        | "largest"
        | "constrain_layout"
        | "use_global_device_ids"
        | "is_host_transfer"
        | "custom_call_has_side_effect"
        | "is_composite"
        | "left_side"
        | "lower"
        | "unit_diagonal"
        | "is_reverse"
        | "is_associative" => Bool,
        "parameter_replication" => BoolList,
        "custom_call_target" | "infeed_config" | "outfeed_config" | "async_execution_thread" => Str,
        "direction" => Word(DIRECTIONS),
        "type" => Word(COMPARISON_TYPES),
        "kind" => Word(FUSION_KINDS),
        "fft_type" => Word(FFT_TYPES),
        "transpose_a" => Word(TRANSPOSE),
        "distribution" => Word(DISTRIBUTIONS),
        "algorithm" | "padding_type" | "schedule" | "api_version" | "conv_kind" | "mode" => Word(ANY),
        "slice_sizes" if opcode.starts_with("collective-permute") => IntLists,
        "dimensions"
        | "slice_sizes"
        | "dynamic_slice_sizes"
        | "fft_length"
        | "lhs_contracting_dims"
        | "rhs_contracting_dims"
        | "lhs_batch_dims"
        | "rhs_batch_dims"
        | "lhs_ragged_dims"
        | "rhs_group_dims"
        | "offset_dims"
        | "collapsed_slice_dims"
        | "start_index_map"
        | "operand_batching_dims"
        | "start_indices_batching_dims"
        | "update_window_dims"
        | "inserted_window_dims"
        | "scatter_dims_to_operand_dims"
        | "input_batching_dims"
        | "scatter_indices_batching_dims" => Dims,
        "to_apply" | "calls" | "condition" | "body" | "select" | "scatter" | "true_computation"
        | "false_computation" => Computation,
        "branch_computations" | "called_computations" => ComputationList,
        "control-predecessors" => InstructionNames,
        "outfeed_shape" => Shape,
        "operand_layout_constraints" => ShapeList,
        "slice" => Slice,
        "padding" => Padding,
        "window" => Window,
        "dim_labels" => DimLabels,
        "replica_groups" => ReplicaGroups,
        "source_target_pairs" => SourceTargetPairs,
        "operand_precision" | "precision_config" => Precision,
        "frontend_attributes" => FrontendAttributes,
        "metadata" => Metadata,
        "backend_config" => BackendConfig,
        "sharding" => Sharding,
        "output_to_operand_aliasing" => OutputOperandAliasing,
        "result_accuracy" => ResultAccuracy,
        "origin" | "statistics" | "domain" | "literal" => Opaque,
        _ => return None,
    })
}

fn module_reader(keyword: &str) -> Option<Reader> {
    use Reader::*;
    Some(match keyword {
        "is_scheduled" | "alias_passthrough_params" => Bool,
        "replica_count" | "num_partitions" => Int,
        "allow_spmd_sharding_propagation_to_parameters" | "allow_spmd_sharding_propagation_to_output" => BoolList,
        "input_output_alias" => InputOutputAlias,
        "buffer_donor" => BufferDonor,
        "entry_computation_layout" => EntryLayout,
        "frontend_attributes" => FrontendAttributes,
        "origin_recovery_table" => Opaque,
        _ => return None,
    })
}

fn computation_reader(keyword: &str) -> Option<Reader> {
    (keyword == "execution_thread").then_some(Reader::Str)
}

/// Names an attribute refers to, for the reference checks.
enum Refs {
    None,
    Computations(Vec<String>),
    Instructions(Vec<String>),
}

fn run(reader: Reader, v: &AttrValue) -> Result<Refs> {
    use Reader as R;
    let none = |r: Result<()>| r.map(|_| Refs::None);
    match reader {
        R::Int => none(integer(v).map(drop)),
        R::Float => none(float(v).map(drop)),
        R::Bool => none(boolean(v).map(drop)),
        R::BoolList => none(bool_list(v).map(drop)),
        R::Str => none(string(v).map(drop)),
        R::Word(allowed) => {
            let word = enum_word(v)?;
            if !allowed.is_empty() && !allowed.contains(&word.as_str()) {
                return Err(ParseError::new(v.pos, format!("expects one of {}", allowed.join(", ")), &word));
            }
            Ok(Refs::None)
        }
        R::Dims => none(dims(v).map(drop)),
        R::IntLists => none(int_lists(v).map(drop)),
        R::Computation => computation(v).map(|c| Refs::Computations(vec![c])),
        R::ComputationList => computation_list(v).map(Refs::Computations),
        R::InstructionNames => instruction_names(v).map(Refs::Instructions),
        R::Shape => none(shape(v).map(drop)),
        R::ShapeList => none(shape_list(v).map(drop)),
        R::Slice => none(slice(v).map(drop)),
        R::Padding => none(padding(v).map(drop)),
        R::Window => none(window(v).map(drop)),
        R::DimLabels => none(conv_dim_labels(v).map(drop)),
        R::ReplicaGroups => none(replica_groups(v).map(drop)),
        R::SourceTargetPairs => none(source_target_pairs(v).map(drop)),
        R::Precision => none(precision_list(v).map(drop)),
        R::FrontendAttributes => none(frontend_attributes(v).map(drop)),
        R::Metadata => none(metadata(v).map(drop)),
        R::BackendConfig => none(backend_config(v).map(drop)),
        R::Sharding => none(sharding(v).map(drop)),
        R::OutputOperandAliasing => none(output_to_operand_aliasing(v).map(drop)),
        R::InputOutputAlias => none(input_output_alias(v).map(drop)),
        R::BufferDonor => none(buffer_donor(v).map(drop)),
        R::EntryLayout => none(entry_computation_layout(v).map(drop)),
        R::ResultAccuracy => none(result_accuracy(v).map(drop)),
        R::Opaque => Ok(Refs::None),
    }
}

/// Runs the applicable reader on every attribute of the module and checks
/// the names they refer to; stops at the first error.
pub fn check_module<'m>(m: &'m Module) -> Result<CheckReport> {
    let computations: HashSet<&str> = m.computations.iter().map(|c| c.name.as_str()).collect();
    let mut report = CheckReport::default();
    let mut unknown: HashSet<&str> = HashSet::new();
    let mut check = |attr: &'m Attribute, reader: Option<Reader>, instructions: Option<&HashSet<&str>>| -> Result<()> {
        let Some(reader) = reader else {
            if unknown.insert(&attr.name) {
                report.unknown.push(attr.name.clone());
            }
            return Ok(());
        };
        report.checked += 1;
        let (names, known, what) = match run(reader, &attr.value)? {
            Refs::None => return Ok(()),
            Refs::Computations(names) => (names, Some(&computations), "computation"),
            Refs::Instructions(names) => (names, instructions, "instruction"),
        };
        if let Some(missing) = names.iter().find(|n| !known.is_some_and(|k| k.contains(n.as_str()))) {
            return Err(ParseError::new(attr.value.pos, format!("no {what} is named '{missing}'"), &attr.value.text));
        }
        Ok(())
    };
    for a in &m.attributes {
        check(a, module_reader(&a.name), None)?;
    }
    for c in &m.computations {
        let instructions: HashSet<&str> = c.instructions.iter().map(|i| i.name.as_str()).collect();
        for a in &c.attributes {
            check(a, computation_reader(&a.name), None)?;
        }
        for i in &c.instructions {
            for a in &i.attributes {
                check(a, instruction_reader(&i.opcode, &a.name), Some(&instructions))?;
            }
        }
    }
    Ok(report)
}
