//! Elementwise HLO ops on scalars: `arith`, `math` and `complex` ops with
//! XLA's semantics (integer division by zero gives -1, shifts past the
//! width give 0 or the sign, float-to-int conversion saturates and maps NaN
//! to 0, `maximum`/`minimum` propagate NaN, ...). Integers are signless in
//! the kernel IR; the op chosen carries the signedness.

use crate::{builder::FuncBuilder, fusion::mlir_elem};
use mlir_sys::*;
use rxla_ir::{
    attrs::enum_case,
    op::{Op, Value},
    types::ElementType,
};

/// Unary elementwise opcodes (dialect spelling).
pub const UNARY: &[&str] = &[
    "abs",
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "cbrt",
    "ceil",
    "count_leading_zeros",
    "cosine",
    "cosh",
    "erf",
    "exponential",
    "exponential_minus_one",
    "floor",
    "imag",
    "is_finite",
    "log",
    "log_plus_one",
    "logistic",
    "negate",
    "not",
    "popcnt",
    "real",
    "round_nearest_afz",
    "round_nearest_even",
    "rsqrt",
    "sign",
    "sine",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
    "copy",
    "convert",
    "bitcast_convert",
    "reduce_precision",
];

/// Binary and ternary elementwise opcodes.
pub const NARY: &[&str] = &[
    "add",
    "subtract",
    "multiply",
    "divide",
    "remainder",
    "maximum",
    "minimum",
    "power",
    "atan2",
    "and",
    "or",
    "xor",
    "shift_left",
    "shift_right_arithmetic",
    "shift_right_logical",
    "mulhi",
    "complex",
    "compare",
    "select",
    "clamp",
    "stochastic_convert",
];

type R = Result<Value, String>;

// The helpers take the operands' type as the text form did, and check it
// against the values' (a mismatch is an emitter bug MLIR's verifier would
// report less clearly).

fn bin(fb: &mut FuncBuilder, op: &str, a: &Value, b: &Value, ty: &str) -> Value {
    debug_assert!(fb.type_of(*a).ptr == fb.ty(ty).ptr, "{op}: operand type is not {ty}");
    fb.val(op, &[*a, *b], ty)
}

fn un(fb: &mut FuncBuilder, op: &str, a: &Value, ty: &str) -> Value {
    fb.val(op, &[*a], ty)
}

fn select(fb: &mut FuncBuilder, c: &Value, a: &Value, b: &Value, _ty: &str) -> Value {
    fb.select(*c, *a, *b)
}

fn cmpi(fb: &mut FuncBuilder, pred: &str, a: &Value, b: &Value, _ty: &str) -> Value {
    fb.cmpi(pred, *a, *b)
}

fn cmpf(fb: &mut FuncBuilder, pred: &str, a: &Value, b: &Value, _ty: &str) -> Value {
    fb.cmpf(pred, *a, *b)
}

/// The component type of a complex type (`complex<f32>` -> `f32`).
fn component(ty: &str) -> Option<&str> {
    ty.strip_prefix("complex<").and_then(|t| t.strip_suffix('>'))
}

/// Bit width of an integer kernel type (`i32` -> 32).
fn int_width(ty: &str) -> u32 {
    ty.trim_start_matches('i').parse().unwrap_or(0)
}

/// `iN` minimum as a decimal literal.
fn int_min(bits: u32) -> i128 {
    -(1i128 << (bits - 1))
}

fn int_max(bits: u32) -> i128 {
    (1i128 << (bits - 1)) - 1
}

/// Exponent and mantissa bits of the IEEE-like float types.
fn float_format(ty: &str) -> Option<(u32, u32)> {
    match ty {
        "f16" => Some((5, 10)),
        "bf16" => Some((8, 7)),
        "f32" => Some((8, 23)),
        "f64" => Some((11, 52)),
        _ => None,
    }
}

/// An `index` value as an element of `elem` (iota).
pub fn index_to(fb: &mut FuncBuilder, ix: &Value, elem: &ElementType) -> R {
    let ty = mlir_elem(elem);
    if elem.is_complex() {
        let c = component(&ty).unwrap().to_string();
        let re = index_to(fb, ix, &ElementType::new(&c))?;
        let zero = fb.const_float(0.0, &c);
        return Ok(fb.val("complex.create", &[re, zero], &ty));
    }
    if elem.is_float() {
        let i = fb.cast("arith.index_cast", *ix, "i64");
        return Ok(fb.cast("arith.sitofp", i, &ty));
    }
    if elem.is_unsigned_int() || elem.is_pred() {
        return Ok(fb.cast("arith.index_castui", *ix, &ty));
    }
    Ok(fb.cast("arith.index_cast", *ix, &ty))
}

