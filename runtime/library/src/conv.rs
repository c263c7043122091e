//! `convolution` over row-major buffers, any dimension numbers.
//!
//! Semantics are the reference interpreter's (HloEvaluator's index
//! arithmetic): output position `o` and kernel tap `k` of a spatial
//! dimension read input position `o*stride - pad_low + k*rhs_dilation`,
//! which must be a multiple of `lhs_dilation` (else it is a hole: zero) and,
//! divided by it, inside the input (else padding: zero); negative padding
//! crops; `reversal` reads kernel tap `size-1-k`; `pad_high` is implied by
//! the output size. With `feature_group_count = G` output feature `o`
//! belongs to group `o / (O/G)` and reads input features `g*C/G ..`; with
//! `batch_group_count = G` it reads input batch `g*(N/G) + b`. Element
//! types follow the rules in src/convert.rs (floats in f32/f64/c64/c128 compute
//! types through gemm, integers exact with wrapping).
//!
//! It is evaluated as im2col + a matrix product per block of output
//! positions: each block of rows (batch, output position) gathers its
//! `[rows, taps * C/G]` patch matrix (sized to stay in the L2 cache, or at
//! least `O/G` rows: gemm packs the whole kernel matrix for each product)
//! and multiplies it by the group's `[taps * C/G, O/G]` kernel matrix
//! (an HWIO kernel as it is, others packed once); blocks and groups run in
//! parallel. A block whose output rows are
//! equally spaced (NHWC outputs, NCHW within one image) is written by the
//! product directly, others through a small scatter.
//!
//! Depthwise convolutions (every group one input and one output feature)
//! skip im2col, whose products would have one output column: each output
//! position accumulates its taps over all channels at once.

use crate::array::{checked_dims, row_major_strides, write_typed, ArrayMut, ArrayRef, Element, ElementType};
use crate::convert::{self, Compute};
use crate::matmul::{Product, Scalar, SendPtr};
use rayon::prelude::*;
use rxla_hlo_text::attrs;
use std::borrow::Cow;

/// Convolution dimension numbers: which dimension of each array is which.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvDims {
    pub input_batch: usize,
    pub input_feature: usize,
    pub input_spatial: Vec<usize>,
    pub kernel_input_feature: usize,
    pub kernel_output_feature: usize,
    pub kernel_spatial: Vec<usize>,
    pub output_batch: usize,
    pub output_feature: usize,
    pub output_spatial: Vec<usize>,
}

impl ConvDims {
    /// From the parsed `dim_labels=` attribute (e.g. `b01f_01io->b01f`).
    pub fn from_labels(dn: &attrs::ConvDimensionNumbers) -> Result<ConvDims, String> {
        let u = |d: i64| usize::try_from(d).map_err(|_| format!("convolution: negative dimension {d} in dim_labels"));
        let us = |v: &[i64]| v.iter().map(|&d| u(d)).collect::<Result<Vec<_>, _>>();
        Ok(ConvDims {
            input_batch: u(dn.input_batch)?,
            input_feature: u(dn.input_feature)?,
            input_spatial: us(&dn.input_spatial)?,
            kernel_input_feature: u(dn.kernel_input_feature)?,
            kernel_output_feature: u(dn.kernel_output_feature)?,
            kernel_spatial: us(&dn.kernel_spatial)?,
            output_batch: u(dn.output_batch)?,
            output_feature: u(dn.output_feature)?,
            output_spatial: us(&dn.output_spatial)?,
        })
    }
}

/// One spatial dimension of the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowDim {
    pub size: i64,
    pub stride: i64,
    pub pad_low: i64,
    pub pad_high: i64,
    pub lhs_dilation: i64,
    pub rhs_dilation: i64,
    pub reversal: bool,
}

impl WindowDim {
    /// A window dimension of `size` taps with stride 1, no padding or
    /// dilation.
    pub fn new(size: i64) -> WindowDim {
        WindowDim { size, stride: 1, pad_low: 0, pad_high: 0, lhs_dilation: 1, rhs_dilation: 1, reversal: false }
    }
}

impl From<&attrs::WindowDim> for WindowDim {
    fn from(w: &attrs::WindowDim) -> WindowDim {
        WindowDim {
            size: w.size,
            stride: w.stride,
            pad_low: w.padding_low,
            pad_high: w.padding_high,
            lhs_dilation: w.lhs_dilate,
            rhs_dilation: w.rhs_dilate,
            reversal: w.rhs_reversal,
        }
    }
}

