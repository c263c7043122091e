//! `convolution` against the reference interpreter: random layouts,
//! windows (stride, positive and negative padding, lhs/rhs dilation,
//! reversal), feature and batch groups, element types, zero-size arrays,
//! and a ResNet-shaped case for the blocked fast path.

mod support;
use rxla_interpreter::Literal;
use rxla_library::array::{byte_size, ArrayMut, ArrayRef, Buffer, ElementType};
use rxla_library::conv::{convolution, ConvDims, WindowDim};
use support::*;

struct Case {
    lt: ElementType,
    rt: ElementType,
    ot: ElementType,
    /// Logical sizes: batch, input features, output features, spatial.
    n: usize,
    c: usize,
    o: usize,
    input: Vec<usize>,
    kernel: Vec<usize>,
    output: Vec<usize>,
    window: Vec<WindowDim>,
    fgc: usize,
    bgc: usize,
    /// Layouts: position of (batch|in-feature, feature|out-feature,
    /// spatial...) in each array.
    lhs_pos: Vec<usize>,
    rhs_pos: Vec<usize>,
    out_pos: Vec<usize>,
}

fn labels(pos: &[usize], letters: [char; 2]) -> String {
    let mut s = vec!['?'; pos.len()];
    s[pos[0]] = letters[0];
    s[pos[1]] = letters[1];
    for (i, &p) in pos[2..].iter().enumerate() {
        s[p] = char::from(b'0' + i as u8);
    }
    s.into_iter().collect()
}

fn place(pos: &[usize], logical: &[usize]) -> Vec<usize> {
    let mut d = vec![0; pos.len()];
    for (i, &p) in pos.iter().enumerate() {
        d[p] = logical[i];
    }
    d
}

impl Case {
    fn lhs_dims(&self) -> Vec<usize> {
        place(&self.lhs_pos, &[[self.n, self.c].as_slice(), &self.input].concat())
    }
    fn rhs_dims(&self) -> Vec<usize> {
        place(&self.rhs_pos, &[[self.c / self.fgc, self.o].as_slice(), &self.kernel].concat())
    }
    fn out_dims(&self) -> Vec<usize> {
        place(&self.out_pos, &[[self.n / self.bgc, self.o].as_slice(), &self.output].concat())
    }
    fn dims(&self) -> ConvDims {
        ConvDims {
            input_batch: self.lhs_pos[0],
            input_feature: self.lhs_pos[1],
            input_spatial: self.lhs_pos[2..].to_vec(),
            kernel_input_feature: self.rhs_pos[0],
            kernel_output_feature: self.rhs_pos[1],
            kernel_spatial: self.rhs_pos[2..].to_vec(),
            output_batch: self.out_pos[0],
            output_feature: self.out_pos[1],
            output_spatial: self.out_pos[2..].to_vec(),
        }
    }
    fn hlo(&self) -> String {
        let w = &self.window;
        let field = |f: &dyn Fn(&WindowDim) -> String| w.iter().map(f).collect::<Vec<_>>().join("x");
        let window = if w.is_empty() {
            "{}".to_string()
        } else {
            format!(
                "{{size={} stride={} pad={} lhs_dilate={} rhs_dilate={} rhs_reversal={}}}",
                field(&|d| d.size.to_string()),
                field(&|d| d.stride.to_string()),
                field(&|d| format!("{}_{}", d.pad_low, d.pad_high)),
                field(&|d| d.lhs_dilation.to_string()),
                field(&|d| d.rhs_dilation.to_string()),
                field(&|d| (d.reversal as u8).to_string()),
            )
        };
        format!(
            "HloModule m\n\nENTRY e {{\n  p0 = {} parameter(0)\n  p1 = {} parameter(1)\n  ROOT c = {} convolution(p0, p1), window={window}, dim_labels={}_{}->{}, feature_group_count={}, batch_group_count={}\n}}\n",
            shape_text(self.lt, &self.lhs_dims()),
            shape_text(self.rt, &self.rhs_dims()),
            shape_text(self.ot, &self.out_dims()),
            labels(&self.lhs_pos, ['b', 'f']),
            labels(&self.rhs_pos, ['i', 'o']),
            labels(&self.out_pos, ['b', 'f']),
            self.fgc,
            self.bgc
        )
    }
}

/// Output size of one spatial dimension (HLO shape inference).
fn output_size(input: usize, w: &WindowDim) -> i64 {
    let dilated_in = if input == 0 { 0 } else { (input as i64 - 1) * w.lhs_dilation + 1 };
    let padded = dilated_in + w.pad_low + w.pad_high;
    let dilated_k = if w.size == 0 { 0 } else { (w.size - 1) * w.rhs_dilation + 1 };
    if padded < dilated_k {
        0
    } else {
        (padded - dilated_k) / w.stride + 1
    }
}

