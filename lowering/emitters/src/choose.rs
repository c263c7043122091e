//! Which emitter a fusion gets: XLA's `HloFusionAnalysis::
//! GetEmitterFusionKind`, decided by the fusion's *heroes*.
//!
//! The hero of a root is the op behind it that shapes the kernel (XLA's
//! `FindNonTrivialHero`): walking from the root through intermediate ops
//! (elementwise ops with one operand, bitcasts, reshapes, layout-preserving
//! copies) a `reduce` is the hero; failing that, a tiled transpose or a
//! concatenate reachable through intermediate ops of up to three operands;
//! otherwise the root itself. Then, in order:
//!
//! 1. every root a `dynamic-update-slice` (through bitcasts) of a
//!    parameter only it reads: the in-place DUS emitter;
//! 2. a row or column reduction hero that the tiled emitter beats a loop
//!    on, with every other root either a compatible reduction or a side
//!    output with as many elements as the reduction's input: reduction;
//! 3. tiled-transpose heroes that all agree, every other root with as many
//!    elements as their input: transpose;
//! 4. several roots, all unstrided slices of same-shaped operands: input
//!    slices; several roots otherwise: loop;
//! 5. a `scatter` root: scatter;
//! 6. a `concatenate` hero (at most 64 operands): concatenate;
//! 7. anything else: loop.
//!
//! The choice is the same on CPU; the reduction and transpose emitters
//! have a CPU flavour of their own (workgroups, no shared memory).

use crate::{
    fusion::{Computation, Val},
    partitioner,
    target::Target,
};
use rxla_ir::hlo_analysis::{reduction_dimensions, tiled_transpose, FusionKind};
use std::collections::BTreeSet;

/// The emitter kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EmitterKind {
    Loop,
    Reduction,
    Transpose,
    Concatenate,
    InPlaceDynamicUpdateSlice,
    Scatter,
    InputSlices,
}

impl EmitterKind {
    pub fn name(self) -> &'static str {
        match self {
            EmitterKind::Loop => "loop",
            EmitterKind::Reduction => "reduction",
            EmitterKind::Transpose => "transpose",
            EmitterKind::Concatenate => "concatenate",
            EmitterKind::InPlaceDynamicUpdateSlice => "in-place-dynamic-update-slice",
            EmitterKind::Scatter => "scatter",
            EmitterKind::InputSlices => "input-slices",
        }
    }

    pub const ALL: [EmitterKind; 7] = [
        EmitterKind::Loop,
        EmitterKind::Reduction,
        EmitterKind::Transpose,
        EmitterKind::Concatenate,
        EmitterKind::InPlaceDynamicUpdateSlice,
        EmitterKind::Scatter,
        EmitterKind::InputSlices,
    ];
}

/// The decision for one fusion.
#[derive(Clone, Debug)]
pub struct Choice {
    pub kind: EmitterKind,
    /// The heroes the chosen emitter emits itself.
    pub heroes: BTreeSet<usize>,
    /// Per root (output): its hero, if the root is hero-based.
    pub root_heroes: Vec<Option<usize>>,
    /// Why the loop emitter is used although a hero asked for another.
    pub fallback: Option<String>,
    /// Whether the loop emitter may take over if the chosen one fails.
    pub loop_fallback_ok: bool,
}

impl Choice {
    pub fn loop_with_reason(reason: String) -> Choice {
        Choice {
            kind: EmitterKind::Loop,
            heroes: BTreeSet::new(),
            root_heroes: Vec::new(),
            fallback: Some(reason),
            loop_fallback_ok: false,
        }
    }

    fn plain(kind: EmitterKind, heroes: BTreeSet<usize>, root_heroes: Vec<Option<usize>>) -> Choice {
        Choice { kind, heroes, root_heroes, fallback: None, loop_fallback_ok: true }
    }
}

/// XLA's `IsIntermediate`: ops an epilogue may consist of.
fn is_intermediate(comp: &Computation, i: usize, max_operands: usize) -> bool {
    let ins = &comp.instrs[i];
    if ins.operands.is_empty() || ins.operands.len() > max_operands || ins.results.len() != 1 {
        return false;
    }
    match ins.opcode.as_str() {
        "bitcast" | "reshape" => true,
        "copy" => comp.ty(ins.operands[0]) == &ins.results[0],
        "transpose" => false,
        // A bitcast-convert that changes the element width maps one element
        // to several (or a slice of one): not an elementwise epilogue.
        "bitcast_convert" => comp.ty(ins.operands[0]).elem.bit_width() == ins.results[0].elem.bit_width(),
        o => crate::elemental::is_elementwise(o),
    }
}

