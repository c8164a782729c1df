"""_file — the generating parameters a tbrf file records, read back as
`tbrf regenerate` reads them (io/meta.c, tbrf_io_read_meta, and
cli/request.c, cli_model_make and vector_setup), attribute for attribute,
so that Field.from_file(path).grid() remakes the file's /field bit for bit.

Every number the field depends on is stored in the file as a float64 or
int64 attribute (uint64 for seed and realization), which h5py hands back
unchanged, so reading them in Python is as exact as the C reader."""
from __future__ import annotations

import math
from typing import Any, Dict

import numpy as np

from ._model import Model, kind_params


class _Attrs:
    """The root attributes of an HDF5 or netCDF-4 file, with meta.c's
    rules: a missing optional number is NaN, a required one an error."""

    def __init__(self, path: str, attrs: Any):
        self.path = path
        self.raw = {k: attrs[k] for k in attrs.keys()}

    def fail(self, what: str, name: str):
        raise ValueError(f"{self.path}: {what} {name}")

    def str(self, name: str, need: bool = False):
        if name not in self.raw:
            if need:
                self.fail("missing attribute", name)
            return None
        v = self.raw[name]
        if isinstance(v, np.ndarray):
            if v.size != 1:
                self.fail("unreadable attribute", name)
            v = v.reshape(-1)[0]
        if isinstance(v, (bytes, np.bytes_)):
            v = bytes(v).decode("utf-8", "replace")
        if not isinstance(v, str):
            self.fail("unreadable attribute", name)
        return v.rstrip("\0")

    def f64(self, name: str, count: int = 1, need: bool = False):
        if name not in self.raw:
            if need:
                self.fail("missing attribute", name)
            return [math.nan] * count if count > 1 else math.nan
        v = np.asarray(self.raw[name]).reshape(-1)
        if v.size != count or not np.issubdtype(v.dtype, np.number):
            self.fail("unexpected type or size of attribute", name)
        v = [float(x) for x in v]
        return v if count > 1 else v[0]

    def int(self, name: str, lo: int, hi: int, default: Any = None, need: bool = False,
            count: int = 1):
        if name not in self.raw:
            if need:
                self.fail("missing attribute", name)
            return default
        v = np.asarray(self.raw[name]).reshape(-1)
        if v.size != count or not np.issubdtype(v.dtype, np.integer) \
                or any(not lo <= int(x) <= hi for x in v):
            self.fail("unexpected value of attribute", name)
        return [int(x) for x in v] if count > 1 else int(v[0])


def _model(a: _Attrs, f: Any) -> Model:
    kind = a.str("model_kind", need=True)
    by_variance = a.str("normalization") != "amplitude"
    amp = {"variance": a.f64("variance", need=True)} if by_variance else \
        {"amplitude": a.f64("amplitude", need=True)}
    band = {k: a.f64("model_" + k) for k in ("kmin", "kmax")}
    band = {k: v for k, v in band.items() if not math.isnan(v)}
    if "model_anis" in a.raw or "model_angles" in a.raw:  # both or neither
        amp["anis"] = a.f64("model_anis", 3, need=True)
        amp["angles"] = a.f64("model_angles", 3, need=True)
    if kind == "table":
        if "model_table" not in f:
            a.fail("a table model but no readable", "/model_table")
        rows = np.asarray(f["model_table"][()], dtype=np.float64)
        return Model("table", table=(rows[:, 0], rows[:, 1]), **band, **amp)
    takes, _ = kind_params(kind)
    # a file may record parameters its kind does not take: cli_model_make
    # passes only those it does (and kmin, kmax always)
    p = {k: a.f64("model_" + k) for k in takes if k not in ("kmin", "kmax", "table")}
    p = {k: v for k, v in p.items() if not math.isnan(v)}
    return Model(kind, **p, **band, **amp)


