//! `sharding={...}` <-> `#hlo.sharding<...>`.
//!
//! The importer writes the attribute's MLIR syntax (see HloAttrs.td); the
//! exporter reads it back from the printed attribute (the C API has no
//! accessors for dialect attributes), so both directions live here.

use rxla_hlo_text::ast::Shape;
use rxla_hlo_text::attrs::{LeafKind, LeafSharding, ShardGroup, Sharding, SubgroupType, TileDevices, Tiling};

use crate::types::quote;

/// The number of leaves of a tuple shape, `None` for a non-tuple.
pub fn tuple_leaves(shape: &Shape) -> Option<usize> {
    fn leaves(shape: &Shape) -> usize {
        match shape {
            Shape::Tuple(elements) => elements.iter().map(leaves).sum(),
            _ => 1,
        }
    }
    matches!(shape, Shape::Tuple(_)).then(|| leaves(shape))
}

/// The sharding XLA keeps for `sharding` on a value of `shape`
/// (normalized, a single sharding of a tuple repeated per leaf).
pub fn for_shape(sharding: &Sharding, shape: &Shape) -> Sharding {
    sharding.canonical().for_tuple_leaves(tuple_leaves(shape))
}

fn list(values: &[i64]) -> String {
    format!("[{}]", values.iter().map(i64::to_string).collect::<Vec<_>>().join(", "))
}

/// `#hlo.sharding<...>`.
pub fn to_mlir(sharding: &Sharding) -> String {
    let body = match sharding {
        Sharding::Leaf(leaf) => leaf_body(leaf),
        Sharding::Tuple(leaves) => {
            let elements: Vec<String> = leaves.iter().map(|l| format!("<{}>", leaf_body(l))).collect();
            format!("tuple [{}]", elements.join(", "))
        }
    };
    format!("#hlo.sharding<{body}>")
}

fn leaf_body(leaf: &LeafSharding) -> String {
    let mut out = match &leaf.kind {
        LeafKind::Replicated => "replicated".to_string(),
        LeafKind::Manual => "manual".to_string(),
        LeafKind::Unknown => "unknown".to_string(),
        LeafKind::Unreduced => "unreduced".to_string(),
        LeafKind::Maximal { device } => format!("maximal device = {device}"),
        LeafKind::Tiled(t) => {
            let mut s = format!("devices = {}", list(&t.dims));
            match &t.devices {
                TileDevices::List(ids) => s += &format!(" {}", list(ids)),
                TileDevices::Iota { reshape_dims, transpose_perm } => {
                    s += &format!(" iota {}", list(reshape_dims));
                    let perm: Vec<String> = transpose_perm.iter().map(i64::to_string).collect();
                    s += &format!(" T({})", perm.join(", "));
                }
            }
            if !t.last_tile_dims.is_empty() {
                let names: Vec<&str> = t.last_tile_dims.iter().map(|t| t.name()).collect();
                s += &format!(", last_tile_dims = [{}]", names.join(", "));
            }
            s
        }
    };
    match leaf.shard_group {
        Some(ShardGroup::As(id)) => out += &format!(", shard_as = {id}"),
        Some(ShardGroup::Like(id)) => out += &format!(", shard_like = {id}"),
        None => {}
    }
    if let Some(metadata) = &leaf.metadata {
        out += &format!(", metadata = {}", quote(metadata));
    }
    out
}

/// Reads a printed `#hlo.sharding<...>`; `None` if it is not one.
pub fn from_mlir(text: &str) -> Option<Sharding> {
    let mut r = Reader { s: text.trim(), i: 0 };
    r.word("#hlo.sharding")?;
    r.punct('<')?;
    let sharding = if r.peek_word() == Some("tuple") {
        r.word("tuple")?;
        r.punct('[')?;
        let mut leaves = Vec::new();
        if !r.eat(']') {
            loop {
                r.punct('<')?;
                leaves.push(r.leaf()?);
                r.punct('>')?;
                if !r.eat(',') {
                    break;
                }
            }
            r.punct(']')?;
        }
        Sharding::Tuple(leaves)
    } else {
        Sharding::Leaf(r.leaf()?)
    };
    r.punct('>')?;
    r.skip_blank();
    (r.i == r.s.len()).then_some(sharding)
}

