/* reader.c — the readers of tbrf_io.h, by format: each public call finds
 * the file's reader (io_reader_of: the first of the registry whose probe
 * claims the file's first bytes) and goes through its table
 * (io_reader.h), so that a netCDF file is read through netCDF and names
 * its variables, an HDF5 file through HDF5 naming its datasets. Also what
 * no format owns: text points, the memory budget, escaping for terminals.
 *
 * Every failure says which file and what is wrong with it in one line:
 * the points file is user input, so it gets the same care as options. */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/io_internal.h"
#include "io/io_reader.h"
#include "io/tbrf_io.h"

/* A size with an optional binary suffix (K, M, G, T; an optional "iB"
 * or "B" after it): bytes, or 0 if s is not such a size. */
uint64_t tbrf_io_budget(void)
{
    uint64_t b;
    return tbrf_memory_budget(&b) == TBRF_OK ? b : 0;
}

int tbrf_io_budget_check(const char *path, const char *what, double bytes, char *err,
                         size_t errlen)
{
    uint64_t budget = tbrf_io_budget();
    if (budget == 0) {
        io_setf(err, errlen, "%s='%.40s' is not a size in bytes (such as 4G or 512M)",
                TBRF_IO_BUDGET_ENV, getenv(TBRF_IO_BUDGET_ENV));
        return -1;
    }
    if (bytes >= 0 && bytes <= (double)budget)
        return 0;
    io_setf(err, errlen, "%s%s%s would need %.3g MiB, more than the memory budget of %.3g MiB "
            "(set %s to raise it)", path ? path : "", path ? ": " : "", what, bytes / 1048576.0,
            (double)budget / 1048576.0, TBRF_IO_BUDGET_ENV);
    return -1;
}

int io_points_finite(const char *path, int64_t first, int64_t n, int dim, const double *xyz,
                     char *err, size_t errlen)
{
    for (int64_t i = 0; i < n * dim; i++)
        if (!isfinite(xyz[i])) {
            io_setf(err, errlen, "%s: /points row %lld has a%s coordinate", path,
                    (long long)(first + i / dim), isnan(xyz[i]) ? " NaN" : "n infinite");
            return -1;
        }
    return 0;
}


const char *tbrf_io_escape(const char *s, char *buf, size_t n)
{
    if (!buf || n == 0)
        return "";
    if (!s)
        s = "(null)";
    static const char HEX[] = "0123456789abcdef";
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char e[5];
        size_t el = 0;
        unsigned c = *p;
        if (c == '\n' || c == '\t' || c == '\r' || c == '\\') {
            e[el++] = '\\';
            e[el++] = c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' : '\\';
        } else if (c < 0x20 || c == 0x7f) {
            e[el++] = '\\';
            e[el++] = 'x';
            e[el++] = HEX[c >> 4];
            e[el++] = HEX[c & 15];
        } else {
            e[el++] = (char)c;
        }
        if (o + el + 4 > n) { /* keep room for "..." and the NUL */
            if (n >= 4) {
                if (o > n - 4)
                    o = n - 4;
                memcpy(buf + o, "...", 3);
                o += 3;
            }
            break;
        }
        memcpy(buf + o, e, el);
        o += el;
    }
    buf[o] = '\0';
    return buf;
}

/* --------------------------------------------------------- points: text */

/* The numbers of one line of a points text file (comment removed): how
 * many (0 to 3) into v, or -1 with "FILE:LINE: ..." in err. */
static int point_numbers(char *line, const char *path, size_t lineno, double v[3], char *err,
                         size_t errlen)
{
    int k = 0;
    char *p = line;
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            return k;
        if (k == 3) {
            io_setf(err, errlen, "%s:%zu: more than 3 numbers (expected \"x y z\" or \"x y\")",
                    path, lineno);
            return -1;
        }
        char *end;
        errno = 0;
        v[k] = strtod(p, &end);
        if (end == p || (*end && !isspace((unsigned char)*end))) {
            char word[40], shown[140];
            size_t wl = strcspn(p, " \t\r\n");
            snprintf(word, sizeof word, "%.*s", (int)(wl < 32 ? wl : 32), p);
            io_setf(err, errlen, "%s:%zu: '%s' is not a number", path, lineno,
                    tbrf_io_escape(word, shown, sizeof shown));
            return -1;
        }
        /* Underflow to a tiny number is fine; overflow and inf/nan are not. */
        if ((!isfinite(v[k]) || errno == ERANGE) &&
            !(errno == ERANGE && isfinite(v[k]) && fabs(v[k]) < 1.0)) {
            io_setf(err, errlen, "%s:%zu: coordinate %d is not finite", path, lineno, k + 1);
            return -1;
        }
        k++;
        p = end;
    }
}

