"""rxla.compile, the executable's call and properties, errors, run_passes."""
import ml_dtypes
import numpy as np
import pytest

import rxla

ADD_TANH = """HloModule m

ENTRY e {
  x = f32[2,3] parameter(0)
  y = f32[2,3] parameter(1)
  a = f32[2,3] add(x, y)
  ROOT t = f32[2,3] tanh(a)
}
"""

ADD_TANH_MLIR = """module @m {
  func.func @e(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {hlo.entry} {
    %0 = hlo.add %arg0, %arg1 : tensor<2x3xf32>
    %1 = hlo.tanh %0 : tensor<2x3xf32>
    return %1 : tensor<2x3xf32>
  }
}
"""


def hlo_unary(op, hlo_type, shape="4", out_type=None):
    out_type = out_type or hlo_type
    return f"""HloModule m
ENTRY e {{
  x = {hlo_type}[{shape}] parameter(0)
  ROOT r = {out_type}[{shape}] {op}(x)
}}
"""


@pytest.fixture(scope="module")
def add_tanh():
    return rxla.compile(ADD_TANH)


def test_hlo_text(add_tanh):
    x = np.arange(6, dtype=np.float32).reshape(2, 3) / 10
    y = np.ones((2, 3), np.float32)
    (out,) = add_tanh(x, y)
    assert out.dtype == np.float32 and out.shape == (2, 3)
    np.testing.assert_allclose(out, np.tanh(x + y), rtol=1e-6)
    # Outputs are writable arrays of their own.
    out[0, 0] = 5
    # Array-likes are converted (here lists of float32 scalars).
    (again,) = add_tanh(np.float32([[0, 0, 0], [0, 0, 0]]), y)
    np.testing.assert_allclose(again, np.tanh(y), rtol=1e-6)


def test_mlir_text():
    exe = rxla.compile(ADD_TANH_MLIR)
    x = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    (out,) = exe(x, x)
    np.testing.assert_allclose(out, np.tanh(2 * x), rtol=1e-6)


def test_properties(add_tanh):
    assert add_tanh.platform == "cpu"
    assert add_tanh.parameters == [(np.dtype(np.float32), (2, 3))] * 2
    assert add_tanh.parameter_shapes == ["f32[2,3]", "f32[2,3]"]
    assert add_tanh.num_kernels >= 1
    assert add_tanh.warnings == []
    times = add_tanh.compile_times
    assert set(times) >= {"import", "hlo_pipeline", "llvm", "total"} and times["total"] > 0
    assert add_tanh.ptx is None
    assert "f32[2,3]" in repr(add_tanh)


def test_non_contiguous_and_big_endian_inputs(add_tanh):
    base = np.arange(12, dtype=np.float32).reshape(3, 4) / 12
    x = base[:2, :3]  # a strided view
    y = np.ones((2, 3), dtype=">f4")  # big-endian
    (out,) = add_tanh(x, y)
    np.testing.assert_allclose(out, np.tanh(x + 1), rtol=1e-6)


@pytest.mark.parametrize(
    "hlo_type,dtype,values",
    [
        ("f32", np.float32, [0.5, -1.25, 3.0, 1e30]),
        ("f64", np.float64, [0.5, -1.25, 3.0, 1e300]),
        ("f16", np.float16, [0.5, -1.25, 3.0, 100.0]),
        ("s32", np.int32, [1, -2, 2**30, -(2**31)]),
        ("s64", np.int64, [1, -2, 2**40, -(2**62)]),
        ("u8", np.uint8, [0, 1, 200, 255]),
        ("bf16", ml_dtypes.bfloat16, [0.5, -1.25, 3.0, 1e30]),
        ("f8e4m3fn", ml_dtypes.float8_e4m3fn, [0.5, -1.25, 3.0, 448.0]),
        ("f8e5m2", ml_dtypes.float8_e5m2, [0.5, -1.25, 3.0, 57344.0]),
        ("c64", np.complex64, [1 + 2j, -0.5j, 3.0, 0]),
    ],
)
def test_dtypes_round_trip(hlo_type, dtype, values):
    """reverse(x) for every type: inputs and outputs in NumPy's / ml_dtypes' dtypes, bit for bit."""
    exe = rxla.compile(
        f"""HloModule m
ENTRY e {{
  x = {hlo_type}[4] parameter(0)
  ROOT r = {hlo_type}[4] reverse(x), dimensions={{0}}
}}"""
    )
    assert exe.parameters == [(np.dtype(dtype), (4,))]
    x = np.array(values, dtype=dtype)
    (out,) = exe(x)
    assert out.dtype == np.dtype(dtype) and out.shape == (4,)
    np.testing.assert_array_equal(out.view(np.uint8), x[::-1].copy().view(np.uint8))


