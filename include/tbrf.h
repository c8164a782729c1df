/*
 * tbrf.h — Gaussian random fields by the spectral turning-bands method.
 *
 * The one public C header of libtbrf. Conventions (doc/design.md, "Conventions"):
 *  - every function returns a status (TBRF_OK == 0) or a value documented as
 *    such; nothing exits, prints or keeps global mutable state;
 *  - objects follow the sqlite3 habit: a constructor hands back an object
 *    even when it fails (except on TBRF_ERR_NO_MEMORY, where it is NULL), so
 *    the detailed message can be read with tbrf_model_message() or
 *    tbrf_plan_message(); destroy it in every case;
 *  - positions are float64, interleaved (x,y[,z]) per point — Fortran's
 *    xyz(3,n) is the same memory; grid values are x-fastest, so C's
 *    [nz][ny][nx] and Fortran's (nx,ny,nz) are the same memory;
 *  - the spectral density follows the cosmology convention
 *    C(r) = ∫ d^dk/(2π)^d P(k) e^{ik·h}.
 */
#ifndef TBRF_H
#define TBRF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "tbrf_version.h" /* TBRF_VERSION_MAJOR, _MINOR, _PATCH, _STRING */

/* TBRF_API marks the functions libtbrf exports: the library is compiled
 * with hidden visibility, so only what this header documents is visible
 * to the programs it is linked into (tbrf lives inside other people's
 * simulation codes, whose own symbols must not clash with its internals). */
#if defined(TBRF_BUILDING) && defined(__GNUC__)
#define TBRF_API __attribute__((visibility("default")))
#else
#define TBRF_API
#endif

/* The marks of the pointers to numbers a function writes: TBRF_OUT, one
 * value handed back; TBRF_ARRAY, an array (its length given by another
 * argument or the documentation) or a count read and written, which
 * Fortran passes as an array of one. C ignores them; the Fortran generator
 * (fortran/gen_tbrf_c.awk) maps the first to an intent(out) scalar and
 * the second to an array, and stops at such a pointer with neither. */
#define TBRF_OUT
#define TBRF_ARRAY

/* ---------------------------------------------------------------- status */

/* Status codes returned by every fallible function. Values are stable: they
 * are recorded in files and mirrored by the Fortran module. */
typedef enum tbrf_status {
    TBRF_OK = 0,
    TBRF_ERR_NULL = 1,           /* a required pointer argument was NULL */
    TBRF_ERR_INVALID = 2,        /* a parameter is NaN, infinite, negative or out of its range */
    TBRF_ERR_SIZE = 3,           /* a size is zero, negative, or its product would overflow */
    TBRF_ERR_NO_MEMORY = 4,      /* an allocation failed */
    TBRF_ERR_FILE = 5,           /* a file could not be opened or read */
    TBRF_ERR_TABLE = 6,          /* a tabulated spectrum is malformed */
    TBRF_ERR_EMBEDDING = 7,      /* circulant embedding stays negative after padding */
    TBRF_ERR_UNSUPPORTED = 8,    /* the combination of model, dimension and method is not offered */
    TBRF_ERR_NOT_BUILT = 9,      /* the requested backend was not compiled into this library */
    TBRF_ERR_NO_DEVICE = 10,     /* the backend is built but found no usable device */
    TBRF_ERR_NO_GEOMETRY = 11,   /* execute was called before set_grid or set_points */
    TBRF_ERR_OUT_OF_DOMAIN = 12, /* a position lies outside the plan's domain */
    TBRF_ERR_CALLBACK = 13,      /* a user callback returned non-zero; the run was aborted */
    TBRF_ERR_FFT = 14,           /* FFTW could not make a plan */
    TBRF_ERR_DIVERGENT = 15,     /* the model's variance integral diverges or vanishes */
    TBRF_ERR_BAD_PLAN = 16       /* the plan failed to build; see tbrf_plan_message() */
} tbrf_status;

/* Short, static, English description of a status code. Never NULL: an
 * unknown code gives "unknown status". Thread-safe. */
TBRF_API const char *tbrf_strerror(int status);

/* The library version as "MAJOR.MINOR.PATCH", identical to
 * TBRF_VERSION_STRING of the header the library was built with. */
TBRF_API const char *tbrf_version(void);

/* ----------------------------------------------------------------- models */

/* A covariance or spectral model of a stationary isotropic field. The model
 * holds the shape and the amplitude; the dimension (2 or 3) is given where
 * it matters (the plan, the query functions), because the same covariance
 * has a different spectrum, and the same spectrum a different variance, in
 * 2D and 3D. Models are immutable once handed to a plan (the plan copies). */
typedef struct tbrf_model tbrf_model;

/* User spectrum callback: returns the shape P0(k) >= 0 at wavenumber k for
 * the given dimension; the model's spectrum is A * P0(k) on [kmin, kmax].
 * Must be thread-safe and pure (same k, same answer). */
typedef double (*tbrf_spectrum_fn)(double k, int dim, void *user);

/* Power law P(k) = A k^index for kmin <= k <= kmax, zero outside.
 * Requires 0 <= kmin < kmax < inf and finite index; whether the variance
 * converges (kmin = 0 needs index > -dim) is checked when a dimension is
 * known. Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID,
 * TBRF_ERR_NO_MEMORY. */
TBRF_API int tbrf_model_powerlaw(double index, double kmin, double kmax, tbrf_model **model);

/* Gaussian covariance C(r) = sigma^2 exp(-(r/length)^2), length > 0.
 * Statuses as tbrf_model_powerlaw. */
TBRF_API int tbrf_model_gaussian(double length, tbrf_model **model);

/* Exponential covariance C(r) = sigma^2 exp(-r/length), length > 0 (the
 * Matern model with nu = 1/2). Statuses as tbrf_model_powerlaw. */
TBRF_API int tbrf_model_exponential(double length, tbrf_model **model);

/* Matern covariance C(r) = sigma^2 2^(1-nu)/Gamma(nu) x^nu K_nu(x), x =
 * r/length, with length > 0 and 0 < nu <= 50. Its spectrum falls as
 * k^-(2 nu + dim). Statuses as tbrf_model_powerlaw. */
TBRF_API int tbrf_model_matern(double length, double nu, tbrf_model **model);

/* Von Karman covariance: the Matern model with nu = 1/3, whose spectrum
 * falls as k^-11/3 in 3D (Kolmogorov turbulence); length is the outer
 * scale parameter (the spectrum flattens below k ~ 1/length). Statuses as
 * tbrf_model_powerlaw. */
TBRF_API int tbrf_model_vonkarman(double length, tbrf_model **model);

/* Tabulated spectrum: n pairs (k[i], P[i]) with 0 < k strictly increasing,
 * P finite and >= 0; log-log interpolation between rows (linear where a P
 * is zero) and zero outside [k[0], k[n-1]]. The arrays are copied. P is the
 * shape; the amplitude A multiplies it (A = 1 unless set). n >= 2.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_TABLE (with the row in the
 * message), TBRF_ERR_SIZE (n so large that n doubles overflow a size_t),
 * TBRF_ERR_NO_MEMORY. */
TBRF_API int tbrf_model_table(size_t n, const double *k, const double *p, tbrf_model **model);

/* Tabulated spectrum read from a text file of two whitespace-separated
 * columns "k P"; '#' starts a comment; blank lines are ignored. The message
 * of a malformed file names the file and the line. Bounded input: a line
 * (comment included) may be up to 1 MiB, the file up to 2^22 rows and
 * 2^26 lines; a NUL byte is refused as binary data (so /dev/zero or a
 * runaway pipe fail at once, never grow memory). Statuses: those of
 * tbrf_model_table, TBRF_ERR_FILE and TBRF_ERR_SIZE (a limit passed). */
TBRF_API int tbrf_model_table_file(const char *path, tbrf_model **model);

/* The rows of a tabulated model (tbrf_model_table or _table_file) exactly
 * as the library holds them, so that a program can record the table it
 * ran with instead of parsing the file a second time. On entry *n is the
 * room in k and p (rows); on return it is the number of rows, which are
 * copied into k and p only if they fit (n = 0 with NULL arrays asks for
 * the count; then call again with that room). Statuses: TBRF_OK,
 * TBRF_ERR_NULL (model or n NULL, or k or p NULL where the rows fit) and
 * TBRF_ERR_INVALID (not a usable tabulated model). */
TBRF_API int tbrf_model_table_data(const tbrf_model *model, TBRF_ARRAY size_t *n,
                                   TBRF_ARRAY double *k, TBRF_ARRAY double *p);

/* Spectrum given by a callback on [kmin, kmax] (0 <= kmin < kmax < inf).
 * The callback and user pointer must stay valid as long as any plan made
 * from this model. Statuses as tbrf_model_powerlaw. */