/// Everything the core loop needs, checked.
struct Params {
    /// Row-major strides of input, kernel and output.
    ls: Vec<usize>,
    rs: Vec<usize>,
    os: Vec<usize>,
    dims: ConvDims,
    /// Per spatial dimension: output size, kernel size.
    out_sp: Vec<usize>,
    kernel_sp: Vec<usize>,
    /// `taps[s][o * kernel_sp[s] + k]`: input index, or -1 for zero.
    taps: Vec<Vec<i64>>,
    reversal: Vec<bool>,
    fgc: usize,
    bgc: usize,
    n_out: usize,
    /// Input features per group, output features per group.
    ci: usize,
    og: usize,
}

impl Params {
    /// Every group one input and one output feature, and no batch groups.
    fn is_depthwise(&self) -> bool {
        self.bgc == 1 && self.fgc > 1 && self.ci == 1 && self.og == 1 && !self.kernel_sp.is_empty()
    }

    fn groups(&self) -> usize {
        self.fgc * self.bgc
    }
    fn taps_total(&self) -> usize {
        self.kernel_sp.iter().product()
    }
    fn cols(&self) -> usize {
        self.taps_total() * self.ci
    }
    fn rows(&self) -> usize {
        self.n_out * self.out_sp.iter().product::<usize>()
    }
}

fn check_layout(what: &str, rank: usize, list: &[usize]) -> Result<(), String> {
    let mut seen = vec![false; rank];
    for &d in list {
        if d >= rank || seen[d] {
            return Err(format!("convolution: {what} dimension numbers {list:?} are not a permutation of 0..{rank}"));
        }
        seen[d] = true;
    }
    Ok(())
}

fn check(
    lhs: &ArrayRef,
    rhs: &ArrayRef,
    out: &ArrayMut,
    dims: &ConvDims,
    window: &[WindowDim],
    fgc: usize,
    bgc: usize,
) -> Result<Params, String> {
    let ld = checked_dims("convolution", "input", lhs.ty, lhs.dims, lhs.data.len())?;
    let rd = checked_dims("convolution", "kernel", rhs.ty, rhs.dims, rhs.data.len())?;
    let od = checked_dims("convolution", "result", out.ty, out.dims, out.data.len())?;
    let spatial = dims.input_spatial.len();
    let rank = spatial + 2;
    if dims.kernel_spatial.len() != spatial || dims.output_spatial.len() != spatial {
        return Err("convolution: input, kernel and output have different numbers of spatial dimensions".into());
    }
    if ld.len() != rank || rd.len() != rank || od.len() != rank {
        return Err(format!(
            "convolution with {spatial} spatial dimensions needs rank-{rank} operands and result, got {:?}, {:?} -> {:?}",
            ld, rd, od
        ));
    }
    let cat = |a: usize, b: usize, s: &[usize]| -> Vec<usize> { [a, b].into_iter().chain(s.iter().copied()).collect() };
    check_layout("input", rank, &cat(dims.input_batch, dims.input_feature, &dims.input_spatial))?;
    check_layout("kernel", rank, &cat(dims.kernel_input_feature, dims.kernel_output_feature, &dims.kernel_spatial))?;
    check_layout("output", rank, &cat(dims.output_batch, dims.output_feature, &dims.output_spatial))?;
    if window.len() != spatial {
        return Err(format!(
            "convolution: window has {} dimensions but there are {spatial} spatial dimensions",
            window.len()
        ));
    }
    if fgc < 1 || bgc < 1 {
        return Err("convolution: feature_group_count and batch_group_count must be positive".into());
    }
    let (n_in, c_in) = (ld[dims.input_batch], ld[dims.input_feature]);
    let (o_k, ci_k) = (rd[dims.kernel_output_feature], rd[dims.kernel_input_feature]);
    let (n_out, o_out) = (od[dims.output_batch], od[dims.output_feature]);
    let groups = fgc * bgc;
    if c_in != ci_k * fgc || o_k % groups != 0 || n_in % bgc != 0 || n_out != n_in / bgc || o_out != o_k {
        return Err(format!(
            "convolution shapes do not agree: input batch {n_in}, features {c_in}; kernel input features {ci_k}, output features {o_k}; result batch {n_out}, features {o_out}; feature_group_count {fgc}, batch_group_count {bgc}"
        ));
    }
    let mut p = Params {
        ls: row_major_strides(&ld),
        rs: row_major_strides(&rd),
        os: row_major_strides(&od),
        dims: dims.clone(),
        out_sp: Vec::new(),
        kernel_sp: Vec::new(),
        taps: Vec::new(),
        reversal: window.iter().map(|w| w.reversal).collect(),
        fgc,
        bgc,
        n_out,
        ci: ci_k,
        og: o_k / groups,
    };
    for (s, w) in window.iter().enumerate() {
        let (os, ks, is) = (od[dims.output_spatial[s]], rd[dims.kernel_spatial[s]], ld[dims.input_spatial[s]]);
        if w.size != ks as i64 {
            return Err(format!("convolution: window size {} does not match kernel spatial size {ks}", w.size));
        }
        if w.lhs_dilation < 1 || w.rhs_dilation < 1 || w.stride < 1 {
            return Err(format!("convolution: window strides and dilations must be positive, got {w:?}"));
        }
        let mut taps = vec![-1i64; os * ks];
        for o in 0..os {
            for k in 0..ks {
                // i128: no overflow whatever the attribute values.
                let undilated = o as i128 * w.stride as i128 - w.pad_low as i128 + k as i128 * w.rhs_dilation as i128;
                if undilated < 0 || undilated % w.lhs_dilation as i128 != 0 {
                    continue;
                }
                let i = undilated / w.lhs_dilation as i128;
                if i < is as i128 {
                    taps[o * ks + k] = i as i64;
                }
            }
        }
        p.out_sp.push(os);
        p.kernel_sp.push(ks);
        p.taps.push(taps);
    }
    Ok(p)
}

