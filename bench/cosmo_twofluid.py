#!/usr/bin/env python3
"""bench/cosmo_twofluid.py — the two fluids of tbrf's and monofonIC's ICs
(bench/cosmo_twofluid.sh wrote tbrf_SEED.hdf5 and mono_SEED.hdf5) against
their CAMB transfer file, shell by shell in k (doc/arepo.md, "Two fluids
against monofonIC").

Each species is taken back to its Lagrangian lattice (a site from each
particle's position less the species' lattice offset, found as the
circular mean; the displacements are far below a cell at z = 99), where
its linear density is delta_s = -div Psi_s + (m_s / <m_s> - 1) (tbrf puts
the species' difference in the displacements, monofonIC in the masses:
Hahn, Rampf & Uhlemann 2021) and its velocity divergence theta_s = div u_s
(u = v / sqrt(a), Gadget's). Per shell, over the seeds:
  P_b / P_c                          against (T_b / T_c)^2,
  -<theta_s delta_m*> / (sqrt(a) H <|delta_m|^2>), delta_m = (1 - f_b)
  delta_c + f_b delta_b,              against the file's T_v,s / T_m
  (CAMB's -v k / H_conf columns: f_s T_s in the growing mode),
and the b-c cross-correlation (1: one set of phases)."""
import argparse

import h5py
import numpy as np


def lagrangian(path, part, box, g):
    """Psi (3, g, g, g) in Mpc/h, u (3, g, g, g) in km/s and m / <m> - 1 of
    one species on its lattice, and the lattice's offset (3,) in Mpc/h."""
    with h5py.File(path, "r") as f:
        scale = f["Header"].attrs["BoxSize"] / box  # file length units per Mpc/h
        x = f[part + "/Coordinates"][...] / scale
        u = f[part + "/Velocities"][...]
        m = f[part + "/Masses"][...] if part + "/Masses" in f else np.ones(len(x))
    dx = box / g
    ang = np.angle(np.mean(np.exp(2j * np.pi * x / dx), axis=0))
    off = dx * ang / (2 * np.pi)
    q = np.round((x - off) / dx).astype(np.int64) % g
    psi = x - off - q * dx
    psi -= box * np.round(psi / box)
    idx = q[:, 0] + g * (q[:, 1] + g * q[:, 2])
    if len(np.unique(idx)) != g ** 3:
        raise SystemExit("%s %s: not one particle a lattice site" % (path, part))
    out = np.zeros((7, g ** 3))
    out[0:3, idx] = psi.T
    out[3:6, idx] = u.T
    out[6, idx] = m / m.mean() - 1
    return out.reshape(7, g, g, g), off


