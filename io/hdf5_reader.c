/* hdf5_reader.c — the HDF5 format's reader (io_hdf5_reader, io_reader.h):
 * positions (/points), grids (/field), values (/value), a series' /time
 * and the root attributes, read back.
 *
 * Every failure says which file and what is wrong with it in one line:
 * the points file is user input, so it gets the same care as options. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ctype.h>
#include <stdio.h>

#include "io/hdf5_format.h"
#include "io/io_reader.h"
#include "io/tbrf_io.h"

/* Opens an existing HDF5 file read-only, checking first with the OS so
 * that "missing" and "not readable" are told apart from "not HDF5". */
static hid_t open_ro(const char *path, const char *what, char *err, size_t errlen)
{
    if (!path || !path[0]) {
        io_setf(err, errlen, "no %s file name given", what);
        return -1;
    }
    if (io_stat_input(path, what, err, errlen))
        return -1;
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        io_setf(err, errlen, "cannot read %s file %s: %s", what, path, strerror(errno));
        return -1;
    }
    close(fd);
    if (H5Fis_hdf5(path) <= 0) {
        io_setf(err, errlen, "%s file %s is not an HDF5 file", what, path);
        return -1;
    }
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) {
        char why[256];
        io_h5_reason(why, sizeof why);
        io_setf(err, errlen, "cannot open %s file %s%s%s", what, path, why[0] ? ": " : "", why);
    }
    return f;
}

/* Opens dataset `name` of file f, which must exist and be a dataset. */
static hid_t open_dataset(hid_t f, const char *path, const char *name, char *err, size_t errlen)
{
    htri_t ex = H5Lexists(f, name, H5P_DEFAULT);
    if (ex <= 0) {
        io_setf(err, errlen, "%s has no dataset /%s", path, name);
        return -1;
    }
    hid_t obj = H5Oopen(f, name, H5P_DEFAULT);
    if (obj < 0) {
        io_setf(err, errlen, "%s: cannot open /%s", path, name);
        return -1;
    }
    if (H5Iget_type(obj) != H5I_DATASET) {
        io_setf(err, errlen, "%s: /%s is not a dataset", path, name);
        H5Oclose(obj);
        return -1;
    }
    return obj;
}

static const char *class_name(H5T_class_t c)
{
    switch (c) {
    case H5T_INTEGER: return "integer";
    case H5T_FLOAT: return "floating point";
    case H5T_STRING: return "string";
    case H5T_COMPOUND: return "compound";
    case H5T_ENUM: return "enum";
    case H5T_ARRAY: return "array";
    default: return "non-numeric";
    }
}

/* Checks that dataset d holds floating-point numbers. */
static int check_float(hid_t d, const char *path, const char *name, char *err, size_t errlen)
{
    hid_t t = H5Dget_type(d);
    H5T_class_t c = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    if (t >= 0)
        H5Tclose(t);
    if (c != H5T_FLOAT) {
        io_setf(err, errlen, "%s: /%s must hold floating-point numbers, not %s", path, name,
                class_name(c));
        return -1;
    }
    return 0;
}

/* An open dataset: its file, the dataset and its dataspace (each -1 when
 * not open), with HDF5's error printing off from h5ds_open to h5ds_close. */
typedef struct h5ds {
    io_quiet q;
    hid_t f, d, space;
} h5ds;

/* Opens dataset /name of file path (`what` names the file in messages).
 * Returns 0, or -1 with err set; h5ds_close is due either way. The
 * dataspace is not checked here: space_dims fails on a bad one. */
static int h5ds_open(h5ds *h, const char *path, const char *what, const char *name, char *err,
                     size_t errlen)
{
    io_quiet_begin(&h->q);
    h->d = h->space = -1;
    h->f = open_ro(path, what, err, errlen);
    if (h->f < 0)
        return -1;
    h->d = open_dataset(h->f, path, name, err, errlen);
    if (h->d < 0)
        return -1;
    h->space = H5Dget_space(h->d);
    return 0;
}

static void h5ds_close(h5ds *h)
{
    if (h->space >= 0)
        H5Sclose(h->space);
    if (h->d >= 0)
        H5Oclose(h->d);
    if (h->f >= 0)
        H5Fclose(h->f);
    io_quiet_end(&h->q);
}

/* The rank of dataspace `space` with its dimensions in dims, or -1. */
static int space_dims(hid_t space, hsize_t dims[H5S_MAX_RANK])
{
    int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
    if (rank < 0 || H5Sget_simple_extent_dims(space, dims, NULL) < 0)
        return -1;
    return rank;
}

/* h5ds_open of /name (what: name), and its rank (returned) and dims: -1
 * with err set when it cannot be opened or its shape read; h5ds_close it
 * either way. */
static int h5ds_open_shape(h5ds *h, const char *path, const char *name,
                           hsize_t dims[H5S_MAX_RANK], char *err, size_t errlen)
{
    if (h5ds_open(h, path, name, name, err, errlen))
        return -1;
    int rank = space_dims(h->space, dims);
    if (rank < 0)
        io_setf(err, errlen, "%s: cannot read the shape of /%s", path, name);
    return rank;
}

/* Reads all of dataset d (/name of path) as doubles into buf. */
static int read_all(hid_t d, const char *path, const char *name, double *buf, char *err,
                    size_t errlen)
{
    if (H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0)
        return 0;
    char why[256];
    io_h5_reason(why, sizeof why);
    io_setf(err, errlen, "%s: cannot read /%s%s%s", path, name, why[0] ? ": " : "", why);
    return -1;
}

