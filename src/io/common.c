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

void tbrf_io_meta_init(tbrf_io_meta *m)
{
    if (!m)
        return;
    memset(m, 0, sizeof *m);
    m->index = m->kmin = m->kmax = NAN;
    m->length = m->nu = NAN;
    m->variance = m->amplitude = NAN;
    m->resolution = NAN;
    m->by_variance = 1;
    tbrf_default_opts(&m->opts);
    m->method_used = -1;
    for (int c = 0; c < 3; c++) {
        m->lo[c] = m->hi[c] = NAN;
        m->origin[c] = m->spacing[c] = NAN;
    }
}

static const char *line_method_name(int m)
{
    return m == TBRF_LINES_SPECTRAL ? "spectral" : m == TBRF_LINES_CIRCULANT ? "circulant" : "unknown";
}

/* NaN means "not applicable": such numbers are left out, not written. */
static int f64v(const io_attr_sink *s, const char *name, const double *v, int count)
{
    for (int i = 0; i < count; i++)
        if (isnan(v[i]))
            return 0;
    return s->f64v(s->ctx, name, v, count);
}

static int f64(const io_attr_sink *s, const char *name, double v)
{
    return f64v(s, name, &v, 1);
}

static int i64(const io_attr_sink *s, const char *name, int64_t v)
{
    return s->i64v(s->ctx, name, &v, 1);
}

int io_meta_attrs(const io_attr_sink *s, const tbrf_io_meta *m)
{
    const int d = m->dim;
    int e = 0;
    const char *backend = tbrf_backend_name(m->info.backend);
    const char *requested = tbrf_backend_name(m->opts.backend);

    e |= s->str(s->ctx, "tbrf_version", tbrf_version());
    e |= s->str(s->ctx, "command", m->command);
    /* Model: the description for humans, every number separately for
     * programs that regenerate the field. */
    e |= s->str(s->ctx, "model", m->model);
    e |= s->str(s->ctx, "model_kind", m->model_kind);
    e |= f64(s, "model_index", m->index);
    e |= f64(s, "model_kmin", m->kmin);
    e |= f64(s, "model_kmax", m->kmax);
    e |= f64(s, "model_length", m->length);
    e |= f64(s, "model_nu", m->nu);
    e |= s->str(s->ctx, "normalization", m->by_variance ? "variance" : "amplitude");
    if (m->by_variance)
        e |= f64(s, "variance", m->variance);
    else
        e |= f64(s, "amplitude", m->amplitude);
    e |= s->str(s->ctx, "model_table_file", m->table_file);
    /* Options that change the mathematics. */
    e |= i64(s, "dim", d);
    e |= i64(s, "lines", m->opts.lines);
    e |= i64(s, "oversampling", m->opts.oversampling);
    e |= s->str(s->ctx, "line_method", line_method_name(m->opts.line_method));
    /* The method that ran when known (never "auto"), so that regenerate
     * does not depend on how much memory the next machine has. */
    {
        int meth = m->method_used >= 0 ? m->method_used : m->opts.method;
        e |= s->str(s->ctx, "method", meth == TBRF_METHOD_FFT ? "fft" : "tb");
    }
    e |= i64(s, "periodic", m->opts.periodic);
    e |= i64(s, "max_padding", m->opts.max_padding);
    e |= s->u64(s->ctx, "seed", m->seed);
    e |= s->u64(s->ctx, "realization", m->realization);
    e |= s->str(s->ctx, "precision", m->opts.precision == TBRF_FLOAT ? "float" : "double");
    e |= s->str(s->ctx, "backend", backend ? backend : "unknown");
    e |= s->str(s->ctx, "backend_requested", requested ? requested : "unknown");
    /* Domain and geometry, x first (the reverse of the dataset shape). */
    e |= f64v(s, "domain_lo", m->lo, d);
    e |= f64v(s, "domain_hi", m->hi, d);
    e |= f64(s, "resolution", m->resolution);
    e |= s->str(s->ctx, "geometry", m->is_grid ? "grid" : "points");
    if (m->is_grid) {
        e |= f64v(s, "grid_origin", m->origin, d);
        e |= f64v(s, "grid_spacing", m->spacing, d);
        e |= s->i64v(s->ctx, "grid_counts", m->n, d);
    } else {
        e |= i64(s, "npoints", m->npoints);
        e |= s->str(s->ctx, "points_file", m->points_file);
    }
    /* What the plan decided. */
    e |= i64(s, "line_samples", m->info.line_samples);
    e |= f64(s, "line_spacing", m->info.line_spacing);
    e |= f64(s, "line_length", m->info.line_length);
    e |= f64(s, "model_variance", m->info.variance);
    e |= f64(s, "variance_resolved", m->info.variance_resolved);
    e |= f64(s, "amplitude_used", m->info.amplitude);
    e |= i64(s, "padding", m->info.padding);
    return e;
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
