#!/usr/bin/env python3
"""arepo_gas.py TBRF WORKDIR CASE — `tbrf arepo gas` and `tbrf arepo pk`
read back as AREPO's reader requires (doc/arepo.md, tests/README.md).

Cases:
  header     every /Header attribute AREPO opens, with its length; float64
             datasets, Flag_DoublePrecision 1, uint32 IDs 1..N unique;
             a lattice with uniform density: equal masses rho V/N, u from
             the temperature (k_B T/((gamma-1) mu m_p) in (km/s)^2)
  files      --files 3 --precision float --long-ids: ic.0/1/2.hdf5, float32
             datasets, Flag_DoublePrecision 0, uint64 IDs, NumPart_ThisFile
             summing to NumPart_Total, IDs 1..N over the set
  lognormal  jittered lattice, lognormal density: total mass = rho V to
             1e-12; with --mass-as-density the same run writes rho itself,
             so V = m / rho are the Voronoi volumes: they sum to L^3
             (1e-10); the rms of ln rho is the target sigma (see the
             tolerance below); --points FILE re-reads the coordinates
  lndensity  --lognormal (doc/lognormal.md): the contrast has the
             model's spectrum (lognormal_target "density" recorded, the
             rms of ln rho the target sigma as in `lognormal`, regenerate
             --check bitwise); --lognormal --target-spectrum gaussian is
             bitwise --density lognormal (which records nothing new);
             --forcing-b B with --mach M gives sigma^2 = ln(1 + B^2 M^2);
             option misuse refused with one message
  velocity   --velocity solenoidal and compressive at a 16^3 lattice: the
             rms speed is --vrms (tolerance below), the spectral divergence
             (curl) of the lattice values vanishes to 1e-9 of the gradient
             norm, --mach M gives M times the sound speed; the density field
             is periodic (the same field at points shifted by the box)
  bad        negative box, Omega out of range, a --velocity not offered,
             1 + delta <= 0, more points than the memory budget, a points
             file outside the box: exit status, one message, no file
  doc        the `tbrf arepo gas` example of doc/arepo.md (DOC, the 4th
             argument) runs as written and its file holds 32^3 gas cells
  pk         the P(k) table: sigma8 of its rows (trapezoid in ln k) is the
             requested one, and P(z=127)/P(z=0) = D(127)^2 with D from a
             direct integration here; `tbrf generate --model table` runs
             on it
  meanvel    the mass-weighted mean velocity: by default
             sum m v / sum m = 0 (1e-14 of the rms speed; m = rho V, the
             Masses), the subtracted vector recorded as
             velocity_mean_subtracted; --keep-mean-velocity gives the
             values of tests/data/arepo/velocity_kept.hdf5 (written by the
             version before the change) bit for bit, records
             velocity_mean_kept, and the default run's velocities are its
             minus that mean (1e-14); regenerate --check remakes both;
             --keep-mean-velocity without --velocity refused
Exit 77 (skipped) without h5py/numpy.
"""
import os
import re
import sys

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

HEADER_ATTRS = {"NumPart_ThisFile": 6, "NumPart_Total": 6, "NumPart_Total_HighWord": 6,
                "MassTable": 6, "Time": 1, "Redshift": 1, "BoxSize": 1, "NumFilesPerSnapshot": 1,
                "Omega0": 1, "OmegaLambda": 1, "HubbleParam": 1, "Flag_Sfr": 1,
                "Flag_Cooling": 1, "Flag_StellarAge": 1, "Flag_Metals": 1, "Flag_Feedback": 1,
                "Flag_DoublePrecision": 1}


def header(f):
    h = f["Header"].attrs
    for name, n in HEADER_ATTRS.items():
        check(name in h, "Header attribute %s missing" % name)
        if name in h:
            check(np.size(h[name]) == n, "%s has %d values" % (name, np.size(h[name])))
    return h


