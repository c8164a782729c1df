#!/usr/bin/env python3
"""writer_netcdf_xarray.py DIR — the netCDF files the installed streaming
writer (tbrf_writer_create with TBRF_WRITER_NETCDF) wrote in DIR, opened by
xarray as a library user would. DIR is test_writer's
roundtrip folder, which holds, for the same values:
- nDP.nc: streamed with tbrf_execute_grid_stream, bDP.nc: pushed backwards
  in 37-cell pieces and compressed, hDP.h5: the plain HDF5 file of one push
  (D = 3 or 2 dimensions, P = 0 double or 1 float: 30, 31, 20);
- the grid: n = (20, 9[, 31]) cells, origin (1.5, -2[, 0.25]), spacing
  (0.5, 0.25[, 0.75]).
Checks: the variable `field` on dimensions (z, y, x) ((y, x) in 2D) of the
stored type, coordinates x, y, z equal to origin + spacing * i (to 1e-12:
xarray may decode them) with CF bounds x_bnds..., the field's values equal
to the HDF5 file's bit for bit (h5py), Conventions = "CF-1.8" and
tbrf_complete = "yes". Exit 77 (skipped) without xarray (python3-xarray,
python3-netcdf4 of scripts/install-deps.sh) or h5py.
"""
import os
import sys

try:
    import h5py
    import numpy as np
    import xarray as xr
except ImportError as e:
    print("skipped: %s" % e)
    sys.exit(77)

DIR = sys.argv[1]
FAILS = []
N = (20, 9, 31)
ORIGIN = (1.5, -2.0, 0.25)
SPACING = (0.5, 0.25, 0.75)


def check(cond, msg):
    if not cond:
        FAILS.append(msg)
        print("FAIL: " + msg)


for dim, prec in ((3, 0), (3, 1), (2, 0)):
    axes = "xyz"[:dim]
    with h5py.File(os.path.join(DIR, "h%d%d.h5" % (dim, prec)), "r") as f:
        want = f["field"][...]
    for kind in "nb":
        name = "%s%d%d.nc" % (kind, dim, prec)
        with xr.open_dataset(os.path.join(DIR, name)) as ds:
            fld = ds["field"]
            check(fld.dims == tuple(reversed(axes)), "%s: field dims %s" % (name, fld.dims))
            check(fld.dtype == (np.float32 if prec else np.float64), "%s: dtype %s" % (name, fld.dtype))
            for a, ax in enumerate(axes):
                c = ds[ax].values
                grid = ORIGIN[a] + SPACING[a] * np.arange(N[a])
                check(c.shape == (N[a],) and np.allclose(c, grid, rtol=0, atol=1e-12),
                      "%s: coordinate %s: %s" % (name, ax, c))
                check(ds[ax].attrs.get("bounds") == ax + "_bnds", "%s: %s has CF bounds" % (name, ax))
                b = ds[ax + "_bnds"].values
                check(b.shape == (N[a], 2) and np.allclose(b[:, 1] - b[:, 0], SPACING[a], rtol=0, atol=1e-12),
                      "%s: %s_bnds one spacing wide" % (name, ax))
            check(fld.shape == want.shape and np.array_equal(fld.values, want),
                  "%s: the values of h%d%d.h5 bit for bit" % (name, dim, prec))
            check(ds.attrs.get("Conventions") == "CF-1.8", "%s: Conventions %s" % (name, ds.attrs.get("Conventions")))
            check(ds.attrs.get("tbrf_complete") == "yes", "%s: tbrf_complete" % name)

if FAILS:
    print("writer_netcdf_xarray: %d failures" % len(FAILS))
    sys.exit(1)
print("writer_netcdf_xarray: the writer's netCDF files open in xarray as their grids")
