#!/usr/bin/env python3
"""arepo_zoom.py TBRF WORKDIR CASE — `tbrf arepo zoom`: zoom ICs read back
as AREPO needs them (doc/arepo.md, "Zoom initial conditions").

The parent is a 16^3 box of 50 Mpc/h at z = 49 (AREPO's cosmology), seed
4; the region a box of parent cells, a sphere or the sites of listed IDs.

Cases:
  layout  --refine 2 over a box wrapping the box edge: PartType1 and
          PartType2 only, MassTable[1] = MassTable[2] / 8, the total mass
          the parent's (1e-12), IDs 1..N unique, fine first; the coarse
          particles are the `arepo cosmo` 16^3 run's outside the region
          and the fine ones those of the 32^3 run on the sub-cells' centres
          (--glass of one point at the middle of the unit box) inside it,
          to the non-uniform FFT's accuracy (1e-8 kpc/h, 1e-11 of the
          velocities); the region recorded;
          regenerate --check bit for bit; the same zoom as a gadget2 set
          (and its side file), made again a second later byte for byte; --levels 2 --refine 4: PartType2 with a
          Masses dataset of the parent's and level 1's masses, the total
          the parent's; --files 2 the one file's particles
  gas     --gas: PartType0 as many as PartType1, the fine gas the 32^3 --gas
          run's; MassTable[0] + MassTable[1] = MassTable[2] / 8 (1e-12)
  ids     --region ids:FILE (text with comments, dark-matter and gas IDs of
          the parent) --pad 1: the refined cells are the listed sites'
          3^3 neighbourhoods; sphere: the sites within the radius
  pk      a 32^3 parent refined twice over an eighth of the box: the P(k)
          of the whole zoom across the region's boundary (every particle
          with its mass, each coarse one as 8 at its sub-cells' centres so
          that the unperturbed zoom is one lattice, by cloud-in-cell on a
          64^3 mesh, deconvolved) against the model P(k) D^2 to a quarter
          of the parent's Nyquist frequency; and the band beyond the
          parent's Nyquist to the fine one of the sites the PartType1
          particles belong to (the 64^3 run on the sub-cells' centres,
          delta_k = -i k.Psi_k of its displacements) against the model:
          every shell within 4 standard errors, the pooled ratio within 3
  bad     refusals with one message and no file: no --refine, --refine 3,
          --region junk, a box of the wrong count, an ID file with a word,
          an ID past 2 G^3, an empty file, the whole box, --glass, a
          memory budget too small
Exit 77 (skipped) without h5py/numpy.
"""
import os
import sys
import tempfile
import time

try:
    import h5py
    import numpy as np
except ImportError:
    print("h5py or numpy missing: skipped")
    sys.exit(77)

sys.dont_write_bytecode = True  # no __pycache__ beside the tests
import clitest  # noqa: E402 (beside this script)
from clitest import FAILS, check, run  # noqa: E402

TBRF, WORK, CASE = clitest.start(sys.argv, empty="files")
G, L, Z = 16, 50000.0, 49.0
OM, OB, H, S8 = 0.3089, 0.0486, 0.6774, 0.831
COSMO = ["--box", str(L), "--redshift", str(Z), "--omega-m", str(OM), "--omega-b", str(OB),
         "--hubble", str(H), "--sigma8", str(S8), "--seed", "4", "--lpt", "1"]
DX = L / G
# parent cells 14, 15, 0, 1 on x (wrapping), 3..6 on y, 5..7 on z
BOX = "box:%g,%g,%g,%g,%g,%g" % (13.5 * DX, 2.5 * DX, 4.5 * DX, 17.5 * DX, 6.5 * DX, 7.5 * DX)


def zoom(out, *extra, want=0, env=None):
    return run("arepo", "zoom", "--out", out, "--particles", str(G), *COSMO, *extra,
               want=want, env=env)


def cosmo(out, g, *extra):
    run("arepo", "cosmo", "--out", out, "--particles", str(g), *COSMO, *extra, "--quiet")
    with h5py.File(out + ".hdf5", "r") as f:
        return {t: (f[t + "/Coordinates"][...], f[t + "/Velocities"][...])
                for t in ("PartType0", "PartType1") if t in f}


def read(name):
    with h5py.File(name, "r") as f:
        h = dict(f["Header"].attrs)
        parts = {t: {k: f[t][k][...] for k in f[t]} for t in f if t.startswith("PartType")}
        rec = {k: clitest.attr(f["tbrf"], k) for k in f["tbrf"].attrs}
    return h, parts, rec


