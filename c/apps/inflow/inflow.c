/* inflow.c — the inflow-boundary sampler (tbrf_inflow_*, doc/streaming.md,
 * "Inflow boundaries").
 *
 * A wind carries a frozen field through a tube [lo, hi]; each step the
 * caller's ghost cells get the field at x - v t. The field is the one a
 * plan made with the same arguments gives: the sampler holds the same
 * turning-bands engine a plan holds (c/engine/engine.h, same line
 * sizing, directions, shifts and modes), made without line storage, and of
 * every line keeps only the window that the tube reaches. A plan sizes all its lines for the
 * tube's diagonal, twice over (Lambda >= 2 diagonal + correlation scale, so
 * that wrap-around never correlates distant points); the tube projected on
 * a line's direction u covers only sum_d |u_d| (hi_d - lo_d), which for a
 * long thin tube is about half the diagonal on average over directions.
 * The windows of a 256 x 256 x 10000 tube are a quarter of the plan's
 * lines (doc/benchmarks-log.md, "Inflow sampler").
 *
 * The windows are projected through the engine's backend table
 * (backend_ops.project_windows; the engine's backend is always the CPU's,
 * the GPUs' slot answers TBRF_ERR_UNSUPPORTED). Each value is computed
 * exactly as the CPU backend's point kernels do
 * (t = fma(dz, az, fma(dy, ay, dx ax)) + (offset + shift), linear
 * interpolation by fma, lines summed in order 0..L-1, times 1/sqrt(L)), so
 * with double windows a value is bitwise tbrf_execute's at the same
 * position. */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/ic/ic_internal.h"
#include "core/message.h"
#include "core/parallel.h"
#include "engine/engine.h"
#include "tbrf.h"

/* Points per tile: a tile's positions and accumulators stay in L1 while
 * every line is applied to them in order (a multiple of 8, the SIMD
 * kernels' step). */
enum { INFLOW_TILE = 512 };
/* Samples of margin beyond each end of a window, for positions that
 * round across a sample boundary (the plan's domain tolerance is already
 * in the window's extent). */
enum { WINDOW_MARGIN = 2 };
/* A grid's tiles: blocks of BX x BY x BZ cells (fill). */
enum { BX = 16, BY = 16, BZ = INFLOW_TILE / (BX * BY) };

struct tbrf_inflow {
    int broken;
    tbrfi_message msg; /* the last call's status and message */
    /* Fills only read the sampler, so threads may share it; the message
     * is the one thing they write, under msg_lock (doc/driving.md,
     * "Threads and ranks"). */
    pthread_mutex_t msg_lock;
    int locked; /* msg_lock was made */
    /* The tube and the axes a periodic sampler wraps (tbrf_inflow_create_periodic):
     * positions are checked against [lo, hi] on the other axes only. */
    int dim;
    double lo[3], hi[3], tolerance;
    int wraps[3];
    /* A periodic sampler's field: a periodic plan evaluated off its lattice
     * (NUFFT). A plan runs one call at a time, so fills take fill_lock. */
    tbrf_plan *plan;
    tbrfi_cancel cancel; /* its hook, polled between chunks of positions */
    pthread_mutex_t fill_lock;
    int fill_locked; /* fill_lock was made */
    tbrfi_engine *engine;        /* storage WINDOWS: sizing and FFTW plan, no lines */
    const tbrfi_engine_view *v;
    uint64_t realization;
    double velocity[3];
    int precision;           /* of the line windows */
    tbrf_ic_density_params density; /* the transform of the values (apps/ic) */
    double *axis;            /* 3 L: u_l / delta */
    double *off;             /* L: offset + shift_l */
    int64_t *first, *count, *base; /* per line: first sample kept, how many, and where
                                      sample j of the line is: samples + base[l] + j */
    int64_t nsamples;        /* allocated, the leading pad included */
    int64_t maxcount;        /* the longest window */
    void *samples;
};

static int fail(tbrf_inflow *in, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (in->locked)
        pthread_mutex_lock(&in->msg_lock);
    tbrfi_failv(&in->msg, status, fmt, ap);
    if (in->locked)
        pthread_mutex_unlock(&in->msg_lock);
    va_end(ap);
    return status;
}

static int begin(tbrf_inflow *in)
{
    if (in->locked)
        pthread_mutex_lock(&in->msg_lock);
    if (in->broken) /* the message of the failed create stays */
        in->msg.status = TBRF_ERR_BAD_PLAN;
    else
        tbrfi_message_clear(&in->msg);
    const int st = in->msg.status;
    if (in->locked)
        pthread_mutex_unlock(&in->msg_lock);
    return st;
}

