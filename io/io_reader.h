/* io_reader.h — the reader table: what each file format does for the
 * readers of tbrf_io.h (reader.c dispatches every public read call
 * through it), as io_format_ops does for the writer. A format's reader
 * names its own objects in its messages (HDF5 "dataset /field", netCDF
 * "variable field"). Not installed. */
#ifndef TBRF_IO_READER_H
#define TBRF_IO_READER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "io/tbrf_io.h"

/* What a numeric attribute is read as (attr_num). */
enum { IO_AS_F64, IO_AS_I64, IO_AS_U64 };

/* Every slot is filled; each returns what the tbrf_io.h function it serves
 * returns (0 or -1 with a message in err, unless said otherwise). */
typedef struct io_reader_ops {
    const char *name;  /* "hdf5", "netcdf": the writer's registry names */
    const char *title; /* in messages: "HDF5", "netCDF" */
    /* A grid's values as its messages name them: scalar (or a vector of
     * one dataset) and a vector of one variable per component. */
    const char *field, *field_split;
    /* 1 when path (whose first `got` bytes are magic) is this format's
     * file; 0 otherwise. Never loads a library it would not read with. */
    int (*probe)(const char *path, const unsigned char *magic, size_t got);
    /* open: the root (global) attributes of a file (tbrf_io_open), as an
     * opaque handle the other metadata slots take. NULL with err set. */
    void *(*open)(const char *path, char *err, size_t errlen);
    void (*close)(void *h);
    /* metadata: numbers (IO_AS_*, at most max <= 16 of them), one string
     * (malloc'ed; 1, 0 absent, -1 bad) and the model table, with the
     * semantics of tbrf_io_attr_f64/_str and tbrf_io_read_table. */
    int (*attr_num)(void *h, const char *name, int as, void *v, int max);
    int (*attr_str)(void *h, const char *name, char **out);
    int (*table)(void *h, size_t *n, double **k, double **p);
    /* tbrf info: everything the file holds, readably. */
    int (*info)(const char *path, FILE *out, char *err, size_t errlen);
    /* grid: its layout, a part of it, a series' times, a variable's units */
    int (*grid_layout)(const char *path, tbrf_io_layout *L, char *err, size_t errlen);
    int (*grid_part)(const char *path, const tbrf_io_layout *L, int64_t frame, int axis,
                     int64_t index, int comp, double **values, char *err, size_t errlen);
    int (*times)(const char *path, int64_t *nt, double **t, char *err, size_t errlen);
    int (*units)(const char *path, const char *name, char *buf, size_t len);
    int (*field_shape)(const char *path, int64_t n[3], char *err, size_t errlen);
    int (*read_field)(const char *path, int64_t n[3], double **values, char *err, size_t errlen);
    int (*read_slice)(const char *path, int axis, int64_t index, int64_t *w, int64_t *h,
                      double **values, char *err, size_t errlen);
    /* points: positions, and the values of a points or grid file */
    int (*points)(const char *path, int *dim, int64_t *n, double **xyz, char *err,
                  size_t errlen);
    int (*values)(const char *path, int64_t *n, double **values, char *err, size_t errlen);
    int (*vector)(const char *path, int *ncomp, int64_t *npos, double **values, char *err,
                  size_t errlen);
} io_reader_ops;

extern const io_reader_ops io_hdf5_reader;   /* hdf5_reader.c */
extern const io_reader_ops io_netcdf_reader; /* netcdf_reader.c */

/* The readers, probed in order (formats.c). */
extern const io_reader_ops *const io_readers[];
extern const int io_nreaders;

/* The reader of path: the first whose probe claims it, else HDF5's (whose
 * messages then say what the file is not). Never NULL. */
const io_reader_ops *io_reader_of(const char *path);

/* The generic parts of a reader built on its grid_layout and grid_part
 * (reader.c), for a format whose files need nothing more. */
int io_generic_field_shape(const io_reader_ops *r, const char *path, int64_t n[3], char *err,
                           size_t errlen);
int io_generic_read_field(const io_reader_ops *r, const char *path, int64_t n[3],
                          double **values, char *err, size_t errlen);
int io_generic_read_slice(const io_reader_ops *r, const char *path, int axis, int64_t index,
                          int64_t *w, int64_t *h, double **values, char *err, size_t errlen);

/* What the HDF5 format tells the netCDF reader of a netCDF-4 file, which
 * is HDF5 underneath (hdf5_reader.c): io_h5_is_netcdf4 is 1 if path is an
 * HDF5 file netCDF wrote (its root attribute _NCProperties, a fixed-length
 * string as netCDF writes it), else 0 (the netCDF probe); io_h5_check_stored is 0 when each of the n datasets
 * names[] stores at least what IO_MAX_RATIO allows of its shape (or the
 * file is no HDF5 file: a classic netCDF file stores all it declares),
 * else -1 with err naming the variable. */
int io_h5_is_netcdf4(const char *path);
int io_h5_check_stored(const char *path, const char *const *names, int n, char *err,
                       size_t errlen);

/* netCDF points x, y[, z] (netcdf_reader.c): the HDF5 reader hands an
 * HDF5 file with x but no /points to it, as tbrf_io_read_points did. */
int io_nc_read_points(const char *path, int *dim, int64_t *n, double **xyz, char *err,
                      size_t errlen);

#endif