/// A row or column reduction the tiled emitter handles (XLA's
/// `IsReductionFromOrToContiguousDimensions` with
/// `IsUnnestedReductionFasterThanElemental`).
pub fn is_tiled_reduction(comp: &Computation, i: usize) -> bool {
    let ins = &comp.instrs[i];
    ins.is("reduce") && reduction_dimensions(ins.op).is_some_and(|d| d.unnested_is_faster())
}

/// A transpose the shared-memory emitter tiles.
pub fn is_tiled_transpose(comp: &Computation, i: usize) -> bool {
    comp.instrs[i].is("transpose") && tiled_transpose(comp.instrs[i].op).is_some()
}

/// XLA's `FindNonTrivialHero` for root `root`.
pub fn find_hero(comp: &Computation, root: usize) -> usize {
    let mut hero = root;
    while is_intermediate(comp, hero, 1) {
        match comp.instrs[hero].operands[0] {
            Val::Res(j, _) if !partitioner::is_inline(comp, j) => hero = j,
            _ => break,
        }
    }
    if let Some(t) = find_through_intermediates(comp, hero, &|c, i| is_tiled_transpose(c, i)) {
        return t;
    }
    if let Some(c) = find_through_intermediates(comp, hero, &|c, i| c.instrs[i].is("concatenate")) {
        return c;
    }
    if comp.instrs[hero].is("reduce") {
        hero
    } else {
        root
    }
}

/// Breadth-first search from `start` through intermediate ops (up to three
/// operands) for an op satisfying `pred`.
fn find_through_intermediates(
    comp: &Computation,
    start: usize,
    pred: &dyn Fn(&Computation, usize) -> bool,
) -> Option<usize> {
    let mut queue = std::collections::VecDeque::from([start]);
    let mut seen = BTreeSet::from([start]);
    while let Some(i) = queue.pop_front() {
        if pred(comp, i) {
            return Some(i);
        }
        if !is_intermediate(comp, i, 3) {
            continue;
        }
        for v in &comp.instrs[i].operands {
            if let Val::Res(j, _) = v {
                if seen.insert(*j) {
                    queue.push_back(*j);
                }
            }
        }
    }
    None
}

/// The instruction behind `v` through bitcasts and reshapes.
fn through_bitcasts(comp: &Computation, v: Val) -> Val {
    let mut v = v;
    while let Val::Res(i, _) = v {
        let ins = &comp.instrs[i];
        if ins.is("bitcast") || ins.is("reshape") {
            v = ins.operands[0];
        } else {
            break;
        }
    }
    v
}

/// The DUS behind each root, if every root is a DUS updating a parameter
/// that nothing else reads (XLA's `CanEmitFusedDynamicUpdateSliceInPlace`;
/// the output is assumed to share that parameter's buffer).
pub fn in_place_dus(comp: &Computation) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    let mut update_shape = None;
    for r in &comp.roots {
        let Val::Res(d, _) = through_bitcasts(comp, *r) else { return None };
        let dus = &comp.instrs[d];
        if !dus.is("dynamic_update_slice") {
            return None;
        }
        let Val::Param(p) = through_bitcasts(comp, dus.operands[0]) else { return None };
        // The parameter feeds only this DUS (through single-use bitcasts).
        let mut v = dus.operands[0];
        while let Val::Res(i, _) = v {
            if comp.users[i].len() != 1 {
                return None;
            }
            v = comp.instrs[i].operands[0];
        }
        if comp.param_users[p].len() != 1 {
            return None;
        }
        let shape = comp.ty(dus.operands[1]).dims.clone();
        if update_shape.get_or_insert(shape.clone()) != &shape {
            return None;
        }
        out.push(d);
    }
    Some(out)
}