fn random_layout(rng: &mut Rng, rank: usize) -> Vec<usize> {
    let mut p: Vec<usize> = (0..rank).collect();
    rng.shuffle(&mut p);
    p
}

fn random_case(rng: &mut Rng, types: (&str, &str, &str)) -> Case {
    let spatial = rng.pick(&[0usize, 1, 1, 2, 2, 2, 3]);
    let fgc = if rng.below(3) == 0 { 1 + rng.below(3) } else { 1 };
    let bgc = if fgc == 1 && rng.below(4) == 0 { 1 + rng.below(3) } else { 1 };
    let groups = fgc * bgc;
    let n = bgc * (1 + rng.below(3));
    let c = fgc * (1 + rng.below(3));
    let o = groups * (1 + rng.below(3));
    let mut input = Vec::new();
    let mut kernel = Vec::new();
    let mut output = Vec::new();
    let mut window = Vec::new();
    for _ in 0..spatial {
        loop {
            let size = 1 + rng.below(if spatial == 3 { 2 } else { 3 });
            let w = WindowDim {
                size: size as i64,
                stride: 1 + rng.below(3) as i64,
                pad_low: rng.range(-1, 2),
                pad_high: rng.range(-1, 2),
                lhs_dilation: 1 + rng.below(2) as i64,
                rhs_dilation: 1 + rng.below(2) as i64,
                reversal: rng.bool(),
            };
            let i = if rng.below(30) == 0 { 0 } else { 1 + rng.below(if spatial == 3 { 4 } else { 6 }) };
            let out = output_size(i, &w);
            if out >= 0 && (out > 0 || rng.below(10) == 0) {
                input.push(i);
                kernel.push(size);
                output.push(out as usize);
                window.push(w);
                break;
            }
        }
    }
    let rank = spatial + 2;
    Case {
        lt: ty(types.0),
        rt: ty(types.1),
        ot: ty(types.2),
        n,
        c,
        o,
        input,
        kernel,
        output,
        window,
        fgc,
        bgc,
        lhs_pos: random_layout(rng, rank),
        rhs_pos: random_layout(rng, rank),
        out_pos: random_layout(rng, rank),
    }
}

fn run_library(case: &Case, lhs: &Literal, rhs: &Literal) -> Vec<u8> {
    let i64s = |v: Vec<usize>| v.into_iter().map(|d| d as i64).collect::<Vec<i64>>();
    let (ld, rd, od) = (i64s(case.lhs_dims()), i64s(case.rhs_dims()), i64s(case.out_dims()));
    let (lb, rb) = (buffer(lhs), buffer(rhs));
    let mut out = Buffer::zeroed(od.iter().product::<i64>() as usize * byte_size(case.ot));
    convolution(
        ArrayRef::new(case.lt, &ld, lb.as_slice()),
        ArrayRef::new(case.rt, &rd, rb.as_slice()),
        ArrayMut::new(case.ot, &od, out.as_mut_slice()),
        &case.dims(),
        &case.window,
        case.fgc,
        case.bgc,
    )
    .unwrap_or_else(|e| panic!("{e}\n{}", case.hlo()));
    out.as_slice().to_vec()
}

fn check(case: &Case, rng: &mut Rng) {
    let lhs = random_literal(rng, case.lt, &case.lhs_dims(), 1.0);
    let rhs = random_literal(rng, case.rt, &case.rhs_dims(), 1.0);
    let text = case.hlo();
    let want = run_hlo(&text, &[lhs.clone(), rhs.clone()]);
    let got = run_library(case, &lhs, &rhs);
    let k = (case.c / case.fgc * case.kernel.iter().product::<usize>()).max(1) as f64;
    let compute_eps = match case.ot {
        ElementType::F64 | ElementType::C128 => f64::EPSILON,
        _ => f32::EPSILON as f64,
    };
    let atol = 8.0 * compute_eps * k.sqrt() * max_abs(&want).max(1.0);
    assert_close(&got, &want, 2.0 * epsilon(case.ot), atol, &text);
}

const TYPES: &[(&str, &str, &str)] = &[
    ("f32", "f32", "f32"),
    ("f64", "f64", "f64"),
    ("bf16", "bf16", "bf16"),
    ("f16", "f16", "f32"),
    ("c64", "c64", "c64"),
    ("c128", "c128", "c128"),
    ("s32", "s32", "s32"),
    ("s8", "s8", "s32"),
    ("s64", "s64", "s64"),
    ("u8", "u8", "u8"),
    ("pred", "pred", "pred"),
    ("f8e4m3fn", "f8e4m3fn", "f8e4m3fn"),
];

#[test]
fn random_windows_layouts_groups_and_types() {
    let mut rng = Rng::new(11);
    let mut count = 0;
    for &types in TYPES {
        let cases = if types.0 == "f32" { 300 } else { 40 };
        for _ in 0..cases {
            let case = random_case(&mut rng, types);
            check(&case, &mut rng);
            count += 1;
        }
    }
    assert!(count > 700);
}

