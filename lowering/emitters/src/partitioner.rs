//! XLA's computation partitioner (`xla/codegen/emitters/
//! computation_partitioner.cc`): splits a fused computation into subgraphs
//! that can each be emitted as one function computing its roots at one
//! index.
//!
//! An instruction joins the subgraph of its users when
//!
//! * it has a single use, or
//! * all its users are in the same subgraph and read it through the same
//!   indexing map (the composition of the users' maps from the subgraph's
//!   root index with their operand maps, simplified; maps with range or
//!   runtime variables never count as the same),
//!
//! and it is not a root of the computation, a hero, or an operand of a hero
//! (the hero-specific emitters read hero operands through their own
//! functions). Everything else starts a subgraph of its own. So in
//! `add(log(p), transpose(log(p)))` the `log` is its own function: the two
//! users read it at different indices, and emitting it inline would compute
//! it twice per element (exponentially often on longer chains). Roots of
//! the computation with the same shape that nothing else reads share one
//! subgraph (one function computes them all at an index). Constants are not partitioned: every
//! function emits the constants it reads.
//!
//! A subgraph whose instructions read a hero's value (an epilogue: the ops
//! between a reduction or transpose hero and the fusion root) gets the
//! hero's value as extra scalar arguments (*injected* values) instead of
//! computing it.

use crate::fusion::{Computation, Val};
use rxla_indexing::{compose, output_to_input_indexing, IndexingMap};
use std::collections::{BTreeSet, HashMap, HashSet};

/// One function's worth of instructions.
#[derive(Clone, Debug)]
pub struct Subgraph {
    /// The function's symbol name.
    pub name: String,
    /// Instructions whose results the function returns (all results of
    /// each), in order.
    pub roots: Vec<usize>,
    /// Member instructions, in topological order.
    pub instrs: Vec<usize>,
    /// The shape the function is indexed by (the roots' shape).
    pub index_shape: Vec<i64>,
    /// Heroes whose values the function takes as arguments.
    pub injected: Vec<usize>,
}

/// A partitioned computation.
#[derive(Clone, Debug)]
pub struct Partition {
    pub subgraphs: Vec<Subgraph>,
    /// The subgraph of each instruction (`None` for constants, which are
    /// emitted wherever they are read, and for dead instructions).
    pub of: Vec<Option<usize>>,
    /// The heroes the partition was made for.
    pub heroes: BTreeSet<usize>,
}

impl Partition {
    /// The subgraph whose roots include instruction `i`.
    pub fn subgraph_of_root(&self, i: usize) -> Option<usize> {
        let s = self.of[i]?;
        self.subgraphs[s].roots.contains(&i).then_some(s)
    }
}

/// True for instructions every function emits itself.
pub fn is_inline(comp: &Computation, i: usize) -> bool {
    comp.instrs[i].is("constant")
}

/// The map from instruction `user`'s output index to the index at which
/// it reads its operand `slot` (`None` when it reads more than one element
/// or a data-dependent one).
pub fn operand_map(comp: &Computation, user: usize, slot: usize) -> Option<IndexingMap> {
    let ins = &comp.instrs[user];
    let out = &ins.results[0].dims;
    let operand = &comp.ty(ins.operands[slot]).dims;
    if crate::elemental::is_elementwise(&ins.opcode) {
        if !operand.is_empty() && operand.len() != out.len() {
            return None; // bitcast-convert between widths
        }
        return Some(if operand.is_empty() && !out.is_empty() {
            IndexingMap::scalar(out)
        } else {
            IndexingMap::identity(out)
        });
    }
    let desc = comp.op_desc(user)?;
    let indexing = output_to_input_indexing(&desc, 0).ok()?;
    let maps = indexing.indexing_maps.get(slot)?;
    if maps.len() != 1 || maps[0].is_undefined() || maps[0].map.num_symbols() > 0 {
        return None;
    }
    Some(maps[0].map.clone())
}

