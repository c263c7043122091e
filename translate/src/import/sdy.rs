//! Shardy's shardings in HLO text, imported as `hlo.sharding` (what XLA's
//! `xla-sdy-round-trip-import` reads and `HloSharding::V3ToV2Sharding`
//! converts).
//!
//! JAX's Shardy dumps keep the meshes in the module's frontend attribute
//! `xla.sdy.meshes` (`{mesh = #sdy.mesh<["x"=2, "y"=4]>}`) and each
//! sharding in an instruction's frontend attribute `xla.sdy.sharding`:
//! `#sdy.sharding<@mesh, [{"x"}, {}]>` on parameters,
//! `#sdy.sharding_per_value<[<@mesh, [...]>, ...]>` on instructions (one per
//! result). Such a sharding is the instruction's sharding: it takes the
//! place of `sharding={...}` (the frontend attributes stay).

use std::collections::HashMap;

use rxla_hlo_text::ast;
use rxla_hlo_text::attrs::{LeafKind, LeafSharding, Sharding, SubgroupType, TileDevices, Tiling};

use super::{ImportError, Result};

/// A mesh: named axes, and the device order (`None`: `iota`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mesh {
    pub axes: Vec<(String, i64)>,
    pub device_ids: Option<Vec<i64>>,
}

/// A reference to (part of) a mesh axis: `"x"` or the sub-axis `"x":(pre)size`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct AxisRef {
    axis: usize,
    pre: i64,
    size: i64,
}

/// One value's sharding: the axes of each dimension, and those along which
/// the value is explicitly replicated or unreduced.
#[derive(Clone, Debug, PartialEq, Eq)]
struct TensorSharding {
    mesh: Mesh,
    dims: Vec<Vec<AxisRef>>,
    unreduced: Vec<AxisRef>,
}

/// The module's meshes, by name.
#[derive(Default)]
pub struct Meshes(HashMap<String, Mesh>);

impl Meshes {
    /// The meshes of `xla.sdy.meshes` in the module's frontend attributes.
    pub fn of_module(module: &ast::Module) -> Result<Meshes> {
        let Some(attr) = module.attributes.iter().find(|a| a.name == "frontend_attributes") else {
            return Ok(Meshes::default());
        };
        let Some(text) = frontend_value(&attr.value.text, "xla.sdy.meshes") else {
            return Ok(Meshes::default());
        };
        Meshes::parse(&text).map_err(|message| ImportError::new(attr.value.pos, format!("xla.sdy.meshes: {message}")))
    }

    /// The meshes of an `xla.sdy.meshes` value (`{mesh = #sdy.mesh<...>}`).
    pub fn parse(text: &str) -> std::result::Result<Meshes, String> {
        let mut r = Reader::new(text);
        let mut meshes = HashMap::new();
        r.expect('{')?;
        if !r.eat('}') {
            loop {
                let name = r.name()?;
                r.expect('=')?;
                r.keyword("#sdy.mesh")?;
                let mesh = r.mesh_body()?;
                meshes.insert(name, mesh);
                if !r.eat(',') {
                    break;
                }
            }
            r.expect('}')?;
        }
        r.end()?;
        Ok(Meshes(meshes))
    }

    /// The HLO shardings of a `#sdy.sharding_per_value<[...]>` (or of one
    /// `#sdy.sharding<...>`), one per value.
    pub fn per_value(&self, text: &str) -> std::result::Result<Vec<LeafSharding>, String> {
        let mut r = Reader::new(text);
        let values = if r.peek_keyword("#sdy.sharding_per_value") {
            r.keyword("#sdy.sharding_per_value")?;
            r.expect('<')?;
            let values = r.list('[', ']', |r| {
                r.expect('<')?;
                let s = r.tensor_sharding(self)?;
                r.expect('>')?;
                Ok(s)
            })?;
            r.expect('>')?;
            values
        } else {
            r.keyword("#sdy.sharding")?;
            r.expect('<')?;
            let s = r.tensor_sharding(self)?;
            r.expect('>')?;
            vec![s]
        };
        r.end()?;
        values.iter().map(to_hlo).collect()
    }