static void shape_str(char *buf, size_t n, int rank, const hsize_t *dims)
{
    size_t used = 0;
    buf[0] = '\0';
    used += (size_t)snprintf(buf, n, "(");
    for (int i = 0; i < rank && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%llu", i ? ", " : "",
                                 (unsigned long long)dims[i]);
    if (used < n)
        snprintf(buf + used, n - used, ")");
}

/* ------------------------------------------------------------ budgets */

/* A dataset must hold what its shape declares: one that stores almost
 * nothing (never written, or compressed beyond what deflate can do) would
 * make a small file read gigabytes of fill values. `declared` is the
 * bytes of the shape in the file's type. 0, or -1 with err set. */
int io_check_storage(hid_t d, const char *path, const char *name, double declared, char *err,
                     size_t errlen)
{
    if (declared <= (double)IO_STORAGE_FREE)
        return 0;
    double stored = (double)H5Dget_storage_size(d);
    if (stored * IO_MAX_RATIO >= declared)
        return 0;
    io_setf(err, errlen, "%s: /%s declares %.3g MiB but stores only %.0f bytes (never written, "
            "or compressed more than %d:1)", path, name, declared / 1048576.0, stored, IO_MAX_RATIO);
    return -1;
}

/* The bytes a dataset's shape declares in its file type. */
double io_declared_bytes(hid_t d, hid_t space)
{
    hid_t t = H5Dget_type(d);
    double elt = t >= 0 ? (double)H5Tget_size(t) : 8.0;
    if (t >= 0)
        H5Tclose(t);
    hssize_t np = space >= 0 ? H5Sget_simple_extent_npoints(space) : 0;
    return (double)(np > 0 ? np : 0) * elt;
}

static int read_points_h5(const char *path, int *dim, int64_t *n, double **xyz, char *err,
                          size_t errlen)
{
    int rc = -1;
    double *buf = NULL;
    h5ds h;
    hsize_t dims[H5S_MAX_RANK];
    int rank = h5ds_open_shape(&h, path, "points", dims, err, errlen);
    if (rank < 0)
        goto done;
    if (rank != 2 || (dims[1] != 2 && dims[1] != 3)) {
        char s[128];
        shape_str(s, sizeof s, rank, dims);
        io_setf(err, errlen, "%s: /points has shape %s; it must be (N, 3) or (N, 2)", path, s);
        goto done;
    }
    if (dims[0] == 0) {
        io_setf(err, errlen, "%s: /points holds no points", path);
        goto done;
    }
    if (check_float(h.d, path, "points", err, errlen))
        goto done;
    int dm = (int)dims[1];
    if (dims[0] > (hsize_t)(INT64_MAX / 8 / dm) || dims[0] > SIZE_MAX / sizeof(double) / dm) {
        io_setf(err, errlen, "%s: /points is too large", path);
        goto done;
    }
    char what[64];
    snprintf(what, sizeof what, "%llu points", (unsigned long long)dims[0]);
    if (tbrf_io_budget_check(path, what, 8.0 * (double)dims[0] * dm, err, errlen) ||
        io_check_storage(h.d, path, "points", io_declared_bytes(h.d, h.space), err, errlen))
        goto done;
    int64_t np = (int64_t)dims[0];
    buf = malloc((size_t)np * dm * sizeof *buf);
    if (!buf) {
        io_setf(err, errlen, "%s: not enough memory for %lld points", path, (long long)np);
        goto done;
    }
    if (read_all(h.d, path, "points", buf, err, errlen))
        goto done;
    if (io_points_finite(path, 0, np, dm, buf, err, errlen))
        goto done;
    *dim = dm;
    *n = np;
    *xyz = buf;
    buf = NULL;
    rc = 0;
done:
    free(buf);
    h5ds_close(&h);
    return rc;
}

static int h5r_read_field(const char *path, int64_t n[3], double **values, char *err, size_t errlen)
{
    if (!n || !values) {
        io_setf(err, errlen, "tbrf_io_read_field: NULL argument");
        return -1;
    }
    *values = NULL;
    int rc = -1;
    double *buf = NULL;
    h5ds h;
    hsize_t dims[H5S_MAX_RANK];
    int rank = h5ds_open_shape(&h, path, "field", dims, err, errlen);
    if (rank < 0)
        goto done;
    if (rank != 2 && rank != 3) {
        io_setf(err, errlen, "%s: /field has rank %d; expected 2 or 3", path, rank);
        goto done;
    }
    if (check_float(h.d, path, "field", err, errlen))
        goto done;
    int64_t nn[3] = {1, 1, 1};
    for (int i = 0; i < rank; i++)
        nn[i] = (int64_t)dims[rank - 1 - i];
    uint64_t total = 1;
    for (int i = 0; i < 3; i++) {
        if (nn[i] < 1 || total > SIZE_MAX / sizeof(double) / (uint64_t)nn[i]) {
            io_setf(err, errlen, "%s: /field is too large to read into memory", path);
            goto done;
        }
        total *= (uint64_t)nn[i];
    }
    if (tbrf_io_budget_check(path, "reading /field", 8.0 * (double)total, err, errlen) ||
        io_check_storage(h.d, path, "field", io_declared_bytes(h.d, h.space), err, errlen))
        goto done;
    buf = malloc((size_t)total * sizeof *buf);
    if (!buf) {
        io_setf(err, errlen, "%s: not enough memory to read /field", path);
        goto done;
    }
    if (read_all(h.d, path, "field", buf, err, errlen))
        goto done;
    for (int i = 0; i < 3; i++)
        n[i] = nn[i];
    *values = buf;
    buf = NULL;
    rc = 0;
done:
    free(buf);
    h5ds_close(&h);
    return rc;
}

