/* tbrf/inflow.h — inflow boundaries.
 * A feature header of the public API: <tbrf.h> includes every one;
 * each may also be included alone (conventions: tbrf.h). */
#ifndef TBRF_INFLOW_PUBLIC_H
#define TBRF_INFLOW_PUBLIC_H

#include "tbrf/common.h"
#include "tbrf/model.h"
#include "tbrf/plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -------------------------------------------------- inflow boundaries */

/* An inflow boundary (doc/streaming.md, "Inflow boundaries"): a frozen
 * turning-bands field in a tube [lo, hi] that a wind of constant velocity
 * v carries into a simulation, sampled each step in the caller's ghost
 * cells at x - v t. The sampler holds, of every line, only the window of
 * samples that the tube's projection on that line's direction reaches, in
 * double or float; its values are bitwise those of tbrf_execute on a plan
 * made with the same arguments, at the positions x - v t (double lines).
 * A fill only reads the sampler, so the threads of a code's loop over
 * boundary blocks may share one: bitwise the serial fills (opts.threads
 * is each call's own OpenMP team, nested there). tbrf_inflow_set_density
 * and tbrf_inflow_destroy must not run beside a fill; with threads, read
 * each call's returned status (the message is the last call's). */
typedef struct tbrf_inflow tbrf_inflow;

/* What tbrf_inflow_fill writes, set by tbrf_inflow_set_density (delta is
 * the field value; its variance is the model's, 1 by default). */
enum tbrf_inflow_density {
    TBRF_DENSITY_FIELD = 0,     /* delta itself (the default) */
    TBRF_DENSITY_LOGNORMAL = 1, /* rho_w exp(sigma delta - sigma^2/2): positive, mean rho_w for unit-variance delta */
    TBRF_DENSITY_LINEAR = 2     /* rho_w max(1 + sigma delta, rho_floor): mean rho_w while clipping is rare */
};

/* The tube that ghost cells filling the box [ghost_lo, ghost_hi] sweep
 * when sampled at x - v t for 0 <= t <= t_end: lo = min(ghost_lo,
 * ghost_lo - v t_end), hi = max(ghost_hi, ghost_hi - v t_end) per axis
 * (dim axes; the third is 0 in 2D). Pass it to tbrf_inflow_create as the
 * domain: the lines are then long enough for every step up to t_end.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (dim not 2 or 3, a
 * value not finite, ghost_lo > ghost_hi, t_end < 0). */
TBRF_API int tbrf_inflow_tube(int dim, const double ghost_lo[3], const double ghost_hi[3],
                              const double velocity[3], double t_end, double lo[3], double hi[3]);

/* Makes an inflow sampler for the field of tbrf_make_plan(model, dim, lo,
 * hi, resolution, seed, opts) at `realization`, moving with `velocity`,
 * and synthesises its lines now (one FFT per line; the memory is the
 * windows, tbrf_inflow_line_bytes, plus one line per thread while they are
 * made). line_precision TBRF_DOUBLE keeps the samples in double (values
 * bitwise those of the plan), TBRF_FLOAT in float (half the memory; the
 * values differ from the plan's by about 1e-7 of the field's rms). It runs
 * on the CPU whatever opts.backend says, and opts.precision is ignored
 * (values are double). Scalar turning-bands fields only. Statuses: those of
 * tbrf_make_plan; TBRF_ERR_INVALID (velocity not finite, line_precision);
 * TBRF_ERR_UNSUPPORTED (opts.vector, opts.method FFT, opts.periodic);
 * TBRF_ERR_SIZE (the windows exceed the memory budget, TBRF_MEMORY_BUDGET).
 * As with plans, *inflow is set even on failure (NULL only on
 * TBRF_ERR_NO_MEMORY): read tbrf_inflow_message, then destroy it. */
TBRF_API int tbrf_inflow_create(const tbrf_model *model, int dim, const double lo[3],
                                const double hi[3], double resolution, uint64_t seed,
                                uint64_t realization, const tbrf_opts *opts,
                                const double velocity[3], int line_precision, tbrf_inflow **inflow);

