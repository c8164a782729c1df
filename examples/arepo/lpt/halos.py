#!/usr/bin/env python3
"""examples/arepo/lpt/halos.py — friends-of-friends haloes of AREPO snapshots
and their mass functions side by side (the same phases started from
Zel'dovich and from 2LPT initial conditions).

Usage: halos.py [--fig FILE] [--min N] LABEL=SNAPSHOT.hdf5 ...

For each snapshot (PartType1 only, equal masses from MassTable[1]):
friends-of-friends with linking length b = 0.2 of the mean interparticle
spacing (periodic, scipy's cKDTree), groups of at least --min particles
(default 20); prints the cumulative counts N(>M) per 0.25 dex and, for
the second and later snapshots, the difference to the first in units of
the Poisson error of the two counts (conservative: same-phase runs share
their haloes, so their counts scatter less than independent ones). Also
the matter P(k) of each snapshot (cloud-in-cell on a 2N^(1/3) mesh,
deconvolved, shot noise subtracted) and the ratio to the first.
Needs numpy, h5py and scipy (matplotlib for --fig)."""
import sys

import h5py
import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree


def read(path):
    with h5py.File(path, "r") as f:
        h = dict(f["Header"].attrs)
        x = f["PartType1/Coordinates"][...].astype(np.float64)
    return x, float(h["BoxSize"]), float(h["MassTable"][1]), float(h["Redshift"])


def fof(x, box, b=0.2):
    n = len(x)
    ll = b * box / round(n ** (1 / 3))
    x = np.mod(x, box)
    pairs = cKDTree(x, boxsize=box).query_pairs(ll, output_type="ndarray")
    g = coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(n, n))
    _, labels = connected_components(g, directed=False)
    return np.bincount(labels)


def power(x, box):
    n = len(x)
    M = 2 * round(n ** (1 / 3))
    y = np.mod(x, box) / (box / M)
    i0 = np.floor(y).astype(int)
    w1 = y - i0
    rho = np.zeros(M ** 3)
    for dx in (0, 1):
        for dy in (0, 1):
            for dz in (0, 1):
                w = ((w1[:, 0] if dx else 1 - w1[:, 0]) * (w1[:, 1] if dy else 1 - w1[:, 1])
                     * (w1[:, 2] if dz else 1 - w1[:, 2]))
                idx = (((i0[:, 0] + dx) % M) * M + (i0[:, 1] + dy) % M) * M + (i0[:, 2] + dz) % M
                rho += np.bincount(idx, w, M ** 3)
    d = np.fft.fftn(rho.reshape(M, M, M) / (n / M ** 3) - 1)
    f = np.fft.fftfreq(M)
    W = np.sinc(f) ** 2
    P = np.abs(d) ** 2 / (W[:, None, None] * W[None, :, None] * W[None, None, :]) ** 2 * box ** 3 / M ** 6
    k1 = np.fft.fftfreq(M, 1.0 / M)
    kk = np.sqrt(k1[:, None, None] ** 2 + k1[None, :, None] ** 2 + k1[None, None, :] ** 2)
    s = np.rint(kk).astype(int)
    nb = M // 4
    kf = 2 * np.pi / box
    return np.array([(kk[s == i].mean() * kf, P[s == i].mean() - box ** 3 / n) for i in range(1, nb + 1)])


def main():
    args = sys.argv[1:]
    fig, nmin = None, 20
    while args and args[0].startswith("--"):
        if args[0] == "--fig":
            fig = args[1]
        elif args[0] == "--min":
            nmin = int(args[1])
        args = args[2:]
    runs = []
    for a in args:
        label, path = a.split("=", 1)
        x, box, m, z = read(path)
        sizes = fof(x, box)
        masses = np.sort(sizes[sizes >= nmin] * m)[::-1]
        runs.append(dict(label=label, masses=masses, m=m, box=box, z=z, pk=power(x, box), n=len(x)))
        print(f"# {label}: {path}, z = {abs(z):.3f}, {len(x)} particles of {m:.5g}, box {box:g}, "
              f"{len(masses)} haloes of >= {nmin} particles, largest {masses[0] if len(masses) else 0:.4g}")
    lo = np.log10(nmin * runs[0]["m"])
    hi = max(np.log10(r["masses"][0]) for r in runs if len(r["masses"])) + 0.25
    edges = np.arange(lo, hi, 0.25)
    print("\n## cumulative halo counts N(>M) (mass in the file's unit)")
    print(f"{'log10 M':>8}" + "".join(f" {r['label']:>10}" for r in runs)
          + "".join(f" {'z(' + r['label'] + ')':>10}" for r in runs[1:]))
    for e in edges:
        c = [int((r["masses"] >= 10 ** e).sum()) for r in runs]
        line = f"{e:8.2f}" + "".join(f" {v:10d}" for v in c)
        for v in c[1:]:
            line += f" {(v - c[0]) / np.sqrt(max(v + c[0], 1)):10.2f}"
        print(line)
    print("\n## P(k) at the snapshot (CIC, deconvolved, shot noise subtracted)")
    print(f"{'k h/Mpc':>8}" + "".join(f" {r['label']:>12}" for r in runs)
          + "".join(f" {r['label'] + '/' + runs[0]['label']:>14}" for r in runs[1:]))
    unit = runs[0]["box"] / 1000.0 if runs[0]["box"] > 5000 else runs[0]["box"]
    scale = unit / runs[0]["box"]  # to Mpc/h
    for i in range(len(runs[0]["pk"])):
        k = runs[0]["pk"][i, 0] / scale
        line = f"{k:8.3f}" + "".join(f" {r['pk'][i, 1] * scale ** 3:12.5g}" for r in runs)
        line += "".join(f" {r['pk'][i, 1] / runs[0]['pk'][i, 1]:14.4f}" for r in runs[1:])
        print(line)
    if fig:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        f, ax = plt.subplots(1, 2, figsize=(11, 4.2))
        for r in runs:
            ms = r["masses"]
            ax[0].step(ms, np.arange(1, len(ms) + 1), where="post", label=f"{r['label']} ({len(ms)} haloes)")
            ax[1].plot(r["pk"][:, 0] / scale, r["pk"][:, 1] / runs[0]["pk"][:, 1], "o-", ms=3, label=r["label"])
        ax[0].set_xscale("log")
        ax[0].set_yscale("log")
        ax[0].set_xlabel("M [10¹⁰ M☉/h]")
        ax[0].set_ylabel("N(>M)")
        ax[0].set_title(f"FOF b = 0.2, ≥ {nmin} particles, z = {abs(runs[0]['z']):.2f}")
        ax[0].legend()
        ax[1].set_xscale("log")
        ax[1].set_xlabel("k [h/Mpc]")
        ax[1].set_ylabel(f"P(k) / P_{runs[0]['label']}(k)")
        ax[1].set_title("matter power spectrum ratio")
        ax[1].legend()
        f.tight_layout()
        f.savefig(fig, dpi=110)


if __name__ == "__main__":
    main()
