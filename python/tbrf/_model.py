"""_model — tbrf.Model: a covariance or spectral model (include/tbrf/model.h)."""
from __future__ import annotations

import ctypes
import math
import os
from typing import Any, Callable, Dict, Tuple

import numpy as np

from ._lib import SPECTRUM_FN, lib, raise_for, text

AMPLITUDE_PARAMS = ("variance", "amplitude")


def _param_bits() -> Dict[str, int]:
    """The library's parameters by name, each with its bit (tbrf_model_param_name)."""
    out, i = {}, 0
    while True:
        name = lib.tbrf_model_param_name(i)
        if not name:
            return out
        out[name.decode()] = 1 << i
        i += 1


PARAM_BITS = _param_bits()


def kinds() -> list:
    """The names of the model kinds tbrf.Model takes, in the order of the
    library's table of kinds ("powerlaw", "gaussian", ...)."""
    out, i = [], 0
    while True:
        name = lib.tbrf_model_kind_name(i)
        if not name:
            return out
        out.append(name.decode())
        i += 1


def kind_summary(kind: str) -> str:
    """A one-line description of the kind (its covariance or spectrum)."""
    s = lib.tbrf_model_kind_summary(str(kind).encode())
    if not s:
        raise ValueError(f"unknown model kind {kind!r}: the kinds are {', '.join(kinds())}")
    return s.decode()


def kind_params(kind: str) -> Tuple[list, list]:
    """(the parameters the kind takes, those it needs), by name; variance
    and amplitude, which every kind takes, are not listed."""
    takes, needs = ctypes.c_int(), ctypes.c_int()
    st = lib.tbrf_model_kind_params(str(kind).encode(), ctypes.byref(takes), ctypes.byref(needs))
    raise_for(st, f"unknown model kind {kind!r}: the kinds are {', '.join(kinds())}"
              if st == 2 else None)
    names = lambda bits: [n for n, b in PARAM_BITS.items() if bits & b]  # noqa: E731
    return names(takes.value), names(needs.value)