def case_header():
    p = run("arepo", "gas", "--out", "ic", "--box", "2", "--lattice", "8", "--rho", "3",
            "--temperature", "1e4", "--mu", "0.6")
    # one line saying what was written; --quiet silences it
    check(re.fullmatch(r"wrote ic\.hdf5: AREPO initial conditions, 512 gas cells \(PartType0\), "
                       r"float64, [0-9.]+ KiB\n", p.stderr) is not None, "wrote line %r" % p.stderr)
    p = run("arepo", "gas", "--out", "icq", "--box", "2", "--lattice", "8", "--rho", "3",
            "--temperature", "1e4", "--mu", "0.6", "--quiet")
    check(p.stderr == "" and os.path.exists("icq.hdf5"), "--quiet: %r" % p.stderr)
    with h5py.File("ic.hdf5", "r") as f:
        h = header(f)
        g = f["PartType0"]
        n = 512
        check(list(h["NumPart_Total"]) == [n, 0, 0, 0, 0, 0], "NumPart_Total")
        check(h["Flag_DoublePrecision"] == 1, "Flag_DoublePrecision 1")
        for name, shape in (("Coordinates", (n, 3)), ("Velocities", (n, 3)), ("Masses", (n,)),
                            ("InternalEnergy", (n,))):
            check(g[name].shape == shape and g[name].dtype == np.float64,
                  "%s %s %s" % (name, g[name].shape, g[name].dtype))
        ids = g["ParticleIDs"][...]
        check(g["ParticleIDs"].dtype == np.uint32, "uint32 IDs")
        check(np.array_equal(np.sort(ids), np.arange(1, n + 1)), "IDs 1..N unique")
        m = g["Masses"][...]
        check(np.allclose(m, 3 * 8 / n, rtol=1e-12, atol=0), "lattice masses rho V/N")
        u = 1.380649e-16 * 1e4 / ((2 / 3) * 0.6 * 1.67262192369e-24) / 1e10
        check(np.allclose(g["InternalEnergy"][...], u, rtol=1e-12), "u from T")
        check(np.all(g["Velocities"][...] == 0), "zero velocities")
        check(f["tbrf"].attrs["points"] == b"lattice" or f["tbrf"].attrs["points"] == "lattice",
              "/tbrf records the points")


def case_files():
    p = run("arepo", "gas", "--out", "ic.hdf5", "--box", "1", "--random", "1000", "--files", "3",
            "--precision", "float", "--long-ids", "--sound-speed", "1", "--volumes", "mean")
    check(p.stderr.startswith("wrote ic.0.hdf5 ... ic.2.hdf5 (3 files): AREPO initial "
                              "conditions, 1000 gas cells (PartType0), float32, ") and
          p.stderr.count("\n") == 1, "the set's wrote line %r" % p.stderr)
    check(not os.path.exists("ic.hdf5"), "no ic.hdf5 beside a set")
    ids, total = [], 0
    for i in range(3):
        with h5py.File("ic.%d.hdf5" % i, "r") as f:
            h = header(f)
            check(h["NumFilesPerSnapshot"] == 3, "NumFilesPerSnapshot")
            check(h["Flag_DoublePrecision"] == 0, "Flag_DoublePrecision 0")
            g = f["PartType0"]
            check(g["Coordinates"].dtype == np.float32, "float32 coordinates")
            check(g["ParticleIDs"].dtype == np.uint64, "uint64 IDs")
            total += int(h["NumPart_ThisFile"][0])
            ids.extend(g["ParticleIDs"][...].tolist())
            check(np.allclose(g["InternalEnergy"][...], 1 / (5 / 3 * 2 / 3), rtol=1e-6),
                  "u from the sound speed")
    check(total == 1000, "NumPart_ThisFile sums to %d" % total)
    check(sorted(ids) == list(range(1, 1001)), "IDs 1..N over the set")
    check(sorted(os.listdir(".")) == ["ic.0.hdf5", "ic.1.hdf5", "ic.2.hdf5"],
          "only the set: %s" % os.listdir("."))
    # AREPO reads ic.0.hdf5 before ic.hdf5: a single file beside a set is
    # refused.
    p = run("arepo", "gas", "--out", "ic", "--box", "1", "--random", "10", "--sound-speed", "1",
            "--volumes", "mean", want=1)
    check("ic.0.hdf5 exists" in p.stderr and not os.path.exists("ic.hdf5"),
          "single file beside a set: %r" % p.stderr)


