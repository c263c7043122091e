//! Reductions, windows, sort, topk and map on small hand-made literals.
//! Fast paths are checked against the general (vectorized) path by
//! writing the same combiner so that it is not a plain binary op.

use rxla_interpreter::{literal::Data, Interpreter, Literal};

fn run(hlo: &str, args: Vec<Literal>) -> Result<Literal, String> {
    let module = rxla_hlo_text::parse_module(hlo).map_err(|e| e.message)?;
    Interpreter::new(&module).run(&args).map_err(|e| e.to_string())
}

fn f32s(dims: &[i64], v: &[f32]) -> Literal {
    Literal::array(dims.to_vec(), Data::F32(v.to_vec()))
}
fn s32s(dims: &[i64], v: &[i32]) -> Literal {
    Literal::array(dims.to_vec(), Data::S32(v.to_vec()))
}
fn f32_scalar(v: f32) -> Literal {
    Literal::scalar(Data::F32(vec![v]))
}
fn iota_f32(dims: &[i64]) -> Literal {
    let n: i64 = dims.iter().product();
    f32s(dims, &(0..n).map(|i| i as f32).collect::<Vec<_>>())
}
fn f32_data(l: &Literal) -> Vec<f32> {
    match l.data() {
        Some(Data::F32(v)) => v.clone(),
        other => panic!("not f32: {other:?}"),
    }
}
fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// A binary combiner `name` of type `t`: plain (`op(a, b)`) or, with
/// `general`, routed through a select so no fast path applies.
fn combiner(name: &str, t: &str, op: &str, general: bool) -> String {
    if general {
        format!("{name} {{\n  a = {t}[] parameter(0)\n  b = {t}[] parameter(1)\n  c = {t}[] {op}(a, b)\n  k = pred[] constant(true)\n  ROOT r = {t}[] select(k, c, a)\n}}\n")
    } else {
        format!("{name} {{\n  a = {t}[] parameter(0)\n  b = {t}[] parameter(1)\n  ROOT c = {t}[] {op}(a, b)\n}}\n")
    }
}

fn reduce_module(op: &str, general: bool, dims: &str, out: &str) -> String {
    format!(
        "HloModule m\n{}ENTRY e {{\n  x = f32[3,4]{{1,0}} parameter(0)\n  i = f32[] parameter(1)\n  ROOT r = f32[{out}] reduce(x, i), dimensions={{{dims}}}, to_apply=f\n}}\n",
        combiner("f", "f32", op, general)
    )
}

#[test]
fn reduce_sum_rows_cols_all() {
    let x = iota_f32(&[3, 4]);
    for general in [false, true] {
        let r = run(&reduce_module("add", general, "1", "3"), vec![x.clone(), f32_scalar(0.0)]).unwrap();
        assert_eq!(f32_data(&r), vec![6.0, 22.0, 38.0]);
        let r = run(&reduce_module("add", general, "0", "4"), vec![x.clone(), f32_scalar(1.0)]).unwrap();
        assert_eq!(f32_data(&r), vec![13.0, 16.0, 19.0, 22.0]);
        let r = run(&reduce_module("add", general, "0,1", ""), vec![x.clone(), f32_scalar(0.0)]).unwrap();
        assert_eq!(f32_data(&r), vec![66.0]);
    }
}

#[test]
fn reduce_max_min_nan_and_signed_zero_agree_with_elementwise() {
    let x = f32s(&[3, 4], &[1.0, f32::NAN, 3.0, -1.0, -0.0, 0.0, 0.0, -0.0, 5.0, -2.0, 7.0, 1.0]);
    for (op, init) in [("maximum", f32::NEG_INFINITY), ("minimum", f32::INFINITY)] {
        let fast = run(&reduce_module(op, false, "1", "3"), vec![x.clone(), f32_scalar(init)]).unwrap();
        let general = run(&reduce_module(op, true, "1", "3"), vec![x.clone(), f32_scalar(init)]).unwrap();
        let (f, g) = (f32_data(&fast), f32_data(&general));
        assert!(f[0].is_nan() && g[0].is_nan(), "{op}: NaN propagates");
        assert_eq!(bits(&f[1..]), bits(&g[1..]), "{op}: fast path and elementwise agree");
    }
}

