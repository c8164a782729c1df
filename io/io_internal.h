/* io_internal.h — helpers shared by the files of io/. Not installed. */
#ifndef TBRF_IO_INTERNAL_H
#define TBRF_IO_INTERNAL_H

#include <stddef.h>
#include <hdf5.h>

/* HDF5 prints its error stack to stderr by default. We switch that off for
 * the duration of each public call and restore the caller's handler on
 * return, so a host program keeps its own setting while our callers get
 * one clear line instead of a stack dump. */
typedef struct io_quiet {
    H5E_auto2_t func;
    void *data;
} io_quiet;

void io_quiet_begin(io_quiet *q);
void io_quiet_end(const io_quiet *q);

/* snprintf into err (if errlen > 0), never overflowing, newlines removed
 * so the message stays one line. */
void io_setf(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The innermost description on HDF5's current error stack (often the
 * reason, e.g. "No space left on device"), shortened to fit; "" if none. */
void io_h5_reason(char *buf, size_t n);

/* Checks that path names something that exists and is no directory, so
 * that "missing" is told apart from "not HDF5". Returns 0, or -1 with
 * "cannot read WHAT file PATH: reason" (what NULL: "cannot read PATH:
 * reason") in err. */
int io_stat_input(const char *path, const char *what, char *err, size_t errlen);

#include <stdint.h>
#include "io/tbrf_io.h"
#ifdef TBRF_IO_MPI
#include <mpi.h>
#endif

/* The writer, shared by writer.c (HDF5 and the common parts: temporary
 * file, rename) and netcdf.c. */
struct tbrf_io_writer {
    char *path;      /* final name */
    char *tmp;       /* temporary name in the same directory */
    int flags;
    hid_t file;      /* -1 when closed */
    hid_t field;     /* /field, -1 if none */
    int precision;   /* of /field */
    int rank;        /* of /field: 2 or 3 */
    int64_t n[3];    /* grid counts, x fastest */
    int64_t total;   /* cells in /field */
    int64_t written; /* cells pushed so far */
    /* What was pushed: cells of /field, rows of /points, times of a
     * series (merged intervals, so in-order pushes keep one); NULL until
     * the first push. */
    struct io_coverage *cells_cover, *pts_cover, *series_cover; /* series.c: its times */
    double unsynced; /* bytes of /field written since writeback was last started */
    int committed;
    char message[1024];
    /* netCDF-4 output (flags & TBRF_IO_NETCDF): ids, -1 when unused. */
    int ncid, nc_field, nc_dimids[3];
    int nc_points_dim, nc_dim;
    const struct io_format_ops *ops; /* HDF5 or netCDF: every format call goes here */
    int open;                        /* the format's file is open (create to close) */
    /* The XDMF side file published with the data (tbrf_io_attach_xdmf):
     * its name, its temporary, what it describes; NULL/0 when none. */
    char *xmf, *xmf_tmp;
    int has_xmf;
    tbrf_io_meta xmf_meta; /* numbers only: strings and table unset */
    /* A series' side file (series.c): its frames' times (NULL: not a
     * series), the origin and spacing its attributes give the grid. */
    double *series_times;
    int64_t series_nt;
    double series_origin[3], series_spacing[3];
    /* Streamed points: count, dimension, precision, rows written;
     * HDF5 datasets (-1 when none). */
    int64_t pts_n, pts_written;
    int pts_dim, pts_precision;
    hid_t pts_dset, val_dset;
    int nc_value; /* netCDF value variable, -1 when none */
    /* Values per position (tbrf_io_set_components): 1, or 2/3 for a
     * vector stored as a last dimension (HDF5) or one variable per
     * component (netCDF: nc_comp, -1 when unused). */
    int ncomp;
    int nc_comp[3], nc_value_comp[3];
    /* Ranks writing the file together (root attribute mpi_ranks): 1 for a
     * serial writer. Under TBRF_IO_MPI (library tbrf_io_mpi, parallel
     * HDF5) a writer of tbrf_io_create_mpi has its communicator: every
     * call is then collective (tbrf_io_mpi.h). */
    int mpi_size;
#ifdef TBRF_IO_MPI
    MPI_Comm comm;   /* MPI_COMM_NULL: a serial writer */
    int mpi_rank;
    int mpi_failed;  /* a round of grid pushes saw a rank fail: no more collectives */
#endif
};

/* 1 for a writer of tbrf_io_create_mpi: every rank makes every call and
 * the data calls are collective (tbrf_io_mpi.h). */
static inline int io_is_parallel(const tbrf_io_writer *w)
{
#ifdef TBRF_IO_MPI
    return w->comm != MPI_COMM_NULL;
#else
    (void)w;
    return 0;
#endif
}

#define IO_FAIL(w, ...) io_setf((w)->message, sizeof (w)->message, __VA_ARGS__)

