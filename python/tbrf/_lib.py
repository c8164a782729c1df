"""_lib — finds libtbrf, declares its C functions and structs for ctypes,
and turns its statuses into exceptions.

Why ctypes (doc/python.md, "Why ctypes"): no extension module is compiled
against Python (the wheel carries libtbrf itself, built by its own CMake),
and any other build of libtbrf can be chosen at import; a ctypes call of a
CDLL function releases the GIL for the whole foreign call; and the structs below are the only mirror of the C
headers to maintain (test_structs checks their sizes against the
library's own defaults functions).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import subprocess
from ctypes import (POINTER, Structure, c_char_p, c_double, c_int, c_int32, c_int64, c_size_t,
                    c_uint32, c_uint64, c_void_p)
from typing import Optional

# ----------------------------------------------------------------- errors


class Error(Exception):
    """A failure reported by libtbrf: `status` is the library's status code
    (tbrf_status), `message` the library's detailed message (str(e))."""

    status = -1

    def __init__(self, message: str, status: Optional[int] = None):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


# One class per status code; each also derives from the built-in exception
# a Python caller would expect, so `except ValueError` catches a bad value.
class NullError(Error, ValueError):
    """TBRF_ERR_NULL: a required argument was missing."""
    status = 1


class InvalidError(Error, ValueError):
    """TBRF_ERR_INVALID: a parameter is NaN, infinite, negative or out of range."""
    status = 2


class SizeError(Error, ValueError):
    """TBRF_ERR_SIZE: a size is zero, negative, too large or over the memory budget."""
    status = 3


class NoMemoryError(Error, MemoryError):
    """TBRF_ERR_NO_MEMORY: an allocation failed."""
    status = 4


class FileError(Error, OSError):
    """TBRF_ERR_FILE: a file could not be opened or read."""
    status = 5


class TableError(Error, ValueError):
    """TBRF_ERR_TABLE: a tabulated spectrum is malformed."""
    status = 6


class EmbeddingError(Error, ValueError):
    """TBRF_ERR_EMBEDDING: circulant embedding stays negative after padding."""
    status = 7


class UnsupportedError(Error, ValueError):
    """TBRF_ERR_UNSUPPORTED: the combination of model, dimension and method is not offered."""
    status = 8


class NotBuiltError(Error, RuntimeError):
    """TBRF_ERR_NOT_BUILT: the backend or feature was not compiled into this libtbrf."""
    status = 9


class NoDeviceError(Error, RuntimeError):
    """TBRF_ERR_NO_DEVICE: the backend is built but found no usable device."""
    status = 10


class NoGeometryError(Error, RuntimeError):
    """TBRF_ERR_NO_GEOMETRY: no grid or points were set (or a driver has no state yet)."""
    status = 11


class OutOfDomainError(Error, ValueError):
    """TBRF_ERR_OUT_OF_DOMAIN: a position lies outside the plan's domain."""
    status = 12


class CallbackError(Error, RuntimeError):
    """TBRF_ERR_CALLBACK: a callback returned non-zero (or raised); the run was aborted."""
    status = 13


class FFTError(Error, RuntimeError):
    """TBRF_ERR_FFT: FFTW could not make a plan."""
    status = 14


class DivergentError(Error, ValueError):
    """TBRF_ERR_DIVERGENT: the model's variance integral diverges or vanishes."""
    status = 15


class BadPlanError(Error, RuntimeError):
    """TBRF_ERR_BAD_PLAN: the object failed to build; its message says why."""
    status = 16


class CancelledError(Error, RuntimeError):
    """TBRF_ERR_CANCELLED: the object's cancel hook stopped the call (the
    package's own hook raises KeyboardInterrupt instead: _common.interruptible)."""
    status = 17


ERRORS = {c.status: c for c in (NullError, InvalidError, SizeError, NoMemoryError, FileError,
                                TableError, EmbeddingError, UnsupportedError, NotBuiltError,
                                NoDeviceError, NoGeometryError, OutOfDomainError, CallbackError,
                                FFTError, DivergentError, BadPlanError, CancelledError)}


