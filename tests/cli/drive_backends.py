#!/usr/bin/env python3
"""drive_backends.py TBRF DIR BACKEND -- `tbrf drive --backend BACKEND`
against `--backend cpu` (doc/driving.md, "Backends"):

  box      a periodic box (the GPU's direct sum of the modes), grid and
           points (some outside the box): within 1e-12 of max |f| (the
           bound test_drive_backends.c derives for this band, |m_d| <= 3:
           ~1e-14; measured ~1e-15)
  domain   a non-periodic domain (the turning-bands lines projected by
           the backend in double): bitwise the cpu's values
  plane, line  three components in a 2D box (grid and 2D points) and in a
           1D box (grid): --components 3, the direct sum as in box, within
           the same 1e-12
  Both: /time identical, the `backend` attribute names the backend that
  ran, the driver's `modes` and `rms_ensemble` attributes identical.
  A backend this build lacks (NOT_BUILT) or without a device (NO_DEVICE)
  must be refused with exit 1, one message saying which ("not built into
  this library" / "no usable device"), and no file; the test is then
  skipped (77), or passes when the fourth argument (not-built, no-device)
  names that very refusal. `auto` runs and records the backend it
  resolved to.
Exit 77 (skipped) without h5py/numpy.
"""
import os
import subprocess
import sys

try:
    import h5py
    import numpy as np
except ImportError:
    print("h5py or numpy missing: skipped")
    sys.exit(77)

TBRF, DIR, BACKEND = sys.argv[1], sys.argv[2], sys.argv[3]
# a fourth argument: the refusal this build must give (not-built or
# no-device); the test then passes on that refusal alone
EXPECT = sys.argv[4] if len(sys.argv) > 4 else None
REFUSALS = {"not-built": "not built into this library", "no-device": "no usable device"}
os.makedirs(DIR, exist_ok=True)
os.chdir(DIR)
K1, K3 = "6.283185307179586", "18.84955592153876"
COMMON = ["--model", "band", "--kmin", K1, "--kmax", K3, "--zeta", "0.6", "--tcorr", "0.5",
          "--rms", "2", "--seed", "9", "--interpolate", "--times", "0:1.5:0.25", "--quiet"]
GEOM = {"box": ["--box", "1,1.125,1.25"],
        "domain": ["--domain", "-0.5,-0.25,0:0.5,0.875,1.25"],
        "plane": ["--box", "1,1.125", "--components", "3"],
        "line": ["--box", "1", "--components", "3"]}
GRID = {"box": "9x7x5", "domain": "9x7x5", "plane": "9x7", "line": "9"}
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(geom, where, backend, out):
    if os.path.exists(out):
        os.remove(out)
    cmd = [TBRF, "drive"] + GEOM[geom] + COMMON + where + ["--backend", backend, "--out", out]
    return subprocess.run(cmd, capture_output=True, text=True)


rng = np.random.default_rng(5)
# box: points also outside it; domain: inside it
np.savetxt("box_pts.txt", rng.uniform(-0.7, 2.1, size=(400, 3)))
lo, hi = np.array([-0.5, -0.25, 0.0]), np.array([0.5, 0.875, 1.25])
np.savetxt("domain_pts.txt", lo + (hi - lo) * rng.uniform(size=(400, 3)))
np.savetxt("plane_pts.txt", rng.uniform(-0.7, 2.1, size=(400, 2)))

for geom in ("box", "domain", "plane", "line"):
    for kind in ("grid", "points") if geom != "line" else ("grid",):
        where = ["--grid", GRID[geom]] if kind == "grid" else ["--points", geom + "_pts.txt"]
        ref = run(geom, where, "cpu", "cpu.h5")
        check(ref.returncode == 0, f"{geom} {kind}: cpu runs ({ref.stderr.strip()})")
        r = run(geom, where, BACKEND, "be.h5")
        if r.returncode != 0:
            refused = ("not built into this library" in r.stderr or "no usable device" in r.stderr)
            check(r.returncode == 1 and refused and r.stderr.count("\n") == 1
                  and not os.path.exists("be.h5"),
                  f"{geom} {kind}: --backend {BACKEND} refused with one clear message and no file: "
                  f"{r.stderr.strip()}")
            if EXPECT:
                check(REFUSALS[EXPECT] in r.stderr, f"the refusal is the expected {EXPECT}")
            if failures:
                sys.exit(1)
            if EXPECT:
                sys.exit(0)
            print(f"SKIP: backend {BACKEND} unavailable here")
            sys.exit(77)
        check(EXPECT is None, f"--backend {BACKEND} ran where {EXPECT} was expected")
        ds = "/field" if kind == "grid" else "/value"
        with h5py.File("cpu.h5", "r") as a, h5py.File("be.h5", "r") as b:
            fa, fb = a[ds][...], b[ds][...]
            check(fa.shape == fb.shape and np.array_equal(a["/time"][...], b["/time"][...]),
                  f"{geom} {kind}: shapes and times agree")
            ran = b.attrs["backend"]
            ran = ran.decode() if isinstance(ran, bytes) else str(ran)
            want = BACKEND if BACKEND != "auto" else ran
            check(ran == want and ran in ("cpu", "opencl", "cuda"),
                  f"{geom} {kind}: backend attribute '{ran}'")
            for attr in ("modes", "rms_ensemble"):
                check(np.array_equal(a.attrs[attr], b.attrs[attr]), f"{geom} {kind}: {attr} agrees")
            check(np.abs(fa).max() > 0.1, f"{geom} {kind}: the force is not zero")
            if geom == "domain" or ran == "cpu":
                check(np.array_equal(fa, fb), f"{geom} {kind}: {ran} gives the cpu's bits")
            else:
                rel = np.abs(fa - fb).max() / np.abs(fa).max()
                check(np.all(np.isfinite(fb)) and rel <= 1e-12,
                      f"{geom} {kind}: {ran} within 1e-12 of the cpu ({rel:.2e})")
sys.exit(1 if failures else 0)