static int h5r_field_shape(const char *path, int64_t n[3], char *err, size_t errlen)
{
    if (!n) {
        io_setf(err, errlen, "tbrf_io_field_shape: NULL argument");
        return -1;
    }
    int rc = -1;
    h5ds h;
    if (h5ds_open(&h, path, "field", "field", err, errlen))
        goto done;
    hsize_t dims[H5S_MAX_RANK];
    int rank = space_dims(h.space, dims);
    if (rank != 2 && rank != 3) {
        io_setf(err, errlen, "%s: /field is not a 2D or 3D grid", path);
        goto done;
    }
    if (check_float(h.d, path, "field", err, errlen) ||
        io_check_storage(h.d, path, "field", io_declared_bytes(h.d, h.space), err, errlen))
        goto done;
    n[0] = n[1] = n[2] = 1;
    for (int i = 0; i < rank; i++) {
        if (dims[i] < 1 || dims[i] > (hsize_t)INT64_MAX) {
            io_setf(err, errlen, "%s: /field has an empty or huge dimension", path);
            goto done;
        }
        n[i] = (int64_t)dims[rank - 1 - i];
    }
    rc = 0;
done:
    h5ds_close(&h);
    return rc;
}

/* ------------------------------------------------------------ slices */

static int h5r_read_slice(const char *path, int axis, int64_t index, int64_t *w, int64_t *h,
                       double **values, char *err, size_t errlen)
{
    if (!w || !h || !values || axis < 0 || axis > 2) {
        io_setf(err, errlen, "tbrf_io_read_slice: bad arguments");
        return -1;
    }
    *values = NULL;
    int rc = -1;
    hid_t mspace = -1;
    double *buf = NULL;
    static const char *AX = "xyz";
    h5ds ds;
    if (h5ds_open(&ds, path, "field", "field", err, errlen))
        goto done;
    hsize_t dims[H5S_MAX_RANK];
    int rank = space_dims(ds.space, dims);
    if (rank < 0 || (rank != 2 && rank != 3)) {
        io_setf(err, errlen, "%s: /field is not a 2D or 3D grid", path);
        goto done;
    }
    if (check_float(ds.d, path, "field", err, errlen))
        goto done;
    int64_t nn[3] = {1, 1, 1};
    for (int i = 0; i < rank; i++)
        nn[i] = (int64_t)dims[rank - 1 - i];
    if (index < 0 || index >= nn[axis]) {
        io_setf(err, errlen, "%s: --index %lld is outside 0..%lld along %c", path, (long long)index,
                (long long)(nn[axis] - 1), AX[axis]);
        goto done;
    }
    int64_t ww = axis == 0 ? nn[1] : nn[0], hh = axis == 2 ? nn[1] : nn[2];
    hsize_t start[3] = {0, 0, 0}, count[3];
    for (int i = 0; i < rank; i++)
        count[i] = dims[i];
    /* A 2D file has no z dimension: its one z plane is the whole field. */
    if (rank - 1 - axis >= 0) {
        count[rank - 1 - axis] = 1;
        start[rank - 1 - axis] = (hsize_t)index;
    }
    if ((uint64_t)ww * (uint64_t)hh > SIZE_MAX / sizeof(double)) {
        io_setf(err, errlen, "%s: slice too large", path);
        goto done;
    }
    if (tbrf_io_budget_check(path, "one plane of /field", 8.0 * (double)ww * (double)hh, err,
                             errlen) ||
        io_check_storage(ds.d, path, "field", io_declared_bytes(ds.d, ds.space), err, errlen))
        goto done;
    buf = malloc((size_t)(ww * hh) * sizeof *buf);
    hsize_t mdim = (hsize_t)(ww * hh);
    mspace = H5Screate_simple(1, &mdim, NULL);
    if (!buf || mspace < 0) {
        io_setf(err, errlen, "%s: not enough memory for the slice", path);
        goto done;
    }
    if (H5Sselect_hyperslab(ds.space, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
        H5Dread(ds.d, H5T_NATIVE_DOUBLE, mspace, ds.space, H5P_DEFAULT, buf) < 0) {
        char why[256];
        io_h5_reason(why, sizeof why);
        io_setf(err, errlen, "%s: cannot read the slice%s%s", path, why[0] ? ": " : "", why);
        goto done;
    }
    *w = ww;
    *h = hh;
    *values = buf;
    buf = NULL;
    rc = 0;
done:
    free(buf);
    if (mspace >= 0)
        H5Sclose(mspace);
    h5ds_close(&ds);
    return rc;
}

/* -------------------------------------------------------- attributes */

/* The handle of the open slot. */
typedef struct h5r_file {
    hid_t f;
} h5r_file;

static void *h5r_open(const char *path, char *err, size_t errlen)
{
    io_quiet q;
    io_quiet_begin(&q);
    hid_t h = open_ro(path, "input", err, errlen);
    io_quiet_end(&q);
    if (h < 0)
        return NULL;
    h5r_file *f = malloc(sizeof *f);
    if (!f) {
        H5Fclose(h);
        io_setf(err, errlen, "out of memory");
        return NULL;
    }
    f->f = h;
    return f;
}

static void h5r_close(void *handle)
{
    h5r_file *f = handle;
    if (!f)
        return;
    io_quiet q;
    io_quiet_begin(&q);
    H5Fclose(f->f);
    io_quiet_end(&q);
    free(f);
}


/* Reads a numeric attribute of at most max (<= 16) elements (scalar or
 * 1-D, as HDF5 and netCDF-4 write them) as doubles or 64-bit integers.
 * Integers are read in their own signedness and refused when the value
 * does not fit (a negative seed is no seed, not 0). */
static int h5r_attr_num(void *handle, const char *name, int as, void *v, int max)
{
    h5r_file *f = handle;
    if (!f || !name || !v)
        return 0;
    io_quiet q;
    io_quiet_begin(&q);
    htri_t ex = H5Aexists(f->f, name);
    if (ex <= 0) {
        io_quiet_end(&q);
        return ex < 0 ? -1 : 0;
    }
    int rc = -1;
    hid_t a = H5Aopen(f->f, name, H5P_DEFAULT);
    hid_t t = a >= 0 ? H5Aget_type(a) : -1;
    hid_t s = a >= 0 ? H5Aget_space(a) : -1;
    H5T_class_t cls = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    hssize_t npts = s >= 0 ? H5Sget_simple_extent_npoints(s) : -1;
    if (npts < 1 || npts > max || max > 16)
        goto done;
    if (as == IO_AS_F64) {
        if (cls == H5T_FLOAT && H5Aread(a, H5T_NATIVE_DOUBLE, v) >= 0)
            rc = (int)npts;
        goto done;
    }
    if (cls != H5T_INTEGER)
        goto done;
    if (H5Tget_sign(t) == H5T_SGN_NONE) {
        uint64_t u[16];
        if (H5Aread(a, H5T_NATIVE_UINT64, u) < 0)
            goto done;
        for (hssize_t i = 0; i < npts; i++)
            if (as == IO_AS_I64 && u[i] > (uint64_t)INT64_MAX)
                goto done;
        memcpy(v, u, (size_t)npts * sizeof *u);
    } else {
        int64_t i64[16];
        if (H5Aread(a, H5T_NATIVE_INT64, i64) < 0)
            goto done;
        for (hssize_t i = 0; i < npts; i++)
            if (as == IO_AS_U64 && i64[i] < 0)
                goto done;
        memcpy(v, i64, (size_t)npts * sizeof *i64);
    }
    rc = (int)npts;
done:
    if (s >= 0)
        H5Sclose(s);
    if (t >= 0)
        H5Tclose(t);
    if (a >= 0)
        H5Aclose(a);
    io_quiet_end(&q);
    return rc;
}

int io_attr_string(hid_t a, char **out)
{
    *out = NULL;
    int rc = -1;
    hid_t t = H5Aget_type(a), s = H5Aget_space(a), mt = -1;
    /* One string only: an array of them would be read past any buffer. */
    if (t < 0 || s < 0 || H5Tget_class(t) != H5T_STRING ||
        H5Sget_simple_extent_npoints(s) != 1)
        goto done;
    H5T_cset_t cset = H5Tget_cset(t);
    if (cset < 0 || (mt = H5Tcopy(H5T_C_S1)) < 0 || H5Tset_cset(mt, cset) < 0)
        goto done;
    if (H5Tis_variable_str(t) > 0) {
        /* HDF5 converts between ASCII and UTF-8 nowhere: read in the
         * file's character set (h5py writes UTF-8). */
        char *v = NULL;
        if (H5Tset_size(mt, H5T_VARIABLE) < 0 || H5Aread(a, mt, &v) < 0)
            goto done;
        size_t n = v ? strnlen(v, TBRF_IO_MAX_STRING + 1) : 0;
        if (n <= TBRF_IO_MAX_STRING && (*out = malloc(n + 1)) != NULL) {
            memcpy(*out, v ? v : "", n);
            (*out)[n] = '\0';
            rc = 1;
        }
        if (v)
            H5free_memory(v);
        goto done;
    }
    /* Fixed length: read NUL-padded at the file's size, so a string that
     * fills its size keeps its last character (netCDF writes no NUL). */
    size_t sz = H5Tget_size(t);
    if (sz == 0 || sz > TBRF_IO_MAX_STRING || H5Tset_size(mt, sz) < 0 ||
        H5Tset_strpad(mt, H5T_STR_NULLPAD) < 0)
        goto done;
    char *v = calloc(sz + 1, 1);
    if (!v || H5Aread(a, mt, v) < 0) {
        free(v);
        goto done;
    }
    size_t n = strlen(v);
    if (H5Tget_strpad(t) == H5T_STR_SPACEPAD)
        while (n > 0 && v[n - 1] == ' ')
            v[--n] = '\0';
    *out = v;
    rc = 1;
done:
    if (mt >= 0)
        H5Tclose(mt);
    if (s >= 0)
        H5Sclose(s);
    if (t >= 0)
        H5Tclose(t);
    return rc;
}

static int h5r_attr_str(void *handle, const char *name, char **out)
{
    h5r_file *f = handle;
    *out = NULL;
    if (!f || !name)
        return 0;
    io_quiet q;
    io_quiet_begin(&q);
    int rc = 0;
    htri_t ex = H5Aexists(f->f, name);
    if (ex < 0)
        rc = -1;
    else if (ex > 0) {
        hid_t a = H5Aopen(f->f, name, H5P_DEFAULT);
        rc = a >= 0 ? io_attr_string(a, out) : -1;
        if (a >= 0)
            H5Aclose(a);
    }
    io_quiet_end(&q);
    return rc;
}

static int h5r_table(void *handle, size_t *n, double **k, double **p)
{
    h5r_file *f = handle;
    *k = *p = NULL;
    *n = 0;
    if (!f)
        return -1;
    io_quiet q;
    io_quiet_begin(&q);
    int rc = -1;
    double *t = NULL;
    hid_t d = H5Lexists(f->f, "model_table", H5P_DEFAULT) > 0
                  ? H5Dopen2(f->f, "model_table", H5P_DEFAULT) : -1;
    hid_t s = d >= 0 ? H5Dget_space(d) : -1;
    hid_t ty = d >= 0 ? H5Dget_type(d) : -1;
    hsize_t dims[2];
    char err[8];
    /* At most TBRF_IO_MAX_TABLE_ROWS rows of numbers that are stored. */
    if (s >= 0 && ty >= 0 && H5Tget_class(ty) == H5T_FLOAT &&
        H5Sget_simple_extent_ndims(s) == 2 && H5Sget_simple_extent_dims(s, dims, NULL) == 2 &&
        dims[1] == 2 && dims[0] >= 2 && dims[0] <= TBRF_IO_MAX_TABLE_ROWS &&
        io_check_storage(d, "", "model_table", io_declared_bytes(d, s), err, sizeof err) == 0) {
        t = malloc((size_t)dims[0] * 2 * sizeof *t);
        *k = malloc((size_t)dims[0] * sizeof **k);
        *p = malloc((size_t)dims[0] * sizeof **p);
        if (t && *k && *p && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, t) >= 0) {
            for (hsize_t i = 0; i < dims[0]; i++) {
                (*k)[i] = t[2 * i];
                (*p)[i] = t[2 * i + 1];
            }
            *n = (size_t)dims[0];
            rc = 0;
        }
    }
    if (rc) {
        free(*k);
        free(*p);
        *k = *p = NULL;
    }
    free(t);
    if (ty >= 0)
        H5Tclose(ty);
    if (s >= 0)
        H5Sclose(s);
    if (d >= 0)
        H5Dclose(d);
    io_quiet_end(&q);
    return rc;
}

