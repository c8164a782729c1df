/* method_fft.c — the FFT method (methods/fft) as a plan method: one
 * inverse FFT of the whole grid, for a plan made with method FFT or AUTO
 * (tbrfi_method_fft; its state: the variance on the current grid) and for
 * a periodic plan's box lattice (tbrfi_method_fft_box; its state: the
 * box, tbrfi_box_lattice, which the NUFFT composes). It evaluates whole
 * grids only. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "methods/fft/fft.h"
#include "plan/method.h"

static int is_subgrid(const grid_geom *g)
{
    for (int d = 0; d < 3; d++)
        if (g->start[d] != 0 || g->n[d] != g->full[d])
            return 1;
    return 0;
}

/* The plan's status and message for what the FFT method on grid g
 * returned (TBRF_OK, TBRF_ERR_NO_MEMORY, TBRF_ERR_FFT or
 * TBRF_ERR_CANCELLED). */
static int fft_status(tbrf_plan *p, int st, const grid_geom *g)
{
    if (st == TBRF_ERR_CANCELLED)
        return tbrfi_plan_fail(p, st, "FFT method: cancelled by the caller's hook (the %lld x %lld x %lld "
                               "grid was not finished)", (long long)g->n[0], (long long)g->n[1],
                               (long long)(p->v->dim == 3 ? g->n[2] : 1));
    if (st == TBRF_ERR_NO_MEMORY)
        return tbrfi_plan_fail(p, st, "FFT method: no memory for the %.3g GiB transform",
                               tbrfi_fft_method_bytes(p->v->dim, g) / 1073741824.0);
    if (st)
        return tbrfi_plan_fail(p, st, "FFT method: FFTW could not plan the transform");
    return TBRF_OK;
}

/* The FFT method on the current grid (methods/fft/fft.c). A sub-box is
 * cut out of the whole grid's transform: the transform mixes every cell,
 * and only the whole one gives the whole grid's bits (each caller then
 * holds the whole field once; doc/decomposition.md). */
