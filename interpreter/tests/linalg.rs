//! Property tests of the linalg family against straightforward reference
//! computations written here (naive loops, naive DFT, reconstruction of
//! factorizations, residuals of solves).

#[path = "linalg_support/mod.rs"]
mod support;
use num_complex::Complex64;
use rxla_interpreter::{Data, Literal};
use support::*;

/// Deterministic pseudo-random values in [-1, 1).
fn values(n: usize, seed: u64) -> Vec<f64> {
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((x >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        })
        .collect()
}

fn f32_vec(l: &Literal) -> Vec<f32> {
    match l.data() {
        Some(Data::F32(v)) => v.clone(),
        other => panic!("expected f32, got {other:?}"),
    }
}
fn f64_vec(l: &Literal) -> Vec<f64> {
    match l.data() {
        Some(Data::F64(v)) => v.clone(),
        other => panic!("expected f64, got {other:?}"),
    }
}
fn c128_vec(l: &Literal) -> Vec<Complex64> {
    match l.data() {
        Some(Data::C128(v)) => v.clone(),
        other => panic!("expected c128, got {other:?}"),
    }
}

fn strides(dims: &[usize]) -> Vec<usize> {
    let mut s = vec![1; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * dims[i + 1];
    }
    s
}

fn unravel(mut i: usize, dims: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; dims.len()];
    for d in (0..dims.len()).rev() {
        idx[d] = i % dims[d];
        i /= dims[d];
    }
    idx
}

/// Naive general dot in f32 (ascending contraction order, like the kernel).
#[allow(clippy::too_many_arguments)]
fn naive_dot(
    l: &[f32],
    ld: &[usize],
    r: &[f32],
    rd: &[usize],
    lb: &[usize],
    rb: &[usize],
    lc: &[usize],
    rc: &[usize],
) -> (Vec<f32>, Vec<usize>) {
    let lfree: Vec<usize> = (0..ld.len()).filter(|d| !lb.contains(d) && !lc.contains(d)).collect();
    let rfree: Vec<usize> = (0..rd.len()).filter(|d| !rb.contains(d) && !rc.contains(d)).collect();
    let mut out_dims: Vec<usize> = lb.iter().map(|&d| ld[d]).collect();
    out_dims.extend(lfree.iter().map(|&d| ld[d]));
    out_dims.extend(rfree.iter().map(|&d| rd[d]));
    let cdims: Vec<usize> = lc.iter().map(|&d| ld[d]).collect();
    let (ls, rs) = (strides(ld), strides(rd));
    let n: usize = out_dims.iter().product();
    let kn: usize = cdims.iter().product();
    let mut out = vec![0f32; n];
    for (o, v) in out.iter_mut().enumerate() {
        let idx = unravel(o, &out_dims);
        let (mut lo, mut ro) = (0, 0);
        for (i, (&a, &b)) in lb.iter().zip(rb).enumerate() {
            lo += idx[i] * ls[a];
            ro += idx[i] * rs[b];
        }
        for (i, &a) in lfree.iter().enumerate() {
            lo += idx[lb.len() + i] * ls[a];
        }
        for (i, &b) in rfree.iter().enumerate() {
            ro += idx[lb.len() + lfree.len() + i] * rs[b];
        }
        let mut acc = 0f32;
        for k in 0..kn {
            let kidx = unravel(k, &cdims);
            let (mut lk, mut rk) = (lo, ro);
            for (i, (&a, &b)) in lc.iter().zip(rc).enumerate() {
                lk += kidx[i] * ls[a];
                rk += kidx[i] * rs[b];
            }
            acc += l[lk] * r[rk];
        }
        *v = acc;
    }
    (out, out_dims)
}

fn list(v: &[usize]) -> String {
    v.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(",")
}

#[allow(clippy::too_many_arguments)]
fn check_dot(ld: &[usize], rd: &[usize], lb: &[usize], rb: &[usize], lc: &[usize], rc: &[usize], seed: u64) {
    let l: Vec<f32> = values(ld.iter().product(), seed).into_iter().map(|x| x as f32).collect();
    let r: Vec<f32> = values(rd.iter().product(), seed + 1).into_iter().map(|x| x as f32).collect();
    let (want, out_dims) = naive_dot(&l, ld, &r, rd, lb, rb, lc, rc);
    let text = format!(
        "HloModule m\n\nENTRY e {{\n  a = f32[{}] parameter(0)\n  b = f32[{}] parameter(1)\n  ROOT d = f32[{}] dot(a, b), lhs_batch_dims={{{}}}, rhs_batch_dims={{{}}}, lhs_contracting_dims={{{}}}, rhs_contracting_dims={{{}}}\n}}\n",
        list(ld), list(rd), list(&out_dims), list(lb), list(rb), list(lc), list(rc)
    );
    let i64s = |d: &[usize]| d.iter().map(|&x| x as i64).collect::<Vec<_>>();
    let got = run(&text, vec![f32a(&i64s(ld), &l), f32a(&i64s(rd), &r)]).unwrap();
    assert_eq!(got.dims(), i64s(&out_dims).as_slice());
    // Same accumulation order as the naive loop: bit-identical.
    assert_eq!(f32_vec(&got), want, "dot {ld:?} x {rd:?}");
}