def raise_for(status: int, message: Optional[str]) -> None:
    """Raises the exception of `status` with the library's message (or the
    status's text when the library left none); nothing for TBRF_OK."""
    if status == 0:
        return
    if not message:
        message = lib.tbrf_strerror(status).decode()
    raise ERRORS.get(status, Error)(message, status)


def text(p) -> str:
    return p.decode("utf-8", "replace") if p else ""


# ---------------------------------------------------------------- structs


class Opts(Structure):
    _fields_ = [("lines", c_int32), ("oversampling", c_int32), ("line_method", c_int32),
                ("max_padding", c_int32), ("precision", c_int32), ("threads", c_int32),
                ("backend", c_int32), ("device", c_int32), ("work_group", c_int32),
                ("unroll", c_int32), ("method", c_int32), ("periodic", c_int32),
                ("chunk", c_int64), ("line_length_factor", c_int32), ("vector", c_int32),
                ("reserved", c_int32), ("zeta", c_double), ("accuracy", c_double)]


class PlanInfo(Structure):
    _fields_ = [("dim", c_int32), ("lines", c_int32), ("line_samples", c_int64),
                ("line_spacing", c_double), ("line_length", c_double), ("variance", c_double),
                ("variance_resolved", c_double), ("amplitude", c_double), ("padding", c_int32),
                ("backend", c_int32)]


class DriverParams(Structure):
    _fields_ = [("dim", c_int32), ("periodic", c_int32), ("origin", c_double * 3),
                ("length", c_double * 3), ("zeta", c_double), ("tcorr", c_double),
                ("dt_update", c_double), ("rms", c_double), ("injection", c_double),
                ("density", c_double), ("normalization", c_int32), ("interpolate", c_int32),
                ("eval", c_int32), ("threads", c_int32), ("accuracy", c_double),
                ("amplitude_factor", c_double * 3), ("components", c_int32),
                ("directions", c_int32)]


class DriverInfo(Structure):
    _fields_ = [("modes", c_int64), ("eval", c_int32), ("reserved", c_int32),
                ("dt_update", c_double), ("decay", c_double), ("rms_ensemble", c_double),
                ("update", c_int64)]


class CosmoParams(Structure):
    _fields_ = [("box", c_double), ("particles", c_int64), ("redshift", c_double),
                ("omega_m", c_double), ("omega_lambda", c_double), ("omega_b", c_double),
                ("hubble", c_double), ("n_s", c_double), ("sigma8", c_double),
                ("t_cmb", c_double), ("length_per_mpc", c_double), ("mass_unit", c_double),
                ("velocity_unit", c_double), ("wiggles", c_int32), ("gas", c_int32),
                ("seed", c_uint64), ("lpt", c_int32), ("fixed_amplitude", c_int32),
                ("paired", c_int32), ("reserved_lpt", c_int32),
                ("power", c_void_p), ("glass", c_void_p),
                ("glass_n", c_int64), ("glass_box", c_double), ("gas_temperature", c_double),
                ("gas_mu", c_double), ("gas_gamma", c_double),
                # the gas's own spectrum, the amplitude kept, the gas volumes
                ("power_gas", c_void_p), ("keep_amplitude", c_int32), ("gas_volumes", c_int32),
                # two fluids: the dark matter's own spectrum, each species' velocity
                ("power_dm", c_void_p), ("velocity_dm", c_void_p), ("velocity_gas", c_void_p)]


class CosmoInfo(Structure):
    _fields_ = [("particles", c_int64), ("glass_tile", c_int64), ("scale_factor", c_double),
                ("growth", c_double), ("growth_rate", c_double), ("hubble", c_double),
                ("velocity_factor", c_double), ("mass_dm", c_double), ("mass_gas", c_double),
                ("shift_dm", c_double), ("shift_gas", c_double), ("gas_temperature", c_double),
                ("internal_energy", c_double), ("growth2", c_double), ("growth_rate2", c_double),
                ("velocity_factor2", c_double)]


