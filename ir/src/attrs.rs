//! Typed views of the `hlo` dialect's attributes.
//!
//! Enum attributes (`#hlo<comparison_direction LT>`) and the integer struct
//! attributes (`#hlo.dot<lhs_batch_dims = [0], ...>`, gather, scatter,
//! conv, window, layout) are read and built through the dialect's C API
//! (`rxlaHloEnumAttr*`, `rxlaHloStructAttr*`), without printing or parsing.
//! Struct attributes are seen as named fields ([`StructAttr`]), in the
//! names and order their printed form has; the text form stays for the
//! rest (layouts with tiles, sharding) and for messages.

use crate::{op::Op, types::split_top_level};
use mlir_sys::{MlirAttribute, MlirContext, MlirStringRef};
use rxla_dialects::ffi;

/// One field of a struct attribute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Field {
    /// `[1, 2]`
    List(Vec<i64>),
    /// Anything else, kept verbatim (`0`, a nested attribute, ...).
    Raw(String),
}

/// A struct attribute (`#hlo.<mnemonic><field = value, ...>`) as fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructAttr {
    pub mnemonic: String,
    pub fields: Vec<(String, Field)>,
}

impl StructAttr {
    /// An attribute with no fields set.
    pub fn new(mnemonic: &str) -> Self {
        Self { mnemonic: mnemonic.to_string(), fields: Vec::new() }
    }

