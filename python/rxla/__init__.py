"""rxla: compile XLA HLO text or ``hlo``-dialect MLIR and run it on NumPy arrays.

    >>> import numpy as np, rxla
    >>> exe = rxla.compile('''
    ... HloModule m
    ... ENTRY e {
    ...   x = f32[3] parameter(0)
    ...   ROOT y = f32[3] add(x, x)
    ... }''')
    >>> exe(np.arange(3, dtype=np.float32))
    [array([0., 2., 4.], dtype=float32)]

``rxla.compile(text, platform="cpu")`` returns an :class:`Executable`; calling it
with one NumPy array per parameter returns the flattened outputs (the leaves of a
result tuple, depth-first) as NumPy arrays. bf16 and the f8/f6/f4 types use
ml_dtypes' dtypes. ``rxla.run_passes`` runs hlo-opt's passes or pipeline stages on
a module and returns the text. ``rxla.jax.jit`` (import ``rxla.jax``; needs JAX)
runs JAX functions through rxla. See docs/python-api.md.
"""

import os as _os
from typing import Iterable, List, Optional, Sequence

import ml_dtypes as _ml_dtypes
import numpy as _np

from . import _rxla
from ._rxla import CompileError, RunError

__all__ = ["compile", "compile_file", "run_passes", "Executable", "CompileError", "RunError", "dtype_of"]

_DTYPES = {}
for _name, _hlo in _rxla.dtypes():
    try:
        _DTYPES[_name] = _np.dtype(_name) if not hasattr(_ml_dtypes, _name) else _np.dtype(getattr(_ml_dtypes, _name))
    except TypeError:  # an ml_dtypes too old for this type
        pass
#: HLO element type name -> NumPy dtype (``"bf16"`` -> ``ml_dtypes.bfloat16``).
HLO_DTYPES = {hlo: _DTYPES[name] for name, hlo in _rxla.dtypes() if name in _DTYPES}


def dtype_of(name: str) -> _np.dtype:
    """The NumPy dtype of an rxla dtype name (``"float32"``, ``"bfloat16"``) or
    HLO type name (``"f32"``, ``"bf16"``)."""
    if name in _DTYPES:
        return _DTYPES[name]
    if name in HLO_DTYPES:
        return HLO_DTYPES[name]
    raise TypeError(f"no NumPy dtype for {name!r}")


def _to_wire(i, x):
    """(dtype name, shape, bytes) of argument ``i``."""
    if not isinstance(x, _np.ndarray):
        try:
            x = _np.asarray(x)
        except Exception as e:  # noqa: BLE001
            raise TypeError(f"argument {i}: cannot convert {type(x).__name__} to a NumPy array: {e}") from None
    x = _np.asarray(x, order="C")  # (not ascontiguousarray, which makes 0-d arrays 1-d)
    if not x.dtype.isnative:
        x = x.astype(x.dtype.newbyteorder("="))
    return (x.dtype.name, tuple(int(d) for d in x.shape), x.tobytes())


def _from_wire(dtype, shape, data):
    return _np.frombuffer(data, dtype=dtype_of(dtype)).reshape(shape)


class Executable:
    """A compiled module. Call it with one NumPy array (or array-like) per
    parameter; it returns the flattened outputs as a list of NumPy arrays.

    Arguments must match the parameters exactly (no implicit conversion):
    a wrong count or dtype raises ``TypeError``, a wrong shape ``ValueError``.
    Python scalars and lists are converted with ``numpy.asarray`` first, so
    pass ``np.float32(1)`` rather than ``1.0`` for an ``f32[]`` parameter.
    """

    def __init__(self, native):
        self._native = native

    def __call__(self, *args) -> List[_np.ndarray]:
        wire = [_to_wire(i, x) for i, x in enumerate(args)]
        return [_from_wire(*out) for out in self._native.run(wire)]

    @property
    def parameters(self):
        """The parameters (flattened leaves) as ``(numpy dtype, shape)`` pairs."""
        return [(dtype_of(d), tuple(s)) for d, s in self._native.parameters]

    @property
    def parameter_shapes(self) -> List[str]:
        """The parameters as HLO shapes (``"f32[2,3]"``)."""
        return list(self._native.parameter_shapes)

    @property
    def platform(self) -> str:
        """``"cpu"``, ``"gpu"`` or ``"interpreter"``."""
        return self._native.platform

    @property
    def file_name(self) -> str:
        return self._native.file_name

    @property
    def warnings(self) -> List[str]:
        """The compiler's warnings (``file:line:col: warning: ...``)."""
        return list(self._native.warnings)

    @property
    def num_kernels(self) -> int:
        """How many distinct kernels were compiled (0 for the interpreter)."""
        return self._native.num_kernels

    @property
    def compile_times(self) -> dict:
        """Seconds per compile phase: import, hlo_pipeline, emit, lower, llvm, total."""
        return dict(self._native.compile_times)

    @property
    def ptx(self) -> Optional[str]:
        """The PTX of a GPU executable (``None`` on other platforms)."""
        return self._native.ptx

    def __repr__(self):
        params = ", ".join(self.parameter_shapes)
        return f"<rxla.Executable {self.file_name} on {self.platform}: ({params})>"


