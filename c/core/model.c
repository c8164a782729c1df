/* model.c — covariance and spectral models: constructors, spectra,
 * variances, covariances and the turning-bands line spectrum.
 *
 * Conventions (doc/design.md, "Conventions"; doc/method.md):
 * C(r) = ∫ d^dk/(2π)^d P(k) e^{ik·h};
 * sigma^2 = (1/2π^2)∫k^2 P dk (3D), (1/2π)∫k P dk (2D). Line spectrum
 * P1(κ) = κ^2 P(κ)/(2π) (3D), |κ| P(|κ|)/2 (2D), with
 * C1(s) = ∫ dκ/(2π) P1(κ) e^{iκs}. Library code: no printing, no global
 * mutable state. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* j0 from math.h */
#endif
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/special.h"

static const double PI = 3.14159265358979323846;
static const double LN2 = 0.69314718055994530942;

/* ------------------------------------------------------------ helpers */

static double variance_factor(int dim);
static double table_integral(const tbrf_model *m, int q, double a, double b);
static int tbrfi_model_is_covariance_kind(const tbrf_model *m);
static double covariance_line_integral(const tbrf_model *m, int dim, double a, double b);
static double covariance_shape(const tbrf_model *m, double r);

static int dim_ok(int dim) { return dim == 2 || dim == 3; }

static int usable(const tbrf_model *m) { return m != NULL && m->status == TBRF_OK; }

/* Shortest "%.Ng" (N = 15..17) that reads back as the same double, so
 * descriptions and messages are exact but not noisy (0.05, not
 * 0.050000000000000003). */
static void fmt_num(char *buf, size_t size, double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, v);
        if (prec == 17 || !isfinite(v) || strtod(buf, NULL) == v)
            return;
    }
}

/* A short-lived formatted number: NUM(v) inside a printf argument list. */
typedef struct numstr { char s[40]; } numstr;
static numstr num(double v)
{
    numstr n;
    fmt_num(n.s, sizeof n.s, v);
    return n;
}
#define NUM(v) (num(v).s)

/* ------------------------------------------------------- model kinds */

/* How a kind is made from the parameters of tbrf_model_make: par[] holds
 * index, kmin, kmax, length, nu (kmin already 0 where it was not given). */
typedef int (*make_fn)(int kind, const double par[5], tbrf_model **model);
static int make_powerlaw(int kind, const double par[5], tbrf_model **model);
static int make_shell(int kind, const double par[5], tbrf_model **model);
static int make_covariance(int kind, const double par[5], tbrf_model **model);

enum { SLOPE_NONE, SLOPE_INDEX, SLOPE_SMOOTH, SLOPE_SHELL };

/* The one table of model kinds, indexed by enum model_kind. Everything
 * that differs between kinds but is not the mathematics of the spectrum
 * lives here: the name (the command's --model, the files' model_kind),
 * the parameters taken and needed (TBRF_PARAM_*: the command's option
 * checks, tbrf_model_make's), whether kmin/kmax are the kind's own range
 * or a band cut, whether the covariance is closed-form, the fixed Matern
 * smoothness of the covariance kinds, the spectrum's slope at high k
 * (tbrf_model_tail_slope), and the constructor by parameters. The command
 * and the Fortran module read it through tbrf_model_kind_name,
 * tbrf_model_kind_params and tbrf_model_make. */
#define PBAND (TBRF_PARAM_KMIN | TBRF_PARAM_KMAX)
static const struct kind_row {
    const char *name;
    int takes, needs; /* TBRF_PARAM_* */
    int range;        /* kmin/kmax are the kind's own range, not a band */
    int covariance;   /* closed-form covariance with a length (and nu) */
    double nu;        /* covariance kinds: the fixed nu; NaN: nu is a parameter */
    int slope;        /* SLOPE_*: the log-log slope of P far above 1/length */
    make_fn make;     /* NULL: not made by parameters (table, callback) */
} KINDS[] = {
    [MODEL_POWERLAW] = {"powerlaw", TBRF_PARAM_INDEX | PBAND, TBRF_PARAM_INDEX | TBRF_PARAM_KMAX,
                        1, 0, 0.0, SLOPE_INDEX, make_powerlaw},
    [MODEL_GAUSSIAN] = {"gaussian", TBRF_PARAM_LENGTH | PBAND, TBRF_PARAM_LENGTH, 0, 1, 0.0,
                        SLOPE_NONE, make_covariance},
    [MODEL_EXPONENTIAL] = {"exponential", TBRF_PARAM_LENGTH | PBAND, TBRF_PARAM_LENGTH, 0, 1, 0.5,
                           SLOPE_SMOOTH, make_covariance},
    [MODEL_MATERN] = {"matern", TBRF_PARAM_LENGTH | TBRF_PARAM_NU | PBAND,
                      TBRF_PARAM_LENGTH | TBRF_PARAM_NU, 0, 1, NAN, SLOPE_SMOOTH, make_covariance},
    [MODEL_VONKARMAN] = {"vonkarman", TBRF_PARAM_LENGTH | PBAND, TBRF_PARAM_LENGTH, 0, 1,
                         1.0 / 3.0, SLOPE_SMOOTH, make_covariance},
    [MODEL_TABLE] = {"table", TBRF_PARAM_TABLE | PBAND, TBRF_PARAM_TABLE, 0, 0, 0.0, SLOPE_NONE,
                     NULL},
    [MODEL_CALLBACK] = {"callback", PBAND, PBAND, 1, 0, 0.0, SLOPE_NONE, NULL},
    [MODEL_BAND] = {"band", PBAND, TBRF_PARAM_KMAX, 1, 0, 0.0, SLOPE_SHELL, make_shell},
    [MODEL_PARABOLA] = {"parabola", PBAND, TBRF_PARAM_KMAX, 1, 0, 0.0, SLOPE_NONE, make_shell},
};
#define NKINDS ((int)(sizeof KINDS / sizeof KINDS[0]))

/* The row of a kind, or NULL for a kind out of the table. */
static const struct kind_row *kind_row(int kind)
{
    return kind >= 0 && kind < NKINDS ? &KINDS[kind] : NULL;
}

static const char *kind_name(int kind)
{
    return kind_row(kind) ? KINDS[kind].name : "unknown";
}

/* Appends " variance=X" or " amplitude=X" to the description's fixed
 * part. The amplitude token is always the last space-separated word, so
 * set_variance/set_amplitude replace it without knowing the rest (a table
 * file name lives only in the description). */
