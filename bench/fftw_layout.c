/* bench/fftw_layout.c — CPU seconds of one in-place n^3 c2r and r2c
 * transform in double precision, one thread, FFTW_ESTIMATE: FFTW's serial
 * 3-d plan (the layout tbrf's cosmological ICs use, c/apps/ic/cosmo_lpt.c)
 * against two with the k-space layout transposed (the two slowest axes
 * swapped): FFTW-MPI's plan on one rank (FFTW_MPI_TRANSPOSED_IN / _OUT,
 * as monofonIC plans every grid when built with MPI), and serial FFTW
 * alone: 2-d transforms of the planes, a blocked swap of the rows, and
 * 1-d transforms along the then middle axis. The serial transposed modes
 * are checked against the 3-d plan's, and its inverse against the field.
 * With MEASURE set in the environment the serial 3-d plans are
 * FFTW_MEASURE (their planning time is not counted). Stand-alone, outside
 * CMake (doc/benchmarks-log.md, "Cosmological ICs against monofonIC, one
 * thread"):
 *
 *   mpicc -O2 bench/fftw_layout.c -o fftw_layout -lfftw3_mpi -lfftw3 -lm
 *   ./fftw_layout N [REPS]
 *
 * Prints the mean CPU seconds a transform of each, the ratios 3-d /
 * transposed, and the two differences; exits 2 on bad arguments, 1 when
 * memory or a plan is missing. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#include <fftw3-mpi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The serial transposed transform: planes (2-d over the two fastest
 * axes), the swap, lines (1-d along the middle axis after the swap). */
typedef struct {
    fftw_plan planes, lines;
    int n, nh;
} split_plan;

/* Row (i, j) <-> row (j, i) of the n x n rows of nh complex numbers:
 * [i0][i1][k] becomes [i1][i0][k]; blocks of 8 x 8 rows for the cache. */
static void swap_rows(fftw_complex *a, int n, int nh, fftw_complex *tmp)
{
    const size_t row = (size_t)nh * sizeof *a;
    for (int ib = 0; ib < n; ib += 8)
        for (int jb = ib; jb < n; jb += 8)
            for (int i = ib; i < ib + 8 && i < n; i++)
                for (int j = jb == ib ? i + 1 : jb; j < jb + 8 && j < n; j++) {
                    fftw_complex *x = a + ((size_t)i * n + j) * nh;
                    fftw_complex *y = a + ((size_t)j * n + i) * nh;
                    memcpy(tmp, x, row);
                    memcpy(x, y, row);
                    memcpy(y, tmp, row);
                }
}

/* forward: r2c, real [i0][i1][i2] (padded rows) to modes [k1][k0][k2];
 * else c2r from that layout. 0 when FFTW made no plan. */
static int split_make(split_plan *s, int n, fftw_complex *a, int forward)
{
    const int nh = n / 2 + 1, np = 2 * nh, n2[2] = {n, n}, re[2] = {n, np}, ce[2] = {n, nh};
    s->n = n;
    s->nh = nh;
    s->planes = forward ? fftw_plan_many_dft_r2c(2, n2, n, (double *)a, re, 1, n * np, a, ce, 1,
                                                 n * nh, FFTW_ESTIMATE)
                        : fftw_plan_many_dft_c2r(2, n2, n, a, ce, 1, n * nh, (double *)a, re, 1,
                                                 n * np, FFTW_ESTIMATE);
    fftw_iodim line = {n, nh, nh}, loops[2] = {{n, n * nh, n * nh}, {nh, 1, 1}};
    s->lines = fftw_plan_guru_dft(1, &line, 2, loops, a, a, forward ? FFTW_FORWARD : FFTW_BACKWARD,
                                  FFTW_ESTIMATE);
    return s->planes && s->lines;
}

static void split_run(const split_plan *s, fftw_complex *a, int forward, fftw_complex *tmp)
{
    if (forward) {
        fftw_execute(s->planes);
        swap_rows(a, s->n, s->nh, tmp);
        fftw_execute(s->lines);
    } else {
        fftw_execute(s->lines);
        swap_rows(a, s->n, s->nh, tmp);
        fftw_execute(s->planes);
    }
}

/* CPU seconds of one transposed transform: the serial split s on b, or
 * (s NULL) the FFTW-MPI plan p. */
static double transposed(const split_plan *s, fftw_plan p, fftw_complex *b, int forward,
                         fftw_complex *tmp)
{
    const double t0 = cpu_seconds();
    if (s)
        split_run(s, b, forward, tmp);
    else
        fftw_execute(p);
    return cpu_seconds() - t0;
}

