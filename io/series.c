/* series.c — time series of vector fields (tbrf drive): /time (nt) and
 * /field (nt, [nz,] [ny,] nx, nc) or /points (N, dim) and /value (nt, N,
 * nc), float64 — nc the components: dim, or 3 in a 1D or 2D box (a
 * driver's components = 3, TurbGen's ndim = 1.5, 2.5) — written one time at a time into
 * the writer's temporary file and published by tbrf_io_commit like every
 * other tbrf file (tbrf_io.h, "Series"), with an XDMF side file NAME.xmf
 * (a temporal collection: ParaView and VisIt open the series as frames
 * in time) published together with it. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "io/io_internal.h"
#include "io/tbrf_io.h"

static hid_t make_dataset(tbrf_io_writer *w, const char *name, int rank, const hsize_t *dims,
                          const hsize_t *chunk)
{
    hid_t space = H5Screate_simple(rank, dims, NULL), plist = H5Pcreate(H5P_DATASET_CREATE);
    hid_t d = -1;
    if (space >= 0 && plist >= 0 && H5Pset_chunk(plist, rank, chunk) >= 0)
        d = H5Dcreate2(w->file, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, plist, H5P_DEFAULT);
    if (plist >= 0)
        H5Pclose(plist);
    if (space >= 0)
        H5Sclose(space);
    return d;
}

static int write_all(hid_t d, const double *v)
{
    return H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0 ? -1 : 0;
}

/* Attaches the side file (published by tbrf_io_commit with the data):
 * the grid or points, the frames' times as series_step writes them. The
 * grid's origin and spacing come from the attributes "origin" and
 * "grid_spacing" (series_attr_f64), else 0 and 1. 0 or -1. */
static int side_file(tbrf_io_writer *w, int dim, int nc, int64_t nt, const int64_t n[3],
                     int64_t npts)
{
    tbrf_io_meta m;
    tbrf_io_meta_init(&m);
    m.dim = dim;
    m.is_grid = n != NULL;
    m.ncomp = nc;
    m.npoints = n ? 0 : npts;
    m.opts.precision = TBRF_DOUBLE;
    for (int c = 0; c < 3; c++) {
        m.n[c] = n ? n[c] : 0;
        m.origin[c] = 0.0;
        m.spacing[c] = 1.0;
    }
    if (!n && npts < 1)
        return 0; /* no points: nothing to draw */
    if (tbrf_io_attach_xdmf(w, &m))
        return -1;
    free(w->series_times);
    w->series_times = (uint64_t)nt < SIZE_MAX / sizeof(double) ? calloc((size_t)nt, sizeof(double))
                                                                : NULL;
    if (!w->series_times) {
        IO_FAIL(w, "%s: not enough memory for the times of %lld frames", w->path, (long long)nt);
        return -1;
    }
    w->series_nt = nt;
    for (int c = 0; c < dim; c++) {
        if (w->series_spacing[c] > 0) /* the attributes, when given first */
            w->xmf_meta.origin[c] = w->series_origin[c],
            w->xmf_meta.spacing[c] = w->series_spacing[c];
    }
    return 0;
}

/* Whole planes (z in 3D, rows y in 2D, cells x in 1D) per chunk of a grid
 * series' /field: about 1 MiB of one time, at least one plane (nc values
 * a cell). */
static hsize_t grid_planes(int dim, int nc, const int64_t n[3])
{
    const hsize_t cell = (hsize_t)nc * 8u;
    const hsize_t plane = dim == 1 ? cell : (hsize_t)n[0] * (hsize_t)n[1] * cell;
    const hsize_t planes = plane >= ((hsize_t)1 << 20) ? 1 : ((hsize_t)1 << 20) / plane;
    const hsize_t along = (hsize_t)n[dim - 1];
    return planes < along ? planes : along;
}

/* Rows of /points and /value per chunk: about 1 MiB (nc values a row). */
static hsize_t point_rows(int nc, int64_t npts)
{
    const hsize_t rows = ((hsize_t)1 << 20) / (8u * (hsize_t)nc);
    return rows < (hsize_t)npts ? rows : (hsize_t)npts;
}

/* The shapes a series holds: nc = dim (2 or 3), or nc = 3 in a 1D or 2D
 * box; points have 2 or 3 coordinates. */
static int series_shape_ok(int dim, int nc, const int64_t n[3])
{
    if (dim < 1 || dim > 3 || nc < 2 || !(nc == dim || nc == 3))
        return 0;
    return n || dim >= 2;
}

/* A count rounded up to whole chunks of c. */
static double whole(double count, double c)
{
    return ceil(count / c) * c;
}

