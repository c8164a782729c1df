#!/usr/bin/env python3
"""examples/arepo/zoom/halo_ids.py — pick one halo of the parent box at
z = 0 for a zoom and write its member IDs (README.md, "Zoom").

Usage: halo_ids.py SNAPSHOT.hdf5 --ics ICS.hdf5 --out DIR [--min N]
                   [--max N] [--pad P] [--margin M] [--max-width W]
                   [--pick smallest|largest|RANK]

SNAPSHOT: the parent's AREPO snapshot (PartType1, equal masses); ICS: the
parent's initial condition from `tbrf arepo cosmo`, whose dark-matter IDs
are row + 1 with row i at the lattice site (i % G, i / G % G, i / G^2) L/G
(checked here against the file: every particle within half a spacing of
its site). Friends-of-friends (b = 0.2, periodic) finds the haloes; a halo
qualifies when it has N to --max members and its Lagrangian box (the
bounding box of its members' lattice cells, plus --pad cells on each side
as `tbrf arepo zoom --pad`) stays --margin cells (default 3) away from
every face of the box, and its z = 0 centre is farther than 5 R200c from
every face: AREPO's second PM grid (PLACEHIGHRESREGION) may not cross the
periodic boundary; and the box is at most --max-width parent cells wide
(default 14) on every axis: MUSIC refuses a level wider than half the box,
and its level 6 is the fine box plus 2 x (its padding, 2) level-6 cells. --pick chooses among them: smallest (default; the fewest region
cells, the cheapest zoom), largest (most members) or a rank in the list.

Writes into DIR: halo_ids.txt (the IDs, one a line, '#' header), halo.txt
(key = value: members, mass, centre, R200c, M200c, the Lagrangian box),
music_points.txt (the members' lattice sites in the unit box, MUSIC's
region_point_file). Needs numpy, h5py, scipy."""
import argparse
import os

import h5py
import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree

# critical density today in 10^10 M_sun/h per (kpc/h)^3: 3 H0^2 / (8 pi G)
# with H0 = 0.1 km/s per kpc/h and G = 43007.1 in these units
RHO_CRIT0 = 3 * 0.1 ** 2 / (8 * np.pi * 43007.1)


def read_snapshot(path, ptype=1):
    """Coordinates, IDs, masses of one particle type and the header."""
    with h5py.File(path, "r") as f:
        h = dict(f["Header"].attrs)
        g = f[f"PartType{ptype}"]
        x = g["Coordinates"][...].astype(np.float64)
        ids = g["ParticleIDs"][...].astype(np.int64)
        if "Masses" in g:
            m = g["Masses"][...].astype(np.float64)
        else:
            m = np.full(len(x), float(h["MassTable"][ptype]))
    return x, ids, m, h


