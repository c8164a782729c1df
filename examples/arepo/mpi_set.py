#!/usr/bin/env python3
"""examples/arepo/mpi_set.py — compares AREPO runs started from the
multi-file sets of `mpirun -n P tbrf arepo cosmo` with the run started from
the serial command's single file (mpi_set.sh writes them).

Usage: mpi_set.py REF_DIR OTHER_DIR ...

Each DIR holds the initial condition (ics.hdf5, or the set ics.0.hdf5,
ics.1.hdf5, ...) and AREPO's output/ (snap_NNN.hdf5, fof_subhalo_tab_NNN.hdf5).
For every OTHER_DIR against REF_DIR it prints, and fails (exit 1) unless they
hold:
  * the set's members read in order are the reference file's particles:
    Coordinates, Velocities, ParticleIDs (and Masses) equal bit for bit, per
    particle type, and the Headers agree on NumPart_Total and MassTable;
  * each snapshot of the reference has its namesake in OTHER_DIR with the same
    Time; particles matched by ID, the largest difference in Coordinates
    (periodic) and Velocities is printed, and must be zero, and every
    dataset (potential, accelerations, densities, ...) equal ("identical");
  * AREPO's FOF/Subfind catalogues of the same number have the same group and
    subhalo counts and the same sorted group lengths.
Needs numpy and h5py."""
import glob
import os
import re
import sys

import h5py
import numpy as np


def members(d):
    """The IC files of a folder in member order (one file or a set)."""
    one = os.path.join(d, "ics.hdf5")
    if os.path.exists(one):
        return [one]
    files = glob.glob(os.path.join(d, "ics.*.hdf5"))
    return sorted(files, key=lambda p: int(re.search(r"\.(\d+)\.hdf5$", p).group(1)))


def read_ic(d):
    """Header of the first member and, per particle type, the concatenated datasets."""
    out, header = {}, None
    for path in members(d):
        with h5py.File(path, "r") as f:
            if header is None:
                header = dict(f["Header"].attrs)
            for g in (k for k in f if k.startswith("PartType")):
                for name, ds in f[g].items():
                    out.setdefault((g, name), []).append(ds[...])
    return header, {k: np.concatenate(v) for k, v in out.items()}, len(members(d))


def read_snap(path):
    """Header and, per particle type, every dataset ordered by ParticleIDs."""
    with h5py.File(path, "r") as f:
        h = dict(f["Header"].attrs)
        parts = {}
        for g in (k for k in f if k.startswith("PartType")):
            o = np.argsort(f[g]["ParticleIDs"][...], kind="stable")
            parts[g] = {name: ds[...][o] for name, ds in f[g].items()}
    return h, parts


def read_fof(path):
    with h5py.File(path, "r") as f:
        h = dict(f["Header"].attrs)
        lens = np.sort(f["Group/GroupLen"][...])[::-1] if "Group/GroupLen" in f else np.zeros(0, int)
    return int(h["Ngroups_Total"]), int(h.get("Nsubgroups_Total", 0)), lens


def compare(ref, other):
    ok = True
    h0, d0, n0 = read_ic(ref)
    h1, d1, n1 = read_ic(other)
    same = (d0.keys() == d1.keys()
            and all(np.array_equal(d0[k], d1[k]) and d0[k].dtype == d1[k].dtype for k in d0)
            and np.array_equal(h0["NumPart_Total"], h1["NumPart_Total"])
            and np.array_equal(h0["MassTable"], h1["MassTable"]))
    ok &= same
    print(f"{other}: IC {n1} file(s) against {n0}: {sum(len(v) for k, v in d1.items() if k[1] == 'ParticleIDs')} "
          f"particles, NumPart_Total {list(h1['NumPart_Total'])}, MassTable {list(h1['MassTable'])}: "
          f"{'bit for bit the reference' if same else 'DIFFERENT'}")
    for s0 in sorted(glob.glob(os.path.join(ref, "output", "snap_*.hdf5"))):
        s1 = os.path.join(other, "output", os.path.basename(s0))
        if not os.path.exists(s1):
            print(f"  {os.path.basename(s0)}: missing in {other}")
            ok = False
            continue
        a, pa = read_snap(s0)
        b, pb = read_snap(s1)
        box = float(a["BoxSize"])
        line = f"  {os.path.basename(s0)} a = {a['Time']:.6g}"
        good = a["Time"] == b["Time"] and pa.keys() == pb.keys()
        for g in sorted(pa):
            da, db = pa[g], pb[g]
            if not np.array_equal(da["ParticleIDs"], db["ParticleIDs"]):
                line += f" {g}: IDs differ"
                good = False
                continue
            dx = np.abs(da["Coordinates"].astype(np.float64) - db["Coordinates"])
            dx = np.minimum(dx, box - dx).max()
            dv = np.abs(da["Velocities"].astype(np.float64) - db["Velocities"]).max()
            same = [k for k in da if k in db and np.array_equal(da[k], db[k])]
            good &= dx == 0 and dv == 0 and len(same) == len(da) == len(db)
            line += (f" {g}: {len(da['ParticleIDs'])} particles, max|dx| {dx:.3g}, max|dv| {dv:.3g},"
                     f" {len(same)} of {len(da)} datasets equal")
        f0 = s0.replace("snap_", "fof_subhalo_tab_")
        f1 = s1.replace("snap_", "fof_subhalo_tab_")
        if os.path.exists(f0):
            g0, sub0, l0 = read_fof(f0)
            g1, sub1, l1 = read_fof(f1) if os.path.exists(f1) else (-1, -1, None)
            same_fof = g0 == g1 and sub0 == sub1 and np.array_equal(l0, l1)
            good &= same_fof
            line += (f"; FOF {g1} groups (largest {l1[0] if g1 > 0 else 0}), {sub1} subhaloes"
                     f"{'' if same_fof else f' against {g0}, {sub0}'}")
        print(line + (": identical" if good else ": DIFFERENT"))
        ok &= good
    return ok


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    ok = all([compare(sys.argv[1], d) for d in sys.argv[2:]])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
