//! Buffer assignment (XLA's `BufferAssignment`, for one program at a time).
//!
//! 1. **Outputs**: every leaf of the result gets a buffer of its own that
//!    the caller receives (a copy is added where the result is a
//!    parameter, a constant, or a buffer another output already uses).
//! 2. **In-place ops** (dynamic-update-slice and scatter kernels write
//!    their operand's buffer): the output shares the operand's buffer when
//!    the operand is a temporary that is not used after the op; otherwise
//!    the operand is copied into the output first.
//! 3. **Temporaries**: the remaining buffers are placed in one arena;
//!    buffers whose live ranges (first to last step that touches them) do
//!    not overlap share memory. A buffer is only reused by steps after its
//!    last use, never within one step (a kernel may read one buffer while
//!    writing another).

use crate::program::*;
use crate::thunk_emitter::InPlace;
use std::collections::BTreeMap;

/// Arena offsets are multiples of this (a cache line).
const ALIGN: usize = 64;

fn round_up(n: usize) -> usize {
    n.div_ceil(ALIGN) * ALIGN
}

/// What buffer assignment did, for reports and tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Bytes of all temporaries if each had its own memory.
    pub temp_bytes_unshared: usize,
    /// Bytes of the arena.
    pub arena_bytes: usize,
    /// In-place outputs that share their operand's buffer.
    pub in_place_shared: usize,
    /// In-place outputs that needed a copy of their operand.
    pub in_place_copied: usize,
}

/// Assigns memory to every buffer of `p`. `aliases` are the (output leaf,
/// parameter leaf) pairs whose parameter buffer is donated to the output
/// (`input_output_alias`); `Program::output_params` says which outputs
/// ended up in their parameter's buffer.
pub fn assign(p: &mut Program, in_place: &[InPlace], aliases: &[(usize, usize)]) -> Stats {
    let mut stats = Stats::default();
    for (i, &leaf) in p.param_leaves.clone().iter().enumerate() {
        let b = p.buffer_of(leaf);
        p.buffers[b] = Allocation::Parameter(i);
    }
    let result_leaves = p.result.leaves();
    let donated_to = |param: usize| -> Option<usize> { aliases.iter().find(|&&(_, i)| i == param).map(|&(o, _)| o) };
    // 2. In-place requests, in step order (before outputs are fixed, so a
    //    result computed in place lands in its output buffer directly).
    let mut copies: BTreeMap<usize, Vec<Step>> = BTreeMap::new();
    for r in in_place {
        let (a, o) = (p.buffer_of(r.operand), p.buffer_of(r.output));
        let dies_here = last_use(p, a) == Some(r.step) && !is_result_buffer(p, a);
        // A donated parameter may be updated in place by the output it is
        // aliased to.
        let donated = match p.buffers[a] {
            Allocation::Parameter(i) => {
                last_use(p, a) == Some(r.step)
                    && donated_to(i).is_some_and(|k| p.buffer_of(result_leaves[k]) == o)
                    && result_leaves.iter().filter(|&&s| p.buffer_of(s) == a).count() == 0
            }
            _ => false,
        };
        if (dies_here && p.buffers[a] == Allocation::Unassigned || donated)
            && p.buffers[o] == Allocation::Unassigned
            && a != o
        {
            merge(p, o, a);
            stats.in_place_shared += 1;
        } else if a != o {
            copies.entry(r.step).or_default().push(Step::Copy { from: r.operand, to: r.output });
            stats.in_place_copied += 1;
        }
    }
    if !copies.is_empty() {
        let old = std::mem::take(&mut p.steps);
        for (i, step) in old.into_iter().enumerate() {
            if let Some(c) = copies.remove(&i) {
                p.steps.extend(c);
            }
            p.steps.push(step);
        }
    }
    // 1. Outputs.
    let leaves = p.result.leaves();
    let mut outputs = Vec::new();
    let mut output_params = vec![None; leaves.len()];
    let mut claimed = std::collections::HashSet::new();
    for (k, &leaf) in leaves.iter().enumerate() {
        let b = p.buffer_of(leaf);
        if let Some(&(_, i)) = aliases.iter().find(|&&(o, _)| o == k) {
            let param_buffer = p.buffer_of(p.param_leaves[i]);
            // Already in the parameter's buffer (returned as is, or
            // updated in place).
            let in_param = b == param_buffer && !claimed.contains(&b);
            // Or written after the parameter's last use, and nothing else
            // returns the parameter.
            let later = p.buffers[b] == Allocation::Unassigned
                && !claimed.contains(&b)
                && last_use(p, param_buffer).is_none_or(|l| first_use(p, b).is_some_and(|f| l < f))
                && !leaves.iter().enumerate().any(|(j, &s)| j != k && p.buffer_of(s) == param_buffer);
            if in_param || later {
                if later {
                    merge(p, b, param_buffer);
                }
                claimed.insert(param_buffer);
                output_params[k] = Some(i);
                outputs.push(leaf);
                continue;
            }
        }
        let b = p.buffer_of(leaf);
        let slot = if p.buffers[b] == Allocation::Unassigned && !claimed.contains(&b) {
            leaf
        } else {
            let shape = p.slots[leaf].shape.clone();
            let layout = p.slots[leaf].layout.clone();
            let name = p.slots[leaf].name.clone();
            let to = p.new_slot(shape, layout, &name);
            p.steps.push(Step::Copy { from: leaf, to });
            to
        };
        let b = p.buffer_of(slot);
        p.buffers[b] = Allocation::Output(
            outputs.len() - output_params.iter().take(outputs.len()).filter(|x| x.is_some()).count(),
        );
        claimed.insert(b);
        outputs.push(slot);
    }
    p.result = p.result.rebuild(&mut outputs.clone().into_iter());
    p.outputs = outputs;
    p.output_params = output_params;
    // 3. Temporaries.
    let ranges = live_ranges(p);
    let mut order: Vec<(usize, usize, usize)> = Vec::new(); // (first, last, buffer)
    for (b, range) in ranges.iter().enumerate() {
        if p.buffers[b] != Allocation::Unassigned {
            continue;
        }
        let (first, last) = range.unwrap_or((0, 0));
        order.push((first, last, b));
    }
    order.sort();
    let sizes = buffer_sizes(p);
    // Free blocks by size; blocks released at a step become free after it.
    let mut free: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut pending: Vec<(usize, usize, usize)> = Vec::new(); // (last, offset, size)
    let mut top = 0usize;
    for (first, last, b) in order {
        let size = round_up(sizes[b].max(1));
        stats.temp_bytes_unshared += size;
        pending.retain(|&(l, off, sz)| {
            if l < first {
                free.entry(sz).or_default().push(off);
                false
            } else {
                true
            }
        });
        let offset = match free.get_mut(&size).and_then(|v| v.pop()) {
            Some(off) => off,
            None => {
                let off = top;
                top += size;
                off
            }
        };
        p.buffers[b] = Allocation::Temp { offset, size };
        pending.push((last, offset, size));
    }
    p.arena_size = top;
    stats.arena_bytes = top;
    stats
}

