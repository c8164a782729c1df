/* bench_periodic.c — a periodic field at M random points (NUFFT) against
 * turning bands at the same points, per accuracy, scalar and solenoidal
 * vector: seconds for the first execute of a realization (synthesis +
 * evaluation) and for a second execute at moved points (evaluation only).
 * Wall and process CPU seconds (the CPU figures are the comparable ones
 * on a shared machine with one thread).
 * Usage: bench_periodic [M [n [threads]]] (defaults 1e5 points, 64^3 box
 * modes, OpenMP's default threads). Prints figures; asserts nothing. */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tbrf.h"

/* Process CPU seconds: with one thread, the figure a loaded, shared
 * machine disturbs least (wall seconds include the time other processes
 * hold the cores). */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double cpu_first, cpu_again;

static double run(tbrf_plan *p, int64_t m, double *xyz, void *v, double *again)
{
    double t0 = omp_get_wtime(), c0 = cpu_now();
    if (tbrf_set_points(p, m, xyz) || tbrf_execute(p, 0, v)) {
        fprintf(stderr, "%s\n", tbrf_plan_message(p));
        exit(1);
    }
    double t1 = omp_get_wtime(), c1 = cpu_now();
    cpu_first = c1 - c0;
    for (int64_t i = 0; i < 3 * m; i++)
        xyz[i] += 1e-3; /* cells move */
    if (tbrf_set_points(p, m, xyz) || tbrf_execute(p, 0, v))
        exit(1);
    *again = omp_get_wtime() - t1;
    cpu_again = cpu_now() - c1;
    return t1 - t0;
}

int main(int argc, char **argv)
{
    const int64_t m = argc > 1 ? (int64_t)atof(argv[1]) : 100000;
    const int64_t n = argc > 2 ? atoll(argv[2]) : 64;
    const int threads = argc > 3 ? atoi(argv[3]) : 0;
    tbrf_model *model = NULL;
    tbrf_model_gaussian(2.0 / (double)n, &model);
    double *xyz = malloc(sizeof(double) * 3 * (size_t)m), *v = malloc(sizeof(double) * 3 * (size_t)m);
    uint64_t s = 1;
    for (int64_t i = 0; i < 3 * m; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        xyz[i] = 0.05 + 0.9 * (double)(s >> 11) * 0x1.0p-53;
    }
    const double o[3] = {0, 0, 0}, L[3] = {1, 1, 1}, hi[3] = {1.01, 1.01, 1.01};
    const int64_t nn[3] = {n, n, n};
    printf("M = %lld points, box modes %lld^3, threads %d\n", (long long)m, (long long)n,
           threads ? threads : omp_get_max_threads());
    printf("%-28s %12s %12s %12s %12s\n", "method", "first [s]", "moved [s]", "first cpu", "moved cpu");
    for (int vec = 0; vec <= 1; vec++) {
        tbrf_opts opts;
        tbrf_default_opts(&opts);
        opts.threads = threads;
        opts.vector = vec ? TBRF_VECTOR_SOLENOIDAL : TBRF_SCALAR;
        tbrf_plan *p = NULL;
        double again;
        if (tbrf_make_plan(model, 3, o, hi, 1.0 / (double)n, 1, &opts, &p) == TBRF_OK) {
            double t = run(p, m, xyz, v, &again);
            printf("%-28s %12.3f %12.3f %12.3f %12.3f\n", vec ? "turning bands, vector" : "turning bands, scalar", t,
                   again, cpu_first, cpu_again);
        }
        tbrf_destroy(p);
        const double eps[3] = {1e-3, 1e-6, 1e-12};
        for (int e = 0; e < 3; e++) {
            opts.accuracy = eps[e];
            if (tbrf_make_periodic_plan(model, 3, o, L, nn, 1, &opts, &p) == TBRF_OK) {
                double t = run(p, m, xyz, v, &again);
                char name[64];
                snprintf(name, sizeof name, "NUFFT eps %.0e, %s", eps[e], vec ? "vector" : "scalar");
                printf("%-28s %12.3f %12.3f %12.3f %12.3f\n", name, t, again, cpu_first, cpu_again);
            } else
                fprintf(stderr, "%s\n", tbrf_plan_message(p));
            tbrf_destroy(p);
        }
    }
    free(xyz);
    free(v);
    tbrf_model_destroy(model);
    return 0;
}