    /// The sharding Shardy gives `inst` (of `inst.shape`), if it has one.
    pub fn sharding_of(&self, inst: &ast::Instruction) -> Result<Option<Sharding>> {
        let Some(attr) = inst.attributes.iter().find(|a| a.name == "frontend_attributes") else { return Ok(None) };
        let Some(text) = frontend_value(&attr.value.text, "xla.sdy.sharding") else { return Ok(None) };
        let at = |message: String| ImportError::new(attr.value.pos, format!("xla.sdy.sharding: {message}"));
        let leaves = self.per_value(&text).map_err(at)?;
        Ok(Some(match (&inst.shape, leaves.len()) {
            (ast::Shape::Tuple(elements), n) if n == elements.len() => Sharding::Tuple(leaves),
            // XLA gives an empty tuple one sharding (HloSharding keeps at
            // least one element): a side-effecting call's `()` result.
            (ast::Shape::Tuple(elements), 1) if elements.is_empty() => Sharding::Tuple(leaves),
            (ast::Shape::Tuple(elements), n) => {
                return Err(at(format!("{n} shardings for a tuple of {} elements", elements.len())))
            }
            (_, 1) => Sharding::Leaf(leaves.into_iter().next().unwrap()),
            (_, n) => return Err(at(format!("{n} shardings for one array"))),
        }))
    }
}

/// The value of `key` in a `frontend_attributes={...}` text: a quoted
/// string unescaped, or a `{...}` group as written. Read by characters, not
/// tokens: the group holds MLIR syntax (`#sdy.mesh<...>`) that is no HLO
/// token sequence.
pub fn frontend_value(text: &str, key: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut search = 0;
    let start = loop {
        let at = search + text[search..].find(key)?;
        let before = at.checked_sub(1).map(|i| bytes[i]);
        let after = text[at + key.len()..].trim_start();
        if matches!(before, Some(b'{' | b',' | b' ')) && after.starts_with('=') {
            break text.len() - after.len() + 1;
        }
        search = at + key.len();
    };
    let value = text[start..].trim_start();
    if let Some(quoted) = value.strip_prefix('"') {
        let mut k = 0;
        let q = quoted.as_bytes();
        while k < q.len() && q[k] != b'"' {
            k += if q[k] == b'\\' { 2 } else { 1 };
        }
        return rxla_hlo_text::lexer::unescape(quoted.get(..k)?).ok();
    }
    let mut depth = 0;
    let mut in_string = false;
    let mut escaped = false;
    for (k, c) in value.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '{' if !in_string => depth += 1,
            '}' if !in_string => {
                depth -= 1;
                if depth == 0 {
                    return Some(value[..=k].to_string());
                }
            }
            _ => {}
        }
    }
    None
}

