/* rng/normal.h — uniform and normal deviates from 32-bit counter-based
 * output words. Header-only and free of host-only constructs so the same
 * body can later be compiled as CUDA and OpenCL C. One conversion is used
 * everywhere: u = (x + 0.5) * 2^-32, which lies strictly inside (0,1), so
 * log(u) is always finite and the distribution is symmetric. */
#ifndef TBRF_RNG_NORMAL_H
#define TBRF_RNG_NORMAL_H

#include <math.h>
#include <stdint.h>

static inline double tbrf_u01_open(uint32_t x)
{
    return ((double)x + 0.5) * (1.0 / 4294967296.0);
}

/* Box–Muller: two words give two independent standard normals. */
static inline void tbrf_box_muller(uint32_t a, uint32_t b, double *g0, double *g1)
{
    const double two_pi = 6.283185307179586476925286766559;
    double r = sqrt(-2.0 * log(tbrf_u01_open(a)));
    double t = two_pi * tbrf_u01_open(b);
    *g0 = r * cos(t);
    *g1 = r * sin(t);
}

#endif
