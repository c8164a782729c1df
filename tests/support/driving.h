/* driving.h — set-up shared by the turbulence-driving tests
 * (tests/methods/test_driving.c, test_driving_tb.c, test_driving_time.c):
 * a driver made as a checked step, points pulled 7 at a time and forces
 * pushed back for tbrf_driver_stream, and the bitwise checks of a
 * driver's access in time that a periodic and a non-periodic driver
 * share. Header only; include after testutil.h. */
#ifndef TBRF_TEST_DRIVING_H
#define TBRF_TEST_DRIVING_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/testutil.h"
#include "tbrf.h"

/* tbrf_driver_make as a check. */
static inline tbrf_driver *drv_make(const tbrf_model *m, uint64_t seed, const tbrf_driver_params *p)
{
    tbrf_driver *d = NULL;
    int st = tbrf_driver_make(m, seed, p, &d);
    CHECK(st == TBRF_OK, "driver_make: %s", tbrf_driver_message(d));
    return d;
}

/* The n points x (dim coordinates each; dim 0: 3) that drv_pull hands
 * out 7 at a time, and the forces (3 a point) drv_push writes to out. */
typedef struct drv_pts {
    const double *x;
    int64_t n;
    double *out;
    int dim;
} drv_pts;

static inline int drv_pull(void *u, int64_t first, int64_t max, double *xyz, int64_t *count)
{
    drv_pts *p = u;
    int64_t c = p->n - first < 7 ? p->n - first : 7;
    c = c < max ? c : max;
    const int dim = p->dim ? p->dim : 3;
    memcpy(xyz, p->x + dim * first, sizeof(double) * (size_t)dim * (size_t)c);
    *count = c;
    return 0;
}

static inline int drv_push(void *u, int64_t first, int64_t count, const void *v)
{
    drv_pts *p = u;
    memcpy(p->out + 3 * first, v, sizeof(double) * 3 * (size_t)count);
    return 0;
}

/* The force of the driver (m, seed, p) at the np points x and nt times
 * of variable steps (0.001 .. 0.09), stepped forward by one driver that
 * saves its state at time nt/2, is bitwise the force of: a second driver taking the times in
 * reverse order, a fresh driver at every 7th time, a driver that loads
 * the saved state at the times after it, and that driver's stream (7
 * points a pull) at the last time. `tag` starts the messages and interp
 * ends them. Returns the saved state (*ssize bytes; the caller frees
 * it). */
static inline void *drv_check_time_access(const char *tag, const tbrf_model *m, uint64_t seed,
                                          const tbrf_driver_params *p, int interp, int np,
                                          const double *x, int nt, int64_t *ssize)
{
    double *ts = tu_malloc(sizeof(double) * (size_t)nt), t = 0.0;
    for (int k = 0; k < nt; k++) {
        t += 0.001 + 0.089 * fabs(sin(3.7 * k));
        ts[k] = t;
    }
    const size_t vsize = sizeof(double) * 3 * (size_t)np;
    tbrf_driver *a = drv_make(m, seed, p);
    double *va = tu_malloc(vsize * (size_t)nt), *v = tu_malloc(vsize);
    void *state = NULL;
    *ssize = tbrf_driver_state_size(a);
    for (int k = 0; k < nt; k++) {
        CHECK(tbrf_driver_points(a, ts[k], np, x, va + 3 * np * k) == TBRF_OK, "points: %s",
              tbrf_driver_message(a));
        if (k == nt / 2) {
            state = tu_malloc((size_t)*ssize);
            CHECK(tbrf_driver_save(a, state, *ssize) == TBRF_OK, "save: %s", tbrf_driver_message(a));
        }
    }
    tbrf_driver *b = drv_make(m, seed, p);
    int same = 1;
    for (int k = nt - 1; k >= 0; k--) {
        tbrf_driver_points(b, ts[k], np, x, v);
        same &= memcmp(v, va + 3 * np * k, vsize) == 0;
    }
    CHECK(same, "%stimes in reverse order (random access) give bitwise the same force (interp %d)",
          tag, interp);
    same = 1;
    for (int k = 0; k < nt; k += 7) {
        tbrf_driver *c = drv_make(m, seed, p);
        tbrf_driver_points(c, ts[k], np, x, v);
        same &= memcmp(v, va + 3 * np * k, vsize) == 0;
        tbrf_driver_destroy(c);
    }
    CHECK(same, "%sa fresh driver at any time gives bitwise the same force (interp %d)", tag, interp);
    tbrf_driver *r = drv_make(m, seed, p);
    CHECK(tbrf_driver_load(r, state, *ssize) == TBRF_OK, "load: %s", tbrf_driver_message(r));
    same = 1;
    for (int k = nt / 2 + 1; k < nt; k++) {
        tbrf_driver_points(r, ts[k], np, x, v);
        same &= memcmp(v, va + 3 * np * k, vsize) == 0;
    }
    CHECK(same, "%sa loaded state continues bitwise (interp %d)", tag, interp);
    drv_pts pp = {x, np, v, 3};
    CHECK(tbrf_driver_stream(r, ts[nt - 1], drv_pull, drv_push, &pp) == TBRF_OK, "stream");
    CHECK(memcmp(v, va + 3 * np * (nt - 1), vsize) == 0, "%sstream equals points bitwise", tag);
    tbrf_driver_destroy(a);
    tbrf_driver_destroy(b);
    tbrf_driver_destroy(r);
    free(ts);
    free(va);
    free(v);
    return state;
}

#endif