    /// Parses `#hlo.<mnemonic><...>`.
    pub fn parse(text: &str) -> Option<Self> {
        let rest = text.trim().strip_prefix("#hlo.")?;
        let open = rest.find('<')?;
        let mnemonic = rest[..open].to_string();
        let inner = rest[open + 1..].strip_suffix('>')?;
        let mut fields = Vec::new();
        for item in split_top_level(inner) {
            let (name, value) = item.split_once('=')?;
            let value = value.trim();
            let field = match value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
                Some(list) if !list.contains('[') => Field::List(
                    list.split(',')
                        .filter(|s| !s.trim().is_empty())
                        .map(|s| s.trim().parse().ok())
                        .collect::<Option<_>>()?,
                ),
                _ => Field::Raw(value.to_string()),
            };
            fields.push((name.trim().to_string(), field));
        }
        Some(Self { mnemonic, fields })
    }

    /// Reads attribute `name` of `op`.
    pub fn of(op: Op, name: &str) -> Option<Self> {
        Self::from_attr(op.attr_raw(name)?)
    }

    /// Reads a struct attribute: through the C API where the dialect
    /// reports its fields, else from its text.
    pub fn from_attr(attr: MlirAttribute) -> Option<Self> {
        Self::from_api(attr).or_else(|| Self::parse(&crate::op::attr_to_string(attr)))
    }

    /// Reads a struct attribute through the C API; `None` where the
    /// dialect does not report its fields (layouts with tiles, attributes
    /// of other kinds).
    pub fn from_api(attr: MlirAttribute) -> Option<Self> {
        unsafe extern "C" fn field(
            name: MlirStringRef,
            values: *const i64,
            count: isize,
            is_list: bool,
            data: *mut std::ffi::c_void,
        ) {
            // SAFETY: `data` is the `fields` vector below; `values` holds
            // `count` integers for the duration of the call (an empty
            // list's pointer may be null, which a slice may not be). This
            // runs inside a C call: it must not panic.
            let fields = unsafe { &mut *(data as *mut Vec<(String, Field)>) };
            let values: &[i64] = if count <= 0 || values.is_null() {
                &[]
            } else {
                unsafe { std::slice::from_raw_parts(values, count as usize) }
            };
            let name = crate::op::string(name);
            let value = match (is_list, values.first()) {
                (true, _) => Field::List(values.to_vec()),
                (false, Some(v)) => Field::Raw(v.to_string()),
                (false, None) => return,
            };
            fields.push((name, value));
        }
        let mut fields: Vec<(String, Field)> = Vec::new();
        // SAFETY: a live attribute; the callback only runs during the call.
        let mnemonic =
            unsafe { ffi::rxlaHloStructAttrGetFields(attr, field, &mut fields as *mut _ as *mut std::ffi::c_void) };
        if mnemonic.data.is_null() {
            return None;
        }
        Some(Self { mnemonic: crate::op::string(mnemonic), fields })
    }

    /// The attribute, built through the C API where the dialect can (`dot`,
    /// `gather`, `scatter`, `window`, `layout` with integer fields), else parsed
    /// from [`StructAttr::to_text`]; `None` if it does not verify.
    pub fn to_attr(&self, context: MlirContext) -> Option<MlirAttribute> {
        let ints: Option<Vec<(Vec<i64>, bool)>> = self
            .fields
            .iter()
            .map(|(_, f)| match f {
                Field::List(v) => Some((v.clone(), true)),
                Field::Raw(r) => r.trim().parse::<i64>().ok().map(|i| (vec![i], false)),
            })
            .collect();
        if let Some(ints) = ints {
            let names: Vec<MlirStringRef> = self.fields.iter().map(|(n, _)| crate::op::string_ref(n)).collect();
            let values: Vec<*const i64> = ints.iter().map(|(v, _)| v.as_ptr()).collect();
            let sizes: Vec<isize> = ints.iter().map(|(v, _)| v.len() as isize).collect();
            let is_list: Vec<bool> = ints.iter().map(|(_, l)| *l).collect();
            // SAFETY: every array has `fields.len()` entries, alive for the call.
            let attr = unsafe {
                ffi::rxlaHloStructAttrGet(
                    context,
                    crate::op::string_ref(&self.mnemonic),
                    names.len() as isize,
                    names.as_ptr(),
                    values.as_ptr(),
                    sizes.as_ptr(),
                    is_list.as_ptr(),
                )
            };
            if !attr.ptr.is_null() {
                return Some(attr);
            }
            if matches!(self.mnemonic.as_str(), "dot" | "gather" | "scatter" | "window" | "layout") {
                // The dialect knows these: a null is a bad attribute.
                return None;
            }
        }
        crate::op::parse_attr(context, &self.to_text())
    }

    /// A list field; absent fields are empty lists.
    pub fn list(&self, name: &str) -> Vec<i64> {
        match self.fields.iter().find(|(n, _)| n == name) {
            Some((_, Field::List(v))) => v.clone(),
            _ => Vec::new(),
        }
    }

    /// A raw field's text.
    pub fn raw(&self, name: &str) -> Option<&str> {
        match self.fields.iter().find(|(n, _)| n == name) {
            Some((_, Field::Raw(v))) => Some(v),
            _ => None,
        }
    }

    /// Sets a list field (kept in place if present, appended otherwise).
    pub fn set_list(&mut self, name: &str, value: Vec<i64>) {
        self.set(name, Field::List(value));
    }

    /// Sets a field.
    pub fn set(&mut self, name: &str, value: Field) {
        match self.fields.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value,
            None => self.fields.push((name.to_string(), value)),
        }
    }

    /// The MLIR text; empty lists are omitted as the dialect prints them.
    pub fn to_text(&self) -> String {
        let items: Vec<String> = self
            .fields
            .iter()
            .filter_map(|(name, value)| match value {
                Field::List(v) if v.is_empty() => None,
                Field::List(v) => Some(format!("{name} = {}", list_text(v))),
                Field::Raw(r) => Some(format!("{name} = {r}")),
            })
            .collect();
        format!("#hlo.{}<{}>", self.mnemonic, items.join(", "))
    }
}

/// `[1, 2]`.
fn list_text(v: &[i64]) -> String {
    format!("[{}]", v.iter().map(i64::to_string).collect::<Vec<_>>().join(", "))
}

/// `array<i64: 1, 2>` (a `DenseI64ArrayAttr`).
pub fn dims_text(v: &[i64]) -> String {
    if v.is_empty() {
        "array<i64>".to_string()
    } else {
        format!("array<i64: {}>", v.iter().map(i64::to_string).collect::<Vec<_>>().join(", "))
    }
}

/// `array<i64: ...>` (a `DenseI64ArrayAttr`).
pub fn dims(context: MlirContext, dims: &[i64]) -> MlirAttribute {
    // SAFETY: `dims` lives for the call.
    unsafe { mlir_sys::mlirDenseI64ArrayGet(context, dims.len() as isize, dims.as_ptr()) }
}

/// An `i64` integer attribute.
pub fn integer(context: MlirContext, value: i64) -> MlirAttribute {
    unsafe { mlir_sys::mlirIntegerAttrGet(mlir_sys::mlirIntegerTypeGet(context, 64), value) }
}

