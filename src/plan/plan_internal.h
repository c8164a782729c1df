/* plan_internal.h — what the plan layer's other files (the inflow sampler,
 * src/plan/inflow.c) need from a plan: a plan made without line storage,
 * and a read-only view of its sizing and geometry. */
#ifndef TBRF_PLAN_INTERNAL_H
#define TBRF_PLAN_INTERNAL_H

#include <stdint.h>

#include "methods/turning_bands/lines.h"
#include "tbrf.h"

/* tbrf_make_plan's checks, model freezing and line sizing (so the lines
 * are exactly those of a plan made with the same arguments), with the
 * FFTW line plan but without the L x M line samples: the caller keeps
 * windows of the lines itself. Statuses and messages as tbrf_make_plan. */
int tbrfi_plan_make_lineless(const tbrf_model *model, int dim, const double lo[3],
                             const double hi[3], double resolution, uint64_t seed,
                             const tbrf_opts *opts, tbrf_plan **plan);

typedef struct tbrfi_plan_view {
    int dim, L, threads;
    uint64_t seed;
    const line_spec *spec; /* M, delta, offset, mode variances */
    void *fft;             /* the c2r plan of size M */
    double lo[3], hi[3], center[3];
    double tolerance;      /* positions this far outside [lo, hi] are accepted */
} tbrfi_plan_view;

void tbrfi_plan_view_of(const tbrf_plan *p, tbrfi_plan_view *v);

/* The memory budget ($TBRF_MEMORY_BUDGET, else half the physical memory;
 * 0 when the variable is malformed). */
double tbrfi_plan_memory_budget(void);

#endif
