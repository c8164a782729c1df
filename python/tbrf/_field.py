"""_field — tbrf.Field: a Gaussian random field evaluated on grids and at
points (include/tbrf/plan.h), from parameters, a file or a GSTools model."""
from __future__ import annotations

import ctypes
import math
import threading
import warnings
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

import numpy as np

from . import _common as C
from ._lib import NoGeometryError, PlanInfo, lib, raise_for, struct_dict, text
from ._model import Model, as_model, kind_params

ArrayLike = Any
# Positions or cells per streamed chunk when the caller gives none: about
# 0.1 s of one core at the default lines, so an interrupt lands within a
# fraction of a second, at a callback's few microseconds per chunk.
_CHUNK = 16384


class Field:
    """A Gaussian random field: a pure function of (model, dim, domain,
    resolution, the options that change values, seed, realization,
    position), evaluated by the C library with the GIL released.

    Field(model, dim, seed=1, realization=0, domain=None, resolution=None,
    method="tb", precision="double", vector=None, zeta=0.5, box=None,
    **model_parameters)

    model: a kind name (tbrf.kinds()) with its parameters as keywords
    (length=, nu=, index=, kmin=, kmax=, variance=, amplitude=, table=,
    table_file=), or a tbrf.Model. dim: 2 or 3.
    domain: the box every position must lie in, ((x0, x1), (y0, y1)[,
    (z0, z1)]); None: the extent of the first grid or points evaluated
    (what `tbrf generate` does without --domain), fixed from then on.
    resolution: the smallest length to resolve; None: the first grid's
    finest spacing, or the points' mean spacing (as `tbrf generate`).
    method: "tb" (turning bands), "fft" (a grid, periodic over it),
    "auto". precision: "double"/"float" (or a numpy dtype): the values'
    type. vector: None, "solenoidal", "compressive" or "mixed" (then
    values have dim components, mixed ones weighted by zeta).
    box: a periodic field over [box_origin, box_origin + box) (one length
    or one per axis): positions wrap into the box, a grid of the box's
    modes runs the FFT, other positions a non-uniform FFT. box_modes:
    the modes per axis, default round(box / resolution) (or the first
    grid's spacing).
    Further options (doc/api.md): lines, oversampling, line_method,
    max_padding, line_length_factor, threads, backend, device, accuracy,
    periodic, chunk, box_origin, box_modes. lines None leaves them to the
    library, which picks them from the first grid or points by the rule
    `tbrf generate` uses (tbrf_default_lines), so the same parameters make
    the command's field bit for bit.

    Calls: field(points) for an (N, dim) array of positions gives (N,)
    values ((N, dim) for a vector field); field.grid(origin, spacing,
    shape) the (nz, ny, nx) array ((ny, nx) in 2D, a last axis of dim
    components for a vector field). A Field may be called from several
    threads: calls on one Field take turns (a plan runs one call at a
    time, with its own OpenMP threads); separate Fields run in parallel.
    """

    def __init__(self, model: Any, dim: int = 3, *, seed: int = 1, realization: int = 0,
                 domain: Optional[ArrayLike] = None, resolution: Optional[float] = None,
                 method: str = "tb", precision: Any = "double", vector: Optional[str] = None,
                 zeta: Optional[float] = None, box: Optional[ArrayLike] = None,
                 box_origin: Optional[ArrayLike] = None, box_modes: Optional[ArrayLike] = None,
                 lines: Optional[int] = None, oversampling: Optional[int] = None,
                 line_method: Optional[str] = None, max_padding: Optional[int] = None,
                 line_length_factor: Optional[int] = None, threads: Optional[int] = None,
                 backend: Optional[str] = None, device: Optional[int] = None,
                 accuracy: Optional[float] = None, periodic: Optional[bool] = None,
                 chunk: Optional[int] = None, **model_parameters: Any):
        if dim not in (2, 3) or isinstance(dim, bool):
            raise ValueError(f"dim must be 2 or 3, not {dim!r}")
        self.model = as_model(model, model_parameters)
        self.dim = int(dim)
        self.seed = self._uint64(seed, "seed")
        self.realization = self._uint64(realization, "realization")
        self._opts = C.fill_opts(C.default_opts(), precision=precision, method=method,
                                 vector=vector, zeta=zeta, lines=lines, oversampling=oversampling,
                                 line_method=line_method, max_padding=max_padding,
                                 line_length_factor=line_length_factor, threads=threads,
                                 backend=backend, device=device, accuracy=accuracy,
                                 periodic=periodic, chunk=chunk)
        if chunk is None:
            # the streamed chunk, the span a Ctrl-C waits for (_run)
            self._opts.chunk = _CHUNK
        self.dtype = np.dtype(np.float32 if self._opts.precision == 1 else np.float64)
        self.components = 1 if self._opts.vector == 0 else self.dim
        self.resolution = None if resolution is None else float(resolution)
        self.domain = None if domain is None else self._domain(domain)
        self.box = self.box_origin = self.box_modes = None
        if box is not None:
            if domain is not None:
                raise ValueError("domain does not apply with box (the box is the domain)")
            self.box = self._per_axis(box, "box")
            self.box_origin = (self._per_axis(box_origin, "box_origin") if box_origin is not None
                               else np.zeros(self.dim))
            if box_modes is not None:
                self.box_modes = np.array(self._per_axis(box_modes, "box_modes"), dtype=np.int64)
        elif box_origin is not None or box_modes is not None:
            raise ValueError("box_origin and box_modes need box")
        self._plan = ctypes.c_void_p()
        self._lock = threading.Lock()
        self._closed = False
        self.file: Optional[Dict[str, Any]] = None
        if self.domain is not None and self.resolution is not None or \
                self.box is not None and (self.box_modes is not None or self.resolution is not None):
            self._make_plan()

    # ------------------------------------------------------------ helpers
    @staticmethod
    def _uint64(v: Any, what: str) -> int:
        if isinstance(v, (float, np.floating)):
            raise TypeError(f"{what} must be an integer, not {v!r}")
        return C.u64(v, what)

    def _per_axis(self, v: ArrayLike, what: str) -> np.ndarray:
        a = np.atleast_1d(np.asarray(v, dtype=np.float64))
        if a.size == 1:
            a = np.repeat(a, self.dim)
        if a.ndim != 1 or a.size != self.dim:
            raise ValueError(f"{what} needs 1 or {self.dim} values, got {a.size}")
        return a

    def _domain(self, domain: ArrayLike) -> np.ndarray:
        d = np.asarray(domain, dtype=np.float64)
        if d.shape != (self.dim, 2):
            raise ValueError(f"domain must be {self.dim} pairs (lo, hi), one per axis, "
                             f"got shape {d.shape}")
        return d

    def _check(self, st: int) -> None:
        raise_for(st, text(lib.tbrf_plan_message(self._plan)) if self._plan else None)

    def _make_plan(self) -> None:
        o = self._opts
        plan = ctypes.c_void_p()
        if self.box is not None:
            if self.box_modes is None:
                self._default_modes(self.resolution)
            o.periodic = 1
            origin = C.vec3(self.box_origin, self.dim, "box_origin")
            length = C.vec3(self.box, self.dim, "box", fill=1.0)
            n = (ctypes.c_int64 * 3)(*(list(self.box_modes) + [1] * (3 - self.dim)))
            st = lib.tbrf_make_periodic_plan(self.model.handle, self.dim, origin, length, n,
                                             self.seed, ctypes.byref(o), ctypes.byref(plan))
        else:
            lo = C.vec3(self.domain[:, 0], self.dim, "domain")
            hi = C.vec3(self.domain[:, 1], self.dim, "domain")
            st = lib.tbrf_make_plan(self.model.handle, self.dim, lo, hi, self.resolution,
                                    self.seed, ctypes.byref(o), ctypes.byref(plan))
        self._plan = plan
        if st != 0:
            msg = text(lib.tbrf_plan_message(plan)) if plan else None
            lib.tbrf_destroy(plan)
            self._plan = ctypes.c_void_p()
            raise_for(st, msg)

    def _default_modes(self, h: Any) -> None:
        """The box's modes for the lattice spacing h (one, or per axis): the
        library's default (tbrf_periodic_default_modes, as tbrf generate)."""
        hs = np.broadcast_to(np.asarray(h, dtype=np.float64), (self.dim,))
        n = (ctypes.c_int64 * 3)(1, 1, 1)
        st = lib.tbrf_periodic_default_modes(self.dim, C.vec3(self.box, self.dim, "box", fill=1.0),
                                             C.vec3(hs, self.dim, "spacing", fill=1.0), n)
        raise_for(st, None if st == 0 else
                  f"box {self.box.tolist()} with lattice spacing {hs.tolist()}: "
                  f"{(self.box / hs).tolist()} modes, not 1 to 2^20 an axis")
        self.box_modes = np.array(n[:self.dim], dtype=np.int64)

    def _first_grid(self, origin: np.ndarray, spacing: np.ndarray, n: np.ndarray) -> None:
        """The domain and resolution a first grid implies: the library's
        defaults for its cells (tbrf_grid_default_domain), as tbrf generate."""
        if self.box is not None:
            if self.box_modes is None:
                self._default_modes(spacing if self.resolution is None else self.resolution)
            return
        lo, hi = C.vec3(None, self.dim, "lo"), C.vec3(None, self.dim, "hi")
        res = ctypes.c_double()
        st = lib.tbrf_grid_default_domain(self.dim, C.vec3(origin, self.dim, "origin"),
                                          C.vec3(spacing, self.dim, "spacing", fill=1.0),
                                          C.vec3(n, self.dim, "shape", fill=1,
                                                 dtype=ctypes.c_int64), lo, hi, ctypes.byref(res))
        raise_for(st, None if st == 0 else
                  f"the grid of {list(n)} cells of spacing {list(spacing)} at {list(origin)} "
                  f"has no domain ({text(lib.tbrf_strerror(st))})")
        if self.resolution is None:
            self.resolution = res.value
        if self.domain is None:
            self.domain = np.array([[lo[c], hi[c]] for c in range(self.dim)])

    def _first_points(self, xyz: np.ndarray) -> None:
        """The domain and resolution first points imply: the library's
        defaults for them (tbrf_points_bounds, tbrf_points_resolution: the
        points' box and their mean spacing, clamped), as tbrf generate."""
        n = len(xyz)
        if self.box is not None:
            if self.resolution is None:
                res = ctypes.c_double()
                raise_for(lib.tbrf_periodic_points_resolution(
                    self.dim, C.vec3(self.box, self.dim, "box", fill=1.0), n, ctypes.byref(res)),
                    None)
                self.resolution = res.value
            return
        if self.domain is None:
            lo = C.vec3([math.inf] * self.dim, self.dim, "lo")
            hi = C.vec3([-math.inf] * self.dim, self.dim, "hi")
            bad = ctypes.c_int64(-1)
            st = lib.tbrf_points_bounds(self.dim, n, xyz.ctypes.data, lo, hi, ctypes.byref(bad))
            if st != 0:
                raise_for(st, f"point {bad.value} has a coordinate that is not finite "
                              f"({xyz[bad.value].tolist()}): it lies in no domain"
                          if bad.value >= 0 else None)
            domain = np.array([[lo[c], hi[c]] for c in range(self.dim)])
        else:
            domain = self.domain
        if self.resolution is None:
            res = ctypes.c_double()
            st = lib.tbrf_points_resolution(self.dim, n, C.vec3(domain[:, 0], self.dim, "domain"),
                                            C.vec3(domain[:, 1], self.dim, "domain"),
                                            ctypes.byref(res))
            raise_for(st, None if st == 0 else
                      f"the points' domain {domain.tolist()} has no default resolution: an "
                      f"extent is beyond double precision ({text(lib.tbrf_strerror(st))})")
            self.resolution = res.value
        self.domain = domain

    def _realization(self, realization: Optional[int]) -> int:
        return self.realization if realization is None else self._uint64(realization,
                                                                         "realization")

    # -------------------------------------------------------------- calls
    def __call__(self, points: ArrayLike, realization: Optional[int] = None,
                 out: Optional[np.ndarray] = None) -> np.ndarray:
        """The field at an (N, dim) array of positions: (N,) values, or
        (N, dim) for a vector field. A C-ordered float64 array is used in
        place; other layouts and types are converted first. out: an array
        of that shape and the field's dtype to write into (not sharing
        memory with points)."""
        xyz = C.positions(points, self.dim)
        r = self._realization(realization)
        n = xyz.shape[0]
        shape = (n,) if self.components == 1 else (n, self.components)
        values = C.out_array(shape, self.dtype, out, (points, xyz))
        with self._lock:
            self._open()
            if not self._plan:
                if n == 0 and self.domain is None and self.box is None:
                    return values  # no points to take the domain from: the first ones will
                self._first_points(xyz)
                self._make_plan()
            self._check(lib.tbrf_set_points(self._plan, n, xyz.ctypes.data))
            self._run(lambda pull, push: lib.tbrf_execute_stream(self._plan, r, pull, push, None),
                      values, xyz)
        return values

    def _run(self, call: Any, values: np.ndarray, xyz: Optional[np.ndarray]) -> None:
        """Evaluates through the library's streaming execute (C.stream:
        Ctrl-C lands between two chunks); holds the caller's lock."""
        self._check(C.stream(call, values, xyz, self.dim, self.components))

    def grid(self, origin: Optional[ArrayLike] = None, spacing: Optional[ArrayLike] = None,
             shape: Optional[Sequence[int]] = None, realization: Optional[int] = None,
             out: Optional[np.ndarray] = None) -> np.ndarray:
        """The field on the grid of cells origin + spacing * (i, j[, k]):
        origin and spacing per axis (x, y[, z]) (a single spacing serves
        every axis), shape the counts (nx, ny[, nz]), x first like them.
        Returns the (nz, ny, nx) array ((ny, nx) in 2D; a last axis of dim
        components for a vector field), which is the library's x-fastest
        memory as it is. A Field from a grid file defaults to its grid."""
        if origin is None and spacing is None and shape is None and self.file \
                and self.file.get("geometry") == "grid":
            origin, spacing, shape = self.file["grid_origin"], self.file["grid_spacing"], \
                self.file["grid_counts"]
        if origin is None or spacing is None or shape is None:
            raise TypeError("grid() needs origin, spacing and shape")
        o = np.asarray(self._per_axis(origin, "origin"))
        h = np.asarray(self._per_axis(spacing, "spacing"))
        counts = C.counts3(shape, self.dim)
        n = np.array(counts[:self.dim], dtype=np.int64)
        out_shape = tuple(int(x) for x in n[::-1])
        if self.components > 1:
            out_shape += (self.components,)
        values = C.out_array(out_shape, self.dtype, out)
        r = self._realization(realization)
        with self._lock:
            self._open()
            if not self._plan:
                self._first_grid(o, h, n)
                self._make_plan()
            self._check(lib.tbrf_set_grid(self._plan, C.vec3(o, self.dim, "origin"),
                                          C.vec3(h, self.dim, "spacing", fill=1.0), counts))
            if lib.tbrf_plan_method(self._plan) == C.METHODS["fft"]:
                # the FFT transforms the whole grid in one step: streamed, its
                # pieces would be cut from a second whole grid
                self._check(C.interruptible(lib.tbrf_set_cancel, self._plan, lambda: lib.tbrf_execute(
                    self._plan, r, values.ctypes.data)))
            else:
                self._run(lambda _pull, push: lib.tbrf_execute_grid_stream(self._plan, r, push,
                                                                           None), values, None)
        return values

    # ------------------------------------------------------------ queries
    @property
    def info(self) -> Dict[str, Any]:
        """What the plan decided (tbrf_plan_info) and the method that runs
        for the last geometry ("tb", "fft" or "nufft"); needs a plan (made
        at construction or by the first call)."""
        if not self._plan and not self._closed:
            raise NoGeometryError("no plan yet: give domain and resolution (or box), or call "
                                  "the field first", 11)
        i = PlanInfo()
        with self._lock:
            self._open()
            self._check(lib.tbrf_plan_get_info(self._plan, ctypes.byref(i)))
            method = lib.tbrf_plan_method(self._plan)
        d = struct_dict(i)
        d["backend"] = text(lib.tbrf_backend_name(i.backend))
        d["method"] = C.METHOD_NAMES.get(method, "unknown")
        return d

    def _open(self) -> None:
        if self._closed:
            raise ValueError("the Field was closed")

    def close(self) -> None:
        """Frees the plan now (else when the Field is collected). Waits for
        a call in flight on another thread to end (it holds the Field's
        lock), so the plan is never freed under a running call; calls
        after close raise ValueError."""
        lock = getattr(self, "_lock", None)
        if lock is None:  # __init__ failed before the plan existed
            return
        with lock:
            self._closed = True
            if self._plan:
                lib.tbrf_destroy(self._plan)
                self._plan = ctypes.c_void_p()

    def __del__(self):
        self.close()

    def __repr__(self) -> str:
        return (f"tbrf.Field({self.model.describe()!r}, dim={self.dim}, seed={self.seed}, "
                f"realization={self.realization})")

    # ------------------------------------------------------ constructors
    @classmethod
    def from_file(cls, path: str) -> "Field":
        """The field a tbrf file (HDF5 or netCDF-4, written by `tbrf
        generate`, `sample` or `regenerate`) records: its model, options,
        seed, realization, domain and resolution, read from its attributes
        as `tbrf regenerate` reads them (io/meta.c). .grid() with no
        arguments then evaluates the file's own grid, bit for bit its
        /field; .file holds the attributes. Needs h5py."""
        from ._file import read_meta
        meta = read_meta(path)
        if meta["version"] and meta["version"] != lib.tbrf_version().decode():
            warnings.warn(f"{path} was written by tbrf {meta['version']}, this is "
                          f"{lib.tbrf_version().decode()}: where the method changed between "
                          "them (doc/design.md, \"Versions\") the values differ", stacklevel=2)
        f = cls(meta["model"], meta["dim"], seed=meta["seed"], realization=meta["realization"],
                **meta["field"])
        f.file = meta["attrs"]
        return f

    @classmethod
    def from_gstools(cls, model: Any, **kwargs: Any) -> "Field":
        """A Field of the covariance a GSTools model describes (the classes
        of tbrf.GSTOOLS: Gaussian, Exponential, Matern, Stable, Rational;
        no nugget; anis and angles mapped to Model.set_anisotropy), with
        GSTools' length conventions converted (doc/python.md, "From
        GSTools"): Matern's length a = len_scale / sqrt(nu), Gaussian's
        a = 2 len_scale / sqrt(pi), the others' a = len_scale; shape
        parameters (nu, alpha) by name; variance = var. The dimension is
        the model's; kwargs go to Field (seed=, ...)."""
        kind, params = gstools_params(model)
        return cls(Model(kind, **params), int(model.dim), **kwargs)


