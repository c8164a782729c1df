/* bench_mc.c — the 64-bit LCG for Monte Carlo: sequential stepping vs the
 * block (vectorized) form x_j = t_j + x_last y_j with OpenMP, for n points
 * in d dimensions (n d numbers), with the block size s* = sqrt(beta n / d)
 * of the Hockney–Jesshope model and beta measured in the same run; then
 * whole integrations (tbrf_mc_integrate, oscillatory integrand). Prints
 * Markdown tables; asserts nothing.
 *
 *   bench_mc [max_numbers]   cells with n d above max_numbers (default
 *                            2^31) are skipped to keep each cell to a few
 *                            seconds on a small machine */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "tbrf/rng/lcg64.h"
#include "tbrf/rng/lcg64_block.h"
#include "tbrf.h"

static volatile double sink;

/* A cheap integrand, f = sum of the coordinates (exact integral d/2): the
 * case where the generator, not the integrand, sets the pace. */
static int sum_f(void *user, int64_t n, int dim, const double *x, double *f)
{
    (void)user;
    for (int64_t p = 0; p < n; p++) {
        double s = 0;
        for (int i = 0; i < dim; i++)
            s += x[p * dim + i];
        f[p] = s;
    }
    return 0;
}

/* Sequential: one LCG step per number into a buffer of 256 points, which
 * is then consumed (summed) as an integrand would. */
static double gen_sequential(int64_t n, int d)
{
    enum { B = 256 };
    double *x = malloc((size_t)B * d * sizeof(double)), acc = 0;
    uint64_t s = 1;
    for (int64_t p = 0; p < n; p += B) {
        int64_t m = (n - p < B ? n - p : B) * d;
        for (int64_t k = 0; k < m; k++) {
            s = tbrf_lcg64_step(s);
            x[k] = tbrf_lcg64_u01(s);
        }
#pragma omp simd reduction(+ : acc)
        for (int64_t k = 0; k < m; k++)
            acc += x[k];
    }
    free(x);
    return acc;
}

/* Vectorized: blocks of s points (s d numbers) in block form, OpenMP
 * threads on contiguous ranges started by jump-ahead. */
static double gen_vectorized(int64_t n, int d, int64_t s)
{
    const int64_t L = s * d;
    uint64_t *y = malloc(2 * (size_t)L * sizeof(uint64_t)), *t = y + L;
    tbrf_rng_lcg64_block(L, y, t);
    double total = 0;
#pragma omp parallel reduction(+ : total)
    {
        int nt = omp_get_num_threads(), it = omp_get_thread_num();
        int64_t p0 = n * it / nt, p1 = n * (it + 1) / nt;
        double *x = malloc((size_t)L * sizeof(double)), acc = 0;
        uint64_t xl = tbrf_lcg64_jump(1, (uint64_t)p0 * (uint64_t)d);
        for (int64_t p = p0; p < p1; p += s) {
            int64_t w = (p1 - p < s ? p1 - p : s) * d;
            xl = tbrf_lcg64_block_fill(w, xl, y, t, x); /* the library's loop */
#pragma omp simd reduction(+ : acc)
            for (int64_t j = 0; j < w; j++)
                acc += x[j];
        }
        free(x);
        total += acc;
    }
    free(y);
    return total;
}

/* One whole integration of n points in d dimensions: the oscillatory
 * built-in integrand when fn is NULL, else fn. */
static void integrate(tbrf_mc_fn fn, int d, int64_t n, int algorithm, double r[2])
{
    if (fn)
        tbrf_mc_integrate_fn(fn, NULL, d, NULL, NULL, n, 1, algorithm, 0, r);
    else
        tbrf_mc_integrate(TBRF_MC_OSCILLATORY, d, NULL, NULL, n, 1, algorithm, 0, r);
}

/* A table of whole integrations (see integrate) for n = ns[0..nn-1], d =
 * ds[0..2]: sequential, vectorized, vectorized on 1 thread. Cells with
 * n d > maxnd are skipped, with a row saying so when show_skipped. */
static void integration_table(const char *heading, tbrf_mc_fn fn, const double *ns, int nn,
                              const int *ds, double maxnd, int show_skipped)
{
    printf("\n## %s\n\n", heading);
    printf("| n | d | sequential s | vectorized s | speed-up | vectorized 1 thread s | "
           "speed-up 1 thread | same estimate |\n|---|---|---|---|---|---|---|---|\n");
    for (int di = 0; di < 3; di++)
        for (int ni = 0; ni < nn; ni++) {
            int64_t n = (int64_t)ns[ni];
            int d = ds[di];
            if ((double)n * d > maxnd) {
                if (show_skipped)
                    printf("| 1e%d | %d | skipped (n d > %.3g) | | | | | |\n", (int)log10(ns[ni]),
                           d, maxnd);
                continue;
            }
            double r1[2], r2[2], r3[2];
            double t0 = omp_get_wtime();
            integrate(fn, d, n, TBRF_MC_SEQUENTIAL, r1);
            double t1 = omp_get_wtime();
            integrate(fn, d, n, TBRF_MC_VECTORIZED, r2);
            double t2 = omp_get_wtime();
            int nt = omp_get_max_threads();
            omp_set_num_threads(1);
            double t3 = omp_get_wtime();
            integrate(fn, d, n, TBRF_MC_VECTORIZED, r3);
            double t4 = omp_get_wtime();
            omp_set_num_threads(nt);
            printf("| 1e%d | %d | %.3f | %.3f | %.2f | %.3f | %.2f | %s |\n", (int)log10(ns[ni]), d,
                   t1 - t0, t2 - t1, (t1 - t0) / (t2 - t1), t4 - t3, (t1 - t0) / (t4 - t3),
                   r1[0] == r2[0] && r1[1] == r2[1] && r1[0] == r3[0] ? "yes" : "NO");
            fflush(stdout);
        }
}