def case_lognormal():
    # Tolerance on the rms of ln rho: for a Gaussian covariance of length
    # l in a box L, the sample variance's relative sd is about
    # sqrt(2 (pi/2)^1.5 l^3/L^3 + 2/N) = sqrt(4.9e-4 + 4.9e-4) = 0.031
    # (l = 0.05, N = 4096), so the rms has 0.016: 8% is five of those.
    args = ["arepo", "gas", "--box", "1", "--jittered", "16", "--density", "lognormal",
            "--sigma", "0.5", "--model", "gaussian", "--length", "0.05", "--rho", "2",
            "--temperature", "100", "--seed", "11"]
    run(*(args + ["--out", "ic"]))
    run(*(args + ["--out", "icd", "--mass-as-density"]))
    with h5py.File("ic.hdf5", "r") as f, h5py.File("icd.hdf5", "r") as fd:
        m = f["PartType0/Masses"][...]
        rho = fd["PartType0/Masses"][...]
        x = f["PartType0/Coordinates"][...]
        check(abs(m.sum() / 2 - 1) < 1e-12, "total mass = rho V: %r" % (m.sum() / 2))
        v = m / rho
        check(abs(v.sum() - 1) < 1e-10, "Voronoi volumes sum to L^3: %r" % v.sum())
        check(np.all(v > 0), "positive volumes")
        s = np.std(np.log(rho))
        print("rms ln rho = %.4f (target 0.5), volumes rms/mean - 1 = %.4f" %
              (s, np.std(v * 4096 - 1)))
        check(abs(s / 0.5 - 1) < 0.08, "rms of ln rho %g vs 0.5" % s)
        check(np.all((x >= 0) & (x < 1)), "points in the box")
    run("arepo", "gas", "--out", "again", "--box", "1", "--points", "ic.hdf5",
        "--sound-speed", "1")
    with h5py.File("ic.hdf5", "r") as f, h5py.File("again.hdf5", "r") as g:
        check(np.array_equal(f["PartType0/Coordinates"][...], g["PartType0/Coordinates"][...]),
              "--points reads an AREPO file's coordinates")


def case_lndensity():
    base = ["arepo", "gas", "--box", "1", "--jittered", "16", "--model", "gaussian",
            "--length", "0.05", "--rho", "2", "--temperature", "100", "--seed", "11",
            "--mass-as-density"]
    run(*(base + ["--lognormal", "--sigma", "0.5", "--out", "d"]))
    run("regenerate", "d.hdf5", "--out", "d2", "--check")
    with h5py.File("d.hdf5", "r") as f:
        a = f["tbrf"].attrs
        check(a["lognormal_target"] in ("density", b"density"), "lognormal_target density")
        check(0 <= a["lognormal_clipped"] < 0.05, "clipped %r" % a["lognormal_clipped"])
        s = np.std(np.log(f["PartType0/Masses"][...]))
        print("--lognormal: rms ln rho = %.4f (target 0.5), clipped %.3g%%" %
              (s, 100 * a["lognormal_clipped"]))
        check(abs(s / 0.5 - 1) < 0.08, "rms of ln rho %g vs 0.5" % s)
    run(*(base + ["--density", "lognormal", "--sigma", "0.5", "--out", "old"]))
    run(*(base + ["--lognormal", "--target-spectrum", "gaussian", "--sigma", "0.5", "--out", "new"]))
    with h5py.File("old.hdf5", "r") as f, h5py.File("new.hdf5", "r") as g:
        check(np.array_equal(f["PartType0/Masses"][...], g["PartType0/Masses"][...]),
              "--target-spectrum gaussian is --density lognormal bitwise")
        check("lognormal_target" not in f["tbrf"].attrs, "--density lognormal records as before")
    run("arepo", "gas", "--box", "1", "--jittered", "8", "--model", "gaussian", "--length", "0.2",
        "--sound-speed", "1", "--lognormal", "--forcing-b", "0.4", "--mach", "3", "--velocity",
        "solenoidal", "--out", "m")
    with h5py.File("m.hdf5", "r") as f:
        sig = f["tbrf"].attrs["sigma"]
        check(abs(sig - np.sqrt(np.log1p(0.16 * 9))) < 1e-14, "--forcing-b 0.4 --mach 3: %r" % sig)
    short = ["arepo", "gas", "--box", "1", "--jittered", "8", "--model", "gaussian", "--length",
             "0.2", "--sound-speed", "1", "--out", "bad"]
    for bad in (["--lognormal", "--density", "linear", "--sigma", "0.5"],
                ["--density", "lognormal", "--sigma", "0.5", "--forcing-b", "0.4"],
                ["--lognormal", "--forcing-b", "0.4"],
                ["--lognormal", "--forcing-b", "0.4", "--mach", "2", "--sigma", "1",
                 "--velocity", "solenoidal"],
                ["--lognormal", "--sigma", "0.5", "--target-spectrum", "rho"]):
        p = run(*(short + bad), want=2)
        check(p.stderr.count("\n") == 1 and not os.path.exists("bad.hdf5"),
              "%s: one message, no file: %r" % (bad, p.stderr))


