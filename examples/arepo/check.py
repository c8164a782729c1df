#!/usr/bin/env python3
"""check.py GAS.hdf5 COSMO.hdf5 — what examples/arepo/run.sh wrote, read
back as AREPO reads it (README.md, "What the check asserts")."""
import sys

import h5py
import numpy as np

FAILS = []


def check(cond, msg):
    print(("ok   " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


def common(f, ptype):
    h = dict(f["Header"].attrs)
    n = int(h["NumPart_Total"][ptype])
    p = f["PartType%d" % ptype]
    x, ids = p["Coordinates"][...], p["ParticleIDs"][...]
    check(x.shape == (n, 3) and p["Velocities"].shape == (n, 3), "%d particles of type %d" %
          (n, ptype))
    check(np.array_equal(np.sort(ids), np.arange(1, n + 1)), "IDs 1..N, unique")
    check(np.all((x >= 0) & (x < h["BoxSize"])), "coordinates inside [0, BoxSize)")
    check(h["Flag_DoublePrecision"] == (1 if x.dtype == np.float64 else 0),
          "Flag_DoublePrecision matches the datasets (AREPO aborts otherwise)")
    return h, p, x, n


def gas(path):
    with h5py.File(path, "r") as f:
        h, p, x, n = common(f, 0)
        m, u, v = p["Masses"][...], p["InternalEnergy"][...], p["Velocities"][...]
        t = dict(f["tbrf"].attrs)
    box = h["BoxSize"]
    check(abs(m.sum() / (1.0 * box ** 3) - 1) < 1e-10, "total mass = mean density x box volume")
    cs = np.sqrt(5 / 3 * (5 / 3 - 1) * u)
    mach = np.sqrt(np.mean(np.sum(v * v, axis=1))) / cs.mean()
    # sample scatter of a k^-4 field's rms over the box: a few per cent
    check(abs(mach / 2 - 1) < 0.15, "rms Mach number %.3f (target 2)" % mach)
    check(t["velocity"] in ("solenoidal", b"solenoidal"), "solenoidal velocities recorded")


def cosmo(path):
    with h5py.File(path, "r") as f:
        h, p, x, n = common(f, 1)
        v = p["Velocities"][...]
        t = dict(f["tbrf"].attrs)
    g = round(n ** (1 / 3))
    box, a = h["BoxSize"], h["Time"]
    check(abs(a - 1 / 128) < 1e-15 and h["Redshift"] == 127, "Time 1/128, Redshift 127")
    mass = h["Omega0"] * 27.7536627 * (box / 1000) ** 3 / n
    check(abs(h["MassTable"][1] / mass - 1) < 1e-12, "MassTable[1] = Omega_m rho_crit L^3 / N")
    i = np.arange(n)
    q = np.stack([i % g, i // g % g, i // (g * g)], axis=1) * (box / g)
    psi = x - q
    psi -= box * np.round(psi / box)
    ratio = np.sum(v * psi) / np.sum(psi * psi)
    check(abs(ratio / t["velocity_factor"] - 1) < 1e-9 and
          np.max(np.abs(v - ratio * psi)) < 1e-9 * np.max(np.abs(v)),
          "velocities = sqrt(a) f H displacements (factor %.4f km/s per kpc/h)" % ratio)
    rms = np.sqrt(np.mean(psi ** 2)) / (box / g)
    check(0.005 < rms < 0.1, "rms displacement %.4f of the spacing (linear at z = 127)" % rms)


gas(sys.argv[1])
cosmo(sys.argv[2])
sys.exit(1 if FAILS else 0)
