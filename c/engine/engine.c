/* engine.c — the turning-bands engine (engine.h): options, backend, frozen
 * model, domain, line sizing, the per-realization line cache and the
 * projection through the backend table. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/streams.h"
#include "engine/engine.h"
#include "methods/turning_bands/directions.h"
#include "methods/turning_bands/vector.h"

/* Hard limits on options: beyond them a run could not finish in memory or
 * in any useful time, so they are rejected up front with a message. */
#define MAX_LINES (1 << 24)
_Static_assert(MAX_LINES <= TBRF_STREAM_LINES_END, "line indices stay in their stream range");
#define MAX_OVERSAMPLING 1024
#define MAX_PADDING 16
#define MAX_LINE_LENGTH_FACTOR 1024
#define MAX_LINE_BYTES ((double)((int64_t)1 << 40))
/* opts.threads above this is refused (a typo, not a machine); below it,
 * core/parallel.h still caps the threads a call starts (tbrf.h). */
#define MAX_THREADS 1024
/* The lines of up to this many realizations are kept; the second set is
 * made only when a realization synthesised before is asked for again
 * (alternation), and when both fit the memory budget, so a loop over
 * realizations never holds more than one. */
#define LINE_SLOTS 2

struct line_slot {
    double *lines, *axis, *vlines, *amp;
    int valid;
    uint64_t realization, used, generation;
};

struct tbrfi_engine {
    tbrfi_engine_view v;
    tbrfi_message msg;
    tbrf_model *model;     /* owned; v.model points to it */
    void *backend_state;   /* from backend->init, released at destroy */
    struct line_slot lslot[LINE_SLOTS];
    uint64_t recent[4];    /* the last realizations synthesised */
    uint64_t nrecent;
    uint64_t clock;        /* of the slots' last use */
    uint64_t gen_counter;  /* the last generation handed out */
    /* the current set: a slot's, or the caller's (tbrfi_engine_use_lines) */
    const double *lines, *axis, *vlines;
    int ncomp;
    uint64_t generation;
    tbrfi_cancel cancel; /* the owner's hook (tbrfi_engine_set_cancel), polled by the projections */
};