static int h5r_read_values(const char *path, int64_t *n, double **values, char *err, size_t errlen)
{
    *values = NULL;
    int rc = -1;
    double *buf = NULL;
    h5ds h;
    if (h5ds_open(&h, path, "values", "value", err, errlen))
        goto done;
    hid_t space = h.space;
    hssize_t np = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
    if (np < 1 || H5Sget_simple_extent_ndims(space) != 1 || check_float(h.d, path, "value", err, errlen)) {
        if (np < 1 || H5Sget_simple_extent_ndims(space) != 1)
            io_setf(err, errlen, "%s: /value is not a one-dimensional array of values", path);
        goto done;
    }
    if (tbrf_io_budget_check(path, "reading /value", 8.0 * (double)np, err, errlen) ||
        io_check_storage(h.d, path, "value", io_declared_bytes(h.d, space), err, errlen))
        goto done;
    buf = (uint64_t)np < SIZE_MAX / sizeof(double) ? malloc((size_t)np * sizeof *buf) : NULL;
    if (!buf) {
        io_setf(err, errlen, "%s: not enough memory to read /value", path);
        goto done;
    }
    if (read_all(h.d, path, "value", buf, err, errlen))
        goto done;
    *n = (int64_t)np;
    *values = buf;
    buf = NULL;
    rc = 0;
done:
    free(buf);
    h5ds_close(&h);
    return rc;
}