/// HloSharding::V3ToV2Sharding: the tile grid has the product of each
/// dimension's axis sizes; the devices are the mesh's reshaped to its
/// (sub-)axes and transposed so that each dimension's axes come in order,
/// then the unreduced axes, then the remaining axes as a replicated group.
fn to_hlo(s: &TensorSharding) -> std::result::Result<LeafSharding, String> {
    let mesh = &s.mesh;
    let leaf = |kind| LeafSharding { kind, shard_group: None, metadata: None };
    if mesh.axes.is_empty() {
        return Ok(leaf(match mesh.device_ids.as_deref() {
            Some([device]) => LeafKind::Maximal { device: *device },
            _ => LeafKind::Replicated,
        }));
    }
    // Split every axis at the boundaries of the sub-axes used.
    let used = s.dims.iter().flatten().chain(&s.unreduced);
    let mut cuts: Vec<Vec<i64>> = mesh.axes.iter().map(|(_, size)| vec![1, *size]).collect();
    for r in used.clone() {
        cuts[r.axis].extend([r.pre, r.pre * r.size]);
    }
    let mut pieces = Vec::new(); // (axis, pre, size) in mesh order, major first
    for (axis, cuts) in cuts.iter_mut().enumerate() {
        cuts.sort_unstable();
        cuts.dedup();
        for w in cuts.windows(2) {
            pieces.push(AxisRef { axis, pre: w[0], size: w[1] / w[0] });
        }
    }
    // `"x":(pre)size`: `pre` is the size of the sub-axes major to it, so
    // the pieces (by axis, then increasing `pre`) go from major to minor, as
    // in GetOrderedAxisRefs. The pieces an axis reference covers, in order:
    let expand = |r: &AxisRef| -> Vec<usize> {
        (0..pieces.len())
            .filter(|&i| {
                let p = &pieces[i];
                p.axis == r.axis && p.pre >= r.pre && p.pre * p.size <= r.pre * r.size
            })
            .collect()
    };
    let mut order: Vec<usize> = Vec::new();
    let mut dims = Vec::new();
    for dim in &s.dims {
        let mut size = 1;
        for r in dim {
            size = r.size.saturating_mul(size);
            order.extend(expand(r));
        }
        dims.push(size);
    }
    let mut types = Vec::new();
    if !s.unreduced.is_empty() {
        let mut size = 1;
        for r in &s.unreduced {
            size = r.size.saturating_mul(size);
            order.extend(expand(r));
        }
        dims.push(size);
        types.push(SubgroupType::Unreduced);
    }
    let mut seen = vec![false; pieces.len()];
    for &i in &order {
        if std::mem::replace(&mut seen[i], true) {
            return Err(format!("mesh axis '{}' is used twice", mesh.axes[pieces[i].axis].0));
        }
    }
    let replicated: Vec<usize> = (0..pieces.len()).filter(|&i| !seen[i]).collect();
    let replicated_size: i64 = replicated.iter().map(|&i| pieces[i].size).product();
    order.extend(replicated);
    if replicated_size > 1 {
        dims.push(replicated_size);
        types.push(SubgroupType::Replicated);
    }
    if dims.iter().product::<i64>() == 1 {
        return Ok(leaf(LeafKind::Replicated));
    }
    let reshape_dims: Vec<i64> = pieces.iter().map(|p| p.size).collect();
    let transpose_perm: Vec<i64> = order.iter().map(|&i| i as i64).collect();
    let mut tiling =
        Tiling { dims, devices: TileDevices::Iota { reshape_dims, transpose_perm }, last_tile_dims: types };
    if let Some(ids) = &mesh.device_ids {
        let positions = rxla_hlo_text::attrs::device_list(&tiling).ok_or("the mesh is too large")?;
        if ids.len() != positions.len() {
            return Err(format!("the mesh has {} devices but {} device_ids", positions.len(), ids.len()));
        }
        tiling.devices = TileDevices::List(positions.iter().map(|&p| ids[p as usize]).collect());
    }
    Ok(leaf(LeafKind::Tiled(tiling)))
}

/// A cursor over Shardy's attribute syntax.
struct Reader<'a> {
    s: &'a str,
    i: usize,
}

type Parsed<T> = std::result::Result<T, String>;

impl<'a> Reader<'a> {
    fn new(s: &'a str) -> Self {
        Reader { s, i: 0 }
    }

