//! HLO shapes as Rust values: what a pass reads off an SSA value's type and
//! hands to the builder.
//!
//! An `hlo` value is a ranked tensor (an XLA array shape), a tuple or a
//! token. Element types keep their MLIR spelling (`f32`, `i1` for `pred`,
//! `ui8`, `bf16`, `f8E4M3FN`, `complex<f32>`), so building a type back is
//! printing it.

use mlir_sys::*;
use std::fmt;

/// MLIR's float types an HLO array may hold: the C API's test for each,
/// and its spelling.
const FLOATS: [(unsafe extern "C" fn(MlirType) -> bool, &str); 15] = [
    (mlirTypeIsAF32, "f32"),
    (mlirTypeIsABF16, "bf16"),
    (mlirTypeIsAF16, "f16"),
    (mlirTypeIsAF64, "f64"),
    (mlirTypeIsAFloat8E4M3FN, "f8E4M3FN"),
    (mlirTypeIsAFloat8E5M2, "f8E5M2"),
    (mlirTypeIsAFloat8E4M3FNUZ, "f8E4M3FNUZ"),
    (mlirTypeIsAFloat8E5M2FNUZ, "f8E5M2FNUZ"),
    (mlirTypeIsAFloat8E4M3B11FNUZ, "f8E4M3B11FNUZ"),
    (mlirTypeIsAFloat8E4M3, "f8E4M3"),
    (mlirTypeIsAFloat8E3M4, "f8E3M4"),
    (mlirTypeIsAFloat8E8M0FNU, "f8E8M0FNU"),
    (mlirTypeIsAFloat6E2M3FN, "f6E2M3FN"),
    (mlirTypeIsAFloat6E3M2FN, "f6E3M2FN"),
    (mlirTypeIsAFloat4E2M1FN, "f4E2M1FN"),
];

/// The element type of an array, by its MLIR spelling.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ElementType(pub String);

impl ElementType {
    pub fn new(text: &str) -> Self {
        Self(text.to_string())
    }

    /// The spelling of an MLIR element type, read through the C API
    /// (`None` for types an HLO array does not have).
    pub fn from_mlir(ty: MlirType) -> Option<Self> {
        // SAFETY: a live type; only queried.
        unsafe {
            if mlirTypeIsAInteger(ty) {
                let width = mlirIntegerTypeGetWidth(ty);
                let prefix = if mlirIntegerTypeIsUnsigned(ty) {
                    "ui"
                } else if mlirIntegerTypeIsSigned(ty) {
                    "si"
                } else {
                    "i"
                };
                return Some(Self(format!("{prefix}{width}")));
            }
            if mlirTypeIsAComplex(ty) {
                let part = Self::from_mlir(mlirComplexTypeGetElementType(ty))?;
                return Some(Self(format!("complex<{part}>")));
            }
            let name = FLOATS.iter().find(|(is, _)| is(ty)).map(|(_, name)| *name)?;
            Some(Self(name.to_string()))
        }
    }

    /// True if [`ElementType::from_mlir`] reads `ty`, without building
    /// its spelling (hot in pass loops).
    pub fn recognizes(ty: MlirType) -> bool {
        // SAFETY: a live type; only queried.
        unsafe {
            if mlirTypeIsAInteger(ty) {
                return true;
            }
            if mlirTypeIsAComplex(ty) {
                return Self::recognizes(mlirComplexTypeGetElementType(ty));
            }
            FLOATS.iter().any(|(is, _)| is(ty))
        }
    }

    /// `pred` (`i1`).
    pub fn is_pred(&self) -> bool {
        self.0 == "i1"
    }

    /// Real floating point (f16, bf16, f32, f64, f8/f6/f4 variants).
    pub fn is_float(&self) -> bool {
        self.0.starts_with('f') || self.0 == "bf16"
    }

    /// Complex (c64, c128).
    pub fn is_complex(&self) -> bool {
        self.0.starts_with("complex<")
    }

    /// Signed integer (s2..s64), not pred.
    pub fn is_signed_int(&self) -> bool {
        self.0.starts_with('i') && !self.is_pred()
    }

    /// Unsigned integer (u2..u64).
    pub fn is_unsigned_int(&self) -> bool {
        self.0.starts_with("ui")
    }