/// `true` or `false`.
pub fn boolean(context: MlirContext, value: bool) -> MlirAttribute {
    unsafe { mlir_sys::mlirBoolAttrGet(context, value as i32) }
}

/// A string attribute (`"..."`).
pub fn string(context: MlirContext, value: &str) -> MlirAttribute {
    unsafe { mlir_sys::mlirStringAttrGet(context, crate::op::string_ref(value)) }
}

/// `@name`.
pub fn symbol_ref(context: MlirContext, name: &str) -> MlirAttribute {
    unsafe { mlir_sys::mlirFlatSymbolRefAttrGet(context, crate::op::string_ref(name)) }
}

/// `[a, b, ...]`.
pub fn array(context: MlirContext, elements: &[MlirAttribute]) -> MlirAttribute {
    unsafe { mlir_sys::mlirArrayAttrGet(context, elements.len() as isize, elements.as_ptr()) }
}

/// A `function_type` attribute: `(params) -> (results)`.
pub fn function_type(
    context: MlirContext,
    params: &[mlir_sys::MlirType],
    results: &[mlir_sys::MlirType],
) -> MlirAttribute {
    // SAFETY: live context; MLIR copies the type lists.
    unsafe {
        mlir_sys::mlirTypeAttrGet(mlir_sys::mlirFunctionTypeGet(
            context,
            params.len() as isize,
            params.as_ptr(),
            results.len() as isize,
            results.as_ptr(),
        ))
    }
}

/// A dense elements attribute of the shaped type `ty` from its elements'
/// little-endian bytes, each element as wide as MLIR stores it (a byte for
/// sub-byte types other than `i1`, which [`dense_bools`] makes); one
/// element makes a splat. `None` if the size does not fit the type.
pub fn dense_raw(ty: mlir_sys::MlirType, bytes: &[u8]) -> Option<MlirAttribute> {
    // SAFETY: MLIR copies the buffer, which lives for the call.
    let attr = unsafe { mlir_sys::mlirDenseElementsAttrRawBufferGet(ty, bytes.len(), bytes.as_ptr().cast()) };
    (!attr.ptr.is_null()).then_some(attr)
}

/// The elements of the dense elements attribute `attr` as its storage
/// holds them, the inverse of [`dense_raw`]: `n` elements, row-major,
/// little-endian, `element_bytes` wide each (a splat repeated); `i1`
/// elements, which MLIR stores as bits, one byte each (0 or 1). `None` if
/// `attr` is not a dense elements attribute of `n` elements.
pub fn dense_bytes(attr: MlirAttribute, n: usize, element_bytes: usize) -> Option<Vec<u8>> {
    use mlir_sys::*;
    // SAFETY: a live attribute; reads stay within its `n` elements of
    // `element_bytes` (one element for a splat).
    unsafe {
        if !mlirAttributeIsADenseElements(attr) || mlirElementsAttrGetNumElements(attr) != n as i64 {
            return None;
        }
        let splat = mlirDenseElementsAttrIsSplat(attr);
        let element = mlirShapedTypeGetElementType(mlirAttributeGetType(attr));
        if mlirTypeIsAInteger(element) && mlirIntegerTypeGetWidth(element) == 1 {
            return Some(
                (0..n)
                    .map(|i| mlirDenseElementsAttrGetBoolValue(attr, if splat { 0 } else { i as isize }) as u8)
                    .collect(),
            );
        }
        if n == 0 {
            return Some(Vec::new());
        }
        let raw = mlirDenseElementsAttrGetRawData(attr) as *const u8;
        if raw.is_null() {
            return None;
        }
        let data = std::slice::from_raw_parts(raw, if splat { element_bytes } else { element_bytes * n });
        Some(if splat { data.repeat(n) } else { data.to_vec() })
    }
}

/// A dense `i1` elements attribute of the shaped type `ty`; one value
/// makes a splat.
pub fn dense_bools(ty: mlir_sys::MlirType, values: &[bool]) -> MlirAttribute {
    // SAFETY: `values` lives for the call; MLIR copies them.
    unsafe {
        if let [value] = values {
            return mlir_sys::mlirDenseElementsAttrBoolSplatGet(ty, *value);
        }
        let ints: Vec<std::os::raw::c_int> = values.iter().map(|&b| b as std::os::raw::c_int).collect();
        mlir_sys::mlirDenseElementsAttrBoolGet(ty, ints.len() as isize, ints.as_ptr())
    }
}

