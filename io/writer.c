/* writer.c — safe, incremental output of grids and point values, in any
 * format of the registry (formats.c).
 *
 * Why a temporary file: a run can fail (bad plan, full disk) or be killed
 * hours into a large grid; a half-written file under the requested name
 * would look like a result. We write ".NAME.tmp-PID" next to NAME (same
 * directory, hence same file system, so rename() is atomic) and rename it
 * only once every dataset is complete and the file is closed and synced. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/io_internal.h"
#include "io/tbrf_io.h"

/* The writer struct lives in io_internal.h. Each public call below makes
 * the checks every format shares, then hands over to the format's ops
 * (hdf5_writer.c's io_hdf5_ops, netcdf_writer.c's io_netcdf_ops, ...),
 * which keep what they need in w->state. */
#define FAIL IO_FAIL

const char *tbrf_io_message(const tbrf_io_writer *w)
{
    return w ? w->message : "no writer";
}

const char *tbrf_io_temp_path(const tbrf_io_writer *w)
{
    return (w && !w->committed) ? w->tmp : NULL;
}

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* The checks on the output name, before anything is created. */
static int check_output(const char *path, char *err, size_t errlen)
{
    if (!path || !path[0]) {
        io_setf(err, errlen, "no output file name given");
        return -1;
    }
    size_t len = strlen(path);
    if (path[len - 1] == '/') {
        io_setf(err, errlen, "cannot write %s: the name is a directory", path);
        return -1;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        io_setf(err, errlen, "cannot write %s: it is a directory", path);
        return -1;
    }
    /* rename() would replace a device node, FIFO or socket (as root,
     * /dev/null itself) by a regular file: only regular files are
     * replaced. */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        io_setf(err, errlen, "cannot write %s: it exists and is not a regular file (a device, "
                "FIFO or socket); tbrf only replaces regular files", path);
        return -1;
    }
    return 0;
}

static void free_writer(tbrf_io_writer *w)
{
    if (w->ops)
        w->ops->release(w);
    free(w->path);
    free(w->tmp);
    free(w);
}

/* A writer for path with its temporary's name, nothing opened yet. */
static tbrf_io_writer *alloc_writer(const char *path, const io_format_ops *ops, int flags,
                                   char *err, size_t errlen)
{
    tbrf_io_writer *w = calloc(1, sizeof *w);
    if (!w) {
        io_setf(err, errlen, "out of memory");
        return NULL;
    }
    w->flags = flags;
    w->ops = ops;
    w->ncomp = 1;
    w->mpi_size = 1;
#ifdef TBRF_IO_MPI
    w->comm = MPI_COMM_NULL;
#endif
    w->path = dupstr(path);
    w->tmp = io_temp_name(path);
    if (!w->path || !w->tmp) {
        io_setf(err, errlen, "out of memory");
        free_writer(w);
        return NULL;
    }
    return w;
}

/* Creates the (empty) temporary file. */
static int make_temp(tbrf_io_writer *w, char *err, size_t errlen)
{
    /* Temporaries of runs killed with SIGKILL (or crashed) are never
     * renamed: the next run to the same name removes them. */
    io_remove_stale_temps(w->path);
    /* Create the temporary ourselves first: errno then says precisely why
     * a directory cannot be written (missing, not a directory, read-only,
     * permission), which HDF5's error stack buries. */
    int fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0 && errno == EEXIST) {
        /* A stale temporary of an earlier process with our PID. */
        unlink(w->tmp);
        fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    }
    if (fd < 0) {
        io_setf(err, errlen, "cannot write %s: %s", w->path, strerror(errno));
        return -1;
    }
    close(fd);
    return 0;
}

/* Opens the format's file on the temporary; 0, or -1 with err set. */
static int open_format(tbrf_io_writer *w, char *err, size_t errlen)
{
    if (w->ops->initialize(err, errlen))
        return -1; /* before the quiet window: netcdf_writer.c says why */
    io_quiet q;
    io_quiet_begin(&q);
    int rc = w->ops->create(w);
    io_quiet_end(&q);
    if (rc) {
        io_setf(err, errlen, "%s", w->message);
        return -1;
    }
    w->open = 1;
    return 0;
}

char *tbrf_io_temp_name(const char *path)
{
    return path && path[0] ? io_temp_name(path) : NULL;
}

/* Test-only fault injection (tests/cli/test_outputs.sh, case signals;
 * never set in use): TBRF_TEST_IO_CREATE_SIGNAL=WHEN raises SIGTERM
 * inside tbrf_io_create once the temporary exists, WHEN "made" (empty,
 * before the format opens it) or "opened" (HDF5 or netCDF holds it open,
 * before tbrf_io_create returns): the window in which a caller that
 * registers the temporary only from tbrf_io_temp_path would leave it
 * behind, hit on every run instead of by a chance signal. */
