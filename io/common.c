/* common.c — small helpers shared by every format's writer and reader and
 * by info (the HDF5 ones are in hdf5_common.c). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "io/io_internal.h"
#include "io/tbrf_io.h"

void io_setf(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    /* One line: file names or HDF5 descriptions could carry newlines. */
    for (char *c = err; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
}

/* ceil(a / b) for a, b >= 1. */
static uint64_t div_up(uint64_t a, uint64_t b)
{
    return a / b + (a % b != 0);
}

/* Splits an axis of length dim into pieces of at most room, as evenly as
 * possible: the piece length whose last piece is (nearly) full, so that
 * no edge chunk is mostly empty (HDF5 allocates edge chunks whole). */
static uint64_t even_piece(uint64_t dim, uint64_t room)
{
    if (room < 1)
        room = 1;
    if (dim <= room)
        return dim;
    return div_up(dim, div_up(dim, room));
}

void io_chunk_shape(int rank, const uint64_t *dims, size_t elt, uint64_t *chunk)
{
    uint64_t target = ((uint64_t)1 << 20) / elt, have = 1;
    for (int d = rank - 1; d >= 0; d--) {
        uint64_t room = target / have;
        chunk[d] = even_piece(dims[d] > 0 ? dims[d] : 1, room);
        have *= chunk[d];
    }
}

double tbrf_io_grid_bytes(int dim, const int64_t n[3], int precision)
{
    if (!n || (dim != 2 && dim != 3))
        return NAN;
    uint64_t dims[3], chunk[3];
    for (int i = 0; i < dim; i++) { /* slowest first */
        if (n[dim - 1 - i] < 1)
            return NAN;
        dims[i] = (uint64_t)n[dim - 1 - i];
    }
    size_t elt = precision == TBRF_FLOAT ? 4 : 8;
    io_chunk_shape(dim, dims, elt, chunk);
    double bytes = (double)elt;
    for (int i = 0; i < dim; i++)
        bytes *= (double)div_up(dims[i], chunk[i]) * (double)chunk[i];
    /* Chunk index, attributes, coordinates: generously 1 MiB + 1%. */
    return bytes * 1.01 + (double)(1 << 20);
}

int64_t io_grid_cells(tbrf_io_writer *w, int dim, const int64_t n[3], int precision, int exists,
                      const char *field)
{
    if (!n || (dim != 2 && dim != 3) || (precision != TBRF_DOUBLE && precision != TBRF_FLOAT)) {
        IO_FAIL(w, "%s: bad grid description (dim %d, precision %d)", w->path, dim, precision);
        return -1;
    }
    if (exists) {
        IO_FAIL(w, "%s: %s already exists", w->path, field);
        return -1;
    }
    int64_t total = 1;
    for (int c = 0; c < 3; c++) {
        if (n[c] < 1 || total > INT64_MAX / n[c]) {
            IO_FAIL(w, "%s: bad grid size", w->path);
            return -1;
        }
        total *= n[c];
    }
    if (dim == 2 && n[2] != 1) {
        IO_FAIL(w, "%s: a 2D grid needs nz = 1", w->path);
        return -1;
    }
    return total;
}

void io_grid_record(tbrf_io_writer *w, int dim, const int64_t n[3], int precision, int64_t total)
{
    w->precision = precision;
    w->rank = dim;
    for (int c = 0; c < 3; c++)
        w->n[c] = n[c];
    w->total = total;
    w->written = 0;
}

