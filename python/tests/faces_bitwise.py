"""faces_bitwise.py LIBTBRF TBRF_CLI FACES_F WORKDIR — ctest faces_bitwise.

One field whatever the face: every case is made three times from the same
parameters, by `tbrf generate` (C, to an HDF5 file), by tbrf.Field
(Python, this build's libtbrf) and by tests/fortran/faces_f.f90 (Fortran,
raw doubles), and the three value arrays must be the same bytes. The
cases (CASES below, which this script writes to WORKDIR/cases.txt for
faces_f to read) cover grids and points, 2D and 3D, scalar and vector
fields, every default left to the library and options given:
 - the lines: the library's default (tbrf_default_lines: 1452, 1220,
   1053 and 1141 of them on the default grids, 1024 at points) or given,
   with the oversampling;
 - the domain and resolution: the library's default (grids:
   tbrf_grid_default_domain; points: tbrf_points_bounds and
   tbrf_points_resolution), a given domain with the default resolution,
   or both given. The command and Python are given none then; Fortran asks
   the library as a code would (tbrf_grid_default_domain,
   tbrf_points_bounds + tbrf_points_resolution);
 - the seed and realization: the defaults (1, 0) or given;
 - a periodic box, its modes the library's default for the grid's spacing
   or the resolution (tbrf_periodic_default_modes), the points' resolution
   the library's (tbrf_periodic_points_resolution).
One points set has more points than the command reads from an HDF5 file at
once (65536), so its box is widened piece by piece there and in one call
in Python and Fortran. Exit 0 when all agree, 1 on a difference, 77
(skipped) without h5py."""
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
VECTOR = {None: 0, "solenoidal": 1, "compressive": 2}  # enum tbrf_vector_kind

# The points sets: dim, count, side of the cube they fill uniformly
POINT_SETS = {"points3": (3, 2000, 20.0), "points2": (2, 1500, 30.0),
              "points3b": (3, 70000, 12.0)}


def case(name, model, dim, geometry, vector=None, lines=None, oversampling=None, side=None,
         resolution=None, seed=None, realization=None, box=None):
    """geometry: (n, spacing) of a grid, or a POINT_SETS name. side: the
    domain [0, side]^dim (None: the library's default); resolution None:
    the library's default; lines, oversampling, seed, realization None:
    the defaults; box: a field periodic over [0, box)^dim (its modes the
    library's default for the grid's spacing or the resolution)."""
    return dict(name=name, model=model, dim=dim, geometry=geometry, vector=vector, lines=lines,
                oversampling=oversampling, side=side, resolution=resolution, seed=seed,
                realization=realization, box=box)


CASES = [
    # grids, every default
    case("g3s", "powerlaw", 3, ((48, 48, 48), 1.0)),
    case("g3v", "gaussian", 3, ((44, 44, 44), 1.0), "solenoidal"),
    case("g2s", "matern", 2, ((1200, 16), 1.0)),
    case("g2v", "gaussian", 2, ((1300, 12), 1.0), "compressive"),
    # grids, options given
    case("g3e", "powerlaw", 3, ((32, 24, 20), 0.5), lines=300, oversampling=2),
    case("g2e", "matern", 2, ((90, 70), 0.25), "solenoidal", lines=400, oversampling=3,
         side=30.0, resolution=0.2, seed=7, realization=3),
    case("g3x", "gaussian", 3, ((20, 18, 16), 0.75), "compressive", side=20.0,
         seed=12345678901234567890, realization=2),
    # points, domain and resolution given
    case("p3s", "gaussian", 3, "points3", side=20.0, resolution=0.5),
    case("p2v", "gaussian", 2, "points2", "solenoidal", lines=500, side=30.0, resolution=0.4),
    # points, every default
    case("p3d", "gaussian", 3, "points3"),
    case("p2d", "matern", 2, "points2", "compressive"),
    case("p3b", "powerlaw", 3, "points3b", "solenoidal"),
    case("p2s", "gaussian", 2, "points2"),
    # points, default domain and resolution, options given
    case("p3o", "matern", 3, "points3", "compressive", lines=700, oversampling=3, seed=9,
         realization=5),
    # points, a given domain and the default resolution
    case("p2r", "powerlaw", 2, "points2", side=40.0, seed=2, realization=1),
    # periodic boxes: a grid that is the box's lattice (the FFT method), a
    # grid off it at a given resolution, points at their default resolution
    # over the box (the non-uniform FFT)
    case("b3g", "powerlaw", 3, ((32, 32, 32), 0.5), box=16.0),
    case("b2r", "matern", 2, ((50, 40), 0.3), "solenoidal", resolution=0.25, box=12.0),
    case("b3p", "gaussian", 3, "points3", "compressive", seed=5, box=20.0),
    case("b2p", "gaussian", 2, "points2", realization=4, box=30.0),
]
# TBRF_DEFAULT_LINES_MIN (include/tbrf/plan.h), the points' default
DEFAULT_LINES_MIN = 1024


