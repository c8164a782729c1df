/* hdf5_points_stream.c — reading /points of an HDF5 file by hyperslabs, so a
 * points run holds one chunk of positions at a time, not the file
 * (doc/guarantees-outputs.md, "Size and time guards"). The checks and
 * messages follow tbrf_io_read_points (reader.c), which stays the one
 * reader of every other kind of points file. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/hdf5_format.h"
#include "io/tbrf_io.h"

struct tbrf_io_points_reader {
    char *path;
    hid_t file, dset, space;
    int dim;
    int64_t n;
};

static void reader_free(tbrf_io_points_reader *r)
{
    if (!r)
        return;
    io_quiet q;
    io_quiet_begin(&q);
    if (r->space >= 0)
        H5Sclose(r->space);
    if (r->dset >= 0)
        H5Dclose(r->dset);
    if (r->file >= 0)
        H5Fclose(r->file);
    io_quiet_end(&q);
    free(r->path);
    free(r);
}

int tbrf_io_points_open(const char *path, tbrf_io_points_reader **out, int *dim, int64_t *n,
                        char *err, size_t errlen)
{
    if (!path || !out || !dim || !n) {
        io_setf(err, errlen, "tbrf_io_points_open: NULL argument");
        return -1;
    }
    *out = NULL;
    /* Only an HDF5 file with /points streams; the rest is reader.c's (a
     * pipe among them: it is not probed, which would eat its first bytes). */
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 1;
    static const unsigned char h5sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    unsigned char magic[8] = {0};
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(magic, 1, sizeof magic, f) : 0;
    if (f)
        fclose(f);
    if (got != 8 || memcmp(magic, h5sig, 8) != 0)
        return 1;
    io_quiet q;
    io_quiet_begin(&q);
    int rc = 1;
    tbrf_io_points_reader *r = calloc(1, sizeof *r);
    if (!r) {
        io_quiet_end(&q);
        return 1;
    }
    r->file = r->dset = r->space = -1;
    r->path = malloc(strlen(path) + 1);
    if (r->path)
        strcpy(r->path, path);
    r->file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (!r->path || r->file < 0 || H5Lexists(r->file, "points", H5P_DEFAULT) <= 0)
        goto done;
    r->dset = H5Dopen2(r->file, "points", H5P_DEFAULT);
    r->space = r->dset >= 0 ? H5Dget_space(r->dset) : -1;
    hid_t type = r->dset >= 0 ? H5Dget_type(r->dset) : -1;
    int is_float = type >= 0 && H5Tget_class(type) == H5T_FLOAT;
    if (type >= 0)
        H5Tclose(type);
    hsize_t dims[H5S_MAX_RANK];
    int rank = r->space >= 0 ? H5Sget_simple_extent_ndims(r->space) : -1;
    /* Anything unusual (shape, type, emptiness) is left to reader.c,
     * whose messages say what is wrong. */
    if (!is_float || rank != 2 || H5Sget_simple_extent_dims(r->space, dims, NULL) < 0 ||
        (dims[1] != 2 && dims[1] != 3) || dims[0] == 0 || dims[0] > (hsize_t)(INT64_MAX / 8 / 3))
        goto done;
    /* A /points that stores far less than its shape declares (never
     * written) would stream gigabytes of fill values: left to reader.c,
     * which refuses it by the same check, with its message. */
    if (io_check_storage(r->dset, r->path, "points", io_declared_bytes(r->dset, r->space), NULL, 0))
        goto done;
    r->dim = (int)dims[1];
    r->n = (int64_t)dims[0];
    rc = 0;
done:
    io_quiet_end(&q);
    if (rc) {
        reader_free(r);
        return 1;
    }
    *dim = r->dim;
    *n = r->n;
    *out = r;
    return 0;
}

int tbrf_io_points_read(tbrf_io_points_reader *r, int64_t first, int64_t count, double *xyz,
                        char *err, size_t errlen)
{
    if (!r || !xyz || first < 0 || count < 1 || first > r->n || count > r->n - first) {
        io_setf(err, errlen, "tbrf_io_points_read: bad arguments");
        return -1;
    }
    io_quiet q;
    io_quiet_begin(&q);
    int rc = -1;
    hsize_t start[2] = {(hsize_t)first, 0}, cnt[2] = {(hsize_t)count, (hsize_t)r->dim};
    hsize_t mdim = (hsize_t)count * (hsize_t)r->dim;
    hid_t mspace = H5Screate_simple(1, &mdim, NULL);
    if (mspace >= 0 &&
        H5Sselect_hyperslab(r->space, H5S_SELECT_SET, start, NULL, cnt, NULL) >= 0 &&
        H5Dread(r->dset, H5T_NATIVE_DOUBLE, mspace, r->space, H5P_DEFAULT, xyz) >= 0)
        rc = 0;
    if (rc) {
        char why[256];
        io_h5_reason(why, sizeof why);
        io_setf(err, errlen, "%s: cannot read /points%s%s", r->path, why[0] ? ": " : "", why);
    }
    if (mspace >= 0)
        H5Sclose(mspace);
    io_quiet_end(&q);
    if (rc == 0)
        rc = io_points_finite(r->path, first, count, r->dim, xyz, err, errlen);
    return rc;
}

void tbrf_io_points_close(tbrf_io_points_reader *r)
{
    reader_free(r);
}