int main(int argc, char **argv)
{
    double maxnum = argc > 1 ? atof(argv[1]) : 2147483648.0;
    double beta;
    tbrf_mc_measure_beta(&beta);
    printf("# bench_mc: %d OpenMP threads; measured beta = %.2f (per-block overhead in\n"
           "# units of one number's time); s* = sqrt(beta n / d) points per block, clamped\n"
           "# to 1024/d so a block stays in L1\n\n",
           omp_get_max_threads(), beta);
    sink = gen_vectorized(100000, 4, 64); /* start the OpenMP threads */
    const double ns[] = {1e6, 1e7, 1e8, 1e9};
    const int ds[] = {4, 16, 64};

    printf("## Generating n points in d dimensions (n d numbers, consumed by a sum)\n\n");
    printf("| n | d | s | sequential s | vectorized s | speed-up | vectorized 1 thread s | "
           "speed-up 1 thread | ns/number seq | ns/number vec |\n"
           "|---|---|---|---|---|---|---|---|---|---|\n");
    for (int di = 0; di < 3; di++)
        for (int ni = 0; ni < 4; ni++) {
            int64_t n = (int64_t)ns[ni];
            int d = ds[di];
            if ((double)n * d > maxnum) {
                printf("| 1e%d | %d | | skipped (n d > %.3g) | | | | | | |\n", (int)log10(ns[ni]),
                       d, maxnum);
                continue;
            }
            int64_t s;
            tbrf_mc_block_size(n, d, beta, &s);
            if (s > 1024 / d) /* the library's automatic choice (c/mc/mc.c) */
                s = 1024 / d;
            double t0 = omp_get_wtime();
            sink = gen_sequential(n, d);
            double t1 = omp_get_wtime();
            sink = gen_vectorized(n, d, s);
            double t2 = omp_get_wtime();
            int nt = omp_get_max_threads();
            omp_set_num_threads(1);
            double t3 = omp_get_wtime();
            sink = gen_vectorized(n, d, s);
            double t4 = omp_get_wtime();
            omp_set_num_threads(nt);
            double num = (double)n * d;
            printf("| 1e%d | %d | %lld | %.3f | %.3f | %.2f | %.3f | %.2f | %.2f | %.2f |\n",
                   (int)log10(ns[ni]), d, (long long)s, t1 - t0, t2 - t1, (t1 - t0) / (t2 - t1),
                   t4 - t3, (t1 - t0) / (t4 - t3), 1e9 * (t1 - t0) / num, 1e9 * (t2 - t1) / num);
            fflush(stdout);
        }

    printf("\n## Block size sweep, n = 1e7, d = 16 (vectorized generation)\n\n");
    printf("| s | seconds | ratio to auto |\n|---|---|---|\n");
    {
        int64_t sstar;
        tbrf_mc_block_size(10000000, 16, beta, &sstar);
        if (sstar > 1024 / 16)
            sstar = 1024 / 16;
        double tstar = 1e30;
        for (int rep = 0; rep < 3; rep++) {
            double t0 = omp_get_wtime();
            sink = gen_vectorized(10000000, 16, sstar);
            double dt = omp_get_wtime() - t0;
            if (dt < tstar)
                tstar = dt;
        }
        const int64_t ss[] = {1, 4, 16, 64, 256, 1024, 4096, 16384, 65536};
        for (int k = 0; k < 9; k++) {
            double best = 1e30;
            for (int rep = 0; rep < 3; rep++) {
                double t0 = omp_get_wtime();
                sink = gen_vectorized(10000000, 16, ss[k]);
                double dt = omp_get_wtime() - t0;
                if (dt < best)
                    best = dt;
            }
            printf("| %lld | %.4f | %.2f |\n", (long long)ss[k], best, best / tstar);
        }
        printf("| auto (model, cache-clamped) = %lld | %.4f | 1.00 |\n", (long long)sstar, tstar);
        printf("\n(unclamped model s* = sqrt(beta n / d) = %.0f)\n", sqrt(beta * 1e7 / 16));
    }

    integration_table("Whole integration (tbrf_mc_integrate, oscillatory integrand)", NULL, ns, 4,
                      ds, maxnum / 4, 1);
    integration_table("Whole integration, cheap user integrand f = sum x_i (tbrf_mc_integrate_fn)",
                      sum_f, ns, 3, ds, maxnum / 2, 0);
    return 0;
}
