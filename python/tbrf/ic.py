"""tbrf.ic — initial conditions (include/tbrf/ic.h, doc/ic.md) and the
background cosmology (include/tbrf/cosmology.h).

Cosmological particle loads by LPT (CosmoIC), zoom ICs (ZoomIC),
point placements (points), density transforms of a Gaussian field
(density, density_volumes), periodic Voronoi volumes (voronoi_volumes),
glass tiling (glass_tile, glass_sites), CAMB/CLASS transfer files
(transfer_power), and the background functions (hubble, growth,
growth_rate, growth2, eh_transfer)."""
from __future__ import annotations

import ctypes
import os
import threading
from typing import Any, Callable, Dict, NamedTuple, Optional, Tuple

import numpy as np

from . import _common as C
from ._lib import (IC_PUSH_FN, CosmoInfo, CosmoParams, DensityParams, PointsParams, ZoomInfo,
                   ZoomParams, ZoomPart, lib, raise_for, struct_dict, text)
from ._model import Model

PLACEMENTS = {"lattice": 0, "jittered": 1, "random": 2}
_MSG = 512


def _free(call: Callable[[ctypes.Array], int]) -> None:
    """Runs a free function that writes its reason into a message buffer."""
    buf = ctypes.create_string_buffer(_MSG)
    st = call(buf)
    raise_for(st, text(buf.value))


def _out(fn, *args) -> float:
    v = ctypes.c_double()
    st = fn(*args, ctypes.byref(v))
    raise_for(st, None)
    return v.value


# ------------------------------------------------------------- cosmology
def hubble(omega_m: float, omega_lambda: float, a: float) -> float:
    """E(a) = H(a)/H0 for matter, a cosmological constant and curvature."""
    return _out(lib.tbrf_cosmo_hubble, omega_m, omega_lambda, a)


def growth(omega_m: float, omega_lambda: float, z: float) -> float:
    """The linear growth factor D(z), D(0) = 1."""
    return _out(lib.tbrf_cosmo_growth, omega_m, omega_lambda, z)


def growth_rate(omega_m: float, omega_lambda: float, z: float) -> float:
    """The linear growth rate f = dln D / dln a at z."""
    return _out(lib.tbrf_cosmo_growth_rate, omega_m, omega_lambda, z)


def growth2(omega_m: float, omega_lambda: float, z: float) -> Tuple[float, float]:
    """(D2, f2): the second-order growth factor of 2LPT (about -(3/7) D^2)
    and its rate dln D2 / dln a at z, from the growth equations."""
    d2, f2 = ctypes.c_double(), ctypes.c_double()
    raise_for(lib.tbrf_cosmo_growth2(omega_m, omega_lambda, z, ctypes.byref(d2),
                                     ctypes.byref(f2)), None)
    return d2.value, f2.value


def eh_transfer(omega_m: float, omega_b: float, h: float, t_cmb: float, k: float,
                wiggles: bool = True) -> float:
    """The Eisenstein & Hu (1998) transfer function T(k), k in h/Mpc."""
    return _out(lib.tbrf_cosmo_eh_transfer, omega_m, omega_b, h, t_cmb, int(wiggles), k)


# ------------------------------------------------------------ particles
class Chunk(NamedTuple):
    """One chunk of particles; the arrays are views valid during the
    callback only (copy them to keep them)."""
    chunk: int
    first: int
    pos: np.ndarray
    vel: np.ndarray
    gas_pos: Optional[np.ndarray]
    gas_u: Optional[np.ndarray]
    gas_vel: Optional[np.ndarray] = None   # the gas's velocities (vel unless power_gas)
    gas_mass: Optional[np.ndarray] = None  # the gas's masses with gas_volumes on a glass


def _view(address: Optional[int], shape: Tuple[int, ...]) -> Optional[np.ndarray]:
    if not address:
        return None if shape[0] else np.empty(shape)
    n = int(np.prod(shape))
    return np.ctypeslib.as_array((ctypes.c_double * n).from_address(address)).reshape(shape)