double tbrf_io_series_bytes(int dim, int nc, int64_t nt, const int64_t n[3], int64_t npts)
{
    if (!series_shape_ok(dim, nc, n) || nt < 1 || (!n && npts < 1))
        return NAN;
    /* HDF5 allocates edge chunks whole; 64 bytes of chunk index per chunk
     * and 1 MiB for the attributes and headers are generous bounds */
    double data, chunks;
    if (n) {
        const double planes = (double)grid_planes(dim, nc, n), along = (double)n[dim - 1];
        const double plane =
            (dim == 1 ? 1.0 : (double)n[0]) * (dim == 3 ? (double)n[1] : 1.0) * nc * 8.0;
        data = (double)nt * whole(along, planes) * plane;
        chunks = (double)nt * ceil(along / planes);
    } else {
        const double rows = (double)point_rows(nc, npts);
        /* /points (N, dim) in the same rows as /value (nt, N, nc) */
        data = ((double)nt * nc + dim) * whole((double)npts, rows) * 8.0;
        chunks = ((double)nt + 1.0) * ceil((double)npts / rows);
    }
    return data + whole((double)nt, 4096.0) * 8.0 + 64.0 * (chunks + ceil((double)nt / 4096.0)) +
           1048576.0;
}

/* The free bytes of the folder holding path (statvfs, what an unprivileged
 * writer may use); TBRF_IO_TEST_FREE_SPACE_ENV replaces the figure (tests
 * only). -1 when it cannot be found. */
static double free_space(const char *path)
{
    const char *forced = getenv(TBRF_IO_TEST_FREE_SPACE_ENV);
    if (forced && forced[0]) {
        char *end;
        const double v = strtod(forced, &end);
        return *end == '\0' && v >= 0 ? v : -1.0;
    }
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    struct statvfs sv;
    if (statvfs(dir, &sv) != 0)
        return -1.0;
    return (double)sv.f_bavail * (double)sv.f_frsize;
}

int tbrf_io_space_check(const char *path, const char *what, double bytes, char *err, size_t errlen)
{
    if (!path || !(bytes >= 0)) {
        io_setf(err, errlen, "%s: %s: no size to check", path ? path : "(null)", what);
        return -1;
    }
    const double avail = free_space(path);
    if (avail < 0) /* no figure (a file system without statvfs): the write says */
        return 0;
    if (bytes <= avail)
        return 0;
    io_setf(err, errlen, "%s: %s needs %.4g MiB, but the folder has %.4g MiB free", path, what,
            bytes / 1048576.0, avail / 1048576.0);
    return -1;
}

/* The series' file against the free space and its times against the
 * memory budget, before anything is written. 0 or -1 (message set). */
static int series_fits(tbrf_io_writer *w, int dim, int nc, int64_t nt, const int64_t n[3],
                       int64_t npts)
{
    char err[1024];
    const double bytes = tbrf_io_series_bytes(dim, nc, nt, n, npts);
    if (tbrf_io_space_check(w->path, n ? "the series (/time, /field)" : "the series (/time, "
                            "/points, /value)", bytes, err, sizeof err) ||
        tbrf_io_budget_check(w->path, "the series' times", (double)nt * 8.0, err, sizeof err)) {
        IO_FAIL(w, "%s", err);
        return -1;
    }
    return 0;
}

/* /field (nt, [nz,] [ny,] nx, nc): chunks of one time and whole planes
 * (grid_planes). 0 or -1. */
static int grid_dataset(tbrf_io_writer *w, int dim, int nc, int64_t nt, const int64_t n[3])
{
    hsize_t dims[5], chunk[5];
    int r = 0;
    const hsize_t planes = grid_planes(dim, nc, n);
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
    hsize_t pc[2] = {point_rows(nc, npts), (hsize_t)dim};
    hid_t p = make_dataset(w, "points", 2, pd, pc);
    int rc = p < 0 || write_all(p, xyz);
    if (p >= 0)
        H5Dclose(p);
    hsize_t vd[3] = {(hsize_t)nt, (hsize_t)npts, (hsize_t)nc}, vc[3] = {1, pc[0], (hsize_t)nc};
    hid_t v = rc ? -1 : make_dataset(w, "value", 3, vd, vc);
    rc |= v < 0;
    if (v >= 0)
        H5Dclose(v);
    return rc ? -1 : 0;
}

int tbrf_io_series_begin(tbrf_io_writer *w, int dim, int nc, int64_t nt, const int64_t n[3],
                         int64_t npts, const double *xyz)
{
    if (!w || w->file < 0 || (w->flags & TBRF_IO_NETCDF) || nt < 1 ||
        !series_shape_ok(dim, nc, n) || (!n && (npts < 1 || !xyz))) {
        if (w)
            IO_FAIL(w, "%s: a series is written to HDF5 only, with nt >= 1 and a grid (1D to "
                    "3D, dim components, or 3 in 1D and 2D) or points (2D or 3D)", w->path);
        return -1;
    }
    if (series_fits(w, dim, nc, nt, n, npts))
        return -1;
    io_quiet q;
    io_quiet_begin(&q);
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
    io_quiet_end(&q);
    return rc || side_file(w, dim, nc, nt, n, npts) ? -1 : 0;
}

/* Writes row `it` of the dataset: t into /time, the values into /field or
 * /value (whichever the series has). */