/// An integer value as an `index` (offsets, gather indices).
pub fn to_index(fb: &mut FuncBuilder, v: &Value, elem: &ElementType) -> R {
    if elem.is_unsigned_int() || elem.is_pred() {
        Ok(fb.cast("arith.index_castui", *v, "index"))
    } else if elem.is_signed_int() {
        Ok(fb.cast("arith.index_cast", *v, "index"))
    } else {
        Err(format!("an index of type {elem} is not an integer"))
    }
}

/// A scalar constant of `elem` from an element of an HLO constant's
/// `DenseElementsAttr` (an integer, float or, for complex types, a pair
/// of floats).
pub fn scalar_constant(fb: &mut FuncBuilder, element: MlirAttribute, elem: &ElementType) -> R {
    let ty = mlir_elem(elem);
    unsafe {
        if elem.is_complex() {
            if !mlirAttributeIsAArray(element) || mlirArrayAttrGetNumElements(element) != 2 {
                return Err("a complex constant element is not a pair".into());
            }
            let c = fb.ty(component(&ty).unwrap());
            let parts = [0, 1].map(|i| {
                let part = mlirArrayAttrGetElement(element, i);
                mlirFloatAttrDoubleGet(fb.context(), c, mlirFloatAttrGetValueDouble(part))
            });
            let pair = mlirArrayAttrGet(fb.context(), 2, parts.as_ptr());
            let key = format!("cconst:{}:{}:{ty}", parts_bits(parts[0]), parts_bits(parts[1]));
            if let Some(v) = fb.lookup(&key) {
                return Ok(v[0]);
            }
            let v = fb.val_attrs("complex.constant", &[], &ty, &[("value", pair)]);
            fb.remember(key, vec![v]);
            return Ok(v);
        }
        if mlirAttributeIsAInteger(element) {
            // Signless: the value's bits (unsigned values above the signed
            // range wrap to negative ones).
            let v = if elem.is_unsigned_int() || elem.is_pred() {
                mlirIntegerAttrGetValueUInt(element) as i128
            } else {
                mlirIntegerAttrGetValueSInt(element) as i128
            };
            return Ok(fb.const_int(v, &ty));
        }
        if mlirAttributeIsAFloat(element) && elem.is_float() {
            // The HLO attribute already has the type and the exact value.
            let key = format!("constattr:{:x}", element.ptr as usize);
            return Ok(fb.const_attr(element, Some(key)));
        }
    }
    Err(format!("a constant element of {elem} has an unexpected attribute"))
}

/// The bits of a float attribute's value, for cache keys.
fn parts_bits(a: MlirAttribute) -> u64 {
    unsafe { mlirFloatAttrGetValueDouble(a).to_bits() }
}