/// Partitions `comp`; `heroes` are the instructions the entry function
/// emits itself (reductions, transposes, ...).
pub fn partition(comp: &Computation, heroes: &BTreeSet<usize>) -> Partition {
    let n = comp.instrs.len();
    let mut of: Vec<Option<usize>> = vec![None; n];
    let mut maps: Vec<Option<IndexingMap>> = vec![None; n];
    let mut subgraphs: Vec<Subgraph> = Vec::new();
    let root_instrs: HashSet<usize> = comp.roots.iter().filter_map(|r| r.instr()).collect();
    // Roots grouped by shape (heroes stay alone).
    let mut root_group: HashMap<Vec<i64>, usize> = HashMap::new();
    let mut names: HashMap<String, usize> = HashMap::new();
    let mut fresh_name = |opcode: &str| {
        let base = format!("{}_{}", comp.name, opcode);
        let k = names.entry(base.clone()).or_insert(0);
        *k += 1;
        if *k == 1 {
            base
        } else {
            format!("{base}_{}", *k - 1)
        }
    };

    for i in (0..n).rev() {
        if is_inline(comp, i) {
            continue;
        }
        let users = comp.distinct_users(i);
        if users.is_empty() && !root_instrs.contains(&i) {
            continue; // dead
        }
        let forced = root_instrs.contains(&i) || heroes.contains(&i) || users.iter().any(|u| heroes.contains(u));
        let mut merged = None;
        if !forced && users.iter().all(|&u| of[u].is_some()) {
            let s = of[users[0]].unwrap();
            if users.iter().all(|&u| of[u] == Some(s)) {
                let uses = &comp.users[i];
                let composed: Vec<Option<IndexingMap>> = uses
                    .iter()
                    .map(|&(u, slot)| {
                        let m = maps[u].as_ref()?;
                        let o = operand_map(comp, u, slot)?;
                        let mut c = compose(m, &o).ok()?;
                        c.simplify();
                        (c.num_symbols() == 0 && !c.is_undefined()).then_some(c)
                    })
                    .collect();
                let single_use = uses.len() == 1;
                let same_indexing = composed.iter().all(|c| c.is_some()) && composed.windows(2).all(|w| w[0] == w[1]);
                if single_use || same_indexing {
                    merged = Some((s, composed[0].clone()));
                }
            }
        }
        match merged {
            Some((s, map)) => {
                of[i] = Some(s);
                maps[i] = map;
                subgraphs[s].instrs.push(i);
            }
            None => {
                let shape = comp.instrs[i].results[0].dims.clone();
                // Only roots nothing else reads share a function: another
                // function calling the group would compute all its roots,
                // which may read that function again.
                let groupable = root_instrs.contains(&i) && !heroes.contains(&i) && comp.users[i].is_empty();
                let group = if groupable { root_group.get(&shape).copied() } else { None };
                let s = match group {
                    Some(s) => {
                        subgraphs[s].roots.push(i);
                        subgraphs[s].instrs.push(i);
                        s
                    }
                    None => {
                        let s = subgraphs.len();
                        subgraphs.push(Subgraph {
                            name: String::new(),
                            roots: vec![i],
                            instrs: vec![i],
                            index_shape: shape.clone(),
                            injected: Vec::new(),
                        });
                        if groupable {
                            root_group.insert(shape.clone(), s);
                        }
                        s
                    }
                };
                of[i] = Some(s);
                maps[i] = Some(IndexingMap::identity(&shape));
            }
        }
    }
    for sg in &mut subgraphs {
        sg.instrs.sort();
        sg.instrs.dedup();
        // Roots in program order, so that a function's results follow the
        // computation's order; the function is named after the first.
        sg.roots.sort();
        sg.name = fresh_name(&comp.instrs[sg.roots[0]].opcode);
    }
    // Injected heroes: read by a member but computed elsewhere, directly or
    // through the functions the subgraph calls.
    let mut injected: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); subgraphs.len()];
    let mut calls: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); subgraphs.len()];
    for (s, sg) in subgraphs.iter().enumerate() {
        for &i in &sg.instrs {
            for v in &comp.instrs[i].operands {
                let Val::Res(j, _) = *v else { continue };
                if of[j] == Some(s) || is_inline(comp, j) {
                    continue;
                }
                if heroes.contains(&j) {
                    injected[s].insert(j);
                } else if let Some(t) = of[j] {
                    calls[s].insert(t);
                }
            }
        }
    }
    loop {
        let mut changed = false;
        for s in 0..subgraphs.len() {
            let callees: Vec<usize> = calls[s].iter().copied().collect();
            for t in callees {
                let extra: Vec<usize> = injected[t].iter().copied().collect();
                for h in extra {
                    changed |= injected[s].insert(h);
                }
            }
        }
        if !changed {
            break;
        }
    }
    for (s, sg) in subgraphs.iter_mut().enumerate() {
        sg.injected = injected[s].iter().copied().collect();
    }
    Partition { subgraphs, of, heroes: heroes.clone() }
}

#[cfg(test)]
mod tests {
    // The partitioner is tested through the emitters' lit tests and the
    // oracle test (it needs MLIR to build a `Computation`).
}