def _cosmo_params(kw: Dict[str, Any]) -> Tuple[CosmoParams, list]:
    p = CosmoParams()
    lib.tbrf_ic_default_cosmo(ctypes.byref(p))
    keep = []
    fields = {n for n, _ in CosmoParams._fields_}
    for k, v in kw.items():
        if k not in fields or k == "glass_n":
            raise TypeError(f"CosmoIC: unknown parameter {k}; it takes "
                            f"{', '.join(sorted(fields - {'glass_n'}))}")
        if k in ("power", "power_gas", "power_dm", "velocity_dm", "velocity_gas"):
            if v is not None and not isinstance(v, Model):
                raise TypeError(f"{k} must be a tbrf.Model (P(k) at z = 0, k in h/Mpc)")
            setattr(p, k, v.handle.value if v is not None else None)
            keep.append(v)
        elif k == "glass":
            if v is not None:
                g = C.positions(v, 3, "glass")
                keep.append(g)
                p.glass, p.glass_n = g.ctypes.data, g.shape[0]
        elif k in ("wiggles", "gas", "fixed_amplitude", "paired", "keep_amplitude",
                   "gas_volumes"):
            setattr(p, k, 1 if v else 0)
        elif k in ("particles", "seed", "lpt", "reserved_lpt"):
            ctype = dict(CosmoParams._fields_)[k]
            setattr(p, k, C.ranged(v, ctype, k))
        else:
            setattr(p, k, float(v))
    return p, keep


