/* plan.c — the public plan API: make, set geometry, execute, stream. A
 * façade: a plan holds a turning-bands engine (engine/engine.h: options,
 * backend, frozen model, domain, lines) and a list of candidate methods
 * (plan/method.h); setting a geometry picks the method that runs it, and
 * every execute and stream call goes through that method's table. The
 * chunked loops of the streams are written once here and in method.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan/method.h"

#define AUTO_CHUNK_POINTS 65536
#define AUTO_CHUNK_CELLS (1 << 20)
/* Vector fields draw component c's numbers from realization r + (c+1) 2^62. */
#define MAX_VECTOR_REALIZATION ((uint64_t)1 << 62)

/* the plan's one failure recorder (method.c), shared with the methods */
#define fail tbrfi_plan_fail

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

/* The candidate methods, and the engine with the line storage they need
 * (none for the FFT method, which never projects lines: its plan builds no
 * spec, lines, axis nor FFTW line plan). */
static int setup(tbrf_plan *p, const tbrf_model *model, int dim, const double lo[3],
                 const double hi[3], double resolution, uint64_t seed, const tbrf_opts *opts,
                 const tbrfi_method_args *a)
{
    p->nmethods = tbrfi_methods_for(opts ? opts->method : TBRF_METHOD_TB, a->periodic, p->methods,
                                    &p->idle_method);
    int storage = TBRFI_ENGINE_NONE;
    for (int i = 0; i < p->nmethods; i++)
        storage = p->methods[i]->storage > storage ? p->methods[i]->storage : storage;
    int st = tbrfi_engine_make(model, dim, lo, hi, resolution, seed, opts, storage, &p->engine);
    if (!p->engine)
        return st; /* no memory: the plan's message stays empty */
    p->v = tbrfi_engine_view_of(p->engine);
    if (st) {
        p->msg = *tbrfi_engine_msg(p->engine);
        return st;
    }
    /* in order: a method may compose an earlier candidate's state */
    for (int i = 0; i < p->nmethods && !st; i++)
        st = p->methods[i]->make(p, a, &p->state[i]);
    return st;
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
    const tbrfi_method_args none = {0, NULL, NULL, NULL};
    int st = setup(p, model, dim, lo, hi, resolution, seed, opts, &none);
    if (st)
        p->broken = 1;
    return st;
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
    /* the options a periodic plan reports and is checked with (periodic
     * needs FFT or AUTO); its methods need no lines */
    o.method = TBRF_METHOD_FFT;
    o.periodic = 1;
    const tbrfi_method_args box = {1, origin, length, n};
    return setup(p, model, dim, origin, hi, resolution, seed, &o, &box);
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

int tbrf_set_cancel(tbrf_plan *p, tbrf_cancel_fn cancel, void *user)
{
    if (!p)
        return TBRF_ERR_NULL;
    if (begin(p))
        return p->msg.status;
    tbrfi_engine_set_cancel(p->engine, cancel, user);
    return TBRF_OK;
}

void tbrf_destroy(tbrf_plan *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nmethods; i++)
        p->methods[i]->release(p->state[i]);
    tbrfi_engine_destroy(p->engine);
    free(p);
}

/* No geometry, no method running. */
static void forget_geometry(tbrf_plan *p)
{
    p->geom = GEOM_NONE;
    p->run = NULL;
    p->run_state = NULL;
}

static int inside(const tbrf_plan *p, int d, double x)
{
    return x >= p->v->lo[d] - p->v->tolerance && x <= p->v->hi[d] + p->v->tolerance;
}

/* The sub-box start .. start + count - 1 of the global grid n: within it,
 * non-empty, and 2D boxes flat; else a failure status with its message. */
