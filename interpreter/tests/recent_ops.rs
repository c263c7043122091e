//! scan, ragged-dot, scaled-dot, dynamic-reshape and collective-reduce on
//! small hand-computed examples.

#[path = "linalg_support/mod.rs"]
mod support;
use rxla_interpreter::{replicated::run_replicated, Literal};
use support::*;

fn parse(text: &str) -> rxla_hlo_text::ast::Module {
    rxla_hlo_text::parse_module(text).unwrap_or_else(|e| panic!("parse error {e:?}"))
}

const CUMSUM: &str = "cumsum {\n  x = f32[] parameter(0)\n  c = f32[] parameter(1)\n  s = f32[] add(x, c)\n  ROOT t = (f32[], f32[]) tuple(s, s)\n}\n\n";

#[test]
fn scan_cumulative_sum_forward_and_reverse_with_a_carry() {
    for (reverse, outputs) in [("false", [11.0, 13.0, 16.0, 20.0]), ("true", [20.0, 19.0, 17.0, 14.0])] {
        let text = format!("HloModule m\n\n{CUMSUM}ENTRY e {{\n  x = f32[4] parameter(0)\n  i = f32[] parameter(1)\n  ROOT s = (f32[4], f32[]) scan(x, i), dimensions={{0}}, num_carries=1, is_reverse={reverse}, is_associative=true, to_apply=cumsum\n}}\n");
        let out = leaves(&run(&text, vec![f32a(&[4], &[1.0, 2.0, 3.0, 4.0]), f32a(&[], &[10.0])]).unwrap());
        assert_eq!(out, vec![f32a(&[4], &outputs), f32a(&[], &[20.0])], "is_reverse={reverse}");
    }
}

