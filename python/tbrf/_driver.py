"""_driver — tbrf.Driver (include/tbrf/driver.h), the Ornstein-Uhlenbeck
turbulence driver, and tbrf.Inflow (include/tbrf/inflow.h), the inflow
boundary sampler."""
from __future__ import annotations

import ctypes
import threading
from typing import Any, Dict, Iterator, Optional, Sequence, Tuple

import numpy as np

from . import _common as C
from ._lib import DriverInfo, DriverParams, lib, raise_for, struct_dict, text
from ._model import Model, as_model

# points per tbrf_inflow_fill call (about 0.1 s at most on one core)
_INFLOW_CHUNK = 16384
NORMALIZATIONS = {"ensemble": 0, "exact": 1, "injection": 2}
EVALS = {"auto": 0, "direct": 1, "nufft": 2}


class Driver:
    """An Ornstein-Uhlenbeck forcing field (doc/driving.md): the Fourier
    modes of a periodic box (or turning-bands line modes of a domain,
    periodic=False) in the model's band, each an OU process on a fixed
    driving interval; the force at time t is a pure function of (model,
    parameters, seed, floor(t / dt_update), position), so it can be
    evaluated time step after time step or at any time.

    Driver(model, seed=1, dim=3, periodic=True, origin=0, length=1,
    zeta=1, tcorr=1, dt_update=0 (tcorr/10), rms=1, injection=None,
    density=1, normalization="ensemble"|"exact"|"injection",
    interpolate=False, eval="auto"|"direct"|"nufft", threads=0,
    accuracy=0, amplitude_factor=(1, 1, 1), components=None, directions=0,
    backend=None, device=-1).

    components=3 with dim=1 or 2 drives three force components in a 1D or
    2D box (TurbGen's ndim = 1.5, 2.5): the force arrays then hold 3
    values per position. amplitude_factor splits the force between its
    components; rms (or injection) still sets the total. directions=D > 0
    keeps about D s random modes of each shell s of a wide band, weighted
    so the spectrum is exact in expectation (TurbGen's sparse angles).

    model: a tbrf.Model with a bounded band (a covariance model needs
    kmin/kmax), e.g. tbrf.Model("parabola", kmin=1, kmax=3).
    """

    def __init__(self, model: Model, seed: int = 1, dim: int = 3, *, periodic: bool = True,
                 origin: Optional[Sequence[float]] = None,
                 length: Optional[Sequence[float]] = None, zeta: float = 1.0,
                 tcorr: float = 1.0, dt_update: float = 0.0, rms: float = 1.0,
                 injection: Optional[float] = None, density: float = 1.0,
                 normalization: str = "ensemble", interpolate: bool = False,
                 eval: str = "auto", threads: int = 0, accuracy: float = 0.0,
                 amplitude_factor: Optional[Sequence[float]] = None,
                 components: Optional[int] = None, directions: int = 0,
                 backend: Optional[str] = None, device: int = -1):
        self.model = as_model(model, {})
        if dim not in (1, 2, 3) or isinstance(dim, bool):
            raise ValueError(f"dim must be 1, 2 or 3, not {dim!r}")
        p = DriverParams()
        lib.tbrf_driver_default_params(ctypes.byref(p))
        p.dim, p.periodic = int(dim), 1 if periodic else 0
        if origin is not None:
            p.origin = C.vec3(np.broadcast_to(np.asarray(origin, float), (dim,)), dim, "origin")
        if length is not None:
            p.length = C.vec3(np.broadcast_to(np.asarray(length, float), (dim,)), dim, "length",
                              fill=1.0)
        p.zeta, p.tcorr, p.dt_update, p.rms = float(zeta), float(tcorr), float(dt_update), \
            float(rms)
        if injection is not None:
            p.injection = float(injection)
        p.density = float(density)
        p.normalization = C.choice(NORMALIZATIONS, normalization, "normalization")
        p.interpolate = 1 if interpolate else 0
        p.eval = C.choice(EVALS, eval, "eval")
        p.threads, p.accuracy = C.i32(threads, "threads"), float(accuracy)
        if amplitude_factor is not None:
            g = np.asarray(amplitude_factor, dtype=np.float64)
            if g.shape != (3,):
                raise ValueError(f"amplitude_factor must hold 3 values, got shape {g.shape}")
            p.amplitude_factor = (ctypes.c_double * 3)(*g)
        if components is not None:
            p.components = C.i32(components, "components")
        p.directions = C.i32(directions, "directions")
        self._make(C.u64(seed, "seed"), p, backend, device)

    def _make(self, seed: int, p: DriverParams, backend: Optional[str], device: int) -> None:
        """Makes the library's driver of self.model from the parameters."""
        self.dim = int(p.dim)
        # the force's components: dim, or 3 in a 1D/2D box (the library
        # refuses any other combination when the driver is made)
        self.nc = int(p.components) if p.components else self.dim
        self.params = struct_dict(p)
        self._lock = threading.Lock()
        self._h = ctypes.c_void_p()
        st = lib.tbrf_driver_make(self.model.handle, seed, ctypes.byref(p), ctypes.byref(self._h))
        if st != 0:
            msg = text(lib.tbrf_driver_message(self._h)) if self._h else None
            self.close()
            raise_for(st, msg)
        if backend is not None:
            self.set_backend(backend, device)

    @staticmethod
    def _state_params(state: Any) -> Tuple[DriverParams, int]:
        b = bytes(state)
        p = DriverParams()
        seed = ctypes.c_uint64()
        msg = ctypes.create_string_buffer(512)
        st = lib.tbrf_driver_state_params(b, len(b), ctypes.byref(p), ctypes.byref(seed), msg, 512)
        if st != 0:
            raise_for(st, msg.value.decode(errors="replace"))
        return p, int(seed.value)

    @staticmethod
    def state_params(state: Any) -> Tuple[Dict[str, Any], int]:
        """The driver parameters a saved state (save()) records, as a dict
        of the library's fields (amplitude_factor: the gains of amplitude
        control), and its seed (doc/driving.md, "Amplitude control")."""
        p, seed = Driver._state_params(state)
        return struct_dict(p), seed

    @classmethod
    def from_state(cls, model: Model, state: Any, backend: Optional[str] = None,
                   device: int = -1) -> "Driver":
        """The driver of a restart: made from the parameters and the seed
        the saved state records (the amplitude-control gains among them)
        with `model` (a state holds no model: the code gives the one it
        made the driver with), the state loaded, so that it continues bit
        for bit where save() was called."""
        p, seed = cls._state_params(state)
        self = cls.__new__(cls)
        self.model = as_model(model, {})
        self._make(seed, p, backend, device)
        self.load(state)
        return self

    @classmethod
    def from_turbgen(cls, text_or_path: Any, **options: Any) -> "Driver":
        """A driver from TurbGen's parameter file (its text, or a path):
        TurbGen's spectrum, sol_weight, t_decay, update interval, amplitude
        factors, seed and force rms (doc/driving.md, "TurbGen's parameter
        files"). options: the keywords the file does not set (threads,
        eval, accuracy, interpolate, directions, backend, device); a power
        law's directions default to TurbGen's mode count, directions=0 drives
        every mode."""
        import os
        src = text_or_path
        if isinstance(src, os.PathLike) or (isinstance(src, str) and "=" not in src):
            raw = C.read_text(src, "from_turbgen")
        else:
            raw = src.encode() if isinstance(src, str) else bytes(src)
            C.text_bytes(raw, "from_turbgen", "the text")
        p = DriverParams()
        seed = ctypes.c_uint64()
        model = Model._empty()
        msg = ctypes.create_string_buffer(512)
        st = lib.tbrf_driver_params_from_turbgen(raw, ctypes.byref(p), ctypes.byref(seed),
                                                 ctypes.byref(model._handle), msg, 512)
        if st != 0:
            raise_for(st, msg.value.decode(errors="replace"))
        model.kind = "turbgen"
        kw = dict(dim=p.dim, length=tuple(p.length)[:p.dim], zeta=p.zeta, tcorr=p.tcorr,
                  dt_update=p.dt_update, rms=p.rms, amplitude_factor=tuple(p.amplitude_factor),
                  components=p.components or None)
        for k in options:
            if k in kw or k == "seed":
                raise ValueError(f"from_turbgen: {k} is set by the TurbGen file")
        # a power law's sparse directions as TurbGen's angles; directions=0
        # among the options drives every mode
        kw["directions"] = p.directions
        kw.update(options)
        dim = kw.pop("dim")
        return cls(model, int(seed.value), dim, **kw)

    def _check(self, st: int) -> None:
        raise_for(st, text(lib.tbrf_driver_message(self._h)))

    @property
    def handle(self) -> ctypes.c_void_p:
        """The library's driver; calls hold the driver's lock around its use
        (close() takes it too)."""
        if not self._h:
            raise ValueError("the driver was closed")
        return self._h

    def points(self, t: float, points: Any, out: Optional[np.ndarray] = None) -> np.ndarray:
        """The force at time t at an (N, dim) array of positions: (N, nc), nc the
        force's components (dim, or 3 with components=3)."""
        xyz = C.positions(points, self.dim)
        f = C.out_array((xyz.shape[0], self.nc), np.float64, out, (points, xyz))
        t = float(t)
        with self._lock:
            h = self.handle
            # streamed (bitwise tbrf_driver_points): Ctrl-C lands between chunks
            self._check(C.stream(lambda pull, push: lib.tbrf_driver_stream(h, t, pull, push,
                                                                           None),
                                 f, xyz, self.dim, self.nc))
        return f

    __call__ = points

    def grid(self, t: float, origin: Sequence[float], spacing: Any, shape: Sequence[int],
             out: Optional[np.ndarray] = None) -> np.ndarray:
        """The force at time t on the grid origin + spacing (i, j[, k]),
        shape (nx, ny[, nz]): the (nz, ny, nx, dim) array ((ny, nx, dim) in 2D)."""
        counts = C.counts3(shape, self.dim)
        h = np.broadcast_to(np.asarray(spacing, dtype=np.float64), (self.dim,))
        f = C.out_array(tuple(counts[:self.dim][::-1]) + (self.nc,), np.float64, out)
        with self._lock:
            args = (self.handle, float(t), C.vec3(origin, self.dim, "origin"),
                    C.vec3(h, self.dim, "spacing", fill=1.0), counts, f.ctypes.data)
            self._check(C.interruptible(lib.tbrf_driver_set_cancel, self.handle,
                                        lambda: lib.tbrf_driver_grid(*args)))
        return f

    def steps(self, points: Any, dt: float, n: int, t0: float = 0.0) -> Iterator[
            Tuple[float, np.ndarray]]:
        """Time-stepping: yields (t, force) at t = t0, t0 + dt, ..., n times,
        the force at the positions (N, dim) written into one array reused
        each step (copy it to keep it). A t0 on the lattice of dt (t0 = k0 dt
        to rounding) gives the times (k0 + i) dt, the doubles of a run from
        0 (as `tbrf drive --times`), so a step meant to start an update is
        never an ulp early."""
        xyz = C.positions(points, self.dim)
        f = np.empty((xyz.shape[0], self.nc))
        t0, dt = float(t0), float(dt)
        k0 = float(round(t0 / dt)) if dt > 0 else -1.0
        lattice = dt > 0 and abs(t0 - k0 * dt) <= 1e-12 * max(t0, dt)
        for i in range(int(n)):
            t = (k0 + i) * dt if lattice else t0 + i * dt
            yield t, self.points(t, xyz, out=f)

    def rms(self, t: float) -> float:
        """The force's rms over the box at time t (Parseval; periodic only)."""
        v = ctypes.c_double()
        with self._lock:
            self._check(lib.tbrf_driver_rms(self.handle, float(t), ctypes.byref(v)))
        return v.value

    def modes(self, t: float) -> Tuple[np.ndarray, np.ndarray]:
        """The modes at time t: integer wavevectors m (M, 3) and complex
        coefficients (M, dim), f(x) = sum 2 Re(coef e^{i k.(x - origin)})."""
        n = ctypes.c_int64(0)
        with self._lock:
            self._check(lib.tbrf_driver_modes(self.handle, float(t), ctypes.byref(n), None, None))
            m = C.out_array((n.value, 3), np.int32, None)
            coef = C.out_array((n.value, self.nc), np.complex128, None)
            self._check(lib.tbrf_driver_modes(self.handle, float(t), ctypes.byref(n),
                                              m.ctypes.data, coef.ctypes.data))
        return m, coef

    @property
    def info(self) -> Dict[str, Any]:
        """What the driver decided (tbrf_driver_info), eval as a name."""
        i = DriverInfo()
        with self._lock:
            self._check(lib.tbrf_driver_get_info(self.handle, ctypes.byref(i)))
        d = struct_dict(i)
        d["eval"] = {v: k for k, v in EVALS.items()}.get(i.eval, i.eval)
        return d

    def save(self) -> bytes:
        """The cached OU state (evaluate at some time first), for load()."""
        with self._lock:
            size = lib.tbrf_driver_state_size(self.handle)
            buf = ctypes.create_string_buffer(max(int(size), 1))
            self._check(lib.tbrf_driver_save(self.handle, buf, size))
        return buf.raw[:size]

    def load(self, state: bytes) -> None:
        """Loads a state saved from a driver made alike."""
        b = bytes(state)
        with self._lock:
            self._check(lib.tbrf_driver_load(self.handle, b, len(b)))

    def set_backend(self, backend: str, device: int = -1) -> None:
        """Moves the driver's sums to "cpu", "opencl", "cuda" or "auto"."""
        b, dev = C.choice(C.BACKENDS, backend, "backend"), C.i32(device, "device")
        with self._lock:
            self._check(lib.tbrf_driver_set_backend(self.handle, b, dev))

    @property
    def backend(self) -> str:
        """The backend the driver's sums run on."""
        with self._lock:
            return text(lib.tbrf_backend_name(lib.tbrf_driver_backend(self.handle)))

    def close(self) -> None:
        """Frees the driver now (else when it is collected), after any call
        in flight on another thread (close takes the lock calls hold);
        calls after close raise ValueError."""
        lock = getattr(self, "_lock", None)
        if lock is None:
            return
        with lock:
            if self._h:
                lib.tbrf_driver_destroy(self._h)
                self._h = ctypes.c_void_p()

    def __del__(self):
        self.close()


