/* tbrf/rng/lcg64.h — the 64-bit LCG x' = a x + c mod 2^64 (a = 6364136223846793005,
 * c = 1442695040888963407), its O(log n) jump-ahead, the block (vector)
 * form, and two output functions on the same state sequence:
 *   plain     out = x >> 32 (top half; fails TestU01 BirthdaySpacings)
 *   permuted  PCG's XSH-RR: ((x ^ (x >> 18)) >> 27) rotated right by x >> 59
 * The k-th output of a stream seeded with x0 is out(x_k), k = 1, 2, ...,
 * i.e. the state is advanced first. Compiles as C, CUDA and OpenCL C. */
#ifndef TBRF_RNG_LCG64_H
#define TBRF_RNG_LCG64_H

#ifndef TBRF_RNG_FEATURES_H /* skipped when the sources are concatenated */
#include "features.h"
#endif

/* a = 6364136223846793005, c = 1442695040888963407, written without the
 * ull suffix, which OpenCL C lacks */
#define TBRF_LCG64_A ((uint64_t)0x5851F42Du << 32 | (uint64_t)0x4C957F2Du)
#define TBRF_LCG64_C ((uint64_t)0x14057B7Eu << 32 | (uint64_t)0xF767814Fu)

/* A(n) = a^n and C(n) = c (a^n - 1)/(a - 1) mod 2^64 by binary powering, so
 * x_{k+n} = A(n) x_k + C(n). */
TBRF_DEVICE_FN void tbrf_lcg64_affine(uint64_t n, uint64_t *A, uint64_t *C)
{
    uint64_t g = 1u, c = 0u, h = TBRF_LCG64_A, f = TBRF_LCG64_C;
    for (; n; n >>= 1) {
        if (n & 1u) {
            g *= h;
            c = c * h + f;
        }
        f *= h + 1u;
        h *= h;
    }
    *A = g;
    *C = c;
}

/* The state n steps after x. */
TBRF_DEVICE_FN uint64_t tbrf_lcg64_jump(uint64_t x, uint64_t n)
{
    uint64_t A, C;
    tbrf_lcg64_affine(n, &A, &C);
    return A * x + C;
}

TBRF_DEVICE_FN uint64_t tbrf_lcg64_step(uint64_t x)
{
    return TBRF_LCG64_A * x + TBRF_LCG64_C;
}

TBRF_DEVICE_FN uint32_t tbrf_lcg64_out(uint64_t x)
{
    return (uint32_t)(x >> 32);
}

TBRF_DEVICE_FN uint32_t tbrf_lcg64_out_permuted(uint64_t x)
{
    uint32_t xs = (uint32_t)(((x >> 18) ^ x) >> 27);
    uint32_t rot = (uint32_t)(x >> 59);
    return (xs >> rot) | (xs << ((32u - rot) & 31u));
}

/* The double in [0,1) of a state for Monte Carlo: its top 52 bits as the
 * mantissa of a number in [1,2), minus 1, i.e. (x >> 12) 2^-52 exactly.
 * Chosen over (x >> 11) 2^-53 because it needs no integer-to-float
 * conversion, so it vectorizes on every SIMD unit and gives the same bits
 * on every backend. */
#ifdef TBRF_FP64
TBRF_DEVICE_FN double tbrf_lcg64_u01(uint64_t x)
{
    return tbrf_bits_to_double((x >> 12) | ((uint64_t)0x3FF00000u << 32)) - 1.0;
}
#endif

#endif
