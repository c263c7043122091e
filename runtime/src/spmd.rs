//! Running a program with shardings on several partitions: partition it
//! (`sharding-propagation`, `spmd-partitioner`, `all-reduce-combiner`), split each global
//! argument into the block every partition holds, and put the global
//! results together from the partitions' blocks.
//!
//! Arguments and results stay global (logical) arrays for the caller, as
//! in JAX: the entry parameters' `hlo.sharding` says how each argument is
//! split, the partitioned entry's result attributes how each result is.
//! A module whose entry is already per-partition (XLA names it `*_spmd`)
//! or that states no tiled sharding is not partitioned: every device then
//! runs it on the same arguments.

use melior::ir::{operation::OperationLike, Module};
use mlir_sys::{mlirAttributeIsADictionary, mlirDictionaryAttrGetElementByName, MlirAttribute};
use rxla_hlo_text::attrs::{LeafKind, LeafSharding, Sharding};
use rxla_interpreter::literal::{element_count, for_each_index, strides, Data, Literal};
use rxla_ir::{computation, op::Op, types::HloType};
use rxla_passes::all_reduce_combiner::AllReduceCombiner;
use rxla_passes::spmd::{partitioner, propagation, Placement, SPMD_SUFFIX};

/// A module partitioned for some number of partitions.
#[derive(Clone, Debug)]
pub struct Partitioned {
    /// The per-partition program, as HLO text.
    pub hlo_text: String,
    /// How each entry parameter is split, with its global type.
    pub params: Vec<(Placement, HloType)>,
    /// How the entry's result is split (a tuple placement for a tuple).
    pub result: (Placement, HloType),
    pub partitions: usize,
}

/// Partitions `source` (HLO text, or MLIR for `is_mlir`) for `partitions`
/// partitions; `None` if it needs no partitioning (see the module docs).
pub fn partition_source(
    source: &str,
    file: &str,
    is_mlir: bool,
    partitions: usize,
) -> Result<Option<Partitioned>, String> {
    let context = rxla_dialects::create_context();
    context.enable_multi_threading(false);
    let module = if is_mlir {
        Module::parse(&context, source).ok_or_else(|| format!("{file}: the module does not parse"))?
    } else {
        rxla_translate::import_hlo_text(&context, source, file).map_err(|e| format!("{file}: {e}"))?
    };
    let root = Op::of(&module.as_operation());
    let entry = computation::entry(root).ok_or_else(|| format!("{file}: the module has no entry computation"))?;
    if partitions <= 1 || computation::name(entry).ends_with(SPMD_SUFFIX) || !states_tiles(entry) {
        return Ok(None);
    }
    let mut params = Vec::new();
    for (i, arg) in entry.arguments().into_iter().enumerate() {
        let ty = arg.ty();
        let stated = propagation::stated(arg.attr("hlo.sharding"), &ty, partitions, &format!("parameter {i}"))
            .map_err(|e| format!("{file}: {}", e.0))?;
        params.push((stated.unwrap_or_else(|| Placement::replicated(&ty, partitions)), ty));
    }
    let result_types: Vec<HloType> = entry.return_values().iter().map(|v| v.ty()).collect();
    // The partitioner reports at the instruction; its diagnostics join the error.
    crate::driver::with_diagnostics(&context, || {
        partitioner::partition(root, entry, partitions).map_err(|e| crate::CompileError(e.0))?;
        AllReduceCombiner::default().run_on_module(root).map_err(|e| crate::CompileError(e.0))
    })
    .map_err(|e| format!("{file}: SPMD partitioning: {e}"))?;
    if !module.as_operation().verify() {
        return Err(format!("{file}: the partitioned module does not verify"));
    }
    let entry = computation::entry(root).ok_or_else(|| format!("{file}: the partitioned module has no entry"))?;
    let mut results = Vec::new();
    for (i, ty) in result_types.iter().enumerate() {
        let place = propagation::stated(result_attr(entry, i), ty, partitions, &format!("result {i}"))
            .map_err(|e| format!("{file}: {}", e.0))?
            .unwrap_or_else(|| Placement::replicated(ty, partitions));
        results.push((place, ty.clone()));
    }
    let result = match results.len() {
        1 => results.pop().expect("one"),
        _ => (
            Placement::Tuple(results.iter().map(|r| r.0.clone()).collect()),
            HloType::Tuple(results.into_iter().map(|r| r.1).collect()),
        ),
    };
    let hlo_text = rxla_translate::export_hlo_text(&module)
        .map_err(|e| format!("{file}: exporting the partitioned module: {e}"))?;
    Ok(Some(Partitioned { hlo_text, params, result, partitions }))
}

/// True if some parameter or instruction of `entry` is split in blocks.
fn states_tiles(entry: Op) -> bool {
    let tiled_leaf = |l: &LeafSharding| matches!(l.kind, LeafKind::Tiled(_));
    let tiled = |attr: Option<MlirAttribute>| match attr.and_then(rxla_translate::sharding::from_attr) {
        Some(Sharding::Leaf(leaf)) => tiled_leaf(&leaf),
        Some(Sharding::Tuple(leaves)) => leaves.iter().any(tiled_leaf),
        None => false,
    };
    entry.arguments().into_iter().any(|a| tiled(a.attr("hlo.sharding")))
        || entry.body_ops().into_iter().any(|op| tiled(op.attr_raw("hlo.sharding")))
}

