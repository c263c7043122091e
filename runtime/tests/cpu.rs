//! The CPU backend on modules written for what the oracle corpus does not
//! reach: reductions of every shape the CPU reduction emitter splits
//! differently (row lanes, column strips, tails, several workgroups, side
//! outputs, variadic reducers), every f8 code through conversions, buffer
//! donation, custom calls, entry layouts, one-device collectives, buffer
//! sharing. Results are compared with the reference interpreter.

use rxla_interpreter::{compare::first_mismatch, literal::Data, random::random_arguments, Interpreter, Literal};
use rxla_library::array::{ArrayMut, ArrayRef, Buffer};
use rxla_runtime::{compile_hlo_text, EntryLayouts, Options};

/// Runs `text` on the CPU and in the interpreter on the same random
/// arguments; panics with the difference if they disagree beyond tolerance.
fn check(text: &str, atol: f64, rtol: f64) -> rxla_runtime::Executable {
    check_with(text, atol, rtol, &Options::default())
}

fn check_with(text: &str, atol: f64, rtol: f64, options: &Options) -> rxla_runtime::Executable {
    let exe = compile_hlo_text(text, "test.hlo", options).unwrap_or_else(|e| panic!("compile: {e}\n{text}"));
    let ast = rxla_hlo_text::parse_module(text).expect("parses");
    let params = rxla_interpreter::npy::parameter_shapes(&ast.computations[ast.entry]);
    let args = random_arguments(&params, 7).expect("random arguments");
    let want = Interpreter::new(&ast).run(&args).expect("interpreter");
    let got = exe.run(&args).unwrap_or_else(|e| panic!("run: {e}"));
    if let Some(m) = first_mismatch(&got, &want, atol, rtol) {
        panic!("cpu differs from the interpreter: {m}\n{text}");
    }
    exe
}

fn reduce_module(dims: &[i64], reduced: &[i64], ty: &str, reducer: &str, init: &str) -> String {
    let shape = |d: &[i64]| d.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",");
    let out: Vec<i64> = (0..dims.len() as i64).filter(|d| !reduced.contains(d)).map(|d| dims[d as usize]).collect();
    format!(
        "HloModule r\n\nf {{\n  a = {ty}[] parameter(0)\n  b = {ty}[] parameter(1)\n  ROOT c = {ty}[] {reducer}(a, b)\n}}\n\n\
         ENTRY e {{\n  x = {ty}[{}] parameter(0)\n  z = {ty}[] constant({init})\n  \
         ROOT r = {ty}[{}] reduce(x, z), dimensions={{{}}}, to_apply=f\n}}\n",
        shape(dims),
        shape(&out),
        reduced.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
    )
}

#[test]
fn row_reductions() {
    // Short rows, rows that are not a multiple of the vector, several
    // workgroups, a reduced major dimension too.
    for (dims, reduced) in [
        (vec![7, 5], vec![1]),
        (vec![33, 129], vec![1]),
        (vec![1000, 1], vec![1]),
        (vec![3, 64, 100], vec![0, 2]),
        (vec![4096, 257], vec![1]),
    ] {
        check(&reduce_module(&dims, &reduced, "f32", "add", "0"), 1e-4, 1e-4);
        check(&reduce_module(&dims, &reduced, "f32", "maximum", "-inf"), 0.0, 0.0);
        check(&reduce_module(&dims, &reduced, "s32", "add", "0"), 0.0, 0.0);
    }
}

#[test]
fn column_reductions() {
    // Column counts below, at and above the strip width, with and without
    // a partial last strip; several majors and workgroups.
    for (dims, reduced) in [
        (vec![9, 3], vec![0]),
        (vec![70, 40], vec![0]),
        (vec![3, 33, 5], vec![1]),
        (vec![2, 100, 65], vec![1]),
        (vec![512, 1000], vec![0]),
        (vec![257, 32], vec![0]),
    ] {
        check(&reduce_module(&dims, &reduced, "f32", "add", "0"), 1e-4, 1e-4);
        check(&reduce_module(&dims, &reduced, "f32", "minimum", "inf"), 0.0, 0.0);
        check(&reduce_module(&dims, &reduced, "s32", "maximum", "-2147483648"), 0.0, 0.0);
    }
}