def gstools_params(model: Any) -> Tuple[str, Dict[str, float]]:
    """tbrf's model kind and parameters for a GSTools covariance model
    (duck-typed: the class name and dim, var, len_scale, nu, nugget,
    anis, angles), refusing what tbrf cannot represent."""
    name = type(model).__name__
    dim = int(getattr(model, "dim", 0))
    if dim not in (2, 3):
        raise ValueError(f"GSTools model of dimension {dim}: tbrf makes 2D and 3D fields")
    if float(getattr(model, "nugget", 0.0)) != 0.0:
        raise ValueError("a GSTools model with a nugget: tbrf has no nugget term")
    # GSTools' anis: the dim-1 ratios of the other axes' lengths to
    # len_scale, i.e. tbrf's per-axis factors (1, *anis); its angles (one in
    # 2D, three in 3D) are tbrf's convention (tbrf_model_set_anisotropy)
    anis = np.atleast_1d(np.asarray(getattr(model, "anis", 1.0), dtype=np.float64))
    anis = np.concatenate([anis, np.ones(dim - 1)])[: dim - 1] if anis.size < dim - 1 else anis
    angles = np.atleast_1d(np.asarray(getattr(model, "angles", 0.0), dtype=np.float64))
    extra: Dict[str, Any] = {}
    if not (np.all(anis == 1.0) and np.all(angles == 0.0)):
        extra["anis"] = [1.0] + [float(x) for x in anis[: dim - 1]]
        want = 1 if dim == 2 else 3
        extra["angles"] = [float(x) for x in np.concatenate([angles, np.zeros(want)])[:want]]
    if name not in GSTOOLS:
        raise ValueError(f"GSTools model {name}: tbrf converts {', '.join(GSTOOLS)}")
    kind, length = GSTOOLS[name]
    # the kind's shape parameters (nu, alpha, ...) are GSTools' of the same name
    takes, _ = kind_params(kind)
    shape = {p: float(getattr(model, p)) for p in takes
             if p not in ("length", "index", "kmin", "kmax", "table")}
    return kind, {"length": length(float(model.len_scale), shape), **shape,
                  "variance": float(model.var), **extra}


# GSTools' covariance models that are kinds of tbrf's table: the kind and
# tbrf's length from GSTools' len_scale and the shape parameters (doc/python.md,
# "From GSTools"). A kind whose covariance is GSTools' with the same length
# and parameter names needs one line here.
GSTOOLS: Dict[str, Tuple[str, Callable[[float, Dict[str, float]], float]]] = {
    "Gaussian": ("gaussian", lambda ell, p: 2.0 * ell / math.sqrt(math.pi)),
    "Exponential": ("exponential", lambda ell, p: ell),
    "Matern": ("matern", lambda ell, p: ell / math.sqrt(p["nu"])),
    "Stable": ("stable", lambda ell, p: ell),
    "Rational": ("rational", lambda ell, p: ell),
}