    fn rest(&mut self) -> &'a str {
        let rest = &self.s[self.i..];
        self.i += rest.len() - rest.trim_start().len();
        &self.s[self.i..]
    }

    fn error<T>(&mut self, what: &str) -> Parsed<T> {
        let rest = self.rest();
        let near: String = rest.chars().take(20).collect();
        Err(format!("expects {what} at offset {} (near '{near}')", self.i))
    }

    fn eat(&mut self, c: char) -> bool {
        if self.rest().starts_with(c) {
            self.i += c.len_utf8();
            return true;
        }
        false
    }

    fn expect(&mut self, c: char) -> Parsed<()> {
        if self.eat(c) {
            return Ok(());
        }
        self.error(&format!("'{c}'"))
    }

    fn end(&mut self) -> Parsed<()> {
        if self.rest().is_empty() {
            return Ok(());
        }
        self.error("the end")
    }

    fn word_len(&mut self) -> usize {
        self.rest()
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '#' | '$')))
            .unwrap_or(self.rest().len())
    }

    fn peek_keyword(&mut self, word: &str) -> bool {
        let len = self.word_len();
        &self.rest()[..len] == word
    }

    fn keyword(&mut self, word: &str) -> Parsed<()> {
        if self.peek_keyword(word) {
            self.i += word.len();
            return Ok(());
        }
        self.error(&format!("'{word}'"))
    }

    fn int(&mut self) -> Parsed<i64> {
        let rest = self.rest();
        let len = rest
            .char_indices()
            .find(|&(k, c)| !(c.is_ascii_digit() || (k == 0 && c == '-')))
            .map_or(rest.len(), |(k, _)| k);
        match rest[..len].parse() {
            Ok(v) => {
                self.i += len;
                Ok(v)
            }
            Err(_) => self.error("an integer"),
        }
    }

    /// `"x"` (no escapes occur in axis names).
    fn string(&mut self) -> Parsed<String> {
        let rest = self.rest();
        match rest.strip_prefix('"').and_then(|r| r.find('"').map(|end| r[..end].to_string())) {
            Some(s) => {
                self.i += s.len() + 2;
                Ok(s)
            }
            None => self.error("a quoted name"),
        }
    }

    /// A dictionary key or symbol name: `mesh`, `"mesh"`.
    fn name(&mut self) -> Parsed<String> {
        if self.rest().starts_with('"') {
            return self.string();
        }
        let len = self.word_len();
        if len == 0 {
            return self.error("a name");
        }
        let name = self.rest()[..len].to_string();
        self.i += len;
        Ok(name)
    }

    fn list<T>(&mut self, open: char, close: char, mut item: impl FnMut(&mut Self) -> Parsed<T>) -> Parsed<Vec<T>> {
        self.expect(open)?;
        let mut out = Vec::new();
        if self.eat(close) {
            return Ok(out);
        }
        loop {
            out.push(item(self)?);
            if !self.eat(',') {
                break;
            }
        }
        self.expect(close)?;
        Ok(out)
    }

    /// `<["x"=2, "y"=4]>` or `<["x"=2], device_ids=[1, 0]>` or `<[], device_ids=[3]>`.
    fn mesh_body(&mut self) -> Parsed<Mesh> {
        self.expect('<')?;
        let axes = self.list('[', ']', |r| {
            let name = r.string()?;
            r.expect('=')?;
            let size = r.int()?;
            if size <= 0 {
                return r.error("a positive axis size");
            }
            Ok((name, size))
        })?;
        let mut device_ids = None;
        if self.eat(',') {
            self.keyword("device_ids")?;
            self.expect('=')?;
            let ids = self.list('[', ']', |r| r.int())?;
            // The identity order is the default iota.
            if ids.iter().enumerate().any(|(i, &d)| d != i as i64) || axes.is_empty() {
                device_ids = Some(ids);
            }
        }
        self.expect('>')?;
        // Bounded so that no product of axis sizes below overflows.
        let count = axes
            .iter()
            .try_fold(1i64, |acc, (_, s)| acc.checked_mul(*s).filter(|&c| c <= 1 << 31))
            .ok_or("the mesh has more than 2^31 devices")?;
        if let Some(ids) = &device_ids {
            let valid = if axes.is_empty() { ids.len() <= 1 } else { ids.len() as i64 == count };
            if !valid {
                return Err(format!("the mesh has {count} devices but {} device_ids", ids.len()));
            }
        }
        Ok(Mesh { axes, device_ids })
    }

    /// `@mesh, [{"x"}, {"y", ?}p1, {}], replicated={"z"}, unreduced={"w"}`
    /// (or an inline `mesh<...>` in place of `@mesh`).
    fn tensor_sharding(&mut self, meshes: &Meshes) -> Parsed<TensorSharding> {
        let mesh = if self.eat('@') {
            let name = self.name()?;
            meshes.0.get(&name).cloned().ok_or_else(|| format!("mesh '@{name}' is not in xla.sdy.meshes"))?
        } else {
            self.keyword("mesh")?;
            self.mesh_body()?
        };
        self.expect(',')?;
        let dims = self.list('[', ']', |r| {
            let mut axes = r.list('{', '}', |r| {
                if r.eat('?') {
                    return Ok(None); // an open dimension
                }
                r.axis_ref(&mesh).map(Some)
            })?;
            // A priority `p0` does not change the sharding.
            if r.rest().starts_with('p') {
                r.i += 1;
                r.int()?;
            }
            axes.retain(Option::is_some);
            Ok(axes.into_iter().flatten().collect::<Vec<_>>())
        })?;
        let mut unreduced = Vec::new();
        while self.eat(',') {
            let field = self.name()?;
            self.expect('=')?;
            let axes = self.list('{', '}', |r| r.axis_ref(&mesh))?;
            match field.as_str() {
                "replicated" => {} // replicated along every axis it is not sharded on anyway
                "unreduced" => unreduced = axes,
                _ => return Err(format!("unknown sharding field '{field}'")),
            }
        }
        Ok(TensorSharding { mesh, dims, unreduced })
    }

    /// `"x"` or `"x":(2)4`.
    fn axis_ref(&mut self, mesh: &Mesh) -> Parsed<AxisRef> {
        let name = self.string()?;
        let axis = mesh.axes.iter().position(|(n, _)| *n == name).ok_or_else(|| format!("no mesh axis '{name}'"))?;
        let full = mesh.axes[axis].1;
        if !self.eat(':') {
            return Ok(AxisRef { axis, pre: 1, size: full });
        }
        self.expect('(')?;
        let pre = self.int()?;
        self.expect(')')?;
        let size = self.int()?;
        if pre <= 0 || size <= 0 || pre.checked_mul(size).is_none_or(|covered| full % covered != 0) {
            return Err(format!("sub-axis \"{name}\":({pre}){size} does not divide the axis of size {full}"));
        }
        Ok(AxisRef { axis, pre, size })
    }
}

