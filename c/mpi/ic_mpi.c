/* ic_mpi.c — a cosmological initial condition over the ranks of a
 * communicator (tbrf_mpi_ic_split, tbrf_ic_cosmo_generate_mpi of
 * tbrf_mpi.h): each rank holds the z slab of the lattice that the
 * distributed FFT engine gives it (fft_mpi.h; the modes are the serial
 * plan's, tbrf_fft_modes, each a function of seed and wavevector alone)
 * and turns its Psi1 into its
 * particles with libtbrf's own code (tbrf_ic_cosmo_push_rows), so only
 * the transform's transposes are communicated. */
#include <stdlib.h>
#include <string.h>

#include <fftw3-mpi.h>

#include "fft_mpi.h"
#include "tbrf_mpi.h"

/* Part k of `parts` near-equal parts of n: [n k / parts, n (k + 1) / parts)
 * without overflow (parts <= 2^16), tbrf_arepo_file_rows's split. */
static int64_t cut(int64_t n, int64_t k, int64_t parts)
{
    return (n / parts) * k + (n % parts) * k / parts;
}

/* Rank r's planes of G under FFTW-MPI's block split of the G^3 grid's
 * half-complex array (fft_mpi.c makes the same call). */
static void planes_of(MPI_Comm comm, int64_t g, int64_t *z0, int64_t *nz)
{
    ptrdiff_t local_n0 = 0, local_0_start = 0;
    fftw_mpi_init();
    fftw_mpi_local_size_3d((ptrdiff_t)g, (ptrdiff_t)g, (ptrdiff_t)(g / 2 + 1), comm, &local_n0,
                           &local_0_start);
    *z0 = local_0_start;
    *nz = local_n0;
}

int tbrf_mpi_ic_split(MPI_Comm comm, int64_t particles, int files, int64_t *z0, int64_t *planes,
                      int *member0, int *members, int64_t *bounds)
{
    if (!z0 || !planes || !member0 || !members || !bounds)
        return TBRF_ERR_NULL;
    int rank, size;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return TBRF_ERR_INVALID;
    if (particles < 2 || particles > 65536 || files < 1 || files > 65536)
        return TBRF_ERR_SIZE;
    planes_of(comm, particles, z0, planes);
    /* every rank's planes: the ranks with planes are the first ones */
    int64_t mine[2] = {*z0, *planes}, *all = malloc(2 * sizeof(int64_t) * (size_t)size);
    if (!all)
        return TBRF_ERR_NO_MEMORY;
    if (MPI_Allgather(mine, 2, MPI_INT64_T, all, 2, MPI_INT64_T, comm) != MPI_SUCCESS) {
        free(all);
        return TBRF_ERR_INVALID;
    }
    int used = 0;
    while (used < size && all[2 * used + 1] > 0)
        used++;
    int st = files < used ? TBRF_ERR_INVALID : TBRF_OK;
    const int64_t g2 = particles * particles;
    for (int r = 0, f = 0; st == TBRF_OK && r < used; r++) {
        const int take = files / used + (r < files % used);
        const int64_t first = all[2 * r] * g2, rows = all[2 * r + 1] * g2;
        if (r == rank) {
            *member0 = f;
            *members = take;
        }
        for (int k = 0; k < take; k++)
            bounds[f + k] = first + cut(rows, k, take);
        f += take;
    }
    if (st == TBRF_OK && rank >= used) {
        *member0 = files;
        *members = 0;
    }
    bounds[files] = particles * g2;
    free(all);
    return st;
}

/* The three components' modes of this rank's rows (modes[c], rows x nh
 * complex each), made the fixed-amplitude field's (tbrf_ic_cosmo_fixed_modes). */
static int fixed_modes(MPI_Comm comm, tbrf_ic_cosmo *ic, tbrf_plan *plan, const int64_t n[3],
                       const tbrfi_dfft *f, double *modes[3])
{
    const int64_t rows = f->nz_local * f->rows_per_plane, first = f->z0 * f->rows_per_plane;
    const size_t bytes = sizeof(fftw_complex) * (size_t)(rows * f->nh);
    int st = TBRF_OK;
    for (int c = 0; c < 3 && st == TBRF_OK; c++)
        st = (modes[c] = fftw_malloc(bytes > 0 ? bytes : 1)) ? TBRF_OK : TBRF_ERR_NO_MEMORY;
    for (int c = 0; c < 3 && st == TBRF_OK; c++)
        st = tbrf_fft_modes(plan, n, 0, c, first, rows, modes[c]);
    if (st == TBRF_OK)
        st = tbrf_ic_cosmo_fixed_modes(ic, first, rows, modes[0], modes[1], modes[2]);
    return tbrf_mpi_agree(comm, st);
}

