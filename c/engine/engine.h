/* engine.h — the turning-bands engine: one object that turns (model,
 * domain, resolution, seed, options) into lines and projects them onto
 * grids, sub-grids and points through the backend table. The plan holds
 * one (c/plan/plan.c), the inflow sampler holds one without line storage
 * (c/apps/inflow/inflow.c), and the turbulence driver can hold one for its
 * non-periodic path: they compose it, as FINUFFT's type-3 plan holds an
 * inner type-2 plan, instead of repeating its setup.
 *
 * What it does, in the order a plan always did it (the messages are the
 * plan's, word for word, so a plan's failures read as before):
 *   1. checks the arguments and the options (tbrf_opts, defaults for NULL);
 *   2. looks up and initialises the backend (opts.backend);
 *   3. copies the model with its amplitude frozen for `dim` (a model set by
 *      variance would otherwise redo its variance integral at every line
 *      mode) and refuses a divergent variance;
 *   4. sets the domain: lo, hi, centre, diagonal `extent`, and the
 *      tolerance within which positions outside [lo, hi] are accepted;
 *   5. with storage TBRFI_ENGINE_WINDOWS or _LINES: sizes the lines
 *      (tbrfi_lines_spec_build) and makes the FFTW plan of size M;
 *   6. with storage TBRFI_ENGINE_LINES: allocates one set of L x M line
 *      samples (and, for vector fields, the weighted copies).
 *
 * Per realization, tbrfi_engine_lines synthesises the lines (directions,
 * sub-sample shifts, one inverse real FFT per line; vector amplitudes and
 * weighted lines for vector fields) unless they are cached: up to two line
 * sets, the second made only when a realization comes back and both fit the
 * memory budget. Every new set gets a new generation, on which GPU backends
 * re-upload. tbrfi_engine_project_grid / _points then project the current
 * set through the backend.
 *
 * A caller with lines of its own (the driver's Ornstein-Uhlenbeck line
 * modes) makes the engine with TBRFI_ENGINE_WINDOWS, gets the axes of a
 * realization from tbrfi_engine_axes (the line sizing in view->spec), and
 * hands its lines over with tbrfi_engine_use_lines before projecting:
 *
 *     tbrfi_engine *e;
 *     tbrf_opts o; tbrf_default_opts(&o); o.backend = ...; o.lines = L;
 *     if (tbrfi_engine_make(shape, dim, lo, hi, resolution, seed, &o,
 *                           TBRFI_ENGINE_WINDOWS, &e))
 *         ... tbrfi_engine_msg(e) says why (e NULL: no memory) ...
 *     const tbrfi_engine_view *v = tbrfi_engine_view_of(e);
 *     double *axis = malloc(4 * L doubles);  tbrfi_engine_axes(e, 0, axis);
 *     ... fill lines[c L M + l M + j], c < ncomp, from v->spec ...
 *     tbrfi_engine_use_lines(e, axis, lines, ncomp);  (a new generation)
 *     tbrfi_engine_project_points(e, n, xyz, values); (ncomp values a point)
 *     tbrfi_engine_destroy(e);
 *
 * Not thread-safe: one engine per thread of callers, like a plan. */
#ifndef TBRF_ENGINE_H
#define TBRF_ENGINE_H

#include <stdint.h>

#include "backends/backend.h"
#include "core/cancel.h"
#include "core/geometry.h"
#include "core/message.h"
#include "methods/turning_bands/lines.h"
#include "tbrf.h"

/* What the engine keeps of the lines. */
enum tbrfi_engine_storage {
    TBRFI_ENGINE_NONE = 0,    /* no line sizing at all (a plan running the FFT method) */
    TBRFI_ENGINE_WINDOWS = 1, /* sizing and the FFTW plan; the caller keeps (windows of) the lines */
    TBRFI_ENGINE_LINES = 2    /* sizing, FFTW plan and L x M samples per cached realization */
};

typedef struct tbrfi_engine tbrfi_engine;

/* What the engine decided, read-only for its users. */
typedef struct tbrfi_engine_view {
    int dim, L, ncomp;  /* L = opts.lines (0 until tbrfi_engine_fix_lines, when left to the
                           geometry); ncomp = dim for a vector field, else 1 */
    int storage;        /* a tbrfi_engine_storage */
    uint64_t seed;
    double zeta;        /* effective solenoidal weight of a vector field */
    double amplitude, variance;
    const tbrf_model *model; /* the copy with the amplitude frozen */
    tbrf_opts opts;          /* the options, defaults filled in */
    const backend_ops *backend;
    line_spec spec;          /* all zero with storage NONE */
    void *fft;               /* the c2r plan of size M, or NULL */
    double lo[3], hi[3], center[3], extent, resolution;
    double tolerance;        /* positions this far outside [lo, hi] are accepted */
} tbrfi_engine_view;

