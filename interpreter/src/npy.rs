//! NumPy `.npy` / `.npz` input and output for literals.
//!
//! Headers and archives go through the `npyz` crate; element bytes are
//! converted in bulk (one typed loop per dtype, no per-element dispatch).
//!
//! Conventions (shared with the oracle corpus, `/work/shared/oracle`):
//!
//! - **Keys.** Inputs are `arg0`, `arg1`, ... in parameter order; outputs
//!   `out0`, `out1`, ... in result-tuple order ([`output_arrays`] flattens a
//!   tuple result, nested tuples depth-first; a non-tuple result is `out0`).
//! - **Native dtypes.** `pred` is `|b1`; `s8..s64` are `|i1 <i2 <i4 <i8`;
//!   `u8..u64` are `|u1 <u2 <u4 <u8`; `f16 f32 f64` are `<f2 <f4 <f8`;
//!   `c64 c128` are `<c8 <c16`. Big-endian files and Fortran-order arrays
//!   are read too (converted to little-endian row-major).
//! - **Types NumPy lacks.** `bf16` is written as its raw bits in `<u2`, and
//!   the f8/f6/f4 formats as raw bits in `|u1` (one element per byte),
//!   exactly as the oracle corpus stores them; JAX/ml_dtypes users read them
//!   back with `arr.view(ml_dtypes.bfloat16)` etc. On input, raw bits may be
//!   in `<u2`/`<i2`/`<V2` (bf16) or `|u1`/`|i1`/`|V1` (one-byte formats):
//!   [`read_args`] reinterprets them according to the parameter type.
//!   Sub-byte integers (`s2 s4 u2 u4`, also `s1 u1`) are one element per
//!   byte, `|i1` for signed, `|u1` for unsigned; a value outside the type's
//!   range is an error.
//! - Without a parameter type ([`read_npz`]), `<V2` reads as bf16 and
//!   `|V1` as raw `u8` bytes.
//! - Tuples cannot be stored: the caller flattens them ([`output_arrays`]);
//!   a tuple-shaped parameter is an error, a `token[]` parameter needs no
//!   key and gets a token.
//! - Zero-size and rank-0 arrays are ordinary arrays (shape `(0, 3)`, `()`),
//!   with one exception that follows the oracle corpus: a rank-0 value of a
//!   raw-bits type (bf16, f8/f6/f4, sub-byte integers) is written with
//!   shape `(1,)`, because the corpus's writer (`np.ascontiguousarray(x)
//!   .view(np.uint16)`, which makes 0-d arrays 1-d) stores them so and
//!   `check.py` compares shapes exactly ([`stored_dims`]). On input, such a
//!   parameter accepts `()` and `(1,)`.
//!
//! Every error is an [`EvalError`] whose message starts with the file name.

use crate::{
    error::{EvalError, Result},
    literal::{element_count, Data, ElementType, Literal},
};
use half::{bf16, f16};
use npyz::{DType, Order, TypeChar, TypeStr, WriterBuilder};
use num_complex::{Complex32, Complex64};
use rxla_hlo_text::ast::{Computation, Dim, PrimitiveType, Shape};
use std::{
    fs::File,
    io::{self, BufReader, Read, Write},
    path::Path,
};

/// An array as stored in a `.npy`: dtype, shape and little-endian,
/// row-major element bytes.
#[derive(Clone, Debug)]
pub struct RawArray {
    /// Type character (`b`, `i`, `u`, `f`, `c`, `V`, ...).
    pub kind: char,
    /// Bytes per element.
    pub size: usize,
    /// The dtype as NumPy writes it (`<f4`, `|b1`, ...), for messages.
    pub descr: String,
    pub shape: Vec<u64>,
    /// Element bytes, little-endian, row-major.
    pub bytes: Vec<u8>,
}

fn file_error(path: &Path, message: impl std::fmt::Display) -> EvalError {
    EvalError::new(format!("{}: {message}", path.display()))
}

