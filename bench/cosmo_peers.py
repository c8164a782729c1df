#!/usr/bin/env python3
"""bench/cosmo_peers.py — tbrf's cosmological ICs against monofonIC's (and
2LPTic's), read from the files each program wrote (bench/cosmo_peers.sh
makes them).

The codes draw their phases from different random generators, so no two
files share a realisation; what must agree is everything a realisation
does not decide:

 1. the linear spectrum: P(k) of delta1 = -div Psi1 (Psi1 the first-order
    displacement on the lattice), per shell of width 2 pi/L, against
    D(z)^2 P_lin(k) averaged over the shell's modes. A shell of M grid
    modes holds M/2 independent complex modes of a Gaussian field, so its
    estimate scatters by sqrt(2/M) relative (R seeds: sqrt(2/(M R)));
    a code-to-code difference of means by sqrt(2) times that;
 2. the particles' spectrum: cloud-in-cell on a (2G)^3 mesh, deconvolved,
    to half the particle Nyquist frequency (a displaced lattice has no
    shot noise);
 3. the second-order displacement Psi2 = Psi(2LPT file) - Psi(1LPT file)
    of one seed, divided by the code's D2: its divergence's spectrum, the
    code means over seeds compared with the seeds' own scatter (Psi2 is
    quadratic in a Gaussian field, so the Gaussian sqrt(2/M) does not
    apply; the scatter is measured);
 4. realisation by realisation, the source equation: div Psi2 against
    (D2/D1^2) sum_{i<j} (Psi1_{i,i} Psi1_{j,j} - Psi1_{i,j} Psi1_{j,i})
    computed here from the file's own Psi1, with the products dealiased by
    Orszag's 3/2 rule (monofonIC's OrszagConvolver) and without; the
    fitted D2/D1^2 against -3/7 and the relative residual;
 5. velocities: u = sqrt(a) H (f1 Psi1 + f2 Psi2) (Gadget's u = v/sqrt(a)),
    fitted factors against sqrt(a) 100 E(a) f(a) km/s per Mpc/h.

Usage: cosmo_peers.py [--json OUT] [--fig PREFIX] PKTABLE OMEGA_M LIST...
       cosmo_peers.py --replot JSON PREFIX
where LIST... are "code:seed:order:path" (code tbrf, monofonic or 2lptic;
path an HDF5 file, or the first file of a Gadget-1 set for 2lptic).
Prints one table per check; --json writes the numbers, --fig the figures."""
import glob
import json
import math
import struct
import sys

import h5py
import numpy as np
from scipy import integrate

# ---------------------------------------------------------------- reading


