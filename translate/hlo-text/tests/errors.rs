//! Malformed input: every error names the right place.

use rxla_hlo_text::{parse_module, ParseError};

fn err(text: &str) -> ParseError {
    match parse_module(text) {
        Ok(m) => panic!("accepted:\n{text}\n{m:#?}"),
        Err(e) => e,
    }
}

/// Asserts the rendered error: `line:col: error: message (at 'token')`.
fn check(text: &str, expected: &str) {
    assert_eq!(err(text).to_string(), expected, "for input:\n{text}");
}

const HEAD: &str = "HloModule m\nENTRY %e {\n";

fn body(lines: &str) -> String {
    format!("{HEAD}{lines}\n}}\n")
}

#[test]
fn display_and_render() {
    let e = err("HloModule m\nENTRY %e {\n  ROOT %p = f33[] parameter(0)\n}\n");
    assert_eq!((e.pos.line, e.pos.col, e.token.as_str()), (3, 13, "f33"));
    assert_eq!(e.message, "unknown primitive type 'f33'");
    assert_eq!(e.to_string(), "3:13: error: unknown primitive type 'f33' (at 'f33')");
    assert_eq!(e.render("x.hlo"), "x.hlo:3:13: error: unknown primitive type 'f33' (at 'f33')");
}

#[test]
fn empty_and_truncated_input() {
    check("", "1:1: error: expects 'HloModule' or a computation (at end of input)");
    check("HloModule", "1:10: error: expects a module name (at end of input)");
    check("HloModule m", "1:12: error: expects a computation (at end of input)");
    check("HloModule m\nENTRY", "2:6: error: expects a computation name (at end of input)");
    check("HloModule m\nENTRY %e", "2:9: error: expects '{' to start the computation body (at end of input)");
    check("HloModule m\nENTRY %e {", "2:11: error: expects '}' at the end of computation 'e' (at end of input)");
    check(
        "HloModule m\nENTRY %e {\n  ROOT %p = f32[] parameter(0)\n",
        "4:1: error: expects '}' at the end of computation 'e' (at end of input)",
    );
    check("HloModule m\nENTRY %e {\n  ROOT %p = f32[", "3:17: error: expects a dimension size (at end of input)");
    check(
        "HloModule m\nENTRY %e {\n  ROOT %p = f32[] parameter(",
        "3:29: error: expects the parameter number (at end of input)",
    );
    check(
        "HloModule m\nENTRY %e {\n  ROOT %p = f32[] constant(",
        "3:28: error: expects a f32 literal element (at end of input)",
    );
    check("HloModule m, a=", "1:16: error: expects an attribute value (at end of input)");
    check("HloModule m, a={1,", "1:16: error: unbalanced '{' in attribute value (at '{')");
}

#[test]
fn bad_shapes() {
    check(&body("  ROOT %p = f32 parameter(0)"), "3:17: error: expects '[' after the element type (at 'parameter')");
    check(&body("  ROOT %p = f32[2,] parameter(0)"), "3:19: error: expects a dimension size (at ']')");
    check(&body("  ROOT %p = f32[-1] parameter(0)"), "3:17: error: dimension sizes are not negative (at '-1')");
    check(
        &body("  ROOT %p = f32[99999999999999999999] parameter(0)"),
        "3:17: error: integer out of range (at '99999999999999999999')",
    );
    check(
        &body("  ROOT %p = (f32[], s32[] parameter(0)"),
        "3:27: error: expects ')' at the end of the tuple shape (at 'parameter')",
    );
    check(&body("  ROOT %p = token[2] parameter(0)"), "3:13: error: token[] has no dimensions (at 'token')");
    check(&body("  ROOT %p = parameter(0)"), "3:13: error: expects the instruction's shape (at 'parameter')");
    check(
        &body("  ROOT %p = f32[2]{1,0} parameter(0)"),
        "3:19: error: layout has 2 minor-to-major entries for a shape of rank 1 (at '{')",
    );
    check(&body("  ROOT %p = f32[2]{0:Q(1)} parameter(0)"), "3:22: error: unknown layout item 'Q' (at 'Q')");
    check(
        &body("  ROOT %p = f32[2]{0:E(1)T(2)} parameter(0)"),
        "3:26: error: layout item repeated or out of order (XLA writes D, T, L, #, *, E, S, SC, P, M) (at 'T')",
    );
    check(&body("  ROOT %p = f32[2]{0:T(2} parameter(0)"), "3:25: error: expects ')' at the end of the tile (at '}')");
    check(
        &body("  ROOT %p = f32[2]{0 parameter(0)"),
        "3:22: error: expects '}' at the end of the layout (at 'parameter')",
    );
}

