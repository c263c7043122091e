//! Every indexing map shown in the seeds' "Indexing (docs/indexing.md)"
//! section, reproduced from the ops it describes. Texts are compared ignoring
//! whitespace (as XLA's tests do); where the document has a typo (a missing
//! or extra comma, or a wrong map) the test says so.

use rxla_indexing::{
    fusion_output_to_input_indexing, input_to_output_indexing, output_to_input_indexing, DotDims, Fusion, GatherDims,
    IndexingMap, OpAttrs, OpDesc, PadDim, WindowDim,
};

fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

#[track_caller]
fn check(actual: &IndexingMap, expected: &str) {
    assert_eq!(squash(&actual.to_string()), squash(expected), "\nactual:   {actual}\nexpected: {expected}");
    // The text parses back to the same map.
    assert_eq!(&IndexingMap::parse(&actual.to_string()).unwrap(), actual);
}

fn op(opcode: &str, operands: Vec<Vec<i64>>, result: Vec<i64>, attrs: OpAttrs) -> OpDesc {
    OpDesc::new(opcode, operands, result).with_attrs(attrs)
}

fn out_to_in(op: &OpDesc, operand: usize) -> IndexingMap {
    output_to_input_indexing(op, 0).unwrap().map(operand).unwrap().clone()
}

fn in_to_out(op: &OpDesc, operand: usize) -> IndexingMap {
    input_to_output_indexing(op, operand).unwrap().map(0).unwrap().clone()
}

#[test]
fn broadcast_intro_and_example() {
    let bc = op(
        "broadcast",
        vec![vec![20]],
        vec![10, 20, 30],
        OpAttrs { broadcast_dimensions: vec![1], ..Default::default() },
    );
    check(&out_to_in(&bc, 0), "(d0, d1, d2) -> (d1),\ndomain:\nd0 in [0, 9],\nd1 in [0, 19],\nd2 in [0, 29]");
    check(&in_to_out(&bc, 0), "(d0)[s0, s1] -> (s0, d0, s1),\ndomain:\nd0 in [0, 19],\ns0 in [0, 9],\ns1 in [0, 29]");
}

#[test]
fn elementwise() {
    let add = op("add", vec![vec![10, 20], vec![10, 20]], vec![10, 20], OpAttrs::default());
    let expected = "(d0, d1) -> (d0, d1),\ndomain:\nd0 in [0, 9],\nd1 in [0, 19]";
    check(&out_to_in(&add, 0), expected);
    check(&out_to_in(&add, 1), expected);
    check(&in_to_out(&add, 0), expected);
}

#[test]
fn iota() {
    let iota = op("iota", vec![], vec![2, 4], OpAttrs { iota_dimension: Some(1), ..Default::default() });
    // Iota reads no operand (XLA returns no operand maps); the seed's
    // "output to input" map is the scalar map over the output.
    assert!(output_to_input_indexing(&iota, 0).unwrap().indexing_maps.is_empty());
    // The seed omits the commas before `domain:` and between the entries.
    check(&IndexingMap::scalar(&[2, 4]), "(d0, d1) -> (),\ndomain:\nd0 in [0, 1],\nd1 in [0, 3]");
    check(&in_to_out(&iota, 0), "()[s0, s1] -> (s0, s1),\ndomain:\ns0 in [0, 1],\ns1 in [0, 3]");
}

#[test]
fn dynamic_slice() {
    let ds = op(
        "dynamic-slice",
        vec![vec![2, 2, 258], vec![], vec![], vec![]],
        vec![1, 2, 32],
        OpAttrs { dynamic_slice_sizes: vec![1, 2, 32], ..Default::default() },
    );
    let indexing = output_to_input_indexing(&ds, 0).unwrap();
    check(
        indexing.map(0).unwrap(),
        "(d0, d1, d2){rt0, rt1, rt2} -> (d0 + rt0, d1 + rt1, d2 + rt2),\ndomain:\nd0 in [0, 0],\nd1 in [0, 1],\n\
         d2 in [0, 31],\nrt0 in [0, 1],\nrt1 in [0, 0],\nrt2 in [0, 226]",
    );
    for k in 1..4 {
        check(indexing.map(k).unwrap(), "(d0, d1, d2) -> (),\ndomain:\nd0 in [0, 0],\nd1 in [0, 1],\nd2 in [0, 31]");
    }
    // Each runtime variable is read from the matching offset operand.
    let rts: Vec<usize> = indexing.indexing_maps[0][0].rt_vars.iter().map(|r| r.operand).collect();
    assert_eq!(rts, vec![1, 2, 3]);
}

