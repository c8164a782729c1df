#!/usr/bin/env python3
"""bench/nufft_peer.py — tbrf's periodic fields at points (NUFFT) against
FINUFFT type 2, alternated in one run.

The same npts random points in the unit box (FINUFFT's [-pi, pi)^3), n^3
modes, the same requested accuracy eps, one thread on both sides
(OMP_NUM_THREADS=1, FINUFFT nthreads=1), float and double, a scalar field
(FINUFFT one transform) and a 3-component one (FINUFFT's many-vector
interface, ntransf = 3). FINUFFT's Fourier coefficients are drawn outside
its timing; tbrf's side (bench_nufft_peer, a separate process driven over a
pipe) times
  interp: set_points + execute of a realization already made (its
          oversampled grid cached: the interpolation alone, as after moving
          the points), and
  full:   set_points + execute of a new realization (mode synthesis, the
          oversampled FFT and the interpolation: FINUFFT's work plus drawing
          the modes).
Each pair is one FINUFFT call then one tbrf call; the ratios FINUFFT / tbrf
(> 1: tbrf is faster) are CPU seconds of each process (time.process_time
around FINUFFT's call, CLOCK_PROCESS_CPUTIME_ID around tbrf's), which load
from other processes disturbs least. Prints, per case, the median ratio
[min-max] over the pairs, and lines for bench/run_suite.sh's Peers table,
"PEER nufft_{interp,full}_<case> <tbrf / FINUFFT median> <=1 <isa> <note>"
(there the ratio is tbrf's time over the peer's: below 1 tbrf is faster).
Usage: nufft_peer.py BENCH_NUFFT_PEER [pairs=5] [npts=1000000] [cases] [isa]
  cases: comma-separated n:eps:float|double:ncomp (default, or "all": 64
  and 128 x 1e-6 float and 1e-6, 1e-9, 1e-12 double x 1 and 3 components);
  isa: the CPU kernels tbrf runs (for the PEER lines; default "-")."""
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np


def default_cases():
    cases = []
    for n in (64, 128):
        for eps, prec in ((1e-6, "float"), (1e-6, "double"), (1e-9, "double"), (1e-12, "double")):
            for nc in (1, 3):
                cases.append((n, eps, prec, nc))
    return cases


def parse_cases(text):
    out = []
    for c in text.split(","):
        n, eps, prec, nc = c.split(":")
        out.append((int(n), float(eps), prec, int(nc)))
    return out


def finufft_call(finufft, xs, coef, eps, nc):
    def run():
        t0 = time.process_time()
        finufft.nufft3d2(xs[0], xs[1], xs[2], coef, eps=eps, nthreads=1)
        return time.process_time() - t0
    return run


def spread(v):
    return f"{statistics.median(v):.2f} [{min(v):.2f}-{max(v):.2f}]"


def main():
    exe = sys.argv[1]
    pairs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    npts = int(float(sys.argv[3])) if len(sys.argv) > 3 else 10**6
    cases = parse_cases(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] != "all" else default_cases()
    isa = sys.argv[5] if len(sys.argv) > 5 else "-"
    import finufft
    rng = np.random.default_rng(1)
    pts = rng.random((npts, 3))
    with tempfile.NamedTemporaryFile(suffix=".f64", delete=False) as f:
        f.write(np.ascontiguousarray(pts, dtype=np.float64).tobytes())
        path = f.name
    env = dict(os.environ, OMP_NUM_THREADS="1")
    print(f"# tbrf NUFFT vs FINUFFT {finufft.__version__} type 2: {npts} points, 1 thread, {pairs} "
          f"alternated pairs, CPU seconds; ratio = FINUFFT / tbrf (> 1: tbrf faster)")
    print(f"{'modes':>6} {'eps':>6} {'prec':>6} {'comp':>4} {'FINUFFT s':>10} {'tbrf interp s':>13} "
          f"{'tbrf full s':>11} {'interp ratio':>20} {'full ratio':>20}")
    try:
        for n, eps, prec, nc in cases:
            fdt, cdt = (np.float32, np.complex64) if prec == "float" else (np.float64, np.complex128)
            xs = [np.ascontiguousarray(2 * np.pi * pts[:, d] - np.pi, dtype=fdt) for d in range(3)]
            shape = (n, n, n) if nc == 1 else (nc, n, n, n)
            coef = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(cdt)
            fin = finufft_call(finufft, xs, coef, eps, nc)
            proc = subprocess.Popen([exe, str(n), repr(eps), prec, str(nc), path, str(npts)],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
            if proc.stdout.readline().strip() != "ready":
                raise RuntimeError(f"{exe} failed for {n} {eps} {prec} {nc}")

            def tb(cmd):
                proc.stdin.write(cmd + "\n")
                proc.stdin.flush()
                return float(proc.stdout.readline())
            fin()  # warm-up: FFTW plans, pages
            tf, ti, tu = [], [], []
            for k in range(pairs):
                tf.append(fin())
                ti.append(tb("interp"))
                tu.append(tb(f"full {k + 2}"))
            proc.stdin.write("quit\n")
            proc.stdin.flush()
            proc.wait()
            ri = [a / b for a, b in zip(tf, ti)]
            ru = [a / b for a, b in zip(tf, tu)]
            print(f"{n:>5}^3 {eps:>6.0e} {prec:>6} {nc:>4} {statistics.median(tf):>10.3f} "
                  f"{statistics.median(ti):>13.3f} {statistics.median(tu):>11.3f} {spread(ri):>20} "
                  f"{spread(ru):>20}", flush=True)
            tag = f"{n}cube_{eps:.0e}_{prec}_{nc}c"
            for kind, r, what in (("interp", ri, "interpolation (grid cached)"),
                                  ("full", ru, "synthesis + fine grid + interpolation")):
                inv = [1 / x for x in r]
                print(f"PEER nufft_{kind}_{tag} {statistics.median(inv):.3f} <=1 {isa} tbrf {what} vs "
                      f"FINUFFT type 2, {npts} points, 1 thread, CPU time, [{min(inv):.2f}-{max(inv):.2f}] "
                      f"of {pairs} pairs", flush=True)
    finally:
        os.unlink(path)


if __name__ == "__main__":
    main()