#[test]
fn reductions_with_side_outputs_and_variadic_reducers() {
    // Softmax's exp-sum fusion: a side output written where its input is read.
    check(
        "HloModule s\n\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b)\n}\n\n\
         ENTRY e {\n  x = f32[37,300] parameter(0)\n  m = f32[37] parameter(1)\n  mb = f32[37,300] broadcast(m), dimensions={0}\n  \
         d = f32[37,300] subtract(x, mb)\n  ex = f32[37,300] exponential(d)\n  z = f32[] constant(0)\n  \
         s = f32[37] reduce(ex, z), dimensions={1}, to_apply=add\n  ROOT t = (f32[37], f32[37,300]) tuple(s, ex)\n}\n",
        1e-4,
        1e-5,
    );
    // argmax: a variadic reduction (value, index), column and row.
    for (dims, dim) in [([50, 70], 1), ([50, 70], 0)] {
        let out = dims[1 - dim];
        let text = format!(
            "HloModule a\n\nargmax {{\n  av = f32[] parameter(0)\n  ai = s32[] parameter(1)\n  bv = f32[] parameter(2)\n  bi = s32[] parameter(3)\n  \
             gt = pred[] compare(av, bv), direction=GT\n  eq = pred[] compare(av, bv), direction=EQ\n  lt = pred[] compare(ai, bi), direction=LT\n  \
             tie = pred[] and(eq, lt)\n  take = pred[] or(gt, tie)\n  v = f32[] select(take, av, bv)\n  i = s32[] select(take, ai, bi)\n  \
             ROOT r = (f32[], s32[]) tuple(v, i)\n}}\n\n\
             ENTRY e {{\n  x = f32[{},{}] parameter(0)\n  io = s32[{},{}] iota(), iota_dimension={dim}\n  \
             ninf = f32[] constant(-inf)\n  zero = s32[] constant(0)\n  \
             ROOT r = (f32[{out}], s32[{out}]) reduce(x, io, ninf, zero), dimensions={{{dim}}}, to_apply=argmax\n}}\n",
            dims[0], dims[1], dims[0], dims[1]
        );
        check(&text, 0.0, 0.0);
    }
}

#[test]
fn every_f8_code_converts_exactly() {
    for ty in ["f8e4m3fn", "f8e5m2"] {
        // All 256 codes through f32 and back (NaN codes compare as NaN).
        let text = format!(
            "HloModule f8\n\nENTRY e {{\n  x = u8[256] parameter(0)\n  f = {ty}[256] bitcast-convert(x)\n  w = f32[256] convert(f)\n  \
             b = {ty}[256] convert(w)\n  ROOT t = (f32[256], {ty}[256]) tuple(w, b)\n}}\n"
        );
        let exe = compile_hlo_text(&text, "f8.hlo", &Options::default()).expect("compiles");
        let ast = rxla_hlo_text::parse_module(&text).unwrap();
        let codes = Literal::array(vec![256], Data::U8((0..=255).collect()));
        let want = Interpreter::new(&ast).run(std::slice::from_ref(&codes)).unwrap();
        let got = exe.run(&[codes]).unwrap();
        assert!(first_mismatch(&got, &want, 0.0, 0.0).is_none(), "{ty}: {:?}", first_mismatch(&got, &want, 0.0, 0.0));
    }
    // f32 -> f8 at the rounding boundaries: midpoints between codes (ties
    // to even), just above and below them, overflow, NaN, infinities.
    let mut values = Vec::new();
    for bits in 0..=0x7fu32 {
        let f = rxla_hlo_text::floats::float_format(rxla_hlo_text::ast::PrimitiveType::F8e4m3fn).unwrap();
        let (a, b) = (f.decode(bits as u64), f.decode(bits as u64 + 1));
        if a.is_finite() && b.is_finite() {
            let mid = ((a + b) / 2.0) as f32;
            values.extend([mid, f32::from_bits(mid.to_bits() + 1), f32::from_bits(mid.to_bits() - 1), -mid]);
        }
    }
    values.extend([464.0, 465.0, 1e6, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, -0.0, 0.0]);
    let n = values.len();
    let text =
        format!("HloModule t\n\nENTRY e {{\n  x = f32[{n}] parameter(0)\n  ROOT y = f8e4m3fn[{n}] convert(x)\n}}\n");
    let exe = compile_hlo_text(&text, "t.hlo", &Options::default()).unwrap();
    let ast = rxla_hlo_text::parse_module(&text).unwrap();
    let arg = Literal::array(vec![n as i64], Data::F32(values));
    let want = Interpreter::new(&ast).run(std::slice::from_ref(&arg)).unwrap();
    let got = exe.run(&[arg]).unwrap();
    assert!(first_mismatch(&got, &want, 0.0, 0.0).is_none(), "{:?}", first_mismatch(&got, &want, 0.0, 0.0));
}