/* Makes an engine (steps 1-6 above). *engine is always set: to NULL when
 * there is no memory for the engine itself (status TBRF_ERR_NO_MEMORY),
 * else to an engine whose tbrfi_engine_msg holds the status and message of
 * a failure; the caller destroys it either way. Statuses as
 * tbrf_make_plan. */
int tbrfi_engine_make(const tbrf_model *model, int dim, const double lo[3], const double hi[3],
                      double resolution, uint64_t seed, const tbrf_opts *opts, int storage,
                      tbrfi_engine **engine);

void tbrfi_engine_destroy(tbrfi_engine *e);

/* The engine's decisions; valid while it lives (after a failed make, only
 * the fields set before the failure). */
const tbrfi_engine_view *tbrfi_engine_view_of(const tbrfi_engine *e);

/* The status and message of the engine's last failure. */
const tbrfi_message *tbrfi_engine_msg(const tbrfi_engine *e);

/* An engine made with opts.lines = 0 and storage LINES holds no lines
 * until this call gives their number (the plan's first geometry, by
 * tbrf_default_lines): it sets L and allocates them. A no-op when L is
 * already set or the storage keeps no lines. TBRF_OK, or the failure of
 * an allocation as tbrfi_engine_make reports it (TBRF_ERR_SIZE,
 * TBRF_ERR_NO_MEMORY, TBRF_ERR_FFT, TBRF_ERR_INVALID for a bad
 * TBRF_MEMORY_BUDGET), after which L is 0 again. */
int tbrfi_engine_fix_lines(tbrfi_engine *e, int lines);

/* Whether the engine holds L x M line samples (storage LINES). */
int tbrfi_engine_has_lines(const tbrfi_engine *e);

/* The 4 L axis values of realization r: u_l / delta (3 per line, the
 * unused third 0 in 2D), then the L sub-sample shifts: the values the
 * projection uses. Needs storage WINDOWS or LINES. */
void tbrfi_engine_axes(const tbrfi_engine *e, uint64_t r, double *axis);

/* Makes realization r's lines the current set, synthesising them unless
 * cached. Storage LINES. TBRF_OK, TBRF_ERR_UNSUPPORTED (no storage) or
 * TBRF_ERR_NO_MEMORY, with a message. */
int tbrfi_engine_lines(tbrfi_engine *e, uint64_t r);

/* Synthesises realization r's lines keeping only windows of them
 * (tbrfi_lines_synthesize_windows: samples first[l] .. first[l] +
 * count[l] - 1 of line l at out + base[l], doubles or floats by
 * precision), bitwise the samples of the full lines. Storage WINDOWS.
 * TBRF_OK or TBRF_ERR_NO_MEMORY. */
int tbrfi_engine_windows(const tbrfi_engine *e, uint64_t r, const int64_t *first, const int64_t *count,
                         const int64_t *base, int precision, void *out);

/* Makes the caller's lines the current set, under a new generation:
 * axis as tbrfi_engine_axes, lines[(c L + l) M + j] for components
 * c < ncomp (1..3). Both must stay valid while they are projected. */
void tbrfi_engine_use_lines(tbrfi_engine *e, const double *axis, const double *lines, int ncomp);

/* Cells first..first+count-1 of grid g (x fastest), or n points xyz
 * (dim coordinates each, not checked against the domain: the caller
 * does), projected from the current set: ncomp values of opts.precision
 * per position, components interleaved. A status with a message (the
 * backend's detail when it has one). */
int tbrfi_engine_project_grid(tbrfi_engine *e, const grid_geom *g, int64_t first, int64_t count,
                              void *values);
int tbrfi_engine_project_points(tbrfi_engine *e, int64_t n, const double *xyz, void *values);

/* The owner's cancel hook (tbrf_set_cancel and the like; fn NULL: none,
 * the default): the projections above poll it between blocks of
 * positions and fail with TBRF_ERR_CANCELLED and a message when it asks
 * to stop; the owner's other long work polls tbrfi_engine_cancel(e). */
void tbrfi_engine_set_cancel(tbrfi_engine *e, tbrf_cancel_fn fn, void *user);
const tbrfi_cancel *tbrfi_engine_cancel(const tbrfi_engine *e);

/* The memory budget (tbrf_memory_budget) in bytes; 0 when
 * $TBRF_MEMORY_BUDGET is malformed. */
double tbrfi_engine_memory_budget(void);

#endif
