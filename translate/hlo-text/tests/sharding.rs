//! `sharding={...}`: every form XLA prints reads and prints back unchanged,
//! XLA's normalizations, and located errors for malformed shardings.

use rxla_hlo_text::ast::{AttrValue, Pos};
use rxla_hlo_text::attrs::*;

/// A value as the parser would make it, starting at 10:20.
fn v(text: &str) -> AttrValue {
    AttrValue { text: text.to_string(), pos: Pos { line: 10, col: 20 } }
}

fn read(text: &str) -> Sharding {
    sharding(&v(text)).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Reads `text` and prints its canonical form.
fn canonical(text: &str) -> String {
    read(text).canonical().to_string()
}

fn bad(text: &str, expected: &str) {
    match sharding(&v(text)) {
        Ok(s) => panic!("accepted {text}: {s:?}"),
        Err(e) => assert_eq!(e.to_string(), expected, "for {text}"),
    }
}

fn leaf(kind: LeafKind) -> LeafSharding {
    LeafSharding { kind, shard_group: None, metadata: None }
}

/// Texts as XLA prints them: each is its own canonical form.
const XLA_PRINTED: &[&str] = &[
    "{replicated}",
    "{manual}",
    "{unknown}",
    "{unreduced}",
    "{maximal device=3}",
    "{unknown shard_as 1}",
    "{replicated shard_like 7}",
    "{devices=[2,1,4]0,1,2,3,4,5,6,7}",
    "{devices=[2,1]1,0}",
    "{devices=[4,2]<=[8]}",
    "{devices=[2,4]<=[4,2]T(1,0)}",
    "{devices=[2,1,4]<=[8] last_tile_dim_replicate}",
    "{devices=[2,2]0,2,1,3 last_tile_dim_replicate}",
    "{devices=[2,1,2,2]<=[8] last_tile_dims={manual, replicated}}",
    "{devices=[1,2,4]<=[2,2,2]T(1,0,2) last_tile_dims={manual, replicated}}",
    "{devices=[4,1]<=[4] metadata={op_name=\"a\" source_line=3}}",
    "{maximal device=0 shard_as 2 metadata={op_name=\"b\"}}",
    "{{replicated}, {devices=[2]0,1}}",
    "{}",
    "{{replicated}, {manual}, {maximal device=1}, {replicated}, {replicated}, /*index=5*/{devices=[2]<=[2]}}",
];

#[test]
fn xla_printed_forms_round_trip() {
    for text in XLA_PRINTED {
        assert_eq!(read(text).to_string(), *text, "printed form");
        assert_eq!(canonical(text), *text, "canonical form");
    }
}

#[test]
fn structure() {
    assert_eq!(read("{replicated}"), Sharding::Leaf(leaf(LeafKind::Replicated)));
    assert_eq!(read("{maximal device=3}"), Sharding::Leaf(leaf(LeafKind::Maximal { device: 3 })));
    assert_eq!(
        read("{devices=[2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"),
        Sharding::Leaf(leaf(LeafKind::Tiled(Tiling {
            dims: vec![2, 4],
            devices: TileDevices::Iota { reshape_dims: vec![4, 2], transpose_perm: vec![1, 0] },
            last_tile_dims: vec![SubgroupType::Replicated],
        })))
    );
    assert_eq!(
        read("{devices=[2,1]1,0 last_tile_dims={manual}}"),
        Sharding::Leaf(leaf(LeafKind::Tiled(Tiling {
            dims: vec![2, 1],
            devices: TileDevices::List(vec![1, 0]),
            last_tile_dims: vec![SubgroupType::Manual],
        })))
    );
    let Sharding::Leaf(s) = read("{unknown shard_like 4 metadata={op_name=\"x\"}}") else { panic!() };
    assert_eq!(s.shard_group, Some(ShardGroup::Like(4)));
    assert_eq!(s.metadata.as_deref(), Some("{op_name=\"x\"}"));
    assert_eq!(
        read("{ {replicated} , {manual} }"),
        Sharding::Tuple(vec![leaf(LeafKind::Replicated), leaf(LeafKind::Manual)])
    );
    // Fields in any order, as XLA's parser takes them.
    assert_eq!(read("{device=2 maximal}"), read("{maximal device=2}"));
    assert_eq!(
        read("{last_tile_dim_replicate devices=[2,2]<=[4]}"),
        read("{devices=[2,2]<=[4] last_tile_dim_replicate}")
    );
}

#[test]
fn iota_dimensions_are_canonicalized() {
    // IotaTileAssignment::Create: drop 1s, merge dimensions kept in order.
    assert_eq!(canonical("{devices=[2,4]<=[2,4]T(0,1)}"), "{devices=[2,4]<=[8]}");
    assert_eq!(canonical("{devices=[8]<=[1,8,1]T(2,1,0)}"), "{devices=[8]<=[8]}");
    assert_eq!(canonical("{devices=[4,6]<=[3,4,2]T(1,2,0)}"), "{devices=[4,6]<=[3,8]T(1,0)}");
    assert_eq!(canonical("{devices=[2,3,4]<=[2,3,4]T(2,0,1)}"), "{devices=[2,3,4]<=[6,4]T(1,0)}");
    assert_eq!(canonical("{devices=[2,3,4]<=[2,3,4]T(2,1,0)}"), "{devices=[2,3,4]<=[2,3,4]T(2,1,0)}");
    assert_eq!(canonical("{devices=[6]<=[1,3,1,2,1,1]T(4,3,2,5,1,0)}"), "{devices=[6]<=[3,2]T(1,0)}");
    // An explicit list stays a list even when it is an iota (XLA's parser
    // builds an array tile assignment from it).
    assert_eq!(canonical("{devices=[4,2]0,1,2,3,4,5,6,7}"), "{devices=[4,2]0,1,2,3,4,5,6,7}");
}

#[test]
fn subgroups_are_normalized_as_xla_does() {
    // PartialTile: the whole tile grid replicating is {replicated}; a
    // replication group of 1 is no group.
    assert_eq!(canonical("{devices=[1,4]<=[4] last_tile_dim_replicate}"), "{replicated}");
    assert_eq!(canonical("{devices=[4]0,1,2,3 last_tile_dim_replicate}"), "{replicated}");
    assert_eq!(canonical("{devices=[4,1]<=[4] last_tile_dim_replicate}"), "{devices=[4]<=[4]}");
    assert_eq!(
        canonical("{devices=[2,2]<=[4] last_tile_dims={replicated}}"),
        "{devices=[2,2]<=[4] last_tile_dim_replicate}"
    );
    // Explicit groups are sorted.
    assert_eq!(
        canonical("{devices=[2,2]2,0,3,1 last_tile_dim_replicate}"),
        "{devices=[2,2]0,2,1,3 last_tile_dim_replicate}"
    );
    // An iota whose minor dimension spans several iota dimensions is split
    // so that each group reads in increasing order.
    assert_eq!(
        canonical("{devices=[2,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}"),
        "{devices=[2,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}"
    );
    assert_eq!(
        canonical("{devices=[2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"),
        "{devices=[2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"
    );
    assert_eq!(
        canonical("{devices=[4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"),
        "{devices=[4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"
    );
    assert_eq!(
        canonical("{devices=[2,4]<=[2,4]T(1,0) last_tile_dim_replicate}"),
        "{devices=[2,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}"
    );
    // Subgroup: one kind and no data tiling is the plain sharding.
    assert_eq!(canonical("{devices=[1,1,4]<=[4] last_tile_dims={manual}}"), "{manual}");
    assert_eq!(canonical("{devices=[1,2,2]<=[4] last_tile_dims={unreduced, unreduced}}"), "{unreduced}");
    // Size-1 subgroups are dropped and subgroups of one kind merged (a
    // reshape of the grid), then the rules above apply.
    assert_eq!(
        canonical("{devices=[2,1,4]<=[8] last_tile_dims={manual, replicated}}"),
        "{devices=[2,4]<=[8] last_tile_dim_replicate}"
    );
    assert_eq!(
        canonical("{devices=[2,2,2]<=[8] last_tile_dims={manual, manual}}"),
        "{devices=[2,4]<=[8] last_tile_dims={manual}}"
    );
    assert_eq!(
        canonical("{devices=[2,2,1,2]0,1,2,3,4,5,6,7 last_tile_dims={manual, unreduced, replicated}}"),
        "{devices=[2,2,2]0,1,2,3,4,5,6,7 last_tile_dims={manual, replicated}}"
    );
    assert_eq!(canonical("{devices=[4,1,1]<=[4] last_tile_dims={manual, replicated}}"), "{devices=[4]<=[4]}");
    // Out of XLA's kind order the devices are transposed into it.
    assert_eq!(
        canonical("{devices=[2,2,2]<=[8] last_tile_dims={replicated, manual}}"),
        "{devices=[2,2,2]<=[2,2,2]T(0,2,1) last_tile_dims={manual, replicated}}"
    );
    assert_eq!(
        canonical("{devices=[2,2,2]0,1,2,3,4,5,6,7 last_tile_dims={replicated, manual}}"),
        "{devices=[2,2,2]0,2,1,3,4,6,5,7 last_tile_dims={manual, replicated}}"
    );
    assert_eq!(
        canonical("{devices=[2,3,2]<=[2,2,3]T(0,2,1) last_tile_dims={replicated, manual}}"),
        "{devices=[2,2,3]<=[12] last_tile_dims={manual, replicated}}"
    );
    // Metadata and shard groups survive normalization.
    assert_eq!(canonical("{devices=[1,4]<=[4] last_tile_dim_replicate shard_as 3}"), "{replicated shard_as 3}");
}

#[test]
fn tuple_normalization() {
    let single = read("{maximal device=1}");
    assert_eq!(single.clone().for_tuple_leaves(None), single);
    assert_eq!(single.clone().for_tuple_leaves(Some(2)).to_string(), "{{maximal device=1}, {maximal device=1}}");
    assert_eq!(single.for_tuple_leaves(Some(0)).to_string(), "{{maximal device=1}}");
    let tuple = read("{{replicated}, {manual}}");
    assert_eq!(tuple.clone().for_tuple_leaves(Some(2)), tuple);
}

#[test]
fn device_lists() {
    let tiling = |text: &str| match read(text) {
        Sharding::Leaf(LeafSharding { kind: LeafKind::Tiled(t), .. }) => t,
        other => panic!("{other:?}"),
    };
    assert_eq!(device_list(&tiling("{devices=[2,4]<=[4,2]T(1,0)}")), Some(vec![0, 2, 4, 6, 1, 3, 5, 7]));
    assert_eq!(device_list(&tiling("{devices=[2]1,0}")), Some(vec![1, 0]));
}

#[test]
fn malformed_shardings_are_located() {
    bad("replicated", "10:20: error: expects '{' to start the sharding (at 'replicated')");
    bad("{replicated", "10:31: error: expects a sharding field or '}' (at end of input)");
    bad("{bogus}", "10:21: error: unknown sharding field: expects replicated, manual, unknown, unreduced, maximal, device=, devices=, last_tile_dim_replicate, last_tile_dims=, shard_as, shard_like or metadata= (at 'bogus')");
    bad("{replicated manual}", "10:20: error: a sharding is one of replicated, manual, unknown, unreduced or maximal, not replicated and manual (at '{')");
    bad("{replicated replicated}", "10:32: error: 'replicated' given twice in one sharding (at 'replicated')");
    bad("{maximal}", "10:20: error: a maximal sharding needs device=N (at '{')");
    bad("{maximal device=-1}", "10:36: error: device ids are not negative (at '-1')");
    bad("{device=1}", "10:20: error: device= belongs to a maximal sharding: {maximal device=N} (at '{')");
    bad("{replicated devices=[2]0,1}", "10:20: error: replicated shardings have no devices assigned (at '{')");
    bad("{devices=[2,2]0,1,2}", "10:34: error: 3 device ids for 4 tiles (at '0')");
    bad("{devices=[2]0,0}", "10:32: error: the device ids must be 0..1 each once (at '0')");
    bad("{devices=[2]0,2}", "10:32: error: the device ids must be 0..1 each once (at '0')");
    bad("{devices=[1]0}", "10:32: error: a tiled sharding needs more than one device; use {maximal device=N} (at '0')");
    bad("{devices=[0,2]0}", "10:29: error: tile dimensions must be a non-empty list of positive sizes (at '[')");
    bad("{devices=[4,2]<=[6]}", "10:36: error: iota dimensions must be positive and multiply to the 8 tiles (at '[')");
    bad("{devices=[4,2]<=[4,2]}", "10:41: error: expects T(...) after several iota dimensions (at '}')");
    bad("{devices=[4,2]<=[4,2]T(1,1)}", "10:42: error: expects a permutation of the iota dimensions (at '(')");
    bad(
        "{devices=[4]<=[4] last_tile_dims={bogus}}",
        "10:54: error: expects manual, replicated, unreduced or maximal (at 'bogus')",
    );
    bad(
        "{devices=[4]<=[4] last_tile_dims={manual, replicated}}",
        "10:20: error: 2 trailing tile dimensions (last_tile_dims) but only 1 tile dimensions (at '{')",
    );
    bad(
        "{devices=[2,2]<=[4] last_tile_dim_replicate last_tile_dims={manual}}",
        "10:64: error: last_tile_dim_replicate and last_tile_dims given together or twice (at 'last_tile_dims')",
    );
    bad(
        "{{replicated}, replicated}",
        "10:35: error: expects '{' to start a tuple element's sharding (at 'replicated')",
    );
    bad("{{replicated}} x", "10:35: error: unexpected text after the attribute value (at 'x')");
    bad("{replicated metadata=op}", "10:41: error: expects '{' to start the sharding's metadata (at 'op')");
    bad("{unknown shard_as x}", "10:38: error: expects a shard group id (at 'x')");
}

/// Every truncation and every one-character deletion or duplication of
/// the printed forms is read without a panic, and whatever reads
/// normalizes and prints without one (the reader's contract, as for the
/// fuzzed parser).
#[test]
fn mutations_never_panic() {
    let mut accepted = 0;
    for text in XLA_PRINTED {
        let chars: Vec<char> = text.chars().collect();
        let mut variants = Vec::new();
        for i in 0..chars.len() {
            variants.push(chars[..i].iter().collect::<String>());
            variants.push(chars[..i].iter().chain(&chars[i + 1..]).collect::<String>());
            variants.push(chars[..=i].iter().chain(&chars[i..]).collect::<String>());
        }
        for variant in variants {
            if let Ok(s) = sharding(&v(&variant)) {
                accepted += 1;
                let _ = s.canonical().to_string();
                let _ = s.clone().for_tuple_leaves(Some(2)).to_string();
            }
        }
    }
    // Some mutations stay valid (`shard_as 1` -> `shard_as 11`, `device=3`
    // -> `device=33`); most do not.
    assert!(accepted > 0);
}

/// The normalizations move devices only as XLA's do: every device keeps
/// its data tile, and the replication groups hold the same devices.
#[test]
fn normalization_keeps_tiles_and_groups() {
    let groups = |text: &str| -> Vec<(Vec<i64>, Vec<i64>)> {
        // (data tile index, sorted devices of the tile) for each data tile.
        let Sharding::Leaf(LeafSharding { kind: LeafKind::Tiled(t), .. }) = read(text).canonical() else { panic!() };
        let ids = device_list(&t).unwrap();
        let data_rank = t.dims.len() - t.last_tile_dims.len();
        let per_tile: usize = t.dims[data_rank..].iter().product::<i64>() as usize;
        let mut out: Vec<(Vec<i64>, Vec<i64>)> = ids
            .chunks(per_tile)
            .enumerate()
            .map(|(k, c)| {
                let mut c = c.to_vec();
                c.sort();
                (vec![k as i64], c)
            })
            .collect();
        out.sort();
        out
    };
    for (text, expanded) in [
        (
            "{devices=[2,2,2]<=[8] last_tile_dims={replicated, manual}}",
            "{devices=[2,4]0,1,2,3,4,5,6,7 last_tile_dim_replicate}",
        ),
        (
            "{devices=[2,3,2]<=[2,2,3]T(0,2,1) last_tile_dims={replicated, manual}}",
            "{devices=[2,6]0,3,1,4,2,5,6,9,7,10,8,11 last_tile_dim_replicate}",
        ),
        (
            "{devices=[2,4]<=[2,4]T(1,0) last_tile_dim_replicate}",
            "{devices=[2,4]0,4,1,5,2,6,3,7 last_tile_dim_replicate}",
        ),
    ] {
        assert_eq!(groups(text), groups(expanded), "{text}");
    }
}