/* a: the real field of a few modes, the same every time */
static void fill(fftw_complex *a, size_t count)
{
    double *r = (double *)a;
    for (size_t i = 0; i < 2 * count; i++)
        r[i] = sin(0.37 * (double)(i % 1013)) + cos(0.011 * (double)(i % 7919));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    fftw_mpi_init();
    const int n = argc > 1 ? atoi(argv[1]) : 0, reps = argc > 2 ? atoi(argv[2]) : 3;
    if (n < 4 || n > 2048 || reps < 1) {
        fprintf(stderr, "usage: fftw_layout N [REPS] (4 <= N <= 2048, REPS >= 1)\n");
        MPI_Finalize();
        return 2;
    }
    const size_t count = (size_t)n * (size_t)n * (size_t)(n / 2 + 1);
    fftw_complex *a = fftw_malloc(count * sizeof *a);
    if (!a) {
        fprintf(stderr, "fftw_layout: no memory for %zu modes\n", count);
        MPI_Finalize();
        return 1;
    }
    fftw_complex *b = fftw_malloc(count * sizeof *b), *tmp = fftw_malloc((n / 2 + 1) * sizeof *tmp);
    const unsigned serial = getenv("MEASURE") ? FFTW_MEASURE : FFTW_ESTIMATE;
    fftw_plan plans[4] = {
        fftw_plan_dft_c2r_3d(n, n, n, a, (double *)a, serial),
        fftw_plan_dft_r2c_3d(n, n, n, (double *)a, a, serial),
        fftw_mpi_plan_dft_c2r_3d(n, n, n, a, (double *)a, MPI_COMM_WORLD,
                                 FFTW_ESTIMATE | FFTW_MPI_TRANSPOSED_IN),
        fftw_mpi_plan_dft_r2c_3d(n, n, n, (double *)a, a, MPI_COMM_WORLD,
                                 FFTW_ESTIMATE | FFTW_MPI_TRANSPOSED_OUT)};
    split_plan sb, sf;
    int ok = b && tmp && split_make(&sb, n, b, 0) && split_make(&sf, n, b, 1);
    for (int i = 0; i < 4; i++)
        ok = ok && plans[i];
    if (!ok) {
        fprintf(stderr, "fftw_layout: no memory, or FFTW made no plan, for n = %d\n", n);
        MPI_Finalize();
        return 1;
    }
    /* t: 3-d c2r, r2c, MPI c2r, r2c, split c2r, r2c */
    double t[6] = {0, 0, 0, 0, 0, 0}, diff = 0, inv = 0, t0;
    const int nh = n / 2 + 1;
    for (int r = 0; r < reps; r++) {
        for (int k = 0; k < 2; k++) { /* MPI's, then the serial split's, after the 3-d plan's */
            fill(a, count);
            t0 = cpu_seconds();
            fftw_execute(plans[1]);
            t[1] += cpu_seconds() - t0;
            t0 = cpu_seconds();
            fftw_execute(plans[0]);
            t[0] += cpu_seconds() - t0;
            fftw_complex *c = k ? b : a;
            fill(c, count);
            t[3 + 2 * k] += transposed(k ? &sf : NULL, plans[3], b, 1, tmp);
            if (k) { /* the split's modes b[k1][k0][k2] against the 3-d plan's a[k0][k1][k2] */
                fill(a, count);
                fftw_execute(plans[1]);
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < n; j++)
                        for (int m = 0; m < nh; m++) {
                            const double *x = a[((size_t)i * n + j) * nh + m];
                            const double *y = b[((size_t)j * n + i) * nh + m];
                            diff = fmax(diff, hypot(x[0] - y[0], x[1] - y[1]) / (1 + hypot(x[0], x[1])));
                        }
            }
            t[2 + 2 * k] += transposed(k ? &sb : NULL, plans[2], b, 0, tmp);
            if (k) { /* the split's inverse: back to n^3 times the field */
                fill(a, count);
                const double *x = (const double *)a, *y = (const double *)b, n3 = (double)n * n * n;
                for (size_t i = 0; i < (size_t)n * n; i++)
                    for (int m = 0; m < n; m++)
                        inv = fmax(inv, fabs(y[i * 2 * nh + m] / n3 - x[i * 2 * nh + m]));
            }
        }
    }
    for (int i = 0; i < 6; i++)
        t[i] /= (i < 2 ? 2.0 : 1.0) * reps;
    printf("n = %d, %s 3-d plans, CPU s a transform (mean of %d):\n"
           "  c2r 3-d %.3f, FFTW-MPI transposed %.3f (%.2f), serial transposed %.3f (%.2f)\n"
           "  r2c 3-d %.3f, FFTW-MPI transposed %.3f (%.2f), serial transposed %.3f (%.2f)\n"
           "  serial transposed against the 3-d plan: modes' largest relative difference %.1e,\n"
           "  the inverse's largest difference from the field %.1e\n",
           n, serial == FFTW_MEASURE ? "FFTW_MEASURE" : "FFTW_ESTIMATE", reps, t[0], t[2], t[0] / t[2],
           t[4], t[0] / t[4], t[1], t[3], t[1] / t[3], t[5], t[1] / t[5], diff, inv);
    for (int i = 0; i < 4; i++)
        fftw_destroy_plan(plans[i]);
    fftw_destroy_plan(sb.planes);
    fftw_destroy_plan(sb.lines);
    fftw_destroy_plan(sf.planes);
    fftw_destroy_plan(sf.lines);
    fftw_free(tmp);
    fftw_free(b);
    fftw_free(a);
    MPI_Finalize();
    return 0;
}