static int fft_execute(tbrf_plan *p, void *self, uint64_t realization, void *values)
{
    (void)self;
    const grid_geom whole = tbrfi_plan_whole(&p->grid);
    const int sub = is_subgrid(&p->grid);
    const size_t ps = tbrfi_plan_point_size(p);
    void *all = values;
    if (sub && !(all = malloc(ps * (size_t)(whole.n[0] * whole.n[1] * whole.n[2]))))
        return tbrfi_plan_fail(p, TBRF_ERR_NO_MEMORY, "FFT method: no memory for the whole %lld x %lld "
                               "x %lld field a sub-grid is cut from", (long long)whole.n[0],
                               (long long)whole.n[1], (long long)whole.n[2]);
    const tbrf_opts *o = &p->v->opts;
    int st = tbrfi_fft_method_generate(p->v->model, p->v->dim, &whole, p->v->seed, realization, o->threads,
                                       o->precision, o->vector, p->v->zeta,
                                       tbrfi_engine_cancel(p->engine), all);
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

/* The state of tbrfi_method_fft. */
typedef struct {
    double variance; /* the field variance on the grid it runs, 0 before */
} fft_state;

static int fft_make(tbrf_plan *p, const tbrfi_method_args *a, void **self)
{
    (void)a;
    if (!(*self = calloc(1, sizeof(fft_state))))
        return tbrfi_plan_fail(p, TBRF_ERR_NO_MEMORY, "FFT method: no memory for its state");
    return TBRF_OK;
}

/* FFT: always when asked for; AUTO: for a periodic grid whose transform
 * fits in half the physical memory. */
static int fft_grid(tbrf_plan *p, void *self, const grid_geom *whole, int *runs)
{
    fft_state *s = self;
    s->variance = 0.0;
    const tbrf_opts *o = &p->v->opts;
    double mem = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    double limit = o->method == TBRF_METHOD_FFT ? 1e300 : (mem > 0 ? 0.5 * mem : 0.0);
    int fits = tbrfi_fft_method_fits(p->v->dim, whole, limit);
    if (o->method == TBRF_METHOD_FFT && !fits)
        return tbrfi_plan_fail(p, TBRF_ERR_SIZE, "FFT method: grid %lld x %lld x %lld is too large for "
                               "one transform (at most 2^20 modes per axis and int sizes)",
                               (long long)whole->n[0], (long long)whole->n[1],
                               (long long)(p->v->dim == 3 ? whole->n[2] : 1));
    *runs = o->method == TBRF_METHOD_FFT || (o->periodic && fits);
    if (*runs)
        s->variance = tbrfi_fft_method_variance(p->v->model, p->v->dim, whole);
    return TBRF_OK;
}

static int box_make(tbrf_plan *p, const tbrfi_method_args *a, void **self)
{
    if (!a->periodic)
        return tbrfi_plan_fail(p, TBRF_ERR_INVALID, "FFT box lattice: the plan has no periodic box");
    tbrfi_box_lattice *b = calloc(1, sizeof *b);
    if (!(*self = b))
        return tbrfi_plan_fail(p, TBRF_ERR_NO_MEMORY, "FFT method: no memory for its state");
    for (int d = 0; d < 3; d++) {
        const int used = d < p->v->dim;
        b->g.origin[d] = used ? a->origin[d] : 0.0;
        b->g.spacing[d] = used ? a->length[d] / (double)a->n[d] : 1.0;
        b->g.n[d] = used ? a->n[d] : 1;
    }
    return TBRF_OK;
}

/* Computed on first use: the NUFFT asks for it once its grids are known
 * to fit, before which a huge box must cost nothing. */
double tbrfi_box_lattice_variance(const tbrf_plan *p, tbrfi_box_lattice *b)
{
    if (!b->measured) {
        b->variance = tbrfi_fft_method_variance(p->v->model, p->v->dim, &b->g);
        b->measured = 1;
    }
    return b->variance;
}

/* The box lattice (any origin: the FFT method's field is a function of
 * absolute position) of a periodic plan; anything else is the NUFFT's. */
static int fft_box_grid(tbrf_plan *p, void *self, const grid_geom *whole, int *runs)
{
    const tbrfi_box_lattice *b = self;
    int lattice = 1;
    for (int d = 0; d < p->v->dim; d++)
        lattice &= whole->n[d] == b->g.n[d] && whole->spacing[d] == b->g.spacing[d];
    *runs = lattice;
    return TBRF_OK;
}

/* Points: refused by a plan made for the FFT method, else left to the
 * next candidate. */
static int fft_points(tbrf_plan *p, void *self, const char *caller, int *runs)
{
    (void)self;
    *runs = 0;
    if (p->v->opts.method == TBRF_METHOD_FFT)
        return tbrfi_plan_fail(p, TBRF_ERR_UNSUPPORTED, "%s: the FFT method needs a regular grid (use "
                               "method TB or AUTO for points, or tbrf_make_periodic_plan)", caller);
    return TBRF_OK;
}

/* A periodic plan's points are the NUFFT's. */
static int fft_box_points(tbrf_plan *p, void *self, const char *caller, int *runs)
{
    (void)p, (void)self, (void)caller;
    *runs = 0;
    return TBRF_OK;
}

/* A scalar field of a whole grid is pushed from the transform's own
 * memory; otherwise one transform of the whole grid is pushed in pieces. */
static int fft_stream_grid(tbrf_plan *p, void *self, uint64_t r, int64_t step, tbrf_push_fn push,
                           void *user)
{
    const int64_t total = p->grid.n[0] * p->grid.n[1] * p->grid.n[2];
    if (!p->v->opts.vector && !is_subgrid(&p->grid)) {
        int64_t at = 0;
        int rc = 0;
        int st = tbrfi_fft_method_generate_push(p->v->model, p->v->dim, &p->grid, p->v->seed, r,
                                                p->v->opts.threads, p->v->opts.precision, step, push,
                                                user, &at, &rc, tbrfi_engine_cancel(p->engine));
        if (st == TBRF_ERR_CALLBACK)
            return tbrfi_plan_fail(p, st, "push callback returned %d at cell %lld", rc, (long long)at);
        return fft_status(p, st, &p->grid);
    }
    void *all = malloc(tbrfi_plan_point_size(p) * (size_t)total);
    if (!all)
        return tbrfi_plan_fail(p, TBRF_ERR_NO_MEMORY, "no memory for the %lld-cell FFT field",
                               (long long)total);
    int st = fft_execute(p, self, r, all);
    if (!st)
        st = tbrfi_plan_push_cells(p, total, step, all, NULL, push, user);
    free(all);
    return st;
}

/* The running grid's; none without a geometry (the plan forgot it). */
static double fft_variance(const tbrf_plan *p, void *self)
{
    return p->run ? ((const fft_state *)self)->variance : 0.0;
}

static double fft_box_variance(const tbrf_plan *p, void *self)
{
    return tbrfi_box_lattice_variance(p, self);
}

static void fft_release(void *self)
{
    free(self);
}

/* The two tables differ only in what they take and keep: any whole grid
 * (wraps 0) or a periodic plan's box lattice, whose points are the
 * NUFFT's. */
#define FFT_METHOD_OPS(wrapping, make_fn, grid_fn, points_fn, variance_fn)                         \
    {                                                                                              \
        .id = TBRF_METHOD_FFT, .name = "FFT", .storage = TBRFI_ENGINE_NONE, .wraps = (wrapping),   \
        .make = (make_fn), .grid = (grid_fn), .points = (points_fn),                               \
        .prepare = tbrfi_method_no_prepare, .eval_grid = tbrfi_method_no_eval_grid,                \
        .eval_points = tbrfi_method_no_eval_points, .execute_grid = fft_execute,                   \
        .stream_grid = fft_stream_grid, .variance = (variance_fn), .release = fft_release,         \
    }

const method_ops tbrfi_method_fft = FFT_METHOD_OPS(0, fft_make, fft_grid, fft_points, fft_variance);

const method_ops tbrfi_method_fft_box =
    FFT_METHOD_OPS(1, box_make, fft_box_grid, fft_box_points, fft_box_variance);