/// A dense elements attribute of the shaped type `ty` with every element
/// `element` (an attribute of its element type).
pub fn dense_splat(ty: mlir_sys::MlirType, element: MlirAttribute) -> MlirAttribute {
    // SAFETY: uniqued attributes of one live context.
    unsafe { mlir_sys::mlirDenseElementsAttrSplatGet(ty, element) }
}

/// `{name = value, ...}`.
pub fn dictionary(context: MlirContext, entries: &[(&str, MlirAttribute)]) -> MlirAttribute {
    let named: Vec<mlir_sys::MlirNamedAttribute> = entries
        .iter()
        .map(|(name, attr)| unsafe {
            mlir_sys::mlirNamedAttributeGet(mlir_sys::mlirIdentifierGet(context, crate::op::string_ref(name)), *attr)
        })
        .collect();
    // SAFETY: `named` lives for the call.
    unsafe { mlir_sys::mlirDictionaryAttrGet(context, named.len() as isize, named.as_ptr()) }
}

/// The elements of an array attribute; `None` for any other attribute.
pub fn array_elements(attr: MlirAttribute) -> Option<Vec<MlirAttribute>> {
    // SAFETY: a live attribute.
    unsafe {
        if !mlir_sys::mlirAttributeIsAArray(attr) {
            return None;
        }
        Some(
            (0..mlir_sys::mlirArrayAttrGetNumElements(attr))
                .map(|i| mlir_sys::mlirArrayAttrGetElement(attr, i))
                .collect(),
        )
    }
}

/// The case of an enum attribute (`LT` of `#hlo<comparison_direction LT>`).
pub fn enum_case(op: Op, name: &str) -> Option<String> {
    enum_attr_case(op.attr_raw(name)?).map(str::to_string)
}

/// The case of an `hlo` enum attribute; `None` for any other attribute.
pub fn enum_attr_case(attr: MlirAttribute) -> Option<&'static str> {
    // SAFETY: a live attribute; the case names are static strings.
    let case = unsafe { ffi::rxlaHloEnumAttrGetCase(attr) };
    if case.data.is_null() {
        return None;
    }
    // SAFETY: the dialect's stringified case names: static ASCII strings.
    std::str::from_utf8(unsafe { std::slice::from_raw_parts(case.data as *const u8, case.length) }).ok()
}

/// The `hlo` enum attribute of `kind` (`comparison_direction`) and `case`
/// (`LT`); `None` if either is unknown.
pub fn enum_attr(context: MlirContext, kind: &str, case: &str) -> Option<MlirAttribute> {
    // SAFETY: the strings live for the call.
    let attr = unsafe { ffi::rxlaHloEnumAttrGet(context, crate::op::string_ref(kind), crate::op::string_ref(case)) };
    (!attr.ptr.is_null()).then_some(attr)
}

/// `#hlo.groups<[[0, 1], [2, 3]]>`: replica groups or source-target pairs.
pub fn index_groups(context: MlirContext, groups: &[Vec<i64>]) -> MlirAttribute {
    let pointers: Vec<*const i64> = groups.iter().map(|g| g.as_ptr()).collect();
    let sizes: Vec<isize> = groups.iter().map(|g| g.len() as isize).collect();
    // SAFETY: the groups and both lists live for the call; MLIR copies them.
    unsafe { ffi::rxlaHloIndexGroupsAttrGet(context, groups.len() as isize, pointers.as_ptr(), sizes.as_ptr()) }
}

/// `#xla.indexing_map<"...">` of a map in XLA's text form (the
/// attribute's own parameter); `None` if the map is not well-formed.
pub fn indexing_map(context: MlirContext, map: &str) -> Option<MlirAttribute> {
    // SAFETY: the string lives for the call.
    let attr = unsafe { ffi::rxlaIndexingMapAttrGet(context, crate::op::string_ref(map)) };
    (!attr.ptr.is_null()).then_some(attr)
}

/// An `index`-typed integer attribute.
pub fn index(context: MlirContext, value: i64) -> MlirAttribute {
    // SAFETY: uniqued type and attribute of a live context.
    unsafe { mlir_sys::mlirIntegerAttrGet(mlir_sys::mlirIndexTypeGet(context), value) }
}