#[test]
fn dynamic_update_slice() {
    let dus =
        op("dynamic-update-slice", vec![vec![20, 30], vec![5, 10], vec![], vec![]], vec![20, 30], OpAttrs::default());
    let indexing = output_to_input_indexing(&dus, 0).unwrap();
    check(indexing.map(0).unwrap(), "(d0, d1) -> (d0, d1),\ndomain:\nd0 in [0, 19],\nd1 in [0, 29]");
    check(
        indexing.map(1).unwrap(),
        "(d0, d1){rt0, rt1} -> (d0 - rt0, d1 - rt1),\ndomain:\nd0 in [0, 19],\nd1 in [0, 29],\nrt0 in [0, 15],\nrt1 in [0, 20]",
    );
    check(indexing.map(2).unwrap(), "(d0, d1) -> (),\ndomain:\nd0 in [0, 19],\nd1 in [0, 29]");
    check(indexing.map(3).unwrap(), "(d0, d1) -> (),\ndomain:\nd0 in [0, 19],\nd1 in [0, 29]");
}

#[test]
fn gather() {
    let g = op(
        "gather",
        vec![vec![33, 76, 70], vec![1806, 2]],
        vec![1806, 7, 8, 4],
        OpAttrs {
            gather: Some(GatherDims {
                offset_dims: vec![1, 2, 3],
                start_index_map: vec![0, 1],
                index_vector_dim: 1,
                slice_sizes: vec![7, 8, 4],
                ..Default::default()
            }),
            ..Default::default()
        },
    );
    let indexing = output_to_input_indexing(&g, 0).unwrap();
    check(
        indexing.map(0).unwrap(),
        "(d0, d1, d2, d3){rt0, rt1} -> (d1 + rt0, d2 + rt1, d3),\ndomain:\nd0 in [0, 1805],\nd1 in [0, 6],\nd2 in [0, 7],\n\
         d3 in [0, 3],\nrt0 in [0, 26],\nrt1 in [0, 68]",
    );
    check(
        indexing.map(1).unwrap(),
        "(d0, d1, d2, d3)[s0] -> (d0, s0),\ndomain:\nd0 in [0, 1805],\nd1 in [0, 6],\nd2 in [0, 7],\nd3 in [0, 3],\ns0 in [0, 1]",
    );
    // rt_k is indices[d0, k].
    let rt = &indexing.indexing_maps[0][0].rt_vars;
    assert_eq!(rt.len(), 2);
    assert_eq!(rt[1].operand, 1);
    check(&rt[1].map, "(d0, d1, d2, d3) -> (d0, 1), domain: d0 in [0, 1805], d1 in [0, 6], d2 in [0, 7], d3 in [0, 3]");
}

#[test]
fn transpose() {
    let t = op(
        "transpose",
        vec![vec![3, 12288, 6, 128]],
        vec![3, 6, 128, 12288],
        OpAttrs { permutation: vec![0, 2, 3, 1], ..Default::default() },
    );
    // The seed ends this domain with a stray comma.
    check(&out_to_in(&t, 0), "(d0, d1, d2, d3) -> (d0, d3, d1, d2),\ndomain:\nd0 in [0, 2],\nd1 in [0, 5],\nd2 in [0, 127],\nd3 in [0, 12287]");
    check(&in_to_out(&t, 0), "(d0, d1, d2, d3) -> (d0, d2, d3, d1),\ndomain:\nd0 in [0, 2],\nd1 in [0, 12287],\nd2 in [0, 5],\nd3 in [0, 127]");
}