class CosmoIC:
    """A cosmological initial condition (tbrf_ic_cosmo): G^3 particles on
    a lattice (or a tiled glass) displaced by D1 Psi1 + D2 Psi2 (2LPT,
    lpt=2, the default), plus the third order Psi3 (lpt=3, whose particles
    come from write_arepo/generate only: displacements and displacements2
    give the first two orders), or the Zel'dovich field alone (lpt=1).
    CosmoIC(**params) with the fields of tbrf_ic_cosmo_params (box,
    particles, redshift, omega_m, omega_lambda, omega_b, hubble, n_s,
    sigma8, t_cmb, length_per_mpc, mass_unit, velocity_unit, wiggles, gas,
    seed, lpt, fixed_amplitude, paired, power (a tbrf.Model), glass ((n, 3)
    array), glass_box, gas_temperature, gas_mu, gas_gamma, power_gas (a
    tbrf.Model: the gas's own P(k), transfer_power(..., "baryon")),
    keep_amplitude, gas_volumes, power_dm (transfer_power(..., "cdm")),
    velocity_dm and velocity_gas (transfer_velocity: two fluids, doc/ic.md);
    the rest keep their defaults (omega_lambda's
    is 1 - omega_m, a flat universe, as `tbrf arepo cosmo`'s)."""

    def __init__(self, **params: Any):
        p, self._keep = _cosmo_params(params)
        # reentrant: generate's callback may ask for info or params
        self._lock = threading.RLock()
        self._busy = 0
        self._h = ctypes.c_void_p()
        st = lib.tbrf_ic_cosmo_make(ctypes.byref(p), ctypes.byref(self._h))
        if st != 0:
            msg = text(lib.tbrf_ic_cosmo_message(self._h))
            self.close()
            raise_for(st, msg)

    @staticmethod
    def bytes(chunks: int = 1, **params: Any) -> Tuple[float, int]:
        """(bytes held with `chunks` chunks, the fewest chunks that fit the
        memory budget) for these parameters."""
        p, _keep = _cosmo_params(params)
        b, fewest = ctypes.c_double(), ctypes.c_int64()
        raise_for(lib.tbrf_ic_cosmo_bytes(ctypes.byref(p), C.i64(chunks, "chunks"), ctypes.byref(b),
                                          ctypes.byref(fewest)), None)
        return b.value, fewest.value

    def _check(self, st: int) -> None:
        raise_for(st, text(lib.tbrf_ic_cosmo_message(self._h)))

    @property
    def handle(self) -> ctypes.c_void_p:
        """The library's object (used under the lock, which close() takes)."""
        if not self._h:
            raise ValueError("the CosmoIC was closed")
        return self._h

    @property
    def params(self) -> Dict[str, Any]:
        """The parameters it was made with (glass and power left out)."""
        p = CosmoParams()
        with self._lock:
            self._check(lib.tbrf_ic_cosmo_get_params(self.handle, ctypes.byref(p)))
        d = struct_dict(p)
        for k in ("power", "glass", "power_gas", "power_dm", "velocity_dm", "velocity_gas"):
            d.pop(k)
        return d

    @property
    def info(self) -> Dict[str, Any]:
        """What it derived: particles, growth, velocity factor, masses, ..."""
        i = CosmoInfo()
        with self._lock:
            self._check(lib.tbrf_ic_cosmo_get_info(self.handle, ctypes.byref(i)))
        return struct_dict(i)

    def displacements(self) -> np.ndarray:
        """D1 Psi1 of every particle, (G^3, 3), in particle order."""
        psi = C.out_array((self.info["particles"], 3), np.float64, None)
        with self._lock:
            self._check(C.interruptible(lib.tbrf_ic_cosmo_set_cancel, self.handle,
                                        lambda: lib.tbrf_ic_cosmo_displacements(self.handle,
                                                                                psi.ctypes.data)))
        return psi

    def displacements2(self) -> np.ndarray:
        """D2 Psi2 of every particle, (G^3, 3) (zeros with lpt=1): the
        particles sit at q + displacements() + displacements2()."""
        psi = C.out_array((self.info["particles"], 3), np.float64, None)
        with self._lock:
            self._check(lib.tbrf_ic_cosmo_displacements2(self.handle, psi.ctypes.data))
        return psi

    def generate(self, callback: Callable[[Chunk], Any], chunks: int = 1) -> None:
        """Generates the particles in `chunks` chunks, calling
        callback(chunk) for each in order; a callback that returns False
        or raises stops the run (the exception is raised again here)."""
        raised = []

        def push(_user, cp):
            try:
                c = cp.contents
                n = int(c.count)
                ch = Chunk(int(c.chunk), int(c.first), _view(c.pos, (n, 3)),
                           _view(c.vel, (n, 3)), _view(c.gas_pos, (n, 3)) if c.gas_pos else None,
                           _view(c.gas_u, (n,)) if c.gas_u else None,
                           _view(c.gas_vel, (n, 3)) if c.gas_vel else None,
                           _view(c.gas_mass, (n,)) if c.gas_mass else None)
                return 1 if callback(ch) is False else 0
            except BaseException as e:  # noqa: BLE001 - re-raised below
                raised.append(e)
                return 1

        nch = C.i64(chunks, "chunks")
        with self._lock:
            self._busy += 1
            try:
                st = lib.tbrf_ic_cosmo_generate(self.handle, nch, IC_PUSH_FN(push), None)
            finally:
                self._busy -= 1
            if raised:
                raise raised[0]
            self._check(st)

    def close(self) -> None:
        """Frees it now (else when it is collected), after any call in
        flight on another thread; calls after close raise ValueError."""
        lock = getattr(self, "_lock", None)
        if lock is None:
            return
        with lock:
            if self._busy:  # re-entered from generate's own callback
                raise RuntimeError("CosmoIC.close() inside its generate() callback: close it "
                                   "after generate returns")
            if self._h:
                lib.tbrf_ic_cosmo_destroy(self._h)
                self._h = ctypes.c_void_p()

    def __del__(self):
        self.close()


TRANSFER_SPECIES = {"matter": 0, "baryon": 1, "cdm": 2}
TRANSFER_FORMATS = {1: "camb", 2: "class"}


def transfer_power(path: str, species: str = "matter", n_s: float = 0.9667) -> Tuple[Model, str]:
    """(P(k) = k^n_s T(k)^2 of one species, "matter", "baryon" or "cdm", of
    a CAMB transfer file or CLASS tk file as a table Model of amplitude 1,
    its layout "camb" or "class"): tbrf_ic_transfer_power. Normalise the
    matter's to sigma8 (CosmoIC does with power=) and give the baryons' as
    power_gas (scaled by the same factor)."""
    if species not in TRANSFER_SPECIES:
        raise ValueError(f"species must be one of {', '.join(TRANSFER_SPECIES)}")
    m = Model._empty()
    fmt = ctypes.c_int32()
    buf = ctypes.create_string_buffer(1024)
    st = lib.tbrf_ic_transfer_power(os.fsencode(path), TRANSFER_SPECIES[species], float(n_s),
                                    ctypes.byref(fmt), ctypes.byref(m._handle), buf, len(buf))
    raise_for(st, buf.value.decode(errors="replace"))
    m.kind, m.parameters = "table", {"transfer_file": path, "species": species}
    return m, TRANSFER_FORMATS.get(fmt.value, "?")