/// Kernel positions, row-major over the kernel's spatial dims, flattened
/// (`spatial` entries per position).
fn kernel_positions(kernel: &[usize]) -> Vec<usize> {
    let total: usize = kernel.iter().product();
    let mut out = Vec::with_capacity(total * kernel.len());
    let mut idx = vec![0usize; kernel.len()];
    for _ in 0..total {
        out.extend_from_slice(&idx);
        for d in (0..idx.len()).rev() {
            idx[d] += 1;
            if idx[d] < kernel[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    out
}

/// True if the kernel already is the matrix [`pack_kernels`] makes: one
/// group, no reversal, and its dims in the order spatial (in order), input
/// feature, output feature (HWIO), so that row `(tap, ci)` and column
/// `oo` are at `(tap * ci + c) * og + oo`.
fn kernel_is_packed(p: &Params) -> bool {
    let mut order = p.dims.kernel_spatial.clone();
    order.extend([p.dims.kernel_input_feature, p.dims.kernel_output_feature]);
    p.groups() == 1 && !p.reversal.iter().any(|r| *r) && order.iter().enumerate().all(|(i, d)| *d == i)
}

/// Every group's kernel matrix `[cols, og]` (row `(tap, ci)`, column `oo`),
/// packed back to back.
fn pack_kernels<T: Copy>(rhs: &[T], p: &Params, kpos: &[usize]) -> Vec<T> {
    let spatial = p.kernel_sp.len();
    let (cols, og) = (p.cols(), p.og);
    let (ri, ro) = (p.rs[p.dims.kernel_input_feature], p.rs[p.dims.kernel_output_feature]);
    let mut w = Vec::with_capacity(p.groups() * cols * og);
    for g in 0..p.groups() {
        for t in 0..p.taps_total() {
            let kp = &kpos[t * spatial..(t + 1) * spatial];
            let mut base = 0usize;
            for (s, &kps) in kp.iter().enumerate() {
                let k = if p.reversal[s] { p.kernel_sp[s] - 1 - kps } else { kps };
                base += k * p.rs[p.dims.kernel_spatial[s]];
            }
            for c in 0..p.ci {
                w.extend((0..og).map(|oo| rhs[base + c * ri + (g * og + oo) * ro]));
            }
        }
    }
    w
}

/// Decodes row `r` into (batch, output position).
fn decode_row(mut r: usize, out_sp: &[usize], opos: &mut [usize]) -> usize {
    for s in (0..out_sp.len()).rev() {
        opos[s] = r % out_sp[s];
        r /= out_sp[s];
    }
    r
}

/// Fills `patch` (`nr` rows of `cols`) for rows `r0..r0+nr` of group `g` and
/// returns each row's output offset in `offsets`.
#[allow(clippy::too_many_arguments)]
fn im2col<T: Scalar>(
    lhs: &[T],
    p: &Params,
    kpos: &[usize],
    g: usize,
    r0: usize,
    nr: usize,
    patch: &mut [T],
    offsets: &mut Vec<usize>,
) {
    let spatial = p.out_sp.len();
    let (ci, cols, taps_total) = (p.ci, p.cols(), p.taps_total());
    let d = &p.dims;
    let feature_offset = if p.fgc > 1 { g * ci } else { 0 };
    let batch_offset = if p.bgc > 1 { g * p.n_out } else { 0 };
    let (lf, lb) = (p.ls[d.input_feature], p.ls[d.input_batch]);
    let mut opos = vec![0usize; spatial];
    let mut b = decode_row(r0, &p.out_sp, &mut opos);
    offsets.clear();
    for row in patch.chunks_exact_mut(cols.max(1)).take(nr) {
        let mut out_base = b * p.os[d.output_batch];
        for (s, &o) in opos.iter().enumerate() {
            out_base += o * p.os[d.output_spatial[s]];
        }
        offsets.push(out_base);
        let in_base = (batch_offset + b) * lb + feature_offset * lf;
        'taps: for t in 0..taps_total {
            let dst = &mut row[t * ci..(t + 1) * ci];
            let kp = &kpos[t * spatial..(t + 1) * spatial];
            let mut off = in_base;
            for s in 0..spatial {
                let i = p.taps[s][opos[s] * p.kernel_sp[s] + kp[s]];
                if i < 0 {
                    dst.iter_mut().for_each(|v| *v = T::ZERO);
                    continue 'taps;
                }
                off += i as usize * p.ls[d.input_spatial[s]];
            }
            if lf == 1 {
                dst.copy_from_slice(&lhs[off..off + ci]);
            } else {
                for (c, v) in dst.iter_mut().enumerate() {
                    *v = lhs[off + c * lf];
                }
            }
        }
        // Next row: odometer over the output position, then the batch.
        let mut carry = true;
        for s in (0..spatial).rev() {
            opos[s] += 1;
            if opos[s] < p.out_sp[s] {
                carry = false;
                break;
            }
            opos[s] = 0;
        }
        if carry {
            b += 1;
        }
    }
}

/// Bytes of patch matrix per block: about a quarter of a 2 MiB L2.
const PATCH_BYTES: usize = 512 << 10;

/// At most this many bytes of patch matrix per block when a block grows
/// past [`PATCH_BYTES`] to amortize the kernel matrix's packing.
const PATCH_MAX_BYTES: usize = 8 << 20;

/// The convolution in compute type `T` into `out` (row-major result dims).
fn conv_core<T: Scalar>(lhs: &[T], rhs: &[T], out: &mut [T], p: &Params) {
    let (rows, cols, og, groups) = (p.rows(), p.cols(), p.og, p.groups());
    if rows == 0 || og == 0 || out.is_empty() {
        return;
    }
    if cols == 0 {
        out.iter_mut().for_each(|v| *v = T::ZERO);
        return;
    }
    let kpos = kernel_positions(&p.kernel_sp);
    // An HWIO kernel is the matrix as it is (a 3x3x512x256 kernel is 4.7 MB
    // to copy, on one thread).
    let packed = (!kernel_is_packed(p)).then(|| pack_kernels(rhs, p, &kpos));
    let w: &[T] = packed.as_deref().unwrap_or(rhs);
    let threads = rayon::current_num_threads();
    let size = std::mem::size_of::<T>();
    let mut block = (PATCH_BYTES / (cols * size)).clamp(8, 4096);
    // gemm packs the whole `[cols, og]` kernel matrix for every product, so
    // a block of `r` rows packs `cols * og` elements for `r * cols` of
    // patch: at least `og` rows keep that under half the block's traffic
    // (a [2048, 4608] x [4608, 256] convolution in blocks of 28 rows
    // packed its kernel 73 times).
    block = block.max(og.min(PATCH_MAX_BYTES / (cols * size)));
    // Enough tasks to keep every thread busy.
    let per_group = (threads * 2).div_ceil(groups);
    block = block.min(rows.div_ceil(per_group)).max(1);
    let blocks = rows.div_ceil(block);
    let of = p.os[p.dims.output_feature];
    let out_len = out.len();
    let dst = SendPtr(out.as_mut_ptr());
    let task = |scratch: &mut (Vec<T>, Vec<usize>, Vec<T>), t: usize| {
        let (g, blk) = (t / blocks, t % blocks);
        let r0 = blk * block;
        let nr = block.min(rows - r0);
        let (patch, offsets, tmp) = scratch;
        patch.resize(block * cols, T::ZERO);
        im2col(lhs, p, &kpos, g, r0, nr, patch, offsets);
        let wg = &w[g * cols * og..(g + 1) * cols * og];
        let feature0 = g * og * of;
        let step = if nr > 1 { offsets[1].wrapping_sub(offsets[0]) } else { 0 };
        let uniform = nr == 1 || offsets.windows(2).all(|o| o[1].wrapping_sub(o[0]) == step && o[1] > o[0]);
        // The block's patch rows times the group's weights, into `dst`.
        let into = |dst: *mut T, dst_rs: usize, dst_cs: usize| Product {
            m: nr,
            n: og,
            k: cols,
            dst,
            dst_rs,
            dst_cs,
            lhs: patch.as_ptr(),
            lhs_rs: cols,
            lhs_cs: 1,
            rhs: wg.as_ptr(),
            rhs_rs: og,
            rhs_cs: 1,
        };
        // SAFETY: the rows of this block and the features of this group are
        // written by this task alone; offsets are inside `out` (they come
        // from its checked shape).
        unsafe {
            if uniform {
                debug_assert!(offsets[0] + feature0 + (nr - 1) * step + (og - 1) * of < out_len);
                T::product(into(dst.get().add(offsets[0] + feature0), step, of), false);
            } else {
                tmp.resize(nr * og, T::ZERO);
                T::product(into(tmp.as_mut_ptr(), og, 1), false);
                for (r, &base) in offsets.iter().enumerate() {
                    for oo in 0..og {
                        debug_assert!(base + feature0 + oo * of < out_len);
                        *dst.get().add(base + feature0 + oo * of) = tmp[r * og + oo];
                    }
                }
            }
        }
    };
    let tasks = groups * blocks;
    if tasks > 1 && threads > 1 && rows * cols * og >= 1 << 16 {
        (0..tasks).into_par_iter().for_each_init(|| (Vec::new(), Vec::new(), Vec::new()), task);
    } else {
        let mut scratch = (Vec::new(), Vec::new(), Vec::new());
        (0..tasks).for_each(|t| task(&mut scratch, t));
    }
}

/// Runs in compute type `T`, straight into `out` when it is of that type.
fn run_into<T: Scalar + Element>(
    p: &Params,
    lhs: Cow<[T]>,
    rhs: Cow<[T]>,
    out: &mut ArrayMut,
    direct: bool,
    store: impl FnOnce(&[T], &mut [u8]),
) {
    run_with(p, lhs, rhs, out, direct, store, conv_core)
}

/// [`run_into`] for real types: depthwise convolutions take their own path.
fn run_real<T: Scalar + Element + std::ops::Add<Output = T> + std::ops::Mul<Output = T>>(
    p: &Params,
    lhs: Cow<[T]>,
    rhs: Cow<[T]>,
    out: &mut ArrayMut,
    direct: bool,
    store: impl FnOnce(&[T], &mut [u8]),
) {
    if p.is_depthwise() {
        run_with(p, lhs, rhs, out, direct, store, depthwise)
    } else {
        run_with(p, lhs, rhs, out, direct, store, conv_core)
    }
}

fn run_with<T: Scalar + Element>(
    p: &Params,
    lhs: Cow<[T]>,
    rhs: Cow<[T]>,
    out: &mut ArrayMut,
    direct: bool,
    store: impl FnOnce(&[T], &mut [u8]),
    core: fn(&[T], &[T], &mut [T], &Params),
) {
    if direct && (out.data.as_ptr() as usize).is_multiple_of(std::mem::align_of::<T>()) {
        core(&lhs, &rhs, crate::array::cast_mut(out.data), p);
    } else {
        let mut tmp = vec![T::ZERO; out.elements()];
        core(&lhs, &rhs, &mut tmp, p);
        store(&tmp, out.data);
    }
}

/// A depthwise convolution (every group one input and one output feature,
/// as in MobileNet and EfficientNet): im2col would make one matrix product
/// per channel with a single output column. Instead every output position
/// sums its taps' input rows times the kernel's rows, all channels at once;
/// in NHWC buffers the channels are contiguous and the inner loop is a
/// vector loop. Taps add up in kernel-position order, as in im2col.
fn depthwise<T: Scalar + std::ops::Add<Output = T> + std::ops::Mul<Output = T>>(
    lhs: &[T],
    rhs: &[T],
    out: &mut [T],
    p: &Params,
) {
    let channels = p.fgc;
    let rows = p.rows();
    if rows == 0 || channels == 0 {
        return;
    }
    let kpos = kernel_positions(&p.kernel_sp);
    let spatial = p.kernel_sp.len();
    let (lf, kf, of) = (p.ls[p.dims.input_feature], p.rs[p.dims.kernel_output_feature], p.os[p.dims.output_feature]);
    let contiguous = lf == 1 && kf == 1 && of == 1;
    let positions: usize = p.out_sp.iter().product();
    let dst = SendPtr(out.as_mut_ptr());
    let out_len = out.len();
    // Rows in chunks: enough tasks for every thread, each a few rows.
    let chunk = rows.div_ceil(rayon::current_num_threads() * 8).clamp(1, 64);
    (0..rows.div_ceil(chunk)).into_par_iter().for_each_init(
        || (vec![T::ZERO; channels], vec![0usize; spatial]),
        |(acc, o), task| {
            for row in task * chunk..rows.min((task + 1) * chunk) {
                let (n, mut pos) = (row / positions, row % positions);
                for s in (0..spatial).rev() {
                    o[s] = pos % p.out_sp[s];
                    pos /= p.out_sp[s];
                }
                acc.iter_mut().for_each(|a| *a = T::ZERO);
                'taps: for k in kpos.chunks(spatial.max(1)).take(p.taps_total()) {
                    let mut in_off = n * p.ls[p.dims.input_batch];
                    let mut k_off = 0;
                    for s in 0..spatial {
                        let ks = p.kernel_sp[s];
                        let i = p.taps[s][o[s] * ks + k[s]];
                        if i < 0 {
                            continue 'taps;
                        }
                        in_off += i as usize * p.ls[p.dims.input_spatial[s]];
                        let kk = if p.reversal[s] { ks - 1 - k[s] } else { k[s] };
                        k_off += kk * p.rs[p.dims.kernel_spatial[s]];
                    }
                    if contiguous {
                        let (x, w) = (&lhs[in_off..in_off + channels], &rhs[k_off..k_off + channels]);
                        for ((a, x), w) in acc.iter_mut().zip(x).zip(w) {
                            *a = *a + *x * *w;
                        }
                    } else {
                        for (c, a) in acc.iter_mut().enumerate() {
                            *a = *a + lhs[in_off + c * lf] * rhs[k_off + c * kf];
                        }
                    }
                }
                let o_off = n * p.os[p.dims.output_batch]
                    + o.iter().zip(&p.dims.output_spatial).map(|(o, d)| o * p.os[*d]).sum::<usize>();
                debug_assert!(o_off + (channels - 1) * of < out_len);
                // SAFETY: each output position (row) is written by one task;
                // its offsets come from the checked output shape.
                unsafe {
                    for (c, a) in acc.iter().enumerate() {
                        *dst.get().add(o_off + c * of) = *a;
                    }
                }
            }
        },
    );
}

/// `out = convolution(lhs, rhs)` (input, kernel) with the given dimension
/// numbers, window (one entry per spatial dimension) and group counts.
pub fn convolution(
    lhs: ArrayRef,
    rhs: ArrayRef,
    mut out: ArrayMut,
    dims: &ConvDims,
    window: &[WindowDim],
    feature_group_count: usize,
    batch_group_count: usize,
) -> Result<(), String> {
    let p = check(&lhs, &rhs, &out, dims, window, feature_group_count, batch_group_count)?;
    let t = out.ty;
    let compute = convert::compute_type("convolution", t)?;
    if out.data.is_empty() {
        return Ok(());
    }
    use ElementType as E;
    match compute {
        Compute::F32 => {
            run_real(&p, convert::load_f32(lhs, t), convert::load_f32(rhs, t), &mut out, t == E::F32, |v, o| {
                convert::store_f32(t, v, o)
            })
        }
        Compute::F64 => run_real(&p, convert::load_f64(lhs), convert::load_f64(rhs), &mut out, true, write_typed),
        Compute::C32 => run_into(&p, convert::load_c32(lhs), convert::load_c32(rhs), &mut out, true, write_typed),
        Compute::C64 => run_into(&p, convert::load_c64(lhs), convert::load_c64(rhs), &mut out, true, write_typed),
        Compute::I32 => run_into(
            &p,
            convert::load_i32(lhs, t),
            convert::load_i32(rhs, t),
            &mut out,
            matches!(t, E::S32 | E::U32),
            |v, o| convert::store_int(t, v, o),
        ),
        Compute::I64 => run_into(
            &p,
            convert::load_i64(lhs, t),
            convert::load_i64(rhs, t),
            &mut out,
            matches!(t, E::S64 | E::U64),
            |v, o| convert::store_int(t, v, o),
        ),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Depthwise convolutions (their own path) agree with im2col + products
    /// (the general path) on strides, padding, dilations, reversal and a
    /// layout whose channels are not contiguous.
    #[test]
    fn depthwise_matches_the_general_path() {
        let mut rng = 1u64;
        let mut next = || {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((rng >> 40) as f32 / (1u64 << 24) as f32) - 0.5
        };
        let nhwc = ConvDims {
            input_batch: 0,
            input_feature: 3,
            input_spatial: vec![1, 2],
            kernel_input_feature: 2,
            kernel_output_feature: 3,
            kernel_spatial: vec![0, 1],
            output_batch: 0,
            output_feature: 3,
            output_spatial: vec![1, 2],
        };
        let nchw = ConvDims {
            input_batch: 0,
            input_feature: 1,
            input_spatial: vec![2, 3],
            kernel_input_feature: 2,
            kernel_output_feature: 3,
            kernel_spatial: vec![0, 1],
            output_batch: 0,
            output_feature: 1,
            output_spatial: vec![2, 3],
        };
        let (n, h, w, c) = (2usize, 9usize, 7usize, 5usize);
        let window = [
            WindowDim { stride: 2, pad_low: 1, pad_high: 1, rhs_dilation: 1, reversal: true, ..WindowDim::new(3) },
            WindowDim { stride: 1, pad_low: 2, pad_high: 2, rhs_dilation: 2, ..WindowDim::new(3) },
        ];
        let (oh, ow) = (5usize, 7usize);
        for (dims, lshape, oshape) in
            [(&nhwc, vec![n, h, w, c], vec![n, oh, ow, c]), (&nchw, vec![n, c, h, w], vec![n, c, oh, ow])]
        {
            let x: Vec<f32> = (0..n * h * w * c).map(|_| next()).collect();
            let k: Vec<f32> = (0..9 * c).map(|_| next()).collect();
            let xb: Vec<u8> = x.iter().flat_map(|v| v.to_le_bytes()).collect();
            let kb: Vec<u8> = k.iter().flat_map(|v| v.to_le_bytes()).collect();
            let mut ob = vec![0u8; n * oh * ow * c * 4];
            let dims64 = |v: &[usize]| v.iter().map(|&d| d as i64).collect::<Vec<i64>>();
            let (lshape, oshape, kshape) = (dims64(&lshape), dims64(&oshape), dims64(&[3, 3, 1, c]));
            let lhs = ArrayRef::new(ElementType::F32, &lshape, &xb);
            let rhs = ArrayRef::new(ElementType::F32, &kshape, &kb);
            let out = ArrayMut::new(ElementType::F32, &oshape, &mut ob);
            let p = check(&lhs, &rhs, &out, dims, &window, c, 1).unwrap();
            assert!(p.is_depthwise());
            let mut general = vec![0f32; n * oh * ow * c];
            conv_core(&x, &k, &mut general, &p);
            convolution(lhs, rhs, out, dims, &window, c, 1).unwrap();
            let got: Vec<f32> = ob.chunks(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect();
            for (i, (a, b)) in got.iter().zip(&general).enumerate() {
                assert!((a - b).abs() <= 1e-5 * (1.0 + b.abs()), "element {i}: depthwise {a}, general {b}");
            }
            assert!(general.iter().any(|v| *v != 0.0));
        }
    }

    /// An HWIO kernel is used as the kernel matrix directly; the same
    /// kernel stored OIHW goes through `pack_kernels`: both give the same
    /// result, which a direct loop confirms.
    #[test]
    fn hwio_kernels_skip_packing() {
        let mut rng = 7u64;
        let mut next = || {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((rng >> 40) as f32 / (1u64 << 24) as f32) - 0.5
        };
        let (n, h, w, ci, co) = (2usize, 6usize, 5usize, 3usize, 4usize);
        let x: Vec<f32> = (0..n * h * w * ci).map(|_| next()).collect();
        let hwio: Vec<f32> = (0..9 * ci * co).map(|_| next()).collect();
        let mut oihw = vec![0f32; hwio.len()];
        for (ky, kx, i, o) in (0..9 * ci * co).map(|e| (e / (3 * ci * co), e / (ci * co) % 3, e / co % ci, e % co)) {
            oihw[((o * ci + i) * 3 + ky) * 3 + kx] = hwio[((ky * 3 + kx) * ci + i) * co + o];
        }
        let dims = |ki: usize, ko: usize, ks: Vec<usize>| ConvDims {
            input_batch: 0,
            input_feature: 3,
            input_spatial: vec![1, 2],
            kernel_input_feature: ki,
            kernel_output_feature: ko,
            kernel_spatial: ks,
            output_batch: 0,
            output_feature: 3,
            output_spatial: vec![1, 2],
        };
        let window = [WindowDim { pad_low: 1, pad_high: 1, ..WindowDim::new(3) }; 2];
        let bytes = |v: &[f32]| v.iter().flat_map(|e| e.to_le_bytes()).collect::<Vec<u8>>();
        let run = |k: &[f32], kshape: [i64; 4], d: &ConvDims| {
            let (xb, kb) = (bytes(&x), bytes(k));
            let mut ob = vec![0u8; n * h * w * co * 4];
            let (ls, os) = ([n as i64, h as i64, w as i64, ci as i64], [n as i64, h as i64, w as i64, co as i64]);
            let lhs = ArrayRef::new(ElementType::F32, &ls, &xb);
            let rhs = ArrayRef::new(ElementType::F32, &kshape, &kb);
            let out = ArrayMut::new(ElementType::F32, &os, &mut ob);
            let p = check(&lhs, &rhs, &out, d, &window, 1, 1).unwrap();
            let packed = kernel_is_packed(&p);
            convolution(lhs, rhs, out, d, &window, 1, 1).unwrap();
            (packed, ob.chunks(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect::<Vec<f32>>())
        };
        let (direct, a) = run(&hwio, [3, 3, ci as i64, co as i64], &dims(2, 3, vec![0, 1]));
        let (repacked, b) = run(&oihw, [co as i64, ci as i64, 3, 3], &dims(1, 0, vec![2, 3]));
        assert!(direct && !repacked);
        for (e, (u, v)) in a.iter().zip(&b).enumerate() {
            let (bi, y, xx, o) = (e / (h * w * co), e / (w * co) % h, e / co % w, e % co);
            let mut want = 0f32;
            for ky in 0..3 {
                for kx in 0..3 {
                    let (iy, ix) = (y as i64 + ky as i64 - 1, xx as i64 + kx as i64 - 1);
                    if iy < 0 || ix < 0 || iy >= h as i64 || ix >= w as i64 {
                        continue;
                    }
                    for i in 0..ci {
                        want += x[((bi * h + iy as usize) * w + ix as usize) * ci + i]
                            * hwio[((ky * 3 + kx) * ci + i) * co + o];
                    }
                }
            }
            assert!((u - want).abs() <= 1e-5 && (v - want).abs() <= 1e-5, "element {e}: {u} {v}, want {want}");
        }
    }

    #[test]
    fn kernel_positions_are_row_major() {
        assert_eq!(kernel_positions(&[2, 3]), vec![0, 0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 2]);
        assert!(kernel_positions(&[]).is_empty());
    }

    #[test]
    fn one_dimensional_convolution_with_padding() {
        // [1, 5, 1] (b0f) * [3, 1, 1] (0io), pad 1: a 3-tap moving sum.
        let x: Vec<u8> = [1f32, 2.0, 3.0, 4.0, 5.0].iter().flat_map(|v| v.to_le_bytes()).collect();
        let k: Vec<u8> = [1f32; 3].iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut o = vec![0u8; 20];
        let dims = ConvDims {
            input_batch: 0,
            input_feature: 2,
            input_spatial: vec![1],
            kernel_input_feature: 1,
            kernel_output_feature: 2,
            kernel_spatial: vec![0],
            output_batch: 0,
            output_feature: 2,
            output_spatial: vec![1],
        };
        let w = WindowDim { pad_low: 1, pad_high: 1, ..WindowDim::new(3) };
        convolution(
            ArrayRef::new(ElementType::F32, &[1, 5, 1], &x),
            ArrayRef::new(ElementType::F32, &[3, 1, 1], &k),
            ArrayMut::new(ElementType::F32, &[1, 5, 1], &mut o),
            &dims,
            &[w],
            1,
            1,
        )
        .unwrap();
        let got: Vec<f32> = o.chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!(got, vec![3.0, 6.0, 9.0, 12.0, 9.0]);
    }
}
