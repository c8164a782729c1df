#!/usr/bin/env python3
"""lognormal_cli.py TBRF WORKDIR CASE — `tbrf generate --lognormal` (doc/lognormal.md, doc/statistics.md).

Cases:
  spectrum  (stats) the density contrast rho/<rho> - 1 of a 2D periodic box
            (512^2, FFT method, Matern nu = 1.5, length 4 cells) has the
            model's spectrum at sigma_lnrho = 0.5, 1.0 and 1.5 (variance
            e^(s^2) - 1 of the contrast): in every shell k_f .. k_nyq/2 the
            mean of 16 realizations is within 6 standard errors (from the
            realizations' scatter: z is Student's t with 15 degrees of
            freedom, P(|t| > 6) = 2.4e-5, 0.3% over the 128 shells) of the
            model's mean over the shell's modes, and the mean z^2 over the
            shells (expected 15/13) is below 2. Its power:
            --target-spectrum gaussian at sigma_lnrho 1.5 (today's
            transform) fails both (max |z| ~10, mean z^2 ~45)
  pdf       (stats) ln rho is Gaussian with the requested sigma: per
            realization its mean is -v/2 exactly (the box has no k = 0
            mode; v = lognormal_shift_variance, the plan's resolved
            variance), its variance the plan's resolved variance and its
            skewness and excess kurtosis 0, each within 4 standard errors
            of 16 realizations; lognormal_sigma2_lnrho = ln(1 + var);
            --mach 3 --forcing-b 0.5 records the contrast's variance
            b^2 M^2 = 2.25 (and sigma_g^2 = ln 3.25)
  refuse    what no lognormal density realises: a Gaussian covariance at
            sigma_lnrho 1.5 (10% of the Gaussian's variance would be
            clipped), a band-limited power law; exit 1, one message naming
            the clipped percentage; a small clipping (Gaussian covariance,
            sigma_lnrho 0.5) warns with it and goes on; option misuse exits 2
  mean      rho/rho_mean has mean 1 on a grid that misses variance (a 32^3
            box whose modes carry 90% of g's, the rest above the Nyquist:
            Matern length 0.64 cells): ln rho is g - v/2 with v the
            plan's resolved variance, to rounding, against the Gaussian of
            the same seed (--target-spectrum gaussian against the plain
            field), v recorded; the mean of rho over 16 realizations is
            within 4 standard errors of 1 (with sigma_g^2 subtracted, as
            before, it is exp(-0.05) = 0.95, some 15 standard errors off);
            the resolved-variance warning says the density's variance
  regen     regenerate --check remakes a turning-bands grid and a points
            file bit for bit (the derived table is a function of the
            recorded parameters); sample at the file's own grid is bitwise;
            info shows the lognormal line; the attributes are recorded
Exit 77 (skipped) without h5py/numpy.
"""
import math
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


N, NU, R = 512, 1.5, 16
LEN = 4.0 / N


def box_args(s2, seed, target="density", extra=()):
    return ["generate", "--model", "matern", "--length", repr(LEN), "--nu", repr(NU),
            "--grid", f"{N}x{N}", "--spacing", repr(1.0 / N), "--box", "1", "--lognormal",
            "--target-spectrum", target, "--variance", repr(s2), "--seed", str(seed),
            "--out", "f.h5", "--quiet", "--no-xdmf", *extra]


def matern2(k, s2):
    """The 2D Matern spectrum of variance s2 (doc/method.md's convention)."""
    return s2 * 4 * math.pi * NU * LEN**2 / (1 + (k * LEN)**2)**(NU + 1)


def shells():
    k = 2 * np.pi * np.fft.fftfreq(N, d=1.0 / N)
    kk = np.hypot(*np.meshgrid(k, k, indexing="ij")).ravel()
    idx = np.rint(kk / (2 * np.pi)).astype(int)  # shell n: |k|/k_f in [n - 1/2, n + 1/2)
    return kk, idx, np.bincount(idx)


