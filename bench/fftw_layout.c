/* bench/fftw_layout.c — CPU seconds of one in-place n^3 c2r and r2c
 * transform in double precision, one thread, FFTW_ESTIMATE: FFTW's serial
 * 3-d plan (the layout tbrf's cosmological ICs use, c/apps/ic/cosmo_lpt.c)
 * against FFTW-MPI's plan on one rank with the k-space layout transposed
 * (FFTW_MPI_TRANSPOSED_IN / _OUT, as monofonIC plans every grid when built
 * with MPI). With MEASURE set in the environment the serial plans are
 * FFTW_MEASURE (their planning time is not counted). Stand-alone, outside
 * CMake (doc/benchmarks-log.md, "Cosmological ICs against monofonIC,
 * one thread"):
 *
 *   mpicc -O2 bench/fftw_layout.c -o fftw_layout -lfftw3_mpi -lfftw3 -lm
 *   ./fftw_layout N [REPS]
 *
 * Prints the mean CPU seconds a transform of each plan and the ratios
 * serial / transposed. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#include <fftw3-mpi.h>
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

/* CPU seconds of one execution of p on a, which is first set to a single
 * mode (the contents do not change the cost; it keeps the data finite). */
static double timed(fftw_plan p, fftw_complex *a, size_t count)
{
    memset(a, 0, count * sizeof *a);
    a[1][0] = 1.0;
    const double t0 = cpu_seconds();
    fftw_execute(p);
    return cpu_seconds() - t0;
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
    const unsigned serial = getenv("MEASURE") ? FFTW_MEASURE : FFTW_ESTIMATE;
    fftw_plan plans[4] = {
        fftw_plan_dft_c2r_3d(n, n, n, a, (double *)a, serial),
        fftw_plan_dft_r2c_3d(n, n, n, (double *)a, a, serial),
        fftw_mpi_plan_dft_c2r_3d(n, n, n, a, (double *)a, MPI_COMM_WORLD,
                                 FFTW_ESTIMATE | FFTW_MPI_TRANSPOSED_IN),
        fftw_mpi_plan_dft_r2c_3d(n, n, n, (double *)a, a, MPI_COMM_WORLD,
                                 FFTW_ESTIMATE | FFTW_MPI_TRANSPOSED_OUT)};
    for (int i = 0; i < 4; i++)
        if (!plans[i]) {
            fprintf(stderr, "fftw_layout: FFTW made no plan %d for n = %d\n", i, n);
            MPI_Finalize();
            return 1;
        }
    double t[4] = {0, 0, 0, 0};
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < 4; i++)
            t[i] += timed(plans[i], a, count) / reps;
    printf("n = %d, %s serial plans, CPU s a transform (mean of %d):\n"
           "  c2r serial %.3f, transposed %.3f (serial / transposed %.2f)\n"
           "  r2c serial %.3f, transposed %.3f (serial / transposed %.2f)\n",
           n, serial == FFTW_MEASURE ? "FFTW_MEASURE" : "FFTW_ESTIMATE", reps, t[0], t[2],
           t[0] / t[2], t[1], t[3], t[1] / t[3]);
    for (int i = 0; i < 4; i++)
        fftw_destroy_plan(plans[i]);
    fftw_free(a);
    MPI_Finalize();
    return 0;
}