/// `(3, 2)`, `(3,)`, `()` as Python prints a shape.
pub fn python_shape(shape: &[u64]) -> String {
    match shape {
        [] => "()".into(),
        [n] => format!("({n},)"),
        _ => format!("({})", shape.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")),
    }
}

/// An HLO shape without its layout (`f32[2,3]`).
pub fn shape_text(shape: &Shape) -> String {
    fn strip(shape: &Shape) -> Shape {
        match shape {
            Shape::Array { element, dims, .. } => Shape::Array { element: *element, dims: dims.clone(), layout: None },
            Shape::Tuple(e) => Shape::Tuple(e.iter().map(strip).collect()),
            other => other.clone(),
        }
    }
    rxla_hlo_text::printer::print_shape(&strip(shape))
}

/// Reads one `.npy` stream (header and data).
fn read_raw<R: Read>(reader: R) -> io::Result<RawArray> {
    let npy = npyz::NpyFile::new(reader)?;
    let header = npy.header().clone();
    let ts = match header.dtype() {
        DType::Plain(ts) => ts,
        other => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("structured dtype {} is not supported", other.descr()),
            ))
        }
    };
    let descr = ts.to_string();
    let kind = ts.type_char().to_str().chars().next().unwrap_or('?');
    let size = match ts.type_char() {
        TypeChar::Bool | TypeChar::Int | TypeChar::Uint | TypeChar::Float | TypeChar::Complex | TypeChar::RawData => {
            ts.size_field() as usize
        }
        _ => return Err(io::Error::new(io::ErrorKind::InvalidData, format!("dtype {descr} is not a numeric type"))),
    };
    if header.uses_pickled_array() {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "pickled (object) arrays are not supported"));
    }
    let shape = header.shape().to_vec();
    let count = shape.iter().try_fold(1u64, |a, &d| a.checked_mul(d)).unwrap_or(u64::MAX);
    let total = (count as u128) * (size as u128);
    if total > (1u128 << 40) {
        return Err(io::Error::new(io::ErrorKind::InvalidData, format!("array {} is too large", python_shape(&shape))));
    }
    let mut bytes = vec![0u8; total as usize];
    let mut inner = npy.into_inner();
    inner.read_exact(&mut bytes).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("data ends early ({} bytes expected for {descr} {}): {e}", total, python_shape(&shape)),
        )
    })?;
    // Big-endian multi-byte elements: swap to little-endian (complex parts
    // separately).
    if ts.endianness() == npyz::Endianness::Big && size > 1 && kind != 'V' {
        let part = if kind == 'c' { size / 2 } else { size };
        for chunk in bytes.chunks_exact_mut(part) {
            chunk.reverse();
        }
    }
    if header.order() == Order::Fortran && shape.len() > 1 && count > 0 {
        bytes = fortran_to_c(&bytes, &shape, size);
    }
    Ok(RawArray { kind, size, descr, shape, bytes })
}

