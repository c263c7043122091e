//! The syntax tree of an HLO module as XLA prints it.
//!
//! The tree keeps what the text says, in the text's order, with a source
//! position on everything an error may need to point at. Attribute values
//! stay as their source text ([`AttrValue`]); the typed readers in
//! [`crate::attrs`] interpret them by keyword, so that an unknown keyword is
//! carried through unchanged and a malformed known one gets a located error.

/// A 1-based line and column in the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

/// An `HloModule`: header, computations, and the trailing sections newer
/// XLA versions print.
#[derive(Clone, Debug, PartialEq)]
pub struct Module {
    pub name: String,
    /// Header attributes after the name (`entry_computation_layout={...}`,
    /// `is_scheduled=true`, ...), in order.
    pub attributes: Vec<Attribute>,
    pub computations: Vec<Computation>,
    /// Index into `computations` of the entry computation: the one marked
    /// `ENTRY`, else the last one.
    pub entry: usize,
    /// Source locations of the trailing `FileNames`/`FunctionNames`/
    /// `FileLocations`/`StackFrames` sections, resolved per stack frame id.
    pub stack_frames: Vec<StackFrame>,
    pub pos: Pos,
}

/// One resolved frame of the trailing stack-frame sections.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackFrame {
    /// The frame id instructions refer to (`stack_frame_id=N` in metadata).
    pub id: i64,
    pub file: String,
    pub function: String,
    pub line: i64,
    pub column: i64,
    /// `end_line=` of the frame's file location.
    pub end_line: i64,
    /// `end_column=` of the frame's file location.
    pub end_column: i64,
    /// The id of the calling frame, 0 for none. (The text writes it plus
    /// one, `parent_frame_id=1` meaning "no parent", as XLA does.)
    pub parent_id: i64,
}

/// A computation: `[ENTRY] %name [(p: shape, ...) -> shape] { ... }`.
#[derive(Clone, Debug, PartialEq)]
pub struct Computation {
    pub name: String,
    pub is_entry: bool,
    /// The signature, when the text has one.
    pub signature: Option<Signature>,
    pub instructions: Vec<Instruction>,
    /// Index into `instructions` of the root: the one marked `ROOT`, else
    /// the last one.
    pub root: usize,
    /// Computation-level attributes after the body (`execution_thread="..."`).
    pub attributes: Vec<Attribute>,
    pub pos: Pos,
}

/// `(name: shape, ...) -> shape`.
#[derive(Clone, Debug, PartialEq)]
pub struct Signature {
    pub params: Vec<(String, Shape)>,
    pub result: Shape,
}

/// `[ROOT] %name = shape opcode(operands), attr=value, ...`.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    pub name: String,
    pub is_root: bool,
    pub shape: Shape,
    /// The opcode as written (`add`, `get-tuple-element`, `fusion`, ...).
    pub opcode: String,
    /// Operands; for `constant` the literal instead (see `literal`), for
    /// `parameter` none (see `parameter_number`).
    pub operands: Vec<Operand>,
    /// `constant(...)`: the literal between the parentheses.
    pub literal: Option<Literal>,
    /// `parameter(N)`: N.
    pub parameter_number: Option<i64>,
    pub attributes: Vec<Attribute>,
    pub pos: Pos,
}

/// An operand reference, optionally with its shape (`f32[2] %x` or `%x`).
#[derive(Clone, Debug, PartialEq)]
pub struct Operand {
    pub shape: Option<Shape>,
    /// The name without `%`.
    pub name: String,
    pub pos: Pos,
}

/// `keyword=value` after the operands (or in the module header).
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub name: String,
    pub value: AttrValue,
    pub pos: Pos,
}

/// An attribute value, kept as the exact source text (`{1,0}`,
/// `%computation`, `"string"`, `size=3x3 stride=2x2`, ...).
#[derive(Clone, Debug, PartialEq)]
pub struct AttrValue {
    pub text: String,
    /// Position of the first character of `text`.
    pub pos: Pos,
}

/// XLA primitive types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrimitiveType {
    Pred,
    S1,
    S2,
    S4,
    S8,
    S16,
    S32,
    S64,
    U1,
    U2,
    U4,
    U8,
    U16,
    U32,
    U64,
    F16,
    Bf16,
    F32,
    F64,
    F4e2m1fn,
    F6e2m3fn,
    F6e3m2fn,
    F8e3m4,
    F8e4m3,
    F8e4m3fn,
    F8e4m3fnuz,
    F8e4m3b11fnuz,
    F8e5m2,
    F8e5m2fnuz,
    F8e8m0fnu,
    C64,
    C128,
    Token,
    /// `opaque[]`, used by some custom calls and async contexts.
    Opaque,
}