int tbrf_inflow_tube(int dim, const double ghost_lo[3], const double ghost_hi[3],
                     const double velocity[3], double t_end, double lo[3], double hi[3])
{
    if (!ghost_lo || !ghost_hi || !velocity || !lo || !hi)
        return TBRF_ERR_NULL;
    if ((dim != 2 && dim != 3) || !isfinite(t_end) || t_end < 0.0)
        return TBRF_ERR_INVALID;
    for (int d = 0; d < 3; d++) {
        lo[d] = hi[d] = 0.0;
        if (d >= dim)
            continue;
        if (!isfinite(ghost_lo[d]) || !isfinite(ghost_hi[d]) || !isfinite(velocity[d]) ||
            ghost_lo[d] > ghost_hi[d])
            return TBRF_ERR_INVALID;
        const double shift = velocity[d] * t_end;
        const double a = ghost_lo[d] - shift, b = ghost_hi[d] - shift;
        if (!isfinite(a) || !isfinite(b))
            return TBRF_ERR_INVALID;
        lo[d] = fmin(ghost_lo[d], a);
        hi[d] = fmax(ghost_hi[d], b);
    }
    return TBRF_OK;
}

/* The window of line l: every sample an interpolation at a position of
 * the tube (with the plan's tolerance) reads, plus WINDOW_MARGIN. */
static void line_window(const tbrf_inflow *in, int l, int64_t *first, int64_t *count)
{
    const double *a = in->axis + 3 * (size_t)l;
    double tmin = in->off[l], tmax = in->off[l];
    for (int d = 0; d < in->v->dim; d++) {
        const double dlo = (in->v->lo[d] - in->v->tolerance) - in->v->center[d];
        const double dhi = (in->v->hi[d] + in->v->tolerance) - in->v->center[d];
        tmin += fmin(a[d] * dlo, a[d] * dhi);
        tmax += fmax(a[d] * dlo, a[d] * dhi);
    }
    int64_t j0 = (int64_t)floor(tmin) - WINDOW_MARGIN;
    int64_t j1 = (int64_t)floor(tmax) + 1 + WINDOW_MARGIN;
    const int64_t M = in->v->spec.M;
    if (j0 < 0)
        j0 = 0;
    if (j1 > M - 1)
        j1 = M - 1;
    *first = j0;
    *count = j1 - j0 + 1;
}

/* The total samples of the windows (the pad included) allocated within
 * the memory budget, and synthesised. */
static int store_windows(tbrf_inflow *in, int64_t total)
{
    const int L = in->v->L;
    const size_t esize = in->precision == TBRF_FLOAT ? sizeof(float) : sizeof(double);
    const double bytes = (double)total * (double)esize;
    const double budget = tbrfi_engine_memory_budget();
    if (!(budget > 0.0))
        return fail(in, TBRF_ERR_INVALID, "TBRF_MEMORY_BUDGET is not a size in bytes (such as 4G or 512M)");
    if (bytes > budget)
        return fail(in, TBRF_ERR_SIZE, "the line windows of the tube need %.3g MiB, more than the "
                    "memory budget of %.3g MiB (set TBRF_MEMORY_BUDGET, coarsen the resolution or "
                    "shorten the tube)", bytes / 1048576.0, budget / 1048576.0);
    in->nsamples = total;
    in->samples = malloc((size_t)bytes > 0 ? (size_t)bytes : 1);
    if (!in->samples)
        return fail(in, TBRF_ERR_NO_MEMORY, "no memory for %.3g MiB of line windows", bytes / 1048576.0);
    int64_t *at = malloc(sizeof(int64_t) * (size_t)L);
    if (!at)
        return fail(in, TBRF_ERR_NO_MEMORY, "no memory for the tables of %d lines", L);
    for (int l = 0; l < L; l++)
        at[l] = in->base[l] + in->first[l];
    int st = tbrfi_engine_windows(in->engine, in->realization, in->first, in->count, at, in->precision,
                                  in->samples);
    free(at);
    if (st)
        return fail(in, st, "no memory for the line synthesis buffers");
    return TBRF_OK;
}

/* The axes, offsets and windows of the L lines, and their samples of
 * in->realization. */
