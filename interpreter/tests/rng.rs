//! The counter-based generators against the published Random123 known-answer
//! vectors, and the behaviour of `rng` / `rng-get-and-update-state`.

#[path = "linalg_support/mod.rs"]
mod support;
use rxla_interpreter::{
    ops::rng::{philox4x32, reset_rng_state, threefry2x32, RNG_SEED},
    Data, Literal,
};
use support::*;

#[test]
fn threefry2x32_20_matches_the_random123_vectors() {
    assert_eq!(threefry2x32([0, 0], [0, 0]), [0x6b200159, 0x99ba4efe]);
    assert_eq!(threefry2x32([u32::MAX, u32::MAX], [u32::MAX, u32::MAX]), [0x1cb996fc, 0xbb002be7]);
    assert_eq!(threefry2x32([0x13198a2e, 0x03707344], [0x243f6a88, 0x85a308d3]), [0xc4923a9c, 0x483df7a0]);
}

#[test]
fn philox4x32_10_matches_the_random123_vectors() {
    assert_eq!(philox4x32([0; 4], [0, 0]), [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]);
    assert_eq!(philox4x32([u32::MAX; 4], [u32::MAX, u32::MAX]), [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]);
    assert_eq!(
        philox4x32([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0]),
        [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]
    );
}

fn rbg(algorithm: &str, state: &[u64], out: &str) -> Vec<Literal> {
    let text = format!(
        "HloModule m\n\nENTRY e {{\n  s = u64[{}] parameter(0)\n  ROOT r = (u64[{}], {out}) rng-bit-generator(s), algorithm={algorithm}\n}}\n",
        state.len(),
        state.len()
    );
    leaves(&run(&text, vec![u64a(&[state.len() as i64], state)]).unwrap())
}

#[test]
fn rng_bit_generator_threefry_layout() {
    // u32[4]: split along the even dim 0 into 2 counters, each giving the
    // words for indices 2h and 2h+1.
    let out = rbg("rng_three_fry", &[7, 100], "u32[4]");
    let key = [7u32, 0];
    let w0 = threefry2x32(key, [100, 0]);
    let w1 = threefry2x32(key, [101, 0]);
    assert_eq!(out[1].data(), Some(&Data::U32(vec![w0[0], w0[1], w1[0], w1[1]])));
    assert_eq!(out[0].data(), Some(&Data::U64(vec![7, 102])));
    // u64[2]: one counter per element, low word first.
    let out = rbg("rng_three_fry", &[7, 100], "u64[2]");
    let bits = |w: [u32; 2]| w[0] as u64 | (w[1] as u64) << 32;
    assert_eq!(out[1].data(), Some(&Data::U64(vec![bits(w0), bits(w1)])));
    assert_eq!(out[0].data(), Some(&Data::U64(vec![7, 102])));
}

#[test]
fn rng_bit_generator_philox_layout_and_default() {
    let key = [0x89abcdefu32, 0x01234567];
    let state = [0x0123456789abcdef_u64, 5];
    let out = rbg("rng_philox", &state, "u32[6]");
    // u64[2] state: counter = (low = state[1], high = state[0]).
    let b0 = philox4x32([5, 0, 0x89abcdef, 0x01234567], key);
    let b1 = philox4x32([6, 0, 0x89abcdef, 0x01234567], key);
    assert_eq!(out[1].data(), Some(&Data::U32(vec![b0[0], b0[1], b0[2], b0[3], b1[0], b1[1]])));
    assert_eq!(out[0].data(), Some(&Data::U64(vec![state[0], 7])));
    assert_eq!(rbg("rng_default", &state, "u32[6]"), out, "rng_default is philox");
    // u64[3] state: counter = (state[1], state[2]) with a carry.
    let out = rbg("rng_philox", &[1, u64::MAX, 9], "u32[4]");
    assert_eq!(out[1].data(), Some(&Data::U32(philox4x32([u32::MAX, u32::MAX, 9, 0], [1, 0]).to_vec())));
    assert_eq!(out[0].data(), Some(&Data::U64(vec![1, 0, 10])));
}

#[test]
fn rng_bit_generator_rejects_bad_states_and_types() {
    let text = "HloModule m\n\nENTRY e {\n  s = u64[3] parameter(0)\n  ROOT r = (u64[3], u32[2]) rng-bit-generator(s), algorithm=rng_three_fry\n}\n";
    assert!(run(text, vec![u64a(&[3], &[1, 2, 3])]).is_err());
    let text = "HloModule m\n\nENTRY e {\n  s = u64[2] parameter(0)\n  ROOT r = (u64[2], pred[2]) rng-bit-generator(s), algorithm=rng_philox\n}\n";
    assert!(run(text, vec![u64a(&[2], &[1, 2])]).is_err());
}

#[test]
fn rng_uniform_and_normal_are_in_range_and_reproducible_after_reset() {
    let uniform = "HloModule m\n\nENTRY e {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[1000] rng(a, b), distribution=rng_uniform\n}\n";
    let args = || vec![f32a(&[], &[-2.0]), f32a(&[], &[3.0])];
    reset_rng_state(RNG_SEED);
    let first = run(uniform, args()).unwrap();
    let second = run(uniform, args()).unwrap();
    assert_ne!(first, second, "the state advances");
    reset_rng_state(RNG_SEED);
    assert_eq!(run(uniform, args()).unwrap(), first, "reset makes runs reproducible");
    let Some(Data::F32(v)) = first.data() else { panic!() };
    assert!(v.iter().all(|&x| (-2.0..3.0).contains(&x)));
    let mean = v.iter().map(|&x| x as f64).sum::<f64>() / 1000.0;
    assert!((mean - 0.5).abs() < 0.2, "mean {mean}");

    let ints = "HloModule m\n\nENTRY e {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  ROOT r = s32[500] rng(a, b), distribution=rng_uniform\n}\n";
    let got = run(ints, vec![s32a(&[], &[-3]), s32a(&[], &[4])]).unwrap();
    let Some(Data::S32(v)) = got.data() else { panic!() };
    assert!(v.iter().all(|x| (-3..4).contains(x)));
    assert!((-3..4).all(|k| v.contains(&k)), "every value appears");

    let normal = "HloModule m\n\nENTRY e {\n  a = f64[] parameter(0)\n  b = f64[] parameter(1)\n  ROOT r = f64[4000] rng(a, b), distribution=rng_normal\n}\n";
    let got = run(normal, vec![f64a(&[], &[10.0]), f64a(&[], &[2.0])]).unwrap();
    let Some(Data::F64(v)) = got.data() else { panic!() };
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / v.len() as f64;
    assert!((mean - 10.0).abs() < 0.2 && (var - 4.0).abs() < 0.5, "mean {mean} var {var}");
}

#[test]
fn rng_get_and_update_state_returns_the_state_then_adds_delta() {
    let text = "HloModule m\n\nENTRY e {\n  a = u64[2] rng-get-and-update-state(), delta=10\n  b = u64[2] rng-get-and-update-state(), delta=3\n  ROOT t = (u64[2], u64[2]) tuple(a, b)\n}\n";
    reset_rng_state(u64::MAX as u128 - 4);
    let out = leaves(&run(text, vec![]).unwrap());
    assert_eq!(out[0].data(), Some(&Data::U64(vec![u64::MAX - 4, 0])));
    assert_eq!(out[1].data(), Some(&Data::U64(vec![5, 1])), "carries into the high word");
}