/* Reads one line (without its newline) into *line, growing it up to
 * TBRF_IO_MAX_LINE bytes. Returns the length, -1 at the end of the file
 * with nothing read, -2 for a line too long, -3 for a NUL byte (binary
 * data), -4 for no memory. */
static long read_text_line(FILE *f, char **line, size_t *cap)
{
    size_t len = 0;
    int c;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (c == '\0')
            return -3;
        if (len + 1 >= *cap) {
            if (*cap >= TBRF_IO_MAX_LINE)
                return -2;
            size_t nc = *cap ? 2 * *cap : 256;
            char *nb = realloc(*line, nc);
            if (!nb)
                return -4;
            *line = nb;
            *cap = nc;
        }
        (*line)[len++] = (char)c;
    }
    if (c == EOF && len == 0)
        return -1;
    if (!*line) {
        if (!(*line = malloc(1)))
            return -4;
        *cap = 1;
    }
    (*line)[len] = '\0';
    return (long)len;
}

/* The failures of a line read by read_text_line (got: its result) at line
 * lineno of a points text file, a file longer than max_lines, and text
 * past its bound (over_bytes: that bound, 0 while within it): 1 with the
 * message in err, 0 for a line to parse. */
static int bad_text_line(long got, size_t lineno, uint64_t max_lines, double over_bytes,
                         const char *path, char *err, size_t errlen)
{
    if (over_bytes > 0.0)
        io_setf(err, errlen, "%s:%zu: more than %.3g MiB of text read, more than a points file may "
                "hold under the memory budget (set %s to raise it)", path, lineno,
                over_bytes / 1048576.0, TBRF_IO_BUDGET_ENV);
    else if (got == -3)
        io_setf(err, errlen, "%s:%zu: not a text line (binary data?)", path, lineno);
    else if (got == -2)
        io_setf(err, errlen, "%s:%zu: line longer than %d bytes", path, lineno, TBRF_IO_MAX_LINE);
    else if (got == -4)
        io_setf(err, errlen, "%s:%zu: not enough memory", path, lineno);
    else if (lineno > max_lines)
        io_setf(err, errlen, "%s:%zu: more lines than the memory budget allows points "
                "(set %s to raise it)", path, lineno, TBRF_IO_BUDGET_ENV);
    else
        return 0;
    return 1;
}

/* A regular points text file larger than max_bytes, refused before it is
 * read (a pipe is counted as it is read): 1 with the message in err. */
static int text_too_big(FILE *f, const char *path, double max_bytes, char *err, size_t errlen)
{
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || !((double)st.st_size > max_bytes))
        return 0;
    io_setf(err, errlen, "%s: %.3g MiB of text, more than the %.3g MiB a points file may hold "
            "under the memory budget (set %s to raise it)", path, (double)st.st_size / 1048576.0,
            max_bytes / 1048576.0, TBRF_IO_BUDGET_ENV);
    return 1;
}

/* Doubles the room for points in *buf (three numbers each), within the
 * memory budget: 0, or -1 with the message in err. */
static int grow_points(double **buf, size_t *cap, size_t lineno, const char *path, char *err,
                       size_t errlen)
{
    size_t nc = *cap ? 2 * *cap : 1024;
    char what[64];
    snprintf(what, sizeof what, "line %zu: more than %zu points", lineno, *cap);
    if (tbrf_io_budget_check(path, what, 24.0 * (double)nc, err, errlen))
        return -1;
    double *nb = nc < SIZE_MAX / 24 ? realloc(*buf, nc * 3 * sizeof *nb) : NULL;
    if (!nb) {
        io_setf(err, errlen, "%s:%zu: not enough memory", path, lineno);
        return -1;
    }
    *buf = nb;
    *cap = nc;
    return 0;
}