static void test_signal(const char *when)
{
    const char *e = getenv("TBRF_TEST_IO_CREATE_SIGNAL");
    if (e && strcmp(e, when) == 0)
        raise(SIGTERM);
}

/* The format a create call's flags name (TBRF_IO_NETCDF: netCDF). */
static const io_format_ops *flag_format(int flags)
{
    return (flags & TBRF_IO_NETCDF) ? &io_netcdf_ops : &io_hdf5_ops;
}

/* The format called name (NULL: the one path's suffix chooses). */
static const io_format_ops *named_format(const char *path, const char *name, char *err,
                                         size_t errlen)
{
    return name ? io_format_find(name, err, errlen) : io_format_for_path(path ? path : "");
}

static tbrf_io_writer *create_with(const char *path, const io_format_ops *ops, int flags,
                                   char *err, size_t errlen)
{
    if (check_output(path, err, errlen))
        return NULL;
    /* The format loads what it needs (netCDF: io/nc_load.h) before the
     * temporary exists: the loading takes a while, and a signal meanwhile
     * (the command removes the temporary only once tbrf_io_create
     * returned it) must find none. */
    if (ops->load(err, errlen))
        return NULL;
    tbrf_io_writer *w = alloc_writer(path, ops, flags & ~TBRF_IO_NETCDF, err, errlen);
    if (!w)
        return NULL;
    if (make_temp(w, err, errlen)) {
        free_writer(w);
        return NULL;
    }
    test_signal("made");
    if (open_format(w, err, errlen)) {
        unlink(w->tmp);
        free_writer(w);
        return NULL;
    }
    test_signal("opened");
    return w;
}

tbrf_io_writer *tbrf_io_create(const char *path, int flags, char *err, size_t errlen)
{
    return create_with(path, flag_format(flags), flags, err, errlen);
}

tbrf_io_writer *tbrf_io_create_format(const char *path, const char *format, int flags, char *err,
                                      size_t errlen)
{
    const io_format_ops *ops = named_format(path, format, err, errlen);
    return ops ? create_with(path, ops, flags, err, errlen) : NULL;
}

static int close_format(tbrf_io_writer *w);

#ifdef TBRF_IO_MPI
/* MIN of ok over the writer's ranks: every rank learns whether all are
 * fine (1) or any failed (0). */
static int agree(MPI_Comm comm, int ok)
{
    int all = ok;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    return all;
}

/* Rank 0's message to every rank (err of errlen bytes). */
static void share_message(MPI_Comm comm, char *err, size_t errlen)
{
    char buf[1024] = "";
    if (errlen > 0)
        snprintf(buf, sizeof buf, "%s", err);
    MPI_Bcast(buf, (int)sizeof buf, MPI_CHAR, 0, comm);
    io_setf(err, errlen, "%s", buf);
}

static tbrf_io_writer *create_mpi_with(const char *path, const io_format_ops *ops, int flags,
                                       MPI_Comm comm, char *err, size_t errlen)
{
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    /* Rank 0 checks the name and creates the temporary; every rank then
     * opens it with MPI-IO under rank 0's name. */
    tbrf_io_writer *w = NULL;
    int ok = 1;
    if (rank == 0) {
        ok = check_output(path, err, errlen) == 0 && (w = alloc_writer(path, ops, flags & ~TBRF_IO_NETCDF, err, errlen)) != NULL;
        if (ok && make_temp(w, err, errlen)) {
            ok = 0;
            free_writer(w);
            w = NULL;
        }
    } else {
        ok = path && path[0] && (w = alloc_writer(path, ops, flags & ~TBRF_IO_NETCDF, err, errlen)) != NULL;
    }
    if (!agree(comm, ok)) {
        share_message(comm, err, errlen);
        if (w && rank == 0)
            unlink(w->tmp);
        if (w)
            free_writer(w);
        return NULL;
    }
    char tmp[4096] = "";
    if (rank == 0)
        snprintf(tmp, sizeof tmp, "%s", w->tmp);
    MPI_Bcast(tmp, (int)sizeof tmp, MPI_CHAR, 0, comm);
    char *t = dupstr(tmp);
    if (t) {
        free(w->tmp);
        w->tmp = t;
    }
    w->mpi_rank = rank;
    w->mpi_size = size;
    ok = t != NULL && MPI_Comm_dup(comm, &w->comm) == MPI_SUCCESS;
    if (ok && open_format(w, err, errlen))
        ok = 0;
    if (!agree(comm, ok)) {
        if (ok)
            io_setf(err, errlen, "cannot write %s: another rank could not open it", path);
        if (w->open)
            close_format(w);
        if (rank == 0)
            unlink(w->tmp);
        if (w->comm != MPI_COMM_NULL)
            MPI_Comm_free(&w->comm);
        free_writer(w);
        return NULL;
    }
    return w;
}

