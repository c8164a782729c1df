/* plan.c — the public plan API: make, set geometry, execute, stream. */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend.h"
#include "methods/turning_bands/directions.h"
#include "methods/fft/fft.h"
#include "methods/nufft/nufft.h"
#include "methods/turning_bands/lines.h"
#include "methods/turning_bands/vector.h"
#include "core/message.h"
#include "core/streams.h"
#include "core/model.h"
#include "plan/plan_internal.h"
#include "tbrf.h"

enum geometry { GEOM_NONE = 0, GEOM_GRID = 1, GEOM_POINTS = 2 };

/* Hard limits on options: beyond them a run could not finish in memory or
 * in any useful time, so they are rejected up front with a message. */
#define MAX_LINES (1 << 24)
_Static_assert(MAX_LINES <= TBRF_STREAM_LINES_END, "line indices stay in their stream range");
#define MAX_OVERSAMPLING 1024
#define MAX_PADDING 16
#define MAX_LINE_LENGTH_FACTOR 1024
#define MAX_LINE_BYTES ((double)((int64_t)1 << 40))
#define AUTO_CHUNK_POINTS 65536
#define AUTO_CHUNK_CELLS (1 << 20)
/* opts.threads above this is refused (a typo, not a machine); below it,
 * core/parallel.h still caps the threads a call starts (tbrf.h). */
#define MAX_THREADS 1024
/* A periodic plan keeps the fine grids of this many realizations at most
 * (fewer when they do not fit the memory budget together). */
#define PERIODIC_SLOTS 2
/* A turning-bands plan keeps the lines of up to this many realizations;
 * the second set is made only when a realization synthesised before is
 * asked for again (alternation), and when both fit the memory budget, so
 * a loop over realizations never holds more than one. */
#define LINE_SLOTS 2
/* Vector fields draw component c's numbers from realization r + (c+1) 2^62. */
#define MAX_VECTOR_REALIZATION ((uint64_t)1 << 62)

struct tbrf_plan {
    int lineless;      /* made by tbrfi_plan_make_lineless: spec and FFT plan, no line storage */
    int broken;        /* make_plan failed: every later call returns BAD_PLAN */
    tbrfi_message msg; /* the last call's status and message */
    tbrf_model *model;
    int dim;
    double lo[3], hi[3], center[3], extent, resolution, tolerance;
    uint64_t seed;
    tbrf_opts opts;
    const backend_ops *backend;
    void *backend_state;   /* from backend->init, released at destroy */
    uint64_t generation;   /* of the current line set: changes whenever lines/axis hold new values */
    uint64_t gen_counter;  /* the last generation handed out */
    line_spec spec;
    void *fft;
    double *lines, *axis;
    int have_lines;
    uint64_t cached_realization;
    /* turning bands: line sets of up to LINE_SLOTS realizations; lines,
     * axis, vlines and amp point into the current one */
    struct line_slot {
        double *lines, *axis, *vlines, *amp;
        int valid;
        uint64_t realization, used, generation;
    } lslot[LINE_SLOTS];
    int cur;                  /* the current slot */
    uint64_t recent[4];       /* the last realizations synthesised */
    uint64_t nrecent;
    int geom;
    grid_geom grid;
    int64_t npoints;
    const double *xyz;
    int fft_run;         /* the current grid runs the FFT method */
    double fft_variance; /* its field's variance (tbrfi_fft_method_variance) */
    double amplitude, variance;
    /* vector fields: ncomp = dim values per point, else 1 */
    int ncomp;
    double zeta;       /* effective solenoidal weight */
    double *vlines;    /* turning bands: the lines weighted by each component (ncomp sets) */
    double *amp;       /* turning bands: the lines' vector amplitudes, 3 per line */
    /* periodic plans (tbrf_make_periodic_plan) */
    int periodic_box;
    grid_geom box;     /* the box lattice: n cells of spacing length/n */
    double box_variance;
    nufft_setup nu;
    int nufft_run;     /* the current geometry runs the NUFFT */
    int nslots;        /* fine grids kept: realizations cached */
    uint64_t clock;
    struct fine_slot {
        int valid;
        uint64_t realization, used;
        double *u[3];
    } slot[PERIODIC_SLOTS];
};

static double memory_budget(void);

static int fail(tbrf_plan *p, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tbrfi_failv(&p->msg, status, fmt, ap);
    va_end(ap);
    return status;
}

/* Resets the per-call status; a plan that failed to build stays failed. */
static int begin(tbrf_plan *p)
{
    if (p->broken) {
        p->msg.status = TBRF_ERR_BAD_PLAN;
        return TBRF_ERR_BAD_PLAN;
    }
    tbrfi_message_clear(&p->msg);
    return TBRF_OK;
}

