//! Control flow, asynchronous wrappers, errors, and collectives across
//! simulated replicas (`replicated::run_replicated`).

#[path = "linalg_support/mod.rs"]
mod support;
use rxla_interpreter::{replicated::run_replicated, Data, Literal};
use support::*;

fn parse(text: &str) -> rxla_hlo_text::ast::Module {
    rxla_hlo_text::parse_module(text).unwrap_or_else(|e| panic!("parse error {e:?}"))
}

#[test]
fn while_loops_until_the_condition_is_false() {
    // The state rotates three flags; the loop runs until the first is false.
    let text = "HloModule m\n\ncond {\n  s = (pred[], pred[], pred[], f32[2]) parameter(0)\n  ROOT p = pred[] get-tuple-element(s), index=0\n}\n\nbody {\n  s = (pred[], pred[], pred[], f32[2]) parameter(0)\n  a = pred[] get-tuple-element(s), index=0\n  b = pred[] get-tuple-element(s), index=1\n  c = pred[] get-tuple-element(s), index=2\n  x = f32[2] get-tuple-element(s), index=3\n  ROOT t = (pred[], pred[], pred[], f32[2]) tuple(b, c, a, x)\n}\n\nENTRY e {\n  a = pred[] parameter(0)\n  b = pred[] parameter(1)\n  c = pred[] parameter(2)\n  x = f32[2] parameter(3)\n  t = (pred[], pred[], pred[], f32[2]) tuple(a, b, c, x)\n  ROOT w = (pred[], pred[], pred[], f32[2]) while(t), condition=cond, body=body\n}\n";
    let args = |a, b, c| vec![preda(&[], &[a]), preda(&[], &[b]), preda(&[], &[c]), f32a(&[2], &[1.0, 2.0])];
    let out = leaves(&run(text, args(true, true, false)).unwrap());
    assert_eq!(out[..3], [preda(&[], &[false]), preda(&[], &[true]), preda(&[], &[true])]);
    assert_eq!(out[3], f32a(&[2], &[1.0, 2.0]));
    // Zero trips.
    let out = leaves(&run(text, args(false, true, true)).unwrap());
    assert_eq!(out[0], preda(&[], &[false]));
}

#[test]
fn conditional_picks_branches_by_pred_and_clamped_index() {
    let branches = "b0 {\n  x = (f32[], s32[]) parameter(0)\n  ROOT y = f32[] get-tuple-element(x), index=0\n}\n\nb1 {\n  x = f32[] parameter(0)\n  ROOT t = f32[] copy(x)\n}\n\nb2 {\n  x = (s32[], f32[]) parameter(0)\n  ROOT y = f32[] get-tuple-element(x), index=1\n}\n\n";
    let text = format!("HloModule m\n\n{branches}ENTRY e {{\n  i = s32[] parameter(0)\n  a = f32[] parameter(1)\n  n = s32[] parameter(2)\n  ta = (f32[], s32[]) tuple(a, n)\n  tb = (s32[], f32[]) tuple(n, a)\n  ROOT c = f32[] conditional(i, ta, a, tb), branch_computations={{b0, b1, b2}}\n}}\n");
    for (index, want) in [(0, 1.5f32), (1, 1.5), (2, 1.5), (-1, 1.5), (7, 1.5)] {
        let got = run(&text, vec![s32a(&[], &[index]), f32a(&[], &[1.5]), s32a(&[], &[3])]).unwrap();
        assert_eq!(got, f32a(&[], &[want]), "index {index}");
    }
    // Which branch ran: give the branches distinguishable results.
    let text = format!("HloModule m\n\n{branches}t {{\n  x = s32[] parameter(0)\n  ROOT y = s32[] copy(x)\n}}\n\nf {{\n  x = (s32[], s32[]) parameter(0)\n  ROOT y = s32[] get-tuple-element(x), index=1\n}}\n\nENTRY e {{\n  p = pred[] parameter(0)\n  a = s32[] parameter(1)\n  b = s32[] parameter(2)\n  tb = (s32[], s32[]) tuple(a, b)\n  ROOT c = s32[] conditional(p, a, tb), true_computation=t, false_computation=f\n}}\n");
    assert_eq!(run(&text, vec![preda(&[], &[true]), s32a(&[], &[1]), s32a(&[], &[2])]).unwrap(), s32a(&[], &[1]));
    assert_eq!(run(&text, vec![preda(&[], &[false]), s32a(&[], &[1]), s32a(&[], &[2])]).unwrap(), s32a(&[], &[2]));
}

