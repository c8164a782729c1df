/* common.c — small helpers shared by the HDF5 writer, reader and info. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "io_internal.h"
#include "tbrf_io.h"

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
    for (int c = 0; c < 3; c++) {
        m->lo[c] = m->hi[c] = NAN;
        m->origin[c] = m->spacing[c] = NAN;
    }
}
