//! `dot` against the reference interpreter: random dimension numbers and
//! dimension orders, every element-type family, mixed operand types,
//! zero-size arrays, and shapes large enough for the parallel paths.

mod support;
use rxla_interpreter::Literal;
use rxla_library::array::{literal_bytes, ArrayMut, ArrayRef, Buffer, ElementType};
use rxla_library::dot::{dot, DotDims};
use support::*;

/// (lhs, rhs, result) type combinations the interpreter evaluates.
const TYPES: &[(&str, &str, &str)] = &[
    ("f32", "f32", "f32"),
    ("f64", "f64", "f64"),
    ("c64", "c64", "c64"),
    ("c128", "c128", "c128"),
    ("bf16", "bf16", "bf16"),
    ("f16", "f16", "f16"),
    ("bf16", "bf16", "f32"),
    ("f16", "f16", "f32"),
    ("f32", "f32", "bf16"),
    ("f8e4m3fn", "f8e4m3fn", "f32"),
    ("f8e5m2", "f8e5m2", "f8e5m2"),
    ("s8", "s8", "s32"),
    ("s8", "s8", "s8"),
    ("u8", "u8", "u32"),
    ("s32", "s32", "s32"),
    ("s32", "s32", "s16"),
    ("u32", "u32", "u32"),
    ("s64", "s64", "s64"),
    ("u64", "u64", "u64"),
    ("s4", "s4", "s4"),
    ("pred", "pred", "pred"),
    ("s32", "s32", "pred"),
    ("f32", "f32", "s32"),
    ("f32", "f32", "f64"),
    ("f32", "f32", "c64"),
    ("c64", "c64", "c128"),
];

struct Case {
    lt: ElementType,
    rt: ElementType,
    ot: ElementType,
    ld: Vec<usize>,
    rd: Vec<usize>,
    od: Vec<usize>,
    dims: DotDims,
}

impl Case {
    fn k(&self) -> usize {
        self.dims.lhs_contracting.iter().map(|&d| self.ld[d]).product()
    }

    fn hlo(&self) -> String {
        let d = &self.dims;
        let mut attrs = Vec::new();
        for (name, v) in [
            ("lhs_batch_dims", &d.lhs_batch),
            ("lhs_contracting_dims", &d.lhs_contracting),
            ("rhs_batch_dims", &d.rhs_batch),
            ("rhs_contracting_dims", &d.rhs_contracting),
        ] {
            if !v.is_empty() {
                attrs.push(format!("{name}={{{}}}", list(v)));
            }
        }
        let attrs = if attrs.is_empty() { String::new() } else { format!(", {}", attrs.join(", ")) };
        format!(
            "HloModule m\n\nENTRY e {{\n  p0 = {} parameter(0)\n  p1 = {} parameter(1)\n  ROOT d = {} dot(p0, p1){attrs}\n}}\n",
            shape_text(self.lt, &self.ld),
            shape_text(self.rt, &self.rd),
            shape_text(self.ot, &self.od)
        )
    }
}