void tbrf_default_opts(tbrf_opts *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->lines = 1024;
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

static int check_opts(tbrf_plan *p, const tbrf_opts *o)
{
    if (o->lines < 1 || o->lines > MAX_LINES)
        return fail(p, TBRF_ERR_INVALID, "opts.lines = %d: must be between 1 and %d", o->lines, MAX_LINES);
    if (o->oversampling < 1 || o->oversampling > MAX_OVERSAMPLING)
        return fail(p, TBRF_ERR_INVALID, "opts.oversampling = %d: must be between 1 and %d",
                    o->oversampling, MAX_OVERSAMPLING);
    if (o->line_method != TBRF_LINES_SPECTRAL && o->line_method != TBRF_LINES_CIRCULANT)
        return fail(p, TBRF_ERR_INVALID, "opts.line_method = %d: not a tbrf_line_method", o->line_method);
    if (o->max_padding < 0 || o->max_padding > MAX_PADDING)
        return fail(p, TBRF_ERR_INVALID, "opts.max_padding = %d: must be between 0 and %d",
                    o->max_padding, MAX_PADDING);
    if (o->line_length_factor < 1 || o->line_length_factor > MAX_LINE_LENGTH_FACTOR)
        return fail(p, TBRF_ERR_INVALID, "opts.line_length_factor = %d: must be between 1 and %d",
                    o->line_length_factor, MAX_LINE_LENGTH_FACTOR);
    if (o->precision != TBRF_DOUBLE && o->precision != TBRF_FLOAT)
        return fail(p, TBRF_ERR_INVALID, "opts.precision = %d: must be TBRF_DOUBLE or TBRF_FLOAT", o->precision);
    if (o->threads < 0 || o->threads > MAX_THREADS)
        return fail(p, TBRF_ERR_INVALID, "opts.threads = %d: must be between 0 (OpenMP default) and %d",
                    o->threads, MAX_THREADS);
    if (o->method != TBRF_METHOD_TB && o->method != TBRF_METHOD_FFT && o->method != TBRF_METHOD_AUTO)
        return fail(p, TBRF_ERR_INVALID, "opts.method = %d: must be TBRF_METHOD_TB, _FFT or _AUTO", o->method);
    if (o->periodic != 0 && o->periodic != 1)
        return fail(p, TBRF_ERR_INVALID, "opts.periodic = %d: must be 0 or 1", o->periodic);
    if (o->method == TBRF_METHOD_TB && o->periodic)
        return fail(p, TBRF_ERR_UNSUPPORTED, "opts.periodic = 1 with turning bands: a turning-bands "
                    "field is not periodic; use method FFT or AUTO");
    if (o->device < -1)
        return fail(p, TBRF_ERR_INVALID, "opts.device = %d: must be >= 0, or -1 for the first usable", o->device);
    if (o->work_group < 0 || o->work_group > 4096)
        return fail(p, TBRF_ERR_INVALID, "opts.work_group = %d: must be between 0 (tuned) and 4096", o->work_group);
    if (o->unroll < 0 || o->unroll > 64)
        return fail(p, TBRF_ERR_INVALID, "opts.unroll = %d: must be between 0 (tuned) and 64", o->unroll);
    if (o->chunk < 0)
        return fail(p, TBRF_ERR_INVALID, "opts.chunk = %lld: must be >= 0 (0 = automatic)", (long long)o->chunk);
    if (o->vector < TBRF_SCALAR || o->vector > TBRF_VECTOR_MIXED)
        return fail(p, TBRF_ERR_INVALID, "opts.vector = %d: must be TBRF_SCALAR, TBRF_VECTOR_SOLENOIDAL, "
                    "_COMPRESSIVE or _MIXED", o->vector);
    if (o->vector == TBRF_VECTOR_MIXED && !(o->zeta >= 0.0 && o->zeta <= 1.0))
        return fail(p, TBRF_ERR_INVALID, "opts.zeta = %g: a mixed vector field needs 0 <= zeta <= 1",
                    o->zeta);
    if (!(o->accuracy == 0.0 || (o->accuracy >= 1e-15 && o->accuracy <= 0.1)))
        return fail(p, TBRF_ERR_INVALID, "opts.accuracy = %g: must be 0 (default) or between 1e-15 "
                    "and 0.1", o->accuracy);
    return TBRF_OK;
}

static int setup(tbrf_plan *p, const tbrf_model *model, int dim, const double lo[3],
                 const double hi[3], double resolution, uint64_t seed, const tbrf_opts *opts)
{
    if (!model)
        return fail(p, TBRF_ERR_NULL, "model is NULL");
    if (!lo || !hi)
        return fail(p, TBRF_ERR_NULL, "domain bounds lo/hi are NULL");
    if (model->status != TBRF_OK)
        return fail(p, TBRF_ERR_INVALID, "the model failed to build: %s", tbrfi_message_text(&model->msg));
    if (dim != 2 && dim != 3)
        return fail(p, TBRF_ERR_INVALID, "dim = %d: must be 2 or 3", dim);
    for (int d = 0; d < dim; d++)
        if (!isfinite(lo[d]) || !isfinite(hi[d]) || hi[d] < lo[d])
            return fail(p, TBRF_ERR_INVALID, "domain axis %d: [%g, %g] is not a finite interval", d,
                        lo[d], hi[d]);
    if (!isfinite(resolution) || resolution <= 0.0)
        return fail(p, TBRF_ERR_INVALID, "resolution = %g: must be finite and > 0", resolution);
    tbrf_default_opts(&p->opts);
    if (opts)
        p->opts = *opts;
    int st = check_opts(p, &p->opts);
    if (st)
        return st;
    p->backend = tbrfi_backend_lookup(p->opts.backend, &st);
    if (!p->backend) {
        const char *name = tbrf_backend_name(p->opts.backend);
        return fail(p, st, "backend %s: %s", name ? name : "(unknown id)", tbrf_strerror(st));
    }
    st = p->backend->init(&p->opts, &p->backend_state, p->msg.text, sizeof p->msg.text);
    if (st) {
        p->msg.status = st; /* init wrote the message */
        return st;
    }
    if (p->opts.line_method == TBRF_LINES_CIRCULANT && (dim != 3 || !tbrfi_model_is_covariance(model)))
        return fail(p, TBRF_ERR_UNSUPPORTED,
                    "circulant embedding needs a covariance model (gaussian, exponential, matern, "
                    "vonkarman) in 3D; this is %s in %dD: use the spectral line method",
                    tbrf_model_describe(model), dim);
    p->amplitude = tbrfi_model_amplitude(model, dim);
    p->variance = tbrf_model_variance(model, dim);
    if (!isfinite(p->amplitude) || !(p->amplitude > 0.0) || !isfinite(p->variance)) {
        /* A spectrum steeper than k^-dim at k -> 0 (a power law of index
         * <= -dim from kmin = 0: the planetary-nebula runs' -3.9) has
         * k^dim P(k) growing towards 0, which a kmin cures; say so. */
        const double k1 = 1e-9, k2 = 1e-6;
        double a1 = pow(k1, dim) * tbrfi_model_shape_spectrum(model, dim, k1);
        double a2 = pow(k2, dim) * tbrfi_model_shape_spectrum(model, dim, k2);
        if (a1 > 0.0 && a1 >= a2)
            return fail(p, TBRF_ERR_DIVERGENT,
                        "%s: the variance integral in %dD diverges at k -> 0 (the spectrum is at "
                        "least as steep as k^-%d there): give the model a kmin > 0 (--kmin in the "
                        "command), e.g. the domain's fundamental 2 pi / size",
                        tbrf_model_describe(model), dim, dim);
        return fail(p, TBRF_ERR_DIVERGENT, "%s: the variance integral in %dD diverges or vanishes",
                    tbrf_model_describe(model), dim);
    }
    p->model = tbrfi_model_copy(model);
    if (!p->model)
        return fail(p, TBRF_ERR_NO_MEMORY, "no memory to copy the model");
    /* Freeze the amplitude of the plan's copy: a model set by variance
     * would otherwise redo its variance integral at every line mode (a
     * numerical one for callbacks). */
    tbrf_model_set_amplitude(p->model, p->amplitude);
    p->dim = dim;
    p->seed = seed;
    p->ncomp = p->opts.vector ? dim : 1;
    p->zeta = p->opts.vector == TBRF_VECTOR_SOLENOIDAL ? 1.0
              : p->opts.vector == TBRF_VECTOR_COMPRESSIVE ? 0.0 : p->opts.zeta;
    p->resolution = resolution;
    double diag2 = 0.0, maxabs = 0.0;
    for (int d = 0; d < 3; d++) {
        p->lo[d] = d < dim ? lo[d] : 0.0;
        p->hi[d] = d < dim ? hi[d] : 0.0;
        /* lo/2 + hi/2 where lo + hi overflows (1e308); the same value
         * otherwise. */
        double sum = p->lo[d] + p->hi[d];
        p->center[d] = isfinite(sum) ? 0.5 * sum : 0.5 * p->lo[d] + 0.5 * p->hi[d];
        double e = p->hi[d] - p->lo[d];
        if (!isfinite(e))
            return fail(p, TBRF_ERR_INVALID, "domain axis %d: [%g, %g] is too wide for double "
                        "precision (its extent overflows)", d, p->lo[d], p->hi[d]);
        diag2 += e * e;
        maxabs = fmax(maxabs, fmax(fabs(p->lo[d]), fabs(p->hi[d])));
    }
    p->extent = sqrt(diag2);
    if (!isfinite(diag2)) { /* e*e overflowed (extents beyond 1e154): scale */
        double emax = 0.0, s2 = 0.0;
        for (int d = 0; d < dim; d++)
            emax = fmax(emax, p->hi[d] - p->lo[d]);
        for (int d = 0; d < dim; d++)
            s2 += ((p->hi[d] - p->lo[d]) / emax) * ((p->hi[d] - p->lo[d]) / emax);
        p->extent = emax * sqrt(s2);
    }
    /* Positions computed by callers as origin + i*spacing may land a few
     * ulps outside the box; the lines carry two samples of margin. */
    p->tolerance = 1e-10 * (p->extent + resolution) + 8.0 * DBL_EPSILON * maxabs;
    if (!isfinite(p->extent) || !isfinite(p->tolerance))
        return fail(p, TBRF_ERR_INVALID, "domain: extent %g, coordinates up to %g: not finite",
                    p->extent, maxabs);
    /* The FFT method runs on grids alone and never projects lines: its
     * plan builds no line structures (spec, lines, axis, FFTW line plan). */
    if (p->opts.method == TBRF_METHOD_FFT)
        return TBRF_OK;
    st = tbrfi_lines_spec_build(&p->spec, p->model, dim, p->extent, resolution, &p->opts, p->msg.text,
                          sizeof p->msg.text);
    if (st) {
        p->msg.status = st; /* tbrfi_lines_spec_build wrote the message */
        return st;
    }
    /* Coordinates so large that double precision cannot place a position
     * to within a fraction of a line sample make the lines' margin
     * meaningless: refuse them rather than project outside the lines. */
    if (8.0 * DBL_EPSILON * maxabs > 0.25 * p->spec.delta)
        return fail(p, TBRF_ERR_INVALID, "domain coordinates up to %g cannot be resolved to the "
                    "line spacing %g in double precision: shift the origin or coarsen the "
                    "resolution", maxabs, p->spec.delta);
    if (p->lineless) { /* the caller (the inflow sampler) stores its own windows of the lines */
        p->fft = tbrfi_lines_fft_plan(p->spec.M);
        if (!p->fft)
            return fail(p, TBRF_ERR_FFT, "FFTW could not plan a c2r transform of size %lld",
                        (long long)p->spec.M);
        return TBRF_OK;
    }
    const double bytes = 8.0 * (double)p->opts.lines * (double)p->spec.M;
    if (bytes > MAX_LINE_BYTES)
        return fail(p, TBRF_ERR_SIZE, "%d lines of %lld samples would need %.3g GiB",
                    p->opts.lines, (long long)p->spec.M, bytes / 1073741824.0);
    if (p->opts.vector) {
        /* the weighted copies stay cached with the lines: alternating
         * components or chunks never redo them */
        const double all = bytes * (double)(1 + p->ncomp), budget = memory_budget();
        if (!(budget > 0.0))
            return fail(p, TBRF_ERR_INVALID, "TBRF_MEMORY_BUDGET='%.40s' is not a size in bytes (such "
                        "as 4G or 512M)", getenv("TBRF_MEMORY_BUDGET"));
        if (all > budget)
            return fail(p, TBRF_ERR_SIZE, "a vector field's %d lines of %lld samples and their %d "
                        "weighted copies would need %.3g MiB, more than the memory budget of %.3g MiB "
                        "(set TBRF_MEMORY_BUDGET to raise it)", p->opts.lines, (long long)p->spec.M,
                        p->ncomp, all / 1048576.0, budget / 1048576.0);
        p->vlines = malloc((size_t)bytes * (size_t)p->ncomp);
        p->amp = malloc(sizeof(double) * 3 * (size_t)p->opts.lines);
        p->lslot[0].vlines = p->vlines; /* slot 0 owns them */
        p->lslot[0].amp = p->amp;
        if (!p->vlines || !p->amp)
            return fail(p, TBRF_ERR_NO_MEMORY, "no memory for the %d weighted line sets", p->ncomp);
    }
    p->lines = malloc((size_t)bytes);
    p->axis = malloc(sizeof(double) * 4 * (size_t)p->opts.lines); /* axes, then shifts */
    p->lslot[0].lines = p->lines;
    p->lslot[0].axis = p->axis;
    if (!p->lines || !p->axis)
        return fail(p, TBRF_ERR_NO_MEMORY, "no memory for %d lines of %lld samples (%.3g GiB)",
                    p->opts.lines, (long long)p->spec.M, bytes / 1073741824.0);
    p->fft = tbrfi_lines_fft_plan(p->spec.M);
    if (!p->fft)
        return fail(p, TBRF_ERR_FFT, "FFTW could not plan a c2r transform of size %lld",
                    (long long)p->spec.M);
    return TBRF_OK;
}

int tbrf_make_plan(const tbrf_model *model, int dim, const double lo[3], const double hi[3],
                   double resolution, uint64_t seed, const tbrf_opts *opts, tbrf_plan **plan)
{
    if (!plan)
        return TBRF_ERR_NULL;
    tbrf_plan *p = calloc(1, sizeof *p);
    *plan = p;
    if (!p)
        return TBRF_ERR_NO_MEMORY;
    int st = setup(p, model, dim, lo, hi, resolution, seed, opts);
    if (st)
        p->broken = 1;
    return st;
}

int tbrfi_plan_make_lineless(const tbrf_model *model, int dim, const double lo[3],
                             const double hi[3], double resolution, uint64_t seed,
                             const tbrf_opts *opts, tbrf_plan **plan)
{
    if (!plan)
        return TBRF_ERR_NULL;
    tbrf_plan *p = calloc(1, sizeof *p);
    *plan = p;
    if (!p)
        return TBRF_ERR_NO_MEMORY;
    p->lineless = 1;
    int st = setup(p, model, dim, lo, hi, resolution, seed, opts);
    if (st)
        p->broken = 1;
    return st;
}

void tbrfi_plan_view_of(const tbrf_plan *p, tbrfi_plan_view *v)
{
    v->dim = p->dim;
    v->L = p->opts.lines;
    v->threads = p->opts.threads;
    v->seed = p->seed;
    v->spec = &p->spec;
    v->fft = p->fft;
    v->tolerance = p->tolerance;
    for (int d = 0; d < 3; d++) {
        v->lo[d] = p->lo[d];
        v->hi[d] = p->hi[d];
        v->center[d] = p->center[d];
    }
}

double tbrfi_plan_memory_budget(void)
{
    return memory_budget();
}

/* The memory budget (tbrf_memory_budget); 0 for a malformed variable. */
static double memory_budget(void)
{
    uint64_t b;
    return tbrf_memory_budget(&b) == TBRF_OK ? (double)b : 0.0;
}

static int periodic_setup(tbrf_plan *p, const tbrf_model *model, int dim, const double origin[3],
                          const double length[3], const int64_t n[3], uint64_t seed,
                          const tbrf_opts *opts)
{
    if (!origin || !length || !n)
        return fail(p, TBRF_ERR_NULL, "make_periodic_plan: origin, length or n is NULL");
    if (dim != 2 && dim != 3)
        return fail(p, TBRF_ERR_INVALID, "dim = %d: must be 2 or 3", dim);
    double hi[3] = {0, 0, 0}, resolution = HUGE_VAL;
    for (int d = 0; d < dim; d++) {
        if (!isfinite(origin[d]))
            return fail(p, TBRF_ERR_INVALID, "box origin[%d] = %g is not finite", d, origin[d]);
        if (!isfinite(length[d]) || !(length[d] > 0.0))
            return fail(p, TBRF_ERR_INVALID, "box length[%d] = %g: must be finite and > 0", d, length[d]);
        if (n[d] < 1 || n[d] > ((int64_t)1 << 20))
            return fail(p, TBRF_ERR_SIZE, "box n[%d] = %lld: must be between 1 and 2^20", d,
                        (long long)n[d]);
        hi[d] = origin[d] + length[d];
        if (!isfinite(hi[d]))
            return fail(p, TBRF_ERR_INVALID, "box axis %d: origin %g + length %g overflows", d,
                        origin[d], length[d]);
        resolution = fmin(resolution, length[d] / (double)n[d]);
    }
    tbrf_opts o;
    tbrf_default_opts(&o);
    if (opts)
        o = *opts;
    /* setup() then builds no line structures: the modes need none */
    o.method = TBRF_METHOD_FFT;
    o.periodic = 1;
    int st = setup(p, model, dim, origin, hi, resolution, seed, &o);
    if (st)
        return st;
    p->periodic_box = 1;
    for (int d = 0; d < 3; d++) {
        const int used = d < dim;
        p->box.origin[d] = used ? origin[d] : 0.0;
        p->box.spacing[d] = used ? length[d] / (double)n[d] : 1.0;
        p->box.n[d] = used ? n[d] : 1;
    }
    /* the period the FFT method's modes have, n (length/n), which may
     * differ from length in the last bit */
    double period[3];
    for (int d = 0; d < 3; d++)
        period[d] = (double)p->box.n[d] * p->box.spacing[d];
    double eps = p->opts.accuracy > 0 ? p->opts.accuracy : p->opts.precision == TBRF_FLOAT ? 1e-6 : 1e-12;
    tbrfi_nufft_setup(&p->nu, dim, p->box.n, p->box.origin, period, eps);
    const double fine = tbrfi_nufft_fine_bytes(&p->nu) * (double)p->ncomp;
    const double coarse = tbrfi_fft_method_bytes(dim, &p->box);
    const double budget = memory_budget();
    if (!(budget > 0.0))
        return fail(p, TBRF_ERR_INVALID, "TBRF_MEMORY_BUDGET='%.40s' is not a size in bytes (such as "
                    "4G or 512M)", getenv("TBRF_MEMORY_BUDGET"));
    if (fine + coarse > budget)
        return fail(p, TBRF_ERR_SIZE, "periodic box %lld x %lld x %lld: the oversampled grid%s "
                    "(%lld x %lld x %lld) would need %.3g MiB, more than the memory budget of "
                    "%.3g MiB (set TBRF_MEMORY_BUDGET to raise it)", (long long)p->box.n[0],
                    (long long)p->box.n[1], (long long)p->box.n[2], p->ncomp > 1 ? "s" : "",
                    (long long)p->nu.N[0], (long long)p->nu.N[1], (long long)p->nu.N[2],
                    (fine + coarse) / 1048576.0, budget / 1048576.0);
    p->nslots = 2.0 * fine + coarse <= budget ? PERIODIC_SLOTS : 1;
    p->box_variance = tbrfi_fft_method_variance(p->model, dim, &p->box);
    return TBRF_OK;
}

int tbrf_make_periodic_plan(const tbrf_model *model, int dim, const double origin[3],
                            const double length[3], const int64_t n[3], uint64_t seed,
                            const tbrf_opts *opts, tbrf_plan **plan)
{
    if (!plan)
        return TBRF_ERR_NULL;
    tbrf_plan *p = calloc(1, sizeof *p);
    *plan = p;
    if (!p)
        return TBRF_ERR_NO_MEMORY;
    int st = periodic_setup(p, model, dim, origin, length, n, seed, opts);
    if (st)
        p->broken = 1;
    return st;
}

void tbrf_destroy(tbrf_plan *p)
{
    if (!p)
        return;
    for (int i = 0; i < PERIODIC_SLOTS; i++)
        for (int c = 0; c < 3; c++)
            fftw_free(p->slot[i].u[c]);
    for (int i = 0; i < LINE_SLOTS; i++) {
        free(p->lslot[i].vlines);
        free(p->lslot[i].amp);
        free(p->lslot[i].lines);
        free(p->lslot[i].axis);
    }
    if (p->backend)
        p->backend->release(p->backend_state);
    tbrfi_lines_fft_destroy(p->fft);
    tbrfi_lines_spec_free(&p->spec);
    tbrf_model_destroy(p->model);
    free(p);
}

static int inside(const tbrf_plan *p, int d, double x)
{
    return x >= p->lo[d] - p->tolerance && x <= p->hi[d] + p->tolerance;
}

/* The whole grid of a (sub-)grid geometry: what the FFT method transforms. */
static grid_geom full_grid(const grid_geom *g)
{
    grid_geom f = *g;
    for (int d = 0; d < 3; d++) {
        f.n[d] = g->full[d];
        f.start[d] = 0;
    }
    return f;
}

/* The sub-box start .. start + count - 1 of the global grid n: within it,
 * non-empty, and 2D boxes flat; else a failure status with its message. */
static int check_box(tbrf_plan *p, const int64_t n[3], const int64_t start[3], const int64_t count[3])
{
    for (int d = 0; d < 3; d++) {
        if (d == 2 && p->dim == 2) {
            if (start[2] != 0 || count[2] != 1)
                return fail(p, TBRF_ERR_SIZE, "set_subgrid: 2D grid: start[2] = %lld and count[2] = %lld "
                            "must be 0 and 1", (long long)start[2], (long long)count[2]);
            continue;
        }
        if (count[d] < 1 || start[d] < 0 || start[d] >= n[d] || count[d] > n[d] - start[d])
            return fail(p, TBRF_ERR_SIZE, "set_subgrid: axis %d: cells %lld .. %lld + %lld - 1 are not "
                        "a non-empty range of the grid's %lld", d, (long long)start[d],
                        (long long)start[d], (long long)count[d], (long long)n[d]);
    }
    return TBRF_OK;
}

static int set_grid_box(tbrf_plan *p, const double origin[3], const double spacing[3], const int64_t n[3],
                        const int64_t start[3], const int64_t count[3]);

int tbrf_set_grid(tbrf_plan *p, const double origin[3], const double spacing[3], const int64_t n[3])
{
    if (!p)
        return TBRF_ERR_NULL;
    if (begin(p))
        return p->msg.status;
    if (!origin || !spacing || !n)
        return fail(p, TBRF_ERR_NULL, "set_grid: origin, spacing or n is NULL");
    const int64_t zero[3] = {0, 0, 0};
    return set_grid_box(p, origin, spacing, n, zero, n);
}

int tbrf_set_subgrid(tbrf_plan *p, const double origin[3], const double spacing[3], const int64_t n[3],
                     const int64_t start[3], const int64_t count[3])
{
    if (!p)
        return TBRF_ERR_NULL;
    if (begin(p))
        return p->msg.status;
    if (!origin || !spacing || !n || !start || !count)
        return fail(p, TBRF_ERR_NULL, "set_subgrid: origin, spacing, n, start or count is NULL");
    return set_grid_box(p, origin, spacing, n, start, count);
}

/* set_grid and set_subgrid: the box start .. start + count - 1 of the grid
 * (origin, spacing, n); the whole grid when start = 0 and count = n. */
static int set_grid_box(tbrf_plan *p, const double origin[3], const double spacing[3], const int64_t n[3],
                        const int64_t start[3], const int64_t count[3])
{
    p->geom = GEOM_NONE;
    for (int d = 0; d < p->dim; d++) {
        if (n[d] < 1)
            return fail(p, TBRF_ERR_SIZE, "grid count n[%d] = %lld: must be >= 1", d, (long long)n[d]);
        if (!isfinite(origin[d]))
            return fail(p, TBRF_ERR_INVALID, "grid origin[%d] = %g is not finite", d, origin[d]);
        if (!isfinite(spacing[d]) || spacing[d] <= 0.0)
            return fail(p, TBRF_ERR_INVALID, "grid spacing[%d] = %g: must be finite and > 0", d, spacing[d]);
    }
    if (p->dim == 2 && n[2] != 1)
        return fail(p, TBRF_ERR_SIZE, "2D grid: n[2] = %lld must be 1", (long long)n[2]);
    if (p->dim == 3 && n[2] < 1)
        return fail(p, TBRF_ERR_SIZE, "grid count n[2] = %lld: must be >= 1", (long long)n[2]);
    if (n[0] > INT64_MAX / n[1] || n[0] * n[1] > INT64_MAX / n[2])
        return fail(p, TBRF_ERR_SIZE, "grid %lld x %lld x %lld: the cell count overflows 64 bits",
                    (long long)n[0], (long long)n[1], (long long)n[2]);
    if (check_box(p, n, start, count))
        return p->msg.status;
    for (int d = 0; d < p->dim && !p->periodic_box; d++) {
        /* the box's own extent: a rank's sub-box needs only its part inside */
        double beg = origin[d] + spacing[d] * (double)start[d];
        double end = origin[d] + spacing[d] * (double)(start[d] + count[d] - 1);
        if (!inside(p, d, beg) || !inside(p, d, end))
            return fail(p, TBRF_ERR_OUT_OF_DOMAIN,
                        "grid axis %d spans [%.17g, %.17g], outside the plan's domain [%.17g, %.17g]",
                        d, beg, end, p->lo[d], p->hi[d]);
    }
    for (int d = 0; d < 3; d++) {
        int used = d < p->dim;
        p->grid.origin[d] = used ? origin[d] : 0.0;
        p->grid.spacing[d] = used ? spacing[d] : 1.0;
        p->grid.n[d] = used ? count[d] : 1;
        p->grid.start[d] = used ? start[d] : 0;
        p->grid.full[d] = used ? n[d] : 1;
    }
    const grid_geom whole = full_grid(&p->grid);
    p->fft_run = 0;
    p->nufft_run = 0;
    if (p->periodic_box) {
        /* the box lattice (any origin: the FFT method's field is a function
         * of absolute position) runs the FFT method, anything else the NUFFT */
        int lattice = 1;
        for (int d = 0; d < p->dim; d++)
            lattice &= n[d] == p->box.n[d] && spacing[d] == p->box.spacing[d];
        p->fft_run = lattice;
        p->nufft_run = !lattice;
        if (lattice)
            p->fft_variance = p->box_variance;
    } else if (p->opts.method != TBRF_METHOD_TB) {
        /* FFT: always when asked for; AUTO: for a periodic grid whose
         * transform fits in half the physical memory. */
        double mem = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
        double limit = p->opts.method == TBRF_METHOD_FFT ? 1e300 : (mem > 0 ? 0.5 * mem : 0.0);
        int fits = tbrfi_fft_method_fits(p->dim, &whole, limit);
        if (p->opts.method == TBRF_METHOD_FFT && !fits)
            return fail(p, TBRF_ERR_SIZE, "FFT method: grid %lld x %lld x %lld is too large for one "
                        "transform (at most 2^20 modes per axis and int sizes)", (long long)n[0],
                        (long long)n[1], (long long)(p->dim == 3 ? n[2] : 1));
        p->fft_run = p->opts.method == TBRF_METHOD_FFT || (p->opts.periodic && fits);
        if (p->fft_run)
            p->fft_variance = tbrfi_fft_method_variance(p->model, p->dim, &whole);
    }
    p->geom = GEOM_GRID;
    return TBRF_OK;
}

/* The index of the first point outside the domain or with a NaN
 * coordinate, or -1. */
static int64_t first_bad_point(const tbrf_plan *p, int64_t n, const double *xyz)
{
    for (int64_t i = 0; i < n; i++)
        for (int d = 0; d < p->dim; d++) {
            const double x = xyz[(size_t)p->dim * (size_t)i + (size_t)d];
            if (p->periodic_box ? !isfinite(x) : !inside(p, d, x))
                return i;
        }
    return -1;
}

static int bad_point(tbrf_plan *p, int64_t index, const double *x)
{
    if (p->periodic_box) /* positions wrap into the box: only non-finite ones are bad */
        return fail(p, TBRF_ERR_INVALID, "point %lld has a coordinate that is not finite "
                    "(%g, %g, %g)", (long long)index, x[0], x[1], p->dim == 3 ? x[2] : 0.0);
    if (p->dim == 3)
        return fail(p, TBRF_ERR_OUT_OF_DOMAIN,
                    "point %lld at (%.17g, %.17g, %.17g) lies outside the domain "
                    "[%g, %g] x [%g, %g] x [%g, %g] (or is NaN)",
                    (long long)index, x[0], x[1], x[2], p->lo[0], p->hi[0], p->lo[1], p->hi[1],
                    p->lo[2], p->hi[2]);
    return fail(p, TBRF_ERR_OUT_OF_DOMAIN,
                "point %lld at (%.17g, %.17g) lies outside the domain [%g, %g] x [%g, %g] (or is NaN)",
                (long long)index, x[0], x[1], p->lo[0], p->hi[0], p->lo[1], p->hi[1]);
}

int tbrf_set_points(tbrf_plan *p, int64_t n, const double *xyz)
{
    if (!p)
        return TBRF_ERR_NULL;
    if (begin(p))
        return p->msg.status;
    p->geom = GEOM_NONE;
    if (n < 0)
        return fail(p, TBRF_ERR_SIZE, "set_points: n = %lld is negative", (long long)n);
    if (n > 0 && !xyz)
        return fail(p, TBRF_ERR_NULL, "set_points: xyz is NULL");
    if (p->opts.method == TBRF_METHOD_FFT && !p->periodic_box)
        return fail(p, TBRF_ERR_UNSUPPORTED, "set_points: the FFT method needs a regular grid "
                    "(use method TB or AUTO for points, or tbrf_make_periodic_plan)");
    int64_t bad = first_bad_point(p, n, xyz);
    if (bad >= 0)
        return bad_point(p, bad, xyz + (size_t)p->dim * (size_t)bad);
    p->npoints = n;
    p->xyz = xyz;
    p->geom = GEOM_POINTS;
    return TBRF_OK;
}

int64_t tbrf_plan_count(const tbrf_plan *p)
{
    if (!p || p->broken)
        return 0;
    if (p->geom == GEOM_GRID)
        return p->grid.n[0] * p->grid.n[1] * p->grid.n[2];
    if (p->geom == GEOM_POINTS)
        return p->npoints;
    return 0;
}

/* Allocates slot i's line set like slot 0's; 0 on success. */
static int line_slot_alloc(tbrf_plan *p, struct line_slot *sl)
{
    const size_t bytes = sizeof(double) * (size_t)p->opts.lines * (size_t)p->spec.M;
    sl->lines = malloc(bytes);
    sl->axis = malloc(sizeof(double) * 4 * (size_t)p->opts.lines);
    if (p->opts.vector) {
        sl->vlines = malloc(bytes * (size_t)p->ncomp);
        sl->amp = malloc(sizeof(double) * 3 * (size_t)p->opts.lines);
    }
    if (sl->lines && sl->axis && (!p->opts.vector || (sl->vlines && sl->amp)))
        return 0;
    free(sl->lines);
    free(sl->axis);
    free(sl->vlines);
    free(sl->amp);
    memset(sl, 0, sizeof *sl);
    return -1;
}

static void use_slot(tbrf_plan *p, int i)
{
    struct line_slot *sl = &p->lslot[i];
    p->cur = i;
    p->lines = sl->lines;
    p->axis = sl->axis;
    p->vlines = sl->vlines;
    p->amp = sl->amp;
    p->generation = sl->generation;
    p->cached_realization = sl->realization;
    sl->used = ++p->clock;
}

/* Synthesises the lines of realization r unless they are already there:
 * a moving mesh re-evaluated at the same realization pays only the
 * projection, and alternating realizations (or components, whose weighted
 * lines are kept with them) keep two line sets when they fit. */
static int ensure_lines(tbrf_plan *p, uint64_t r)
{
    for (int i = 0; i < LINE_SLOTS; i++)
        if (p->lslot[i].valid && p->lslot[i].realization == r) {
            use_slot(p, i);
            return TBRF_OK;
        }
    if (!p->lslot[0].lines) /* a method-FFT plan: callers never get here */
        return fail(p, TBRF_ERR_UNSUPPORTED, "the FFT method's plan holds no lines");
    int seen = 0;
    for (uint64_t i = 0; i < p->nrecent && i < 4; i++)
        seen |= p->recent[i] == r;
    /* the slot to fill: an empty allocated one, or a second one when r
     * comes back and two sets fit the budget, else the least recent */
    int target = -1;
    for (int i = 0; i < LINE_SLOTS && target < 0; i++)
        if (p->lslot[i].lines && !p->lslot[i].valid)
            target = i;
    if (target < 0 && seen && !p->lslot[1].lines) {
        const double set = 8.0 * (double)p->opts.lines * (double)p->spec.M * (double)(1 + (p->opts.vector ? p->ncomp : 0));
        if (2.0 * set <= memory_budget() && line_slot_alloc(p, &p->lslot[1]) == 0)
            target = 1;
    }
    if (target < 0) {
        target = 0;
        for (int i = 1; i < LINE_SLOTS; i++)
            if (p->lslot[i].lines && p->lslot[i].used < p->lslot[target].used)
                target = i;
    }
    struct line_slot *sl = &p->lslot[target];
    sl->valid = 0;
    p->have_lines = 1;
    const int L = p->opts.lines;
    tbrfi_directions_make(p->dim, L, p->seed, r, sl->axis);
    for (int i = 0; i < 3 * L; i++)
        sl->axis[i] /= p->spec.delta;
    tbrfi_lines_shifts(p->seed, r, L, sl->axis + 3 * L);
    int st = tbrfi_lines_synthesize(&p->spec, p->fft, p->seed, r, L, p->opts.threads, sl->lines);
    if (st)
        return fail(p, st, "no memory for the line synthesis buffers");
    if (p->opts.vector) {
        tbrfi_vector_amplitudes(p->dim, L, sl->axis, p->seed, r, p->zeta, sl->amp);
        tbrfi_vector_weight_lines(p->ncomp, L, p->spec.M, sl->lines, sl->amp, p->opts.threads, sl->vlines);
    }
    /* a new generation for every synthesis: GPU backends re-upload on it */
    sl->generation = ++p->gen_counter;
    sl->valid = 1;
    sl->realization = r;
    if (!seen) /* a ring of the last four: the oldest is overwritten */
        p->recent[p->nrecent++ % 4] = r;
    use_slot(p, target);
    return TBRF_OK;
}

static projection make_projection(const tbrf_plan *p)
{
    projection pr;
    pr.dim = p->dim;
    pr.L = p->opts.lines;
    pr.M = p->spec.M;
    pr.lines = p->lines;
    pr.axis = p->axis;
    pr.offset = p->spec.offset;
    for (int d = 0; d < 3; d++)
        pr.center[d] = p->center[d];
    pr.norm = 1.0 / sqrt((double)p->opts.lines);
    pr.precision = p->opts.precision;
    pr.threads = p->opts.threads;
    pr.state = p->backend_state;
    pr.generation = p->generation;
    return pr;
}

/* A backend's project call failed: its own detail when it has one. */
static int projection_failed(tbrf_plan *p, int st)
{
    const char *detail = p->backend->message(p->backend_state);
    if (detail && *detail)
        return fail(p, st, "%s projection failed: %s: %s", p->backend->name, tbrf_strerror(st), detail);
    return fail(p, st, "%s projection failed: %s", p->backend->name, tbrf_strerror(st));
}

static size_t value_size(const tbrf_plan *p)
{
    return p->opts.precision == TBRF_FLOAT ? sizeof(float) : sizeof(double);
}

/* Turning-bands projection of n grid cells from `first` on (xyz NULL) or
 * of n points. A vector field projects each component's weighted lines
 * with the unchanged scalar kernels, under a generation of its own (GPU
 * backends re-upload lines when it changes), then interleaves. */
static int project(tbrf_plan *p, projection *pr, int points, int64_t first, int64_t n,
                   const double *xyz, void *values)
{
    if (p->ncomp == 1) {
        int st = points ? p->backend->project_points(pr, n, xyz, values)
                     : p->backend->project_grid(pr, &p->grid, first, n, values);
        return st ? projection_failed(p, st) : TBRF_OK;
    }
    const size_t vs = value_size(p);
    char *tmp = malloc(vs * (size_t)(n > 0 ? n : 1));
    if (!tmp)
        return fail(p, TBRF_ERR_NO_MEMORY, "no memory for a component of %lld values", (long long)n);
    projection pc = *pr;
    for (int c = 0; c < p->ncomp; c++) {
        pc.lines = p->vlines + (size_t)c * (size_t)p->opts.lines * (size_t)p->spec.M;
        pc.generation = pr->generation * 4 + (uint64_t)c + 1;
        int st = points ? p->backend->project_points(&pc, n, xyz, tmp)
                     : p->backend->project_grid(&pc, &p->grid, first, n, tmp);
        if (st) {
            free(tmp);
            return projection_failed(p, st);
        }
        for (int64_t i = 0; i < n; i++)
            memcpy((char *)values + ((size_t)i * (size_t)p->ncomp + (size_t)c) * vs, tmp + (size_t)i * vs, vs);
    }
    free(tmp);
    return TBRF_OK;
}

static int project_grid(tbrf_plan *p, projection *pr, int64_t first, int64_t count, void *values)
{
    return project(p, pr, 0, first, count, NULL, values);
}

static int project_points(tbrf_plan *p, projection *pr, int64_t n, const double *xyz, void *values)
{
    return project(p, pr, 1, 0, n, xyz, values);
}

/* Bytes of one point's values (dim of them for a vector field). */
static size_t point_size(const tbrf_plan *p)
{
    return value_size(p) * (size_t)p->ncomp;
}

/* The fine grids of realization r of a periodic plan, from the cache or
 * made now into the least recently used slot. */
static int ensure_fine(tbrf_plan *p, uint64_t r, double *const **u)
{
    struct fine_slot *use = NULL;
    for (int i = 0; i < p->nslots; i++)
        if (p->slot[i].valid && p->slot[i].realization == r)
            use = &p->slot[i];
    if (!use) {
        use = &p->slot[0];
        for (int i = 1; i < p->nslots; i++)
            if (!p->slot[i].valid || (use->valid && p->slot[i].used < use->used))
                use = &p->slot[i];
        use->valid = 0;
        for (int c = 0; c < p->ncomp; c++)
            if (!use->u[c] && !(use->u[c] = tbrfi_nufft_fine_alloc(&p->nu)))
                return fail(p, TBRF_ERR_NO_MEMORY, "no memory for the %.3g MiB oversampled grid",
                            tbrfi_nufft_fine_bytes(&p->nu) / 1048576.0);
        const grid_geom *b = &p->box;
        fftw_complex *C = fftw_malloc((size_t)tbrfi_fft_method_bytes(p->dim, b));
        if (!C)
            return fail(p, TBRF_ERR_NO_MEMORY, "no memory for the %.3g MiB box modes",
                        tbrfi_fft_method_bytes(p->dim, b) / 1048576.0);
        int st = TBRF_OK;
        for (int c = 0; c < p->ncomp && !st; c++) {
            st = tbrfi_fft_method_modes(p->model, p->dim, b, p->seed, r, p->opts.threads, p->zeta,
                                        p->opts.vector ? c : -1, 0, C);
            if (!st)
                st = tbrfi_nufft_fine(&p->nu, C, p->opts.threads, use->u[c]);
        }
        fftw_free(C);
        if (st == TBRF_ERR_FFT)
            return fail(p, st, "NUFFT: FFTW could not plan the oversampled transform");
        if (st)
            return fail(p, st, "NUFFT: no memory for the mode synthesis");
        use->valid = 1;
        use->realization = r;
    }
    use->used = ++p->clock;
    *u = use->u;
    return TBRF_OK;
}

static int check_realization(tbrf_plan *p, uint64_t r)
{
    if (p->opts.vector && r >= MAX_VECTOR_REALIZATION)
        return fail(p, TBRF_ERR_INVALID, "realization %llu: a vector field's realizations must be "
                    "below 2^62", (unsigned long long)r);
    return TBRF_OK;
}

static int is_subgrid(const grid_geom *g)
{
    for (int d = 0; d < 3; d++)
        if (g->start[d] != 0 || g->n[d] != g->full[d])
            return 1;
    return 0;
}

/* The plan's status and message for what the FFT method on grid g
 * returned (TBRF_OK, TBRF_ERR_NO_MEMORY or TBRF_ERR_FFT). */
static int fft_status(tbrf_plan *p, int st, const grid_geom *g)
{
    if (st == TBRF_ERR_NO_MEMORY)
        return fail(p, st, "FFT method: no memory for the %.3g GiB transform",
                    tbrfi_fft_method_bytes(p->dim, g) / 1073741824.0);
    if (st)
        return fail(p, st, "FFT method: FFTW could not plan the transform");
    return TBRF_OK;
}

/* The FFT method on the current grid (methods/fft/fft.c). A sub-box is
 * cut out of the whole grid's transform: the transform mixes every cell,
 * and only the whole one gives the whole grid's bits (each caller then
 * holds the whole field once; doc/decomposition.md). */
static int fft_execute(tbrf_plan *p, uint64_t realization, void *values)
{
    const grid_geom whole = full_grid(&p->grid);
    const int sub = is_subgrid(&p->grid);
    const size_t ps = point_size(p);
    void *all = values;
    if (sub && !(all = malloc(ps * (size_t)(whole.n[0] * whole.n[1] * whole.n[2]))))
        return fail(p, TBRF_ERR_NO_MEMORY, "FFT method: no memory for the whole %lld x %lld x %lld "
                    "field a sub-grid is cut from", (long long)whole.n[0], (long long)whole.n[1],
                    (long long)whole.n[2]);
    int st = tbrfi_fft_method_generate(p->model, p->dim, &whole, p->seed, realization, p->opts.threads,
                                 p->opts.precision, p->opts.vector, p->zeta, all);
    if (sub && !st) {
        const grid_geom *g = &p->grid;
        const size_t row = ps * (size_t)g->n[0];
        for (int64_t k = 0; k < g->n[2]; k++)
            for (int64_t j = 0; j < g->n[1]; j++) {
                const int64_t from = ((g->start[2] + k) * whole.n[1] + g->start[1] + j) * whole.n[0] + g->start[0];
                memcpy((char *)values + row * (size_t)(k * g->n[1] + j), (const char *)all + ps * (size_t)from,
                       row);
            }
    }
    if (sub)
        free(all);
    return fft_status(p, st, &whole);
}

int tbrf_execute(tbrf_plan *p, uint64_t realization, void *values)
{
    if (!p)
        return TBRF_ERR_NULL;
    if (begin(p))
        return p->msg.status;
    if (p->geom == GEOM_NONE)
        return fail(p, TBRF_ERR_NO_GEOMETRY, "execute: call tbrf_set_grid or tbrf_set_points first");
    int64_t count = tbrf_plan_count(p);
    if (count > 0 && !values)
        return fail(p, TBRF_ERR_NULL, "execute: values is NULL");
    if (p->geom == GEOM_POINTS) {
        /* The caller may have moved the points since set_points. */
        int64_t bad = first_bad_point(p, p->npoints, p->xyz);
        if (bad >= 0)
            return bad_point(p, bad, p->xyz + (size_t)p->dim * (size_t)bad);
    }
    if (check_realization(p, realization))
        return p->msg.status;
    if (p->geom == GEOM_GRID && p->fft_run)
        return fft_execute(p, realization, values);
    if (p->periodic_box) {
        double *const *u;
        if (ensure_fine(p, realization, &u))
            return p->msg.status;
        if (p->geom == GEOM_GRID)
            tbrfi_nufft_interp_grid(&p->nu, u, p->ncomp, p->grid.origin, p->grid.spacing, p->grid.n,
                                    p->grid.start, 0, count, p->opts.precision, p->opts.threads, values);
        else
            tbrfi_nufft_interp(&p->nu, u, p->ncomp, p->npoints, p->xyz, p->opts.precision,
                               p->opts.threads, values);
        return TBRF_OK;
    }
    int st = ensure_lines(p, realization);
    if (st)
        return st;
    projection pr = make_projection(p);
    if (p->geom == GEOM_GRID)
        return project_grid(p, &pr, 0, count, values);
    return project_points(p, &pr, p->npoints, p->xyz, values);
}

int tbrf_execute_stream(tbrf_plan *p, uint64_t realization, tbrf_pull_fn pull, tbrf_push_fn push,
                        void *user)
{
    if (!p)
        return TBRF_ERR_NULL;
    if (begin(p))
        return p->msg.status;
    if (!pull || !push)
        return fail(p, TBRF_ERR_NULL, "execute_stream: pull or push callback is NULL");
    if (p->opts.method == TBRF_METHOD_FFT && !p->periodic_box)
        return fail(p, TBRF_ERR_UNSUPPORTED, "execute_stream: the FFT method needs a regular grid "
                    "(use method TB or AUTO for points, or tbrf_make_periodic_plan)");
    if (check_realization(p, realization))
        return p->msg.status;
    int64_t chunk = p->opts.chunk > 0 ? p->opts.chunk : AUTO_CHUNK_POINTS;
    if ((double)chunk * (double)(p->dim * sizeof(double) + point_size(p)) > 1e12)
        return fail(p, TBRF_ERR_SIZE, "opts.chunk = %lld points is too large to buffer", (long long)chunk);
    double *const *u = NULL;
    int st = p->periodic_box ? ensure_fine(p, realization, &u) : ensure_lines(p, realization);
    if (st)
        return st;
    double *xyz = malloc(sizeof(double) * (size_t)p->dim * (size_t)chunk);
    void *values = malloc(point_size(p) * (size_t)chunk);
    if (!xyz || !values) {
        free(xyz);
        free(values);
        return fail(p, TBRF_ERR_NO_MEMORY, "no memory for a chunk of %lld points", (long long)chunk);
    }
    projection pr = make_projection(p);
    for (int64_t first = 0;; ) {
        int64_t count = -1;
        int rc = pull(user, first, chunk, xyz, &count);
        if (rc) {
            st = fail(p, TBRF_ERR_CALLBACK, "pull callback returned %d at point %lld", rc, (long long)first);
            break;
        }
        if (count < 0 || count > chunk) {
            st = fail(p, TBRF_ERR_INVALID, "pull callback gave count %lld (allowed 0..%lld) at point %lld",
                      (long long)count, (long long)chunk, (long long)first);
            break;
        }
        if (count == 0)
            break;
        int64_t bad = first_bad_point(p, count, xyz);
        if (bad >= 0) {
            st = bad_point(p, first + bad, xyz + (size_t)p->dim * (size_t)bad);
            break;
        }
        if (p->periodic_box)
            tbrfi_nufft_interp(&p->nu, u, p->ncomp, count, xyz, p->opts.precision, p->opts.threads, values);
        else
            st = project_points(p, &pr, count, xyz, values);
        if (st)
            break;
        rc = push(user, first, count, values);
        if (rc) {
            st = fail(p, TBRF_ERR_CALLBACK, "push callback returned %d at point %lld", rc, (long long)first);
            break;
        }
        first += count;
    }
    free(xyz);
    free(values);
    return st;
}

int tbrf_execute_grid_stream(tbrf_plan *p, uint64_t realization, tbrf_push_fn push, void *user)
{
    if (!p)
        return TBRF_ERR_NULL;
    if (begin(p))
        return p->msg.status;
    if (!push)
        return fail(p, TBRF_ERR_NULL, "execute_grid_stream: push callback is NULL");
    if (p->geom != GEOM_GRID)
        return fail(p, TBRF_ERR_NO_GEOMETRY, "execute_grid_stream: no grid set (call tbrf_set_grid)");
    if (check_realization(p, realization))
        return p->msg.status;
    const int64_t nx = p->grid.n[0], total = tbrf_plan_count(p);
    const int64_t want = p->opts.chunk > 0 ? p->opts.chunk : AUTO_CHUNK_CELLS;
    const int64_t rows = want / nx > 0 ? want / nx : 1, step = rows * nx;
    if (p->fft_run && !p->opts.vector && !is_subgrid(&p->grid)) {
        /* a scalar field is pushed from the transform's own memory */
        int64_t at = 0;
        int rc = 0;
        int st = tbrfi_fft_method_generate_push(p->model, p->dim, &p->grid, p->seed, realization,
                                                p->opts.threads, p->opts.precision, step, push, user,
                                                &at, &rc);
        if (st == TBRF_ERR_CALLBACK)
            return fail(p, st, "push callback returned %d at cell %lld", rc, (long long)at);
        return fft_status(p, st, &p->grid);
    }
    if (p->fft_run) {
        /* one transform of the whole grid, pushed in chunks of rows */
        void *all = malloc(point_size(p) * (size_t)total);
        if (!all)
            return fail(p, TBRF_ERR_NO_MEMORY, "no memory for the %lld-cell FFT field", (long long)total);
        int st = fft_execute(p, realization, all);
        for (int64_t first = 0; !st && first < total; first += step) {
            int64_t count = total - first < step ? total - first : step;
            int rc = push(user, first, count, (const char *)all + point_size(p) * (size_t)first);
            if (rc)
                st = fail(p, TBRF_ERR_CALLBACK, "push callback returned %d at cell %lld", rc, (long long)first);
        }
        free(all);
        return st;
    }
    if ((double)rows * (double)nx * (double)point_size(p) > 1e12)
        return fail(p, TBRF_ERR_SIZE, "a chunk of %lld rows of %lld cells is too large to buffer",
                    (long long)rows, (long long)nx);
    double *const *u = NULL;
    int st = p->periodic_box ? ensure_fine(p, realization, &u) : ensure_lines(p, realization);
    if (st)
        return st;
    void *values = malloc(point_size(p) * (size_t)(rows * nx));
    if (!values)
        return fail(p, TBRF_ERR_NO_MEMORY, "no memory for a chunk of %lld cells", (long long)(rows * nx));
    projection pr = make_projection(p);
    for (int64_t first = 0; first < total; first += rows * nx) {
        int64_t count = total - first < rows * nx ? total - first : rows * nx;
        if (p->periodic_box)
            tbrfi_nufft_interp_grid(&p->nu, u, p->ncomp, p->grid.origin, p->grid.spacing, p->grid.n,
                                    p->grid.start, first, count, p->opts.precision, p->opts.threads, values);
        else
            st = project_grid(p, &pr, first, count, values);
        if (st)
            break;
        int rc = push(user, first, count, values);
        if (rc) {
            st = fail(p, TBRF_ERR_CALLBACK, "push callback returned %d at cell %lld", rc, (long long)first);
            break;
        }
    }
    free(values);
    return st;
}

int tbrf_plan_get_info(const tbrf_plan *p, tbrf_plan_info *info)
{
    if (!p || !info)
        return TBRF_ERR_NULL;
    if (p->broken)
        return TBRF_ERR_BAD_PLAN;
    memset(info, 0, sizeof *info);
    info->dim = p->dim;
    /* line fields stay 0 for a plan without lines (method FFT) */
    info->lines = p->lines ? p->opts.lines : 0;
    info->line_samples = p->spec.M;
    info->line_spacing = p->spec.delta;
    info->line_length = p->spec.length;
    info->variance = p->variance;
    info->variance_resolved = p->spec.variance_resolved;
    info->amplitude = p->amplitude;
    info->padding = p->spec.padding;
    info->backend = p->backend->id;
    if (p->geom == GEOM_GRID && p->fft_run)
        info->variance_resolved = p->fft_variance;
    if (p->periodic_box)
        info->variance_resolved = p->box_variance;
    return TBRF_OK;
}

int tbrf_plan_method(const tbrf_plan *p)
{
    if (!p || p->broken)
        return -1;
    if (p->periodic_box)
        return p->geom == GEOM_GRID && p->fft_run ? TBRF_METHOD_FFT : TBRF_METHOD_NUFFT;
    if (p->geom == GEOM_GRID)
        return p->fft_run ? TBRF_METHOD_FFT : TBRF_METHOD_TB;
    if (p->geom == GEOM_POINTS)
        return TBRF_METHOD_TB;
    return p->opts.method;
}

int tbrf_plan_status(const tbrf_plan *p)
{
    return p ? p->msg.status : TBRF_ERR_NULL;
}

const char *tbrf_plan_message(const tbrf_plan *p)
{
    return p ? tbrfi_message_text(&p->msg) : "plan is NULL";
}
