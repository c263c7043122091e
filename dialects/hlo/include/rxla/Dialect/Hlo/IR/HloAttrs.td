//===- HloAttrs.td - hlo dialect structured attributes -------*- tablegen -*-===//
//
// Typed attributes for HLO's structured instruction attributes. Parameter
// names follow XLA's HLO text keywords so that the text format maps 1:1.
//
//===----------------------------------------------------------------------===//

#ifndef RXLA_DIALECT_HLO_IR_HLOATTRS_TD
#define RXLA_DIALECT_HLO_IR_HLOATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "rxla/Dialect/Hlo/IR/HloBase.td"
include "rxla/Dialect/Hlo/IR/HloEnums.td"

// A list of dimension numbers, written `[0, 1]`.
class Hlo_DimsParameter<string desc = "">
    : OptionalArrayRefParameter<"int64_t", desc> {
  let parser = "::rxla::hlo::parseDimList($_parser)";
  let printer = "::rxla::hlo::printDimList($_printer, $_self)";
}
class Hlo_RequiredDimsParameter<string desc = "">
    : ArrayRefParameter<"int64_t", desc> {
  let parser = "::rxla::hlo::parseDimList($_parser)";
  let printer = "::rxla::hlo::printDimList($_printer, $_self)";
}

class Hlo_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Hlo_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Hlo_DotDimensionNumbersAttr : Hlo_Attr<"DotDimensionNumbers", "dot"> {
  let summary = "batch and contracting dimensions of hlo.dot";
  let parameters = (ins
    Hlo_DimsParameter<>:$lhs_batch_dims,
    Hlo_DimsParameter<>:$rhs_batch_dims,
    Hlo_DimsParameter<>:$lhs_contracting_dims,
    Hlo_DimsParameter<>:$rhs_contracting_dims
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def Hlo_GatherDimensionNumbersAttr : Hlo_Attr<"GatherDimensionNumbers", "gather"> {
  let summary = "dimension numbers of hlo.gather";
  let parameters = (ins
    Hlo_DimsParameter<>:$offset_dims,
    Hlo_DimsParameter<>:$collapsed_slice_dims,
    Hlo_DimsParameter<>:$operand_batching_dims,
    Hlo_DimsParameter<>:$start_indices_batching_dims,
    Hlo_DimsParameter<>:$start_index_map,
    "int64_t":$index_vector_dim
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def Hlo_ScatterDimensionNumbersAttr : Hlo_Attr<"ScatterDimensionNumbers", "scatter"> {
  let summary = "dimension numbers of hlo.scatter";
  let parameters = (ins
    Hlo_DimsParameter<>:$update_window_dims,
    Hlo_DimsParameter<>:$inserted_window_dims,
    Hlo_DimsParameter<>:$input_batching_dims,
    Hlo_DimsParameter<>:$scatter_indices_batching_dims,
    Hlo_DimsParameter<>:$scatter_dims_to_operand_dims,
    "int64_t":$index_vector_dim
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def Hlo_ConvDimensionNumbersAttr : Hlo_Attr<"ConvDimensionNumbers", "conv"> {
  let summary = "dimension numbers (dim_labels) of hlo.convolution";
  let description = [{
    The roles of the dimensions of the input (lhs), kernel (rhs) and output,
    i.e. what XLA's text spells as `dim_labels=b01f_01io->b01f`.
  }];
  let parameters = (ins
    "int64_t":$input_batch_dim,
    "int64_t":$input_feature_dim,
    Hlo_DimsParameter<>:$input_spatial_dims,
    "int64_t":$kernel_input_feature_dim,
    "int64_t":$kernel_output_feature_dim,
    Hlo_DimsParameter<>:$kernel_spatial_dims,
    "int64_t":$output_batch_dim,
    "int64_t":$output_feature_dim,
    Hlo_DimsParameter<>:$output_spatial_dims
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def Hlo_WindowAttr : Hlo_Attr<"Window", "window"> {
  let summary = "window of reduce-window, select-and-scatter and convolution";
  let description = [{
    One entry per windowed dimension. Omitted lists take XLA's defaults:
    stride 1, no padding, dilations 1, no reversal.
  }];
  let parameters = (ins
    Hlo_DimsParameter<>:$size,
    Hlo_DimsParameter<>:$stride,
    Hlo_DimsParameter<>:$pad_low,
    Hlo_DimsParameter<>:$pad_high,
    Hlo_DimsParameter<>:$lhs_dilation,
    Hlo_DimsParameter<>:$rhs_dilation,
    Hlo_DimsParameter<>:$reversal
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Hlo_IndexGroupsAttr : Hlo_Attr<"IndexGroups", "groups"> {
  let summary = "list of index groups: replica groups or source-target pairs";
  let description = [{
    The explicit list form of XLA's replica groups (`{{0,1},{2,3}}`) and of
    collective-permute's source-target pairs (`{{0,1},{1,0}}`), printed as
    `#hlo.groups<[[0, 1], [2, 3]]>`.
  }];
  let parameters = (ins "::mlir::ArrayAttr":$groups);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// The groups as vectors of ids.
    ::llvm::SmallVector<::llvm::SmallVector<int64_t>> getGroupList() const;
  }];
}

def Hlo_IotaReplicaGroupsAttr : Hlo_Attr<"IotaReplicaGroups", "iota_groups"> {
  let summary = "replica groups in XLA's compact iota form";
  let description = [{
    `[4,2]<=[2,4]T(1,0)` in HLO text: the groups are the rows of
    `iota(reshape_dims).transpose(transpose).reshape(group_shape)`.
  }];
  let parameters = (ins
    Hlo_RequiredDimsParameter<>:$group_shape,
    Hlo_RequiredDimsParameter<>:$reshape_dims,
    Hlo_DimsParameter<>:$transpose
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Hlo_ReplicaGroups : AnyAttrOf<[Hlo_IndexGroupsAttr, Hlo_IotaReplicaGroupsAttr]>;

def Hlo_LayoutAttr : Hlo_Attr<"Layout", "layout"> {
  let summary = "physical layout of an array (XLA's `{1,0:T(8,128)S(1)}`)";
  let parameters = (ins
    Hlo_DimsParameter<>:$minor_to_major,
    OptionalParameter<"::mlir::ArrayAttr", "tiles, each a DenseI64ArrayAttr; -1 is `*`">:$tiles,
    DefaultValuedParameter<"int64_t", "0">:$element_size_in_bits,
    DefaultValuedParameter<"int64_t", "0">:$memory_space,
    OptionalParameter<"::mlir::StringAttr", "the layout text XLA keeps but rxla does not interpret (index/pointer types, dynamic metadata)">:$extra
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def Hlo_OutputOperandAliasAttr : Hlo_Attr<"OutputOperandAlias", "output_operand_alias"> {
  let summary = "one entry of custom-call's output_to_operand_aliasing";
  let parameters = (ins
    Hlo_DimsParameter<>:$output_tuple_indices,
    "int64_t":$operand_index,
    Hlo_DimsParameter<>:$operand_tuple_indices
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def Hlo_ResultAccuracyAttr : Hlo_Attr<"ResultAccuracy", "result_accuracy"> {
  let summary = "requested accuracy of a transcendental op";
  let parameters = (ins
    "::rxla::hlo::ResultAccuracyModeAttr":$mode,
    OptionalParameter<"::mlir::FloatAttr">:$atol,
    OptionalParameter<"::mlir::FloatAttr">:$rtol,
    DefaultValuedParameter<"int64_t", "0">:$ulps
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def Hlo_ShardingAttr : Hlo_Attr<"Sharding", "sharding"> {
  let summary = "how a value is split across devices (XLA's HloSharding)";
  let description = [{
    The `hlo.sharding` of an op's result or of a computation parameter, as
    XLA's `sharding={...}`. One of:

    | HLO text | `#hlo.sharding<...>` |
    |---|---|
    | `{replicated}`, `{manual}`, `{unknown}`, `{unreduced}` | `replicated`, `manual`, `unknown`, `unreduced` |
    | `{maximal device=3}` | `maximal device = 3` |
    | `{devices=[2,1,4]0,1,2,3,4,5,6,7}` | `devices = [2, 1, 4] [0, 1, 2, 3, 4, 5, 6, 7]` |
    | `{devices=[2,4]<=[4,2]T(1,0)}` | `devices = [2, 4] iota [4, 2] T(1, 0)` |
    | `... last_tile_dim_replicate` | `..., last_tile_dims = [replicated]` |
    | `... last_tile_dims={manual, replicated}` | `..., last_tile_dims = [manual, replicated]` |
    | `{{replicated}, {devices=[2]0,1}}` | `tuple [<replicated>, <devices = [2] [0, 1]>]` |
    | `... shard_as 1`, `... shard_like 1` | `..., shard_as = 1`, `..., shard_like = 1` |
    | `... metadata={op_name="a"}` | `..., metadata = "{op_name=\"a\"}"` (kept verbatim) |

    `devices` is the tile grid: one entry per array dimension, then one per
    `last_tile_dims` entry. The device of each tile (row-major) is either
    listed or `iota(n)` reshaped to the `iota` dimensions and transposed by
    `T(...)` (XLA's compact "V2" form; `<=` is not MLIR attribute syntax).
    Each device appears once. Checked against the annotated type by the
    dialect: the grid minus the `last_tile_dims` has the array's rank, a
    tuple has one element per leaf, tokens take any sharding.
  }];
  let parameters = (ins
    "::rxla::hlo::ShardingKind":$kind,
    OptionalArrayRefParameter<"int64_t", "tile grid: array dimensions, then subgroup dimensions">:$tile_dims,
    OptionalArrayRefParameter<"int64_t", "listed device of each tile (row-major); maximal: the one device">:$devices,
    OptionalArrayRefParameter<"int64_t", "iota form: the dimensions iota(n) is reshaped to">:$iota_reshape_dims,
    OptionalArrayRefParameter<"int64_t", "iota form: the transpose applied after the reshape">:$iota_transpose_perm,
    OptionalArrayRefParameter<"::rxla::hlo::ShardingSubgroup", "kinds of the trailing subgroup tile dimensions">:$last_tile_dims,
    OptionalParameter<"::mlir::ArrayAttr", "tuple: one non-tuple #hlo.sharding per leaf">:$tuple_elements,
    OptionalParameter<"std::optional<int64_t>", "shard_as group id">:$shard_as,
    OptionalParameter<"std::optional<int64_t>", "shard_like group id">:$shard_like,
    OptionalParameter<"::mlir::StringAttr", "XLA's metadata={...} text, kept verbatim">:$metadata
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The device of every tile in row-major order (an iota materialized).
    ::llvm::SmallVector<int64_t> getDeviceList() const;
    /// Checks this sharding against the type of the value it annotates;
    /// `what` names the value in the diagnostics.
    ::mlir::LogicalResult verifyForType(
        ::mlir::Type type, ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError,
        ::llvm::StringRef what) const;
  }];
}

#endif // RXLA_DIALECT_HLO_IR_HLOATTRS_TD