def cell_of(rows, g, r):
    """The parent cell (x, y, z) of rows of the (g r)^3 sites (I + 1/2) L/(g
    r) (r > 1), or of the g^3 lattice (r = 1)."""
    gf = g * r
    f = np.stack([rows % gf, rows // gf % gf, rows // (gf * gf)], axis=1)
    return f if r == 1 else ((2 * f + 1 + r) // (2 * r)) % g


def same_field(x, v, xr, vr):
    """Positions (periodic) within 1e-8 kpc/h and velocities within 1e-11
    of their largest of the reference's: the zoom's fine particles come
    from the half-shifted lattice's FFT, the reference from the glass
    path's non-uniform FFT (its 1e-12)."""
    if x.shape != xr.shape:
        return False
    dx = np.abs((x - xr + L / 2) % L - L / 2).max()
    return dx < 1e-8 and np.abs(v - vr).max() < 1e-11 * np.abs(vr).max()


def fine_cosmo(out, g, *extra):
    """arepo cosmo of g^3 particles on the sub-cells' centres, (I + 1/2)
    L/g: a one-point glass at the middle of its unit box, tiled g times."""
    with open("half.txt", "w") as f:
        f.write("0.5 0.5 0.5\n")
    return cosmo(out, g, "--glass", "half.txt", *extra)


def in_box(cells):
    x, y, z = cells[:, 0], cells[:, 1], cells[:, 2]
    return ((x >= 14) | (x <= 1)) & (y >= 3) & (y <= 6) & (z >= 5) & (z <= 7)


def case_layout():
    zoom("z", "--refine", "2", "--region", BOX, "--pad", "0")
    h, p, rec = read("z.hdf5")
    check(sorted(p) == ["PartType1", "PartType2"], "types %s" % sorted(p))
    n1, n2 = len(p["PartType1"]["ParticleIDs"]), len(p["PartType2"]["ParticleIDs"])
    cells = 4 * 4 * 3
    check(n1 == 8 * cells and n2 == G ** 3 - cells, "counts %d %d" % (n1, n2))
    mt = h["MassTable"]
    check(abs(mt[1] * 8 / mt[2] - 1) < 1e-12 and mt[0] == 0, "MassTable %s" % mt)
    check(list(h["NumPart_Total"][:3]) == [0, n1, n2], "NumPart_Total %s" % h["NumPart_Total"])
    ids = np.concatenate([p["PartType1"]["ParticleIDs"], p["PartType2"]["ParticleIDs"]])
    check(np.array_equal(ids, np.arange(1, n1 + n2 + 1)), "IDs 1..N, fine first")
    par = cosmo("parent", G)["PartType1"]
    fine = fine_cosmo("fine", 2 * G)["PartType1"]
    # the coarse particles are the parent's outside the region, in row order
    rows = np.arange(G ** 3)
    out = ~in_box(cell_of(rows, G, 1))
    check(np.array_equal(p["PartType2"]["Coordinates"], par[0][out]) and
          np.array_equal(p["PartType2"]["Velocities"], par[1][out]),
          "coarse particles are not the parent run's outside the region")
    frows = np.arange((2 * G) ** 3)
    inside = in_box(cell_of(frows, G, 2))
    check(same_field(p["PartType1"]["Coordinates"], p["PartType1"]["Velocities"],
                     fine[0][inside], fine[1][inside]),
          "fine particles are not the 32^3 run's inside the region")
    check(rec.get("zoom_refinement") == 2 and rec.get("zoom_region_cells") == cells and
          "box" in rec.get("zoom_region", ""), "recorded: %s" % {k: rec[k] for k in rec
                                                                 if k.startswith("zoom")})
    r = run("regenerate", "z.hdf5", "--out", "z2", "--check")
    check("bitwise" in r.stderr + r.stdout, "regenerate --check: %s" % r.stderr)
    zoom("zg", "--refine", "2", "--region", BOX, "--pad", "0", "--format", "gadget2",
         "--precision", "double", "--quiet")
    check(os.path.exists("zg") and os.path.exists("zg.tbrf.h5"), "gadget2 set: %s" %
          os.listdir("."))
    # the same command in another second: the same bytes, side file too
    # (HDF5 records no object times in it)
    time.sleep(1.1)
    with tempfile.TemporaryDirectory() as again:
        run("arepo", "zoom", "--out", "zg", "--particles", str(G), *COSMO, "--refine", "2",
            "--region", BOX, "--pad", "0", "--format", "gadget2", "--precision", "double",
            "--quiet", cwd=again)
        for name in ("zg", "zg.tbrf.h5"):
            with open(name, "rb") as a, open(os.path.join(again, name), "rb") as b:
                check(a.read() == b.read(), "%s differs when made again a second later" % name)
    # two nested levels: PartType2 with Masses, the total the parent's
    zoom("zl", "--refine", "4", "--levels", "2", "--region", BOX, "--pad", "1", "--quiet")
    hl, pl, recl = read("zl.hdf5")
    total = hl["MassTable"][1] * len(pl["PartType1"]["ParticleIDs"]) + \
        pl["PartType2"]["Masses"].sum()
    check(hl["MassTable"][2] == 0 and recl.get("zoom_levels") == 2 and
          abs(total / (G ** 3 * mt[2]) - 1) < 1e-12 and
          set(np.unique(pl["PartType2"]["Masses"])) == {mt[2], mt[2] / 8},
          "levels: MassTable %s, total %.17g of %.17g" % (hl["MassTable"], total, G ** 3 * mt[2]))
    zoom("zf", "--refine", "2", "--region", BOX, "--pad", "0", "--files", "2", "--quiet")
    got = []
    for i in (0, 1):
        with h5py.File("zf.%d.hdf5" % i, "r") as f:
            got.append(f["PartType1/Coordinates"][...])
    check(np.array_equal(np.concatenate(got), p["PartType1"]["Coordinates"]),
          "--files 2: not the one file's fine particles")


def case_gas():
    zoom("z", "--refine", "2", "--region", BOX, "--pad", "0", "--gas")
    h, p, _ = read("z.hdf5")
    check(len(p["PartType0"]["ParticleIDs"]) == len(p["PartType1"]["ParticleIDs"]),
          "gas count %d" % len(p["PartType0"]["ParticleIDs"]))
    mt = h["MassTable"]
    check(abs((mt[0] + mt[1]) * 8 / mt[2] - 1) < 1e-12, "MassTable %s" % mt)
    fine = fine_cosmo("fine", 2 * G, "--gas")
    inside = in_box(cell_of(np.arange((2 * G) ** 3), G, 2))
    check(same_field(p["PartType0"]["Coordinates"], p["PartType0"]["Velocities"],
                     fine["PartType0"][0][inside], fine["PartType0"][1][inside]) and
          same_field(p["PartType1"]["Coordinates"], p["PartType1"]["Velocities"],
                     fine["PartType1"][0][inside], fine["PartType1"][1][inside]),
          "fine gas and dark matter are not the 32^3 --gas run's")
    check(np.all(p["PartType0"]["InternalEnergy"] > 0), "gas energies")


def case_ids():
    sites = [(3, 4, 5), (10, 10, 10)]
    with open("halo.txt", "w") as f:
        f.write("# a halo's IDs\n")
        i, j, k = sites[0]
        f.write("%d %d\n" % (1 + i + G * (j + G * k), G ** 3 + 1 + i + G * (j + G * k)))
        i, j, k = sites[1]
        f.write("%d  # and one more\n" % (1 + i + G * (j + G * k)))
    zoom("z", "--refine", "4", "--region", "ids:halo.txt", "--pad", "1", "--quiet")
    _, p, rec = read("z.hdf5")
    n1 = len(p["PartType1"]["ParticleIDs"])
    check(n1 == 2 * 27 * 64 and rec.get("zoom_region_cells") == 54,
          "ids: %d fine particles, %s cells" % (n1, rec.get("zoom_region_cells")))
    # a sphere of radius 1.5 cells about a site: the sites within it
    c = np.array([8, 8, 8]) * DX
    zoom("s", "--refine", "2", "--region", "sphere:%g,%g,%g,%g" % (*c, 1.5 * DX), "--pad", "0",
         "--quiet")
    _, p, rec = read("s.hdf5")
    q = np.stack(np.meshgrid(*[np.arange(G)] * 3, indexing="ij"), -1).reshape(-1, 3) * DX
    d = (q - c + L / 2) % L - L / 2
    want = int(np.sum(np.sum(d * d, 1) <= (1.5 * DX) ** 2))
    check(rec.get("zoom_region_cells") == want == 19, "sphere: %s cells, want %d" %
          (rec.get("zoom_region_cells"), want))


def model_pk():
    run("arepo", "pk", "--out", "pk.txt", "--omega-m", str(OM), "--omega-b", str(OB), "--h",
        str(H), "--sigma8", str(S8), "--z", str(Z), "--kmin", "1e-4", "--kmax", "100")
    k, p = np.loadtxt("pk.txt", unpack=True)
    return lambda kk: np.exp(np.interp(np.log(kk * 1000), np.log(k), np.log(p))) * 1e9


def split_coarse(x, r, dx):
    """Each coarse particle as r^3 of its mass at the centres of its
    Lagrangian cell's sub-cells: the unperturbed zoom is then one lattice,
    (I + 1/2) L/(G r), uniform on the G r mesh (with the particles as
    points, the two lattices' different spikes would leak power from the
    lattice's own wavenumbers through the region's edges)."""
    s = (np.arange(r) - (r - 1) / 2) * (dx / r)
    off = np.stack(np.meshgrid(s, s, s, indexing="ij"), -1).reshape(-1, 3)
    return ((x[:, None, :] + off[None]) % L).reshape(-1, 3)


def case_pk():
    pk = model_pk()
    g = 2 * G  # a 32^3 parent: shells to an eighth of its Nyquist
    # an eighth of the box refined 2 times, padded
    run("arepo", "zoom", "--out", "z", "--particles", str(g), *COSMO, "--refine", "2",
        "--region", "box:0,0,0,%g,%g,%g" % (L / 2, L / 2, L / 2), "--pad", "1", "--quiet")
    h, p, _ = read("z.hdf5")
    mt = h["MassTable"]
    x1, x2 = p["PartType1"]["Coordinates"], split_coarse(p["PartType2"]["Coordinates"], 2, L / g)
    x = np.concatenate([x1, x2])
    m = np.concatenate([np.full(len(x1), mt[1]), np.full(len(x2), mt[2] / 8)])
    nm = 2 * g
    dk = clitest.cic_delta_k(x, m, nm, L)
    pw, counts, ksum = clitest.pk_shells(dk, nm)
    clitest.pk_compare("zoom, every particle", pw / np.maximum(counts, 1) / L ** 3, counts,
                       ksum, pk, g // 8, L)
    # the band: the fine sites the PartType1 particles belong to (the 64^3
    # run on the sub-cells' centres: case layout), beyond the
    # parent's Nyquist
    # parent's Nyquist, from delta_k = -i k.Psi_k of its displacements (no
    # mass assignment: exact at every mode)
    gf = 2 * g
    fine = fine_cosmo("fine", gf)["PartType1"][0]
    rows = np.arange(gf ** 3)
    q = (np.stack([rows % gf, rows // gf % gf, rows // gf ** 2], 1) + 0.5) * (L / gf)
    psi = ((fine - q + L / 2) % L - L / 2).reshape(gf, gf, gf, 3)
    kk = np.fft.fftfreq(gf, 1.0 / gf) * (2 * np.pi / L)
    kz, ky, kx = np.meshgrid(kk, kk, kk, indexing="ij")
    f = [np.fft.fftn(psi[..., c]) * (L ** 3 / gf ** 3) for c in range(3)]
    dkf = -1j * (kx * f[0] + ky * f[1] + kz * f[2])
    pf, cf, kf = clitest.pk_shells(dkf, gf)
    clitest.pk_compare("fine sites, the band", pf / np.maximum(cf, 1) / L ** 3, cf, kf, pk,
                       gf // 2 - 2, L, first=g // 2 + 1)


def case_bad():
    with open("words.txt", "w") as f:
        f.write("12\nseven\n")
    with open("far.txt", "w") as f:
        f.write("%d\n" % (2 * G ** 3 + 1))
    open("empty.txt", "w").close()
    inputs = sorted(os.listdir("."))
    for extra, want, text in (
            (["--region", BOX], 2, "--refine"),
            (["--refine", "3", "--region", BOX], 2, "power of two"),
            (["--refine", "2", "--region", "cube:1"], 2, "none of"),
            (["--refine", "2", "--region", "box:1,2,3"], 2, "6"),
            (["--refine", "2", "--region", "ids:words.txt"], 2, "line 2"),
            (["--refine", "2", "--region", "ids:far.txt"], 2, "outside"),
            (["--refine", "2", "--region", "ids:empty.txt"], 2, "no ID"),
            (["--refine", "2", "--region", "box:0,0,0,%g,%g,%g" % (L, L, L)], 2, "every"),
            (["--refine", "2", "--region", BOX, "--glass", "words.txt"], 2, "--glass"),
    ):
        r = zoom("bad", *extra, want=want)
        check(text in r.stderr and r.stderr.count("\n") == 1, "%s: message %r" % (extra, r.stderr))
    # arepo cosmo's own checks speak for arepo zoom when it runs them
    r = run("arepo", "zoom", "--out", "bad", "--box", "50000", "--refine", "2", "--region", BOX,
            want=2)
    check(r.stderr.startswith("tbrf: arepo zoom: --redshift is required (see tbrf arepo zoom "
                              "--help)"), "a shared option's message: %r" % r.stderr)
    r = zoom("bad", "--refine", "8", "--region", BOX, env={"TBRF_MEMORY_BUDGET": "4M"}, want=1)
    check("budget" in r.stderr, "budget message: %r" % r.stderr)
    check(sorted(os.listdir(".")) == inputs, "no file left: %s" % os.listdir("."))


{"layout": case_layout, "gas": case_gas, "ids": case_ids, "pk": case_pk,
 "bad": case_bad}[CASE]()
if FAILS:
    print("%d check(s) failed" % len(FAILS))
    sys.exit(1)
print("arepo_zoom %s: all checks passed" % CASE)
