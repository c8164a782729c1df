/* meta.c — a file's generating parameters, both ways: io_meta_attrs
 * writes them (for HDF5 and netCDF alike, through a sink) and
 * tbrf_io_read_meta reads them back, attribute for attribute, so that
 * what `tbrf regenerate` uses is exactly what `tbrf generate` recorded.
 * The two sit side by side to be changed together; test_cli_io's round
 * trip checks every recorded field. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io_internal.h"
#include "io/tbrf_io.h"

/* What tbrf_io_read_meta allocated; the meta's pointers point here (or
 * anywhere the caller repointed them), tbrf_io_meta_free releases it. */
typedef struct meta_store {
    char *str[16]; /* every string attribute read has a slot */
    int nstr;
    double *k, *p;
} meta_store;

/* An enumerated option and the word that records it. */
typedef struct io_name {
    int value;
    const char *name;
} io_name;

static const io_name LINE_METHODS[] = {{TBRF_LINES_SPECTRAL, "spectral"},
                                       {TBRF_LINES_CIRCULANT, "circulant"}};
static const io_name METHODS[] = {{TBRF_METHOD_TB, "tb"}, {TBRF_METHOD_FFT, "fft"},
                                  {TBRF_METHOD_NUFFT, "nufft"}};
static const io_name PRECISIONS[] = {{TBRF_DOUBLE, "double"}, {TBRF_FLOAT, "float"}};
#define NNAMES(t) ((int)(sizeof(t) / sizeof(t)[0]))

static const char *name_of(const io_name *t, int n, int value)
{
    for (int i = 0; i < n; i++)
        if (t[i].value == value)
            return t[i].name;
    return "unknown";
}

/* The value recorded as `name`, or -1. */
static int value_of(const io_name *t, int n, const char *name)
{
    for (int i = 0; name && i < n; i++)
        if (strcmp(t[i].name, name) == 0)
            return t[i].value;
    return -1;
}

static int backend_of(const char *name)
{
    for (int b = TBRF_BACKEND_CPU; name && b <= TBRF_BACKEND_AUTO; b++)
        if (tbrf_backend_name(b) && strcmp(name, tbrf_backend_name(b)) == 0)
            return b;
    return -1;
}

_Static_assert(1 << TBRF_IO_P_INDEX == TBRF_PARAM_INDEX && 1 << TBRF_IO_P_KMIN == TBRF_PARAM_KMIN &&
                   1 << TBRF_IO_P_KMAX == TBRF_PARAM_KMAX && 1 << TBRF_IO_P_NU == TBRF_PARAM_NU &&
                   1 << TBRF_IO_P_LENGTH == TBRF_PARAM_LENGTH &&
                   1 << TBRF_IO_P_ALPHA == TBRF_PARAM_ALPHA,
               "tbrf_io.h's parameter numbers are TBRF_PARAM_*'s bits");

/* The attribute of the model parameter numbered i, model_<name>, into
 * attr: 1, or 0 for the tabulated spectrum (its own dataset), or -1 past
 * the library's last parameter. */
static int param_attr(int i, char *attr, size_t size)
{
    const char *name = i < TBRF_IO_NPARAM ? tbrf_model_param_name(i) : NULL;
    if (!name)
        return -1;
    snprintf(attr, size, "model_%s", name);
    return (1u << i) != TBRF_PARAM_TABLE;
}

void tbrf_io_meta_init(tbrf_io_meta *m)
{
    if (!m)
        return;
    memset(m, 0, sizeof *m);
    for (int i = 0; i < TBRF_IO_NPARAM; i++)
        m->param[i] = NAN;
    m->variance = m->amplitude = NAN;
    m->resolution = NAN;
    m->by_variance = 1;
    tbrf_default_opts(&m->opts);
    /* A file records a number of lines (regenerate needs one): a run that
     * draws none, or fixes them later, records the points' default as
     * every earlier version did (the plan's default is 0, "by geometry"). */
    m->opts.lines = TBRF_DEFAULT_LINES_MIN;
    m->method_used = -1;
    for (int c = 0; c < 3; c++) {
        m->lo[c] = m->hi[c] = NAN;
        m->origin[c] = m->spacing[c] = NAN;
        m->box_origin[c] = m->box_length[c] = NAN;
    }
    m->ncomp = 1;
    m->zeta = m->accuracy = NAN;
    m->lognormal_sigma2 = m->lognormal_lost = m->lognormal_shift = NAN;
    for (int c = 0; c < 3; c++)
        m->anis[c] = m->angles[c] = NAN;
}

