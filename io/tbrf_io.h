/*
 * tbrf_io.h — HDF5 and netCDF-4 (CF-1.8) files for tbrf, with XDMF side
 * files (the `tbrf_io` library, used by the tool). The format is one of
 * the registry's, by name (tbrf_io_create_format; "Formats" below) or
 * TBRF_IO_NETCDF at tbrf_io_create(); every other call is the same for
 * every format (io/netcdf_writer.c describes the CF layout). The readers
 * take every format: each call goes to the reader of the file's format
 * (io/io_reader.h), found from its first bytes, so a netCDF file is read
 * through netCDF and its messages name netCDF's variables.
 *
 * Layout (doc/design.md, "Files"):
 *  - grid:   /field  (nz, ny, nx) or (ny, nx) in 2D, float32 or float64,
 *            chunked (about 1 MiB chunks that split every axis evenly, so
 *            no edge chunk is mostly empty), optionally shuffle+deflate;
 *  - points: /points (N, dim) float64 positions and /value (N) values;
 *  - attributes on the root group record every generating parameter, and
 *    a tabulated spectrum is copied into /model_table (n, 2).
 *
 * Safe writes: a writer creates ".NAME.tmp-PID" in the directory of NAME
 * (".tbrf-HASH.tmp-PID" when NAME is too long for that) and renames it to
 * NAME only in tbrf_io_commit(), after every dataset is complete, the
 * root attribute tbrf_complete = "yes" is written (a file without it was
 * never committed) and the file is closed and synced. Closing an
 * uncommitted writer removes the temporary, so a failed or interrupted
 * run never leaves a file that looks valid; a temporary whose process
 * died (kill -9) is removed by the next writer of the same name. Only a
 * regular file is ever replaced, and it keeps its permission bits. An
 * XDMF side file attached with tbrf_io_attach_xdmf is published with the
 * data (doc/guarantees-outputs.md).
 *
 * Errors: functions return 0 or -1; the message (one line, naming the
 * file) is in tbrf_io_message() or in the caller's err buffer for the
 * functions that have no object. HDF5's automatic error printing is
 * switched off inside every call and restored on return, so a host
 * program keeps its own setting and stderr gets nothing from HDF5 — with
 * one exception: the first netCDF writer initialises netCDF (before that
 * window), which switches HDF5's printing off for good exactly as a
 * program's own first netCDF call would; inside the window the switch
 * would be undone and the host's later netCDF calls would print HDF5's
 * diagnostics of netCDF's expected misses.
 *
 * Not thread-safe (HDF5 serial builds are not); the core library
 * (include/tbrf.h) never includes this header.
 *
 * HDF5 1.10 caveat: when closing a file fails (the disk filled while the
 * last chunks were flushed), HDF5 keeps the file half torn down and its
 * atexit clean-up then crashes. The writer never touches such a file
 * again and removes the temporary at once; a program that must survive
 * this should call H5dont_atexit() before its first HDF5 call, as the
 * tbrf tool does.
 */
#ifndef TBRF_IO_H
#define TBRF_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "tbrf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The parameters the command sets by name (the rest are reached by
 * number through tbrf_model_param_name): their numbers i, bit 1 << i of
 * TBRF_PARAM_* (io/meta.c checks the two agree). */
#define TBRF_IO_NPARAM 16
enum {
    TBRF_IO_P_INDEX = 0,
    TBRF_IO_P_KMIN = 1,
    TBRF_IO_P_KMAX = 2,
    TBRF_IO_P_LENGTH = 3,
    TBRF_IO_P_NU = 4,
    TBRF_IO_P_ALPHA = 6
};

/* Everything that generated a file, recorded as root attributes. Strings
 * may be NULL and numbers NaN where they do not apply: such entries are
 * left out of the file rather than written as placeholders. */