TBRF_API int tbrf_model_callback(tbrf_spectrum_fn fn, void *user, double kmin, double kmax,
                        tbrf_model **model);

/* Sets the amplitude through the variance sigma^2 > 0 (the default, with
 * sigma^2 = 1): the plan picks A so that C(0) = sigma^2 in its dimension.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID. */
TBRF_API int tbrf_model_set_variance(tbrf_model *model, double variance);

/* Sets the amplitude A > 0 directly: P(k) = A P0(k). For the covariance
 * models (Gaussian, exponential, Matern, von Karman) P0 is the spectrum of
 * the unit-variance covariance, so A is the variance. Statuses as
 * tbrf_model_set_variance. */
TBRF_API int tbrf_model_set_amplitude(tbrf_model *model, double amplitude);

/* Cuts the model's spectrum to the band kmin <= k <= kmax: P(k) = 0
 * outside it, for any model (power law, covariance models, table,
 * callback; a power law's or callback's own range is narrowed, a cut
 * wider than it changes nothing). 0 <= kmin < kmax, kmax may be +INFINITY
 * (no upper cut). Everything follows the cut spectrum: the variance (so a
 * model set by variance is renormalised to sigma^2 over the band), the
 * covariance (computed from the cut spectrum; a covariance model loses its
 * closed form, so TBRF_LINES_CIRCULANT no longer applies to it) and the
 * lines. Cutting twice intersects the bands. Statuses: TBRF_OK,
 * TBRF_ERR_NULL, TBRF_ERR_INVALID (NaN, negative kmin, kmax <= kmin, or a
 * band that leaves no power: the message says which). */
TBRF_API int tbrf_model_set_band(tbrf_model *model, double kmin, double kmax);

/* The model's spectral density P(k) in dimension dim (2 or 3), amplitude
 * included; NaN for a bad dim or a model whose variance diverges. */
TBRF_API double tbrf_model_spectrum(const tbrf_model *model, int dim, double k);

/* The model's covariance C(r) in dimension dim, amplitude included;
 * closed form for covariance models, numerical Hankel transform of the
 * spectrum otherwise. NaN for a bad dim or a divergent model. */
TBRF_API double tbrf_model_covariance(const tbrf_model *model, int dim, double r);

/* The variance C(0) = sigma^2 in dimension dim (NaN if divergent). */
TBRF_API double tbrf_model_variance(const tbrf_model *model, int dim);

/* A one-line description of the model with all its parameters, e.g.
 * "powerlaw index=-3 kmin=0.05 kmax=3 variance=1". Never NULL. */
TBRF_API const char *tbrf_model_describe(const tbrf_model *model);

/* Detailed message of the last failure on this model ("" if none). */
TBRF_API const char *tbrf_model_message(const tbrf_model *model);

/* The status the model was left in by its constructor (TBRF_OK if usable). */
TBRF_API int tbrf_model_status(const tbrf_model *model);

/* Frees the model; NULL is ignored. Plans made from it stay valid. */
TBRF_API void tbrf_model_destroy(tbrf_model *model);

/* The parameters of the model kinds, as bits (tbrf_model_kind_params):
 * in the order of tbrf_model_make's arguments, and the rows of a table. */
enum tbrf_model_param {
    TBRF_PARAM_INDEX = 1,
    TBRF_PARAM_KMIN = 2,
    TBRF_PARAM_KMAX = 4,
    TBRF_PARAM_LENGTH = 8,
    TBRF_PARAM_NU = 16,
    TBRF_PARAM_TABLE = 32
};

/* The name of model kind i = 0, 1, ... ("powerlaw", "gaussian", ...,
 * "table", "band", "parabola": every kind but the callback), NULL past
 * the last: the names tbrf_model_make and tbrf_model_kind_params take. */
TBRF_API const char *tbrf_model_kind_name(int i);

/* The parameters the kind takes and those it needs (TBRF_PARAM_* bits).
 * kmin and kmax are taken by every kind: a power law's, band's or
 * parabola's own range, a band cut (tbrf_model_set_band) for the others.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (unknown kind). */
TBRF_API int tbrf_model_kind_params(const char *kind, TBRF_OUT int *takes, TBRF_OUT int *needs);

/* Makes a model of the named kind from its parameters, NaN meaning "not
 * given": powerlaw (index, kmin = 0 if not given, kmax), gaussian,
 * exponential and vonkarman (length), matern (length, nu), band and
 * parabola (kmin = 0 if not given, kmax); for the kinds without a range of
 * their own a kmin or kmax given cuts the spectrum to that band (the other
 * end open). The same model as the kind's own constructor (and
 * tbrf_model_set_band). A table is made from its rows or file
 * (tbrf_model_table, tbrf_model_table_file), not here. Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (unknown kind, a parameter the
 * kind does not take or a needed one missing, the constructor's checks),
 * TBRF_ERR_NO_MEMORY. */
TBRF_API int tbrf_model_make(const char *kind, double index, double kmin, double kmax,
                             double length, double nu, tbrf_model **model);

/* The log-log slope of the model's spectrum far above its low wavenumbers
 * in dimension dim, ignoring a band cut: index (power law), -(2 nu + dim)
 * (Matern, exponential, von Karman), 1 - dim (band); NaN where there is
 * no single one (Gaussian, table, callback, parabola) or for a bad model
 * or dim. */
TBRF_API double tbrf_model_tail_slope(const tbrf_model *model, int dim);

/* ---------------------------------------------------------------- options */

enum tbrf_precision { TBRF_DOUBLE = 0, TBRF_FLOAT = 1 };
enum tbrf_backend_id { TBRF_BACKEND_CPU = 0, TBRF_BACKEND_OPENCL = 1, TBRF_BACKEND_CUDA = 2,
                       TBRF_BACKEND_AUTO = 3 };
enum tbrf_line_method { TBRF_LINES_SPECTRAL = 0, TBRF_LINES_CIRCULANT = 1 };
enum tbrf_method { TBRF_METHOD_TB = 0, TBRF_METHOD_FFT = 1, TBRF_METHOD_AUTO = 2,
                   TBRF_METHOD_NUFFT = 3 };
/* Kind of field execute writes (opts.vector): one value per point, or a
 * vector of `dim` components per point whose Fourier modes (FFT, NUFFT) or
 * line amplitudes (turning bands) are projected by zeta P_perp +
 * (1 - zeta) P_par (doc/method.md, "Vector fields"). */
enum tbrf_vector_kind { TBRF_SCALAR = 0, TBRF_VECTOR_SOLENOIDAL = 1, TBRF_VECTOR_COMPRESSIVE = 2,
                        TBRF_VECTOR_MIXED = 3 };

/* Plain options; fill with tbrf_default_opts() and change what you need.
 * NULL wherever opts are taken means the defaults. Fields marked (math)
 * change the field's values and are recorded in output files. */
typedef struct tbrf_opts {
    int32_t lines;        /* (math) number of turning-bands lines L, default 1024 */
    int32_t oversampling; /* (math) line samples per resolution length q, default 4 */
    int32_t line_method;  /* (math) TBRF_LINES_SPECTRAL (default) or _CIRCULANT (3D covariance models) */
    int32_t max_padding;  /* (math) circulant embedding: at most 2^max_padding times the minimal length, default 3 */
    int32_t precision;    /* TBRF_DOUBLE (default) or TBRF_FLOAT output values */
    int32_t threads;      /* OpenMP threads, 0 = the OpenMP default; at most 1024 (more is
                             TBRF_ERR_INVALID), and a call starts at most 4 per processor
                             OpenMP sees (and OMP_THREAD_LIMIT): values never depend on it */
    int32_t backend;      /* TBRF_BACKEND_CPU (default), _OPENCL, _CUDA or _AUTO */
    int32_t device;       /* GPU backends: device index, -1 (default) = the first usable one */
    int32_t work_group;   /* GPU backends: work-group/block size, 0 (default) = tuned per device */
    int32_t unroll;       /* GPU backends: lines per inner-loop step, 0 (default) = tuned per device */
    int32_t method;       /* (math) TBRF_METHOD_TB (default): turning bands; _FFT: one inverse
                             FFT of random Fourier modes, regular grids only, the field periodic
                             over the grid (box n[d]*spacing[d]); _AUTO: FFT for a grid when
                             `periodic` is 1 and the transform fits in half the physical memory,
                             turning bands otherwise (points, non-periodic or huge grids).
                             tbrf_plan_method() tells which runs. */
    int32_t periodic;     /* (math) 1: the caller wants a field periodic over the grid (lets AUTO
                             choose FFT); 0 (default). 1 with TBRF_METHOD_TB is TBRF_ERR_UNSUPPORTED. */
    int64_t chunk;        /* positions or cells per streamed chunk, 0 = automatic */
    int32_t line_length_factor; /* (math) turning bands: lines F times the minimal length
                                   (2 x domain diagonal + correlation scale), default 1. A 2D
                                   line spectrum |k| P(|k|)/2 loses ~ its lowest bin, a share
                                   (ell/Lambda)^2 of the variance (doc/method.md, "Lines");
                                   F shrinks that loss F^2 times, at F times the line cost. */
    int32_t vector;       /* (math) TBRF_SCALAR (default): one value per point; _SOLENOIDAL,
                             _COMPRESSIVE, _MIXED: `dim` values per point, interleaved
                             (x,y[,z]) like positions, each component of variance sigma^2
                             (buffers hold tbrf_plan_count() * dim values; push callbacks get
                             count points of dim values). Realizations must be < 2^62. */
    int32_t reserved;     /* 0 */
    double zeta;          /* (math) TBRF_VECTOR_MIXED: solenoidal weight 0 <= zeta <= 1 of the
                             projection zeta P_perp + (1 - zeta) P_par; ignored otherwise
                             (SOLENOIDAL is zeta = 1, COMPRESSIVE zeta = 0). Default 0.5. */
    double accuracy;      /* (math) periodic plans evaluated off the box lattice (NUFFT):
                             requested relative accuracy, 1e-15 <= accuracy <= 0.1; 0
                             (default) = 1e-12 for double output, 1e-6 for float */
} tbrf_opts;