#[test]
fn async_copy_fusion_and_identity_wrappers() {
    let text = "HloModule m\n\nwrapped {\n  x = f32[2] parameter(0)\n  y = s32[] parameter(1)\n  ROOT t = (s32[], f32[2]) tuple(y, x)\n}\n\nfused {\n  x = f32[2] parameter(0)\n  ROOT t = (f32[2], f32[2]) tuple(x, x)\n}\n\nENTRY e {\n  x = f32[2] parameter(0)\n  y = s32[] parameter(1)\n  s = ((f32[2], s32[]), (s32[], f32[2]), u32[]) async-start(x, y), calls=wrapped\n  u = ((f32[2], s32[]), (s32[], f32[2]), u32[]) async-update(s)\n  d = (s32[], f32[2]) async-done(u)\n  cs = (f32[2], f32[2], u32[]) copy-start(x)\n  cd = f32[2] copy-done(cs)\n  tk = token[] after-all()\n  ad = f32[2] add-dependency(cd, tk)\n  f = (f32[2], f32[2]) fusion(ad), kind=kLoop, calls=fused\n  o = (f32[2], f32[2]) opt-barrier(f)\n  ROOT r = ((s32[], f32[2]), (f32[2], f32[2])) tuple(d, o)\n}\n";
    let out = leaves(&run(text, vec![f32a(&[2], &[3.0, 4.0]), s32a(&[], &[9])]).unwrap());
    assert_eq!(out, vec![s32a(&[], &[9]), f32a(&[2], &[3.0, 4.0]), f32a(&[2], &[3.0, 4.0]), f32a(&[2], &[3.0, 4.0])]);
}

#[test]
fn custom_calls_and_host_transfers_are_clear_errors() {
    let text = "HloModule m\n\nENTRY e {\n  x = f32[2] parameter(0)\n  ROOT c = f32[2] custom-call(x), custom_call_target=\"lapack_sgeev_ffi\"\n}\n";
    let err = run(text, vec![f32a(&[2], &[1.0, 2.0])]).unwrap_err();
    assert!(
        err.to_string().contains("custom-call target \"lapack_sgeev_ffi\" is not registered with the interpreter"),
        "{err}"
    );
    // A JAX Python callback says why it cannot run anywhere but in Python.
    let text = "HloModule m\n\nENTRY e {\n  x = f32[] parameter(0)\n  ROOT c = () custom-call(x), \
                custom_call_target=\"xla_ffi_python_cpu_callback\", custom_call_has_side_effect=true\n}\n";
    let err = run(text, vec![f32a(&[], &[1.0])]).unwrap_err();
    assert!(err.to_string().contains("is a JAX Python callback (jax.debug.print"), "{err}");
    let text = "HloModule m\n\nENTRY e {\n  t = token[] after-all()\n  ROOT i = ((f32[2]), token[]) infeed(t)\n}\n";
    let err = run(text, vec![]).unwrap_err();
    assert!(err.to_string().contains("infeed is not supported"), "{err}");
}

#[test]
fn single_replica_collectives_refuse_shapes_for_more_replicas() {
    let text = "HloModule m\n\nENTRY e {\n  x = f32[2] parameter(0)\n  ROOT g = f32[8] all-gather(x), replica_groups={}, dimensions={0}\n}\n";
    let err = run(text, vec![f32a(&[2], &[1.0, 2.0])]).unwrap_err();
    assert!(err.to_string().contains("run_replicated"), "{err}");
}

fn per_replica(n: usize, f: impl Fn(usize) -> Vec<Literal>) -> Vec<Vec<Literal>> {
    (0..n).map(f).collect()
}

const SUM: &str = "sum {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n\nmax {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  ROOT s = s32[] maximum(b, a)\n}\n\n";

