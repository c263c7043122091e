// RUN: hlo-opt %s --split-input-file --verify-diagnostics

// Invalid #hlo.sharding: the attribute's own checks (HloAttrs.cpp) and the
// checks against the type it annotates (HloDialect.cpp), on op results and
// on computation parameters.

func.func @device_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{tile dimensions [2, 2] have 4 tiles but 3 devices are listed}}
  %0 = hlo.negate %x {hlo.sharding = #hlo.sharding<devices = [2, 2] [0, 1, 2]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @not_a_permutation(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{the listed devices must be 0..3 each once}}
  %0 = hlo.negate %x {hlo.sharding = #hlo.sharding<devices = [4] [0, 1, 1, 3]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @iota_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{iota dimensions [2, 4] do not multiply to the 4 tiles}}
  %0 = hlo.negate %x {hlo.sharding = #hlo.sharding<devices = [4] iota [2, 4] T(1, 0)>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @iota_transpose(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{iota transpose [0, 0] is not a permutation of the iota dimensions}}
  %0 = hlo.negate %x {hlo.sharding = #hlo.sharding<devices = [4] iota [2, 2] T(0, 0)>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @negative_device(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{maximal sharding device must be non-negative, got -1}}
  %0 = hlo.negate %x {hlo.sharding = #hlo.sharding<maximal device = -1>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @zero_tile(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{tile dimensions must be positive, got 0}}
  %0 = hlo.negate %x {hlo.sharding = #hlo.sharding<devices = [0] [0]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @too_many_subgroups(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{2 last_tile_dims but only 1 tile dimensions}}
  %0 = hlo.negate %x {hlo.sharding = #hlo.sharding<devices = [4] iota [4], last_tile_dims = [manual, replicated]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @both_groups(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{a sharding has shard_as or shard_like, not both}}
  %0 = hlo.negate %x {hlo.sharding = #hlo.sharding<replicated, shard_as = 1, shard_like = 2>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @nested_tuple(%x: tensor<4xf32>) -> tuple<tensor<4xf32>> {
  // expected-error @+1 {{tuple sharding element 0 must be a non-tuple #hlo.sharding}}
  %0 = hlo.tuple %x {hlo.sharding = #hlo.sharding<tuple [<tuple [<replicated>]>]>} : (tensor<4xf32>) -> tuple<tensor<4xf32>>
  return %0 : tuple<tensor<4xf32>>
}

// -----

func.func @bad_keyword(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected replicated, manual, unknown, unreduced, maximal, devices or tuple}}
  %0 = hlo.negate %x {hlo.sharding = #hlo.sharding<everywhere>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bad_field(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected last_tile_dims, shard_as, shard_like or metadata}}
  %0 = hlo.negate %x {hlo.sharding = #hlo.sharding<replicated, color = 1>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Against the annotated type.

func.func @rank(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'hlo.negate' op hlo.sharding of the result tiles 1 array dimensions (devices = [4, 2] with 1 last_tile_dims) but the value has rank 2}}
  %0 = hlo.negate %x {hlo.sharding = #hlo.sharding<devices = [4, 2] iota [8], last_tile_dims = [replicated]>} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @single_device(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.negate' op hlo.sharding of the result tiles over a single device; write replicated or maximal device = N}}
  %0 = hlo.negate %x {hlo.sharding = #hlo.sharding<devices = [1] iota [1]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @tuple_leaves(%x: tensor<4xf32>) -> tuple<tensor<4xf32>, tuple<tensor<4xf32>>> {
  %0 = hlo.tuple %x : (tensor<4xf32>) -> tuple<tensor<4xf32>>
  // expected-error @+1 {{'hlo.tuple' op hlo.sharding of the result has 1 tuple elements but the value has 2 leaves}}
  %1 = hlo.tuple %x, %0 {hlo.sharding = #hlo.sharding<tuple [<replicated>]>} : (tensor<4xf32>, tuple<tensor<4xf32>>) -> tuple<tensor<4xf32>, tuple<tensor<4xf32>>>
  return %1 : tuple<tensor<4xf32>, tuple<tensor<4xf32>>>
}

// -----

func.func @tuple_element_rank(%x: tensor<4xf32>) -> tuple<tensor<4xf32>> {
  // expected-error @+1 {{'hlo.tuple' op hlo.sharding of the result element 0 tiles 2 array dimensions (devices = [2, 2] with 0 last_tile_dims) but the value has rank 1}}
  %0 = hlo.tuple %x {hlo.sharding = #hlo.sharding<tuple [<devices = [2, 2] iota [4]>]>} : (tensor<4xf32>) -> tuple<tensor<4xf32>>
  return %0 : tuple<tensor<4xf32>>
}

// -----

func.func @single_on_tuple(%x: tensor<4xf32>) -> tuple<tensor<4xf32>> {
  // expected-error @+1 {{'hlo.tuple' op hlo.sharding of the result of a tuple with 1 leaves must be a tuple sharding (one element per leaf)}}
  %0 = hlo.tuple %x {hlo.sharding = #hlo.sharding<replicated>} : (tensor<4xf32>) -> tuple<tensor<4xf32>>
  return %0 : tuple<tensor<4xf32>>
}

// -----

func.func @tuple_on_array(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.negate' op hlo.sharding of the result is a tuple sharding but the value is not a tuple: 'tensor<4xf32>'}}
  %0 = hlo.negate %x {hlo.sharding = #hlo.sharding<tuple [<replicated>]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @not_a_sharding(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.sharding' must be a #hlo.sharding attribute}}
  %0 = hlo.negate %x {hlo.sharding = "{replicated}"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The error is at the argument.
// expected-error @+1 {{hlo.sharding of argument 1 of 'func.func' tiles 1 array dimensions (devices = [2] with 0 last_tile_dims) but the value has rank 0}}
func.func @parameter(%x: tensor<4xf32>, %y: tensor<f32> {hlo.sharding = #hlo.sharding<devices = [2] iota [2]>}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{hlo.sharding of argument 0 of 'func.func' is a tuple sharding but the value is not a tuple: 'tensor<f32>'}}
func.func private @declaration(tensor<f32> {hlo.sharding = #hlo.sharding<tuple []>}) -> tensor<f32>

// -----

// expected-error @+1 {{'hlo.sharding' must be a #hlo.sharding attribute}}
func.func @parameter_type(%x: tensor<4xf32> {hlo.sharding = "{replicated}"}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