/* Fills *opts with the defaults listed in tbrf_opts. */
TBRF_API void tbrf_default_opts(tbrf_opts *opts);

/* The memory budget that every tbrf object (plans, drivers and their
 * caches, inflow samplers, readers and writers) checks a size against
 * before allocating it: $TBRF_MEMORY_BUDGET in bytes, an integer with an
 * optional binary suffix K, M, G or T, optionally followed by iB or B
 * ("4G", "512MiB"); else half the physical memory, at least 256 MiB.
 * Statuses: TBRF_OK; TBRF_ERR_NULL (bytes NULL); TBRF_ERR_INVALID (the
 * variable is set but is not such a size, or is 0: *bytes = 0). */
TBRF_API int tbrf_memory_budget(TBRF_OUT uint64_t *bytes);

/* ------------------------------------------------------------------- plan */

typedef struct tbrf_plan tbrf_plan;

/* Makes a plan: model, dimension (2 or 3), the domain box [lo, hi] that
 * every later position must lie in (lo[2], hi[2] ignored in 2D), the
 * resolution (the smallest length to resolve: normally the grid spacing;
 * line samples are resolution/oversampling apart), the seed, and options.
 * The field is a pure function of (model, dim, domain, resolution, the
 * (math) options, seed, realization, position). Costs one FFTW plan; lines
 * are synthesised on the first execute of each realization.
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
 * or an oversampled grid larger than the memory budget: $TBRF_MEMORY_BUDGET
 * bytes, else half the physical memory), TBRF_ERR_DIVERGENT,
 * TBRF_ERR_NO_MEMORY. On any status but TBRF_ERR_NO_MEMORY *plan is set. */
TBRF_API int tbrf_make_periodic_plan(const tbrf_model *model, int dim, const double origin[3],
                                     const double length[3], const int64_t n[3], uint64_t seed,
                                     const tbrf_opts *opts, tbrf_plan **plan);

/* Sets a regular grid: cell (i,j,k) sits at origin + spacing*(i,j,k),
 * n[0] x n[1] x n[2] cells (n[2] must be 1 in 2D), x fastest. Spacings may
 * differ per axis. The grid must lie inside the domain. 64-bit indexing:
 * up to 2^40 cells and beyond, as long as the product fits in int64.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID, TBRF_ERR_SIZE,
 * TBRF_ERR_OUT_OF_DOMAIN, TBRF_ERR_BAD_PLAN. */
TBRF_API int tbrf_set_grid(tbrf_plan *plan, const double origin[3], const double spacing[3],
                  const int64_t n[3]);

/* Sets n arbitrary points, xyz[dim*i + c]. The array is NOT copied: it must
 * stay valid until the next set_grid/set_points or destroy, and the caller
 * may move the points and call set_points again (cheap: an O(n) bounds
 * check, no allocation). Statuses as tbrf_set_grid. */
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