#[test]
fn unknown_primitive_types() {
    check(&body("  ROOT %p = f31[2] parameter(0)"), "3:13: error: unknown primitive type 'f31' (at 'f31')");
    check(
        &body("  %p = f32[] parameter(0)\n  ROOT %q = f32[] add(bad[] %p, %p)"),
        "4:23: error: unknown primitive type 'bad' (at 'bad')",
    );
    check(
        "HloModule m\nENTRY %e (x: tensor[2]) -> f32[] {\n  ROOT %p = f32[] parameter(0)\n}",
        "2:14: error: unknown primitive type 'tensor' (at 'tensor')",
    );
}

#[test]
fn unbalanced_braces() {
    check(&body("  ROOT %p = f32[] parameter(0), a={1, (2}"), "3:41: error: mismatched '}', expects ')' (at '}')");
    check(
        "HloModule m, a={{1}\nENTRY %e {\n  ROOT %p = f32[] parameter(0)\n}\n",
        "1:16: error: unbalanced '{' in attribute value (at '{')",
    );
    check(
        &body("  ROOT %p = f32[] parameter(0), a=\"abc"),
        "3:35: error: unterminated string (at '\"abc...')".replace("...')", "\n}\n')").as_str(),
    );
    check(
        "HloModule m\nENTRY %e {\n  ROOT %p = f32[] parameter(0)\n}\n}\n",
        "5:1: error: expects a computation name (at '}')",
    );
    check(&body("  ROOT %p = f32[] parameter(0))"), "3:31: error: expects an instruction name (at ')')");
    check(&body("  ROOT %p = f32[2] constant({1, 2)"), "3:34: error: expects ',' or '}' in the array literal (at ')')");
}

#[test]
fn root_and_entry_rules() {
    check(
        &body("  ROOT %p = f32[] parameter(0)\n  ROOT %q = f32[] negate(%p)"),
        "4:3: error: a computation has only one ROOT instruction (at 'ROOT')",
    );
    check(
        "HloModule m\nENTRY %a {\n  ROOT %p = f32[] parameter(0)\n}\nENTRY %b {\n  ROOT %p = f32[] parameter(0)\n}\n",
        "5:1: error: a module has only one ENTRY computation (at 'ENTRY')",
    );
    check("HloModule m\nENTRY %e {\n}\n", "3:1: error: computation 'e' has no instructions (at '}')");
}

#[test]
fn names() {
    check(
        &body("  ROOT %p = f32[] parameter(0)\n  %p = f32[] negate(%p)"),
        "4:3: error: instruction 'p' is defined twice (at '%p')",
    );
    check(
        "HloModule m\n%c {\n  ROOT %p = f32[] parameter(0)\n}\n%c {\n  ROOT %p = f32[] parameter(0)\n}\n",
        "5:1: error: computation 'c' is defined twice (at '%c')",
    );
    check(&body("  ROOT %q = f32[] negate(%p)"), "3:26: error: operand 'p' is not defined before its use (at '%p')");
    check(&body("  ROOT % = f32[] parameter(0)"), "3:8: error: expects a name after '%' (at '%')");
    check(&body("  ROOT %p f32[] parameter(0)"), "3:11: error: expects '=' after the instruction name (at 'f32')");
    check(&body("  ROOT %p = f32[] (%x)"), "3:19: error: expects an opcode (at '(')");
    check(&body("  ROOT %p = f32[] parameter(-1)"), "3:29: error: expects a parameter number in 0..2^63 (at '-1')");
}