    /// Signed or unsigned integer, not pred.
    pub fn is_integer(&self) -> bool {
        self.is_signed_int() || self.is_unsigned_int()
    }

    /// Storage width in bits (the component width times two for complex).
    pub fn bit_width(&self) -> u32 {
        let t = self.0.as_str();
        match t {
            "bf16" => 16,
            "f16" => 16,
            "f32" => 32,
            "f64" => 64,
            "complex<f32>" => 64,
            "complex<f64>" => 128,
            _ if t.starts_with("ui") => t[2..].parse().unwrap_or(0),
            _ if t.starts_with('i') => t[1..].parse().unwrap_or(0),
            _ if t.starts_with("f8") => 8,
            _ if t.starts_with("f6") => 6,
            _ if t.starts_with("f4") => 4,
            _ => 0,
        }
    }

    /// Bytes per element as XLA stores them (sub-byte types take a byte).
    pub fn byte_size(&self) -> u64 {
        (self.bit_width() as u64).div_ceil(8).max(1)
    }
}

impl fmt::Display for ElementType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The element type (or `index`) an MLIR spelling names, built with the C
/// API's constructors: `index`, `iN`, `uiN`, `siN`, the float types,
/// `complex<...>`. `None` for anything else.
pub fn element_type_from_spelling(context: MlirContext, spelling: &str) -> Option<MlirType> {
    let s = spelling.trim();
    // SAFETY: constructors of uniqued types in a live context.
    unsafe {
        if s == "index" {
            return Some(mlirIndexTypeGet(context));
        }
        if let Some(inner) = s.strip_prefix("complex<").and_then(|r| r.strip_suffix('>')) {
            return Some(mlirComplexTypeGet(element_type_from_spelling(context, inner)?));
        }
        let width = |w: &str| w.parse::<u32>().ok().filter(|&w| w > 0);
        if let Some(w) = s.strip_prefix("ui").and_then(width) {
            return Some(mlirIntegerTypeUnsignedGet(context, w));
        }
        if let Some(w) = s.strip_prefix("si").and_then(width) {
            return Some(mlirIntegerTypeSignedGet(context, w));
        }
        if let Some(w) = s.strip_prefix('i').and_then(width) {
            return Some(mlirIntegerTypeGet(context, w));
        }
        let float: unsafe extern "C" fn(MlirContext) -> MlirType = match s {
            "f16" => mlirF16TypeGet,
            "bf16" => mlirBF16TypeGet,
            "f32" => mlirF32TypeGet,
            "f64" => mlirF64TypeGet,
            "f8E4M3FN" => mlirFloat8E4M3FNTypeGet,
            "f8E5M2" => mlirFloat8E5M2TypeGet,
            "f8E4M3FNUZ" => mlirFloat8E4M3FNUZTypeGet,
            "f8E5M2FNUZ" => mlirFloat8E5M2FNUZTypeGet,
            "f8E4M3B11FNUZ" => mlirFloat8E4M3B11FNUZTypeGet,
            "f8E4M3" => mlirFloat8E4M3TypeGet,
            "f8E3M4" => mlirFloat8E3M4TypeGet,
            "f8E8M0FNU" => mlirFloat8E8M0FNUTypeGet,
            "f6E2M3FN" => mlirFloat6E2M3FNTypeGet,
            "f6E3M2FN" => mlirFloat6E3M2FNTypeGet,
            "f4E2M1FN" => mlirFloat4E2M1FNTypeGet,
            _ => return None,
        };
        Some(float(context))
    }
}

/// An array shape: dimensions and element type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TensorType {
    pub dims: Vec<i64>,
    pub elem: ElementType,
}

impl TensorType {
    pub fn new(dims: &[i64], elem: &ElementType) -> Self {
        Self { dims: dims.to_vec(), elem: elem.clone() }
    }

    /// A rank-0 array.
    pub fn scalar(elem: &ElementType) -> Self {
        Self { dims: Vec::new(), elem: elem.clone() }
    }

    pub fn rank(&self) -> usize {
        self.dims.len()
    }

    /// Number of elements.
    pub fn num_elements(&self) -> i64 {
        self.dims.iter().product()
    }

