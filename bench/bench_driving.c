/* bench_driving.c — turbulence driving costs (doc/benchmarks-log.md,
 * "Turbulence driving"): per OU update, per evaluation at 10^4 .. 10^7
 * random points (direct sum and NUFFT), and the replay of a fresh driver
 * to a late time, for a narrow band (61 modes) and wider ones. Baseline
 * timed in the same run: the loop a user writes for the same modes — one
 * sine and cosine of k.x per mode and point (TurbGen's get_turb_vector
 * does this) — on the coefficients tbrf_driver_modes hands out, checked
 * to agree with the driver.
 *
 *   bench_driving [MAXPOINTS] [THREADS]   (defaults 1e6, 0 = OpenMP's) */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <omp.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>

#include "tbrf.h"

static const double PI = 3.14159265358979323846;

/* With one thread the process's CPU time, which a machine shared with
 * other jobs does not inflate; with more, wall-clock time. */
static int cpu_clock = 0;
static double now(void)
{
    if (!cpu_clock)
        return omp_get_wtime();
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The baseline: f_c(x) = sum 2 (cr cos(k.x) - ci sin(k.x)). */
static void naive(int64_t nm, const int32_t *m, const double *cf, int64_t n, const double *x, double *f,
                  int threads)
{
#pragma omp parallel for schedule(static) num_threads(threads > 0 ? threads : omp_get_max_threads())
    for (int64_t i = 0; i < n; i++) {
        double a[3] = {0, 0, 0};
        for (int64_t j = 0; j < nm; j++) {
            const double ph = 2 * PI * (m[3 * j] * x[3 * i] + m[3 * j + 1] * x[3 * i + 1] + m[3 * j + 2] * x[3 * i + 2]);
            const double c = cos(ph), s = sin(ph);
            for (int q = 0; q < 3; q++)
                a[q] += 2 * (cf[6 * j + 2 * q] * c - cf[6 * j + 2 * q + 1] * s);
        }
        for (int q = 0; q < 3; q++)
            f[3 * i + q] = a[q];
    }
}

static tbrf_driver *make(double kmax_units, int eval, double eps, int threads)
{
    tbrf_model *band;
    tbrf_model_band(2 * PI, 2 * PI * kmax_units, &band);
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.eval = eval;
    p.accuracy = eps;
    p.threads = threads;
    tbrf_driver *d;
    if (tbrf_driver_make(band, 1, &p, &d) != TBRF_OK) {
        fprintf(stderr, "bench_driving: %s\n", tbrf_driver_message(d));
        exit(1);
    }
    tbrf_model_destroy(band);
    return d;
}

int main(int argc, char **argv)
{
    const int64_t maxn = argc > 1 ? (int64_t)atof(argv[1]) : 1000000;
    const int threads = argc > 2 ? atoi(argv[2]) : 0;
    double *x = malloc(sizeof(double) * 3 * (size_t)maxn), *f = malloc(sizeof(double) * 3 * (size_t)maxn),
           *g = malloc(sizeof(double) * 3 * (size_t)maxn);
    if (!x || !f || !g)
        return fprintf(stderr, "bench_driving: out of memory\n"), 1;
    uint64_t s = 7;
    for (int64_t i = 0; i < 3 * maxn; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        x[i] = (double)(s >> 11) / 9007199254740992.0;
    }
    cpu_clock = threads == 1;
    printf("threads %d (%s)\n", threads > 0 ? threads : omp_get_max_threads(),
           cpu_clock ? "CPU seconds of the process" : "wall-clock seconds");
    const double bands[3] = {3, 8, 16};
    for (int b = 0; b < 3; b++) {
        tbrf_driver *d = make(bands[b], TBRF_DRIVE_DIRECT, 0, threads);
        tbrf_driver_info info;
        tbrf_driver_get_info(d, &info);
        /* per update: 200 successive updates (coefficients included) */
        double r, t0 = now();
        for (int j = 0; j < 200; j++)
            tbrf_driver_rms(d, (j + 0.5) * info.dt_update, &r);
        const double upd = (now() - t0) / 200;
        tbrf_driver *fresh = make(bands[b], TBRF_DRIVE_DIRECT, 0, threads);
        t0 = now();
        tbrf_driver_rms(fresh, 1000.5 * info.dt_update, &r); /* replay 1000 updates */
        const double replay = now() - t0;
        tbrf_driver_destroy(fresh);
        printf("\nband 1 <= |k|L/2pi <= %g: %lld modes; one update %.3g ms (%.3g us/mode); replay of "
               "1000 updates %.3g s\n", bands[b], (long long)info.modes, upd * 1e3, upd * 1e6 / (double)info.modes,
               replay);
        int64_t nm = info.modes;
        int32_t *m = malloc(sizeof(int32_t) * 3 * (size_t)nm);
        double *cf = malloc(sizeof(double) * 6 * (size_t)nm);
        tbrf_driver_modes(d, 0.05, &nm, m, cf);
        tbrf_driver *n12 = make(bands[b], TBRF_DRIVE_NUFFT, 1e-12, threads);
        tbrf_driver *n6 = make(bands[b], TBRF_DRIVE_NUFFT, 1e-6, threads);
        printf("%10s %12s %12s %12s %12s %10s\n", "points", "direct s", "nufft1e-12 s", "nufft1e-6 s",
               "naive s", "naive/best");
        for (int64_t n = 10000; n <= maxn; n *= 10) {
            double td, tn12, tn6, tb;
            tbrf_driver_points(n12, 0.05, 1, x, f); /* fine grids of this time, as a step reuses */
            tbrf_driver_points(n6, 0.05, 1, x, f);
            /* the sums over modes only where they take seconds, not minutes */
            const int direct = (double)nm * (double)n <= 2e9, slow = (double)nm * (double)n <= 3e8;
            t0 = now();
            tbrf_driver_points(direct ? d : n12, 0.05, n, x, f);
            td = direct ? now() - t0 : NAN;
            t0 = now();
            tbrf_driver_points(n12, 0.05, n, x, g);
            tn12 = now() - t0;
            double err = 0, big = 0;
            for (int64_t i = 0; i < 3 * n; i++)
                err = fmax(err, fabs(f[i] - g[i])), big = fmax(big, fabs(f[i]));
            t0 = now();
            tbrf_driver_points(n6, 0.05, n, x, g);
            tn6 = now() - t0;
            tb = NAN;
            if (slow) {
                t0 = now();
                naive(nm, m, cf, n, x, g, threads);
                tb = now() - t0;
                for (int64_t i = 0; i < 3 * n; i++)
                    err = fmax(err, fabs(f[i] - g[i]));
            }
            const double best = fmin(direct ? td : INFINITY, fmin(tn12, tn6));
            printf("%10lld %12.4g %12.4g %12.4g %12.4g %10.2f", (long long)n, td, tn12, tn6, tb, tb / best);
            if (direct) /* the sums compared with the NUFFT at 1e-12 */
                printf("   (max diff %.1e of max |f|)", err / big);
            printf("\n");
        }
        free(m);
        free(cf);
        tbrf_driver_destroy(d);
        tbrf_driver_destroy(n12);
        tbrf_driver_destroy(n6);
    }
    /* grids of 10^4 .. 10^7 cells on the box lattice, the 61-mode band:
     * axis by axis (AUTO, DIRECT) against the NUFFT at 1e-6 */
    printf("\ngrids, band 1 <= |k|L/2pi <= 3 (61 modes)\n%10s %12s %12s %12s\n", "cells", "direct s",
           "nufft1e-6 s", "ns/cell");
    tbrf_driver *dg = make(3, TBRF_DRIVE_DIRECT, 0, threads), *ng = make(3, TBRF_DRIVE_NUFFT, 1e-6, threads);
    const int sides[4] = {22, 46, 100, 215};
    for (int q = 0; q < 4; q++) {
        const int64_t nn[3] = {sides[q], sides[q], sides[q]}, cells = nn[0] * nn[1] * nn[2];
        if (cells > maxn)
            break;
        const double o[3] = {0, 0, 0}, h[3] = {1.0 / sides[q], 1.0 / sides[q], 1.0 / sides[q]};
        tbrf_driver_grid(dg, 0.05, o, h, nn, f);
        double t0 = now();
        tbrf_driver_grid(dg, 0.05, o, h, nn, f);
        const double td = now() - t0;
        tbrf_driver_grid(ng, 0.05, o, h, nn, g);
        t0 = now();
        tbrf_driver_grid(ng, 0.05, o, h, nn, g);
        const double tn = now() - t0;
        printf("%10lld %12.4g %12.4g %12.3g\n", (long long)cells, td, tn, td / (double)cells * 1e9);
    }
    tbrf_driver_destroy(dg);
    tbrf_driver_destroy(ng);
    free(x);
    free(f);
    free(g);
    return 0;
}