/// A random case: dims of each role with random sizes, each operand's
/// dims in a random order.
fn random_case(rng: &mut Rng, types: (&str, &str, &str), max: usize) -> Case {
    let (nb, nc, nl, nr) = (rng.below(3), rng.below(3), rng.below(3), rng.below(3));
    let size = |rng: &mut Rng| if rng.below(25) == 0 { 0 } else { 1 + rng.below(max) };
    let bs: Vec<usize> = (0..nb).map(|_| size(rng)).collect();
    let cs: Vec<usize> = (0..nc).map(|_| size(rng)).collect();
    let ls: Vec<usize> = (0..nl).map(|_| size(rng)).collect();
    let rs: Vec<usize> = (0..nr).map(|_| size(rng)).collect();
    // Roles: 0 batch, 1 contracting, 2 free; (role, index within role).
    let mut lroles: Vec<(u8, usize)> =
        (0..nb).map(|i| (0, i)).chain((0..nc).map(|i| (1, i))).chain((0..nl).map(|i| (2, i))).collect();
    let mut rroles: Vec<(u8, usize)> =
        (0..nb).map(|i| (0, i)).chain((0..nc).map(|i| (1, i))).chain((0..nr).map(|i| (2, i))).collect();
    rng.shuffle(&mut lroles);
    rng.shuffle(&mut rroles);
    let place = |roles: &[(u8, usize)], free: &[usize]| -> (Vec<usize>, Vec<usize>, Vec<usize>, Vec<usize>) {
        let dims: Vec<usize> = roles
            .iter()
            .map(|&(r, i)| match r {
                0 => bs[i],
                1 => cs[i],
                _ => free[i],
            })
            .collect();
        let find = |role: u8, i: usize| roles.iter().position(|&x| x == (role, i)).unwrap();
        let batch = (0..nb).map(|i| find(0, i)).collect();
        let contracting = (0..nc).map(|i| find(1, i)).collect();
        // Free dims keep their operand order in the result.
        let free_sizes = roles.iter().filter(|r| r.0 == 2).map(|&(_, i)| free[i]).collect();
        (dims, batch, contracting, free_sizes)
    };
    let (ld, lb, lc, lfree) = place(&lroles, &ls);
    let (rd, rb, rc, rfree) = place(&rroles, &rs);
    let od: Vec<usize> = bs.iter().chain(&lfree).chain(&rfree).copied().collect();
    Case {
        lt: ty(types.0),
        rt: ty(types.1),
        ot: ty(types.2),
        ld,
        rd,
        od,
        dims: DotDims { lhs_batch: lb, rhs_batch: rb, lhs_contracting: lc, rhs_contracting: rc },
    }
}

fn check(case: &Case, rng: &mut Rng) {
    let lhs = random_literal(rng, case.lt, &case.ld, 1.0);
    let rhs = random_literal(rng, case.rt, &case.rd, 1.0);
    let text = case.hlo();
    let want = run_hlo(&text, &[lhs.clone(), rhs.clone()]);
    let got = run_library(case, &lhs, &rhs);
    // Accumulation order differs: the error grows like sqrt(K) times the
    // result's magnitude; the final rounding may differ by one ulp.
    let k = case.k().max(1) as f64;
    let compute_eps = match case.ot {
        ElementType::F64 | ElementType::C128 => f64::EPSILON,
        _ => f32::EPSILON as f64,
    };
    let atol = 8.0 * compute_eps * k.sqrt() * max_abs(&want).max(1.0);
    assert_close(&got, &want, 2.0 * epsilon(case.ot), atol, &text);
}

fn run_library(case: &Case, lhs: &Literal, rhs: &Literal) -> Vec<u8> {
    let (lb, rb) = (buffer(lhs), buffer(rhs));
    let od: Vec<i64> = case.od.iter().map(|&d| d as i64).collect();
    let ld: Vec<i64> = case.ld.iter().map(|&d| d as i64).collect();
    let rd: Vec<i64> = case.rd.iter().map(|&d| d as i64).collect();
    let mut out = Buffer::zeroed(od.iter().product::<i64>() as usize * rxla_library::array::byte_size(case.ot));
    dot(
        ArrayRef::new(case.lt, &ld, lb.as_slice()),
        ArrayRef::new(case.rt, &rd, rb.as_slice()),
        ArrayMut::new(case.ot, &od, out.as_mut_slice()),
        &case.dims,
    )
    .unwrap_or_else(|e| panic!("{e}\n{}", case.hlo()));
    out.as_slice().to_vec()
}

#[test]
fn random_dimension_numbers_and_types() {
    let mut rng = Rng::new(1);
    let mut count = 0;
    for &types in TYPES {
        for _ in 0..40 {
            let case = random_case(&mut rng, types, 5);
            check(&case, &mut rng);
            count += 1;
        }
    }
    assert_eq!(count, TYPES.len() * 40);
}

