#!/usr/bin/env python3
"""xdmf_vector.py DIR -- the vector files test_io_vector leaves in DIR, opened
by real readers (the vector layouts).

- meshio reads the 3D points file's XDMF (a Polyvertex with a Vector
  attribute): 11 points, one vertex cell each, point_data["value"] of shape
  (11, 3) equal to the values written (component c of point i: i + c/4);
- the grids' XDMF (meshio reads no CoRectMesh): the Vector attribute's
  DataItem dimensions are the HDF5 dataset's shape (h5py), (3, 4, 5, 3) and,
  for 2D, (1, 4, 5, 2) over the (4, 5, 2) dataset, the same values;
- netCDF: one variable per component, field_x/field_y/field_z with a
  long_name, read by xarray when it is installed (else by h5py).
Exit 77 (ctest: skipped) without meshio or h5py.
"""
import os
import sys
import xml.etree.ElementTree as ET

try:
    import h5py
    import meshio
    import numpy as np
except ImportError as e:
    print(f"skipped: {e} (apt-get install python3-meshio python3-h5py)")
    sys.exit(77)

d = sys.argv[1]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def expected(npos, ncomp):
    return np.arange(npos)[:, None] + 0.25 * np.arange(ncomp)[None, :]


m = meshio.read(os.path.join(d, "p3s.xmf"))
check(m.points.shape == (11, 3), f"meshio points shape {m.points.shape}")
check(sum(len(c.data) for c in m.cells) == 11, "one vertex cell per point")
v = m.point_data.get("value")
check(v is not None and v.shape == (11, 3), "meshio reads the Vector attribute as (11, 3)")
if v is not None and v.shape == (11, 3):
    check(np.array_equal(v, expected(11, 3)), "meshio vector values")

for name, shape in (("g3", (3, 4, 5, 3)), ("g2f", (4, 5, 2))):
    root = ET.parse(os.path.join(d, name + ".xmf")).getroot()
    att = root.find(".//Attribute")
    check(att.get("AttributeType") == "Vector", f"{name}: AttributeType Vector")
    dims = tuple(int(x) for x in att.find("DataItem").get("Dimensions").split())
    with h5py.File(os.path.join(d, name + ".h5"), "r") as f:
        ds = f["field"][...]
    check(ds.shape == shape, f"{name}: /field shape {ds.shape}, want {shape}")
    check(int(np.prod(dims)) == ds.size and dims[-1] == shape[-1],
          f"{name}: XDMF dimensions {dims} describe /field {ds.shape}")
    ncomp = shape[-1]
    check(np.array_equal(ds.reshape(-1, ncomp), expected(ds.size // ncomp, ncomp)),
          f"{name}: values, components last")

try:
    import xarray as xr
    ds = xr.open_dataset(os.path.join(d, "g3.nc"))
    comps = [ds[f"field_{a}"].values for a in "xyz"]
    names = [ds[f"field_{a}"].attrs.get("long_name", "") for a in "xyz"]
    reader = "xarray"
except ImportError:
    with h5py.File(os.path.join(d, "g3.nc"), "r") as f:
        comps = [f[f"field_{a}"][...] for a in "xyz"]
        names = [f[f"field_{a}"].attrs.get("long_name", b"") for a in "xyz"]
        names = [n.decode() if isinstance(n, bytes) else str(n) for n in names]
    reader = "h5py"
for c, (a, n) in enumerate(zip("xyz", names)):
    check(comps[c].shape == (3, 4, 5), f"netCDF field_{a} shape {comps[c].shape} ({reader})")
    check(np.array_equal(comps[c].ravel(), expected(60, 3)[:, c]), f"netCDF field_{a} values")
    check(n.startswith(f"{a} component"), f"netCDF field_{a} long_name '{n}'")

if failures:
    print(f"xdmf_vector: {len(failures)} failure(s)")
    sys.exit(1)
print(f"xdmf_vector: ok (netCDF read by {reader})")
