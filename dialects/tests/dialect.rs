//! rxla's dialects as a downstream Rust crate uses them: registration into
//! its own context, typed builders generated from the ODS, verification, the
//! checked-in reference docs, and the test coverage of every op.

use melior::{
    dialect::{func, DialectRegistry},
    ir::{
        attribute::{StringAttribute, TypeAttribute},
        block::BlockLike,
        operation::OperationLike,
        r#type::{FunctionType, RankedTensorType},
        Attribute, Block, Location, Module, Region, RegionLike, Type,
    },
    utility::register_all_dialects,
    Context,
};
use rxla_dialects::{hlo, xla, xla_gpu};
use std::path::Path;

fn downstream_context() -> Context {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    rxla_dialects::register_hlo_dialect(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    context
}

#[test]
fn a_downstream_context_parses_and_verifies_hlo() {
    let context = downstream_context();
    let module = Module::parse(
        &context,
        "func.func @f(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {\n\
           %0 = hlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>\n\
           return %0 : tensor<3x2xf32>\n\
         }",
    )
    .expect("valid hlo parses");
    assert!(module.as_operation().verify());
}

#[test]
fn typed_builders_build_verified_ops() {
    let context = rxla_dialects::create_context();
    let location = Location::unknown(&context);
    let f32 = Type::float32(&context);
    let tensor: Type = RankedTensorType::new(&[4], f32, None).into();
    let module = Module::new(location);

    let block = Block::new(&[(tensor, location), (tensor, location)]);
    let sum: melior::ir::Value = block
        .append_operation(
            hlo::add(&context, block.argument(0).unwrap().into(), block.argument(1).unwrap().into(), location).into(),
        )
        .result(0)
        .unwrap()
        .into();
    let negated = block.append_operation(hlo::negate(&context, sum, location).into()).result(0).unwrap();
    block.append_operation(func::r#return(&[negated.into()], location));
    let region = Region::new();
    region.append_block(block);
    module.body().append_operation(func::func(
        &context,
        StringAttribute::new(&context, "f"),
        TypeAttribute::new(FunctionType::new(&context, &[tensor, tensor], &[tensor]).into()),
        region,
        &[],
        location,
    ));

    assert!(module.as_operation().verify());
    let text = module.as_operation().to_string();
    assert!(text.contains("hlo.add %arg0, %arg1 : tensor<4xf32>"), "{text}");
    assert!(text.contains("hlo.negate %0 : tensor<4xf32>"), "{text}");
}

#[test]
fn structured_attributes_parse_and_print() {
    let context = rxla_dialects::create_context();
    let dot = Attribute::parse(
        &context,
        "#hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>",
    )
    .expect("dot dimension numbers parse");
    assert_eq!(
        dot.to_string(),
        "#hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>"
    );
    let groups = Attribute::parse(&context, "#hlo.groups<[[0, 1], [2, 3]]>").unwrap();
    assert_eq!(groups.to_string(), "#hlo.groups<[[0, 1], [2, 3]]>");
    assert!(Attribute::parse(&context, "#hlo.window<size = [0]>").is_none(), "size 0 is rejected");
}

#[test]
fn side_effect_queries_follow_the_ods() {
    let context = rxla_dialects::create_context();
    let module = Module::parse(
        &context,
        "func.func @f(%a: tensor<f32>) {\n\
           %0 = hlo.negate %a : tensor<f32>\n\
           %1 = hlo.rng rng_uniform %a, %a : (tensor<f32>, tensor<f32>) -> tensor<f32>\n\
           return\n\
         }",
    )
    .unwrap();
    let func = module.body().first_operation().unwrap();
    let body = func.region(0).unwrap().first_block().unwrap();
    let negate = body.first_operation().unwrap();
    let rng = negate.next_in_block().unwrap();
    assert!(rxla_dialects::is_trivially_dead(&negate));
    assert!(rxla_dialects::is_memory_effect_free(&negate));
    assert!(!rxla_dialects::is_trivially_dead(&rng));
}

#[test]
fn a_downstream_context_parses_and_verifies_the_emitter_dialects() {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    rxla_dialects::register_rxla_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    let module = Module::parse(
        &context,
        "func.func @f(%t: tensor<8xf32>, %tid: index) -> tensor<8xf32> {\n\
           %shmem = xla_gpu.allocate_shared : tensor<8xf32>\n\
           %r = xla.loop (%tid)[%i] -> (%ra) in #xla.indexing_map<\"(d0)[s0] -> (d0 * 2 + s0), domain: d0 in [0, 3], s0 in [0, 1]\">\n\
               iter_args(%iter = %shmem) -> (tensor<8xf32>) {\n\
             %x = tensor.extract %t[%ra] : tensor<8xf32>\n\
             %n = tensor.insert %x into %iter[%ra] : tensor<8xf32>\n\
             xla.yield %n : tensor<8xf32>\n\
           }\n\
           %s = xla_gpu.sync_threads %r : tensor<8xf32>\n\
           return %s : tensor<8xf32>\n\
         }",
    )
    .expect("valid emitter IR parses");
    assert!(module.as_operation().verify());
}

#[test]
fn emitter_typed_builders_build_verified_ops() {
    let context = rxla_dialects::create_context();
    let location = Location::unknown(&context);
    let index = Type::index(&context);
    let tile: Type = RankedTensorType::new(&[4], Type::float32(&context), None).into();
    let module = Module::new(location);

    let block = Block::new(&[]);
    let dimension = Attribute::parse(&context, "#xla<workgroup_dim y>").unwrap();
    let workgroup: melior::ir::Value = block
        .append_operation(xla::workgroup_id(&context, index, dimension, location).into())
        .result(0)
        .unwrap()
        .into();
    let map =
        Attribute::parse(&context, "#xla.indexing_map<\"(d0) -> (d0 floordiv 4, d0 mod 4), domain: d0 in [0, 15]\">")
            .unwrap();
    let applied =
        block.append_operation(xla::apply_indexing(&context, &[index, index], &[workgroup], map, location).into());
    let shmem: melior::ir::Value =
        block.append_operation(xla_gpu::allocate_shared(&context, tile, location).into()).result(0).unwrap().into();
    let synced = block.append_operation(xla_gpu::sync_threads(&context, &[tile], &[shmem], location).into());
    block.append_operation(func::r#return(
        &[applied.result(1).unwrap().into(), synced.result(0).unwrap().into()],
        location,
    ));
    let region = Region::new();
    region.append_block(block);
    module.body().append_operation(func::func(
        &context,
        StringAttribute::new(&context, "f"),
        TypeAttribute::new(FunctionType::new(&context, &[], &[index, tile]).into()),
        region,
        &[],
        location,
    ));

    assert!(module.as_operation().verify());
    let text = module.as_operation().to_string();
    assert!(text.contains("%workgroup_id_y = xla.workgroup_id  y"), "{text}");
    assert!(text.contains("xla.apply_indexing #indexing_map(%workgroup_id_y)"), "{text}");
    assert!(text.contains("%shmem = xla_gpu.allocate_shared : tensor<4xf32>"), "{text}");
    assert!(text.contains("%synced_tensor = xla_gpu.sync_threads %shmem : tensor<4xf32>"), "{text}");

    // The same builders produce ops the verifier rejects when they disagree
    // with the map: two dimension operands for a one-dimensional map.
    let bad = Block::new(&[(index, location)]);
    let arg: melior::ir::Value = bad.argument(0).unwrap().into();
    let op = bad.append_operation(xla::apply_indexing(&context, &[index, index], &[arg, arg], map, location).into());
    assert!(!op.verify());
}

#[test]
fn indexing_maps_parse_print_and_are_checked() {
    let context = rxla_dialects::create_context();
    let map = Attribute::parse(
        &context,
        "#xla.indexing_map<\"(d0)[s0]{rt0} -> (d0 + s0,\\n   rt0),\" \" domain: d0 in [0, 3], s0 in [0, 1], rt0 in [-2, 2]\">",
    )
    .expect("a map in several strings parses");
    assert_eq!(
        map.to_string(),
        "#xla.indexing_map<\"(d0)[s0]{rt0} -> (d0 + s0, rt0), domain: d0 in [0, 3], s0 in [0, 1], rt0 in [-2, 2]\">"
    );
    for invalid in [
        "#xla.indexing_map<\"(d0) -> (d1)\">",
        "#xla.indexing_map<\"(d0, d1) -> (d0), domain: d1 in [0, 1], d0 in [0, 1]\">",
        "#xla.indexing_map<\"(d0) -> (d0), domain: d0 in [0, 1], d0 + 1 in [0\">",
        "#xla.indexing_map<\"\">",
    ] {
        assert!(Attribute::parse(&context, invalid).is_none(), "{invalid} is rejected");
    }
}

#[test]
fn indexing_map_text_goes_in_and_out_of_attributes() {
    let context = rxla_dialects::create_context();
    let map = rxla_dialects::indexing_map_attribute(
        &context,
        "(d0)[s0] -> (d0 + s0),\n    domain: d0 in [0, 9], s0 in [0, 3]",
    )
    .expect("a well-formed map");
    assert_eq!(
        rxla_dialects::indexing_map_text(map),
        Some("(d0)[s0] -> (d0 + s0), domain: d0 in [0, 9], s0 in [0, 3]")
    );
    assert_eq!(map, Attribute::parse(&context, &map.to_string()).unwrap(), "prints and parses back");
    assert!(rxla_dialects::indexing_map_attribute(&context, "(d0) -> (s0)").is_none());
    let not_a_map = Attribute::parse(&context, "\"(d0) -> (d0)\"").unwrap();
    assert_eq!(rxla_dialects::indexing_map_text(not_a_map), None);
}

/// docs/reference/<dialect>.md must be what mlir-tblgen generates from the
/// current ODS. Regenerate with `RXLA_UPDATE_DOCS=1 cargo test -p rxla-dialects`.
#[test]
fn reference_docs_are_current() {
    let docs = [
        ("hlo-dialect.md", "dialects/hlo", rxla_dialects::HLO_REFERENCE_DOC),
        ("xla-dialect.md", "dialects/xla", rxla_dialects::XLA_REFERENCE_DOC),
        ("xla-gpu-dialect.md", "dialects/xla_gpu", rxla_dialects::XLA_GPU_REFERENCE_DOC),
    ];
    let mut stale = Vec::new();
    for (file, source, doc) in docs {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/reference").join(file);
        let generated = format!(
            "<!-- Generated by mlir-tblgen -gen-dialect-doc from {source}; do not edit.\n     \
             Regenerate: RXLA_UPDATE_DOCS=1 cargo test -p rxla-dialects --test dialect -->\n\n{doc}"
        );
        if std::env::var_os("RXLA_UPDATE_DOCS").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &generated).unwrap();
        }
        if std::fs::read_to_string(&path).unwrap_or_default() != generated {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "{} stale; run RXLA_UPDATE_DOCS=1 cargo test -p rxla-dialects --test dialect",
        stale.join(", ")
    );
}