#[test]
fn operands_and_attributes() {
    check(
        &body("  %p = f32[] parameter(0)\n  ROOT %q = f32[] add(%p %p)"),
        "4:26: error: expects ')' at the end of the operands (at '%p')",
    );
    check(
        &body("  %p = f32[] parameter(0)\n  ROOT %q = f32[] add(%p,)"),
        "4:26: error: expects an operand name (at ')')",
    );
    check(&body("  ROOT %p = f32[] parameter(0), =1"), "3:33: error: expects an attribute name (at '=')");
    check(&body("  ROOT %p = f32[] parameter(0), a 1"), "3:35: error: expects '=' after the attribute name (at '1')");
    check(&body("  ROOT %p = f32[] parameter(0),"), "4:1: error: expects an attribute name (at '}')");
    check(&body("  ROOT %p = f32[] parameter(0), a=,"), "3:35: error: expects an attribute value (at ',')");
}

#[test]
fn literals() {
    check(&body("  ROOT %c = s32[] constant(1.5)"), "3:28: error: expects a s32 literal element (at '1.5')");
    check(&body("  ROOT %c = f32[] constant(true)"), "3:28: error: expects a f32 literal element (at 'true')");
    check(&body("  ROOT %c = c64[] constant(1)"), "3:28: error: expects a c64 literal element (at '1')");
    check(&body("  ROOT %c = f32[2] constant({1, 2, 3})"), "3:37: error: expects 2 elements, sees 3 (at '}')");
    check(&body("  ROOT %c = f32[2,1] constant({1, 2})"), "3:32: error: expects '{' to start a rank-1 array (at '1')");
    check(&body("  ROOT %c = f32[] constant({1})"), "3:28: error: expects a f32 literal element (at '{')");
    check(
        &body("  ROOT %c = (f32[], f32[]) constant((1))"),
        "3:39: error: expects ',' between tuple elements (at ')')",
    );
    check(
        &body("  ROOT %c = token[] constant(1)"),
        "3:30: error: a constant cannot have a token or opaque shape (at '1')",
    );
    check(
        &body("  ROOT %c = c64[] constant((1 2))"),
        "3:31: error: expects ',' between the real and imaginary parts (at '2')",
    );
    check(
        &body("  ROOT %c = f32[] constant(nan(0x))"),
        "3:31: error: expects ')' after the constant's literal (at '(')",
    );
}

#[test]
fn lexical_errors() {
    check(&body("  ROOT %p = f32[] parameter(0) $"), "3:32: error: unexpected character (at '$')");
    check(&body("  ROOT %p = f32[] parameter(0) /* open"), "3:32: error: unterminated comment (at '/* open\n}\n')");
    check(&body("  ROOT %p = f32[] para\u{e9}meter(0)"), "3:23: error: unexpected character (at '\u{e9}')");
    check(&body("  ROOT %p = f32[] parameter(0) -"), "3:32: error: unexpected character (at '-')");
    check(&body("  ROOT %p = f32[] parameter(0x)"), "3:29: error: malformed hexadecimal number (at '0')");
}

#[test]
fn stack_frame_sections() {
    let tail = "\nENTRY %e {\n  ROOT %p = f32[] parameter(0)\n}\n";
    check(
        &format!("HloModule m\nFileNames\n1 \"a\"\nFileLocations{tail}"),
        "4:1: error: expects the 'FunctionNames' section (at 'FileLocations')",
    );
    check(&format!("HloModule m\nFileNames\n2 \"a\"{tail}"), "3:1: error: expects entry number 1 (at '2')");
    check(&format!("HloModule m\nFileNames\n1 a{tail}"), "3:3: error: expects a quoted string (at 'a')");
    check(&format!("HloModule m\nFileNames\n1 \"\\q\"{tail}"), "3:3: error: unknown escape sequence (at '\"\\q\"')");
    let frames = |loc: &str, frame: &str| {
        format!("HloModule m\nFileNames\n1 \"a\"\nFunctionNames\n1 \"f\"\nFileLocations\n1 {{{loc}}}\nStackFrames\n1 {{{frame}}}\n{tail}")
    };
    let loc = "file_name_id=1 function_name_id=1 line=1 end_line=1 column=1 end_column=1";
    check(
        &frames("file_name_id=1 function_name_id=1 line=1", "file_location_id=1 parent_frame_id=1"),
        "7:44: error: entry lacks 'end_line=' (at '}')",
    );
    check(
        &frames(&format!("{loc} bogus=1"), "file_location_id=1 parent_frame_id=1"),
        "7:78: error: unknown key 'bogus' (at 'bogus')",
    );
    check(
        &frames(&format!("{loc} line=2"), "file_location_id=1 parent_frame_id=1"),
        "7:78: error: key 'line' given twice (at 'line')",
    );
    check(&frames(loc, "file_location_id=2 parent_frame_id=1"), "9:21: error: no file location has id 2 (at '2')");
    check(
        &frames(&loc.replace("file_name_id=1", "file_name_id=0"), "file_location_id=1 parent_frame_id=1"),
        "7:17: error: no file name has id 0 (at '0')",
    );
    check(
        &frames(loc, "file_location_id=1 parent_frame_id=3"),
        "9:39: error: parent_frame_id refers to no stack frame (at '3')",
    );
    check(&frames(loc, "file_location_id=1 parent_frame_id=x"), "9:39: error: expects an integer (at 'x')");
}