static int check_box(tbrf_plan *p, const int64_t n[3], const int64_t start[3], const int64_t count[3])
{
    for (int d = 0; d < 3; d++) {
        if (d == 2 && p->v->dim == 2) {
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

/* Lines left to the geometry (opts.lines = 0) are the first geometry's,
 * by tbrf_default_lines: the whole grid n of spacing (a sub-grid's too,
 * so every box of a decomposition draws the same lines), or points (n
 * NULL). Later geometries keep them. */
static int fix_lines(tbrf_plan *p, const int64_t n[3], const double spacing[3])
{
    if (p->v->L > 0 || p->v->storage != TBRFI_ENGINE_LINES)
        return TBRF_OK;
    int32_t lines = 0;
    int st = tbrf_default_lines(p->v->dim, p->v->lo, p->v->hi, p->v->resolution, n, spacing,
                                &p->v->opts, &lines);
    if (st == TBRF_OK)
        st = tbrfi_engine_fix_lines(p->engine, lines);
    if (st) {
        p->msg = *tbrfi_engine_msg(p->engine);
        p->msg.status = st;
    }
    return st;
}

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
    forget_geometry(p);
    for (int d = 0; d < p->v->dim; d++) {
        if (n[d] < 1)
            return fail(p, TBRF_ERR_SIZE, "grid count n[%d] = %lld: must be >= 1", d, (long long)n[d]);
        if (!isfinite(origin[d]))
            return fail(p, TBRF_ERR_INVALID, "grid origin[%d] = %g is not finite", d, origin[d]);
        if (!isfinite(spacing[d]) || spacing[d] <= 0.0)
            return fail(p, TBRF_ERR_INVALID, "grid spacing[%d] = %g: must be finite and > 0", d, spacing[d]);
    }
    if (p->v->dim == 2 && n[2] != 1)
        return fail(p, TBRF_ERR_SIZE, "2D grid: n[2] = %lld must be 1", (long long)n[2]);
    if (p->v->dim == 3 && n[2] < 1)
        return fail(p, TBRF_ERR_SIZE, "grid count n[2] = %lld: must be >= 1", (long long)n[2]);
    if (n[0] > INT64_MAX / n[1] || n[0] * n[1] > INT64_MAX / n[2])
        return fail(p, TBRF_ERR_SIZE, "grid %lld x %lld x %lld: the cell count overflows 64 bits",
                    (long long)n[0], (long long)n[1], (long long)n[2]);
    if (check_box(p, n, start, count))
        return p->msg.status;
    for (int d = 0; d < p->v->dim && !p->methods[0]->wraps; d++) {
        /* the box's own extent: a rank's sub-box needs only its part inside */
        double beg = origin[d] + spacing[d] * (double)start[d];
        double end = origin[d] + spacing[d] * (double)(start[d] + count[d] - 1);
        if (!inside(p, d, beg) || !inside(p, d, end))
            return fail(p, TBRF_ERR_OUT_OF_DOMAIN,
                        "grid axis %d spans [%.17g, %.17g], outside the plan's domain [%.17g, %.17g]",
                        d, beg, end, p->v->lo[d], p->v->hi[d]);
    }
    if (fix_lines(p, n, spacing))
        return p->msg.status;
    for (int d = 0; d < 3; d++) {
        int used = d < p->v->dim;
        p->grid.origin[d] = used ? origin[d] : 0.0;
        p->grid.spacing[d] = used ? spacing[d] : 1.0;
        p->grid.n[d] = used ? count[d] : 1;
        p->grid.start[d] = used ? start[d] : 0;
        p->grid.full[d] = used ? n[d] : 1;
    }
    const grid_geom whole = tbrfi_plan_whole(&p->grid);
    for (int i = 0; i < p->nmethods; i++) {
        int runs = 0, st = p->methods[i]->grid(p, p->state[i], &whole, &runs);
        if (st)
            return st;
        if (runs) {
            p->run = p->methods[i];
            p->run_state = p->state[i];
            break;
        }
    }
    p->geom = GEOM_GRID;
    return TBRF_OK;
}

/* The index of the first point outside the domain or with a NaN
 * coordinate, or -1. */
static int64_t first_bad_point(const tbrf_plan *p, int64_t n, const double *xyz)
{
    for (int64_t i = 0; i < n; i++)
        for (int d = 0; d < p->v->dim; d++) {
            const double x = xyz[(size_t)p->v->dim * (size_t)i + (size_t)d];
            if (p->methods[0]->wraps ? !isfinite(x) : !inside(p, d, x))
                return i;
        }
    return -1;
}

static int bad_point(tbrf_plan *p, int64_t index, const double *x)
{
    if (p->methods[0]->wraps) /* positions wrap into the box: only non-finite ones are bad */
        return fail(p, TBRF_ERR_INVALID, "point %lld has a coordinate that is not finite "
                    "(%g, %g, %g)", (long long)index, x[0], x[1], p->v->dim == 3 ? x[2] : 0.0);
    if (p->v->dim == 3)
        return fail(p, TBRF_ERR_OUT_OF_DOMAIN,
                    "point %lld at (%.17g, %.17g, %.17g) lies outside the domain "
                    "[%g, %g] x [%g, %g] x [%g, %g] (or is NaN)",
                    (long long)index, x[0], x[1], x[2], p->v->lo[0], p->v->hi[0], p->v->lo[1], p->v->hi[1],
                    p->v->lo[2], p->v->hi[2]);
    return fail(p, TBRF_ERR_OUT_OF_DOMAIN,
                "point %lld at (%.17g, %.17g) lies outside the domain [%g, %g] x [%g, %g] (or is NaN)",
                (long long)index, x[0], x[1], p->v->lo[0], p->v->hi[0], p->v->lo[1], p->v->hi[1]);
}

/* The index of the first candidate that runs points (`caller` names the
 * API call in a refusal's message). */
static int points_method(tbrf_plan *p, const char *caller, int *which)
{
    for (int i = 0; i < p->nmethods; i++) {
        int runs = 0, st = p->methods[i]->points(p, p->state[i], caller, &runs);
        if (st)
            return st;
        if (runs) {
            *which = i;
            return TBRF_OK;
        }
    }
    return fail(p, TBRF_ERR_UNSUPPORTED, "%s: no method of this plan evaluates points", caller);
}

int tbrf_set_points(tbrf_plan *p, int64_t n, const double *xyz)
{
    if (!p)
        return TBRF_ERR_NULL;
    if (begin(p))
        return p->msg.status;
    forget_geometry(p);
    if (n < 0)
        return fail(p, TBRF_ERR_SIZE, "set_points: n = %lld is negative", (long long)n);
    if (n > 0 && !xyz)
        return fail(p, TBRF_ERR_NULL, "set_points: xyz is NULL");
    int m = 0;
    if (points_method(p, "set_points", &m))
        return p->msg.status;
    int64_t bad = first_bad_point(p, n, xyz);
    if (bad >= 0)
        return bad_point(p, bad, xyz + (size_t)p->v->dim * (size_t)bad);
    if (fix_lines(p, NULL, NULL))
        return p->msg.status;
    p->npoints = n;
    p->xyz = xyz;
    p->run = p->methods[m];
    p->run_state = p->state[m];
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

static int check_realization(tbrf_plan *p, uint64_t r)
{
    if (p->v->opts.vector && r >= MAX_VECTOR_REALIZATION)
        return fail(p, TBRF_ERR_INVALID, "realization %llu: a vector field's realizations must be "
                    "below 2^62", (unsigned long long)r);
    return TBRF_OK;
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
            return bad_point(p, bad, p->xyz + (size_t)p->v->dim * (size_t)bad);
    }
    if (check_realization(p, realization))
        return p->msg.status;
    if (p->geom == GEOM_GRID)
        return p->run->execute_grid(p, p->run_state, realization, values);
    int st = p->run->prepare(p, p->run_state, realization);
    return st ? st : p->run->eval_points(p, p->run_state, p->npoints, p->xyz, values);
}

/* The pull-evaluate-push loop of tbrf_execute_stream, on buffers of
 * chunk points. */
static int stream_points(tbrf_plan *p, const method_ops *m, void *self, int64_t chunk, double *xyz, void *values,
                         tbrf_pull_fn pull, tbrf_push_fn push, void *user)
{
    for (int64_t first = 0;;) {
        int64_t count = -1;
        int rc = pull(user, first, chunk, xyz, &count);
        if (rc)
            return fail(p, TBRF_ERR_CALLBACK, "pull callback returned %d at point %lld", rc, (long long)first);
        if (count < 0 || count > chunk)
            return fail(p, TBRF_ERR_INVALID, "pull callback gave count %lld (allowed 0..%lld) at point %lld",
                        (long long)count, (long long)chunk, (long long)first);
        if (count == 0)
            return TBRF_OK;
        int64_t bad = first_bad_point(p, count, xyz);
        if (bad >= 0)
            return bad_point(p, first + bad, xyz + (size_t)p->v->dim * (size_t)bad);
        int st = m->eval_points(p, self, count, xyz, values);
        if (st)
            return st;
        rc = push(user, first, count, values);
        if (rc)
            return fail(p, TBRF_ERR_CALLBACK, "push callback returned %d at point %lld", rc, (long long)first);
        first += count;
    }
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
    int which = 0;
    if (points_method(p, "execute_stream", &which))
        return p->msg.status;
    const method_ops *m = p->methods[which];
    void *self = p->state[which];
    if (check_realization(p, realization) || fix_lines(p, NULL, NULL))
        return p->msg.status;
    int64_t chunk = p->v->opts.chunk > 0 ? p->v->opts.chunk : AUTO_CHUNK_POINTS;
    const size_t ps = tbrfi_plan_point_size(p);
    if ((double)chunk * (double)(p->v->dim * sizeof(double) + ps) > 1e12)
        return fail(p, TBRF_ERR_SIZE, "opts.chunk = %lld points is too large to buffer", (long long)chunk);
    int st = m->prepare(p, self, realization);
    if (st)
        return st;
    double *xyz = malloc(sizeof(double) * (size_t)p->v->dim * (size_t)chunk);
    void *values = malloc(ps * (size_t)chunk);
    if (!xyz || !values)
        st = fail(p, TBRF_ERR_NO_MEMORY, "no memory for a chunk of %lld points", (long long)chunk);
    else
        st = stream_points(p, m, self, chunk, xyz, values, pull, push, user);
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
    /* pieces of whole rows, about opts.chunk cells */
    const int64_t nx = p->grid.n[0];
    const int64_t want = p->v->opts.chunk > 0 ? p->v->opts.chunk : AUTO_CHUNK_CELLS;
    const int64_t rows = want / nx > 0 ? want / nx : 1;
    return p->run->stream_grid(p, p->run_state, realization, rows * nx, push, user);
}

int tbrf_plan_get_info(const tbrf_plan *p, tbrf_plan_info *info)
{
    if (!p || !info)
        return TBRF_ERR_NULL;
    if (p->broken)
        return TBRF_ERR_BAD_PLAN;
    memset(info, 0, sizeof *info);
    info->dim = p->v->dim;
    /* line fields stay 0 for a plan without lines (method FFT) */
    info->lines = tbrfi_engine_has_lines(p->engine) ? p->v->opts.lines : 0;
    info->line_samples = p->v->spec.M;
    info->line_spacing = p->v->spec.delta;
    info->line_length = p->v->spec.length;
    info->variance = p->v->variance;
    info->amplitude = p->v->amplitude;
    info->padding = p->v->spec.padding;
    info->backend = p->v->backend->id;
    /* the running method's, else the last candidate's (turning bands, or
     * the periodic plan's NUFFT) */
    const int last = p->nmethods - 1;
    info->variance_resolved = p->run ? p->run->variance(p, p->run_state)
                                     : p->methods[last]->variance(p, p->state[last]);
    return TBRF_OK;
}

int tbrf_plan_method(const tbrf_plan *p)
{
    if (!p || p->broken)
        return -1;
    return p->run ? p->run->id : p->idle_method;
}

int tbrf_plan_status(const tbrf_plan *p)
{
    return p ? p->msg.status : TBRF_ERR_NULL;
}

const char *tbrf_plan_message(const tbrf_plan *p)
{
    return p ? tbrfi_message_text(&p->msg) : "plan is NULL";
}
