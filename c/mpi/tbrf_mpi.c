/* tbrf_mpi.c — the decomposition helpers of include/tbrf_mpi.h. Nothing
 * here communicates values: ranks only agree on statuses. */
#include "tbrf_mpi.h"

/* Part r of `parts` near-equal contiguous parts of n items. */
static void share(int64_t n, int parts, int r, int64_t *first, int64_t *count)
{
    const int64_t q = n / parts, extra = n % parts;
    *first = (int64_t)r * q + (r < extra ? r : extra);
    *count = q + (r < extra ? 1 : 0);
}

static int rank_size(MPI_Comm comm, int *rank, int *size)
{
    if (MPI_Comm_rank(comm, rank) != MPI_SUCCESS || MPI_Comm_size(comm, size) != MPI_SUCCESS ||
        *size < 1)
        return TBRF_ERR_INVALID;
    return TBRF_OK;
}

int tbrf_mpi_split_grid(MPI_Comm comm, int dim, const int64_t n[3], int64_t start[3], int64_t count[3],
                        int64_t *first)
{
    if (!n || !start || !count || !first)
        return TBRF_ERR_NULL;
    if (dim != 2 && dim != 3)
        return TBRF_ERR_INVALID;
    const int64_t nz = dim == 3 ? n[2] : 1;
    if (n[0] < 1 || n[1] < 1 || nz < 1 || n[0] > INT64_MAX / n[1] || n[0] * n[1] > INT64_MAX / nz)
        return TBRF_ERR_SIZE;
    int rank, size;
    if (rank_size(comm, &rank, &size))
        return TBRF_ERR_INVALID;
    const int slow = dim - 1;
    for (int d = 0; d < 3; d++) {
        start[d] = 0;
        count[d] = d < dim ? n[d] : 1;
    }
    share(n[slow], size, rank, &start[slow], &count[slow]);
    *first = start[slow] * (dim == 3 ? n[0] * n[1] : n[0]);
    return TBRF_OK;
}

int tbrf_mpi_split_points(MPI_Comm comm, int64_t n, int64_t *first, int64_t *count)
{
    if (!first || !count)
        return TBRF_ERR_NULL;
    if (n < 0)
        return TBRF_ERR_SIZE;
    int rank, size;
    if (rank_size(comm, &rank, &size))
        return TBRF_ERR_INVALID;
    share(n, size, rank, first, count);
    return TBRF_OK;
}

int tbrf_mpi_agree(MPI_Comm comm, int status)
{
    int worst = status;
    if (MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS)
        return TBRF_ERR_INVALID;
    return worst;
}