#[test]
fn reduce_integer_and_pred() {
    let hlo = format!("HloModule m\n{}ENTRY e {{\n  x = s32[2,3]{{1,0}} parameter(0)\n  i = s32[] parameter(1)\n  ROOT r = s32[2] reduce(x, i), dimensions={{1}}, to_apply=f\n}}\n", combiner("f", "s32", "multiply", false));
    let r = run(&hlo, vec![s32s(&[2, 3], &[1, 2, 3, 65536, 65536, 2]), Literal::scalar(Data::S32(vec![1]))]).unwrap();
    assert_eq!(r.data(), Some(&Data::S32(vec![6, 0])), "integer multiply wraps");
    let hlo = format!("HloModule m\n{}ENTRY e {{\n  x = pred[2,2]{{1,0}} parameter(0)\n  i = pred[] parameter(1)\n  ROOT r = pred[2] reduce(x, i), dimensions={{0}}, to_apply=f\n}}\n", combiner("f", "pred", "and", false));
    let r = run(
        &hlo,
        vec![
            Literal::array(vec![2, 2], Data::Pred(vec![true, false, true, true])),
            Literal::scalar(Data::Pred(vec![true])),
        ],
    )
    .unwrap();
    assert_eq!(r.data(), Some(&Data::Pred(vec![true, false])));
}

#[test]
fn variadic_reduce_argmax() {
    let hlo = "HloModule m
argmax {
  a = f32[] parameter(0)
  ai = s32[] parameter(1)
  b = f32[] parameter(2)
  bi = s32[] parameter(3)
  gt = pred[] compare(a, b), direction=GT
  eq = pred[] compare(a, b), direction=EQ
  lt = pred[] compare(ai, bi), direction=LT
  tie = pred[] and(eq, lt)
  keep = pred[] or(gt, tie)
  v = f32[] select(keep, a, b)
  i = s32[] select(keep, ai, bi)
  ROOT r = (f32[], s32[]) tuple(v, i)
}
ENTRY e {
  x = f32[2,4]{1,0} parameter(0)
  xi = s32[2,4]{1,0} parameter(1)
  m = f32[] constant(-inf)
  z = s32[] constant(0)
  ROOT r = (f32[2]{0}, s32[2]{0}) reduce(x, xi, m, z), dimensions={1}, to_apply=argmax
}
";
    let x = f32s(&[2, 4], &[1.0, 5.0, 5.0, 2.0, -1.0, -3.0, 0.5, 0.5]);
    let xi = s32s(&[2, 4], &[0, 1, 2, 3, 0, 1, 2, 3]);
    let Literal::Tuple(es) = run(hlo, vec![x, xi]).unwrap() else { panic!() };
    assert_eq!(f32_data(&es[0]), vec![5.0, 0.5]);
    assert_eq!(es[1].data(), Some(&Data::S32(vec![1, 2])));
}

fn window_module(op: &str, general: bool, window: &str, in_dims: &str, out_dims: &str) -> String {
    format!(
        "HloModule m\n{}ENTRY e {{\n  x = f32[{in_dims}] parameter(0)\n  i = f32[] parameter(1)\n  ROOT r = f32[{out_dims}] reduce-window(x, i), window={{{window}}}, to_apply=f\n}}\n",
        combiner("f", "f32", op, general)
    )
}