static int make_windows(tbrf_inflow *in)
{
    const int L = in->v->L;
    in->axis = malloc(sizeof(double) * 4 * (size_t)L);
    in->off = malloc(sizeof(double) * (size_t)L);
    in->first = malloc(sizeof(int64_t) * 3 * (size_t)L);
    if (!in->axis || !in->off || !in->first)
        return fail(in, TBRF_ERR_NO_MEMORY, "no memory for the tables of %d lines", L);
    in->count = in->first + L;
    in->base = in->first + 2 * (size_t)L;
    /* the plan's axes: u/delta, then the shifts */
    tbrfi_engine_axes(in->engine, in->realization, in->axis);
    for (int l = 0; l < L; l++)
        in->off[l] = in->v->spec.offset + in->axis[3 * (size_t)L + l];
    /* Window l is stored at pad + (the windows before it); base[l] = that
     * - first[l], so that samples + base[l] is line l's sample 0 and the
     * CPU kernels index it as they index a whole line. The pad (at most
     * first[0] samples, never touched) keeps every base[l] >= 0. */
    int64_t total = 0, pad = 0;
    for (int l = 0; l < L; l++) {
        line_window(in, l, &in->first[l], &in->count[l]);
        if (in->first[l] - total > pad)
            pad = in->first[l] - total;
        total += in->count[l];
        if (in->count[l] > in->maxcount)
            in->maxcount = in->count[l];
    }
    for (int64_t l = 0, at = pad; l < L; at += in->count[l], l++)
        in->base[l] = at - in->first[l];
    total += pad;
    return store_windows(in, total);
}

static int build(tbrf_inflow *in, const tbrf_model *model, int dim, const double lo[3],
                 const double hi[3], double resolution, uint64_t seed, uint64_t realization,
                 const tbrf_opts *opts, const double velocity[3], int line_precision)
{
    if (!velocity)
        return fail(in, TBRF_ERR_NULL, "velocity is NULL");
    if (line_precision != TBRF_DOUBLE && line_precision != TBRF_FLOAT)
        return fail(in, TBRF_ERR_INVALID, "line_precision = %d: must be TBRF_DOUBLE or TBRF_FLOAT",
                    line_precision);
    for (int d = 0; d < (dim == 2 ? 2 : 3); d++)
        if (!isfinite(velocity[d]))
            return fail(in, TBRF_ERR_INVALID, "velocity component %d = %g: not finite", d, velocity[d]);
    tbrf_opts o;
    tbrf_default_opts(&o);
    if (opts)
        o = *opts;
    if (o.vector != TBRF_SCALAR)
        return fail(in, TBRF_ERR_UNSUPPORTED, "the inflow sampler makes scalar fields (opts.vector = %d)",
                    o.vector);
    if (o.method == TBRF_METHOD_FFT || o.periodic)
        return fail(in, TBRF_ERR_UNSUPPORTED, "the inflow sampler runs turning bands: opts.method FFT "
                    "and opts.periodic are not offered (a tube is not a periodic box)");
    o.backend = TBRF_BACKEND_CPU;
    o.method = TBRF_METHOD_TB;
    int st = tbrfi_engine_make(model, dim, lo, hi, resolution, seed, &o, TBRFI_ENGINE_WINDOWS,
                               &in->engine);
    if (!in->engine)
        return fail(in, st, "no memory for the plan");
    if (st)
        return fail(in, st, "%s", tbrfi_message_text(tbrfi_engine_msg(in->engine)));
    in->v = tbrfi_engine_view_of(in->engine);
    in->dim = dim;
    for (int d = 0; d < 3; d++) {
        in->lo[d] = in->v->lo[d];
        in->hi[d] = in->v->hi[d];
    }
    in->tolerance = in->v->tolerance;
    in->realization = realization;
    in->precision = line_precision;
    for (int d = 0; d < 3; d++)
        in->velocity[d] = d < dim ? velocity[d] : 0.0;
    return make_windows(in);
}

/* A new sampler in *inflow with its message lock (and, for a periodic
 * one, its fill lock) and the field's density: TBRF_OK, or
 * TBRF_ERR_NO_MEMORY with *inflow NULL. */
static int new_sampler(tbrf_inflow **inflow, int fill_lock)
{
    tbrf_inflow *in = calloc(1, sizeof *in);
    *inflow = in;
    if (!in)
        return TBRF_ERR_NO_MEMORY;
    if (pthread_mutex_init(&in->msg_lock, NULL) != 0) {
        free(in);
        *inflow = NULL;
        return TBRF_ERR_NO_MEMORY;
    }
    in->locked = 1;
    if (fill_lock) {
        if (pthread_mutex_init(&in->fill_lock, NULL) != 0) {
            tbrf_inflow_destroy(in);
            *inflow = NULL;
            return TBRF_ERR_NO_MEMORY;
        }
        in->fill_locked = 1;
    }
    tbrf_ic_default_density(&in->density);
    in->density.kind = TBRF_DENSITY_FIELD;
    return TBRF_OK;
}