/// Converts `x` from `from` to `to` with XLA's semantics.
pub fn convert(fb: &mut FuncBuilder, x: &Value, from: &ElementType, to: &ElementType) -> R {
    let (ft, tt) = (mlir_elem(from), mlir_elem(to));
    if ft == tt {
        // Same kernel type (signedness lives in the ops).
        return Ok(*x);
    }
    if to.is_complex() {
        let c = ElementType::new(component(&tt).unwrap());
        if from.is_complex() {
            let fc = ElementType::new(component(&ft).unwrap());
            let re = fb.val("complex.re", &[*x], &fc.0);
            let im = fb.val("complex.im", &[*x], &fc.0);
            let re = convert(fb, &re, &fc, &c)?;
            let im = convert(fb, &im, &fc, &c)?;
            return Ok(fb.val("complex.create", &[re, im], &tt));
        }
        let re = convert(fb, x, from, &c)?;
        let zero = fb.const_float(0.0, c.0.as_str());
        return Ok(fb.val("complex.create", &[re, zero], &tt));
    }
    if from.is_complex() {
        // XLA converts the real part.
        let fc = ElementType::new(component(&ft).unwrap());
        let re = fb.val("complex.re", &[*x], &fc.0);
        return convert(fb, &re, &fc, to);
    }
    // Narrow floats (f8, ...) have no arithmetic: through f32 or f16.
    let narrow = |t: &ElementType| t.is_float() && t.bit_width() <= 8;
    if to.is_pred() && narrow(from) {
        let f = un_to(fb, "arith.extf", x, &ft, "f32");
        return convert(fb, &f, &ElementType::new("f32"), to);
    }
    if to.is_pred() {
        if from.is_float() {
            let zero = fb.const_float(0.0, &ft);
            return Ok(cmpf(fb, "une", x, &zero, &ft));
        }
        let zero = fb.const_int(0, &ft);
        return Ok(cmpi(fb, "ne", x, &zero, &ft));
    }
    if from.is_pred() {
        if to.is_float() {
            return Ok(un_to(fb, "arith.uitofp", x, &ft, &tt));
        }
        return Ok(un_to(fb, "arith.extui", x, &ft, &tt));
    }
    match (from.is_float(), to.is_float()) {
        (true, true) => {
            let (fw, tw) = (from.bit_width(), to.bit_width());
            if fw < tw || (fw == tw && ft == "bf16") {
                if fw == tw {
                    // bf16 <-> f16: through f32.
                    let f = un_to(fb, "arith.extf", x, &ft, "f32");
                    return Ok(un_to(fb, "arith.truncf", &f, "f32", &tt));
                }
                Ok(un_to(fb, "arith.extf", x, &ft, &tt))
            } else if fw == tw {
                let f = un_to(fb, "arith.extf", x, &ft, "f32");
                Ok(un_to(fb, "arith.truncf", &f, "f32", &tt))
            } else {
                Ok(un_to(fb, "arith.truncf", x, &ft, &tt))
            }
        }
        (false, true) => {
            let op = if from.is_unsigned_int() { "arith.uitofp" } else { "arith.sitofp" };
            Ok(un_to(fb, op, x, &ft, &tt))
        }
        (true, false) => {
            // Saturate, NaN -> 0. Compare in f64 (exact for every narrower
            // float), so that the bounds are representable.
            let bits = to.bit_width();
            let (lo, hi) =
                if to.is_unsigned_int() { (0i128, (1i128 << bits) - 1) } else { (int_min(bits), int_max(bits)) };
            let wide = if ft == "f64" { *x } else { un_to(fb, "arith.extf", x, &ft, "f64") };
            let op = if to.is_unsigned_int() { "arith.fptoui" } else { "arith.fptosi" };
            let v = un_to(fb, op, &wide, "f64", &tt);
            let hi_f = fb.const_float(hi as f64, "f64");
            let lo_f = fb.const_float(lo as f64, "f64");
            let hi_c = fb.const_int(hi, &tt);
            let lo_c = fb.const_int(lo, &tt);
            let zero_c = fb.const_int(0, &tt);
            let ge = cmpf(fb, "oge", &wide, &hi_f, "f64");
            let le = cmpf(fb, "ole", &wide, &lo_f, "f64");
            let nan = cmpf(fb, "uno", &wide, &wide, "f64");
            let r = select(fb, &ge, &hi_c, &v, &tt);
            let r = select(fb, &le, &lo_c, &r, &tt);
            Ok(select(fb, &nan, &zero_c, &r, &tt))
        }
        (false, false) => {
            let (fw, tw) = (from.bit_width(), to.bit_width());
            if fw == tw {
                Ok(*x)
            } else if fw > tw {
                Ok(un_to(fb, "arith.trunci", x, &ft, &tt))
            } else if from.is_unsigned_int() {
                Ok(un_to(fb, "arith.extui", x, &ft, &tt))
            } else {
                Ok(un_to(fb, "arith.extsi", x, &ft, &tt))
            }
        }
    }
}

fn un_to(fb: &mut FuncBuilder, op: &str, x: &Value, _from: &str, to: &str) -> Value {
    fb.cast(op, *x, to)
}

