/* model.c — the model object: its parameters by name, making a model of
 * a kind from them, amplitude and variance, band cuts and anisotropy, the
 * description, and the queries (spectrum, covariance, line spectrum and
 * covariance, correlation scale) that dispatch through the kinds table
 * (model_kinds.c). Tables and user spectra are in model_table.c, the
 * numerical defaults in model_quad.c.
 *
 * Conventions (doc/design.md, "Conventions"; doc/method.md):
 * C(r) = ∫ d^dk/(2π)^d P(k) e^{ik·h};
 * sigma^2 = (1/2π^2)∫k^2 P dk (3D), (1/2π)∫k P dk (2D). Line spectrum
 * P1(κ) = κ^2 P(κ)/(2π) (3D), |κ| P(|κ|)/2 (2D), with
 * C1(s) = ∫ dκ/(2π) P1(κ) e^{iκs}. Library code: no printing, no global
 * mutable state. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model_kind.h"

#define PI TBRFI_PI

/* ------------------------------------------------------------ helpers */

static int dim_ok(int dim) { return dim == 2 || dim == 3; }

static int usable(const tbrf_model *m) { return m != NULL && m->status == TBRF_OK; }

static int tbrfi_model_is_covariance_kind(const tbrf_model *m);

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

tbrfi_numstr tbrfi_num(double v)
{
    tbrfi_numstr n;
    fmt_num(n.s, sizeof n.s, v);
    return n;
}

/* The parameters' names by number (enum model_param): parameter i is the
 * bit 1 << i of TBRF_PARAM_*. "table" is no number (the rows). */
static const char *const PARAMS[NPARAM] = {
    [PAR_INDEX] = "index", [PAR_KMIN] = "kmin", [PAR_KMAX] = "kmax", [PAR_LENGTH] = "length",
    [PAR_NU] = "nu",       [PAR_TABLE] = "table", [PAR_ALPHA] = "alpha"};

