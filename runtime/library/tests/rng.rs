//! `rng-bit-generator` against the reference interpreter, bit for bit:
//! every algorithm, every output type it can fill, scalar, odd, even and
//! zero-size shapes, 2- and 3-word states (with counter carries), and an
//! output large enough to be generated in parallel.

mod support;
use rxla_library::array::{byte_size, literal_bytes, ArrayMut, ArrayRef, Buffer, ElementType};
use rxla_library::rng::{rng_bit_generator, RngAlgorithm};
use support::*;

const TYPES: &[&str] = &[
    "u32", "s32", "f32", "u64", "s64", "f64", "u16", "s16", "f16", "bf16", "u8", "s8", "s4", "u4", "s2", "u1",
    "f8e4m3fn", "f8e5m2", "f4e2m1fn", "f6e3m2fn",
];

const SHAPES: &[&[usize]] =
    &[&[], &[1], &[5], &[8], &[4, 3], &[3, 5], &[2, 3, 4], &[3, 1, 5], &[0], &[7, 0], &[5, 7, 3]];

fn run_case(algorithm: RngAlgorithm, state: &[u64], t: ElementType, dims: &[usize]) {
    let name = match algorithm {
        RngAlgorithm::Default => "rng_default",
        RngAlgorithm::ThreeFry => "rng_three_fry",
        RngAlgorithm::Philox => "rng_philox",
    };
    let text = format!(
        "HloModule m\n\nENTRY e {{\n  s = u64[{n}] parameter(0)\n  ROOT r = (u64[{n}], {}) rng-bit-generator(s), algorithm={name}\n}}\n",
        shape_text(t, dims),
        n = state.len()
    );
    let st = rxla_interpreter::Literal::array(vec![state.len() as i64], rxla_interpreter::Data::U64(state.to_vec()));
    let want = run_hlo(&text, std::slice::from_ref(&st));
    let want = want.tuple_elements().unwrap();
    let sb = buffer(&st);
    let sdims = [state.len() as i64];
    let odims: Vec<i64> = dims.iter().map(|&d| d as i64).collect();
    let mut ns = Buffer::zeroed(8 * state.len());
    let mut out = Buffer::zeroed(dims.iter().product::<usize>() * byte_size(t));
    rng_bit_generator(
        algorithm,
        ArrayRef::new(ElementType::U64, &sdims, sb.as_slice()),
        ArrayMut::new(ElementType::U64, &sdims, ns.as_mut_slice()),
        ArrayMut::new(t, &odims, out.as_mut_slice()),
    )
    .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(ns.as_slice() == literal_bytes(&want[0]).unwrap().as_slice(), "new state differs\n{text}");
    assert!(out.as_slice() == literal_bytes(&want[1]).unwrap().as_slice(), "bits differ\n{text}");
}

#[test]
fn every_algorithm_type_and_shape() {
    let states: &[(RngAlgorithm, &[u64])] = &[
        (RngAlgorithm::ThreeFry, &[0x1234_5678_9abc_def0, 42]),
        (RngAlgorithm::ThreeFry, &[7, u64::MAX - 3]),
        (RngAlgorithm::Philox, &[0x1234_5678_9abc_def0, 42]),
        (RngAlgorithm::Philox, &[3, u64::MAX - 2]),
        (RngAlgorithm::Philox, &[9, u64::MAX - 1, 17]),
        (RngAlgorithm::Philox, &[9, u64::MAX, u64::MAX]),
        (RngAlgorithm::Default, &[5, 6, 7]),
        (RngAlgorithm::Default, &[5, 6]),
    ];
    let mut count = 0;
    for &(algorithm, state) in states {
        for t in TYPES {
            for dims in SHAPES {
                run_case(algorithm, state, ty(t), dims);
                count += 1;
            }
        }
    }
    assert_eq!(count, 8 * TYPES.len() * SHAPES.len());
}

#[test]
fn large_outputs_are_generated_in_parallel() {
    for algorithm in [RngAlgorithm::ThreeFry, RngAlgorithm::Philox] {
        for t in ["u32", "u64", "bf16"] {
            run_case(algorithm, &[11, 12], ty(t), &[1000, 37]);
            run_case(algorithm, &[11, 12], ty(t), &[333, 3, 75]);
        }
    }
}

#[test]
fn bad_states_and_types_are_errors() {
    let s = Buffer::zeroed(32);
    let mut ns = Buffer::zeroed(32);
    let mut out = Buffer::zeroed(64);
    let mut run = |alg, st: ElementType, sd: &[i64], ot: ElementType| {
        let len = sd.iter().product::<i64>() as usize * byte_size(st);
        rng_bit_generator(
            alg,
            ArrayRef::new(st, sd, &s.as_slice()[..len]),
            ArrayMut::new(st, sd, &mut ns.as_mut_slice()[..len]),
            ArrayMut::new(ot, &[4], &mut out.as_mut_slice()[..4 * byte_size(ot)]),
        )
    };
    assert!(run(RngAlgorithm::Philox, ElementType::U64, &[2], ElementType::U32).is_ok());
    assert!(run(RngAlgorithm::ThreeFry, ElementType::U64, &[3], ElementType::U32).unwrap_err().contains("u64[2]"));
    assert!(run(RngAlgorithm::Philox, ElementType::U64, &[4], ElementType::U32)
        .unwrap_err()
        .contains("u64[2] or u64[3]"));
    assert!(run(RngAlgorithm::Philox, ElementType::S64, &[2], ElementType::U32).unwrap_err().contains("u64"));
    assert!(run(RngAlgorithm::Philox, ElementType::U64, &[2], ElementType::C64).unwrap_err().contains("c64"));
}
