/* model_table.c — the user spectra: tabulated models (rows or a text
 * file, log-log interpolation, exact moments per segment) and the
 * callback spectrum. Their rows of the kinds table are in
 * model_kinds.c. */
#define _POSIX_C_SOURCE 200809L /* fileno, fstat */

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/model_kind.h"

static int usable(const tbrf_model *m) { return m != NULL && m->status == TBRF_OK; }

/* ------------------------------------------------- table mathematics */

/* Table segment i (k[i] <= k <= k[i+1]): log-log slope, or NaN where an
 * end value is zero (linear interpolation there). */
static double table_slope(const tbrf_model *m, size_t i)
{
    if (m->p[i] > 0.0 && m->p[i + 1] > 0.0)
        return log(m->p[i + 1] / m->p[i]) / log(m->k[i + 1] / m->k[i]);
    return NAN;
}

/* The segment i with k[i] <= k < k[i+1] (k inside [k0, k_{n-1}]); the last
 * segment for k = k_{n-1}. */
static size_t table_segment(const tbrf_model *m, double k)
{
    size_t lo = 0, hi = m->n - 1; /* k[lo] <= k, and the answer is < hi */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->k[mid] <= k)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static double table_value(const tbrf_model *m, double k)
{
    if (!(k >= m->k[0] && k <= m->k[m->n - 1]))
        return 0.0;
    size_t i = table_segment(m, k);
    if (k == m->k[i])
        return m->p[i];
    if (k == m->k[i + 1])
        return m->p[i + 1];
    double s = table_slope(m, i);
    if (isnan(s))
        return m->p[i] + (m->p[i + 1] - m->p[i]) * (k - m->k[i]) / (m->k[i + 1] - m->k[i]);
    return m->p[i] * pow(k / m->k[i], s);
}

/* k^(d-1) P0 of the band (1) and parabola (1 - u^2) models inside

 * law (log-log) or a polynomial of degree q + 1 <= 3 (linear segments,
 * where 2-point Gauss-Legendre is exact). */
static double table_moment(const tbrf_model *m, size_t i, int q, double a, double b)
{
    if (!(b > a))
        return 0.0;
    const double k0 = m->k[i], p0 = m->p[i], s = table_slope(m, i);
    if (isnan(s)) {
        const double g = (m->p[i + 1] - p0) / (m->k[i + 1] - k0);
        const double c = 0.5 * (a + b), h = 0.5 * (b - a), x = h / sqrt(3.0);
        const double k1 = c - x, k2 = c + x;
        const double f1 = pow(k1, q) * (p0 + g * (k1 - k0)), f2 = pow(k2, q) * (p0 + g * (k2 - k0));
        return h * (f1 + f2);
    }
    /* p0 (k/k0)^s k^q = p0 (a/k0)^s a^q (k/a)^(s+q) */
    return p0 * pow(a / k0, s) * pow(a, q + 1) *
           tbrfi_expm1_over(s + q + 1.0, log1p((b - a) / a));
}

/* ∫_a^b k^q P0(k) dk over the whole table, clipped to its range. */
double tbrfi_table_integral(const tbrf_model *m, int q, double a, double b)
{
    if (a < m->k[0])
        a = m->k[0];
    if (b > m->k[m->n - 1])
        b = m->k[m->n - 1];
    if (!(b > a))
        return 0.0;
    double sum = 0.0;
    for (size_t i = table_segment(m, a); i + 1 < m->n && m->k[i] < b; i++) {
        double lo = a > m->k[i] ? a : m->k[i];
        double hi = b < m->k[i + 1] ? b : m->k[i + 1];
        sum += table_moment(m, i, q, lo, hi);
    }
    return sum;
}

double tbrfi_table_spectrum(const tbrf_model *m, int dim, double k)
{
    (void)dim;
    return table_value(m, k);
}

double tbrfi_table_line_integral(const tbrf_model *m, int dim, double a, double b)
{
    return tbrfi_table_integral(m, dim - 1, a, b);
}

/* cached by adopt_table, or by set_band */
double tbrfi_table_variance(const tbrf_model *m, int dim)
{
    return m->band ? m->band_var[dim - 2] : m->cache[dim - 2];
}

const double *tbrfi_table_knots(const tbrf_model *m, size_t *n)
{
    *n = m->n;
    return m->k;
}

double tbrfi_callback_spectrum(const tbrf_model *m, int dim, double k)
{
    return (k >= m->kmin && k <= m->kmax) ? m->fn(k, dim, m->user) : 0.0;
}

/* ------------------------------------------------------------- tables */

/* Checks the rows of a table; `line` (file line numbers) may be NULL, in
 * which case rows are named by array index. */
