/* bench_python.c — the C side of bench/bench_python.py: one field call at
 * N points through the public C API (tbrf_set_points + tbrf_execute), the
 * call the Python package's Field.__call__ makes through ctypes.
 *
 * Built twice: as the program bench_python, which makes the field of the
 * Python side from its parameters alone (a 3D Gaussian field, length 0.1,
 * domain [0,1]^3, resolution 0.01, seed 1, 1024 lines, at the Philox U01
 * words 0 .. 3N-1 of stream 7 with seed 11 as points) and prints the
 * median time of REPS calls after a warm-up call (the first call of a
 * realization synthesises the lines) and the XOR of the values' bits, so
 * the Python side can show it computes the same values; and as the module
 * bench_python_call, whose bench_python_call() the Python side calls on
 * its own Field's plan, alternating call by call with Field.__call__ so
 * that the load of a shared machine falls on both alike. Asserts nothing.
 *
 *   bench_python N REPS */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tbrf.h"

static double clock_s(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double now(void)
{
    return clock_s(CLOCK_MONOTONIC);
}

/* One C call timed in C: set the points, execute realization r into
 * values. Returns the wall-clock seconds, *cpu the calling thread's CPU
 * seconds (all of the call's work with one OpenMP thread, and free of the
 * time other processes take the core) and *status the library's status. */
double bench_python_call(tbrf_plan *plan, int64_t n, const double *xyz, double *values,
                         uint64_t r, double *cpu, int *status);
double bench_python_call(tbrf_plan *plan, int64_t n, const double *xyz, double *values,
                         uint64_t r, double *cpu, int *status)
{
    double c0 = clock_s(CLOCK_THREAD_CPUTIME_ID), t0 = now();
    int st = tbrf_set_points(plan, n, xyz);
    if (st == TBRF_OK)
        st = tbrf_execute(plan, r, values);
    double t = now() - t0;
    *cpu = clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
    *status = st;
    return t;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int64_t n = argc > 1 ? atoll(argv[1]) : 100000;
    int reps = argc > 2 ? atoi(argv[2]) : 10;
    if (n < 1 || reps < 1 || reps > 1000) {
        fprintf(stderr, "usage: bench_python N REPS\n");
        return 2;
    }
    double *xyz = malloc((size_t)n * 3 * sizeof *xyz);
    double *val = malloc((size_t)n * sizeof *val);
    double *t = malloc((size_t)reps * sizeof *t);
    tbrf_model *model = NULL;
    tbrf_plan *plan = NULL;
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    int st = xyz && val && t ? TBRF_OK : TBRF_ERR_NO_MEMORY;
    if (st == TBRF_OK)
        st = tbrf_rng_double(TBRF_GEN_PHILOX, 11, 7, 0, 3 * n, TBRF_DIST_U01, xyz);
    if (st == TBRF_OK)
        st = tbrf_model_gaussian(0.1, &model);
    if (st == TBRF_OK)
        st = tbrf_make_plan(model, 3, lo, hi, 0.01, 1, NULL, &plan);
    for (int r = -1; st == TBRF_OK && r < reps; r++) {
        double cpu, dt = bench_python_call(plan, n, xyz, val, 0, &cpu, &st);
        if (r >= 0)
            t[r] = dt;
    }
    if (st != TBRF_OK) {
        fprintf(stderr, "bench_python: %s\n", plan ? tbrf_plan_message(plan) : tbrf_strerror(st));
        return 1;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp);
    uint64_t bits = 0;
    for (int64_t i = 0; i < n; i++) {
        uint64_t b;
        memcpy(&b, &val[i], sizeof b);
        bits ^= b;
    }
    printf("%.9f %016llx\n", t[reps / 2], (unsigned long long)bits);
    tbrf_destroy(plan);
    tbrf_model_destroy(model);
    free(xyz);
    free(val);
    free(t);
    return 0;
}
