//! `batchnorm_expander`: expands `batch_norm_training`,
//! `batch_norm_inference` and `batch_norm_grad` into elementwise ops,
//! broadcasts and add-reductions, as XLA's `BatchNormExpander`
//! (xla/service/batchnorm_expander.cc), op for op:
//!
//! - training: `mean = sum(x) / N`, `var = sum(x*x) / N - mean*mean`,
//!   `y = (x - mean) * rsqrt(var + eps) * scale + offset`; results
//!   `(y, mean, var)`.
//! - inference: `s = scale * rsqrt(var + eps)`, `t = offset - mean * s`,
//!   `y = x * s + t` (s and t broadcast along the feature dimension).
//! - grad: `grad_offset = sum(dy)`,
//!   `grad_scale = sum(dy * (x - mean)) * rsqrt(var + eps)`,
//!   `grad_x = scale * rsqrt(var + eps) / N *
//!     (dy * N - grad_offset - (x - mean) * sum(dy * (x - mean)) / (var + eps))`.
//!
//! `N` is the number of elements per feature. XLA multiplies
//! `get-dimension-size`s (shapes may be dynamic there); rxla's shapes are
//! static, so it is one s32 constant converted to the element type, the
//! value XLA's chain computes. Sums reduce over every dimension but the
//! feature one with a scalar add computation; epsilon is converted to the
//! operand type. Each new op carries the batch-norm's metadata.
//!
//! Options `rewrite-training-op`, `rewrite-inference-op`, `rewrite-grad-op`
//! (all default true, as XLA:CPU configures the pass) choose which ops to
//! expand. Ops with non-static shapes, mixed element types or an
//! `hlo.layout` are left alone. Not exact: the expansion rounds differently
//! from the interpreter's batch-norm kernels.

use crate::constant::ConstantBuilder;
use crate::constant::Scalar;
use melior::ir::OperationRef;
use rxla_ir::{
    builder::Builder,
    computation,
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::{ElementType, TensorType},
};

#[derive(Clone, Debug)]
pub struct BatchNormExpander {
    training: bool,
    inference: bool,
    grad: bool,
}

impl HloPass for BatchNormExpander {
    const NAME: &'static str = "batchnorm_expander";
    const DESCRIPTION: &'static str = "Expand batch-norm training/inference/grad into elementwise ops and reductions";
    const EXACT: bool = false;

    fn from_options(options: &PassOptions) -> Result<Self> {
        options.expect_only(Self::NAME, &["rewrite-training-op", "rewrite-inference-op", "rewrite-grad-op"])?;
        Ok(Self {
            training: options.bool("rewrite-training-op", true)?,
            inference: options.bool("rewrite-inference-op", true)?,
            grad: options.bool("rewrite-grad-op", true)?,
        })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<()> {
        let module = Op::of(&module);
        for func in computation::functions(module) {
            for op in func.walk_preorder() {
                let kind = if self.training && op.is("batch_norm_training") {
                    Kind::Training
                } else if self.inference && op.is("batch_norm_inference") {
                    Kind::Inference
                } else if self.grad && op.is("batch_norm_grad") {
                    Kind::Grad
                } else {
                    continue;
                };
                // Per-result layouts would have to move to the expansion's
                // last ops; such ops are left alone.
                if op.has_attr("hlo.layout") {
                    continue;
                }
                if let Some(ctx) = Context::new(module, op)? {
                    let results = match kind {
                        Kind::Training => ctx.training()?,
                        Kind::Inference => ctx.inference()?,
                        Kind::Grad => ctx.grad()?,
                    };
                    for (i, v) in results.into_iter().enumerate() {
                        op.replace_result_uses(i, v);
                    }
                    op.erase();
                }
            }
        }
        Ok(())
    }
}

enum Kind {
    Training,
    Inference,
    Grad,
}

/// What every expansion needs about one batch-norm op.
struct Context {
    op: Op,
    b: Builder,
    shape: TensorType,
    feature: TensorType,
    feature_index: i64,
    epsilon: f64,
    module: Op,
}

type Result<T> = std::result::Result<T, PassError>;

impl Context {
    /// `None` if the op is not one the expansion handles (non-static or
    /// mixed-type operands).
    fn new(module: Op, op: Op) -> Result<Option<Self>> {
        let Some(shape) = op.operand_type(0).tensor().cloned() else { return Ok(None) };
        let Some(feature) = op.operand_type(1).tensor().cloned() else { return Ok(None) };
        let (Some(feature_index), Some(epsilon)) = (op.int_attr("feature_index"), op.float_attr("epsilon")) else {
            return Ok(None);
        };
        if feature_index < 0
            || feature_index as usize >= shape.rank()
            || feature.dims != [shape.dims[feature_index as usize]]
        {
            return Ok(None);
        }
        let same_elem = |i: usize| op.operand_type(i).tensor().is_some_and(|t| t.elem == shape.elem);
        if !(0..op.num_operands()).all(same_elem) {
            return Ok(None);
        }
        Ok(Some(Self { op, b: Builder::before(op), shape, feature, feature_index, epsilon, module }))
    }

