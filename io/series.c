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
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "io/io_internal.h"
#include "io/tbrf_io.h"

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
uint64_t io_series_planes(int dim, int nc, const int64_t n[3])
{
    const uint64_t cell = (uint64_t)nc * 8u;
    const uint64_t plane = dim == 1 ? cell : (uint64_t)n[0] * (uint64_t)n[1] * cell;
    const uint64_t planes = plane >= ((uint64_t)1 << 20) ? 1 : ((uint64_t)1 << 20) / plane;
    const uint64_t along = (uint64_t)n[dim - 1];
    return planes < along ? planes : along;
}

/* Rows of /points and /value per chunk: about 1 MiB (nc values a row). */
uint64_t io_series_rows(int nc, int64_t npts)
{
    const uint64_t rows = ((uint64_t)1 << 20) / (8u * (uint64_t)nc);
    return rows < (uint64_t)npts ? rows : (uint64_t)npts;
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
        const double planes = (double)io_series_planes(dim, nc, n), along = (double)n[dim - 1];
        const double plane =
            (dim == 1 ? 1.0 : (double)n[0]) * (dim == 3 ? (double)n[1] : 1.0) * nc * 8.0;
        data = (double)nt * whole(along, planes) * plane;
        chunks = (double)nt * ceil(along / planes);
    } else {
        const double rows = (double)io_series_rows(nc, npts);
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

/* 1 when every rank of an MPI writer passes ok = 1, else 0 on every rank
 * ("another rank failed" on those that were fine): collective, so that a
 * rank failing a check of its own never skips the collective calls the
 * others make next. A serial writer: ok. */
static int ranks_fine(tbrf_io_writer *w, int ok)
{
#ifdef TBRF_IO_MPI
    if (io_is_parallel(w)) {
        int all = ok;
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, w->comm);
        if (!all && ok)
            IO_FAIL(w, "%s: another rank failed; nothing was written", w->path);
        w->mpi_failed |= !all;
        return all;
    }
#endif
    (void)w;
    return ok;
}

int tbrf_io_series_begin(tbrf_io_writer *w, int dim, int nc, int64_t nt, const int64_t n[3],
                         int64_t npts, const double *xyz)
{
    if (!w || !w->open || nt < 1 || !series_shape_ok(dim, nc, n) || (!n && (npts < 1 || !xyz))) {
        if (w)
            IO_FAIL(w, "%s: a series is written with nt >= 1 and a grid (1D to 3D, dim "
                    "components, or 3 in 1D and 2D) or points (2D or 3D)", w->path);
        return -1;
    }
    if (!ranks_fine(w, series_fits(w, dim, nc, nt, n, npts) == 0))
        return -1;
    io_quiet q;
    io_quiet_begin(&q);
    int rc = w->ops->series_begin(w, dim, nc, nt, n, npts, xyz);
    io_quiet_end(&q);
    w->series_frame = n ? n[0] * n[1] * n[2] : npts;
    w->series_plane = n && dim > 1 ? n[0] * (dim == 3 ? n[1] : 1) : 1;
    return rc || side_file(w, dim, nc, nt, n, npts) ? -1 : 0;
}

int tbrf_io_series_step(tbrf_io_writer *w, int64_t it, double t, const double *values)
{
    if (!w || !w->open)
        return -1;
    return tbrf_io_series_step_part(w, it, t, 0, w->series_frame, values);
}

#ifdef TBRF_IO_MPI
/* Whether the parts of the ranks, parts[3 r .. 3 r + 2] = {ok, first,
 * count}, tile [0, frame) exactly once; else the message names the first
 * position two ranks wrote or none did. */
static int parts_tile(tbrf_io_writer *w, const int64_t *parts, int size, int64_t frame, int64_t it)
{
    for (int64_t at = 0;;) {
        int next = -1; /* the part that starts at `at` (the ranks' order need not be the file's) */
        for (int r = 0; r < size && next < 0; r++)
            if (parts[3 * r + 2] > 0 && parts[3 * r + 1] == at)
                next = r;
        if (next < 0 && at == frame)
            return 1;
        if (next < 0) {
            IO_FAIL(w, "%s: time %lld: no rank writes position %lld (or two write it); nothing "
                    "was written", w->path, (long long)it, (long long)at);
            return 0;
        }
        at += parts[3 * next + 2];
    }
}