/* What a plan decided, for reports and file attributes. */
typedef struct tbrf_plan_info {
    int32_t dim;               /* 2 or 3 */
    int32_t lines;             /* L */
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

/* ------------------------------------------- random numbers and Monte Carlo */

/* The generators behind tbrf_rng_u32() and friends. The same bodies are
 * usable inside CUDA and OpenCL kernels from the headers under rng/ (see
 * doc/rng.md). */
enum tbrf_gen_id { TBRF_GEN_PHILOX = 0, TBRF_GEN_SARU = 1, TBRF_GEN_TEA8 = 2, TBRF_GEN_LCG64 = 3,
                   TBRF_GEN_LCG64_PERMUTED = 4 };

/* Conversions of 32-bit words (exact, the same bits on every backend):
 * U01 x 2^-32 in [0,1); S11 (x - 2^31) 2^-31 in [-1,1); NORMAL Box–Muller
 * on the word pair (2m, 2m+1) with u = (x + 0.5) 2^-32, giving values 2m
 * and 2m+1. Floats keep the top 24 bits: (x >> 8) 2^-24 and
 * ((x >> 8) - 2^23) 2^-23. */
enum tbrf_dist_id { TBRF_DIST_U01 = 0, TBRF_DIST_S11 = 1, TBRF_DIST_NORMAL = 2 };

/* Name of a generator id ("philox", "saru", "tea8", "lcg64",
 * "lcg64-permuted"), or NULL for an unknown id. */
TBRF_API const char *tbrf_rng_name(int gen);

/* Writes words offset .. offset+n-1 of stream `stream` of generator `gen`
 * with key `seed` into out[0..n-1]; any range gives the same words as
 * generating from word 0 (jump-ahead, no stored state). Word k is
 *   philox: philox4x32-10(ctr = (k/4 lo, 0x08000000 | k/4 hi, stream lo,
 *           stream hi), key = (seed lo, seed hi)) word k%4, k < 2^60 (the
 *           word-1 family no field, driver or initial condition draws
 *           from, so these words never repeat a field's random numbers);
 *   saru:   output k+1 of Saru seeded with 3 words (seed lo, seed hi,
 *           stream), stream < 2^32;
 *   tea8:   word k%2 of TEA8(v0 = k/2, v1 = stream; k0 = prehash(seed),
 *           k1..k3 the GPU key), seed, stream and k/2 < 2^32;
 *   lcg64, lcg64-permuted: out(x_{k+1}) of the LCG started at
 *           x_0 = jump(seed, stream 2^40), stream < 2^24.
 * Statuses: TBRF_OK, TBRF_ERR_NULL (out NULL with n > 0), TBRF_ERR_SIZE
 * (n < 0), TBRF_ERR_INVALID (unknown gen, stream or range out of bounds). */
TBRF_API int tbrf_rng_u32(int gen, uint64_t seed, uint64_t stream, uint64_t offset, int64_t n,
                 TBRF_ARRAY uint32_t *out);

/* Values offset .. offset+n-1 of the same stream converted by `dist`
 * (TBRF_DIST_U01, _S11 or _NORMAL; for NORMAL, value k uses words
 * 2(k/2) and 2(k/2)+1). Statuses as tbrf_rng_u32, and TBRF_ERR_INVALID for
 * an unknown dist. */
TBRF_API int tbrf_rng_double(int gen, uint64_t seed, uint64_t stream, uint64_t offset, int64_t n,
                    int dist, TBRF_ARRAY double *out);

/* As tbrf_rng_double in single precision: U01 and S11 use the documented
 * 24-bit float conversions, NORMAL is the double value rounded. */
TBRF_API int tbrf_rng_float(int gen, uint64_t seed, uint64_t stream, uint64_t offset, int64_t n,
                   int dist, TBRF_ARRAY float *out);

/* One Philox4x32-10 block: out = philox(ctr, key). ctr/out may alias.
 * With a NULL argument nothing is done (no status: it cannot fail). */
TBRF_API void tbrf_rng_philox4x32(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);

/* TEA8 hash of v[0..1] in place with key[0..3]; key NULL uses the GPU key
 * 0xA341316C 0xC8013EA4 0xAD90777D 0x7E95761E; v NULL does nothing. */
TBRF_API void tbrf_rng_tea8(uint32_t v[2], const uint32_t key[4]);

/* The global-seed pre-hash gs*0x12345677+0x12345; gs ^= gs>>16; gs*=0x45679. */
TBRF_API uint32_t tbrf_rng_seed_prehash(uint32_t seed);

/* Seeds a Saru state (state[0] = LCG word x, state[1] = Weyl word w) from
 * nwords = 1, 2 or 3 words. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (nwords not 1..3). */
TBRF_API int tbrf_rng_saru_seed(int nwords, const uint32_t *seeds, uint32_t state[2]);

/* Steps a Saru state n times writing the n outputs to out. Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_SIZE (n < 0). */
TBRF_API int tbrf_rng_saru_next(uint32_t state[2], int64_t n, TBRF_ARRAY uint32_t *out);

/* Advances a Saru state by n steps in O(log n); the same state as n calls
 * of the step. Statuses: TBRF_OK, TBRF_ERR_NULL. */
TBRF_API int tbrf_rng_saru_jump(uint32_t state[2], uint64_t n);

/* Keyed micro-streams (Saru states from TEA8 hashes, nothing stored): the
 * stream of one id (a particle, a cell) at time step `step` under `seed`,
 * written to state (then drawn with tbrf_rng_saru_next). Statuses: TBRF_OK,
 * TBRF_ERR_NULL. */
TBRF_API int tbrf_rng_stream_id(uint32_t seed, uint32_t step, uint32_t id, uint32_t state[2]);
/* The stream of the unordered pair (i, j) at a time step — the same state
 * for (i, j) and (j, i), so both members of a pair interaction draw the
 * same numbers without communicating. Statuses: TBRF_OK, TBRF_ERR_NULL. */
TBRF_API int tbrf_rng_stream_pair(uint32_t seed, uint32_t step, uint32_t i, uint32_t j,
                         uint32_t state[2]);

/* The 64-bit LCG state n steps after x (O(log n)). */
TBRF_API uint64_t tbrf_rng_lcg64_jump(uint64_t x, uint64_t n);

/* Block-form tables of length s: y[j] = a^(j+1), t[j] = C(j+1), so that
 * the s states after x are t[j] + x y[j]. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_SIZE (s < 1). */
TBRF_API int tbrf_rng_lcg64_block(int64_t s, TBRF_ARRAY uint64_t *y, TBRF_ARRAY uint64_t *t);

/* Built-in Monte Carlo integrands on [0,1]^dim: Genz's six families and
 * NAG's D01GBF example (dim 4). */
enum tbrf_mc_integrand { TBRF_MC_OSCILLATORY = 0, TBRF_MC_PRODUCT_PEAK = 1,
                         TBRF_MC_CORNER_PEAK = 2, TBRF_MC_GAUSSIAN = 3, TBRF_MC_CONTINUOUS = 4,
                         TBRF_MC_DISCONTINUOUS = 5, TBRF_MC_NAG = 6 };
enum tbrf_mc_algorithm { TBRF_MC_SEQUENTIAL = 0, TBRF_MC_VECTORIZED = 1 };

/* Batched user integrand: f[p] = f(x[p*dim .. p*dim+dim-1]) for p < n.
 * Return 0, or non-zero to abort (the integration then returns
 * TBRF_ERR_CALLBACK). Called concurrently from several threads by the
 * vectorized algorithm, so it must be thread-safe. */
typedef int (*tbrf_mc_fn)(void *user, int64_t n, int dim, const double *x, TBRF_ARRAY double *f);

/* Name of a built-in integrand ("oscillatory", "productpeak",
 * "cornerpeak", "gaussian", "continuous", "discontinuous", "nag"), or NULL. */
TBRF_API const char *tbrf_mc_integrand_name(int integrand);

/* The exact integral over [0,1]^dim of a built-in integrand with
 * parameters a[0..dim-1] > 0 and u[0..dim-1] in [0,1] (NULL: the defaults
 * a_i = 1, u_i = 0.5). dim >= 1 (discontinuous: >= 2; cornerpeak: <= 20;
 * nag: 4; all <= 1024). Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID,
 * TBRF_ERR_UNSUPPORTED (dim outside the integrand's range). */
TBRF_API int tbrf_mc_exact(int integrand, int dim, const double *a, const double *u,
                           TBRF_OUT double *exact);

/* Estimates the integral of a built-in integrand over [0,1]^dim from n >= 2
 * points: out[0] the estimate, out[1] its standard error
 * sqrt(var(f)/n). Points are successive dim-tuples of the 64-bit LCG
 * (doubles (x >> 12) 2^-52) started at x_0 = seed. algorithm
 * TBRF_MC_SEQUENTIAL steps the LCG one number at a time on one thread;
 * TBRF_MC_VECTORIZED uses the block form (block of `block` points, 0 = the
 * Hockney–Jesshope s* of tbrf_mc_block_size, at most 1024 / dim) with
 * OpenMP threads and SIMD;
 * both use the same points and give the same bits (for any block size
 * and thread count). Memory does not grow with n (the statistics are
 * combined in groups of 2^25 points). Statuses: those of
 * tbrf_mc_exact, TBRF_ERR_SIZE (n < 2 or block < 0), TBRF_ERR_INVALID
 * (unknown algorithm). */
TBRF_API int tbrf_mc_integrate(int integrand, int dim, const double *a, const double *u, int64_t n,
                      uint64_t seed, int algorithm, int64_t block, double out[2]);

/* As tbrf_mc_integrate for a user integrand over the box [lo, hi] (NULL:
 * the unit cube; lo[i] < hi[i] finite). Statuses: as tbrf_mc_integrate,
 * and TBRF_ERR_CALLBACK when fn returned non-zero. */
TBRF_API int tbrf_mc_integrate_fn(tbrf_mc_fn fn, void *user, int dim, const double *lo, const double *hi,
                         int64_t n, uint64_t seed, int algorithm, int64_t block, double out[2]);

/* As tbrf_mc_integrate (vectorized) for a built-in integrand on a GPU
 * backend (TBRF_BACKEND_OPENCL or TBRF_BACKEND_CUDA; device -1 = the first
 * usable one): the same points and the same chunked statistics as the CPU,
 * so the result equals the CPU's up to the device's rounding of cos, exp,
 * pow (a few ulps per point). n <= 2^40 (the chunks' sums come back at
 * once; TBRF_ERR_SIZE beyond). Statuses: those of tbrf_mc_integrate, and
 * TBRF_ERR_NOT_BUILT, TBRF_ERR_NO_DEVICE, TBRF_ERR_INVALID (backend not a
 * GPU backend). */
TBRF_API int tbrf_mc_integrate_device(int backend, int device, int integrand, int dim, const double *a,
                             const double *u, int64_t n, uint64_t seed, double out[2]);

/* Measures now (about 0.1 s) the per-block overhead beta of the vectorized
 * LCG in units of the time of one number: times the block generator for
 * several block sizes s and fits T(s) = tau (N + beta N/s). block = 0 in
 * tbrf_mc_integrate uses the environment variable TBRF_LCG_BETA when set,
 * else this measurement when n dim >= 2^24, else beta = 64. Statuses:
 * TBRF_OK, TBRF_ERR_NULL. */
TBRF_API int tbrf_mc_measure_beta(TBRF_OUT double *beta);

/* The block size s* = sqrt(beta n / dim) of the Hockney–Jesshope model,
 * rounded and clamped to [1, 2^20 / dim] points; beta <= 0 measures it.
 * (block = 0 in tbrf_mc_integrate uses min(s*, 1024 / dim): the model
 * counts no memory traffic, and a block of 1024 numbers with its tables,
 * 24 KiB, stays in the L1 cache.) Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_SIZE (n < 1 or dim < 1). */
TBRF_API int tbrf_mc_block_size(int64_t n, int dim, double beta, TBRF_OUT int64_t *s);

/* The method execute runs for the plan's current geometry: TBRF_METHOD_FFT,
 * TBRF_METHOD_NUFFT (periodic plans off the box lattice) or TBRF_METHOD_TB
 * once a grid or points are set (AUTO resolved), the opts.method before
 * (TBRF_METHOD_NUFFT for a periodic plan); -1 for a NULL or failed plan. With the FFT method,
 * tbrf_plan_info.variance_resolved is the variance of the periodic field
 * (the model's P summed over the grid's modes). */
TBRF_API int tbrf_plan_method(const tbrf_plan *plan);

/* -------------------------------------------------------------- cosmology
 * Background and linear power spectra for cosmological initial conditions
 * (doc/arepo.md, "Cosmology"). Matter + cosmological constant + curvature
 * Omega_k = 1 - omega_m - omega_lambda, no radiation; k in h/Mpc and
 * lengths in Mpc/h where the Eisenstein & Hu fit is concerned. */

/* E(a) = H(a)/H0 = sqrt(omega_m a^-3 + Omega_k a^-2 + omega_lambda) into
 * *hubble. Requires 0 < omega_m <= 10, |omega_lambda| <= 10, a > 0 finite and
 * E^2(a) > 0. Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (*hubble NaN). */
TBRF_API int tbrf_cosmo_hubble(double omega_m, double omega_lambda, double a,
                               TBRF_OUT double *hubble);

/* The linear growth factor D(z) normalised to D(0) = 1 into *growth, from the
 * exact integral D ∝ E(a) ∫_0^a da'/(a' E(a'))^3 (Heath 1977), a = 1/(1+z);
 * D = a exactly when omega_m = 1, omega_lambda = 0. Requires the ranges of
 * tbrf_cosmo_hubble, -1 < z <= 1e7, and E^2 > 0 from a = 0 to max(a, 1).
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (*growth NaN). */
TBRF_API int tbrf_cosmo_growth(double omega_m, double omega_lambda, double z,
                               TBRF_OUT double *growth);

/* The linear growth rate f = dln D/dln a at redshift z into *rate, exact for
 * the same model (close to Omega_m(z)^0.55 in flat LCDM). Arguments and
 * statuses as tbrf_cosmo_growth. */
TBRF_API int tbrf_cosmo_growth_rate(double omega_m, double omega_lambda, double z,
                                    TBRF_OUT double *rate);

/* The Eisenstein & Hu (1998) matter transfer function T(k), k in h/Mpc,
 * into *transfer: wiggles = 1 the full fit with baryon acoustic oscillations
 * (their eq. 16-24), 0 the no-wiggle form (eq. 29-31); T(0) = 1. Requires
 * 0 < omega_b < omega_m <= 10, 0.1 < h <= 2, 0 < t_cmb <= 100 (kelvin;
 * 2.7255 today), k >= 0 finite. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (*transfer NaN). */
TBRF_API int tbrf_cosmo_eh_transfer(double omega_m, double omega_b, double h, double t_cmb,
                                    int wiggles, double k, TBRF_OUT double *transfer);

/* The rms sigma(R) of a 3D model smoothed with a top-hat sphere of radius
 * r (in the model's length unit: Mpc/h for tbrf_model_eisenstein_hu, so r
 * = 8 gives sigma8), amplitude included: sigma^2 = (1/2 pi^2) ∫ k^2 P(k)
 * W^2(kr) dk, integrated knot to knot (tables) in panels that resolve the
 * window's oscillations. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (failed model, r not finite and > 0), TBRF_ERR_DIVERGENT. */
TBRF_API int tbrf_cosmo_sigma_r(const tbrf_model *model, double r, TBRF_OUT double *sigma);

/* Sets the model's amplitude so that tbrf_cosmo_sigma_r(model, r) = sigma
 * (sigma8 normalisation: r = 8 Mpc/h). Works for any model, e.g. a CAMB
 * matterpower.dat or CLASS pk.dat read by tbrf_model_table_file (both are
 * "k P" columns with '#' comments). Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID, TBRF_ERR_DIVERGENT (message in tbrf_model_message). */
TBRF_API int tbrf_model_normalize_sigma(tbrf_model *model, double r, double sigma);

/* The linear matter power spectrum P(k) = A k^n_s T(k)^2 with the Eisenstein
 * & Hu transfer function (wiggles as in tbrf_cosmo_eh_transfer), k in
 * h/Mpc, as a tabulated model on [kmin, kmax] (400 rows per decade,
 * log-log interpolation, zero outside; kmax <= 1e12 kmin). The amplitude is
 * the variance 1 until set: normalise with tbrf_model_normalize_sigma(model,
 * 8, sigma8) and scale by D(z)^2 with tbrf_model_set_amplitude. Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (a failed model with the message
 * is handed back), TBRF_ERR_NO_MEMORY. */
TBRF_API int tbrf_model_eisenstein_hu(double omega_m, double omega_b, double h, double n_s,
                                      double t_cmb, int wiggles, double kmin, double kmax,
                                      tbrf_model **model);

/* ------------------------------------------------ domain decomposition */

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

/* ------------------------------------------------------ turbulence driving
 * An Ornstein-Uhlenbeck (OU) forcing field for simulation codes
 * (doc/driving.md): the Fourier modes of a periodic box in a band of the
 * spectrum, each an OU process advanced on a fixed driving interval, so the
 * force at time t is a pure function of (spectrum, parameters, seed,
 * floor(t / dt_update), position). */

/* The shell spectrum of TurbGen's "band": k^(dim-1) P(k) flat on
 * kmin <= k <= kmax (so P ~ k^(1-dim)), zero outside; 0 <= kmin < kmax
 * finite. A model like the others (variance 1 until set). Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID, TBRF_ERR_NO_MEMORY. */
TBRF_API int tbrf_model_band(double kmin, double kmax, tbrf_model **model);

/* TurbGen's "parabola": k^(dim-1) P(k) = 1 - u^2 with u = (2k - kmin -
 * kmax) / (kmax - kmin), which peaks mid-band and is zero at both ends.
 * Arguments and statuses as tbrf_model_band. */
TBRF_API int tbrf_model_parabola(double kmin, double kmax, tbrf_model **model);

typedef struct tbrf_driver tbrf_driver;

/* How the driver sets its amplitude (tbrf_driver_params.normalization). */
enum tbrf_drive_norm { TBRF_DRIVE_RMS_ENSEMBLE = 0, TBRF_DRIVE_RMS_EXACT = 1,
                       TBRF_DRIVE_INJECTION = 2 };
/* How the driver sums its modes at positions (tbrf_driver_params.eval). */
enum tbrf_drive_eval { TBRF_DRIVE_AUTO = 0, TBRF_DRIVE_DIRECT = 1, TBRF_DRIVE_NUFFT = 2 };

/* Driver parameters; fill with tbrf_driver_default_params(). */
typedef struct tbrf_driver_params {
    int32_t dim;           /* 3 (default) or 2: positions and force components */
    int32_t periodic;      /* 1 (default): Fourier modes of the box; 0: the non-periodic domain
                              [origin, origin + length] by turning bands (OU line modes;
                              doc/driving.md, "Non-periodic domains") */
    double origin[3];      /* the box [origin, origin + length) (or the domain), default 0 */
    double length[3];      /* default 1 */
    double zeta;           /* solenoidal weight 0 <= zeta <= 1 of zeta P_perp + (1 - zeta)
                              P_par, default 1 (divergence-free) */
    double tcorr;          /* OU autocorrelation time T > 0, default 1 */
    double dt_update;      /* driving interval: the modes change at t = j dt_update;
                              0 (default) = tcorr / 10 */
    double rms;            /* target rms of the force, sqrt(<|f|^2>), default 1 */
    double injection;      /* TBRF_DRIVE_INJECTION: energy injection rate per unit volume */
    double density;        /* TBRF_DRIVE_INJECTION: mean density, default 1 */
    int32_t normalization; /* TBRF_DRIVE_RMS_ENSEMBLE (default): rms is the OU stationary
                              (ensemble) rms; _RMS_EXACT: every update is rescaled to rms over
                              the box exactly (Parseval, from the modes); _INJECTION: the
                              ensemble rms that injects `injection` (doc/driving.md) */
    int32_t interpolate;   /* 0 (default): the force is constant between updates; 1: linear
                              in time between updates j and j + 1 */
    int32_t eval;          /* TBRF_DRIVE_AUTO (default), _DIRECT (sum of the modes) or
                              _NUFFT (type-2 non-uniform FFT of the modes) */
    int32_t threads;       /* OpenMP threads, 0 = the OpenMP default */
    double accuracy;       /* _NUFFT: relative accuracy 1e-15 .. 0.1, 0 (default) = 1e-12 */
} tbrf_driver_params;

/* Fills *params with the defaults listed in tbrf_driver_params. */
TBRF_API void tbrf_driver_default_params(tbrf_driver_params *params);

/* Makes a driver: the modes k = 2 pi m / length (integer m != 0; never
 * the mean, so no net momentum) where the model's P(|k|) > 0, each an
 * OU process of variance P(|k|) times the projection, keyed by (seed, m,
 * update). The model's shape matters, not its amplitude (the driver's
 * rms sets that); its support must be bounded (a covariance model needs
 * tbrf_model_set_band) and hold at most 2^20 modes with |m_d| <= 511.
 * The model is read during the call only (the driver keeps its modes).
 * With periodic = 0 the modes are those of 512 fixed turning-bands lines
 * over the domain instead (line modes with P1 > 0, dim OU processes
 * each), positions must lie in the domain, and the exact rms, the NUFFT,
 * tbrf_driver_rms and tbrf_driver_modes are TBRF_ERR_UNSUPPORTED: they
 * need the box's Fourier modes.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (a parameter NaN or
 * out of range, a failed model), TBRF_ERR_UNSUPPORTED (an unbounded
 * spectrum; periodic = 0 with TBRF_DRIVE_RMS_EXACT or TBRF_DRIVE_NUFFT),
 * TBRF_ERR_SIZE (too many modes, none in the box, eval = TBRF_DRIVE_NUFFT
 * with fine grids above 1 GiB, or lines above 1 GiB), TBRF_ERR_FFT,
 * TBRF_ERR_NO_MEMORY.
 * On any status but TBRF_ERR_NO_MEMORY *driver is set (read
 * tbrf_driver_message, then destroy). */
TBRF_API int tbrf_driver_make(const tbrf_model *model, uint64_t seed,
                              const tbrf_driver_params *params, tbrf_driver **driver);

/* The force at time t >= 0 at n positions xyz[dim*i + c] (wrapped into
 * the box; the array is read during the call only, so moved cells cost
 * nothing to set again) into out[dim*i + c]. The OU state is cached: a
 * later time advances it, an earlier one replays from update 0 (cost
 * O(updates x modes)); values never depend on the history of calls.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (t NaN, negative, or
 * beyond 2^31 updates; a non-finite coordinate), TBRF_ERR_OUT_OF_DOMAIN
 * (periodic = 0: a position outside the domain, or NaN), TBRF_ERR_SIZE (n
 * < 0 or n dim overflowing),
 * TBRF_ERR_NO_MEMORY, TBRF_ERR_FFT, TBRF_ERR_BAD_PLAN (a driver whose make
 * failed). */
TBRF_API int tbrf_driver_points(tbrf_driver *driver, double t, int64_t n, const double *xyz,
                                TBRF_ARRAY double *out);

/* The force at time t on the grid origin + spacing (i, j, k), n[0] x n[1]
 * x n[2] cells (n[2] = 1 in 2D), x fastest, dim values per cell into out.
 * Unless eval is TBRF_DRIVE_NUFFT the modes are summed axis by axis (M_x
 * + 1 products per cell instead of one per mode; equal to the points'
 * values to rounding). Statuses as tbrf_driver_points (TBRF_ERR_INVALID
 * for a non-finite origin or spacing, TBRF_ERR_SIZE for counts < 1 or
 * overflowing). Not thread-safe on one driver, like a plan. */
TBRF_API int tbrf_driver_grid(tbrf_driver *driver, double t, const double origin[3],
                              const double spacing[3], const int64_t n[3], TBRF_ARRAY double *out);

/* Streaming evaluation at time t: positions are pulled chunk by chunk
 * (65536 at a time) and each chunk's force (dim doubles per point) is
 * pushed before the next pull, so memory stays bounded. Values are
 * bitwise those of tbrf_driver_points. Statuses: those of
 * tbrf_driver_points and TBRF_ERR_CALLBACK. */
TBRF_API int tbrf_driver_stream(tbrf_driver *driver, double t, tbrf_pull_fn pull,
                                tbrf_push_fn push, void *user);

/* The rms of the force over the box at time t, sqrt((1/V) ∫ |f|^2), from
 * the modes by Parseval (no cell is evaluated). Statuses as
 * tbrf_driver_points, and TBRF_ERR_UNSUPPORTED for periodic = 0. */
TBRF_API int tbrf_driver_rms(tbrf_driver *driver, double t, TBRF_OUT double *rms);

/* The modes at time t: on entry *n is the room in m and coef (modes), on
 * return the number of modes, whose integer wavevectors (3 per mode) and
 * complex coefficients (2 dim doubles per mode: re, im of each component)
 * are written only if they fit. The force is f(x) = sum over these modes
 * of 2 Re(coef e^{i k.(x - origin)}), k = 2 pi m / length (one member of
 * each +-m pair is listed). Statuses as tbrf_driver_points, and
 * TBRF_ERR_UNSUPPORTED for periodic = 0 (line modes, not box modes). */
TBRF_API int tbrf_driver_modes(tbrf_driver *driver, double t, TBRF_ARRAY int64_t *n,
                               TBRF_ARRAY int32_t *m, TBRF_ARRAY double *coef);

/* What a driver decided. */
typedef struct tbrf_driver_info {
    int64_t modes;       /* driven modes (one of each +-m pair); periodic = 0: line modes,
                            lines x modes per line */
    int32_t eval;        /* TBRF_DRIVE_DIRECT or _NUFFT: what AUTO chose */
    int32_t reserved;    /* 0 */
    double dt_update;    /* the driving interval */
    double decay;        /* exp(-dt_update / tcorr), the OU factor per update */
    double rms_ensemble; /* the OU stationary rms of the force */
    int64_t update;      /* the update index of the cached OU state, -1 before any */
} tbrf_driver_info;

/* Fills *info. Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_BAD_PLAN. */
TBRF_API int tbrf_driver_get_info(const tbrf_driver *driver, tbrf_driver_info *info);

/* Bytes tbrf_driver_save writes for this driver (a header and the modes'
 * OU state); 0 for a NULL or failed driver. */
TBRF_API int64_t tbrf_driver_state_size(const tbrf_driver *driver);

/* Writes the cached OU state (its update index and every mode's value,
 * with a fingerprint of the parameters and seed) into buf of `size` bytes,
 * so a restarted code loads it instead of replaying the updates. Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_SIZE (size below
 * tbrf_driver_state_size), TBRF_ERR_NO_GEOMETRY (no state yet: evaluate at
 * some time first), TBRF_ERR_BAD_PLAN. */
TBRF_API int tbrf_driver_save(const tbrf_driver *driver, void *buf, int64_t size);

/* Loads a state written by tbrf_driver_save for a driver made alike (same
 * model, parameters and seed): the force is then bitwise that of a driver
 * that replayed the updates. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (not a tbrf driver state, or one of another driver: the
 * message says which), TBRF_ERR_SIZE, TBRF_ERR_BAD_PLAN. */
TBRF_API int tbrf_driver_load(tbrf_driver *driver, const void *buf, int64_t size);

/* Status of the last call on the driver (TBRF_ERR_BAD_PLAN for a driver
 * whose make failed). */
TBRF_API int tbrf_driver_status(const tbrf_driver *driver);

/* Detailed message of the last failure ("" if none); never NULL. */
TBRF_API const char *tbrf_driver_message(const tbrf_driver *driver);

/* Frees the driver; NULL is ignored. */
TBRF_API void tbrf_driver_destroy(tbrf_driver *driver);
/* Where a driver's sums run (doc/driving.md, "Backends"). A driver is made
 * on the CPU backend; tbrf_driver_set_backend moves it to another. On a
 * non-periodic domain the turning-bands lines (synthesised on the host)
 * are projected by the backend, bitwise the CPU's values (doc/gpu.md). On
 * a periodic box the backend sums the Fourier modes directly (eval DIRECT,
 * which AUTO becomes on a GPU backend), within 1e-10 of the CPU's values
 * relative to the largest |f| (the GPU takes each mode's sine and cosine
 * where the CPU raises e^{i theta} to powers); eval NUFFT runs on the CPU
 * whatever the backend. The state (tbrf_driver_save) does not depend on
 * the backend, eval or thread count: any driver made alike loads it. */

/* Moves the driver's sums to `backend` (TBRF_BACKEND_CPU, _OPENCL, _CUDA,
 * or _AUTO: a CUDA or OpenCL GPU if one works, else the CPU) on device
 * `device` (-1: the backend's first usable; see doc/gpu.md, "Selecting a
 * backend and a device"). The values then come from that backend; the
 * state, time and model are kept. On failure the driver keeps its
 * backend. Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (unknown
 * backend, device < -1), TBRF_ERR_NOT_BUILT (the backend is not in this
 * library), TBRF_ERR_NO_DEVICE (built, but no usable device),
 * TBRF_ERR_UNSUPPORTED (a device without double precision),
 * TBRF_ERR_NO_MEMORY, TBRF_ERR_BAD_PLAN (the make failed); the reason in
 * tbrf_driver_message. */
TBRF_API int tbrf_driver_set_backend(tbrf_driver *driver, int backend, int device);

/* The backend the driver's sums run on: TBRF_BACKEND_CPU, _OPENCL or
 * _CUDA (AUTO resolved); -1 for NULL or a driver whose make failed. */
TBRF_API int tbrf_driver_backend(const tbrf_driver *driver);
/* -------------------------------------------------- inflow boundaries */

/* An inflow boundary (doc/streaming.md, "Inflow boundaries"): a frozen
 * turning-bands field in a tube [lo, hi] that a wind of constant velocity
 * v carries into a simulation, sampled each step in the caller's ghost
 * cells at x - v t. The sampler holds, of every line, only the window of
 * samples that the tube's projection on that line's direction reaches, in
 * double or float; its values are bitwise those of tbrf_execute on a plan
 * made with the same arguments, at the positions x - v t (double lines).
 * Like a plan, a sampler is used by one thread at a time (its OpenMP team,
 * opts.threads, works inside each call). */
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

/* Bytes of line samples the sampler holds (full = 0), or that a plan made
 * with the same arguments holds (full = 1: lines x samples per line x 8);
 * 0 for NULL or a failed sampler. */
TBRF_API int64_t tbrf_inflow_line_bytes(const tbrf_inflow *inflow, int full);

/* The detail of the sampler's last failure ("" after success; a fixed
 * text for NULL). */
TBRF_API const char *tbrf_inflow_message(const tbrf_inflow *inflow);

/* Frees the sampler and its lines; NULL is ignored. */
TBRF_API void tbrf_inflow_destroy(tbrf_inflow *inflow);

/* ---------------------------------------------------- initial conditions
 * The physics of initial conditions for simulation codes (doc/ic.md):
 * cosmological particle loads by the Zel'dovich approximation, density
 * transforms of a Gaussian field, point placement and periodic Voronoi
 * volumes. Parameters come in plain structs filled by tbrf_ic_default_*;
 * the object (tbrf_ic_cosmo) keeps its status and message like a plan,
 * and the free functions write their one-line reason into an optional
 * message buffer (NULL, or room for message_size bytes; "" on success).
 * Writing the result as an AREPO/Gadget file is tbrf_arepo.h's
 * tbrf_arepo_write_cosmo (libtbrf_writer). */

/* Parameters of a cosmological initial condition (tbrf_ic_cosmo_make):
 * G^3 particles on the lattice q = (i, j, k) L/G (or a tiled glass),
 * displaced by Psi, a periodic curl-free Gaussian field with |Psi_k|^2 =
 * P(k) D(z)^2 / k^2 (Psi_k = i k delta_k / k^2, so div Psi = -delta),
 * modes cut at the particle Nyquist frequency pi G / L (a sphere), moving
 * with v = a H f Psi. Flat or curved LCDM without radiation. */
typedef struct tbrf_ic_cosmo_params {
    double box;            /* L, the box side in length units (default 50000: 50 Mpc/h in kpc/h) */
    int64_t particles;     /* G: G^3 particles, 2 <= G <= 2048 (default 32) */
    double redshift;       /* z, -1 < z <= 1e4 (default 127); a = 1/(1+z) */
    double omega_m;        /* 0 < omega_m <= 10 (default 0.3089) */
    double omega_lambda;   /* 0 <= omega_lambda <= 10 (default 0.6911) */
    double omega_b;        /* 0 < omega_b < omega_m (default 0.0486): the transfer function's
                              baryons, and the gas's share with gas = 1 */
    double hubble;         /* h (default 0.6774) */
    double n_s;            /* the spectral index (default 0.9667) */
    double sigma8;         /* sigma(8 Mpc/h) at z = 0 (default 0.831) */
    double t_cmb;          /* the CMB temperature today in K (default 2.7255) */
    double length_per_mpc; /* length units per Mpc/h: 1000 (default: kpc/h) or 1 (Mpc/h) */
    double mass_unit;      /* the mass unit in M_sun/h (default 1e10) */
    double velocity_unit;  /* the velocity unit in cm/s (default 1e5: km/s), < 1e11 */
    int32_t wiggles;       /* Eisenstein & Hu with baryon wiggles (1, default) or without (0) */
    int32_t gas;           /* 1: every site splits into a gas and a dark-matter particle,
                              masses in the ratio omega_b : omega_m - omega_b, shifted as
                              N-GenIC does; 0 (default): dark matter only */
    uint64_t seed;         /* the random seed (default 1) */
    const tbrf_model *power; /* NULL (default): Eisenstein & Hu; else P(k) at z = 0, k in h/Mpc,
                                P in (Mpc/h)^3 (a CAMB/CLASS table), which must cover 2 pi/L to
                                sqrt(3) pi G/L; copied and normalised to sigma8 either way */
    const double *glass;   /* NULL (default): the lattice; else glass_n points (3 glass_n,
                              inside [0, glass_box)^3), tiled T times per axis with G^3 =
                              glass_n T^3 (N-GenIC's GlassFile, GlassTileFac); copied */
    int64_t glass_n;       /* the glass's points (0 default) */
    double glass_box;      /* the glass's box (default 1) */
    double gas_temperature; /* gas: K, 0 (default) = 2.7255 (1 + z), the gas still coupled
                               to the radiation */
    double gas_mu;         /* gas: mean molecular weight (default 1.22, neutral primordial) */
    double gas_gamma;      /* gas: adiabatic index > 1 (default 5/3) */
} tbrf_ic_cosmo_params;

/* Fills *params with the defaults listed in tbrf_ic_cosmo_params (AREPO's
 * cosmo_box_gravity_only_3d example). */
TBRF_API void tbrf_ic_default_cosmo(tbrf_ic_cosmo_params *params);

/* A cosmological initial condition ready to generate: the normalised P(k),
 * the periodic plan of Psi (the FFT method on the lattice, its
 * non-uniform FFT at glass sites), the factors below. */
typedef struct tbrf_ic_cosmo tbrf_ic_cosmo;

/* What an initial condition derived from its parameters. */
typedef struct tbrf_ic_cosmo_info {
    int64_t particles;       /* G^3: dark-matter particles (and as many gas particles) */
    int64_t glass_tile;      /* T with G^3 = glass_n T^3; 0 on the lattice */
    double scale_factor;     /* a = 1 / (1 + z) */
    double growth;           /* D(z), D(0) = 1 */
    double growth_rate;      /* f = dln D / dln a at z */
    double hubble;           /* H(a) in velocity units per length unit */
    double velocity_factor;  /* Gadget's u = v / sqrt(a) per unit of Psi: sqrt(a) f H */
    double mass_dm;          /* a dark-matter particle's mass (mass units): Omega_m rho_crit
                                L^3 / G^3, times (Omega_m - Omega_b) / Omega_m with gas */
    double mass_gas;         /* a gas particle's: the site's mass times Omega_b / Omega_m; 0 */
    double shift_dm;         /* added to every coordinate of dark matter: (1/2)(Omega_b /
                                Omega_m) L/G with gas, else 0 */
    double shift_gas;        /* of gas: -(1/2)(1 - Omega_b / Omega_m) L/G */
    double gas_temperature;  /* K (the default resolved) */
    double internal_energy;  /* gas: k_B T / ((gamma - 1) mu m_p) in velocity units squared */
} tbrf_ic_cosmo_info;

/* The bytes tbrf_ic_cosmo_make and tbrf_ic_cosmo_generate hold at once
 * when the particles come in `chunks` chunks (the plan, the glass, one
 * chunk's displacements, positions, gas positions and energies and glass
 * sites, two lattice planes) into *bytes, and into *fewest the fewest
 * chunks that fit the memory budget (tbrf_memory_budget), 0 when none
 * does (the plan alone is over it). Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (particles outside 2..2048, chunks outside 1 .. 65536,
 * glass_n < 0). */
TBRF_API int tbrf_ic_cosmo_bytes(const tbrf_ic_cosmo_params *params, int64_t chunks,
                                 TBRF_OUT double *bytes, TBRF_OUT int64_t *fewest);

/* Checks the parameters, copies the glass, makes the z = 0 P(k) (Eisenstein
 * & Hu, or a copy of params->power), normalises it to sigma8, and makes
 * the plan of Psi. *ic is set even on failure (NULL only on
 * TBRF_ERR_NO_MEMORY): read tbrf_ic_cosmo_message, then destroy it.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (a parameter out of
 * range, a glass point outside its box, a glass that does not tile G^3 or
 * whose tiling is not cubic, a power table that does not cover the box's
 * modes, no growth factor), TBRF_ERR_SIZE (over the memory budget),
 * TBRF_ERR_NO_MEMORY, and those of the plan. */
TBRF_API int tbrf_ic_cosmo_make(const tbrf_ic_cosmo_params *params, tbrf_ic_cosmo **ic);

/* The parameters the initial condition was made with (glass pointing to
 * its copy, power NULL). Statuses: TBRF_OK,
 * TBRF_ERR_NULL, TBRF_ERR_BAD_PLAN (a failed make). */
TBRF_API int tbrf_ic_cosmo_get_params(const tbrf_ic_cosmo *ic, tbrf_ic_cosmo_params *params);

/* What ic derived (tbrf_ic_cosmo_info). Statuses as
 * tbrf_ic_cosmo_get_params. */
TBRF_API int tbrf_ic_cosmo_get_info(const tbrf_ic_cosmo *ic, tbrf_ic_cosmo_info *info);

/* One chunk of particles (tbrf_ic_cosmo_generate): rows first .. first +
 * count - 1 in particle order (x fastest on the lattice; glass point j
 * of tile (a, b, c) is row j + glass_n (a + T (b + T c))), 3 values a row.
 * Positions inside [0, L); vel is Gadget's u = v / sqrt(a) in velocity
 * units; gas_pos and gas_u (the internal energy, one a row) are NULL
 * without gas; the gas moves with the same velocity. Valid during the
 * call only. */
typedef struct tbrf_ic_chunk {
    int64_t chunk;          /* its index c */
    int64_t first;          /* its first row */
    int64_t count;          /* its rows (0 for an empty chunk) */
    const double *pos;      /* dark matter's positions (3 count) */
    const double *vel;      /* everyone's velocities, u = v / sqrt(a) (3 count) */
    const double *gas_pos;  /* the gas's positions (3 count), or NULL */
    const double *gas_u;    /* the gas's internal energy (count), or NULL */
} tbrf_ic_chunk;

/* Chunk callback: 0 to go on, non-zero to stop (TBRF_ERR_CALLBACK). */
typedef int (*tbrf_ic_push_fn)(void *user, const tbrf_ic_chunk *chunk);

/* Generates the particles in `chunks` chunks, chunk c holding rows [n c /
 * chunks, n (c + 1) / chunks) of the n = G^3 (AREPO's split of a set into
 * files: tbrf_arepo_file_rows), pushed in order c = 0, 1, ..., each once,
 * empty ones too: memory is the plan and one chunk (tbrf_ic_cosmo_bytes,
 * checked against the budget first). The lattice's Psi comes from one
 * streamed pass of the FFT method; glass sites chunk by chunk from the
 * non-uniform FFT. The values are the same for any chunks and threads.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (chunks outside 1 .. 65536),
 * TBRF_ERR_SIZE, TBRF_ERR_NO_MEMORY, TBRF_ERR_CALLBACK, TBRF_ERR_BAD_PLAN,
 * and those of the plan. */
TBRF_API int tbrf_ic_cosmo_generate(tbrf_ic_cosmo *ic, int64_t chunks, tbrf_ic_push_fn push,
                                    void *user);

/* The displacements Psi of every particle (3 n values, rows in particle
 * order, length units, before the gas/dark-matter shifts and the wrap):
 * the field whose spectral divergence is -delta on the lattice. Statuses
 * as tbrf_ic_cosmo_generate. */
TBRF_API int tbrf_ic_cosmo_displacements(tbrf_ic_cosmo *ic, TBRF_ARRAY double *psi);

/* Status of the last call on ic (TBRF_ERR_BAD_PLAN for a failed make). */
TBRF_API int tbrf_ic_cosmo_status(const tbrf_ic_cosmo *ic);

/* The detail of the last failure ("" after success, a fixed text for
 * NULL); never NULL. */
TBRF_API const char *tbrf_ic_cosmo_message(const tbrf_ic_cosmo *ic);

/* Frees ic; NULL is ignored. */
TBRF_API void tbrf_ic_cosmo_destroy(tbrf_ic_cosmo *ic);

/* The tile factor T with particles^3 = glass_n T^3 of a glass (points
 * inside [0, glass_box)^3) into *tile. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (a point outside the glass box, counts that do not
 * tile, a quotient that is no cube; the message says which). */
TBRF_API int tbrf_ic_glass_tile(int64_t glass_n, const double *glass, double glass_box,
                                int64_t particles, TBRF_OUT int64_t *tile, char *message,
                                size_t message_size);

/* The sites of rows first .. first + count - 1 of the glass tiled tile^3
 * times in the box [0, box)^3 into sites (3 count): row j + glass_n (a + T
 * (b + T c)) is glass point j in tile (a, b, c), scaled by box / (T
 * glass_box). Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (sizes,
 * rows beyond glass_n tile^3). */
TBRF_API int tbrf_ic_glass_sites(int64_t glass_n, const double *glass, double glass_box,
                                 int64_t tile, double box, int64_t first, int64_t count,
                                 TBRF_ARRAY double *sites);

/* Point placement (tbrf_ic_points). */
enum tbrf_ic_placement {
    TBRF_IC_LATTICE = 0,  /* G^3 cell centres (i + 1/2) L/G */
    TBRF_IC_JITTERED = 1, /* each coordinate moved by jitter u spacings, u uniform in [-1, 1) */
    TBRF_IC_RANDOM = 2    /* n uniform points in [0, L)^3 */
};

/* Parameters of a placement; the random numbers are Philox draws keyed by
 * the seed in their own stream (doc/design.md, "Random streams"): no
 * field, driver or tbrf_rng_* stream of any seed shares them. */
typedef struct tbrf_ic_points_params {
    int32_t kind;         /* enum tbrf_ic_placement (default TBRF_IC_LATTICE) */
    int32_t reserved;     /* 0 */
    int64_t per_axis;     /* lattice, jittered: G >= 1 (default 2) */
    int64_t n;            /* random: n >= 1 points, < 2^48 (default 8) */
    double box;           /* L > 0 (default 1) */
    double jitter;        /* jittered: 0 <= jitter < 0.5 spacings (default 0.25) */
    uint64_t seed;        /* default 1 */
    uint64_t realization; /* default 0 */
} tbrf_ic_points_params;

/* Fills *params with the defaults listed in tbrf_ic_points_params. */
TBRF_API void tbrf_ic_default_points(tbrf_ic_points_params *params);

/* The number of points of the placement (G^3 or n); -1 for bad params. */
TBRF_API int64_t tbrf_ic_points_count(const tbrf_ic_points_params *params);

/* Points first .. first + count - 1 of the placement into xyz (3 count,
 * interleaved), each inside [0, L)^3; point i depends on (seed,
 * realization, i) only, so a placement can be made in pieces. Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (a parameter, or rows beyond
 * tbrf_ic_points_count). */
TBRF_API int tbrf_ic_points(const tbrf_ic_points_params *params, int64_t first, int64_t count,
                            TBRF_ARRAY double *xyz, char *message, size_t message_size);

/* A density from a unit-variance Gaussian field g (enum tbrf_inflow_density
 * kinds; the inflow sampler's convention): */
typedef struct tbrf_ic_density_params {
    int32_t kind;      /* TBRF_DENSITY_LOGNORMAL: rho_mean exp(sigma g - sigma^2/2);
                          TBRF_DENSITY_LINEAR (default): rho_mean max(1 + sigma g, floor);
                          TBRF_DENSITY_FIELD: g itself */
    int32_t reserved;  /* 0 */
    double rho_mean;   /* > 0 (default 1) */
    double sigma;      /* >= 0 (default 0) */
    double rho_floor;  /* linear: 0 <= floor < 1, relative to rho_mean (default 0) */
} tbrf_ic_density_params;

/* Fills *params with the defaults listed in tbrf_ic_density_params. */
TBRF_API void tbrf_ic_default_density(tbrf_ic_density_params *params);

/* rho[i] from g[i] for n points (g NULL: g = 0, a uniform density),
 * pointwise as tbrf_ic_density_params says (the mean is rho_mean in
 * expectation for unit-variance g): what an inflow boundary writes.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (a parameter). */
TBRF_API int tbrf_ic_density(const tbrf_ic_density_params *params, int64_t n, const double *g,
                             TBRF_ARRAY double *rho, char *message, size_t message_size);

/* As tbrf_ic_density for cells of volumes vol (n values), with the
 * volume-weighted mean imposed exactly instead of in expectation (AREPO
 * gas: masses rho V): rho_i = c s_i with s_i = exp(sigma g_i) (lognormal;
 * the factor exp(-sigma^2/2) cancels and is left out) or max(1 + sigma
 * g_i, floor) (linear; no floor when it is 0), c such that sum rho_i
 * vol_i = rho_mean box_volume; every s_i must be > 0 and finite. Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (a parameter, the kind
 * TBRF_DENSITY_FIELD, box_volume; a non-positive or infinite s_i, the
 * message naming the point). */
TBRF_API int tbrf_ic_density_volumes(const tbrf_ic_density_params *params, int64_t n,
                                     const double *g, const double *vol, double box_volume,
                                     TBRF_ARRAY double *rho, char *message, size_t message_size);

/* The volume of the Voronoi cell of each of n >= 2 points xyz (3n, inside
 * [0, box)^3, none coincident) in the periodic box into vol (n): Qhull on
 * the points and their periodic images within a margin of the faces (the
 * margin grows until every cell is bounded, at most the whole box);
 * deterministic. The volumes sum to box^3. About 2 kB a point, checked
 * against the memory budget. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (n, box, a point outside, coincident points, a
 * degenerate cell, Qhull's refusal), TBRF_ERR_SIZE (budget),
 * TBRF_ERR_NO_MEMORY, TBRF_ERR_NOT_BUILT (libtbrf built without Qhull). */
TBRF_API int tbrf_ic_voronoi_volumes(int64_t n, const double *xyz, double box, TBRF_ARRAY double *vol,
                                     char *message, size_t message_size);

#ifdef __cplusplus
}
#endif
#endif /* TBRF_H */