/* ------------------------------------------------------------- vectors */

/* One whole float dataset /name as doubles: its value count in *n, its
 * last dimension in *last. 0 or -1 (message in err). */
static int read_dataset(const char *path, const char *name, int64_t *n, int64_t *last,
                        double **out, char *err, size_t errlen)
{
    *out = NULL;
    int rc = -1;
    double *buf = NULL;
    h5ds h;
    if (h5ds_open(&h, path, "values", name, err, errlen))
        goto done;
    hssize_t np = h.space >= 0 ? H5Sget_simple_extent_npoints(h.space) : -1;
    hsize_t dims[H5S_MAX_RANK];
    int rank = h.space >= 0 ? H5Sget_simple_extent_dims(h.space, dims, NULL) : -1;
    if (np < 1 || rank < 1 || check_float(h.d, path, name, err, errlen)) {
        if (np < 1 || rank < 1)
            io_setf(err, errlen, "%s: /%s holds no values", path, name);
        goto done;
    }
    if (tbrf_io_budget_check(path, "reading the values", 8.0 * (double)np, err, errlen) ||
        io_check_storage(h.d, path, name, io_declared_bytes(h.d, h.space), err, errlen))
        goto done;
    buf = (uint64_t)np < SIZE_MAX / sizeof(double) ? malloc((size_t)np * sizeof *buf) : NULL;
    if (!buf) {
        io_setf(err, errlen, "%s: not enough memory to read /%s", path, name);
        goto done;
    }
    if (read_all(h.d, path, name, buf, err, errlen))
        goto done;
    *n = (int64_t)np;
    *last = (int64_t)dims[rank - 1];
    *out = buf;
    buf = NULL;
    rc = 0;
done:
    free(buf);
    h5ds_close(&h);
    return rc;
}

static int has_dataset(const char *path, const char *name)
{
    io_quiet q;
    io_quiet_begin(&q);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    int yes = f >= 0 && H5Lexists(f, name, H5P_DEFAULT) > 0;
    if (f >= 0)
        H5Fclose(f);
    io_quiet_end(&q);
    return yes;
}