#[test]
fn reduce_window_padding_stride_dilation() {
    let x = iota_f32(&[5]);
    for general in [false, true] {
        // cumsum: size=5 pad=4_0
        let r =
            run(&window_module("add", general, "size=5 pad=4_0", "5", "5"), vec![x.clone(), f32_scalar(0.0)]).unwrap();
        assert_eq!(f32_data(&r), vec![0.0, 1.0, 3.0, 6.0, 10.0]);
        // size 2 stride 2 pad 0_1: [0+1, 2+3, 4]
        let r =
            run(&window_module("add", general, "size=2 stride=2 pad=0_1", "5", "3"), vec![x.clone(), f32_scalar(0.0)])
                .unwrap();
        assert_eq!(f32_data(&r), vec![1.0, 5.0, 4.0]);
        // window dilation 2: [0+2, 1+3, 2+4]
        let r = run(&window_module("add", general, "size=2 rhs_dilate=2", "5", "3"), vec![x.clone(), f32_scalar(0.0)])
            .unwrap();
        assert_eq!(f32_data(&r), vec![2.0, 4.0, 6.0]);
        // base dilation 2 (holes skipped): dilated [0 . 1 . 2 . 3 . 4], size 3 stride 2
        let r = run(
            &window_module("add", general, "size=3 stride=2 lhs_dilate=2", "5", "4"),
            vec![x.clone(), f32_scalar(0.0)],
        )
        .unwrap();
        assert_eq!(f32_data(&r), vec![1.0, 3.0, 5.0, 7.0]);
        // max pool 2x2 stride 1 with padding: init -inf never shows through a valid window
        let r = run(
            &window_module("maximum", general, "size=2x2 pad=1_0x0_0", "2,2", "2,1"),
            vec![iota_f32(&[2, 2]), f32_scalar(f32::NEG_INFINITY)],
        )
        .unwrap();
        assert_eq!(f32_data(&r), vec![1.0, 3.0]);
    }
}

#[test]
fn select_and_scatter_maxpool_grad() {
    // The example of XLA's operation semantics: 2x3 windows, stride 2x3, on a 4x6 operand.
    let hlo = "HloModule m
ge {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
ENTRY e {
  x = f32[4,6]{1,0} parameter(0)
  s = f32[2,2]{1,0} parameter(1)
  i = f32[] constant(0)
  ROOT r = f32[4,6]{1,0} select-and-scatter(x, s, i), window={size=2x3 stride=2x3}, select=ge, scatter=add
}
";
    let x = f32s(
        &[4, 6],
        &[
            7.0, 2.0, 5.0, 3.0, 10.0, 2.0, 3.0, 8.0, 9.0, 3.0, 4.0, 2.0, 1.0, 5.0, 7.0, 5.0, 6.0, 1.0, 0.0, 6.0, 2.0,
            7.0, 2.0, 8.0,
        ],
    );
    let s = f32s(&[2, 2], &[2.0, 6.0, 3.0, 1.0]);
    let want = vec![
        0.0, 0.0, 0.0, 0.0, 6.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 1.0,
    ];
    assert_eq!(f32_data(&run(hlo, vec![x.clone(), s.clone()]).unwrap()), want);
    // General select (not a plain compare) and overlapping windows with ties:
    // the first maximal element wins (GE keeps the current selection).
    let general = hlo.replace(
        "ROOT c = pred[] compare(a, b), direction=GE",
        "c = pred[] compare(a, b), direction=GE\n  ROOT n = pred[] not(c)",
    );
    let flipped = general.replace("direction=GE", "direction=LT");
    assert_eq!(f32_data(&run(&flipped, vec![x, s]).unwrap()), want);
    let hlo2 = hlo
        .replace("f32[4,6]{1,0} parameter(0)", "f32[1,3]{1,0} parameter(0)")
        .replace("f32[2,2]{1,0} parameter(1)", "f32[1,2]{1,0} parameter(1)")
        .replace("f32[4,6]{1,0} select-and-scatter", "f32[1,3]{1,0} select-and-scatter")
        .replace("size=2x3 stride=2x3", "size=1x2 stride=1x1");
    let r = run(&hlo2, vec![f32s(&[1, 3], &[5.0, 5.0, 5.0]), f32s(&[1, 2], &[1.0, 10.0])]).unwrap();
    assert_eq!(f32_data(&r), vec![1.0, 10.0, 0.0]);
}

const JAX_LT: &str = "cmp {
  a = f32[] parameter(0)
  na = pred[] compare(a, a), direction=NE
  qnan = f32[] constant(nan)
  zero = f32[] constant(0)
  ea = pred[] compare(a, zero), direction=EQ
  a0 = f32[] select(ea, zero, a)
  a1 = f32[] select(na, qnan, a0)
  b = f32[] parameter(1)
  nb = pred[] compare(b, b), direction=NE
  eb = pred[] compare(b, zero), direction=EQ
  b0 = f32[] select(eb, zero, b)
  b1 = f32[] select(nb, qnan, b0)
  ROOT lt = pred[] compare(a1, b1), direction=LT, type=TOTALORDER
}
";

