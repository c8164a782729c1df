/* test_fft_mpi.c — tbrf_mpi_fft_stream and tbrf_mpi_fft_split_grid of
 * libtbrf_mpi, run under mpirun (3 ranks in ctest; any count works):
 *  - the ranks' slabs cover the grid exactly once, in FFTW-MPI's blocks of
 *    ceil(n_z / size) planes;
 *  - each rank pushes exactly its own cells (global numbers, whole rows,
 *    at most `step` cells a push), and the cells of all ranks together are
 *    the serial plan's float field bitwise and its double field within
 *    2 log2(N) eps max|f| (3D scalar, 3D vector, 2D scalar);
 *  - a turning-bands plan: TBRF_ERR_UNSUPPORTED on every rank; a push that
 *    fails: TBRF_ERR_CALLBACK on that rank. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_test.h"
#include "tbrf_mpi.h"

typedef struct sink {
    double *all;   /* the whole grid's values, this rank's cells filled */
    int ncomp, isf, fail_at;
    int64_t first, count, step, pushes, bad;
} sink;

static int push(void *user, int64_t first, int64_t count, const void *values)
{
    sink *s = user;
    if (s->pushes++ == s->fail_at)
        return 1;
    if (first != s->first + s->count || count > s->step)
        s->bad++;
    for (int64_t i = 0; i < count * s->ncomp; i++)
        s->all[first * s->ncomp + i] = s->isf ? (double)((const float *)values)[i] : ((const double *)values)[i];
    s->count += count;
    return 0;
}

static tbrf_plan *make(const tbrf_model *m, int dim, int method, int vector, int precision,
                       const int64_t n[3])
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.method = method;
    o.vector = vector;
    o.precision = precision;
    o.threads = 1;
    const double lo[3] = {0, 0, 0}, hi[3] = {64, 64, 64}, sp[3] = {1, 1, 1};
    tbrf_plan *p = NULL;
    if (tbrf_make_plan(m, dim, lo, hi, 1.0, 11, &o, &p) || tbrf_set_grid(p, lo, sp, n))
        fprintf(stderr, "rank %d: plan: %s\n", rank, tbrf_plan_message(p));
    return p;
}

/* The distributed field of (dim, n, vector, precision) against the serial
 * plan's, on every rank. */
static void check_field(const tbrf_model *m, int dim, const int64_t n[3], int vector, int precision)
{
    const int ncomp = vector ? dim : 1, isf = precision == TBRF_FLOAT;
    const int64_t N = n[0] * n[1] * (dim == 3 ? n[2] : 1), step = 3 * n[0] + 1;
    int64_t start[3], count[3], first, total = 0;
    check(tbrf_mpi_fft_split_grid(MPI_COMM_WORLD, dim, n, start, count, &first) == TBRF_OK, "split");
    const int64_t mine = count[0] * count[1] * count[2];
    MPI_Allreduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    const int64_t block = (n[dim - 1] + size - 1) / size;
    check(total == N && start[dim - 1] == (rank * block < n[dim - 1] ? rank * block : start[dim - 1]),
          "the slabs cover the grid once, in blocks of ceil(n / size) planes");
    sink s = {calloc((size_t)(N * ncomp), sizeof(double)), ncomp, isf, -1, first, 0, step, 0, 0};
    tbrf_plan *p = make(m, dim, TBRF_METHOD_FFT, vector, precision, n);
    check(tbrf_mpi_fft_stream(MPI_COMM_WORLD, p, n, precision, vector != TBRF_SCALAR, 5, step, push, &s) ==
              TBRF_OK, "fft_stream");
    check(s.count == mine && s.bad == 0, "each rank pushed its own cells in order, whole rows of at most step");
    double *sum = malloc(sizeof(double) * (size_t)(N * ncomp));
    MPI_Allreduce(s.all, sum, (int)(N * ncomp), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    void *ref = malloc(sizeof(double) * (size_t)(N * ncomp));
    check(tbrf_execute(p, 5, ref) == TBRF_OK, "serial execute");
    double dmax = 0.0, amax = 0.0;
    int same = 1;
    for (int64_t i = 0; i < N * ncomp; i++) {
        const double r = isf ? (double)((float *)ref)[i] : ((double *)ref)[i];
        same &= r == sum[i];
        dmax = fmax(dmax, fabs(r - sum[i]));
        amax = fmax(amax, fabs(r));
    }
    char what[160];
    snprintf(what, sizeof what, "%dD %s %s: the serial field (max diff %.3g)", dim, vector ? "vector" : "scalar",
             isf ? "float, bitwise" : "double, within the bound", dmax);
    check(amax > 0 && (isf ? same : dmax <= 2.0 * log2((double)N) * 0x1p-52 * amax), what);
    free(s.all);
    free(sum);
    free(ref);
    tbrf_destroy(p);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    tbrf_model *m = NULL;
    tbrf_model_gaussian(3.0, &m);
    const int64_t n3[3] = {24, 18, 13}, n2[3] = {40, 31, 1};
    check_field(m, 3, n3, TBRF_SCALAR, TBRF_FLOAT);
    check_field(m, 3, n3, TBRF_SCALAR, TBRF_DOUBLE);
    check_field(m, 3, n3, TBRF_VECTOR_SOLENOIDAL, TBRF_FLOAT);
    check_field(m, 2, n2, TBRF_SCALAR, TBRF_DOUBLE);
    tbrf_plan *p = make(m, 3, TBRF_METHOD_TB, TBRF_SCALAR, TBRF_DOUBLE, n3);
    sink s = {calloc(24 * 18 * 13, sizeof(double)), 1, 0, -1, 0, 0, 1 << 20, 0, 0};
    check(tbrf_mpi_fft_stream(MPI_COMM_WORLD, p, n3, TBRF_DOUBLE, 0, 0, 1 << 20, push, &s) ==
              TBRF_ERR_UNSUPPORTED, "turning bands: UNSUPPORTED on every rank");
    tbrf_destroy(p);
    p = make(m, 3, TBRF_METHOD_FFT, TBRF_SCALAR, TBRF_DOUBLE, n3);
    int64_t st3[3], c3[3], f3;
    tbrf_mpi_fft_split_grid(MPI_COMM_WORLD, 3, n3, st3, c3, &f3);
    s.first = f3;
    s.fail_at = rank == 1 ? 0 : -1;
    const int st = tbrf_mpi_fft_stream(MPI_COMM_WORLD, p, n3, TBRF_DOUBLE, 0, 0, 1 << 20, push, &s);
    check(rank == 1 ? st == TBRF_ERR_CALLBACK : st == TBRF_OK, "a failing push: CALLBACK on its rank");
    free(s.all);
    tbrf_destroy(p);
    tbrf_model_destroy(m);
    if (rank == 0)
        printf("test_fft_mpi: %d of %d checks failed on %d ranks\n", failures, checks, size);
    MPI_Finalize();
    return failures ? 1 : 0;
}
