//! How much of LLVM's optimizer a CPU kernel gets.
//!
//! rxla's lowering vectorizes most kernels itself (the `vector` stage):
//! their loops already read and write whole vectors, MLIR has folded,
//! CSE-d and hoisted their index computations, and `default<O3>` finds
//! little left to do. It still took most of LLVM's optimization time on
//! them: O3's ~90 passes run instcombine eight times and build a pass
//! manager per module (0.7 ms before any kernel is looked at). Such
//! kernels get a short [`LIGHT`] pipeline; the machine code of the bench
//! kernels is the same but for instruction order and addressing.
//!
//! A kernel with a loop nest that does not touch a vector (a gather's row
//! copy, a sort, a scalar fallback) still needs LLVM's loop and SLP vectorizers
//! and gets [`FULL`], as do functions that call one another (only O3
//! inlines). The choice is per function ([`efforts`]); a module
//! with both kinds runs each pipeline with the other kind's functions
//! marked `optnone`, which LLVM's passes skip.

use inkwell::{
    attributes::{Attribute, AttributeLoc},
    basic_block::BasicBlock,
    module::Module,
    values::{AnyValue, FunctionValue, InstructionOpcode, InstructionValue},
};
use std::collections::{HashMap, HashSet};

/// LLVM's optimization effort for one kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effort {
    /// [`LIGHT`]: every loop nest of the kernel already moves vectors.
    Light,
    /// [`FULL`]: LLVM's `default<O3>` (without the loop unroller).
    Full,
}

/// What a kernel whose loops are vector code still needs: its index
/// arithmetic combined across what MLIR translated separately, loops in
/// the rotated form the code generator expects, invariants hoisted,
/// redundant loads removed and alignment inferred from the parameters'.
pub const LIGHT: &str = "function(sroa,early-cse<memssa>,instcombine<no-verify-fixpoint>,simplifycfg,\
loop-mssa(loop-rotate,licm),gvn,instcombine<no-verify-fixpoint>,simplifycfg,infer-alignment)";

/// LLVM's full pipeline for the host (its options are set by the caller).
pub const FULL: &str = "default<O3>";

/// The definitions of `module` with the effort each needs: [`effort`],
/// except that functions which call, or are called by, another definition
/// get [`Effort::Full`]: only O3 inlines (what `xla-inline` left as a call),
/// and it cannot inline across functions one pipeline skips.
pub fn efforts<'ctx>(module: &Module<'ctx>) -> Vec<(FunctionValue<'ctx>, Effort)> {
    let definitions: Vec<FunctionValue> = module.get_functions().filter(|f| f.count_basic_blocks() > 0).collect();
    let mut linked: HashSet<FunctionValue> = HashSet::new();
    for f in &definitions {
        for callee in defined_callees(*f, module) {
            linked.extend([*f, callee]);
        }
    }
    definitions.into_iter().map(|f| (f, if linked.contains(&f) { Effort::Full } else { effort(f) })).collect()
}

/// The functions defined in `module` that `f` calls.
fn defined_callees<'ctx>(f: FunctionValue<'ctx>, module: &Module<'ctx>) -> Vec<FunctionValue<'ctx>> {
    f.get_basic_blocks()
        .into_iter()
        .flat_map(|block| block.get_instructions())
        .filter_map(|i| module.get_function(&callee_name(i)?))
        .filter(|g| g.count_basic_blocks() > 0)
        .collect()
}

/// The name of the function a call instruction calls directly.
fn callee_name(i: InstructionValue) -> Option<String> {
    if i.get_opcode() != InstructionOpcode::Call {
        return None;
    }
    // The callee is a call's last operand.
    let callee = i.get_operand(i.get_num_operands().checked_sub(1)?)?.value()?;
    if !callee.is_pointer_value() {
        return None;
    }
    let name = callee.into_pointer_value().get_name().to_string_lossy().into_owned();
    (!name.is_empty()).then_some(name)
}