def generate(c, args):
    out = os.path.join(WORK, c["name"] + ".h5")
    p = subprocess.run([CLI, "generate", *args, "--out", out, "--quiet", "--no-xdmf"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{c['name']}: tbrf generate failed: {p.stderr}")
    with h5py.File(out, "r") as f:
        data = f["field"][...] if "field" in f else f["value"][...]
        return np.ascontiguousarray(data), dict(f.attrs)


def options(c):
    """The case's options for the command and for tbrf.Field."""
    cli, py = [], {}
    if c["vector"]:
        cli += ["--vector", c["vector"]]
        py["vector"] = c["vector"]
    for key, opt in (("lines", "--lines"), ("oversampling", "--oversampling"),
                     ("resolution", "--resolution"), ("seed", "--seed"),
                     ("realization", "--realization")):
        if c[key] is not None:
            cli += [opt, repr(c[key])]
            py[key] = c[key]
    if c["side"] is not None:
        hi = ",".join([repr(c["side"])] * c["dim"])
        cli += ["--domain", ",".join(["0"] * c["dim"]) + ":" + hi]
        py["domain"] = [(0.0, c["side"])] * c["dim"]
    if c["box"] is not None:
        cli += ["--box", repr(c["box"])]
        py["box"] = c["box"]
    return cli, py


def case_line(c):
    """One line of cases.txt, list-directed for faces_f: name model dim
    kind (grid/points) vector lines oversampling seed realization nx ny nz
    spacing side resolution box points (0 and '-' where not given)."""
    n, h, pts = (1, 1, 1), 0.0, "-"
    if isinstance(c["geometry"], str):
        pts = c["geometry"]
    else:
        n, h = tuple(c["geometry"][0]) + (1,) * (3 - c["dim"]), c["geometry"][1]
    seed = 1 if c["seed"] is None else c["seed"]
    # Fortran's integer(c_int64_t) holds the uint64 seed's bits
    seed = seed - 2 ** 64 if seed >= 2 ** 63 else seed
    return " ".join(str(x) for x in (
        c["name"], c["model"], c["dim"], "points" if pts != "-" else "grid", VECTOR[c["vector"]],
        c["lines"] or 0, c["oversampling"] or 0, seed, c["realization"] or 0, *n, repr(h),
        repr(c["side"] or 0.0), repr(c["resolution"] or 0.0), repr(c["box"] or 0.0), pts))


def main():
    os.makedirs(WORK, exist_ok=True)
    rng = np.random.default_rng(42)
    pts = {}
    for name, (d, count, side) in POINT_SETS.items():
        pts[name] = rng.uniform(0.0, side, (count, d))
        pts[name].tofile(os.path.join(WORK, name + ".raw"))
        with h5py.File(os.path.join(WORK, name + ".h5"), "w") as f:
            f["points"] = pts[name]
    with open(os.path.join(WORK, "cases.txt"), "w") as f:
        f.write("".join(case_line(c) + "\n" for c in CASES))
    p = subprocess.run([FACES_F, WORK], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"faces_f failed ({p.returncode}): {p.stdout}{p.stderr}")
    ok = True
    drawn, used = {}, []
    for c in CASES:
        cli_model, py_model = MODELS[c["model"]]
        cli_opts, py_opts = options(c)
        field = tbrf.Field(c["model"], c["dim"], **py_model, **py_opts)
        if isinstance(c["geometry"], str):
            geometry = ["--points", os.path.join(WORK, c["geometry"] + ".h5")]
            v = field(pts[c["geometry"]])
        else:
            n, h = c["geometry"]
            geometry = ["--grid", "x".join(map(str, n)), "--spacing", repr(h)]
            v = field.grid((0.0,) * c["dim"], h, n)
        cv, attrs = generate(c, ["--model", c["model"], *cli_model, *geometry, *cli_opts])
        with open(os.path.join(WORK, c["name"] + ".f.raw"), "rb") as f:
            fv = f.read()
        faces = [("tbrf generate", cv.tobytes()), ("Python", v.tobytes()), ("Fortran", fv)]
        bad = [who for who, b in faces[1:] if b != faces[0][1]]
        lines = drawn[c["name"]] = int(attrs["lines"])
        said = ("the same bytes from " + ", ".join(w for w, _ in faces) if not bad
                else "DIFFERENT from " + ", ".join(bad))
        print(f"{c['name']}: {len(faces[0][1]) // 8} values, {lines} lines, resolution "
              f"{attrs['resolution']!r}, method {field.info['method']}: {said}")
        ok &= not bad
        used.append(field.info["method"])
        # (a periodic run draws no lines; the file records the rule's number)
        if c["box"] is None and lines != field.info["lines"]:
            print(f"{c['name']}: the file records {lines} lines, the Python plan drew "
                  f"{field.info['lines']}")
            ok = False
        if c["lines"] is not None and lines != c["lines"]:
            print(f"{c['name']}: {lines} lines drawn, {c['lines']} given")
            ok = False
    # the default lines are not all the floor (the test would pass with
    # 1024 lines everywhere otherwise), and at points they are
    grids = [drawn[n] for n in ("g3s", "g3v", "g2s", "g2v")]
    if not all(x > DEFAULT_LINES_MIN for x in grids):
        print(f"the default-lines grids drew {grids} lines: not all above the minimum")
        ok = False
    if drawn["p3d"] != DEFAULT_LINES_MIN:
        print(f"p3d drew {drawn['p3d']} lines, not the points' default {DEFAULT_LINES_MIN}")
        ok = False
    # the box cases ran what they are there for
    methods = {c["name"]: m for c, m in zip(CASES, used) if c["box"] is not None}
    if methods != {"b3g": "fft", "b2r": "nufft", "b3p": "nufft", "b2p": "nufft"}:
        print(f"the box cases ran {methods}")
        ok = False
    print("faces_bitwise: " + ("all faces agree" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
