"""tbrf — Gaussian random fields by spectral turning bands, from numpy.

The Python face of libtbrf (doc/python.md): fields on grids and at points
(Field, Model), turbulence driving (Driver), inflow boundaries (Inflow,
inflow_tube), initial conditions (tbrf.ic), random-number streams
(tbrf.rng) and Monte Carlo integration (tbrf.mc). Arrays go in and come
out as numpy arrays, without copies where the layout allows; the library
runs with the GIL released; failures raise tbrf.Error subclasses carrying
the library's message. The library is found through $TBRF_LIBRARY,
pkg-config, the dynamic loader, or a build tree beside this source tree.
"""
from ._lib import (LIBRARY_PATH, BadPlanError, CallbackError, DivergentError, EmbeddingError,
                   Error, FFTError, FileError, InvalidError, NoDeviceError, NoGeometryError,
                   NoMemoryError, NotBuiltError, NullError, OutOfDomainError, SizeError,
                   TableError, UnsupportedError, PACKAGE_VERSION, lib as _clib)
from ._model import Model, kind_params, kind_summary, kinds, lognormal_sigma2_mach
from ._field import GSTOOLS, Field, gstools_params
from ._driver import Driver, Inflow, amplitude_adjust, inflow_tube
from . import ic, mc, rng

__version__ = PACKAGE_VERSION


def library_version() -> str:
    """The version of the libtbrf loaded ("MAJOR.MINOR.PATCH")."""
    return _clib.tbrf_version().decode()


def strerror(status: int) -> str:
    """The library's short description of a status code."""
    return _clib.tbrf_strerror(int(status)).decode()


def memory_budget() -> int:
    """The memory budget in bytes every tbrf object checks sizes against
    ($TBRF_MEMORY_BUDGET, else half the physical memory)."""
    import ctypes
    v = ctypes.c_uint64()
    st = _clib.tbrf_memory_budget(ctypes.byref(v))
    from ._lib import raise_for
    raise_for(st, "TBRF_MEMORY_BUDGET is set but is not a size" if st == 2 else None)
    return v.value


def backend_available(backend: str) -> bool:
    """Whether a backend ("cpu", "opencl", "cuda") is built and has a device."""
    from ._common import BACKENDS, choice
    return _clib.tbrf_backend_available(choice(BACKENDS, backend, "backend")) == 0


__all__ = ["Field", "Model", "Driver", "Inflow", "inflow_tube", "amplitude_adjust", "kinds", "kind_params",
           "kind_summary", "lognormal_sigma2_mach",
           "GSTOOLS", "gstools_params", "ic", "mc", "rng", "library_version", "strerror",
           "memory_budget",
           "backend_available", "LIBRARY_PATH", "Error", "NullError", "InvalidError",
           "SizeError", "NoMemoryError", "FileError", "TableError", "EmbeddingError",
           "UnsupportedError", "NotBuiltError", "NoDeviceError", "NoGeometryError",
           "OutOfDomainError", "CallbackError", "FFTError", "DivergentError", "BadPlanError"]