tbrf_io_writer *tbrf_io_create_mpi(const char *path, int flags, MPI_Comm comm, char *err, size_t errlen)
{
    return create_mpi_with(path, flag_format(flags), flags, comm, err, errlen);
}

tbrf_io_writer *tbrf_io_create_mpi_format(const char *path, const char *format, int flags,
                                          MPI_Comm comm, char *err, size_t errlen)
{
    /* every rank names the same format, so every rank agrees here */
    const io_format_ops *ops = named_format(path, format, err, errlen);
    return ops ? create_mpi_with(path, ops, flags, comm, err, errlen) : NULL;
}
#endif

static int usable(tbrf_io_writer *w)
{
    if (!w)
        return 0;
    if (w->committed || !w->open) {
        FAIL(w, "%s: the file is already closed", w->path);
        return 0;
    }
    return 1;
}

int tbrf_io_set_components(tbrf_io_writer *w, int ncomp)
{
    if (!usable(w))
        return -1;
    if (ncomp < 1 || ncomp > 3) {
        FAIL(w, "%s: %d components per position (1, 2 or 3)", w->path, ncomp);
        return -1;
    }
    if (w->rank > 0 || w->pts_n > 0) {
        FAIL(w, "%s: components must be set before the values begin", w->path);
        return -1;
    }
    w->ncomp = ncomp;
    return 0;
}

int tbrf_io_grid_begin(tbrf_io_writer *w, int dim, const int64_t n[3], int precision)
{
    if (!usable(w))
        return -1;
    int64_t total = io_grid_cells(w, dim, n, precision, w->rank > 0, "/field");
    if (total < 0)
        return -1;
    io_quiet q;
    io_quiet_begin(&q);
    int rc = w->ops->grid_begin(w, dim, n, precision);
    io_quiet_end(&q);
    if (rc == 0)
        io_grid_record(w, dim, n, precision, total);
    return rc;
}


#ifdef TBRF_IO_MPI
/* One round of the grid push protocol: every rank says whether it is
 * fine and whether it has no more cells; -1 when any rank failed (no
 * collective call follows, on any rank), 1 when all are done, else 0
 * (then every rank writes, an empty selection where it is done). */
static int mpi_round(tbrf_io_writer *w, int ok, int done)
{
    if (w->mpi_failed)
        return -1;
    int mine[2] = {ok, done}, all[2] = {0, 0};
    MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, w->comm);
    if (!all[0]) {
        w->mpi_failed = 1;
        if (ok)
            FAIL(w, "%s: another rank failed; nothing was written", w->path);
        return -1;
    }
    return all[1] ? 1 : 0;
}

int tbrf_io_grid_push_done(tbrf_io_writer *w, int ok)
{
    if (!w || w->comm == MPI_COMM_NULL)
        return ok ? 0 : -1;
    for (;;) {
        int r = mpi_round(w, ok && usable(w) && (w->rank > 0 || w->pts_n > 0), 1);
        if (r)
            return r > 0 ? 0 : -1;
        io_quiet q;
        io_quiet_begin(&q);
        int rc = w->pts_n > 0 ? w->ops->points_push(w, 0, 0, NULL, NULL) : w->ops->grid_push(w, 0, 0, NULL);
        io_quiet_end(&q);
        if (rc)
            ok = 0;
    }
}
#endif

/* The end of tbrf_io_grid_push (points 0) and tbrf_io_points_push
 * (points 1), once the request was checked (bad: it was refused, the
 * message set): the backend's push, its library's printing silenced,
 * counted and recorded in the coverage. With MPI one collective round
 * first: every rank learns whether all are fine, then all write, an
 * empty push too (tbrf_io_mpi.h). 0, or -1. */
static int push_checked(tbrf_io_writer *w, int bad, int points, int64_t first, int64_t count,
                        const double *xyz, const void *values)
{
    int collective = 0;
#ifdef TBRF_IO_MPI
    collective = w->comm != MPI_COMM_NULL;
    if (collective && mpi_round(w, !bad, 0) < 0)
        return -1;
#endif
    if (!collective && (bad || count == 0))
        return bad ? -1 : 0;
    io_quiet q;
    io_quiet_begin(&q);
    int rc = points ? w->ops->points_push(w, first, count, xyz, values)
                    : w->ops->grid_push(w, first, count, values);
    io_quiet_end(&q);
    if (rc == 0)
        *(points ? &w->pts_written : &w->written) += count;
    return rc || io_cover_add(w, points ? &w->pts_cover : &w->cells_cover, first, count) ? -1 : 0;
}