void tbrf_io_meta_free(tbrf_io_meta *m)
{
    if (!m || !m->storage)
        return;
    meta_store *s = m->storage;
    for (int i = 0; i < s->nstr; i++)
        free(s->str[i]);
    free(s->k);
    free(s->p);
    free(s);
    tbrf_io_meta_init(m);
}

/* ------------------------------------------------------------- writing */

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

static int model_attrs(const io_attr_sink *s, const tbrf_io_meta *m)
{
    int e = 0;
    /* Model: the description for humans, every number separately for
     * programs that regenerate the field. */
    e |= s->str(s->ctx, "model", m->model);
    e |= s->str(s->ctx, "model_kind", m->model_kind);
    char attr[48];
    for (int i = 0, r; (r = param_attr(i, attr, sizeof attr)) >= 0; i++)
        if (r)
            e |= f64(s, attr, m->param[i]);
    e |= s->str(s->ctx, "normalization", m->by_variance ? "variance" : "amplitude");
    if (m->by_variance)
        e |= f64(s, "variance", m->variance);
    else
        e |= f64(s, "amplitude", m->amplitude);
    e |= s->str(s->ctx, "model_table_file", m->table_file);
    e |= f64v(s, "model_anis", m->anis, 3);
    e |= f64v(s, "model_angles", m->angles, 3);
    return e;
}

static int option_attrs(const io_attr_sink *s, const tbrf_io_meta *m)
{
    int e = 0;
    const char *backend = tbrf_backend_name(m->info.backend);
    const char *requested = tbrf_backend_name(m->opts.backend);
    /* Options that change the mathematics. */
    e |= i64(s, "dim", m->dim);
    e |= i64(s, "lines", m->opts.lines);
    e |= i64(s, "oversampling", m->opts.oversampling);
    e |= s->str(s->ctx, "line_method", name_of(LINE_METHODS, NNAMES(LINE_METHODS),
                                               m->opts.line_method));
    /* The method that ran when known (never "auto"), so that regenerate
     * does not depend on how much memory the next machine has. */
    int meth = m->method_used >= 0 ? m->method_used : m->opts.method;
    e |= s->str(s->ctx, "method", meth == TBRF_METHOD_FFT ? "fft" : meth == TBRF_METHOD_NUFFT ? "nufft" : "tb");
    e |= i64(s, "periodic", m->opts.periodic);
    e |= i64(s, "max_padding", m->opts.max_padding);
    e |= i64(s, "line_length_factor", m->opts.line_length_factor);
    e |= s->u64(s->ctx, "seed", m->seed);
    e |= s->u64(s->ctx, "realization", m->realization);
    e |= s->str(s->ctx, "precision", m->opts.precision == TBRF_FLOAT ? "float" : "double");
    e |= s->str(s->ctx, "backend", backend ? backend : "unknown");
    e |= s->str(s->ctx, "backend_requested", requested ? requested : "unknown");
    return e;
}

/* Vector values, the periodic box, the NUFFT's accuracy, the method by
 * name: written only where they apply, so a scalar field
 * without a box has none of them, as files before them. */
static int vector_attrs(const io_attr_sink *s, const tbrf_io_meta *m)
{
    const int d = m->dim;
    int e = 0;
    if (m->ncomp > 1) {
        e |= i64(s, "components", m->ncomp);
        e |= s->str(s->ctx, "vector_kind", m->vector_kind);
        e |= f64(s, "vector_zeta", m->zeta);
    }
    if (m->box) {
        e |= f64v(s, "box_origin", m->box_origin, d);
        e |= f64v(s, "box_length", m->box_length, d);
        e |= s->i64v(s->ctx, "box_modes", m->box_n, d);
    }
    e |= f64(s, "nufft_accuracy", m->accuracy);
    e |= s->str(s->ctx, "method_ran", m->method_name);
    return e;
}

/* A lognormal density: only where it applies, so the files
 * of Gaussian fields are as before. */
static int lognormal_attrs(const io_attr_sink *s, const tbrf_io_meta *m)
{
    if (!m->lognormal)
        return 0;
    int e = s->str(s->ctx, "lognormal",
                   m->lognormal == TBRF_IO_LOGNORMAL_DENSITY ? "density" : "gaussian");
    e |= f64(s, "lognormal_sigma2_lnrho", m->lognormal_sigma2);
    e |= f64(s, "lognormal_clipped", m->lognormal_lost);
    if (!isnan(m->lognormal_shift))
        e |= f64(s, "lognormal_shift_variance", m->lognormal_shift);
    return e;
}

