#!/usr/bin/env python3
"""netcdf_xarray.py TBRF WORKDIR — the netCDF files `tbrf generate` writes,
opened by xarray as a newcomer would (open all of it in ParaView and
xarray):
- a 3D grid of spacing (0.5, 1, 2) and origin (1, 2, 3): the variable
  `field` on dimensions (z, y, x), coordinates x, y, z at origin + spacing*i
  with their CF bounds, the values those h5py reads from the same file;
- points: `value` on `obs` with coordinate variables x, y, z equal to the
  positions the HDF5 output of the same field holds, and the same values;
- a periodic solenoidal vector field at points: value_x, value_y, value_z,
  equal to the HDF5 file's /value columns.
Exit 77 (skipped) without xarray (python3-xarray, python3-netcdf4 of
scripts/install-deps.sh) or h5py.
"""
import os
import subprocess
import sys

try:
    import h5py
    import numpy as np
    import xarray as xr
except ImportError as e:
    print("skipped: %s" % e)
    sys.exit(77)

TBRF, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
os.chdir(WORK)
FAILS = []


def check(cond, msg):
    if not cond:
        FAILS.append(msg)
        print("FAIL: " + msg)


def run(*args):
    p = subprocess.run([TBRF, *args], capture_output=True, text=True)
    check(p.returncode == 0, "%s: exit %d: %s" % (args, p.returncode, p.stderr))


run("generate", "--model", "gaussian", "--length", "3", "--grid", "16x12x8", "--spacing",
    "0.5,1,2", "--origin", "1,2,3", "--quiet", "--out", "g.nc")
with xr.open_dataset("g.nc") as ds, h5py.File("g.nc", "r") as f:
    check(ds["field"].dims == ("z", "y", "x"), "field dims %s" % (ds["field"].dims,))
    for a, o, h, n in (("x", 1, 0.5, 16), ("y", 2, 1, 12), ("z", 3, 2, 8)):
        c = ds[a].values
        check(c.shape == (n,) and np.allclose(c, o + h * np.arange(n), rtol=0, atol=1e-12),
              "coordinate %s: %s" % (a, c))
        check(ds[a].attrs.get("bounds") == a + "_bnds", "%s has CF bounds" % a)
    check(np.array_equal(ds["field"].values, f["field"][...]), "grid values as h5py reads them")

# points: a text file of positions, then the same field to HDF5 and netCDF
rng = np.random.default_rng(3)
xyz = rng.uniform(0, 10, (500, 3))
np.savetxt("p.txt", xyz)
run("generate", "--model", "gaussian", "--length", "3", "--points", "p.txt", "--quiet",
    "--out", "p.nc")
run("generate", "--model", "gaussian", "--length", "3", "--points", "p.txt", "--quiet",
    "--out", "p.h5")
with xr.open_dataset("p.nc") as ds, h5py.File("p.h5", "r") as f:
    check(ds["value"].dims == ("obs",), "points dims %s" % (ds["value"].dims,))
    pos = np.stack([ds[a].values for a in "xyz"], axis=1)
    check(np.array_equal(pos, f["points"][...]), "point coordinates x, y, z")
    check(np.array_equal(ds["value"].values, f["value"][...]), "point values equal the HDF5 file's")

# a periodic solenoidal vector field at the same points
box = ["--model", "gaussian", "--length", "1", "--periodic", "--box", "10", "--points", "p.txt",
       "--vector", "solenoidal", "--quiet"]
run("generate", *box, "--out", "v.nc")
run("generate", *box, "--out", "v.h5")
with xr.open_dataset("v.nc") as ds, h5py.File("v.h5", "r") as f:
    v = f["value"][...]
    for c, a in enumerate("xyz"):
        check(ds["value_" + a].dims == ("obs",), "value_%s dims" % a)
        check(np.array_equal(ds["value_" + a].values, v[:, c]), "value_%s equals /value[:, %d]" % (a, c))

if FAILS:
    sys.exit(1)
print("netCDF grid, points and vector files open in xarray %s as written" % xr.__version__)
