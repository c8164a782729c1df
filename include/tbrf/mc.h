/* tbrf/mc.h — Monte Carlo integration.
 * A feature header of the public API: <tbrf.h> includes every one;
 * each may also be included alone (conventions: tbrf.h). */
#ifndef TBRF_MC_PUBLIC_H
#define TBRF_MC_PUBLIC_H

#include "tbrf/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------- Monte Carlo */

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

#ifdef __cplusplus
}
#endif
#endif /* TBRF_MC_PUBLIC_H */
