//! What the parser builds for each construct of the text format.

use rxla_hlo_text::ast::*;
use rxla_hlo_text::{parse_module, parse_shape, print_module};

fn parse(text: &str) -> Module {
    let m = parse_module(text).unwrap_or_else(|e| panic!("{}", e.render("input")));
    // Every accepted module round-trips through the printer.
    let printed = print_module(&m);
    let again = parse_module(&printed).unwrap_or_else(|e| panic!("reparse: {e}\n{printed}"));
    assert_eq!(again.without_positions(), m.without_positions(), "round trip of\n{printed}");
    assert_eq!(print_module(&again), printed);
    m
}

fn pos(line: u32, col: u32) -> Pos {
    Pos { line, col }
}

fn shape(text: &str) -> Shape {
    parse_shape(text).unwrap_or_else(|e| panic!("{}", e.render("shape")))
}

fn array(element: PrimitiveType, dims: &[i64]) -> Shape {
    Shape::Array { element, dims: dims.iter().map(|&d| Dim::Static(d)).collect(), layout: None }
}

const SIMPLE: &str = "\
HloModule m, is_scheduled=true

ENTRY %main (x: f32[2]) -> f32[2] {
  %x = f32[2]{0} parameter(0)
  ROOT %neg = f32[2]{0} negate(f32[2]{0} %x), metadata={op_name=\"n\"}
}
";

#[test]
fn module_header_computations_and_positions() {
    let m = parse(SIMPLE);
    assert_eq!(m.name, "m");
    assert_eq!(m.pos, pos(1, 1));
    assert_eq!(m.attributes.len(), 1);
    assert_eq!(m.attributes[0].name, "is_scheduled");
    assert_eq!(m.attributes[0].pos, pos(1, 14));
    assert_eq!(m.attributes[0].value.text, "true");
    assert_eq!(m.attributes[0].value.pos, pos(1, 27));
    assert_eq!(m.computations.len(), 1);
    assert_eq!(m.entry, 0);
    let c = &m.computations[0];
    assert!(c.is_entry);
    assert_eq!((c.name.as_str(), c.pos), ("main", pos(3, 7)));
    let sig = c.signature.as_ref().unwrap();
    assert_eq!(sig.params, vec![("x".to_string(), array(PrimitiveType::F32, &[2]))]);
    assert_eq!(sig.result, array(PrimitiveType::F32, &[2]));
    assert_eq!(c.root, 1);
    let x = &c.instructions[0];
    assert_eq!((x.name.as_str(), x.opcode.as_str(), x.parameter_number, x.pos), ("x", "parameter", Some(0), pos(4, 3)));
    let neg = &c.instructions[1];
    assert!(neg.is_root);
    assert_eq!(neg.pos, pos(5, 8));
    assert_eq!(neg.operands.len(), 1);
    assert_eq!(neg.operands[0].name, "x");
    assert_eq!(neg.operands[0].pos, pos(5, 42));
    assert!(neg.operands[0].shape.is_some());
    assert_eq!(neg.attributes[0].value.text, "{op_name=\"n\"}");
    assert_eq!(neg.attributes[0].value.pos, pos(5, 56));
}

#[test]
fn percent_is_optional_and_names_keep_dots_and_dashes() {
    let m = parse("HloModule m\n\nENTRY e {\n  p.1 = f32[] parameter(0)\n  ROOT get-x.2 = f32[] copy(%p.1)\n}\n");
    let c = &m.computations[0];
    assert_eq!(c.name, "e");
    assert_eq!(c.instructions[0].name, "p.1");
    assert_eq!(c.instructions[1].name, "get-x.2");
    assert_eq!(c.instructions[1].operands[0].name, "p.1");
}

#[test]
fn no_entry_means_last_computation_and_no_root_means_last_instruction() {
    let m = parse("HloModule m\n\n%a {\n  %p = f32[] parameter(0)\n}\n\n%b {\n  %p = f32[] parameter(0)\n  %q = f32[] negate(%p)\n}\n");
    assert_eq!(m.entry, 1);
    assert!(!m.computations[1].is_entry);
    assert_eq!(m.computations[1].root, 1);
    assert!(!m.computations[1].instructions[1].is_root);
    assert_eq!(m.entry_computation().name, "b");
    assert_eq!(m.entry_computation().root_instruction().name, "q");
}

#[test]
fn entry_may_come_first_and_root_need_not_be_last() {
    let m = parse("HloModule m\nENTRY %e {\n  ROOT %p = f32[] parameter(0)\n  %q = f32[] negate(%p)\n}\n%other {\n  %p = f32[] parameter(0)\n}\n");
    assert_eq!(m.entry, 0);
    assert_eq!(m.computations[0].root, 0);
    // The printer keeps both marks.
    let printed = print_module(&m);
    assert!(printed.contains("ENTRY %e {\n  ROOT %p"), "{printed}");
}

#[test]
fn header_less_modules_are_named_after_their_first_computation() {
    let m = parse("fusion {\n  p0 = f32[8] parameter(0)\n  ROOT n = f32[8] negate(p0)\n}\n");
    assert_eq!(m.name, "fusion");
    assert_eq!(m.entry, 0);
    assert!(m.attributes.is_empty());
    let m = parse("ENTRY %e (a: s32[]) -> s32[] {\n  ROOT %a = s32[] parameter(0)\n}");
    assert_eq!(m.name, "e");
    assert!(m.computations[0].is_entry);
}

#[test]
fn comments_anywhere() {
    let m = parse(
        "// leading comment\nHloModule /* inline */ m // trailing\n\n/* block\n comment */ ENTRY %e {\n  %p = (f32[], /*index=1*/s32[]) parameter(0) // after\n  %a = f32[] get-tuple-element(/*operand*/ %p), /*c*/ index=0\n}\n",
    );
    let i = &m.computations[0].instructions[1];
    assert_eq!(i.operands[0].name, "p");
    assert_eq!(i.attributes[0].name, "index");
    assert_eq!(i.attributes[0].value.text, "0");
}

#[test]
fn all_primitive_types() {
    for ty in PrimitiveType::ALL {
        let text = format!("{}[]", ty.name());
        let s = shape(&text);
        match ty {
            PrimitiveType::Token => assert_eq!(s, Shape::Token),
            PrimitiveType::Opaque => assert_eq!(s, Shape::Opaque),
            _ => assert_eq!(s, array(ty, &[]), "{text}"),
        }
    }
}

#[test]
fn tuples_nested_tuples_and_empty_tuples() {
    assert_eq!(shape("()"), Shape::Tuple(vec![]));
    assert_eq!(
        shape("(f32[2], (s32[], token[]), opaque[])"),
        Shape::Tuple(vec![
            array(PrimitiveType::F32, &[2]),
            Shape::Tuple(vec![array(PrimitiveType::S32, &[]), Shape::Token]),
            Shape::Opaque,
        ])
    );
}

#[test]
fn dynamic_dimensions() {
    let Shape::Array { dims, .. } = shape("f32[<=8,?,3]") else { panic!() };
    assert_eq!(dims, vec![Dim::Bounded(8), Dim::Unbounded, Dim::Static(3)]);
}

#[test]
fn layouts_with_tiles_and_other_items() {
    let Shape::Array { layout: Some(l), .. } = shape("f32[128,256]{0,1:T(8,128)(2,1)(*,4)E(16)S(1)}") else { panic!() };
    assert_eq!(l.minor_to_major, vec![0, 1]);
    assert_eq!(l.tiles, vec![vec![8, 128], vec![2, 1], vec![-1, 4]]);
    assert_eq!(l.element_size_in_bits, Some(16));
    assert_eq!(l.memory_space, Some(1));
    assert!(l.other.is_empty());

    let text = "s4[4,2]{1,0:D(D,C+~)T(2,1)L(4)#(s32)*(u8)E(4)S(2)SC(0:1,2)P(s4[8]{0})M(16)}";
    let Shape::Array { layout: Some(l), .. } = shape(text) else { panic!() };
    assert_eq!(l.other, vec!["D(D,C+~)", "L(4)", "#(s32)", "*(u8)", "SC(0:1,2)", "P(s4[8]{0})", "M(16)"]);
    assert_eq!(rxla_hlo_text::print_shape(&shape(text)), text);

    // A scalar may carry tiles only.
    let Shape::Array { layout: Some(l), .. } = shape("f32[]{:T(256)}") else { panic!() };
    assert_eq!((l.minor_to_major.len(), l.tiles.len()), (0, 1));
}

#[test]
fn a_brace_after_a_result_shape_opens_the_body_not_a_layout() {
    let m = parse("HloModule m\nENTRY %e () -> f32[] {\n  ROOT %c = f32[] constant(0)\n}\n");
    assert_eq!(m.computations[0].signature.as_ref().unwrap().result, array(PrimitiveType::F32, &[]));
    let m = parse("HloModule m\nENTRY %e () -> f32[2]{0} {\n  ROOT %c = f32[2]{0} constant({0, 1})\n}\n");
    let Shape::Array { layout, .. } = &m.computations[0].signature.as_ref().unwrap().result else { panic!() };
    assert_eq!(layout.as_ref().unwrap().minor_to_major, vec![0]);
}

fn constant(shape: &str, literal: &str) -> Literal {
    let text = format!("HloModule m\nENTRY %e {{\n  ROOT %c = {shape} constant({literal})\n}}\n");
    parse(&text).computations[0].instructions[0].literal.clone().unwrap()
}

fn el(s: &str) -> LiteralArray {
    LiteralArray::Element(s.to_string())
}

#[test]
fn scalar_literals_keep_their_text() {
    for (ty, text) in [
        ("f32", "1"),
        ("f32", "-2.5e-3"),
        ("f32", "inf"),
        ("f32", "-inf"),
        ("f32", "nan"),
        ("f32", "-nan"),
        ("f32", "nan(0x7fc00001)"),
        ("f64", "-nan(0x1)"),
        ("f32", "0x1p-3"),
        ("f32", ".5"),
        ("f32", "1."),
        ("bf16", "1e+10"),
        ("s32", "-2147483648"),
        ("u64", "18446744073709551615"),
        ("pred", "true"),
        ("pred", "false"),
        ("pred", "1"),
        ("c64", "(1, 2)"),
        ("c128", "(-inf, nan)"),
        ("f8e4m3fn", "448"),
    ] {
        assert_eq!(constant(&format!("{ty}[]"), text), Literal::Array(el(text)), "{ty} {text}");
    }
    // Complex parts are normalised to one space after the comma.
    assert_eq!(constant("c64[]", "(1,2)"), Literal::Array(el("(1, 2)")));
}

#[test]
fn array_literals_nest_one_level_per_dimension() {
    assert_eq!(constant("s32[3]", "{1, 2, 3}"), Literal::Array(LiteralArray::Nested(vec![el("1"), el("2"), el("3")])));
    assert_eq!(
        constant("s32[2,2]", "{ {1,2}, {3,4} }"),
        Literal::Array(LiteralArray::Nested(vec![
            LiteralArray::Nested(vec![el("1"), el("2")]),
            LiteralArray::Nested(vec![el("3"), el("4")]),
        ]))
    );
    assert_eq!(constant("f32[0]", "{}"), Literal::Array(LiteralArray::Nested(vec![])));
    assert_eq!(constant("f32[0,3]", "{  }"), Literal::Array(LiteralArray::Nested(vec![])));
    assert_eq!(
        constant("f32[1,1,1,1]", "{ /*i0=0*/ { /*i1=0*/ { {1} } } }"),
        Literal::Array(LiteralArray::Nested(vec![LiteralArray::Nested(vec![LiteralArray::Nested(vec![
            LiteralArray::Nested(vec![el("1")])
        ])])]))
    );
    assert_eq!(constant("f32[100]", "{...}"), Literal::Array(LiteralArray::Nested(vec![el("...")])));
    assert_eq!(constant("pred[2]", "{0, 1}"), Literal::Array(LiteralArray::Nested(vec![el("0"), el("1")])));
}

#[test]
fn tuple_literals_follow_the_tuple_shape() {
    assert_eq!(
        constant("(s32[], (c64[], pred[2]))", "( 1, ( (1, 2), {true, false} ) )"),
        Literal::Tuple(vec![
            Literal::Array(el("1")),
            Literal::Tuple(vec![
                Literal::Array(el("(1, 2)")),
                Literal::Array(LiteralArray::Nested(vec![el("true"), el("false")]))
            ]),
        ])
    );
    assert_eq!(constant("()", "()"), Literal::Tuple(vec![]));
    // XLA prints large and tuple constants as {...}.
    assert_eq!(constant("(s32[], s32[])", "{...}"), Literal::Array(LiteralArray::Nested(vec![el("...")])));
}

fn attr_value(instr_tail: &str) -> AttrValue {
    let text = format!(
        "HloModule m\nENTRY %e {{\n  %p = f32[4,4] parameter(0)\n  ROOT %r = f32[4,4] copy(%p), {instr_tail}\n}}\n"
    );
    let m = parse(&text);
    m.computations[0].instructions[1].attributes[0].value.clone()
}

#[test]
fn attribute_values_are_exact_source_text() {
    for value in [
        "{size=3x3 stride=2x2 pad=0_1x0_1}",
        "b01f_01io->b01f",
        "[2,2]<=[4]T(1,0)",
        "{devices=[2,1]0,1}",
        "{\"x\":1}",
        "{%p}",
        "\"a, string } with \\\" escapes\"",
        "'single'",
        "s32[2] {1, 2}",
        "{ {0}: (0, {}) }",
        "0_0_1x1_2",
        "{1,\n     0}",
        "{/*index=5*/ 1}",
        "-1",
    ] {
        let v = attr_value(&format!("a={value}"));
        assert_eq!(v.text, value);
        assert_eq!(v.pos, pos(4, 34));
    }
}

#[test]
fn attribute_values_end_at_comma_brace_newline_or_comment() {
    let text = "HloModule m\nENTRY %e {\n  ROOT %p = f32[] parameter(0), a=x y , b={1, 2} // note, c=3\n}, execution_thread=\"t\"\n";
    let m = parse(text);
    let attrs = &m.computations[0].instructions[0].attributes;
    assert_eq!(attrs.len(), 2);
    assert_eq!((attrs[0].name.as_str(), attrs[0].value.text.as_str()), ("a", "x y"));
    assert_eq!((attrs[1].name.as_str(), attrs[1].value.text.as_str()), ("b", "{1, 2}"));
    let c = &m.computations[0].attributes;
    assert_eq!((c[0].name.as_str(), c[0].value.text.as_str()), ("execution_thread", "\"t\""));
}

#[test]
fn attributes_may_continue_on_the_next_line() {
    let m = parse("HloModule m\nENTRY %e {\n  ROOT %p = f32[] parameter(0),\n      a=1,\n      b=2\n}\n");
    let names: Vec<_> = m.computations[0].instructions[0].attributes.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["a", "b"]);
}

