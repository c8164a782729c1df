/* tbrf/plan.h — plans: make, set a grid, sub-grid or points, execute, stream.
 * A feature header of the public API: <tbrf.h> includes every one;
 * each may also be included alone (conventions: tbrf.h). */
#ifndef TBRF_PLAN_PUBLIC_H
#define TBRF_PLAN_PUBLIC_H

#include "tbrf/common.h"
#include "tbrf/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------- plan */

typedef struct tbrf_plan tbrf_plan;

/* Makes a plan: model, dimension (2 or 3), the domain box [lo, hi] that
 * every later position must lie in (lo[2], hi[2] ignored in 2D), the
 * resolution (the smallest length to resolve: normally the grid spacing;
 * line samples are resolution/oversampling apart), the seed, and options.
 * The field is a pure function of (model, dim, domain, resolution, the
 * (math) options, seed, realization, position), and of the first
 * geometry when opts.lines is 0 (the default: tbrf_default_lines picks the
 * lines then). Costs one FFTW plan; lines are synthesised on the first
 * execute of each realization.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID, TBRF_ERR_SIZE (lines
 * too long for memory or 32-bit FFT sizes), TBRF_ERR_UNSUPPORTED,
 * TBRF_ERR_EMBEDDING, TBRF_ERR_DIVERGENT, TBRF_ERR_NOT_BUILT,
 * TBRF_ERR_NO_DEVICE, TBRF_ERR_FFT, TBRF_ERR_NO_MEMORY. On any status but
 * TBRF_ERR_NO_MEMORY *plan is set (read tbrf_plan_message, then destroy). */
TBRF_API int tbrf_make_plan(const tbrf_model *model, int dim, const double lo[3], const double hi[3],
                   double resolution, uint64_t seed, const tbrf_opts *opts, tbrf_plan **plan);

/* Makes a plan of a field periodic over the box [origin, origin + length)
 * (per axis; entries [2] ignored in 2D): the sum of the Fourier modes
 * k = 2 pi m / length with |m_d| < n_d / 2 (the mode 0 and, for even n_d,
 * the Nyquist modes |m_d| = n_d / 2 are zero), with the same random
 * numbers, keyed by the integer wavevector m, as the FFT method
 * (opts.method = TBRF_METHOD_FFT) on the grid of n cells of spacing
 * length / n at that origin. The field can then be evaluated anywhere:
 * tbrf_set_grid with any origin, spacing and size, tbrf_set_points and
 * tbrf_execute_stream at any positions (wrapped into the box: never
 * TBRF_ERR_OUT_OF_DOMAIN). A grid of n cells of spacing length / n runs the
 * FFT method (bitwise its values; tbrf_plan_method() says
 * TBRF_METHOD_FFT); any other geometry runs a type-2 non-uniform FFT
 * (TBRF_METHOD_NUFFT) with relative accuracy opts.accuracy, whose
 * oversampled grid (2 n_d per axis) is kept in the plan for the last two
 * realizations, so points moved between calls cost only the interpolation.
 * opts.method and opts.periodic are ignored; every other option applies.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (dim, non-finite or
 * non-positive length, bad options), TBRF_ERR_SIZE (n_d < 1, above 2^20,
 * or the box's modes larger than the memory budget: $TBRF_MEMORY_BUDGET
 * bytes, else half the physical memory), TBRF_ERR_DIVERGENT,
 * TBRF_ERR_NO_MEMORY. On any status but TBRF_ERR_NO_MEMORY *plan is set.
 * The oversampled grids are allocated when a realization is first
 * evaluated off the lattice, and checked against the budget then: that
 * execute (or stream) returns TBRF_ERR_SIZE when they do not fit. */
TBRF_API int tbrf_make_periodic_plan(const tbrf_model *model, int dim, const double origin[3],
                                     const double length[3], const int64_t n[3], uint64_t seed,
                                     const tbrf_opts *opts, tbrf_plan **plan);