static int read_points_text(const char *path, int *dim, int64_t *n, double **xyz, char *err,
                            size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        io_setf(err, errlen, "cannot read points file %s: %s", path, strerror(errno));
        return -1;
    }
    int rc = -1, dm = 0;
    size_t cap = 0, np = 0, lineno = 0, linecap = 0;
    double *buf = NULL;
    char *line = NULL;
    long got;
    /* Every line costs time even when blank: at most as many lines as
     * the budget allows points, and a few more; and at most 4 bytes of
     * text for each byte its points may hold (a point's 24 bytes as up to
     * 96 characters), so that a huge or endless file (a pipe) is refused
     * without being read to its end. */
    uint64_t budget = tbrf_io_budget();
    uint64_t max_lines = budget / 24 + 1024;
    const double max_bytes = 4.0 * (double)budget + (double)TBRF_IO_MAX_LINE;
    double bytes = 0.0;
    if (text_too_big(f, path, max_bytes, err, errlen))
        goto done;
    while ((got = read_text_line(f, &line, &linecap)) >= -4) {
        if (got == -1)
            break;
        lineno++;
        bytes += got > 0 ? (double)got + 1.0 : 1.0;
        if (bad_text_line(got, lineno, max_lines, bytes > max_bytes ? max_bytes : 0.0, path, err,
                          errlen))
            goto done;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        double v[3];
        int k = point_numbers(line, path, lineno, v, err, errlen);
        if (k < 0)
            goto done;
        if (k == 0)
            continue; /* blank or comment */
        if (k < 2) {
            io_setf(err, errlen, "%s:%zu: one number; expected \"x y z\" or \"x y\"", path, lineno);
            goto done;
        }
        if (dm == 0)
            dm = k;
        else if (k != dm) {
            io_setf(err, errlen, "%s:%zu: %d numbers, but the first point had %d", path, lineno, k,
                    dm);
            goto done;
        }
        if (np == cap && grow_points(&buf, &cap, lineno, path, err, errlen))
            goto done;
        for (int c = 0; c < dm; c++)
            buf[np * (size_t)dm + (size_t)c] = v[c];
        np++;
    }
    if (ferror(f)) {
        io_setf(err, errlen, "cannot read points file %s: %s", path, strerror(errno));
        goto done;
    }
    if (np == 0) {
        io_setf(err, errlen, "%s: no points (expected lines \"x y z\")", path);
        goto done;
    }
    *dim = dm;
    *n = (int64_t)np;
    *xyz = buf;
    buf = NULL;
    rc = 0;
done:
    free(line);
    free(buf);
    fclose(f);
    return rc;
}

/* The first bytes of path (up to 8) into magic; how many, or -1. */
static long read_magic(const char *path, unsigned char magic[8])
{
    memset(magic, 0, 8);
    FILE *f = path && path[0] ? fopen(path, "rb") : NULL;
    if (!f)
        return -1;
    size_t got = fread(magic, 1, 8, f);
    fclose(f);
    return (long)got;
}

/* The reader that claims path, or NULL (no such file, or none claims it). */
static const io_reader_ops *claim(const char *path)
{
    unsigned char magic[8];
    long got = read_magic(path, magic);
    for (int i = 0; got > 0 && i < io_nreaders; i++)
        if (io_readers[i]->probe(path, magic, (size_t)got))
            return io_readers[i];
    return NULL;
}

const io_reader_ops *io_reader_of(const char *path)
{
    const io_reader_ops *r = claim(path);
    return r ? r : &io_hdf5_reader;
}

/* 1 with "WHAT file PATH is not a file of a format tbrf reads (HDF5,
 * netCDF)" in err when path holds bytes that no reader claims; else 0
 * (a missing or unreadable file: the reader's messages say why). */
static int unclaimed(const char *path, const char *what, char *err, size_t errlen)
{
    unsigned char magic[8];
    if (read_magic(path, magic) <= 0 || claim(path))
        return 0;
    char list[128] = "";
    for (int i = 0; i < io_nreaders; i++) {
        size_t at = strlen(list);
        snprintf(list + at, sizeof list - at, "%s%s", i ? ", " : "", io_readers[i]->title);
    }
    io_setf(err, errlen, "%s%s%s is not a file of a format tbrf reads (%s)", what ? what : "",
            what ? " file " : "", path, list);
    return 1;
}