#[test]
fn nested_computation_values_span_lines() {
    let m = parse("HloModule m\nENTRY %e {\n  %p = f32[] parameter(0)\n  ROOT %c = f32[] call(%p), to_apply={\n    %q = f32[] parameter(0)\n    ROOT %n = f32[] negate(%q)\n  }\n}\n");
    let v = &m.computations[0].instructions[1].attributes[0].value;
    assert!(v.text.starts_with("{\n    %q") && v.text.ends_with("  }"), "{:?}", v.text);
}

#[test]
fn operands_may_be_shaped_or_bare_and_opcodes_keep_dashes() {
    let m = parse("HloModule m\nENTRY %e {\n  %p = (f32[], s32[]) parameter(0)\n  %a = f32[] get-tuple-element((f32[], s32[]) %p), index=0\n  ROOT %t = (f32[], f32[]) tuple(%a, f32[] %a)\n}\n");
    let c = &m.computations[0];
    assert_eq!(c.instructions[1].opcode, "get-tuple-element");
    assert!(matches!(c.instructions[1].operands[0].shape, Some(Shape::Tuple(_))));
    assert_eq!(c.instructions[2].operands[0].shape, None);
    assert_eq!(c.instructions[2].operands[1].shape, Some(array(PrimitiveType::F32, &[])));
}

