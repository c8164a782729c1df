/* ic_mpi.c — a cosmological initial condition over the ranks of a
 * communicator (tbrf_mpi_ic_split, tbrf_ic_cosmo_generate_mpi of
 * tbrf_mpi.h): each rank holds the z slab of the lattice that the
 * distributed FFT engine gives it (fft_mpi.c, through
 * tbrf_mpi_fft_stream: the same modes as the serial plan, each a
 * function of seed and wavevector alone) and turns its Psi1 into its
 * particles with libtbrf's own code (tbrf_ic_cosmo_push_rows), so only
 * the transform's transposes are communicated. */
#include <stdlib.h>
#include <string.h>

#include <fftw3-mpi.h>

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

/* The push of tbrf_mpi_fft_stream: this rank's whole slab of Psi1 in one
 * piece (step: all its cells), cut into its members. */
typedef struct ic_slab {
    tbrf_ic_cosmo *ic;
    int member0, members;
    const int64_t *bounds;
    tbrf_ic_push_fn push;
    void *user;
    int status;
} ic_slab;

static int slab_push(void *user, int64_t first, int64_t count, const void *values)
{
    ic_slab *s = user;
    const double *psi = values;
    for (int f = s->member0; f < s->member0 + s->members && s->status == TBRF_OK; f++) {
        const int64_t a = s->bounds[f], b = s->bounds[f + 1];
        if (a < first || b > first + count) { /* not one piece: the stream changed */
            s->status = TBRF_ERR_INVALID;
            break;
        }
        s->status = tbrf_ic_cosmo_push_rows(s->ic, f, a, b - a, psi + 3 * (a - first), s->push,
                                            s->user);
    }
    return s->status != TBRF_OK;
}

int tbrf_ic_cosmo_generate_mpi(MPI_Comm comm, tbrf_ic_cosmo *ic, int files, tbrf_ic_push_fn push,
                               void *user)
{
    tbrf_ic_cosmo_params p;
    int st = !ic || !push ? TBRF_ERR_NULL : tbrf_ic_cosmo_get_params(ic, &p);
    if (st == TBRF_OK && (p.lpt >= 2 || p.fixed_amplitude || p.glass_n > 0))
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
    const int64_t g = st == TBRF_OK ? p.particles : 0, n[3] = {g, g, g};
    if (st == TBRF_OK) {
        const double dx = p.box / (double)g, origin[3] = {0, 0, 0}, spacing[3] = {dx, dx, dx};
        st = tbrf_mpi_agree(comm, tbrf_set_grid(plan, origin, spacing, n));
    }
    ic_slab s = {ic, member0, members, bounds, push, user, TBRF_OK};
    if (st == TBRF_OK) {
        /* the IC's plan: default (double) precision, a compressive vector */
        const int64_t step = planes > 0 ? planes * g * g : 1;
        st = tbrf_mpi_fft_stream(comm, plan, n, TBRF_DOUBLE, 1, 0, step, slab_push, &s);
        if (st == TBRF_ERR_CALLBACK && s.status != TBRF_OK)
            st = s.status;
        /* a rank without planes pushes nothing: its (empty) members yet */
        for (int f = member0; st == TBRF_OK && planes == 0 && f < member0 + members; f++)
            st = tbrf_ic_cosmo_push_rows(ic, f, bounds[f], 0, NULL, push, user);
        st = tbrf_mpi_agree(comm, st);
    }
    free(bounds);
    return st;
}