#[test]
fn nesting_is_bounded() {
    // Deep tuples fail with an error instead of overflowing the stack, in a
    // thread with the default 2 MiB test stack.
    let deep = 100_000;
    let shape = format!("{}f32[]{}", "(".repeat(deep), ")".repeat(deep));
    let e = err(&body(&format!("  ROOT %p = {shape} parameter(0)")));
    assert_eq!(e.message, "nesting deeper than 512 levels");
    assert_eq!((e.pos.line, e.pos.col), (3, 13 + 512));

    let literal = format!("{}1{}", "{".repeat(deep), "}".repeat(deep));
    let dims = vec!["1"; 600].join(",");
    let e = err(&body(&format!("  ROOT %c = f32[{dims}] constant({literal})")));
    assert_eq!(e.message, "nesting deeper than 512 levels");

    let e = err(&body(&format!("  ROOT %p = f32[] parameter(0), a={}", "[".repeat(deep))));
    assert_eq!(e.message, "brackets nest too deeply");

    // 512 levels are fine.
    let ok = format!("{}f32[]{}", "(".repeat(500), ")".repeat(500));
    parse_module(&body(&format!("  ROOT %p = {ok} parameter(0)"))).unwrap();
}

#[test]
fn huge_inputs_stay_linear() {
    // A 4 MB attribute value and a 100k-element literal parse quickly.
    let value = format!("{{{}}}", "1,".repeat(2_000_000));
    let start = std::time::Instant::now();
    parse_module(&body(&format!("  ROOT %p = f32[] parameter(0), a={value}"))).unwrap();
    let elements = vec!["1.5"; 100_000].join(", ");
    parse_module(&body(&format!("  ROOT %c = f32[100000] constant({{{elements}}})"))).unwrap();
    assert!(start.elapsed().as_secs() < 10);
}

#[test]
fn many_distinct_names_stay_linear() {
    use rxla_hlo_text::{attrs, print_module};
    let start = std::time::Instant::now();
    let n = 50_000;
    // Distinct unknown keywords, distinct metadata keys.
    let unknown: String = (0..n).map(|i| format!(", k{i}=1")).collect();
    let keys: String = (0..n).map(|i| format!(" key{i}=1")).collect();
    let m = parse_module(&body(&format!("  ROOT %p = f32[] parameter(0), metadata={{{keys}}}{unknown}"))).unwrap();
    let report = attrs::check_module(&m).unwrap();
    assert_eq!(report.unknown.len(), n);
    // Distinct stack frames print without quadratic table lookups.
    let files: String = (1..=n).map(|i| format!("{i} \"f{i}.py\"\n")).collect();
    let locations: String = (1..=n)
        .map(|i| format!("{i} {{file_name_id={i} function_name_id=1 line={i} end_line=1 column=1 end_column=1}}\n"))
        .collect();
    let frames: String = (1..=n).map(|i| format!("{i} {{file_location_id={i} parent_frame_id={i}}}\n")).collect();
    let text = format!(
        "HloModule m\nFileNames\n{files}FunctionNames\n1 \"f\"\nFileLocations\n{locations}StackFrames\n{frames}ENTRY %e {{\n  ROOT %p = f32[] parameter(0)\n}}\n"
    );
    let m = parse_module(&text).unwrap();
    assert_eq!(m.stack_frames.len(), n);
    assert_eq!(m.stack_frames[n - 1].parent_id, n as i64 - 1);
    assert_eq!(parse_module(&print_module(&m)).unwrap().without_positions(), m.without_positions());
    assert!(start.elapsed().as_secs() < 20);
}