#[test]
fn all_reduce_over_list_and_iota_groups() {
    let text = format!("HloModule m, replica_count=4\n\n{SUM}ENTRY e {{\n  x = f32[2] parameter(0)\n  i = s32[] parameter(1)\n  a = f32[2] all-reduce(x), replica_groups={{{{0,1}},{{2,3}}}}, to_apply=sum\n  b = s32[] all-reduce(i), replica_groups=[2,2]<=[2,2]T(1,0), to_apply=max\n  c = f32[2] all-reduce(x), replica_groups={{}}, to_apply=sum\n  r = u32[] replica-id()\n  ROOT t = (f32[2], s32[], f32[2], u32[]) tuple(a, b, c, r)\n}}\n");
    let module = parse(&text);
    let args = per_replica(4, |r| vec![f32a(&[2], &[r as f32, 10.0 * r as f32]), s32a(&[], &[[5, 1, 2, 7][r]])]);
    let results = run_replicated(&module, &args).unwrap();
    for (r, result) in results.iter().enumerate() {
        let out = leaves(result);
        let pair = if r < 2 { [0.0, 1.0] } else { [2.0, 3.0] };
        assert_eq!(out[0], f32a(&[2], &[pair[0] + pair[1], 10.0 * (pair[0] + pair[1])]), "replica {r}");
        // Iota groups [2,2]<=[2,2]T(1,0) are {0,2} and {1,3}.
        assert_eq!(out[1], s32a(&[], &[if r % 2 == 0 { 5 } else { 7 }]), "replica {r}");
        assert_eq!(out[2], f32a(&[2], &[6.0, 60.0]));
        assert_eq!(out[3], u32a(&[], &[r as u32]));
    }
}

#[test]
fn all_reduce_with_a_general_reducer_folds_in_group_order() {
    // (acc + x) * 2 is neither commutative in effect nor a plain op.
    let text = "HloModule m\n\nred {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  s = f32[] add(a, b)\n  two = f32[] constant(2)\n  ROOT m = f32[] multiply(s, two)\n}\n\nENTRY e {\n  x = f32[1] parameter(0)\n  ROOT a = f32[1] all-reduce(x), replica_groups={{2,0,1}}, to_apply=red\n}\n";
    let module = parse(text);
    let results = run_replicated(&module, &per_replica(3, |r| vec![f32a(&[1], &[[1.0, 10.0, 100.0][r]])])).unwrap();
    // Group order 2, 0, 1: ((100 + 1) * 2 + 10) * 2.
    for r in results {
        assert_eq!(r, f32a(&[1], &[424.0]));
    }
}

#[test]
fn all_gather_reduce_scatter_and_all_to_all() {
    let text = format!("HloModule m\n\n{SUM}ENTRY e {{\n  x = f32[4,2] parameter(0)\n  g = f32[4,4] all-gather(x), replica_groups={{{{1,0}}}}, dimensions={{1}}\n  s = f32[2,2] reduce-scatter(x), replica_groups={{}}, dimensions={{0}}, to_apply=sum\n  a = f32[4,2] all-to-all(x), replica_groups={{{{0,1}}}}, dimensions={{0}}\n  ROOT t = (f32[4,4], f32[2,2], f32[4,2]) tuple(g, s, a)\n}}\n");
    let module = parse(&text);
    let x = |r: usize| (0..8).map(|i| (100 * r + i) as f32).collect::<Vec<_>>();
    let results = run_replicated(&module, &per_replica(2, |r| vec![f32a(&[4, 2], &x(r))])).unwrap();
    for (r, result) in results.iter().enumerate() {
        let out = leaves(result);
        // Gather along dim 1 in group order 1, 0.
        let (x0, x1) = (x(0), x(1));
        let g: Vec<f32> = (0..4).flat_map(|row| [x1[2 * row], x1[2 * row + 1], x0[2 * row], x0[2 * row + 1]]).collect();
        assert_eq!(out[0], f32a(&[4, 4], &g));
        // Sum then block r of dim 0.
        let sum: Vec<f32> = x0.iter().zip(&x1).map(|(a, b)| a + b).collect();
        assert_eq!(out[1], f32a(&[2, 2], &sum[4 * r..4 * r + 4]));
        // all-to-all: block r of each replica, concatenated in group order.
        let mut a = x0[4 * r..4 * r + 4].to_vec();
        a.extend_from_slice(&x1[4 * r..4 * r + 4]);
        assert_eq!(out[2], f32a(&[4, 2], &a));
    }
}

