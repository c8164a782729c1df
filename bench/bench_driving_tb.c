/* bench_driving_tb.c — costs of turbulence driving over a non-periodic
 * domain (periodic = 0: OU line modes of turning bands; doc/benchmarks-log.md,
 * "Turbulence driving over a non-periodic domain"): one update (the line
 * modes advanced and the lines synthesised again), the replay of a fresh
 * driver to a late time, and one evaluation at 10^4 .. MAXPOINTS random
 * points of the unit cube. Baseline timed in the same run: the periodic
 * driver of the same band over the unit box (direct sum), the cost a code
 * that can use a box pays.
 *
 *   bench_driving_tb [MAXPOINTS] [THREADS]   (defaults 1e6, 1) */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tbrf.h"

static const double PI = 3.14159265358979323846;

/* With one thread the process's CPU time (a shared machine does not
 * inflate it), with more the wall-clock time. */
static int cpu_clock = 1;
static double now(void)
{
    struct timespec t;
    clock_gettime(cpu_clock ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static tbrf_driver *make(double kmax_units, int periodic, int threads)
{
    tbrf_model *band;
    tbrf_model_band(2 * PI, 2 * PI * kmax_units, &band);
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.periodic = periodic;
    p.threads = threads;
    p.eval = TBRF_DRIVE_DIRECT * periodic; /* the box: its direct sum; the domain: AUTO */
    tbrf_driver *d;
    if (tbrf_driver_make(band, 1, &p, &d) != TBRF_OK) {
        fprintf(stderr, "bench_driving_tb: %s\n", tbrf_driver_message(d));
        exit(1);
    }
    tbrf_model_destroy(band);
    return d;
}

int main(int argc, char **argv)
{
    const int64_t maxn = argc > 1 ? (int64_t)atof(argv[1]) : 1000000;
    const int threads = argc > 2 ? atoi(argv[2]) : 1;
    cpu_clock = threads == 1;
    double *x = malloc(sizeof(double) * 3 * (size_t)maxn), *f = malloc(sizeof(double) * 3 * (size_t)maxn);
    if (!x || !f)
        return fprintf(stderr, "bench_driving_tb: out of memory\n"), 1;
    uint64_t s = 7;
    for (int64_t i = 0; i < 3 * maxn; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        x[i] = (double)(s >> 11) / 9007199254740992.0;
    }
    printf("threads %d (%s)\n", threads, cpu_clock ? "CPU seconds of the process" : "wall-clock seconds");
    const double bands[2] = {3, 8};
    for (int b = 0; b < 2; b++) {
        tbrf_driver *d = make(bands[b], 0, threads), *box = make(bands[b], 1, threads);
        tbrf_driver_info info, binfo;
        tbrf_driver_get_info(d, &info);
        tbrf_driver_get_info(box, &binfo);
        double t0 = now();
        for (int j = 0; j < 50; j++) /* an update and one point: the lines are made again */
            tbrf_driver_points(d, (j + 0.5) * info.dt_update, 1, x, f);
        const double upd = (now() - t0) / 50;
        t0 = now();
        for (int j = 0; j < 50; j++)
            tbrf_driver_points(box, (j + 0.5) * info.dt_update, 1, x, f);
        const double bupd = (now() - t0) / 50;
        tbrf_driver *fresh = make(bands[b], 0, threads);
        t0 = now();
        tbrf_driver_points(fresh, 1000.5 * info.dt_update, 1, x, f); /* replay 1000 updates */
        const double replay = now() - t0;
        tbrf_driver_destroy(fresh);
        printf("\nband 1 <= k/2pi <= %g over the unit cube: %lld line modes (512 lines), box: %lld "
               "modes\none update + 1 point: domain %.3g ms, box %.3g ms (ratio %.1f); replay of "
               "1000 updates (domain) %.3g s\n", bands[b], (long long)info.modes,
               (long long)binfo.modes, upd * 1e3, bupd * 1e3, upd / bupd, replay);
        printf("%10s %12s %12s %10s\n", "points", "domain s", "box s", "domain/box");
        for (int64_t n = 10000; n <= maxn; n *= 10) {
            t0 = now();
            tbrf_driver_points(d, 0.05, n, x, f);
            const double td = now() - t0;
            t0 = now();
            tbrf_driver_points(box, 0.05, n, x, f);
            const double tb = now() - t0;
            printf("%10lld %12.4g %12.4g %10.2f\n", (long long)n, td, tb, td / tb);
        }
        tbrf_driver_destroy(d);
        tbrf_driver_destroy(box);
    }
    free(x);
    free(f);
    return 0;
}