/// Reorders Fortran-order element bytes to row-major.
fn fortran_to_c(bytes: &[u8], shape: &[u64], size: usize) -> Vec<u8> {
    let rank = shape.len();
    // Fortran strides (elements): first dimension fastest.
    let mut fstrides = vec![1usize; rank];
    for i in 1..rank {
        fstrides[i] = fstrides[i - 1] * shape[i - 1] as usize;
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = vec![0u64; rank];
    let count = bytes.len() / size;
    for _ in 0..count {
        let offset: usize = index.iter().zip(&fstrides).map(|(&i, &s)| i as usize * s).sum();
        out.extend_from_slice(&bytes[offset * size..(offset + 1) * size]);
        for d in (0..rank).rev() {
            index[d] += 1;
            if index[d] < shape[d] {
                break;
            }
            index[d] = 0;
        }
    }
    out
}

macro_rules! le_vec {
    ($bytes:expr, $t:ty) => {
        $bytes
            .chunks_exact(std::mem::size_of::<$t>())
            .map(|c| <$t>::from_le_bytes(c.try_into().unwrap()))
            .collect::<Vec<$t>>()
    };
}

impl RawArray {
    /// The element type the dtype names on its own (no parameter type to
    /// go by): `<V2` is bf16, `|V1` raw `u8` bytes.
    pub fn natural_type(&self) -> Option<ElementType> {
        use PrimitiveType::*;
        Some(match (self.kind, self.size) {
            ('b', 1) => Pred,
            ('i', 1) => S8,
            ('i', 2) => S16,
            ('i', 4) => S32,
            ('i', 8) => S64,
            ('u', 1) => U8,
            ('u', 2) => U16,
            ('u', 4) => U32,
            ('u', 8) => U64,
            ('f', 2) => F16,
            ('f', 4) => F32,
            ('f', 8) => F64,
            ('c', 8) => C64,
            ('c', 16) => C128,
            ('V', 2) => Bf16,
            ('V', 1) => U8,
            _ => return None,
        })
    }

    fn dims(&self) -> Vec<i64> {
        self.shape.iter().map(|&d| d as i64).collect()
    }

    /// Converts to a literal of element type `t`; `Err` carries a short
    /// reason when the dtype cannot hold `t`.
    pub fn to_literal(&self, t: ElementType) -> std::result::Result<Literal, String> {
        use PrimitiveType::*;
        let b = &self.bytes;
        let (k, s) = (self.kind, self.size);
        let raw_int = matches!(k, 'i' | 'u' | 'V');
        let data = match t {
            Pred if k == 'b' && s == 1 => Data::Pred(b.iter().map(|&x| x != 0).collect()),
            S8 if k == 'i' && s == 1 => Data::S8(b.iter().map(|&x| x as i8).collect()),
            S16 if k == 'i' && s == 2 => Data::S16(le_vec!(b, i16)),
            S32 if k == 'i' && s == 4 => Data::S32(le_vec!(b, i32)),
            S64 if k == 'i' && s == 8 => Data::S64(le_vec!(b, i64)),
            U8 if k == 'u' && s == 1 => Data::U8(b.clone()),
            U16 if k == 'u' && s == 2 => Data::U16(le_vec!(b, u16)),
            U32 if k == 'u' && s == 4 => Data::U32(le_vec!(b, u32)),
            U64 if k == 'u' && s == 8 => Data::U64(le_vec!(b, u64)),
            F16 if k == 'f' && s == 2 => Data::F16(le_vec!(b, u16).into_iter().map(f16::from_bits).collect()),
            F32 if k == 'f' && s == 4 => Data::F32(le_vec!(b, f32)),
            F64 if k == 'f' && s == 8 => Data::F64(le_vec!(b, f64)),
            C64 if k == 'c' && s == 8 => {
                let v = le_vec!(b, f32);
                Data::C64(v.chunks_exact(2).map(|p| Complex32::new(p[0], p[1])).collect())
            }
            C128 if k == 'c' && s == 16 => {
                let v = le_vec!(b, f64);
                Data::C128(v.chunks_exact(2).map(|p| Complex64::new(p[0], p[1])).collect())
            }
            // bf16 as raw bits (<u2, <i2 or <V2 from ml_dtypes).
            Bf16 if raw_int && s == 2 => Data::Bf16(le_vec!(b, u16).into_iter().map(bf16::from_bits).collect()),
            // One-byte float formats as raw bits.
            t if rxla_hlo_text::floats::float_format(t).is_some() && raw_int && s == 1 => {
                let width = rxla_hlo_text::floats::float_format(t).unwrap().width();
                if width < 8 {
                    if let Some(i) = b.iter().position(|&x| u32::from(x) >> width != 0) {
                        return Err(format!(
                            "element {i} has bits 0x{:02x}, which do not fit the {width}-bit {}",
                            b[i],
                            t.name()
                        ));
                    }
                }
                Data::Bits(t, b.clone())
            }
            // Sub-byte integers, one per byte.
            S1 | S2 | S4 | U1 | U2 | U4 if raw_int && s == 1 => {
                let bits = match t {
                    S1 | U1 => 1,
                    S2 | U2 => 2,
                    _ => 4,
                };
                let signed = matches!(t, S1 | S2 | S4);
                let mut out = Vec::with_capacity(b.len());
                for (i, &x) in b.iter().enumerate() {
                    let value: i64 = if k == 'i' {
                        x as i8 as i64
                    } else if k == 'V' && signed {
                        // Raw ml_dtypes bytes: sign-extend from the type's width.
                        ((x as i64) << (64 - bits)) >> (64 - bits)
                    } else {
                        x as i64
                    };
                    let (lo, hi) = if signed {
                        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
                    } else {
                        (0, (1i64 << bits) - 1)
                    };
                    if value < lo || value > hi {
                        return Err(format!("element {i} is {value}, outside the range of {}", t.name()));
                    }
                    out.push(value as u8);
                }
                Data::Bits(t, out)
            }
            _ => {
                return Err(format!("the file has {} {}", self.descr, python_shape(&self.shape)));
            }
        };
        Ok(Literal::array(self.dims(), data))
    }

    /// The literal in the dtype's own element type.
    pub fn to_natural_literal(&self) -> std::result::Result<Literal, String> {
        let t = self.natural_type().ok_or_else(|| format!("dtype {} has no HLO element type", self.descr))?;
        self.to_literal(t)
    }
}

/// Reads a `.npy` file as stored (no conversion).
pub fn read_npy_raw(path: impl AsRef<Path>) -> Result<RawArray> {
    let path = path.as_ref();
    let file = File::open(path).map_err(|e| file_error(path, e))?;
    read_raw(BufReader::new(file)).map_err(|e| file_error(path, e))
}

/// Reads every array of an `.npz` as stored, in archive order.
pub fn read_npz_raw(path: impl AsRef<Path>) -> Result<Vec<(String, RawArray)>> {
    let path = path.as_ref();
    let mut archive = npyz::npz::NpzArchive::open(path).map_err(|e| file_error(path, e))?;
    let mut names: Vec<(usize, String)> = Vec::new();
    {
        let zip = archive.zip_archive();
        for i in 0..zip.len() {
            let entry = zip.by_index(i).map_err(|e| file_error(path, e))?;
            if let Some(name) = npyz::npz::array_name_from_file_name(entry.name()) {
                names.push((i, name.to_string()));
            }
        }
    }
    let mut out = Vec::with_capacity(names.len());
    for (i, name) in names {
        let zip = archive.zip_archive();
        let entry = zip.by_index(i).map_err(|e| file_error(path, e))?;
        let raw = read_raw(entry).map_err(|e| file_error(path, format!("{name}: {e}")))?;
        out.push((name, raw));
    }
    Ok(out)
}

/// Reads every array of an `.npz` in its dtype's own element type (see the
/// module docs for `<V2`/`|V1`), in archive order.
pub fn read_npz(path: impl AsRef<Path>) -> Result<Vec<(String, Literal)>> {
    let path = path.as_ref();
    read_npz_raw(path)?
        .into_iter()
        .map(|(name, raw)| {
            let lit = raw.to_natural_literal().map_err(|e| file_error(path, format!("{name}: {e}")))?;
            Ok((name, lit))
        })
        .collect()
}

/// Checks `raw` against an array `shape` and converts it to the shape's
/// element type. `what` names the value in errors (`parameter 1 (arg1)`).
pub fn conform(raw: &RawArray, shape: &Shape, what: &str) -> std::result::Result<Literal, String> {
    let (element, dims) = match shape {
        Shape::Array { element, dims, .. } => (*element, dims),
        Shape::Token => return Ok(Literal::Token),
        other => {
            return Err(format!(
                "{what} has shape {}, which an .npy array cannot hold (only arrays are read)",
                shape_text(other)
            ))
        }
    };
    let mismatch =
        || format!("{what}: expected {}, the file has {} {}", shape_text(shape), raw.descr, python_shape(&raw.shape));
    // A rank-0 raw-bits value stored as (1,) (see the module docs).
    if dims.is_empty() && raw.shape == [1] && is_raw_bits_type(element) && matches!(raw.kind, 'u' | 'i' | 'V') {
        let scalar = RawArray { shape: Vec::new(), ..raw.clone() };
        return conform(&scalar, shape, what);
    }
    let dims_ok = dims.len() == raw.shape.len()
        && dims.iter().zip(&raw.shape).all(|(d, &n)| match d {
            Dim::Static(s) => *s as u64 == n,
            Dim::Bounded(b) => n <= *b as u64,
            Dim::Unbounded => true,
        });
    if !dims_ok {
        return Err(mismatch());
    }
    raw.to_literal(element).map_err(|reason| {
        if reason.starts_with("the file has") {
            mismatch()
        } else {
            format!("{what}: {reason}")
        }
    })
}

/// The parameter shapes of a computation, by parameter number.
pub fn parameter_shapes(computation: &Computation) -> Vec<Shape> {
    if let Some(sig) = &computation.signature {
        if !sig.params.is_empty() {
            return sig.params.iter().map(|(_, s)| s.clone()).collect();
        }
    }
    let mut params: Vec<(i64, Shape)> = computation
        .instructions
        .iter()
        .filter(|i| i.opcode == "parameter")
        .map(|i| (i.parameter_number.unwrap_or(0), i.shape.clone()))
        .collect();
    params.sort_by_key(|(n, _)| *n);
    params.into_iter().map(|(_, s)| s).collect()
}

/// Reads arguments `arg0..argN-1` from an `.npz` and converts each to its
/// parameter's type (raw bits become bf16/f8/... as the type says). Errors
/// name the parameter: `parameter 1 (arg1): expected f32[2,3], the file
/// has <f4 (3, 2)`, or a missing key. Extra keys are ignored.
pub fn read_args(path: impl AsRef<Path>, params: &[Shape]) -> Result<Vec<Literal>> {
    let path = path.as_ref();
    // Each array is dropped once converted: the file's bytes and the
    // literals are not both held in full (a training step's are gigabytes).
    let mut arrays: Vec<(String, Option<RawArray>)> =
        read_npz_raw(path)?.into_iter().map(|(n, raw)| (n, Some(raw))).collect();
    let mut args = Vec::with_capacity(params.len());
    for (i, shape) in params.iter().enumerate() {
        let key = format!("arg{i}");
        let what = format!("parameter {i} ({key})");
        if matches!(shape, Shape::Token) {
            args.push(Literal::Token);
            continue;
        }
        let Some((_, slot)) = arrays.iter_mut().find(|(n, _)| *n == key) else {
            let have: Vec<&str> = arrays.iter().map(|(n, _)| n.as_str()).collect();
            return Err(file_error(
                path,
                format!(
                    "{what}: no array '{key}' in the file (it has {})",
                    if have.is_empty() { "no arrays".to_string() } else { have.join(", ") }
                ),
            ));
        };
        let raw = slot.take().expect("each parameter reads its own array");
        args.push(conform(&raw, shape, &what).map_err(|e| file_error(path, e))?);
    }
    Ok(args)
}

/// Reads one `.npy` file as a value of `shape` (converted as [`read_args`]
/// does).
pub fn read_npy(path: impl AsRef<Path>, shape: &Shape) -> Result<Literal> {
    let path = path.as_ref();
    let raw = read_npy_raw(path)?;
    conform(&raw, shape, "the array").map_err(|e| file_error(path, e))
}

/// Reads one `.npy` file in its dtype's own element type.
pub fn read_npy_natural(path: impl AsRef<Path>) -> Result<Literal> {
    let path = path.as_ref();
    read_npy_raw(path)?.to_natural_literal().map_err(|e| file_error(path, e))
}

/// Flattens a result into named arrays: `out0, out1, ...` over the leaves
/// of a tuple (depth-first), or `out0` for an array. Tokens are skipped.
pub fn output_arrays(result: &Literal) -> Vec<(String, &Literal)> {
    fn leaves<'a>(l: &'a Literal, out: &mut Vec<&'a Literal>) {
        match l {
            Literal::Tuple(e) => e.iter().for_each(|x| leaves(x, out)),
            Literal::Token => {}
            array => out.push(array),
        }
    }
    let mut flat = Vec::new();
    leaves(result, &mut flat);
    flat.into_iter().enumerate().map(|(i, l)| (format!("out{i}"), l)).collect()
}

