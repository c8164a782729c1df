#!/usr/bin/env python3
"""examples/arepo/zoom/zoom_halo.py — zoom runs against their parent
(README.md, "Zoom").

Usage: zoom_halo.py --parent DIR --halo halo.txt [--pk PK.txt] [--fig FILE]
                    [--pkfig FILE] [--time A] LABEL=RUNDIR ...

DIR: the parent's run (ics.hdf5, output/snap_*.hdf5); halo.txt from
halo_ids.py; RUNDIR: a zoom's run (ics.hdf5, output/snap_*.hdf5), PartType1
the fine particles, PartType2 the coarse ones.

The initial conditions: particle counts and masses per type, the total mass
against the parent's, the extent of the fine particles, and the P(k) of the
fine particles' density in the region (cloud-in-cell on the fine lattice's
spacing in the region's box shrunk by one parent cell a side, a separable
Hann taper against the box's edges, deconvolved; estimate |FFT|^2 / sum w^2
per shell) against the linear model (--pk: `tbrf arepo pk` at the ICs'
redshift) and each other. A lattice has no shot noise, so none is removed;
the taper smooths the model by a few fundamental modes of the sub-box,
which matters only at its lowest shells.

The halo at the latest time all runs and the parent reached (or --time A):
the parent's halo (its FOF group holding most of halo_ids.py's members,
its shrinking-sphere centre, M200c); in each zoom, friends-of-friends on PartType1 alone (b = 0.2 of
the fine mean spacing), the group of >= 100 members nearest the parent's
centre; its FOF mass, centre offset (kpc/h, in parent spacings and in
R200c), M200c and R200c from all particles, against the parent's: the
parent's halo of N members has a Poisson mass scatter of 1/sqrt(N);
contamination: the number and mass of PartType2 particles inside R200c
and the nearest one's distance in R200c. --fig: projected density
(the mass per pixel, smoothed by 1.5 pixels, log scale over four
decades) in a cube of 10 R200c around the parent's
centre, parent and each zoom side by side, PartType2 of the zooms as dots.
Needs numpy, h5py, scipy; matplotlib for the figures."""
import argparse
import glob
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from halo_ids import (fof_labels, lattice_cells, r200c, read_snapshot,  # noqa: E402
                      shrinking_centre, unwrap)


def read_types(path):
    """{type: (coordinates, masses)} of every particle type in a file, and
    the header."""
    out = {}
    with h5py.File(path, "r") as f:
        h = dict(f["Header"].attrs)
        for t in range(6):
            if f"PartType{t}" not in f:
                continue
            g = f[f"PartType{t}"]
            x = g["Coordinates"][...].astype(np.float64)
            if "Masses" in g:
                m = g["Masses"][...].astype(np.float64)
            else:
                m = np.full(len(x), float(h["MassTable"][t]))
            out[t] = (x, m)
    return out, h


def snapshots(d):
    """{scale factor: path} of a run's snapshots."""
    out = {}
    for p in sorted(glob.glob(os.path.join(d, "output", "snap_*.hdf5"))):
        with h5py.File(p, "r") as f:
            out[round(float(f["Header"].attrs["Time"]), 4)] = p
    return out