int tbrf_io_read_points(const char *path, int *dim, int64_t *n, double **xyz, char *err,
                        size_t errlen)
{
    if (!dim || !n || !xyz) {
        io_setf(err, errlen, "tbrf_io_read_points: NULL argument");
        return -1;
    }
    *xyz = NULL;
    if (!path || !path[0]) {
        io_setf(err, errlen, "no points file name given");
        return -1;
    }
    if (io_stat_input(path, "points", err, errlen))
        return -1;
    /* A pipe or a device is read as text, once: probing it would consume
     * its first bytes (and HDF5 and netCDF files need a seekable file). */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return read_points_text(path, dim, n, xyz, err, errlen);
    /* The kind is told by the first bytes, not the name. */
    unsigned char magic[8];
    if (read_magic(path, magic) < 0) {
        io_setf(err, errlen, "cannot read points file %s: %s", path, strerror(errno));
        return -1;
    }
    const io_reader_ops *r = claim(path);
    return r ? r->points(path, dim, n, xyz, err, errlen)
             : read_points_text(path, dim, n, xyz, err, errlen);
}

/* ------------------------------------------------------------ metadata */

struct tbrf_io_file {
    const io_reader_ops *ops;
    void *h; /* the reader's own handle */
};

tbrf_io_file *tbrf_io_open(const char *path, char *err, size_t errlen)
{
    if (unclaimed(path, "input", err, errlen))
        return NULL;
    const io_reader_ops *r = io_reader_of(path);
    void *h = r->open(path, err, errlen);
    if (!h)
        return NULL;
    tbrf_io_file *f = malloc(sizeof *f);
    if (!f) {
        r->close(h);
        io_setf(err, errlen, "out of memory");
        return NULL;
    }
    f->ops = r;
    f->h = h;
    return f;
}

void tbrf_io_file_close(tbrf_io_file *f)
{
    if (!f)
        return;
    f->ops->close(f->h);
    free(f);
}

int tbrf_io_attr_f64(tbrf_io_file *f, const char *name, double *v, int max)
{
    return f && name && v ? f->ops->attr_num(f->h, name, IO_AS_F64, v, max) : 0;
}

int tbrf_io_attr_i64(tbrf_io_file *f, const char *name, int64_t *v, int max)
{
    return f && name && v ? f->ops->attr_num(f->h, name, IO_AS_I64, v, max) : 0;
}

int tbrf_io_attr_u64(tbrf_io_file *f, const char *name, uint64_t *v)
{
    return f && name && v ? f->ops->attr_num(f->h, name, IO_AS_U64, v, 1) : 0;
}

int io_attr_strdup(tbrf_io_file *f, const char *name, char **out)
{
    *out = NULL;
    return f && name ? f->ops->attr_str(f->h, name, out) : 0;
}

int tbrf_io_attr_str(tbrf_io_file *f, const char *name, char *buf, size_t len)
{
    if (!buf || len == 0)
        return 0;
    char *s;
    int rc = io_attr_strdup(f, name, &s);
    if (rc == 1)
        snprintf(buf, len, "%s", s);
    free(s);
    return rc;
}

int tbrf_io_read_table(tbrf_io_file *f, size_t *n, double **k, double **p)
{
    *k = *p = NULL;
    *n = 0;
    return f ? f->ops->table(f->h, n, k, p) : -1;
}

int tbrf_io_info(const char *path, FILE *out, char *err, size_t errlen)
{
    if (!path || !path[0] || !out) {
        io_setf(err, errlen, "no file name given");
        return -1;
    }
    if (io_stat_input(path, NULL, err, errlen) || unclaimed(path, NULL, err, errlen))
        return -1;
    return io_reader_of(path)->info(path, out, err, errlen);
}

const char *tbrf_io_field_object(const char *path, const tbrf_io_layout *L)
{
    const io_reader_ops *r = io_reader_of(path);
    return L && L->split ? r->field_split : r->field;
}

/* ------------------------------------------------------------- values */

int tbrf_io_read_field(const char *path, int64_t n[3], double **values, char *err, size_t errlen)
{
    return io_reader_of(path)->read_field(path, n, values, err, errlen);
}

int tbrf_io_field_shape(const char *path, int64_t n[3], char *err, size_t errlen)
{
    return io_reader_of(path)->field_shape(path, n, err, errlen);
}

