//! Indexing of fused computations (XLA's `ComputeGroupedOutputToInputIndexing`).
//!
//! A [`Fusion`] is a small graph of [`OpDesc`] nodes in topological order
//! (operands before users) with a root. Walking from the root towards the
//! parameters, each node's output-to-input maps are composed with the maps
//! that reach the node, simplified, and deduplicated per node.

use crate::error::{Error, Result};
use crate::expr::{Expr, Var};
use crate::map::IndexingMap;
use crate::ops::{compose_operand_indexing, output_to_input_indexing, OpDesc, OperandIndexing};

/// A node of a fused computation: an op and the nodes it reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FusionNode {
    pub name: String,
    pub op: OpDesc,
    /// Node ids of the operands, in operand order; each must be smaller than
    /// this node's id.
    pub operands: Vec<usize>,
}

/// A fused computation: nodes in topological order and the root node id.
/// Parameters are nodes with opcode `"parameter"` and a
/// `parameter_number`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fusion {
    pub nodes: Vec<FusionNode>,
    pub root: usize,
}

impl Fusion {
    pub fn new() -> Fusion {
        Fusion::default()
    }

    /// Appends a node and returns its id (the last node added is the root
    /// until [`Fusion::set_root`] says otherwise).
    pub fn add(&mut self, name: &str, op: OpDesc, operands: &[usize]) -> usize {
        self.nodes.push(FusionNode { name: name.to_string(), op, operands: operands.to_vec() });
        self.root = self.nodes.len() - 1;
        self.root
    }

    /// Appends parameter `number` of the given shape.
    pub fn parameter(&mut self, name: &str, number: usize, shape: Vec<i64>) -> usize {
        let mut op = OpDesc::new("parameter", Vec::new(), shape);
        op.attrs.parameter_number = Some(number);
        self.add(name, op, &[])
    }

    pub fn set_root(&mut self, root: usize) {
        self.root = root;
    }

    /// The node id of each parameter, indexed by parameter number.
    pub fn parameters(&self) -> Result<Vec<usize>> {
        let mut params: Vec<Option<usize>> = Vec::new();
        for (id, n) in self.nodes.iter().enumerate() {
            if n.op.opcode != "parameter" {
                continue;
            }
            let Some(k) = n.op.attrs.parameter_number else {
                return Err(Error::InvalidOp(format!("parameter `{}` has no parameter_number", n.name)));
            };
            if params.len() <= k {
                params.resize(k + 1, None);
            }
            if params[k].is_some() {
                return Err(Error::InvalidOp(format!("parameter number {k} is used twice")));
            }
            params[k] = Some(id);
        }
        params
            .into_iter()
            .enumerate()
            .map(|(k, p)| p.ok_or_else(|| Error::InvalidOp(format!("parameter number {k} is missing"))))
            .collect()
    }

    /// Checks ids, operand counts and that each operand's shape is the
    /// producing node's result shape.
    pub fn validate(&self) -> Result<()> {
        if self.root >= self.nodes.len() {
            return Err(Error::InvalidOp(format!("root {} is not a node", self.root)));
        }
        for (id, n) in self.nodes.iter().enumerate() {
            if n.operands.len() != n.op.operand_shapes.len() {
                return Err(Error::InvalidOp(format!(
                    "node `{}` has {} operand nodes but {} operand shapes",
                    n.name,
                    n.operands.len(),
                    n.op.operand_shapes.len()
                )));
            }
            for (k, &o) in n.operands.iter().enumerate() {
                if o >= id {
                    return Err(Error::InvalidOp(format!(
                        "node `{}` reads node {o}, which does not come before it",
                        n.name
                    )));
                }
                let producer = &self.nodes[o];
                if producer.op.result_shapes.len() != 1 || producer.op.result_shapes[0] != n.op.operand_shapes[k] {
                    return Err(Error::InvalidOp(format!(
                        "operand {k} of `{}` has shape {:?} but `{}` produces {:?}",
                        n.name, n.op.operand_shapes[k], producer.name, producer.op.result_shapes
                    )));
                }
            }
        }
        self.parameters()?;
        Ok(())
    }
}

