"""yt_load.py TBRF DIR — `yt.load` opens the HDF5 grids `tbrf generate`
writes with no other code (doc/cli.md, "Looking at the files"): the
files carry yt's Grid Data Format layout (io/hdf5_gdf.c) pointing at
/field. For a 3D grid with spacing and origin, a 2D grid, 3D and 2D
vector grids (float and double): yt's frontend is GDF, the domain is the
cells' extent (origin - spacing/2 to origin + (n - 1/2) spacing), the
fields are field or field_x, field_y[, field_z], and a covering grid
holds /field's values bit for bit in (x, y, z) order. A file written
with --no-xdmf has no such layout (yt.load then refuses it).

Needs yt and h5py (Debian's python3-yt, or a venv with `pip install yt
h5py`): exit 77 (skipped) without them."""
import os
import subprocess
import sys

try:
    import h5py
    import numpy as np
    import yt
except ImportError as e:
    print(f"yt/h5py not importable ({e}): skipped")
    sys.exit(77)

tbrf, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
os.chdir(work)
yt.set_log_level(40)
fails = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        fails.append(what)


def gen(*args):
    subprocess.run([tbrf, "generate", "--model", "powerlaw", "--index", "-3", "--kmin", "0.3",
                    "--kmax", "3", "--seed", "7", "--quiet", *args], check=True,
                   stderr=subprocess.DEVNULL)


cases = [
    ("g3.h5", ["--grid", "12x10x8", "--spacing", "0.5,1,2", "--origin", "1,2,3"],
     (0.75, 1.5, 2), (6.75, 11.5, 18)),
    ("g2.h5", ["--grid", "20x16", "--spacing", "0.25"], (-0.125, -0.125), (4.875, 3.875)),
    ("v3.h5", ["--grid", "8x6x4", "--vector", "solenoidal"], (-0.5, -0.5, -0.5), (7.5, 5.5, 3.5)),
    ("v2.h5", ["--grid", "8x6", "--vector", "mixed", "--zeta", "0.3", "--precision", "float"],
     (-0.5, -0.5), (7.5, 5.5)),
]
for name, args, lo, hi in cases:
    gen(*args, "--out", name)
    ds = yt.load(name)
    h = h5py.File(name, "r")["field"][()]
    vec = name.startswith("v")
    dim = len(lo)
    check(type(ds).__name__ == "GDFDataset", f"{name}: yt reads it as {type(ds).__name__}")
    check(np.allclose(ds.domain_left_edge.v[:dim], lo) and
          np.allclose(ds.domain_right_edge.v[:dim], hi),
          f"{name}: domain {ds.domain_left_edge.v} .. {ds.domain_right_edge.v}")
    names = sorted(f for _, f in ds.field_list)
    want = ["field_x", "field_y", "field_z"][:dim] if vec else ["field"]
    check(names == want, f"{name}: fields {names}")
    cg = ds.covering_grid(0, ds.domain_left_edge, ds.domain_dimensions)
    for f in want:
        got = cg["gdf", f].v
        a = h[..., "xyz".index(f[-1])] if vec else h
        ref = a.T if dim == 3 else a.T[:, :, None]  # (z, y, x) -> (x, y, z)
        check(got.shape == ref.shape and np.array_equal(got, ref),
              f"{name}: {f} is /field's {'component ' + f[-1] if vec else 'values'} bitwise")

gen("--grid", "8x8x8", "--no-xdmf", "--out", "bare.h5")
check("gridded_data_format" not in h5py.File("bare.h5", "r"), "--no-xdmf: no yt layout")

if fails:
    print(f"{len(fails)} failure(s)")
    sys.exit(1)
print("yt.load opened every grid")