/// Emits elementwise op `opcode` on `args` (of types `tys`), producing an
/// `out` value.
pub fn emit(fb: &mut FuncBuilder, op: Op, opcode: &str, tys: &[ElementType], out: &ElementType, a: &[Value]) -> R {
    let t = &tys[0];
    let ty = mlir_elem(t);
    let (float, cplx, pred, uns) = (t.is_float(), t.is_complex(), t.is_pred(), t.is_unsigned_int());
    let int = !float && !cplx;
    let unsupported = || format!("is not supported for {t}");
    let v = match opcode {
        "add" | "subtract" | "multiply" => {
            let name = match (opcode, float, cplx, pred) {
                ("add", true, _, _) => "arith.addf",
                ("add", _, true, _) => "complex.add",
                ("add", _, _, true) => "arith.ori",
                ("add", ..) => "arith.addi",
                ("subtract", true, _, _) => "arith.subf",
                ("subtract", _, true, _) => "complex.sub",
                ("subtract", _, _, false) => "arith.subi",
                ("multiply", true, _, _) => "arith.mulf",
                ("multiply", _, true, _) => "complex.mul",
                ("multiply", _, _, true) => "arith.andi",
                ("multiply", ..) => "arith.muli",
                _ => return Err(unsupported()),
            };
            bin(fb, name, &a[0], &a[1], &ty)
        }
        "divide" if float => bin(fb, "arith.divf", &a[0], &a[1], &ty),
        "divide" if cplx => bin(fb, "complex.div", &a[0], &a[1], &ty),
        "divide" | "remainder" if int && !pred => int_div_rem(fb, opcode == "divide", &a[0], &a[1], &ty, uns),
        "remainder" if float => bin(fb, "arith.remf", &a[0], &a[1], &ty),
        "maximum" | "minimum" => {
            let max = opcode == "maximum";
            let name = match (float, pred, uns) {
                _ if cplx => return Err(unsupported()),
                (true, ..) => {
                    if max {
                        "arith.maximumf"
                    } else {
                        "arith.minimumf"
                    }
                }
                (_, true, _) => {
                    if max {
                        "arith.ori"
                    } else {
                        "arith.andi"
                    }
                }
                (_, _, true) => {
                    if max {
                        "arith.maxui"
                    } else {
                        "arith.minui"
                    }
                }
                _ => {
                    if max {
                        "arith.maxsi"
                    } else {
                        "arith.minsi"
                    }
                }
            };
            bin(fb, name, &a[0], &a[1], &ty)
        }
        "power" if float => bin(fb, "math.powf", &a[0], &a[1], &ty),
        "power" if cplx => bin(fb, "complex.pow", &a[0], &a[1], &ty),
        "power" if int && !pred => bin(fb, "math.ipowi", &a[0], &a[1], &ty),
        "atan2" if float => bin(fb, "math.atan2", &a[0], &a[1], &ty),
        "and" | "or" | "xor" if int => bin(fb, &format!("arith.{}i", opcode), &a[0], &a[1], &ty),
        "shift_left" | "shift_right_logical" | "shift_right_arithmetic" if int && !pred => {
            let bits = int_width(&ty);
            let width = fb.const_int(bits as i128, &ty);
            let in_range = cmpi(fb, "ult", &a[1], &width, &ty);
            match opcode {
                "shift_left" | "shift_right_logical" => {
                    let name = if opcode == "shift_left" { "arith.shli" } else { "arith.shrui" };
                    let s = bin(fb, name, &a[0], &a[1], &ty);
                    let zero = fb.const_int(0, &ty);
                    select(fb, &in_range, &s, &zero, &ty)
                }
                _ => {
                    let top = fb.const_int((bits - 1) as i128, &ty);
                    let amount = select(fb, &in_range, &a[1], &top, &ty);
                    bin(fb, "arith.shrsi", &a[0], &amount, &ty)
                }
            }
        }
        "mulhi" if int && !pred => {
            let op = if uns { "arith.mului_extended" } else { "arith.mulsi_extended" };
            let t = fb.ty(&ty);
            fb.op(op, &[a[0], a[1]], &[t, t], &[]).result(1)
        }
        "complex" => {
            let ot = mlir_elem(out);
            fb.val("complex.create", &[a[0], a[1]], &ot)
        }
        "compare" => compare(fb, op, t, &a[0], &a[1])?,
        "select" => {
            let vt = mlir_elem(&tys[1]);
            select(fb, &a[0], &a[1], &a[2], &vt)
        }
        "clamp" => {
            // clamp(lo, x, hi) = min(max(x, lo), hi)
            let xt = &tys[1];
            let xty = mlir_elem(xt);
            let (mx, mn) = if xt.is_float() {
                ("arith.maximumf", "arith.minimumf")
            } else if xt.is_unsigned_int() || xt.is_pred() {
                ("arith.maxui", "arith.minui")
            } else if xt.is_complex() {
                return Err(unsupported());
            } else {
                ("arith.maxsi", "arith.minsi")
            };
            let m = bin(fb, mx, &a[1], &a[0], &xty);
            bin(fb, mn, &m, &a[2], &xty)
        }
        "copy" => a[0],
        "convert" => convert(fb, &a[0], t, out)?,
        "bitcast_convert" => {
            let ot = mlir_elem(out);
            if ot == ty {
                a[0]
            } else if t.bit_width() == out.bit_width() && !cplx && !out.is_complex() {
                fb.cast("arith.bitcast", a[0], &ot)
            } else {
                return Err(format!("from {t} to {out} (different widths or complex) is not supported"));
            }
        }
        "reduce_precision" => reduce_precision(fb, op, &a[0], &ty)?,
        "negate" if float => un(fb, "arith.negf", &a[0], &ty),
        "negate" if cplx => un(fb, "complex.neg", &a[0], &ty),
        "negate" if int => {
            let zero = fb.const_int(0, &ty);
            bin(fb, "arith.subi", &zero, &a[0], &ty)
        }
        "abs" if float => un(fb, "math.absf", &a[0], &ty),
        "abs" if cplx => un(fb, "complex.abs", &a[0], component(&ty).unwrap()),
        "abs" if int && (uns || pred) => a[0],
        "abs" if int => un(fb, "math.absi", &a[0], &ty),
        "not" if pred => {
            let t1 = fb.const_bool(true);
            bin(fb, "arith.xori", &a[0], &t1, "i1")
        }
        "not" if int => {
            let ones = fb.const_int(-1, &ty);
            bin(fb, "arith.xori", &a[0], &ones, &ty)
        }
        "sign" if float => {
            let one = fb.const_float(1.0, &ty);
            let zero = fb.const_float(0.0, &ty);
            let cs = bin(fb, "math.copysign", &one, &a[0], &ty);
            let is_zero = cmpf(fb, "oeq", &a[0], &zero, &ty);
            let r = select(fb, &is_zero, &a[0], &cs, &ty);
            let nan = cmpf(fb, "uno", &a[0], &a[0], &ty);
            select(fb, &nan, &a[0], &r, &ty)
        }
        "sign" if int && !pred => {
            let zero = fb.const_int(0, &ty);
            if uns {
                let nz = cmpi(fb, "ne", &a[0], &zero, &ty);
                un_to(fb, "arith.extui", &nz, "i1", &ty)
            } else {
                let pos = cmpi(fb, "sgt", &a[0], &zero, &ty);
                let neg = cmpi(fb, "slt", &a[0], &zero, &ty);
                let p = un_to(fb, "arith.extui", &pos, "i1", &ty);
                let n = un_to(fb, "arith.extui", &neg, "i1", &ty);
                bin(fb, "arith.subi", &p, &n, &ty)
            }
        }
        "real" if cplx => un(fb, "complex.re", &a[0], component(&ty).unwrap()),
        "imag" if cplx => un(fb, "complex.im", &a[0], component(&ty).unwrap()),
        "real" if float => a[0],
        "imag" if float => fb.const_float(0.0, &ty),
        "is_finite" if float => un(fb, "math.isfinite", &a[0], "i1"),
        "popcnt" if int && !pred => un(fb, "math.ctpop", &a[0], &ty),
        "count_leading_zeros" if int && !pred => un(fb, "math.ctlz", &a[0], &ty),
        "logistic" if float => {
            let one = fb.const_float(1.0, &ty);
            let neg = un(fb, "arith.negf", &a[0], &ty);
            let e = un(fb, "math.exp", &neg, &ty);
            let d = bin(fb, "arith.addf", &one, &e, &ty);
            bin(fb, "arith.divf", &one, &d, &ty)
        }
        _ if float && float_unary(opcode).is_some() => un(fb, float_unary(opcode).unwrap(), &a[0], &ty),
        _ if cplx && complex_unary(opcode).is_some() => un(fb, complex_unary(opcode).unwrap(), &a[0], &ty),
        _ => return Err(unsupported()),
    };
    Ok(v)
}

