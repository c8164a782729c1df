/* bench_tb_linear.c — is turning bands linear past the cache?
 * The cost per cell·line of the CPU grid projection (lines cached: the
 * second execute of a realization) in three cases, alternated in each
 * repeat so that all see the same load:
 *   small: the whole n_small^3 grid, L_small lines (the lines fit in L3);
 *   big n: a plan for the n_big^3 grid (lines n_big/n_small times longer,
 *          L_small * their length past L3), evaluated on a middle slab of
 *          it with about n_small^3 cells (tbrf_set_subgrid: every tile of
 *          the slab is a tile of the whole grid, read and computed as in
 *          the whole grid's run, so its cost per cell·line is the whole
 *          grid's without its minutes of CPU);
 *   many L: the n_small^3 domain with L_big lines, evaluated on a slab of
 *          n_small^3 * L_small / L_big cells (the same work as small).
 * Prints the ratios big-n / small and many-L / small of the cost per
 * cell·line (1 = linear; the goal is <= 1.1), the median and
 * [min–max] over the repeats of each repeat's own ratio, and RATIO lines
 * for bench/run_suite.sh. Run it with OMP_NUM_THREADS=1 TBRF_BENCH_CLOCK=cpu
 * for a per-core figure that waiting for a core does not inflate.
 * Usage: bench_tb_linear [repeats=5] [n_small=128] [n_big=512] [L_small=1024]
 *        [L_big=8192]; TBRF_LINEAR_WHOLE=1 evaluates the whole grids. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tbrf.h"

static int cpu_clock;
static double now(void)
{
    if (!cpu_clock)
        return omp_get_wtime();
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Seconds per cell·line of the projection of the slab z0 .. z0 + nz - 1
 * of the n^3 grid with L lines (realization r); negative on failure. */
static double per_cell_line(const tbrf_model *m, int64_t n, int L, int64_t z0, int64_t nz, uint64_t r,
                            float *out)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = L;
    o.precision = TBRF_FLOAT;
    const double lo[3] = {0, 0, 0}, hi[3] = {(double)n - 1, (double)n - 1, (double)n - 1};
    const double origin[3] = {0, 0, 0}, spacing[3] = {1, 1, 1};
    const int64_t cnt[3] = {n, n, n}, start[3] = {0, 0, z0}, count[3] = {n, n, nz};
    tbrf_plan *p = NULL;
    double t = -1.0;
    if (!tbrf_make_plan(m, 3, lo, hi, 1.0, 1, &o, &p) &&
        !tbrf_set_subgrid(p, origin, spacing, cnt, start, count) && !tbrf_execute(p, r, out)) {
        const double t0 = now();
        if (!tbrf_execute(p, r, out)) /* lines cached: the projection alone */
            t = (now() - t0) / ((double)(n * n * nz) * (double)L);
    } else {
        fprintf(stderr, "bench_tb_linear: %s\n", tbrf_plan_message(p));
    }
    tbrf_destroy(p);
    return t;
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *name, const char *key, double *q, int reps)
{
    qsort(q, (size_t)reps, sizeof *q, cmp);
    const double med = reps % 2 ? q[reps / 2] : 0.5 * (q[reps / 2 - 1] + q[reps / 2]);
    printf("%-44s %6.3f [%.3f-%.3f]\n", name, med, q[0], q[reps - 1]);
    printf("RATIO %s %.3f [%.3f-%.3f]\n", key, med, q[0], q[reps - 1]);
}

int main(int argc, char **argv)
{
    const int reps = argc > 1 && atoi(argv[1]) > 0 ? atoi(argv[1]) : 5;
    const int64_t ns = argc > 2 ? atoll(argv[2]) : 128, nb = argc > 3 ? atoll(argv[3]) : 512;
    const int Ls = argc > 4 ? atoi(argv[4]) : 1024, Lb = argc > 5 ? atoi(argv[5]) : 8192;
    cpu_clock = getenv("TBRF_BENCH_CLOCK") && strcmp(getenv("TBRF_BENCH_CLOCK"), "cpu") == 0;
    /* TBRF_LINEAR_WHOLE=1: the whole grids instead of the slabs (minutes;
     * checks that a slab's cost per cell·line is the whole grid's) */
    const int whole = getenv("TBRF_LINEAR_WHOLE") && atoi(getenv("TBRF_LINEAR_WHOLE")) == 1;
    const int64_t nzb = whole ? nb : ns * ns * ns / (nb * nb) > 0 ? ns * ns * ns / (nb * nb) : 1;
    const int64_t nzl = whole ? ns : ns * Ls / Lb > 0 ? ns * Ls / Lb : 1;
    tbrf_model *m = NULL;
    tbrf_model_powerlaw(-3.0, 0.05, 3.0, &m);
    float *out = malloc(sizeof(float) * (size_t)(ns * ns * ns > nb * nb * nzb ? ns * ns * ns : nb * nb * nzb));
    double *qn = malloc(sizeof(double) * 2 * (size_t)reps), *ql = qn + reps;
    double bs = 1e30, bn = 1e30, bl = 1e30;
    printf("# bench_tb_linear: %d threads, %s seconds, %d repeats; %lld^3 x %d lines (whole grid) vs "
           "%lld^3 x %d (slab of %lld planes) vs %lld^3 x %d (slab of %lld planes)\n",
           omp_get_max_threads(), cpu_clock ? "CPU" : "wall-clock", reps, (long long)ns, Ls, (long long)nb,
           Ls, (long long)nzb, (long long)ns, Lb, (long long)nzl);
    for (int r = 0; r < reps && out && qn; r++) {
        const double s = per_cell_line(m, ns, Ls, 0, ns, (uint64_t)r, out);
        const double b = per_cell_line(m, nb, Ls, (nb - nzb) / 2, nzb, (uint64_t)r, out);
        const double l = per_cell_line(m, ns, Lb, (ns - nzl) / 2, nzl, (uint64_t)r, out);
        if (s <= 0 || b <= 0 || l <= 0)
            return 1;
        qn[r] = b / s;
        ql[r] = l / s;
        bs = s < bs ? s : bs;
        bn = b < bn ? b : bn;
        bl = l < bl ? l : bl;
    }
    printf("%-44s %10.3e\n", "best cell.lines/s, small", 1.0 / bs);
    printf("%-44s %10.3e\n", "best cell.lines/s, big n", 1.0 / bn);
    printf("%-44s %10.3e\n", "best cell.lines/s, many L", 1.0 / bl);
    report("cost per cell.line, big n / small: median", "tb_big_grid_over_small", qn, reps);
    report("cost per cell.line, many L / small: median", "tb_many_lines_over_small", ql, reps);
    free(qn);
    free(out);
    tbrf_model_destroy(m);
    return 0;
}