typedef struct tbrf_io_meta {
    const char *command;       /* the command line, for humans (may be NULL) */
    /* model */
    const char *model;         /* tbrf_model_describe() */
    const char *model_kind;    /* a kind of the library's table (tbrf_model_kind_name),
                                  or "callback" */
    /* the kind's parameters by number: param[i] is that of TBRF_PARAM_*
     * bit 1 << i, named tbrf_model_param_name(i) and recorded as
     * model_<name>, NaN where not given (the table, i = 5, is table_k and
     * table_p below), so a kind's new parameter is a row of the library's
     * table and nothing here */
    double param[TBRF_IO_NPARAM];
    int by_variance;           /* 1: the amplitude follows from `variance`;
                                  0: `amplitude` was given */
    double variance;           /* requested sigma^2 (when by_variance) */
    double amplitude;          /* requested A (when !by_variance) */
    const char *table_file;    /* table model: the file it was read from */
    size_t table_n;            /* table model: rows of table_k/table_p, copied */
    const double *table_k, *table_p; /* into /model_table (n, 2) */
    /* plan */
    int dim;
    tbrf_opts opts;            /* lines, oversampling, line_method, ... */
    int method_used;           /* tbrf_plan_method(): TBRF_METHOD_TB or _FFT, -1 unknown */
    uint64_t seed, realization;
    double lo[3], hi[3];       /* domain */
    double resolution;
    /* geometry: a grid (is_grid) or points */
    int is_grid;
    double origin[3], spacing[3];
    int64_t n[3];
    int64_t npoints;
    const char *points_file;   /* where the positions came from (may be NULL) */
    tbrf_plan_info info;       /* tbrf_plan_get_info() */
    void *storage;             /* what tbrf_io_read_meta allocated (NULL otherwise) */
    /* Vector values and periodic boxes. Files without them
     * read back as meta_init leaves them: a scalar field, no box. */
    int ncomp;                 /* values per position: 1 (scalar) or dim (a vector,
                                  interleaved x, y[, z] per position); attribute
                                  "components" */
    const char *vector_kind;   /* "solenoidal", "compressive" or "mixed"; NULL for a
                                  scalar; attribute "vector_kind" */
    double zeta;               /* the projection's weight zeta (Federrath et al. 2010;
                                  NaN: not recorded); attribute "vector_zeta" */
    int box;                   /* 1: a periodic box defines the field (attributes
                                  box_origin, box_length, box_modes) */
    double box_origin[3], box_length[3]; /* the box: origin and period L per axis */
    int64_t box_n[3];          /* its mode lattice N_i (|n_i| <= N_i/2) */
    double accuracy;           /* the NUFFT's requested relative accuracy (NaN: none);
                                  attribute "nufft_accuracy" */
    const char *method_name;   /* the method that ran by name ("tb", "fft", "nufft",
                                  ...; NULL: the one of method_used); attribute
                                  "method_ran" */
    /* Lognormal densities (doc/lognormal.md): written only for
     * a lognormal field, so other files are as before. */
    int lognormal;             /* 0: the Gaussian field; TBRF_IO_LOGNORMAL_DENSITY: rho/rho_mean
                                  whose contrast has the model's spectrum;
                                  TBRF_IO_LOGNORMAL_GAUSSIAN: exp(g - s2/2) of g with
                                  the model's spectrum; attribute "lognormal" */
    double lognormal_sigma2;   /* sigma_g^2 = var(ln rho), for humans (NaN: not recorded);
                                  attribute "lognormal_sigma2_lnrho" */
    double lognormal_lost;     /* the clipped share of sigma_g^2 (NaN: not recorded);
                                  attribute "lognormal_clipped" */
    double lognormal_shift;    /* v in rho/rho_mean = exp(g - v/2): the variance g
                                  carries, the plan's resolved one, so the mean is 1
                                  (NaN: not recorded, a file that subtracted sigma_g^2);
                                  attribute "lognormal_shift_variance" */
    /* Anisotropy (tbrf_model_set_anisotropy): the per-axis
     * factors and the angles, 3 each (2D: the third factor 1, the last two
     * angles 0); NaN (an isotropic model) leaves them out of the file.
     * Attributes "model_anis" and "model_angles". */
    double anis[3], angles[3];
} tbrf_io_meta;

enum { TBRF_IO_LOGNORMAL_DENSITY = 1, TBRF_IO_LOGNORMAL_GAUSSIAN = 2 };

/* Fills *meta with "not applicable" (NULL strings, NaN numbers, zeros). */
void tbrf_io_meta_init(tbrf_io_meta *meta);

