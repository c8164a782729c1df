/* test_cancel.c — the cancel hooks (tbrf_set_cancel, tbrf_driver_set_cancel,
 * tbrf_inflow_set_cancel): for the plan's turning-bands grid, its FFT
 * method (scalar double, float, vector, streamed), the driver's grid summed
 * axis by axis and the inflow sampler's grid (lines, and periodic across the flow):
 *  1. a hook that never stops is polled several times a call (blocks of
 *     work, not one poll at the end) and changes no bit of the values;
 *  2. a hook that stops at its second poll ends the call with
 *     TBRF_ERR_CANCELLED and a message naming the hook, and the object
 *     stays usable: the next call without the hook gives the reference
 *     bits (under ASan this also shows nothing leaks on the way out). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "tbrf.h"

typedef struct {
    int polls;
    int stop_at; /* 0: never */
} hook;

static int poll_hook(void *user)
{
    hook *h = user;
    h->polls++;
    return h->stop_at > 0 && h->polls >= h->stop_at;
}

/* One call on an object: its status; `values` written. */
typedef int (*run_fn)(void *obj, void *values);
typedef int (*set_fn)(void *obj, tbrf_cancel_fn fn, void *user);
typedef const char *(*msg_fn)(void *obj);

/* The checks 1 and 2 of the header for one call of `bytes` output bytes;
 * min_polls: the polls a never-stopping hook must see. */
static void check_call(const char *name, void *obj, run_fn run, set_fn set, msg_fn msg, size_t bytes,
                       int min_polls)
{
    char *ref = malloc(bytes), *got = malloc(bytes);
    REQUIRE(ref && got, , "%s: no memory", name);
    REQUIRE(run(obj, ref) == TBRF_OK, , "%s: reference call: %s", name, msg(obj));
    hook never = {0, 0};
    CHECK(set(obj, poll_hook, &never) == TBRF_OK, "%s: set_cancel", name);
    memset(got, 0x5a, bytes);
    CHECK(run(obj, got) == TBRF_OK, "%s: with a hook that never stops: %s", name, msg(obj));
    CHECK(memcmp(ref, got, bytes) == 0, "%s: the polled blocks changed the values", name);
    CHECK(never.polls >= min_polls, "%s: polled %d times, want >= %d", name, never.polls, min_polls);
    hook stop = {0, 2};
    CHECK(set(obj, poll_hook, &stop) == TBRF_OK, "%s: set_cancel", name);
    const int st = run(obj, got);
    CHECK(st == TBRF_ERR_CANCELLED, "%s: a hook that stops: status %d (%s)", name, st, msg(obj));
    CHECK(strstr(msg(obj), "cancelled") != NULL, "%s: message \"%s\"", name, msg(obj));
    CHECK(set(obj, NULL, NULL) == TBRF_OK, "%s: removing the hook", name);
    memset(got, 0, bytes);
    CHECK(run(obj, got) == TBRF_OK, "%s: after the cancel: %s", name, msg(obj));
    CHECK(memcmp(ref, got, bytes) == 0, "%s: after the cancel the values differ", name);
    free(ref);
    free(got);
}

/* ------------------------------------------------------------ plans */

static uint64_t g_realization = 3;

static int plan_run(void *obj, void *values)
{
    return tbrf_execute(obj, g_realization, values);
}

static int plan_set(void *obj, tbrf_cancel_fn fn, void *user)
{
    return tbrf_set_cancel(obj, fn, user);
}

static const char *plan_msg(void *obj)
{
    return tbrf_plan_message(obj);
}

static int push_copy(void *user, int64_t first, int64_t count, const void *values)
{
    memcpy((double *)user + first, values, sizeof(double) * (size_t)count);
    return 0;
}

static int plan_stream_run(void *obj, void *values)
{
    return tbrf_execute_grid_stream(obj, g_realization, push_copy, values);
}

static void plans(void)
{
    tbrf_model *m = NULL;
    REQUIRE(tbrf_model_gaussian(0.1, &m) == TBRF_OK, , "model");
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, o[3] = {0, 0, 0};
    /* turning bands: 48^3 cells x 512 lines, blocks of 10^7 operations */
    tbrf_opts opt;
    tbrf_default_opts(&opt);
    opt.lines = 512;
    opt.threads = 2;
    tbrf_plan *p = NULL;
    REQUIRE(tbrf_make_plan(m, 3, lo, hi, 0.05, 7, &opt, &p) == TBRF_OK, , "plan: %s", tbrf_plan_message(p));
    const double h48[3] = {1.0 / 48, 1.0 / 48, 1.0 / 48};
    const int64_t n48[3] = {48, 48, 48};
    REQUIRE(tbrf_set_grid(p, o, h48, n48) == TBRF_OK, , "grid: %s", tbrf_plan_message(p));
    check_call("turning bands grid", p, plan_run, plan_set, plan_msg, sizeof(double) * 48 * 48 * 48, 4);
    tbrf_destroy(p);
    /* the FFT method: 96^3, rows of 49 modes in blocks of ~10^4 rows */
    const int prec[3] = {TBRF_DOUBLE, TBRF_FLOAT, TBRF_DOUBLE}, vec[3] = {0, 0, TBRF_VECTOR_SOLENOIDAL};
    const char *names[3] = {"FFT grid, double", "FFT grid, float", "FFT grid, vector"};
    const double h96[3] = {1.0 / 96, 1.0 / 96, 1.0 / 96};
    const int64_t n96[3] = {96, 96, 96};
    for (int k = 0; k < 3; k++) {
        tbrf_default_opts(&opt);
        opt.method = TBRF_METHOD_FFT;
        opt.periodic = 1;
        opt.precision = prec[k];
        opt.vector = vec[k];
        REQUIRE(tbrf_make_plan(m, 3, lo, hi, 0.05, 7, &opt, &p) == TBRF_OK, , "%s: %s", names[k],
                tbrf_plan_message(p));
        REQUIRE(tbrf_set_grid(p, o, h96, n96) == TBRF_OK, , "%s: grid: %s", names[k], tbrf_plan_message(p));
        const size_t bytes = (prec[k] == TBRF_FLOAT ? 4u : 8u) * (vec[k] ? 3u : 1u) * 96u * 96u * 96u;
        check_call(names[k], p, plan_run, plan_set, plan_msg, bytes, vec[k] ? 6 : 2);
        if (k == 0) {
            check_call("FFT grid, streamed", p, plan_stream_run, plan_set, plan_msg, bytes, 2);
        }
        tbrf_destroy(p);
    }
    tbrf_model_destroy(m);
}

