#!/usr/bin/env python3
"""spectrum_model.py TBRF WORKDIR — `tbrf spectrum` prints the file's own
model (doc/cli.md, "spectrum"): for every kind of generated file with a
model, the printed P_model column against the P_measured column within the
estimator's scatter.

Every file is a periodic box on its own lattice (`generate --box`), which
`tbrf spectrum` measures without a window: each mode's periodogram of a
Gaussian field is its model times an exponential variate, the pairs k, -k
are equal and distinct pairs independent, so a shell of M modes (counted
over the whole sphere, the table's `modes`) whose model values are P_j has
  var(P_shell) = (2 / M^2) sum_j P_j^2,
i.e. relative variance (2 / M) rho, rho = <P^2> / <P>^2 over the shell's
directions: 1 for an isotropic field, and for an anisotropic one computed
here (rotation drops out of a whole shell; a 256 x 512 Gauss-Legendre x
trapezoid rule over the sphere, 4096 points on the circle) from the power
law's det S |S n|^index, independently of the tool's quadrature. A vector
field's mean of components carries, per mode, d - 1 transverse
amplitudes of power d f P/(d - 1) and one longitudinal of power d (1 - f) P
(f the solenoidal share zeta gives), so its shells' relative variance is
(2 / M)(f^2/(d - 1) + (1 - f)^2), the solenoidal part's (2 / M)/(d - 1)
and the compressive part's 2 / M. A lognormal density at sigma_g^2 = 0.1
of a Matern (nu = 1.5) g, its variance spread over many modes (length 3.2
and 3.8 cells), is close to Gaussian: the terms of second and higher
order in g, whose scatter the Gaussian formula leaves out, carry about
sigma_g^2 = 10% of each shell's power, and their own scatter is that of g's
realised variance, about 1% of it. (A Gaussian covariance is no test of
this: there the second order dominates the high shells and moves with the
few low modes that hold g's variance.)

Per file, over the shells k_f < k <= k_Nyquist (the first has too few
modes for the Gaussian limit): chi2/n = mean of z_b^2, z_b the shell's
deviation over its standard deviation, must be below 1 + 4 sqrt(2/n)
(its own 4 sigma), and the inverse-variance weighted mean of
P_measured/P_model within 4 standard errors of 1. Today's code
(isotropic line for the anisotropic files, the derived Gaussian's
amplitude on the lognormal ones) fails both on those files.
`preview` and `spectrum` of the particle files of `tbrf arepo cosmo` (AREPO
HDF5, a Gadget format-2 member and its side file) and `arepo gas` exit 1
with one line naming the format and the command that wrote it and
pointing at yt, and write nothing.
Exit 0, 1 on a failure, 77 without numpy.
"""
import math
import os
import subprocess
import sys

try:
    import numpy as np
except ImportError:
    print("numpy missing: skipped")
    sys.exit(77)

TBRF, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
os.chdir(WORK)
failures = []


def tbrf(*args):
    r = subprocess.run([TBRF, *args], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"tbrf {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}")
    return r.stdout


def table(text):
    """The header's column names and the rows of `tbrf spectrum`."""
    names, rows = None, []
    for line in text.splitlines():
        if line.startswith("# k "):
            names = line[1:].split()
        elif line.startswith("  "):
            rows.append([float(x) for x in line.split()])
    return names, np.array(rows)


def aniso_rho(dim, scale, index):
    """<P^2>/<P>^2 over the directions of det S |S n|^index (any k)."""
    s = np.array(scale[:dim], float)
    if dim == 2:
        phi = (np.arange(4096) + 0.5) * 2 * np.pi / 4096
        n = np.stack([np.cos(phi), np.sin(phi)], -1)
        w = np.ones(len(phi))
    else:
        u, wu = np.polynomial.legendre.leggauss(256)
        phi = (np.arange(512) + 0.5) * 2 * np.pi / 512
        U, PHI = np.meshgrid(u, phi, indexing="ij")
        st = np.sqrt(1 - U * U)
        n = np.stack([st * np.cos(PHI), st * np.sin(PHI), U], -1).reshape(-1, 3)
        w = np.repeat(wu, len(phi))
    p = np.sqrt(((n * s) ** 2).sum(-1)) ** index
    m1 = (w * p).sum() / w.sum()
    m2 = (w * p * p).sum() / w.sum()
    return m2 / (m1 * m1)


def check(name, out, rel_var, col="P_measured", mcol="P_model"):
    """The two statistics over the shells above the first."""
    names, t = table(out)
    if names is None or mcol not in names:
        failures.append(f"{name}: no {mcol} column")
        return
    k, meas, model, modes = (t[:, names.index(c)] for c in ("k", col, mcol, "modes"))
    use = (k > k[0]) & (modes > 0)
    if not np.all(np.isfinite(model[use]) & (model[use] > 0)):
        failures.append(f"{name}: {mcol} is not a positive number in every shell")
        return
    sd = model[use] * np.sqrt(rel_var / modes[use])
    z = (meas[use] - model[use]) / sd
    nb = len(z)
    chi2 = float((z * z).mean())
    w = modes[use] / rel_var
    ratio = float((w * meas[use] / model[use]).sum() / w.sum())
    rsd = math.sqrt(1 / w.sum())
    ok = chi2 <= 1 + 4 * math.sqrt(2 / nb) and abs(ratio - 1) <= 4 * rsd
    print(f"{'ok  ' if ok else 'FAIL'} {name} {col}: {nb} shells, chi2/n {chi2:.3f} "
          f"(bound {1 + 4 * math.sqrt(2 / nb):.3f}), mean ratio {ratio:.4f} +- {rsd:.4f}")
    if not ok:
        failures.append(name)


