//! Conveniences on the syntax tree of [`crate::ast`]: lookups the importer
//! needs often, `Display` for positions, and position stripping so that two
//! trees can be compared for what they say rather than where they said it.

use std::fmt;

use crate::ast::*;

impl fmt::Display for Pos {
    /// `line:col`, the prefix of every diagnostic.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

impl Module {
    /// The entry computation.
    pub fn entry_computation(&self) -> &Computation {
        &self.computations[self.entry]
    }

    /// The computation named `name` (without `%`).
    pub fn computation(&self, name: &str) -> Option<&Computation> {
        self.computations.iter().find(|c| c.name == name)
    }

    /// The header attribute `name`, if present.
    pub fn attribute(&self, name: &str) -> Option<&AttrValue> {
        find_attr(&self.attributes, name)
    }

    /// A copy with every [`Pos`] zeroed: equal trees print the same text.
    pub fn without_positions(&self) -> Module {
        let mut m = self.clone();
        m.clear_positions();
        m
    }

    /// Zeroes every [`Pos`] in place.
    pub fn clear_positions(&mut self) {
        self.pos = Pos::default();
        clear_attrs(&mut self.attributes);
        for c in &mut self.computations {
            c.pos = Pos::default();
            clear_attrs(&mut c.attributes);
            for i in &mut c.instructions {
                i.pos = Pos::default();
                clear_attrs(&mut i.attributes);
                for o in &mut i.operands {
                    o.pos = Pos::default();
                }
            }
        }
    }
}

fn clear_attrs(attrs: &mut [Attribute]) {
    for a in attrs {
        a.pos = Pos::default();
        a.value.pos = Pos::default();
    }
}

fn find_attr<'a>(attrs: &'a [Attribute], name: &str) -> Option<&'a AttrValue> {
    attrs.iter().find(|a| a.name == name).map(|a| &a.value)
}

impl Computation {
    /// The root instruction.
    pub fn root_instruction(&self) -> &Instruction {
        &self.instructions[self.root]
    }

    /// The computation attribute `name` (`execution_thread`, ...), if present.
    pub fn attribute(&self, name: &str) -> Option<&AttrValue> {
        find_attr(&self.attributes, name)
    }
}

impl Instruction {
    /// The attribute `name`, if present.
    pub fn attribute(&self, name: &str) -> Option<&AttrValue> {
        find_attr(&self.attributes, name)
    }
}

impl Shape {
    /// The element type of an array shape (`Token`/`Opaque` for those).
    pub fn element_type(&self) -> Option<PrimitiveType> {
        match self {
            Shape::Array { element, .. } => Some(*element),
            Shape::Token => Some(PrimitiveType::Token),
            Shape::Opaque => Some(PrimitiveType::Opaque),
            Shape::Tuple(_) => None,
        }
    }

    /// The dimensions of an array shape; empty for everything else.
    pub fn dims(&self) -> &[Dim] {
        match self {
            Shape::Array { dims, .. } => dims,
            _ => &[],
        }
    }
}

impl PrimitiveType {
    /// `c64`/`c128`.
    pub fn is_complex(self) -> bool {
        matches!(self, PrimitiveType::C64 | PrimitiveType::C128)
    }

    /// Signed and unsigned integers (not `pred`).
    pub fn is_integral(self) -> bool {
        use PrimitiveType::*;
        matches!(self, S1 | S2 | S4 | S8 | S16 | S32 | S64 | U1 | U2 | U4 | U8 | U16 | U32 | U64)
    }

    /// Every floating-point type, the f8/f6/f4 ones included.
    pub fn is_floating_point(self) -> bool {
        use PrimitiveType::*;
        matches!(
            self,
            F16 | Bf16
                | F32
                | F64
                | F4e2m1fn
                | F6e2m3fn
                | F6e3m2fn
                | F8e3m4
                | F8e4m3
                | F8e4m3fn
                | F8e4m3fnuz
                | F8e4m3b11fnuz
                | F8e5m2
                | F8e5m2fnuz
                | F8e8m0fnu
        )
    }
}