def transfer_velocity(path: str, species: str, conformal_hubble: float,
                      n_s: float = 0.9667) -> Model:
    """The velocity of "baryon" or "cdm" of a CAMB transfer file or CLASS
    tk file as P_v = k^n_s T_v^2 in the density's units (f^2 P in the
    growing mode), a table Model of amplitude 1: tbrf_ic_transfer_velocity;
    conformal_hubble a H in 1/Mpc at the file's redshift (CLASS's theta are
    divided by it). Give it as velocity_gas / velocity_dm; TBRF_ERR_UNSUPPORTED
    (tbrf.UnsupportedError) when the file has no velocity columns."""
    if species not in ("baryon", "cdm"):
        raise ValueError("species must be baryon or cdm")
    m = Model._empty()
    buf = ctypes.create_string_buffer(1024)
    st = lib.tbrf_ic_transfer_velocity(os.fsencode(path), TRANSFER_SPECIES[species], float(n_s),
                                       float(conformal_hubble), ctypes.byref(m._handle), buf,
                                       len(buf))
    raise_for(st, buf.value.decode(errors="replace"))
    m.kind, m.parameters = "table", {"transfer_file": path, "velocity": species}
    return m


def glass_tile(glass: Any, glass_box: float, particles: int) -> int:
    """T with particles^3 = len(glass) T^3 for a glass inside [0, glass_box)^3."""
    g = C.positions(glass, 3, "glass")
    t = ctypes.c_int64()
    _free(lambda m: lib.tbrf_ic_glass_tile(g.shape[0], g.ctypes.data, float(glass_box),
                                           C.i64(particles, "particles"), ctypes.byref(t), m,
                                           _MSG))
    return t.value


def glass_sites(glass: Any, glass_box: float, tile: int, box: float, first: int = 0,
                count: Optional[int] = None) -> np.ndarray:
    """Rows first .. first + count - 1 of the glass tiled tile^3 times in [0, box)^3."""
    g = C.positions(glass, 3, "glass")
    n = g.shape[0] * int(tile) ** 3 - int(first) if count is None else int(count)
    out = C.out_array((max(n, 0), 3), np.float64, None)
    st = lib.tbrf_ic_glass_sites(g.shape[0], g.ctypes.data, float(glass_box), int(tile),
                                 float(box), int(first), n, out.ctypes.data)
    raise_for(st, None)
    return out


def _points_params(kind: str, per_axis: int, n: int, box: float, jitter: float, seed: int,
                   realization: int) -> PointsParams:
    p = PointsParams()
    lib.tbrf_ic_default_points(ctypes.byref(p))
    p.kind = C.choice(PLACEMENTS, kind, "kind")
    p.per_axis, p.n = C.i64(per_axis, "per_axis"), C.i64(n, "n")
    p.box, p.jitter = float(box), float(jitter)
    p.seed, p.realization = C.u64(seed, "seed"), C.u64(realization, "realization")
    return p


def points_count(kind: str = "lattice", per_axis: int = 2, n: int = 8, box: float = 1.0,
                 jitter: float = 0.25, seed: int = 1, realization: int = 0) -> int:
    """The number of points of a placement (G^3 or n); -1 for bad parameters."""
    return int(lib.tbrf_ic_points_count(ctypes.byref(
        _points_params(kind, per_axis, n, box, jitter, seed, realization))))


