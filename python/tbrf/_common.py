"""_common — argument conversion shared by the modules: names to enum
values, option structs, and numpy arrays handed to C without a copy where
their layout allows."""
from __future__ import annotations

import ctypes
import math
from typing import Any, Mapping, Optional, Sequence

import numpy as np

from ._lib import Opts, SizeError, lib, raise_for

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


def counts3(shape: Sequence[int], dim: int, what: str = "shape"):
    """A C int64[3] of the cell counts (nx, ny[, nz]), nz = 1 in 2D."""
    s = [int(x) for x in np.atleast_1d(np.asarray(shape))]
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


def out_array(shape: tuple, dtype, out: Optional[np.ndarray]) -> np.ndarray:
    """The output: `out` when it fits (checked), else a new array within
    the memory budget."""
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
    return out


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
            if isinstance(v, float) and not v.is_integer() or isinstance(v, bool):
                raise TypeError(f"{name} must be an integer, not {v!r}")
            setattr(o, name, int(v))
    if periodic is not None:
        o.periodic = 1 if periodic else 0
    for name, v in (("zeta", zeta), ("accuracy", accuracy)):
        if v is not None:
            setattr(o, name, float(v))
    return o


def finite(x: float) -> bool:
    return isinstance(x, (int, float)) and math.isfinite(x)