def fof_labels(x, box, ll):
    """Friends-of-friends group label of every particle (periodic box),
    linking length ll; labels are numbered from the largest group down."""
    x = np.mod(x, box)
    pairs = cKDTree(x, boxsize=box).query_pairs(ll, output_type="ndarray")
    n = len(x)
    g = coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(n, n))
    _, lab = connected_components(g, directed=False)
    size = np.bincount(lab)
    order = np.argsort(-size, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return rank[lab], size[order]


def unwrap(x, ref, box):
    """x moved by whole box lengths to lie within box/2 of ref."""
    return ref + (x - ref + box / 2) % box - box / 2


def shrinking_centre(x, box, m=None, stop=20):
    """Shrinking-sphere centre (Power et al. 2003) of a group, periodic:
    start at the mass centre, shrink the sphere by 2.5% a step until fewer
    than `stop` particles remain."""
    m = np.ones(len(x)) if m is None else m
    y = unwrap(x, x[0], box)
    c = np.average(y, axis=0, weights=m)
    r = np.sqrt(((y - c) ** 2).sum(1)).max()
    sel = np.ones(len(y), bool)
    while sel.sum() >= stop:
        c = np.average(y[sel], axis=0, weights=m[sel])
        r *= 0.975
        sel = ((y - c) ** 2).sum(1) < r * r
    return np.mod(c, box)


def r200c(c, xs, ms, box, a, om, ol):
    """R200c (comoving) and M200c around c from particle sets xs (list of
    coordinate arrays) with masses ms: the largest radius inside which the
    mean density is 200 times the critical density at scale factor a."""
    d = np.concatenate([np.sqrt(((unwrap(x, c, box) - c) ** 2).sum(1)) for x in xs])
    w = np.concatenate(ms)
    o = np.argsort(d)
    d, w = d[o], np.cumsum(w[o])
    e2 = om / a ** 3 + ol + (1 - om - ol) / a ** 2
    target = 200 * RHO_CRIT0 * e2 * a ** 3  # comoving mean density inside R200c
    dens = w / (4 / 3 * np.pi * np.maximum(d, 1e-30) ** 3)
    ok = np.nonzero(dens >= target)[0]
    if len(ok) == 0:
        return 0.0, 0.0
    i = ok[-1]
    return float(d[i]), float(w[i])


def lattice_cells(ids, g):
    """Lattice cell (i, j, k) of tbrf's dark-matter IDs (row + 1)."""
    row = ids - 1
    return np.stack([row % g, row // g % g, row // (g * g)], axis=1)


def lagrangian_box(cells, g):
    """Bounding box lo .. hi (hi exclusive, may exceed G when it wraps) of
    periodic lattice cells: per axis the shortest arc holding them all."""
    lo, hi = np.zeros(3, int), np.zeros(3, int)
    for a in range(3):
        occ = np.zeros(g, bool)
        occ[cells[:, a]] = True
        # the largest empty gap on the ring; the box is its complement
        if occ.all():
            lo[a], hi[a] = 0, g
            continue
        run, best, bstart = 0, 0, 0
        for s in range(2 * g):
            if not occ[s % g]:
                run += 1
                if run > best:
                    best, bstart = run, s - run + 1
            else:
                run = 0
        best = min(best, g)
        lo[a] = (bstart + best) % g
        hi[a] = lo[a] + g - best
    return lo, hi


def check_ids(ics, g, box):
    """Every IC particle within half a spacing of its ID's lattice site."""
    x, ids, _, _ = read_snapshot(ics)
    q = lattice_cells(ids, g) * (box / g)
    d = np.abs((x - q + box / 2) % box - box / 2).max()
    if d >= 0.5 * box / g:
        raise SystemExit(f"halo_ids: {ics}: a particle lies {d:g} from its ID's lattice site "
                         f"(spacing {box / g:g}): not tbrf's ID order")
    return d


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("snapshot")
    ap.add_argument("--ics", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--min", type=int, default=100)
    ap.add_argument("--max", type=int, default=1 << 62)
    ap.add_argument("--pad", type=int, default=2)
    ap.add_argument("--margin", type=int, default=3)
    ap.add_argument("--max-width", type=int, default=14)
    ap.add_argument("--pick", default="smallest")
    o = ap.parse_args()
    x, ids, m, h = read_snapshot(o.snapshot)
    box, a = float(h["BoxSize"]), float(h["Time"])
    om, ol = float(h.get("Omega0", 0.3089)), float(h.get("OmegaLambda", 0.6911))
    g = round(len(x) ** (1 / 3))
    dmax = check_ids(o.ics, g, box)
    lab, size = fof_labels(x, box, 0.2 * box / g)
    print(f"# {o.snapshot}: z = {1 / a - 1:.3f}, {len(x)} particles of {m[0]:.5g}, G = {g}; "
          f"IC particles within {dmax / (box / g):.3f} spacings of their ID's site")
    print(f"# {'rank':>4} {'N':>6} {'M_fof':>10} {'centre (kpc/h)':>26} {'R200c':>8} {'M200c':>10}"
          f" {'Lagrangian box lo..hi (cells)':>34} {'cells':>6} ok")
    cands = []
    for r in np.nonzero(size >= o.min)[0]:
        if size[r] > o.max:
            continue
        sel = lab == r
        c = shrinking_centre(x[sel], box)
        R, M = r200c(c, [x], [m], box, a, om, ol)
        lo, hi = lagrangian_box(lattice_cells(ids[sel], g), g)
        plo, phi = lo - o.pad, hi + o.pad
        cells = int(np.prod(phi - plo))
        ok = bool(np.all(plo >= o.margin) and np.all(phi <= g - o.margin)
                  and np.all(phi - plo <= o.max_width)
                  and np.all(c > 5 * R) and np.all(c < box - 5 * R))
        print(f"  {r:4d} {size[r]:6d} {size[r] * m[0]:10.4g} {c[0]:8.1f} {c[1]:8.1f} {c[2]:8.1f}"
              f" {R:8.1f} {M:10.4g} {str(list(lo)) + '..' + str(list(hi)):>34} {cells:6d} "
              f"{'yes' if ok else 'no'}")
        if ok:
            cands.append(dict(rank=int(r), n=int(size[r]), c=c, R=R, M=M, lo=lo, hi=hi,
                              cells=cells, sel=sel))
    if not cands:
        raise SystemExit("halo_ids: no halo qualifies (try --min, --margin)")
    if o.pick == "smallest":
        h0 = min(cands, key=lambda d: d["cells"])
    elif o.pick == "largest":
        h0 = max(cands, key=lambda d: d["n"])
    else:
        h0 = next(d for d in cands if d["rank"] == int(o.pick))
    os.makedirs(o.out, exist_ok=True)
    mem = np.sort(ids[h0["sel"]])
    head = (f"FOF halo {h0['rank']} of {o.snapshot} (z = {1 / a - 1:.3f}): {h0['n']} members, "
            f"M_fof {h0['n'] * m[0]:.6g} 1e10 Msun/h, centre {h0['c'][0]:.2f} {h0['c'][1]:.2f} "
            f"{h0['c'][2]:.2f} kpc/h")
    np.savetxt(os.path.join(o.out, "halo_ids.txt"), mem, fmt="%d", header=head)
    site = lattice_cells(mem, g) / g
    np.savetxt(os.path.join(o.out, "music_points.txt"), site, fmt="%.8f")
    plo, phi = h0["lo"] - o.pad, h0["hi"] + o.pad
    with open(os.path.join(o.out, "halo.txt"), "w") as f:
        f.write(f"# {head}\nsnapshot = {o.snapshot}\nredshift = {1 / a - 1:.6f}\n"
                f"fof_rank = {h0['rank']}\nmembers = {h0['n']}\nparticle_mass = {m[0]:.9g}\n"
                f"mass_fof = {h0['n'] * m[0]:.9g}\n"
                f"centre = {h0['c'][0]:.4f} {h0['c'][1]:.4f} {h0['c'][2]:.4f}\n"
                f"r200c = {h0['R']:.4f}\nm200c = {h0['M']:.9g}\n"
                f"lagrangian_lo = {' '.join(map(str, h0['lo']))}\n"
                f"lagrangian_hi = {' '.join(map(str, h0['hi']))}\n"
                f"pad = {o.pad}\nregion_lo = {' '.join(map(str, plo))}\n"
                f"region_hi = {' '.join(map(str, phi))}\nregion_cells = {h0['cells']}\n"
                f"parent_g = {g}\nbox = {box:.6g}\n")
    print(f"# picked halo {h0['rank']} ({o.pick}): {h0['n']} members, region "
          f"{list(plo)}..{list(phi)} = {h0['cells']} parent cells -> "
          f"{h0['cells']} r^3 fine particles; wrote {o.out}/halo_ids.txt, halo.txt, music_points.txt")


if __name__ == "__main__":
    main()
