"""_common — argument conversion shared by the modules: names to enum
values, option structs, and numpy arrays handed to C without a copy where
their layout allows."""
from __future__ import annotations

import ctypes
import math
import threading
from typing import Any, Mapping, Optional, Sequence

import numpy as np

from ._lib import CANCEL_FN, PULL_FN, PUSH_FN, FileError, Opts, SizeError, lib, raise_for

PRECISIONS = {"double": 0, "float64": 0, "float": 1, "float32": 1}
BACKENDS = {"cpu": 0, "opencl": 1, "cuda": 2, "auto": 3}
METHODS = {"tb": 0, "fft": 1, "auto": 2, "nufft": 3}
METHOD_NAMES = {0: "tb", 1: "fft", 2: "auto", 3: "nufft"}
LINE_METHODS = {"spectral": 0, "circulant": 1}
VECTORS = {None: 0, "scalar": 0, "solenoidal": 1, "compressive": 2, "mixed": 3}
DENSITIES = {"field": 0, "lognormal": 1, "linear": 2}


def choice(table: Mapping, value: Any, what: str) -> int:
    """The enum value of a name (or of the enum value itself)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) \
            and int(value) in table.values():
        return int(value)
    if isinstance(value, str):
        value = value.lower()
    if value in table:
        return table[value]
    names = ", ".join(repr(k) for k in table if isinstance(k, str))
    raise ValueError(f"{what} must be one of {names}, not {value!r}")


def precision_of(value: Any) -> int:
    """0 (double) or 1 (float) from a name or a numpy dtype."""
    if not isinstance(value, str) and not isinstance(value, int):
        try:
            value = np.dtype(value).name
        except TypeError:
            pass
    return choice(PRECISIONS, value, "precision")


def vec3(values: Optional[Sequence[float]], dim: int, what: str, fill: float = 0.0,
         dtype=ctypes.c_double):
    """A C array of 3 from dim values (the axes beyond dim get `fill`)."""
    out = (dtype * 3)(fill, fill, fill)
    if values is None:
        return out
    v = np.atleast_1d(np.asarray(values, dtype=np.float64 if dtype is ctypes.c_double
                                 else np.int64))
    if v.ndim != 1 or v.size != dim:
        raise ValueError(f"{what} needs {dim} values (one per axis), got {v.size}")
    for i in range(dim):
        out[i] = v[i].item()
    return out


def ranged(v: Any, ctype, what: str, lo: Optional[int] = None,
           hi: Optional[int] = None) -> int:
    """v as an integer the C type `ctype` holds (and within [lo, hi] when
    given), checked before the C call: ctypes converts a Python integer
    modulo 2^bits, so 2**64 + 8 would reach the library as 8 and -1 as
    2^64 - 1. Refuses bools and non-integral floats (TypeError) and any
    value out of range (ValueError naming it and the range)."""
    if isinstance(v, bool) or isinstance(v, np.bool_):
        raise TypeError(f"{what} must be an integer, not {v!r}")
    if isinstance(v, (float, np.floating)):
        if not math.isfinite(v) or not float(v).is_integer():
            raise TypeError(f"{what} must be an integer, not {v!r}")
        v = int(v)
    elif not isinstance(v, (int, np.integer)):
        try:
            v = v.__index__()
        except AttributeError:
            raise TypeError(f"{what} must be an integer, not {v!r}") from None
    v = int(v)
    bits = 8 * ctypes.sizeof(ctype)
    signed = ctype(-1).value == -1
    tlo, thi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    lo = tlo if lo is None else max(lo, tlo)
    hi = thi if hi is None else min(hi, thi)
    if not lo <= v <= hi:
        raise ValueError(f"{what} must be an integer from {lo} to {hi}, not {v}")
    return v


def u64(v: Any, what: str) -> int:
    """A seed, stream, offset or realization: 0 .. 2^64 - 1 (-1 is refused,
    never taken as 2^64 - 1)."""
    return ranged(v, ctypes.c_uint64, what)


def i64(v: Any, what: str, lo: Optional[int] = None, hi: Optional[int] = None) -> int:
    return ranged(v, ctypes.c_int64, what, lo, hi)


def i32(v: Any, what: str, lo: Optional[int] = None, hi: Optional[int] = None) -> int:
    return ranged(v, ctypes.c_int32, what, lo, hi)


def counts3(shape: Sequence[int], dim: int, what: str = "shape"):
    """A C int64[3] of the cell counts (nx, ny[, nz]), nz = 1 in 2D, each
    checked to be an int64 before it reaches the library (a count of
    2**64 + 2 must not become 2)."""
    raw = np.atleast_1d(np.asarray(shape, dtype=object))
    s = [i64(x, f"{what}[{i}]") for i, x in enumerate(raw.ravel())]
    if len(s) != dim:
        raise ValueError(f"{what} needs {dim} counts (nx, ny{', nz' if dim == 3 else ''}), "
                         f"got {len(s)}")
    return (ctypes.c_int64 * 3)(*(s + [1] * (3 - dim)))


def positions(xyz: Any, dim: int, what: str = "points") -> np.ndarray:
    """An (N, dim) float64 C-ordered array for the library: the caller's
    own array when it is one already (no copy), else a converted copy (a
    Fortran-ordered array's memory is axis by axis, not point by point)."""
    a = np.asarray(xyz)
    if a.ndim == 1 and a.size == dim:
        a = a.reshape(1, dim)
    if a.ndim != 2 or a.shape[1] != dim:
        raise ValueError(f"{what} must be an (N, {dim}) array, got shape {a.shape}")
    if not np.issubdtype(a.dtype, np.floating) and not np.issubdtype(a.dtype, np.integer):
        raise TypeError(f"{what} must hold numbers, not {a.dtype}")
    if a.dtype != np.float64 or not a.flags.c_contiguous:
        check_budget(a.size * 8, f"the float64 copy of {what}")
    return np.ascontiguousarray(a, dtype=np.float64)


def values_in(a: Any, what: str) -> np.ndarray:
    """A C-contiguous float64 copy-free view when possible."""
    return np.ascontiguousarray(np.asarray(a, dtype=np.float64), dtype=np.float64)


def check_budget(nbytes: int, what: str) -> None:
    """Refuses an array larger than the memory budget every tbrf object
    checks its sizes against (tbrf_memory_budget: $TBRF_MEMORY_BUDGET, else
    half the physical memory), before numpy allocates it: an output the
    library then fills page by page would otherwise meet the OOM killer."""
    budget = ctypes.c_uint64()
    st = lib.tbrf_memory_budget(ctypes.byref(budget))
    raise_for(st, "TBRF_MEMORY_BUDGET is set but is not a size" if st == 2 else None)
    if nbytes > budget.value:
        raise SizeError(f"{what} of {nbytes} bytes exceeds the memory budget of "
                        f"{budget.value} bytes ($TBRF_MEMORY_BUDGET, else half the physical "
                        "memory)", 3)


def out_array(shape: tuple, dtype, out: Optional[np.ndarray],
              inputs: Sequence[Any] = ()) -> np.ndarray:
    """The output: `out` when it fits (checked) and shares no memory with
    any of `inputs` (the arrays the same call reads: the library would
    read values it has already overwritten), else a new array within the
    memory budget."""
    if out is None:
        n = 1
        for s in shape:
            n *= int(s)
        check_budget(n * np.dtype(dtype).itemsize, f"the output array of shape {tuple(shape)}")
        return np.empty(shape, dtype=dtype)
    if not isinstance(out, np.ndarray) or out.shape != tuple(shape) or out.dtype != dtype \
            or not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError(f"out must be a writeable C-contiguous {np.dtype(dtype).name} array of "
                         f"shape {tuple(shape)}")
    for a in inputs:
        if isinstance(a, np.ndarray) and _overlap(out, a):
            raise ValueError("out shares memory with an input of the same call (the points, "
                             "positions or values it reads): give a separate array")
    return out


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two arrays share memory; when numpy cannot tell cheaply,
    overlapping bounds count as sharing (refusing is safe, a silent
    wrong result is not)."""
    if not np.may_share_memory(a, b):
        return False
    try:
        return bool(np.shares_memory(a, b, max_work=10 ** 6))
    except getattr(getattr(np, "exceptions", np), "TooHardError"):
        return True


def addr(a: Optional[np.ndarray]) -> Optional[int]:
    return None if a is None else a.ctypes.data


def default_opts() -> Opts:
    o = Opts()
    lib.tbrf_default_opts(ctypes.byref(o))
    return o


def fill_opts(o: Opts, *, precision=None, method=None, vector=None, zeta=None, lines=None,
              oversampling=None, line_method=None, max_padding=None, line_length_factor=None,
              threads=None, backend=None, device=None, accuracy=None, periodic=None,
              chunk=None) -> Opts:
    """Sets the given options (None leaves the library's default)."""
    if precision is not None:
        o.precision = precision_of(precision)
    if method is not None:
        o.method = choice(METHODS, method, "method")
    if vector is not None:
        o.vector = choice(VECTORS, vector, "vector")
    if backend is not None:
        o.backend = choice(BACKENDS, backend, "backend")
    if line_method is not None:
        o.line_method = choice(LINE_METHODS, line_method, "line_method")
    for name, v in (("lines", lines), ("oversampling", oversampling),
                    ("max_padding", max_padding), ("line_length_factor", line_length_factor),
                    ("threads", threads), ("device", device), ("chunk", chunk)):
        if v is not None:
            setattr(o, name, ranged(v, ctypes.c_int64 if name == "chunk" else ctypes.c_int32,
                                    name))
    if periodic is not None:
        o.periodic = 1 if periodic else 0
    for name, v in (("zeta", zeta), ("accuracy", accuracy)):
        if v is not None:
            setattr(o, name, float(v))
    return o


def finite(x: float) -> bool:
    return isinstance(x, (int, float)) and math.isfinite(x)


class _Interrupts:
    """While a streamed call runs on the main thread, SIGINT sets a flag
    instead of raising: Python raises KeyboardInterrupt at the first
    bytecode of whatever runs, and inside a ctypes callback that is before
    any try, where ctypes can only print it and return garbage. The
    callbacks see the flag and stop the run; on leaving, the handler that
    was installed is called with the signal (the default one raises
    KeyboardInterrupt). Other threads and handlers that are not Python
    callables (SIG_IGN, SIG_DFL) are left alone."""

    def __init__(self):
        self.hit = None
        self.old = None

    def __enter__(self):
        import signal
        if threading.current_thread() is threading.main_thread():
            old = signal.getsignal(signal.SIGINT)
            if callable(old):
                self.old = old
                signal.signal(signal.SIGINT, self._note)
        return self

    def _note(self, signum, frame):
        # not the frame: the one a signal lands in is a callback's, whose
        # callers hold this object, and the exception's traceback would
        # then keep the call's frames (its output array) in a cycle until
        # the garbage collector runs
        self.hit = signum

    def __exit__(self, *exc):
        import signal
        import sys
        if self.old is not None:
            signal.signal(signal.SIGINT, self.old)
            if self.hit is not None:
                self.old(self.hit, sys._getframe(1))
        return False


def interruptible(set_cancel: Any, handle: Any, call: Any) -> int:
    """Runs call(), one library call on the object `handle`, with the
    object's cancel hook set (set_cancel: tbrf_set_cancel,
    tbrf_driver_set_cancel, ...): the library polls it on this thread
    between blocks of work (tbrf_cancel_fn), so Ctrl-C stops a call that
    is not streamed within about a block's time; the library frees what
    the call allocated and KeyboardInterrupt is raised here
    (_Interrupts). The hook is removed before returning. Off the main
    thread, or under a handler that is not a Python callable, call() runs
    as it is. Returns the library's status otherwise."""
    with _Interrupts() as intr:
        if intr.old is None:
            return call()

        def poll(_user):
            # entering Python here runs the noted SIGINT handler first
            return 0 if intr.hit is None else 1
        hook = CANCEL_FN(poll)
        set_cancel(handle, hook, None)
        try:
            return call()
        finally:
            set_cancel(handle, CANCEL_FN(), None)  # NULL: no hook
    # (a signal noted above was raised by __exit__ already)


def stream(call: Any, values: np.ndarray, xyz: Optional[np.ndarray], dim: int,
           components: int) -> int:
    """Runs a streaming library call, call(pull, push) (tbrf_execute_stream,
    tbrf_execute_grid_stream, tbrf_driver_stream: bitwise the values of
    the one-shot calls), pulling positions from xyz (N, dim) and pushing
    the values into `values` (components per position). Its callbacks run
    between two chunks, so Ctrl-C stops the run within about a chunk's
    time: the callback returns non-zero, the library stops and frees its
    chunk buffers, and KeyboardInterrupt is raised here (_Interrupts).
    Returns the library's status otherwise."""
    raised = []
    base, row = values.ctypes.data, values.itemsize * components
    src = xyz.ctypes.data if xyz is not None else 0
    n = xyz.shape[0] if xyz is not None else 0
    with _Interrupts() as intr:
        def pull(_user, first, most, buf, count):
            try:
                if intr.hit is not None:
                    return 1
                c = min(most, n - first)
                ctypes.memmove(buf, src + 8 * dim * first, 8 * dim * c)
                count[0] = c
                return 0
            except BaseException as e:  # noqa: BLE001 - re-raised below
                raised.append(e)
                return 1

        def push(_user, first, count, piece):
            try:
                if intr.hit is not None:
                    return 1
                ctypes.memmove(base + row * first, piece, row * count)
                return 0
            except BaseException as e:  # noqa: BLE001 - re-raised below
                raised.append(e)
                return 1

        st = call(PULL_FN(pull), PUSH_FN(push))
    # (a signal noted above was raised by __exit__ already)
    if raised:
        raise raised[0]
    return st


# The most a text parameter file is read for (TurbGen's: the library
# refuses a longer text, tbrf_driver_params_from_turbgen): the reader
# stops one byte past it, so /dev/zero or a huge file costs 1 MiB.
TEXT_MAX = 1 << 20


def text_bytes(raw: bytes, what: str, name: str) -> bytes:
    """raw, refused at its first NUL byte (a C string would end there and
    the library parse what came before), naming its line and byte; the
    library refuses the other bytes that are no text."""
    i = raw.find(b"\0")
    if i >= 0:
        line = raw.count(b"\n", 0, i) + 1
        col = i - (raw.rfind(b"\n", 0, i) + 1) + 1
        raise FileError(f"{what}: {name}: line {line}, byte {col}: a NUL byte (binary data, "
                        "not a text file)", 5)
    return raw


def read_text(path: Any, what: str) -> bytes:
    """The bytes of a text parameter file, read bounded: at most
    TEXT_MAX (SizeError beyond, after TEXT_MAX + 1 bytes), a folder
    refused (FileError), the first NUL byte refused (text_bytes)."""
    import os
    name = os.fsdecode(path)
    try:
        with open(path, "rb") as f:
            raw = f.read(TEXT_MAX + 1)
    except IsADirectoryError:
        raise FileError(f"{what}: {name} is a folder, not a parameter file", 5) from None
    except OSError as e:
        raise FileError(f"{what}: cannot read {name}: {e.strerror or e}", 5) from None
    if len(raw) > TEXT_MAX:
        raise SizeError(f"{what}: {name} is larger than {TEXT_MAX} bytes: not a parameter file",
                        3)
    return text_bytes(raw, what, name)
