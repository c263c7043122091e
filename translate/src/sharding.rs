//! `sharding={...}` <-> `#hlo.sharding<...>`.
//!
//! The importer writes the attribute's MLIR syntax (see HloAttrs.td) and
//! the exporter reads the printed attribute; the compiler's passes build
//! and read the attribute itself through the dialect's C API
//! ([`to_attr`], [`from_attr`]).

use rxla_hlo_text::ast::Shape;
use rxla_hlo_text::attrs::{LeafKind, LeafSharding, ShardGroup, Sharding, SubgroupType, TileDevices, Tiling};

use crate::types::quote;
use mlir_sys::{
    mlirArrayAttrGet, mlirArrayAttrGetElement, mlirArrayAttrGetNumElements, mlirAttributeIsAArray, MlirAttribute,
    MlirContext, MlirStringRef,
};
use rxla_dialects::ffi;

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

/// `ShardingKind` values (HloEnums.td). `ShardingSubgroup`'s are the
/// positions in `SubgroupType::ALL`, which lists them in the same order.
const KINDS: [&str; 7] = ["replicated", "manual", "unknown", "unreduced", "maximal", "tiled", "tuple"];

/// The `#hlo.sharding` attribute of `sharding`, built through the dialect's
/// C API; `None` where it would not verify.
pub fn to_attr(context: MlirContext, sharding: &Sharding) -> Option<MlirAttribute> {
    match sharding {
        Sharding::Leaf(leaf) => leaf_attr(context, leaf, None),
        Sharding::Tuple(leaves) => {
            let elements: Vec<MlirAttribute> =
                leaves.iter().map(|l| leaf_attr(context, l, None)).collect::<Option<_>>()?;
            // SAFETY: `elements` lives for the call.
            let array = unsafe { mlirArrayAttrGet(context, elements.len() as isize, elements.as_ptr()) };
            let tuple = LeafSharding { kind: LeafKind::Replicated, shard_group: None, metadata: None };
            leaf_attr(context, &tuple, Some(array))
        }
    }
}

/// A leaf's lists as the C API takes them.
#[derive(Default)]
struct Lists<'a> {
    tile: &'a [i64],
    devices: &'a [i64],
    iota: &'a [i64],
    perm: &'a [i64],
    last: Vec<u32>,
}

/// A leaf (or, with `tuple`, the tuple of those leaves).
fn leaf_attr(context: MlirContext, leaf: &LeafSharding, tuple: Option<MlirAttribute>) -> Option<MlirAttribute> {
    let maximal;
    let (kind, lists) = match &leaf.kind {
        _ if tuple.is_some() => ("tuple", Lists::default()),
        LeafKind::Replicated => ("replicated", Lists::default()),
        LeafKind::Manual => ("manual", Lists::default()),
        LeafKind::Unknown => ("unknown", Lists::default()),
        LeafKind::Unreduced => ("unreduced", Lists::default()),
        LeafKind::Maximal { device } => {
            maximal = [*device];
            ("maximal", Lists { devices: &maximal, ..Lists::default() })
        }
        LeafKind::Tiled(t) => {
            let last: Option<Vec<u32>> = t
                .last_tile_dims
                .iter()
                .map(|s| SubgroupType::ALL.iter().position(|g| g == s).map(|k| k as u32))
                .collect();
            let mut lists = Lists { tile: &t.dims, last: last?, ..Lists::default() };
            match &t.devices {
                TileDevices::List(ids) => lists.devices = ids,
                TileDevices::Iota { reshape_dims, transpose_perm } => {
                    lists.iota = reshape_dims;
                    lists.perm = transpose_perm;
                }
            }
            ("tiled", lists)
        }
    };
    let Lists { tile, devices, iota, perm, last } = lists;
    let kind = KINDS.iter().position(|k| *k == kind)? as u32;
    let (shard_as, shard_like) = match leaf.shard_group {
        Some(ShardGroup::As(id)) => (Some(id), None),
        Some(ShardGroup::Like(id)) => (None, Some(id)),
        None => (None, None),
    };
    let metadata = match &leaf.metadata {
        Some(m) => MlirStringRef { data: m.as_ptr().cast(), length: m.len() },
        None => MlirStringRef { data: std::ptr::null(), length: 0 },
    };
    let fields = ffi::RxlaHloShardingFields {
        kind,
        tile_dims: tile.as_ptr(),
        num_tile_dims: tile.len() as isize,
        devices: devices.as_ptr(),
        num_devices: devices.len() as isize,
        iota_reshape_dims: iota.as_ptr(),
        num_iota_reshape_dims: iota.len() as isize,
        iota_transpose_perm: perm.as_ptr(),
        num_iota_transpose_perm: perm.len() as isize,
        last_tile_dims: last.as_ptr(),
        num_last_tile_dims: last.len() as isize,
        tuple_elements: tuple.unwrap_or(MlirAttribute { ptr: std::ptr::null() }),
        has_shard_as: shard_as.is_some(),
        shard_as: shard_as.unwrap_or(0),
        has_shard_like: shard_like.is_some(),
        shard_like: shard_like.unwrap_or(0),
        metadata,
    };
    // SAFETY: every list and string lives for the call; MLIR copies them.
    let attr = unsafe { ffi::rxlaHloShardingAttrGet(context, &fields) };
    (!attr.ptr.is_null()).then_some(attr)
}