    /// Size in bytes (XLA's ShapeUtil::ByteSizeOf for dense arrays).
    pub fn byte_size(&self) -> u64 {
        self.num_elements() as u64 * self.elem.byte_size()
    }

    /// The MLIR tensor type (see [`HloType::to_mlir`]).
    pub fn to_mlir(&self, context: MlirContext) -> Option<MlirType> {
        let elem = element_type_from_spelling(context, &self.elem.0)?;
        // SAFETY: a constructor of uniqued types in a live context.
        Some(unsafe {
            mlirRankedTensorTypeGet(self.dims.len() as isize, self.dims.as_ptr(), elem, mlirAttributeGetNull())
        })
    }

    /// The same dims with another element type.
    pub fn with_elem(&self, elem: &ElementType) -> Self {
        Self { dims: self.dims.clone(), elem: elem.clone() }
    }

    /// The same element type with other dims.
    pub fn with_dims(&self, dims: &[i64]) -> Self {
        Self { dims: dims.to_vec(), elem: self.elem.clone() }
    }
}

impl fmt::Display for TensorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("tensor<")?;
        for d in &self.dims {
            write!(f, "{d}x")?;
        }
        write!(f, "{}>", self.elem)
    }
}

/// The type of an `hlo` value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HloType {
    Tensor(TensorType),
    Tuple(Vec<HloType>),
    Token,
    /// Anything else (not produced by the importer; passes leave it alone).
    Other(String),
}

impl HloType {
    /// Reads an MLIR type: arrays and tuples through the C API, anything
    /// else (tokens, encodings, dynamic dimensions) from its printed form.
    pub fn from_mlir(ty: MlirType) -> Self {
        // SAFETY: a live type; only queried.
        unsafe {
            if mlirTypeIsARankedTensor(ty) && mlirRankedTensorTypeGetEncoding(ty).ptr.is_null() {
                let rank = mlirShapedTypeGetRank(ty);
                let dims: Vec<i64> = (0..rank).map(|i| mlirShapedTypeGetDimSize(ty, i as isize)).collect();
                if !dims.iter().any(|&d| mlirShapedTypeIsDynamicSize(d)) {
                    if let Some(elem) = ElementType::from_mlir(mlirShapedTypeGetElementType(ty)) {
                        return HloType::Tensor(TensorType { dims, elem });
                    }
                }
            } else if mlirTypeIsATuple(ty) {
                let n = mlirTupleTypeGetNumTypes(ty);
                return HloType::Tuple((0..n).map(|i| HloType::from_mlir(mlirTupleTypeGetType(ty, i))).collect());
            }
        }
        Self::parse(&crate::op::type_to_string(ty))
    }

    /// True if [`HloType::from_mlir`] makes `ty` a [`HloType::Tensor`] (a
    /// static array), without building it.
    pub fn is_array(ty: MlirType) -> bool {
        // SAFETY: a live type; only queried.
        unsafe {
            if mlirTypeIsARankedTensor(ty)
                && mlirRankedTensorTypeGetEncoding(ty).ptr.is_null()
                && mlirShapedTypeHasStaticShape(ty)
                && ElementType::recognizes(mlirShapedTypeGetElementType(ty))
            {
                return true;
            }
            // The rare rest the way `from_mlir` reads it (through text).
            !mlirTypeIsATuple(ty) && matches!(HloType::from_mlir(ty), HloType::Tensor(_))
        }
    }

    /// The MLIR type, built through the C API (`Other` types other than
    /// `index`, which have no constructor there, through their printed
    /// form). `None` for an element type MLIR does not know.
    pub fn to_mlir(&self, context: MlirContext) -> Option<MlirType> {
        // SAFETY: constructors of uniqued types in a live context.
        unsafe {
            match self {
                HloType::Tensor(t) => t.to_mlir(context),
                HloType::Tuple(items) => {
                    let types: Vec<MlirType> = items.iter().map(|t| t.to_mlir(context)).collect::<Option<_>>()?;
                    Some(mlirTupleTypeGet(context, types.len() as isize, types.as_ptr()))
                }
                HloType::Token => Some(rxla_dialects::ffi::rxlaHloTokenTypeGet(context)),
                HloType::Other(text) if text == "index" => Some(mlirIndexTypeGet(context)),
                HloType::Other(text) => crate::op::parse_type(context, text),
            }
        }
    }