#[test]
fn scan_exclusive_along_an_inner_dimension() {
    // Output is the carry before the step: an exclusive prefix sum per row.
    let text = "HloModule m\n\nexcl {\n  x = f32[2] parameter(0)\n  c = f32[2] parameter(1)\n  s = f32[2] add(x, c)\n  ROOT t = (f32[2], f32[2]) tuple(c, s)\n}\n\nENTRY e {\n  x = f32[2,3] parameter(0)\n  i = f32[2] parameter(1)\n  ROOT s = (f32[2,3], f32[2]) scan(x, i), dimensions={1}, num_carries=1, to_apply=excl\n}\n";
    let out =
        leaves(&run(text, vec![f32a(&[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), f32a(&[2], &[0.0, 0.0])]).unwrap());
    assert_eq!(out, vec![f32a(&[2, 3], &[0.0, 1.0, 3.0, 0.0, 4.0, 9.0]), f32a(&[2], &[6.0, 15.0])]);
}

#[test]
fn ragged_dot_non_contracting_two_groups() {
    let text = "HloModule m\n\nENTRY e {\n  l = f32[4,2] parameter(0)\n  r = f32[2,2,3] parameter(1)\n  g = s32[2] parameter(2)\n  ROOT d = f32[4,3] ragged-dot(l, r, g), lhs_contracting_dims={1}, rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}\n}\n";
    let lhs = f32a(&[4, 2], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
    // Group 0 picks the two columns as they are, group 1 sums them.
    let rhs = f32a(&[2, 2, 3], &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]);
    let got = run(text, vec![lhs.clone(), rhs.clone(), s32a(&[2], &[1, 3])]).unwrap();
    assert_eq!(got, f32a(&[4, 3], &[1.0, 2.0, 0.0, 7.0, 7.0, 7.0, 11.0, 11.0, 11.0, 15.0, 15.0, 15.0]));
    // Rows past the last group are zero.
    let got = run(text, vec![lhs, rhs, s32a(&[2], &[1, 2])]).unwrap();
    assert_eq!(got, f32a(&[4, 3], &[1.0, 2.0, 0.0, 7.0, 7.0, 7.0, 11.0, 11.0, 11.0, 0.0, 0.0, 0.0]));
}

#[test]
fn ragged_dot_contracting_gives_one_result_per_group() {
    let text = "HloModule m\n\nENTRY e {\n  l = f32[2,4] parameter(0)\n  r = f32[4,1] parameter(1)\n  g = s32[2] parameter(2)\n  ROOT d = f32[2,2,1] ragged-dot(l, r, g), lhs_contracting_dims={1}, rhs_contracting_dims={0}, lhs_ragged_dims={1}\n}\n";
    let lhs = f32a(&[2, 4], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
    let got = run(text, vec![lhs, f32a(&[4, 1], &[1.0; 4]), s32a(&[2], &[1, 3])]).unwrap();
    assert_eq!(got, f32a(&[2, 2, 1], &[1.0, 5.0, 9.0, 21.0]));
}

#[test]
fn scaled_dot_applies_block_scales() {
    // lhs scale blocks are 1x2 along k; rhs has one scale for everything.
    let text = "HloModule m\n\nENTRY e {\n  l = f32[2,4] parameter(0)\n  r = f32[4,1] parameter(1)\n  ls = f32[2,2] parameter(2)\n  rs = f32[1,1] parameter(3)\n  ROOT d = f32[2,1] scaled-dot(l, r, ls, rs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n";
    let args = vec![
        f32a(&[2, 4], &[1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 3.0, 4.0]),
        f32a(&[4, 1], &[1.0; 4]),
        f32a(&[2, 2], &[1.0, 2.0, 3.0, 10.0]),
        f32a(&[1, 1], &[0.5]),
    ];
    // Row 0: (1+1)*1 + (1+1)*2 = 6; row 1: (1+2)*3 + (3+4)*10 = 79; times 0.5.
    assert_eq!(run(text, args).unwrap(), f32a(&[2, 1], &[3.0, 39.5]));
}

#[test]
fn dynamic_reshape_at_the_bound_and_below_it() {
    let text = "HloModule m\n\nENTRY e {\n  x = f32[2,3] parameter(0)\n  a = s32[] parameter(1)\n  b = s32[] parameter(2)\n  ROOT r = f32[3,2] dynamic-reshape(x, a, b)\n}\n";
    let x = f32a(&[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let got = run(text, vec![x.clone(), s32a(&[], &[3]), s32a(&[], &[2])]).unwrap();
    assert_eq!(got, f32a(&[3, 2], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]));
    let err = run(text, vec![x, s32a(&[], &[2]), s32a(&[], &[2])]).unwrap_err();
    assert!(err.to_string().contains("dynamic shapes are not modelled"), "{err}");
}

const SUM: &str = "sum {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n\n";

#[test]
fn collective_reduce_on_one_replica_is_the_identity() {
    let text = format!("HloModule m\n\n{SUM}ENTRY e {{\n  x = f32[2] parameter(0)\n  ROOT c = f32[2] collective-reduce(x), replica_groups={{}}, to_apply=sum\n}}\n");
    assert_eq!(run(&text, vec![f32a(&[2], &[1.5, -2.0])]).unwrap(), f32a(&[2], &[1.5, -2.0]));
}

#[test]
fn collective_reduce_sums_over_two_replicas() {
    let text = format!("HloModule m, replica_count=2\n\n{SUM}ENTRY e {{\n  x = f32[2] parameter(0)\n  ROOT c = f32[2] collective-reduce(x), replica_groups={{{{0,1}}}}, to_apply=sum\n}}\n");
    let module = parse(&text);
    let args: Vec<Vec<Literal>> =
        (0..2).map(|r| vec![f32a(&[2], &[1.0 + r as f32, 10.0 * (r as f32 + 1.0)])]).collect();
    let results = run_replicated(&module, &args).unwrap();
    for r in results {
        assert_eq!(r, f32a(&[2], &[3.0, 30.0]));
    }
}