def shell_z(s2, target, var):
    """z per shell 1 .. N/4 of the realizations' mean against the model."""
    kk, idx, cnt = shells()
    model = np.bincount(idx, weights=matern2(kk, s2)) / cnt
    pows = []
    for s in range(R):
        run(*box_args(var, 101 + s, target))
        with h5py.File("f.h5") as f:
            rho = f["field"][...]
        d = rho / rho.mean() - 1
        p = np.abs(np.fft.fft2(d) / N**2)**2  # |delta_k|^2 / V, V = 1
        pows.append(np.bincount(idx, weights=p.ravel()) / cnt)
    pows = np.array(pows)[:, 1:N // 4 + 1]
    mean, se = pows.mean(0), pows.std(0, ddof=1) / math.sqrt(R)
    return (mean - model[1:N // 4 + 1]) / se


def case_spectrum():
    for s in (0.5, 1.0, 1.5):
        s2 = math.expm1(s * s)
        z = shell_z(s2, "density", s2)
        print(f"sigma_lnrho {s}: max |z| {np.abs(z).max():.2f}, mean z^2 {np.mean(z * z):.2f} "
              f"over {len(z)} shells")
        if not (np.abs(z).max() < 6 and np.mean(z * z) < 2):
            fail(f"sigma_lnrho {s}: the contrast's spectrum is off the model: z {z}")
    s = 1.5
    z = shell_z(math.expm1(s * s), "gaussian", s * s)
    print(f"--target-spectrum gaussian, sigma_lnrho {s}: max |z| {np.abs(z).max():.2f}, "
          f"mean z^2 {np.mean(z * z):.2f}")
    if np.abs(z).max() < 6 or np.mean(z * z) < 2:
        fail("the Gaussian target passed the density test: the test has no power")


def case_pdf():
    s = 1.5
    s2 = math.expm1(s * s)
    st = []
    for r in range(R):
        run(*box_args(s2, 301 + r))
        with h5py.File("f.h5") as f:
            lr = np.log(f["field"][...].astype(np.float64))
            sg2, vres = f.attrs["lognormal_sigma2_lnrho"], f.attrs["variance_resolved"]
            shift = f.attrs["lognormal_shift_variance"]
        c = lr - lr.mean()
        v = np.mean(c * c)
        st.append((lr.mean(), v, np.mean(c**3) / v**1.5, np.mean(c**4) / v**2 - 3))
    st = np.array(st)
    if abs(sg2 - math.log1p(s2)) > 1e-9 * sg2:
        fail(f"lognormal_sigma2_lnrho {sg2}, want ln(1 + {s2})")
    if shift != vres:
        fail(f"lognormal_shift_variance {shift}, want the resolved variance {vres}")
    if np.abs(st[:, 0] + shift / 2).max() > 1e-9:
        fail(f"mean of ln rho {st[:, 0]}, want -v/2 = {-shift / 2}")
    for col, want, what in ((1, vres, "variance"), (2, 0.0, "skewness"), (3, 0.0, "kurtosis")):
        m, se = st[:, col].mean(), st[:, col].std(ddof=1) / math.sqrt(R)
        print(f"ln rho {what}: {m:.5f} +- {se:.5f} (want {want:.5f})")
        if abs(m - want) > 4 * se:
            fail(f"ln rho {what} {m} +- {se}, want {want}")
    run("generate", "--model", "matern", "--length", "0.1", "--nu", "1.5", "--grid", "16x16",
        "--lognormal", "--mach", "3", "--forcing-b", "0.5", "--out", "m.h5", "--quiet")
    with h5py.File("m.h5") as f:
        if abs(f.attrs["variance"] - 2.25) > 1e-14 or \
                abs(f.attrs["lognormal_sigma2_lnrho"] - math.log(3.25)) > 1e-9:
            fail(f"--mach 3 --forcing-b 0.5: variance {f.attrs['variance']}, sigma_g^2 "
                 f"{f.attrs['lognormal_sigma2_lnrho']}")


def case_refuse():
    base = ["generate", "--grid", "32x32x32", "--spacing", "0.03125", "--out", "r.h5", "--lognormal"]
    for old in ("r.h5", "r.xmf"):  # a previous run's
        if os.path.exists(old):
            os.remove(old)
    p = run(*base, "--model", "gaussian", "--length", "0.1", "--variance",
            repr(math.expm1(2.25)), ok=False, code=1)
    if "would lose" not in p.stderr or "%" not in p.stderr or p.stderr.count("\n") != 1:
        fail(f"gaussian covariance at sigma_lnrho 1.5: {p.stderr!r}")
    p = run(*base, "--model", "powerlaw", "--index", "-3.9", "--kmin", "6.3", "--kmax", "40",
            "--variance", repr(math.expm1(2.25)), ok=False, code=1)
    if "would lose" not in p.stderr:
        fail(f"band-limited power law: {p.stderr!r}")
    if os.path.exists("r.h5"):
        fail("a refused run left its file")
    p = run(*base, "--model", "gaussian", "--length", "0.1", "--variance", repr(math.expm1(0.25)))
    if "clipped, losing" not in p.stderr:
        fail(f"the small clipping is not said: {p.stderr!r}")
    with h5py.File("r.h5") as f:
        if not 0 < f.attrs["lognormal_clipped"] < 0.05:
            fail(f"lognormal_clipped {f.attrs['lognormal_clipped']}")
    g = ["generate", "--model", "gaussian", "--length", "0.1", "--grid", "8x8", "--out", "u.h5"]
    for bad in (["--target-spectrum", "density"], ["--mach", "2", "--forcing-b", "0.5"],
                ["--lognormal", "--target-spectrum", "rho"], ["--lognormal", "--mach", "2"],
                ["--lognormal", "--mach", "2", "--forcing-b", "0.5", "--variance", "2"],
                ["--lognormal", "--vector", "solenoidal"],
                ["--lognormal", "--mach", "-1", "--forcing-b", "0.5"]):
        p = run(*g, *bad, ok=False, code=2)
        if p.stderr.count("\n") != 1:
            fail(f"{bad}: not one message: {p.stderr!r}")


def case_mean():
    grid = ["--model", "matern", "--nu", "1.5", "--length", "0.02", "--grid", "32x32x32",
            "--spacing", "0.03125", "--box", "1", "--no-xdmf"]
    run("generate", *grid, "--variance", "1", "--seed", "7", "--out", "g.h5", "--quiet")
    p = run("generate", *grid, "--lognormal", "--target-spectrum", "gaussian", "--variance", "1",
            "--seed", "7", "--out", "l.h5")
    with h5py.File("g.h5") as f, h5py.File("l.h5") as h:
        g, lr = f["field"][...], np.log(h["field"][...])
        v, vres = h.attrs["lognormal_shift_variance"], h.attrs["variance_resolved"]
    if v != vres or not 0.85 < v < 0.95:
        fail(f"lognormal_shift_variance {v}, want the resolved variance {vres} (about 0.90)")
    if np.abs(lr - (g - v / 2)).max() > 1e-12:
        fail(f"ln rho is not g - v/2: {np.abs(lr - (g - v / 2)).max()}")
    if "keeps mean 1" not in p.stderr or "%.4g" % math.expm1(v) not in p.stderr:
        fail(f"the warning does not give the density's variance: {p.stderr!r}")
    means = []
    for s in range(R):
        run("generate", *grid, "--lognormal", "--target-spectrum", "gaussian", "--variance", "1",
            "--seed", str(500 + s), "--out", "l.h5", "--quiet")
        with h5py.File("l.h5") as h:
            means.append(h["field"][...].mean())
    m, se = np.mean(means), np.std(means, ddof=1) / math.sqrt(R)
    print(f"mean of rho/rho_mean: {m:.4f} +- {se:.4f} over {R} realizations (resolved {v:.4f})")
    if abs(m - 1) > 4 * se:
        fail(f"mean of rho/rho_mean {m} +- {se}, want 1")


def case_regen():
    run("generate", "--model", "vonkarman", "--length", "0.2", "--grid", "24x20x16",
        "--spacing", "0.05", "--lognormal", "--variance", "2", "--seed", "5", "--out", "g.h5",
        "--quiet")
    p = run("regenerate", "g.h5", "--out", "g2.h5", "--check", "--quiet")
    run("sample", "g.h5", "--grid", "24x20x16", "--spacing", "0.05", "--out", "s.h5", "--quiet")
    with h5py.File("g.h5") as f, h5py.File("s.h5") as s:
        if attr(f, "lognormal") != "density" or not np.array_equal(f["field"][...], s["field"][...]):
            fail("sample at the file's own grid is not bitwise, or lognormal not recorded")
        if not (f["field"][...] > 0).all():
            fail("a density is not positive")
    info = run("info", "g.h5").stdout
    if "lognormal: the values are rho/rho_mean" not in info:
        fail(f"info: {info}")
    np.savetxt("pts.txt", np.random.default_rng(3).uniform(0, 1, (500, 3)))
    run("generate", "--model", "exponential", "--length", "0.3", "--points", "pts.txt",
        "--lognormal", "--target-spectrum", "gaussian", "--variance", "0.7", "--out", "p.h5",
        "--quiet")
    run("regenerate", "p.h5", "--out", "p2.h5", "--check", "--quiet")
    with h5py.File("p.h5") as f:
        if attr(f, "lognormal") != "gaussian" or abs(f.attrs["lognormal_sigma2_lnrho"] - 0.7) > 1e-12:
            fail("gaussian target: attributes")


{"spectrum": case_spectrum, "pdf": case_pdf, "refuse": case_refuse,
 "mean": case_mean, "regen": case_regen}[CASE]()
print("ok")