#[test]
fn every_f8_code_negates_exactly() {
    // Negation on the bits, read back as bits: signs of zeros and NaNs too.
    for ty in ["f8e4m3fn", "f8e5m2", "f8e4m3", "f8e3m4", "f8e4m3fnuz", "f8e5m2fnuz", "f8e4m3b11fnuz"] {
        let text = format!(
            "HloModule n\n\nENTRY e {{\n  x = u8[256] parameter(0)\n  f = {ty}[256] bitcast-convert(x)\n  \
             n = {ty}[256] negate(f)\n  ROOT b = u8[256] bitcast-convert(n)\n}}\n"
        );
        let exe = compile_hlo_text(&text, "n.hlo", &Options::default()).unwrap_or_else(|e| panic!("{ty}: {e}"));
        let ast = rxla_hlo_text::parse_module(&text).unwrap();
        let codes = Literal::array(vec![256], Data::U8((0..=255).collect()));
        let want = Interpreter::new(&ast).run(std::slice::from_ref(&codes)).unwrap();
        let got = exe.run(&[codes]).unwrap();
        assert!(first_mismatch(&got, &want, 0.0, 0.0).is_none(), "{ty}: {:?}", first_mismatch(&got, &want, 0.0, 0.0));
    }
}

#[test]
fn donated_buffers_are_updated_in_place() {
    let text = "HloModule d, input_output_alias={ {0}: (0, {}, may-alias) }\n\n\
                ENTRY e {\n  p = f32[4096] parameter(0)\n  u = f32[8] parameter(1)\n  i = s32[] parameter(2)\n  \
                d = f32[4096] dynamic-update-slice(p, u, i)\n  ROOT t = (f32[4096]) tuple(d)\n}\n";
    let exe = check(text, 0.0, 0.0);
    let ast = rxla_hlo_text::parse_module(text).unwrap();
    let args = random_arguments(&rxla_interpreter::npy::parameter_shapes(&ast.computations[ast.entry]), 3).unwrap();
    let buffers = exe.prepare(&args).unwrap();
    let before = buffers[0].as_slice().to_vec();
    // Borrowed arguments stay as they were.
    let out = exe.execute(&buffers).unwrap();
    assert_eq!(buffers[0].as_slice(), &before[..]);
    let expected = out[0].as_slice().to_vec();
    // Donated: the output is the argument's memory, updated in place.
    let address = buffers[0].as_ptr();
    let out = exe.execute_donated(buffers).unwrap();
    assert_eq!(out[0].as_ptr(), address, "the output lives in the donated buffer");
    assert_eq!(out[0].as_slice(), &expected[..]);
}

fn scale_by_config(inputs: &[ArrayRef], outputs: &mut [ArrayMut], config: &str) -> Result<(), String> {
    let factor: f32 = config.parse().map_err(|_| format!("backend_config '{config}' is not a number"))?;
    let x: &[f32] = inputs[0].typed();
    for (o, v) in outputs[0].typed::<f32>().iter_mut().zip(x) {
        *o = factor * v;
    }
    Ok(())
}

#[test]
fn custom_calls_run_registered_host_functions() {
    rxla_runtime::custom_call::register("rxla_test_scale", scale_by_config);
    let text = "HloModule c\n\nENTRY e {\n  x = f32[16] parameter(0)\n  \
                c = f32[16] custom-call(x), custom_call_target=\"rxla_test_scale\", backend_config=\"3\"\n  \
                ROOT y = f32[16] add(c, x)\n}\n";
    let exe = compile_hlo_text(text, "c.hlo", &Options::default()).expect("compiles");
    let x: Vec<f32> = (0..16).map(|i| i as f32).collect();
    let result = exe.run(&[Literal::array(vec![16], Data::F32(x.clone()))]).unwrap();
    let Literal::Array { data: Data::F32(y), .. } = result else { panic!() };
    assert_eq!(y, x.iter().map(|v| 4.0 * v).collect::<Vec<_>>());
    // A failing host function is a run error naming the target.
    let bad = text.replace("backend_config=\"3\"", "backend_config=\"three\"");
    let exe = compile_hlo_text(&bad, "c.hlo", &Options::default()).unwrap();
    let e = exe.run(&[Literal::array(vec![16], Data::F32(x))]).unwrap_err();
    assert!(e.0.contains("rxla_test_scale") && e.0.contains("three"), "{e}");
}