/// `array<i32: ...>` (a `DenseI32ArrayAttr`, e.g. `operandSegmentSizes`).
pub fn i32_array(context: MlirContext, values: &[i32]) -> MlirAttribute {
    // SAFETY: `values` lives for the call.
    unsafe { mlir_sys::mlirDenseI32ArrayGet(context, values.len() as isize, values.as_ptr()) }
}

/// A dot's dimension numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DotDims {
    pub lhs_batch: Vec<i64>,
    pub rhs_batch: Vec<i64>,
    pub lhs_contracting: Vec<i64>,
    pub rhs_contracting: Vec<i64>,
}

impl DotDims {
    /// The `dot_dimension_numbers` of a dot.
    pub fn of(op: Op) -> Option<Self> {
        let s = StructAttr::of(op, "dot_dimension_numbers")?;
        Some(Self {
            lhs_batch: s.list("lhs_batch_dims"),
            rhs_batch: s.list("rhs_batch_dims"),
            lhs_contracting: s.list("lhs_contracting_dims"),
            rhs_contracting: s.list("rhs_contracting_dims"),
        })
    }

    /// The attribute's fields.
    pub fn to_struct(&self) -> StructAttr {
        let mut s = StructAttr::new("dot");
        s.set_list("lhs_batch_dims", self.lhs_batch.clone());
        s.set_list("rhs_batch_dims", self.rhs_batch.clone());
        s.set_list("lhs_contracting_dims", self.lhs_contracting.clone());
        s.set_list("rhs_contracting_dims", self.rhs_contracting.clone());
        s
    }

    /// The attribute's MLIR text.
    pub fn to_text(&self) -> String {
        self.to_struct().to_text()
    }

    /// The attribute, built through the C API; `None` if it does not verify.
    pub fn to_attr(&self, context: MlirContext) -> Option<MlirAttribute> {
        self.to_struct().to_attr(context)
    }

    /// Non-batch, non-contracting dims of an operand of rank `rank`.
    pub fn free_dims(rank: usize, batch: &[i64], contracting: &[i64]) -> Vec<i64> {
        (0..rank as i64).filter(|d| !batch.contains(d) && !contracting.contains(d)).collect()
    }

    /// The result dims of a dot: batch, lhs free, rhs free.
    pub fn result_dims(&self, lhs: &[i64], rhs: &[i64]) -> Vec<i64> {
        let mut out: Vec<i64> = self.lhs_batch.iter().map(|&d| lhs[d as usize]).collect();
        out.extend(Self::free_dims(lhs.len(), &self.lhs_batch, &self.lhs_contracting).iter().map(|&d| lhs[d as usize]));
        out.extend(Self::free_dims(rhs.len(), &self.rhs_batch, &self.rhs_contracting).iter().map(|&d| rhs[d as usize]));
        out
    }
}

/// One dimension of a window (reduce-window, select-and-scatter, conv).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowDim {
    pub size: i64,
    pub stride: i64,
    pub pad_low: i64,
    pub pad_high: i64,
    pub lhs_dilation: i64,
    pub rhs_dilation: i64,
    pub reversal: bool,
}

impl WindowDim {
    /// Size 1, stride 1, no padding or dilation: a dimension the window
    /// leaves alone.
    pub fn trivial() -> Self {
        WindowDim { size: 1, stride: 1, pad_low: 0, pad_high: 0, lhs_dilation: 1, rhs_dilation: 1, reversal: false }
    }
}

/// A window attribute, one entry per dimension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window(pub Vec<WindowDim>);

impl Window {
    /// The `window` attribute of `op`.
    pub fn of(op: Op) -> Option<Self> {
        let s = StructAttr::of(op, "window")?;
        let size = s.list("size");
        let get = |name: &str, default: i64| {
            let v = s.list(name);
            move |i: usize| v.get(i).copied().unwrap_or(default)
        };
        let (stride, lo, hi, ld, rd, rev) = (
            get("stride", 1),
            get("pad_low", 0),
            get("pad_high", 0),
            get("lhs_dilation", 1),
            get("rhs_dilation", 1),
            get("reversal", 0),
        );
        Some(Window(
            (0..size.len())
                .map(|i| WindowDim {
                    size: size[i],
                    stride: stride(i),
                    pad_low: lo(i),
                    pad_high: hi(i),
                    lhs_dilation: ld(i),
                    rhs_dilation: rd(i),
                    reversal: rev(i) != 0,
                })
                .collect(),
        ))
    }