/// The effort `f` (a definition) needs: [`Effort::Light`] when it moves
/// vectors to or from memory and every loop nest of it (every strongly
/// connected component of its control flow graph: an outer loop with the
/// loops inside it) does; [`Effort::Full`] otherwise, straight-line
/// scalar code included (the SLP vectorizer may pack it).
///
/// A nest is judged whole: the scalar loops the vector stage leaves inside
/// a vectorized nest are remainders shorter than its vectors (the last
/// 5 elements of a 197-long row after three 64-wide steps), in which
/// LLVM's vectorizers find nothing; O3 on them cost a ViT 9 ms of its 58 ms
/// in LLVM, for no change in run time.
pub fn effort(f: FunctionValue) -> Effort {
    let blocks = f.get_basic_blocks();
    let vector: Vec<bool> = blocks.iter().map(|b| moves_vectors(*b)).collect();
    if !vector.iter().any(|&v| v) {
        return Effort::Full;
    }
    let index: HashMap<BasicBlock, usize> = blocks.iter().enumerate().map(|(i, b)| (*b, i)).collect();
    let successors: Vec<Vec<usize>> = blocks
        .iter()
        .map(|b| {
            let Some(terminator) = b.get_terminator() else { return Vec::new() };
            (0..terminator.get_num_operands())
                .filter_map(|i| terminator.get_operand(i).and_then(|o| o.block()))
                .filter_map(|s| index.get(&s).copied())
                .collect()
        })
        .collect();
    let all_vector = cycles(&successors).iter().all(|cycle| cycle.iter().any(|&b| vector[b]));
    if all_vector {
        Effort::Light
    } else {
        Effort::Full
    }
}

/// Whether a block loads or stores a vector (plainly or masked).
fn moves_vectors(block: BasicBlock) -> bool {
    block.get_instructions().any(is_vector_access)
}

fn is_vector_access(i: InstructionValue) -> bool {
    match i.get_opcode() {
        InstructionOpcode::Load => i.get_type().is_vector_type(),
        InstructionOpcode::Store => {
            i.get_operand(0).and_then(|o| o.value()).is_some_and(|v| v.as_any_value_enum().is_vector_value())
        }
        // LLVM's masked and vector-predicated accesses are intrinsics.
        InstructionOpcode::Call => {
            callee_name(i).is_some_and(|name| name.starts_with("llvm.masked.") || name.starts_with("llvm.vp."))
        }
        _ => false,
    }
}