/* Sets a regular grid: cell (i,j,k) sits at origin + spacing*(i,j,k),
 * n[0] x n[1] x n[2] cells (n[2] must be 1 in 2D), x fastest. Spacings may
 * differ per axis. The grid must lie inside the domain. 64-bit indexing:
 * up to 2^40 cells and beyond, as long as the product fits in int64.
 * A plan made with opts.lines = 0 draws the lines of tbrf_default_lines for
 * its first geometry (this grid) and keeps them for every later one; it
 * allocates them here, so this call may also return what tbrf_make_plan
 * returns for lines that do not fit (TBRF_ERR_SIZE, TBRF_ERR_NO_MEMORY,
 * TBRF_ERR_FFT).
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID, TBRF_ERR_SIZE,
 * TBRF_ERR_OUT_OF_DOMAIN, TBRF_ERR_BAD_PLAN. */
TBRF_API int tbrf_set_grid(tbrf_plan *plan, const double origin[3], const double spacing[3],
                  const int64_t n[3]);

/* Sets one box of a regular grid: the global grid is that of tbrf_set_grid
 * (cell (i,j,k) at origin + spacing*(i,j,k), n[0] x n[1] x n[2] cells),
 * and this plan evaluates only the cells start[d] .. start[d] + count[d] -
 * 1 of each axis, count[0] x count[1] x count[2] values, x fastest (local
 * cell (a,b,c) is global cell start + (a,b,c)). Any split of a grid into
 * boxes (slabs, pencils, blocks; one per MPI rank, say) gives at every cell
 * bitwise the value the whole grid's tbrf_set_grid + tbrf_execute gives
 * there, for every method and backend: each cell is computed from its
 * global index and the global origin, never from the box's corner
 * (doc/decomposition.md says exactly what is bitwise). Only the box must
 * lie inside the plan's domain. The FFT method (and a periodic plan's box
 * lattice) transforms the whole grid and cuts the box out, so it needs the
 * whole grid's memory on each caller. In 2D n[2], count[2] = 1 and
 * start[2] = 0. tbrf_set_grid(o, h, n) is tbrf_set_subgrid(o, h, n, 0, n).
 * Statuses: as tbrf_set_grid, and TBRF_ERR_SIZE for a box that is empty or
 * reaches outside the grid. */
TBRF_API int tbrf_set_subgrid(tbrf_plan *plan, const double origin[3], const double spacing[3],
                              const int64_t n[3], const int64_t start[3], const int64_t count[3]);

/* Sets n arbitrary points, xyz[dim*i + c]. The array is NOT copied: it must
 * stay valid until the next set_grid/set_points or destroy, and the caller
 * may move the points and call set_points again (cheap: an O(n) bounds
 * check, no allocation, once the plan's first geometry has fixed its
 * lines: points fix TBRF_DEFAULT_LINES_MIN of them when opts.lines is 0).
 * Statuses as tbrf_set_grid. */
TBRF_API int tbrf_set_points(tbrf_plan *plan, int64_t n, const double *xyz);

/* Number of cells or points execute will evaluate (a sub-grid's: its
 * box's cells); 0 before any geometry is set. Execute writes that many values, times dim for a vector field
 * (opts.vector != TBRF_SCALAR). */
TBRF_API int64_t tbrf_plan_count(const tbrf_plan *plan);

/* Evaluates realization r at the current geometry into values (double* or
 * float* per opts.precision, tbrf_plan_count() entries, times dim
 * interleaved per point for a vector field). Bitwise identical
 * for any thread count and evaluation order. Points are bounds-checked
 * again here (the caller may have moved them since set_points). Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_NO_GEOMETRY, TBRF_ERR_OUT_OF_DOMAIN,
 * TBRF_ERR_NO_MEMORY, TBRF_ERR_BAD_PLAN, TBRF_ERR_INVALID (a vector
 * field's realization >= 2^62). */