def spectral(v, g):
    """max |k.v_k| and max |k x v_k| over max |k||v_k| of a g^3 lattice field."""
    k = 2 * np.pi * np.fft.fftfreq(g)
    kz, ky, kx = np.meshgrid(k, k, k, indexing="ij")
    vk = [np.fft.fftn(v[..., c]) for c in range(3)]
    div = np.abs(kx * vk[0] + ky * vk[1] + kz * vk[2])
    curl = np.sqrt(np.abs(ky * vk[2] - kz * vk[1]) ** 2 + np.abs(kz * vk[0] - kx * vk[2]) ** 2 +
                   np.abs(kx * vk[1] - ky * vk[0]) ** 2)
    norm = np.sqrt(kx ** 2 + ky ** 2 + kz ** 2) * np.sqrt(sum(np.abs(x) ** 2 for x in vk))
    return div.max() / norm.max(), curl.max() / norm.max()


def case_velocity():
    # Tolerance on the rms speed: a Gaussian covariance of length l in a
    # box L gives each component's sample variance a relative sd of about
    # sqrt(2 (pi/2)^1.5 l^3/L^3) = 0.045 (l = 0.08); the three components'
    # sum has ~0.026 and the rms half of it, 0.013: 8% is six of those.
    g = 16
    base = ["arepo", "gas", "--box", "1", "--lattice", str(g), "--model", "gaussian",
            "--length", "0.08", "--sound-speed", "1", "--seed", "5"]
    for kind in ("solenoidal", "compressive"):
        run(*(base + ["--velocity", kind, "--vrms", "2", "--out", kind]))
        with h5py.File(kind + ".hdf5", "r") as f:
            v = f["PartType0/Velocities"][...]
            check(f["tbrf"].attrs["velocity"] in (kind, kind.encode()), "velocity attribute")
        rms = np.sqrt(np.mean(np.sum(v * v, axis=1)))
        check(abs(rms / 2 - 1) < 0.08, "%s rms speed %g vs 2" % (kind, rms))
        div, curl = spectral(v.reshape(g, g, g, 3), g)
        bad = div if kind == "solenoidal" else curl
        check(bad < 1e-9, "%s: spectral %s ratio %g" % (kind, "divergence" if kind ==
                                                          "solenoidal" else "curl", bad))
        print("%s: rms speed %.4f (target 2), divergence %.1e, curl %.1e" % (kind, rms, div, curl))
    run(*(base + ["--velocity", "solenoidal", "--mach", "2", "--out", "mach"]))
    with h5py.File("mach.hdf5", "r") as f:
        check(abs(f["tbrf"].attrs["velocity_rms"] - 2) < 1e-12, "--mach 2 at sound speed 1")
    # periodic density: pairs of points 0.002 apart across each face of the
    # box. Periodic (correlation length 0.2): 1 + 0.1 g differs by sd
    # 0.1 sqrt(2 (1 - exp(-1e-4))) = 0.0014 per pair; a field with a seam
    # (unrelated values) by sd 0.14, so all three below 0.01 fails it with
    # probability ~ (0.06)^3.
    with open("a.txt", "w") as f:
        f.write("0.001 0.3 0.6\n0.999 0.3 0.6\n0.4 0.0005 0.2\n0.4 0.9995 0.2\n"
                "0.7 0.8 0.001\n0.7 0.8 0.999\n")
    dens = ["--box", "1", "--sound-speed", "1", "--density", "linear", "--sigma", "0.1",
            "--model", "gaussian", "--length", "0.2", "--resolution", "0.05",
            "--volumes", "mean", "--mass-as-density"]
    run("arepo", "gas", "--out", "pa", "--points", "a.txt", *dens)
    with h5py.File("pa.hdf5", "r") as f:
        ra = f["PartType0/Masses"][...]
    d = np.abs(ra[0::2] - ra[1::2])
    check(np.all(d < 0.01), "density across the faces differs by %s" % d)
    print("density across the three faces differs by %s" % d)


