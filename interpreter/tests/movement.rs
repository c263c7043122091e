//! Data movement ops on small hand-made literals.

use half::bf16;
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
fn s32(v: i32) -> Literal {
    Literal::scalar(Data::S32(vec![v]))
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

#[test]
fn broadcast_maps_operand_dims() {
    let hlo = "HloModule m\nENTRY e {\n  p = f32[2]{0} parameter(0)\n  ROOT b = f32[2,3]{1,0} broadcast(p), dimensions={0}\n}\n";
    let r = run(hlo, vec![f32s(&[2], &[1.0, 2.0])]).unwrap();
    assert_eq!(r.dims(), &[2, 3]);
    assert_eq!(f32_data(&r), vec![1.0, 1.0, 1.0, 2.0, 2.0, 2.0]);
    let hlo =
        "HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n  ROOT b = f32[2,2]{1,0} broadcast(p), dimensions={}\n}\n";
    let r = run(hlo, vec![Literal::scalar(Data::F32(vec![7.0]))]).unwrap();
    assert_eq!(f32_data(&r), vec![7.0; 4]);
}

#[test]
fn transpose_reverse_reshape() {
    let hlo = "HloModule m\nENTRY e {\n  p = f32[2,3,4]{2,1,0} parameter(0)\n  ROOT t = f32[4,2,3]{2,1,0} transpose(p), dimensions={2,0,1}\n}\n";
    let r = run(hlo, vec![iota_f32(&[2, 3, 4])]).unwrap();
    let v = f32_data(&r);
    // result[i,j,k] = operand[j,k,i]
    for i in 0..4 {
        for j in 0..2 {
            for k in 0..3 {
                assert_eq!(v[i * 6 + j * 3 + k], (j * 12 + k * 4 + i) as f32);
            }
        }
    }
    let hlo = "HloModule m\nENTRY e {\n  p = f32[2,3]{1,0} parameter(0)\n  ROOT r = f32[2,3]{1,0} reverse(p), dimensions={1}\n}\n";
    assert_eq!(f32_data(&run(hlo, vec![iota_f32(&[2, 3])]).unwrap()), vec![2.0, 1.0, 0.0, 5.0, 4.0, 3.0]);
    let hlo = "HloModule m\nENTRY e {\n  p = f32[2,3]{1,0} parameter(0)\n  ROOT r = f32[3,2]{1,0} reshape(p)\n}\n";
    let r = run(hlo, vec![iota_f32(&[2, 3])]).unwrap();
    assert_eq!(r.dims(), &[3, 2]);
    assert_eq!(f32_data(&r), vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
}

#[test]
fn slice_strided_and_bf16() {
    let hlo = "HloModule m\nENTRY e {\n  p = bf16[4,5]{1,0} parameter(0)\n  ROOT s = bf16[2,2]{1,0} slice(p), slice={[1:4:2], [0:5:3]}\n}\n";
    let v: Vec<bf16> = (0..20).map(|i| bf16::from_f32(i as f32)).collect();
    let r = run(hlo, vec![Literal::array(vec![4, 5], Data::Bf16(v))]).unwrap();
    let Some(Data::Bf16(out)) = r.data() else { panic!() };
    let out: Vec<f32> = out.iter().map(|x| x.to_f32()).collect();
    assert_eq!(out, vec![5.0, 8.0, 15.0, 18.0]);
}

#[test]
fn dynamic_slice_clamps_start_indices() {
    let hlo = "HloModule m\nENTRY e {\n  p = f32[5]{0} parameter(0)\n  i = s32[] parameter(1)\n  ROOT d = f32[2]{0} dynamic-slice(p, i), dynamic_slice_sizes={2}\n}\n";
    let x = iota_f32(&[5]);
    assert_eq!(f32_data(&run(hlo, vec![x.clone(), s32(1)]).unwrap()), vec![1.0, 2.0]);
    assert_eq!(f32_data(&run(hlo, vec![x.clone(), s32(-7)]).unwrap()), vec![0.0, 1.0]);
    assert_eq!(f32_data(&run(hlo, vec![x.clone(), s32(4)]).unwrap()), vec![3.0, 4.0]);
    // Unsigned index types read unsigned.
    let hlo_u = hlo.replace("s32[]", "u32[]");
    let big = Literal::scalar(Data::U32(vec![u32::MAX]));
    assert_eq!(f32_data(&run(&hlo_u, vec![x, big]).unwrap()), vec![3.0, 4.0]);
}

#[test]
fn dynamic_update_slice_clamps() {
    let hlo = "HloModule m\nENTRY e {\n  p = f32[2,4]{1,0} parameter(0)\n  u = f32[1,2]{1,0} parameter(1)\n  i = s32[] parameter(2)\n  j = s32[] parameter(3)\n  ROOT d = f32[2,4]{1,0} dynamic-update-slice(p, u, i, j)\n}\n";
    let r = run(hlo, vec![iota_f32(&[2, 4]), f32s(&[1, 2], &[-1.0, -2.0]), s32(5), s32(3)]).unwrap();
    assert_eq!(f32_data(&r), vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0, -1.0, -2.0]);
}

#[test]
fn concatenate_and_pad() {
    let hlo = "HloModule m\nENTRY e {\n  a = s32[2,1]{1,0} parameter(0)\n  b = s32[2,2]{1,0} parameter(1)\n  ROOT c = s32[2,3]{1,0} concatenate(a, b), dimensions={1}\n}\n";
    let r = run(hlo, vec![s32s(&[2, 1], &[1, 2]), s32s(&[2, 2], &[3, 4, 5, 6])]).unwrap();
    assert_eq!(r.data(), Some(&Data::S32(vec![1, 3, 4, 2, 5, 6])));
    // low=-1 high=2 interior=1 on [0,1,2] -> [0 p 1 p 2] cropped left by 1, 2 appended.
    let hlo = "HloModule m\nENTRY e {\n  a = f32[3]{0} parameter(0)\n  v = f32[] parameter(1)\n  ROOT p = f32[6]{0} pad(a, v), padding=-1_2_1\n}\n";
    let r = run(hlo, vec![f32s(&[3], &[0.0, 1.0, 2.0]), Literal::scalar(Data::F32(vec![9.0]))]).unwrap();
    assert_eq!(f32_data(&r), vec![9.0, 1.0, 9.0, 2.0, 9.0, 9.0]);
    let hlo = "HloModule m\nENTRY e {\n  a = f32[2,2]{1,0} parameter(0)\n  v = f32[] parameter(1)\n  ROOT p = f32[1,4]{1,0} pad(a, v), padding=0_-1x1_1\n}\n";
    let r = run(hlo, vec![iota_f32(&[2, 2]), Literal::scalar(Data::F32(vec![9.0]))]).unwrap();
    assert_eq!(f32_data(&r), vec![9.0, 0.0, 1.0, 9.0]);
}

#[test]
fn gather_take_rows_with_clamping() {
    let hlo = "HloModule m\nENTRY e {\n  x = f32[4,3]{1,0} parameter(0)\n  i = s32[3,1]{1,0} parameter(1)\n  ROOT g = f32[3,3]{1,0} gather(x, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}\n}\n";
    let r = run(hlo, vec![iota_f32(&[4, 3]), s32s(&[3, 1], &[2, -5, 9])]).unwrap();
    assert_eq!(f32_data(&r), vec![6.0, 7.0, 8.0, 0.0, 1.0, 2.0, 9.0, 10.0, 11.0]);
}

#[test]
fn gather_windows_clamp_to_fit() {
    // 2x2 patches at (r, c), clamped so the window fits.
    let hlo = "HloModule m\nENTRY e {\n  x = f32[3,3]{1,0} parameter(0)\n  i = s32[2,2]{1,0} parameter(1)\n  ROOT g = f32[2,2,2]{2,1,0} gather(x, i), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={2,2}\n}\n";
    let r = run(hlo, vec![iota_f32(&[3, 3]), s32s(&[2, 2], &[0, 1, 2, 2])]).unwrap();
    assert_eq!(f32_data(&r), vec![1.0, 2.0, 4.0, 5.0, 4.0, 5.0, 7.0, 8.0]);
}

#[test]
fn gather_with_batching_dims() {
    // out[b] = x[b, i[b]]
    let hlo = "HloModule m\nENTRY e {\n  x = f32[3,4]{1,0} parameter(0)\n  i = s32[3,1]{1,0} parameter(1)\n  ROOT g = f32[3]{0} gather(x, i), offset_dims={}, collapsed_slice_dims={1}, start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, index_vector_dim=1, slice_sizes={1,1}\n}\n";
    let r = run(hlo, vec![iota_f32(&[3, 4]), s32s(&[3, 1], &[3, 0, 2])]).unwrap();
    assert_eq!(f32_data(&r), vec![3.0, 4.0, 10.0]);
}

const ADD: &str = "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n";

#[test]
fn scatter_add_duplicates_and_skips_out_of_bounds() {
    let hlo = format!("HloModule m\n{ADD}ENTRY e {{\n  x = f32[4]{{0}} parameter(0)\n  i = s32[5,1]{{1,0}} parameter(1)\n  u = f32[5]{{0}} parameter(2)\n  ROOT s = f32[4]{{0}} scatter(x, i, u), update_window_dims={{}}, inserted_window_dims={{0}}, scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply=add\n}}\n");
    let r = run(
        &hlo,
        vec![f32s(&[4], &[0.0; 4]), s32s(&[5, 1], &[1, 1, 4, -1, 3]), f32s(&[5], &[1.0, 2.0, 100.0, 200.0, 5.0])],
    )
    .unwrap();
    assert_eq!(f32_data(&r), vec![0.0, 3.0, 0.0, 5.0]);
}

#[test]
fn scatter_window_skipped_when_partly_out_of_bounds() {
    let set = "set {\n  a = f32[] parameter(0)\n  ROOT b = f32[] parameter(1)\n}\n";
    let hlo = format!("HloModule m\n{set}ENTRY e {{\n  x = f32[5]{{0}} parameter(0)\n  i = s32[2,1]{{1,0}} parameter(1)\n  u = f32[2,2]{{1,0}} parameter(2)\n  ROOT s = f32[5]{{0}} scatter(x, i, u), update_window_dims={{1}}, inserted_window_dims={{}}, scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply=set\n}}\n");
    let r =
        run(&hlo, vec![f32s(&[5], &[0.0; 5]), s32s(&[2, 1], &[4, 1]), f32s(&[2, 2], &[1.0, 2.0, 3.0, 4.0])]).unwrap();
    assert_eq!(f32_data(&r), vec![0.0, 3.0, 4.0, 0.0, 0.0]);
}

#[test]
fn scatter_general_combiner_matches_fast_path() {
    // to_apply computes a - (-b) = a + b without being a plain add.
    let sub = "sub {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  n = f32[] negate(b)\n  ROOT s = f32[] subtract(a, n)\n}\n";
    let body = "ENTRY e {\n  x = f32[3,2]{1,0} parameter(0)\n  i = s32[4]{0} parameter(1)\n  u = f32[4,2]{1,0} parameter(2)\n  ROOT s = f32[3,2]{1,0} scatter(x, i, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=F\n}\n";
    let args =
        || vec![iota_f32(&[3, 2]), s32s(&[4], &[2, 0, 2, 7]), f32s(&[4, 2], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])];
    let a = run(&format!("HloModule m\n{sub}{}", body.replace("=F", "=sub")), args()).unwrap();
    let b = run(&format!("HloModule m\n{ADD}{}", body.replace("=F", "=add")), args()).unwrap();
    assert_eq!(a, b);
    assert_eq!(f32_data(&a), vec![3.0, 5.0, 2.0, 3.0, 10.0, 13.0]);
}