/* Reads the generating parameters of a file tbrf wrote (HDF5 or netCDF):
 * the exact inverse of tbrf_io_write_meta, so every field it records
 * comes back equal (the method that ran in both opts.method and
 * method_used; the backend that ran in info.backend, -1 if unnamed, the
 * requested one in opts.backend; the axes a 2D file lacks as generate
 * sets them: origin 0, spacing 1, n 1, domain 0; a points file has
 * zero origin, spacing and n). Fields the file does
 * not record (threads, device, chunk, ...) keep tbrf_io_meta_init's
 * values. Strings and the table are allocated: release them with
 * tbrf_io_meta_free (the meta's pointers may be repointed meanwhile).
 * Returns 0, or -1 with a message naming the file and the attribute in
 * err (and *meta holding nothing to free). */
int tbrf_io_read_meta(const char *path, tbrf_io_meta *meta, char *err, size_t errlen);

/* Frees what tbrf_io_read_meta allocated and re-initialises *meta; a
 * meta filled otherwise (storage NULL) is left alone. NULL is ignored. */
void tbrf_io_meta_free(tbrf_io_meta *meta);

/* ------------------------------------------------------------- writing */

typedef struct tbrf_io_writer tbrf_io_writer;

/* Write flags. */
#define TBRF_IO_COMPRESS 1 /* shuffle + deflate (level 4) on the datasets */
#define TBRF_IO_NETCDF 2   /* tbrf_io_create: netCDF-4 with CF-1.8 conventions instead of plain
                              HDF5 (the format "netcdf" of tbrf_io_create_format) */

/* ------------------------------------------------------------- formats
 * One registry of output formats by name (io/formats.c): "hdf5" and
 * "netcdf" today, listed by tbrf_io_format_list. */

/* The registry's names, comma-separated in registry order ("hdf5,
 * netcdf"), into buf of size n (truncated to fit). */
void tbrf_io_format_list(char *buf, size_t n);

/* 0 when name is a format of the registry, else -1 with "unknown output
 * format NAME (available: hdf5, netcdf)" in err. */
int tbrf_io_format_check(const char *name, char *err, size_t errlen);

/* The name of the format a file is written in: format itself when given
 * (NULL if it is no format), else the one whose suffix path ends with
 * (".nc": "netcdf"), else "hdf5". */
const char *tbrf_io_format_of(const char *path, const char *format);

/* 1 when an XDMF side file can describe files of the format (HDF5), else
 * 0 (netCDF: ParaView and VisIt read CF themselves). */
int tbrf_io_format_xdmf(const char *format);

/* The names the format gives what a run writes, for its messages: the
 * values (HDF5 "/field" or "/value"; netCDF "field", or "field_x,
 * field_y[, field_z]" for a vector) into values, and for points their
 * positions ("/points"; "x, y[, z]") into positions ("" for a grid). An
 * unknown format gives "". */
void tbrf_io_format_objects(const char *format, int is_grid, int dim, int ncomp, char *values,
                            size_t vlen, char *positions, size_t plen);

/* Starts writing `path`: creates the temporary file next to it. Returns
 * NULL with a message in err (if errlen > 0) when the directory cannot be
 * written or memory runs out. */
tbrf_io_writer *tbrf_io_create(const char *path, int flags, char *err, size_t errlen);

/* tbrf_io_create in the registry's format called `format` (NULL: the one
 * path's suffix chooses, tbrf_io_format_of); flags TBRF_IO_COMPRESS. NULL
 * with "unknown output format ..." (tbrf_io_format_check) or
 * tbrf_io_create's messages in err. */
tbrf_io_writer *tbrf_io_create_format(const char *path, const char *format, int flags, char *err,
                                      size_t errlen);

/* The name of the temporary that tbrf_io_create(path, ...) makes in this
 * process (beside path; malloc'ed, the caller frees it), so that a
 * caller's signal handler can list it before it exists: a signal landing
 * while tbrf_io_create makes and opens it (HDF5 or netCDF writing its
 * header) then still finds it. tbrf_io_create_mpi uses rank 0's name
 * (tbrf_io_temp_path once it returns). NULL for an empty path or when
 * memory runs out. */
char *tbrf_io_temp_name(const char *path);