/* Coverage records (writer.c): every cell or row of [0, total) written
 * exactly once. `what` names a unit in messages: "cell" (named with its
 * x, y[, z] from w->n), "point" or "time". io_cover_overlap is 0 when
 * [first, first + count) holds nothing recorded, else -1 with a message
 * in w naming the first cell written before, and the record remembers it
 * (so commit refuses as well); io_cover_add records it (allocating *c on
 * first use; -1 with a message when the record would exceed the memory
 * budget, after which io_cover_check refuses too); io_cover_check is 0
 * when [0, total) is covered exactly once, else -1 naming the first cell
 * pushed twice or never written; io_cover_free frees. */
struct io_coverage;
int io_cover_overlap(tbrf_io_writer *w, struct io_coverage *c, int64_t first, int64_t count,
                     const char *what);
int io_cover_add(tbrf_io_writer *w, struct io_coverage **c, int64_t first, int64_t count);
int io_cover_check(tbrf_io_writer *w, const struct io_coverage *c, int64_t total, const char *what);
void io_cover_free(struct io_coverage **c);

/* A destination for the metadata attributes, so that the HDF5 and netCDF
 * writers record exactly the same names and values (tbrf regenerate reads
 * them back from either). Each function returns 0 or non-zero. */
typedef struct io_attr_sink {
    void *ctx;
    int (*str)(void *ctx, const char *name, const char *s);
    int (*f64v)(void *ctx, const char *name, const double *v, int count);
    int (*i64v)(void *ctx, const char *name, const int64_t *v, int count);
    int (*u64)(void *ctx, const char *name, uint64_t v);
} io_attr_sink;

/* Writes every attribute of *m through the sink (NULL strings and NaN
 * numbers are left out). Returns 0, or non-zero if any write failed.
 * tbrf_io_read_meta (meta.c, beside it) is its inverse. */
int io_meta_attrs(const io_attr_sink *s, const tbrf_io_meta *m);

/* A string attribute of the root group as a malloc'ed string in *out:
 * 1, 0 if absent (*out NULL), -1 if not a string or out of memory. */
int io_attr_strdup(tbrf_io_file *f, const char *name, char **out);

/* A string attribute already open as a malloc'ed string in *out (see
 * tbrf_io_attr_str for what is accepted): 1, or -1 (*out NULL). */
int io_attr_string(hid_t a, char **out);

/* Datasets larger than IO_STORAGE_FREE bytes must store at least
 * 1/IO_MAX_RATIO of what their shape declares (deflate cannot compress
 * more than about 1032:1), so that a small file cannot make a reader
 * read gigabytes of never-written fill values. */
#define IO_STORAGE_FREE ((double)(1 << 20))
#define IO_MAX_RATIO 4096

/* 0 when dataset d stores at least 1/IO_MAX_RATIO of the `declared` bytes
 * of its shape (io_declared_bytes), else -1 with err naming path and
 * dataset: a never-written dataset is refused before it is read. */
int io_check_storage(hid_t d, const char *path, const char *name, double declared, char *err,
                     size_t errlen);
double io_declared_bytes(hid_t d, hid_t space);
/* 0 when the n points xyz (rows first..first+n-1 of /points) are all
 * finite, else -1 with err naming the first bad row. */
int io_points_finite(const char *path, int64_t first, int64_t n, int dim, const double *xyz,
                     char *err, size_t errlen);

/* Chunk shape (slowest first) of slabs of whole rows, about 1 MiB. */
void io_chunk_shape(int rank, const uint64_t *dims, size_t elt, uint64_t *chunk);

/* The checks of tbrf_io_grid_begin shared by both formats: dim 2 or 3,
 * a known precision, no field yet (`exists`; `field` names it in the
 * message), counts >= 1 whose product fits in int64, nz = 1 in 2D.
 * Returns the number of cells, or -1 with the writer's message set. */
int64_t io_grid_cells(tbrf_io_writer *w, int dim, const int64_t n[3], int precision, int exists,
                      const char *field);

/* The model table of m as malloc'ed rows (k, P), or NULL with "out of
 * memory" as the writer's message. */
double *io_table_rows(tbrf_io_writer *w, const tbrf_io_meta *m);

/* Records the grid just begun: precision, rank, counts, cells, none
 * written yet. */
void io_grid_record(tbrf_io_writer *w, int dim, const int64_t n[3], int precision, int64_t total);

/* What a file format does for the writer. writer.c makes the checks both
 * formats share, then calls through w->ops, so adding a format means
 * filling one of these, not finding every branch. Every slot is filled
 * (a format without an operation has a stub that fails with a message).
 * Each returns 0, or -1 with the writer's message set. */
