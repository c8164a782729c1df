#!/usr/bin/env python3
"""bench/peers.py — peers of tbrf's point evaluation, timed on this machine.

At N random points in a 128^3 box, with the same number of random modes as
tbrf has lines (L = 1024 by default), so the statistical accuracy (number
of independent plane waves per point) is the same:
  * gstools' randomization method (SRF, RandMeth, mode_no = L), Gaussian
    covariance, unstructured points;
  * FINUFFT type 2: random Fourier coefficients on a uniform mode grid
    evaluated at the points (10^3 = 1000 modes ~ L, and 64^3 modes for
    the resolution a 64^3 FFT grid would carry), eps = 1e-6.
Prints one row per case: seconds (best of `repeats`) and point.modes/s.
Usage: peers.py [threads=2] [repeats=3] [N ...]
Run it from a virtual environment with gstools, finufft and numpy
(bench/run_suite.sh makes one under /tmp)."""
import sys
import time

import numpy as np


def best_time(fn, repeats):
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main():
    threads = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    sizes = [int(a) for a in sys.argv[3:]] or [10**4, 10**5, 10**6]
    L = 1024
    rng = np.random.default_rng(1)
    print(f"# peers: {threads} threads, best of {repeats}, L = {L} modes")
    print(f"{'peer':<34} {'N':>10} {'modes':>8} {'seconds':>10} {'point.modes/s':>14}")
    try:
        import gstools as gs
        gs.config.NUM_THREADS = threads
        model = gs.Gaussian(dim=3, var=1.0, len_scale=8.0)
        srf = gs.SRF(model, generator="RandMeth", mode_no=L, seed=1)
        have_gs = True
    except Exception as e:  # pragma: no cover - a peer that does not install
        print(f"# gstools unavailable: {e}")
        have_gs = False
    try:
        import finufft
        have_nufft = True
    except Exception as e:  # pragma: no cover
        print(f"# finufft unavailable: {e}")
        have_nufft = False
    for n in sizes:
        pts = rng.uniform(0.0, 127.0, size=(3, n))
        if have_gs and n <= 10**5:  # ~1.6e7 point.modes/s: 10^6 points take minutes
            t = best_time(lambda: srf((pts[0], pts[1], pts[2]), mesh_type="unstructured"), repeats)
            print(f"{'gstools RandMeth':<34} {n:>10} {L:>8} {t:>10.3f} {n * L / t:>14.3e}", flush=True)
        if have_nufft:
            # points mapped to [-pi, pi): the box is one period
            xs = [np.ascontiguousarray(p / 128.0 * 2 * np.pi - np.pi) for p in pts]
            for m in (10, 64):
                c = (rng.standard_normal((m, m, m)) + 1j * rng.standard_normal((m, m, m)))
                c = c.astype(np.complex128)
                t = best_time(lambda: finufft.nufft3d2(xs[0], xs[1], xs[2], c, eps=1e-6,
                                                       nthreads=threads), repeats)
                print(f"{'finufft type 2 (' + str(m) + '^3 modes)':<34} {n:>10} {m**3:>8} {t:>10.3f} "
                      f"{n * m**3 / t:>14.3e}", flush=True)


if __name__ == "__main__":
    main()