def fields(lag, box, g, shifted):
    """delta and theta of one species in k space; shifted: the code
    evaluated the species' fields at its own lattice's sites (monofonIC's
    baryons at q + d/2), whose offset is taken out of the phases, else at
    q (tbrf: the gas at the dark matter's q, displaced by N-GenIC's shift
    after)."""
    f, off = lag
    k1 = 2 * np.pi / box * np.fft.fftfreq(g, 1.0 / g)
    kk = np.meshgrid(k1, k1, k1, indexing="ij", sparse=False)
    # rows are x fastest: index (qz, qy, qx) after the reshape
    kk = kk[::-1]
    phase = np.exp(-1j * sum(kk[c] * off[c] for c in range(3))) if shifted else 1.0
    fk = [np.fft.fftn(f[c]) * phase for c in range(7)]
    div_psi = sum(1j * kk[c] * fk[c] for c in range(3))
    theta = sum(1j * kk[c] * fk[3 + c] for c in range(3))
    return -div_psi + fk[6], theta, np.sqrt(sum(k * k for k in kk))


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--transfer", required=True)
    a.add_argument("--box", type=float, required=True)
    a.add_argument("--grid", type=int, required=True)
    a.add_argument("--z", type=float, required=True)
    a.add_argument("--omega-m", type=float, required=True)
    a.add_argument("--omega-b", type=float, required=True)
    a.add_argument("--hubble", type=float, required=True)
    a.add_argument("--seeds", nargs="+", required=True)
    o = a.parse_args()
    box, g, fb = o.box, o.grid, o.omega_b / o.omega_m
    sc = 1 / (1 + o.z)
    vown = np.sqrt(sc) * 100 * np.sqrt(o.omega_m / sc ** 3 + 1 - o.omega_m)  # sqrt(a) H
    r = np.loadtxt(o.transfer)
    lk = np.log(r[:, 0])
    # log-log, as both codes interpolate the rows (every column used is > 0)
    col = lambda c: (lambda k: np.exp(np.interp(np.log(k), lk, np.log(r[:, c]))))
    tc, tb, tm, vc, vb = col(1), col(2), col(6), col(10), col(11)
    kf = 2 * np.pi / box
    edges = kf * np.array([1, 2, 4, 8, 12, 16, 20, 24, 28, 32.0001])
    edges = edges[edges <= kf * g / 2 + 1e-9]
    codes = {"tbrf": "tbrf_%s.hdf5", "monofonIC": "mono_%s.hdf5"}
    acc = {c: np.zeros((len(edges) - 1, 10)) for c in codes}
    for code, pat in codes.items():
        for seed in o.seeds:
            dc, thc, kmag = fields(lagrangian(pat % seed, "PartType1", box, g), box, g, False)
            db, thb, _ = fields(lagrangian(pat % seed, "PartType0", box, g), box, g,
                                code == "monofonIC")
            dm = (1 - fb) * dc + fb * db
            kk = np.maximum(kmag, kf)
            for i in range(len(edges) - 1):
                s = (kmag >= edges[i]) & (kmag < edges[i + 1])
                pc, pm = np.abs(dc[s]) ** 2, np.abs(dm[s]) ** 2
                # the file's values weighted as the estimates weight the modes
                acc[code][i] += [np.sum(np.abs(db[s]) ** 2), np.sum(pc),
                                 -np.sum((thc[s] * np.conj(dm[s])).real),
                                 -np.sum((thb[s] * np.conj(dm[s])).real),
                                 np.sum(pm), np.sum((db[s] * np.conj(dc[s])).real),
                                 np.sum(pc * (tb(kk[s]) / tc(kk[s])) ** 2),
                                 np.sum(pm * vc(kk[s]) / tm(kk[s])),
                                 np.sum(pm * vb(kk[s]) / tm(kk[s])), np.sum(kmag[s])]
    print("# k [h/Mpc]   (T_b/T_c)^2: file tbrf monofonIC   f_c = T_vc/T_m: file tbrf "
          "monofonIC   f_b = T_vb/T_m: file tbrf monofonIC   r_bc: tbrf monofonIC   modes")
    worst = {c: [0.0, 0.0, 0.0] for c in codes}
    for i in range(len(edges) - 1):
        n = np.sum((kmag >= edges[i]) & (kmag < edges[i + 1]))
        if n == 0:
            continue
        k = acc["tbrf"][i, 9] / (n * len(o.seeds))
        t = acc["tbrf"][i]
        want = [t[6] / t[1], t[7] / t[4], t[8] / t[4]]
        line = "%9.4f" % k
        got = {}
        for c in codes:
            s = acc[c][i]
            got[c] = [s[0] / s[1], s[2] / (vown * s[4]), s[3] / (vown * s[4]),
                      s[5] / np.sqrt(s[0] * s[1])]
            for j in range(3):
                worst[c][j] = max(worst[c][j], abs(got[c][j] / want[j] - 1))
        for j in range(3):
            line += "   %.4f %.4f %.4f" % (want[j], got["tbrf"][j], got["monofonIC"][j])
        line += "   %.6f %.6f   %d" % (got["tbrf"][3], got["monofonIC"][3], n)
        print(line)
    for c in codes:
        print("# %s: worst |got / file - 1| over the shells: P_b/P_c %.2e, f_c %.2e, f_b %.2e" %
              ((c,) + tuple(worst[c])))


if __name__ == "__main__":
    main()