#[test]
fn entry_layouts_are_honoured_or_made_row_major() {
    let text = "HloModule l, entry_computation_layout={(f32[24,40]{0,1}, f32[24,40]{1,0})->f32[40,24]{0,1}}\n\n\
                ENTRY e {\n  x = f32[24,40]{0,1} parameter(0)\n  y = f32[24,40]{1,0} parameter(1)\n  \
                a = f32[24,40]{1,0} add(x, y)\n  ROOT t = f32[40,24]{0,1} transpose(a), dimensions={1,0}\n}\n";
    let module = check(text, 0.0, 0.0);
    assert_eq!(module.parameters()[0].layout.as_deref(), Some(&[0i64, 1][..]));
    let default = check_with(text, 0.0, 0.0, &Options { entry_layouts: EntryLayouts::Default, ..Options::default() });
    assert_eq!(default.parameters()[0].layout, None);
    // A column-major result computed elementwise (the fusion writes the
    // physical array; the result is a bitcast of it).
    let text = "HloModule l, entry_computation_layout={(f32[24,40]{0,1}, f32[24,40]{1,0})->f32[24,40]{0,1}}\n\n\
                ENTRY e {\n  x = f32[24,40]{0,1} parameter(0)\n  y = f32[24,40]{1,0} parameter(1)\n  \
                e = f32[24,40]{0,1} exponential(y)\n  ROOT a = f32[24,40]{0,1} add(x, e)\n}\n";
    check(text, 1e-6, 1e-6);
    check_with(text, 1e-6, 1e-6, &Options { entry_layouts: EntryLayouts::Default, ..Options::default() });
}

/// Replicas on different arguments: each replica's result (sums within
/// pairs, a permutation, its id) agrees with the interpreter's replicated
/// run; a replica that fails ends the run with its error instead of
/// leaving the others waiting in a collective.
#[test]
fn replicas_run_on_threads_and_exchange_data() {
    let text = "HloModule r, replica_count=3\n\nadd {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  ROOT c = s32[] add(a, b)\n}\n\n\
                ENTRY e {\n  x = s32[4] parameter(0)\n  id = u32[] replica-id()\n  i = s32[] convert(id)\n  \
                b = s32[4] broadcast(i), dimensions={}\n  y = s32[4] multiply(x, b)\n  \
                s = s32[4] all-reduce(y), replica_groups={{0,2},{1}}, to_apply=add\n  \
                p = s32[4] collective-permute(x), source_target_pairs={{0,1},{1,2},{2,0}}\n  \
                ROOT t = (s32[4], s32[4], u32[]) tuple(s, p, id)\n}\n";
    let exe = compile_hlo_text(text, "replicas.hlo", &Options::default()).expect("compiles");
    let ast = rxla_hlo_text::parse_module(text).expect("parses");
    let args: Vec<Vec<Literal>> =
        (0..3).map(|r| vec![Literal::array(vec![4], Data::S32((0..4).map(|k| 10 * r + k).collect()))]).collect();
    let want = rxla_interpreter::replicated::run_replicated(&ast, &args).expect("interpreter");
    let got = exe.run_replicated(&args).expect("cpu");
    assert_eq!(got.len(), 3);
    for (r, (g, w)) in got.iter().zip(&want).enumerate() {
        if let Some(m) = first_mismatch(g, w, 0.0, 0.0) {
            panic!("replica {r}: cpu differs from the interpreter: {m}");
        }
    }
    // The sums by hand: replicas 0 and 2 share 0 * x0 + 2 * x2, replica 1
    // (alone in its group) has 1 * x1.
    let sums = |r: usize| match &got[r] {
        Literal::Tuple(items) => items[0].clone(),
        other => panic!("a tuple result, not {other:?}"),
    };
    let expect = |v: Vec<i32>| Literal::array(vec![4], Data::S32(v));
    for (r, v) in [(0, vec![40, 42, 44, 46]), (1, vec![10, 11, 12, 13]), (2, vec![40, 42, 44, 46])] {
        assert!(first_mismatch(&sums(r), &expect(v), 0.0, 0.0).is_none(), "replica {r}: {:?}", sums(r));
    }
    // A replica that fails (arguments of the wrong shape) fails the run.
    let mut bad = args.clone();
    bad[1] = vec![Literal::array(vec![3], Data::S32(vec![1, 2, 3]))];
    let e = exe.run_replicated(&bad).expect_err("a failing replica fails the run");
    assert!(e.to_string().contains("replica 1"), "{e}");
}

