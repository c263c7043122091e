//! Accuracy of the CPU backend's f32 transcendental functions: rxla's own
//! branch-free approximations (`rxla_lowering::math`), compiled into
//! kernels, over a few million inputs per function, against the f64
//! function rounded to f32 (correctly rounded in practice).
//!
//! Inputs: bit patterns uniform over all of f32 (NaNs, infinities and
//! subnormals included), dense runs near zero and around each function's
//! thresholds (overflow, underflow, saturation, the switch points of the
//! approximations), and the special values. The kernels run with FTZ/DAZ,
//! as XLA:CPU's: the reference sees subnormal inputs as (signed) zeros,
//! and results that would be subnormal may be zero. The bar: NaN exactly
//! where the reference is NaN, infinities and zeros (with their sign)
//! exact, everything else within 4 ulp. Debug builds test fewer inputs.
//! The ignored `*_all_inputs` tests check every f32 input (about two
//! minutes per function: `cargo test --release -p rxla-runtime --test
//! math_accuracy -- --ignored`); all results are within 1 ulp.

use rxla_interpreter::{Data, Literal};

struct Func {
    /// The HLO opcode.
    opcode: &'static str,
    reference: fn(f64) -> f64,
    /// Points to sample densely around (each sign listed separately).
    around: &'static [f32],
    /// Special inputs with their exact results.
    special: &'static [(f32, f32)],
}

const MAX_ULP: i64 = 4;
const NAN: f32 = f32::NAN;
const INF: f32 = f32::INFINITY;

fn flush(x: f32) -> f32 {
    if x.is_subnormal() {
        0f32.copysign(x)
    } else {
        x
    }
}

/// A monotone numbering of f32 where zeros and subnormals are all 0.
fn ordinal(v: f32) -> i64 {
    let a = v.abs();
    let k = if a < f32::MIN_POSITIVE { 0 } else { (a.to_bits() - f32::MIN_POSITIVE.to_bits()) as i64 + 1 };
    if v < 0.0 {
        -k
    } else {
        k
    }
}

/// How far `got` is from `want` (the reference, rounded): `None` if it
/// is not acceptable at all (NaN, infinity or zero sign mismatch), else
/// the distance in ulps.
fn distance(got: f32, want: f32) -> Option<i64> {
    if want.is_nan() || got.is_nan() {
        return (want.is_nan() && got.is_nan()).then_some(0);
    }
    if want.is_infinite() || got.is_infinite() {
        return (want == got).then_some(0);
    }
    if got == 0.0 && flush(want) == 0.0 && got.is_sign_negative() != want.is_sign_negative() {
        return None;
    }
    Some((ordinal(got) - ordinal(want)).abs())
}

fn inputs(func: &Func) -> Vec<f32> {
    let release = !cfg!(debug_assertions);
    let mut xs = Vec::new();
    // All of f32 (both signs), evenly in bit patterns; an odd stride
    // varies the low bits.
    let stride: usize = if release { 2039 } else { 40_009 };
    xs.extend((0..=u32::MAX).step_by(stride).map(f32::from_bits));
    // Near zero: |x| in [2^-40, 2), densely.
    let near = if release { 97 } else { 1999 };
    for b in ((-40i32 + 127) << 23..128 << 23).step_by(near) {
        let x = f32::from_bits(b as u32);
        xs.extend([x, -x]);
    }
    // Consecutive floats around the interesting points.
    let run = if release { 4000 } else { 400 };
    for &p in func.around {
        let b = p.to_bits() as i64;
        for d in -run..=run {
            let c = b + d;
            if (0..=u32::MAX as i64).contains(&c) && (c as u32 >> 31) == (b as u32 >> 31) {
                xs.push(f32::from_bits(c as u32));
            }
        }
    }
    // Special values.
    xs.extend([
        0.0,
        -0.0,
        INF,
        -INF,
        NAN,
        -NAN,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::from_bits(0x8000_0001),
        f32::from_bits(0x007F_FFFF),
        f32::MAX,
        f32::MIN,
        1.0,
        -1.0,
    ]);
    xs.extend(func.special.iter().map(|&(x, _)| x));
    xs
}

