/* tbrf_io_mpi.h — one HDF5 file written by all ranks of an MPI
 * communicator (library tbrf_io_mpi: the sources of tbrf_io compiled with
 * TBRF_IO_MPI against parallel HDF5; doc/mpi.md).
 *
 * A writer made by tbrf_io_create_mpi is collective: every rank of the
 * communicator makes the same calls of tbrf_io.h in the same order with
 * the same arguments (grid_begin, set_components, attach_xdmf, write_meta,
 * commit, close), except for the values: each rank pushes its own cells
 * (tbrf_io_grid_push, global cell numbers, any number of pushes per rank)
 * or points (tbrf_io_points_begin, then tbrf_io_points_push of its rows),
 * then calls tbrf_io_grid_push_done. Pushes are collective rounds in which
 * every rank first learns whether all ranks are fine, so a rank that fails
 * (its evaluation, a bad argument) makes every rank's next push, push_done
 * or commit fail, and the temporary is removed: no file is left. The file
 * is chunked like the serial writer's (collective writes, so compressed
 * datasets work too) and its root attribute mpi_ranks records the number
 * of ranks (1 in every serial file). TBRF_IO_NETCDF (the format "netcdf") writes netCDF-4
 * with the MPI netCDF (nc_create_par, collective access). */
#ifndef TBRF_IO_MPI_H
#define TBRF_IO_MPI_H

#include <mpi.h>

#include "io/tbrf_io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Collective tbrf_io_create: rank 0 checks path and creates the
 * temporary, every rank opens it through MPI-IO. NULL on every rank (with
 * rank 0's reason in err) when any rank fails. */
tbrf_io_writer *tbrf_io_create_mpi(const char *path, int flags, MPI_Comm comm, char *err,
                                   size_t errlen);

/* Collective tbrf_io_create_format: the registry's format `format` (NULL:
 * path's suffix), the same name on every rank. */
tbrf_io_writer *tbrf_io_create_mpi_format(const char *path, const char *format, int flags,
                                          MPI_Comm comm, char *err, size_t errlen);

/* Called by every rank once its cells are pushed (ok = 1) or when it
 * failed (ok = 0): takes part in the remaining push rounds of the other
 * ranks with empty writes. 0 when every rank finished fine, -1 when any
 * failed (then commit fails on every rank and close removes the
 * temporary). A serial writer: 0 if ok. */
int tbrf_io_grid_push_done(tbrf_io_writer *w, int ok);

#ifdef __cplusplus
}
#endif
#endif
