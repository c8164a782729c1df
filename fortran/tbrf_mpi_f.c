/* tbrf_mpi_f.c — the C side of Fortran module tbrf_mpi (tbrf_mpi.f90):
 * each function takes the communicator as Fortran's integer handle (the
 * `mpi` module's integer, mpi_f08's comm%MPI_VAL) and converts it with
 * MPI_Comm_f2c, since an MPI_Comm's C layout is the MPI library's own and
 * cannot be described to Fortran. Hidden: only module tbrf_mpi calls
 * them, from within libtbrf_fortran_mpi. */
#include <mpi.h>

#include "tbrf_mpi.h"

#define TBRF_MPI_F __attribute__((visibility("hidden")))

TBRF_MPI_F int tbrf_mpi_f_split_grid(MPI_Fint comm, int dim, const int64_t n[3], int64_t start[3],
                                     int64_t count[3], int64_t *first)
{
    return tbrf_mpi_split_grid(MPI_Comm_f2c(comm), dim, n, start, count, first);
}

TBRF_MPI_F int tbrf_mpi_f_split_points(MPI_Fint comm, int64_t n, int64_t *first, int64_t *count)
{
    return tbrf_mpi_split_points(MPI_Comm_f2c(comm), n, first, count);
}

TBRF_MPI_F int tbrf_mpi_f_agree(MPI_Fint comm, int status)
{
    return tbrf_mpi_agree(MPI_Comm_f2c(comm), status);
}

TBRF_MPI_F int tbrf_mpi_f_fft_split_grid(MPI_Fint comm, int dim, const int64_t n[3],
                                         int64_t start[3], int64_t count[3], int64_t *first)
{
    return tbrf_mpi_fft_split_grid(MPI_Comm_f2c(comm), dim, n, start, count, first);
}

TBRF_MPI_F int tbrf_mpi_f_fft_stream(MPI_Fint comm, tbrf_plan *plan, const int64_t n[3],
                                     int precision, int vector, uint64_t realization,
                                     int64_t step, tbrf_push_fn push, void *user)
{
    return tbrf_mpi_fft_stream(MPI_Comm_f2c(comm), plan, n, precision, vector, realization, step,
                               push, user);
}

TBRF_MPI_F int tbrf_mpi_f_ic_split(MPI_Fint comm, int64_t particles, int files, int64_t *z0,
                                   int64_t *planes, int *member0, int *members, int64_t *bounds)
{
    return tbrf_mpi_ic_split(MPI_Comm_f2c(comm), particles, files, z0, planes, member0, members,
                             bounds);
}

TBRF_MPI_F int tbrf_mpi_f_ic_cosmo_generate(MPI_Fint comm, tbrf_ic_cosmo *ic, int files,
                                            tbrf_ic_push_fn push, void *user)
{
    return tbrf_ic_cosmo_generate_mpi(MPI_Comm_f2c(comm), ic, files, push, user);
}

TBRF_MPI_F int tbrf_mpi_f_ic_zoom_make(MPI_Fint comm, const tbrf_ic_cosmo_params *parent,
                                       const tbrf_ic_zoom_params *zoom, tbrf_ic_zoom **out)
{
    return tbrf_ic_zoom_make_mpi(MPI_Comm_f2c(comm), parent, zoom, out);
}
