//! Reading MLIR attributes as they print.
//!
//! The exporter needs the values inside rxla's own attributes
//! (`#hlo.dot<lhs_batch_dims = [0], ...>`) and a few builtin ones. The C
//! API has no accessors for dialect attributes, and their printed forms are
//! regular, so the exporter reads the printed text with these helpers.

use crate::types::split_top_level;

/// `array<i64: 1, 2>` / `array<i64>` -> [1, 2] / [].
pub fn dense_i64_array(text: &str) -> Option<Vec<i64>> {
    let inner = text.trim().strip_prefix("array<i64")?.strip_suffix('>')?;
    let inner = inner.trim_start();
    if inner.is_empty() {
        return Some(Vec::new());
    }
    int_list(inner.strip_prefix(':')?)
}

/// `1, 2, 3` -> [1, 2, 3].
pub fn int_list(text: &str) -> Option<Vec<i64>> {
    let text = text.trim();
    if text.is_empty() {
        return Some(Vec::new());
    }
    text.split(',').map(|s| s.trim().parse().ok()).collect()
}

/// `[1, 2]` -> [1, 2].
pub fn bracket_list(text: &str) -> Option<Vec<i64>> {
    int_list(text.trim().strip_prefix('[')?.strip_suffix(']')?)
}

/// `5 : i64` -> 5 (also a bare `5`).
pub fn integer(text: &str) -> Option<i64> {
    text.split(':').next()?.trim().parse().ok()
}

/// `1.000000e-03 : f32` -> 0.001.
pub fn float(text: &str) -> Option<f64> {
    let number = text.split(':').next()?.trim();
    if let Some(hex) = number.strip_prefix("0x") {
        let bits = u64::from_str_radix(hex, 16).ok()?;
        return Some(if hex.len() <= 8 { f32::from_bits(bits as u32) as f64 } else { f64::from_bits(bits) });
    }
    number.parse().ok()
}

/// `"text"` with MLIR escapes -> text.
pub fn string(text: &str) -> Option<String> {
    let inner = text.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut out = Vec::new();
    let bytes = inner.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && i + 1 < bytes.len() {
            match bytes[i + 1] {
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                b'"' => out.push(b'"'),
                b'\\' => out.push(b'\\'),
                _ if i + 2 < bytes.len() => {
                    let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok()?;
                    out.push(u8::from_str_radix(hex, 16).ok()?);
                    i += 1;
                }
                _ => return None,
            }
            i += 2;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// `@name` or `@"name"` -> name.
pub fn symbol(text: &str) -> Option<String> {
    let rest = text.trim().strip_prefix('@')?;
    if rest.starts_with('"') {
        string(rest)
    } else {
        Some(rest.to_string())
    }
}

/// `[@a, @b]` -> [a, b].
pub fn symbol_list(text: &str) -> Option<Vec<String>> {
    let inner = text.trim().strip_prefix('[')?.strip_suffix(']')?;
    if inner.trim().is_empty() {
        return Some(Vec::new());
    }
    split_top_level(inner).into_iter().map(symbol).collect()
}

/// `#hlo<comparison_direction LT>` (or a bare `LT`) -> LT.
pub fn enum_case(text: &str) -> Option<String> {
    let text = text.trim();
    match text.strip_prefix("#hlo<").and_then(|t| t.strip_suffix('>')) {
        Some(inner) => inner.split_whitespace().nth(1).map(str::to_string),
        None => Some(text.to_string()),
    }
}

/// `#hlo.name<k = v, k2 = v2>` -> [(k, v), (k2, v2)] (values as text).
pub fn struct_fields<'a>(text: &'a str, mnemonic: &str) -> Option<Vec<(&'a str, &'a str)>> {
    let prefix = format!("#hlo.{mnemonic}<");
    let inner = text.trim().strip_prefix(prefix.as_str())?.strip_suffix('>')?;
    if inner.trim().is_empty() {
        return Some(Vec::new());
    }
    split_top_level(inner)
        .into_iter()
        .map(|field| {
            let (k, v) = field.split_once('=')?;
            Some((k.trim(), v.trim()))
        })
        .collect()
}

/// A field of a struct attribute as an integer list (absent: empty).
pub fn field_list(fields: &[(&str, &str)], name: &str) -> Option<Vec<i64>> {
    match fields.iter().find(|(k, _)| *k == name) {
        Some((_, v)) => bracket_list(v),
        None => Some(Vec::new()),
    }
}

/// A field of a struct attribute as an integer.
pub fn field_int(fields: &[(&str, &str)], name: &str) -> Option<i64> {
    fields.iter().find(|(k, _)| *k == name).and_then(|(_, v)| integer(v))
}

/// `#hlo.groups<[[0, 1], [2, 3]]>` -> [[0, 1], [2, 3]].
pub fn groups(text: &str) -> Option<Vec<Vec<i64>>> {
    let inner = text.trim().strip_prefix("#hlo.groups<[")?.strip_suffix("]>")?;
    if inner.trim().is_empty() {
        return Some(Vec::new());
    }
    split_top_level(inner).into_iter().map(bracket_list).collect()
}

/// `[a, b]` -> ["a", "b"] (elements as text).
pub fn list_items(text: &str) -> Option<Vec<&str>> {
    let inner = text.trim().strip_prefix('[')?.strip_suffix(']')?;
    if inner.trim().is_empty() {
        return Some(Vec::new());
    }
    Some(split_top_level(inner).into_iter().map(str::trim).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_printed_attributes() {
        assert_eq!(dense_i64_array("array<i64: 1, 0>"), Some(vec![1, 0]));
        assert_eq!(dense_i64_array("array<i64>"), Some(vec![]));
        assert_eq!(integer("3 : i64"), Some(3));
        assert_eq!(float("1.000000e-03 : f32"), Some(0.001));
        assert_eq!(string("\"a\\\"b\\0A\""), Some("a\"b\n".to_string()));
        assert_eq!(symbol("@\"region_0.1\""), Some("region_0.1".to_string()));
        assert_eq!(symbol_list("[@a, @\"b.1\"]"), Some(vec!["a".to_string(), "b.1".to_string()]));
        assert_eq!(enum_case("#hlo<comparison_direction LT>"), Some("LT".to_string()));
        let f = struct_fields("#hlo.dot<lhs_batch_dims = [0], rhs_contracting_dims = [1, 2]>", "dot").unwrap();
        assert_eq!(field_list(&f, "rhs_contracting_dims"), Some(vec![1, 2]));
        assert_eq!(field_list(&f, "lhs_contracting_dims"), Some(vec![]));
        assert_eq!(groups("#hlo.groups<[[0, 1], [2, 3]]>"), Some(vec![vec![0, 1], vec![2, 3]]));
    }
}