#[test]
fn dot_matches_naive_for_general_dimension_numbers() {
    check_dot(&[5, 7], &[7, 3], &[], &[], &[1], &[0], 1);
    check_dot(&[7], &[7], &[], &[], &[0], &[0], 2);
    check_dot(&[3, 4, 5], &[5, 3, 6], &[0], &[1], &[2], &[0], 3);
    check_dot(&[2, 3, 4, 5], &[4, 2, 5, 6], &[0], &[1], &[2, 3], &[0, 2], 4);
    check_dot(&[4, 3], &[2], &[], &[], &[], &[], 5);
    check_dot(&[6, 2, 9], &[9, 5, 2], &[1], &[2], &[2], &[0], 6);
    // Row counts that are not multiples of the register tile, widths that
    // are not multiples of the panel, depths over one packed block.
    check_dot(&[13, 300], &[300, 37], &[], &[], &[1], &[0], 7);
}

#[test]
fn dot_large_enough_to_run_on_several_threads_is_exact() {
    // 2 x 150 x 80 x 100 multiply-adds: over the threading threshold.
    check_dot(&[2, 150, 80], &[2, 80, 100], &[0], &[0], &[2], &[1], 8);
    check_dot(&[150, 90], &[100, 90], &[], &[], &[1], &[1], 9);
}

#[test]
fn integer_dot_wraps_in_the_result_type() {
    let text = "HloModule m\n\nENTRY e {\n  a = s64[1,2] parameter(0)\n  b = s64[2,1] parameter(1)\n  ROOT d = s64[1,1] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n";
    let got = run(text, vec![s64a(&[1, 2], &[i64::MAX, 3]), s64a(&[2, 1], &[2, 5])]).unwrap();
    assert_eq!(got.data(), Some(&Data::S64(vec![i64::MAX.wrapping_mul(2).wrapping_add(15)])));
    let text = "HloModule m\n\nENTRY e {\n  a = u8[3] parameter(0)\n  b = u8[3] parameter(1)\n  ROOT d = u32[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n}\n";
    let got = run(text, vec![u8a(&[3], &[255, 255, 2]), u8a(&[3], &[255, 1, 3])]).unwrap();
    assert_eq!(got.data(), Some(&Data::U32(vec![255 * 255 + 255 + 6])));
}

#[test]
fn malformed_dots_are_errors_not_panics() {
    let text = "HloModule m\n\nENTRY e {\n  a = f32[2,3] parameter(0)\n  b = f32[4,2] parameter(1)\n  ROOT d = f32[2,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n";
    let err = run(text, vec![f32a(&[2, 3], &[0.0; 6]), f32a(&[4, 2], &[0.0; 8])]).unwrap_err();
    assert!(err.message.contains("does not match"), "{err}");
    let text = "HloModule m\n\nENTRY e {\n  a = f32[2,3] parameter(0)\n  b = f32[3,2] parameter(1)\n  ROOT d = f32[2,2] dot(a, b), lhs_contracting_dims={5}, rhs_contracting_dims={0}\n}\n";
    assert!(run(text, vec![f32a(&[2, 3], &[0.0; 6]), f32a(&[3, 2], &[0.0; 6])]).is_err());
}