/// Whether values of `t` are stored as raw bits in an unsigned integer
/// dtype (bf16, the f8/f6/f4 formats, sub-byte integers).
pub fn is_raw_bits_type(t: ElementType) -> bool {
    use PrimitiveType::*;
    matches!(t, Bf16 | S1 | S2 | S4 | U1 | U2 | U4)
        || (t != F16 && t != F32 && t != F64 && rxla_hlo_text::floats::float_format(t).is_some())
}

/// The shape an array of type `t` and `dims` is stored with: `dims`, except
/// `(1,)` for a rank-0 raw-bits value (see the module docs).
pub fn stored_dims(t: ElementType, dims: &[i64]) -> Vec<u64> {
    if dims.is_empty() && is_raw_bits_type(t) {
        return vec![1];
    }
    dims.iter().map(|&d| d.max(0) as u64).collect()
}

/// The dtype and little-endian bytes a literal is written as.
fn encode(literal: &Literal) -> std::result::Result<(&'static str, Vec<u64>, Vec<u8>), String> {
    use PrimitiveType::*;
    let (dims, data) = match literal {
        Literal::Array { dims, data } => (dims, data),
        Literal::Tuple(_) => return Err("a tuple cannot be stored in .npy; flatten it first".into()),
        Literal::Token => return Err("a token cannot be stored in .npy".into()),
    };
    macro_rules! le_bytes {
        ($v:expr) => {{
            let mut out = Vec::with_capacity($v.len() * 8);
            for x in $v.iter() {
                out.extend_from_slice(&x.to_le_bytes());
            }
            out
        }};
    }
    let (descr, bytes): (&'static str, Vec<u8>) = match data {
        Data::Pred(v) => ("|b1", v.iter().map(|&x| x as u8).collect()),
        Data::S8(v) => ("|i1", v.iter().map(|&x| x as u8).collect()),
        Data::S16(v) => ("<i2", le_bytes!(v)),
        Data::S32(v) => ("<i4", le_bytes!(v)),
        Data::S64(v) => ("<i8", le_bytes!(v)),
        Data::U8(v) => ("|u1", v.clone()),
        Data::U16(v) => ("<u2", le_bytes!(v)),
        Data::U32(v) => ("<u4", le_bytes!(v)),
        Data::U64(v) => ("<u8", le_bytes!(v)),
        Data::F16(v) => ("<f2", le_bytes!(v.iter().map(|x| x.to_bits()).collect::<Vec<u16>>())),
        Data::Bf16(v) => ("<u2", le_bytes!(v.iter().map(|x| x.to_bits()).collect::<Vec<u16>>())),
        Data::F32(v) => ("<f4", le_bytes!(v)),
        Data::F64(v) => ("<f8", le_bytes!(v)),
        Data::C64(v) => ("<c8", le_bytes!(v.iter().flat_map(|c| [c.re, c.im]).collect::<Vec<f32>>())),
        Data::C128(v) => ("<c16", le_bytes!(v.iter().flat_map(|c| [c.re, c.im]).collect::<Vec<f64>>())),
        Data::Bits(S1 | S2 | S4, v) => ("|i1", v.clone()),
        Data::Bits(_, v) => ("|u1", v.clone()),
    };
    if element_count(dims) != data.len() {
        return Err(format!("literal dims {dims:?} do not match its {} elements", data.len()));
    }
    Ok((descr, stored_dims(data.element_type(), dims), bytes))
}