fn float_unary(opcode: &str) -> Option<&'static str> {
    Some(match opcode {
        "acos" => "math.acos",
        "acosh" => "math.acosh",
        "asin" => "math.asin",
        "asinh" => "math.asinh",
        "atan" => "math.atan",
        "atanh" => "math.atanh",
        "cbrt" => "math.cbrt",
        "ceil" => "math.ceil",
        "cosine" => "math.cos",
        "cosh" => "math.cosh",
        "erf" => "math.erf",
        "exponential" => "math.exp",
        "exponential_minus_one" => "math.expm1",
        "floor" => "math.floor",
        "log" => "math.log",
        "log_plus_one" => "math.log1p",
        "round_nearest_afz" => "math.round",
        "round_nearest_even" => "math.roundeven",
        "rsqrt" => "math.rsqrt",
        "sine" => "math.sin",
        "sinh" => "math.sinh",
        "sqrt" => "math.sqrt",
        "tan" => "math.tan",
        "tanh" => "math.tanh",
        _ => return None,
    })
}

fn complex_unary(opcode: &str) -> Option<&'static str> {
    Some(match opcode {
        "exponential" => "complex.exp",
        "exponential_minus_one" => "complex.expm1",
        "log" => "complex.log",
        "log_plus_one" => "complex.log1p",
        "sqrt" => "complex.sqrt",
        "rsqrt" => "complex.rsqrt",
        "sine" => "complex.sin",
        "cosine" => "complex.cos",
        "tan" => "complex.tan",
        "tanh" => "complex.tanh",
        "sign" => "complex.sign",
        _ => return None,
    })
}