static int check_table(tbrf_model *m, size_t n, const double *k, const double *p,
                       const char *file, const size_t *line)
{
    char where[480];
    for (size_t i = 0; i < n; i++) {
        if (file)
            snprintf(where, sizeof where, "%.400s:%zu: ", file, line[i]);
        else
            snprintf(where, sizeof where, "table: row %zu: ", i);
        if (!isfinite(k[i]))
            return tbrfi_model_fail(m, TBRF_ERR_TABLE, "%sk=%s is not finite", where, NUM(k[i]));
        if (!(k[i] > 0.0))
            return tbrfi_model_fail(m, TBRF_ERR_TABLE, "%sk=%s is not positive", where, NUM(k[i]));
        if (!isfinite(p[i]))
            return tbrfi_model_fail(m, TBRF_ERR_TABLE, "%sP=%s is not finite", where, NUM(p[i]));
        if (p[i] < 0.0)
            return tbrfi_model_fail(m, TBRF_ERR_TABLE, "%sP=%s is negative", where, NUM(p[i]));
        if (i > 0 && !(k[i] > k[i - 1]))
            return tbrfi_model_fail(m, TBRF_ERR_TABLE, "%sk=%s is not greater than the previous k=%s", where,
                        NUM(k[i]), NUM(k[i - 1]));
    }
    return TBRF_OK;
}

/* Takes ownership of k and p (malloc'ed, n rows) into m and validates. */
static void adopt_table(tbrf_model *m, size_t n, double *k, double *p, const char *file,
                        const size_t *line)
{
    m->n = n;
    m->k = k;
    m->p = p;
    if (check_table(m, n, k, p, file, line) != TBRF_OK)
        return;
    if (n < 2) {
        if (file)
            tbrfi_model_fail(m, TBRF_ERR_TABLE, "%.400s: %s; a table needs at least 2 rows", file,
                 n == 0 ? "no data rows" : "only 1 data row");
        else
            tbrfi_model_fail(m, TBRF_ERR_TABLE, "table: n=%zu rows; a table needs at least 2", n);
        return;
    }
    m->kmin = k[0];
    m->kmax = k[n - 1];
    /* The table is immutable: its shape variances (2D, 3D) are computed
     * once into the kind's cache, so that tbrfi_model_amplitude stays O(1)
     * in the per-mode calls. */
    m->cache[1] = tbrfi_variance_factor(3) * tbrfi_table_integral(m, 2, k[0], k[n - 1]);
    m->cache[0] = tbrfi_variance_factor(2) * tbrfi_table_integral(m, 1, k[0], k[n - 1]);
}

int tbrf_model_table(size_t n, const double *k, const double *p, tbrf_model **model)
{
    if (!model)
        return TBRF_ERR_NULL;
    tbrf_model *m = tbrfi_model_new(MODEL_TABLE);
    if (!(*model = m))
        return TBRF_ERR_NO_MEMORY;
    if (!k || !p) {
        tbrfi_model_fail(m, TBRF_ERR_NULL, "table: the %s array is NULL", !k ? "k" : "P");
        return tbrfi_model_finish(m, model, NULL);
    }
    if (n < 2) {
        tbrfi_model_fail(m, TBRF_ERR_TABLE, "table: n=%zu rows; a table needs at least 2", n);
        return tbrfi_model_finish(m, model, NULL);
    }
    if (n > SIZE_MAX / sizeof(double)) {
        tbrfi_model_fail(m, TBRF_ERR_SIZE, "table: n=%zu rows do not fit in memory", n);
        return tbrfi_model_finish(m, model, NULL);
    }
    double *kc = malloc(n * sizeof *kc), *pc = malloc(n * sizeof *pc);
    if (!kc || !pc) {
        free(kc);
        free(pc);
        free(m);
        *model = NULL;
        return TBRF_ERR_NO_MEMORY;
    }
    memcpy(kc, k, n * sizeof *kc);
    memcpy(pc, p, n * sizeof *pc);
    adopt_table(m, n, kc, pc, NULL, NULL);
    return tbrfi_model_finish(m, model, NULL);
}

/* Limits of a table text file (include/tbrf.h, tbrf_model_table_file):
 * what is read from a file is bounded before it is allocated. The row
 * limit is tbrf_io's TBRF_IO_MAX_TABLE_ROWS, so that every table the
 * parser takes is recorded in a file and read back. */
#define TABLE_MAX_LINE ((size_t)1 << 20)
/* The bytes a table file may have: 2^22 rows of two 17-digit numbers
 * take 200 MB; a larger file (its size known before parsing, a pipe's
 * counted) is no table, however it is made of comments or blank lines. */
#define TABLE_MAX_BYTES ((double)(1 << 28))
#define TABLE_MAX_ROWS ((size_t)1 << 22)
#define TABLE_MAX_LINES ((size_t)1 << 26)