int tbrf_io_grid_push(void *writer, int64_t first, int64_t count, const void *values)
{
    tbrf_io_writer *w = writer;
    if (!usable(w))
        return -1;
    if (w->rank == 0) {
        FAIL(w, "%s: no grid started", w->path);
        return -1;
    }
    int bad = first < 0 || count < 0 || first > w->total || count > w->total - first;
    if (bad)
        FAIL(w, "%s: cells %lld..+%lld lie outside the grid", w->path, (long long)first,
             (long long)count);
    else if (count > 0 && !values)
        FAIL(w, "%s: no values", w->path);
    bad = bad || (count > 0 && !values) || io_cover_overlap(w, w->cells_cover, first, count, "cell");
    return push_checked(w, bad, 0, first, count, NULL, values);
}

/* ------------------------------------------------------------ coverage
 *
 * A file is complete only when every cell was written exactly once: a
 * count of pushed cells passes two overlapping pushes that leave a gap,
 * whose cells would then read as zeros in a file marked complete. The
 * record is a sorted list of disjoint, non-touching intervals [a, b) of
 * cells: pushes that meet merge, so a run in order (every command,
 * tbrf_execute_grid_stream) keeps one interval whatever the grid, and the
 * list grows only with the pushes' disorder; each growth is checked
 * against the memory budget first. */
struct io_coverage {
    int64_t n, cap;
    int64_t (*iv)[2]; /* [a, b), ascending */
    int64_t twice;    /* the first cell a refused push would have written twice, or -1 */
    int broken;       /* a record that did not fit: coverage unknown */
};

/* "cell 12 (x 2, y 1, z 0)" for a grid's cell, else "point 12". */
static void cover_name(const tbrf_io_writer *w, const char *what, int64_t k, char *buf, size_t len)
{
    if (strcmp(what, "cell") == 0 && w->rank > 0) {
        const long long x = (long long)(k % w->n[0]), y = (long long)(k / w->n[0] % w->n[1]),
                        z = (long long)(k / w->n[0] / w->n[1]);
        if (w->rank == 3)
            snprintf(buf, len, "cell %lld (x %lld, y %lld, z %lld)", (long long)k, x, y, z);
        else
            snprintf(buf, len, "cell %lld (x %lld, y %lld)", (long long)k, x, y);
    } else {
        snprintf(buf, len, "%s %lld", what, (long long)k);
    }
}

