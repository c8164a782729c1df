/* drive_body.h — the direct sum of a periodic driver's Fourier modes at
 * one point (backend.h, drive_sum), shared verbatim by OpenCL C
 * (kernels/drive.cl) and CUDA (kernels/drive.cu), with the qualifiers and
 * integer types of tbrf/rng/features.h.
 *
 * Where the CPU backend raises e^{i theta_d} to the power m by repeated
 * products per point (cpu/drive_cpu.c; a table of 3 x 512 complex values
 * per point, too large for a work-item's registers), a work-item takes the
 * cosine and sine of each mode's phase 2 pi frac(m . t) directly: no
 * table, one sincos per mode. The two differ by rounding: m . t has an
 * absolute error of a few ulps of |m . t| <= 1533 (~1e-12 radians), the
 * CPU's powers ~m ulps (~1e-13), so a term differs by ~1e-12 of its size
 * (doc/driving.md, "Backends", gives the tolerance the tests use). Modes
 * are summed in their order 0..nm-1, as on the CPU. Double only: the
 * driver's values are double on every backend. */
#ifndef TBRF_DRIVE_BODY_H
#define TBRF_DRIVE_BODY_H

#ifndef TBRF_RNG_FEATURES_H /* skipped when the sources are concatenated */
#include "tbrf/rng/features.h"
#endif

#ifdef TBRF_FP64
/* The fraction of (x - o) / len in [0, 1), as the CPU backend. */
TBRF_DEVICE_FN double drive_frac(double x, double o, double len)
{
    double t = (x - o) / len;
    return t - floor(t);
}

/* The force at the point of box fractions (t0, t1, t2) into out[0..dim-1]:
 * 2 sum_i Re(coef_i,c e^{i 2 pi m_i . t}); m: 3 per mode, coef: 2 dim per
 * mode (re, im of each component). */
TBRF_DEVICE_FN void drive_point(const TBRF_GLOBAL int *m, const TBRF_GLOBAL double *coef,
                                TBRF_INT64 nm, int dim, double t0, double t1, double t2,
                                TBRF_GLOBAL double *out)
{
    double a0 = 0.0, a1 = 0.0, a2 = 0.0;
    for (TBRF_INT64 i = 0; i < nm; i++) {
        const TBRF_GLOBAL int *mi = m + 3 * i;
        double ph = (double)mi[0] * t0 + (double)mi[1] * t1 + (double)mi[2] * t2;
        ph -= floor(ph);
        const double th = 6.283185307179586476925 * ph, er = cos(th), ei = sin(th);
        const TBRF_GLOBAL double *cf = coef + 2 * dim * i;
        a0 += cf[0] * er - cf[1] * ei;
        a1 += cf[2] * er - cf[3] * ei;
        if (dim == 3)
            a2 += cf[4] * er - cf[5] * ei;
    }
    out[0] = 2.0 * a0;
    out[1] = 2.0 * a1;
    if (dim == 3)
        out[2] = 2.0 * a2;
}
#endif
#endif