#[test]
fn sort_jax_comparator_nan_and_zeros() {
    let hlo = format!("HloModule m\n{JAX_LT}ENTRY e {{\n  x = f32[7]{{0}} parameter(0)\n  ROOT s = f32[7]{{0}} sort(x), dimensions={{0}}, is_stable=true, to_apply=cmp\n}}\n");
    let x = f32s(&[7], &[3.0, -f32::NAN, 0.0, -0.0, f32::NEG_INFINITY, 1.0, f32::NAN]);
    let r = f32_data(&run(&hlo, vec![x]).unwrap());
    // NaNs (either sign) canonicalise to +NaN: last, in input order; -0 == +0 stays in order.
    assert_eq!(bits(&r[..5]), bits(&[f32::NEG_INFINITY, 0.0, -0.0, 1.0, 3.0]));
    assert!(r[5].is_nan() && r[5].is_sign_negative() && r[6].is_nan());
}

#[test]
fn sort_total_order_plain_and_descending_keys_values() {
    let plain = "cmp {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  c = s32[] parameter(2)\n  d = s32[] parameter(3)\n  ROOT lt = pred[] compare(a, b), direction=GT, type=TOTALORDER\n}\n";
    let hlo = format!("HloModule m\n{plain}ENTRY e {{\n  x = f32[2,4]{{1,0}} parameter(0)\n  y = s32[2,4]{{1,0}} parameter(1)\n  ROOT s = (f32[2,4]{{1,0}}, s32[2,4]{{1,0}}) sort(x, y), dimensions={{1}}, to_apply=cmp\n}}\n");
    let x = f32s(&[2, 4], &[-0.0, 0.0, f32::NAN, -f32::NAN, 2.0, 1.0, 2.0, 3.0]);
    let y = s32s(&[2, 4], &[0, 1, 2, 3, 4, 5, 6, 7]);
    let Literal::Tuple(es) = run(&hlo, vec![x, y]).unwrap() else { panic!() };
    assert_eq!(es[1].data(), Some(&Data::S32(vec![2, 1, 0, 3, 7, 4, 6, 5])));
    // Sorting along dimension 0 of the same data with the general path
    // (comparator not of the key form) gives the same as the key path.
    let lex = "cmp {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  c = s32[] parameter(2)\n  d = s32[] parameter(3)\n  lt = pred[] compare(a, b), direction=LT, type=TOTALORDER\n  eq = pred[] compare(a, b), direction=EQ\n  gt = pred[] compare(c, d), direction=GT\n  t = pred[] and(eq, gt)\n  ROOT o = pred[] or(lt, t)\n}\n";
    let hlo = format!("HloModule m\n{lex}ENTRY e {{\n  x = f32[6]{{0}} parameter(0)\n  y = s32[6]{{0}} parameter(1)\n  ROOT s = (f32[6]{{0}}, s32[6]{{0}}) sort(x, y), dimensions={{0}}, to_apply=cmp\n}}\n");
    let Literal::Tuple(es) =
        run(&hlo, vec![f32s(&[6], &[2.0, 1.0, 2.0, 0.5, 1.0, 2.0]), s32s(&[6], &[0, 1, 2, 3, 4, 5])]).unwrap()
    else {
        panic!()
    };
    assert_eq!(es[1].data(), Some(&Data::S32(vec![3, 4, 1, 5, 2, 0])));
}

