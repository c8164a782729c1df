#!/usr/bin/env python3
"""bench/peers.py — peers of tbrf's point evaluation, timed on this machine
against tbrf in the same run.

At N random points in a 128^3 box, with the same number of random modes as
tbrf has lines (L = 1024 by default), so the statistical accuracy (number
of independent plane waves per point) is the same:
  * tbrf: a Field (Python package, ctypes) of the Gaussian covariance,
    L lines, resolution 1 over the box, at the points (the lines made by a
    first call, outside the timing: the projection, as in bench_suite);
  * gstools' randomization method (SRF, RandMeth, mode_no = L), Gaussian
    covariance, unstructured points;
  * FINUFFT type 2: random Fourier coefficients on a uniform mode grid
    evaluated at the points (10^3 = 1000 modes ~ L, and 64^3 modes for
    the resolution a 64^3 FFT grid would carry), eps = 1e-6.
In each repeat tbrf and every peer run one after the other (alternated),
so that all see the same load; with threads = 1 the times are the
process's CPU seconds, which waiting for a core does not inflate. Prints one row per case: seconds (best of
`repeats`) and point.modes/s, and for each peer a line
  PEER <name> <ratio> <goal> <isa> <note>
for bench/run_suite.sh's "Peers" table: ratio = tbrf's time / the peer's
(median over the repeats of each repeat's own ratio; below 1 tbrf is
faster), isa the CPU kernels tbrf ran with (given by the caller).
Usage: peers.py [threads=2] [repeats=3] [isa=-] [N ...]
Run it from a virtual environment with gstools, finufft and numpy
(bench/run_suite.sh makes one under /tmp), with tbrf's Python package on
PYTHONPATH and TBRF_LIBRARY naming the libtbrf.so to time; without them
the peers are timed alone."""
import statistics
import sys
import time

import numpy as np


# With one thread, the process's CPU time: what waiting for a core on a
# shared machine does not inflate; with more, wall-clock time.
clock = time.perf_counter


def timed(fn):
    t0 = clock()
    fn()
    return clock() - t0


def peer_line(name, ratios, goal, isa, note):
    r = sorted(ratios)
    print(f"PEER {name} {statistics.median(r):.3g} {goal} {isa} "
          f"{note}, median [{r[0]:.3g}-{r[-1]:.3g}] of {len(r)}", flush=True)


def main():
    threads = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    isa = sys.argv[3] if len(sys.argv) > 3 else "-"
    sizes = [int(a) for a in sys.argv[4:]] or [10**4, 10**5, 10**6]
    global clock
    clock = time.process_time if threads == 1 else time.perf_counter
    L = 1024
    rng = np.random.default_rng(1)
    print(f"# peers: {threads} threads, best of {repeats}, L = {L} modes, "
          f"{'CPU' if threads == 1 else 'wall-clock'} seconds")
    print(f"{'peer':<34} {'N':>10} {'modes':>8} {'seconds':>10} {'point.modes/s':>14}")
    try:
        import tbrf
        field = tbrf.Field("gaussian", 3, length=8.0, domain=[(0.0, 127.0)] * 3, resolution=1.0,
                           lines=L, threads=threads, seed=1)
    except Exception as e:  # no package or library: the peers alone
        print(f"# tbrf's Python package unavailable ({e}): peers only, no ratios")
        field = None
    try:
        import gstools as gs
        gs.config.NUM_THREADS = threads
        model = gs.Gaussian(dim=3, var=1.0, len_scale=8.0)
        srf = gs.SRF(model, generator="RandMeth", mode_no=L, seed=1)
    except Exception as e:  # pragma: no cover - a peer that does not install
        print(f"# gstools unavailable: {e}")
        srf = None
    try:
        import finufft
    except Exception as e:  # pragma: no cover
        print(f"# finufft unavailable: {e}")
        finufft = None
    for n in sizes:
        pts = rng.uniform(0.0, 127.0, size=(3, n))
        xyz = np.ascontiguousarray(pts.T)
        cases = []  # (name, modes, callable)
        if field is not None:
            field(xyz)  # the lines, outside the timing
            cases.append(("tbrf turning bands", L, lambda: field(xyz)))
        if srf is not None and n <= 10**5:  # ~1.6e7 point.modes/s: 10^6 points take minutes
            cases.append(("gstools RandMeth", L,
                          lambda: srf((pts[0], pts[1], pts[2]), mesh_type="unstructured")))
        if finufft is not None:
            # points mapped to [-pi, pi): the box is one period
            xs = [np.ascontiguousarray(p / 128.0 * 2 * np.pi - np.pi) for p in pts]
            for m in (10, 64):
                c = (rng.standard_normal((m, m, m)) + 1j * rng.standard_normal((m, m, m)))
                c = c.astype(np.complex128)
                cases.append((f"finufft type 2 ({m}^3 modes)", m**3,
                              lambda c=c: finufft.nufft3d2(xs[0], xs[1], xs[2], c, eps=1e-6,
                                                           nthreads=threads)))
        times = {name: [] for name, _, _ in cases}
        for _ in range(repeats):
            for name, _, fn in cases:
                times[name].append(timed(fn))
        for name, modes, _ in cases:
            t = min(times[name])
            print(f"{name:<34} {n:>10} {modes:>8} {t:>10.3f} {n * modes / t:>14.3e}", flush=True)
        if field is None:
            continue
        tb = times["tbrf turning bands"]
        where = (f"N={n:.0e} random points, L={L} modes, {threads} threads, "
                 f"{'CPU' if threads == 1 else 'wall'} time")
        if "gstools RandMeth" in times:
            peer_line(f"gstools_randmeth_N{n:.0e}", [a / b for a, b in zip(tb, times["gstools RandMeth"])],
                      "<=1", isa, where)
        if "finufft type 2 (10^3 modes)" in times:
            peer_line(f"finufft_1000modes_N{n:.0e}",
                      [a / b for a, b in zip(tb, times["finufft type 2 (10^3 modes)"])], "-", isa,
                      where + ", FINUFFT 10^3 modes at 1e-6 (equal mode count)")


if __name__ == "__main__":
    main()