BOX3 = ["--box", "1", "--grid", "32x32x32", "--spacing", "0.03125", "--quiet"]
BOX2 = ["--box", "1", "--grid", "128x128", "--spacing", "0.0078125", "--quiet"]
MAT = ["--model", "matern", "--length", "0.1", "--nu", "1.5"]

# isotropic scalar, 3D and 2D
for name, geo in (("iso3", BOX3), ("iso2", BOX2)):
    tbrf("generate", *geo, *MAT, "--seed", "3", "--out", f"{name}.h5")
    check(name, tbrf("spectrum", f"{name}.h5"), 2.0)

# anisotropic power laws (band wider than every shell's |S k|), rotated;
# not k^-dim, whose shell average det S <|S n|^-dim> is 1 for every S
for name, geo, dim, sc, an, idx in (
        ("anis3", BOX3, 3, (1.0, 0.5, 2.0), (0.3, 0.2, 0.1), -2.0),
        ("anis2", BOX2, 2, (0.6, 1.5, 1.0), (0.4, 0.0, 0.0), -2.5)):
    opts = ["--model", "powerlaw", "--index", str(idx), "--kmin", "0.5", "--kmax", "5000",
            "--anis", ",".join(map(str, sc[:dim])), "--angles",
            ",".join(map(str, an[:1] if dim == 2 else an))]
    tbrf("generate", *geo, *opts, "--seed", "5", "--out", f"{name}.h5")
    out = tbrf("spectrum", f"{name}.h5")
    if "averaged over each shell's directions" not in out:
        failures.append(f"{name}: the header does not say the model is a shell average")
    check(name, out, 2.0 * aniso_rho(dim, sc, idx))

# lognormal densities: the contrast targeted (3D) and g targeted (2D)
for name, geo, target in (("logd3", BOX3, "density"), ("logg2", BOX2, "gaussian")):
    var = "0.10517" if target == "density" else "0.1"  # sigma_g^2 = 0.1 either way
    length = "0.1" if geo is BOX3 else "0.03"
    tbrf("generate", *geo, "--model", "matern", "--nu", "1.5", "--length", length, "--variance", var,
         "--lognormal", "--target-spectrum", target, "--seed", "7", "--out", f"{name}.h5")
    out = tbrf("spectrum", f"{name}.h5")
    if "the spectrum of rho/rho_mean" not in out:
        failures.append(f"{name}: the header does not say P_model is the density's")
    check(name, out, 2.0)

# vector fields: the mean of the components and each part
for name, geo, d, kind, f in (("sol3", BOX3, 3, ["solenoidal"], 1.0),
                              ("comp3", BOX3, 3, ["compressive"], 0.0),
                              ("mix2", BOX2, 2, ["mixed", "--zeta", "0.5"], 0.5)):
    tbrf("generate", *geo, *MAT, "--vector", *kind, "--seed", "9", "--out", f"{name}.h5")
    out = tbrf("spectrum", f"{name}.h5")
    check(name, out, 2.0 * (f * f / (d - 1) + (1 - f) ** 2))
    if f > 0:
        check(name, out, 2.0 / (d - 1), "P_sol", "P_sol_model")
    if f < 1:
        check(name, out, 2.0, "P_comp", "P_comp_model")
    if name == "mix2":
        # one component: per mode its power is d P times the share of the
        # direction (n_y^2 f + n_x^2 (1 - f) for x in 2D), one amplitude
        check(name + " x", tbrf("spectrum", f"{name}.h5", "--component", "x"), 2.0 * 1.5)

# particle files are not grids: one line naming the format and yt, exit 1
COSMO = ["--box", "100000", "--particles", "8", "--redshift", "49", "--omega-m", "0.3",
         "--omega-b", "0.05", "--hubble", "0.7", "--sigma8", "0.8", "--quiet"]
tbrf("arepo", "cosmo", "--out", "ic", *COSMO)
tbrf("arepo", "cosmo", "--out", "icg", "--format", "gadget2", *COSMO)
tbrf("arepo", "gas", "--out", "gas", "--box", "1", "--lattice", "8", "--temperature", "100",
     "--quiet")
for path, says in (("ic.hdf5", "an AREPO HDF5 snapshot of particles written by tbrf arepo cosmo"),
                   ("gas.hdf5", "an AREPO HDF5 snapshot of particles written by tbrf arepo gas"),
                   ("icg", "a Gadget format-2 snapshot of particles"),
                   ("icg.tbrf.h5", "the side file of a Gadget set of particles")):
    for cmd in (["preview", path, "--out", "p.png"], ["spectrum", path]):
        r = subprocess.run([TBRF, *cmd], capture_output=True, text=True)
        ok = (r.returncode == 1 and r.stderr.count("\n") == 1 and says in r.stderr and
              "yt" in r.stderr and not r.stdout and not os.path.exists("p.png"))
        print(f"{'ok  ' if ok else 'FAIL'} {cmd[0]} {path}: {r.stderr.strip()}")
        if not ok:
            failures.append(f"{cmd[0]} {path}")

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