/* ------------------------------------------------------------ driver */

static int drv_run(void *obj, void *values)
{
    const double o[3] = {0, 0, 0}, h[3] = {1.0 / 96, 1.0 / 96, 1.0 / 96};
    const int64_t n[3] = {96, 96, 96};
    return tbrf_driver_grid(obj, 0.25, o, h, n, values);
}

static int drv_set(void *obj, tbrf_cancel_fn fn, void *user)
{
    return tbrf_driver_set_cancel(obj, fn, user);
}

static const char *drv_msg(void *obj)
{
    return tbrf_driver_message(obj);
}

static void driver(void)
{
    tbrf_model *m = NULL;
    /* a band of |k| up to 12 x 2 pi: 12 modes per axis, planes of ~10^6 operations */
    REQUIRE(tbrf_model_powerlaw(-11.0 / 3.0, 2.0 * 3.141592653589793, 24.0 * 3.141592653589793, &m) == TBRF_OK,
            , "model");
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.threads = 2;
    tbrf_driver *d = NULL;
    REQUIRE(tbrf_driver_make(m, 5, &p, &d) == TBRF_OK, , "driver: %s", tbrf_driver_message(d));
    check_call("driver grid", d, drv_run, drv_set, drv_msg, sizeof(double) * 3 * 96 * 96 * 96, 3);
    tbrf_driver_destroy(d);
    tbrf_model_destroy(m);
}

/* ------------------------------------------------------------ inflow */

static int inflow_run(void *obj, void *values)
{
    const double o[3] = {0.0, 0.0, 0.0}, h[3] = {1.0 / 64, 1.0 / 64, 1.0 / 64};
    const int64_t n[3] = {64, 64, 32};
    return tbrf_inflow_fill_grid(obj, 0.5, o, h, n, values);
}

static int inflow_set(void *obj, tbrf_cancel_fn fn, void *user)
{
    return tbrf_inflow_set_cancel(obj, fn, user);
}

static const char *inflow_msg(void *obj)
{
    return tbrf_inflow_message(obj);
}

static void inflow(void)
{
    tbrf_model *m = NULL;
    REQUIRE(tbrf_model_gaussian(0.1, &m) == TBRF_OK, , "model");
    const double lo[3] = {0, 0, -1}, hi[3] = {1, 1, 1}, v[3] = {0, 0, 1};
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = 1024;
    o.threads = 2;
    tbrf_inflow *in = NULL;
    REQUIRE(tbrf_inflow_create(m, 3, lo, hi, 0.05, 11, 0, &o, v, TBRF_DOUBLE, &in) == TBRF_OK, ,
            "inflow: %s", tbrf_inflow_message(in));
    check_call("inflow grid", in, inflow_run, inflow_set, inflow_msg, sizeof(double) * 64 * 64 * 32, 4);
    tbrf_inflow_destroy(in);
    /* periodic across the flow: its periodic plan polls the hook */
    const double period[3] = {1, 1, 0};
    in = NULL;
    REQUIRE(tbrf_inflow_create_periodic(m, 3, lo, hi, period, 0.05, 11, 0, &o, v, &in) == TBRF_OK, ,
            "periodic inflow: %s", tbrf_inflow_message(in));
    check_call("periodic inflow grid", in, inflow_run, inflow_set, inflow_msg, sizeof(double) * 64 * 64 * 32, 2);
    tbrf_inflow_destroy(in);
    tbrf_model_destroy(m);
}

int main(void)
{
    CHECK(strcmp(tbrf_strerror(TBRF_ERR_CANCELLED), "unknown status") != 0, "TBRF_ERR_CANCELLED has a text");
    CHECK(tbrf_set_cancel(NULL, poll_hook, NULL) == TBRF_ERR_NULL, "set_cancel(NULL plan)");
    CHECK(tbrf_driver_set_cancel(NULL, poll_hook, NULL) == TBRF_ERR_NULL, "driver_set_cancel(NULL)");
    CHECK(tbrf_inflow_set_cancel(NULL, poll_hook, NULL) == TBRF_ERR_NULL, "inflow_set_cancel(NULL)");
    CHECK(tbrf_ic_cosmo_set_cancel(NULL, poll_hook, NULL) == TBRF_ERR_NULL, "ic_cosmo_set_cancel(NULL)");
    plans();
    driver();
    inflow();
    return check_report("test_cancel");
}