def lagrangian_sites(x, ids, g, r, box):
    """The fine particles' Lagrangian sites on the G r lattice, found
    without knowing the generator's layout: for each site offset o (0: at
    multiples of the fine spacing, tbrf's; 1/2: at cell centres, MUSIC's)
    and each parent-cell convention (the parent cell centred on its site
    (tbrf) or starting at it (MUSIC)), the region's parent cells are those
    holding at least half of r^3 particles' nearest sites; their fine sites
    are walked x fastest or z fastest and matched to the sorted IDs. The
    combination with the smallest rms displacement wins (a wrong one
    displaces particles by about a fine spacing). Returns (fine indices
    [N, 3], offset, displacements [N, 3] kpc/h, description) or None."""
    n = g * r
    dxf = box / n
    best = None
    o_ids = np.argsort(ids)
    xs = x[o_ids]
    for off in (0.0, 0.5):
        near = np.floor(xs / dxf - off + 0.5).astype(np.int64) % n
        for h in (0, r // 2):
            cell = ((near + h) // r) % g
            key = (cell[:, 0] * g + cell[:, 1]) * g + cell[:, 2]
            cnt = np.bincount(key, minlength=g ** 3)
            cells = np.nonzero(cnt >= r ** 3 // 2)[0]
            if len(cells) * r ** 3 != len(xs):
                continue
            cc = np.stack(np.unravel_index(cells, (g, g, g)), axis=1)
            j = np.stack(np.unravel_index(np.arange(r ** 3), (r, r, r)), axis=1)
            m = ((cc[:, None, :] * r + j[None, :, :] - h) % n).reshape(-1, 3)
            for fastest in ("x", "z"):
                k = ((m[:, 2] * n + m[:, 1]) * n + m[:, 0] if fastest == "x"
                     else (m[:, 0] * n + m[:, 1]) * n + m[:, 2])
                ms = m[np.argsort(k)]
                d = (xs - (ms + off) * dxf + box / 2) % box - box / 2
                rms = float(np.sqrt((d ** 2).mean()))
                if best is None or rms < best[0]:
                    best = (rms, off, h, fastest, ms, d, len(cells))
    if best is None:
        return None
    rms, off, h, fastest, ms, d, ncell = best
    what = (f"{ncell} parent cells ({'centred on' if h else 'starting at'} the parent's sites), "
            f"IDs walk their fine sites {fastest} fastest, sites at "
            f"{'the centres of the fine cells' if off else 'multiples of the fine spacing'}; rms "
            f"displacement {rms / dxf:.3f} fine spacings")
    return ms, off, d, what


def largest_box(mask, step):
    """The largest axis-aligned box of step^3 blocks inside a 3-D boolean
    mask (non-periodic; lo, hi in mask cells)."""
    nb = np.array(mask.shape) // step
    blk = mask[:nb[0] * step, :nb[1] * step, :nb[2] * step].reshape(
        nb[0], step, nb[1], step, nb[2], step).all(axis=(1, 3, 5)).astype(np.int64)
    cs = np.zeros(tuple(nb + 1), np.int64)
    cs[1:, 1:, 1:] = blk.cumsum(0).cumsum(1).cumsum(2)
    best, box = 0, None
    idx = np.argwhere(blk)
    for lo in idx:
        for hx in range(lo[0] + 1, nb[0] + 1):
            if not blk[hx - 1, lo[1], lo[2]]:
                break
            for hy in range(lo[1] + 1, nb[1] + 1):
                if not blk[lo[0], hy - 1, lo[2]]:
                    break
                for hz in range(lo[2] + 1, nb[2] + 1):
                    v = (hx - lo[0]) * (hy - lo[1]) * (hz - lo[2])
                    s = (cs[hx, hy, hz] - cs[lo[0], hy, hz] - cs[hx, lo[1], hz] - cs[hx, hy, lo[2]]
                         + cs[lo[0], lo[1], hz] + cs[lo[0], hy, lo[2]] + cs[hx, lo[1], lo[2]]
                         - cs[lo[0], lo[1], lo[2]])
                    if s != v:
                        break
                    if v > best:
                        best, box = v, (lo * step, np.array([hx, hy, hz]) * step)
    return box


def psi_pk(g, dx, kt, pt, kcut=0.0):
    """P(k) of delta = -div Psi (central differences) on a non-periodic
    fine lattice block g ([3, nx, ny, nz], kpc/h), Hann-tapered, against
    the linear model's expectation through the same estimator (the model
    times the central difference's response, convolved with the taper's
    window on a grid twice as fine in k). Rows (k h/Mpc, P, expected P,
    modes); k in shells of the block's largest fundamental, up to half the
    fine lattice's Nyquist k. kcut > 0: the model only above kcut (the
    band a zoom adds to its parent's modes)."""
    n = np.array(g.shape[1:])
    dmpc = dx / 1000.0
    delta = np.zeros(tuple(n - 2))
    for a in range(3):
        sl_p = [slice(1, -1)] * 3
        sl_m = [slice(1, -1)] * 3
        sl_p[a] = slice(2, None)
        sl_m[a] = slice(0, -2)
        delta -= (g[a][tuple(sl_p)] - g[a][tuple(sl_m)]) / (2 * dx)
    m = n - 2
    w = np.hanning(m[0])[:, None, None] * np.hanning(m[1])[None, :, None] * np.hanning(m[2])[None, None, :]
    norm = (w ** 2).sum()
    dk = np.fft.fftn(delta * w)
    side = m * dmpc
    P = np.abs(dk) ** 2 * side.prod() / m.prod() / norm
    # the expectation: the model on a 2m grid (side 2 side), times the
    # central-difference response, convolved with |FFT(w)|^2
    M = 2 * m
    kq = [2 * np.pi / (M[a] * dmpc) * np.fft.fftfreq(M[a], 1.0 / M[a]) for a in range(3)]
    KX, KY, KZ = np.meshgrid(*kq, indexing="ij")
    KK = np.sqrt(KX ** 2 + KY ** 2 + KZ ** 2)
    resp = np.where(KK > 0, (KX * np.sin(KX * dmpc) + KY * np.sin(KY * dmpc) + KZ * np.sin(KZ * dmpc))
                    / dmpc / np.where(KK > 0, KK, 1) ** 2, 0)
    pm = np.where(KK > 0, np.exp(np.interp(np.log(np.where(KK > 0, KK, 1)), np.log(kt), np.log(pt))), 0)
    pm *= resp ** 2 * (KK > kcut)
    wp = np.zeros(tuple(M))
    wp[:m[0], :m[1], :m[2]] = w
    W2 = np.abs(np.fft.fftn(wp)) ** 2
    E = np.fft.ifftn(np.fft.fftn(pm) * np.fft.fftn(W2)).real / M.prod() / norm
    E = E[::2, ::2, ::2]
    k1 = [2 * np.pi / side[a] * np.fft.fftfreq(m[a], 1.0 / m[a]) for a in range(3)]
    kk = np.sqrt(k1[0][:, None, None] ** 2 + k1[1][None, :, None] ** 2 + k1[2][None, None, :] ** 2)
    kmin = (2 * np.pi / side).max()
    s = np.floor(kk / kmin + 0.5).astype(int)
    rows = []
    for i in range(2, int(0.5 * np.pi / dmpc / kmin) + 1):
        sel = s == i
        if sel.sum():
            rows.append((kk[sel].mean(), P[sel].mean(), E[sel].mean(), int(sel.sum())))
    return np.array(rows)


def parent_psi_fine(parent_ics, r, off):
    """The parent's displacement (its own modes) at every fine site
    (i + off) L/(G r) of the box, by zero-padding its G^3 Fourier series
    to (G r)^3; [3, Gr, Gr, Gr] in kpc/h."""
    x, ids, _, h = read_snapshot(parent_ics)
    box = float(h["BoxSize"])
    g = round(len(x) ** (1 / 3))
    c = lattice_cells(ids, g)
    d = (x - c * (box / g) + box / 2) % box - box / 2
    n = g * r
    out = np.zeros((3, n, n, n))
    f = np.fft.fftfreq(n, 1.0 / n)
    ph = np.exp(2j * np.pi * off * f / n)
    shift = ph[:, None, None] * ph[None, :, None] * ph[None, None, :]
    for a in range(3):
        p = np.zeros((g, g, g))
        p[c[:, 0], c[:, 1], c[:, 2]] = d[:, a]
        pk = np.fft.fftn(p)
        big = np.zeros((n, n, n), complex)
        half = g // 2
        sel = np.r_[0:half, n - half:n]
        src = np.r_[0:half, g - half:g]
        big[np.ix_(sel, sel, sel)] = pk[np.ix_(src, src, src)]
        out[a] = np.fft.ifftn(big * shift).real * (n / g) ** 3
    return out


def refinement(runs, parent_mass):
    """The zooms' refinement r from the first run's ICs: (parent mass /
    fine mass)^(1/3), checked to be a whole number."""
    for _, d in runs:
        p = os.path.join(d, "ics.hdf5")
        if os.path.exists(p):
            t, _ = read_types(p)
            r = (parent_mass / t[1][1][0]) ** (1 / 3)
            if abs(r - round(r)) > 1e-3:
                raise SystemExit(f"zoom_halo: {p}: fine mass {t[1][1][0]:g} is not the parent's "
                                 f"{parent_mass:g} over a cube")
            return int(round(r))
    raise SystemExit("zoom_halo: no run has ics.hdf5")


def ics_report(runs, parent_ics, halo, pk_model):
    """Counts, masses, the agreement with the parent's displacements and
    the P(k) in a common box of the regions, for each zoom's ICs."""
    pt, ph = read_types(parent_ics)
    box = float(ph["BoxSize"])
    g = int(halo["parent_g"])
    r = refinement(runs, pt[1][1][0])
    n = g * r
    dxf = box / n
    mpar = pt[1][1].sum()
    print(f"## initial conditions (z = {1 / ph['Time'] - 1:.2f}); parent: {len(pt[1][0])} particles, "
          f"total mass {mpar:.8g}; fine spacing {dxf:g} kpc/h ({r}^3 a parent cell)")
    kt, ptab = np.loadtxt(pk_model, unpack=True) if pk_model else (None, None)
    fields, parent_cache, own = {}, {}, {}
    for label, d in runs:
        p = os.path.join(d, "ics.hdf5")
        if not os.path.exists(p):
            print(f"  {label}: no {p}")
            continue
        t, h = read_types(p)
        print(f"  {label}: " + ", ".join(
            f"PartType{k} {len(v[0])} ({np.unique(v[1].round(8)).size} mass(es) "
            f"{v[1].min():.6g} .. {v[1].max():.6g})" for k, v in sorted(t.items())))
        tot = sum(v[1].sum() for v in t.values())
        with h5py.File(p, "r") as f:
            ids1 = f["PartType1/ParticleIDs"][...].astype(np.int64)
        print(f"    total mass {tot:.8g} ({tot / mpar - 1:+.2e} against the parent)")
        ls = lagrangian_sites(t[1][0], ids1, g, r, box)
        if ls is None:
            print("    no layout of whole parent cells fits PartType1: no displacement field")
            continue
        ms, off, dsp, what = ls
        print(f"    {what}")
        if off not in parent_cache:
            parent_cache[off] = parent_psi_fine(parent_ics, r, off)
        pp = parent_cache[off][:, ms[:, 0], ms[:, 1], ms[:, 2]].T
        corr = [np.corrcoef(dsp[:, a], pp[:, a])[0, 1] for a in range(3)]
        print(f"    against the parent's modes at the same sites: correlation "
              f"{np.round(corr, 4).tolist()}, rms {dsp.std():.2f} against the parent's "
              f"{pp.std():.2f} kpc/h, rms difference {(dsp - pp).std():.2f} kpc/h")
        grid = np.full((3, n, n, n), np.nan)
        for a in range(3):
            grid[a][ms[:, 0], ms[:, 1], ms[:, 2]] = dsp[:, a]
        fields[label] = (grid, off)
        if kt is None:
            continue
        # P(k) in this run's own largest box: the zoom's field, and the
        # zoom's field less the parent's modes (the band alone, if the
        # zoom keeps the parent's modes) against the model above the
        # parent's Nyquist k
        bx = largest_box(np.isfinite(grid[0]), r)
        lo, hi = bx
        sl = (slice(None),) + tuple(slice(lo[a], hi[a]) for a in range(3))
        kny = np.pi * g / box * 1000
        full = psi_pk(grid[sl], dxf, kt, ptab)
        band = psi_pk(grid[sl] - parent_cache[off][sl], dxf, kt, ptab, kcut=kny)
        print(f"    P(k) in its largest box of whole cells, fine sites {lo.tolist()} .. {hi.tolist()} "
              f"({((hi - lo) * dxf / 1000).round(2).tolist()} Mpc/h); 'band': the field less the "
              f"parent's modes against the model above k = {kny:.3f} h/Mpc")
        print(f"    {'k':>7} {'modes':>6} {'P':>10} {'expected':>10} {'P/exp':>7} {'band':>10} "
              f"{'exp band':>10} {'band/exp':>8} {'sqrt(2/modes)':>13}")
        for i in range(len(full)):
            print(f"    {full[i, 0]:7.3f} {int(full[i, 3]):6d} {full[i, 1]:10.4g} {full[i, 2]:10.4g} "
                  f"{full[i, 1] / full[i, 2]:7.3f} {band[i, 1]:10.4g} {band[i, 2]:10.4g} "
                  f"{band[i, 1] / band[i, 2] if band[i, 2] > 0 else np.nan:8.3f} "
                  f"{np.sqrt(2 / full[i, 3]):13.3f}")
        own[label] = (full, band)
    if kt is None or not fields:
        return {}
    # the largest box of whole parent cells inside every run's region
    # (unwrapped around the regions' first site: the regions do not wrap
    # in these runs, halo_ids.py's margin)
    mask = np.ones((n, n, n), bool)
    for grid, _ in fields.values():
        mask &= np.isfinite(grid[0])
    bx = largest_box(mask, r)
    if bx is None:
        return {}
    lo, hi = bx
    sl = (slice(None),) + tuple(slice(lo[a], hi[a]) for a in range(3))
    print(f"\n# P(k) of delta = -div Psi of the fine particles in the largest box inside every "
          f"run's region: fine sites {lo.tolist()} .. {hi.tolist()} ({(hi - lo).tolist()} = "
          f"{((hi - lo) * dxf / 1000).round(2).tolist()} Mpc/h); central differences, Hann taper; "
          f"'expected': the linear model through the same estimator; 'parent': the parent's own "
          f"modes at the same sites (this box's realization below the parent's Nyquist k = "
          f"{np.pi * g / box * 1000:.3f} h/Mpc, nothing above)")
    pks = {}
    first_off = next(iter(fields.values()))[1]
    pks["parent"] = psi_pk(parent_cache[first_off][sl], dxf, kt, ptab)
    for label, (grid, off) in fields.items():
        pks[label] = psi_pk(grid[sl], dxf, kt, ptab)
    labels = list(pks)
    first = pks[labels[0]]
    print(f"{'k':>7} {'modes':>6} {'expected':>10}" + "".join(f" {lab:>10}" for lab in labels)
          + "".join(f" {lab + '/exp':>11}" for lab in labels)
          + "".join(f" {lab + '/' + labels[1]:>12}" for lab in labels[2:]) + f" {'sqrt(2/modes)':>13}")
    for i in range(len(first)):
        line = f"{first[i, 0]:7.3f} {int(first[i, 3]):6d} {first[i, 2]:10.4g}"
        line += "".join(f" {pks[lab][i, 1]:10.4g}" for lab in labels)
        line += "".join(f" {pks[lab][i, 1] / pks[lab][i, 2]:11.3f}" for lab in labels)
        line += "".join(f" {pks[lab][i, 1] / pks[labels[1]][i, 1]:12.3f}" for lab in labels[2:])
        line += f" {np.sqrt(2 / first[i, 3]):13.3f}"
        print(line)
    return dict(pks=pks, own=own)


def zoom_halo(path, c0, near, box, g_fine):
    """The zoom's counterpart of the parent's halo: of the FOF groups of
    PartType1 (>= 20 members) whose centres lie within `near` of c0 the
    most massive, else the nearest; with its centre, M200c, R200c and the
    PartType2 contamination."""
    t, h = read_types(path)
    a = float(h["Time"])
    om, ol = float(h.get("Omega0", 0.3089)), float(h.get("OmegaLambda", 0.6911))
    x1, m1 = t[1]
    lab, size = fof_labels(x1, box, 0.2 * box / g_fine)
    groups = []
    for r in np.nonzero(size >= 20)[0]:
        sel = lab == r
        c = shrinking_centre(x1[sel], box, m1[sel])
        dist = float(np.sqrt(((unwrap(c, c0, box) - c0) ** 2).sum()))
        groups.append((r, dist, c, sel))
    if not groups:
        return None
    close = [gr for gr in groups if gr[1] < near]
    # labels count from the largest group down: the first close one
    r, dist, c, sel = close[0] if close else min(groups, key=lambda gr: gr[1])
    xs = [v[0] for v in t.values()]
    ms = [v[1] for v in t.values()]
    R, M = r200c(c, xs, ms, box, a, om, ol)
    out = dict(n=int(size[r]), mfof=float(m1[sel].sum()), c=c, offset=dist, R=R, M=M, a=a, t=t)
    if 2 in t:
        x2, m2 = t[2]
        d2 = np.sqrt(((unwrap(x2, c, box) - c) ** 2).sum(1))
        inside = d2 < R
        out.update(n2=int(inside.sum()), m2=float(m2[inside].sum()), dmin2=float(d2.min() / R) if R else 0)
    else:
        out.update(n2=0, m2=0.0, dmin2=np.inf)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--parent", required=True)
    ap.add_argument("--halo", required=True)
    ap.add_argument("--pk")
    ap.add_argument("--fig")
    ap.add_argument("--pkfig")
    ap.add_argument("--time", type=float)
    ap.add_argument("runs", nargs="+")
    o = ap.parse_args()
    halo = {}
    for line in open(o.halo):
        if "=" in line and not line.startswith("#"):
            k, v = line.split("=", 1)
            halo[k.strip()] = v.strip()
    runs = [tuple(r.split("=", 1)) for r in o.runs]
    ics = ics_report(runs, os.path.join(o.parent, "ics.hdf5"), halo, o.pk)
    if o.pkfig and ics:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        f, ax = plt.subplots(1, 2, figsize=(11, 4.3))
        box = float(halo["box"])
        kny = np.pi * int(halo["parent_g"]) / box * 1000
        for (lab, (full, band)), col in zip(ics["own"].items(), ("C0", "C1", "C2", "C3")):
            ax[0].semilogx(full[:, 0], full[:, 1] / full[:, 2], "o-", color=col, ms=3,
                           label=f"{lab} (its region's largest box)")
            ax[0].fill_between(full[:, 0], 1 - np.sqrt(2 / full[:, 3]), 1 + np.sqrt(2 / full[:, 3]),
                               color=col, alpha=0.12)
            ax[1].loglog(band[:, 0], band[:, 1], "o", color=col, ms=4, label=f"{lab}: field − parent's modes")
            ax[1].loglog(band[:, 0], full[:, 2], "-", color=col, lw=0.6)
            ax[1].loglog(band[:, 0], np.maximum(band[:, 2], 1e-12), "--", color=col, lw=1,
                         label=f"{lab}: model above k_Ny(parent), same estimator")
        ax[0].axhline(1, color="k", lw=0.8)
        ax[0].set_ylabel("P / expected (shaded: ±sqrt(2/modes))")
        ax[0].set_title("δ = −∇·Ψ of the fine particles, z = 49", fontsize=10)
        ax[1].set_ylabel("P(k) [(Mpc/h)³]")
        ax[1].set_ylim(1e-6, None)
        ax[1].set_title("what the zoom adds to the parent's modes (solid: full model)", fontsize=10)
        for a in ax:
            a.axvline(kny, color="gray", ls=":", lw=1)
            a.set_xlabel("k [h/Mpc]   (dotted: the parent's Nyquist k)")
            a.legend(fontsize=7)
        f.tight_layout()
        f.savefig(o.pkfig, dpi=110)
    # the halo at the latest common time
    par = snapshots(o.parent)
    avail = set(par)
    for _, d in runs:
        avail &= set(snapshots(d))
    avail = sorted(a for a in avail if a > 0.021)
    if o.time is not None:
        avail = [a for a in avail if abs(a - o.time) < 1e-3]
    if not avail:
        print("\n## no snapshot after the ICs common to the parent and every zoom run yet")
        return
    a = avail[-1]
    x, ids, m, h = read_snapshot(par[a])
    box = float(h["BoxSize"])
    g = int(halo["parent_g"])
    mem = np.loadtxt(os.path.join(os.path.dirname(o.halo), "halo_ids.txt"), dtype=np.int64)
    om, ol = float(h.get("Omega0", 0.3089)), float(h.get("OmegaLambda", 0.6911))
    # the parent's halo at this time: its FOF group holding most of the
    # z = 0 members (the main progenitor before z = 0)
    plab, psize = fof_labels(x, box, 0.2 * box / g)
    pg = np.bincount(plab[np.isin(ids, mem)]).argmax()
    sel = plab == pg
    n0 = int(psize[pg])
    c0 = shrinking_centre(x[sel], box)
    R0, M0 = r200c(c0, [x], [m], box, a, om, ol)
    print(f"\n## the halo at a = {a:g} (z = {1 / a - 1:.3f})")
    print(f"# parent: FOF group {pg} holding {int(np.isin(ids[sel], mem).sum())} of the "
          f"{len(mem)} z = 0 members: {n0} particles, M_fof {n0 * m[0]:.5g}, centre "
          f"{c0.round(1)} kpc/h, M200c {M0:.5g}, R200c {R0:.1f} kpc/h (1e10 Msun/h); Poisson "
          f"scatter of its mass 1/sqrt(N) = {1 / np.sqrt(n0):.3f}")
    g_fine = g * refinement(runs, float(halo["particle_mass"]))
    print(f"# {'run':>6} {'N_fof':>7} {'M_fof':>9} {'/parent':>8} {'M200c':>9} {'/parent':>8} "
          f"{'(-1)/σ':>7} {'R200c':>7} {'offset':>7} {'/dx_par':>7} {'/R200c':>7} "
          f"{'N2<R200c':>8} {'M2<R200c':>9} {'M2/M200c':>9} {'d2min/R':>7}")
    res = {}
    for label, d in runs:
        z = zoom_halo(snapshots(d)[a], c0, max(R0, box / g), box, g_fine)
        if z is None:
            print(f"  {label}: no group of >= 20 fine particles")
            continue
        res[label] = z
        s = 1 / np.sqrt(n0)
        print(f"  {label:>6} {z['n']:7d} {z['mfof']:9.4g} {z['mfof'] / (n0 * m[0]):8.3f} "
              f"{z['M']:9.4g} {z['M'] / M0:8.3f} {(z['M'] / M0 - 1) / s:7.2f} {z['R']:7.1f} "
              f"{z['offset']:7.1f} {z['offset'] / (box / g):7.3f} {z['offset'] / R0:7.3f} "
              f"{z['n2']:8d} {z['m2']:9.4g} {z['m2'] / z['M'] if z['M'] else 0:9.2e} {z['dmin2']:7.2f}")
    if o.fig:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.colors import LogNorm
        half = 5 * R0
        panels = [("parent", {1: (x, m)}, None)] + [(lab, z["t"], z) for lab, z in res.items()]
        f, ax = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 4.4), squeeze=False)
        from scipy.ndimage import gaussian_filter
        bins = 100
        imgs = []
        for lab, t, z in panels:
            img = np.zeros((bins, bins))
            for typ, (xx, mm) in t.items():
                e = unwrap(xx, c0, box) - c0
                k = np.all(np.abs(e) < half, axis=1)
                img += np.histogram2d(e[k, 0], e[k, 1], bins=bins, range=[[-half, half]] * 2,
                                      weights=mm[k])[0]
            # smoothed by 1.5 pixels (the parent has few particles a pixel)
            imgs.append(gaussian_filter(img, 1.5, mode="constant"))
        vmax = max(i.max() for i in imgs)
        vmin = vmax * 1e-4
        for (lab, t, z), img, a_ in zip(panels, imgs, ax[0]):
            a_.imshow(np.maximum(img, vmin).T, origin="lower", extent=[-half, half] * 2,
                      norm=LogNorm(vmin, vmax), cmap="magma")
            circ = plt.Circle((0, 0), R0, fill=False, color="c", lw=1)
            a_.add_patch(circ)
            if z is not None and 2 in t:
                e = unwrap(t[2][0], c0, box) - c0
                k = np.all(np.abs(e) < half, axis=1)
                a_.plot(e[k, 0], e[k, 1], "c.", ms=2)
                off = unwrap(z["c"], c0, box) - c0
                a_.add_patch(plt.Circle((off[0], off[1]), z["R"], fill=False, color="w", ls="--", lw=1))
                a_.set_title(f"{lab} zoom: M200c {z['M']:.3g}, {z['n2']} coarse in R200c", fontsize=9)
            else:
                a_.set_title(f"parent: M200c {M0:.3g}e10 Msun/h, R200c {R0:.0f}", fontsize=9)
            a_.set_xlim(-half, half)
            a_.set_ylim(-half, half)
            a_.set_xlabel("x - x_c [kpc/h]")
        ax[0][0].set_ylabel("y - y_c [kpc/h]")
        f.suptitle(f"projected mass in a cube of 10 R200c (parent's), z = {1 / a - 1:.2f}\ncyan dots: "
                   f"PartType2, circles: R200c (cyan parent's, white dashed the zoom's)", fontsize=10)
        f.tight_layout()
        f.savefig(o.fig, dpi=110)


if __name__ == "__main__":
    main()