def lattice_index(ids, G, order):
    """(ix, iy, iz) of each particle from its ID: tbrf numbers the lattice
    from 1 with x fastest, monofonIC from 0 with z fastest (its
    get_cell_idx_1d), 2LPTic from 1 with z fastest."""
    ids = ids.astype(np.int64)
    if order == "x":
        i = ids - 1
        return i % G, (i // G) % G, i // (G * G)
    i = ids - (1 if order == "z1" else 0)
    return i // (G * G), (i // G) % G, i % G


def to_grid(pos, vel, ids, box, G, order):
    """Psi = x - q wrapped to [-L/2, L/2) and u on the (G,G,G) lattice."""
    ix, iy, iz = lattice_index(ids, G, order)
    q = np.stack([ix, iy, iz], axis=1) * (box / G)
    psi = np.mod(pos - q + 0.5 * box, box) - 0.5 * box
    P = np.zeros((3, G, G, G))
    U = np.zeros((3, G, G, G))
    for c in range(3):
        P[c, ix, iy, iz] = psi[:, c]
        U[c, ix, iy, iz] = vel[:, c]
    return P, U


def read_hdf5(path, code):
    files = sorted(glob.glob(path.replace(".0.hdf5", ".*.hdf5"))) if ".0.hdf5" in path else [path]
    pos, vel, ids = [], [], []
    for fn in files:
        with h5py.File(fn, "r") as f:
            h = dict(f["Header"].attrs)
            pos.append(f["PartType1/Coordinates"][...].astype(np.float64))
            vel.append(f["PartType1/Velocities"][...].astype(np.float64))
            ids.append(f["PartType1/ParticleIDs"][...])
            tb = dict(f["tbrf"].attrs) if "tbrf" in f else {}
    pos, vel, ids = np.concatenate(pos), np.concatenate(vel), np.concatenate(ids)
    box, a = float(h["BoxSize"]), float(h["Time"])
    G = round(len(ids) ** (1 / 3))
    assert G ** 3 == len(ids), f"{path}: {len(ids)} particles is not a cube"
    # lengths to Mpc/h: tbrf records its unit, monofonIC writes Mpc/h
    scale = 1.0 / float(tb["length_unit_per_mpc_h"]) if "length_unit_per_mpc_h" in tb else 1.0
    if code == "monofonic" and "UnitLength_in_cm" in h:
        scale = float(h["UnitLength_in_cm"]) / 3.085677581491367e24
    P, U = to_grid(pos, vel, ids, box, G, "x" if code == "tbrf" else "z0")
    info = {k: (v.item() if hasattr(v, "item") else v) for k, v in tb.items()
            if isinstance(v, (int, float, np.floating, np.integer))}
    return dict(psi=P * scale, u=U, box=box * scale, a=a, G=G, tbrf=info)


def read_gadget1(path):
    """A Gadget format-1 set (2LPTic): header, POS, VEL, ID blocks."""
    files = sorted(glob.glob(path[:-2] + ".*")) if path.endswith(".0") else [path]
    pos, vel, ids = [], [], []
    for fn in files:
        with open(fn, "rb") as f:
            def block():
                n = struct.unpack("<i", f.read(4))[0]
                b = f.read(n)
                assert struct.unpack("<i", f.read(4))[0] == n, f"{fn}: bad block marker"
                return b
            hb = block()
            npart = struct.unpack("<6i", hb[:24])
            a = struct.unpack("<d", hb[72:80])[0]
            box = struct.unpack("<d", hb[128:136])[0]
            n = sum(npart)
            pb, vb, ib = block(), block(), block()
            fdt = np.float64 if len(pb) == 24 * n else np.float32
            pos.append(np.frombuffer(pb, fdt).reshape(n, 3).astype(np.float64))
            vel.append(np.frombuffer(vb, fdt).reshape(n, 3).astype(np.float64))
            ids.append(np.frombuffer(ib, np.uint64 if len(ib) == 8 * n else np.uint32))
    pos, vel, ids = np.concatenate(pos), np.concatenate(vel), np.concatenate(ids)
    G = round(len(ids) ** (1 / 3))
    P, U = to_grid(pos, vel, ids, box, G, "z1")
    scale = 1e-3 if box > 5000 else 1.0  # kpc/h files
    return dict(psi=P * scale, u=U, box=box * scale, a=a, G=G, tbrf={})


# ---------------------------------------------------------------- spectra


def kgrid(G, box, nyquist_zero=True):
    k1 = 2 * np.pi / box * np.fft.fftfreq(G, 1.0 / G)
    if nyquist_zero:
        k1 = k1.copy()
        k1[G // 2] = 0.0  # a derivative of the Nyquist mode is not real
    return np.meshgrid(k1, k1, k1, indexing="ij")


def shells(G, box):
    kx, ky, kz = kgrid(G, box, nyquist_zero=False)
    kk = np.sqrt(kx * kx + ky * ky + kz * kz)
    return kk, np.rint(kk / (2 * np.pi / box)).astype(int)


def binned(power, G, box, nmax):
    kk, n = shells(G, box)
    out = []
    for b in range(1, nmax + 1):
        m = n == b
        out.append((kk[m].mean(), power[m].mean(), int(m.sum())))
    return np.array(out)


def div_k(psi, box):
    G = psi.shape[1]
    K = kgrid(G, box)
    return sum(1j * K[c] * np.fft.fftn(psi[c]) for c in range(3))


def pk_of(field_k, G, box):
    return np.abs(field_k) ** 2 * box ** 3 / G ** 6


def cic_pk(psi, box, nmax):
    """Particles x = q + Psi deposited by cloud-in-cell on a (2G)^3 mesh,
    deconvolved by the CIC window."""
    G = psi.shape[1]
    M = 2 * G
    q = np.stack(np.meshgrid(*[np.arange(G) * (box / G)] * 3, indexing="ij"))
    x = np.mod(q + psi, box).reshape(3, -1) / (box / M)
    i0 = np.floor(x).astype(int)
    w1 = x - i0
    rho = np.zeros(M ** 3)
    for dx in (0, 1):
        for dy in (0, 1):
            for dz in (0, 1):
                w = ((w1[0] if dx else 1 - w1[0]) * (w1[1] if dy else 1 - w1[1])
                     * (w1[2] if dz else 1 - w1[2]))
                idx = (((i0[0] + dx) % M) * M + (i0[1] + dy) % M) * M + (i0[2] + dz) % M
                rho += np.bincount(idx, w, M ** 3)
    rho = rho.reshape(M, M, M) / (G ** 3 / M ** 3) - 1.0
    dk = np.fft.fftn(rho)
    f1 = np.fft.fftfreq(M)
    W = np.sinc(f1) ** 2
    W3 = W[:, None, None] * W[None, :, None] * W[None, None, :]
    return binned(np.abs(dk / W3) ** 2 * box ** 3 / M ** 6, M, box, nmax)


# ---------------------------------------------------------------- 2LPT


def product_k(A, B, dealias):
    """The Fourier coefficients (G grid) of a(x) b(x) for a, b given by
    theirs: dealias 'orszag' pads to 3G/2 (modes |k_i| < G/2 kept, the
    rest of the padded product dropped), 'none' multiplies on the G grid."""
    G = A.shape[0]
    if dealias == "none":
        return np.fft.fftn(np.fft.ifftn(A).real * np.fft.ifftn(B).real)
    M = 3 * G // 2
    h = G // 2
    sl = np.r_[0:h, M - h + 1:M]  # modes -h+1..h-1 (Nyquist dropped)
    src = np.r_[0:h, G - h + 1:G]

    def pad(X):
        Y = np.zeros((M, M, M), complex)
        Y[np.ix_(sl, sl, sl)] = X[np.ix_(src, src, src)]
        return np.fft.ifftn(Y).real * (M / G) ** 3

    C = np.fft.fftn(pad(A) * pad(B)) * (G / M) ** 3
    out = np.zeros((G, G, G), complex)
    out[np.ix_(src, src, src)] = C[np.ix_(sl, sl, sl)]
    return out


def second_order_source(psi1, box, dealias="orszag"):
    """S_k of S = sum_{i<j} (Psi_{i,i} Psi_{j,j} - Psi_{i,j} Psi_{j,i})."""
    G = psi1.shape[1]
    K = kgrid(G, box)
    P = [np.fft.fftn(psi1[c]) for c in range(3)]
    d = [[1j * K[j] * P[i] for j in range(3)] for i in range(3)]
    S = np.zeros((G, G, G), complex)
    for i in range(3):
        for j in range(i + 1, 3):
            S += product_k(d[i][i], d[j][j], dealias) - product_k(d[i][j], d[j][i], dealias)
    return S


def source_check(psi1, psi2, box):
    """div Psi2 against c S: the fitted c (= D2/D1^2) and the relative rms
    residual, with S dealiased (Orszag) and not, over every mode of the
    G^3 cube and over the Nyquist sphere |k| <= pi G/L only (the first
    order's modes); also Psi2 rebuilt from S (curl-free, all modes)
    against the file's Psi2."""
    G = psi1.shape[1]
    dv = div_k(psi2, box)
    kk, _ = shells(G, box)
    sphere = kk <= np.pi * G / box * (1 + 1e-12)
    res = {}
    for dealias in ("orszag", "none"):
        S = second_order_source(psi1, box, dealias)
        for part, m in (("", np.ones_like(sphere)), ("_sphere", sphere)):
            c = np.vdot(S[m], dv[m]).real / np.vdot(S[m], S[m]).real
            r = np.linalg.norm(dv[m] - c * S[m]) / np.linalg.norm(dv[m])
            res[dealias + part] = dict(c=float(c), residual=float(r))
        if dealias == "orszag":
            c = res["orszag"]["c"]
            K = kgrid(G, box)
            k2 = K[0] ** 2 + K[1] ** 2 + K[2] ** 2
            k2[k2 == 0] = 1.0  # k = 0 and the Nyquist corners (zeroed K)
            rec = np.stack([np.fft.ifftn(-1j * K[i] * c * S / k2).real for i in range(3)])
            res["psi2_rebuilt_rel_rms"] = float(np.linalg.norm(rec - psi2) / np.linalg.norm(psi2))
    res["rms_psi2_over_psi1"] = float(np.linalg.norm(psi2) / np.linalg.norm(psi1))
    return res


# ---------------------------------------------------------------- theory


def growth(a, om, ol):
    E = lambda x: math.sqrt(om / x ** 3 + (1 - om - ol) / x ** 2 + ol)
    I = lambda x: integrate.quad(lambda y: 1.0 / (y * E(y)) ** 3, 0, x, epsabs=0, epsrel=1e-12)[0]
    D = lambda x: 2.5 * om * E(x) * I(x)
    dlnD = (math.log(D(a * (1 + 1e-5))) - math.log(D(a * (1 - 1e-5)))) / (2e-5)
    return D(a) / D(1.0), dlnD, E(a)


def theory_bins(table, D, G, box, nmax):
    kk, n = shells(G, box)
    lk, lp = np.log(table[:, 0]), np.log(table[:, 1])
    P = np.exp(np.interp(np.log(np.maximum(kk, 1e-30)), lk, lp)) * D * D
    P[kk > np.pi * G / box] = 0.0  # both codes cut modes at the Nyquist sphere
    return np.array([P[n == b].mean() for b in range(1, nmax + 1)])


# ---------------------------------------------------------------- main


def pairs_of(names):
    """tbrf against every peer; without tbrf, the first two codes."""
    if "tbrf" in names:
        return [("tbrf", x) for x in names if x != "tbrf"]
    return [tuple(names[:2])] if len(names) >= 2 else []


def main():
    args = sys.argv[1:]
    if args and args[0] == "--replot":  # figures again from a --json file
        with open(args[1]) as f:
            figures(json.load(f), args[2])
        return
    jout = figp = None
    while args and args[0].startswith("--"):
        if args[0] == "--json":
            jout = args[1]
        elif args[0] == "--fig":
            figp = args[1]
        args = args[2:]
    table = np.loadtxt(args[0])
    om = float(args[1])
    runs = {}
    for spec in args[2:]:
        code, seed, order, path = spec.split(":", 3)
        d = read_gadget1(path) if code == "2lptic" else read_hdf5(path, code)
        runs[(code, int(seed), int(order))] = d
    any_run = next(iter(runs.values()))
    G, box, a = any_run["G"], any_run["box"], any_run["a"]
    D1, f1, E = growth(a, om, 1 - om)
    H = 100.0 * E
    nmax = G // 2 - 1
    th = theory_bins(table, D1, G, box, nmax)
    out = dict(G=G, box=box, a=a, D1=D1, f1=f1, E=E, runs={}, linear={}, second={})
    codes = sorted({c for c, _, _ in runs})
    print(f"# G = {G}, box = {box} Mpc/h, a = {a}, D1 = {D1:.8f}, f1 = {f1:.8f}, "
          f"sqrt(a) H f1 = {math.sqrt(a) * H * f1:.6f} km/s per Mpc/h")

    # 1, 2: linear spectra per code, over seeds, from the first-order files
    lin = {}
    for code in codes:
        seeds = sorted(s for c, s, o in runs if c == code and o == 1)
        if not seeds:
            continue
        P1 = np.array([binned(pk_of(div_k(runs[(code, s, 1)]["psi"], box), G, box), G, box, nmax)[:, 1]
                       for s in seeds])
        Pc = np.array([cic_pk(runs[(code, s, 1)]["psi"], box, G // 4)[:, 1] for s in seeds])
        lin[code] = dict(seeds=seeds, P=P1, Pcic=Pc)
    kb = binned(np.zeros((G, G, G)), G, box, nmax)
    kmean, M = kb[:, 0], kb[:, 2]
    pairs = pairs_of(list(lin))
    print("\n## linear: P(k) of -div Psi1 (seed mean) / D1^2 P_lin (shell mean); "
          "z = (P - P_th) / (P_th sqrt(2/(M R))); z(a-b) = (P_a - P_b) / (P_th sqrt(2/M (1/R_a + 1/R_b)))")
    hdr = f"{'k h/Mpc':>8} {'M':>6}" + "".join(f" {c + ' ratio':>16} {'z':>6}" for c in lin)
    hdr += "".join(f" {'z(' + x + '-' + y + ')':>20}" for x, y in pairs)
    print(hdr)
    chi = {c: 0.0 for c in lin}
    chi_pair = {f"{x}-{y}": 0.0 for x, y in pairs}
    for b in range(nmax):
        line = f"{kmean[b]:8.4f} {int(M[b]):6d}"
        for c, L in lin.items():
            R = len(L["seeds"])
            m = L["P"][:, b].mean()
            z = (m - th[b]) / (th[b] * math.sqrt(2.0 / (M[b] * R)))
            chi[c] += z * z
            line += f" {m / th[b]:16.5f} {z:6.2f}"
        for x, y in pairs:
            ra, rb = len(lin[x]["seeds"]), len(lin[y]["seeds"])
            zp = (lin[x]["P"][:, b].mean() - lin[y]["P"][:, b].mean()) / (
                th[b] * math.sqrt(2.0 / M[b] * (1.0 / ra + 1.0 / rb)))
            chi_pair[f"{x}-{y}"] += zp * zp
            line += f" {zp:20.2f}"
        print(line)
    for c in lin:
        print(f"# {c}: chi^2 = {chi[c]:.1f} over {nmax} shells ({len(lin[c]['seeds'])} seeds)")
    for k_, v in chi_pair.items():
        print(f"# {k_}: chi^2 = {v:.1f} over {nmax} shells")
    out["linear"] = dict(k=kmean.tolist(), M=M.tolist(), theory=th.tolist(),
                         chi2={c: chi[c] for c in lin}, chi2_pairs=chi_pair, shells=nmax,
                         codes={c: dict(seeds=L["seeds"], P=L["P"].tolist(), Pcic=L["Pcic"].tolist())
                                for c, L in lin.items()})
    ncic = G // 4
    print(f"\n## particles: CIC P(k) ((2G)^3 mesh, deconvolved) / P of -div Psi1, same realisation, "
          f"shells 1..{ncic}")
    for c, L in lin.items():
        Pd = L["P"][:, :ncic]
        r = L["Pcic"] / Pd
        print(f"# {c}: ratio min {r.min():.5f} max {r.max():.5f} mean {r.mean():.5f}")

    # 3, 4, 5: second order
    sec = {}
    for code in codes:
        seeds = sorted(s for c, s, o in runs if c == code and o == 2 and (c, s, 1) in runs)
        if not seeds:
            continue
        rows, P2 = [], []
        for s in seeds:
            r1, r2 = runs[(code, s, 1)], runs[(code, s, 2)]
            psi1, psi2 = r1["psi"], r2["psi"] - r1["psi"]
            chk = source_check(psi1, psi2, box)
            a1 = np.vdot(r1["u"], psi1) / np.vdot(psi1, psi1)
            du = r2["u"] - r1["u"]
            b2 = np.vdot(du, psi2) / np.vdot(psi2, psi2)
            chk["u_factor1"] = float(a1)
            chk["u_factor1_over_expected"] = float(a1 / (math.sqrt(a) * H * f1))
            chk["u_factor2_over_2x_factor1"] = float(b2 / (2 * a1))
            chk["u_rel_residual"] = float(np.linalg.norm(r2["u"] - a1 * psi1 - b2 * psi2) / np.linalg.norm(r2["u"]))
            # tbrf records D2 (growth_factor2); monofonIC uses -3/7 D1^2, which the fit finds
            d2 = r2["tbrf"].get("growth_factor2") or chk["orszag"]["c"] * D1 * D1
            chk["D2_used"] = float(d2)
            rows.append(chk)
            P2.append(binned(pk_of(div_k(psi2, box) / d2, G, box), G, box, nmax)[:, 1])
        sec[code] = dict(seeds=seeds, checks=rows, P2=np.array(P2))
    if sec:
        print("\n## second order, realisation by realisation: div Psi2 = c S(Psi1); residual = "
              "|div Psi2 - c S| / |div Psi2| over the cube's modes [over the Nyquist sphere]")
        print(f"{'code':>10} {'seed':>4} {'c orszag':>12} {'resid':>9} {'[sphere]':>9} {'c none':>12}"
              f" {'resid':>9} {'[sphere]':>9} {'Psi2 rebuilt':>12} {'|Psi2|/|Psi1|':>13} {'u1/exp':>10}"
              f" {'f2/2f1':>10} {'u resid':>9}")
        for code, S in sec.items():
            for s, r in zip(S["seeds"], S["checks"]):
                print(f"{code:>10} {s:4d} {r['orszag']['c']:12.8f} {r['orszag']['residual']:9.2e}"
                      f" {r['orszag_sphere']['residual']:9.2e} {r['none']['c']:12.8f}"
                      f" {r['none']['residual']:9.2e} {r['none_sphere']['residual']:9.2e}"
                      f" {r['psi2_rebuilt_rel_rms']:12.2e}"
                      f" {r['rms_psi2_over_psi1']:13.5f} {r['u_factor1_over_expected']:10.6f}"
                      f" {r['u_factor2_over_2x_factor1']:10.6f} {r['u_rel_residual']:9.2e}")
        print("# c is D2/D1^2 (-3/7 = -0.42857143 in Einstein-de Sitter)")
    out["second_pairs"] = []
    for ca, cb in pairs_of(list(sec)):
        A, B = sec[ca]["P2"], sec[cb]["P2"]
        print(f"\n## second order: P(k) of div Psi2 / D2, means over seeds; z with the seeds' "
              f"scatter (sample std / sqrt(R) per code)")
        print(f"{'k h/Mpc':>8} {ca:>12} {cb:>12} {'ratio':>8} {'z':>6}")
        chi2 = 0.0
        zs = []
        for b in range(nmax):
            sa = A[:, b].std(ddof=1) if len(A) > 1 else float("nan")
            sb = B[:, b].std(ddof=1) if len(B) > 1 else float("nan")
            z = (A[:, b].mean() - B[:, b].mean()) / math.sqrt(sa * sa / len(A) + sb * sb / len(B))
            chi2 += z * z
            zs.append(z)
            print(f"{kmean[b]:8.4f} {A[:, b].mean():12.5g} {B[:, b].mean():12.5g}"
                  f" {A[:, b].mean() / B[:, b].mean():8.4f} {z:6.2f}")
        print(f"# {ca}-{cb}: chi^2 = {chi2:.1f} over {nmax} shells")
        out["second_pairs"].append(dict(codes=[ca, cb], z=zs, chi2=chi2))
    out["second"] = {c: dict(seeds=S["seeds"], checks=S["checks"], P2=S["P2"].tolist()) for c, S in sec.items()}

    # 6: realisation against realisation where two codes share phases
    # (monofonIC's NGENIC generator and 2LPTic of one seed): correlation
    # and relative rms difference of Psi1 and of Psi2
    shared = []
    for i, ca in enumerate(codes):
        for cb in codes[i + 1:]:
            if "tbrf" in (ca, cb):
                continue  # tbrf's seeds are its own generator's
            for s in sorted({s for c, s, o in runs if c == ca}):
                if (ca, s, 1) not in runs or (cb, s, 1) not in runs:
                    continue
                A, B = runs[(ca, s, 1)]["psi"], runs[(cb, s, 1)]["psi"]
                row = dict(codes=[ca, cb], seed=s,
                           corr1=float(np.vdot(A, B) / (np.linalg.norm(A) * np.linalg.norm(B))),
                           diff1=float(np.linalg.norm(A - B) / np.linalg.norm(A)))
                if (ca, s, 2) in runs and (cb, s, 2) in runs:
                    A2 = runs[(ca, s, 2)]["psi"] - A
                    B2 = runs[(cb, s, 2)]["psi"] - B
                    row["corr2"] = float(np.vdot(A2, B2) / (np.linalg.norm(A2) * np.linalg.norm(B2)))
                    row["diff2"] = float(np.linalg.norm(A2 - B2) / np.linalg.norm(A2))
                shared.append(row)
    if shared:
        print("\n## the same seed in two codes: correlation and relative rms difference of Psi")
        for r in shared:
            print(f"# {r['codes'][0]} vs {r['codes'][1]} seed {r['seed']}: Psi1 corr {r['corr1']:.6f} "
                  f"diff {r['diff1']:.3e}"
                  + (f"; Psi2 corr {r['corr2']:.6f} diff {r['diff2']:.3e}" if "corr2" in r else ""))
    out["shared"] = shared

    if jout:
        with open(jout, "w") as f:
            json.dump(out, f, indent=1, default=float)
    if figp:
        figures(out, figp)


def figures(out, prefix):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    L = out["linear"]
    k, th, M = np.array(L["k"]), np.array(L["theory"]), np.array(L["M"])
    fig, ax = plt.subplots(1, 3 if out["second"] else 1, figsize=(16 if out["second"] else 6, 4.4))
    ax = np.atleast_1d(ax)
    for i, (c, d) in enumerate(L["codes"].items()):
        P = np.array(d["P"])
        R = len(d["seeds"])
        ax[0].errorbar(k * (1 + 0.01 * i), P.mean(0) / th, yerr=np.sqrt(2 / (M * R)), fmt="o", ms=3,
                       label=f"{c} ({R} seeds)")
    ax[0].axhline(1, color="k", lw=0.8)
    ax[0].set_xscale("log")
    ax[0].set_xlabel("k [h/Mpc]")
    ax[0].set_ylabel("P(k) / (D1² P_lin)")
    ax[0].set_title(f"first order, {out['G']}³, {out['box']:g} Mpc/h")
    ax[0].legend()
    if out["second"]:
        sec = out["second"]
        ref = "monofonic" if "monofonic" in sec else next(iter(sec))
        Pr = np.array(sec[ref]["P2"]).mean(0)
        for i, (c, d) in enumerate(sec.items()):
            P = np.array(d["P2"])
            e = P.std(0, ddof=1) / math.sqrt(len(P)) if len(P) > 1 else None
            ax[1].errorbar(k * (1 + 0.01 * i), P.mean(0), yerr=e, fmt="o", ms=3, label=f"{c} ({len(P)} seeds)")
            ax[2].errorbar(k * (1 + 0.01 * i), P.mean(0) / Pr, yerr=None if e is None else e / Pr, fmt="o",
                           ms=3, label=c)
        ax[1].set_xscale("log")
        ax[1].set_yscale("log")
        ax[1].set_xlabel("k [h/Mpc]")
        ax[1].set_ylabel("P of ∇·Ψ⁽²⁾ / D2  [(Mpc/h)³]")
        ax[1].set_title("second order (2LPT − 1LPT files)")
        ax[1].legend()
        ax[2].axhline(1, color="k", lw=0.8)
        ax[2].set_xscale("log")
        ax[2].set_xlabel("k [h/Mpc]")
        ax[2].set_ylabel(f"second-order P / {ref}'s (seed means)")
        ax[2].set_title("second order, ratio")
        ax[2].legend()
    fig.tight_layout()
    fig.savefig(prefix + "spectra.png", dpi=110)


if __name__ == "__main__":
    main()
