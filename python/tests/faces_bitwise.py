"""faces_bitwise.py LIBTBRF TBRF_CLI FACES_F WORKDIR — ctest faces_bitwise.

One field whatever the face: every case is made three times from the same
parameters, by `tbrf generate` (C, to an HDF5 file), by tbrf.Field
(Python, this build's libtbrf) and by tests/fortran/faces_f.f90 (Fortran,
raw doubles), and the three value arrays must be the same bytes. The
cases cover grids and points, 2D and 3D, scalar and vector fields, the
lines left to the library's default (tbrf_default_lines: 1452, 1220, 1053
and 1141 of them on the grids below, 1024 at points) and given options
(lines, oversampling). Grid cases give the command no --domain or
--resolution and Python none either (both derive them from the grid);
Fortran gives the grid's own, as a code that owns the grid does. Points
cases give all three the domain and resolution, and one more case compares
the command's and Python's own defaults for points (Fortran has none).
Exit 0 when all agree, 1 on a difference, 77 (skipped) without h5py."""
import os
import subprocess
import sys

import numpy as np

try:
    import h5py
except ImportError:
    print("faces_bitwise skipped: no h5py (python3-h5py)")
    sys.exit(77)

LIB, CLI, FACES_F, WORK = sys.argv[1:5]
os.environ["TBRF_LIBRARY"] = LIB
import tbrf  # noqa: E402  (after TBRF_LIBRARY)

MODELS = {
    "powerlaw": (["--index", "-3", "--kmin", "0.05", "--kmax", "3"],
                 dict(index=-3.0, kmin=0.05, kmax=3.0)),
    "matern": (["--length", "4", "--nu", "1.5"], dict(length=4.0, nu=1.5)),
    "gaussian": (["--length", "3"], dict(length=3.0)),
}
VECTOR = {None: [], "solenoidal": ["--vector", "solenoidal"],
          "compressive": ["--vector", "compressive"]}

# name, model, dim, n (x first), spacing, vector, lines, oversampling
# (None: not given): the grids of faces_f.f90
GRIDS = [
    ("g3s", "powerlaw", 3, (48, 48, 48), 1.0, None, None, None),
    ("g3v", "gaussian", 3, (44, 44, 44), 1.0, "solenoidal", None, None),
    ("g2s", "matern", 2, (1200, 16), 1.0, None, None, None),
    ("g2v", "gaussian", 2, (1300, 12), 1.0, "compressive", None, None),
    ("g3e", "powerlaw", 3, (32, 24, 20), 0.5, None, 300, 2),
]
# name, model, dim, domain side, resolution, vector, lines: faces_f.f90's points
POINTS = [
    ("p3s", "gaussian", 3, 20.0, 0.5, None, None),
    ("p2v", "gaussian", 2, 30.0, 0.4, "solenoidal", 500),
]
# TBRF_DEFAULT_LINES_MIN (include/tbrf/plan.h), the points' default
DEFAULT_LINES_MIN = 1024
# the command's and Python's own points defaults (bounding box, mean spacing)
POINTS_DEFAULT = [("p3d", "gaussian", 3, None), ("p2d", "matern", 2, "compressive")]


def generate(name, args):
    out = os.path.join(WORK, name + ".h5")
    p = subprocess.run([CLI, "generate", *args, "--out", out, "--quiet", "--no-xdmf"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{name}: tbrf generate failed: {p.stderr}")
    with h5py.File(out, "r") as f:
        data = f["field"][...] if "field" in f else f["value"][...]
        return np.ascontiguousarray(data), dict(f.attrs)


def options(vector, lines, oversampling=None):
    cli, py = list(VECTOR[vector]), {}
    if vector:
        py["vector"] = vector
    if lines is not None:
        cli += ["--lines", str(lines)]
        py["lines"] = lines
    if oversampling is not None:
        cli += ["--oversampling", str(oversampling)]
        py["oversampling"] = oversampling
    return cli, py


def fortran(name):
    with open(os.path.join(WORK, name + ".f.raw"), "rb") as f:
        return f.read()


def same(name, faces, lines):
    ref = faces[0][1]
    bad = [who for who, b in faces[1:] if b != ref]
    print(f"{name}: {len(ref) // 8} values, {lines} lines: "
          + ("the same bytes from " + ", ".join(w for w, _ in faces) if not bad
             else "DIFFERENT from " + ", ".join(bad)))
    return not bad


def main():
    os.makedirs(WORK, exist_ok=True)
    rng = np.random.default_rng(42)
    pts = {3: rng.uniform(0.0, 20.0, (2000, 3)), 2: rng.uniform(0.0, 30.0, (1500, 2))}
    for d, xyz in pts.items():
        xyz.tofile(os.path.join(WORK, f"points{d}.raw"))
        with h5py.File(os.path.join(WORK, f"points{d}.h5"), "w") as f:
            f["points"] = xyz
    p = subprocess.run([FACES_F, WORK], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"faces_f failed ({p.returncode}): {p.stdout}{p.stderr}")
    ok = True
    for name, model, dim, n, h, vector, lines, over in GRIDS:
        cli_model, py_model = MODELS[model]
        cli_opts, py_opts = options(vector, lines, over)
        c, attrs = generate(name, ["--model", model, *cli_model, "--grid",
                                   "x".join(map(str, n)), "--spacing", repr(h), *cli_opts])
        field = tbrf.Field(model, dim, **py_model, **py_opts)
        v = field.grid((0.0,) * dim, h, n)
        info = field.info
        ok &= same(name, [("tbrf generate", c.tobytes()), ("Python", v.tobytes()),
                          ("Fortran", fortran(name))], int(attrs["lines"]))
        if int(attrs["lines"]) != info["lines"]:
            print(f"{name}: the file records {attrs['lines']} lines, the Python plan drew "
                  f"{info['lines']}")
            ok = False
    for name, model, dim, side, res, vector, lines in POINTS:
        cli_model, py_model = MODELS[model]
        cli_opts, py_opts = options(vector, lines)
        dom = ",".join(["0"] * dim) + ":" + ",".join([repr(side)] * dim)
        c, attrs = generate(name, ["--model", model, *cli_model, "--points",
                                   os.path.join(WORK, f"points{dim}.h5"), "--domain", dom,
                                   "--resolution", repr(res), *cli_opts])
        field = tbrf.Field(model, dim, **py_model, **py_opts, domain=[(0.0, side)] * dim,
                           resolution=res)
        v = field(pts[dim])
        ok &= same(name, [("tbrf generate", c.tobytes()), ("Python", v.tobytes()),
                          ("Fortran", fortran(name))], int(attrs["lines"]))
    for name, model, dim, vector in POINTS_DEFAULT:
        cli_model, py_model = MODELS[model]
        cli_opts, py_opts = options(vector, None)
        c, attrs = generate(name, ["--model", model, *cli_model, "--points",
                                   os.path.join(WORK, f"points{dim}.h5"), *cli_opts])
        v = tbrf.Field(model, dim, **py_model, **py_opts)(pts[dim])
        ok &= same(name, [("tbrf generate", c.tobytes()), ("Python", v.tobytes())],
                   int(attrs["lines"]))
    # the defaults above are not all the floor: the test would pass with
    # 1024 lines everywhere otherwise
    drawn = [int(h5py.File(os.path.join(WORK, g[0] + ".h5"), "r").attrs["lines"]) for g in GRIDS]
    if not all(x > DEFAULT_LINES_MIN for x in drawn[:4]):
        print(f"the default-lines grids drew {drawn[:4]} lines: not all above the minimum")
        ok = False
    print("faces_bitwise: " + ("all faces agree" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