class Model:
    """A covariance or spectral model of a stationary isotropic field.

    Model(kind, **parameters) makes one of the kinds of the library's
    table (tbrf.kinds(); tbrf.kind_summary(kind) says what each is) from
    its parameters by name (those tbrf.kind_params(kind) lists, e.g.
    length=, nu=, alpha=; a kmin/kmax given to a covariance model cuts its
    spectrum to that band), and variance (default 1) or amplitude, and
    anis=/angles= (set_anisotropy). A table takes table=(k, P) arrays or
    table_file=path. An unknown or missing parameter raises
    tbrf.InvalidError (ValueError) with the library's message, never a
    silent default.

    Lengths are tbrf's (doc/method.md): Matern's length a is GSTools'
    len_scale / sqrt(nu); see Field.from_gstools.
    """

    def __init__(self, kind: str, **parameters: Any):
        self._handle = ctypes.c_void_p()
        self._keep: Any = None
        self.kind = str(kind)
        self.parameters = dict(parameters)
        variance = parameters.pop("variance", None)
        amplitude = parameters.pop("amplitude", None)
        anis = parameters.pop("anis", None)
        angles = parameters.pop("angles", None)
        if variance is not None and amplitude is not None:
            raise ValueError("give variance or amplitude, not both")
        if self.kind == "table":
            self._make_table(parameters)
        else:
            self._make_kind(parameters)
        if anis is not None or angles is not None:
            self.set_anisotropy(1.0 if anis is None else anis, 0.0 if angles is None else angles)
        if variance is not None:
            self.set_variance(variance)
        if amplitude is not None:
            self.set_amplitude(amplitude)

    # -- construction
    def _adopt(self, st: int) -> None:
        if st != 0:
            msg = text(lib.tbrf_model_message(self._handle)) if self._handle else ""
            self.close()
            raise_for(st, msg)

    def _make_kind(self, p: Dict[str, Any]) -> None:
        try:
            takes, _ = kind_params(self.kind)
        except ValueError:
            takes = []
        unknown = [k for k in p if k not in PARAM_BITS or k == "table"]
        if unknown:
            raise TypeError(f"model {self.kind}: unknown parameter(s) {', '.join(unknown)}; "
                            f"it takes {', '.join(takes + list(AMPLITUDE_PARAMS))}")
        given = [(k.encode(), float(v)) for k, v in p.items() if v is not None]
        names = (ctypes.c_char_p * max(len(given), 1))(*[k for k, _ in given])
        values = (ctypes.c_double * max(len(given), 1))(*[v for _, v in given])
        st = lib.tbrf_model_make_params(self.kind.encode(), len(given), names, values,
                                        ctypes.byref(self._handle))
        self._adopt(st)

    def _make_table(self, p: Dict[str, Any]) -> None:
        table, path = p.pop("table", None), p.pop("table_file", None)
        kmin, kmax = p.pop("kmin", None), p.pop("kmax", None)
        if p:
            raise TypeError(f"model table: unknown parameter(s) {', '.join(p)}; it takes table "
                            "or table_file, kmin, kmax, variance, amplitude")
        if (table is None) == (path is None):
            raise ValueError("model table: give table=(k, P) or table_file=path")
        if path is not None:
            st = lib.tbrf_model_table_file(os.fsencode(path), ctypes.byref(self._handle))
        else:
            k, pk = (np.ascontiguousarray(np.asarray(a, dtype=np.float64)) for a in table)
            if k.ndim != 1 or k.shape != pk.shape:
                raise ValueError("model table: k and P must be 1-D arrays of one length")
            st = lib.tbrf_model_table(k.size, k.ctypes.data, pk.ctypes.data,
                                      ctypes.byref(self._handle))
        self._adopt(st)
        if kmin is not None or kmax is not None:
            self.set_band(0.0 if kmin is None else kmin, math.inf if kmax is None else kmax)

    @classmethod
    def _empty(cls) -> "Model":
        m = cls.__new__(cls)
        m._handle, m._keep, m.parameters = ctypes.c_void_p(), None, {}
        return m

    @classmethod
    def callback(cls, spectrum: Callable[[float, int], float], kmin: float,
                 kmax: float) -> "Model":
        """A model whose spectral shape P0(k) is spectrum(k, dim) on
        [kmin, kmax]. The function is called (holding the GIL) from the
        library's threads, so it must be pure; an exception makes it
        return NaN, which the library refuses."""
        m = cls._empty()
        m.kind = "callback"

        def fn(k, dim, _user):
            try:
                return float(spectrum(k, dim))
            except Exception:  # noqa: BLE001 - no way to raise through C
                return math.nan

        m._keep = SPECTRUM_FN(fn)
        m._adopt(lib.tbrf_model_callback(m._keep, None, float(kmin), float(kmax),
                                         ctypes.byref(m._handle)))
        return m

    @classmethod
    def eisenstein_hu(cls, omega_m: float = 0.3089, omega_b: float = 0.0486,
                      h: float = 0.6774, n_s: float = 0.9667, t_cmb: float = 2.7255,
                      wiggles: bool = True, kmin: float = 1e-4, kmax: float = 1e3) -> "Model":
        """The linear matter power spectrum with the Eisenstein & Hu transfer
        function (k in h/Mpc) as a tabulated model (include/tbrf/cosmology.h);
        normalise it with normalize_sigma(8, sigma8)."""
        m = cls._empty()
        m.kind = "table"
        m._adopt(lib.tbrf_model_eisenstein_hu(omega_m, omega_b, h, n_s, t_cmb, int(wiggles),
                                              kmin, kmax, ctypes.byref(m._handle)))
        return m

    # -- changes
    def _check(self, st: int) -> None:
        raise_for(st, text(lib.tbrf_model_message(self._handle)))

    def set_variance(self, variance: float) -> "Model":
        """Sets the amplitude through the variance sigma^2 > 0; returns self."""
        self._check(lib.tbrf_model_set_variance(self.handle, float(variance)))
        return self

    def set_amplitude(self, amplitude: float) -> "Model":
        """Sets the amplitude A > 0 of P(k) = A P0(k); returns self."""
        self._check(lib.tbrf_model_set_amplitude(self.handle, float(amplitude)))
        return self

    def set_band(self, kmin: float, kmax: float = math.inf) -> "Model":
        """Cuts the spectrum to kmin <= k <= kmax (tbrf_model_set_band); returns self."""
        self._check(lib.tbrf_model_set_band(self.handle, float(kmin), float(kmax)))
        return self

    def set_anisotropy(self, anis: Any = 1.0, angles: Any = 0.0) -> "Model":
        """Makes the covariance anisotropic and rotated
        (tbrf_model_set_anisotropy): C(x) = C_iso(|S^-1 R^T x|). anis: the
        per-axis factors of the model's length, 2 (2D) or 3 values (the
        tbrf command's --anis; GSTools' anis (a, b) is (1, a, b)); angles
        in radians, 1 (2D) or 3 (3D), GSTools' convention. Returns self."""
        s = [float(x) for x in np.atleast_1d(np.asarray(anis, dtype=np.float64))]
        a = [float(x) for x in np.atleast_1d(np.asarray(angles, dtype=np.float64))]
        if len(s) == 1 and s[0] == 1.0:
            s = [1.0, 1.0]
        if len(s) not in (2, 3):
            raise ValueError(f"anis: give 2 or 3 factors (one per axis), not {len(s)}")
        if len(a) not in (1, 3):
            raise ValueError(f"angles: give 1 (2D) or 3 (3D) angles, not {len(a)}")
        s3 = (ctypes.c_double * 3)(*(s + [1.0] * (3 - len(s))))
        a3 = (ctypes.c_double * 3)(*(a + [0.0] * (3 - len(a))))
        self._check(lib.tbrf_model_set_anisotropy(self.handle, s3, a3))
        return self

    def anisotropy(self) -> Tuple[np.ndarray, np.ndarray]:
        """The factors and angles, 3 each ((1, 1, 1) and 0 when isotropic)."""
        s3, a3 = (ctypes.c_double * 3)(), (ctypes.c_double * 3)()
        self._check(lib.tbrf_model_anisotropy(self.handle, s3, a3))
        return np.array(s3[:]), np.array(a3[:])

    def normalize_sigma(self, r: float, sigma: float) -> "Model":
        """Sets the amplitude so that the top-hat rms sigma_r(r) = sigma
        (sigma8 normalisation: r = 8 Mpc/h); returns self."""
        self._check(lib.tbrf_model_normalize_sigma(self.handle, float(r), float(sigma)))
        return self

    # -- queries
    @property
    def handle(self) -> ctypes.c_void_p:
        if not self._handle:
            raise ValueError("the model was closed")
        return self._handle

    def spectrum(self, k: Any, dim: int = 3) -> np.ndarray:
        """P(k) in dimension dim, amplitude included (NaN for a divergent model)."""
        return np.vectorize(lambda x: lib.tbrf_model_spectrum(self.handle, dim, x),
                            otypes=[np.float64])(np.asarray(k, dtype=np.float64))

    def covariance(self, r: Any, dim: int = 3) -> np.ndarray:
        """C(r) in dimension dim, amplitude included."""
        return np.vectorize(lambda x: lib.tbrf_model_covariance(self.handle, dim, x),
                            otypes=[np.float64])(np.asarray(r, dtype=np.float64))

    def variance(self, dim: int = 3) -> float:
        """sigma^2 = C(0) in dimension dim (NaN if divergent)."""
        return lib.tbrf_model_variance(self.handle, int(dim))

    def lognormal(self, dim: int, kmin: float, kmax: float, rmax: float,
                  max_lost: float = 0.05) -> Tuple["Model", float]:
        """The Gaussian model behind a lognormal density whose contrast
        rho/rho_mean - 1 has this model's spectrum and variance
        (tbrf_model_lognormal; doc/lognormal.md): a table over [kmin, kmax]
        with variance ln(1 + variance), its correlation ln(1 + xi) exact for
        r <= rmax/2. Returns (model, lost), lost the share of its variance
        clipped where its spectrum would be negative; more than max_lost
        raises tbrf.InvalidError naming it."""
        g = Model._empty()
        g.kind = "table"
        lost = ctypes.c_double()
        g._adopt(lib.tbrf_model_lognormal(self.handle, int(dim), float(kmin), float(kmax),
                                          float(rmax), float(max_lost), ctypes.byref(lost),
                                          ctypes.byref(g._handle)))
        return g, lost.value

    def tail_slope(self, dim: int = 3) -> float:
        """The spectrum's log-log slope far above its low wavenumbers (NaN if none)."""
        return lib.tbrf_model_tail_slope(self.handle, int(dim))

    def sigma_r(self, r: float) -> float:
        """The rms of the 3D field smoothed by a top-hat sphere of radius r."""
        out = ctypes.c_double()
        self._check(lib.tbrf_cosmo_sigma_r(self.handle, float(r), ctypes.byref(out)))
        return out.value

    def table_data(self) -> Tuple[np.ndarray, np.ndarray]:
        """The rows (k, P) of a tabulated model as the library holds them."""
        n = ctypes.c_size_t(0)
        self._check(lib.tbrf_model_table_data(self.handle, ctypes.byref(n), None, None))
        k, p = np.empty(n.value), np.empty(n.value)
        self._check(lib.tbrf_model_table_data(self.handle, ctypes.byref(n), k.ctypes.data,
                                              p.ctypes.data))
        return k, p

    def describe(self) -> str:
        """One line with the model and all its parameters."""
        return text(lib.tbrf_model_describe(self.handle))

    def __repr__(self) -> str:
        return f"tbrf.Model({self.describe()!r})" if self._handle else "tbrf.Model(<closed>)"

    def close(self) -> None:
        """Frees the model now (plans made from it keep their copy)."""
        if getattr(self, "_handle", None):
            lib.tbrf_model_destroy(self._handle)
            self._handle = ctypes.c_void_p()

    def __del__(self):
        self.close()


def as_model(model: Any, parameters: Dict[str, Any]) -> Model:
    """A Model from a kind name and parameters, or a Model given as such."""
    if isinstance(model, Model):
        if parameters:
            raise TypeError(f"parameters {', '.join(parameters)} given with a Model object: "
                            "give them to tbrf.Model instead")
        return model
    if not isinstance(model, str):
        raise TypeError(f"model must be a kind name or a tbrf.Model, not {type(model).__name__}")
    return Model(model, **parameters)


def lognormal_sigma2_mach(mach: float, b: float) -> float:
    """var(ln rho) = ln(1 + b^2 mach^2) of supersonic turbulence of rms Mach
    number mach and forcing parameter b (1/3 solenoidal .. 1 compressive;
    Federrath et al. 2008, 2010): the Gaussian's sigma_g^2 of a lognormal
    density, whose contrast has variance b^2 mach^2. Raises ValueError
    unless mach >= 0 and b > 0, finite."""
    v = lib.tbrf_lognormal_sigma2_mach(float(mach), float(b))
    if math.isnan(v):
        raise ValueError(f"lognormal_sigma2_mach: needs mach >= 0 and b > 0, finite "
                         f"(mach {mach}, b {b})")
    return v