/* Reads one line of up to TABLE_MAX_LINE bytes into *buf (grown as
 * needed). Returns the length, or -1 at end of file with nothing read,
 * -2 on no memory, -3 for a line too long, -4 for a NUL byte. */
static long read_line(FILE *f, char **buf, size_t *cap)
{
    size_t len = 0;
    int c;
    while ((c = fgetc(f)) != EOF) {
        if (c == '\0')
            return -4;
        if (len + 1 >= *cap) {
            if (*cap >= TABLE_MAX_LINE)
                return -3;
            size_t ncap = *cap ? 2 * *cap : 256;
            char *nb = realloc(*buf, ncap);
            if (!nb)
                return -2;
            *buf = nb;
            *cap = ncap;
        }
        if (c == '\n')
            break;
        (*buf)[len++] = (char)c;
    }
    if (c == EOF && len == 0)
        return -1;
    if (*cap == 0) { /* empty last line: make sure there is a buffer */
        *buf = malloc(1);
        if (!*buf)
            return -2;
        *cap = 1;
    }
    (*buf)[len] = '\0';
    return (long)len;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The rows read so far from a table file, with their line numbers. */
typedef struct rows {
    double *k, *p;
    size_t *line;
    size_t n, cap;
} rows;

/* Room for one more row: 0, or -1 on no memory. */
static int rows_grow(rows *r)
{
    if (r->n < r->cap)
        return 0;
    size_t nc = r->cap ? 2 * r->cap : 64;
    double *nk = realloc(r->k, nc * sizeof *nk);
    if (nk)
        r->k = nk;
    double *np = realloc(r->p, nc * sizeof *np);
    if (np)
        r->p = np;
    size_t *nl = realloc(r->line, nc * sizeof *nl);
    if (nl)
        r->line = nl;
    if (!nk || !np || !nl)
        return -1;
    r->cap = nc;
    return 0;
}

/* Splits buf (a comment already cut off) into at most 3 whitespace
 * separated tokens; returns their number. */
static int split_tokens(char *buf, char *tok[3])
{
    int ntok = 0;
    for (char *s = buf; *s && ntok < 3;) {
        while (is_space(*s))
            s++;
        if (!*s)
            break;
        tok[ntok++] = s;
        while (*s && !is_space(*s))
            s++;
        if (*s)
            *s++ = '\0';
    }
    return ntok;
}

/* Parses one line of a table file into v[0] = k, v[1] = P. Returns 1 for
 * a row, 0 for a blank or comment line, -1 after recording the failure
 * in m. */
static int parse_row(tbrf_model *m, const char *path, size_t lineno, char *buf, double v[2])
{
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = '\0';
    char *tok[3];
    const int ntok = split_tokens(buf, tok);
    if (ntok == 0)
        return 0;
    if (ntok != 2) {
        tbrfi_model_fail(m, TBRF_ERR_TABLE, "%.400s:%zu: expected two columns \"k P\", found %s", path,
             lineno, ntok == 1 ? "one" : "more than two");
        return -1;
    }
    for (int t = 0; t < 2; t++) {
        char *end;
        v[t] = strtod(tok[t], &end);
        if (end == tok[t] || *end != '\0') {
            /* The token as printable text: a file's bytes must not reach a
             * terminal raw (control characters as '?'). */
            char shown[41];
            size_t sl = 0;
            for (const char *c = tok[t]; *c && sl < 40; c++)
                shown[sl++] = ((unsigned char)*c < 0x20 || *c == 0x7f) ? '?' : *c;
            shown[sl] = '\0';
            tbrfi_model_fail(m, TBRF_ERR_TABLE, "%.400s:%zu: \"%s\" is not a number", path, lineno, shown);
            return -1;
        }
    }
    return 1;
}

/* Reads the rows of an open table file into r. Returns 0, 1 after a
 * failure recorded in m, or -1 on no memory. */
static int read_rows(tbrf_model *m, const char *path, FILE *f, rows *r)
{
    char *buf = NULL;
    size_t cap = 0, lineno = 0;
    int rc = 0;
    long len;
    double bytes = 0.0;
    while ((len = read_line(f, &buf, &cap)) >= 0 || len <= -3) {
        lineno++;
        bytes += len > 0 ? (double)len + 1.0 : 1.0;
        if (bytes > TABLE_MAX_BYTES) {
            tbrfi_model_fail(m, TBRF_ERR_SIZE, "%.400s:%zu: more than 256 MiB read: not a spectrum table "
                             "(at most 2^22 rows)", path, lineno);
            rc = 1;
            break;
        }
        if (len <= -3 || lineno > TABLE_MAX_LINES) {
            tbrfi_model_fail(m, len == -4 ? TBRF_ERR_FILE : TBRF_ERR_SIZE,
                 len == -4    ? "%.400s:%zu: not a text line (a NUL byte: binary data?)"
                 : len == -3  ? "%.400s:%zu: line longer than 1 MiB"
                              : "%.400s:%zu: more than 2^26 lines",
                 path, lineno);
            rc = 1;
            break;
        }
        double v[2];
        const int row = parse_row(m, path, lineno, buf, v);
        if (row < 0) {
            rc = 1;
            break;
        }
        if (row == 0)
            continue;
        if (r->n == TABLE_MAX_ROWS) {
            tbrfi_model_fail(m, TBRF_ERR_SIZE, "%.400s:%zu: more than 2^22 rows", path, lineno);
            rc = 1;
            break;
        }
        if (rows_grow(r) != 0) {
            rc = -1;
            break;
        }
        r->k[r->n] = v[0];
        r->p[r->n] = v[1];
        r->line[r->n++] = lineno;
    }
    if (len == -2)
        rc = -1;
    if (rc == 0 && ferror(f)) {
        tbrfi_model_fail(m, TBRF_ERR_FILE, "%.400s: read error%s", path,
             errno == EISDIR ? " (is a directory)" : "");
        rc = 1;
    }
    free(buf);
    return rc;
}

int tbrf_model_table_file(const char *path, tbrf_model **model)
{
    if (!model)
        return TBRF_ERR_NULL;
    tbrf_model *m = tbrfi_model_new(MODEL_TABLE);
    if (!(*model = m))
        return TBRF_ERR_NO_MEMORY;
    if (!path) {
        tbrfi_model_fail(m, TBRF_ERR_NULL, "table: the file path is NULL");
        return tbrfi_model_finish(m, model, NULL);
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        int e = errno;
        tbrfi_model_fail(m, TBRF_ERR_FILE, "%.400s: cannot open for reading (%s)", path,
             e == ENOENT ? "no such file or directory"
             : e == EACCES ? "permission denied"
             : e == EISDIR ? "is a directory"
                           : "system error");
        return tbrfi_model_finish(m, model, NULL);
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && (S_ISDIR(st.st_mode) || (S_ISREG(st.st_mode) &&
                                                             (double)st.st_size > TABLE_MAX_BYTES))) {
        tbrfi_model_fail(m, S_ISDIR(st.st_mode) ? TBRF_ERR_FILE : TBRF_ERR_SIZE,
                         S_ISDIR(st.st_mode) ? "%.400s is a folder, not a spectrum table"
                                             : "%.400s is %.4g MiB, more than the 256 MiB of a spectrum "
                                               "table (at most 2^22 rows): not read",
                         path, (double)st.st_size / 1048576.0);
        fclose(f);
        return tbrfi_model_finish(m, model, NULL);
    }
    rows r = {0};
    const int rc = read_rows(m, path, f, &r);
    fclose(f);
    if (rc != 0) {
        free(r.k);
        free(r.p);
        free(r.line);
        if (rc > 0)
            return tbrfi_model_finish(m, model, NULL);
        free(m);
        *model = NULL;
        return TBRF_ERR_NO_MEMORY;
    }
    adopt_table(m, r.n, r.k, r.p, path, r.line);
    free(r.line);
    return tbrfi_model_finish(m, model, path);
}

int tbrf_model_table_data(const tbrf_model *model, size_t *n, double *k, double *p)
{
    if (!model || !n)
        return TBRF_ERR_NULL;
    if (!usable(model) || model->kind != MODEL_TABLE)
        return TBRF_ERR_INVALID;
    size_t room = *n;
    *n = model->n;
    if (room < model->n)
        return TBRF_OK; /* the caller asked for the count, or has too little room */
    if (!k || !p)
        return TBRF_ERR_NULL;
    memcpy(k, model->k, model->n * sizeof *k);
    memcpy(p, model->p, model->n * sizeof *p);
    return TBRF_OK;
}

int tbrf_model_callback(tbrf_spectrum_fn fn, void *user, double kmin, double kmax,
                        tbrf_model **model)
{
    if (!model)
        return TBRF_ERR_NULL;
    tbrf_model *m = tbrfi_model_new(MODEL_CALLBACK);
    if (!(*model = m))
        return TBRF_ERR_NO_MEMORY;
    m->fn = fn;
    m->user = user;
    m->kmin = kmin;
    m->kmax = kmax;
    if (!fn)
        tbrfi_model_fail(m, TBRF_ERR_NULL, "callback: the spectrum function is NULL");
    else
        tbrfi_model_check_range(m, kmin, kmax);
    return tbrfi_model_finish(m, model, NULL);
}