static int h5r_read_vector(const char *path, int *ncomp, int64_t *npos, double **values, char *err,
                        size_t errlen)
{
    static const char *const AX[3] = {"x", "y", "z"};
    *values = NULL;
    int64_t nc = 1;
    char e2[256];
    tbrf_io_file *f = tbrf_io_open(path, e2, sizeof e2);
    if (f) {
        if (tbrf_io_attr_i64(f, "components", &nc, 1) != 1)
            nc = 1;
        tbrf_io_file_close(f);
    }
    if (nc < 1 || nc > 3) {
        io_setf(err, errlen, "%s: attribute components = %lld is not 1, 2 or 3", path, (long long)nc);
        return -1;
    }
    const char *base = has_dataset(path, "field") || has_dataset(path, "field_x") ? "field" : "value";
    int64_t n = 0, last = 0;
    if (has_dataset(path, base)) { /* HDF5: one dataset, components last */
        if (read_dataset(path, base, &n, &last, values, err, errlen))
            return -1;
        if (nc > 1 && last != nc) {
            io_setf(err, errlen, "%s: /%s has %lld values per position, the file says %lld "
                                 "components", path, base, (long long)last, (long long)nc);
            free(*values);
            *values = NULL;
            return -1;
        }
        *ncomp = (int)nc;
        *npos = n / nc;
        return 0;
    }
    /* netCDF: one variable per component, interleaved here */
    double *all = NULL;
    for (int c = 0; c < nc; c++) {
        char name[16];
        double *col = NULL;
        int64_t m = 0;
        snprintf(name, sizeof name, "%s_%s", base, AX[c]);
        if (read_dataset(path, name, &m, &last, &col, err, errlen) || (c > 0 && m != n)) {
            if (col && c > 0 && m != n)
                io_setf(err, errlen, "%s: %s holds %lld values, %s_x %lld", path, name,
                        (long long)m, base, (long long)n);
            free(col);
            free(all);
            return -1;
        }
        if (c == 0) {
            n = m;
            all = (uint64_t)n < SIZE_MAX / (sizeof(double) * 3) ? malloc((size_t)(n * nc) * sizeof *all) : NULL;
            if (!all) {
                io_setf(err, errlen, "%s: not enough memory to read the components", path);
                free(col);
                return -1;
            }
        }
        for (int64_t i = 0; i < n; i++)
            all[i * nc + c] = col[i];
        free(col);
    }
    *ncomp = (int)nc;
    *npos = n;
    *values = all;
    return 0;
}

/* ------------------------------------------------- grids of every kind */

/* The dataset of component c: /field, or field_x/_y/_z when split. */
static const char *part_name(const tbrf_io_layout *L, int c)
{
    static const char *const SPLIT[3] = {"field_x", "field_y", "field_z"};
    return L->split ? SPLIT[c] : "field";
}

/* Opens the dataset of component c and checks its shape against *L (the
 * split components must all have the grid's shape). */
static int part_open(h5ds *h, const char *path, const tbrf_io_layout *L, int c, char *err,
                     size_t errlen)
{
    const char *name = part_name(L, c);
    if (h5ds_open(h, path, "grid", name, err, errlen))
        return -1;
    hsize_t dims[H5S_MAX_RANK];
    int rank = space_dims(h->space, dims);
    int want = L->dim + (L->nt > 0) + (!L->split && L->ncomp > 1);
    int ok = rank == want;
    for (int a = 0; ok && a < L->dim; a++)
        ok = dims[(L->nt > 0) + L->dim - 1 - a] == (hsize_t)L->n[a];
    if (!ok) {
        char s[128];
        shape_str(s, sizeof s, rank < 0 ? 0 : rank, dims);
        io_setf(err, errlen, "%s: /%s is %s, not the grid of /%s", path, name, s,
                part_name(L, 0));
        return -1;
    }
    return check_float(h->d, path, name, err, errlen) ||
           io_check_storage(h->d, path, name, io_declared_bytes(h->d, h->space), err, errlen);
}

static int h5r_grid_layout(const char *path, tbrf_io_layout *L, char *err, size_t errlen)
{
    if (!L) {
        io_setf(err, errlen, "tbrf_io_grid_layout: NULL argument");
        return -1;
    }
    memset(L, 0, sizeof *L);
    int64_t comps = 1;
    char e2[256];
    tbrf_io_file *f = tbrf_io_open(path, e2, sizeof e2);
    if (f) {
        if (tbrf_io_attr_i64(f, "components", &comps, 1) != 1)
            comps = 1;
        tbrf_io_file_close(f);
    }
    int series = has_dataset(path, "time");
    L->split = !has_dataset(path, "field") && has_dataset(path, "field_x");
    h5ds h;
    int rc = -1;
    if (h5ds_open(&h, path, "grid", L->split ? "field_x" : "field", err, errlen))
        goto done;
    hsize_t dims[H5S_MAX_RANK];
    int rank = space_dims(h.space, dims);
    if (check_float(h.d, path, L->split ? "field_x" : "field", err, errlen))
        goto done;
    /* A series (`tbrf drive`) always holds vectors of its dimension; a
     * single field is a vector when its "components" attribute says so. */
    int vec_axis = !L->split && (series || comps > 1);
    L->dim = rank - series - vec_axis;
    L->ncomp = vec_axis ? (int)(rank > 0 ? dims[rank - 1] : 0) : L->split ? (int)comps : 1;
    if (series && L->dim == 1 && L->ncomp == 3) {
        io_setf(err, errlen, "%s: /field is a 1D series (time, nx, component): a grid of 2 or 3 "
                "dimensions is needed here (read it with h5py or ParaView)", path);
        rc = -2;
        goto done;
    }
    /* a series in a 2D box may hold three components (doc/driving.md) */
    const int nc_ok = L->ncomp == L->dim || (series && L->dim == 2 && L->ncomp == 3);
    if (L->dim < 2 || L->dim > 3 || (vec_axis && !nc_ok) ||
        (!vec_axis && comps > 1 && !L->split) || (L->split && (comps < 2 || comps > 3))) {
        char s[128];
        shape_str(s, sizeof s, rank < 0 ? 0 : rank, dims);
        io_setf(err, errlen, "%s: /%s is %s, not a 2D or 3D grid%s", path,
                L->split ? "field_x" : "field", s,
                series ? " series (time, [nz,] ny, nx, component)"
                : comps > 1 ? " of vectors ([nz,] ny, nx, component)" : "");
        goto done;
    }
    L->nt = series ? (int64_t)dims[0] : 0;
    L->n[2] = 1;
    for (int a = 0; a < L->dim; a++) {
        hsize_t d = dims[series + L->dim - 1 - a];
        if (d < 1 || d > (hsize_t)INT32_MAX) {
            io_setf(err, errlen, "%s: /field has an empty or huge dimension", path);
            goto done;
        }
        L->n[a] = (int64_t)d;
    }
    if (series && L->nt < 1) {
        io_setf(err, errlen, "%s: the series holds no frames", path);
        goto done;
    }
    rc = 0;
done:
    h5ds_close(&h);
    return rc;
}

