/*
 * tbrf_writer.h — writing grids larger than memory to HDF5 (+ XDMF) or
 * netCDF-4 (CF-1.8) files: the installed face of tbrf's file writer, in the
 * library libtbrf_writer (pkg-config tbrf-writer, CMake tbrf::tbrf_writer).
 *
 * A grid is written in chunks of consecutive cells as they come, x fastest,
 * never whole in memory: tbrf_writer_push has the signature of tbrf_push_fn,
 * so tbrf_execute_grid_stream(plan, realization, tbrf_writer_push, w)
 * streams a field straight to disk (doc/streaming.md, "Grids larger than
 * memory"); a program of its own (a simulation's snapshots) pushes its
 * arrays the same way.
 *
 * Files are written safely: to a temporary next to PATH, renamed to PATH
 * only by tbrf_writer_commit once complete, synced and marked
 * (tbrf_complete = "yes"), with the XDMF side file PATH.xmf published
 * together (HDF5 only, unless TBRF_WRITER_NO_XDMF); closing an uncommitted
 * writer removes the temporary, so a failed run never leaves a file that
 * looks valid (doc/guarantees-outputs.md). The layout is the tbrf
 * command's (doc/design.md, "Files"): /field (nz, ny, nx), float64 or
 * float32, chunked in ~1 MiB slabs of whole rows, so writing in order
 * touches every chunk once. With TBRF_WRITER_NETCDF the same calls write
 * the command's netCDF-4 layout instead: field(z, y, x) with the CF
 * coordinate variables x, y, z and their bounds x_bnds..., Conventions =
 * "CF-1.8", and no XDMF side file (doc/streaming.md lists it). The file
 * records the grid (XDMF in HDF5; the CF coordinates and grid_origin,
 * grid_spacing, grid_counts in netCDF) and tbrf_complete = "yes", not how
 * the values were made: `tbrf generate` records a field's generating
 * parameters, which this writer does not know.
 *
 * Every function returns a tbrf_status; tbrf_writer_message says why a
 * call failed. HDF5's own error printing is off inside every call and
 * restored after it; a netCDF writer first initialises netCDF, which
 * turns HDF5's printing off for the process as a program's own first
 * netCDF call would (so that call and later ones print nothing). Not
 * thread-safe (serial HDF5 and netCDF are not): one thread per writer,
 * one writer at a time.
 */
#ifndef TBRF_WRITER_H
#define TBRF_WRITER_H

#include <stdint.h>
#include "tbrf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tbrf_writer tbrf_writer;

/* tbrf_writer_create flags (or-ed). */
enum tbrf_writer_flags {
    TBRF_WRITER_COMPRESS = 1, /* shuffle + deflate (level 4) */
    TBRF_WRITER_NETCDF = 2,   /* netCDF-4 with CF-1.8 conventions instead of plain HDF5
                                 (CF coordinates, no XDMF side file) */
    TBRF_WRITER_NO_XDMF = 4   /* no PATH.xmf side file (HDF5 only writes one) */
};

/* Starts writing PATH (flags: enum tbrf_writer_flags; TBRF_WRITER_NETCDF
 * for netCDF-4, whatever PATH's extension): creates the temporary file next
 * to it. *writer is set even on failure (NULL only on
 * TBRF_ERR_NO_MEMORY), so tbrf_writer_message can say why; close it in
 * every case. Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (unknown
 * flags), TBRF_ERR_FILE (the directory cannot be written, PATH is a
 * directory or exists and is not a regular file), TBRF_ERR_NO_MEMORY. */
TBRF_API int tbrf_writer_create(const char *path, int flags, tbrf_writer **writer);

/* Declares the grid: n[0] x n[1] x n[2] cells (dim 2: n[2] = 1), cell
 * (i, j, k) at origin + spacing (i, j, k) (for the XDMF and CF
 * coordinates, which netCDF files get here with their bounds), values
 * TBRF_DOUBLE or TBRF_FLOAT. The file's size is checked against the free
 * space only by the file system; the writer's own memory is one chunk
 * cache (16 MiB) whatever the grid (netCDF: and a 1.5 MiB block of
 * coordinates while they are written, whatever an axis's length). Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (dim, precision, spacing not
 * finite and > 0, origin not finite, a grid already declared, a writer whose
 * create failed), TBRF_ERR_SIZE (counts < 1 or overflowing), TBRF_ERR_FILE
 * (the dataset cannot be made). */
TBRF_API int tbrf_writer_grid_begin(tbrf_writer *writer, int dim, const double origin[3],
                                    const double spacing[3], const int64_t n[3], int precision);

/* Writes `count` consecutive cells in x-fastest order from cell number
 * `first` (values double or float as declared). Chunks may start and end
 * anywhere and come in any order, but each cell must be pushed exactly
 * once: a push overlapping an earlier one is refused (TBRF_ERR_FILE, the
 * message naming the first cell it would write twice, nothing written)
 * and commit then refuses the file too. The writer records what was
 * pushed as merged intervals (in-order pushes keep one; the record's
 * growth is checked against the memory budget, TBRF_ERR_FILE beyond it).
 * The signature is tbrf_push_fn's with the writer as `user`. Returns
 * TBRF_OK, or non-zero (TBRF_ERR_NULL, TBRF_ERR_INVALID, TBRF_ERR_FILE)
 * with the reason in tbrf_writer_message; tbrf_execute_grid_stream then
 * stops with TBRF_ERR_CALLBACK. */
TBRF_API int tbrf_writer_push(void *writer, int64_t first, int64_t count, const void *values);

/* Checks that every cell was pushed exactly once (not only that as many
 * were pushed), closes and syncs the file and renames it (and PATH.xmf)
 * into place. On failure the temporary is removed and nothing is
 * published. Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (no grid
 * declared, committed already), TBRF_ERR_FILE (a cell never pushed or
 * pushed twice, named with its x, y[, z]; a write, sync or rename
 * failed). */
TBRF_API int tbrf_writer_commit(tbrf_writer *writer);

/* The reason for the last failure ("" after success; a fixed text for
 * NULL). */
TBRF_API const char *tbrf_writer_message(const tbrf_writer *writer);

/* Frees the writer; an uncommitted file's temporary is removed. NULL is
 * ignored. */
TBRF_API void tbrf_writer_close(tbrf_writer *writer);

#ifdef __cplusplus
}
#endif
#endif /* TBRF_WRITER_H */
