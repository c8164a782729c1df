/* mc_body.h — the Monte Carlo integrand bodies and the per-chunk loop,
 * shared by the CPU (c/mc/mc.c), OpenCL (backends/opencl/mc_opencl.c) and
 * CUDA (backends/cuda/mc_cuda.cu) so that every backend runs the same
 * arithmetic in the same order (only cos, exp, pow of the device may round
 * differently). Compiles as C, CUDA and OpenCL C through
 * tbrf/rng/features.h (TBRF_DEVICE_FN, TBRF_GLOBAL, TBRF_FP64); needs
 * double precision. Its arithmetic is plain operators, never to be fused
 * into multiply-adds: C11 does not contract, the OpenCL source sets
 * FP_CONTRACT OFF (opencl_prelude.cl) and mc_cuda.cu is compiled with
 * -fmad=false.
 *
 * An integrand is accumulated one coordinate at a time (a point's numbers
 * are consumed as they are generated, so no per-point array is needed on
 * a device): sums over coordinates use four partial sums s[i % 4] added as
 * (s0 + s1) + (s2 + s3) at the end. */
#ifndef TBRF_MC_BODY_H
#define TBRF_MC_BODY_H

#ifndef TBRF_RNG_FEATURES_H /* skipped when the sources are concatenated */
#include "tbrf/rng/features.h"
#endif
#ifndef TBRF_RNG_LCG64_H
#include "tbrf/rng/lcg64.h"
#endif

#ifdef TBRF_FP64

/* Integrand ids, equal to tbrf.h's enum tbrf_mc_integrand. */
#define TBRF_MCK_OSCILLATORY 0
#define TBRF_MCK_PRODUCT_PEAK 1
#define TBRF_MCK_CORNER_PEAK 2
#define TBRF_MCK_GAUSSIAN 3
#define TBRF_MCK_CONTINUOUS 4
#define TBRF_MCK_DISCONTINUOUS 5
#define TBRF_MCK_NAG 6

#define TBRF_MC_CHUNK 8192 /* points per statistics chunk, on every backend */

typedef struct tbrf_mc_acc {
    double s[4]; /* partial sums */
    double prod; /* product (product peak) */
    double x[4]; /* first coordinates (nag, discontinuous) */
} tbrf_mc_acc;

TBRF_DEVICE_FN void tbrf_mc_acc_init(tbrf_mc_acc *acc)
{
    acc->s[0] = acc->s[1] = acc->s[2] = acc->s[3] = 0.0;
    acc->prod = 1.0;
    acc->x[0] = acc->x[1] = acc->x[2] = acc->x[3] = 0.0;
}

/* Adds coordinate i (value xi, parameters ai, ui) of the current point. */
TBRF_DEVICE_FN void tbrf_mc_acc_add(tbrf_mc_acc *acc, int kind, int i, double xi, double ai,
                                 double ui)
{
    double t;
    if (i < 4)
        acc->x[i] = xi;
    switch (kind) {
    case TBRF_MCK_OSCILLATORY:
    case TBRF_MCK_CORNER_PEAK:
    case TBRF_MCK_DISCONTINUOUS:
        acc->s[i & 3] += ai * xi;
        break;
    case TBRF_MCK_PRODUCT_PEAK:
        t = xi - ui;
        acc->prod *= 1.0 / (1.0 / (ai * ai) + t * t);
        break;
    case TBRF_MCK_GAUSSIAN:
        t = xi - ui;
        acc->s[i & 3] += ai * ai * (t * t);
        break;
    case TBRF_MCK_CONTINUOUS:
        acc->s[i & 3] += ai * tbrf_fabs(xi - ui);
        break;
    default:
        break;
    }
}

/* The integrand's value once all d coordinates were added; u0, u1 are the
 * first two shifts. */