def amplitude_adjust(gain: Any, measured: Any, target: float, t: float, dt: float,
                     timescale: float) -> np.ndarray:
    """TurbGen's amplitude controller (tbrf_driver_amplitude_adjust;
    doc/driving.md, "Amplitude control"): the gains of the 1 to 3 force
    components for the next interval dt from the gains and the measured
    per-component velocity dispersions at time t, towards `target`. A
    component measured 0, or t <= 0.1 timescale, keeps its gain (TurbGen's
    guards). Give the result to Driver(amplitude_factor=...) or keep it in
    the driver's saved state. ValueError naming the argument on bad input."""
    g = np.ascontiguousarray(gain, dtype=np.float64).reshape(-1)
    m = np.ascontiguousarray(measured, dtype=np.float64).reshape(-1)
    if not 1 <= g.size <= 3 or m.size != g.size:
        raise ValueError(f"gain and measured must hold the same 1 to 3 values, got {g.size} and "
                         f"{m.size}")
    out = np.empty_like(g)
    msg = ctypes.create_string_buffer(512)
    st = lib.tbrf_driver_amplitude_adjust(g.size, g.ctypes.data, m.ctypes.data, float(target),
                                          float(t), float(dt), float(timescale), out.ctypes.data,
                                          msg, 512)
    if st != 0:
        raise_for(st, msg.value.decode(errors="replace"))
    return out