TBRF_API int tbrf_execute(tbrf_plan *plan, uint64_t realization, void *values);

/* Pull callback of the streaming execute: write up to max positions
 * (dim doubles each) for the points numbered from `first` on into xyz and
 * their number into *count; *count = 0 ends the stream. Non-zero return
 * aborts the run with TBRF_ERR_CALLBACK. */
typedef int (*tbrf_pull_fn)(void *user, int64_t first, int64_t max, TBRF_ARRAY double *xyz,
             TBRF_OUT int64_t *count);

/* Push callback: receives `count` values (double or float per
 * opts.precision; `count` points of dim values each for a vector field)
 * for points or cells numbered from `first` on. The buffer
 * is only valid during the call. Non-zero return aborts the run with
 * TBRF_ERR_CALLBACK. */
typedef int (*tbrf_push_fn)(void *user, int64_t first, int64_t count, const void *values);

/* Streaming evaluation at positions the library pulls chunk by chunk
 * (opts.chunk positions at a time, or an automatic size bounding memory),
 * pushing each chunk's values before pulling the next. Values are bitwise
 * those of set_points + execute for the same positions, whatever the chunk
 * size. Statuses: those of tbrf_execute, TBRF_ERR_CALLBACK, and
 * TBRF_ERR_INVALID when pull reports a count outside 0..max. */
TBRF_API int tbrf_execute_stream(tbrf_plan *plan, uint64_t realization, tbrf_pull_fn pull,
                        tbrf_push_fn push, void *user);

/* Streaming evaluation of the current grid: cells are pushed in x-fastest
 * order in chunks of whole rows (about opts.chunk cells), so a writer can
 * consume a grid larger than memory. Same values as tbrf_execute.
 * Statuses: those of tbrf_execute and TBRF_ERR_CALLBACK; TBRF_ERR_NO_GEOMETRY
 * if the geometry is points rather than a grid. */
TBRF_API int tbrf_execute_grid_stream(tbrf_plan *plan, uint64_t realization, tbrf_push_fn push,
                             void *user);

/* The bounds of the default lines (tbrf_default_lines). */
#define TBRF_DEFAULT_LINES_MIN 1024
#define TBRF_DEFAULT_LINES_MAX 16384
#define TBRF_DEFAULT_LINES_BYTES 1073741824

/* The turning-bands lines a plan draws when opts.lines is 0 (the default
 * of tbrf_default_opts), fixed by the plan's first geometry: on a grid
 * (tbrf_set_grid, or tbrf_set_subgrid's whole grid n), the lines whose
 * spectrum is isotropic up to the grid's Nyquist (tbrf_grid_isotropy's
 * *need), at least TBRF_DEFAULT_LINES_MIN and at most
 * TBRF_DEFAULT_LINES_MAX, and no more than fit TBRF_DEFAULT_LINES_BYTES
 * (8 bytes x 2 x diagonal x oversampling x line_length_factor /
 * resolution a line, 1 + dim sets of them for a vector field; never
 * fewer than the minimum); at points, TBRF_DEFAULT_LINES_MIN. The bound is
 * fixed, not the machine's memory, so the same parameters make the same
 * field everywhere; `tbrf generate`, Python and Fortran all leave the
 * lines to this rule. Arguments: those of tbrf_make_plan (dim, domain lo,
 * hi, resolution, opts; NULL opts: the defaults) and the grid's cell
 * counts n and spacing, both NULL for points. opts.lines > 0 is returned
 * as it is (what the plan draws). Pure: no plan needed, any thread.
 * Statuses: TBRF_OK; TBRF_ERR_NULL (lines, lo or hi NULL; *lines = 0);
 * TBRF_ERR_INVALID (dim not 2 or 3). */
TBRF_API int tbrf_default_lines(int dim, const double lo[3], const double hi[3], double resolution,
                                const int64_t n[3], const double spacing[3], const tbrf_opts *opts,
                                TBRF_OUT int32_t *lines);