#[test]
fn reverse() {
    let r = op(
        "reverse",
        vec![vec![1, 17, 9, 9]],
        vec![1, 17, 9, 9],
        OpAttrs { reverse_dimensions: vec![1, 2], ..Default::default() },
    );
    let expected = "(d0, d1, d2, d3) -> (d0, -d1 + 16, -d2 + 8, d3),\ndomain:\nd0 in [0, 0],\nd1 in [0, 16],\nd2 in [0, 8],\nd3 in [0, 8]";
    check(&out_to_in(&r, 0), expected);
    check(&in_to_out(&r, 0), expected);
}

#[test]
fn variadic_reduce() {
    let mut r = op(
        "reduce",
        vec![vec![256, 10], vec![256, 10], vec![], vec![]],
        vec![10],
        OpAttrs { reduce_dimensions: vec![0], ..Default::default() },
    );
    r.result_shapes = vec![vec![10], vec![10]];
    check(&out_to_in(&r, 0), "(d0)[s0] -> (s0, d0),\ndomain:\nd0 in [0, 9],\ns0 in [0, 255]");
    check(&out_to_in(&r, 2), "(d0) -> (),\ndomain:\nd0 in [0, 9]");
    check(&in_to_out(&r, 0), "(d0, d1) -> (d1),\ndomain:\nd0 in [0, 255],\nd1 in [0, 9]");
    check(&in_to_out(&r, 2), "()[s0] -> (s0),\ndomain:\ns0 in [0, 9]");
    // Both results index the inputs the same way.
    assert_eq!(output_to_input_indexing(&r, 1).unwrap(), output_to_input_indexing(&r, 0).unwrap());
}

#[test]
fn the_in_text_reduce_example() {
    // f32[4, 8] out = reduce(f32[2, 4, 8, 16] in, 0), dimensions={0,3}
    let r = op(
        "reduce",
        vec![vec![2, 4, 8, 16], vec![]],
        vec![4, 8],
        OpAttrs { reduce_dimensions: vec![0, 3], ..Default::default() },
    );
    check(
        &out_to_in(&r, 0),
        "(d0, d1)[s0, s1] -> (s0, d0, d1, s1), domain: d0 in [0, 3], d1 in [0, 7], s0 in [0, 1], s1 in [0, 15]",
    );
    check(
        &in_to_out(&r, 0),
        "(d0, d1, d2, d3) -> (d1, d2), domain: d0 in [0, 1], d1 in [0, 3], d2 in [0, 7], d3 in [0, 15]",
    );
}

#[test]
fn slice() {
    let s = op(
        "slice",
        vec![vec![10, 20, 50]],
        vec![5, 3, 25],
        OpAttrs { slice_starts: vec![5, 3, 0], slice_strides: vec![1, 7, 2], ..Default::default() },
    );
    check(
        &out_to_in(&s, 0),
        "(d0, d1, d2) -> (d0 + 5, d1 * 7 + 3, d2 * 2),\ndomain:\nd0 in [0, 4],\nd1 in [0, 2],\nd2 in [0, 24]",
    );
    check(
        &in_to_out(&s, 0),
        "(d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2),\ndomain:\nd0 in [5, 9],\nd1 in [3, 17],\nd2 in [0, 48],\n\
         (d1 - 3) mod 7 in [0, 0],\nd2 mod 2 in [0, 0]",
    );
}

fn reshape(from: Vec<i64>, to: Vec<i64>) -> OpDesc {
    op("reshape", vec![from], to, OpAttrs::default())
}

#[test]
fn reshape_collapse_and_expand() {
    let collapse = reshape(vec![4, 8], vec![32]);
    check(&out_to_in(&collapse, 0), "(d0) -> (d0 floordiv 8, d0 mod 8),\ndomain:\nd0 in [0, 31]");
    check(&in_to_out(&collapse, 0), "(d0, d1) -> (d0 * 8 + d1),\ndomain:\nd0 in [0, 3],\nd1 in [0, 7]");
    let expand = reshape(vec![32], vec![4, 8]);
    check(&out_to_in(&expand, 0), "(d0, d1) -> (d0 * 8 + d1),\ndomain:\nd0 in [0, 3],\nd1 in [0, 7]");
    check(&in_to_out(&expand, 0), "(d0) -> (d0 floordiv 8, d0 mod 8),\ndomain:\nd0 in [0, 31]");
}

