#!/usr/bin/env python3
"""check.py — checks a run of examples/nebula (run in the folder it wrote).

1. Mass conservation: at every step the total mass equals the initial mass
   plus what entered through the bottom face minus what left through the
   top, to rounding (relative 1e-12: the sums are of ~1e5-1e6 doubles per
   step, each rounding at 1e-16 relative, over a few hundred steps; the run
   measures ~1e-15).
2. The wind as it entered (inflow.h5: the inflow layer every h / v_w of
   time, stacked). The wind is a lognormal density whose contrast
   rho / rho_w - 1 has the spectrum k^index on [kmin, kmax] and the
   variance exp(sigma^2) - 1 (doc/lognormal.md); ln(rho / rho_w) is
   Gaussian with mean -sigma^2/2 and variance sigma^2.
   a. Variance of g = (ln(rho / rho_w) + sigma^2 / 2) / sigma over the
      whole record and over each quarter of it (the wind of four
      successive time windows): the sample variance s^2 about the sample
      mean has, for a Gaussian field of covariance C on N cells,
      E[s^2] = 1 - (1/N^2) sum_ij C_ij and, to leading order,
      Var[s^2] = (2/N^2) sum_ij C_ij^2 (the exact value subtracts a
      non-negative term, so this overestimates the scatter). C is the
      Gaussian's, ln(1 + (e^(sigma^2) - 1) C_d(r)) / sigma^2, C_d(r) =
      int k^2 P sinc(kr) dk / int k^2 P dk the model's, summed over the
      lag vectors of the volume with their counts. Each s^2 must lie
      within 4 standard deviations of E[s^2].
   b. Spectrum of the density itself: the Hann-tapered 3D power spectrum
      of rho / mean(rho) - 1, shell-averaged in bins from 3 to
      0.5 x Nyquist of the cross-section's fundamental, divided by the
      model averaged over the same modes; the least-squares slope of
      log(ratio) against log(k) must be 0 within 4 standard deviations.
      A bin's log power has standard deviation 1/sqrt(n_eff),
      n_eff = 0.136 x (its modes / 2) (half the modes of a real field are
      independent; the Hann taper leaves (3/8)^2/(35/128) = 0.514 of the
      independent samples per axis, 0.136 in 3D), which gives the slope's
      (a Gaussian field's count: a lognormal density's bins scatter more,
      so the limit is a little tight for it).
Exit status 0 when every check passes.
"""
import math
import sys

import h5py
import numpy as np


def params():
    p = {}
    with open("nebula_params.txt") as f:
        for line in f:
            k, *v = line.split()
            p[k] = [float(x) for x in v] if len(v) > 1 else float(v[0])
    return p


def check_mass(fails):
    d = np.loadtxt("nebula_stats.csv", delimiter=",", skiprows=1)
    mass, inflow, outflow = d[:, 2], d[:, 3], d[:, 4]
    err = np.max(np.abs(mass - mass[0] - inflow + outflow)) / mass[0]
    ok = err <= 1e-12
    print(f"mass: {len(d) - 1} steps, mass {mass[0]:.6g} -> {mass[-1]:.6g}, in {inflow[-1]:.6g}, "
          f"out {outflow[-1]:.6g}; max |balance| / mass = {err:.2e} (limit 1e-12) "
          f"{'ok' if ok else 'FAIL'}")
    fails += 0 if ok else 1
    return fails


def covariance(p):
    """C(r) of the unit-variance Gaussian behind the density, on a table of
    r, as a function: ln(1 + (e^(sigma^2) - 1) C_d) / sigma^2."""
    k = np.geomspace(p["kmin"], p["kmax"], 20000)
    w = k ** (2 + p["index"])
    norm = np.trapz(w, k)
    r = np.arange(0.0, 400.0, 0.25)
    c = np.empty_like(r)
    for i0 in range(0, len(r), 100):
        rr = r[i0:i0 + 100, None]
        c[i0:i0 + 100] = np.trapz(w * np.sinc(k * rr / math.pi), k, axis=1) / norm
    s2 = p["sigma"] ** 2
    c = np.log1p(math.expm1(s2) * c) / s2
    return lambda x: np.interp(x, r, c)