static const char *kind_name(int kind)
{
    const struct kind_row *row = tbrfi_kind_row(kind);
    return row ? row->name : "unknown";
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

/* The kind's name and the parameters it takes, in the order of their
 * numbers (a table names its file and rows instead); a band cut of a
 * model without a range of its own is named as such. */
static void describe_fixed(tbrf_model *m, const char *table_file)
{
    char *d = m->description;
    const size_t n = sizeof m->description;
    const struct kind_row *row = tbrfi_kind_row(m->kind);
    if (!row) {
        snprintf(d, n, "unknown");
    } else if (m->kind == MODEL_TABLE) {
        if (table_file)
            snprintf(d, n, "table file=%.400s rows=%zu", table_file, m->n);
        else
            snprintf(d, n, "table rows=%zu", m->n);
    } else {
        snprintf(d, n, "%s", row->name);
        for (int i = 0; i < NPARAM; i++) {
            const int edge = i == PAR_KMIN || i == PAR_KMAX;
            const double v = i == PAR_KMIN ? m->kmin : i == PAR_KMAX ? m->kmax : m->par[i];
            size_t len = strlen(d);
            if ((row->takes & (1 << i)) && i != PAR_TABLE && (!edge || row->range))
                snprintf(d + len, n - len, " %s=%s", PARAMS[i], NUM(v));
        }
    }
    if (m->band && row && !row->range) {
        size_t len = strlen(d);
        snprintf(d + len, n - len, " band=[%s, %s]", NUM(m->kmin), NUM(m->kmax));
    }
    describe_amplitude(m);
}

tbrf_model *tbrfi_model_new(int kind)
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

int tbrfi_model_fail(tbrf_model *m, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tbrfi_failv(&m->msg, status, fmt, ap);
    va_end(ap);
    m->status = status;
    snprintf(m->description, sizeof m->description, "%s (invalid)", kind_name(m->kind));
    return status;
}

int tbrfi_model_finish(tbrf_model *m, tbrf_model **out, const char *table_file)
{
    if (m->status == TBRF_OK) {
        const struct kind_row *row = tbrfi_kind_row(m->kind);
        if (row && row->cov_kind && !row->spectrum && row->covariance)
            tbrfi_quad_prepare(m);
        describe_fixed(m, table_file);
    }
    *out = m;
    return m->status;
}

int tbrfi_model_check_range(tbrf_model *m, double kmin, double kmax)
{
    const char *who = kind_name(m->kind);
    if (!(isfinite(kmin) && kmin >= 0.0))
        return tbrfi_model_fail(m, TBRF_ERR_INVALID, "%s: kmin=%s must be finite and >= 0", who,
                                NUM(kmin));
    if (!isfinite(kmax))
        return tbrfi_model_fail(m, TBRF_ERR_INVALID, "%s: kmax=%s must be finite", who, NUM(kmax));
    if (!(kmax > kmin))
        return tbrfi_model_fail(m, TBRF_ERR_INVALID, "%s: kmax=%s must be greater than kmin=%s",
                                who, NUM(kmax), NUM(kmin));
    return TBRF_OK;
}

/* ------------------------------------------------- models by parameters */

/* The listed kinds (those the table names to callers: every one but the
 * callback, which needs a function) in table order. */
static int listed_kind(int i)
{
    for (int kind = 0; kind < tbrfi_kind_count(); kind++)
        if (tbrfi_kind_row(kind)->listed && i-- == 0)
            return kind;
    return -1;
}

static int kind_by_name(const char *name)
{
    for (int kind = 0; name && kind < tbrfi_kind_count(); kind++)
        if (tbrfi_kind_row(kind)->listed && strcmp(name, tbrfi_kind_row(kind)->name) == 0)
            return kind;
    return -1;
}

const char *tbrf_model_kind_name(int i)
{
    const int kind = listed_kind(i);
    return kind < 0 ? NULL : tbrfi_kind_row(kind)->name;
}

int tbrf_model_kind_params(const char *kind, int *takes, int *needs)
{
    if (!kind || !takes || !needs)
        return TBRF_ERR_NULL;
    const int k = kind_by_name(kind);
    if (k < 0)
        return TBRF_ERR_INVALID;
    *takes = tbrfi_kind_row(k)->takes;
    *needs = tbrfi_kind_row(k)->needs;
    return TBRF_OK;
}

const char *tbrf_model_kind_summary(const char *kind)
{
    const int k = kind_by_name(kind);
    return k < 0 ? NULL : tbrfi_kind_row(k)->summary;
}

const char *tbrf_model_param_name(int i)
{
    return i >= 0 && i < NPARAM ? PARAMS[i] : NULL;
}

/* Checks the given (non-NaN) parameters against what the kind takes and
 * needs; a kmin not given is 0 for a kind with a range of its own.
 * Returns the status (recorded in m). */
static int check_params(tbrf_model *m, const struct kind_row *row, double par[NPARAM])
{
    for (int i = 0; i < NPARAM; i++) {
        const int bit = 1 << i; /* TBRF_PARAM_* follow the parameters' numbers */
        if (!isnan(par[i]) && !(row->takes & bit))
            return tbrfi_model_fail(m, TBRF_ERR_INVALID, "%s: takes no %s parameter", row->name,
                                    PARAMS[i]);
        if (isnan(par[i]) && (row->needs & bit))
            return tbrfi_model_fail(m, TBRF_ERR_INVALID, "%s: needs the %s parameter", row->name,
                                    PARAMS[i]);
    }
    if (isnan(par[PAR_KMIN]) && row->range)
        par[PAR_KMIN] = 0.0;
    return TBRF_OK;
}

/* A refused model of the kind k (-1: unknown) with its message. */
static int refuse_make(const char *kind, int k, const char *fmt, const char *arg,
                       tbrf_model **model)
{
    tbrf_model *m = tbrfi_model_new(k);
    if (!(*model = m))
        return TBRF_ERR_NO_MEMORY;
    tbrfi_model_fail(m, kind ? TBRF_ERR_INVALID : TBRF_ERR_NULL, fmt, arg);
    return tbrfi_model_finish(m, model, NULL);
}

/* tbrf_model_make and tbrf_model_make_params: the kind's row checks and
 * makes the model from its parameters by number; the kmin/kmax of a kind
 * without a range of its own are a band cut. */
static int make_by_number(const char *kind, double par[NPARAM], tbrf_model **model)
{
    const int k = kind_by_name(kind);
    if (!kind)
        return refuse_make(kind, -1, "make: the kind is NULL%s", "", model);
    if (k < 0)
        return refuse_make(kind, -1, "make: unknown kind '%.100s'", kind, model);
    const struct kind_row *row = tbrfi_kind_row(k);
    if (!row->make)
        return refuse_make(kind, k, "%s: made from its rows (tbrf_model_table) or its file "
                           "(tbrf_model_table_file)", row->name, model);
    const double kmin = par[PAR_KMIN], kmax = par[PAR_KMAX];
    tbrf_model *m = tbrfi_model_new(k);
    if (!(*model = m))
        return TBRF_ERR_NO_MEMORY;
    if (check_params(m, row, par) != TBRF_OK)
        return tbrfi_model_finish(m, model, NULL);
    free(m);
    int st = row->make(k, par, model);
    if (st != TBRF_OK || row->range || (isnan(kmin) && isnan(kmax)))
        return st;
    st = tbrf_model_set_band(*model, isnan(kmin) ? 0.0 : kmin, isnan(kmax) ? INFINITY : kmax);
    if (st != TBRF_OK) {
        (*model)->status = st;
        snprintf((*model)->description, sizeof (*model)->description, "%s (invalid)", row->name);
    }
    return st;
}

int tbrf_model_make(const char *kind, double index, double kmin, double kmax, double length,
                    double nu, tbrf_model **model)
{
    if (!model)
        return TBRF_ERR_NULL;
    double par[NPARAM];
    for (int i = 0; i < NPARAM; i++)
        par[i] = NAN;
    par[PAR_INDEX] = index;
    par[PAR_KMIN] = kmin;
    par[PAR_KMAX] = kmax;
    par[PAR_LENGTH] = length;
    par[PAR_NU] = nu;
    return make_by_number(kind, par, model);
}

/* The parameter's number, or -1 for a name that is none ("table"
 * included: rows are no number). */
static int param_number(const char *name)
{
    for (int i = 0; name && i < NPARAM; i++)
        if (i != PAR_TABLE && strcmp(name, PARAMS[i]) == 0)
            return i;
    return -1;
}

/* "index, kmin, ..." (the numeric parameters) for messages. */
static void param_list(char *buf, size_t size)
{
    buf[0] = '\0';
    for (int i = 0; i < NPARAM; i++)
        if (i != PAR_TABLE)
            snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", buf[0] ? ", " : "", PARAMS[i]);
}

int tbrf_model_make_params(const char *kind, int n, const char *const *names,
                           const double *values, tbrf_model **model)
{
    if (!model)
        return TBRF_ERR_NULL;
    if (n > 0 && (!names || !values))
        return refuse_make(NULL, -1, "make_params: the %s array is NULL",
                           !names ? "names" : "values", model);
    double par[NPARAM];
    for (int i = 0; i < NPARAM; i++)
        par[i] = NAN;
    char list[128];
    for (int j = 0; j < n; j++) {
        const int i = param_number(names[j]);
        if (i < 0) {
            param_list(list, sizeof list);
            char what[300];
            snprintf(what, sizeof what, "'%.100s' (the parameters are %s; a table is made from "
                     "its rows)", names[j] ? names[j] : "(null)", list);
            return refuse_make(kind ? kind : "", kind_by_name(kind),
                               "make_params: unknown parameter %s", what, model);
        }
        if (!isnan(par[i]))
            return refuse_make(kind ? kind : "", kind_by_name(kind),
                               "make_params: the parameter %s is given twice", PARAMS[i], model);
        par[i] = values[j];
    }
    return make_by_number(kind, par, model);
}

double tbrf_model_tail_slope(const tbrf_model *model, int dim)
{
    if (!usable(model) || !dim_ok(dim))
        return NAN;
    const struct kind_row *row = tbrfi_kind_row(model->kind);
    return row->tail_slope ? row->tail_slope(model, dim) : NAN;
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

/* ----------------------------------------------- amplitude, band, shape */

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
    const double c = tbrfi_variance_factor(dim);
    const struct kind_row *row = tbrfi_kind_row(m->kind);
    if (row->range)
        return NAN; /* computed from kmin/kmax when asked */
    if (!row->cov_kind) /* a table: its moment over the band */
        return c * tbrfi_kind_line_integral(m, dim, m->kmin, m->kmax);
    /* with no upper cut, 1 less the part below kmin: a finite interval
     * (the Matern tail's pieces would overflow k^(d-1) near 1e154) */
    return isfinite(m->kmax) ? c * tbrfi_kind_line_integral(m, dim, m->kmin, m->kmax)
                             : 1.0 - c * tbrfi_kind_line_integral(m, dim, 0.0, m->kmin);
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
    if (!tbrfi_kind_row(model->kind)->range && !(model->band_var[0] > 0.0 && model->band_var[1] > 0.0)) {
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
    return m && tbrfi_kind_row(m->kind) && tbrfi_kind_row(m->kind)->cov_kind;
}

int tbrfi_model_is_covariance(const tbrf_model *m)
{
    return tbrfi_model_is_covariance_kind(m) && !m->band;
}

int tbrfi_model_has_line_covariance(const tbrf_model *m)
{
    return tbrfi_model_is_covariance(m) && tbrfi_kind_row(m->kind)->line_covariance;
}

void tbrfi_model_line_covariance_kinds(char *buf, size_t size)
{
    if (size == 0)
        return;
    buf[0] = '\0';
    for (int k = 0; k < tbrfi_kind_count(); k++) {
        const struct kind_row *row = tbrfi_kind_row(k);
        if (row->listed && row->cov_kind && row->line_covariance)
            snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", buf[0] ? ", " : "", row->name);
    }
}

/* ----------------------------------------------------- shape spectra */

double tbrfi_kind_spectrum(const tbrf_model *m, int dim, double k)
{
    const struct kind_row *row = tbrfi_kind_row(m->kind);
    if (row->spectrum)
        return row->spectrum(m, dim, k);
    return row->cov_kind && row->covariance ? tbrfi_quad_spectrum_from_covariance(m, dim, k) : NAN;
}

double tbrfi_kind_line_integral(const tbrf_model *m, int dim, double a, double b)
{
    const struct kind_row *row = tbrfi_kind_row(m->kind);
    return row->line_integral ? row->line_integral(m, dim, a, b)
                              : tbrfi_quad_line_integral(m, dim, a, b);
}

/* P0 for a usable model and a valid dim; k >= 0. */
static double shape_spectrum(const tbrf_model *m, int dim, double k)
{
    if (m->band && !(k >= m->kmin && k <= m->kmax))
        return 0.0;
    return tbrfi_kind_spectrum(m, dim, k);
}

double tbrfi_model_shape_spectrum(const tbrf_model *m, int dim, double k)
{
    if (!usable(m) || !dim_ok(dim) || !(k >= 0.0))
        return NAN;
    return shape_spectrum(m, dim, k);
}

/* ------------------------------------------------------------ variance */

double tbrfi_variance_factor(int dim)
{
    return dim == 3 ? 1.0 / (2.0 * PI * PI) : 1.0 / (2.0 * PI);
}

double tbrfi_model_shape_variance(const tbrf_model *m, int dim)
{
    if (!usable(m) || !dim_ok(dim))
        return NAN;
    if (tbrfi_model_is_covariance_kind(m))
        /* P0 is the spectrum of the unit-variance covariance; a band keeps
         * part of it (cached by tbrf_model_set_band) */
        return m->band ? m->band_var[dim - 2] : 1.0;
    const struct kind_row *row = tbrfi_kind_row(m->kind);
    if (row->variance)
        return row->variance(m, dim);
    return tbrfi_variance_factor(dim) * tbrfi_kind_line_integral(m, dim, m->kmin, m->kmax);
}

double tbrfi_model_amplitude(const tbrf_model *m, int dim)
{
    if (!usable(m) || !dim_ok(dim))
        return NAN;
    if (!m->by_variance) {
        /* A variance by general quadrature (a callback's) costs an
         * integration: not checked here, so that a plan can freeze A (copy
         * + set_amplitude) and make the per-mode calls cheap. The others
         * are checked in O(1) or O(n). */
        const struct kind_row *row = tbrfi_kind_row(m->kind);
        if (!row->cov_kind && !row->variance && !row->line_integral)
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

double tbrf_model_covariance(const tbrf_model *model, int dim, double r)
{
    if (!usable(model) || !dim_ok(dim) || isnan(r))
        return NAN;
    r = fabs(r);
    double a = tbrfi_model_amplitude(model, dim);
    if (isnan(a))
        return NAN;
    const struct kind_row *row = tbrfi_kind_row(model->kind);
    if (tbrfi_model_is_covariance(model))
        return row->covariance ? a * row->covariance(model, r) : NAN;
    if (r == 0.0)
        return tbrf_model_variance(model, dim);
    if (isinf(r))
        return 0.0;
    return a * tbrfi_quad_hankel_covariance(model, dim, r);
}

double tbrfi_model_line_covariance3(const tbrf_model *m, double s)
{
    if (!tbrfi_model_has_line_covariance(m) || !usable(m) || isnan(s))
        return NAN;
    const double a = tbrfi_model_amplitude(m, 3);
    return tbrfi_kind_row(m->kind)->line_covariance(m, a, s);
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
    const struct kind_row *row = tbrfi_kind_row(m->kind);
    if (row->line_spectrum) /* the band cut first: a kind's own range is its own */
        return m->band && !(k >= m->kmin && k <= m->kmax) ? 0.0 : row->line_spectrum(m, dim, a, k);
    const double p = shape_spectrum(m, dim, k);
    return a * (dim == 3 ? k * k * p / (2.0 * PI) : 0.5 * k * p);
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
    if (m->band) { /* a kind's own range is clipped by its line integral */
        a = a > m->kmin ? a : m->kmin;
        b = b < m->kmax ? b : m->kmax;
        if (!(b > a))
            return 0.0;
    }
    return amp * c * tbrfi_kind_line_integral(m, dim, a, b);
}

double tbrfi_model_correlation_scale(const tbrf_model *m)
{
    if (!usable(m))
        return NAN;
    double own = 0.0, kmin, kmax;
    const struct kind_row *row = tbrfi_kind_row(m->kind);
    if (row->cov_kind && row->correlation_scale)
        own = row->correlation_scale(m);
    tbrfi_model_support(m, &kmin, &kmax);
    const double cut = kmin > 0.0 ? 2.0 * PI / kmin : 0.0; /* a low cut rings at 2 pi / kmin */
    return own > cut ? own : cut;
}