/* Psi1 of this rank's planes (3 values a cell, x fastest) into *psi
 * (NULL for a rank without planes): each component's modes of its k slab
 * (tbrf_fft_modes: the serial plan's; with fixed amplitudes all three
 * first, then fixed), the engine's transform, the padded rows taken out;
 * the slab is freed before the particles are made, so a rank holds it
 * beside Psi1 only while it transforms. */
static int slab_psi(MPI_Comm comm, tbrf_ic_cosmo *ic, tbrf_plan *plan, int64_t g, int fixed,
                    double **psi)
{
    const int64_t n[3] = {g, g, g};
    tbrfi_dfft f;
    double *modes[3] = {NULL, NULL, NULL};
    *psi = NULL;
    int st = tbrf_mpi_agree(comm, tbrfi_dfft_make(&f, comm, 3, n) ? TBRF_ERR_NO_MEMORY : TBRF_OK);
    const int64_t rows = f.nz_local * f.rows_per_plane, stride = 2 * f.nh;
    if (st == TBRF_OK && rows > 0 && !(*psi = malloc(sizeof(double) * 3 * (size_t)(rows * g))))
        st = TBRF_ERR_NO_MEMORY;
    st = tbrf_mpi_agree(comm, st);
    if (st == TBRF_OK && fixed)
        st = fixed_modes(comm, ic, plan, n, &f, modes);
    for (int c = 0; c < 3 && st == TBRF_OK; c++) {
        if (fixed)
            memcpy(f.C, modes[c], sizeof(fftw_complex) * (size_t)(rows * f.nh));
        else
            st = tbrf_mpi_agree(comm, tbrf_fft_modes(plan, n, 0, c, f.z0 * f.rows_per_plane,
                                                     rows, (double *)f.C));
        if (st != TBRF_OK)
            break;
        tbrfi_dfft_c2r(&f);
        const double *r = (const double *)f.C;
        for (int64_t row = 0; row < rows; row++)
            for (int64_t i = 0; i < g; i++)
                (*psi)[3 * (row * g + i) + c] = r[row * stride + i];
    }
    for (int c = 0; c < 3; c++)
        fftw_free(modes[c]);
    tbrfi_dfft_free(&f);
    if (st != TBRF_OK) {
        free(*psi);
        *psi = NULL;
    }
    return st;
}

/* This rank's members from its Psi1 (psi: its planes' cells, the first
 * at row `first`), each pushed as its chunk. */
static int push_members(tbrf_ic_cosmo *ic, double *psi, int64_t first, int member0, int members,
                        const int64_t *bounds, tbrf_ic_push_fn push, void *user)
{
    int st = TBRF_OK;
    for (int f = member0; f < member0 + members && st == TBRF_OK; f++)
        st = tbrf_ic_cosmo_push_rows(ic, f, bounds[f], bounds[f + 1] - bounds[f],
                                     psi ? psi + 3 * (bounds[f] - first) : NULL, push, user);
    return st;
}

int tbrf_ic_cosmo_generate_mpi(MPI_Comm comm, tbrf_ic_cosmo *ic, int files, tbrf_ic_push_fn push,
                               void *user)
{
    tbrf_ic_cosmo_params p;
    int st = !ic || !push ? TBRF_ERR_NULL : tbrf_ic_cosmo_get_params(ic, &p);
    if (st == TBRF_OK && (p.lpt >= 2 || p.glass_n > 0))
        st = TBRF_ERR_UNSUPPORTED;
    int64_t z0 = 0, planes = 0, *bounds = NULL;
    int member0 = 0, members = 0;
    if (st == TBRF_OK && (files < 1 || files > 65536))
        st = TBRF_ERR_INVALID;
    if (st == TBRF_OK && !(bounds = malloc(((size_t)files + 1) * sizeof *bounds)))
        st = TBRF_ERR_NO_MEMORY;
    if ((st = tbrf_mpi_agree(comm, st)) == TBRF_OK)
        st = tbrf_mpi_agree(comm, tbrf_mpi_ic_split(comm, p.particles, files, &z0, &planes,
                                                    &member0, &members, bounds));
    tbrf_plan *plan = st == TBRF_OK ? tbrf_ic_cosmo_plan(ic) : NULL;
    const int64_t g = st == TBRF_OK ? p.particles : 0;
    double *psi = NULL;
    if (st == TBRF_OK) {
        const double dx = p.box / (double)g, origin[3] = {0, 0, 0}, spacing[3] = {dx, dx, dx};
        const int64_t n[3] = {g, g, g};
        st = tbrf_mpi_agree(comm, tbrf_set_grid(plan, origin, spacing, n));
    }
    if (st == TBRF_OK)
        st = slab_psi(comm, ic, plan, g, p.fixed_amplitude, &psi);
    if (st == TBRF_OK)
        st = tbrf_mpi_agree(comm, push_members(ic, psi, z0 * g * g, member0, members, bounds,
                                               push, user));
    free(psi);
    free(bounds);
    return st;
}
