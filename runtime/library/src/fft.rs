//! `fft` over the innermost `fft_length.len()` (1 to 3) axes, with rustfft.
//!
//! Conventions are the reference interpreter's (pocketfft/ducc's, as on
//! XLA:CPU):
//!
//! - FFT is `X[k] = sum_j x[j] exp(-2 pi i jk/n)` per axis; IFFT uses the
//!   opposite sign and scales by `1/n` per transformed axis.
//! - RFFT transforms a real operand: the innermost axis first, keeping its
//!   `n/2+1` outputs, then the other axes.
//! - IRFFT inverts the outer axes first, then the innermost one: it reads
//!   the first `n/2+1` entries of that axis, completes the line by Hermitian
//!   symmetry (`x[n-j] = conj(x[j])`) and returns the real part, so the
//!   imaginary parts of the DC and (even `n`) Nyquist terms are ignored.
//! - Types: FFT/IFFT c64 or c128 in and out, RFFT f32/f64 -> c64/c128,
//!   IRFFT c64/c128 -> f32/f64. Everything is computed in f64 (c128) and
//!   rounded once at the end, like the interpreter, so c64 results carry
//!   no f32 accumulation error.
//! - Lines are transformed in parallel (rayon) when the array is large;
//!   lines along an outer axis are gathered a few columns at a time.

use crate::array::{checked_dims, typed_cow, write_typed, ArrayMut, ArrayRef, ElementType};
use crate::matmul::SendPtr;
use num_complex::{Complex32, Complex64};
use rayon::prelude::*;
use rustfft::{Fft, FftDirection, FftPlanner};
use std::sync::Arc;

/// `fft_type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FftKind {
    Fft,
    Ifft,
    Rfft,
    Irfft,
}

impl FftKind {
    /// From the HLO text spelling (`FFT`, `IFFT`, `RFFT`, `IRFFT`).
    pub fn parse(s: &str) -> Option<FftKind> {
        Some(match s {
            "FFT" => FftKind::Fft,
            "IFFT" => FftKind::Ifft,
            "RFFT" => FftKind::Rfft,
            "IRFFT" => FftKind::Irfft,
            _ => return None,
        })
    }
}

/// Arrays at least this large (elements) are transformed in parallel.
const PARALLEL_ELEMENTS: usize = 1 << 14;
/// Columns gathered together when transforming along an outer axis.
const COLUMNS: usize = 16;

fn plan(n: usize, inverse: bool) -> Arc<dyn Fft<f64>> {
    FftPlanner::new().plan_fft(n, if inverse { FftDirection::Inverse } else { FftDirection::Forward })
}

/// Transforms every line of `data` (row-major `dims`) along `axis`,
/// scaling by `1/n` when `inverse`.
fn transform_axis(data: &mut [Complex64], dims: &[usize], axis: usize, inverse: bool) {
    let n = dims[axis];
    if n <= 1 || data.is_empty() {
        return;
    }
    let inner: usize = dims[axis + 1..].iter().product();
    let outer: usize = dims[..axis].iter().product();
    let fft = plan(n, inverse);
    let scratch_len = fft.get_inplace_scratch_len();
    let scale = 1.0 / n as f64;
    let parallel = data.len() >= PARALLEL_ELEMENTS && rayon::current_num_threads() > 1;
    if inner == 1 {
        // Contiguous lines: rustfft transforms a run of them in one call.
        let lines_per_task = (PARALLEL_ELEMENTS / n).max(1);
        let body = |scratch: &mut Vec<Complex64>, chunk: &mut [Complex64]| {
            scratch.resize(scratch_len, Complex64::default());
            fft.process_with_scratch(chunk, scratch);
            if inverse {
                chunk.iter_mut().for_each(|v| *v *= scale);
            }
        };
        if parallel {
            data.par_chunks_mut(n * lines_per_task).for_each_init(Vec::new, body);
        } else {
            let mut scratch = Vec::new();
            data.chunks_mut(n * lines_per_task).for_each(|c| body(&mut scratch, c));
        }
        return;
    }
    // Strided lines: tasks own disjoint column groups of one outer block.
    let groups = inner.div_ceil(COLUMNS);
    let ptr = SendPtr(data.as_mut_ptr());
    let body = |bufs: &mut (Vec<Complex64>, Vec<Complex64>), task: usize| {
        let (o, grp) = (task / groups, task % groups);
        let (c0, c1) = (grp * COLUMNS, ((grp + 1) * COLUMNS).min(inner));
        let w = c1 - c0;
        let (lines, scratch) = bufs;
        lines.resize(w * n, Complex64::default());
        scratch.resize(scratch_len, Complex64::default());
        let base = o * n * inner;
        // SAFETY: this task alone reads and writes columns c0..c1 of block
        // o, all inside `data`.
        unsafe {
            for j in 0..n {
                for c in 0..w {
                    lines[c * n + j] = *ptr.get().add(base + j * inner + c0 + c);
                }
            }
            fft.process_with_scratch(&mut lines[..w * n], scratch);
            let s = if inverse { scale } else { 1.0 };
            for j in 0..n {
                for c in 0..w {
                    *ptr.get().add(base + j * inner + c0 + c) = lines[c * n + j] * s;
                }
            }
        }
    };
    let tasks = outer * groups;
    if parallel {
        (0..tasks).into_par_iter().for_each_init(|| (Vec::new(), Vec::new()), body);
    } else {
        let mut bufs = (Vec::new(), Vec::new());
        (0..tasks).for_each(|t| body(&mut bufs, t));
    }
}

