/* method.h — the method table under the plan, beside the backend table
 * (backends/backend.h) and kept the same way: one constant method_ops per
 * method (method_tb.c, method_fft.c, method_nufft.c), every slot filled
 * (where a method lacks a feature the slot points at a stub that returns
 * TBRF_ERR_UNSUPPORTED with a message, never NULL), and plan.c, the façade,
 * only calls slots: it holds no method flags.
 *
 * A plan holds an ordered list of candidate methods, fixed when it is made
 * (tbrfi_methods_for): turning bands [tb]; FFT [fft]; AUTO [fft, tb]; a
 * periodic plan [fft on the box lattice, nufft]. Setting a geometry asks
 * each candidate in turn whether it runs it; the first that does becomes
 * the plan's `run`. Each candidate owns its state through an opaque
 * pointer that its `make` slot makes and its `release` slot frees, and
 * every other slot is handed it (`self`): the plan holds no field of any
 * method. The methods sit at the plan's rank (they read the plan's engine,
 * geometry and message), above the engine they compose. */
#ifndef TBRF_PLAN_METHOD_H
#define TBRF_PLAN_METHOD_H

#include <stdint.h>

#include "core/geometry.h"
#include "core/message.h"
#include "engine/engine.h"
#include "tbrf.h"

typedef struct method_ops method_ops;

/* What a method's make slot is given: a periodic plan's box (per axis its
 * origin, length and cell count; tbrf_make_periodic_plan), or periodic 0. */
typedef struct tbrfi_method_args {
    int periodic;
    const double *origin, *length;
    const int64_t *n;
} tbrfi_method_args;

enum geometry { GEOM_NONE = 0, GEOM_GRID = 1, GEOM_POINTS = 2 };

struct tbrf_plan {
    int broken;        /* make_plan failed: every later call returns BAD_PLAN */
    tbrfi_message msg; /* the last call's status and message */
    tbrfi_engine *engine;       /* options, backend, frozen model, domain and lines */
    const tbrfi_engine_view *v; /* what it decided */
    const method_ops *methods[2]; /* the candidates, in order */
    void *state[2];               /* each candidate's own state (its make slot's), or NULL */
    int nmethods;
    int idle_method;        /* what tbrf_plan_method answers without a geometry */
    const method_ops *run;  /* the method of the current geometry; NULL without one */
    void *run_state;        /* run's entry of state[] */
    int geom;
    grid_geom grid;
    int64_t npoints;
    const double *xyz;
};

struct method_ops {
    int id;           /* what tbrf_plan_method answers: TBRF_METHOD_TB, _FFT or _NUFFT */
    const char *name;
    int storage;      /* the engine's line storage it needs (a tbrfi_engine_storage) */
    int wraps;        /* positions wrap into a periodic box: only non-finite ones are
                       * refused, and grids are not checked against a domain */
    /* Makes the method's state into *self (NULL for a method without
     * one), after the plan's engine: TBRF_OK, or a failure with its
     * message and *self NULL. Candidates are made in order, so a method
     * may compose an earlier candidate's state (tbrfi_plan_state). */
    int (*make)(tbrf_plan *p, const tbrfi_method_args *a, void **self);
    /* Every slot below is handed the method's own state, self. */
    /* Whether the method runs the grid just set (p->grid, whole the whole
     * grid of it): TBRF_OK with *runs, or a failure with its message. */
    int (*grid)(tbrf_plan *p, void *self, const grid_geom *whole, int *runs);
    /* Whether it runs points; `caller` names the API call in a message. */
    int (*points)(tbrf_plan *p, void *self, const char *caller, int *runs);
    /* Realization r made current (lines, fine grids). */
    int (*prepare)(tbrf_plan *p, void *self, uint64_t r);
    /* Cells first..first+count-1 of the current grid / n points, from the
     * current realization. */
    int (*eval_grid)(tbrf_plan *p, void *self, int64_t first, int64_t count, void *values);
    int (*eval_points)(tbrf_plan *p, void *self, int64_t n, const double *xyz, void *values);
    /* The whole current grid of realization r (tbrf_execute). */
    int (*execute_grid)(tbrf_plan *p, void *self, uint64_t r, void *values);
    /* The current grid pushed in pieces of `step` cells (whole rows). */
    int (*stream_grid)(tbrf_plan *p, void *self, uint64_t r, int64_t step, tbrf_push_fn push,
                       void *user);
    /* The field variance the method resolves (tbrf_plan_info). */
    double (*variance)(const tbrf_plan *p, void *self);
    /* Frees what make made (tbrf_destroy); self may be NULL. */
    void (*release)(void *self);
};

extern const method_ops tbrfi_method_tb, tbrfi_method_fft, tbrfi_method_fft_box, tbrfi_method_nufft;

/* The candidates of a plan made with opts.method `method` (periodic: by
 * tbrf_make_periodic_plan) into list (2 at most), and in *idle what
 * tbrf_plan_method answers before a geometry is set; their number. */
int tbrfi_methods_for(int method, int periodic, const method_ops **list, int *idle);

/* The state of candidate m of plan p, or NULL (m not a candidate, not yet
 * made, or stateless). */
void *tbrfi_plan_state(const tbrf_plan *p, const method_ops *m);

/* Shared by the methods (method.c). */
int tbrfi_plan_fail(tbrf_plan *p, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
size_t tbrfi_plan_point_size(const tbrf_plan *p); /* bytes of one position's values */
grid_geom tbrfi_plan_whole(const grid_geom *g);   /* the whole grid of a (sub-)grid */
/* Pushes cells 0..total-1 in pieces of step: from `all` when it is not
 * NULL, else each piece evaluated by p->run (with p->run_state) into buf. */
int tbrfi_plan_push_cells(tbrf_plan *p, int64_t total, int64_t step, const void *all, void *buf,
                          tbrf_push_fn push, void *user);
/* execute_grid and stream_grid of the methods that evaluate any piece:
 * prepare, then eval_grid (the whole grid, or row pieces into a buffer). */
int tbrfi_method_execute_grid(tbrf_plan *p, void *self, uint64_t r, void *values);
int tbrfi_method_stream_grid(tbrf_plan *p, void *self, uint64_t r, int64_t step, tbrf_push_fn push,
                             void *user);
/* make and release of a method without state: *self NULL, nothing. */
int tbrfi_method_no_state(tbrf_plan *p, const tbrfi_method_args *a, void **self);
void tbrfi_method_no_release(void *self);
/* Stubs of absent features: TBRF_ERR_UNSUPPORTED with a message. */
int tbrfi_method_no_prepare(tbrf_plan *p, void *self, uint64_t r);
int tbrfi_method_no_eval_grid(tbrf_plan *p, void *self, int64_t first, int64_t count, void *values);
int tbrfi_method_no_eval_points(tbrf_plan *p, void *self, int64_t n, const double *xyz, void *values);

/* The state of tbrfi_method_fft_box: a periodic plan's box lattice (n
 * cells of spacing length/n) and the FFT method's variance on it. The
 * NUFFT's state points to it (composition: one box per plan). */
typedef struct tbrfi_box_lattice {
    grid_geom g;
    int measured; /* variance computed */
    double variance;
} tbrfi_box_lattice;

/* The FFT method's field variance on the box lattice b, computed once
 * (method_fft.c). */
double tbrfi_box_lattice_variance(const tbrf_plan *p, tbrfi_box_lattice *b);

#endif