#[test]
fn reshape_generic() {
    let r = reshape(vec![4, 8], vec![2, 4, 4]);
    check(
        &out_to_in(&r, 0),
        "(d0, d1, d2) -> (d0 * 2 + d1 floordiv 2, d2 + (d1 mod 2) * 4),\ndomain:\nd0 in [0, 1],\nd1 in [0, 3],\nd2 in [0, 3]",
    );
    check(
        &in_to_out(&r, 0),
        "(d0, d1) -> (d0 floordiv 2, d1 floordiv 4 + (d0 mod 2) * 2, d1 mod 4),\ndomain:\nd0 in [0, 3],\nd1 in [0, 7]",
    );
    let r = reshape(vec![4, 8, 12], vec![32, 3, 4]);
    // The seed omits the comma after `d1 in [0, 2]`.
    check(
        &out_to_in(&r, 0),
        "(d0, d1, d2) -> (d0 floordiv 8, d0 mod 8, d1 * 4 + d2),\ndomain:\nd0 in [0, 31],\nd1 in [0, 2],\nd2 in [0, 3]",
    );
    check(
        &in_to_out(&r, 0),
        "(d0, d1, d2) -> (d0 * 8 + d1, d2 floordiv 4, d2 mod 4),\ndomain:\nd0 in [0, 3],\nd1 in [0, 7],\nd2 in [0, 11]",
    );
}

#[test]
fn bitcast_is_a_reshape_with_default_layouts() {
    let b = op("bitcast", vec![vec![4, 8]], vec![2, 4, 4], OpAttrs::default());
    assert_eq!(out_to_in(&b, 0), out_to_in(&reshape(vec![4, 8], vec![2, 4, 4]), 0));
    assert_eq!(in_to_out(&b, 0), in_to_out(&reshape(vec![4, 8], vec![2, 4, 4]), 0));
    // A layout change alone is a transpose: f32[3,5]{0,1} -> f32[5,3]{1,0}.
    let t = op(
        "bitcast",
        vec![vec![3, 5]],
        vec![5, 3],
        OpAttrs { operand_layout: Some(vec![0, 1]), result_layout: Some(vec![1, 0]), ..Default::default() },
    );
    check(&out_to_in(&t, 0), "(d0, d1) -> (d1, d0), domain: d0 in [0, 4], d1 in [0, 2]");
}

#[test]
fn concatenate() {
    let c = op(
        "concatenate",
        vec![vec![2, 5, 7], vec![2, 11, 7], vec![2, 17, 7]],
        vec![2, 33, 7],
        OpAttrs { concat_dimension: Some(1), ..Default::default() },
    );
    check(&out_to_in(&c, 0), "(d0, d1, d2) -> (d0, d1, d2),\ndomain:\nd0 in [0, 1],\nd1 in [0, 4],\nd2 in [0, 6]");
    check(&out_to_in(&c, 1), "(d0, d1, d2) -> (d0, d1 - 5, d2),\ndomain:\nd0 in [0, 1],\nd1 in [5, 15],\nd2 in [0, 6]");
    check(
        &out_to_in(&c, 2),
        "(d0, d1, d2) -> (d0, d1 - 16, d2),\ndomain:\nd0 in [0, 1],\nd1 in [16, 32],\nd2 in [0, 6]",
    );
    check(&in_to_out(&c, 0), "(d0, d1, d2) -> (d0, d1, d2),\ndomain:\nd0 in [0, 1],\nd1 in [0, 4],\nd2 in [0, 6]");
    check(&in_to_out(&c, 1), "(d0, d1, d2) -> (d0, d1 + 5, d2),\ndomain:\nd0 in [0, 1],\nd1 in [0, 10],\nd2 in [0, 6]");
    check(
        &in_to_out(&c, 2),
        "(d0, d1, d2) -> (d0, d1 + 16, d2),\ndomain:\nd0 in [0, 1],\nd1 in [0, 16],\nd2 in [0, 6]",
    );
}