#[test]
fn sort_integers_large_is_stable() {
    let cmp = "cmp {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  c = s32[] parameter(2)\n  d = s32[] parameter(3)\n  ROOT lt = pred[] compare(a, b), direction=LT\n}\n";
    let n = 1000;
    let keys: Vec<i32> = (0..n).map(|i| (i * 7919 % 13) as i32).collect();
    let hlo = format!("HloModule m\n{cmp}ENTRY e {{\n  x = s32[{n}]{{0}} parameter(0)\n  y = s32[{n}]{{0}} parameter(1)\n  ROOT s = (s32[{n}]{{0}}, s32[{n}]{{0}}) sort(x, y), dimensions={{0}}, is_stable=true, to_apply=cmp\n}}\n");
    let Literal::Tuple(es) =
        run(&hlo, vec![s32s(&[n], &keys), s32s(&[n], &(0..n as i32).collect::<Vec<_>>())]).unwrap()
    else {
        panic!()
    };
    let mut want: Vec<(i32, i32)> = keys.iter().copied().zip(0..).collect();
    want.sort_by_key(|p| p.0);
    assert_eq!(es[1].data(), Some(&Data::S32(want.iter().map(|p| p.1).collect())));
}

#[test]
fn topk_largest_and_smallest() {
    let hlo = "HloModule m\nENTRY e {\n  x = f32[2,5]{1,0} parameter(0)\n  ROOT t = (f32[2,3]{1,0}, s32[2,3]{1,0}) topk(x), k=3, largest=true\n}\n";
    let x = f32s(&[2, 5], &[1.0, 3.0, 3.0, f32::NAN, -1.0, 0.0, -0.0, 5.0, 0.0, -2.0]);
    let Literal::Tuple(es) = run(hlo, vec![x.clone()]).unwrap() else { panic!() };
    assert_eq!(es[1].data(), Some(&Data::S32(vec![3, 1, 2, 2, 0, 3])));
    let hlo = hlo.replace("largest=true", "largest=false");
    let Literal::Tuple(es) = run(&hlo, vec![x]).unwrap() else { panic!() };
    assert_eq!(es[1].data(), Some(&Data::S32(vec![4, 0, 1, 4, 1, 0])));
    assert_eq!(bits(&f32_data(&es[0])[3..]), bits(&[-2.0, -0.0, 0.0]));
}

#[test]
fn map_binary() {
    let hlo = "HloModule m\nf {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  c = f32[] constant(2)\n  m = f32[] multiply(a, c)\n  ROOT s = f32[] subtract(m, b)\n}\nENTRY e {\n  x = f32[3]{0} parameter(0)\n  y = f32[3]{0} parameter(1)\n  ROOT r = f32[3]{0} map(x, y), dimensions={0}, to_apply=f\n}\n";
    let r = run(hlo, vec![f32s(&[3], &[1.0, 2.0, 3.0]), f32s(&[3], &[0.5, 0.5, 10.0])]).unwrap();
    assert_eq!(f32_data(&r), vec![1.5, 3.5, -4.0]);
}

/// A combiner that no fast path matches and that does not vectorize (a
/// scalar broadcast is not elementwise), so it runs element by element.
fn per_element_combiner(name: &str, t: &str, op: &str) -> String {
    format!("{name} {{\n  a = {t}[] parameter(0)\n  b = {t}[] parameter(1)\n  c = {t}[] {op}(a, b)\n  ROOT r = {t}[] broadcast(c), dimensions={{}}\n}}\n")
}

