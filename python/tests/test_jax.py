"""rxla.jax.jit against jax.jit."""
import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import rxla  # noqa: E402
import rxla.jax  # noqa: E402


def mlp(x, w):
    return jnp.sum(jnp.tanh(x @ w), axis=-1)


@pytest.fixture
def xw():
    rng = np.random.default_rng(0)
    return rng.standard_normal((8, 16), dtype=np.float32), rng.standard_normal((16, 32), dtype=np.float32)


def test_matches_jax(xw):
    x, w = xw
    got = rxla.jax.jit(mlp)(x, w)
    want = jax.jit(mlp)(x, w)
    assert isinstance(got, np.ndarray)
    assert got.shape == want.shape == (8,) and got.dtype == want.dtype
    np.testing.assert_allclose(got, np.asarray(want), rtol=1e-5, atol=1e-5)


def test_accepts_jax_arrays(xw):
    x, w = xw
    got = rxla.jax.jit(mlp)(jnp.asarray(x), jnp.asarray(w))
    np.testing.assert_allclose(got, np.asarray(jax.jit(mlp)(x, w)), rtol=1e-5, atol=1e-5)


def test_cache_per_signature(xw):
    x, w = xw
    f = rxla.jax.jit(mlp)
    f(x, w)
    assert f.cache_info() == {"hits": 0, "misses": 1, "size": 1}
    f(x + 1, w)  # same shapes and dtypes: cached
    assert f.cache_info() == {"hits": 1, "misses": 1, "size": 1}
    x2 = np.ones((3, 16), np.float32)
    got = f(x2, w)  # a new shape: compiled again
    assert f.cache_info() == {"hits": 1, "misses": 2, "size": 2}
    np.testing.assert_allclose(got, np.asarray(jax.jit(mlp)(x2, w)), rtol=1e-5, atol=1e-5)
    f(x.astype(np.float64).astype(np.float32), w)
    assert f.cache_info()["misses"] == 2


def test_pytrees_in_and_out():
    def f(params, inputs):
        h = jnp.tanh(inputs["x"] @ params["w"] + params["b"])
        return {"sum": h.sum(), "parts": (h, jnp.max(h, axis=0))}

    rng = np.random.default_rng(1)
    params = {"w": rng.standard_normal((4, 5), dtype=np.float32), "b": np.zeros(5, np.float32)}
    inputs = {"x": rng.standard_normal((3, 4), dtype=np.float32)}
    got = rxla.jax.jit(f)(params, inputs)
    want = jax.jit(f)(params, inputs)
    assert jax.tree_util.tree_structure(got) == jax.tree_util.tree_structure(want)
    for g, w in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)):
        np.testing.assert_allclose(g, np.asarray(w), rtol=1e-5, atol=1e-5)


def test_python_scalars_and_static_arguments():
    def f(x, scale, power):
        return (x * scale) ** power

    g = rxla.jax.jit(f, static_argnums=2)
    x = np.arange(4, dtype=np.float32)
    np.testing.assert_allclose(g(x, 2.0, 3), np.asarray(jax.jit(f, static_argnums=2)(x, 2.0, 3)), rtol=1e-6)
    # A new Python scalar value reuses the executable; a new static value does not.
    np.testing.assert_allclose(g(x, 0.5, 3), (x * 0.5) ** 3, rtol=1e-6)
    assert g.cache_info()["misses"] == 1
    np.testing.assert_allclose(g(x, 0.5, 2), (x * 0.5) ** 2, rtol=1e-6)
    assert g.cache_info()["misses"] == 2


def test_static_argnames_and_keywords():
    def f(x, *, axis):
        return jnp.cumsum(x, axis=axis)

    g = rxla.jax.jit(f, static_argnames="axis")
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    np.testing.assert_array_equal(g(x, axis=0), np.cumsum(x, axis=0))
    np.testing.assert_array_equal(g(x, axis=1), np.cumsum(x, axis=1))


def test_unused_arguments_and_dtypes():
    def f(a, unused, b):
        return a.astype(jnp.bfloat16) * 2, b > 0

    a = np.array([1.5, 2.5], np.float32)
    b = np.array([-1, 3], np.int32)
    got = rxla.jax.jit(f)(a, np.zeros(3, np.float32), b)
    want = jax.jit(f)(a, np.zeros(3, np.float32), b)
    assert got[0].dtype == want[0].dtype and got[1].dtype == np.bool_
    np.testing.assert_array_equal(got[0].astype(np.float32), np.asarray(want[0]).astype(np.float32))
    np.testing.assert_array_equal(got[1], np.asarray(want[1]))


def test_decorator_with_options():
    @rxla.jax.jit(platform="gpu", emulate_gpu=True)
    def f(x):
        return jnp.tanh(x) * 2

    x = np.linspace(-2, 2, 16, dtype=np.float32)
    np.testing.assert_allclose(f(x), np.tanh(x) * 2, rtol=1e-5, atol=1e-6)
    assert "HloModule" in f.lower_to_hlo(x)
    assert f.executable(x).platform == "gpu"


def test_control_flow():
    def f(x):
        return jax.lax.fori_loop(0, 5, lambda i, c: c * 1.5 + i, x)

    x = np.ones(3, np.float32)
    np.testing.assert_allclose(rxla.jax.jit(f)(x), np.asarray(jax.jit(f)(x)), rtol=1e-6)
