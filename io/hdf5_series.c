/* hdf5_series.c — the HDF5 format's time series (tbrf drive; series.c
 * checks and calls these through the format table): /time (nt) and
 * /field (nt, [nz,] [ny,] nx, nc) or /points (N, dim) and /value (nt, N,
 * nc), float64, one time at a time; and reading a series back
 * (tbrf_io_series_compare, tbrf_io_series_command). */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/hdf5_format.h"
#include "io/tbrf_io.h"

static hid_t make_dataset(tbrf_io_writer *w, const char *name, int rank, const hsize_t *dims,
                          const hsize_t *chunk)
{
    hid_t space = H5Screate_simple(rank, dims, NULL), plist = H5Pcreate(H5P_DATASET_CREATE);
    hid_t d = -1;
    if (space >= 0 && plist >= 0 && H5Pset_chunk(plist, rank, chunk) >= 0)
        d = H5Dcreate2(io_h5(w)->file, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, plist, H5P_DEFAULT);
    if (plist >= 0)
        H5Pclose(plist);
    if (space >= 0)
        H5Sclose(space);
    return d;
}

/* 1 on the rank that writes what all ranks hold alike (/time, /points):
 * a serial writer, or rank 0 of an MPI writer. */
static int leader(const tbrf_io_writer *w)
{
#ifdef TBRF_IO_MPI
    return !io_is_parallel(w) || w->mpi_rank == 0;
#else
    (void)w;
    return 1;
#endif
}

/* The whole dataset d from v, by the leader; the other ranks of an MPI
 * writer take part with nothing selected. */
static int write_all(const tbrf_io_writer *w, hid_t d, const double *v)
{
    hid_t x = io_h5_xfer_open(w), fs = leader(w) ? H5S_ALL : H5Dget_space(d);
    int rc = x < 0 || fs < 0 || (!leader(w) && H5Sselect_none(fs) < 0) ||
             H5Dwrite(d, H5T_NATIVE_DOUBLE, fs, fs, x, v) < 0;
    if (fs >= 0 && fs != H5S_ALL)
        H5Sclose(fs);
    io_h5_xfer_close(x);
    return rc ? -1 : 0;
}

/* /field (nt, [nz,] [ny,] nx, nc): chunks of one time and whole planes
 * (io_series_planes). 0 or -1. */
static int grid_dataset(tbrf_io_writer *w, int dim, int nc, int64_t nt, const int64_t n[3])
{
    hsize_t dims[5], chunk[5];
    int r = 0;
    const hsize_t planes = (hsize_t)io_series_planes(dim, nc, n);
    dims[r] = (hsize_t)nt, chunk[r++] = 1;
    for (int a = dim - 1; a >= 0; a--) /* slowest first; the slowest axis in planes */
        dims[r] = (hsize_t)n[a], chunk[r++] = a == dim - 1 ? planes : (hsize_t)n[a];
    dims[r] = (hsize_t)nc, chunk[r++] = (hsize_t)nc;
    hid_t d = make_dataset(w, "field", r, dims, chunk);
    if (d >= 0)
        H5Dclose(d);
    return d < 0 ? -1 : 0;
}

/* /points (N, dim), written, and /value (nt, N, nc). 0 or -1. */
static int point_datasets(tbrf_io_writer *w, int dim, int nc, int64_t nt, int64_t npts,
                          const double *xyz)
{
    hsize_t pd[2] = {(hsize_t)npts, (hsize_t)dim};
    hsize_t pc[2] = {(hsize_t)io_series_rows(nc, npts), (hsize_t)dim};
    hid_t p = make_dataset(w, "points", 2, pd, pc);
    int rc = p < 0 || write_all(w, p, xyz);
    if (p >= 0)
        H5Dclose(p);
    hsize_t vd[3] = {(hsize_t)nt, (hsize_t)npts, (hsize_t)nc}, vc[3] = {1, pc[0], (hsize_t)nc};
    hid_t v = rc ? -1 : make_dataset(w, "value", 3, vd, vc);
    rc |= v < 0;
    if (v >= 0)
        H5Dclose(v);
    return rc ? -1 : 0;
}