#[test]
fn per_element_fallbacks_match() {
    let x = f32s(&[3, 4], &[1.0, -2.0, 3.5, 0.25, 8.0, 1.0, -1.0, 2.0, 0.5, 0.5, 6.0, -3.0]);
    // reduce
    let fallback = reduce_module("add", false, "1", "3")
        .replace(&combiner("f", "f32", "add", false), &per_element_combiner("f", "f32", "add"));
    let want = run(&reduce_module("add", true, "1", "3"), vec![x.clone(), f32_scalar(0.5)]).unwrap();
    assert_eq!(run(&fallback, vec![x.clone(), f32_scalar(0.5)]).unwrap(), want);
    // reduce-window
    let w = "size=2x3 stride=1x2 pad=1_0x1_1";
    let plain = window_module("maximum", false, w, "3,4", "3,2");
    let fallback = plain.replace(&combiner("f", "f32", "maximum", false), &per_element_combiner("f", "f32", "maximum"));
    let want = run(&plain, vec![x.clone(), f32_scalar(-100.0)]).unwrap();
    assert_eq!(run(&fallback, vec![x.clone(), f32_scalar(-100.0)]).unwrap(), want);
    assert_eq!(
        run(&window_module("maximum", true, w, "3,4", "3,2"), vec![x.clone(), f32_scalar(-100.0)]).unwrap(),
        want
    );
    // map
    let map = |f: &str| {
        format!("HloModule m\n{f}ENTRY e {{\n  x = f32[3,4]{{1,0}} parameter(0)\n  y = f32[3,4]{{1,0}} parameter(1)\n  ROOT r = f32[3,4]{{1,0}} map(x, y), dimensions={{0,1}}, to_apply=f\n}}\n")
    };
    let want = run(&map(&combiner("f", "f32", "multiply", false)), vec![x.clone(), x.clone()]).unwrap();
    assert_eq!(run(&map(&per_element_combiner("f", "f32", "multiply")), vec![x.clone(), x.clone()]).unwrap(), want);
    // select-and-scatter with a per-element select and scatter
    let sas = |select: &str, scatter: &str| {
        format!("HloModule m\n{select}{scatter}ENTRY e {{\n  x = f32[3,4]{{1,0}} parameter(0)\n  s = f32[2,2]{{1,0}} parameter(1)\n  i = f32[] constant(1)\n  ROOT r = f32[3,4]{{1,0}} select-and-scatter(x, s, i), window={{size=2x3 stride=1x2 pad=0_0x1_0}}, select=sel, scatter=sc\n}}\n")
    };
    let ge =
        "sel {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = pred[] compare(a, b), direction=GE\n}\n";
    let ge_slow = "sel {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  c = pred[] compare(a, b), direction=GE\n  ROOT r = pred[] broadcast(c), dimensions={}\n}\n";
    let ge_vec = "sel {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  c = pred[] compare(a, b), direction=LT\n  ROOT r = pred[] not(c)\n}\n";
    let s = f32s(&[2, 2], &[1.0, 2.0, 3.0, 4.0]);
    let want = run(&sas(ge, &combiner("sc", "f32", "add", false)), vec![x.clone(), s.clone()]).unwrap();
    assert_eq!(f32_data(&want), vec![1.0, 1.0, 3.0, 1.0, 5.0, 1.0, 1.0, 1.0, 1.0, 1.0, 5.0, 1.0]);
    assert_eq!(
        run(&sas(ge_slow, &per_element_combiner("sc", "f32", "add")), vec![x.clone(), s.clone()]).unwrap(),
        want
    );
    assert_eq!(run(&sas(ge_vec, &combiner("sc", "f32", "add", true)), vec![x, s]).unwrap(), want);
}

