/* bench_inflow.c — the inflow-boundary sampler (tbrf_inflow_*):
 *  1. line memory against the tube's length (256 x 256 x nz, resolution 1,
 *     1024 lines): the sampler's windows in double and float against the
 *     lines a plan of the same tube holds, and the time to make them;
 *  2. the cost of one step against the number of ghost cells, against the
 *     baseline timed in the same run: a plan of the same tube evaluating the
 *     same shifted positions (tbrf_set_points + tbrf_execute, the way a
 *     boundary routine did it before);
 *  3. peak RSS (getrusage) after the sampler and after the plan.
 * Prints figures; asserts nothing (doc/benchmarks-log.md, "Inflow sampler").
 *
 *   bench_inflow [NZ_MAX]     (default 10000: the paper's tube) */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "tbrf.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double peak_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

static tbrf_model *tube_model(void)
{
    tbrf_model *m = NULL;
    if (tbrf_model_powerlaw(-3.9, 0.02, 3.0, &m) != TBRF_OK) {
        fprintf(stderr, "model: %s\n", tbrf_model_message(m));
        exit(1);
    }
    return m;
}

/* The ghost cells: g layers of 256 x 256 at z = nz - g .. nz - 1 (the
 * wind blows along +z; the tube's far end feeds them), or a w x w patch. */
static double *ghosts(int64_t w, int64_t g, double z0, int64_t *n)
{
    *n = w * w * g;
    double *xyz = malloc(sizeof(double) * 3 * (size_t)*n);
    int64_t q = 0;
    for (int64_t k = 0; k < g; k++)
        for (int64_t j = 0; j < w; j++)
            for (int64_t i = 0; i < w; i++, q++) {
                xyz[3 * q] = (double)i;
                xyz[3 * q + 1] = (double)j;
                xyz[3 * q + 2] = z0 + (double)k;
            }
    return xyz;
}