/* Reads the selection of component dataset c into buf (count values
 * per cell: ncomp for /field of a vector unless one component is
 * picked, else 1). */
static int read_part(const char *path, const tbrf_io_layout *L, int c, int one, int64_t frame,
                     int axis, int64_t index, int64_t cells, double *buf, char *err,
                     size_t errlen)
{
    h5ds h;
    hid_t mspace = -1;
    int rc = -1;
    if (part_open(&h, path, L, c, err, errlen))
        goto done;
    hsize_t dims[H5S_MAX_RANK], start[H5S_MAX_RANK] = {0}, count[H5S_MAX_RANK];
    int rank = space_dims(h.space, dims), t = L->nt > 0;
    for (int i = 0; i < rank; i++)
        count[i] = dims[i];
    if (t)
        start[0] = (hsize_t)frame, count[0] = 1;
    if (axis >= 0)
        start[t + L->dim - 1 - axis] = (hsize_t)index, count[t + L->dim - 1 - axis] = 1;
    int per = 1;
    if (!L->split && L->ncomp > 1) {
        if (one)
            start[rank - 1] = (hsize_t)c, count[rank - 1] = 1;
        else
            per = L->ncomp;
    }
    hsize_t m = (hsize_t)cells * (hsize_t)per;
    mspace = H5Screate_simple(1, &m, NULL);
    if (mspace < 0 ||
        H5Sselect_hyperslab(h.space, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
        H5Dread(h.d, H5T_NATIVE_DOUBLE, mspace, h.space, H5P_DEFAULT, buf) < 0) {
        char why[256];
        io_h5_reason(why, sizeof why);
        io_setf(err, errlen, "%s: cannot read /%s%s%s", path, part_name(L, c), why[0] ? ": " : "",
                why);
        goto done;
    }
    rc = 0;
done:
    if (mspace >= 0)
        H5Sclose(mspace);
    h5ds_close(&h);
    return rc;
}

/* Folds n interleaved vectors of nc components in v into their magnitudes
 * (in place, front to back). */
static void to_magnitude(double *v, int64_t n, int nc)
{
    for (int64_t i = 0; i < n; i++) {
        double s = 0;
        for (int c = 0; c < nc; c++)
            s += v[i * nc + c] * v[i * nc + c];
        v[i] = sqrt(s);
    }
}

static int h5r_read_grid_part(const char *path, const tbrf_io_layout *L, int64_t frame, int axis,
                           int64_t index, int comp, double **values, char *err, size_t errlen)
{
    if (!L || !values || axis < -1 || axis > 2 || (axis >= L->dim) ||
        (comp != TBRF_IO_ALL_COMPONENTS && comp != TBRF_IO_MAGNITUDE &&
         (comp < 0 || comp >= L->ncomp))) {
        io_setf(err, errlen, "tbrf_io_read_grid_part: bad arguments");
        return -1;
    }
    *values = NULL;
    if (L->nt > 0 ? (frame < 0 || frame >= L->nt) : frame != 0) {
        io_setf(err, errlen, "%s: frame %lld is not one of the file's %lld", path,
                (long long)frame, (long long)(L->nt > 0 ? L->nt : 1));
        return -1;
    }
    if (axis >= 0 && (index < 0 || index >= L->n[axis])) {
        io_setf(err, errlen, "%s: --index %lld is outside 0..%lld along %c", path,
                (long long)index, (long long)(L->n[axis] - 1), 'x' + axis);
        return -1;
    }
    int64_t cells = 1;
    for (int a = 0; a < 3; a++)
        cells *= a == axis ? 1 : L->n[a];
    int per = comp >= 0 ? 1 : L->ncomp;
    double bytes = 8.0 * (double)cells * per * (L->split && per > 1 ? 2 : 1);
    if ((double)cells * per > (double)(SIZE_MAX / sizeof(double) / 2) ||
        tbrf_io_budget_check(path, "reading the grid", bytes, err, errlen))
        return -1;
    double *buf = malloc((size_t)(cells * per) * sizeof *buf);
    if (!buf) {
        io_setf(err, errlen, "%s: not enough memory to read the grid", path);
        return -1;
    }
    int rc = 0;
    if (!L->split || comp >= 0) {
        rc = read_part(path, L, comp >= 0 ? comp : 0, comp >= 0, frame, axis, index, cells, buf,
                       err, errlen);
    } else { /* netCDF: one variable per component, interleaved here */
        double *col = malloc((size_t)cells * sizeof *col);
        rc = col ? 0 : -1;
        if (!col)
            io_setf(err, errlen, "%s: not enough memory to read the grid", path);
        for (int c = 0; rc == 0 && c < L->ncomp; c++) {
            rc = read_part(path, L, c, 1, frame, axis, index, cells, col, err, errlen);
            for (int64_t i = 0; rc == 0 && i < cells; i++)
                buf[i * L->ncomp + c] = col[i];
        }
        free(col);
    }
    if (rc) {
        free(buf);
        return -1;
    }
    if (comp == TBRF_IO_MAGNITUDE)
        to_magnitude(buf, cells, L->ncomp);
    *values = buf;
    return 0;
}

static int h5r_read_times(const char *path, int64_t *nt, double **t, char *err, size_t errlen)
{
    int64_t last;
    if (!nt || !t) {
        io_setf(err, errlen, "tbrf_io_read_times: NULL argument");
        return -1;
    }
    return read_dataset(path, "time", nt, &last, t, err, errlen);
}

static int h5r_dataset_units(const char *path, const char *name, char *buf, size_t len)
{
    if (!buf || len == 0)
        return 0;
    buf[0] = '\0';
    io_quiet q;
    io_quiet_begin(&q);
    int found = 0;
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f >= 0 && H5Lexists(f, name, H5P_DEFAULT) > 0 &&
        H5Aexists_by_name(f, name, "units", H5P_DEFAULT) > 0) {
        hid_t a = H5Aopen_by_name(f, name, "units", H5P_DEFAULT, H5P_DEFAULT);
        char *s = NULL;
        if (a >= 0 && io_attr_string(a, &s) == 0 && s) {
            snprintf(buf, len, "%s", s);
            found = 1;
        }
        free(s);
        if (a >= 0)
            H5Aclose(a);
    }
    if (f >= 0)
        H5Fclose(f);
    io_quiet_end(&q);
    return found;
}