static int fail(tbrfi_engine *e, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(tbrfi_engine *e, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tbrfi_failv(&e->msg, status, fmt, ap);
    va_end(ap);
    return status;
}

double tbrfi_engine_memory_budget(void)
{
    uint64_t b;
    return tbrf_memory_budget(&b) == TBRF_OK ? (double)b : 0.0;
}

/* The options' defaults (tbrf.h): the engine reads the options, so it fills them. */
void tbrf_default_opts(tbrf_opts *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->lines = 0; /* the first geometry's (tbrf_default_lines) */
    opts->oversampling = 4;
    opts->line_method = TBRF_LINES_SPECTRAL;
    opts->max_padding = 3;
    opts->line_length_factor = 1;
    opts->precision = TBRF_DOUBLE;
    opts->threads = 0;
    opts->backend = TBRF_BACKEND_CPU;
    opts->device = -1;
    opts->work_group = 0;
    opts->unroll = 0;
    opts->chunk = 0;
    opts->vector = TBRF_SCALAR;
    opts->zeta = 0.5;
    opts->accuracy = 0.0;
}

static int check_opts(tbrfi_engine *e, const tbrf_opts *o)
{
    if (o->lines < 0 || o->lines > MAX_LINES)
        return fail(e, TBRF_ERR_INVALID, "opts.lines = %d: must be between 1 and %d, or 0 for the "
                    "geometry's default", o->lines, MAX_LINES);
    if (o->oversampling < 1 || o->oversampling > MAX_OVERSAMPLING)
        return fail(e, TBRF_ERR_INVALID, "opts.oversampling = %d: must be between 1 and %d",
                    o->oversampling, MAX_OVERSAMPLING);
    if (o->line_method != TBRF_LINES_SPECTRAL && o->line_method != TBRF_LINES_CIRCULANT)
        return fail(e, TBRF_ERR_INVALID, "opts.line_method = %d: not a tbrf_line_method", o->line_method);
    if (o->max_padding < 0 || o->max_padding > MAX_PADDING)
        return fail(e, TBRF_ERR_INVALID, "opts.max_padding = %d: must be between 0 and %d",
                    o->max_padding, MAX_PADDING);
    if (o->line_length_factor < 1 || o->line_length_factor > MAX_LINE_LENGTH_FACTOR)
        return fail(e, TBRF_ERR_INVALID, "opts.line_length_factor = %d: must be between 1 and %d",
                    o->line_length_factor, MAX_LINE_LENGTH_FACTOR);
    if (o->precision != TBRF_DOUBLE && o->precision != TBRF_FLOAT)
        return fail(e, TBRF_ERR_INVALID, "opts.precision = %d: must be TBRF_DOUBLE or TBRF_FLOAT", o->precision);
    if (o->threads < 0 || o->threads > MAX_THREADS)
        return fail(e, TBRF_ERR_INVALID, "opts.threads = %d: must be between 0 (OpenMP default) and %d",
                    o->threads, MAX_THREADS);
    if (o->method != TBRF_METHOD_TB && o->method != TBRF_METHOD_FFT && o->method != TBRF_METHOD_AUTO)
        return fail(e, TBRF_ERR_INVALID, "opts.method = %d: must be TBRF_METHOD_TB, _FFT or _AUTO", o->method);
    if (o->periodic != 0 && o->periodic != 1)
        return fail(e, TBRF_ERR_INVALID, "opts.periodic = %d: must be 0 or 1", o->periodic);
    if (o->method == TBRF_METHOD_TB && o->periodic)
        return fail(e, TBRF_ERR_UNSUPPORTED, "opts.periodic = 1 with turning bands: a turning-bands "
                    "field is not periodic; use method FFT or AUTO");
    if (o->device < -1)
        return fail(e, TBRF_ERR_INVALID, "opts.device = %d: must be >= 0, or -1 for the first usable", o->device);
    if (o->work_group < 0 || o->work_group > 4096)
        return fail(e, TBRF_ERR_INVALID, "opts.work_group = %d: must be between 0 (tuned) and 4096", o->work_group);
    if (o->unroll < 0 || o->unroll > 64)
        return fail(e, TBRF_ERR_INVALID, "opts.unroll = %d: must be between 0 (tuned) and 64", o->unroll);
    if (o->chunk < 0)
        return fail(e, TBRF_ERR_INVALID, "opts.chunk = %lld: must be >= 0 (0 = automatic)", (long long)o->chunk);
    if (o->vector < TBRF_SCALAR || o->vector > TBRF_VECTOR_MIXED)
        return fail(e, TBRF_ERR_INVALID, "opts.vector = %d: must be TBRF_SCALAR, TBRF_VECTOR_SOLENOIDAL, "
                    "_COMPRESSIVE or _MIXED", o->vector);
    if (o->vector == TBRF_VECTOR_MIXED && !(o->zeta >= 0.0 && o->zeta <= 1.0))
        return fail(e, TBRF_ERR_INVALID, "opts.zeta = %g: a mixed vector field needs 0 <= zeta <= 1",
                    o->zeta);
    if (!(o->accuracy == 0.0 || (o->accuracy >= 1e-15 && o->accuracy <= 0.1)))
        return fail(e, TBRF_ERR_INVALID, "opts.accuracy = %g: must be 0 (default) or between 1e-15 "
                    "and 0.1", o->accuracy);
    return TBRF_OK;
}

/* Step 1: the arguments, then the options with defaults filled in. */
static int check_args(tbrfi_engine *e, const tbrf_model *model, int dim, const double lo[3],
                      const double hi[3], double resolution, const tbrf_opts *opts)
{
    if (!model)
        return fail(e, TBRF_ERR_NULL, "model is NULL");
    if (!lo || !hi)
        return fail(e, TBRF_ERR_NULL, "domain bounds lo/hi are NULL");
    if (model->status != TBRF_OK)
        return fail(e, TBRF_ERR_INVALID, "the model failed to build: %s", tbrfi_message_text(&model->msg));
    if (dim != 2 && dim != 3)
        return fail(e, TBRF_ERR_INVALID, "dim = %d: must be 2 or 3", dim);
    for (int d = 0; d < dim; d++)
        if (!isfinite(lo[d]) || !isfinite(hi[d]) || hi[d] < lo[d])
            return fail(e, TBRF_ERR_INVALID, "domain axis %d: [%g, %g] is not a finite interval", d,
                        lo[d], hi[d]);
    if (!isfinite(resolution) || resolution <= 0.0)
        return fail(e, TBRF_ERR_INVALID, "resolution = %g: must be finite and > 0", resolution);
    tbrf_default_opts(&e->v.opts);
    if (opts)
        e->v.opts = *opts;
    return check_opts(e, &e->v.opts);
}

/* Step 2: the backend's table entry and its state. */
static int open_backend(tbrfi_engine *e)
{
    int st;
    e->v.backend = tbrfi_backend_lookup(e->v.opts.backend, &st);
    if (!e->v.backend) {
        const char *name = tbrf_backend_name(e->v.opts.backend);
        return fail(e, st, "backend %s: %s", name ? name : "(unknown id)", tbrf_strerror(st));
    }
    st = e->v.backend->init(&e->v.opts, &e->backend_state, e->msg.text, sizeof e->msg.text);
    if (st)
        e->msg.status = st; /* init wrote the message */
    return st;
}

/* Step 3: the model's amplitude and variance, and the frozen copy. */
static int freeze_model(tbrfi_engine *e, const tbrf_model *model, int dim)
{
    if (e->v.opts.line_method == TBRF_LINES_CIRCULANT &&
        (dim != 3 || !tbrfi_model_has_line_covariance(model))) {
        char kinds[256];
        tbrfi_model_line_covariance_kinds(kinds, sizeof kinds);
        return fail(e, TBRF_ERR_UNSUPPORTED,
                    "circulant embedding needs a covariance model with a closed-form line "
                    "covariance (%s) in 3D; this is %s in %dD: use the spectral line method",
                    kinds, tbrf_model_describe(model), dim);
    }
    e->v.amplitude = tbrfi_model_amplitude(model, dim);
    e->v.variance = tbrf_model_variance(model, dim);
    if (!isfinite(e->v.amplitude) || !(e->v.amplitude > 0.0) || !isfinite(e->v.variance)) {
        /* A spectrum steeper than k^-dim at k -> 0 (a power law of index
         * <= -dim from kmin = 0: the planetary-nebula runs' -3.9) has
         * k^dim P(k) growing towards 0, which a kmin cures; say so. */
        const double k1 = 1e-9, k2 = 1e-6;
        double a1 = pow(k1, dim) * tbrfi_model_shape_spectrum(model, dim, k1);
        double a2 = pow(k2, dim) * tbrfi_model_shape_spectrum(model, dim, k2);
        if (a1 > 0.0 && a1 >= a2)
            return fail(e, TBRF_ERR_DIVERGENT,
                        "%s: the variance integral in %dD diverges at k -> 0 (the spectrum is at "
                        "least as steep as k^-%d there): give the model a kmin > 0 (--kmin in the "
                        "command), e.g. the domain's fundamental 2 pi / size",
                        tbrf_model_describe(model), dim, dim);
        return fail(e, TBRF_ERR_DIVERGENT, "%s: the variance integral in %dD diverges or vanishes",
                    tbrf_model_describe(model), dim);
    }
    char why[sizeof e->msg.text];
    if (tbrfi_model_anis_check(model, dim, why, sizeof why))
        return fail(e, TBRF_ERR_INVALID, "%s", why);
    e->model = tbrfi_model_copy(model);
    if (!e->model)
        return fail(e, TBRF_ERR_NO_MEMORY, "no memory to copy the model");
    /* Freeze the amplitude of the copy: a model set by variance would
     * otherwise redo its variance integral at every line mode (a numerical
     * one for callbacks). */
    tbrf_model_set_amplitude(e->model, e->v.amplitude);
    e->v.model = e->model;
    return TBRF_OK;
}

/* Step 4: centre, diagonal and tolerance; *maxabs the largest coordinate. */
static int set_domain(tbrfi_engine *e, const double lo[3], const double hi[3], double resolution,
                      double *maxabs)
{
    tbrfi_engine_view *v = &e->v;
    const int dim = v->dim;
    double diag2 = 0.0;
    *maxabs = 0.0;
    for (int d = 0; d < 3; d++) {
        v->lo[d] = d < dim ? lo[d] : 0.0;
        v->hi[d] = d < dim ? hi[d] : 0.0;
        /* lo/2 + hi/2 where lo + hi overflows (1e308); the same value
         * otherwise. */
        double sum = v->lo[d] + v->hi[d];
        v->center[d] = isfinite(sum) ? 0.5 * sum : 0.5 * v->lo[d] + 0.5 * v->hi[d];
        double ext = v->hi[d] - v->lo[d];
        if (!isfinite(ext))
            return fail(e, TBRF_ERR_INVALID, "domain axis %d: [%g, %g] is too wide for double "
                        "precision (its extent overflows)", d, v->lo[d], v->hi[d]);
        diag2 += ext * ext;
        *maxabs = fmax(*maxabs, fmax(fabs(v->lo[d]), fabs(v->hi[d])));
    }
    v->extent = sqrt(diag2);
    if (!isfinite(diag2)) { /* ext*ext overflowed (extents beyond 1e154): scale */
        double emax = 0.0, s2 = 0.0;
        for (int d = 0; d < dim; d++)
            emax = fmax(emax, v->hi[d] - v->lo[d]);
        for (int d = 0; d < dim; d++)
            s2 += ((v->hi[d] - v->lo[d]) / emax) * ((v->hi[d] - v->lo[d]) / emax);
        v->extent = emax * sqrt(s2);
    }
    /* Positions computed by callers as origin + i*spacing may land a few
     * ulps outside the box; the lines carry two samples of margin. */
    v->tolerance = 1e-10 * (v->extent + resolution) + 8.0 * DBL_EPSILON * *maxabs;
    if (!isfinite(v->extent) || !isfinite(v->tolerance))
        return fail(e, TBRF_ERR_INVALID, "domain: extent %g, coordinates up to %g: not finite",
                    v->extent, *maxabs);
    return TBRF_OK;
}

/* The lines of an anisotropic model run in the isotropic coordinates
 * y = S^-1 R^T x: their extent is twice the farthest domain corner from
 * the centre there, and their resolution the physical one over the
 * largest factor, since a physical wavenumber pi / resolution along axis
 * i is s_i pi / resolution in y. An isotropic model keeps the diagonal and
 * the resolution as they are. */
static void line_frame(const tbrfi_engine *e, double *extent, double *resolution, double *stretch)
{
    const tbrfi_engine_view *v = &e->v;
    double T[9];
    *extent = v->extent;
    *resolution = v->resolution;
    *stretch = 1.0;
    if (!tbrfi_model_anis_axes(e->model, v->dim, T))
        return;
    double smax = 0.0, smin = INFINITY, far2 = 0.0;
    for (int d = 0; d < v->dim; d++) {
        smax = fmax(smax, e->model->anis_scale[d]);
        smin = fmin(smin, e->model->anis_scale[d]);
    }
    *stretch = 1.0 / smin;
    for (int corner = 0; corner < (1 << v->dim); corner++) {
        double y2 = 0.0;
        for (int c = 0; c < v->dim; c++) { /* y_c = (T^T h)_c, h the corner's offset */
            double y = 0.0;
            for (int d = 0; d < v->dim; d++)
                y += T[3 * d + c] * 0.5 * (v->hi[d] - v->lo[d]) * ((corner >> d) & 1 ? 1.0 : -1.0);
            y2 += y * y;
        }
        far2 = fmax(far2, y2);
    }
    *extent = 2.0 * sqrt(far2);
    *resolution = v->resolution / smax;
}

/* Step 5: the line sizing, and the FFTW plan with storage WINDOWS. */
static int size_lines(tbrfi_engine *e, double maxabs)
{
    tbrfi_engine_view *v = &e->v;
    double extent, resolution, stretch;
    line_frame(e, &extent, &resolution, &stretch);
    int st = tbrfi_lines_spec_build(&v->spec, e->model, v->dim, extent, resolution, &v->opts,
                                    e->msg.text, sizeof e->msg.text);
    if (st) {
        e->msg.status = st; /* tbrfi_lines_spec_build wrote the message */
        return st;
    }
    /* Coordinates so large that double precision cannot place a position
     * to within a fraction of a line sample make the lines' margin
     * meaningless: refuse them rather than project outside the lines. */
    if (8.0 * DBL_EPSILON * maxabs * stretch > 0.25 * v->spec.delta)
        return fail(e, TBRF_ERR_INVALID, "domain coordinates up to %g cannot be resolved to the "
                    "line spacing %g in double precision: shift the origin or coarsen the "
                    "resolution", maxabs, v->spec.delta);
    if (v->storage == TBRFI_ENGINE_WINDOWS) { /* the caller keeps (windows of) the lines itself */
        v->fft = tbrfi_lines_fft_plan(v->spec.M);
        if (!v->fft)
            return fail(e, TBRF_ERR_FFT, "FFTW could not plan a c2r transform of size %lld",
                        (long long)v->spec.M);
    }
    return TBRF_OK;
}

/* Step 6: slot 0's line set and the FFTW plan. */
static int alloc_lines(tbrfi_engine *e)
{
    tbrfi_engine_view *v = &e->v;
    struct line_slot *sl = &e->lslot[0];
    const double bytes = 8.0 * (double)v->L * (double)v->spec.M;
    if (bytes > MAX_LINE_BYTES)
        return fail(e, TBRF_ERR_SIZE, "%d lines of %lld samples would need %.3g GiB",
                    v->L, (long long)v->spec.M, bytes / 1073741824.0);
    if (v->opts.vector) {
        /* the weighted copies stay cached with the lines: alternating
         * components or chunks never redo them */
        const double all = bytes * (double)(1 + v->ncomp), budget = tbrfi_engine_memory_budget();
        if (!(budget > 0.0))
            return fail(e, TBRF_ERR_INVALID, "TBRF_MEMORY_BUDGET='%.40s' is not a size in bytes (such "
                        "as 4G or 512M)", getenv("TBRF_MEMORY_BUDGET"));
        if (all > budget)
            return fail(e, TBRF_ERR_SIZE, "a vector field's %d lines of %lld samples and their %d "
                        "weighted copies would need %.3g MiB, more than the memory budget of %.3g MiB "
                        "(set TBRF_MEMORY_BUDGET to raise it)", v->L, (long long)v->spec.M,
                        v->ncomp, all / 1048576.0, budget / 1048576.0);
        sl->vlines = malloc((size_t)bytes * (size_t)v->ncomp);
        sl->amp = malloc(sizeof(double) * 3 * (size_t)v->L);
        if (!sl->vlines || !sl->amp)
            return fail(e, TBRF_ERR_NO_MEMORY, "no memory for the %d weighted line sets", v->ncomp);
    }
    sl->lines = malloc((size_t)bytes);
    sl->axis = malloc(sizeof(double) * 4 * (size_t)v->L); /* axes, then shifts */
    if (!sl->lines || !sl->axis)
        return fail(e, TBRF_ERR_NO_MEMORY, "no memory for %d lines of %lld samples (%.3g GiB)",
                    v->L, (long long)v->spec.M, bytes / 1073741824.0);
    v->fft = tbrfi_lines_fft_plan(v->spec.M);
    if (!v->fft)
        return fail(e, TBRF_ERR_FFT, "FFTW could not plan a c2r transform of size %lld",
                    (long long)v->spec.M);
    return TBRF_OK;
}

static int build(tbrfi_engine *e, const tbrf_model *model, int dim, const double lo[3],
                 const double hi[3], double resolution, uint64_t seed, const tbrf_opts *opts)
{
    int st = check_args(e, model, dim, lo, hi, resolution, opts);
    if (!st)
        st = open_backend(e);
    if (!st)
        st = freeze_model(e, model, dim);
    if (st)
        return st;
    tbrfi_engine_view *v = &e->v;
    v->dim = dim;
    /* Lines left to the geometry wait for it (tbrfi_engine_fix_lines);
     * a caller that keeps windows of its lines has no grid to size them
     * by, so it gets the points' default now. */
    if (v->opts.lines == 0 && v->storage == TBRFI_ENGINE_WINDOWS)
        v->opts.lines = TBRF_DEFAULT_LINES_MIN;
    v->L = v->opts.lines;
    v->seed = seed;
    v->ncomp = v->opts.vector ? dim : 1;
    v->zeta = v->opts.vector == TBRF_VECTOR_SOLENOIDAL ? 1.0
              : v->opts.vector == TBRF_VECTOR_COMPRESSIVE ? 0.0 : v->opts.zeta;
    v->resolution = resolution;
    double maxabs;
    st = set_domain(e, lo, hi, resolution, &maxabs);
    if (st || v->storage == TBRFI_ENGINE_NONE)
        return st;
    st = size_lines(e, maxabs);
    if (st || v->storage == TBRFI_ENGINE_WINDOWS || v->L == 0)
        return st;
    return alloc_lines(e);
}

/* Frees slot 0's line set and the FFTW plan alloc_lines made. */
static void free_slot0(tbrfi_engine *e)
{
    struct line_slot *sl = &e->lslot[0];
    free(sl->vlines);
    free(sl->amp);
    free(sl->lines);
    free(sl->axis);
    *sl = (struct line_slot){0};
    tbrfi_lines_fft_destroy(e->v.fft);
    e->v.fft = NULL;
}

int tbrfi_engine_fix_lines(tbrfi_engine *e, int lines)
{
    tbrfi_engine_view *v = &e->v;
    if (v->L > 0 || v->storage != TBRFI_ENGINE_LINES)
        return TBRF_OK;
    v->L = v->opts.lines = lines;
    int st = alloc_lines(e);
    if (st) { /* the next geometry may try again, with its own lines */
        free_slot0(e);
        v->L = v->opts.lines = 0;
    }
    return st;
}

int tbrfi_engine_make(const tbrf_model *model, int dim, const double lo[3], const double hi[3],
                      double resolution, uint64_t seed, const tbrf_opts *opts, int storage,
                      tbrfi_engine **engine)
{
    tbrfi_engine *e = calloc(1, sizeof *e);
    *engine = e;
    if (!e)
        return TBRF_ERR_NO_MEMORY;
    e->v.storage = storage;
    return build(e, model, dim, lo, hi, resolution, seed, opts);
}

void tbrfi_engine_destroy(tbrfi_engine *e)
{
    if (!e)
        return;
    for (int i = 0; i < LINE_SLOTS; i++) {
        free(e->lslot[i].vlines);
        free(e->lslot[i].amp);
        free(e->lslot[i].lines);
        free(e->lslot[i].axis);
    }
    if (e->v.backend)
        e->v.backend->release(e->backend_state);
    tbrfi_lines_fft_destroy(e->v.fft);
    tbrfi_lines_spec_free(&e->v.spec);
    tbrf_model_destroy(e->model);
    free(e);
}

const tbrfi_engine_view *tbrfi_engine_view_of(const tbrfi_engine *e)
{
    return &e->v;
}

const tbrfi_message *tbrfi_engine_msg(const tbrfi_engine *e)
{
    return &e->msg;
}

int tbrfi_engine_has_lines(const tbrfi_engine *e)
{
    return e->lslot[0].lines != NULL;
}

void tbrfi_engine_axes(const tbrfi_engine *e, uint64_t r, double *axis)
{
    const int L = e->v.L;
    tbrfi_directions_make(e->v.dim, L, e->v.seed, r, axis);
    double T[9];
    if (tbrfi_model_anis_axes(e->model, e->v.dim, T))
        for (int l = 0; l < L; l++) { /* u -> R S^-1 u: the line's physical axis */
            const double u[3] = {axis[3 * l], axis[3 * l + 1], axis[3 * l + 2]};
            for (int c = 0; c < 3; c++)
                axis[3 * l + c] = T[3 * c] * u[0] + T[3 * c + 1] * u[1] + T[3 * c + 2] * u[2];
        }
    for (int i = 0; i < 3 * L; i++)
        axis[i] /= e->v.spec.delta;
    tbrfi_lines_shifts(e->v.seed, r, L, axis + 3 * L);
}

/* Allocates a second slot's line set like slot 0's; 0 on success. */
static int line_slot_alloc(tbrfi_engine *e, struct line_slot *sl)
{
    const size_t bytes = sizeof(double) * (size_t)e->v.L * (size_t)e->v.spec.M;
    sl->lines = malloc(bytes);
    sl->axis = malloc(sizeof(double) * 4 * (size_t)e->v.L);
    if (e->v.opts.vector) {
        sl->vlines = malloc(bytes * (size_t)e->v.ncomp);
        sl->amp = malloc(sizeof(double) * 3 * (size_t)e->v.L);
    }
    if (sl->lines && sl->axis && (!e->v.opts.vector || (sl->vlines && sl->amp)))
        return 0;
    free(sl->lines);
    free(sl->axis);
    free(sl->vlines);
    free(sl->amp);
    memset(sl, 0, sizeof *sl);
    return -1;
}

static void use_slot(tbrfi_engine *e, int i)
{
    struct line_slot *sl = &e->lslot[i];
    e->lines = sl->lines;
    e->axis = sl->axis;
    e->vlines = sl->vlines;
    e->ncomp = e->v.ncomp;
    e->generation = sl->generation;
    sl->used = ++e->clock;
}

/* The slot realization r's lines go to: an empty allocated one, or a
 * second one when r comes back (seen) and two sets fit the budget, else
 * the least recently used. */
static int pick_slot(tbrfi_engine *e, int seen)
{
    for (int i = 0; i < LINE_SLOTS; i++)
        if (e->lslot[i].lines && !e->lslot[i].valid)
            return i;
    if (seen && !e->lslot[1].lines) {
        const double set = 8.0 * (double)e->v.L * (double)e->v.spec.M *
                           (double)(1 + (e->v.opts.vector ? e->v.ncomp : 0));
        if (2.0 * set <= tbrfi_engine_memory_budget() && line_slot_alloc(e, &e->lslot[1]) == 0)
            return 1;
    }
    int target = 0;
    for (int i = 1; i < LINE_SLOTS; i++)
        if (e->lslot[i].lines && e->lslot[i].used < e->lslot[target].used)
            target = i;
    return target;
}

/* Synthesises the lines of realization r unless they are already there:
 * a moving mesh re-evaluated at the same realization pays only the
 * projection, and alternating realizations (or components, whose weighted
 * lines are kept with them) keep two line sets when they fit. */
int tbrfi_engine_lines(tbrfi_engine *e, uint64_t r)
{
    tbrfi_message_clear(&e->msg);
    for (int i = 0; i < LINE_SLOTS; i++)
        if (e->lslot[i].valid && e->lslot[i].realization == r) {
            use_slot(e, i);
            return TBRF_OK;
        }
    if (!e->lslot[0].lines)
        return fail(e, TBRF_ERR_UNSUPPORTED, "the FFT method's plan holds no lines");
    int seen = 0;
    for (uint64_t i = 0; i < e->nrecent && i < 4; i++)
        seen |= e->recent[i] == r;
    const int target = pick_slot(e, seen);
    struct line_slot *sl = &e->lslot[target];
    sl->valid = 0;
    const int L = e->v.L;
    tbrfi_engine_axes(e, r, sl->axis);
    int st = tbrfi_lines_synthesize(&e->v.spec, e->v.fft, e->v.seed, r, L, e->v.opts.threads, sl->lines);
    if (st)
        return fail(e, st, "no memory for the line synthesis buffers");
    if (e->v.opts.vector) {
        tbrfi_vector_amplitudes(e->v.dim, L, sl->axis, e->v.seed, r, e->v.zeta, sl->amp);
        tbrfi_vector_weight_lines(e->v.ncomp, L, e->v.spec.M, sl->lines, sl->amp, e->v.opts.threads,
                                  sl->vlines);
    }
    /* a new generation for every synthesis: GPU backends re-upload on it */
    sl->generation = ++e->gen_counter;
    sl->valid = 1;
    sl->realization = r;
    if (!seen) /* a ring of the last four: the oldest is overwritten */
        e->recent[e->nrecent++ % 4] = r;
    use_slot(e, target);
    return TBRF_OK;
}

int tbrfi_engine_windows(const tbrfi_engine *e, uint64_t r, const int64_t *first, const int64_t *count,
                         const int64_t *base, int precision, void *out)
{
    return tbrfi_lines_synthesize_windows(&e->v.spec, e->v.fft, e->v.seed, r, e->v.L, e->v.opts.threads,
                                          first, count, base, precision, out);
}

void tbrfi_engine_use_lines(tbrfi_engine *e, const double *axis, const double *lines, int ncomp)
{
    e->axis = axis;
    e->lines = ncomp == 1 ? lines : NULL;
    e->vlines = ncomp == 1 ? NULL : lines;
    e->ncomp = ncomp;
    e->generation = ++e->gen_counter;
}

static projection make_projection(const tbrfi_engine *e)
{
    projection pr;
    pr.dim = e->v.dim;
    pr.L = e->v.L;
    pr.M = e->v.spec.M;
    pr.lines = e->lines;
    pr.axis = e->axis;
    pr.offset = e->v.spec.offset;
    for (int d = 0; d < 3; d++)
        pr.center[d] = e->v.center[d];
    pr.norm = 1.0 / sqrt((double)e->v.L);
    pr.precision = e->v.opts.precision;
    pr.threads = e->v.opts.threads;
    pr.state = e->backend_state;
    pr.generation = e->generation;
    return pr;
}

/* A backend's project call failed: its own detail when it has one. */
static int projection_failed(tbrfi_engine *e, int st)
{
    const backend_ops *b = e->v.backend;
    const char *detail = b->message(e->backend_state);
    if (detail && *detail)
        return fail(e, st, "%s projection failed: %s: %s", b->name, tbrf_strerror(st), detail);
    return fail(e, st, "%s projection failed: %s", b->name, tbrf_strerror(st));
}

/* Projection of n cells of grid g from `first` on, or (g NULL) of n points.
 * Several components project each component's weighted lines with the
 * unchanged scalar kernels, under a generation of their own (GPU backends
 * re-upload lines when it changes), then interleave. */
static int project(tbrfi_engine *e, const grid_geom *g, int64_t first, int64_t n, const double *xyz,
                   void *values)
{
    tbrfi_message_clear(&e->msg);
    const backend_ops *b = e->v.backend;
    projection pr = make_projection(e);
    if (e->ncomp == 1) {
        int st = !g ? b->project_points(&pr, n, xyz, values) : b->project_grid(&pr, g, first, n, values);
        return st ? projection_failed(e, st) : TBRF_OK;
    }
    const size_t vs = e->v.opts.precision == TBRF_FLOAT ? sizeof(float) : sizeof(double);
    char *tmp = malloc(vs * (size_t)(n > 0 ? n : 1));
    if (!tmp)
        return fail(e, TBRF_ERR_NO_MEMORY, "no memory for a component of %lld values", (long long)n);
    for (int c = 0; c < e->ncomp; c++) {
        projection pc = pr;
        pc.lines = e->vlines + (size_t)c * (size_t)e->v.L * (size_t)e->v.spec.M;
        pc.generation = pr.generation * 4 + (uint64_t)c + 1;
        int st = !g ? b->project_points(&pc, n, xyz, tmp) : b->project_grid(&pc, g, first, n, tmp);
        if (st) {
            free(tmp);
            return projection_failed(e, st);
        }
        for (int64_t i = 0; i < n; i++)
            memcpy((char *)values + ((size_t)i * (size_t)e->ncomp + (size_t)c) * vs, tmp + (size_t)i * vs, vs);
    }
    free(tmp);
    return TBRF_OK;
}

/* project in blocks between two polls of the hook (one block without
 * one): each position's value is its own, so the blocks give its bits. */
static int project_polled(tbrfi_engine *e, const grid_geom *g, int64_t first, int64_t n,
                          const double *xyz, void *values)
{
    const int64_t block = tbrfi_cancel_block(&e->cancel, (double)e->v.L * (double)e->ncomp, n);
    if (block >= n)
        return project(e, g, first, n, xyz, values);
    const size_t row = (e->v.opts.precision == TBRF_FLOAT ? sizeof(float) : sizeof(double)) *
                       (size_t)e->ncomp;
    for (int64_t a = 0; a < n; a += block) {
        const int64_t c = n - a < block ? n - a : block;
        const int st = project(e, g, first + a, c, xyz ? xyz + (size_t)e->v.dim * (size_t)a : NULL,
                               (char *)values + row * (size_t)a);
        if (st != TBRF_OK)
            return st;
        if (a + c < n && tbrfi_cancelled(&e->cancel))
            return fail(e, TBRF_ERR_CANCELLED, "cancelled by the caller's hook after %lld of %lld %s",
                        (long long)(a + c), (long long)n, g ? "cells" : "points");
    }
    return TBRF_OK;
}

int tbrfi_engine_project_grid(tbrfi_engine *e, const grid_geom *g, int64_t first, int64_t count,
                              void *values)
{
    return project_polled(e, g, first, count, NULL, values);
}

int tbrfi_engine_project_points(tbrfi_engine *e, int64_t n, const double *xyz, void *values)
{
    return project_polled(e, NULL, 0, n, xyz, values);
}

void tbrfi_engine_set_cancel(tbrfi_engine *e, tbrf_cancel_fn fn, void *user)
{
    e->cancel.fn = fn;
    e->cancel.user = user;
}

const tbrfi_cancel *tbrfi_engine_cancel(const tbrfi_engine *e)
{
    return e ? &e->cancel : NULL;
}