def case_bad():
    base = ["arepo", "gas", "--out", "bad", "--lattice", "4", "--sound-speed", "1"]
    for extra, want, text in (
            (["--box", "-1"], 2, "--box"),
            (["--box", "1", "--omega0", "11"], 2, "Omega0"),
            (["--box", "1", "--velocity", "helical"], 2, "--velocity"),
            (["--box", "1", "--velocity", "solenoidal"], 2, "needs --model"),
            (["--box", "1", "--velocity", "mixed", "--model", "gaussian", "--length", "0.3",
              "--vrms", "1"], 2, "--zeta"),
            (["--box", "1", "--density", "linear", "--sigma", "5", "--model", "gaussian",
              "--length", "0.3"], 1, "1 + delta"),
            (["--box", "1", "--density", "lognormal", "--model", "gaussian", "--length", "0.3"],
             2, "--sigma")):
        p = run(*(base + extra), want=want)
        check(text in p.stderr and p.stderr.count("\n") == 1,
              "%s: message %r" % (extra, p.stderr))
    p = run("arepo", "gas", "--out", "bad", "--box", "1", "--lattice", "64", "--sound-speed",
            "1", env={"TBRF_MEMORY_BUDGET": "8M"}, want=1)
    check("budget" in p.stderr, "budget message: %r" % p.stderr)
    with open("pts.txt", "w") as f:
        f.write("0.1 0.2 0.3\n0.5 0.5 1.5\n0.7 0.1 0.2\n")
    p = run("arepo", "gas", "--out", "bad", "--box", "1", "--points", "pts.txt",
            "--sound-speed", "1", want=1)
    check("outside" in p.stderr, "point outside the box: %r" % p.stderr)
    check(sorted(os.listdir(".")) == ["pts.txt"], "no file left: %s" % os.listdir("."))


def growth(om, ol, z):
    # D ∝ E ∫ da/(aE)^3 by the trapezoid rule in a = t^2 (10^5 steps).
    def raw(a):
        t = np.linspace(0, np.sqrt(a), 100001)
        a_ = t * t
        den = om + (1 - om - ol) * a_ + ol * a_ ** 3
        f = 2 * t ** 4 / den ** 1.5
        e = np.sqrt(om / a ** 3 + (1 - om - ol) / a ** 2 + ol)
        return e * np.trapz(f, t)
    return raw(1 / (1 + z)) / raw(1.0)


def sigma8(path):
    k, p = np.loadtxt(path, unpack=True)
    lk = np.log(k)
    kk = np.exp(np.linspace(lk[0], lk[-1], 400001))
    pp = np.exp(np.interp(np.log(kk), lk, np.log(p)))
    x = kk * 8
    w = 3 * (np.sin(x) - x * np.cos(x)) / x ** 3
    return np.sqrt(np.trapz(kk ** 3 * pp * w * w, np.log(kk)) / (2 * np.pi ** 2))


def case_pk():
    common = ["--omega-m", "0.3089", "--omega-b", "0.0486", "--h", "0.6774", "--sigma8", "0.831"]
    p = run("arepo", "pk", "--out", "pk0.txt", *common)
    check(re.fullmatch(r"wrote pk0\.txt: P\(k\) table, [0-9]+ rows \(k in h/Mpc, P in "
                       r"\(Mpc/h\)\^3\)\n", p.stderr) is not None, "pk wrote line %r" % p.stderr)
    run("arepo", "pk", "--out", "pk127.txt", "--z", "127", *common)
    s0 = sigma8("pk0.txt")
    check(abs(s0 / 0.831 - 1) < 1e-4, "sigma8 of the table %r" % s0)
    d = growth(0.3089, 0.6911, 127)
    p0 = np.loadtxt("pk0.txt")[:, 1]
    p1 = np.loadtxt("pk127.txt")[:, 1]
    check(np.allclose(p1 / p0, d * d, rtol=1e-7), "P(127)/P(0) = D^2 = %r" % (d * d))
    print("sigma8 %.6f, D(127) = %.6e" % (s0, d))
    run("generate", "--model", "table", "--table", "pk0.txt", "--grid", "16x16x16",
        "--spacing", "4", "--out", "field.h5", "--quiet")


