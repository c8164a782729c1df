#!/usr/bin/env python3
"""xdmf_read.py TBRF WORKDIR -- the XDMF side files, opened by real readers.

meshio (Debian's python3-meshio, with h5py) reads a 3D points file's
XDMF: the count, the positions, one vertex cell per point and the values
must come back as tbrf wrote them (meshio refuses 2D points' GeometryType
XY). meshio reads no CoRectMesh, so a 2D grid's XDMF is read by VTK's
vtkXdmfReader (ParaView's and VisIt's XDMF 2 reader) when the Python
`vtk` module is there (pip install vtk; not a CI dependency), and else by
the XDMF 2 rules directly (3DCoRectMesh, ORIGIN_DXDYDZ listed z, y, x):
its points must lie at z = 0 with x varying fastest, each carrying the
/field value of its cell. With vtk, the 3D and 2D points files are read
by vtkXdmfReader too (points, one cell each, values). Exit 77 (ctest: skipped) without meshio or h5py.
"""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

try:
    import h5py
    import meshio
    import numpy as np
except ImportError as e:
    print(f"skipped: {e} (apt-get install python3-meshio python3-h5py)")
    sys.exit(77)

tool, work = os.path.abspath(sys.argv[1]), sys.argv[2]
os.makedirs(work, exist_ok=True)
os.chdir(work)
G = ["--model", "powerlaw", "--index", "-3", "--kmin", "0.1", "--kmax", "3", "--lines", "64",
     "--seed", "5", "--quiet"]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


# --- points: meshio (3D), vtkXdmfReader when there (3D and 2D) ------------
# meshio 7 refuses GeometryType XY ("Expected GeometryType XYZ"), which
# XDMF 2 defines and VTK reads (z = 0), so 2D points go to VTK only.
try:
    from vtkmodules.vtkIOXdmf2 import vtkXdmfReader
    from vtkmodules.util.numpy_support import vtk_to_numpy
except ImportError:
    vtkXdmfReader = None


def vtk_read(path, array):
    r = vtkXdmfReader()
    r.SetFileName(path)
    r.Update()
    o = r.GetOutputDataObject(0)
    xyz = np.array([o.GetPoint(k) for k in range(o.GetNumberOfPoints())])
    return o, xyz, vtk_to_numpy(o.GetPointData().GetArray(array))


rows = [(0.0, 0.0, 0.0), (1.0, 2.0, 3.0), (4.5, 0.1, 2.0), (3.0, 3.0, 3.0), (0.25, 1.5, 0.5)]
for dim in (3, 2):
    with open("p.txt", "w") as f:
        for r in rows:
            f.write(" ".join(repr(v) for v in r[:dim]) + "\n")
    out = f"p{dim}.h5"
    subprocess.run([tool, "generate", *G, "--points", "p.txt", "--out", out], check=True)
    with h5py.File(out, "r") as h:
        want = h["value"][()]
    want_xyz = np.array(rows)
    if dim == 2:
        want_xyz[:, 2] = 0.0
    if dim == 3:
        m = meshio.read(f"p{dim}.xmf")
        check(len(m.points) == len(rows), f"meshio {dim}D points: {len(m.points)} points")
        check(np.array_equal(m.points, want_xyz), f"meshio {dim}D points: positions")
        check(len(m.cells) == 1 and m.cells[0].type == "vertex" and
              np.array_equal(np.ravel(m.cells[0].data), np.arange(len(rows))),
              f"meshio {dim}D points: one vertex cell per point")
        v = np.ravel(m.point_data.get("value", []))
        check(len(v) == len(rows) and np.array_equal(v, want), f"meshio {dim}D points: values")
        check(len(v) > 3 and v[3] == want[3], f"meshio {dim}D points: value at (3, 3, 3)")
        print(f"meshio {dim}D points: {len(m.points)} points, {len(m.cells[0].data)} "
              f"{m.cells[0].type} cells, value at (3, 3, 3) = {v[3]!r}")
    if vtkXdmfReader is not None:
        o, xyz, v = vtk_read(f"p{dim}.xmf", "value")
        check(o.GetNumberOfPoints() == len(rows) and o.GetNumberOfCells() == len(rows),
              f"vtkXdmfReader {dim}D points: {o.GetNumberOfPoints()} points, "
              f"{o.GetNumberOfCells()} cells")
        check(np.array_equal(xyz, want_xyz), f"vtkXdmfReader {dim}D points: positions")
        check(np.array_equal(v, want), f"vtkXdmfReader {dim}D points: values")
        print(f"vtkXdmfReader {dim}D points: {o.GetNumberOfPoints()} points, "
              f"{o.GetNumberOfCells()} cells, value at point 3 = {v[3]!r}")

# --- a 2D grid: XY plane, x fastest ---------------------------------------
nx, ny, ox, oy, dx, dy = 5, 3, 1.0, 2.0, 0.5, 0.25
subprocess.run([tool, "generate", *G, "--grid", f"{nx}x{ny}", "--origin", f"{ox},{oy}",
                "--spacing", f"{dx},{dy}", "--out", "g2.h5"], check=True)
with h5py.File("g2.h5", "r") as h:
    field = h["field"][()]  # (ny, nx)
want_xyz = np.array([(ox + i * dx, oy + j * dy, 0.0) for j in range(ny) for i in range(nx)])
if vtkXdmfReader is not None:
    o, xyz, vals = vtk_read("g2.xmf", "field")
    reader = "vtkXdmfReader"
else:
    root = ET.parse("g2.xmf").getroot()
    grid = root.find("Domain/Grid")
    topo, geo = grid.find("Topology"), grid.find("Geometry")
    check(topo.get("TopologyType") == "3DCoRectMesh", "2D grid: a 3DCoRectMesh")
    check(geo.get("GeometryType") == "ORIGIN_DXDYDZ", "2D grid: ORIGIN_DXDYDZ")
    nz_, ny_, nx_ = (int(t) for t in topo.get("Dimensions").split())
    items = {d.get("Name"): [float(t) for t in d.text.split()] for d in geo.findall("DataItem")}
    (oz_, oy_, ox_), (dz_, dy_, dx_) = items["Origin"], items["Spacing"]
    xyz = np.array([(ox_ + i * dx_, oy_ + j * dy_, oz_ + k * dz_)
                    for k in range(nz_) for j in range(ny_) for i in range(nx_)])
    item = grid.find("Attribute/DataItem")
    h5name, dset = item.text.strip().split(":")
    with h5py.File(h5name, "r") as h:
        vals = np.ravel(h[dset][()])
    check([int(t) for t in item.get("Dimensions").split()] == [nz_, ny_, nx_],
          "2D grid: the attribute's DataItem has the topology's dimensions")
    reader = "the XDMF 2 rules (no vtk module)"
check(xyz.shape == want_xyz.shape and np.allclose(xyz, want_xyz),
      "2D grid: points in the XY plane at z = 0, x fastest")
check(np.all(xyz[:, 2] == 0.0), "2D grid: z = 0")
check(len(vals) == nx * ny and np.array_equal(vals, np.ravel(field)),
      "2D grid: values in /field order")
print(f"{reader} 2D grid: {len(xyz)} points, first {tuple(xyz[0])}, second {tuple(xyz[1])}, "
      f"z range [{xyz[:, 2].min()}, {xyz[:, 2].max()}]")
sys.exit(1 if failures else 0)