/// Naive convolution following the operation semantics, in f64.
#[allow(clippy::too_many_arguments)]
fn naive_conv_nhwc(
    x: &[f64],
    xd: [usize; 4],
    w: &[f64],
    wd: [usize; 4],
    stride: [usize; 2],
    pad: [(i64, i64); 2],
    lhs_dil: [i64; 2],
    rhs_dil: [i64; 2],
    groups: usize,
) -> (Vec<f64>, [usize; 4]) {
    let [n, h, wi, c] = xd;
    let [kh, kw, ci, o] = wd;
    let out_size = |i: usize, k: usize, s: usize, p: (i64, i64), ld: i64, rd: i64| -> usize {
        let dil_in = (i as i64 - 1) * ld + 1 + p.0 + p.1;
        let dil_k = (k as i64 - 1) * rd + 1;
        ((dil_in - dil_k) / s as i64 + 1).max(0) as usize
    };
    let oh = out_size(h, kh, stride[0], pad[0], lhs_dil[0], rhs_dil[0]);
    let ow = out_size(wi, kw, stride[1], pad[1], lhs_dil[1], rhs_dil[1]);
    let og = o / groups;
    let mut out = vec![0.0; n * oh * ow * o];
    for b in 0..n {
        for y in 0..oh {
            for xx in 0..ow {
                for oc in 0..o {
                    let g = oc / og;
                    let mut acc = 0.0;
                    for ky in 0..kh {
                        for kx in 0..kw {
                            let uy = (y * stride[0]) as i64 - pad[0].0 + ky as i64 * rhs_dil[0];
                            let ux = (xx * stride[1]) as i64 - pad[1].0 + kx as i64 * rhs_dil[1];
                            if uy < 0 || ux < 0 || uy % lhs_dil[0] != 0 || ux % lhs_dil[1] != 0 {
                                continue;
                            }
                            let (iy, ix) = ((uy / lhs_dil[0]) as usize, (ux / lhs_dil[1]) as usize);
                            if iy >= h || ix >= wi {
                                continue;
                            }
                            for icg in 0..ci {
                                let ic = g * ci + icg;
                                acc += x[((b * h + iy) * wi + ix) * c + ic] * w[((ky * kw + kx) * ci + icg) * o + oc];
                            }
                        }
                    }
                    out[((b * oh + y) * ow + xx) * o + oc] = acc;
                }
            }
        }
    }
    (out, [n, oh, ow, o])
}

#[allow(clippy::too_many_arguments)]
fn check_conv(
    xd: [usize; 4],
    wd: [usize; 4],
    stride: [usize; 2],
    pad: [(i64, i64); 2],
    lhs_dil: [i64; 2],
    rhs_dil: [i64; 2],
    groups: usize,
    seed: u64,
) {
    let x = values(xd.iter().product(), seed);
    let w = values(wd.iter().product(), seed + 1);
    let (want, od) = naive_conv_nhwc(&x, xd, &w, wd, stride, pad, lhs_dil, rhs_dil, groups);
    let text = format!(
        "HloModule m\n\nENTRY e {{\n  x = f64[{}] parameter(0)\n  w = f64[{}] parameter(1)\n  ROOT c = f64[{}] convolution(x, w), window={{size={}x{} stride={}x{} pad={}_{}x{}_{} lhs_dilate={}x{} rhs_dilate={}x{}}}, dim_labels=b01f_01io->b01f, feature_group_count={groups}\n}}\n",
        list(&xd), list(&wd), list(&od), wd[0], wd[1], stride[0], stride[1], pad[0].0, pad[0].1, pad[1].0, pad[1].1, lhs_dil[0], lhs_dil[1], rhs_dil[0], rhs_dil[1]
    );
    let i64s = |d: &[usize]| d.iter().map(|&v| v as i64).collect::<Vec<_>>();
    let got = run(&text, vec![f64a(&i64s(&xd), &x), f64a(&i64s(&wd), &w)]).unwrap();
    assert_eq!(got.dims(), i64s(&od).as_slice());
    for (i, (g, e)) in f64_vec(&got).iter().zip(&want).enumerate() {
        assert!((g - e).abs() <= 1e-12 * (1.0 + e.abs()), "conv element {i}: {g} vs {e}");
    }
}

#[test]
fn convolution_matches_naive_reference() {
    check_conv([2, 7, 6, 3], [3, 2, 3, 4], [1, 1], [(0, 0), (0, 0)], [1, 1], [1, 1], 1, 10);
    check_conv([1, 9, 8, 4], [3, 3, 2, 6], [2, 3], [(1, 2), (-1, 0)], [1, 2], [2, 1], 2, 11);
    check_conv([2, 5, 5, 4], [2, 2, 1, 8], [1, 1], [(2, 2), (1, 1)], [2, 2], [1, 1], 4, 12);
    check_conv([1, 4, 4, 2], [5, 5, 2, 1], [1, 1], [(0, 0), (0, 0)], [1, 1], [1, 1], 1, 13);
}

