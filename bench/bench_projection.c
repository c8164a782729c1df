/* bench_projection.c — cell·lines per second of tbrf's CPU projection on
 * a grid and on random points, beside a straightforward OpenMP loop over
 * cells and lines (dot product, interpolation) timed in the same run on
 * the same lines. End-to-end times include planning and line synthesis
 * for both. Usage: bench_projection [n=128] [lines=1024] [repeats=3] */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "methods/turning_bands/directions.h"
#include "methods/turning_bands/lines.h"
#include "tbrf.h"

static double best(double a, double b)
{
    return a < b ? a : b;
}

/* The straightforward loop: every cell against every line. */
static void naive(int64_t ncell, const double *xyz, const double *lines, const double *u, int L,
                  int64_t M, double delta, double offset, const double c[3], double *out)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < ncell; i++) {
        double sum = 0.0;
        for (int l = 0; l < L; l++) {
            double s = (xyz[3 * i] - c[0]) * u[3 * l] + (xyz[3 * i + 1] - c[1]) * u[3 * l + 1] +
                       (xyz[3 * i + 2] - c[2]) * u[3 * l + 2];
            double t = s / delta + offset;
            int64_t j = (int64_t)floor(t);
            double f = t - (double)j;
            const double *y = lines + (size_t)l * (size_t)M;
            sum += (1 - f) * y[j] + f * y[j + 1];
        }
        out[i] = sum / sqrt((double)L);
    }
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 128;
    const int L = argc > 2 ? atoi(argv[2]) : 1024;
    const int reps = argc > 3 ? atoi(argv[3]) : 3;
    const int64_t N = (int64_t)n * n * n;
    const double work = (double)N * L;
    printf("# bench_projection: %d^3 cells, %d lines, %d threads, best of %d\n", n, L,
           omp_get_max_threads(), reps);

    tbrf_model *m = NULL;
    tbrf_model_powerlaw(-3.0, 0.05, 3.0, &m);
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = L;
    const double lo[3] = {0, 0, 0}, hi[3] = {n - 1, n - 1, n - 1};
    const double origin[3] = {0, 0, 0}, spacing[3] = {1, 1, 1};
    const int64_t cnt[3] = {n, n, n};
    double *field = malloc(sizeof(double) * (size_t)N), *ref = malloc(sizeof(double) * (size_t)N);
    double *pvals = malloc(sizeof(double) * (size_t)N);
    double *xyz = malloc(sizeof(double) * 3 * (size_t)N);

    /* tbrf, grid, end to end (plan + synthesis + projection) and projection alone */
    double t_grid_e2e = 1e30, t_grid = 1e30, t_pts = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = omp_get_wtime();
        tbrf_plan *p = NULL;
        tbrf_make_plan(m, 3, lo, hi, 1.0, 1, &o, &p);
        tbrf_set_grid(p, origin, spacing, cnt);
        tbrf_execute(p, (uint64_t)r, field);
        double t1 = omp_get_wtime();
        tbrf_execute(p, (uint64_t)r, field); /* lines cached: projection only */
        double t2 = omp_get_wtime();
        t_grid_e2e = best(t_grid_e2e, t1 - t0);
        t_grid = best(t_grid, t2 - t1);
        tbrf_destroy(p);
    }
    /* random points in the same box */
    uint64_t x = 88172645463325252ull;
    for (int64_t i = 0; i < 3 * N; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        xyz[i] = (double)(x >> 11) * 0x1p-53 * (n - 1);
    }
    tbrf_plan *p = NULL;
    tbrf_make_plan(m, 3, lo, hi, 1.0, 1, &o, &p);
    tbrf_set_points(p, N, xyz);
    tbrf_execute(p, 0, pvals);
    for (int r = 0; r < reps; r++) {
        double t0 = omp_get_wtime();
        tbrf_execute(p, 0, pvals);
        t_pts = best(t_pts, omp_get_wtime() - t0);
    }
    tbrf_destroy(p);

    /* baseline: the same lines, the straightforward loop, at the grid cells */
    for (int64_t i = 0; i < N; i++) {
        xyz[3 * i] = (double)(i % n);
        xyz[3 * i + 1] = (double)((i / n) % n);
        xyz[3 * i + 2] = (double)(i / ((int64_t)n * n));
    }
    double t_naive_e2e = 1e30, t_naive = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = omp_get_wtime();
        line_spec s;
        char msg[512];
        double extent = (n - 1) * sqrt(3.0);
        tbrfi_lines_spec_build(&s, m, 3, extent, 1.0, &o, msg, sizeof msg);
        double *lines = malloc(sizeof(double) * (size_t)L * (size_t)s.M);
        double *u = malloc(sizeof(double) * 3 * (size_t)L);
        void *fft = tbrfi_lines_fft_plan(s.M);
        tbrfi_directions_make(3, L, 1, (uint64_t)r, u);
        tbrfi_lines_synthesize(&s, fft, 1, (uint64_t)r, L, 0, lines);
        const double c[3] = {0.5 * (n - 1), 0.5 * (n - 1), 0.5 * (n - 1)};
        double t1 = omp_get_wtime();
        naive(N, xyz, lines, u, L, s.M, s.delta, s.offset, c, ref);
        double t2 = omp_get_wtime();
        t_naive_e2e = best(t_naive_e2e, t2 - t0);
        t_naive = best(t_naive, t2 - t1);
        tbrfi_lines_fft_destroy(fft);
        tbrfi_lines_spec_free(&s);
        free(lines);
        free(u);
    }
    /* Both computed realization reps-1 from the same lines: they must agree
     * to rounding, or the comparison is not like for like. */
    double maxdiff = 0.0;
    for (int64_t i = 0; i < N; i++)
        maxdiff = fmax(maxdiff, fabs(field[i] - ref[i]));
    printf("# max |tbrf - straightforward| = %.2e (same field, rounding only)\n", maxdiff);

    printf("%-34s %10s %16s\n", "case", "seconds", "cell.lines/s");
    printf("%-34s %10.3f %16.3e\n", "tbrf grid, end to end", t_grid_e2e, work / t_grid_e2e);
    printf("%-34s %10.3f %16.3e\n", "tbrf grid, projection", t_grid, work / t_grid);
    printf("%-34s %10.3f %16.3e\n", "tbrf random points, projection", t_pts, work / t_pts);
    printf("%-34s %10.3f %16.3e\n", "straightforward loop, end to end", t_naive_e2e, work / t_naive_e2e);
    printf("%-34s %10.3f %16.3e\n", "straightforward loop, projection", t_naive, work / t_naive);
    printf("ratio grid end to end (straightforward / tbrf): %.2f\n", t_naive_e2e / t_grid_e2e);
    printf("ratio grid projection (straightforward / tbrf): %.2f\n", t_naive / t_grid);
    printf("ratio points projection (straightforward grid loop / tbrf points): %.2f\n", t_naive / t_pts);
    free(field);
    free(pvals);
    free(ref);
    free(xyz);
    tbrf_model_destroy(m);
    return 0;
}