#[test]
fn zero_operands_and_async_opcodes() {
    let m = parse("HloModule m\nENTRY %e {\n  %t = token[] after-all()\n  %s = ((f32[]), f32[], u32[]) add-start(%t)\n  ROOT %d = f32[] add-done(%s)\n}\n");
    let c = &m.computations[0];
    assert!(c.instructions[0].operands.is_empty());
    assert_eq!(c.instructions[1].opcode, "add-start");
}

#[test]
fn stack_frames_are_resolved() {
    let text = "HloModule m\n\nFileNames\n1 \"a.py\"\n2 \"b\\\\c.py\"\n\nFunctionNames\n1 \"f\"\n2 \"g\"\n\nFileLocations\n1 {file_name_id=2 function_name_id=1 line=7 end_line=8 column=3 end_column=4}\n2 {file_name_id=1, function_name_id=2, line=1, end_line=1, column=0, end_column=9}\n\nStackFrames\n1 {file_location_id=2 parent_frame_id=1}\n2 {file_location_id=1 parent_frame_id=2}\n\nENTRY %e {\n  ROOT %p = f32[] parameter(0), metadata={stack_frame_id=2}\n}\n";
    let m = parse(text);
    assert_eq!(
        m.stack_frames,
        vec![
            StackFrame {
                id: 1,
                file: "a.py".into(),
                function: "g".into(),
                line: 1,
                column: 0,
                end_line: 1,
                end_column: 9,
                parent_id: 0
            },
            StackFrame {
                id: 2,
                file: "b\\c.py".into(),
                function: "f".into(),
                line: 7,
                column: 3,
                end_line: 8,
                end_column: 4,
                parent_id: 1
            },
        ]
    );
    // Printed as XLA prints the tables.
    let printed = print_module(&m);
    assert!(printed.starts_with("HloModule m\n\nFileNames\n1 \"a.py\"\n2 \"b\\\\c.py\"\n\nFunctionNames\n1 \"g\"\n2 \"f\"\n\nFileLocations\n1 {file_name_id=1 function_name_id=1 line=1 end_line=1 column=0 end_column=9}\n2 {file_name_id=2 function_name_id=2 line=7 end_line=8 column=3 end_column=4}\n\nStackFrames\n1 {file_location_id=1 parent_frame_id=1}\n2 {file_location_id=2 parent_frame_id=2}\n\n\nENTRY"), "{printed}");
}

