#!/usr/bin/env python3
"""drive_components.py TBRF DRIVE_REF TURBGEN_PAR DIR CASE -- `tbrf drive
--components 3`: three force components in a 1D or 2D box (TurbGen's
ndim = 1.5, 2.5; doc/driving.md, "Geometry"; doc/cli.md, "tbrf drive"):

  shape    the 1D (nt, nx, 3) and 2D (nt, ny, nx, 3) grid series and the
           2D points' (nt, N, 3) /value: shapes, the attributes dim,
           components, amplitude_factor and the per-component rms,
           `tbrf info`'s axis labels, every component non-zero; the XDMF
           side file parsed: a temporal collection of /time's times whose
           frames are 3DCoRectMeshes of the grid (one node on the missing
           axes) with a 3-component Vector attribute reading row i of
           /field; preview and spectrum take the 2D series (spectrum's
           solenoidal share against the 3-component formula) and refuse
           the 1D one naming it
  library  the series' values equal tbrf_driver_grid's (drive_ref.c, the
           same parameters) bit for bit, 1D and 2D, at times not on the
           update lattice and with --interpolate
  regen    regenerate --check remakes 1D, 2D and points series and a
           --turbgen 2.5D one bit for bit; a series whose values were
           edited fails the check (exit 1, the new file removed, the time
           index named); --compress and the series itself as --out are
           refused (exit 2)
  turbgen  TurbGen.par with ndim = 1.5 and 2.5: three components; the
           recorded rms_ensemble is TurbGen's ensemble rms of |f| for the
           file by its formula (36/n) OUvar^2 sum A_k^2, n = 3 as in 3D,
           summed here independently over TurbGen's lattice; over 400
           frames 5 t_decay apart (correlation e^-5) the box mean square
           of |f| is rms^2, and the solenoidal share of the power is
           2 zeta^2 / (2 zeta^2 + (1 - zeta)^2) = 2/3 at sol_weight 0.5
           (2.5D: the longitudinal part k.F/|k| of the in-plane k; 1.5D:
           the x component), each within 4 standard errors of the frames'
           scatter (fixed seed: deterministic)
  bad      --components 2 in 3D, --components 1 in 2D, a 1D grid without
           --components 3, --components 4, --components beside --turbgen,
           a 2.5D file on a 3D grid, a 1.5D file on a 2D grid, three
           components with --eval nufft or --domain, and two factors for
           three components: exit 2, one "tbrf: " line naming the cause,
           no file
Exit 77 (skipped) without h5py/numpy.
"""
import math
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

try:
    import h5py
    import numpy as np
except ImportError:
    print("h5py or numpy missing: skipped")
    sys.exit(77)

TBRF, REF, PAR, DIR, CASE = sys.argv[1:6]
PAR = os.path.abspath(PAR)
shutil.rmtree(DIR, ignore_errors=True)
os.makedirs(DIR)
os.chdir(DIR)
K1, K3 = "6.283185307179586", "18.84955592153876"
COMMON = ["--model", "band", "--kmin", K1, "--kmax", K3, "--zeta", "0.6", "--tcorr", "0.5",
          "--rms", "2", "--seed", "9", "--interpolate", "--quiet"]
BOX2, BOX1 = ["--box", "1,1.125"], ["--box", "1"]
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def tbrf(*args, ok=True):
    r = subprocess.run([TBRF, *args], capture_output=True, text=True)
    if ok and r.returncode != 0:
        print(f"FAIL tbrf {' '.join(args)}: exit {r.returncode}: {r.stderr}")
        sys.exit(1)
    return r


def drive(geom, where, out, times="0:1:0.25", extra=()):
    tbrf("drive", *geom, *COMMON, "--components", "3", "--times", times, *where, *extra,
         "--out", out)
    return h5py.File(out, "r")


def turbgen_par(ndim, name):
    with open(PAR) as f:
        text = f.read()
    lines = [("ndim = %s" % ndim) if l.startswith("ndim ") else l for l in text.split("\n")]
    with open(name, "w") as f:
        f.write("\n".join(lines))
    return os.path.abspath(name)


def xdmf_frames(name, h):
    """The frames of the side file: (time, topology dims, attribute)."""
    root = ET.parse(name).getroot()
    coll = root.find("Domain/Grid")
    check(coll.get("GridType") == "Collection" and coll.get("CollectionType") == "Temporal",
          f"{name}: a temporal collection")
    return coll.findall("Grid")