    fn elem(&self) -> &ElementType {
        &self.shape.elem
    }

    /// Marks a new op with the batch-norm's metadata.
    fn tag(&self, v: Value) -> Value {
        if let (Some(meta), Some(new)) = (self.op.attr_raw("hlo.metadata"), v.op()) {
            new.set_attr_raw("hlo.metadata", meta);
        }
        v
    }

    fn binary(&self, opcode: &str, a: Value, b: Value) -> Result<Value> {
        Ok(self.tag(self.b.binary(opcode, a, b)?))
    }

    fn rsqrt(&self, x: Value) -> Result<Value> {
        Ok(self.tag(self.b.unary("rsqrt", x)?))
    }

    fn scalar(&self, value: Scalar) -> Result<Value> {
        Ok(self.tag(self.b.scalar(self.elem(), value)?))
    }

    fn broadcast_scalar(&self, x: Value, dims: &[i64]) -> Result<Value> {
        Ok(self.tag(self.b.broadcast_scalar(x, dims)?))
    }

    /// A feature-shaped value broadcast along the feature dimension.
    fn feature_broadcast(&self, x: Value) -> Result<Value> {
        Ok(self.tag(self.b.broadcast(x, &[self.feature_index], &self.shape.dims)?))
    }

    /// Sum over every dimension but the feature one (with a scalar add
    /// computation, made once per element type).
    fn sum(&self, x: Value, zero: Value) -> Result<Value> {
        let dims: Vec<i64> = (0..self.shape.rank() as i64).filter(|&d| d != self.feature_index).collect();
        let reducer = computation::scalar_reducer(self.module, "add", self.elem())?;
        Ok(self.tag(self.b.reduce(&[x], &[zero], &dims, &reducer)?[0]))
    }

    /// Elements per feature, as a scalar of the element type.
    fn element_count(&self) -> Result<Value> {
        let count = self
            .shape
            .dims
            .iter()
            .enumerate()
            .filter(|&(d, _)| d as i64 != self.feature_index)
            .fold(1i32, |acc, (_, &n)| acc.wrapping_mul(n as i32));
        let s32 = self.tag(self.b.scalar(&ElementType::new("i32"), Scalar::Int(count as i128))?);
        Ok(self.tag(self.b.convert(s32, self.elem())?))
    }

    /// `x / broadcast(count)` (XLA's `Mean` helper).
    fn mean(&self, count: Value, x: Value) -> Result<Value> {
        let dims = x.ty().tensor().map(|t| t.dims.clone()).unwrap_or_default();
        let n = self.broadcast_scalar(count, &dims)?;
        self.binary("divide", x, n)
    }

