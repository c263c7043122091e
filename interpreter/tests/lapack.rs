//! LAPACK's FFI custom calls (`lapack_?*_ffi`, as JAX's CPU lowering emits
//! them) checked against the identities that define them: `L L^H = A`,
//! `P A = L U` with LAPACK's pivots, `Q R = A` with orthonormal `Q`,
//! `A V = V diag(w)`, `U diag(s) V^H = A`, triangular residuals; for f32,
//! f64 and a complex type, batched, and `info` on failing inputs.

#[path = "linalg_support/mod.rs"]
mod support;
use num_complex::{Complex32, Complex64};
use rxla_interpreter::{Data, Literal};
use support::{leaves, run};

type C = Complex64;

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

/// Random entries of type `ty` (complex types get random imaginary parts).
fn random(ty: &str, n: usize, seed: u64) -> Vec<C> {
    let re = values(n, seed);
    let im = values(n, seed + 1000);
    re.iter().zip(&im).map(|(&r, &i)| C::new(r, if complex(ty) { i } else { 0.0 })).collect()
}

fn complex(ty: &str) -> bool {
    ty.starts_with('c')
}

/// The LAPACK prefix and real type of `ty`.
fn prefix(ty: &str) -> (char, &'static str) {
    match ty {
        "f32" => ('s', "f32"),
        "f64" => ('d', "f64"),
        "c64" => ('c', "f32"),
        "c128" => ('z', "f64"),
        _ => unreachable!("{ty}"),
    }
}

/// Tolerance of identities in `ty`'s precision for matrices of size ~n.
fn tol(ty: &str) -> f64 {
    if prefix(ty).1 == "f32" {
        2e-5
    } else {
        1e-12
    }
}

fn literal(ty: &str, dims: &[i64], v: &[C]) -> Literal {
    let data = match ty {
        "f32" => Data::F32(v.iter().map(|c| c.re as f32).collect()),
        "f64" => Data::F64(v.iter().map(|c| c.re).collect()),
        "c64" => Data::C64(v.iter().map(|c| Complex32::new(c.re as f32, c.im as f32)).collect()),
        "c128" => Data::C128(v.to_vec()),
        _ => unreachable!("{ty}"),
    };
    Literal::array(dims.to_vec(), data)
}

/// Any float or complex literal as c128; s32 as its values.
fn cvals(l: &Literal) -> Vec<C> {
    match l.data() {
        Some(Data::F32(v)) => v.iter().map(|&x| C::new(x as f64, 0.0)).collect(),
        Some(Data::F64(v)) => v.iter().map(|&x| C::new(x, 0.0)).collect(),
        Some(Data::C64(v)) => v.iter().map(|x| C::new(x.re as f64, x.im as f64)).collect(),
        Some(Data::C128(v)) => v.clone(),
        other => panic!("expected a float or complex array, got {other:?}"),
    }
}

fn ints(l: &Literal) -> Vec<i32> {
    match l.data() {
        Some(Data::S32(v)) => v.clone(),
        other => panic!("expected s32, got {other:?}"),
    }
}

fn shape(ty: &str, dims: &[usize]) -> String {
    format!("{ty}[{}]", dims.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(","))
}

/// A module applying `target` to parameters of `params` types, returning
/// `result`, with `backend_config`.
fn module(target: &str, params: &[String], result: &str, config: &str) -> String {
    let decls: String = params.iter().enumerate().map(|(i, p)| format!("  p{i} = {p} parameter({i})\n")).collect();
    let names: Vec<String> = (0..params.len()).map(|i| format!("p{i}")).collect();
    format!(
        "HloModule m\n\nENTRY e {{\n{decls}  ROOT r = {result} custom-call({}), custom_call_target=\"{target}\", \
         api_version=API_VERSION_TYPED_FFI, frontend_attributes={{num_batch_dims=\"1\"}}, backend_config={config}\n}}\n",
        names.join(", ")
    )
}

fn matmul(a: &[C], b: &[C], m: usize, k: usize, n: usize) -> Vec<C> {
    let mut c = vec![C::new(0.0, 0.0); m * n];
    for i in 0..m {
        for j in 0..n {
            c[i * n + j] = (0..k).map(|l| a[i * k + l] * b[l * n + j]).sum();
        }
    }
    c
}

fn adjoint(a: &[C], m: usize, n: usize) -> Vec<C> {
    let mut t = vec![C::new(0.0, 0.0); m * n];
    for i in 0..m {
        for j in 0..n {
            t[j * m + i] = a[i * n + j].conj();
        }
    }
    t
}

