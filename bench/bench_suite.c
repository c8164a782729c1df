/* bench_suite.c — the speed table of doc/benchmarks-log.md ("Speed"), through the public API:
 *   grids:  turning bands vs the FFT method on n^3 grids (end to end: plan,
 *           set_grid, execute), beside a bare FFTW in-place c2r of the same
 *           size with its input filled (the FFT method's floor);
 *   points: turning-bands projection at N random points (Morton-sorted
 *           inside the library) vs the grid path, in cell·lines/s;
 *   lines:  turning bands on a 128^3 grid for L = 256 .. 4096.
 * Every row is the best of `repeats` runs. Prints a table; asserts nothing.
 * Usage: bench_suite [quick|full] [repeats=3]
 *   quick: grids 64^3..256^3, points 10^4..10^6, lines 256..4096
 *   full:  adds the 512^3 grid and 10^7 points */
#include <fftw3.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tbrf.h"

static int repeats = 3;

static tbrf_model *model(void)
{
    tbrf_model *m = NULL;
    tbrf_model_powerlaw(-3.0, 0.05, 3.0, &m);
    return m;
}

/* End-to-end seconds of one grid: make_plan + set_grid + execute. */
static double time_grid(int method, int64_t n, int L, double *value_sink)
{
    tbrf_model *m = model();
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = L;
    o.method = method;
    o.periodic = method != TBRF_METHOD_TB;
    const double lo[3] = {0, 0, 0}, hi[3] = {(double)n - 1, (double)n - 1, (double)n - 1};
    const double origin[3] = {0, 0, 0}, spacing[3] = {1, 1, 1};
    const int64_t cnt[3] = {n, n, n};
    double *f = malloc(sizeof(double) * (size_t)(n * n * n));
    double best = 1e30;
    for (int r = 0; r < repeats && f; r++) {
        double t0 = omp_get_wtime();
        tbrf_plan *p = NULL;
        int st = tbrf_make_plan(m, 3, lo, hi, 1.0, 1, &o, &p);
        if (!st) st = tbrf_set_grid(p, origin, spacing, cnt);
        if (!st) st = tbrf_execute(p, (uint64_t)r, f);
        double t = omp_get_wtime() - t0;
        if (st) {
            fprintf(stderr, "bench_suite: %s\n", tbrf_plan_message(p));
            tbrf_destroy(p);
            best = NAN;
            break;
        }
        tbrf_destroy(p);
        best = t < best ? t : best;
        *value_sink += f[n * n * n / 2];
    }
    free(f);
    tbrf_model_destroy(m);
    return best;
}

/* A bare threaded FFTW in-place c2r of n^3 with its input filled by a
 * trivial loop (plan with FFTW_ESTIMATE, as the FFT method does), best of
 * repeats; the planning is included, as in the FFT method. */
static double time_bare_fft(int64_t n, double *value_sink)
{
    const int64_t nh = n / 2 + 1;
    fftw_complex *c = fftw_malloc(sizeof(fftw_complex) * (size_t)(n * n * nh));
    if (!c) return NAN;
    double best = 1e30;
    for (int r = 0; r < repeats; r++) {
        double t0 = omp_get_wtime();
        fftw_plan_with_nthreads(omp_get_max_threads());
        fftw_plan p = fftw_plan_dft_c2r_3d((int)n, (int)n, (int)n, c, (double *)c, FFTW_ESTIMATE);
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < n * n * nh; i++) {
            c[i][0] = (double)((i * 2654435761u) & 1023) * 1e-3;
            c[i][1] = (double)((i * 40503u) & 1023) * 1e-3;
        }
        fftw_execute(p);
        double t = omp_get_wtime() - t0;
        *value_sink += ((double *)c)[n];
        fftw_destroy_plan(p);
        best = t < best ? t : best;
    }
    fftw_free(c);
    return best;
}

/* Projection-only seconds at N random points (lines cached), and the grid
 * projection of the same plan size for reference. */