def check_xdmf(name, h, ds, mesh_dims):
    frames = xdmf_frames(name, h)
    times, shape = h["time"][()], h[ds].shape
    check(len(frames) == len(times), f"{name}: {len(frames)} frames for {len(times)} times")
    for i, g in enumerate(frames):
        t = float(g.find("Time").get("Value"))
        a = g.find("Attribute")
        item = a.find("DataItem")
        dims = [int(x) for x in item.get("Dimensions").split()]
        ref = item.text.strip()
        slab = ref.split("|")[1].split(":")
        start, count, space = ([int(x) for x in p.split()] for p in (slab[0], slab[2], slab[3]))
        topo = g.find("Topology")
        ok = (t == times[i] and a.get("AttributeType") == "Vector" and dims[-1] == 3 and
              math.prod(dims) == math.prod(shape[1:]) and ref.startswith(f"{name[:-4]}.h5:/{ds}|") and
              start == [i] + [0] * (len(shape) - 1) and count == [1, *shape[1:]] and
              space == list(shape))
        if mesh_dims:
            ok = ok and topo.get("TopologyType") == "3DCoRectMesh" and \
                 [int(x) for x in topo.get("Dimensions").split()] == mesh_dims
        if not ok:
            check(False, f"{name}: frame {i}: {ET.tostring(g)[:400]}")
            return
    check(True, f"{name}: every frame a 3-component Vector of row i of /{ds} at /time[i]")


def case_shape():
    h2 = drive(BOX2, ["--grid", "12x10"], "s2.h5")
    h1 = drive(BOX1, ["--grid", "16"], "s1.h5")
    with open("pts.txt", "w") as f:
        f.write("0.1 0.2\n-0.4 1.7\n0.9 0.05\n")
    hp = drive(BOX2, ["--points", "pts.txt"], "sp.h5")
    for name, h, ds, shape, dim in (("s2", h2, "field", (5, 10, 12, 3), 2),
                                    ("s1", h1, "field", (5, 16, 3), 1),
                                    ("sp", hp, "value", (5, 3, 3), 2)):
        v = h[ds][()]
        check(v.shape == shape, f"{name}: /{ds} is {v.shape}")
        check(int(h.attrs["dim"][0]) == dim and int(h.attrs["components"][0]) == 3,
              f"{name}: dim {h.attrs['dim']}, components {h.attrs['components']}")
        check(len(h.attrs["amplitude_factor"]) == 3, f"{name}: 3 amplitude factors")
        check(abs(h.attrs["rms_component_ensemble"][0] - 2 / math.sqrt(3)) < 1e-15,
              f"{name}: per-component rms 2/sqrt(3)")
        check(all(np.abs(v[..., c]).max() > 1e-3 for c in range(3)),
              f"{name}: every component non-zero")
    check(hp["points"].shape == (3, 2), f"sp: /points {hp['points'].shape}")
    info = {n: tbrf("info", n + ".h5").stdout for n in ("s2", "s1", "sp")}
    check("(5, 10, 12, 3)" in info["s2"] and "[time, ny, nx, component]" in info["s2"],
          "info labels the 2D series [time, ny, nx, component]")
    check("(5, 16, 3)" in info["s1"] and "[time, nx, component]" in info["s1"],
          "info labels the 1D series [time, nx, component]")
    check("[time, point, component]" in info["sp"], "info labels the points [time, point, component]")
    check("components         = 3" in info["s1"], "info shows components = 3")
    check_xdmf("s2.xmf", h2, "field", [1, 10, 12])
    check_xdmf("s1.xmf", h1, "field", [1, 1, 16])
    check_xdmf("sp.xmf", hp, "value", None)
    g = xdmf_frames("s1.xmf", h1)[0].find("Geometry")
    sp = [float(x) for x in g.findall("DataItem")[1].text.split()]
    check(sp == [1, 1, 1 / 16], f"s1.xmf: the spacing (z, y, x) {sp}")
    geo = xdmf_frames("sp.xmf", hp)[0].find("Geometry")
    check(geo.get("GeometryType") == "XY", "sp.xmf: XY points")
    r = tbrf("preview", "s2.h5", "--component", "z", "--frame", "2", "--out", "z.png", "--quiet")
    check(os.path.getsize("z.png") > 1000, "preview draws the 2D series' z component")
    r = tbrf("spectrum", "s2.h5", "--frame", "2")
    check("zeta = 0.6 gives 0.8182 (2 zeta^2 / (1 - 2 zeta + 3 zeta^2))" in r.stdout,
          "spectrum: the 2D series' solenoidal share against the 3-component formula")
    for cmd in (["preview", "s1.h5", "--component", "z", "--frame", "0", "--out", "y.png"],
                ["spectrum", "s1.h5", "--frame", "0"]):
        r = tbrf(*cmd, ok=False)
        check(r.returncode == 1 and "is a 1D series" in r.stderr and r.stderr.count("\n") == 1,
              f"{cmd[0]} refuses the 1D series by name: {r.stderr.strip()}")