def variance_expectation(C, shape):
    """E[s^2] and sd[s^2] of a volume of `shape` cells of size 1."""
    n = np.prod(shape)
    lags = [np.arange(-(m - 1), m) for m in shape]
    cnt = [m - np.abs(l) for m, l in zip(shape, lags)]
    z2 = lags[0][:, None, None] ** 2 + lags[1][None, :, None] ** 2 + lags[2][None, None, :] ** 2
    count = cnt[0][:, None, None] * cnt[1][None, :, None] * cnt[2][None, None, :]
    c = C(np.sqrt(z2))
    s1 = np.sum(count * c)
    s2 = np.sum(count * c * c)
    return 1.0 - s1 / n ** 2, math.sqrt(2.0 * s2) / n


def check_variance(p, delta, fails):
    C = covariance(p)
    nz = delta.shape[0]
    parts = [("all", delta)] + [(f"quarter {q + 1}", delta[q * nz // 4:(q + 1) * nz // 4]) for q in range(4)]
    for name, d in parts:
        s2 = np.var(d)
        mean, sd = variance_expectation(C, d.shape)
        ok = abs(s2 - mean) <= 4 * sd
        print(f"inflow variance ({name}, {d.shape[2]}x{d.shape[1]}x{d.shape[0]} cells): {s2:.4f}, "
              f"expected {mean:.4f}, sd {sd:.4f}, limit 4 sd {'ok' if ok else 'FAIL'}")
        fails += 0 if ok else 1
    return fails


def check_spectrum(p, delta, fails):
    """delta: the density contrast rho / mean(rho) - 1."""
    nz, ny, nx = delta.shape
    win = (np.hanning(nz)[:, None, None] * np.hanning(ny)[None, :, None] * np.hanning(nx)[None, None, :])
    f = np.fft.fftn((delta - delta.mean()) * win)
    power = np.abs(f) ** 2
    kz = 2 * np.pi * np.fft.fftfreq(nz)
    ky = 2 * np.pi * np.fft.fftfreq(ny)
    kx = 2 * np.pi * np.fft.fftfreq(nx)
    kk = np.sqrt(kz[:, None, None] ** 2 + ky[None, :, None] ** 2 + kx[None, None, :] ** 2)
    model = np.where((kk >= p["kmin"]) & (kk <= p["kmax"]), np.maximum(kk, 1e-30) ** p["index"], 0.0)
    kf = 2 * np.pi / min(nx, ny)
    edges = np.geomspace(3 * kf, 0.5 * np.pi, 7)
    xs, ys, ws = [], [], []
    for lo, hi in zip(edges[:-1], edges[1:]):
        sel = (kk >= lo) & (kk < hi)
        nm = int(sel.sum())
        if nm < 8:
            continue
        ratio = power[sel].mean() / model[sel].mean()
        neff = 0.136 * nm / 2
        xs.append(math.log(math.sqrt(lo * hi)))
        ys.append(math.log(ratio))
        ws.append(neff)  # 1 / var(log ratio)
    xs, ys, ws = map(np.array, (xs, ys, ws))
    xm = np.sum(ws * xs) / np.sum(ws)
    slope = np.sum(ws * (xs - xm) * ys) / np.sum(ws * (xs - xm) ** 2)
    sd = 1 / math.sqrt(np.sum(ws * (xs - xm) ** 2))
    ok = len(xs) >= 3 and abs(slope) <= 4 * sd
    print(f"inflow density spectrum: {len(xs)} bins k = {edges[0]:.3g}..{edges[-1]:.3g}; slope of measured / model "
          f"k^{p['index']:g} = {slope:+.3f}, sd {sd:.3f}, limit 4 sd -> measured index {p['index'] + slope:.2f} "
          f"{'ok' if ok else 'FAIL'}")
    return fails + (0 if ok else 1)


def main():
    p = params()
    fails = check_mass(0)
    with h5py.File("inflow.h5", "r") as f:
        rho = f["field"][...]
    g = (np.log(rho / p["rho_w"]) + 0.5 * p["sigma"] ** 2) / p["sigma"]
    fails = check_variance(p, g, fails)
    fails = check_spectrum(p, rho / rho.mean() - 1, fails)
    print("nebula checks: " + ("all passed" if fails == 0 else f"{fails} FAILED"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