int main(int argc, char **argv)
{
    const int64_t nzmax = argc > 1 ? atoll(argv[1]) : 10000;
    tbrf_model *m = tube_model();
    tbrf_opts o;
    tbrf_default_opts(&o);
    const double v[3] = {0, 0, 1};
    printf("# tbrf %s: inflow sampler, power law k^-3.9 on [0.02, 3], 1024 lines, oversampling 4, "
           "resolution 1, threads %s\n", tbrf_version(), getenv("OMP_NUM_THREADS") ? getenv("OMP_NUM_THREADS") : "default");
    printf("\n## line memory against tube length (256 x 256 x nz)\n");
    printf("%8s %12s %12s %12s %8s %8s %10s\n", "nz", "plan MiB", "double MiB", "float MiB", "double%",
           "float%", "create s");
    for (int64_t nz = 1250; nz <= nzmax; nz *= 2) {
        const double lo[3] = {0, 0, 0}, hi[3] = {255, 255, (double)(nz - 1)};
        tbrf_inflow *d = NULL, *f = NULL;
        double t0 = now();
        if (tbrf_inflow_create(m, 3, lo, hi, 1.0, 7, 0, &o, v, TBRF_DOUBLE, &d) != TBRF_OK) {
            fprintf(stderr, "inflow: %s\n", tbrf_inflow_message(d));
            return 1;
        }
        const double tc = now() - t0;
        if (tbrf_inflow_create(m, 3, lo, hi, 1.0, 7, 0, &o, v, TBRF_FLOAT, &f) != TBRF_OK)
            return 1;
        const double full = (double)tbrf_inflow_line_bytes(d, 1) / 1048576.0;
        const double bd = (double)tbrf_inflow_line_bytes(d, 0) / 1048576.0;
        const double bf = (double)tbrf_inflow_line_bytes(f, 0) / 1048576.0;
        printf("%8lld %12.1f %12.1f %12.1f %7.1f%% %7.1f%% %10.2f\n", (long long)nz, full, bd, bf,
               100 * bd / full, 100 * bf / full, tc);
        tbrf_inflow_destroy(d);
        tbrf_inflow_destroy(f);
        if (nz * 2 > nzmax && nz != nzmax)
            nz = nzmax / 2; /* the last row is nzmax itself */
    }

    /* per-step cost at the longest tube */
    const double lo[3] = {0, 0, 0}, hi[3] = {255, 255, (double)(nzmax - 1)};
    tbrf_inflow *in = NULL, *inf = NULL;
    if (tbrf_inflow_create(m, 3, lo, hi, 1.0, 7, 0, &o, v, TBRF_DOUBLE, &in) != TBRF_OK ||
        tbrf_inflow_create(m, 3, lo, hi, 1.0, 7, 0, &o, v, TBRF_FLOAT, &inf) != TBRF_OK)
        return 1;
    const double rss_inflow = peak_mib();
    struct { int64_t w, g; } cases[] = {{16, 1}, {64, 1}, {256, 1}, {256, 2}, {256, 4}};
    const int ncases = (int)(sizeof cases / sizeof cases[0]);
    double tin[8], tinf[8], tgrid[8];
    for (int c = 0; c < ncases; c++) {
        int64_t n;
        double *xyz = ghosts(cases[c].w, cases[c].g, (double)(nzmax - cases[c].g), &n);
        double *rho = malloc(sizeof(double) * (size_t)n);
        const int steps = n < 100000 ? 20 : 5;
        double best = INFINITY;
        for (int s = 0; s < steps; s++) {
            double t0 = now();
            if (tbrf_inflow_fill(in, 0.5 * s, n, xyz, rho) != TBRF_OK) {
                fprintf(stderr, "fill: %s\n", tbrf_inflow_message(in));
                return 1;
            }
            best = fmin(best, now() - t0);
        }
        tin[c] = best;
        best = INFINITY;
        for (int s = 0; s < steps; s++) {
            double t0 = now();
            if (tbrf_inflow_fill(inf, 0.5 * s, n, xyz, rho) != TBRF_OK)
                return 1;
            best = fmin(best, now() - t0);
        }
        tinf[c] = best;
        /* the same cells as one block, through fill_grid (16 x 16 x 2 tiles) */
        const double origin[3] = {0, 0, (double)(nzmax - cases[c].g)}, spacing[3] = {1, 1, 1};
        const int64_t cnt[3] = {cases[c].w, cases[c].w, cases[c].g};
        best = INFINITY;
        for (int s = 0; s < steps; s++) {
            double t0 = now();
            if (tbrf_inflow_fill_grid(in, 0.5 * s, origin, spacing, cnt, rho) != TBRF_OK)
                return 1;
            best = fmin(best, now() - t0);
        }
        tgrid[c] = best;
        free(xyz);
        free(rho);
    }
    tbrf_inflow_destroy(in);
    tbrf_inflow_destroy(inf);

    /* the baseline: a plan of the same tube at the same shifted positions */
    tbrf_plan *plan = NULL;
    double t0 = now();
    if (tbrf_make_plan(m, 3, lo, hi, 1.0, 7, &o, &plan) != TBRF_OK) {
        fprintf(stderr, "plan: %s\n", tbrf_plan_message(plan));
        return 1;
    }
    printf("\n## one step against ghost cells (tube 256 x 256 x %lld, best of 5-20 steps)\n", (long long)nzmax);
    printf("%10s %12s %14s %12s %12s %12s %8s %8s %8s\n", "cells", "inflow ms", "ns/(cell*line)", "float ms",
           "grid ms", "plan ms", "plan/in", "plan/flt", "plan/grd");
    int first = 1;
    double first_dt = 0.0;
    for (int c = 0; c < ncases; c++) {
        int64_t n;
        double *xyz = ghosts(cases[c].w, cases[c].g, (double)(nzmax - cases[c].g), &n);
        double *sh = malloc(sizeof(double) * 3 * (size_t)n), *val = malloc(sizeof(double) * (size_t)n);
        const int steps = n < 100000 ? 20 : 5;
        double best = INFINITY;
        for (int s = 0; s < steps; s++) {
            const double t = 0.5 * s;
            double ts = now();
            for (int64_t i = 0; i < n; i++) {
                sh[3 * i] = xyz[3 * i];
                sh[3 * i + 1] = xyz[3 * i + 1];
                sh[3 * i + 2] = xyz[3 * i + 2] - v[2] * t;
            }
            if (tbrf_set_points(plan, n, sh) != TBRF_OK || tbrf_execute(plan, 0, val) != TBRF_OK) {
                fprintf(stderr, "plan: %s\n", tbrf_plan_message(plan));
                return 1;
            }
            const double dt = now() - ts;
            if (first) /* the first execute synthesises the lines */
                first_dt = now() - t0;
            else
                best = fmin(best, dt);
            first = 0;
        }
        printf("%10lld %12.3f %14.3f %12.3f %12.3f %12.3f %8.2f %8.2f %8.2f\n", (long long)n, 1e3 * tin[c],
               1e9 * tin[c] / (double)n / 1024.0, 1e3 * tinf[c], 1e3 * tgrid[c], 1e3 * best, best / tin[c],
               best / tinf[c], best / tgrid[c]);
        free(xyz);
        free(sh);
        free(val);
    }
    printf("\nplan: made and first step (its lines synthesised) in %.2f s\n", first_dt);

    /* Agreement with what `tbrf generate --grid 256x256xNZ` writes: the
     * plan's grid path on slabs of the tube (16 planes at the start, the
     * middle and the end) against the sampler at t = 0 on the same cells. */
    {
        tbrf_inflow *chk = NULL;
        if (tbrf_inflow_create(m, 3, lo, hi, 1.0, 7, 0, &o, v, TBRF_DOUBLE, &chk) != TBRF_OK)
            return 1;
        const int64_t cnt[3] = {256, 256, 16}, cells = 256 * 256 * 16;
        const double spacing[3] = {1, 1, 1};
        double *g = malloc(sizeof(double) * (size_t)cells), *q = malloc(sizeof(double) * (size_t)cells);
        double worst = 0.0, s2 = 0.0;
        int64_t nsum = 0;
        const double z0s[3] = {0.0, (double)(nzmax / 2), (double)(nzmax - 16)};
        for (int z = 0; z < 3; z++) {
            const double origin[3] = {0, 0, z0s[z]};
            if (tbrf_set_grid(plan, origin, spacing, cnt) || tbrf_execute(plan, 0, g) ||
                tbrf_inflow_fill_grid(chk, 0.0, origin, spacing, cnt, q))
                return 1;
            for (int64_t i = 0; i < cells; i++) {
                worst = fmax(worst, fabs(g[i] - q[i]));
                s2 += g[i] * g[i];
            }
            nsum += cells;
        }
        const double rms = sqrt(s2 / (double)nsum);
        printf("agreement with the plan's grid (what tbrf generate writes) on 3 slabs of 256 x 256 x 16: "
               "max |sampler - grid| = %.3g = %.3g rms\n", worst, worst / rms);
        free(g);
        free(q);
        tbrf_inflow_destroy(chk);
    }
    printf("peak RSS: %.0f MiB after the samplers (line memory table, then a double and a float one), "
           "%.0f MiB after the plan as well\n", rss_inflow, peak_mib());
    tbrf_destroy(plan);
    tbrf_model_destroy(m);
    return 0;
}