def case_library():
    for dim, geom, grid, nx, ny, lx, ly in ((2, BOX2, "9x7", 9, 7, 1.0, 1.125),
                                            (1, BOX1, "16", 16, 1, 1.0, 1.0)):
        t0, dt, nt = 0.3, 0.37, 6
        h = drive(geom, ["--grid", grid], f"l{dim}.h5", times=f"{t0}:{t0 + (nt - 1) * dt}:{dt}")
        v = h["field"][()]
        r = subprocess.run([REF, f"ref{dim}.raw", str(dim), str(nx), str(ny), str(lx), str(ly),
                            str(t0), str(dt), str(nt)], capture_output=True, text=True)
        check(r.returncode == 0, f"drive_ref {dim}D: {r.stderr.strip()}")
        ref = np.fromfile(f"ref{dim}.raw", dtype="<f8")
        check(v.size == ref.size and np.array_equal(v.ravel().view(np.uint64), ref.view(np.uint64)),
              f"{dim}D: the series' {v.size} values are tbrf_driver_grid's bit for bit")
        check(np.array_equal(h["time"][()], t0 + np.arange(nt) * dt), f"{dim}D: /time")


def case_regen():
    drive(BOX2, ["--grid", "12x10"], "s2.h5").close()
    drive(BOX1, ["--grid", "16"], "s1.h5").close()
    with open("pts.txt", "w") as f:
        f.write("0.1 0.2\n-0.4 1.7\n0.9 0.05\n")
    drive(BOX2, ["--points", "pts.txt"], "sp.h5").close()
    tbrf("drive", "--turbgen", turbgen_par("2.5", "h25.par"), "--times", "0:1:0.3", "--grid",
         "8x8", "--out", "tg.h5", "--quiet")
    for name in ("s2", "s1", "sp", "tg"):
        r = tbrf("regenerate", name + ".h5", "--out", "re_" + name + ".h5", "--check", "--quiet")
        check("bitwise equal" in r.stdout and os.path.exists("re_" + name + ".xmf"),
              f"regenerate --check {name}: {r.stdout.strip()}")
    shutil.copy("s2.h5", "edited.h5")
    with h5py.File("edited.h5", "r+") as h:
        h["field"][2, 3, 4, 1] += 1e-9
    r = tbrf("regenerate", "edited.h5", "--out", "re_edited.h5", "--check", "--quiet", ok=False)
    check(r.returncode == 1 and "at time index 2" in r.stderr and not os.path.exists("re_edited.h5")
          and not os.path.exists("re_edited.xmf"),
          f"an edited series fails the check, the new file removed: {r.stderr.strip()}")
    for args, pat in ((["s2.h5", "--out", "x.h5", "--compress"], "--compress does not apply"),
                      (["s2.h5", "--out", "s2.h5"], "is the series being regenerated")):
        r = tbrf("regenerate", *args, ok=False)
        check(r.returncode == 2 and pat in r.stderr and not os.path.exists("x.h5"),
              f"regenerate {' '.join(args)} refused: {r.stderr.strip()}")


def turbgen_sum(idim):
    """TurbGen's sum of A_k^2 over its lattice (parabola, k 1..3 2 pi / L)."""
    eps = 2.220446049250313e-16
    kmin, kmax = (1 - eps) * 2 * math.pi, (3 + eps) * 2 * math.pi
    kc = 0.5 * (kmin + kmax)
    s = 0.0
    for ix in range(-4, 5):
        for iy in range(-4, 5) if idim > 1 else (0,):
            k = 2 * math.pi * math.hypot(ix, iy)
            if kmin <= k <= kmax:
                s += abs(1 - 4 * (k - kc) ** 2 / (kmax - kmin) ** 2) * (kc / k) ** (idim - 1)
    return s


def frame_parts(f, dim):
    """Per frame: the box mean square of |f| and the longitudinal power."""
    ms = (f ** 2).sum(axis=-1).mean(axis=tuple(range(1, dim + 1)))
    if dim == 1:
        return ms, (f[..., 0] ** 2).mean(axis=1)
    ny, nx = f.shape[1:3]
    F = [np.fft.fft2(f[..., c]) for c in range(2)]
    kx, ky = np.meshgrid(np.fft.fftfreq(nx) * nx, np.fft.fftfreq(ny) * ny)
    k2 = kx ** 2 + ky ** 2
    k2[0, 0] = 1.0
    lon = np.abs(kx * F[0] + ky * F[1]) ** 2 / k2
    return ms, lon.sum(axis=(1, 2)) / (nx * ny) ** 2


