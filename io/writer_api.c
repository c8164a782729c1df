/* writer_api.c — tbrf_writer_* (include/tbrf_writer.h), the installed
 * streaming writer: a thin, status-returning face of the io library's
 * grid writer (writer.c, xdmf.c; netcdf_writer.c for TBRF_WRITER_NETCDF, whose
 * files record the grid through tbrf_io_write_grid_record). Built into
 * libtbrf_writer, which exports only these functions (the io library's
 * own symbols are hidden with --exclude-libs). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/message.h"
#include "io/tbrf_io.h"
#include "tbrf_writer.h"

struct tbrf_writer {
    tbrf_io_writer *w;
    tbrf_io_meta meta;
    int flags, begun, committed;
    tbrfi_message msg; /* the last call's status and message */
};

static int fail(tbrf_writer *w, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tbrfi_failv(&w->msg, status, fmt, ap);
    va_end(ap);
    return status;
}

static int io_failed(tbrf_writer *w)
{
    return tbrfi_fail(&w->msg, TBRF_ERR_FILE, "%s", tbrf_io_message(w->w));
}

int tbrf_writer_create(const char *path, int flags, tbrf_writer **writer)
{
    if (!writer)
        return TBRF_ERR_NULL;
    tbrf_writer *w = calloc(1, sizeof *w);
    *writer = w;
    if (!w)
        return TBRF_ERR_NO_MEMORY;
    if (!path)
        return fail(w, TBRF_ERR_NULL, "path is NULL");
    if (flags & ~(TBRF_WRITER_COMPRESS | TBRF_WRITER_NETCDF | TBRF_WRITER_NO_XDMF))
        return fail(w, TBRF_ERR_INVALID, "flags = %d: unknown bits (TBRF_WRITER_COMPRESS, "
                    "_NETCDF, _NO_XDMF)", flags);
    w->flags = flags;
    char err[600] = "";
    w->w = tbrf_io_create(path, (flags & TBRF_WRITER_COMPRESS ? TBRF_IO_COMPRESS : 0) |
                                    (flags & TBRF_WRITER_NETCDF ? TBRF_IO_NETCDF : 0),
                          err, sizeof err);
    if (!w->w)
        return fail(w, TBRF_ERR_FILE, "%s", err);
    return TBRF_OK;
}

int tbrf_writer_grid_begin(tbrf_writer *w, int dim, const double origin[3], const double spacing[3],
                           const int64_t n[3], int precision)
{
    if (!w)
        return TBRF_ERR_NULL;
    if (!w->w)
        return fail(w, TBRF_ERR_INVALID, "the writer failed to open its file");
    if (!origin || !spacing || !n)
        return fail(w, TBRF_ERR_NULL, "grid_begin: origin, spacing or n is NULL");
    if (w->begun)
        return fail(w, TBRF_ERR_INVALID, "grid_begin: the grid is already declared");
    if (dim != 2 && dim != 3)
        return fail(w, TBRF_ERR_INVALID, "grid_begin: dim = %d: must be 2 or 3", dim);
    if (precision != TBRF_DOUBLE && precision != TBRF_FLOAT)
        return fail(w, TBRF_ERR_INVALID, "grid_begin: precision = %d: TBRF_DOUBLE or TBRF_FLOAT", precision);
    double cells = 1.0;
    for (int d = 0; d < 3; d++) {
        const int64_t nd = d < dim ? n[d] : 1;
        if (nd < 1 || (d >= dim && n[d] != 1))
            return fail(w, TBRF_ERR_SIZE, "grid_begin: n[%d] = %lld: must be >= 1 (1 for the third "
                        "axis in 2D)", d, (long long)n[d]);
        cells *= (double)nd;
        if (d < dim && (!isfinite(origin[d]) || !isfinite(spacing[d]) || !(spacing[d] > 0.0)))
            return fail(w, TBRF_ERR_INVALID, "grid_begin: axis %d: origin %g, spacing %g (finite, "
                        "spacing > 0)", d, origin[d], spacing[d]);
    }
    if (cells > 9.0e15)
        return fail(w, TBRF_ERR_SIZE, "grid_begin: %.3g cells overflow the index", cells);
    tbrf_io_meta *m = &w->meta;
    tbrf_io_meta_init(m);
    m->dim = dim;
    m->is_grid = 1;
    m->opts.precision = precision;
    for (int d = 0; d < 3; d++) {
        m->origin[d] = d < dim ? origin[d] : 0.0;
        m->spacing[d] = d < dim ? spacing[d] : 1.0;
        m->n[d] = d < dim ? n[d] : 1;
    }
    /* netCDF is described by its CF coordinates, as the command's (no side file) */
    if (!(w->flags & (TBRF_WRITER_NO_XDMF | TBRF_WRITER_NETCDF)) && tbrf_io_attach_xdmf(w->w, m))
        return io_failed(w);
    if (tbrf_io_grid_begin(w->w, dim, m->n, precision) || tbrf_io_write_grid_record(w->w, m))
        return io_failed(w);
    w->begun = 1;
    tbrfi_message_clear(&w->msg);
    return TBRF_OK;
}

int tbrf_writer_push(void *writer, int64_t first, int64_t count, const void *values)
{
    tbrf_writer *w = writer;
    if (!w)
        return TBRF_ERR_NULL;
    if (!w->begun || w->committed)
        return fail(w, TBRF_ERR_INVALID, "push: %s", w->committed ? "the file is committed"
                                                                 : "call tbrf_writer_grid_begin first");
    if (count > 0 && !values)
        return fail(w, TBRF_ERR_NULL, "push: values is NULL");
    if (tbrf_io_grid_push(w->w, first, count, values))
        return io_failed(w);
    return TBRF_OK;
}

int tbrf_writer_commit(tbrf_writer *w)
{
    if (!w)
        return TBRF_ERR_NULL;
    if (!w->begun || w->committed)
        return fail(w, TBRF_ERR_INVALID, "commit: %s", w->committed ? "committed already"
                                                                   : "no grid declared");
    if (tbrf_io_commit(w->w))
        return io_failed(w);
    w->committed = 1;
    tbrfi_message_clear(&w->msg);
    return TBRF_OK;
}

const char *tbrf_writer_message(const tbrf_writer *w)
{
    return w ? tbrfi_message_text(&w->msg) : "writer is NULL";
}

void tbrf_writer_close(tbrf_writer *w)
{
    if (!w)
        return;
    tbrf_io_close(w->w);
    free(w);
}
