/* common.c — small helpers shared by the HDF5 and netCDF writers, the reader
 * and info. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/io_internal.h"
#include "io/tbrf_io.h"

void io_quiet_begin(io_quiet *q)
{
    q->func = NULL;
    q->data = NULL;
    H5Eget_auto2(H5E_DEFAULT, &q->func, &q->data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

void io_quiet_end(const io_quiet *q)
{
    H5Eset_auto2(H5E_DEFAULT, q->func, q->data);
}

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

/* H5Ewalk2 visits the stack from the API call inward (downward); the last
 * entry visited is the innermost, which names the actual cause. */
static herr_t reason_cb(unsigned n, const H5E_error2_t *e, void *data)
{
    (void)n;
    const char **last = data;
    if (e && e->desc && e->desc[0])
        *last = e->desc;
    return 0;
}

void io_h5_reason(char *buf, size_t n)
{
    if (!buf || n == 0)
        return;
    buf[0] = '\0';
    const char *last = NULL;
    hid_t stack = H5Eget_current_stack();
    if (stack < 0)
        return;
    H5Ewalk2(stack, H5E_WALK_DOWNWARD, reason_cb, &last);
    if (last) {
        /* The sec2 driver's write and read failures read "file write
         * failed: time = ..., filename = ..., errno = 28, error message =
         * 'No space left on device', buf = ...": keep only the reason. */
        const char *key = "error message = '";
        const char *m = strstr(last, key);
        const char *end = m ? strchr(m + strlen(key), '\'') : NULL;
        if (m && end)
            io_setf(buf, n, "%.*s", (int)(end - (m + strlen(key))), m + strlen(key));
        else
            io_setf(buf, n, "%s", last);
    }
    H5Eclose_stack(stack);
}

void io_chunk_shape(int rank, const uint64_t *dims, size_t elt, uint64_t *chunk)
{
    uint64_t target = ((uint64_t)1 << 20) / elt, have = 1;
    for (int d = rank - 1; d >= 0; d--) {
        uint64_t room = target / have;
        if (room < 1)
            room = 1;
        chunk[d] = dims[d] < room ? dims[d] : room;
        have *= chunk[d];
    }
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
