/* bench_fft_bare.c — the FFT method against a bare FFTW c2r plus a fill,
 * without any write, in float and double, alternated in each
 * repeat:
 *   tbrf:  tbrf_make_plan (method FFT, periodic) + tbrf_set_grid +
 *          tbrf_execute of an n^3 field into the caller's array;
 *   bare:  what a program doing the same by hand costs at the least: a
 *          fresh transform array (fftw_malloc: a program has to have one,
 *          and tbrf's is fresh each execute too), an in-place c2r plan
 *          with FFTW_ESTIMATE (as the FFT method plans), its input filled
 *          by a trivial hash, the transform, and the padded rows copied
 *          (rounded, in float) into the caller's array.
 * The caller's array is allocated and touched once, outside the timing,
 * for both. With OMP_NUM_THREADS=1 and TBRF_BENCH_CLOCK=cpu the times are
 * CPU seconds of one core, which waiting for a core on a shared machine
 * does not inflate. Prints, per precision, the best times and the median
 * [min–max] of each repeat's ratio tbrf / bare, and RATIO lines for
 * bench/run_suite.sh. Asserts nothing.
 * Usage: bench_fft_bare [n=256] [repeats=5] */
#include <fftw3.h>
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

/* Seconds of the bare alternative; negative on failure. */
static double bare(int64_t n, int is_float, void *out, double *sink)
{
    const int64_t nh = n / 2 + 1;
    const double t0 = now();
    fftw_complex *c = fftw_malloc(sizeof(fftw_complex) * (size_t)(n * n * nh));
    if (!c)
        return -1.0;
    fftw_plan_with_nthreads(omp_get_max_threads());
    fftw_plan p = fftw_plan_dft_c2r_3d((int)n, (int)n, (int)n, c, (double *)c, FFTW_ESTIMATE);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n * n * nh; i++) {
        c[i][0] = (double)((i * 2654435761u) & 1023) * 1e-3;
        c[i][1] = (double)((i * 40503u) & 1023) * 1e-3;
    }
    fftw_execute(p);
    const double *r = (const double *)c;
#pragma omp parallel for schedule(static)
    for (int64_t row = 0; row < n * n; row++)
        for (int64_t i = 0; i < n; i++) {
            if (is_float)
                ((float *)out)[row * n + i] = (float)r[row * 2 * nh + i];
            else
                ((double *)out)[row * n + i] = r[row * 2 * nh + i];
        }
    fftw_destroy_plan(p);
    fftw_free(c);
    const double t = now() - t0;
    *sink += is_float ? ((float *)out)[n] : ((double *)out)[n];
    return t;
}

/* Seconds of tbrf's FFT method; negative on failure. */
static double method(const tbrf_model *m, int64_t n, int is_float, uint64_t r, void *out, double *sink)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.method = TBRF_METHOD_FFT;
    o.periodic = 1;
    o.precision = is_float ? TBRF_FLOAT : TBRF_DOUBLE;
    const double lo[3] = {0, 0, 0}, hi[3] = {(double)n - 1, (double)n - 1, (double)n - 1};
    const double origin[3] = {0, 0, 0}, spacing[3] = {1, 1, 1};
    const int64_t cnt[3] = {n, n, n};
    const double t0 = now();
    tbrf_plan *p = NULL;
    int st = tbrf_make_plan(m, 3, lo, hi, 1.0, 1, &o, &p);
    if (!st)
        st = tbrf_set_grid(p, origin, spacing, cnt);
    if (!st)
        st = tbrf_execute(p, r, out);
    const double t = now() - t0;
    if (st)
        fprintf(stderr, "bench_fft_bare: %s\n", tbrf_plan_message(p));
    tbrf_destroy(p);
    *sink += is_float ? ((float *)out)[n] : ((double *)out)[n];
    return st ? -1.0 : t;
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    const int64_t n = argc > 1 ? atoll(argv[1]) : 256;
    const int reps = argc > 2 && atoi(argv[2]) > 0 ? atoi(argv[2]) : 5;
    cpu_clock = getenv("TBRF_BENCH_CLOCK") && strcmp(getenv("TBRF_BENCH_CLOCK"), "cpu") == 0;
    fftw_init_threads();
    tbrf_model *m = NULL;
    tbrf_model_powerlaw(-3.0, 0.05, 3.0, &m);
    double *out = malloc(sizeof(double) * (size_t)(n * n * n));
    double *q = malloc(sizeof(double) * (size_t)reps);
    if (!out || !q)
        return 1;
    memset(out, 0, sizeof(double) * (size_t)(n * n * n));
    double sink = 0;
    printf("# bench_fft_bare: %lld^3, %d threads, %s seconds, %d repeats; power law k^-3, 0.05 <= k <= 3\n",
           (long long)n, omp_get_max_threads(), cpu_clock ? "CPU" : "wall-clock", reps);
    printf("%-8s %12s %12s %22s\n", "", "tbrf s", "bare s", "tbrf / bare: median");
    for (int f = 1; f >= 0; f--) {
        double bt = 1e30, bb = 1e30;
        for (int r = 0; r < reps; r++) {
            const double a = method(m, n, f, (uint64_t)r, out, &sink), b = bare(n, f, out, &sink);
            if (a < 0 || b < 0)
                return 1;
            q[r] = a / b;
            bt = a < bt ? a : bt;
            bb = b < bb ? b : bb;
        }
        qsort(q, (size_t)reps, sizeof *q, cmp);
        const double med = reps % 2 ? q[reps / 2] : 0.5 * (q[reps / 2 - 1] + q[reps / 2]);
        printf("%-8s %12.4f %12.4f %10.3f [%.3f-%.3f]\n", f ? "float" : "double", bt, bb, med, q[0],
               q[reps - 1]);
        printf("RATIO fft_over_bare_%s %.3f [%.3f-%.3f]\n", f ? "float" : "double", med, q[0], q[reps - 1]);
    }
    fprintf(stderr, "(checksum %g)\n", sink);
    free(q);
    free(out);
    tbrf_model_destroy(m);
    return 0;
}