int io_stat_input(const char *path, const char *what, char *err, size_t errlen)
{
    const char *sep = what ? " file " : "";
    if (!what)
        what = "";
    struct stat st;
    if (stat(path, &st) != 0) {
        io_setf(err, errlen, "cannot read %s%s%s: %s", what, sep, path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        io_setf(err, errlen, "cannot read %s%s%s: it is a directory", what, sep, path);
        return -1;
    }
    return 0;
}

double *io_table_rows(tbrf_io_writer *w, const tbrf_io_meta *m)
{
    double *t = malloc(m->table_n * 2 * sizeof *t);
    if (!t) {
        IO_FAIL(w, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < m->table_n; i++) {
        t[2 * i] = m->table_k[i];
        t[2 * i + 1] = m->table_p[i];
    }
    return t;
}

int io_grid_boxes(tbrf_io_writer *w, int64_t first, int64_t count, io_box_fn box, void *ctx)
{
    const int64_t nx = w->n[0], ny = w->n[1], plane = nx * ny;
    int64_t a = first, b = first + count;
    while (a < b) {
        int64_t x = a % nx, r = a / nx, y = r % ny, z = r / ny, step;
        int64_t start[3] = {z, y, x}, cnt[3] = {1, 1, 0};
        if (x != 0 || b - a < nx) {
            step = nx - x < b - a ? nx - x : b - a;
            cnt[2] = step;
        } else if (y != 0 || b - a < plane) {
            int64_t rows = (b - a) / nx;
            if (rows > ny - y)
                rows = ny - y;
            step = rows * nx;
            cnt[1] = rows;
            cnt[2] = nx;
        } else {
            int64_t planes = (b - a) / plane;
            step = planes * plane;
            cnt[0] = planes;
            cnt[1] = ny;
            cnt[2] = nx;
        }
        int e = box(w, ctx, a - first, start, cnt);
        if (e)
            return e;
        a += step;
    }
    return 0;
}

/* ------------------------------------------------- temporaries */

/* The longest base name a temporary ".NAME.tmp-PID" may have and still
 * fit a file name (NAME_MAX is 255 on every file system we know of). */
#define TEMP_BASE_MAX (255 - 32)

/* "DIR/.NAME.tmp-" (the prefix of every temporary of path, PID to
 * follow), or for a long NAME "DIR/.tbrf-HASH.tmp-" with HASH the
 * 64-bit FNV-1a of NAME in hex, so that any name that fits its directory
 * has a temporary that fits too. malloc'ed. */
char *io_temp_prefix(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = path + dirlen;
    size_t n = dirlen + strlen(base) + 48;
    char *t = malloc(n);
    if (!t)
        return NULL;
    if (strlen(base) <= TEMP_BASE_MAX) {
        snprintf(t, n, "%.*s.%s.tmp-", (int)dirlen, path, base);
    } else {
        uint64_t h = 1469598103934665603ull;
        for (const unsigned char *c = (const unsigned char *)base; *c; c++)
            h = (h ^ *c) * 1099511628211ull;
        snprintf(t, n, "%.*s.tbrf-%016llx.tmp-", (int)dirlen, path, (unsigned long long)h);
    }
    return t;
}

char *io_temp_name(const char *path)
{
    char *prefix = io_temp_prefix(path);
    if (!prefix)
        return NULL;
    size_t n = strlen(prefix) + 24;
    char *t = malloc(n);
    if (t)
        snprintf(t, n, "%s%ld", prefix, (long)getpid());
    free(prefix);
    return t;
}

int io_remove_stale_temps(const char *path)
{
    char *prefix = io_temp_prefix(path);
    if (!prefix)
        return 0;
    const char *slash = strrchr(prefix, '/');
    const char *pbase = slash ? slash + 1 : prefix;
    char dir[4096];
    if (!slash)
        strcpy(dir, ".");
    else if (slash == prefix)
        strcpy(dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - prefix), prefix);
    size_t plen = strlen(pbase);
    int removed = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        if (strncmp(e->d_name, pbase, plen) != 0)
            continue;
        const char *digits = e->d_name + plen;
        char *end = NULL;
        errno = 0;
        long pid = strtol(digits, &end, 10);
        /* ".old": a commit's backup of the file it replaced */
        if (!*digits || (*end && strcmp(end, ".old") != 0) || errno || pid <= 0 ||
            pid == (long)getpid())
            continue;
        /* A process that no longer exists (on this host) cannot finish
         * its temporary: remove it. A live one's is left alone. */
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        char full[8192];
        int k = snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
        if (k > 0 && (size_t)k < sizeof full && unlink(full) == 0)
            removed++;
    }
    if (d)
        closedir(d);
    free(prefix);
    return removed;
}

void io_sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash)
        strcpy(dir, ".");
    else if (slash == path)
        strcpy(dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    int fd = open(dir, O_RDONLY);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

int io_same_file(const char *a, const char *b)
{
    if (!a || !b)
        return 0;
    if (strcmp(a, b) == 0)
        return 1;
    struct stat sa, sb;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
        return 0;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void io_put_escaped(FILE *out, const char *s)
{
    char e[8];
    for (const char *p = s; *p; p++) {
        char one[2] = {*p, '\0'};
        fputs(tbrf_io_escape(one, e, sizeof e), out);
    }
}

void io_put_double(FILE *out, double v)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, sizeof buf, "%.17g", v);
    fputs(buf, out);
}
