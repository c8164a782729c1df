#!/usr/bin/env python3
"""periodic_cli.py TBRF WORKDIR CASE — `tbrf generate --box/--vector`, and
`regenerate`/`sample` of such files (doc/cli.md).

Cases:
  points    the issue's command: a solenoidal Gaussian field periodic over
            the unit box at random points: /value (N, 3), the attributes
            naming the method (nufft), the box, its modes and the vector
            kind; regenerate --check remakes it bit for bit; the same
            points shifted by whole periods give the same values (to 1e-9
            of the rms: the positions themselves round when shifted)
  lattice   a grid that is the box's lattice runs the FFT method; the same
            cells given as points (non-uniform FFT, accuracy 1e-12) and a
            sub-grid of the box both equal the FFT values to 1e-9 of the
            rms (the method's error is ~1e-12; the margin covers the
            rounding of positions); `sample` of the FFT file on its own
            grid is bitwise; the field is divergence-free spectrally:
            max |k.v_k| below 1e-10 of max |k| |v_k|
  mixed     --vector mixed --zeta 0.3 on a 2D box: /field (ny, nx, 2); the
            netCDF output has field_x and field_y; regenerate --check
  bad       --periodic on points without --box, --vector mixed without
            --zeta, --zeta out of [0, 1] or without mixed, --box with
            --domain or --method, a non-positive or two-value 3D --box,
            --box-origin without --box: exit status, one message, no file
Exit 77 (skipped) without h5py/numpy.
"""
import os
import sys

try:
    import h5py
    import numpy as np
except ImportError:
    print("h5py or numpy missing: skipped")
    sys.exit(77)

sys.dont_write_bytecode = True  # no __pycache__ beside the tests
import clitest  # noqa: E402 (beside this script)
from clitest import attr, fail  # noqa: E402
from clitest import run_or_fail as run  # noqa: E402

TBRF, WORK, CASE = clitest.start(sys.argv)


def write_points(name, xyz):
    with h5py.File(name, "w") as f:
        f["points"] = xyz


def case_points():
    rng = np.random.default_rng(3)
    xyz = rng.random((3000, 3))
    write_points("P.h5", xyz)
    run("generate", "--model", "gaussian", "--length", "0.1", "--periodic", "--box", "1",
        "--points", "P.h5", "--vector", "solenoidal", "--out", "v.h5", "--quiet")
    with h5py.File("v.h5") as f:
        v = f["value"][...]
        if v.shape != (3000, 3):
            fail(f"/value shape {v.shape}")
        for name, want in (("method_ran", "nufft"), ("method", "nufft"),
                           ("vector_kind", "solenoidal")):
            if attr(f, name) != want:
                fail(f"{name} = {attr(f, name)}, not {want}")
        if int(attr(f, "components")) != 3 or int(attr(f, "periodic")) != 1:
            fail("components or periodic attribute")
        if list(f.attrs["box_length"]) != [1, 1, 1] or list(f.attrs["box_origin"]) != [0, 0, 0]:
            fail("box attributes")
    rms = np.sqrt(np.mean(v * v))
    # three components of unit variance: the sample rms is ~1 (3000 points
    # correlated over 0.1: loose bound, a wiring error gives 0 or garbage)
    if not 0.5 < rms < 1.5:
        fail(f"rms {rms}")
    out = run("regenerate", "v.h5", "--out", "r.h5", "--check", "--quiet").stdout
    if "bitwise equal" not in out:
        fail("regenerate --check said: " + out)
    shift = np.array([1.0, -2.0, 3.0])
    write_points("Q.h5", xyz + shift)
    run("sample", "v.h5", "--points", "Q.h5", "--out", "q.h5", "--quiet")
    with h5py.File("q.h5") as f:
        d = np.max(np.abs(f["value"][...] - v))
    if not d < 1e-9 * rms:
        fail(f"shifted by whole periods: max difference {d}")
    print(f"points: rms {rms:.3f}, periodic shift difference {d:.2e}")