def compile(  # noqa: A001 - the natural name
    text: str,
    platform: str = "cpu",
    *,
    file_name: str = "<input>",
    input_format: str = "auto",
    emulate_gpu: bool = False,
    gpu_target: str = "sm_90",
    ptx_version: Optional[str] = None,
    entry_layouts: str = "module",
    disable_passes: Sequence[str] = (),
    dump_dir: Optional[str] = None,
    cache_dir: Optional[str] = None,
) -> Executable:
    """Compiles HLO text or ``hlo``-dialect MLIR.

    - ``platform``: ``"cpu"`` (native code for this machine), ``"gpu"`` (PTX,
      run through the CUDA driver; with ``emulate_gpu=True`` the GPU's kernels
      run on the host) or ``"interpreter"`` (rxla's reference interpreter).
    - ``input_format``: ``"auto"`` (HLO text starts with ``HloModule``; anything
      else is MLIR), ``"hlo"`` or ``"mlir"``.
    - ``file_name`` names the text in messages (``file:line:col: error: ...``).
    - ``entry_layouts``: ``"module"`` (the module's entry layouts, as XLA's HLO
      runner) or ``"default"`` (row-major, as a JAX client).
    - ``gpu_target`` (``sm_80``, ``sm_90``, ``a100``, ``h100``, ``h200``) and
      ``ptx_version`` (``"8.0"``) for ``platform="gpu"``; ``disable_passes``
      names passes to skip; ``dump_dir`` writes every compilation stage there.
    - ``cache_dir`` (CPU): the on-disk compilation cache, as JAX's persistent
      cache: an executable compiled before from the same text with the same
      options, by this process or another, is loaded from there instead of
      compiled; a new one is saved there. Off unless given (see
      docs/cpu-backend.md).

    Raises :class:`CompileError` (its message has rxla's ``file:line:col``
    diagnostics) if the module does not parse, verify or compile.
    """
    if not isinstance(text, str):
        if isinstance(text, (bytes, bytearray)):
            text = bytes(text).decode()
        else:
            raise TypeError(f"text must be a str (HLO text or MLIR), got {type(text).__name__}")
    native = _rxla.compile(
        text,
        platform,
        file_name=file_name,
        input_format=input_format,
        emulate_gpu=emulate_gpu,
        gpu_target=gpu_target,
        ptx_version=ptx_version,
        entry_layouts=entry_layouts,
        disable_passes=list(disable_passes),
        dump_dir=None if dump_dir is None else _os.fspath(dump_dir),
        cache_dir=None if cache_dir is None else _os.fspath(cache_dir),
    )
    return Executable(native)


def compile_file(path, platform: str = "cpu", **options) -> Executable:
    """:func:`compile` of a file; ``.mlir`` files are MLIR, others HLO text
    (unless ``input_format`` says otherwise); messages name the file."""
    path = _os.fspath(path)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    options.setdefault("file_name", path)
    options.setdefault("input_format", "mlir" if path.endswith(".mlir") else "hlo")
    return compile(text, platform, **options)


def run_passes(
    text: str,
    passes=None,
    stage: Optional[str] = None,
    platform: Optional[str] = None,
    *,
    input_format: Optional[str] = None,
    emit: Optional[str] = None,
    args: Iterable[str] = (),
) -> str:
    """Runs hlo-opt in-process on ``text`` and returns its output.

    - ``passes``: a pass pipeline, as a string (``"algsimp,dce"``) or a list
      of pass names (hlo-opt's ``--passes``).
    - ``stage``: a pipeline stage (hlo-opt's ``--stage``: ``hlo``, ``emitter``, ``scf``,
      ``llvm-mlir``, ``llvm``, ``asm``, ``ptx``, ``thunks``), with ``platform``
      (``"cpu"`` or ``"gpu"``).
    - ``input_format``: ``"hlo"`` or ``"mlir"`` (default: HLO text if it
      starts with ``HloModule``); ``emit``: the output format of the module
      (``"mlir"`` or ``"hlo"``; default: the input's), hlo-opt's ``--emit``
      (stages past ``hlo`` print their own format); ``args`` are further hlo-opt flags
      (``["--disable-passes=dce"]``, ``["--gpu-target=sm_80"]``).

    Raises :class:`CompileError` with hlo-opt's diagnostics on failure.
    """
    flags = []
    if passes is not None:
        if not isinstance(passes, str):
            passes = ",".join(passes)
        flags.append(f"--passes={passes}")
    if stage is not None:
        flags.append(f"--stage={stage}")
    if platform is not None:
        flags.append(f"--platform={platform}")
    if input_format is None:
        first = next((ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("//")), "")
        input_format = "hlo" if first.startswith("HloModule") else "mlir"
    flags.append(f"--input-format={input_format}")
    if emit is not None:
        flags.append(f"--emit={emit}")
    flags.extend(args)
    ok, output, diagnostics = _rxla.run_opt(flags, text)
    if not ok:
        raise CompileError(diagnostics.rstrip() or "hlo-opt failed")
    return output


def __getattr__(name):
    # `rxla.jax` imports JAX, so only on first use.
    if name == "jax":
        import importlib

        return importlib.import_module(".jax", __name__)
    raise AttributeError(f"module 'rxla' has no attribute {name!r}")
