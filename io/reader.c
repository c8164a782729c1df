/* reader.c — reading positions (/points) and grids (/field) back.
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

#include "io_internal.h"
#include "tbrf_io.h"

/* Opens an existing HDF5 file read-only, checking first with the OS so
 * that "missing" and "not readable" are told apart from "not HDF5". */
static hid_t open_ro(const char *path, const char *what, char *err, size_t errlen)
{
    if (!path || !path[0]) {
        io_setf(err, errlen, "no %s file name given", what);
        return -1;
    }
    struct stat st;
    if (stat(path, &st) != 0) {
        io_setf(err, errlen, "cannot read %s file %s: %s", what, path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        io_setf(err, errlen, "cannot read %s file %s: it is a directory", what, path);
        return -1;
    }
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

int tbrf_io_read_points(const char *path, int *dim, int64_t *n, double **xyz, char *err,
                        size_t errlen)
{
    if (!dim || !n || !xyz) {
        io_setf(err, errlen, "tbrf_io_read_points: NULL argument");
        return -1;
    }
    *xyz = NULL;
    io_quiet q;
    io_quiet_begin(&q);
    int rc = -1;
    hid_t d = -1, space = -1;
    double *buf = NULL;
    hid_t f = open_ro(path, "points", err, errlen);
    if (f < 0)
        goto done;
    d = open_dataset(f, path, "points", err, errlen);
    if (d < 0)
        goto done;
    space = H5Dget_space(d);
    int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
    hsize_t dims[H5S_MAX_RANK];
    if (rank < 0 || H5Sget_simple_extent_dims(space, dims, NULL) < 0) {
        io_setf(err, errlen, "%s: cannot read the shape of /points", path);
        goto done;
    }
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
    if (check_float(d, path, "points", err, errlen))
        goto done;
    int dm = (int)dims[1];
    if (dims[0] > (hsize_t)(INT64_MAX / 8 / dm) || dims[0] > SIZE_MAX / sizeof(double) / dm) {
        io_setf(err, errlen, "%s: /points is too large", path);
        goto done;
    }
    int64_t np = (int64_t)dims[0];
    buf = malloc((size_t)np * dm * sizeof *buf);
    if (!buf) {
        io_setf(err, errlen, "%s: not enough memory for %lld points", path, (long long)np);
        goto done;
    }
    if (H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) {
        char why[256];
        io_h5_reason(why, sizeof why);
        io_setf(err, errlen, "%s: cannot read /points%s%s", path, why[0] ? ": " : "", why);
        goto done;
    }
    for (int64_t i = 0; i < np * dm; i++) {
        if (!isfinite(buf[i])) {
            io_setf(err, errlen, "%s: /points row %lld has a%s coordinate", path,
                    (long long)(i / dm), isnan(buf[i]) ? " NaN" : "n infinite");
            goto done;
        }
    }
    *dim = dm;
    *n = np;
    *xyz = buf;
    buf = NULL;
    rc = 0;
done:
    free(buf);
    if (space >= 0)
        H5Sclose(space);
    if (d >= 0)
        H5Oclose(d);
    if (f >= 0)
        H5Fclose(f);
    io_quiet_end(&q);
    return rc;
}

int tbrf_io_read_field(const char *path, int64_t n[3], double **values, char *err, size_t errlen)
{
    if (!n || !values) {
        io_setf(err, errlen, "tbrf_io_read_field: NULL argument");
        return -1;
    }
    *values = NULL;
    io_quiet q;
    io_quiet_begin(&q);
    int rc = -1;
    hid_t d = -1, space = -1;
    double *buf = NULL;
    hid_t f = open_ro(path, "field", err, errlen);
    if (f < 0)
        goto done;
    d = open_dataset(f, path, "field", err, errlen);
    if (d < 0)
        goto done;
    space = H5Dget_space(d);
    int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
    hsize_t dims[H5S_MAX_RANK];
    if (rank < 0 || H5Sget_simple_extent_dims(space, dims, NULL) < 0) {
        io_setf(err, errlen, "%s: cannot read the shape of /field", path);
        goto done;
    }
    if (rank != 2 && rank != 3) {
        io_setf(err, errlen, "%s: /field has rank %d; expected 2 or 3", path, rank);
        goto done;
    }
    if (check_float(d, path, "field", err, errlen))
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
    buf = malloc((size_t)total * sizeof *buf);
    if (!buf) {
        io_setf(err, errlen, "%s: not enough memory to read /field", path);
        goto done;
    }
    if (H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) {
        char why[256];
        io_h5_reason(why, sizeof why);
        io_setf(err, errlen, "%s: cannot read /field%s%s", path, why[0] ? ": " : "", why);
        goto done;
    }
    for (int i = 0; i < 3; i++)
        n[i] = nn[i];
    *values = buf;
    buf = NULL;
    rc = 0;
done:
    free(buf);
    if (space >= 0)
        H5Sclose(space);
    if (d >= 0)
        H5Oclose(d);
    if (f >= 0)
        H5Fclose(f);
    io_quiet_end(&q);
    return rc;
}