static void describe_amplitude(tbrf_model *m)
{
    if (m->status != TBRF_OK)
        return;
    char *sp = strrchr(m->description, ' ');
    if (sp && (strncmp(sp, " variance=", 10) == 0 || strncmp(sp, " amplitude=", 11) == 0))
        *sp = '\0';
    /* the anisotropy sits just before the amplitude, and is redone */
    char *an = strstr(m->description, " anis=[");
    if (an)
        *an = '\0';
    size_t len = strlen(m->description);
    if (m->anis) {
        snprintf(m->description + len, sizeof m->description - len,
                 " anis=[%s, %s, %s] angles=[%s, %s, %s]", NUM(m->anis_scale[0]),
                 NUM(m->anis_scale[1]), NUM(m->anis_scale[2]), NUM(m->anis_angles[0]),
                 NUM(m->anis_angles[1]), NUM(m->anis_angles[2]));
        len = strlen(m->description);
    }
    snprintf(m->description + len, sizeof m->description - len, " %s=%s",
             m->by_variance ? "variance" : "amplitude",
             NUM(m->by_variance ? m->variance : m->amplitude));
}

/* The kind's name and the parameters it takes, in the order index, kmin,
 * kmax, length, nu (a table names its file and rows instead); a band cut
 * of a model without a range of its own is named as such. */
static void describe_fixed(tbrf_model *m, const char *table_file)
{
    char *d = m->description;
    const size_t n = sizeof m->description;
    const struct kind_row *row = kind_row(m->kind);
    if (!row) {
        snprintf(d, n, "unknown");
    } else if (m->kind == MODEL_TABLE) {
        if (table_file)
            snprintf(d, n, "table file=%.400s rows=%zu", table_file, m->n);
        else
            snprintf(d, n, "table rows=%zu", m->n);
    } else {
        static const struct { int bit; const char *name; } PAR[] = {
            {TBRF_PARAM_INDEX, "index"}, {TBRF_PARAM_KMIN, "kmin"}, {TBRF_PARAM_KMAX, "kmax"},
            {TBRF_PARAM_LENGTH, "length"}, {TBRF_PARAM_NU, "nu"}};
        const double val[] = {m->index, m->kmin, m->kmax, m->length, m->nu};
        snprintf(d, n, "%s", row->name);
        for (int i = 0; i < 5; i++) {
            const int own = PAR[i].bit & (TBRF_PARAM_KMIN | TBRF_PARAM_KMAX) ? row->range : 1;
            size_t len = strlen(d);
            if ((row->takes & PAR[i].bit) && own)
                snprintf(d + len, n - len, " %s=%s", PAR[i].name, NUM(val[i]));
        }
    }
    if (m->band && row && !row->range) {
        size_t len = strlen(d);
        snprintf(d + len, n - len, " band=[%s, %s]", NUM(m->kmin), NUM(m->kmax));
    }
    describe_amplitude(m);
}

static tbrf_model *new_model(int kind)
{
    tbrf_model *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->kind = kind;
    m->status = TBRF_OK;
    m->by_variance = 1;
    m->variance = 1.0;
    m->amplitude = 1.0;
    for (int d = 0; d < 3; d++)
        m->anis_scale[d] = 1.0;
    snprintf(m->description, sizeof m->description, "%s (invalid)", kind_name(kind));
    return m;
}

/* Records a constructor failure: status and message; the description
 * says the model is invalid. Returns the status. */
static int fail(tbrf_model *m, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tbrfi_failv(&m->msg, status, fmt, ap);
    va_end(ap);
    m->status = status;
    snprintf(m->description, sizeof m->description, "%s (invalid)", kind_name(m->kind));
    return status;
}

/* Hands the model out: sets *out and returns its status. */
static int finish(tbrf_model *m, tbrf_model **out, const char *table_file)
{
    if (m->status == TBRF_OK)
        describe_fixed(m, table_file);
    *out = m;
    return m->status;
}

static int check_length(tbrf_model *m, double length)
{
    if (!(isfinite(length) && length > 0.0))
        return fail(m, TBRF_ERR_INVALID, "%s: length=%s must be finite and > 0",
                    kind_name(m->kind), NUM(length));
    return TBRF_OK;
}

static int check_range(tbrf_model *m, double kmin, double kmax)
{
    const char *who = kind_name(m->kind);
    if (!(isfinite(kmin) && kmin >= 0.0))
        return fail(m, TBRF_ERR_INVALID, "%s: kmin=%s must be finite and >= 0", who, NUM(kmin));
    if (!isfinite(kmax))
        return fail(m, TBRF_ERR_INVALID, "%s: kmax=%s must be finite", who, NUM(kmax));
    if (!(kmax > kmin))
        return fail(m, TBRF_ERR_INVALID, "%s: kmax=%s must be greater than kmin=%s", who,
                    NUM(kmax), NUM(kmin));
    return TBRF_OK;
}

/* ------------------------------------------------------- constructors */

int tbrf_model_powerlaw(double index, double kmin, double kmax, tbrf_model **model)
{
    if (!model)
        return TBRF_ERR_NULL;
    tbrf_model *m = new_model(MODEL_POWERLAW);
    if (!(*model = m))
        return TBRF_ERR_NO_MEMORY;
    m->index = index;
    m->kmin = kmin;
    m->kmax = kmax;
    if (!isfinite(index))
        fail(m, TBRF_ERR_INVALID, "powerlaw: index=%s must be finite", NUM(index));
    else
        check_range(m, kmin, kmax);
    return finish(m, model, NULL);
}

/* The shell spectra of turbulence driving (TurbGen's "band" and
 * "parabola", Federrath et al. 2010): k^(d-1) P0 is flat, or the parabola
 * 1 - u^2 that peaks mid-band and is zero at both ends. */
static int shell_model(int kind, double kmin, double kmax, tbrf_model **model)
{
    if (!model)
        return TBRF_ERR_NULL;
    tbrf_model *m = new_model(kind);
    if (!(*model = m))
        return TBRF_ERR_NO_MEMORY;
    m->kmin = kmin;
    m->kmax = kmax;
    check_range(m, kmin, kmax);
    return finish(m, model, NULL);
}

int tbrf_model_band(double kmin, double kmax, tbrf_model **model)
{
    return shell_model(MODEL_BAND, kmin, kmax, model);
}

int tbrf_model_parabola(double kmin, double kmax, tbrf_model **model)
{
    return shell_model(MODEL_PARABOLA, kmin, kmax, model);
}

static int covariance_model(int kind, double length, double nu, tbrf_model **model)
{
    if (!model)
        return TBRF_ERR_NULL;
    tbrf_model *m = new_model(kind);
    if (!(*model = m))
        return TBRF_ERR_NO_MEMORY;
    m->length = length;
    m->nu = nu;
    if (check_length(m, length) == TBRF_OK && kind == MODEL_MATERN &&
        !(nu > 0.0 && nu <= 50.0))
        fail(m, TBRF_ERR_INVALID, "matern: nu=%s must satisfy 0 < nu <= 50", NUM(nu));
    return finish(m, model, NULL);
}

int tbrf_model_gaussian(double length, tbrf_model **model)
{
    return covariance_model(MODEL_GAUSSIAN, length, 0.0, model);
}

int tbrf_model_exponential(double length, tbrf_model **model)
{
    return covariance_model(MODEL_EXPONENTIAL, length, 0.5, model);
}

int tbrf_model_matern(double length, double nu, tbrf_model **model)
{
    return covariance_model(MODEL_MATERN, length, nu, model);
}