class Chunk(Structure):
    _fields_ = [("chunk", c_int64), ("first", c_int64), ("count", c_int64),
                ("pos", c_void_p), ("vel", c_void_p), ("gas_pos", c_void_p),
                ("gas_u", c_void_p), ("gas_vel", c_void_p), ("gas_mass", c_void_p)]


class ZoomParams(Structure):
    _fields_ = [("refinement", c_int32), ("region", c_int32), ("lo", c_double * 3),
                ("hi", c_double * 3), ("centre", c_double * 3), ("radius", c_double),
                ("ids", c_void_p), ("n_ids", c_int64), ("pad", c_int32), ("levels", c_int32)]


class ZoomInfo(Structure):
    _fields_ = [("region_cells", c_int64), ("fine", c_int64), ("coarse", c_int64),
                ("levels", c_int64), ("level_particles", c_int64 * 7), ("gas", c_int64),
                ("mass_fine", c_double), ("mass_coarse", c_double), ("mass_gas", c_double),
                ("extent_lo", c_int64 * 3), ("extent_width", c_int64 * 3),
                ("scale_factor", c_double), ("growth", c_double), ("growth_rate", c_double),
                ("velocity_factor", c_double), ("growth2", c_double), ("growth_rate2", c_double),
                ("velocity_factor2", c_double), ("gas_temperature", c_double),
                ("internal_energy", c_double)]


class ZoomPart(Structure):
    _fields_ = [("n", c_int64), ("pos", c_void_p), ("vel", c_void_p), ("u", c_void_p),
                ("mass", c_void_p), ("row", c_void_p)]


class PointsParams(Structure):
    _fields_ = [("kind", c_int32), ("reserved", c_int32), ("per_axis", c_int64),
                ("n", c_int64), ("box", c_double), ("jitter", c_double), ("seed", c_uint64),
                ("realization", c_uint64)]


class DensityParams(Structure):
    _fields_ = [("kind", c_int32), ("reserved", c_int32), ("rho_mean", c_double),
                ("sigma", c_double), ("rho_floor", c_double)]


def struct_dict(s: Structure) -> dict:
    """The fields of a struct as a dict (arrays as tuples, reserved left out)."""
    out = {}
    for name, _ in s._fields_:
        if name == "reserved":
            continue
        v = getattr(s, name)
        out[name] = tuple(v) if isinstance(v, ctypes.Array) else v
    return out


# -------------------------------------------------------------- callbacks

SPECTRUM_FN = ctypes.CFUNCTYPE(c_double, c_double, c_int, c_void_p)
PULL_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_int64, c_int64, c_void_p, POINTER(c_int64))
PUSH_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_int64, c_int64, c_void_p)
IC_PUSH_FN = ctypes.CFUNCTYPE(c_int, c_void_p, POINTER(Chunk))
CANCEL_FN = ctypes.CFUNCTYPE(c_int, c_void_p)
MC_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_int64, c_int, c_void_p, c_void_p)

# ------------------------------------------------------------- prototypes