/// Replaces runtime variables whose value is known inside the fusion: an
/// offset read from an integer `constant` with a known literal, or from an
/// `iota` (XLA's `OptimizeRTVar`). `node` is the op the indexing belongs to.
fn fold_runtime_vars(fusion: &Fusion, node: usize, oi: &mut OperandIndexing) {
    let num_range = oi.map.num_range_vars();
    let mut replaced = false;
    for k in 0..oi.rt_vars.len() {
        let rt = &oi.rt_vars[k];
        let Some(&source) = fusion.nodes[node].operands.get(rt.operand) else {
            continue;
        };
        let src = &fusion.nodes[source].op;
        let Some(bounds) = oi.map.rt_vars().get(k).map(|v| v.bounds) else {
            continue;
        };
        let value: Option<Expr> = match src.opcode.as_str() {
            "constant" => {
                let (Some(lit), Some(shape)) = (&src.attrs.literal, src.result_shapes.first()) else {
                    continue;
                };
                let idx: Option<Vec<i64>> = rt.map.results().iter().map(|e| e.as_const()).collect();
                let Some(idx) = idx else { continue };
                if idx.len() != shape.len() || idx.iter().zip(shape).any(|(i, s)| *i < 0 || i >= s) {
                    continue;
                }
                let linear = idx.iter().zip(shape).fold(0i64, |acc, (i, s)| acc * s + i);
                match lit.get(linear as usize) {
                    Some(&v) if bounds.contains(v) => Some(Expr::constant(v)),
                    _ => None,
                }
            }
            "iota" => {
                let Some(d) = src.attrs.iota_dimension else {
                    continue;
                };
                let Some(e) = rt.map.results().get(d as usize) else {
                    continue;
                };
                // Only when the value is always a feasible offset (a clamped
                // offset would not be the iota value).
                if bounds.contains_interval(&rt.map.expression_range(e)) && rt.map.num_symbols() == 0 {
                    Some(e.clone())
                } else {
                    None
                }
            }
            _ => None,
        };
        let Some(value) = value else { continue };
        let j = num_range + k;
        let substitute = |e: &Expr| {
            e.map_vars(&mut |v| match v {
                Var::Sym(s) if s == j => value.clone(),
                Var::Sym(s) => Expr::sym(s),
                Var::Dim(i) => Expr::dim(i),
            })
        };
        let results: Vec<Expr> = oi.map.results().iter().map(substitute).collect();
        let constraints: Vec<_> = oi.map.constraints().iter().map(|(e, r)| (substitute(e), *r)).collect();
        oi.map = IndexingMap::from_parts(
            results,
            oi.map.dim_vars().to_vec(),
            oi.map.range_vars().to_vec(),
            oi.map.rt_vars().to_vec(),
            constraints,
        );
        replaced = true;
    }
    if replaced {
        oi.remove_unused_symbols();
    }
}

/// For every node of the fusion, the distinct maps from output `output_id`
/// of node `target` to that node's result (empty when the node is not
/// reached). Runtime variables refer to node ids.
pub fn compute_grouped_output_to_input_indexing(
    fusion: &Fusion,
    target: usize,
    output_id: usize,
) -> Result<Vec<Vec<OperandIndexing>>> {
    fusion.validate()?;
    if target >= fusion.nodes.len() {
        return Err(Error::InvalidOp(format!("target {target} is not a node")));
    }
    let Some(shape) = fusion.nodes[target].op.result_shapes.get(output_id) else {
        return Err(Error::InvalidOp(format!("node `{}` has no result {output_id}", fusion.nodes[target].name)));
    };
    let mut grouped: Vec<Vec<OperandIndexing>> = vec![Vec::new(); fusion.nodes.len()];
    grouped[target].push(OperandIndexing::new(IndexingMap::identity(shape)));
    for id in (0..=target).rev() {
        if grouped[id].is_empty() {
            continue;
        }
        let node = &fusion.nodes[id];
        let out_id = if id == target { output_id } else { 0 };
        let indexing = output_to_input_indexing(&node.op, out_id)?;
        let consumers = grouped[id].clone();
        for (k, producer_maps) in indexing.indexing_maps.iter().enumerate() {
            let operand_node = node.operands[k];
            for pm in producer_maps {
                let mut pm = pm.clone();
                fold_runtime_vars(fusion, id, &mut pm);
                // Runtime variables now name the node that supplies them.
                for rt in &mut pm.rt_vars {
                    rt.operand = node.operands[rt.operand];
                }
                for cm in &consumers {
                    let mut composed = compose_operand_indexing(cm, &pm)?;
                    composed.simplify();
                    composed.remove_unused_symbols();
                    if !grouped[operand_node].contains(&composed) {
                        grouped[operand_node].push(composed);
                    }
                }
            }
        }
    }
    Ok(grouped)
}

/// The maps from the root's output `output_id` to each parameter, indexed by
/// parameter number.
pub fn fusion_output_to_input_indexing(fusion: &Fusion, output_id: usize) -> Result<Vec<Vec<OperandIndexing>>> {
    let grouped = compute_grouped_output_to_input_indexing(fusion, fusion.root, output_id)?;
    Ok(fusion.parameters()?.into_iter().map(|id| grouped[id].clone()).collect())
}