/* Makes the values that follow vectors of ncomp (1, 2 or 3) components,
 * interleaved per position (x, y[, z]), as positions are: call it before
 * tbrf_io_grid_begin, tbrf_io_points_begin or tbrf_io_write_values, whose
 * pushes then take count x ncomp values. HDF5: /field (nz, ny, nx, ncomp)
 * ((ny, nx, ncomp) in 2D) and /value (N, ncomp); netCDF: one CF variable
 * per component, field_x, field_y[, field_z] and value_x, ...; XDMF: a
 * Vector attribute. Record it in the meta too (ncomp, vector_kind, zeta).
 * Returns 0, or -1 for another count or values already begun. */
int tbrf_io_set_components(tbrf_io_writer *w, int ncomp);

/* Creates /field for an n[0] x n[1] x n[2] grid (x fastest; dim 2 needs
 * n[2] == 1 and gives a (ny, nx) dataset) of float64 (TBRF_DOUBLE) or
 * float32 (TBRF_FLOAT) values. */
int tbrf_io_grid_begin(tbrf_io_writer *w, int dim, const int64_t n[3], int precision);

/* Writes `count` consecutive cells in x-fastest order starting at cell
 * number `first` (values are float or double as given to grid_begin).
 * Chunks may start and end anywhere; they must not overlap (a push that
 * would write a cell twice is refused, naming the cell, and commit then
 * refuses too), and together they must cover the grid before
 * tbrf_io_commit(), which names the first cell never written. The signature is
 * tbrf_push_fn's with the writer as `user`, so it can be handed straight
 * to tbrf_execute_grid_stream(). Returns 0 or -1. */
int tbrf_io_grid_push(void *writer, int64_t first, int64_t count, const void *values);

/* Writes /points (n, dim) float64 — a copy of the positions. */
int tbrf_io_write_points(tbrf_io_writer *w, int dim, int64_t n, const double *xyz);

/* Writes /value (n) as float64 or float32 per precision. */
int tbrf_io_write_values(tbrf_io_writer *w, int64_t n, int precision, const void *values);

/* Points written in pieces, so that a run holds one chunk, not all of
 * them: points_begin creates /points (n, dim) and /value (n) (the same
 * datasets tbrf_io_write_points and _write_values make); points_push
 * writes rows [first, first + count) of both, from count*dim positions
 * and count values. Pieces must not overlap and must cover the n points
 * before tbrf_io_commit(). Each returns 0 or -1. */
int tbrf_io_points_begin(tbrf_io_writer *w, int dim, int64_t n, int precision);
int tbrf_io_points_push(tbrf_io_writer *w, int64_t first, int64_t count, const double *xyz,
                        const void *values);

/* Writes the attributes of *meta on the root group (and /model_table). */
int tbrf_io_write_meta(tbrf_io_writer *w, const tbrf_io_meta *meta);

/* Records a grid written without generating parameters (the installed
 * writer, tbrf_writer.h, does not know them), in place of
 * tbrf_io_write_meta, after tbrf_io_grid_begin: in netCDF the CF globals
 * (Conventions, title, source), tbrf_version, tbrf_geometry = "grid",
 * precision, grid_origin, grid_spacing and grid_counts, the coordinate
 * variables x, y[, z] and their bounds filled from m's origin and spacing
 * (dim, origin, spacing and n are used), and a neutral long_name and
 * comment on the field; in HDF5 nothing (its XDMF side file describes
 * the grid). Returns 0 or -1. */
int tbrf_io_write_grid_record(tbrf_io_writer *w, const tbrf_io_meta *m);

/* Checks that the grid, points or series (if any) are complete — each
 * cell, point or time written exactly once (the writer records what was
 * pushed as merged intervals, within the memory budget) — closes and
 * syncs the temporary file and renames it to the final name. On failure
 * the temporary is removed. Returns 0 or -1. */
int tbrf_io_commit(tbrf_io_writer *w);

/* Frees the writer; if it was not committed, closes and removes the
 * temporary file. NULL is ignored. */
void tbrf_io_close(tbrf_io_writer *w);

/* The last failure's message ("" if none); never NULL for a writer. */
const char *tbrf_io_message(const tbrf_io_writer *w);