/* Positions: /points, or an HDF5 file with x (and no /points) through
 * netCDF, which reads such files too. */
static int h5r_points(const char *path, int *dim, int64_t *n, double **xyz, char *err,
                      size_t errlen)
{
    io_quiet q;
    io_quiet_begin(&q);
    hid_t h = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    int has_points = h >= 0 && H5Lexists(h, "points", H5P_DEFAULT) > 0;
    int has_x = h >= 0 && H5Lexists(h, "x", H5P_DEFAULT) > 0;
    if (h >= 0)
        H5Fclose(h);
    io_quiet_end(&q);
    if (has_points || !has_x)
        return read_points_h5(path, dim, n, xyz, err, errlen);
    return io_nc_read_points(path, dim, n, xyz, err, errlen);
}

static const unsigned char H5SIG[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

static int h5r_probe(const char *path, const unsigned char *magic, size_t got)
{
    (void)path;
    return got == 8 && memcmp(magic, H5SIG, 8) == 0;
}

/* netCDF writes _NCProperties as a fixed-length string. One of variable
 * length (the file's strings rewritten by an HDF5 tool) is read as HDF5:
 * netCDF-C leaks its copy of such an attribute at every nc_open. */
int io_h5_is_netcdf4(const char *path)
{
    io_quiet q;
    io_quiet_begin(&q);
    hid_t h = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t a = h >= 0 && H5Aexists(h, "_NCProperties") > 0 ? H5Aopen(h, "_NCProperties", H5P_DEFAULT)
                                                          : -1;
    hid_t t = a >= 0 ? H5Aget_type(a) : -1;
    int yes = t >= 0 && H5Tget_class(t) == H5T_STRING && H5Tis_variable_str(t) == 0;
    if (t >= 0)
        H5Tclose(t);
    if (a >= 0)
        H5Aclose(a);
    if (h >= 0)
        H5Fclose(h);
    io_quiet_end(&q);
    return yes;
}

int io_h5_check_stored(const char *path, const char *const *names, int n, char *err,
                       size_t errlen)
{
    io_quiet q;
    io_quiet_begin(&q);
    hid_t h = H5Fis_hdf5(path) > 0 ? H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT) : -1;
    int bad = 0;
    for (int c = 0; h >= 0 && c < n && !bad; c++) {
        hid_t d = H5Lexists(h, names[c], H5P_DEFAULT) > 0 ? H5Dopen2(h, names[c], H5P_DEFAULT) : -1;
        hid_t sp = d >= 0 ? H5Dget_space(d) : -1;
        if (d >= 0 && sp >= 0)
            bad = io_check_storage(d, path, names[c], io_declared_bytes(d, sp), err, errlen);
        if (sp >= 0)
            H5Sclose(sp);
        if (d >= 0)
            H5Dclose(d);
    }
    if (h >= 0)
        H5Fclose(h);
    io_quiet_end(&q);
    return bad ? -1 : 0;
}

const io_reader_ops io_hdf5_reader = {
    .name = "hdf5",
    .title = "HDF5",
    .field = "/field",
    .field_split = "/field",
    .probe = h5r_probe,
    .open = h5r_open,
    .close = h5r_close,
    .attr_num = h5r_attr_num,
    .attr_str = h5r_attr_str,
    .table = h5r_table,
    .info = io_h5_info,
    .grid_layout = h5r_grid_layout,
    .grid_part = h5r_read_grid_part,
    .times = h5r_read_times,
    .units = h5r_dataset_units,
    .field_shape = h5r_field_shape,
    .read_field = h5r_read_field,
    .read_slice = h5r_read_slice,
    .points = h5r_points,
    .values = h5r_read_values,
    .vector = h5r_read_vector,
};