@pytest.mark.parametrize(
    "hlo_type,dtype",
    [("f32", np.float32), ("f64", np.float64), ("s32", np.int32), ("s8", np.int8), ("bf16", ml_dtypes.bfloat16)],
)
def test_negate(hlo_type, dtype):
    exe = rxla.compile(hlo_unary("negate", hlo_type))
    x = np.array([0.5, -1.25, 3.0, 100.0] if hlo_type[0] in "fb" else [1, -2, 100, -128], dtype=dtype)
    (out,) = exe(x)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out, -x)  # wraps for integers, as HLO's negate does


def test_pred_and_compare():
    exe = rxla.compile(
        """HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  y = f32[4] parameter(1)
  c = pred[4] compare(x, y), direction=LT
  p = pred[4] parameter(2)
  ROOT r = pred[4] and(c, p)
}"""
    )
    x = np.array([1, 2, 3, 4], np.float32)
    y = np.array([2, 2, 5, 1], np.float32)
    p = np.array([True, True, True, False])
    (out,) = exe(x, y, p)
    assert out.dtype == np.bool_
    np.testing.assert_array_equal(out, (x < y) & p)


def test_bf16_and_f8_conversions():
    exe = rxla.compile(
        """HloModule m
ENTRY e {
  x = bf16[3] parameter(0)
  f = f32[3] convert(x)
  ROOT e8 = f8e4m3fn[3] convert(f)
}"""
    )
    x = np.array([1.0, -2.5, 1000.0], dtype=ml_dtypes.bfloat16)
    (out,) = exe(x)
    assert out.dtype == np.dtype(ml_dtypes.float8_e4m3fn)
    np.testing.assert_array_equal(out, x.astype(np.float32).astype(ml_dtypes.float8_e4m3fn))


def test_complex_and_scalars():
    exe = rxla.compile(
        """HloModule m
ENTRY e {
  x = c64[2] parameter(0)
  s = f32[] parameter(1)
  re = f32[2] real(x)
  b = f32[2] broadcast(s), dimensions={}
  ROOT m = f32[2] multiply(re, b)
}"""
    )
    (out,) = exe(np.array([1 + 2j, -3 + 1j], np.complex64), np.float32(2))
    np.testing.assert_array_equal(out, np.array([2, -6], np.float32))


def test_tuple_outputs_are_flattened():
    exe = rxla.compile(
        """HloModule m
ENTRY e {
  x = f32[2] parameter(0)
  i = s32[] parameter(1)
  n = f32[2] negate(x)
  inner = (f32[2], s32[]) tuple(n, i)
  ROOT t = ((f32[2], s32[]), f32[2]) tuple(inner, x)
}"""
    )
    x = np.array([1, -2], np.float32)
    outs = exe(x, np.int32(7))
    assert isinstance(outs, list) and len(outs) == 3
    np.testing.assert_array_equal(outs[0], -x)
    assert outs[1].shape == () and outs[1].dtype == np.int32 and int(outs[1]) == 7
    np.testing.assert_array_equal(outs[2], x)