/* The temporary file's name (so a signal handler can remove it), or NULL
 * once committed. */
const char *tbrf_io_temp_path(const tbrf_io_writer *w);

/* Makes tbrf_io_commit() publish the XDMF side file NAME.xmf (see
 * tbrf_io_write_xdmf) together with NAME: both are complete and synced
 * before the first rename, and if the side file's rename fails NAME is
 * removed again. Fails (-1) when the side file would be NAME itself
 * (NAME ending in .xmf) or exists and is not a regular file. Only the
 * numbers of *m are kept. Without it, commit removes a NAME.xmf that an
 * earlier run wrote for NAME, so no side file describes other data. */
int tbrf_io_attach_xdmf(tbrf_io_writer *w, const tbrf_io_meta *m);

/* The side file's temporary (for a signal handler), or NULL when none is
 * attached or once committed. */
const char *tbrf_io_side_temp_path(const tbrf_io_writer *w);

/* The size in bytes, at most, of the file a grid of n cells takes
 * uncompressed: whole chunks of the writer's chunk shape (HDF5 allocates
 * edge chunks whole) plus room for the metadata; NaN for a bad grid. */
double tbrf_io_grid_bytes(int dim, const int64_t n[3], int precision);

/* ------------------------------------------------------------- reading */

/* Reads positions from `path`, whose kind is recognised by content:
 *  - HDF5 with /points (N, 3) (dim 3) or (N, 2) (dim 2), any float type;
 *  - netCDF (classic or netCDF-4) with 1-D variables x, y[, z] of equal
 *    length (such as a file tbrf wrote for points);
 *  - otherwise plain text, one point per line as "x y z" (or "x y", the
 *    same on every line), '#' starting a comment, blank lines ignored.
 * Integers in HDF5, other ranks and shapes, no points, and NaN or infinite
 * coordinates are errors; the message names the file and the row, or
 * "FILE:LINE: ..." for text. On success *xyz is malloc'ed (free it).
 * Returns 0 or -1. */
int tbrf_io_read_points(const char *path, int *dim, int64_t *n, double **xyz, char *err,
                        size_t errlen);

/* /points of an HDF5 file read in pieces (a points run streams them).
 * tbrf_io_points_open returns 0 with the reader, dim and n; 1 when path
 * is not an HDF5 file with a float /points (N, 2|3), N >= 1 — read it
 * with tbrf_io_read_points, which says what is wrong; -1 on bad
 * arguments. tbrf_io_points_read reads rows [first, first + count) as
 * doubles into xyz (count*dim), refusing NaN and infinite coordinates
 * with tbrf_io_read_points' message; 0 or -1 (message in err). */
typedef struct tbrf_io_points_reader tbrf_io_points_reader;
int tbrf_io_points_open(const char *path, tbrf_io_points_reader **r, int *dim, int64_t *n,
                        char *err, size_t errlen);
int tbrf_io_points_read(tbrf_io_points_reader *r, int64_t first, int64_t count, double *xyz,
                        char *err, size_t errlen);
void tbrf_io_points_close(tbrf_io_points_reader *r);

/* Reads /field back as double, x fastest; n[2] = 1 for a 2D file.
 * *values is malloc'ed. Returns 0 or -1 (message in err). */
int tbrf_io_read_field(const char *path, int64_t n[3], double **values, char *err,
                       size_t errlen);

/* Reads the plane `index` across `axis` (0 = x, 1 = y, 2 = z) of /field
 * as double: *w x *h values, the first varying fastest (for axis z: x then
 * y; axis y: x then z; axis x: y then z). *values is malloc'ed. Only the
 * plane is read, so any file size works. Returns 0 or -1. */
int tbrf_io_read_slice(const char *path, int axis, int64_t index, int64_t *w, int64_t *h,
                       double **values, char *err, size_t errlen);

/* Reads /value (the values of a points file) as double; *values is
 * malloc'ed. Returns 0 or -1 (message in err). */
int tbrf_io_read_values(const char *path, int64_t *n, double **values, char *err, size_t errlen);

