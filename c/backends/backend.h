/* backend.h — the dispatch table through which the plan runs the
 * projection and Monte Carlo integration runs on a GPU. The CPU backend is
 * always built; OpenCL and CUDA add their own entries when compiled in, and
 * callers never change. Every backend fills every slot: where it lacks a
 * feature it points the slot at one of the tbrfi_backend_no_* stubs below
 * (as netCDF-C's dispatch tables do), so callers never test for NULL; a
 * backend this build lacks is answered TBRF_ERR_NOT_BUILT by
 * tbrfi_backend_lookup. */
#ifndef TBRF_BACKEND_H
#define TBRF_BACKEND_H

#include <stddef.h>
#include <stdint.h>
#include "tbrf.h"
#include "core/geometry.h"

/* Everything a backend needs to project synthesised lines onto positions:
 * the value at x is norm * sum_l interp(line_l, t_l(x)) with
 * t_l(x) = (x - center) . axis_l + (offset + shift_l), axis_l = u_l / delta,
 * shift_l in (0, 1) the line's sub-sample shift, stored after the axes
 * (axis[3L + l]): a random position of the sample grid per line, so that
 * no point of the domain is read at the same sub-sample position on every
 * line (without it the centre, where t_l = offset for all l,
 * had the interpolation's variance error undiluted). */
typedef struct projection {
    int dim;
    int L;
    int64_t M;
    const double *lines;  /* L*M samples */
    const double *axis;   /* L*3 axes, then L shifts */
    double offset;
    double center[3];
    double norm;          /* 1/sqrt(L) */
    int precision;        /* TBRF_DOUBLE or TBRF_FLOAT */
    int threads;
    void *state;          /* the plan's backend state from init (NULL if none) */
    uint64_t generation;  /* changes whenever lines/axis hold new values, so a
                           * stateful backend uploads them once per realization */
} projection;

/* The per-line constants of grid g (projection.c), 4 per line, malloc'd
 * (NULL if memory is short): t(i,j,k) = fma(i, c1, (c0 + k c3) + j c2) at
 * the global indices (i, j, k) (g->start added), with
 * c0 = (origin - center) . axis + (offset + shift) and c1..c3 = spacing * axis (c3 = 0
 * in 2D). Every backend indexes its lines from these same doubles. */
double *tbrfi_projection_grid_constants(const projection *p, const grid_geom *g);

/* The Fourier modes of a periodic driver (apps/driving/driver.c) for their
 * direct sum at positions: component c of the force at x is
 * 2 sum_i Re(coef_i,c e^{i 2 pi (m_i . t(x))}), t_d(x) the fraction of
 * (x_d - origin_d) / length_d in [0, 1), so the value is periodic in the
 * box. The listed modes are one of each +-m pair (the factor 2), with
 * |m_d| <= mmax[d] <= 511. */
typedef struct drive_sum {
    int dim;
    int64_t nm;
    const int32_t *m;     /* 3 per mode (m_z = 0 in 2D) */
    const double *coef;   /* 2 dim per mode: re, im of each component */
    int mmax[3];
    double origin[3], length[3];
    int threads;
    void *state;          /* the driver's backend state from init */
    uint64_t generation;  /* changes whenever coef holds new values, so a
                           * stateful backend uploads them once per time */
} drive_sum;

/* Lines kept as windows of samples (the inflow sampler, apps/inflow): line
 * l holds samples first[l] .. first[l] + count[l] - 1 only, sample j at
 * samples + base[l] + j, in double or float; its value at a point d
 * relative to the centre is interp(line_l, d . axis_l + offset + shift_l)
 * as a projection's (the same bits for double samples). */
typedef struct window_lines {
    int L;
    int precision;         /* of the samples: TBRF_DOUBLE or TBRF_FLOAT */
    const void *samples;
    const int64_t *first, *count, *base;
    const double *axis;    /* L*3 axes, then L shifts */
    const double *off;     /* L: offset + shift_l */
    double offset;
    int margin;            /* samples a float window reads beyond a tile's span */
} window_lines;