@pytest.mark.parametrize("platform", ["cpu", "interpreter"])
def test_tuple_parameter_takes_its_leaves(platform):
    exe = rxla.compile(
        """HloModule m
ENTRY e {
  p = (f32[2], (s32[], f32[2])) parameter(0)
  a = f32[2] get-tuple-element(p), index=0
  q = (s32[], f32[2]) get-tuple-element(p), index=1
  b = f32[2] get-tuple-element(q), index=1
  ROOT r = f32[2] add(a, b)
}""",
        platform,
    )
    assert exe.parameter_shapes == ["f32[2]", "s32[]", "f32[2]"]
    (out,) = exe(np.float32([1, 2]), np.int32(0), np.float32([10, 20]))
    np.testing.assert_array_equal(out, [11, 22])


def test_zero_size_and_rank0():
    exe = rxla.compile(
        """HloModule m
ENTRY e {
  x = f32[0,3] parameter(0)
  s = bf16[] parameter(1)
  n = f32[0,3] negate(x)
  ROOT t = (f32[0,3], bf16[]) tuple(n, s)
}"""
    )
    outs = exe(np.zeros((0, 3), np.float32), np.array(1.5, ml_dtypes.bfloat16))
    assert outs[0].shape == (0, 3)
    assert outs[1].shape == () and outs[1].dtype == np.dtype(ml_dtypes.bfloat16) and float(outs[1]) == 1.5


def test_interpreter_platform():
    exe = rxla.compile(ADD_TANH, platform="interpreter")
    assert exe.platform == "interpreter" and exe.num_kernels == 0
    x = np.full((2, 3), 0.25, np.float32)
    (out,) = exe(x, x)
    np.testing.assert_allclose(out, np.tanh(2 * x), rtol=1e-6)


def test_emulated_gpu():
    exe = rxla.compile(ADD_TANH, platform="gpu", emulate_gpu=True)
    assert exe.platform == "gpu"
    assert ".entry" in exe.ptx
    x = np.full((2, 3), 0.25, np.float32)
    (out,) = exe(x, x)
    np.testing.assert_allclose(out, np.tanh(2 * x), rtol=1e-6)


def test_compile_file(tmp_path):
    path = tmp_path / "m.hlo"
    path.write_text(ADD_TANH)
    exe = rxla.compile_file(path)
    assert exe.file_name == str(path)
    mlir = tmp_path / "m.mlir"
    mlir.write_text(ADD_TANH_MLIR)
    assert rxla.compile_file(mlir).parameter_shapes == ["f32[2,3]", "f32[2,3]"]