def case_lattice():
    n = 24
    h = 1.0 / n
    common = ["--model", "gaussian", "--length", "0.15", "--box", "1", "--vector", "solenoidal",
              "--quiet"]
    run("generate", *common, "--grid", f"{n}x{n}x{n}", "--spacing", repr(h), "--out", "g.h5")
    with h5py.File("g.h5") as f:
        g = f["field"][...]
        if attr(f, "method_ran") != "fft":
            fail("the box lattice did not run the FFT method")
    if g.shape != (n, n, n, 3):
        fail(f"/field shape {g.shape}")
    rms = np.sqrt(np.mean(g * g))
    # spectral divergence: k . v_k against |k| |v_k|
    k = 2 * np.pi * np.fft.fftfreq(n, d=h)
    kz, ky, kx = np.meshgrid(k, k, k, indexing="ij")
    vk = [np.fft.fftn(g[..., c]) for c in range(3)]
    div = np.abs(kx * vk[0] + ky * vk[1] + kz * vk[2])
    kk = np.sqrt(kx**2 + ky**2 + kz**2)
    norm = kk * np.sqrt(sum(np.abs(x) ** 2 for x in vk))
    if not div.max() < 1e-10 * norm.max():
        fail(f"divergence {div.max():.3e} against {norm.max():.3e}")
    # the cells as points
    i = np.arange(n) * h
    z, y, x = np.meshgrid(i, i, i, indexing="ij")
    write_points("C.h5", np.stack([x.ravel(), y.ravel(), z.ravel()], axis=1))
    run("generate", *common, "--points", "C.h5", "--out", "c.h5")
    with h5py.File("c.h5") as f:
        c = f["value"][...].reshape(n, n, n, 3)
        if attr(f, "method_ran") != "nufft":
            fail("points did not run the non-uniform FFT")
    d = np.max(np.abs(c - g))
    if not d < 1e-9 * rms:
        fail(f"cells as points: max difference {d}")
    # a sub-grid of the box (8^3 cells from cell 5, 7, 9)
    run("generate", *common, "--grid", "8x8x8", "--spacing", repr(h), "--origin",
        f"{5 * h!r},{7 * h!r},{9 * h!r}", "--out", "s.h5")
    with h5py.File("s.h5") as f:
        s = f["field"][...]
    d2 = np.max(np.abs(s - g[9:17, 7:15, 5:13]))
    if not d2 < 1e-9 * rms:
        fail(f"sub-grid: max difference {d2}")
    run("sample", "g.h5", "--grid", f"{n}x{n}x{n}", "--out", "gs.h5")
    with h5py.File("gs.h5") as f:
        if not np.array_equal(f["field"][...], g):
            fail("sample on the file's own grid is not bitwise")
    print(f"lattice: rms {rms:.3f}, divergence ratio {div.max() / norm.max():.1e}, "
          f"points {d:.1e}, sub-grid {d2:.1e}")


def case_mixed():
    args = ["generate", "--model", "exponential", "--length", "0.2", "--grid", "16x12",
            "--spacing", "0.0625,0.125", "--box", "1,1.5", "--vector", "mixed", "--zeta", "0.3",
            "--quiet"]
    run(*args, "--out", "m.h5")
    with h5py.File("m.h5") as f:
        if f["field"].shape != (12, 16, 2):
            fail(f"2D /field shape {f['field'].shape}")
        if attr(f, "vector_kind") != "mixed" or float(attr(f, "vector_zeta")) != 0.3:
            fail("vector attributes")
        if list(f.attrs["box_modes"]) != [16, 12]:
            fail(f"box_modes {list(f.attrs['box_modes'])}")
    run("regenerate", "m.h5", "--out", "m2.h5", "--check", "--quiet")
    run(*args, "--out", "m.nc")
    with h5py.File("m.nc") as f:  # netCDF-4 is HDF5
        for name in ("field_x", "field_y"):
            if f[name].shape != (12, 16):
                fail(f"netCDF {name}")
    run("regenerate", "m.nc", "--out", "m2.nc", "--check", "--quiet")
    print("mixed: 2D vector HDF5 and netCDF regenerate bit for bit")


def case_bad():
    write_points("P.h5", np.random.default_rng(1).random((50, 3)))
    base = ["generate", "--model", "gaussian", "--length", "0.1", "--quiet", "--out", "x.h5"]
    cases = [
        ["--points", "P.h5", "--periodic"],
        ["--points", "P.h5", "--vector", "mixed"],
        ["--points", "P.h5", "--vector", "mixed", "--zeta", "1.5"],
        ["--points", "P.h5", "--vector", "solenoidal", "--zeta", "0.5"],
        ["--points", "P.h5", "--vector", "helical"],
        ["--points", "P.h5", "--box", "1", "--domain", "0,0,0:1,1,1"],
        ["--grid", "8x8x8", "--box", "8", "--method", "fft"],
        ["--points", "P.h5", "--box", "0"],
        ["--points", "P.h5", "--box", "1,1"],
        ["--points", "P.h5", "--box-origin", "0,0,0"],
    ]
    for extra in cases:
        p = run(*base, *extra, ok=False)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        if len(lines) != 1 or not lines[0].startswith("tbrf:"):
            fail(f"{extra}: stderr {p.stderr!r}")
        if os.path.exists("x.h5"):
            fail(f"{extra}: left x.h5")
    print(f"bad: {len(cases)} refusals")


{"points": case_points, "lattice": case_lattice, "mixed": case_mixed, "bad": case_bad}[CASE]()