#[test]
fn convolution_processes_large_patch_matrices_in_chunks() {
    // 512 input features x 3x3 taps = 4608 patch columns: the 2048 output
    // rows are built in several chunks.
    check_conv([2, 32, 32, 512], [3, 3, 512, 1], [1, 1], [(1, 1), (1, 1)], [1, 1], [1, 1], 1, 14);
}

fn naive_dft(x: &[Complex64], inverse: bool) -> Vec<Complex64> {
    let n = x.len();
    let sign = if inverse { 1.0 } else { -1.0 };
    (0..n)
        .map(|k| {
            let s: Complex64 = x
                .iter()
                .enumerate()
                .map(|(j, v)| {
                    v * Complex64::from_polar(1.0, sign * 2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64)
                })
                .sum();
            if inverse {
                s / n as f64
            } else {
                s
            }
        })
        .collect()
}

#[test]
fn fft_of_every_length_matches_a_naive_dft() {
    for n in (1..=40).chain([63, 64, 127, 128, 255, 256, 257, 300, 509, 1000, 1024]) {
        let re = values(n, n as u64);
        let im = values(n, 1000 + n as u64);
        let x: Vec<Complex64> = re.iter().zip(&im).map(|(&a, &b)| Complex64::new(a, b)).collect();
        for (ty, inverse) in [("FFT", false), ("IFFT", true)] {
            let text = format!("HloModule m\n\nENTRY e {{\n  x = c128[{n}] parameter(0)\n  ROOT f = c128[{n}] fft(x), fft_type={ty}, fft_length={{{n}}}\n}}\n");
            let pairs: Vec<(f64, f64)> = x.iter().map(|c| (c.re, c.im)).collect();
            let got = c128_vec(&run(&text, vec![c128a(&[n as i64], &pairs)]).unwrap());
            let want = naive_dft(&x, inverse);
            let scale = want.iter().map(|c| c.norm()).fold(1.0, f64::max);
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert!((g - w).norm() <= 1e-11 * scale, "{ty} n={n} element {i}: {g} vs {w}");
            }
        }
    }
}

#[test]
fn rfft_then_irfft_round_trips_odd_and_even_lengths() {
    for n in [1usize, 2, 5, 8, 9, 300] {
        let x = values(3 * n, 77 + n as u64);
        let h = n / 2 + 1;
        let text = format!(
            "HloModule m\n\nENTRY e {{\n  x = f64[3,{n}] parameter(0)\n  r = c128[3,{h}] fft(x), fft_type=RFFT, fft_length={{{n}}}\n  ROOT i = f64[3,{n}] fft(r), fft_type=IRFFT, fft_length={{{n}}}\n}}\n"
        );
        let got = f64_vec(&run(&text, vec![f64a(&[3, n as i64], &x)]).unwrap());
        for (g, w) in got.iter().zip(&x) {
            assert!((g - w).abs() < 1e-12, "n={n}: {g} vs {w}");
        }
    }
}

fn spd(n: usize, seed: u64) -> Vec<f64> {
    let a = values(n * n, seed);
    let mut m = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            m[i * n + j] =
                (0..n).map(|k| a[i * n + k] * a[j * n + k]).sum::<f64>() + if i == j { n as f64 } else { 0.0 };
        }
    }
    m
}

#[test]
fn cholesky_factors_reconstruct_the_matrix_and_zero_the_other_triangle() {
    let n = 7;
    let a = spd(n, 5);
    for lower in [true, false] {
        let text = format!("HloModule m\n\nENTRY e {{\n  a = f64[{n},{n}] parameter(0)\n  ROOT c = f64[{n},{n}] cholesky(a), lower={lower}\n}}\n");
        let f = f64_vec(&run(&text, vec![f64a(&[n as i64, n as i64], &a)]).unwrap());
        for i in 0..n {
            for j in 0..n {
                let other = if lower { j > i } else { j < i };
                if other {
                    assert_eq!(f[i * n + j], 0.0);
                }
                // lower: a = l l^T; upper: a = u^T u.
                let s: f64 =
                    (0..n).map(|k| if lower { f[i * n + k] * f[j * n + k] } else { f[k * n + i] * f[k * n + j] }).sum();
                assert!((s - a[i * n + j]).abs() < 1e-10, "lower={lower} ({i},{j}): {s} vs {}", a[i * n + j]);
            }
        }
    }
}