fn compile(opcode: &str, n: usize) -> rxla_runtime::Executable {
    let text = format!("HloModule m\nENTRY e {{\n  p = f32[{n}] parameter(0)\n  ROOT r = f32[{n}] {opcode}(p)\n}}\n");
    rxla_runtime::compile_hlo_text(&text, "math_accuracy.hlo", &Default::default())
        .unwrap_or_else(|e| panic!("{opcode}: {e:?}"))
}

fn run(exe: &rxla_runtime::Executable, xs: Vec<f32>) -> Vec<f32> {
    let n = xs.len() as i64;
    match exe.run(&[Literal::array(vec![n], Data::F32(xs))]).expect("the kernel runs") {
        Literal::Array { data: Data::F32(v), .. } => v,
        other => panic!("unexpected result {other:?}"),
    }
}

fn run_kernel(opcode: &str, xs: &[f32]) -> Vec<f32> {
    run(&compile(opcode, xs.len()), xs.to_vec())
}

/// The worst distance (and where) over `xs`, and the failures (the first
/// few described, then counted).
fn compare(func: &Func, xs: &[f32], got: &[f32]) -> ((i64, f32), Failures) {
    let mut worst = (0i64, 0f32);
    let mut failures = Failures::default();
    for (&x, &g) in xs.iter().zip(got) {
        let want = (func.reference)(flush(x) as f64) as f32;
        match distance(g, want) {
            Some(d) if d <= MAX_ULP => {
                if d > worst.0 {
                    worst = (d, x);
                }
            }
            d => failures.add(|| format!("x = {x:e} ({:#010x}): got {g:e}, want {want:e} ({d:?} ulp)", x.to_bits())),
        }
    }
    (worst, failures)
}

#[derive(Default)]
struct Failures {
    count: usize,
    examples: Vec<String>,
}

impl Failures {
    fn add(&mut self, describe: impl FnOnce() -> String) {
        self.count += 1;
        if self.examples.len() < 20 {
            self.examples.push(describe());
        }
    }

    fn extend(&mut self, other: Failures) {
        self.count += other.count;
        self.examples.extend(other.examples.into_iter().take(20 - self.examples.len().min(20)));
    }
}

fn report(func: &Func, inputs: usize, worst: (i64, f32), failures: &Failures) {
    println!("{}: {inputs} inputs, max error {} ulp (at x = {:e})", func.opcode, worst.0, worst.1);
    assert!(
        failures.count == 0,
        "{}: {} inputs off by more than {MAX_ULP} ulp or special values wrong, e.g.\n{}",
        func.opcode,
        failures.count,
        failures.examples.join("\n")
    );
}

fn check(func: &Func) {
    let xs = inputs(func);
    let got = run_kernel(func.opcode, &xs);
    let (worst, mut failures) = compare(func, &xs, &got);
    for &(x, want) in func.special {
        let g = run_kernel(func.opcode, &[x])[0];
        if !(g.to_bits() == want.to_bits() || (g.is_nan() && want.is_nan())) {
            failures.add(|| format!("special x = {x:e}: got {g:e}, want {want:e} exactly"));
        }
    }
    report(func, xs.len(), worst, &failures);
}

/// Every f32 input, 2^24 at a time.
fn check_all(func: &Func) {
    const CHUNK: usize = 1 << 24;
    let exe = compile(func.opcode, CHUNK);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut worst = (0i64, 0f32);
    let mut failures = Failures::default();
    for chunk in 0..(1usize << 32) / CHUNK {
        let xs: Vec<f32> = (0..CHUNK).map(|i| f32::from_bits((chunk * CHUNK + i) as u32)).collect();
        let got = run(&exe, xs.clone());
        let part = CHUNK.div_ceil(threads);
        let results: Vec<_> = std::thread::scope(|s| {
            let handles: Vec<_> =
                xs.chunks(part).zip(got.chunks(part)).map(|(x, g)| s.spawn(move || compare(func, x, g))).collect();
            handles.into_iter().map(|h| h.join().expect("comparison thread")).collect()
        });
        for (w, f) in results {
            if w.0 > worst.0 {
                worst = w;
            }
            failures.extend(f);
        }
    }
    report(func, 1 << 32, worst, &failures);
}