/* The domain and resolution of a plan for the grid of n[0] x n[1] x n[2]
 * cells at origin + spacing*(i,j,k) (tbrf_set_grid's) when the caller
 * gives none, as `tbrf generate --grid`, Python's Field and Fortran take
 * them: lo = origin and hi = origin + spacing (n - 1), the first and last
 * cell along each axis, hi computed as tbrf_set_grid places the last cell
 * so the grid lies inside bit for bit; *resolution the finest spacing.
 * Entries [2] are ignored in 2D (lo[2], hi[2] set to 0). Pure: any thread.
 * Statuses: TBRF_OK; TBRF_ERR_NULL (a NULL pointer); TBRF_ERR_INVALID (dim
 * not 2 or 3, origin or spacing not finite, a spacing not > 0, a last
 * cell beyond double precision); TBRF_ERR_SIZE (a count below 1). On any
 * status but TBRF_OK lo and hi are unchanged and *resolution is 0. */
TBRF_API int tbrf_grid_default_domain(int dim, const double origin[3], const double spacing[3],
                                      const int64_t n[3], double lo[3], double hi[3],
                                      TBRF_OUT double *resolution);

/* The box of n points xyz[dim*i + c]: widens [lo, hi] (entries 0 ..
 * dim-1; [2] untouched in 2D) to hold them. Start from lo[c] = +INFINITY,
 * hi[c] = -INFINITY (the empty box); calls on the consecutive pieces of a
 * large set give the whole set's box. That box, unpadded (points on its
 * faces lie inside), is the domain `tbrf generate --points`, Python's
 * Field and Fortran give a plan for points when the caller gives none,
 * and tbrf_points_resolution its resolution. A NaN or infinite coordinate
 * is refused: it lies in no domain. bad (may be NULL) receives the index
 * of the first such point, -1 when there is none. Pure: any thread.
 * Statuses: TBRF_OK; TBRF_ERR_NULL (lo or hi NULL, xyz NULL with n > 0);
 * TBRF_ERR_INVALID (dim not 2 or 3; a coordinate not finite); TBRF_ERR_SIZE
 * (n < 0). On any status but TBRF_OK lo and hi are unchanged. */
TBRF_API int tbrf_points_bounds(int dim, int64_t n, const double *xyz, double lo[3],
                                double hi[3], TBRF_OUT int64_t *bad);

/* The resolution of a plan for npoints points in the domain [lo, hi]
 * (given, or their box from tbrf_points_bounds) when the caller gives
 * none, as `tbrf generate --points`, Python's Field and Fortran take it:
 * the mean spacing (V / npoints)^(1/s) over the s axes of positive extent
 * (V the product of their extents), kept within [E / 8192, E], E the
 * longest extent (a tight cluster in a wide domain would otherwise ask for
 * lines of absurd length: E / 8192 is already about 1 GiB of them); 1 when
 * no axis has extent (one position). npoints 0 counts as one point.
 * Pure: any thread. Statuses: TBRF_OK; TBRF_ERR_NULL (a NULL pointer);
 * TBRF_ERR_INVALID (dim not 2 or 3; a bound not finite, hi < lo on an axis
 * (the empty box of no points), an extent beyond double precision);
 * TBRF_ERR_SIZE (npoints < 0). *resolution is 0 on any status but TBRF_OK. */
TBRF_API int tbrf_points_resolution(int dim, int64_t npoints, const double lo[3],
                                    const double hi[3], TBRF_OUT double *resolution);

