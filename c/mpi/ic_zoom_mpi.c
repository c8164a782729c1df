/* ic_zoom_mpi.c — a zoom (multi-resolution) cosmological IC over the
 * ranks of a communicator (tbrf_ic_zoom_make_mpi, tbrf_mpi.h):
 * tbrf_ic_zoom_make's steps (tbrf/ic.h) with each level's IC made a z
 * slab a rank (tbrf_ic_zoom_level_make's slab, tbrf_ic_cosmo_generate_mpi),
 * so the level that costs, the whole box at the finest spacing, is spread
 * over the ranks. Each rank keeps its rows' particles of the level's
 * cells; rank 0 gathers them level by level in rank order, which is the
 * serial order: the ranks' slabs, and so their rows, rise with rank. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tbrf_mpi.h"

/* Rows a member of a level's run holds at most: its chunk buffers stay
 * small beside the slab (tbrf_ic_zoom_make's chunk size). */
#define ZOOM_MPI_MEMBER_ROWS ((int64_t)1 << 20)

/* Level l's particles a side of L levels: G r / 2^(L - l), G for level 0
 * (tbrf_ic_zoom_params' levels). */
static int64_t level_side(const tbrf_ic_cosmo_params *p, const tbrf_ic_zoom_params *z, int l)
{
    const int levels = z->levels > 0 ? z->levels : 1;
    return l == 0 ? p->particles : p->particles * ((int64_t)z->refinement >> (levels - l));
}

/* The members of a level of g^3 rows: one a rank at least (every rank
 * with planes needs one), else near ZOOM_MPI_MEMBER_ROWS each. */
static int level_members(int64_t g, int size)
{
    const int64_t n = g * g * g, want = (n + ZOOM_MPI_MEMBER_ROWS - 1) / ZOOM_MPI_MEMBER_ROWS;
    const int64_t f = want > size ? want : size;
    return f > 65536 ? 65536 : (int)f;
}

/* This rank's row counts of one field gathered on rank 0 into all
 * (counts: each rank's values, at: their offsets), 0 from rank 0 itself. */
static int gather_field(MPI_Comm comm, const void *mine, int count, void *all, const int *counts,
                        const int *at, MPI_Datatype type)
{
    return MPI_Gatherv(mine, count, type, all, counts, at, type, 0, comm) == MPI_SUCCESS
               ? TBRF_OK : TBRF_ERR_INVALID;
}

/* Rank r's count k ns[r] of values and its offset, for MPI_Gatherv. */
static void offsets(const int64_t *ns, int size, int k, int *counts, int *at)
{
    for (int r = 0; r < size; r++) {
        counts[r] = (int)(k * ns[r]);
        at[r] = r == 0 ? 0 : at[r - 1] + counts[r - 1];
    }
}

/* Type t's rows of this level, held by the other ranks, appended on rank
 * 0 in rank order after its own. */