typedef struct backend_ops {
    int id;
    const char *name;
    /* TBRF_OK, or TBRF_ERR_NO_DEVICE. */
    int (*available)(void);
    /* Cells first..first+count-1 of the grid in x-fastest order into out
     * (out[0] is cell `first`). The value of a cell must not depend on
     * first/count, so streamed chunks equal one-shot evaluation, nor on
     * g->start: cell (i, j, k) of the box is computed as the global cell
     * start + (i, j, k) from the constants of the global origin, so any
     * sub-box gives bitwise the whole grid's values. */
    int (*project_grid)(const projection *p, const grid_geom *g, int64_t first, int64_t count,
                        void *out);
    /* n points xyz[dim*i + c] into out. */
    int (*project_points)(const projection *p, int64_t n, const double *xyz, void *out);
    /* Per-plan state (device, programs, cached buffers) made at make_plan
     * from the options (device, work_group, unroll, precision); a status
     * and a message on failure. Stateless backends: tbrfi_backend_no_init
     * (state NULL, TBRF_OK). */
    int (*init)(const tbrf_opts *opts, void **state, char *msg, size_t msgsize);
    void (*release)(void *state); /* tbrfi_backend_no_release: nothing */
    /* Detail of the last failure of a project call on this state, or NULL
     * (tbrfi_backend_no_message: always NULL). */
    const char *(*message)(void *state);
    /* TBRF_OK if the backend has a GPU (or accelerator) device: AUTO only
     * picks GPU backends through this, never a CPU OpenCL device
     * (tbrfi_backend_no_gpu: TBRF_ERR_NO_DEVICE). */
    int (*available_gpu)(void);
    /* The Monte Carlo chunks of tbrf_mc_integrate_device() on device
     * `device` (-1: the default): for chunk c of TBRF_MC_CHUNK points
     * (kernels/mc_body.h) its first value K[c] and shifted sums
     * S1[c], S2[c]; a and u (dim values, NULL: 1 and 0.5) are the
     * integrand's parameters. A status (tbrfi_backend_no_mc:
     * TBRF_ERR_UNSUPPORTED, the CPU's, which integrates in c/mc/mc.c). */
    int (*mc_chunks)(int device, int integrand, int dim, const double *a, const double *u,
                     int64_t n, uint64_t seed, double *K, double *S1, double *S2);
    /* The direct sum of a periodic driver's modes (drive_sum) at n points
     * xyz[dim*i + d] into out[dim*i + c], in double. A point's value does
     * not depend on n or on the other points, so chunks equal one call.
     * The CPU's phases are e^{i theta} raised by products (driver.c's
     * values since 0.3); the GPU kernel (kernels/drive_body.h) takes the
     * sine and cosine of each mode's reduced phase: the two agree to
     * ~1e-13 relative (doc/driving.md, "Backends"). A status, with the
     * detail in message(state) (tbrfi_backend_no_drive:
     * TBRF_ERR_UNSUPPORTED). */
    int (*drive_points)(const drive_sum *s, int64_t n, const double *xyz, double *out);
    /* Adds to acc[i], for the n points (dx, dy, dz)[i] relative to the
     * centre (n a multiple of 8: the caller repeats the last point), the
     * sum of lines l = 0 .. L-1 of w in that order, unnormalised. scratch
     * (the calling thread's) holds the longest float window in double.
     * One thread; a status (tbrfi_backend_no_windows: TBRF_ERR_UNSUPPORTED,
     * the GPUs': the inflow sampler's windowed lines run on the CPU
     * backend only). */
    int (*project_windows)(const window_lines *w, int64_t n, const double *dx, const double *dy,
                           const double *dz, double *scratch, double *acc);
} backend_ops;

/* The stubs of absent features (backend.c). */
int tbrfi_backend_no_init(const tbrf_opts *opts, void **state, char *msg, size_t msgsize);
void tbrfi_backend_no_release(void *state);
const char *tbrfi_backend_no_message(void *state);
int tbrfi_backend_no_gpu(void);
int tbrfi_backend_no_mc(int device, int integrand, int dim, const double *a, const double *u,
                        int64_t n, uint64_t seed, double *K, double *S1, double *S2);
int tbrfi_backend_no_drive(const drive_sum *s, int64_t n, const double *xyz, double *out);
int tbrfi_backend_no_windows(const window_lines *w, int64_t n, const double *dx, const double *dy,
                             const double *dz, double *scratch, double *acc);

/* The CPU backend's drive_points (cpu/drive_cpu.c). */
int tbrfi_drive_cpu_points(const drive_sum *s, int64_t n, const double *xyz, double *out);
/* Its project_windows (cpu/windows_cpu.c). */
int tbrfi_windows_cpu_project(const window_lines *w, int64_t n, const double *dx, const double *dy,
                              const double *dz, double *scratch, double *acc);

extern const backend_ops tbrf_backend_cpu;
#ifdef TBRF_HAVE_OPENCL
extern const backend_ops tbrf_backend_opencl;
/* Its mc_chunks (backends/opencl/mc_opencl.c). */
int tbrfi_mc_opencl_chunks(int device, int integrand, int dim, const double *a, const double *u,
                           int64_t n, uint64_t seed, double *K, double *S1, double *S2);
#endif
#ifdef TBRF_HAVE_CUDA
extern const backend_ops tbrf_backend_cuda;
/* Its mc_chunks (backends/cuda/mc_cuda.cu). */
int tbrfi_mc_cuda_chunks(int device, int integrand, int dim, const double *a, const double *u,
                         int64_t n, uint64_t seed, double *K, double *S1, double *S2);
#endif

/* The table entry for a backend id; NULL with *status = TBRF_ERR_NOT_BUILT
 * (or TBRF_ERR_INVALID for an unknown id). AUTO resolves to the first GPU
 * backend with a GPU device (CUDA, then OpenCL), else the CPU: an OpenCL
 * CPU device (PoCL) is slower than the native CPU backend. */
const backend_ops *tbrfi_backend_lookup(int id, int *status);

#endif