int io_h5_series_begin(tbrf_io_writer *w, int dim, int nc, int64_t nt, const int64_t n[3],
                       int64_t npts, const double *xyz)
{
    hsize_t tdim = (hsize_t)nt, tchunk = (hsize_t)(nt < 4096 ? nt : 4096);
    hid_t t = make_dataset(w, "time", 1, &tdim, &tchunk);
    int rc = t < 0;
    if (t >= 0)
        H5Dclose(t);
    if (rc == 0)
        rc = n ? grid_dataset(w, dim, nc, nt, n) : point_datasets(w, dim, nc, nt, npts, xyz);
    if (rc) {
        char why[256];
        io_h5_reason(why, sizeof why);
        IO_FAIL(w, "cannot write %s%s%s", w->path, why[0] ? ": " : "", why);
    }
    return rc ? -1 : 0;
}

/* Selects row `it` of /time (the leader's; none on the other ranks)
 * and positions [first, first + count) of row `it` of the values'
 * dataset fs (whole planes: its second axis is the slowest), with the
 * memory spaces m1 and mv to match. 0 or -1. */
static int select_step(const tbrf_io_writer *w, hid_t ts, hid_t fs, hid_t *m1, hid_t *mv,
                       int64_t it, int64_t first, int64_t count)
{
    hsize_t dims[H5S_MAX_RANK], start[H5S_MAX_RANK] = {0}, cnt[H5S_MAX_RANK], one = 1;
    const int rank = H5Sget_simple_extent_dims(fs, dims, NULL);
    hsize_t plane = 1, at = (hsize_t)it;
    for (int r = 2; r < rank - 1; r++)
        plane *= dims[r];
    if (rank < 3 || at >= dims[0] || first % (int64_t)plane || count % (int64_t)plane ||
        (hsize_t)(first + count) > dims[1] * plane)
        return -1;
    for (int r = 0; r < rank; r++)
        cnt[r] = dims[r];
    start[0] = at, cnt[0] = 1;
    start[1] = (hsize_t)first / plane, cnt[1] = (hsize_t)count / plane;
    hsize_t values = (hsize_t)count * dims[rank - 1];
    *m1 = H5Screate_simple(1, &one, NULL);
    *mv = H5Screate_simple(1, values ? &values : &one, NULL);
    if (*m1 < 0 || *mv < 0)
        return -1;
    int bad = leader(w) ? H5Sselect_hyperslab(ts, H5S_SELECT_SET, &at, NULL, &one, NULL) < 0
                        : H5Sselect_none(ts) < 0 || H5Sselect_none(*m1) < 0;
    if (count > 0)
        bad |= H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, cnt, NULL) < 0;
    else
        bad |= H5Sselect_none(fs) < 0 || H5Sselect_none(*mv) < 0;
    return bad ? -1 : 0;
}

int io_h5_series_step(tbrf_io_writer *w, int64_t it, double t, int64_t first, int64_t count,
                      const double *values)
{
    int rc = -1;
    const int grid = H5Lexists(io_h5(w)->file, "field", H5P_DEFAULT) > 0;
    hid_t td = H5Dopen2(io_h5(w)->file, "time", H5P_DEFAULT), d = H5Dopen2(io_h5(w)->file, grid ? "field" : "value", H5P_DEFAULT);
    hid_t ts = td >= 0 ? H5Dget_space(td) : -1, fs = d >= 0 ? H5Dget_space(d) : -1;
    hid_t m1 = -1, mv = -1, x = io_h5_xfer_open(w);
    if (ts >= 0 && fs >= 0 && x >= 0 && select_step(w, ts, fs, &m1, &mv, it, first, count) == 0 &&
        H5Dwrite(td, H5T_NATIVE_DOUBLE, m1, ts, x, &t) >= 0 &&
        H5Dwrite(d, H5T_NATIVE_DOUBLE, mv, fs, x, values ? values : &t) >= 0)
        rc = 0;
    const hid_t spaces[4] = {m1, mv, ts, fs};
    for (int i = 0; i < 4; i++)
        if (spaces[i] >= 0)
            H5Sclose(spaces[i]);
    io_h5_xfer_close(x);
    if (td >= 0)
        H5Dclose(td);
    if (d >= 0)
        H5Dclose(d);
    if (rc) {
        char why[256];
        io_h5_reason(why, sizeof why);
        IO_FAIL(w, "cannot write %s (time %lld)%s%s", w->path, (long long)it, why[0] ? ": " : "", why);
    }
    return rc;
}

