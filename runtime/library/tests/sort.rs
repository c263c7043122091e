//! `sort` against the reference interpreter: comparators written in Rust
//! over the element pointers, the same comparators as HLO computations for
//! the interpreter; several operands of every element size, ties
//! (stability), NaN and signed zeros, every sort dimension, zero-size
//! arrays, and arrays large enough for the parallel paths.

mod support;
use rxla_interpreter::Literal;
use rxla_library::array::{literal_bytes, ArrayMut, Buffer, ElementType};
use rxla_library::sort::sort;
use support::*;

type Less = Box<dyn Fn(&[*const u8]) -> bool + Sync>;

fn read<T: Copy>(p: *const u8) -> T {
    // SAFETY: the sort passes pointers to elements of the operands.
    unsafe { (p as *const T).read_unaligned() }
}

/// XLA's TOTALORDER key of an f32: -NaN < -inf < .. < -0 < +0 < .. < NaN.
fn total_key(x: f32) -> i32 {
    let i = x.to_bits() as i32;
    if i < 0 {
        i ^ 0x7fff_ffff
    } else {
        i
    }
}

/// A comparator: its HLO computation (over the operand types) and the
/// equivalent Rust closure.
struct Comparator {
    body: &'static str,
    less: Less,
}

fn comparator(kind: &str) -> Comparator {
    match kind {
        // Operand 0 (f32) ascending in total order.
        "total" => Comparator {
            body: "ROOT r = pred[] compare(p0, p1), direction=LT, type=TOTALORDER",
            less: Box::new(|p| total_key(read::<f32>(p[0])) < total_key(read::<f32>(p[1]))),
        },
        // Operand 0 (f32) ascending, IEEE (NaN compares false).
        "ieee" => Comparator {
            body: "ROOT r = pred[] compare(p0, p1), direction=LT",
            less: Box::new(|p| read::<f32>(p[0]) < read::<f32>(p[1])),
        },
        // Operand 1 (s32) descending.
        "desc1" => Comparator {
            body: "ROOT r = pred[] compare(p2, p3), direction=GT",
            less: Box::new(|p| read::<i32>(p[2]) > read::<i32>(p[3])),
        },
        // Lexicographic over operand 1 (s32) then operand 0 (f32, total).
        "lex" => Comparator {
            body: "lt1 = pred[] compare(p2, p3), direction=LT\n  eq1 = pred[] compare(p2, p3), direction=EQ\n  lt0 = pred[] compare(p0, p1), direction=LT, type=TOTALORDER\n  both = pred[] and(eq1, lt0)\n  ROOT r = pred[] or(lt1, both)",
            less: Box::new(|p| {
                let (a, b) = (read::<i32>(p[2]), read::<i32>(p[3]));
                a < b || (a == b && total_key(read::<f32>(p[0])) < total_key(read::<f32>(p[1])))
            }),
        },
        other => panic!("no comparator {other}"),
    }
}

/// Operand types after the f32 keys (and the s32 second operand).
const VALUE_TYPES: &[&str] = &["u8", "f16", "f64", "c128", "pred", "s64"];

/// f32 keys with ties, signed zeros and (optionally) NaN and infinities.
fn keys(rng: &mut Rng, n: usize, nan: bool) -> Vec<f32> {
    (0..n)
        .map(|_| match rng.below(if nan { 12 } else { 9 }) {
            0 => 0.0,
            1 => -0.0,
            9 => f32::NAN,
            10 => -f32::NAN,
            11 => f32::NEG_INFINITY,
            _ => (rng.range(-6, 6) as f32) * 0.5,
        })
        .collect()
}