/* Reads the values of a grid or points file, scalar or vector, as
 * double: *npos positions (cells x fastest, or points) times *ncomp
 * components interleaved per position (x, y[, z]). The count comes from
 * the attribute "components" (absent: 1, as in files before vectors);
 * HDF5 files hold /field or /value with the components last, netCDF files
 * one variable per component (field_x, ...), interleaved here. *values is
 * malloc'ed. Returns 0 or -1 (message in err). */
int tbrf_io_read_vector(const char *path, int *ncomp, int64_t *npos, double **values, char *err,
                        size_t errlen);

/* Root (global) attributes of a file tbrf wrote, HDF5 or netCDF-4. */
typedef struct tbrf_io_file tbrf_io_file;
tbrf_io_file *tbrf_io_open(const char *path, char *err, size_t errlen);
void tbrf_io_file_close(tbrf_io_file *f);
/* Each returns the number of values read (1 for strings), 0 if the
 * attribute is absent, -1 if it has another type or too many values.
 * Strings must be one string (a scalar or one-element dataspace): fixed
 * length (NUL-terminated, NUL- or space-padded) or variable length,
 * ASCII or UTF-8, at most TBRF_IO_MAX_STRING bytes; an array of strings
 * is refused. tbrf_io_attr_str truncates to len - 1 bytes. */
int tbrf_io_attr_f64(tbrf_io_file *f, const char *name, double *v, int max);
int tbrf_io_attr_i64(tbrf_io_file *f, const char *name, int64_t *v, int max);
int tbrf_io_attr_u64(tbrf_io_file *f, const char *name, uint64_t *v);
int tbrf_io_attr_str(tbrf_io_file *f, const char *name, char *buf, size_t len);
/* /model_table (n, 2) into malloc'ed k and p; 0 if found, -1 if not
 * (also when it has more than TBRF_IO_MAX_TABLE_ROWS rows or stores
 * less than its shape declares). */
int tbrf_io_read_table(tbrf_io_file *f, size_t *n, double **k, double **p);

/* ------------------------------------------------------------- budgets
 *
 * Every size read from a file is checked before anything is allocated or
 * read (doc/guarantees-inputs.md): the readers refuse, with a message
 * naming the file, what would need more memory than the budget, and
 * datasets that store far less than their shape declares. */

/* The environment variable that sets the memory budget in bytes, with an
 * optional suffix K, M, G or T (powers of 1024): "512M", "8G". */
#define TBRF_IO_BUDGET_ENV "TBRF_MEMORY_BUDGET"
/* The budget without the variable: half the physical memory, at least
 * this much. */
#define TBRF_IO_BUDGET_MIN ((uint64_t)256 << 20)
/* The longest line of a text input (points, tables), bytes. */
#define TBRF_IO_MAX_LINE (1 << 20)
/* The most rows of a /model_table read back (the text parser's limit,
 * TBRF_TABLE_MAX_ROWS of c/core/model.c, is the same). */
#define TBRF_IO_MAX_TABLE_ROWS ((size_t)1 << 22)
/* The longest string attribute read, bytes. */
#define TBRF_IO_MAX_STRING (1 << 16)

/* The memory budget in bytes: $TBRF_MEMORY_BUDGET, else half the
 * physical memory (at least TBRF_IO_BUDGET_MIN); 0 if the variable is
 * set but not a size. */
uint64_t tbrf_io_budget(void);

/* 0 if `bytes` fit in the budget; else -1 with "PATH: WHAT would need X
 * MiB, more than the memory budget ..." (or the variable's error) in err.
 * path may be NULL. */
int tbrf_io_budget_check(const char *path, const char *what, double bytes, char *err,
                         size_t errlen);

/* The shape of /field (n[2] = 1 in 2D) without reading it, after the
 * same checks as tbrf_io_read_field (rank, type, stored size). 0 or -1. */
int tbrf_io_field_shape(const char *path, int64_t n[3], char *err, size_t errlen);

/* What a grid file holds, from its datasets' shapes and root attributes:
 * a scalar grid /field ((nz, ny, nx) or (ny, nx)); a vector grid, /field
 * with the components last ((nz, ny, nx, 3), (ny, nx, 2); attribute
 * "components") or, in netCDF, one variable per component field_x,
 * field_y[, field_z]; a `tbrf drive` series, /field (nt, [nz,] ny, nx,
 * dim) beside /time (nt), or (nt, ny, nx, 3) from a 2D box with three
 * components (a 1D series, (nt, nx, 3), is refused by name). */