/* Makes an inflow sampler whose field is periodic across the flow: a wind
 * into a box periodic in y and z (in 2D: y) with no seam there
 * (doc/streaming.md, "A wind periodic across the flow"). period[d] > 0
 * makes axis d periodic with that period (the box's), 0 leaves it
 * unwrapped (the flow's axis); at least one of the dim entries must be
 * > 0. The field is that of tbrf_make_periodic_plan(model, dim, origin =
 * lo, length, n, seed, opts) at `realization`, length[d] = period[d] on a
 * periodic axis and F (2 (hi[d] - lo[d]) + the longest period) on the
 * others (F = opts.line_length_factor), n[d] = ceil(length[d] /
 * resolution): Fourier modes on the lattice 2 pi m / length, so along the
 * flow the tube never sees its own wrap-around (two of its positions are
 * always at least a longest period plus the tube's length apart through
 * it). Values are those of that plan at the shifted positions (tbrf_set_points
 * + tbrf_execute, a non-uniform FFT of relative accuracy opts.accuracy),
 * bitwise; at x and x + period[d] they agree to rounding of the wrapped
 * position. A fill checks the shifted position against [lo, hi] on the
 * unwrapped axes only. The field's variance is the lattice sum of the
 * model's spectrum (tbrf_plan_get_info's variance_resolved of that plan),
 * below the model's by the modes longer than the box. The memory is the
 * plan's (its modes, and an oversampled grid of 2 n[d] per axis made
 * here, checked against the memory budget); fills of one sampler from
 * several threads run one at a time (under a lock), each with
 * opts.threads; tbrf_inflow_line_bytes gives 0. Statuses: those of
 * tbrf_make_periodic_plan; TBRF_ERR_NULL; TBRF_ERR_INVALID (dim, lo > hi,
 * a value not finite, resolution <= 0, a period < 0 or none > 0);
 * TBRF_ERR_UNSUPPORTED (opts.vector); TBRF_ERR_SIZE (more than 2^20
 * cells on an axis, or the memory budget). *inflow is set as by
 * tbrf_inflow_create; every other tbrf_inflow_* call takes it. */
TBRF_API int tbrf_inflow_create_periodic(const tbrf_model *model, int dim, const double lo[3],
                                         const double hi[3], const double period[3],
                                         double resolution, uint64_t seed, uint64_t realization,
                                         const tbrf_opts *opts, const double velocity[3],
                                         tbrf_inflow **inflow);

/* Sets what tbrf_inflow_fill writes (enum tbrf_inflow_density) with the
 * mean density rho_w > 0, the log or linear contrast sigma >= 0 and, for
 * TBRF_DENSITY_LINEAR, the floor 0 <= rho_floor < 1 (relative to rho_w)
 * that keeps the density positive. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID, TBRF_ERR_BAD_PLAN (a sampler whose create failed). */
TBRF_API int tbrf_inflow_set_density(tbrf_inflow *inflow, int kind, double rho_w, double sigma,
                                     double rho_floor);

/* One step: values[i] = the density (tbrf_inflow_set_density) of the field
 * at x_i - v t for the n positions xyz (interleaved x,y[,z], as
 * tbrf_set_points), each coordinate computed as x_d - (v_d t) in double.
 * Cost: n x lines interpolations, nothing else; bitwise the same for any
 * thread count. Every shifted position must lie in the tube (the plan's
 * domain and its tolerance): otherwise nothing is written and the status
 * is TBRF_ERR_OUT_OF_DOMAIN with the first such point in the message.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (t not finite, n < 0),
 * TBRF_ERR_OUT_OF_DOMAIN, TBRF_ERR_NO_MEMORY, TBRF_ERR_BAD_PLAN. */
TBRF_API int tbrf_inflow_fill(tbrf_inflow *inflow, double t, int64_t n, const double *xyz,
                              TBRF_ARRAY double *values);

/* tbrf_inflow_fill on a block of ghost cells: cell (i, j, k) at origin_d +
 * spacing_d i_d (n[2] = 1 in 2D), values x-fastest (C [nz][ny][nx],
 * Fortran (nx, ny, nz)). Statuses as tbrf_inflow_fill, TBRF_ERR_SIZE for a
 * count < 1 or a product that overflows. */
TBRF_API int tbrf_inflow_fill_grid(tbrf_inflow *inflow, double t, const double origin[3],
                                   const double spacing[3], const int64_t n[3],
                                   TBRF_ARRAY double *values);

/* Sets the sampler's cancel hook (tbrf_cancel_fn; cancel NULL removes
 * it): tbrf_inflow_fill and tbrf_inflow_fill_grid then poll cancel(user)
 * between blocks of their tiles and stop with TBRF_ERR_CANCELLED when it
 * returns non-zero. Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_BAD_PLAN
 * (the create failed). Not while a call on the sampler runs. */
TBRF_API int tbrf_inflow_set_cancel(tbrf_inflow *inflow, tbrf_cancel_fn cancel, void *user);

/* Bytes of line samples the sampler holds (full = 0), or that a plan made
 * with the same arguments holds (full = 1: lines x samples per line x 8);
 * 0 for NULL, a failed sampler or a periodic one (it has no lines). */
TBRF_API int64_t tbrf_inflow_line_bytes(const tbrf_inflow *inflow, int full);

/* The detail of the sampler's last failure ("" after success; a fixed
 * text for NULL). */
TBRF_API const char *tbrf_inflow_message(const tbrf_inflow *inflow);

/* Frees the sampler and its lines; NULL is ignored. */
TBRF_API void tbrf_inflow_destroy(tbrf_inflow *inflow);

#ifdef __cplusplus
}
#endif
#endif /* TBRF_INFLOW_PUBLIC_H */