/* The resolution of a periodic plan (tbrf_make_periodic_plan) over the box
 * of length[d] per axis for npoints points when the caller gives none, as
 * `tbrf generate --points --box`, Python's Field(box=...) and Fortran take
 * it: their mean spacing (box volume / npoints)^(1/dim), npoints 0 counting
 * as one (no clamp: every axis has its period, and the modes' bound, 2^20
 * an axis, refuses a crowd too dense for it). tbrf_periodic_default_modes
 * turns it into modes. Pure: any thread. Statuses: TBRF_OK; TBRF_ERR_NULL;
 * TBRF_ERR_INVALID (dim not 2 or 3, a length not finite and > 0, a mean
 * spacing beyond double precision); TBRF_ERR_SIZE (npoints < 0).
 * *resolution is 0 on any status but TBRF_OK. */
TBRF_API int tbrf_periodic_points_resolution(int dim, const double length[3], int64_t npoints,
                                             TBRF_OUT double *resolution);

/* The Fourier modes n[d] of a periodic plan over the box of length[d] when
 * the caller gives none, as `tbrf generate --box`, Python's Field(box=...)
 * and Fortran take them: n_d = floor(length_d / spacing_d + 0.5), the
 * lattice of spacing closest to spacing_d (halves up), spacing_d the first
 * grid's spacing along the axis, or the resolution on every axis (given,
 * or tbrf_periodic_points_resolution). n[2] is 1 in 2D. Pure: any thread.
 * Statuses: TBRF_OK; TBRF_ERR_NULL; TBRF_ERR_INVALID (dim not 2 or 3, a
 * length or spacing not finite and > 0); TBRF_ERR_SIZE (a count below 1 or
 * above 2^20, the range tbrf_make_periodic_plan takes). On any status but
 * TBRF_OK n is unchanged. */
TBRF_API int tbrf_periodic_default_modes(int dim, const double length[3], const double spacing[3],
                                         int64_t n[3]);

/* How far in k the spectrum of a turning-bands field of `lines` lines on
 * the grid of n cells of spacing per axis (dim 2 or 3) is isotropic:
 * *kf = 2 pi / (the longest side n spacing), *knyq = pi / (the coarsest
 * spacing), *kiso the wavenumber up to which the shells of the grid's
 * spectrum scatter like a Gaussian field's within 2% (3D: 0.63 sqrt(L)
 * kf; 2D: 0.57 L kf; measured by bench/bench_isotropy, doc/method.md,
 * "How many lines"), and *need the lines whose kiso is the Nyquist.
 * Statuses: TBRF_OK; TBRF_ERR_NULL (a NULL pointer); TBRF_ERR_INVALID
 * (dim not 2 or 3). */
TBRF_API int tbrf_grid_isotropy(int dim, const int64_t n[3], const double spacing[3], int32_t lines,
                                TBRF_OUT double *kf, TBRF_OUT double *knyq, TBRF_OUT double *kiso,
                                TBRF_OUT double *need);

/* What a plan decided, for reports and file attributes. */
typedef struct tbrf_plan_info {
    int32_t dim;               /* 2 or 3 */
    int32_t lines;             /* L (0 until a geometry fixes the default, and for the FFT) */
    int64_t line_samples;      /* M, samples per line (FFT size) */
    double line_spacing;       /* delta = resolution / oversampling, or half that where the
                                  model has power in the band's upper half (doc/method.md,
                                  "Interpolation and the band edge") */
    double line_length;        /* Lambda = M * delta */
    double variance;           /* the model's sigma^2 in this dimension */
    double variance_resolved;  /* expected variance of the generated field: sigma^2
                                  minus power beyond the line Nyquist or below 2 pi/Lambda */
    double amplitude;          /* A used: P(k) = A P0(k) */
    int32_t padding;           /* circulant embedding doublings used (0 for spectral) */
    int32_t backend;           /* the backend that runs (never AUTO) */
} tbrf_plan_info;

/* Fills *info. Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_BAD_PLAN. */
TBRF_API int tbrf_plan_get_info(const tbrf_plan *plan, tbrf_plan_info *info);

