/* method.c — what the methods share (method.h): the candidates of a plan,
 * the stubs of absent features, and the one chunked push loop every grid
 * stream runs. */
#include <stdarg.h>
#include <stdlib.h>

#include "plan/method.h"

int tbrfi_methods_for(int method, int periodic, const method_ops **list, int *idle)
{
    *idle = periodic ? TBRF_METHOD_NUFFT : method;
    if (periodic) {
        list[0] = &tbrfi_method_fft_box;
        list[1] = &tbrfi_method_nufft;
        return 2;
    }
    if (method == TBRF_METHOD_FFT) {
        list[0] = &tbrfi_method_fft;
        return 1;
    }
    if (method == TBRF_METHOD_AUTO) {
        list[0] = &tbrfi_method_fft;
        list[1] = &tbrfi_method_tb;
        return 2;
    }
    list[0] = &tbrfi_method_tb;
    return 1;
}

void *tbrfi_plan_state(const tbrf_plan *p, const method_ops *m)
{
    for (int i = 0; i < p->nmethods; i++)
        if (p->methods[i] == m)
            return p->state[i];
    return NULL;
}

int tbrfi_plan_fail(tbrf_plan *p, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tbrfi_failv(&p->msg, status, fmt, ap);
    va_end(ap);
    return status;
}

size_t tbrfi_plan_point_size(const tbrf_plan *p)
{
    const size_t vs = p->v->opts.precision == TBRF_FLOAT ? sizeof(float) : sizeof(double);
    return vs * (size_t)p->v->ncomp;
}

grid_geom tbrfi_plan_whole(const grid_geom *g)
{
    grid_geom f = *g;
    for (int d = 0; d < 3; d++) {
        f.n[d] = g->full[d];
        f.start[d] = 0;
    }
    return f;
}

int tbrfi_plan_push_cells(tbrf_plan *p, int64_t total, int64_t step, const void *all, void *buf,
                          tbrf_push_fn push, void *user)
{
    const size_t ps = tbrfi_plan_point_size(p);
    for (int64_t first = 0; first < total; first += step) {
        const int64_t count = total - first < step ? total - first : step;
        const void *piece = all ? (const char *)all + ps * (size_t)first : buf;
        if (!all) {
            int st = p->run->eval_grid(p, p->run_state, first, count, buf);
            if (st)
                return st;
        }
        int rc = push(user, first, count, piece);
        if (rc)
            return tbrfi_plan_fail(p, TBRF_ERR_CALLBACK, "push callback returned %d at cell %lld", rc,
                                   (long long)first);
    }
    return TBRF_OK;
}

int tbrfi_method_execute_grid(tbrf_plan *p, void *self, uint64_t r, void *values)
{
    int st = p->run->prepare(p, self, r);
    if (st)
        return st;
    return p->run->eval_grid(p, self, 0, p->grid.n[0] * p->grid.n[1] * p->grid.n[2], values);
}

int tbrfi_method_stream_grid(tbrf_plan *p, void *self, uint64_t r, int64_t step, tbrf_push_fn push,
                             void *user)
{
    const int64_t nx = p->grid.n[0], rows = step / nx;
    if ((double)rows * (double)nx * (double)tbrfi_plan_point_size(p) > 1e12)
        return tbrfi_plan_fail(p, TBRF_ERR_SIZE, "a chunk of %lld rows of %lld cells is too large to "
                               "buffer", (long long)rows, (long long)nx);
    int st = p->run->prepare(p, self, r);
    if (st)
        return st;
    void *values = malloc(tbrfi_plan_point_size(p) * (size_t)step);
    if (!values)
        return tbrfi_plan_fail(p, TBRF_ERR_NO_MEMORY, "no memory for a chunk of %lld cells", (long long)step);
    st = tbrfi_plan_push_cells(p, p->grid.n[0] * p->grid.n[1] * p->grid.n[2], step, NULL, values, push,
                               user);
    free(values);
    return st;
}

int tbrfi_method_no_state(tbrf_plan *p, const tbrfi_method_args *a, void **self)
{
    (void)p, (void)a;
    *self = NULL;
    return TBRF_OK;
}

void tbrfi_method_no_release(void *self)
{
    (void)self;
}

int tbrfi_method_no_prepare(tbrf_plan *p, void *self, uint64_t r)
{
    (void)self, (void)r;
    return tbrfi_plan_fail(p, TBRF_ERR_UNSUPPORTED, "the %s method keeps no realization state",
                           p->run ? p->run->name : "current");
}

int tbrfi_method_no_eval_grid(tbrf_plan *p, void *self, int64_t first, int64_t count, void *values)
{
    (void)self, (void)first, (void)count, (void)values;
    return tbrfi_plan_fail(p, TBRF_ERR_UNSUPPORTED, "the %s method evaluates whole grids only",
                           p->run ? p->run->name : "current");
}

int tbrfi_method_no_eval_points(tbrf_plan *p, void *self, int64_t n, const double *xyz, void *values)
{
    (void)self, (void)n, (void)xyz, (void)values;
    return tbrfi_plan_fail(p, TBRF_ERR_UNSUPPORTED, "the %s method does not evaluate points",
                           p->run ? p->run->name : "current");
}
