//! The printer on trees built by hand, as the exporter will build them.

use rxla_hlo_text::ast::*;
use rxla_hlo_text::{parse_module, parse_shape, print_literal, print_module, print_shape};

fn at() -> Pos {
    Pos::default()
}

fn f32s(dims: &[i64], layout: Option<Layout>) -> Shape {
    Shape::Array { element: PrimitiveType::F32, dims: dims.iter().map(|&d| Dim::Static(d)).collect(), layout }
}

fn instr(name: &str, shape: Shape, opcode: &str, operands: &[&str]) -> Instruction {
    Instruction {
        name: name.into(),
        is_root: false,
        shape,
        opcode: opcode.into(),
        operands: operands.iter().map(|o| Operand { shape: None, name: (*o).into(), pos: at() }).collect(),
        literal: None,
        parameter_number: None,
        attributes: vec![],
        pos: at(),
    }
}

fn attr(name: &str, text: &str) -> Attribute {
    Attribute { name: name.into(), value: AttrValue { text: text.into(), pos: at() }, pos: at() }
}

fn module() -> Module {
    let mut p =
        instr("p", f32s(&[2], Some(Layout { minor_to_major: vec![0], ..Default::default() })), "parameter", &[]);
    p.parameter_number = Some(0);
    let mut c = instr("c", f32s(&[], None), "constant", &[]);
    c.literal = Some(Literal::Array(LiteralArray::Element("2.5".into())));
    let mut b = instr("b", f32s(&[2], None), "broadcast", &["c"]);
    b.attributes.push(attr("dimensions", "{}"));
    let mut r = instr("r", f32s(&[2], None), "multiply", &["p", "b"]);
    r.is_root = true;
    let entry = Computation {
        name: "main".into(),
        is_entry: true,
        signature: Some(Signature { params: vec![("p".into(), f32s(&[2], None))], result: f32s(&[2], None) }),
        instructions: vec![p, c, b, r],
        root: 3,
        attributes: vec![],
        pos: at(),
    };
    Module {
        name: "built".into(),
        attributes: vec![attr("is_scheduled", "true")],
        computations: vec![entry],
        entry: 0,
        stack_frames: vec![],
        pos: at(),
    }
}

#[test]
fn prints_xla_style_and_reparses() {
    let m = module();
    let text = print_module(&m);
    assert_eq!(
        text,
        "HloModule built, is_scheduled=true\n\nENTRY %main (p: f32[2]) -> f32[2] {\n  %p = f32[2]{0} parameter(0)\n  %c = f32[] constant(2.5)\n  %b = f32[2] broadcast(%c), dimensions={}\n  ROOT %r = f32[2] multiply(%p, %b)\n}\n\n"
    );
    assert_eq!(parse_module(&text).unwrap().without_positions(), m);
}

#[test]
fn unmarked_entry_and_root_are_marked_when_not_last() {
    let mut m = module();
    m.computations[0].is_entry = false;
    m.computations[0].instructions[3].is_root = false;
    m.computations[0].root = 1;
    let mut other = m.computations[0].clone();
    other.name = "other".into();
    m.computations.push(other);
    let text = print_module(&m);
    assert!(text.contains("ENTRY %main"), "{text}");
    assert!(text.contains("  ROOT %c = f32[] constant(2.5)"), "{text}");
    let back = parse_module(&text).unwrap();
    assert_eq!((back.entry, back.computations[0].root), (0, 1));
}

#[test]
fn shapes() {
    for text in [
        "f32[]",
        "pred[1,2,3]{2,1,0}",
        "bf16[<=4,?]",
        "(f32[], (s32[2]{0}, token[]), opaque[])",
        "()",
        "f8e4m3b11fnuz[8]{0:T(8)(2,1)(*,4)E(8)S(3)}",
        "u4[4]{0:D(D)T(2)L(2)#(u16)*(u32)E(4)S(1)SC(0:1)P(u4[4]{0})M(8)}",
        "f32[]{:T(256)}",
    ] {
        let shape = parse_shape(text).unwrap();
        assert_eq!(print_shape(&shape), text);
    }
    // Tuples carry an index comment every five elements, as XLA prints them.
    let six = parse_shape("(f32[], f32[], f32[], f32[], f32[], f32[])").unwrap();
    assert_eq!(print_shape(&six), "(f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[])");
    // An empty layout prints as nothing (XLA's scalars).
    let scalar = Shape::Array { element: PrimitiveType::S32, dims: vec![], layout: Some(Layout::default()) };
    assert_eq!(print_shape(&scalar), "s32[]");
}