#[test]
fn scatter_with_batching_dims() {
    // x[b, i[b, j]] += u[b, j]
    let hlo = format!("HloModule m\n{ADD}ENTRY e {{\n  x = f32[2,3]{{1,0}} parameter(0)\n  i = s32[2,2,1]{{2,1,0}} parameter(1)\n  u = f32[2,2]{{1,0}} parameter(2)\n  ROOT s = f32[2,3]{{1,0}} scatter(x, i, u), update_window_dims={{}}, inserted_window_dims={{1}}, scatter_dims_to_operand_dims={{1}}, input_batching_dims={{0}}, scatter_indices_batching_dims={{0}}, index_vector_dim=2, to_apply=add\n}}\n");
    let r = run(
        &hlo,
        vec![f32s(&[2, 3], &[0.0; 6]), s32s(&[2, 2, 1], &[0, 2, 1, 1]), f32s(&[2, 2], &[1.0, 2.0, 3.0, 4.0])],
    )
    .unwrap();
    assert_eq!(f32_data(&r), vec![1.0, 0.0, 2.0, 0.0, 7.0, 0.0]);
}

#[test]
fn variadic_scatter() {
    let comb = "c {\n  a = f32[] parameter(0)\n  b = s32[] parameter(1)\n  c = f32[] parameter(2)\n  d = s32[] parameter(3)\n  s = f32[] add(a, c)\n  t = s32[] multiply(b, d)\n  ROOT r = (f32[], s32[]) tuple(s, t)\n}\n";
    let hlo = format!("HloModule m\n{comb}ENTRY e {{\n  x = f32[3]{{0}} parameter(0)\n  y = s32[3]{{0}} parameter(1)\n  i = s32[2,1]{{1,0}} parameter(2)\n  u = f32[2]{{0}} parameter(3)\n  v = s32[2]{{0}} parameter(4)\n  ROOT s = (f32[3]{{0}}, s32[3]{{0}}) scatter(x, y, i, u, v), update_window_dims={{}}, inserted_window_dims={{0}}, scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply=c\n}}\n");
    let r = run(
        &hlo,
        vec![
            f32s(&[3], &[1.0, 1.0, 1.0]),
            s32s(&[3], &[1, 2, 3]),
            s32s(&[2, 1], &[2, 2]),
            f32s(&[2], &[5.0, 6.0]),
            s32s(&[2], &[4, 5]),
        ],
    )
    .unwrap();
    let Literal::Tuple(es) = r else { panic!() };
    assert_eq!(f32_data(&es[0]), vec![1.0, 1.0, 12.0]);
    assert_eq!(es[1].data(), Some(&Data::S32(vec![1, 2, 60])));
}