#[test]
fn empty_stack_frame_tables() {
    let m = parse("HloModule m\nFileNames\nFunctionNames\nFileLocations\nStackFrames\nENTRY %e {\n  ROOT %p = f32[] parameter(0)\n}\n");
    assert!(m.stack_frames.is_empty());
}

#[test]
fn a_computation_may_be_named_like_a_section() {
    let m = parse("HloModule m\n%FileNames {\n  ROOT %p = f32[] parameter(0)\n}\n");
    assert_eq!(m.computations[0].name, "FileNames");
}

#[test]
fn windows_line_endings() {
    let m = parse("HloModule m\r\n\r\nENTRY %e {\r\n  ROOT %p = f32[] parameter(0), a={1,\r\n 2}\r\n}\r\n");
    assert_eq!(m.computations[0].instructions[0].attributes[0].value.text, "{1,\r\n 2}");
}

#[test]
fn columns_count_characters() {
    let m = parse("HloModule m\nENTRY %e {\n  ROOT %p = f32[] parameter(0), a=\"é\", b=1\n}\n");
    assert_eq!(m.computations[0].instructions[0].attributes[1].pos, pos(3, 40));
}

#[test]
fn lookups() {
    let m = parse(SIMPLE);
    assert!(m.computation("main").is_some());
    assert_eq!(m.attribute("is_scheduled").unwrap().text, "true");
    let neg = m.entry_computation().root_instruction();
    assert!(neg.attribute("metadata").is_some());
    assert_eq!(neg.shape.element_type(), Some(PrimitiveType::F32));
    assert_eq!(neg.shape.dims(), &[Dim::Static(2)]);
}