    /// The attribute's fields; those equal to their defaults everywhere
    /// are empty (omitted from the text).
    pub fn to_struct(&self) -> StructAttr {
        let mut s = StructAttr::new("window");
        let field = |f: fn(&WindowDim) -> i64, default: i64| -> Vec<i64> {
            let v: Vec<i64> = self.0.iter().map(f).collect();
            if v.iter().all(|&x| x == default) {
                Vec::new()
            } else {
                v
            }
        };
        s.set_list("size", self.0.iter().map(|d| d.size).collect());
        s.set_list("stride", field(|d| d.stride, 1));
        s.set_list("pad_low", field(|d| d.pad_low, 0));
        s.set_list("pad_high", field(|d| d.pad_high, 0));
        s.set_list("lhs_dilation", field(|d| d.lhs_dilation, 1));
        s.set_list("rhs_dilation", field(|d| d.rhs_dilation, 1));
        s.set_list("reversal", field(|d| d.reversal as i64, 0));
        s
    }

    /// The attribute's MLIR text.
    pub fn to_text(&self) -> String {
        self.to_struct().to_text()
    }

    /// The attribute, built through the C API; `None` if it does not verify.
    pub fn to_attr(&self, context: MlirContext) -> Option<MlirAttribute> {
        self.to_struct().to_attr(context)
    }