def test_compilation_cache(tmp_path):
    cache = tmp_path / "cache"
    first = rxla.compile(ADD_TANH, cache_dir=cache)
    entries = list(cache.iterdir())
    assert len(entries) == 1 and entries[0].suffix == ".rxla-exe"
    # A later compile of the same text and options loads the entry: no HLO
    # pipeline runs, and the results are the same.
    second = rxla.compile(ADD_TANH, cache_dir=cache, file_name="again.hlo")
    assert second.compile_times["hlo_pipeline"] == 0 < first.compile_times["hlo_pipeline"]
    x = np.linspace(-2, 2, 6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(first(x, x)[0], second(x, x)[0])
    # Other options are another entry; MLIR input is cached too.
    rxla.compile(ADD_TANH, cache_dir=cache, disable_passes=["algsimp"])
    rxla.compile(ADD_TANH_MLIR, cache_dir=cache)
    assert len(list(cache.iterdir())) == 3
    assert rxla.compile(ADD_TANH_MLIR, cache_dir=cache).compile_times["hlo_pipeline"] == 0
    with pytest.raises(ValueError, match="cache_dir caches CPU executables"):
        rxla.compile(ADD_TANH, platform="interpreter", cache_dir=cache)
    with pytest.raises(rxla.CompileError, match="cannot create directory"):
        rxla.compile(ADD_TANH, cache_dir=entries[0] / "sub")


# Errors.


def test_malformed_hlo_names_line_and_column():
    bad = "HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  ROOT y = f32[2] frobnicate(x)\n}\n"
    with pytest.raises(rxla.CompileError) as info:
        rxla.compile(bad, file_name="bad.hlo")
    message = str(info.value)
    assert "bad.hlo:4:" in message, message
    assert "error" in message


def test_syntax_error_names_line_and_column():
    with pytest.raises(rxla.CompileError, match=r"<input>:4:1: error: expects .\). after the parameter number"):
        rxla.compile("HloModule m\nENTRY e {\n  x = f32[2] parameter(0\n}\n")


def test_malformed_mlir():
    with pytest.raises(rxla.CompileError, match=r"m\.mlir:2:\d+: error"):
        rxla.compile("module {\n  func.func @e( {\n}\n", file_name="m.mlir")


def test_compile_error_is_an_exception_class():
    assert issubclass(rxla.CompileError, Exception)
    assert issubclass(rxla.RunError, RuntimeError)


def test_bad_options():
    with pytest.raises(ValueError, match="unknown platform 'tpu'"):
        rxla.compile(ADD_TANH, platform="tpu")
    with pytest.raises(ValueError, match="emulate_gpu"):
        rxla.compile(ADD_TANH, emulate_gpu=True)
    with pytest.raises(TypeError):
        rxla.compile(42)


def test_wrong_argument_count(add_tanh):
    x = np.zeros((2, 3), np.float32)
    with pytest.raises(TypeError, match=r"takes 2 arguments \(f32\[2,3\], f32\[2,3\]\), got 1"):
        add_tanh(x)
    with pytest.raises(TypeError, match="got 3"):
        add_tanh(x, x, x)


def test_wrong_argument_shape(add_tanh):
    x = np.zeros((2, 3), np.float32)
    with pytest.raises(ValueError, match=r"argument 1: expected shape \(2, 3\) \(f32\[2,3\]\), got float32 with shape \(3, 2\)"):
        add_tanh(x, np.zeros((3, 2), np.float32))


def test_wrong_argument_dtype(add_tanh):
    x = np.zeros((2, 3), np.float32)
    with pytest.raises(TypeError, match=r"argument 0: expected dtype float32 \(f32\[2,3\]\), got float64"):
        add_tanh(np.zeros((2, 3)), x)
    with pytest.raises(TypeError, match="argument 1"):
        add_tanh(x, np.array([["a"] * 3] * 2))


def test_gpu_without_a_gpu_fails_cleanly():
    exe = rxla.compile(ADD_TANH, platform="gpu")
    x = np.zeros((2, 3), np.float32)
    try:
        exe(x, x)
    except rxla.RunError as e:
        assert "CUDA" in str(e) or "GPU" in str(e) or "gpu" in str(e)
    # (With a GPU here, it just runs.)


# run_passes.


def test_run_passes_pass():
    text = """HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  unused = f32[4] multiply(x, x)
  n = f32[4] negate(x)
  ROOT a = f32[4] negate(n)
}"""
    dce = rxla.run_passes(text, passes="dce")
    assert "HloModule" in dce and "multiply" not in dce and "negate" in dce
    both = rxla.run_passes(text, passes=["algsimp", "dce"])
    assert "negate" not in both and "ROOT %x = f32[4]{0} parameter(0)" in both
    assert rxla.run_passes(text, passes="algsimp,dce") == both


def test_run_passes_emit_mlir_then_compile():
    mlir = rxla.run_passes(ADD_TANH, emit="mlir")
    assert "hlo.tanh" in mlir
    exe = rxla.compile(mlir)
    x = np.full((2, 3), 0.5, np.float32)
    np.testing.assert_allclose(exe(x, x)[0], np.tanh(2 * x), rtol=1e-6)


def test_run_passes_stage():
    llvm = rxla.run_passes(ADD_TANH, stage="llvm", platform="cpu")
    assert "define" in llvm
    ptx = rxla.run_passes(ADD_TANH, stage="ptx", platform="gpu")
    assert ".entry" in ptx


def test_run_passes_errors():
    with pytest.raises(rxla.CompileError, match="no-such-pass"):
        rxla.run_passes(ADD_TANH, passes="no-such-pass")
    with pytest.raises(rxla.CompileError, match=r"<input>:\d+:\d+"):
        rxla.run_passes("HloModule m\nENTRY e {\n  ROOT x = f32[2] frob()\n}\n", passes="dce")