#[test]
fn layout_items_print_in_xla_order() {
    let layout = Layout {
        minor_to_major: vec![0],
        tiles: vec![vec![128]],
        element_size_in_bits: Some(4),
        memory_space: Some(2),
        other: vec!["D(D)".into(), "L(2)".into(), "M(8)".into()],
    };
    assert_eq!(print_shape(&f32s(&[4], Some(layout))), "f32[4]{0:D(D)T(128)L(2)E(4)S(2)M(8)}");
}

fn el(s: &str) -> LiteralArray {
    LiteralArray::Element(s.into())
}

fn nested(v: Vec<LiteralArray>) -> LiteralArray {
    LiteralArray::Nested(v)
}

#[test]
fn literals() {
    assert_eq!(print_literal(&Literal::Array(el("-inf"))), "-inf");
    assert_eq!(print_literal(&Literal::Array(nested(vec![el("1"), el("2")]))), "{1, 2}");
    assert_eq!(print_literal(&Literal::Array(nested(vec![]))), "{}");
    assert_eq!(
        print_literal(&Literal::Array(nested(vec![nested(vec![el("1"), el("2")]), nested(vec![el("3"), el("4")])]))),
        "{ { 1, 2 }, { 3, 4 } }"
    );
    assert_eq!(print_literal(&Literal::Array(nested(vec![nested(vec![el("1")])]))), "{ {1} }");
    assert_eq!(print_literal(&Literal::Array(nested(vec![el("...")]))), "{...}");
    assert_eq!(
        print_literal(&Literal::Tuple(vec![
            Literal::Array(el("1")),
            Literal::Tuple(vec![]),
            Literal::Array(el("(1, 2)"))
        ])),
        "( 1, (  ), (1, 2) )"
    );
}

#[test]
fn stack_frames_print_as_tables() {
    let mut m = module();
    let frame = |id, file: &str, parent_id| StackFrame {
        id,
        file: file.into(),
        function: "f\n".into(),
        line: 1,
        column: 2,
        end_line: 3,
        end_column: 4,
        parent_id,
    };
    m.stack_frames = vec![frame(1, "a.py", 0), frame(2, "a.py", 1), frame(3, "b \"q\".py", 2)];
    let text = print_module(&m);
    assert!(
        text.contains("\n\nFileNames\n1 \"a.py\"\n2 \"b \\\"q\\\".py\"\n\nFunctionNames\n1 \"f\\n\"\n\nFileLocations\n1 {file_name_id=1 function_name_id=1 line=1 end_line=3 column=2 end_column=4}\n2 {file_name_id=2 function_name_id=1 line=1 end_line=3 column=2 end_column=4}\n\nStackFrames\n1 {file_location_id=1 parent_frame_id=1}\n2 {file_location_id=1 parent_frame_id=2}\n3 {file_location_id=2 parent_frame_id=3}\n"),
        "{text}"
    );
    assert_eq!(parse_module(&text).unwrap().without_positions(), m);
}

#[test]
fn operand_lists_carry_index_comments() {
    let mut m = module();
    let entry = &mut m.computations[0];
    let root_shape = Shape::Tuple(vec![f32s(&[2], None); 6]);
    let mut t = instr("t", root_shape, "tuple", &["p", "p", "p", "p", "p", "r"]);
    t.is_root = true;
    entry.instructions[3].is_root = false;
    entry.instructions.push(t);
    entry.root = 4;
    let text = print_module(&m);
    assert!(text.contains("tuple(%p, %p, %p, %p, %p, /*index=5*/%r)"), "{text}");
    assert_eq!(parse_module(&text).unwrap().without_positions(), m);
}