/// The `hlo.sharding` result attribute `i` of `func`.
fn result_attr(func: Op, i: usize) -> Option<MlirAttribute> {
    let dict = *rxla_ir::attrs::array_elements(func.attr_raw("res_attrs")?)?.get(i)?;
    // SAFETY: live attributes, only queried.
    unsafe {
        if !mlirAttributeIsADictionary(dict) {
            return None;
        }
        let attr = mlirDictionaryAttrGetElementByName(dict, rxla_ir::op::string_ref("hlo.sharding"));
        (!attr.ptr.is_null()).then_some(attr)
    }
}

impl Partitioned {
    /// Every device's arguments (device `d` plays partition `d %
    /// partitions`), from the global ones.
    pub fn split_arguments(&self, global: &[Literal], devices: usize) -> Result<Vec<Vec<Literal>>, String> {
        if global.len() != self.params.len() {
            return Err(format!("{} arguments for {} parameters", global.len(), self.params.len()));
        }
        (0..devices)
            .map(|d| {
                global
                    .iter()
                    .zip(&self.params)
                    .map(|(l, (place, ty))| block_of(l, place, ty, d % self.partitions))
                    .collect()
            })
            .collect()
    }

    /// The global result from the first `partitions` devices' results.
    pub fn gather_result(&self, per_device: &[Literal]) -> Result<Literal, String> {
        if per_device.len() < self.partitions {
            return Err(format!("{} results for {} partitions", per_device.len(), self.partitions));
        }
        whole_of(&per_device[..self.partitions], &self.result.0, &self.result.1)
    }
}

/// Partition `p`'s block of `global`.
fn block_of(global: &Literal, place: &Placement, ty: &HloType, p: usize) -> Result<Literal, String> {
    match (global, place, ty) {
        (Literal::Array { dims, data }, Placement::Array(tiles), _) => {
            let local = tiles.local_dims(dims);
            let starts: Vec<i64> = (0..dims.len()).map(|d| tiles.offsets(dims, d)[p]).collect();
            let from = strides(dims);
            let mut out = Data::zeros(data.element_type(), element_count(&local));
            let mut i = 0;
            for_each_index(&local, |index| {
                let at: Vec<i64> = index.iter().zip(&starts).map(|(x, s)| x + s).collect();
                if at.iter().zip(dims).all(|(x, n)| x < n) {
                    let flat: i64 = at.iter().zip(&from).map(|(x, s)| x * s).sum();
                    out.set_from(i, data, flat as usize);
                }
                i += 1;
            });
            Ok(Literal::Array { dims: local, data: out })
        }
        (Literal::Tuple(items), Placement::Tuple(places), HloType::Tuple(types)) if items.len() == places.len() => {
            Ok(Literal::Tuple(
                items
                    .iter()
                    .zip(places)
                    .zip(types)
                    .map(|((l, pl), t)| block_of(l, pl, t, p))
                    .collect::<Result<_, _>>()?,
            ))
        }
        (l, Placement::Whole, _) => Ok(l.clone()),
        (_, Placement::Manual, _) => Err("an entry value with a manual sharding (a region partitioned by hand)".into()),
        (Literal::Array { .. }, Placement::Tuple(_), _) | (Literal::Tuple(_), _, _) | (Literal::Token, _, _) => {
            Ok(global.clone())
        }
    }
}

/// The global value of type `ty` from each partition's block.
fn whole_of(blocks: &[Literal], place: &Placement, ty: &HloType) -> Result<Literal, String> {
    match (place, ty) {
        (Placement::Array(tiles), HloType::Tensor(t)) => {
            let dims = t.dims.clone();
            let first = blocks[0].data().ok_or("a tuple where an array was expected")?;
            let mut out = Data::zeros(first.element_type(), element_count(&dims));
            let to = strides(&dims);
            let local = tiles.local_dims(&dims);
            let mut seen = std::collections::HashSet::new();
            for (p, block) in blocks.iter().enumerate() {
                // One partition per block is enough; the others are replicas.
                if !seen.insert(tiles.coords[p].clone()) {
                    continue;
                }
                let data = block.data().ok_or("a tuple where an array was expected")?;
                if block.dims() != local.as_slice() {
                    return Err(format!("partition {p} returned {:?} where its block is {:?}", block.dims(), local));
                }
                let starts: Vec<i64> = (0..dims.len()).map(|d| tiles.offsets(&dims, d)[p]).collect();
                let mut i = 0;
                for_each_index(&local, |index| {
                    let at: Vec<i64> = index.iter().zip(&starts).map(|(x, s)| x + s).collect();
                    if at.iter().zip(&dims).all(|(x, n)| x < n) {
                        let flat: i64 = at.iter().zip(&to).map(|(x, s)| x * s).sum();
                        out.set_from(flat as usize, data, i);
                    }
                    i += 1;
                });
            }
            Ok(Literal::Array { dims, data: out })
        }
        (Placement::Tuple(places), HloType::Tuple(types)) => {
            let mut items = Vec::new();
            for (i, (pl, t)) in places.iter().zip(types).enumerate() {
                let parts: Vec<Literal> = blocks
                    .iter()
                    .map(|b| b.tuple_elements().and_then(|e| e.get(i)).cloned().ok_or("a result is not a tuple"))
                    .collect::<Result<_, _>>()?;
                items.push(whole_of(&parts, pl, t)?);
            }
            Ok(Literal::Tuple(items))
        }
        _ => Ok(blocks[0].clone()),
    }
}
