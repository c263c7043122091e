//! Regions partitioned by hand (`shard_map`): the edges between global
//! values and a region's per-partition ones, GSPMD's and Shardy's.

use super::*;

impl Partitioner<'_> {
    /// The edges of a region partitioned by hand (`shard_map`): GSPMD's
    /// `SPMDFullToShardShape` (a value's block becomes the region's own)
    /// and `SPMDShardToFullShape` (the region's value becomes the block of
    /// the call's sharding), and Shardy's `xla.sdy.GlobalToLocalShape` /
    /// `xla.sdy.LocalToGlobalShape` (the same for several values, with the
    /// shardings in `xla.sdy.in_shardings` / `xla.sdy.out_shardings`).
    /// The edge is removed; its result maps to the block itself.
    pub(super) fn manual_edge(
        &mut self,
        op: Op,
        target: &str,
        operands: &[Local],
        targets: &[Placement],
    ) -> Result<()> {
        let b = Builder::before(op);
        let check = |global: &TensorType, tiles: &Tiles, local: Value| -> Result<()> {
            let block = tiles.local_dims(&global.dims);
            let have = Builder::tensor(local)?.dims;
            if block != have {
                return Err(PassError(format!(
                    "custom-call '{target}': the region's shape {have:?} is not the block {block:?} of {:?} under its \
                     sharding",
                    global.dims
                )));
            }
            Ok(())
        };
        match target {
            "SPMDFullToShardShape" => {
                if operands[0].place == Placement::Manual {
                    return Err(PassError(format!("custom-call '{target}' of a value already inside a manual region")));
                }
                // The region's shape is the block along the manual axes; a
                // split along automatic axes (partially manual) is undone:
                // inside, values are whole along those.
                let global = self.global_tensor(op.operand(0))?;
                let region = self.global_tensor(op.result(0))?;
                let tiles = self.tiles_of(&operands[0])?;
                let block = tiles.local_dims(&global.dims);
                let auto: Vec<usize> = (0..global.rank()).filter(|&d| block[d] < region.dims[d]).collect();
                let tiles = tiles.without(&auto);
                let v = self.reshard(&b, &operands[0], op.operand(0), &Placement::Array(tiles.clone()))?;
                if tiles.local_dims(&global.dims) != region.dims {
                    return Err(PassError(format!(
                        "custom-call '{target}': the region's shape {:?} is not a block of {:?} under the operand's \
                         sharding",
                        region.dims, global.dims
                    )));
                }
                self.locals.insert(op.result(0), Local { value: v, place: Placement::Manual });
            }
            "SPMDShardToFullShape" => {
                let want = targets.first().and_then(Placement::tiles).cloned();
                let (Some(tiles), Placement::Manual) = (want, &operands[0].place) else {
                    return Err(PassError(format!("custom-call '{target}' of a value outside a manual region")));
                };
                check(&self.global_tensor(op.result(0))?, &tiles, operands[0].value)?;
                self.locals.insert(op.result(0), Local { value: operands[0].value, place: Placement::Array(tiles) });
            }
            "xla.sdy.GlobalToLocalShape" => {
                let shardings = self.shardy(op, "xla.sdy.in_shardings", operands.len())?;
                let mut blocks = Vec::new();
                for (i, (l, s)) in operands.iter().zip(&shardings).enumerate() {
                    let global = self.global_tensor(op.operand(i))?;
                    let tiles = Tiles::from_sharding(s, global.rank(), self.n).map_err(PassError)?;
                    let v = self.reshard(&b, l, op.operand(i), &Placement::Array(tiles.clone()))?;
                    check(&global, &tiles, v)?;
                    blocks.push(v);
                }
                let v = if op.result_type(0).tensor().is_some() { blocks[0] } else { b.tuple(&blocks)? };
                self.locals.insert(op.result(0), Local { value: v, place: Placement::Manual });
            }
            "xla.sdy.LocalToGlobalShape" => {
                let shardings = self.shardy(op, "xla.sdy.out_shardings", operands.len())?;
                let globals: Vec<TensorType> = match self.global_ty(op.result(0)) {
                    HloType::Tuple(items) => items.iter().filter_map(|t| t.tensor().cloned()).collect(),
                    HloType::Tensor(t) => vec![t],
                    other => return Err(PassError(format!("custom-call '{target}' of type {other}"))),
                };
                let mut places = Vec::new();
                for ((l, s), global) in operands.iter().zip(&shardings).zip(&globals) {
                    let tiles = Tiles::from_sharding(s, global.rank(), self.n).map_err(PassError)?;
                    if l.place != Placement::Manual {
                        return Err(PassError(format!("custom-call '{target}' of a value outside a manual region")));
                    }
                    check(global, &tiles, l.value)?;
                    places.push(Placement::Array(tiles));
                }
                let local = if op.result_type(0).tensor().is_some() {
                    Local { value: operands[0].value, place: places.remove(0) }
                } else {
                    let values: Vec<Value> = operands.iter().map(|l| l.value).collect();
                    Local { value: b.tuple(&values)?, place: Placement::Tuple(places) }
                };
                self.locals.insert(op.result(0), local);
            }
            _ => {
                return Err(PassError(format!(
                    "custom-call '{target}' marks a region partitioned by hand, which the SPMD partitioner does not \
                     support in this form"
                )))
            }
        }
        Ok(())
    }

    /// The `count` shardings Shardy states in `op`'s frontend attribute
    /// `key`.
    pub(super) fn shardy(&self, op: Op, key: &str, count: usize) -> Result<Vec<rxla_hlo_text::attrs::LeafSharding>> {
        let module_attributes = module_attribute(self.module, "frontend_attributes").unwrap_or_default();
        let op_attributes = op.string_attr("hlo.frontend_attributes").unwrap_or_default();
        let shardings = sharding_attr::shardy_value_shardings(&module_attributes, &op_attributes, key)
            .map_err(PassError)?
            .ok_or_else(|| PassError(format!("custom-call without {key}")))?;
        if shardings.len() != count {
            return Err(PassError(format!("{key} has {} shardings for {count} values", shardings.len())));
        }
        Ok(shardings)
    }
}