/// Runs `f(line index, line)` over the `width`-long lines of `out`.
fn for_lines<T: Send>(out: &mut [T], width: usize, f: impl Fn(&mut Vec<Complex64>, usize, &mut [T]) + Sync + Send) {
    if width == 0 {
        return;
    }
    if out.len() >= PARALLEL_ELEMENTS && rayon::current_num_threads() > 1 {
        out.par_chunks_mut(width).enumerate().for_each_init(Vec::new, |s, (l, line)| f(s, l, line));
    } else {
        let mut s = Vec::new();
        out.chunks_mut(width).enumerate().for_each(|(l, line)| f(&mut s, l, line));
    }
}

fn load(a: ArrayRef) -> Vec<Complex64> {
    match a.ty {
        ElementType::C128 => typed_cow::<Complex64>(a.data).into_owned(),
        ElementType::C64 => {
            typed_cow::<Complex32>(a.data).iter().map(|z| Complex64::new(z.re as f64, z.im as f64)).collect()
        }
        ElementType::F64 => typed_cow::<f64>(a.data).iter().map(|&x| Complex64::new(x, 0.0)).collect(),
        ElementType::F32 => typed_cow::<f32>(a.data).iter().map(|&x| Complex64::new(x as f64, 0.0)).collect(),
        _ => unreachable!("types are checked first"),
    }
}

fn store_complex(t: ElementType, v: &[Complex64], out: &mut [u8]) {
    if t == ElementType::C128 {
        write_typed(v, out);
    } else {
        let v: Vec<Complex32> = v.iter().map(|z| Complex32::new(z.re as f32, z.im as f32)).collect();
        write_typed(&v, out);
    }
}

fn store_real(t: ElementType, v: &[f64], out: &mut [u8]) {
    if t == ElementType::F64 {
        write_typed(v, out);
    } else {
        let v: Vec<f32> = v.iter().map(|&x| x as f32).collect();
        write_typed(&v, out);
    }
}