/* The status of a sampler's build, kept: a failed one refuses later calls. */
static int built(tbrf_inflow *in, int st)
{
    if (st) {
        in->broken = 1;
        in->msg.status = st;
    }
    return st;
}

int tbrf_inflow_create(const tbrf_model *model, int dim, const double lo[3], const double hi[3],
                       double resolution, uint64_t seed, uint64_t realization, const tbrf_opts *opts,
                       const double velocity[3], int line_precision, tbrf_inflow **inflow)
{
    if (!inflow)
        return TBRF_ERR_NULL;
    if (new_sampler(inflow, 0) != TBRF_OK)
        return TBRF_ERR_NO_MEMORY;
    tbrf_inflow *in = *inflow;
    return built(in, build(in, model, dim, lo, hi, resolution, seed, realization, opts, velocity,
                           line_precision));
}

/* The periodic plan's box: period[d] on a periodic axis; on the others
 * F (2 (hi - lo) + the longest period), so that two positions of the tube
 * are never closer through the wrap than across the tube plus a
 * transverse period (the turning-bands lines' rule, 2 x extent + a
 * correlation scale, with the box's largest scale as that scale). */
static int periodic_box(tbrf_inflow *in, const double period[3], double resolution, int factor,
                        double length[3], int64_t n[3])
{
    double longest = 0.0;
    int any = 0;
    for (int d = 0; d < in->dim; d++) {
        if (!(isfinite(period[d]) && period[d] >= 0.0))
            return fail(in, TBRF_ERR_INVALID, "period[%d] = %g: must be finite and >= 0 (0: the "
                        "axis is not periodic)", d, period[d]);
        in->wraps[d] = period[d] > 0.0;
        any |= in->wraps[d];
        longest = fmax(longest, period[d]);
    }
    if (!any)
        return fail(in, TBRF_ERR_INVALID, "no axis has a period > 0 (tbrf_inflow_create makes the "
                    "non-periodic sampler)");
    for (int d = 0; d < 3; d++) {
        length[d] = 1.0;
        n[d] = 1;
        if (d >= in->dim)
            continue;
        length[d] = in->wraps[d] ? period[d] : (double)factor * (2.0 * (in->hi[d] - in->lo[d]) + longest);
        const double cells = ceil(length[d] / resolution * (1.0 - 1e-12));
        if (!isfinite(length[d]) || !(cells <= 1048576.0))
            return fail(in, TBRF_ERR_SIZE, "axis %d: a box of %g at resolution %g needs %.3g cells, "
                        "more than 2^20", d, length[d], resolution, cells);
        n[d] = cells < 1.0 ? 1 : (int64_t)cells;
    }
    return TBRF_OK;
}

