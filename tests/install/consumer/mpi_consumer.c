/* mpi_consumer.c — a program outside the source tree that uses the
 * installed libtbrf_mpi: one rank's slab of a grid, which on one rank is
 * the whole grid, and the status agreement. */
#include <mpi.h>
#include <stdio.h>
#include <tbrf.h>
#include <tbrf_mpi.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int64_t n[3] = {8, 6, 5};
    int64_t start[3], count[3], first;
    int st = tbrf_mpi_split_grid(MPI_COMM_WORLD, 3, n, start, count, &first);
    st = tbrf_mpi_agree(MPI_COMM_WORLD, st);
    int whole = size != 1 || (count[0] == 8 && count[1] == 6 && count[2] == 5 && first == 0);
    printf("tbrf_mpi: status %d, %d ranks, slab z %lld + %lld\n", st, size, (long long)start[2],
           (long long)count[2]);
    MPI_Finalize();
    return st == TBRF_OK && whole ? 0 : 1;
}