    /// Reads the printed form of a type.
    pub fn parse(text: &str) -> Self {
        let text = text.trim();
        if text == "!hlo.token" {
            return HloType::Token;
        }
        if let Some(inner) = text.strip_prefix("tuple<").and_then(|t| t.strip_suffix('>')) {
            return HloType::Tuple(split_top_level(inner).into_iter().map(HloType::parse).collect());
        }
        if let Some(inner) = text.strip_prefix("tensor<").and_then(|t| t.strip_suffix('>')) {
            // The element type may itself contain 'x' (complex<f32> does not,
            // but split on the dims prefix: digits followed by 'x').
            let mut dims = Vec::new();
            let mut rest = inner;
            loop {
                let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
                if digits > 0 && rest.as_bytes().get(digits) == Some(&b'x') {
                    dims.push(rest[..digits].parse().unwrap_or(0));
                    rest = &rest[digits + 1..];
                } else {
                    break;
                }
            }
            if !rest.contains(',') && !rest.contains('?') {
                return HloType::Tensor(TensorType { dims, elem: ElementType::new(rest) });
            }
        }
        HloType::Other(text.to_string())
    }

    /// The array shape, if this is one, taken out of the type.
    pub fn into_tensor(self) -> Option<TensorType> {
        match self {
            HloType::Tensor(t) => Some(t),
            _ => None,
        }
    }

    /// The array shape, if this is one.
    pub fn tensor(&self) -> Option<&TensorType> {
        match self {
            HloType::Tensor(t) => Some(t),
            _ => None,
        }
    }

    /// Total bytes of all arrays in the (possibly nested) type.
    pub fn byte_size(&self) -> u64 {
        match self {
            HloType::Tensor(t) => t.byte_size(),
            HloType::Tuple(items) => items.iter().map(HloType::byte_size).sum(),
            _ => 0,
        }
    }
}

impl fmt::Display for HloType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HloType::Tensor(t) => t.fmt(f),
            HloType::Tuple(items) => {
                f.write_str("tuple<")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    item.fmt(f)?;
                }
                f.write_str(">")
            }
            HloType::Token => f.write_str("!hlo.token"),
            HloType::Other(text) => f.write_str(text),
        }
    }
}

impl From<TensorType> for HloType {
    fn from(t: TensorType) -> Self {
        HloType::Tensor(t)
    }
}

/// Splits `a, b<c, d>, e` at top-level commas.
pub fn split_top_level(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '<' | '(' | '[' | '{' => depth += 1,
            '>' | ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !text[start..].trim().is_empty() {
        out.push(text[start..].trim());
    }
    out
}

/// Shape rules passes share.
pub mod shape {
    /// The inverse of a permutation.
    pub fn inverse_permutation(perm: &[i64]) -> Vec<i64> {
        let mut inv = vec![0; perm.len()];
        for (i, &p) in perm.iter().enumerate() {
            inv[p as usize] = i as i64;
        }
        inv
    }

    /// `dims` permuted: result[i] = dims[perm[i]] (a transpose's shape).
    pub fn permute(dims: &[i64], perm: &[i64]) -> Vec<i64> {
        perm.iter().map(|&p| dims[p as usize]).collect()
    }

    /// Composition of two transposes: transpose(transpose(x, a), b) is
    /// transpose(x, compose(a, b)).
    pub fn compose_permutations(first: &[i64], second: &[i64]) -> Vec<i64> {
        second.iter().map(|&s| first[s as usize]).collect()
    }

    /// True for 0, 1, ..., n-1.
    pub fn is_identity_permutation(perm: &[i64]) -> bool {
        perm.iter().enumerate().all(|(i, &p)| p == i as i64)
    }

    /// Dims with `removed` positions dropped (a reduce's result dims).
    pub fn remove_dims(dims: &[i64], removed: &[i64]) -> Vec<i64> {
        dims.iter().enumerate().filter(|(i, _)| !removed.contains(&(*i as i64))).map(|(_, &d)| d).collect()
    }

