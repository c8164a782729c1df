/* tbrf/common.h — the export and argument marks, status codes, version, options and the memory budget.
 * A feature header of the public API: <tbrf.h> includes every one;
 * each may also be included alone (conventions: tbrf.h). */
#ifndef TBRF_COMMON_PUBLIC_H
#define TBRF_COMMON_PUBLIC_H

#include <stddef.h>
#include <stdint.h>

#include "tbrf_version.h" /* TBRF_VERSION_MAJOR, _MINOR, _PATCH, _STRING */

#ifdef __cplusplus
extern "C" {
#endif

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
    TBRF_ERR_BAD_PLAN = 16,      /* the plan failed to build; see tbrf_plan_message() */
    TBRF_ERR_CANCELLED = 17      /* the object's cancel hook stopped the call (tbrf_cancel_fn) */
} tbrf_status;

/* The cancel hook of an object's long calls, set by tbrf_set_cancel,
 * tbrf_driver_set_cancel, tbrf_inflow_set_cancel or
 * tbrf_ic_cosmo_set_cancel: while a call evaluates, the library calls
 * cancel(user) on the calling thread (never from a worker thread) between
 * pieces of the work: blocks of rows of Fourier modes and the stages of
 * the FFT method, blocks of cells or points of the projections and the
 * sums of modes. A non-zero return stops the call: it frees what it
 * allocated and returns TBRF_ERR_CANCELLED with a message; the output
 * array then holds partial values, and the object stays usable. A hook
 * costs one call per block of about 10^7 elementary operations (a few
 * hundredths of a second on one thread; one FFTW transform, which runs
 * as one call, is not split). Thread-safe as far as the hook is. */
typedef int (*tbrf_cancel_fn)(void *user);

/* Short, static, English description of a status code. Never NULL: an
 * unknown code gives "unknown status". Thread-safe. */
TBRF_API const char *tbrf_strerror(int status);

/* The library version as "MAJOR.MINOR.PATCH", identical to
 * TBRF_VERSION_STRING of the header the library was built with. */
TBRF_API const char *tbrf_version(void);

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
    int32_t lines;        /* (math) number of turning-bands lines L; 0 (default): the plan's
                             first geometry picks them (tbrf_default_lines: a grid's spectrum
                             isotropic up to its Nyquist, within a cost and memory bound;
                             1024 at points) */
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

#ifdef __cplusplus
}
#endif
#endif /* TBRF_COMMON_PUBLIC_H */
