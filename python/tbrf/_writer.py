"""The installed writer libtbrf_writer (include/tbrf_arepo.h) for the
package's initial conditions: tbrf.ic.write_arepo writes a CosmoIC as the
AREPO HDF5 or Gadget set `tbrf arepo cosmo` writes, through the same C
function (tbrf_arepo_write_cosmo), so that the files are the command's bit
for bit. The writer links HDF5, which libtbrf does not: it is loaded on
first use, and a package without it (a wheel, which bundles libtbrf alone)
says so then (doc/python.md, "Writing initial conditions")."""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading
from ctypes import POINTER, Structure, c_char, c_char_p, c_int, c_int32, c_size_t, c_void_p
from typing import Optional

from ._lib import LIBRARY_PATH, FileError, NotBuiltError, build_tree_libraries

FORMATS = {"hdf5": 0, "gadget1": 1, "gadget2": 2}


class CosmoFile(Structure):
    """tbrf_arepo_cosmo_file (include/tbrf_arepo.h)."""
    _fields_ = [("num_files", c_int32), ("double_precision", c_int32), ("long_ids", c_int32),
                ("format", c_int32), ("command", c_char_p), ("power_name", c_char_p),
                ("glass_name", c_char_p), ("power_digest", c_char_p),
                ("gas_power_name", c_char_p)]


_lock = threading.Lock()
_handle: Optional[ctypes.CDLL] = None


def _candidates() -> list:
    """Where libtbrf_writer is looked for: $TBRF_WRITER_LIBRARY alone if set;
    else beside the libtbrf this package loaded (an install's libdir), the
    dynamic loader's search, and a build tree next to these sources
    (build*/io)."""
    env = os.environ.get("TBRF_WRITER_LIBRARY")
    if env:
        return [env]
    found = [os.path.join(os.path.dirname(os.path.abspath(LIBRARY_PATH)), "libtbrf_writer.so")]
    name = ctypes.util.find_library("tbrf_writer")
    if name:
        found.append(name)
    return found + build_tree_libraries("io", "libtbrf_writer.so")


def writer() -> ctypes.CDLL:
    """libtbrf_writer, loaded once (NotBuiltError naming where it was looked
    for when there is none)."""
    global _handle
    with _lock:
        if _handle is not None:
            return _handle
        tried = []
        for path in _candidates():
            if not os.path.exists(path) and os.sep in path:
                tried.append(f"{path}: no such file")
                continue
            try:
                h = ctypes.CDLL(path)
                break
            except OSError as e:
                tried.append(f"{path}: {e}")
        else:
            raise NotBuiltError("tbrf.ic.write_arepo needs libtbrf_writer (built with tbrf's "
                                "io library and HDF5; a wheel bundles libtbrf alone): install "
                                "tbrf with it or set TBRF_WRITER_LIBRARY to its path (tried: "
                                + "; ".join(tried) + ")")
        h.tbrf_arepo_default_cosmo_file.restype = None
        h.tbrf_arepo_default_cosmo_file.argtypes = [POINTER(CosmoFile)]
        h.tbrf_arepo_write_cosmo.restype = c_int
        h.tbrf_arepo_write_cosmo.argtypes = [c_char_p, c_void_p, POINTER(CosmoFile),
                                             POINTER(c_char), c_size_t]
        h.tbrf_arepo_write_zoom.restype = c_int
        h.tbrf_arepo_write_zoom.argtypes = [c_char_p, c_void_p, POINTER(CosmoFile),
                                            POINTER(c_char), c_size_t]
        _handle = h
        return h


def _bytes(s: Optional[str], what: str) -> Optional[bytes]:
    if s is None:
        return None
    if not isinstance(s, str) or "\0" in s:
        raise TypeError(f"{what} must be a str without NUL bytes")
    return s.encode()


def cosmo_file(num_files: int, precision: Optional[str], long_ids: bool, fmt: str, command: Optional[str],
               power_name: Optional[str], glass_name: Optional[str],
               gas_power_name: Optional[str]) -> tuple:
    """The C options of write_arepo, checked (and the bytes they point to,
    which the caller keeps alive for the call)."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if precision is None:
        precision = "double" if fmt == "hdf5" else "float"
    if precision not in ("double", "float"):
        raise ValueError(f"precision must be 'double' or 'float', not {precision!r}")
    if isinstance(num_files, bool) or not isinstance(num_files, int) or not 1 <= num_files <= 65536:
        raise ValueError(f"num_files must be an integer in 1 .. 65536, not {num_files!r}")
    f = CosmoFile()
    writer().tbrf_arepo_default_cosmo_file(ctypes.byref(f))
    keep = [_bytes(command, "command"), _bytes(power_name, "power_name"),
            _bytes(glass_name, "glass_name"), _bytes(gas_power_name, "gas_power_name")]
    f.num_files = num_files
    f.double_precision = 1 if precision == "double" else 0
    f.long_ids = 1 if long_ids else 0
    f.format = FORMATS[fmt]
    f.command, f.power_name, f.glass_name, f.gas_power_name = keep
    return f, keep


def write_cosmo(base: str, handle: ctypes.c_void_p, f: CosmoFile, zoom: bool = False) -> None:
    """tbrf_arepo_write_cosmo (zoom: tbrf_arepo_write_zoom of a zoom's
    handle); FileError with its one-line reason."""
    if not isinstance(base, (str, os.PathLike)):
        raise TypeError("base must be a path")
    b = os.fsencode(base)
    if not b or b"\0" in b:
        raise ValueError("base must be a non-empty path without NUL bytes")
    err = ctypes.create_string_buffer(1024)
    w = writer().tbrf_arepo_write_zoom if zoom else writer().tbrf_arepo_write_cosmo
    if w(b, handle, ctypes.byref(f), err, len(err)) != 0:
        raise FileError(err.value.decode(errors="replace"))
