#!/usr/bin/env python3
"""arepo_cosmo_source.py TBRF WORKDIR — `tbrf arepo cosmo --lpt 2` against an
independent numpy 2LPT reference (doc/arepo.md, "Against monofonIC /
N-GenIC"; the reference is bench/cosmo_peers.py's, which reproduces
monofonIC's second order to 1e-11).

Two files of one seed, --lpt 1 and --lpt 2 (32^3, 100 Mpc/h, z = 24,
float64 positions in Mpc/h): Psi1 = x - q of the first, Psi2 the
difference of the two (D2 times the unit second-order displacement).
From Psi1 alone, by FFT derivatives,
    S = sum_{i<j} (Psi1_{i,i} Psi1_{j,j} - Psi1_{i,j} Psi1_{j,i}),
the products formed on a 3/2-padded grid (Orszag; 48^3), kept on the
particles' modes with the Nyquist planes zeroed. Then
  * div Psi2 = (D2/D1^2) S with D1, D2 the file's growth_factor and
    growth_factor2 (no fit), to 1e-9 relative rms (round-off gives 2e-12;
    -3/7 in place of the file's D2/D1^2 would leave 2e-6, an unpadded
    source 0.36);
  * Psi2 is that source's curl-free displacement, -i k (D2/D1^2) S_k/k^2,
    to 1e-9;
  * the same source formed on the 32^3 grid without padding misses by more
    than 1e-2 (so the first check sees the dealiasing).
Exit 77 (skipped) without h5py/numpy.
"""
import os
import subprocess
import sys

try:
    import h5py
    import numpy as np
except ImportError:
    print("h5py or numpy missing: skipped")
    sys.exit(77)

TBRF, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
os.chdir(WORK)
G, L = 32, 100.0
ARGS = ["arepo", "cosmo", "--box", str(L), "--length-unit", "mpc", "--particles", str(G),
        "--redshift", "24", "--omega-m", "0.308", "--omega-b", "0.0484", "--hubble", "0.678",
        "--sigma8", "0.815", "--precision", "double", "--seed", "7", "--quiet"]
FAILS = []


def check(cond, msg):
    print(("ok: " if cond else "FAIL: ") + msg)
    if not cond:
        FAILS.append(msg)


def load(order):
    subprocess.run([TBRF] + ARGS + ["--lpt", str(order), "--out", "lpt%d" % order], check=True)
    with h5py.File("lpt%d.hdf5" % order, "r") as f:
        x = f["PartType1/Coordinates"][...]
        ids = f["PartType1/ParticleIDs"][...].astype(np.int64) - 1
        t = dict(f["tbrf"].attrs)
    q = np.stack([ids % G, ids // G % G, ids // (G * G)], axis=1) * (L / G)
    d = np.mod(x - q + L / 2, L) - L / 2
    psi = np.zeros((3, G, G, G))
    for c in range(3):
        psi[c, ids % G, ids // G % G, ids // (G * G)] = d[:, c]
    return psi, t


k1 = 2 * np.pi / L * np.fft.fftfreq(G, 1.0 / G)
k1[G // 2] = 0.0  # the Nyquist planes carry no derivative
K = np.meshgrid(k1, k1, k1, indexing="ij")


def product(A, B, padded):
    if not padded:
        return np.fft.fftn(np.fft.ifftn(A).real * np.fft.ifftn(B).real)
    M, h = 3 * G // 2, G // 2
    dst, src = np.r_[0:h, M - h + 1:M], np.r_[0:h, G - h + 1:G]

    def up(X):
        Y = np.zeros((M, M, M), complex)
        Y[np.ix_(dst, dst, dst)] = X[np.ix_(src, src, src)]
        return np.fft.ifftn(Y).real * (M / G) ** 3

    C = np.fft.fftn(up(A) * up(B)) * (G / M) ** 3
    out = np.zeros((G, G, G), complex)
    out[np.ix_(src, src, src)] = C[np.ix_(dst, dst, dst)]
    return out


def source(psi1, padded):
    P = [np.fft.fftn(psi1[c]) for c in range(3)]
    d = [[1j * K[j] * P[i] for j in range(3)] for i in range(3)]
    S = np.zeros((G, G, G), complex)
    for i in range(3):
        for j in range(i + 1, 3):
            S += product(d[i][i], d[j][j], padded) - product(d[i][j], d[j][i], padded)
    return S


psi1, t1 = load(1)
psi2_full, t2 = load(2)
psi2 = psi2_full - psi1
c = t2["growth_factor2"] / t2["growth_factor"] ** 2
check(abs(c / (-3.0 / 7.0) - 1) < 1e-3, "D2/D1^2 = %.9f is -3/7 to 1e-3 at z = 24" % c)
div = sum(1j * K[i] * np.fft.fftn(psi2[i]) for i in range(3))
S = source(psi1, True)
r = np.linalg.norm(div - c * S) / np.linalg.norm(div)
check(r < 1e-9, "div Psi2 = (D2/D1^2) S(Psi1), 3/2-dealiased: relative rms residual %.3e" % r)
k2 = K[0] ** 2 + K[1] ** 2 + K[2] ** 2
k2[k2 == 0] = 1.0
rebuilt = np.stack([np.fft.ifftn(-1j * K[i] * c * S / k2).real for i in range(3)])
r = np.linalg.norm(rebuilt - psi2) / np.linalg.norm(psi2)
check(r < 1e-9, "Psi2 = grad of inverse-laplacian (D2/D1^2) S: relative rms %.3e" % r)
r = np.linalg.norm(div - c * source(psi1, False)) / np.linalg.norm(div)
check(r > 1e-2, "without the padding the source misses by %.3e (> 1e-2)" % r)
sys.exit(1 if FAILS else 0)
