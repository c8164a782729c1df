#!/usr/bin/env python3
"""examples/arepo/zoom/music_noise.py — the white noise of a `tbrf arepo
cosmo --lpt 1` box as a MUSIC level-min white-noise file, so that MUSIC's
zoom shares the parent's phases (README.md, "Zoom").

Usage: music_noise.py ICS.hdf5 PK.txt OUT.bin [--seed S] [--shift F] [--sign +1|-1]

ICS: a Zel'dovich IC from `tbrf arepo cosmo --lpt 1` (IDs row + 1 at the
lattice sites (i % G, i / G % G, i / G^2) L/G); PK: `tbrf arepo pk` at the
same redshift (k in h/Mpc, P in (Mpc/h)^3), the model the file was made
with. The displacement Psi = x - q gives delta_k = -i k . Psi_k, and the
white noise w_k = delta_k sqrt(V / (N^3 P(k))) (numpy's unnormalised DFT:
unit-variance noise has <|w_k|^2> = N^3) on the parent's modes |k| <= pi
G / L; tbrf has no modes outside that sphere, MUSIC's level-min cube does,
so those are filled from independent unit-variance noise (--seed). --shift
F moves the field by F cells on each axis: MUSIC puts the noise of its cell i at
the cell's centre (i + 1/2) L/G, tbrf's lattice value i sits at i L/G, so
the default F = 1/2 gives MUSIC tbrf's field at the same positions (else
MUSIC's box is tbrf's moved by half a cell); --sign (default -1)
multiplies the noise: MUSIC negates what it reads (unless grafic's sign
convention is asked for), and tbrf's delta = -div Psi. Checked at 32^3
(README.md, "Zoom"): a MUSIC unigrid box from this file has tbrf's
displacements at the cell centres to a correlation of 0.997, rms 1.002
times tbrf's (MUSIC's cube also holds the random corner modes). The
file is MUSIC's (grafic's) Fortran-record format: a header record (nx, ny,
nz, iseed) and nz records of nx ny float32 values, x fastest. Prints the
noise's mean and variance and the in-sphere modes' mean |w_k|^2 / N^3
(1 within the scatter of Rayleigh amplitudes when the normalisation is
right)."""
import argparse
import struct
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from halo_ids import lattice_cells, read_snapshot  # noqa: E402


def displacement_grid(path):
    """Psi = x - q (minimum image) of a tbrf lattice IC as [3, x, y, z]
    arrays, the box size and G."""
    x, ids, _, h = read_snapshot(path)
    box = float(h["BoxSize"])
    g = round(len(x) ** (1 / 3))
    q = lattice_cells(ids, g) * (box / g)
    d = (x - q + box / 2) % box - box / 2
    psi = np.zeros((3, g, g, g))
    c = lattice_cells(ids, g)
    for a in range(3):
        psi[a][c[:, 0], c[:, 1], c[:, 2]] = d[:, a]
    return psi, box, g


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ics")
    ap.add_argument("pk")
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--shift", type=float, default=0.5)
    ap.add_argument("--sign", type=float, default=-1.0)
    o = ap.parse_args()
    psi, box, g = displacement_grid(o.ics)
    unit = 1000.0 if box > 5000 else 1.0  # kpc/h files: to Mpc/h
    L = box / unit
    psi /= unit
    kt, pt = np.loadtxt(o.pk, comments="#", unpack=True)
    k1 = 2 * np.pi / L * np.fft.fftfreq(g, 1.0 / g)
    kx, ky, kz = np.meshgrid(k1, k1, k1, indexing="ij")
    kk = np.sqrt(kx ** 2 + ky ** 2 + kz ** 2)
    inside = (kk > 0) & (kk <= np.pi * g / L * (1 + 1e-9))
    dk = -1j * (kx * np.fft.fftn(psi[0]) + ky * np.fft.fftn(psi[1]) + kz * np.fft.fftn(psi[2]))
    p = np.exp(np.interp(np.log(np.where(kk > 0, kk, 1.0)), np.log(kt), np.log(pt)))
    wk = np.where(inside, dk * np.sqrt(L ** 3 / (g ** 3 * p)), 0)
    ratio = float(np.mean(np.abs(wk[inside]) ** 2) / g ** 3)
    if o.shift:
        # w(x + F dx): multiply by exp(i k F dx); the sphere holds no
        # Nyquist plane (where the shift would break the field's realness)
        wk = wk * np.exp(1j * (kx + ky + kz) * o.shift * L / g)
    rnd = np.fft.fftn(np.random.default_rng(o.seed).standard_normal((g, g, g)))
    wk = np.where(inside, wk, rnd)
    wk[0, 0, 0] = 0
    w = o.sign * np.fft.ifftn(wk).real
    print(f"music_noise: G = {g}, box {L:g} Mpc/h, {int(inside.sum())} of {g ** 3} modes from "
          f"the IC, in-sphere <|w_k|^2>/N^3 = {ratio:.4f}; noise mean {w.mean():.2e}, "
          f"variance {w.var():.4f}; shift {o.shift} cells, sign {o.sign:+g}")
    with open(o.out, "wb") as f:
        f.write(struct.pack("<i3Iii", 16, g, g, g, o.seed, 16))
        plane = 4 * g * g
        for iz in range(g):
            f.write(struct.pack("<i", plane))
            f.write(np.ascontiguousarray(w[:, :, iz].T, dtype="<f4").tobytes())
            f.write(struct.pack("<i", plane))


if __name__ == "__main__":
    main()
