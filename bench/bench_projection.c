/* bench_projection.c — cell·lines per second of tbrf's CPU projection on
 * a grid and on random points, beside straightforward OpenMP loops over
 * cells and lines (dot product, interpolation) timed in the same run on
 * the same lines: one in double built with the library's flags, and one
 * in float built with -O3 -march=native (naive_native.c), the baseline of
 * the project's goal of "4x the straightforward float loop". End-to-end times
 * include planning and line synthesis for all. tbrf runs in the precision
 * asked (float by default, as `tbrf generate --precision float`; the
 * projection is double either way) with the ISA TBRF_CPU_ISA allows.
 * Lines "RATIO name value" are for bench/run_suite.sh's summary.
 * Usage: bench_projection [n=128] [lines=1024] [repeats=3] [float|double] [nodouble]
 * (nodouble: skip the double loop, which is slow). */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cpu/cpu_kernels.h"
#include "methods/turning_bands/directions.h"
#include "methods/turning_bands/lines.h"
#include "tbrf.h"

/* The clock: wall time, or with TBRF_BENCH_CLOCK=cpu the process's CPU
 * time (with OMP_NUM_THREADS=1, a per-core figure that waiting for a core
 * on a shared machine does not inflate). */
static int cpu_clock;
static double now(void)
{
    if (!cpu_clock)
        return omp_get_wtime();
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double best(double a, double b)
{
    return a < b ? a : b;
}

void naive_float_native(int64_t n, const float *lines, int64_t M, const float *axis, const float *off,
                        int L, const float c[3], float norm, float *out);

/* The straightforward loop: every cell against every line (u already
 * divided by delta, off = offset + the line's shift, as tbrf's t). */
static void naive(int64_t ncell, const double *xyz, const double *lines, const double *u, int L,
                  int64_t M, const double *off, const double c[3], double *out)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < ncell; i++) {
        double sum = 0.0;
        for (int l = 0; l < L; l++) {
            double t = (xyz[3 * i] - c[0]) * u[3 * l] + (xyz[3 * i + 1] - c[1]) * u[3 * l + 1] +
                       (xyz[3 * i + 2] - c[2]) * u[3 * l + 2] + off[l];
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
    const int prec = argc > 4 && strcmp(argv[4], "double") == 0 ? TBRF_DOUBLE : TBRF_FLOAT;
    const int with_double = !(argc > 5 && strcmp(argv[5], "nodouble") == 0);
    cpu_clock = getenv("TBRF_BENCH_CLOCK") && strcmp(getenv("TBRF_BENCH_CLOCK"), "cpu") == 0;
    const int64_t N = (int64_t)n * n * n;
    const double work = (double)N * L;
    printf("# bench_projection: %d^3 cells, %d lines, %d threads, best of %d, tbrf in %s, CPU kernels %s, "
           "%s seconds\n", n, L, omp_get_max_threads(), reps, prec == TBRF_FLOAT ? "float" : "double",
           tbrfi_cpu_isa_name(tbrfi_cpu_isa()), cpu_clock ? "CPU" : "wall-clock");

    tbrf_model *m = NULL;
    tbrf_model_powerlaw(-3.0, 0.05, 3.0, &m);
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = L;
    o.precision = prec;
    const double lo[3] = {0, 0, 0}, hi[3] = {n - 1, n - 1, n - 1};
    const double origin[3] = {0, 0, 0}, spacing[3] = {1, 1, 1};
    const int64_t cnt[3] = {n, n, n};
    void *field = malloc(sizeof(double) * (size_t)N);
    double *ref = malloc(sizeof(double) * (size_t)N);
    float *fref = malloc(sizeof(float) * (size_t)N);
    double *pvals = malloc(sizeof(double) * (size_t)N);
    double *xyz = malloc(sizeof(double) * 3 * (size_t)N);

    /* tbrf, grid, end to end (plan + synthesis + projection) and projection alone */
    double t_grid_e2e = 1e30, t_grid = 1e30, t_pts = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        tbrf_plan *p = NULL;
        tbrf_make_plan(m, 3, lo, hi, 1.0, 1, &o, &p);
        tbrf_set_grid(p, origin, spacing, cnt);
        tbrf_execute(p, (uint64_t)r, field);
        double t1 = now();
        tbrf_execute(p, (uint64_t)r, field); /* lines cached: projection only */
        double t2 = now();
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
        double t0 = now();
        tbrf_execute(p, 0, pvals);
        t_pts = best(t_pts, now() - t0);
    }
    tbrf_destroy(p);

    /* baseline: the same lines, the straightforward loop, at the grid cells */
    for (int64_t i = 0; i < N; i++) {
        xyz[3 * i] = (double)(i % n);
        xyz[3 * i + 1] = (double)((i / n) % n);
        xyz[3 * i + 2] = (double)(i / ((int64_t)n * n));
    }
    double t_naive_e2e = 1e30, t_naive = 1e30, t_nat_e2e = 1e30, t_nat = 1e30;
    for (int r = 0; r < reps; r++) {
        for (int variant = with_double ? 0 : 1; variant < 2; variant++) {
            /* 0: the double loop; 1: the float -march=native loop */
            double t0 = now();
            line_spec s;
            char msg[512];
            double extent = (n - 1) * sqrt(3.0);
            tbrfi_lines_spec_build(&s, m, 3, extent, 1.0, &o, msg, sizeof msg);
            double *lines = malloc(sizeof(double) * (size_t)L * (size_t)s.M);
            double *u = malloc(sizeof(double) * 4 * (size_t)L), *off = u + 3 * L;
            void *fft = tbrfi_lines_fft_plan(s.M);
            tbrfi_directions_make(3, L, 1, (uint64_t)r, u);
            for (int i = 0; i < 3 * L; i++)
                u[i] /= s.delta;
            tbrfi_lines_shifts(1, (uint64_t)r, L, off);
            for (int l = 0; l < L; l++)
                off[l] += s.offset;
            tbrfi_lines_synthesize(&s, fft, 1, (uint64_t)r, L, 0, lines);
            const double c[3] = {0.5 * (n - 1), 0.5 * (n - 1), 0.5 * (n - 1)};
            double t1, t2;
            if (variant == 0) {
                t1 = now();
                naive(N, xyz, lines, u, L, s.M, off, c, ref);
                t2 = now();
                t_naive_e2e = best(t_naive_e2e, t2 - t0);
                t_naive = best(t_naive, t2 - t1);
            } else {
                /* the user's float copy of the lines is part of the loop's end to end */
                float *fl = malloc(sizeof(float) * ((size_t)L * (size_t)s.M + 4 * (size_t)L));
                float *fu = fl + (size_t)L * (size_t)s.M, *foff = fu + 3 * L;
                for (int64_t i = 0; i < (int64_t)L * s.M; i++)
                    fl[i] = (float)lines[i];
                for (int i = 0; i < 4 * L; i++)
                    fu[i] = (float)u[i];
                const float fc[3] = {(float)c[0], (float)c[1], (float)c[2]};
                t1 = now();
                naive_float_native(n, fl, s.M, fu, foff, L, fc, (float)(1.0 / sqrt((double)L)), fref);
                t2 = now();
                t_nat_e2e = best(t_nat_e2e, t2 - t0);
                t_nat = best(t_nat, t2 - t1);
                free(fl);
            }
            tbrfi_lines_fft_destroy(fft);
            tbrfi_lines_spec_free(&s);
            free(lines);
            free(u);
        }
    }
    /* All computed realization reps-1 from the same lines: they must agree
     * to rounding (float: to float's), or the comparison is not like for
     * like. */
    double maxdiff = 0.0, maxdiff_f = 0.0, maxabs = 0.0;
    for (int64_t i = 0; i < N && with_double; i++) {
        const double v = prec == TBRF_FLOAT ? (double)((float *)field)[i] : ((double *)field)[i];
        maxdiff = fmax(maxdiff, fabs(v - ref[i]));
        maxdiff_f = fmax(maxdiff_f, fabs((double)fref[i] - ref[i]));
        maxabs = fmax(maxabs, fabs(ref[i]));
    }
    if (with_double)
        printf("# max |field| %.3g; max |tbrf - double loop| = %.2e, max |float loop - double loop| = %.2e "
           "(same field, rounding only)\n", maxabs, maxdiff, maxdiff_f);

    printf("%-34s %10s %16s\n", "case", "seconds", "cell.lines/s");
    printf("%-34s %10.3f %16.3e\n", "tbrf grid, end to end", t_grid_e2e, work / t_grid_e2e);
    printf("%-34s %10.3f %16.3e\n", "tbrf grid, projection", t_grid, work / t_grid);
    printf("%-34s %10.3f %16.3e\n", "tbrf random points, projection", t_pts, work / t_pts);
    if (with_double) {
        printf("%-34s %10.3f %16.3e\n", "double loop, end to end", t_naive_e2e, work / t_naive_e2e);
        printf("%-34s %10.3f %16.3e\n", "double loop, projection", t_naive, work / t_naive);
    }
    printf("%-34s %10.3f %16.3e\n", "float -march=native loop, e2e", t_nat_e2e, work / t_nat_e2e);
    printf("%-34s %10.3f %16.3e\n", "float -march=native loop, proj.", t_nat, work / t_nat);
    printf("ratio grid end to end (float native loop / tbrf): %.2f\n", t_nat_e2e / t_grid_e2e);
    printf("ratio grid projection (float native loop / tbrf): %.2f\n", t_nat / t_grid);
    if (with_double)
        printf("ratio grid end to end (double loop / tbrf): %.2f\n", t_naive_e2e / t_grid_e2e);
    printf("ratio points / grid projection time: %.2f\n", t_pts / t_grid);
    printf("RATIO tbrf_vs_float_native_loop_e2e %.2f\n", t_nat_e2e / t_grid_e2e);
    printf("RATIO points_time_over_grid_time %.2f\n", t_pts / t_grid);
    printf("RATE grid_projection_cell_lines_per_s %.3e\n", work / t_grid);
    free(field);
    free(pvals);
    free(ref);
    free(fref);
    free(xyz);
    tbrf_model_destroy(m);
    return 0;
}