/// Sorts f32 keys, s32 values and `values` operands of the given types.
fn run_case(rng: &mut Rng, dims: &[usize], dimension: usize, kind: &str, values: &[&str], nan: bool) {
    let n: usize = dims.iter().product();
    let d64: Vec<i64> = dims.iter().map(|&d| d as i64).collect();
    let mut operands: Vec<Literal> = vec![
        Literal::array(d64.clone(), rxla_interpreter::Data::F32(keys(rng, n, nan))),
        Literal::array(d64.clone(), rxla_interpreter::Data::S32((0..n).map(|_| rng.range(-3, 3) as i32).collect())),
    ];
    for t in values {
        operands.push(random_literal(rng, ty(t), dims, 1.0));
    }
    let cmp = comparator(kind);
    let types: Vec<ElementType> = operands.iter().map(lit_type).collect();
    let params: String = types
        .iter()
        .enumerate()
        .flat_map(|(k, t)| {
            [
                format!("  p{} = {}[] parameter({})\n", 2 * k, t.name(), 2 * k),
                format!("  p{} = {}[] parameter({})\n", 2 * k + 1, t.name(), 2 * k + 1),
            ]
        })
        .collect();
    let shapes: Vec<String> = types.iter().map(|&t| shape_text(t, dims)).collect();
    let entry_params: String =
        shapes.iter().enumerate().map(|(k, s)| format!("  x{k} = {s} parameter({k})\n")).collect();
    let names: Vec<String> = (0..types.len()).map(|k| format!("x{k}")).collect();
    let text = format!(
        "HloModule m\n\ncmp {{\n{params}  {}\n}}\n\nENTRY e {{\n{entry_params}  ROOT s = ({}) sort({}), dimensions={{{dimension}}}, is_stable=true, to_apply=cmp\n}}\n",
        cmp.body,
        shapes.join(", "),
        names.join(", ")
    );
    let want = run_hlo(&text, &operands);
    let want: Vec<Literal> = want.tuple_elements().expect("a tuple").to_vec();
    let mut buffers: Vec<Buffer> = operands.iter().map(buffer).collect();
    let mut views: Vec<ArrayMut> =
        buffers.iter_mut().zip(&types).map(|(b, &t)| ArrayMut::new(t, &d64, b.as_mut_slice())).collect();
    sort(&mut views, dimension, &*cmp.less).unwrap_or_else(|e| panic!("{e}\n{text}"));
    drop(views);
    if nan && kind == "ieee" {
        // Not a strict weak order: any permutation of each slice is valid.
        // Check that operand 0 holds the same multiset of bits.
        let mut g: Vec<u32> =
            buffers[0].as_slice().chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
        let mut w: Vec<u32> =
            literal_bytes(&operands[0]).unwrap().chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
        g.sort();
        w.sort();
        assert_eq!(g, w, "{text}");
        return;
    }
    for (k, (b, w)) in buffers.iter().zip(&want).enumerate() {
        assert!(b.as_slice() == literal_bytes(w).unwrap().as_slice(), "operand {k} differs\n{text}");
    }
}

#[test]
fn random_shapes_dimensions_and_comparators() {
    let mut rng = Rng::new(21);
    let mut count = 0;
    for kind in ["total", "desc1", "lex", "ieee"] {
        for _ in 0..60 {
            let rank = 1 + rng.below(3);
            let dims: Vec<usize> = (0..rank).map(|_| if rng.below(20) == 0 { 0 } else { 1 + rng.below(9) }).collect();
            let dimension = rng.below(rank);
            let nan = kind != "ieee" || rng.bool();
            let extra = rng.below(4);
            let values: Vec<&str> = (0..extra).map(|_| rng.pick(VALUE_TYPES)).collect();
            run_case(&mut rng, &dims, dimension, kind, &values, nan);
            count += 1;
        }
    }
    assert_eq!(count, 240);
}

#[test]
fn every_element_size_travels_with_the_keys() {
    let mut rng = Rng::new(22);
    // Records of 1, 2, 3 and 4 words, and too large for a record (sorted
    // through an index permutation).
    let layouts: &[&[&str]] =
        &[&[], &["u8"], &["f64"], &["c128"], &["f64", "f64", "f64"], &["u8", "f16", "f64", "c128", "pred", "s64"]];
    for values in layouts {
        run_case(&mut rng, &[5, 17], 1, "total", values, true);
        run_case(&mut rng, &[17, 5], 0, "lex", values, true);
        run_case(&mut rng, &[30_000], 0, "desc1", values, false);
    }
    // More than 8 operands: the comparator's pointer list is on the heap.
    run_case(&mut rng, &[3, 4, 11], 2, "desc1", &["s64"; 8], false);
}

#[test]
fn large_sorts_take_the_parallel_paths() {
    let mut rng = Rng::new(23);
    // One long slice: parallel merge sort (many ties: stability).
    run_case(&mut rng, &[200_000], 0, "total", &[], true);
    // Two long slices, and many short ones along inner and outer dims.
    run_case(&mut rng, &[2, 40_000], 1, "desc1", &["u8"], false);
    run_case(&mut rng, &[64, 3000], 1, "lex", &[], true);
    run_case(&mut rng, &[3000, 64], 0, "total", &["c128"], true);
    // NaN with an IEEE comparator on a long slice: no panic, a permutation.
    run_case(&mut rng, &[100_000], 0, "ieee", &[], true);
}

#[test]
fn bad_operands_are_errors() {
    let never: Less = Box::new(|_| false);
    assert!(sort(&mut [], 0, &*never).is_err());
    let mut a = Buffer::zeroed(24);
    let mut b = Buffer::zeroed(12);
    let mut views = vec![
        ArrayMut::new(ElementType::F32, &[2, 3], a.as_mut_slice()),
        ArrayMut::new(ElementType::F32, &[3], b.as_mut_slice()),
    ];
    assert!(sort(&mut views, 0, &*never).unwrap_err().contains("dims"));
    let mut views = vec![ArrayMut::new(ElementType::F32, &[2, 3], a.as_mut_slice())];
    assert!(sort(&mut views, 2, &*never).unwrap_err().contains("out of range"));
}