typedef struct tbrf_io_layout {
    int dim;      /* 2 or 3: the grid's dimension */
    int ncomp;    /* values per cell: 1 (scalar), or dim for a vector (3 for a series
                     in a 2D box driven with three components) */
    int split;    /* 1: the components are the variables field_x, field_y[, field_z] */
    int64_t nt;   /* frames of a series (/time); 0 for a single field */
    int64_t n[3]; /* cells along x, y, z (n[2] = 1 in 2D) */
} tbrf_io_layout;

/* Fills *L for the grid file path after checking the datasets' rank,
 * type and stored size. 0, or -1 with a message naming the file and the
 * shape found in err (-2: a series in a 1D box, which no 2D or 3D grid
 * reader takes). */
int tbrf_io_grid_layout(const char *path, tbrf_io_layout *L, char *err, size_t errlen);

/* What the grid's values are called in path's format, for messages:
 * "/field" (HDF5), "variable field" or, for a layout L with split
 * components, "variables field_x, field_y[, field_z]" (netCDF). L may be
 * NULL. Never NULL. */
const char *tbrf_io_field_object(const char *path, const tbrf_io_layout *L);

#define TBRF_IO_ALL_COMPONENTS (-1) /* every component, interleaved per cell */
#define TBRF_IO_MAGNITUDE (-2)      /* the vector's length per cell */

/* Reads, of frame `frame` (0 for a single field), the plane `index`
 * across axis (0 x, 1 y, 2 z; -1: the whole grid), x fastest, as
 * component comp (0 .. ncomp-1), TBRF_IO_MAGNITUDE or
 * TBRF_IO_ALL_COMPONENTS (ncomp values per cell) into *values (malloc'ed;
 * free it). The plane across x is (ny, nz), across y (nx, nz), across z
 * (nx, ny), the first fastest. The size is checked against the memory
 * budget first. 0, or -1 with a message in err. */
int tbrf_io_read_grid_part(const char *path, const tbrf_io_layout *L, int64_t frame, int axis,
                           int64_t index, int comp, double **values, char *err, size_t errlen);

/* The times of a series, /time (nt), into *t (malloc'ed). 0 or -1. */
int tbrf_io_read_times(const char *path, int64_t *nt, double **t, char *err, size_t errlen);

/* The string attribute "units" of dataset /name into buf: 1 if it has
 * one, else 0 (buf ""). */
int tbrf_io_dataset_units(const char *path, const char *name, char *buf, size_t len);

/* s with every control character and DEL written as an escape (\n,
 * \t, \r, \\, \xHH) into buf of size n (truncated with "..." if
 * longer): what may be printed to a terminal. Returns buf ("(null)" for
 * a NULL s). */
const char *tbrf_io_escape(const char *s, char *buf, size_t n);

/* The version that wrote the AREPO file of tbrf's at path (the
 * /tbrf/tbrf_version attribute) into buf; "" when it records none or is
 * no such file. */
void tbrf_io_arepo_version(const char *path, char *buf, size_t len);

/* ------------------------------------------------------------- XDMF */

/* The side file's name: NAME.h5 -> NAME.xmf (malloc'ed). */
char *tbrf_io_xdmf_name(const char *h5path);

/* Writes the XDMF side file of the HDF5 file h5path (a grid as
 * 3DCoRectMesh/2DCoRectMesh, points as Polyvertex) from the metadata the
 * file was written with; temporary + rename like the data. Refuses (-1)
 * a side file name that is h5path itself. 0 or -1. */
int tbrf_io_write_xdmf(const char *h5path, const tbrf_io_meta *m, char *err, size_t errlen);

/* Prints what the file holds (datasets with shape, type, chunks and
 * filters) and every attribute of the root group, readably, to out.
 * Returns 0 or -1 (message in err). */
int tbrf_io_info(const char *path, FILE *out, char *err, size_t errlen);

