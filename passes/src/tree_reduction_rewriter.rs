//! `tree-reduction-rewriter`: a reduction of a few long rows becomes two
//! reductions, as XLA's GPU TreeReductionRewriter does, so that the
//! emitters can spread it over many workgroups (CPU cores) or blocks.
//!
//! The reduction emitters parallelize over output elements (a workgroup
//! or block owns some rows). A reduce of `[K, R]` over `R` with few rows
//! `K` and long rows therefore runs on `K` workgroups at most: a sum of
//! squares over a 16M-element embedding gradient (the global norm of every
//! optax training step) ran on one core. The pass splits the row into
//! `n` chunks of `m` elements (`m` the power of two nearest `sqrt(R)`,
//! the row padded with the init value to `n * m`):
//!
//! ```text
//! reduce(x: [K, R], dims={1})
//!   -> reduce(reduce(reshape(pad(x, init): [K, n*m]) : [K, n, m], dims={2}) : [K, n], dims={1})
//! ```
//!
//! The first reduce has `K * n` outputs to spread; the second is small.
//!
//! Semantics: XLA's reduce lets backends reassociate and requires the init
//! value to be an identity of the reducer, so applying it once per chunk
//! and padding with it is allowed; the float results can change by
//! rounding (the pass is not exact). rxla only rewrites reduces whose
//! init value is one: a constant `0` for `add` and `xor`, `1` for
//! `multiply`, and any constant for the idempotent `maximum`, `minimum`,
//! `and` and `or` (applying those twice changes nothing), with a reducer
//! that is that single op of its two parameters. Variadic reduces,
//! reductions over other than the minor dimension (run
//! `reduction-dimension-grouper` first: a full reduction is then over the
//! one dimension of a rank-1 input), non-default layouts and fusion
//! computations are left alone.
//!
//! Options: `min-row-length` (default 32768: shorter rows stay one
//! reduce) and `max-rows` (default 64: with more rows the emitters already
//! have enough to spread).

use crate::algsimp::reducer_binary_op;
use crate::constant::{splat, Scalar};
use melior::ir::OperationRef;
use rxla_ir::layout::layout_of;
use rxla_ir::{
    builder::Builder,
    computation,
    op::Op,
    pass::{HloPass, PassError, PassOptions},
};

#[derive(Clone, Debug)]
pub struct TreeReductionRewriter {
    min_row_length: i64,
    max_rows: i64,
}

impl HloPass for TreeReductionRewriter {
    const NAME: &'static str = "tree-reduction-rewriter";
    const DESCRIPTION: &'static str = "Split reductions of a few long rows into two reductions that parallelize";
    // The chunks' partial results are combined in another order.
    const EXACT: bool = false;

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &["min-row-length", "max-rows"])?;
        let min_row_length = options.int("min-row-length", 32768)?;
        let max_rows = options.int("max-rows", 64)?;
        if min_row_length < 4 || max_rows < 1 {
            return Err(PassError(format!(
                "{}: min-row-length must be at least 4 and max-rows at least 1 (got {min_row_length}, {max_rows})",
                Self::NAME
            )));
        }
        Ok(Self { min_row_length, max_rows })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        let this = self.clone();
        computation::for_each_op(module, "reduce", |op| this.split(op))
    }
}

/// The chunk length for a row of `r` elements: the power of two nearest
/// `sqrt(r)` (so both reductions have about `sqrt(r)` elements per output).
pub fn chunk_length(r: i64) -> i64 {
    let root = (r as f64).sqrt();
    let lower = 1i64 << (root.log2().floor() as u32);
    if (root - lower as f64) <= (2 * lower) as f64 - root {
        lower
    } else {
        2 * lower
    }
}

/// True if applying the reduce's init value more than once (once per
/// chunk, and as padding) cannot change the result.
fn init_is_identity(reduce: Op) -> bool {
    let Some((opcode, _)) = reducer_binary_op(reduce, "to_apply") else { return false };
    let Some(init) = splat(reduce.operand(1)) else { return false };
    let is = |x: f64| match init {
        Scalar::Float(f) => f == x,
        Scalar::Int(i) => i as f64 == x,
        Scalar::Bool(b) => (b as i64) as f64 == x,
    };
    match opcode.as_str() {
        "maximum" | "minimum" | "and" | "or" => true,
        "add" | "xor" => is(0.0),
        "multiply" => is(1.0),
        _ => false,
    }
}

impl TreeReductionRewriter {
    /// Rewrites one reduce; false if it is left alone.
    fn split(&self, reduce: Op) -> Result<bool, PassError> {
        if reduce.num_operands() != 2 || reduce.num_results() != 1 {
            return Ok(false);
        }
        let x = reduce.operand(0);
        let Some(t) = x.ty().into_tensor() else { return Ok(false) };
        let Some(dims) = reduce.dims_attr("dimensions") else { return Ok(false) };
        let rank = t.rank() as i64;
        if rank == 0 || dims != [rank - 1] || t.dims.iter().any(|&d| d < 0) {
            return Ok(false);
        }
        if !layout_of(x).is_default() || !layout_of(reduce.result(0)).is_default() {
            return Ok(false);
        }
        let r = t.dims[(rank - 1) as usize];
        let rows: i64 = t.dims[..(rank - 1) as usize].iter().product();
        if r < self.min_row_length || rows > self.max_rows || !init_is_identity(reduce) {
            return Ok(false);
        }
        let Some(to_apply) = reduce.symbol_attr("to_apply") else { return Ok(false) };
        let m = chunk_length(r);
        let n = (r + m - 1) / m;
        let b = Builder::before(reduce).at_location_of(reduce);
        let init = reduce.operand(1);
        let mut padded = x;
        if n * m != r {
            let mut high = vec![0; rank as usize];
            high[(rank - 1) as usize] = n * m - r;
            let zeros = vec![0; rank as usize];
            padded = b.pad(x, init, &zeros, &high, &zeros)?;
        }
        let mut split_dims = t.dims[..(rank - 1) as usize].to_vec();
        split_dims.extend([n, m]);
        let split = b.reshape(padded, &split_dims)?;
        let partial = b.reduce(&[split], &[init], &[rank], &to_apply)?[0];
        let total = b.reduce(&[partial], &[init], &[rank - 1], &to_apply)?[0];
        reduce.replace_result_uses(0, total);
        reduce.erase();
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::chunk_length;

    #[test]
    fn chunks_are_powers_of_two_near_the_square_root() {
        assert_eq!(chunk_length(1 << 20), 1024);
        assert_eq!(chunk_length(32128 * 512), 4096);
        assert_eq!(chunk_length(40000), 256); // sqrt 200: 256 is nearer than 128
        assert_eq!(chunk_length(32768), 128); // sqrt 181: 128 is nearer than 256
    }
}