P = c_void_p  # handles and arrays are passed as addresses
OUT_D, OUT_I64 = POINTER(c_double), POINTER(c_int64)
_PROTOS = {
    # common.h
    "tbrf_strerror": (c_char_p, [c_int]),
    "tbrf_version": (c_char_p, []),
    "tbrf_default_opts": (None, [POINTER(Opts)]),
    "tbrf_memory_budget": (c_int, [POINTER(c_uint64)]),
    # model.h
    "tbrf_model_powerlaw": (c_int, [c_double, c_double, c_double, POINTER(P)]),
    "tbrf_model_table": (c_int, [c_size_t, P, P, POINTER(P)]),
    "tbrf_model_table_file": (c_int, [c_char_p, POINTER(P)]),
    "tbrf_model_table_data": (c_int, [P, POINTER(c_size_t), P, P]),
    "tbrf_model_callback": (c_int, [SPECTRUM_FN, P, c_double, c_double, POINTER(P)]),
    "tbrf_model_set_variance": (c_int, [P, c_double]),
    "tbrf_model_set_amplitude": (c_int, [P, c_double]),
    "tbrf_model_set_band": (c_int, [P, c_double, c_double]),
    "tbrf_model_set_anisotropy": (c_int, [P, POINTER(c_double), POINTER(c_double)]),
    "tbrf_model_anisotropy": (c_int, [P, POINTER(c_double), POINTER(c_double)]),
    "tbrf_model_spectrum": (c_double, [P, c_int, c_double]),
    "tbrf_model_covariance": (c_double, [P, c_int, c_double]),
    "tbrf_model_variance": (c_double, [P, c_int]),
    "tbrf_model_describe": (c_char_p, [P]),
    "tbrf_model_message": (c_char_p, [P]),
    "tbrf_model_status": (c_int, [P]),
    "tbrf_model_destroy": (None, [P]),
    "tbrf_model_kind_name": (c_char_p, [c_int]),
    "tbrf_model_kind_params": (c_int, [c_char_p, POINTER(c_int), POINTER(c_int)]),
    "tbrf_model_make": (c_int, [c_char_p, c_double, c_double, c_double, c_double, c_double,
                                POINTER(P)]),
    "tbrf_model_make_params": (c_int, [c_char_p, c_int, POINTER(c_char_p), POINTER(c_double),
                                       POINTER(P)]),
    "tbrf_model_param_name": (c_char_p, [c_int]),
    "tbrf_model_kind_summary": (c_char_p, [c_char_p]),
    "tbrf_model_tail_slope": (c_double, [P, c_int]),
    "tbrf_model_lognormal": (c_int, [P, c_int, c_double, c_double, c_double, c_double, OUT_D,
                                     POINTER(P)]),
    "tbrf_lognormal_sigma2_mach": (c_double, [c_double, c_double]),
    # plan.h
    "tbrf_make_plan": (c_int, [P, c_int, P, P, c_double, c_uint64, POINTER(Opts), POINTER(P)]),
    "tbrf_make_periodic_plan": (c_int, [P, c_int, P, P, P, c_uint64, POINTER(Opts),
                                        POINTER(P)]),
    "tbrf_set_grid": (c_int, [P, P, P, P]),
    "tbrf_set_subgrid": (c_int, [P, P, P, P, P, P]),
    "tbrf_set_points": (c_int, [P, c_int64, P]),
    "tbrf_plan_count": (c_int64, [P]),
    "tbrf_execute": (c_int, [P, c_uint64, P]),
    "tbrf_execute_stream": (c_int, [P, c_uint64, PULL_FN, PUSH_FN, P]),
    "tbrf_execute_grid_stream": (c_int, [P, c_uint64, PUSH_FN, P]),
    "tbrf_plan_get_info": (c_int, [P, POINTER(PlanInfo)]),
    "tbrf_grid_default_domain": (c_int, [c_int, P, P, P, P, P, OUT_D]),
    "tbrf_points_bounds": (c_int, [c_int, c_int64, P, P, P, OUT_I64]),
    "tbrf_points_resolution": (c_int, [c_int, c_int64, P, P, OUT_D]),
    "tbrf_periodic_points_resolution": (c_int, [c_int, P, c_int64, OUT_D]),
    "tbrf_periodic_default_modes": (c_int, [c_int, P, P, P]),
    "tbrf_plan_method": (c_int, [P]),
    "tbrf_set_cancel": (c_int, [P, CANCEL_FN, P]),
    "tbrf_plan_status": (c_int, [P]),
    "tbrf_plan_message": (c_char_p, [P]),
    "tbrf_destroy": (None, [P]),
    "tbrf_backend_name": (c_char_p, [c_int]),
    "tbrf_backend_available": (c_int, [c_int]),
    # cosmology.h
    "tbrf_cosmo_hubble": (c_int, [c_double, c_double, c_double, OUT_D]),
    "tbrf_cosmo_growth": (c_int, [c_double, c_double, c_double, OUT_D]),
    "tbrf_cosmo_growth_rate": (c_int, [c_double, c_double, c_double, OUT_D]),
    "tbrf_cosmo_growth2": (c_int, [c_double, c_double, c_double, OUT_D, OUT_D]),
    "tbrf_cosmo_eh_transfer": (c_int, [c_double, c_double, c_double, c_double, c_int, c_double,
                                       OUT_D]),
    "tbrf_cosmo_sigma_r": (c_int, [P, c_double, OUT_D]),
    "tbrf_model_normalize_sigma": (c_int, [P, c_double, c_double]),
    "tbrf_model_eisenstein_hu": (c_int, [c_double, c_double, c_double, c_double, c_double, c_int,
                                         c_double, c_double, POINTER(P)]),
    # driver.h
    "tbrf_driver_default_params": (None, [POINTER(DriverParams)]),
    "tbrf_driver_make": (c_int, [P, c_uint64, POINTER(DriverParams), POINTER(P)]),
    "tbrf_driver_params_from_turbgen": (c_int, [ctypes.c_char_p, POINTER(DriverParams),
                                                POINTER(c_uint64), POINTER(P), ctypes.c_char_p,
                                                c_int64]),
    "tbrf_driver_points": (c_int, [P, c_double, c_int64, P, P]),
    "tbrf_driver_grid": (c_int, [P, c_double, P, P, P, P]),
    "tbrf_driver_stream": (c_int, [P, c_double, PULL_FN, PUSH_FN, P]),
    "tbrf_driver_rms": (c_int, [P, c_double, OUT_D]),
    "tbrf_driver_modes": (c_int, [P, c_double, OUT_I64, P, P]),
    "tbrf_driver_get_info": (c_int, [P, POINTER(DriverInfo)]),
    "tbrf_driver_set_cancel": (c_int, [P, CANCEL_FN, P]),
    "tbrf_driver_state_size": (c_int64, [P]),
    "tbrf_driver_save": (c_int, [P, P, c_int64]),
    "tbrf_driver_load": (c_int, [P, P, c_int64]),
    "tbrf_driver_state_params": (c_int, [ctypes.c_char_p, c_int64, POINTER(DriverParams),
                                         POINTER(c_uint64), ctypes.c_char_p, c_int64]),
    "tbrf_driver_amplitude_adjust": (c_int, [c_int32, P, P, c_double, c_double, c_double,
                                             c_double, P, ctypes.c_char_p, c_int64]),
    "tbrf_driver_status": (c_int, [P]),
    "tbrf_driver_message": (c_char_p, [P]),
    "tbrf_driver_destroy": (None, [P]),
    "tbrf_driver_set_backend": (c_int, [P, c_int, c_int]),
    "tbrf_driver_backend": (c_int, [P]),
    # inflow.h
    "tbrf_inflow_tube": (c_int, [c_int, P, P, P, c_double, P, P]),
    "tbrf_inflow_set_cancel": (c_int, [P, CANCEL_FN, P]),
    "tbrf_inflow_create": (c_int, [P, c_int, P, P, c_double, c_uint64, c_uint64, POINTER(Opts),
                                   P, c_int, POINTER(P)]),
    "tbrf_inflow_create_periodic": (c_int, [P, c_int, P, P, P, c_double, c_uint64, c_uint64,
                                            POINTER(Opts), P, POINTER(P)]),
    "tbrf_inflow_set_density": (c_int, [P, c_int, c_double, c_double, c_double]),
    "tbrf_inflow_fill": (c_int, [P, c_double, c_int64, P, P]),
    "tbrf_inflow_fill_grid": (c_int, [P, c_double, P, P, P, P]),
    "tbrf_inflow_line_bytes": (c_int64, [P, c_int]),
    "tbrf_inflow_message": (c_char_p, [P]),
    "tbrf_inflow_destroy": (None, [P]),
    # ic.h
    "tbrf_ic_default_cosmo": (None, [POINTER(CosmoParams)]),
    "tbrf_ic_cosmo_bytes": (c_int, [POINTER(CosmoParams), c_int64, OUT_D, OUT_I64]),
    "tbrf_ic_cosmo_make": (c_int, [POINTER(CosmoParams), POINTER(P)]),
    "tbrf_ic_cosmo_get_params": (c_int, [P, POINTER(CosmoParams)]),
    "tbrf_ic_cosmo_get_info": (c_int, [P, POINTER(CosmoInfo)]),
    "tbrf_ic_cosmo_generate": (c_int, [P, c_int64, IC_PUSH_FN, P]),
    "tbrf_ic_cosmo_displacements": (c_int, [P, P]),
    "tbrf_ic_cosmo_displacements2": (c_int, [P, P]),
    "tbrf_ic_cosmo_set_cancel": (c_int, [P, CANCEL_FN, P]),
    "tbrf_ic_cosmo_status": (c_int, [P]),
    "tbrf_ic_cosmo_message": (c_char_p, [P]),
    "tbrf_ic_cosmo_destroy": (None, [P]),
    "tbrf_ic_default_zoom": (None, [POINTER(ZoomParams)]),
    "tbrf_ic_zoom_bytes": (c_int, [POINTER(CosmoParams), POINTER(ZoomParams), OUT_D]),
    "tbrf_ic_zoom_make": (c_int, [POINTER(CosmoParams), POINTER(ZoomParams), POINTER(P)]),
    "tbrf_ic_zoom_get_params": (c_int, [P, POINTER(CosmoParams), POINTER(ZoomParams)]),
    "tbrf_ic_zoom_get_info": (c_int, [P, POINTER(ZoomInfo)]),
    "tbrf_ic_zoom_particles": (c_int, [P, c_int, POINTER(ZoomPart)]),
    "tbrf_ic_zoom_level": (c_int, [P, c_int64, c_int64, c_int64]),
    "tbrf_ic_zoom_status": (c_int, [P]),
    "tbrf_ic_zoom_message": (c_char_p, [P]),
    "tbrf_ic_zoom_destroy": (None, [P]),
    "tbrf_ic_glass_tile": (c_int, [c_int64, P, c_double, c_int64, OUT_I64, c_char_p, c_size_t]),
    "tbrf_ic_glass_sites": (c_int, [c_int64, P, c_double, c_int64, c_double, c_int64, c_int64,
                                    P]),
    "tbrf_ic_default_points": (None, [POINTER(PointsParams)]),
    "tbrf_ic_points_count": (c_int64, [POINTER(PointsParams)]),
    "tbrf_ic_points": (c_int, [POINTER(PointsParams), c_int64, c_int64, P, c_char_p, c_size_t]),
    "tbrf_ic_default_density": (None, [POINTER(DensityParams)]),
    "tbrf_ic_density": (c_int, [POINTER(DensityParams), c_int64, P, P, c_char_p, c_size_t]),
    "tbrf_ic_density_volumes": (c_int, [POINTER(DensityParams), c_int64, P, P, c_double, P,
                                        c_char_p, c_size_t]),
    "tbrf_ic_voronoi_volumes": (c_int, [c_int64, P, c_double, P, c_char_p, c_size_t]),
    "tbrf_ic_transfer_power": (c_int, [c_char_p, c_int32, c_double, POINTER(c_int32), POINTER(P),
                                       c_char_p, c_size_t]),
    "tbrf_ic_transfer_velocity": (c_int, [c_char_p, c_int32, c_double, c_double, POINTER(P),
                                          c_char_p, c_size_t]),
    # rng.h
    "tbrf_rng_name": (c_char_p, [c_int]),
    "tbrf_rng_u32": (c_int, [c_int, c_uint64, c_uint64, c_uint64, c_int64, P]),
    "tbrf_rng_double": (c_int, [c_int, c_uint64, c_uint64, c_uint64, c_int64, c_int, P]),
    "tbrf_rng_float": (c_int, [c_int, c_uint64, c_uint64, c_uint64, c_int64, c_int, P]),
    "tbrf_rng_philox4x32": (None, [P, P, P]),
    "tbrf_rng_tea8": (None, [P, P]),
    "tbrf_rng_seed_prehash": (c_uint32, [c_uint32]),
    "tbrf_rng_saru_seed": (c_int, [c_int, P, P]),
    "tbrf_rng_saru_next": (c_int, [P, c_int64, P]),
    "tbrf_rng_saru_jump": (c_int, [P, c_uint64]),
    "tbrf_rng_stream_id": (c_int, [c_uint32, c_uint32, c_uint32, P]),
    "tbrf_rng_stream_pair": (c_int, [c_uint32, c_uint32, c_uint32, c_uint32, P]),
    "tbrf_rng_lcg64_jump": (c_uint64, [c_uint64, c_uint64]),
    "tbrf_rng_lcg64_block": (c_int, [c_int64, P, P]),
    # mc.h
    "tbrf_mc_integrand_name": (c_char_p, [c_int]),
    "tbrf_mc_exact": (c_int, [c_int, c_int, P, P, OUT_D]),
    "tbrf_mc_integrate": (c_int, [c_int, c_int, P, P, c_int64, c_uint64, c_int, c_int64, P]),
    "tbrf_mc_integrate_fn": (c_int, [MC_FN, P, c_int, P, P, c_int64, c_uint64, c_int, c_int64,
                                     P]),
    "tbrf_mc_integrate_device": (c_int, [c_int, c_int, c_int, c_int, P, P, c_int64, c_uint64,
                                         P]),
    "tbrf_mc_measure_beta": (c_int, [OUT_D]),
    "tbrf_mc_block_size": (c_int, [c_int64, c_int, c_double, OUT_I64]),
}