def points(kind: str = "lattice", per_axis: int = 2, n: int = 8, box: float = 1.0,
           jitter: float = 0.25, seed: int = 1, realization: int = 0, first: int = 0,
           count: Optional[int] = None) -> np.ndarray:
    """Points first .. first + count - 1 of a placement ("lattice" of G =
    per_axis cell centres per axis, "jittered", or n "random" points) in
    [0, box)^3: an (count, 3) array; point i depends only on (seed,
    realization, i)."""
    p = _points_params(kind, per_axis, n, box, jitter, seed, realization)
    total = int(lib.tbrf_ic_points_count(ctypes.byref(p)))
    cnt = max(total - int(first), 0) if count is None else int(count)
    out = C.out_array((max(cnt, 0), 3), np.float64, None)
    _free(lambda m: lib.tbrf_ic_points(ctypes.byref(p), int(first), cnt, out.ctypes.data, m,
                                       _MSG))
    return out


def _density_params(kind: str, rho_mean: float, sigma: float, rho_floor: float):
    p = DensityParams()
    lib.tbrf_ic_default_density(ctypes.byref(p))
    p.kind = C.choice(C.DENSITIES, kind, "kind")
    p.rho_mean, p.sigma, p.rho_floor = float(rho_mean), float(sigma), float(rho_floor)
    return p


def density(g: Any, kind: str = "linear", rho_mean: float = 1.0, sigma: float = 0.0,
            rho_floor: float = 0.0) -> np.ndarray:
    """rho from a unit-variance Gaussian field g, pointwise: "lognormal"
    rho_mean exp(sigma g - sigma^2/2), "linear" rho_mean max(1 + sigma g,
    rho_floor), "field" g itself. Same shape as g."""
    a = C.values_in(g, "g")
    p = _density_params(kind, rho_mean, sigma, rho_floor)
    rho = np.empty_like(a)
    _free(lambda m: lib.tbrf_ic_density(ctypes.byref(p), a.size, a.ctypes.data, rho.ctypes.data,
                                        m, _MSG))
    return rho


def density_volumes(g: Any, vol: Any, box_volume: float, kind: str = "lognormal",
                    rho_mean: float = 1.0, sigma: float = 0.0,
                    rho_floor: float = 0.0) -> np.ndarray:
    """As density for cells of volumes vol, with the volume-weighted mean
    rho_mean imposed exactly (sum rho vol = rho_mean box_volume)."""
    a, v = C.values_in(g, "g"), C.values_in(vol, "vol")
    if a.shape != v.shape:
        raise ValueError(f"g and vol must have one shape, not {a.shape} and {v.shape}")
    p = _density_params(kind, rho_mean, sigma, rho_floor)
    rho = np.empty_like(a)
    _free(lambda m: lib.tbrf_ic_density_volumes(ctypes.byref(p), a.size, a.ctypes.data,
                                                v.ctypes.data, float(box_volume),
                                                rho.ctypes.data, m, _MSG))
    return rho


def voronoi_volumes(points: Any, box: float) -> np.ndarray:
    """The volumes of the periodic Voronoi cells of (n, 3) points in [0, box)^3."""
    xyz = C.positions(points, 3)
    vol = np.empty(xyz.shape[0])
    _free(lambda m: lib.tbrf_ic_voronoi_volumes(xyz.shape[0], xyz.ctypes.data, float(box),
                                                vol.ctypes.data, m, _MSG))
    return vol