static int build_periodic(tbrf_inflow *in, const tbrf_model *model, int dim, const double lo[3],
                          const double hi[3], const double period[3], double resolution,
                          uint64_t seed, uint64_t realization, const tbrf_opts *opts,
                          const double velocity[3])
{
    if (!lo || !hi || !period || !velocity)
        return fail(in, TBRF_ERR_NULL, "lo, hi, period or velocity is NULL");
    if (dim != 2 && dim != 3)
        return fail(in, TBRF_ERR_INVALID, "dim = %d: must be 2 or 3", dim);
    if (!(isfinite(resolution) && resolution > 0.0))
        return fail(in, TBRF_ERR_INVALID, "resolution = %g: must be finite and > 0", resolution);
    in->dim = dim;
    double ext2 = 0.0, maxabs = 0.0;
    for (int d = 0; d < dim; d++) {
        if (!isfinite(lo[d]) || !isfinite(hi[d]) || !(lo[d] <= hi[d]) || !isfinite(velocity[d]))
            return fail(in, TBRF_ERR_INVALID, "axis %d: the tube [%g, %g] (lo <= hi, finite) or the "
                        "velocity %g (finite)", d, lo[d], hi[d], velocity[d]);
        in->lo[d] = lo[d];
        in->hi[d] = hi[d];
        in->velocity[d] = velocity[d];
        ext2 += (hi[d] - lo[d]) * (hi[d] - lo[d]);
        maxabs = fmax(maxabs, fmax(fabs(lo[d]), fabs(hi[d])));
    }
    /* the plan's domain tolerance (c/engine/engine.c, set_domain) */
    in->tolerance = 1e-10 * (sqrt(ext2) + resolution) + 8.0 * DBL_EPSILON * maxabs;
    tbrf_opts o;
    tbrf_default_opts(&o);
    if (opts)
        o = *opts;
    if (o.vector != TBRF_SCALAR)
        return fail(in, TBRF_ERR_UNSUPPORTED, "the inflow sampler makes scalar fields (opts.vector = %d)",
                    o.vector);
    o.backend = TBRF_BACKEND_CPU;
    o.precision = TBRF_DOUBLE;
    double length[3];
    int64_t n[3];
    int st = periodic_box(in, period, resolution, o.line_length_factor < 1 ? 1 : o.line_length_factor,
                          length, n);
    if (st)
        return st;
    st = tbrf_make_periodic_plan(model, dim, in->lo, length, n, seed, &o, &in->plan);
    if (!in->plan)
        return fail(in, st, "no memory for the periodic plan");
    if (st)
        return fail(in, st, "%s", tbrf_plan_message(in->plan));
    in->realization = realization;
    /* One value now: the plan's oversampled grid is made (and checked
     * against the memory budget) here rather than at the first step. */
    double x0[3] = {lo[0], lo[1], dim == 3 ? lo[2] : 0.0}, value;
    st = tbrf_set_points(in->plan, 1, x0);
    if (st == TBRF_OK)
        st = tbrf_execute(in->plan, realization, &value);
    if (st)
        return fail(in, st, "%s", tbrf_plan_message(in->plan));
    return TBRF_OK;
}

int tbrf_inflow_create_periodic(const tbrf_model *model, int dim, const double lo[3],
                                const double hi[3], const double period[3], double resolution,
                                uint64_t seed, uint64_t realization, const tbrf_opts *opts,
                                const double velocity[3], tbrf_inflow **inflow)
{
    if (!inflow)
        return TBRF_ERR_NULL;
    if (new_sampler(inflow, 1) != TBRF_OK)
        return TBRF_ERR_NO_MEMORY;
    tbrf_inflow *in = *inflow;
    return built(in, build_periodic(in, model, dim, lo, hi, period, resolution, seed, realization,
                                    opts, velocity));
}

int tbrf_inflow_set_density(tbrf_inflow *in, int kind, double rho_w, double sigma, double rho_floor)
{
    if (!in)
        return TBRF_ERR_NULL;
    if (begin(in))
        return in->msg.status;
    if (kind != TBRF_DENSITY_FIELD && kind != TBRF_DENSITY_LOGNORMAL && kind != TBRF_DENSITY_LINEAR)
        return fail(in, TBRF_ERR_INVALID, "density kind %d: must be TBRF_DENSITY_FIELD, _LOGNORMAL "
                    "or _LINEAR", kind);
    if (!(isfinite(rho_w) && rho_w > 0.0) || !(isfinite(sigma) && sigma >= 0.0) ||
        !(rho_floor >= 0.0 && rho_floor < 1.0))
        return fail(in, TBRF_ERR_INVALID, "density: rho_w = %g must be finite and > 0, sigma = %g "
                    "finite and >= 0, rho_floor = %g in [0, 1)", rho_w, sigma, rho_floor);
    if (kind == TBRF_DENSITY_LOGNORMAL && !isfinite(exp(0.5 * sigma * sigma)))
        return fail(in, TBRF_ERR_INVALID, "density: sigma = %g overflows exp(sigma^2/2)", sigma);
    in->density.kind = kind;
    in->density.rho_mean = rho_w;
    in->density.sigma = sigma;
    in->density.rho_floor = rho_floor;
    return TBRF_OK;
}


static int inside(const tbrf_inflow *in, const double *x)
{
    for (int d = 0; d < in->dim; d++)
        if (!in->wraps[d] && !(x[d] >= in->lo[d] - in->tolerance && x[d] <= in->hi[d] + in->tolerance))
            return 0;
    return 1;
}