def case_doc():
    import re
    import shlex
    text = open(sys.argv[4]).read()
    block = re.search(r"```sh\n(tbrf arepo gas.*?)```", text, re.S)
    check(block is not None, "doc/arepo.md has its example")
    if block is None:
        return
    words = shlex.split(block.group(1).replace("\\\n", " "))
    run(*words[1:])
    with h5py.File(words[words.index("--out") + 1] + ".hdf5", "r") as f:
        header(f)
        check(f["PartType0/Masses"].shape == (32 ** 3,), "32^3 cells")


def case_meanvel():
    fixture = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "arepo",
                           "velocity_kept.hdf5")
    with h5py.File(fixture, "r") as f:
        words = f["tbrf"].attrs["command"].decode().split()
        old = {k: f["PartType0/" + k][...] for k in ("Coordinates", "Velocities", "Masses")}
    words[words.index("--out") + 1] = "kept"
    run(*words[1:], "--keep-mean-velocity", "--quiet")
    words[words.index("--out") + 1] = "sub"
    run(*words[1:-1] if words[-1] == "--keep-mean-velocity" else words[1:], "--quiet")
    with h5py.File("kept.hdf5", "r") as a, h5py.File("sub.hdf5", "r") as b:
        for k in old:
            check(np.array_equal(a["PartType0/" + k][...], old[k]), "kept: %s differs from the "
                  "previous version's" % k)
        m, vk, vs = b["PartType0/Masses"][...], a["PartType0/Velocities"][...], \
            b["PartType0/Velocities"][...]
        rms = np.sqrt(np.mean(np.sum(vk * vk, axis=1)))
        mean = np.sum(m[:, None] * vk, axis=0) / np.sum(m)
        after = np.sum(m[:, None] * vs, axis=0) / np.sum(m)
        rec = np.array([float(x) for x in b["tbrf"].attrs["velocity_mean_subtracted"].split()])
        kept = np.array([float(x) for x in a["tbrf"].attrs["velocity_mean_kept"].split()])
        print("meanvel: mean velocity %s (%.1f%% of the rms %.3f), after %s" %
              (mean, 100 * np.linalg.norm(mean) / rms, rms, after))
        check(np.max(np.abs(after)) < 1e-14 * rms, "sum m v / sum m after: %s" % after)
        check(np.max(np.abs(rec - mean)) < 1e-13 * rms and np.array_equal(rec, kept),
              "recorded %s, %s vs %s" % (rec, kept, mean))
        check(np.max(np.abs(vs - (vk - mean))) < 1e-14 * rms, "velocities minus the mean")
        check(np.linalg.norm(mean) > 1e-3 * rms, "a mean to subtract: %s" % mean)
    for name in ("kept", "sub"):
        out = run("regenerate", name + ".hdf5", "--out", name + "2", "--check").stdout
        check("bitwise equal" in out, "regenerate --check %s: %r" % (name, out))
    p = run("arepo", "gas", "--out", "bad", "--box", "1", "--lattice", "4", "--sound-speed", "1",
            "--keep-mean-velocity", want=2)
    check("--velocity" in p.stderr and not os.path.exists("bad.hdf5"),
          "--keep-mean-velocity alone: %r" % p.stderr)


{"doc": case_doc, "header": case_header, "files": case_files, "lognormal": case_lognormal,
 "lndensity": case_lndensity, "bad": case_bad,
 "pk": case_pk, "velocity": case_velocity, "meanvel": case_meanvel}[CASE]()
print("%s: %s" % (CASE, "FAILED %d" % len(FAILS) if FAILS else "ok"))
sys.exit(1 if FAILS else 0)
