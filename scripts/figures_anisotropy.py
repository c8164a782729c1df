#!/usr/bin/env python3
"""The figures of doc/statistics.md, "test_stats_anisotropy":
anisotropic, rotated Gaussian-covariance fields made by the tbrf command
with turning bands and the FFT method, and their measured covariance along
and across the principal axes against C_iso(|S^-1 R^T x|).

    /usr/bin/python3 scripts/figures_anisotropy.py BUILD/cli/tbrf doc/figures

Needs numpy, h5py and matplotlib. The cases are test_stats_anisotropy's:
2D Gaussian length 10 cells x (1, 0.5), angle atan2(3, 4) (axes (4, 3)/5 and
(-3, 4)/5) on 256^2 cells; 3D length 6 x (1, 0.75, 0.5), angles (-pi/4,
-asin(1/3), -pi/4) (axes (2,-1,2)/3, (2,2,-1)/3, (-1,2,2)/3) on 64^3 cells.
Estimator: the mean of z(x) z(x + l) over the cell pairs inside the grid,
per realization (zero-padded FFT autocorrelation, divided by the pair
count), then the mean and its standard error over the realizations."""
import math
import os
import subprocess
import sys
import tempfile

import h5py
import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

NREAL = 12


def field(tool, args, r, tmp):
    path = os.path.join(tmp, "f.h5")
    subprocess.run([tool, "generate", *args, "--realization", str(r), "--out", path, "--quiet",
                    "--no-xdmf"], check=True)
    with h5py.File(path, "r") as f:
        return f["field"][()]


def autocov(z):
    """C_hat(l) for every lag, as an array centred at lag 0."""
    shape = [2 * n for n in z.shape]
    F = np.fft.rfftn(z, shape)
    num = np.fft.irfftn(np.abs(F) ** 2, shape)
    ones = np.fft.rfftn(np.ones_like(z), shape)
    cnt = np.fft.irfftn(np.abs(ones) ** 2, shape)
    return np.fft.fftshift(num / np.maximum(np.rint(cnt), 1))


def lag_value(c, lag):
    """c at an integer lag vector (array axes are z, y, x: lag is x, y[, z])."""
    centre = [n // 2 for n in c.shape]
    idx = tuple(centre[k] + lag[len(lag) - 1 - k] for k in range(len(lag)))
    return c[idx]


def measure(tool, base, lags, tmp):
    est = np.zeros((NREAL, len(lags)))
    for r in range(NREAL):
        c = autocov(field(tool, base, r, tmp))
        est[r] = [lag_value(c, l) for l in lags]
    return est.mean(0), est.std(0, ddof=1) / math.sqrt(NREAL)


def theory(lag, axes, lengths):
    y = [np.dot(a, lag) / ell for a, ell in zip(axes, lengths)]
    return math.exp(-sum(v * v for v in y))


def panel(ax, tool, base, axes, ivec, lengths, rmax, title, tmp):
    """Covariance along each principal axis (integer multiples of the
    axis's integer vector) and along x, measured vs theory."""
    colours = ["C0", "C1", "C2", "C3"]
    dirs = [(f"axis {i + 1} (length {lengths[i]:g})", v) for i, v in enumerate(ivec)]
    dirs.append(("x axis (across)", [1] + [0] * (len(ivec[0]) - 1)))
    lags, where = [], []
    for k, (_, v) in enumerate(dirs):
        step = math.sqrt(sum(x * x for x in v))
        for m in range(int(rmax / step) + 1):
            lags.append([m * x for x in v])
            where.append((k, m * step))
    mean, se = measure(tool, base, lags, tmp)
    worst = 0.0
    for k, (label, v) in enumerate(dirs):
        sel = [i for i, w in enumerate(where) if w[0] == k]
        r = np.array([where[i][1] for i in sel])
        th = np.array([theory(lags[i], axes, lengths) for i in sel])
        rr = np.linspace(0, rmax, 200)
        unit = np.array(v, float) / np.linalg.norm(v)
        ax.plot(rr, [theory(t * unit, axes, lengths) for t in rr], "-", color=colours[k], lw=1)
        ax.errorbar(r, mean[sel], yerr=se[sel], fmt="o", ms=3, color=colours[k], label=label)
        worst = max(worst, float(np.max(np.abs(mean[sel] - th) / se[sel])))
    ax.set_title(f"{title}: max |C_hat - C| = {worst:.1f} SE", fontsize=9)
    ax.set_xlabel("lag r (cells)")
    ax.set_ylabel("C(r)")
    ax.axhline(0, color="0.7", lw=0.5)
    ax.legend(fontsize=7)
    return worst


def main():
    tool, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    a2 = math.atan2(3, 4)
    two = ["--model", "gaussian", "--length", "10", "--grid", "256x256", "--anis", "1,0.5",
           "--angles", repr(a2), "--seed", "3301"]
    three = ["--model", "gaussian", "--length", "6", "--grid", "64x64x64", "--anis", "1,0.75,0.5",
             "--angles", f"{-math.pi / 4!r},{-math.asin(1 / 3)!r},{-math.pi / 4!r}", "--seed", "3311"]
    axes2 = [np.array([0.8, 0.6]), np.array([-0.6, 0.8])]
    ivec2 = [[4, 3], [-3, 4]]
    axes3 = [np.array(v) / 3 for v in ([2, -1, 2], [2, 2, -1], [-1, 2, 2])]
    ivec3 = [[2, -1, 2], [2, 2, -1], [-1, 2, 2]]
    with tempfile.TemporaryDirectory() as tmp:
        # the fields
        fig, axs = plt.subplots(1, 2, figsize=(8, 4))
        for ax, m, name in zip(axs, ["--method tb", "--periodic --method fft"],
                               ["turning bands", "FFT"]):
            z = field(tool, two + m.split(), 0, tmp)
            ax.imshow(z, origin="lower", cmap="RdBu_r", vmin=-3, vmax=3)
            for v, ell, c in zip(axes2, (10, 5), ("k", "g")):
                ax.arrow(128, 128, 4 * ell * v[0], 4 * ell * v[1], color=c, width=1.5)
            ax.set_title(f"{name}: lengths 10, 5 along (4,3)/5, (-3,4)/5", fontsize=9)
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, "anisotropy_fields.png"), dpi=64)
        plt.close(fig)
        # the covariances
        fig, axs = plt.subplots(2, 2, figsize=(10, 8))
        rows = [("2D", two, axes2, ivec2, (10, 5), 25), ("3D", three, axes3, ivec3, (6, 4.5, 3), 15)]
        for i, (d, base, axes, ivec, lengths, rmax) in enumerate(rows):
            for j, (m, name) in enumerate([("--method tb", "turning bands"),
                                           ("--periodic --method fft", "FFT")]):
                w = panel(axs[i][j], tool, base + m.split(), axes, ivec, lengths, rmax,
                          f"{d} {name}", tmp)
                print(f"{d} {name}: largest deviation {w:.2f} SE")
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, "anisotropy_covariance.png"), dpi=80)
        plt.close(fig)


if __name__ == "__main__":
    main()
