/* io_internal.h — helpers shared by the files of io/. Not installed. */
#ifndef TBRF_IO_INTERNAL_H
#define TBRF_IO_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

/* HDF5 prints its error stack to stderr by default. We switch that off for
 * the duration of each public call and restore the caller's handler on
 * return, so a host program keeps its own setting while our callers get
 * one clear line instead of a stack dump (hdf5_common.c: netCDF-4 is
 * HDF5 underneath, so every format's calls need the window). The saved
 * handler is HDF5's, kept opaque here so that the files of no other
 * format include HDF5. */
typedef struct io_quiet {
    void (*func)(void);
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

/* What `tbrf info` prints, the same for every format: s escaped
 * (tbrf_io_escape, untruncated), and a double as the shortest of %.15g
 * and %.17g that reads back as the same value. */
void io_put_escaped(FILE *out, const char *s);
void io_put_double(FILE *out, double v);

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

struct io_format_ops;

/* The writer: what every format shares (names, the grid or points being
 * written, what was pushed, the side file, MPI). Whatever a format needs
 * of its own (HDF5 ids, netCDF ids) lives in `state`, which its create
 * slot makes and its release slot frees (netCDF-C's dispatchdata): no
 * format's field is here, so a new format edits no struct the others
 * compile against. */
struct tbrf_io_writer {
    char *path;      /* final name */
    char *tmp;       /* temporary name in the same directory */
    int flags;
    const struct io_format_ops *ops; /* the format: every format call goes here */
    void *state;     /* the format's own, from ops->create; NULL before and after */
    int open;        /* the format's file is open (create to close) */
    int precision;   /* of the grid */
    int rank;        /* of the grid: 2 or 3; 0 before grid_begin */
    int64_t n[3];    /* grid counts, x fastest */
    int64_t total;   /* cells of the grid */
    int64_t written; /* cells pushed so far */
    /* What was pushed: cells of the grid, rows of the points, times of a
     * series (merged intervals, so in-order pushes keep one); NULL until
     * the first push. */
    struct io_coverage *cells_cover, *pts_cover, *series_cover; /* series.c: its times */
    int committed;
    char message[1024];
    /* The XDMF side file published with the data (tbrf_io_attach_xdmf):
     * its name, its temporary, what it describes; NULL/0 when none. */
    char *xmf, *xmf_tmp;
    int has_xmf;
    tbrf_io_meta xmf_meta; /* numbers only: strings and table unset */
    /* A series' side file (series.c): its frames' times (NULL: not a
     * series), the origin and spacing its attributes give the grid. */
    double *series_times;
    int64_t series_nt;
    int64_t series_frame, series_plane; /* positions (cells or points) of one time, of a plane */
    double series_origin[3], series_spacing[3];
    /* Streamed points: count, dimension, precision, rows written. */
    int64_t pts_n, pts_written;
    int pts_dim, pts_precision;
    /* Values per position (tbrf_io_set_components): 1, or 2/3 for a
     * vector (each format stores it its own way). */
    int ncomp;
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

/* Datasets larger than IO_STORAGE_FREE bytes must store at least
 * 1/IO_MAX_RATIO of what their shape declares (deflate cannot compress
 * more than about 1032:1), so that a small file cannot make a reader
 * read gigabytes of never-written fill values. */
#define IO_STORAGE_FREE ((double)(1 << 20))
#define IO_MAX_RATIO 4096

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

/* Root attribute kinds of a series (tbrf_io_series_attr_*). */
enum { IO_ATTR_STR, IO_ATTR_F64, IO_ATTR_I64, IO_ATTR_U64 };

struct tbrf_arepo_header;
struct tbrf_arepo_particles;
struct tbrf_arepo_param;

/* What a file format does for the writer. writer.c, series.c and arepo.c
 * make the checks every format shares, then call through w->ops, so
 * adding a format means filling one of these and listing it in the
 * registry (formats.c), not finding every branch. Every slot is filled (a
 * format without an operation has a stub that refuses with a message
 * naming the format). Each returns 0, or -1 with the writer's message set,
 * unless it says otherwise. */
typedef struct io_format_ops {
    const char *name;   /* the registry's name: "hdf5", "netcdf" (--format NAME) */
    const char *title;  /* in messages: "HDF5", "netCDF-4" */
    const char *suffix; /* the file name ending that chooses it (".nc"); NULL: none */
    int xdmf;           /* 1: an XDMF side file can describe its files (HDF5 datasets) */
    /* Before the temporary exists (a signal meanwhile finds none): loads
     * what the format needs (netCDF: its library, io/nc_load.h). 0, or
     * -1 with err set. */
    int (*load)(char *err, size_t errlen);
    /* Just before create, outside the io_quiet window (netcdf_writer.c says
     * why). 0, or -1 with err set. */
    int (*initialize)(char *err, size_t errlen);
    /* Makes w->state and opens the temporary file w->tmp (it exists,
     * empty) in it; the message names w->path. */
    int (*create)(tbrf_io_writer *w);
    int (*grid_begin)(tbrf_io_writer *w, int dim, const int64_t n[3], int precision);
    /* Cells [first, first + count), count >= 1, inside the grid (count 0
     * too on an MPI writer: the rank's empty part of a collective write;
     * points_push likewise). */
    int (*grid_push)(tbrf_io_writer *w, int64_t first, int64_t count, const void *values);
    int (*write_points)(tbrf_io_writer *w, int dim, int64_t n, const double *xyz);
    int (*write_values)(tbrf_io_writer *w, int64_t n, int precision, const void *values);
    /* The attributes (through io_meta_attrs) and the model table. */
    int (*write_meta)(tbrf_io_writer *w, const tbrf_io_meta *m);
    /* tbrf_io_write_grid_record: the grid alone, after grid_begin (HDF5:
     * nothing, its XDMF side file describes the grid). */
    int (*grid_record)(tbrf_io_writer *w, const tbrf_io_meta *m);
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
    /* A `tbrf drive` series (series.c checks the arguments and the space
     * first): the datasets of tbrf_io_series_begin, time `it` of
     * tbrf_io_series_step_part (positions [first, first + count) of the
     * frame, whole planes of a grid; on an MPI writer a collective write
     * of each rank's part, count 0 too), and a root attribute of kind
     * IO_ATTR_* with count values (v a string for IO_ATTR_STR). */
    int (*series_begin)(tbrf_io_writer *w, int dim, int nc, int64_t nt, const int64_t n[3],
                        int64_t npts, const double *xyz);
    int (*series_step)(tbrf_io_writer *w, int64_t it, double t, int64_t first, int64_t count,
                       const double *values);
    int (*series_attr)(tbrf_io_writer *w, const char *name, int kind, int count, const void *v);
    /* An AREPO initial-condition member (arepo.c): /Header for member f of
     * the set (totals: the set's counts), /PartType* from types (NULL:
     * none, the Gadget set's side file), /tbrf holding the parameters,
     * the particle bytes written continuing *digest; message in err. */
    int (*arepo_write)(tbrf_io_writer *w, const struct tbrf_arepo_header *h,
                       const struct tbrf_arepo_particles *totals,
                       const struct tbrf_arepo_particles *types, int f,
                       const struct tbrf_arepo_param *params, size_t nparams, uint64_t *digest,
                       char *err, size_t errlen);
    /* The set's identity in /tbrf: set_files = nf, set_member = f (f < 0:
     * none), set_digest, format (NULL: none) and, when rows is given,
     * /gadget_members (nf x 2: each member's size and digest). */
    int (*arepo_record)(tbrf_io_writer *w, int f, int nf, const char *digest, const char *format,
                        const uint64_t *rows);
    /* The names a run's message gives what was written: the values ("/field
     * 64x64x64", "field_x, field_y 64x64" ...; shape appended by the
     * caller) and, for points, their positions ("/points", "x, y, z"). */
    void (*objects)(int is_grid, int dim, int ncomp, char *values, size_t vlen, char *positions,
                    size_t plen);
    /* Frees w->state (after close); NULL state is ignored. */
    void (*release)(tbrf_io_writer *w);
} io_format_ops;

extern const io_format_ops io_hdf5_ops;   /* hdf5_writer.c */
extern const io_format_ops io_netcdf_ops; /* netcdf_writer.c */

/* A series' chunks (series.c): whole planes (z in 3D, rows y in 2D, cells
 * x in 1D) per chunk of a grid series' /field, and rows of /points and
 * /value per chunk, about 1 MiB of one time each (nc values a cell). */
uint64_t io_series_planes(int dim, int nc, const int64_t n[3]);
uint64_t io_series_rows(int nc, int64_t npts);

/* The registry (formats.c): every format by name, in the order listed by
 * "available". io_format_find returns the format called name, or NULL
 * with "unknown output format NAME (available: hdf5, netcdf)" in err;
 * io_format_for_path the one whose suffix path ends with, else HDF5. */
extern const io_format_ops *const io_formats[];
extern const int io_nformats;
const io_format_ops *io_format_find(const char *name, char *err, size_t errlen);
const io_format_ops *io_format_for_path(const char *path);

/* The load/initialize slot of a format that needs nothing: 0. */
int io_format_nothing_to_load(char *err, size_t errlen);

/* A refusal for a slot a format lacks: "PATH: FORMAT files cannot hold
 * WHAT" as the writer's message; -1. */
int io_format_refuse(tbrf_io_writer *w, const char *what);

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

/* Removes NAME.xmf beside path if it is a regular file that an earlier
 * run wrote for path (an XDMF file referring to path's base name): a run
 * that publishes path without a side file must not leave one describing
 * other data. Never removes path itself. */
void io_xdmf_remove_stale(const char *path);

#endif