def _options(a: _Attrs, dim: int) -> Dict[str, Any]:
    o: Dict[str, Any] = {
        "lines": a.int("lines", 1, 2 ** 31 - 1, need=True),
        "oversampling": a.int("oversampling", 1, 2 ** 31 - 1, need=True),
        "line_method": a.str("line_method", need=True),
        "method": a.str("method") or "tb",
        "periodic": bool(a.int("periodic", 0, 2 ** 31 - 1, default=0)),
        "max_padding": a.int("max_padding", 0, 2 ** 31 - 1, need=True),
        "line_length_factor": a.int("line_length_factor", 1, 2 ** 31 - 1, default=1),
        "precision": a.str("precision", need=True),
    }
    # bitwise equality holds on one backend: the one that ran (regenerate)
    ran, asked = a.str("backend"), a.str("backend_requested")
    for b in (ran, asked):
        if b in ("cpu", "opencl", "cuda"):
            o["backend"] = b
            break
    ncomp = a.int("components", 1, 3, default=1)
    if ncomp not in (1, dim):
        a.fail("components must be 1 or the dimension, not so in attribute", "components")
    if ncomp > 1:
        kind, zeta = a.str("vector_kind"), a.f64("vector_zeta")
        if kind not in ("solenoidal", "compressive", "mixed") or math.isnan(zeta):
            a.fail("a vector field without a known vector_kind and", "vector_zeta")
        o["vector"], o["zeta"] = kind, zeta
    acc = a.f64("nufft_accuracy")
    o["accuracy"] = 0.0 if math.isnan(acc) else acc
    if "box_origin" in a.raw:
        o["box_origin"] = a.f64("box_origin", dim, need=True) if dim > 1 else None
        o["box"] = a.f64("box_length", dim, need=True)
        o["box_modes"] = a.int("box_modes", 1, 2 ** 62, need=True, count=dim)
        if o["accuracy"] == 0.0:
            o["accuracy"] = 1e-6 if o["precision"] == "float" else 1e-12
        o["method"] = "tb"  # ignored by a periodic plan
    else:
        o["domain"] = list(zip(a.f64("domain_lo", dim), a.f64("domain_hi", dim)))
    o["resolution"] = a.f64("resolution", need=True)
    return o


def read_meta(path: str) -> Dict[str, Any]:
    """The model, dimension, seed, realization and Field keywords a tbrf
    file records, and its attributes (geometry, grid) as a dict."""
    import h5py  # only from_file needs it
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        from ._lib import FileError
        raise FileError(f"{path}: cannot open as an HDF5 or netCDF-4 file ({e})", 5) from None
    with f:
        a = _Attrs(path, f.attrs)
        gname = "tbrf_geometry" if "tbrf_geometry" in a.raw else "geometry"
        if "model_kind" not in a.raw or gname not in a.raw:
            raise ValueError(f"{path} was not written by tbrf generate (no model_kind/geometry "
                             "attributes)")
        dim = a.int("dim", 2, 3, need=True)
        seed = a.int("seed", 0, 2 ** 64 - 1, need=True)
        realization = a.int("realization", 0, 2 ** 64 - 1, need=True)
        model = _model(a, f)
        field = _options(a, dim)
        geometry = a.str(gname, need=True)
        attrs: Dict[str, Any] = {"geometry": geometry}
        if geometry == "grid":
            attrs["grid_origin"] = a.f64("grid_origin", dim, need=True)
            attrs["grid_spacing"] = a.f64("grid_spacing", dim, need=True)
            attrs["grid_counts"] = a.int("grid_counts", 1, 2 ** 62, need=True, count=dim)
        elif geometry != "points":
            a.fail("unknown value of attribute", gname)
        for k, v in a.raw.items():
            attrs.setdefault(k, v)
        return {"model": model, "dim": dim, "seed": seed, "realization": realization,
                "field": field, "attrs": attrs, "version": a.str("tbrf_version") or ""}