const EXP: Func = Func {
    opcode: "exponential",
    reference: f64::exp,
    // overflow (88.7228), the last normal result (-87.3365), underflow
    // to zero, the clamps.
    around: &[88.722_84, -87.336_55, -103.972_08, 89.0, -104.0, 0.346_573_6, -0.346_573_6],
    special: &[(0.0, 1.0), (-0.0, 1.0), (INF, INF), (-INF, 0.0), (NAN, NAN), (88.722_84, INF), (-200.0, 0.0)],
};

const EXPM1: Func = Func {
    opcode: "exponential-minus-one",
    reference: f64::exp_m1,
    // overflow, rounding to -1 (-17.33), the range reduction's first
    // steps, the clamps.
    around: &[88.722_84, -17.328_68, -16.635_532, 0.346_573_6, -0.346_573_6, 1.039_720_8, 16.635_532, 89.0, -104.0],
    special: &[(0.0, 0.0), (-0.0, -0.0), (INF, INF), (-INF, -1.0), (NAN, NAN), (88.722_84, INF), (-100.0, -1.0)],
};

const LOG: Func = Func {
    opcode: "log",
    reference: f64::ln,
    // 1, the reduction's switch point sqrt(1/2) (and sqrt(2)), the
    // smallest normal, the largest float.
    around: &[1.0, std::f32::consts::FRAC_1_SQRT_2, std::f32::consts::SQRT_2, f32::MIN_POSITIVE, f32::MAX, 2.0, 0.5],
    special: &[(1.0, 0.0), (0.0, -INF), (-0.0, -INF), (-1.0, NAN), (-INF, NAN), (INF, INF), (NAN, NAN)],
};

const LOG1P: Func = Func {
    opcode: "log-plus-one",
    reference: f64::ln_1p,
    // -1, the reduction's switch points, where 1 + x stops mattering,
    // and where 2^-e stops being a normal float.
    around: &[-1.0, -0.292_893_2, 0.414_213_57, 1.0, 1.677_721_6e7, 2.406_159_6e38, f32::MAX],
    special: &[(0.0, 0.0), (-0.0, -0.0), (-1.0, -INF), (-2.0, NAN), (-INF, NAN), (INF, INF), (NAN, NAN)],
};

const TANH: Func = Func {
    opcode: "tanh",
    reference: f64::tanh,
    // the switch to the exponential (0.625), saturation (9.01), the
    // clamp (10).
    around: &[0.625, -0.625, 9.010_913, -9.010_913, 10.0, -10.0],
    special: &[(0.0, 0.0), (-0.0, -0.0), (INF, 1.0), (-INF, -1.0), (NAN, NAN), (20.0, 1.0), (-20.0, -1.0)],
};

const ERF: Func = Func {
    opcode: "erf",
    reference: libm::erf,
    // the switch to the exp(-x^2) form (1), where erf rounds to 1
    // (3.92), the clamp (4).
    around: &[1.0, -1.0, 3.919_206_7, -3.919_206_7, 4.0, -4.0],
    special: &[(0.0, 0.0), (-0.0, -0.0), (INF, 1.0), (-INF, -1.0), (NAN, NAN), (5.0, 1.0), (-5.0, -1.0)],
};

#[test]
fn exp() {
    check(&EXP);
}

#[test]
fn expm1() {
    check(&EXPM1);
}

#[test]
fn log() {
    check(&LOG);
}

#[test]
fn log1p() {
    check(&LOG1P);
}

#[test]
fn tanh() {
    check(&TANH);
}

#[test]
fn erf() {
    check(&ERF);
}

#[test]
#[ignore = "all 2^32 inputs: minutes"]
fn exp_all_inputs() {
    check_all(&EXP);
}

#[test]
#[ignore = "all 2^32 inputs: minutes"]
fn expm1_all_inputs() {
    check_all(&EXPM1);
}

#[test]
#[ignore = "all 2^32 inputs: minutes"]
fn log_all_inputs() {
    check_all(&LOG);
}

#[test]
#[ignore = "all 2^32 inputs: minutes"]
fn log1p_all_inputs() {
    check_all(&LOG1P);
}

#[test]
#[ignore = "all 2^32 inputs: minutes"]
fn tanh_all_inputs() {
    check_all(&TANH);
}

#[test]
#[ignore = "all 2^32 inputs: minutes"]
fn erf_all_inputs() {
    check_all(&ERF);
}