/// Chooses the emitter of a fused computation.
pub fn choose(comp: &Computation, kind: Option<FusionKind>, _target: &Target) -> Choice {
    let root_instrs: Vec<Option<usize>> = comp.roots.iter().map(|r| r.instr()).collect();
    let heroes: Vec<Option<usize>> = root_instrs.iter().map(|r| r.map(|i| find_hero(comp, i))).collect();

    if kind != Some(FusionKind::Input) {
        if let Some(duses) = in_place_dus(comp) {
            let set: BTreeSet<usize> = duses.iter().copied().collect();
            return Choice::plain(EmitterKind::InPlaceDynamicUpdateSlice, set, duses.into_iter().map(Some).collect());
        }
    }

    // Reductions.
    let real_reduction = |root: usize, hero: usize| {
        is_tiled_reduction(comp, hero)
            && (root == hero || reduction_dimensions(comp.instrs[hero].op).is_some_and(|d| d.race_free()))
    };
    let first_reduce = root_instrs.iter().zip(&heroes).find_map(|(r, h)| match (r, h) {
        (Some(r), Some(h)) if real_reduction(*r, *h) => Some(*h),
        _ => None,
    });
    if let Some(first) = first_reduce {
        let input_elements: i64 = comp.ty(comp.instrs[first].operands[0]).dims.iter().product();
        let first_dims = reduction_dimensions(comp.instrs[first].op);
        let first_reduced = comp.instrs[first].op.dims_attr("dimensions");
        let first_input = comp.ty(comp.instrs[first].operands[0]).dims.clone();
        let mut valid = true;
        let mut root_heroes = Vec::new();
        let mut set = BTreeSet::new();
        for (k, (r, h)) in root_instrs.iter().zip(&heroes).enumerate() {
            match (r, h) {
                (Some(r), Some(h)) if real_reduction(*r, *h) => {
                    let hi = &comp.instrs[*h];
                    let compatible = reduction_dimensions(hi.op) == first_dims
                        && hi.op.dims_attr("dimensions") == first_reduced
                        && comp.ty(hi.operands[0]).dims == first_input;
                    valid &= compatible;
                    root_heroes.push(Some(*h));
                    set.insert(*h);
                }
                _ => {
                    let n: i64 = comp.ty(comp.roots[k]).dims.iter().product();
                    valid &= n == input_elements;
                    root_heroes.push(None);
                }
            }
        }
        if valid {
            return Choice::plain(EmitterKind::Reduction, set, root_heroes);
        }
    }

    // Transposes.
    let transposes: Vec<usize> = heroes.iter().flatten().copied().filter(|&h| is_tiled_transpose(comp, h)).collect();
    if let Some(&first) = transposes.first() {
        let spec = tiled_transpose(comp.instrs[first].op);
        let input_elements: i64 = comp.ty(comp.instrs[first].operands[0]).dims.iter().product();
        let consistent = transposes.iter().all(|&t| tiled_transpose(comp.instrs[t].op) == spec);
        let others_fit = comp.roots.iter().zip(&heroes).all(|(r, h)| {
            h.is_some_and(|h| is_tiled_transpose(comp, h)) || comp.ty(*r).dims.iter().product::<i64>() == input_elements
        });
        if consistent && others_fit {
            let root_heroes: Vec<Option<usize>> =
                heroes.iter().map(|h| h.filter(|&h| is_tiled_transpose(comp, h))).collect();
            let set: BTreeSet<usize> = root_heroes.iter().flatten().copied().collect();
            return Choice::plain(EmitterKind::Transpose, set, root_heroes);
        }
    }

    if comp.roots.len() > 1 {
        let slices: Option<Vec<usize>> =
            root_instrs.iter().map(|r| r.filter(|&i| comp.instrs[i].is("slice") && unit_strides(comp, i))).collect();
        if let Some(slices) = slices {
            let shape = comp.ty(comp.instrs[slices[0]].operands[0]).dims.clone();
            if slices.iter().all(|&s| comp.ty(comp.instrs[s].operands[0]).dims == shape) {
                let set: BTreeSet<usize> = slices.iter().copied().collect();
                return Choice::plain(EmitterKind::InputSlices, set, slices.into_iter().map(Some).collect());
            }
        }
        return Choice::plain(EmitterKind::Loop, BTreeSet::new(), vec![None; comp.roots.len()]);
    }

    if let Some(r) = root_instrs[0] {
        if comp.instrs[r].is("scatter") {
            let mut c = Choice::plain(EmitterKind::Scatter, BTreeSet::from([r]), vec![Some(r)]);
            c.loop_fallback_ok = false;
            return c;
        }
    }
    if let Some(h) = heroes[0] {
        if comp.instrs[h].is("concatenate") && comp.instrs[h].operands.len() <= 64 {
            return Choice::plain(EmitterKind::Concatenate, BTreeSet::from([h]), vec![Some(h)]);
        }
    }
    Choice::plain(EmitterKind::Loop, BTreeSet::new(), vec![None; comp.roots.len()])
}

fn unit_strides(comp: &Computation, i: usize) -> bool {
    comp.instrs[i].op.dims_attr("strides").is_some_and(|s| s.iter().all(|&x| x == 1))
}
