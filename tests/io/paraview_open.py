"""paraview_open.py TBRF DIR — the files `tbrf` writes opened by ParaView's
own Python (pvpython, ParaView 5.11 of Debian's paraview/python3-paraview)
as a user would, with no code but the reader's name (doc/cli.md, "Looking
at the files"):

  - HDF5 grids through their XDMF side files, by OpenDataFile's default
    reader (Xdmf3ReaderS), from "./NAME.xmf", "sub/NAME.xmf" and an
    absolute path: a 3D grid with anisotropic spacing and an origin, a 2D
    grid, points, a 3D vector grid (3 components); the points, bounds,
    origin and spacing, and the field's values against h5py's;
  - `tbrf drive` series (grid and points, and three components in a 2D
    and a 1D box) as temporal collections: the times, the bounds, and
    the first and last frames' vectors against /field, /value;
    the 3D series played as an animation (the scene's time steps from the
    data, every frame stepped through GoToNext) showing each time's row;
  - the bare "NAME.xmf", which crashes the Xdmf3 reader of ParaView 5.11
    (it takes the file name for its directory and looks for
    NAME.xmfNAME.h5), through the XDMF (Xdmf2) reader instead;
  - netCDF grids through the CF reader (NetCDFReader) with its Spherical
    Coordinates off, which the docs name because OpenDataFile picks the
    NetCDF CAM reader for .nc files (0 points): the HDF5 file's grid and
    values.

Run by tests/io/CMakeLists.txt as `pvpython paraview_open.py ...`; the
ctest wrapper exits 77 (skipped) where pvpython is not installed."""
import os
import subprocess
import sys

from paraview import servermanager
from paraview.simple import (OpenDataFile, XDMFReader, NetCDFReader, Delete, GetAnimationScene,
                             GetTimeKeeper)
from vtk.util.numpy_support import vtk_to_numpy

try:
    import h5py
    import numpy as np
except ImportError:
    print("h5py/numpy not importable from pvpython: skipped")
    sys.exit(77)

tbrf, work = sys.argv[1], sys.argv[2]
os.makedirs(os.path.join(work, "sub"), exist_ok=True)
os.chdir(work)
fails = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        fails.append(what)


def gen(*args):
    subprocess.run([tbrf, "generate", "--model", "powerlaw", "--index", "-3", "--kmin", "0.3",
                    "--kmax", "3", "--seed", "5", "--quiet", *args], check=True,
                   stderr=subprocess.DEVNULL)


def fetch(reader):
    reader.UpdatePipeline()
    return servermanager.Fetch(reader)


def values(d, name):
    a = d.GetPointData().GetArray(name) or d.GetCellData().GetArray(name)
    return None if a is None else vtk_to_numpy(a)


gen("--grid", "12x10x8", "--spacing", "0.5,1,2", "--origin", "1,2,3", "--out", "g3.h5")
gen("--grid", "12x10x8", "--spacing", "0.5,1,2", "--origin", "1,2,3", "--out", "sub/g3.h5")
gen("--grid", "20x16", "--spacing", "0.25", "--out", "g2.h5")
gen("--grid", "8x8x8", "--vector", "solenoidal", "--out", "v3.h5")
with open("pts.txt", "w") as f:
    f.write("0 0 0\n1 0.5 0.25\n0.2 0.9 0.7\n0.4 0.4 0.1\n")
gen("--points", "pts.txt", "--out", "p.h5")
gen("--grid", "12x10x8", "--spacing", "0.5,1,2", "--origin", "1,2,3", "--out", "g3.nc")

g3 = h5py.File("g3.h5", "r")["field"][()]
for form in ("./g3.xmf", "sub/g3.xmf", os.path.abspath("g3.xmf")):
    r = OpenDataFile(form)
    d = fetch(r)
    check(r.GetXMLName() == "Xdmf3ReaderS", f"{form}: the default reader is {r.GetXMLName()}")
    check(d.GetNumberOfPoints() == 12 * 10 * 8, f"{form}: {d.GetNumberOfPoints()} points")
    check(np.allclose(d.GetBounds(), (1, 6.5, 2, 11, 3, 17)), f"{form}: bounds {d.GetBounds()}")
    v = values(d, "field")
    check(v is not None and np.array_equal(v, g3.ravel()), f"{form}: the values are /field's")
    Delete(r)

r = XDMFReader(FileNames=["g3.xmf"])
d = fetch(r)
check(d.GetNumberOfPoints() == 960 and np.allclose(d.GetBounds(), (1, 6.5, 2, 11, 3, 17)),
      f"bare g3.xmf through the Xdmf2 reader: {d.GetNumberOfPoints()} points, {d.GetBounds()}")
check(np.array_equal(values(d, "field"), g3.ravel()), "bare g3.xmf: the values are /field's")

r = OpenDataFile("./g2.xmf")
d = fetch(r)
check(d.GetNumberOfPoints() == 20 * 16 and np.allclose(d.GetBounds()[:4], (0, 4.75, 0, 3.75)),
      f"2D: {d.GetNumberOfPoints()} points, bounds {d.GetBounds()}")
check(np.array_equal(values(d, "field"), h5py.File("g2.h5", "r")["field"][()].ravel()),
      "2D: the values are /field's")