static double time_points(int64_t N, int L, double box)
{
    tbrf_model *m = model();
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = L;
    const double lo[3] = {0, 0, 0}, hi[3] = {box, box, box};
    double *xyz = malloc(sizeof(double) * 3 * (size_t)N), *v = malloc(sizeof(double) * (size_t)N);
    uint64_t x = 88172645463325252ull;
    for (int64_t i = 0; xyz && i < 3 * N; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        xyz[i] = (double)(x >> 11) * 0x1p-53 * box;
    }
    tbrf_plan *p = NULL;
    double best = 1e30;
    if (xyz && v && !tbrf_make_plan(m, 3, lo, hi, 1.0, 1, &o, &p) && !tbrf_set_points(p, N, xyz) &&
        !tbrf_execute(p, 0, v)) {
        for (int r = 0; r < repeats; r++) {
            double t0 = omp_get_wtime();
            tbrf_execute(p, 0, v);
            double t = omp_get_wtime() - t0;
            best = t < best ? t : best;
        }
    } else {
        best = NAN;
    }
    tbrf_destroy(p);
    free(xyz);
    free(v);
    tbrf_model_destroy(m);
    return best;
}

int main(int argc, char **argv)
{
    const int full = argc > 1 && strcmp(argv[1], "full") == 0;
    repeats = argc > 2 ? atoi(argv[2]) : 3;
    if (repeats < 1) repeats = 1;
    fftw_init_threads();
    double sink = 0;
    printf("# bench_suite (%s): %d threads, best of %d; power law k^-3, 0.05 <= k <= 3\n",
           full ? "full" : "quick", omp_get_max_threads(), repeats);

    printf("\n## grids: turning bands (L = 1024) vs the FFT method, end to end\n");
    printf("%-8s %10s %12s %10s %12s %10s %10s\n", "grid", "TB s", "TB cl/s", "FFT s", "bare c2r s",
           "FFT/bare", "TB/FFT");
    const int64_t grids[] = {64, 128, 256, 512};
    for (int i = 0; i < (full ? 4 : 3); i++) {
        const int64_t n = grids[i];
        const double tb = (n <= 256 || full) ? time_grid(TBRF_METHOD_TB, n, 1024, &sink) : NAN;
        const double ff = time_grid(TBRF_METHOD_FFT, n, 1024, &sink);
        const double bare = time_bare_fft(n, &sink);
        printf("%-8s %10.3f %12.3e %10.3f %12.3f %10.2f %10.1f\n",
               n == 64 ? "64^3" : n == 128 ? "128^3" : n == 256 ? "256^3" : "512^3", tb,
               (double)(n * n * n) * 1024.0 / tb, ff, bare, ff / bare, tb / ff);
        fflush(stdout);
    }

    printf("\n## points: turning bands (L = 1024) at N random points in a 128^3 box, projection only\n");
    const double tg = time_grid(TBRF_METHOD_TB, 128, 1024, &sink);
    printf("%-10s %10s %14s %18s\n", "N", "seconds", "point.lines/s", "grid e2e / points");
    const int64_t Ns[] = {10000, 100000, 1000000, 10000000};
    for (int i = 0; i < (full ? 4 : 3); i++) {
        const double t = time_points(Ns[i], 1024, 127.0);
        const double rate = (double)Ns[i] * 1024.0 / t, grate = 128.0 * 128 * 128 * 1024 / tg;
        printf("%-10lld %10.3f %14.3e %18.2f\n", (long long)Ns[i], t, rate, grate / rate);
        fflush(stdout);
    }

    printf("\n## lines: turning bands on a 128^3 grid, end to end\n");
    printf("%-8s %10s %14s\n", "L", "seconds", "cell.lines/s");
    for (int L = 256; L <= 4096; L *= 2) {
        const double t = time_grid(TBRF_METHOD_TB, 128, L, &sink);
        printf("%-8d %10.3f %14.3e\n", L, t, 128.0 * 128 * 128 * L / t);
        fflush(stdout);
    }
    fprintf(stderr, "(checksum %g)\n", sink);
    return 0;
}