    fn training(&self) -> Result<Vec<Value>> {
        let (x, scale, offset) = (self.op.operand(0), self.op.operand(1), self.op.operand(2));
        let zero = self.scalar(Scalar::Float(0.0))?;
        let epsilon = self.broadcast_scalar(self.scalar(Scalar::Float(self.epsilon))?, &self.shape.dims)?;
        let count = self.element_count()?;
        let scale_b = self.feature_broadcast(scale)?;
        let offset_b = self.feature_broadcast(offset)?;
        let squared = self.binary("multiply", x, x)?;
        let sum = self.sum(x, zero)?;
        let squared_sum = self.sum(squared, zero)?;
        let mean = self.mean(count, sum)?;
        let mean_b = self.feature_broadcast(mean)?;
        let square_mean = self.mean(count, squared_sum)?;
        let mean_square = self.binary("multiply", mean, mean)?;
        let var = self.binary("subtract", square_mean, mean_square)?;
        let var_b = self.feature_broadcast(var)?;
        let var_eps = self.binary("add", var_b, epsilon)?;
        let rsqrt = self.rsqrt(var_eps)?;
        let centered = self.binary("subtract", x, mean_b)?;
        let normalized = self.binary("multiply", centered, rsqrt)?;
        let scaled = self.binary("multiply", normalized, scale_b)?;
        let shifted = self.binary("add", scaled, offset_b)?;
        Ok(vec![shifted, mean, var])
    }

    fn inference(&self) -> Result<Vec<Value>> {
        let [x, scale, offset, mean, var] = [0, 1, 2, 3, 4].map(|i| self.op.operand(i));
        let epsilon = self.broadcast_scalar(self.scalar(Scalar::Float(self.epsilon))?, &self.feature.dims)?;
        let true_scale = self.binary("multiply", scale, self.rsqrt(self.binary("add", var, epsilon)?)?)?;
        let true_shift = self.binary("subtract", offset, self.binary("multiply", mean, true_scale)?)?;
        let scaled = self.binary("multiply", x, self.feature_broadcast(true_scale)?)?;
        let shifted = self.binary("add", scaled, self.feature_broadcast(true_shift)?)?;
        Ok(vec![shifted])
    }

    fn grad(&self) -> Result<Vec<Value>> {
        let [x, scale, mean, var, dy] = [0, 1, 2, 3, 4].map(|i| self.op.operand(i));
        let count = self.element_count()?;
        let zero = self.scalar(Scalar::Float(0.0))?;
        let epsilon = self.scalar(Scalar::Float(self.epsilon))?;
        let epsilon_x = self.broadcast_scalar(epsilon, &self.shape.dims)?;
        let epsilon_f = self.broadcast_scalar(epsilon, &self.feature.dims)?;
        let scale_b = self.feature_broadcast(scale)?;
        let var_b = self.feature_broadcast(var)?;
        let mean_b = self.feature_broadcast(mean)?;
        let rsqrt_b = self.rsqrt(self.binary("add", var_b, epsilon_x)?)?;
        let rsqrt = self.rsqrt(self.binary("add", var, epsilon_f)?)?;
        let centered = self.binary("subtract", x, mean_b)?;
        let dy_centered = self.binary("multiply", dy, centered)?;
        let sum_dy_centered = self.sum(dy_centered, zero)?;
        let grad_beta = self.sum(dy, zero)?;
        let grad_scale = self.binary("multiply", sum_dy_centered, rsqrt)?;
        let i2 = self.feature_broadcast(grad_beta)?;
        let i3 = self.feature_broadcast(sum_dy_centered)?;
        let i4 = self.binary("multiply", i3, centered)?;
        let i5 = self.binary("divide", i4, self.binary("add", var_b, epsilon_x)?)?;
        let scale_rsqrt = self.binary("multiply", scale_b, rsqrt_b)?;
        let scale_rsqrt = self.mean(count, scale_rsqrt)?;
        let i1 = self.binary("multiply", dy, self.broadcast_scalar(count, &self.shape.dims)?)?;
        let i6 = self.binary("subtract", self.binary("subtract", i1, i2)?, i5)?;
        let grad_x = self.binary("multiply", scale_rsqrt, i6)?;
        Ok(vec![grad_x, grad_scale, grad_beta])
    }
}