/* The method execute runs for the plan's current geometry: TBRF_METHOD_FFT,
 * TBRF_METHOD_NUFFT (periodic plans off the box lattice) or TBRF_METHOD_TB
 * once a grid or points are set (AUTO resolved), the opts.method before
 * (TBRF_METHOD_NUFFT for a periodic plan); -1 for a NULL or failed plan. With the FFT method,
 * tbrf_plan_info.variance_resolved is the variance of the periodic field
 * (the model's P summed over the grid's modes). */
TBRF_API int tbrf_plan_method(const tbrf_plan *plan);

/* The Fourier modes the FFT method transforms, for a caller that
 * transforms them itself (libtbrf_mpi's distributed FFT, tbrf_mpi.h): rows
 * first_row .. first_row + rows - 1 of the half-complex array of the
 * plan's grid into modes, n_x/2 + 1 complex numbers a row (re and im
 * interleaved: 2 (n_x/2 + 1) doubles). Row i_z n_y + i_y (i_y in 2D) holds
 * m_x = 0 .. n_x/2 at (m_y, m_z), the FFT order of (i_y, i_z), times
 * e^{i k.origin}; FFTW's unnormalised c2r transform of all the rows is
 * the field tbrf_execute returns (bitwise with the plan's own 3D or 2D
 * plan; a different transform rounds differently). The grid must be
 * whole (tbrf_set_grid, not a sub-grid) with tbrf_plan_method
 * TBRF_METHOD_FFT, and n its cell counts (checked). component: -1 for a
 * scalar plan, 0 .. dim-1 for a vector plan's components. Each mode is a
 * function of (seed, realization, m) alone, so any split of the rows
 * gives the whole array's bits. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_BAD_PLAN, TBRF_ERR_NO_GEOMETRY (no grid), TBRF_ERR_UNSUPPORTED
 * (not the FFT method, a sub-grid, another n), TBRF_ERR_INVALID (rows
 * outside the array, a component the plan lacks, a vector realization
 * >= 2^62), TBRF_ERR_NO_MEMORY. */
TBRF_API int tbrf_fft_modes(tbrf_plan *plan, const int64_t n[3], uint64_t realization, int component,
                            int64_t first_row, int64_t rows, TBRF_ARRAY double *modes);

/* Sets the plan's cancel hook (tbrf_cancel_fn; cancel NULL removes it):
 * tbrf_execute, tbrf_execute_stream and tbrf_execute_grid_stream then
 * poll cancel(user) between blocks of their work (turning bands: blocks
 * of cells or points; FFT method: blocks of rows of modes, and after the
 * transform; NUFFT: its chunks), and stop with TBRF_ERR_CANCELLED when
 * it returns non-zero. The hook stays until it is set again. Statuses:
 * TBRF_OK, TBRF_ERR_NULL (plan NULL), TBRF_ERR_BAD_PLAN. */
TBRF_API int tbrf_set_cancel(tbrf_plan *plan, tbrf_cancel_fn cancel, void *user);

/* The status of the last call on the plan (TBRF_ERR_BAD_PLAN for every call
 * on a plan whose make failed, whose own message then stays). */
TBRF_API int tbrf_plan_status(const tbrf_plan *plan);

/* Detailed message of the last call's failure ("" if it succeeded);
 * never NULL. Valid until the next call on the plan. */
TBRF_API const char *tbrf_plan_message(const tbrf_plan *plan);

/* Frees the plan and its lines; NULL is ignored. */
TBRF_API void tbrf_destroy(tbrf_plan *plan);

/* Name of a backend id ("cpu", "opencl", "cuda", "auto"), or NULL. */
TBRF_API const char *tbrf_backend_name(int backend);

/* TBRF_OK if the backend is compiled in and has a device, otherwise
 * TBRF_ERR_NOT_BUILT or TBRF_ERR_NO_DEVICE (TBRF_ERR_INVALID for an
 * unknown id). */
TBRF_API int tbrf_backend_available(int backend);

#ifdef __cplusplus
}
#endif
#endif /* TBRF_PLAN_PUBLIC_H */