static int out_of_tube(tbrf_inflow *in, int64_t i, const double *x, double t)
{
    const double *lo = in->lo, *hi = in->hi;
    if (in->dim == 3)
        return fail(in, TBRF_ERR_OUT_OF_DOMAIN, "ghost cell %lld at t = %.17g samples (%.17g, %.17g, "
                    "%.17g), outside the tube [%g, %g] x [%g, %g] x [%g, %g] (or NaN): make the tube "
                    "with tbrf_inflow_tube for a later end time", (long long)i, t, x[0], x[1], x[2],
                    lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
    return fail(in, TBRF_ERR_OUT_OF_DOMAIN, "ghost cell %lld at t = %.17g samples (%.17g, %.17g), "
                "outside the tube [%g, %g] x [%g, %g] (or NaN): make the tube with tbrf_inflow_tube "
                "for a later end time", (long long)i, t, x[0], x[1], lo[0], hi[0], lo[1], hi[1]);
}

/* The shifted position of cell i: of the points, or of the grid cell. */
typedef struct source {
    const double *xyz;           /* points, or NULL for a grid */
    double origin[3], spacing[3];
    int64_t n[3];
} source;

static void position(const tbrf_inflow *in, const source *s, int64_t i, double t, double *x)
{
    const int dim = in->dim;
    if (s->xyz) {
        for (int d = 0; d < dim; d++)
            x[d] = s->xyz[(size_t)dim * (size_t)i + (size_t)d] - in->velocity[d] * t;
    } else {
        const int64_t idx[3] = {i % s->n[0], (i / s->n[0]) % s->n[1], i / (s->n[0] * s->n[1])};
        for (int d = 0; d < dim; d++)
            x[d] = (s->origin[d] + s->spacing[d] * (double)idx[d]) - in->velocity[d] * t;
    }
    if (dim == 2)
        x[2] = 0.0;
}

/* The windows for the backend's project_windows. */
static window_lines windows_of(const tbrf_inflow *in)
{
    return (window_lines){.L = in->v->L, .precision = in->precision, .samples = in->samples,
                          .first = in->first, .count = in->count, .base = in->base, .axis = in->axis,
                          .off = in->off, .offset = in->v->spec.offset, .margin = WINDOW_MARGIN};
}

/* Tile w of fill: its positions' values, the lines projected by the
 * engine's backend (the CPU's) on each line's window. */
static int fill_tile(const tbrf_inflow *in, const source *s, double t, int64_t n, int64_t w,
                     const int64_t tiles[3], double *scratch, double *values)
{
    const int L = in->v->L, dim = in->v->dim;
    const double norm = 1.0 / sqrt((double)L);
    const double *c = in->v->center;
    double dx[INFLOW_TILE], dy[INFLOW_TILE], dz[INFLOW_TILE], acc[INFLOW_TILE];
    int64_t idx[INFLOW_TILE];
    int np = 0;
    if (s->xyz) {
        const int64_t p0 = w * INFLOW_TILE;
        np = (int)(n - p0 < INFLOW_TILE ? n - p0 : INFLOW_TILE);
        for (int i = 0; i < np; i++)
            idx[i] = p0 + i;
    } else {
        const int64_t i0 = (w % tiles[0]) * BX, j0 = (w / tiles[0] % tiles[1]) * BY,
                      k0 = w / (tiles[0] * tiles[1]) * BZ;
        for (int64_t k = k0; k < k0 + BZ && k < s->n[2]; k++)
            for (int64_t j = j0; j < j0 + BY && j < s->n[1]; j++)
                for (int64_t i = i0; i < i0 + BX && i < s->n[0]; i++)
                    idx[np++] = i + s->n[0] * (j + s->n[1] * k);
    }
    const int npad = (np + 7) & ~7; /* the kernels' step: repeat the last point */
    for (int i = 0; i < npad; i++) {
        double x[3];
        position(in, s, idx[i < np ? i : np - 1], t, x);
        dx[i] = x[0] - c[0];
        dy[i] = x[1] - c[1];
        dz[i] = dim == 3 ? x[2] - c[2] : 0.0;
        acc[i] = 0.0;
    }
    const window_lines wl = windows_of(in);
    const int st = in->v->backend->project_windows(&wl, npad, dx, dy, dz, scratch, acc);
    if (st != TBRF_OK)
        return st;
    for (int i = 0; i < np; i++)
        values[idx[i]] = tbrfi_ic_density_point(&in->density, norm * acc[i]);
    return TBRF_OK;
}

/* Points per execute of a periodic sampler's plan: the positions' buffer
 * stays small whatever the number of ghost cells (each value is its
 * position's alone, so the grouping changes no bit). */
enum { PERIODIC_CHUNK = 4096 };

/* A periodic sampler's fill: the plan at the shifted positions, chunk by
 * chunk, under fill_lock (a plan runs one call at a time). */
static int fill_periodic(tbrf_inflow *in, double t, int64_t n, const source *s, double *values)
{
    const int dim = in->dim;
    double *xyz = malloc(sizeof(double) * (size_t)dim * PERIODIC_CHUNK);
    if (!xyz)
        return fail(in, TBRF_ERR_NO_MEMORY, "no memory for %d positions", PERIODIC_CHUNK);
    int st = TBRF_OK;
    pthread_mutex_lock(&in->fill_lock);
    for (int64_t p0 = 0; p0 < n && st == TBRF_OK; p0 += PERIODIC_CHUNK) {
        if (p0 > 0 && tbrfi_cancelled(&in->cancel)) {
            st = fail(in, TBRF_ERR_CANCELLED, "cancelled by the caller's hook after %lld of %lld ghost cells",
                      (long long)p0, (long long)n);
            break;
        }
        const int64_t m = n - p0 < PERIODIC_CHUNK ? n - p0 : PERIODIC_CHUNK;
        for (int64_t i = 0; i < m; i++) {
            double x[3];
            position(in, s, p0 + i, t, x);
            for (int d = 0; d < dim; d++)
                xyz[(size_t)dim * (size_t)i + (size_t)d] = x[d];
        }
        st = tbrf_set_points(in->plan, m, xyz);
        if (st == TBRF_OK)
            st = tbrf_execute(in->plan, in->realization, values + p0);
        if (st != TBRF_OK)
            fail(in, st, "the periodic field at ghost cells %lld..: %s", (long long)p0,
                 tbrf_plan_message(in->plan));
    }
    pthread_mutex_unlock(&in->fill_lock);
    free(xyz);
    for (int64_t i = 0; i < n && st == TBRF_OK; i++)
        values[i] = tbrfi_ic_density_point(&in->density, values[i]);
    return st;
}

static int fill(tbrf_inflow *in, double t, int64_t n, const source *s, double *values)
{
    if (!isfinite(t))
        return fail(in, TBRF_ERR_INVALID, "t = %g: not finite", t);
    for (int64_t i = 0; i < n; i++) {
        double x[3];
        position(in, s, i, t, x);
        if (!inside(in, x))
            return out_of_tube(in, i, x, t);
    }
    if (in->plan)
        return fill_periodic(in, t, n, s, values);
    /* Tiles: INFLOW_TILE points in the caller's order, or blocks of
     * 16 x 16 x 2 cells of a grid, whose line coordinates span few
     * samples, so that the window segments a tile reads stay in cache
     * (a strip of whole rows would read hundreds of samples per line).
     * Values do not depend on the tiling (fill_tile). */
    int64_t tiles[3] = {1, 1, 1};
    if (!s->xyz) {
        tiles[0] = (s->n[0] + BX - 1) / BX;
        tiles[1] = (s->n[1] + BY - 1) / BY;
        tiles[2] = (s->n[2] + BZ - 1) / BZ;
    }
    const int64_t ntiles = s->xyz ? (n + INFLOW_TILE - 1) / INFLOW_TILE : tiles[0] * tiles[1] * tiles[2];
    int failed = 0, status = TBRF_OK;
    /* blocks of tiles between two polls of the hook (tbrf_inflow_set_cancel) */
    const tbrfi_cancel *cancel = tbrfi_engine_cancel(in->engine);
    const int64_t block = tbrfi_cancel_block(cancel, (double)in->v->L * (s->xyz ? INFLOW_TILE : BX * BY * BZ), ntiles);
    for (int64_t w0 = 0; w0 < ntiles && status == TBRF_OK && !failed; w0 += block) {
    if (w0 > 0 && tbrfi_cancelled(cancel))
        return fail(in, TBRF_ERR_CANCELLED, "cancelled by the caller's hook after %lld of %lld tiles",
                    (long long)w0, (long long)ntiles);
    const int64_t w1 = ntiles - w0 < block ? ntiles : w0 + block;
#pragma omp parallel num_threads(tbrf_threads(in->v->opts.threads)) if (w1 - w0 > 1)
    {
    /* float windows: one window's samples in double, per thread */
    double *scratch = in->precision == TBRF_FLOAT ? malloc(sizeof(double) * (size_t)in->maxcount) : NULL;
    if (in->precision == TBRF_FLOAT && !scratch) {
#pragma omp atomic write
        failed = 1;
    }
#pragma omp for schedule(static)
    for (int64_t w = w0; w < w1; w++) {
        if (in->precision == TBRF_FLOAT && !scratch)
            continue;
        const int st = fill_tile(in, s, t, n, w, tiles, scratch, values);
        if (st != TBRF_OK) {
#pragma omp atomic write
            status = st;
        }
    }
    free(scratch);
    }
    }
    if (status != TBRF_OK)
        return fail(in, status, "backend %s: the inflow sampler's windowed lines run on the CPU "
                    "backend only", in->v->backend->name);
    if (failed)
        return fail(in, TBRF_ERR_NO_MEMORY, "no memory for a window's scratch (%lld samples)",
                    (long long)in->maxcount);
    return TBRF_OK;
}

int tbrf_inflow_fill(tbrf_inflow *in, double t, int64_t n, const double *xyz, double *values)
{
    if (!in)
        return TBRF_ERR_NULL;
    const int st = begin(in);
    if (st != TBRF_OK)
        return st;
    if (n < 0)
        return fail(in, TBRF_ERR_INVALID, "n = %lld: must be >= 0", (long long)n);
    if (n > 0 && (!xyz || !values))
        return fail(in, TBRF_ERR_NULL, "fill: xyz or values is NULL");
    source s = {.xyz = xyz};
    return fill(in, t, n, &s, values);
}

int tbrf_inflow_fill_grid(tbrf_inflow *in, double t, const double origin[3], const double spacing[3],
                          const int64_t n[3], double *values)
{
    if (!in)
        return TBRF_ERR_NULL;
    const int st = begin(in);
    if (st != TBRF_OK)
        return st;
    if (!origin || !spacing || !n || !values)
        return fail(in, TBRF_ERR_NULL, "fill_grid: origin, spacing, n or values is NULL");
    source s = {.xyz = NULL};
    double cells = 1.0;
    for (int d = 0; d < 3; d++) {
        const int use = d < in->dim;
        s.n[d] = use ? n[d] : 1;
        s.origin[d] = use ? origin[d] : 0.0;
        s.spacing[d] = use ? spacing[d] : 0.0;
        if (s.n[d] < 1)
            return fail(in, TBRF_ERR_SIZE, "fill_grid: n[%d] = %lld: must be >= 1", d, (long long)s.n[d]);
        if (!isfinite(s.origin[d]) || !isfinite(s.spacing[d]))
            return fail(in, TBRF_ERR_INVALID, "fill_grid: origin or spacing of axis %d is not finite", d);
        cells *= (double)s.n[d];
    }
    if (cells > 9.0e15)
        return fail(in, TBRF_ERR_SIZE, "fill_grid: %.3g cells overflow the index", cells);
    return fill(in, t, s.n[0] * s.n[1] * s.n[2], &s, values);
}

int64_t tbrf_inflow_line_bytes(const tbrf_inflow *in, int full)
{
    if (!in || in->broken)
        return 0;
    if (in->plan) /* no lines */
        return 0;
    if (full)
        return (int64_t)8 * (int64_t)in->v->L * in->v->spec.M;
    return in->nsamples * (int64_t)(in->precision == TBRF_FLOAT ? sizeof(float) : sizeof(double));
}

int tbrf_inflow_set_cancel(tbrf_inflow *in, tbrf_cancel_fn cancel, void *user)
{
    if (!in)
        return TBRF_ERR_NULL;
    const int st = begin(in);
    if (st != TBRF_OK)
        return st;
    if (in->plan) { /* a periodic sampler: polled between chunks and by its plan */
        in->cancel.fn = cancel;
        in->cancel.user = user;
        return tbrf_set_cancel(in->plan, cancel, user) == TBRF_OK
                   ? TBRF_OK
                   : fail(in, tbrf_plan_status(in->plan), "%s", tbrf_plan_message(in->plan));
    }
    tbrfi_engine_set_cancel(in->engine, cancel, user);
    return TBRF_OK;
}

const char *tbrf_inflow_message(const tbrf_inflow *in)
{
    if (!in)
        return "inflow sampler is NULL";
    return tbrfi_message_text(&in->msg);
}

void tbrf_inflow_destroy(tbrf_inflow *in)
{
    if (!in)
        return;
    tbrfi_engine_destroy(in->engine);
    tbrf_destroy(in->plan);
    if (in->fill_locked)
        pthread_mutex_destroy(&in->fill_lock);
    if (in->locked)
        pthread_mutex_destroy(&in->msg_lock);
    free(in->axis);
    free(in->off);
    free(in->first);
    free(in->samples);
    free(in);
}
