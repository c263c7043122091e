//! `xla-lower-shuffles`: `xla_gpu.shuffle_reduce` becomes warp shuffles
//! (`nvvm.shfl.sync down`) and calls of its combiner (XLA's
//! `lower_xla_gpu_to_scf`): for each distance `d` = `max_distance`,
//! `max_distance / 2`, ..., 1, every value is shuffled down by `d` lanes
//! and combined with the lane's own values.
//!
//! A shuffle moves 32 bits: 32-bit values are shuffled as they are (bit
//! cast through `i32`), narrower ones widened to 32 bits, 64-bit ones split
//! into two halves, complex numbers part by part.

use crate::ir::*;
use melior::ir::OperationRef;
use mlir_sys::MlirType;
use rxla_ir::pass::{HloPass, PassError, PassOptions};

#[derive(Clone, Debug)]
pub struct LowerShuffles;

impl HloPass for LowerShuffles {
    const NAME: &'static str = "xla-lower-shuffles";
    const DESCRIPTION: &'static str = "Lower xla_gpu.shuffle_reduce to NVVM warp shuffles (down) and combiner calls";

    fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
        use melior::dialect::DialectHandle;
        vec![DialectHandle::arith(), DialectHandle::func(), DialectHandle::llvm()]
    }

    fn from_options(options: &PassOptions) -> std::result::Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(LowerShuffles)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> std::result::Result<(), PassError> {
        let root = Op::of(&module);
        crate::lower_tensors::load_nvvm(root);
        for op in ops_named(root, "xla_gpu.shuffle_reduce") {
            lower(op)?;
        }
        Ok(())
    }
}

/// `value` shuffled down by `distance` lanes.
fn shuffle_down(b: &B, value: Value, distance: Value) -> Result<Value> {
    let ty = value.raw_type();
    let i32t = b.int(32);
    let mask = b.const_int(i32t, -1);
    let clamp = b.const_int(i32t, 31);
    let shfl = |v: Value| -> Value {
        b.val("nvvm.shfl.sync", &[mask, v, distance, clamp], i32t, &[("kind", b.shfl_kind("down"))])
    };
    if is_complex(ty) {
        let part = complex_element(ty);
        let re = b.val("complex.re", &[value], part, &[]);
        let im = b.val("complex.im", &[value], part, &[]);
        let (re, im) = (shuffle_down(b, re, distance)?, shuffle_down(b, im, distance)?);
        return Ok(b.val("complex.create", &[re, im], ty, &[]));
    }
    let bits = bit_width(ty);
    let int = b.int(bits.max(1));
    let as_int = if is_integer(ty) { value } else { b.val("arith.bitcast", &[value], int, &[]) };
    let shuffled = match bits {
        32 => shfl(as_int),
        1..=31 => {
            let wide = b.val("arith.extui", &[as_int], i32t, &[]);
            let s = shfl(wide);
            b.val("arith.trunci", &[s], int, &[])
        }
        64 => {
            let i64t = b.int(64);
            let lo = b.val("arith.trunci", &[as_int], i32t, &[]);
            let c32 = b.const_int(i64t, 32);
            let hi64 = b.val("arith.shrui", &[as_int, c32], i64t, &[]);
            let hi = b.val("arith.trunci", &[hi64], i32t, &[]);
            let (lo, hi) = (shfl(lo), shfl(hi));
            let lo64 = b.val("arith.extui", &[lo], i64t, &[]);
            let hi64 = b.val("arith.extui", &[hi], i64t, &[]);
            let hi_shifted = b.val("arith.shli", &[hi64, c32], i64t, &[]);
            b.val("arith.ori", &[lo64, hi_shifted], i64t, &[])
        }
        _ => return Err(error(format!("xla_gpu.shuffle_reduce of {} has no lowering", type_to_string(ty)))),
    };
    Ok(if is_integer(ty) { shuffled } else { b.val("arith.bitcast", &[shuffled], ty, &[]) })
}

fn lower(op: Op) -> Result<()> {
    let b = B::before(op);
    let max = op.int_attr("max_distance").ok_or_else(|| bug("shuffle_reduce without max_distance"))?;
    let combiner = op.attr_raw("combiner").ok_or_else(|| bug("shuffle_reduce without a combiner"))?;
    let mut values = op.operands();
    let types: Vec<MlirType> = values.iter().map(|v| v.raw_type()).collect();
    let mut d = max;
    while d >= 1 {
        let distance = b.const_int(b.int(32), d);
        let others: Vec<Value> = values.iter().map(|v| shuffle_down(&b, *v, distance)).collect::<Result<_>>()?;
        let mut args = values.clone();
        args.extend(others);
        values = b.op("func.call", &args, &types, &[("callee", combiner)], vec![]).results();
        d /= 2;
    }
    replace_op(op, &values);
    Ok(())
}