    /// The output size of each dimension for an input of `dims`.
    pub fn output_dims(&self, dims: &[i64]) -> Vec<i64> {
        self.0
            .iter()
            .zip(dims)
            .map(|(w, &d)| {
                let dilated = if d == 0 { 0 } else { (d - 1) * w.lhs_dilation + 1 };
                let padded = dilated + w.pad_low + w.pad_high;
                let window = if w.size == 0 { 0 } else { (w.size - 1) * w.rhs_dilation + 1 };
                if padded < window {
                    0
                } else {
                    (padded - window) / w.stride + 1
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::op::{attr_to_string, parse_attr};

    fn attr(context: &melior::Context, text: &str) -> MlirAttribute {
        parse_attr(context.to_raw(), text).unwrap_or_else(|| panic!("parses: {text}"))
    }

    /// Struct attributes read through the C API give the fields their text
    /// gives (empty lists aside), and rebuilding them gives the same
    /// (uniqued) attribute.
    #[test]
    fn struct_attributes_round_trip_through_the_c_api() {
        let context = rxla_dialects::create_context();
        for text in [
            "#hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>",
            "#hlo.dot<>",
            "#hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>",
            "#hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>",
            "#hlo.window<size = [2, 2], stride = [2, 1], pad_low = [0, 1], pad_high = [1, 0]>",
            "#hlo.layout<minor_to_major = [0, 1]>",
            "#hlo.layout<minor_to_major = [1, 0], memory_space = 1>",
        ] {
            let a = attr(&context, text);
            let from_api = StructAttr::from_api(a).unwrap_or_else(|| panic!("fields of {text}"));
            let mut from_text = StructAttr::parse(&attr_to_string(a)).expect("parses");
            for (name, field) in &from_api.fields {
                if !matches!(field, Field::List(v) if v.is_empty()) {
                    assert_eq!(from_text.fields.iter().find(|(n, _)| n == name).map(|(_, f)| f), Some(field), "{text}");
                }
            }
            from_text.fields.retain(|(n, _)| from_api.fields.iter().any(|(m, _)| m == n));
            assert_eq!(from_api.to_text(), from_text.to_text(), "{text}");
            let rebuilt = from_api.to_attr(context.to_raw()).unwrap_or_else(|| panic!("rebuilds {text}"));
            assert_eq!(rebuilt.ptr, a.ptr, "{text}");
        }
        let conv = attr(
            &context,
            "#hlo.conv<input_batch_dim = 0, input_feature_dim = 3, input_spatial_dims = [1, 2], \
             kernel_input_feature_dim = 2, kernel_output_feature_dim = 3, kernel_spatial_dims = [0, 1], \
             output_batch_dim = 0, output_feature_dim = 3, output_spatial_dims = [1, 2]>",
        );
        let fields = StructAttr::from_api(conv).expect("conv fields");
        assert_eq!(fields.raw("input_feature_dim"), Some("3"));
        assert_eq!(fields.list("kernel_spatial_dims"), vec![0, 1]);
    }

    /// What the C API does not cover is read from the text, and what would
    /// not verify is not built.
    #[test]
    fn tiled_layouts_and_bad_fields() {
        let context = rxla_dialects::create_context();
        let tiled = attr(&context, "#hlo.layout<minor_to_major = [1, 0], tiles = [array<i64: 8, 128>]>");
        assert!(StructAttr::from_api(tiled).is_none());
        let mut window = StructAttr::new("window");
        window.set_list("size", vec![2, 2]);
        window.set_list("stride", vec![1]);
        assert!(window.to_attr(context.to_raw()).is_none(), "mismatched window lengths");
        let mut gather = StructAttr::new("gather");
        gather.set_list("offset_dims", vec![1]);
        assert!(gather.to_attr(context.to_raw()).is_none(), "index_vector_dim is required");
        gather.set("index_vector_dim", Field::Raw("1".into()));
        gather.set_list("no_such_field", vec![1]);
        assert!(gather.to_attr(context.to_raw()).is_none(), "unknown fields are errors");
    }

    #[test]
    fn enum_attributes_by_kind_and_case() {
        let context = rxla_dialects::create_context();
        let lt = attr(&context, "#hlo<comparison_direction LT>");
        assert_eq!(enum_attr_case(lt), Some("LT"));
        assert_eq!(enum_attr(context.to_raw(), "comparison_direction", "LT").map(|a| a.ptr), Some(lt.ptr));
        let kind = attr(&context, "#hlo<fusion_kind kLoop>");
        assert_eq!(enum_attr_case(kind), Some("kLoop"));
        assert!(enum_attr(context.to_raw(), "comparison_direction", "SIDEWAYS").is_none());
        assert!(enum_attr(context.to_raw(), "no_such_kind", "LT").is_none());
        assert_eq!(enum_attr_case(dims(context.to_raw(), &[1])), None);
    }

    /// The builders give the attributes their text parses to (uniqued: the
    /// same pointer).
    #[test]
    fn built_attributes_equal_parsed_ones() {
        let context = rxla_dialects::create_context();
        let ctx = context.to_raw();
        let groups = index_groups(ctx, &[vec![0, 1], vec![2, 3]]);
        assert_eq!(groups.ptr, attr(&context, "#hlo.groups<[[0, 1], [2, 3]]>").ptr);
        assert_eq!(index_groups(ctx, &[]).ptr, attr(&context, "#hlo.groups<[]>").ptr);
        let ty = |text: &str| crate::op::parse_type(ctx, text).expect("type parses");
        let raw: Vec<u8> = [3i32, -1].iter().flat_map(|x| x.to_le_bytes()).collect();
        let ints = dense_raw(ty("tensor<2xi32>"), &raw).expect("two i32");
        assert_eq!(ints.ptr, attr(&context, "dense<[3, -1]> : tensor<2xi32>").ptr);
        let splat = dense_raw(ty("tensor<2x3xf32>"), &1.5f32.to_le_bytes()).expect("a splat");
        assert_eq!(splat.ptr, attr(&context, "dense<1.5> : tensor<2x3xf32>").ptr);
        assert!(dense_raw(ty("tensor<3xi32>"), &raw).is_none(), "8 bytes for 3 x i32");
        // Sub-byte integers take a byte each.
        let s4 = dense_raw(ty("tensor<2xi4>"), &[0x0D, 0x07]).expect("two i4");
        assert_eq!(s4.ptr, attr(&context, "dense<[-3, 7]> : tensor<2xi4>").ptr);
        let empty = dense_raw(ty("tensor<0x4xf32>"), &[]).expect("empty");
        assert_eq!(empty.ptr, attr(&context, "dense<> : tensor<0x4xf32>").ptr);
        let bools = dense_bools(ty("tensor<3xi1>"), &[true, false, true]);
        assert_eq!(bools.ptr, attr(&context, "dense<[true, false, true]> : tensor<3xi1>").ptr);
        assert_eq!(dense_bools(ty("tensor<2xi1>"), &[true]).ptr, attr(&context, "dense<true> : tensor<2xi1>").ptr);
    }
}