impl PrimitiveType {
    /// The name as HLO text writes it (`f32`, `bf16`, `pred`, ...).
    pub fn name(self) -> &'static str {
        use PrimitiveType::*;
        match self {
            Pred => "pred",
            S1 => "s1",
            S2 => "s2",
            S4 => "s4",
            S8 => "s8",
            S16 => "s16",
            S32 => "s32",
            S64 => "s64",
            U1 => "u1",
            U2 => "u2",
            U4 => "u4",
            U8 => "u8",
            U16 => "u16",
            U32 => "u32",
            U64 => "u64",
            F16 => "f16",
            Bf16 => "bf16",
            F32 => "f32",
            F64 => "f64",
            F4e2m1fn => "f4e2m1fn",
            F6e2m3fn => "f6e2m3fn",
            F6e3m2fn => "f6e3m2fn",
            F8e3m4 => "f8e3m4",
            F8e4m3 => "f8e4m3",
            F8e4m3fn => "f8e4m3fn",
            F8e4m3fnuz => "f8e4m3fnuz",
            F8e4m3b11fnuz => "f8e4m3b11fnuz",
            F8e5m2 => "f8e5m2",
            F8e5m2fnuz => "f8e5m2fnuz",
            F8e8m0fnu => "f8e8m0fnu",
            C64 => "c64",
            C128 => "c128",
            Token => "token",
            Opaque => "opaque",
        }
    }

    /// Every type, for lookups by name.
    pub const ALL: [PrimitiveType; 34] = {
        use PrimitiveType::*;
        [
            Pred,
            S1,
            S2,
            S4,
            S8,
            S16,
            S32,
            S64,
            U1,
            U2,
            U4,
            U8,
            U16,
            U32,
            U64,
            F16,
            Bf16,
            F32,
            F64,
            F4e2m1fn,
            F6e2m3fn,
            F6e3m2fn,
            F8e3m4,
            F8e4m3,
            F8e4m3fn,
            F8e4m3fnuz,
            F8e4m3b11fnuz,
            F8e5m2,
            F8e5m2fnuz,
            F8e8m0fnu,
            C64,
            C128,
            Token,
            Opaque,
        ]
    };

    /// The type named `name`, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|t| t.name() == name)
    }
}

/// One dimension of an array shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    /// `8`
    Static(i64),
    /// `<=8`: dynamic with an upper bound.
    Bounded(i64),
    /// `?`: dynamic without a bound.
    Unbounded,
}

/// A shape.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// `f32[2,3]{1,0}`; scalars have no dims.
    Array { element: PrimitiveType, dims: Vec<Dim>, layout: Option<Layout> },
    /// `(f32[2], s32[])`
    Tuple(Vec<Shape>),
    /// `token[]`
    Token,
    /// `opaque[]`
    Opaque,
}

/// An array layout: `{1,0:T(8,128)(2,1)E(4)S(1)...}`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Layout {
    pub minor_to_major: Vec<i64>,
    /// `T(8,128)(2,1)`: tile dimensions; `*` (combine) is -1.
    pub tiles: Vec<Vec<i64>>,
    /// `E(4)`
    pub element_size_in_bits: Option<i64>,
    /// `S(1)`
    pub memory_space: Option<i64>,
    /// Every other item after `:` (`#(s32)`, `*(u8)`, `L(4)`, `M(...)`, ...)
    /// kept as text, in order, so the layout prints back unchanged.
    pub other: Vec<String>,
}

/// A literal as written: nested `{...}` arrays of elements, or a tuple.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// A scalar or nested array; elements are the source tokens (`1`,
    /// `-2.5e-3`, `inf`, `-nan`, `nan(0x7fc00001)`, `true`, `0x1p-3`, `(1, 2)`
    /// for complex), so no precision is lost before import.
    Array(LiteralArray),
    /// `( {1,2}, 3 )` for tuple-shaped constants.
    Tuple(Vec<Literal>),
}

/// A possibly nested array of element tokens.
#[derive(Clone, Debug, PartialEq)]
pub enum LiteralArray {
    Element(String),
    Nested(Vec<LiteralArray>),
}