int tbrf_model_vonkarman(double length, tbrf_model **model)
{
    return covariance_model(MODEL_VONKARMAN, length, 1.0 / 3.0, model);
}

/* ------------------------------------------------- models by parameters */

static int make_powerlaw(int kind, const double par[5], tbrf_model **model)
{
    (void)kind;
    return tbrf_model_powerlaw(par[0], par[1], par[2], model);
}

static int make_shell(int kind, const double par[5], tbrf_model **model)
{
    return shell_model(kind, par[1], par[2], model);
}

static int make_covariance(int kind, const double par[5], tbrf_model **model)
{
    const double nu = isnan(KINDS[kind].nu) ? par[4] : KINDS[kind].nu;
    return covariance_model(kind, par[3], nu, model);
}

/* The listed kinds (those the table names to callers: every one but the
 * callback, which needs a function) in table order. */
static int listed_kind(int i)
{
    for (int kind = 0; kind < NKINDS; kind++)
        if (kind != MODEL_CALLBACK && i-- == 0)
            return kind;
    return -1;
}

static int kind_by_name(const char *name)
{
    for (int kind = 0; name && kind < NKINDS; kind++)
        if (kind != MODEL_CALLBACK && strcmp(name, KINDS[kind].name) == 0)
            return kind;
    return -1;
}

const char *tbrf_model_kind_name(int i)
{
    const int kind = listed_kind(i);
    return kind < 0 ? NULL : KINDS[kind].name;
}

int tbrf_model_kind_params(const char *kind, int *takes, int *needs)
{
    if (!kind || !takes || !needs)
        return TBRF_ERR_NULL;
    const int k = kind_by_name(kind);
    if (k < 0)
        return TBRF_ERR_INVALID;
    *takes = KINDS[k].takes;
    *needs = KINDS[k].needs;
    return TBRF_OK;
}

/* The parameters' names in the order of tbrf_model_make's arguments. */
static const char *const PARAM_NAME[5] = {"index", "kmin", "kmax", "length", "nu"};

/* Checks the given (non-NaN) parameters against what the kind takes and
 * needs; a kmin not given is 0. Returns the status (recorded in m). */
static int check_params(tbrf_model *m, const struct kind_row *row, double par[5])
{
    for (int i = 0; i < 5; i++) {
        const int bit = 1 << i; /* TBRF_PARAM_* follow the argument order */
        if (!isnan(par[i]) && !(row->takes & bit))
            return fail(m, TBRF_ERR_INVALID, "%s: takes no %s parameter", row->name,
                        PARAM_NAME[i]);
        if (isnan(par[i]) && (row->needs & bit))
            return fail(m, TBRF_ERR_INVALID, "%s: needs the %s parameter", row->name,
                        PARAM_NAME[i]);
    }
    if (isnan(par[1]) && row->range)
        par[1] = 0.0;
    return TBRF_OK;
}

int tbrf_model_make(const char *kind, double index, double kmin, double kmax, double length,
                    double nu, tbrf_model **model)
{
    if (!model)
        return TBRF_ERR_NULL;
    const int k = kind_by_name(kind);
    double par[5] = {index, kmin, kmax, length, nu};
    if (k < 0 || !KINDS[k].make) {
        tbrf_model *m = new_model(k < 0 ? -1 : k);
        if (!(*model = m))
            return TBRF_ERR_NO_MEMORY;
        if (!kind)
            fail(m, TBRF_ERR_NULL, "make: the kind is NULL");
        else if (k < 0)
            fail(m, TBRF_ERR_INVALID, "make: unknown kind '%.100s'", kind);
        else
            fail(m, TBRF_ERR_INVALID, "%s: made from its rows (tbrf_model_table) or its file "
                 "(tbrf_model_table_file)", KINDS[k].name);
        return finish(m, model, NULL);
    }
    tbrf_model *m = new_model(k);
    if (!(*model = m))
        return TBRF_ERR_NO_MEMORY;
    if (check_params(m, &KINDS[k], par) != TBRF_OK)
        return finish(m, model, NULL);
    free(m);
    int st = KINDS[k].make(k, par, model);
    if (st != TBRF_OK || KINDS[k].range || (isnan(kmin) && isnan(kmax)))
        return st;
    /* kmin/kmax of a kind without a range of its own are a band cut */
    st = tbrf_model_set_band(*model, isnan(kmin) ? 0.0 : kmin, isnan(kmax) ? INFINITY : kmax);
    if (st != TBRF_OK) {
        (*model)->status = st;
        snprintf((*model)->description, sizeof (*model)->description, "%s (invalid)",
                 KINDS[k].name);
    }
    return st;
}

double tbrf_model_tail_slope(const tbrf_model *model, int dim)
{
    if (!usable(model) || !dim_ok(dim))
        return NAN;
    switch (KINDS[model->kind].slope) {
    case SLOPE_INDEX: return model->index;
    case SLOPE_SMOOTH: return -(2.0 * model->nu + dim);
    case SLOPE_SHELL: return 1.0 - dim;
    default: return NAN;
    }
}

void tbrfi_model_support(const tbrf_model *m, double *kmin, double *kmax)
{
    if (tbrfi_model_is_covariance(m)) {
        *kmin = 0.0;
        *kmax = INFINITY;
    } else { /* a table's kmin/kmax are its first and last k, or its band */
        *kmin = m->kmin;
        *kmax = m->kmax;
    }
}

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
            return fail(m, TBRF_ERR_TABLE, "%sk=%s is not finite", where, NUM(k[i]));
        if (!(k[i] > 0.0))
            return fail(m, TBRF_ERR_TABLE, "%sk=%s is not positive", where, NUM(k[i]));
        if (!isfinite(p[i]))
            return fail(m, TBRF_ERR_TABLE, "%sP=%s is not finite", where, NUM(p[i]));
        if (p[i] < 0.0)
            return fail(m, TBRF_ERR_TABLE, "%sP=%s is negative", where, NUM(p[i]));
        if (i > 0 && !(k[i] > k[i - 1]))
            return fail(m, TBRF_ERR_TABLE, "%sk=%s is not greater than the previous k=%s", where,
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
            fail(m, TBRF_ERR_TABLE, "%.400s: %s; a table needs at least 2 rows", file,
                 n == 0 ? "no data rows" : "only 1 data row");
        else
            fail(m, TBRF_ERR_TABLE, "table: n=%zu rows; a table needs at least 2", n);
        return;
    }
    m->kmin = k[0];
    m->kmax = k[n - 1];
    /* The table is immutable: its shape variances are computed once and
     * kept in fields a table does not otherwise use (index: 3D, nu: 2D),
     * so that tbrfi_model_amplitude stays O(1) in the per-mode calls. */
    m->index = variance_factor(3) * table_integral(m, 2, k[0], k[n - 1]);
    m->nu = variance_factor(2) * table_integral(m, 1, k[0], k[n - 1]);
}

