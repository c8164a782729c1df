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
 * the plan's `run`. The methods sit at the plan's rank (they read and write
 * the plan's state), above the engine they compose. */
#ifndef TBRF_PLAN_METHOD_H
#define TBRF_PLAN_METHOD_H

#include <stdint.h>

#include "core/geometry.h"
#include "core/message.h"
#include "engine/engine.h"
#include "methods/nufft/nufft.h"
#include "tbrf.h"

typedef struct method_ops method_ops;

/* A periodic plan keeps the fine grids of this many realizations at most
 * (fewer when they do not fit the memory budget together). */
#define PERIODIC_SLOTS 2

enum geometry { GEOM_NONE = 0, GEOM_GRID = 1, GEOM_POINTS = 2 };

struct tbrf_plan {
    int broken;        /* make_plan failed: every later call returns BAD_PLAN */
    tbrfi_message msg; /* the last call's status and message */
    tbrfi_engine *engine;       /* options, backend, frozen model, domain and lines */
    const tbrfi_engine_view *v; /* what it decided */
    const method_ops *methods[2]; /* the candidates, in order */
    int nmethods;
    int idle_method;        /* what tbrf_plan_method answers without a geometry */
    const method_ops *run;  /* the method of the current geometry; NULL without one */
    int geom;
    grid_geom grid;
    int64_t npoints;
    const double *xyz;
    double fft_variance;    /* the FFT method's field variance on the current grid */
    /* periodic plans (tbrf_make_periodic_plan): the NUFFT's state */
    grid_geom box;          /* the box lattice: n cells of spacing length/n */
    double box_variance;
    nufft_setup nu;
    int nslots;             /* fine grids kept: realizations cached */
    uint64_t clock;
    struct fine_slot {
        int valid;
        uint64_t realization, used;
        double *u[3];
    } slot[PERIODIC_SLOTS];
    double *const *fine;    /* the current realization's fine grids */
};

struct method_ops {
    int id;           /* what tbrf_plan_method answers: TBRF_METHOD_TB, _FFT or _NUFFT */
    const char *name;
    int storage;      /* the engine's line storage it needs (a tbrfi_engine_storage) */
    int wraps;        /* positions wrap into a periodic box: only non-finite ones are
                       * refused, and grids are not checked against a domain */
    /* Whether the method runs the grid just set (p->grid, whole the whole
     * grid of it): TBRF_OK with *runs, or a failure with its message. */
    int (*grid)(tbrf_plan *p, const grid_geom *whole, int *runs);
    /* Whether it runs points; `caller` names the API call in a message. */
    int (*points)(tbrf_plan *p, const char *caller, int *runs);
    /* Realization r made current (lines, fine grids). */
    int (*prepare)(tbrf_plan *p, uint64_t r);
    /* Cells first..first+count-1 of the current grid / n points, from the
     * current realization. */
    int (*eval_grid)(tbrf_plan *p, int64_t first, int64_t count, void *values);
    int (*eval_points)(tbrf_plan *p, int64_t n, const double *xyz, void *values);
    /* The whole current grid of realization r (tbrf_execute). */
    int (*execute_grid)(tbrf_plan *p, uint64_t r, void *values);
    /* The current grid pushed in pieces of `step` cells (whole rows). */
    int (*stream_grid)(tbrf_plan *p, uint64_t r, int64_t step, tbrf_push_fn push, void *user);
    /* The field variance the method resolves (tbrf_plan_info). */
    double (*variance)(const tbrf_plan *p);
    /* Frees the method's state in the plan (tbrf_destroy). */
    void (*release)(tbrf_plan *p);
};

extern const method_ops tbrfi_method_tb, tbrfi_method_fft, tbrfi_method_fft_box, tbrfi_method_nufft;

/* The candidates of a plan made with opts.method `method` (periodic: by
 * tbrf_make_periodic_plan) into list (2 at most), and in *idle what
 * tbrf_plan_method answers before a geometry is set; their number. */
int tbrfi_methods_for(int method, int periodic, const method_ops **list, int *idle);

/* Shared by the methods (method.c). */
int tbrfi_plan_fail(tbrf_plan *p, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
size_t tbrfi_plan_point_size(const tbrf_plan *p); /* bytes of one position's values */
grid_geom tbrfi_plan_whole(const grid_geom *g);   /* the whole grid of a (sub-)grid */
/* Pushes cells 0..total-1 in pieces of step: from `all` when it is not
 * NULL, else each piece evaluated by p->run into buf. */
int tbrfi_plan_push_cells(tbrf_plan *p, int64_t total, int64_t step, const void *all, void *buf,
                          tbrf_push_fn push, void *user);
/* execute_grid and stream_grid of the methods that evaluate any piece:
 * prepare, then eval_grid (the whole grid, or row pieces into a buffer). */
int tbrfi_method_execute_grid(tbrf_plan *p, uint64_t r, void *values);
int tbrfi_method_stream_grid(tbrf_plan *p, uint64_t r, int64_t step, tbrf_push_fn push, void *user);
/* Stubs of absent features: TBRF_ERR_UNSUPPORTED with a message. */
int tbrfi_method_no_prepare(tbrf_plan *p, uint64_t r);
int tbrfi_method_no_eval_grid(tbrf_plan *p, int64_t first, int64_t count, void *values);
int tbrfi_method_no_eval_points(tbrf_plan *p, int64_t n, const double *xyz, void *values);
void tbrfi_method_no_release(tbrf_plan *p);

/* The periodic plan's box, NUFFT setup and fine-grid cache
 * (method_nufft.c); a status with a message. */
int tbrfi_nufft_method_setup(tbrf_plan *p, const double origin[3], const double length[3],
                             const int64_t n[3]);

#endif