/// A cursor over the printed attribute.
struct Reader<'a> {
    s: &'a str,
    i: usize,
}

impl Reader<'_> {
    fn skip_blank(&mut self) {
        self.i += self.s[self.i..].len() - self.s[self.i..].trim_start().len();
    }

    fn peek_word(&mut self) -> Option<&str> {
        self.skip_blank();
        let rest = &self.s[self.i..];
        let len =
            rest.find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '#'))).unwrap_or(rest.len());
        (len > 0).then(|| &rest[..len])
    }

    fn any_word(&mut self) -> Option<String> {
        let w = self.peek_word()?.to_string();
        self.i += w.len();
        Some(w)
    }

    fn word(&mut self, expected: &str) -> Option<()> {
        (self.any_word()? == expected).then_some(())
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_blank();
        if self.s[self.i..].starts_with(c) {
            self.i += 1;
            return true;
        }
        false
    }

    fn punct(&mut self, c: char) -> Option<()> {
        self.eat(c).then_some(())
    }

    fn int(&mut self) -> Option<i64> {
        self.skip_blank();
        let rest = &self.s[self.i..];
        let len = rest
            .char_indices()
            .find(|&(k, c)| !(c.is_ascii_digit() || (k == 0 && c == '-')))
            .map_or(rest.len(), |(k, _)| k);
        let value = rest[..len].parse().ok()?;
        self.i += len;
        Some(value)
    }

    /// `[1, 2]` or `(1, 2)`.
    fn ints(&mut self, open: char, close: char) -> Option<Vec<i64>> {
        self.punct(open)?;
        let mut out = Vec::new();
        if self.eat(close) {
            return Some(out);
        }
        loop {
            out.push(self.int()?);
            if !self.eat(',') {
                break;
            }
        }
        self.punct(close)?;
        Some(out)
    }

    /// A quoted MLIR string, unescaped.
    fn string(&mut self) -> Option<String> {
        self.skip_blank();
        let rest = &self.s[self.i..];
        if !rest.starts_with('"') {
            return None;
        }
        let bytes = rest.as_bytes();
        let mut k = 1;
        while k < bytes.len() && bytes[k] != b'"' {
            k += if bytes[k] == b'\\' { 2 } else { 1 };
        }
        let quoted = rest.get(..k + 1)?;
        self.i += k + 1;
        crate::export::mlir_attr::string(quoted)
    }

    fn leaf(&mut self) -> Option<LeafSharding> {
        let kind = match self.any_word()?.as_str() {
            "replicated" => LeafKind::Replicated,
            "manual" => LeafKind::Manual,
            "unknown" => LeafKind::Unknown,
            "unreduced" => LeafKind::Unreduced,
            "maximal" => {
                self.word("device")?;
                self.punct('=')?;
                LeafKind::Maximal { device: self.int()? }
            }
            "devices" => {
                self.punct('=')?;
                let dims = self.ints('[', ']')?;
                let devices = if self.peek_word() == Some("iota") {
                    self.word("iota")?;
                    let reshape_dims = self.ints('[', ']')?;
                    let transpose_perm = if self.peek_word() == Some("T") {
                        self.word("T")?;
                        self.ints('(', ')')?
                    } else {
                        (0..reshape_dims.len() as i64).collect()
                    };
                    TileDevices::Iota { reshape_dims, transpose_perm }
                } else {
                    TileDevices::List(self.ints('[', ']')?)
                };
                LeafKind::Tiled(Tiling { dims, devices, last_tile_dims: Vec::new() })
            }
            _ => return None,
        };
        let mut leaf = LeafSharding { kind, shard_group: None, metadata: None };
        while self.eat(',') {
            let field = self.any_word()?;
            self.punct('=')?;
            match field.as_str() {
                "last_tile_dims" => {
                    let LeafKind::Tiled(t) = &mut leaf.kind else { return None };
                    self.punct('[')?;
                    loop {
                        t.last_tile_dims.push(SubgroupType::from_name(&self.any_word()?)?);
                        if !self.eat(',') {
                            break;
                        }
                    }
                    self.punct(']')?;
                }
                "shard_as" => leaf.shard_group = Some(ShardGroup::As(self.int()?)),
                "shard_like" => leaf.shard_group = Some(ShardGroup::Like(self.int()?)),
                "metadata" => leaf.metadata = Some(self.string()?),
                _ => return None,
            }
        }
        Some(leaf)
    }
}