TBRF_DEVICE_FN double tbrf_mc_acc_value(const tbrf_mc_acc *acc, int kind, int d, double u0,
                                     double u1)
{
    const double two_pi = 6.283185307179586476925286766559;
    double s = (acc->s[0] + acc->s[1]) + (acc->s[2] + acc->s[3]), q;
    switch (kind) {
    case TBRF_MCK_OSCILLATORY:
        return tbrf_cos(two_pi * u0 + s);
    case TBRF_MCK_PRODUCT_PEAK:
        return acc->prod;
    case TBRF_MCK_CORNER_PEAK:
        return tbrf_pow(1.0 + s, -(double)(d + 1));
    case TBRF_MCK_GAUSSIAN:
    case TBRF_MCK_CONTINUOUS:
        return tbrf_exp(-s);
    case TBRF_MCK_DISCONTINUOUS:
        return (acc->x[0] > u0 || acc->x[1] > u1) ? 0.0 : tbrf_exp(s);
    default: /* NAG D01GBF: 4 x1 x3^2 exp(2 x1 x3) / (1 + x2 + x4)^2 */
        q = 1.0 + acc->x[1] + acc->x[3];
        return 4.0 * acc->x[0] * acc->x[2] * acc->x[2] * tbrf_exp(2.0 * acc->x[0] * acc->x[2]) /
               (q * q);
    }
}

/* The statistics of chunk c of an n-point integration from LCG seed `seed`:
 * K = its first value, s1 = sum (f - K), s2 = sum (f - K)^2. Points are
 * successive d-tuples of tbrf_lcg64_u01(x_k), k = 1, 2, ... */
TBRF_DEVICE_FN void tbrf_mc_chunk(int kind, int d, uint64_t n, uint64_t seed,
                               TBRF_GLOBAL const double *a, TBRF_GLOBAL const double *u,
                               uint64_t c, double *K, double *s1, double *s2)
{
    uint64_t p0 = c * (uint64_t)TBRF_MC_CHUNK, p1 = p0 + (uint64_t)TBRF_MC_CHUNK;
    if (p1 > n)
        p1 = n;
    uint64_t x = tbrf_lcg64_jump(seed, p0 * (uint64_t)d);
    double k = 0.0, t1 = 0.0, t2 = 0.0;
    for (uint64_t p = p0; p < p1; p++) {
        tbrf_mc_acc acc;
        tbrf_mc_acc_init(&acc);
        for (int i = 0; i < d; i++) {
            x = tbrf_lcg64_step(x);
            tbrf_mc_acc_add(&acc, kind, i, tbrf_lcg64_u01(x), a[i], u[i]);
        }
        double f = tbrf_mc_acc_value(&acc, kind, d, u[0], d > 1 ? u[1] : 0.0);
        if (p == p0)
            k = f;
        double t = f - k;
        t1 += t;
        t2 += t * t;
    }
    *K = k;
    *s1 = t1;
    *s2 = t2;
}

/* A device kernel's work for chunk c (one thread or work-item per chunk):
 * nothing when c is past the last chunk, else its statistics stored at
 * K[c], S1[c], S2[c]. */
TBRF_DEVICE_FN void tbrf_mc_chunk_store(int kind, int d, uint64_t n, uint64_t seed,
                                     TBRF_GLOBAL const double *a, TBRF_GLOBAL const double *u,
                                     uint64_t c, TBRF_GLOBAL double *K, TBRF_GLOBAL double *S1,
                                     TBRF_GLOBAL double *S2)
{
    if (c * (uint64_t)TBRF_MC_CHUNK >= n)
        return;
    double k, s1, s2;
    tbrf_mc_chunk(kind, d, n, seed, a, u, c, &k, &s1, &s2);
    K[c] = k;
    S1[c] = s1;
    S2[c] = s2;
}

#if defined(__OPENCL_VERSION__)
/* One work-item per chunk. */
__kernel void tbrf_mc_chunks(int kind, int d, ulong n, ulong seed, __global const double *a,
                             __global const double *u, __global double *K, __global double *S1,
                             __global double *S2)
{
    tbrf_mc_chunk_store(kind, d, n, seed, a, u, get_global_id(0), K, S1, S2);
}
#endif

#endif /* TBRF_FP64 */
#endif