    /// If reshaping `from` to `to` only inserts or deletes size-1 dims,
    /// returns for each dim of `to` the dim of `from` it keeps (None for an
    /// inserted 1).
    pub fn degenerate_reshape_map(from: &[i64], to: &[i64]) -> Option<Vec<Option<usize>>> {
        let mut map = Vec::with_capacity(to.len());
        let mut i = 0;
        for &d in to {
            // Skip deleted size-1 dims of `from` until the next match.
            while i < from.len() && from[i] == 1 && d != 1 {
                i += 1;
            }
            if d == 1 {
                if i < from.len() && from[i] == 1 {
                    map.push(Some(i));
                    i += 1;
                } else {
                    map.push(None);
                }
            } else if i < from.len() && from[i] == d {
                map.push(Some(i));
                i += 1;
            } else {
                return None;
            }
        }
        while i < from.len() {
            if from[i] != 1 {
                return None;
            }
            i += 1;
        }
        Some(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reading a type through the C API gives what reading its printed
    /// form gives, for every kind of HLO value type.
    #[test]
    fn typed_reads_agree_with_printed_forms() {
        let context = rxla_dialects::create_context();
        for text in [
            "tensor<2x3xf32>",
            "tensor<f64>",
            "tensor<0x5xbf16>",
            "tensor<7xi1>",
            "tensor<4xi8>",
            "tensor<4xui16>",
            "tensor<4xi64>",
            "tensor<3xcomplex<f32>>",
            "tensor<3xcomplex<f64>>",
            "tensor<8xf8E4M3FN>",
            "tensor<8xf8E5M2>",
            "tensor<8xf8E4M3FNUZ>",
            "tensor<8xf8E5M2FNUZ>",
            "tensor<8xf8E4M3B11FNUZ>",
            "tensor<8xf8E4M3>",
            "tensor<8xf8E3M4>",
            "tensor<8xf8E8M0FNU>",
            "tensor<8xf6E2M3FN>",
            "tensor<8xf6E3M2FN>",
            "tensor<8xf4E2M1FN>",
            "tensor<8xi4>",
            "tensor<8xui2>",
            "tensor<?x3xf32>",
            "!hlo.token",
            "tuple<tensor<2xf32>, tuple<tensor<i32>, !hlo.token>>",
            "tuple<>",
        ] {
            let ty = crate::op::parse_type(context.to_raw(), text).unwrap_or_else(|| panic!("{text} parses"));
            assert_eq!(HloType::from_mlir(ty), HloType::parse(text), "{text}");
            assert_eq!(HloType::from_mlir(ty).to_string(), text, "{text}");
            if !text.contains('?') {
                let built = HloType::parse(text).to_mlir(context.to_raw()).unwrap_or_else(|| panic!("{text} builds"));
                assert_eq!(built.ptr, ty.ptr, "{text}");
            }
        }
        let index = HloType::Other("index".into()).to_mlir(context.to_raw()).expect("index builds");
        assert_eq!(index.ptr, crate::op::parse_type(context.to_raw(), "index").expect("parses").ptr);
    }

    /// `is_array` answers as `from_mlir(..).tensor()` does, also for the
    /// types `from_mlir` reads through their printed form.
    #[test]
    fn is_array_agrees_with_from_mlir() {
        let context = rxla_dialects::create_context();
        let mut arrays = 0;
        for text in [
            "tensor<2x3xf32>",
            "tensor<f64>",
            "tensor<0x5xbf16>",
            "tensor<7xi1>",
            "tensor<4xui16>",
            "tensor<3xcomplex<f32>>",
            "tensor<8xf8E4M3FN>",
            "tensor<8xf4E2M1FN>",
            "tensor<8xi4>",
            "tensor<4xindex>",
            "tensor<?x3xf32>",
            "tensor<*xf32>",
            "!hlo.token",
            "tuple<tensor<2xf32>>",
            "tuple<>",
            "f32",
            "index",
        ] {
            let ty = crate::op::parse_type(context.to_raw(), text).unwrap_or_else(|| panic!("{text} parses"));
            let expected = HloType::from_mlir(ty).tensor().is_some();
            assert_eq!(HloType::is_array(ty), expected, "{text}");
            arrays += expected as usize;
        }
        assert!(arrays >= 9, "{arrays}");
    }
}