def inflow_tube(dim: int, ghost_lo: Sequence[float], ghost_hi: Sequence[float],
                velocity: Sequence[float], t_end: float) -> np.ndarray:
    """The domain ((lo, hi) per axis) that ghost cells in [ghost_lo,
    ghost_hi] sweep when sampled at x - v t for 0 <= t <= t_end: the
    domain to give tbrf.Inflow."""
    lo, hi = (ctypes.c_double * 3)(), (ctypes.c_double * 3)()
    st = lib.tbrf_inflow_tube(int(dim), C.vec3(ghost_lo, dim, "ghost_lo"),
                              C.vec3(ghost_hi, dim, "ghost_hi"), C.vec3(velocity, dim, "velocity"),
                              float(t_end), lo, hi)
    raise_for(st, None)
    return np.array([[lo[i], hi[i]] for i in range(dim)])


class Inflow:
    """An inflow boundary (doc/streaming.md, "Inflow boundaries"): the frozen
    field of Field(model, dim, seed=, realization=, domain=, resolution=)
    carried by a wind of velocity v, sampled at x - v t; its values are
    bitwise those of that Field at the shifted positions (line_precision
    "double"). Inflow(model, dim, domain, resolution, velocity, seed=1,
    realization=0, line_precision="double", lines=, oversampling=, ...,
    **model_parameters); domain from tbrf.inflow_tube(). period=(0, L_y[,
    L_z]) makes the field periodic across the flow with the box's periods
    (tbrf_inflow_create_periodic: a periodic plan, no lines, so
    line_precision must stay "double")."""

    def __init__(self, model: Any, dim: int, domain: Any, resolution: float,
                 velocity: Sequence[float], *, seed: int = 1, realization: int = 0,
                 line_precision: str = "double", lines: Optional[int] = None,
                 oversampling: Optional[int] = None, line_method: Optional[str] = None,
                 max_padding: Optional[int] = None, line_length_factor: Optional[int] = None,
                 threads: Optional[int] = None, period: Optional[Sequence[float]] = None,
                 **model_parameters: Any):
        self.model = as_model(model, model_parameters)
        self.dim = int(dim)
        d = np.asarray(domain, dtype=np.float64)
        if d.shape != (self.dim, 2):
            raise ValueError(f"domain must be {self.dim} pairs (lo, hi), got shape {d.shape}")
        o = C.fill_opts(C.default_opts(), lines=lines, oversampling=oversampling,
                        line_method=line_method, max_padding=max_padding,
                        line_length_factor=line_length_factor, threads=threads)
        self._lock = threading.Lock()
        self._h = ctypes.c_void_p()
        if period is not None:
            if line_precision != "double":
                raise ValueError("a periodic inflow has no lines: line_precision must be \"double\"")
            st = lib.tbrf_inflow_create_periodic(
                self.model.handle, self.dim, C.vec3(d[:, 0], dim, "domain"),
                C.vec3(d[:, 1], dim, "domain"), C.vec3(period, dim, "period"), float(resolution),
                C.u64(seed, "seed"), C.u64(realization, "realization"), ctypes.byref(o),
                C.vec3(velocity, dim, "velocity"), ctypes.byref(self._h))
        else:
            st = lib.tbrf_inflow_create(self.model.handle, self.dim, C.vec3(d[:, 0], dim, "domain"),
                                        C.vec3(d[:, 1], dim, "domain"), float(resolution),
                                        C.u64(seed, "seed"), C.u64(realization, "realization"),
                                        ctypes.byref(o),
                                        C.vec3(velocity, dim, "velocity"),
                                        C.precision_of(line_precision), ctypes.byref(self._h))
        if st != 0:
            msg = text(lib.tbrf_inflow_message(self._h))
            self.close()
            raise_for(st, msg)

    def _check(self, st: int) -> None:
        raise_for(st, text(lib.tbrf_inflow_message(self._h)))

    @property
    def handle(self) -> ctypes.c_void_p:
        """The library's sampler (used under the lock, which close() takes)."""
        if not self._h:
            raise ValueError("the inflow was closed")
        return self._h

    def set_density(self, kind: str = "field", rho_w: float = 1.0, sigma: float = 0.0,
                    rho_floor: float = 0.0) -> None:
        """What fill writes: "field" (the field), "lognormal" (rho_w
        exp(sigma g - sigma^2/2)) or "linear" (rho_w max(1 + sigma g, rho_floor))."""
        k = C.choice(C.DENSITIES, kind, "kind")
        with self._lock:
            self._check(lib.tbrf_inflow_set_density(self.handle, k, float(rho_w), float(sigma),
                                                    float(rho_floor)))

    def fill(self, t: float, points: Any, out: Optional[np.ndarray] = None) -> np.ndarray:
        """The values at time t at an (N, dim) array of positions: (N,)."""
        xyz = C.positions(points, self.dim)
        v = C.out_array((xyz.shape[0],), np.float64, out, (points, xyz))
        # in chunks (each point's value is its own: bitwise one call's), so
        # Ctrl-C lands between two of them
        with self._lock:
            h = self.handle
            for a in range(0, xyz.shape[0], _INFLOW_CHUNK):
                b = min(a + _INFLOW_CHUNK, xyz.shape[0])
                self._check(lib.tbrf_inflow_fill(h, float(t), b - a, xyz[a:].ctypes.data,
                                                 v[a:].ctypes.data))
        return v

    def fill_grid(self, t: float, origin: Sequence[float], spacing: Any, shape: Sequence[int],
                  out: Optional[np.ndarray] = None) -> np.ndarray:
        """The values at time t on a block of ghost cells: (nz, ny, nx)."""
        counts = C.counts3(shape, self.dim)
        h = np.broadcast_to(np.asarray(spacing, dtype=np.float64), (self.dim,))
        v = C.out_array(tuple(counts[:self.dim][::-1]), np.float64, out)
        with self._lock:
            args = (self.handle, float(t), C.vec3(origin, self.dim, "origin"),
                    C.vec3(h, self.dim, "spacing", fill=1.0), counts, v.ctypes.data)
            self._check(C.interruptible(lib.tbrf_inflow_set_cancel, self.handle,
                                        lambda: lib.tbrf_inflow_fill_grid(*args)))
        return v

    def line_bytes(self, full: bool = False) -> int:
        """Bytes of line samples held (full: what a plan would hold)."""
        with self._lock:
            return int(lib.tbrf_inflow_line_bytes(self.handle, 1 if full else 0))

    def close(self) -> None:
        """Frees the sampler now (else when it is collected), after any
        call in flight on another thread; calls after close raise
        ValueError."""
        lock = getattr(self, "_lock", None)
        if lock is None:
            return
        with lock:
            if self._h:
                lib.tbrf_inflow_destroy(self._h)
                self._h = ctypes.c_void_p()

    def __del__(self):
        self.close()