/// The blocks of each cycle of a graph: its strongly connected components
/// with more than one block or a block that branches to itself (Tarjan's
/// algorithm, iterative: kernels can have thousands of blocks).
fn cycles(successors: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = successors.len();
    let (mut order, mut low) = (vec![usize::MAX; n], vec![0; n]);
    let (mut on_stack, mut stack, mut out) = (vec![false; n], Vec::new(), Vec::new());
    let mut counter = 0;
    for root in 0..n {
        if order[root] != usize::MAX {
            continue;
        }
        // (block, index of its next successor to visit)
        let mut work = vec![(root, 0)];
        order[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut next)) = work.last_mut() {
            if let Some(&w) = successors[v].get(*next) {
                *next += 1;
                if order[w] == usize::MAX {
                    order[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(order[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == order[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 || successors[v].contains(&v) {
                    out.push(component);
                }
            }
        }
    }
    out
}

/// Runs `run` with the definitions `skipped` marked `optnone` (and
/// `noinline`, which LLVM requires with it), so that its passes leave them
/// alone; the marks are removed afterwards, whatever `run` returns.
pub fn skipping<T>(module: &Module, skipped: &[FunctionValue], run: impl FnOnce() -> T) -> T {
    let context = module.get_context();
    let kinds = ["optnone", "noinline"].map(Attribute::get_named_enum_kind_id);
    let mut added = Vec::new();
    for f in skipped {
        for kind in kinds {
            if f.get_enum_attribute(AttributeLoc::Function, kind).is_none() {
                f.add_attribute(AttributeLoc::Function, context.create_enum_attribute(kind, 0));
                added.push((*f, kind));
            }
        }
    }
    let result = run();
    for (f, kind) in added {
        f.remove_enum_attribute(AttributeLoc::Function, kind);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use inkwell::context::Context;

    fn efforts_of(ir: &str) -> Vec<(String, Effort)> {
        let context = Context::create();
        let buffer = inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "t");
        let module = context.create_module_from_ir(buffer).expect("parses");
        efforts(&module).into_iter().map(|(f, e)| (f.get_name().to_string_lossy().into_owned(), e)).collect()
    }

    #[test]
    fn cycles_are_strongly_connected_components_with_a_back_edge() {
        // 0 -> 1 -> 2 -> 1, 2 -> 3 -> 3, 3 -> 4
        let graph = vec![vec![1], vec![2], vec![1, 3], vec![3, 4], vec![]];
        let mut found: Vec<Vec<usize>> = cycles(&graph)
            .into_iter()
            .map(|mut c| {
                c.sort();
                c
            })
            .collect();
        found.sort();
        assert_eq!(found, vec![vec![1, 2], vec![3]]);
        assert!(cycles(&[vec![1], vec![]]).is_empty(), "a path has no cycle");
    }

    #[test]
    fn a_kernel_whose_loops_move_vectors_gets_the_light_pipeline() {
        let ir = "
define void @vector_rows(ptr %p, ptr %q) {
entry:
  br label %outer
outer:
  %i = phi i64 [0, %entry], [%i1, %done]
  br label %inner
inner:
  %j = phi i64 [0, %outer], [%j1, %inner]
  %a = getelementptr <8 x float>, ptr %p, i64 %j
  %v = load <8 x float>, ptr %a
  store <8 x float> %v, ptr %a
  %j1 = add i64 %j, 1
  %c = icmp ult i64 %j1, 4
  br i1 %c, label %inner, label %done
done:
  %s = getelementptr float, ptr %q, i64 %i
  store float 0.0, ptr %s
  %i1 = add i64 %i, 1
  %d = icmp ult i64 %i1, 4
  br i1 %d, label %outer, label %exit
exit:
  ret void
}

define void @scalar_loop_too(ptr %p) {
entry:
  %v = load <8 x float>, ptr %p
  store <8 x float> %v, ptr %p
  br label %l
l:
  %i = phi i64 [0, %entry], [%i1, %l]
  %a = getelementptr float, ptr %p, i64 %i
  %x = load float, ptr %a
  store float %x, ptr %a
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, 4
  br i1 %c, label %l, label %exit
exit:
  ret void
}

define void @row_with_remainder(ptr %p) {
entry:
  br label %row
row:
  %i = phi i64 [0, %entry], [%i1, %done]
  br label %main
main:
  %j = phi i64 [0, %row], [%j1, %main]
  %v = load <8 x float>, ptr %p
  store <8 x float> %v, ptr %p
  %j1 = add i64 %j, 8
  %c = icmp ult i64 %j1, 192
  br i1 %c, label %main, label %tail
tail:
  %k = phi i64 [192, %main], [%k1, %tail]
  %a = getelementptr float, ptr %p, i64 %k
  %x = load float, ptr %a
  store float %x, ptr %a
  %k1 = add i64 %k, 1
  %e = icmp ult i64 %k1, 197
  br i1 %e, label %tail, label %done
done:
  %i1 = add i64 %i, 1
  %d = icmp ult i64 %i1, 4
  br i1 %d, label %row, label %exit
exit:
  ret void
}

define void @scalar(ptr %p) {
  %x = load float, ptr %p
  store float %x, ptr %p
  ret void
}

define void @masked(ptr %p, <8 x i1> %m) {
entry:
  br label %l
l:
  %i = phi i64 [0, %entry], [%i1, %l]
  %v = call <8 x float> @llvm.masked.load.v8f32.p0(ptr %p, i32 4, <8 x i1> %m, <8 x float> poison)
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, 4
  br i1 %c, label %l, label %exit
exit:
  ret void
}

define void @calls_a_helper(ptr %p) {
  %v = load <8 x float>, ptr %p
  call void @helper(ptr %p)
  ret void
}

define void @helper(ptr %p) {
  %v = load <8 x float>, ptr %p
  store <8 x float> %v, ptr %p
  ret void
}

declare <8 x float> @llvm.masked.load.v8f32.p0(ptr, i32, <8 x i1>, <8 x float>)
";
        assert_eq!(
            efforts_of(ir),
            vec![
                ("vector_rows".to_string(), Effort::Light),
                ("scalar_loop_too".to_string(), Effort::Full),
                ("row_with_remainder".to_string(), Effort::Light),
                ("scalar".to_string(), Effort::Full),
                ("masked".to_string(), Effort::Light),
                ("calls_a_helper".to_string(), Effort::Full),
                ("helper".to_string(), Effort::Full),
            ]
        );
    }
}
