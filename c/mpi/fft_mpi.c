/* fft_mpi.c — the distributed FFT engine (fft_mpi.h) and the FFT method
 * over the ranks of a communicator (tbrf_mpi_fft_split_grid,
 * tbrf_mpi_fft_stream of tbrf_mpi.h). Each rank fills the modes of its own
 * k slab through libtbrf (tbrf_fft_modes: the serial method's own code,
 * every mode a function of seed, realization and wavevector), so no seed
 * table is replicated and nothing but the transform's transposes is
 * communicated. */
#include "fft_mpi.h"

#include <stdlib.h>
#include <string.h>

#include "tbrf_mpi.h"

int tbrfi_dfft_make(tbrfi_dfft *f, MPI_Comm comm, int dim, const int64_t n[3])
{
    memset(f, 0, sizeof *f);
    fftw_mpi_init(); /* once per process: FFTW-MPI keeps a flag */
    f->dim = dim;
    f->nx = n[0];
    f->nh = n[0] / 2 + 1;
    f->ny = n[1];
    f->nz = dim == 3 ? n[2] : 1;
    f->rows_per_plane = dim == 3 ? n[1] : 1;
    ptrdiff_t local_n0 = 0, local_0_start = 0, alloc;
    if (dim == 3)
        alloc = fftw_mpi_local_size_3d((ptrdiff_t)f->nz, (ptrdiff_t)f->ny, (ptrdiff_t)f->nh, comm, &local_n0,
                                       &local_0_start);
    else
        alloc = fftw_mpi_local_size_2d((ptrdiff_t)f->ny, (ptrdiff_t)f->nh, comm, &local_n0, &local_0_start);
    f->z0 = local_0_start;
    f->nz_local = local_n0;
    f->alloc = (size_t)(alloc > 0 ? alloc : 1);
    f->C = fftw_alloc_complex(f->alloc);
    int ok = f->C != NULL, all = 0; /* the planner is collective: no rank may leave before it alone */
    if (MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS || !all)
        return -1;
    double *R = (double *)f->C;
    f->c2r = dim == 3 ? fftw_mpi_plan_dft_c2r_3d((ptrdiff_t)f->nz, (ptrdiff_t)f->ny, (ptrdiff_t)f->nx, f->C, R,
                                                 comm, FFTW_ESTIMATE)
                      : fftw_mpi_plan_dft_c2r_2d((ptrdiff_t)f->ny, (ptrdiff_t)f->nx, f->C, R, comm,
                                                 FFTW_ESTIMATE);
    return f->c2r ? 0 : -1;
}

void tbrfi_dfft_c2r(tbrfi_dfft *f)
{
    fftw_execute(f->c2r);
}

int tbrfi_dfft_plan_r2c(tbrfi_dfft *f, MPI_Comm comm)
{
    f->r2c = fftw_mpi_plan_dft_r2c_3d((ptrdiff_t)f->nz, (ptrdiff_t)f->ny, (ptrdiff_t)f->nx,
                                      (double *)f->C, f->C, comm, FFTW_ESTIMATE);
    return f->r2c ? 0 : -1;
}

void tbrfi_dfft_r2c(tbrfi_dfft *f)
{
    fftw_execute(f->r2c);
}

void tbrfi_dfft_free(tbrfi_dfft *f)
{
    if (f->c2r)
        fftw_destroy_plan(f->c2r);
    if (f->r2c)
        fftw_destroy_plan(f->r2c);
    fftw_free(f->C);
    memset(f, 0, sizeof *f);
}

static int check_grid(int dim, const int64_t n[3])
{
    if (dim != 2 && dim != 3)
        return TBRF_ERR_INVALID;
    for (int d = 0; d < dim; d++)
        if (n[d] < 1 || n[d] > INT32_MAX / 2)
            return TBRF_ERR_SIZE;
    return TBRF_OK;
}

int tbrf_mpi_fft_split_grid(MPI_Comm comm, int dim, const int64_t n[3], int64_t start[3], int64_t count[3],
                            int64_t *first)
{
    if (!n || !start || !count || !first)
        return TBRF_ERR_NULL;
    int st = check_grid(dim, n);
    if (st)
        return st;
    fftw_mpi_init();
    ptrdiff_t local_n0 = 0, local_0_start = 0;
    const ptrdiff_t nh = (ptrdiff_t)(n[0] / 2 + 1);
    if (dim == 3)
        fftw_mpi_local_size_3d((ptrdiff_t)n[2], (ptrdiff_t)n[1], nh, comm, &local_n0, &local_0_start);
    else
        fftw_mpi_local_size_2d((ptrdiff_t)n[1], nh, comm, &local_n0, &local_0_start);
    for (int d = 0; d < 3; d++) {
        start[d] = 0;
        count[d] = d < dim ? n[d] : 1;
    }
    start[dim - 1] = local_0_start;
    count[dim - 1] = local_n0;
    *first = (int64_t)local_0_start * (dim == 3 ? n[0] * n[1] : n[0]);
    return TBRF_OK;
}

/* Rows of padded doubles (2 nh a row) made the rows of nx values they
 * start with, in place and in row order: row r's values end at or below
 * where its own doubles start once r >= 1 (4 or 8 bytes nx (r + 1) <=
 * 16 nh r), and row 0 is moved before row 1 is written. */