/// Makes every slot of buffer `from` use buffer `into`.
fn merge(p: &mut Program, from: BufferId, into: BufferId) {
    for s in &mut p.slots {
        if s.buffer == from {
            s.buffer = into;
        }
    }
    p.buffers[from] = Allocation::Unused;
}

fn is_result_buffer(p: &Program, b: BufferId) -> bool {
    p.result.leaves().iter().any(|&s| p.buffer_of(s) == b)
}

/// The last step that reads or writes buffer `b`.
fn last_use(p: &Program, b: BufferId) -> Option<usize> {
    let mut last = None;
    for (i, step) in p.steps.iter().enumerate() {
        let (r, w) = step.reads_writes();
        if r.iter().chain(&w).any(|&s| p.buffer_of(s) == b) {
            last = Some(i);
        }
    }
    last
}

/// The first step that reads or writes buffer `b`.
fn first_use(p: &Program, b: BufferId) -> Option<usize> {
    p.steps.iter().position(|step| {
        let (r, w) = step.reads_writes();
        r.iter().chain(&w).any(|&s| p.buffer_of(s) == b)
    })
}

/// First and last step touching each buffer.
fn live_ranges(p: &Program) -> Vec<Option<(usize, usize)>> {
    let mut ranges: Vec<Option<(usize, usize)>> = vec![None; p.buffers.len()];
    for (i, step) in p.steps.iter().enumerate() {
        let (r, w) = step.reads_writes();
        for s in r.into_iter().chain(w) {
            let b = p.buffer_of(s);
            ranges[b] = Some(match ranges[b] {
                None => (i, i),
                Some((f, _)) => (f, i),
            });
        }
    }
    ranges
}

/// Bytes of each buffer (the largest of its slots).
fn buffer_sizes(p: &Program) -> Vec<usize> {
    let mut sizes = vec![0usize; p.buffers.len()];
    for s in &p.slots {
        sizes[s.buffer] = sizes[s.buffer].max(s.shape.bytes());
    }
    sizes
}

#[cfg(test)]
mod tests {
    use super::*;
    use rxla_library::array::{ArrayShape, ElementType};

    fn f32s(n: i64) -> ArrayShape {
        ArrayShape::new(ElementType::F32, vec![n])
    }