#[test]
fn narrow_and_unsigned_types() {
    use half::bf16;
    // bf16 sums round after every step, identically on both paths.
    let v: Vec<bf16> = (0..40).map(|i| bf16::from_f32(1.0 + i as f32 * 0.37)).collect();
    let x = Literal::array(vec![4, 10], Data::Bf16(v));
    let init = Literal::scalar(Data::Bf16(vec![bf16::from_f32(0.0)]));
    let m = |general: bool| {
        format!("HloModule m\n{}ENTRY e {{\n  x = bf16[4,10]{{1,0}} parameter(0)\n  i = bf16[] parameter(1)\n  ROOT r = bf16[4]{{0}} reduce(x, i), dimensions={{1}}, to_apply=f\n}}\n", combiner("f", "bf16", "add", general))
    };
    assert_eq!(run(&m(false), vec![x.clone(), init.clone()]).unwrap(), run(&m(true), vec![x, init]).unwrap());
    // u64 keys above i64::MAX sort unsigned.
    let cmp = "cmp {\n  a = u64[] parameter(0)\n  b = u64[] parameter(1)\n  ROOT lt = pred[] compare(a, b), direction=LT\n}\n";
    let hlo = format!("HloModule m\n{cmp}ENTRY e {{\n  x = u64[3]{{0}} parameter(0)\n  ROOT s = u64[3]{{0}} sort(x), dimensions={{0}}, to_apply=cmp\n}}\n");
    let r = run(&hlo, vec![Literal::array(vec![3], Data::U64(vec![u64::MAX, 1, 1 << 63]))]).unwrap();
    assert_eq!(r.data(), Some(&Data::U64(vec![1, 1 << 63, u64::MAX])));
    // f8 bit patterns move untouched.
    let hlo = "HloModule m\nENTRY e {\n  x = f8e4m3fn[2,3]{1,0} parameter(0)\n  ROOT t = f8e4m3fn[3,2]{1,0} transpose(x), dimensions={1,0}\n}\n";
    let x = Literal::array(
        vec![2, 3],
        Data::Bits(rxla_interpreter::ElementType::F8e4m3fn, vec![1, 2, 3, 0x7f, 0xff, 0x80]),
    );
    let r = run(hlo, vec![x]).unwrap();
    assert_eq!(r.data(), Some(&Data::Bits(rxla_interpreter::ElementType::F8e4m3fn, vec![1, 0x7f, 2, 0xff, 3, 0x80])));
}

#[test]
fn lexicographic_sort_matches_comparator_calls() {
    // JAX's two-key comparator (total order on float keys), and the same
    // comparator hidden behind not(not(...)) so it is called per comparison.
    let cmp = "cmp {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  e = s32[] parameter(4)
  f = s32[] parameter(5)
  lt0 = pred[] compare(a, b), direction=LT, type=TOTALORDER
  eq0 = pred[] compare(a, b), direction=EQ, type=TOTALORDER
  lt1 = pred[] compare(c, d), direction=GT
  t = pred[] and(eq0, lt1)
  ROOT o = pred[] or(lt0, t)
}
";
    let slow = cmp
        .replace("ROOT o = pred[] or(lt0, t)", "o = pred[] or(lt0, t)\n  n = pred[] not(o)\n  ROOT nn = pred[] not(n)");
    let module = |c: &str| {
        format!("HloModule m\n{c}ENTRY e {{\n  x = f32[12]{{0}} parameter(0)\n  y = s32[12]{{0}} parameter(1)\n  z = s32[12]{{0}} parameter(2)\n  ROOT s = (f32[12]{{0}}, s32[12]{{0}}, s32[12]{{0}}) sort(x, y, z), dimensions={{0}}, is_stable=true, to_apply=cmp\n}}\n")
    };
    let x = f32s(&[12], &[1.0, -0.0, 0.0, 1.0, f32::NAN, 2.0, 1.0, 0.0, -0.0, f32::NAN, 2.0, 1.0]);
    let y = s32s(&[12], &[3, 1, 1, 5, 0, 2, 3, 7, 1, 9, 2, 4]);
    let z = s32s(&[12], &(0..12).collect::<Vec<_>>());
    let fast = run(&module(cmp), vec![x.clone(), y.clone(), z.clone()]).unwrap();
    let general = run(&module(&slow), vec![x, y, z]).unwrap();
    let (Literal::Tuple(a), Literal::Tuple(b)) = (&fast, &general) else { panic!() };
    assert_eq!(a[2], b[2]);
    assert_eq!(a[2].data(), Some(&Data::S32(vec![1, 8, 7, 2, 3, 11, 0, 6, 5, 10, 9, 4])));
}
