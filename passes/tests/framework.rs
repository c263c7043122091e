//! The rewrite framework end to end: typed reads, the builder, fold
//! patterns under the greedy driver, new computations.

use melior::ir::{operation::OperationLike, Module};
use rxla_ir::{
    attrs::{DotDims, StructAttr, Window},
    builder::Builder,
    computation,
    op::Op,
    rewrite::{apply_greedily, fold, DriverOptions},
    types::{shape, HloType},
};
use rxla_passes::constant::{self, ConstantBuilder, Scalar};

fn module(text: &str) -> (melior::Context, String) {
    let context = rxla_dialects::create_context();
    (context, text.to_string())
}

#[test]
fn fold_add_zero_and_build() {
    let (context, text) = module(
        r#"
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %b = hlo.broadcast %z, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %0 = hlo.add %a, %b : tensor<4xf32>
  %1 = hlo.multiply %0, %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}"#,
    );
    let m = Module::parse(&context, &text).expect("parses");
    let root = Op::of(&m.as_operation());
    let patterns = vec![
        fold("hlo.add", |op, _| Ok(constant::is_splat_of(op.operand(1), 0.0).then(|| op.operand(0)))),
        // x * x -> x^2 via the builder (a rewrite that creates ops).
        fold("hlo.multiply", |op, b| {
            if !op.operand(0).same_as(op.operand(1)) {
                return Ok(None);
            }
            let t = op.result_type(0).tensor().cloned().unwrap();
            let two = b.splat(&t, Scalar::Float(2.0))?;
            Ok(Some(b.binary("power", op.operand(0), two)?))
        }),
    ];
    let n = apply_greedily(root, &patterns, DriverOptions::default()).expect("runs");
    assert_eq!(n, 2);
    assert!(m.as_operation().verify());
    let printed = m.as_operation().to_string();
    assert!(printed.contains("hlo.power %arg0, %"), "{printed}");
    assert!(!printed.contains("hlo.add"), "dead add left: {printed}");
    assert!(!printed.contains("hlo.broadcast"), "dead broadcast left: {printed}");
}

#[test]
fn typed_attributes_read_and_write() {
    let (context, text) = module(
        r#"
func.func @main(%a: tensor<8x2x3xf32>, %b: tensor<8x3x4xf32>, %c: tensor<4x6xf32>) -> (tensor<8x2x4xf32>, tensor<2x3xf32>) {
  %0 = hlo.dot %a, %b {dot_dimension_numbers = #hlo.dot<lhs_batch_dims = [0], rhs_batch_dims = [0], lhs_contracting_dims = [2], rhs_contracting_dims = [1]>} : (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<8x2x4xf32>
  %i = hlo.constant dense<0.0> : tensor<f32>
  %1 = hlo.reduce_window %c, %i {window = #hlo.window<size = [2, 2], stride = [2, 2]>, to_apply = @sum} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<8x2x4xf32>, tensor<2x3xf32>
}
func.func private @sum(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : tensor<f32>
  return %0 : tensor<f32>
}"#,
    );
    let m = Module::parse(&context, &text).expect("parses");
    let root = Op::of(&m.as_operation());
    let main = computation::lookup(root, "main").unwrap();
    let ops = main.body_ops();
    let dot = ops.iter().copied().find(|o| o.is("dot")).unwrap();
    let dims = DotDims::of(dot).unwrap();
    assert_eq!(dims.lhs_contracting, vec![2]);
    assert_eq!(dims.result_dims(&[8, 2, 3], &[8, 3, 4]), vec![8, 2, 4]);
    let s = StructAttr::of(dot, "dot_dimension_numbers").unwrap();
    assert_eq!(s.to_text(), dot.attr_text("dot_dimension_numbers").unwrap());
    let rw = ops.iter().copied().find(|o| o.is("reduce_window")).unwrap();
    let w = Window::of(rw).unwrap();
    assert_eq!(w.output_dims(&[4, 6]), vec![2, 3]);
    rw.set_attr_raw("window", w.to_attr(context.to_raw()).unwrap());
    assert_eq!(rw.symbol_attr("to_apply").as_deref(), Some("sum"));
    assert!(m.as_operation().verify());

    // Builder outside patterns + a new computation.
    let reducer = computation::scalar_reducer(root, "maximum", &dims_elem(dot)).unwrap();
    let b = Builder::before(main.terminator().unwrap());
    let init = b.scalar(&dims_elem(dot), constant::min_value(&dims_elem(dot)).unwrap()).unwrap();
    let r = b.reduce(&[dot.result(0)], &[init], &[0, 2], &reducer).unwrap();
    assert_eq!(r[0].ty().to_string(), "tensor<2xf32>");
    let t = b.transpose(dot.result(0), &[2, 0, 1]).unwrap();
    assert_eq!(t.ty(), HloType::parse("tensor<4x8x2xf32>"));
    assert!(m.as_operation().verify(), "{}", m.as_operation());
    assert_eq!(shape::degenerate_reshape_map(&[2, 1, 3], &[2, 3, 1]), Some(vec![Some(0), Some(2), None]));
}

fn dims_elem(op: Op) -> rxla_ir::ElementType {
    op.result_type(0).tensor().unwrap().elem.clone()
}