def ratio_se(a, b):
    """sum a / sum b over frames and its standard error (delta method)."""
    r = a.sum() / b.sum()
    return r, np.sqrt(np.var(a - r * b) / len(a)) / b.mean()


def case_turbgen():
    ou2 = 0.15 ** 3 / 0.5  # energy / t_decay: velocity 1, L 1, k_driv 2
    for ndim, dim, grid in (("2.5", 2, "16x16"), ("1.5", 1, "32")):
        par = turbgen_par(ndim, f"h{ndim}.par")
        tbrf("drive", "--turbgen", par, "--times", "0:997.5:2.5", "--grid", grid, "--out",
             f"t{ndim}.h5", "--quiet")
        h = h5py.File(f"t{ndim}.h5", "r")
        f = h["field"][()]
        check(f.shape[-1] == 3 and f.ndim == dim + 2 and int(h.attrs["components"][0]) == 3,
              f"ndim {ndim}: /field {f.shape}, three components")
        rms = h.attrs["rms_ensemble"][0]
        want = math.sqrt(36 / 3 * ou2 * turbgen_sum(dim))
        check(abs(rms - want) <= 1e-12 * want,
              f"ndim {ndim}: rms_ensemble {rms:.9g} is TurbGen's (36/3) OUvar^2 sum A^2: {want:.9g}")
        ms, lon = frame_parts(f, dim)
        m, se = ms.mean(), ms.std() / math.sqrt(len(ms))
        check(abs(m - rms ** 2) <= 4 * se,
              f"ndim {ndim}: box mean square {m:.5g} +- {se:.2g} against rms^2 {rms ** 2:.5g}")
        r, rse = ratio_se(ms - lon, ms)
        check(abs(r - 2 / 3) <= 4 * rse,
              f"ndim {ndim}: solenoidal share {r:.4f} +- {rse:.4f} against 2/3 (zeta 0.5)")


def case_bad():
    tg25, tg15 = turbgen_par("2.5", "h25.par"), turbgen_par("1.5", "h15.par")
    base = ["drive", "--box", "1", *COMMON, "--times", "0:1:0.5", "--out", "out.h5"]
    for extra, pat in (
            (["--grid", "8x8x8", "--components", "2"], "--components 2 with a 3D geometry"),
            (["--grid", "8x8", "--components", "1"], "--components 1 with a 2D geometry"),
            (["--grid", "8"], "a 1D box (--grid NX) drives three force components"),
            (["--grid", "8", "--components", "2"], "a 1D box (--grid NX) drives three"),
            (["--grid", "8x8", "--components", "4"], "--components: '4' is out of range"),
            (["--grid", "8x8", "--components", "3", "--eval", "nufft"], "not by the NUFFT"),
            (["--grid", "8x8", "--components", "3", "--amplitude-factor", "1,2"],
             "--amplitude-factor has 2 values, the force has 3 components")):
        r = tbrf(*base, *extra, ok=False)
        check(r.returncode == 2 and r.stderr.count("\n") == 1 and r.stderr.startswith("tbrf: ")
              and pat in r.stderr and not os.path.exists("out.h5"),
              f"{' '.join(extra)}: exit {r.returncode}, {r.stderr.strip()}")
    dom = ["drive", "--domain", "0,0:1,1", *COMMON, "--times", "0:1:0.5", "--grid", "8x8",
           "--components", "3", "--out", "out.h5"]
    for args, pat in ((dom, "needs a periodic box"),
                      (["drive", "--turbgen", tg25, "--components", "3", "--grid", "8x8"],
                       "--components is set by --turbgen's file"),
                      (["drive", "--turbgen", tg25, "--grid", "8x8x8"],
                       "a 2D box (ndim), but the geometry is 3D"),
                      (["drive", "--turbgen", tg15, "--grid", "8x8"],
                       "a 1D box (ndim), but the geometry is 2D")):
        if args[1] == "--turbgen":
            args = args + ["--times", "0:1:0.5", "--out", "out.h5"]
        r = tbrf(*args, ok=False)
        check(r.returncode == 2 and r.stderr.count("\n") == 1 and pat in r.stderr
              and not os.path.exists("out.h5"), f"{pat}: exit {r.returncode}, {r.stderr.strip()}")
    r = tbrf("drive", "--help")
    check("--components NC" in r.stdout and "/field (nt, [nz,] [ny,] nx, NC)" in r.stdout,
          "drive --help names --components and the series' shape")


{"shape": case_shape, "library": case_library, "regen": case_regen, "turbgen": case_turbgen,
 "bad": case_bad}[CASE]()
sys.exit(1 if failures else 0)
