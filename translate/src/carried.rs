//! Instruction attributes rxla does not interpret but keeps verbatim: the
//! HLO text keyword and the `hlo.*` string attribute that carries it. One
//! table for both directions (the dialect's attribute verifier accepts
//! these names). `sharding` is not here: it is the typed `#hlo.sharding`
//! (crate::sharding).

pub const CARRIED: &[(&str, &str)] = &[
    ("metadata", "hlo.metadata"),
    ("frontend_attributes", "hlo.frontend_attributes"),
    ("backend_config", "hlo.backend_config"),
    ("control-predecessors", "hlo.control_predecessors"),
    ("statistics_viz", "hlo.statistics_viz"),
    ("original_value", "hlo.original_value"),
];

/// The MLIR attribute name carrying HLO keyword `hlo`.
pub fn mlir_name(hlo: &str) -> Option<&'static str> {
    CARRIED.iter().find(|(h, _)| *h == hlo).map(|(_, m)| *m)
}

/// The HLO keyword carried by MLIR attribute `mlir`.
pub fn hlo_name(mlir: &str) -> Option<&'static str> {
    CARRIED.iter().find(|(_, m)| *m == mlir).map(|(h, _)| *h)
}