static void compact_rows(tbrfi_dfft *f, int64_t rows, int precision)
{
    const double *R = (const double *)f->C;
    const int64_t nx = f->nx, stride = 2 * f->nh;
    for (int64_t row = 0; row < rows; row++) {
        const double *src = R + row * stride;
        if (precision == TBRF_FLOAT) {
            float *dst = (float *)f->C + row * nx;
            for (int64_t i = 0; i < nx; i++) /* ascending: dst[i] never passes src[i] */
                dst[i] = (float)src[i];
        } else
            memmove((double *)f->C + row * nx, src, sizeof(double) * (size_t)nx);
    }
}

/* Component c of the transformed slab into every ncomp-th value of out. */
static void scatter_rows(const tbrfi_dfft *f, int64_t rows, int precision, int ncomp, int c, void *out)
{
    const double *R = (const double *)f->C;
    const int64_t nx = f->nx, stride = 2 * f->nh;
    for (int64_t row = 0; row < rows; row++)
        for (int64_t i = 0; i < nx; i++) {
            const int64_t at = (row * nx + i) * ncomp + c;
            if (precision == TBRF_FLOAT)
                ((float *)out)[at] = (float)R[row * stride + i];
            else
                ((double *)out)[at] = R[row * stride + i];
        }
}

/* This rank's cells, `values` (rows x nx cells of ncomp values), pushed in
 * pieces of whole rows of about step cells from global cell first on. */
static int push_rows(const void *values, int64_t rows, int64_t nx, size_t cell_bytes, int64_t first,
                     int64_t step, tbrf_push_fn push, void *user)
{
    const int64_t per = step / nx > 0 ? step / nx : 1;
    for (int64_t row = 0; row < rows; row += per) {
        const int64_t k = rows - row < per ? rows - row : per;
        if (push(user, first + row * nx, k * nx, (const char *)values + cell_bytes * (size_t)(row * nx)))
            return TBRF_ERR_CALLBACK;
    }
    return TBRF_OK;
}

/* Every component transformed (each an agreement, then the collective
 * transform); the field of this rank's planes left in out, or for a
 * scalar in the slab's own memory (*values). */
static int transform_all(MPI_Comm comm, tbrf_plan *plan, const int64_t n[3], tbrfi_dfft *f, int precision,
                         int ncomp, int vector, uint64_t r, void **values, void **out)
{
    const int64_t rows = f->nz_local * f->rows_per_plane;
    const size_t elt = precision == TBRF_FLOAT ? sizeof(float) : sizeof(double);
    *out = NULL;
    if (vector && rows > 0 && !(*out = malloc(elt * (size_t)(ncomp * rows * f->nx))))
        return tbrf_mpi_agree(comm, TBRF_ERR_NO_MEMORY);
    for (int c = 0; c < ncomp; c++) {
        int st = tbrf_fft_modes(plan, n, r, vector ? c : -1, f->z0 * f->rows_per_plane, rows,
                                (double *)f->C);
        if ((st = tbrf_mpi_agree(comm, st)))
            return st;
        tbrfi_dfft_c2r(f);
        if (vector)
            scatter_rows(f, rows, precision, ncomp, c, *out);
    }
    if (!vector)
        compact_rows(f, rows, precision);
    *values = vector ? *out : (void *)f->C;
    return TBRF_OK;
}

int tbrf_mpi_fft_stream(MPI_Comm comm, tbrf_plan *plan, const int64_t n[3], int precision, int vector,
                        uint64_t realization, int64_t step, tbrf_push_fn push, void *user)
{
    /* every check ends in the agreement: a rank that returned alone
     * would leave the others waiting in it */
    tbrf_plan_info info = {0};
    int st = !plan || !n || !push ? TBRF_ERR_NULL : tbrf_plan_get_info(plan, &info);
    if (!st && tbrf_plan_method(plan) != TBRF_METHOD_FFT)
        st = TBRF_ERR_UNSUPPORTED;
    if (!st && (precision != TBRF_FLOAT && precision != TBRF_DOUBLE))
        st = TBRF_ERR_INVALID;
    if (!st)
        st = check_grid(info.dim, n);
    if ((st = tbrf_mpi_agree(comm, st)))
        return st;
    tbrfi_dfft f;
    st = tbrf_mpi_agree(comm, tbrfi_dfft_make(&f, comm, info.dim, n) ? TBRF_ERR_NO_MEMORY : TBRF_OK);
    const int ncomp = vector ? info.dim : 1;
    void *values = NULL, *out = NULL;
    if (!st)
        st = transform_all(comm, plan, n, &f, precision, ncomp, vector, realization, &values, &out);
    if (!st) {
        const size_t cell = (precision == TBRF_FLOAT ? sizeof(float) : sizeof(double)) * (size_t)ncomp;
        const int64_t first = f.z0 * f.rows_per_plane * f.nx;
        st = push_rows(values, f.nz_local * f.rows_per_plane, f.nx, cell, first, step, push, user);
    }
    free(out);
    tbrfi_dfft_free(&f);
    return st;
}