int tbrf_io_read_slice(const char *path, int axis, int64_t index, int64_t *w, int64_t *h,
                       double **values, char *err, size_t errlen)
{
    return io_reader_of(path)->read_slice(path, axis, index, w, h, values, err, errlen);
}

int tbrf_io_read_values(const char *path, int64_t *n, double **values, char *err, size_t errlen)
{
    return io_reader_of(path)->values(path, n, values, err, errlen);
}

int tbrf_io_read_vector(const char *path, int *ncomp, int64_t *npos, double **values, char *err,
                        size_t errlen)
{
    return io_reader_of(path)->vector(path, ncomp, npos, values, err, errlen);
}

int tbrf_io_grid_layout(const char *path, tbrf_io_layout *L, char *err, size_t errlen)
{
    if (unclaimed(path, "grid", err, errlen))
        return -1;
    return io_reader_of(path)->grid_layout(path, L, err, errlen);
}

int tbrf_io_read_grid_part(const char *path, const tbrf_io_layout *L, int64_t frame, int axis,
                           int64_t index, int comp, double **values, char *err, size_t errlen)
{
    return io_reader_of(path)->grid_part(path, L, frame, axis, index, comp, values, err, errlen);
}

int tbrf_io_read_times(const char *path, int64_t *nt, double **t, char *err, size_t errlen)
{
    return io_reader_of(path)->times(path, nt, t, err, errlen);
}

int tbrf_io_dataset_units(const char *path, const char *name, char *buf, size_t len)
{
    return io_reader_of(path)->units(path, name, buf, len);
}

/* -------------------------------------------- generic parts of a reader */

int io_generic_field_shape(const io_reader_ops *r, const char *path, int64_t n[3], char *err,
                           size_t errlen)
{
    tbrf_io_layout L;
    if (!n) {
        io_setf(err, errlen, "tbrf_io_field_shape: NULL argument");
        return -1;
    }
    if (r->grid_layout(path, &L, err, errlen))
        return -1;
    memcpy(n, L.n, sizeof L.n);
    return 0;
}

/* The layout of a scalar single field (what read_field and read_slice
 * take), or -1 with err naming what path holds instead. */
static int scalar_layout(const io_reader_ops *r, const char *path, tbrf_io_layout *L, char *err,
                         size_t errlen)
{
    if (r->grid_layout(path, L, err, errlen))
        return -1;
    if (L->ncomp != 1 || L->nt > 0) {
        io_setf(err, errlen, "%s holds a %s, not a scalar field", path,
                L->nt > 0 ? "series" : "vector field");
        return -1;
    }
    return 0;
}

int io_generic_read_field(const io_reader_ops *r, const char *path, int64_t n[3],
                          double **values, char *err, size_t errlen)
{
    tbrf_io_layout L;
    if (!n || !values) {
        io_setf(err, errlen, "tbrf_io_read_field: NULL argument");
        return -1;
    }
    *values = NULL;
    if (scalar_layout(r, path, &L, err, errlen) ||
        r->grid_part(path, &L, 0, -1, 0, 0, values, err, errlen))
        return -1;
    memcpy(n, L.n, sizeof L.n);
    return 0;
}

int io_generic_read_slice(const io_reader_ops *r, const char *path, int axis, int64_t index,
                          int64_t *w, int64_t *h, double **values, char *err, size_t errlen)
{
    tbrf_io_layout L;
    if (!w || !h || !values || axis < 0 || axis > 2) {
        io_setf(err, errlen, "tbrf_io_read_slice: bad arguments");
        return -1;
    }
    *values = NULL;
    if (scalar_layout(r, path, &L, err, errlen))
        return -1;
    if (index < 0 || index >= L.n[axis]) {
        io_setf(err, errlen, "%s: index %lld outside 0..%lld along %c", path, (long long)index,
                (long long)L.n[axis] - 1, "xyz"[axis]);
        return -1;
    }
    /* a 2D grid's one plane across z is the grid */
    if (r->grid_part(path, &L, 0, axis == 2 && L.dim == 2 ? -1 : axis, index, 0, values, err,
                     errlen))
        return -1;
    *w = L.n[axis == 0 ? 1 : 0];
    *h = L.n[axis == 2 ? 1 : 2];
    return 0;
}