/// Integer division or remainder with XLA's results for division by zero
/// (`x / 0 = -1`, `x % 0 = x`) and signed overflow (`MIN / -1 = MIN`,
/// `MIN % -1 = 0`).
fn int_div_rem(fb: &mut FuncBuilder, div: bool, x: &Value, y: &Value, ty: &str, unsigned: bool) -> Value {
    let zero = fb.const_int(0, ty);
    let one = fb.const_int(1, ty);
    let is_zero = cmpi(fb, "eq", y, &zero, ty);
    if unsigned {
        let safe = select(fb, &is_zero, &one, y, ty);
        let q = bin(fb, if div { "arith.divui" } else { "arith.remui" }, x, &safe, ty);
        let on_zero = if div { fb.const_int(-1, ty) } else { *x };
        return select(fb, &is_zero, &on_zero, &q, ty);
    }
    let bits = int_width(ty);
    let min = fb.const_int(int_min(bits), ty);
    let minus_one = fb.const_int(-1, ty);
    let x_min = cmpi(fb, "eq", x, &min, ty);
    let y_m1 = cmpi(fb, "eq", y, &minus_one, ty);
    let overflow = bin(fb, "arith.andi", &x_min, &y_m1, "i1");
    let bad = bin(fb, "arith.ori", &is_zero, &overflow, "i1");
    let safe = select(fb, &bad, &one, y, ty);
    let q = bin(fb, if div { "arith.divsi" } else { "arith.remsi" }, x, &safe, ty);
    let on_overflow = if div { min } else { zero };
    let r = select(fb, &overflow, &on_overflow, &q, ty);
    let on_zero = if div { minus_one } else { *x };
    select(fb, &is_zero, &on_zero, &r, ty)
}