int tbrf_model_table(size_t n, const double *k, const double *p, tbrf_model **model)
{
    if (!model)
        return TBRF_ERR_NULL;
    tbrf_model *m = new_model(MODEL_TABLE);
    if (!(*model = m))
        return TBRF_ERR_NO_MEMORY;
    if (!k || !p) {
        fail(m, TBRF_ERR_NULL, "table: the %s array is NULL", !k ? "k" : "P");
        return finish(m, model, NULL);
    }
    if (n < 2) {
        fail(m, TBRF_ERR_TABLE, "table: n=%zu rows; a table needs at least 2", n);
        return finish(m, model, NULL);
    }
    if (n > SIZE_MAX / sizeof(double)) {
        fail(m, TBRF_ERR_SIZE, "table: n=%zu rows do not fit in memory", n);
        return finish(m, model, NULL);
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
    return finish(m, model, NULL);
}

/* Limits of a table text file (include/tbrf.h, tbrf_model_table_file):
 * what is read from a file is bounded before it is allocated. The row
 * limit is tbrf_io's TBRF_IO_MAX_TABLE_ROWS, so that every table the
 * parser takes is recorded in a file and read back. */
#define TABLE_MAX_LINE ((size_t)1 << 20)
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
        fail(m, TBRF_ERR_TABLE, "%.400s:%zu: expected two columns \"k P\", found %s", path,
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
            fail(m, TBRF_ERR_TABLE, "%.400s:%zu: \"%s\" is not a number", path, lineno, shown);
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
    while ((len = read_line(f, &buf, &cap)) >= 0 || len <= -3) {
        lineno++;
        if (len <= -3 || lineno > TABLE_MAX_LINES) {
            fail(m, len == -4 ? TBRF_ERR_FILE : TBRF_ERR_SIZE,
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
            fail(m, TBRF_ERR_SIZE, "%.400s:%zu: more than 2^22 rows", path, lineno);
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
        fail(m, TBRF_ERR_FILE, "%.400s: read error%s", path,
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
    tbrf_model *m = new_model(MODEL_TABLE);
    if (!(*model = m))
        return TBRF_ERR_NO_MEMORY;
    if (!path) {
        fail(m, TBRF_ERR_NULL, "table: the file path is NULL");
        return finish(m, model, NULL);
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        int e = errno;
        fail(m, TBRF_ERR_FILE, "%.400s: cannot open for reading (%s)", path,
             e == ENOENT ? "no such file or directory"
             : e == EACCES ? "permission denied"
             : e == EISDIR ? "is a directory"
                           : "system error");
        return finish(m, model, NULL);
    }
    rows r = {0};
    const int rc = read_rows(m, path, f, &r);
    fclose(f);
    if (rc != 0) {
        free(r.k);
        free(r.p);
        free(r.line);
        if (rc > 0)
            return finish(m, model, NULL);
        free(m);
        *model = NULL;
        return TBRF_ERR_NO_MEMORY;
    }
    adopt_table(m, r.n, r.k, r.p, path, r.line);
    free(r.line);
    return finish(m, model, path);
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
    tbrf_model *m = new_model(MODEL_CALLBACK);
    if (!(*model = m))
        return TBRF_ERR_NO_MEMORY;
    m->fn = fn;
    m->user = user;
    m->kmin = kmin;
    m->kmax = kmax;
    if (!fn)
        fail(m, TBRF_ERR_NULL, "callback: the spectrum function is NULL");
    else
        check_range(m, kmin, kmax);
    return finish(m, model, NULL);
}

int tbrf_model_set_variance(tbrf_model *model, double variance)
{
    if (!model)
        return TBRF_ERR_NULL;
    if (model->status != TBRF_OK)
        return model->status;
    if (!(isfinite(variance) && variance > 0.0)) {
        return tbrfi_fail(&model->msg, TBRF_ERR_INVALID,
                          "set_variance: variance=%s must be finite and > 0", NUM(variance));
    }
    model->by_variance = 1;
    model->variance = variance;
    describe_amplitude(model);
    return TBRF_OK;
}

int tbrf_model_set_amplitude(tbrf_model *model, double amplitude)
{
    if (!model)
        return TBRF_ERR_NULL;
    if (model->status != TBRF_OK)
        return model->status;
    if (!(isfinite(amplitude) && amplitude > 0.0)) {
        return tbrfi_fail(&model->msg, TBRF_ERR_INVALID,
                          "set_amplitude: amplitude=%s must be finite and > 0", NUM(amplitude));
    }
    model->by_variance = 0;
    model->amplitude = amplitude;
    describe_amplitude(model);
    return TBRF_OK;
}

int tbrf_model_set_anisotropy(tbrf_model *model, const double scale[3], const double angles[3])
{
    if (!model)
        return TBRF_ERR_NULL;
    if (model->status != TBRF_OK)
        return model->status;
    if (!scale || !angles)
        return tbrfi_fail(&model->msg, TBRF_ERR_NULL, "set_anisotropy: scale or angles is NULL");
    int identity = 1;
    for (int d = 0; d < 3; d++) {
        if (!(isfinite(scale[d]) && scale[d] > 0.0))
            return tbrfi_fail(&model->msg, TBRF_ERR_INVALID, "set_anisotropy: scale[%d]=%s must be "
                              "finite and > 0", d, NUM(scale[d]));
        if (!isfinite(angles[d]))
            return tbrfi_fail(&model->msg, TBRF_ERR_INVALID, "set_anisotropy: angles[%d]=%s must "
                              "be finite", d, NUM(angles[d]));
        identity &= scale[d] == 1.0 && angles[d] == 0.0;
    }
    /* the identity is no anisotropy at all: the isotropic code paths, bit
     * for bit */
    model->anis = !identity;
    for (int d = 0; d < 3; d++) {
        model->anis_scale[d] = scale[d];
        model->anis_angles[d] = angles[d];
    }
    describe_amplitude(model);
    return TBRF_OK;
}

int tbrf_model_anisotropy(const tbrf_model *model, double scale[3], double angles[3])
{
    if (!model || !scale || !angles)
        return TBRF_ERR_NULL;
    for (int d = 0; d < 3; d++) {
        scale[d] = model->anis ? model->anis_scale[d] : 1.0;
        angles[d] = model->anis ? model->anis_angles[d] : 0.0;
    }
    return TBRF_OK;
}

/* A table's description keeps its file name: the band replaces an earlier
 * one, or goes before the amplitude; the others are described afresh. */
static void describe_band(tbrf_model *m)
{
    if (m->kind != MODEL_TABLE) {
        describe_fixed(m, NULL);
        return;
    }
    char *d = m->description, *cut = strstr(d, " band=[");
    if (!cut) {
        cut = strrchr(d, ' ');
        if (!cut || (strncmp(cut, " variance=", 10) != 0 && strncmp(cut, " amplitude=", 11) != 0))
            cut = d + strlen(d);
    }
    *cut = '\0';
    size_t len = strlen(d);
    snprintf(d + len, sizeof m->description - len, " band=[%s, %s]", NUM(m->kmin), NUM(m->kmax));
    describe_amplitude(m);
}

/* The shape's variance over the support, for the cache of a band. */
static double band_variance(const tbrf_model *m, int dim)
{
    const double c = variance_factor(dim);
    if (m->kind == MODEL_TABLE)
        return c * table_integral(m, dim - 1, m->kmin, m->kmax);
    if (KINDS[m->kind].range)
        return NAN; /* computed from kmin/kmax when asked */
    /* with no upper cut, 1 less the part below kmin: a finite interval
     * (the Matern tail's pieces would overflow k^(d-1) near 1e154) */
    return isfinite(m->kmax) ? c * covariance_line_integral(m, dim, m->kmin, m->kmax)
                             : 1.0 - c * covariance_line_integral(m, dim, 0.0, m->kmin);
}

int tbrf_model_set_band(tbrf_model *model, double kmin, double kmax)
{
    if (!model)
        return TBRF_ERR_NULL;
    if (model->status != TBRF_OK)
        return model->status;
    if (!(kmin >= 0.0 && isfinite(kmin)) || isnan(kmax) || !(kmax > kmin)) {
        return tbrfi_fail(&model->msg, TBRF_ERR_INVALID,
                          "set_band: kmin=%s, kmax=%s: need 0 <= kmin < kmax (kmin finite, kmax may be "
                 "inf)", NUM(kmin), NUM(kmax));
    }
    /* Intersect with the model's own range (power law, callback, table)
     * or an earlier band; the covariance models start from [0, inf). */
    int ranged = model->band || !tbrfi_model_is_covariance_kind(model);
    double lo = ranged && model->kmin > kmin ? model->kmin : kmin;
    double hi = ranged && model->kmax < kmax ? model->kmax : kmax;
    if (!(hi > lo)) {
        return tbrfi_fail(&model->msg, TBRF_ERR_INVALID,
                          "set_band: [%s, %s] leaves no power: the model's spectrum is [%s, %s]",
                 NUM(kmin), NUM(kmax), NUM(model->kmin), NUM(model->kmax));
    }
    tbrf_model save = *model;
    model->band = 1;
    model->kmin = lo;
    model->kmax = hi;
    for (int d = 2; d <= 3; d++)
        model->band_var[d - 2] = band_variance(model, d);
    if (!KINDS[model->kind].range && !(model->band_var[0] > 0.0 && model->band_var[1] > 0.0)) {
        *model = save;
        return tbrfi_fail(&model->msg, TBRF_ERR_INVALID,
                          "set_band: [%s, %s] leaves no power of the model", NUM(kmin), NUM(kmax));
    }
    describe_band(model);
    return TBRF_OK;
}

const char *tbrf_model_describe(const tbrf_model *model)
{
    return model ? model->description : "(null model)";
}

const char *tbrf_model_message(const tbrf_model *model)
{
    return model ? tbrfi_message_text(&model->msg) : "the model is NULL";
}

int tbrf_model_status(const tbrf_model *model)
{
    return model ? model->status : TBRF_ERR_NULL;
}

void tbrf_model_destroy(tbrf_model *model)
{
    if (!model)
        return;
    free(model->k);
    free(model->p);
    free(model);
}

tbrf_model *tbrfi_model_copy(const tbrf_model *m)
{
    if (!m)
        return NULL;
    tbrf_model *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *m;
    c->k = c->p = NULL;
    if (m->n > 0 && m->k && m->p) {
        c->k = malloc(m->n * sizeof *c->k);
        c->p = malloc(m->n * sizeof *c->p);
        if (!c->k || !c->p) {
            free(c->k);
            free(c->p);
            free(c);
            return NULL;
        }
        memcpy(c->k, m->k, m->n * sizeof *c->k);
        memcpy(c->p, m->p, m->n * sizeof *c->p);
    }
    return c;
}

static int tbrfi_model_is_covariance_kind(const tbrf_model *m)
{
    return m && kind_row(m->kind) && KINDS[m->kind].covariance;
}

int tbrfi_model_is_covariance(const tbrf_model *m)
{
    return tbrfi_model_is_covariance_kind(m) && !m->band;
}

/* ----------------------------------------------------- shape spectra */

/* (2 sqrt(pi))^d Gamma(nu + d/2) / Gamma(nu) a^d: the Matern spectrum at
 * k = 0. tgamma (not lgamma, which writes the global signgam). */
static double matern_p0(const tbrf_model *m, int dim)
{
    const double twosqrtpi_a = 2.0 * sqrt(PI) * m->length;
    const double pre = dim == 3 ? twosqrtpi_a * twosqrtpi_a * twosqrtpi_a : twosqrtpi_a * twosqrtpi_a;
    return pre * (tgamma(m->nu + 0.5 * dim) / tgamma(m->nu));
}

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
 * [kmin, kmax]. */
static double shell_shape(const tbrf_model *m, double k)
{
    if (m->kind == MODEL_BAND)
        return 1.0;
    const double u = (2.0 * k - m->kmin - m->kmax) / (m->kmax - m->kmin);
    const double v = 1.0 - u * u;
    return v > 0.0 ? v : 0.0;
}

/* ∫_a^b of k^(d-1) P0 for the band and parabola models, a < b inside
 * [kmin, kmax]: b - a, or (w/2) [u - u^3/3] in u = (2k - kmin - kmax)/w. */
static double shell_integral(const tbrf_model *m, double a, double b)
{
    if (m->kind == MODEL_BAND)
        return b - a;
    const double w = m->kmax - m->kmin;
    const double ua = (2.0 * a - m->kmin - m->kmax) / w, ub = (2.0 * b - m->kmin - m->kmax) / w;
    return 0.5 * w * ((ub - ua) - (ub * ub * ub - ua * ua * ua) / 3.0);
}

/* P0 for a usable model and a valid dim; k >= 0. */
static double shape_spectrum(const tbrf_model *m, int dim, double k)
{
    if (m->band && !(k >= m->kmin && k <= m->kmax))
        return 0.0;
    switch (m->kind) {
    case MODEL_POWERLAW:
        return (k >= m->kmin && k <= m->kmax) ? pow(k, m->index) : 0.0;
    case MODEL_GAUSSIAN: {
        const double sa = sqrt(PI) * m->length, ka = k * m->length;
        return (dim == 3 ? sa * sa * sa : sa * sa) * exp(-0.25 * ka * ka);
    }
    case MODEL_EXPONENTIAL:
    case MODEL_MATERN:
    case MODEL_VONKARMAN: {
        const double ka = k * m->length;
        return matern_p0(m, dim) * exp(-(m->nu + 0.5 * dim) * log1p(ka * ka));
    }
    case MODEL_TABLE:
        return table_value(m, k);
    case MODEL_CALLBACK:
        return (k >= m->kmin && k <= m->kmax) ? m->fn(k, dim, m->user) : 0.0;
    case MODEL_BAND:
    case MODEL_PARABOLA:
        if (!(k >= m->kmin && k <= m->kmax))
            return 0.0;
        return shell_shape(m, k) / (dim == 3 ? k * k : k);
    default:
        return NAN;
    }
}

double tbrfi_model_shape_spectrum(const tbrf_model *m, int dim, double k)
{
    if (!usable(m) || !dim_ok(dim) || !(k >= 0.0))
        return NAN;
    return shape_spectrum(m, dim, k);
}

/* ----------------------------------------------- exact power integrals */

/* (expm1(e L)) / e, the limit L at e = 0. */
static double expm1_over(double e, double L)
{
    return e == 0.0 ? L : expm1(e * L) / e;
}

/* ∫_a^b k^(e-1) dk for 0 <= a <= b; +inf where it diverges at 0. */
static double power_integral(double a, double b, double e)
{
    if (!(b > a))
        return 0.0;
    if (a == 0.0)
        return e > 0.0 ? pow(b, e) / e : INFINITY;
    return pow(a, e) * expm1_over(e, log1p((b - a) / a));
}

/* ∫_a^b k^q P0(k) dk over a part [a, b] of table segment i. Exact: a power
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
           expm1_over(s + q + 1.0, log1p((b - a) / a));
}

/* ∫_a^b k^q P0(k) dk over the whole table, clipped to its range. */
static double table_integral(const tbrf_model *m, int q, double a, double b)
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

/* --------------------------------------------- numerical integration */

/* Integrand k^q P0(k) w(k r) for the callback moments and the Hankel
 * transforms. */
typedef struct kctx {
    const tbrf_model *m;
    int dim, q;
    int weight; /* 0: none, 1: sin(kr)/(kr), 2: J0(kr), 3: cos(kr) */
    double r;
} kctx;

static double kfun(double k, const void *vctx)
{
    const kctx *c = vctx;
    double v;
    if ((c->m->kind == MODEL_BAND || c->m->kind == MODEL_PARABOLA) && c->q == c->dim - 1 &&
        !c->m->band) { /* k^(d-1) P0 directly: finite at k = 0 */
        if (!(k >= c->m->kmin && k <= c->m->kmax))
            return 0.0;
        v = shell_shape(c->m, k);
    } else {
        v = shape_spectrum(c->m, c->dim, k);
        if (v == 0.0)
            return 0.0;
        v *= c->q == 1 ? k : c->q == 2 ? k * k : pow(k, c->q);
    }
    switch (c->weight) {
    case 1: {
        const double x = k * c->r;
        return x < 1e-4 ? v * (1.0 - x * x / 6.0) : v * sin(x) / x;
    }
    case 2: return v * j0(k * c->r);
    case 3: return v * cos(k * c->r);
    default: return v;
    }
}

/* ∫_x^y f given whole = GL16 on [x, y]: bisected while the two halves'
 * GL16 differ from it by more than tol (the same tol at every level, so
 * that a kink, whose error shrinks only as the width, still converges;
 * at most `depth` levels). A
 * callback's spectrum may have features (a narrow peak, BAO-like wiggles)
 * much narrower than a piece: one fixed rule per piece then missed or
 * overweighted them, and the variance that sets the amplitude came out up
 * to 35% off the sum over the lines' modes (#19 item 9: variance_resolved
 * 1.0049 sigma^2; 1.09 for a peak of width 0.03). */
static double adapt16(tbrf_qfun f, const void *ctx, double x, double y, double whole, double tol,
                      int depth)
{
    const double m = 0.5 * (x + y);
    const double l = tbrf_gl16(f, ctx, x, m), r = tbrf_gl16(f, ctx, m, y);
    if (depth == 0 || !(fabs(l + r - whole) > tol) || !(m > x && m < y))
        return l + r;
    return adapt16(f, ctx, x, m, l, tol, depth - 1) + adapt16(f, ctx, m, y, r, tol, depth - 1);
}

/* ∫_a^b f for 0 < a < b: pieces [x, min(x + min(x, wmax), b)] (ratio at
 * most 2, and no wider than wmax), 16-point Gauss-Legendre on each; for
 * the moments (wmax infinite: variances, line-spectrum bins) each piece is
 * bisected adaptively (adapt16, 16 levels at most) until it agrees with
 * its halves to 1e-14 of the sum of |pieces| (at least 1e-300); an interval narrow against a
 * (<= a/4 and <= wmax) takes one 8-point rule. */
static double integrate_up(tbrf_qfun f, const void *ctx, double a, double b, double wmax)
{
    if (!(b > a))
        return 0.0;
    if (b - a <= 0.25 * a && b - a <= wmax)
        return tbrf_gl8(f, ctx, a, b);
    if (isfinite(wmax)) { /* Hankel transforms: pieces a quarter period wide */
        double sum = 0.0, x = a;
        while (x < b) {
            double w = x < wmax ? x : wmax;
            double y = x + w;
            if (y >= b || b - y < 1e-9 * w)
                y = b;
            sum += tbrf_gl16(f, ctx, x, y);
            x = y;
        }
        return sum;
    }
    /* Ratio-2 pieces from a > 0 to b < DBL_MAX: fewer than 2100. */
    enum { MAXP = 4096 };
    double piece[MAXP], xs[MAXP + 1], scale = 0.0, sum = 0.0;
    int n = 0;
    for (double x = a; x < b && n < MAXP;) {
        double w = x < wmax ? x : wmax;
        double y = x + w;
        if (y >= b || b - y < 1e-9 * w || n == MAXP - 1)
            y = b;
        xs[n] = x;
        piece[n] = tbrf_gl16(f, ctx, x, y);
        scale += fabs(piece[n]);
        x = xs[++n] = y;
    }
    const double tol = 1e-14 * (scale > 1e-300 ? scale : 1e-300);
    for (int i = 0; i < n; i++)
        sum += adapt16(f, ctx, xs[i], xs[i + 1], piece[i], tol, 16);
    return sum;
}

/* ∫_0^b f: pieces [x/2, x] going down from b (16-point Gauss-Legendre in
 * ln k, exact-ish for power laws) until three pieces in a row add less than
 * 1e-17 of the sum, then [0, x] by plain Gauss-Legendre. +inf if the pieces
 * still matter at k = b 2^-1000 (an integrable singularity so weak that
 * the integral is better called divergent). */
static double integrate_down0(tbrf_qfun f, const void *ctx, double b)
{
    double sum = 0.0, x = b, last = 0.0;
    int small = 0;
    for (int j = 0; j < 1000; j++) {
        double y = 0.5 * x;
        if (!(y > DBL_MIN * 1e6))
            break;
        last = tbrf_gl16_log(f, ctx, y, x);
        sum += last;
        x = y;
        if (fabs(last) <= 1e-17 * fabs(sum)) {
            if (++small >= 3)
                return sum + tbrf_gl16(f, ctx, 0.0, x);
        } else {
            small = 0;
        }
    }
    if (fabs(last) > 1e-8 * fabs(sum))
        return INFINITY;
    return sum + tbrf_gl16(f, ctx, 0.0, x);
}

/* ∫_a^b k^q P0 w(kr) dk for a general (callback) integrand on [a, b] within
 * the support: log-graded near 0, pieces no wider than wmax. */
static double integrate_general(const kctx *c, double a, double b, double wmax)
{
    if (!(b > a))
        return 0.0;
    if (a > 0.0)
        return integrate_up(kfun, c, a, b, wmax);
    double split = b < wmax ? b : wmax;
    return integrate_down0(kfun, c, split) + integrate_up(kfun, c, split, b, wmax);
}

/* ------------------------------------------------------------ variance */

/* 1/(2 pi^2) in 3D, 1/(2 pi) in 2D: sigma^2 = c ∫ k^(d-1) P dk. */
static double variance_factor(int dim)
{
    return dim == 3 ? 1.0 / (2.0 * PI * PI) : 1.0 / (2.0 * PI);
}

double tbrfi_model_shape_variance(const tbrf_model *m, int dim)
{
    if (!usable(m) || !dim_ok(dim))
        return NAN;
    const double c = variance_factor(dim);
    if (tbrfi_model_is_covariance_kind(m))
        /* P0 is the spectrum of the unit-variance covariance; a band keeps
         * part of it (cached by tbrf_model_set_band: index 3D, nu 2D are
         * parameters here, so the cache is a separate pair) */
        return m->band ? m->band_var[dim - 2] : 1.0;
    switch (m->kind) {
    case MODEL_POWERLAW:
        return c * power_integral(m->kmin, m->kmax, m->index + dim);
    case MODEL_BAND:
    case MODEL_PARABOLA:
        return c * shell_integral(m, m->kmin, m->kmax);
    case MODEL_TABLE: /* cached by adopt_table, or by set_band */
        return m->band ? m->band_var[dim - 2] : dim == 3 ? m->index : m->nu;
    case MODEL_CALLBACK: {
        kctx k = {m, dim, dim - 1, 0, 0.0};
        return c * integrate_general(&k, m->kmin, m->kmax, INFINITY);
    }
    default:
        return NAN;
    }
}

double tbrfi_model_amplitude(const tbrf_model *m, int dim)
{
    if (!usable(m) || !dim_ok(dim))
        return NAN;
    if (!m->by_variance) {
        /* The callback's variance costs an integration: not checked here,
         * so that a plan can freeze A (copy + set_amplitude) and make the
         * per-mode calls cheap. The others are checked in O(1) or O(n). */
        if (m->kind == MODEL_CALLBACK)
            return m->amplitude;
        double v = tbrfi_model_shape_variance(m, dim);
        return (isfinite(v) && v > 0.0) ? m->amplitude : NAN;
    }
    double v = tbrfi_model_shape_variance(m, dim);
    if (!(isfinite(v) && v > 0.0))
        return NAN;
    return m->variance / v;
}

double tbrf_model_variance(const tbrf_model *model, int dim)
{
    const double a = tbrfi_model_amplitude(model, dim);
    if (isnan(a))
        return NAN;
    if (model->by_variance)
        return model->variance;
    const double v = a * tbrfi_model_shape_variance(model, dim);
    return isfinite(v) ? v : NAN;
}

double tbrf_model_spectrum(const tbrf_model *model, int dim, double k)
{
    if (!usable(model) || !dim_ok(dim) || !(k >= 0.0))
        return NAN;
    double a = tbrfi_model_amplitude(model, dim);
    if (isnan(a))
        return NAN;
    return a * shape_spectrum(model, dim, k);
}

/* ---------------------------------------------------------- covariance */

/* x^nu K_nu(x) 2^(1-nu) / Gamma(nu) for x > 0 (the Matern shape), and
 * with power x^(nu+1) and order nu - 1 for the line covariance. */
static double matern_term(double nu, double order, double power, double x)
{
    const double lnfac = (1.0 - nu) * LN2 - log(tgamma(nu)) + power * log(x);
    return tbrf_bessel_k_scaled(order, x, lnfac);
}

static double covariance_shape(const tbrf_model *m, double r)
{
    const double x = r / m->length;
    switch (m->kind) {
    case MODEL_GAUSSIAN: return exp(-x * x);
    case MODEL_EXPONENTIAL: return exp(-x);
    default:
        if (x == 0.0)
            return 1.0;
        return matern_term(m->nu, m->nu, m->nu, x);
    }
}

/* Hankel transform of the shape spectrum: c ∫ k^(d-1) P0(k) w(kr) dk, with
 * w = sin(kr)/(kr) (3D) or J0(kr) (2D). Pieces at most a quarter period
 * wide (capped at 2e5 pieces over the support), split at table knots. */
static double hankel_range(const tbrf_model *m, int dim, double r, double lo, double hi)
{
    kctx c = {m, dim, dim - 1, dim == 3 ? 1 : 2, r};
    double wmax = r > 0.0 ? 0.5 * PI / r : INFINITY;
    if (wmax < (hi - lo) / 2e5)
        wmax = (hi - lo) / 2e5;
    double sum = 0.0;
    if (m->kind == MODEL_TABLE) {
        for (size_t i = 0; i + 1 < m->n; i++) {
            double a = m->k[i] > lo ? m->k[i] : lo, b = m->k[i + 1] < hi ? m->k[i + 1] : hi;
            sum += integrate_general(&c, a, b, wmax);
        }
    } else {
        sum = integrate_general(&c, lo, hi, wmax);
    }
    return variance_factor(dim) * sum;
}

/* The Hankel transform over the spectrum's support. A covariance model cut
 * by a band: its spectrum is 0 in double beyond k a = 60 (Gaussian); the
 * Matern family's tail is not, so with no upper cut the transform is the
 * closed form less the part below kmin, where the interval is finite. */
static double hankel_shape(const tbrf_model *m, int dim, double r)
{
    if (!tbrfi_model_is_covariance_kind(m)) /* a table's kmin/kmax: its range or band */
        return hankel_range(m, dim, r, m->kmin, m->kmax);
    double hi = m->kmax;
    if (m->kind == MODEL_GAUSSIAN && hi > 60.0 / m->length)
        hi = 60.0 / m->length;
    if (isfinite(hi))
        return hankel_range(m, dim, r, m->kmin, hi);
    tbrf_model whole = *m; /* the spectrum below kmin, which the band zeroes */
    whole.band = 0;
    return covariance_shape(m, r) - hankel_range(&whole, dim, r, 0.0, m->kmin);
}

double tbrf_model_covariance(const tbrf_model *model, int dim, double r)
{
    if (!usable(model) || !dim_ok(dim) || isnan(r))
        return NAN;
    r = fabs(r);
    double a = tbrfi_model_amplitude(model, dim);
    if (isnan(a))
        return NAN;
    if (tbrfi_model_is_covariance(model))
        return a * covariance_shape(model, r);
    if (r == 0.0)
        return tbrf_model_variance(model, dim);
    if (isinf(r))
        return 0.0;
    return a * hankel_shape(model, dim, r);
}

double tbrfi_model_line_covariance3(const tbrf_model *m, double s)
{
    if (!tbrfi_model_is_covariance(m) || !usable(m) || isnan(s))
        return NAN;
    const double a = tbrfi_model_amplitude(m, 3);
    const double x = fabs(s) / m->length;
    switch (m->kind) {
    case MODEL_GAUSSIAN: return a * (1.0 - 2.0 * x * x) * exp(-x * x);
    case MODEL_EXPONENTIAL: return a * (1.0 - x) * exp(-x);
    default:
        if (x == 0.0)
            return a;
        if (isinf(x))
            return 0.0;
        /* d/dx [x^nu K_nu] = -x^nu K_(nu-1) */
        return a * (matern_term(m->nu, m->nu, m->nu, x) -
                    matern_term(m->nu, m->nu - 1.0, m->nu + 1.0, x));
    }
}

/* ------------------------------------------------------- line spectrum */

double tbrfi_model_line_spectrum(const tbrf_model *m, int dim, double kappa)
{
    if (!usable(m) || !dim_ok(dim) || isnan(kappa))
        return NAN;
    const double a = tbrfi_model_amplitude(m, dim);
    if (isnan(a))
        return NAN;
    const double k = fabs(kappa);
    if (m->kind == MODEL_POWERLAW) { /* k^(index+d-1) directly: finite limits at 0 */
        if (!(k >= m->kmin && k <= m->kmax))
            return 0.0;
        double v = pow(k, m->index + dim - 1);
        return a * (dim == 3 ? v / (2.0 * PI) : 0.5 * v);
    }
    if (m->kind == MODEL_BAND || m->kind == MODEL_PARABOLA) { /* finite at k = 0 */
        if (!(k >= m->kmin && k <= m->kmax))
            return 0.0;
        return a * (dim == 3 ? 1.0 / (2.0 * PI) : 0.5) * shell_shape(m, k);
    }
    const double p = shape_spectrum(m, dim, k);
    return a * (dim == 3 ? k * k * p / (2.0 * PI) : 0.5 * k * p);
}

/* The covariance spectra in u = k a, without constant factors:
 * u^(d-1) e^(-u^2/4) (Gaussian) or u^(d-1) (1 + u^2)^-s2 (Matern family,
 * s2 = nu + d/2). */
typedef struct uctx { int gauss, dim; double s2; } uctx;

static double ufun(double u, const void *vctx)
{
    const uctx *c = vctx;
    const double p = c->dim == 3 ? u * u : u;
    return c->gauss ? p * exp(-0.25 * u * u) : p * exp(-c->s2 * log1p(u * u));
}

/* ∫_a^b k^(d-1) P0(k) dk for the covariance models, by pieces in u = k a:
 * width at most `lin` below u = 1 (and 0.5 everywhere for the Gaussian,
 * whose spectrum is 0 in double beyond u = 60); above 1, ratio at most
 * e^dt. Each piece spans a few e-folds at most, so 8-point Gauss-Legendre
 * is accurate to ~1e-13. A narrow bin is one piece: 8 evaluations. */
static double covariance_line_integral(const tbrf_model *m, int dim, double a, double b)
{
    const double len = m->length;
    double ua = a * len, ub = b * len, sum = 0.0;
    if (m->kind == MODEL_GAUSSIAN) {
        const uctx c = {1, dim, 0.0};
        if (ub > 60.0)
            ub = 60.0;
        for (double u = ua; u < ub;) {
            double v = u + 0.5;
            if (v >= ub || ub - v < 1e-9)
                v = ub;
            sum += tbrf_gl8(ufun, &c, u, v);
            u = v;
        }
        /* (sqrt(pi) a)^d a^-d */
        return (dim == 3 ? PI * sqrt(PI) : PI) * sum;
    }
    const double s2 = m->nu + 0.5 * dim; /* spectrum ~ (1 + u^2)^-s2 */
    const uctx c = {0, dim, s2};
    const double lin = 1.0 / ceil(2.0 * sqrt(s2));
    const double dt = 1.5 / s2 < LN2 ? 1.5 / s2 : LN2;
    const double grow = expm1(dt);
    if (ub > 1e200)
        ub = 1e200;
    for (double u = ua; u < ub;) {
        double w = u < 1.0 ? lin : u * grow;
        double v = u + w;
        if (u < 1.0 && v > 1.0)
            v = 1.0;
        if (v >= ub || ub - v < 1e-9 * w)
            v = ub;
        sum += tbrf_gl8(ufun, &c, u, v);
        u = v;
    }
    /* matern_p0 a^-d */
    return matern_p0(m, dim) / (dim == 3 ? len * len * len : len * len) * sum;
}

double tbrfi_model_integrate_line_spectrum(const tbrf_model *m, int dim, double a, double b)
{
    if (!usable(m) || !dim_ok(dim) || !(a >= 0.0) || isnan(b))
        return NAN;
    const double amp = tbrfi_model_amplitude(m, dim);
    if (isnan(amp))
        return NAN;
    if (!(b > a))
        return 0.0;
    const double c = dim == 3 ? 1.0 / (2.0 * PI) : 0.5; /* P1 = c k^(d-1) P */
    if (m->band) { /* powerlaw and callback clip to kmin/kmax below anyway */
        a = a > m->kmin ? a : m->kmin;
        b = b < m->kmax ? b : m->kmax;
        if (!(b > a))
            return 0.0;
    }
    double lo = a, hi = b;
    switch (m->kind) {
    case MODEL_POWERLAW:
        if (lo < m->kmin)
            lo = m->kmin;
        if (hi > m->kmax)
            hi = m->kmax;
        return hi > lo ? amp * c * power_integral(lo, hi, m->index + dim) : 0.0;
    case MODEL_BAND:
    case MODEL_PARABOLA:
        if (lo < m->kmin)
            lo = m->kmin;
        if (hi > m->kmax)
            hi = m->kmax;
        return hi > lo ? amp * c * shell_integral(m, lo, hi) : 0.0;
    case MODEL_TABLE:
        return amp * c * table_integral(m, dim - 1, a, b);
    case MODEL_CALLBACK: {
        if (lo < m->kmin)
            lo = m->kmin;
        if (hi > m->kmax)
            hi = m->kmax;
        kctx k = {m, dim, dim - 1, 0, 0.0};
        return hi > lo ? amp * c * integrate_general(&k, lo, hi, INFINITY) : 0.0;
    }
    default:
        return amp * c * covariance_line_integral(m, dim, a, b);
    }
}

double tbrfi_model_correlation_scale(const tbrf_model *m)
{
    if (!usable(m))
        return NAN;
    double own = 0.0, kmin, kmax;
    if (tbrfi_model_is_covariance_kind(m))
        own = m->kind == MODEL_GAUSSIAN      ? 3.0 * m->length
              : m->kind == MODEL_EXPONENTIAL ? 8.0 * m->length
                                             : m->length * (8.0 + 2.0 * sqrt(2.0 * m->nu));
    tbrfi_model_support(m, &kmin, &kmax);
    const double cut = kmin > 0.0 ? 2.0 * PI / kmin : 0.0; /* a low cut rings at 2 pi / kmin */
    return own > cut ? own : cut;
}