def write_arepo(ic: CosmoIC, base: str, *, num_files: int = 1, format: str = "hdf5",
                precision: Optional[str] = None, long_ids: bool = False,
                command: Optional[str] = None, power_name: Optional[str] = None,
                glass_name: Optional[str] = None, gas_power_name: Optional[str] = None) -> None:
    """Writes ic as the initial-condition set `tbrf arepo cosmo` writes,
    through the same C function of libtbrf_writer (tbrf_arepo_write_cosmo),
    so the particles, the Header and the /tbrf parameters are the command's
    bit for bit: base.hdf5 (base.0.hdf5 ... with num_files > 1), or Gadget's
    format 1 or 2 (format "gadget1", "gadget2": members base or base.N and
    the side file base.tbrf.h5). Published only when complete (nothing, or
    the old set, after a failure). precision "double" or "float" positions
    and velocities (default: double for HDF5, float for Gadget's formats,
    as the command and Gadget's INPUT_IN_DOUBLEPRECISION); long_ids: uint64 ParticleIDs. command: recorded as
    /tbrf command, what `tbrf regenerate` reruns (default "python:
    tbrf.ic.write_arepo", which regenerate refuses by name: give the
    equivalent `tbrf arepo cosmo ... --out BASE` line to make the file
    regenerable); power_name, glass_name, gas_power_name: recorded names
    of the P(k) table, the glass and the gas's table. FileError with the
    writer's reason; NotBuiltError when libtbrf_writer is not there (a
    wheel bundles libtbrf alone)."""
    from . import _writer
    if not isinstance(ic, CosmoIC):
        raise TypeError("write_arepo takes a tbrf.ic.CosmoIC")
    f, keep = _writer.cosmo_file(num_files, precision, long_ids, format,
                                 "python: tbrf.ic.write_arepo" if command is None else command,
                                 power_name, glass_name, gas_power_name)
    with ic._lock:
        _writer.write_cosmo(base, ic.handle, f)
    del keep


# ------------------------------------------------------------------ zoom
ZOOM_REGIONS = {"box": 0, "sphere": 1, "ids": 2}


def _zoom_params(refinement: int, region: str, lo, hi, centre, radius, ids, pad: int,
                 levels: int) -> Tuple[ZoomParams, list]:
    z = ZoomParams()
    lib.tbrf_ic_default_zoom(ctypes.byref(z))
    if region not in ZOOM_REGIONS:
        raise ValueError(f"region must be one of {', '.join(ZOOM_REGIONS)}, not {region!r}")
    z.region = ZOOM_REGIONS[region]
    z.refinement = C.ranged(refinement, ctypes.c_int32, "refinement")
    z.pad = C.ranged(pad, ctypes.c_int32, "pad")
    z.levels = C.ranged(levels, ctypes.c_int32, "levels")
    keep = []
    for name, v, n in (("lo", lo, 3), ("hi", hi, 3), ("centre", centre, 3)):
        if v is not None:
            a = np.asarray(v, dtype=np.float64).ravel()
            if a.shape != (n,):
                raise ValueError(f"{name} must hold {n} numbers")
            getattr(z, name)[:] = a.tolist()
    if radius is not None:
        z.radius = float(radius)
    if ids is not None:
        a = np.ascontiguousarray(np.asarray(ids).ravel())
        if a.size and (not np.issubdtype(a.dtype, np.integer) or a.min() < 0):
            raise ValueError("ids must be non-negative integers (the parent's ParticleIDs)")
        a = a.astype(np.uint64)
        keep.append(a)
        z.ids, z.n_ids = a.ctypes.data, a.size
    return z, keep