/// For tests: the HLO sharding of one Shardy sharding given the meshes text.
#[cfg(test)]
fn convert(meshes: &str, sharding: &str, shape: &str) -> std::result::Result<String, String> {
    let module = rxla_hlo_text::parse_module(&format!(
        "HloModule m, frontend_attributes={{xla.sdy.meshes={}}}\nENTRY %e {{\n  ROOT %p = {shape} parameter(0), frontend_attributes={{xla.sdy.sharding={}}}\n}}\n",
        rxla_hlo_text::lexer::escape(meshes),
        rxla_hlo_text::lexer::escape(sharding)
    ))
    .map_err(|e| e.to_string())?;
    let meshes = Meshes::of_module(&module).map_err(|e| e.message)?;
    let inst = &module.computations[0].instructions[0];
    let s = meshes.sharding_of(inst).map_err(|e| e.message)?.ok_or("no sharding")?;
    Ok(crate::sharding::for_shape(&s, &inst.shape).to_string())
}

#[cfg(test)]
mod tests {
    use super::{convert, frontend_value};

    #[test]
    fn frontend_values() {
        let text = r##"{a="x", xla.sdy.meshes={mesh = #sdy.mesh<["data"=1]>}, xla.sdy.sharding="#sdy.sharding<@mesh, [{\"data\"}]>"}"##;
        assert_eq!(frontend_value(text, "xla.sdy.meshes").unwrap(), r#"{mesh = #sdy.mesh<["data"=1]>}"#);
        assert_eq!(frontend_value(text, "xla.sdy.sharding").unwrap(), r#"#sdy.sharding<@mesh, [{"data"}]>"#);
        assert_eq!(frontend_value(text, "sdy.meshes"), None);
        assert_eq!(frontend_value(text, "b"), None);
    }

    const MESH: &str = r#"{mesh = #sdy.mesh<["x"=2, "y"=4]>}"#;

    fn hlo(sharding: &str, shape: &str) -> String {
        convert(MESH, sharding, shape).unwrap()
    }

    #[test]
    fn dimension_shardings() {
        assert_eq!(hlo(r#"#sdy.sharding<@mesh, [{"x"}, {"y"}]>"#, "f32[8,8]"), "{devices=[2,4]<=[8]}");
        assert_eq!(hlo(r#"#sdy.sharding<@mesh, [{"y"}, {"x"}]>"#, "f32[8,8]"), "{devices=[4,2]<=[2,4]T(1,0)}");
        assert_eq!(hlo(r#"#sdy.sharding<@mesh, [{"x", "y"}, {}]>"#, "f32[8,8]"), "{devices=[8,1]<=[8]}");
        assert_eq!(hlo(r#"#sdy.sharding<@mesh, [{"y", "x"}, {?}]>"#, "f32[8,8]"), "{devices=[8,1]<=[2,4]T(1,0)}");
        // Axes on no dimension are a replicated group.
        assert_eq!(
            hlo(r#"#sdy.sharding<@mesh, [{"x"}, {}]>"#, "f32[8,8]"),
            "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"
        );
        assert_eq!(
            hlo(r#"#sdy.sharding<@mesh, [{}, {"y"}]>"#, "f32[8,8]"),
            "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"
        );
        assert_eq!(hlo(r#"#sdy.sharding<@mesh, [{}, {}], replicated={"x"}>"#, "f32[8,8]"), "{replicated}");
        assert_eq!(hlo(r#"#sdy.sharding<@mesh, [{"x"}p0, {"y", ?}p1]>"#, "f32[8,8]"), "{devices=[2,4]<=[8]}");
    }

    #[test]
    fn sub_axes_and_unreduced() {
        // "y":(1)2 is the major half of y, "y":(2)2 the minor half.
        assert_eq!(
            hlo(r#"#sdy.sharding<@mesh, [{"y":(2)2}, {"x"}]>"#, "f32[8,8]"),
            "{devices=[2,2,2]<=[4,2]T(1,0) last_tile_dim_replicate}"
        );
        assert_eq!(
            hlo(r#"#sdy.sharding<@mesh, [{"y":(1)2}, {}]>"#, "f32[8,8]"),
            "{devices=[2,1,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}"
        );
        assert_eq!(
            hlo(r#"#sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>"#, "f32[8,8]"),
            "{devices=[2,1,4]<=[8] last_tile_dims={unreduced}}"
        );
    }

    #[test]
    fn meshes_and_values() {
        assert_eq!(
            convert(r#"{mesh = #sdy.mesh<["data"=1]>}"#, r#"#sdy.sharding<@mesh, [{"data"}, {}]>"#, "f32[2,3]")
                .unwrap(),
            "{replicated}"
        );
        assert_eq!(
            convert(r#"{m = #sdy.mesh<[], device_ids=[3]>}"#, r#"#sdy.sharding<@m, []>"#, "f32[]").unwrap(),
            "{maximal device=3}"
        );
        assert_eq!(
            convert(r#"{mesh = #sdy.mesh<["x"=2], device_ids=[1, 0]>}"#, r#"#sdy.sharding<@mesh, [{"x"}]>"#, "f32[4]")
                .unwrap(),
            "{devices=[2]1,0}"
        );
        assert_eq!(
            hlo(r#"#sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{}, {"y"}]>]>"#, "(f32[4], f32[2,8])"),
            "{{devices=[2,4]<=[8] last_tile_dim_replicate}, {devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}}"
        );
        assert_eq!(hlo(r#"#sdy.sharding<mesh<["a"=2]>, [{"a"}]>"#, "f32[4]"), "{devices=[2]<=[2]}");
    }

    #[test]
    fn bad_shardings() {
        let err = |s: &str| convert(MESH, s, "f32[8,8]").unwrap_err();
        assert_eq!(
            err(r#"#sdy.sharding<@other, [{}, {}]>"#),
            "xla.sdy.sharding: mesh '@other' is not in xla.sdy.meshes"
        );
        assert_eq!(err(r#"#sdy.sharding<@mesh, [{"z"}, {}]>"#), "xla.sdy.sharding: no mesh axis 'z'");
        assert_eq!(err(r#"#sdy.sharding<@mesh, [{"x"}, {"x"}]>"#), "xla.sdy.sharding: mesh axis 'x' is used twice");
        assert_eq!(
            err(r#"#sdy.sharding<@mesh, [{"y":(3)2}, {}]>"#),
            "xla.sdy.sharding: sub-axis \"y\":(3)2 does not divide the axis of size 4"
        );
        assert_eq!(err(r#"#sdy.sharding<@mesh [{}]>"#), "xla.sdy.sharding: expects ',' at offset 20 (near '[{}]>')");
        assert_eq!(
            convert(r#"{m = #sdy.mesh<["a"=65536, "b"=65536]>}"#, r#"#sdy.sharding<@m, [{"a"}]>"#, "f32[4]")
                .unwrap_err(),
            "xla.sdy.meshes: the mesh has more than 2^31 devices"
        );
        assert_eq!(
            err(r#"#sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>"#),
            "xla.sdy.sharding: 2 shardings for one array"
        );
    }
}