int tbrf_io_series_step(tbrf_io_writer *w, int64_t it, double t, const double *values)
{
    if (!w || w->file < 0)
        return -1;
    /* each time written once: commit checks that all were */
    if (io_cover_overlap(w, w->series_cover, it, 1, "time"))
        return -1;
    io_quiet q;
    io_quiet_begin(&q);
    int rc = -1;
    const int grid = H5Lexists(w->file, "field", H5P_DEFAULT) > 0;
    hid_t td = H5Dopen2(w->file, "time", H5P_DEFAULT), d = H5Dopen2(w->file, grid ? "field" : "value", H5P_DEFAULT);
    hid_t ts = td >= 0 ? H5Dget_space(td) : -1, fs = d >= 0 ? H5Dget_space(d) : -1;
    if (ts >= 0 && fs >= 0) {
        hsize_t dims[5], start[5] = {0}, count[5];
        const int rank = H5Sget_simple_extent_dims(fs, dims, NULL);
        hsize_t one = 1, at = (hsize_t)it;
        hid_t m1 = H5Screate_simple(1, &one, NULL);
        for (int r = 0; r < rank; r++)
            count[r] = dims[r];
        start[0] = at;
        count[0] = 1;
        hsize_t cells = 1;
        for (int r = 1; r < rank; r++)
            cells *= dims[r];
        hid_t mv = H5Screate_simple(1, &cells, NULL);
        if (rank > 0 && at < dims[0] && m1 >= 0 && mv >= 0 &&
            H5Sselect_hyperslab(ts, H5S_SELECT_SET, &at, NULL, &one, NULL) >= 0 &&
            H5Dwrite(td, H5T_NATIVE_DOUBLE, m1, ts, H5P_DEFAULT, &t) >= 0 &&
            H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
            H5Dwrite(d, H5T_NATIVE_DOUBLE, mv, fs, H5P_DEFAULT, values) >= 0)
            rc = 0;
        if (m1 >= 0)
            H5Sclose(m1);
        if (mv >= 0)
            H5Sclose(mv);
    }
    if (ts >= 0)
        H5Sclose(ts);
    if (fs >= 0)
        H5Sclose(fs);
    if (td >= 0)
        H5Dclose(td);
    if (d >= 0)
        H5Dclose(d);
    if (rc) {
        char why[256];
        io_h5_reason(why, sizeof why);
        IO_FAIL(w, "cannot write %s (time %lld)%s%s", w->path, (long long)it, why[0] ? ": " : "", why);
    }
    if (rc == 0 && w->series_times && it >= 0 && it < w->series_nt)
        w->series_times[it] = t;
    io_quiet_end(&q);
    return rc || io_cover_add(w, &w->series_cover, it, 1) ? -1 : 0;
}

static int attr(tbrf_io_writer *w, const char *name, hid_t ftype, hid_t mtype, hid_t space,
                const void *v)
{
    io_quiet q;
    io_quiet_begin(&q);
    hid_t a = space >= 0 ? H5Acreate2(w->file, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int rc = a < 0 || H5Awrite(a, mtype, v) < 0;
    if (a >= 0)
        H5Aclose(a);
    if (space >= 0)
        H5Sclose(space);
    io_quiet_end(&q);
    if (rc)
        IO_FAIL(w, "cannot write attribute %s of %s", name, w->path);
    return rc ? -1 : 0;
}

int tbrf_io_series_attr_str(tbrf_io_writer *w, const char *name, const char *s)
{
    if (!w || w->file < 0 || !s)
        return -1;
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, strlen(s) + 1);
    H5Tset_cset(type, H5T_CSET_UTF8);
    int rc = attr(w, name, type, type, H5Screate(H5S_SCALAR), s);
    H5Tclose(type);
    return rc;
}

int tbrf_io_series_attr_f64(tbrf_io_writer *w, const char *name, const double *v, int count)
{
    if (!w || w->file < 0 || !v || count < 1)
        return -1;
    hsize_t n = (hsize_t)count;
    /* The grid's place, for the side file, whenever it is given. */
    const int origin = strcmp(name, "origin") == 0, spacing = strcmp(name, "grid_spacing") == 0;
    for (int c = 0; c < count && c < 3 && (origin || spacing); c++) {
        (origin ? w->series_origin : w->series_spacing)[c] = v[c];
        if (w->series_times && (origin || v[c] > 0))
            (origin ? w->xmf_meta.origin : w->xmf_meta.spacing)[c] = v[c];
    }
    return attr(w, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, H5Screate_simple(1, &n, NULL), v);
}

int tbrf_io_series_attr_i64(tbrf_io_writer *w, const char *name, const int64_t *v, int count)
{
    if (!w || w->file < 0 || !v || count < 1)
        return -1;
    hsize_t n = (hsize_t)count;
    return attr(w, name, H5T_STD_I64LE, H5T_NATIVE_INT64, H5Screate_simple(1, &n, NULL), v);
}

int tbrf_io_series_attr_u64(tbrf_io_writer *w, const char *name, uint64_t v)
{
    if (!w || w->file < 0)
        return -1;
    return attr(w, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, H5Screate(H5S_SCALAR), &v);
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
