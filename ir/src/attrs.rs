//! Typed views of the `hlo` dialect's attributes.
//!
//! The MLIR C API has no accessors for dialect attributes, but their
//! printed forms are regular: struct attributes print as
//! `#hlo.dot<lhs_batch_dims = [0], lhs_contracting_dims = [2]>` (empty
//! lists omitted) and enums as `#hlo<comparison_direction LT>`. A pass reads
//! an attribute into a Rust value, changes it, and writes it back as text,
//! which MLIR parses and verifies.

use crate::{op::Op, types::split_top_level};

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
        Self::parse(&op.attr_text(name)?)
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
pub fn list_text(v: &[i64]) -> String {
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

/// `#hlo<kind CASE>`.
pub fn enum_text(kind: &str, case: &str) -> String {
    format!("#hlo<{kind} {case}>")
}

/// The case of an enum attribute (`LT` of `#hlo<comparison_direction LT>`).
pub fn enum_case(op: Op, name: &str) -> Option<String> {
    let text = op.attr_text(name)?;
    let inner = text.strip_prefix("#hlo<")?.strip_suffix('>')?;
    Some(inner.split_whitespace().nth(1)?.to_string())
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

    pub fn to_text(&self) -> String {
        let mut s = StructAttr::new("dot");
        s.set_list("lhs_batch_dims", self.lhs_batch.clone());
        s.set_list("rhs_batch_dims", self.rhs_batch.clone());
        s.set_list("lhs_contracting_dims", self.lhs_contracting.clone());
        s.set_list("rhs_contracting_dims", self.rhs_contracting.clone());
        s.to_text()
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

    /// The attribute text; fields equal to their defaults everywhere are
    /// omitted.
    pub fn to_text(&self) -> String {
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
        s.to_text()
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