fn dtype_of(descr: &str) -> DType {
    DType::Plain(descr.parse::<TypeStr>().expect("valid dtype string"))
}

/// Writes one literal as a `.npy` file (bf16 and the f8/f6/f4 formats as
/// raw bits, see the module docs).
pub fn write_npy(path: impl AsRef<Path>, literal: &Literal) -> Result<()> {
    let path = path.as_ref();
    let (descr, shape, bytes) = encode(literal).map_err(|e| file_error(path, e))?;
    let write = || -> io::Result<()> {
        let file = io::BufWriter::new(File::create(path)?);
        let mut w =
            npyz::WriteOptions::<u8>::new().dtype(dtype_of(descr)).shape(&shape).writer(file).write_header_only()?;
        w.write_all(&bytes)?;
        w.flush()
    };
    write().map_err(|e| file_error(path, e))
}

/// Writes named arrays as an uncompressed `.npz` (as `np.savez` does), in
/// the given order. Tuples must be flattened first ([`output_arrays`]).
/// One array is encoded at a time (a training step's outputs are
/// gigabytes); a file left half-written by an error is removed.
pub fn write_npz<L: std::borrow::Borrow<Literal>>(path: impl AsRef<Path>, arrays: &[(String, L)]) -> Result<()> {
    let path = path.as_ref();
    // What can fail before writing, checked before the file exists.
    for (name, literal) in arrays {
        if !matches!(literal.borrow(), Literal::Array { .. }) {
            let _ = encode(literal.borrow()).map_err(|e| file_error(path, format!("{name}: {e}")))?;
        }
    }
    let write = || -> Result<()> {
        let io = |e: io::Error| file_error(path, e);
        let mut npz = npyz::npz::NpzWriter::create(path).map_err(io)?;
        for (name, literal) in arrays {
            let (descr, shape, bytes) =
                encode(literal.borrow()).map_err(|e| file_error(path, format!("{name}: {e}")))?;
            let options = npyz::zip::write::FileOptions::default()
                .compression_method(npyz::zip::CompressionMethod::Stored)
                // A fixed time stamp: the same arrays give the same file.
                .last_modified_time(npyz::zip::DateTime::default())
                .large_file(bytes.len() as u64 >= (1u64 << 32) - 1024);
            let w = npz
                .array::<u8>(name, options)
                .map_err(io)?
                .dtype(dtype_of(descr))
                .shape(&shape)
                .write_header_only()
                .map_err(io)?;
            w.write_all(&bytes).map_err(io)?;
        }
        npz.zip_writer().finish().map_err(|e| file_error(path, e))?;
        Ok(())
    };
    write().inspect_err(|_| {
        let _ = std::fs::remove_file(path);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("rxla-npy-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    fn array(t: PrimitiveType, dims: &[i64]) -> Shape {
        Shape::Array { element: t, dims: dims.iter().map(|&d| Dim::Static(d)).collect(), layout: None }
    }

    #[test]
    fn round_trips_every_kind() {
        let arrays = vec![
            (
                "out0".to_string(),
                Literal::array(vec![2, 3], Data::F32(vec![1.0, -2.0, 3.5, f32::NAN, f32::INFINITY, -0.0])),
            ),
            ("out1".to_string(), Literal::array(vec![], Data::S64(vec![-7]))),
            ("out2".to_string(), Literal::array(vec![0, 3], Data::Pred(vec![]))),
            ("out3".to_string(), Literal::array(vec![2], Data::Bf16(vec![bf16::from_f32(1.5), bf16::from_f32(-3.0)]))),
            ("out4".to_string(), Literal::array(vec![2], Data::Bits(PrimitiveType::F8e4m3fn, vec![0x38, 0x7f]))),
            ("out5".to_string(), Literal::array(vec![1], Data::C64(vec![Complex32::new(1.0, -2.0)]))),
            ("out6".to_string(), Literal::array(vec![3], Data::U16(vec![1, 2, 65535]))),
            ("out7".to_string(), Literal::array(vec![2], Data::F16(vec![f16::from_f32(0.5), f16::from_f32(-1.0)]))),
        ];
        let path = tmp("round.npz");
        write_npz(&path, &arrays).unwrap();
        let back = read_npz(&path).unwrap();
        assert_eq!(back.len(), arrays.len());
        assert_eq!(back[0].0, "out0");
        match (&back[0].1, &arrays[0].1) {
            (Literal::Array { dims: a, data: Data::F32(x) }, Literal::Array { dims: b, data: Data::F32(y) }) => {
                assert_eq!(a, b);
                assert_eq!(
                    x.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                    y.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
                );
            }
            _ => panic!(),
        }
        assert_eq!(back[1].1, arrays[1].1);
        assert_eq!(back[2].1, arrays[2].1);
        // bf16 and f8 come back as raw bits; read_args reinterprets them.
        assert_eq!(back[3].1.element_type(), Some(PrimitiveType::U16));
        assert_eq!(back[4].1.element_type(), Some(PrimitiveType::U8));
        assert_eq!(back[5].1, arrays[5].1);
        assert_eq!(back[6].1, arrays[6].1);
        assert_eq!(back[7].1, arrays[7].1);

        let renamed: Vec<(String, Literal)> =
            arrays.iter().enumerate().map(|(i, (_, l))| (format!("arg{i}"), l.clone())).collect();
        write_npz(&path, &renamed).unwrap();
        let params = vec![
            array(PrimitiveType::F32, &[2, 3]),
            array(PrimitiveType::S64, &[]),
            array(PrimitiveType::Pred, &[0, 3]),
            array(PrimitiveType::Bf16, &[2]),
            array(PrimitiveType::F8e4m3fn, &[2]),
        ];
        let args = read_args(&path, &params).unwrap();
        assert_eq!(args[3], arrays[3].1);
        assert_eq!(args[4], arrays[4].1);
    }

    #[test]
    fn errors_name_the_parameter() {
        let path = tmp("bad.npz");
        write_npz(
            &path,
            &[
                ("arg0".into(), Literal::array(vec![3], Data::F32(vec![0.0; 3]))),
                ("arg1".into(), Literal::array(vec![3, 2], Data::F32(vec![0.0; 6]))),
            ],
        )
        .unwrap();
        let e = read_args(&path, &[array(PrimitiveType::F32, &[3]), array(PrimitiveType::F32, &[2, 3])]).unwrap_err();
        assert!(e.message.ends_with("parameter 1 (arg1): expected f32[2,3], the file has <f4 (3, 2)"), "{e}");
        let e = read_args(&path, &[array(PrimitiveType::S32, &[3])]).unwrap_err();
        assert!(e.message.ends_with("parameter 0 (arg0): expected s32[3], the file has <f4 (3,)"), "{e}");
        let e = read_args(
            &path,
            &[array(PrimitiveType::F32, &[3]), array(PrimitiveType::F32, &[3, 2]), array(PrimitiveType::F32, &[])],
        )
        .unwrap_err();
        assert!(e.message.contains("parameter 2 (arg2): no array 'arg2' in the file (it has arg0, arg1)"), "{e}");
        let e = read_args(tmp("missing.npz"), &[]).unwrap_err();
        assert!(e.message.contains("missing.npz"), "{e}");
    }

    #[test]
    fn npy_files_and_fortran_order() {
        let path = tmp("one.npy");
        let lit = Literal::array(vec![2, 2], Data::S32(vec![1, 2, 3, 4]));
        write_npy(&path, &lit).unwrap();
        assert_eq!(read_npy(&path, &array(PrimitiveType::S32, &[2, 2])).unwrap(), lit);
        assert_eq!(fortran_to_c(&[1, 3, 2, 4], &[2, 2], 1), vec![1, 2, 3, 4]);
        assert_eq!(fortran_to_c(&[1, 4, 2, 5, 3, 6], &[2, 3], 1), vec![1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn raw_bits_scalars_are_stored_as_one_element() {
        let path = tmp("scalar.npz");
        let x = Literal::array(vec![], Data::Bf16(vec![bf16::from_f32(2.0)]));
        write_npz(&path, &[("arg0".into(), x.clone()), ("arg1".into(), Literal::array(vec![], Data::F32(vec![1.0])))])
            .unwrap();
        let raw = read_npz_raw(&path).unwrap();
        assert_eq!(raw[0].1.shape, vec![1]);
        assert_eq!(raw[1].1.shape, Vec::<u64>::new());
        let args = read_args(&path, &[array(PrimitiveType::Bf16, &[]), array(PrimitiveType::F32, &[])]).unwrap();
        assert_eq!(args[0], x);
        // (1,) is still an error for a native type's scalar.
        let e = read_args(&path, &[array(PrimitiveType::Bf16, &[]), array(PrimitiveType::F32, &[1])]).unwrap_err();
        assert!(e.message.contains("expected f32[1], the file has <f4 ()"), "{e}");
    }

    #[test]
    fn sub_byte_integers_are_range_checked() {
        let raw = RawArray { kind: 'i', size: 1, descr: "|i1".into(), shape: vec![3], bytes: vec![7, 0xf8, 0] };
        assert_eq!(
            raw.to_literal(PrimitiveType::S4).unwrap(),
            Literal::array(vec![3], Data::Bits(PrimitiveType::S4, vec![7, 0xf8, 0]))
        );
        let raw = RawArray { kind: 'u', size: 1, descr: "|u1".into(), shape: vec![1], bytes: vec![16] };
        assert!(raw.to_literal(PrimitiveType::U4).is_err());
    }
}