#[test]
fn cholesky_of_an_indefinite_matrix_is_all_nan_for_that_batch_element_only() {
    let mut a = spd(3, 9);
    a.extend(spd(3, 10));
    a[9 + 4] = -100.0; // second matrix, element (1,1)
    let text =
        "HloModule m\n\nENTRY e {\n  a = f32[2,3,3] parameter(0)\n  ROOT c = f32[2,3,3] cholesky(a), lower=true\n}\n";
    let a32: Vec<f32> = a.iter().map(|&x| x as f32).collect();
    let f = f32_vec(&run(text, vec![f32a(&[2, 3, 3], &a32)]).unwrap());
    assert!(f[..9].iter().all(|x| x.is_finite()));
    assert!(f[9..].iter().all(|x| x.is_nan()));
}

#[test]
fn triangular_solve_residuals_vanish_for_every_option() {
    let m = 5;
    let k = 3;
    let mut a = values(m * m, 21);
    for i in 0..m {
        a[i * m + i] += 4.0;
    }
    for left in [true, false] {
        for lower in [true, false] {
            for unit in [true, false] {
                for tr in ["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"] {
                    let bd = if left { [m, k] } else { [k, m] };
                    let b = values(m * k, 22);
                    let text = format!(
                        "HloModule m\n\nENTRY e {{\n  a = f64[{m},{m}] parameter(0)\n  b = f64[{},{}] parameter(1)\n  ROOT x = f64[{},{}] triangular-solve(a, b), left_side={left}, lower={lower}, unit_diagonal={unit}, transpose_a={tr}\n}}\n",
                        bd[0], bd[1], bd[0], bd[1]
                    );
                    let x = f64_vec(
                        &run(&text, vec![f64a(&[m as i64, m as i64], &a), f64a(&[bd[0] as i64, bd[1] as i64], &b)])
                            .unwrap(),
                    );
                    // op(a) built from the used triangle.
                    let t = |i: usize, j: usize| -> f64 {
                        let (r, c) = if tr == "NO_TRANSPOSE" { (i, j) } else { (j, i) };
                        if r == c && unit {
                            1.0
                        } else if (lower && r >= c) || (!lower && r <= c) {
                            a[r * m + c]
                        } else {
                            0.0
                        }
                    };
                    for r in 0..bd[0] {
                        for c in 0..bd[1] {
                            let s: f64 = if left {
                                (0..m).map(|j| t(r, j) * x[j * k + c]).sum()
                            } else {
                                (0..m).map(|j| x[r * m + j] * t(j, c)).sum()
                            };
                            assert!(
                                (s - b[r * bd[1] + c]).abs() < 1e-10,
                                "left={left} lower={lower} unit={unit} {tr}: ({r},{c})"
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn batch_norm_training_normalizes_each_feature() {
    let x: Vec<f32> = values(4 * 3 * 5, 31).into_iter().map(|v| (v * 3.0 + 1.0) as f32).collect();
    let text = "HloModule m\n\nENTRY e {\n  x = f32[4,3,5] parameter(0)\n  s = f32[3] parameter(1)\n  o = f32[3] parameter(2)\n  ROOT b = (f32[4,3,5], f32[3], f32[3]) batch-norm-training(x, s, o), epsilon=0, feature_index=1\n}\n";
    let out = leaves(
        &run(text, vec![f32a(&[4, 3, 5], &x), f32a(&[3], &[1.0, 2.0, 1.0]), f32a(&[3], &[0.0, 0.0, 5.0])]).unwrap(),
    );
    let y = f32_vec(&out[0]);
    for f in 0..3 {
        let vals: Vec<f64> =
            (0..4).flat_map(|b| (0..5).map(move |i| (b * 3 + f) * 5 + i)).map(|i| y[i] as f64).collect();
        let mean = vals.iter().sum::<f64>() / 20.0;
        let var = vals.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / 20.0;
        let (scale, offset) = ([1.0, 2.0, 1.0][f], [0.0, 0.0, 5.0][f]);
        assert!(
            (mean - offset).abs() < 1e-5 && (var - scale * scale).abs() < 1e-4,
            "feature {f}: mean {mean} var {var}"
        );
    }
}

#[test]
fn unsupported_types_and_bad_attributes_are_errors() {
    let text =
        "HloModule m\n\nENTRY e {\n  a = s32[2,2] parameter(0)\n  ROOT c = s32[2,2] cholesky(a), lower=true\n}\n";
    assert!(run(text, vec![s32a(&[2, 2], &[1, 0, 0, 1])]).is_err());
    let text = "HloModule m\n\nENTRY e {\n  a = c64[4] parameter(0)\n  ROOT f = c64[4] fft(a), fft_type=FFT, fft_length={5}\n}\n";
    assert!(run(text, vec![c64a(&[4], &[(0.0, 0.0); 4])]).is_err());
}
