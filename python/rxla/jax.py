"""Run JAX functions through rxla: ``rxla.jax.jit``.

    import jax.numpy as jnp, numpy as np, rxla.jax

    @rxla.jax.jit
    def f(x, w):
        return jnp.sum(jnp.tanh(x @ w), axis=-1)

    f(np.ones((2, 3), np.float32), np.ones((3, 4), np.float32))  # a NumPy array

The function is lowered to HLO text with JAX (``jax.jit(fn).lower(...)``),
compiled by rxla (``rxla.compile``) and run on rxla's platform; the executable
is cached per input signature (the arguments' tree structure, shapes, dtypes
and weak types, and the values of static arguments). Outputs come back as NumPy
arrays in the function's output tree. Importing this module needs JAX; ``import
rxla`` does not.
"""

import functools
import threading
from typing import Any, Callable, Optional, Sequence, Union

import jax
import numpy as np
from jax import tree_util

import rxla

__all__ = ["jit", "Jitted"]


def _leaf_signature(x):
    """What of a leaf makes a different executable: shape, dtype, weak type."""
    if isinstance(x, (bool, int, float, complex)):
        # Python scalars are traced as weakly typed rank-0 values (as jax.jit does).
        return ("python", type(x))
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        return (tuple(x.shape), np.dtype(x.dtype), bool(getattr(x, "weak_type", False)))
    a = np.asarray(x)
    return (a.shape, a.dtype, False)


def _hashable_static(where, value):
    try:
        hash(value)
    except TypeError:
        raise TypeError(
            f"static argument {where} must be hashable (it is part of the cache key), got {type(value).__name__}"
        ) from None
    return value


class _Compiled:
    __slots__ = ("executable", "out_tree", "dtypes", "hlo_text")

    def __init__(self, executable, out_tree, dtypes, hlo_text):
        self.executable = executable
        self.out_tree = out_tree
        self.dtypes = dtypes
        self.hlo_text = hlo_text


class Jitted:
    """A JAX function compiled by rxla (see :func:`jit`)."""

    def __init__(self, fn, platform, static_argnums, static_argnames, options):
        self._fn = fn
        self._platform = platform
        if isinstance(static_argnums, int):
            static_argnums = (static_argnums,)
        if isinstance(static_argnames, str):
            static_argnames = (static_argnames,)
        self._static_argnums = tuple(static_argnums or ())
        self._static_argnames = tuple(static_argnames or ())
        self._options = dict(options)
        self._options.setdefault("entry_layouts", "default")
        # keep_unused: every argument leaf stays a parameter of the module, so
        # the flattened arguments are the executable's parameters.
        self._jax_jit = jax.jit(
            fn, static_argnums=self._static_argnums, static_argnames=self._static_argnames, keep_unused=True
        )
        self._cache = {}
        self._lock = threading.Lock()
        self._hits = 0
        self._misses = 0
        functools.update_wrapper(self, fn)

    def _key(self, args, kwargs):
        n = len(args)
        static_nums = {i if i >= 0 else n + i for i in self._static_argnums}
        dyn_args = tuple(a for i, a in enumerate(args) if i not in static_nums)
        dyn_kwargs = {k: v for k, v in kwargs.items() if k not in self._static_argnames}
        static = tuple((i, _hashable_static(f"#{i}", args[i])) for i in sorted(static_nums) if i < n)
        static += tuple(
            (k, _hashable_static(repr(k), kwargs[k])) for k in sorted(self._static_argnames) if k in kwargs
        )
        leaves, treedef = tree_util.tree_flatten((dyn_args, dyn_kwargs))
        key = (treedef, tuple(_leaf_signature(x) for x in leaves), static)
        return key, leaves

    def _compile(self, args, kwargs, n_leaves):
        lowered = self._jax_jit.lower(*args, **kwargs)
        text = lowered.as_text(dialect="hlo")
        name = getattr(self._fn, "__name__", "fn")
        exe = rxla.compile(text, self._platform, file_name=f"jit_{name}.hlo", input_format="hlo", **self._options)
        params = exe.parameters
        if len(params) != n_leaves:
            raise rxla.CompileError(
                f"jit_{name}: the lowered module has {len(params)} parameters for {n_leaves} argument leaves"
            )
        return _Compiled(exe, lowered.out_tree, [d for d, _ in params], text)

    def _entry(self, args, kwargs):
        key, leaves = self._key(args, kwargs)
        with self._lock:
            entry = self._cache.get(key)
            if entry is None:
                self._misses += 1
                entry = self._compile(args, kwargs, len(leaves))
                self._cache[key] = entry
            else:
                self._hits += 1
        return entry, leaves

    def __call__(self, *args, **kwargs):
        entry, leaves = self._entry(args, kwargs)
        arrays = [np.asarray(x, dtype=d) for x, d in zip(leaves, entry.dtypes)]
        outputs = entry.executable(*arrays)
        return tree_util.tree_unflatten(entry.out_tree, outputs)

    def lower_to_hlo(self, *args, **kwargs) -> str:
        """The HLO text rxla compiles for these arguments (compiles if needed)."""
        return self._entry(args, kwargs)[0].hlo_text

    def executable(self, *args, **kwargs) -> "rxla.Executable":
        """The :class:`rxla.Executable` for these arguments (compiles if needed)."""
        return self._entry(args, kwargs)[0].executable

    def cache_info(self) -> dict:
        """``{"hits": ..., "misses": ..., "size": ...}``: calls that reused an
        executable, calls that compiled one, executables cached."""
        with self._lock:
            return {"hits": self._hits, "misses": self._misses, "size": len(self._cache)}

    def clear_cache(self):
        with self._lock:
            self._cache.clear()

    def __repr__(self):
        return f"<rxla.jax.jit of {getattr(self._fn, '__qualname__', self._fn)!r} on {self._platform}>"


def jit(
    fn: Optional[Callable] = None,
    *,
    platform: str = "cpu",
    static_argnums: Union[int, Sequence[int], None] = None,
    static_argnames: Union[str, Sequence[str], None] = None,
    **options: Any,
):
    """Like ``jax.jit``, but compiles and runs with rxla.

    ``platform`` and ``options`` go to :func:`rxla.compile` (``emulate_gpu``,
    ``gpu_target``, ``disable_passes``, ...; ``entry_layouts`` defaults to
    ``"default"``, row-major, as a JAX client). ``static_argnums`` /
    ``static_argnames`` are as in ``jax.jit``: their values (hashable) are
    part of the cache key. Other arguments, including Python scalars, are
    traced (Python scalars weakly typed, as in ``jax.jit``).

    Usable as ``@jit`` or ``@jit(platform="gpu", emulate_gpu=True)``.
    """
    if fn is None:
        return functools.partial(
            jit, platform=platform, static_argnums=static_argnums, static_argnames=static_argnames, **options
        )
    return Jitted(fn, platform, static_argnums, static_argnames, options)