static int gather_type(MPI_Comm comm, int rank, int size, tbrf_ic_zoom *z, int type,
                       int with_u, int with_mass)
{
    tbrf_ic_zoom_part mine = {0, NULL, NULL, NULL, NULL, NULL};
    int st = rank == 0 ? TBRF_OK : tbrf_ic_zoom_particles(z, type, &mine);
    int64_t n = st == TBRF_OK ? mine.n : 0, *ns = rank == 0 ? calloc((size_t)size, sizeof *ns) : NULL;
    if (rank == 0 && !ns)
        st = TBRF_ERR_NO_MEMORY;
    if (MPI_Gather(&n, 1, MPI_INT64_T, ns, 1, MPI_INT64_T, 0, comm) != MPI_SUCCESS)
        st = TBRF_ERR_INVALID;
    int64_t total = 0;
    int *counts = NULL, *at = NULL;
    for (int r = 0; rank == 0 && st == TBRF_OK && r < size; r++)
        total += ns[r];
    /* MPI counts are int: 3 values a row */
    if (rank == 0 && st == TBRF_OK && total > INT_MAX / 3)
        st = TBRF_ERR_SIZE;
    uint64_t budget = 0;
    const double bytes = (double)total * (7.0 + with_u + with_mass) * 8.0;
    if (rank == 0 && st == TBRF_OK &&
        (tbrf_memory_budget(&budget) != TBRF_OK || bytes > (double)budget))
        st = TBRF_ERR_SIZE;
    double *pos = NULL, *vel = NULL, *u = NULL, *mass = NULL;
    int64_t *row = NULL;
    if (rank == 0 && st == TBRF_OK) {
        const size_t m = (size_t)(total > 0 ? total : 1);
        counts = malloc(2 * (size_t)size * sizeof *counts);
        at = counts ? counts + size : NULL;
        pos = malloc(3 * m * sizeof *pos);
        vel = malloc(3 * m * sizeof *vel);
        row = malloc(m * sizeof *row);
        u = with_u ? malloc(m * sizeof *u) : NULL;
        mass = with_mass ? malloc(m * sizeof *mass) : NULL;
        if (!counts || !pos || !vel || !row || (with_u && !u) || (with_mass && !mass))
            st = TBRF_ERR_NO_MEMORY;
    }
    /* every rank learns whether rank 0 can take them before sending */
    st = tbrf_mpi_agree(comm, st);
    const int n1 = (int)n, n3 = 3 * n1;
    if (st == TBRF_OK && rank == 0)
        offsets(ns, size, 3, counts, at);
    if (st == TBRF_OK)
        st = gather_field(comm, mine.pos, n3, pos, counts, at, MPI_DOUBLE);
    if (st == TBRF_OK)
        st = gather_field(comm, mine.vel, n3, vel, counts, at, MPI_DOUBLE);
    if (st == TBRF_OK && rank == 0)
        offsets(ns, size, 1, counts, at);
    if (st == TBRF_OK)
        st = gather_field(comm, mine.row, n1, row, counts, at, MPI_INT64_T);
    if (st == TBRF_OK && with_u)
        st = gather_field(comm, mine.u, n1, u, counts, at, MPI_DOUBLE);
    if (st == TBRF_OK && with_mass)
        st = gather_field(comm, mine.mass, n1, mass, counts, at, MPI_DOUBLE);
    if (rank == 0 && st == TBRF_OK && total > 0) {
        const tbrf_ic_zoom_part all = {total, pos, vel, u, mass, row};
        st = tbrf_ic_zoom_append(z, type, &all);
    }
    free(ns);
    free(counts);
    free(pos);
    free(vel);
    free(row);
    free(u);
    free(mass);
    return tbrf_mpi_agree(comm, st);
}

/* Level l over the ranks: its slab, its run, its rows gathered. */
static int run_level(MPI_Comm comm, int rank, int size, tbrf_ic_zoom *z,
                     const tbrf_ic_cosmo_params *p, const tbrf_ic_zoom_params *region, int l)
{
    const int levels = region->levels > 0 ? region->levels : 1;
    const int64_t g = level_side(p, region, l);
    const int files = level_members(g, size);
    int64_t z0 = 0, planes = 0, rows = 0, *bounds = malloc(((size_t)files + 1) * sizeof *bounds);
    int member0 = 0, members = 0;
    int st = tbrf_mpi_agree(comm, bounds ? TBRF_OK : TBRF_ERR_NO_MEMORY);
    if (st == TBRF_OK)
        st = tbrf_mpi_agree(comm, tbrf_mpi_ic_split(comm, g, files, &z0, &planes, &member0,
                                                    &members, bounds));
    for (int f = member0; st == TBRF_OK && f < member0 + members; f++)
        rows = bounds[f + 1] - bounds[f] > rows ? bounds[f + 1] - bounds[f] : rows;
    free(bounds);
    tbrf_ic_cosmo *ic = NULL;
    /* a rank without planes still takes part: a slab of one plane's budget */
    if (st == TBRF_OK)
        st = tbrf_mpi_agree(comm, tbrf_ic_zoom_level_make(z, l, planes > 0 ? planes : 1, rows,
                                                          &ic));
    if (st == TBRF_OK)
        st = tbrf_ic_cosmo_generate_mpi(comm, ic, files, tbrf_ic_zoom_take, z);
    tbrf_ic_cosmo_destroy(ic);
    const int masses = levels > 1;
    for (int t = 0; st == TBRF_OK && t < 3; t++)
        if (t != 0 || (p->gas && l == levels))
            st = gather_type(comm, rank, size, z, t, t == 0, t == 2 && masses);
    return st;
}

int tbrf_ic_zoom_make_mpi(MPI_Comm comm, const tbrf_ic_cosmo_params *parent,
                          const tbrf_ic_zoom_params *zoom, tbrf_ic_zoom **out)
{
    if (!out)
        return TBRF_ERR_NULL;
    *out = NULL;
    int rank = 0, size = 1;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return TBRF_ERR_INVALID;
    int st = tbrf_mpi_agree(comm, tbrf_ic_zoom_begin(parent, zoom, rank == 0, 0.0, out));
    const int levels = st == TBRF_OK && zoom->levels > 0 ? zoom->levels : 1;
    for (int l = 0; st == TBRF_OK && l <= levels; l++)
        st = run_level(comm, rank, size, *out, parent, zoom, l);
    if (st == TBRF_OK)
        st = tbrf_mpi_agree(comm, tbrf_ic_zoom_finish(*out));
    return st;
}
