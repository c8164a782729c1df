#!/usr/bin/env python3
"""bench/cosmo_peers_lpt3.py — tbrf's third-order displacement against
monofonIC's, from the files bench/cosmo_peers_lpt3.sh writes (orders 1,
2, 3 of each seed and code; Psi3 = Psi(order 3) - Psi(order 2)).

 1. Realisation by realisation: Psi3 fitted as ca T3a + cb T3b + cc T3c,
    the three terms computed here from the file's own Psi1
    (bench/lpt3_reference.py) with each product scheme ("tbrf",
    "monofonic", "exact"); the fitted coefficients against monofonIC's
    -1/3, 10/21, -1/7 and the relative rms residual. A code that forms
    the equations of the reference with a scheme's products sits at
    round-off for that scheme.
 2. Statistics over seeds (the codes' phases differ): the spectra of the
    longitudinal (div Psi3) and transverse (curl Psi3) parts per shell,
    each code's seed mean with its error from the seeds' own scatter
    (Psi3 is cubic in a Gaussian field: no Gaussian formula), and
    z = (P_tbrf - P_mono) / sqrt(e_tbrf^2 + e_mono^2) per shell, chi2
    over the shells; and, free of cosmic variance, each file's spectra
    over those of the "exact" reference Psi3 of its own Psi1 (the product
    scheme's effect per shell), seed mean and scatter.
 3. Velocities: u - u(order 2) = beta Psi3 fitted, beta / alpha against 3
    (alpha the first-order factor u1 / Psi1).

Usage: cosmo_peers_lpt3.py [--json OUT] [--fig PNG] LIST...  (LIST as cosmo_peers.py's)
       cosmo_peers_lpt3.py --replot JSON PNG"""
import json
import sys

import numpy as np

sys.dont_write_bytecode = True
from cosmo_peers import binned, kgrid, read_hdf5  # noqa: E402 (beside this script)
import lpt3_reference as R  # noqa: E402


def spectra(psi, box, nmax):
    G = psi.shape[1]
    K = kgrid(G, box)
    F = [np.fft.fftn(psi[c]) for c in range(3)]
    div = 1j * (K[0] * F[0] + K[1] * F[1] + K[2] * F[2])
    curl2 = sum(np.abs(1j * (K[(c + 1) % 3] * F[(c + 2) % 3] - K[(c + 2) % 3] * F[(c + 1) % 3])) ** 2
                for c in range(3))
    norm = box ** 3 / G ** 6
    return (binned(np.abs(div) ** 2 * norm, G, box, nmax)[:, 1],
            binned(curl2 * norm, G, box, nmax)[:, 1])