static int attr(tbrf_io_writer *w, const char *name, hid_t ftype, hid_t mtype, hid_t space,
                const void *v)
{
    hid_t a = space >= 0 ? H5Acreate2(io_h5(w)->file, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int rc = a < 0 || H5Awrite(a, mtype, v) < 0;
    if (a >= 0)
        H5Aclose(a);
    if (space >= 0)
        H5Sclose(space);
    if (rc)
        IO_FAIL(w, "cannot write attribute %s of %s", name, w->path);
    return rc ? -1 : 0;
}

int io_h5_series_attr(tbrf_io_writer *w, const char *name, int kind, int count, const void *v)
{
    hsize_t n = (hsize_t)count;
    switch (kind) {
    case IO_ATTR_STR: {
        const char *s = v;
        hid_t type = H5Tcopy(H5T_C_S1);
        H5Tset_size(type, strlen(s) + 1);
        H5Tset_cset(type, H5T_CSET_UTF8);
        int rc = attr(w, name, type, type, H5Screate(H5S_SCALAR), s);
        H5Tclose(type);
        return rc;
    }
    case IO_ATTR_F64:
        return attr(w, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, H5Screate_simple(1, &n, NULL), v);
    case IO_ATTR_I64:
        return attr(w, name, H5T_STD_I64LE, H5T_NATIVE_INT64, H5Screate_simple(1, &n, NULL), v);
    default:
        return attr(w, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, H5Screate(H5S_SCALAR), v);
    }
}

/* ---------------------------------------------------- reading a series */

/* The row `it` of dataset d (its first axis) into buf (count doubles). */
static int read_row(hid_t d, hid_t space, int rank, const hsize_t *dims, hsize_t it, double *buf)
{
    hsize_t start[H5S_MAX_RANK] = {0}, count[H5S_MAX_RANK], m = 1;
    for (int r = 0; r < rank; r++)
        count[r] = dims[r], m *= r ? dims[r] : 1;
    start[0] = it;
    count[0] = 1;
    hid_t ms = H5Screate_simple(1, &m, NULL);
    int rc = ms < 0 || H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
             H5Dread(d, H5T_NATIVE_DOUBLE, ms, space, H5P_DEFAULT, buf) < 0;
    if (ms >= 0)
        H5Sclose(ms);
    return rc ? -1 : 0;
}

/* Dataset name of files a and b compared row by row: 0 equal (*values
 * counts them), 1 different, -1 unreadable (err set either way). */
static int compare_dataset(hid_t fa, hid_t fb, const char *a, const char *b, const char *name,
                           int64_t *values, char *err, size_t errlen)
{
    hid_t da = H5Dopen2(fa, name, H5P_DEFAULT), db = H5Dopen2(fb, name, H5P_DEFAULT);
    hid_t sa = da >= 0 ? H5Dget_space(da) : -1, sb = db >= 0 ? H5Dget_space(db) : -1;
    hid_t ta = da >= 0 ? H5Dget_type(da) : -1, tb = db >= 0 ? H5Dget_type(db) : -1;
    hsize_t dims[H5S_MAX_RANK], dimb[H5S_MAX_RANK];
    int ra = sa >= 0 ? H5Sget_simple_extent_dims(sa, dims, NULL) : -1;
    int rb = sb >= 0 ? H5Sget_simple_extent_dims(sb, dimb, NULL) : -1, rc = -1;
    double row = 1.0, *ba = NULL, *bb = NULL;
    for (int r = 1; r < ra; r++)
        row *= (double)dims[r];
    if (ra < 1 || rb < 1 || ta < 0 || tb < 0) {
        io_setf(err, errlen, "%s or %s: no readable /%s", a, b, name);
    } else if (ra != rb || memcmp(dims, dimb, sizeof(hsize_t) * (size_t)ra) != 0 ||
               H5Tequal(ta, tb) <= 0) {
        io_setf(err, errlen, "/%s of %s has another shape or type than %s's", name, b, a);
        rc = 1;
    } else if (tbrf_io_budget_check(a, "comparing a time of the series", 16.0 * row, err, errlen) ||
               !(ba = malloc(sizeof(double) * (size_t)row)) ||
               !(bb = malloc(sizeof(double) * (size_t)row))) {
        if (!ba || !bb)
            io_setf(err, errlen, "%s: not enough memory to compare a time", a);
    } else {
        rc = 0;
        for (hsize_t it = 0; it < dims[0] && rc == 0; it++) {
            if (read_row(da, sa, ra, dims, it, ba) || read_row(db, sb, rb, dims, it, bb)) {
                io_setf(err, errlen, "%s or %s: cannot read /%s", a, b, name);
                rc = -1;
            } else if (memcmp(ba, bb, sizeof(double) * (size_t)row) != 0) {
                io_setf(err, errlen, "/%s of %s differs from %s's at time index %llu", name, b, a,
                        (unsigned long long)it);
                rc = 1;
            }
        }
        if (rc == 0)
            *values += (int64_t)dims[0] * (int64_t)row;
    }
    free(ba);
    free(bb);
    hid_t ids[6] = {ta, tb, sa, sb, da, db};
    for (int i = 0; i < 6; i++)
        if (ids[i] >= 0)
            (i < 2 ? H5Tclose : i < 4 ? H5Sclose : H5Dclose)(ids[i]);
    return rc;
}

int tbrf_io_series_compare(const char *a, const char *b, int64_t *values, char *err,
                           size_t errlen)
{
    if (!a || !b || !values) {
        io_setf(err, errlen, "tbrf_io_series_compare: NULL argument");
        return -1;
    }
    *values = 0;
    io_quiet q;
    io_quiet_begin(&q);
    hid_t fa = H5Fopen(a, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t fb = H5Fopen(b, H5F_ACC_RDONLY, H5P_DEFAULT);
    int rc = -1;
    if (fa < 0 || fb < 0) {
        io_setf(err, errlen, "cannot open %s as HDF5", fa < 0 ? a : b);
    } else {
        const char *data = H5Lexists(fa, "field", H5P_DEFAULT) > 0 ? "field" : "value";
        rc = compare_dataset(fa, fb, a, b, "time", values, err, errlen);
        if (rc == 0)
            rc = compare_dataset(fa, fb, a, b, data, values, err, errlen);
    }
    if (fa >= 0)
        H5Fclose(fa);
    if (fb >= 0)
        H5Fclose(fb);
    io_quiet_end(&q);
    return rc;
}

int tbrf_io_series_command(const char *path, char **command, char *err, size_t errlen)
{
    if (!path || !command) {
        io_setf(err, errlen, "tbrf_io_series_command: NULL argument");
        return -1;
    }
    *command = NULL;
    io_quiet q;
    io_quiet_begin(&q);
    int series = 0;
    if (H5Fis_hdf5(path) > 0) {
        hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
        series = f >= 0 && H5Lexists(f, "time", H5P_DEFAULT) > 0 &&
                 (H5Lexists(f, "field", H5P_DEFAULT) > 0 || H5Lexists(f, "value", H5P_DEFAULT) > 0);
        if (f >= 0)
            H5Fclose(f);
    }
    io_quiet_end(&q);
    if (!series)
        return 1;
    char *buf = malloc(TBRF_IO_MAX_STRING + 1);
    tbrf_io_file *f = buf ? tbrf_io_open(path, err, errlen) : NULL;
    int got = f ? tbrf_io_attr_str(f, "command", buf, TBRF_IO_MAX_STRING + 1) : -1;
    if (f)
        tbrf_io_file_close(f);
    if (!buf)
        io_setf(err, errlen, "out of memory");
    if (got != 1 || strncmp(buf, "tbrf drive ", 11) != 0) {
        if (buf && f)
            io_setf(err, errlen, "%s: a series without the `tbrf drive` command that wrote it "
                    "(attribute command)", path);
        free(buf);
        return -1;
    }
    *command = buf;
    return 0;
}