#[test]
fn dot() {
    let d = op(
        "dot",
        vec![vec![4, 128, 256], vec![4, 256, 64]],
        vec![4, 128, 64],
        OpAttrs {
            dot: Some(DotDims {
                lhs_batch: vec![0],
                rhs_batch: vec![0],
                lhs_contracting: vec![2],
                rhs_contracting: vec![1],
            }),
            ..Default::default()
        },
    );
    check(
        &out_to_in(&d, 0),
        "(d0, d1, d2)[s0] -> (d0, d1, s0),\ndomain:\nd0 in [0, 3],\nd1 in [0, 127],\nd2 in [0, 63],\ns0 in [0, 255]",
    );
    check(
        &out_to_in(&d, 1),
        "(d0, d1, d2)[s0] -> (d0, s0, d2),\ndomain:\nd0 in [0, 3],\nd1 in [0, 127],\nd2 in [0, 63],\ns0 in [0, 255]",
    );
    check(
        &in_to_out(&d, 0),
        "(d0, d1, d2)[s0] -> (d0, d1, s0),\ndomain:\nd0 in [0, 3],\nd1 in [0, 127],\nd2 in [0, 255],\ns0 in [0, 63]",
    );
    // The seed shows `(d0, s0, d1)` here, which would send the contracting
    // dimension (d1, size 256) to the output's size-64 dimension; the rhs's
    // free dimension is d2.
    check(
        &in_to_out(&d, 1),
        "(d0, d1, d2)[s0] -> (d0, s0, d2),\ndomain:\nd0 in [0, 3],\nd1 in [0, 255],\nd2 in [0, 63],\ns0 in [0, 127]",
    );
}

#[test]
fn pad() {
    let p = op(
        "pad",
        vec![vec![4, 4], vec![]],
        vec![12, 16],
        OpAttrs {
            padding: vec![PadDim { low: 1, high: 4, interior: 1 }, PadDim { low: 4, high: 8, interior: 0 }],
            ..Default::default()
        },
    );
    check(
        &out_to_in(&p, 0),
        "(d0, d1) -> ((d0 - 1) floordiv 2, d1 - 4),\ndomain:\nd0 in [1, 7],\nd1 in [4, 7],\n(d0 - 1) mod 2 in [0, 0]",
    );
    check(&out_to_in(&p, 1), "(d0, d1) -> (),\ndomain:\nd0 in [0, 11],\nd1 in [0, 15]");
}

#[test]
fn reduce_window() {
    let mut w = WindowDim::new(1);
    w.size = 1;
    let rw = op(
        "reduce-window",
        vec![vec![1024, 514], vec![]],
        vec![1024, 3],
        OpAttrs { window: vec![w, WindowDim::new(512)], ..Default::default() },
    );
    check(
        &out_to_in(&rw, 0),
        "(d0, d1)[s0] -> (d0, d1 + s0),\ndomain:\nd0 in [0, 1023],\nd1 in [0, 2],\ns0 in [0, 511]",
    );
    check(&out_to_in(&rw, 1), "(d0, d1) -> (),\ndomain:\nd0 in [0, 1023],\nd1 in [0, 2]");
}

fn transpose_op(input: Vec<i64>, perm: Vec<i64>) -> OpDesc {
    let out = perm.iter().map(|&p| input[p as usize]).collect();
    op("transpose", vec![input], out, OpAttrs { permutation: perm, ..Default::default() })
}

fn unary(opcode: &str, shape: Vec<i64>) -> OpDesc {
    op(opcode, vec![shape.clone()], shape, OpAttrs::default())
}

fn binary(opcode: &str, shape: Vec<i64>) -> OpDesc {
    op(opcode, vec![shape.clone(), shape.clone()], shape, OpAttrs::default())
}

#[test]
fn fusion_one_input_several_maps() {
    let mut f = Fusion::new();
    let p0 = f.parameter("p0", 0, vec![1000, 1000]);
    let t = f.add("transpose_p0", transpose_op(vec![1000, 1000], vec![1, 0]), &[p0]);
    f.add("a0", binary("add", vec![1000, 1000]), &[p0, t]);
    let maps = fusion_output_to_input_indexing(&f, 0).unwrap();
    let texts: Vec<String> = maps[0].iter().map(|m| m.map.to_string()).collect();
    assert_eq!(
        texts,
        vec![
            "(d0, d1) -> (d0, d1), domain: d0 in [0, 999], d1 in [0, 999]",
            "(d0, d1) -> (d1, d0), domain: d0 in [0, 999], d1 in [0, 999]"
        ]
    );
}