/// A plain matmul case `[m, k] x [k, n]`, operands optionally transposed.
fn matmul_case(t: &str, m: usize, k: usize, n: usize, lt: bool, rt: bool, batch: Option<usize>) -> Case {
    let b: Vec<usize> = batch.into_iter().collect();
    let off = b.len();
    let (ld, lc) =
        if lt { ([b.clone(), vec![k, m]].concat(), off) } else { ([b.clone(), vec![m, k]].concat(), off + 1) };
    let (rd, rc) =
        if rt { ([b.clone(), vec![n, k]].concat(), off + 1) } else { ([b.clone(), vec![k, n]].concat(), off) };
    let od = [b.clone(), vec![m, n]].concat();
    let bd: Vec<usize> = (0..off).collect();
    Case {
        lt: ty(t),
        rt: ty(t),
        ot: ty(t),
        ld,
        rd,
        od,
        dims: DotDims { lhs_batch: bd.clone(), rhs_batch: bd, lhs_contracting: vec![lc], rhs_contracting: vec![rc] },
    }
}

#[test]
fn transposed_and_batched_matmuls() {
    let mut rng = Rng::new(2);
    for t in ["f32", "f64", "c64", "bf16", "s32"] {
        for (lt, rt) in [(false, false), (true, false), (false, true), (true, true)] {
            for batch in [None, Some(3)] {
                let case = matmul_case(t, 37, 45, 29, lt, rt, batch);
                check(&case, &mut rng);
            }
        }
    }
}

#[test]
fn large_products_use_the_parallel_paths() {
    let mut rng = Rng::new(3);
    // One product above the threading threshold, gemm and integer kernels.
    for t in ["f32", "c128", "s64"] {
        check(&matmul_case(t, 130, 70, 90, false, true, None), &mut rng);
    }
    // Many small products: parallel over the batch.
    check(&matmul_case("f32", 16, 16, 16, false, false, Some(80)), &mut rng);
    // Attention shapes: [b, q, d] x [b, k, d] -> [b, q, k], then x [b, k, d].
    let scores = Case {
        lt: ty("f32"),
        rt: ty("f32"),
        ot: ty("f32"),
        ld: vec![4, 65, 16],
        rd: vec![4, 63, 16],
        od: vec![4, 65, 63],
        dims: DotDims { lhs_batch: vec![0], rhs_batch: vec![0], lhs_contracting: vec![2], rhs_contracting: vec![2] },
    };
    check(&scores, &mut rng);
    check(&matmul_case("f32", 65, 63, 16, false, false, Some(4)), &mut rng);
}

#[test]
fn zero_size_and_empty_contractions() {
    let mut rng = Rng::new(4);
    for t in ["f32", "s32", "bf16", "pred"] {
        for (m, k, n) in [(0, 3, 4), (3, 0, 4), (3, 4, 0), (0, 0, 0)] {
            check(&matmul_case(t, m, k, n, false, false, None), &mut rng);
        }
    }
}

#[test]
fn integers_wrap_exactly() {
    // Products that overflow 32 bits and wrap.
    let mut rng = Rng::new(5);
    for t in ["s32", "u32", "s64", "u64", "s16", "u8"] {
        let case = matmul_case(t, 9, 17, 5, false, true, None);
        // random_literal's ranges make these products overflow the type.
        let lhs = random_literal(&mut rng, case.lt, &case.ld, 1.0);
        let rhs = random_literal(&mut rng, case.rt, &case.rd, 1.0);
        let want = run_hlo(&case.hlo(), &[lhs.clone(), rhs.clone()]);
        assert_close(&run_library(&case, &lhs, &rhs), &want, 0.0, 0.0, &case.hlo());
    }
}

