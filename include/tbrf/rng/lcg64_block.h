/* tbrf/rng/lcg64_block.h — the host's fill of one block of 64-bit LCG numbers by
 * the block form x_j = t_j + x_last y_j (tables of tbrf_rng_lcg64_block),
 * shared by the vectorized Monte Carlo path (c/mc/mc.c) and bench_mc. C only
 * (OpenMP SIMD, GCC target clones): not one of the device headers. */
#ifndef TBRF_RNG_LCG64_BLOCK_H
#define TBRF_RNG_LCG64_BLOCK_H

#include <stdint.h>

#include "lcg64.h"

/* Clones of the block loop for wider SIMD units, picked at load time (GCC
 * on x86-64): integer multiply-adds and an exact conversion, so every
 * clone gives the same bits. AVX-512DQ has 64-bit lane multiplies. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__gnu_linux__)
#define TBRF_SIMD_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define TBRF_SIMD_CLONES
#endif

/* Fills x[0..w-1] with the numbers after state xl by the block form; returns
 * the last state. */
TBRF_SIMD_CLONES
static uint64_t tbrf_lcg64_block_fill(int64_t w, uint64_t xl, const uint64_t *y,
                                      const uint64_t *t, double *x)
{
#pragma omp simd
    for (int64_t j = 0; j < w; j++)
        x[j] = tbrf_lcg64_u01(t[j] + xl * y[j]);
    return t[w - 1] + xl * y[w - 1];
}

#endif
