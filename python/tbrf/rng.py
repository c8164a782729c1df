"""tbrf.rng — the counter-based random-number streams (include/tbrf/rng.h,
doc/rng.md): any range of any stream, jump-ahead, no stored state."""
from __future__ import annotations

import ctypes
from typing import Sequence, Tuple

import numpy as np

from . import _common as C
from ._lib import lib, raise_for

GENERATORS = {"philox": 0, "saru": 1, "tea8": 2, "lcg64": 3, "lcg64-permuted": 4}
DISTRIBUTIONS = {"u01": 0, "s11": 1, "normal": 2}


def name(gen: int) -> str:
    """The name of a generator id ("philox", ...); ValueError for an unknown id."""
    s = lib.tbrf_rng_name(int(gen))
    if not s:
        raise ValueError(f"unknown generator id {gen}")
    return s.decode()


def _n(n: int) -> int:
    n = C.i64(n, "n")
    if n < 0:
        raise_for(3, f"n = {n} words: a count must be >= 0")
    return n


def _sso(seed: int, stream: int, offset: int) -> tuple:
    """seed, stream and offset, each 0 .. 2^64 - 1 (-1 is refused, not
    taken as 2^64 - 1)."""
    return C.u64(seed, "seed"), C.u64(stream, "stream"), C.u64(offset, "offset")


def u32(n: int, gen: str = "philox", seed: int = 1, stream: int = 0,
        offset: int = 0) -> np.ndarray:
    """Words offset .. offset + n - 1 of a stream as uint32."""
    sso = _sso(seed, stream, offset)
    out = C.out_array((_n(n),), np.uint32, None)
    raise_for(lib.tbrf_rng_u32(C.choice(GENERATORS, gen, "gen"), *sso, out.size,
                               out.ctypes.data), None)
    return out


def uniform(n: int, gen: str = "philox", seed: int = 1, stream: int = 0, offset: int = 0,
            dist: str = "u01", dtype=np.float64) -> np.ndarray:
    """Values offset .. offset + n - 1 of a stream converted by dist ("u01"
    in [0, 1), "s11" in [-1, 1), "normal"), float64 or float32."""
    dt = np.dtype(dtype)
    fn = {np.dtype(np.float64): lib.tbrf_rng_double, np.dtype(np.float32): lib.tbrf_rng_float}
    if dt not in fn:
        raise TypeError(f"dtype must be float64 or float32, not {dt}")
    sso = _sso(seed, stream, offset)
    out = C.out_array((_n(n),), dt, None)
    raise_for(fn[dt](C.choice(GENERATORS, gen, "gen"), *sso, out.size, C.choice(DISTRIBUTIONS, dist, "dist"), out.ctypes.data), None)
    return out


def normal(n: int, gen: str = "philox", seed: int = 1, stream: int = 0, offset: int = 0,
           dtype=np.float64) -> np.ndarray:
    """Standard normal values offset .. offset + n - 1 of a stream."""
    return uniform(n, gen, seed, stream, offset, "normal", dtype)


def _u32(a: Sequence[int], n: int, what: str) -> np.ndarray:
    v = np.ascontiguousarray(np.asarray(a, dtype=np.uint32))
    if v.shape != (n,):
        raise ValueError(f"{what} needs {n} 32-bit words")
    return v


def philox4x32(ctr: Sequence[int], key: Sequence[int]) -> np.ndarray:
    """One Philox4x32-10 block philox(ctr, key) as 4 uint32."""
    c, k = _u32(ctr, 4, "ctr"), _u32(key, 2, "key")
    out = np.empty(4, dtype=np.uint32)
    lib.tbrf_rng_philox4x32(c.ctypes.data, k.ctypes.data, out.ctypes.data)
    return out


def tea8(v: Sequence[int], key: Sequence[int] = None) -> np.ndarray:
    """The TEA8 hash of 2 words (key None: the GPU key)."""
    out = _u32(v, 2, "v").copy()
    k = None if key is None else _u32(key, 4, "key")
    lib.tbrf_rng_tea8(out.ctypes.data, None if k is None else k.ctypes.data)
    return out


def seed_prehash(seed: int) -> int:
    """The global-seed pre-hash of the GPU generators."""
    return int(lib.tbrf_rng_seed_prehash(C.ranged(seed, ctypes.c_uint32, "seed")))


class Saru:
    """A Saru state (2 words): Saru(seeds) seeds it from 1 to 3 words;
    Saru.stream_id / stream_pair give keyed micro-streams."""

    def __init__(self, seeds: Sequence[int] = (), state: Sequence[int] = None):
        self.state = np.zeros(2, dtype=np.uint32)
        if state is not None:
            self.state[:] = _u32(state, 2, "state")
            return
        s = np.ascontiguousarray(np.asarray(seeds, dtype=np.uint32))
        raise_for(lib.tbrf_rng_saru_seed(s.size, s.ctypes.data if s.size else None,
                                         self.state.ctypes.data),
                  None if 1 <= s.size <= 3 else f"Saru takes 1 to 3 seed words, not {s.size}")

    @classmethod
    def stream_id(cls, seed: int, step: int, id: int) -> "Saru":
        """The stream of one id (a particle, a cell) at a time step."""
        s = cls(state=(0, 0))
        raise_for(lib.tbrf_rng_stream_id(seed, step, id, s.state.ctypes.data), None)
        return s

    @classmethod
    def stream_pair(cls, seed: int, step: int, i: int, j: int) -> "Saru":
        """The stream of the unordered pair (i, j) at a time step."""
        s = cls(state=(0, 0))
        raise_for(lib.tbrf_rng_stream_pair(seed, step, i, j, s.state.ctypes.data), None)
        return s

    def next(self, n: int) -> np.ndarray:
        """The next n outputs (uint32), stepping the state."""
        out = C.out_array((_n(n),), np.uint32, None)
        raise_for(lib.tbrf_rng_saru_next(self.state.ctypes.data, out.size, out.ctypes.data),
                  None)
        return out

    def jump(self, n: int) -> None:
        """Advances the state by n steps in O(log n)."""
        raise_for(lib.tbrf_rng_saru_jump(self.state.ctypes.data, C.u64(n, "n")), None)


def lcg64_jump(x: int, n: int) -> int:
    """The 64-bit LCG state n steps after x."""
    return int(lib.tbrf_rng_lcg64_jump(C.u64(x, "x"), C.u64(n, "n")))


def lcg64_block(s: int) -> Tuple[np.ndarray, np.ndarray]:
    """Block-form tables (y, t) of length s: the s states after x are t + x y."""
    y = C.out_array((max(int(s), 0),), np.uint64, None)
    t = np.empty_like(y)
    raise_for(lib.tbrf_rng_lcg64_block(int(s), y.ctypes.data if y.size else None,
                                       t.ctypes.data if t.size else None), None)
    return y, t
