// The `example` dialect, defined in IRDL: no C++ and no TableGen. rxla's
// opt driver loads it into every context (Registry::with_irdl_dialects);
// its ops print in MLIR's generic form and are verified against these
// constraints.
irdl.dialect @example {
  // `"example.double"(%x) : (T) -> T`: x + x.
  irdl.operation @double {
    %t = irdl.any
    irdl.operands(input: %t)
    irdl.results(output: %t)
  }
}