#[test]
fn fusion_one_input_deduplicated_map() {
    let mut f = Fusion::new();
    let p0 = f.parameter("p0", 0, vec![20, 10, 50]);
    let lt1 = f.add("lhs_transpose_1", transpose_op(vec![20, 10, 50], vec![1, 0, 2]), &[p0]);
    let le = f.add("lhs_e", unary("exponential", vec![10, 20, 50]), &[lt1]);
    let lt2 = f.add("lhs_transpose_2", transpose_op(vec![10, 20, 50], vec![0, 2, 1]), &[le]);
    let rt1 = f.add("rhs_transpose_1", transpose_op(vec![20, 10, 50], vec![2, 1, 0]), &[p0]);
    let rl = f.add("rhs_log", unary("exponential", vec![50, 10, 20]), &[rt1]);
    let rt2 = f.add("rhs_transpose_2", transpose_op(vec![50, 10, 20], vec![1, 0, 2]), &[rl]);
    f.add("output", binary("add", vec![10, 50, 20]), &[lt2, rt2]);
    let maps = fusion_output_to_input_indexing(&f, 0).unwrap();
    assert_eq!(maps[0].len(), 1);
    check(&maps[0][0].map, "(d0, d1, d2) -> (d2, d0, d1), domain: d0 in [0, 9], d1 in [0, 49], d2 in [0, 19]");
}

#[test]
fn fusion_softmax() {
    let shape = vec![2, 65, 125];
    let mut f = Fusion::new();
    let p0 = f.parameter("p0", 0, shape.clone());
    let c = f.add("c", op("constant", vec![], vec![], OpAttrs::default()), &[]);
    let reduce = |out: Vec<i64>| {
        op("reduce", vec![vec![2, 65, 125], vec![]], out, OpAttrs { reduce_dimensions: vec![2], ..Default::default() })
    };
    let bcast = || {
        op(
            "broadcast",
            vec![vec![2, 65]],
            vec![2, 65, 125],
            OpAttrs { broadcast_dimensions: vec![0, 1], ..Default::default() },
        )
    };
    let max = f.add("max", reduce(vec![2, 65]), &[p0, c]);
    let bmax = f.add("bmax", bcast(), &[max]);
    let sub = f.add("sub", binary("subtract", shape.clone()), &[p0, bmax]);
    let exp = f.add("exp", unary("exponential", shape.clone()), &[sub]);
    let sum = f.add("sum", reduce(vec![2, 65]), &[exp, c]);
    let bsum = f.add("bsum", bcast(), &[sum]);
    f.add("div", binary("divide", shape.clone()), &[exp, bsum]);
    let maps = fusion_output_to_input_indexing(&f, 0).unwrap();
    let mut texts: Vec<String> = maps[0].iter().map(|m| squash(&m.map.to_string())).collect();
    texts.sort();
    let mut expected = vec![
        squash("(d0, d1, d2)[s0] -> (d0, d1, s0),\ndomain:\nd0 in [0, 1],\nd1 in [0, 64],\nd2 in [0, 124],\ns0 in [0, 124]"),
        squash("(d0, d1, d2) -> (d0, d1, d2),\ndomain:\nd0 in [0, 1],\nd1 in [0, 64],\nd2 in [0, 124]"),
    ];
    expected.sort();
    assert_eq!(texts, expected);
}