/* The collective round before an MPI writer's write of time `it`: every
 * rank learns whether all are fine and that their parts tile the frame
 * (so a rank that failed or a bad split makes every rank fail, before
 * any rank is inside the collective write). 0, or -1 on every rank. */
static int series_round(tbrf_io_writer *w, int ok, int64_t it, int64_t first, int64_t count)
{
    int size = 1;
    MPI_Comm_size(w->comm, &size);
    int64_t *parts = malloc(sizeof(int64_t) * 3 * (size_t)size);
    if (ok && !parts)
        IO_FAIL(w, "%s: out of memory", w->path);
    int all = ranks_fine(w, ok && parts);
    if (all) {
        const int64_t mine[3] = {1, first, count};
        MPI_Allgather(mine, 3, MPI_INT64_T, parts, 3, MPI_INT64_T, w->comm);
        all = parts_tile(w, parts, size, w->series_frame, it);
        w->mpi_failed |= !all;
    }
    free(parts);
    return all ? 0 : -1;
}
#endif

int tbrf_io_series_step_part(tbrf_io_writer *w, int64_t it, double t, int64_t first, int64_t count,
                             const double *values)
{
    if (!w || !w->open)
        return -1;
    const int parallel = io_is_parallel(w);
    const int64_t plane = w->series_plane > 0 ? w->series_plane : 1;
    int ok = first >= 0 && count >= 0 && count <= w->series_frame - first && first % plane == 0 &&
             count % plane == 0 && (parallel || (first == 0 && count == w->series_frame)) &&
             (values || count == 0);
    if (!ok)
        IO_FAIL(w, "%s: time %lld: positions %lld + %lld of a frame of %lld (%s)", w->path,
                (long long)it, (long long)first, (long long)count, (long long)w->series_frame,
                parallel ? "a part of whole planes" : "a serial writer writes whole frames");
    /* each time written once: commit checks that all were */
    ok = ok && io_cover_overlap(w, w->series_cover, it, 1, "time") == 0;
#ifdef TBRF_IO_MPI
    if (parallel && series_round(w, ok, it, first, count))
        return -1;
#endif
    if (!ok)
        return -1;
    io_quiet q;
    io_quiet_begin(&q);
    int rc = w->ops->series_step(w, it, t, first, count, values);
    io_quiet_end(&q);
    if (rc == 0 && w->series_times && it >= 0 && it < w->series_nt)
        w->series_times[it] = t;
    return rc || io_cover_add(w, &w->series_cover, it, 1) ? -1 : 0;
}

static int attr(tbrf_io_writer *w, const char *name, int kind, int count, const void *v)
{
    io_quiet q;
    io_quiet_begin(&q);
    int rc = w->ops->series_attr(w, name, kind, count, v);
    io_quiet_end(&q);
    return rc;
}

int tbrf_io_series_attr_str(tbrf_io_writer *w, const char *name, const char *s)
{
    if (!w || !w->open || !s)
        return -1;
    return attr(w, name, IO_ATTR_STR, 1, s);
}

int tbrf_io_series_attr_f64(tbrf_io_writer *w, const char *name, const double *v, int count)
{
    if (!w || !w->open || !v || count < 1)
        return -1;
    /* The grid's place, for the side file, whenever it is given. */
    const int origin = strcmp(name, "origin") == 0, spacing = strcmp(name, "grid_spacing") == 0;
    for (int c = 0; c < count && c < 3 && (origin || spacing); c++) {
        (origin ? w->series_origin : w->series_spacing)[c] = v[c];
        if (w->series_times && (origin || v[c] > 0))
            (origin ? w->xmf_meta.origin : w->xmf_meta.spacing)[c] = v[c];
    }
    return attr(w, name, IO_ATTR_F64, count, v);
}

int tbrf_io_series_attr_i64(tbrf_io_writer *w, const char *name, const int64_t *v, int count)
{
    if (!w || !w->open || !v || count < 1)
        return -1;
    return attr(w, name, IO_ATTR_I64, count, v);
}

int tbrf_io_series_attr_u64(tbrf_io_writer *w, const char *name, uint64_t v)
{
    if (!w || !w->open)
        return -1;
    return attr(w, name, IO_ATTR_U64, 1, &v);
}
