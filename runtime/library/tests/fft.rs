//! `fft` against the reference interpreter: the four kinds over one to
//! three axes, odd, even, prime and unit lengths, batch dims, c64 and c128
//! (f32 and f64 for the real sides), zero-size arrays and large arrays for
//! the parallel paths.

mod support;
use rxla_library::array::{byte_size, ArrayMut, ArrayRef, Buffer, ElementType};
use rxla_library::fft::{fft, FftKind};
use support::*;

fn run_case(rng: &mut Rng, kind: FftKind, batch: &[usize], lengths: &[usize], complex: &str) {
    let real = if complex == "c64" { "f32" } else { "f64" };
    let r = lengths.len();
    let last = lengths[r - 1];
    let half: Vec<usize> = [&lengths[..r - 1], &[last / 2 + 1][..]].concat();
    let (it, ot, inner_in, inner_out) = match kind {
        FftKind::Fft | FftKind::Ifft => (complex, complex, lengths.to_vec(), lengths.to_vec()),
        FftKind::Rfft => (real, complex, lengths.to_vec(), half),
        FftKind::Irfft => (complex, real, half, lengths.to_vec()),
    };
    let (it, ot) = (ty(it), ty(ot));
    let ind: Vec<usize> = [batch, &inner_in[..]].concat();
    let outd: Vec<usize> = [batch, &inner_out[..]].concat();
    let name = match kind {
        FftKind::Fft => "FFT",
        FftKind::Ifft => "IFFT",
        FftKind::Rfft => "RFFT",
        FftKind::Irfft => "IRFFT",
    };
    let text = format!(
        "HloModule m\n\nENTRY e {{\n  x = {} parameter(0)\n  ROOT f = {} fft(x), fft_type={name}, fft_length={{{}}}\n}}\n",
        shape_text(it, &ind),
        shape_text(ot, &outd),
        list(lengths)
    );
    let x = random_literal(rng, it, &ind, 1.0);
    let want = run_hlo(&text, std::slice::from_ref(&x));
    let xb = buffer(&x);
    let (i64s, o64s): (Vec<i64>, Vec<i64>) =
        (ind.iter().map(|&d| d as i64).collect(), outd.iter().map(|&d| d as i64).collect());
    let mut out = Buffer::zeroed(outd.iter().product::<usize>() * byte_size(ot));
    fft(
        ArrayRef::new(it, &i64s, xb.as_slice()),
        ArrayMut::new(ot, &o64s, out.as_mut_slice()),
        kind,
        &lengths.iter().map(|&l| l as i64).collect::<Vec<_>>(),
    )
    .unwrap_or_else(|e| panic!("{e}\n{text}"));
    // Both compute in f64: c128 agrees to rounding noise, c64 to the last
    // f32 bits (both round the same f64 values). Errors scale with the
    // largest output and log n.
    let n: usize = lengths.iter().product();
    let eps = if complex == "c64" { f32::EPSILON as f64 } else { f64::EPSILON };
    let atol = 4.0 * eps * max_abs(&want).max(1e-30) * (1.0 + (n.max(2) as f64).log2());
    assert_close(out.as_slice(), &want, 2.0 * eps, atol, &text);
}

const KINDS: [FftKind; 4] = [FftKind::Fft, FftKind::Ifft, FftKind::Rfft, FftKind::Irfft];

#[test]
fn random_kinds_axes_and_lengths() {
    let mut rng = Rng::new(31);
    let mut count = 0;
    for kind in KINDS {
        for complex in ["c64", "c128"] {
            for _ in 0..40 {
                let r = 1 + rng.below(3);
                let lengths: Vec<usize> =
                    (0..r).map(|_| if rng.below(15) == 0 { 1 } else { 1 + rng.below(9) }).collect();
                let batch: Vec<usize> =
                    (0..rng.below(3)).map(|_| if rng.below(20) == 0 { 0 } else { 1 + rng.below(3) }).collect();
                run_case(&mut rng, kind, &batch, &lengths, complex);
                count += 1;
            }
        }
    }
    assert_eq!(count, 320);
}

#[test]
fn long_and_prime_lengths() {
    let mut rng = Rng::new(32);
    for kind in KINDS {
        for n in [257usize, 1000, 1024, 1031] {
            run_case(&mut rng, kind, &[3], &[n], "c64");
        }
        run_case(&mut rng, kind, &[2], &[1024], "c128");
    }
}

#[test]
fn large_multi_axis_arrays_take_the_parallel_paths() {
    let mut rng = Rng::new(33);
    for kind in KINDS {
        run_case(&mut rng, kind, &[], &[128, 256], "c64");
        run_case(&mut rng, kind, &[4], &[24, 36, 40], "c64");
        run_case(&mut rng, kind, &[2], &[250, 70], "c128");
    }
}

#[test]
fn zero_size_arrays() {
    let mut rng = Rng::new(34);
    for kind in [FftKind::Fft, FftKind::Ifft, FftKind::Rfft] {
        run_case(&mut rng, kind, &[0], &[4], "c64");
    }
    run_case(&mut rng, FftKind::Irfft, &[0, 2], &[5, 4], "c128");
}

#[test]
fn bad_shapes_and_types_are_errors() {
    let x = Buffer::zeroed(64);
    let mut o = Buffer::zeroed(64);
    let input = ArrayRef::new(ElementType::C64, &[8], x.as_slice());
    let run = |o: &mut Buffer, t: ElementType, dims: &[i64], kind: FftKind, lengths: &[i64]| {
        let len = dims.iter().product::<i64>() as usize * byte_size(t);
        fft(input, ArrayMut::new(t, dims, &mut o.as_mut_slice()[..len]), kind, lengths)
    };
    assert!(run(&mut o, ElementType::C64, &[8], FftKind::Fft, &[8]).is_ok());
    assert!(run(&mut o, ElementType::C64, &[8], FftKind::Fft, &[4]).unwrap_err().contains("cannot give"));
    assert!(run(&mut o, ElementType::F32, &[8], FftKind::Fft, &[8]).unwrap_err().contains("not supported"));
    assert!(run(&mut o, ElementType::F32, &[16], FftKind::Irfft, &[16]).unwrap_err().contains("at least"));
    assert!(run(&mut o, ElementType::C64, &[8], FftKind::Fft, &[]).is_err());
    assert!(run(&mut o, ElementType::C64, &[8], FftKind::Fft, &[-8]).is_err());
}