fn identity(n: usize) -> Vec<C> {
    let mut x = vec![C::new(0.0, 0.0); n * n];
    (0..n).for_each(|i| x[i * n + i] = C::new(1.0, 0.0));
    x
}

fn assert_close(got: &[C], want: &[C], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    let scale = want.iter().map(|x| x.norm()).fold(1.0, f64::max);
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).norm() <= tol * scale, "{what}: element {i}: got {g}, want {w} (tol {tol})");
    }
}

/// Hermitian positive definite: `X X^H + n I`.
fn hpd(ty: &str, n: usize, seed: u64) -> Vec<C> {
    let x = random(ty, n * n, seed);
    let mut a = matmul(&x, &adjoint(&x, n, n), n, n, n);
    (0..n).for_each(|i| a[i * n + i] += C::new(n as f64, 0.0));
    a
}

fn hermitian(ty: &str, n: usize, seed: u64) -> Vec<C> {
    let x = random(ty, n * n, seed);
    let xh = adjoint(&x, n, n);
    x.iter().zip(&xh).map(|(a, b)| (a + b) * 0.5).collect()
}

const TYPES: [&str; 3] = ["f32", "f64", "c64"];
const ALL_TYPES: [&str; 4] = ["f32", "f64", "c64", "c128"];

// ---------------------------------------------------------------------------
// potrf

#[test]
fn potrf_factors_the_uplo_triangle_and_keeps_the_other() {
    let (batch, n) = (3, 5);
    for ty in ALL_TYPES {
        for (uplo, lower) in [(76, true), (85, false)] {
            let mut a = Vec::new();
            for b in 0..batch {
                a.extend(hpd(ty, n, 10 + b as u64));
            }
            let (p, _) = prefix(ty);
            let text = module(
                &format!("lapack_{p}potrf_ffi"),
                &[shape(ty, &[batch, n, n])],
                &format!("({}, s32[{batch}])", shape(ty, &[batch, n, n])),
                &format!("{{uplo = {uplo} : ui8}}"),
            );
            let input = literal(ty, &[batch as i64, n as i64, n as i64], &a);
            let out = leaves(&run(&text, vec![input.clone()]).unwrap());
            assert_eq!(ints(&out[1]), vec![0; batch], "{ty} info");
            let f = cvals(&out[0]);
            let a = cvals(&input);
            for b in 0..batch {
                let (fm, am) = (&f[b * n * n..(b + 1) * n * n], &a[b * n * n..(b + 1) * n * n]);
                // The factor's triangle, the rest zero.
                let mut t = vec![C::new(0.0, 0.0); n * n];
                for i in 0..n {
                    for j in 0..n {
                        if i == j || (i > j) == lower {
                            t[i * n + j] = fm[i * n + j];
                        } else if i != j {
                            assert_eq!(fm[i * n + j], am[i * n + j], "{ty} other triangle kept");
                        }
                    }
                    assert!(fm[i * n + i].im == 0.0 && fm[i * n + i].re > 0.0, "{ty} real positive diagonal");
                }
                let product = if lower {
                    matmul(&t, &adjoint(&t, n, n), n, n, n)
                } else {
                    matmul(&adjoint(&t, n, n), &t, n, n, n)
                };
                assert_close(&product, am, tol(ty), &format!("{ty} uplo {uplo} reconstruction"));
            }
        }
    }
}

