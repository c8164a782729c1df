"""bench_python.py BENCH_PYTHON LIBBENCH_PYTHON_CALL [N] [PAIRS] [THREADS] — the
overhead of the Python package's Field call over the C API
(doc/benchmarks-log.md, "Python package overhead").

One Field (a 3D Gaussian field at N points; bench/bench_python.c says
which) is evaluated PAIRS times by Field.__call__ (timed in Python: the
argument checks, ctypes, the new output array, the lock) and PAIRS times
by bench_python_call() of the module built from bench/bench_python.c on
the Field's own plan (timed in C: tbrf_set_points + tbrf_execute),
alternating call by call so that the load of a shared machine falls on
both alike (THREADS OpenMP threads, default 0: OpenMP's default; with 1 the
calling thread's CPU time is compared too, which the other processes of a
loaded machine barely disturb);
prints the medians, the median of the pairs' ratios and its
quartiles, the peak memory a further call adds, and checks that the
program bench_python, which makes the same field in C from its parameters
alone, computes the same values (the XOR of the values' bits). Run with
the library of the same build: TBRF_LIBRARY=build/c/libtbrf.so.
Then the same alternation at 10 points, 2000 pairs: the fixed cost of
the Python layer per call, nearly free of the field's own time and so of
the machine's load. Asserts nothing."""
import ctypes
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc

import numpy as np

import tbrf


def main():
    exe, module = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 100000
    pairs = int(sys.argv[4]) if len(sys.argv) > 4 else 21
    threads = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    c = ctypes.CDLL(module)
    c.bench_python_call.restype = ctypes.c_double
    c.bench_python_call.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p,
                                    ctypes.c_void_p, ctypes.c_uint64,
                                    ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_int)]
    field = tbrf.Field("gaussian", 3, length=0.1, domain=[(0, 1)] * 3, resolution=0.01, seed=1,
                       threads=threads)

    def alternate(n, pairs):
        xyz = tbrf.rng.uniform(3 * n, "philox", seed=11, stream=7).reshape(n, 3)
        values = field(xyz)  # warm-up: the first call of a realization synthesises the lines
        cvals, st, cpu = np.empty(n), ctypes.c_int(), ctypes.c_double()
        tc, tp, uc, up = [], [], [], []
        for _ in range(pairs):
            tc.append(c.bench_python_call(field._plan, n, xyz.ctypes.data, cvals.ctypes.data,
                                          0, ctypes.byref(cpu), ctypes.byref(st)))
            uc.append(cpu.value)
            assert st.value == 0
            u0, t0 = time.thread_time(), time.perf_counter()
            values = field(xyz)
            tp.append(time.perf_counter() - t0)
            up.append(time.thread_time() - u0)
        return xyz, values, cvals, tc, tp, uc, up

    xyz, values, cvals, tc, tp, uc, up = alternate(n, pairs)
    ratios = sorted(p / q for p, q in zip(tp, tc))
    q = statistics.quantiles(ratios, n=4)
    mc, mp = statistics.median(tc), statistics.median(tp)
    print(f"N = {n}, {pairs} alternated pairs: C median {mc * 1e3:.3f} ms, "
          f"Python median {mp * 1e3:.3f} ms (difference {(mp - mc) * 1e6:.0f} us)")
    print(f"threads {threads} (0: OpenMP's default); Python / C per pair: median {statistics.median(ratios):.4f}, quartiles "
          f"{q[0]:.4f} .. {q[2]:.4f}")
    if threads == 1:
        r = sorted(p / q for p, q in zip(up, uc))
        q = statistics.quantiles(r, n=4)
        print(f"thread CPU time (one thread: the whole call, without the time other processes "
              f"take): C median {statistics.median(uc) * 1e3:.3f} ms, Python "
              f"{statistics.median(up) * 1e3:.3f} ms; Python / C per pair: median "
              f"{statistics.median(r):.4f}, quartiles {q[0]:.4f} .. {q[2]:.4f}")
    out = subprocess.run([exe, str(n), "3"], capture_output=True, text=True,
                         check=True).stdout.split()
    xor = int(np.bitwise_xor.reduce(values.view(np.uint64)))
    print(f"values: the C program's XOR {out[1]}, Python's {xor:016x}: "
          f"{'the same' if int(out[1], 16) == xor else 'DIFFERENT'}; "
          f"C and Python on one plan: {'bitwise equal' if np.array_equal(cvals, values) else 'DIFFERENT'}")
    _, _, _, fc, fp, _, _ = alternate(10, 2000)
    fixed = statistics.median(p - q for p, q in zip(fp, fc))
    print(f"fixed cost of the Python layer (10 points, 2000 pairs): median {fixed * 1e6:.1f} us "
          f"per call = {fixed / mc * 100:.4f} % of the C call at N = {n}")
    tracemalloc.start()
    field(xyz)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"Python-side allocations of a call (tracemalloc, numpy's included): peak {peak} bytes "
          f"for an output array of {n * 8} bytes")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(3):
        field(xyz)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak RSS growth over 3 further calls: {after - before} KiB "
          f"(one output array: {n * 8 // 1024} KiB)")


if __name__ == "__main__":
    main()