def _candidates() -> list:
    """Where the library is looked for, in order (doc/python.md, "How the
    package finds libtbrf")."""
    env = os.environ.get("TBRF_LIBRARY")
    if env:
        return [env]  # asked for explicitly: nothing else is tried
    found = []
    # the library a wheel bundles beside these modules (pip install ./python)
    bundled = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libtbrf.so")
    if os.path.exists(bundled):
        found.append(bundled)
    pkg = shutil.which("pkg-config")
    if pkg:
        try:
            libdir = subprocess.run([pkg, "--variable=libdir", "tbrf"], capture_output=True,
                                    text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            libdir = ""
        if libdir:
            found.append(os.path.join(libdir, "libtbrf.so"))
    name = ctypes.util.find_library("tbrf")
    if name:
        found.append(name)
    return found + build_tree_libraries("c", "libtbrf.so")


def build_tree_libraries(sub: str, name: str) -> list:
    """build*/SUB/NAME of a build tree next to this source tree (an
    editable install or PYTHONPATH=python), in the order of the folders'
    names; nothing when the package is not in a source tree."""
    found = []
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if os.path.isdir(os.path.join(root, "include", "tbrf")):
        for d in sorted(os.listdir(root)):
            p = os.path.join(root, d, sub, name)
            if d.startswith("build") and os.path.exists(p):
                found.append(p)
    return found


# The libtbrf this package's prototypes and structs mirror: its major and
# minor version. While the version is 0.x every minor release may change
# the ABI (doc/design.md, "Versions"), so another minor is refused at
# import, naming both versions, rather than failing later with an
# undefined symbol or, worse, a struct of another layout.
LIBRARY_SERIES = (0, 8)
# tbrf.__version__: the library's version (the top CMakeLists.txt's
# project(), which the wheel's metadata also takes; test_version.py checks
# that all three agree)
PACKAGE_VERSION = "0.8.0"


def _series_text() -> str:
    return ".".join(map(str, LIBRARY_SERIES))


def check_version(found: str, path: str) -> None:
    """Refuses a libtbrf of another ABI series than LIBRARY_SERIES
    (ImportError naming the package's version, the series it needs, the
    library's version and its path)."""
    try:
        got = tuple(int(x) for x in found.split(".")[:2])
    except ValueError:
        got = ()
    ok = got == LIBRARY_SERIES if LIBRARY_SERIES[0] == 0 else \
        (len(got) == 2 and got[0] == LIBRARY_SERIES[0] and got[1] >= LIBRARY_SERIES[1])
    if not ok:
        raise ImportError(f"tbrf: the Python package {PACKAGE_VERSION} needs libtbrf "
                          f"{_series_text()}.x, but {path} is libtbrf {found or '(no version)'}; "
                          "install the package and the library from one release, or set "
                          "TBRF_LIBRARY to a matching libtbrf.so")


# The C integer types the prototypes take, with their ranges: ctypes
# converts a Python integer modulo 2^bits (2**64 + 8 becomes 8, -1 a
# uint64's 2^64 - 1), so every call checks its integer arguments first.
_INT_TYPES = (c_int, c_int32, c_int64, c_uint32, c_uint64, c_size_t)


def _int_range(t) -> tuple:
    bits = 8 * ctypes.sizeof(t)
    if t(-1).value == -1:
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def _guarded(fname: str, fn, argtypes: list):
    """fn, behind a check that each integer argument fits its C type
    (ValueError naming the function, the argument and the range)."""
    checks = [(i, t.__name__, *_int_range(t)) for i, t in enumerate(argtypes)
              if t in _INT_TYPES]
    if not checks:
        return fn

    def call(*args):
        for i, tname, lo, hi in checks:
            if i < len(args) and not isinstance(args[i], bool):
                try:
                    v = args[i].__index__()
                except (AttributeError, TypeError):
                    continue  # ctypes itself refuses what is no integer
                if not lo <= v <= hi:
                    raise ValueError(f"{fname}: argument {i + 1} = {v} does not fit its C type "
                                     f"{tname} ({lo} to {hi})")
        return fn(*args)
    call.__name__ = fname
    return call


def bind(handle, path: str):
    """Checks the library's version and declares the prototypes on handle;
    a missing function (a library of another release) is an ImportError
    naming both versions."""
    try:
        version_fn = handle.tbrf_version
    except AttributeError:
        raise ImportError(f"tbrf: {path} has no tbrf_version: not a libtbrf") from None
    version_fn.restype, version_fn.argtypes = c_char_p, []
    found = (version_fn() or b"").decode(errors="replace")
    check_version(found, path)
    for fname, (restype, argtypes) in _PROTOS.items():
        try:
            fn = getattr(handle, fname)
        except AttributeError:
            raise ImportError(f"tbrf: the Python package {PACKAGE_VERSION} (for libtbrf "
                              f"{_series_text()}.x) needs {fname}, which libtbrf {found} at "
                              f"{path} does not have: install the package and the library "
                              "from one release") from None
        fn.restype = restype
        fn.argtypes = argtypes
        setattr(handle, fname, _guarded(fname, fn, argtypes))
    return handle


def _load() -> ctypes.CDLL:
    tried = []
    for path in _candidates():
        try:
            handle = ctypes.CDLL(path)
            break
        except OSError as e:
            tried.append(f"{path}: {e}")
    else:
        raise ImportError("tbrf: libtbrf not found; set TBRF_LIBRARY to the path of libtbrf.so, "
                          "or install tbrf where pkg-config or the dynamic loader finds it"
                          + (" (tried: " + "; ".join(tried) + ")" if tried else ""))
    return bind(handle, path)


lib = _load()
LIBRARY_PATH: str = lib._name