/* The index of the first interval starting after `first` (0..n). */
static int64_t cover_after(const struct io_coverage *c, int64_t first)
{
    int64_t lo = 0, hi = c->n;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (c->iv[mid][0] <= first)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int io_cover_overlap(tbrf_io_writer *w, struct io_coverage *c, int64_t first, int64_t count,
                     const char *what)
{
    if (!c || count <= 0)
        return 0;
    const int64_t i = cover_after(c, first);
    int64_t twice = -1;
    if (i > 0 && c->iv[i - 1][1] > first)
        twice = first;
    else if (i < c->n && c->iv[i][0] < first + count)
        twice = c->iv[i][0];
    if (twice < 0)
        return 0;
    if (c->twice < 0)
        c->twice = twice;
    char name[128];
    cover_name(w, what, twice, name, sizeof name);
    FAIL(w, "%s: %ss %lld..+%lld overlap what was written before: %s would be written twice",
         w->path, what, (long long)first, (long long)count, name);
    return -1;
}

/* Room for one more interval, within the memory budget. 0 or -1. */
static int cover_grow(tbrf_io_writer *w, struct io_coverage *c)
{
    if (c->n < c->cap)
        return 0;
    const int64_t cap = c->cap ? 2 * c->cap : 16;
    char err[512];
    if (tbrf_io_budget_check(w->path, "the record of what was written (pieces pushed out of "
                             "order)", (double)cap * sizeof *c->iv, err, sizeof err)) {
        FAIL(w, "%s", err);
        return -1;
    }
    void *iv = realloc(c->iv, (size_t)cap * sizeof *c->iv);
    if (!iv) {
        FAIL(w, "%s: out of memory for the record of what was written", w->path);
        return -1;
    }
    c->iv = iv;
    c->cap = cap;
    return 0;
}

int io_cover_add(tbrf_io_writer *w, struct io_coverage **cp, int64_t first, int64_t count)
{
    if (count <= 0)
        return 0;
    if (!*cp && !(*cp = calloc(1, sizeof **cp))) {
        FAIL(w, "%s: out of memory for the record of what was written", w->path);
        return -1;
    }
    struct io_coverage *c = *cp;
    if (c->n == 0)
        c->twice = -1;
    const int64_t i = cover_after(c, first), end = first + count;
    const int left = i > 0 && c->iv[i - 1][1] == first, right = i < c->n && c->iv[i][0] == end;
    if (left && right) { /* fills the hole between two intervals */
        c->iv[i - 1][1] = c->iv[i][1];
        memmove(c->iv + i, c->iv + i + 1, (size_t)(c->n - i - 1) * sizeof *c->iv);
        c->n--;
    } else if (left) {
        c->iv[i - 1][1] = end;
    } else if (right) {
        c->iv[i][0] = first;
    } else if (cover_grow(w, c)) {
        c->broken = 1;
        return -1;
    } else {
        memmove(c->iv + i + 1, c->iv + i, (size_t)(c->n - i) * sizeof *c->iv);
        c->iv[i][0] = first;
        c->iv[i][1] = end;
        c->n++;
    }
    return 0;
}

int io_cover_check(tbrf_io_writer *w, const struct io_coverage *c, int64_t total, const char *what)
{
    char name[128];
    if (c && c->broken) {
        FAIL(w, "%s: the record of what was written did not fit the memory budget; the file "
             "cannot be known complete", w->path);
        return -1;
    }
    if (c && c->twice >= 0) {
        cover_name(w, what, c->twice, name, sizeof name);
        FAIL(w, "%s: %s was pushed twice (a push overlapped an earlier one); the file is not "
             "complete", w->path, name);
        return -1;
    }
    if (total <= 0 || (c && c->n == 1 && c->iv[0][0] == 0 && c->iv[0][1] == total))
        return 0;
    const int64_t gap = !c || c->n == 0 || c->iv[0][0] > 0 ? 0 : c->iv[0][1];
    int64_t done = 0;
    for (int64_t i = 0; c && i < c->n; i++)
        done += c->iv[i][1] - c->iv[i][0];
    cover_name(w, what, gap, name, sizeof name);
    FAIL(w, "%s: %s was never written (%lld of %lld %ss were)", w->path, name, (long long)done,
         (long long)total, what);
    return -1;
}

void io_cover_free(struct io_coverage **c)
{
    if (*c) {
        free((*c)->iv);
        free(*c);
        *c = NULL;
    }
}
int tbrf_io_write_points(tbrf_io_writer *w, int dim, int64_t n, const double *xyz)
{
    if (!usable(w))
        return -1;
    if ((dim != 2 && dim != 3) || n < 1 || !xyz) {
        FAIL(w, "%s: bad points (dim %d, n %lld)", w->path, dim, (long long)n);
        return -1;
    }
    io_quiet q;
    io_quiet_begin(&q);
    int rc = w->ops->write_points(w, dim, n, xyz);
    io_quiet_end(&q);
    return rc;
}

int tbrf_io_write_values(tbrf_io_writer *w, int64_t n, int precision, const void *values)
{
    if (!usable(w))
        return -1;
    if (n < 1 || !values || (precision != TBRF_DOUBLE && precision != TBRF_FLOAT)) {
        FAIL(w, "%s: bad values (n %lld)", w->path, (long long)n);
        return -1;
    }
    io_quiet q;
    io_quiet_begin(&q);
    int rc = w->ops->write_values(w, n, precision, values);
    io_quiet_end(&q);
    return rc;
}

/* ------------------------------------------------------ streamed points */

int tbrf_io_points_begin(tbrf_io_writer *w, int dim, int64_t n, int precision)
{
    if (!usable(w))
        return -1;
    if ((dim != 2 && dim != 3) || n < 1 || n > INT64_MAX / 3 ||
        (precision != TBRF_DOUBLE && precision != TBRF_FLOAT)) {
        FAIL(w, "%s: bad points (dim %d, n %lld)", w->path, dim, (long long)n);
        return -1;
    }
    if (w->pts_n > 0 || w->rank > 0) {
        FAIL(w, "%s: the file already holds a field or points", w->path);
        return -1;
    }
    io_quiet q;
    io_quiet_begin(&q);
    int rc = w->ops->points_begin(w, dim, n, precision);
    io_quiet_end(&q);
    if (rc == 0) {
        w->pts_n = n;
        w->pts_dim = dim;
        w->pts_precision = precision;
        w->pts_written = 0;
    }
    return rc;
}

int tbrf_io_points_push(tbrf_io_writer *w, int64_t first, int64_t count, const double *xyz,
                        const void *values)
{
    if (!usable(w))
        return -1;
    if (w->pts_n == 0) {
        FAIL(w, "%s: no points started", w->path);
        return -1;
    }
    int bad = first < 0 || count < 0 || first > w->pts_n || count > w->pts_n - first;
    if (bad)
        FAIL(w, "%s: points %lld..+%lld lie outside 0..%lld", w->path, (long long)first,
             (long long)count, (long long)w->pts_n);
    else if (count > 0 && (!xyz || !values))
        FAIL(w, "%s: no positions or values", w->path);
    bad = bad || (count > 0 && (!xyz || !values)) ||
          io_cover_overlap(w, w->pts_cover, first, count, "point");
    return push_checked(w, bad, 1, first, count, xyz, values);
}

int tbrf_io_write_meta(tbrf_io_writer *w, const tbrf_io_meta *m)
{
    if (!usable(w))
        return -1;
    if (!m || (m->dim != 2 && m->dim != 3)) {
        FAIL(w, "%s: bad metadata", w->path);
        return -1;
    }
    if (m->table_n > 0 && m->table_k && m->table_p && m->table_n > SIZE_MAX / (2 * sizeof(double))) {
        FAIL(w, "%s: table too large", w->path);
        return -1;
    }
    io_quiet q;
    io_quiet_begin(&q);
    int rc = w->ops->write_meta(w, m);
    io_quiet_end(&q);
    return rc;
}

int tbrf_io_write_grid_record(tbrf_io_writer *w, const tbrf_io_meta *m)
{
    if (!usable(w))
        return -1;
    if (!m || w->rank == 0 || m->dim != w->rank) {
        FAIL(w, "%s: record the grid after tbrf_io_grid_begin, with its dim", w->path);
        return -1;
    }
    io_quiet q;
    io_quiet_begin(&q);
    int rc = w->ops->grid_record(w, m);
    io_quiet_end(&q);
    return rc;
}

/* Closes the format's file once; -1 if the final flush failed. */
static int close_format(tbrf_io_writer *w)
{
    if (!w->open)
        return 0;
    w->open = 0;
    io_quiet q;
    io_quiet_begin(&q);
    int rc = w->ops->close(w);
    io_quiet_end(&q);
    return rc;
}

const char *tbrf_io_side_temp_path(const tbrf_io_writer *w)
{
    return (w && !w->committed && w->has_xmf) ? w->xmf_tmp : NULL;
}

int tbrf_io_attach_xdmf(tbrf_io_writer *w, const tbrf_io_meta *m)
{
    if (!usable(w))
        return -1;
    /* a 1D grid: a drive series with three components (series.c) */
    if (!m || m->dim < 1 || m->dim > 3 || (m->dim == 1 && !m->is_grid)) {
        FAIL(w, "%s: bad metadata for the XDMF side file", w->path);
        return -1;
    }
    if (!w->has_xmf) {
        w->xmf = tbrf_io_xdmf_name(w->path);
        w->xmf_tmp = w->xmf ? io_temp_name(w->xmf) : NULL;
        if (!w->xmf || !w->xmf_tmp) {
            FAIL(w, "out of memory");
            return -1;
        }
    }
    /* The side file must be another file than the data (--out F.xmf). */
    if (io_same_file(w->xmf, w->path)) {
        FAIL(w, "cannot write %s: its XDMF side file would be the file itself; name the output "
             "otherwise (e.g. .h5)", w->path);
        return -1;
    }
    struct stat st;
    if (stat(w->xmf, &st) == 0 && !S_ISREG(st.st_mode)) {
        FAIL(w, "cannot write %s: it exists and is not a regular file", w->xmf);
        return -1;
    }
    io_remove_stale_temps(w->xmf);
    w->xmf_meta = *m;
    /* Only numbers are kept: the caller's strings may go away. */
    w->xmf_meta.command = w->xmf_meta.model = w->xmf_meta.model_kind = NULL;
    w->xmf_meta.table_file = w->xmf_meta.points_file = NULL;
    w->xmf_meta.table_n = 0;
    w->xmf_meta.table_k = w->xmf_meta.table_p = NULL;
    w->xmf_meta.storage = NULL;
    w->xmf_meta.vector_kind = w->xmf_meta.method_name = NULL;
    w->has_xmf = 1;
    return 0;
}

/* Gives `to` the permission bits of the file it replaces (and, as root,
 * its owner), so that replacing an output keeps what its owner set. */
static void keep_mode(int fd, const char *replaced)
{
    struct stat st;
    if (stat(replaced, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    if (fchmod(fd, st.st_mode & 07777) != 0)
        return;
    if (geteuid() == 0 && fchown(fd, st.st_uid, st.st_gid) != 0)
        return;
}

/* A commit that failed: nothing of it may remain. */
static int commit_failed(tbrf_io_writer *w)
{
    unlink(w->tmp);
    if (w->has_xmf)
        unlink(w->xmf_tmp);
    w->committed = 1; /* nothing left to remove */
    return -1;
}

static int publish(tbrf_io_writer *w);

#ifdef TBRF_IO_MPI
/* Every rank's record gathered on rank 0, which checks that together they
 * cover [0, total) exactly once (a cell two ranks wrote, or none did, is
 * named); collective. 0 on every rank, or -1 on every rank with rank 0's
 * message. */
static int cover_mpi(tbrf_io_writer *w, const struct io_coverage *c, int64_t total, const char *what)
{
    int size = 1, ok = !(c && (c->broken || c->twice >= 0));
    MPI_Comm_size(w->comm, &size);
    if (!agree(w->comm, ok)) { /* a rank's own record already failed: it names the cell */
        if (ok)
            FAIL(w, "%s: another rank wrote a %s twice; nothing was written", w->path, what);
        else
            io_cover_check(w, c, total, what);
        return -1;
    }
    long long n = c ? (long long)c->n * 2 : 0;
    long long *counts = w->mpi_rank == 0 ? calloc((size_t)size, sizeof *counts) : NULL;
    int *cnt = w->mpi_rank == 0 ? calloc((size_t)size, sizeof *cnt) : NULL;
    int *disp = w->mpi_rank == 0 ? calloc((size_t)size, sizeof *disp) : NULL;
    MPI_Gather(&n, 1, MPI_LONG_LONG, counts, 1, MPI_LONG_LONG, 0, w->comm);
    long long sum = 0;
    for (int r = 0; w->mpi_rank == 0 && r < size; r++)
        sum += counts[r];
    int64_t(*all)[2] = w->mpi_rank == 0 && sum < INT32_MAX ? malloc((size_t)(sum ? sum : 2) * 8) : NULL;
    ok = w->mpi_rank != 0 || (counts && cnt && disp && all);
    for (int r = 0, at = 0; ok && w->mpi_rank == 0 && r < size; r++)
        cnt[r] = (int)counts[r], disp[r] = at, at += (int)counts[r];
    if (agree(w->comm, ok)) {
        MPI_Gatherv(c ? (void *)c->iv : (void *)&n, (int)n, MPI_INT64_T, all, cnt, disp,
                    MPI_INT64_T, 0, w->comm);
        struct io_coverage *merged = NULL;
        for (long long i = 0; w->mpi_rank == 0 && ok && i < sum / 2; i++) {
            const int64_t first = all[i][0], count = all[i][1] - all[i][0];
            ok = io_cover_overlap(w, merged, first, count, what) == 0 &&
                 io_cover_add(w, &merged, first, count) == 0;
        }
        if (w->mpi_rank == 0 && ok)
            ok = io_cover_check(w, merged, total, what) == 0;
        io_cover_free(&merged);
    } else if (w->mpi_rank == 0) {
        FAIL(w, "%s: out of memory gathering the ranks' records of what was written", w->path);
    }
    free(counts), free(cnt), free(disp), free(all);
    MPI_Bcast(&ok, 1, MPI_INT, 0, w->comm);
    if (!ok)
        share_message(w->comm, w->message, sizeof w->message);
    return ok ? 0 : -1;
}

/* Commit of an MPI writer, collective: the ranks agree that the grid is
 * complete and every rank is fine, mark and close the file together, and
 * rank 0 publishes it; any failure on any rank leaves no file. */
static int commit_mpi(tbrf_io_writer *w)
{
    int ok = usable(w) && !w->mpi_failed;
    if (ok && w->rank > 0)
        ok = cover_mpi(w, w->cells_cover, w->total, "cell") == 0;
    if (ok && w->pts_n > 0)
        ok = cover_mpi(w, w->pts_cover, w->pts_n, "point") == 0;
    /* a series: every rank wrote its part of every time (the parts of a
     * time were checked to tile it before its write) */
    if (ok && w->series_nt > 0)
        ok = io_cover_check(w, w->series_cover, w->series_nt, "time") == 0;
    int all = agree(w->comm, ok);
    if (all) {
        io_quiet q;
        io_quiet_begin(&q);
        ok = w->ops->mark_complete(w) == 0;
        io_quiet_end(&q);
        all = agree(w->comm, ok);
    }
    ok = close_format(w) == 0 && ok;
    all = agree(w->comm, ok) && all;
    if (!all) {
        if (ok)
            FAIL(w, "%s: another rank failed; nothing was written", w->path);
        if (w->mpi_rank == 0)
            commit_failed(w);
        w->committed = 1;
        return -1;
    }
    int rc = w->mpi_rank == 0 ? publish(w) : 0;
    MPI_Bcast(&rc, 1, MPI_INT, 0, w->comm);
    if (rc)
        share_message(w->comm, w->message, sizeof w->message);
    w->committed = 1;
    return rc;
}
#endif

int tbrf_io_commit(tbrf_io_writer *w)
{
#ifdef TBRF_IO_MPI
    if (w && w->comm != MPI_COMM_NULL)
        return commit_mpi(w);
#endif
    if (!usable(w))
        return -1;
    /* each cell (point, time) written exactly once, not just as many */
    if ((w->rank > 0 && io_cover_check(w, w->cells_cover, w->total, "cell")) ||
        (w->pts_n > 0 && io_cover_check(w, w->pts_cover, w->pts_n, "point")) ||
        (w->series_nt > 0 && io_cover_check(w, w->series_cover, w->series_nt, "time")))
        return -1;
    /* Marked complete last, so a file lacking the mark (a temporary
     * left by kill -9) is known incomplete. */
    io_quiet q;
    io_quiet_begin(&q);
    int marked = w->ops->mark_complete(w);
    io_quiet_end(&q);
    if (marked) {
        close_format(w);
        return commit_failed(w);
    }
    if (close_format(w))
        return commit_failed(w);
    return publish(w);
}

/* The temporary, closed and complete, becomes NAME (with its side file):
 * synced, renamed, all or nothing. 0, or -1 with nothing left. */
static int publish(tbrf_io_writer *w)
{
    /* Sync before the rename, so that after a crash the final name never
     * points at data that did not reach the disk. */
    int fd = open(w->tmp, O_RDONLY);
    if (fd < 0 || fsync(fd) != 0) {
        FAIL(w, "cannot write %s: %s", w->path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return commit_failed(w);
    }
    keep_mode(fd, w->path);
    close(fd);
    /* The side file is complete on disk before either name changes, so
     * the data and its side file are published together: the only step
     * between the two renames is the second rename itself. */
    if (w->has_xmf) {
        char err[1024];
        if (w->series_times ? io_xdmf_write_series_temp(w->path, w->xmf, w->xmf_tmp, &w->xmf_meta,
                                                        w->series_nt, w->series_times, err,
                                                        sizeof err)
                            : io_xdmf_write_temp(w->path, w->xmf, w->xmf_tmp, &w->xmf_meta, err,
                                                 sizeof err)) {
            FAIL(w, "%s", err);
            return commit_failed(w);
        }
        int xfd = open(w->xmf_tmp, O_RDONLY);
        if (xfd >= 0) {
            keep_mode(xfd, w->xmf);
            close(xfd);
        }
    }
    /* With a side file, the file NAME replaces is kept under a second
     * name (a hard link, ".NAME.tmp-PID.old") until both renames are
     * done, so a failing second rename restores it: all or nothing. */
    char *bak = NULL;
    struct stat st;
    if (w->has_xmf && lstat(w->path, &st) == 0 && S_ISREG(st.st_mode)) {
        size_t bl = strlen(w->tmp) + 8;
        bak = malloc(bl);
        if (bak) {
            snprintf(bak, bl, "%s.old", w->tmp);
            unlink(bak);
            if (link(w->path, bak) != 0) { /* no hard links here: no backup */
                free(bak);
                bak = NULL;
            }
        }
    }
    if (rename(w->tmp, w->path) != 0) {
        FAIL(w, "cannot write %s: %s", w->path, strerror(errno));
        if (bak)
            unlink(bak);
        free(bak);
        return commit_failed(w);
    }
    if (w->has_xmf && rename(w->xmf_tmp, w->xmf) != 0) {
        /* Roll back: no data file without its side file. */
        int e = errno;
        if (bak && rename(bak, w->path) == 0)
            FAIL(w, "cannot write %s: %s (%s left as it was)", w->xmf, strerror(e), w->path);
        else {
            unlink(w->path);
            FAIL(w, "cannot write %s: %s (%s removed)", w->xmf, strerror(e), w->path);
        }
        if (bak)
            unlink(bak);
        free(bak);
        return commit_failed(w);
    }
    if (bak)
        unlink(bak);
    free(bak);
    if (!w->has_xmf)
        io_xdmf_remove_stale(w->path);
    io_sync_dir(w->path);
    w->committed = 1;
    return 0;
}

void tbrf_io_close(tbrf_io_writer *w)
{
    if (!w)
        return;
    close_format(w); /* collective on an MPI writer: every rank closes */
#ifdef TBRF_IO_MPI
    if (w->comm != MPI_COMM_NULL) {
        if (!w->committed && w->mpi_rank == 0) {
            unlink(w->tmp);
            if (w->has_xmf)
                unlink(w->xmf_tmp);
        }
        w->committed = 1;
        MPI_Comm_free(&w->comm);
    }
#endif
    if (!w->committed) {
        unlink(w->tmp);
        if (w->has_xmf)
            unlink(w->xmf_tmp);
    }
    free(w->path);
    free(w->tmp);
    free(w->xmf);
    free(w->xmf_tmp);
    free(w->series_times);
    io_cover_free(&w->cells_cover);
    io_cover_free(&w->pts_cover);
    io_cover_free(&w->series_cover);
    w->ops->release(w);
    free(w);
}