    #[test]
    fn temporaries_with_disjoint_live_ranges_share_memory() {
        // p0 -> a -> b -> c -> out: a and c can share, b cannot share with a.
        let mut p = Program::new("chain");
        let p0 = p.new_slot(f32s(256), None, "p0");
        p.params = vec![Tree::Array(p0)];
        p.param_leaves = vec![p0];
        let a = p.new_slot(f32s(256), None, "a");
        let b = p.new_slot(f32s(256), None, "b");
        let c = p.new_slot(f32s(256), None, "c");
        let out = p.new_slot(f32s(256), None, "out");
        for (from, to) in [(p0, a), (a, b), (b, c), (c, out)] {
            p.steps.push(Step::Copy { from, to });
        }
        p.result = Tree::Array(out);
        let stats = assign(&mut p, &[], &[]);
        let offset = |s: Slot| match p.buffers[p.buffer_of(s)] {
            Allocation::Temp { offset, .. } => offset,
            other => panic!("{other:?}"),
        };
        assert_ne!(offset(a), offset(b));
        assert_ne!(offset(b), offset(c));
        assert_eq!(offset(a), offset(c));
        assert_eq!(stats.arena_bytes, 2 * 1024);
        assert_eq!(p.buffers[p.buffer_of(out)], Allocation::Output(0));
    }

    #[test]
    fn in_place_outputs_share_a_dying_operand_and_copy_a_live_one() {
        let mut p = Program::new("dus");
        let p0 = p.new_slot(f32s(16), None, "p0");
        p.params = vec![Tree::Array(p0)];
        p.param_leaves = vec![p0];
        let t = p.new_slot(f32s(16), None, "t");
        p.steps.push(Step::Copy { from: p0, to: t });
        let u = p.new_slot(f32s(16), None, "u");
        p.steps.push(Step::Kernel { kernel: 0, args: vec![t, u] });
        // An in-place update of the parameter (which is not writable).
        let v = p.new_slot(f32s(16), None, "v");
        p.steps.push(Step::Kernel { kernel: 0, args: vec![p0, v] });
        p.result = Tree::Tuple(vec![Tree::Array(u), Tree::Array(v)]);
        let requests = [InPlace { step: 1, operand: t, output: u }, InPlace { step: 2, operand: p0, output: v }];
        let stats = assign(&mut p, &requests, &[]);
        assert_eq!(stats.in_place_shared, 1);
        assert_eq!(stats.in_place_copied, 1);
        assert_eq!(p.buffer_of(t), p.buffer_of(u));
        assert!(matches!(p.steps[2], Step::Copy { from, to } if from == p0 && to == v));
        assert_eq!(p.buffers[p.buffer_of(u)], Allocation::Output(0));
    }

    #[test]
    fn a_parameter_returned_as_is_is_copied_to_an_output() {
        let mut p = Program::new("identity");
        let p0 = p.new_slot(f32s(4), None, "p0");
        p.params = vec![Tree::Array(p0)];
        p.param_leaves = vec![p0];
        p.result = Tree::Tuple(vec![Tree::Array(p0), Tree::Array(p0)]);
        assign(&mut p, &[], &[]);
        assert_eq!(p.steps.len(), 2);
        assert_eq!(p.outputs.len(), 2);
        assert_ne!(p.buffer_of(p.outputs[0]), p.buffer_of(p.outputs[1]));
    }

    #[test]
    fn donated_parameters_hold_their_aliased_outputs() {
        // out0 = dus(p0) in place (p0 donated to out0): no copy, the output
        // is p0's buffer. out1 = f(g(p1)), written after p1's last read:
        // p1's buffer. p2 is donated but still read after out2 is written: a
        // fresh output.
        let mut p = Program::new("donation");
        let params: Vec<Slot> = (0..3).map(|i| p.new_slot(f32s(16), None, &format!("p{i}"))).collect();
        p.params = params.iter().map(|&s| Tree::Array(s)).collect();
        p.param_leaves = params.clone();
        let (o0, o1, o2, t) = (
            p.new_slot(f32s(16), None, "o0"),
            p.new_slot(f32s(16), None, "o1"),
            p.new_slot(f32s(16), None, "o2"),
            p.new_slot(f32s(16), None, "t"),
        );
        let t1 = p.new_slot(f32s(16), None, "t1");
        p.steps.push(Step::Kernel { kernel: 0, args: vec![params[0], o0] });
        p.steps.push(Step::Copy { from: params[1], to: t1 });
        p.steps.push(Step::Kernel { kernel: 0, args: vec![t1, o1] });
        p.steps.push(Step::Copy { from: params[2], to: o2 });
        p.steps.push(Step::Copy { from: params[2], to: t });
        p.steps.push(Step::Kernel { kernel: 0, args: vec![t, o2] });
        p.result = Tree::Tuple(vec![Tree::Array(o0), Tree::Array(o1), Tree::Array(o2)]);
        let requests = [InPlace { step: 0, operand: params[0], output: o0 }];
        let stats = assign(&mut p, &requests, &[(0, 0), (1, 1), (2, 2)]);
        assert_eq!(stats.in_place_shared, 1);
        assert_eq!(p.output_params, vec![Some(0), Some(1), None]);
        assert_eq!(p.buffers[p.buffer_of(o0)], Allocation::Parameter(0));
        assert_eq!(p.buffers[p.buffer_of(o1)], Allocation::Parameter(1));
        assert_eq!(p.buffers[p.buffer_of(o2)], Allocation::Output(0));
    }
}