#[test]
fn dimension_size_and_shuffle() {
    let hlo = "HloModule m\nENTRY e {\n  p = f32[2,7]{1,0} parameter(0)\n  ROOT d = s32[] get-dimension-size(p), dimensions={1}\n}\n";
    assert_eq!(run(hlo, vec![iota_f32(&[2, 7])]).unwrap().data(), Some(&Data::S32(vec![7])));
    let hlo = "HloModule m\nENTRY e {\n  p = f32[2,4]{1,0} parameter(0)\n  ROOT s = f32[2,4]{1,0} shuffle(p), dimensions={1,0}, shifts={-1,3}, mode=rotate\n}\n";
    let r = run(hlo, vec![iota_f32(&[2, 4])]).unwrap();
    // out[i,j] = in[(i+3)%2, (j-1)%4]
    assert_eq!(f32_data(&r), vec![7.0, 4.0, 5.0, 6.0, 3.0, 0.0, 1.0, 2.0]);
}

#[test]
fn zero_size_arrays() {
    let hlo = "HloModule m\nENTRY e {\n  p = f32[0,3]{1,0} parameter(0)\n  ROOT t = f32[3,0]{1,0} transpose(p), dimensions={1,0}\n}\n";
    let r = run(hlo, vec![f32s(&[0, 3], &[])]).unwrap();
    assert_eq!(r.dims(), &[3, 0]);
}