#[test]
fn collectives_on_one_device_and_interpreted_ops() {
    check(
        "HloModule c\n\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b)\n}\n\n\
         ENTRY e {\n  x = f32[8] parameter(0)\n  ROOT r = f32[8] all-reduce(x), replica_groups={}, to_apply=add\n}\n",
        0.0,
        0.0,
    );
    check(
        "HloModule t\n\nENTRY e {\n  a = f32[4,4] parameter(0)\n  b = f32[4,3] parameter(1)\n  \
         ROOT x = f32[4,3] triangular-solve(a, b), left_side=true, lower=true, transpose_a=NO_TRANSPOSE\n}\n",
        1e-5,
        1e-5,
    );
}

#[test]
fn temporaries_share_memory() {
    // A chain of kernels the fusion cannot merge (a reduction between
    // elementwise ops, twice): the arena is smaller than all temporaries.
    let text = "HloModule chain\n\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b)\n}\n\n\
                ENTRY e {\n  x = f32[256,256] parameter(0)\n  w = f32[256,256] parameter(1)\n  \
                d1 = f32[256,256] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n  \
                d2 = f32[256,256] dot(d1, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n  \
                d3 = f32[256,256] dot(d2, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n  \
                ROOT d4 = f32[256,256] dot(d3, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n";
    let exe = check(text, 1e-2, 1e-3);
    let stats = &exe.buffer_stats[0];
    assert!(stats.arena_bytes < stats.temp_bytes_unshared, "{stats:?}");
    let _ = Buffer::zeroed(0);
}

#[test]
fn saved_executables_load_and_run_without_recompiling() {
    // A while loop, a reduction, a dot (a library call) and constants: every
    // part of an executable the saved form must rebuild.
    let text = "HloModule saved\n\n\
        add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b)\n}\n\n\
        cond {\n  s = (s32[], f32[4,4]) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n  \
        n = s32[] constant(3)\n  ROOT lt = pred[] compare(i, n), direction=LT\n}\n\n\
        body {\n  s = (s32[], f32[4,4]) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n  \
        x = f32[4,4] get-tuple-element(s), index=1\n  one = s32[] constant(1)\n  j = s32[] add(i, one)\n  \
        d = f32[4,4] dot(x, x), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n  \
        c = f32[4,4] constant({{0.5,0,0,0},{0,0.5,0,0},{0,0,0.5,0},{0,0,0,0.5}})\n  y = f32[4,4] tanh(d)\n  \
        z = f32[4,4] add(y, c)\n  ROOT t = (s32[], f32[4,4]) tuple(j, z)\n}\n\n\
        ENTRY e {\n  x = f32[4,4] parameter(0)\n  zero = s32[] constant(0)\n  s = (s32[], f32[4,4]) tuple(zero, x)\n  \
        w = (s32[], f32[4,4]) while(s), condition=cond, body=body\n  r = f32[4,4] get-tuple-element(w), index=1\n  \
        f = f32[] constant(0)\n  ROOT sum = f32[4] reduce(r, f), dimensions={0}, to_apply=add\n}\n";
    let options = Options { save_artifact: true, ..Options::default() };
    let exe = check_with(text, 1e-5, 1e-5, &options);
    let saved = exe.artifact().expect("saved").to_vec();
    assert!(rxla_runtime::is_executable_artifact(&saved));
    assert!(compile_hlo_text(text, "t.hlo", &Options::default()).unwrap().artifact().is_none());

    let params = rxla_runtime::saved_parameter_shapes(&saved).expect("shapes");
    assert_eq!(params.len(), 1);
    let loaded = rxla_runtime::load_executable(&saved, "t.rxla").unwrap_or_else(|e| panic!("load: {e}"));
    assert_eq!(loaded.num_kernels(), exe.num_kernels());
    let args = random_arguments(&params, 11).expect("random arguments");
    let (want, got) = (exe.run(&args).unwrap(), loaded.run(&args).unwrap());
    assert!(first_mismatch(&got, &want, 0.0, 0.0).is_none(), "the loaded executable computes something else");

    // Damage is refused with a reason, never run.
    let e = rxla_runtime::load_executable(&saved[..saved.len() - 3], "t.rxla").err().unwrap().to_string();
    assert!(e.contains("t.rxla: truncated"), "{e}");
    let e = rxla_runtime::load_executable(b"HloModule m", "t.rxla").err().unwrap().to_string();
    assert!(e.contains("not a saved rxla CPU executable"), "{e}");
}
