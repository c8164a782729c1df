/* method_tb.c — turning bands as a plan method: the plan's engine
 * (engine/engine.h) synthesises the lines and projects them through the
 * backend; its failures become the plan's, word for word. Its state is
 * the plan's engine (the lines), so it makes none of its own. */
#include "plan/method.h"

/* The engine's failure as the plan's: the same status and message. */
static int engine_failed(tbrf_plan *p, int st)
{
    p->msg = *tbrfi_engine_msg(p->engine);
    p->msg.status = st;
    return st;
}

static int tb_grid(tbrf_plan *p, void *self, const grid_geom *whole, int *runs)
{
    (void)p, (void)self, (void)whole;
    *runs = 1; /* any grid inside the domain */
    return TBRF_OK;
}

static int tb_points(tbrf_plan *p, void *self, const char *caller, int *runs)
{
    (void)p, (void)self, (void)caller;
    *runs = 1;
    return TBRF_OK;
}

/* Synthesises realization r's lines unless the engine has them. */
static int tb_prepare(tbrf_plan *p, void *self, uint64_t r)
{
    (void)self;
    int st = tbrfi_engine_lines(p->engine, r);
    return st ? engine_failed(p, st) : TBRF_OK;
}

static int tb_eval_grid(tbrf_plan *p, void *self, int64_t first, int64_t count, void *values)
{
    (void)self;
    int st = tbrfi_engine_project_grid(p->engine, &p->grid, first, count, values);
    return st ? engine_failed(p, st) : TBRF_OK;
}

static int tb_eval_points(tbrf_plan *p, void *self, int64_t n, const double *xyz, void *values)
{
    (void)self;
    int st = tbrfi_engine_project_points(p->engine, n, xyz, values);
    return st ? engine_failed(p, st) : TBRF_OK;
}

static double tb_variance(const tbrf_plan *p, void *self)
{
    (void)self;
    return p->v->spec.variance_resolved;
}

const method_ops tbrfi_method_tb = {
    .id = TBRF_METHOD_TB,
    .name = "turning-bands",
    .storage = TBRFI_ENGINE_LINES,
    .wraps = 0,
    .make = tbrfi_method_no_state,
    .grid = tb_grid,
    .points = tb_points,
    .prepare = tb_prepare,
    .eval_grid = tb_eval_grid,
    .eval_points = tb_eval_points,
    .execute_grid = tbrfi_method_execute_grid,
    .stream_grid = tbrfi_method_stream_grid,
    .variance = tb_variance,
    .release = tbrfi_method_no_release,
};