#[test]
fn malformed_attributes_are_errors() {
    let hlo = "HloModule m\nENTRY e {\n  p = f32[4]{0} parameter(0)\n  ROOT s = f32[2]{0} slice(p), slice={[3:9]}\n}\n";
    assert!(run(hlo, vec![iota_f32(&[4])]).is_err());
    let hlo = "HloModule m\nENTRY e {\n  p = f32[2,3]{1,0} parameter(0)\n  ROOT t = f32[3,2]{1,0} transpose(p), dimensions={0,0}\n}\n";
    assert!(run(hlo, vec![iota_f32(&[2, 3])]).is_err());
}

#[test]
fn large_transposes_match_naive() {
    let dims = [2i64, 33, 70];
    let x = iota_f32(&dims);
    for perm in [[0usize, 2, 1], [2, 1, 0], [1, 2, 0]] {
        let out: Vec<i64> = perm.iter().map(|&p| dims[p]).collect();
        let hlo = format!(
            "HloModule m\nENTRY e {{\n  p = f32[2,33,70]{{2,1,0}} parameter(0)\n  ROOT t = f32[{},{},{}]{{2,1,0}} transpose(p), dimensions={{{},{},{}}}\n}}\n",
            out[0], out[1], out[2], perm[0], perm[1], perm[2]
        );
        let v = f32_data(&run(&hlo, vec![x.clone()]).unwrap());
        let st = [33 * 70, 70, 1];
        let mut k = 0;
        for i in 0..out[0] {
            for j in 0..out[1] {
                for l in 0..out[2] {
                    let mut src = [0i64; 3];
                    src[perm[0]] = i;
                    src[perm[1]] = j;
                    src[perm[2]] = l;
                    let want = (src[0] * st[0] + src[1] * st[1] + src[2] * st[2]) as f32;
                    assert_eq!(v[k], want, "perm {perm:?} at {i},{j},{l}");
                    k += 1;
                }
            }
        }
    }
}