int io_meta_attrs(const io_attr_sink *s, const tbrf_io_meta *m)
{
    const int d = m->dim;
    int e = 0;
    e |= s->str(s->ctx, "tbrf_version", tbrf_version());
    e |= s->str(s->ctx, "command", m->command);
    e |= model_attrs(s, m);
    e |= option_attrs(s, m);
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
    e |= vector_attrs(s, m);
    e |= lognormal_attrs(s, m);
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

/* ------------------------------------------------------------- reading */

/* A reading in progress: the file, where strings go, and the first
 * problem met (reading goes on; the first message wins). */
typedef struct meta_in {
    tbrf_io_file *f;
    meta_store *store;
    const char *path;
    char *err;
    size_t errlen;
    int bad;
} meta_in;

static void in_fail(meta_in *in, const char *what, const char *name)
{
    if (!in->bad)
        io_setf(in->err, in->errlen, "%s: %s%s%s", in->path, what, name ? " " : "",
                name ? name : "");
    in->bad = 1;
}

/* An optional string (NULL if absent); `need` makes it required. */
static const char *in_str(meta_in *in, const char *name, int need)
{
    char *s = NULL;
    int rc = io_attr_strdup(in->f, name, &s);
    if (rc < 0 || (rc == 0 && need)) {
        in_fail(in, rc < 0 ? "unreadable attribute" : "missing attribute", name);
        return NULL;
    }
    if (!s)
        return NULL;
    if (in->store->nstr == (int)(sizeof in->store->str / sizeof *in->store->str)) {
        free(s);
        in_fail(in, "too many string attributes at", name);
        return NULL;
    }
    in->store->str[in->store->nstr++] = s;
    return s;
}

/* count doubles (left NaN if absent and not needed). */
static void in_f64v(meta_in *in, const char *name, double *v, int count, int need)
{
    double t[3];
    int rc = tbrf_io_attr_f64(in->f, name, t, 3);
    if (rc == 0 && !need)
        return;
    if (rc != count) {
        in_fail(in, rc == 0 ? "missing attribute" : "unexpected type or size of attribute", name);
        return;
    }
    memcpy(v, t, (size_t)count * sizeof *v);
}

/* An integer in [lo, hi]; *v is untouched if absent and not needed. */
static void in_i64(meta_in *in, const char *name, int64_t lo, int64_t hi, int64_t *v, int need)
{
    int64_t t;
    int rc = tbrf_io_attr_i64(in->f, name, &t, 1);
    if (rc == 0 && !need)
        return;
    if (rc != 1 || t < lo || t > hi) {
        in_fail(in, rc == 0 ? "missing attribute" : "unexpected value of attribute", name);
        return;
    }
    *v = t;
}

static int32_t in_i32(meta_in *in, const char *name, int64_t lo, int32_t dflt, int need)
{
    int64_t v = dflt;
    in_i64(in, name, lo, INT32_MAX, &v, need);
    return (int32_t)v;
}

/* A recorded word of names[]; dflt if absent and not needed. */
static int in_choice(meta_in *in, const char *name, const io_name *t, int n, int dflt, int need)
{
    const char *s = in_str(in, name, need);
    if (!s)
        return dflt;
    int v = value_of(t, n, s);
    if (v < 0)
        in_fail(in, "unknown value of attribute", name);
    return v < 0 ? dflt : v;
}

static void read_model(meta_in *in, tbrf_io_meta *m)
{
    m->model = in_str(in, "model", 0);
    m->model_kind = in_str(in, "model_kind", 1);
    char attr[48];
    for (int i = 0, r; (r = param_attr(i, attr, sizeof attr)) >= 0; i++)
        if (r)
            in_f64v(in, attr, &m->param[i], 1, 0);
    const char *norm = in_str(in, "normalization", 0);
    m->by_variance = !(norm && strcmp(norm, "amplitude") == 0);
    if (m->by_variance)
        in_f64v(in, "variance", &m->variance, 1, 1);
    else
        in_f64v(in, "amplitude", &m->amplitude, 1, 1);
    m->table_file = in_str(in, "model_table_file", 0);
    in_f64v(in, "model_anis", m->anis, 3, 0);
    in_f64v(in, "model_angles", m->angles, 3, 0);
    if (in->bad || !m->model_kind || strcmp(m->model_kind, "table") != 0)
        return;
    if (tbrf_io_read_table(in->f, &m->table_n, &in->store->k, &in->store->p)) {
        in_fail(in, "a table model but no readable /model_table (it must be (n, 2) floating-point "
                    "numbers, 2 <= n <= 2^22, stored in the file)", NULL);
        return;
    }
    m->table_k = in->store->k;
    m->table_p = in->store->p;
}

static void read_options(meta_in *in, tbrf_io_meta *m)
{
    int64_t dim = 0;
    in_i64(in, "dim", 2, 3, &dim, 1);
    m->dim = (int)dim;
    tbrf_opts *o = &m->opts;
    o->lines = in_i32(in, "lines", 1, o->lines, 1);
    o->oversampling = in_i32(in, "oversampling", 1, o->oversampling, 1);
    o->line_method = in_choice(in, "line_method", LINE_METHODS, NNAMES(LINE_METHODS),
                               o->line_method, 1);
    /* Files from before the FFT method record neither method nor
     * periodic: they ran turning bands. */
    o->method = in_choice(in, "method", METHODS, NNAMES(METHODS), TBRF_METHOD_TB, 0);
    m->method_used = o->method;
    o->periodic = in_i32(in, "periodic", 0, 0, 0);
    o->max_padding = in_i32(in, "max_padding", 0, o->max_padding, 1);
    /* files from before 0.2.0 do not record it: 1 */
    o->line_length_factor = in_i32(in, "line_length_factor", 1, 1, 0);
    /* Unsigned 64-bit: a negative value is refused, not read as 0. */
    int rs = tbrf_io_attr_u64(in->f, "seed", &m->seed);
    if (rs != 1)
        in_fail(in, rs == 0 ? "missing attribute" : "unexpected type or value (negative?) of attribute",
                "seed");
    rs = tbrf_io_attr_u64(in->f, "realization", &m->realization);
    if (rs != 1)
        in_fail(in, rs == 0 ? "missing attribute"
                            : "unexpected type or value (negative?) of attribute", "realization");
    o->precision = in_choice(in, "precision", PRECISIONS, NNAMES(PRECISIONS), o->precision, 1);
    /* "unknown" (what the writer records for a backend it cannot name)
     * reads back as -1 for the one that ran, the default for the one
     * asked for. */
    m->info.backend = backend_of(in_str(in, "backend", 0));
    int requested = backend_of(in_str(in, "backend_requested", 0));
    if (requested >= 0)
        o->backend = requested;
}

/* What a file does not record gets what `generate` gives it: the axes a
 * 2D grid lacks are one cell of spacing 1 at 0, points have no grid
 * (zeros) and a 2D domain is 0 along z. */
static void read_geometry(meta_in *in, tbrf_io_meta *m)
{
    const int d = m->dim;
    for (int c = 0; c < 3; c++) {
        m->lo[c] = m->hi[c] = m->origin[c] = m->spacing[c] = 0.0;
        m->n[c] = 0;
    }
    in_f64v(in, "domain_lo", m->lo, d, 0);
    in_f64v(in, "domain_hi", m->hi, d, 0);
    in_f64v(in, "resolution", &m->resolution, 1, 1);
    /* netCDF files name it tbrf_geometry (netcdf.c), older ones geometry. */
    char probe[16];
    const char *gname = tbrf_io_attr_str(in->f, "tbrf_geometry", probe, sizeof probe) != 0
                            ? "tbrf_geometry" : "geometry";
    const char *geometry = in_str(in, gname, 1);
    m->is_grid = geometry && strcmp(geometry, "grid") == 0;
    if (geometry && !m->is_grid && strcmp(geometry, "points") != 0)
        in_fail(in, "unknown value of attribute", gname);
    if (m->is_grid) {
        for (int c = d; c < 3; c++) {
            m->spacing[c] = 1.0;
            m->n[c] = 1;
        }
        in_f64v(in, "grid_origin", m->origin, d, 1);
        in_f64v(in, "grid_spacing", m->spacing, d, 1);
        int64_t t[3];
        if (tbrf_io_attr_i64(in->f, "grid_counts", t, 3) != d)
            in_fail(in, "missing or unreadable attribute", "grid_counts");
        else
            memcpy(m->n, t, (size_t)d * sizeof *t);
    } else {
        in_i64(in, "npoints", 1, INT64_MAX, &m->npoints, 0);
        m->points_file = in_str(in, "points_file", 0);
    }
}

static void read_plan_info(meta_in *in, tbrf_io_meta *m)
{
    tbrf_plan_info *i = &m->info;
    i->dim = m->dim;
    i->lines = m->opts.lines;
    /* 0 for the FFT method, which synthesises no lines */
    in_i64(in, "line_samples", 0, INT64_MAX, &i->line_samples, 0);
    in_f64v(in, "line_spacing", &i->line_spacing, 1, 0);
    in_f64v(in, "line_length", &i->line_length, 1, 0);
    in_f64v(in, "model_variance", &i->variance, 1, 0);
    in_f64v(in, "variance_resolved", &i->variance_resolved, 1, 0);
    in_f64v(in, "amplitude_used", &i->amplitude, 1, 0);
    i->padding = in_i32(in, "padding", 0, 0, 0);
}

/* Files before 0.3.0 have none of these: a scalar field, no box. */
static void read_vector(meta_in *in, tbrf_io_meta *m)
{
    const int d = m->dim;
    int64_t nc = 1;
    in_i64(in, "components", 1, 3, &nc, 0);
    if (nc != 1 && nc != d)
        in_fail(in, "components must be 1 or the dimension, not so in attribute", "components");
    m->ncomp = (int)nc;
    if (m->ncomp > 1) {
        m->vector_kind = in_str(in, "vector_kind", 0);
        in_f64v(in, "vector_zeta", &m->zeta, 1, 0);
    }
    double probe[3];
    m->box = tbrf_io_attr_f64(in->f, "box_origin", probe, 3) != 0;
    if (m->box) {
        in_f64v(in, "box_origin", m->box_origin, d, 1);
        in_f64v(in, "box_length", m->box_length, d, 1);
        int64_t t[3];
        if (tbrf_io_attr_i64(in->f, "box_modes", t, 3) != d)
            in_fail(in, "missing or unreadable attribute", "box_modes");
        else
            memcpy(m->box_n, t, (size_t)d * sizeof *t);
    }
    in_f64v(in, "nufft_accuracy", &m->accuracy, 1, 0);
    m->method_name = in_str(in, "method_ran", 0);
}

/* Older files, and Gaussian fields, have none: lognormal 0. */
static void read_lognormal(meta_in *in, tbrf_io_meta *m)
{
    const char *kind = in_str(in, "lognormal", 0);
    if (!kind)
        return;
    if (strcmp(kind, "density") == 0)
        m->lognormal = TBRF_IO_LOGNORMAL_DENSITY;
    else if (strcmp(kind, "gaussian") == 0)
        m->lognormal = TBRF_IO_LOGNORMAL_GAUSSIAN;
    else
        in_fail(in, "must be density or gaussian, not so in attribute", "lognormal");
    in_f64v(in, "lognormal_sigma2_lnrho", &m->lognormal_sigma2, 1, 0);
    in_f64v(in, "lognormal_clipped", &m->lognormal_lost, 1, 0);
    in_f64v(in, "lognormal_shift_variance", &m->lognormal_shift, 1, 0);
}

int tbrf_io_read_meta(const char *path, tbrf_io_meta *meta, char *err, size_t errlen)
{
    if (!meta) {
        io_setf(err, errlen, "no metadata to fill");
        return -1;
    }
    tbrf_io_meta_init(meta);
    tbrf_io_file *f = tbrf_io_open(path, err, errlen);
    if (!f)
        return -1;
    meta_in in = {f, calloc(1, sizeof(meta_store)), path, err, errlen, 0};
    if (!in.store) {
        tbrf_io_file_close(f);
        io_setf(err, errlen, "out of memory");
        return -1;
    }
    meta->storage = in.store;
    /* Without these two it is not a file of tbrf generate at all, which
     * deserves its own message. */
    char probe[16];
    int pk = tbrf_io_attr_str(f, "model_kind", probe, sizeof probe);
    const char *gname = "tbrf_geometry";
    int pg = tbrf_io_attr_str(f, gname, probe, sizeof probe);
    if (pg == 0) {
        gname = "geometry";
        pg = tbrf_io_attr_str(f, gname, probe, sizeof probe);
    }
    if (pk < 0 || pg < 0) {
        io_setf(err, errlen, "%s: attribute %s is not one string (an array, another type or "
                             "longer than %d bytes)", path, pk < 0 ? "model_kind" : gname,
                TBRF_IO_MAX_STRING);
        in.bad = 1;
    } else if (pk == 0 || pg == 0) {
        io_setf(err, errlen, "%s was not written by tbrf generate (no model_kind/geometry "
                             "attributes)", path);
        in.bad = 1;
    }
    if (!in.bad) {
        meta->command = in_str(&in, "command", 0);
        read_model(&in, meta);
        read_options(&in, meta);
    }
    if (!in.bad)
        read_geometry(&in, meta);
    if (!in.bad)
        read_plan_info(&in, meta);
    if (!in.bad)
        read_vector(&in, meta);
    if (!in.bad)
        read_lognormal(&in, meta);
    tbrf_io_file_close(f);
    if (in.bad) {
        tbrf_io_meta_free(meta);
        return -1;
    }
    return 0;
}