r = OpenDataFile("./p.xmf")
d = fetch(r)
pts = vtk_to_numpy(d.GetPoints().GetData()) if d.GetPoints() else None
check(pts is not None and np.allclose(pts, np.loadtxt("pts.txt")),
      "points: the positions are the input's")
check(np.array_equal(values(d, "value"), h5py.File("p.h5", "r")["value"][()]),
      "points: the values are /value's")

r = OpenDataFile("./v3.xmf")
d = fetch(r)
v = values(d, "field")
check(v is not None and v.shape == (512, 3), f"vector: {None if v is None else v.shape} values")
check(v is not None and np.array_equal(v, h5py.File("v3.h5", "r")["field"][()].reshape(-1, 3)),
      "vector: the components are /field's")

# `tbrf drive` series: a temporal collection in the side file, frame i at
# /time[i] holding row i of /field (grid) or /value (points).
drive = ["drive", "--model", "band", "--kmin", "1", "--kmax", "3", "--zeta", "0.5", "--tcorr",
         "0.5", "--rms", "1", "--times", "0:1:0.25", "--quiet"]
subprocess.run([tbrf, *drive, "--box", "6.283185307179586", "--grid", "8x6x4", "--out", "s3.h5"],
               check=True)
subprocess.run([tbrf, *drive, "--box", "6.283185307179586,6.283185307179586", "--grid", "8x6",
                "--out", "s2.h5"], check=True)
subprocess.run([tbrf, *drive, "--box", "6.283185307179586", "--points", "pts.txt", "--out",
                "sp.h5"], check=True)
# three components in a 2D and a 1D box (--components 3, TurbGen's ndim =
# 2.5, 1.5): a 3-component Vector on the plane's or the line's mesh
subprocess.run([tbrf, *drive, "--box", "6.283185307179586", "--grid", "8x6", "--components",
                "3", "--out", "s2c.h5"], check=True)
subprocess.run([tbrf, *drive, "--box", "6.283185307179586", "--grid", "8", "--components", "3",
                "--out", "s1c.h5"], check=True)
for name, ds, npos, nc in (("s3", "field", 8 * 6 * 4, 3), ("s2", "field", 8 * 6, 2),
                           ("sp", "value", 4, 3), ("s2c", "field", 8 * 6, 3),
                           ("s1c", "field", 8, 3)):
    h = h5py.File(name + ".h5", "r")
    times, rows = h["time"][()], h[ds][()]
    r = OpenDataFile(f"./{name}.xmf")
    check(np.allclose(r.TimestepValues, times), f"{name}: the times {list(r.TimestepValues)}")
    for i in (0, len(times) - 1):
        r.UpdatePipeline(times[i])
        d = servermanager.Fetch(r)
        v = values(d, ds)
        check(v is not None and v.shape == (npos, nc) and
              np.array_equal(v, rows[i].reshape(-1, nc)),
              f"{name}: frame {i} (t = {times[i]}) holds row {i} of /{ds}")
    if name == "s3":
        # as an animation (what the Play button steps through): the scene
        # takes the reader's time steps, and each of its frames shows the
        # row of that time
        scene = GetAnimationScene()
        scene.UpdateAnimationUsingDataTimeSteps()
        kept = list(GetTimeKeeper().TimestepValues)
        check(len(kept) == len(times) >= 5 and np.allclose(kept, times),
              f"s3 animation: {len(kept)} time steps {kept}")
        scene.PlayMode = "Snap To TimeSteps"
        scene.GoToFirst()
        keeper = GetTimeKeeper()
        for i in range(len(times)):
            check(abs(keeper.Time - times[i]) < 1e-12, f"s3 animation: frame {i} at "
                  f"t = {keeper.Time}, not {times[i]}")
            r.UpdatePipeline(keeper.Time)  # what a view does for the frame
            d = servermanager.Fetch(r)
            v = values(d, ds)
            check(v is not None and np.array_equal(v, rows[i].reshape(-1, nc)),
                  f"s3 animation: frame {i} shows row {i} of /field")
            scene.GoToNext()
    if name == "s3":
        check(np.allclose(d.GetBounds(), (0, 7 * 0.7853981633974483, 0, 5 * 1.0471975511965976,
                                          0, 3 * 1.5707963267948966)),
              f"s3: bounds {d.GetBounds()}")
    if name in ("s2c", "s1c"):
        ny = 5 * 1.0471975511965976 if name == "s2c" else 0.0
        check(np.allclose(d.GetBounds(), (0, 7 * 0.7853981633974483, 0, ny, 0, 0)),
              f"{name}: bounds {d.GetBounds()}")
    Delete(r)

r = NetCDFReader(FileName=["g3.nc"])
# Left on (its default), the CF reader's "Spherical Coordinates" maps the
# axes onto a sphere (bounds nothing like the grid's); off, the grid is
# the HDF5 file's: the values on the 12 x 10 x 8 points.
r.SphericalCoordinates = 0
d = fetch(r)
v = values(d, "field")
check(d.GetNumberOfPoints() == 960 and np.allclose(d.GetBounds(), (1, 6.5, 2, 11, 3, 17)),
      f"netCDF (CF reader): {d.GetNumberOfPoints()} points, bounds {d.GetBounds()}")
check(v is not None and np.array_equal(v, g3.ravel()), "netCDF: the values are the HDF5 file's")

if fails:
    print(f"{len(fails)} failure(s)")
    sys.exit(1)
print("ParaView opened every file")