/* --------------------------------------------------------------- series
 * Time series of vector fields, `tbrf drive` (series.c): HDF5 only,
 * float64, /time (nt) and either /field (nt, [nz,] [ny,] nx, nc) or
 * /points (N, dim) with /value (nt, N, nc); nc, the components, is dim
 * (2 or 3) or 3 in a 1D or 2D box (a driver's components = 3). Write
 * with a writer from tbrf_io_create (flags 0), publish with
 * tbrf_io_commit (the same temporary-and-rename as every tbrf file). */

/* Creates the datasets: a grid when n is given (x fastest, n[d] = 1 on
 * the axes beyond dim), else npts points (dim 2 or 3) whose positions
 * xyz are copied to /points. First refuses a series larger than the free
 * space of the output's folder (tbrf_io_series_bytes,
 * tbrf_io_space_check) or whose times exceed the memory budget, naming
 * the size needed and the space free, then attaches the XDMF side file.
 * Returns 0 or -1 (message in the writer). */
int tbrf_io_series_begin(tbrf_io_writer *w, int dim, int nc, int64_t nt, const int64_t n[3],
                         int64_t npts, const double *xyz);

/* Writes time index it: t into /time and the values of all cells or
 * points (nc interleaved per position) into its row. 0 or -1. */
int tbrf_io_series_step(tbrf_io_writer *w, int64_t it, double t, const double *values);

/* tbrf_io_series_step of positions [first, first + count) of the frame
 * (cells x fastest, or points): on a writer of tbrf_io_create_mpi
 * (tbrf_io_mpi.h) every rank calls it once per time with its own part,
 * whole planes of the slowest axis of a grid (any cells in 1D; count 0
 * where a rank has none), and the call is collective: the ranks first
 * agree that all are fine and that their parts tile the frame, else
 * every rank fails (and commit too). A serial writer takes only the
 * whole frame. 0 or -1 (message in the writer). */
int tbrf_io_series_step_part(tbrf_io_writer *w, int64_t it, double t, int64_t first, int64_t count,
                             const double *values);

/* Root attributes of a series: a string, count doubles, count int64,
 * one uint64 (a scalar: the seed). */
int tbrf_io_series_attr_str(tbrf_io_writer *w, const char *name, const char *s);
int tbrf_io_series_attr_f64(tbrf_io_writer *w, const char *name, const double *v, int count);
int tbrf_io_series_attr_i64(tbrf_io_writer *w, const char *name, const int64_t *v, int count);
int tbrf_io_series_attr_u64(tbrf_io_writer *w, const char *name, uint64_t v);

/* The size in bytes, at most, of a series' file (the arguments of
 * tbrf_io_series_begin): whole chunks, their index and room for the
 * metadata; NaN for bad arguments. series_begin checks it against the
 * free space of the output's folder (tbrf_io_space_check). */
double tbrf_io_series_bytes(int dim, int nc, int64_t nt, const int64_t n[3], int64_t npts);

/* Compares the series a and b (HDF5): /time, then /field or /value,
 * their shapes, types and bits, one time at a time (each time's values
 * checked against the memory budget). 0 when equal (*values the number
 * of values compared), 1 when they differ, -1 when a file cannot be read;
 * err says which dataset and time index differ, or why. */
int tbrf_io_series_compare(const char *a, const char *b, int64_t *values, char *err,
                           size_t errlen);

/* The command that wrote the `tbrf drive` series at path (its root
 * attribute "command", "tbrf drive ...") into *command (malloc'ed; free
 * it). 0; 1 when path is no series (no HDF5 file with /time beside
 * /field or /value); -1 with err set for a series without such a
 * command. */
int tbrf_io_series_command(const char *path, char **command, char *err, size_t errlen);

/* FOR TESTS ONLY: when set (a number of bytes), tbrf_io_space_check takes
 * it as the free space instead of asking the file system, so that a
 * test can make any output "too large" without filling a disk. */
#define TBRF_IO_TEST_FREE_SPACE_ENV "TBRF_TEST_FREE_SPACE"

/* 0 if `bytes` fit in the free space of the folder holding path (statvfs:
 * the blocks available to an unprivileged writer; 0 also when the file
 * system gives no figure); else -1 with "PATH: WHAT needs X MiB, but the
 * folder has Y MiB free" in err. */
int tbrf_io_space_check(const char *path, const char *what, double bytes, char *err,
                        size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* TBRF_IO_H */