/// The HLO shardings Shardy states in an op's frontend attribute `key`
/// (`xla.sdy.in_shardings`, `xla.sdy.out_shardings`, a
/// `#sdy.sharding_per_value<[...]>`), with the meshes of the module's
/// frontend attributes (`xla.sdy.meshes`). Both are the printed
/// `frontend_attributes={...}` texts; `None` if the op has no such value.
pub fn shardy_value_shardings(
    module_frontend_attributes: &str,
    op_frontend_attributes: &str,
    key: &str,
) -> Result<Option<Vec<LeafSharding>>, String> {
    use crate::import::sdy::{frontend_value, Meshes};
    let Some(value) = frontend_value(op_frontend_attributes, key) else { return Ok(None) };
    let meshes = match frontend_value(module_frontend_attributes, "xla.sdy.meshes") {
        Some(text) => Meshes::parse(&text).map_err(|e| format!("xla.sdy.meshes: {e}"))?,
        None => Meshes::default(),
    };
    meshes.per_value(&value).map(Some).map_err(|e| format!("{key}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rxla_hlo_text::ast::{AttrValue, Pos};

    fn read(text: &str) -> Sharding {
        rxla_hlo_text::attrs::sharding(&AttrValue { text: text.into(), pos: Pos::default() }).unwrap()
    }

    #[test]
    fn mlir_form_round_trips() {
        for (hlo, mlir) in [
            ("{replicated}", "#hlo.sharding<replicated>"),
            ("{maximal device=3 shard_as 1}", "#hlo.sharding<maximal device = 3, shard_as = 1>"),
            ("{devices=[2,1]1,0}", "#hlo.sharding<devices = [2, 1] [1, 0]>"),
            ("{devices=[4,2]<=[8]}", "#hlo.sharding<devices = [4, 2] iota [8] T(0)>"),
            (
                "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}",
                "#hlo.sharding<devices = [2, 1, 2] iota [2, 2] T(1, 0), last_tile_dims = [replicated]>",
            ),
            (
                "{unknown shard_like 2 metadata={op_name=\"a\\\"b\"}}",
                "#hlo.sharding<unknown, shard_like = 2, metadata = \"{op_name=\\\"a\\\\\\\"b\\\"}\">",
            ),
            ("{{manual}, {devices=[2]0,1}}", "#hlo.sharding<tuple [<manual>, <devices = [2] [0, 1]>]>"),
            ("{}", "#hlo.sharding<tuple []>"),
        ] {
            let sharding = read(hlo);
            assert_eq!(to_mlir(&sharding), mlir);
            assert_eq!(from_mlir(mlir).as_ref(), Some(&sharding), "{mlir}");
        }
    }

    #[test]
    fn reads_mlirs_printed_form() {
        // MLIR prints the iota transpose only for several dimensions and
        // escapes quotes in strings as \22.
        let printed = "#hlo.sharding<devices = [4] iota [4], metadata = \"{op_name=\\22x\\22}\">";
        assert_eq!(from_mlir(printed).unwrap().to_string(), "{devices=[4]<=[4] metadata={op_name=\"x\"}}");
        assert_eq!(from_mlir("#hlo.sharding<bogus>"), None);
        assert_eq!(from_mlir("#hlo.sharding<replicated> x"), None);
        assert_eq!(from_mlir("\"{replicated}\""), None);
    }

    #[test]
    fn tuple_shapes_get_one_sharding_per_leaf() {
        let shape = rxla_hlo_text::parse_shape("(f32[2], (s32[], token[]))").unwrap();
        assert_eq!(tuple_leaves(&shape), Some(3));
        assert_eq!(for_shape(&read("{replicated}"), &shape).to_string(), "{{replicated}, {replicated}, {replicated}}");
        let array = rxla_hlo_text::parse_shape("f32[2]").unwrap();
        assert_eq!(for_shape(&read("{devices=[2]<=[2]}"), &array).to_string(), "{devices=[2]<=[2]}");
    }
}