def figure(out, png):
    """The spectra of both codes (seed means, errors of the mean) and each
    code's spectra over the exact reference's."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    for part, mk in (("longitudinal |k.Psi3|^2", "o"), ("transverse |k x Psi3|^2", "s")):
        d = out["spectra"][part]
        k = np.array(d["k"])
        for code, c, sh in (("tbrf", "C0", 0.99), ("mono", "C1", 1.01)):
            ax[0].errorbar(k * sh, d[code], yerr=d["e_" + code], fmt=mk, ms=3, color=c,
                           label="%s, %s" % ("tbrf" if code == "tbrf" else "monofonIC",
                                             part.split()[0]))
    ax[0].set_xscale("log")
    ax[0].set_yscale("log")
    ax[0].set_xlabel("k [h/Mpc]")
    ax[0].set_ylabel("P [(Mpc/h)^3] of the third order's parts")
    ax[0].legend(fontsize=7)
    k = np.array(out["spectra"]["longitudinal |k.Psi3|^2"]["k"])
    for code, c, name in (("tbrf", "C0", "tbrf"), ("monofonic", "C1", "monofonIC")):
        ax[1].plot(k, out["over_exact"][code]["long"], "o-", ms=3, color=c, label=name + ", longitudinal")
        ax[1].plot(k, out["over_exact"][code]["trans"], "s--", ms=3, color=c, label=name + ", transverse")
    ax[1].set_xlabel("k [h/Mpc]")
    ax[1].set_ylabel("P(file's Psi3) / P(exact Psi3 of its Psi1)")
    ax[1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def main():
    args = sys.argv[1:]
    jout = fig = None
    if args and args[0] == "--replot":
        with open(args[1]) as f:
            figure(json.load(f), args[2])
        return
    while args and args[0] in ("--json", "--fig"):
        if args[0] == "--json":
            jout = args[1]
        else:
            fig = args[1]
        args = args[2:]
    runs = {}
    for spec in args:
        code, seed, order, path = spec.split(":", 3)
        runs[(code, int(seed), int(order))] = read_hdf5(path, code)
    any_run = next(iter(runs.values()))
    G, box = any_run["G"], any_run["box"]
    nmax = G // 2 - 1
    codes = sorted({c for c, _, _ in runs})
    out = dict(G=G, box=box, fits={}, spectra={}, velocity={})
    print("# G = %d, box = %g Mpc/h, a = %g" % (G, box, any_run["a"]))
    print("\n## 1. Psi3 = ca T3a + cb T3b + cc T3c fitted per realisation (expected "
          "%.8f %.8f %.8f); residual = relative rms" % R.COEFFS)
    print("%-10s %4s %-10s %12s %12s %12s %10s" % ("code", "seed", "scheme", "ca", "cb", "cc",
                                                  "residual"))
    sp = {}
    for code in codes:
        seeds = sorted(s for c, s, o in runs if c == code and o == 3)
        L, T, RL, RT = [], [], [], []
        for s in seeds:
            p1 = runs[(code, s, 1)]["psi"]
            p2 = runs[(code, s, 2)]["psi"]
            r3 = runs[(code, s, 3)]
            psi3 = r3["psi"] - p2
            for scheme in ("tbrf", "monofonic", "exact"):
                t = R.terms(p1, box, scheme)
                c, r = R.fit(psi3, t)
                if scheme == "exact":
                    el, et = spectra(R.COEFFS[0] * t[0] + R.COEFFS[1] * t[1] + R.COEFFS[2] * t[2],
                                     box, nmax)
                out["fits"]["%s:%d:%s" % (code, s, scheme)] = dict(c=c.tolist(), residual=r)
                print("%-10s %4d %-10s %12.8f %12.8f %12.8f %10.3e" % (code, s, scheme, *c, r))
            # velocities: u3 - u2 = beta Psi3, u1 = alpha Psi1
            u1 = runs[(code, s, 1)]["u"]
            du = r3["u"] - runs[(code, s, 2)]["u"]
            alpha = np.vdot(p1, u1) / np.vdot(p1, p1)
            beta = np.vdot(psi3, du) / np.vdot(psi3, psi3)
            res = np.linalg.norm(du - beta * psi3) / np.linalg.norm(du)
            out["velocity"]["%s:%d" % (code, s)] = dict(ratio=float(beta / alpha), residual=float(res))
            pl, pt = spectra(psi3, box, nmax)
            L.append(pl)
            T.append(pt)
            RL.append(pl / el)
            RT.append(pt / et)
        sp[code] = (np.array(L), np.array(T), np.array(RL), np.array(RT))
    print("\n## 3. velocities: (u3 - u2) = beta Psi3, beta / alpha (expected 3), residual")
    for k, v in out["velocity"].items():
        print("%-14s %.8f %.2e" % (k, v["ratio"], v["residual"]))
    kb = binned(np.zeros((G, G, G)), G, box, nmax)
    if "tbrf" in sp and "monofonic" in sp:
        print("\n## 2. spectra of Psi3 per shell: seed means, ratio tbrf/monofonIC, z of the "
              "difference (errors from the seeds' scatter)")
        for part, idx in (("longitudinal |k.Psi3|^2", 0), ("transverse |k x Psi3|^2", 1)):
            a, b = sp["tbrf"][idx], sp["monofonic"][idx]
            ma, mb = a.mean(0), b.mean(0)
            ea, eb = a.std(0, ddof=1) / np.sqrt(len(a)), b.std(0, ddof=1) / np.sqrt(len(b))
            z = (ma - mb) / np.sqrt(ea ** 2 + eb ** 2)
            print("# %s: chi2 = %.1f for %d shells, worst |z| %.2f" % (part, (z ** 2).sum(), len(z),
                                                                        np.abs(z).max()))
            print("%8s %6s %12s %12s %8s %6s" % ("k h/Mpc", "M", "tbrf", "monofonIC", "ratio", "z"))
            for i in range(len(z)):
                print("%8.4f %6d %12.4e %12.4e %8.4f %6.2f" % (kb[i, 0], kb[i, 2], ma[i], mb[i],
                                                               ma[i] / mb[i], z[i]))
            out["spectra"][part] = dict(k=kb[:, 0].tolist(), tbrf=ma.tolist(), mono=mb.tolist(),
                                        e_tbrf=ea.tolist(), e_mono=eb.tolist(), z=z.tolist(),
                                        chi2=float((z ** 2).sum()))
    print("\n## 2b. each file's Psi3 spectra over the exact reference's of its own Psi1 "
          "(seed mean, error of the mean)")
    print("%8s" % "k h/Mpc" + "".join(" %20s %20s" % (c + " long", c + " trans") for c in sp))
    for i in range(nmax):
        row = "%8.4f" % kb[i, 0]
        for c in sp:
            for idx in (2, 3):
                v = sp[c][idx][:, i]
                row += "   %9.6f+-%8.6f" % (v.mean(), v.std(ddof=1) / np.sqrt(len(v)) if len(v) > 1 else 0)
        print(row)
    out["over_exact"] = {c: dict(long=sp[c][2].mean(0).tolist(), trans=sp[c][3].mean(0).tolist())
                         for c in sp}
    if jout:
        with open(jout, "w") as f:
            json.dump(out, f, indent=1)
    if fig and out["spectra"]:
        figure(out, fig)


main()