/// `out = fft(input)` of `kind` over the innermost `lengths.len()` axes.
pub fn fft(input: ArrayRef, out: ArrayMut, kind: FftKind, lengths: &[i64]) -> Result<(), String> {
    let ins = checked_dims("fft", "operand", input.ty, input.dims, input.data.len())?;
    let outs = checked_dims("fft", "result", out.ty, out.dims, out.data.len())?;
    let (rank, r) = (ins.len(), lengths.len());
    if r == 0 || r > 3 || r > rank || outs.len() != rank {
        return Err(format!("fft: {kind:?} over {r} axes of a rank-{rank} operand into a rank-{} result", outs.len()));
    }
    let complex = |t: ElementType| matches!(t, ElementType::C64 | ElementType::C128);
    let real = |t: ElementType| matches!(t, ElementType::F32 | ElementType::F64);
    let types_ok = match kind {
        FftKind::Fft | FftKind::Ifft => complex(input.ty) && complex(out.ty),
        FftKind::Rfft => real(input.ty) && complex(out.ty),
        FftKind::Irfft => complex(input.ty) && real(out.ty),
    };
    if !types_ok {
        return Err(format!("fft: {kind:?} of {} into {} is not supported", input.ty.name(), out.ty.name()));
    }
    if let Some(l) = lengths.iter().find(|&&l| l < 0) {
        return Err(format!("fft: negative fft_length {l} in {lengths:?}"));
    }
    let lens: Vec<usize> = lengths.iter().map(|&l| l as usize).collect();
    let first = rank - r;
    let bad = || format!("fft: {kind:?} of {:?} with fft_length {lengths:?} cannot give {:?}", ins, outs);
    if ins[..first] != outs[..first] {
        return Err(bad());
    }
    let last = lens[r - 1];
    let t = out.ty;
    match kind {
        FftKind::Fft | FftKind::Ifft => {
            if ins[first..] != lens[..] || ins != outs {
                return Err(bad());
            }
            let mut buf = load(input);
            for axis in first..rank {
                transform_axis(&mut buf, &ins, axis, kind == FftKind::Ifft);
            }
            store_complex(t, &buf, out.data);
        }
        FftKind::Rfft => {
            let keep = last / 2 + 1;
            if ins[first..] != lens[..] || outs[first..rank - 1] != lens[..r - 1] || outs[rank - 1] != keep {
                return Err(bad());
            }
            let src = load(input);
            let mut cut = vec![Complex64::default(); outs.iter().product()];
            if last > 0 && !src.is_empty() {
                let fft = plan(last, false);
                let scratch_len = fft.get_inplace_scratch_len();
                for_lines(&mut cut, keep, |scratch, l, dst| {
                    let mut line = src[l * last..(l + 1) * last].to_vec();
                    scratch.resize(scratch_len, Complex64::default());
                    fft.process_with_scratch(&mut line, scratch);
                    dst.copy_from_slice(&line[..keep]);
                });
                for axis in first..rank - 1 {
                    transform_axis(&mut cut, &outs, axis, false);
                }
            }
            store_complex(t, &cut, out.data);
        }
        FftKind::Irfft => {
            let half = last / 2 + 1;
            if outs[first..] != lens[..] || ins[first..rank - 1] != lens[..r - 1] {
                return Err(bad());
            }
            let width = ins[rank - 1];
            if width < half && last > 0 {
                return Err(format!(
                    "fft: IRFFT needs at least {half} entries in the innermost operand axis, got {width}"
                ));
            }
            let mut buf = load(input);
            for axis in first..rank - 1 {
                transform_axis(&mut buf, &ins, axis, true);
            }
            let mut result = vec![0f64; outs.iter().product()];
            if last > 0 && !buf.is_empty() {
                let fft = plan(last, true);
                let scratch_len = fft.get_inplace_scratch_len();
                let scale = 1.0 / last as f64;
                for_lines(&mut result, last, |scratch, l, dst| {
                    let src = &buf[l * width..l * width + half];
                    let mut line: Vec<Complex64> =
                        (0..last).map(|j| if j < half { src[j] } else { src[last - j].conj() }).collect();
                    scratch.resize(scratch_len, Complex64::default());
                    fft.process_with_scratch(&mut line, scratch);
                    dst.iter_mut().zip(&line).for_each(|(d, v)| *d = v.re * scale);
                });
            }
            store_real(t, &result, out.data);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_delta_transforms_to_ones() {
        let mut x = [Complex64::default(); 6];
        x[0] = Complex64::new(1.0, 0.0);
        let bytes: Vec<u8> = x.iter().flat_map(|z| [z.re.to_le_bytes(), z.im.to_le_bytes()].concat()).collect();
        let mut o = vec![0u8; 96];
        fft(
            ArrayRef::new(ElementType::C128, &[6], &bytes),
            ArrayMut::new(ElementType::C128, &[6], &mut o),
            FftKind::Fft,
            &[6],
        )
        .unwrap();
        let got: Vec<f64> = o.chunks(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!(got, [1.0, 0.0].repeat(6));
    }
}