/// The sharding an `#hlo.sharding` attribute holds; `None` for any other
/// attribute.
pub fn from_attr(attr: MlirAttribute) -> Option<Sharding> {
    let f = fields(attr)?;
    if KINDS.get(f.kind as usize) == Some(&"tuple") {
        let tuple = f.tuple_elements;
        // SAFETY: a live array attribute of leaf shardings.
        let leaves = unsafe {
            if tuple.ptr.is_null() || !mlirAttributeIsAArray(tuple) {
                return None;
            }
            (0..mlirArrayAttrGetNumElements(tuple))
                .map(|i| fields(mlirArrayAttrGetElement(tuple, i)).and_then(|f| leaf_of(&f)))
                .collect::<Option<_>>()?
        };
        return Some(Sharding::Tuple(leaves));
    }
    Some(Sharding::Leaf(leaf_of(&f)?))
}

fn fields(attr: MlirAttribute) -> Option<ffi::RxlaHloShardingFields> {
    let null = MlirStringRef { data: std::ptr::null(), length: 0 };
    let mut f = ffi::RxlaHloShardingFields {
        kind: 0,
        tile_dims: std::ptr::null(),
        num_tile_dims: 0,
        devices: std::ptr::null(),
        num_devices: 0,
        iota_reshape_dims: std::ptr::null(),
        num_iota_reshape_dims: 0,
        iota_transpose_perm: std::ptr::null(),
        num_iota_transpose_perm: 0,
        last_tile_dims: std::ptr::null(),
        num_last_tile_dims: 0,
        tuple_elements: MlirAttribute { ptr: std::ptr::null() },
        has_shard_as: false,
        shard_as: 0,
        has_shard_like: false,
        shard_like: 0,
        metadata: null,
    };
    // SAFETY: `f` is written by the call only.
    unsafe { ffi::rxlaHloShardingAttrGetFields(attr, &mut f) }.then_some(f)
}

/// A list the C API reported (empty lists may come as null pointers).
fn ints<T: Copy>(data: *const T, len: isize) -> Vec<T> {
    if data.is_null() || len <= 0 {
        return Vec::new();
    }
    // SAFETY: `len` elements at `data`, in a live attribute's storage.
    unsafe { std::slice::from_raw_parts(data, len as usize) }.to_vec()
}

fn leaf_of(f: &ffi::RxlaHloShardingFields) -> Option<LeafSharding> {
    let devices = ints(f.devices, f.num_devices);
    let kind = match *KINDS.get(f.kind as usize)? {
        "replicated" => LeafKind::Replicated,
        "manual" => LeafKind::Manual,
        "unknown" => LeafKind::Unknown,
        "unreduced" => LeafKind::Unreduced,
        "maximal" => LeafKind::Maximal { device: *devices.first()? },
        "tiled" => {
            let reshape_dims = ints(f.iota_reshape_dims, f.num_iota_reshape_dims);
            let devices = if reshape_dims.is_empty() {
                TileDevices::List(devices)
            } else {
                TileDevices::Iota {
                    reshape_dims,
                    transpose_perm: ints(f.iota_transpose_perm, f.num_iota_transpose_perm),
                }
            };
            let last_tile_dims: Vec<SubgroupType> = ints(f.last_tile_dims, f.num_last_tile_dims)
                .into_iter()
                .map(|k| SubgroupType::ALL.get(k as usize).copied())
                .collect::<Option<_>>()?;
            LeafKind::Tiled(Tiling { dims: ints(f.tile_dims, f.num_tile_dims), devices, last_tile_dims })
        }
        _ => return None,
    };
    let shard_group = match (f.has_shard_as, f.has_shard_like) {
        (true, _) => Some(ShardGroup::As(f.shard_as)),
        (_, true) => Some(ShardGroup::Like(f.shard_like)),
        _ => None,
    };
    let metadata = (!f.metadata.data.is_null()).then(|| {
        // SAFETY: the attribute's string, valid while its context lives.
        let bytes = unsafe { std::slice::from_raw_parts(f.metadata.data as *const u8, f.metadata.length) };
        String::from_utf8_lossy(bytes).into_owned()
    });
    Some(LeafSharding { kind, shard_group, metadata })
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

    /// The C API's attribute is the one the text parses to, and reads back
    /// as the same sharding; what would not verify is not built.
    #[test]
    fn attribute_round_trips_through_the_c_api() {
        let context = rxla_dialects::create_context();
        let ctx = context.to_raw();
        for hlo in [
            "{replicated}",
            "{manual}",
            "{unreduced}",
            "{maximal device=3 shard_as 1}",
            "{devices=[2,1]1,0}",
            "{devices=[4,2]<=[8]}",
            "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dims={manual, replicated}}",
            "{unknown shard_like 2 metadata={op_name=\"a\"}}",
            "{{manual}, {devices=[2]0,1}}",
            "{}",
        ] {
            let sharding = read(hlo);
            let text = to_mlir(&sharding);
            let parsed = unsafe {
                mlir_sys::mlirAttributeParseGet(
                    ctx,
                    mlir_sys::MlirStringRef { data: text.as_ptr().cast(), length: text.len() },
                )
            };
            assert!(!parsed.ptr.is_null(), "{text} parses");
            let built = to_attr(ctx, &sharding).unwrap_or_else(|| panic!("builds {text}"));
            assert_eq!(built.ptr, parsed.ptr, "{text}");
            assert_eq!(from_attr(built).as_ref(), Some(&sharding), "{text}");
        }
        let twice = Sharding::Leaf(LeafSharding {
            kind: LeafKind::Tiled(Tiling {
                dims: vec![2],
                devices: TileDevices::List(vec![0, 0]),
                last_tile_dims: vec![],
            }),
            shard_group: None,
            metadata: None,
        });
        assert!(to_attr(ctx, &twice).is_none(), "a device listed twice does not verify");
        let integer = unsafe { mlir_sys::mlirIntegerAttrGet(mlir_sys::mlirIntegerTypeGet(ctx, 64), 1) };
        assert!(from_attr(integer).is_none());
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