/// NHWC / HWIO convolutions of the given size, pad 1.
fn resnet_case(n: usize, hw: usize, c: usize, o: usize, out_pos: Vec<usize>) -> Case {
    let w = WindowDim { pad_low: 1, pad_high: 1, ..WindowDim::new(3) };
    Case {
        lt: ty("f32"),
        rt: ty("f32"),
        ot: ty("f32"),
        n,
        c,
        o,
        input: vec![hw, hw],
        kernel: vec![3, 3],
        output: vec![hw, hw],
        window: vec![w, w],
        fgc: 1,
        bgc: 1,
        lhs_pos: vec![0, 3, 1, 2],
        rhs_pos: vec![2, 3, 0, 1],
        out_pos,
    }
}

#[test]
fn blocked_fast_path_matches_on_larger_images() {
    let mut rng = Rng::new(12);
    // NHWC output (every block written directly) and NCHW output (blocks
    // inside one image direct, blocks across images scattered).
    check(&resnet_case(2, 20, 16, 24, vec![0, 3, 1, 2]), &mut rng);
    check(&resnet_case(3, 17, 8, 8, vec![0, 1, 2, 3]), &mut rng);
    // Depthwise (feature groups = features) and strided.
    let mut depthwise = resnet_case(2, 15, 12, 12, vec![0, 3, 1, 2]);
    depthwise.fgc = 12;
    depthwise.window[0].stride = 2;
    depthwise.output[0] = output_size(15, &depthwise.window[0]) as usize;
    check(&depthwise, &mut rng);
    // Batch groups, as in a weight-gradient convolution.
    let mut grad = resnet_case(4, 12, 6, 8, vec![0, 3, 1, 2]);
    grad.bgc = 2;
    check(&grad, &mut rng);
}

#[test]
fn bad_shapes_are_errors() {
    let case = resnet_case(1, 4, 2, 2, vec![0, 3, 1, 2]);
    let mut rng = Rng::new(13);
    let lhs = buffer(&random_literal(&mut rng, case.lt, &case.lhs_dims(), 1.0));
    let rhs = buffer(&random_literal(&mut rng, case.rt, &case.rhs_dims(), 1.0));
    let i64s = |v: Vec<usize>| v.into_iter().map(|d| d as i64).collect::<Vec<i64>>();
    let (ld, rd, od) = (i64s(case.lhs_dims()), i64s(case.rhs_dims()), i64s(case.out_dims()));
    let mut out = Buffer::zeroed(od.iter().product::<i64>() as usize * 4);
    let lhs = ArrayRef::new(case.lt, &ld, lhs.as_slice());
    let rhs = ArrayRef::new(case.rt, &rd, rhs.as_slice());
    let run = |out: &mut Buffer, window: &[WindowDim], fgc: usize| {
        convolution(lhs, rhs, ArrayMut::new(case.ot, &od, out.as_mut_slice()), &case.dims(), window, fgc, 1)
    };
    assert!(run(&mut out, &case.window, 1).is_ok());
    assert!(run(&mut out, &case.window[..1], 1).unwrap_err().contains("window"));
    assert!(run(&mut out, &case.window, 2).unwrap_err().contains("do not agree"));
    assert!(run(&mut out, &case.window, 0).unwrap_err().contains("positive"));
    let bad = WindowDim { stride: 0, ..case.window[0] };
    assert!(run(&mut out, &[bad, bad], 1).unwrap_err().contains("positive"));
}

#[test]
fn nan_and_infinity_propagate_through_padding() {
    // Padding taps multiply the kernel by zero: an infinite kernel tap
    // gives NaN there, as in the interpreter.
    let mut rng = Rng::new(14);
    let case = resnet_case(2, 6, 3, 4, vec![0, 3, 1, 2]);
    let sprinkle = |rng: &mut Rng, l: Literal| {
        let v: Vec<f32> = values(&l)
            .iter()
            .map(|x| match rng.below(30) {
                0 => f32::NAN,
                1 => f32::INFINITY,
                2 => f32::NEG_INFINITY,
                _ => x.0 as f32,
            })
            .collect();
        Literal::from_f32_vec(ElementType::F32, l.dims().to_vec(), v)
    };
    let lhs = random_literal(&mut rng, case.lt, &case.lhs_dims(), 1.0);
    let lhs = sprinkle(&mut rng, lhs);
    let rhs = random_literal(&mut rng, case.rt, &case.rhs_dims(), 1.0);
    let rhs = sprinkle(&mut rng, rhs);
    let want = run_hlo(&case.hlo(), &[lhs.clone(), rhs.clone()]);
    let atol = 64.0 * f32::EPSILON as f64 * max_abs(&want).max(1.0);
    assert_close(&run_library(&case, &lhs, &rhs), &want, 2.0 * f32::EPSILON as f64, atol, &case.hlo());
}
