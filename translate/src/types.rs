//! HLO shapes and element types as MLIR types, both ways.
//!
//! `f32[2,3]` is `tensor<2x3xf32>`, `(f32[], s32[])` is
//! `tuple<tensor<f32>, tensor<i32>>`, `token[]` is `!hlo.token`. Layouts are
//! not part of the type (see docs/dialect.md); `<=N` and `?` dimensions
//! is `?`; bounded `<=N` is not supported yet.

use rxla_hlo_text::ast::{Dim, Layout, PrimitiveType, Shape};

/// The MLIR element type of an XLA primitive type, if MLIR has one.
pub fn element_type(t: PrimitiveType) -> Option<&'static str> {
    use PrimitiveType::*;
    Some(match t {
        Pred => "i1",
        S2 => "i2",
        S4 => "i4",
        S8 => "i8",
        S16 => "i16",
        S32 => "i32",
        S64 => "i64",
        U2 => "ui2",
        U4 => "ui4",
        U8 => "ui8",
        U16 => "ui16",
        U32 => "ui32",
        U64 => "ui64",
        F16 => "f16",
        Bf16 => "bf16",
        F32 => "f32",
        F64 => "f64",
        F4e2m1fn => "f4E2M1FN",
        F6e2m3fn => "f6E2M3FN",
        F6e3m2fn => "f6E3M2FN",
        F8e3m4 => "f8E3M4",
        F8e4m3 => "f8E4M3",
        F8e4m3fn => "f8E4M3FN",
        F8e4m3fnuz => "f8E4M3FNUZ",
        F8e4m3b11fnuz => "f8E4M3B11FNUZ",
        F8e5m2 => "f8E5M2",
        F8e5m2fnuz => "f8E5M2FNUZ",
        F8e8m0fnu => "f8E8M0FNU",
        C64 => "complex<f32>",
        C128 => "complex<f64>",
        // s1/u1 would collide with pred's i1; token/opaque are not elements.
        S1 | U1 | Token | Opaque => return None,
    })
}

/// The XLA primitive type of an MLIR element type's text.
pub fn primitive_type(mlir: &str) -> Option<PrimitiveType> {
    use PrimitiveType::*;
    PrimitiveType::ALL.iter().copied().find(|&t| element_type(t) == Some(mlir)).or(match mlir {
        // Signless is how rxla spells signed; explicit si types are the same.
        "si2" => Some(S2),
        "si4" => Some(S4),
        "si8" => Some(S8),
        "si16" => Some(S16),
        "si32" => Some(S32),
        "si64" => Some(S64),
        _ => None,
    })
}

/// Why a shape has no MLIR type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsupportedShape(pub String);

/// The MLIR type text of `shape`.
pub fn mlir_type(shape: &Shape) -> Result<String, UnsupportedShape> {
    match shape {
        Shape::Token => Ok("!hlo.token".into()),
        Shape::Opaque => Err(UnsupportedShape("opaque[] shapes are not supported".into())),
        Shape::Tuple(elements) => {
            let parts: Result<Vec<_>, _> = elements.iter().map(mlir_type).collect();
            Ok(format!("tuple<{}>", parts?.join(", ")))
        }
        Shape::Array { element, dims, .. } => {
            let element_text = element_type(*element)
                .ok_or_else(|| UnsupportedShape(format!("element type {} is not supported", element.name())))?;
            let mut text = String::from("tensor<");
            for dim in dims {
                match dim {
                    Dim::Static(n) => text += &format!("{n}x"),
                    Dim::Unbounded => text += "?x",
                    Dim::Bounded(n) => {
                        return Err(UnsupportedShape(format!("bounded dynamic dimension '<={n}' is not supported yet")))
                    }
                }
            }
            text += element_text;
            text.push('>');
            Ok(text)
        }
    }
}

/// True if `layout` is XLA's default for rank `rank`: minor_to_major
/// `rank-1, ..., 0` and nothing else.
pub fn is_default_layout(layout: &Layout, rank: usize) -> bool {
    layout.tiles.is_empty()
        && layout.element_size_in_bits.is_none()
        && layout.memory_space.is_none()
        && layout.other.is_empty()
        && layout.minor_to_major.len() == rank
        && layout.minor_to_major.iter().enumerate().all(|(i, &d)| d == (rank - 1 - i) as i64)
}

/// The default layout of a rank-`rank` array.
pub fn default_layout(rank: usize) -> Layout {
    Layout { minor_to_major: (0..rank as i64).rev().collect(), ..Layout::default() }
}