/// The mnemonics of the ops a dialect's ODS file declares: the
/// `def <Prefix>_X : <Prefix>_<Class><"mnemonic"...` records.
fn declared_ops(td: &str, prefix: &str) -> Vec<String> {
    let td = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(td)).unwrap();
    let def = format!("def {prefix}_");
    let class = format!(" : {prefix}_");
    td.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix(def.as_str())?;
            let (_, rest) = rest.split_once(class.as_str())?;
            let start = rest.find("<\"")? + 2;
            let end = start + rest[start..].find('"')?;
            Some(rest[start..end].to_string())
        })
        .collect()
}

fn hlo_ops() -> Vec<String> {
    declared_ops("hlo/include/rxla/Dialect/Hlo/IR/HloOps.td", "Hlo")
}

/// The text of the `.mlir` files of `test/Dialect/<dir>` whose names start
/// with `prefix`.
fn test_files(dir: &str, prefix: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../test/Dialect").join(dir);
    let mut text = String::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with(prefix) && name.ends_with(".mlir") {
            text += &std::fs::read_to_string(&path).unwrap();
        }
    }
    text
}

fn mentions(text: &str, dialect: &str, op: &str) -> bool {
    let needle = format!("{dialect}.{op}");
    text.match_indices(&needle)
        .any(|(i, _)| !text[i + needle.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
}

/// The ops of `dialect` that lack a round-trip test (`ops*.mlir`) or an
/// invalid-IR test (`invalid*.mlir`) in test/Dialect/<dir>.
fn coverage_gaps(dialect: &str, dir: &str, ops: &[String]) -> Vec<String> {
    let round_trip = test_files(dir, "ops");
    let invalid = test_files(dir, "invalid");
    let mut missing = Vec::new();
    for op in ops {
        if !mentions(&round_trip, dialect, op) {
            missing.push(format!("{dialect}.{op}: no round-trip test"));
        }
        if !mentions(&invalid, dialect, op) {
            missing.push(format!("{dialect}.{op}: no invalid-IR test"));
        }
    }
    missing
}

/// Every op has a round-trip test (test/Dialect/hlo/ops_*.mlir) and an
/// invalid-IR test (test/Dialect/hlo/invalid_*.mlir).
#[test]
fn every_op_has_round_trip_and_invalid_tests() {
    let ops = hlo_ops();
    assert!(ops.len() >= 135, "parsed only {} ops from HloOps.td", ops.len());
    let missing = coverage_gaps("hlo", "hlo", &ops);
    assert!(missing.is_empty(), "{} gaps:\n{}", missing.len(), missing.join("\n"));
}

/// Every op of the emitter dialects has a round-trip test
/// (test/Dialect/<dialect>/ops.mlir) and an invalid-IR test (invalid.mlir).
#[test]
fn every_emitter_op_has_round_trip_and_invalid_tests() {
    let xla_ops = declared_ops("xla/include/rxla/Dialect/Xla/IR/XlaOps.td", "Xla");
    let gpu_ops = declared_ops("xla_gpu/include/rxla/Dialect/XlaGpu/IR/XlaGpuOps.td", "XlaGpu");
    assert_eq!(xla_ops.len(), 8, "ops parsed from XlaOps.td: {xla_ops:?}");
    assert_eq!(gpu_ops.len(), 3, "ops parsed from XlaGpuOps.td: {gpu_ops:?}");
    let mut missing = coverage_gaps("xla", "xla", &xla_ops);
    missing.extend(coverage_gaps("xla_gpu", "xla_gpu", &gpu_ops));
    assert!(missing.is_empty(), "{} gaps:\n{}", missing.len(), missing.join("\n"));
}

/// docs/op-coverage.md maps every XLA opcode to its hlo op; the table and
/// the ODS must agree.
#[test]
fn op_coverage_table_matches_the_dialect() {
    let table = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/op-coverage.md")).unwrap();
    let ops = hlo_ops();
    let mut mapped = Vec::new();
    for line in table.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let hlo = cells[2].trim_matches('`');
        if let Some(op) = hlo.strip_prefix("hlo.") {
            assert!(ops.iter().any(|o| o == op), "docs/op-coverage.md names hlo.{op}, which is not in HloOps.td");
            mapped.push(op.to_string());
        }
    }
    for op in &ops {
        assert!(mapped.contains(op), "hlo.{op} is missing from docs/op-coverage.md");
    }
}
