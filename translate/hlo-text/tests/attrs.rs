//! The attribute readers: good values, and bad ones with the error located
//! inside the value.

use rxla_hlo_text::ast::{AttrValue, Dim, Pos, PrimitiveType, Shape};
use rxla_hlo_text::attrs::*;
use rxla_hlo_text::ParseError;

/// A value as the parser would make it, starting at 10:20.
fn v(text: &str) -> AttrValue {
    AttrValue { text: text.to_string(), pos: Pos { line: 10, col: 20 } }
}

/// Asserts `line:col: error: message (at 'token')` for a bad value.
fn bad<T: std::fmt::Debug>(result: Result<T, ParseError>, expected: &str) {
    match result {
        Ok(t) => panic!("accepted: {t:?}"),
        Err(e) => assert_eq!(e.to_string(), expected),
    }
}

#[test]
fn scalars() {
    assert_eq!(integer(&v("-3")).unwrap(), -3);
    assert_eq!(integer(&v("0x10")).unwrap(), 16);
    bad(integer(&v("3x3")), "10:21: error: unexpected text after the attribute value (at 'x3')");
    bad(integer(&v("true")), "10:20: error: expects an integer (at 'true')");
    bad(integer(&v("9223372036854775808")), "10:20: error: integer out of range (at '9223372036854775808')");
    assert_eq!(float(&v("1e-05")).unwrap(), 1e-5);
    assert_eq!(float(&v("3")).unwrap(), 3.0);
    assert_eq!(float(&v("-inf")).unwrap(), f64::NEG_INFINITY);
    bad(float(&v("0x1p-3")), "10:20: error: unsupported number syntax (at '0x1p-3')");
    assert!(boolean(&v("true")).unwrap());
    assert!(!boolean(&v("false")).unwrap());
    bad(boolean(&v("1")), "10:20: error: expects true or false (at '1')");
    assert_eq!(bool_list(&v("{true,false}")).unwrap(), vec![true, false]);
    assert_eq!(bool_list(&v("true")).unwrap(), vec![true]);
    assert_eq!(bool_list(&v("{}")).unwrap(), Vec::<bool>::new());
    bad(bool_list(&v("{true,maybe}")), "10:26: error: expects true or false (at 'maybe')");
    assert_eq!(string(&v(r#""a\"b\n\x41\101\u00e9""#)).unwrap(), "a\"b\nAAé");
    assert_eq!(string(&v("'single'")).unwrap(), "single");
    bad(string(&v("main")), "10:20: error: expects a quoted string (at 'main')");
    bad(string(&v(r#""\z""#)), r#"10:20: error: unknown escape sequence (at '"\z"')"#);
    assert_eq!(enum_word(&v("kLoop")).unwrap(), "kLoop");
    bad(enum_word(&v("\"kLoop\"")), "10:20: error: expects a word (at '\"kLoop\"')");
}

#[test]
fn integer_lists() {
    assert_eq!(dims(&v("{1,0}")).unwrap(), vec![1, 0]);
    assert_eq!(dims(&v("{}")).unwrap(), Vec::<i64>::new());
    assert_eq!(dims(&v("{ 2 , -1 }")).unwrap(), vec![2, -1]);
    bad(dims(&v("{1,}")), "10:23: error: expects an integer (at '}')");
    bad(dims(&v("{1 2}")), "10:23: error: expects ',' or '}' in a list of integers (at '2')");
    bad(dims(&v("1,0")), "10:20: error: expects '{' to start a list of integers (at '1')");
    assert_eq!(int_lists(&v("{{0,1},{2}}")).unwrap(), vec![vec![0, 1], vec![2]]);
    bad(int_lists(&v("{{0,1},2}")), "10:27: error: expects '{' to start a list of integers (at '2')");
}

#[test]
fn references() {
    assert_eq!(computation(&v("%add.1")).unwrap(), "add.1");
    assert_eq!(computation(&v("region_0")).unwrap(), "region_0");
    bad(
        computation(&v("{ %x = f32[] parameter(0) }")),
        "10:20: error: inline computations are not supported; name a computation (at '{')",
    );
    bad(computation(&v("%a, %b")), "10:22: error: unexpected text after the attribute value (at ',')");
    assert_eq!(computation_list(&v("{%a, b}")).unwrap(), vec!["a", "b"]);
    assert_eq!(computation_list(&v("{}")).unwrap(), Vec::<String>::new());
    bad(computation_list(&v("{%a %b}")), "10:24: error: expects ',' or '}' in a list of computations (at '%b')");
    assert_eq!(instruction_names(&v("{%x, %y.1}")).unwrap(), vec!["x", "y.1"]);
    bad(instruction_names(&v("{1}")), "10:21: error: expects an instruction name (at '1')");
}

#[test]
fn shapes() {
    let f32_2 = Shape::Array { element: PrimitiveType::F32, dims: vec![Dim::Static(2)], layout: None };
    assert_eq!(shape(&v("f32[2]")).unwrap(), f32_2);
    assert_eq!(shape_list(&v("{f32[2], token[]}")).unwrap(), vec![f32_2, Shape::Token]);
    bad(shape(&v("f32[2")), "10:25: error: expects ']' at the end of the dimensions (at end of input)");
    bad(shape_list(&v("{f32[2] s32[]}")), "10:28: error: expects ',' or '}' in a list of shapes (at 's32')");
}

#[test]
fn slices() {
    assert_eq!(
        slice(&v("{[0:4:2], [1:3]}")).unwrap(),
        vec![SliceDim { start: 0, limit: 4, stride: 2 }, SliceDim { start: 1, limit: 3, stride: 1 }]
    );
    assert_eq!(slice(&v("{}")).unwrap(), vec![]);
    bad(slice(&v("{[0:4:2:1]}")), "10:21: error: expects [start:limit] or [start:limit:stride] (at '[')");
    bad(slice(&v("{[0]}")), "10:21: error: expects [start:limit] or [start:limit:stride] (at '[')");
    bad(slice(&v("{[0,4]}")), "10:23: error: expects ':' or ']' in a slice range (at ',')");
}

#[test]
fn pad_op_padding() {
    assert_eq!(
        padding(&v("0_0_1x-1_2")).unwrap(),
        vec![PaddingDim { low: 0, high: 0, interior: 1 }, PaddingDim { low: -1, high: 2, interior: 0 }]
    );
    bad(padding(&v("0_0x1")), "10:25: error: expects '_' between low and high padding (at end of input)");
    bad(padding(&v("0_0_-1")), "10:24: error: interior padding is not negative (at '-1')");
    bad(padding(&v("0_a")), "10:22: error: expects an integer (at 'a')");
    bad(padding(&v("0_0 x")), "10:24: error: unexpected text after the attribute value (at 'x')");
}

#[test]
fn windows() {
    let w = window(&v("{size=3x3 stride=2x1 pad=0_1x-1_2 lhs_dilate=1x2 rhs_dilate=3x1 rhs_reversal=0x1}")).unwrap();
    assert_eq!(
        w,
        vec![
            WindowDim {
                size: 3,
                stride: 2,
                padding_low: 0,
                padding_high: 1,
                lhs_dilate: 1,
                rhs_dilate: 3,
                rhs_reversal: false
            },
            WindowDim {
                size: 3,
                stride: 1,
                padding_low: -1,
                padding_high: 2,
                lhs_dilate: 2,
                rhs_dilate: 1,
                rhs_reversal: true
            },
        ]
    );
    // Missing fields take their defaults.
    assert_eq!(
        window(&v("{size=5}")).unwrap(),
        vec![WindowDim {
            size: 5,
            stride: 1,
            padding_low: 0,
            padding_high: 0,
            lhs_dilate: 1,
            rhs_dilate: 1,
            rhs_reversal: false
        }]
    );
    assert_eq!(window(&v("{}")).unwrap(), vec![]);
    bad(window(&v("{size=3x3 stride=2}")), "10:37: error: 'stride=' has 1 entries but 'size=' has 2 (at '2')");
    bad(window(&v("{size=3 size=3}")), "10:28: error: 'size=' given twice (at 'size')");
    bad(
        window(&v("{size=3 bogus=1}")),
        "10:28: error: expects size=, stride=, pad=, lhs_dilate=, rhs_dilate= or rhs_reversal= (at 'bogus')",
    );
    bad(window(&v("{size=3 pad=1}")), "10:33: error: expects low_high padding (at '}')");
    bad(
        window(&v("{size=3")),
        "10:27: error: expects size=, stride=, pad=, lhs_dilate=, rhs_dilate= or rhs_reversal= (at end of input)",
    );
}

#[test]
fn convolution_dim_labels() {
    let d = conv_dim_labels(&v("b01f_01io->b01f")).unwrap();
    assert_eq!(
        d,
        ConvDimensionNumbers {
            input_batch: 0,
            input_feature: 3,
            input_spatial: vec![1, 2],
            kernel_input_feature: 2,
            kernel_output_feature: 3,
            kernel_spatial: vec![0, 1],
            output_batch: 0,
            output_feature: 3,
            output_spatial: vec![1, 2],
        }
    );
    let d = conv_dim_labels(&v("fb10_oi01->bf10")).unwrap();
    assert_eq!((d.input_batch, d.input_feature, d.input_spatial), (1, 0, vec![3, 2]));
    assert_eq!((d.kernel_output_feature, d.kernel_input_feature, d.kernel_spatial), (0, 1, vec![2, 3]));
    assert_eq!(conv_dim_labels(&v("bf_io->bf")).unwrap().input_spatial, Vec::<i64>::new());
    bad(conv_dim_labels(&v("b01f")), "10:20: error: expects dim labels like 'b01f_01io->b01f' (at 'b01f')");
    bad(conv_dim_labels(&v("b01f_01io-b01f")), "10:24: error: expects '->' before the output labels (at '_01io-b01f')");
    bad(
        conv_dim_labels(&v("b01f_01xo->b01f")),
        "10:27: error: expects 'i', 'o', '?' or a spatial digit below 2 (at 'x')",
    );
    bad(conv_dim_labels(&v("b00f_01io->b01f")), "10:22: error: label '0' appears twice (at '0')");
    bad(
        conv_dim_labels(&v("b02f_01io->b01f")),
        "10:22: error: expects 'b', 'f', '?' or a spatial digit below 2 (at '2')",
    );
    bad(conv_dim_labels(&v("b01_01io->b01f")), "10:20: error: missing the 'f' label (at 'b01_01io-')");
    bad(
        conv_dim_labels(&v("b0f_01io->b01f")),
        "10:20: error: input, kernel and output have 1, 2 and 2 spatial dimensions (at 'b0f_01io-')",
    );
}

#[test]
fn replica_group_forms() {
    assert_eq!(replica_groups(&v("{{0,1},{2,3}}")).unwrap(), ReplicaGroups::List(vec![vec![0, 1], vec![2, 3]]));
    assert_eq!(replica_groups(&v("{}")).unwrap(), ReplicaGroups::List(vec![]));
    let iota = replica_groups(&v("[4,2]<=[8]")).unwrap();
    assert_eq!(
        iota,
        ReplicaGroups::Iota(IotaReplicaGroups {
            num_groups: 4,
            group_size: 2,
            reshape_dims: vec![8],
            transpose_perm: vec![0]
        })
    );
    assert_eq!(iota.groups().unwrap(), vec![vec![0, 1], vec![2, 3], vec![4, 5], vec![6, 7]]);
    let t = replica_groups(&v("[2,4]<=[4,2]T(1,0)")).unwrap();
    assert_eq!(t.groups().unwrap(), vec![vec![0, 2, 4, 6], vec![1, 3, 5, 7]]);
    let t = replica_groups(&v("[3,4]<=[2,3,2]T(1,0,2)")).unwrap();
    assert_eq!(t.groups().unwrap(), vec![vec![0, 1, 6, 7], vec![2, 3, 8, 9], vec![4, 5, 10, 11]]);
    // Too large to expand, yet readable.
    let huge = replica_groups(&v("[1000000,1000000]<=[1000000000000]")).unwrap();
    assert_eq!(huge.groups(), None);
    bad(replica_groups(&v("[4]<=[4]")), "10:20: error: expects [num_groups,group_size] (at '[')");
    bad(
        replica_groups(&v("[2,2]<=[5]")),
        "10:27: error: reshape dimensions must multiply to num_groups * group_size (at '[')",
    );
    bad(
        replica_groups(&v("[2,2]<=[2,2]")),
        "10:32: error: expects T(...) after several reshape dimensions (at end of input)",
    );
    bad(
        replica_groups(&v("[2,2]<=[2,2]T(0,0)")),
        "10:33: error: expects a permutation of the reshape dimensions (at '(')",
    );
    bad(replica_groups(&v("[2,2]=[4]")), "10:25: error: expects '<=' after the group shape (at '=')");
    assert_eq!(source_target_pairs(&v("{{0,1},{1,0}}")).unwrap(), vec![(0, 1), (1, 0)]);
    bad(source_target_pairs(&v("{{0,1,2}}")), "10:21: error: expects a {source,target} pair (at '{')");
}

/// XLA's mesh form (`MeshAxesReplicaGroupList`), with the groups XLA's own
/// tests expect: a group varies its axes, the other axes fixed.
#[test]
fn replica_groups_over_mesh_axes() {
    let groups = |text: &str| replica_groups(&v(text)).unwrap().groups().unwrap();
    assert_eq!(groups("mesh['x'=2,'y'=2] {'x'}"), vec![vec![0, 2], vec![1, 3]]);
    assert_eq!(groups("mesh[x=2,y=2] {y}"), vec![vec![0, 1], vec![2, 3]]);
    assert_eq!(groups("mesh['x'=4,'y'=4] {'x','y'}"), vec![(0..16).collect::<Vec<_>>()]);
    // An iota mesh is read as the canonical iota form.
    assert_eq!(
        replica_groups(&v("mesh['axis_0'=2,'axis_1'=2] {'axis_1'}")).unwrap(),
        ReplicaGroups::Iota(IotaReplicaGroups {
            num_groups: 2,
            group_size: 2,
            reshape_dims: vec![4],
            transpose_perm: vec![0]
        })
    );
    // Sub-axes: `(2)4` of an axis of 8 is its 8 = 2 x 4 x 1 split's middle
    // factor (device strides 128 and 16 here), as XLA reshapes it.
    let sub = groups("mesh['axis_0'=8,'axis_1'=8,'axis_2'=16] {'axis_0':(2)4,'axis_1':(2)4}");
    assert_eq!((sub.len(), sub[0].len()), (64, 16));
    assert_eq!(&sub[0][..5], &[0, 16, 32, 48, 128]);
    // Devices not in iota order.
    assert_eq!(groups("mesh['x'=2,'y'=2], device_ids=([[3,2],[1,0]]) {'y'}"), vec![vec![3, 2], vec![1, 0]]);
    bad(replica_groups(&v("mesh['x'=2] {'z'}")), "10:33: error: no mesh axis 'z' (at ''z'')");
    bad(
        replica_groups(&v("mesh['x'=4] {'x':(2)4}")),
        "10:33: error: sub-axis (2)4 does not divide 'x' of size 4 (at ''x'')",
    );
    bad(
        replica_groups(&v("mesh['x'=2,'y'=2], device_ids=(0,1,1,3) {'x'}")),
        "10:50: error: device_ids must be a permutation of 0..4 (at '(')",
    );
}

#[test]
fn precision_and_accuracy() {
    assert_eq!(precision_list(&v("{highest,DEFAULT}")).unwrap(), vec![Precision::Highest, Precision::Default]);
    assert_eq!(precision_list(&v("{high, packed_nibble}")).unwrap(), vec![Precision::High, Precision::PackedNibble]);
    bad(
        precision_list(&v("{fastest}")),
        "10:21: error: expects default, high, highest or packed_nibble (at 'fastest')",
    );
    assert_eq!(result_accuracy(&v("{mode=highest}")).unwrap(), ResultAccuracy::Mode("highest".into()));
    assert_eq!(
        result_accuracy(&v("{tolerance={atol=1e-05,rtol=0.5,ulps=2}}")).unwrap(),
        ResultAccuracy::Tolerance { atol: 1e-5, rtol: 0.5, ulps: 2.0 }
    );
    assert_eq!(
        result_accuracy(&v("{tolerance={ulps=1}}")).unwrap(),
        ResultAccuracy::Tolerance { atol: 0.0, rtol: 0.0, ulps: 1.0 }
    );
    bad(result_accuracy(&v("{speed=1}")), "10:21: error: expects mode= or tolerance= (at 'speed')");
    bad(result_accuracy(&v("{tolerance={atol=1,atol=2}}")), "10:39: error: 'atol=' given twice (at 'atol')");
    bad(result_accuracy(&v("{tolerance={eps=1}}")), "10:32: error: expects atol=, rtol= or ulps= (at 'eps')");
}

#[test]
fn metadata_fields() {
    let m = metadata(&v(
        r#"{op_type="add" op_name="jit(f)/add" source_file="/tmp/f.py" source_line=3 source_end_line=4 source_column=5 source_end_column=6 stack_frame_id=7 profile_type={1,2} deduplicated_name="d" scheduling_name="s" future_key={1, 2} other=word}"#,
    ))
    .unwrap();
    assert_eq!(m.op_type.as_deref(), Some("add"));
    assert_eq!(m.op_name.as_deref(), Some("jit(f)/add"));
    assert_eq!(m.source_file.as_deref(), Some("/tmp/f.py"));
    assert_eq!(
        (m.source_line, m.source_end_line, m.source_column, m.source_end_column),
        (Some(3), Some(4), Some(5), Some(6))
    );
    assert_eq!(m.stack_frame_id, Some(7));
    assert_eq!(m.profile_type, vec![1, 2]);
    assert_eq!((m.deduplicated_name.as_deref(), m.scheduling_name.as_deref()), (Some("d"), Some("s")));
    assert_eq!(m.unknown, vec![("future_key".into(), "{1, 2}".into()), ("other".into(), "word".into())]);
    assert_eq!(metadata(&v("{}")).unwrap(), Metadata::default());
    assert_eq!(metadata(&v(r#"{op_name="a", source_line=1}"#)).unwrap().source_line, Some(1));
    bad(metadata(&v(r#"{op_name=1}"#)), "10:29: error: expects a quoted string (at '1')");
    bad(metadata(&v(r#"{source_line="1"}"#)), "10:33: error: expects an integer (at '\"1\"')");
    bad(
        metadata(&v(r#"{op_name="a" op_name="b"}"#)),
        "10:33: error: metadata key 'op_name' given twice (at 'op_name')",
    );
    bad(metadata(&v(r#"{op_name="a""#)), "10:32: error: expects a metadata key (at end of input)");
}

#[test]
fn frontend_attributes_and_backend_config() {
    assert_eq!(
        frontend_attributes(&v(r#"{_xla_compute_type="host", k={"json": [1, {"x": "}"}]}}"#)).unwrap(),
        vec![("_xla_compute_type".into(), "host".into()), ("k".into(), r#"{"json": [1, {"x": "}"}]}"#.into())]
    );
    assert_eq!(frontend_attributes(&v("{}")).unwrap(), vec![]);
    bad(frontend_attributes(&v("{k=1}")), "10:23: error: expects a quoted string or a {JSON} dictionary (at '1')");
    bad(frontend_attributes(&v(r#"{"k"="v"}"#)), "10:21: error: expects an attribute key (at '\"k\"')");
    assert_eq!(backend_config(&v(r#""a\"b""#)).unwrap(), "a\"b");
    assert_eq!(backend_config(&v(r#"{"known_trip_count":{"n":"10"}}"#)).unwrap(), r#"{"known_trip_count":{"n":"10"}}"#);
    bad(backend_config(&v("config")), "10:20: error: expects a quoted string or a {JSON} dictionary (at 'config')");
}

#[test]
fn aliasing() {
    assert_eq!(
        output_to_operand_aliasing(&v("{{0}: (0, {}), {1, 2}: (3, {4})}")).unwrap(),
        vec![
            OutputOperandAlias { output_index: vec![0], operand: 0, operand_index: vec![] },
            OutputOperandAlias { output_index: vec![1, 2], operand: 3, operand_index: vec![4] },
        ]
    );
    bad(output_to_operand_aliasing(&v("{{0} (0, {})}")), "10:25: error: expects ':' after the output index (at '(')");
    assert_eq!(
        input_output_alias(&v("{ {0}: (0, {}, may-alias), {1}: (1, {2}, must-alias), {}: (2, {}) }")).unwrap(),
        vec![
            InputOutputAlias {
                output_index: vec![0],
                parameter: 0,
                parameter_index: vec![],
                kind: AliasKind::MayAlias
            },
            InputOutputAlias {
                output_index: vec![1],
                parameter: 1,
                parameter_index: vec![2],
                kind: AliasKind::MustAlias
            },
            InputOutputAlias { output_index: vec![], parameter: 2, parameter_index: vec![], kind: AliasKind::MayAlias },
        ]
    );
    bad(
        input_output_alias(&v("{ {0}: (0, {}, maybe) }")),
        "10:35: error: expects may-alias or must-alias (at 'maybe')",
    );
    assert_eq!(
        buffer_donor(&v("{ (0, {}), (1, {0}) }")).unwrap(),
        vec![BufferDonor { parameter: 0, index: vec![] }, BufferDonor { parameter: 1, index: vec![0] }]
    );
    bad(buffer_donor(&v("{ (0) }")), "10:24: error: expects ',' after the parameter number (at ')')");
}

#[test]
fn entry_layouts() {
    let l = entry_computation_layout(&v("{(f32[2]{0}, /*index=1*/s32[])->(f32[2]{0}, s32[])}")).unwrap();
    assert_eq!(l.params.len(), 2);
    assert!(matches!(l.result, Shape::Tuple(ref t) if t.len() == 2));
    let l = entry_computation_layout(&v("{()->f32[]}")).unwrap();
    assert!(l.params.is_empty());
    bad(entry_computation_layout(&v("{(f32[2]{0})}")), "10:32: error: expects '->' before the result shape (at '}')");
    bad(
        entry_computation_layout(&v("{(f32[2]{0,1})->f32[]}")),
        "10:28: error: layout has 2 minor-to-major entries for a shape of rank 1 (at '{')",
    );
}

#[test]
fn errors_inside_multi_line_values_point_at_their_line() {
    let value = AttrValue { text: "{1,\n   2,\n   x}".into(), pos: Pos { line: 4, col: 9 } };
    bad(dims(&value), "6:4: error: expects an integer (at 'x')");
    let value = AttrValue { text: "{size=1\n  stride=q}".into(), pos: Pos { line: 4, col: 9 } };
    bad(window(&value), "5:10: error: expects an integer (at 'q')");
}