typedef struct io_format_ops {
    const char *name;
    /* Opens the temporary file w->tmp (it exists, empty); the message
     * names w->path. */
    int (*create)(tbrf_io_writer *w);
    int (*grid_begin)(tbrf_io_writer *w, int dim, const int64_t n[3], int precision);
    /* Cells [first, first + count), count >= 1, inside the grid (count 0
     * too on an MPI writer: the rank's empty part of a collective write;
     * points_push likewise). */
    int (*grid_push)(tbrf_io_writer *w, int64_t first, int64_t count, const void *values);
    int (*write_points)(tbrf_io_writer *w, int dim, int64_t n, const double *xyz);
    int (*write_values)(tbrf_io_writer *w, int64_t n, int precision, const void *values);
    /* The attributes (through io_meta_attrs) and /model_table. */
    int (*write_meta)(tbrf_io_writer *w, const tbrf_io_meta *m);
    /* Closes the file; -1 if the final flush failed. Safe to call twice. */
    int (*close)(tbrf_io_writer *w);
    /* Records on the root group that the file is complete (attribute
     * tbrf_complete = "yes"): called by tbrf_io_commit alone, last before
     * the close, so a file without it was never committed. */
    int (*mark_complete)(tbrf_io_writer *w);
    /* Streamed points (tbrf_io_points_begin/_push; checked by writer.c):
     * creates /points and /value (or x, y, z, value); writes rows. */
    int (*points_begin)(tbrf_io_writer *w, int dim, int64_t n, int precision);
    int (*points_push)(tbrf_io_writer *w, int64_t first, int64_t count, const double *xyz,
                       const void *values);
} io_format_ops;

extern const io_format_ops io_hdf5_ops;   /* writer.c */
extern const io_format_ops io_netcdf_ops; /* netcdf.c */

/* netCDF: the CF globals and the grid alone (no generating parameters),
 * the field's neutral long_name and comment, and the coordinate variables
 * and bounds filled (tbrf_io_write_grid_record, netcdf.c). 0 or -1. */
int io_nc_grid_record(tbrf_io_writer *w, const tbrf_io_meta *m);
/* Loads (io/nc_load.h) and initialises netCDF outside any io_quiet window
 * (netcdf.c says why). 0, or -1 with err set when netCDF cannot be loaded. */
int io_nc_initialize(char *err, size_t errlen);

/* The grid's cells [first, first + count) in x-fastest order as at most
 * five boxes (z, y, x) + (cz, cy, cx): a partial row, whole rows to the
 * end of a plane, whole planes, whole rows, a partial row. Calls box()
 * on each in order with the offset (in cells) of its first value;
 * stops at and returns the first non-zero result. */
typedef int (*io_box_fn)(tbrf_io_writer *w, void *ctx, int64_t offset, const int64_t start[3],
                         const int64_t count[3]);
int io_grid_boxes(tbrf_io_writer *w, int64_t first, int64_t count, io_box_fn box, void *ctx);

/* Starts the writeback of file descriptor fd's dirty pages without
 * waiting for it (writeback.c; a no-op off Linux): called after each
 * piece of a grid, so the data goes to disk while later pieces are made
 * and the commit's fsync has only the tail left to wait for. */
void io_start_writeback(int fd);

/* Temporaries (common.c). io_temp_name: "DIR/.NAME.tmp-PID" for path
 * DIR/NAME, or "DIR/.tbrf-HASH.tmp-PID" when NAME is too long for that
 * to fit a file name (malloc'ed, NULL if out of memory); io_temp_prefix
 * the same without the PID. io_remove_stale_temps removes path's
 * temporaries whose process no longer exists on this host (a kill -9 or a
 * crash), and their commit backups ".NAME.tmp-PID.old" (writer.c), and
 * returns how many. */
char *io_temp_name(const char *path);
char *io_temp_prefix(const char *path);
int io_remove_stale_temps(const char *path);

/* 1 if a and b name the same file: equal strings, or both exist with the
 * same device and inode (hard links, ./x and x, symbolic links). */
/* Syncs the folder holding path (best effort), so that renames into it
 * survive a crash: the writer's commit and the AREPO set's. */
void io_sync_dir(const char *path);

/* A 64-bit digest of n bytes continuing h (arepo.c): what tells the
 * members of two runs of an AREPO or Gadget set apart; not a
 * cryptographic hash. */
uint64_t io_digest_bytes(uint64_t h, const void *p, size_t n);
int io_same_file(const char *a, const char *b);

/* Writes the XDMF side file of h5path for *m into the temporary tmp,
 * flushed and synced (xdmf.c). 0, or -1 with "cannot write XMF: reason"
 * in err. */
int io_xdmf_write_temp(const char *h5path, const char *xmf, const char *tmp,
                       const tbrf_io_meta *m, char *err, size_t errlen);

/* The same for a `tbrf drive` series of nt frames at times t: a temporal
 * collection of m's grid or points, frame i taking row i of /field or
 * /value through a HyperSlab. */
int io_xdmf_write_series_temp(const char *h5path, const char *xmf, const char *tmp,
                              const tbrf_io_meta *m, int64_t nt, const double *t, char *err,
                              size_t errlen);

/* Writes yt's Grid Data Format layout of the grid *m describes into
 * w's HDF5 file (gdf.c), pointing at /field: 0, or -1 (HDF5's reason on
 * its error stack). Points and 2D/3D checks: nothing for a non-grid. */
int io_gdf_write(tbrf_io_writer *w, const tbrf_io_meta *m);

/* Removes NAME.xmf beside path if it is a regular file that an earlier
 * run wrote for path (an XDMF file referring to path's base name): a run
 * that publishes path without a side file must not leave one describing
 * other data. Never removes path itself. */
void io_xdmf_remove_stale(const char *path);

#endif