#[test]
fn simplification_examples() {
    let cases = [
        ("(d0, d1) -> (d0 + d1 floordiv 16, d1 mod 16), domain: d0 in [0, 6], d1 in [0, 14]", "(d0, d1) -> (d0, d1), domain: d0 in [0, 6], d1 in [0, 14]"),
        (
            "(d0, d1, d2) -> ((d0 * 100 + d1 * 10 + d2) floorDiv 100, ((d0 * 100 + d1 * 10 + d2) mod 100) floordiv 10, d2 mod 10), \
             domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]",
            "(d0, d1, d2) -> (d0, d1, d2), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]",
        ),
        (
            "(d0, d1, d2) -> ((d0 * 16 + d1 * 4 + d2) floordiv 8, (d0 * 16 + d1 * 4 + d2) mod 8), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]",
            "(d0, d1, d2) -> (d0 * 2 + (d1 * 4 + d2) floordiv 8, (d1 * 4 + d2) mod 8), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]",
        ),
        // The seed writes `-(-11d0 - d1 + 109) floordiv 11 + 9`, meaning the
        // negation of the quotient.
        ("(d0, d1) -> (-((d0 * -11 - d1 + 109) floordiv 11) + 9), domain: d0 in [0, 9], d1 in [0, 10]", "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 10]"),
    ];
    for (input, expected) in cases {
        let mut m = IndexingMap::parse(input).unwrap();
        m.simplify();
        check(&m, expected);
    }
    // Constraints that always hold are removed.
    let mut m =
        IndexingMap::parse("(d0)[s0] -> (d0 + s0), domain: d0 in [0, 5], s0 in [1, 3], d0 + s0 in [0, 20]").unwrap();
    assert!(m.simplify());
    check(&m, "(d0)[s0] -> (d0 + s0), domain: d0 in [0, 5], s0 in [1, 3]");
}

#[test]
fn chained_reshapes_cancel() {
    let r1 = out_to_in(&reshape(vec![10, 10, 10], vec![50, 20]), 0);
    let r2 = out_to_in(&reshape(vec![50, 20], vec![10, 10, 10]), 0);
    // Output of reshape2 -> its input (reshape1's output) -> p0.
    let mut composed = rxla_indexing::compose(&r2, &r1).unwrap();
    composed.simplify();
    check(&composed, "(d0, d1, d2) -> (d0, d1, d2), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]");
}

#[test]
fn text_example_of_the_task() {
    let text = "(d0, d1)[s0] -> (d1, d0 + s0), domain: d0 in [0, 9], d1 in [0, 19], s0 in [0, 3], d0 + s0 in [0, 11]";
    let m = IndexingMap::parse(text).unwrap();
    assert_eq!(m.to_string(), text);
}

#[test]
fn symbolic_expression_doc_examples() {
    use rxla_indexing::Expr;
    // ((v0 + 42) * min(max(v1, 0), 2) floordiv 2) ceildiv 2 at (5, 1) is 12.
    let v0 = Expr::dim(0);
    let v1 = Expr::dim(1);
    let e = (v0 + 42).mul(&v1.maximum(&Expr::zero()).minimum(&Expr::constant(2))).floor_div_const(2).ceil_div_const(2);
    assert_eq!(e.eval(&[5, 1], &[]), Some(12));
    // (d0 + 1) - 1 is d0.
    assert_eq!((Expr::dim(0) + 1 - 1), Expr::dim(0));
    // map1.compose(map2): (d0)[s0, s1] -> ((d0 - 10) + s0, (d0 + s1) * 2); the
    // doc's variable naming aside, composition substitutes map2's results
    // for map1's dimensions.
    let map1 = IndexingMap::parse(
        "(d0, d1)[s0] -> (d0 + s0, d1 * 2), domain: d0 in [-100, 100], d1 in [-100, 100], s0 in [0, 3]",
    )
    .unwrap();
    let map2 = IndexingMap::parse("(d0)[s0] -> (d0 - 10, d0 + s0), domain: d0 in [0, 9], s0 in [0, 5]").unwrap();
    let mut composed = rxla_indexing::compose(&map2, &map1).unwrap();
    // Composition adds `d0 - 10 in [-100, 100]` and `d0 + s1 in [-100, 100]`
    // (map1's dimension bounds); they always hold and simplify away.
    assert_eq!(composed.constraints().len(), 2);
    composed.simplify();
    assert_eq!(
        composed.to_string(),
        "(d0)[s0, s1] -> (d0 + s0 - 10, d0 * 2 + s1 * 2), domain: d0 in [0, 9], s0 in [0, 3], s1 in [0, 5]"
    );
}