/// The `#hlo.layout<...>` text of a layout.
pub fn layout_attr(layout: &Layout) -> String {
    let mut fields = Vec::new();
    let list = |v: &[i64]| format!("[{}]", v.iter().map(i64::to_string).collect::<Vec<_>>().join(", "));
    if !layout.minor_to_major.is_empty() {
        fields.push(format!("minor_to_major = {}", list(&layout.minor_to_major)));
    }
    if !layout.tiles.is_empty() {
        let tiles: Vec<String> = layout
            .tiles
            .iter()
            .map(|t| {
                format!(
                    "array<i64{}{}>",
                    if t.is_empty() { "" } else { ": " },
                    t.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
                )
            })
            .collect();
        fields.push(format!("tiles = [{}]", tiles.join(", ")));
    }
    if let Some(bits) = layout.element_size_in_bits {
        fields.push(format!("element_size_in_bits = {bits}"));
    }
    if let Some(space) = layout.memory_space {
        fields.push(format!("memory_space = {space}"));
    }
    if !layout.other.is_empty() {
        fields.push(format!("extra = {}", quote(&layout.other.join(""))));
    }
    format!("#hlo.layout<{}>", fields.join(", "))
}

/// The layout attribute for a value of `shape`, when it is not the default
/// everywhere (tuples get an array with one entry per element).
pub fn layout_attr_for(shape: &Shape) -> Option<String> {
    match shape {
        Shape::Array { dims, layout: Some(layout), .. } if !is_default_layout(layout, dims.len()) => {
            Some(layout_attr(layout))
        }
        Shape::Tuple(elements) => {
            let parts: Vec<Option<String>> = elements.iter().map(layout_attr_for).collect();
            if parts.iter().all(Option::is_none) {
                return None;
            }
            let parts: Vec<String> = parts
                .into_iter()
                .zip(elements)
                .map(|(p, e)| {
                    p.unwrap_or_else(|| match e {
                        Shape::Token | Shape::Opaque => "unit".into(),
                        Shape::Tuple(_) => "[]".into(),
                        Shape::Array { .. } => "#hlo.layout<>".into(),
                    })
                })
                .collect();
            Some(format!("[{}]", parts.join(", ")))
        }
        _ => None,
    }
}

/// MLIR string literal syntax.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Parses MLIR type text (as printed) back into a shape without layout.
pub fn parse_mlir_type(text: &str) -> Option<Shape> {
    let text = text.trim();
    if text == "!hlo.token" {
        return Some(Shape::Token);
    }
    if let Some(inner) = text.strip_prefix("tuple<").and_then(|t| t.strip_suffix('>')) {
        return split_top_level(inner)
            .into_iter()
            .filter(|p| !p.trim().is_empty())
            .map(parse_mlir_type)
            .collect::<Option<Vec<_>>>()
            .map(Shape::Tuple);
    }
    let inner = text.strip_prefix("tensor<")?.strip_suffix('>')?;
    // Dims are `NUMx` or `?x` prefixes; the rest is the element type (which
    // itself may contain `x` only inside `complex<...>`).
    let mut dims = Vec::new();
    let mut rest = inner;
    while let Some(end) = rest.find('x') {
        let head = &rest[..end];
        if head == "?" {
            dims.push(Dim::Unbounded);
        } else if let Ok(n) = head.parse::<i64>() {
            dims.push(Dim::Static(n));
        } else {
            break;
        }
        rest = &rest[end + 1..];
    }
    let element = primitive_type(rest)?;
    Some(Shape::Array { element, dims, layout: None })
}

/// Splits at commas not nested in `<>`, `()`, `[]`, `{}`.
pub fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut in_string = false;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if in_string {
            if c == b'\\' {
                i += 1;
            } else if c == b'"' {
                in_string = false;
            }
        } else {
            match c {
                b'"' => in_string = true,
                b'<' | b'(' | b'[' | b'{' => depth += 1,
                b'>' | b')' | b']' | b'}' => depth -= 1,
                b',' if depth == 0 => {
                    parts.push(&text[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        i += 1;
    }
    parts.push(&text[start..]);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_map_to_types_and_back() {
        let shape = Shape::Tuple(vec![
            Shape::Array { element: PrimitiveType::F32, dims: vec![Dim::Static(2), Dim::Static(3)], layout: None },
            Shape::Array { element: PrimitiveType::C64, dims: vec![], layout: None },
            Shape::Token,
            Shape::Array { element: PrimitiveType::U8, dims: vec![Dim::Unbounded], layout: None },
        ]);
        let text = mlir_type(&shape).unwrap();
        assert_eq!(text, "tuple<tensor<2x3xf32>, tensor<complex<f32>>, !hlo.token, tensor<?xui8>>");
        assert_eq!(parse_mlir_type(&text), Some(shape));
    }

    #[test]
    fn every_supported_element_type_round_trips() {
        for t in PrimitiveType::ALL {
            if let Some(mlir) = element_type(t) {
                assert_eq!(primitive_type(mlir), Some(t), "{mlir}");
            }
        }
    }

    #[test]
    fn default_layouts_are_recognized() {
        assert!(is_default_layout(&default_layout(3), 3));
        let transposed = Layout { minor_to_major: vec![0, 1], ..Layout::default() };
        assert!(!is_default_layout(&transposed, 2));
        assert_eq!(layout_attr(&transposed), "#hlo.layout<minor_to_major = [0, 1]>");
    }
}
