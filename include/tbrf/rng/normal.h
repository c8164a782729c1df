/* tbrf/rng/normal.h — uniform and normal deviates from 32-bit output words, the
 * one set of conversions used on every backend (C, CUDA, OpenCL C).
 *
 * All conversions are exact (an integer times a power of two), so every
 * backend gives the same bits:
 *   tbrf_u01_open(x) = (x + 0.5) 2^-32          double in (0,1), symmetric;
 *                                               used by Box–Muller (log finite)
 *   tbrf_u01(x)      = x 2^-32                  double in [0, 1 - 2^-32]
 *   tbrf_s11(x)      = (x - 2^31) 2^-31         double in [-1, 1 - 2^-31]
 *   tbrf_u01f(x)     = (x >> 8) 2^-24           float in [0, 1 - 2^-24]
 *   tbrf_s11f(x)     = ((x >> 8) - 2^23) 2^-23  float in [-1, 1 - 2^-23]
 *   tbrf_u01_53(hi,lo) = (hi 2^21 + lo >> 11) 2^-53  double in [0,1), 53 bits
 * The float forms keep the top 24 bits so the value is exactly a float and
 * never rounds up to 1. */
#ifndef TBRF_RNG_NORMAL_H
#define TBRF_RNG_NORMAL_H

#ifndef TBRF_RNG_FEATURES_H /* skipped when the sources are concatenated */
#include "features.h"
#endif

TBRF_DEVICE_FN float tbrf_u01f(uint32_t x)
{
    return (float)(x >> 8) * (1.0f / 16777216.0f);
}

TBRF_DEVICE_FN float tbrf_s11f(uint32_t x)
{
    return (float)((int)(x >> 8) - 8388608) * (1.0f / 8388608.0f);
}

#ifdef TBRF_FP64
TBRF_DEVICE_FN double tbrf_u01_open(uint32_t x)
{
    return ((double)x + 0.5) * (1.0 / 4294967296.0);
}

TBRF_DEVICE_FN double tbrf_u01(uint32_t x)
{
    return (double)x * (1.0 / 4294967296.0);
}

TBRF_DEVICE_FN double tbrf_s11(uint32_t x)
{
    return ((double)x - 2147483648.0) * (1.0 / 2147483648.0);
}

TBRF_DEVICE_FN double tbrf_u01_53(uint32_t hi, uint32_t lo)
{
    return ((double)hi * 2097152.0 + (double)(lo >> 11)) * (1.0 / 9007199254740992.0);
}

/* Box–Muller: two words give two independent standard normals. */
TBRF_DEVICE_FN void tbrf_box_muller(uint32_t a, uint32_t b, double *g0, double *g1)
{
    const double two_pi = 6.283185307179586476925286766559;
    double r = tbrf_sqrt(-2.0 * tbrf_log(tbrf_u01_open(a)));
    double t = two_pi * tbrf_u01_open(b);
    *g0 = r * tbrf_cos(t);
    *g1 = r * tbrf_sin(t);
}
#endif

#endif