#[test]
fn potrf_info_is_the_order_of_the_first_indefinite_minor() {
    // Leading minors of order 1, 2 positive; order 3 is not.
    let a = [4.0, 2.0, 0.0, 2.0, 5.0, 3.0, 0.0, 3.0, 1.0];
    let pd = [4.0, 2.0, 0.0, 2.0, 5.0, 0.0, 0.0, 0.0, 1.0];
    let first = [-1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    let v: Vec<C> = a.iter().chain(&pd).chain(&first).map(|&x| C::new(x, 0.0)).collect();
    for ty in ["f32", "f64"] {
        let text = module(
            &format!("lapack_{}potrf_ffi", prefix(ty).0),
            &[shape(ty, &[3, 3, 3])],
            &format!("({}, s32[3])", shape(ty, &[3, 3, 3])),
            "{uplo = 76 : ui8}",
        );
        let out = leaves(&run(&text, vec![literal(ty, &[3, 3, 3], &v)]).unwrap());
        assert_eq!(ints(&out[1]), vec![3, 0, 1], "{ty}");
    }
}

#[test]
fn potrf_goes_on_past_a_nan_pivot() {
    // As OpenBLAS's potrf (XLA:CPU's): only a pivot <= 0 stops; NaN
    // spreads through the rest, the leading entry is kept, info is 0.
    let v: Vec<C> = [4.0, f64::NAN, f64::NAN, 2.0].iter().map(|&x| C::new(x, 0.0)).collect();
    let text = module("lapack_spotrf_ffi", &["f32[2,2]".into()], "(f32[2,2], s32[])", "{uplo = 76 : ui8}");
    let out = leaves(&run(&text, vec![literal("f32", &[2, 2], &v)]).unwrap());
    assert_eq!(ints(&out[1]), vec![0]);
    let f = cvals(&out[0]);
    assert_eq!(f[0].re, 2.0);
    assert!(f[2].re.is_nan() && f[3].re.is_nan());
}

// ---------------------------------------------------------------------------
// trsm

#[test]
fn trsm_solves_every_side_triangle_transpose_and_diagonal() {
    let (batch, m, k) = (2usize, 4usize, 3usize);
    for ty in ["f32", "f64", "c64", "c128"] {
        for side in [76u8, 82] {
            for uplo in [76u8, 85] {
                for trans in [78u8, 84, 67] {
                    for diag in [78u8, 85] {
                        let left = side == 76;
                        let b_dims = if left { [batch, m, k] } else { [batch, k, m] };
                        let mut a = random(ty, batch * m * m, 3);
                        for bi in 0..batch {
                            for i in 0..m {
                                a[bi * m * m + i * m + i] += C::new(4.0, 0.0);
                            }
                        }
                        let b = random(ty, batch * m * k, 4);
                        let text = module(
                            &format!("lapack_{}trsm_ffi", prefix(ty).0),
                            &[shape(ty, &[batch, m, m]), shape(ty, &b_dims)],
                            &shape(ty, &b_dims),
                            &format!("{{diag = {diag} : ui8, side = {side} : ui8, trans_x = {trans} : ui8, uplo = {uplo} : ui8}}"),
                        );
                        let bd: Vec<i64> = b_dims.iter().map(|&d| d as i64).collect();
                        let al = literal(ty, &[batch as i64, m as i64, m as i64], &a);
                        let bl = literal(ty, &bd, &b);
                        let x = cvals(&run(&text, vec![al.clone(), bl.clone()]).unwrap());
                        let (a, b) = (cvals(&al), cvals(&bl));
                        let what = format!("{ty} side {side} uplo {uplo} trans {trans} diag {diag}");
                        for bi in 0..batch {
                            // op(triangle of a), with a unit diagonal for 'U'.
                            let am = &a[bi * m * m..(bi + 1) * m * m];
                            let mut t = vec![C::new(0.0, 0.0); m * m];
                            for i in 0..m {
                                for j in 0..m {
                                    if i == j && diag == 85 {
                                        t[i * m + j] = C::new(1.0, 0.0);
                                    } else if (i >= j) == (uplo == 76) || i == j {
                                        t[i * m + j] = am[i * m + j];
                                    }
                                }
                            }
                            let op = match trans {
                                78 => t,
                                84 => adjoint(&t, m, m).iter().map(|x| x.conj()).collect(),
                                _ => adjoint(&t, m, m),
                            };
                            let xm = &x[bi * m * k..(bi + 1) * m * k];
                            let product = if left { matmul(&op, xm, m, m, k) } else { matmul(xm, &op, k, m, m) };
                            assert_close(&product, &b[bi * m * k..(bi + 1) * m * k], 10.0 * tol(ty), &what);
                        }
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// getrf

/// Runs getrf on `[batch, m, n]`; (lu, ipiv, info).
fn getrf(ty: &str, batch: usize, m: usize, n: usize, a: &[C]) -> (Vec<C>, Vec<i32>, Vec<i32>) {
    let k = m.min(n);
    let text = module(
        &format!("lapack_{}getrf_ffi", prefix(ty).0),
        &[shape(ty, &[batch, m, n])],
        &format!("({}, s32[{batch},{k}], s32[{batch}])", shape(ty, &[batch, m, n])),
        "{}",
    );
    let out = leaves(&run(&text, vec![literal(ty, &[batch as i64, m as i64, n as i64], a)]).unwrap());
    (cvals(&out[0]), ints(&out[1]), ints(&out[2]))
}

#[test]
fn getrf_gives_p_a_equal_l_u_with_lapack_pivots() {
    let batch = 2;
    for ty in ALL_TYPES {
        for (m, n) in [(5, 5), (6, 3), (3, 6)] {
            let a = random(ty, batch * m * n, 7 + m as u64);
            let a = cvals(&literal(ty, &[(batch * m * n) as i64], &a));
            let (lu, ipiv, info) = getrf(ty, batch, m, n, &a);
            assert_eq!(info, vec![0; batch], "{ty} info");
            let k = m.min(n);
            for b in 0..batch {
                let (lm, am) = (&lu[b * m * n..(b + 1) * m * n], &a[b * m * n..(b + 1) * m * n]);
                // P A: the row swaps applied in order.
                let mut pa = am.to_vec();
                for (j, &p) in ipiv[b * k..(b + 1) * k].iter().enumerate() {
                    let p = p as usize - 1;
                    assert!(p >= j && p < m, "{ty} pivot {p} at step {j}");
                    for c in 0..n {
                        pa.swap(j * n + c, p * n + c);
                    }
                }
                let (mut l, mut u) = (vec![C::new(0.0, 0.0); m * k], vec![C::new(0.0, 0.0); k * n]);
                for i in 0..m {
                    for j in 0..n {
                        if i > j && j < k {
                            l[i * k + j] = lm[i * n + j];
                            // Partial pivoting on |re| + |im|: multipliers of modulus at
                            // most 1 (reals) or sqrt(2).
                            let bound = if complex(ty) { 2f64.sqrt() } else { 1.0 };
                            assert!(lm[i * n + j].norm() <= bound + 1e-6, "{ty} multiplier {}", lm[i * n + j]);
                        } else if i <= j && i < k {
                            u[i * n + j] = lm[i * n + j];
                        }
                    }
                    if i < k {
                        l[i * k + i] = C::new(1.0, 0.0);
                    }
                }
                assert_close(&matmul(&l, &u, m, k, n), &pa, 10.0 * tol(ty), &format!("{ty} {m}x{n} P A = L U"));
            }
        }
    }
}

#[test]
fn getrf_pivots_on_the_first_largest_entry_and_reports_zero_pivots() {
    // Column 0 has two entries of largest magnitude (rows 1 and 2): the
    // first wins. The matrix is singular: U[2][2] = 0.
    let a: Vec<C> = [1.0, 2.0, 3.0, -4.0, 1.0, 1.0, 4.0, 3.0, 5.0].iter().map(|&x| C::new(x, 0.0)).collect();
    let (lu, ipiv, info) = getrf("f64", 1, 3, 3, &a);
    assert_eq!(ipiv[0], 2);
    assert_eq!(lu[0], C::new(-4.0, 0.0));
    assert_eq!(info, vec![0]);
    let singular: Vec<C> = [1.0, 2.0, 3.0, 2.0, 4.0, 6.0, 1.0, 1.0, 1.0].iter().map(|&x| C::new(x, 0.0)).collect();
    for ty in ["f32", "f64", "c64"] {
        let (_, ipiv, info) = getrf(ty, 1, 3, 3, &singular);
        assert_eq!(ipiv, vec![2, 3, 3], "{ty}");
        assert_eq!(info, vec![3], "{ty}");
    }
    // A zero first column: info 1, and elimination goes on.
    let zero_col: Vec<C> = [0.0, 1.0, 0.0, 2.0].iter().map(|&x| C::new(x, 0.0)).collect();
    let (_, ipiv, info) = getrf("f32", 1, 2, 2, &zero_col);
    assert_eq!((ipiv, info), (vec![1, 2], vec![1]));
}

// ---------------------------------------------------------------------------
// geqrf and orgqr/ungqr

/// geqrf then orgqr on the first `q_cols` columns (padded with zero
/// columns when more than n, as JAX's mode="complete" does): (R-and-
/// reflectors, tau, Q).
fn qr(ty: &str, batch: usize, m: usize, n: usize, a: &[C], q_cols: usize) -> (Vec<C>, Vec<C>, Vec<C>) {
    let k = m.min(n);
    let (p, _) = prefix(ty);
    let orgqr = if complex(ty) { "ungqr" } else { "orgqr" };
    let text = format!(
        "HloModule m\n\nENTRY e {{\n  a = {a_shape} parameter(0)\n  \
         f = ({a_shape}, {tau_shape}) custom-call(a), custom_call_target=\"lapack_{p}geqrf_ffi\", api_version=API_VERSION_TYPED_FFI, backend_config={{}}\n  \
         r = {a_shape} get-tuple-element(f), index=0\n  tau = {tau_shape} get-tuple-element(f), index=1\n  \
         z = {ty}[] constant({zero})\n  \
         padded = {q_shape} pad(r, z), padding=0_0x0_0x0_{pad}\n  \
         s = {q_in_shape} slice(padded), slice={{[0:{batch}], [0:{m}], [0:{q_cols}]}}\n  \
         q = {q_in_shape} custom-call(s, tau), custom_call_target=\"lapack_{p}{orgqr}_ffi\", api_version=API_VERSION_TYPED_FFI, backend_config={{}}\n  \
         ROOT t = ({a_shape}, {tau_shape}, {q_in_shape}) tuple(r, tau, q)\n}}\n",
        a_shape = shape(ty, &[batch, m, n]),
        tau_shape = shape(ty, &[batch, k]),
        q_shape = shape(ty, &[batch, m, n.max(q_cols)]),
        q_in_shape = shape(ty, &[batch, m, q_cols]),
        pad = q_cols.saturating_sub(n),
        zero = if complex(ty) { "(0, 0)" } else { "0" },
    );
    let out = leaves(&run(&text, vec![literal(ty, &[batch as i64, m as i64, n as i64], a)]).unwrap());
    (cvals(&out[0]), cvals(&out[1]), cvals(&out[2]))
}

#[test]
fn geqrf_and_orgqr_give_orthonormal_q_and_upper_r_with_q_r_equal_a() {
    let batch = 2;
    for ty in ALL_TYPES {
        // Tall (reduced and complete Q) and wide (Q from the square part).
        for (m, n, q_cols) in [(6, 4, 4), (5, 3, 5), (4, 4, 4), (3, 5, 3)] {
            let a = cvals(&literal(ty, &[(batch * m * n) as i64], &random(ty, batch * m * n, 20 + m as u64)));
            let (rf, tau, q) = qr(ty, batch, m, n, &a, q_cols);
            let k = m.min(n);
            for b in 0..batch {
                let (rm, am, qm) = (
                    &rf[b * m * n..(b + 1) * m * n],
                    &a[b * m * n..(b + 1) * m * n],
                    &q[b * m * q_cols..(b + 1) * m * q_cols],
                );
                let what = format!("{ty} {m}x{n} -> Q {m}x{q_cols}");
                assert_close(
                    &matmul(&adjoint(qm, m, q_cols), qm, q_cols, m, q_cols),
                    &identity(q_cols),
                    tol(ty),
                    &format!("{what} Q^H Q"),
                );
                // R: the upper triangle of the first rows, zero-padded to q_cols rows.
                let mut r = vec![C::new(0.0, 0.0); q_cols * n];
                for i in 0..q_cols.min(m) {
                    for j in i..n {
                        r[i * n + j] = rm[i * n + j];
                    }
                }
                assert_close(&matmul(qm, &r, m, q_cols, n), am, 10.0 * tol(ty), &format!("{what} Q R"));
                // LAPACK's larfg: tau real in [1, 2] for reals (or 0).
                for t in &tau[b * k..(b + 1) * k] {
                    if !complex(ty) {
                        assert!(t.im == 0.0 && (t.re == 0.0 || (1.0..=2.0).contains(&t.re)), "{what}: tau {t}");
                    }
                }
            }
        }
    }
}

#[test]
fn geqrf_follows_larfg_signs() {
    // beta = -sign(alpha) * norm, tau = (beta - alpha) / beta, v = x / (alpha - beta).
    let a: Vec<C> = [3.0, 4.0].iter().map(|&x| C::new(x, 0.0)).collect();
    let (r, tau, q) = qr("f64", 1, 2, 1, &a, 1);
    assert_close(&r, &[C::new(-5.0, 0.0), C::new(0.5, 0.0)], 1e-15, "r");
    assert_close(&tau, &[C::new(1.6, 0.0)], 1e-15, "tau");
    assert_close(&q, &[C::new(-0.6, 0.0), C::new(-0.8, 0.0)], 1e-15, "q");
    // A zero column below the diagonal: tau = 0 (real); complex zlarfg
    // still makes a complex diagonal real.
    let a = [C::new(2.0, 0.0), C::new(0.0, 0.0)];
    let (_, tau, _) = qr("f32", 1, 2, 1, &a, 1);
    assert_eq!(tau, vec![C::new(0.0, 0.0)]);
    let a = [C::new(0.0, 2.0), C::new(0.0, 0.0)];
    let (r, tau, _) = qr("c128", 1, 2, 1, &a, 1);
    assert_close(&r[..1], &[C::new(-2.0, 0.0)], 1e-15, "complex beta");
    assert_close(&tau, &[C::new(1.0, 1.0)], 1e-15, "complex tau");
}

// ---------------------------------------------------------------------------
// syevd/heevd

fn eigh(ty: &str, batch: usize, n: usize, a: &[C], mode: u8, uplo: u8) -> (Vec<C>, Vec<C>, Vec<i32>) {
    let (p, real) = prefix(ty);
    let routine = if complex(ty) { "heevd" } else { "syevd" };
    let text = module(
        &format!("lapack_{p}{routine}_ffi"),
        &[shape(ty, &[batch, n, n])],
        &format!("({}, {}, s32[{batch}])", shape(ty, &[batch, n, n]), shape(real, &[batch, n])),
        &format!("{{mode = {mode} : ui8, uplo = {uplo} : ui8}}"),
    );
    let out = leaves(&run(&text, vec![literal(ty, &[batch as i64, n as i64, n as i64], a)]).unwrap());
    (cvals(&out[0]), cvals(&out[1]), ints(&out[2]))
}

#[test]
fn syevd_gives_ascending_eigenvalues_and_orthonormal_eigenvectors() {
    let (batch, n) = (3, 6);
    for ty in ALL_TYPES {
        for uplo in [76u8, 85] {
            let mut a = Vec::new();
            for b in 0..batch {
                a.extend(hermitian(ty, n, 40 + b as u64));
            }
            let a = cvals(&literal(ty, &[(batch * n * n) as i64], &a));
            // Only the uplo triangle is read: spoil the other one.
            let mut spoiled = a.clone();
            for b in 0..batch {
                for i in 0..n {
                    for j in 0..n {
                        if i != j && (i > j) != (uplo == 76) {
                            spoiled[b * n * n + i * n + j] = C::new(99.0, 0.0);
                        }
                    }
                }
            }
            let (v, w, info) = eigh(ty, batch, n, &spoiled, 86, uplo);
            assert_eq!(info, vec![0; batch]);
            for b in 0..batch {
                let (vm, wm, am) =
                    (&v[b * n * n..(b + 1) * n * n], &w[b * n..(b + 1) * n], &a[b * n * n..(b + 1) * n * n]);
                let what = format!("{ty} uplo {uplo}");
                assert!(wm.windows(2).all(|p| p[0].re <= p[1].re), "{what}: ascending {wm:?}");
                assert!(wm.iter().all(|x| x.im == 0.0));
                assert_close(&matmul(&adjoint(vm, n, n), vm, n, n, n), &identity(n), tol(ty), &format!("{what} V^H V"));
                let mut vw = vm.to_vec();
                for i in 0..n {
                    for j in 0..n {
                        vw[i * n + j] *= wm[j];
                    }
                }
                assert_close(&matmul(am, vm, n, n, n), &vw, 10.0 * tol(ty), &format!("{what} A V = V diag(w)"));
                // The documented convention: each vector's largest entry is real and positive.
                for j in 0..n {
                    let big =
                        (0..n)
                            .map(|i| vm[i * n + j])
                            .fold(C::new(0.0, 0.0), |m, x| if x.norm() > m.norm() { x } else { m });
                    assert!(big.re > 0.0 && big.im == 0.0, "{what}: column {j} largest entry {big}");
                }
            }
            // Mode 'N': the same values.
            let (_, w_only, _) = eigh(ty, batch, n, &spoiled, 78, uplo);
            assert_close(&w_only, &w, 0.0, &format!("{ty} mode N"));
        }
    }
}

#[test]
fn syevd_of_repeated_and_nan_matrices() {
    // diag(3, 1, 1): values 1, 1, 3.
    let a: Vec<C> = [3.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0].iter().map(|&x| C::new(x, 0.0)).collect();
    let (v, w, _) = eigh("f64", 1, 3, &a, 86, 76);
    assert_close(&w, &[C::new(1.0, 0.0), C::new(1.0, 0.0), C::new(3.0, 0.0)], 1e-15, "values");
    assert_close(&v[..3], &[C::new(0.0, 0.0), C::new(0.0, 0.0), C::new(1.0, 0.0)], 1e-15, "top row");
    let mut nan = a.clone();
    nan[4] = C::new(f64::NAN, 0.0);
    let (v, w, info) = eigh("f32", 1, 3, &nan, 86, 76);
    assert!(w.iter().chain(&v).all(|x| x.re.is_nan()));
    assert_eq!(info, vec![0]);
}

// ---------------------------------------------------------------------------
// gesdd/gesvd

struct Svd {
    s: Vec<C>,
    u: Vec<C>,
    vt: Vec<C>,
    info: Vec<i32>,
}

fn svd(routine: &str, ty: &str, batch: usize, m: usize, n: usize, a: &[C], mode: u8) -> Svd {
    let (p, real) = prefix(ty);
    let k = m.min(n);
    let (uc, vr) = match mode {
        65 => (m, n),
        83 => (k, k),
        _ => (m, n),
    };
    let text = module(
        &format!("lapack_{p}{routine}_ffi"),
        &[shape(ty, &[batch, m, n])],
        &format!(
            "({}, {}, {}, {}, s32[{batch}])",
            shape(ty, &[batch, m, n]),
            shape(real, &[batch, k]),
            shape(ty, &[batch, m, uc]),
            shape(ty, &[batch, vr, n])
        ),
        &format!("{{mode = {mode} : ui8}}"),
    );
    let out = leaves(&run(&text, vec![literal(ty, &[batch as i64, m as i64, n as i64], a)]).unwrap());
    assert_eq!(cvals(&out[0]), cvals(&literal(ty, &[a.len() as i64], a)), "the first result is the input");
    Svd { s: cvals(&out[1]), u: cvals(&out[2]), vt: cvals(&out[3]), info: ints(&out[4]) }
}

fn check_svd(ty: &str, (batch, m, n): (usize, usize, usize), a: &[C], mode: u8, r: &Svd, what: &str) {
    let k = m.min(n);
    let (uc, vr) = if mode == 65 { (m, n) } else { (k, k) };
    assert_eq!(r.info, vec![0; batch]);
    for b in 0..batch {
        let s = &r.s[b * k..(b + 1) * k];
        let u = &r.u[b * m * uc..(b + 1) * m * uc];
        let vt = &r.vt[b * vr * n..(b + 1) * vr * n];
        let am = &a[b * m * n..(b + 1) * m * n];
        assert!(s.windows(2).all(|p| p[0].re >= p[1].re) && s.iter().all(|x| x.re >= 0.0), "{what}: descending {s:?}");
        assert_close(&matmul(&adjoint(u, m, uc), u, uc, m, uc), &identity(uc), tol(ty), &format!("{what} U^H U"));
        assert_close(&matmul(vt, &adjoint(vt, vr, n), vr, n, vr), &identity(vr), tol(ty), &format!("{what} Vt Vt^H"));
        // U[:, :k] diag(s) Vt[:k, :] = A.
        let mut us = vec![C::new(0.0, 0.0); m * k];
        for i in 0..m {
            for j in 0..k {
                us[i * k + j] = u[i * uc + j] * s[j];
            }
        }
        assert_close(&matmul(&us, &vt[..k * n], m, k, n), am, 10.0 * tol(ty), &format!("{what} U S Vt"));
    }
}

#[test]
fn gesdd_gives_descending_values_and_orthonormal_vectors() {
    let batch = 2;
    for routine in ["gesdd", "gesvd"] {
        for ty in ALL_TYPES {
            for (m, n) in [(5, 3), (3, 5), (4, 4)] {
                let a = cvals(&literal(ty, &[(batch * m * n) as i64], &random(ty, batch * m * n, 60 + n as u64)));
                for mode in [65u8, 83] {
                    let r = svd(routine, ty, batch, m, n, &a, mode);
                    check_svd(
                        ty,
                        (batch, m, n),
                        &a,
                        mode,
                        &r,
                        &format!("{routine} {ty} {m}x{n} mode {}", mode as char),
                    );
                }
                let values = svd(routine, ty, batch, m, n, &a, 78);
                let full = svd(routine, ty, batch, m, n, &a, 65);
                assert_close(&values.s, &full.s, 0.0, "mode N values");
                assert!(values.u.iter().chain(&values.vt).all(|x| *x == C::new(0.0, 0.0)), "mode N vectors are zeros");
            }
        }
    }
}

#[test]
fn gesdd_completes_the_bases_of_rank_deficient_matrices() {
    // Rank 1 (outer product) and the zero matrix.
    let outer: Vec<C> = (0..4).flat_map(|i| (0..3).map(move |j| C::new(((i + 1) * (j + 1)) as f64, 0.0))).collect();
    let zero = vec![C::new(0.0, 0.0); 12];
    for ty in TYPES {
        for (a, what) in [(&outer, "rank 1"), (&zero, "zero")] {
            let a = cvals(&literal(ty, &[12], a));
            for mode in [65u8, 83] {
                let r = svd("gesdd", ty, 1, 4, 3, &a, mode);
                check_svd(ty, (1, 4, 3), &a, mode, &r, &format!("{ty} {what} mode {}", mode as char));
            }
            let r = svd("gesdd", ty, 1, 3, 4, &adjoint(&a, 4, 3), 65);
            check_svd(ty, (1, 3, 4), &adjoint(&a, 4, 3), 65, &r, &format!("{ty} {what} wide"));
        }
    }
}

// ---------------------------------------------------------------------------
// Errors

#[test]
fn bad_configs_types_and_shapes_are_errors_naming_the_target() {
    let a = literal("f32", &[2, 2], &[C::new(1.0, 0.0); 4]);
    let cases = [
        (module("lapack_spotrf_ffi", &["f32[2,2]".into()], "(f32[2,2], s32[])", "{}"), "backend_config has no `uplo`"),
        (
            module("lapack_spotrf_ffi", &["f32[2,2]".into()], "(f32[2,2], s32[])", "{uplo = 88 : ui8}"),
            "`uplo = 88` is not one of",
        ),
        (module("lapack_spotrf_ffi", &["f32[2,2]".into()], "(f32[2,2], s32[])", "\"uplo\""), "is not a dictionary"),
        (
            module("lapack_dpotrf_ffi", &["f32[2,2]".into()], "(f32[2,2], s32[])", "{uplo = 76 : ui8}"),
            "must be f64, got f32",
        ),
        (
            module("lapack_spotrf_ffi", &["f32[2,2]".into()], "(f32[2,2], s32[2])", "{uplo = 76 : ui8}"),
            "the result must be (f32[2, 2], s32[])",
        ),
        (module("lapack_sgetrf_ffi", &["f32[2,2]".into()], "f32[2,2]", "{}"), "lapack_sgetrf_ffi: the result must be"),
        (
            module("lapack_ssyevd_ffi", &["f32[2,2]".into()], "(f32[2,2], f32[2], s32[])", "{mode = 86 : ui8}"),
            "no `uplo`",
        ),
        (
            module(
                "lapack_sgesdd_ffi",
                &["f32[2,2]".into()],
                "(f32[2,2], f32[2], f32[2,2], f32[2,2], s32[])",
                "{mode = 79 : ui8}",
            ),
            "`mode = 79`",
        ),
    ];
    for (text, message) in cases {
        let err = run(&text, vec![a.clone()]).unwrap_err().to_string();
        assert!(err.contains(message), "{err}\nshould contain: {message}");
    }
    let vector = literal("f32", &[4], &[C::new(1.0, 0.0); 4]);
    let err =
        run(&module("lapack_spotrf_ffi", &["f32[4]".into()], "(f32[4], s32[])", "{uplo = 76 : ui8}"), vec![vector])
            .unwrap_err()
            .to_string();
    assert!(err.contains("must be a matrix or a batch of matrices"), "{err}");
    let b = literal("f32", &[3, 2], &[C::new(1.0, 0.0); 6]);
    let text = "HloModule m\n\nENTRY e {\n  a = f32[2,2] parameter(0)\n  b = f32[3,2] parameter(1)\n  ROOT x = f32[3,2] custom-call(a, b), \
         custom_call_target=\"lapack_strsm_ffi\", backend_config={diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}\n}\n";
    let err = run(text, vec![a.clone(), b]).unwrap_err().to_string();
    assert!(err.contains("lapack_strsm_ffi: needs a of [..., m, m]"), "{err}");
    let err = run(&module("lapack_sgeev_ffi", &["f32[2,2]".into()], "f32[2]", "{}"), vec![a]).unwrap_err().to_string();
    assert!(err.contains("\"lapack_sgeev_ffi\" is not registered with the interpreter"), "{err}");
}

#[test]
fn gesdd_values_only_fills_the_declared_vector_shapes_with_zeros() {
    let a = literal("f32", &[2, 3, 2], &random("f32", 12, 5));
    for (u, vt) in [("f32[2,1,1]", "f32[2,1,1]"), ("f32[2,0,0]", "f32[2,0,0]"), ("f32[2,3,3]", "f32[2,2,2]")] {
        let text = module(
            "lapack_sgesdd_ffi",
            &["f32[2,3,2]".into()],
            &format!("(f32[2,3,2], f32[2,2], {u}, {vt}, s32[2])"),
            "{mode = 78 : ui8}",
        );
        let out = leaves(&run(&text, vec![a.clone()]).unwrap());
        let s = cvals(&out[1]);
        assert!(s.windows(2).step_by(2).all(|p| p[0].re >= p[1].re) && s.iter().all(|x| x.re > 0.0), "{s:?}");
        assert!(cvals(&out[2]).iter().chain(&cvals(&out[3])).all(|x| *x == C::new(0.0, 0.0)));
    }
}
