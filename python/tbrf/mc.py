"""tbrf.mc — Monte Carlo integration (include/tbrf/mc.h): Genz's test
integrands and user integrands over boxes, on the 64-bit LCG."""
from __future__ import annotations

import ctypes
from typing import Any, Callable, Optional, Sequence, Tuple

import numpy as np

from . import _common as C
from ._lib import MC_FN, lib, raise_for

INTEGRANDS = {"oscillatory": 0, "productpeak": 1, "cornerpeak": 2, "gaussian": 3,
              "continuous": 4, "discontinuous": 5, "nag": 6}
ALGORITHMS = {"sequential": 0, "vectorized": 1}


def integrand_name(integrand: int) -> str:
    """The name of a built-in integrand id; ValueError for an unknown id."""
    s = lib.tbrf_mc_integrand_name(int(integrand))
    if not s:
        raise ValueError(f"unknown integrand id {integrand}")
    return s.decode()


def _ua(a: Optional[Sequence[float]], u: Optional[Sequence[float]], dim: int):
    out = []
    for v, what in ((a, "a"), (u, "u")):
        if v is None:
            out.append(None)
            continue
        arr = np.ascontiguousarray(np.asarray(v, dtype=np.float64))
        if arr.shape != (dim,):
            raise ValueError(f"{what} needs {dim} values")
        out.append(arr)
    return out


def exact(integrand: str, dim: int, a: Optional[Sequence[float]] = None,
          u: Optional[Sequence[float]] = None) -> float:
    """The exact integral over [0,1]^dim of a built-in integrand."""
    aa, uu = _ua(a, u, dim)
    v = ctypes.c_double()
    raise_for(lib.tbrf_mc_exact(C.choice(INTEGRANDS, integrand, "integrand"), int(dim),
                                C.addr(aa), C.addr(uu), ctypes.byref(v)), None)
    return v.value


def integrate(integrand: str, dim: int, n: int, seed: int = 1,
              a: Optional[Sequence[float]] = None, u: Optional[Sequence[float]] = None,
              algorithm: str = "vectorized", block: int = 0) -> Tuple[float, float]:
    """(estimate, standard error) of a built-in integrand from n points."""
    aa, uu = _ua(a, u, dim)
    out = np.empty(2)
    raise_for(lib.tbrf_mc_integrate(C.choice(INTEGRANDS, integrand, "integrand"), int(dim),
                                    C.addr(aa), C.addr(uu), C.i64(n, "n"), C.u64(seed, "seed"),
                                    C.choice(ALGORITHMS, algorithm, "algorithm"),
                                    C.i64(block, "block"),
                                    out.ctypes.data), None)
    return float(out[0]), float(out[1])


def integrate_fn(fn: Callable[[np.ndarray], Any], dim: int, n: int, seed: int = 1,
                 lo: Optional[Sequence[float]] = None, hi: Optional[Sequence[float]] = None,
                 algorithm: str = "sequential", block: int = 0) -> Tuple[float, float]:
    """(estimate, standard error) of the integral of fn over the box [lo,
    hi] (default the unit cube): fn takes an (m, dim) array of points and
    returns m values. An exception in fn stops the run and is raised here.
    (The vectorized algorithm calls fn from several threads, each taking
    the GIL.)"""
    raised = []

    def call(_user, m, d, x, f):
        try:
            pts = np.ctypeslib.as_array((ctypes.c_double * (m * d)).from_address(x))
            vals = np.asarray(fn(pts.reshape(m, d)), dtype=np.float64).reshape(-1)
            if vals.size != m:
                raise ValueError(f"the integrand returned {vals.size} values for {m} points")
            np.ctypeslib.as_array((ctypes.c_double * m).from_address(f))[:] = vals
            return 0
        except BaseException as e:  # noqa: BLE001 - re-raised below
            raised.append(e)
            return 1

    box = []
    for v, what in ((lo, "lo"), (hi, "hi")):
        box.append(None if v is None else
                   np.ascontiguousarray(np.broadcast_to(np.asarray(v, np.float64), (dim,))))
    out = np.empty(2)
    cb = MC_FN(call)
    st = lib.tbrf_mc_integrate_fn(cb, None, int(dim), C.addr(box[0]), C.addr(box[1]),
                                  C.i64(n, "n"), C.u64(seed, "seed"),
                                  C.choice(ALGORITHMS, algorithm, "algorithm"),
                                  C.i64(block, "block"), out.ctypes.data)
    if raised:
        raise raised[0]
    raise_for(st, None)
    return float(out[0]), float(out[1])


def integrate_device(integrand: str, dim: int, n: int, seed: int = 1,
                     a: Optional[Sequence[float]] = None, u: Optional[Sequence[float]] = None,
                     backend: str = "opencl", device: int = -1) -> Tuple[float, float]:
    """integrate on a GPU backend ("opencl" or "cuda")."""
    aa, uu = _ua(a, u, dim)
    out = np.empty(2)
    raise_for(lib.tbrf_mc_integrate_device(C.choice(C.BACKENDS, backend, "backend"),
                                           int(device),
                                           C.choice(INTEGRANDS, integrand, "integrand"),
                                           int(dim), C.addr(aa), C.addr(uu), C.i64(n, "n"),
                                           C.u64(seed, "seed"), out.ctypes.data), None)
    return float(out[0]), float(out[1])


def measure_beta() -> float:
    """The vectorized LCG's per-block overhead, measured now (about 0.1 s)."""
    v = ctypes.c_double()
    raise_for(lib.tbrf_mc_measure_beta(ctypes.byref(v)), None)
    return v.value


def block_size(n: int, dim: int, beta: float = 64.0) -> int:
    """The Hockney-Jesshope block size s* = sqrt(beta n / dim), clamped."""
    s = ctypes.c_int64()
    raise_for(lib.tbrf_mc_block_size(int(n), int(dim), float(beta), ctypes.byref(s)), None)
    return s.value