#[test]
fn tuple_all_to_all_permute_and_broadcast() {
    let text = "HloModule m\n\nENTRY e {\n  x = s32[2] parameter(0)\n  y = s32[2] parameter(1)\n  z = s32[2] parameter(2)\n  a = (s32[2], s32[2], s32[2]) all-to-all(x, y, z), replica_groups={}\n  p = s32[2] collective-permute(x), source_target_pairs={{0,1},{1,2}}\n  b = s32[2] collective-broadcast(x), replica_groups={{1,0}}\n  ROOT t = ((s32[2], s32[2], s32[2]), s32[2], s32[2]) tuple(a, p, b)\n}\n";
    let module = parse(text);
    let v = |r: usize, j: usize| vec![(10 * r + j) as i32, -((10 * r + j) as i32)];
    let results = run_replicated(&module, &per_replica(3, |r| (0..3).map(|j| s32a(&[2], &v(r, j))).collect())).unwrap();
    for (r, result) in results.iter().enumerate() {
        let out = leaves(result);
        for (j, got) in out.iter().take(3).enumerate() {
            assert_eq!(*got, s32a(&[2], &v(j, r)), "all-to-all element {j} on replica {r}");
        }
        let permuted = if r == 0 { vec![0, 0] } else { v(r - 1, 0) };
        assert_eq!(out[3], s32a(&[2], &permuted));
        let broadcast = if r == 2 { vec![0, 0] } else { v(1, 0) };
        assert_eq!(out[4], s32a(&[2], &broadcast));
    }
}

#[test]
fn replicas_that_diverge_fail_instead_of_hanging() {
    // Replica 0 skips the all-reduce that the others run.
    let text = "HloModule m\n\nsum {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n\nskip {\n  x = f32[2] parameter(0)\n  ROOT y = f32[2] copy(x)\n}\n\nreduce {\n  x = f32[2] parameter(0)\n  ROOT y = f32[2] all-reduce(x), replica_groups={}, to_apply=sum\n}\n\nENTRY e {\n  x = f32[2] parameter(0)\n  p = pred[] parameter(1)\n  ROOT c = f32[2] conditional(p, x, x), true_computation=skip, false_computation=reduce\n}\n";
    let module = parse(text);
    let args = per_replica(3, |r| vec![f32a(&[2], &[1.0, 2.0]), preda(&[], &[r == 0])]);
    let err = run_replicated(&module, &args).unwrap_err();
    assert!(err.to_string().contains("finished without reaching"), "{err}");

    // A failing replica aborts the others waiting in a collective.
    let text = "HloModule m\n\nsum {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n\nbad {\n  x = f32[2] parameter(0)\n  ROOT y = f32[2] custom-call(x), custom_call_target=\"nope\"\n}\n\nreduce {\n  x = f32[2] parameter(0)\n  ROOT y = f32[2] all-reduce(x), replica_groups={}, to_apply=sum\n}\n\nENTRY e {\n  x = f32[2] parameter(0)\n  p = pred[] parameter(1)\n  ROOT c = f32[2] conditional(p, x, x), true_computation=bad, false_computation=reduce\n}\n";
    let err = run_replicated(&parse(text), &args).unwrap_err();
    assert!(err.to_string().contains("replica 0") && err.to_string().contains("nope"), "{err}");
}

#[test]
fn run_replicated_with_one_replica_is_a_plain_run() {
    let text = "HloModule m\n\nENTRY e {\n  x = f32[2] parameter(0)\n  r = u32[] replica-id()\n  ROOT t = (f32[2], u32[]) tuple(x, r)\n}\n";
    let results = run_replicated(&parse(text), &[vec![f32a(&[2], &[1.0, 2.0])]]).unwrap();
    assert_eq!(results, vec![Literal::Tuple(vec![f32a(&[2], &[1.0, 2.0]), Literal::scalar(Data::U32(vec![0]))])]);
}