#[test]
fn bad_shapes_are_errors() {
    let a = Buffer::zeroed(24);
    let mut o = Buffer::zeroed(16);
    let lhs = ArrayRef::new(ElementType::F32, &[2, 3], a.as_slice());
    let err =
        dot(lhs, lhs, ArrayMut::new(ElementType::F32, &[2, 2], o.as_mut_slice()), &DotDims::matmul()).unwrap_err();
    assert!(err.contains("dot"), "{err}");
    let err = dot(
        lhs,
        lhs,
        ArrayMut::new(ElementType::F32, &[2, 2], o.as_mut_slice()),
        &DotDims { lhs_contracting: vec![1], rhs_contracting: vec![5], ..Default::default() },
    )
    .unwrap_err();
    assert!(err.contains("out of range"), "{err}");
    let err = dot(
        lhs,
        lhs,
        ArrayMut::new(ElementType::Token, &[], &mut []),
        &DotDims { lhs_contracting: vec![0, 1], rhs_contracting: vec![0, 1], ..Default::default() },
    )
    .unwrap_err();
    assert!(err.contains("token"), "{err}");
}

#[test]
fn nan_and_infinity_propagate() {
    let mut rng = Rng::new(6);
    for t in ["f32", "f64", "bf16", "c64"] {
        for (lt, rt) in [(false, false), (true, true)] {
            let case = matmul_case(t, 19, 23, 17, lt, rt, None);
            // Complex gemm kernels accumulate the re*re and im*im products
            // apart and subtract at the end, so an infinite complex operand
            // may give NaN where the interpreter's direct products give
            // inf: complex cases get NaN only.
            let kinds = if t == "c64" { 1 } else { 3 };
            let special = |rng: &mut Rng, l: Literal| -> Literal {
                // Sprinkle NaN, +inf and -inf through a copy of `l`.
                let mut v: Vec<f32> = values(&l).iter().map(|x| x.0 as f32).collect();
                for x in v.iter_mut() {
                    let r = rng.below(40);
                    match if r < kinds { r } else { 3 } {
                        0 => *x = f32::NAN,
                        1 => *x = f32::INFINITY,
                        2 => *x = f32::NEG_INFINITY,
                        _ => {}
                    }
                }
                match lit_type(&l) {
                    ElementType::C64 => Literal::array(
                        l.dims().to_vec(),
                        rxla_interpreter::Data::C64(v.iter().map(|&x| num_complex::Complex32::new(x, 0.5)).collect()),
                    ),
                    t => Literal::from_f32_vec(t, l.dims().to_vec(), v),
                }
            };
            let lhs = random_literal(&mut rng, case.lt, &case.ld, 1.0);
            let lhs = special(&mut rng, lhs);
            let rhs = random_literal(&mut rng, case.rt, &case.rd, 1.0);
            let rhs = special(&mut rng, rhs);
            let want = run_hlo(&case.hlo(), &[lhs.clone(), rhs.clone()]);
            let atol = 64.0 * f32::EPSILON as f64 * max_abs(&want).max(1.0);
            assert_close(&run_library(&case, &lhs, &rhs), &want, 2.0 * epsilon(case.ot), atol, &case.hlo());
        }
    }
}

#[test]
fn unaligned_buffers_are_copied_not_rejected() {
    let mut rng = Rng::new(7);
    let case = matmul_case("f64", 5, 6, 7, false, false, None);
    let lhs = random_literal(&mut rng, case.lt, &case.ld, 1.0);
    let rhs = random_literal(&mut rng, case.rt, &case.rd, 1.0);
    let want = run_hlo(&case.hlo(), &[lhs.clone(), rhs.clone()]);
    // Every view one byte past an aligned start.
    let shifted = |l: &Literal| {
        let bytes = literal_bytes(l).unwrap();
        let mut b = Buffer::zeroed(bytes.len() + 1);
        b.as_mut_slice()[1..].copy_from_slice(&bytes);
        b
    };
    let (lb, rb) = (shifted(&lhs), shifted(&rhs));
    let mut out = Buffer::zeroed(5 * 7 * 8 + 1);
    dot(
        ArrayRef::new(case.lt, &[5, 6], &lb.as_slice()[1..]),
        ArrayRef::new(case.rt, &[6, 7], &rb.as_slice()[1..]),
        ArrayMut::new(case.ot, &[5, 7], &mut out.as_mut_slice()[1..]),
        &case.dims,
    )
    .unwrap();
    assert_close(&out.as_slice()[1..], &want, 0.0, 1e-14, "unaligned f64 dot");
}