fn compare(fb: &mut FuncBuilder, op: Op, t: &ElementType, a: &Value, b: &Value) -> R {
    let ty = mlir_elem(t);
    let dir = enum_case(op, "comparison_direction").ok_or("compare without a direction")?;
    let total = enum_case(op, "compare_type").as_deref() == Some("TOTALORDER");
    if t.is_complex() {
        return match dir.as_str() {
            "EQ" => Ok(fb.val("complex.eq", &[*a, *b], "i1")),
            "NE" => Ok(fb.val("complex.neq", &[*a, *b], "i1")),
            _ => Err(format!("compare {dir} is not defined for {t}")),
        };
    }
    if t.is_float() && !total {
        let pred = match dir.as_str() {
            "EQ" => "oeq",
            "NE" => "une",
            "LT" => "olt",
            "LE" => "ole",
            "GT" => "ogt",
            "GE" => "oge",
            _ => return Err(format!("unknown comparison direction {dir}")),
        };
        return Ok(cmpf(fb, pred, a, b, &ty));
    }
    let (a, b, ty, unsigned) = if t.is_float() {
        // Total order: flip the magnitude bits of negative values and
        // compare as signed integers.
        let bits = t.bit_width();
        let it = format!("i{bits}");
        let conv = |fb: &mut FuncBuilder, x: &Value| {
            let i = fb.cast("arith.bitcast", *x, &it);
            let zero = fb.const_int(0, &it);
            let neg = cmpi(fb, "slt", &i, &zero, &it);
            let mask = fb.const_int(int_max(bits), &it);
            let flipped = bin(fb, "arith.xori", &i, &mask, &it);
            select(fb, &neg, &flipped, &i, &it)
        };
        let (x, y) = (conv(fb, a), conv(fb, b));
        (x, y, it.clone(), false)
    } else {
        (*a, *b, ty.clone(), t.is_unsigned_int() || t.is_pred())
    };
    let pred = match (dir.as_str(), unsigned) {
        ("EQ", _) => "eq",
        ("NE", _) => "ne",
        ("LT", false) => "slt",
        ("LE", false) => "sle",
        ("GT", false) => "sgt",
        ("GE", false) => "sge",
        ("LT", true) => "ult",
        ("LE", true) => "ule",
        ("GT", true) => "ugt",
        ("GE", true) => "uge",
        _ => return Err(format!("unknown comparison direction {dir}")),
    };
    Ok(cmpi(fb, pred, &a, &b, &ty))
}

/// XLA's `EmitReducePrecisionIR`: round the mantissa to nearest even,
/// then flush exponents out of range to zero or infinity (NaN stays NaN).
fn reduce_precision(fb: &mut FuncBuilder, op: Op, x: &Value, ty: &str) -> R {
    let (src_e, src_m) = float_format(ty).ok_or_else(|| format!("is not supported for {ty}"))?;
    let dst_e = op.int_attr("exponent_bits").ok_or("no exponent_bits")? as u32;
    let dst_m = op.int_attr("mantissa_bits").ok_or("no mantissa_bits")? as u32;
    let bits = 1 + src_e + src_m;
    let it = format!("i{bits}");
    let c = |fb: &mut FuncBuilder, v: i128| fb.const_int(v & ((1i128 << bits) - 1), &it);
    let mut xi = fb.cast("arith.bitcast", *x, &it);
    if dst_m < src_m {
        let shift = (src_m - dst_m) as i128;
        let last_bit_mask = 1i128 << shift;
        let base_bias = (last_bit_mask >> 1) - 1;
        let mask_c = c(fb, last_bit_mask);
        let shift_c = c(fb, shift);
        let bias_c = c(fb, base_bias);
        let trunc_c = c(fb, !(last_bit_mask - 1));
        let last = bin(fb, "arith.andi", &xi, &mask_c, &it);
        let last = bin(fb, "arith.shrui", &last, &shift_c, &it);
        let bias = bin(fb, "arith.addi", &last, &bias_c, &it);
        let sum = bin(fb, "arith.addi", &xi, &bias, &it);
        xi = bin(fb, "arith.andi", &sum, &trunc_c, &it);
    }
    if dst_e < src_e {
        let sign_mask = 1i128 << (bits - 1);
        let exp_mask = ((1i128 << src_e) - 1) << src_m;
        let bias = (1i128 << (src_e - 1)) - 1;
        let reduced_bias = (1i128 << (dst_e - 1)) - 1;
        let max_exp = (bias + reduced_bias) << src_m;
        let min_exp = (bias - reduced_bias) << src_m;
        let exp_c = c(fb, exp_mask);
        let sign_c = c(fb, sign_mask);
        let max_c = c(fb, max_exp);
        let min_c = c(fb, min_exp);
        let e = bin(fb, "arith.andi", &xi, &exp_c, &it);
        let over = cmpi(fb, "ugt", &e, &max_c, &it);
        let under = cmpi(fb, "ule", &e, &min_c, &it);
        let signed_zero = bin(fb, "arith.andi", &xi, &sign_c, &it);
        let signed_inf = bin(fb, "arith.ori", &signed_zero, &exp_c, &it);
        let r = select(fb, &under, &signed_zero, &xi, &it);
        xi = select(fb, &over, &signed_inf, &r, &it);
    }
    let mut r = fb.cast("arith.bitcast", xi, ty);
    if dst_m < src_m {
        let nan = cmpf(fb, "uno", x, x, ty);
        r = select(fb, &nan, x, &r, ty);
    }
    Ok(r)
}