class ZoomIC:
    """A zoom initial condition (tbrf_ic_zoom, doc/ic.md "Zoom"): the
    parent IC of `cosmo` (CosmoIC's parameters, on the lattice) with a
    Lagrangian region refined `refinement` times per axis: region "box"
    (lo, hi: corners in length units), "sphere" (centre, radius) or "ids"
    (the parent's ParticleIDs), padded by `pad` parent cells, `levels`
    nested levels. particles(t) gives AREPO type t (0 fine gas, 1 fine, 2
    the parent's and coarser levels') as arrays; write_arepo_zoom writes
    the set `tbrf arepo zoom` writes."""

    def __init__(self, *, refinement: int = 2, region: str = "box", lo=None, hi=None,
                 centre=None, radius: Optional[float] = None, ids=None, pad: int = 1,
                 levels: int = 1, **cosmo: Any):
        p, self._keep = _cosmo_params(cosmo)
        z, keep = _zoom_params(refinement, region, lo, hi, centre, radius, ids, pad, levels)
        self._lock = threading.RLock()
        self._h = ctypes.c_void_p()
        st = lib.tbrf_ic_zoom_make(ctypes.byref(p), ctypes.byref(z), ctypes.byref(self._h))
        del keep  # the IDs are not kept by the library
        if st != 0:
            msg = text(lib.tbrf_ic_zoom_message(self._h))
            self.close()
            raise_for(st, msg)

    @staticmethod
    def bytes(*, refinement: int = 2, region: str = "box", lo=None, hi=None, centre=None,
              radius: Optional[float] = None, ids=None, pad: int = 1, levels: int = 1,
              **cosmo: Any) -> float:
        """The bytes making the zoom would hold at most."""
        p, _keep = _cosmo_params(cosmo)
        z, _ids = _zoom_params(refinement, region, lo, hi, centre, radius, ids, pad, levels)
        b = ctypes.c_double()
        raise_for(lib.tbrf_ic_zoom_bytes(ctypes.byref(p), ctypes.byref(z), ctypes.byref(b)),
                  None)
        return b.value

    @property
    def handle(self) -> ctypes.c_void_p:
        if not self._h:
            raise ValueError("the ZoomIC was closed")
        return self._h

    def _check(self, st: int) -> None:
        raise_for(st, text(lib.tbrf_ic_zoom_message(self._h)))

    @property
    def info(self) -> Dict[str, Any]:
        """Counts (region_cells, fine, coarse, gas, level_particles), masses,
        the region's extent, a, D, f and the velocity factors."""
        i = ZoomInfo()
        with self._lock:
            self._check(lib.tbrf_ic_zoom_get_info(self.handle, ctypes.byref(i)))
        d = struct_dict(i)
        d["level_particles"] = d["level_particles"][:d["levels"] + 1]
        return d

    def particles(self, type: int) -> Dict[str, Optional[np.ndarray]]:
        """AREPO type `type` (0, 1, 2) as copies: pos, vel (n, 3), u (gas),
        mass (coarse with several levels, else None: info's), row."""
        if type not in (0, 1, 2):
            raise ValueError("type must be 0 (fine gas), 1 (fine) or 2 (coarse)")
        t = ZoomPart()
        with self._lock:
            self._check(lib.tbrf_ic_zoom_particles(self.handle, type, ctypes.byref(t)))
            n = int(t.n)

            def copy(address, shape, dtype=np.float64):
                if not address:
                    return None
                c = ctypes.c_double if dtype == np.float64 else ctypes.c_int64
                a = np.ctypeslib.as_array((c * int(np.prod(shape))).from_address(address))
                return a.reshape(shape).copy()
            return {"pos": copy(t.pos, (n, 3)) if n else np.empty((0, 3)),
                    "vel": copy(t.vel, (n, 3)) if n else np.empty((0, 3)),
                    "u": copy(t.u, (n,)) if n else None,
                    "mass": copy(t.mass, (n,)) if n else None,
                    "row": copy(t.row, (n,), np.int64) if n else np.empty(0, np.int64)}

    def level(self, i: int, j: int, k: int) -> int:
        """The refinement level of parent cell (i, j, k): 0 .. levels."""
        with self._lock:
            return int(lib.tbrf_ic_zoom_level(self.handle, int(i), int(j), int(k)))

    def close(self) -> None:
        """Frees it now (else when it is collected)."""
        lock = getattr(self, "_lock", None)
        if lock is None:
            return
        with lock:
            if self._h:
                lib.tbrf_ic_zoom_destroy(self._h)
                self._h = ctypes.c_void_p()

    def __del__(self):
        self.close()


def write_arepo_zoom(zoom: ZoomIC, base: str, *, num_files: int = 1, format: str = "hdf5",
                     precision: Optional[str] = None, long_ids: bool = False,
                     command: Optional[str] = None) -> None:
    """Writes zoom as `tbrf arepo zoom` does, through libtbrf_writer's
    tbrf_arepo_write_zoom (PartType1 fine, PartType2 coarse, PartType0 fine
    gas; the options as write_arepo's). FileError with the writer's reason;
    NotBuiltError without libtbrf_writer."""
    from . import _writer
    if not isinstance(zoom, ZoomIC):
        raise TypeError("write_arepo_zoom takes a tbrf.ic.ZoomIC")
    f, keep = _writer.cosmo_file(num_files, precision, long_ids, format,
                                 "python: tbrf.ic.write_arepo_zoom" if command is None else command,
                                 None, None, None)
    with zoom._lock:
        _writer.write_cosmo(base, zoom.handle, f, zoom=True)
    del keep
